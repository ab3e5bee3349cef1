#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# nvtop-real.sh - on a machine with a real NVIDIA GPU: the CPU of gputop
# (and of the older binary in $BASELINE, where set) against nvtop's, each
# program alone in a tmux pane of 200x60 on the real driver, at a 0.1 s
# and a 1 s interval. CPU is the sum of every thread's
# /proc/PID/task/*/schedstat over DUR s (15), after SETTLE s (3); wakes are
# their voluntary context switches. Each line names the NVML the program
# mapped, so a run that loaded something else shows it. Read-only: the
# programs only watch.
#
# Environment: GPUTOP (build/gputop), BASELINE, NVTOP (nvtop on PATH),
# TMUX_BIN (tmux on PATH), GPUTOP_ARGS (added to gputop's command line).
set -u
gputop=${GPUTOP:-build/gputop}
nvtop=${NVTOP:-$(command -v nvtop || true)}
tmux_bin=${TMUX_BIN:-tmux}
dur=${DUR:-15}
settle=${SETTLE:-3}
sock=nvtop-real-$$
[ -n "$nvtop" ] || { echo "nvtop-real.sh: no nvtop (set NVTOP or PATH)" >&2; exit 2; }

# CPU ns and voluntary switches of all of pid's threads.
usage_of() {
	local t=0 v=0 a x f
	for f in /proc/"$1"/task/*; do
		read -r a _ <"$f/schedstat" 2>/dev/null || continue
		x=$(awk '/^voluntary_ctxt_switches/{print $2}' "$f/status" 2>/dev/null)
		t=$((t + ${a:-0}))
		v=$((v + ${x:-0}))
	done
	echo "$t $v"
}

measure() { # label iv command...
	local label=$1 iv=$2 pid nv t0 v0 t1 v1
	shift 2
	# The pane's shell stays after the program, so a program that quits
	# at once leaves its last words to show.
	"$tmux_bin" -L "$sock" new-session -d -x 200 -y 60 -s w \
		"env LANG=C.UTF-8 TERM=xterm-256color HOME=${TMPDIR:-/tmp} $*; echo EXITED \$?; sleep 60"
	sleep "$settle"
	pid=$(pgrep -n -P "$("$tmux_bin" -L "$sock" list-panes -t w -F '#{pane_pid}')" -x "$(basename "$1")")
	if [ -z "$pid" ]; then
		echo "$label $iv s: quit before it was measured; its screen:"
		"$tmux_bin" -L "$sock" capture-pane -p -t w | grep -v '^$' | tail -n 5
		"$tmux_bin" -L "$sock" kill-server 2>/dev/null
		return
	fi
	nv=$(grep -m1 -o '/[^ ]*libnvidia-ml[^ ]*' "/proc/$pid/maps" 2>/dev/null)
	read -r t0 v0 < <(usage_of "$pid")
	sleep "$dur"
	read -r t1 v1 < <(usage_of "$pid")
	# A program that ended in the window has no figure: its threads'
	# counters are gone, and the difference would read as a measurement.
	if ! kill -0 "$pid" 2>/dev/null; then
		echo "$label $iv s: quit while it was measured; its screen:"
		"$tmux_bin" -L "$sock" capture-pane -p -t w | grep -v '^$' | tail -n 5
		"$tmux_bin" -L "$sock" kill-server 2>/dev/null
		return
	fi
	"$tmux_bin" -L "$sock" kill-server 2>/dev/null
	awk -v l="$label" -v i="$iv" -v a="$t0" -v b="$t1" -v c="$v0" \
		-v d="$v1" -v n="${nv:-no NVML mapped}" -v s="$dur" \
		'BEGIN { printf "%-8s %4s s: %8.1f ms CPU in %d s, %4d wakes  (%s)\n",
		         l, i, (b - a) / 1e6, s, d - c, n }'
}

read -r -a extra <<<"${GPUTOP_ARGS:-}"
for iv in 0.1 1; do
	measure gputop "$iv" "$gputop" "${extra[@]}" --interval "$iv"
	[ -n "${BASELINE:-}" ] &&
		measure baseline "$iv" "$BASELINE" "${extra[@]}" --interval "$iv"
	measure nvtop "$iv" "$nvtop" -d "$(awk -v i="$iv" 'BEGIN { printf "%d", i * 10 }')"
done

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The dashboard's loop in a real terminal (tmux), at a 10 s interval so no
# sample wakes it: SIGTERM, SIGINT and SIGHUP end it at once, so does its
# terminal closing (no orphan left spinning), a resize is redrawn at once,
# the clock ticks each second and a notice goes after its 5 s with no key
# pressed. Then the small things of issue 10: a status line that drops
# whole key hints (never "e why N/"), help that says when it has more
# lines, and a sort marker apart from its header.
set -u
here=$(dirname "$0")
# shellcheck source=tests/terminal/tmux_lib.sh
. "$here/tmux_lib.sh"
tmux_begin loop
scn=$scn_dir/h100x8.scn
mark="--seed 4$$"

# Started means drawn: the title and the status line's clock (how much
# room the process table gets is the layout's business, tests/terminal/
# layout.sh).
start() { # cols rows [interval [scenario]]
	t kill-session -t dash 2>/dev/null
	t new-session -d -x "$1" -y "$2" -s dash \
		"env LANG=C.UTF-8 XDG_STATE_HOME=$state XDG_CONFIG_HOME=$state GPUTOP_FAKE_NVML_SCENARIO=${4:-$scn} $bin --nvml-lib $lib --procfs $fix/proc --sysfs $nosys --interval ${3:-10} $mark; echo EXITED \$?; sleep 60"
	wait_for "gputop .* [0-9]+ GPUs?" && wait_for "[0-9]{2}:[0-9]{2}:[0-9]{2}" ||
		fail "${1}x$2: the dashboard did not start"
}
# The live (not zombie) gputop of this test.
gputop_pid() {
	for p in $(pgrep -f -- "$mark"); do
		[ "$(cat /proc/"$p"/comm 2>/dev/null)" = gputop ] &&
			[ "$(awk '{print $3}' /proc/"$p"/stat 2>/dev/null)" != Z ] &&
			echo "$p" && return
	done
}
gone() { ! [ -e "/proc/$1" ] || [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" = Z ]; }
status_clock() { t capture-pane -p -t dash | tail -1 | grep -oE '[0-9]{2}:[0-9]{2}:[0-9]{2}'; }

# ---- stop signals and a closed terminal, with no sample due ------------
for sig in TERM INT HUP; do
	start 100 30
	p=$(gputop_pid)
	kill -"$sig" "$p"
	# 1 s: no sample is due for 10 s, so only the signal can wake it.
	if eventually 20 gone "$p"; then
		pass "SIG$sig ends an idle dashboard at once"
	else
		fail "SIG$sig: still running after 1 s"
		kill -KILL "$p" 2>/dev/null
	fi
done

start 100 30
p=$(gputop_pid)
t kill-session -t dash
if eventually 40 gone "$p"; then
	pass "the dashboard ends when its terminal closes"
else
	fail "gputop outlived its terminal (pid $p, $(awk '{print $3}' /proc/"$p"/stat))"
	kill -KILL "$p" 2>/dev/null
fi

# The whole terminal gone (tmux kill-server: the pane's terminal hangs
# up), once with gputop in the terminal's session (SIGHUP reaches it) and
# once in a session of its own (setsid: no SIGHUP, only the hung-up
# terminal tells it). Each on a tmux server of its own.
for how in "" "setsid -w"; do
	hs="$sock-hup"
	tmux -L "$hs" new-session -d -x 100 -y 30 -s dash \
		"env LANG=C.UTF-8 XDG_STATE_HOME=$state XDG_CONFIG_HOME=$state GPUTOP_FAKE_NVML_SCENARIO=$scn $how $bin --nvml-lib $lib --procfs $fix/proc --sysfs $nosys --interval 1 $mark; sleep 60"
	p=""
	eventually 100 eval 'p=$(gputop_pid); [ -n "$p" ]'
	sleep 1 # drawing, at a 1 s interval
	tmux -L "$hs" kill-server
	if [ -z "$p" ]; then
		fail "kill-server ${how:-(same session)}: gputop did not start"
	elif eventually 60 gone "$p"; then
		pass "gputop ends when the tmux server dies (${how:-same session})"
	else
		fail "gputop outlived tmux kill-server (${how:-same session}; pid $p, $(awk '{print $3}' /proc/"$p"/stat), $(ps -o pcpu= -p "$p")% CPU)"
		kill -KILL "$p" 2>/dev/null
	fi
done

# ---- resize, clock and notice with no sample due -----------------------
start 100 30
t resize-window -t dash -x 140 -y 40 2>/dev/null || t resize-pane -t dash -x 140 -y 40
if wait_for "s snapshot" 20; then
	pass "a resize is drawn at once (1 s) at a 10 s interval"
else
	fail "the resize was not drawn within 1 s"
fi
declare -A seen=()
for _ in $(seq 1 16); do
	c=$(status_clock)
	[ -n "$c" ] && seen[$c]=1
	sleep 0.25
done
[ "${#seen[@]}" -ge 3 ] && pass "the clock ticks at a 10 s interval (${#seen[@]} values in 4 s)" ||
	fail "the clock froze at a 10 s interval: ${#seen[@]} values in 4 s"
keys s
if wait_for "snapshot (saved|not saved)"; then
	note=$(t capture-pane -p -t dash | tail -1)
	# 5 s of notice, then the key hints again, with no key pressed.
	wait_for "q quit" 160 && pass "a notice goes after its 5 s with no key ($note)" ||
		fail "the notice stayed: $(t capture-pane -p -t dash | tail -1)"
else
	fail "s showed no notice"
fi

# ---- the status line drops whole hints ----------------------------------
hints=("q quit" "? help" "o setup" "/ filter" "s snapshot" "e why N/A")
for cols in 60 80 100 120 160; do
	start "$cols" 30 1
	line=$(t capture-pane -p -t dash | tail -1)
	rest=$line
	for h in "${hints[@]}"; do rest=${rest//"$h"/}; done
	# What is left: blanks, then the interval, clock and gputop's use
	# (its CPU once measured, half a second in).
	rest=$(sed -E 's/ [0-9.]+s( \| [0-9:]{8})?( \| gputop ([0-9.]+% CPU )?[0-9.]+ MiB)? *$//' <<<"$rest")
	if [ -z "${rest// /}" ] && grep -q "q quit" <<<"$line"; then
		pass "${cols} columns: whole key hints only ($line)"
	else
		screen=$line
		fail "${cols} columns: a hint is cut (left: '$rest')"
	fi
done

# ---- help says it has more ----------------------------------------------
start 80 24 1
keys '?'
wait_for "gputop help" || fail "? did not open help"
grep -qE "[0-9]+ more below: Down PgDn" <<<"$screen" && ! grep -q "more above" <<<"$screen" &&
	pass "80x24 help: 'more below' at the start" || fail "80x24 help: no 'more below' mark"
keys End
wait_for "[0-9]+ more above: Up PgUp" && ! grep -q "more below" <<<"$screen" &&
	grep -q "Esc or q closes this window" <<<"$screen" &&
	pass "80x24 help: End shows the last line and 'more above'" || fail "80x24 help: End"
keys Down Up
wait_for "1 more below" && pass "80x24 help: Down past the end stays there; Up goes back one" ||
	fail "80x24 help: the scroll went past the end"
keys Escape

# ---- the sort marker stands apart from its header ----------------------
# One GPU, so the table has room whatever the layout gives 8.
start 120 40 1 "$scn_dir/rtx4090.scn"
wait_for " PID " || fail "120x40 with one GPU: no process table"
hdr=$(grep -m1 " PID " <<<"$screen")
if grep -qE 'GPU ?%? v ' <<<"$hdr" && ! grep -qE '[A-Z%][v^]( |$)' <<<"$hdr"; then
	pass "the sort marker is apart from its header ($hdr)"
else
	screen=$hdr
	fail "the sort marker is glued to its header"
fi

t kill-session -t dash 2>/dev/null
[ "$failures" -eq 0 ]

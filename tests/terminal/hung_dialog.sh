#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The dashboard's power dialog against a driver that does not answer: the
# fake NVML takes 20 s over every power-limit write. The write runs on a
# thread of its own: the dialog says it waits for the driver and keeps
# counting (the screen stays alive), gives up after 4 s saying the setting
# may or may not have changed, the state file keeps the original (the
# write counts as possibly applied), and q then ends gputop within a
# second, status 1, saying why. Quitting while the write is in flight ends
# it as fast. A software fan loop whose write hangs does not keep q from
# ending gputop either, and a restore on quit that hangs ends it within
# its 4 s bound, or within a second of a second stop signal.
set -u
# shellcheck source=tests/terminal/tmux_lib.sh
. "$(dirname "$0")/tmux_lib.sh"
tmux_begin hungdlg
# The guardians outlive their gputop: each waits for its own restore write
# (20 s here), so they are ended with the test.
trap 'pkill -KILL -f -- "--state-dir $state/" 2>/dev/null; t kill-server 2>/dev/null; rm -rf "$state"' EXIT
now_ms() { echo $(($(date +%s%N) / 1000000)); }
printf 'include %s/rtx4090.scn\nlatency nvmlDeviceSetPowerManagementLimit 20000\nlatency nvmlDeviceSetPowerManagementLimit_v2 20000\n' \
	"$scn_dir" >"$state/hung.scn"

# start NAME: the dashboard in session "dash" with its own state directory;
# the shell writes gputop's status to $exit_file.
start() {
	dir="$state/$1"
	exit_file="$dir.exit"
	mkdir -p "$dir"
	t kill-session -t dash 2>/dev/null
	t new-session -d -x 120 -y 40 -s dash \
		"env LANG=C.UTF-8 XDG_CONFIG_HOME=$state/cfg GPUTOP_FAKE_NVML_SCENARIO=$state/hung.scn $bin --nvml-lib $lib --procfs $fix/proc --sysfs $nosys --state-dir $dir --interval 0.5; echo \$? >$exit_file; sleep 60"
	wait_for "\[0\]" || fail "$1: dashboard did not start"
}
# dashboard_pid NAME: the pid of start NAME's gputop (not its shell, not
# its guardian, gputop-guard).
dashboard_pid() {
	local q p=""
	for q in $(pgrep -f -- "--state-dir $state/$1 "); do
		[ "$(cat "/proc/$q/comm" 2>/dev/null)" = gputop ] && p=$q
	done
	echo "$p"
}

# quit BOUND_MS WHAT [MIN_MS MESSAGE]: q, then waits (10 s at most) for
# gputop to end: it must within MIN_MS..BOUND_MS, with status 1 and
# MESSAGE (by default, that a write has not come back).
# wait_exit T0_MS: waits (10 s at most) for gputop's status; sets ms
# (since T0_MS) and rc ("running" without one).
wait_exit() {
	for _ in $(seq 1 200); do
		[ -s "$exit_file" ] && break
		sleep 0.05
	done
	ms=$(($(now_ms) - $1))
	rc=running
	[ -s "$exit_file" ] && rc=$(cat "$exit_file")
}
quit() {
	local t0 ms rc
	t0=$(now_ms)
	keys q
	wait_exit "$t0"
	[ "$rc" = 1 ] && [ "$ms" -le "$1" ] && [ "$ms" -ge "${3:-0}" ] &&
		pass "q $2 ends gputop in $ms ms, status 1" ||
		fail "q $2: status $rc after $ms ms"
	wait_for "${4:-a write to the driver has not come back}" 40 ||
		fail "q $2: no exit message"
}

# 1. The write hangs; the dialog gives up on it after 4 s.
start giveup
keys p 3 Enter y
wait_for "Writing: waiting for the driver \(0 s of at most 4 s\)" 40 &&
	pass "the dialog says it waits for the driver" ||
	fail "no waiting line after y"
wait_for "Writing: waiting for the driver \(2 s of at most 4 s\)" 60 &&
	pass "the screen stays alive while the write hangs (its count goes on)" ||
	fail "the waiting line did not move"
wait_for "the driver did not answer within 4 s; the setting may or may not have changed" 80 &&
	pass "after 4 s the dialog says the driver did not answer" ||
	fail "no word of the unanswered write"
grep -q "450000" "$dir/restore.state" 2>/dev/null &&
	pass "the state file keeps the original limit (the write may have applied)" ||
	fail "state file: $(cat "$dir/restore.state" 2>&1)"
keys Escape
quit 1000 "after the unanswered write"

# 2. q while the write is in flight.
start inflight
keys p 3 Enter y
wait_for "Writing: waiting for the driver \(1 s of at most 4 s\)" 60 ||
	fail "inflight: no waiting line"
quit 1000 "during the hung write"

# 3. The restore on quit: a limit kept while the driver answered, then
# every power-limit write takes 20 s (from 6 s after init): q ends gputop
# within the 4 s bound, status 1, saying the driver did not answer while
# restoring, the state file kept.
printf 'include %s/rtx4090.scn\nlatency nvmlDeviceSetPowerManagementLimit 20000 after 6\nlatency nvmlDeviceSetPowerManagementLimit_v2 20000 after 6\n' \
	"$scn_dir" >"$state/hung.scn"
# kept_limit NAME: a dashboard that keeps a new limit, waited for until
# 6.5 s after its start, when the driver stops answering.
kept_limit() {
	local t_start left
	start "$1"
	t_start=$(now_ms)
	keys p 3 Enter y
	wait_for "Reverting in" 60 || fail "$1: not applied"
	keys k Escape
	left=$((6500 - ($(now_ms) - t_start)))
	[ "$left" -gt 0 ] && sleep "$((left / 1000)).$(printf %03d $((left % 1000)))"
}
kept_limit restore
quit 5500 "with a restore the driver does not answer" 3500 \
	"the driver did not answer within 4 s while restoring"
[ -s "$dir/restore.state" ] && pass "and the state file is kept" ||
	fail "restore on quit: no state file: $(ls "$dir" 2>&1)"

# 3b. The same restore, begun by a SIGTERM and cut short by a second one a
# second later: gputop ends within a second of the second signal, status
# 1, saying it was stopped again, the state file kept.
kept_limit restore-again
p=$(dashboard_pid restore-again)
if [ -z "$p" ]; then
	fail "restore-again: no gputop process"
else
	kill -TERM "$p"
	sleep 1
	[ -s "$exit_file" ] && fail "restore-again: ended before the second signal"
	t0=$(now_ms)
	kill -TERM "$p"
	wait_exit "$t0"
	[ "$rc" = 1 ] && [ "$ms" -le 1000 ] &&
		pass "a second SIGTERM during the restore ends gputop in $ms ms, status 1" ||
		fail "restore-again: status $rc $ms ms after the second SIGTERM"
	wait_for "stopped again while the driver restored" 40 &&
		pass "and it says it was stopped again" ||
		fail "restore-again: no message"
	[ -s "$dir/restore.state" ] && pass "the state file is kept" ||
		fail "restore-again: no state file: $(ls "$dir" 2>&1)"
fi

# 4. A fan curve whose loop's write hangs (the fake answers fan-speed
# writes for 4 s after init, then takes 30 s over each; the balanced
# curve asks for 1 % more every 2.6 s as the temperature ramps): the
# status line says the write was given up on, and q ends gputop in under
# 2 s, also while the write is still waited for.
printf 'include %s/rtx4090.scn\nlatency nvmlDeviceSetFanSpeed_v2 30000 after 4\n' \
	"$scn_dir" >"$state/hung.scn"
for c in after during; do
	start "fan-$c"
	keys f
	wait_for "Mode +< Curve >" || fail "fan-$c: fan dialog did not open"
	keys Enter y
	wait_for "curve running" || fail "fan-$c: curve not running"
	keys k Escape
	if [ $c = after ]; then
		wait_for "did not answer a fan write within 4 s" 300 &&
			pass "fan: the status line says the loop's write was given up on" ||
			fail "fan: no word of the hung fan write"
	else
		# The write hangs when a thread beside the UI's and the
		# collector's stays (a loop step's thread lives microseconds).
		p=$(dashboard_pid "fan-$c")
		n=0
		for _ in $(seq 1 300); do
			if [ "$(ls "/proc/$p/task" 2>/dev/null | wc -l)" -ge 3 ]; then
				n=$((n + 1))
				[ $n -ge 3 ] && break
			else
				n=0
			fi
			sleep 0.1
		done
		[ $n -ge 3 ] || fail "fan-during: the loop's write never hung"
		grep -q "did not answer a fan write" <<<"$(t capture-pane -p -t dash)" &&
			fail "fan-during: given up on already"
	fi
	quit 2000 "$c the fan loop's hung write"
done

echo "$failures failure(s)"
[ "$failures" -eq 0 ]

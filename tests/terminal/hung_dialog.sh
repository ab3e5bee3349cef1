#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The dashboard's power dialog against a driver that does not answer: the
# fake NVML takes 20 s over every power-limit write. The write runs on a
# thread of its own: the dialog says it waits for the driver and keeps
# counting (the screen stays alive), gives up after 4 s saying the setting
# may or may not have changed, the state file keeps the original (the
# write counts as possibly applied), and q then ends gputop within a
# second, status 1, saying why. Quitting while the write is in flight ends
# it as fast.
set -u
# shellcheck source=tests/terminal/tmux_lib.sh
. "$(dirname "$0")/tmux_lib.sh"
tmux_begin hungdlg
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
		"env LANG=C.UTF-8 XDG_CONFIG_HOME=$state/cfg GPUTOP_FAKE_NVML_SCENARIO=$state/hung.scn $bin --nvml-lib $lib --procfs $fix/proc --sysfs /nonexistent --state-dir $dir --interval 0.5; echo \$? >$exit_file; sleep 60"
	wait_for "\[0\]" || fail "$1: dashboard did not start"
}
# Waits (10 s at most) for gputop to end; sets ms since $t0 and rc.
wait_exit() {
	rc=running
	for _ in $(seq 1 200); do
		[ -s "$exit_file" ] && break
		sleep 0.05
	done
	ms=$(($(now_ms) - t0))
	[ -s "$exit_file" ] && rc=$(cat "$exit_file")
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
t0=$(now_ms)
keys q
wait_exit
[ "$rc" = 1 ] && [ "$ms" -le 1000 ] &&
	pass "q after the unanswered write ends gputop in $ms ms, status 1" ||
	fail "quit after the unanswered write: status $rc after $ms ms"
wait_for "a write to the driver has not come back" 40 &&
	pass "and says why it could not restore by itself" ||
	fail "no exit message"

# 2. q while the write is in flight.
start inflight
keys p 3 Enter y
wait_for "Writing: waiting for the driver \(1 s of at most 4 s\)" 60 ||
	fail "inflight: no waiting line"
t0=$(now_ms)
keys q
wait_exit
[ "$rc" = 1 ] && [ "$ms" -le 1000 ] &&
	pass "q during the hung write ends gputop in $ms ms, status 1" ||
	fail "quit during the hung write: status $rc after $ms ms"
wait_for "a write to the driver has not come back" 40 ||
	fail "inflight: no exit message"

echo "$failures failure(s)"
[ "$failures" -eq 0 ]

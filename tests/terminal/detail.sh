#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The process detail view (Enter, Esc back) in tmux, on a process this
# test starts itself, listed on GPU 0 by a scenario and read from the real
# /proc: its user, start time, GPU line with the scenario's VRAM, the
# history graphs filling in over a few process rounds, the command line
# escaped (a tab and an ESC in its arguments) and wrapped; once the
# process is killed (the scenario still lists its pid, as a driver does
# for a process in another namespace), the view says why user and
# command line are N/A and keeps the history; Esc goes back to the table.
set -u
here=$(dirname "$0")
# shellcheck source=tests/terminal/tmux_lib.sh
. "$here/tmux_lib.sh"
tmux_begin detail
kids=()
trap 't kill-server 2>/dev/null; for p in "${kids[@]}"; do kill -KILL "$p" 2>/dev/null; done; rm -rf "$state"' EXIT

long=$(printf 'arg%03d ' $(seq 1 60))
perl -e 'sleep 300' -- "$long" "$(printf 'a\tb\033c')" &
v=$!
kids+=("$v")
printf 'include %s\ndevice 0\nprocess compute %d 3GiB\n' "$scn_dir/h100x1.scn" "$v" >"$state/detail.scn"
t new-session -d -x 120 -y 40 -s dash \
	"env LANG=C.UTF-8 XDG_STATE_HOME=$state XDG_CONFIG_HOME=$state GPUTOP_FAKE_NVML_SCENARIO=$state/detail.scn $bin --nvml-lib $lib --sysfs $nosys --interval 0.2; echo EXITED \$?; sleep 60"
wait_for "^ +$v " || fail "the process is not listed"
keys /
t send-keys -t dash -l "$v"
keys Enter
wait_for "filter: $v" || fail "filter to $v"
keys Enter
if wait_for "Process $v" && grep -q "User $(id -un)" <<<"$screen" &&
	grep -Eq "Started [0-9-]+ [0-9:]+, [0-9]+m[0-9]+s ago" <<<"$screen" &&
	grep -Eq "GPU 0 NVIDIA H100 .* compute  VRAM 3\\.0 GiB" <<<"$screen"; then
	pass "Enter opens $v's details: user, start time and age, its GPU with 3.0 GiB"
else
	fail "the detail view lacks its facts"
fi
if wait_for "history: ([4-9]|[1-9][0-9]+) samples" &&
	grep -A3 "^│ VRAM" <<<"$screen" | grep -q "⣿"; then
	pass "the history fills in: several samples, the VRAM graph drawn"
else
	fail "no history graph after a few rounds"
fi
# The escaped text itself is the proof: a raw ESC would reach tmux, which
# acts on it and never keeps it in a cell, so no capture could show one.
if grep -q "Command line" <<<"$screen" && grep -q "arg001" <<<"$screen" &&
	grep -q "arg060" <<<"$screen" && grep -q 'a\\tb\\ec' <<<"$screen"; then
	pass "the whole command line, wrapped, its tab and ESC escaped"
else
	fail "command line not shown whole and escaped"
fi
kill -KILL "$v"
if wait_for "command line: N/A \(not in the proc tree" &&
	grep -q "host memory N/A" <<<"$screen" &&
	grep -A3 "^│ VRAM" <<<"$screen" | grep -q "⣿"; then
	pass "after a kill: why its user and command line are N/A, its history kept"
else
	fail "the view did not notice the process went"
fi
keys Escape
wait_gone "Process $v" && wait_for "PID +USER" && pass "Esc goes back to the table" ||
	fail "Esc did not close the detail view"
keys q
wait_for "EXITED 0" || fail "did not quit cleanly"
echo "detail.sh: $failures failure(s)"
[ "$failures" -eq 0 ]

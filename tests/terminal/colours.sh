#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# colours.sh - the dashboard readable on every terminal type (issue 10):
# the demo at 120x40 on TERM=xterm, linux (8 colours), xterm-16color and
# xterm-256color has no visible cell whose foreground is its background,
# nor one under the palette's least contrast (1.5), in a capture-pane -e;
# each capture does use colours (a screen with none would pass for
# nothing). TERM=dumb, an unknown TERM and no TERM print why and what to
# do instead, and exit with status 1, writing no junk. The checker is
# build/.../sgrcheck (tests/tools/sgrcheck.c); it is shown to find the
# 546 black-on-black cells of the demo before the fix, kept in
# tests/fixtures/screens/.
set -u
here=$(dirname "$0")
# shellcheck source=tests/terminal/tmux_lib.sh
. "$here/tmux_lib.sh"
tmux_begin colours
check=$(dirname "$bin")/sgrcheck
[ -x "$check" ] || { echo "FAIL: $check is not built (make tests)"; exit 1; }

start() { # term [args...]
	local term=$1
	shift
	t kill-session -t dash 2>/dev/null
	t new-session -d -x 120 -y 40 -s dash \
		"env -u COLORTERM -u NO_COLOR TERM=$term LANG=C.UTF-8 XDG_STATE_HOME=$state XDG_CONFIG_HOME=$state $bin --demo $*; echo EXITED \$?; sleep 60"
}

# The checker itself: it finds what it must find. The demo's screen on
# TERM=xterm as gputop drew it before issue 10 (labels, the driver line
# and the status clock black on black).
before=$fix/screens/demo-120x40-xterm-before.txt
out=$("$check" <"$before")
rc=$?
if [ "$rc" = 1 ] && [ "${out%% *}" = 546 ]; then
	pass "sgrcheck finds the 546 black-on-black cells of the old screen"
else
	fail "sgrcheck on the old screen: exit $rc, $out"
fi

# Where the checker sgrcheck ports is at hand (a workstation with python3
# and ../shared; CI has neither), both must count the same on every
# capture. Said, not passed, when it is not.
py=$here/../../../shared/tools/sgr_check.py
same_as_py() { # capture
	local a b
	if ! command -v python3 >/dev/null || [ ! -f "$py" ]; then
		return 0
	fi
	a=$("$check" <<<"$1" | head -1)
	b=$(python3 "$py" <<<"$1" | head -1)
	[ "${a%% *}" = "${b%% *}" ] && return 0
	fail "sgrcheck says '$a', sgr_check.py '$b'"
	return 1
}
if command -v python3 >/dev/null && [ -f "$py" ]; then
	same_as_py "$(cat "$before")" && pass "sgr_check.py agrees on the old screen"
else
	echo "NOTE: no python3 or ../shared/tools/sgr_check.py: sgrcheck not compared with it"
fi
out=$(printf 'ok \033[30;40mhidden\033[0m \033[38;5;16;48;2;0;0;0mx\033[0m \033[38:2::9:9:9;48:5:232mnear\033[0m\n' | "$check" --near 1.5)
[ "${out%% *}" = 11 ] && pass "sgrcheck reads 30/40, 38;5, 48;2 and 38:2:: forms" ||
	fail "sgrcheck on a made-up line: $out"

for term in xterm linux xterm-16color xterm-256color; do
	start "$term"
	if ! wait_for "DEMO: simulated"; then
		fail "TERM=$term: the dashboard did not start"
		continue
	fi
	# The first frame is whole once its last row (the status line) is
	# drawn; then a few samples, so that graphs and gradients are drawn.
	for _ in $(seq 1 200); do
		screen=$(t capture-pane -p -t dash)
		[[ ${screen##*$'\n'} == *[![:space:]]* ]] && break
		sleep 0.05
	done
	sleep 1.5
	cap=$(t capture-pane -p -e -N -t dash)
	screen=$(t capture-pane -p -t dash)
	coloured=$("$check" --bg default --cols 120 <<<"$cap")
	coloured=${coloured%% *}
	if [ "$coloured" -lt 2400 ]; then
		fail "TERM=$term: only $coloured of 4800 cells have a colour"
		continue
	fi
	equal=$("$check" <<<"$cap")
	same_as_py "$cap" || continue
	near=$("$check" --near 1.5 <<<"$cap")
	if [ "${equal%% *}" = 0 ] && [ "${near%% *}" = 0 ]; then
		pass "TERM=$term: no invisible cell, none under contrast 1.5 ($coloured coloured cells)"
	else
		fail "TERM=$term: $equal; $near"
	fi
done

# No cursor addressing: a message, exit status 1, nothing else.
for term in dumb gputop-no-such-terminal ""; do
	start "$term"
	if wait_for "EXITED" && grep -q "EXITED 1" <<<"$screen" &&
		grep -q -- "--snapshot" <<<"$screen" && grep -q "TERM=$term:" <<<"$screen" &&
		! grep -q "MiBm" <<<"$screen"; then
		pass "TERM='$term': says why and exits 1"
	else
		fail "TERM='$term': no clear message and exit status 1"
	fi
done
start dumb
wait_for "EXITED" && grep -q "cannot move the cursor" <<<"$screen" &&
	pass "TERM=dumb: the cause is named" || fail "TERM=dumb: cause not named"

echo "colours.sh: $failures failure(s)"
[ "$failures" -eq 0 ]

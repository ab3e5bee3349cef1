#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The dashboard in a real terminal (tmux) against the fake NVML's 8x H100
# scenario and the synthetic /proc tree: every GPU shows at four sizes,
# keys work (help, sort, filter, snapshot, quit), a resize storm does not
# crash it, LANG=C gives ASCII graphs, NO_COLOR gives no colour, a process
# name cannot send escape sequences to the terminal, and with no GPU the
# labelled demo is shown.
set -u
here=$(dirname "$0")
# shellcheck source=tests/terminal/tmux_lib.sh
. "$here/tmux_lib.sh"
tmux_begin dash
scn=$scn_dir/h100x8.scn
proc=$fix/proc

start() { # cols rows [env...]
	local cols=$1 rows=$2
	shift 2
	t kill-session -t dash 2>/dev/null
	t new-session -d -x "$cols" -y "$rows" -s dash \
		"env $* XDG_STATE_HOME=$state XDG_CONFIG_HOME=$state GPUTOP_FAKE_NVML_SCENARIO=$scn $bin --nvml-lib $lib --procfs $proc --sysfs $nosys --interval 0.5; echo EXITED \$?; sleep 60"
}

# Every GPU at each size of the issue's acceptance list: a panel's "[i]",
# or a row of the one-line-per-GPU table ("│> 0 H100...", "│  7 H100...").
for size in 200x50 120x40 80x24 40x12; do
	start "${size%x*}" "${size#*x}" LANG=C.UTF-8
	wait_for "(\[7\]|^(│|\|)?. ?7 )" || { fail "$size: GPU 7 never shown"; continue; }
	missing=""
	for i in 0 1 2 3 4 5 6 7; do
		grep -Eq -- "(\[$i\]|^(│|\|)?. ?$i )" <<<"$screen" || missing="$missing $i"
	done
	[ -z "$missing" ] && pass "$size shows all 8 GPUs" || fail "$size misses GPUs:$missing"
done

start 120 40 LANG=C.UTF-8
wait_for "4107" || fail "process table not shown"

# Help, then close it.
t send-keys -t dash '?'
wait_for "gputop help" && pass "? opens help" || fail "? did not open help"
t send-keys -t dash Escape
wait_gone "gputop help" && pass "Esc closes help" || fail "help did not close"

# From GPU %, > moves the sort to the next column (VRAM), r reverses it:
# the smallest VRAM user (pid 7000, 256 MiB) then comes first.
t send-keys -t dash '>'
wait_for "VRAM ?v" && pass "> sorts by VRAM" || fail "> did not sort by VRAM"
t send-keys -t dash 'r'
if wait_for "VRAM ?\\^" && [ "$(grep -E '^ +[0-9]+ ' <<<"$screen" | head -1 | awk '{print $1}')" = 7000 ]; then
	pass "r reverses the sort (pid 7000 first)"
else
	fail "r did not reverse the sort"
fi
t send-keys -t dash 'r' '<'

# Filter: only the nsys-ui process stays.
t send-keys -t dash '/' 'n' 's' 'y' 's' Enter
if wait_for "filter: nsys" && grep -q "5000" <<<"$screen" && ! grep -q "4100" <<<"$screen"; then
	pass "/ filters the process table"
else
	fail "filter did not narrow the table"
fi
t send-keys -t dash '/' Escape
wait_for "4100" && pass "Esc in the filter clears it" || fail "filter not cleared"

# Snapshot to the state directory.
t send-keys -t dash 's'
if wait_for "snapshot saved to" && ls "$state"/gputop/snapshot-*.json >/dev/null 2>&1; then
	pass "s saves $(ls "$state"/gputop/snapshot-*.json | head -1)"
else
	fail "s did not save a snapshot"
fi

# The hostile command line arrives escaped, and the title is untouched.
if grep -q 'evil --title=\\e\]0;pwned\\x07' <<<"$screen"; then
	pass "escape sequences in a command line are shown escaped"
else
	fail "hostile command line not shown escaped"
fi
title=$(t display-message -p -t dash '#{pane_title}')
[[ "$title" != *pwned* ]] && pass "pane title unchanged ($title)" || fail "a process changed the title to $title"

# Setup: hide the process table, save, and the file says so.
t send-keys -t dash 'o'
wait_for "Setup" && pass "o opens setup" || fail "o did not open setup"
t send-keys -t dash Down Down Down Down Right w
if wait_for "settings saved to" && grep -q "^processes = no" "$state/gputop/gputop.conf"; then
	pass "setup changes apply and w saves $state/gputop/gputop.conf"
else
	fail "setup did not save processes = no"
fi
t send-keys -t dash Escape
wait_gone " Setup " && pass "Esc closes setup" || fail "setup did not close"
t send-keys -t dash 'v'
wait_for "4107" || fail "v did not bring the process table back"
rm -f "$state/gputop/gputop.conf" # later runs start from the defaults

# A burst of resizes.
for i in $(seq 1 40); do
	t resize-window -t dash -x $((30 + (i * 37) % 170)) -y $((8 + (i * 13) % 50)) 2>/dev/null
done
t resize-window -t dash -x 120 -y 40
sleep 0.3
wait_for "4107" && ! grep -q EXITED <<<"$screen" && pass "survives 40 resizes" || fail "resize storm"

t send-keys -t dash q
wait_for "EXITED 0" && pass "q quits with status 0" || fail "q did not quit cleanly"

# LANG=C: ASCII graphs, no braille or block glyphs anywhere.
start 200 50 LANG=C LC_ALL=C
wait_for "\[7\]" || fail "LANG=C: no panels"
sleep 1.2
screen=$(t capture-pane -p -t dash)
if grep -qP '[\x{2580}-\x{259F}\x{2800}-\x{28FF}]' <<<"$screen"; then
	fail "LANG=C still draws Unicode graph glyphs"
else
	pass "LANG=C draws ASCII graphs"
fi

# NO_COLOR: no colour escape in the captured screen, on a terminal that
# shows colour without it (else the check could not fail).
colour_re=$'\e\\[[0-9;]*(3[0-7]|38;[25];|4[0-7]|48;[25];)'
start 120 40 TERM=xterm-256color LANG=C.UTF-8
wait_for "4107" || fail "xterm-256color: nothing shown"
colours=$(t capture-pane -p -e -t dash | grep -cE "$colour_re")
[ "$colours" -gt 0 ] || fail "xterm-256color without NO_COLOR draws no colour"
start 120 40 TERM=xterm-256color NO_COLOR=1 LANG=C.UTF-8
wait_for "4107" || fail "NO_COLOR: nothing shown"
colours=$(t capture-pane -p -e -t dash | grep -cE "$colour_re")
[ "$colours" -eq 0 ] && pass "NO_COLOR draws no colour" || fail "NO_COLOR: $colours lines with colour"

# Truecolour: with a direct-colour terminal description the theme's exact
# RGB values are sent (SGR 38;2;R;G;B).
if infocmp xterm-direct >/dev/null 2>&1; then
	start 120 40 TERM=xterm-direct COLORTERM=truecolor LANG=C.UTF-8
	wait_for "4107" || fail "truecolor: nothing shown"
	rgb=$(t capture-pane -p -e -t dash | grep -c $'\e\\[38;2;')
	[ "$rgb" -gt 0 ] && pass "COLORTERM=truecolor with xterm-direct sends 24-bit colour" ||
		fail "no 24-bit colour with xterm-direct"
else
	fail "the xterm-direct terminal description is missing (package ncurses-term)"
fi

# No GPU at all: the reason, then the demo, labelled.
t kill-session -t dash 2>/dev/null
t new-session -d -x 120 -y 40 -s dash \
	"env LANG=C.UTF-8 $bin --nvml-lib /nonexistent/libnvidia-ml.so.1 --sysfs $nosys --interval 0.2; echo EXITED \$?; sleep 60"
wait_for "DEMO: simulated GPUs" && grep -q "H100" <<<"$screen" &&
	pass "no GPU: the demo is shown, labelled DEMO" || fail "demo not shown/labelled"
t send-keys -t dash q
wait_for "EXITED 0" || fail "demo: q did not quit"
# Back on the normal screen, the reason printed before the demo is there.
grep -q "no GPU found" <<<"$screen" && grep -q "cannot open shared object file" <<<"$screen" &&
	pass "no GPU: the reason is shown" || fail "no-GPU reason missing"

# A corrupt settings file: a message with its line number, defaults, and
# the file left exactly as it was.
printf '[dashboard]\ninterval = 1\nglyphs = purple\n' >"$state/gputop/gputop.conf"
before=$(sha256sum "$state/gputop/gputop.conf")
start 120 40 LANG=C.UTF-8
if wait_for "gputop.conf:3" && grep -q "purple" <<<"$screen"; then
	pass "a bad settings line is reported with its line number"
else
	fail "no message for the bad settings line"
fi
t send-keys -t dash q
wait_for "EXITED 0" || fail "q after a bad settings file"
[ "$(sha256sum "$state/gputop/gputop.conf")" = "$before" ] &&
	pass "the bad settings file is left as it was" || fail "the settings file was rewritten"

# Job control and a crash, from an interactive shell: Ctrl-Z gives the
# shell back, fg redraws, and a fatal signal leaves the terminal restored
# (normal screen, not the dashboard's alternate one).
t kill-session -t dash 2>/dev/null
t new-session -d -x 100 -y 30 -s dash "bash --norc --noprofile -i"
sleep 0.3
t send-keys -t dash "LANG=C.UTF-8 $bin --demo --sysfs $nosys" Enter
wait_for "DEMO: simulated GPUs" || fail "job control: dashboard did not start"
t send-keys -t dash C-z
wait_for "Stopped" && [ "$(t display-message -p -t dash '#{alternate_on}')" = 0 ] &&
	pass "Ctrl-Z stops it and gives the shell a normal screen" || fail "Ctrl-Z"
t send-keys -t dash "fg" Enter
wait_for "DEMO: simulated GPUs" && pass "fg brings the dashboard back" || fail "fg did not redraw"
t send-keys -t dash C-z
wait_for "Stopped" || fail "second Ctrl-Z"
t send-keys -t dash 'kill -SEGV %1; fg' Enter
# The signal stays pending while the job is stopped and races the redraw
# that fg triggers: the restore must still be the last thing written.
if wait_for "Segmentation fault" && sleep 0.3 &&
	[ "$(t display-message -p -t dash '#{alternate_on}')" = 0 ]; then
	pass "a fatal signal leaves the terminal restored"
else
	fail "terminal not restored after SIGSEGV"
fi

echo "dashboard.sh: $failures failure(s)"
[ "$failures" -eq 0 ]

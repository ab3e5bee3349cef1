#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The dashboard's hold on the terminal, in a real one (tmux), against the
# fake NVML's 8x H100 scenario and the synthetic /proc tree: colour on
# 256- and 8-colour terminals without COLORTERM and none with NO_COLOR; a
# status line with interval, clock, gputop's CPU and memory; a clock that
# ticks, STALE and NO DATA labels that appear with no key pressed while the driver
# hangs; long notices wrapped, not cut; tiny sizes that keep the "GPUs a-b
# of n" message; the sideways scroll kept within the longest command; the
# wheel scrolling the GPU list; a signal that goes to the process the
# dialog was opened for or to none; and the terminal put back after every
# signal that ends gputop.
set -u
here=$(dirname "$0")
# shellcheck source=tests/terminal/tmux_lib.sh
. "$here/tmux_lib.sh"
tmux_begin term
scn=$scn_dir/h100x8.scn
proc=$fix/proc

start() { # cols rows [env...]; the scenario is $scn
	local cols=$1 rows=$2
	shift 2
	t kill-session -t dash 2>/dev/null
	t new-session -d -x "$cols" -y "$rows" -s dash \
		"ulimit -c 0; env -u COLORTERM $* XDG_STATE_HOME=$state XDG_CONFIG_HOME=$state GPUTOP_FAKE_NVML_SCENARIO=$scn $bin --nvml-lib $lib --procfs $proc --sysfs $nosys --interval 0.5; echo EXITED \$?; sleep 60"
}
# Lines of the screen (with escapes) that set a foreground or background
# colour: 30-37/40-47, bright 90-97/100-107, 256 (38;5) and RGB (38;2).
colour_lines() {
	t capture-pane -p -e -t dash |
		grep -cE $'\e\\[([0-9;]*;)?(3[0-7]|4[0-7]|9[0-7]|10[0-7]|[34]8;[25];)[;m]'
}
# The clock shown in the status line (the last), "" when there is none;
# not elsewhere: a PCI address ("0000:18:00.0") has the same shape.
status_clock() { t capture-pane -p -t dash | tail -1 | grep -m1 -oE '[0-9]{2}:[0-9]{2}:[0-9]{2}'; }

# ---- colour tiers ------------------------------------------------------
for term in screen-256color xterm-256color tmux-256color; do
	infocmp "$term" >/dev/null 2>&1 || { fail "no terminfo entry for $term"; continue; }
	start 120 40 TERM=$term LANG=C.UTF-8
	wait_for "4107" || fail "$term: nothing shown"
	n256=$(t capture-pane -p -e -t dash | grep -c $'\e\\[[0-9;]*[34]8;5;')
	[ "$n256" -gt 0 ] && pass "TERM=$term without COLORTERM: 256 colours ($n256 lines)" ||
		fail "TERM=$term without COLORTERM: no 256-colour escape"
done

start 120 40 TERM=screen-256color NO_COLOR=1 LANG=C.UTF-8
wait_for "4107" || fail "NO_COLOR: nothing shown"
n=$(colour_lines)
[ "$n" -eq 0 ] && pass "NO_COLOR=1 with TERM=screen-256color: no colour" ||
	fail "NO_COLOR=1: $n lines with colour"

start 120 40 TERM=screen LANG=C.UTF-8
wait_for "4107" || fail "TERM=screen: nothing shown"
n=$(colour_lines)
wide=$(t capture-pane -p -e -t dash | grep -cE $'\e\\[([0-9;]*;)?(9[0-7]|10[0-7]|[34]8;[25];)')
[ "$n" -gt 0 ] && [ "$wide" -eq 0 ] && pass "TERM=screen: the 8 basic colours only ($n lines)" ||
	fail "TERM=screen: $n colour lines, $wide beyond the 8 basic colours"

start 120 40 TERM=vt100 LANG=C.UTF-8
wait_for "4107" || fail "TERM=vt100: nothing shown"
n=$(colour_lines)
[ "$n" -eq 0 ] && pass "TERM=vt100 (no colours): monochrome" || fail "TERM=vt100: $n colour lines"

# ---- status line and a clock that ticks --------------------------------
start 120 40 LANG=C.UTF-8
wait_for "4107" || fail "status: nothing shown"
# gputop's own CPU shows once measured (after half a second), not before.
wait_for "% CPU" || fail "status: no CPU figure"
last=$(t capture-pane -p -t dash | tail -1)
if grep -qE '0\.5s .*[0-9]{2}:[0-9]{2}:[0-9]{2} .*gputop [0-9.]+% CPU [0-9.]+ MiB' <<<"$last"; then
	pass "status line: interval, clock, CPU %, memory ($last)"
else
	screen=$last
	fail "status line lacks interval, clock, CPU or memory"
fi

# A driver call that takes 6 s: a round of samples every 6 s or more,
# older than the 2.5 s stale limit (3 intervals + 1 s) for most of it.
cat >"$state/hung.scn" <<EOF
include $scn_dir/h100x8.scn
device 0
latency nvmlDeviceGetUtilizationRates 6000
EOF
scn=$state/hung.scn
start 120 40 LANG=C.UTF-8
wait_for "\[7\]" 300 || fail "hung driver: panels not shown"
declare -A seen=()
for _ in $(seq 1 16); do
	c=$(status_clock)
	[ -n "$c" ] && seen[$c]=1
	sleep 0.25
done
[ "${#seen[@]}" -ge 3 ] && pass "the clock ticks with no key pressed (${#seen[@]} values in 4 s)" ||
	fail "the clock froze: ${#seen[@]} values in 4 s"
wait_for "STALE" 300 && pass "STALE appears with no key pressed while the driver hangs" ||
	fail "no STALE label without a key press"

# A driver that hangs from the start: panels say NO DATA (not zeros, not
# STALE) until the first round of samples arrives, 10 s after the start.
sed 's/6000$/10000/' "$state/hung.scn" >"$state/hung-first.scn"
scn=$state/hung-first.scn
start 120 40 LANG=C.UTF-8
wait_for "\[7\]" 80 && pass "the panels are drawn while the first sample hangs" ||
	fail "the screen waited for the hung driver"
wait_for "NO DATA" 240 && ! grep -q "STALE" <<<"$screen" &&
	pass "a device with no sample yet says NO DATA" ||
	fail "no NO DATA label while the first sample hangs"
keys e
wait_for "NO DATA: the driver has not answered once in [0-9]+ s" &&
	grep -q "dmesg" <<<"$screen" && pass "e explains NO DATA and what to look at" ||
	fail "e does not explain NO DATA"
keys Escape
# Gone, and on a dashboard still running that shows the sample (a gputop
# that died would leave a screen with no NO DATA on it too).
wait_gone "NO DATA" 400 && wait_for "620/700 W" && ! grep -q EXITED <<<"$screen" &&
	pass "NO DATA goes once the first sample arrives, and GPU 0's power shows" ||
	fail "NO DATA stayed after the first sample, or the dashboard is gone"
scn=$scn_dir/h100x8.scn

# ---- long notices wrap ---------------------------------------------------
mkdir -p "$state/gputop"
printf '[dashboard]\ninterval = 1\nglyphs = purple\n' >"$state/gputop/gputop.conf"
for size in 120x40 80x24; do
	start "${size%x*}" "${size#*x}" LANG=C.UTF-8
	if wait_for "left as it is\)" && grep -q "settings: " <<<"$screen" && grep -q "purple" <<<"$screen"; then
		pass "$size: a long notice is shown whole"
	else
		fail "$size: the long notice is cut off"
	fi
done
rm -f "$state/gputop/gputop.conf"

# ---- tiny sizes --------------------------------------------------------
# How many GPUs fit is the layout's (tests/terminal/layout.sh); here: the
# status line says which, in whole words.
start 20 6 LANG=C.UTF-8
wait_for "GPUs 0-[0-6] of 8( *$|; [0-9]+x[0-9]+ shows all)" &&
	pass "20x6 shows '$(grep -oE 'GPUs 0-[0-9] of 8' <<<"$screen")' whole" ||
	fail "20x6: the GPU window message is cut"
title=$(head -1 <<<"$screen")
grep -qE '^gputop [0-9.]+ +8 GPUs' <<<"$title" && pass "20x6: the title is whole ($title)" ||
	fail "20x6: the title is overwritten ($title)"

# ---- sideways scroll stops at the longest command ----------------------
# pid 6000 has the longest command line of the fixture.
cmd6000() { # the COMMAND cells of pid 6000's row, blanks trimmed
	local scr hdr col
	scr=$(t capture-pane -p -t dash)
	hdr=$(grep -m1 'COMMAND' <<<"$scr")
	col=$(awk -v s="$hdr" 'BEGIN { print index(s, "COMMAND") }')
	grep -E '^ *6000 ' <<<"$scr" | cut -c"$col"- | sed 's/ *$//'
}
start 120 40 LANG=C.UTF-8
wait_for "4107" || fail "hscroll: no table"
for _ in $(seq 1 40); do t send-keys -t dash Right; done
wait_settled
end=$(cmd6000)
[ -n "$end" ] && pass "after 40 x Right the longest command still shows its end ($end)" ||
	fail "Right scrolled every command line out of view"
t send-keys -t dash Left
wait_settled
before=$(cmd6000)
for _ in $(seq 1 40); do t send-keys -t dash Right; done
t send-keys -t dash Left
wait_settled
after=$(cmd6000)
[ -n "$before" ] && [ "$before" = "$after" ] &&
	pass "the scroll is clamped: Right past the end, then Left, gives the same view ($after)" ||
	fail "the scroll went past the longest command ('$before' / '$after')"

# ---- the wheel over the GPUs --------------------------------------------
# 130x4: one-line GPUs in two rows, so some of the 8 show (how many is the
# layout's: k+1). SGR mouse reports (xterm-256color): button 64 wheel up,
# 65 down, at column 5 of screen row 2 (1-based), a GPU line.
start 130 4 TERM=xterm-256color LANG=C.UTF-8
wait_for "GPUs 0-[0-6] of 8" || fail "130x4: no GPU window"
k=$(grep -oE 'GPUs 0-[0-9] of 8' <<<"$screen" | sed -E 's/GPUs 0-([0-9]).*/\1/')
k=${k:-5}
t send-keys -t dash -l $'\e[<65;5;2M'
wait_for "GPUs 1-$((k + 1)) of 8" && pass "wheel down over the GPUs scrolls them (GPUs 1-$((k + 1)))" ||
	fail "wheel down did not scroll the GPUs"
for _ in $(seq 1 8); do t send-keys -t dash -l $'\e[<65;5;2M'; done
wait_for "GPUs $((7 - k))-7 of 8" && pass "the GPU scroll stops at the last GPU" || fail "GPU scroll past the end"
t send-keys -t dash -l $'\e[<64;5;2M'
wait_for "GPUs $((6 - k))-6 of 8" && pass "wheel up over the GPUs scrolls back" || fail "wheel up did not scroll back"

# ---- a signal goes to the process the dialog was opened for -------------
# GPU 3 is lost 5 s after start: its process 4103 leaves the list while
# the dialog is open, and row 3 then holds another process.
cat >"$state/lost.scn" <<EOF
include $scn_dir/h100x8.scn
device 3
lost_after 5
EOF
scn=$state/lost.scn
start 120 40 LANG=C.UTF-8
wait_for "4107" || fail "signal: no table"
keys '<' '<' '<' '<'
wait_for "PID \\^|PID v" || fail "signal: not sorted by PID"
keys j j j x 6 Enter
wait_for "Send SIGCONT to 4103" && pass "the dialog is for 4103" || fail "the dialog is not for 4103"
wait_gone "^ *4103 " 300 >/dev/null
sleep 6
t send-keys -t dash y
if wait_for "4103.*(gone|exited).*not sent" && ! grep -q "sent CONT to" <<<"$screen"; then
	pass "a process gone from the list gets no signal, and the user is told"
else
	fail "the signal went to whatever row was selected"
fi
scn=$scn_dir/h100x8.scn

# ---- a refused signal says why, in full ---------------------------------
# pid 1 belongs to root; gputop runs as another user, so the kernel says
# EPERM, and the notice (with what to do about it) must not be cut off.
cat >"$state/init.scn" <<EOF
include $scn_dir/h100x8.scn
device 0
process compute 1 1GiB
EOF
scn=$state/init.scn
as_user=""
if [ "$(id -u)" = 0 ]; then
	if command -v setpriv >/dev/null; then
		as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
		chmod 755 "$state"
		mkdir -m 777 "$state/nobody"
	else
		fail "EPERM: running as root and setpriv is missing"
	fi
fi
t kill-session -t dash 2>/dev/null
t new-session -d -x 120 -y 40 -s dash \
	"env -u COLORTERM LANG=C.UTF-8 XDG_STATE_HOME=$state/nobody XDG_CONFIG_HOME=$state/nobody GPUTOP_FAKE_NVML_SCENARIO=$scn $as_user $bin --nvml-lib $lib --procfs $proc --sysfs $nosys --interval 0.5; echo EXITED \$?; sleep 60"
wait_for "4107" || fail "EPERM: no table"
keys '<' '<' '<' '<'
wait_for "PID \\^|PID v" || fail "EPERM: not sorted by PID"
# The selection stays on its process through the sort: Home selects the
# first row, pid 1.
keys Home x Enter
wait_for "Send SIGTERM to 1 " || fail "EPERM: the dialog is not for pid 1"
t send-keys -t dash y
if wait_for "EPERM" && tr '\n' ' ' <<<"$screen" | grep -Eq "EPERM.*run +gputop +as +root"; then
	pass "the EPERM notice is readable in full at 120 columns"
else
	fail "the EPERM notice is cut off"
fi
scn=$scn_dir/h100x8.scn

# ---- the terminal is put back after signals that end gputop -------------
for sig in QUIT TRAP SYS XCPU XFSZ PIPE USR1 ALRM; do
	start 100 30 LANG=C.UTF-8
	wait_for "4107" || { fail "$sig: dashboard did not start"; continue; }
	pane=$(t display-message -p -t dash '#{pane_pid}')
	pid=$(pgrep -P "$pane" -x gputop | head -1)
	[ -n "$pid" ] || { fail "$sig: no gputop process"; continue; }
	kill -"$sig" "$pid"
	num=$(kill -l "$sig")
	if wait_for "EXITED $((128 + num))" && sleep 0.3 &&
		[ "$(t display-message -p -t dash '#{alternate_on}')" = 0 ]; then
		pass "SIG$sig ends gputop ($((128 + num))) with the normal screen back"
	else
		fail "SIG$sig left the terminal on the alternate screen (alternate_on $(t display-message -p -t dash '#{alternate_on}'))"
	fi
done

echo "terminal.sh: $failures failure(s)"
[ "$failures" -eq 0 ]

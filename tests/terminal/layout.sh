#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The dashboard's layout as a user sees it: gputop in tmux for 1, 2, 4, 8
# and 16 fake H100s at 80x24, 120x40, 200x60 and 300x80, each screen read
# back and checked by tests/tools/layoutcheck.c: every GPU visible, no two
# panels touching, no number touching plotted cells, every graph at least
# 3 rows and whole, every panel the same graphs, no blank band of more
# than 2 rows, one-line rows with their numbers whole, the process
# table's header and rows under it. Then one line per GPU forced at 60x20
# and 200x24 (numbers whole, the name cut by words, PCIe and throttle badges there),
# the "changed by gputop" badge, and + + - - - - - without a false STALE.
# The checker is first shown to fail every check on screens of the
# dashboard before this layout (tests/terminal/layout-old/; its
# h100x8-120x40-short-table.txt is a draft of this layout that gave the
# GPUs the table's rows; h100x8-200x60-touching.txt is this layout before
# panels kept a blank column between them, its boxes side by side as "││";
# h100x8-200x60-mixed.txt and h100x8-120x40-fewer-lines.txt are this
# layout before the panels of one grid were given heights that show the
# same things: GPUs 6 and 7, a row shorter, lost their memory-bandwidth
# and power graphs, or their memory clock), so a pass means something. LAYOUT_SAVE=DIR keeps the 8-GPU screens there (that is
# how docs/screens/ was made).
set -u
here=$(dirname "$0")
# shellcheck source=tests/terminal/tmux_lib.sh
. "$here/tmux_lib.sh"
tmux_begin layout
proc=$fix/proc
names="NVIDIA H100 80GB HBM3|H100 80GB HBM3|H100 80GB|H100"

# The checker, built beside gputop by make tests.
check=$(dirname "$bin")/layoutcheck
[ -x "$check" ] || { echo "FAIL: $check is not built (make tests builds it)"; exit 1; }
lcheck() { "$check" --vram "/79.6 GiB" --power "/700 W" --names "$names" "$@"; }

# 1. Every check can fail: the screens of the old layout fail them.
old=$here/layout-old
out=$(lcheck --gpus 9 <"$old/h100x8-200x60.txt")
for c in visible touch axis graph3 blank; do
	grep -q "^FAIL $c:" <<<"$out" && pass "the checker finds '$c' broken on the old 200x60 screen" ||
		fail "the checker misses '$c' on the old 200x60 screen: $out"
done
out=$(lcheck --gpus 8 <"$old/h100x8-line-60x20.txt")
grep -q '^FAIL line: GPU 0.s row lacks "/700 W"' <<<"$out" &&
	grep -q "^FAIL line: GPU 0.s name is cut" <<<"$out" &&
	pass "the checker finds the old one-line rows' cut numbers and name" ||
	fail "the checker misses the old one-line rows: $out"
out=$(lcheck --gpus 8 <"$old/h100x8-120x40.txt")
grep -q "^FAIL touch: the panel at row 4" <<<"$out" && grep -q "^FAIL blank:" <<<"$out" &&
	pass "the checker finds the old 120x40 panels touching and the blank band" ||
	fail "the checker misses the old 120x40 screen: $out"
out=$(lcheck --gpus 8 --procs 11 <"$old/h100x8-200x60-touching.txt")
grep -q "^FAIL touch: the boxes at row 1 col 0 and row 1 col 100 touch side by side" <<<"$out" &&
	grep -q "^FAIL touch: box corners touch side by side at row 1 col 99" <<<"$out" &&
	! grep -q "above\|over the other" <<<"$out" &&
	pass "the checker finds boxes touching side by side, and lets stacked boxes meet border to border" ||
	fail "the checker misses boxes touching side by side, or fails stacked borders: $out"
out=$(lcheck --gpus 8 --procs 11 <"$old/h100x8-200x60-mixed.txt")
grep -q "^FAIL shape: the panel at row 37 col 0 shows 1 run(s) of graph rows" <<<"$out" &&
	grep -q "^ok touch" <<<"$out" &&
	pass "the checker finds GPUs 6 and 7 without the band graphs the others show" ||
	fail "the checker misses panels of one grid showing different graphs: $out"
out=$(lcheck --gpus 8 --procs 11 <"$old/h100x8-120x40-fewer-lines.txt")
grep -q "^FAIL shape: the panel at row 22 col 0 shows 0 run(s) of graph rows, the lowest 0 rows high, no time axis, 3 rows of numbers" <<<"$out" &&
	pass "the checker finds GPUs 6 and 7 with a line of numbers fewer than the others" ||
	fail "the checker misses compact panels of one grid with different lines: $out"
out=$(lcheck --gpus 8 --procs 11 <"$old/h100x8-120x40-short-table.txt")
grep -q "^FAIL procs: 5 process rows" <<<"$out" &&
	pass "the checker finds a process table cut to 5 of its 11 rows" ||
	fail "the checker misses the short process table: $out"

start() { # cols rows scenario [env...]
	local cols=$1 rows=$2 scn=$3
	shift 3
	t kill-session -t dash 2>/dev/null
	t new-session -d -x "$cols" -y "$rows" -s dash \
		"env LANG=C.UTF-8 $* XDG_STATE_HOME=$state XDG_CONFIG_HOME=$state/cfg GPUTOP_FAKE_NVML_SCENARIO=$scn_dir/$scn $bin --nvml-lib $lib --procfs $proc --sysfs $nosys --state-dir $state/ctl --interval ${IV:-0.1}; echo EXITED \$?; sleep 60"
}

# The last GPU on screen, as its panel title or its one-line row.
last_gpu() { # n
	local i=$(($1 - 1))
	echo "(\[$i\]|^│[> ] ?$i )"
}

# 2. The matrix. The table shows a few processes everywhere (h100x1 has
# 2), and with 8 GPUs from 120x40 all 11 (the other terminal tests wait
# for pid 4107 there).
for n in 1 2 4 8 16; do
	for size in 80x24 120x40 200x60 300x80; do
		procs=$((n == 1 ? 2 : 3))
		[ "$n" = 8 ] && [ "$size" != 80x24 ] && procs=11
		start "${size%x*}" "${size#*x}" "h100x$n.scn"
		if ! wait_for "$(last_gpu "$n")"; then
			fail "$n GPUs at $size: GPU $((n - 1)) never shown"
			continue
		fi
		# Some history (0.1 s samples) and the process table.
		sleep 1.5
		wait_for "4100" || fail "$n GPUs at $size: no process table"
		screen=$(t capture-pane -p -t dash)
		if out=$(lcheck --gpus "$n" --procs "$procs" <<<"$screen"); then
			pass "$n GPUs at $size: $(grep -c '^ok' <<<"$out") checks"
		else
			fail "$n GPUs at $size: $(grep '^FAIL' <<<"$out" | head -3)"
		fi
		if [ "$n" = 8 ] && [ -n "${LAYOUT_SAVE:-}" ]; then
			mkdir -p "$LAYOUT_SAVE"
			printf '%s\n' "$screen" >"$LAYOUT_SAVE/h100x8-$size.txt"
		fi
	done
done

# 3. One line per GPU, asked for (panels = line), narrow and wide.
mkdir -p "$state/cfg/gputop"
printf 'panels = line\n' >"$state/cfg/gputop/gputop.conf"
start 60 20 h100x8-degraded.scn
if wait_for "$(last_gpu 8)"; then
	wait_for "4100"
	screen=$(t capture-pane -p -t dash)
	out=$(lcheck --gpus 8 <<<"$screen") && pass "one line per GPU at 60x20: numbers and names whole" ||
		fail "one line per GPU at 60x20: $(grep '^FAIL' <<<"$out" | head -3)"
	grep -Eq "^│  2 .*PCIe 3x8" <<<"$screen" && grep -Eq "^│  5 .* PWR" <<<"$screen" &&
		pass "one line per GPU at 60x20: the PCIe and throttle badges show" ||
		fail "one line per GPU at 60x20: badges missing"
else
	fail "one line per GPU at 60x20: GPU 7 never shown"
fi
start 200 24 h100x8-degraded.scn
if wait_for "$(last_gpu 8)"; then
	# PCIe traffic is a rate: N/A until the second sample.
	wait_for "^│  5 .*MiB/s"
	out=$(lcheck --gpus 8 <<<"$screen") || fail "one line per GPU at 200x24: $(grep '^FAIL' <<<"$out" | head -3)"
	# More fields when wider: the clock, the link and the traffic.
	row=$(grep -E "^│  5 " <<<"$screen")
	grep -q "NVIDIA H100 80GB HBM3" <<<"$row" && grep -q "1905 MHz" <<<"$row" &&
		grep -Eq "MiB/s +[0-9.]+ MiB/s PWR HWSLOW" <<<"$row" &&
		pass "one line per GPU at 200x24: the whole name, more fields, both badges" ||
		fail "one line per GPU at 200x24: row of GPU 5 is '$row'"
else
	fail "one line per GPU at 200x24: GPU 7 never shown"
fi
rm -f "$state/cfg/gputop/gputop.conf"

# 4. A change made by gputop is on the panel while it is in force.
t kill-session -t dash 2>/dev/null
t new-session -d -x 120 -y 30 -s dash \
	"env LANG=C.UTF-8 XDG_CONFIG_HOME=$state/cfg GPUTOP_FAKE_NVML_SCENARIO=$scn_dir/rtx4090.scn $bin --nvml-lib $lib --procfs $proc --sysfs $nosys --state-dir $state/ctl --interval 0.5; echo EXITED \$?; sleep 60"
wait_for "\[0\]" || fail "badge: the dashboard did not start"
grep -q "LIMIT" <<<"$screen" && fail "badge: LIMIT shown before any change"
keys p Down Left Left Left Left Left Enter y
wait_for "Reverting in" || fail "badge: the power limit was not applied"
keys k Escape
wait_for "╭─ >\[0\].* LIMIT 425 W ─╮" && pass "the panel says LIMIT 425 W while gputop's limit is in force" ||
	fail "badge: no LIMIT 425 W on the panel"
keys f Enter y k Escape
wait_for "FAN CURVE, LIMIT 425 W ─╮" && pass "and FAN CURVE while its fan curve runs" ||
	fail "badge: no FAN CURVE on the panel"
keys q
wait_for "EXITED 0" || fail "badge: quit"

# 5. From 0.5 s, + + (2 s) then - five times (0.1 s): no panel says STALE.
# The collector still sleeps out the 2 s it was given; stale is judged
# against that, not against 0.1 s (the old dashboard showed STALE here in
# about one run of three).
IV=0.5 start 200 50 h100x4.scn
wait_for "$(last_gpu 4)" || fail "interval: GPU 3 never shown"
keys + +
sleep 1.5
t send-keys -t dash -- - - - - -
stale=0 drawn=0
for _ in $(seq 1 60); do
	screen=$(t capture-pane -p -t dash)
	grep -q STALE <<<"$screen" && stale=$((stale + 1))
	# A capture counts only while the dashboard is still drawn: a gputop
	# that died leaves a screen with no STALE on it either.
	grep -Eq "$(last_gpu 4)" <<<"$screen" && ! grep -q EXITED <<<"$screen" &&
		drawn=$((drawn + 1))
	sleep 0.05
done
[ "$stale" = 0 ] && [ "$drawn" = 60 ] &&
	pass "+ + - - - - -: no STALE in 60 captures of the dashboard" ||
	fail "+ + - - - - -: STALE in $stale of 60 captures, the dashboard in $drawn"
keys q
wait_for "EXITED 0" || fail "interval: quit after + + - - - - -"

[ "$failures" -eq 0 ]

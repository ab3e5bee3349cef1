#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The dashboard's interactions in a real terminal (tmux), against the fake
# NVML and the synthetic /proc tree: the mouse (header sort and reverse,
# row and GPU selection, the wheel), the function keys, the regex filter,
# follow, the per-GPU process view, sideways scrolling, the signal menu
# (a real child gets the chosen signal; an unprivileged user is told
# EPERM), the device labels (LOST, ASLEEP, the GTT bar, a degraded PCIe
# link, throttle badges), the N/A explanations of a GPU and of a process
# with the driver's own error text, the setup dialog (graph symbols, theme,
# Fahrenheit), `g`, and Ctrl-L.
set -u
here=$(cd "$(dirname "$0")" && pwd)
themes=$here/../../themes
command -v perl >/dev/null || { echo "FAIL: perl is not installed"; exit 1; }
sock="gputop-int-$$"
tmp=$(mktemp -d)
chmod 755 "$tmp"
# an empty sysfs root: no AMD or Intel GPU (a missing one is a usage error)
nosys=$tmp/nosys
mkdir "$nosys"
kids=()
# shellcheck source=tests/terminal/tmux_lib.sh
. "$here/tmux_lib.sh"
cleanup() {
	t kill-server 2>/dev/null
	for p in "${kids[@]}"; do kill -KILL "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
# Killing the last session stops the server; this one outlives them all.
t new-session -d -s keep "sleep 900"

# start SCENARIO PROCFS SYSFS [gputop args...]: the dashboard in session
# "dash", 120x40, its settings and state in $tmp/state.
start() {
	local scn=$1 proc=$2 sysfs=$3
	shift 3
	mkdir -p "$tmp/state"
	t kill-session -t dash 2>/dev/null
	t new-session -d -x 120 -y 40 -s dash \
		"env LANG=C.UTF-8 XDG_STATE_HOME=$tmp/state XDG_CONFIG_HOME=$tmp/state GPUTOP_AMDGPU_IDS=$fix/amdgpu/amdgpu.ids GPUTOP_FAKE_NVML_SCENARIO=$scn $bin --nvml-lib $lib --procfs $proc --sysfs $sysfs --interval 0.5 $*; echo EXITED \$?; sleep 60"
}

# Quits the running dashboard: a clean exit, with nothing from the
# sanitizers (the ASan build exits non-zero on a leak or a bad access).
finish() { # what
	keys Escape
	keys q
	wait_for "EXITED 0" || fail "$1: did not quit with status 0"
}

# An X10 mouse report (what ncurses expects from kmous=\E[M of the
# tmux/screen terminal descriptions): button code, then 0-based x and y,
# each plus 32 (plus 1 for the 1-based cell). A press of a button is
# followed by its release, as a terminal sends them.
mouse() { # button x y
	local x y
	x=$(printf '%x' $(($2 + 33)))
	y=$(printf '%x' $(($3 + 33)))
	t send-keys -t dash -H 1b 5b 4d "$(printf '%x' $((32 + $1)))" "$x" "$y"
	[ "$1" -lt 64 ] && t send-keys -t dash -H 1b 5b 4d 23 "$x" "$y"
	sleep 0.05
}
click() { mouse 0 "$1" "$2"; }

# 0-based screen row of the first line matching a regex, "" if none.
row_of() { grep -nE -- "$1" <<<"$screen" | head -1 | cut -d: -f1 | awk '{print $1 - 1}'; }
# 0-based column of a fixed text in the first line matching a regex.
col_of() { grep -E -- "$1" <<<"$screen" | head -1 | awk -v s="$2" '{i = index($0, s); print i ? i - 1 : ""}'; }

# The pid of the selected process row: the one row drawn on another
# background (or in reverse video) than the other rows, read from the
# attributes tmux keeps for each cell. SGR state carries over from line to
# line as capture-pane -e writes it. Needs two rows or more.
selected_pid() {
	t capture-pane -p -e -t dash | perl -e '
		my ($bg, $rev) = ("", 0);
		sub sgr { my @p = split /;/, ($_[0] eq "" ? "0" : $_[0]), -1;
			for (my $i = 0; $i < @p; $i++) {
				my $n = $p[$i] eq "" ? 0 : $p[$i];
				if ($n == 38 || $n == 48 || $n == 58) {
					my $k = ($p[$i + 1] // 0) == 5 ? 2 : 4;
					$bg = join ";", @p[$i + 1 .. $i + $k] if $n == 48;
					$i += $k;
				} elsif ($n == 0) { ($bg, $rev) = ("", 0) }
				elsif ($n == 7) { $rev = 1 }
				elsif ($n == 27) { $rev = 0 }
				elsif ($n == 49) { $bg = "" }
				elsif (($n >= 40 && $n <= 47) || ($n >= 100 && $n <= 107)) { $bg = $n } } }
		my (@rows, %count);
		while (my $l = <STDIN>) {
			my ($at, $plain) = (undef, "");
			while ($l =~ /\G(?:\e\[([0-9;]*)m|(.))/gs) {
				if (defined $1) { sgr($1); next }
				my $c = $2;
				$at = "$bg/$rev" if !defined $at && $c =~ /\d/;
				$plain .= $c;
			}
			next unless defined $at && $plain =~ /^\s*(\d+)\s+\S+\s+\d+\s/;
			push @rows, [$1, $at];
			$count{$at}++;
		}
		my @odd = grep { $count{$_->[1]} == 1 } @rows;
		print "$odd[0][0]\n" if @rows >= 3 && @odd == 1;'
}
wait_selected() { # pid
	for _ in $(seq 1 100); do
		[ "$(selected_pid)" = "$1" ] && return 0
		sleep 0.05
	done
	screen=$(t capture-pane -p -t dash)
	return 1
}
# The pids of the process rows, in screen order.
pids() { grep -E '^ +[0-9]+ +[^ ]+ +[0-9]+ ' <<<"$screen" | awk '{print $1}' | tr '\n' ' ' | sed 's/ $//'; }
wait_pids() { # "pid pid ..."
	for _ in $(seq 1 100); do
		screen=$(t capture-pane -p -t dash)
		[ "$(pids)" = "$1" ] && return 0
		sleep 0.05
	done
	return 1
}
# The escape sequences drawn right before the first occurrence of a text:
# its colour and attributes, where they differ from the cell before.
sgr_before() { t capture-pane -p -e -t dash | perl -ne 'BEGIN { $s = shift @ARGV }
	if (/((?:\e\[[0-9;]*m)*)\Q$s\E/) { print $1 =~ s/\e/ESC/gr, "\n"; exit }' "$1"; }

h100=$scn_dir/h100x8.scn
start "$h100" "$fix/proc" "$nosys" --themes-dir "$themes"
wait_for "4107" || fail "the dashboard did not start"

# ---- the mouse -------------------------------------------------------
# The process table starts sorted by GPU %: 4100 (row 0) is selected.
wait_selected 4100 || fail "mouse: 4100 is not selected at the start"
hdr=$(row_of "PID +USER")
click "$(col_of "PID +USER" "VRAM")" "$hdr"
wait_for "VRAM v" && pass "mouse: a click on the VRAM header sorts by it" ||
	fail "mouse: header click did not sort by VRAM"
click "$(col_of "PID +USER" "VRAM")" "$hdr"
wait_for "VRAM \\^" && [ "$(pids | cut -d' ' -f1)" = 7000 ] &&
	pass "mouse: a second click reverses it (smallest VRAM, pid 7000, first)" ||
	fail "mouse: second header click did not reverse"
click "$(col_of "PID +USER" "GPU %")" "$hdr"
wait_for "GPU ?%? v" && wait_pids "4100 4101 4102 4103 4104 4105 4106 4107 6000 5000 7000" &&
	pass "mouse: a click on GPU % sorts by it again" || fail "mouse: GPU % header"

click 10 "$(row_of "^ +5000 ")"
wait_selected 5000 && pass "mouse: a click on a row selects its process (5000)" ||
	fail "mouse: row click did not select 5000"
# The wheel moves the selection three rows: 5000 is row 9, 7000 the last.
mouse 65 10 "$(row_of "^ +4105 ")"
wait_selected 7000 && pass "mouse: wheel down moves the selection down (to 7000)" ||
	fail "mouse: wheel down"
mouse 64 10 "$(row_of "^ +4105 ")"
wait_selected 4107 && pass "mouse: wheel up moves it three rows up (to 4107)" ||
	fail "mouse: wheel up"

click "$(col_of "\[3\] NVIDIA" "[3]")" "$(row_of "\[3\] NVIDIA")"
wait_for ">\[3\] NVIDIA" && ! grep -q ">\[0\]" <<<"$screen" &&
	pass "mouse: a click on GPU 3's panel selects it" || fail "mouse: GPU panel click"

# ---- this GPU / all GPUs, follow, sideways scrolling --------------------
keys d
wait_pids "4103" && grep -q "GPU 3 only" <<<"$screen" &&
	pass "d shows only the selected GPU's processes (GPU 3: 4103)" ||
	fail "d did not narrow the table to GPU 3"
keys Tab
wait_pids "4104" && pass "with d, Tab moves the view to GPU 4 (4104)" || fail "d + Tab"
keys '[' '[' '[' '['
wait_pids "4100 5000" && pass "GPU 0 only: 4100 and 5000 (compute+graphics)" ||
	fail "d: GPU 0 rows"
keys d
wait_pids "4100 4101 4102 4103 4104 4105 4106 4107 6000 5000 7000" &&
	pass "d again shows all 11 processes" || fail "d did not show all GPUs again"

# Follow 6000 (row 8) while the sort changes: it moves to row 2 and stays
# selected. Without follow the selection stays on its process too (as in
# htop): a re-sort moves the row, not the selection to another process.
click 10 "$(row_of "^ +6000 ")"
wait_selected 6000 || fail "follow: could not select 6000"
keys F
wait_for "following the selected process" || fail "F: no notice"
keys '>' r
if wait_for "VRAM \\^" && wait_pids "7000 5000 6000 4100 4101 4102 4103 4104 4105 4106 4107" &&
	wait_selected 6000; then
	pass "F: the followed process stays selected while the sort changes (6000 at row 2)"
else
	fail "F: the selection did not follow 6000"
fi
keys F
wait_for "not following" || fail "F: no notice when following ends"
keys r
wait_for "VRAM v" && wait_selected 6000 &&
	pass "not following, the selection stays on 6000 through a re-sort" ||
	fail "unfollowed selection: expected 6000, got $(selected_pid)"
keys '<'
wait_for "GPU ?%? v" || fail "< did not go back to GPU %"

wait_for "^ +6000 .*/tmp/evil --title" || fail "6000's command line not shown"
keys Right Right Right Right Right Right
wait_for "^ +6000 .* line1\\\\nline2 bad" && ! grep -q "/tmp/evil" <<<"$screen" &&
	pass "Right scrolls command lines sideways (6000's end shows)" ||
	fail "Right did not scroll the command line"
keys Left Left Left Left Left Left
wait_for "^ +6000 .*/tmp/evil --title" && pass "Left scrolls back to the start" ||
	fail "Left did not scroll back"

# ---- the regex filter ------------------------------------------------
# Ctrl-R in the filter prompt switches to a regular expression: this one
# matches the pids 4100 and 4107 exactly, and as a substring nothing.
keys / C-r
wait_for "regex: _" || fail "Ctrl-R: the prompt does not say regex"
t send-keys -t dash -l '^410[07]$'
keys Enter
wait_pids "4100 4107" && grep -q 'regex: \^410\[07\]\$' <<<"$screen" &&
	pass "Ctrl-R: a regular expression narrows the table to 4100 and 4107" ||
	fail "regex filter"
keys / Escape
wait_pids "4100 4101 4102 4103 4104 4105 4106 4107 6000 5000 7000" || fail "regex: Esc did not clear"
keys /
wait_for "(regex|filter): _" || fail "the filter prompt did not open"
grep -q "filter: _" <<<"$screen" && keys C-r
wait_for "regex: _" || fail "the filter prompt is not in regex mode"
t send-keys -t dash -l '(['
keys Enter
wait_for "invalid regular expression" && pass "an invalid regex gives a message" ||
	fail "no message for an invalid regex"
keys / Escape
wait_gone "invalid regular expression" && pass "Esc clears the invalid regex and its message" ||
	fail "the invalid-regex message stayed"

# ---- htop's search (F3), user list (u), Esc ---------------------------
all="4100 4101 4102 4103 4104 4105 4106 4107 6000 5000 7000"
click 10 "$(row_of "^ +4100 ")"
wait_selected 4100 || fail "search: could not select 4100"
keys F3
wait_for "search: _" || fail "F3 did not open the search prompt"
t send-keys -t dash -l "rank 5"
if wait_selected 4105 && wait_pids "$all"; then
	pass "F3 selects the first match (4105) and hides no row"
else
	fail "F3: 4105 not selected, or rows hidden"
fi
keys F3
wait_selected 4105 && pass "F3 again: the only match stays selected" || fail "F3 next"
keys Escape
wait_gone "search: " || fail "Esc did not close the search prompt"
keys u
wait_for "Show the processes of" && wait_for "> all users" || fail "u did not open the user list"
keys Down Enter
if wait_pids "4100 4101 4102 4103 4104 4105 4106 4107" && grep -q "user cloudsdk" <<<"$screen" &&
	grep -q "Esc clears" <<<"$screen"; then
	pass "u: cloudsdk's processes only, the filter named in the table's header"
else
	fail "u did not filter by cloudsdk"
fi
wait_selected 4105 && pass "the selection stays on 4105 through the user filter" ||
	fail "the selection left 4105 under the user filter: $(selected_pid)"
keys d
wait_pids "4100" && grep -q "GPU 0 only  user cloudsdk" <<<"$screen" ||
	fail "d with u: not GPU 0's cloudsdk process"
keys Escape
if wait_pids "$all" && wait_for "filters cleared"; then
	pass "Esc clears the user and GPU filters"
else
	fail "Esc did not clear the filters"
fi

# ---- function keys ---------------------------------------------------
keys F1
wait_for "gputop help" && pass "F1 opens help" || fail "F1 did not open help"
wait_for "F9 +send a signal" || fail "help does not list F9"
keys Escape
wait_gone "gputop help" || fail "help did not close"
keys F2
wait_for " Setup " && pass "F2 opens setup" || fail "F2 did not open setup"
keys F2
wait_gone " Setup " && pass "F2 closes setup" || fail "F2 did not close setup"
keys F6
wait_for "Sort by" && wait_for "> GPU %" || fail "F6 did not open the sort list at GPU %"
keys Down Enter
wait_for "VRAM v" && pass "F6 picks the sort column from a list (VRAM)" || fail "F6"
keys P
wait_for "GPU ?%? v" && pass "P sorts by GPU % (htop)" || fail "P did not sort by GPU %"
keys M
wait_for "VRAM v" && pass "M sorts by VRAM (htop)" || fail "M did not sort by VRAM"
keys T
if wait_for "by start time v" && ! grep -q "VRAM v" <<<"$screen"; then
	pass "T sorts by start time, the header says so"
else
	fail "T did not sort by start time"
fi
keys P
wait_for "GPU ?%? v" || fail "P after M"
click 10 "$(row_of "^ +4100 ")"
wait_selected 4100 || fail "could not select 4100"
keys F9
wait_for "Send a signal" && wait_for "> 1  SIGTERM" && pass "F9 opens the signal menu (as x)" ||
	fail "F9 did not open the signal menu"
keys Escape
wait_gone "Send a signal" || fail "Esc did not close the signal menu"

# ---- why N/A: the selected GPU and the selected process ------------------
click 10 "$(row_of "^ +7000 ")"
wait_selected 7000 || fail "could not select 7000"
keys e
if wait_for "Why N/A" && grep -q "GPU 0  NVIDIA H100" <<<"$screen" &&
	grep -q "not supported by this driver version" <<<"$screen" &&
	grep -q "fix: update the GPU driver" <<<"$screen" &&
	grep -q "fix: nothing to do: this device does not provide it" <<<"$screen"; then
	pass "e explains the selected GPU's N/As, each reason with its fix"
else
	fail "e: GPU reasons or fixes missing"
fi
if grep -q "Process 7000" <<<"$screen" && grep -q "/proc has no entry for pid 7000" <<<"$screen" &&
	grep -q "USER, CONTAINER, COMMAND, CPU %, HOST MEM" <<<"$screen" &&
	grep -q "fix: nothing to do if it has exited" <<<"$screen"; then
	pass "e explains the selected process's N/A cells (pid 7000: no /proc entry)"
else
	fail "e: the process's N/As are not explained"
fi
keys Escape
wait_gone "Why N/A" || fail "Esc did not close the explanation"

# ---- setup: graph symbols, theme, temperature unit ---------------------
row0() { grep -E "^[│|]? ?GPU " <<<"$screen" | head -1; }
wait_for "^[│|]? ?GPU +█" || fail "bars are not drawn in blocks"
keys o
wait_for "Graph symbols +< automatic" || fail "setup: glyphs not automatic at first"
# automatic (braille here), braille, block, ascii
keys Down Down Right Right Right
wait_for "Graph symbols +< ascii >" || fail "setup: glyphs did not reach ascii"
keys Down Right
wait_for "Temperature +< Fahrenheit >" || fail "setup: temperature did not change"
before=$(t capture-pane -p -e -t dash | sed -n 3p)
keys Up Up Right
wait_gone "Theme +< built-in >" || fail "setup: no theme to choose in $themes"
theme=$(grep -oE "Theme +< [a-z-]+ >" <<<"$screen" | sed 's/.*< //; s/ >//')
keys Escape
wait_gone " Setup " || fail "setup did not close"
if wait_for "^[│|]? ?GPU +#+-? +100% +VRAM +#+" && ! grep -q "█" <<<"$(row0)"; then
	pass "setup: graph symbols ascii draws the bars with #"
else
	fail "setup: ascii graph symbols not applied"
fi
wait_for "104°F" && ! grep -q "40°C" <<<"$screen" &&
	pass "setup: Fahrenheit shows GPU 0's 40 °C as 104°F" || fail "setup: no °F"
after=$(t capture-pane -p -e -t dash | sed -n 3p)
[ "$before" != "$after" ] && pass "setup: theme $theme changes the colours on screen" ||
	fail "setup: theme $theme did not change the colours"

# g cycles the graph symbols: from ascii to braille, then block, then ascii.
keys g
wait_for "^ braille " && wait_for "^[│|]? ?GPU +█" && pass "g: ascii -> braille (bars in blocks)" ||
	fail "g did not go to braille"
keys g
wait_for "^ block " || fail "g did not go to block"
keys g
wait_for "^ ascii " && wait_for "^[│|]? ?GPU +#" && pass "g cycles braille -> block -> ascii" ||
	fail "g did not come back to ascii"

# ---- Ctrl-L ----------------------------------------------------------
# Text written behind ncurses' back stays (ncurses only sends what it
# changed) until Ctrl-L repaints the whole screen.
tty=$(t display-message -p -t dash '#{pane_tty}')
# Cursor saved and restored: ncurses moves it relative to where it
# believes it is.
printf '\0337\033[37;40HZZGARBAGEZZ\0338' >"$tty"
wait_for "ZZGARBAGEZZ" || fail "Ctrl-L: the garbage did not reach the screen"
sleep 1.5 # three redraws at 0.5 s: without Ctrl-L it must still be there
screen=$(t capture-pane -p -t dash)
grep -q "ZZGARBAGEZZ" <<<"$screen" || fail "Ctrl-L: a normal redraw already removed the garbage (the check would prove nothing)"
keys C-l
wait_gone "ZZGARBAGEZZ" && wait_for "4107" && pass "Ctrl-L repaints the whole screen" ||
	fail "Ctrl-L did not repaint"

keys F10
wait_for "EXITED 0" && pass "F10 quits with status 0" || fail "F10 did not quit"

# ---- device labels ---------------------------------------------------
start "$scn_dir/h100x8-lost.scn" "$fix/proc" "$nosys"
# A label sits in its panel's top border, after the name; two panels
# share a screen line, so each panel's title is read up to its corner.
wait_for "\[3\] NVIDIA H100 80GB HBM3 .*LOST" &&
	! sed 's/╮/╮\n/g' <<<"$screen" | grep -q "\[2\] NVIDIA H100 80GB HBM3 .*LOST" &&
	pass "GPU 3 of h100x8-lost.scn is labelled LOST, GPU 2 is not" || fail "no LOST label"
keys Tab Tab Tab e
if wait_for "GPU 3  NVIDIA" && wait_for "device lost" &&
	grep -q "fix: the GPU fell off the bus or the driver was reset" <<<"$screen"; then
	pass "e on the lost GPU: the reason and what to do (dmesg, Xid)"
else
	fail "e on the lost GPU"
fi
finish "lost"

start "$scn_dir/h100x8-degraded.scn" "$fix/proc" "$nosys"
# The link's line of numbers, not only the title's badge: on the first
# frames (a short process table) the panels have graphs and too few rows
# for that line.
wait_for "PCIe 3x8/" || fail "degraded: GPU 2's gen 3 x8 link not shown"
bad=$(sgr_before "PCIe 3x8/")
good=$(sgr_before "PCIe 5x16/")
[ -n "$bad" ] && [ "$bad" != "$good" ] &&
	pass "a degraded PCIe link is highlighted ($bad, not $good)" ||
	fail "degraded link drawn like a full one ($bad vs $good)"
wait_for "\[5\] NVIDIA H100 80GB HBM3 .*power_cap .*hw_slowdown" &&
	[ "$(grep -c "power_cap" <<<"$screen")" = 1 ] &&
	pass "GPU 5's throttle reasons show as badges (power_cap hw_slowdown), nowhere else" ||
	fail "throttle badges"
finish "degraded"

mkdir -p "$tmp/noproc" # a /proc tree with no process in it
start /nonexistent "$tmp/noproc" "$fix/amdgpu/rx6900xt" --nvml-lib /nonexistent
wait_for "AMD Radeon RX 6900 XT" || fail "AMD rx6900xt not shown"
wait_for "GTT ([^ ]* +)?[0-9.]+/15\.6 GiB" && pass "an AMD panel shows GTT (of 15.6 GiB)" ||
	fail "no GTT bar on the AMD panel"
finish "rx6900xt"

# A copy of the Vega 56 capture whose VRAM-used file is a directory: a
# read fails with EISDIR, and the explanation gives the errno's text.
vega="$tmp/vega56"
cp -r "$fix/amdgpu/vega56" "$vega"
vdev="$vega/class/drm/card0/device"
rm "$vdev/mem_info_vram_used" && mkdir "$vdev/mem_info_vram_used"
start /nonexistent "$tmp/noproc" "$vega" --nvml-lib /nonexistent
wait_for "AMD Radeon RX Vega" || fail "vega56 copy not shown"
! grep -q "ASLEEP" <<<"$screen" || fail "the active vega56 copy is labelled ASLEEP"
keys e
wait_for "driver error 21: Is a directory" && grep -q "memory.used_bytes" <<<"$screen" &&
	pass "e gives the driver's text of an error code (21: Is a directory)" ||
	fail "e: no driver error text"
finish "vega56"
echo suspended >"$vdev/power/runtime_status"
start /nonexistent "$tmp/noproc" "$vega" --nvml-lib /nonexistent
wait_for "AMD Radeon RX Vega .*ASLEEP" && pass "a runtime-suspended AMD GPU is labelled ASLEEP" ||
	fail "no ASLEEP label"
finish "asleep"

# ---- the signal menu ---------------------------------------------------
# A real child, listed by a scenario on GPU 0, read from the real /proc.
sleep 300 &
victim=$!
kids+=("$victim")
printf 'include %s\ndevice 0\nprocess compute %d 1GiB\n' "$h100" "$victim" >"$tmp/victim.scn"
chmod 644 "$tmp/victim.scn"
start "$tmp/victim.scn" /proc "$nosys"
wait_for "\[7\]" || fail "signal: dashboard did not start"
keys / 
t send-keys -t dash -l "$victim"
keys Enter
# The only row: selected (the confirmation below names the pid).
wait_pids "$victim" || fail "signal: $victim not in the table"
keys x
wait_for "Send a signal" || fail "x did not open the signal menu"
wait_for "to $victim \(sleep\)" && pass "the signal menu names its target ($victim, sleep) first" ||
	fail "the signal menu does not name $victim"
keys Down Down Down Down Down Down
wait_for "> 7  SIGUSR1" || fail "signal menu: Down did not reach SIGUSR1"
keys Enter
wait_for "Send SIGUSR1 to $victim \(sleep\)\?" &&
	pass "the confirmation names the signal and the pid ($victim, sleep)" ||
	fail "no confirmation naming $victim"
kill -0 "$victim" 2>/dev/null || fail "signal: $victim died before y"
keys y
rc=none
for _ in $(seq 1 100); do
	# A zombie, or already reaped by bash (which keeps its status).
	st=$(awk '{print $3}' "/proc/$victim/stat" 2>/dev/null)
	if [ -z "$st" ] || [ "$st" = Z ]; then
		wait "$victim"
		rc=$?
		break
	fi
	sleep 0.05
done
[ "$rc" = $((128 + $(kill -l USR1))) ] && pass "y sent SIGUSR1: sleep $victim ended by it" ||
	fail "sleep $victim ended with status $rc, not by SIGUSR1"
wait_for "sent USR1 to $victim" || fail "no notice after sending"
finish "signal"

# Unprivileged: a root-owned process cannot be signalled, and the screen
# says why.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	sleep 300 &
	victim=$!
	kids+=("$victim")
	printf 'include %s\ndevice 0\nprocess compute %d 1GiB\n' "$h100" "$victim" >"$tmp/root.scn"
	chmod 644 "$tmp/root.scn"
	mkdir -p "$tmp/nobody"
	chmod 777 "$tmp/nobody"
	t kill-session -t dash 2>/dev/null
	t new-session -d -x 120 -y 40 -s dash \
		"setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=$tmp/nobody XDG_STATE_HOME=$tmp/nobody XDG_CONFIG_HOME=$tmp/nobody LANG=C.UTF-8 GPUTOP_FAKE_NVML_SCENARIO=$tmp/root.scn $bin --nvml-lib $lib --sysfs $nosys --state-dir $tmp/nobody --interval 0.5; echo EXITED \$?; sleep 60"
	wait_for "\[7\]" || fail "unprivileged: dashboard did not start"
	keys /
	t send-keys -t dash -l "$victim"
	keys Enter
	wait_pids "$victim" || fail "unprivileged: $victim not in the table"
	keys x Enter
	wait_for "Send SIGTERM to $victim" || fail "unprivileged: no confirmation"
	keys y
	wait_for "Operation not permitted \(EPERM\)" &&
		pass "unprivileged: signalling a root process reports EPERM on screen" ||
		fail "unprivileged: no EPERM message"
	kill -0 "$victim" 2>/dev/null && pass "unprivileged: the root process is untouched" ||
		fail "unprivileged: the root process died"
	finish "unprivileged"
else
	echo "SKIP: unprivileged signal (needs root and setpriv to switch user)"
fi

echo "interaction.sh: $failures failure(s)"
[ "$failures" -eq 0 ]

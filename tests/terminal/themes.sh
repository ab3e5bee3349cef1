#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# themes.sh - every theme works on the first try (issue 10): each btop
# theme in tests/fixtures/btop-themes and each of gputop's themes/ loads
# from its full path (over 100 bytes long here) and by name, from this
# checkout without installing (themes/ is found beside the executable),
# with no notice; it draws (the title has the theme's title colour); and
# when it sets main_bg, that background covers the whole screen (no cell
# left on the terminal's own background), while a theme with an empty
# main_bg leaves the terminal's background alone. The setup dialog names
# the theme in use, a path theme included. Colours are read exactly: the
# pane's terminal is xterm-direct (24-bit colour numbers) without
# back-colour erase, so that ncurses writes every cell's colour and
# tmux's capture shows it (an erased cell is not captured).
set -u
shopt -s extglob
here=$(dirname "$0")
# shellcheck source=tests/terminal/tmux_lib.sh
. "$here/tmux_lib.sh"
tmux_begin themes
check=$(dirname "$bin")/sgrcheck
[ -x "$check" ] || { echo "FAIL: $check is not built (make tests)"; exit 1; }
themes=$(cd "$here/../../themes" && pwd)
btop=$fix/btop-themes

# xterm-direct less bce, compiled into the test's own terminfo folder.
ti=$state/terminfo
mkdir -p "$ti"
infocmp -x xterm-direct | sed -e 's/ bce,//' \
	-e 's/^xterm-direct|[^,]*,/gputop-test-direct|xterm-direct with no back colour erase,/' \
	>"$state/direct.ti" && tic -x -o "$ti" "$state/direct.ti" ||
	{ echo "FAIL: cannot compile the test's terminal description"; exit 1; }

# Every path given to --theme is long: 21 of the 52 btop themes have a
# path over 63 bytes in a checkout, and such a path used to be cut.
long=$state/a-folder-with-a-long-name-to-make-every-theme-path-longer-than-63-bytes
longt=$state/another-folder-with-a-long-name-for-the-themes-that-come-with-gputop
ln -s "$btop" "$long"
ln -s "$themes" "$longt"

start() { # args...
	launch dash "$@"
}

launch() { # session args...
	local session=$1
	shift
	[ "$session" = dash ] && t kill-session -t dash 2>/dev/null
	t new-session -d -x 120 -y 40 -s "$session" \
		"env -u COLORTERM -u NO_COLOR TERMINFO=$ti TERM=gputop-test-direct LANG=C.UTF-8 XDG_STATE_HOME=$state XDG_CONFIG_HOME=$state $bin --demo $*; echo EXITED \$?; sleep 60"
}

# A key's value in a theme file as #rrggbb, in $colour: "" for an empty
# value, and the default for a missing key (the last setting of a key
# wins). Bash only: a process costs up to 0.1 s on a slow machine.
theme_colour() { # file key default
	local line r g b v=$3 re="^[[:space:]]*theme\\[$2\\][[:space:]]*=[[:space:]]*\"([^\"]*)\""
	while IFS= read -r line || [ -n "$line" ]; do
		[[ $line =~ $re ]] && v=${BASH_REMATCH[1]}
	done <"$1"
	v=${v,,}
	case "$v" in
	"" | \#??????) colour=$v ;;
	\#??) colour="#${v:1}${v:1}${v:1}" ;;
	*)
		read -r r g b <<<"$v"
		printf -v colour '#%02x%02x%02x' "$r" "$g" "$b"
		;;
	esac
}

# The cases, run a batch at a time (each in its own tmux session): label,
# the theme's title and main_bg colours, whether to check the background,
# and gputop's arguments.
labels=() titles=() mains=() bgs=() argv=()
add_case() { # label file check-bg args...
	local colour q
	labels+=("$1")
	theme_colour "$2" title "#eeeeee"
	titles+=("$colour")
	theme_colour "$2" main_bg "#000000"
	mains+=("$colour")
	bgs+=("$3")
	shift 3
	printf -v q '%q ' "$@"
	argv+=("$q")
}

# Checks what case i drew in session s: one capture (with colours) and
# one sgrcheck --report, as tmux commands and processes are slow.
check_case() { # i session
	local i=$1 s=$2 label=${labels[$1]} title=${titles[$1]} bg=${mains[$1]}
	local cap rep n=0 m=0 line k last rows
	# The first frame is written top to bottom: it is whole once the
	# last row (the status line) has text; a capture taken before that
	# (a slow machine, an ASan build) would see half a screen.
	for ((k = 0; k < 200; k++)); do
		cap=$(t capture-pane -p -e -N -t "$s")
		mapfile -t rows <<<"$cap"
		last=${rows[-1]//$'\e['*([0-9;:])m/}
		[[ $cap == *"DEMO: simulated"* && $last == *[![:space:]]* ]] && break
		sleep 0.05
	done
	screen=$cap
	if [[ $cap != *"DEMO: simulated"* || $last != *[![:space:]]* ]]; then
		fail "$label: the dashboard did not start"
		return
	fi
	if [[ $cap =~ theme\ .*(not\ found|using\ the\ built-in|:[0-9]+:\ ) ]]; then
		fail "$label: a notice about the theme"
		return
	fi
	rep=$("$check" --report --cols 120 <<<"$cap")
	while read -r line; do
		case "$line" in
		"bg default "*) n=${line##* } ;;
		"bg $bg "*) [ -n "$bg" ] && m=${line##* } ;;
		esac
	done <<<"$rep"
	line=${rep%%$'\n'*}
	if [[ $line != "cell0 fg=$title "* ]]; then
		fail "$label: title drawn as ${line#cell0 }, the theme's title is $title"
		return
	fi
	if [ "${bgs[$i]}" != 1 ]; then
		pass "$label"
	elif [ -n "$bg" ] && [ "$n" = 0 ] && [ "$m" -ge 4000 ]; then
		pass "$label (main_bg $bg on $m of 4800 cells, none on the terminal's)"
	elif [ -z "$bg" ] && [ "$n" -ge 4000 ]; then
		pass "$label (empty main_bg: the terminal's background on $n cells)"
	else
		fail "$label: main_bg '$bg' on $m cells, the terminal's on $n"
	fi
}

# q to each case, then a wait for its "EXITED" line: gputop ends while its
# shell and terminal are there. Killed by the session's hang-up instead,
# an ASan build's leak check at exit (which stops the process with ptrace)
# can wait for ever: the shell dies first, the orphaned process group gets
# SIGCONT, and that cancels the stop the checker waits for.
quit_cases() { # first count
	local j
	for ((j = $1; j < $1 + $2 && j < ${#labels[@]}; j++)); do
		t send-keys -t "case$j" q
	done
	for ((j = $1; j < $1 + $2 && j < ${#labels[@]}; j++)); do
		eventually 200 sh -c "tmux -L '$sock' capture-pane -p -t case$j | grep -q EXITED" ||
			fail "case$j: gputop did not end on q"
	done
}

run_cases() {
	local batch=8 i j kill
	for ((i = 0; i < ${#labels[@]}; i += batch)); do
		kill=()
		for ((j = i; j < i + batch && j < ${#labels[@]}; j++)); do
			eval "launch case$j ${argv[$j]}"
			kill+=(kill-session -t "case$j" \;)
		done
		for ((j = i; j < i + batch && j < ${#labels[@]}; j++)); do
			check_case "$j" "case$j"
		done
		quit_cases "$i" "$batch"
		t "${kill[@]}"
	done
}

count=0
while IFS= read -r f; do
	rel=${f#"$btop"/}
	dir=$(dirname "$f")
	name=$(basename "$f" .theme)
	add_case "btop $rel by path" "$f" 1 --theme "$long/$rel"
	add_case "btop $rel by name" "$f" 0 --themes-dir "$dir" --theme "$name"
	count=$((count + 1))
done < <(find "$btop" -name '*.theme' | sort)
[ "$count" = 52 ] && pass "all 52 btop themes tried" || fail "$count btop themes found, not 52"

count=0
for f in "$themes"/*.theme; do
	name=$(basename "$f" .theme)
	add_case "themes/$name by path" "$f" 1 --theme "$longt/$name.theme"
	# by name with no --themes-dir: found beside the executable
	add_case "themes/$name by name" "$f" 0 --theme "$name"
	count=$((count + 1))
done
[ "$count" -ge 6 ] && pass "$count shipped themes tried" || fail "only $count shipped themes"
run_cases

# The setup dialog names the theme in use.
setup_line() { # regex
	keys o
	wait_for "Theme +< " || return 1
	grep -Eq -- "$1" <<<"$screen"
}
start --theme "$long/third-party/catppuccin-btop/catppuccin_macchiato.theme"
wait_for "DEMO: simulated" && setup_line "Theme +< \.\.\..*catppuccin-btop/catppuccin_macchiato\.theme >" &&
	pass "setup shows a long path theme by its path's end" || fail "setup: path theme not shown"
start --theme midnight
wait_for "DEMO: simulated" && setup_line "Theme +< midnight >" &&
	pass "setup shows a theme found by name" || fail "setup: midnight not shown"
start --theme gputop-no-such-theme
if wait_for "theme 'gputop-no-such-theme' not found" &&
	setup_line "Theme +< built-in \(gputop-no-such-theme not found\) >"; then
	pass "a missing theme: notice, and setup says the built-in one is in use"
else
	fail "missing theme: no notice or setup line"
fi

echo "themes.sh: $failures failure(s)"
[ "$failures" -eq 0 ]

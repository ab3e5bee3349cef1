# SPDX-License-Identifier: MIT
# tmux_lib.sh - what the terminal tests share: sourced (not run) by the
# tests/terminal/*.sh scripts that drive gputop in tmux. It reads the
# paths tests/run.sh exports ($bin, $lib, $scn_dir, $fix). A script calls
# tmux_begin, or sets $sock (its own tmux server) itself; it names its
# gputop session "dash", and may redefine fail() to print more (a setter
# log, ps). screen holds the last capture, so fail() can show it.
screen=""
failures=0
bin=${GPUTOP_BIN:?run through tests/run.sh}
lib=${GPUTOP_FAKE_NVML_LIB:?}
scn_dir=${GPUTOP_SCENARIO_DIR:?}
fix=${GPUTOP_FIXTURES:?}
command -v tmux >/dev/null || { echo "FAIL: tmux is not installed"; exit 1; }
t() { tmux -L "$sock" "$@"; }
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; printf '%s\n' "---- screen:" "$screen"; failures=$((failures + 1)); }

# The usual start of a script: its own tmux server "gputop-NAME-PID", a
# temporary directory $state removed on exit with the server, $nosys in it
# (an empty sysfs root, for no AMD or Intel GPU: a --sysfs that does not
# exist is a usage error), and a session that lives for the whole test
# (killing the last session stops the tmux server, and a new-session
# racing that shutdown fails).
tmux_begin() { # name
	sock="gputop-$1-$$"
	state=$(mktemp -d)
	nosys=$state/nosys
	mkdir "$nosys"
	trap 't kill-server 2>/dev/null; rm -rf "$state"' EXIT
	t new-session -d -s keep "sleep 900"
}

# Waits until the screen matches a regex: $2 tries of 50 ms (10 s by
# default: CI machines can be slow).
wait_for() { # regex [tries]
	for _ in $(seq 1 "${2:-200}"); do
		screen=$(t capture-pane -p -t dash)
		grep -Eq -- "$1" <<<"$screen" && return 0
		sleep 0.05
	done
	return 1
}

# Waits until the screen no longer matches a regex.
wait_gone() { # regex [tries]
	for _ in $(seq 1 "${2:-200}"); do
		screen=$(t capture-pane -p -t dash)
		grep -Eq -- "$1" <<<"$screen" || return 0
		sleep 0.05
	done
	return 1
}

# Runs a command until it succeeds: $1 tries of 50 ms. For effects outside
# the screen (a file written, a process gone), which a fixed sleep would
# race on a slow machine.
eventually() { # tries command...
	local tries=$1
	shift
	for _ in $(seq 1 "$tries"); do
		"$@" && return 0
		sleep 0.05
	done
	return 1
}

# Waits until two captures 0.2 s apart are the same (keys sent in a burst
# have all been drawn); 5 s at most.
wait_settled() {
	local before
	screen=$(t capture-pane -p -t dash)
	for _ in $(seq 1 25); do
		before=$screen
		sleep 0.2
		screen=$(t capture-pane -p -t dash)
		[ "$screen" = "$before" ] && return 0
	done
	return 1
}

# Sends each argument as one key (tmux key names: Enter, Escape, F1, C-r).
keys() { for k in "$@"; do t send-keys -t dash "$k"; sleep 0.05; done; }

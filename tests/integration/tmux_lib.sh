# tmux_lib.sh - what the terminal tests share: sourced (not run) by the
# tests/integration/*.sh scripts that drive gputop in tmux. The script sets
# $sock (its own tmux server) before sourcing, names its gputop session
# "dash", and defines fail(), which may print more (a setter log, ps).
# screen holds the last capture, so fail() can show it.
screen=""
failures=0
t() { tmux -L "$sock" "$@"; }
pass() { echo "PASS: $*"; }

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

# Sends each argument as one key (tmux key names: Enter, Escape, F1, C-r).
keys() { for k in "$@"; do t send-keys -t dash "$k"; sleep 0.05; done; }

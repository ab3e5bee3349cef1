#!/usr/bin/env bash
# The live view in a real terminal (tmux): with no GPU, gputop says why and
# shows the demo machine labelled DEMO; q quits and gives the terminal back.
set -u
bin=${GPUTOP_BIN:?run through tests/run.sh}
command -v tmux >/dev/null || { echo "FAIL: tmux is not installed"; exit 1; }
sock="gputop-test-$$"
t() { tmux -L "$sock" "$@"; }
trap 't kill-server 2>/dev/null' EXIT
fail() { echo "FAIL: $*"; echo "---- screen:"; printf '%s\n' "$screen"; exit 1; }

t new-session -d -x 120 -y 40 -s live \
	"$bin --nvml-lib /nonexistent/libnvidia-ml.so.1 --interval 0.2; echo EXITED \$?; sleep 30"

# The reason comes first, then (after a pause to read it) the demo.
screen=""
for _ in $(seq 1 30); do
	screen=$(t capture-pane -p -t live)
	grep -q "no GPU found" <<<"$screen" && break
	sleep 0.1
done
grep -q "no GPU found" <<<"$screen" || fail "no 'no GPU found' message"
grep -q "cannot open shared object file" <<<"$screen" || fail "reason not shown"

for _ in $(seq 1 50); do
	screen=$(t capture-pane -p -t live)
	grep -q "H100" <<<"$screen" && break
	sleep 0.1
done
grep -q "DEMO: simulated GPUs" <<<"$screen" || fail "demo not labelled"
grep -q "DEMO NVIDIA H100 80GB HBM3" <<<"$screen" || fail "demo device not shown"
grep -q "python3 train.py" <<<"$screen" || fail "demo processes not shown"

t send-keys -t live q
for _ in $(seq 1 30); do
	screen=$(t capture-pane -p -t live)
	grep -q "EXITED 0" <<<"$screen" && break
	sleep 0.1
done
grep -q "EXITED 0" <<<"$screen" || fail "q did not quit with status 0"
echo "PASS: no-GPU live view explains why, shows the labelled demo, quits on q"

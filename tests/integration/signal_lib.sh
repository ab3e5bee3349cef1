# SPDX-License-Identifier: MIT
# signal_lib.sh - sourced by the tests that stop gputop with signals while
# it works (signals.sh, hung_write.sh): the build under test from
# tests/run.sh's environment, a temporary directory, the background pids
# killed (and any child left) at exit, PASS/FAIL counting, and a clock in
# milliseconds.
set -u
set -m # background jobs keep SIGINT (a non-interactive shell ignores it)
bin=${GPUTOP_BIN:?run through tests/run.sh}
lib=${GPUTOP_FAKE_NVML_LIB:?}
scn_dir=${GPUTOP_SCENARIO_DIR:?}
fix=${GPUTOP_FIXTURES:?}
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done; pkill -KILL -P $$ 2>/dev/null; rm -rf "$tmp"' EXIT
failures=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
now_ms() { echo $(($(date +%s%N) / 1000000)); }

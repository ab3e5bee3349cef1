# SPDX-License-Identifier: MIT
# signal_lib.sh - sourced by the tests that stop gputop with signals while
# it works (signals.sh, hung_write.sh): the build under test from
# tests/run.sh's environment, a temporary directory, the background pids
# killed (and any child left) at exit, PASS/FAIL counting, a clock in
# milliseconds, a headless --apply started in the background and a wait
# for a process to end.
set -u
set -m # background jobs keep SIGINT (a non-interactive shell ignores it)
bin=${GPUTOP_BIN:?run through tests/run.sh}
lib=${GPUTOP_FAKE_NVML_LIB:?}
scn_dir=${GPUTOP_SCENARIO_DIR:?}
fix=${GPUTOP_FIXTURES:?}
tmp=$(mktemp -d)
# A sysfs root with no device in it, where a test wants no AMD or Intel
# GPU (a --sysfs that does not exist is a usage error).
nosys=$tmp/nosys
mkdir "$nosys"
pids=()
trap 'for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done; pkill -KILL -P $$ 2>/dev/null; rm -rf "$tmp"' EXIT
failures=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# await_exit PID T0_MS TRIES: waits for PID (a child) to end, TRIES times
# 50 ms at most; sets ms (since T0_MS) and rc (its status, or "running"
# when it had to be killed).
await_exit() {
	local p=$1 t0=$2
	rc=""
	for _ in $(seq 1 "$3"); do
		kill -0 "$p" 2>/dev/null || break
		sleep 0.05
	done
	ms=$(($(now_ms) - t0))
	if kill -0 "$p" 2>/dev/null; then
		rc=running
		kill -KILL "$p"
	fi
	wait "$p" 2>/dev/null
	local st=$? # the child's status: read before any other command
	[ "$rc" = running ] || rc=$st
}

# apply_bg SCENARIO ARGS...: `gputop --apply ARGS` in the background on the
# fake NVML with SCENARIO, a fresh state directory $tmp/state, the setter
# log $tmp/setters.log, the config of $tmp/cfg and stderr in $tmp/err;
# sets p (its pid, killed at exit).
apply_bg() {
	local scn=$1
	shift
	rm -rf "$tmp/state" "$tmp/setters.log"
	env XDG_CONFIG_HOME="$tmp/cfg" GPUTOP_FAKE_NVML_SCENARIO="$scn" \
		GPUTOP_FAKE_NVML_LOG="$tmp/setters.log" "$bin" --nvml-lib "$lib" \
		--state-dir "$tmp/state" --procfs "$fix/proc" --sysfs "$nosys" \
		--interval 0.2 --apply "$@" 2>"$tmp/err" &
	p=$!
	pids+=("$p")
}

# leave_state SCENARIO PROFILE: `gputop --apply PROFILE --daemon` on
# SCENARIO until it has applied, then a double death (its guardian and
# gputop killed): what is left is $tmp/state/restore.state, which nothing
# restored.
leave_state() {
	apply_bg "$1" "$2" --daemon
	for _ in $(seq 1 200); do
		grep -q "applied; running" "$tmp/err" && break
		sleep 0.05
	done
	local guard
	guard=$(pgrep -x -P "$p" gputop-guard)
	[ -n "$guard" ] && kill -KILL "$guard"
	sleep 0.2
	kill -KILL "$p"
	wait "$p" 2>/dev/null
}

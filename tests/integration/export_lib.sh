# SPDX-License-Identifier: MIT
# export_lib.sh - sourced by the export tests (export_*.sh): starting
# `gputop serve` on the fake NVML with a port the kernel picks, reading the
# address it prints, waiting for an HTTP status, stopping by pid, and
# skipping (77) when a tool the test needs is missing.
bin=${GPUTOP_BIN:?run through tests/run.sh}
lib=${GPUTOP_FAKE_NVML_LIB:?}
scn_dir=${GPUTOP_SCENARIO_DIR:?}
fix=${GPUTOP_FIXTURES:?}
failures=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pids=()
export_cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null && wait "$p" 2>/dev/null
	done
	rm -rf "$tmp"
}
tmp=$(mktemp -d)
trap export_cleanup EXIT
# A sysfs root with no device in it: no AMD or Intel GPU beside the fake
# NVML ones (a --sysfs that does not exist is a usage error).
nosys=$tmp/nosys
mkdir "$nosys"

# need TOOL...: skips the test (77, a SKIP line) when one is not on PATH.
need() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null || { echo "SKIP: $t is not installed"; exit 77; }
	done
}

gputop() { # the binary on the fake NVML, host facts from the fixtures
	"$bin" --nvml-lib "$lib" --sysfs "$nosys" --procfs "$fix/proc" "$@"
}

# start_serve LOG ARGS...: starts gputop serve in the background ($srv_pid)
# and sets $addr from its "serving http(s)://ADDR/metrics" line.
start_serve() {
	local log=$1 i
	shift
	# A simple command, so $! is gputop's own pid (a function would
	# run in a subshell).
	"$bin" --nvml-lib "$lib" --sysfs "$nosys" --procfs "$fix/proc" \
		serve "$@" 2>"$log" &
	srv_pid=$!
	pids+=("$srv_pid")
	addr=""
	for i in $(seq 100); do
		addr=$(sed -n 's|^gputop: serving https\{0,1\}://\(.*\)/metrics$|\1|p' "$log" 2>/dev/null)
		[ -n "$addr" ] && return 0
		kill -0 "$srv_pid" 2>/dev/null || break
		sleep 0.05
	done
	echo "gputop serve did not start:"
	cat "$log"
	return 1
}

# wait_status URL CODE [TRIES]: polls until URL answers CODE (0.1 s steps).
wait_status() {
	local i
	for i in $(seq "${3:-100}"); do
		[ "$(curl -s -o /dev/null -w '%{http_code}' "$1")" = "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# stop PID: SIGTERM, then its exit status in $stop_rc.
stop() {
	kill -TERM "$1" 2>/dev/null
	wait "$1"
	stop_rc=$?
}

finish() {
	echo "$failures failure(s)"
	[ "$failures" -eq 0 ]
	exit $?
}

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the whole suite for each build directory given (plain, asan, tsan) and
# prints one summary line: "check: N passed, M failed". Exits 1 if any test
# failed. Every cmocka case counts as one test; every stress program and
# script counts as one; a script that exits 77 could not run its checks on
# this machine and counts as skipped.
set -u
cd "$(dirname "$0")/.." || exit 1

passed=0
failed=0
skipped=0
failures=()
fail_lines=() # repeated at the end: CI shows only the last lines
log_dir=$(mktemp -d)
trap 'rm -rf "$log_dir"' EXIT

record() { # name status log
	if [ "$2" -eq 0 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		failures+=("$1")
		echo "---- FAILED: $1"
		# A failing check prints its screen and logs after its FAIL line, so
		# the tail alone can hide which check failed: name them first.
		grep -n '^FAIL' "$3" | head -n 20
		while IFS= read -r line; do
			fail_lines+=("$1: $line")
		done < <(grep '^FAIL' "$3" | head -n 5)
		tail -n 40 "$3"
	fi
}

run_cmocka() { # build binary
	local name="$1/$(basename "$2")" log="$log_dir/out" rc p f
	"$2" >"$log" 2>&1
	rc=$?
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
	k=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
	p=${p:-0}
	f=${f:-0}
	k=${k:-0}
	skipped=$((skipped + k))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1 # crashed before cmocka could count
	fi
	passed=$((passed + p))
	if [ "$f" -gt 0 ]; then
		failed=$((failed + f))
		failures+=("$name")
		echo "---- FAILED: $name"
		while IFS= read -r line; do
			fail_lines+=("$name: $line")
		done < <(grep '^\[  FAILED  \] [a-z]' "$log" | sort -u | head -n 5)
		# The failed assertions' places, which a long sanitizer report
		# after them would push out of the tail.
		grep -E '^\[   LINE   \]|: error: ' "$log" | head -n 10
		tail -n 60 "$log"
	fi
	local skips=""
	if [ "$k" -gt 0 ]; then
		skips=", $k skipped ($(grep '^\[  SKIPPED \] [a-z]' "$log" |
			sed 's/.*\] //' | sort -u | tr '\n' ' ' | sed 's/ $//'))"
	fi
	echo "$name: $p passed, $f failed$skips"
}

run_one() { # name command...
	local name="$1" log="$log_dir/out" rc
	shift
	"$@" >"$log" 2>&1
	rc=$?
	# 77 (the automake convention): the script could not run here and
	# says why on a SKIP line; counted as skipped, never as passed.
	if [ "$rc" -eq 77 ]; then
		skipped=$((skipped + 1))
		echo "$name: SKIPPED ($(grep -m1 '^SKIP' "$log" | sed 's/^SKIP: *//'))"
		return
	fi
	record "$name" "$rc" "$log"
	# A script that passed may still have left checks out (SKIP: lines,
	# an optional tool or a port taken): they are counted as skipped and
	# named, so that a check not run never hides inside an "ok".
	local k=0
	[ "$rc" -eq 0 ] && k=$(grep -c '^SKIP' "$log")
	skipped=$((skipped + k))
	if [ "$k" -gt 0 ]; then
		echo "$name: ok, $k check(s) skipped ($(grep '^SKIP' "$log" |
			sed 's/^SKIP: *//' | head -n 3 | paste -sd ';'))"
	else
		echo "$name: $([ $rc -eq 0 ] && echo ok || echo FAILED)"
	fi
	reap_orphans "$name"
}

# gputop processes of this build that a script left behind with no parent
# (init adopted them): an ASan build's leak check at exit can wait for ever
# when a hang-up orphans its process group (the group's SIGCONT cancels the
# ptrace stop it waits for). Killed here, and said, so that they do not
# spin through the rest of the run.
reap_orphans() { # name
	local pid n=0
	for pid in $(ps -eo pid=,ppid=,args= | awk -v b="$GPUTOP_BIN" \
		'$2 == 1 && index($3, b) == 1 { print $1 }'); do
		kill -9 "$pid" 2>/dev/null && n=$((n + 1))
	done
	[ "$n" -gt 0 ] && echo "$1: note: killed $n gputop process(es) left behind with no parent"
	return 0
}

# expect_built BUILD FILE...: each FILE (relative to BUILD) is an
# executable there, or the build is incomplete: a failure, not a run
# that found nothing to test and passed.
expect_built() {
	local build=$1 f missing=""
	shift
	for f in "$@"; do
		[ -x "$build/$f" ] || missing="$missing $f"
	done
	[ -z "$missing" ] && return 0
	echo "FAIL: not built:$missing (make BUILD=$build tests first)" \
		>"$log_dir/out"
	record "$build/build" 1 "$log_dir/out"
	return 1
}

for build in "$@"; do
	if [[ $build == *tsan* ]]; then
		expect_built "$build" tests/stress_ring tests/stress_collector
	else
		expect_built "$build" gputop fake-nvml/libnvidia-ml.so.1 \
			tests/stress_ring tests/stress_collector $(
				for f in tests/unit/test_*.c tests/unit/*/test_*.c \
					tests/integration/test_*.c; do
					[ -e "$f" ] && echo "tests/$(basename "${f%.c}")"
				done) ||
			[ -x "$build/gputop" ] || continue # nothing to run the scripts on
	fi
	export GPUTOP_BIN="$PWD/$build/gputop"
	export GPUTOP_FAKE_NVML_LIB="$PWD/$build/fake-nvml/libnvidia-ml.so.1"
	export GPUTOP_SCENARIO_DIR="$PWD/tests/fake-nvml/scenarios"
	export GPUTOP_FIXTURES="$PWD/tests/fixtures"
	case "$build" in
	*tsan*)
		export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1"
		for t in "$build"/tests/stress_*; do
			[ -x "$t" ] && run_one "$build/$(basename "$t")" "$t"
		done
		continue
		;;
	*asan*)
		export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
		export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
		;;
	esac
	for t in "$build"/tests/test_*; do
		case "$t" in *.d) continue ;; esac
		[ -x "$t" ] && run_cmocka "$build" "$t"
	done
	for t in "$build"/tests/stress_*; do
		case "$t" in *.d) continue ;; esac
		[ -x "$t" ] && run_one "$build/$(basename "$t")" "$t"
	done
	if [ -x tests/fake-nvml/check-exports.sh ] && [ "$build" = build ]; then
		run_one "$build/check-exports" tests/fake-nvml/check-exports.sh \
			"$GPUTOP_FAKE_NVML_LIB" tests/fixtures/nvidia
	fi
	for t in tests/integration/*.sh tests/terminal/*.sh; do
		[ -x "$t" ] && run_one "$build/$(basename "$t")" "$t"
	done
done

echo
if [ "$failed" -gt 0 ]; then
	printf 'failed: %s\n' "${failures[@]}"
	[ "${#fail_lines[@]}" -gt 0 ] && printf '  %s\n' "${fail_lines[@]}"
fi
echo "check: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]

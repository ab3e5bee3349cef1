#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/fuzz/run.sh - runs the libFuzzer harnesses: every BUILD/fuzz_NAME
# for SECONDS on tests/fuzz/corpus/NAME. New inputs go to
# BUILD/scratch/NAME (never into the tree), crashes, leaks and hangs to
# BUILD/crashes/NAME-*, each run's log to BUILD/logs/NAME.log. Prints one
# line per harness (executions, coverage, features) and, for a failure,
# the reproducer's path and how to replay it; exits 1 if any failed.
#
#   tests/fuzz/run.sh BUILD SECONDS      (FUZZ_ONLY=name,name runs those)
set -u
build=${1:?usage: run.sh BUILD SECONDS}
secs=${2:?usage: run.sh BUILD SECONDS}
cd "$(dirname "$0")/../.." || exit 1
mkdir -p "$build/scratch" "$build/crashes" "$build/logs"
fail=0 ran=0
for bin in "$build"/fuzz_*; do
	[ -f "$bin" ] && [ -x "$bin" ] || continue
	name=${bin##*/fuzz_}
	if [ -n "${FUZZ_ONLY:-}" ]; then
		case ",$FUZZ_ONLY," in *",$name,"*) ;; *) continue ;; esac
	fi
	corpus=tests/fuzz/corpus/$name
	[ -d "$corpus" ] || { echo "fuzz_$name: no corpus $corpus" >&2; fail=1; continue; }
	mkdir -p "$build/scratch/$name"
	log=$build/logs/$name.log
	ran=$((ran + 1))
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$build/crashes/$name-" \
		"$build/scratch/$name" "$corpus" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
	ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
	if [ "$rc" -ne 0 ]; then
		fail=1
		repro=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
		echo "FAIL fuzz_$name (exit $rc): reproducer: ${repro:-none written}"
		echo "     replay: $bin ${repro:-}   log: $log"
		grep -m3 -E 'ERROR: |invariant failed|SUMMARY' "$log" | sed 's/^/     /'
	else
		echo "ok   fuzz_$name: ${execs:-?} execs in ${secs}s, cov ${cov:-?}, ft ${ft:-?}"
	fi
done
if [ "$ran" -eq 0 ]; then
	echo "fuzz: no harness in $build" >&2
	exit 1
fi
exit $fail

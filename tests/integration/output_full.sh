#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Output that cannot be written is an error said on stderr, never a quiet
# status: --list, --snapshot and --json with stdout on /dev/full (every
# write fails with ENOSPC) each exit 1 naming the cause.
set -u
bin=${GPUTOP_BIN:?run through tests/run.sh}
lib=${GPUTOP_FAKE_NVML_LIB:?}
scn_dir=${GPUTOP_SCENARIO_DIR:?}
failures=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
[ -w /dev/full ] || { echo "SKIP: no writable /dev/full here"; exit 77; }
export GPUTOP_FAKE_NVML_SCENARIO=$scn_dir/h100x1.scn
# an empty sysfs root: no AMD or Intel GPU (a missing one is a usage error)
nosys=$(mktemp -d)
trap 'rmdir "$nosys"' EXIT

for mode in "--list" "--snapshot" "--json --count 1"; do
	# shellcheck disable=SC2086 # the mode's words are separate arguments
	err=$(timeout 20 "$bin" $mode --interval 0.1 --nvml-lib "$lib" \
		--sysfs "$nosys" 2>&1 >/dev/full)
	rc=$?
	if [ "$rc" = 1 ] && grep -q "No space left on device" <<<"$err"; then
		pass "$mode to /dev/full: status 1, '$err'"
	else
		fail "$mode to /dev/full: status $rc, stderr '$err'"
	fi
done
[ "$failures" -eq 0 ]

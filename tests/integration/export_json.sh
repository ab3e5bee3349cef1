#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# --json and --textfile on the fake 8x H100: --json --count 3 gives three
# whole snapshot lines; a reader that closes early and SIGINT both end it
# with status 0 and no partial line; --textfile writes gputop.prom whole
# (no temporary left, mode 0644, promtool-clean) and refuses a missing
# directory with a message naming the fix.
set -u
. "$(dirname "$0")/export_lib.sh"
need python3
export GPUTOP_FAKE_NVML_SCENARIO=$scn_dir/h100x8.scn

# lines_ok FILE N: FILE is N lines, each a snapshot of 8 GPUs, ending in \n.
lines_ok() {
	python3 - "$1" "$2" <<'PY'
import json, sys
data = open(sys.argv[1], "rb").read()
assert data.endswith(b"\n"), "partial last line"
lines = data.decode().split("\n")[:-1]
n = int(sys.argv[2])
assert (len(lines) == n) if n >= 0 else len(lines) >= 1, len(lines)
for l in lines:
    d = json.loads(l)
    assert d["schema"] == "gputop.snapshot" and len(d["devices"]) == 8
    # rates are there from the first line on
    assert d["devices"][0]["pcie"]["tx_bytes_per_second"] is not None
print(len(lines), "lines")
PY
}

start=$(date +%s.%N)
gputop --json --count 3 --interval 0.2 >"$tmp/three.ndjson"
rc=$?
took=$(python3 -c "import time; print(round(time.time() - $start, 2))")
if [ $rc = 0 ] && out=$(lines_ok "$tmp/three.ndjson" 3); then
	pass "--json --count 3: $out in ${took} s, each a whole snapshot"
else
	fail "--json --count 3: rc=$rc $out"
fi

# The reader goes away after one line: EPIPE ends it, status 0.
gputop --json --interval 0.1 2>"$tmp/pipe.err" | head -n 1 >"$tmp/one.ndjson"
rc=${PIPESTATUS[0]}
if [ "$rc" = 0 ] && [ ! -s "$tmp/pipe.err" ] && out=$(lines_ok "$tmp/one.ndjson" 1); then
	pass "a reader that closes after one line: status 0, nothing on stderr"
else
	fail "closed pipe: rc=$rc $(cat "$tmp/pipe.err")"
fi

# SIGINT while running: status 0 and only whole lines.
"$bin" --nvml-lib "$lib" --sysfs "$nosys" --procfs "$fix/proc" \
	--json --interval 0.1 >"$tmp/int.ndjson" &
jpid=$!
pids+=("$jpid")
sleep 1.5
kill -INT "$jpid"
wait "$jpid"
rc=$?
if [ $rc = 0 ] && out=$(lines_ok "$tmp/int.ndjson" -1); then
	pass "SIGINT: status 0, $out, all whole"
else
	fail "SIGINT: rc=$rc $out"
fi

# --textfile
mkdir "$tmp/tf"
gputop --textfile "$tmp/tf" --count 2 --interval 0.2 --metrics-processes 2
rc=$?
files=$(ls -A "$tmp/tf")
mode=$(stat -c %a "$tmp/tf/gputop.prom" 2>/dev/null)
if [ $rc = 0 ] && [ "$files" = gputop.prom ] && [ "$mode" = 644 ] &&
	grep -q '^gputop_gpu_power_watts{gpu="7",uuid="GPU-5d0e7a31-2c4b-4f6a-9e80-1b2c3d4e5f07",vendor="nvidia"} 637.5$' "$tmp/tf/gputop.prom" &&
	grep -q '^gputop_process_gpu_memory_bytes{gpu="0",.*pid="4100",comm="python3"}' "$tmp/tf/gputop.prom" &&
	! grep -q gputop_scrapes_total "$tmp/tf/gputop.prom"; then
	pass "--textfile: gputop.prom alone in the directory, mode 644, with the scenario's values"
else
	fail "--textfile: rc=$rc files='$files' mode=$mode"
fi
if command -v promtool >/dev/null; then
	out=$(promtool check metrics <"$tmp/tf/gputop.prom" 2>&1) &&
		pass "promtool check metrics on the textfile: no problem" ||
		fail "promtool: $out"
else
	echo "SKIP: promtool is not installed: the textfile was not linted"
fi
out=$(gputop --textfile "$tmp/missing" --count 1 2>&1)
rc=$?
[ $rc = 1 ] && grep -q "give an existing directory" <<<"$out" &&
	pass "--textfile of a missing directory: status 1, '$out'" ||
	fail "missing directory: rc=$rc $out"
finish

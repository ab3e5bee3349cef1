#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The hardware comparison tool (tests/hw/smicmp) against the fake NVML:
# a snapshot of two H100s agrees with a hand-written nvidia-smi -q -x of
# the same two GPUs field by field; each kind of disagreement (a changed
# static value, a moving value outside both captures, a GPU missing on
# one side, an older driver's element names, bad input) is caught.
set -u
bin=${GPUTOP_BIN:?run through tests/run.sh}
lib=${GPUTOP_FAKE_NVML_LIB:?}
scn_dir=${GPUTOP_SCENARIO_DIR:?}
fix=${GPUTOP_FIXTURES:?}
cmp=$(dirname "$bin")/smicmp
xml=$fix/nvidia/h100x2-synthetic.nvidia-smi-q-x.xml
[ -x "$cmp" ] || { echo "FAIL: $cmp is not built (make tests builds it)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# an empty sysfs root: no AMD or Intel GPU (a missing one is a usage error)
nosys=$tmp/nosys
mkdir "$nosys"
failures=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; printf '%s\n' "---- smicmp said:" "$out"; failures=$((failures + 1)); }

# The first two GPUs of the 8x H100 machine: the fixture describes these.
sed '/^device 2 like 0/,$d' "$scn_dir/h100x8.scn" >"$tmp/two.scn"
GPUTOP_FAKE_NVML_SCENARIO=$tmp/two.scn "$bin" --nvml-lib "$lib" \
	--sysfs "$nosys" --procfs "$fix/proc" --snapshot >"$tmp/snap.json" ||
	{ echo "FAIL: no snapshot"; exit 1; }

# verdict LABEL WORD: the line for LABEL of the first GPU says WORD.
verdict() { grep -m1 "^  $1  " <<<"$out" | grep -q "$2"; }

out=$("$cmp" "$tmp/snap.json" "$xml" 2>&1)
rc=$?
if [ $rc = 0 ] && grep -q "2 GPU(s) paired; 85 match, 0 differ, 4 shown without comparing, 0 only nvidia-smi, 2 only gputop" <<<"$out" &&
	verdict "memory total MiB" match && verdict "slowdown temp C" "87 C (T.Limit) *match" &&
	verdict "memory max temp C" "both N/A" && verdict "power draw W" match && verdict processes match; then
	pass "the snapshot agrees with the capture of the same GPUs"
else
	fail "agreeing captures: rc=$rc"
fi

# A static value changed: the power limit of GPU 0 and the name of GPU 1.
sed -e '0,/<current_power_limit>700.00 W/s//<current_power_limit>650.00 W/' \
	-e '/2A:00.0/,$s/<product_name>NVIDIA H100 80GB HBM3/<product_name>NVIDIA H200/' \
	"$xml" >"$tmp/changed.xml"
out=$("$cmp" "$tmp/snap.json" "$tmp/changed.xml" 2>&1)
rc=$?
if [ $rc = 1 ] && grep -q ", 2 differ," <<<"$out" &&
	grep -Eq "power limit W +700 +650.00 W +DIFFER$" <<<"$out" &&
	grep -Eq "name +NVIDIA H100 80GB HBM3 +NVIDIA H200 +DIFFER$" <<<"$out"; then
	pass "a changed power limit and a changed name are each reported"
else
	fail "changed static values: rc=$rc"
fi

# Moving values: between a capture before and one after it matches (the
# temperature was 38 then 44, gputop saw 40); outside both, widened by the
# tolerance (45 then 47, 3 C), it does not.
temps() { # BEFORE AFTER: GPU 0's temperature in the two captures
	sed "0,/<gpu_temp>40 C/s//<gpu_temp>$1 C/" "$xml" >"$tmp/before.xml"
	sed "0,/<gpu_temp>40 C/s//<gpu_temp>$2 C/" "$xml" >"$tmp/after.xml"
	out=$("$cmp" "$tmp/snap.json" "$tmp/before.xml" "$tmp/after.xml" 2>&1)
}
temps 38 44
rc=$?
[ $rc = 0 ] && verdict "GPU temp C" "38 C .. 44 C *match" &&
	pass "a moving value between the two captures matches" ||
	fail "bracketed temperature: rc=$rc"
temps 45 47
rc=$?
[ $rc = 1 ] && verdict "GPU temp C" "DIFFER (a moving value)" &&
	pass "a moving value outside both captures is reported" ||
	fail "temperature outside the captures: rc=$rc"

# T.Limit thresholds, worked out as gpu_temp + margin - offset: where the
# two captures' sums agree (40+45, then 42+43) they are compared, and a
# threshold that is not the snapshot's fails; where the sums moved apart
# (under load the margin follows a hotter sensor) they are shown only.
tlimits() { # TEMP MARGIN of the first capture, then of the second
	sed -e "0,/<gpu_temp>40 C/s//<gpu_temp>$1 C/" \
		-e "0,/<gpu_temp_tlimit>45 C/s//<gpu_temp_tlimit>$2 C/" "$xml" >"$tmp/before.xml"
	sed -e "0,/<gpu_temp>40 C/s//<gpu_temp>$3 C/" \
		-e "0,/<gpu_temp_tlimit>45 C/s//<gpu_temp_tlimit>$4 C/" "$xml" >"$tmp/after.xml"
	out=$("$cmp" "$tmp/snap.json" "$tmp/before.xml" "$tmp/after.xml" 2>&1)
}
tlimits 40 45 42 43
rc=$?
[ $rc = 0 ] && verdict "slowdown temp C" "87 C (T.Limit) *match" &&
	pass "T.Limit thresholds whose sum stayed are compared" ||
	fail "steady T.Limit sum: rc=$rc"
tlimits 40 40 42 38
rc=$?
[ $rc = 1 ] && verdict "slowdown temp C" "82 C (T.Limit) *DIFFER$" &&
	pass "a T.Limit threshold that is not the snapshot's is reported" ||
	fail "wrong T.Limit threshold: rc=$rc"
tlimits 40 45 41 40
rc=$?
[ $rc = 0 ] && verdict "slowdown temp C" "87 C (T.Limit) .. 83 C (T.Limit) *shown (not compared: the T.Limit sum moved)" &&
	pass "T.Limit thresholds whose sum moved are shown, not compared" ||
	fail "moving T.Limit sum: rc=$rc"

# A process nvidia-smi lists that gputop lacks.
sed '0,/<pid>5000</s//<pid>5001</' "$xml" >"$tmp/procs.xml"
out=$("$cmp" "$tmp/snap.json" "$tmp/procs.xml" 2>&1)
rc=$?
[ $rc = 1 ] && verdict processes "1 of them + 1 .*DIFFER" &&
	pass "a process on one side only is reported" || fail "processes: rc=$rc"

# A GPU on one side only: the snapshot of all eight against two.
GPUTOP_FAKE_NVML_SCENARIO=$scn_dir/h100x8.scn "$bin" --nvml-lib "$lib" \
	--sysfs "$nosys" --procfs "$fix/proc" --snapshot >"$tmp/snap8.json"
out=$("$cmp" "$tmp/snap8.json" "$xml" 2>&1)
rc=$?
[ $rc = 1 ] && [ "$(grep -c "in gputop's snapshot, not in nvidia-smi's output: DIFFER" <<<"$out")" = 6 ] &&
	pass "GPUs nvidia-smi does not list are reported" || fail "8 against 2: rc=$rc"

# An older driver's names (power_readings/power_draw, clocks_throttle_
# reasons) and absolute temperature thresholds instead of T.Limit ones.
sed -e 's/gpu_power_readings>/power_readings>/g' \
	-e 's/average_power_draw>/power_draw>/g' \
	-e 's/clocks_event_reason/clocks_throttle_reason/g' \
	-e 's/_tlimit_threshold>-2 C</_threshold>87 C</; s/gpu_temp_slow_tlimit_threshold>/gpu_temp_slow_threshold>/g' \
	-e '0,/<clocks_throttle_reason_sw_power_cap>Not Active/s//<clocks_throttle_reason_sw_power_cap>Active/' \
	"$xml" >"$tmp/old.xml"
out=$("$cmp" "$tmp/snap.json" "$tmp/old.xml" 2>&1)
rc=$?
if verdict "power draw W" "620.00 W *match" && verdict "slowdown temp C" "87 C  *match" &&
	verdict "throttle reasons" "none  *power_cap  *DIFFER" && [ $rc = 1 ]; then
	pass "an older driver's element names are read"
else
	fail "older names: rc=$rc"
fi

# A real pair: an H100 under load (driver 580) and gputop's snapshot taken
# between the two nvidia-smi captures (tests/fixtures/nvidia/README.md).
real=$fix/nvidia/h100-580-load
out=$("$cmp" "$real/snapshot.json" "$real/smi-before.xml" "$real/smi-after.xml" 2>&1)
rc=$?
if [ $rc = 0 ] && grep -q "1 GPU(s) paired; 43 match, 0 differ" <<<"$out" &&
	verdict "GPU util %" match && verdict "throttle reasons" "power_cap  *power_cap  *match" &&
	verdict "GPU max temp C" "87 C (T.Limit) *match" && verdict processes match; then
	pass "a real H100's capture agrees with gputop's snapshot"
else
	fail "real H100 pair: rc=$rc"
fi

# Bad input: a cut-off capture, no GPU, not a snapshot, a missing file.
head -c 3000 "$xml" >"$tmp/cut.xml"
out=$("$cmp" "$tmp/snap.json" "$tmp/cut.xml" 2>&1)
rc=$?
[ $rc = 2 ] && grep -q "malformed XML.*nvidia-smi -q -x" <<<"$out" &&
	pass "a cut-off capture is refused with the reason" || fail "cut-off XML: rc=$rc"
printf '<nvidia_smi_log></nvidia_smi_log>\n' >"$tmp/empty.xml"
out=$("$cmp" "$tmp/snap.json" "$tmp/empty.xml" 2>&1)
rc=$?
[ $rc = 2 ] && grep -q "no <gpu> element" <<<"$out" &&
	pass "a capture without GPUs is refused" || fail "no GPUs: rc=$rc"
# The smallest document: <gpu> as the very first byte (its id attribute is
# read there; under ASan a read before the buffer fails this).
printf '<gpu id="00000000:18:00.0"><product_name>NVIDIA H100 80GB HBM3</product_name></gpu>' >"$tmp/min.xml"
out=$("$cmp" "$tmp/snap.json" "$tmp/min.xml" 2>&1)
rc=$?
[ $rc = 1 ] && grep -q "^summary: 1 GPU(s) paired" <<<"$out" && verdict name match &&
	pass "a capture of one element per GPU is read" || fail "minimal capture: rc=$rc"
out=$("$cmp" "$xml" "$xml" 2>&1)
rc=$?
[ $rc = 2 ] && grep -q "not a gputop snapshot" <<<"$out" &&
	pass "a file that is not a snapshot is refused" || fail "not a snapshot: rc=$rc"
out=$("$cmp" "$tmp/snap.json" "$tmp/nonexistent.xml" 2>&1)
rc=$?
[ $rc = 2 ] && grep -q "nonexistent.xml: No such file" <<<"$out" &&
	pass "a missing file is named" || fail "missing file: rc=$rc"

[ "$failures" = 0 ] || echo "smicmp.sh: $failures failure(s)"
exit $((failures > 0))

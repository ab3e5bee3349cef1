#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check-exports.sh - checks the export list of the fake libnvidia-ml.so.1
# against the real driver's (shared/reference/nvml.md §2.4):
#   * every nvml* function the fake exports exists in the real 610.57.04
#     library (a fake must not invent names a client could latch onto);
#   * every name nvtop and btop resolve, and gputop's own minimum set, is
#     exported (a missing one silently disables NVIDIA support in them);
#   * nvmlDeviceGetConfComputeMemSizeInfo is not exported (nvitop would
#     then assume 32-byte process entries).
# Usage: check-exports.sh path/to/libnvidia-ml.so.1 path/to/tests/fixtures/nvidia
# Prints PASS:/FAIL: lines; exits non-zero on any failure.
set -u

lib=${1:-}
fixtures=${2:-}
if [[ -z $lib || -z $fixtures ]]; then
	echo "usage: $0 LIB.so FIXTURES_DIR" >&2
	exit 2
fi
real=$fixtures/libnvidia-ml.so.1-symbols.610.57.04.txt
for f in "$lib" "$real"; do
	if [[ ! -r $f ]]; then
		echo "FAIL: cannot read $f"
		exit 1
	fi
done

if ! exports=$(nm -D --defined-only "$lib" | awk '$2 == "T" && $3 ~ /^nvml/ { print $3 }' | sort -u); then
	echo "FAIL: nm -D could not read $lib"
	exit 1
fi
if [[ -z $exports ]]; then
	echo "FAIL: $lib exports no nvml* function"
	exit 1
fi

failures=0
fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# 1. Nothing the real library lacks.
unknown=$(comm -23 <(printf '%s\n' "$exports") <(grep -v '^#' "$real" | sed 's/[[:space:]]//g' | grep . | sort -u))
if [[ -n $unknown ]]; then
	while read -r name; do
		fail "exported $name is not in the real 610.57.04 library"
	done <<<"$unknown"
else
	echo "PASS: all $(wc -l <<<"$exports") exported nvml* functions exist in the real 610.57.04 library"
fi

# Checks that every name of a client's list is exported.
require() {
	local who=$1
	shift
	local missing=0
	for name in "$@"; do
		if ! grep -qx -- "$name" <<<"$exports"; then
			fail "$who needs $name, which is not exported"
			missing=$((missing + 1))
		fi
	done
	if ((missing == 0)); then
		echo "PASS: all $# names $who resolves are exported"
	fi
}

# 2. nvtop's 40 names (nvml.md §2.1), fallbacks included.
require nvtop \
	nvmlInit_v2 nvmlInit nvmlShutdown nvmlDeviceGetCount_v2 nvmlDeviceGetCount \
	nvmlDeviceGetHandleByIndex_v2 nvmlDeviceGetHandleByIndex nvmlErrorString \
	nvmlDeviceGetName nvmlDeviceGetPciInfo_v3 nvmlDeviceGetPciInfo_v2 \
	nvmlDeviceGetPciInfo nvmlDeviceGetMaxPcieLinkGeneration \
	nvmlDeviceGetMaxPcieLinkWidth nvmlDeviceGetTemperatureThreshold \
	nvmlDeviceGetClockInfo nvmlDeviceGetMaxClockInfo \
	nvmlDeviceGetUtilizationRates nvmlDeviceGetMemoryInfo_v2 \
	nvmlDeviceGetMemoryInfo nvmlDeviceGetCurrPcieLinkGeneration \
	nvmlDeviceGetCurrPcieLinkWidth nvmlDeviceGetPcieThroughput \
	nvmlDeviceGetFanSpeed nvmlDeviceGetTemperature nvmlDeviceGetPowerUsage \
	nvmlDeviceGetEnforcedPowerLimit nvmlDeviceGetEncoderUtilization \
	nvmlDeviceGetDecoderUtilization \
	nvmlDeviceGetGraphicsRunningProcesses_v3 \
	nvmlDeviceGetGraphicsRunningProcesses_v2 \
	nvmlDeviceGetGraphicsRunningProcesses \
	nvmlDeviceGetComputeRunningProcesses_v3 \
	nvmlDeviceGetComputeRunningProcesses_v2 \
	nvmlDeviceGetComputeRunningProcesses \
	nvmlDeviceGetMPSComputeRunningProcesses_v3 \
	nvmlDeviceGetMPSComputeRunningProcesses_v2 \
	nvmlDeviceGetMPSComputeRunningProcesses \
	nvmlDeviceGetProcessUtilization nvmlDeviceGetMigMode

# 3. btop's 17 required names (nvml.md §2.2).
require btop \
	nvmlErrorString nvmlInit nvmlShutdown nvmlDeviceGetCount \
	nvmlDeviceGetHandleByIndex nvmlDeviceGetName \
	nvmlDeviceGetPowerManagementLimit nvmlDeviceGetTemperatureThreshold \
	nvmlDeviceGetUtilizationRates nvmlDeviceGetClockInfo \
	nvmlDeviceGetPowerUsage nvmlDeviceGetPowerState nvmlDeviceGetTemperature \
	nvmlDeviceGetMemoryInfo nvmlDeviceGetPcieThroughput \
	nvmlDeviceGetEncoderUtilization nvmlDeviceGetDecoderUtilization

# 4. The rest of the §2.4 minimum set (gputop's own needs, nvitop, GWE).
require "the nvml.md §2.4 set" \
	nvmlInitWithFlags nvmlDeviceGetHandleByUUID nvmlDeviceGetHandleByPciBusId_v2 \
	nvmlDeviceGetIndex nvmlDeviceGetMinorNumber nvmlDeviceGetUUID \
	nvmlDeviceGetSerial nvmlDeviceGetBrand nvmlDeviceGetArchitecture \
	nvmlDeviceGetCudaComputeCapability nvmlDeviceGetVbiosVersion \
	nvmlSystemGetDriverVersion nvmlSystemGetNVMLVersion \
	nvmlSystemGetCudaDriverVersion nvmlSystemGetCudaDriverVersion_v2 \
	nvmlSystemGetProcessName nvmlDeviceGetPerformanceState \
	nvmlDeviceGetTemperatureV nvmlDeviceGetBAR1MemoryInfo \
	nvmlDeviceGetNumFans nvmlDeviceGetFanSpeed_v2 nvmlDeviceGetFanSpeedRPM \
	nvmlDeviceGetTargetFanSpeed nvmlDeviceGetMinMaxFanSpeed \
	nvmlDeviceGetFanControlPolicy_v2 nvmlDeviceSetFanControlPolicy \
	nvmlDeviceSetFanSpeed_v2 nvmlDeviceSetDefaultFanSpeed_v2 \
	nvmlDeviceGetCoolerInfo nvmlDeviceGetTotalEnergyConsumption \
	nvmlDeviceGetPowerManagementDefaultLimit \
	nvmlDeviceGetPowerManagementLimitConstraints \
	nvmlDeviceSetPowerManagementLimit nvmlDeviceSetPowerManagementLimit_v2 \
	nvmlDeviceGetPowerSource nvmlDeviceGetCurrentClocksEventReasons \
	nvmlDeviceGetCurrentClocksThrottleReasons \
	nvmlDeviceGetSupportedClocksEventReasons \
	nvmlDeviceGetGpuMaxPcieLinkGeneration nvmlDeviceGetPcieReplayCounter \
	nvmlDeviceGetEccMode nvmlDeviceGetTotalEccErrors \
	nvmlDeviceGetPersistenceMode nvmlDeviceGetComputeMode \
	nvmlDeviceIsMigDeviceHandle nvmlDeviceGetMaxMigDeviceCount \
	nvmlDeviceGetMigDeviceHandleByIndex \
	nvmlDeviceGetDeviceHandleFromMigDeviceHandle nvmlDeviceGetGpuInstanceId \
	nvmlDeviceGetComputeInstanceId nvmlDeviceGetDisplayActive \
	nvmlDeviceGetRunningProcessDetailList nvmlDeviceGetFieldValues \
	nvmlDeviceGetSamples nvmlDeviceGetAccountingMode \
	nvmlDeviceGetAccountingPids nvmlDeviceGetAccountingStats \
	nvmlDeviceGetAccountingBufferSize nvmlDeviceGetApplicationsClock \
	nvmlDeviceGetDefaultApplicationsClock

# 5. The export that would make nvitop misread _v3 process entries.
if grep -qx nvmlDeviceGetConfComputeMemSizeInfo <<<"$exports"; then
	fail "nvmlDeviceGetConfComputeMemSizeInfo is exported"
else
	echo "PASS: nvmlDeviceGetConfComputeMemSizeInfo is not exported"
fi

if ((failures > 0)); then
	echo "FAIL: $failures check(s) failed for $lib"
	exit 1
fi
echo "PASS: export list of $lib"
exit 0

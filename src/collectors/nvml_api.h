/* SPDX-License-Identifier: MIT */
/*
 * nvml_api.h - the NVML entry points gputop resolves at run time with
 * dlopen/dlsym, and the pure decoders shared by the NVIDIA backend and its
 * unit tests. No NVIDIA header or library is needed to build.
 */
#ifndef GPUTOP_NVML_API_H
#define GPUTOP_NVML_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/model.h"
#include "collectors/nvml_abi.h"

#define NVML_FN(name) __typeof__(name) *

/* Resolved entry points; NULL where the library lacks the symbol. Where two
 * names are listed in nvml_api.c, the first found wins (newest first). */
struct gt_nvml_api {
	void *dl;
	NVML_FN(nvmlInit_v2) init;
	NVML_FN(nvmlShutdown) shutdown;
	NVML_FN(nvmlErrorString) error_string;
	NVML_FN(nvmlSystemGetDriverVersion) driver_version;
	NVML_FN(nvmlSystemGetNVMLVersion) nvml_version;
	NVML_FN(nvmlSystemGetCudaDriverVersion) cuda_version;
	NVML_FN(nvmlDeviceGetCount_v2) count;
	NVML_FN(nvmlDeviceGetHandleByIndex_v2) handle_by_index;
	NVML_FN(nvmlDeviceGetName) name;
	NVML_FN(nvmlDeviceGetUUID) uuid;
	NVML_FN(nvmlDeviceGetSerial) serial;
	NVML_FN(nvmlDeviceGetPciInfo_v3) pci_info;
	NVML_FN(nvmlDeviceGetArchitecture) architecture;
	NVML_FN(nvmlDeviceGetCudaComputeCapability) compute_capability;
	NVML_FN(nvmlDeviceGetVbiosVersion) vbios;
	NVML_FN(nvmlDeviceGetUtilizationRates) utilization;
	NVML_FN(nvmlDeviceGetEncoderUtilization) encoder;
	NVML_FN(nvmlDeviceGetDecoderUtilization) decoder;
	NVML_FN(nvmlDeviceGetMemoryInfo_v2) memory_v2;
	NVML_FN(nvmlDeviceGetMemoryInfo) memory_v1;
	NVML_FN(nvmlDeviceGetBAR1MemoryInfo) bar1;
	NVML_FN(nvmlDeviceGetTemperatureV) temperature_v;
	NVML_FN(nvmlDeviceGetTemperature) temperature;
	NVML_FN(nvmlDeviceGetTemperatureThreshold) threshold;
	NVML_FN(nvmlDeviceGetMarginTemperature) margin;
	NVML_FN(nvmlDeviceGetNumFans) num_fans;
	NVML_FN(nvmlDeviceGetFanSpeed_v2) fan_speed_v2;
	NVML_FN(nvmlDeviceGetFanSpeed) fan_speed;
	NVML_FN(nvmlDeviceGetFanSpeedRPM) fan_rpm;
	NVML_FN(nvmlDeviceGetMinMaxFanSpeed) fan_min_max;
	NVML_FN(nvmlDeviceGetPowerUsage) power_usage;
	NVML_FN(nvmlDeviceGetTotalEnergyConsumption) energy;
	NVML_FN(nvmlDeviceGetPowerManagementLimit) power_limit;
	NVML_FN(nvmlDeviceGetPowerManagementDefaultLimit) power_default;
	NVML_FN(nvmlDeviceGetPowerManagementLimitConstraints) power_range;
	NVML_FN(nvmlDeviceGetEnforcedPowerLimit) power_enforced;
	NVML_FN(nvmlDeviceGetPerformanceState) pstate;
	NVML_FN(nvmlDeviceGetClockInfo) clock;
	NVML_FN(nvmlDeviceGetMaxClockInfo) max_clock;
	NVML_FN(nvmlDeviceGetCurrentClocksEventReasons) clock_events;
	NVML_FN(nvmlDeviceGetCurrPcieLinkGeneration) pcie_gen;
	NVML_FN(nvmlDeviceGetCurrPcieLinkWidth) pcie_width;
	NVML_FN(nvmlDeviceGetMaxPcieLinkGeneration) pcie_max_gen;
	NVML_FN(nvmlDeviceGetMaxPcieLinkWidth) pcie_max_width;
	NVML_FN(nvmlDeviceGetPcieThroughput) pcie_throughput;
	NVML_FN(nvmlDeviceGetEccMode) ecc_mode;
	NVML_FN(nvmlDeviceGetTotalEccErrors) ecc_errors;
	NVML_FN(nvmlDeviceGetMigMode) mig_mode;
	NVML_FN(nvmlSystemGetProcessName) process_name;
	NVML_FN(nvmlDeviceGetMaxMigDeviceCount) mig_max;
	NVML_FN(nvmlDeviceGetMigDeviceHandleByIndex) mig_handle;
	NVML_FN(nvmlDeviceGetGpuInstanceId) mig_gi;
	NVML_FN(nvmlDeviceGetComputeInstanceId) mig_ci;
	NVML_FN(nvmlDeviceGetGpuInstanceById) gi_by_id;
	NVML_FN(nvmlGpuInstanceGetInfo) gi_info;
	NVML_FN(nvmlDeviceGetFieldValues) field_values;
	NVML_FN(nvmlDeviceGetProcessUtilization) process_utilization;
	/* Process lists: entry size depends on which symbol was found. */
	NVML_FN(nvmlDeviceGetComputeRunningProcesses_v3) compute_procs;
	NVML_FN(nvmlDeviceGetGraphicsRunningProcesses_v3) graphics_procs;
	NVML_FN(nvmlDeviceGetMPSComputeRunningProcesses_v3) mps_procs;
	NVML_FN(nvmlDeviceGetComputeRunningProcesses) compute_procs_v1;
	NVML_FN(nvmlDeviceGetGraphicsRunningProcesses) graphics_procs_v1;
	NVML_FN(nvmlDeviceGetMPSComputeRunningProcesses) mps_procs_v1;
	NVML_FN(nvmlDeviceGetPciInfo) pci_info_v1;
	/* Setters (control/control_nvml.c); they need root. */
	NVML_FN(nvmlDeviceSetPowerManagementLimit_v2) set_power_limit_v2;
	NVML_FN(nvmlDeviceSetPowerManagementLimit) set_power_limit;
	NVML_FN(nvmlDeviceSetFanSpeed_v2) set_fan_speed;
	NVML_FN(nvmlDeviceSetDefaultFanSpeed_v2) set_default_fan_speed;
};

/* Loads path (NULL = libnvidia-ml.so.1) and resolves the table. On failure
 * returns -1 and writes a reason a user can act on into why. */
int gt_nvml_api_load(struct gt_nvml_api *api, const char *path, char *why,
                     size_t whylen);
void gt_nvml_api_unload(struct gt_nvml_api *api);

/* Pure decoders (unit-tested). */

/* The status a failed call gives a value. */
enum gt_why gt_nvml_why(nvmlReturn_t rc);
/* True for the codes that mean the device is gone. */
bool gt_nvml_is_lost(nvmlReturn_t rc);
/* NVML clocks-event bits -> enum gt_throttle bits (unknown bits -> OTHER). */
unsigned gt_nvml_throttle(unsigned long long reasons);
/* A field value as int64 according to its valueType; false if unusable. */
bool gt_nvml_field_int(const nvmlFieldValue_t *fv, int64_t *out);
/* "00000000:18:00.0" -> "0000:18:00.0" (lower-case hex, as Linux names it). */
void gt_nvml_bus_id(char *dst, size_t len, const nvmlPciInfo_t *pci);
const char *gt_nvml_arch_name(nvmlDeviceArchitecture_t arch);
/* A hint for an nvmlInit failure, e.g. "load the nvidia kernel module". */
const char *gt_nvml_init_hint(nvmlReturn_t rc);

/* The MIG profile in the name NVML gives a MIG device handle ("NVIDIA
 * A100-SXM4-40GB MIG 3g.20gb" -> "3g.20gb"): the word after the last
 * " MIG ". False (out "") when the name has none. */
bool gt_nvml_mig_profile(const char *name, char *out, size_t len);

/* One running-process entry from any list version. */
struct gt_nvml_proc {
	unsigned pid;
	unsigned long long mem; /* GT_NVML_MEMORY_NOT_AVAILABLE if unknown */
	uint8_t type;           /* enum gt_proc_type */
	/* MIG instance ids (24-byte entries; GT_MIG_NONE otherwise or
	 * when the driver says 0xFFFFFFFF). */
	uint32_t gi, ci;
};

/* Merges entries by pid into out (types OR-ed; memory: the larger, since a
 * process in both lists reports the same allocation twice). Returns the
 * merged count; out must hold n entries. */
size_t gt_nvml_merge_procs(const struct gt_nvml_proc *in, size_t n,
                           struct gt_nvml_proc *out);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * nvml_api.c - loading libnvidia-ml with dlopen, resolving versioned
 * symbols with their fallbacks, and the pure decoders of NVML values.
 */
#include "collectors/nvml_api.h"

#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DEFAULT_LIB "libnvidia-ml.so.1"

struct sym {
	size_t offset;        /* of the pointer in struct gt_nvml_api */
	const char *names[3]; /* tried in order */
	bool required;
};

#define SYM(field, req, ...)                                                   \
	{                                                                      \
		offsetof(struct gt_nvml_api, field), {__VA_ARGS__}, req        \
	}

/* Versioned names first: a versioned symbol's presence promises its newer
 * semantics (count_v2 counts GPUs we may not open; memory_v2 separates
 * reserved memory). The _v2 process lists share the v3 24-byte layout. */
static const struct sym symbols[] = {
    SYM(init, true, "nvmlInit_v2", "nvmlInit"),
    SYM(shutdown, true, "nvmlShutdown"),
    SYM(error_string, true, "nvmlErrorString"),
    SYM(count, true, "nvmlDeviceGetCount_v2", "nvmlDeviceGetCount"),
    SYM(handle_by_index, true, "nvmlDeviceGetHandleByIndex_v2",
        "nvmlDeviceGetHandleByIndex"),
    SYM(driver_version, false, "nvmlSystemGetDriverVersion"),
    SYM(nvml_version, false, "nvmlSystemGetNVMLVersion"),
    SYM(cuda_version, false, "nvmlSystemGetCudaDriverVersion"),
    SYM(name, false, "nvmlDeviceGetName"),
    SYM(uuid, false, "nvmlDeviceGetUUID"),
    SYM(serial, false, "nvmlDeviceGetSerial"),
    SYM(pci_info, false, "nvmlDeviceGetPciInfo_v3", "nvmlDeviceGetPciInfo_v2"),
    SYM(pci_info_v1, false, "nvmlDeviceGetPciInfo"),
    SYM(architecture, false, "nvmlDeviceGetArchitecture"),
    SYM(compute_capability, false, "nvmlDeviceGetCudaComputeCapability"),
    SYM(vbios, false, "nvmlDeviceGetVbiosVersion"),
    SYM(utilization, false, "nvmlDeviceGetUtilizationRates"),
    SYM(encoder, false, "nvmlDeviceGetEncoderUtilization"),
    SYM(decoder, false, "nvmlDeviceGetDecoderUtilization"),
    SYM(memory_v2, false, "nvmlDeviceGetMemoryInfo_v2"),
    SYM(memory_v1, false, "nvmlDeviceGetMemoryInfo"),
    SYM(bar1, false, "nvmlDeviceGetBAR1MemoryInfo"),
    SYM(temperature_v, false, "nvmlDeviceGetTemperatureV"),
    SYM(temperature, false, "nvmlDeviceGetTemperature"),
    SYM(threshold, false, "nvmlDeviceGetTemperatureThreshold"),
    SYM(margin, false, "nvmlDeviceGetMarginTemperature"),
    SYM(num_fans, false, "nvmlDeviceGetNumFans"),
    SYM(fan_speed_v2, false, "nvmlDeviceGetFanSpeed_v2"),
    SYM(fan_speed, false, "nvmlDeviceGetFanSpeed"),
    SYM(fan_rpm, false, "nvmlDeviceGetFanSpeedRPM"),
    SYM(fan_min_max, false, "nvmlDeviceGetMinMaxFanSpeed"),
    SYM(power_usage, false, "nvmlDeviceGetPowerUsage"),
    SYM(energy, false, "nvmlDeviceGetTotalEnergyConsumption"),
    SYM(power_limit, false, "nvmlDeviceGetPowerManagementLimit"),
    SYM(power_default, false, "nvmlDeviceGetPowerManagementDefaultLimit"),
    SYM(power_range, false, "nvmlDeviceGetPowerManagementLimitConstraints"),
    SYM(power_enforced, false, "nvmlDeviceGetEnforcedPowerLimit"),
    SYM(pstate, false, "nvmlDeviceGetPerformanceState",
        "nvmlDeviceGetPowerState"),
    SYM(clock, false, "nvmlDeviceGetClockInfo"),
    SYM(max_clock, false, "nvmlDeviceGetMaxClockInfo"),
    SYM(clock_events, false, "nvmlDeviceGetCurrentClocksEventReasons",
        "nvmlDeviceGetCurrentClocksThrottleReasons"),
    SYM(pcie_gen, false, "nvmlDeviceGetCurrPcieLinkGeneration"),
    SYM(pcie_width, false, "nvmlDeviceGetCurrPcieLinkWidth"),
    SYM(pcie_max_gen, false, "nvmlDeviceGetMaxPcieLinkGeneration"),
    SYM(pcie_max_width, false, "nvmlDeviceGetMaxPcieLinkWidth"),
    SYM(pcie_throughput, false, "nvmlDeviceGetPcieThroughput"),
    SYM(ecc_mode, false, "nvmlDeviceGetEccMode"),
    SYM(ecc_errors, false, "nvmlDeviceGetTotalEccErrors"),
    SYM(mig_mode, false, "nvmlDeviceGetMigMode"),
    SYM(process_name, false, "nvmlSystemGetProcessName"),
    SYM(mig_max, false, "nvmlDeviceGetMaxMigDeviceCount"),
    SYM(mig_handle, false, "nvmlDeviceGetMigDeviceHandleByIndex"),
    SYM(mig_gi, false, "nvmlDeviceGetGpuInstanceId"),
    SYM(mig_ci, false, "nvmlDeviceGetComputeInstanceId"),
    SYM(gi_by_id, false, "nvmlDeviceGetGpuInstanceById"),
    SYM(gi_info, false, "nvmlGpuInstanceGetInfo"),
    SYM(field_values, false, "nvmlDeviceGetFieldValues"),
    SYM(process_utilization, false, "nvmlDeviceGetProcessUtilization"),
    SYM(compute_procs, false, "nvmlDeviceGetComputeRunningProcesses_v3",
        "nvmlDeviceGetComputeRunningProcesses_v2"),
    SYM(graphics_procs, false, "nvmlDeviceGetGraphicsRunningProcesses_v3",
        "nvmlDeviceGetGraphicsRunningProcesses_v2"),
    SYM(mps_procs, false, "nvmlDeviceGetMPSComputeRunningProcesses_v3",
        "nvmlDeviceGetMPSComputeRunningProcesses_v2"),
    SYM(compute_procs_v1, false, "nvmlDeviceGetComputeRunningProcesses"),
    SYM(graphics_procs_v1, false, "nvmlDeviceGetGraphicsRunningProcesses"),
    SYM(mps_procs_v1, false, "nvmlDeviceGetMPSComputeRunningProcesses"),
    SYM(set_power_limit_v2, false, "nvmlDeviceSetPowerManagementLimit_v2"),
    SYM(set_power_limit, false, "nvmlDeviceSetPowerManagementLimit"),
    SYM(set_fan_speed, false, "nvmlDeviceSetFanSpeed_v2"),
    SYM(set_default_fan_speed, false, "nvmlDeviceSetDefaultFanSpeed_v2"),
};

/* A path (not a bare name the loader searches for) must name a regular
 * file: dlopen opens it with a plain blocking open, so a FIFO given as
 * --nvml-lib would hang gputop before its first line. 0, or -1 with why
 * naming the path and what it is. */
static int check_lib_path(const char *path, char *why, size_t whylen)
{
	struct stat st;
	if (!path || !strchr(path, '/') || stat(path, &st) != 0 ||
	    S_ISREG(st.st_mode))
		return 0; /* missing: dlopen's own message says so */
	const char *what = S_ISDIR(st.st_mode)    ? "a directory"
	                   : S_ISFIFO(st.st_mode) ? "a FIFO"
	                   : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)
	                       ? "a device"
	                       : "no regular file";
	snprintf(why, whylen,
	         "%s is %s, not a library file (--nvml-lib PATH names the "
	         "libnvidia-ml.so.1 file itself)",
	         path, what);
	return -1;
}

int gt_nvml_api_load(struct gt_nvml_api *api, const char *path, char *why,
                     size_t whylen)
{
	memset(api, 0, sizeof(*api));
	if (check_lib_path(path, why, whylen) < 0)
		return -1;
	api->dl = dlopen(path ? path : DEFAULT_LIB, RTLD_NOW | RTLD_LOCAL);
	if (!api->dl) {
		const char *err = dlerror();
		snprintf(why, whylen,
		         "%s (no NVIDIA driver installed? --nvml-lib PATH "
		         "chooses the library)",
		         err ? err : "dlopen failed");
		return -1;
	}
	for (size_t i = 0; i < sizeof(symbols) / sizeof(symbols[0]); i++) {
		const struct sym *s = &symbols[i];
		void *fn = NULL;
		for (size_t k = 0; k < 3 && s->names[k] && !fn; k++)
			fn = dlsym(api->dl, s->names[k]);
		if (!fn && s->required) {
			snprintf(why, whylen,
			         "%s lacks %s: not a usable NVML library",
			         path ? path : DEFAULT_LIB, s->names[0]);
			gt_nvml_api_unload(api);
			return -1;
		}
		/* POSIX guarantees a data pointer from dlsym converts to a
		 * function pointer; memcpy keeps ISO C quiet about it. */
		memcpy((char *)api + s->offset, &fn, sizeof(fn));
	}
	return 0;
}

void gt_nvml_api_unload(struct gt_nvml_api *api)
{
	if (api->dl)
		dlclose(api->dl);
	memset(api, 0, sizeof(*api));
}

enum gt_why gt_nvml_why(nvmlReturn_t rc)
{
	switch (rc) {
	case NVML_SUCCESS:
		return GT_WHY_OK;
	case NVML_ERROR_NOT_SUPPORTED:
		return GT_WHY_UNSUPPORTED_DEVICE;
	case NVML_ERROR_FUNCTION_NOT_FOUND:
	case NVML_ERROR_DEPRECATED:
	case NVML_ERROR_ARGUMENT_VERSION_MISMATCH:
		return GT_WHY_UNSUPPORTED_DRIVER;
	case NVML_ERROR_NO_PERMISSION:
		return GT_WHY_PERMISSION;
	case NVML_ERROR_GPU_IS_LOST:
	case NVML_ERROR_GPU_NOT_FOUND:
	case NVML_ERROR_RESET_REQUIRED:
		return GT_WHY_LOST;
	default:
		return GT_WHY_DRIVER_ERROR;
	}
}

bool gt_nvml_is_lost(nvmlReturn_t rc)
{
	return gt_nvml_why(rc) == GT_WHY_LOST;
}

unsigned gt_nvml_throttle(unsigned long long reasons)
{
	static const struct {
		unsigned long long nvml;
		unsigned gt;
	} map[] = {
	    {nvmlClocksEventReasonGpuIdle, GT_THR_IDLE},
	    {nvmlClocksEventReasonApplicationsClocksSetting, GT_THR_APP_CLOCKS},
	    {nvmlClocksEventReasonSwPowerCap, GT_THR_SW_POWER_CAP},
	    {nvmlClocksEventReasonHwSlowdown, GT_THR_HW_SLOWDOWN},
	    {nvmlClocksEventReasonSyncBoost, GT_THR_SYNC_BOOST},
	    {nvmlClocksEventReasonSwThermalSlowdown, GT_THR_SW_THERMAL},
	    {nvmlClocksEventReasonHwThermalSlowdown, GT_THR_HW_THERMAL},
	    {nvmlClocksEventReasonHwPowerBrakeSlowdown, GT_THR_HW_POWER_BRAKE},
	    {nvmlClocksEventReasonDisplayClockSetting, GT_THR_DISPLAY_CLOCKS},
	};
	unsigned out = 0;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (reasons & map[i].nvml)
			out |= map[i].gt;
	if (reasons & ~nvmlClocksEventReasonAll)
		out |= GT_THR_OTHER;
	return out;
}

bool gt_nvml_field_int(const nvmlFieldValue_t *fv, int64_t *out)
{
	if (fv->nvmlReturn != NVML_SUCCESS)
		return false;
	switch (fv->valueType) {
	case NVML_VALUE_TYPE_DOUBLE:
		/* NaN fails both comparisons; out-of-range casts are UB. */
		if (!(fv->value.dVal >= -9223372036854775808.0 &&
		      fv->value.dVal < 9223372036854775808.0))
			return false;
		*out = (int64_t)fv->value.dVal;
		return true;
	case NVML_VALUE_TYPE_UNSIGNED_INT:
		*out = fv->value.uiVal;
		return true;
	case NVML_VALUE_TYPE_UNSIGNED_LONG:
		if (fv->value.ulVal > (unsigned long)INT64_MAX)
			return false;
		*out = (int64_t)fv->value.ulVal;
		return true;
	case NVML_VALUE_TYPE_UNSIGNED_LONG_LONG:
		if (fv->value.ullVal > (unsigned long long)INT64_MAX)
			return false;
		*out = (int64_t)fv->value.ullVal;
		return true;
	case NVML_VALUE_TYPE_SIGNED_LONG_LONG:
		*out = fv->value.sllVal;
		return true;
	case NVML_VALUE_TYPE_SIGNED_INT:
		*out = fv->value.siVal;
		return true;
	case NVML_VALUE_TYPE_UNSIGNED_SHORT:
		*out = fv->value.usVal;
		return true;
	default:
		return false; /* never guess the type of a value */
	}
}

void gt_nvml_bus_id(char *dst, size_t len, const nvmlPciInfo_t *pci)
{
	/* Domains above 0xffff exist (Intel VMD): Linux prints them whole. */
	snprintf(dst, len, "%04x:%02x:%02x.0", pci->domain, pci->bus & 0xffu,
	         pci->device & 0xffu);
}

const char *gt_nvml_arch_name(nvmlDeviceArchitecture_t arch)
{
	switch (arch) {
	case NVML_DEVICE_ARCH_KEPLER:
		return "Kepler";
	case NVML_DEVICE_ARCH_MAXWELL:
		return "Maxwell";
	case NVML_DEVICE_ARCH_PASCAL:
		return "Pascal";
	case NVML_DEVICE_ARCH_VOLTA:
		return "Volta";
	case NVML_DEVICE_ARCH_TURING:
		return "Turing";
	case NVML_DEVICE_ARCH_AMPERE:
		return "Ampere";
	case NVML_DEVICE_ARCH_ADA:
		return "Ada Lovelace";
	case NVML_DEVICE_ARCH_HOPPER:
		return "Hopper";
	case NVML_DEVICE_ARCH_BLACKWELL:
		return "Blackwell";
	case NVML_DEVICE_ARCH_RUBIN:
		return "Rubin";
	default:
		return "";
	}
}

const char *gt_nvml_init_hint(nvmlReturn_t rc)
{
	switch (rc) {
	case NVML_ERROR_DRIVER_NOT_LOADED:
		return "the nvidia kernel module is not loaded: load it with "
		       "'modprobe nvidia' or reinstall the driver";
	case NVML_ERROR_NO_PERMISSION:
		return "permission denied opening /dev/nvidiactl: check the "
		       "device node permissions (or the container's device "
		       "list)";
	case NVML_ERROR_LIB_RM_VERSION_MISMATCH:
		return "the NVML library and the loaded kernel module are "
		       "different versions: reboot, or reload the nvidia "
		       "module";
	case NVML_ERROR_TIMEOUT:
		return "the driver did not answer in time: check dmesg for Xid "
		       "errors";
	default:
		return "check dmesg and nvidia-smi";
	}
}

size_t gt_nvml_merge_procs(const struct gt_nvml_proc *in, size_t n,
                           struct gt_nvml_proc *out)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;
		while (j < m && out[j].pid != in[i].pid)
			j++;
		if (j == m) {
			out[m++] = in[i];
			continue;
		}
		out[j].type |= in[i].type;
		if (out[j].mem == GT_NVML_MEMORY_NOT_AVAILABLE ||
		    (in[i].mem != GT_NVML_MEMORY_NOT_AVAILABLE &&
		     in[i].mem > out[j].mem))
			out[j].mem = in[i].mem;
	}
	return m;
}

bool gt_nvml_mig_profile(const char *name, char *out, size_t len)
{
	const char *at = NULL;
	if (len)
		out[0] = '\0';
	for (const char *s = name; s && (s = strstr(s, " MIG ")) != NULL; s++)
		at = s + 5;
	if (!at || !len)
		return false;
	size_t n = strcspn(at, " \t");
	/* A profile is "<n>g.<size>gb" or "<c>c.<n>g.<size>gb", with an
	 * optional "+me" and the like: letters, digits, '.', '+'. */
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)at[i]) && at[i] != '.' &&
		    at[i] != '+')
			return false;
	if (n == 0 || n >= len)
		return false;
	memcpy(out, at, n);
	out[n] = '\0';
	return true;
}

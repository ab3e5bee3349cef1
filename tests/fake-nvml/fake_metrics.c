/* SPDX-License-Identifier: MIT */
/*
 * fake_metrics.c - exported read-only device metrics: utilization, memory
 * and BAR1, temperatures and thresholds, power readings and limits,
 * performance state and clocks, PCIe link and throughput, ECC, retired
 * pages, remapped rows and device modes.
 */
#include <string.h>

#include "fake.h"

/* Sampling period reported with encoder/decoder/JPEG/OFA utilization. */
#define FAKE_UTIL_PERIOD_US 1000000u

/* Enter, reject a NULL out-pointer, answer one unsigned key. */
static nvmlReturn_t one_u(enum fake_fn fn, nvmlDevice_t device, enum fake_key k,
                          unsigned int *out)
{
	struct fake_call c;
	unsigned int v = 0;
	nvmlReturn_t rc = fake_enter_dev(fn, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (out == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = fake_get_u(&c, k, &v);
	if (rc == NVML_SUCCESS)
		*out = v;
	return fake_leave(rc);
}

static nvmlReturn_t one_ull(enum fake_fn fn, nvmlDevice_t device,
                            enum fake_key k, unsigned long long *out)
{
	struct fake_call c;
	unsigned long long v = 0;
	nvmlReturn_t rc = fake_enter_dev(fn, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (out == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = fake_get_ull(&c, k, &v);
	if (rc == NVML_SUCCESS)
		*out = v;
	return fake_leave(rc);
}

nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device,
                                           nvmlUtilization_t *utilization)
{
	struct fake_call c;
	unsigned int gpu = 0, mem = 0;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetUtilizationRates, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (utilization == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	if (fake_mig_enabled(&c))
		return fake_leave(NVML_ERROR_NOT_SUPPORTED);
	rc = fake_get_u(&c, K_UTIL_GPU, &gpu);
	if (rc != NVML_SUCCESS)
		return fake_leave(rc);
	(void)fake_get_u(&c, K_UTIL_MEM, &mem);
	utilization->gpu = gpu;
	utilization->memory = mem;
	return fake_leave(NVML_SUCCESS);
}

static nvmlReturn_t engine_util(enum fake_fn fn, nvmlDevice_t device,
                                enum fake_key k, unsigned int *util,
                                unsigned int *period)
{
	struct fake_call c;
	unsigned int v = 0;
	nvmlReturn_t rc = fake_enter_dev(fn, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (util == NULL || period == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	if (fake_mig_enabled(&c))
		return fake_leave(NVML_ERROR_NOT_SUPPORTED);
	rc = fake_get_u(&c, k, &v);
	if (rc == NVML_SUCCESS) {
		*util = v;
		*period = FAKE_UTIL_PERIOD_US;
	}
	return fake_leave(rc);
}

nvmlReturn_t nvmlDeviceGetEncoderUtilization(nvmlDevice_t device,
                                             unsigned int *utilization,
                                             unsigned int *samplingPeriodUs)
{
	return engine_util(FN_nvmlDeviceGetEncoderUtilization, device,
	                   K_UTIL_ENC, utilization, samplingPeriodUs);
}

nvmlReturn_t nvmlDeviceGetDecoderUtilization(nvmlDevice_t device,
                                             unsigned int *utilization,
                                             unsigned int *samplingPeriodUs)
{
	return engine_util(FN_nvmlDeviceGetDecoderUtilization, device,
	                   K_UTIL_DEC, utilization, samplingPeriodUs);
}

nvmlReturn_t nvmlDeviceGetJpgUtilization(nvmlDevice_t device,
                                         unsigned int *utilization,
                                         unsigned int *samplingPeriodUs)
{
	return engine_util(FN_nvmlDeviceGetJpgUtilization, device, K_UTIL_JPG,
	                   utilization, samplingPeriodUs);
}

nvmlReturn_t nvmlDeviceGetOfaUtilization(nvmlDevice_t device,
                                         unsigned int *utilization,
                                         unsigned int *samplingPeriodUs)
{
	return engine_util(FN_nvmlDeviceGetOfaUtilization, device, K_UTIL_OFA,
	                   utilization, samplingPeriodUs);
}

struct mem_view {
	unsigned long long total, reserved, used, free;
};

/* total = reserved + used + free; used is clamped to what is left. */
static nvmlReturn_t mem_view(const struct fake_call *c, struct mem_view *m)
{
	nvmlReturn_t rc;

	memset(m, 0, sizeof(*m));
	if (c->mig != NULL) {
		m->total = c->mig->mem_total;
		m->used = c->mig->mem_used;
	} else {
		rc = fake_get_ull(c, K_MEM_TOTAL, &m->total);
		if (rc != NVML_SUCCESS)
			return rc;
		(void)fake_get_ull(c, K_MEM_RESERVED, &m->reserved);
		(void)fake_get_ull(c, K_MEM_USED, &m->used);
	}
	if (m->reserved > m->total)
		m->reserved = m->total;
	if (m->used > m->total - m->reserved)
		m->used = m->total - m->reserved;
	m->free = m->total - m->reserved - m->used;
	return NVML_SUCCESS;
}

/* v1: "used" includes the reserved part, as real drivers report it. */
nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t *memory)
{
	struct fake_call c;
	struct mem_view m;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetMemoryInfo, device, FAKE_MIG_OK, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (memory == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = mem_view(&c, &m);
	if (rc == NVML_SUCCESS) {
		memory->total = m.total;
		memory->free = m.free;
		memory->used = m.used + m.reserved;
	}
	return fake_leave(rc);
}

/* A wrong version answers FUNCTION_NOT_FOUND (13), as real drivers do;
 * nvtop relies on it to fall back to the v1 call. */
nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t device,
                                        nvmlMemory_v2_t *memory)
{
	struct fake_call c;
	struct mem_view m;
	nvmlReturn_t rc = fake_enter_dev(FN_nvmlDeviceGetMemoryInfo_v2, device,
	                                 FAKE_MIG_OK, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (memory == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	if (memory->version != GT_NVML_MEMORY_V2_VERSION)
		return fake_leave(NVML_ERROR_FUNCTION_NOT_FOUND);
	rc = mem_view(&c, &m);
	if (rc == NVML_SUCCESS) {
		memory->total = m.total;
		memory->reserved = m.reserved;
		memory->free = m.free;
		memory->used = m.used;
	}
	return fake_leave(rc);
}

nvmlReturn_t nvmlDeviceGetBAR1MemoryInfo(nvmlDevice_t device,
                                         nvmlBAR1Memory_t *bar1Memory)
{
	struct fake_call c;
	unsigned long long total = 0, used = 0;
	nvmlReturn_t rc = fake_enter_dev(FN_nvmlDeviceGetBAR1MemoryInfo, device,
	                                 FAKE_MIG_OK, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (bar1Memory == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	if (c.mig != NULL) {
		total = c.mig->bar1_total;
	} else {
		rc = fake_get_ull(&c, K_BAR1_TOTAL, &total);
		if (rc != NVML_SUCCESS)
			return fake_leave(rc);
		(void)fake_get_ull(&c, K_BAR1_USED, &used);
	}
	if (used > total)
		used = total;
	bar1Memory->bar1Total = total;
	bar1Memory->bar1Used = used;
	bar1Memory->bar1Free = total - used;
	return fake_leave(NVML_SUCCESS);
}

nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device,
                                      nvmlTemperatureSensors_t sensorType,
                                      unsigned int *temp)
{
	if (sensorType != NVML_TEMPERATURE_GPU)
		temp = NULL; /* one_u answers INVALID_ARGUMENT */
	return one_u(FN_nvmlDeviceGetTemperature, device, K_TEMP, temp);
}

nvmlReturn_t nvmlDeviceGetTemperatureV(nvmlDevice_t device,
                                       nvmlTemperature_t *temperature)
{
	struct fake_call c;
	int v = 0;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetTemperatureV, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (temperature == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	if (temperature->version != GT_NVML_TEMPERATURE_V1_VERSION)
		return fake_leave(NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
	if (temperature->sensorType != NVML_TEMPERATURE_GPU)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = fake_get_i(&c, K_TEMP, &v);
	if (rc == NVML_SUCCESS)
		temperature->temperature = v;
	return fake_leave(rc);
}

nvmlReturn_t
nvmlDeviceGetTemperatureThreshold(nvmlDevice_t device,
                                  nvmlTemperatureThresholds_t thresholdType,
                                  unsigned int *temp)
{
	if ((unsigned int)thresholdType >= NVML_TEMPERATURE_THRESHOLD_COUNT)
		return one_u(FN_nvmlDeviceGetTemperatureThreshold, device,
		             K_THR_SHUTDOWN, NULL);
	return one_u(FN_nvmlDeviceGetTemperatureThreshold, device,
	             (enum fake_key)(K_THR_SHUTDOWN + (int)thresholdType),
	             temp);
}

nvmlReturn_t
nvmlDeviceGetMarginTemperature(nvmlDevice_t device,
                               nvmlMarginTemperature_t *marginTempInfo)
{
	struct fake_call c;
	int v = 0;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetMarginTemperature, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (marginTempInfo == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	if (marginTempInfo->version != GT_NVML_MARGIN_TEMPERATURE_V1_VERSION)
		return fake_leave(NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
	rc = fake_get_i(&c, K_TEMP_MARGIN, &v);
	if (rc == NVML_SUCCESS)
		marginTempInfo->marginTemperature = v;
	return fake_leave(rc);
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int *power)
{
	return one_u(FN_nvmlDeviceGetPowerUsage, device, K_POWER, power);
}

nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t device,
                                                 unsigned long long *energy)
{
	return one_ull(FN_nvmlDeviceGetTotalEnergyConsumption, device, K_ENERGY,
	               energy);
}

nvmlReturn_t nvmlDeviceGetPowerManagementLimit(nvmlDevice_t device,
                                               unsigned int *limit)
{
	return one_u(FN_nvmlDeviceGetPowerManagementLimit, device,
	             K_POWER_LIMIT, limit);
}

nvmlReturn_t
nvmlDeviceGetPowerManagementDefaultLimit(nvmlDevice_t device,
                                         unsigned int *defaultLimit)
{
	return one_u(FN_nvmlDeviceGetPowerManagementDefaultLimit, device,
	             K_POWER_DEFAULT, defaultLimit);
}

nvmlReturn_t nvmlDeviceGetPowerManagementLimitConstraints(
    nvmlDevice_t device, unsigned int *minLimit, unsigned int *maxLimit)
{
	struct fake_call c;
	unsigned int lo = 0, hi = 0;
	nvmlReturn_t rc = fake_enter_dev(
	    FN_nvmlDeviceGetPowerManagementLimitConstraints, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (minLimit == NULL || maxLimit == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = fake_get_u(&c, K_POWER_MIN, &lo);
	if (rc == NVML_SUCCESS)
		rc = fake_get_u(&c, K_POWER_MAX, &hi);
	if (rc == NVML_SUCCESS) {
		*minLimit = lo;
		*maxLimit = hi;
	}
	return fake_leave(rc);
}

nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t device,
                                             unsigned int *limit)
{
	struct fake_call c;
	unsigned int v = 0;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetEnforcedPowerLimit, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (limit == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = fake_enforced_limit(&c, &v);
	if (rc == NVML_SUCCESS)
		*limit = v;
	return fake_leave(rc);
}

nvmlReturn_t nvmlDeviceGetPowerSource(nvmlDevice_t device,
                                      nvmlPowerSource_t *powerSource)
{
	return one_u(FN_nvmlDeviceGetPowerSource, device, K_POWER_SOURCE,
	             powerSource);
}

static nvmlReturn_t pstate(enum fake_fn fn, nvmlDevice_t device,
                           nvmlPstates_t *out)
{
	unsigned int v = 0;
	nvmlReturn_t rc = one_u(fn, device, K_PSTATE, out != NULL ? &v : NULL);

	if (rc == NVML_SUCCESS)
		*out = v <= 15 ? (nvmlPstates_t)v : NVML_PSTATE_UNKNOWN;
	return rc;
}

nvmlReturn_t nvmlDeviceGetPerformanceState(nvmlDevice_t device,
                                           nvmlPstates_t *pState)
{
	return pstate(FN_nvmlDeviceGetPerformanceState, device, pState);
}

nvmlReturn_t nvmlDeviceGetPowerState(nvmlDevice_t device, nvmlPstates_t *pState)
{
	return pstate(FN_nvmlDeviceGetPowerState, device, pState);
}

/* Clock keys come in groups of four in nvmlClockType_t order. */
static nvmlReturn_t clock_of(enum fake_fn fn, nvmlDevice_t device,
                             enum fake_key group, nvmlClockType_t type,
                             unsigned int *out)
{
	if ((unsigned int)type >= NVML_CLOCK_COUNT)
		out = NULL;
	else
		group = (enum fake_key)(group + (int)type);
	return one_u(fn, device, group, out);
}

nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t device, nvmlClockType_t type,
                                    unsigned int *clock)
{
	return clock_of(FN_nvmlDeviceGetClockInfo, device, K_CLK_GRAPHICS, type,
	                clock);
}

nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t device,
                                       nvmlClockType_t type,
                                       unsigned int *clock)
{
	return clock_of(FN_nvmlDeviceGetMaxClockInfo, device, K_MAXCLK_GRAPHICS,
	                type, clock);
}

nvmlReturn_t nvmlDeviceGetClock(nvmlDevice_t device, nvmlClockType_t clockType,
                                nvmlClockId_t clockId, unsigned int *clockMHz)
{
	static const enum fake_key groups[NVML_CLOCK_ID_COUNT] = {
	    [NVML_CLOCK_ID_CURRENT] = K_CLK_GRAPHICS,
	    [NVML_CLOCK_ID_APP_CLOCK_TARGET] = K_APPCLK_GRAPHICS,
	    [NVML_CLOCK_ID_APP_CLOCK_DEFAULT] = K_DEFAPPCLK_GRAPHICS,
	    [NVML_CLOCK_ID_CUSTOMER_BOOST_MAX] = K_BOOSTCLK_GRAPHICS,
	};

	if ((unsigned int)clockId >= NVML_CLOCK_ID_COUNT)
		return clock_of(FN_nvmlDeviceGetClock, device, K_CLK_GRAPHICS,
		                NVML_CLOCK_COUNT, clockMHz);
	return clock_of(FN_nvmlDeviceGetClock, device, groups[clockId],
	                clockType, clockMHz);
}

nvmlReturn_t nvmlDeviceGetMaxCustomerBoostClock(nvmlDevice_t device,
                                                nvmlClockType_t clockType,
                                                unsigned int *clockMHz)
{
	return clock_of(FN_nvmlDeviceGetMaxCustomerBoostClock, device,
	                K_BOOSTCLK_GRAPHICS, clockType, clockMHz);
}

nvmlReturn_t nvmlDeviceGetApplicationsClock(nvmlDevice_t device,
                                            nvmlClockType_t clockType,
                                            unsigned int *clockMHz)
{
	return clock_of(FN_nvmlDeviceGetApplicationsClock, device,
	                K_APPCLK_GRAPHICS, clockType, clockMHz);
}

nvmlReturn_t nvmlDeviceGetDefaultApplicationsClock(nvmlDevice_t device,
                                                   nvmlClockType_t clockType,
                                                   unsigned int *clockMHz)
{
	return clock_of(FN_nvmlDeviceGetDefaultApplicationsClock, device,
	                K_DEFAPPCLK_GRAPHICS, clockType, clockMHz);
}

nvmlReturn_t
nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t device,
                                       unsigned long long *clocksEventReasons)
{
	return one_ull(FN_nvmlDeviceGetCurrentClocksEventReasons, device, K_CER,
	               clocksEventReasons);
}

nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(
    nvmlDevice_t device, unsigned long long *clocksThrottleReasons)
{
	return one_ull(FN_nvmlDeviceGetCurrentClocksThrottleReasons, device,
	               K_CER, clocksThrottleReasons);
}

nvmlReturn_t nvmlDeviceGetSupportedClocksEventReasons(
    nvmlDevice_t device, unsigned long long *supportedClocksEventReasons)
{
	return one_ull(FN_nvmlDeviceGetSupportedClocksEventReasons, device,
	               K_CER_SUPPORTED, supportedClocksEventReasons);
}

nvmlReturn_t nvmlDeviceGetSupportedClocksThrottleReasons(
    nvmlDevice_t device, unsigned long long *supportedClocksThrottleReasons)
{
	return one_ull(FN_nvmlDeviceGetSupportedClocksThrottleReasons, device,
	               K_CER_SUPPORTED, supportedClocksThrottleReasons);
}

nvmlReturn_t nvmlDeviceGetViolationStatus(nvmlDevice_t device,
                                          nvmlPerfPolicyType_t perfPolicyType,
                                          nvmlViolationTime_t *violTime)
{
	struct fake_call c;
	enum fake_key k;
	unsigned long long v = 0;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetViolationStatus, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (violTime == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	if (perfPolicyType <= NVML_PERF_POLICY_RELIABILITY)
		k = (enum fake_key)(K_VIOL_POWER + (int)perfPolicyType);
	else if (perfPolicyType == NVML_PERF_POLICY_TOTAL_APP_CLOCKS)
		k = K_VIOL_TOTAL_APP;
	else if (perfPolicyType == NVML_PERF_POLICY_TOTAL_BASE_CLOCKS)
		k = K_VIOL_TOTAL_BASE;
	else
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = fake_get_ull(&c, k, &v);
	if (rc == NVML_SUCCESS) {
		violTime->referenceTime = fake_wall_us();
		violTime->violationTime = v;
	}
	return fake_leave(rc);
}

nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t device,
                                                 unsigned int *currLinkGen)
{
	return one_u(FN_nvmlDeviceGetCurrPcieLinkGeneration, device, K_PCIE_GEN,
	             currLinkGen);
}

nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t device,
                                            unsigned int *currLinkWidth)
{
	return one_u(FN_nvmlDeviceGetCurrPcieLinkWidth, device, K_PCIE_WIDTH,
	             currLinkWidth);
}

nvmlReturn_t nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t device,
                                                unsigned int *maxLinkGen)
{
	return one_u(FN_nvmlDeviceGetMaxPcieLinkGeneration, device,
	             K_PCIE_GEN_MAX, maxLinkGen);
}

nvmlReturn_t
nvmlDeviceGetGpuMaxPcieLinkGeneration(nvmlDevice_t device,
                                      unsigned int *maxLinkGenDevice)
{
	return one_u(FN_nvmlDeviceGetGpuMaxPcieLinkGeneration, device,
	             K_PCIE_GEN_GPU_MAX, maxLinkGenDevice);
}

nvmlReturn_t nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t device,
                                           unsigned int *maxLinkWidth)
{
	return one_u(FN_nvmlDeviceGetMaxPcieLinkWidth, device, K_PCIE_WIDTH_MAX,
	             maxLinkWidth);
}

nvmlReturn_t nvmlDeviceGetPcieSpeed(nvmlDevice_t device,
                                    unsigned int *pcieSpeed)
{
	return one_u(FN_nvmlDeviceGetPcieSpeed, device, K_PCIE_SPEED,
	             pcieSpeed);
}

nvmlReturn_t nvmlDeviceGetPcieLinkMaxSpeed(nvmlDevice_t device,
                                           unsigned int *maxSpeed)
{
	return one_u(FN_nvmlDeviceGetPcieLinkMaxSpeed, device,
	             K_PCIE_LINK_MAX_SPEED, maxSpeed);
}

nvmlReturn_t nvmlDeviceGetPcieThroughput(nvmlDevice_t device,
                                         nvmlPcieUtilCounter_t counter,
                                         unsigned int *value)
{
	if (counter != NVML_PCIE_UTIL_TX_BYTES &&
	    counter != NVML_PCIE_UTIL_RX_BYTES)
		value = NULL;
	return one_u(FN_nvmlDeviceGetPcieThroughput, device,
	             counter == NVML_PCIE_UTIL_RX_BYTES ? K_PCIE_RX_KBPS
	                                                : K_PCIE_TX_KBPS,
	             value);
}

nvmlReturn_t nvmlDeviceGetPcieReplayCounter(nvmlDevice_t device,
                                            unsigned int *value)
{
	return one_u(FN_nvmlDeviceGetPcieReplayCounter, device, K_PCIE_REPLAY,
	             value);
}

/* Current and pending value of a two-state mode; pending defaults to the
 * current value when the scenario leaves it out. */
static nvmlReturn_t mode_pair(enum fake_fn fn, nvmlDevice_t device,
                              enum fake_key cur_key, enum fake_key pend_key,
                              unsigned int *cur, unsigned int *pend)
{
	struct fake_call c;
	unsigned int v = 0, p = 0;
	nvmlReturn_t rc = fake_enter_dev(fn, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (cur == NULL || pend == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = fake_get_u(&c, cur_key, &v);
	if (rc != NVML_SUCCESS)
		return fake_leave(rc);
	if (fake_get_u(&c, pend_key, &p) != NVML_SUCCESS)
		p = v;
	*cur = v;
	*pend = p;
	return fake_leave(NVML_SUCCESS);
}

nvmlReturn_t nvmlDeviceGetEccMode(nvmlDevice_t device,
                                  nvmlEnableState_t *current,
                                  nvmlEnableState_t *pending)
{
	unsigned int cur = 0, pend = 0;
	nvmlReturn_t rc = mode_pair(
	    FN_nvmlDeviceGetEccMode, device, K_ECC_MODE, K_ECC_PENDING,
	    current != NULL ? &cur : NULL, pending != NULL ? &pend : NULL);

	if (rc == NVML_SUCCESS) {
		*current = cur ? NVML_FEATURE_ENABLED : NVML_FEATURE_DISABLED;
		*pending = pend ? NVML_FEATURE_ENABLED : NVML_FEATURE_DISABLED;
	}
	return rc;
}

nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t device,
                                  unsigned int *currentMode,
                                  unsigned int *pendingMode)
{
	return mode_pair(FN_nvmlDeviceGetMigMode, device, K_MIG_MODE,
	                 K_MIG_PENDING, currentMode, pendingMode);
}

/* ECC counters exist only while ECC is enabled. */
static nvmlReturn_t ecc_count(enum fake_fn fn, nvmlDevice_t device,
                              nvmlMemoryErrorType_t type,
                              nvmlEccCounterType_t counter, int location,
                              unsigned long long *out)
{
	struct fake_call c;
	unsigned int mode = 0;
	unsigned long long v = 0;
	nvmlReturn_t rc = fake_enter_dev(fn, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (out == NULL || (unsigned int)type >= NVML_MEMORY_ERROR_TYPE_COUNT ||
	    (unsigned int)counter >= NVML_ECC_COUNTER_TYPE_COUNT ||
	    location < 0 || location >= NVML_MEMORY_LOCATION_COUNT)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = fake_get_u(&c, K_ECC_MODE, &mode);
	if (rc == NVML_SUCCESS && mode == 0)
		rc = NVML_ERROR_NOT_SUPPORTED;
	if (rc == NVML_SUCCESS)
		rc = fake_get_ull(&c,
		                  (enum fake_key)(K_ECC_CORR_VOL +
		                                  2 * (int)type + (int)counter),
		                  &v);
	if (rc == NVML_SUCCESS)
		*out = location == NVML_MEMORY_LOCATION_DRAM ? v : 0;
	return fake_leave(rc);
}

nvmlReturn_t nvmlDeviceGetTotalEccErrors(nvmlDevice_t device,
                                         nvmlMemoryErrorType_t errorType,
                                         nvmlEccCounterType_t counterType,
                                         unsigned long long *eccCounts)
{
	return ecc_count(FN_nvmlDeviceGetTotalEccErrors, device, errorType,
	                 counterType, NVML_MEMORY_LOCATION_DRAM, eccCounts);
}

/* The scenario's totals are all DRAM errors; other locations count 0. */
nvmlReturn_t nvmlDeviceGetMemoryErrorCounter(nvmlDevice_t device,
                                             nvmlMemoryErrorType_t errorType,
                                             nvmlEccCounterType_t counterType,
                                             nvmlMemoryLocation_t locationType,
                                             unsigned long long *count)
{
	return ecc_count(FN_nvmlDeviceGetMemoryErrorCounter, device, errorType,
	                 counterType, (int)locationType, count);
}

nvmlReturn_t nvmlDeviceGetRetiredPages(nvmlDevice_t device,
                                       nvmlPageRetirementCause_t cause,
                                       unsigned int *pageCount,
                                       unsigned long long *addresses)
{
	struct fake_call c;
	unsigned int n = 0;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetRetiredPages, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (pageCount == NULL ||
	    (unsigned int)cause >= NVML_PAGE_RETIREMENT_CAUSE_COUNT)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = fake_get_u(&c,
	                cause == NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR
	                    ? K_RETIRED_DBE
	                    : K_RETIRED_SBE,
	                &n);
	if (rc != NVML_SUCCESS)
		return fake_leave(rc);
	if (*pageCount < n) {
		*pageCount = n;
		return fake_leave(NVML_ERROR_INSUFFICIENT_SIZE);
	}
	if (n > 0 && addresses == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	for (unsigned int i = 0; i < n; i++)
		addresses[i] =
		    0x100000ULL * (i + 1) + (unsigned long long)cause;
	*pageCount = n;
	return fake_leave(NVML_SUCCESS);
}

nvmlReturn_t nvmlDeviceGetRemappedRows(nvmlDevice_t device,
                                       unsigned int *corrRows,
                                       unsigned int *uncRows,
                                       unsigned int *isPending,
                                       unsigned int *failureOccurred)
{
	struct fake_call c;
	unsigned int v[4] = {0, 0, 0, 0};
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetRemappedRows, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (corrRows == NULL || uncRows == NULL || isPending == NULL ||
	    failureOccurred == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = fake_get_u(&c, K_REMAP_CORR, &v[0]);
	if (rc != NVML_SUCCESS)
		return fake_leave(rc);
	(void)fake_get_u(&c, K_REMAP_UNC, &v[1]);
	(void)fake_get_u(&c, K_REMAP_PENDING, &v[2]);
	(void)fake_get_u(&c, K_REMAP_FAILURE, &v[3]);
	*corrRows = v[0];
	*uncRows = v[1];
	*isPending = v[2];
	*failureOccurred = v[3];
	return fake_leave(NVML_SUCCESS);
}

static nvmlReturn_t enable_state(enum fake_fn fn, nvmlDevice_t device,
                                 enum fake_key k, nvmlEnableState_t *out)
{
	unsigned int v = 0;
	nvmlReturn_t rc = one_u(fn, device, k, out != NULL ? &v : NULL);

	if (rc == NVML_SUCCESS)
		*out = v ? NVML_FEATURE_ENABLED : NVML_FEATURE_DISABLED;
	return rc;
}

nvmlReturn_t nvmlDeviceGetPersistenceMode(nvmlDevice_t device,
                                          nvmlEnableState_t *mode)
{
	return enable_state(FN_nvmlDeviceGetPersistenceMode, device,
	                    K_PERSISTENCE, mode);
}

nvmlReturn_t nvmlDeviceGetDisplayMode(nvmlDevice_t device,
                                      nvmlEnableState_t *display)
{
	return enable_state(FN_nvmlDeviceGetDisplayMode, device, K_DISPLAY_MODE,
	                    display);
}

nvmlReturn_t nvmlDeviceGetDisplayActive(nvmlDevice_t device,
                                        nvmlEnableState_t *isActive)
{
	return enable_state(FN_nvmlDeviceGetDisplayActive, device,
	                    K_DISPLAY_ACTIVE, isActive);
}

nvmlReturn_t nvmlDeviceGetComputeMode(nvmlDevice_t device,
                                      nvmlComputeMode_t *mode)
{
	unsigned int v = 0;
	nvmlReturn_t rc = one_u(FN_nvmlDeviceGetComputeMode, device,
	                        K_COMPUTE_MODE, mode != NULL ? &v : NULL);

	if (rc == NVML_SUCCESS)
		*mode = (nvmlComputeMode_t)v;
	return rc;
}

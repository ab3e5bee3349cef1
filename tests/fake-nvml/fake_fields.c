/* SPDX-License-Identifier: MIT */
/*
 * fake_fields.c - exported batch queries: nvmlDeviceGetFieldValues with a
 * status per element, and nvmlDeviceGetSamples, whose history is the
 * scenario's metric evaluated at past sample times.
 */
#include <string.h>

#include "fake.h"

/* Most recent samples the driver keeps per type. */
#define FAKE_SAMPLE_HISTORY 120u

/* Field IDs answered from one scenario key. */
static const struct field_map {
	unsigned int id;
	enum fake_key key;
	nvmlValueType_t type;
} field_map[] = {
    {NVML_FI_DEV_ECC_CURRENT, K_ECC_MODE, NVML_VALUE_TYPE_UNSIGNED_INT},
    {NVML_FI_DEV_ECC_SBE_VOL_TOTAL, K_ECC_CORR_VOL,
     NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {NVML_FI_DEV_ECC_DBE_VOL_TOTAL, K_ECC_UNC_VOL,
     NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {NVML_FI_DEV_ECC_SBE_AGG_TOTAL, K_ECC_CORR_AGG,
     NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {NVML_FI_DEV_ECC_DBE_AGG_TOTAL, K_ECC_UNC_AGG,
     NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {NVML_FI_DEV_RETIRED_SBE, K_RETIRED_SBE,
     NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {NVML_FI_DEV_RETIRED_DBE, K_RETIRED_DBE,
     NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {NVML_FI_DEV_RETIRED_PENDING, K_RETIRED_PENDING,
     NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {NVML_FI_DEV_PERF_POLICY_POWER, K_VIOL_POWER,
     NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {NVML_FI_DEV_PERF_POLICY_THERMAL, K_VIOL_THERMAL,
     NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {NVML_FI_DEV_PERF_POLICY_SYNC_BOOST, K_VIOL_SYNC_BOOST,
     NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {NVML_FI_DEV_PERF_POLICY_BOARD_LIMIT, K_VIOL_BOARD_LIMIT,
     NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {NVML_FI_DEV_PERF_POLICY_LOW_UTILIZATION, K_VIOL_LOW_UTIL,
     NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {NVML_FI_DEV_PERF_POLICY_RELIABILITY, K_VIOL_RELIABILITY,
     NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {NVML_FI_DEV_PERF_POLICY_TOTAL_APP_CLOCKS, K_VIOL_TOTAL_APP,
     NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {NVML_FI_DEV_PERF_POLICY_TOTAL_BASE_CLOCKS, K_VIOL_TOTAL_BASE,
     NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {NVML_FI_DEV_MEMORY_TEMP, K_TEMP_MEMORY, NVML_VALUE_TYPE_UNSIGNED_INT},
    {NVML_FI_DEV_TOTAL_ENERGY_CONSUMPTION, K_ENERGY,
     NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {NVML_FI_DEV_PCIE_REPLAY_COUNTER, K_PCIE_REPLAY,
     NVML_VALUE_TYPE_UNSIGNED_INT},
    {NVML_FI_DEV_PCIE_REPLAY_ROLLOVER_COUNTER, K_PCIE_REPLAY_ROLLOVER,
     NVML_VALUE_TYPE_UNSIGNED_INT},
    {NVML_FI_DEV_REMAPPED_COR, K_REMAP_CORR, NVML_VALUE_TYPE_UNSIGNED_INT},
    {NVML_FI_DEV_REMAPPED_UNC, K_REMAP_UNC, NVML_VALUE_TYPE_UNSIGNED_INT},
    {NVML_FI_DEV_REMAPPED_PENDING, K_REMAP_PENDING,
     NVML_VALUE_TYPE_UNSIGNED_INT},
    {NVML_FI_DEV_REMAPPED_FAILURE, K_REMAP_FAILURE,
     NVML_VALUE_TYPE_UNSIGNED_INT},
    {NVML_FI_DEV_POWER_AVERAGE, K_POWER, NVML_VALUE_TYPE_UNSIGNED_INT},
    {NVML_FI_DEV_POWER_MIN_LIMIT, K_POWER_MIN, NVML_VALUE_TYPE_UNSIGNED_INT},
    {NVML_FI_DEV_POWER_MAX_LIMIT, K_POWER_MAX, NVML_VALUE_TYPE_UNSIGNED_INT},
    {NVML_FI_DEV_POWER_DEFAULT_LIMIT, K_POWER_DEFAULT,
     NVML_VALUE_TYPE_UNSIGNED_INT},
    {NVML_FI_DEV_ENERGY, K_ENERGY, NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {NVML_FI_DEV_POWER_REQUESTED_LIMIT, K_POWER_LIMIT,
     NVML_VALUE_TYPE_UNSIGNED_INT},
    {NVML_FI_DEV_TEMPERATURE_SHUTDOWN_TLIMIT, K_TLIMIT_SHUTDOWN,
     NVML_VALUE_TYPE_SIGNED_INT},
    {NVML_FI_DEV_TEMPERATURE_SLOWDOWN_TLIMIT, K_TLIMIT_SLOWDOWN,
     NVML_VALUE_TYPE_SIGNED_INT},
    {NVML_FI_DEV_TEMPERATURE_MEM_MAX_TLIMIT, K_TLIMIT_MEM_MAX,
     NVML_VALUE_TYPE_SIGNED_INT},
    {NVML_FI_DEV_TEMPERATURE_GPU_MAX_TLIMIT, K_TLIMIT_GPU_MAX,
     NVML_VALUE_TYPE_SIGNED_INT},
    {NVML_FI_DEV_PCIE_COUNT_TX_BYTES, K_PCIE_TX_BYTES,
     NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {NVML_FI_DEV_PCIE_COUNT_RX_BYTES, K_PCIE_RX_BYTES,
     NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {NVML_FI_DEV_GET_GPU_RECOVERY_ACTION, K_RECOVERY_ACTION,
     NVML_VALUE_TYPE_UNSIGNED_INT},
};

#define FIELD_MAP_LEN (sizeof(field_map) / sizeof(field_map[0]))
_Static_assert(FIELD_MAP_LEN < 256, "field_slot holds an index in a byte");

/* Field ID -> 1 + its first field_map index (0: not mapped), for IDs below
 * 256 (all of the map's): a linear search per element cost more than the
 * rest of the call, where a driver answers from a table. Filled once. */
static unsigned char field_slot[256];
static pthread_once_t field_slot_once = PTHREAD_ONCE_INIT;

static void field_slot_fill(void)
{
	for (size_t i = FIELD_MAP_LEN; i-- > 0;)
		if (field_map[i].id < sizeof(field_slot))
			field_slot[field_map[i].id] = (unsigned char)(i + 1);
}

static const struct field_map *find_field(unsigned int id)
{
	if (id < sizeof(field_slot)) {
		pthread_once(&field_slot_once, field_slot_fill);
		return field_slot[id] ? &field_map[field_slot[id] - 1] : NULL;
	}
	for (size_t i = 0; i < FIELD_MAP_LEN; i++)
		if (field_map[i].id == id)
			return &field_map[i];
	return NULL;
}

static nvmlReturn_t put_value(const struct fake_call *c, nvmlFieldValue_t *v,
                              nvmlValueType_t type, const struct fake_expr *e)
{
	double x = 0;
	nvmlReturn_t rc = fake_eval(e, fake_expr_time(c, e), &x);

	if (rc != NVML_SUCCESS)
		return rc;
	v->valueType = type;
	switch (type) {
	case NVML_VALUE_TYPE_SIGNED_INT:
		v->value.siVal = (int)(x < 0 ? x - 0.5 : x + 0.5);
		break;
	case NVML_VALUE_TYPE_UNSIGNED_INT:
		v->value.uiVal = x > 0 ? (unsigned int)(x + 0.5) : 0;
		break;
	default:
		v->valueType = NVML_VALUE_TYPE_UNSIGNED_LONG_LONG;
		v->value.ullVal = x > 0 ? (unsigned long long)(x + 0.5) : 0;
		break;
	}
	return NVML_SUCCESS;
}

/* Fields computed from more than one key. */
static nvmlReturn_t derived_field(const struct fake_call *c,
                                  nvmlFieldValue_t *v)
{
	unsigned int u = 0;
	nvmlReturn_t rc;

	switch (v->fieldId) {
	case NVML_FI_DEV_ECC_PENDING:
		rc = fake_get_u(c, K_ECC_PENDING, &u);
		if (rc == NVML_ERROR_NOT_SUPPORTED &&
		    !fake_key_is_set(c->dev, K_ECC_PENDING))
			rc = fake_get_u(c, K_ECC_MODE, &u);
		break;
	case NVML_FI_DEV_POWER_INSTANT:
		rc = fake_get_u(c, K_POWER_INSTANT, &u);
		if (rc == NVML_ERROR_NOT_SUPPORTED &&
		    !fake_key_is_set(c->dev, K_POWER_INSTANT))
			rc = fake_get_u(c, K_POWER, &u);
		break;
	case NVML_FI_DEV_POWER_CURRENT_LIMIT:
		rc = fake_enforced_limit(c, &u);
		break;
	default:
		return NVML_ERROR_NOT_SUPPORTED;
	}
	if (rc == NVML_SUCCESS) {
		v->valueType = NVML_VALUE_TYPE_UNSIGNED_INT;
		v->value.uiVal = u;
	}
	return rc;
}

static void one_field(const struct fake_call *c, nvmlFieldValue_t *v,
                      long long now_us)
{
	const struct fake_dev *d = c->dev;
	const struct field_map *m = find_field(v->fieldId);
	nvmlValueType_t type =
	    m != NULL ? m->type : NVML_VALUE_TYPE_UNSIGNED_LONG_LONG;
	nvmlReturn_t rc = NVML_ERROR_NOT_SUPPORTED;
	int overridden = 0;

	v->timestamp = now_us;
	v->latencyUsec = 0;
	memset(&v->value, 0, sizeof(v->value));
	for (unsigned int i = 0; i < d->nfields; i++) {
		if (d->fields[i].id == v->fieldId) {
			rc = put_value(c, v, type, &d->fields[i].e);
			overridden = 1;
		}
	}
	if (!overridden) {
		if (m != NULL)
			rc = put_value(c, v, m->type, &d->e[m->key]);
		else
			rc = derived_field(c, v);
	}
	v->nvmlReturn = rc;
}

/* SUCCESS once the array is processed; each element has its own status
 * (unknown or unsupported IDs: NOT_SUPPORTED). */
nvmlReturn_t nvmlDeviceGetFieldValues(nvmlDevice_t device, int valuesCount,
                                      nvmlFieldValue_t *values)
{
	struct fake_call c;
	long long now;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetFieldValues, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (valuesCount < 0 || (valuesCount > 0 && values == NULL))
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	now = (long long)fake_wall_us();
	for (int i = 0; i < valuesCount; i++) {
		fake_count_field(values[i].fieldId);
		one_field(&c, &values[i], now);
	}
	return fake_leave(NVML_SUCCESS);
}

static nvmlReturn_t sample_key(const struct fake_call *c,
                               nvmlSamplingType_t type, enum fake_key *k)
{
	static const enum fake_key keys[] = {
	    [NVML_TOTAL_POWER_SAMPLES] = K_POWER,
	    [NVML_GPU_UTILIZATION_SAMPLES] = K_UTIL_GPU,
	    [NVML_MEMORY_UTILIZATION_SAMPLES] = K_UTIL_MEM,
	    [NVML_ENC_UTILIZATION_SAMPLES] = K_UTIL_ENC,
	    [NVML_DEC_UTILIZATION_SAMPLES] = K_UTIL_DEC,
	    [NVML_PROCESSOR_CLK_SAMPLES] = K_CLK_GRAPHICS,
	    [NVML_MEMORY_CLK_SAMPLES] = K_CLK_MEM,
	    [NVML_MODULE_POWER_SAMPLES] = K_COUNT,
	    [NVML_JPG_UTILIZATION_SAMPLES] = K_UTIL_JPG,
	    [NVML_OFA_UTILIZATION_SAMPLES] = K_UTIL_OFA,
	};
	int util;

	if ((unsigned int)type >= NVML_SAMPLINGTYPE_COUNT)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (keys[type] == K_COUNT)
		return NVML_ERROR_NOT_SUPPORTED;
	util = type != NVML_TOTAL_POWER_SAMPLES &&
	       type != NVML_PROCESSOR_CLK_SAMPLES &&
	       type != NVML_MEMORY_CLK_SAMPLES;
	if (util && fake_mig_enabled(c))
		return NVML_ERROR_NOT_SUPPORTED;
	if (!fake_key_is_set(c->dev, keys[type]))
		return NVML_ERROR_NOT_SUPPORTED;
	if (c->dev->e[keys[type]].kind == EXPR_ERROR)
		return c->dev->e[keys[type]].rc;
	*k = keys[type];
	return NVML_SUCCESS;
}

/*
 * Samples are taken every sample_period_ms (wall-clock aligned) since
 * init; the newest FAKE_SAMPLE_HISTORY are kept. A NULL buffer asks for
 * the count; a short buffer answers INSUFFICIENT_SIZE; nothing newer than
 * lastSeenTimeStamp answers NOT_FOUND.
 */
nvmlReturn_t nvmlDeviceGetSamples(nvmlDevice_t device, nvmlSamplingType_t type,
                                  unsigned long long lastSeenTimeStamp,
                                  nvmlValueType_t *sampleValType,
                                  unsigned int *sampleCount,
                                  nvmlSample_t *samples)
{
	struct fake_call c;
	enum fake_key k = K_COUNT;
	unsigned long long period, now, init, first, newest, oldest;
	unsigned int n = 0, v;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetSamples, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (sampleValType == NULL || sampleCount == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = sample_key(&c, type, &k);
	if (rc != NVML_SUCCESS)
		return fake_leave(rc);
	period = c.sc->sample_period_ms * 1000ULL;
	now = fake_wall_us();
	init = fake_init_wall_us();
	newest = now - now % period;
	first = init + (period - init % period) % period;
	oldest = newest >= (FAKE_SAMPLE_HISTORY - 1) * period
	             ? newest - (FAKE_SAMPLE_HISTORY - 1) * period
	             : 0;
	if (oldest < first)
		oldest = first;
	while (oldest <= lastSeenTimeStamp && oldest <= newest)
		oldest += period;
	if (newest >= oldest)
		n = (unsigned int)((newest - oldest) / period + 1);
	*sampleValType = NVML_VALUE_TYPE_UNSIGNED_INT;
	if (n == 0) {
		*sampleCount = 0;
		return fake_leave(NVML_ERROR_NOT_FOUND);
	}
	if (samples == NULL) {
		*sampleCount = n;
		return fake_leave(NVML_SUCCESS);
	}
	if (*sampleCount < n) {
		*sampleCount = n;
		return fake_leave(NVML_ERROR_INSUFFICIENT_SIZE);
	}
	for (unsigned int i = 0; i < n; i++) {
		unsigned long long ts = oldest + i * period;

		v = 0;
		(void)fake_get_u_at(c.dev, k, (double)(ts - init) / 1e6, &v);
		memset(&samples[i], 0, sizeof(samples[i]));
		samples[i].timeStamp = ts;
		samples[i].sampleValue.uiVal = v;
	}
	*sampleCount = n;
	return fake_leave(NVML_SUCCESS);
}

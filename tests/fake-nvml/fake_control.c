/* SPDX-License-Identifier: MIT */
/*
 * fake_control.c - exported fan queries and every setter (fan policy and
 * speed, default fan speed, power limit v1/v2, persistence mode).
 *
 * Setters change the scenario's state (until the last nvmlShutdown), need
 * the scenario's "privileged yes", and append one line per call to the log
 * named by GPUTOP_FAKE_NVML_LOG, whatever the outcome. Order of checks:
 * init and handle, feature supported, fan index, privilege, value range;
 * so an unprivileged caller gets NO_PERMISSION for any valid fan/feature.
 */
#include "fake.h"

#define FAKE_DEFAULT_MAX_RPM 3000u

/* Number of fan controllers; NOT_SUPPORTED on passively cooled boards. */
static nvmlReturn_t fan_count(const struct fake_call *c, unsigned int *n)
{
	nvmlReturn_t rc = fake_get_u(c, K_FANS, n);

	if (rc == NVML_SUCCESS && *n == 0)
		rc = NVML_ERROR_NOT_SUPPORTED;
	return rc;
}

static nvmlReturn_t check_fan(const struct fake_call *c, unsigned int fan)
{
	unsigned int n = 0;
	nvmlReturn_t rc = fan_count(c, &n);

	if (rc == NVML_SUCCESS && fan >= n)
		rc = NVML_ERROR_INVALID_ARGUMENT;
	return rc;
}

/* The intended speed: the manual setting, else the automatic curve. */
static nvmlReturn_t fan_speed(const struct fake_call *c, unsigned int fan,
                              unsigned int *out)
{
	nvmlReturn_t rc = check_fan(c, fan);

	if (rc != NVML_SUCCESS)
		return rc;
	if (c->dev->fan_policy[fan] == NVML_FAN_POLICY_MANUAL) {
		*out = c->dev->fan_manual[fan];
		return NVML_SUCCESS;
	}
	return fake_get_u(c, (enum fake_key)(K_FAN_0 + (int)fan), out);
}

static nvmlReturn_t fan_query(enum fake_fn fn, nvmlDevice_t device,
                              unsigned int fan, unsigned int *out)
{
	struct fake_call c;
	unsigned int v = 0;
	nvmlReturn_t rc = fake_enter_dev(fn, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (out == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = fan_speed(&c, fan, &v);
	if (rc == NVML_SUCCESS)
		*out = v;
	return fake_leave(rc);
}

nvmlReturn_t nvmlDeviceGetNumFans(nvmlDevice_t device, unsigned int *numFans)
{
	struct fake_call c;
	unsigned int n = 0;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetNumFans, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (numFans == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = fan_count(&c, &n);
	if (rc == NVML_SUCCESS)
		*numFans = n;
	return fake_leave(rc);
}

nvmlReturn_t nvmlDeviceGetFanSpeed(nvmlDevice_t device, unsigned int *speed)
{
	return fan_query(FN_nvmlDeviceGetFanSpeed, device, 0, speed);
}

nvmlReturn_t nvmlDeviceGetFanSpeed_v2(nvmlDevice_t device, unsigned int fan,
                                      unsigned int *speed)
{
	return fan_query(FN_nvmlDeviceGetFanSpeed_v2, device, fan, speed);
}

nvmlReturn_t nvmlDeviceGetTargetFanSpeed(nvmlDevice_t device, unsigned int fan,
                                         unsigned int *targetSpeed)
{
	return fan_query(FN_nvmlDeviceGetTargetFanSpeed, device, fan,
	                 targetSpeed);
}

/* Under manual control RPM follows the set speed linearly from
 * fan.max_rpm; under automatic control it is the scenario's fan_rpm.N. */
nvmlReturn_t nvmlDeviceGetFanSpeedRPM(nvmlDevice_t device,
                                      nvmlFanSpeedInfo_t *fanSpeed)
{
	struct fake_call c;
	unsigned int rpm = 0, max_rpm = FAKE_DEFAULT_MAX_RPM, fan;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetFanSpeedRPM, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (fanSpeed == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	if (fanSpeed->version != GT_NVML_FAN_SPEED_INFO_V1_VERSION)
		return fake_leave(NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
	fan = fanSpeed->fan;
	rc = check_fan(&c, fan);
	if (rc != NVML_SUCCESS)
		return fake_leave(rc);
	if (c.dev->fan_policy[fan] == NVML_FAN_POLICY_MANUAL) {
		(void)fake_get_u(&c, K_FAN_MAX_RPM, &max_rpm);
		rpm = (unsigned int)((unsigned long long)max_rpm *
		                     c.dev->fan_manual[fan] / 100u);
	} else {
		rc = fake_get_u(&c, (enum fake_key)(K_FAN_RPM_0 + (int)fan),
		                &rpm);
	}
	if (rc == NVML_SUCCESS)
		fanSpeed->speed = rpm;
	return fake_leave(rc);
}

nvmlReturn_t nvmlDeviceGetMinMaxFanSpeed(nvmlDevice_t device,
                                         unsigned int *minSpeed,
                                         unsigned int *maxSpeed)
{
	struct fake_call c;
	unsigned int lo = 0, hi = 0;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetMinMaxFanSpeed, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (minSpeed == NULL || maxSpeed == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = fan_count(&c, &lo);
	if (rc == NVML_SUCCESS)
		rc = fake_get_u(&c, K_FAN_MIN, &lo);
	if (rc == NVML_SUCCESS)
		rc = fake_get_u(&c, K_FAN_MAX, &hi);
	if (rc == NVML_SUCCESS) {
		*minSpeed = lo;
		*maxSpeed = hi;
	}
	return fake_leave(rc);
}

nvmlReturn_t nvmlDeviceGetFanControlPolicy_v2(nvmlDevice_t device,
                                              unsigned int fan,
                                              nvmlFanControlPolicy_t *policy)
{
	struct fake_call c;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetFanControlPolicy_v2, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (policy == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = check_fan(&c, fan);
	if (rc == NVML_SUCCESS)
		*policy = c.dev->fan_policy[fan];
	return fake_leave(rc);
}

nvmlReturn_t nvmlDeviceGetCoolerInfo(nvmlDevice_t device,
                                     nvmlCoolerInfo_t *coolerInfo)
{
	struct fake_call c;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetCoolerInfo, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (coolerInfo == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	if (coolerInfo->version != GT_NVML_COOLER_INFO_V1_VERSION)
		return fake_leave(NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
	rc = check_fan(&c, coolerInfo->index);
	if (rc == NVML_SUCCESS) {
		coolerInfo->signalType = NVML_THERMAL_COOLER_SIGNAL_VARIABLE;
		coolerInfo->target = NVML_THERMAL_COOLER_TARGET_GPU_RELATED;
	}
	return fake_leave(rc);
}

static nvmlReturn_t privileged(const struct fake_call *c)
{
	return c->sc->privileged ? NVML_SUCCESS : NVML_ERROR_NO_PERMISSION;
}

/* Switching to MANUAL keeps the fan where the automatic curve had it. */
static nvmlReturn_t set_policy(struct fake_call *c, unsigned int fan,
                               nvmlFanControlPolicy_t policy)
{
	struct fake_dev *d = c->dev;
	unsigned int cur = 0;
	nvmlReturn_t rc = check_fan(c, fan);

	if (rc == NVML_SUCCESS)
		rc = privileged(c);
	if (rc != NVML_SUCCESS)
		return rc;
	if (policy != NVML_FAN_POLICY_TEMPERATURE_CONTINOUS_SW &&
	    policy != NVML_FAN_POLICY_MANUAL)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (policy == NVML_FAN_POLICY_MANUAL &&
	    d->fan_policy[fan] != NVML_FAN_POLICY_MANUAL) {
		if (fan_speed(c, fan, &cur) != NVML_SUCCESS)
			(void)fake_get_u(c, K_FAN_MIN, &cur);
		d->fan_manual[fan] = cur;
	}
	d->fan_policy[fan] = policy;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceSetFanControlPolicy(nvmlDevice_t device,
                                           unsigned int fan,
                                           nvmlFanControlPolicy_t policy)
{
	struct fake_call c;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceSetFanControlPolicy, device, 0, &c);

	if (rc == NVML_SUCCESS)
		rc = fake_leave(set_policy(&c, fan, policy));
	fake_log_setter("nvmlDeviceSetFanControlPolicy", device, rc,
	                "fan=%u policy=%u", fan, policy);
	return rc;
}

/* Accepts [fan.min, fan.max] (0..100 when the scenario gives no range)
 * and forces the MANUAL policy, as the real call does. */
static nvmlReturn_t set_fan_speed(struct fake_call *c, unsigned int fan,
                                  unsigned int speed)
{
	unsigned int lo = 0, hi = 100;
	nvmlReturn_t rc = check_fan(c, fan);

	if (rc == NVML_SUCCESS)
		rc = privileged(c);
	if (rc != NVML_SUCCESS)
		return rc;
	(void)fake_get_u(c, K_FAN_MIN, &lo);
	(void)fake_get_u(c, K_FAN_MAX, &hi);
	if (speed < lo || speed > hi)
		return NVML_ERROR_INVALID_ARGUMENT;
	c->dev->fan_policy[fan] = NVML_FAN_POLICY_MANUAL;
	c->dev->fan_manual[fan] = speed;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceSetFanSpeed_v2(nvmlDevice_t device, unsigned int fan,
                                      unsigned int speed)
{
	struct fake_call c;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceSetFanSpeed_v2, device, 0, &c);

	if (rc == NVML_SUCCESS)
		rc = fake_leave(set_fan_speed(&c, fan, speed));
	fake_log_setter("nvmlDeviceSetFanSpeed_v2", device, rc,
	                "fan=%u speed=%u", fan, speed);
	return rc;
}

static nvmlReturn_t set_default_fan(struct fake_call *c, unsigned int fan)
{
	nvmlReturn_t rc = check_fan(c, fan);

	if (rc == NVML_SUCCESS)
		rc = privileged(c);
	if (rc == NVML_SUCCESS)
		c->dev->fan_policy[fan] =
		    NVML_FAN_POLICY_TEMPERATURE_CONTINOUS_SW;
	return rc;
}

nvmlReturn_t nvmlDeviceSetDefaultFanSpeed_v2(nvmlDevice_t device,
                                             unsigned int fan)
{
	struct fake_call c;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceSetDefaultFanSpeed_v2, device, 0, &c);

	if (rc == NVML_SUCCESS)
		rc = fake_leave(set_default_fan(&c, fan));
	fake_log_setter("nvmlDeviceSetDefaultFanSpeed_v2", device, rc, "fan=%u",
	                fan);
	return rc;
}

/* The limit must lie in [power.min, power.max]; the enforced limit then
 * follows, lowered by power.oob_cap if the scenario sets one. */
static nvmlReturn_t set_power_limit(struct fake_call *c, unsigned int limit)
{
	unsigned int cur = 0, lo = 0, hi = 0;
	nvmlReturn_t rc = fake_get_u(c, K_POWER_LIMIT, &cur);

	if (rc == NVML_SUCCESS)
		rc = fake_get_u(c, K_POWER_MIN, &lo);
	if (rc == NVML_SUCCESS)
		rc = fake_get_u(c, K_POWER_MAX, &hi);
	if (rc == NVML_SUCCESS)
		rc = privileged(c);
	if (rc != NVML_SUCCESS)
		return rc;
	if (limit < lo || limit > hi)
		return NVML_ERROR_INVALID_ARGUMENT;
	fake_set_const(&c->dev->e[K_POWER_LIMIT], limit);
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceSetPowerManagementLimit(nvmlDevice_t device,
                                               unsigned int limit)
{
	struct fake_call c;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceSetPowerManagementLimit, device, 0, &c);

	if (rc == NVML_SUCCESS)
		rc = fake_leave(set_power_limit(&c, limit));
	fake_log_setter("nvmlDeviceSetPowerManagementLimit", device, rc,
	                "limit=%u", limit);
	return rc;
}

/* Only the GPU scope is modelled (module scope exists on Grace-Hopper). */
nvmlReturn_t
nvmlDeviceSetPowerManagementLimit_v2(nvmlDevice_t device,
                                     nvmlPowerValue_v2_t *powerValue)
{
	struct fake_call c;
	nvmlReturn_t rc = fake_enter_dev(
	    FN_nvmlDeviceSetPowerManagementLimit_v2, device, 0, &c);

	if (rc == NVML_SUCCESS) {
		if (powerValue == NULL)
			rc = NVML_ERROR_INVALID_ARGUMENT;
		else if (powerValue->version != GT_NVML_POWER_VALUE_V2_VERSION)
			rc = NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
		else if (powerValue->powerScope != NVML_POWER_SCOPE_GPU)
			rc = NVML_ERROR_NOT_SUPPORTED;
		else
			rc = set_power_limit(&c, powerValue->powerValueMw);
		rc = fake_leave(rc);
	}
	if (powerValue != NULL)
		fake_log_setter("nvmlDeviceSetPowerManagementLimit_v2", device,
		                rc, "scope=%u limit=%u",
		                (unsigned int)powerValue->powerScope,
		                powerValue->powerValueMw);
	else
		fake_log_setter("nvmlDeviceSetPowerManagementLimit_v2", device,
		                rc, "limit=?");
	return rc;
}

static nvmlReturn_t set_persistence(struct fake_call *c, nvmlEnableState_t mode)
{
	unsigned int cur = 0;
	nvmlReturn_t rc = fake_get_u(c, K_PERSISTENCE, &cur);

	if (rc == NVML_SUCCESS)
		rc = privileged(c);
	if (rc != NVML_SUCCESS)
		return rc;
	if (mode != NVML_FEATURE_DISABLED && mode != NVML_FEATURE_ENABLED)
		return NVML_ERROR_INVALID_ARGUMENT;
	fake_set_const(&c->dev->e[K_PERSISTENCE], mode);
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceSetPersistenceMode(nvmlDevice_t device,
                                          nvmlEnableState_t mode)
{
	struct fake_call c;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceSetPersistenceMode, device, 0, &c);

	if (rc == NVML_SUCCESS)
		rc = fake_leave(set_persistence(&c, mode));
	fake_log_setter("nvmlDeviceSetPersistenceMode", device, rc, "mode=%u",
	                (unsigned int)mode);
	return rc;
}

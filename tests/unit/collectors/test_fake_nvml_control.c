/* SPDX-License-Identifier: MIT */
/*
 * test_fake_nvml_control.c - cmocka tests of the setters and fan queries
 * of the fake libnvidia-ml.so.1 (tests/fake-nvml/fake_control.c), loaded
 * with dlopen as gputop's client loads the real one
 * (support/fake_nvml_test.h): privileged and unprivileged setters and the
 * setter log they write, and fan control.
 *
 * Needs GPUTOP_FAKE_NVML_LIB (path of the built library) and
 * GPUTOP_SCENARIO_DIR (tests/fake-nvml/scenarios).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collectors/nvml_abi.h"
#include "support/fake_nvml_test.h"

static void test_setters_privileged(void **state)
{
	char log[128], text[4096];
	nvmlPowerValue_v2_t pv;
	nvmlEnableState_t mode;
	unsigned int limit = 0;
	nvmlDevice_t d;

	(void)state;
	temp_path(log, sizeof(log), "log");
	setenv("GPUTOP_FAKE_NVML_LOG", log, 1);
	init_with("h100x8.scn");
	d = gpu(1);

	assert_int_equal(f.nvmlDeviceSetPowerManagementLimit(d, 300000),
	                 NVML_SUCCESS);
	assert_int_equal(f.nvmlDeviceGetPowerManagementLimit(d, &limit),
	                 NVML_SUCCESS);
	assert_int_equal(limit, 300000);
	assert_int_equal(f.nvmlDeviceGetEnforcedPowerLimit(d, &limit),
	                 NVML_SUCCESS);
	assert_int_equal(limit, 300000);
	assert_int_equal(f.nvmlDeviceSetPowerManagementLimit(d, 100000),
	                 NVML_ERROR_INVALID_ARGUMENT);

	memset(&pv, 0, sizeof(pv));
	pv.version = 1;
	pv.powerScope = NVML_POWER_SCOPE_GPU;
	pv.powerValueMw = 650000;
	assert_int_equal(f.nvmlDeviceSetPowerManagementLimit_v2(d, &pv),
	                 NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
	pv.version = GT_NVML_POWER_VALUE_V2_VERSION;
	assert_int_equal(f.nvmlDeviceSetPowerManagementLimit_v2(d, &pv),
	                 NVML_SUCCESS);
	assert_int_equal(f.nvmlDeviceGetPowerManagementLimit(d, &limit),
	                 NVML_SUCCESS);
	assert_int_equal(limit, 650000);

	assert_int_equal(
	    f.nvmlDeviceSetPersistenceMode(d, NVML_FEATURE_DISABLED),
	    NVML_SUCCESS);
	assert_int_equal(f.nvmlDeviceGetPersistenceMode(d, &mode),
	                 NVML_SUCCESS);
	assert_int_equal(mode, NVML_FEATURE_DISABLED);
	/* H100 has no fans to set. */
	assert_int_equal(f.nvmlDeviceSetFanSpeed_v2(d, 0, 50),
	                 NVML_ERROR_NOT_SUPPORTED);

	read_file(log, text, sizeof(text));
	assert_string_equal(
	    text, "nvmlDeviceSetPowerManagementLimit dev=1 limit=300000 -> 0\n"
	          "nvmlDeviceSetPowerManagementLimit dev=1 limit=100000 -> 2\n"
	          "nvmlDeviceSetPowerManagementLimit_v2 dev=1 scope=0 "
	          "limit=650000 -> 25\n"
	          "nvmlDeviceSetPowerManagementLimit_v2 dev=1 scope=0 "
	          "limit=650000 -> 0\n"
	          "nvmlDeviceSetPersistenceMode dev=1 mode=0 -> 0\n"
	          "nvmlDeviceSetFanSpeed_v2 dev=1 fan=0 speed=50 -> 3\n");
	unlink(log);
}

static void test_setters_unprivileged(void **state)
{
	char log[128], text[4096];
	nvmlFanControlPolicy_t policy = 99;
	unsigned int limit = 0;
	nvmlDevice_t d;

	(void)state;
	temp_path(log, sizeof(log), "log");
	setenv("GPUTOP_FAKE_NVML_LOG", log, 1);
	init_with("unprivileged.scn");
	d = gpu(0);

	assert_int_equal(f.nvmlDeviceSetPowerManagementLimit(d, 300000),
	                 NVML_ERROR_NO_PERMISSION);
	assert_int_equal(f.nvmlDeviceGetPowerManagementLimit(d, &limit),
	                 NVML_SUCCESS);
	assert_int_equal(limit, 450000);
	assert_int_equal(f.nvmlDeviceSetFanSpeed_v2(d, 0, 60),
	                 NVML_ERROR_NO_PERMISSION);
	assert_int_equal(f.nvmlDeviceGetFanControlPolicy_v2(d, 0, &policy),
	                 NVML_SUCCESS);
	assert_int_equal(policy, NVML_FAN_POLICY_TEMPERATURE_CONTINOUS_SW);
	assert_int_equal(f.nvmlDeviceSetDefaultFanSpeed_v2(d, 1),
	                 NVML_ERROR_NO_PERMISSION);
	assert_int_equal(
	    f.nvmlDeviceSetPersistenceMode(d, NVML_FEATURE_DISABLED),
	    NVML_ERROR_NO_PERMISSION);
	assert_string_equal(f.nvmlErrorString(NVML_ERROR_NO_PERMISSION),
	                    "Insufficient Permissions");

	read_file(log, text, sizeof(text));
	assert_string_equal(
	    text, "nvmlDeviceSetPowerManagementLimit dev=0 limit=300000 -> 4\n"
	          "nvmlDeviceSetFanSpeed_v2 dev=0 fan=0 speed=60 -> 4\n"
	          "nvmlDeviceSetDefaultFanSpeed_v2 dev=0 fan=1 -> 4\n"
	          "nvmlDeviceSetPersistenceMode dev=0 mode=0 -> 4\n");
	unlink(log);
}

static void test_fan_control(void **state)
{
	nvmlFanControlPolicy_t policy = 99;
	nvmlFanSpeedInfo_t rpm;
	unsigned int n = 0, speed = 0;
	nvmlDevice_t d;

	(void)state;
	init_with("rtx4090.scn");
	d = gpu(0);
	assert_int_equal(f.nvmlDeviceGetNumFans(d, &n), NVML_SUCCESS);
	assert_int_equal(n, 2);
	assert_int_equal(
	    f.nvmlDeviceSetFanSpeed_v2(d, 0, 20),
	    NVML_ERROR_INVALID_ARGUMENT); /* below the 30 % minimum */
	assert_int_equal(f.nvmlDeviceSetFanSpeed_v2(d, 2, 60),
	                 NVML_ERROR_INVALID_ARGUMENT); /* no third fan */
	assert_int_equal(f.nvmlDeviceSetFanSpeed_v2(d, 0, 60), NVML_SUCCESS);
	assert_int_equal(f.nvmlDeviceGetFanControlPolicy_v2(d, 0, &policy),
	                 NVML_SUCCESS);
	assert_int_equal(policy, NVML_FAN_POLICY_MANUAL);
	assert_int_equal(f.nvmlDeviceGetFanSpeed_v2(d, 0, &speed),
	                 NVML_SUCCESS);
	assert_int_equal(speed, 60);

	memset(&rpm, 0, sizeof(rpm));
	rpm.version = 1;
	assert_int_equal(f.nvmlDeviceGetFanSpeedRPM(d, &rpm),
	                 NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
	rpm.version = GT_NVML_FAN_SPEED_INFO_V1_VERSION;
	assert_int_equal(f.nvmlDeviceGetFanSpeedRPM(d, &rpm), NVML_SUCCESS);
	assert_int_equal(rpm.speed, 3300 * 60 / 100);

	assert_int_equal(f.nvmlDeviceSetDefaultFanSpeed_v2(d, 0), NVML_SUCCESS);
	assert_int_equal(f.nvmlDeviceGetFanControlPolicy_v2(d, 0, &policy),
	                 NVML_SUCCESS);
	assert_int_equal(policy, NVML_FAN_POLICY_TEMPERATURE_CONTINOUS_SW);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_teardown(test_setters_privileged, test_teardown),
	    cmocka_unit_test_teardown(test_setters_unprivileged, test_teardown),
	    cmocka_unit_test_teardown(test_fan_control, test_teardown),
	};

	return cmocka_run_group_tests_name("fake_nvml_control", tests,
	                                   group_setup, group_teardown);
}

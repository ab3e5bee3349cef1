/* SPDX-License-Identifier: MIT */
/*
 * test_control_dialog.c - the power and fan dialogs' logic
 * (src/ui/control_dialog.c) without a terminal: presets per vendor, the
 * plan (only what differs from what is in force, with its revert), the
 * exact preview lines, refusals before anything is planned, and the
 * countdown's revert request.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "control/control_amdgpu.h"
#include "ui/control_dialog.h"

#define SEC 1000000000ull

static struct gt_control_caps nvidia_caps(void)
{
	struct gt_control_caps c;
	memset(&c, 0, sizeof(c));
	c.vendor = GT_VENDOR_NVIDIA;
	snprintf(c.dev, sizeof(c.dev), "0000:01:00.0");
	c.power.known = true;
	c.power.min = 100000;
	c.power.max = 600000;
	c.power.def = 450000;
	c.power.cur = 450000;
	c.profile_active = -1;
	c.fan_method = GT_FAN_METHOD_NVML_LOOP;
	c.fan_count = 2;
	c.fan_min_cpercent = 3000;
	c.fan_max_cpercent = 10000;
	return c;
}

static struct gt_control_caps amd_caps(void)
{
	struct gt_control_caps c;
	memset(&c, 0, sizeof(c));
	c.vendor = GT_VENDOR_AMD;
	snprintf(c.dev, sizeof(c.dev), "/sys/class/drm/card0/device");
	snprintf(c.hwmon, sizeof(c.hwmon),
	         "/sys/class/drm/card0/device/hwmon/hwmon4");
	snprintf(c.power_file, sizeof(c.power_file),
	         "/sys/class/drm/card0/device/hwmon/hwmon4/power1_cap");
	c.power.known = true;
	c.power.min = 1000000;
	c.power.max = 201000000;
	c.power.def = 155000000;
	c.power.cur = 155000000;
	c.has_level = true;
	snprintf(c.level, sizeof(c.level), "auto");
	c.nprofiles = 3;
	c.profiles[0] = (struct gt_control_profile){0, "BOOTUP_DEFAULT"};
	c.profiles[1] = (struct gt_control_profile){1, "3D_FULL_SCREEN"};
	c.profiles[2] = (struct gt_control_profile){5, "COMPUTE"};
	c.profile_active = 0;
	c.fan_method = GT_FAN_METHOD_AMD_PWM_LOOP;
	c.fan_count = 1;
	c.fan_min_cpercent = 0;
	c.fan_max_cpercent = 10000;
	return c;
}

static void test_nothing_changed_plans_nothing(void **state)
{
	struct gt_control_dialog d;
	struct gt_control_caps c = nvidia_caps();
	(void)state;

	gt_control_dialog_open(&d, GT_CONTROL_DIALOG_POWER, 0, &c, "");
	assert_int_equal(gt_control_dialog_plan(&d), 0);
	assert_int_equal(gt_control_dialog_key(&d, '\n', 0),
	                 GT_CONTROL_DIALOG_NOTHING);
	assert_int_equal(d.stage, GT_CONTROL_DIALOG_EDIT);
	assert_non_null(strstr(d.msg, "nothing to change"));
}

static void test_nvidia_presets(void **state)
{
	struct gt_control_dialog d;
	struct gt_control_caps c = nvidia_caps();
	(void)state;

	gt_control_dialog_open(&d, GT_CONTROL_DIALOG_POWER, 3, &c, "");
	gt_control_dialog_power_preset(&d, GT_POWER_SAVER);
	assert_int_equal(gt_control_dialog_plan(&d), 1);
	assert_int_equal(d.changes[0].kind, GT_CHANGE_POWER_LIMIT);
	assert_int_equal(d.changes[0].value, 315000); /* 70 % of 450 W */
	assert_int_equal(d.changes[0].device, 3);
	assert_string_equal(
	    d.preview, "nvmlDeviceSetPowerManagementLimit_v2(0000:01:00.0, "
	               "315000 mW)\n");
	assert_true(d.revert_known[0]);
	assert_int_equal(d.reverts[0].value, 450000);

	gt_control_dialog_power_preset(&d, GT_POWER_MAX);
	gt_control_dialog_plan(&d);
	assert_int_equal(d.changes[0].value, 600000);
	/* Auto is the default: nothing differs. */
	gt_control_dialog_power_preset(&d, GT_POWER_AUTO);
	assert_int_equal(gt_control_dialog_plan(&d), 0);
}

static void test_keys_step_and_clamp(void **state)
{
	struct gt_control_dialog d;
	struct gt_control_caps c = nvidia_caps();
	(void)state;

	gt_control_dialog_open(&d, GT_CONTROL_DIALOG_POWER, 0, &c, "");
	gt_control_dialog_key(&d, KEY_DOWN, 0); /* preset -> power */
	for (int i = 0; i < 10; i++)
		gt_control_dialog_key(&d, KEY_LEFT, 0);
	assert_int_equal(d.power, 400000);
	assert_int_equal(d.preset, GT_POWER_CUSTOM);
	for (int i = 0; i < 50; i++)
		gt_control_dialog_key(&d, KEY_RIGHT, 0);
	assert_int_equal(d.power, 600000);       /* clamped to the maximum */
	gt_control_dialog_key(&d, KEY_NPAGE, 0); /* 10 steps down */
	assert_int_equal(d.power, 550000);
}

static void test_confirm_countdown_revert(void **state)
{
	struct gt_control_dialog d;
	struct gt_control_caps c = nvidia_caps();
	struct gt_control_result ok, back;
	(void)state;

	memset(&ok, 0, sizeof(ok));
	snprintf(ok.asked, sizeof(ok.asked), "600000 mW");
	snprintf(ok.applied, sizeof(ok.applied), "600000 mW");
	back = ok;
	snprintf(back.asked, sizeof(back.asked), "450000 mW");
	snprintf(back.applied, sizeof(back.applied), "450000 mW");
	gt_control_dialog_open(&d, GT_CONTROL_DIALOG_POWER, 0, &c, "");
	gt_control_dialog_power_preset(&d, GT_POWER_MAX);
	gt_control_dialog_key(&d, '\n', 0);
	assert_int_equal(d.stage, GT_CONTROL_DIALOG_PREVIEW);
	assert_int_equal(gt_control_dialog_key(&d, 'y', 0),
	                 GT_CONTROL_DIALOG_APPLY);
	gt_control_dialog_applied(&d, &ok, 1, 100 * SEC);
	assert_int_equal(d.stage, GT_CONTROL_DIALOG_COUNTDOWN);
	assert_int_equal(gt_control_dialog_poll(&d, 109 * SEC),
	                 GT_CONTROL_DIALOG_NOTHING);
	assert_int_equal(gt_control_dialog_poll(&d, 110 * SEC),
	                 GT_CONTROL_DIALOG_REVERT);
	assert_false(d.results_reverted);
	assert_string_equal(d.results[0].applied, "600000 mW");
	gt_control_dialog_reverted(&d, &back, 1, true);
	assert_int_equal(d.stage, GT_CONTROL_DIALOG_DONE);
	assert_string_equal(d.msg, "not kept within 10 s: reverted");
	/* The change's read-back is stale: the revert's replaces it. */
	assert_true(d.results_reverted);
	assert_int_equal(d.nresults, 1);
	assert_string_equal(d.results[0].asked, "450000 mW");
	assert_string_equal(d.results[0].applied, "450000 mW");
	/* Keeping stops the countdown. */
	gt_control_dialog_open(&d, GT_CONTROL_DIALOG_POWER, 0, &c, "");
	gt_control_dialog_power_preset(&d, GT_POWER_MAX);
	gt_control_dialog_key(&d, '\n', 0);
	gt_control_dialog_key(&d, 'y', 0);
	gt_control_dialog_applied(&d, &ok, 1, 0);
	assert_int_equal(gt_control_dialog_key(&d, 'k', 0),
	                 GT_CONTROL_DIALOG_KEEP);
}

static void test_readonly_never_applies(void **state)
{
	struct gt_control_dialog d;
	struct gt_control_caps c = nvidia_caps();
	(void)state;

	gt_control_dialog_open(&d, GT_CONTROL_DIALOG_POWER, 0, &c,
	                       "changing GPU settings needs root");
	gt_control_dialog_power_preset(&d, GT_POWER_MAX);
	gt_control_dialog_key(&d, '\n', 0);
	assert_int_equal(d.stage, GT_CONTROL_DIALOG_PREVIEW); /* may look */
	assert_int_equal(gt_control_dialog_key(&d, 'y', 0),
	                 GT_CONTROL_DIALOG_NOTHING);
	assert_int_equal(d.stage, GT_CONTROL_DIALOG_EDIT);
	assert_non_null(strstr(d.msg, "needs root"));
}

static void test_amd_profile_needs_manual(void **state)
{
	struct gt_control_dialog d;
	struct gt_control_caps c = amd_caps();
	(void)state;

	gt_control_dialog_open(&d, GT_CONTROL_DIALOG_POWER, 0, &c, "");
	gt_control_dialog_key(&d, KEY_DOWN, 0); /* level */
	gt_control_dialog_key(&d, KEY_DOWN, 0); /* profile */
	gt_control_dialog_key(&d, KEY_RIGHT, 0);
	gt_control_dialog_key(&d, KEY_RIGHT, 0); /* COMPUTE (index 5) */
	assert_string_equal(gt_control_amdgpu_perf_levels[d.level], "manual");
	assert_int_equal(gt_control_dialog_plan(&d), 1);
	assert_int_equal(d.changes[0].kind, GT_CHANGE_POWER_PROFILE);
	assert_int_equal(d.changes[0].value, 5);
	assert_string_equal(
	    d.preview,
	    "/sys/class/drm/card0/device/power_dpm_force_performance_level "
	    "<- manual\n"
	    "/sys/class/drm/card0/device/pp_power_profile_mode <- 5\n");
	assert_int_equal(d.reverts[0].value, 0);

	/* Power saver: level low and 70 % of the default cap. */
	gt_control_dialog_power_preset(&d, GT_POWER_SAVER);
	assert_int_equal(gt_control_dialog_plan(&d), 2);
	assert_int_equal(d.changes[0].kind, GT_CHANGE_PERF_LEVEL);
	assert_string_equal(d.changes[0].text, "low");
	assert_string_equal(d.reverts[0].text, "auto");
	assert_int_equal(d.changes[1].kind, GT_CHANGE_POWER_LIMIT);
	assert_int_equal(d.changes[1].value, 108500000);
	assert_non_null(strstr(d.preview, "hwmon4/power1_cap <- 108500000"));
}

static void test_fan_plan(void **state)
{
	struct gt_control_dialog d;
	struct gt_control_caps c = nvidia_caps();
	(void)state;

	c.slowdown_mc = 85000;
	gt_control_dialog_open(&d, GT_CONTROL_DIALOG_FAN, 0, &c, "");
	assert_int_equal(gt_control_dialog_plan(&d), 1);
	assert_int_equal(d.changes[0].kind, GT_CHANGE_FAN_CURVE);
	/* The panic rule uses the device's own slowdown threshold. */
	assert_int_equal(d.changes[0].loop.panic_mc, 85000);
	assert_int_equal(d.changes[0].loop.min_cpercent, 3000);
	assert_int_equal(d.changes[0].loop.hysteresis_mc, 3000);
	assert_int_equal(d.changes[0].loop.down_delay_ns, 5 * SEC);
	assert_int_equal(d.changes[0].fan_mask, 0);
	assert_non_null(strstr(d.preview, "nvmlDeviceSetFanSpeed_v2("
	                                  "0000:01:00.0, fan 1, curve %)"));
	assert_non_null(strstr(d.preview, "below 40°C: "
	                                  "nvmlDeviceSetDefaultFanSpeed_v2("
	                                  "0000:01:00.0, fan 0)"));
	assert_int_equal(d.reverts[0].kind, GT_CHANGE_FAN_AUTO);

	/* One fan only. */
	d.field = 5; /* mode, preset, point, hysteresis, delay, fans */
	gt_control_dialog_key(&d, KEY_RIGHT, 0);
	assert_int_equal(d.fan_sel, 0);
	gt_control_dialog_plan(&d);
	assert_int_equal(d.changes[0].fan_mask, 1);
	assert_null(strstr(d.preview, "fan 1"));

	/* A curve made non-monotonic is refused before any plan. */
	d.point = 1;
	for (int i = 0; i < 20; i++)
		gt_control_dialog_key(&d, '-', 0); /* point 2 down to 0 % */
	d.stage = GT_CONTROL_DIALOG_EDIT;
	gt_control_dialog_key(&d, '\n', 0);
	assert_int_equal(d.stage, GT_CONTROL_DIALOG_EDIT);
	assert_non_null(strstr(d.msg, "refused"));
	assert_non_null(strstr(d.msg, "point 2"));

	/* Automatic. */
	gt_control_dialog_key(&d, 'a', 0);
	gt_control_dialog_plan(&d);
	assert_int_equal(d.changes[0].kind, GT_CHANGE_FAN_AUTO);
}

static void test_amd_firmware_curve_preview(void **state)
{
	struct gt_control_dialog d;
	struct gt_control_caps c = amd_caps();
	(void)state;

	c.fan_method = GT_FAN_METHOD_AMD_FIRMWARE;
	gt_control_dialog_open(&d, GT_CONTROL_DIALOG_FAN, 0, &c, "");
	gt_control_dialog_plan(&d);
	assert_non_null(strstr(d.preview, "/sys/class/drm/card0/device/gpu_od/"
	                                  "fan_ctrl/fan_curve <- 0 40 30\n"));
	assert_non_null(strstr(d.preview, "fan_curve <- 4 80 100\n"));
	assert_non_null(strstr(d.preview, "fan_curve <- c\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_nothing_changed_plans_nothing),
	    cmocka_unit_test(test_nvidia_presets),
	    cmocka_unit_test(test_keys_step_and_clamp),
	    cmocka_unit_test(test_confirm_countdown_revert),
	    cmocka_unit_test(test_readonly_never_applies),
	    cmocka_unit_test(test_amd_profile_needs_manual),
	    cmocka_unit_test(test_fan_plan),
	    cmocka_unit_test(test_amd_firmware_curve_preview),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * test_control_change.c - tests of the change preview and its opposite
 * (src/control/control_change.c): the exact lines
 * gt_control_change_describe gives for each change kind and vendor (the
 * NVML calls, the sysfs files in the order the setter writes them, the
 * fan loops' writes), what gt_control_change_revert_of can and cannot put
 * back, which fans a change drives, and the edges (a buffer too small, an
 * unknown kind, no fan count, more fans than gputop drives).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "control/control_session.h"

#define NV    "0000:01:00.0"
#define AMD   "/sys/class/drm/card0/device"
#define HWMON AMD "/hwmon/hwmon4"
#define INTEL "/sys/class/drm/card1/device"
#define GT0   "/sys/class/drm/card1/gt/gt0"

static struct gt_control_caps caps_nvidia(void)
{
	struct gt_control_caps c;

	memset(&c, 0, sizeof(c));
	c.vendor = GT_VENDOR_NVIDIA;
	snprintf(c.dev, sizeof(c.dev), NV);
	c.power =
	    (struct gt_control_range){true, 10000, 600000, 450000, 450000, ""};
	c.profile_active = -1;
	c.freq_min.cur = c.freq_max.cur = -1;
	c.fan_method = GT_FAN_METHOD_NVML_LOOP;
	c.fan_count = 2;
	return c;
}

static struct gt_control_caps caps_amd(enum gt_fan_method m)
{
	struct gt_control_caps c;

	memset(&c, 0, sizeof(c));
	c.vendor = GT_VENDOR_AMD;
	snprintf(c.dev, sizeof(c.dev), AMD);
	snprintf(c.hwmon, sizeof(c.hwmon), HWMON);
	snprintf(c.power_file, sizeof(c.power_file), HWMON "/power1_cap");
	c.power = (struct gt_control_range){true,      1000000,   201000000,
	                                    155000000, 155000000, ""};
	c.has_level = true;
	snprintf(c.level, sizeof(c.level), "auto");
	c.profile_active = 1;
	c.freq_min.cur = c.freq_max.cur = -1;
	c.fan_method = m;
	c.fan_count = 1;
	return c;
}

static struct gt_control_caps caps_intel(void)
{
	struct gt_control_caps c;

	memset(&c, 0, sizeof(c));
	c.vendor = GT_VENDOR_INTEL;
	snprintf(c.dev, sizeof(c.dev), INTEL);
	snprintf(c.power_file, sizeof(c.power_file),
	         INTEL "/hwmon/hwmon2/power1_max");
	snprintf(c.freq_min_file, sizeof(c.freq_min_file),
	         GT0 "/rps_min_freq_mhz");
	snprintf(c.freq_max_file, sizeof(c.freq_max_file),
	         GT0 "/rps_max_freq_mhz");
	c.power = (struct gt_control_range){true,      1000000,   190000000,
	                                    190000000, 190000000, ""};
	c.profile_active = -1;
	c.freq_min = (struct gt_control_range){true, 300, 2400, -1, 300, ""};
	c.freq_max = (struct gt_control_range){true, 300, 2400, -1, 1200, ""};
	return c;
}

static struct gt_control_change change(const struct gt_control_caps *c,
                                       enum gt_control_change_kind kind)
{
	struct gt_control_change ch;

	memset(&ch, 0, sizeof(ch));
	ch.kind = kind;
	ch.vendor = c->vendor;
	ch.device = 3;
	snprintf(ch.dev, sizeof(ch.dev), "%s", c->dev);
	ch.fan_method = c->fan_method;
	ch.fan_count = c->fan_count;
	return ch;
}

/* 40 °C 30 %, 80 °C 100 %. */
static struct gt_fancurve two_points(void)
{
	struct gt_fancurve c = {.n = 2};

	c.pt[0] = (struct gt_fan_point){40000, 3000};
	c.pt[1] = (struct gt_fan_point){80000, 10000};
	return c;
}

/* describe gives exactly want, in lines lines. */
static void expect(const struct gt_control_caps *c,
                   const struct gt_control_change *ch, size_t lines,
                   const char *want)
{
	char buf[2048];

	memset(buf, 'x', sizeof(buf));
	assert_int_equal(gt_control_change_describe(c, ch, buf, sizeof(buf)),
	                 lines);
	assert_string_equal(buf, want);
}

static void test_describe_power_limit(void **state)
{
	struct gt_control_caps nv = caps_nvidia(),
	                       amd = caps_amd(GT_FAN_METHOD_AMD_PWM_LOOP),
	                       in = caps_intel();
	struct gt_control_change ch = change(&nv, GT_CHANGE_POWER_LIMIT);
	(void)state;

	ch.value = 300000;
	expect(&nv, &ch, 1,
	       "nvmlDeviceSetPowerManagementLimit_v2(" NV ", 300000 mW)\n");
	ch = change(&amd, GT_CHANGE_POWER_LIMIT);
	ch.value = 150000000;
	expect(&amd, &ch, 1, HWMON "/power1_cap <- 150000000\n");
	ch = change(&in, GT_CHANGE_POWER_LIMIT);
	ch.value = 100000000;
	expect(&in, &ch, 1, INTEL "/hwmon/hwmon2/power1_max <- 100000000\n");
}

static void test_describe_level_and_profile(void **state)
{
	struct gt_control_caps amd = caps_amd(GT_FAN_METHOD_AMD_PWM_LOOP);
	struct gt_control_change ch = change(&amd, GT_CHANGE_PERF_LEVEL);
	(void)state;

	snprintf(ch.text, sizeof(ch.text), "high");
	expect(&amd, &ch, 1,
	       AMD "/power_dpm_force_performance_level <- high\n");
	/* A profile needs the manual level first, unless it is in force. */
	ch = change(&amd, GT_CHANGE_POWER_PROFILE);
	ch.value = 5;
	expect(&amd, &ch, 2,
	       AMD "/power_dpm_force_performance_level <- manual\n" AMD
	           "/pp_power_profile_mode <- 5\n");
	snprintf(amd.level, sizeof(amd.level), "manual");
	expect(&amd, &ch, 1, AMD "/pp_power_profile_mode <- 5\n");
}

static void test_describe_freq_limits_order(void **state)
{
	struct gt_control_caps in = caps_intel(); /* 300-1200 in force */
	struct gt_control_change ch = change(&in, GT_CHANGE_FREQ_LIMITS);
	(void)state;

	/* Both lower than the maximum in force: the minimum first. */
	ch.value = 600;
	ch.value2 = 1800;
	expect(&in, &ch, 2,
	       GT0 "/rps_min_freq_mhz <- 600\n" GT0
	           "/rps_max_freq_mhz <- 1800\n");
	/* A minimum above the maximum in force: the maximum first. */
	ch.value = 1500;
	ch.value2 = 2000;
	expect(&in, &ch, 2,
	       GT0 "/rps_max_freq_mhz <- 2000\n" GT0
	           "/rps_min_freq_mhz <- 1500\n");
	/* A limit already in force is not written. */
	ch.value = 300;
	ch.value2 = 1000;
	expect(&in, &ch, 1, GT0 "/rps_max_freq_mhz <- 1000\n");
	ch.value2 = 1200;
	expect(&in, &ch, 0, "");
}

static void test_describe_fan_auto(void **state)
{
	struct gt_control_caps nv = caps_nvidia(),
	                       pwm = caps_amd(GT_FAN_METHOD_AMD_PWM_LOOP),
	                       fw = caps_amd(GT_FAN_METHOD_AMD_FIRMWARE);
	struct gt_control_change ch = change(&nv, GT_CHANGE_FAN_AUTO);
	(void)state;

	expect(&nv, &ch, 2,
	       "nvmlDeviceSetDefaultFanSpeed_v2(" NV ", fan 0)\n"
	       "nvmlDeviceSetDefaultFanSpeed_v2(" NV ", fan 1)\n");
	ch.fan_count = 3;
	ch.fan_mask = 0x5; /* fans 0 and 2 */
	expect(&nv, &ch, 2,
	       "nvmlDeviceSetDefaultFanSpeed_v2(" NV ", fan 0)\n"
	       "nvmlDeviceSetDefaultFanSpeed_v2(" NV ", fan 2)\n");
	ch = change(&pwm, GT_CHANGE_FAN_AUTO);
	expect(&pwm, &ch, 1, HWMON "/pwm1_enable <- 2\n");
	ch = change(&fw, GT_CHANGE_FAN_AUTO);
	expect(&fw, &ch, 2,
	       AMD "/gpu_od/fan_ctrl/fan_curve <- r\n" AMD
	           "/gpu_od/fan_ctrl/fan_curve <- c\n");
}

static void test_describe_fan_curve(void **state)
{
	struct gt_control_caps nv = caps_nvidia(),
	                       pwm = caps_amd(GT_FAN_METHOD_AMD_PWM_LOOP),
	                       fw = caps_amd(GT_FAN_METHOD_AMD_FIRMWARE);
	struct gt_control_change ch = change(&nv, GT_CHANGE_FAN_CURVE);
	static const int pts[5][2] = {
	    {50, 35}, {60, 45}, {70, 60}, {80, 80}, {90, 100}};
	(void)state;

	ch.curve = two_points();
	ch.fan_mask = 0x2; /* fan 1 only */
	expect(&nv, &ch, 3,
	       "curve: 40°C→30%  80°C→100%\n"
	       "each second: nvmlDeviceSetFanSpeed_v2(" NV ", fan 1, curve "
	       "%) when it changes\n"
	       "below 40°C: nvmlDeviceSetDefaultFanSpeed_v2(" NV ", fan 1)\n");
	ch = change(&pwm, GT_CHANGE_FAN_CURVE);
	ch.curve = two_points();
	expect(&pwm, &ch, 4,
	       "curve: 40°C→30%  80°C→100%\n" HWMON "/pwm1_enable <- 1\n"
	       "each second: " HWMON "/pwm1 <- curve % of pwm1_max when it "
	       "changes\n"
	       "below 40°C: " HWMON "/pwm1_enable <- 2\n");
	ch = change(&fw, GT_CHANGE_FAN_CURVE);
	ch.curve.n = 5;
	for (int i = 0; i < 5; i++)
		ch.curve.pt[i] =
		    (struct gt_fan_point){pts[i][0] * 1000, pts[i][1] * 100};
	expect(&fw, &ch, 7,
	       "curve: 50°C→35%  60°C→45%  70°C→60%  80°C→80%  90°C→100%\n" AMD
	       "/gpu_od/fan_ctrl/fan_curve <- 0 50 35\n" AMD
	       "/gpu_od/fan_ctrl/fan_curve <- 1 60 45\n" AMD
	       "/gpu_od/fan_ctrl/fan_curve <- 2 70 60\n" AMD
	       "/gpu_od/fan_ctrl/fan_curve <- 3 80 80\n" AMD
	       "/gpu_od/fan_ctrl/fan_curve <- 4 90 100\n" AMD
	       "/gpu_od/fan_ctrl/fan_curve <- c\n");
}

static void test_describe_edges(void **state)
{
	struct gt_control_caps nv = caps_nvidia();
	struct gt_control_change ch = change(&nv, GT_CHANGE_POWER_LIMIT);
	char buf[16];
	(void)state;

	/* Too small: the first line cut, what does not fit not counted. */
	ch.value = 300000;
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(gt_control_change_describe(&nv, &ch, buf, 10), 1);
	assert_string_equal(buf, "nvmlDevic");
	ch = change(&nv, GT_CHANGE_FAN_AUTO);
	assert_int_equal(gt_control_change_describe(&nv, &ch, buf, 10), 1);
	assert_string_equal(buf, "nvmlDevic");
	/* No room at all: nothing written, nothing counted. */
	buf[0] = 'x';
	assert_int_equal(gt_control_change_describe(&nv, &ch, buf, 0), 0);
	assert_int_equal(buf[0], 'x');
	/* An unknown kind describes nothing. */
	ch.kind = (enum gt_control_change_kind)42;
	assert_int_equal(gt_control_change_describe(&nv, &ch, buf, sizeof(buf)),
	                 0);
	assert_string_equal(buf, "");
}

static void test_fans(void **state)
{
	struct gt_control_caps nv = caps_nvidia();
	struct gt_control_change ch = change(&nv, GT_CHANGE_FAN_AUTO);
	(void)state;

	ch.fan_count = 0; /* not said: one fan */
	assert_int_equal(gt_control_change_fans(&ch), 1);
	ch.fan_count = 3;
	assert_int_equal(gt_control_change_fans(&ch), 3);
	ch.fan_count = 100; /* more than gputop drives */
	assert_int_equal(gt_control_change_fans(&ch), GT_MAX_FANS);
	ch.fan_mask = 0;
	for (unsigned f = 0; f < GT_MAX_FANS; f++)
		assert_true(gt_control_change_drives_fan(&ch, f));
	ch.fan_mask = 0x2;
	assert_false(gt_control_change_drives_fan(&ch, 0));
	assert_true(gt_control_change_drives_fan(&ch, 1));
	assert_false(gt_control_change_drives_fan(&ch, 2));
}

static void test_revert_of(void **state)
{
	struct gt_control_caps nv = caps_nvidia(),
	                       amd = caps_amd(GT_FAN_METHOD_AMD_PWM_LOOP),
	                       in = caps_intel();
	struct gt_control_change ch = change(&nv, GT_CHANGE_POWER_LIMIT), rev;
	(void)state;

	/* The value in force comes back; the rest of the change is kept. */
	ch.value = 300000;
	assert_int_equal(gt_control_change_revert_of(&nv, &ch, &rev), 0);
	assert_int_equal(rev.kind, GT_CHANGE_POWER_LIMIT);
	assert_int_equal(rev.value, 450000);
	assert_int_equal(rev.vendor, GT_VENDOR_NVIDIA);
	assert_int_equal(rev.device, 3);
	assert_string_equal(rev.dev, NV);
	nv.power.cur = -1;
	assert_int_equal(gt_control_change_revert_of(&nv, &ch, &rev), -1);
	nv.power.cur = 450000;
	nv.power.known = false;
	assert_int_equal(gt_control_change_revert_of(&nv, &ch, &rev), -1);

	ch = change(&amd, GT_CHANGE_PERF_LEVEL);
	snprintf(ch.text, sizeof(ch.text), "high");
	assert_int_equal(gt_control_change_revert_of(&amd, &ch, &rev), 0);
	assert_string_equal(rev.text, "auto");
	amd.level[0] = '\0'; /* unreadable */
	assert_int_equal(gt_control_change_revert_of(&amd, &ch, &rev), -1);
	snprintf(amd.level, sizeof(amd.level), "auto");
	amd.has_level = false;
	assert_int_equal(gt_control_change_revert_of(&amd, &ch, &rev), -1);

	ch = change(&amd, GT_CHANGE_POWER_PROFILE);
	ch.value = 5;
	assert_int_equal(gt_control_change_revert_of(&amd, &ch, &rev), 0);
	assert_int_equal(rev.value, 1);
	amd.profile_active = -1;
	assert_int_equal(gt_control_change_revert_of(&amd, &ch, &rev), -1);

	ch = change(&in, GT_CHANGE_FREQ_LIMITS);
	ch.value = 600;
	ch.value2 = 1800;
	assert_int_equal(gt_control_change_revert_of(&in, &ch, &rev), 0);
	assert_int_equal(rev.value, 300);
	assert_int_equal(rev.value2, 1200);
	in.freq_max.cur = -1;
	assert_int_equal(gt_control_change_revert_of(&in, &ch, &rev), -1);
	in.freq_max.cur = 1200;
	in.freq_min.cur = -1;
	assert_int_equal(gt_control_change_revert_of(&in, &ch, &rev), -1);
}

static void test_revert_of_fans(void **state)
{
	struct gt_control_caps nv = caps_nvidia();
	struct gt_control_change ch = change(&nv, GT_CHANGE_FAN_CURVE), rev;
	(void)state;

	/* Whatever the fan did before, the revert hands it to the firmware,
	 * the same fans on the same device. */
	ch.curve = two_points();
	ch.fan_mask = 0x2;
	assert_int_equal(gt_control_change_revert_of(&nv, &ch, &rev), 0);
	assert_int_equal(rev.kind, GT_CHANGE_FAN_AUTO);
	assert_int_equal(rev.fan_method, GT_FAN_METHOD_NVML_LOOP);
	assert_int_equal(rev.fan_mask, 0x2);
	assert_int_equal(rev.fan_count, 2);
	assert_string_equal(rev.dev, NV);
	ch.kind = GT_CHANGE_FAN_AUTO;
	assert_int_equal(gt_control_change_revert_of(&nv, &ch, &rev), 0);
	assert_int_equal(rev.kind, GT_CHANGE_FAN_AUTO);
	/* An unknown kind cannot be reverted. */
	ch.kind = (enum gt_control_change_kind)42;
	assert_int_equal(gt_control_change_revert_of(&nv, &ch, &rev), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_describe_power_limit),
	    cmocka_unit_test(test_describe_level_and_profile),
	    cmocka_unit_test(test_describe_freq_limits_order),
	    cmocka_unit_test(test_describe_fan_auto),
	    cmocka_unit_test(test_describe_fan_curve),
	    cmocka_unit_test(test_describe_edges),
	    cmocka_unit_test(test_fans),
	    cmocka_unit_test(test_revert_of),
	    cmocka_unit_test(test_revert_of_fans),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

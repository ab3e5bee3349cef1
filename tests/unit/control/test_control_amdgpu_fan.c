/* SPDX-License-Identifier: MIT */
/*
 * test_control_amdgpu_fan.c - tests of the AMD fan writes
 * (src/control/control_amdgpu_fan.c) on writable copies of the amdgpu
 * fixtures (support/control_amdgpu_test.h): the pwm setter from manual and
 * from automatic mode and its restore order, the hand-back to the
 * firmware, the RDNA4 pwm refusal, the RDNA3 firmware curve checked
 * against its range, and restore_all putting every file back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control/control.h"
#include "control/control_amdgpu.h"

#include "support/control_amdgpu_test.h"

/* Polaris, already manual (pwm1_enable 1, pwm1 35): pwm1 is journaled
 * before pwm1_enable, so the restore sets manual mode, then the speed. */
static void test_pwm_from_manual(void **state)
{
	struct env *e = setup("rx580", "card0", false, GT_CONTROL_PRIV_YES);
	char err[256], rep[512];
	unsigned pct = 0;
	(void)state;

	REFUSED(e, gt_control_amdgpu_fan_pwm(e->c, e->dev, 101, &pct, ERR),
	        "at most 100 %");
	assert_int_equal(
	    gt_control_amdgpu_fan_pwm(e->c, e->dev, 50, &pct, err, sizeof(err)),
	    GT_CONTROL_OK);
	assert_int_equal(pct, 50);
	assert_string_equal(slurp(devfile(e, "hwmon/hwmon4/pwm1")), "128\n");
	assert_int_equal(
	    gt_control_amdgpu_fan_auto(e->c, e->dev, err, sizeof(err)),
	    GT_CONTROL_OK);
	assert_string_equal(slurp(devfile(e, "hwmon/hwmon4/pwm1_enable")),
	                    "2\n");
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	assert_string_equal(e->writes, "hwmon/hwmon4/pwm1=128\n"
	                               "hwmon/hwmon4/pwm1_enable=2\n"
	                               "hwmon/hwmon4/pwm1_enable=1\n"
	                               "hwmon/hwmon4/pwm1=35\n");
	assert_true(tree_sum(e->root) == e->sum0);
	done(e);
}

/* Handed to the firmware first: the restore still sets manual mode
 * before the old speed (the kernel refuses pwm1 in automatic mode). */
static void test_pwm_auto_first(void **state)
{
	struct env *e = setup("rx580", "card0", false, GT_CONTROL_PRIV_YES);
	char err[256], rep[512];
	(void)state;

	assert_int_equal(
	    gt_control_amdgpu_fan_auto(e->c, e->dev, err, sizeof(err)),
	    GT_CONTROL_OK);
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	assert_string_equal(e->writes, "hwmon/hwmon4/pwm1_enable=2\n"
	                               "hwmon/hwmon4/pwm1_enable=1\n"
	                               "hwmon/hwmon4/pwm1=35\n");
	assert_true(tree_sum(e->root) == e->sum0);
	done(e);
}

/* The usual case, firmware in control (2): enable=1 then pwm1; the
 * restore hands the fan back with 2 and leaves pwm1 to the firmware. */
static void test_pwm_from_auto(void **state)
{
	struct env *e = setup("rx580", "card0", false, GT_CONTROL_PRIV_YES);
	char err[256], want[4096], rep[512];
	unsigned pct = 0;
	(void)state;

	put(devfile(e, "hwmon/hwmon4/pwm1_enable"), "2\n");
	assert_int_equal(
	    gt_control_amdgpu_fan_pwm(e->c, e->dev, 60, &pct, err, sizeof(err)),
	    GT_CONTROL_OK);
	assert_int_equal(pct, 60);
	assert_string_equal(e->writes, "hwmon/hwmon4/pwm1_enable=1\n"
	                               "hwmon/hwmon4/pwm1=153\n");
	snprintf(want, sizeof(want),
	         HDR "sysfs vendor=amdgpu dev=0000:09:00.0 time=%d path=%s "
	             "value=2\nend 1\n",
	         T0, devfile(e, "hwmon/hwmon4/pwm1_enable"));
	assert_string_equal(slurp(e->state), want);
	assert_string_equal(
	    slurp(e->audit), STAMP
	    " write 0000:09:00.0 pwm1_enable old=\"2\" new=\"1\" ok\n" STAMP
	    " write 0000:09:00.0 pwm1 old=\"35\" new=\"153\" ok\n");
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	assert_string_equal(slurp(devfile(e, "hwmon/hwmon4/pwm1_enable")),
	                    "2\n");
	done(e);
}

static void test_pwm_refused_on_rdna(void **state)
{
	struct env *e = setup("rx9070", "card1", false, GT_CONTROL_PRIV_YES);
	unsigned pct;
	(void)state;

	REFUSED(
	    e, gt_control_amdgpu_fan_pwm(e->c, e->dev, 50, &pct, ERR),
	    "this card has no hwmon pwm1_enable, so its fan cannot be driven "
	    "by pwm (RDNA4 runs its fans from the firmware)");
	done(e);
	e = setup("rx7800xt", "card1", false, GT_CONTROL_PRIV_YES);
	REFUSED(e, gt_control_amdgpu_fan_pwm(e->c, e->dev, 50, &pct, ERR),
	        "RDNA3 or newer");
	done(e);
}

static struct gt_fancurve curve5(const int (*p)[2])
{
	struct gt_fancurve c = {.n = 5};

	for (int i = 0; i < 5; i++)
		c.pt[i] = (struct gt_fan_point){p[i][0] * 1000, p[i][1] * 100};
	return c;
}

static void test_fan_curve_rdna3(void **state)
{
	static const int ok[5][2] = {
	    {50, 35}, {60, 45}, {70, 60}, {80, 80}, {90, 100}};
	static const int low[5][2] = {
	    {50, 30}, {60, 45}, {70, 60}, {80, 80}, {90, 100}};
	static const int cold[5][2] = {
	    {20, 35}, {60, 45}, {70, 60}, {80, 80}, {90, 100}};
	static const int down[5][2] = {
	    {50, 35}, {60, 45}, {55, 60}, {80, 80}, {90, 100}};
	struct env *e = setup("rx7800xt", "card1", true, GT_CONTROL_PRIV_YES);
	struct gt_fancurve c = curve5(ok), got;
	char err[256], want[4096], rep[512];
	(void)state;

	c.n = 4;
	REFUSED(e, gt_control_amdgpu_fan_curve(e->c, e->dev, &c, &got, ERR),
	        "exactly 5 points, not 4");
	c = curve5(low);
	REFUSED(e, gt_control_amdgpu_fan_curve(e->c, e->dev, &c, &got, ERR),
	        "point 1: 30 % is outside this card's range 35-100 %");
	c = curve5(cold);
	REFUSED(e, gt_control_amdgpu_fan_curve(e->c, e->dev, &c, &got, ERR),
	        "point 1: 20 °C is outside this card's range 25-100 °C");
	c = curve5(down);
	REFUSED(e, gt_control_amdgpu_fan_curve(e->c, e->dev, &c, &got, ERR),
	        "point 3");
	c = curve5(ok);
	c.pt[2].temp_mc += 500;
	REFUSED(e, gt_control_amdgpu_fan_curve(e->c, e->dev, &c, &got, ERR),
	        "whole °C and whole %");
	c = curve5(ok);
	assert_int_equal(gt_control_amdgpu_fan_curve(e->c, e->dev, &c, &got,
	                                             err, sizeof(err)),
	                 GT_CONTROL_OK);
	assert_string_equal(err, "");
	assert_memory_equal(&got, &c, sizeof(c));
	assert_string_equal(e->writes, "gpu_od/fan_ctrl/fan_curve=0 50 35\n"
	                               "gpu_od/fan_ctrl/fan_curve=1 60 45\n"
	                               "gpu_od/fan_ctrl/fan_curve=2 70 60\n"
	                               "gpu_od/fan_ctrl/fan_curve=3 80 80\n"
	                               "gpu_od/fan_ctrl/fan_curve=4 90 100\n"
	                               "gpu_od/fan_ctrl/fan_curve=c\n");
	snprintf(want, sizeof(want),
	         HDR "amd-fan-curve-reset vendor=amdgpu dev=0000:03:00.0 "
	             "time=%d path=%s\nend 1\n",
	         T0, e->dev);
	assert_string_equal(slurp(e->state), want);
	assert_true(strstr(slurp(e->audit), STAMP
	                   " write 0000:03:00.0 gpu_od/fan_ctrl/fan_curve "
	                   "old=\"4: 0C 0%\" new=\"4 90 100\" ok\n"));
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	assert_true(ends(e->writes, "fan_curve=c\ngpu_od/fan_ctrl/fan_curve=r\n"
	                            "gpu_od/fan_ctrl/fan_curve=c\n"));
	assert_true(tree_sum(e->root) == e->sum0);
	done(e);
}

/* Without the kernel the file holds what was written last: the commit. */
static void test_fan_curve_plain_file(void **state)
{
	static const int ok[5][2] = {
	    {40, 20}, {50, 30}, {60, 50}, {70, 70}, {80, 100}};
	struct env *e = setup("rx7900xtx", "card0", false, GT_CONTROL_PRIV_YES);
	struct gt_fancurve c = curve5(ok), got;
	char err[256];
	(void)state;

	assert_int_equal(gt_control_amdgpu_fan_curve(e->c, e->dev, &c, &got,
	                                             err, sizeof(err)),
	                 GT_CONTROL_OK);
	assert_string_equal(slurp(devfile(e, "gpu_od/fan_ctrl/fan_curve")),
	                    "c\n");
	assert_true(strstr(err, "reading fan_curve back failed"));
	assert_int_equal(got.n, 0);
	done(e);
}

static void test_fan_auto_rdna(void **state)
{
	struct env *e = setup("rx9070", "card1", true, GT_CONTROL_PRIV_YES);
	char err[256];
	(void)state;

	/* A user curve is there: "r" and "c" give the firmware's back. */
	assert_int_equal(
	    gt_control_amdgpu_fan_auto(e->c, e->dev, err, sizeof(err)),
	    GT_CONTROL_OK);
	assert_string_equal(e->writes, "gpu_od/fan_ctrl/fan_curve=r\n"
	                               "gpu_od/fan_ctrl/fan_curve=c\n");
	assert_true(strstr(slurp(devfile(e, "gpu_od/fan_ctrl/fan_curve")),
	                   "0: 0C 0%\n1: 0C 0%\n"));
	done(e);
	/* The firmware's own curve (all zero): nothing to do. */
	e = setup("rx7800xt", "card1", true, GT_CONTROL_PRIV_YES);
	assert_int_equal(
	    gt_control_amdgpu_fan_auto(e->c, e->dev, err, sizeof(err)),
	    GT_CONTROL_OK);
	assert_string_equal(e->writes, "");
	assert_string_equal(slurp(e->state), "(missing)");
	done(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pwm_from_manual),
	    cmocka_unit_test(test_pwm_auto_first),
	    cmocka_unit_test(test_pwm_from_auto),
	    cmocka_unit_test(test_pwm_refused_on_rdna),
	    cmocka_unit_test(test_fan_curve_rdna3),
	    cmocka_unit_test(test_fan_curve_plain_file),
	    cmocka_unit_test(test_fan_auto_rdna),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * test_fancurve.c - tests of the fan curve and the software fan loop
 * (src/control/fancurve.c): every refusal with its message, the presets,
 * exact interpolation, clamping to the device's range, hand-back below the
 * curve, and a recorded temperature trace whose every decision is
 * asserted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "control/fancurve.h"

#define SEC  1000000000ull
#define NONE GT_FAN_TEMP_INVALID

static struct gt_fancurve curve2(int32_t t0, int32_t s0, int32_t t1, int32_t s1)
{
	struct gt_fancurve c = {2, {{t0, s0}, {t1, s1}}};
	return c;
}

static void expect_refusal(const struct gt_fancurve *c, const char *msg)
{
	char err[160] = "unset";

	assert_int_equal(gt_fancurve_validate(c, err, sizeof(err)), -1);
	assert_string_equal(err, msg);
}

static void test_validate_refusals(void **state)
{
	struct gt_fancurve c;
	char err[160] = "unset";
	(void)state;

	expect_refusal(NULL, "no curve");
	c = curve2(40000, 3000, 60000, 6000);
	c.n = 1;
	expect_refusal(&c, "a curve needs 2 to 8 points, not 1");
	c.n = 9;
	expect_refusal(&c, "a curve needs 2 to 8 points, not 9");
	c.n = 0;
	expect_refusal(&c, "a curve needs 2 to 8 points, not 0");

	c = curve2(40000, 3000, 40000, 4000);
	expect_refusal(&c, "point 2 (40 °C, 40 %): temperature not above "
	                   "point 1 (40 °C)");
	c = curve2(45500, 3050, 45000, 4000);
	expect_refusal(&c, "point 2 (45 °C, 40 %): temperature not above "
	                   "point 1 (45.5 °C)");
	c = curve2(40000, 5000, 60000, 4000);
	expect_refusal(&c, "point 2 (60 °C, 40 %): speed below point 1 "
	                   "(50 %): the fan would slow down as it gets hotter");
	c = (struct gt_fancurve){
	    4, {{30000, 2000}, {50000, 4000}, {60000, 3950}, {70000, 9000}}};
	expect_refusal(&c, "point 3 (60 °C, 39.50 %): speed below point 2 "
	                   "(40 %): the fan would slow down as it gets hotter");
	c = curve2(40000, 3000, 60000, 10100);
	expect_refusal(&c, "point 2 (60 °C, 101 %): speed outside 0..100 %");
	c = curve2(40000, -100, 60000, 5000);
	expect_refusal(&c, "point 1 (40 °C, -1 %): speed outside 0..100 %");
	c = curve2(40000, 3000, 121000, 10000);
	expect_refusal(&c, "point 2 (121 °C, 100 %): temperature outside "
	                   "0..120 °C");
	c = curve2(-5000, 3000, 60000, 10000);
	expect_refusal(&c, "point 1 (-5 °C, 30 %): temperature outside "
	                   "0..120 °C");

	/* The edges themselves are allowed; equal speeds are flat, fine. */
	c = curve2(0, 0, 120000, 10000);
	assert_int_equal(gt_fancurve_validate(&c, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	c = curve2(50000, 5000, 60000, 5000);
	assert_int_equal(gt_fancurve_validate(&c, NULL, 0), 0);
	c = (struct gt_fancurve){8,
	                         {{10000, 0},
	                          {20000, 1000},
	                          {30000, 2000},
	                          {40000, 3000},
	                          {50000, 4000},
	                          {60000, 5000},
	                          {70000, 6000},
	                          {80000, 7000}}};
	assert_int_equal(gt_fancurve_validate(&c, NULL, 0), 0);
	/* A tiny buffer gets a truncated message, never an overflow. */
	char tiny[8];
	c = curve2(40000, 5000, 60000, 4000);
	assert_int_equal(gt_fancurve_validate(&c, tiny, sizeof(tiny)), -1);
	assert_string_equal(tiny, "point 2");
}

static void test_presets(void **state)
{
	static const struct {
		const char *name;
		struct gt_fan_point pt[5];
	} want[GT_FAN_PRESET_COUNT] = {
	    {"quiet",
	     {{50000, 3000},
	      {60000, 3500},
	      {70000, 5000},
	      {80000, 7500},
	      {87000, 10000}}},
	    {"balanced",
	     {{40000, 3000},
	      {50000, 4000},
	      {60000, 5000},
	      {70000, 7000},
	      {80000, 10000}}},
	    {"aggressive",
	     {{35000, 4000},
	      {45000, 5000},
	      {55000, 6500},
	      {65000, 8500},
	      {75000, 10000}}},
	};
	struct gt_fancurve c;
	enum gt_fan_preset p;
	(void)state;

	for (unsigned i = 0; i < GT_FAN_PRESET_COUNT; i++) {
		assert_int_equal(gt_fancurve_preset((enum gt_fan_preset)i, &c),
		                 0);
		assert_int_equal(gt_fancurve_validate(&c, NULL, 0), 0);
		assert_int_equal(c.n, 5);
		for (unsigned k = 0; k < 5; k++) {
			assert_int_equal(c.pt[k].temp_mc,
			                 want[i].pt[k].temp_mc);
			assert_int_equal(c.pt[k].cpercent,
			                 want[i].pt[k].cpercent);
		}
		assert_string_equal(gt_fan_preset_name((enum gt_fan_preset)i),
		                    want[i].name);
		assert_int_equal(gt_fan_preset_parse(want[i].name, &p), 0);
		assert_int_equal(p, i);
	}
	assert_int_equal(gt_fan_preset_parse("Balanced", &p), 0);
	assert_int_equal(p, GT_FAN_PRESET_BALANCED);
	assert_int_equal(gt_fan_preset_parse("loud", &p), -1);
	assert_int_equal(gt_fan_preset_parse(NULL, &p), -1);
	assert_int_equal(gt_fancurve_preset(GT_FAN_PRESET_COUNT, &c), -1);
	assert_null(gt_fan_preset_name(GT_FAN_PRESET_COUNT));
}

static void test_interpolation(void **state)
{
	struct gt_fancurve c;
	(void)state;

	assert_int_equal(gt_fancurve_preset(GT_FAN_PRESET_BALANCED, &c), 0);
	assert_int_equal(gt_fancurve_eval(&c, 39999), -1);
	assert_int_equal(gt_fancurve_eval(&c, 0), -1);
	assert_int_equal(gt_fancurve_eval(&c, 40000), 3000);
	assert_int_equal(gt_fancurve_eval(&c, 45000), 3500);
	assert_int_equal(gt_fancurve_eval(&c, 50000), 4000);
	assert_int_equal(gt_fancurve_eval(&c, 55500), 4550);
	assert_int_equal(gt_fancurve_eval(&c, 65000), 6000);
	assert_int_equal(gt_fancurve_eval(&c, 67250), 6450);
	assert_int_equal(gt_fancurve_eval(&c, 75000), 8500);
	assert_int_equal(gt_fancurve_eval(&c, 80000), 10000);
	assert_int_equal(gt_fancurve_eval(&c, 95000), 10000);
	/* Rounded to the nearest cpercent: 1/3 of 100 cp per 1 °C. */
	c = curve2(30000, 1000, 60000, 2000);
	assert_int_equal(gt_fancurve_eval(&c, 31000), 1033);
	assert_int_equal(gt_fancurve_eval(&c, 32000), 1067);
	assert_int_equal(gt_fancurve_eval(&c, 30015), 1001); /* 0.5 up */
	assert_int_equal(gt_fancurve_eval(&c, 30014), 1000);
	/* A flat segment. */
	c = (struct gt_fancurve){3,
	                         {{30000, 2000}, {50000, 5000}, {70000, 5000}}};
	assert_int_equal(gt_fancurve_eval(&c, 60000), 5000);
	assert_int_equal(gt_fancurve_eval(&c, 40000), 3500);
}

static struct gt_fanloop loop_with(int32_t min, int32_t max)
{
	struct gt_fanloop_config cfg;
	struct gt_fanloop l;
	char err[128];

	gt_fanloop_config_default(&cfg);
	cfg.min_cpercent = min;
	cfg.max_cpercent = max;
	cfg.panic_mc = 90000;
	assert_int_equal(gt_fanloop_init(&l, &cfg, err, sizeof(err)), 0);
	return l;
}

static void expect(struct gt_fanloop *l, const struct gt_fancurve *c,
                   int64_t temp, uint64_t now, enum gt_fan_action a,
                   enum gt_fan_reason r, int32_t cp)
{
	struct gt_fan_decision d;

	gt_fanloop_step(l, c, temp, now, &d);
	assert_string_equal(gt_fan_action_name(d.action),
	                    gt_fan_action_name(a));
	assert_string_equal(gt_fan_reason_name(d.reason),
	                    gt_fan_reason_name(r));
	assert_int_equal(d.cpercent, cp);
}

static void test_clamping(void **state)
{
	struct gt_fancurve c = curve2(30000, 0, 80000, 10000);
	struct gt_fanloop l = loop_with(3000, 9000); /* NVIDIA-like 30 % min */
	(void)state;

	/* 0 % at 30 °C would be refused by the driver: 30 % instead. */
	expect(&l, &c, 30000, 0, GT_FAN_SET, GT_FAN_R_START, 3000);
	expect(&l, &c, 40000, SEC, GT_FAN_KEEP, GT_FAN_R_UNCHANGED, 3000);
	expect(&l, &c, 46000, 2 * SEC, GT_FAN_SET, GT_FAN_R_UP, 3200);
	/* 100 % wanted, 90 % is the device's maximum. */
	expect(&l, &c, 80000, 3 * SEC, GT_FAN_SET, GT_FAN_R_UP, 9000);
	expect(&l, &c, 85000, 4 * SEC, GT_FAN_KEEP, GT_FAN_R_UNCHANGED, 9000);
	/* A min == max device can only be set to that one speed. */
	l = loop_with(5000, 5000);
	expect(&l, &c, 79000, 0, GT_FAN_SET, GT_FAN_R_START, 5000);
	expect(&l, &c, 31000, 10 * SEC, GT_FAN_KEEP, GT_FAN_R_UNCHANGED, 5000);
}

static void test_below_first_point_hands_back(void **state)
{
	struct gt_fancurve c = curve2(40000, 0, 60000, 5000);
	struct gt_fanloop l = loop_with(0, 10000);
	(void)state;

	/* The first decision always writes: the fan's mode is unknown. */
	expect(&l, &c, 25000, 0, GT_FAN_AUTO, GT_FAN_R_BELOW_CURVE, -1);
	expect(&l, &c, 39999, SEC, GT_FAN_KEEP, GT_FAN_R_BELOW_CURVE, -1);
	/* At the first point the curve says 0 %: that is written (it is
	 * the user's own point), but never invented below it. */
	expect(&l, &c, 40000, 2 * SEC, GT_FAN_SET, GT_FAN_R_START, 0);
	expect(&l, &c, 10000, 3 * SEC, GT_FAN_KEEP, GT_FAN_R_DELAY, 0);
	expect(&l, &c, 10000, 8 * SEC, GT_FAN_AUTO, GT_FAN_R_BELOW_CURVE, -1);
	expect(&l, &c, 10000, 9 * SEC, GT_FAN_KEEP, GT_FAN_R_BELOW_CURVE, -1);
}

/* The recorded trace: 1 s ticks on an NVIDIA-like card (30..100 %),
 * slowdown at 90 °C, the defaults' 5 s / 3 °C hysteresis, whole percents.
 * Curve: 40 °C 20 %, 50 °C 40 %, 70 °C 70 %, 80 °C 100 %. */
struct trace_step {
	int64_t temp_mc;
	enum gt_fan_action action;
	enum gt_fan_reason reason;
	int32_t cpercent;
};

#define K GT_FAN_KEEP
#define S GT_FAN_SET
#define A GT_FAN_AUTO
static const struct trace_step trace[] = {
    /* idle, below the curve: hand back once, then stay quiet */
    /*  0 */ {35000, A, GT_FAN_R_BELOW_CURVE, -1},
    /*  1 */ {36000, K, GT_FAN_R_BELOW_CURVE, -1},
    /*  2 */ {38000, K, GT_FAN_R_BELOW_CURVE, -1},
    /* warm-up: take control, clamped to 30 %, then up at once */
    /*  3 */ {41000, S, GT_FAN_R_START, 3000},
    /*  4 */ {43000, K, GT_FAN_R_UNCHANGED, 3000},
    /*  5 */ {45500, S, GT_FAN_R_UP, 3100},
    /*  6 */ {48000, S, GT_FAN_R_UP, 3600},
    /*  7 */ {51000, S, GT_FAN_R_UP, 4200}, /* 41.5 % rounds up */
    /*  8 */ {55000, S, GT_FAN_R_UP, 4800}, /* 47.5 % */
    /*  9 */ {58000, S, GT_FAN_R_UP, 5200},
    /* 10 */ {60000, S, GT_FAN_R_UP, 5500},
    /* 11 */ {62000, S, GT_FAN_R_UP, 5800},
    /* plateau with small dips: no write, no oscillation */
    /* 12 */ {63000, S, GT_FAN_R_UP, 6000}, /* 59.5 %, set at 63 °C */
    /* 13 */ {62000, K, GT_FAN_R_HYSTERESIS, 6000},
    /* 14 */ {61000, K, GT_FAN_R_HYSTERESIS, 6000},
    /* 15 */ {62500, K, GT_FAN_R_HYSTERESIS, 6000},
    /* 16 */ {63000, K, GT_FAN_R_UNCHANGED, 6000},
    /* 17 */ {60500, K, GT_FAN_R_HYSTERESIS, 6000},
    /* 18 */ {63000, K, GT_FAN_R_UNCHANGED, 6000},
    /* 19 */ {62000, K, GT_FAN_R_HYSTERESIS, 6000},
    /* 20 */ {60000, K, GT_FAN_R_HYSTERESIS, 6000}, /* exactly 3 °C */
    /* 21 */ {63200, K, GT_FAN_R_UNCHANGED, 6000},  /* 59.8 % -> 60 % */
    /* load spike up to the slowdown threshold */
    /* 22 */ {66000, S, GT_FAN_R_UP, 6400},
    /* 23 */ {71000, S, GT_FAN_R_UP, 7300},
    /* 24 */ {76000, S, GT_FAN_R_UP, 8800},
    /* 25 */ {79000, S, GT_FAN_R_UP, 9700},
    /* 26 */ {82000, S, GT_FAN_R_UP, 10000}, /* above the last point */
    /* 27 */ {85000, K, GT_FAN_R_UNCHANGED, 10000},
    /* 28 */ {88000, K, GT_FAN_R_UNCHANGED, 10000},
    /* 29 */ {90000, A, GT_FAN_R_PANIC_THRESHOLD, -1}, /* at it: panic */
    /* 30 */ {91000, K, GT_FAN_R_PANIC_THRESHOLD, -1},
    /* 31 */ {89000, K, GT_FAN_R_PANIC_THRESHOLD, -1},
    /* 32 */ {87000, K, GT_FAN_R_PANIC_THRESHOLD, -1}, /* not below 87 */
    /* 33 */ {86000, S, GT_FAN_R_START, 10000},        /* resumes */
    /* cool-down: delayed step down, timer reset by a rebound */
    /* 34 */ {84000, K, GT_FAN_R_UNCHANGED, 10000},
    /* 35 */ {80000, K, GT_FAN_R_UNCHANGED, 10000},
    /* 36 */ {78000, K, GT_FAN_R_DELAY, 10000}, /* 8 °C below 86: wait */
    /* 37 */ {76000, K, GT_FAN_R_DELAY, 10000},
    /* 38 */ {75000, K, GT_FAN_R_DELAY, 10000},
    /* 39 */ {74000, K, GT_FAN_R_DELAY, 10000},
    /* 40 */ {73000, K, GT_FAN_R_DELAY, 10000},
    /* 41 */ {72000, S, GT_FAN_R_DOWN, 7600}, /* 5 s low: down */
    /* 42 */ {71000, K, GT_FAN_R_HYSTERESIS, 7600},
    /* 43 */ {70000, K, GT_FAN_R_HYSTERESIS, 7600},
    /* 44 */ {68500, K, GT_FAN_R_DELAY, 7600},      /* 3.5 °C below 72 */
    /* 45 */ {70000, K, GT_FAN_R_HYSTERESIS, 7600}, /* rebound: reset */
    /* 46 */ {68000, K, GT_FAN_R_DELAY, 7600},      /* timer restarts */
    /* 47 */ {66000, K, GT_FAN_R_DELAY, 7600},
    /* 48 */ {65000, K, GT_FAN_R_DELAY, 7600},
    /* 49 */ {64000, K, GT_FAN_R_DELAY, 7600},
    /* 50 */ {63000, K, GT_FAN_R_DELAY, 7600},
    /* 51 */ {62000, S, GT_FAN_R_DOWN, 5800},
    /* sensor failure and recovery */
    /* 52 */ {61000, K, GT_FAN_R_HYSTERESIS, 5800},
    /* 53 */ {NONE, A, GT_FAN_R_SENSOR_FAILED, -1},
    /* 54 */ {NONE, K, GT_FAN_R_SENSOR_FAILED, -1},
    /* 55 */ {60000, S, GT_FAN_R_START, 5500},
    /* 56 */ {58000, K, GT_FAN_R_HYSTERESIS, 5500},
    /* back to idle: down in steps, then hand back below the curve */
    /* 57 */ {56000, K, GT_FAN_R_DELAY, 5500},
    /* 58 */ {54000, K, GT_FAN_R_DELAY, 5500},
    /* 59 */ {52000, K, GT_FAN_R_DELAY, 5500},
    /* 60 */ {50000, K, GT_FAN_R_DELAY, 5500},
    /* 61 */ {48000, K, GT_FAN_R_DELAY, 5500},
    /* 62 */ {46000, S, GT_FAN_R_DOWN, 3200},
    /* 63 */ {44000, K, GT_FAN_R_HYSTERESIS, 3200},
    /* 64 */ {42000, K, GT_FAN_R_DELAY, 3200}, /* 30 % (clamped) wanted */
    /* 65 */ {39000, K, GT_FAN_R_DELAY, 3200}, /* below the curve now */
    /* 66 */ {38000, K, GT_FAN_R_DELAY, 3200},
    /* 67 */ {37000, K, GT_FAN_R_DELAY, 3200},
    /* 68 */ {37000, K, GT_FAN_R_DELAY, 3200},
    /* 69 */ {36000, A, GT_FAN_R_BELOW_CURVE, -1},
    /* 70 */ {38000, K, GT_FAN_R_BELOW_CURVE, -1},
    /* at the curve's edge: no flapping between auto and manual */
    /* 71 */ {40000, S, GT_FAN_R_START, 3000},
    /* 72 */ {39000, K, GT_FAN_R_HYSTERESIS, 3000},
    /* 73 */ {40000, K, GT_FAN_R_UNCHANGED, 3000},
    /* 74 */ {NONE, A, GT_FAN_R_SENSOR_FAILED, -1},
    /* 75 */ {39000, K, GT_FAN_R_BELOW_CURVE, -1},
    /* a failure while already in auto writes nothing */
    /* 76 */ {NONE, K, GT_FAN_R_SENSOR_FAILED, -1},
    /* 77 */ {95000, K, GT_FAN_R_PANIC_THRESHOLD, -1},
    /* 78 */ {30000, K, GT_FAN_R_BELOW_CURVE, -1},
};
#undef K
#undef S
#undef A

static void test_recorded_trace(void **state)
{
	const struct gt_fancurve c = {
	    4, {{40000, 2000}, {50000, 4000}, {70000, 7000}, {80000, 10000}}};
	struct gt_fanloop l = loop_with(3000, 10000);
	size_t n = sizeof(trace) / sizeof(trace[0]);
	int32_t last_written = -1, writes = 0;
	(void)state;

	assert_true(n >= 60);
	for (size_t i = 0; i < n; i++) {
		struct gt_fan_decision d;

		gt_fanloop_step(&l, &c, trace[i].temp_mc, 1000 * SEC + i * SEC,
		                &d);
		if (d.action != trace[i].action ||
		    d.reason != trace[i].reason ||
		    d.cpercent != trace[i].cpercent)
			fail_msg("step %zu (%lld m°C): got %s/%s/%d, want "
			         "%s/%s/%d",
			         i, (long long)trace[i].temp_mc,
			         gt_fan_action_name(d.action),
			         gt_fan_reason_name(d.reason), d.cpercent,
			         gt_fan_action_name(trace[i].action),
			         gt_fan_reason_name(trace[i].reason),
			         trace[i].cpercent);
		/* No redundant write: a SET always changes the speed. */
		if (d.action == GT_FAN_SET) {
			assert_int_not_equal(d.cpercent, last_written);
			assert_in_range(d.cpercent, 3000, 10000);
			last_written = d.cpercent;
			writes++;
		} else if (d.action == GT_FAN_AUTO) {
			last_written = -1;
			writes++;
		}
	}
	assert_int_equal(writes, 25);
}

static void test_panic_and_sensor_are_immediate(void **state)
{
	struct gt_fancurve c;
	struct gt_fanloop l = loop_with(3000, 10000);
	(void)state;

	/* No delay, no hysteresis: straight from manual to auto. */
	assert_int_equal(gt_fancurve_preset(GT_FAN_PRESET_QUIET, &c), 0);
	expect(&l, &c, 89999, 0, GT_FAN_SET, GT_FAN_R_START, 10000);
	expect(&l, &c, 90000, 1, GT_FAN_AUTO, GT_FAN_R_PANIC_THRESHOLD, -1);
	expect(&l, &c, 60000, 2, GT_FAN_SET, GT_FAN_R_START, 3500);
	expect(&l, &c, NONE, 3, GT_FAN_AUTO, GT_FAN_R_SENSOR_FAILED, -1);
	expect(&l, &c, 60000, 4, GT_FAN_SET, GT_FAN_R_START, 3500);
	/* Implausible readings count as a failed sensor. */
	expect(&l, &c, -41000, 5, GT_FAN_AUTO, GT_FAN_R_SENSOR_FAILED, -1);
	expect(&l, &c, 60000, 6, GT_FAN_SET, GT_FAN_R_START, 3500);
	expect(&l, &c, 150001, 7, GT_FAN_AUTO, GT_FAN_R_SENSOR_FAILED, -1);
	/* A fresh loop that starts hot hands back before anything else. */
	l = loop_with(3000, 10000);
	expect(&l, &c, 93000, 0, GT_FAN_AUTO, GT_FAN_R_PANIC_THRESHOLD, -1);
	l = loop_with(3000, 10000);
	expect(&l, &c, NONE, 0, GT_FAN_AUTO, GT_FAN_R_SENSOR_FAILED, -1);
}

static void test_bad_curve_hands_back(void **state)
{
	struct gt_fancurve c = curve2(40000, 3000, 60000, 6000);
	struct gt_fanloop l = loop_with(3000, 10000);
	(void)state;

	expect(&l, &c, 50000, 0, GT_FAN_SET, GT_FAN_R_START, 4500);
	c.pt[1].cpercent = 2000; /* corrupted after validation */
	expect(&l, &c, 50000, 1, GT_FAN_AUTO, GT_FAN_R_BAD_CURVE, -1);
	expect(&l, NULL, 50000, 2, GT_FAN_KEEP, GT_FAN_R_BAD_CURVE, -1);
}

static void test_write_failed_rewrites(void **state)
{
	struct gt_fancurve c = curve2(40000, 3000, 60000, 6000);
	struct gt_fanloop l = loop_with(3000, 10000);
	(void)state;

	expect(&l, &c, 50000, 0, GT_FAN_SET, GT_FAN_R_START, 4500);
	gt_fanloop_write_failed(&l);
	expect(&l, &c, 50000, SEC, GT_FAN_SET, GT_FAN_R_START, 4500);
	expect(&l, &c, 30000, 2 * SEC, GT_FAN_KEEP, GT_FAN_R_DELAY, 4500);
	expect(&l, &c, 30000, 7 * SEC, GT_FAN_AUTO, GT_FAN_R_BELOW_CURVE, -1);
	gt_fanloop_write_failed(&l);
	expect(&l, &c, 30000, 8 * SEC, GT_FAN_AUTO, GT_FAN_R_BELOW_CURVE, -1);
	expect(&l, &c, 30000, 9 * SEC, GT_FAN_KEEP, GT_FAN_R_BELOW_CURVE, -1);
}

static void test_no_delay_no_hysteresis(void **state)
{
	struct gt_fanloop_config cfg;
	struct gt_fanloop l;
	struct gt_fancurve c = curve2(40000, 3000, 60000, 6000);
	(void)state;

	gt_fanloop_config_default(&cfg);
	cfg.down_delay_ns = 0;
	cfg.hysteresis_mc = 0;
	cfg.quantum_cpercent = 1;
	assert_int_equal(gt_fanloop_init(&l, &cfg, NULL, 0), 0);
	expect(&l, &c, 50000, 0, GT_FAN_SET, GT_FAN_R_START, 4500);
	expect(&l, &c, 49999, 0, GT_FAN_KEEP, GT_FAN_R_UNCHANGED, 4500);
	expect(&l, &c, 49990, 0, GT_FAN_SET, GT_FAN_R_DOWN, 4499);
	expect(&l, &c, 49990, 0, GT_FAN_KEEP, GT_FAN_R_UNCHANGED, 4499);
	expect(&l, &c, 39000, 0, GT_FAN_AUTO, GT_FAN_R_BELOW_CURVE, -1);
}

static void test_config_refusals(void **state)
{
	static const struct {
		int32_t min, max;
		int64_t panic;
		int32_t hyst, quantum;
		const char *msg;
	} cases[] = {
	    {-1, 10000, 90000, 0, 100,
	     "device speed range must satisfy 0 <= min <= max <= 100 %"},
	    {0, 10001, 90000, 0, 100,
	     "device speed range must satisfy 0 <= min <= max <= 100 %"},
	    {5000, 4000, 90000, 0, 100,
	     "device speed range must satisfy 0 <= min <= max <= 100 %"},
	    {0, 10000, 0, 0, 100,
	     "slowdown threshold must be within 1..150 °C"},
	    {0, 10000, 151000, 0, 100,
	     "slowdown threshold must be within 1..150 °C"},
	    {0, 10000, 90000, -1, 100, "hysteresis must not be negative"},
	    {0, 10000, 90000, 0, 0, "speed step must be within 0.01..100 %"},
	};
	struct gt_fanloop_config cfg;
	struct gt_fanloop l;
	char err[128];
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		gt_fanloop_config_default(&cfg);
		cfg.min_cpercent = cases[i].min;
		cfg.max_cpercent = cases[i].max;
		cfg.panic_mc = cases[i].panic;
		cfg.hysteresis_mc = cases[i].hyst;
		cfg.quantum_cpercent = cases[i].quantum;
		assert_int_equal(gt_fanloop_init(&l, &cfg, err, sizeof(err)),
		                 -1);
		assert_string_equal(err, cases[i].msg);
	}
	assert_int_equal(gt_fanloop_init(&l, NULL, err, sizeof(err)), -1);
	assert_string_equal(err, "no loop settings");
	gt_fanloop_config_default(&cfg);
	assert_int_equal(cfg.panic_mc, 95000);
	assert_int_equal(cfg.down_delay_ns, 5 * SEC);
	assert_int_equal(cfg.hysteresis_mc, 3000);
	assert_int_equal(gt_fanloop_init(&l, &cfg, err, sizeof(err)), 0);
	assert_int_equal(l.mode, GT_FAN_MODE_UNKNOWN);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(gt_fan_action_name(GT_FAN_AUTO), "auto");
	assert_string_equal(gt_fan_action_name((enum gt_fan_action)7), "?");
	for (int r = 0; r < GT_FAN_R_COUNT; r++)
		assert_string_not_equal(
		    gt_fan_reason_name((enum gt_fan_reason)r), "?");
	assert_string_equal(gt_fan_reason_name(GT_FAN_R_PANIC_THRESHOLD),
	                    "panic_threshold");
	assert_string_equal(gt_fan_reason_name(GT_FAN_R_COUNT), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_validate_refusals),
	    cmocka_unit_test(test_presets),
	    cmocka_unit_test(test_interpolation),
	    cmocka_unit_test(test_clamping),
	    cmocka_unit_test(test_below_first_point_hands_back),
	    cmocka_unit_test(test_recorded_trace),
	    cmocka_unit_test(test_panic_and_sensor_are_immediate),
	    cmocka_unit_test(test_bad_curve_hands_back),
	    cmocka_unit_test(test_write_failed_rewrites),
	    cmocka_unit_test(test_no_delay_no_hysteresis),
	    cmocka_unit_test(test_config_refusals),
	    cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * test_profile_values.c - tests of the values of a profile's settings
 * (src/config/profile_values.c), read through gputop.conf: units, each
 * accepted or refused with its cause; curve presets and explicit curves,
 * non-monotonic ones refused by point.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"
#include "config/profile.h"
#include "control/fancurve.h"

/* "°", spelled out: "\xb0C" would read as one hex escape. */
#define DEG "\xc2\xb0"

#include "support/conf_test.h"
#include "support/profile_test.h"

/* ---- units ------------------------------------------------------------- */

struct unit_case {
	const char *line; /* one setting in "gpu = *", then fan = balanced */
	uint64_t want;    /* in the field's unit; ignored when msg is set */
	const char *msg;  /* a problem expected: part of its text */
};

static const struct unit_case unit_cases[] = {
    {"power_limit = 250W", 250000, NULL},
    {"power_limit = 250 W", 250000, NULL},
    {"power_limit = 250.5W", 250500, NULL},
    {"power_limit = 0.001W", 1, NULL},
    {"power_limit = 1500mW", 1500, NULL},
    {"power_limit = 100000W", 100000000, NULL},
    {"power_limit = 250", 0,
     "power_limit '250' has no unit; write it with W or mW, such as 250W"},
    {"power_limit = 250w", 0,
     "power_limit '250w': unknown unit 'w'; use W or mW (units are "
     "case-sensitive)"},
    {"power_limit = 250MW", 0, "unknown unit 'MW'"},
    {"power_limit = 0.25kW", 0, "unknown unit 'kW'"},
    {"power_limit = 0.0001W", 0,
     "power_limit '0.0001W' is finer than the smallest step (1 mW)"},
    {"power_limit = 1.5mW", 0, "finer than the smallest step (1 mW)"},
    {"power_limit = 0W", 0,
     "power_limit must be above 0 W; 'default' gives the device's default "
     "limit"},
    {"power_limit = 100001W", 0, "power_limit '100001W' is over 100000 W"},
    {"power_limit = 99999999999999999999W", 0, "is over 100000 W"},
    {"power_limit = -5W", 0,
     "power_limit must be a number with W or mW such as 250W, not '-5W'"},
    {"power_limit = 5.W", 0, "must be a number with W or mW"},
    {"power_limit = .5W", 0, "must be a number with W or mW"},
    {"power_limit = lots", 0, "not 'lots'"},
    {"power_limit = 250W 300W", 0,
     "power_limit '250W 300W': unexpected ' 300W' after the value"},
    {"power_limit = 250W5", 0, "unexpected '5' after the value"},
    {"freq_max = 1800MHz", 1800, NULL},
    {"freq_max = 1800 MHz", 1800, NULL},
    {"freq_max = 1800", 0, "freq_max '1800' has no unit; write it with MHz"},
    {"freq_max = 1.8GHz", 0, "unknown unit 'GHz'; use MHz"},
    {"freq_max = 1800mhz", 0, "unknown unit 'mhz'"},
    {"freq_max = 1800.5MHz", 0, "finer than the smallest step (1 MHz)"},
    {"freq_max = 0MHz", 0, "freq_max must be above 0, not '0MHz'"},
    {"freq_max = 100001MHz", 0, "is over 100000 MHz"},
    {"fan_hysteresis = 3C", 3000, NULL},
    {"fan_hysteresis = 2.5 " DEG "C", 2500, NULL},
    {"fan_hysteresis = 0C", 0, NULL},
    {"fan_hysteresis = 30C", 30000, NULL},
    {"fan_hysteresis = 31C", 0, "fan_hysteresis '31C' is over 30"},
    {"fan_hysteresis = 3", 0, "has no unit; write it with C or"},
    {"fan_hysteresis = 3F", 0, "unknown unit 'F'"},
    {"fan_hysteresis = 3c", 0, "unknown unit 'c'"},
    {"fan_down_delay = 5s", 5000000000ull, NULL},
    {"fan_down_delay = 500ms", 500000000ull, NULL},
    {"fan_down_delay = 0.25s", 250000000ull, NULL},
    {"fan_down_delay = 0s", 0, NULL},
    {"fan_down_delay = 600s", 600000000000ull, NULL},
    {"fan_down_delay = 601s", 0, "fan_down_delay '601s' is over 600 s"},
    {"fan_down_delay = 5", 0,
     "fan_down_delay '5' has no unit; write it "
     "with s or ms, such as 5s"},
    {"fan_down_delay = 5min", 0, "unknown unit 'min'; use s or ms"},
};

static uint64_t unit_field(const struct gt_profile_entry *e, const char *line)
{
	if (strncmp(line, "power_limit", 11) == 0)
		return e->power_mw;
	if (strncmp(line, "freq_max", 8) == 0)
		return e->freq_max_mhz;
	if (strncmp(line, "fan_hysteresis", 14) == 0)
		return (uint64_t)e->hysteresis_mc;
	return e->down_delay_ns;
}

static void test_units(void **state)
{
	struct tmp *t = *state;
	struct gt_config c;
	struct gt_profile_list *l;
	char text[512], err[512], want[512];

	for (size_t i = 0; i < sizeof(unit_cases) / sizeof(unit_cases[0]);
	     i++) {
		const struct unit_case *u = &unit_cases[i];
		snprintf(text, sizeof(text),
		         "[profile p]\ngpu = *\nfan = balanced\n%s\n", u->line);
		int r = load(t, text, &c, &l, err, sizeof(err));
		assert_non_null(l);
		if (!u->msg) {
			if (r != 0 || l->v[0].nproblems)
				fail_msg("case '%s': got %d '%s'", u->line, r,
				         err);
			assert_int_equal(unit_field(&l->v[0].entry[0], u->line),
			                 u->want);
			assert_int_equal(l->v[0].entry[0].key_line[0] +
			                     l->v[0].entry[0].key_line[3] +
			                     l->v[0].entry[0].key_line[4] +
			                     l->v[0].entry[0].key_line[6] +
			                     l->v[0].entry[0].key_line[7],
			                 4);
		} else {
			snprintf(want, sizeof(want), "gputop.conf:4: ");
			if (r != 1 || strncmp(err, want, strlen(want)) ||
			    !strstr(err, u->msg) || !l->v[0].nproblems ||
			    strcmp(l->v[0].problem, err))
				fail_msg("case '%s': got %d '%s', want '%s%s'",
				         u->line, r, err, want, u->msg);
		}
		gt_profile_list_free(l);
	}
}

/* ---- fan curves ---------------------------------------------------------- */

struct curve_case {
	const char *value;
	unsigned n; /* points expected; 0: refused */
	int32_t t1, s1, tn, sn;
	const char *msg;
};

static const struct curve_case curve_cases[] = {
    {"40:30, 60:50, 80:100", 3, 40000, 3000, 80000, 10000, NULL},
    {"40:30 60:50 80:100", 3, 40000, 3000, 80000, 10000, NULL},
    {"40C:30% 60" DEG "C:50%,80:100 %", 3, 40000, 3000, 80000, 10000, NULL},
    {"40 : 30 ,, 60: 50", 2, 40000, 3000, 60000, 5000, NULL},
    {"40.5:30.25, 90.125:100", 2, 40500, 3025, 90125, 10000, NULL},
    {"0:0, 120:100", 2, 0, 0, 120000, 10000, NULL},
    {"30:30, 40:30, 50:40, 60:50, 70:60, 80:70, 85:80, 90:100", 8, 30000, 3000,
     90000, 10000, NULL},
    /* Refused, naming the point. */
    {"40:50, 60:40", 0, 0, 0, 0, 0,
     "fan: point 2 (60 " DEG "C, 40 %): speed below point 1 (50 %): "
     "the fan would slow down as it gets hotter; each point needs a higher "
     "temperature and at least the speed of the one before"},
    {"40:30, 60:50, 55:70", 0, 0, 0, 0, 0,
     "fan: point 3 (55 " DEG "C, 70 %): temperature not above point 2 "
     "(60 " DEG "C)"},
    {"40:30, 40:50", 0, 0, 0, 0, 0, "fan: point 2 (40 " DEG "C, 50 %)"},
    {"40:30, 130:100", 0, 0, 0, 0, 0,
     "fan: point 2 (130 " DEG "C, 100 %): temperature outside 0..120"},
    {"40:30, 60:101", 0, 0, 0, 0, 0,
     "point 2 (60 " DEG "C, 101 %): "
     "speed outside 0..100 %"},
    {"40:30, 99999999999999:100", 0, 0, 0, 0, 0,
     "point 2 (2147483.647 " DEG "C"},
    {"40:30", 0, 0, 0, 0, 0, "fan: a curve needs 2 to 8 points, not 1"},
    {"30:30, 40:30, 50:40, 60:50, 70:60, 80:70, 85:80, 90:90, 95:100", 0, 0, 0,
     0, 0, "fan has more than 8 points; use at most 8"},
    {"40:30, 60", 0, 0, 0, 0, 0,
     "fan point 2 is not TEMP:SPEED (" DEG "C:%); write points such as "
     "40:30, 60:50, 80:100"},
    {"40:30:20, 60:50", 0, 0, 0, 0, 0, "fan point 1 is not TEMP:SPEED"},
    {"40:30, 60:x", 0, 0, 0, 0, 0, "fan point 2 is not TEMP:SPEED"},
    {"40:30, 60:50x", 0, 0, 0, 0, 0,
     "fan point 2: unknown unit 'x' after the speed; use %, or none"},
    {"40F:30, 60:50", 0, 0, 0, 0, 0,
     "fan point 1: unknown unit 'F' after the temperature; use C or " DEG
     "C, or none"},
    {"40.0001:30, 60:50", 0, 0, 0, 0, 0,
     "fan point 1: the temperature is finer than the smallest step"},
    {"40:30.001, 60:50", 0, 0, 0, 0, 0,
     "fan point 1: the speed is finer than the smallest step"},
};

static void test_curves(void **state)
{
	struct tmp *t = *state;
	struct gt_config c;
	struct gt_profile_list *l;
	char text[512], err[512];
	struct gt_fancurve want;

	/* Presets, any case: the preset's own points. */
	static const char *const presets[] = {"Quiet", "BALANCED",
	                                      "aggressive"};
	for (int i = 0; i < 3; i++) {
		snprintf(text, sizeof(text), "[profile p]\ngpu = *\nfan = %s\n",
		         presets[i]);
		assert_int_equal(load(t, text, &c, &l, err, sizeof(err)), 0);
		const struct gt_profile_entry *e = &l->v[0].entry[0];
		assert_int_equal(e->fan, GT_PROFILE_FAN_CURVE);
		assert_int_equal(e->fan_preset, i);
		assert_int_equal(
		    gt_fancurve_preset((enum gt_fan_preset)i, &want), 0);
		assert_memory_equal(&e->curve, &want, sizeof(want));
		assert_int_equal(gt_fancurve_validate(&e->curve, NULL, 0), 0);
		gt_profile_list_free(l);
	}

	for (size_t i = 0; i < sizeof(curve_cases) / sizeof(curve_cases[0]);
	     i++) {
		const struct curve_case *k = &curve_cases[i];
		snprintf(text, sizeof(text), "[profile p]\ngpu = *\nfan = %s\n",
		         k->value);
		int r = load(t, text, &c, &l, err, sizeof(err));
		const struct gt_profile_entry *e = &l->v[0].entry[0];
		if (k->n) {
			if (r != 0)
				fail_msg("case '%s': got '%s'", k->value, err);
			assert_int_equal(e->fan_preset, -1);
			assert_int_equal(e->curve.n, k->n);
			assert_int_equal(e->curve.pt[0].temp_mc, k->t1);
			assert_int_equal(e->curve.pt[0].cpercent, k->s1);
			assert_int_equal(e->curve.pt[k->n - 1].temp_mc, k->tn);
			assert_int_equal(e->curve.pt[k->n - 1].cpercent, k->sn);
			assert_int_equal(
			    gt_fancurve_validate(&e->curve, NULL, 0), 0);
		} else if (r != 1 || strncmp(err, "gputop.conf:3: ", 15) ||
		           !strstr(err, k->msg) || !l->v[0].nproblems) {
			fail_msg("case '%s': got %d '%s', want '%s'", k->value,
			         r, err, k->msg);
		}
		gt_profile_list_free(l);
	}
}

#define T(f) cmocka_unit_test_setup_teardown(f, tmp_setup, tmp_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_units),
	    T(test_curves),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

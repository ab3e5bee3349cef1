/* SPDX-License-Identifier: MIT */
/*
 * fancurve.c - fan-curve validation, presets, interpolation and the
 * software loop's decisions (see fancurve.h). Pure: no I/O, no clock, no
 * globals; the caller feeds readings and times and carries out decisions.
 */
#include "control/fancurve.h"

#include <stdio.h>
#include <strings.h>

/* "60 °C" or "60.5 °C": messages quote the user's own numbers. */
static void fmt_temp(char *buf, size_t len, int64_t mc)
{
	int64_t a = mc < 0 ? -mc : mc;
	const char *sign = mc < 0 ? "-" : "";

	if (a % 1000 == 0)
		snprintf(buf, len, "%s%lld °C", sign, (long long)(a / 1000));
	else if (a % 100 == 0)
		snprintf(buf, len, "%s%lld.%lld °C", sign,
		         (long long)(a / 1000), (long long)(a % 1000 / 100));
	else
		snprintf(buf, len, "%s%lld.%03lld °C", sign,
		         (long long)(a / 1000), (long long)(a % 1000));
}

/* "45 %" or "45.5 %". */
static void fmt_pct(char *buf, size_t len, int64_t cp)
{
	int64_t a = cp < 0 ? -cp : cp;
	const char *sign = cp < 0 ? "-" : "";

	if (a % 100 == 0)
		snprintf(buf, len, "%s%lld %%", sign, (long long)(a / 100));
	else
		snprintf(buf, len, "%s%lld.%02lld %%", sign,
		         (long long)(a / 100), (long long)(a % 100));
}

static int refuse(char *err, size_t len, unsigned i,
                  const struct gt_fan_point *p, const char *why)
{
	char t[32], s[32];

	if (err && len) {
		fmt_temp(t, sizeof(t), p->temp_mc);
		fmt_pct(s, sizeof(s), p->cpercent);
		snprintf(err, len, "point %u (%s, %s): %s", i + 1, t, s, why);
	}
	return -1;
}

int gt_fancurve_validate(const struct gt_fancurve *c, char *err, size_t len)
{
	char why[160], t[32], s[32];

	if (err && len)
		err[0] = '\0';
	if (!c) {
		if (err && len)
			snprintf(err, len, "no curve");
		return -1;
	}
	if (c->n < GT_FANCURVE_MIN_POINTS || c->n > GT_FANCURVE_MAX_POINTS) {
		if (err && len)
			snprintf(err, len,
			         "a curve needs %d to %d points, not %u",
			         GT_FANCURVE_MIN_POINTS, GT_FANCURVE_MAX_POINTS,
			         c->n);
		return -1;
	}
	for (unsigned i = 0; i < c->n; i++) {
		const struct gt_fan_point *p = &c->pt[i];
		const struct gt_fan_point *q = i ? &c->pt[i - 1] : NULL;

		if (p->temp_mc < 0 || p->temp_mc > GT_FANCURVE_TEMP_MAX_MC)
			return refuse(err, len, i, p,
			              "temperature outside 0..120 °C");
		if (p->cpercent < 0 || p->cpercent > GT_CPERCENT_FULL)
			return refuse(err, len, i, p, "speed outside 0..100 %");
		if (!q)
			continue;
		fmt_temp(t, sizeof(t), q->temp_mc);
		fmt_pct(s, sizeof(s), q->cpercent);
		if (p->temp_mc <= q->temp_mc) {
			snprintf(why, sizeof(why),
			         "temperature not above point %u (%s)", i, t);
			return refuse(err, len, i, p, why);
		}
		if (p->cpercent < q->cpercent) {
			/* A curve that slows the fan as the GPU gets hotter
			 * is a typo or a trap; CoreCtrl crashed on them (#164).
			 */
			snprintf(why, sizeof(why),
			         "speed below point %u (%s): the fan would "
			         "slow down as it gets hotter",
			         i, s);
			return refuse(err, len, i, p, why);
		}
	}
	return 0;
}

/* See fancurve.h for the reasons behind the numbers. */
static const struct gt_fancurve presets[GT_FAN_PRESET_COUNT] = {
    [GT_FAN_PRESET_QUIET] = {5,
                             {{50000, 3000},
                              {60000, 3500},
                              {70000, 5000},
                              {80000, 7500},
                              {87000, 10000}}},
    [GT_FAN_PRESET_BALANCED] = {5,
                                {{40000, 3000},
                                 {50000, 4000},
                                 {60000, 5000},
                                 {70000, 7000},
                                 {80000, 10000}}},
    [GT_FAN_PRESET_AGGRESSIVE] = {5,
                                  {{35000, 4000},
                                   {45000, 5000},
                                   {55000, 6500},
                                   {65000, 8500},
                                   {75000, 10000}}},
};

static const char *const preset_names[GT_FAN_PRESET_COUNT] = {
    [GT_FAN_PRESET_QUIET] = "quiet",
    [GT_FAN_PRESET_BALANCED] = "balanced",
    [GT_FAN_PRESET_AGGRESSIVE] = "aggressive",
};

int gt_fancurve_preset(enum gt_fan_preset p, struct gt_fancurve *out)
{
	if ((unsigned)p >= GT_FAN_PRESET_COUNT || !out)
		return -1;
	*out = presets[p];
	return 0;
}

const char *gt_fan_preset_name(enum gt_fan_preset p)
{
	return (unsigned)p < GT_FAN_PRESET_COUNT ? preset_names[p] : NULL;
}

int gt_fan_preset_parse(const char *name, enum gt_fan_preset *out)
{
	for (unsigned i = 0; name && i < GT_FAN_PRESET_COUNT; i++) {
		if (strcasecmp(name, preset_names[i]) == 0) {
			*out = (enum gt_fan_preset)i;
			return 0;
		}
	}
	return -1;
}

int32_t gt_fancurve_eval(const struct gt_fancurve *c, int64_t temp_mc)
{
	if (temp_mc < c->pt[0].temp_mc)
		return -1;
	for (unsigned i = 0; i + 1 < c->n; i++) {
		const struct gt_fan_point *a = &c->pt[i], *b = &c->pt[i + 1];

		if (temp_mc > b->temp_mc)
			continue;
		/* Both differences are non-negative on a valid curve, so
		 * adding half the divisor rounds to nearest. int64: at most
		 * 10000 * 120000. */
		int64_t num = (int64_t)(b->cpercent - a->cpercent) *
		              (temp_mc - a->temp_mc);
		int64_t den = b->temp_mc - a->temp_mc;
		return a->cpercent + (int32_t)((2 * num + den) / (2 * den));
	}
	return c->pt[c->n - 1].cpercent;
}

void gt_fanloop_config_default(struct gt_fanloop_config *cfg)
{
	cfg->min_cpercent = 0;
	cfg->max_cpercent = GT_CPERCENT_FULL;
	cfg->panic_mc = 95000;
	cfg->down_delay_ns = 5000000000ull;
	cfg->hysteresis_mc = 3000;
	cfg->quantum_cpercent = 100;
}

int gt_fanloop_init(struct gt_fanloop *l, const struct gt_fanloop_config *cfg,
                    char *err, size_t len)
{
	const char *why = NULL;

	if (!cfg)
		why = "no loop settings";
	else if (cfg->min_cpercent < 0 ||
	         cfg->max_cpercent > GT_CPERCENT_FULL ||
	         cfg->min_cpercent > cfg->max_cpercent)
		why =
		    "device speed range must satisfy 0 <= min <= max <= 100 %";
	else if (cfg->panic_mc <= 0 ||
	         cfg->panic_mc > GT_FAN_TEMP_PLAUSIBLE_MAX_MC)
		why = "slowdown threshold must be within 1..150 °C";
	else if (cfg->hysteresis_mc < 0)
		why = "hysteresis must not be negative";
	else if (cfg->quantum_cpercent < 1 ||
	         cfg->quantum_cpercent > GT_CPERCENT_FULL)
		why = "speed step must be within 0.01..100 %";
	if (why) {
		if (err && len)
			snprintf(err, len, "%s", why);
		return -1;
	}
	*l = (struct gt_fanloop){
	    .cfg = *cfg,
	    .mode = GT_FAN_MODE_UNKNOWN,
	    .applied_cpercent = -1,
	};
	if (err && len)
		err[0] = '\0';
	return 0;
}

/* The speed the loop would run at: the curve's value rounded to the step
 * the device can express, then kept inside the device's settable range
 * (NVIDIA refuses speeds below its minimum with INVALID_ARGUMENT). */
static int32_t target_of(const struct gt_fanloop_config *cfg, int32_t curve)
{
	int32_t q = cfg->quantum_cpercent;
	int32_t v = (curve + q / 2) / q * q;

	if (v < cfg->min_cpercent)
		v = cfg->min_cpercent;
	if (v > cfg->max_cpercent)
		v = cfg->max_cpercent;
	return v;
}

/* Hand the fan to the firmware: a write unless it is known to be there. */
static void go_auto(struct gt_fanloop *l, enum gt_fan_reason why,
                    int32_t target, struct gt_fan_decision *out)
{
	out->action = l->mode == GT_FAN_MODE_AUTO ? GT_FAN_KEEP : GT_FAN_AUTO;
	out->reason = why;
	out->cpercent = -1;
	out->target_cpercent = target;
	l->mode = GT_FAN_MODE_AUTO;
	l->applied_cpercent = -1;
	l->low = false;
}

static void set_speed(struct gt_fanloop *l, enum gt_fan_reason why, int32_t v,
                      int64_t temp_mc, struct gt_fan_decision *out)
{
	out->action = GT_FAN_SET;
	out->reason = why;
	out->cpercent = v;
	out->target_cpercent = v;
	l->mode = GT_FAN_MODE_MANUAL;
	l->applied_cpercent = v;
	l->applied_temp_mc = temp_mc;
	l->low = false;
}

static void keep(struct gt_fanloop *l, enum gt_fan_reason why, int32_t target,
                 struct gt_fan_decision *out)
{
	out->action = GT_FAN_KEEP;
	out->reason = why;
	out->cpercent = l->applied_cpercent;
	out->target_cpercent = target;
}

void gt_fanloop_step(struct gt_fanloop *l, const struct gt_fancurve *c,
                     int64_t temp_mc, uint64_t now_ns,
                     struct gt_fan_decision *out)
{
	const struct gt_fanloop_config *cfg = &l->cfg;

	/* 1. Safety first: whatever the curve says, the firmware's own
	 * curve is the safe place for a fan gputop cannot reason about. */
	if (gt_fancurve_validate(c, NULL, 0) != 0) {
		go_auto(l, GT_FAN_R_BAD_CURVE, -1, out);
		return;
	}
	if (temp_mc == GT_FAN_TEMP_INVALID ||
	    temp_mc < GT_FAN_TEMP_PLAUSIBLE_MIN_MC ||
	    temp_mc > GT_FAN_TEMP_PLAUSIBLE_MAX_MC) {
		go_auto(l, GT_FAN_R_SENSOR_FAILED, -1, out);
		return;
	}
	int32_t curve = gt_fancurve_eval(c, temp_mc);
	int32_t target = curve < 0 ? -1 : target_of(cfg, curve);
	if (temp_mc >= cfg->panic_mc) {
		l->panic_latched = true;
		go_auto(l, GT_FAN_R_PANIC_THRESHOLD, target, out);
		return;
	}
	/* Leave the firmware in charge until the GPU is clearly below the
	 * threshold, or the loop would flap around it. */
	if (l->panic_latched) {
		if (temp_mc >= cfg->panic_mc - cfg->hysteresis_mc) {
			go_auto(l, GT_FAN_R_PANIC_THRESHOLD, target, out);
			return;
		}
		l->panic_latched = false;
	}

	/* 2. Not driving the fan yet (or any more). */
	if (l->mode != GT_FAN_MODE_MANUAL) {
		if (target < 0)
			go_auto(l, GT_FAN_R_BELOW_CURVE, -1, out);
		else
			set_speed(l, GT_FAN_R_START, target, temp_mc, out);
		return;
	}

	/* 3./4. Up at once; equal needs no write. */
	if (target > l->applied_cpercent) {
		set_speed(l, GT_FAN_R_UP, target, temp_mc, out);
		return;
	}
	if (target == l->applied_cpercent) {
		l->low = false;
		keep(l, GT_FAN_R_UNCHANGED, target, out);
		return;
	}

	/* 5. Down (or below the curve) only when clearly and durably cooler:
	 * a small dip, or a short one, must not make the fan hunt. */
	if (l->applied_temp_mc - temp_mc <= cfg->hysteresis_mc) {
		l->low = false;
		keep(l, GT_FAN_R_HYSTERESIS, target, out);
		return;
	}
	if (!l->low) {
		l->low = true;
		l->low_since_ns = now_ns;
	}
	uint64_t waited =
	    now_ns >= l->low_since_ns ? now_ns - l->low_since_ns : 0;
	if (waited < cfg->down_delay_ns) {
		keep(l, GT_FAN_R_DELAY, target, out);
		return;
	}
	if (target < 0)
		go_auto(l, GT_FAN_R_BELOW_CURVE, -1, out);
	else
		set_speed(l, GT_FAN_R_DOWN, target, temp_mc, out);
}

void gt_fanloop_write_failed(struct gt_fanloop *l)
{
	l->mode = GT_FAN_MODE_UNKNOWN;
	l->applied_cpercent = -1;
	l->low = false;
}

const char *gt_fan_action_name(enum gt_fan_action a)
{
	switch (a) {
	case GT_FAN_KEEP:
		return "keep";
	case GT_FAN_SET:
		return "set";
	case GT_FAN_AUTO:
		return "auto";
	}
	return "?";
}

const char *gt_fan_reason_name(enum gt_fan_reason r)
{
	static const char *const names[GT_FAN_R_COUNT] = {
	    [GT_FAN_R_START] = "start",
	    [GT_FAN_R_UP] = "up",
	    [GT_FAN_R_DOWN] = "down",
	    [GT_FAN_R_UNCHANGED] = "unchanged",
	    [GT_FAN_R_HYSTERESIS] = "hysteresis",
	    [GT_FAN_R_DELAY] = "delay",
	    [GT_FAN_R_BELOW_CURVE] = "below_curve",
	    [GT_FAN_R_PANIC_THRESHOLD] = "panic_threshold",
	    [GT_FAN_R_SENSOR_FAILED] = "sensor_failed",
	    [GT_FAN_R_BAD_CURVE] = "bad_curve",
	};
	return (unsigned)r < GT_FAN_R_COUNT ? names[r] : "?";
}

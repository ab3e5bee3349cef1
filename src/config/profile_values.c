/* SPDX-License-Identifier: MIT */
/*
 * profile_values.c - the keys of a profile's gpu block and their values:
 * numbers with strict units (W, mW, MHz, C, s, ms), performance levels,
 * power profiles, fan curves and fan lists (syntax in profile.h). Numbers
 * are parsed by hand for the reason config.c gives: the dashboard runs
 * under setlocale(LC_ALL, ""), where strtod reads "1,5".
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config/config_text.h"
#include "control/control_amdgpu.h"
#include "config/profile.h"
#include "config/profile_priv.h"
#include "core/text.h"

/* "°", spelled out: "\xb0C" would read as one hex escape. */
#define DEG "\xc2\xb0"

/* ---- keys ----------------------------------------------------------- */

static const char *const key_names[GT_PK__COUNT] = {
    [GT_PK_POWER_LIMIT] = "power_limit",
    [GT_PK_PERF_LEVEL] = "perf_level",
    [GT_PK_POWER_PROFILE] = "power_profile",
    [GT_PK_FREQ_MIN] = "freq_min",
    [GT_PK_FREQ_MAX] = "freq_max",
    [GT_PK_FAN] = "fan",
    [GT_PK_FAN_HYSTERESIS] = "fan_hysteresis",
    [GT_PK_FAN_DOWN_DELAY] = "fan_down_delay",
    [GT_PK_FANS] = "fans",
};

const char *gt_profile_key_name(enum gt_profile_key k)
{
	return (unsigned)k < GT_PK__COUNT ? key_names[k] : "?";
}

int gt_profile_find_key(const char *name)
{
	for (int k = 0; k < GT_PK__COUNT; k++)
		if (strcasecmp(name, key_names[k]) == 0)
			return k;
	return -1;
}

/* ---- numbers with units ----------------------------------------------- */

/* A unit and how many of the result's base unit one of it is. */
struct unit {
	const char *name;
	uint64_t mult;
};

/* How a value with units is written, for messages. */
struct qty {
	const struct unit *units; /* NULL-terminated; first = default */
	const char *unit_list;    /* "W or mW" */
	const char *example;      /* "250W" */
	const char *step;         /* the smallest step: "1 mW" */
	uint64_t min, max;        /* in base units */
	const char *max_text;     /* "100000 W" */
};

static const struct unit u_power[] = {{"W", 1000}, {"mW", 1}, {NULL, 0}};
static const struct unit u_freq[] = {{"MHz", 1}, {NULL, 0}};
static const struct unit u_temp[] = {{"C", 1000}, {DEG "C", 1000}, {NULL, 0}};
static const struct unit u_time[] = {
    {"s", 1000000000u}, {"ms", 1000000u}, {NULL, 0}};
static const struct unit u_pct[] = {{"%", 100}, {NULL, 0}};

static const struct qty q_power = {.units = u_power,
                                   .unit_list = "W or mW",
                                   .example = "250W",
                                   .step = "1 mW",
                                   .min = 1,
                                   .max = GT_PROFILE_POWER_MAX_MW,
                                   .max_text = "100000 W"};
static const struct qty q_freq = {.units = u_freq,
                                  .unit_list = "MHz",
                                  .example = "1800MHz",
                                  .step = "1 MHz",
                                  .min = 1,
                                  .max = GT_PROFILE_FREQ_MAX_MHZ,
                                  .max_text = "100000 MHz"};
static const struct qty q_hyst = {.units = u_temp,
                                  .unit_list = "C or " DEG "C",
                                  .example = "3C",
                                  .step = "0.001 " DEG "C",
                                  .min = 0,
                                  .max = GT_PROFILE_HYSTERESIS_MAX_MC,
                                  .max_text = "30 " DEG "C"};
static const struct qty q_delay = {.units = u_time,
                                   .unit_list = "s or ms",
                                   .example = "5s",
                                   .step = "1 ns",
                                   .min = 0,
                                   .max = GT_PROFILE_DOWN_DELAY_MAX_NS,
                                   .max_text = "600 s"};

enum qres { Q_OK, Q_NOT_NUMBER, Q_NO_UNIT, Q_BAD_UNIT, Q_TOO_FINE, Q_TOO_BIG };

static bool is_sep(char c)
{
	return c == ' ' || c == '\t' || c == ',' || c == ':' || c == '\0';
}

/*
 * Reads "12", "12.5", then a unit (right after the number, or after blanks
 * when what follows is not a number or separator: "250 W" has a unit,
 * "40 60:50" does not) from *pp into base units; *pp moves past what was
 * read. optional: no unit means the table's first. The bad unit, if any,
 * is copied to unit.
 */
static enum qres scan_qty(const char **pp, const struct unit *units,
                          bool optional, uint64_t *out, char *unit, size_t ulen)
{
	const char *p = *pp, *q, *u;
	uint64_t ip = 0, frac = 0, scale = 1, mult = 0;
	int nd = 0, fd = 0;
	bool big = false, fine = false;
	size_t n;

	unit[0] = '\0';
	for (; isdigit((unsigned char)*p); p++, nd++)
		if (ip >= 100000000000ull) /* beyond any limit: only "big" */
			big = true;
		else
			ip = ip * 10 + (uint64_t)(*p - '0');
	if (*p == '.') {
		for (p++; isdigit((unsigned char)*p); p++, fd++)
			if (fd < 9) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				scale *= 10;
			} else if (*p != '0') {
				fine = true;
			}
		if (fd == 0) /* "5." is a slip, not a number */
			return Q_NOT_NUMBER;
	}
	if (nd == 0)
		return Q_NOT_NUMBER;
	/* Blanks before a unit ("250 W"), not before the next number or a
	 * separator ("40 60:50", "40 : 30"). */
	q = p + strspn(p, " \t");
	if (q != p && !is_sep(*q) && !isdigit((unsigned char)*q))
		p = q;
	u = p;
	while (!is_sep(*p) && !isdigit((unsigned char)*p))
		p++;
	n = (size_t)(p - u);
	*pp = p;
	if (n == 0 && optional) {
		mult = units[0].mult;
	} else if (n == 0) {
		return Q_NO_UNIT;
	} else {
		for (const struct unit *t = units; t->name; t++)
			if (strlen(t->name) == n && memcmp(t->name, u, n) == 0)
				mult = t->mult;
		if (!mult) {
			snprintf(unit, ulen, "%.*s", (int)(n > 20 ? 20 : n), u);
			return Q_BAD_UNIT;
		}
	}
	if (big)
		return Q_TOO_BIG;
	/* ip < 1e11 times mult <= 1e9 can pass 2^64; the fraction adds
	 * less than one mult. */
	if (ip > (UINT64_MAX - mult) / mult)
		return Q_TOO_BIG;
	if (fine || (frac * mult) % scale)
		return Q_TOO_FINE;
	*out = ip * mult + frac * mult / scale;
	return Q_OK;
}

/* A whole value with units: 0, or -1 with why. */
static int parse_qty(const char *key, const char *v, const struct qty *q,
                     uint64_t *out, char *why, size_t wl)
{
	char sv[64], unit[32];
	const char *p = v;
	enum qres r = scan_qty(&p, q->units, false, out, unit, sizeof(unit));

	gt_config_shown(v, sv, sizeof(sv));
	if (r == Q_OK && *p) {
		char rest[64];
		snprintf(why, wl, "%s '%s': unexpected '%s' after the value",
		         key, sv, gt_config_shown(p, rest, sizeof(rest)));
		return -1;
	}
	switch (r) {
	case Q_OK:
		break;
	case Q_NOT_NUMBER:
		snprintf(why, wl,
		         "%s must be a number with %s such as %s, "
		         "not '%s'",
		         key, q->unit_list, q->example, sv);
		return -1;
	case Q_NO_UNIT:
		snprintf(why, wl,
		         "%s '%s' has no unit; write it with %s, "
		         "such as %s",
		         key, sv, q->unit_list, q->example);
		return -1;
	case Q_BAD_UNIT:
		snprintf(why, wl,
		         "%s '%s': unknown unit '%s'; use %s "
		         "(units are case-sensitive)",
		         key, sv, unit, q->unit_list);
		return -1;
	case Q_TOO_FINE:
		snprintf(why, wl,
		         "%s '%s' is finer than the smallest step "
		         "(%s)",
		         key, sv, q->step);
		return -1;
	case Q_TOO_BIG:
		*out = UINT64_MAX;
		break;
	}
	if (*out > q->max) {
		snprintf(why, wl, "%s '%s' is over %s", key, sv, q->max_text);
		return -1;
	}
	if (*out < q->min) {
		snprintf(why, wl, "%s must be above 0, not '%s'", key, sv);
		return -1;
	}
	return 0;
}

/* ---- values ----------------------------------------------------------- */

static int parse_power(struct gt_profile_entry *e, const char *v, char *why,
                       size_t wl)
{
	uint64_t mw;
	if (strcasecmp(v, "default") == 0) {
		e->power_default = true;
		return 0;
	}
	if (parse_qty("power_limit", v, &q_power, &mw, why, wl)) {
		/* "0W" most likely means "no limit", which no device has. */
		if (strstr(why, "must be above 0"))
			snprintf(why, wl,
			         "power_limit must be above 0 W; "
			         "'default' gives the device's default limit");
		return -1;
	}
	e->power_mw = (uint32_t)mw;
	return 0;
}

static int parse_perf_level(struct gt_profile_entry *e, const char *v,
                            char *why, size_t wl)
{
	char sv[64];
	for (int i = 0; gt_control_amdgpu_perf_levels[i]; i++)
		if (strcasecmp(v, gt_control_amdgpu_perf_levels[i]) == 0) {
			snprintf(e->perf_level, sizeof(e->perf_level), "%s",
			         gt_control_amdgpu_perf_levels[i]);
			return 0;
		}
	snprintf(why, wl,
	         "unknown perf_level '%s' (auto, low, high, manual, "
	         "profile_standard, profile_min_sclk, profile_min_mclk, "
	         "profile_peak, profile_exit, perf_determinism)",
	         gt_config_shown(v, sv, sizeof(sv)));
	return -1;
}

static int parse_power_profile(struct gt_profile_entry *e, const char *v,
                               char *why, size_t wl)
{
	char sv[64];
	size_t n = strlen(v), digits = strspn(v, "0123456789");
	gt_config_shown(v, sv, sizeof(sv));
	if (n && digits == n) {
		/* The kernel reads one digit: "12" would select 1. */
		if (n != 1) {
			snprintf(why, wl,
			         "power_profile index '%s' is not 0..9 (the "
			         "kernel reads one digit)",
			         sv);
			return -1;
		}
		e->power_profile = v[0] - '0';
		return 0;
	}
	if (n == 0 || n >= sizeof(e->power_profile_name) ||
	    strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	              "0123456789_-") != n) {
		snprintf(why, wl,
		         "power_profile must be an index 0..9 or a name from "
		         "the card's pp_power_profile_mode such as COMPUTE "
		         "(letters, digits, '_', '-'), not '%s'",
		         sv);
		return -1;
	}
	e->power_profile = -1;
	memcpy(e->power_profile_name, v, n + 1);
	return 0;
}

static int parse_freq(struct gt_profile_entry *e, enum gt_profile_key k,
                      const char *v, char *why, size_t wl)
{
	uint64_t mhz;
	if (parse_qty(key_names[k], v, &q_freq, &mhz, why, wl))
		return -1;
	if (k == GT_PK_FREQ_MIN)
		e->freq_min_mhz = (uint32_t)mhz;
	else
		e->freq_max_mhz = (uint32_t)mhz;
	return 0;
}

static int not_a_point(unsigned n, char *why, size_t wl)
{
	snprintf(why, wl,
	         "fan point %u is not TEMP:SPEED (" DEG "C:%%); write "
	         "points such as 40:30, 60:50, 80:100",
	         n);
	return -1;
}

/* One number of a point, with its optional unit: 0, or -1 with why. A
 * number too big for any curve is kept as INT32_MAX, so that validation
 * names the point. */
static int point_part(const char **p, const struct unit *units,
                      const char *what, const char *unit_list, unsigned n,
                      int32_t *out, char *why, size_t wl)
{
	char unit[32];
	uint64_t x = 0;
	switch (scan_qty(p, units, true, &x, unit, sizeof(unit))) {
	case Q_OK:
		*out = x > INT32_MAX ? INT32_MAX : (int32_t)x;
		return 0;
	case Q_TOO_BIG:
		*out = INT32_MAX;
		return 0;
	case Q_BAD_UNIT:
		snprintf(
		    why, wl,
		    "fan point %u: unknown unit '%s' after the %s; use %s, "
		    "or none",
		    n, unit, what, unit_list);
		return -1;
	case Q_TOO_FINE:
		snprintf(why, wl,
		         "fan point %u: the %s is finer than the smallest step "
		         "(0.001 " DEG "C, 0.01 %%)",
		         n, what);
		return -1;
	case Q_NOT_NUMBER:
	case Q_NO_UNIT:
		break;
	}
	return not_a_point(n, why, wl);
}

/* "40:30, 60:50" (commas and/or blanks between points, blanks allowed
 * around ':', optional C/°C and %) into a validated curve. */
static int parse_points(const char *v, struct gt_fancurve *c, char *why,
                        size_t wl)
{
	const char *p = v;
	char err[160];
	unsigned n = 0;

	memset(c, 0, sizeof(*c));
	for (;;) {
		p += strspn(p, " \t,");
		if (!*p)
			break;
		if (n == GT_FANCURVE_MAX_POINTS) {
			snprintf(why, wl,
			         "fan has more than %d points; use at most %d",
			         GT_FANCURVE_MAX_POINTS,
			         GT_FANCURVE_MAX_POINTS);
			return -1;
		}
		struct gt_fan_point *pt = &c->pt[n++];
		if (point_part(&p, u_temp, "temperature", "C or " DEG "C", n,
		               &pt->temp_mc, why, wl))
			return -1;
		p += strspn(p, " \t");
		if (*p != ':')
			return not_a_point(n, why, wl);
		p++;
		p += strspn(p, " \t");
		if (point_part(&p, u_pct, "speed", "%", n, &pt->cpercent, why,
		               wl))
			return -1;
		if (!is_sep(*p) || *p == ':')
			return not_a_point(n, why, wl);
	}
	c->n = n;
	if (gt_fancurve_validate(c, err, sizeof(err))) {
		/* err names the point; the rule is what the user needs. */
		snprintf(why, wl, "fan: %s%s", err,
		         strncmp(err, "point", 5) == 0
		             ? "; each point needs a higher temperature and "
		               "at least the speed of the one before"
		             : "");
		return -1;
	}
	return 0;
}

static int parse_fan(struct gt_profile_entry *e, const char *v, char *why,
                     size_t wl)
{
	char sv[64];
	enum gt_fan_preset pr;
	if (strcasecmp(v, "auto") == 0) {
		e->fan = GT_PROFILE_FAN_AUTO;
		return 0;
	}
	if (gt_fan_preset_parse(v, &pr) == 0) {
		e->fan = GT_PROFILE_FAN_CURVE;
		e->fan_preset = (int)pr;
		return gt_fancurve_preset(pr, &e->curve);
	}
	if (isdigit((unsigned char)v[0])) {
		if (parse_points(v, &e->curve, why, wl))
			return -1;
		e->fan = GT_PROFILE_FAN_CURVE;
		e->fan_preset = -1;
		return 0;
	}
	snprintf(why, wl,
	         "fan must be auto, quiet, balanced, aggressive or points "
	         "such as 40:30, 60:50, 80:100, not '%s'",
	         gt_config_shown(v, sv, sizeof(sv)));
	return -1;
}

static int parse_fans(struct gt_profile_entry *e, const char *v, char *why,
                      size_t wl)
{
	const char *p = v;
	unsigned mask = 0;
	char sv[64];

	if (strcasecmp(v, "all") == 0) {
		e->fan_mask = 0;
		return 0;
	}
	gt_config_shown(v, sv, sizeof(sv));
	for (;;) {
		unsigned long f = 0;
		int nd = 0;
		p += strspn(p, " \t,");
		if (!*p)
			break;
		for (; isdigit((unsigned char)*p) && nd < 4; p++, nd++)
			f = f * 10 + (unsigned long)(*p - '0');
		if (nd == 0 ||
		    !(*p == '\0' || *p == ' ' || *p == '\t' || *p == ',')) {
			snprintf(
			    why, wl,
			    "fans must be all or fan numbers such as 0, 1, "
			    "not '%s'",
			    sv);
			return -1;
		}
		if (f >= GT_PROFILE_MAX_FANS) {
			snprintf(why, wl,
			         "fans: fan %lu is beyond the last "
			         "one gputop drives (%d)",
			         f, GT_PROFILE_MAX_FANS - 1);
			return -1;
		}
		if (mask & (1u << f)) {
			snprintf(why, wl, "fans lists fan %lu twice", f);
			return -1;
		}
		mask |= 1u << f;
	}
	if (!mask) {
		snprintf(why, wl,
		         "fans must be all or fan numbers such as "
		         "0, 1, not '%s'",
		         sv);
		return -1;
	}
	e->fan_mask = mask;
	return 0;
}

int gt_profile_parse_setting(struct gt_profile_entry *e, enum gt_profile_key k,
                             const char *v, char *why, size_t wl)
{
	uint64_t x;
	switch (k) {
	case GT_PK_POWER_LIMIT:
		return parse_power(e, v, why, wl);
	case GT_PK_PERF_LEVEL:
		return parse_perf_level(e, v, why, wl);
	case GT_PK_POWER_PROFILE:
		return parse_power_profile(e, v, why, wl);
	case GT_PK_FREQ_MIN:
	case GT_PK_FREQ_MAX:
		return parse_freq(e, k, v, why, wl);
	case GT_PK_FAN:
		return parse_fan(e, v, why, wl);
	case GT_PK_FAN_HYSTERESIS:
		if (parse_qty("fan_hysteresis", v, &q_hyst, &x, why, wl))
			return -1;
		e->hysteresis_mc = (int32_t)x;
		return 0;
	case GT_PK_FAN_DOWN_DELAY:
		if (parse_qty("fan_down_delay", v, &q_delay, &x, why, wl))
			return -1;
		e->down_delay_ns = x;
		return 0;
	case GT_PK_FANS:
		return parse_fans(e, v, why, wl);
	case GT_PK__COUNT:
		break;
	}
	return -1;
}

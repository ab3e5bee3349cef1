/*
 * profile.c - owns the meaning of [profile NAME] sections (syntax and
 * rules in profile.h): the reader that config.c feeds line by line, the
 * value parsers with their units, and lookup and matching. The file itself
 * is read by config.c, so profiles and settings share one line classifier.
 * Numbers are parsed by hand for the reason config.c gives: the dashboard
 * runs under setlocale(LC_ALL, ""), where strtod reads "1,5".
 */
#include "profile.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config.h"
#include "control.h"
#include "text.h"

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

#define ALL_KEYS                                                               \
	"gpu, power_limit, perf_level, power_profile, freq_min, freq_max, "    \
	"fan, fan_hysteresis, fan_down_delay, fans"

const char *gt_profile_key_name(enum gt_profile_key k)
{
	return (unsigned)k < GT_PK__COUNT ? key_names[k] : "?";
}

static int find_key(const char *name)
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
	for (int i = 0; gt_amd_perf_levels[i]; i++)
		if (strcasecmp(v, gt_amd_perf_levels[i]) == 0) {
			snprintf(e->perf_level, sizeof(e->perf_level), "%s",
			         gt_amd_perf_levels[i]);
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

static int parse_setting(struct gt_profile_entry *e, enum gt_profile_key k,
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

/* ---- the reader --------------------------------------------------------- */

enum block { B_NONE, B_REAL, B_SCRATCH };

struct gt_profile_reader {
	struct gt_profile_list *list;
	char file[65];
	gt_profile_report_fn report;
	void *ctx;
	bool in_section; /* in a [profile] section, refused or not */
	long cur;        /* the profile being read, -1: none (or refused) */
	int gpu_lines;   /* "gpu =" lines in it, good or bad */
	bool orphans;    /* settings before its first gpu line: reported */
	enum block block;
	int block_lines; /* lines in the block, good or bad */
	/* Where the lines of a block that cannot be kept go (a bad "gpu ="
	 * line, a repeated GPU, one block too many): they are still
	 * checked, so every mistake shows at once, but never stored. */
	struct gt_profile_entry scratch;
	bool oom;
};

/* Keeps the first problem by line in (n, first_line, buf). */
static void note(const struct gt_profile_reader *r, int *n, int *first_line,
                 char *buf, int line, const char *why)
{
	if ((*n)++ == 0 || line < *first_line) {
		*first_line = line;
		snprintf(buf, GT_PROFILE_PROBLEM_MAX, "%.64s:%d: %s", r->file,
		         line, why);
	}
}

/* Reports a problem on line and marks the list and profile cur with it. */
__attribute__((format(printf, 3, 4))) static void
problem(struct gt_profile_reader *r, int line, const char *fmt, ...)
{
	char why[300];
	va_list ap;
	struct gt_profile *p;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (r->report)
		r->report(r->ctx, line, why);
	note(r, &r->list->nproblems, &r->list->problem_line, r->list->problem,
	     line, why);
	if (r->cur >= 0) {
		p = &r->list->v[r->cur];
		note(r, &p->nproblems, &p->problem_line, p->problem, line, why);
	}
}

static struct gt_profile_entry *block_entry(struct gt_profile_reader *r)
{
	struct gt_profile *p;
	if (r->block == B_SCRATCH)
		return &r->scratch;
	p = &r->list->v[r->cur];
	return &p->entry[p->nentries - 1];
}

static void init_entry(struct gt_profile_entry *e, const char *gpu, int line)
{
	struct gt_fanloop_config lc;
	memset(e, 0, sizeof(*e));
	snprintf(e->gpu, sizeof(e->gpu), "%s", gpu);
	e->line = line;
	e->fan_preset = -1;
	/* The loop's own defaults, so a curve without margins behaves as
	 * the fan dialog's does. */
	gt_fanloop_config_default(&lc);
	e->hysteresis_mc = lc.hysteresis_mc;
	e->down_delay_ns = lc.down_delay_ns;
}

/* Checks that need the whole block: they hold whatever order the lines
 * came in. */
static void end_block(struct gt_profile_reader *r)
{
	struct gt_profile_entry *e;
	const int *kl;
	bool curve;

	if (r->block == B_NONE)
		return;
	e = block_entry(r);
	kl = e->key_line;
	/* A block whose lines were all wrong was told so line by line. */
	if (r->block_lines == 0 && r->block == B_REAL)
		problem(r, e->line,
		        "gpu %s has no settings under it; add some (such as "
		        "power_limit = 250W or fan = balanced) or remove the "
		        "line",
		        e->gpu);
	curve = kl[GT_PK_FAN] && e->fan == GT_PROFILE_FAN_CURVE;
	for (int k = GT_PK_FAN_HYSTERESIS; k <= GT_PK_FAN_DOWN_DELAY; k++)
		if (kl[k] && !curve)
			problem(
			    r, kl[k],
			    kl[GT_PK_FAN]
			        ? "%s does nothing with fan = auto (line "
			          "%d); remove it"
			        : "%s needs a fan curve in the same block; "
			          "add fan = quiet, balanced, aggressive or "
			          "points such as 40:30, 80:100 (line %d is "
			          "the block's gpu line)",
			    key_names[k],
			    kl[GT_PK_FAN] ? kl[GT_PK_FAN] : e->line);
	if (kl[GT_PK_FANS] && !kl[GT_PK_FAN])
		problem(r, kl[GT_PK_FANS],
		        "fans says which fans the fan setting drives, and this "
		        "block has no fan line; add one (fan = auto, a preset "
		        "or points) or remove fans");
	/* The kernel takes a power profile only at level manual, and the
	 * setter writes manual first: another level would undo it, or be
	 * undone, depending on the order of the writes. */
	if (kl[GT_PK_POWER_PROFILE] && kl[GT_PK_PERF_LEVEL] &&
	    strcmp(e->perf_level, "manual") != 0)
		problem(r,
		        kl[GT_PK_POWER_PROFILE] > kl[GT_PK_PERF_LEVEL]
		            ? kl[GT_PK_POWER_PROFILE]
		            : kl[GT_PK_PERF_LEVEL],
		        "power_profile needs perf_level manual (the kernel "
		        "takes a profile only then), not %s (line %d); set it "
		        "to manual or remove it",
		        e->perf_level, kl[GT_PK_PERF_LEVEL]);
	if (kl[GT_PK_FREQ_MIN] && kl[GT_PK_FREQ_MAX] &&
	    e->freq_min_mhz > e->freq_max_mhz)
		problem(r,
		        kl[GT_PK_FREQ_MIN] > kl[GT_PK_FREQ_MAX]
		            ? kl[GT_PK_FREQ_MIN]
		            : kl[GT_PK_FREQ_MAX],
		        "freq_min %u MHz is above freq_max %u MHz; swap them",
		        (unsigned)e->freq_min_mhz, (unsigned)e->freq_max_mhz);
	r->block = B_NONE;
}

static void end_profile(struct gt_profile_reader *r)
{
	struct gt_profile *p;
	end_block(r);
	/* Settings without a gpu line were already told how to fix it. */
	if (r->cur >= 0 && r->gpu_lines == 0 && !r->orphans) {
		p = &r->list->v[r->cur];
		problem(r, p->line,
		        "[profile %s] has no gpu lines; add gpu = * (every "
		        "GPU) or gpu = a PCI id such as 0000:01:00.0, each "
		        "followed by its settings",
		        p->name);
	}
	r->cur = -1;
	r->in_section = false;
	r->gpu_lines = 0;
	r->orphans = false;
}

struct gt_profile_reader *gt_profile_reader_new(const char *file,
                                                const char *path,
                                                gt_profile_report_fn report,
                                                void *ctx)
{
	struct gt_profile_reader *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	if (!(r->list = calloc(1, sizeof(*r->list))) ||
	    (path && !(r->list->path = strdup(path)))) {
		if (r->list)
			free(r->list);
		free(r);
		return NULL;
	}
	r->list->exists = true;
	snprintf(r->file, sizeof(r->file), "%s", file ? file : "gputop.conf");
	r->report = report;
	r->ctx = ctx;
	r->cur = -1;
	return r;
}

/* Whether name is "profile" alone or followed by blanks; *rest: after. */
static bool profile_section(const char *name, const char **rest)
{
	if (strncasecmp(name, "profile", 7) != 0 ||
	    (name[7] && name[7] != ' ' && name[7] != '\t'))
		return false;
	*rest = name + 7 + strspn(name + 7, " \t");
	return true;
}

static bool name_ok(struct gt_profile_reader *r, const char *n, int line)
{
	char sv[64];
	size_t len = strlen(n);
	static const char ok[] = "abcdefghijklmnopqrstuvwxyz"
	                         "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";
	gt_config_shown(n, sv, sizeof(sv));
	if (len == 0)
		problem(r, line,
		        "a profile section needs a name: [profile NAME], such "
		        "as [profile quiet-night]");
	else if (strspn(n, ok) != len)
		problem(r, line,
		        "profile name '%s' may hold only letters, digits, '.', "
		        "'_' and '-'; rename it, such as [profile quiet-night]",
		        sv);
	else if (len >= GT_PROFILE_NAME_MAX)
		problem(r, line,
		        "profile name '%s' is over %d characters; shorten it",
		        sv, GT_PROFILE_NAME_MAX - 1);
	else if (n[0] == '-')
		problem(r, line,
		        "profile name '%s' starts with '-', so --apply would "
		        "read it as an option; rename it",
		        sv);
	else
		return true;
	return false;
}

bool gt_profile_reader_section(struct gt_profile_reader *r, const char *name,
                               int line)
{
	const char *n;
	struct gt_profile *v, *p;
	long dup = -1;

	if (!r)
		return false;
	end_profile(r);
	if (!profile_section(name, &n))
		return false;
	r->in_section = true;
	if (r->oom || !name_ok(r, n, line))
		return true; /* its lines are skipped: they have no home */
	for (size_t i = 0; i < r->list->n && dup < 0; i++)
		if (strcasecmp(r->list->v[i].name, n) == 0)
			dup = (long)i;
	v = realloc(r->list->v, (r->list->n + 1) * sizeof(*v));
	if (!v) {
		r->oom = true;
		problem(r, line, "out of memory while reading profiles");
		return true;
	}
	r->list->v = v;
	p = &v[r->list->n];
	memset(p, 0, sizeof(*p));
	memcpy(p->name, n, strlen(n) + 1);
	p->line = line;
	r->cur = (long)r->list->n++;
	if (dup >= 0) {
		/* Both are marked: applying either would be a guess. */
		struct gt_profile *first = &r->list->v[dup];
		char why[300];
		snprintf(why, sizeof(why),
		         "a second [profile %s] (the first is at line %d); "
		         "rename or merge them",
		         n, first->line);
		problem(r, line, "%s", why);
		note(r, &first->nproblems, &first->problem_line, first->problem,
		     line, why);
	}
	return true;
}

static void gpu_line(struct gt_profile_reader *r, int line, const char *v)
{
	struct gt_profile *p = &r->list->v[r->cur];
	char id[GT_PROFILE_GPU_MAX], sv[64];

	end_block(r);
	r->gpu_lines++;
	r->block_lines = 0;
	r->block = B_SCRATCH;
	init_entry(&r->scratch, "?", line);
	if (strcmp(v, "*") == 0) {
		snprintf(id, sizeof(id), "*");
	} else if (gt_config_pci_normalize(v, id, sizeof(id))) {
		problem(r, line,
		        "gpu '%s' is not a PCI id such as 0000:01:00.0 (see "
		        "gputop --list) or * for every GPU",
		        gt_config_shown(v, sv, sizeof(sv)));
		return;
	}
	for (size_t i = 0; i < p->nentries; i++)
		if (strcmp(p->entry[i].gpu, id) == 0) {
			problem(r, line,
			        "gpu %s already has a block at line %d of this "
			        "profile; put these settings there",
			        id, p->entry[i].line);
			return;
		}
	if (p->nentries == GT_PROFILE_MAX_BLOCKS) {
		problem(r, line, "a profile holds at most %d gpu blocks",
		        GT_PROFILE_MAX_BLOCKS);
		return;
	}
	init_entry(&p->entry[p->nentries++], id, line);
	r->block = B_REAL;
}

void gt_profile_reader_line(struct gt_profile_reader *r, int line,
                            const char *key, const char *value, const char *why)
{
	char sv[64], w[300];
	struct gt_profile_entry *e;
	int k;

	if (!r || !r->in_section || r->cur < 0)
		return; /* outside a profile, or under a refused header */
	if (r->block != B_NONE && !(key && !why && !strcasecmp(key, "gpu")))
		r->block_lines++;
	if (why) {
		if (key && *key) /* "= 5" has an empty key */
			problem(r, line, "%s: %s",
			        gt_config_shown(key, sv, sizeof(sv)), why);
		else
			problem(r, line, "%s", why);
		return;
	}
	if (!key) /* the reader's contract: a setting has a key */
		return;
	if (strcasecmp(key, "gpu") == 0) {
		gpu_line(r, line, value);
		return;
	}
	if ((k = find_key(key)) < 0) {
		problem(r, line, "unknown key '%s' in a profile (" ALL_KEYS ")",
		        gt_config_shown(key, sv, sizeof(sv)));
		return;
	}
	if (r->block == B_NONE) {
		r->orphans = true;
		problem(r, line,
		        "%s comes before any gpu line; start the block with "
		        "gpu = * (every GPU) or gpu = a PCI id such as "
		        "0000:01:00.0",
		        key_names[k]);
		return;
	}
	e = block_entry(r);
	if (e->key_line[k]) {
		problem(r, line,
		        "%s is already set for this gpu at line %d; keep one "
		        "of them",
		        key_names[k], e->key_line[k]);
		return;
	}
	if (parse_setting(e, (enum gt_profile_key)k, value, w, sizeof(w))) {
		problem(r, line, "%s", w);
		return;
	}
	e->key_line[k] = line;
}

struct gt_profile_list *gt_profile_reader_finish(struct gt_profile_reader *r)
{
	struct gt_profile_list *l;
	if (!r)
		return NULL;
	end_profile(r);
	l = r->list;
	if (r->oom) {
		gt_profile_list_free(l);
		l = NULL;
	}
	free(r);
	return l;
}

/* ---- the list ------------------------------------------------------------ */

void gt_profile_list_free(struct gt_profile_list *l)
{
	if (!l)
		return;
	free(l->v);
	free(l->path);
	free(l);
}

int gt_profile_load(const char *path, struct gt_profile_list **out, char *err,
                    size_t errlen)
{
	struct gt_config c;
	char e[512];
	*out = NULL;
	if (errlen)
		err[0] = '\0';
	/* The settings' own problems are the dashboard's business. */
	if (gt_config_load_profiles(path, &c, out, e, sizeof(e)) < 0) {
		if (errlen)
			snprintf(err, errlen, "%s", e);
		return -1;
	}
	return 0;
}

const struct gt_profile *gt_profile_find(const struct gt_profile_list *l,
                                         const char *name)
{
	for (size_t i = 0; l && name && i < l->n; i++)
		if (strcasecmp(l->v[i].name, name) == 0)
			return &l->v[i];
	return NULL;
}

const struct gt_profile_entry *gt_profile_match(const struct gt_profile *p,
                                                const char *pci_bus_id)
{
	const struct gt_profile_entry *star = NULL;
	char id[GT_PROFILE_GPU_MAX];
	if (!p || gt_config_pci_normalize(pci_bus_id, id, sizeof(id)))
		return NULL;
	for (size_t i = 0; i < p->nentries; i++) {
		if (strcmp(p->entry[i].gpu, id) == 0)
			return &p->entry[i];
		if (strcmp(p->entry[i].gpu, "*") == 0)
			star = &p->entry[i];
	}
	return star;
}

size_t gt_profile_names(const struct gt_profile_list *l, char *buf, size_t len)
{
	size_t need = 0;
	if (len)
		buf[0] = '\0';
	for (size_t i = 0; l && i < l->n; i++) {
		/* Past the end: only counted (no pointer beyond buf). */
		int w = snprintf(need < len ? buf + need : NULL,
		                 need < len ? len - need : 0, "%s%s",
		                 i ? ", " : "", l->v[i].name);
		need += w > 0 ? (size_t)w : 0;
	}
	return need;
}

void gt_profile_not_found(const struct gt_profile_list *l, const char *name,
                          char *buf, size_t len)
{
	char sv[64], names[512];
	const char *file = l && l->path ? l->path : "the config file";
	gt_config_shown(name ? name : "", sv, sizeof(sv));
	if (!len)
		return;
	if (l && !l->exists)
		snprintf(buf, len, "no profile '%s': %s does not exist", sv,
		         file);
	else if (!l || l->n == 0)
		snprintf(buf, len,
		         "no profile '%s': %s has no [profile NAME] sections",
		         sv, file);
	else if (gt_profile_names(l, names, sizeof(names)) < sizeof(names))
		snprintf(buf, len, "no profile '%s'; profiles in %s: %s", sv,
		         file, names);
	else
		snprintf(buf, len, "no profile '%s'; profiles in %s: %s...", sv,
		         file, names);
}

/* SPDX-License-Identifier: MIT */
/*
 * profile_plan.c - a profile's plan (profile_plan.h): the checks and the
 * changes of one gpu block for one device: the power settings first (a
 * performance level or a power profile, the power limit, the frequency
 * limits), then the fans; and the blocks of a profile that no GPU here
 * takes.
 */
#include "config/profile_plan.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static struct gt_control_change *add(struct gt_control_change *out, size_t *n,
                                     size_t max,
                                     const struct gt_control_caps *caps,
                                     size_t device,
                                     enum gt_control_change_kind kind)
{
	if (*n >= max)
		return NULL;
	struct gt_control_change *ch = &out[(*n)++];
	memset(ch, 0, sizeof(*ch));
	ch->kind = kind;
	ch->vendor = caps->vendor;
	ch->device = device;
	snprintf(ch->dev, sizeof(ch->dev), "%s", caps->dev);
	ch->fan_method = caps->fan_method;
	ch->fan_count = caps->fan_count;
	return ch;
}

__attribute__((format(printf, 3, 4))) static int fail(char *err, size_t len,
                                                      const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

static bool given(const struct gt_profile_entry *e, enum gt_profile_key k)
{
	return e->key_line[k] != 0;
}

static int power_changes(const struct gt_profile_entry *e,
                         const struct gt_control_caps *caps, size_t device,
                         struct gt_control_change *out, size_t *n, size_t max,
                         char *err, size_t len)
{
	struct gt_control_change *ch;

	if (given(e, GT_PK_PERF_LEVEL) || given(e, GT_PK_POWER_PROFILE)) {
		if (caps->vendor != GT_VENDOR_AMD || !caps->has_level)
			return fail(err, len,
			            "perf_level and power_profile are AMD "
			            "settings this GPU does not have");
	}
	int profile = -1;
	if (given(e, GT_PK_POWER_PROFILE)) {
		for (size_t i = 0; i < caps->nprofiles; i++)
			if ((e->power_profile >= 0 &&
			     caps->profiles[i].index == e->power_profile) ||
			    (e->power_profile < 0 &&
			     strcasecmp(caps->profiles[i].name,
			                e->power_profile_name) == 0))
				profile = caps->profiles[i].index;
		if (profile < 0 && e->power_profile >= 0)
			return fail(err, len,
			            "power_profile %d is not in this card's "
			            "pp_power_profile_mode table",
			            e->power_profile);
		if (profile < 0)
			return fail(err, len,
			            "power_profile '%s' is not in this card's "
			            "pp_power_profile_mode table",
			            e->power_profile_name);
		if (given(e, GT_PK_PERF_LEVEL) &&
		    strcmp(e->perf_level, "manual") != 0)
			return fail(
			    err, len,
			    "power_profile needs perf_level manual (the "
			    "kernel takes a profile only then), not %s",
			    e->perf_level);
	}
	if (given(e, GT_PK_PERF_LEVEL) && profile < 0 &&
	    strcmp(e->perf_level, caps->level) != 0 &&
	    (ch = add(out, n, max, caps, device, GT_CHANGE_PERF_LEVEL)))
		snprintf(ch->text, sizeof(ch->text), "%s", e->perf_level);
	if (profile >= 0 &&
	    (profile != caps->profile_active ||
	     strcmp(caps->level, "manual") != 0) &&
	    (ch = add(out, n, max, caps, device, GT_CHANGE_POWER_PROFILE)))
		ch->value = profile;
	if (given(e, GT_PK_POWER_LIMIT)) {
		if (!caps->power.known)
			return fail(err, len, "power_limit: %s",
			            caps->power.why[0] ? caps->power.why
			                               : "not settable here");
		int64_t v = e->power_default ? caps->power.def
		            : caps->vendor == GT_VENDOR_NVIDIA
		                ? (int64_t)e->power_mw
		                : (int64_t)e->power_mw * 1000;
		if (v < 0)
			return fail(
			    err, len,
			    "power_limit = default: the GPU does not say "
			    "its default");
		if (v != caps->power.cur && (ch = add(out, n, max, caps, device,
		                                      GT_CHANGE_POWER_LIMIT)))
			ch->value = v;
	}
	if (given(e, GT_PK_FREQ_MIN) || given(e, GT_PK_FREQ_MAX)) {
		if (caps->vendor != GT_VENDOR_INTEL || !caps->freq_min.known ||
		    !caps->freq_max.known)
			return fail(err, len,
			            "freq_min/freq_max are Intel settings this "
			            "GPU does not have");
		int64_t lo = given(e, GT_PK_FREQ_MIN) ? e->freq_min_mhz
		                                      : caps->freq_min.cur;
		int64_t hi = given(e, GT_PK_FREQ_MAX) ? e->freq_max_mhz
		                                      : caps->freq_max.cur;
		if ((lo != caps->freq_min.cur || hi != caps->freq_max.cur) &&
		    (ch = add(out, n, max, caps, device,
		              GT_CHANGE_FREQ_LIMITS))) {
			ch->value = lo;
			ch->value2 = hi;
		}
	}
	return 0;
}

int gt_profile_plan_changes(const struct gt_profile_entry *e,
                            const struct gt_control_caps *caps, size_t device,
                            struct gt_control_change *out, size_t max,
                            char *err, size_t len)
{
	size_t n = 0;
	struct gt_control_change *ch;

	if (caps->why[0])
		return fail(err, len, "%s", caps->why);
	if (power_changes(e, caps, device, out, &n, max, err, len) < 0)
		return -1;
	if (!given(e, GT_PK_FAN))
		return (int)n;
	if (caps->fan_method == GT_FAN_METHOD_NONE)
		return fail(err, len, "fan: %s", caps->fan_why);
	ch = add(out, &n, max, caps, device,
	         e->fan == GT_PROFILE_FAN_AUTO ? GT_CHANGE_FAN_AUTO
	                                       : GT_CHANGE_FAN_CURVE);
	if (!ch)
		return fail(err, len, "too many settings for one GPU");
	ch->fan_mask = e->fan_mask;
	ch->curve = e->curve;
	gt_fanloop_config_default(&ch->loop);
	if (caps->fan_max_cpercent > caps->fan_min_cpercent) {
		ch->loop.min_cpercent = caps->fan_min_cpercent;
		ch->loop.max_cpercent = caps->fan_max_cpercent;
	}
	if (caps->slowdown_mc > 0)
		ch->loop.panic_mc = caps->slowdown_mc;
	ch->loop.hysteresis_mc = e->hysteresis_mc;
	ch->loop.down_delay_ns = e->down_delay_ns;
	if (ch->kind == GT_CHANGE_FAN_CURVE &&
	    caps->fan_method == GT_FAN_METHOD_AMD_FIRMWARE && ch->curve.n != 5)
		return fail(err, len,
		            "fan: this card's firmware curve has exactly 5 "
		            "points; the profile gives %u",
		            ch->curve.n);
	return (int)n;
}

/* Whether block e of p is the one some GPU of devs takes. */
static bool taken(const struct gt_profile *p, const struct gt_profile_entry *e,
                  const struct gt_static *devs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (gt_profile_match(p, devs[i].pci_bus_id) == e)
			return true;
	return false;
}

size_t gt_profile_plan_unmatched(const struct gt_profile *p,
                                 const struct gt_static *devs, size_t n,
                                 char *buf, size_t len)
{
	size_t k = 0, used = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < p->nentries; i++) {
		const struct gt_profile_entry *e = &p->entry[i];
		/* "*" may take no GPU while others have blocks of their own;
		 * with no GPU at all it is as empty as any other block. */
		if (strcmp(e->gpu, "*") == 0 ? n > 0 : taken(p, e, devs, n))
			continue;
		if (used < len) {
			int w = snprintf(buf + used, len - used, "%sgpu = %s",
			                 k ? ", " : "", e->gpu);
			used += w > 0 ? (size_t)w : 0;
		}
		k++;
	}
	return k;
}

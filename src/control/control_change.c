/* SPDX-License-Identifier: MIT */
/*
 * control_change.c - one control change as words and as its opposite: the
 * exact writes it makes (gt_control_change_describe, for the preview) and
 * the change that puts back what is in force now
 * (gt_control_change_revert_of). Pure: reads nothing and writes nothing.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "control/control_session.h"

unsigned gt_control_change_fans(const struct gt_control_change *ch)
{
	unsigned n = ch->fan_count ? ch->fan_count : 1;
	return n > GT_MAX_FANS ? GT_MAX_FANS : n;
}

bool gt_control_change_drives_fan(const struct gt_control_change *ch,
                                  unsigned fan)
{
	return ch->fan_mask == 0 || (ch->fan_mask & (1u << fan));
}

struct out {
	char *p;
	size_t len, used, lines;
};

__attribute__((format(printf, 2, 3))) static void line(struct out *o,
                                                       const char *fmt, ...)
{
	va_list ap;
	if (o->used >= o->len)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(o->p + o->used, o->len - o->used, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	o->used += (size_t)n;
	if (o->used < o->len - 1) {
		o->p[o->used++] = '\n';
		o->p[o->used] = '\0';
	} else {
		o->used = o->len;
	}
	o->lines++;
}

static void describe_curve(struct out *o, const struct gt_fancurve *c)
{
	char pts[200];
	size_t used = 0;
	pts[0] = '\0';
	for (unsigned i = 0; i < c->n && used < sizeof(pts); i++) {
		int n = snprintf(pts + used, sizeof(pts) - used, "%s%d°C→%d%%",
		                 i ? "  " : "", c->pt[i].temp_mc / 1000,
		                 c->pt[i].cpercent / 100);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	line(o, "curve: %s", pts);
}

/* Fans back to the firmware, by the method the device's fan has. */
static void describe_fan_auto(struct out *o, const struct gt_control_caps *caps,
                              const struct gt_control_change *ch)
{
	const char *dev = ch->dev;

	if (ch->fan_method == GT_FAN_METHOD_NVML_LOOP) {
		for (unsigned f = 0; f < gt_control_change_fans(ch); f++)
			if (gt_control_change_drives_fan(ch, f))
				line(o,
				     "nvmlDeviceSetDefaultFanSpeed_v2(%s, fan "
				     "%u)",
				     dev, f);
	} else if (ch->fan_method == GT_FAN_METHOD_AMD_FIRMWARE) {
		line(o, "%s/gpu_od/fan_ctrl/fan_curve <- r", dev);
		line(o, "%s/gpu_od/fan_ctrl/fan_curve <- c", dev);
	} else {
		line(o, "%s/pwm1_enable <- 2", caps->hwmon);
	}
}

/* The curve, then what runs it: a software loop's writes each second, or
 * the firmware curve's points. */
static void describe_fan_curve(struct out *o,
                               const struct gt_control_caps *caps,
                               const struct gt_control_change *ch)
{
	const char *dev = ch->dev;
	int below = ch->curve.pt[0].temp_mc / 1000;

	describe_curve(o, &ch->curve);
	if (ch->fan_method == GT_FAN_METHOD_NVML_LOOP) {
		for (unsigned f = 0; f < gt_control_change_fans(ch); f++) {
			if (!gt_control_change_drives_fan(ch, f))
				continue;
			line(
			    o,
			    "each second: nvmlDeviceSetFanSpeed_v2(%s, fan %u, "
			    "curve %%) when it changes",
			    dev, f);
			line(o,
			     "below %d°C: nvmlDeviceSetDefaultFanSpeed_v2(%s, "
			     "fan %u)",
			     below, dev, f);
		}
	} else if (ch->fan_method == GT_FAN_METHOD_AMD_PWM_LOOP) {
		line(o, "%s/pwm1_enable <- 1", caps->hwmon);
		line(o,
		     "each second: %s/pwm1 <- curve %% of pwm1_max when it "
		     "changes",
		     caps->hwmon);
		line(o, "below %d°C: %s/pwm1_enable <- 2", below, caps->hwmon);
	} else {
		for (unsigned i = 0; i < ch->curve.n; i++)
			line(o, "%s/gpu_od/fan_ctrl/fan_curve <- %u %d %d", dev,
			     i, ch->curve.pt[i].temp_mc / 1000,
			     ch->curve.pt[i].cpercent / 100);
		line(o, "%s/gpu_od/fan_ctrl/fan_curve <- c", dev);
	}
}

size_t gt_control_change_describe(const struct gt_control_caps *caps,
                                  const struct gt_control_change *ch, char *buf,
                                  size_t len)
{
	struct out o = {buf, len, 0, 0};
	const char *dev = ch->dev;

	if (len)
		buf[0] = '\0';
	switch (ch->kind) {
	case GT_CHANGE_POWER_LIMIT:
		if (ch->vendor == GT_VENDOR_NVIDIA)
			line(
			    &o,
			    "nvmlDeviceSetPowerManagementLimit_v2(%s, %lld mW)",
			    dev, (long long)ch->value);
		else
			line(&o, "%s <- %lld", caps->power_file,
			     (long long)ch->value);
		break;
	case GT_CHANGE_PERF_LEVEL:
		line(&o, "%s/power_dpm_force_performance_level <- %s", dev,
		     ch->text);
		break;
	case GT_CHANGE_POWER_PROFILE:
		if (strcmp(caps->level, "manual") != 0)
			line(&o,
			     "%s/power_dpm_force_performance_level <- manual",
			     dev);
		line(&o, "%s/pp_power_profile_mode <- %lld", dev,
		     (long long)ch->value);
		break;
	case GT_CHANGE_FREQ_LIMITS: {
		/* In the setter's order: the minimum never passes the
		 * maximum in force, so a higher minimum goes second. */
		bool max_first = ch->value > caps->freq_max.cur;
		for (int i = 0; i < 2; i++) {
			bool max = (i == 0) == max_first;
			int64_t v = max ? ch->value2 : ch->value;
			int64_t now =
			    max ? caps->freq_max.cur : caps->freq_min.cur;
			if (v != now)
				line(&o, "%s <- %lld",
				     max ? caps->freq_max_file
				         : caps->freq_min_file,
				     (long long)v);
		}
		break;
	}
	case GT_CHANGE_FAN_AUTO:
		describe_fan_auto(&o, caps, ch);
		break;
	case GT_CHANGE_FAN_CURVE:
		describe_fan_curve(&o, caps, ch);
		break;
	}
	return o.lines;
}

int gt_control_change_revert_of(const struct gt_control_caps *caps,
                                const struct gt_control_change *ch,
                                struct gt_control_change *out)
{
	*out = *ch;
	switch (ch->kind) {
	case GT_CHANGE_POWER_LIMIT:
		if (!caps->power.known || caps->power.cur < 0)
			return -1;
		out->value = caps->power.cur;
		return 0;
	case GT_CHANGE_PERF_LEVEL:
		if (!caps->has_level || !caps->level[0])
			return -1;
		snprintf(out->text, sizeof(out->text), "%s", caps->level);
		return 0;
	case GT_CHANGE_POWER_PROFILE:
		if (caps->profile_active < 0)
			return -1;
		out->value = caps->profile_active;
		return 0;
	case GT_CHANGE_FREQ_LIMITS:
		if (caps->freq_min.cur < 0 || caps->freq_max.cur < 0)
			return -1;
		out->value = caps->freq_min.cur;
		out->value2 = caps->freq_max.cur;
		return 0;
	case GT_CHANGE_FAN_AUTO:
	case GT_CHANGE_FAN_CURVE:
		/* The fan was under the firmware before (or under an earlier
		 * curve of gputop's, which the firmware also takes over). */
		out->kind = GT_CHANGE_FAN_AUTO;
		return 0;
	}
	return -1;
}

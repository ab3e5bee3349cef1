/* SPDX-License-Identifier: MIT */
/*
 * control_amdgpu_caps.c - the AMD part of what the control dialogs may
 * offer (control_caps.h, the amdgpu ops' caps): the fan method and range,
 * the power cap range, the performance level and the power profiles, read
 * with the setters' own rules (control_amdgpu_priv.h), so that a dialog
 * offers exactly what control_amdgpu.c and control_amdgpu_fan.c will
 * accept.
 */
#include "control/control_amdgpu.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "collectors/amdgpu_parse.h"
#include "control/control_amdgpu_priv.h"
#include "control/control_caps.h"
#include "linux/sysfs.h"

/* The fan as the setters would drive it: the firmware curve where the
 * card has one (RDNA3+, where pwm1 is not dependable), else the pwm loop
 * (pre-RDNA3), else why neither. */
static void fan_caps(const struct amd *d, struct gt_control_caps *caps)
{
	char fan[PATH_MAX];
	struct od_curve o;
	unsigned long lo, hi;
	bool zero = true;
	struct stat st;

	if (gt_control_amdgpu_has_leaf(d, L_CURVE)) {
		if (gt_control_amdgpu_read_curve(d, &o) != 0) {
			snprintf(caps->fan_why, sizeof(caps->fan_why),
			         "gpu_od/fan_ctrl/fan_curve cannot be read");
			return;
		}
		if (!o.range) {
			snprintf(
			    caps->fan_why, sizeof(caps->fan_why),
			    "overdrive is off, so this card's firmware fan "
			    "curve is read-only (no OD_RANGE in fan_curve): "
			    "boot with amdgpu.ppfeaturemask including bit "
			    "0x4000");
			return;
		}
		caps->fan_method = GT_FAN_METHOD_AMD_FIRMWARE;
		caps->fw_temp_min_mc = o.tmin * 1000;
		caps->fw_temp_max_mc = o.tmax * 1000;
		caps->fan_min_cpercent = caps->fw_speed_min_cpercent =
		    o.smin * 100;
		caps->fan_max_cpercent = caps->fw_speed_max_cpercent =
		    o.smax * 100;
		for (int i = 0; i < 5; i++) {
			zero &= o.t[i] == 0 && o.s[i] == 0;
			caps->fw_curve.pt[i] =
			    (struct gt_fan_point){o.t[i] * 1000, o.s[i] * 100};
		}
		/* All zero: the firmware's own curve, whose points the file
		 * does not show. */
		caps->fw_curve.n = zero ? 0 : 5;
	} else if (gt_control_amdgpu_has_leaf(d, L_PWM_ENABLE)) {
		lo = gt_control_amdgpu_read_ul(d, L_PWM, "pwm1_min", 0);
		hi = gt_control_amdgpu_read_ul(d, L_PWM, "pwm1_max", 255);
		if (hi == 0 || hi > 255 || lo > hi) {
			snprintf(caps->fan_why, sizeof(caps->fan_why),
			         "this card's pwm1 range %lu-%lu is unusable",
			         lo, hi);
			return;
		}
		caps->fan_method = GT_FAN_METHOD_AMD_PWM_LOOP;
		/* The setter's percent -> pwm rounding; min rounded up. */
		caps->fan_min_cpercent = (int32_t)((lo * 10000 + hi - 1) / hi);
		caps->fan_max_cpercent = GT_CPERCENT_FULL;
	} else if (d->hwmon[0] &&
	           gt_sysfs_join(fan, sizeof(fan), d->hwmon, "fan1_input") ==
	               0 &&
	           stat(fan, &st) == 0) {
		snprintf(
		    caps->fan_why, sizeof(caps->fan_why),
		    "no hwmon pwm1_enable and no gpu_od/fan_ctrl/fan_curve "
		    "(RDNA4 without overdrive): boot with "
		    "amdgpu.ppfeaturemask including bit 0x4000 for the "
		    "firmware fan curve");
		return;
	} else {
		snprintf(caps->fan_why, sizeof(caps->fan_why),
		         "this device has no fan of its own (an APU's fans "
		         "belong to the machine's embedded controller)");
		return;
	}
	caps->fan_why[0] = '\0';
	caps->fan_count = 1;
}

static void power_caps(const struct amd *d, struct gt_control_caps *caps)
{
	struct gt_control_range *r = &caps->power;
	unsigned long lo =
	    gt_control_amdgpu_read_ul(d, L_CAP, "power1_cap_min", 0);
	unsigned long hi =
	    gt_control_amdgpu_read_ul(d, L_CAP, "power1_cap_max", 0);
	unsigned long def = gt_control_amdgpu_read_ul(
	    d, L_CAP, "power1_cap_default", ULONG_MAX);
	unsigned long cur =
	    gt_control_amdgpu_read_ul(d, L_CAP, "power1_cap", ULONG_MAX);

	if (!gt_control_amdgpu_has_leaf(d, L_CAP)) {
		snprintf(r->why, sizeof(r->why),
		         "this device has no hwmon power1_cap (most APUs, "
		         "SI cards and SR-IOV guests have none)");
		return;
	}
	if (hi == 0 || hi > UINT32_MAX) {
		snprintf(r->why, sizeof(r->why),
		         "this card gives no power1_cap_max: its power cap "
		         "range is unknown");
		return;
	}
	/* As the setter: a min of 0 means the driver does not say. */
	*r = (struct gt_control_range){
	    .known = true,
	    .min = (int64_t)(lo < UW_PER_W ? UW_PER_W : lo),
	    .max = (int64_t)hi,
	    .def = def == ULONG_MAX ? -1 : (int64_t)def,
	    .cur = cur == ULONG_MAX ? -1 : (int64_t)cur,
	};
}

int gt_control_amdgpu_caps(struct gt_control *c, const char *devdir,
                           struct gt_control_caps *caps)
{
	struct amd d;
	char *t;
	ssize_t n;
	int a;

	if (gt_control_amdgpu_open(c, devdir, &d, caps->why, sizeof(caps->why)))
		return -1;
	gt_copy_str(caps->dev, sizeof(caps->dev), d.dir);
	gt_copy_str(caps->hwmon, sizeof(caps->hwmon), d.hwmon);
	if (d.hwmon[0]) /* too long for the preview: "" */
		(void)gt_sysfs_join(caps->power_file, sizeof(caps->power_file),
		                    d.hwmon, "power1_cap");
	power_caps(&d, caps);
	caps->has_level = gt_control_amdgpu_has_leaf(&d, L_LEVEL);
	if (caps->has_level &&
	    gt_control_amdgpu_read_level(&d, caps->level) != 0)
		caps->level[0] = '\0';
	t = malloc(TEXT_MAX);
	n = t ? gt_control_amdgpu_read_leaf(&d, L_PROFILE, t, TEXT_MAX)
	      : -ENOMEM;
	if (n >= 0) {
		caps->nprofiles = gt_control_amdgpu_profile_list(
		    t, (size_t)n, caps->profiles, GT_CAPS_MAX_PROFILES);
		a = gt_amdgpu_parse_power_profile(t, (size_t)n, NULL, 0);
		caps->profile_active = a >= 0 && a <= 9 ? a : -1;
	}
	free(t);
	fan_caps(&d, caps);
	return 0;
}

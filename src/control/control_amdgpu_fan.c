/* SPDX-License-Identifier: MIT */
/*
 * control_amdgpu_fan.c - the AMD fan through sysfs (see
 * control_amdgpu.h): the pre-RDNA3 hwmon pwm setter (pwm1_enable and pwm1,
 * driven by the software curve loop), the hand-back to the firmware, the
 * RDNA3+ firmware fan curve (gpu_od/fan_ctrl/fan_curve) checked against
 * its OD_RANGE, and the curve's restore. The device, its checks and the
 * journaled write are control_amdgpu.c's (control_amdgpu_priv.h).
 */
#include "control/control_amdgpu.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "control/control_amdgpu_priv.h"
#include "control/control_priv.h"

int gt_control_amdgpu_read_curve(const struct amd *d, struct od_curve *o)
{
	char buf[2048], line[128];
	ssize_t n = gt_control_amdgpu_read_leaf(d, L_CURVE, buf, sizeof(buf));
	unsigned got = 0;
	int idx, a, b;

	memset(o, 0, sizeof(*o));
	for (ssize_t i = 0; i < n; i++) {
		size_t k = 0;
		for (; i < n && buf[i] != '\n'; i++)
			if (k + 1 < sizeof(line) && (k || buf[i] > ' '))
				line[k++] = buf[i] ? buf[i] : ' ';
		line[k] = '\0';
		if (sscanf(line, "%d: %dC %d%%", &idx, &a, &b) == 3 &&
		    idx >= 0 && idx < 5) {
			o->t[idx] = a, o->s[idx] = b;
			got |= 1u << idx;
		} else if (sscanf(line, "FAN_CURVE(hotspot temp): %dC %dC", &a,
		                  &b) == 2) {
			o->tmin = a, o->tmax = b, o->range = true;
		} else if (sscanf(line, "FAN_CURVE(fan speed): %d%% %d%%", &a,
		                  &b) == 2) {
			o->smin = a, o->smax = b;
		}
	}
	o->points = got == 0x1f;
	o->range &= o->smax > 0;
	return n < 0 ? (int)n : o->points ? 0 : -EBADMSG;
}

/* The original gputop journaled for leaf l, or NULL. */
static const char *journaled(const struct gt_control *c, const struct amd *d,
                             enum leaf l)
{
	const struct gt_restore_journal *j = gt_control_journal(c);
	char path[PATH_MAX];

	for (size_t i = 0;
	     gt_control_amdgpu_leaf_path(d, l, path) == 0 && i < j->n; i++)
		if (j->a[i].kind == GT_RESTORE_SYSFS &&
		    strcmp(j->a[i].path, path) == 0)
			return j->a[i].value;
	return NULL;
}

/* Sets pwm1_enable to mode and, if pwm is given, pwm1 to it. pwm1's own
 * original matters only when the fan was already manual (1) before
 * gputop: then it is journaled BEFORE pwm1_enable, so that the restore,
 * last change first, sets manual mode and then the old speed. Otherwise
 * putting pwm1_enable back hands the fan to the firmware, which ignores
 * pwm1 (and restoring pwm1 there would fail with EINVAL). */
static int pwm_apply(struct gt_control *c, const struct amd *d,
                     const char *mode, const char *pwm, unsigned *applied,
                     char *err, size_t len)
{
	struct gt_restore_action a[2];
	const char *was;
	char e[16], p[16];
	unsigned long v,
	    hi = gt_control_amdgpu_read_ul(d, L_PWM, "pwm1_max", 255);
	bool set_mode, set_pwm;
	size_t n = 0;

	if (gt_control_amdgpu_read_leaf(d, L_PWM_ENABLE, e, sizeof(e)) <= 0 ||
	    gt_control_amdgpu_read_leaf(d, L_PWM, p, sizeof(p)) <= 0)
		return gt_control_refuse(
		    err, len,
		    "cannot read pwm1_enable and pwm1: "
		    "their originals could not be restored");
	set_mode = strcmp(e, mode) != 0;
	set_pwm = pwm && strcmp(p, pwm) != 0;
	if (set_mode || set_pwm) {
		was = journaled(c, d, L_PWM_ENABLE);
		if ((strcmp(was ? was : e, "1") == 0 &&
		     gt_control_amdgpu_add(c, d, L_PWM, p, a, &n, err, len)) ||
		    (set_mode && gt_control_amdgpu_add(c, d, L_PWM_ENABLE, e, a,
		                                       &n, err, len)) ||
		    gt_control_prepare(c, a, n, err, len))
			return REFUSED;
		/* The kernel refuses pwm1 until the mode is manual. */
		if ((set_mode &&
		     gt_control_amdgpu_write(c, d, L_PWM_ENABLE, "write", e,
		                             mode, err, len)) ||
		    (set_pwm && gt_control_amdgpu_write(c, d, L_PWM, "write", p,
		                                        pwm, err, len)))
			return GT_CONTROL_FAILED;
	}
	if (!applied)
		return GT_CONTROL_OK;
	if (gt_control_amdgpu_read_leaf(d, L_PWM, p, sizeof(p)) <= 0 ||
	    !gt_control_amdgpu_parse_ul(p, &v) || hi == 0 || v > hi)
		gt_control_amdgpu_readback_failed(err, len, "pwm1", -EBADMSG);
	else
		*applied = (unsigned)((v * 100 + hi / 2) / hi);
	return GT_CONTROL_OK;
}

int gt_control_amdgpu_fan_pwm(struct gt_control *c, const char *devdir,
                              unsigned percent, unsigned *applied_percent,
                              char *err, size_t len)
{
	char val[24];
	unsigned long hi;
	struct amd d;

	if (applied_percent)
		*applied_percent = GT_CONTROL_UNREAD;
	if (gt_control_amdgpu_begin(c, "setting a fan speed", devdir, &d, err,
	                            len))
		return REFUSED;
	if (!gt_control_amdgpu_has_leaf(&d, L_PWM_ENABLE))
		return gt_control_refuse(
		    err, len,
		    "this card has no hwmon pwm1_enable, so its fan "
		    "cannot be driven by pwm (RDNA4 runs its fans "
		    "from the firmware): use the firmware fan curve "
		    "(gpu_od/fan_ctrl/fan_curve) instead");
	if (gt_control_amdgpu_has_leaf(&d, L_CURVE))
		return gt_control_refuse(
		    err, len,
		    "this card (RDNA3 or newer) runs its fans from "
		    "the firmware, where hwmon pwm1 is not "
		    "dependable: use the firmware fan curve "
		    "(gpu_od/fan_ctrl/fan_curve) instead");
	if (percent > 100)
		return gt_control_refuse(
		    err, len, "fan speed %u %%: at most 100 %%", percent);
	if (gt_control_amdgpu_target(&d, L_PWM_ENABLE, err, len) ||
	    gt_control_amdgpu_target(&d, L_PWM, err, len))
		return REFUSED;
	hi = gt_control_amdgpu_read_ul(&d, L_PWM, "pwm1_max", 255);
	snprintf(val, sizeof(val), "%lu", (percent * hi + 50) / 100);
	if (gt_control_amdgpu_validate(&d, L_PWM, val, err, len))
		return REFUSED;
	return pwm_apply(c, &d, "1", val, applied_percent, err, len);
}

/* "r" then "c": the firmware's own curve, automatic mode. 0 or -errno. */
static int curve_reset(struct gt_control *c, const struct amd *d,
                       const char *kind, char *err, size_t len)
{
	char old[128] = "";
	struct od_curve o;
	int rc;

	for (int i = 0, k = 0;
	     gt_control_amdgpu_read_curve(d, &o) == 0 && i < 5; i++)
		k += snprintf(old + k, sizeof(old) - (size_t)k, "%s%dC %d%%",
		              i ? ", " : "", o.t[i], o.s[i]);
	rc = gt_control_amdgpu_write(c, d, L_CURVE, kind, old, "r", err, len);
	return rc ? rc
	          : gt_control_amdgpu_write(c, d, L_CURVE, kind, "", "c", err,
	                                    len);
}

int gt_control_amdgpu_fan_auto(struct gt_control *c, const char *devdir,
                               char *err, size_t len)
{
	struct gt_restore_action a;
	struct od_curve o;
	struct amd d;
	bool zero = true;

	if (gt_control_amdgpu_begin(c, "handing the fan back to the firmware",
	                            devdir, &d, err, len))
		return REFUSED;
	if (gt_control_amdgpu_has_leaf(&d, L_CURVE)) {
		if (gt_control_amdgpu_target(&d, L_CURVE, err, len))
			return REFUSED;
		if (gt_control_amdgpu_read_curve(&d, &o) != 0)
			return gt_control_refuse(err, len,
			                         "cannot read fan_curve");
		for (int i = 0; i < 5; i++)
			zero &= o.t[i] == 0 && o.s[i] == 0;
		/* Without OD_RANGE (overdrive off) nobody can have changed
		 * the curve; all zeros is how the firmware's own shows. */
		if (!o.range || zero)
			return GT_CONTROL_OK;
		if (gt_restore_action_fan_curve_reset(&a, d.id, d.dir,
		                                      gt_control_now(c)) ||
		    gt_control_prepare(c, &a, 1, err, len))
			return REFUSED;
		return curve_reset(c, &d, "write", err, len) ? GT_CONTROL_FAILED
		                                             : GT_CONTROL_OK;
	}
	if (!gt_control_amdgpu_has_leaf(&d, L_PWM_ENABLE))
		return gt_control_refuse(err, len,
		                         "this card has no fan control gputop "
		                         "knows (no hwmon pwm1_enable, no "
		                         "gpu_od/fan_ctrl/fan_curve)");
	if (gt_control_amdgpu_target(&d, L_PWM_ENABLE, err, len) ||
	    gt_control_amdgpu_target(&d, L_PWM, err, len))
		return REFUSED;
	return pwm_apply(c, &d, "2", NULL, NULL, err, len);
}

/* Checks a requested curve against the card's: -1 with the reason. */
static int check_curve(const struct gt_fancurve *curve,
                       const struct od_curve *o, int *t, int *s, char *err,
                       size_t len)
{
	char why[160];

	if (!curve || curve->n != 5)
		return gt_control_refuse(err, len,
		                         "the firmware fan curve has exactly 5 "
		                         "points, not %u",
		                         curve ? curve->n : 0);
	if (gt_fancurve_validate(curve, why, sizeof(why)))
		return gt_control_refuse(err, len, "%s", why);
	if (!o->range)
		return gt_control_refuse(err, len,
		                         "overdrive is off, so this card's fan "
		                         "curve is read-only (no OD_RANGE in "
		                         "fan_curve): boot with "
		                         "amdgpu.ppfeaturemask including bit "
		                         "0x4000");
	for (int i = 0; i < 5; i++) {
		const struct gt_fan_point *p = &curve->pt[i];
		if (p->temp_mc % 1000 || p->cpercent % 100)
			return gt_control_refuse(err, len,
			                         "point %d: the firmware curve "
			                         "takes whole °C and whole %%",
			                         i + 1);
		t[i] = p->temp_mc / 1000;
		s[i] = p->cpercent / 100;
		if (t[i] < o->tmin || t[i] > o->tmax)
			return gt_control_refuse(err, len,
			                         "point %d: %d °C is outside "
			                         "this card's range %d-%d °C "
			                         "(hotspot)",
			                         i + 1, t[i], o->tmin, o->tmax);
		if (s[i] < o->smin || s[i] > o->smax)
			return gt_control_refuse(err, len,
			                         "point %d: %d %% is outside "
			                         "this card's range %d-%d %%",
			                         i + 1, s[i], o->smin, o->smax);
	}
	return 0;
}

int gt_control_amdgpu_fan_curve(struct gt_control *c, const char *devdir,
                                const struct gt_fancurve *curve,
                                struct gt_fancurve *applied, char *err,
                                size_t len)
{
	struct gt_restore_action a;
	char old[32], val[32];
	int t[5], s[5], rc;
	struct od_curve o;
	struct amd d;
	bool same = true;

	if (applied)
		memset(applied, 0, sizeof(*applied));
	if (gt_control_amdgpu_begin(c, "setting the fan curve", devdir, &d, err,
	                            len))
		return REFUSED;
	if (!gt_control_amdgpu_has_leaf(&d, L_CURVE))
		return gt_control_refuse(
		    err, len,
		    "this card has no firmware fan curve "
		    "(gpu_od/fan_ctrl/fan_curve, RDNA3 and "
		    "newer): use the software curve");
	if (gt_control_amdgpu_target(&d, L_CURVE, err, len))
		return REFUSED;
	if (gt_control_amdgpu_read_curve(&d, &o) != 0)
		return gt_control_refuse(err, len, "cannot read fan_curve");
	if (check_curve(curve, &o, t, s, err, len))
		return REFUSED;
	for (int i = 0; i < 5; i++)
		same &= t[i] == o.t[i] && s[i] == o.s[i];
	if (!same) {
		if (gt_restore_action_fan_curve_reset(&a, d.id, d.dir,
		                                      gt_control_now(c)) ||
		    gt_control_prepare(c, &a, 1, err, len))
			return REFUSED;
		/* One point a write, as the kernel parses them; "c" makes
		 * the firmware take the whole curve at once. */
		for (int i = 0; i < 6; i++) {
			snprintf(old, sizeof(old), "%d: %dC %d%%", i,
			         i < 5 ? o.t[i] : 0, i < 5 ? o.s[i] : 0);
			snprintf(val, sizeof(val), "%d %d %d", i,
			         i < 5 ? t[i] : 0, i < 5 ? s[i] : 0);
			if (gt_control_amdgpu_write(
			        c, &d, L_CURVE, "write", i < 5 ? old : "",
			        i < 5 ? val : "c", err, len))
				return GT_CONTROL_FAILED;
		}
	}
	if ((rc = gt_control_amdgpu_read_curve(&d, &o)) != 0) {
		gt_control_amdgpu_readback_failed(err, len, "fan_curve", rc);
	} else if (applied) {
		applied->n = 5;
		for (int i = 0; i < 5; i++)
			applied->pt[i] =
			    (struct gt_fan_point){o.t[i] * 1000, o.s[i] * 100};
	}
	return GT_CONTROL_OK;
}

/* ------------------------------------------------------------------ */
/* Restore                                                              */
/* ------------------------------------------------------------------ */

int gt_control_amdgpu_restore_curve(struct gt_control *c, const char *dev_dir)
{
	char why[256];
	struct amd d;

	if (gt_control_amdgpu_open(c, dev_dir, &d, why, sizeof(why)) != 0 ||
	    gt_control_amdgpu_target(&d, L_CURVE, why, sizeof(why)) != 0) {
		gt_control_audit(c, "restore", "?", dev_dir, "", "r",
		                 "refused: no firmware fan curve there");
		return -EPERM;
	}
	return curve_reset(c, &d, "restore", why, sizeof(why));
}

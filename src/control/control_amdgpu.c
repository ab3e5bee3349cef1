/* SPDX-License-Identifier: MIT */
/*
 * control_amdgpu.c - the AMD writes through sysfs (see control_amdgpu.h):
 * the device and its files, the journaled write, the performance level,
 * power profile and power cap setters, the restore of a written value,
 * and the vendor's ops (control_vendor.h). Only the leaves in `leaves` are
 * ever written, each resolved inside the device's own directory just
 * before the write (control_sysfs.c), and every value is checked against
 * what the card itself reports: its profile table, its cap and pwm
 * ranges. The restore runs the same checks, so a state file cannot make
 * gputop write anything a setter would have refused. The fan setters are
 * in control_amdgpu_fan.c, the AMD part of what the control dialogs may
 * offer in control_amdgpu_caps.c; control_amdgpu_priv.h is what the three
 * share.
 */
#include "control/control_amdgpu.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "collectors/amdgpu_parse.h"
#include "control/control_amdgpu_priv.h"
#include "control/control_caps.h"
#include "control/control_priv.h"
#include "control/control_sysfs.h"
#include "control/control_vendor.h"
#include "linux/sysfs.h"

/* The names of the leaves (enum leaf, control_amdgpu_priv.h). */
static const struct {
	const char *name;
	bool hwmon;
} leaves[L_N] = {
    [L_LEVEL] = {"power_dpm_force_performance_level", false},
    [L_PROFILE] = {"pp_power_profile_mode", false},
    [L_CAP] = {"power1_cap", true},
    [L_PWM_ENABLE] = {"pwm1_enable", true},
    [L_PWM] = {"pwm1", true},
    [L_CURVE] = {"gpu_od/fan_ctrl/fan_curve", false},
};

/* The kernel's words (amdgpu_pm.c); it refuses those a card cannot do. */
const char *const gt_control_amdgpu_perf_levels[] = {
    "auto",
    "low",
    "high",
    "manual",
    "profile_standard",
    "profile_min_sclk",
    "profile_min_mclk",
    "profile_peak",
    "profile_exit",
    "perf_determinism",
    NULL,
};

/* ------------------------------------------------------------------ */
/* Device directories and their files                                   */
/* ------------------------------------------------------------------ */

/* The device: a device directory (gt_control_sysfs_device) of an amdgpu
 * device with its PCI slot, and its hwmon dir. */
int gt_control_amdgpu_open(const struct gt_control *c, const char *devdir,
                           struct amd *d, char *err, size_t len)
{
	static const char *const amdgpu[] = {"amdgpu", NULL};
	char driver[32];

	if (gt_control_sysfs_device(c, devdir, "an amdgpu", amdgpu, d->dir,
	                            driver, d->id, err, len))
		return REFUSED;
	/* The lowest-numbered hwmon, as the collector picks it ("" if none:
	 * the setters that need it say so). */
	(void)gt_sysfs_hwmon_dir(d->dir, NULL, d->hwmon, sizeof(d->hwmon));
	return 0;
}

int gt_control_amdgpu_leaf_path(const struct amd *d, enum leaf l, char *out)
{
	if (leaves[l].hwmon && !d->hwmon[0])
		return -ENOENT;
	return gt_sysfs_join(out, PATH_MAX, leaves[l].hwmon ? d->hwmon : d->dir,
	                     leaves[l].name);
}

bool gt_control_amdgpu_has_leaf(const struct amd *d, enum leaf l)
{
	char path[PATH_MAX];
	struct stat st;

	return gt_control_amdgpu_leaf_path(d, l, path) == 0 &&
	       lstat(path, &st) == 0;
}

/* The file to write: a known leaf, present, and a target
 * (gt_control_sysfs_target) of the device's directory. */
int gt_control_amdgpu_target(const struct amd *d, enum leaf l, char *err,
                             size_t len)
{
	char path[PATH_MAX];
	struct stat st;

	if (gt_control_amdgpu_leaf_path(d, l, path) != 0 ||
	    lstat(path, &st) != 0)
		return gt_control_refuse(err, len, "this card has no %s%s",
		                         leaves[l].hwmon ? "hwmon " : "",
		                         leaves[l].name);
	return gt_control_sysfs_target(path, d->dir, err, len);
}

ssize_t gt_control_amdgpu_read_leaf(const struct amd *d, enum leaf l, char *buf,
                                    size_t len)
{
	char path[PATH_MAX];

	buf[0] = '\0';
	return gt_control_amdgpu_leaf_path(d, l, path)
	           ? -ENOENT
	           : gt_sysfs_read(path, NULL, buf, len);
}

bool gt_control_amdgpu_parse_ul(const char *s, unsigned long *out)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	*out = strtoul(s, &end, 10);
	return errno == 0 && *end == '\0';
}

/* An unsigned file beside leaf l (its range files), or dflt. */
unsigned long gt_control_amdgpu_read_ul(const struct amd *d, enum leaf l,
                                        const char *name, unsigned long dflt)
{
	char path[PATH_MAX], buf[64];
	unsigned long v;

	if (gt_control_amdgpu_leaf_path(d, l, path) != 0)
		return dflt;
	strcpy(strrchr(path, '/') + 1, name); /* shorter than any leaf */
	return gt_sysfs_read(path, NULL, buf, sizeof(buf)) > 0 &&
	               gt_control_amdgpu_parse_ul(buf, &v)
	           ? v
	           : dflt;
}

int gt_control_amdgpu_read_level(const struct amd *d, char *out)
{
	char buf[64];
	ssize_t n = gt_control_amdgpu_read_leaf(d, L_LEVEL, buf, sizeof(buf));

	out[0] = '\0';
	return n < 0 ? (int)n
	             : gt_amdgpu_parse_perf_level(buf, (size_t)n, out,
	                                          GT_CONTROL_LEVEL_MAX);
}

/* The profiles printed in a pp_power_profile_mode text, in table order,
 * each index once, only 0-9 (the kernel reads one digit). Every one of
 * the five layouts prints each profile as a decimal token followed by an
 * upper-case name token (flat and nested rows, list lines, the rotated
 * header's columns); data rows never put a name after a number. NULs
 * (page padding) count as blanks. Returns how many went into out. */
size_t gt_control_amdgpu_profile_list(const char *t, size_t n,
                                      struct gt_control_profile *out,
                                      size_t max)
{
	char prev[16] = "";
	size_t got = 0;

	for (size_t i = 0; i < n;) {
		char tok[48] = {0};
		size_t k = 0, caps = 0, bad = 0, seen = 0;
		while (i < n && (!t[i] || strchr(" \t\r\n", t[i])))
			if (t[i++] == '\n')
				prev[0] = '\0'; /* a pair never spans lines */
		while (i < n && t[i] && !strchr(" \t\r\n", t[i])) {
			if (k + 1 < sizeof(tok))
				tok[k++] = t[i];
			i++;
		}
		while (k > 0 && (tok[k - 1] == '*' || tok[k - 1] == ':'))
			k--;
		tok[k] = '\0';
		for (size_t j = 0; j < k; j++) {
			caps += tok[j] >= 'A' && tok[j] <= 'Z';
			bad += !strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_",
			               tok[j]);
		}
		for (size_t j = 0; j < got; j++)
			seen += out[j].index == prev[0] - '0';
		if (k && caps && !bad && prev[0] && !prev[1] && !seen &&
		    got < max) {
			out[got].index = prev[0] - '0';
			snprintf(out[got++].name, sizeof(out->name), "%s", tok);
		}
		if (k == 0 || k >= sizeof(prev) ||
		    strspn(tok, "0123456789") != k)
			prev[0] = '\0';
		else
			memcpy(prev, tok, k + 1);
	}
	return got;
}

/* Whether profile `index` is printed in the table (index >= 0), or the
 * active profile's index (index < 0), or -errno. */
static int profile_scan(const struct amd *d, int index)
{
	struct gt_control_profile p[GT_CAPS_MAX_PROFILES];
	char *t = malloc(TEXT_MAX);
	ssize_t n = t ? gt_control_amdgpu_read_leaf(d, L_PROFILE, t, TEXT_MAX)
	              : -ENOMEM;
	int rc = n < 0 ? (int)n : 0;

	if (rc == 0 && index < 0) {
		rc = gt_amdgpu_parse_power_profile(t, (size_t)n, NULL, 0);
	} else if (rc == 0) {
		size_t k = gt_control_amdgpu_profile_list(t, (size_t)n, p,
		                                          GT_CAPS_MAX_PROFILES);
		for (size_t i = 0; i < k; i++)
			rc |= p[i].index == index;
	}
	free(t);
	return rc;
}

/* Checks value for leaf l against this card: the same rules for a setter
 * and for a restore read from the state file. */
int gt_control_amdgpu_validate(const struct amd *d, enum leaf l,
                               const char *value, char *err, size_t len)
{
	unsigned long v = 0, lo, hi;

	switch (l) {
	case L_LEVEL:
		for (size_t i = 0; gt_control_amdgpu_perf_levels[i]; i++)
			if (strcmp(value, gt_control_amdgpu_perf_levels[i]) ==
			    0)
				return 0;
		return gt_control_refuse(err, len,
		                         "\"%s\" is not a performance level "
		                         "(auto, low, high, manual, profile_*)",
		                         value);
	case L_PROFILE:
		if (value[0] < '0' || value[0] > '9' || value[1])
			return gt_control_refuse(err, len,
			                         "profile \"%s\": the kernel "
			                         "reads one digit, so only 0-9 "
			                         "can be selected",
			                         value);
		if (profile_scan(d, value[0] - '0') != 1)
			return gt_control_refuse(err, len,
			                         "profile %s is not in this "
			                         "card's pp_power_profile_mode",
			                         value);
		return 0;
	case L_CAP:
		lo = gt_control_amdgpu_read_ul(d, L_CAP, "power1_cap_min", 0);
		hi = gt_control_amdgpu_read_ul(d, L_CAP, "power1_cap_max", 0);
		if (hi == 0)
			return gt_control_refuse(
			    err, len,
			    "this card gives no "
			    "power1_cap_max: its power cap "
			    "range is unknown");
		if (lo < UW_PER_W) /* 0: the driver does not say */
			lo = UW_PER_W;
		if (!gt_control_amdgpu_parse_ul(value, &v) || v < lo ||
		    v > hi || v > UINT32_MAX)
			return gt_control_refuse(err, len,
			                         "power cap %s µW is outside "
			                         "this card's range %lu-%lu µW",
			                         value, lo, hi);
		return 0;
	case L_PWM_ENABLE:
		if (!gt_control_amdgpu_parse_ul(value, &v) || v > 2)
			return gt_control_refuse(
			    err, len,
			    "pwm1_enable \"%s\": only 0, 1 "
			    "and 2 exist",
			    value);
		return 0;
	case L_PWM:
		lo = gt_control_amdgpu_read_ul(d, L_PWM, "pwm1_min", 0);
		hi = gt_control_amdgpu_read_ul(d, L_PWM, "pwm1_max", 255);
		if (!gt_control_amdgpu_parse_ul(value, &v) || v < lo ||
		    v > hi || hi > 255)
			return gt_control_refuse(err, len,
			                         "pwm1 %s is outside this "
			                         "card's range %lu-%lu",
			                         value, lo, hi);
		return 0;
	default:
		return gt_control_refuse(err, len, "%s takes no single value",
		                         leaves[l].name);
	}
}

/* Writes one value to leaf l (gt_control_sysfs_write). 0 or -errno. */
int gt_control_amdgpu_write(struct gt_control *c, const struct amd *d,
                            enum leaf l, const char *kind, const char *old,
                            const char *value, char *err, size_t len)
{
	char path[PATH_MAX];
	int rc = gt_control_amdgpu_leaf_path(d, l, path);

	return rc ? rc
	          : gt_control_sysfs_write(c, path, d->dir, d->id,
	                                   leaves[l].name, kind, old, value,
	                                   err, len);
}

/* Appends a sysfs action: leaf l had value orig. */
int gt_control_amdgpu_add(const struct gt_control *c, const struct amd *d,
                          enum leaf l, const char *orig,
                          struct gt_restore_action *a, size_t *n, char *err,
                          size_t len)
{
	char path[PATH_MAX];

	if (gt_control_amdgpu_leaf_path(d, l, path) != 0 ||
	    gt_restore_action_sysfs(&a[*n], gt_control_amdgpu_ops.name, d->id,
	                            path, orig, gt_control_now(c)) != 0)
		return gt_control_refuse(err, len,
		                         "cannot journal %s: path or value too "
		                         "long; nothing written",
		                         leaves[l].name);
	(*n)++;
	return 0;
}

/* The start of every setter: no root, no write; then the device. */
int gt_control_amdgpu_begin(struct gt_control *c, const char *what,
                            const char *devdir, struct amd *d, char *err,
                            size_t len)
{
	if (err && len)
		err[0] = '\0';
	if (!gt_control_privileged(c))
		return gt_control_refuse_unprivileged(c, what, err, len);
	return gt_control_amdgpu_open(c, devdir, d, err, len);
}

void gt_control_amdgpu_readback_failed(char *err, size_t len, const char *what,
                                       int rc)
{
	snprintf(err, len, "written, but reading %s back failed: %s", what,
	         strerror(rc < 0 ? -rc : EBADMSG));
}

/* ------------------------------------------------------------------ */
/* Setters                                                              */
/* ------------------------------------------------------------------ */

int gt_control_amdgpu_perf_level(struct gt_control *c, const char *devdir,
                                 const char *level, char *applied,
                                 size_t applied_len, char *err, size_t len)
{
	char cur[GT_CONTROL_LEVEL_MAX];
	struct gt_restore_action a[1];
	struct amd d;
	size_t n = 0;
	int rc;

	if (applied_len)
		applied[0] = '\0';
	if (gt_control_amdgpu_begin(c, "changing the performance level", devdir,
	                            &d, err, len) ||
	    gt_control_amdgpu_target(&d, L_LEVEL, err, len) ||
	    gt_control_amdgpu_validate(&d, L_LEVEL, level ? level : "(null)",
	                               err, len))
		return REFUSED;
	if (gt_control_amdgpu_read_level(&d, cur) != 0)
		return gt_control_refuse(err, len,
		                         "cannot read %s: its original could "
		                         "not be restored",
		                         leaves[L_LEVEL].name);
	if (strcmp(cur, level) != 0) {
		if (gt_control_amdgpu_add(c, &d, L_LEVEL, cur, a, &n, err,
		                          len) ||
		    gt_control_prepare(c, a, n, err, len))
			return REFUSED;
		if (gt_control_amdgpu_write(c, &d, L_LEVEL, "write", cur, level,
		                            err, len))
			return GT_CONTROL_FAILED;
	}
	if ((rc = gt_control_amdgpu_read_level(&d, cur)) != 0)
		gt_control_amdgpu_readback_failed(err, len,
		                                  leaves[L_LEVEL].name, rc);
	else if (applied_len)
		snprintf(applied, applied_len, "%s", cur);
	return GT_CONTROL_OK;
}

int gt_control_amdgpu_power_profile(struct gt_control *c, const char *devdir,
                                    int index, int *applied_index, char *err,
                                    size_t len)
{
	char level[GT_CONTROL_LEVEL_MAX], val[16], orig[16];
	struct gt_restore_action a[2];
	struct amd d;
	size_t n = 0;
	int active;
	bool manual;

	if (applied_index)
		*applied_index = -1;
	if (gt_control_amdgpu_begin(c, "changing the power profile", devdir, &d,
	                            err, len) ||
	    gt_control_amdgpu_target(&d, L_PROFILE, err, len) ||
	    gt_control_amdgpu_target(&d, L_LEVEL, err, len))
		return REFUSED;
	snprintf(val, sizeof(val), "%d", index);
	if (gt_control_amdgpu_validate(&d, L_PROFILE, val, err, len))
		return REFUSED;
	if ((active = profile_scan(&d, -1)) < 0)
		return gt_control_refuse(err, len,
		                         "cannot tell which power profile is "
		                         "active (pp_power_profile_mode marks "
		                         "none): it could not be restored");
	if (gt_control_amdgpu_read_level(&d, level) != 0)
		return gt_control_refuse(err, len,
		                         "cannot read %s: its original could "
		                         "not be restored",
		                         leaves[L_LEVEL].name);
	if (active != index) {
		/* The documented protocol (and LACT's): manual first. The
		 * level is journaled before the profile, so the restore puts
		 * the profile back while the level is still manual. */
		manual = strcmp(level, "manual") == 0;
		snprintf(orig, sizeof(orig), "%d", active);
		if ((!manual && gt_control_amdgpu_add(c, &d, L_LEVEL, level, a,
		                                      &n, err, len)) ||
		    gt_control_amdgpu_add(c, &d, L_PROFILE, orig, a, &n, err,
		                          len) ||
		    gt_control_prepare(c, a, n, err, len))
			return REFUSED;
		if ((!manual &&
		     gt_control_amdgpu_write(c, &d, L_LEVEL, "write", level,
		                             "manual", err, len)) ||
		    gt_control_amdgpu_write(c, &d, L_PROFILE, "write", orig,
		                            val, err, len))
			return GT_CONTROL_FAILED;
	}
	if ((active = profile_scan(&d, -1)) < 0)
		gt_control_amdgpu_readback_failed(
		    err, len, leaves[L_PROFILE].name, active);
	else if (applied_index)
		*applied_index = active;
	return GT_CONTROL_OK;
}

int gt_control_amdgpu_power_cap(struct gt_control *c, const char *devdir,
                                unsigned long microwatts,
                                unsigned long *applied_uw, char *err,
                                size_t len)
{
	char val[32], cur[32];
	struct gt_restore_action a[1];
	unsigned long v;
	struct amd d;
	size_t n = 0;

	if (applied_uw)
		*applied_uw = GT_CONTROL_UNREAD;
	snprintf(val, sizeof(val), "%lu", microwatts);
	if (gt_control_amdgpu_begin(c, "setting the power cap", devdir, &d, err,
	                            len) ||
	    gt_control_amdgpu_target(&d, L_CAP, err, len) ||
	    gt_control_amdgpu_validate(&d, L_CAP, val, err, len))
		return REFUSED;
	if (gt_control_amdgpu_read_leaf(&d, L_CAP, cur, sizeof(cur)) <= 0 ||
	    !gt_control_amdgpu_parse_ul(cur, &v))
		return gt_control_refuse(err, len,
		                         "cannot read power1_cap: its original "
		                         "could not be restored");
	if (v != microwatts) {
		if (gt_control_amdgpu_add(c, &d, L_CAP, cur, a, &n, err, len) ||
		    gt_control_prepare(c, a, n, err, len))
			return REFUSED;
		if (gt_control_amdgpu_write(c, &d, L_CAP, "write", cur, val,
		                            err, len))
			return GT_CONTROL_FAILED;
	}
	/* The kernel keeps whole watts: the read-back shows the truncation. */
	if (gt_control_amdgpu_read_leaf(&d, L_CAP, cur, sizeof(cur)) <= 0 ||
	    !gt_control_amdgpu_parse_ul(cur, &v))
		gt_control_amdgpu_readback_failed(err, len, "power1_cap",
		                                  -EBADMSG);
	else if (applied_uw)
		*applied_uw = v;
	return GT_CONTROL_OK;
}

/* ------------------------------------------------------------------ */
/* Restore, and the vendor's ops                                        */
/* ------------------------------------------------------------------ */

/* A journaled path back to its device and leaf: only the leaves a setter
 * writes with a value, and only where a setter would (the same hwmon). */
static int own_leaf(const struct gt_control *c, const char *path, struct amd *d,
                    enum leaf *l)
{
	char dir[PATH_MAX], mine[PATH_MAX], why[64];
	size_t n = strlen(path);

	for (int k = 0; k < L_CURVE && n < PATH_MAX; k++) {
		size_t ln = strlen(leaves[k].name);
		char *cut;
		if (n <= ln || path[n - ln - 1] != '/' ||
		    strcmp(path + n - ln, leaves[k].name) != 0)
			continue;
		memcpy(dir, path, n - ln - 1);
		dir[n - ln - 1] = '\0';
		for (int up = leaves[k].hwmon ? 2 : 0; up > 0; up--)
			if ((cut = strrchr(dir, '/')) != NULL)
				*cut = '\0';
		if (gt_control_amdgpu_open(c, dir, d, why, sizeof(why)) == 0 &&
		    gt_control_amdgpu_leaf_path(d, (enum leaf)k, mine) == 0 &&
		    strcmp(mine, path) == 0) {
			*l = (enum leaf)k;
			return 0;
		}
	}
	return -1;
}

static int restore_write(struct gt_control *c, const char *path,
                         const char *value)
{
	char why[256], res[300], old[64] = "";
	struct amd d;
	enum leaf l;
	int a;

	if (own_leaf(c, path, &d, &l) != 0) {
		gt_control_audit(c, "restore", "?", path, "", value,
		                 "refused: not a file gputop writes");
		return -EPERM;
	}
	if (gt_control_amdgpu_validate(&d, l, value, why, sizeof(why)) != 0) {
		snprintf(res, sizeof(res), "refused: %s", why);
		gt_control_audit(c, "restore", d.id, leaves[l].name, "", value,
		                 res);
		return -EINVAL;
	}
	if (l == L_PROFILE && (a = profile_scan(&d, -1)) >= 0)
		snprintf(old, sizeof(old), "%d", a);
	else if (l != L_PROFILE)
		gt_control_amdgpu_read_leaf(&d, l, old, sizeof(old));
	return gt_control_amdgpu_write(c, &d, l, "restore", old, value, why,
	                               sizeof(why));
}

static int restore(struct gt_control *c, const struct gt_restore_action *a)
{
	switch (a->kind) {
	case GT_RESTORE_SYSFS:
		return restore_write(c, a->path, a->value);
	case GT_RESTORE_AMD_FAN_CURVE_RESET:
		return gt_control_amdgpu_restore_curve(c, a->path);
	default: /* the NVML kinds are NVIDIA's (gt_restore_check) */
		return -EPERM;
	}
}

/* The version-1 fallback: a file named as one of the leaves a setter
 * writes a value to (no Intel file shares a name with them). */
static bool owns_file(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	for (int k = 0; k < L_CURVE; k++)
		if (strcmp(base, leaves[k].name) == 0)
			return true;
	return false;
}

/* The one fan control: the hwmon pwm that the software loop drives. */
static int fan_speed(struct gt_control *c, const char *dev, unsigned fan,
                     unsigned percent, unsigned *applied, char *err, size_t len)
{
	(void)fan;
	return gt_control_amdgpu_fan_pwm(c, dev, percent, applied, err, len);
}

static int fan_auto(struct gt_control *c, const char *dev, unsigned fan,
                    char *err, size_t len)
{
	(void)fan;
	return gt_control_amdgpu_fan_auto(c, dev, err, len);
}

const struct gt_control_ops gt_control_amdgpu_ops = {
    .name = "amdgpu",
    .vendor = GT_VENDOR_AMD,
    .sysfs = true,
    .power_unit = "µW",
    .fan_per_index = false,
    .fan_loop_hotspot = true,
    .caps = gt_control_amdgpu_caps,
    .power_limit = gt_control_amdgpu_power_cap,
    .perf_level = gt_control_amdgpu_perf_level,
    .power_profile = gt_control_amdgpu_power_profile,
    .fan_speed = fan_speed,
    .fan_auto = fan_auto,
    .fan_curve = gt_control_amdgpu_fan_curve,
    .restore = restore,
    .owns_file = owns_file,
};

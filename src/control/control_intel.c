/* SPDX-License-Identifier: MIT */
/*
 * control_intel.c - the Intel writes through sysfs (see control_intel.h):
 * the sustained power limit (hwmon PL1) and the render GT's frequency
 * limits on i915 and xe, their restore, the Intel part of what the
 * control dialogs may offer (control_caps.h), and the vendor's ops
 * (control_vendor.h). As for AMD, only the files named here are written,
 * each resolved inside its own directory right before the write
 * (gt_control_sysfs_write), and every value is checked against what the
 * device itself reports (its TDP, its RPn..RP0), by the setters and by the
 * restore alike, so a state file cannot make gputop write anything a
 * setter would have refused.
 */
#include "control/control_intel.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "collectors/intel_sysfs.h"
#include "control/control_caps.h"
#include "control/control_priv.h"
#include "control/control_sysfs.h"
#include "control/control_vendor.h"
#include "linux/sysfs.h"

#define UW_PER_W 1000000LL
#define REFUSED  GT_CONTROL_REFUSED

/* Where a GT's frequency limits are, with the hardware's range beside
 * them (reference intel-and-fdinfo.md §1.2). */
struct freq_files {
	const char *sub; /* below the base directory ("": in it) */
	bool card;       /* base: the card directory (i915), else devdir */
	const char *min, *max, *rpn, *rp0;
};

static const struct freq_files i915_gt = {
    "gt/gt0",           true,
    "rps_min_freq_mhz", "rps_max_freq_mhz",
    "rps_RPn_freq_mhz", "rps_RP0_freq_mhz",
};
/* Kernels before the per-GT directories (about 5.17): GT0 only. */
static const struct freq_files i915_legacy = {
    "",
    true,
    "gt_min_freq_mhz",
    "gt_max_freq_mhz",
    "gt_RPn_freq_mhz",
    "gt_RP0_freq_mhz",
};
static const struct freq_files xe_gt = {
    "tile0/gt0/freq0", false, "min_freq", "max_freq", "rpn_freq", "rp0_freq",
};
static const struct freq_files *const layouts[] = {&i915_gt, &i915_legacy,
                                                   &xe_gt};

enum what { W_POWER, W_MIN, W_MAX };

struct intel {
	char dir[PATH_MAX];  /* the device directory, without trailing '/' */
	char card[PATH_MAX]; /* its card directory, "" if none */
	char id[GT_RESTORE_DEV_MAX];
	bool xe;
	char hwmon[PATH_MAX];       /* the "i915"/"xe" hwmon, "" if none */
	char power[24];             /* its PL1 file, "" if none */
	char rated[32];             /* the same channel's TDP file */
	const struct freq_files *f; /* NULL: no frequency limits */
	char fdir[PATH_MAX];        /* where f's files are */
};

/* One file a setter writes. */
struct file {
	char path[PATH_MAX];
	const char *base; /* the directory it must resolve inside */
	char setting[64]; /* its name in the audit log, relative to base */
};

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* The device at devdir with its files. what: the setting a setter is
 * about to change (then privileges are checked first, and err cleared);
 * NULL for the dialogs and the restore, which judge privileges
 * themselves. */
static int intel_open(const struct gt_control *c, const char *what,
                      const char *devdir, struct intel *d, char *err,
                      size_t len)
{
	static const char *const intel[] = {"i915", "xe", NULL};
	char driver[32], link[PATH_MAX];
	struct gt_intel_hwmon h;
	unsigned ch;

	if (what && err && len)
		err[0] = '\0';
	if (what && !gt_control_privileged(c))
		return gt_control_refuse_unprivileged(c, what, err, len);
	memset(d, 0, sizeof(*d));
	if (gt_control_sysfs_device(c, devdir, "an Intel", intel, d->dir,
	                            driver, d->id, err, len))
		return REFUSED;
	d->xe = strcmp(driver, "xe") == 0;
	/* The card directory: devdir's parent when devdir is its device. */
	if (strlen(d->dir) > 7 &&
	    strcmp(d->dir + strlen(d->dir) - 7, "/device") == 0) {
		memcpy(d->card, d->dir, strlen(d->dir) - 7);
		if (gt_sysfs_join(link, sizeof(link), d->card, "device") ||
		    !gt_sysfs_inside(link, d->dir) ||
		    !gt_sysfs_inside(d->dir, link))
			d->card[0] = '\0';
	}
	/* The hwmon named i915 or xe (not a per-GT i915_gtN), its card
	 * channel's PL1 as the collector shows it, and that channel's TDP. */
	gt_intel_hwmon_find(d->dir, &h);
	if (h.ok)
		snprintf(d->hwmon, sizeof(d->hwmon), "%s", h.dir);
	if (h.ok && sscanf(h.power_max, "power%u_max", &ch) == 1) {
		snprintf(d->power, sizeof(d->power), "%s", h.power_max);
		snprintf(d->rated, sizeof(d->rated), "power%u_rated_max", ch);
	}
	/* xe's one layout; i915's per-GT files, else the legacy ones. */
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		const struct freq_files *f = layouts[i];
		const char *base = f->card ? d->card : d->dir;
		char min[PATH_MAX];
		if ((f == &xe_gt) != d->xe || !base[0] ||
		    gt_sysfs_join(d->fdir, sizeof(d->fdir), base,
		                  f->sub[0] ? f->sub : NULL) ||
		    gt_sysfs_join(min, sizeof(min), d->fdir, f->min) ||
		    !exists(min))
			continue;
		d->f = f;
		return 0;
	}
	d->fdir[0] = '\0';
	return 0;
}

/* The file for w: its path, the directory it must stay in, its name. */
static int file_of(const struct intel *d, enum what w, struct file *f)
{
	const bool power = w == W_POWER;
	const char *name, *sub;

	if (power ? !d->power[0] : !d->f)
		return -ENOENT;
	name = power ? d->power : w == W_MIN ? d->f->min : d->f->max;
	sub = power ? "" : d->f->sub;
	f->base = power || !d->f->card ? d->dir : d->card;
	snprintf(f->setting, sizeof(f->setting), "%s%s%s", sub,
	         sub[0] ? "/" : "", name);
	return gt_sysfs_join(f->path, sizeof(f->path),
	                     power ? d->hwmon : d->fdir, name);
}

static int read_what(const struct intel *d, enum what w, int64_t *v)
{
	struct file f;
	int rc = file_of(d, w, &f);

	return rc ? rc : gt_sysfs_read_i64(f.path, NULL, v);
}

/* The range a value for w must lie in: 1 W up to the TDP for the power
 * limit, RPn..RP0 for a frequency limit. -1 with err when the device
 * does not say. */
static int range_of(const struct intel *d, enum what w, int64_t *lo,
                    int64_t *hi, char *err, size_t len)
{
	if (w == W_POWER) {
		*lo = UW_PER_W;
		if (gt_sysfs_read_i64(d->hwmon, d->rated, hi) == 0 &&
		    *hi >= *lo)
			return 0;
		return gt_control_refuse(err, len,
		                         "this device gives no %s (its TDP), "
		                         "so no power limit can be checked "
		                         "against it",
		                         d->rated);
	}
	if (gt_sysfs_read_i64(d->fdir, d->f->rpn, lo) == 0 &&
	    gt_sysfs_read_i64(d->fdir, d->f->rp0, hi) == 0 && *lo > 0 &&
	    *lo <= *hi)
		return 0;
	return gt_control_refuse(err, len,
	                         "this GT gives no usable %s and %s, so no "
	                         "frequency limit can be checked against them",
	                         d->f->rpn, d->f->rp0);
}

/* Checks value for w against this device: the same rules for a setter
 * and for a restore read from the state file, except that a restore may
 * put back 0 for the power limit (PL1 off: only ever an original). */
static int validate(const struct intel *d, enum what w, const char *value,
                    bool restore, char *err, size_t len)
{
	int64_t lo = 0, hi = -1;
	long long v = -1;
	int used = -1;

	if (range_of(d, w, &lo, &hi, err, len))
		return REFUSED;
	if (value[0] >= '0' && value[0] <= '9' && strlen(value) < 19 &&
	    sscanf(value, "%lld%n", &v, &used) == 1 && !value[used] &&
	    ((v >= lo && v <= hi) || (restore && w == W_POWER && v == 0)))
		return 0;
	if (w == W_POWER)
		return gt_control_refuse(err, len,
		                         "power limit %s µW is outside this "
		                         "device's range %lld-%lld µW (1 W up "
		                         "to its TDP, %s)",
		                         value, (long long)lo, (long long)hi,
		                         d->rated);
	return gt_control_refuse(err, len,
	                         "%s frequency %s MHz is outside this GT's "
	                         "range %lld-%lld MHz (RPn-RP0)",
	                         w == W_MIN ? "minimum" : "maximum", value,
	                         (long long)lo, (long long)hi);
}

/* The file for w, checked as a write target: 0, or -1 with err. */
static int checked_file(const struct intel *d, enum what w, struct file *f,
                        char *err, size_t len)
{
	if (file_of(d, w, f) != 0)
		return gt_control_refuse(err, len, "this device has no %s",
		                         w == W_POWER
		                             ? "hwmon PL1 (power1_max)"
		                             : "frequency limit files");
	return gt_control_sysfs_target(f->path, f->base, err, len);
}

/* ------------------------------------------------------------------ */
/* Setters                                                              */
/* ------------------------------------------------------------------ */

/* One write of a setter, in the order it is made. */
struct step {
	enum what w;
	struct file f;
	char old[24], val[24];
};

/* Journals the steps whose value changes (originals first, state file
 * saved), then writes them in order. */
static int apply(struct gt_control *c, const struct intel *d, struct step *s,
                 size_t n, char *err, size_t len)
{
	struct gt_restore_action a[2];
	char why[256];
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (strcmp(s[i].old, s[i].val) == 0)
			continue;
		/* A change whose original the restore would refuse could
		 * not be undone: it is not made. */
		if (validate(d, s[i].w, s[i].old, true, why, sizeof(why)))
			return gt_control_refuse(
			    err, len,
			    "%s is %s now, which a restore "
			    "could not put back (%s); "
			    "nothing written",
			    s[i].f.setting, s[i].old, why);
		if (gt_restore_action_sysfs(&a[k++], gt_control_intel_ops.name,
		                            d->id, s[i].f.path, s[i].old,
		                            gt_control_now(c)) != 0)
			return gt_control_refuse(err, len,
			                         "cannot journal %s: path too "
			                         "long; nothing written",
			                         s[i].f.setting);
	}
	if (k == 0)
		return GT_CONTROL_OK; /* in force already: nothing to do */
	if (gt_control_prepare(c, a, k, err, len))
		return REFUSED;
	for (size_t i = 0; i < n; i++)
		if (strcmp(s[i].old, s[i].val) != 0 &&
		    gt_control_sysfs_write(c, s[i].f.path, s[i].f.base, d->id,
		                           s[i].f.setting, "write", s[i].old,
		                           s[i].val, err, len) != 0)
			return GT_CONTROL_FAILED;
	return GT_CONTROL_OK;
}

static void readback_failed(char *err, size_t len, const char *setting)
{
	snprintf(err, len, "written, but reading %s back failed", setting);
}

int gt_control_intel_power_limit(struct gt_control *c, const char *devdir,
                                 unsigned long microwatts,
                                 unsigned long *applied_uw, char *err,
                                 size_t len)
{
	struct intel d;
	struct step s = {.w = W_POWER};
	int64_t v;
	int rc;

	if (applied_uw)
		*applied_uw = GT_CONTROL_UNREAD;
	if (intel_open(c, "setting the power limit", devdir, &d, err, len) ||
	    checked_file(&d, W_POWER, &s.f, err, len))
		return REFUSED;
	snprintf(s.val, sizeof(s.val), "%lu", microwatts);
	/* 0 would turn PL1 off: never a limit anyone means to set. */
	if (validate(&d, W_POWER, s.val, false, err, len))
		return REFUSED;
	if (read_what(&d, W_POWER, &v) != 0)
		return gt_control_refuse(err, len,
		                         "cannot read %s: its original could "
		                         "not be restored",
		                         d.power);
	snprintf(s.old, sizeof(s.old), "%lld", (long long)v);
	if ((rc = apply(c, &d, &s, 1, err, len)) != GT_CONTROL_OK)
		return rc;
	if (read_what(&d, W_POWER, &v) != 0 || v < 0)
		readback_failed(err, len, d.power);
	else if (applied_uw)
		*applied_uw = (unsigned long)v;
	return GT_CONTROL_OK;
}

int gt_control_intel_freq_limits(struct gt_control *c, const char *devdir,
                                 unsigned min_mhz, unsigned max_mhz,
                                 unsigned *applied_min, unsigned *applied_max,
                                 char *err, size_t len)
{
	struct intel d;
	struct step s[2];
	int64_t now[2];
	bool max_first;
	int rc;

	if (applied_min)
		*applied_min = GT_CONTROL_UNREAD;
	if (applied_max)
		*applied_max = GT_CONTROL_UNREAD;
	if (intel_open(c, "setting frequency limits", devdir, &d, err, len))
		return REFUSED;
	if (!d.f)
		return gt_control_refuse(
		    err, len,
		    "this device has no GT frequency limit "
		    "files (%s)",
		    d.xe ? "tile0/gt0/freq0/min_freq"
		         : "gt/gt0/rps_min_freq_mhz or "
		           "gt_min_freq_mhz");
	if (min_mhz > max_mhz)
		return gt_control_refuse(err, len,
		                         "minimum %u MHz is above the maximum "
		                         "%u MHz",
		                         min_mhz, max_mhz);
	if (read_what(&d, W_MIN, &now[0]) || read_what(&d, W_MAX, &now[1]))
		return gt_control_refuse(err, len,
		                         "cannot read the frequency limits in "
		                         "force: their originals could not be "
		                         "restored");
	/* Min first passes through (new min, old max), max first through
	 * (old min, new max): min first unless the new min lies above the
	 * old max, and then max first is safe (old min <= old max < new min
	 * <= new max). */
	max_first = min_mhz > now[1];
	for (int i = 0; i < 2; i++) {
		enum what w = (i == 0) != max_first ? W_MIN : W_MAX;
		struct step *p = &s[i];
		p->w = w;
		snprintf(p->val, sizeof(p->val), "%u",
		         w == W_MIN ? min_mhz : max_mhz);
		snprintf(p->old, sizeof(p->old), "%lld",
		         (long long)now[w == W_MAX]);
		if (checked_file(&d, w, &p->f, err, len) ||
		    validate(&d, w, p->val, false, err, len))
			return REFUSED;
	}
	if ((rc = apply(c, &d, s, 2, err, len)) != GT_CONTROL_OK)
		return rc;
	if (read_what(&d, W_MIN, &now[0]) || read_what(&d, W_MAX, &now[1]) ||
	    now[0] < 0 || now[1] < 0 || now[0] > UINT32_MAX ||
	    now[1] > UINT32_MAX) {
		readback_failed(err, len, "the frequency limits");
		return GT_CONTROL_OK;
	}
	if (applied_min)
		*applied_min = (unsigned)now[0];
	if (applied_max)
		*applied_max = (unsigned)now[1];
	return GT_CONTROL_OK;
}

/* ------------------------------------------------------------------ */
/* Restore                                                              */
/* ------------------------------------------------------------------ */

/* The version-1 fallback: a file named as one the setters write (by its
 * name: no AMD leaf shares one). */
static bool owns_file(const char *path)
{
	const char *b = strrchr(path, '/');
	unsigned ch;
	int used = -1;

	b = b ? b + 1 : path;
	if (sscanf(b, "power%u_max%n", &ch, &used) == 1 && used > 0 && !b[used])
		return true;
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		if (!strcmp(b, layouts[i]->min) || !strcmp(b, layouts[i]->max))
			return true;
	return false;
}

/* Drops the last `levels` components of dir; false if it has fewer. */
static bool up(char *dir, int levels)
{
	for (char *cut; levels > 0; levels--) {
		if (!(cut = strrchr(dir, '/')) || cut == dir)
			return false;
		*cut = '\0';
	}
	return true;
}

/* How many components a journaled path of layout l has below its base
 * directory (NULL: the power limit, hwmon/hwmonN/powerK_max). */
static int depth(const struct freq_files *l)
{
	int k = l && l->sub[0] ? 2 : 1;

	if (!l)
		return 3;
	for (const char *p = l->sub; *p; p++)
		k += *p == '/';
	return k;
}

/* A journaled path back to its device and setting: only a file a setter
 * writes, and only where that setter would write it (the same hwmon, the
 * layout the device has). */
static int own_file(const struct gt_control *c, const char *path,
                    struct intel *d, enum what *w, struct file *f)
{
	char dir[PATH_MAX], why[8];
	size_t n = strlen(path);

	if (n + 8 >= sizeof(dir)) /* room for "/device" */
		return -1;
	for (size_t i = 0; i <= sizeof(layouts) / sizeof(layouts[0]); i++) {
		const struct freq_files *l = i ? layouts[i - 1] : NULL;
		memcpy(dir, path, n + 1);
		if (!up(dir, depth(l)))
			continue;
		if (l && l->card)
			strcat(dir, "/device");
		if (intel_open(c, NULL, dir, d, why, sizeof(why)))
			continue;
		for (int k = 0; k < (l ? 2 : 1); k++) {
			*w = !l ? W_POWER : k ? W_MAX : W_MIN;
			if ((!l || d->f == l) && file_of(d, *w, f) == 0 &&
			    strcmp(f->path, path) == 0)
				return 0;
		}
	}
	return -1;
}

/* The original gputop journaled for path, or NULL. */
static const char *journaled(const struct gt_control *c, const char *path)
{
	const struct gt_restore_journal *j = gt_control_journal(c);

	for (size_t i = 0; i < j->n; i++)
		if (j->a[i].kind == GT_RESTORE_SYSFS &&
		    strcmp(j->a[i].path, path) == 0)
			return j->a[i].value;
	return NULL;
}

/* Putting limit w back to value would cross the other limit as it is
 * now (a minimum above the maximum, which i915 refuses) when the journal
 * is restored in an order gputop's later writes made unsafe. Then the
 * other limit's own original goes back first: both originals were in
 * force together before gputop changed either, so they fit. */
static void uncross(struct gt_control *c, const struct intel *d, enum what w,
                    long long value)
{
	enum what o = w == W_MIN ? W_MAX : W_MIN;
	char why[256], cur[24];
	const char *orig;
	struct file f;
	long long ov;
	int64_t now;

	if (file_of(d, o, &f) || read_what(d, o, &now) ||
	    (w == W_MIN ? value <= now : value >= now))
		return;
	orig = journaled(c, f.path);
	if (!orig || validate(d, o, orig, true, why, sizeof(why)) ||
	    sscanf(orig, "%lld", &ov) != 1 ||
	    (w == W_MIN ? value > ov : value < ov))
		return;
	snprintf(cur, sizeof(cur), "%lld", (long long)now);
	gt_control_sysfs_write(c, f.path, f.base, d->id, f.setting, "restore",
	                       cur, orig, why, sizeof(why));
}

static int restore_write(struct gt_control *c, const char *path,
                         const char *value)
{
	char why[256], res[300], old[24] = "";
	struct intel d;
	struct file f;
	enum what w;
	int64_t v;

	if (own_file(c, path, &d, &w, &f) != 0) {
		gt_control_audit(c, "restore", "?", path, "", value,
		                 "refused: not a file gputop writes");
		return -EPERM;
	}
	if (validate(&d, w, value, true, why, sizeof(why)) != 0) {
		snprintf(res, sizeof(res), "refused: %s", why);
		gt_control_audit(c, "restore", d.id, f.setting, "", value, res);
		return -EINVAL;
	}
	if (w != W_POWER)
		uncross(c, &d, w, strtoll(value, NULL, 10));
	if (read_what(&d, w, &v) == 0)
		snprintf(old, sizeof(old), "%lld", (long long)v);
	return gt_control_sysfs_write(c, f.path, f.base, d.id, f.setting,
	                              "restore", old, value, why, sizeof(why));
}

/* ------------------------------------------------------------------ */
/* What the control dialogs may offer (control_caps.h), and the ops     */
/* ------------------------------------------------------------------ */

static int caps_read(struct gt_control *c, const char *devdir,
                     struct gt_control_caps *caps)
{
	struct gt_control_range *p = &caps->power;
	int64_t lo, hi, cur[2];
	struct intel d;

	if (intel_open(c, NULL, devdir, &d, caps->why, sizeof(caps->why)))
		return -1;
	gt_copy_str(caps->dev, sizeof(caps->dev), d.dir);
	gt_copy_str(caps->hwmon, sizeof(caps->hwmon), d.hwmon);
	/* Paths too long for the preview stay "" (the setters do not
	 * use these). */
	if (d.hwmon[0] && d.power[0])
		(void)gt_sysfs_join(caps->power_file, sizeof(caps->power_file),
		                    d.hwmon, d.power);
	if (d.f) {
		(void)gt_sysfs_join(caps->freq_min_file,
		                    sizeof(caps->freq_min_file), d.fdir,
		                    d.f->min);
		(void)gt_sysfs_join(caps->freq_max_file,
		                    sizeof(caps->freq_max_file), d.fdir,
		                    d.f->max);
	}
	if (!d.hwmon[0])
		snprintf(p->why, sizeof(p->why),
		         "this device has no GPU hwmon: an integrated GPU's "
		         "power limit is the CPU package's (RAPL), which "
		         "gputop does not change");
	else if (!d.power[0])
		snprintf(p->why, sizeof(p->why),
		         "this device's hwmon has no power limit (power1_max)");
	else if (range_of(&d, W_POWER, &lo, &hi, p->why, sizeof(p->why)) == 0)
		/* The ABI documents give the rated max as PL1's default. */
		*p = (struct gt_control_range){
		    .known = true,
		    .min = lo,
		    .max = hi,
		    .def = hi,
		    .cur = read_what(&d, W_POWER, &cur[0]) ? -1 : cur[0],
		};
	if (!d.f) {
		snprintf(caps->freq_min.why, sizeof(caps->freq_min.why),
		         "this device has no GT frequency limit files");
		caps->freq_max = caps->freq_min;
	} else if (range_of(&d, W_MIN, &lo, &hi, caps->freq_min.why,
	                    sizeof(caps->freq_min.why)) != 0) {
		caps->freq_max = caps->freq_min;
	} else {
		caps->freq_min = (struct gt_control_range){
		    .known = true,
		    .min = lo,
		    .max = hi,
		    .def = -1,
		    .cur = read_what(&d, W_MIN, &cur[0]) ? -1 : cur[0],
		};
		caps->freq_max = caps->freq_min;
		caps->freq_max.cur =
		    read_what(&d, W_MAX, &cur[1]) ? -1 : cur[1];
	}
	snprintf(caps->fan_why, sizeof(caps->fan_why),
	         "the i915 and xe drivers offer no fan control (hwmon "
	         "fan*_input only reports speeds): the card's firmware runs "
	         "its fans");
	return 0;
}

static int restore(struct gt_control *c, const struct gt_restore_action *a)
{
	/* Only sysfs records can be Intel's (gt_restore_check). */
	return a->kind == GT_RESTORE_SYSFS ? restore_write(c, a->path, a->value)
	                                   : -EPERM;
}

const struct gt_control_ops gt_control_intel_ops = {
    .name = "intel",
    .vendor = GT_VENDOR_INTEL,
    .sysfs = true,
    .power_unit = "µW",
    .caps = caps_read,
    .power_limit = gt_control_intel_power_limit,
    .freq_limits = gt_control_intel_freq_limits,
    .restore = restore,
    .owns_file = owns_file,
};

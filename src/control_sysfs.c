/*
 * control_sysfs.c - the AMD writes through sysfs (see control.h) and their
 * restore callbacks. Only the leaves in `leaves` are ever written, each
 * resolved inside the device's own directory just before the write, and
 * every value is checked against what the card itself reports: its
 * profile table, its cap and pwm ranges, its fan curve's OD_RANGE. The
 * restore callbacks run the same checks, so a state file cannot make
 * gputop write anything a setter would have refused. Also here: the
 * device-directory checks and the checked, audited write that the Intel
 * writes (control_intel.c) share, and the AMD part of what the control
 * dialogs may offer (ctlcaps.h), read with the setters' own rules.
 */
#include "control.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "amdgpu_parse.h"
#include "ctlcaps.h"
#include "sysfs.h"

/* The only files gputop writes, relative to the device directory (the
 * hwmon ones inside its hwmon/hwmonN). */
enum leaf { L_LEVEL, L_PROFILE, L_CAP, L_PWM_ENABLE, L_PWM, L_CURVE, L_N };
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
const char *const gt_amd_perf_levels[] = {
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

struct amd {
	char dir[PATH_MAX];   /* as given, without trailing '/' */
	char hwmon[PATH_MAX]; /* dir/hwmon/hwmonN, "" if none */
	char id[GT_RESTORE_DEV_MAX];
};

/* The firmware fan curve as the fan_curve file shows it. */
struct od_curve {
	int t[5], s[5];
	bool points, range;
	int tmin, tmax, smin, smax;
};

#define UW_PER_W 1000000UL
#define TEXT_MAX 16384 /* pp_power_profile_mode is up to a few KiB */
#define REFUSED  GT_CONTROL_REFUSED

/* ------------------------------------------------------------------ */
/* Device directories and their files                                   */
/* ------------------------------------------------------------------ */

int gt_control_sysfs_device(const struct gt_control *c, const char *devdir,
                            const char *kind, const char *const *drivers,
                            char *dir, char *driver, char *id, char *err,
                            size_t len)
{
	const char *root = gt_control_journal(c)->root;
	size_t rl = strlen(root), n = devdir ? strlen(devdir) : 0, k = 0;
	char ue[1024], *p, names[128] = "";
	bool known = false;

	while (n > 1 && devdir[n - 1] == '/')
		n--;
	if (n == 0 || n >= PATH_MAX - 64 || devdir[0] != '/' ||
	    strstr(devdir, "..") || strncmp(devdir, root, rl) != 0 ||
	    devdir[rl] != '/')
		return gt_control_refuse(
		    err, len, "%s is not a device directory under %s/",
		    devdir ? devdir : "(null)", root);
	memcpy(dir, devdir, n);
	dir[n] = '\0';
	if (!gt_sysfs_inside(dir, gt_control_sysfs_root(c)))
		return gt_control_refuse(err, len,
		                         "%s resolves outside %s: refusing it",
		                         dir, gt_control_sysfs_root(c));
	if (gt_sysfs_read(dir, "uevent", ue + 1, sizeof(ue) - 2) < 0)
		ue[1] = '\0';
	ue[0] = '\n'; /* every line, the first too, starts after a '\n' */
	strcat(ue, "\n");
	driver[0] = id[0] = '\0';
	if ((p = strstr(ue, "\nDRIVER=")) != NULL &&
	    sscanf(p + 8, "%31[^\n]", driver) != 1)
		driver[0] = '\0';
	for (size_t i = 0; drivers[i]; i++) {
		known |= strcmp(driver, drivers[i]) == 0;
		k += (size_t)snprintf(names + k, sizeof(names) - k,
		                      "%sDRIVER=%s", i ? " or " : "",
		                      drivers[i]);
		k = k < sizeof(names) ? k : sizeof(names) - 1;
	}
	if (!known)
		return gt_control_refuse(
		    err, len,
		    "%s is not %s device (its uevent names "
		    "no %s)",
		    dir, kind, names);
	p = strstr(ue, "\nPCI_SLOT_NAME=");
	if (!p || sscanf(p + 15, "%63[^\n]", id) != 1 || !id[0] ||
	    strspn(id, "0123456789abcdefABCDEF:.") != strlen(id))
		return gt_control_refuse(
		    err, len, "%s/uevent gives no PCI_SLOT_NAME", dir);
	return 0;
}

/* The device: a device directory (gt_control_sysfs_device) of an amdgpu
 * device with its PCI slot, and its hwmon dir. */
static int amd_open(const struct gt_control *c, const char *devdir,
                    struct amd *d, char *err, size_t len)
{
	static const char *const amdgpu[] = {"amdgpu", NULL};
	char driver[32], hw[PATH_MAX];
	long best = -1;
	DIR *dp;

	if (gt_control_sysfs_device(c, devdir, "an amdgpu", amdgpu, d->dir,
	                            driver, d->id, err, len))
		return REFUSED;
	/* The lowest-numbered hwmon, as the collector picks it. */
	d->hwmon[0] = '\0';
	dp =
	    gt_sysfs_join(hw, sizeof(hw), d->dir, "hwmon") ? NULL : opendir(hw);
	for (struct dirent *de; dp && (de = readdir(dp));) {
		char *end;
		long k = strtol(de->d_name + 5, &end, 10);
		if (strncmp(de->d_name, "hwmon", 5) == 0 &&
		    end != de->d_name + 5 && !*end && k >= 0 &&
		    (best < 0 || k < best) &&
		    gt_sysfs_join(d->hwmon, sizeof(d->hwmon), hw, de->d_name) ==
		        0)
			best = k;
	}
	if (dp)
		closedir(dp);
	return 0;
}

static int leaf_path(const struct amd *d, enum leaf l, char *out)
{
	if (leaves[l].hwmon && !d->hwmon[0])
		return -ENOENT;
	return gt_sysfs_join(out, PATH_MAX, leaves[l].hwmon ? d->hwmon : d->dir,
	                     leaves[l].name);
}

static bool has_leaf(const struct amd *d, enum leaf l)
{
	char path[PATH_MAX];
	struct stat st;

	return leaf_path(d, l, path) == 0 && lstat(path, &st) == 0;
}

int gt_control_sysfs_target(const char *path, const char *dir, char *err,
                            size_t len)
{
	struct stat st;

	if (lstat(path, &st) != 0)
		return gt_control_refuse(err, len, "%s is missing", path);
	if (!gt_sysfs_inside(path, dir))
		return gt_control_refuse(err, len,
		                         "%s resolves outside the device "
		                         "directory %s: refusing to write it",
		                         path, dir);
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return gt_control_refuse(
		    err, len,
		    "%s is not a regular file: refusing to "
		    "write it",
		    path);
	return 0;
}

/* The file to write: a known leaf, present, and a target
 * (gt_control_sysfs_target) of the device's directory. */
static int target(const struct amd *d, enum leaf l, char *err, size_t len)
{
	char path[PATH_MAX];
	struct stat st;

	if (leaf_path(d, l, path) != 0 || lstat(path, &st) != 0)
		return gt_control_refuse(err, len, "this card has no %s%s",
		                         leaves[l].hwmon ? "hwmon " : "",
		                         leaves[l].name);
	return gt_control_sysfs_target(path, d->dir, err, len);
}

static ssize_t read_leaf(const struct amd *d, enum leaf l, char *buf,
                         size_t len)
{
	char path[PATH_MAX];

	buf[0] = '\0';
	return leaf_path(d, l, path) ? -ENOENT
	                             : gt_sysfs_read(path, NULL, buf, len);
}

static bool parse_ul(const char *s, unsigned long *out)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	*out = strtoul(s, &end, 10);
	return errno == 0 && *end == '\0';
}

/* An unsigned file beside leaf l (its range files), or dflt. */
static unsigned long read_ul(const struct amd *d, enum leaf l, const char *name,
                             unsigned long dflt)
{
	char path[PATH_MAX], buf[64];
	unsigned long v;

	if (leaf_path(d, l, path) != 0)
		return dflt;
	strcpy(strrchr(path, '/') + 1, name); /* shorter than any leaf */
	return gt_sysfs_read(path, NULL, buf, sizeof(buf)) > 0 &&
	               parse_ul(buf, &v)
	           ? v
	           : dflt;
}

static int read_level(const struct amd *d, char *out)
{
	char buf[64];
	ssize_t n = read_leaf(d, L_LEVEL, buf, sizeof(buf));

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
static size_t profile_list(const char *t, size_t n, struct gt_ctl_profile *out,
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
	struct gt_ctl_profile p[GT_CAPS_MAX_PROFILES];
	char *t = malloc(TEXT_MAX);
	ssize_t n = t ? read_leaf(d, L_PROFILE, t, TEXT_MAX) : -ENOMEM;
	int rc = n < 0 ? (int)n : 0;

	if (rc == 0 && index < 0) {
		rc = gt_amdgpu_parse_power_profile(t, (size_t)n, NULL, 0);
	} else if (rc == 0) {
		size_t k = profile_list(t, (size_t)n, p, GT_CAPS_MAX_PROFILES);
		for (size_t i = 0; i < k; i++)
			rc |= p[i].index == index;
	}
	free(t);
	return rc;
}

static int read_curve(const struct amd *d, struct od_curve *o)
{
	char buf[2048], line[128];
	ssize_t n = read_leaf(d, L_CURVE, buf, sizeof(buf));
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

/* Checks value for leaf l against this card: the same rules for a setter
 * and for a restore read from the state file. */
static int validate(const struct amd *d, enum leaf l, const char *value,
                    char *err, size_t len)
{
	unsigned long v = 0, lo, hi;

	switch (l) {
	case L_LEVEL:
		for (size_t i = 0; gt_amd_perf_levels[i]; i++)
			if (strcmp(value, gt_amd_perf_levels[i]) == 0)
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
		lo = read_ul(d, L_CAP, "power1_cap_min", 0);
		hi = read_ul(d, L_CAP, "power1_cap_max", 0);
		if (hi == 0)
			return gt_control_refuse(
			    err, len,
			    "this card gives no "
			    "power1_cap_max: its power cap "
			    "range is unknown");
		if (lo < UW_PER_W) /* 0: the driver does not say */
			lo = UW_PER_W;
		if (!parse_ul(value, &v) || v < lo || v > hi || v > UINT32_MAX)
			return gt_control_refuse(err, len,
			                         "power cap %s µW is outside "
			                         "this card's range %lu-%lu µW",
			                         value, lo, hi);
		return 0;
	case L_PWM_ENABLE:
		if (!parse_ul(value, &v) || v > 2)
			return gt_control_refuse(
			    err, len,
			    "pwm1_enable \"%s\": only 0, 1 "
			    "and 2 exist",
			    value);
		return 0;
	case L_PWM:
		lo = read_ul(d, L_PWM, "pwm1_min", 0);
		hi = read_ul(d, L_PWM, "pwm1_max", 255);
		if (!parse_ul(value, &v) || v < lo || v > hi || hi > 255)
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

int gt_control_sysfs_write(struct gt_control *c, const char *path,
                           const char *dir, const char *dev,
                           const char *setting, const char *kind,
                           const char *old, const char *value, char *err,
                           size_t len)
{
	char res[320] = "ok";
	int rc = gt_control_sysfs_target(path, dir, err, len) ? -EXDEV : 0;

	if (rc == 0)
		rc = gt_control_write_value(c, path, value);
	if (rc == -EXDEV) /* swapped for a symlink since the check */
		snprintf(res, sizeof(res), "refused: %s", err);
	else if (rc)
		snprintf(res, sizeof(res), "failed: %s", strerror(-rc));
	gt_control_audit(c, kind, dev, setting, old, value, res);
	if (rc && rc != -EXDEV)
		snprintf(err, len, "writing \"%s\" to %s failed: %s", value,
		         path, strerror(-rc));
	return rc;
}

/* Writes one value to leaf l (gt_control_sysfs_write). 0 or -errno. */
static int amd_write(struct gt_control *c, const struct amd *d, enum leaf l,
                     const char *kind, const char *old, const char *value,
                     char *err, size_t len)
{
	char path[PATH_MAX];
	int rc = leaf_path(d, l, path);

	return rc ? rc
	          : gt_control_sysfs_write(c, path, d->dir, d->id,
	                                   leaves[l].name, kind, old, value,
	                                   err, len);
}

/* Appends a sysfs action: leaf l had value orig. */
static int add(const struct gt_control *c, const struct amd *d, enum leaf l,
               const char *orig, struct gt_restore_action *a, size_t *n,
               char *err, size_t len)
{
	char path[PATH_MAX];

	if (leaf_path(d, l, path) != 0 ||
	    gt_restore_action_sysfs(&a[*n], d->id, path, orig,
	                            gt_control_now(c)) != 0)
		return gt_control_refuse(err, len,
		                         "cannot journal %s: path or value too "
		                         "long; nothing written",
		                         leaves[l].name);
	(*n)++;
	return 0;
}

/* The start of every setter: no root, no write; then the device. */
static int begin(struct gt_control *c, const char *what, const char *devdir,
                 struct amd *d, char *err, size_t len)
{
	if (err && len)
		err[0] = '\0';
	if (!gt_control_privileged(c))
		return gt_control_refuse_unprivileged(c, what, err, len);
	return amd_open(c, devdir, d, err, len);
}

static void readback_failed(char *err, size_t len, const char *what, int rc)
{
	snprintf(err, len, "written, but reading %s back failed: %s", what,
	         strerror(rc < 0 ? -rc : EBADMSG));
}

/* ------------------------------------------------------------------ */
/* Setters                                                              */
/* ------------------------------------------------------------------ */

int gt_control_amd_perf_level(struct gt_control *c, const char *devdir,
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
	if (begin(c, "changing the performance level", devdir, &d, err, len) ||
	    target(&d, L_LEVEL, err, len) ||
	    validate(&d, L_LEVEL, level ? level : "(null)", err, len))
		return REFUSED;
	if (read_level(&d, cur) != 0)
		return gt_control_refuse(err, len,
		                         "cannot read %s: its original could "
		                         "not be restored",
		                         leaves[L_LEVEL].name);
	if (strcmp(cur, level) != 0) {
		if (add(c, &d, L_LEVEL, cur, a, &n, err, len) ||
		    gt_control_prepare(c, a, n, err, len))
			return REFUSED;
		if (amd_write(c, &d, L_LEVEL, "write", cur, level, err, len))
			return GT_CONTROL_FAILED;
	}
	if ((rc = read_level(&d, cur)) != 0)
		readback_failed(err, len, leaves[L_LEVEL].name, rc);
	else if (applied_len)
		snprintf(applied, applied_len, "%s", cur);
	return GT_CONTROL_OK;
}

int gt_control_amd_power_profile(struct gt_control *c, const char *devdir,
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
	if (begin(c, "changing the power profile", devdir, &d, err, len) ||
	    target(&d, L_PROFILE, err, len) || target(&d, L_LEVEL, err, len))
		return REFUSED;
	snprintf(val, sizeof(val), "%d", index);
	if (validate(&d, L_PROFILE, val, err, len))
		return REFUSED;
	if ((active = profile_scan(&d, -1)) < 0)
		return gt_control_refuse(err, len,
		                         "cannot tell which power profile is "
		                         "active (pp_power_profile_mode marks "
		                         "none): it could not be restored");
	if (read_level(&d, level) != 0)
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
		if ((!manual && add(c, &d, L_LEVEL, level, a, &n, err, len)) ||
		    add(c, &d, L_PROFILE, orig, a, &n, err, len) ||
		    gt_control_prepare(c, a, n, err, len))
			return REFUSED;
		if ((!manual && amd_write(c, &d, L_LEVEL, "write", level,
		                          "manual", err, len)) ||
		    amd_write(c, &d, L_PROFILE, "write", orig, val, err, len))
			return GT_CONTROL_FAILED;
	}
	if ((active = profile_scan(&d, -1)) < 0)
		readback_failed(err, len, leaves[L_PROFILE].name, active);
	else if (applied_index)
		*applied_index = active;
	return GT_CONTROL_OK;
}

int gt_control_amd_power_cap(struct gt_control *c, const char *devdir,
                             unsigned long microwatts,
                             unsigned long *applied_uw, char *err, size_t len)
{
	char val[32], cur[32];
	struct gt_restore_action a[1];
	unsigned long v;
	struct amd d;
	size_t n = 0;

	if (applied_uw)
		*applied_uw = GT_CONTROL_UNREAD;
	snprintf(val, sizeof(val), "%lu", microwatts);
	if (begin(c, "setting the power cap", devdir, &d, err, len) ||
	    target(&d, L_CAP, err, len) || validate(&d, L_CAP, val, err, len))
		return REFUSED;
	if (read_leaf(&d, L_CAP, cur, sizeof(cur)) <= 0 || !parse_ul(cur, &v))
		return gt_control_refuse(err, len,
		                         "cannot read power1_cap: its original "
		                         "could not be restored");
	if (v != microwatts) {
		if (add(c, &d, L_CAP, cur, a, &n, err, len) ||
		    gt_control_prepare(c, a, n, err, len))
			return REFUSED;
		if (amd_write(c, &d, L_CAP, "write", cur, val, err, len))
			return GT_CONTROL_FAILED;
	}
	/* The kernel keeps whole watts: the read-back shows the truncation. */
	if (read_leaf(&d, L_CAP, cur, sizeof(cur)) <= 0 || !parse_ul(cur, &v))
		readback_failed(err, len, "power1_cap", -EBADMSG);
	else if (applied_uw)
		*applied_uw = v;
	return GT_CONTROL_OK;
}

/* The original gputop journaled for leaf l, or NULL. */
static const char *journaled(const struct gt_control *c, const struct amd *d,
                             enum leaf l)
{
	const struct gt_restore_journal *j = gt_control_journal(c);
	char path[PATH_MAX];

	for (size_t i = 0; leaf_path(d, l, path) == 0 && i < j->n; i++)
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
	unsigned long v, hi = read_ul(d, L_PWM, "pwm1_max", 255);
	bool set_mode, set_pwm;
	size_t n = 0;

	if (read_leaf(d, L_PWM_ENABLE, e, sizeof(e)) <= 0 ||
	    read_leaf(d, L_PWM, p, sizeof(p)) <= 0)
		return gt_control_refuse(
		    err, len,
		    "cannot read pwm1_enable and pwm1: "
		    "their originals could not be restored");
	set_mode = strcmp(e, mode) != 0;
	set_pwm = pwm && strcmp(p, pwm) != 0;
	if (set_mode || set_pwm) {
		was = journaled(c, d, L_PWM_ENABLE);
		if ((strcmp(was ? was : e, "1") == 0 &&
		     add(c, d, L_PWM, p, a, &n, err, len)) ||
		    (set_mode && add(c, d, L_PWM_ENABLE, e, a, &n, err, len)) ||
		    gt_control_prepare(c, a, n, err, len))
			return REFUSED;
		/* The kernel refuses pwm1 until the mode is manual. */
		if ((set_mode && amd_write(c, d, L_PWM_ENABLE, "write", e, mode,
		                           err, len)) ||
		    (set_pwm &&
		     amd_write(c, d, L_PWM, "write", p, pwm, err, len)))
			return GT_CONTROL_FAILED;
	}
	if (!applied)
		return GT_CONTROL_OK;
	if (read_leaf(d, L_PWM, p, sizeof(p)) <= 0 || !parse_ul(p, &v) ||
	    hi == 0 || v > hi)
		readback_failed(err, len, "pwm1", -EBADMSG);
	else
		*applied = (unsigned)((v * 100 + hi / 2) / hi);
	return GT_CONTROL_OK;
}

int gt_control_amd_fan_pwm(struct gt_control *c, const char *devdir,
                           unsigned percent, unsigned *applied_percent,
                           char *err, size_t len)
{
	char val[24];
	unsigned long hi;
	struct amd d;

	if (applied_percent)
		*applied_percent = GT_CONTROL_UNREAD;
	if (begin(c, "setting a fan speed", devdir, &d, err, len))
		return REFUSED;
	if (!has_leaf(&d, L_PWM_ENABLE))
		return gt_control_refuse(
		    err, len,
		    "this card has no hwmon pwm1_enable, so its fan "
		    "cannot be driven by pwm (RDNA4 runs its fans "
		    "from the firmware): use the firmware fan curve "
		    "(gpu_od/fan_ctrl/fan_curve) instead");
	if (has_leaf(&d, L_CURVE))
		return gt_control_refuse(
		    err, len,
		    "this card (RDNA3 or newer) runs its fans from "
		    "the firmware, where hwmon pwm1 is not "
		    "dependable: use the firmware fan curve "
		    "(gpu_od/fan_ctrl/fan_curve) instead");
	if (percent > 100)
		return gt_control_refuse(
		    err, len, "fan speed %u %%: at most 100 %%", percent);
	if (target(&d, L_PWM_ENABLE, err, len) || target(&d, L_PWM, err, len))
		return REFUSED;
	hi = read_ul(&d, L_PWM, "pwm1_max", 255);
	snprintf(val, sizeof(val), "%lu", (percent * hi + 50) / 100);
	if (validate(&d, L_PWM, val, err, len))
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

	for (int i = 0, k = 0; read_curve(d, &o) == 0 && i < 5; i++)
		k += snprintf(old + k, sizeof(old) - (size_t)k, "%s%dC %d%%",
		              i ? ", " : "", o.t[i], o.s[i]);
	rc = amd_write(c, d, L_CURVE, kind, old, "r", err, len);
	return rc ? rc : amd_write(c, d, L_CURVE, kind, "", "c", err, len);
}

int gt_control_amd_fan_auto(struct gt_control *c, const char *devdir, char *err,
                            size_t len)
{
	struct gt_restore_action a;
	struct od_curve o;
	struct amd d;
	bool zero = true;

	if (begin(c, "handing the fan back to the firmware", devdir, &d, err,
	          len))
		return REFUSED;
	if (has_leaf(&d, L_CURVE)) {
		if (target(&d, L_CURVE, err, len))
			return REFUSED;
		if (read_curve(&d, &o) != 0)
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
	if (!has_leaf(&d, L_PWM_ENABLE))
		return gt_control_refuse(err, len,
		                         "this card has no fan control gputop "
		                         "knows (no hwmon pwm1_enable, no "
		                         "gpu_od/fan_ctrl/fan_curve)");
	if (target(&d, L_PWM_ENABLE, err, len) || target(&d, L_PWM, err, len))
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

int gt_control_amd_fan_curve(struct gt_control *c, const char *devdir,
                             const struct gt_fancurve *curve,
                             struct gt_fancurve *applied, char *err, size_t len)
{
	struct gt_restore_action a;
	char old[32], val[32];
	int t[5], s[5], rc;
	struct od_curve o;
	struct amd d;
	bool same = true;

	if (applied)
		memset(applied, 0, sizeof(*applied));
	if (begin(c, "setting the fan curve", devdir, &d, err, len))
		return REFUSED;
	if (!has_leaf(&d, L_CURVE))
		return gt_control_refuse(
		    err, len,
		    "this card has no firmware fan curve "
		    "(gpu_od/fan_ctrl/fan_curve, RDNA3 and "
		    "newer): use the software curve");
	if (target(&d, L_CURVE, err, len))
		return REFUSED;
	if (read_curve(&d, &o) != 0)
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
			if (amd_write(c, &d, L_CURVE, "write", i < 5 ? old : "",
			              i < 5 ? val : "c", err, len))
				return GT_CONTROL_FAILED;
		}
	}
	if ((rc = read_curve(&d, &o)) != 0) {
		readback_failed(err, len, "fan_curve", rc);
	} else if (applied) {
		applied->n = 5;
		for (int i = 0; i < 5; i++)
			applied->pt[i] =
			    (struct gt_fan_point){o.t[i] * 1000, o.s[i] * 100};
	}
	return GT_CONTROL_OK;
}

/* ------------------------------------------------------------------ */
/* Restore callbacks                                                    */
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
		if (amd_open(c, dir, d, why, sizeof(why)) == 0 &&
		    leaf_path(d, (enum leaf)k, mine) == 0 &&
		    strcmp(mine, path) == 0) {
			*l = (enum leaf)k;
			return 0;
		}
	}
	return -1;
}

int gt_control_amd_restore_write(void *ctx, const char *path, const char *value)
{
	struct gt_control *c = ctx;
	char why[256], res[300], old[64] = "";
	struct amd d;
	enum leaf l;
	int a;

	if (own_leaf(c, path, &d, &l) != 0) {
		gt_control_audit(c, "restore", "?", path, "", value,
		                 "refused: not a file gputop writes");
		return -EPERM;
	}
	if (validate(&d, l, value, why, sizeof(why)) != 0) {
		snprintf(res, sizeof(res), "refused: %s", why);
		gt_control_audit(c, "restore", d.id, leaves[l].name, "", value,
		                 res);
		return -EINVAL;
	}
	if (l == L_PROFILE && (a = profile_scan(&d, -1)) >= 0)
		snprintf(old, sizeof(old), "%d", a);
	else if (l != L_PROFILE)
		read_leaf(&d, l, old, sizeof(old));
	return amd_write(c, &d, l, "restore", old, value, why, sizeof(why));
}

int gt_control_amd_restore_curve(void *ctx, const char *dev_dir)
{
	struct gt_control *c = ctx;
	char why[256];
	struct amd d;

	if (amd_open(c, dev_dir, &d, why, sizeof(why)) != 0 ||
	    target(&d, L_CURVE, why, sizeof(why)) != 0) {
		gt_control_audit(c, "restore", "?", dev_dir, "", "r",
		                 "refused: no firmware fan curve there");
		return -EPERM;
	}
	return curve_reset(c, &d, "restore", why, sizeof(why));
}

/* ------------------------------------------------------------------ */
/* What the control dialogs may offer (ctlcaps.h)                       */
/* ------------------------------------------------------------------ */

/* The fan as the setters would drive it: the firmware curve where the
 * card has one (RDNA3+, where pwm1 is not dependable), else the pwm loop
 * (pre-RDNA3), else why neither. */
static void fan_caps(const struct amd *d, struct gt_ctl_caps *caps)
{
	char fan[PATH_MAX];
	struct od_curve o;
	unsigned long lo, hi;
	bool zero = true;
	struct stat st;

	if (has_leaf(d, L_CURVE)) {
		if (read_curve(d, &o) != 0) {
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
	} else if (has_leaf(d, L_PWM_ENABLE)) {
		lo = read_ul(d, L_PWM, "pwm1_min", 0);
		hi = read_ul(d, L_PWM, "pwm1_max", 255);
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

static void power_caps(const struct amd *d, struct gt_ctl_caps *caps)
{
	struct gt_ctl_range *r = &caps->power;
	unsigned long lo = read_ul(d, L_CAP, "power1_cap_min", 0);
	unsigned long hi = read_ul(d, L_CAP, "power1_cap_max", 0);
	unsigned long def = read_ul(d, L_CAP, "power1_cap_default", ULONG_MAX);
	unsigned long cur = read_ul(d, L_CAP, "power1_cap", ULONG_MAX);

	if (!has_leaf(d, L_CAP)) {
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
	*r = (struct gt_ctl_range){
	    .known = true,
	    .min = (int64_t)(lo < UW_PER_W ? UW_PER_W : lo),
	    .max = (int64_t)hi,
	    .def = def == ULONG_MAX ? -1 : (int64_t)def,
	    .cur = cur == ULONG_MAX ? -1 : (int64_t)cur,
	};
}

int gt_control_amd_caps(struct gt_control *c, const char *devdir,
                        struct gt_ctl_caps *caps)
{
	struct amd d;
	char *t;
	ssize_t n;
	int a;

	if (amd_open(c, devdir, &d, caps->why, sizeof(caps->why)))
		return -1;
	gt_copy_str(caps->dev, sizeof(caps->dev), d.dir);
	gt_copy_str(caps->hwmon, sizeof(caps->hwmon), d.hwmon);
	if (d.hwmon[0]) /* too long for the preview: "" */
		(void)gt_sysfs_join(caps->power_file, sizeof(caps->power_file),
		                    d.hwmon, "power1_cap");
	power_caps(&d, caps);
	caps->has_level = has_leaf(&d, L_LEVEL);
	if (caps->has_level && read_level(&d, caps->level) != 0)
		caps->level[0] = '\0';
	t = malloc(TEXT_MAX);
	n = t ? read_leaf(&d, L_PROFILE, t, TEXT_MAX) : -ENOMEM;
	if (n >= 0) {
		caps->nprofiles = profile_list(t, (size_t)n, caps->profiles,
		                               GT_CAPS_MAX_PROFILES);
		a = gt_amdgpu_parse_power_profile(t, (size_t)n, NULL, 0);
		caps->profile_active = a >= 0 && a <= 9 ? a : -1;
	}
	free(t);
	fan_caps(&d, caps);
	return 0;
}

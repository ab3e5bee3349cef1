/* SPDX-License-Identifier: MIT */
/*
 * test_control_amdgpu.c - tests of the AMD control writes
 * (src/control/control_amdgpu*.c, through the checked write of
 * control_sysfs.c) on writable copies of the amdgpu fixtures: the
 * exact bytes of every file after each call, the exact journal and audit
 * lines, refusals that change nothing (a checksum of the whole tree), a
 * symlink out of the device directory, the RDNA4 pwm refusal, the RDNA3
 * firmware curve, and restore_all putting every file back.
 *
 * The fixture files are regular files, not kernel attributes. The test
 * writer records every write ("leaf=value") and, where a test asks for it,
 * emulates the kernel: power1_cap keeps whole watts, pp_power_profile_mode
 * moves its '*' (SMU7 and nested layouts), fan_curve takes points and
 * shows them on "c" ("r" resets them). Without emulation the file simply
 * holds the last value written, as the brief's fan_curve check expects.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "control/control.h"
#include "control/control_amdgpu.h"
#include "control/control_vendors.h"

#define T0    1767225600 /* 2026-01-01T00:00:00Z */
#define STAMP "2026-01-01T00:00:00Z"
#define HDR                                                                    \
	"# gputop restore state: the original values of the settings gputop "  \
	"changed.\n# Written before each first change; `gputop --restore` "    \
	"puts them back.\ngputop-restore 2\n"

struct env {
	char tmp[64], root[256], dev[512], state[256], audit[256];
	char writes[8192]; /* "leaf=value\n" per write, leaf under dev */
	bool emulate;
	int pt[5][2];           /* the emulated firmware's pending curve */
	uint64_t sum0;          /* the tree's checksum at setup */
	char swap[2][PATH_MAX]; /* on the next write: make [0] a link to [1] */
	struct gt_control *c;
};

static char *slurp(const char *path)
{
	static char buf[4][16384]; /* up to four results in one assert */
	static char missing[] = "(missing)";
	static int k;
	char *b = buf[k++ % 4];
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(b, 1, sizeof(buf[0]) - 1, f) : 0;

	if (f)
		fclose(f);
	b[f ? n : 0] = '\0';
	return f ? b : missing;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static bool ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Order-independent checksum of every path, file content and link. */
static uint64_t tree_sum(const char *dir)
{
	uint64_t sum = 0;
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char path[PATH_MAX];
		const char *data = "";
		uint64_t h = 1469598103934665603ull;
		struct stat st;
		ssize_t n;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		assert_int_equal(lstat(path, &st), 0);
		if (S_ISDIR(st.st_mode)) {
			sum += 31 * tree_sum(path);
		} else if (S_ISLNK(st.st_mode)) {
			static char link[PATH_MAX];
			n = readlink(path, link, sizeof(link) - 1);
			link[n > 0 ? n : 0] = '\0';
			data = link;
		} else {
			data = slurp(path);
		}
		for (const char *p = path; *p; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211ull;
		for (const char *p = data; *p; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211ull;
		sum += h;
	}
	if (d)
		closedir(d);
	return sum;
}

/* SMU7 prints "%3d %16s:" with " *" after the active name; the nested
 * layout "%2d %14s%c:" with '*' or ' '. */
static int emulate_profile(const char *path, const char *value)
{
	char in[16384], out[16384], name[32], *p, *nl;
	size_t k = 0;
	bool smu7;
	int n;

	snprintf(in, sizeof(in), "%s", slurp(path));
	smu7 = strncmp(in, "NUM", 3) == 0;
	for (p = in; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		*nl = '\0';
		if (sscanf(p, "%d %31[A-Z0-9_]", &n, name) == 2 &&
		    strchr(p, ':')) {
			char nm[40];
			bool on = n == value[0] - '0';
			snprintf(nm, sizeof(nm), "%s%s", name,
			         on && smu7 ? " *" : "");
			k += (size_t)snprintf(
			    out + k, sizeof(out) - k,
			    smu7 ? "%3d %16s%s:%s\n" : "%2d %14s%s:%s\n", n, nm,
			    smu7 ? ""
			    : on ? "*"
			         : " ",
			    strchr(p, ':') + 1);
		} else {
			k += (size_t)snprintf(out + k, sizeof(out) - k, "%s\n",
			                      p);
		}
	}
	put(path, out);
	return 0;
}

static int emulate_curve(struct env *e, const char *path, const char *value)
{
	char out[1024], *range = strstr(slurp(path), "OD_RANGE:");
	int i, t, s;
	size_t k;

	if (sscanf(value, "%d %d %d", &i, &t, &s) == 3 && i >= 0 && i < 5) {
		e->pt[i][0] = t, e->pt[i][1] = s;
		return 0;
	}
	if (!strcmp(value, "r")) {
		memset(e->pt, 0, sizeof(e->pt));
		return 0;
	}
	if (strcmp(value, "c") != 0)
		return -EINVAL;
	k = (size_t)snprintf(out, sizeof(out), "OD_FAN_CURVE:\n");
	for (i = 0; i < 5; i++)
		k +=
		    (size_t)snprintf(out + k, sizeof(out) - k, "%d: %dC %d%%\n",
		                     i, e->pt[i][0], e->pt[i][1]);
	snprintf(out + k, sizeof(out) - k, "%s", range ? range : "");
	put(path, out);
	return 0;
}

static int kernel_write(void *ctx, const char *path, const char *value)
{
	struct env *e = ctx;
	size_t n = strlen(e->writes);
	char buf[32];

	snprintf(e->writes + n, sizeof(e->writes) - n, "%s=%s\n",
	         path + strlen(e->dev) + 1, value);
	if (e->swap[0][0]) { /* someone swaps a file while gputop writes */
		assert_int_equal(unlink(e->swap[0]), 0);
		assert_int_equal(symlink(e->swap[1], e->swap[0]), 0);
		e->swap[0][0] = '\0';
	}
	if (e->emulate && ends(path, "/fan_curve"))
		return emulate_curve(e, path, value);
	if (e->emulate && ends(path, "/pp_power_profile_mode"))
		return emulate_profile(path, value);
	if (e->emulate && ends(path, "/power1_cap")) {
		snprintf(buf, sizeof(buf), "%lu",
		         strtoul(value, NULL, 10) / 1000000 * 1000000);
		value = buf;
	}
	return gt_control_write_file(path, value);
}

static struct gt_control *new_control(struct env *e, enum gt_control_priv priv)
{
	struct gt_control_config cfg = {
	    .vendors = gt_control_vendors,
	    .sysfs_root = e->root,
	    .state_path = e->state,
	    .audit_path = e->audit,
	    .privileged = priv,
	    .fixed_time = T0,
	    .write = kernel_write,
	    .write_ctx = e,
	};
	char err[512] = "";
	struct gt_control *c = gt_control_new(&cfg, err, sizeof(err));

	if (!c)
		fail_msg("gt_control_new: %s", err);
	return c;
}

static struct env *setup(const char *card, const char *cardn, bool emulate,
                         enum gt_control_priv priv)
{
	struct env *e = calloc(1, sizeof(*e));
	const char *fx = getenv("GPUTOP_FIXTURES");
	char cmd[1024], path[1024];
	int i, t, s;

	assert_non_null(e);
	snprintf(e->tmp, sizeof(e->tmp), "/tmp/gt-ctl-XXXXXX");
	assert_non_null(mkdtemp(e->tmp));
	snprintf(e->root, sizeof(e->root), "%s/sys", e->tmp);
	snprintf(cmd, sizeof(cmd),
	         "cp -R '%s/amdgpu/%s' '%s' && chmod -R u+w '%s'",
	         fx ? fx : "tests/fixtures", card, e->root, e->root);
	assert_int_equal(system(cmd), 0);
	snprintf(e->dev, sizeof(e->dev), "%s/class/drm/%s/device", e->root,
	         cardn);
	snprintf(e->state, sizeof(e->state), "%s/state/restore.state", e->tmp);
	snprintf(e->audit, sizeof(e->audit), "%s/audit.log", e->tmp);
	e->emulate = emulate;
	snprintf(path, sizeof(path), "%s/gpu_od/fan_ctrl/fan_curve", e->dev);
	for (char *p = slurp(path); p && *p;
	     p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (sscanf(p, "%d: %dC %d%%", &i, &t, &s) == 3 && i >= 0 &&
		    i < 5)
			e->pt[i][0] = t, e->pt[i][1] = s;
	e->sum0 = tree_sum(e->root);
	e->c = new_control(e, priv);
	return e;
}

static void done(struct env *e)
{
	char cmd[PATH_MAX];

	gt_control_free(e->c);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", e->tmp);
	assert_int_equal(system(cmd), 0);
	free(e);
}

static char *devfile(struct env *e, const char *leaf)
{
	static char path[4][PATH_MAX];
	static int k;
	char *p = path[k++ % 4];

	snprintf(p, PATH_MAX, "%s/%s", e->dev, leaf);
	return p;
}

/* A refusal: REFUSED, err contains want, and no file anywhere changed. */
#define REFUSED(e, call, want)                                                 \
	do {                                                                   \
		char err_[512] = "";                                           \
		size_t w_ = strlen((e)->writes);                               \
		assert_int_equal((call), GT_CONTROL_REFUSED);                  \
		if (!strstr(err_, (want)))                                     \
			fail_msg("err \"%s\" lacks \"%s\"", err_, (want));     \
		assert_int_equal(strlen((e)->writes), w_);                     \
		assert_true(tree_sum((e)->root) == (e)->sum0);                 \
	} while (0)
#define ERR err_, sizeof(err_)

static void test_unprivileged_writes_nothing(void **state)
{
	struct env *e = setup("rx580", "card0", false, GT_CONTROL_PRIV_NO);
	struct gt_fancurve q;
	char lvl[32], rep[256];
	unsigned u;
	unsigned long ul;
	int i;
	(void)state;

	assert_true(strstr(gt_control_readonly_reason(e->c), "needs root"));
	REFUSED(
	    e,
	    gt_control_amdgpu_perf_level(e->c, e->dev, "manual", lvl, 32, ERR),
	    "changing the performance level needs root: run gputop with sudo");
	REFUSED(e, gt_control_amdgpu_power_profile(e->c, e->dev, 5, &i, ERR),
	        "needs root");
	REFUSED(e,
	        gt_control_amdgpu_power_cap(e->c, e->dev, 150000000, &ul, ERR),
	        "needs root");
	REFUSED(e, gt_control_amdgpu_fan_pwm(e->c, e->dev, 50, &u, ERR),
	        "needs root");
	REFUSED(e, gt_control_amdgpu_fan_auto(e->c, e->dev, ERR), "needs root");
	gt_fancurve_preset(GT_FAN_PRESET_QUIET, &q);
	REFUSED(e, gt_control_amdgpu_fan_curve(e->c, e->dev, &q, NULL, ERR),
	        "needs root");
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), -1);
	assert_string_equal(slurp(e->state), "(missing)");
	assert_string_equal(slurp(e->audit), "(missing)");
	done(e);
}

static void test_perf_level(void **state)
{
	struct env *e = setup("rx580", "card0", false, GT_CONTROL_PRIV_YES);
	char lvl[GT_CONTROL_LEVEL_MAX], err[256] = "x", want[4096], rep[512];
	(void)state;

	REFUSED(
	    e,
	    gt_control_amdgpu_perf_level(e->c, e->dev, "turbo", lvl, 32, ERR),
	    "\"turbo\" is not a performance level");
	assert_int_equal(gt_control_amdgpu_perf_level(e->c, e->dev, "manual",
	                                              lvl, sizeof(lvl), err,
	                                              sizeof(err)),
	                 GT_CONTROL_OK);
	assert_string_equal(err, "");
	assert_string_equal(lvl, "manual");
	assert_string_equal(
	    slurp(devfile(e, "power_dpm_force_performance_level")), "manual\n");
	assert_string_equal(e->writes,
	                    "power_dpm_force_performance_level=manual\n");
	snprintf(want, sizeof(want),
	         HDR "sysfs vendor=amdgpu dev=0000:09:00.0 time=%d path=%s "
	             "value=auto\nend 1\n",
	         T0, devfile(e, "power_dpm_force_performance_level"));
	assert_string_equal(slurp(e->state), want);
	assert_string_equal(
	    slurp(e->audit),
	    STAMP " write 0000:09:00.0 power_dpm_force_performance_level "
	          "old=\"auto\" new=\"manual\" ok\n");
	/* Already in force: nothing written, nothing logged. */
	assert_int_equal(gt_control_amdgpu_perf_level(e->c, e->dev, "manual",
	                                              lvl, sizeof(lvl), err,
	                                              sizeof(err)),
	                 GT_CONTROL_OK);
	assert_string_equal(e->writes,
	                    "power_dpm_force_performance_level=manual\n");
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	assert_string_equal(
	    slurp(devfile(e, "power_dpm_force_performance_level")), "auto\n");
	assert_true(
	    strstr(rep, "power_dpm_force_performance_level <- auto: ok"));
	assert_string_equal(slurp(e->state), "(missing)");
	assert_true(
	    strstr(slurp(e->audit),
	           "\n" STAMP
	           " restore 0000:09:00.0 power_dpm_force_performance_level "
	           "old=\"manual\" new=\"auto\" ok\n"));
	assert_true(tree_sum(e->root) == e->sum0);
	done(e);
}

static void test_profile_manual_first_and_restore(void **state)
{
	struct env *e = setup("rx580", "card0", true, GT_CONTROL_PRIV_YES);
	char err[256], want[4096], rep[512];
	int idx = -2;
	(void)state;

	REFUSED(e, gt_control_amdgpu_power_profile(e->c, e->dev, 9, &idx, ERR),
	        "profile 9 is not in this card's pp_power_profile_mode");
	REFUSED(e, gt_control_amdgpu_power_profile(e->c, e->dev, 12, &idx, ERR),
	        "the kernel reads one digit");
	assert_int_equal(gt_control_amdgpu_power_profile(e->c, e->dev, 5, &idx,
	                                                 err, sizeof(err)),
	                 GT_CONTROL_OK);
	assert_int_equal(idx, 5);
	assert_string_equal(e->writes,
	                    "power_dpm_force_performance_level=manual\n"
	                    "pp_power_profile_mode=5\n");
	assert_true(strstr(slurp(devfile(e, "pp_power_profile_mode")),
	                   "\n  5        COMPUTE *:"));
	snprintf(
	    want, sizeof(want),
	    HDR
	    "sysfs vendor=amdgpu dev=0000:09:00.0 time=%d path=%s value=auto\n"
	    "sysfs vendor=amdgpu dev=0000:09:00.0 time=%d path=%s value=1\nend "
	    "2\n",
	    T0, devfile(e, "power_dpm_force_performance_level"), T0,
	    devfile(e, "pp_power_profile_mode"));
	assert_string_equal(slurp(e->state), want);
	/* Last change first: the profile while still manual, then auto. */
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	assert_string_equal(e->writes,
	                    "power_dpm_force_performance_level=manual\n"
	                    "pp_power_profile_mode=5\n"
	                    "pp_power_profile_mode=1\n"
	                    "power_dpm_force_performance_level=auto\n");
	assert_true(tree_sum(e->root) == e->sum0);
	done(e);
}

/* Each of the five table layouts: an index it does not print is refused,
 * the active one is a no-op, another is selected. */
static void test_profile_layouts(void **state)
{
	static const struct {
		const char *card, *cardn;
		int missing, active, other;
	} t[] = {
	    {"rx580", "card0", 7, 1, 6},          /* flat SMU7 */
	    {"vega56", "card0", 7, 0, 4},         /* flat Vega10 */
	    {"rx6900xt", "card0", 7, 0, 2},       /* nested */
	    {"rx7600s", "card1", 8, 4, 7},        /* rotated */
	    {"internal-4800h", "card0", 2, 3, 6}, /* APU list */
	};
	(void)state;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct env *e =
		    setup(t[i].card, t[i].cardn, false, GT_CONTROL_PRIV_YES);
		char err[256];
		int idx = -2;

		if (!strcmp(t[i].card, "internal-4800h")) { /* a bare capture */
			put(devfile(e, "uevent"),
			    "DRIVER=amdgpu\nPCI_SLOT_NAME=0000:05:00.0\n");
			put(devfile(e, "power_dpm_force_performance_level"),
			    "manual\n");
			e->sum0 = tree_sum(e->root);
		}
		REFUSED(e,
		        gt_control_amdgpu_power_profile(
		            e->c, e->dev, t[i].missing, &idx, ERR),
		        "is not in this card's pp_power_profile_mode");
		assert_int_equal(
		    gt_control_amdgpu_power_profile(e->c, e->dev, t[i].active,
		                                    &idx, err, sizeof(err)),
		    GT_CONTROL_OK);
		assert_int_equal(idx, t[i].active);
		assert_string_equal(e->writes, "");
		assert_int_equal(
		    gt_control_amdgpu_power_profile(e->c, e->dev, t[i].other,
		                                    &idx, err, sizeof(err)),
		    GT_CONTROL_OK);
		/* A plain file now holds just the digit: no active mark. */
		assert_true(strstr(e->writes, "pp_power_profile_mode="));
		assert_int_equal(idx, -1);
		assert_true(
		    strstr(err, "reading pp_power_profile_mode back failed"));
		done(e);
	}
}

static void test_profile_nested_no_manual_needed(void **state)
{
	struct env *e = setup("rx7800xt", "card1", true, GT_CONTROL_PRIV_YES);
	char err[256], rep[512];
	int idx;
	(void)state;

	assert_int_equal(gt_control_amdgpu_power_profile(e->c, e->dev, 1, &idx,
	                                                 err, sizeof(err)),
	                 GT_CONTROL_OK);
	assert_int_equal(idx, 1);
	assert_string_equal(e->writes, "pp_power_profile_mode=1\n");
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	assert_string_equal(e->writes, "pp_power_profile_mode=1\n"
	                               "pp_power_profile_mode=5\n");
	assert_true(tree_sum(e->root) == e->sum0);
	done(e);
}

static void test_power_cap(void **state)
{
	struct env *e = setup("rx580", "card0", true, GT_CONTROL_PRIV_YES);
	char err[256], rep[512];
	unsigned long uw = 0;
	(void)state;

	REFUSED(e,
	        gt_control_amdgpu_power_cap(e->c, e->dev, 250000000, &uw, ERR),
	        "power cap 250000000 µW is outside this card's range "
	        "1000000-201000000 µW");
	/* power1_cap_min reads 0 (unknown): 1 W is the floor. */
	REFUSED(e, gt_control_amdgpu_power_cap(e->c, e->dev, 500000, &uw, ERR),
	        "outside this card's range 1000000-201000000");
	assert_int_equal(gt_control_amdgpu_power_cap(e->c, e->dev, 120500000,
	                                             &uw, err, sizeof(err)),
	                 GT_CONTROL_OK);
	assert_true(uw == 120000000); /* the kernel keeps whole watts */
	assert_string_equal(slurp(devfile(e, "hwmon/hwmon4/power1_cap")),
	                    "120000000\n");
	assert_string_equal(slurp(e->audit), STAMP
	                    " write 0000:09:00.0 power1_cap old=\"155000000\" "
	                    "new=\"120500000\" ok\n");
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	assert_string_equal(slurp(devfile(e, "hwmon/hwmon4/power1_cap")),
	                    "155000000\n");
	assert_true(tree_sum(e->root) == e->sum0);
	done(e);
}

/* Polaris, already manual (pwm1_enable 1, pwm1 35): pwm1 is journaled
 * before pwm1_enable, so the restore sets manual mode, then the speed. */
static void test_pwm_from_manual(void **state)
{
	struct env *e = setup("rx580", "card0", false, GT_CONTROL_PRIV_YES);
	char err[256], rep[512];
	unsigned pct = 0;
	(void)state;

	REFUSED(e, gt_control_amdgpu_fan_pwm(e->c, e->dev, 101, &pct, ERR),
	        "at most 100 %");
	assert_int_equal(
	    gt_control_amdgpu_fan_pwm(e->c, e->dev, 50, &pct, err, sizeof(err)),
	    GT_CONTROL_OK);
	assert_int_equal(pct, 50);
	assert_string_equal(slurp(devfile(e, "hwmon/hwmon4/pwm1")), "128\n");
	assert_int_equal(
	    gt_control_amdgpu_fan_auto(e->c, e->dev, err, sizeof(err)),
	    GT_CONTROL_OK);
	assert_string_equal(slurp(devfile(e, "hwmon/hwmon4/pwm1_enable")),
	                    "2\n");
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	assert_string_equal(e->writes, "hwmon/hwmon4/pwm1=128\n"
	                               "hwmon/hwmon4/pwm1_enable=2\n"
	                               "hwmon/hwmon4/pwm1_enable=1\n"
	                               "hwmon/hwmon4/pwm1=35\n");
	assert_true(tree_sum(e->root) == e->sum0);
	done(e);
}

/* Handed to the firmware first: the restore still sets manual mode
 * before the old speed (the kernel refuses pwm1 in automatic mode). */
static void test_pwm_auto_first(void **state)
{
	struct env *e = setup("rx580", "card0", false, GT_CONTROL_PRIV_YES);
	char err[256], rep[512];
	(void)state;

	assert_int_equal(
	    gt_control_amdgpu_fan_auto(e->c, e->dev, err, sizeof(err)),
	    GT_CONTROL_OK);
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	assert_string_equal(e->writes, "hwmon/hwmon4/pwm1_enable=2\n"
	                               "hwmon/hwmon4/pwm1_enable=1\n"
	                               "hwmon/hwmon4/pwm1=35\n");
	assert_true(tree_sum(e->root) == e->sum0);
	done(e);
}

/* The usual case, firmware in control (2): enable=1 then pwm1; the
 * restore hands the fan back with 2 and leaves pwm1 to the firmware. */
static void test_pwm_from_auto(void **state)
{
	struct env *e = setup("rx580", "card0", false, GT_CONTROL_PRIV_YES);
	char err[256], want[4096], rep[512];
	unsigned pct = 0;
	(void)state;

	put(devfile(e, "hwmon/hwmon4/pwm1_enable"), "2\n");
	assert_int_equal(
	    gt_control_amdgpu_fan_pwm(e->c, e->dev, 60, &pct, err, sizeof(err)),
	    GT_CONTROL_OK);
	assert_int_equal(pct, 60);
	assert_string_equal(e->writes, "hwmon/hwmon4/pwm1_enable=1\n"
	                               "hwmon/hwmon4/pwm1=153\n");
	snprintf(want, sizeof(want),
	         HDR "sysfs vendor=amdgpu dev=0000:09:00.0 time=%d path=%s "
	             "value=2\nend 1\n",
	         T0, devfile(e, "hwmon/hwmon4/pwm1_enable"));
	assert_string_equal(slurp(e->state), want);
	assert_string_equal(
	    slurp(e->audit), STAMP
	    " write 0000:09:00.0 pwm1_enable old=\"2\" new=\"1\" ok\n" STAMP
	    " write 0000:09:00.0 pwm1 old=\"35\" new=\"153\" ok\n");
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	assert_string_equal(slurp(devfile(e, "hwmon/hwmon4/pwm1_enable")),
	                    "2\n");
	done(e);
}

static void test_pwm_refused_on_rdna(void **state)
{
	struct env *e = setup("rx9070", "card1", false, GT_CONTROL_PRIV_YES);
	unsigned pct;
	(void)state;

	REFUSED(
	    e, gt_control_amdgpu_fan_pwm(e->c, e->dev, 50, &pct, ERR),
	    "this card has no hwmon pwm1_enable, so its fan cannot be driven "
	    "by pwm (RDNA4 runs its fans from the firmware)");
	done(e);
	e = setup("rx7800xt", "card1", false, GT_CONTROL_PRIV_YES);
	REFUSED(e, gt_control_amdgpu_fan_pwm(e->c, e->dev, 50, &pct, ERR),
	        "RDNA3 or newer");
	done(e);
}

static struct gt_fancurve curve5(const int (*p)[2])
{
	struct gt_fancurve c = {.n = 5};

	for (int i = 0; i < 5; i++)
		c.pt[i] = (struct gt_fan_point){p[i][0] * 1000, p[i][1] * 100};
	return c;
}

static void test_fan_curve_rdna3(void **state)
{
	static const int ok[5][2] = {
	    {50, 35}, {60, 45}, {70, 60}, {80, 80}, {90, 100}};
	static const int low[5][2] = {
	    {50, 30}, {60, 45}, {70, 60}, {80, 80}, {90, 100}};
	static const int cold[5][2] = {
	    {20, 35}, {60, 45}, {70, 60}, {80, 80}, {90, 100}};
	static const int down[5][2] = {
	    {50, 35}, {60, 45}, {55, 60}, {80, 80}, {90, 100}};
	struct env *e = setup("rx7800xt", "card1", true, GT_CONTROL_PRIV_YES);
	struct gt_fancurve c = curve5(ok), got;
	char err[256], want[4096], rep[512];
	(void)state;

	c.n = 4;
	REFUSED(e, gt_control_amdgpu_fan_curve(e->c, e->dev, &c, &got, ERR),
	        "exactly 5 points, not 4");
	c = curve5(low);
	REFUSED(e, gt_control_amdgpu_fan_curve(e->c, e->dev, &c, &got, ERR),
	        "point 1: 30 % is outside this card's range 35-100 %");
	c = curve5(cold);
	REFUSED(e, gt_control_amdgpu_fan_curve(e->c, e->dev, &c, &got, ERR),
	        "point 1: 20 °C is outside this card's range 25-100 °C");
	c = curve5(down);
	REFUSED(e, gt_control_amdgpu_fan_curve(e->c, e->dev, &c, &got, ERR),
	        "point 3");
	c = curve5(ok);
	c.pt[2].temp_mc += 500;
	REFUSED(e, gt_control_amdgpu_fan_curve(e->c, e->dev, &c, &got, ERR),
	        "whole °C and whole %");
	c = curve5(ok);
	assert_int_equal(gt_control_amdgpu_fan_curve(e->c, e->dev, &c, &got,
	                                             err, sizeof(err)),
	                 GT_CONTROL_OK);
	assert_string_equal(err, "");
	assert_memory_equal(&got, &c, sizeof(c));
	assert_string_equal(e->writes, "gpu_od/fan_ctrl/fan_curve=0 50 35\n"
	                               "gpu_od/fan_ctrl/fan_curve=1 60 45\n"
	                               "gpu_od/fan_ctrl/fan_curve=2 70 60\n"
	                               "gpu_od/fan_ctrl/fan_curve=3 80 80\n"
	                               "gpu_od/fan_ctrl/fan_curve=4 90 100\n"
	                               "gpu_od/fan_ctrl/fan_curve=c\n");
	snprintf(want, sizeof(want),
	         HDR "amd-fan-curve-reset vendor=amdgpu dev=0000:03:00.0 "
	             "time=%d path=%s\nend 1\n",
	         T0, e->dev);
	assert_string_equal(slurp(e->state), want);
	assert_true(strstr(slurp(e->audit), STAMP
	                   " write 0000:03:00.0 gpu_od/fan_ctrl/fan_curve "
	                   "old=\"4: 0C 0%\" new=\"4 90 100\" ok\n"));
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	assert_true(ends(e->writes, "fan_curve=c\ngpu_od/fan_ctrl/fan_curve=r\n"
	                            "gpu_od/fan_ctrl/fan_curve=c\n"));
	assert_true(tree_sum(e->root) == e->sum0);
	done(e);
}

/* Without the kernel the file holds what was written last: the commit. */
static void test_fan_curve_plain_file(void **state)
{
	static const int ok[5][2] = {
	    {40, 20}, {50, 30}, {60, 50}, {70, 70}, {80, 100}};
	struct env *e = setup("rx7900xtx", "card0", false, GT_CONTROL_PRIV_YES);
	struct gt_fancurve c = curve5(ok), got;
	char err[256];
	(void)state;

	assert_int_equal(gt_control_amdgpu_fan_curve(e->c, e->dev, &c, &got,
	                                             err, sizeof(err)),
	                 GT_CONTROL_OK);
	assert_string_equal(slurp(devfile(e, "gpu_od/fan_ctrl/fan_curve")),
	                    "c\n");
	assert_true(strstr(err, "reading fan_curve back failed"));
	assert_int_equal(got.n, 0);
	done(e);
}

static void test_fan_auto_rdna(void **state)
{
	struct env *e = setup("rx9070", "card1", true, GT_CONTROL_PRIV_YES);
	char err[256];
	(void)state;

	/* A user curve is there: "r" and "c" give the firmware's back. */
	assert_int_equal(
	    gt_control_amdgpu_fan_auto(e->c, e->dev, err, sizeof(err)),
	    GT_CONTROL_OK);
	assert_string_equal(e->writes, "gpu_od/fan_ctrl/fan_curve=r\n"
	                               "gpu_od/fan_ctrl/fan_curve=c\n");
	assert_true(strstr(slurp(devfile(e, "gpu_od/fan_ctrl/fan_curve")),
	                   "0: 0C 0%\n1: 0C 0%\n"));
	done(e);
	/* The firmware's own curve (all zero): nothing to do. */
	e = setup("rx7800xt", "card1", true, GT_CONTROL_PRIV_YES);
	assert_int_equal(
	    gt_control_amdgpu_fan_auto(e->c, e->dev, err, sizeof(err)),
	    GT_CONTROL_OK);
	assert_string_equal(e->writes, "");
	assert_string_equal(slurp(e->state), "(missing)");
	done(e);
}

static void test_paths_outside_refused(void **state)
{
	struct env *e = setup("rx580", "card0", false, GT_CONTROL_PRIV_YES);
	char outside[PATH_MAX], evil[PATH_MAX + 16], cmd[3 * PATH_MAX];
	unsigned long uw;
	char lvl[32];
	(void)state;

	snprintf(outside, sizeof(outside), "%s/outside", e->tmp);
	put(outside, "155000000\n");
	assert_int_equal(unlink(devfile(e, "hwmon/hwmon4/power1_cap")), 0);
	assert_int_equal(
	    symlink(outside, devfile(e, "hwmon/hwmon4/power1_cap")), 0);
	e->sum0 = tree_sum(e->root);
	REFUSED(e,
	        gt_control_amdgpu_power_cap(e->c, e->dev, 120000000, &uw, ERR),
	        "power1_cap resolves outside the device directory");
	assert_string_equal(slurp(outside), "155000000\n");
	/* A device directory that leads out of the sysfs root. */
	snprintf(cmd, sizeof(cmd), "cp -R '%s' '%s/elsewhere'", e->dev, e->tmp);
	assert_int_equal(system(cmd), 0);
	snprintf(evil, sizeof(evil), "%s/evil", e->root);
	snprintf(cmd, sizeof(cmd), "%s/elsewhere", e->tmp);
	assert_int_equal(symlink(cmd, evil), 0);
	e->sum0 = tree_sum(e->root);
	REFUSED(
	    e, gt_control_amdgpu_perf_level(e->c, evil, "manual", lvl, 32, ERR),
	    "resolves outside");
	snprintf(evil, sizeof(evil), "%s/../sys/class/drm/card0/device",
	         e->root);
	REFUSED(
	    e, gt_control_amdgpu_perf_level(e->c, evil, "manual", lvl, 32, ERR),
	    "is not a device directory under");
	snprintf(evil, sizeof(evil), "%s/class/drm", e->root);
	REFUSED(
	    e, gt_control_amdgpu_perf_level(e->c, evil, "manual", lvl, 32, ERR),
	    "is not an amdgpu device");
	done(e);
}

/* Each target is resolved again right before its write: a file swapped
 * for a link after the checks is not written through. */
static void test_link_swapped_mid_call(void **state)
{
	struct env *e = setup("rx580", "card0", false, GT_CONTROL_PRIV_YES);
	char err[512], outside[300];
	int idx;
	(void)state;

	snprintf(outside, sizeof(outside), "%s/outside", e->tmp);
	put(outside, "untouched\n");
	snprintf(e->swap[0], PATH_MAX, "%s",
	         devfile(e, "pp_power_profile_mode"));
	snprintf(e->swap[1], PATH_MAX, "%s", outside);
	assert_int_equal(gt_control_amdgpu_power_profile(e->c, e->dev, 5, &idx,
	                                                 err, sizeof(err)),
	                 GT_CONTROL_FAILED);
	assert_true(strstr(err, "pp_power_profile_mode resolves outside the "
	                        "device directory"));
	assert_string_equal(e->writes,
	                    "power_dpm_force_performance_level=manual\n");
	assert_string_equal(slurp(outside), "untouched\n");
	assert_true(strstr(slurp(e->audit), " pp_power_profile_mode old=\"1\" "
	                                    "new=\"5\" refused: "));
	done(e);
}

/* A state file naming a file no setter writes (or a value out of range)
 * is refused at restore: a journal cannot widen what gputop writes. */
static void test_restore_refuses_foreign_files(void **state)
{
	struct env *e = setup("rx580", "card0", false, GT_CONTROL_PRIV_YES);
	struct gt_restore_journal *j = calloc(1, sizeof(*j));
	struct gt_restore_action a;
	char err[256], rep[1024];
	(void)state;

	gt_control_free(e->c);
	assert_int_equal(gt_restore_init(j, e->root), 0);
	gt_restore_action_sysfs(&a, "amdgpu", "0000:09:00.0",
	                        devfile(e, "uevent"), "x", T0);
	assert_int_equal(gt_restore_note(j, &a, err, sizeof(err)), 0);
	gt_restore_action_sysfs(&a, "amdgpu", "0000:09:00.0",
	                        devfile(e, "hwmon/hwmon4/power1_cap"),
	                        "999000000", T0);
	assert_int_equal(gt_restore_note(j, &a, err, sizeof(err)), 0);
	assert_int_equal(gt_restore_save(j, e->state, err, sizeof(err)), 0);
	free(j);
	e->c = new_control(e, GT_CONTROL_PRIV_YES);
	assert_int_equal(gt_control_pending(e->c), 2);
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 2);
	assert_string_equal(e->writes, "");
	assert_true(tree_sum(e->root) == e->sum0);
	assert_string_not_equal(slurp(e->state), "(missing)"); /* kept */
	assert_true(
	    strstr(slurp(e->audit), "refused: not a file gputop writes"));
	assert_true(strstr(slurp(e->audit),
	                   "refused: power cap 999000000 µW is outside"));
	done(e);
}

/* gputop died: the next control finds the originals and restores them. */
static void test_crash_then_restore(void **state)
{
	struct env *e = setup("rx580", "card0", false, GT_CONTROL_PRIV_YES);
	char err[256], lvl[32], rep[1024];
	unsigned long uw;
	(void)state;

	assert_int_equal(gt_control_amdgpu_perf_level(e->c, e->dev, "high", lvl,
	                                              32, err, sizeof(err)),
	                 0);
	assert_int_equal(gt_control_amdgpu_power_cap(e->c, e->dev, 100000000,
	                                             &uw, err, sizeof(err)),
	                 0);
	gt_control_free(e->c); /* no restore: a SIGKILL */
	e->c = new_control(e, GT_CONTROL_PRIV_YES);
	assert_int_equal(gt_control_pending(e->c), 2);
	/* A new change keeps the first original, not gputop's leftover. */
	assert_int_equal(gt_control_amdgpu_perf_level(e->c, e->dev, "low", lvl,
	                                              32, err, sizeof(err)),
	                 0);
	assert_int_equal(gt_control_pending(e->c), 2);
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	assert_true(tree_sum(e->root) == e->sum0);
	assert_int_equal(gt_control_pending(e->c), 0);
	done(e);
}

static void test_unwritable_audit_or_state_refuses(void **state)
{
	struct env *e = setup("rx580", "card0", false, GT_CONTROL_PRIV_YES);
	char lvl[32];
	(void)state;

	snprintf(e->audit, sizeof(e->audit), "/proc/gputop-no/audit.log");
	gt_control_free(e->c);
	e->c = new_control(e, GT_CONTROL_PRIV_YES);
	REFUSED(
	    e, gt_control_amdgpu_perf_level(e->c, e->dev, "high", lvl, 32, ERR),
	    "cannot open the audit log /proc/gputop-no/audit.log");
	snprintf(e->audit, sizeof(e->audit), "%s/audit.log", e->tmp);
	snprintf(e->state, sizeof(e->state), "/proc/gputop-no/restore.state");
	gt_control_free(e->c);
	e->c = new_control(e, GT_CONTROL_PRIV_YES);
	REFUSED(
	    e, gt_control_amdgpu_perf_level(e->c, e->dev, "high", lvl, 32, ERR),
	    "cannot save the restore state");
	done(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_unprivileged_writes_nothing),
	    cmocka_unit_test(test_perf_level),
	    cmocka_unit_test(test_profile_manual_first_and_restore),
	    cmocka_unit_test(test_profile_layouts),
	    cmocka_unit_test(test_profile_nested_no_manual_needed),
	    cmocka_unit_test(test_power_cap),
	    cmocka_unit_test(test_pwm_from_manual),
	    cmocka_unit_test(test_pwm_auto_first),
	    cmocka_unit_test(test_pwm_from_auto),
	    cmocka_unit_test(test_pwm_refused_on_rdna),
	    cmocka_unit_test(test_fan_curve_rdna3),
	    cmocka_unit_test(test_fan_curve_plain_file),
	    cmocka_unit_test(test_fan_auto_rdna),
	    cmocka_unit_test(test_paths_outside_refused),
	    cmocka_unit_test(test_link_swapped_mid_call),
	    cmocka_unit_test(test_restore_refuses_foreign_files),
	    cmocka_unit_test(test_crash_then_restore),
	    cmocka_unit_test(test_unwritable_audit_or_state_refuses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

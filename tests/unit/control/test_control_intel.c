/* SPDX-License-Identifier: MIT */
/*
 * test_control_intel.c - tests of the Intel control writes
 * (src/control/control_intel.c) on writable copies of the synthetic i915 and xe
 * trees: the exact files and values written (the control's write hook
 * records each as "path under the card directory=value"), the journal
 * saved before the first write, the audit lines, refusals that write
 * nothing and leave the tree as it was (diff -r against a snapshot taken
 * at setup), paths that lead out of the device, and the restore through
 * gt_control_restore_all and through the guardian's callback.
 *
 * Where a test asks for it the hook behaves as i915 does: a minimum
 * above the maximum in force (or a maximum below the minimum) is refused
 * with EINVAL, so a write order that crosses the limits fails the test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control/control.h"
#include "control/control_intel.h"
#include "control/control_vendors.h"

#define T0    1767225600 /* 2026-01-01T00:00:00Z */
#define STAMP "2026-01-01T00:00:00Z"
#define HDR                                                                    \
	"# gputop restore state: the original values of the settings gputop "  \
	"changed.\n# Written before each first change; `gputop --restore` "    \
	"puts them back.\ngputop-restore 2\n"

struct env {
	char tmp[64], root[128], card[192], dev[256], state[128], audit[128];
	char writes[4096];  /* "path under card=value\n" per write */
	bool i915;          /* refuse crossing limits as i915 does */
	int saved;          /* journal_saved calls */
	bool unwritten;     /* nothing was written when the journal was saved */
	const char *refuse; /* a write to a path containing this fails */
	int refuse_rc;      /* with this -errno, as the driver would */
	struct gt_control *c;
};

/* The file's bytes (static, two at a time), "(missing)" if none. */
static const char *text(const char *path)
{
	static char buf[2][8192];
	static int k;
	char *b = buf[k++ % 2];
	FILE *f = fopen(path, "rb");

	if (!f)
		return "(missing)";
	b[fread(b, 1, sizeof(buf[0]) - 1, f)] = '\0';
	fclose(f);
	return b;
}

static void put(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(s, f);
	fclose(f);
}

static long number(const char *path)
{
	return strtol(text(path), NULL, 10);
}

/* The other limit of a min or max file: the same name with the other
 * word. */
static bool other_limit(const char *path, char *out, size_t len)
{
	const char *base = strrchr(path, '/') + 1;
	const char *w =
	    strstr(base, "min") ? strstr(base, "min") : strstr(base, "max");

	if (!w || !strstr(base, "freq"))
		return false;
	snprintf(out, len, "%.*s%s%s", (int)(w - path), path,
	         w[1] == 'i' ? "max" : "min", w + 3);
	return true;
}

static int kernel_write(void *ctx, const char *path, const char *value)
{
	struct env *e = ctx;
	size_t n = strlen(e->writes);
	char other[PATH_MAX];
	long v = strtol(value, NULL, 10);

	assert_true(strncmp(path, e->card, strlen(e->card)) == 0);
	snprintf(e->writes + n, sizeof(e->writes) - n, "%s=%s\n",
	         path + strlen(e->card) + 1, value);
	if (e->refuse && strstr(path, e->refuse))
		return e->refuse_rc;
	if (e->i915 && other_limit(path, other, sizeof(other)) &&
	    (strstr(strrchr(path, '/'), "min") ? v > number(other)
	                                       : v < number(other)))
		return -EINVAL;
	return gt_control_write_file(path, value);
}

static int on_saved(void *ctx, const struct gt_restore_journal *j, char *err,
                    size_t len)
{
	struct env *e = ctx;

	(void)j, (void)err, (void)len;
	e->saved++;
	e->unwritten = e->writes[0] == '\0';
	return 0;
}

static struct gt_control *control(struct env *e, enum gt_control_priv priv)
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
	    .journal_saved = on_saved,
	    .journal_ctx = e,
	};
	char err[512] = "";
	struct gt_control *c = gt_control_new(&cfg, err, sizeof(err));

	if (!c)
		fail_msg("gt_control_new: %s", err);
	return c;
}

static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (system(cmd) != 0)
		fail_msg("failed: %s", cmd);
}

/* The tree as the test leaves it is the one at setup (or at the last
 * snapshot()). */
static void snapshot(struct env *e)
{
	sh("rm -rf '%s/before' && cp -R '%s' '%s/before'", e->tmp, e->root,
	   e->tmp);
}

static bool unchanged(const struct env *e)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "diff -r '%s/before' '%s' >/dev/null",
	         e->tmp, e->root);
	return system(cmd) == 0;
}

static struct env *setup(const char *tree, const char *cardn,
                         enum gt_control_priv priv)
{
	const char *fx = getenv("GPUTOP_FIXTURES");
	struct env *e = calloc(1, sizeof(*e));

	assert_non_null(e);
	snprintf(e->tmp, sizeof(e->tmp), "/tmp/gt-ictl-XXXXXX");
	assert_non_null(mkdtemp(e->tmp));
	snprintf(e->root, sizeof(e->root), "%s/sys", e->tmp);
	sh("cp -R '%s/intel/%s' '%s' && chmod -R u+w '%s'",
	   fx ? fx : "tests/fixtures", tree, e->root, e->root);
	snprintf(e->card, sizeof(e->card), "%s/class/drm/%s", e->root, cardn);
	snprintf(e->dev, sizeof(e->dev), "%s/device", e->card);
	snprintf(e->state, sizeof(e->state), "%s/state/restore.state", e->tmp);
	snprintf(e->audit, sizeof(e->audit), "%s/audit.log", e->tmp);
	snapshot(e);
	e->c = control(e, priv);
	return e;
}

static void done(struct env *e)
{
	gt_control_free(e->c);
	sh("rm -rf '%s'", e->tmp);
	free(e);
}

/* A file under the card directory. */
static const char *in_card(const struct env *e, const char *rel)
{
	static char buf[4][PATH_MAX];
	static int k;
	char *b = buf[k++ % 4];

	snprintf(b, PATH_MAX, "%s/%s", e->card, rel);
	return b;
}

/* A refusal: REFUSED, err contains want, nothing written or saved. */
#define REFUSED(e, call, want)                                                 \
	do {                                                                   \
		char err_[512] = "";                                           \
		size_t w_ = strlen((e)->writes);                               \
		int s_ = (e)->saved;                                           \
		assert_int_equal((call), GT_CONTROL_REFUSED);                  \
		if (!strstr(err_, (want)))                                     \
			fail_msg("err \"%s\" lacks \"%s\"", err_, (want));     \
		assert_int_equal(strlen((e)->writes), w_);                     \
		assert_int_equal((e)->saved, s_);                              \
		assert_true(unchanged(e));                                     \
	} while (0)
#define ERR err_, sizeof(err_)

#define PL1_DG2 "device/hwmon/hwmon2/power1_max"
#define MIN_DG2 "gt/gt0/rps_min_freq_mhz"
#define MAX_DG2 "gt/gt0/rps_max_freq_mhz"

/* ------------------------------------------------------------------ */

static void test_unprivileged_refused(void **state)
{
	struct env *e = setup("i915-dg2", "card0", GT_CONTROL_PRIV_NO);
	unsigned long uw;
	unsigned lo, hi;
	char rep[256];
	(void)state;

	REFUSED(e,
	        gt_control_intel_power_limit(e->c, e->dev, 150000000, &uw, ERR),
	        "setting the power limit needs root: run gputop with sudo");
	REFUSED(e,
	        gt_control_intel_freq_limits(e->c, e->dev, 1000, 2000, &lo, &hi,
	                                     ERR),
	        "setting frequency limits needs root");
	/* Refused before anything else: even a device that is not one. */
	REFUSED(e, gt_control_intel_power_limit(e->c, "/nowhere", 1, &uw, ERR),
	        "needs root");
	assert_true(uw == GT_CONTROL_UNREAD);
	assert_int_equal(lo, GT_CONTROL_UNREAD);
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), -1);
	assert_string_equal(text(e->state), "(missing)");
	assert_string_equal(text(e->audit), "(missing)");
	done(e);
}

static void test_power_limit(void **state)
{
	struct env *e = setup("i915-dg2", "card0", GT_CONTROL_PRIV_YES);
	char err[256] = "x", want[1024], rep[512];
	unsigned long uw = 0;
	(void)state;

	assert_int_equal(gt_control_intel_power_limit(e->c, e->dev, 150000000,
	                                              &uw, err, sizeof(err)),
	                 GT_CONTROL_OK);
	assert_string_equal(err, "");
	assert_true(uw == 150000000);
	assert_string_equal(e->writes, PL1_DG2 "=150000000\n");
	assert_string_equal(text(in_card(e, PL1_DG2)), "150000000\n");
	assert_int_equal(e->saved, 1);
	assert_true(e->unwritten); /* journal saved before the write */
	snprintf(want, sizeof(want),
	         HDR "sysfs vendor=intel dev=0000:03:00.0 time=%d path=%s "
	             "value=190000000\n"
	             "end 1\n",
	         T0, in_card(e, PL1_DG2));
	assert_string_equal(text(e->state), want);
	assert_string_equal(text(e->audit),
	                    STAMP " write 0000:03:00.0 power1_max "
	                          "old=\"190000000\" new=\"150000000\" ok\n");
	/* In force already: nothing written, nothing journaled. */
	assert_int_equal(gt_control_intel_power_limit(e->c, e->dev, 150000000,
	                                              &uw, err, sizeof(err)),
	                 GT_CONTROL_OK);
	assert_string_equal(e->writes, PL1_DG2 "=150000000\n");
	/* The TDP itself is the top of the range. */
	assert_int_equal(gt_control_intel_power_limit(e->c, e->dev, 225000000,
	                                              &uw, err, sizeof(err)),
	                 GT_CONTROL_OK);
	assert_true(uw == 225000000);
	assert_int_equal(gt_control_pending(e->c), 1); /* first original */
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	assert_string_equal(text(in_card(e, PL1_DG2)), "190000000\n");
	assert_true(strstr(rep, "power1_max <- 190000000: ok"));
	assert_true(strstr(text(e->audit),
	                   "\n" STAMP " restore 0000:03:00.0 power1_max "
	                   "old=\"225000000\" new=\"190000000\" ok\n"));
	assert_string_equal(text(e->state), "(missing)");
	assert_true(unchanged(e));
	done(e);

	/* xe: the hwmon labelled card channel. */
	e = setup("xe-bmg", "card1", GT_CONTROL_PRIV_YES);
	assert_int_equal(gt_control_intel_power_limit(e->c, e->dev, 120000000,
	                                              &uw, err, sizeof(err)),
	                 GT_CONTROL_OK);
	assert_string_equal(e->writes,
	                    "device/hwmon/hwmon3/power1_max=120000000\n");
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	assert_true(unchanged(e));
	done(e);
}

static void test_power_limit_refusals(void **state)
{
	struct env *e = setup("i915-dg2", "card0", GT_CONTROL_PRIV_YES);
	unsigned long uw;
	(void)state;

	REFUSED(e,
	        gt_control_intel_power_limit(e->c, e->dev, 225000001, &uw, ERR),
	        "power limit 225000001 µW is outside this device's range "
	        "1000000-225000000 µW (1 W up to its TDP, power1_rated_max)");
	REFUSED(e, gt_control_intel_power_limit(e->c, e->dev, 999999, &uw, ERR),
	        "is outside this device's range");
	REFUSED(e, gt_control_intel_power_limit(e->c, e->dev, 0, &uw, ERR),
	        "power limit 0 µW is outside");
	assert_true(uw == GT_CONTROL_UNREAD);
	/* A limit in force above the TDP could not be restored. */
	put(in_card(e, PL1_DG2), "300000000\n");
	snapshot(e);
	REFUSED(e,
	        gt_control_intel_power_limit(e->c, e->dev, 150000000, &uw, ERR),
	        "power1_max is 300000000 now, which a restore could not put "
	        "back (power limit 300000000 µW is outside");
	assert_int_equal(unlink(in_card(e, "device/hwmon/hwmon2/"
	                                   "power1_rated_max")),
	                 0);
	snapshot(e);
	REFUSED(e,
	        gt_control_intel_power_limit(e->c, e->dev, 150000000, &uw, ERR),
	        "this device gives no power1_rated_max (its TDP)");
	assert_string_equal(text(e->state), "(missing)");
	done(e);

	e = setup("i915-tgl", "card0", GT_CONTROL_PRIV_YES);
	REFUSED(e,
	        gt_control_intel_power_limit(e->c, e->dev, 15000000, &uw, ERR),
	        "this device has no hwmon PL1 (power1_max)");
	done(e);
}

/* Lowering both: min first. Raising the minimum above the maximum in
 * force: max first. The kernel emulation refuses any crossing. */
/* A write the driver refuses changed nothing: its original leaves the
 * journal (no state file, nothing to restore, one audit line); of the two
 * frequency writes, the one that worked keeps its original. */
static void test_refused_write_withdrawn(void **state)
{
	struct env *e = setup("i915-dg2", "card0", GT_CONTROL_PRIV_YES);
	char err[256] = "", want[1024], rep[512];
	unsigned long uw = 0;
	unsigned lo = 0, hi = 0;
	(void)state;

	e->refuse = "power1_max";
	e->refuse_rc = -EACCES;
	assert_int_equal(gt_control_intel_power_limit(e->c, e->dev, 150000000,
	                                              &uw, err, sizeof(err)),
	                 GT_CONTROL_FAILED);
	assert_true(strstr(err, "Permission denied"));
	assert_int_equal(gt_control_pending(e->c), 0);
	assert_string_equal(text(e->state), "(missing)");
	assert_string_equal(text(e->audit),
	                    STAMP " write 0000:03:00.0 power1_max "
	                          "old=\"190000000\" new=\"150000000\" "
	                          "failed: Permission denied\n");
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	assert_null(strstr(text(e->audit), "restore"));

	/* The minimum is written, the maximum refused: only the minimum's
	 * original stays, and the restore puts back only it. */
	e->refuse = "rps_max_freq_mhz";
	e->refuse_rc = -EINVAL;
	e->writes[0] = '\0';
	assert_int_equal(gt_control_intel_freq_limits(e->c, e->dev, 1000, 2000,
	                                              &lo, &hi, err,
	                                              sizeof(err)),
	                 GT_CONTROL_FAILED);
	assert_string_equal(e->writes, MIN_DG2 "=1000\n" MAX_DG2 "=2000\n");
	assert_int_equal(gt_control_pending(e->c), 1);
	snprintf(want, sizeof(want),
	         HDR "sysfs vendor=intel dev=0000:03:00.0 time=%d path=%s "
	             "value=300\nend 1\n",
	         T0, in_card(e, MIN_DG2));
	assert_string_equal(text(e->state), want);
	e->refuse = NULL;
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	assert_string_equal(text(e->state), "(missing)");
	assert_true(unchanged(e));
	done(e);
}

static void test_freq_write_order(void **state)
{
	struct env *e = setup("i915-dg2", "card0", GT_CONTROL_PRIV_YES);
	char err[256] = "x", rep[1024];
	unsigned lo = 0, hi = 0;
	(void)state;

	e->i915 = true;
	assert_int_equal(gt_control_intel_freq_limits(e->c, e->dev, 1000, 2000,
	                                              &lo, &hi, err,
	                                              sizeof(err)),
	                 GT_CONTROL_OK);
	assert_string_equal(err, "");
	assert_int_equal(lo, 1000);
	assert_int_equal(hi, 2000);
	assert_string_equal(e->writes, MIN_DG2 "=1000\n" MAX_DG2 "=2000\n");
	assert_true(e->unwritten);
	assert_string_equal(
	    text(e->audit),
	    STAMP " write 0000:03:00.0 gt/gt0/rps_min_freq_mhz old=\"300\" "
	          "new=\"1000\" ok\n" STAMP
	          " write 0000:03:00.0 gt/gt0/rps_max_freq_mhz old=\"2400\" "
	          "new=\"2000\" ok\n");
	e->writes[0] = '\0';
	assert_int_equal(gt_control_intel_freq_limits(e->c, e->dev, 2200, 2400,
	                                              &lo, &hi, err,
	                                              sizeof(err)),
	                 GT_CONTROL_OK);
	assert_string_equal(e->writes, MAX_DG2 "=2400\n" MIN_DG2 "=2200\n");
	assert_int_equal(lo, 2200);
	assert_int_equal(hi, 2400);
	/* Only the max changes: one write. */
	e->writes[0] = '\0';
	assert_int_equal(gt_control_intel_freq_limits(e->c, e->dev, 2200, 2300,
	                                              &lo, &hi, err,
	                                              sizeof(err)),
	                 GT_CONTROL_OK);
	assert_string_equal(e->writes, MAX_DG2 "=2300\n");
	assert_int_equal(gt_control_pending(e->c), 2);
	e->writes[0] = '\0';
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	assert_string_equal(e->writes, MAX_DG2 "=2400\n" MIN_DG2 "=300\n");
	assert_true(unchanged(e));
	done(e);
}

/* The journal holds (min, max) in the order of the first change; a later
 * change left the minimum above the original maximum, so restoring the
 * maximum first would cross: the minimum's original goes back first. */
static void test_freq_restore_uncrosses(void **state)
{
	struct env *e = setup("i915-dg2", "card0", GT_CONTROL_PRIV_YES);
	char err[256], rep[1024];
	unsigned lo, hi;
	(void)state;

	put(in_card(e, MIN_DG2), "500\n");
	put(in_card(e, MAX_DG2), "1000\n");
	snapshot(e);
	e->i915 = true;
	assert_int_equal(gt_control_intel_freq_limits(e->c, e->dev, 400, 800,
	                                              &lo, &hi, err,
	                                              sizeof(err)),
	                 GT_CONTROL_OK);
	assert_int_equal(gt_control_intel_freq_limits(e->c, e->dev, 1500, 2000,
	                                              &lo, &hi, err,
	                                              sizeof(err)),
	                 GT_CONTROL_OK);
	assert_string_equal(e->writes, MIN_DG2 "=400\n" MAX_DG2 "=800\n" MAX_DG2
	                                       "=2000\n" MIN_DG2 "=1500\n");
	e->writes[0] = '\0';
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	assert_string_equal(e->writes, MIN_DG2 "=500\n" MAX_DG2
	                                       "=1000\n" MIN_DG2 "=500\n");
	assert_true(unchanged(e));
	done(e);
}

static void test_freq_refusals(void **state)
{
	struct env *e = setup("i915-dg2", "card0", GT_CONTROL_PRIV_YES);
	unsigned lo, hi;
	char err[256], rep[64];
	(void)state;

	REFUSED(e,
	        gt_control_intel_freq_limits(e->c, e->dev, 2000, 1000, &lo, &hi,
	                                     ERR),
	        "minimum 2000 MHz is above the maximum 1000 MHz");
	REFUSED(e,
	        gt_control_intel_freq_limits(e->c, e->dev, 200, 2000, &lo, &hi,
	                                     ERR),
	        "minimum frequency 200 MHz is outside this GT's range 300-2400 "
	        "MHz (RPn-RP0)");
	REFUSED(e,
	        gt_control_intel_freq_limits(e->c, e->dev, 300, 2401, &lo, &hi,
	                                     ERR),
	        "maximum frequency 2401 MHz is outside");
	assert_int_equal(lo, GT_CONTROL_UNREAD);
	/* The limits in force: nothing to do, nothing journaled. */
	assert_int_equal(gt_control_intel_freq_limits(e->c, e->dev, 300, 2400,
	                                              &lo, &hi, err,
	                                              sizeof(err)),
	                 GT_CONTROL_OK);
	assert_int_equal(lo, 300);
	assert_int_equal(hi, 2400);
	assert_string_equal(e->writes, "");
	assert_int_equal(e->saved, 0);
	assert_string_equal(text(e->state), "(missing)");
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	/* No RP0: the range is unknown. */
	assert_int_equal(unlink(in_card(e, "gt/gt0/rps_RP0_freq_mhz")), 0);
	snapshot(e);
	REFUSED(e,
	        gt_control_intel_freq_limits(e->c, e->dev, 300, 1000, &lo, &hi,
	                                     ERR),
	        "this GT gives no usable rps_RPn_freq_mhz and "
	        "rps_RP0_freq_mhz");
	done(e);
}

/* xe keeps the limits under the device (tile0/gt0/freq0); i915 before the
 * per-GT files in the card directory itself. */
static void test_freq_xe_and_legacy(void **state)
{
	struct env *e = setup("xe-bmg", "card1", GT_CONTROL_PRIV_YES);
	char err[256], rep[1024];
	unsigned lo, hi;
	(void)state;

	assert_int_equal(gt_control_intel_freq_limits(e->c, e->dev, 800, 2000,
	                                              &lo, &hi, err,
	                                              sizeof(err)),
	                 GT_CONTROL_OK);
	assert_string_equal(e->writes,
	                    "device/tile0/gt0/freq0/min_freq=800\n"
	                    "device/tile0/gt0/freq0/max_freq=2000\n");
	assert_int_equal(lo, 800);
	assert_int_equal(hi, 2000);
	assert_true(strstr(text(e->audit), " write 0000:03:00.0 "
	                                   "tile0/gt0/freq0/max_freq "
	                                   "old=\"2850\" new=\"2000\" ok\n"));
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	assert_true(unchanged(e));
	done(e);

	e = setup("i915-tgl", "card0", GT_CONTROL_PRIV_YES);
	e->i915 = true;
	assert_int_equal(gt_control_intel_freq_limits(e->c, e->dev, 500, 1200,
	                                              &lo, &hi, err,
	                                              sizeof(err)),
	                 GT_CONTROL_OK);
	assert_string_equal(e->writes, "gt_min_freq_mhz=500\n"
	                               "gt_max_freq_mhz=1200\n");
	snapshot(e);
	REFUSED(
	    e,
	    gt_control_intel_freq_limits(e->c, e->dev, 50, 1200, &lo, &hi, ERR),
	    "outside this GT's range 100-1450 MHz");
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	assert_string_equal(text(in_card(e, "gt_min_freq_mhz")), "350\n");
	assert_string_equal(text(in_card(e, "gt_max_freq_mhz")), "1450\n");
	done(e);
}

static void test_paths_outside_refused(void **state)
{
	struct env *e = setup("i915-dg2", "card0", GT_CONTROL_PRIV_YES);
	char outside[256], evil[512];
	unsigned long uw;
	unsigned lo, hi;
	(void)state;

	snprintf(outside, sizeof(outside), "%s/outside", e->tmp);
	put(outside, "190000000\n");
	assert_int_equal(unlink(in_card(e, PL1_DG2)), 0);
	assert_int_equal(symlink(outside, in_card(e, PL1_DG2)), 0);
	assert_int_equal(unlink(in_card(e, MIN_DG2)), 0);
	assert_int_equal(symlink(outside, in_card(e, MIN_DG2)), 0);
	snapshot(e);
	REFUSED(e,
	        gt_control_intel_power_limit(e->c, e->dev, 150000000, &uw, ERR),
	        "power1_max resolves outside the device directory");
	REFUSED(e,
	        gt_control_intel_freq_limits(e->c, e->dev, 1000, 2000, &lo, &hi,
	                                     ERR),
	        "rps_min_freq_mhz resolves outside the device directory");
	assert_string_equal(text(outside), "190000000\n");

	/* A device directory that leads out of the sysfs root. */
	sh("cp -R '%s' '%s/elsewhere'", e->card, e->tmp);
	snprintf(evil, sizeof(evil), "%s/evil", e->root);
	snprintf(outside, sizeof(outside), "%s/elsewhere/device", e->tmp);
	assert_int_equal(symlink(outside, evil), 0);
	snapshot(e);
	REFUSED(e,
	        gt_control_intel_power_limit(e->c, evil, 150000000, &uw, ERR),
	        "resolves outside");
	snprintf(evil, sizeof(evil), "%s/../sys/class/drm/card0/device",
	         e->root);
	REFUSED(e,
	        gt_control_intel_power_limit(e->c, evil, 150000000, &uw, ERR),
	        "is not a device directory under");
	snprintf(evil, sizeof(evil), "%s/class/drm", e->root);
	REFUSED(
	    e,
	    gt_control_intel_freq_limits(e->c, evil, 300, 1000, &lo, &hi, ERR),
	    "is not an Intel device");
	done(e);
}

/* gputop died: a new control loads the state file, and the guardian's
 * callback (gt_control_restore_ops) puts every original back. */
static void test_crash_then_guardian_restore(void **state)
{
	struct env *e = setup("i915-dg2", "card0", GT_CONTROL_PRIV_YES);
	char err[256], rep[1024];
	struct gt_restore_ops ops;
	unsigned long uw;
	unsigned lo, hi;
	(void)state;

	assert_int_equal(gt_control_intel_power_limit(e->c, e->dev, 100000000,
	                                              &uw, err, sizeof(err)),
	                 GT_CONTROL_OK);
	assert_int_equal(gt_control_intel_freq_limits(e->c, e->dev, 600, 1800,
	                                              &lo, &hi, err,
	                                              sizeof(err)),
	                 GT_CONTROL_OK);
	gt_control_free(e->c); /* no restore: a SIGKILL */
	e->c = control(e, GT_CONTROL_PRIV_YES);
	assert_int_equal(gt_control_pending(e->c), 3);
	e->writes[0] = '\0';
	gt_control_restore_ops(e->c, &ops);
	assert_int_equal(
	    gt_restore_apply(gt_control_journal(e->c), &ops, rep, sizeof(rep)),
	    0);
	assert_string_equal(e->writes, MAX_DG2 "=2400\n" MIN_DG2
	                                       "=300\n" PL1_DG2 "=190000000\n");
	assert_true(unchanged(e));
	done(e);
}

/* A state file (save, then a new control loads it) with the originals
 * rel=value, restored; returns the number of failures. */
static int restore_state(struct env *e, const char *const *rel,
                         const char *const *value, size_t n, char *rep,
                         size_t len)
{
	struct gt_restore_journal *j = calloc(1, sizeof(*j));
	struct gt_restore_action act;
	char err[256];

	assert_non_null(j);
	gt_control_free(e->c);
	assert_int_equal(gt_restore_init(j, e->root), 0);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(
		    gt_restore_action_sysfs(&act, "intel", "0000:03:00.0",
		                            in_card(e, rel[i]), value[i], T0),
		    0);
		assert_int_equal(gt_restore_note(j, &act, err, sizeof(err)), 0);
	}
	assert_int_equal(gt_restore_save(j, e->state, err, sizeof(err)), 0);
	free(j);
	e->c = control(e, GT_CONTROL_PRIV_YES);
	return gt_control_restore_all(e->c, rep, len);
}

/* A state file naming a file no Intel setter writes (or not where it
 * writes it), or a value out of range, is refused at restore. PL1 off (0)
 * is put back: it can only be an original. */
static void test_restore_refuses_foreign(void **state)
{
	static const char *const rel[] = {
	    "device/hwmon/hwmon3/power1_max", /* the per-GT i915_gt0 */
	    "power1_max",                     /* not in a hwmon */
	    PL1_DG2,
	    MIN_DG2,
	    "gt_min_freq_mhz", /* not the layout this card uses */
	};
	static const char *const value[] = {"100000000", "100000000",
	                                    "999000000", "100", "400"};
	static const char *const off[] = {PL1_DG2}, *const zero[] = {"0"};
	struct env *e = setup("i915-dg2", "card0", GT_CONTROL_PRIV_YES);
	char rep[2048];
	int n = 0;
	(void)state;

	put(in_card(e, "power1_max"), "5\n");
	put(in_card(e, "device/hwmon/hwmon3/power1_max"), "5\n");
	snapshot(e);
	assert_int_equal(restore_state(e, rel, value, 5, rep, sizeof(rep)), 5);
	assert_string_equal(e->writes, "");
	assert_true(unchanged(e));
	for (const char *p = text(e->audit); (p = strstr(p, "not a file")); p++)
		n++;
	assert_int_equal(n, 3);
	assert_true(strstr(text(e->audit), "power1_max old=\"\" "
	                                   "new=\"999000000\" refused: power "
	                                   "limit 999000000 µW is outside"));
	assert_true(strstr(text(e->audit), "refused: minimum frequency 100 MHz "
	                                   "is outside"));
	assert_string_not_equal(text(e->state), "(missing)"); /* kept */
	sh("rm '%s'", e->state);
	assert_int_equal(restore_state(e, off, zero, 1, rep, sizeof(rep)), 0);
	assert_string_equal(e->writes, PL1_DG2 "=0\n");
	assert_string_equal(text(in_card(e, PL1_DG2)), "0\n");
	done(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_unprivileged_refused),
	    cmocka_unit_test(test_power_limit),
	    cmocka_unit_test(test_power_limit_refusals),
	    cmocka_unit_test(test_refused_write_withdrawn),
	    cmocka_unit_test(test_freq_write_order),
	    cmocka_unit_test(test_freq_restore_uncrosses),
	    cmocka_unit_test(test_freq_refusals),
	    cmocka_unit_test(test_freq_xe_and_legacy),
	    cmocka_unit_test(test_paths_outside_refused),
	    cmocka_unit_test(test_crash_then_guardian_restore),
	    cmocka_unit_test(test_restore_refuses_foreign),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

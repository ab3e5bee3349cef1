/* SPDX-License-Identifier: MIT */
/*
 * test_control.c - tests of the control object (src/control/control.c)
 * with vendors of the test's own (struct gt_control_ops): each journaled
 * action is restored by the ops of the vendor it records, whatever its
 * path looks like; a version-1 state file (no vendors) still loads and
 * restores, its sysfs records claimed by the first vendor whose owns_file
 * takes them, and is written back as version 2; a record no vendor takes,
 * or one naming a vendor this gputop lacks, is refused and audited; a
 * restore with no audit log to write is refused whole; the vendor
 * lookup; and the guardian's callback is the same restore.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <limits.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "control/control.h"
#include "control/control_priv.h"
#include "control/control_vendor.h"

#define T0    1767225600 /* 2026-01-01T00:00:00Z */
#define STAMP "2026-01-01T00:00:00Z"
#define DEV   "0000:03:00.0"
#define NV    "00000000:01:00.0"

/* What the fake vendors' restores were asked, in order. File scope: a
 * vendor's restore gets the control and the action, no context of the
 * test's. */
static char calls[2048];
static int fail_restore; /* the next restore of "beta" fails with it */

static void record(const char *vendor, const struct gt_restore_action *a)
{
	size_t n = strlen(calls);

	snprintf(calls + n, sizeof(calls) - n, "%s %s %s %s\n", vendor,
	         gt_restore_kind_name(a->kind), a->path[0] ? a->path : a->dev,
	         a->value);
}

static int alpha_restore(struct gt_control *c,
                         const struct gt_restore_action *a)
{
	(void)c;
	record("alpha", a);
	return 0;
}

static int beta_restore(struct gt_control *c, const struct gt_restore_action *a)
{
	int rc = fail_restore;

	(void)c;
	record("beta", a);
	fail_restore = 0;
	return rc;
}

static int nvml_restore(struct gt_control *c, const struct gt_restore_action *a)
{
	(void)c;
	record("nvml", a);
	return 0;
}

static const char *base(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

/* Alpha writes files named a_*, beta b_*. */
static bool alpha_owns(const char *path)
{
	return strncmp(base(path), "a_", 2) == 0;
}

static bool beta_owns(const char *path)
{
	return strncmp(base(path), "b_", 2) == 0;
}

static const struct gt_control_ops nvml_ops = {
    .name = "nvml",
    .vendor = GT_VENDOR_NVIDIA,
    .restore = nvml_restore,
};
static const struct gt_control_ops alpha_ops = {
    .name = "alpha",
    .vendor = GT_VENDOR_AMD,
    .sysfs = true,
    .restore = alpha_restore,
    .owns_file = alpha_owns,
};
static const struct gt_control_ops beta_ops = {
    .name = "beta",
    .vendor = GT_VENDOR_INTEL,
    .sysfs = true,
    .restore = beta_restore,
    .owns_file = beta_owns,
};
static const struct gt_control_ops *const vendors[] = {&nvml_ops, &alpha_ops,
                                                       &beta_ops, NULL};

struct env {
	char tmp[64], root[128], state[128], audit[128];
	struct gt_control *c;
};

static const char *slurp(const char *path)
{
	static char buf[2][4096];
	static int k;
	char *b = buf[k++ % 2];
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(b, 1, sizeof(buf[0]) - 1, f) : 0;

	if (f)
		fclose(f);
	b[f ? n : 0] = '\0';
	return f ? b : "(missing)";
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, 0600), 0);
}

static struct gt_control *control(struct env *e,
                                  const struct gt_control_ops *const *v)
{
	struct gt_control_config cfg = {
	    .vendors = v,
	    .sysfs_root = e->root,
	    .state_path = e->state,
	    .audit_path = e->audit,
	    .privileged = GT_CONTROL_PRIV_YES,
	    .fixed_time = T0,
	};
	char err[512] = "";
	struct gt_control *c = gt_control_new(&cfg, err, sizeof(err));

	if (!c)
		fail_msg("gt_control_new: %s", err);
	return c;
}

/* A state file of text (each '@' the sysfs root), then a control that
 * loads it. */
static struct env *setup(const char *text)
{
	struct env *e = calloc(1, sizeof(*e));
	char body[4096];

	assert_non_null(e);
	snprintf(e->tmp, sizeof(e->tmp), "/tmp/gt-control-XXXXXX");
	assert_non_null(mkdtemp(e->tmp));
	snprintf(e->root, sizeof(e->root), "%s/sys", e->tmp);
	snprintf(e->state, sizeof(e->state), "%s/restore.state", e->tmp);
	snprintf(e->audit, sizeof(e->audit), "%s/audit.log", e->tmp);
	assert_int_equal(mkdir(e->root, 0700), 0);
	if (text) {
		size_t k = 0;
		for (const char *t = text;
		     *t && k + sizeof(e->root) < sizeof(body);)
			if (*t == '@') { /* the sysfs root */
				k += (size_t)snprintf(
				    body + k, sizeof(body) - k, "%s", e->root);
				t++;
			} else {
				body[k++] = *t++;
			}
		body[k] = '\0';
		put(e->state, body);
	}
	calls[0] = '\0';
	fail_restore = 0;
	e->c = control(e, vendors);
	return e;
}

static void done(struct env *e)
{
	char cmd[128];

	gt_control_free(e->c);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", e->tmp);
	assert_int_equal(system(cmd), 0);
	free(e);
}

/* A fan loop's writes: the first a line of its own, then one line per
 * period and one at the end with the count, min, max and last value; a
 * failed write still gets its own line, and so do writes outside a loop
 * and another loop's. */
static void test_loop_audit_summary(void **state)
{
	struct env *e = setup(NULL);
	static const char *const speeds[] = {"45", "50", "38", "62", "55"};
	(void)state;

	gt_control_audit_loop(e->c, 1);
	gt_control_audit(e->c, "write", DEV, "fan0-speed", "30", "40", "ok");
	for (size_t i = 0; i < 5; i++)
		gt_control_audit(e->c, "write", DEV, "fan0-speed", "x",
		                 speeds[i], "ok");
	gt_control_audit(e->c, "write", DEV, "fan0-speed", "55", "70",
	                 "failed: Input/output error");
	gt_control_audit_loop(e->c, 2);
	gt_control_audit(e->c, "write", DEV, "fan1-speed", "30", "35", "ok");
	gt_control_audit_loop(e->c, 0);
	gt_control_audit(e->c, "write", DEV, "power1_cap", "1", "2", "ok");
	gt_control_audit_loop_end(e->c, 1);
	gt_control_audit_loop_end(e->c, 2);
	assert_string_equal(
	    slurp(e->audit),
	    "2026-01-01T00:00:00Z write " DEV " fan0-speed old=\"30\" "
	    "new=\"40\" ok\n"
	    "2026-01-01T00:00:00Z write " DEV " fan0-speed old=\"55\" "
	    "new=\"70\" failed: Input/output error\n"
	    "2026-01-01T00:00:00Z write " DEV " fan1-speed old=\"30\" "
	    "new=\"35\" ok\n"
	    "2026-01-01T00:00:00Z write " DEV " power1_cap old=\"1\" "
	    "new=\"2\" ok\n"
	    "2026-01-01T00:00:00Z fan-loop " DEV " fan0-speed ended: 5 "
	    "writes in 0s, min 38 max 62 last \"55\", 1 failed\n"
	    "2026-01-01T00:00:00Z fan-loop " DEV " fan1-speed ended\n");
	done(e);
}

/* The period: with the real clock and a 1 s period, a write a second
 * after the run began writes the "running" line at once. The run starts
 * just after a second turns, so that its first two writes share that
 * second and the third, 1.1 s later, falls in the next (the log counts
 * whole seconds). */
static void test_loop_audit_period(void **state)
{
	struct env *e = setup(NULL);
	struct gt_control_config cfg = {
	    .vendors = vendors,
	    .sysfs_root = e->root,
	    .state_path = e->state,
	    .audit_path = e->audit,
	    .privileged = GT_CONTROL_PRIV_YES,
	    .audit_loop_period_s = 1,
	};
	char err[256];
	struct gt_control *c = gt_control_new(&cfg, err, sizeof(err));
	struct timespec pause = {1, 100000000L};
	(void)state;

	assert_non_null(c);
	for (time_t t0 = time(NULL); time(NULL) == t0;)
		nanosleep(&(struct timespec){0, 1000000L}, NULL);
	gt_control_audit_loop(c, 1);
	gt_control_audit(c, "write", DEV, "pwm1", "100", "120", "ok");
	gt_control_audit(c, "write", DEV, "pwm1", "120", "130", "ok");
	nanosleep(&pause, NULL);
	gt_control_audit(c, "write", DEV, "pwm1", "130", "125", "ok");
	const char *log = slurp(e->audit);
	assert_non_null(strstr(log, " fan-loop " DEV " pwm1 running: 2 writes "
	                            "in 1s, min 125 max 130 last \"125\"\n"));
	gt_control_audit_loop_end(c, 1);
	assert_non_null(strstr(slurp(e->audit), " pwm1 ended\n"));
	gt_control_free(c);
	done(e);
}

/* The size cap: a full log moves to audit.log.1 and a new one starts. */
static void test_audit_rotates(void **state)
{
	struct env *e = setup(NULL);
	char old[160];
	FILE *f = fopen(e->audit, "w");
	(void)state;

	assert_non_null(f);
	assert_int_equal(ftruncate(fileno(f), GT_CONTROL_AUDIT_MAX), 0);
	fclose(f);
	gt_control_audit(e->c, "write", DEV, "power1_cap", "1", "2", "ok");
	snprintf(old, sizeof(old), "%s.1", e->audit);
	struct stat st;
	assert_int_equal(stat(old, &st), 0);
	assert_int_equal(st.st_size, GT_CONTROL_AUDIT_MAX);
	assert_string_equal(slurp(e->audit),
	                    "2026-01-01T00:00:00Z write " DEV
	                    " power1_cap old=\"1\" new=\"2\" ok\n");
	done(e);
}

static void test_vendor_lookup(void **state)
{
	struct env *e = setup(NULL);
	struct gt_control *none;
	(void)state;

	assert_ptr_equal(gt_control_vendor_ops(e->c, GT_VENDOR_NVIDIA),
	                 &nvml_ops);
	assert_ptr_equal(gt_control_vendor_ops(e->c, GT_VENDOR_AMD),
	                 &alpha_ops);
	assert_ptr_equal(gt_control_vendor_ops(e->c, GT_VENDOR_INTEL),
	                 &beta_ops);
	assert_null(gt_control_vendor_ops(e->c, GT_VENDOR_UNKNOWN));
	/* A control handed no vendors knows none. */
	none = control(e, NULL);
	assert_null(gt_control_vendor_ops(none, GT_VENDOR_AMD));
	gt_control_free(none);
	done(e);
}

/* Each action goes to the vendor it names, even where another vendor's
 * owns_file would claim the path: never by a path's shape. */
static void test_restored_by_own_vendor(void **state)
{
	struct env *e = setup("gputop-restore 2\n"
	                      "sysfs vendor=beta dev=" DEV " time=1 "
	                      "path=@/a_level value=auto\n"
	                      "sysfs vendor=alpha dev=" DEV " time=2 "
	                      "path=@/b_limit value=300\n"
	                      "nvml-power-limit vendor=nvml dev=" NV " time=3 "
	                      "mw=250000\n"
	                      "end 3\n");
	char rep[1024], want[1024];
	(void)state;

	assert_int_equal(gt_control_pending(e->c), 3);
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	snprintf(want, sizeof(want),
	         "nvml nvml-power-limit " NV " \n"
	         "alpha sysfs %s/b_limit 300\n"
	         "beta sysfs %s/a_level auto\n",
	         e->root, e->root);
	assert_string_equal(calls, want);
	assert_int_equal(gt_control_pending(e->c), 0);
	assert_string_equal(slurp(e->state), "(missing)");
	done(e);
}

/* A failed restore is counted and keeps the state file for a later
 * --restore; the others still run. */
static void test_failure_keeps_state(void **state)
{
	struct env *e = setup("gputop-restore 2\n"
	                      "sysfs vendor=alpha dev=" DEV " time=1 "
	                      "path=@/a_level value=auto\n"
	                      "sysfs vendor=beta dev=" DEV " time=2 "
	                      "path=@/b_limit value=300\n"
	                      "end 2\n");
	char rep[1024], want[1024];
	(void)state;

	fail_restore = -EIO;
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 1);
	snprintf(want, sizeof(want),
	         "sysfs %s/b_limit <- 300: FAILED: Input/output error\n"
	         "sysfs %s/a_level <- auto: ok\n",
	         e->root, e->root);
	assert_string_equal(rep, want);
	assert_int_equal(gt_control_pending(e->c), 2);
	assert_string_not_equal(slurp(e->state), "(missing)");
	done(e);
}

/* A restore is refused as a write is when the audit log cannot be opened
 * (a directory, or a symbolic link, which is never followed): nothing is
 * restored, the message names the log, and the journal and state file stay
 * for the next try, which succeeds once the log can be opened. */
static void test_restore_needs_audit_log(void **state)
{
	struct env *e = setup("gputop-restore 2\n"
	                      "sysfs vendor=alpha dev=" DEV " time=1 "
	                      "path=@/a_level value=auto\n"
	                      "end 1\n");
	char rep[1024], want[1024], state_text[4096], other[160];
	struct stat st;
	(void)state;

	snprintf(state_text, sizeof(state_text), "%s", slurp(e->state));
	assert_int_equal(mkdir(e->audit, 0700), 0);
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), -1);
	snprintf(want, sizeof(want),
	         "cannot open the audit log %s: Is a directory; nothing "
	         "restored",
	         e->audit);
	if (!strstr(rep, want))
		fail_msg("report: %s", rep);
	assert_string_equal(calls, "");
	assert_int_equal(gt_control_pending(e->c), 1);
	assert_string_equal(slurp(e->state), state_text);

	assert_int_equal(rmdir(e->audit), 0);
	snprintf(other, sizeof(other), "%s/elsewhere.log", e->tmp);
	assert_int_equal(symlink(other, e->audit), 0);
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), -1);
	snprintf(want, sizeof(want),
	         "cannot open the audit log %s: ", e->audit);
	if (!strstr(rep, want))
		fail_msg("report: %s", rep);
	assert_string_equal(calls, "");
	assert_int_equal(lstat(other, &st), -1); /* the link not followed */
	assert_string_equal(slurp(e->state), state_text);

	assert_int_equal(unlink(e->audit), 0);
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	snprintf(want, sizeof(want), "alpha sysfs %s/a_level auto\n", e->root);
	assert_string_equal(calls, want);
	assert_int_equal(stat(e->audit, &st), 0);
	assert_string_equal(slurp(e->state), "(missing)");
	done(e);
}

/* Version 1: the nvml-* records are NVIDIA's; a sysfs record goes to the
 * first vendor whose owns_file claims it; one nobody claims is refused as
 * a file gputop does not write, and audited. */
static void test_version1_restores(void **state)
{
	struct env *e = setup("gputop-restore 1\n"
	                      "sysfs dev=" DEV " time=1 path=@/a_level "
	                      "value=auto\n"
	                      "sysfs dev=" DEV " time=2 path=@/b_limit "
	                      "value=300\n"
	                      "sysfs dev=" DEV " time=3 path=@/zz value=7\n"
	                      "nvml-power-limit dev=" NV " time=4 mw=250000\n"
	                      "end 4\n");
	const struct gt_restore_journal *j = gt_control_journal(e->c);
	char rep[1024], want[1024];
	(void)state;

	/* Claimed when loaded, so that the journal can be saved again. */
	assert_int_equal(j->n, 4);
	assert_string_equal(j->a[0].vendor, "alpha");
	assert_string_equal(j->a[1].vendor, "beta");
	assert_string_equal(j->a[2].vendor, "");
	assert_string_equal(j->a[3].vendor, "nvml");
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 1);
	snprintf(want, sizeof(want),
	         "nvml nvml-power-limit " NV " \n"
	         "beta sysfs %s/b_limit 300\n"
	         "alpha sysfs %s/a_level auto\n",
	         e->root, e->root);
	assert_string_equal(calls, want);
	snprintf(want, sizeof(want),
	         "nvml-power-limit " NV " <- 250000 mW: ok\n"
	         "sysfs %s/zz <- 7: FAILED: Operation not permitted\n"
	         "sysfs %s/b_limit <- 300: ok\n"
	         "sysfs %s/a_level <- auto: ok\n",
	         e->root, e->root, e->root);
	assert_string_equal(rep, want);
	snprintf(want, sizeof(want),
	         STAMP " restore ? %s/zz old=\"\" new=\"7\" refused: not a "
	               "file gputop writes\n",
	         e->root);
	assert_string_equal(slurp(e->audit), want);
	done(e);
}

/* A loaded version-1 journal is written back as version 2, with the
 * vendors it was claimed by, when the next change is noted. */
static void test_version1_saved_as_version2(void **state)
{
	struct env *e = setup("gputop-restore 1\n"
	                      "sysfs dev=" DEV " time=1 path=@/b_limit "
	                      "value=300\n"
	                      "end 1\n");
	struct gt_restore_action a;
	char err[256] = "", path[256], want[2048];
	(void)state;

	snprintf(path, sizeof(path), "%s/a_level", e->root);
	assert_int_equal(
	    gt_restore_action_sysfs(&a, "alpha", DEV, path, "auto", T0), 0);
	assert_int_equal(gt_control_prepare(e->c, &a, 1, err, sizeof(err)), 0);
	snprintf(want, sizeof(want),
	         "gputop-restore 2\n"
	         "sysfs vendor=beta dev=" DEV " time=1 path=%s/b_limit "
	         "value=300\n"
	         "sysfs vendor=alpha dev=" DEV " time=%d path=%s "
	         "value=auto\n"
	         "end 2\n",
	         e->root, T0, path);
	if (!strstr(slurp(e->state), want))
		fail_msg("state file:\n%s", slurp(e->state));
	done(e);
}

/* A record nobody claims cannot be written back: the next change is
 * refused before anything is written, and the file stays as it was. */
static void test_unclaimed_blocks_save(void **state)
{
	struct env *e = setup("gputop-restore 1\n"
	                      "sysfs dev=" DEV " time=1 path=@/zz value=7\n"
	                      "end 1\n");
	struct gt_restore_action a;
	char err[256] = "", path[256], before[4096];
	(void)state;

	snprintf(before, sizeof(before), "%s", slurp(e->state));
	snprintf(path, sizeof(path), "%s/a_level", e->root);
	assert_int_equal(
	    gt_restore_action_sysfs(&a, "alpha", DEV, path, "auto", T0), 0);
	assert_int_equal(gt_control_prepare(e->c, &a, 1, err, sizeof(err)), -1);
	assert_string_equal(err, "cannot save the restore state: action 1: no "
	                         "vendor (a version-1 record that no vendor "
	                         "claims); nothing written");
	assert_int_equal(gt_control_pending(e->c), 1);
	assert_string_equal(slurp(e->state), before);
	done(e);
}

/* A vendor this gputop does not have is refused, audited with its
 * device; and a control handed no vendors restores nothing. */
static void test_unknown_vendor_refused(void **state)
{
	struct env *e = setup("gputop-restore 2\n"
	                      "sysfs vendor=gamma dev=" DEV " time=1 "
	                      "path=@/a_level value=auto\n"
	                      "end 1\n");
	struct gt_control *none;
	char rep[1024], want[1024];
	(void)state;

	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 1);
	assert_string_equal(calls, "");
	snprintf(want, sizeof(want),
	         STAMP " restore " DEV " %s/a_level old=\"\" new=\"auto\" "
	               "refused: no vendor \"gamma\" in this gputop\n",
	         e->root);
	assert_string_equal(slurp(e->audit), want);
	gt_control_free(e->c);
	e->c = NULL;
	none = control(e, NULL);
	assert_int_equal(gt_control_restore_all(none, rep, sizeof(rep)), 1);
	assert_true(strstr(rep, ": FAILED: Operation not permitted\n"));
	assert_string_equal(calls, "");
	gt_control_free(none);
	done(e);
}

/* The guardian's callback is the same restore through the same ops. */
static void test_restore_ops_dispatch(void **state)
{
	struct env *e = setup(NULL);
	struct gt_restore_journal *j = calloc(1, sizeof(*j));
	struct gt_restore_action a;
	struct gt_restore_ops ops;
	char rep[512], path[256], want[512];
	(void)state;

	assert_non_null(j);
	assert_int_equal(gt_restore_init(j, e->root), 0);
	snprintf(path, sizeof(path), "%s/b_limit", e->root);
	gt_restore_action_sysfs(&a, "alpha", DEV, path, "300", T0);
	assert_int_equal(gt_restore_note(j, &a, NULL, 0), 0);
	gt_restore_action_fan_auto(&a, NV, 1, T0);
	assert_int_equal(gt_restore_note(j, &a, NULL, 0), 0);
	gt_control_restore_ops(e->c, &ops);
	assert_ptr_equal(ops.ctx, e->c);
	assert_int_equal(gt_restore_apply(j, &ops, rep, sizeof(rep)), 0);
	snprintf(want, sizeof(want),
	         "nvml nvml-fan-auto " NV " \n"
	         "alpha sysfs %s 300\n",
	         path);
	assert_string_equal(calls, want);
	free(j);
	done(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_vendor_lookup),
	    cmocka_unit_test(test_loop_audit_summary),
	    cmocka_unit_test(test_loop_audit_period),
	    cmocka_unit_test(test_audit_rotates),
	    cmocka_unit_test(test_restored_by_own_vendor),
	    cmocka_unit_test(test_failure_keeps_state),
	    cmocka_unit_test(test_restore_needs_audit_log),
	    cmocka_unit_test(test_version1_restores),
	    cmocka_unit_test(test_version1_saved_as_version2),
	    cmocka_unit_test(test_unclaimed_blocks_save),
	    cmocka_unit_test(test_unknown_vendor_refused),
	    cmocka_unit_test(test_restore_ops_dispatch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

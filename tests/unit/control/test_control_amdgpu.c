/* SPDX-License-Identifier: MIT */
/*
 * test_control_amdgpu.c - tests of the AMD control writes
 * (src/control/control_amdgpu.c, through the checked write of
 * control_sysfs.c) on writable copies of the amdgpu fixtures
 * (support/control_amdgpu_test.h): the exact bytes of every file after
 * each call, the exact journal and audit lines, refusals that change
 * nothing (a checksum of the whole tree), a symlink out of the device
 * directory, a file swapped mid-call, a state file naming foreign files,
 * and restore_all putting every file back. The fan writes are
 * test_control_amdgpu_fan.c's.
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
#include "control/control_amdgpu.h"

#include "support/control_amdgpu_test.h"

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

/* A write the driver refuses (EACCES, EPERM, EINVAL, EIO) changed nothing:
 * its original leaves the journal again (no state file, nothing for the
 * exit to "restore"), and only the audit line of the refusal stays. A
 * multi-write setter keeps the originals of the writes that worked; an
 * error that may have half happened (EBUSY) keeps its original; a setting
 * changed earlier keeps its original when a later write is refused. */
static void test_refused_write_withdrawn(void **state)
{
	struct env *e = setup("rx580", "card0", true, GT_CONTROL_PRIV_YES);
	const char *lvl = "power_dpm_force_performance_level";
	static const int refusals[] = {-EACCES, -EPERM, -EINVAL, -EIO};
	char err[256], rep[512], want[4096];
	unsigned long uw = 0;
	int idx = -1;
	(void)state;

	e->refuse = "/power1_cap";
	for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		e->refuse_rc = refusals[i];
		assert_int_equal(gt_control_amdgpu_power_cap(e->c, e->dev,
		                                             120000000, &uw,
		                                             err, sizeof(err)),
		                 GT_CONTROL_FAILED);
		assert_true(strstr(err, strerror(-refusals[i])));
		assert_int_equal(gt_control_pending(e->c), 0);
		assert_string_equal(slurp(e->state), "(missing)");
	}
	/* One audit line per refusal, no restore, nothing to restore. */
	snprintf(want, sizeof(want), "%s", slurp(e->audit));
	assert_non_null(strstr(want, "new=\"120000000\" failed: Permission "
	                             "denied\n"));
	assert_null(strstr(want, "restore"));
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	assert_string_equal(slurp(e->audit), want);

	/* The level (first write) worked, the profile was refused: only the
	 * level's original stays, and the exit puts back only it. */
	e->refuse = "/pp_power_profile_mode";
	e->refuse_rc = -EINVAL;
	assert_int_equal(gt_control_amdgpu_power_profile(e->c, e->dev, 5, &idx,
	                                                 err, sizeof(err)),
	                 GT_CONTROL_FAILED);
	assert_int_equal(gt_control_pending(e->c), 1);
	assert_string_equal(gt_control_journal(e->c)->a[0].path,
	                    devfile(e, lvl));
	snprintf(want, sizeof(want),
	         HDR "sysfs vendor=amdgpu dev=0000:09:00.0 time=%d path=%s "
	             "value=auto\nend 1\n",
	         T0, devfile(e, lvl));
	assert_string_equal(slurp(e->state), want);
	e->refuse = NULL;
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	assert_string_equal(slurp(devfile(e, lvl)), "auto\n");
	assert_string_equal(slurp(e->state), "(missing)");

	/* The first write refused: neither original is journaled. */
	e->refuse = lvl;
	e->refuse_rc = -EIO;
	assert_int_equal(gt_control_amdgpu_power_profile(e->c, e->dev, 5, &idx,
	                                                 err, sizeof(err)),
	                 GT_CONTROL_FAILED);
	assert_int_equal(gt_control_pending(e->c), 0);
	assert_string_equal(slurp(e->state), "(missing)");

	/* EBUSY may have half happened: the original stays journaled. */
	e->refuse = "/power1_cap";
	e->refuse_rc = -EBUSY;
	assert_int_equal(gt_control_amdgpu_power_cap(e->c, e->dev, 120000000,
	                                             &uw, err, sizeof(err)),
	                 GT_CONTROL_FAILED);
	assert_int_equal(gt_control_pending(e->c), 1);
	e->refuse = NULL;
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);

	/* Changed earlier, then a refused write: the original stays. */
	assert_int_equal(gt_control_amdgpu_power_cap(e->c, e->dev, 120000000,
	                                             &uw, err, sizeof(err)),
	                 GT_CONTROL_OK);
	e->refuse = "/power1_cap";
	e->refuse_rc = -EINVAL;
	assert_int_equal(gt_control_amdgpu_power_cap(e->c, e->dev, 130000000,
	                                             &uw, err, sizeof(err)),
	                 GT_CONTROL_FAILED);
	assert_int_equal(gt_control_pending(e->c), 1);
	assert_string_equal(gt_control_journal(e->c)->a[0].value, "155000000");
	e->refuse = NULL;
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	assert_string_equal(slurp(devfile(e, "hwmon/hwmon4/power1_cap")),
	                    "155000000\n");
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
	    cmocka_unit_test(test_refused_write_withdrawn),
	    cmocka_unit_test(test_paths_outside_refused),
	    cmocka_unit_test(test_link_swapped_mid_call),
	    cmocka_unit_test(test_restore_refuses_foreign_files),
	    cmocka_unit_test(test_crash_then_restore),
	    cmocka_unit_test(test_unwritable_audit_or_state_refuses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

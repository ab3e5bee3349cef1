/* SPDX-License-Identifier: MIT */
/*
 * restore_test.h - helpers shared by the tests of the restore journal
 * (test_restore.c, test_restore_state.c): the ids, paths and time the
 * tests use, a journal on the heap, a note that must succeed or be
 * refused, and the sample journal a fan dialog and a power dialog would
 * leave. static inline so each test uses what it needs.
 */
#ifndef GPUTOP_RESTORE_TEST_H
#define GPUTOP_RESTORE_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "control/restore.h"

#define DEV "0000:03:00.0"
#define NV  "00000000:01:00.0"
#define HW  "/sys/class/drm/card1/device/hwmon/hwmon3/"
#define T0  1767225600 /* 2026-01-01 00:00:00 UTC */

/* Journals are large (tens of KiB): keep them off the test's stack. */
static inline struct gt_restore_journal *new_journal(const char *root)
{
	struct gt_restore_journal *j = calloc(1, sizeof(*j));

	assert_non_null(j);
	assert_int_equal(gt_restore_init(j, root), 0);
	return j;
}

static inline void note_ok(struct gt_restore_journal *j,
                           const struct gt_restore_action *a, int want)
{
	char err[256] = "";

	assert_int_equal(gt_restore_note(j, a, err, sizeof(err)), want);
}

/* The journal used by several tests, in the order a fan dialog and a power
 * dialog would change things. */
static inline struct gt_restore_journal *sample(void)
{
	struct gt_restore_journal *j = new_journal(NULL);
	struct gt_restore_action a;

	assert_int_equal(gt_restore_action_sysfs(&a, "amdgpu", DEV,
	                                         HW "pwm1_enable", "2", T0),
	                 0);
	note_ok(j, &a, 0);
	assert_int_equal(gt_restore_action_sysfs(&a, "amdgpu", DEV, HW "pwm1",
	                                         "153", T0 + 1),
	                 0);
	note_ok(j, &a, 0);
	assert_int_equal(gt_restore_action_fan_auto(&a, NV, 0, T0 + 2), 0);
	note_ok(j, &a, 0);
	assert_int_equal(gt_restore_action_fan_auto(&a, NV, 1, T0 + 2), 0);
	note_ok(j, &a, 0);
	assert_int_equal(gt_restore_action_power_limit(&a, NV, 250000, T0 + 3),
	                 0);
	note_ok(j, &a, 0);
	assert_int_equal(
	    gt_restore_action_fan_curve_reset(
	        &a, "0000:0c:00.0", "/sys/class/drm/card2/device", T0 + 4),
	    0);
	note_ok(j, &a, 0);
	return j;
}

static inline void expect_note_refused(struct gt_restore_journal *j,
                                       const struct gt_restore_action *a,
                                       const char *msg)
{
	char err[256] = "";
	size_t n = j->n;

	assert_int_equal(gt_restore_note(j, a, err, sizeof(err)), -1);
	assert_string_equal(err, msg);
	assert_int_equal(j->n, n);
}

#endif

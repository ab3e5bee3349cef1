/* SPDX-License-Identifier: MIT */
/*
 * test_restore.c - tests of the restore journal (src/control/restore.c):
 * the first original is kept, what a note refuses, the restore's reverse
 * order and carrying on past failures (recorded by a fake callback), and
 * where the state file lives. The state file itself is
 * test_restore_state.c's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

#include <cmocka.h>

#include "control/restore.h"

#include "support/restore_test.h"

static void test_note_keeps_first_original(void **state)
{
	struct gt_restore_journal *j = sample();
	struct gt_restore_action a;
	(void)state;

	assert_int_equal(j->n, 6);
	/* gputop wrote pwm1_enable=1 and pwm1=200 meanwhile; noting those
	 * again must not replace the originals. */
	gt_restore_action_sysfs(&a, "amdgpu", DEV, HW "pwm1_enable", "1",
	                        T0 + 9);
	note_ok(j, &a, 1);
	gt_restore_action_sysfs(&a, "amdgpu", DEV, HW "pwm1", "200", T0 + 9);
	note_ok(j, &a, 1);
	gt_restore_action_power_limit(&a, NV, 180000, T0 + 9);
	note_ok(j, &a, 1);
	gt_restore_action_fan_auto(&a, NV, 1, T0 + 9);
	note_ok(j, &a, 1);
	gt_restore_action_fan_curve_reset(
	    &a, "0000:0c:00.0", "/sys/class/drm/card2/device", T0 + 9);
	note_ok(j, &a, 1);
	assert_int_equal(j->n, 6);
	assert_string_equal(j->a[0].value, "2");
	assert_int_equal(j->a[0].time_s, T0);
	assert_string_equal(j->a[1].value, "153");
	assert_int_equal(j->a[4].mw, 250000);
	/* Other settings are new: another fan, another device's limit. */
	gt_restore_action_fan_auto(&a, NV, 2, T0 + 9);
	note_ok(j, &a, 0);
	gt_restore_action_power_limit(&a, "00000000:02:00.0", 300000, T0 + 9);
	note_ok(j, &a, 0);
	assert_int_equal(j->n, 8);
	free(j);
}

static void test_note_refusals(void **state)
{
	struct gt_restore_journal *j = new_journal("/tmp/fixture/sys/");
	struct gt_restore_action a;
	char longpath[GT_RESTORE_PATH_MAX + 8];
	(void)state;

	assert_string_equal(j->root, "/tmp/fixture/sys");
	gt_restore_action_sysfs(&a, "amdgpu", DEV, "/tmp/fixture/sys/x/pwm1",
	                        "2", T0);
	note_ok(j, &a, 0);
	gt_restore_action_sysfs(&a, "amdgpu", DEV,
	                        "/sys/class/drm/card1/device/x", "2", T0);
	expect_note_refused(j, &a,
	                    "path /sys/class/drm/card1/device/x is not "
	                    "under /tmp/fixture/sys/");
	gt_restore_action_sysfs(&a, "amdgpu", DEV, "/tmp/fixture/sysfoo/x", "2",
	                        T0);
	expect_note_refused(j, &a,
	                    "path /tmp/fixture/sysfoo/x is not under "
	                    "/tmp/fixture/sys/");
	gt_restore_action_sysfs(&a, "amdgpu", DEV, "/tmp/fixture/sys/", "2",
	                        T0);
	expect_note_refused(j, &a,
	                    "path /tmp/fixture/sys/ is not under "
	                    "/tmp/fixture/sys/");
	gt_restore_action_sysfs(&a, "amdgpu", DEV, "tmp/fixture/sys/x", "2",
	                        T0);
	expect_note_refused(j, &a, "path tmp/fixture/sys/x is not absolute");
	gt_restore_action_sysfs(&a, "amdgpu", DEV,
	                        "/tmp/fixture/sys/../../etc/x", "2", T0);
	expect_note_refused(j, &a,
	                    "path /tmp/fixture/sys/../../etc/x "
	                    "contains \"..\"");
	gt_restore_action_sysfs(&a, "amdgpu", DEV, "/tmp/fixture/sys/x\n", "2",
	                        T0);
	expect_note_refused(j, &a, "control character in path");
	gt_restore_action_sysfs(&a, "amdgpu", DEV, "/tmp/fixture/sys/x",
	                        "2\nsysfs dev=1 time=0 path=/x value=0", T0);
	expect_note_refused(j, &a, "control character in value");
	gt_restore_action_sysfs(&a, "amdgpu", DEV, "/tmp/fixture/sys/x", "",
	                        T0);
	expect_note_refused(j, &a, "empty original value");
	gt_restore_action_sysfs(&a, "amdgpu", "card1", "/tmp/fixture/sys/x",
	                        "2", T0);
	expect_note_refused(j, &a,
	                    "device id is not a PCI bus id (hex "
	                    "digits, ':' and '.')");
	gt_restore_action_sysfs(&a, "amdgpu", DEV, "/tmp/fixture/sys/x", "2",
	                        -1);
	expect_note_refused(j, &a, "negative time");
	gt_restore_action_power_limit(&a, NV, 0, T0);
	expect_note_refused(j, &a, "power limit of 0 mW");
	gt_restore_action_fan_auto(&a, NV, 256, T0);
	expect_note_refused(j, &a, "fan index 256 out of range");
	a.kind = (enum gt_restore_kind)9;
	expect_note_refused(j, &a, "unknown action kind 9");

	/* Builders refuse what does not fit instead of truncating it. */
	memset(longpath, 'a', sizeof(longpath));
	longpath[0] = '/';
	longpath[GT_RESTORE_PATH_MAX] = '\0';
	assert_int_equal(
	    gt_restore_action_sysfs(&a, "amdgpu", DEV, longpath, "2", T0), -1);
	longpath[GT_RESTORE_PATH_MAX - 1] = '\0';
	assert_int_equal(
	    gt_restore_action_sysfs(&a, "amdgpu", DEV, longpath, "2", T0), 0);
	assert_int_equal(
	    gt_restore_action_sysfs(&a, "amdgpu", DEV, NULL, "2", T0), -1);
	assert_int_equal(gt_restore_action_fan_auto(&a, NULL, 0, T0), -1);

	/* Full: refused, so the caller must not write. */
	for (unsigned i = 1; i < GT_RESTORE_MAX_ACTIONS; i++) {
		gt_restore_action_fan_auto(&a, NV, i % 256, T0);
		snprintf(a.dev, sizeof(a.dev), "0000:%02x:00.0", i);
		note_ok(j, &a, 0);
	}
	gt_restore_action_power_limit(&a, NV, 100000, T0);
	expect_note_refused(j, &a, "restore journal full (64 settings)");
	assert_int_equal(gt_restore_init(j, "relative"), -1);
	free(j);
}

/* Records every call in order; returns the next scripted result. */
struct fake {
	char log[1024];
	size_t pos;
	int calls;
	int rc[8];
	unsigned handles; /* bit k: fake_restore handles kind k */
};

static int record(struct fake *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int record(struct fake *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	f->pos += (size_t)vsnprintf(f->log + f->pos, sizeof(f->log) - f->pos,
	                            fmt, ap);
	va_end(ap);
	return f->rc[f->calls++];
}

/* The one restore callback: a line per action, in the words of the kind;
 * handles (the test's choice) only the kinds in f->handles. */
static int fake_restore(void *ctx, const struct gt_restore_action *a)
{
	struct fake *f = ctx;

	if (!(f->handles & (1u << a->kind)))
		return -EOPNOTSUPP;
	switch (a->kind) {
	case GT_RESTORE_SYSFS:
		return record(f, "sysfs_write(%s, %s, %s)\n", a->vendor,
		              a->path, a->value);
	case GT_RESTORE_NVML_FAN_AUTO:
		return record(f, "nvml_fan_auto(%s, %s, %u)\n", a->vendor,
		              a->dev, a->fan);
	case GT_RESTORE_NVML_POWER_LIMIT:
		return record(f, "nvml_power_limit(%s, %s, %u)\n", a->vendor,
		              a->dev, (unsigned)a->mw);
	case GT_RESTORE_AMD_FAN_CURVE_RESET:
		return record(f, "amd_fan_curve_reset(%s, %s)\n", a->vendor,
		              a->path);
	}
	return -EINVAL;
}

#define ALL_KINDS                                                              \
	(1u << GT_RESTORE_SYSFS | 1u << GT_RESTORE_NVML_FAN_AUTO |             \
	 1u << GT_RESTORE_NVML_POWER_LIMIT |                                   \
	 1u << GT_RESTORE_AMD_FAN_CURVE_RESET)

static void test_apply_order_and_failures(void **state)
{
	struct gt_restore_journal *j = sample();
	struct fake f = {.rc = {0, -EPERM, 0, -EIO, 0, 0},
	                 .handles = ALL_KINDS};
	struct gt_restore_ops ops = {&f, fake_restore, NULL};
	char report[1024];
	(void)state;

	assert_int_equal(gt_restore_apply(j, &ops, report, sizeof(report)), 2);
	assert_string_equal(
	    f.log, "amd_fan_curve_reset(amdgpu, /sys/class/drm/card2/device)\n"
	           "nvml_power_limit(nvml, 00000000:01:00.0, 250000)\n"
	           "nvml_fan_auto(nvml, 00000000:01:00.0, 1)\n"
	           "nvml_fan_auto(nvml, 00000000:01:00.0, 0)\n"
	           "sysfs_write(amdgpu, " HW "pwm1, 153)\n"
	           "sysfs_write(amdgpu, " HW "pwm1_enable, 2)\n");
	assert_string_equal(
	    report, "amd-fan-curve-reset /sys/class/drm/card2/device: ok\n"
	            "nvml-power-limit 00000000:01:00.0 <- 250000 mW: FAILED: "
	            "Operation not permitted\n"
	            "nvml-fan-auto 00000000:01:00.0 fan 1: ok\n"
	            "nvml-fan-auto 00000000:01:00.0 fan 0: FAILED: "
	            "Input/output error\n"
	            "sysfs " HW "pwm1 <- 153: ok\n"
	            "sysfs " HW "pwm1_enable <- 2: ok\n");
	free(j);
}

static void test_apply_refuses_and_reports(void **state)
{
	struct gt_restore_journal *j = sample();
	struct fake f = {.rc = {0, 7, 0, 0},
	                 .handles = 1u << GT_RESTORE_SYSFS |
	                            1u << GT_RESTORE_NVML_POWER_LIMIT};
	struct gt_restore_ops ops = {&f, fake_restore, NULL};
	struct gt_restore_ops none = {&f, NULL, NULL};
	char report[1024], tiny[16];
	(void)state;

	/* Tampered with in memory: never reaches a callback. */
	strcpy(j->a[0].path, "/etc/shadow");
	assert_int_equal(gt_restore_apply(j, &ops, report, sizeof(report)), 5);
	assert_string_equal(f.log, "nvml_power_limit(nvml, 00000000:01:00.0, "
	                           "250000)\n"
	                           "sysfs_write(amdgpu, " HW "pwm1, 153)\n");
	assert_string_equal(
	    report, "amd-fan-curve-reset /sys/class/drm/card2/device: FAILED: "
	            "Operation not supported\n"
	            "nvml-power-limit 00000000:01:00.0 <- 250000 mW: ok\n"
	            "nvml-fan-auto 00000000:01:00.0 fan 1: FAILED: Operation "
	            "not supported\n"
	            "nvml-fan-auto 00000000:01:00.0 fan 0: FAILED: Operation "
	            "not supported\n"
	            "sysfs " HW "pwm1 <- 153: FAILED: error 7\n"
	            "action 1 (sysfs): FAILED: refused: path /etc/shadow is "
	            "not under /sys/\n");
	/* No callback: every action fails as having no handler, and none
	 * is called. */
	assert_int_equal(gt_restore_apply(j, &none, report, sizeof(report)), 6);
	assert_int_equal(f.calls, 2);
	assert_string_equal(
	    report, "amd-fan-curve-reset /sys/class/drm/card2/device: FAILED: "
	            "no handler\n"
	            "nvml-power-limit 00000000:01:00.0 <- 250000 mW: FAILED: "
	            "no handler\n"
	            "nvml-fan-auto 00000000:01:00.0 fan 1: FAILED: no handler\n"
	            "nvml-fan-auto 00000000:01:00.0 fan 0: FAILED: no handler\n"
	            "sysfs " HW "pwm1 <- 153: FAILED: no handler\n"
	            "action 1 (sysfs): FAILED: refused: path /etc/shadow is "
	            "not under /sys/\n");
	/* No ops at all, and a report too small: still every failure counted.
	 */
	assert_int_equal(gt_restore_apply(j, NULL, tiny, sizeof(tiny)), 6);
	assert_string_equal(tiny, "amd-fan-curve-r");
	assert_int_equal(gt_restore_apply(j, NULL, NULL, 0), 6);
	/* A count past the array (memory corruption) reads no further. */
	j->n = GT_RESTORE_MAX_ACTIONS + 1;
	assert_int_equal(
	    gt_restore_format(j, report, sizeof(report), tiny, sizeof(tiny)),
	    -1);
	assert_int_equal(gt_restore_apply(j, NULL, report, sizeof(report)),
	                 GT_RESTORE_MAX_ACTIONS + 1);
	assert_non_null(
	    strstr(report, "corrupt journal: 65 actions: FAILED\n"));
	free(j);
}

static void test_default_path(void **state)
{
	char buf[256], want[256];
	(void)state;

	assert_int_equal(
	    gt_restore_path_for(0, "/home/u/.st", "/home/u", buf, sizeof(buf)),
	    0);
	assert_string_equal(buf, "/var/lib/gputop/restore.state");
	assert_int_equal(gt_restore_path_for(1000, "/home/u/.st", "/home/u",
	                                     buf, sizeof(buf)),
	                 0);
	assert_string_equal(buf, "/home/u/.st/gputop/restore.state");
	/* A relative XDG_STATE_HOME is ignored (XDG spec). */
	assert_int_equal(
	    gt_restore_path_for(1000, "rel", "/home/u", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/home/u/.local/state/gputop/restore.state");
	assert_int_equal(
	    gt_restore_path_for(1000, NULL, "/home/u", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/home/u/.local/state/gputop/restore.state");
	assert_int_equal(
	    gt_restore_path_for(1000, NULL, NULL, buf, sizeof(buf)), -1);
	assert_int_equal(gt_restore_path_for(1000, "", "", buf, sizeof(buf)),
	                 -1);
	assert_int_equal(gt_restore_path_for(1000, "/x", NULL, buf, 10), -1);

	assert_int_equal(setenv("XDG_STATE_HOME", "/tmp/xdg-state", 1), 0);
	assert_int_equal(gt_restore_default_path(buf, sizeof(buf)), 0);
	snprintf(want, sizeof(want), "%s",
	         geteuid() == 0 ? "/var/lib/gputop/restore.state"
	                        : "/tmp/xdg-state/gputop/restore.state");
	assert_string_equal(buf, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_note_keeps_first_original),
	    cmocka_unit_test(test_note_refusals),
	    cmocka_unit_test(test_apply_order_and_failures),
	    cmocka_unit_test(test_apply_refuses_and_reports),
	    cmocka_unit_test(test_default_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

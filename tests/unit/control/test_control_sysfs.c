/* SPDX-License-Identifier: MIT */
/*
 * test_control_sysfs.c - tests of the vendor-neutral checked sysfs write
 * (src/control/control_sysfs.c) that the amdgpu and Intel setters share,
 * on a small synthetic tree: the device directory checked under the sysfs
 * root and its uevent read (driver, PCI slot), with every refusal and its
 * message; the target file checked inside the device (missing, a symlink
 * out of it, not a regular file); and the write checked again right
 * before it is made, with its audit line for a write that worked, one the
 * kernel refused and one whose file was swapped for a symlink.
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
#include <unistd.h>

#include <cmocka.h>

#include "control/control.h"
#include "control/control_sysfs.h"

#define T0    1767225600 /* 2026-01-01T00:00:00Z */
#define STAMP "2026-01-01T00:00:00Z"
#define SLOT  "0000:09:00.0"

struct env {
	char tmp[64], root[128], dev[256], audit[160], state[160];
	char writes[1024];   /* "path=value\n" for each write the hook saw */
	int fail;            /* the hook's next answer, 0: write the file */
	char swap[PATH_MAX]; /* made a symlink out just before the write */
	struct gt_control *c;
};

static const char *text(const char *path)
{
	static char buf[2][4096];
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
	assert_int_equal(fclose(f), 0);
}

static const char *at(const struct env *e, const char *rel)
{
	static char path[4][PATH_MAX];
	static int k;
	char *p = path[k++ % 4];

	snprintf(p, PATH_MAX, "%s/%s", e->dev, rel);
	return p;
}

/* The write hook: records, then fails or writes as the test says. */
static int hook(void *ctx, const char *path, const char *value)
{
	struct env *e = ctx;
	size_t n = strlen(e->writes);

	snprintf(e->writes + n, sizeof(e->writes) - n, "%s=%s\n",
	         strrchr(path, '/') + 1, value);
	if (e->fail)
		return e->fail;
	return gt_control_write_file(path, value);
}

static struct env *setup(void)
{
	struct env *e = calloc(1, sizeof(*e));
	char cmd[512];

	assert_non_null(e);
	snprintf(e->tmp, sizeof(e->tmp), "/tmp/gt-sysfs-XXXXXX");
	assert_non_null(mkdtemp(e->tmp));
	snprintf(e->root, sizeof(e->root), "%s/sys", e->tmp);
	snprintf(e->dev, sizeof(e->dev), "%s/class/drm/card0/device", e->root);
	snprintf(e->audit, sizeof(e->audit), "%s/audit.log", e->tmp);
	snprintf(e->state, sizeof(e->state), "%s/state/restore.state", e->tmp);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/sub' '%s/outside'", e->dev,
	         e->tmp);
	assert_int_equal(system(cmd), 0);
	put(at(e, "uevent"),
	    "DRIVER=amdgpu\nPCI_CLASS=30000\nPCI_SLOT_NAME=" SLOT "\n");
	put(at(e, "value"), "4\n");
	snprintf(cmd, sizeof(cmd), "%s/outside/secret", e->tmp);
	put(cmd, "x\n");
	assert_int_equal(symlink(cmd, at(e, "out")), 0);

	struct gt_control_config cfg = {
	    .sysfs_root = e->root,
	    .state_path = e->state,
	    .audit_path = e->audit,
	    .privileged = GT_CONTROL_PRIV_YES,
	    .fixed_time = T0,
	    .write = hook,
	    .write_ctx = e,
	};
	char err[256] = "";
	e->c = gt_control_new(&cfg, err, sizeof(err));
	if (!e->c)
		fail_msg("gt_control_new: %s", err);
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

static const char *const amdgpu[] = {"amdgpu", NULL};
static const char *const intel[] = {"i915", "xe", NULL};

/* gt_control_sysfs_device refuses devdir with exactly want. */
static void refused_device(struct env *e, const char *devdir,
                           const char *const *drivers, const char *kind,
                           const char *want)
{
	char dir[PATH_MAX], driver[32], id[GT_RESTORE_DEV_MAX], err[512];

	assert_int_equal(gt_control_sysfs_device(e->c, devdir, kind, drivers,
	                                         dir, driver, id, err,
	                                         sizeof(err)),
	                 -1);
	assert_string_equal(err, want);
}

static void test_device(void **state)
{
	struct env *e = setup();
	char dir[PATH_MAX], driver[32], id[GT_RESTORE_DEV_MAX];
	char err[512] = "", devdir[PATH_MAX], want[PATH_MAX * 3];
	(void)state;

	assert_int_equal(gt_control_sysfs_device(e->c, e->dev, "an amdgpu",
	                                         amdgpu, dir, driver, id, err,
	                                         sizeof(err)),
	                 0);
	assert_string_equal(dir, e->dev);
	assert_string_equal(driver, "amdgpu");
	assert_string_equal(id, SLOT);
	/* Trailing slashes go; the rest is as given. */
	snprintf(devdir, sizeof(devdir), "%s//", e->dev);
	assert_int_equal(gt_control_sysfs_device(e->c, devdir, "an amdgpu",
	                                         amdgpu, dir, driver, id, err,
	                                         sizeof(err)),
	                 0);
	assert_string_equal(dir, e->dev);

	snprintf(want, sizeof(want),
	         "(null) is not a device directory under %s/", e->root);
	refused_device(e, NULL, amdgpu, "an amdgpu", want);
	snprintf(want, sizeof(want),
	         "sys/class/drm/card0/device is not a device directory under "
	         "%s/",
	         e->root);
	refused_device(e, "sys/class/drm/card0/device", amdgpu, "an amdgpu",
	               want);
	snprintf(devdir, sizeof(devdir), "%s/class/drm/../drm/card0/device",
	         e->root);
	snprintf(want, sizeof(want), "%s is not a device directory under %s/",
	         devdir, e->root);
	refused_device(e, devdir, amdgpu, "an amdgpu", want);
	snprintf(devdir, sizeof(devdir), "%sx/class/drm/card0/device", e->root);
	snprintf(want, sizeof(want), "%s is not a device directory under %s/",
	         devdir, e->root);
	refused_device(e, devdir, amdgpu, "an amdgpu", want);

	/* The driver must be one the caller names. */
	snprintf(
	    want, sizeof(want),
	    "%s is not an Intel device (its uevent names no DRIVER=i915 or "
	    "DRIVER=xe)",
	    e->dev);
	refused_device(e, e->dev, intel, "an Intel", want);
	put(at(e, "uevent"), "DRIVER=amdgpu\n");
	snprintf(want, sizeof(want), "%s/uevent gives no PCI_SLOT_NAME",
	         e->dev);
	refused_device(e, e->dev, amdgpu, "an amdgpu", want);
	put(at(e, "uevent"), "DRIVER=amdgpu\nPCI_SLOT_NAME=09;rm\n");
	refused_device(e, e->dev, amdgpu, "an amdgpu", want);

	/* A device directory that leads out of the root once resolved. */
	snprintf(devdir, sizeof(devdir), "%s/class/drm/card1", e->root);
	snprintf(want, sizeof(want), "%s/outside", e->tmp);
	assert_int_equal(symlink(want, devdir), 0);
	snprintf(want, sizeof(want), "%s resolves outside %s: refusing it",
	         devdir, e->root);
	refused_device(e, devdir, amdgpu, "an amdgpu", want);
	assert_string_equal(e->writes, "");
	done(e);
}

static void test_target(void **state)
{
	struct env *e = setup();
	char err[512] = "", want[1024];
	(void)state;

	assert_int_equal(
	    gt_control_sysfs_target(at(e, "value"), e->dev, err, sizeof(err)),
	    0);
	assert_int_equal(
	    gt_control_sysfs_target(at(e, "gone"), e->dev, err, sizeof(err)),
	    -1);
	snprintf(want, sizeof(want), "%s is missing", at(e, "gone"));
	assert_string_equal(err, want);
	assert_int_equal(
	    gt_control_sysfs_target(at(e, "out"), e->dev, err, sizeof(err)),
	    -1);
	snprintf(want, sizeof(want),
	         "%s resolves outside the device directory %s: refusing to "
	         "write it",
	         at(e, "out"), e->dev);
	assert_string_equal(err, want);
	assert_int_equal(
	    gt_control_sysfs_target(at(e, "sub"), e->dev, err, sizeof(err)),
	    -1);
	snprintf(want, sizeof(want),
	         "%s is not a regular file: refusing to write it",
	         at(e, "sub"));
	assert_string_equal(err, want);
	done(e);
}

static void test_write_and_audit(void **state)
{
	struct env *e = setup();
	char err[512] = "", want[2048];
	(void)state;

	assert_int_equal(gt_control_sysfs_write(e->c, at(e, "value"), e->dev,
	                                        SLOT, "value", "write", "4",
	                                        "5", err, sizeof(err)),
	                 0);
	assert_string_equal(text(at(e, "value")), "5\n");
	assert_string_equal(e->writes, "value=5\n");
	assert_string_equal(text(e->audit), STAMP
	                    " write " SLOT " value old=\"4\" new=\"5\" ok\n");

	/* The kernel refuses the value: the error, and the audit says so. */
	e->fail = -EINVAL;
	assert_int_equal(gt_control_sysfs_write(e->c, at(e, "value"), e->dev,
	                                        SLOT, "value", "restore", "5",
	                                        "4", err, sizeof(err)),
	                 -EINVAL);
	snprintf(want, sizeof(want),
	         "writing \"4\" to %s failed: Invalid argument",
	         at(e, "value"));
	assert_string_equal(err, want);
	assert_string_equal(text(at(e, "value")), "5\n");
	assert_string_equal(text(e->audit),
	                    STAMP " write " SLOT
	                          " value old=\"4\" new=\"5\" ok\n" STAMP
	                          " restore " SLOT " value old=\"5\" new=\"4\" "
	                          "failed: Invalid argument\n");
	e->fail = 0;
	e->writes[0] = '\0';

	/* Checked again right before the write: a file that became a link
	 * out of the device is not written, and the audit says why. */
	assert_int_equal(gt_control_sysfs_write(e->c, at(e, "out"), e->dev,
	                                        SLOT, "out", "write", "", "1",
	                                        err, sizeof(err)),
	                 -EXDEV);
	snprintf(want, sizeof(want),
	         "%s resolves outside the device directory %s: refusing to "
	         "write it",
	         at(e, "out"), e->dev);
	assert_string_equal(err, want);
	assert_string_equal(e->writes, "");
	snprintf(want, sizeof(want), "%s/outside/secret", e->tmp);
	assert_string_equal(text(want), "x\n");
	snprintf(want, sizeof(want),
	         STAMP " write " SLOT " out old=\"\" new=\"1\" refused: %s "
	               "resolves outside the device directory %s: refusing to "
	               "write it\n",
	         at(e, "out"), e->dev);
	assert_non_null(strstr(text(e->audit), want));
	done(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_device),
	    cmocka_unit_test(test_target),
	    cmocka_unit_test(test_write_and_audit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

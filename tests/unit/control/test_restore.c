/* SPDX-License-Identifier: MIT */
/*
 * test_restore.c - tests of the restore journal (src/control/restore.c):
 * the first original is kept, the state file's exact text (version 2, each
 * record with its vendor) and round trip, version 1 still read, atomic and
 * private saves, hostile state files refused with file:line messages, the
 * restore's reverse order and carrying on past failures (recorded by a
 * fake callback), clear, and where the state file lives.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "control/restore.h"

#define DEV "0000:03:00.0"
#define NV  "00000000:01:00.0"
#define HW  "/sys/class/drm/card1/device/hwmon/hwmon3/"
#define T0  1767225600 /* 2026-01-01 00:00:00 UTC */

/* Journals are large (tens of KiB): keep them off the test's stack. */
static struct gt_restore_journal *new_journal(const char *root)
{
	struct gt_restore_journal *j = calloc(1, sizeof(*j));

	assert_non_null(j);
	assert_int_equal(gt_restore_init(j, root), 0);
	return j;
}

static void note_ok(struct gt_restore_journal *j,
                    const struct gt_restore_action *a, int want)
{
	char err[256] = "";

	assert_int_equal(gt_restore_note(j, a, err, sizeof(err)), want);
}

/* The journal used by several tests, in the order a fan dialog and a power
 * dialog would change things. */
static struct gt_restore_journal *sample(void)
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

static void expect_note_refused(struct gt_restore_journal *j,
                                const struct gt_restore_action *a,
                                const char *msg)
{
	char err[256] = "";
	size_t n = j->n;

	assert_int_equal(gt_restore_note(j, a, err, sizeof(err)), -1);
	assert_string_equal(err, msg);
	assert_int_equal(j->n, n);
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

static const char sample_text[] =
    "# gputop restore state: the original values of the settings gputop "
    "changed.\n"
    "# Written before each first change; `gputop --restore` puts them "
    "back.\n"
    "gputop-restore 2\n"
    "sysfs vendor=amdgpu dev=0000:03:00.0 time=1767225600 "
    "path=/sys/class/drm/card1/device/hwmon/hwmon3/pwm1_enable value=2\n"
    "sysfs vendor=amdgpu dev=0000:03:00.0 time=1767225601 "
    "path=/sys/class/drm/card1/device/hwmon/hwmon3/pwm1 value=153\n"
    "nvml-fan-auto vendor=nvml dev=00000000:01:00.0 time=1767225602 fan=0\n"
    "nvml-fan-auto vendor=nvml dev=00000000:01:00.0 time=1767225602 fan=1\n"
    "nvml-power-limit vendor=nvml dev=00000000:01:00.0 time=1767225603 "
    "mw=250000\n"
    "amd-fan-curve-reset vendor=amdgpu dev=0000:0c:00.0 time=1767225604 "
    "path=/sys/class/drm/card2/device\n"
    "end 6\n";

/* The same journal as gputop wrote it before records named their vendor
 * (version 1). */
static const char sample_text_v1[] =
    "gputop-restore 1\n"
    "sysfs dev=0000:03:00.0 time=1767225600 "
    "path=/sys/class/drm/card1/device/hwmon/hwmon3/pwm1_enable value=2\n"
    "sysfs dev=0000:03:00.0 time=1767225601 "
    "path=/sys/class/drm/card1/device/hwmon/hwmon3/pwm1 value=153\n"
    "nvml-fan-auto dev=00000000:01:00.0 time=1767225602 fan=0\n"
    "nvml-fan-auto dev=00000000:01:00.0 time=1767225602 fan=1\n"
    "nvml-power-limit dev=00000000:01:00.0 time=1767225603 mw=250000\n"
    "amd-fan-curve-reset dev=0000:0c:00.0 time=1767225604 "
    "path=/sys/class/drm/card2/device\n"
    "end 6\n";

static void assert_same_journal(const struct gt_restore_journal *x,
                                const struct gt_restore_journal *y)
{
	assert_int_equal(x->n, y->n);
	assert_string_equal(x->root, y->root);
	for (size_t i = 0; i < x->n; i++) {
		assert_int_equal(x->a[i].kind, y->a[i].kind);
		assert_string_equal(x->a[i].vendor, y->a[i].vendor);
		assert_string_equal(x->a[i].dev, y->a[i].dev);
		assert_int_equal(x->a[i].time_s, y->a[i].time_s);
		assert_string_equal(x->a[i].path, y->a[i].path);
		assert_string_equal(x->a[i].value, y->a[i].value);
		assert_int_equal(x->a[i].fan, y->a[i].fan);
		assert_int_equal(x->a[i].mw, y->a[i].mw);
	}
}

/* The group's state: a private temporary directory, removed at the end. */
static int make_tmpdir(void **state)
{
	char *dir = malloc(64);

	if (!dir)
		return -1;
	snprintf(dir, 64, "/tmp/gputop-restore-XXXXXX");
	if (!mkdtemp(dir)) {
		free(dir);
		return -1;
	}
	*state = dir;
	return 0;
}

static int remove_tmpdir(void **state)
{
	char cmd[128];
	int rc;

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", (char *)*state);
	rc = system(cmd);
	free(*state);
	return rc == 0 ? 0 : -1;
}

static size_t count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void test_format_and_round_trip(void **state)
{
	struct gt_restore_journal *j = sample(), *back = new_journal(NULL);
	struct gt_restore_action a;
	char buf[4096], err[256] = "", path[128];
	const char *tmpdir = *state;

	assert_int_equal(
	    gt_restore_format(j, buf, sizeof(buf), err, sizeof(err)),
	    (int)strlen(sample_text));
	assert_string_equal(buf, sample_text);
	assert_int_equal(gt_restore_parse(buf, strlen(buf), "mem", "/sys", back,
	                                  err, sizeof(err)),
	                 0);
	assert_same_journal(j, back);

	/* Spaces, '%', '=' and UTF-8 in a value survive, escaped. */
	gt_restore_action_sysfs(&a, "amdgpu", DEV,
	                        "/sys/class/drm/card1/device/x y",
	                        "s 0 500 %=\xc3\xa9", T0);
	note_ok(j, &a, 0);
	assert_true(gt_restore_format(j, buf, sizeof(buf), err, sizeof(err)) >
	            0);
	assert_non_null(strstr(buf, " path=/sys/class/drm/card1/device/x%20y "
	                            "value=s%200%20500%20%25=%C3%A9\nend 7\n"));
	snprintf(path, sizeof(path), "%s/state/gputop/restore.state", tmpdir);
	assert_int_equal(gt_restore_save(j, path, err, sizeof(err)), 0);
	assert_int_equal(gt_restore_load(path, NULL, back, err, sizeof(err)),
	                 0);
	assert_same_journal(j, back);

	/* A buffer too small is an error, not a cut journal. */
	assert_int_equal(gt_restore_format(j, buf, 100, err, sizeof(err)), -1);
	assert_string_equal(err, "restore state does not fit in 100 bytes");
	free(j);
	free(back);
}

static void test_save_is_atomic_and_private(void **state)
{
	struct gt_restore_journal *j = sample(), *back = new_journal(NULL);
	char err[256] = "", dir[128], path[160];
	struct stat st;
	const char *tmpdir = *state;

	snprintf(dir, sizeof(dir), "%s/a/b/gputop", tmpdir);
	snprintf(path, sizeof(path), "%s/restore.state", dir);
	assert_int_equal(gt_restore_save(j, path, err, sizeof(err)), 0);
	assert_int_equal(stat(dir, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(count_entries(dir), 1); /* no temporary left */

	/* Overwritten in place: still one file, now the new content. */
	j->n = 2;
	assert_int_equal(gt_restore_save(j, path, err, sizeof(err)), 0);
	assert_int_equal(count_entries(dir), 1);
	assert_int_equal(gt_restore_load(path, NULL, back, err, sizeof(err)),
	                 0);
	assert_int_equal(back->n, 2);

	/* A journal holding a hostile value (built by hand, never noted) is
	 * refused before anything is written, and the old file stays. */
	strcpy(j->a[1].value, "153\nsysfs dev=0 time=0 path=/sys/x value=1");
	assert_int_equal(gt_restore_save(j, path, err, sizeof(err)), -1);
	assert_string_equal(err, "action 2: control character in value");
	assert_int_equal(count_entries(dir), 1);
	assert_int_equal(gt_restore_load(path, NULL, back, err, sizeof(err)),
	                 0);
	assert_string_equal(back->a[1].value, "153");

	/* A failed rename leaves no temporary behind. */
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0700), 0); /* rename() onto it: EISDIR */
	j->a[1].value[3] = '\0';
	assert_int_equal(gt_restore_save(j, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot rename"));
	assert_int_equal(count_entries(dir), 1);

	/* A directory others may write is refused. */
	snprintf(dir, sizeof(dir), "%s/public", tmpdir);
	assert_int_equal(mkdir(dir, 0700), 0);
	assert_int_equal(chmod(dir, 0777), 0);
	snprintf(path, sizeof(path), "%s/restore.state", dir);
	j->n = 1;
	assert_int_equal(gt_restore_save(j, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "public is not a private directory of "
	                            "this user"));
	assert_non_null(strstr(err, "mode 777"));
	assert_int_equal(count_entries(dir), 0);
	free(j);
	free(back);
}

/* Hostile or damaged state files: each refused whole, with file:line. */
static void test_parse_refusals(void **state)
{
#define HDR "gputop-restore 1\n"
#define OK1 "sysfs dev=0000:03:00.0 time=1 path=/sys/a/pwm1 value=2\n"
	static const struct {
		const char *text, *msg;
	} cases[] = {
	    {"", "st:1: empty file: no gputop-restore header"},
	    {"# only a comment\n", "st:2: empty file: no gputop-restore "
	                           "header"},
	    {"hello\n", "st:1: not a gputop restore file"},
	    {"gputop-restore 3\nend 0\n",
	     "st:1: unsupported version (this gputop reads versions 1 and 2)"},
	    {"gputop-restore 12\nend 0\n",
	     "st:1: unsupported version (this gputop reads versions 1 and 2)"},
	    {HDR OK1, "st:3: truncated file: no end line"},
	    {HDR "sysfs dev=0000:03:00.0 time=1 path=/sys/a/pw",
	     "st:2: no newline at the end: truncated file"},
	    {HDR OK1 "end 2\n", "st:3: end line does not match the 1 actions "
	                        "read: truncated or edited file"},
	    {HDR OK1 "end 1\n" OK1, "st:4: data after the end line"},
	    /* newline injection through an escape */
	    {HDR "sysfs dev=0000:03:00.0 time=1 path=/sys/a/pwm1 "
	         "value=2%0Asysfs\nend 1\n",
	     "st:2: value: escaped control character %0A refused"},
	    {HDR "sysfs dev=0000:03:00.0 time=1 path=/sys/a%00/pwm1 value=2\n",
	     "st:2: path: escaped control character %00 refused"},
	    {HDR "sysfs dev=0000:03:00.0 time=1 path=/sys/a/pwm1 value=2\r\n",
	     "st:2: control character 0x0D in line"},
	    {HDR "sysfs dev=0000:03:00.0 time=1 path=/sys/a/pwm1\tvalue=2\n",
	     "st:2: control character 0x09 in line"},
	    {HDR "sysfs dev=0000:03:00.0 time=1 path=sys/a/pwm1 value=2\n",
	     "st:2: path sys/a/pwm1 is not absolute"},
	    {HDR "sysfs dev=0000:03:00.0 time=1 path=/sys/../etc/passwd "
	         "value=2\n",
	     "st:2: path /sys/../etc/passwd contains \"..\""},
	    {HDR "sysfs dev=0000:03:00.0 time=1 path=/sys/%2E%2E/etc/x "
	         "value=2\n",
	     "st:2: path /sys/../etc/x contains \"..\""},
	    {HDR "sysfs dev=0000:03:00.0 time=1 path=/etc/passwd value=x\n",
	     "st:2: path /etc/passwd is not under /sys/"},
	    {HDR "sysfs dev=0000:03:00.0 time=1 path=/sys/a/p%G0 value=2\n",
	     "st:2: path: bad %-escape"},
	    {HDR "sysfs dev=0000:03:00.0 time=1 path=/sys/a/\xc3\xa9 value=2\n",
	     "st:2: path: unescaped byte 0xC3"},
	    {HDR "sysfs dev=0000:03:00.0 time=1 path=/sys/a/pwm1\n",
	     "st:2: malformed sysfs record (expected: sysfs dev=ID "
	     "time=SECONDS path=... value=...)"},
	    {HDR "sysfs dev=0000:03:00.0 time=1 path=/sys/a/pwm1 value=2 x=1\n",
	     "st:2: malformed sysfs record (expected: sysfs dev=ID "
	     "time=SECONDS path=... value=...)"},
	    {HDR "nvml-fan-auto dev=00000000:01:00.0 time=1 mw=5\n",
	     "st:2: malformed nvml-fan-auto record (expected: nvml-fan-auto "
	     "dev=ID time=SECONDS fan=...)"},
	    {HDR "nvml-fan-auto dev=00000000:01:00.0 time=-5 fan=0\n",
	     "st:2: time: not a number of seconds"},
	    {HDR "nvml-fan-auto dev=00000000:01:00.0 time=1 fan=256\n",
	     "st:2: fan: not 0..255"},
	    {HDR "nvml-power-limit dev=00000000:01:00.0 time=1 mw=0\n",
	     "st:2: power limit of 0 mW"},
	    {HDR "nvml-power-limit dev=00000000:01:00.0 time=1 mw=4294967296\n",
	     "st:2: mw: not a number of mW"},
	    {HDR "nvml-power-limit dev=card0 time=1 mw=1\n",
	     "st:2: device id is not a PCI bus id (hex digits, ':' and '.')"},
	    {HDR "reboot dev=0 time=1\n", "st:2: unknown record"},
	    {HDR "# comment\n\n" OK1 OK1 "end 2\n",
	     "st:5: a second original for the same setting"},
	};
	struct gt_restore_journal *j = new_journal(NULL);
	char err[512];
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		strcpy(err, "unset");
		j->n = 5;
		if (gt_restore_parse(cases[i].text, strlen(cases[i].text), "st",
		                     "/sys", j, err, sizeof(err)) != -1)
			fail_msg("case %zu accepted", i);
		if (strcmp(err, cases[i].msg) != 0)
			fail_msg("case %zu: got \"%s\"", i, err);
		assert_int_equal(j->n, 0);
	}
	/* A NUL byte cannot hide the rest of a line. */
	static const char nul[] = HDR "sysfs dev=0000:03:00.0 time=1 "
	                              "path=/sys/a/pwm1 value=2\0x\nend 1\n";
	assert_int_equal(gt_restore_parse(nul, sizeof(nul) - 1, "st", "/sys", j,
	                                  err, sizeof(err)),
	                 -1);
	assert_string_equal(err, "st:2: control character 0x00 in line");
	/* An overlong line is refused, whatever it holds. */
	char *big = malloc(3 * GT_RESTORE_LINE_MAX);
	assert_non_null(big);
	snprintf(big, 3 * GT_RESTORE_LINE_MAX, HDR "%0*d\nend 0\n", 3000, 7);
	assert_int_equal(gt_restore_parse(big, strlen(big), "st", "/sys", j,
	                                  err, sizeof(err)),
	                 -1);
	assert_string_equal(err, "st:2: line longer than 2047 bytes");
	/* An overlong field in a line of legal length is malformed, never
	 * cut to a shorter (other) path. */
	snprintf(big, 3 * GT_RESTORE_LINE_MAX,
	         HDR "sysfs dev=0000:03:00.0 time=1 path=/sys/%0*d value=2\n"
	             "end 1\n",
	         800, 7);
	assert_int_equal(gt_restore_parse(big, strlen(big), "st", "/sys", j,
	                                  err, sizeof(err)),
	                 -1);
	assert_string_equal(err, "st:2: malformed sysfs record (expected: "
	                         "sysfs dev=ID time=SECONDS path=... "
	                         "value=...)");
	snprintf(big, 3 * GT_RESTORE_LINE_MAX,
	         HDR "sysfs dev=0000:03:00.0 time=1 path=/sys/%0*d value=2\n"
	             "end 1\n",
	         300, 7);
	assert_int_equal(gt_restore_parse(big, strlen(big), "st", "/sys", j,
	                                  err, sizeof(err)),
	                 -1);
	assert_string_equal(err, "st:2: path: too long");
	free(big);
	/* Comments, blank lines and an empty journal are fine. */
	assert_int_equal(gt_restore_parse("# x\n\n" HDR "end 0\n# y\n", 32,
	                                  "st", "/sys", j, err, sizeof(err)),
	                 0);
	assert_int_equal(j->n, 0);
	free(j);
#undef HDR
#undef OK1
}

/* Version 1 (no vendor=) still loads: the nvml-* and amd-* records get
 * their kind's vendor, the sysfs ones none, which the control finds; such
 * a journal is not written back until every record has one. */
static void test_version1_loads(void **state)
{
	struct gt_restore_journal *j = sample(), *back = new_journal(NULL);
	char buf[4096], err[256] = "";
	(void)state;

	assert_int_equal(gt_restore_parse(sample_text_v1,
	                                  strlen(sample_text_v1), "v1", "/sys",
	                                  back, err, sizeof(err)),
	                 0);
	assert_int_equal(back->n, 6);
	assert_string_equal(back->a[0].vendor, "");
	assert_string_equal(back->a[1].vendor, "");
	assert_string_equal(back->a[2].vendor, "nvml");
	assert_string_equal(back->a[3].vendor, "nvml");
	assert_string_equal(back->a[4].vendor, "nvml");
	assert_string_equal(back->a[5].vendor, "amdgpu");
	assert_int_equal(
	    gt_restore_format(back, buf, sizeof(buf), err, sizeof(err)), -1);
	assert_string_equal(err, "action 1: no vendor (a version-1 record that "
	                         "no vendor claims)");
	/* Claimed (as the control does), it is written as version 2. */
	strcpy(back->a[0].vendor, "amdgpu");
	strcpy(back->a[1].vendor, "amdgpu");
	assert_same_journal(j, back);
	assert_int_equal(
	    gt_restore_format(back, buf, sizeof(buf), err, sizeof(err)),
	    (int)strlen(sample_text));
	assert_string_equal(buf, sample_text);
	free(j);
	free(back);
}

/* What version 2 adds is checked as strictly as the rest. */
static void test_vendor_refusals(void **state)
{
#define HDR2 "gputop-restore 2\n"
	static const struct {
		const char *text, *msg;
	} cases[] = {
	    {HDR2 "sysfs dev=0000:03:00.0 time=1 path=/sys/a/pwm1 value=2\n",
	     "st:2: malformed sysfs record (expected: sysfs vendor=NAME "
	     "dev=ID time=SECONDS path=... value=...)"},
	    {HDR2 "nvml-fan-auto vendor=nvml  dev=00000000:01:00.0 time=1 "
	          "fan=0\n",
	     "st:2: malformed nvml-fan-auto record (expected: nvml-fan-auto "
	     "vendor=NAME dev=ID time=SECONDS fan=...)"},
	    {HDR2 "sysfs vendor= dev=0000:03:00.0 time=1 path=/sys/a/pwm1 "
	          "value=2\n",
	     "st:2: malformed sysfs record (expected: sysfs vendor=NAME "
	     "dev=ID time=SECONDS path=... value=...)"},
	    {HDR2 "sysfs vendor=AMD dev=0000:03:00.0 time=1 path=/sys/a/pwm1 "
	          "value=2\n",
	     "st:2: vendor is not a name (lower-case letters and digits)"},
	    {HDR2 "sysfs vendor=amd%41 dev=0000:03:00.0 time=1 "
	          "path=/sys/a/pwm1 value=2\n",
	     "st:2: vendor is not a name (lower-case letters and digits)"},
	    {HDR2 "sysfs vendor=abcdefghijklmnop dev=0000:03:00.0 time=1 "
	          "path=/sys/a/pwm1 value=2\n",
	     "st:2: vendor: too long"},
	    {HDR2 "nvml-power-limit vendor=amdgpu dev=00000000:01:00.0 time=1 "
	          "mw=1\n",
	     "st:2: nvml-power-limit records are nvml's, not \"amdgpu\"'s"},
	    {HDR2 "amd-fan-curve-reset vendor=intel dev=0000:03:00.0 time=1 "
	          "path=/sys/a\n",
	     "st:2: amd-fan-curve-reset records are amdgpu's, not \"intel\"'s"},
	};
	struct gt_restore_journal *j = new_journal(NULL);
	struct gt_restore_action a;
	char err[512];
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		strcpy(err, "unset");
		if (gt_restore_parse(cases[i].text, strlen(cases[i].text), "st",
		                     "/sys", j, err, sizeof(err)) != -1)
			fail_msg("case %zu accepted", i);
		if (strcmp(err, cases[i].msg) != 0)
			fail_msg("case %zu: got \"%s\"", i, err);
		assert_int_equal(j->n, 0);
	}
	/* A vendor of fifteen characters is the longest that fits. */
	static const char longest[] =
	    HDR2 "sysfs vendor=abcdefghijklmno dev=0000:03:00.0 time=1 "
	         "path=/sys/a/pwm1 value=2\nend 1\n";
	assert_int_equal(gt_restore_parse(longest, strlen(longest), "st",
	                                  "/sys", j, err, sizeof(err)),
	                 0);
	assert_string_equal(j->a[0].vendor, "abcdefghijklmno");
	/* The builders: a sysfs write names its vendor, the others are
	 * their kind's, and a name that does not fit is refused. */
	assert_int_equal(gt_restore_action_sysfs(&a, "abcdefghijklmnop", DEV,
	                                         "/sys/a/pwm1", "2", T0),
	                 -1);
	assert_int_equal(
	    gt_restore_action_sysfs(&a, NULL, DEV, "/sys/a/pwm1", "2", T0), -1);
	assert_int_equal(gt_restore_action_power_limit(&a, NV, 1, T0), 0);
	assert_string_equal(a.vendor, "nvml");
	strcpy(a.vendor, "intel");
	expect_note_refused(j, &a,
	                    "nvml-power-limit records are nvml's, not "
	                    "\"intel\"'s");
	free(j);
#undef HDR2
}

static void write_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, mode), 0);
}

static void test_load_file_checks(void **state)
{
	struct gt_restore_journal *j = new_journal(NULL);
	char err[512], path[128], want[256], link[160];
	const char *tmpdir = *state;

	snprintf(path, sizeof(path), "%s/missing.state", tmpdir);
	errno = 0;
	assert_int_equal(gt_restore_load(path, NULL, j, err, sizeof(err)), -1);
	assert_int_equal(errno, ENOENT);

	/* Line numbers name the file. Root is a parameter (fixture trees). */
	snprintf(path, sizeof(path), "%s/fixture.state", tmpdir);
	write_file(path,
	           "gputop-restore 1\nsysfs dev=0000:03:00.0 time=1 "
	           "path=/srv/fix/sys/card0/pwm1 value=2\nend 1\n",
	           0600);
	assert_int_equal(
	    gt_restore_load(path, "/srv/fix/sys", j, err, sizeof(err)), 0);
	assert_int_equal(j->n, 1);
	assert_int_equal(gt_restore_load(path, NULL, j, err, sizeof(err)), -1);
	snprintf(want, sizeof(want),
	         "%s:2: path /srv/fix/sys/card0/pwm1 is not under /sys/", path);
	assert_string_equal(err, want);
	assert_int_equal(j->n, 0);

	/* Writable by others: someone else could have planted it. */
	assert_int_equal(chmod(path, 0622), 0);
	assert_int_equal(
	    gt_restore_load(path, "/srv/fix/sys", j, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "refused: not a regular file of this "
	                            "user that only its owner can write"));
	assert_int_equal(chmod(path, 0600), 0);
	if (geteuid() == 0) { /* only root can give a file away */
		assert_int_equal(chown(path, 65534, 65534), 0);
		assert_int_equal(
		    gt_restore_load(path, "/srv/fix/sys", j, err, sizeof(err)),
		    -1);
		assert_non_null(strstr(err, "(owner 65534, mode 600)"));
		assert_int_equal(chown(path, 0, 0), 0);
	}
	/* Symlinks and FIFOs are not followed or waited on. */
	snprintf(link, sizeof(link), "%s/link.state", tmpdir);
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(
	    gt_restore_load(link, "/srv/fix/sys", j, err, sizeof(err)), -1);
	snprintf(link, sizeof(link), "%s/fifo.state", tmpdir);
	assert_int_equal(mkfifo(link, 0600), 0);
	assert_int_equal(
	    gt_restore_load(link, "/srv/fix/sys", j, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "refused: not a regular file"));
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
	struct gt_restore_ops ops = {&f, fake_restore};
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
	struct gt_restore_ops ops = {&f, fake_restore};
	struct gt_restore_ops none = {&f, NULL};
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

static void test_clear(void **state)
{
	struct gt_restore_journal *j = sample();
	char err[256], path[128];
	struct stat st;
	const char *tmpdir = *state;

	snprintf(path, sizeof(path), "%s/clear/restore.state", tmpdir);
	assert_int_equal(gt_restore_save(j, path, err, sizeof(err)), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(gt_restore_clear(path), 0);
	assert_int_equal(stat(path, &st), -1);
	assert_int_equal(gt_restore_clear(path), 0); /* already gone: fine */
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
	    cmocka_unit_test(test_format_and_round_trip),
	    cmocka_unit_test(test_save_is_atomic_and_private),
	    cmocka_unit_test(test_parse_refusals),
	    cmocka_unit_test(test_version1_loads),
	    cmocka_unit_test(test_vendor_refusals),
	    cmocka_unit_test(test_load_file_checks),
	    cmocka_unit_test(test_apply_order_and_failures),
	    cmocka_unit_test(test_apply_refuses_and_reports),
	    cmocka_unit_test(test_clear),
	    cmocka_unit_test(test_default_path),
	};
	return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}

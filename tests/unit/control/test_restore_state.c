/* SPDX-License-Identifier: MIT */
/*
 * test_restore_state.c - tests of the restore journal's state file
 * (src/control/restore.c): its exact text (version 2, each record with
 * its vendor) and round trip, version 1 still read, atomic and private
 * saves, hostile state files refused with file:line messages, the checks
 * on the file itself (a symbolic link refused, saying so), and clear. Noting
 * and applying the journal are test_restore.c's.
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
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "control/restore.h"

#include "support/restore_test.h"

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
	assert_non_null(strstr(err, "public: refused: others may write the "
	                            "state directory"));
	assert_non_null(strstr(err, "mode 777"));
	assert_int_equal(count_entries(dir), 0);
	free(j);
	free(back);
}

#define HDR "gputop-restore 1\n"
#define OK1 "sysfs dev=0000:03:00.0 time=1 path=/sys/a/pwm1 value=2\n"

/* Hostile or damaged state files, each refused whole with this
 * file:line message. */
static const struct {
	const char *text, *msg;
} parse_cases[] = {
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

/* Hostile or damaged state files: each refused whole, with file:line. */
static void test_parse_refusals(void **state)
{
	struct gt_restore_journal *j = new_journal(NULL);
	char err[512];
	(void)state;

	for (size_t i = 0; i < sizeof(parse_cases) / sizeof(parse_cases[0]);
	     i++) {
		strcpy(err, "unset");
		j->n = 5;
		if (gt_restore_parse(parse_cases[i].text,
		                     strlen(parse_cases[i].text), "st", "/sys",
		                     j, err, sizeof(err)) != -1)
			fail_msg("case %zu accepted", i);
		if (strcmp(err, parse_cases[i].msg) != 0)
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
	/* Symlinks and FIFOs are not followed or waited on (the link's
	 * message is test_state_link_refused's). */
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

/* The state file's directory is checked on load as on save: a journal
 * in a directory others may write (sticky or not) could have been swapped
 * in, whoever owns the file. The message names the directory and the
 * fix. */
static void test_load_dir_checks(void **state)
{
	struct gt_restore_journal *j = sample(), *back = new_journal(NULL);
	char err[512] = "", dir[128], path[160], fix[160];
	const mode_t refused[] = {0777, 01777, 0775, 0722};
	const char *tmpdir = *state;

	snprintf(dir, sizeof(dir), "%s/loaddir", tmpdir);
	snprintf(path, sizeof(path), "%s/restore.state", dir);
	snprintf(fix, sizeof(fix), "run chmod go-w %s", dir);
	assert_int_equal(gt_restore_save(j, path, err, sizeof(err)), 0);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		assert_int_equal(chmod(dir, refused[i]), 0);
		assert_int_equal(
		    gt_restore_load(path, NULL, back, err, sizeof(err)), -1);
		assert_non_null(strstr(err, dir));
		assert_non_null(strstr(err, "others may write the state "
		                            "directory"));
		assert_non_null(strstr(err, fix));
		assert_int_equal(back->n, 0);
	}
	assert_int_equal(chmod(dir, 0755), 0); /* others may read: fine */
	assert_int_equal(gt_restore_load(path, NULL, back, err, sizeof(err)),
	                 0);
	assert_same_journal(j, back);
	if (geteuid() == 0) { /* only root can give a directory away */
		assert_int_equal(chown(dir, 65534, 65534), 0);
		assert_int_equal(
		    gt_restore_load(path, NULL, back, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "belongs to user 65534"));
		assert_int_equal(back->n, 0);
		assert_int_equal(chown(dir, 0, 0), 0);
	}
	/* A bare name lies in the current directory, which is checked. */
	assert_int_equal(chmod(dir, 0777), 0);
	char cwd[PATH_MAX];
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	assert_int_equal(
	    gt_restore_load("restore.state", NULL, back, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "run chmod go-w ."));
	assert_int_equal(chdir(cwd), 0);
	assert_int_equal(chmod(dir, 0700), 0);
	free(j);
	free(back);
}

/* A state file that is a symbolic link is refused by save and load alike,
 * with a message that says so and what to do, not ELOOP's "Too many
 * levels of symbolic links"; the link and the file it names stay as they
 * were, a dangling link too. */
static void test_state_link_refused(void **state)
{
	struct gt_restore_journal *j = sample(), *back = new_journal(NULL);
	char err[512] = "", dir[128], path[160], link[160], want[512];
	char target[160];
	struct stat st;
	const char *tmpdir = *state;

	snprintf(dir, sizeof(dir), "%s/linkdir", tmpdir);
	snprintf(path, sizeof(path), "%s/real.state", dir);
	snprintf(link, sizeof(link), "%s/restore.state", dir);
	snprintf(want, sizeof(want),
	         "%s is a symbolic link; gputop refuses it so that a link "
	         "cannot redirect the restore (put the file it points to in "
	         "its place, or remove the link)",
	         link);
	assert_int_equal(gt_restore_save(j, path, err, sizeof(err)), 0);
	assert_int_equal(symlink(path, link), 0);

	errno = 0;
	assert_int_equal(gt_restore_load(link, NULL, back, err, sizeof(err)),
	                 -1);
	assert_int_equal(errno, ELOOP);
	assert_string_equal(err, want);
	assert_int_equal(back->n, 0);

	j->n = 2;
	err[0] = '\0';
	assert_int_equal(gt_restore_save(j, link, err, sizeof(err)), -1);
	assert_string_equal(err, want);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode)); /* not replaced by a file */
	assert_int_equal(gt_restore_load(path, NULL, back, err, sizeof(err)),
	                 0);
	assert_int_equal(back->n, 6); /* the file it names is untouched */

	/* Dangling: refused the same, and nothing made where it points. */
	snprintf(target, sizeof(target), "%s/nowhere.state", dir);
	assert_int_equal(unlink(link), 0);
	assert_int_equal(symlink(target, link), 0);
	assert_int_equal(gt_restore_load(link, NULL, back, err, sizeof(err)),
	                 -1);
	assert_string_equal(err, want);
	assert_int_equal(gt_restore_save(j, link, err, sizeof(err)), -1);
	assert_string_equal(err, want);
	assert_int_equal(lstat(target, &st), -1);
	free(j);
	free(back);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_format_and_round_trip),
	    cmocka_unit_test(test_save_is_atomic_and_private),
	    cmocka_unit_test(test_parse_refusals),
	    cmocka_unit_test(test_version1_loads),
	    cmocka_unit_test(test_vendor_refusals),
	    cmocka_unit_test(test_load_file_checks),
	    cmocka_unit_test(test_load_dir_checks),
	    cmocka_unit_test(test_state_link_refused),
	    cmocka_unit_test(test_clear),
	};
	return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}

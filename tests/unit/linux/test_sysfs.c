/* SPDX-License-Identifier: MIT */
/*
 * test_sysfs.c - the one hwmon lookup of the amdgpu and Intel backends
 * (gt_sysfs_hwmon_dir, src/linux/sysfs.c): the lowest-numbered hwmonN
 * wins whatever the directory order, only hwmonN names count, the filter
 * passes over what it refuses, and a device without hwmon, or an output
 * too small for the path, gives "" and an error.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linux/sysfs.h"

struct tree {
	char root[64];
};

static void put(const struct tree *t, const char *rel, const char *text)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", t->root, rel);
	for (char *s = strchr(path + strlen(t->root) + 1, '/'); s;
	     s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));
	if (!t)
		return -1;
	snprintf(t->root, sizeof(t->root), "/tmp/gputop-sysfs-XXXXXX");
	if (!mkdtemp(t->root)) {
		free(t);
		return -1;
	}
	*state = t;
	return 0;
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *f)
{
	(void)sb;
	(void)flag;
	(void)f;
	return remove(p);
}

static int teardown(void **state)
{
	struct tree *t = *state;
	int rc = nftw(t->root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(t);
	return rc;
}

/* Only the Intel card's own hwmon, not a per-GT one. */
static bool named_card(const char *dir)
{
	char name[32];
	return gt_sysfs_read(dir, "name", name, sizeof(name)) > 0 &&
	       strcmp(name, "card") == 0;
}

static void test_lowest_wins(void **state)
{
	struct tree *t = *state;
	char out[PATH_MAX], want[PATH_MAX];

	put(t, "hwmon/hwmon12/name", "gt");
	put(t, "hwmon/hwmon3/name", "card");
	put(t, "hwmon/hwmon7/name", "card");
	put(t, "hwmon/hwmon1x/name", "card"); /* not a hwmonN name */
	put(t, "hwmon/other/name", "card");
	assert_int_equal(gt_sysfs_hwmon_dir(t->root, NULL, out, sizeof(out)),
	                 0);
	snprintf(want, sizeof(want), "%s/hwmon/hwmon3", t->root);
	assert_string_equal(out, want);

	/* The filter: hwmon3 and hwmon7 are "card", the lower one wins. */
	put(t, "hwmon/hwmon2/name", "gt");
	assert_int_equal(
	    gt_sysfs_hwmon_dir(t->root, named_card, out, sizeof(out)), 0);
	assert_string_equal(out, want);
	assert_int_equal(gt_sysfs_hwmon_dir(t->root, NULL, out, sizeof(out)),
	                 0);
	snprintf(want, sizeof(want), "%s/hwmon/hwmon2", t->root);
	assert_string_equal(out, want);
}

static void test_none(void **state)
{
	struct tree *t = *state;
	char out[PATH_MAX], small[8];

	memset(out, 'Z', sizeof(out));
	assert_int_equal(gt_sysfs_hwmon_dir(t->root, NULL, out, sizeof(out)),
	                 -ENOENT);
	assert_string_equal(out, "");
	put(t, "hwmon/hwmon0/name", "gt");
	assert_int_equal(
	    gt_sysfs_hwmon_dir(t->root, named_card, out, sizeof(out)), -ENOENT);
	assert_string_equal(out, "");
	/* Found, but the path does not fit: nothing half-written. */
	assert_int_equal(
	    gt_sysfs_hwmon_dir(t->root, NULL, small, sizeof(small)),
	    -ENAMETOOLONG);
	assert_string_equal(small, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_lowest_wins, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_none, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * test_theme_dirs.c - tests of src/ui/theme_dirs.c: the theme search path
 * (--themes-dir, XDG_CONFIG_HOME or $HOME/.config, gputop's then btop's
 * directories), the first directory holding a theme winning, find's
 * errors, and the listing of theme names in case-insensitive order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>
#include <errno.h>
#include <sys/stat.h>

#include "ui/theme.h"

#include "support/theme_test.h"

/* As in theme_dirs.c when the Makefile does not define it. */
#ifndef GPUTOP_DATADIR
#define GPUTOP_DATADIR "/usr/local/share/gputop"
#endif

static void mkdirs(const char *path)
{
	char buf[4096];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(buf, 0755);
			*p = '/';
		}
	}
	if (mkdir(buf, 0755) != 0 && errno != EEXIST)
		fail_msg("mkdir %s: %s", buf, strerror(errno));
}

/* Sets or unsets an environment variable. */
static void set_env(const char *name, const char *value)
{
	if (value)
		assert_int_equal(setenv(name, value, 1), 0);
	else
		assert_int_equal(unsetenv(name), 0);
}

static char *dup_env(const char *name)
{
	const char *v = getenv(name);

	return v ? strdup(v) : NULL;
}

static void test_search_order(void **state)
{
	char base[200], p[1024], opt[256], xg[300], xb[300], hg[300], hb[300];
	char out[1024], xdg[256], home[256];
	char *old_xdg = dup_env("XDG_CONFIG_HOME"), *old_home = dup_env("HOME");
	struct gt_theme_dirs d;

	(void)state;
	make_tmpdir(base, sizeof(base));
	snprintf(opt, sizeof(opt), "%s/opt", base);
	snprintf(xdg, sizeof(xdg), "%s/xdg", base);
	snprintf(home, sizeof(home), "%s/home", base);
	snprintf(xg, sizeof(xg), "%s/gputop/themes", xdg);
	snprintf(xb, sizeof(xb), "%s/btop/themes", xdg);
	snprintf(hg, sizeof(hg), "%s/.config/gputop/themes", home);
	snprintf(hb, sizeof(hb), "%s/.config/btop/themes", home);
	mkdirs(opt);
	mkdirs(xg);
	mkdirs(xb);
	mkdirs(hg);
	mkdirs(hb);
	set_env("XDG_CONFIG_HOME", xdg);
	set_env("HOME", home);

	gt_theme_search_dirs(opt, &d);
	assert_int_equal(d.n, 6);
	assert_string_equal(d.dir[0], opt);
	assert_string_equal(d.dir[1], xg);
	assert_string_equal(d.dir[2], xb);
	assert_string_equal(d.dir[3], GPUTOP_DATADIR "/themes");
	assert_string_equal(d.dir[4], "/usr/local/share/btop/themes");
	assert_string_equal(d.dir[5], "/usr/share/btop/themes");

	/* the first directory holding the file wins */
#define PUT(dir, file)                                                         \
	(snprintf(p, sizeof(p), "%s/%s", dir, file), write_file(p, ""))
	PUT(opt, "gtzz-a.theme");
	PUT(xg, "gtzz-a.theme");
	PUT(xg, "gtzz-b.theme");
	PUT(xb, "gtzz-b.theme");
	PUT(xb, "gtzz-c.theme");
	PUT(hb, "gtzz-d.theme");
	snprintf(p, sizeof(p), "%s/gtzz-e.theme", opt);
	mkdirs(p); /* a directory is not a theme */
	PUT(xb, "gtzz-e.theme");
#define FOUND_IN(name, dir)                                                    \
	do {                                                                   \
		assert_int_equal(gt_theme_find(name, opt, out, sizeof(out)),   \
		                 0);                                           \
		snprintf(p, sizeof(p), "%s/%s", dir, "");                      \
		assert_memory_equal(out, p, strlen(p));                        \
	} while (0)
	FOUND_IN("gtzz-a", opt);
	FOUND_IN("gtzz-a.theme", opt);
	FOUND_IN("gtzz-b", xg);
	FOUND_IN("gtzz-c", xb);
	FOUND_IN("gtzz-e", xb);
	assert_string_equal(strrchr(out, '/'), "/gtzz-e.theme");
	/* without --themes-dir, gtzz-a comes from the XDG gputop dir */
	assert_int_equal(gt_theme_find("gtzz-a", NULL, out, sizeof(out)), 0);
	assert_memory_equal(out, xg, strlen(xg));
	errno = 0;
	assert_int_equal(gt_theme_find("gtzz-d", opt, out, sizeof(out)), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(gt_theme_find("", opt, out, sizeof(out)), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(gt_theme_find("gtzz-a", opt, out, 8), -1);
	assert_int_equal(errno, ENAMETOOLONG);
	/* a path is taken as given */
	snprintf(p, sizeof(p), "%s/gtzz-c.theme", xb);
	assert_int_equal(gt_theme_find(p, NULL, out, sizeof(out)), 0);
	assert_string_equal(out, p);

	/* XDG_CONFIG_HOME unset, or relative: $HOME/.config is used */
	set_env("XDG_CONFIG_HOME", NULL);
	gt_theme_search_dirs(NULL, &d);
	assert_string_equal(d.dir[0], hg);
	assert_string_equal(d.dir[1], hb);
	FOUND_IN("gtzz-d", hb);
	set_env("XDG_CONFIG_HOME", "relative/dir");
	gt_theme_search_dirs("", &d);
	assert_int_equal(d.n, 5);
	assert_string_equal(d.dir[0], hg);
#undef FOUND_IN
#undef PUT

	set_env("XDG_CONFIG_HOME", old_xdg);
	set_env("HOME", old_home);
	free(old_xdg);
	free(old_home);
	rm_tree(base);
}

static void test_list_names(void **state)
{
	char base[256], p[1024];
	char names[8][GT_THEME_NAME_MAX];
	struct gt_theme_dirs d = {0};
	static const char *const files[] = {
	    "a1/b.theme",       "a1/A.theme",  "a1/c.theme",  "a1/notes.txt",
	    "a1/.hidden.theme", "a1/.theme",   "a1/x.themes", "a2/a.theme",
	    "a2/b.theme",       "a2/Zed.theme"};

	(void)state;
	make_tmpdir(base, sizeof(base));
	snprintf(d.dir[0], sizeof(d.dir[0]), "%s/a1", base);
	snprintf(d.dir[1], sizeof(d.dir[1]), "%s/a2", base);
	snprintf(d.dir[2], sizeof(d.dir[2]), "%s/missing", base);
	d.n = 3;
	mkdirs(d.dir[0]);
	mkdirs(d.dir[1]);
	snprintf(p, sizeof(p), "%s/a2/d.theme", base);
	mkdirs(p); /* a directory, not a theme */
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", base, files[i]);
		write_file(p, "");
	}
	/* case-insensitive order: bytewise, "Zed" would come second */
	assert_int_equal(gt_theme_list_in(&d, names, 8), 5);
	assert_string_equal(names[0], "A");
	assert_string_equal(names[1], "a");
	assert_string_equal(names[2], "b");
	assert_string_equal(names[3], "c");
	assert_string_equal(names[4], "Zed");
	assert_int_equal(gt_theme_list_in(&d, names, 2), 2);
	assert_string_equal(names[0], "A");
	assert_string_equal(names[1], "a");
	assert_int_equal(gt_theme_list_in(&d, names, 0), 0);

	/* through the search path: --themes-dir's names are in the list */
	{
		char big[256][GT_THEME_NAME_MAX];
		int n = gt_theme_list(d.dir[0], big, 256), seen = 0;

		for (int i = 0; i < n; i++) {
			if (i > 0)
				assert_true(strcasecmp(big[i - 1], big[i]) <=
				            0);
			seen += strcmp(big[i], "A") == 0 ||
			        strcmp(big[i], "c") == 0;
		}
		assert_int_equal(seen, 2);
	}
	rm_tree(base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_search_order),
	    cmocka_unit_test(test_list_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * test_theme_dirs.c - tests of src/ui/theme_dirs.c: the theme search path
 * (--themes-dir, XDG_CONFIG_HOME or $HOME/.config, gputop's then btop's
 * directories, the themes beside the executable: installed, or in the
 * checkout it was built in), the first directory holding a theme winning,
 * find's errors, names and paths of any length, and the listing of theme
 * names in case-insensitive order.
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
#include <unistd.h>

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

	gt_theme_search_dirs_exe(opt, NULL, &d);
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
	gt_theme_search_dirs_exe(NULL, NULL, &d);
	assert_string_equal(d.dir[0], hg);
	assert_string_equal(d.dir[1], hb);
	FOUND_IN("gtzz-d", hb);
	set_env("XDG_CONFIG_HOME", "relative/dir");
	gt_theme_search_dirs_exe("", NULL, &d);
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

/* The index of dir in d, -1 when it is not there. */
static int dir_index(const struct gt_theme_dirs *d, const char *dir)
{
	for (int i = 0; i < d->n; i++)
		if (strcmp(d->dir[i], dir) == 0)
			return i;
	return -1;
}

static void test_exe_dirs(void **state)
{
	char base[200], p[1024], exe[1024], src[512], themes[512];
	char *old_xdg = dup_env("XDG_CONFIG_HOME");
	static struct gt_theme_dirs d;

	(void)state;
	make_tmpdir(base, sizeof(base));
	set_env("XDG_CONFIG_HOME", "/nonexistent-xdg");
	/* a checkout: themes/ beside src/main.c */
	snprintf(src, sizeof(src), "%s/co/src", base);
	snprintf(themes, sizeof(themes), "%s/co/themes", base);
	mkdirs(src);
	mkdirs(themes);
	snprintf(p, sizeof(p), "%s/main.c", src);
	write_file(p, "");

	/* build/gputop, build/NAME/gputop, build/a/b/gputop and the
	 * checkout itself all find it, after the user's directories and
	 * before the installed ones */
	static const char *const at[] = {"build/gputop", "build/th/gputop",
	                                 "build/a/b/gputop", "gputop"};
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		snprintf(exe, sizeof(exe), "%s/co/%s", base, at[i]);
		gt_theme_search_dirs_exe("/opt-dir", exe, &d);
		if (dir_index(&d, themes) != 3)
			fail_msg("%s: checkout themes at %d", at[i],
			         dir_index(&d, themes));
		assert_string_equal(d.dir[4], GPUTOP_DATADIR "/themes");
	}
	/* four folders up is too far to be the checkout's build */
	snprintf(exe, sizeof(exe), "%s/co/a/b/c/d/gputop", base);
	gt_theme_search_dirs_exe(NULL, exe, &d);
	assert_int_equal(dir_index(&d, themes), -1);
	/* a themes/ folder alone is not a checkout */
	assert_int_equal(unlink(p), 0);
	snprintf(exe, sizeof(exe), "%s/co/build/gputop", base);
	gt_theme_search_dirs_exe(NULL, exe, &d);
	assert_int_equal(dir_index(&d, themes), -1);

	/* installed in PREFIX/bin: PREFIX/share/gputop/themes, moved
	 * installs included */
	snprintf(exe, sizeof(exe), "%s/prefix/bin/gputop", base);
	snprintf(p, sizeof(p), "%s/prefix/share/gputop/themes", base);
	gt_theme_search_dirs_exe(NULL, exe, &d);
	assert_int_equal(dir_index(&d, p), 2);
	/* not in a bin folder: no such guess */
	snprintf(exe, sizeof(exe), "%s/prefix/libexec/gputop", base);
	gt_theme_search_dirs_exe(NULL, exe, &d);
	assert_int_equal(d.n, 5);
	/* relative or no executable: the other places only */
	gt_theme_search_dirs_exe(NULL, "build/gputop", &d);
	assert_int_equal(d.n, 5);
	/* installed where DATADIR says (PREFIX/bin/gputop): listed once */
	{
		char prefix[512];
		size_t n = strlen(GPUTOP_DATADIR),
		       tail = strlen("/share/gputop");

		assert_true(n > tail);
		assert_string_equal(&GPUTOP_DATADIR[n - tail], "/share/gputop");
		snprintf(prefix, sizeof(prefix), "%.*s", (int)(n - tail),
		         GPUTOP_DATADIR);
		snprintf(exe, sizeof(exe), "%s/bin/gputop", prefix);
		gt_theme_search_dirs_exe(NULL, exe, &d);
		assert_int_equal(d.n, 5);
		assert_int_equal(dir_index(&d, GPUTOP_DATADIR "/themes"), 2);
	}

	/* gt_theme_search_dirs is this for /proc/self/exe */
	{
		char self[4096];
		static struct gt_theme_dirs a, b;
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

		assert_true(n > 0);
		self[n] = '\0';
		gt_theme_search_dirs("/opt-dir", &a);
		gt_theme_search_dirs_exe("/opt-dir", self, &b);
		assert_int_equal(a.n, b.n);
		for (int i = 0; i < a.n; i++)
			assert_string_equal(a.dir[i], b.dir[i]);
	}
	set_env("XDG_CONFIG_HOME", old_xdg);
	free(old_xdg);
	rm_tree(base);
}

/* Names and paths longer than 63 bytes (21 of the 52 btop fixtures have
 * such a path in a checkout) are found, listed and loaded whole. */
static void test_long_names_and_paths(void **state)
{
	char base[200], deep[3000], name[250], p[4096], out[4096];
	struct gt_theme_dirs d = {0};
	static char names[4][GT_THEME_NAME_MAX];
	struct gt_theme t;
	char err[256];

	(void)state;
	make_tmpdir(base, sizeof(base));
	/* a directory path of about 2000 bytes */
	int k = snprintf(deep, sizeof(deep), "%s", base);
	while (k < 2000)
		k += snprintf(deep + k, sizeof(deep) - (size_t)k,
		              "/a-rather-long-folder-name-%d", k);
	mkdirs(deep);
	/* a 240-byte name: a file name can hold it with ".theme" */
	memset(name, 'n', 240);
	name[240] = '\0';
	name[0] = 'L';
	snprintf(p, sizeof(p), "%s/%s.theme", deep, name);
	write_file(p, "theme[main_bg]=\"#123456\"\n");

	gt_theme_search_dirs_exe(deep, NULL, &d);
	assert_string_equal(d.dir[0], deep);
	assert_int_equal(gt_theme_find_in(&d, name, out, sizeof(out)), 0);
	assert_string_equal(out, p);
	assert_int_equal(gt_theme_list_in(&d, names, 4) >= 1, 1);
	assert_string_equal(names[0], name);
	/* by path, as given */
	assert_int_equal(gt_theme_find_in(&d, p, out, sizeof(out)), 0);
	assert_string_equal(out, p);
	assert_int_equal(gt_theme_load_file(out, &t, err, sizeof(err)), 0);
	assert_string_equal(t.name, name);
	RGB_EQ(t.rgb[GT_TK_MAIN_BG], 0x123456);
	/* longer than any file name: not found, not cut and then found */
	char toolong[400];
	memset(toolong, 'n', sizeof(toolong) - 1);
	toolong[sizeof(toolong) - 1] = '\0';
	errno = 0;
	assert_int_equal(gt_theme_find_in(&d, toolong, out, sizeof(out)), -1);
	assert_int_equal(errno, ENOENT);
	rm_tree(base);
}

static void test_list_names(void **state)
{
	char base[256], p[1024];
	static char names[8][GT_THEME_NAME_MAX];
	static struct gt_theme_dirs d;
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
		static char big[256][GT_THEME_NAME_MAX];
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
	    cmocka_unit_test(test_exe_dirs),
	    cmocka_unit_test(test_long_names_and_paths),
	    cmocka_unit_test(test_list_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

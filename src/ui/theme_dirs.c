/* SPDX-License-Identifier: MIT */
/*
 * theme_dirs.c - where theme files live: the search path (btop's theme
 * directories are on it, so themes a user already has for btop show up
 * without copying), finding one theme by name and listing them all for the
 * setup dialog. The path holds the themes that came with gputop, found
 * from the executable's own place (installed or in the checkout it was
 * built in), so `--theme midnight` works before and after `make install`.
 * Reading a file once found is theme.c's; see theme.h for the rules.
 */
#include "ui/theme.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef GPUTOP_DATADIR
#define GPUTOP_DATADIR "/usr/local/share/gputop"
#endif

/* ---- search path --------------------------------------------------------- */

__attribute__((format(printf, 2, 3))) static void
gt_add_dir(struct gt_theme_dirs *d, const char *fmt, ...)
{
	char buf[GT_THEME_DIR_MAX];
	va_list ap;
	int n;

	if (d->n >= GT_THEME_MAX_DIRS)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n <= 0 || (size_t)n >= sizeof(buf))
		return; /* too long to be usable: leave it out */
	for (int i = 0; i < d->n; i++)
		if (strcmp(d->dir[i], buf) == 0)
			return;
	memcpy(d->dir[d->n++], buf, (size_t)n + 1);
}

static bool gt_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool gt_is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Cuts path's last component ("/a/b/c" -> "/a/b", "/a" -> ""); false
 * when there is none left to cut. */
static bool gt_parent(char *path)
{
	char *slash = strrchr(path, '/');

	if (!slash || !path[0])
		return false;
	*slash = '\0';
	return true;
}

/* Step 4 of the search path (see theme.h): the themes that came with the
 * executable, installed beside it or in the checkout it was built in. */
static void gt_add_exe_dirs(struct gt_theme_dirs *d, const char *exe)
{
	char dir[GT_THEME_DIR_MAX], probe[GT_THEME_DIR_MAX + 16];
	size_t n = exe ? strlen(exe) : 0;

	if (n == 0 || exe[0] != '/' || n >= sizeof(dir))
		return;
	memcpy(dir, exe, n + 1);
	if (!gt_parent(dir)) /* the executable's folder */
		return;
	char prefix[GT_THEME_DIR_MAX];

	memcpy(prefix, dir, strlen(dir) + 1);
	/* PREFIX/bin/gputop: the themes `make install` put in PREFIX. */
	if (gt_parent(prefix) && strcmp(dir + strlen(prefix), "/bin") == 0)
		gt_add_dir(d, "%s/share/gputop/themes", prefix);
	/* build/gputop, build/NAME/gputop (up to three folders up, or in the
	 * tree itself): the source tree is recognised by its themes/ beside
	 * src/main.c, so a folder that merely happens to be called themes is
	 * not taken. */
	for (int up = 0; up <= 3; up++) {
		if (up > 0 && (!gt_parent(dir) || !dir[0]))
			break;
		int k = snprintf(probe, sizeof(probe), "%s/src/main.c", dir);

		if (k < 0 || (size_t)k >= sizeof(probe) || !gt_is_file(probe))
			continue;
		snprintf(probe, sizeof(probe), "%s/themes", dir);
		if (gt_is_dir(probe)) {
			gt_add_dir(d, "%s", probe);
			break;
		}
	}
}

void gt_theme_search_dirs_exe(const char *themes_dir_opt, const char *exe,
                              struct gt_theme_dirs *out)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	static const char *const apps[] = {"gputop", "btop"};

	out->n = 0;
	if (themes_dir_opt && themes_dir_opt[0])
		gt_add_dir(out, "%s", themes_dir_opt);
	/* The XDG spec says a relative XDG_CONFIG_HOME is to be ignored. */
	for (int i = 0; i < 2; i++) {
		if (xdg && xdg[0] == '/')
			gt_add_dir(out, "%s/%s/themes", xdg, apps[i]);
		else if (home && home[0])
			gt_add_dir(out, "%s/.config/%s/themes", home, apps[i]);
	}
	gt_add_exe_dirs(out, exe);
	gt_add_dir(out, "%s", GPUTOP_DATADIR "/themes");
	gt_add_dir(out, "%s", "/usr/local/share/btop/themes");
	gt_add_dir(out, "%s", "/usr/share/btop/themes");
}

void gt_theme_search_dirs(const char *themes_dir_opt, struct gt_theme_dirs *out)
{
	char exe[GT_THEME_DIR_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	/* Without /proc (or with a path too long to read whole) the
	 * installed and user directories still work. */
	if (n <= 0 || (size_t)n >= sizeof(exe) - 1)
		n = 0;
	exe[n] = '\0';
	gt_theme_search_dirs_exe(themes_dir_opt, n ? exe : NULL, out);
}

static bool gt_readable_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	       access(path, R_OK) == 0;
}

static int gt_copy_out(char *path_out, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(path_out, src, n + 1);
	return 0;
}

int gt_theme_find_in(const struct gt_theme_dirs *dirs, const char *name,
                     char *path_out, size_t len)
{
	char cand[GT_THEME_DIR_MAX + GT_THEME_NAME_MAX + 16];
	size_t n = name ? strlen(name) : 0;

	if (n > 6 && strcmp(name + n - 6, ".theme") == 0)
		n -= 6;
	if (n == 0 || (n == 6 && strcmp(name, ".theme") == 0)) {
		errno = EINVAL;
		return -1;
	}
	if (strchr(name, '/')) {
		/* A path, as btop also accepts one: used as given. */
		if (!gt_readable_file(name)) {
			errno = ENOENT;
			return -1;
		}
		return gt_copy_out(path_out, len, name);
	}
	if (n >= GT_THEME_NAME_MAX) {
		errno = ENOENT; /* longer than any file name can be */
		return -1;
	}
	for (int i = 0; i < dirs->n; i++) {
		snprintf(cand, sizeof(cand), "%s/%.*s.theme", dirs->dir[i],
		         (int)n, name);
		if (gt_readable_file(cand))
			return gt_copy_out(path_out, len, cand);
	}
	errno = ENOENT;
	return -1;
}

int gt_theme_find(const char *name, const char *themes_dir_opt, char *path_out,
                  size_t len)
{
	struct gt_theme_dirs dirs;

	gt_theme_search_dirs(themes_dir_opt, &dirs);
	return gt_theme_find_in(&dirs, name, path_out, len);
}

/* Case-insensitive so "Nord" and "nord" sit together in the setup dialog;
 * bytewise on a tie so the order is total. */
static int gt_name_cmp(const char *a, const char *b)
{
	int c = strcasecmp(a, b);

	return c ? c : strcmp(a, b);
}

/* Inserts name into the sorted, duplicate-free names[0..n); returns the
 * new count. When full, whatever sorts last drops off. */
static int gt_insert_name(char (*names)[GT_THEME_NAME_MAX], int n, int max,
                          const char *name)
{
	int i = 0;

	while (i < n && gt_name_cmp(names[i], name) < 0)
		i++;
	if ((i < n && strcmp(names[i], name) == 0) || i >= max)
		return n;
	int last = n < max ? n : max - 1;

	memmove(names[i + 1], names[i], (size_t)(last - i) * sizeof(names[0]));
	snprintf(names[i], sizeof(names[i]), "%s", name);
	return n < max ? n + 1 : n;
}

int gt_theme_list_in(const struct gt_theme_dirs *dirs,
                     char (*names)[GT_THEME_NAME_MAX], int max)
{
	char path[GT_THEME_DIR_MAX + GT_THEME_NAME_MAX + 16];
	char stem[GT_THEME_NAME_MAX];
	int n = 0;

	if (max <= 0)
		return 0;
	for (int i = 0; i < dirs->n; i++) {
		DIR *d = opendir(dirs->dir[i]);
		struct dirent *de;

		if (!d)
			continue; /* a missing directory lists nothing */
		while ((de = readdir(d)) != NULL) {
			size_t len = strlen(de->d_name);

			if (de->d_name[0] == '.' || len <= 6 ||
			    strcmp(de->d_name + len - 6, ".theme") != 0 ||
			    len - 6 >= sizeof(stem))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dirs->dir[i],
			         de->d_name);
			if (!gt_readable_file(path))
				continue;
			memcpy(stem, de->d_name, len - 6);
			stem[len - 6] = '\0';
			n = gt_insert_name(names, n, max, stem);
		}
		closedir(d);
	}
	return n;
}

int gt_theme_list(const char *themes_dir_opt, char (*names)[GT_THEME_NAME_MAX],
                  int max)
{
	struct gt_theme_dirs dirs;

	gt_theme_search_dirs(themes_dir_opt, &dirs);
	return gt_theme_list_in(&dirs, names, max);
}

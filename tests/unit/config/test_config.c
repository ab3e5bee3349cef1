/* SPDX-License-Identifier: MIT */
/*
 * test_config.c - tests of reading and saving gputop.conf
 * (src/config/config.c): the syntax (comments, quotes, CRLF, BOM,
 * sections); problems counted; missing and unreadable files; save -> load
 * round trips; atomic saves that keep comments, unknown keys and other
 * sections; symlinks, permissions and errors; the default path. The
 * values of the keys are test_config_values.c's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>
#include <pwd.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"

#include "support/conf_test.h"
#include "support/config_test.h"

/* SPDX-License-Identifier: MIT */
/*
 * test_config.c - tests of src/config.c: defaults; every key and its
 * synonyms; the syntax (comments, quotes, CRLF, BOM, sections); every
 * malformed line reported with its line number while its setting keeps its
 * value; missing and unreadable files; save -> load round trips; atomic
 * saves that keep comments, unknown keys and other sections; symlinks,
 * permissions and errors; the default path; PCI ids.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>
#include <ftw.h>
#include <pwd.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "ui/graph.h"
#include "ui/layout.h"

#include "support/conf_test.h"

/* Entries in dir other than . and .. */
static int dir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static int count_of(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void test_missing_file(void **state)
{
	struct tmp *t = *state;
	struct gt_config c, d;
	char err[256] = "x", path[256];
	gt_config_defaults(&d);
	assert_int_equal(gt_config_load(t->path, &c, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_config_eq(&c, &d);
	snprintf(path, sizeof(path), "%s/no/such/dir/gputop.conf", t->dir);
	assert_int_equal(gt_config_load(path, &c, err, sizeof(err)), 0);
	assert_config_eq(&c, &d);
	assert_int_equal(dir_entries(t->dir), 0); /* loading creates nothing */
}

static void test_syntax(void **state)
{
	struct tmp *t = *state;
	struct gt_config c;
	char err[256];
	/* Comments, blanks, inline comments, quotes, case, no spaces. */
	assert_int_equal(
	    load_text(t,
	              "# gputop\n\n   # indented comment\n"
	              "interval=2 # two seconds\n"
	              "[Dashboard]   # the main one\n"
	              "\ttheme = \"my # theme \"  # quoted '#' is text\n"
	              "glyphs = ascii#not-a-comment-without-a-blank\n",
	              &c, err, sizeof(err)),
	    1);
	assert_int_equal(c.interval_ns, 2000000000ull);
	assert_string_equal(c.theme, "my # theme ");
	assert_int_equal(c.glyphs, -1);
	assert_non_null(strstr(err, "gputop.conf:7: unknown value 'ascii#not"));

	/* CRLF, a BOM and no final newline. */
	static const char crlf[] =
	    "\xef\xbb\xbfinterval = 4\r\n[dashboard]\r\ngraphs = no";
	write_bytes(t->path, crlf, sizeof(crlf) - 1);
	assert_int_equal(gt_config_load(t->path, &c, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(c.interval_ns, 4000000000ull);
	assert_false(c.show_graphs);

	/* Other sections are skipped (with a warning), [dashboard] resumes.
	 * ([profile NAME] sections are read: test_profile.c.) */
	assert_int_equal(
	    load_text(t,
	              "interval = 2\n[future fast]\ninterval = 9\nfan = 80\n"
	              "not a setting\n[dashboard]\ngraphs = no\n",
	              &c, err, sizeof(err)),
	    1);
	assert_string_equal(err,
	                    "gputop.conf:2: section [future fast] is not used "
	                    "by this version of gputop; it is kept as it is");
	assert_int_equal(c.interval_ns, 2000000000ull);
	assert_false(c.show_graphs);
}

static void test_problems_counted(void **state)
{
	struct tmp *t = *state;
	struct gt_config c;
	char err[512];
	/* A bad line keeps the earlier value, and loading goes on. */
	assert_int_equal(
	    load_text(t, "interval = 2\ninterval = nope\ngraphs = no\n", &c,
	              err, sizeof(err)),
	    1);
	assert_string_equal(err, "gputop.conf:2: interval must be a number of "
	                         "seconds from 0.1 to 3600, not 'nope'");
	assert_int_equal(c.interval_ns, 2000000000ull);
	assert_false(c.show_graphs);
	assert_int_equal(
	    load_text(t, "a = 1\nglyphs = x\n", &c, err, sizeof(err)), 1);
	assert_string_equal(
	    err, "gputop.conf:1: unknown key 'a' (and 1 more problem)");
	assert_int_equal(load_text(t, "\n\nx\ny\nz\n", &c, err, sizeof(err)),
	                 1);
	assert_string_equal(err,
	                    "gputop.conf:3: expected 'key = value', a "
	                    "[section] or a # comment (and 2 more problems)");
	/* A line too long to be a setting is refused (but read past). */
	char *lng = malloc(10001);
	assert_non_null(lng);
	memset(lng, 'x', 10000);
	memcpy(lng, "theme = ", 8);
	memcpy(lng + 9990, "\ngraphs=no", 11);
	assert_int_equal(load_text(t, lng, &c, err, sizeof(err)), 1);
	free(lng);
	assert_string_equal(err, "gputop.conf:1: the line is over 8 KiB long");
	assert_false(c.show_graphs);
	/* A short err buffer is cut, never overrun. */
	char small[8];
	assert_int_equal(load_text(t, "x\n", &c, small, sizeof(small)), 1);
	assert_string_equal(small, "gputop.");
	assert_int_equal(load_text(t, "x\n", &c, NULL, 0), 1);
}

static void test_unreadable(void **state)
{
	struct tmp *t = *state;
	struct gt_config c, d;
	char err[512];
	gt_config_defaults(&d);
	assert_int_equal(mkdir(t->path, 0700), 0);
	memset(&c, 0x5a, sizeof(c));
	assert_int_equal(gt_config_load(t->path, &c, err, sizeof(err)), -1);
	assert_non_null(strstr(err, t->path));
	assert_non_null(strstr(err, "directory"));
	assert_config_eq(&c, &d);
	assert_int_equal(rmdir(t->path), 0);

	/* Over 1 MiB: not a config file. */
	char *big = malloc(GT_CONFIG_MAX_BYTES + 2);
	assert_non_null(big);
	memset(big, '#', GT_CONFIG_MAX_BYTES + 1);
	write_bytes(t->path, big, GT_CONFIG_MAX_BYTES + 1);
	free(big);
	assert_int_equal(gt_config_load(t->path, &c, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "over 1 MiB"));

	if (geteuid() != 0) { /* root reads anything */
		write_text(t->path, "interval = 2\n");
		assert_int_equal(chmod(t->path, 0), 0);
		assert_int_equal(gt_config_load(t->path, &c, err, sizeof(err)),
		                 -1);
		assert_non_null(strstr(err, "Permission denied"));
		assert_config_eq(&c, &d);
	}
}

static void odd_config(struct gt_config *c)
{
	gt_config_defaults(c);
	c->interval_ns = 1234567891ull;
	snprintf(c->theme, sizeof(c->theme), " my #theme ");
	c->glyphs = GT_GLYPHS_ASCII;
	c->fahrenheit = true;
	c->show_processes = false;
	c->show_graphs = false;
	c->max_mode = GT_GPU_LINE;
	c->columns[GT_COL_USER] = false;
	c->columns[GT_COL_CONTAINER] = false;
	c->sort_col = GT_COL_PID;
	c->sort_reverse = true;
	for (int i = 0; i < GT_CONFIG_MAX_HIDDEN; i++)
		snprintf(c->hidden_gpus[i], sizeof(c->hidden_gpus[i]),
		         "0000:%02x:00.0", i + 1);
	c->nhidden = GT_CONFIG_MAX_HIDDEN;
}

static void test_round_trip(void **state)
{
	struct tmp *t = *state;
	struct gt_config a, b;
	char err[512];
	gt_config_defaults(&a);
	assert_int_equal(gt_config_save(t->path, &a, err, sizeof(err)), 0);
	assert_int_equal(gt_config_load(t->path, &b, err, sizeof(err)), 0);
	assert_config_eq(&a, &b);

	odd_config(&a);
	assert_int_equal(gt_config_save(t->path, &a, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(gt_config_load(t->path, &b, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_config_eq(&a, &b);

	/* No optional column, empty theme, the smallest interval. */
	for (int i = 0; i < GT_COL__COUNT; i++)
		a.columns[i] = i == GT_COL_COMMAND;
	a.theme[0] = '\0';
	a.interval_ns = 100000000ull;
	a.nhidden = 0;
	assert_int_equal(gt_config_save(t->path, &a, err, sizeof(err)), 0);
	assert_int_equal(gt_config_load(t->path, &b, err, sizeof(err)), 0);
	assert_config_eq(&a, &b);
	char *text = read_text(t->path);
	assert_non_null(strstr(text, "\ninterval = 0.1\n"));
	assert_non_null(strstr(text, "\ntheme = \"\"\n"));
	assert_non_null(strstr(text, "\ncolumns = command\n"));
	assert_non_null(strstr(text, "\nhide_gpus = none\n"));
	free(text);
	/* A plain name is written bare. */
	snprintf(a.theme, sizeof(a.theme), "tokyo-night");
	assert_int_equal(gt_config_save(t->path, &a, err, sizeof(err)), 0);
	text = read_text(t->path);
	assert_non_null(strstr(text, "\ntheme = tokyo-night\n"));
	free(text);
}

static const char user_file[] = "# my settings\n"
                                "future_key = 1\n"
                                "\n"
                                "[dashboard]\n"
                                "Interval = 2   # slow down\n"
                                "this line is garbage\n"
                                "interval = 3\n"
                                "\n"
                                "[profile gaming]\n"
                                "# fans up\n"
                                "fan_curve = 40:30, 70:80\n"
                                "odd line kept\n"
                                "interval = 99\n"
                                "\n"
                                "[other]\n"
                                "x = y";

/* Where a save puts the keys a file lacks (a is odd_config's settings):
 * a [dashboard] section before a file's profiles, or after its top-level
 * lines. */
static void save_places_new_keys(struct tmp *t, const struct gt_config *a)
{
	struct gt_config b;
	char err[512];
	char *text;

	/* A file with only a profile gets a [dashboard] section first. */
	write_text(t->path, "[profile quiet]\nfan = 30\n");
	assert_int_equal(gt_config_save(t->path, a, err, sizeof(err)), 0);
	text = read_text(t->path);
	assert_true(strncmp(text, "[dashboard]\n# ", 14) == 0);
	assert_non_null(strstr(text, "\n\n[profile quiet]\nfan = 30\n"));
	free(text);
	assert_int_equal(gt_config_load(t->path, &b, err, sizeof(err)), 1);
	/* The profile is read (and is wrong: no gpu line). */
	assert_string_equal(
	    err,
	    "gputop.conf:27: fan comes before any gpu line; start the block "
	    "with gpu = * (every GPU) or gpu = a PCI id such as 0000:01:00.0");
	assert_config_eq(a, &b);

	/* Only top-level settings: the new keys follow the known one. */
	write_text(t->path, "# hand-written\ntheme = nord\n");
	assert_int_equal(gt_config_save(t->path, a, err, sizeof(err)), 0);
	text = read_text(t->path);
	static const char top[] =
	    "# hand-written\ntheme = \" my #theme \"\n# seconds";
	assert_true(strncmp(text, top, sizeof(top) - 1) == 0);
	assert_null(strstr(text, "[dashboard]"));
	free(text);
	assert_int_equal(gt_config_load(t->path, &b, err, sizeof(err)), 0);
	assert_config_eq(a, &b);

	/* Top-level lines but no known key: the new keys follow them. */
	write_text(t->path, "future = 1\n\n[profile x]\nfan = 2\n");
	assert_int_equal(gt_config_save(t->path, a, err, sizeof(err)), 0);
	text = read_text(t->path);
	assert_true(strncmp(text, "future = 1\n# seconds", 20) == 0);
	assert_non_null(strstr(text, "\nhide_gpus = 0000:01:00.0"));
	assert_non_null(strstr(text, "\n\n[profile x]\nfan = 2\n"));
	free(text);
	assert_int_equal(gt_config_load(t->path, &b, err, sizeof(err)), 1);
	assert_string_equal(
	    err, "gputop.conf:1: unknown key 'future' (and 1 more problem)");
	assert_config_eq(a, &b);
}

/* Saving patches the user's file: comments, unknown keys and other
 * sections survive; no temporary file is left behind. */
static void test_save_keeps_file(void **state)
{
	struct tmp *t = *state;
	struct gt_config a, b;
	char err[512];
	struct stat st;
	write_text(t->path, user_file);
	assert_int_equal(chmod(t->path, 0644), 0);
	assert_int_equal(gt_config_load(t->path, &b, err, sizeof(err)), 1);
	odd_config(&a);
	a.interval_ns = 500000000ull;
	assert_int_equal(gt_config_save(t->path, &a, err, sizeof(err)), 0);
	assert_int_equal(dir_entries(t->dir), 1);
	assert_int_equal(stat(t->path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);

	char *text = read_text(t->path);
	static const char head[] =
	    "# my settings\nfuture_key = 1\n\n[dashboard]\n"
	    "interval = 0.5  # slow down\n";
	assert_true(strncmp(text, head, sizeof(head) - 1) == 0);
	assert_non_null(strstr(text, "\n# this line is garbage\n"));
	/* The repeat is dropped; the profile's own "interval" stays. */
	assert_int_equal(count_of(text, "\ninterval = "), 2);
	assert_non_null(strstr(text, "\ninterval = 99\n"));
	assert_non_null(strstr(
	    text,
	    "# graph symbols (braille, block, ascii, auto)\nglyphs = ascii\n"));
	/* Everything from [profile gaming] on is unchanged. */
	assert_non_null(strstr(text, strstr(user_file, "[profile gaming]")));
	/* New keys come right after the last known one, before the profile. */
	assert_true(strstr(text, "hide_gpus = ") <
	            strstr(text, "[profile gaming]"));
	for (int k = 0; k < 11; k++) {
		static const char *const keys[] = {
		    "interval",  "theme",        "glyphs",   "temperature",
		    "processes", "graphs",       "panels",   "columns",
		    "sort",      "sort_reverse", "hide_gpus"};
		char line[32];
		snprintf(line, sizeof(line), "\n%s = ", keys[k]);
		assert_int_equal(count_of(text, line), 1 + (k == 0));
	}

	/* It loads back as saved; the left warnings are the user's own
	 * ([other], and four in [profile gaming], which has no gpu line). */
	assert_int_equal(gt_config_load(t->path, &b, err, sizeof(err)), 1);
	assert_string_equal(
	    err,
	    "gputop.conf:2: unknown key 'future_key' (and 5 more problems)");
	assert_config_eq(&a, &b);

	/* Saving again changes nothing. */
	assert_int_equal(gt_config_save(t->path, &a, err, sizeof(err)), 0);
	char *again = read_text(t->path);
	assert_string_equal(again, text);
	free(again);
	free(text);

	save_places_new_keys(t, &a);
}

static void test_save_new_and_default_path(void **state)
{
	struct tmp *t = *state;
	struct gt_config a, b;
	char err[512], path[256], want[256];
	struct stat st;
	snprintf(path, sizeof(path), "%s/xdg", t->dir);
	setenv("XDG_CONFIG_HOME", path, 1);
	setenv("HOME", "/nonexistent-home", 1);
	odd_config(&a);
	assert_int_equal(gt_config_save(NULL, &a, err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "%s/xdg/gputop", t->dir);
	assert_int_equal(stat(want, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0700);
	assert_int_equal(dir_entries(want), 1);
	snprintf(want, sizeof(want), "%s/xdg/gputop/gputop.conf", t->dir);
	assert_int_equal(stat(want, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	char *text = read_text(want);
	assert_true(strncmp(text, "# gputop settings", 17) == 0);
	assert_non_null(
	    strstr(text, "\n[dashboard]\n# seconds between samples (0.1 to "
	                 "3600)\ninterval = 1.234567891\n"));
	assert_non_null(strstr(
	    text, "# process columns shown; COMMAND always is (pid, user,"));
	free(text);
	assert_int_equal(gt_config_load(NULL, &b, err, sizeof(err)), 0);
	assert_config_eq(&a, &b);
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("HOME");
}

static void test_save_symlink(void **state)
{
	struct tmp *t = *state;
	struct gt_config a, b;
	char err[512], real[256];
	struct stat st;
	snprintf(real, sizeof(real), "%s/dotfiles.conf", t->dir);
	write_text(real, "[profile x]\nfan = 1\n");
	assert_int_equal(symlink("dotfiles.conf", t->path), 0);
	odd_config(&a);
	assert_int_equal(gt_config_save(t->path, &a, err, sizeof(err)), 0);
	assert_int_equal(lstat(t->path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(dir_entries(t->dir), 2);
	char *text = read_text(real);
	assert_non_null(strstr(text, "\nglyphs = ascii\n"));
	assert_non_null(strstr(text, "[profile x]\nfan = 1\n"));
	free(text);
	assert_int_equal(gt_config_load(t->path, &b, err, sizeof(err)), 1);
	assert_config_eq(&a, &b);
}

static void test_save_errors(void **state)
{
	struct tmp *t = *state;
	struct gt_config a;
	char err[512], path[256];
	gt_config_defaults(&a);
	/* The directory cannot be made: a file is in the way. */
	snprintf(path, sizeof(path), "%s/file", t->dir);
	write_text(path, "x");
	snprintf(path, sizeof(path), "%s/file/sub/gputop.conf", t->dir);
	assert_int_equal(gt_config_save(path, &a, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "Not a directory"));
	assert_int_equal(dir_entries(t->dir), 1);
	/* What is there cannot be read: nothing is replaced or left behind. */
	assert_int_equal(mkdir(t->path, 0700), 0);
	assert_int_equal(gt_config_save(t->path, &a, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "directory"));
	assert_int_equal(dir_entries(t->dir), 2);
	assert_int_equal(dir_entries(t->path), 0);
	if (geteuid() != 0) {
		char ro[128];
		snprintf(ro, sizeof(ro), "%s/ro", t->dir);
		assert_int_equal(mkdir(ro, 0500), 0);
		snprintf(path, sizeof(path), "%s/gputop.conf", ro);
		assert_int_equal(gt_config_save(path, &a, err, sizeof(err)),
		                 -1);
		assert_non_null(strstr(err, "Permission denied"));
		assert_int_equal(dir_entries(ro), 0);
		chmod(ro, 0700);
	}
}

/* A write that fails (here: over RLIMIT_FSIZE, which binds root too)
 * leaves the old file as it was and no temporary file behind. */
static void test_save_write_fails(void **state)
{
	struct tmp *t = *state;
	struct gt_config a;
	struct rlimit old, small;
	char err[512];
	write_text(t->path, "interval = 2\n");
	gt_config_defaults(&a);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	small = old;
	small.rlim_cur = 64;
	signal(SIGXFSZ, SIG_IGN); /* EFBIG instead of death */
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	int r = gt_config_save(t->path, &a, err, sizeof(err));
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_DFL);
	assert_int_equal(r, -1);
	assert_non_null(strstr(err, "File too large"));
	assert_int_equal(dir_entries(t->dir), 1);
	char *text = read_text(t->path);
	assert_string_equal(text, "interval = 2\n");
	free(text);
}

static void test_default_path(void **state)
{
	char out[256];
	(void)state;
	setenv("XDG_CONFIG_HOME", "/x/cfg", 1);
	setenv("HOME", "/home/u", 1);
	assert_int_equal(gt_config_default_path(out, sizeof(out)), 0);
	assert_string_equal(out, "/x/cfg/gputop/gputop.conf");
	setenv("XDG_CONFIG_HOME", "relative/cfg", 1); /* invalid per XDG */
	assert_int_equal(gt_config_default_path(out, sizeof(out)), 0);
	assert_string_equal(out, "/home/u/.config/gputop/gputop.conf");
	setenv("XDG_CONFIG_HOME", "", 1);
	assert_int_equal(gt_config_default_path(out, sizeof(out)), 0);
	assert_string_equal(out, "/home/u/.config/gputop/gputop.conf");
	unsetenv("XDG_CONFIG_HOME");
	assert_int_equal(gt_config_default_path(out, sizeof(out)), 0);
	assert_string_equal(out, "/home/u/.config/gputop/gputop.conf");
	assert_int_equal(gt_config_default_path(out, 20), -1);
	assert_string_equal(out, "");
	assert_int_equal(gt_config_default_path(out, 0), -1);
	unsetenv("HOME"); /* falls back to the passwd entry */
	struct passwd *pw = getpwuid(getuid());
	if (pw && pw->pw_dir && pw->pw_dir[0]) {
		char want[256];
		snprintf(want, sizeof(want), "%s/.config/gputop/gputop.conf",
		         pw->pw_dir);
		assert_int_equal(gt_config_default_path(out, sizeof(out)), 0);
		assert_string_equal(out, want);
	}
}

#define T(f) cmocka_unit_test_setup_teardown(f, tmp_setup, tmp_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_missing_file),
	    T(test_syntax),
	    T(test_problems_counted),
	    T(test_unreadable),
	    T(test_round_trip),
	    T(test_save_keeps_file),
	    T(test_save_new_and_default_path),
	    T(test_save_symlink),
	    T(test_save_errors),
	    T(test_save_write_fails),
	    T(test_default_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * test_theme.c - tests of src/ui/theme.c: every published btop theme in
 * tests/fixtures/btop-themes and every shipped theme in themes/ loads
 * cleanly and completely; values, greys, decimal triplets, btop's
 * fallbacks and gputop's extension fallbacks, gradients, warnings with
 * line numbers, random-byte input, file errors, colour-tier detection
 * and the key table. The xterm palette is test_palette.c's; the theme
 * search path, test_theme_dirs.c's.
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
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ui/theme.h"

#include "support/theme_test.h"

#define KEY_EQ(t, key, hex) RGB_EQ((t)->rgb[GT_TK_##key], hex)

/* Loads a string literal as a theme; returns the warning count. */
static int load_str(const char *s, struct gt_theme *t)
{
	return gt_theme_load_buf(s, strlen(s), "test", t);
}

/* Only main_bg and the mid/end stops may be without a colour. */
static void assert_complete(const struct gt_theme *t, const char *what)
{
	for (int k = 0; k < GT_TK_COUNT; k++) {
		const char *n = gt_theme_key_name((enum gt_theme_key)k);
		size_t len = strlen(n);
		int optional = k == GT_TK_MAIN_BG ||
		               strcmp(n + len - 4, "_mid") == 0 ||
		               strcmp(n + len - 4, "_end") == 0;

		if (!t->has[k] && !optional)
			fail_msg("%s: key %s has no colour", what, n);
	}
}

/* Counts lines that start with "theme[": an independent tally of the
 * settings in a file, to compare with what the parser took. */
static int count_settings(const char *path)
{
	char line[512];
	int n = 0;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		n += strncmp(line, "theme[", 6) == 0;
	fclose(f);
	return n;
}

static int count_from_file(const struct gt_theme *t, int upto)
{
	int n = 0;

	for (int k = 0; k < upto; k++)
		n += t->from_file[k];
	return n;
}

struct walk {
	int files;
	int settings;
};

/* Loads every *.theme under dir (recursively); each must load with no
 * warning, be complete, and have taken every setting in the file. */
static void load_tree(const char *dir, struct walk *w, int keys_upto)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		fail_msg("cannot open %s: %s", dir, strerror(errno));
	while ((de = readdir(d)) != NULL) {
		char path[4096], err[256];
		struct stat st;
		struct gt_theme t;
		size_t n = strlen(de->d_name);

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		assert_int_equal(stat(path, &st), 0);
		if (S_ISDIR(st.st_mode)) {
			load_tree(path, w, keys_upto);
			continue;
		}
		if (n < 7 || strcmp(de->d_name + n - 6, ".theme") != 0)
			continue;
		if (gt_theme_load_file(path, &t, err, sizeof(err)) != 0)
			fail_msg("%s", err);
		if (t.nwarn_total)
			fail_msg("%s line %d: %s", path, t.warn[0].line,
			         t.warn[0].msg);
		assert_complete(&t, path);
		int want = count_settings(path);
		if (count_from_file(&t, keys_upto) != want)
			fail_msg("%s: %d settings in the file, parser took %d",
			         path, want, count_from_file(&t, keys_upto));
		w->files++;
		w->settings += want;
	}
	closedir(d);
}

static void test_btop_fixtures_all_load(void **state)
{
	const char *fx = getenv("GPUTOP_FIXTURES");
	char dir[4096];
	struct walk w = {0, 0};

	(void)state;
	if (!fx || !fx[0])
		fail_msg("GPUTOP_FIXTURES is not set: run through tests/run.sh "
		         "or export GPUTOP_FIXTURES=$PWD/tests/fixtures");
	snprintf(dir, sizeof(dir), "%s/btop-themes", fx);
	load_tree(dir, &w, GT_TK_BTOP_COUNT);
	/* The fixture README's tally: 52 files, 2054 settings. */
	assert_int_equal(w.files, 52);
	assert_int_equal(w.settings, 2054);
}

static void test_shipped_themes_load(void **state)
{
	const char *env = getenv("GPUTOP_THEMES_DIR");
	const char *dir = env && env[0] ? env : "themes";
	struct walk w = {0, 0};
	struct gt_theme t;
	char path[4096], err[256];

	(void)state;
	/* Shipped themes set every key, gputop's included. */
	load_tree(dir, &w, GT_TK_COUNT);
	assert_true(w.files >= 6);
	assert_int_equal(w.settings, w.files * GT_TK_COUNT);

	/* A light one and a high-contrast one, as promised. */
	snprintf(path, sizeof(path), "%s/linen.theme", dir);
	assert_int_equal(gt_theme_load_file(path, &t, err, sizeof(err)), 0);
	assert_string_equal(t.name, "linen");
	assert_true(t.rgb[GT_TK_MAIN_BG].r > 0xe0);
	assert_true(t.rgb[GT_TK_MAIN_FG].r < 0x40);
	snprintf(path, sizeof(path), "%s/high-contrast.theme", dir);
	assert_int_equal(gt_theme_load_file(path, &t, err, sizeof(err)), 0);
	KEY_EQ(&t, MAIN_BG, 0x000000);
	KEY_EQ(&t, MAIN_FG, 0xffffff);
	/* mono-amber writes main_bg as decimal "12 8 0". */
	snprintf(path, sizeof(path), "%s/mono-amber.theme", dir);
	assert_int_equal(gt_theme_load_file(path, &t, err, sizeof(err)), 0);
	KEY_EQ(&t, MAIN_BG, 0x0c0800);
	assert_false(t.has[GT_TK_VRAM_MID]);
}

/* Loads one fixture by its path under tests/fixtures/btop-themes. */
static void load_fixture(const char *rel, struct gt_theme *t)
{
	const char *fx = getenv("GPUTOP_FIXTURES");
	char path[4096], err[256];

	if (!fx || !fx[0])
		fail_msg("GPUTOP_FIXTURES is not set");
	snprintf(path, sizeof(path), "%s/btop-themes/%s", fx, rel);
	if (gt_theme_load_file(path, t, err, sizeof(err)) != 0)
		fail_msg("%s", err);
}

static void test_fixture_values(void **state)
{
	struct gt_theme t;

	(void)state;
	load_fixture("nord.theme", &t); /* upper-case hex */
	assert_string_equal(t.name, "nord");
	KEY_EQ(&t, MAIN_BG, 0x2e3440);
	KEY_EQ(&t, CPU_MID, 0x88c0d0);
	/* nord has no gputop keys: they are its btop colours */
	KEY_EQ(&t, GPU_BOX, 0x4c566a);
	KEY_EQ(&t, GPU_MID, 0x88c0d0);

	load_fixture("gruvbox_dark_v2.theme", &t); /* case mixed in one value */
	KEY_EQ(&t, DOWNLOAD_MID, 0x689d6a);
	KEY_EQ(&t, UPLOAD_MID, 0xd65d0e);

	/* the commented-out setting on line 32 does not win over line 33 */
	load_fixture("gotham.theme", &t);
	KEY_EQ(&t, INACTIVE_FG, 0x403b34);

	/* a comment after the closing quote, with and without a stray '"' */
	load_fixture("third-party/catppuccin-btop/catppuccin_mocha.theme", &t);
	KEY_EQ(&t, CPU_BOX, 0xcba6f7);
	KEY_EQ(&t, MAIN_BG, 0x1e1e2e);
	load_fixture("matcha-dark-sea.theme", &t);
	KEY_EQ(&t, CPU_MID, 0xf8f8f2);
	assert_false(t.has[GT_TK_MAIN_BG]); /* main_bg="" */
	assert_true(t.from_file[GT_TK_MAIN_BG]);

	/* #GG greys */
	load_fixture("greyscale.theme", &t);
	KEY_EQ(&t, MAIN_BG, 0x000000);
	assert_true(t.has[GT_TK_MAIN_BG]);
	KEY_EQ(&t, INACTIVE_FG, 0x303030);
	KEY_EQ(&t, CPU_BOX, 0x909090);
	assert_false(t.has[GT_TK_CPU_MID]);
	load_fixture("whiteout.theme", &t);
	KEY_EQ(&t, MAIN_BG, 0xffffff);
	KEY_EQ(&t, INACTIVE_FG, 0xdddddd);

	/* dusklight: free has start only (solid), download start+end */
	load_fixture("dusklight.theme", &t);
	assert_false(t.has[GT_TK_FREE_MID]);
	assert_false(t.has[GT_TK_FREE_END]);
	RGB_EQ(gt_theme_gradient(&t, GT_TK_FREE_START, 1.0), 0x0187cb);
	RGB_EQ(gt_theme_gradient(&t, GT_TK_DOWNLOAD_START, 0.0), 0x009eff);
	RGB_EQ(gt_theme_gradient(&t, GT_TK_DOWNLOAD_START, 1.0), 0x00ffff);
	/* 0x9e + 50 * (0xff - 0x9e) / 100 = 158 + 48 = 206 */
	RGB_EQ(gt_theme_gradient(&t, GT_TK_DOWNLOAD_START, 0.5), 0x00ceff);

	/* tokyonight lacks inactive_fg, graph_text, meter_bg, process_* */
	load_fixture("third-party/tokyonight.nvim/tokyonight_night.theme", &t);
	KEY_EQ(&t, INACTIVE_FG, 0x404040);
	KEY_EQ(&t, GRAPH_TEXT, 0x404040);
	KEY_EQ(&t, METER_BG, 0x404040);
	KEY_EQ(&t, PROCESS_START, 0x9ece6a);
	KEY_EQ(&t, PROCESS_END, 0xf7768e);
	KEY_EQ(&t, PROC_PAUSE_BG, 0xb54040);
	KEY_EQ(&t, THROTTLE_BG, 0xb54040);
	KEY_EQ(&t, STALE_FG, 0x404040);
	KEY_EQ(&t, WARN_FG, 0xff9e64);

	/* flexoki-light sets all 48 */
	load_fixture("flexoki-light.theme", &t);
	KEY_EQ(&t, GRAPH_TEXT, 0x6f6e69);
	KEY_EQ(&t, METER_BG, 0xdad8ce);
	KEY_EQ(&t, PROCESS_MID, 0xad8301);
	KEY_EQ(&t, TEMP_END, 0xaf3029);
	assert_int_equal(count_from_file(&t, GT_TK_BTOP_COUNT), 48);
}

static void test_grey_and_decimal_forms(void **state)
{
	struct gt_theme t;

	(void)state;
	assert_int_equal(load_str("theme[title]=\"#7f\"\n"
	                          "theme[main_fg]=\"#Ab\"\n"
	                          "theme[hi_fg]=\"10 200 255\"\n"
	                          "theme[div_line]=\"  0\t0   7 \"\n"
	                          "theme[cpu_box]=\"255 255 255\"\n",
	                          &t),
	                 0);
	KEY_EQ(&t, TITLE, 0x7f7f7f);
	KEY_EQ(&t, MAIN_FG, 0xababab);
	KEY_EQ(&t, HI_FG, 0x0ac8ff);
	KEY_EQ(&t, DIV_LINE, 0x000007);
	KEY_EQ(&t, CPU_BOX, 0xffffff);

	/* out of range, too few, too many, signs, junk: warned, default */
	assert_int_equal(load_str("theme[title]=\"256 0 0\"\n"
	                          "theme[main_fg]=\"1 2\"\n"
	                          "theme[hi_fg]=\"1 2 3 4\"\n"
	                          "theme[div_line]=\"-1 2 3\"\n"
	                          "theme[cpu_box]=\"0001 2 3\"\n"
	                          "theme[mem_box]=\"1,2,3\"\n",
	                          &t),
	                 6);
	KEY_EQ(&t, TITLE, 0xeeeeee);
	KEY_EQ(&t, MAIN_FG, 0xcccccc);
	KEY_EQ(&t, HI_FG, 0xb54040);
	KEY_EQ(&t, DIV_LINE, 0x303030);
	KEY_EQ(&t, CPU_BOX, 0x556d59);
	KEY_EQ(&t, MEM_BOX, 0x6c6c4b);
	assert_non_null(strstr(t.warn[0].msg, "out of range"));
	assert_int_equal(t.warn[5].line, 6);
}

static void test_fallbacks_minimal_theme(void **state)
{
	struct gt_theme t;

	(void)state;
	assert_int_equal(load_str("theme[main_bg]=\"#101010\"\n"
	                          "theme[main_fg]=\"#e0e0e0\"\n",
	                          &t),
	                 0);
	KEY_EQ(&t, MAIN_BG, 0x101010);
	KEY_EQ(&t, MAIN_FG, 0xe0e0e0);
	/* the rest is btop's Default table ... */
	KEY_EQ(&t, TITLE, 0xeeeeee);
	KEY_EQ(&t, INACTIVE_FG, 0x404040);
	KEY_EQ(&t, TEMP_MID, 0x5474e8);
	KEY_EQ(&t, UPLOAD_END, 0xdcafde);
	KEY_EQ(&t, FOLLOWED_BG, 0x4040b5);
	/* ... except btop's derived fallbacks: graph_text is inactive_fg,
	 * not the Default theme's #60; process_* is cpu_*. */
	KEY_EQ(&t, GRAPH_TEXT, 0x404040);
	KEY_EQ(&t, METER_BG, 0x404040);
	KEY_EQ(&t, PROCESS_START, 0x77ca9b);
	KEY_EQ(&t, PROCESS_MID, 0xcbc06c);
	KEY_EQ(&t, PROCESS_END, 0xdc4c4c);
	/* gputop keys take their btop equivalents */
	KEY_EQ(&t, GPU_BOX, 0x556d59);
	KEY_EQ(&t, GPU_START, 0x77ca9b);
	KEY_EQ(&t, VRAM_END, 0xff4769);
	KEY_EQ(&t, POWER_MID, 0x74e6fc);
	KEY_EQ(&t, MEMBW_START, 0x384f21);
	KEY_EQ(&t, ENCDEC_END, 0xdc4c4c);
	KEY_EQ(&t, THROTTLE_BG, 0xb54040);
	KEY_EQ(&t, THROTTLE_FG, 0xeeeeee);
	KEY_EQ(&t, DEMO_BG, 0x7b407b);
	KEY_EQ(&t, DEMO_FG, 0xeeeeee);
	KEY_EQ(&t, STALE_FG, 0x404040);
	KEY_EQ(&t, WARN_FG, 0xb54040);
	assert_true(t.from_file[GT_TK_MAIN_FG]);
	assert_false(t.from_file[GT_TK_TITLE]);
	assert_false(t.from_file[GT_TK_GPU_BOX]);
	assert_complete(&t, "minimal");

	/* The built-in Default is the table as a whole file: its own
	 * graph_text and process_* colours. */
	gt_theme_default(&t);
	assert_string_equal(t.name, "Default");
	KEY_EQ(&t, GRAPH_TEXT, 0x606060);
	KEY_EQ(&t, PROCESS_START, 0x80d0a3);
	KEY_EQ(&t, GPU_END, 0xdc4c4c);
	assert_false(t.from_file[GT_TK_MAIN_FG]);
	assert_complete(&t, "Default");
}

static void test_fallbacks_follow_the_theme(void **state)
{
	struct gt_theme t;

	(void)state;
	assert_int_equal(load_str("theme[inactive_fg]=\"#123456\"\n"
	                          "theme[hi_fg]=\"#aa0000\"\n"
	                          "theme[cpu_box]=\"#00aa00\"\n"
	                          "theme[cpu_start]=\"#010101\"\n"
	                          "theme[cpu_mid]=\"\"\n"
	                          "theme[cpu_end]=\"#030303\"\n"
	                          "theme[used_start]=\"#111111\"\n"
	                          "theme[proc_pause_bg]=\"#220000\"\n"
	                          "theme[gpu_start]=\"#0000ff\"\n"
	                          "theme[demo_fg]=\"#00ff00\"\n",
	                          &t),
	                 0);
	KEY_EQ(&t, GRAPH_TEXT, 0x123456);
	KEY_EQ(&t, METER_BG, 0x123456);
	KEY_EQ(&t, STALE_FG, 0x123456);
	KEY_EQ(&t, WARN_FG, 0xaa0000);
	KEY_EQ(&t, GPU_BOX, 0x00aa00);
	KEY_EQ(&t, THROTTLE_BG, 0x220000);
	KEY_EQ(&t, DEMO_FG, 0x00ff00);
	/* process_* copies cpu_* including its empty mid */
	KEY_EQ(&t, PROCESS_START, 0x010101);
	assert_false(t.has[GT_TK_PROCESS_MID]);
	KEY_EQ(&t, PROCESS_END, 0x030303);
	/* encdec_* likewise, as a whole family */
	KEY_EQ(&t, ENCDEC_START, 0x010101);
	assert_false(t.has[GT_TK_ENCDEC_MID]);
	/* vram_* copies used_*: the theme's start, btop's mid and end */
	KEY_EQ(&t, VRAM_START, 0x111111);
	KEY_EQ(&t, VRAM_MID, 0xd9626d);
	/* gpu_start alone: a one-colour family, not cpu's stops */
	KEY_EQ(&t, GPU_START, 0x0000ff);
	assert_false(t.has[GT_TK_GPU_MID]);
	assert_false(t.has[GT_TK_GPU_END]);
	RGB_EQ(gt_theme_gradient(&t, GT_TK_GPU_START, 0.9), 0x0000ff);
}

static void test_empty_values(void **state)
{
	struct gt_theme t;

	(void)state;
	assert_int_equal(load_str("theme[main_bg]=\"\"\n"
	                          "theme[temp_mid]=\"\"\n"
	                          "theme[temp_end]=\"\"\n"
	                          "theme[title]=\"\"\n"
	                          "theme[graph_text]=\"\"\n"
	                          "theme[cpu_start]=\"\"\n"
	                          "theme[process_start]=\"#0a0a0a\"\n"
	                          "theme[process_end]=\"#141414\"\n",
	                          &t),
	                 0);
	assert_false(t.has[GT_TK_MAIN_BG]); /* terminal background */
	assert_false(t.has[GT_TK_TEMP_MID]);
	assert_false(t.has[GT_TK_TEMP_END]);
	KEY_EQ(&t, TEMP_START, 0x4897d4);
	KEY_EQ(&t, TITLE, 0xeeeeee);      /* empty plain key: default */
	KEY_EQ(&t, GRAPH_TEXT, 0x404040); /* empty: derived fallback */
	KEY_EQ(&t, CPU_START, 0x77ca9b);  /* empty start: default */
	/* process_start set: mid missing means none, not black */
	assert_false(t.has[GT_TK_PROCESS_MID]);
	assert_false(t.from_file[GT_TK_PROCESS_MID]);
	assert_true(t.from_file[GT_TK_TEMP_MID]); /* set, to "" */
	RGB_EQ(gt_theme_gradient(&t, GT_TK_PROCESS_START, 0.5), 0x0f0f0f);
	/* temp: start alone, one colour */
	RGB_EQ(gt_theme_gradient(&t, GT_TK_TEMP_START, 0.7), 0x4897d4);
}

static void test_gradients(void **state)
{
	struct gt_theme t;
	struct gt_rgb s[3] = {{0, 0, 0}, {100, 100, 100}, {200, 200, 200}};

	(void)state;
	/* no mid: one ramp, p = round(frac * 100) */
	load_str("theme[cpu_start]=\"#000000\"\ntheme[cpu_mid]=\"\"\n"
	         "theme[cpu_end]=\"#646464\"\n",
	         &t);
	RGB_EQ(gt_theme_gradient(&t, GT_TK_CPU_START, 0.0), 0x000000);
	RGB_EQ(gt_theme_gradient(&t, GT_TK_CPU_START, 0.37), 0x252525);
	RGB_EQ(gt_theme_gradient(&t, GT_TK_CPU_START, 0.374), 0x252525);
	RGB_EQ(gt_theme_gradient(&t, GT_TK_CPU_START, 0.376), 0x262626);
	RGB_EQ(gt_theme_gradient(&t, GT_TK_CPU_START, 1.0), 0x646464);
	RGB_EQ(gt_theme_gradient(&t, GT_TK_CPU_START, -3.0), 0x000000);
	RGB_EQ(gt_theme_gradient(&t, GT_TK_CPU_START, 7.0), 0x646464);
	RGB_EQ(gt_theme_gradient(&t, GT_TK_CPU_START, NAN), 0x000000);
	/* gputop's gpu_* gradient is cpu's when the theme lacks it */
	RGB_EQ(gt_theme_gradient(&t, GT_TK_GPU_START, 0.37), 0x252525);
	/* a plain key is its own colour */
	RGB_EQ(gt_theme_gradient(&t, GT_TK_TITLE, 0.5), 0xeeeeee);

	/* three stops: start->mid over 0..50, mid->end over 50..100 */
	RGB_EQ(gt_rgb_gradient(s, true, true, 0.25), 0x323232);
	RGB_EQ(gt_rgb_gradient(s, true, true, 0.50), 0x646464);
	RGB_EQ(gt_rgb_gradient(s, true, true, 0.75), 0x969696);
	RGB_EQ(gt_rgb_gradient(s, true, true, 1.00), 0xc8c8c8);
	/* no end: start throughout, even with a mid (btop) */
	RGB_EQ(gt_rgb_gradient(s, true, false, 0.75), 0x000000);
	/* btop truncates: 99 * 1 / 100 == 0, and downward ramps toward 0 */
	s[2] = (struct gt_rgb){1, 1, 1};
	RGB_EQ(gt_rgb_gradient(s, false, true, 0.99), 0x000000);
	s[0] = (struct gt_rgb){255, 255, 255};
	s[2] = (struct gt_rgb){0, 0, 0};
	/* 255 + 33 * (0 - 255) / 100 = 255 - 84 (not 85) = 171 */
	RGB_EQ(gt_rgb_gradient(s, false, true, 0.33), 0xababab);
}

static void test_malformed_lines_reported(void **state)
{
	struct gt_theme t;
	const char *src = "# a comment\n"                    /* 1 */
	                  "garbage here\n"                   /* 2 */
	                  "\n"                               /* 3 */
	                  "theme[cpu_start]=\"#12345\"\n"    /* 4 */
	                  "theme[no_such_key]=\"#ffffff\"\n" /* 5 */
	                  "theme[title]=\"#ffffff\n"         /* 6 */
	                  "theme[hi_fg]=#zzzzzz\n"           /* 7 */
	                  "theme[main_fg]\n"                 /* 8 */
	                  "   # indented comment [x]\n"      /* 9 */
	                  "theme[]=\"#ffffff\"\n"            /* 10 */
	                  "theme[div_line]=#0a0b0c  \r\n"    /* 11 */
	                  "  theme[net_box] = \"#0d0e0f\"\n" /* 12 */
	                  "theme[mem_box]=\"#abc\"\n";       /* 13 */
	static const int want_lines[] = {2, 4, 5, 6, 7, 8, 10, 13};

	(void)state;
	assert_int_equal(load_str(src, &t), 8);
	assert_int_equal(t.nwarn, 8);
	for (int i = 0; i < 8; i++)
		assert_int_equal(t.warn[i].line, want_lines[i]);
	assert_non_null(strstr(t.warn[1].msg, "cpu_start"));
	assert_non_null(strstr(t.warn[1].msg, "2 or 6 digits"));
	assert_non_null(strstr(t.warn[2].msg, "no_such_key"));
	assert_non_null(strstr(t.warn[3].msg, "quote"));
	assert_non_null(strstr(t.warn[4].msg, "hex digit"));
	assert_non_null(strstr(t.warn[6].msg, "not a theme[key]"));
	/* bad values fell back; good lines around them were taken */
	KEY_EQ(&t, CPU_START, 0x77ca9b);
	KEY_EQ(&t, TITLE, 0xeeeeee);
	KEY_EQ(&t, HI_FG, 0xb54040);
	KEY_EQ(&t, MEM_BOX, 0x6c6c4b);
	KEY_EQ(&t, DIV_LINE, 0x0a0b0c); /* unquoted, CRLF, trailing blanks */
	KEY_EQ(&t, NET_BOX, 0x0d0e0f);  /* indented, blanks around '=' */

	/* an invalid repeat keeps the earlier value; BOM accepted */
	assert_int_equal(load_str("\xef\xbb\xbftheme[title]=\"#111111\"\n"
	                          "theme[title]=\"#bad\"\n",
	                          &t),
	                 1);
	KEY_EQ(&t, TITLE, 0x111111);
	assert_int_equal(t.warn[0].line, 2);

	/* control bytes in a key never reach a message as such */
	assert_int_equal(load_str("theme[\x1b[31m]=\"#000000\"\n", &t), 1);
	assert_null(strchr(t.warn[0].msg, '\x1b'));
}

static void test_warning_overflow(void **state)
{
	char buf[4000] = "";
	struct gt_theme t;

	(void)state;
	for (int i = 0; i < 40; i++)
		strcat(buf, "junk\n");
	strcat(buf, "theme[title]=\"#020202\"\n");
	assert_int_equal(load_str(buf, &t), 40);
	assert_int_equal(t.nwarn, GT_THEME_MAX_WARNINGS);
	assert_int_equal(t.nwarn_total, 40);
	assert_int_equal(t.warn[GT_THEME_MAX_WARNINGS - 1].line,
	                 GT_THEME_MAX_WARNINGS);
	KEY_EQ(&t, TITLE, 0x020202);
}

/* Random bytes, and valid text with random bytes spliced in: nothing may
 * crash or read out of bounds (the buffer is exactly len bytes, with no
 * NUL after it, so ASan sees any overread), and the result is always a
 * complete theme with sane warnings. */
static void test_fuzz_random_bytes(void **state)
{
	static const char base[] = "theme[main_bg]=\"#102030\"\n"
	                           "theme[cpu_mid]=\"1 2 3\"\n"
	                           "theme[gpu_start]=\"#ff\"\n";
	static const char alphabet[] = "theme[]=\"#0123456789abcdefxyz_ \n\r\t";
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	struct gt_theme t;

	(void)state;
	for (int iter = 0; iter < 3000; iter++) {
		size_t len = xorshift(&seed) % 600;
		char *buf = malloc(len ? len : 1);

		assert_non_null(buf);
		for (size_t i = 0; i < len; i++) {
			uint64_t r = xorshift(&seed);
			switch (iter % 3) {
			case 0: /* any byte */
				buf[i] = (char)(r & 0xff);
				break;
			case 1: /* bytes the parser cares about */
				buf[i] = alphabet[r % (sizeof(alphabet) - 1)];
				break;
			default: /* valid text, some bytes mutated */
				buf[i] = base[i % (sizeof(base) - 1)];
				if (r % 13 == 0)
					buf[i] = (char)(r >> 8);
			}
		}
		int n = gt_theme_load_buf(buf, len, "fuzz", &t);
		free(buf);
		assert_int_equal(n, t.nwarn_total);
		assert_true(t.nwarn >= 0 && t.nwarn <= GT_THEME_MAX_WARNINGS);
		assert_true(t.nwarn <= t.nwarn_total);
		for (int i = 0; i < t.nwarn; i++) {
			assert_true(t.warn[i].line >= 1);
			assert_true(memchr(t.warn[i].msg, '\0',
			                   sizeof(t.warn[i].msg)) != NULL);
			for (const char *p = t.warn[i].msg; *p; p++)
				assert_true(*p >= 0x20 && *p < 0x7f);
		}
		assert_complete(&t, "fuzz");
	}
	assert_int_equal(gt_theme_load_buf(NULL, 0, NULL, &t), 0);
	assert_string_equal(t.name, "");
}

static void test_load_file_errors(void **state)
{
	char dir[256], path[512], err[512];
	struct gt_theme t;
	int fd;

	(void)state;
	make_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/missing.theme", dir);
	assert_int_equal(gt_theme_load_file(path, &t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, strerror(ENOENT)));
	assert_string_equal(t.name, "Default"); /* usable anyway */
	assert_int_equal(gt_theme_load_file(dir, &t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, strerror(EISDIR)));
	assert_int_equal(gt_theme_load_file("/dev/null", &t, NULL, 0), -1);

	snprintf(path, sizeof(path), "%s/huge.theme", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 1024 * 1024 + 1), 0);
	close(fd);
	assert_int_equal(gt_theme_load_file(path, &t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, strerror(EFBIG)));

	snprintf(path, sizeof(path), "%s/empty.theme", dir);
	write_file(path, "");
	assert_int_equal(gt_theme_load_file(path, &t, err, sizeof(err)), 0);
	assert_string_equal(t.name, "empty");
	KEY_EQ(&t, MAIN_FG, 0xcccccc);
	KEY_EQ(&t, GRAPH_TEXT, 0x404040); /* a file: fallback, not #60 */
	rm_tree(dir);
}

static void test_tier_detection(void **state)
{
	static const struct {
		const char *colorterm, *term;
		int ncolors;
		const char *no_color;
		enum gt_color_tier want;
	} cases[] = {
	    /* NO_COLOR beats everything, but only when non-empty */
	    {"truecolor", "xterm", 256, "1", GT_TIER_MONO},
	    {"truecolor", "xterm", 256, "", GT_TIER_TRUE},
	    {"24bit", NULL, 8, NULL, GT_TIER_TRUE},
	    {"TrueColor", NULL, 8, NULL, GT_TIER_TRUE},
	    {"yes", "xterm-256color", 256, NULL, GT_TIER_256},
	    {NULL, "xterm-direct", 0x1000000, NULL, GT_TIER_TRUE},
	    {NULL, "rxvt", 88, NULL, GT_TIER_16},
	    {NULL, "xterm-16color", 16, NULL, GT_TIER_16},
	    {NULL, "linux", 8, NULL, GT_TIER_8},
	    {NULL, "vt100", 0, NULL, GT_TIER_MONO},
	    {NULL, "dumb", 8, NULL, GT_TIER_MONO},
	    /* no terminfo count: TERM decides */
	    {NULL, "foo-256color", -1, NULL, GT_TIER_256},
	    {NULL, "foo-direct", -1, NULL, GT_TIER_TRUE},
	    {NULL, "foo", -1, NULL, GT_TIER_8},
	    {NULL, NULL, -1, NULL, GT_TIER_MONO},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum gt_color_tier got =
		    gt_color_tier_detect(cases[i].colorterm, cases[i].term,
		                         cases[i].ncolors, cases[i].no_color);
		if (got != cases[i].want)
			fail_msg("case %zu: tier %s, want %s", i,
			         gt_color_tier_name(got),
			         gt_color_tier_name(cases[i].want));
	}
	assert_string_equal(gt_color_tier_name(GT_TIER_256), "256");
	assert_string_equal(gt_color_tier_name(GT_TIER_MONO), "mono");
}

/* What is no theme file says what it is: a FIFO (opened without
 * hanging), a device, a directory, a file past 1 MiB. */
static void test_not_a_theme_file(void **state)
{
	(void)state;
	struct gt_theme t;
	char dir[] = "/tmp/gputop-theme-XXXXXX", path[64], err[512];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/fifo.theme", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	static const struct {
		const char *path, *says;
	} cases[] = {{NULL, "not a regular file"},
	             {"/dev/zero", "not a regular file"},
	             {"/tmp", "Is a directory"}};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *p = cases[i].path ? cases[i].path : path;
		err[0] = '\0';
		assert_int_equal(gt_theme_load_file(p, &t, err, sizeof(err)),
		                 -1);
		if (!strstr(err, p) || !strstr(err, cases[i].says))
			fail_msg("%s: '%s' lacks the path or '%s'", p, err,
			         cases[i].says);
	}
	unlink(path);
	snprintf(path, sizeof(path), "%s/big.theme", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	for (int i = 0; i < (1 << 20) / 32 + 1; i++)
		fputs("# a comment line of 32 bytes ..\n", f);
	fclose(f);
	assert_int_equal(gt_theme_load_file(path, &t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "too large"));
	unlink(path);
	rmdir(dir);
}

static void test_key_table(void **state)
{
	static const char *const btop[] = {
	    "main_bg",         "main_fg",        "title",
	    "hi_fg",           "selected_bg",    "selected_fg",
	    "inactive_fg",     "graph_text",     "meter_bg",
	    "proc_misc",       "cpu_box",        "mem_box",
	    "net_box",         "proc_box",       "div_line",
	    "temp_start",      "temp_mid",       "temp_end",
	    "cpu_start",       "cpu_mid",        "cpu_end",
	    "free_start",      "free_mid",       "free_end",
	    "cached_start",    "cached_mid",     "cached_end",
	    "available_start", "available_mid",  "available_end",
	    "used_start",      "used_mid",       "used_end",
	    "download_start",  "download_mid",   "download_end",
	    "upload_start",    "upload_mid",     "upload_end",
	    "process_start",   "process_mid",    "process_end",
	    "proc_pause_bg",   "proc_follow_bg", "proc_banner_bg",
	    "proc_banner_fg",  "followed_bg",    "followed_fg"};
	int grads = 0;

	(void)state;
	assert_int_equal(sizeof(btop) / sizeof(btop[0]), GT_TK_BTOP_COUNT);
	for (int k = 0; k < GT_TK_BTOP_COUNT; k++)
		assert_string_equal(gt_theme_key_name((enum gt_theme_key)k),
		                    btop[k]);
	for (int k = 0; k < GT_TK_COUNT; k++) {
		const char *n = gt_theme_key_name((enum gt_theme_key)k);
		assert_int_equal(gt_theme_key_lookup(n, strlen(n)), k);
		grads += gt_theme_key_is_gradient((enum gt_theme_key)k);
	}
	assert_int_equal(grads, 14);
	assert_int_equal(GT_TK_COUNT, 70);
	assert_null(gt_theme_key_name(GT_TK_COUNT));
	assert_int_equal(gt_theme_key_lookup("Main_bg", 7), GT_TK_NONE);
	assert_int_equal(gt_theme_key_lookup("main_bgx", 7), GT_TK_MAIN_BG);
	assert_true(gt_theme_key_is_bg(GT_TK_MAIN_BG));
	assert_true(gt_theme_key_is_bg(GT_TK_SELECTED_BG));
	assert_true(gt_theme_key_is_bg(GT_TK_THROTTLE_BG));
	assert_false(gt_theme_key_is_bg(GT_TK_METER_BG));
	assert_false(gt_theme_key_is_bg(GT_TK_FOLLOWED_FG));
	assert_true(gt_theme_key_is_gradient(GT_TK_VRAM_START));
	assert_false(gt_theme_key_is_gradient(GT_TK_VRAM_MID));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_btop_fixtures_all_load),
	    cmocka_unit_test(test_shipped_themes_load),
	    cmocka_unit_test(test_fixture_values),
	    cmocka_unit_test(test_grey_and_decimal_forms),
	    cmocka_unit_test(test_fallbacks_minimal_theme),
	    cmocka_unit_test(test_fallbacks_follow_the_theme),
	    cmocka_unit_test(test_empty_values),
	    cmocka_unit_test(test_gradients),
	    cmocka_unit_test(test_malformed_lines_reported),
	    cmocka_unit_test(test_warning_overflow),
	    cmocka_unit_test(test_fuzz_random_bytes),
	    cmocka_unit_test(test_load_file_errors),
	    cmocka_unit_test(test_tier_detection),
	    cmocka_unit_test(test_key_table),
	    cmocka_unit_test(test_not_a_theme_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

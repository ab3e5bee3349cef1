/* SPDX-License-Identifier: MIT */
/*
 * test_palette.c - tests of the xterm palette of src/ui/palette.c: its
 * 256 colours, the nearest 256-, 16- and 8-colour index to an RGB (fixed
 * cases, ties, and the nearest of all candidates for random colours), the
 * colour tier read from real terminal descriptions, the contrast check
 * after the colours are reduced (every pair of every theme readable with
 * 256, 16 and 8 colours), and the refusal of terminals that cannot move
 * the cursor.
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
#include <sys/stat.h>

#include "ui/palette.h"

#include <curses.h>
#include <term.h>

#include "support/theme_test.h"

static int dist2(struct gt_rgb a, struct gt_rgb b)
{
	return (a.r - b.r) * (a.r - b.r) + (a.g - b.g) * (a.g - b.g) +
	       (a.b - b.b) * (a.b - b.b);
}

static void test_256_colour_mapping(void **state)
{
	static const struct {
		uint32_t rgb;
		int want;
	} cases[] = {
	    {0xff8000, 208},
	    {0xc81e3c, 161},
	    {0x808080, 244},
	    {0x646464, 241},
	    {0x2f2f2f, 236},
	    {0x010203, 16},
	    {0xffffff, 231}, /* the cube's white beats grey 255 (238) */
	    {0x720000, 52},
	    {0x740000, 88}, /* either side of 115 */
	    /* btop's b/51 rounding sends #140050 to 18 (0,0,135); the
	     * real levels give 17 (0,0,95) */
	    {0x140050, 17},
	    {0x00002f, 233}, /* nearer grey 18 than any cube point */
	    /* ties go to the lower: 115 is midway between 95 and 135,
	     * 13 midway between greys 8 and 18 */
	    {0x730000, 52},
	    {0x0d0d0d, 232},
	};
	uint64_t seed = 12345;

	(void)state;
	/* every cube point and every grey maps to itself */
	for (int i = 16; i < 256; i++)
		assert_int_equal(gt_palette_nearest_256(gt_palette_rgb(i)), i);
	RGB_EQ(gt_palette_rgb(16 + 36 * 1 + 6 * 2 + 3), 0x5f87af);
	RGB_EQ(gt_palette_rgb(232), 0x080808);
	RGB_EQ(gt_palette_rgb(255), 0xeeeeee);
	RGB_EQ(gt_palette_rgb(208), 0xff8700);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t v = cases[i].rgb;
		struct gt_rgb c = {(uint8_t)(v >> 16), (uint8_t)(v >> 8),
		                   (uint8_t)v};
		assert_int_equal(gt_palette_nearest_256(c), cases[i].want);
	}
	/* and the choice is the nearest of all 240 candidates */
	for (int n = 0; n < 5000; n++) {
		uint64_t r = xorshift(&seed);
		struct gt_rgb c = {(uint8_t)r, (uint8_t)(r >> 8),
		                   (uint8_t)(r >> 16)};
		int best = 1 << 30;

		for (int i = 16; i < 256; i++) {
			int d = dist2(c, gt_palette_rgb(i));
			best = d < best ? d : best;
		}
		assert_int_equal(
		    dist2(c, gt_palette_rgb(gt_palette_nearest_256(c))), best);
	}
}

static void test_16_and_8_colour_mapping(void **state)
{
	static const struct {
		uint32_t rgb;
		int want16, want8;
	} cases[] = {
	    {0xff0000, 9, 1},
	    {0xc80000, 1, 1},
	    {0x101010, 0, 0},
	    {0xff8000, 3, 3},
	    {0x0000c8, 4, 4},
	    {0x5a5afa, 12, 4},
	    {0xfafaf5, 15, 7},
	    {0xc04040, 1, 1},
	    /* greys match greys only: plain distance gives yellow (3) */
	    {0x808080, 8, 7},
	    {0x404040, 8, 0},
	    {0xc0a0a0, 8, 7},
	    /* 178 is midway between 7f (8) and e5 (7): the lower index */
	    {0xb2b2b2, 7, 7},
	};

	(void)state;
	for (int i = 0; i < 16; i++)
		assert_int_equal(gt_palette_nearest_16(gt_palette_rgb(i)), i);
	for (int i = 0; i < 8; i++)
		assert_int_equal(gt_palette_nearest_8(gt_palette_rgb(i)), i);
	RGB_EQ(gt_palette_rgb(12), 0x5c5cff);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t v = cases[i].rgb;
		struct gt_rgb c = {(uint8_t)(v >> 16), (uint8_t)(v >> 8),
		                   (uint8_t)v};
		assert_int_equal(gt_palette_nearest_16(c), cases[i].want16);
		assert_int_equal(gt_palette_nearest_8(c), cases[i].want8);
	}
}

/* The tier the dashboard gets for a real terminal description: it must
 * read the description's colour count, which ncurses' COLORS only holds
 * after start_color (0 before it: every terminal would be mono). */
static enum gt_color_tier tier_for(const char *term, const char *colorterm,
                                   const char *no_color)
{
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/zero", "r");
	enum gt_color_tier tier = (enum gt_color_tier) - 1;

	assert_non_null(out);
	assert_non_null(in);
	if (colorterm)
		setenv("COLORTERM", colorterm, 1);
	else
		unsetenv("COLORTERM");
	if (no_color)
		setenv("NO_COLOR", no_color, 1);
	else
		unsetenv("NO_COLOR");
	setenv("TERM", term, 1);
	SCREEN *scr = newterm(term, out, in);
	if (scr) {
		set_term(scr);
		tier = gt_palette_tier();
		endwin();
		delscreen(scr);
	}
	fclose(out);
	fclose(in);
	return tier;
}

static void test_tier_from_terminfo(void **state)
{
	static const struct {
		const char *term, *colorterm, *no_color;
		enum gt_color_tier want;
	} cases[] = {
	    {"xterm-256color", NULL, NULL, GT_TIER_256},
	    {"screen-256color", NULL, NULL, GT_TIER_256},
	    {"tmux-256color", NULL, NULL, GT_TIER_256},
	    {"screen", NULL, NULL, GT_TIER_8},
	    {"xterm", NULL, NULL, GT_TIER_8},
	    {"xterm-16color", NULL, NULL, GT_TIER_16},
	    {"vt100", NULL, NULL, GT_TIER_MONO},
	    {"xterm-256color", "truecolor", NULL, GT_TIER_TRUE},
	    {"xterm-direct", NULL, NULL, GT_TIER_TRUE},
	    {"xterm-256color", "truecolor", "1", GT_TIER_MONO},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum gt_color_tier got = tier_for(
		    cases[i].term, cases[i].colorterm, cases[i].no_color);
		if (got != cases[i].want)
			fail_msg("TERM=%s COLORTERM=%s NO_COLOR=%s: tier %s, "
			         "want %s",
			         cases[i].term,
			         cases[i].colorterm ? cases[i].colorterm : "",
			         cases[i].no_color ? cases[i].no_color : "",
			         gt_color_tier_name(got),
			         gt_color_tier_name(cases[i].want));
	}
}

static struct gt_rgb hex(uint32_t v)
{
	return (struct gt_rgb){(uint8_t)(v >> 16), (uint8_t)(v >> 8),
	                       (uint8_t)v};
}

static void test_contrast_ratio(void **state)
{
	(void)state;
	/* WCAG 2's own figures: 21 for black on white, 1 for a colour on
	 * itself; #767676 on white is the famous 4.54. */
	assert_float_equal(gt_palette_contrast(hex(0), hex(0xffffff)), 21.0,
	                   1e-9);
	assert_float_equal(gt_palette_contrast(hex(0x123456), hex(0x123456)),
	                   1.0, 1e-9);
	assert_float_equal(gt_palette_contrast(hex(0x767676), hex(0xffffff)),
	                   4.54, 0.01);
	assert_float_equal(gt_palette_contrast(hex(0xffffff), hex(0x767676)),
	                   gt_palette_contrast(hex(0x767676), hex(0xffffff)),
	                   1e-12);
	/* btop's inactive grey on its black: faint on purpose, above the
	 * line */
	assert_true(gt_palette_contrast(hex(0x404040), hex(0)) >
	            GT_PALETTE_MIN_CONTRAST);
}

/* What the mapping alone does to btop's Default theme with 8 colours:
 * inactive_fg #404040 and main_bg #000000 both become black (the 546
 * black-on-black cells of issue 10). The fallback must not. */
static void test_contrast_fallback_8(void **state)
{
	struct gt_rgb bg = hex(0), fg = hex(0x404040);
	struct gt_palette_pair pp;

	(void)state;
	assert_int_equal(gt_palette_nearest_8(fg), gt_palette_nearest_8(bg));
	gt_palette_pair_resolve(fg, &bg, GT_TIER_8, false, &pp);
	assert_true(pp.fallback);
	assert_int_equal(pp.bg, 0);
	assert_int_not_equal(pp.fg, pp.bg);
	assert_in_range(pp.fg, 0, 7);
	assert_true(
	    gt_palette_contrast(gt_palette_rgb(pp.fg), gt_palette_rgb(pp.bg)) >=
	    GT_PALETTE_MIN_CONTRAST);
	/* a grey stays a grey (white, not yellow), dimmed: the theme meant
	 * it to be faint */
	assert_int_equal(pp.fg, 7);
	assert_int_equal(pp.attr, (int)A_DIM);

	/* 16 colours have a dark grey for it: no fallback needed */
	gt_palette_pair_resolve(fg, &bg, GT_TIER_16, false, &pp);
	assert_false(pp.fallback);
	assert_int_equal(pp.fg, 8);
	assert_int_equal(pp.attr, 0);

	/* main text on the same black: readable as it is */
	gt_palette_pair_resolve(hex(0xcccccc), &bg, GT_TIER_8, false, &pp);
	assert_false(pp.fallback);
	assert_int_equal(pp.fg, 7);

	/* btop's VRAM red #592b26 is black with 16 colours: a readable
	 * colour instead, not dimmed below the line */
	gt_palette_pair_resolve(hex(0x592b26), &bg, GT_TIER_16, false, &pp);
	assert_int_equal(gt_palette_nearest_16(hex(0x592b26)), 0);
	assert_true(pp.fallback);
	assert_true(gt_palette_contrast(gt_palette_rgb(pp.fg), bg) >=
	            GT_PALETTE_MIN_CONTRAST);

	/* a light background: a light grey turns dark, not invisible */
	bg = hex(0xffffff);
	gt_palette_pair_resolve(hex(0xd0d0d0), &bg, GT_TIER_8, false, &pp);
	assert_int_equal(pp.bg, 7);
	assert_true(pp.fallback);
	assert_int_equal(pp.fg, 0);
}

static void test_contrast_fallback_other_tiers(void **state)
{
	struct gt_rgb bg = hex(0x1e1e2e);
	struct gt_palette_pair pp;

	(void)state;
	/* 256 colours: #242436 and #1e1e2e both become grey 235 */
	assert_int_equal(gt_palette_nearest_256(hex(0x242436)),
	                 gt_palette_nearest_256(bg));
	gt_palette_pair_resolve(hex(0x242436), &bg, GT_TIER_256, false, &pp);
	assert_true(pp.fallback);
	assert_in_range(pp.fg, 16, 255);
	assert_true(
	    gt_palette_contrast(gt_palette_rgb(pp.fg), gt_palette_rgb(pp.bg)) >=
	    GT_PALETTE_MIN_CONTRAST);
	/* truecolour without a direct-colour description is 256 colours */
	struct gt_palette_pair tc;
	gt_palette_pair_resolve(hex(0x242436), &bg, GT_TIER_TRUE, false, &tc);
	assert_int_equal(tc.fg, pp.fg);
	assert_int_equal(tc.bg, pp.bg);

	/* exact colours are the theme's: faint stays faint */
	gt_palette_pair_resolve(hex(0x242436), &bg, GT_TIER_TRUE, true, &pp);
	assert_false(pp.fallback);
	assert_int_equal(pp.fg, 0x242436);
	assert_int_equal(pp.bg, 0x1e1e2e);
	/* xterm-direct sends 1..7 as ANSI colours: a near-black blue must
	 * not turn red */
	gt_palette_pair_resolve(hex(0x000001), &bg, GT_TIER_TRUE, true, &pp);
	assert_int_equal(pp.fg, 8);
	gt_palette_pair_resolve(hex(0), &bg, GT_TIER_TRUE, true, &pp);
	assert_int_equal(pp.fg, 0);

	/* the terminal's own background (unknown): a colour that vanishes
	 * on a dark one becomes the terminal's own foreground */
	gt_palette_pair_resolve(hex(0x101010), NULL, GT_TIER_8, false, &pp);
	assert_true(pp.fallback);
	assert_int_equal(pp.fg, -1);
	assert_int_equal(pp.bg, -1);
	gt_palette_pair_resolve(hex(0xc04040), NULL, GT_TIER_8, false, &pp);
	assert_false(pp.fallback);
	assert_int_equal(pp.fg, 1);

	/* no colours: nothing to resolve */
	gt_palette_pair_resolve(hex(0x404040), &bg, GT_TIER_MONO, false, &pp);
	assert_int_equal(pp.fg, -1);
	assert_int_equal(pp.bg, -1);
}

/* The colour a colour number shows as, for a pair's check: -1 (the
 * terminal's own) is dark for a background, as palette.h assumes. */
static struct gt_rgb shown(int c)
{
	return c < 0 ? hex(0) : gt_palette_rgb(c);
}

struct sweep {
	int pairs, fallbacks, themes;
};

/* gt_palette_init on a real terminal description: every pair it made
 * has the contrast, and stdscr's background is the main pair. */
static void check_theme_on(const struct gt_theme *t, const char *term,
                           const char *path, struct sweep *sw)
{
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/zero", "r");
	struct gt_palette p;

	assert_non_null(out);
	assert_non_null(in);
	unsetenv("COLORTERM");
	unsetenv("NO_COLOR");
	setenv("TERM", term, 1);
	SCREEN *scr = newterm(term, out, in);
	assert_non_null(scr);
	set_term(scr);
	gt_palette_init(&p, t, gt_palette_tier());
	assert_int_equal(PAIR_NUMBER(getbkgd(stdscr)),
	                 PAIR_NUMBER(p.role[GT_ROLE_MAIN]));
	int attrs[GT_ROLE__COUNT + GT_GRAD__COUNT * GT_GRAD_STEPS], n = 0;
	for (int r = 0; r < GT_ROLE__COUNT; r++)
		attrs[n++] = p.role[r];
	for (int g = 0; g < GT_GRAD__COUNT; g++)
		for (int k = 0; k < GT_GRAD_STEPS; k++)
			attrs[n++] = p.grad[g][k];
	for (int i = 0; i < n; i++) {
		int f, b, pair = PAIR_NUMBER(attrs[i]);

		assert_true(pair > 0);
		assert_int_equal(extended_pair_content(pair, &f, &b), OK);
		sw->pairs++;
		if (f < 0)
			continue; /* the terminal's own: readable on its own */
		if (gt_palette_contrast(shown(f), shown(b)) <
		    GT_PALETTE_MIN_CONTRAST)
			fail_msg("%s on TERM=%s: pair %d is colour %d on %d",
			         path, term, i, f, b);
	}
	/* the faint ones that had to change: dimmed or default */
	for (int i = 0; i < n; i++)
		sw->fallbacks += (attrs[i] & A_DIM) != 0;
	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
}

static void sweep_dir(const char *dir, struct sweep *sw)
{
	static const char *const terms[] = {"xterm", "linux", "xterm-16color",
	                                    "xterm-256color"};
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		fail_msg("cannot open %s", dir);
	while ((de = readdir(d)) != NULL) {
		char path[4096], err[256];
		struct gt_theme t;
		struct stat st;
		size_t n = strlen(de->d_name);

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			sweep_dir(path, sw);
			continue;
		}
		if (n < 7 || strcmp(de->d_name + n - 6, ".theme") != 0)
			continue;
		assert_int_equal(gt_theme_load_file(path, &t, err, sizeof(err)),
		                 0);
		for (size_t i = 0; i < sizeof(terms) / sizeof(terms[0]); i++)
			check_theme_on(&t, terms[i], path, sw);
		sw->themes++;
	}
	closedir(d);
}

static void test_every_theme_readable(void **state)
{
	const char *fx = getenv("GPUTOP_FIXTURES");
	const char *env = getenv("GPUTOP_THEMES_DIR");
	char dir[4096];
	struct sweep sw = {0, 0, 0};
	struct gt_theme t;
	char *old_term = getenv("TERM") ? strdup(getenv("TERM")) : NULL;

	(void)state;
	if (!fx || !fx[0])
		fail_msg("GPUTOP_FIXTURES is not set: run through tests/run.sh "
		         "or export GPUTOP_FIXTURES=$PWD/tests/fixtures");
	gt_theme_default(&t);
	check_theme_on(&t, "xterm", "Default", &sw);
	/* the Default theme's faint greys needed the fallback on xterm */
	assert_true(sw.fallbacks > 0);
	snprintf(dir, sizeof(dir), "%s/btop-themes", fx);
	sweep_dir(dir, &sw);
	sweep_dir(env && env[0] ? env : "themes", &sw);
	assert_true(sw.themes >= 52 + 6);
	if (old_term)
		setenv("TERM", old_term, 1);
	free(old_term);
}

static void test_term_check(void **state)
{
	char why[512];
	TERMINAL *before = cur_term;

	(void)state;
	assert_int_equal(
	    gt_palette_term_check("xterm-256color", why, sizeof(why)), 0);
	assert_int_equal(gt_palette_term_check("linux", why, sizeof(why)), 0);
	/* dumb: no cursor addressing. The message names the cause and
	 * what to do instead. */
	assert_int_equal(gt_palette_term_check("dumb", why, sizeof(why)), -1);
	assert_non_null(strstr(why, "TERM=dumb"));
	assert_non_null(strstr(why, "cannot move the cursor"));
	assert_non_null(strstr(why, "--snapshot"));
	assert_non_null(strstr(why, "TERM=xterm-256color"));
	assert_int_equal(
	    gt_palette_term_check("gputop-no-such-term", why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no description"));
	assert_int_equal(gt_palette_term_check("", why, sizeof(why)), -1);
	assert_non_null(strstr(why, "TERM is not set"));
	/* NULL reads $TERM */
	setenv("TERM", "dumb", 1);
	assert_int_equal(gt_palette_term_check(NULL, NULL, 0), -1);
	/* whatever terminal ncurses had before is still its terminal */
	assert_ptr_equal(cur_term, before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_256_colour_mapping),
	    cmocka_unit_test(test_16_and_8_colour_mapping),
	    cmocka_unit_test(test_tier_from_terminfo),
	    cmocka_unit_test(test_contrast_ratio),
	    cmocka_unit_test(test_contrast_fallback_8),
	    cmocka_unit_test(test_contrast_fallback_other_tiers),
	    cmocka_unit_test(test_every_theme_readable),
	    cmocka_unit_test(test_term_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

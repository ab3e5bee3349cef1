/* SPDX-License-Identifier: MIT */
/*
 * test_palette.c - tests of the xterm palette of src/ui/palette.c: its
 * 256 colours, the nearest 256-, 16- and 8-colour index to an RGB (fixed
 * cases, ties, and the nearest of all candidates for random colours), and
 * the colour tier read from real terminal descriptions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "ui/palette.h"

#include <curses.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_256_colour_mapping),
	    cmocka_unit_test(test_16_and_8_colour_mapping),
	    cmocka_unit_test(test_tier_from_terminfo),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

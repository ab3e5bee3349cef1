/* SPDX-License-Identifier: MIT */
/*
 * test_graph.c - tests of the glyph mapping in src/ui/graph.c: every braille
 * dot combination, each block and ASCII step, missing and out-of-range
 * samples, exact row widths, autoscale, meters and time labels. Expected
 * glyphs are derived here from the Unicode dot numbering, independently of
 * the masks in graph.c.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ui/graph.h"

/* Code point of the one cell of a 1x1 graph. */
static uint32_t cell1(const double *s, size_t n, double lo, double hi,
                      enum gt_glyphs g)
{
	uint32_t c = 0xdeadbeef;
	gt_graph_cells(s, n, lo, hi, 1, 1, g, &c);
	return c;
}

/* Braille bit of dot k (1..8) per the Unicode braille pattern block. */
static uint32_t dot(int k)
{
	return 1u << (k - 1);
}

/* Cells lit from the bottom: left column dots 7,3,2,1; right 8,6,5,4. */
static uint32_t braille_expect(int left, int right)
{
	static const int ldots[4] = {7, 3, 2, 1};
	static const int rdots[4] = {8, 6, 5, 4};
	uint32_t cp = 0x2800;
	for (int i = 0; i < left; i++)
		cp |= dot(ldots[i]);
	for (int i = 0; i < right; i++)
		cp |= dot(rdots[i]);
	return cp;
}

/* Number of UTF-8 code points in s[0..len). */
static size_t cps(const char *s, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			n++;
	return n;
}

/* Decodes the first code point of s (valid UTF-8 up to 3 bytes). */
static uint32_t first_cp(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	if (u[0] < 0x80)
		return u[0];
	if (u[0] < 0xe0)
		return ((uint32_t)(u[0] & 0x1f) << 6) | (u[1] & 0x3f);
	return ((uint32_t)(u[0] & 0x0f) << 12) |
	       ((uint32_t)(u[1] & 0x3f) << 6) | (u[2] & 0x3f);
}

static void test_braille_every_combination(void **state)
{
	(void)state;
	for (int l = 0; l <= 4; l++) {
		for (int r = 0; r <= 4; r++) {
			double s[2] = {l, r};
			assert_int_equal(cell1(s, 2, 0, 4, GT_GLYPHS_BRAILLE),
			                 braille_expect(l, r));
		}
	}
	/* spot values written out, so a shared mistake in the helper shows */
	double a[2] = {1.0, 0.0};
	assert_int_equal(cell1(a, 2, 0, 1, GT_GLYPHS_BRAILLE), 0x2847);
	double b[2] = {0.0, 1.0};
	assert_int_equal(cell1(b, 2, 0, 1, GT_GLYPHS_BRAILLE), 0x28b8);
	double c[2] = {1.0, 1.0};
	assert_int_equal(cell1(c, 2, 0, 1, GT_GLYPHS_BRAILLE), 0x28ff);
	double d[2] = {0.25, 0.25};
	assert_int_equal(cell1(d, 2, 0, 1, GT_GLYPHS_BRAILLE), 0x28c0);
	double e[2] = {0.5, 0.75};
	assert_int_equal(cell1(e, 2, 0, 1, GT_GLYPHS_BRAILLE), 0x28f4);
	double z[2] = {0.0, 0.0};
	assert_int_equal(cell1(z, 2, 0, 1, GT_GLYPHS_BRAILLE), 0x2800);
}

static void test_braille_utf8_bytes(void **state)
{
	(void)state;
	char out[16];
	double s[2] = {1.0, 0.0};
	size_t n = gt_graph_render(s, 2, 0, 1, 1, 1, GT_GLYPHS_BRAILLE, out,
	                           sizeof(out));
	assert_string_equal(out, "\xe2\xa1\x87"); /* U+2847 */
	assert_int_equal(n, 3);
}

static void test_braille_newest_right(void **state)
{
	(void)state;
	uint32_t c[2];
	double old[4] = {1, 0, 0, 0};
	gt_graph_cells(old, 4, 0, 1, 2, 1, GT_GLYPHS_BRAILLE, c);
	assert_int_equal(c[0], 0x2847);
	assert_int_equal(c[1], 0x2800);

	double newest[4] = {0, 0, 0, 1};
	gt_graph_cells(newest, 4, 0, 1, 2, 1, GT_GLYPHS_BRAILLE, c);
	assert_int_equal(c[0], 0x2800);
	assert_int_equal(c[1], 0x28b8);

	/* more history than fits: only the last 4 samples show */
	double longer[6] = {1, 1, 0, 0, 0, 1};
	gt_graph_cells(longer, 6, 0, 1, 2, 1, GT_GLYPHS_BRAILLE, c);
	assert_int_equal(c[0], 0x2800);
	assert_int_equal(c[1], 0x28b8);

	/* less history than columns: the left part stays empty */
	double one[1] = {1};
	gt_graph_cells(one, 1, 0, 1, 2, 1, GT_GLYPHS_BRAILLE, c);
	assert_int_equal(c[0], 0x2800);
	assert_int_equal(c[1], 0x28b8);
}

static void test_braille_multi_row(void **state)
{
	(void)state;
	uint32_t c[2];
	double half[1] = {0.5};
	gt_graph_cells(half, 1, 0, 1, 1, 2, GT_GLYPHS_BRAILLE, c);
	assert_int_equal(c[0], 0x2800); /* top row empty */
	assert_int_equal(c[1], 0x28b8); /* bottom row right column full */

	double tq[2] = {0.75, 0.25};
	gt_graph_cells(tq, 2, 0, 1, 1, 2, GT_GLYPHS_BRAILLE, c);
	assert_int_equal(c[0], braille_expect(2, 0));
	assert_int_equal(c[1], braille_expect(4, 2));
}

static void test_block_levels(void **state)
{
	(void)state;
	for (int k = 0; k <= 8; k++) {
		double s[1] = {k / 8.0};
		uint32_t want = k == 0 ? ' ' : 0x2580u + (uint32_t)k;
		assert_int_equal(cell1(s, 1, 0, 1, GT_GLYPHS_BLOCK), want);
	}
	double lower[1] = {0.125};
	assert_int_equal(cell1(lower, 1, 0, 1, GT_GLYPHS_BLOCK), 0x2581);
	double full[1] = {1};
	assert_int_equal(cell1(full, 1, 0, 1, GT_GLYPHS_BLOCK), 0x2588);

	char out[16];
	gt_graph_render(full, 1, 0, 1, 1, 1, GT_GLYPHS_BLOCK, out, sizeof(out));
	assert_string_equal(out, "\xe2\x96\x88");
}

static void test_block_multi_row_half(void **state)
{
	(void)state;
	char out[32];
	double s[1] = {50};
	gt_graph_render(s, 1, 0, 100, 1, 2, GT_GLYPHS_BLOCK, out, sizeof(out));
	assert_string_equal(out,
	                    " \n\xe2\x96\x88"); /* bottom row exactly full */

	uint32_t c[2];
	double tq[1] = {75};
	gt_graph_cells(tq, 1, 0, 100, 1, 2, GT_GLYPHS_BLOCK, c);
	assert_int_equal(c[0], 0x2584); /* lower half of the top row */
	assert_int_equal(c[1], 0x2588);

	/* one block per sample, newest right, in a 3-column graph */
	double row[3] = {0, 50, 100};
	gt_graph_render(row, 3, 0, 100, 3, 1, GT_GLYPHS_BLOCK, out,
	                sizeof(out));
	assert_string_equal(out, " \xe2\x96\x84\xe2\x96\x88");
}

static void test_ascii_mapping(void **state)
{
	(void)state;
	char out[32];
	double s[4] = {0, 1.0 / 3, 2.0 / 3, 1};
	gt_graph_render(s, 4, 0, 1, 4, 1, GT_GLYPHS_ASCII, out, sizeof(out));
	assert_string_equal(out, " .:|");

	double h[2] = {0.5, 4.0 / 6};
	gt_graph_render(h, 2, 0, 1, 2, 2, GT_GLYPHS_ASCII, out, sizeof(out));
	assert_string_equal(out, " .\n||");
}

static void test_nan_is_empty(void **state)
{
	(void)state;
	double s[2] = {NAN, 1.0};
	assert_int_equal(cell1(s, 2, 0, 1, GT_GLYPHS_BRAILLE), 0x28b8);
	double t[2] = {1.0, NAN};
	assert_int_equal(cell1(t, 2, 0, 1, GT_GLYPHS_BRAILLE), 0x2847);
	double u[1] = {NAN};
	assert_int_equal(cell1(u, 1, 0, 1, GT_GLYPHS_BLOCK), ' ');
	assert_int_equal(cell1(u, 1, 0, 1, GT_GLYPHS_ASCII), ' ');
}

static void test_clamping(void **state)
{
	(void)state;
	double big[1] = {150};
	assert_int_equal(cell1(big, 1, 0, 100, GT_GLYPHS_BLOCK), 0x2588);
	double neg[1] = {-5};
	assert_int_equal(cell1(neg, 1, 0, 100, GT_GLYPHS_BLOCK), ' ');
	double inf[2] = {INFINITY, -INFINITY};
	assert_int_equal(cell1(inf, 2, 0, 100, GT_GLYPHS_BRAILLE), 0x2847);
	/* a non-zero lo shifts the scale */
	double mid[1] = {60};
	assert_int_equal(cell1(mid, 1, 20, 100, GT_GLYPHS_BLOCK), 0x2584);
}

static void test_small_value_visible(void **state)
{
	(void)state;
	double tiny[1] = {0.1};
	assert_int_equal(cell1(tiny, 1, 0, 100, GT_GLYPHS_BLOCK), 0x2581);
	assert_int_equal(cell1(tiny, 1, 0, 100, GT_GLYPHS_ASCII), '.');
	double at_lo[1] = {0};
	assert_int_equal(cell1(at_lo, 1, 0, 100, GT_GLYPHS_BLOCK), ' ');
}

static void test_degenerate_scale(void **state)
{
	(void)state;
	double s[1] = {5};
	assert_int_equal(cell1(s, 1, 10, 10, GT_GLYPHS_BLOCK), ' ');
	assert_int_equal(cell1(s, 1, 10, 0, GT_GLYPHS_BLOCK), ' ');
	assert_int_equal(cell1(s, 1, 0, NAN, GT_GLYPHS_BLOCK), ' ');
	assert_int_equal(cell1(NULL, 0, 0, 1, GT_GLYPHS_BRAILLE), 0x2800);
}

static void test_width_height_exact(void **state)
{
	(void)state;
	double s[200];
	for (int i = 0; i < 200; i++)
		s[i] = i % 7 == 0 ? NAN : (double)((i * 37) % 120) - 10;

	for (int g = 0; g < GT_GLYPHS__COUNT; g++) {
		for (int h = 1; h <= 6; h++) {
			for (int w = 1; w <= 45; w++) {
				size_t size = gt_graph_render_size(w, h);
				char *out = malloc(size);
				assert_non_null(out);
				size_t n = gt_graph_render(s, 200, 0, 100, w, h,
				                           (enum gt_glyphs)g,
				                           out, size);
				assert_int_equal(n, strlen(out));
				int rows = 0;
				const char *p = out;
				for (;;) {
					const char *nl = strchr(p, '\n');
					size_t len =
					    nl ? (size_t)(nl - p) : strlen(p);
					assert_int_equal(cps(p, len),
					                 (size_t)w);
					rows++;
					if (!nl)
						break;
					p = nl + 1;
				}
				assert_int_equal(rows, h);
				free(out);
			}
		}
	}
}

static void test_render_truncation(void **state)
{
	(void)state;
	char out[6];
	double s[4] = {1, 1, 1, 1};
	memset(out, 'x', sizeof(out));
	size_t n = gt_graph_render(s, 4, 0, 1, 2, 2, GT_GLYPHS_BRAILLE, out,
	                           sizeof(out));
	assert_int_equal(n, 13); /* 4 glyphs of 3 bytes and a newline */
	/* 5 bytes of room: one whole glyph, never the next one's first bytes */
	assert_string_equal(out, "\xe2\xa3\xbf");

	char out8[8];
	gt_graph_render(s, 4, 0, 1, 2, 2, GT_GLYPHS_BRAILLE, out8,
	                sizeof(out8));
	assert_string_equal(out8, "\xe2\xa3\xbf\xe2\xa3\xbf\n");

	char one[1] = {'x'};
	gt_graph_render(s, 4, 0, 1, 2, 2, GT_GLYPHS_BRAILLE, one, 1);
	assert_int_equal(one[0], '\0');
	assert_int_equal(gt_graph_render_size(2, 2), 14);
}

static void test_samples_for(void **state)
{
	(void)state;
	assert_int_equal(gt_graph_samples_for(10, GT_GLYPHS_BRAILLE), 20);
	assert_int_equal(gt_graph_samples_for(10, GT_GLYPHS_BLOCK), 10);
	assert_int_equal(gt_graph_samples_for(10, GT_GLYPHS_ASCII), 10);
	assert_int_equal(gt_graph_samples_for(0, GT_GLYPHS_BRAILLE), 0);
	assert_int_equal(gt_graph_samples_for(-3, GT_GLYPHS_BLOCK), 0);
}

static void test_glyphs_default_and_names(void **state)
{
	(void)state;
	assert_int_equal(gt_glyphs_default("UTF-8"), GT_GLYPHS_BRAILLE);
	assert_int_equal(gt_glyphs_default("utf8"), GT_GLYPHS_BRAILLE);
	assert_int_equal(gt_glyphs_default("ANSI_X3.4-1968"), GT_GLYPHS_ASCII);
	assert_int_equal(gt_glyphs_default("ISO-8859-1"), GT_GLYPHS_ASCII);
	assert_int_equal(gt_glyphs_default("UTF-16"), GT_GLYPHS_ASCII);
	assert_int_equal(gt_glyphs_default(NULL), GT_GLYPHS_ASCII);

	assert_string_equal(gt_glyphs_name(GT_GLYPHS_BRAILLE), "braille");
	assert_string_equal(gt_glyphs_name(GT_GLYPHS_BLOCK), "block");
	assert_string_equal(gt_glyphs_name(GT_GLYPHS_ASCII), "ascii");
	assert_int_equal(gt_glyphs_parse("Braille"), GT_GLYPHS_BRAILLE);
	assert_int_equal(gt_glyphs_parse("block"), GT_GLYPHS_BLOCK);
	assert_int_equal(gt_glyphs_parse("tty"), GT_GLYPHS_ASCII);
	assert_int_equal(gt_glyphs_parse("blocks"), -1);
	assert_int_equal(gt_glyphs_parse(NULL), -1);
}

#define SCALE_EQ(want, ...)                                                    \
	do {                                                                   \
		double s_[] = {__VA_ARGS__};                                   \
		double got_ =                                                  \
		    gt_graph_autoscale(s_, sizeof(s_) / sizeof(s_[0]));        \
		if (fabs(got_ - (want)) > 1e-9 * (want)) {                     \
			fail_msg("autoscale: got %g, want %g", got_,           \
			         (double)(want));                              \
		}                                                              \
	} while (0)

static void test_autoscale(void **state)
{
	(void)state;
	assert_true(gt_graph_autoscale(NULL, 0) == 1.0);
	SCALE_EQ(1, 0.0);
	SCALE_EQ(1, -5.0);
	SCALE_EQ(1, NAN, INFINITY);
	SCALE_EQ(1, 1.0);
	SCALE_EQ(2, 1.01);
	SCALE_EQ(5, 3.0);
	SCALE_EQ(10, 7.0);
	SCALE_EQ(20, 20.0);
	SCALE_EQ(100, 100.0);
	SCALE_EQ(200, 101.0);
	SCALE_EQ(2000, 1500.0, NAN, INFINITY, 3.0);
	SCALE_EQ(0.5, 0.3);
	SCALE_EQ(0.002, 0.0012);
	SCALE_EQ(500e9, 350e9); /* bytes/s on a PCIe link */
}

static void test_meter(void **state)
{
	(void)state;
	char out[128];

	assert_int_equal(
	    gt_graph_meter(0.0, 4, GT_GLYPHS_BLOCK, out, sizeof(out)), 0);
	assert_string_equal(out, "    ");
	assert_int_equal(
	    gt_graph_meter(0.5, 4, GT_GLYPHS_BLOCK, out, sizeof(out)), 2);
	assert_string_equal(out, "\xe2\x96\x88\xe2\x96\x88  ");
	assert_int_equal(
	    gt_graph_meter(1.0, 4, GT_GLYPHS_BRAILLE, out, sizeof(out)), 4);
	assert_string_equal(out,
	                    "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88");

	assert_int_equal(
	    gt_graph_meter(0.0, 4, GT_GLYPHS_ASCII, out, sizeof(out)), 0);
	assert_string_equal(out, "----");
	assert_int_equal(
	    gt_graph_meter(0.5, 4, GT_GLYPHS_ASCII, out, sizeof(out)), 2);
	assert_string_equal(out, "##--");
	assert_int_equal(
	    gt_graph_meter(1.0, 4, GT_GLYPHS_ASCII, out, sizeof(out)), 4);
	assert_string_equal(out, "####");

	/* eighths: 1.5 of 3 cells ends in a left half block */
	assert_int_equal(
	    gt_graph_meter(0.5, 3, GT_GLYPHS_BLOCK, out, sizeof(out)), 2);
	assert_string_equal(out, "\xe2\x96\x88\xe2\x96\x8c ");
	for (int k = 1; k <= 7; k++) {
		gt_graph_meter(k / 8.0, 1, GT_GLYPHS_BLOCK, out, sizeof(out));
		assert_int_equal(first_cp(out), 0x2590u - (uint32_t)k);
	}
	/* a little is never nothing; NaN and out-of-range are clamped */
	gt_graph_meter(0.001, 10, GT_GLYPHS_BLOCK, out, sizeof(out));
	assert_int_equal(first_cp(out), 0x258f);
	gt_graph_meter(0.001, 10, GT_GLYPHS_ASCII, out, sizeof(out));
	assert_string_equal(out, "#---------");
	assert_int_equal(
	    gt_graph_meter(NAN, 3, GT_GLYPHS_ASCII, out, sizeof(out)), 0);
	assert_string_equal(out, "---");
	assert_int_equal(
	    gt_graph_meter(7.0, 3, GT_GLYPHS_ASCII, out, sizeof(out)), 3);
	assert_int_equal(
	    gt_graph_meter(-1, 3, GT_GLYPHS_ASCII, out, sizeof(out)), 0);

	/* exact width for every fraction and width */
	for (int w = 1; w <= 30; w++) {
		for (int i = 0; i <= 100; i++) {
			gt_graph_meter(i / 100.0, w, GT_GLYPHS_BLOCK, out,
			               sizeof(out));
			assert_int_equal(cps(out, strlen(out)), (size_t)w);
		}
	}
	/* a short buffer holds whole glyphs only */
	char small[5];
	gt_graph_meter(1.0, 4, GT_GLYPHS_BLOCK, small, sizeof(small));
	assert_string_equal(small, "\xe2\x96\x88");
}

static void test_time_labels(void **state)
{
	(void)state;
	char out[128];

	/* the brief's example: a 40-cell braille graph at 1 s */
	assert_int_equal(
	    gt_graph_time_labels(40, 1.0, GT_GLYPHS_BRAILLE, out, sizeof(out)),
	    3);
	assert_string_equal(out, "       60s            30s             0s");

	/* block: one sample per cell doubles the columns per second */
	assert_int_equal(
	    gt_graph_time_labels(20, 1.0, GT_GLYPHS_BLOCK, out, sizeof(out)),
	    2);
	assert_string_equal(out, "       10s        0s");
	assert_int_equal(
	    gt_graph_time_labels(31, 2.0, GT_GLYPHS_BLOCK, out, sizeof(out)),
	    2);
	assert_string_equal(out, "             30s             0s");

	/* one sample a minute: the axis speaks minutes */
	gt_graph_time_labels(20, 60.0, GT_GLYPHS_BLOCK, out, sizeof(out));
	assert_string_equal(out, "       10m        0s");
	gt_graph_time_labels(30, 3600.0, GT_GLYPHS_BLOCK, out, sizeof(out));
	assert_string_equal(out, "   24h         12h          0s");

	gt_graph_time_labels(30, 3e4, GT_GLYPHS_BLOCK, out, sizeof(out));
	assert_string_equal(out, "        7d                  0s");

	/* absurd spans: the labels left are whole and never touch */
	static const double huge[] = {1e5, 3e5, 1e6, 1e7};
	for (size_t i = 0; i < sizeof(huge) / sizeof(huge[0]); i++) {
		gt_graph_time_labels(30, huge[i], GT_GLYPHS_BLOCK, out,
		                     sizeof(out));
		assert_int_equal(strlen(out), 30);
		char *save = NULL;
		for (char *tok = strtok_r(out, " ", &save); tok;
		     tok = strtok_r(NULL, " ", &save)) {
			size_t d = strspn(tok, "0123456789");
			assert_true(d > 0);
			assert_non_null(strchr("smhd", tok[d]));
			assert_true(tok[d] != '\0' && tok[d + 1] == '\0');
		}
	}

	/* too narrow for more than "0s"; invalid interval: blank */
	assert_int_equal(
	    gt_graph_time_labels(3, 1.0, GT_GLYPHS_BLOCK, out, sizeof(out)), 1);
	assert_string_equal(out, " 0s");
	assert_int_equal(
	    gt_graph_time_labels(5, 0.0, GT_GLYPHS_BLOCK, out, sizeof(out)), 0);
	assert_string_equal(out, "     ");
	gt_graph_time_labels(5, NAN, GT_GLYPHS_BLOCK, out, sizeof(out));
	assert_string_equal(out, "     ");

	for (int w = 1; w <= 100; w++) {
		gt_graph_time_labels(w, 0.5, GT_GLYPHS_BRAILLE, out,
		                     sizeof(out));
		assert_int_equal(strlen(out), (size_t)w);
		/* the newest label always ends at the right edge */
		if (w >= 2)
			assert_string_equal(out + w - 2, "0s");
		else
			assert_string_equal(out, " ");
	}
}

/* The two-step form (heights once, then a row at a time) is exactly the
 * whole graph's row, for every symbol set, height and a series with gaps,
 * values below and above the range, and fewer samples than columns. */
static void test_graph_heights_match_cells(void **state)
{
	(void)state;
	double v[37];
	int heights[2 * 9];
	uint32_t all[9 * 5], got[9];
	for (int i = 0; i < 37; i++)
		v[i] = i % 7 == 0 ? NAN : (i * 13) % 120 - 10;
	for (int g = 0; g < GT_GLYPHS__COUNT; g++)
		for (int h = 1; h <= 5; h++)
			for (size_t n = 5; n <= 37; n += 32) {
				gt_graph_cells(v, n, 0, 100, 9, h,
				               (enum gt_glyphs)g, all);
				gt_graph_heights(v, n, 0, 100, 9, h,
				                 (enum gt_glyphs)g, heights);
				for (int r = 0; r < h; r++) {
					gt_graph_row_of(heights, 9, h,
					                (enum gt_glyphs)g, r,
					                got);
					assert_memory_equal(got, all + r * 9,
					                    sizeof(got));
				}
			}
	/* Outside the graph: nothing written. */
	got[0] = 0x41;
	gt_graph_row_of(heights, 9, 3, GT_GLYPHS_BLOCK, 3, got);
	gt_graph_row_of(heights, 9, 3, GT_GLYPHS_BLOCK, -1, got);
	assert_int_equal(got[0], 0x41);
}

/* Worked out again over the last drawing's columns: the same heights as
 * from scratch as the history moves on a sample at a time (N/A samples,
 * a short history, the samples running out included), and a column whose
 * value stayed takes its height from the last drawing. */
static void test_graph_heights_again(void **state)
{
	(void)state;
	double v[60], was_cols[2 * 9], cols[2 * 9];
	int was[2 * 9], again[2 * 9], fresh[2 * 9];
	for (int i = 0; i < 60; i++)
		v[i] = i % 11 == 0 ? NAN : (i * 37) % 130 - 10;
	for (int g = 0; g < GT_GLYPHS__COUNT; g++) {
		enum gt_glyphs gl = (enum gt_glyphs)g;
		int nc = (int)gt_graph_samples_for(9, gl);
		gt_graph_heights_again(v, 1, 0, 100, 9, 4, gl, NULL, NULL,
		                       was_cols, was);
		for (size_t n = 2; n <= 60; n++) {
			gt_graph_heights_again(v, n, 0, 100, 9, 4, gl, was_cols,
			                       was, cols, again);
			gt_graph_heights(v, n, 0, 100, 9, 4, gl, fresh);
			assert_memory_equal(again, fresh,
			                    (size_t)nc * sizeof(*fresh));
			for (int j = 0; j < nc; j++) {
				size_t back = (size_t)(nc - j);
				double want = back > n ? NAN : v[n - back];
				assert_memory_equal(&cols[j], &want,
				                    sizeof(want));
			}
			memcpy(was_cols, cols, sizeof(cols));
			memcpy(was, again, sizeof(again));
		}
	}
	/* Same values: the last drawing's heights are taken as they are
	 * (a wrong one here shows it was not worked out again); a changed
	 * value is worked out. */
	double flat[4] = {50, 50, 50, 70};
	double prev[4] = {50, 50, 50, 50};
	int prev_h[4] = {99, 99, 99, 99}, h[4];
	gt_graph_heights_again(flat, 4, 0, 100, 4, 2, GT_GLYPHS_BLOCK, prev,
	                       prev_h, NULL, h);
	assert_int_equal(h[0], 99);
	assert_int_equal(h[2], 99);
	assert_int_equal(h[3], 11); /* 70 % of 2 rows of 8 steps */
	/* Moved on by a column: each takes its right neighbour's. */
	double moved[4] = {20, 30, 40, 60};
	double was4[4] = {10, 20, 30, 40};
	int was4_h[4] = {1, 2, 3, 4};
	gt_graph_heights_again(moved, 4, 0, 100, 4, 2, GT_GLYPHS_BLOCK, was4,
	                       was4_h, NULL, h);
	assert_int_equal(h[0], 2);
	assert_int_equal(h[1], 3);
	assert_int_equal(h[2], 4);
	assert_int_equal(h[3], 10); /* 60 % of 16 steps, worked out */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_braille_every_combination),
	    cmocka_unit_test(test_braille_utf8_bytes),
	    cmocka_unit_test(test_braille_newest_right),
	    cmocka_unit_test(test_braille_multi_row),
	    cmocka_unit_test(test_block_levels),
	    cmocka_unit_test(test_block_multi_row_half),
	    cmocka_unit_test(test_ascii_mapping),
	    cmocka_unit_test(test_nan_is_empty),
	    cmocka_unit_test(test_clamping),
	    cmocka_unit_test(test_small_value_visible),
	    cmocka_unit_test(test_degenerate_scale),
	    cmocka_unit_test(test_width_height_exact),
	    cmocka_unit_test(test_render_truncation),
	    cmocka_unit_test(test_samples_for),
	    cmocka_unit_test(test_glyphs_default_and_names),
	    cmocka_unit_test(test_autoscale),
	    cmocka_unit_test(test_meter),
	    cmocka_unit_test(test_time_labels),
	    cmocka_unit_test(test_graph_heights_match_cells),
	    cmocka_unit_test(test_graph_heights_again),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

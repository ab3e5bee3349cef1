/* SPDX-License-Identifier: MIT */
/*
 * test_panels.c - the GPU panel's texts and its one-line form
 * (src/ui/panels*.c): names shortened by whole words with the vendor word
 * going first, binary units with the unit shown, the badges and their
 * order, and LINE rows whose fixed columns line up under their frame's
 * names, whose numbers are never cut, and which use the whole width;
 * the panel's memo key, which moves with what is drawn; gauges that each
 * keep a bar, line up in columns and keep clear of the box's sides.
 */
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <cmocka.h>

#include "ui/paint.h"
#include "ui/panels.h"
#include "support/curses_read.h"

struct fixture {
	SCREEN *scr;
	FILE *io;
	struct gt_static st;
	struct gt_sample s;
	struct gt_palette pal;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	f->scr = curses_null_screen(&f->io);
	assert_non_null(f->scr);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	endwin();
	delscreen(f->scr);
	fclose(f->io);
	free(f);
	return 0;
}

/* An H100 with the values of the fake NVML's h100x8 GPU 7 (97 %, 47 C,
 * 637.5 W of 700; its link trained down to gen 3 x8 when degraded, power
 * capped and slowed when throttled); index is only the number shown. */
static void h100(struct fixture *f, unsigned index, bool degraded,
                 bool throttled)
{
	gt_static_init(&f->st);
	gt_sample_init(&f->s);
	f->st.index = index;
	snprintf(f->st.name, sizeof(f->st.name), "NVIDIA H100 80GB HBM3");
	gt_val_set(&f->st.f[GT_S_PCIE_MAX_GEN], 5);
	gt_val_set(&f->st.f[GT_S_PCIE_MAX_WIDTH], 16);
	gt_val_set(&f->s.f[GT_F_UTIL_GPU], 9700);
	gt_val_set(&f->s.f[GT_F_MEM_TOTAL], 81559ll << 20);
	gt_val_set(&f->s.f[GT_F_MEM_USED], 73216ll << 20);
	gt_val_set(&f->s.f[GT_F_TEMP_GPU], 47000);
	gt_val_set(&f->s.f[GT_F_POWER_DRAW], 637500);
	gt_val_set(&f->s.f[GT_F_POWER_ENFORCED], 700000);
	gt_val_set(&f->s.f[GT_F_PCIE_GEN], degraded ? 3 : 5);
	gt_val_set(&f->s.f[GT_F_PCIE_WIDTH], degraded ? 8 : 16);
	if (throttled)
		gt_val_set(&f->s.f[GT_F_THROTTLE],
		           GT_THR_SW_POWER_CAP | GT_THR_HW_SLOWDOWN);
}

static struct gt_panel_data data(struct fixture *f)
{
	return (struct gt_panel_data){.st = &f->st,
	                              .s = &f->s,
	                              .pal = &f->pal,
	                              .glyphs = GT_GLYPHS_BRAILLE};
}

static void test_short_name(void **state)
{
	char b[128];

	(void)state;
	const char *h = "NVIDIA H100 80GB HBM3";
	assert_int_equal(gt_panels_short_name(b, sizeof(b), h, 40), 21);
	assert_string_equal(b, h);
	/* The vendor word goes first, then the last words, whole. */
	gt_panels_short_name(b, sizeof(b), h, 20);
	assert_string_equal(b, "H100 80GB HBM3");
	gt_panels_short_name(b, sizeof(b), h, 14);
	assert_string_equal(b, "H100 80GB HBM3");
	gt_panels_short_name(b, sizeof(b), h, 13);
	assert_string_equal(b, "H100 80GB");
	gt_panels_short_name(b, sizeof(b), h, 8);
	assert_string_equal(b, "H100");
	/* A number is never cut: "H1" would read as another GPU. */
	assert_int_equal(gt_panels_short_name(b, sizeof(b), h, 3), 0);
	assert_string_equal(b, "");
	/* A word without a digit may be cut, by whole characters. */
	gt_panels_short_name(b, sizeof(b), "Radeon", 3);
	assert_string_equal(b, "Rad");
	gt_panels_short_name(b, sizeof(b), "AMD Radeon RX 7900 XTX", 18);
	assert_string_equal(b, "Radeon RX 7900 XTX");
	/* Wide characters count two cells. */
	gt_panels_short_name(b, sizeof(b), "\u6d4b\u8bd5 GPU", 5);
	assert_string_equal(b, "\u6d4b\u8bd5");
	/* Escaped: a name cannot reach the terminal as a control. */
	gt_panels_short_name(b, sizeof(b), "a\033]0;x\007", 40);
	assert_null(strchr(b, '\033'));
	assert_int_equal(gt_panels_short_name(b, sizeof(b), h, 0), 0);
}

static void test_units(void **state)
{
	struct gt_val u, t, r;
	char b[64];

	(void)state;
	gt_val_set(&u, 73216ll << 20);
	gt_val_set(&t, 81559ll << 20);
	gt_panels_fmt_mem(b, sizeof(b), &u, &t);
	assert_string_equal(b, "71.5/79.6 GiB");
	gt_val_set(&u, 256ll << 20);
	gt_val_set(&t, 512ll << 20);
	gt_panels_fmt_mem(b, sizeof(b), &u, &t);
	assert_string_equal(b, "256/512 MiB");
	gt_val_fail(&u, GT_WHY_NOT_COLLECTED, 0);
	gt_panels_fmt_mem(b, sizeof(b), &u, &t);
	assert_string_equal(b, "N/A");
	/* PCIe traffic: binary, per second, the unit shown. */
	gt_val_set(&r, 3166208);
	gt_panels_fmt_rate(b, sizeof(b), &r);
	assert_string_equal(b, "3.0 MiB/s");
	gt_val_set(&r, 3ll << 30);
	gt_panels_fmt_rate(b, sizeof(b), &r);
	assert_string_equal(b, "3.0 GiB/s");
	gt_val_set(&r, 10240);
	gt_panels_fmt_rate(b, sizeof(b), &r);
	assert_string_equal(b, "10 KiB/s");
	gt_val_fail(&r, GT_WHY_NOT_COLLECTED, 0);
	gt_panels_fmt_rate(b, sizeof(b), &r);
	assert_string_equal(b, "N/A");
}

/* Badges: state first, then gputop's own change, the link, throttling. */
static void test_badge_order(void **state)
{
	struct fixture *f = *state;
	struct gt_panels_badge b[GT_PANELS_MAX_BADGES];

	h100(f, 2, true, true);
	struct gt_panel_data d = data(f);
	d.stale = true;
	d.changed = "LIMIT 382 W";
	int n = gt_panels_badge_list(&d, false, b, GT_PANELS_MAX_BADGES);
	assert_int_equal(n, 5);
	assert_string_equal(b[0].text, "STALE");
	assert_string_equal(b[1].text, "LIMIT 382 W");
	assert_string_equal(b[2].text, "PCIe 3x8 of 5x16");
	assert_string_equal(b[3].text, "power_cap");
	assert_string_equal(b[4].text, "hw_slowdown");
	n = gt_panels_badge_list(&d, true, b, GT_PANELS_MAX_BADGES);
	assert_string_equal(b[2].text, "PCIe 3x8");
	assert_string_equal(b[3].text, "PWR");
	assert_string_equal(b[4].text, "HWSLOW");
	f->s.state = GT_DEV_LOST;
	assert_int_equal(gt_panels_badge_list(&d, true, b, 2), 2);
	assert_string_equal(b[0].text, "LOST");
	h100(f, 0, false, false);
	d = data(f);
	assert_int_equal(gt_panels_badge_list(&d, true, b, 12), 0);
}

/* Columns: fixed for a width, kept ones first, the whole width used. */
static void test_line_columns(void **state)
{
	struct gt_panels_cols c;

	(void)state;
	for (int w = 20; w <= 400; w++) {
		gt_panels_line_columns(w, &c);
		int end = 0, shown = 0;
		for (int k = 0; k < GT_PCOL__COUNT; k++) {
			if (!c.w[k])
				continue;
			assert_true(c.x[k] >= end); /* in order, apart */
			end = c.x[k] + c.w[k] + 1;
			shown++;
		}
		assert_true(end - 1 <= w);
		if (c.w[GT_PCOL_BADGES])
			assert_int_equal(end - 1, w); /* the badges take
			                                 the rest */
		if (w >= 60) {
			/* From 60 on the numbers that matter are there. */
			assert_true(c.w[GT_PCOL_VRAM] >= 13);
			assert_true(c.w[GT_PCOL_POWER] >= 9);
			assert_true(c.w[GT_PCOL_TEMP] >= 5);
			assert_true(c.w[GT_PCOL_BADGES] >= 8);
		}
		assert_true(shown >= 3);
	}
	/* Wider rows show more. */
	gt_panels_line_columns(58, &c);
	assert_int_equal(c.w[GT_PCOL_GFX], 0);
	gt_panels_line_columns(198, &c);
	assert_true(c.w[GT_PCOL_GFX] && c.w[GT_PCOL_PCIE] && c.w[GT_PCOL_TX] &&
	            c.w[GT_PCOL_METER] >= 16 && c.w[GT_PCOL_NAME] == 24);
}

/* The one-line screen at 60 columns: "620/70" for 620/700 W,
 * "NVIDIA H100 80" for the name, no PCIe or throttle warning. Now: the
 * numbers whole, the name by words, the warnings as short badges. */
static void test_line_row_at_60(void **state)
{
	struct fixture *f = *state;
	char row[1024];
	WINDOW *w = newpad(1, 58);

	assert_non_null(w);
	h100(f, 2, true, false);
	struct gt_panel_data d = data(f);
	gt_panels_draw_gpu(w, (struct gt_rect){0, 0, 58, 1}, GT_GPU_LINE, &d);
	curses_read_row(w, 0, 0, 58, row, sizeof(row));
	assert_non_null(strstr(row, "  2 H100 80GB "));
	assert_non_null(strstr(row, " 97% "));
	assert_non_null(strstr(row, " 71.5/79.6 GiB "));
	assert_non_null(strstr(row, " 47\u00b0C "));
	assert_non_null(strstr(row, " 638/700 W "));
	assert_non_null(strstr(row, "PCIe 3x8"));
	h100(f, 5, false, true);
	d = data(f);
	d.stale = true;
	werase(w);
	gt_panels_draw_gpu(w, (struct gt_rect){0, 0, 58, 1}, GT_GPU_LINE, &d);
	curses_read_row(w, 0, 0, 58, row, sizeof(row));
	/* STALE first; what does not fit is a "+", never half a badge. */
	assert_non_null(strstr(row, " 638/700 W STALE +"));
	delwin(w);
}

/* Every width: the frame's column names sit over their columns, numbers
 * right-aligned under them and never cut. */
static void test_line_aligned_under_frame(void **state)
{
	struct fixture *f = *state;
	char top[64], row[2048];
	struct gt_panels_cols c;

	for (int fw = 40; fw <= 300; fw += 13) {
		WINDOW *w = newpad(3, fw);
		assert_non_null(w);
		h100(f, 7, false, false);
		struct gt_panel_data d = data(f);
		gt_panels_draw_frame(w, (struct gt_rect){0, 0, fw, 3}, &f->pal,
		                     GT_GLYPHS_BRAILLE);
		gt_panels_draw_gpu(w, (struct gt_rect){1, 1, fw - 2, 1},
		                   GT_GPU_LINE, &d);
		curses_read_row(w, 1, 1, fw - 2, row, sizeof(row));
		gt_panels_line_columns(fw - 2, &c);
		if (c.w[GT_PCOL_POWER]) {
			/* "POWER" ends where "638/700 W" ends. */
			int e = c.x[GT_PCOL_POWER] + c.w[GT_PCOL_POWER];
			curses_read_row(w, 0, 1 + e - 5, 5, top, sizeof(top));
			assert_string_equal(top, "POWER");
			curses_read_row(w, 1, 1 + e - 9, 9, top, sizeof(top));
			assert_string_equal(top, "638/700 W");
			assert_non_null(strstr(row, "638/700 W"));
		}
		if (c.w[GT_PCOL_VRAM])
			assert_non_null(strstr(row, "71.5/79.6 GiB"));
		assert_null(strstr(row, "620/70 "));
		delwin(w);
	}
}

/* Instance i of an A100 in MIG mode (the a100-mig scenario's three,
 * then again). */
static void mig_instance(struct gt_mig_instance *m, unsigned dev, unsigned i)
{
	static const struct {
		const char *profile;
		uint32_t gi;
		int64_t total_mib, used_mib, procs;
	} v[] = {{"3g.20gb", 1, 19968, 8211, 1},
	         {"2g.10gb", 5, 9856, 4115, 2},
	         {"1g.5gb", 13, 4864, 13, 0}};
	memset(m, 0, sizeof(*m));
	for (int k = 0; k < GT_M__COUNT; k++)
		gt_val_fail(&m->f[k], GT_WHY_NOT_COLLECTED, 0);
	m->device_index = dev;
	m->index = i;
	m->gi = v[i % 3].gi + i / 3;
	m->ci = 0;
	gt_text_val_set(&m->profile, v[i % 3].profile);
	gt_val_set(&m->f[GT_M_MEM_TOTAL], v[i % 3].total_mib << 20);
	gt_val_set(&m->f[GT_M_MEM_USED], v[i % 3].used_mib << 20);
	gt_val_set(&m->f[GT_M_PROCESSES], v[i % 3].procs);
	gt_val_fail(&m->f[GT_M_UTIL_GPU], GT_WHY_UNSUPPORTED_DEVICE, 0);
}

static void test_mig_texts(void **state)
{
	struct gt_mig_instance m;
	struct gt_panels_mig_text t;
	(void)state;

	mig_instance(&m, 0, 0);
	gt_panels_mig_text(&m, &t);
	assert_string_equal(t.head, "MIG 3g.20gb GI 1/CI 0");
	assert_string_equal(t.mem, "8.0/19.5 GiB");
	assert_string_equal(t.procs, "1 proc");
	assert_string_equal(t.na, "GPU% N/A: not supported by this device");
	mig_instance(&m, 0, 1);
	gt_val_set(&m.f[GT_M_UTIL_GPU], 4000);
	gt_text_val_fail(&m.profile, GT_WHY_UNSUPPORTED_DRIVER);
	m.gi = GT_MIG_NONE;
	gt_panels_mig_text(&m, &t);
	assert_string_equal(t.head, "MIG profile N/A #1");
	assert_string_equal(t.procs, "2 procs");
	assert_string_equal(t.na, "GPU 40%");
	gt_val_fail(&m.f[GT_M_MEM_USED], GT_WHY_PERMISSION, 0);
	gt_panels_mig_text(&m, &t);
	assert_string_equal(t.mem, "N/A");
}

/* The instances of one device, out of a list grouped by device. */
static void test_mig_of(void **state)
{
	struct gt_mig_instance all[5];
	size_t n = 9;
	(void)state;

	mig_instance(&all[0], 0, 0);
	mig_instance(&all[1], 2, 0);
	mig_instance(&all[2], 2, 1);
	mig_instance(&all[3], 2, 2);
	mig_instance(&all[4], 3, 0);
	assert_ptr_equal(gt_panels_mig_of(all, 5, 2, &n), &all[1]);
	assert_int_equal(n, 3);
	assert_ptr_equal(gt_panels_mig_of(all, 5, 0, &n), &all[0]);
	assert_int_equal(n, 1);
	assert_null(gt_panels_mig_of(all, 5, 1, &n));
	assert_int_equal(n, 0);
	assert_null(gt_panels_mig_of(NULL, 0, 0, &n));
}

/* A FULL panel: the badge in the border, one row per instance at the top
 * of the graph area; too few rows for all: a last row counts the rest;
 * COMPACT: the badge only. */
static void test_mig_rows_in_panel(void **state)
{
	struct fixture *f = *state;
	struct gt_mig_instance mig[4];
	char row[1024];
	WINDOW *w = newpad(20, 100);

	assert_non_null(w);
	h100(f, 0, false, false);
	gt_val_set(&f->st.f[GT_S_MIG_MODE], 1);
	for (unsigned i = 0; i < 3; i++)
		mig_instance(&mig[i], 0, i);
	struct gt_panel_data d = data(f);
	d.mig = mig;
	d.nmig = 3;
	gt_panels_draw_gpu(w, (struct gt_rect){0, 0, 100, 20}, GT_GPU_FULL, &d);
	curses_read_row(w, 0, 0, 100, row, sizeof(row));
	assert_non_null(strstr(row, " MIG 3 "));
	static const char *const want[] = {"MIG 3g.20gb GI 1/CI 0",
	                                   "MIG 2g.10gb GI 5/CI 0",
	                                   "MIG 1g.5gb GI 13/CI 0"};
	for (int i = 0; i < 3; i++) {
		curses_read_row(w, 1 + i, 1, 98, row, sizeof(row));
		assert_non_null(strstr(row, want[i]));
	}
	curses_read_row(w, 2, 1, 98, row, sizeof(row));
	assert_non_null(strstr(row, "4.0/9.6 GiB  2 procs  GPU% N/A"));
	curses_read_row(w, 4, 1, 98, row, sizeof(row));
	assert_null(strstr(row, "MIG "));

	/* A short panel (3 rows of graph) and 4 instances: the graph
	 * goes, two rows show, the third says +2. */
	mig_instance(&mig[3], 0, 3);
	d.nmig = 4;
	werase(w);
	gt_panels_draw_gpu(w, (struct gt_rect){0, 0, 100, 7}, GT_GPU_FULL, &d);
	curses_read_row(w, 1, 1, 98, row, sizeof(row));
	assert_non_null(strstr(row, want[0]));
	curses_read_row(w, 2, 1, 98, row, sizeof(row));
	assert_non_null(strstr(row, want[1]));
	curses_read_row(w, 3, 1, 98, row, sizeof(row));
	assert_non_null(strstr(row, "+2 MIG instances"));

	werase(w);
	gt_panels_draw_gpu(w, (struct gt_rect){0, 0, 100, 6}, GT_GPU_COMPACT,
	                   &d);
	curses_read_row(w, 0, 0, 100, row, sizeof(row));
	assert_non_null(strstr(row, " MIG 4 "));
	for (int r = 1; r < 6; r++) {
		curses_read_row(w, r, 1, 98, row, sizeof(row));
		assert_null(strstr(row, "GI 1/CI 0"));
	}
	delwin(w);
}

/* A gauge without a scale (a draw without a power limit, an unknown
 * memory size) draws no empty track that reads as 0 %: its text follows
 * its label and says what is missing. With the scale, the bar comes
 * between them. */
static void test_meter_without_scale(void **state)
{
	struct fixture *f = *state;
	char row[1024];
	WINDOW *w = newpad(20, 100);
	assert_non_null(w);

	h100(f, 0, false, false);
	struct gt_panel_data d = data(f);
	gt_panels_draw_gpu(w, (struct gt_rect){0, 0, 100, 20}, GT_GPU_FULL, &d);
	bool seen = false;
	for (int r = 0; r < 20; r++) {
		curses_read_row(w, r, 0, 100, row, sizeof(row));
		char *p = strstr(row, "POWER ");
		if (p && strstr(row, "638/700 W")) {
			assert_null(strstr(row, "POWER 638"));
			seen = true;
		}
	}
	assert_true(seen);

	gt_val_fail(&f->s.f[GT_F_POWER_ENFORCED], GT_WHY_UNSUPPORTED_DEVICE, 0);
	gt_val_fail(&f->s.f[GT_F_MEM_TOTAL], GT_WHY_UNSUPPORTED_DEVICE, 0);
	werase(w);
	gt_paint_invalidate();
	gt_panels_draw_gpu(w, (struct gt_rect){0, 0, 100, 20}, GT_GPU_FULL, &d);
	bool power = false, vram = false;
	for (int r = 0; r < 20; r++) {
		curses_read_row(w, r, 0, 100, row, sizeof(row));
		power |= strstr(row, "POWER 638 W, limit N/A") != NULL;
		vram |= strstr(row, "VRAM  N/A") != NULL;
	}
	assert_true(power);
	assert_true(vram);
	delwin(w);
}

/* The panel's memo key moves with what the panel shows: not with the
 * energy counter (never drawn) nor with a PCIe rate that rounds to the
 * same text, but with a rate whose text changes and with any other
 * field. */
static void test_key_follows_drawn_text(void **state)
{
	struct fixture *f = *state;
	h100(f, 0, false, false);
	gt_val_set(&f->s.f[GT_F_PCIE_TX], 3 << 20);
	gt_val_set(&f->s.f[GT_F_ENERGY], 912345678);
	struct gt_panel_data d = data(f);
	uint64_t k0 = gt_panels_key(&d, GT_GPU_FULL);

	gt_val_set(&f->s.f[GT_F_ENERGY], 912345678 + 620);
	gt_val_set(&f->s.f[GT_F_PCIE_TX], (3 << 20) + 1000); /* 3.0 MiB/s */
	assert_true(gt_panels_key(&d, GT_GPU_FULL) == k0);

	gt_val_set(&f->s.f[GT_F_PCIE_TX], (3 << 20) + 200000); /* 3.2 */
	uint64_t k1 = gt_panels_key(&d, GT_GPU_FULL);
	assert_true(k1 != k0);
	gt_val_fail(&f->s.f[GT_F_PCIE_TX], GT_WHY_UNSUPPORTED_DEVICE, 0);
	assert_true(gt_panels_key(&d, GT_GPU_FULL) != k1);

	gt_val_set(&f->s.f[GT_F_PCIE_TX], 3 << 20);
	gt_val_set(&f->s.f[GT_F_TEMP_GPU], 48000);
	assert_true(gt_panels_key(&d, GT_GPU_FULL) != k0);
}

/* The column at which `label` followed by a blank starts on row y, or -1. */
static int label_at(WINDOW *w, int y, int width, const char *label)
{
	int n = (int)strlen(label);
	for (int x = 0; x + n < width; x++) {
		int i = 0;
		while (i < n &&
		       curses_read_glyph(w, y, x + i) == (wchar_t)label[i])
			i++;
		if (i == n && curses_read_glyph(w, y, x + n) == L' ' &&
		    (x == 0 || curses_read_glyph(w, y, x - 1) == L' '))
			return x;
	}
	return -1;
}

/* The gauges, at the widths the dashboard gives a panel at 120, 160 and
 * 200 columns (two rows of two, and one row of four): each keeps a bar
 * (a block after its label, however long its numbers), a column's gauges
 * start at the same cell, and no text touches the box: the cells just
 * inside both sides are blank. */
static void test_meters_keep_bars_and_padding(void **state)
{
	struct fixture *f = *state;
	static const int widths[] = {59, 79, 99, 149};
	static const char *const labels[] = {"GPU", "VRAM", "TEMP", "POWER"};

	h100(f, 0, false, false);
	gt_val_set(&f->st.f[GT_S_TEMP_SLOWDOWN], 87000);
	gt_val_set(&f->st.f[GT_S_TEMP_SHUTDOWN], 92000);
	struct gt_panel_data d = data(f);
	for (size_t k = 0; k < sizeof(widths) / sizeof(widths[0]); k++) {
		int bw = widths[k];
		WINDOW *w = newpad(14, bw);
		assert_non_null(w);
		gt_paint_invalidate();
		gt_panels_draw_gpu(w, (struct gt_rect){0, 0, bw, 14},
		                   GT_GPU_FULL, &d);
		int col[4] = {-1, -1, -1, -1};
		for (int y = 1; y < 13; y++) {
			assert_true(curses_read_glyph(w, y, 1) == L' ' ||
			            curses_read_glyph(w, y, 1) == 0x2800);
			assert_true(curses_read_glyph(w, y, bw - 2) == L' ' ||
			            curses_read_glyph(w, y, bw - 2) == 0x2800);
			for (int m = 0; m < 4; m++) {
				int x = label_at(w, y, bw, labels[m]);
				if (x < 0 ||
				    curses_read_glyph(w, y, x + 6) < 0x2588 ||
				    curses_read_glyph(w, y, x + 6) > 0x258f)
					continue; /* a graph's label, or text */
				col[m] = x;
			}
		}
		for (int m = 0; m < 4; m++) {
			if (col[m] < 0)
				fail_msg("width %d: %s has no bar", bw,
				         labels[m]);
		}
		if (bw < 90) { /* two rows of two */
			assert_int_equal(col[0], col[2]);
			assert_int_equal(col[1], col[3]);
		}
		delwin(w);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_short_name),
	    cmocka_unit_test(test_units),
	    cmocka_unit_test(test_badge_order),
	    cmocka_unit_test(test_line_columns),
	    cmocka_unit_test(test_line_row_at_60),
	    cmocka_unit_test(test_line_aligned_under_frame),
	    cmocka_unit_test(test_mig_texts),
	    cmocka_unit_test(test_mig_of),
	    cmocka_unit_test(test_mig_rows_in_panel),
	    cmocka_unit_test(test_meter_without_scale),
	    cmocka_unit_test(test_key_follows_drawn_text),
	    cmocka_unit_test(test_meters_keep_bars_and_padding),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

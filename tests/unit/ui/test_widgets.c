/* SPDX-License-Identifier: MIT */
/*
 * test_widgets.c - the dashboard's widgets draw nothing outside their
 * rectangle: every widget (FULL, COMPACT and LINE GPU panels, the history
 * graphs, the process table) is drawn into a pad pre-filled with a
 * sentinel, for rectangles from 1x1 up and for 1, 8 and 16 GPUs' data with
 * long and wide (CJK) names, throttle badges, N/A values and lost devices,
 * and every cell outside the rectangle must still hold the sentinel. Also
 * the pieces behind the panels' issues: the graph plan, the temperature
 * steps, badge fitting, and the sort header.
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

#include "ui/gpugraph.h"
#include "ui/paint.h"
#include "ui/panels.h"
#include "ui/proctable_draw.h"
#include "support/curses_read.h"

#define NGPU_MAX 16
#define NPROC    40
#define SENTINEL L'~'

struct fixture {
	SCREEN *scr;
	FILE *out, *in;
	struct gt_static st[NGPU_MAX];
	struct gt_sample s[NGPU_MAX];
	struct gt_history *hist; /* NGPU_MAX, heap: they are big */
	struct gt_palette pal;
	struct gt_process procs[NPROC];
	size_t order[NPROC];
};

static void set(struct gt_val *v, int64_t x)
{
	gt_val_set(v, x);
}

/* One sample a second from t = 1 s, each standing for the second before
 * it. */
static void hist_push(struct gt_history *h, const double *vals)
{
	h->t[h->head] = (uint64_t)(h->count + 1) * 1000000000ull;
	h->span[h->head] = 1000000000ull;
	for (int k = 0; k < GT_SERIES__COUNT; k++) {
		h->v[k][h->head] = vals[k];
		h->seen_value[k] = h->seen_value[k] || !isnan(vals[k]);
		h->seen_positive[k] = h->seen_positive[k] || vals[k] > 0;
	}
	h->head = (h->head + 1) % GT_HISTORY_LEN;
	if (h->count < GT_HISTORY_LEN)
		h->count++;
}

/* GPU i's data: each index varies something a widget must lay out. */
static void make_gpu(struct fixture *f, int i)
{
	struct gt_static *st = &f->st[i];
	struct gt_sample *s = &f->s[i];
	gt_static_init(st);
	gt_sample_init(s);
	st->index = (unsigned)i;
	snprintf(st->pci_bus_id, sizeof(st->pci_bus_id), "0000:%02x:00.0", i);
	snprintf(st->driver, sizeof(st->driver), "nvidia");
	snprintf(st->driver_version, sizeof(st->driver_version), "590.48.01");
	if (i % 4 == 1) /* wide characters: two cells each */
		snprintf(
		    st->name, sizeof(st->name),
		    "\u6d4b\u8bd5\u663e\u5361 GPU \u6d4b\u8bd5\u663e\u5361 "
		    "\u6d4b\u8bd5");
	else if (i % 4 == 2) /* combining marks and a long name */
		snprintf(st->name, sizeof(st->name),
		         "Rade\u0301on Pro\u0301 W7900 Dual Slot Workstation "
		         "Edition with a very long marketing name");
	else if (i % 4 == 3)
		st->name[0] = '\0';
	else
		snprintf(st->name, sizeof(st->name), "NVIDIA H100 80GB HBM3");
	st->demo = i == 5;
	if (i % 3 != 2) { /* every third one: thresholds N/A */
		set(&st->f[GT_S_TEMP_SLOWDOWN], 87000);
		set(&st->f[GT_S_TEMP_SHUTDOWN], 93000);
		set(&st->f[GT_S_PCIE_MAX_GEN], 5);
		set(&st->f[GT_S_PCIE_MAX_WIDTH], 16);
		set(&st->f[GT_S_CLK_GRAPHICS_MAX], 1980);
		set(&st->f[GT_S_CLK_MEM_MAX], 2619);
		set(&st->f[GT_S_VRAM_TOTAL], 80ll << 30);
	}
	if (i % 5 != 4) { /* every fifth one: samples N/A */
		set(&s->f[GT_F_UTIL_GPU], 100 * (i * 7 % 101));
		set(&s->f[GT_F_UTIL_MEMBW], 100 * (i * 3 % 101));
		set(&s->f[GT_F_UTIL_ENC], i % 2 ? 2500 : 0);
		set(&s->f[GT_F_UTIL_DEC], i % 2 ? 10000 : 0);
		set(&s->f[GT_F_MEM_TOTAL], 80ll << 30);
		set(&s->f[GT_F_MEM_USED], (long long)i << 30);
		set(&s->f[GT_F_TEMP_GPU], 40000 + 4000 * i);
		set(&s->f[GT_F_POWER_DRAW], 100000 * i + 12345);
		set(&s->f[GT_F_POWER_ENFORCED], 700000);
		set(&s->f[GT_F_CLK_GRAPHICS], 1500);
		set(&s->f[GT_F_CLK_MEM], 2619);
		set(&s->f[GT_F_PCIE_GEN], i % 2 ? 3 : 5);
		set(&s->f[GT_F_PCIE_WIDTH], 16);
		set(&s->f[GT_F_PCIE_TX], 123456789ll * i);
		set(&s->f[GT_F_PCIE_RX], 987654ll * i);
		set(&s->f[GT_F_FAN_PERCENT0], 4500);
		set(&s->f[GT_F_FAN_RPM0], 2100);
		s->fan_count = (unsigned)(i % 3);
		if (i % 2) /* every active throttle reason there is */
			set(&s->f[GT_F_THROTTLE], 0x83FC);
		if (i % 4 == 0) {
			set(&s->f[GT_F_GTT_USED], 1ll << 30);
			set(&s->f[GT_F_GTT_TOTAL], 16ll << 30);
		}
	}
	s->state = i == 6 ? GT_DEV_LOST : i == 7 ? GT_DEV_ASLEEP : s->state;
	gt_history_init(&f->hist[i]);
	for (int k = 0; k < 300 * (i % 3); k++) {
		double v[GT_SERIES__COUNT];
		for (int j = 0; j < GT_SERIES__COUNT; j++)
			v[j] =
			    k % 17 == 0 ? NAN : fmod(k * (j + 1) * 7.3, 100.0);
		v[GT_SERIES_POWER] = k * 3.7; /* autoscaled well past 1 kW */
		hist_push(&f->hist[i], v);
	}
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	f->hist = calloc(NGPU_MAX, sizeof(*f->hist));
	assert_non_null(f->hist);
	setlocale(LC_ALL, "C.UTF-8");
	/* One stream both ways: nothing is read, output is thrown away. */
	f->out = fopen("/dev/null", "r+");
	f->in = f->out;
	assert_non_null(f->out);
	f->scr = newterm("xterm-256color", f->out, f->in);
	if (!f->scr)
		f->scr = newterm("xterm", f->out, f->in);
	assert_non_null(f->scr);
	set_term(f->scr);
	for (int i = 0; i < NGPU_MAX; i++)
		make_gpu(f, i);
	for (int i = 0; i < NPROC; i++) {
		struct gt_process *p = &f->procs[i];
		memset(p, 0, sizeof(*p));
		for (int k = 0; k < GT_P__COUNT; k++)
			gt_val_fail(&p->f[k], GT_WHY_NOT_COLLECTED, 0);
		p->pid = 1000 + i;
		p->device_index = (unsigned)(i % NGPU_MAX);
		snprintf(p->user, sizeof(p->user),
		         i % 2 ? "\u7528\u6237" : "u");
		snprintf(p->name, sizeof(p->name), "proc%d", i);
		snprintf(p->container, sizeof(p->container),
		         "docker:\u5bb9\u5668%d", i);
		set(&p->f[GT_P_GPU], 100 * i);
		set(&p->f[GT_P_MEM], (long long)i << 28);
		f->order[i] = (size_t)i;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	endwin();
	delscreen(f->scr);
	fclose(f->out);
	free(f->hist);
	free(f);
	return 0;
}

/* A pad with a 2-cell sentinel margin around a w x h rectangle. */
static WINDOW *sentinel_pad(int w, int h, struct gt_rect *r)
{
	WINDOW *p = newpad(h + 4, w + 6);
	assert_non_null(p);
	for (int y = 0; y < h + 4; y++)
		for (int x = 0; x < w + 6; x++) {
			cchar_t c;
			wchar_t wc[2] = {SENTINEL, 0};
			setcchar(&c, wc, A_NORMAL, 0, NULL);
			mvwadd_wch(p, y, x, &c);
		}
	*r = (struct gt_rect){3, 2, w, h};
	return p;
}

/* Cells inside that changed, and fails on any cell outside that did. */
static int check_outside(WINDOW *p, struct gt_rect r, const char *what, int i)
{
	int rows, cols, inside = 0;
	getmaxyx(p, rows, cols);
	for (int y = 0; y < rows; y++)
		for (int x = 0; x < cols; x++) {
			wchar_t g = curses_read_glyph(p, y, x);
			bool in = x >= r.x && x < r.x + r.w && y >= r.y &&
			          y < r.y + r.h;
			if (in)
				inside += g != SENTINEL;
			else if (g != SENTINEL)
				fail_msg("%s (data %d) in %dx%d drew U+%04X at "
				         "row %d col %d, outside rows %d..%d "
				         "cols %d..%d",
				         what, i, r.w, r.h, (unsigned)g, y, x,
				         r.y, r.y + r.h - 1, r.x,
				         r.x + r.w - 1);
		}
	return inside;
}

static const int widths[] = {1,  2,  3,  5,  7,  10,  16,  17,  24,
                             33, 40, 59, 60, 80, 101, 160, 203, 400};
static const int heights[] = {1, 2, 3, 4, 5, 6, 8, 9, 13, 20, 31, 60};

static void panel_data(struct fixture *f, int i, enum gt_glyphs g,
                       struct gt_panel_data *d)
{
	*d = (struct gt_panel_data){
	    .st = &f->st[i],
	    .s = &f->s[i],
	    .hist = &f->hist[i],
	    .pal = &f->pal,
	    .glyphs = g,
	    .col_ns = i == 3 ? 0 : 1000000000ull,
	    .end_ns = gt_history_newest(&f->hist[i]) + 500000000ull,
	    .changed = i == 2 ? "LIMIT 382 W" : NULL,
	    .selected = i == 0,
	    .fahrenheit = i % 2,
	    .stale = i == 8,
	    .all_series = i == 9,
	};
}

static void sweep_panels(struct fixture *f, int ngpus)
{
	static const char *const names[] = {"FULL", "COMPACT", "LINE"};
	int drawn = 0;
	for (size_t wi = 0; wi < sizeof(widths) / sizeof(widths[0]); wi++)
		for (size_t hi = 0; hi < sizeof(heights) / sizeof(heights[0]);
		     hi++) {
			struct gt_rect r;
			int w = widths[wi], h = heights[hi];
			WINDOW *p = sentinel_pad(w, h, &r);
			for (int i = 0; i < ngpus; i++)
				for (int m = 0; m < 3; m++) {
					struct gt_panel_data d;
					panel_data(f, i,
					           (enum gt_glyphs)(i % 3), &d);
					gt_panels_draw_gpu(
					    p, r, (enum gt_gpu_mode)m, &d);
					drawn += check_outside(p, r, names[m],
					                       i) > 0;
				}
			/* The graphs alone, as the FULL panel places them. */
			for (int i = 0; i < ngpus; i++) {
				struct gt_panel_data d;
				panel_data(f, i, (enum gt_glyphs)(i % 3), &d);
				gt_gpugraph_draw(p, r, &d);
				check_outside(p, r, "graphs", i);
			}
			delwin(p);
		}
	/* Not vacuous: the widgets did draw inside their rectangles. */
	assert_true(drawn > 0);
}

static void test_panels_one_gpu(void **state)
{
	sweep_panels(*state, 1);
}

static void test_panels_eight_gpus(void **state)
{
	sweep_panels(*state, 8);
}

static void test_panels_sixteen_gpus(void **state)
{
	sweep_panels(*state, 16);
}

static void sweep_table(struct fixture *f, size_t nproc)
{
	struct gt_proctable_state st;
	gt_proctable_state_init(&st);
	for (size_t wi = 0; wi < sizeof(widths) / sizeof(widths[0]); wi++)
		for (size_t hi = 0; hi < sizeof(heights) / sizeof(heights[0]);
		     hi++) {
			struct gt_rect r;
			int w = widths[wi], h = heights[hi], wd[GT_COL__COUNT];
			WINDOW *p = sentinel_pad(w, h, &r);
			gt_proctable_widths(w, NULL, wd);
			for (int v = 0; v < 4; v++) {
				st.sort_col = (enum gt_proctable_col)(
				    v * 5 % GT_COL__COUNT);
				st.reverse = v % 2;
				st.selected = v;
				st.hscroll = v * 3;
				struct gt_table_data td = {
				    .procs = f->procs,
				    .order = f->order,
				    .count = nproc,
				    .st = &st,
				    .pal = &f->pal,
				    .widths = wd,
				    .note = v == 1 ? " GPU 3 only  filter: "
				                     "\u7528\u6237 "
				                   : NULL,
				};
				gt_proctable_draw(p, r, &td);
				check_outside(p, r, "table", v);
			}
			delwin(p);
		}
}

static void test_table_sizes(void **state)
{
	sweep_table(*state, 1);
	sweep_table(*state, 8);
	sweep_table(*state, NPROC);
}

/* gt_paint_put itself: wide characters never straddle the rectangle's edge. */
static void test_put_wide_clip(void **state)
{
	(void)state;
	for (int w = 1; w <= 9; w++) {
		struct gt_rect r;
		WINDOW *p = sentinel_pad(w, 1, &r);
		int n =
		    gt_paint_put(p, r, 0, 0, 0, "\u6d4b\u8bd5a\u6d4b\u8bd5");
		assert_true(n <= w);
		check_outside(p, r, "gt_paint_put", w);
		delwin(p);
	}
	assert_int_equal(gt_paint_cells("a\u6d4b\u0301b"), 4);
}

/* The graphs' plan: never a graph under 3 rows, the time axis on its own
 * row under the GPU graph, the band of small graphs only when both it and
 * the GPU graph keep 3 rows, a gap between neighbours, none unreadably
 * narrow. */
static void test_graph_plan(void **state)
{
	(void)state;
	struct gt_graph_plan p;
	unsigned all = (1u << GT_PLOT_MEMBW) | (1u << GT_PLOT_ENC) |
	               (1u << GT_PLOT_DEC) | (1u << GT_PLOT_POWER);
	/* 3 rows: the GPU graph alone, no axis. */
	assert_int_equal(gt_gpugraph_plan(100, 3, all, &p), 1);
	assert_int_equal(p.slot[0].r.h, 3);
	assert_int_equal(p.axis.h, 0);
	/* 4: its axis below it, outside the plot and the gutter. */
	assert_int_equal(gt_gpugraph_plan(100, 4, all, &p), 1);
	assert_int_equal(p.slot[0].r.h, 3);
	assert_int_equal(p.axis.y, 3);
	assert_int_equal(p.axis.x, GT_GRAPH_GUTTER);
	assert_int_equal(p.axis.w, 100 - GT_GRAPH_GUTTER);
	/* 6: a band would leave the GPU graph 2 rows: none. */
	assert_int_equal(gt_gpugraph_plan(100, 6, all, &p), 1);
	/* 7: GPU 3 rows, axis, a band of 3 rows holding all four. */
	int n = gt_gpugraph_plan(100, 7, all, &p);
	assert_int_equal(n, 5);
	assert_int_equal(p.slot[0].plot, GT_PLOT_GPU);
	assert_int_equal(p.slot[0].r.h, 3);
	for (int i = 1; i < n; i++) {
		assert_int_equal(p.slot[i].plot, GT_PLOT_GPU + i);
		assert_int_equal(p.slot[i].r.y, 4);
		assert_int_equal(p.slot[i].r.h, 3);
		assert_true(p.slot[i].r.w >= GT_GRAPH_MIN_W);
		if (i > 1)
			assert_int_equal(p.slot[i].r.x, p.slot[i - 1].r.x +
			                                    p.slot[i - 1].r.w +
			                                    GT_GRAPH_GAP);
	}
	assert_int_equal(p.slot[n - 1].r.x + p.slot[n - 1].r.w, 100);
	/* Idle encoders take no room. */
	n = gt_gpugraph_plan(100, 7, (1u << GT_PLOT_MEMBW), &p);
	assert_int_equal(n, 2);
	assert_int_equal(p.slot[1].r.w, 100);
	/* Narrow: the last ones go first. */
	n = gt_gpugraph_plan(40, 9, all, &p);
	assert_int_equal(n, 3);
	assert_int_equal(p.slot[2].plot, GT_PLOT_ENC);
	assert_int_equal(p.slot[1].r.h, 3);
	assert_int_equal(p.slot[0].r.h, 5);
	assert_int_equal(gt_gpugraph_plan(0, 5, all, &p), 0);
}

static void test_graph_wanted(void **state)
{
	struct fixture *f = *state;
	struct gt_panel_data d;
	panel_data(f, 0, GT_GLYPHS_BRAILLE, &d);
	struct gt_history *h = &f->hist[0];
	gt_history_init(h);
	assert_int_equal(gt_gpugraph_wanted(&d), 0);
	double v[GT_SERIES__COUNT];
	for (int k = 0; k < GT_SERIES__COUNT; k++)
		v[k] = 0;
	hist_push(h, v);
	assert_int_equal(gt_gpugraph_wanted(&d),
	                 (1u << GT_PLOT_MEMBW) | (1u << GT_PLOT_POWER));
	d.all_series = true;
	assert_int_equal(gt_gpugraph_wanted(&d), 0x1Eu);
	d.all_series = false;
	v[GT_SERIES_DEC] = 3;
	hist_push(h, v);
	assert_true(gt_gpugraph_wanted(&d) & (1u << GT_PLOT_DEC));
	assert_false(gt_gpugraph_wanted(&d) & (1u << GT_PLOT_ENC));
	make_gpu(f, 0);
}

/* Plotted (non-blank) cells of row y from x0, n wide. */
static int plotted(WINDOW *w, int y, int x0, int n)
{
	int k = 0;
	for (int x = x0; x < x0 + n; x++) {
		wchar_t g = curses_read_glyph(w, y, x);
		if (g != 0x2800 && g != ' ')
			k++;
	}
	return k;
}

/* The band under the time axis covers the GPU graph's stretch of time:
 * 30 s of samples at 100 % after a long silence fill the same share of
 * the band's plot as of the GPU graph's (within a cell), not the band's
 * width of the newest samples. */
static void test_band_same_span(void **state)
{
	struct fixture *f = *state;
	struct gt_panel_data d;
	struct gt_history *h = &f->hist[0];
	double v[GT_SERIES__COUNT];
	gt_history_init(h);
	for (int i = 0; i < 600; i++) { /* 10 minutes, the last 30 s busy */
		for (int k = 0; k < GT_SERIES__COUNT; k++)
			v[k] = i >= 570 ? 100 : 0;
		hist_push(h, v);
	}
	panel_data(f, 0, GT_GLYPHS_BLOCK, &d);
	d.end_ns = gt_history_newest(h);
	struct gt_graph_plan plan;
	const int w = 130, hgt = 9;
	int n = gt_gpugraph_plan(w, hgt, gt_gpugraph_wanted(&d), &plan);
	assert_true(n >= 2);
	WINDOW *win = newwin(hgt, w, 0, 0);
	assert_non_null(win);
	gt_gpugraph_draw(win, (struct gt_rect){0, 0, w, hgt}, &d);
	struct gt_rect m = plan.slot[0].r, b = plan.slot[1].r;
	int mw = m.w - GT_GRAPH_GUTTER, bw = b.w - GT_GRAPH_GUTTER;
	int mfill = plotted(win, m.y + m.h - 1, m.x + GT_GRAPH_GUTTER, mw);
	int bfill = plotted(win, b.y + b.h - 1, b.x + GT_GRAPH_GUTTER, bw);
	/* Block glyphs: a sample a column; 30 of mw columns busy. */
	assert_int_equal(mfill, 30);
	double want = 30.0 * bw / mw;
	assert_true(bfill >= (int)want - 1 && bfill <= (int)want + 2);
	delwin(win);
	make_gpu(f, 0);
}

/* The bands fill from the first samples: three seconds after the start,
 * each band's newest column holds them (its grid ends past the GPU
 * graph's newest column, not on its own last whole column, which would
 * leave the bands empty and the power axis at "1W" beside a 620 W draw
 * for the first seconds). */
static void test_band_fills_from_start(void **state)
{
	struct fixture *f = *state;
	struct gt_panel_data d;
	struct gt_history *h = &f->hist[0];
	double v[GT_SERIES__COUNT];
	gt_history_init(h);
	for (int i = 0; i < 3; i++) {
		for (int k = 0; k < GT_SERIES__COUNT; k++)
			v[k] = 41;
		v[GT_SERIES_POWER] = 620;
		hist_push(h, v);
	}
	panel_data(f, 0, GT_GLYPHS_BRAILLE, &d);
	struct gt_graph_plan plan;
	const int w = 130, hgt = 9;
	int n = gt_gpugraph_plan(w, hgt, gt_gpugraph_wanted(&d), &plan);
	assert_true(n >= 3);
	WINDOW *win = newwin(hgt, w, 0, 0);
	assert_non_null(win);
	gt_gpugraph_draw(win, (struct gt_rect){0, 0, w, hgt}, &d);
	char row[4 * 140];
	for (int i = 1; i < n; i++) {
		struct gt_rect b = plan.slot[i].r;
		int bw = b.w - GT_GRAPH_GUTTER;
		assert_true(
		    plotted(win, b.y + b.h - 1, b.x + GT_GRAPH_GUTTER, bw) > 0);
		if (plan.slot[i].plot == GT_PLOT_POWER) {
			curses_read_row(win, b.y, b.x, GT_GRAPH_GUTTER, row,
			                sizeof(row));
			assert_non_null(strstr(row, "1kW"));
		}
	}
	delwin(win);
	make_gpu(f, 0);
}

/* Cell y, x of a and b alike: glyph, attributes and colour pair. */
static bool same_cell(WINDOW *a, WINDOW *b, int y, int x)
{
	wchar_t wa[CCHARW_MAX + 1] = {0}, wb[CCHARW_MAX + 1] = {0};
	attr_t aa, ab;
	short pa, pb;
	curses_read_cell(a, y, x, wa, &aa, &pa);
	curses_read_cell(b, y, x, wb, &ab, &pb);
	return wa[0] == wb[0] && aa == ab && pa == pb;
}

/* A graph drawn in place, frame after frame (gt_paint_region_patch: only
 * the columns whose heights moved are written), shows what a whole
 * drawing of the same data shows: under a load that swings a little,
 * jumps from idle to full and goes N/A for a while, beside a power draw
 * whose axis rescales, in braille and then in block glyphs. */
static void test_graph_patch_matches_whole(void **state)
{
	struct fixture *f = *state;
	struct gt_history *h = &f->hist[0];
	double v[GT_SERIES__COUNT];
	const int w = 78, hgt = 13;
	unsigned seed = 7;

	gt_history_init(h);
	for (int i = 0; i < 160; i++) {
		seed = seed * 1103515245u + 12345u;
		double swing = (double)((seed >> 16) % 7) - 3; /* -3..3 */
		for (int k = 0; k < GT_SERIES__COUNT; k++)
			v[k] =
			    (i / 20) % 2 ? 96 + swing : (i % 9 < 4 ? 0 : 100);
		if (i >= 100 && i < 106)
			v[GT_SERIES_GPU] = NAN;
		/* Idle encoders: two bands, each wide enough for its axis. */
		v[GT_SERIES_ENC] = v[GT_SERIES_DEC] = 0;
		v[GT_SERIES_POWER] = i < 80 ? 300 + 10 * swing : 1400 + swing;
		hist_push(h, v);
		struct gt_panel_data d;
		panel_data(f, 0, i < 120 ? GT_GLYPHS_BRAILLE : GT_GLYPHS_BLOCK,
		           &d);
		gt_paint_begin(stdscr, 1);
		gt_gpugraph_draw(stdscr, (struct gt_rect){0, 0, w, hgt}, &d);
		gt_paint_end(stdscr);
		WINDOW *whole = newwin(hgt, w, 0, 0);
		assert_non_null(whole);
		gt_gpugraph_draw(whole, (struct gt_rect){0, 0, w, hgt}, &d);
		for (int y = 0; y < hgt; y++)
			for (int x = 0; x < w; x++)
				if (!same_cell(stdscr, whole, y, x))
					fail_msg("frame %d: cell %d,%d differs "
					         "from a whole drawing",
					         i, y, x);
		delwin(whole);
	}
	gt_paint_release();
	make_gpu(f, 0);
}

/* Issue 2: the power graph's axis label. */
static void test_watts_axis(void **state)
{
	(void)state;
	char b[16];
	gt_gpugraph_watts_axis(b, sizeof(b), 500);
	assert_string_equal(b, "500W");
	gt_gpugraph_watts_axis(b, sizeof(b), 2000);
	assert_string_equal(b, "2kW");
	gt_gpugraph_watts_axis(b, sizeof(b), 0.5);
	assert_string_equal(b, "0.5W");
}

/* Issue 3: colour steps against slowdown and shutdown. */
static void test_temp_levels(void **state)
{
	(void)state;
	struct gt_val t, slow, shut, na;
	gt_val_set(&slow, 87000);
	gt_val_set(&shut, 93000);
	gt_val_fail(&na, GT_WHY_NOT_COLLECTED, 0);
	gt_val_set(&t, 76999);
	assert_int_equal(gt_panels_temp_level(&t, &slow, &shut),
	                 GT_TEMP_NORMAL);
	gt_val_set(&t, 77000);
	assert_int_equal(gt_panels_temp_level(&t, &slow, &shut), GT_TEMP_WARM);
	gt_val_set(&t, 86999);
	assert_int_equal(gt_panels_temp_level(&t, &slow, &shut), GT_TEMP_WARM);
	gt_val_set(&t, 87000);
	assert_int_equal(gt_panels_temp_level(&t, &slow, &shut), GT_TEMP_HOT);
	/* Only shutdown known: 5 °C below it counts as slowdown. */
	gt_val_set(&t, 88000);
	assert_int_equal(gt_panels_temp_level(&t, &na, &shut), GT_TEMP_HOT);
	gt_val_set(&t, 78000);
	assert_int_equal(gt_panels_temp_level(&t, &na, &shut), GT_TEMP_WARM);
	gt_val_set(&t, 120000);
	assert_int_equal(gt_panels_temp_level(&t, &na, &na), GT_TEMP_NORMAL);
	assert_int_equal(gt_panels_temp_level(&na, &slow, &shut),
	                 GT_TEMP_UNKNOWN);
}

/* Issue 3: both thresholds shown, in the user's unit. */
static void test_temp_text_thresholds(void **state)
{
	struct fixture *f = *state;
	struct gt_panel_data d;
	struct gt_rect r;
	char row[1024];
	panel_data(f, 0, GT_GLYPHS_ASCII, &d);
	/* 200x9: graph 5 rows, then the meters, four to the line. */
	WINDOW *p = sentinel_pad(200, 9, &r);
	gt_panels_draw_gpu(p, r, GT_GPU_FULL, &d);
	curses_read_row(p, r.y + 6, r.x, r.w, row, sizeof(row));
	assert_non_null(strstr(row, "slow 87\u00b0C"));
	assert_non_null(strstr(row, "shut 93\u00b0C"));
	d.fahrenheit = true;
	gt_panels_draw_gpu(p, r, GT_GPU_FULL, &d);
	curses_read_row(p, r.y + 6, r.x, r.w, row, sizeof(row));
	assert_non_null(strstr(row, "shut 199\u00b0F"));
	delwin(p);
}

/* The temperature after `t` in row: "T slow S shut H", "T slow S" or "T"
 * alone, never another wording (such as "T (slow S)"). */
static bool temp_wording_ok(const char *row, const char *t, const char *slow,
                            const char *shut)
{
	char both[96], one[96];
	const char *p = strstr(row, t);

	if (!p)
		return true;
	p += strlen(t);
	snprintf(both, sizeof(both), " slow %s shut %s", slow, shut);
	snprintf(one, sizeof(one), " slow %s", slow);
	if (strncmp(p, both, strlen(both)) == 0)
		p += strlen(both);
	else if (strncmp(p, one, strlen(one)) == 0)
		p += strlen(one);
	return *p == '\0' || (*p == ' ' && !strstr(p, "slow") &&
	                      !strstr(p, "shut") && !strchr(p, '('));
}

/* One wording of the temperature and its thresholds in every panel form
 * at every width, in either unit; the widest panels show both
 * thresholds, and a LINE row shows the same temperature. */
static void test_temp_text_one_wording(void **state)
{
	static const enum gt_gpu_mode modes[] = {GT_GPU_FULL, GT_GPU_COMPACT,
	                                         GT_GPU_LINE};
	struct fixture *f = *state;
	char row[2048];
	int both_seen = 0, temps_seen = 0;

	for (int i = 0; i < 2; i++) {
		struct gt_panel_data d;
		panel_data(f, i, GT_GLYPHS_ASCII, &d);
		/* GPU 0 in °C (40, slow 87, shut 93), GPU 1 in °F (44 °C). */
		const char *t = i ? "111\u00b0F" : "40\u00b0C";
		const char *slow = i ? "189\u00b0F" : "87\u00b0C";
		const char *shut = i ? "199\u00b0F" : "93\u00b0C";
		for (size_t m = 0; m < 3; m++)
			for (int w = 40; w <= 260; w += 11) {
				struct gt_rect r;
				int h = modes[m] == GT_GPU_LINE ? 1 : 9;
				WINDOW *p = sentinel_pad(w, h, &r);
				gt_panels_draw_gpu(p, r, modes[m], &d);
				for (int y = 0; y < h; y++) {
					curses_read_row(p, r.y + y, r.x, r.w,
					                row, sizeof(row));
					/* cells left as they were: blanks */
					for (char *c = row; *c; c++)
						*c = *c == SENTINEL ? ' ' : *c;
					if (strstr(row, t))
						temps_seen++;
					if (strstr(row, "shut "))
						both_seen++;
					if (!temp_wording_ok(row, t, slow,
					                     shut))
						fail_msg("mode %zu width %d: "
						         "%s",
						         m, w, row);
				}
				delwin(p);
			}
	}
	assert_true(temps_seen > 0);
	assert_true(both_seen > 0);
}

/* Issue 5: badges and the PCI id never overwrite each other. */
static void test_name_line_badges(void **state)
{
	struct fixture *f = *state;
	struct gt_panel_data d;
	char row[2048];
	panel_data(f, 1, GT_GLYPHS_ASCII, &d); /* throttled, PCIe gen 3 */
	snprintf(f->st[1].name, sizeof(f->st[1].name), "NVIDIA H100 80GB HBM3");
	for (int w = 60; w <= 200; w += 7) {
		struct gt_rect r;
		WINDOW *p = sentinel_pad(w, 9, &r);
		gt_panels_draw_gpu(p, r, GT_GPU_FULL, &d);
		curses_read_row(p, r.y, r.x, r.w, row, sizeof(row));
		char *pci = strstr(row, "0000:01:00.0");
		/* The most important badge first: the degraded link. */
		char *badge = strstr(row, " PCIe 3x16");
		assert_non_null(badge);
		/* The PCI id shows whole or not at all, before it. */
		if (!pci)
			assert_null(strstr(row, "0000:"));
		else
			assert_true(pci + strlen("0000:01:00.0") < badge);
		/* The driver and the PCI id are pieces of their own, a
		 * border cell between them as after the name. */
		char *drv = strstr(row, " nvidia 590.48.01 ");
		if (drv)
			assert_ptr_equal(
			    pci, drv + strlen(" nvidia 590.48.01 ") + 2);
		/* Throttle badges follow, or a "+" says they are left out. */
		assert_true(strstr(row, " PWR ") ||
		            strstr(row, " power_cap ") || strstr(badge, "+"));
		/* The name loses words, never part of one. */
		assert_true(strstr(row, "[1] NVIDIA H100 80GB HBM3 ") ||
		            strstr(row, "[1] H100 80GB HBM3 ") ||
		            strstr(row, "[1] H100 80GB ") ||
		            strstr(row, "[1] H100 "));
		delwin(p);
	}
	make_gpu(f, 1);
}

static void test_badges_fit(void **state)
{
	struct fixture *f = *state;
	char b[256];
	int n = gt_panels_throttle_badges(b, sizeof(b), &f->s[1], false, -1);
	assert_int_equal(n, (int)strlen(b));
	assert_non_null(strstr(b, " power_cap "));
	n = gt_panels_throttle_badges(b, sizeof(b), &f->s[1], true, 12);
	assert_true(n <= 12);
	assert_string_equal(b, " PWR +");
	assert_int_equal(
	    gt_panels_throttle_badges(b, sizeof(b), &f->s[0], true, -1), 0);
}

/* Issue 4: the sorted column's header reads cleanly with its marker. */
static void test_sort_header(void **state)
{
	(void)state;
	int wd[GT_COL__COUNT];
	char cell[64];
	/* The marker stands a blank apart from its header (issue 10: not
	 * "GPU%v"), in the room the sorted widths give the column. */
	gt_proctable_widths_sorted(200, NULL, GT_COL_VRAM, wd);
	int room =
	    gt_proctable_sort_header(wd, GT_COL_VRAM, true, cell, sizeof(cell));
	assert_int_equal(room, wd[GT_COL_VRAM]);
	assert_int_equal((int)strlen(cell), room);
	assert_non_null(strstr(cell, "VRAM v"));
	gt_proctable_widths_sorted(200, NULL, GT_COL_ENC, wd);
	gt_proctable_sort_header(wd, GT_COL_ENC, false, cell, sizeof(cell));
	assert_non_null(strstr(cell, "ENC ^"));
	assert_null(strstr(cell, "ENC^"));
	gt_proctable_widths_sorted(200, NULL, GT_COL_HOST_MEM, wd);
	gt_proctable_sort_header(wd, GT_COL_HOST_MEM, true, cell, sizeof(cell));
	assert_string_equal(cell, "HOST MEM v");
	gt_proctable_widths_sorted(200, NULL, GT_COL_GPU, wd);
	gt_proctable_sort_header(wd, GT_COL_GPU, true, cell, sizeof(cell));
	assert_string_equal(cell, "GPU % v");
	gt_proctable_widths_sorted(200, NULL, GT_COL_USER, wd);
	gt_proctable_sort_header(wd, GT_COL_USER, true, cell, sizeof(cell));
	assert_int_equal(strncmp(cell, "USER v ", 7), 0);
}

/* Issue 4 drawn: no leftover characters of the plain header. */
static void test_sort_header_drawn(void **state)
{
	struct fixture *f = *state;
	struct gt_proctable_state st;
	struct gt_rect r;
	int wd[GT_COL__COUNT];
	char row[2048];
	gt_proctable_state_init(&st);
	WINDOW *p = sentinel_pad(200, 5, &r);
	gt_proctable_widths(200, NULL, wd);
	for (int c = 0; c < GT_COL__COUNT; c++) {
		st.sort_col = (enum gt_proctable_col)c;
		struct gt_table_data td = {.procs = f->procs,
		                           .order = f->order,
		                           .count = 3,
		                           .st = &st,
		                           .pal = &f->pal,
		                           .widths = wd};
		gt_proctable_draw(p, r, &td);
		curses_read_row(p, r.y, r.x, r.w, row, sizeof(row));
		assert_null(strstr(row, "VRAMvAM"));
		assert_null(strstr(row, "VRAMAM"));
		assert_null(strstr(row, "ENCvC"));
		assert_null(strstr(row, "MEMvCONTAINER"));
		assert_null(strstr(row, "vCONTAINER"));
		/* The marker never takes a separator: headers stay apart. */
		for (int k = 1; k < GT_COL__COUNT; k++) {
			int x =
			    gt_proctable_col_x(wd, (enum gt_proctable_col)k);
			if (x > 0)
				assert_int_equal(row[x - 1], ' ');
		}
		assert_true(strstr(row, "v") || strstr(row, "^"));
	}
	delwin(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_panels_one_gpu),
	    cmocka_unit_test(test_panels_eight_gpus),
	    cmocka_unit_test(test_panels_sixteen_gpus),
	    cmocka_unit_test(test_table_sizes),
	    cmocka_unit_test(test_put_wide_clip),
	    cmocka_unit_test(test_graph_plan),
	    cmocka_unit_test(test_graph_wanted),
	    cmocka_unit_test(test_band_same_span),
	    cmocka_unit_test(test_band_fills_from_start),
	    cmocka_unit_test(test_graph_patch_matches_whole),
	    cmocka_unit_test(test_watts_axis),
	    cmocka_unit_test(test_temp_levels),
	    cmocka_unit_test(test_temp_text_thresholds),
	    cmocka_unit_test(test_temp_text_one_wording),
	    cmocka_unit_test(test_name_line_badges),
	    cmocka_unit_test(test_badges_fit),
	    cmocka_unit_test(test_sort_header),
	    cmocka_unit_test(test_sort_header_drawn),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

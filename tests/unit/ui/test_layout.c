/* SPDX-License-Identifier: MIT */
/*
 * test_layout.c - tests of the layout engine (src/ui/layout.c): a sweep of
 * every terminal size from 20x6 to 400x120 for 0 to 16 GPUs checking the
 * invariants every layout must hold (nothing overlaps, no two boxes touch,
 * panels keep their minimum and a graph its 3 rows, the table gets what it
 * needs and no more when the graphs can take the rest, every row is someone's),
 * a sweep of the too-small sizes, the split of a panel into graph and numbers,
 * and the fixed cases the dashboard issue names (1, 2, 4, 8 and 16 GPUs at
 * 80x24, 120x40, 200x60 and 300x80).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ui/layout.h"

#define MAX_GPUS 16

struct sweep_ctx {
	int cols, rows, ngpus;
	const struct gt_layout_opts *o;
};

/* Fails the test naming the case, so a sweep failure says where. */
#define CHECK(ctx, cond)                                                       \
	do {                                                                   \
		if (!(cond))                                                   \
			fail_msg("%dx%d ngpus=%d sel=%d procs=%d graphs=%d: "  \
			         "%s",                                         \
			         (ctx)->cols, (ctx)->rows, (ctx)->ngpus,       \
			         (ctx)->o->selected_gpu,                       \
			         (int)(ctx)->o->show_processes,                \
			         (int)(ctx)->o->show_graphs, #cond);           \
	} while (0)

static bool shown(const struct gt_rect *r)
{
	return r->w > 0 && r->h > 0;
}

static bool is_zero(const struct gt_rect *r)
{
	return r->x == 0 && r->y == 0 && r->w == 0 && r->h == 0;
}

static bool inside(const struct gt_rect *r, int cols, int rows)
{
	return r->x >= 0 && r->y >= 0 && r->x + r->w <= cols &&
	       r->y + r->h <= rows;
}

static bool overlap(const struct gt_rect *a, const struct gt_rect *b)
{
	return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h &&
	       b->y < a->y + a->h;
}

/* A blank column (GT_LAYOUT_GAP) at least between two boxes side by
 * side; stacked ones may meet border to border (stacked() says where). */
static bool apart(const struct gt_rect *a, const struct gt_rect *b)
{
	return a->x + a->w + GT_LAYOUT_GAP <= b->x ||
	       b->x + b->w + GT_LAYOUT_GAP <= a->x || a->y + a->h <= b->y ||
	       b->y + b->h <= a->y;
}

/* Box b right under box a, no blank row between. */
static bool stacked(const struct gt_rect *a, const struct gt_rect *b)
{
	return a->y + a->h == b->y && a->x < b->x + b->w && b->x < a->x + a->w;
}

/* What a panel shows, as one number: its lines of numbers and, in FULL,
 * its graph split (gt_layout_graph_rows). */
static int panel_look(enum gt_gpu_mode mode, const struct gt_rect *g)
{
	struct gt_panel_parts pp;
	int axis = 0, bands = 0;

	gt_layout_panel_parts(*g, mode, &pp);
	if (mode == GT_GPU_FULL)
		gt_layout_graph_rows(pp.graph.h, &axis, &bands);
	return (bands * 2 + axis) * 8 + pp.info_lines;
}

static bool rect_eq(const struct gt_rect *a, const struct gt_rect *b)
{
	return a->x == b->x && a->y == b->y && a->w == b->w && a->h == b->h;
}

static int layout(int cols, int rows, int ngpus, const struct gt_layout_opts *o,
                  struct gt_layout *L, struct gt_rect *gpus)
{
	memset(L, 0xA5, sizeof(*L)); /* stale garbage must be overwritten */
	for (int i = 0; i < ngpus; i++)
		gpus[i] = (struct gt_rect){7, 7, 7, 7};
	L->gpus = ngpus > 0 ? gpus : NULL;
	return gt_layout_compute(cols, rows, ngpus, o, L);
}

/* The size a message suggests: every message ends "; WxH shows ...". */
static bool suggested(const char *msg, int *w, int *h)
{
	const char *p = strrchr(msg, ';');

	return p && sscanf(p, "; %dx%d shows", w, h) == 2;
}

/* A second call gives the same answer, and the window of GPUs agrees with
 * their rectangles. */
static void check_repeatable(const struct sweep_ctx *c,
                             const struct gt_layout *L,
                             const struct gt_rect *gpus)
{
	struct gt_rect gpus2[MAX_GPUS];
	struct gt_layout L2;
	int ngpus = c->ngpus;

	CHECK(c, layout(c->cols, c->rows, ngpus, c->o, &L2, gpus2) == 0);
	CHECK(c, rect_eq(&L->title, &L2.title) &&
	             rect_eq(&L->status, &L2.status) &&
	             rect_eq(&L->procs, &L2.procs) && L->mode == L2.mode &&
	             L->gpu_first == L2.gpu_first &&
	             L->gpu_count == L2.gpu_count && L->columns == L2.columns &&
	             L->too_small == L2.too_small &&
	             strcmp(L->message, L2.message) == 0);
	for (int i = 0; i < ngpus; i++)
		CHECK(c, rect_eq(&gpus[i], &gpus2[i]));

	CHECK(c, L->gpu_first >= 0 && L->gpu_count >= 0 &&
	             L->gpu_first + L->gpu_count <= ngpus);
	for (int i = 0; i < ngpus; i++) {
		bool in = i >= L->gpu_first && i < L->gpu_first + L->gpu_count;

		CHECK(c, in ? shown(&gpus[i]) : is_zero(&gpus[i]));
	}
}

/* Every rectangle is either {0} or inside the terminal, and shown ones
 * never overlap. */
static void check_rects(const struct sweep_ctx *c, const struct gt_layout *L,
                        const struct gt_rect *gpus)
{
	struct gt_rect all[MAX_GPUS + 3];
	int nall = 0;

	all[nall++] = L->title;
	all[nall++] = L->status;
	all[nall++] = L->procs;
	for (int i = 0; i < c->ngpus; i++)
		all[nall++] = gpus[i];
	for (int i = 0; i < nall; i++) {
		CHECK(c, shown(&all[i]) || is_zero(&all[i]));
		CHECK(c, !shown(&all[i]) || inside(&all[i], c->cols, c->rows));
		for (int j = 0; j < i; j++)
			CHECK(c, !(shown(&all[i]) && shown(&all[j]) &&
			           overlap(&all[i], &all[j])));
	}
}

/* A terminal too small for anything: only the message, which suggests a
 * size that really shows every GPU. */
static void check_too_small(const struct sweep_ctx *c,
                            const struct gt_layout *L)
{
	struct gt_rect gpus2[MAX_GPUS];
	struct gt_layout big;
	int w, h;

	CHECK(c, L->too_small);
	CHECK(c, L->message[0] != '\0');
	CHECK(c, L->gpu_count == 0);
	CHECK(c, !shown(&L->title) && !shown(&L->procs));
	CHECK(c, c->cols <= 0 || c->rows <= 0 ||
	             (L->status.w == c->cols && L->status.h == c->rows));
	CHECK(c, suggested(L->message, &w, &h));
	CHECK(c, layout(w, h, c->ngpus, c->o, &big, gpus2) == 0);
	CHECK(c, !big.too_small && big.gpu_count == c->ngpus);
}

/* Panels: heights within one row of each other and within the mode's
 * range, a graph of at least 3 rows in FULL, LINE rows inside their
 * frames, and as many distinct columns as `columns` says. Returns the row
 * below the lowest panel (or frame). */
static int check_panels(const struct sweep_ctx *c, const struct gt_layout *L,
                        const struct gt_rect *gpus)
{
	const struct gt_layout_opts *o = c->o;
	int xs[MAX_GPUS], nxs = 0, bottom = 0, hmin = 1 << 20, hmax = 0;

	CHECK(c, L->mode >= o->max_mode);
	CHECK(c, o->show_graphs || L->mode != GT_GPU_FULL);
	CHECK(c, L->mode == GT_GPU_LINE ? L->nframes <= GT_LAYOUT_MAX_FRAMES
	                                : L->nframes == 0);
	for (int i = L->gpu_first; i < L->gpu_first + L->gpu_count; i++) {
		const struct gt_rect *g = &gpus[i];
		struct gt_panel_parts pp;
		int k = 0;

		hmin = g->h < hmin ? g->h : hmin;
		hmax = g->h > hmax ? g->h : hmax;
		switch (L->mode) {
		case GT_GPU_FULL:
			CHECK(c, g->h >= GT_LAYOUT_FULL_MIN_H);
			CHECK(c, g->w >= GT_LAYOUT_FULL_MIN_W);
			gt_layout_panel_parts(*g, L->mode, &pp);
			CHECK(c, pp.graph.h >= GT_LAYOUT_GRAPH_MIN);
			CHECK(c, pp.info_lines >= GT_LAYOUT_INFO_MIN);
			break;
		case GT_GPU_COMPACT:
			CHECK(c, g->h >= GT_LAYOUT_COMPACT_H);
			CHECK(c,
			      g->h <= GT_LAYOUT_BOX_ROWS + GT_LAYOUT_INFO_MAX);
			CHECK(c, g->w >= GT_LAYOUT_COMPACT_MIN_W);
			break;
		case GT_GPU_LINE: {
			bool in = false;
			CHECK(c, g->h == 1);
			for (int f = 0; f < L->nframes; f++) {
				const struct gt_rect *fr = &L->frames[f];
				in = in || (g->x > fr->x && g->y > fr->y &&
				            g->x + g->w < fr->x + fr->w &&
				            g->y < fr->y + fr->h - 1);
			}
			/* Only a window on a tiny terminal goes without. */
			CHECK(c, in || L->nframes == 0);
			break;
		}
		}
		while (k < nxs && xs[k] != g->x)
			k++;
		if (k == nxs)
			xs[nxs++] = g->x;
		if (g->y + g->h > bottom)
			bottom = g->y + g->h;
	}
	/* Boxes never touch: FULL and COMPACT panels, LINE frames; panels
	 * are all equally wide, so that their axes line up. Two stacked
	 * panels go without a blank row between them only so that every
	 * panel gets one height (which then shows the same things), and
	 * the panels of one grid always show the same things: a time
	 * axis in all or none, bands as high in all, as many lines of
	 * numbers (COMPACT too). */
	bool meet = false;
	for (int i = L->gpu_first; i < L->gpu_first + L->gpu_count; i++)
		for (int j = L->gpu_first; j < i && L->mode != GT_GPU_LINE;
		     j++) {
			CHECK(c, apart(&gpus[i], &gpus[j]) &&
			             gpus[i].w == gpus[j].w);
			meet = meet || stacked(&gpus[j], &gpus[i]);
			CHECK(c, panel_look(L->mode, &gpus[i]) ==
			             panel_look(L->mode, &gpus[j]));
		}
	CHECK(c, !meet || hmin == hmax);
	for (int f = 0; f < L->nframes; f++)
		for (int e = 0; e < f; e++)
			CHECK(c, apart(&L->frames[f], &L->frames[e]) &&
			             L->frames[f].w == L->frames[e].w);
	for (int f = 0; f < L->nframes; f++) {
		CHECK(c, inside(&L->frames[f], c->cols, c->rows));
		if (L->frames[f].y + L->frames[f].h > bottom)
			bottom = L->frames[f].y + L->frames[f].h;
	}
	if (L->gpu_count > 0) {
		CHECK(c, hmax - hmin <= 1);
		CHECK(c, L->columns == nxs);
		/* Every row from the title down is a panel's (or the
		 * table's, checked by the caller). */
		CHECK(c, bottom > 1);
	}
	return bottom;
}

/* The process table: only when asked, never while GPUs are hidden, at
 * least its minimum, and it takes every row below the panels (bottom).
 * Then: anything hidden is said, with a size that really shows it. */
static void check_procs_and_message(const struct sweep_ctx *c,
                                    const struct gt_layout *L, int bottom)
{
	const struct gt_layout_opts *o = c->o;
	int ngpus = c->ngpus;
	int proc_min =
	    o->proc_min_rows > 0 ? o->proc_min_rows : GT_LAYOUT_PROC_MIN_ROWS;

	int want = o->proc_rows > 0 ? (o->proc_rows > 2 ? o->proc_rows : 2) : 0;
	if (want && want < proc_min)
		proc_min = want;
	if (shown(&L->procs)) {
		CHECK(c, o->show_processes);
		CHECK(c, L->gpu_count == ngpus);
		CHECK(c, L->procs.h >= proc_min && L->procs.w == c->cols);
		CHECK(c, L->procs.y + L->procs.h == c->rows - 1);
		if (ngpus > 0)
			CHECK(c, L->procs.y == bottom);
		/* No blank band under a short table: with graphs to take
		 * the rest, it gets what it needs and no more. */
		if (want && L->mode == GT_GPU_FULL)
			CHECK(c, L->procs.h <= want);
	} else if (ngpus > 0 && L->gpu_count == ngpus &&
	           L->mode == GT_GPU_FULL) {
		/* Without a table the panels fill the screen. */
		CHECK(c, bottom == c->rows - 1);
	}

	if (L->gpu_count < ngpus ||
	    (o->show_processes && !shown(&L->procs) && ngpus > 0)) {
		struct gt_rect gpus2[MAX_GPUS];
		struct gt_layout big;
		int w, h;

		CHECK(c, L->message[0] != '\0');
		CHECK(c, suggested(L->message, &w, &h));
		CHECK(c, w == c->cols && h > c->rows);
		CHECK(c, layout(w, h, ngpus, o, &big, gpus2) == 0);
		CHECK(c, big.gpu_count == ngpus);
		if (L->gpu_count == ngpus)
			CHECK(c, shown(&big.procs));
	} else {
		CHECK(c, L->message[0] == '\0');
	}
}

/* Every invariant of one layout. Returns the number of GPUs shown. */
static int check_one(int cols, int rows, int ngpus,
                     const struct gt_layout_opts *o)
{
	struct sweep_ctx c = {cols, rows, ngpus, o};
	struct gt_rect gpus[MAX_GPUS];
	struct gt_layout L;

	CHECK(&c, layout(cols, rows, ngpus, o, &L, gpus) == 0);
	CHECK(&c, L.gpus == (ngpus > 0 ? gpus : NULL));
	CHECK(&c, memchr(L.message, '\0', sizeof(L.message)) != NULL);
	check_repeatable(&c, &L, gpus);
	check_rects(&c, &L, gpus);

	if (cols < GT_LAYOUT_LINE_MIN_W || rows < GT_LAYOUT_MIN_ROWS) {
		check_too_small(&c, &L);
		return 0;
	}

	CHECK(&c, !L.too_small);
	CHECK(&c, rect_eq(&L.title, &(struct gt_rect){0, 0, cols, 1}));
	CHECK(&c, rect_eq(&L.status, &(struct gt_rect){0, rows - 1, cols, 1}));
	if (ngpus > 0)
		CHECK(&c, L.gpu_count >= 1);
	else
		CHECK(&c, L.gpu_count == 0);
	/* Big enough for one boxed line per GPU plus title and status: all
	 * shown. */
	if (rows >= ngpus + 4)
		CHECK(&c, L.gpu_count == ngpus);
	if (ngpus > 0) {
		int sel = o->selected_gpu < 0        ? 0
		          : o->selected_gpu >= ngpus ? ngpus - 1
		                                     : o->selected_gpu;
		CHECK(&c,
		      sel >= L.gpu_first && sel < L.gpu_first + L.gpu_count);
	}
	check_procs_and_message(&c, &L, check_panels(&c, &L, gpus));
	return L.gpu_count;
}

/* Every size 20x6..400x120 for the GPU counts in mask (bit n: n GPUs),
 * with a selection and a scroll hint that vary with the size; checks
 * monotonicity along both axes: a bigger terminal never shows fewer GPUs. */
static void sweep(bool procs, bool graphs, enum gt_gpu_mode max_mode,
                  unsigned mask)
{
	int prev_row[401] = {0}; /* GPUs shown at (cols, rows - 1) */

	for (int ngpus = 0; ngpus <= MAX_GPUS; ngpus++) {
		if (!(mask & 1u << ngpus))
			continue;

		for (int rows = 6; rows <= 120; rows++) {
			int prev_col = 0;

			for (int cols = 20; cols <= 400; cols++) {
				struct gt_layout_opts o = {
				    .show_processes = procs,
				    .show_graphs = graphs,
				    .max_mode = max_mode,
				    .selected_gpu =
				        ngpus ? (cols * 7 + rows) % ngpus : 0,
				    .first_gpu_hint =
				        ngpus ? (cols + rows * 3) % ngpus : 0,
				    /* unknown, or 1 to 29 rows; the user
				     * in the table now and then */
				    .proc_rows = (cols + rows) % 30,
				    .table_focus = (cols * 3 + rows) % 7 == 0,
				};
				struct sweep_ctx c = {cols, rows, ngpus, &o};
				int n = check_one(cols, rows, ngpus, &o);

				CHECK(&c, n >= prev_col);
				if (rows > 6)
					CHECK(&c, n >= prev_row[cols]);
				prev_col = n;
				prev_row[cols] = n;
			}
		}
	}
}

/* Every GPU count 0..16 for the dashboard's defaults; a spread of counts
 * (both sides of each tiling and paging edge) for the other options, to
 * keep the suite fast under ASan. */
#define ALL_COUNTS 0x1ffffu
#define SOME_COUNTS                                                            \
	(1u << 0 | 1u << 1 | 1u << 2 | 1u << 3 | 1u << 4 | 1u << 5 | 1u << 7 | \
	 1u << 8 | 1u << 9 | 1u << 12 | 1u << 16)

static void test_sweep_procs_graphs(void **state)
{
	(void)state;
	sweep(true, true, GT_GPU_FULL, ALL_COUNTS);
}

static void test_sweep_no_procs_no_graphs(void **state)
{
	(void)state;
	sweep(false, false, GT_GPU_FULL, SOME_COUNTS);
}

static void test_sweep_forced_compact(void **state)
{
	(void)state;
	sweep(true, false, GT_GPU_COMPACT, SOME_COUNTS);
}

/* Below 20 columns or 3 rows (and nonsense sizes): the too-small screen,
 * whose message names a size that shows every GPU. */
static void test_sweep_too_small(void **state)
{
	(void)state;
	for (int ngpus = 0; ngpus <= MAX_GPUS; ngpus++)
		for (int rows = -1; rows <= 8; rows++)
			for (int cols = -1; cols <= 25; cols++) {
				struct gt_layout_opts o = {
				    .show_processes = true,
				    .show_graphs = true,
				    .selected_gpu = ngpus - 1,
				};
				check_one(cols, rows, ngpus, &o);
			}
}

static const struct gt_layout_opts dash = {
    .show_processes = true,
    .show_graphs = true,
};

static void test_one_gpu_full_at_120x40(void **state)
{
	struct gt_rect g[1];
	struct gt_layout L;
	struct gt_layout_opts o = dash;

	(void)state;
	o.proc_rows = 3;
	assert_int_equal(layout(120, 40, 1, &o, &L, g), 0);
	assert_int_equal(L.mode, GT_GPU_FULL);
	assert_int_equal(L.gpu_count, 1);
	/* The table takes its 3 rows, the panel all the others. */
	assert_int_equal(L.procs.h, 3);
	assert_true(rect_eq(&g[0], &(struct gt_rect){0, 1, 120, 35}));
	assert_string_equal(L.message, "");
}

/* The acceptance matrix: every GPU shown, the mode each size
 * and count gets, and no table rows left empty where graphs can use them
 * (the table's needs as the fake NVML scenarios give them). */
static void test_acceptance_matrix(void **state)
{
	static const int sizes[4][2] = {
	    {80, 24}, {120, 40}, {200, 60}, {300, 80}};
	static const int n[5] = {1, 2, 4, 8, 16};
	static const int need[5] = {3, 5, 8, 12, 20};
	static const enum gt_gpu_mode mode[4][5] = {
	    {GT_GPU_FULL, GT_GPU_FULL, GT_GPU_COMPACT, GT_GPU_LINE,
	     GT_GPU_LINE},
	    {GT_GPU_FULL, GT_GPU_FULL, GT_GPU_FULL, GT_GPU_COMPACT,
	     GT_GPU_LINE},
	    {GT_GPU_FULL, GT_GPU_FULL, GT_GPU_FULL, GT_GPU_FULL, GT_GPU_FULL},
	    {GT_GPU_FULL, GT_GPU_FULL, GT_GPU_FULL, GT_GPU_FULL, GT_GPU_FULL},
	};
	struct gt_rect g[16];
	struct gt_layout L;

	(void)state;
	for (int s = 0; s < 4; s++)
		for (int k = 0; k < 5; k++) {
			struct gt_layout_opts o = dash;
			o.proc_rows = need[k];
			assert_int_equal(
			    layout(sizes[s][0], sizes[s][1], n[k], &o, &L, g),
			    0);
			assert_int_equal(L.gpu_count, n[k]);
			assert_int_equal(L.mode, mode[s][k]);
			assert_true(shown(&L.procs));
			/* The table gets all it needs (but at 80x24 with 16
			 * GPUs, its minimum); graphs take every spare row;
			 * panels without them leave at most 2 (they stop
			 * growing at 6 rows). */
			assert_true(L.procs.h >= (s == 0 && k == 4
			                              ? GT_LAYOUT_PROC_MIN_ROWS
			                              : need[k]));
			assert_true(L.procs.h <=
			            need[k] + (L.mode == GT_GPU_FULL ? 0 : 2));
			assert_string_equal(L.message, "");
		}
}

/* Wider terminals give wider panels (more history), not empty space: the
 * grid aims at panels about six times wider than tall. */
static void test_columns_grow_with_width(void **state)
{
	struct gt_rect g[16];
	struct gt_layout L;
	struct gt_layout_opts o = dash;

	(void)state;
	o.proc_rows = 12;
	assert_int_equal(layout(200, 60, 8, &o, &L, g), 0);
	assert_int_equal(L.columns, 2);
	/* Columns equally wide (their time axes line up); a blank gap
	 * between the two, of two columns where 199 does not halve; a blank
	 * row under the first. */
	assert_true(rect_eq(&g[0], &(struct gt_rect){0, 1, 99, 11}));
	assert_true(rect_eq(&g[1], &(struct gt_rect){101, 1, 99, 11}));
	assert_true(rect_eq(&g[2], &(struct gt_rect){0, 13, 99, 11}));
	assert_int_equal(layout(300, 80, 8, &o, &L, g), 0);
	assert_int_equal(L.columns, 2);
	assert_int_equal(g[0].w, 149);
	assert_int_equal(g[1].w, 149);
	assert_int_equal(g[1].x, 151);
	assert_int_equal(g[1].x + g[1].w, 300);
	o.proc_rows = 20;
	assert_int_equal(layout(300, 80, 16, &o, &L, g), 0);
	assert_int_equal(L.columns, 4);
	for (int i = 1; i < 4; i++) {
		assert_int_equal(g[i].w, g[0].w);
		int gap = g[i].x - (g[i - 1].x + g[i - 1].w);
		assert_true(gap == 1 || gap == 2);
	}
	assert_int_equal(g[3].x + g[3].w, 300);
	/* One GPU never tiles. */
	assert_int_equal(layout(400, 40, 1, &dash, &L, g), 0);
	assert_int_equal(L.columns, 1);
	assert_int_equal(g[0].w, 400);
}

/* The table takes what it needs, up to its promised share, and the
 * graphs the rest; when the user is in the table, it gets its rows before
 * the graphs get more than their minimum. */
static void test_table_share(void **state)
{
	struct gt_rect g[8];
	struct gt_layout L;
	struct gt_layout_opts o = dash;

	(void)state;
	o.proc_rows = 12;
	assert_int_equal(layout(200, 60, 8, &o, &L, g), 0);
	assert_int_equal(L.mode, GT_GPU_FULL);
	assert_int_equal(L.procs.h, 12);
	assert_int_equal(L.procs.y, 1 + 46);
	/* The 43 rows left for four rows of panels, gaps taken out, would
	 * make three rows of 11 (graph, axis, bands) and one of 10 (no room
	 * for the bands): the lowest gap gives its row instead, so all
	 * eight are 11 rows and show the same graphs. */
	for (int i = 0; i < 8; i++)
		assert_int_equal(g[i].h, 11);
	assert_int_equal(g[2].y, g[0].y + 11 + GT_LAYOUT_GAP);
	assert_int_equal(g[4].y, g[2].y + 11 + GT_LAYOUT_GAP);
	assert_int_equal(g[6].y, g[4].y + 11);
	int axis, bands;
	gt_layout_graph_rows(7, &axis, &bands);
	assert_int_equal(axis, 1);
	assert_int_equal(bands, GT_LAYOUT_GRAPH_MIN);
	gt_layout_graph_rows(6, &axis, &bands);
	assert_int_equal(axis, 1);
	assert_int_equal(bands, 0);
	/* 120x40: FULL panels would leave the table 7 of its 12 rows, so
	 * the GPUs go COMPACT, two side by side, and the table gets them
	 * all; the panels are at their tallest, the last row of them too
	 * (with a line of numbers fewer it would drop the memory clock):
	 * the lowest gap gives it the row. */
	assert_int_equal(layout(120, 40, 8, &o, &L, g), 0);
	assert_int_equal(L.mode, GT_GPU_COMPACT);
	assert_int_equal(L.columns, 2);
	for (int i = 0; i < 8; i++)
		assert_int_equal(g[i].h,
		                 GT_LAYOUT_BOX_ROWS + GT_LAYOUT_INFO_MAX);
	assert_int_equal(g[6].y, g[4].y + g[4].h);
	assert_int_equal(L.procs.h, 12);
	/* 500 processes: the table is promised 40 % of the 58 rows under
	 * the title (23), the graphs get the rest but for a gap row between
	 * each two of their rows... */
	o.proc_rows = 501;
	assert_int_equal(layout(200, 60, 8, &o, &L, g), 0);
	assert_int_equal(L.mode, GT_GPU_FULL);
	assert_int_equal(L.procs.h, 58 * GT_LAYOUT_PROC_SHARE / 100);
	int sum = 0, nr = 0;
	for (int i = 0; i < 8; i += L.columns, nr++)
		sum += g[i].h;
	assert_int_equal(sum, 58 - L.procs.h - (nr - 1) * GT_LAYOUT_GAP);
	/* ...unless the user is in the table: then the graphs keep only
	 * their minimum. */
	o.table_focus = true;
	assert_int_equal(layout(200, 60, 8, &o, &L, g), 0);
	assert_int_equal(g[0].h, GT_LAYOUT_FULL_MIN_H);
	assert_int_equal(L.procs.h, 58 - 8 / L.columns * GT_LAYOUT_FULL_MIN_H -
	                                (8 / L.columns - 1) * GT_LAYOUT_GAP);
	/* Two processes: one line per GPU would leave a band of blank
	 * table rows, so COMPACT panels take them (at 80x44: eight stacked
	 * with their seven gap rows). */
	o.table_focus = false;
	o.proc_rows = 3;
	assert_int_equal(layout(80, 44, 8, &o, &L, g), 0);
	assert_int_equal(L.mode, GT_GPU_COMPACT);
	assert_int_equal(L.columns, 1);
	assert_true(L.procs.h <= 3 + 2);
	/* The user asked for COMPACT: that, not LINE, while it fits. */
	o.max_mode = GT_GPU_COMPACT;
	o.proc_rows = 12;
	assert_int_equal(layout(120, 40, 8, &o, &L, g), 0);
	assert_int_equal(L.mode, GT_GPU_COMPACT);
}

/* LINE: a boxed table, the column names in its top border, one row per
 * GPU inside. */
static void test_line_frames(void **state)
{
	struct gt_rect g[8];
	struct gt_layout L;
	struct gt_layout_opts o = dash;

	(void)state;
	o.proc_rows = 12;
	assert_int_equal(layout(80, 24, 8, &o, &L, g), 0);
	assert_int_equal(L.mode, GT_GPU_LINE);
	assert_int_equal(L.nframes, 1);
	assert_true(rect_eq(&L.frames[0], &(struct gt_rect){0, 1, 80, 10}));
	for (int i = 0; i < 8; i++)
		assert_true(rect_eq(&g[i], &(struct gt_rect){1, 2 + i, 78, 1}));
	assert_true(rect_eq(&L.procs, &(struct gt_rect){0, 11, 80, 12}));
	/* 40x12: no room for the table; it goes, the GPUs stay, and the
	 * message says what size brings it back. */
	assert_int_equal(layout(40, 12, 8, &dash, &L, g), 0);
	assert_false(shown(&L.procs));
	assert_int_equal(L.gpu_count, 8);
	assert_string_equal(L.message, "process table hidden; 40x16 shows it");
}

/* The parts of a panel: the graph keeps 3 rows, then gets its time axis,
 * then the lines of numbers it lacks come before more graph rows. */
static void test_panel_parts(void **state)
{
	struct gt_panel_parts p;

	(void)state;
	gt_layout_panel_parts((struct gt_rect){0, 0, 60, 4}, GT_GPU_COMPACT,
	                      &p);
	assert_true(rect_eq(&p.inner, &(struct gt_rect){1, 1, 58, 2}));
	assert_int_equal(p.graph.h, 0);
	assert_int_equal(p.info_lines, 2);
	assert_false(p.wide);
	gt_layout_panel_parts((struct gt_rect){0, 0, 60, 7}, GT_GPU_FULL, &p);
	assert_int_equal(p.graph.h, 3);
	assert_int_equal(p.info_lines, 2);
	assert_int_equal(p.info.y, p.graph.y + 3);
	gt_layout_panel_parts((struct gt_rect){0, 0, 60, 8}, GT_GPU_FULL, &p);
	assert_int_equal(p.graph.h, 4);
	assert_int_equal(p.info_lines, 2);
	gt_layout_panel_parts((struct gt_rect){0, 0, 60, 10}, GT_GPU_FULL, &p);
	assert_int_equal(p.graph.h, 4);
	assert_int_equal(p.info_lines, 4);
	gt_layout_panel_parts((struct gt_rect){0, 0, 60, 20}, GT_GPU_FULL, &p);
	assert_int_equal(p.graph.h, 14);
	assert_int_equal(p.info_lines, 4);
	/* Wide: two lines hold every number. */
	gt_layout_panel_parts((struct gt_rect){0, 0, 100, 20}, GT_GPU_FULL, &p);
	assert_true(p.wide);
	assert_int_equal(p.info_lines, 2);
	assert_int_equal(p.graph.h, 16);
	/* Too short for a graph: numbers only, even in FULL. */
	gt_layout_panel_parts((struct gt_rect){0, 0, 60, 6}, GT_GPU_FULL, &p);
	assert_int_equal(p.graph.h, 0);
	assert_int_equal(p.info_lines, 4);
	gt_layout_panel_parts((struct gt_rect){0, 0, 2, 9}, GT_GPU_FULL, &p);
	assert_int_equal(p.inner.w, 0);
	assert_int_equal(p.info_lines, 0);
}

/* 16 GPUs on a terminal that fits 6 lines: a window that follows the
 * selection, scrolling only as far as needed. */
static void test_window_follows_selection(void **state)
{
	struct gt_rect g[16];
	struct gt_layout L;
	struct gt_layout_opts o = dash;

	(void)state;
	o.selected_gpu = 12;
	assert_int_equal(layout(60, 10, 16, &o, &L, g), 0);
	assert_int_equal(L.mode, GT_GPU_LINE);
	assert_int_equal(L.gpu_first, 7);
	assert_int_equal(L.gpu_count, 6);
	assert_false(shown(&L.procs));
	assert_string_equal(L.message, "GPUs 7-12 of 16; 60x20 shows all");
	assert_true(rect_eq(&g[7], &(struct gt_rect){1, 2, 58, 1}));
	assert_true(rect_eq(&g[12], &(struct gt_rect){1, 7, 58, 1}));
	/* Moving up inside the window does not scroll it. */
	o.first_gpu_hint = 7;
	o.selected_gpu = 8;
	assert_int_equal(layout(60, 10, 16, &o, &L, g), 0);
	assert_int_equal(L.gpu_first, 7);
	/* Out-of-range selection and hint are clamped. */
	o.selected_gpu = 99;
	o.first_gpu_hint = -3;
	assert_int_equal(layout(60, 10, 16, &o, &L, g), 0);
	assert_int_equal(L.gpu_first, 10);
	/* Two LINE columns at 120 wide show all 16 in 8 rows. */
	assert_int_equal(layout(120, 12, 16, &o, &L, g), 0);
	assert_int_equal(L.gpu_count, 16);
	assert_int_equal(L.columns, 2);
	assert_int_equal(L.nframes, 2);
	/* Both 59 wide, a blank column between: their fields line up. */
	assert_true(rect_eq(&L.frames[0], &(struct gt_rect){0, 1, 59, 10}));
	assert_true(rect_eq(&L.frames[1], &(struct gt_rect){60, 1, 59, 10}));
	assert_true(rect_eq(&g[8], &(struct gt_rect){61, 2, 57, 1}));
}

static void test_too_small_message(void **state)
{
	struct gt_rect g[8];
	struct gt_layout L;

	(void)state;
	assert_int_equal(layout(15, 4, 8, &dash, &L, g), 0);
	assert_true(L.too_small);
	assert_true(rect_eq(&L.status, &(struct gt_rect){0, 0, 15, 4}));
	assert_string_equal(L.message,
	                    "terminal 15x4 is too small; 20x12 shows all GPUs");
}

static void test_bad_arguments(void **state)
{
	struct gt_rect g[2];
	struct gt_layout L = {.gpus = NULL};

	(void)state;
	assert_int_equal(gt_layout_compute(80, 24, 1, &dash, NULL), -1);
	assert_int_equal(gt_layout_compute(80, 24, -1, &dash, &L), -1);
	assert_int_equal(gt_layout_compute(80, 24, 2, &dash, &L), -1);
	/* NULL options mean the zero defaults; 0 GPUs is fine. */
	assert_int_equal(gt_layout_compute(80, 24, 0, NULL, &L), 0);
	L.gpus = g;
	assert_int_equal(gt_layout_compute(80, 24, 2, NULL, &L), 0);
	assert_int_equal(L.gpu_count, 2);
	assert_false(shown(&L.procs));
}

/* The dashboard reuses a layout while the options compare equal: every
 * field must count, or a change of it would keep the old layout. */
static void test_opts_equal(void **state)
{
	const struct gt_layout_opts base = {
	    .show_processes = true,
	    .show_graphs = true,
	    .max_mode = GT_GPU_FULL,
	    .selected_gpu = 2,
	    .first_gpu_hint = 1,
	    .proc_min_rows = 4,
	    .proc_rows = 9,
	    .table_focus = false,
	};
	struct gt_layout_opts v[8];

	(void)state;
	for (int i = 0; i < 8; i++)
		v[i] = base;
	v[0].show_processes = false;
	v[1].show_graphs = false;
	v[2].max_mode = GT_GPU_LINE;
	v[3].selected_gpu = 3;
	v[4].first_gpu_hint = 0;
	v[5].proc_min_rows = 5;
	v[6].proc_rows = 10;
	v[7].table_focus = true;
	struct gt_layout_opts same = base;
	assert_true(gt_layout_opts_equal(&base, &same));
	for (int i = 0; i < 8; i++) {
		assert_false(gt_layout_opts_equal(&base, &v[i]));
		assert_false(gt_layout_opts_equal(&v[i], &base));
	}
}

/* Processes that come and go do not move the graphs each time: the
 * table gets more rows at once and gives them back after the hold. */
static void test_table_rows_held(void **state)
{
	struct gt_layout_table_hold h = {0};
	const uint64_t S = 1000000000ull, t0 = 5 * S;

	(void)state;
	assert_int_equal(gt_layout_table_rows(&h, 5, 1, t0), 5);
	assert_int_equal(gt_layout_table_rows(&h, 12, 1, t0 + S), 12);
	/* Short-lived processes gone: the rows stay for the hold, each
	 * return of the need to them starting it again. */
	assert_int_equal(gt_layout_table_rows(&h, 6, 1, t0 + 2 * S), 12);
	assert_int_equal(gt_layout_table_rows(&h, 12, 1, t0 + 6 * S), 12);
	assert_int_equal(gt_layout_table_rows(&h, 6, 1, t0 + 15 * S), 12);
	assert_int_equal(gt_layout_table_rows(
	                     &h, 6, 1, t0 + 6 * S + GT_LAYOUT_TABLE_HOLD_NS),
	                 6);
	/* More again: at once. */
	assert_int_equal(gt_layout_table_rows(&h, 9, 1, t0 + 17 * S), 9);
	/* The user's view changed (a filter): the need at once. */
	assert_int_equal(gt_layout_table_rows(&h, 3, 2, t0 + 18 * S), 3);
	assert_int_equal(gt_layout_table_rows(&h, 2, 2, t0 + 19 * S), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sweep_procs_graphs),
	    cmocka_unit_test(test_sweep_no_procs_no_graphs),
	    cmocka_unit_test(test_sweep_forced_compact),
	    cmocka_unit_test(test_sweep_too_small),
	    cmocka_unit_test(test_one_gpu_full_at_120x40),
	    cmocka_unit_test(test_acceptance_matrix),
	    cmocka_unit_test(test_columns_grow_with_width),
	    cmocka_unit_test(test_table_share),
	    cmocka_unit_test(test_line_frames),
	    cmocka_unit_test(test_panel_parts),
	    cmocka_unit_test(test_window_follows_selection),
	    cmocka_unit_test(test_too_small_message),
	    cmocka_unit_test(test_bad_arguments),
	    cmocka_unit_test(test_opts_equal),
	    cmocka_unit_test(test_table_rows_held),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

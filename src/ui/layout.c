/* SPDX-License-Identifier: MIT */
/*
 * layout.c - the dashboard's layout engine (see layout.h): owns the choice
 * of GPU panel mode, panel tiling, the rows each part of the screen gets,
 * the GPU window on huge machines, the "how to get more" message and the
 * split of a panel into graph and numbers. Pure: no ncurses, no I/O, no
 * globals.
 */
#include "ui/layout.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int clamp_int(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static int div_up(int a, int b)
{
	return (a + b - 1) / b;
}

int gt_layout_info_need(int inner_w)
{
	return inner_w >= GT_LAYOUT_WIDE_W ? GT_LAYOUT_INFO_MIN
	                                   : GT_LAYOUT_INFO_MAX;
}

void gt_layout_panel_parts(struct gt_rect box, enum gt_gpu_mode mode,
                           struct gt_panel_parts *out)
{
	memset(out, 0, sizeof(*out));
	if (box.w < 3 || box.h < 3)
		return;
	struct gt_rect in = {box.x + 1, box.y + 1, box.w - 2, box.h - 2};
	/* Graphs and numbers keep a blank cell from the border, as the
	 * title does, where the box is wide enough to spare it. */
	int pad = in.w >= GT_LAYOUT_PAD_FROM ? GT_LAYOUT_PAD : 0;
	int x = in.x + pad, w = in.w - 2 * pad;
	int need = gt_layout_info_need(w);
	int lines = in.h < GT_LAYOUT_INFO_MIN ? in.h : GT_LAYOUT_INFO_MIN;
	int g = in.h - lines;

	out->inner = in;
	if (mode != GT_GPU_FULL || g < GT_LAYOUT_GRAPH_MIN) {
		/* Numbers only: as many lines as fit, spread out over up to
		 * four even when two would hold them. */
		lines = in.h < GT_LAYOUT_INFO_MAX ? in.h : GT_LAYOUT_INFO_MAX;
		g = 0;
	} else {
		/* The graph keeps its minimum and a time axis; past that,
		 * the numbers it lacks come first. */
		while (lines < need && g > GT_LAYOUT_GRAPH_MIN + 1) {
			lines++;
			g--;
		}
		out->graph = (struct gt_rect){x, in.y, w, g};
	}
	out->info_lines = lines;
	out->wide = need == GT_LAYOUT_INFO_MIN && lines == GT_LAYOUT_INFO_MIN;
	out->info = (struct gt_rect){x, in.y + g, w, lines};
}

void gt_layout_graph_rows(int g, int *axis, int *bands)
{
	*axis = g >= GT_LAYOUT_GRAPH_MIN + 1 ? 1 : 0;
	int b = (g - *axis) / 3;
	if (b < GT_LAYOUT_GRAPH_MIN)
		b = GT_LAYOUT_GRAPH_MIN;
	*bands = g - *axis - b < GT_LAYOUT_GRAPH_MIN ? 0 : b;
}

/* What a panel box w x h of the given mode shows, as one number: its
 * graphs (none, or the main graph with or without its time axis, and the
 * bands' height) and its lines of numbers. Two heights with the same
 * number differ only in the main graph's rows. */
static int panel_shape(enum gt_gpu_mode mode, int w, int h)
{
	struct gt_panel_parts parts;
	int axis = 0, bands = 0, graph = 0;

	gt_layout_panel_parts((struct gt_rect){0, 0, w, h}, mode, &parts);
	if (parts.graph.h >= GT_LAYOUT_GRAPH_MIN) {
		graph = 1;
		gt_layout_graph_rows(parts.graph.h, &axis, &bands);
	}
	return ((bands * 2 + axis) * 2 + graph) * 8 + parts.info_lines;
}

/* ---- choosing a mode and a grid ----------------------------------- */

/* One way to lay the GPUs out: mode, columns, the rows of each panel and
 * of the process table. */
struct plan {
	enum gt_gpu_mode mode;
	int c, nr;     /* columns; panel rows (LINE: GPU rows a column) */
	int h, rem;    /* panel height; the first `rem` panel rows +1 */
	int tight;     /* gap rows given up, the lowest first */
	int table;     /* process table rows */
	int blank;     /* rows of the table left empty */
	int shortfall; /* rows the table needs and does not get */
	double score;  /* FULL: how far from the aimed-at shape */
};

struct need {
	int cols, body, n;
	int tmin, want; /* table: rows it must get, rows it needs (0: none) */
	bool focus;
};

/* The width of each of c columns side by side with a gap between each two
 * (the narrowest, when they differ by one). */
static int column_w(int cols, int c)
{
	return (cols - (c - 1) * GT_LAYOUT_GAP) / c;
}

/* Column counts that give each column at least min_w, gaps between. */
static int max_columns(int cols, int min_w, int n)
{
	return clamp_int((cols + GT_LAYOUT_GAP) / (min_w + GT_LAYOUT_GAP), 1,
	                 n > 1 ? n : 1);
}

/* The process table's rows when panels of [hmin, hmax] rows fill nr panel
 * rows, a gap row between each two: what it is promised (q->tmin), or all
 * it needs with table_focus or `first` (panels without graphs: a row more
 * of numbers is worth less than a row of the table); the panels get the
 * rest. False when not even q->tmin is left for it. */
static bool share_rows(const struct need *q, int nr, int hmin, int hmax,
                       bool first, struct plan *p)
{
	int rows = q->body - (nr - 1) * GT_LAYOUT_GAP; /* panels and table */
	int avail = rows - nr * hmin;

	if (avail < q->tmin)
		return false;
	int t = q->focus || first ? q->want : q->tmin;
	if (t > avail)
		t = avail;
	int g = rows - t;
	if (g / nr >= hmax) {
		/* Panels that cannot use more rows: the rest is the table's,
		 * which then may have rows it does not fill. */
		p->h = hmax;
		p->rem = 0;
		t = rows - nr * hmax;
	} else {
		p->h = g / nr;
		p->rem = g % nr;
	}
	p->nr = nr;
	p->table = t;
	p->blank = t > q->want ? t - q->want : 0;
	p->shortfall = q->want > t ? q->want - t : 0;
	return true;
}

/* Panels h and h + 1 rows high that would show different things (one
 * with the time axis, the bands or a line of numbers more, the other
 * without) all get h + 1: the lowest gap rows between rows of panels give
 * what they lack, and the panels' borders still part them. Always
 * possible: nr - rem of the nr - 1 gaps. */
static void even_shapes(int w, struct plan *p)
{
	if (p->rem == 0 ||
	    panel_shape(p->mode, w, p->h) == panel_shape(p->mode, w, p->h + 1))
		return;
	p->tight = p->nr - p->rem;
	p->h++;
	p->rem = 0;
}

/* The best FULL grid: the shape nearest GT_LAYOUT_ASPECT, with a penalty
 * for every empty slot of its last row. */
static bool plan_full(const struct need *q, struct plan *best)
{
	bool found = false;
	int maxc = max_columns(q->cols, GT_LAYOUT_FULL_MIN_W, q->n);

	for (int c = 1; c <= maxc; c++) {
		struct plan p = {.mode = GT_GPU_FULL, .c = c};
		int nr = div_up(q->n, c);
		int w = column_w(q->cols, c);
		if (w < GT_LAYOUT_FULL_MIN_W ||
		    div_up(q->n, nr) != c || /* a narrower grid has the rows */
		    !share_rows(q, nr, GT_LAYOUT_FULL_MIN_H, 1 << 20, false,
		                &p))
			continue;
		even_shapes(w, &p);
		double h = p.h + (double)p.rem / nr;
		p.score = fabs(log((double)w / h / GT_LAYOUT_ASPECT)) +
		          0.25 * (c * nr - q->n);
		if (!found || p.score < best->score) {
			*best = p;
			found = true;
		}
	}
	return found;
}

/* Better of two COMPACT/LINE plans: fewer blank rows, then fewer of the
 * table's rows missing, then fewer columns, then LINE. */
static bool better(const struct plan *a, const struct plan *b)
{
	if (a->blank != b->blank)
		return a->blank < b->blank;
	if (a->shortfall != b->shortfall)
		return a->shortfall < b->shortfall;
	if (a->c != b->c)
		return a->c < b->c;
	return a->mode == GT_GPU_LINE && b->mode != GT_GPU_LINE;
}

static bool plan_compact(const struct need *q, struct plan *best)
{
	bool found = false;
	int maxc = max_columns(q->cols, GT_LAYOUT_COMPACT_MIN_W, q->n);

	for (int c = 1; c <= maxc; c++) {
		struct plan p = {.mode = GT_GPU_COMPACT, .c = c};
		int nr = div_up(q->n, c);
		int hmax = GT_LAYOUT_BOX_ROWS + GT_LAYOUT_INFO_MAX;
		if (column_w(q->cols, c) < GT_LAYOUT_COMPACT_MIN_W ||
		    div_up(q->n, nr) != c ||
		    !share_rows(q, nr, GT_LAYOUT_COMPACT_H, hmax, true, &p))
			continue;
		even_shapes(column_w(q->cols, c), &p);
		if (!found || better(&p, best)) {
			*best = p;
			found = true;
		}
	}
	return found;
}

/* LINE: a boxed table per column, GPUs down each column. */
static bool plan_line(const struct need *q, struct plan *best)
{
	int maxc = q->cols / GT_LAYOUT_LINE_TILE_W;

	maxc = clamp_int(maxc, 1, GT_LAYOUT_MAX_FRAMES);
	for (int c = 1; c <= maxc && c <= q->n; c++) {
		int nr = div_up(q->n, c);
		if (nr + GT_LAYOUT_BOX_ROWS + q->tmin > q->body)
			continue;
		int t = q->body - nr - GT_LAYOUT_BOX_ROWS;
		struct plan p = {
		    .mode = GT_GPU_LINE,
		    .c = div_up(q->n, nr),
		    .nr = nr,
		    .h = 1,
		    .table = t,
		    .blank = t > q->want ? t - q->want : 0,
		    .shortfall = q->want > t ? q->want - t : 0,
		};
		*best = p;
		return true;
	}
	return false;
}

/* The plan for every GPU with the table's needs q; false if none fits. */
static bool choose(const struct need *q, const struct gt_layout_opts *o,
                   struct plan *p)
{
	struct plan a = {0}, b = {0}; /* set by plan_* when they find one */
	bool fa = false, fb = false;

	if (o->max_mode == GT_GPU_FULL && o->show_graphs && plan_full(q, p))
		return true;
	if (o->max_mode != GT_GPU_LINE)
		fa = plan_compact(q, &a);
	/* COMPACT asked for by the user: LINE only when it does not fit. */
	fb = !(fa && o->max_mode == GT_GPU_COMPACT) && plan_line(q, &b);
	if (fa && (!fb || better(&a, &b)))
		*p = a;
	else if (fb)
		*p = b;
	return fa || fb;
}

/* ---- placing ------------------------------------------------------ */

/* Rows a cols-wide terminal needs to show all n GPUs as LINE rows, plus
 * extra rows (the process table), plus title and status. */
static int rows_for_lines(int cols, int n, int extra)
{
	int c =
	    clamp_int(cols / GT_LAYOUT_LINE_TILE_W, 1, GT_LAYOUT_MAX_FRAMES);
	int need = n > 0 ? div_up(n, c) : 1;

	return need + GT_LAYOUT_BOX_ROWS + extra + 2;
}

static void set_too_small(int cols, int rows, int ngpus, struct gt_layout *out)
{
	/* The size given is one that shows every GPU: the suggestion must
	 * actually help, so it keeps the user's width when that is enough. */
	int w = cols > GT_LAYOUT_LINE_MIN_W ? cols : GT_LAYOUT_LINE_MIN_W;
	int h = rows_for_lines(w, ngpus, 0);

	out->too_small = true;
	if (cols > 0 && rows > 0)
		out->status = (struct gt_rect){0, 0, cols, rows};
	snprintf(out->message, sizeof(out->message),
	         "terminal %dx%d is too small; %dx%d shows all GPUs", cols,
	         rows, w, h);
}

/* Column col of c across the whole width, a gap column between each two:
 * its first column and width. The columns are equally wide, so that their
 * graphs and time axes line up; what does not divide widens the first
 * gaps by one (at most c - 1 of them), so the last column still ends at
 * the right edge. */
static void column_span(int cols, int col, int c, int *x0, int *w)
{
	int inner = cols - (c - 1) * GT_LAYOUT_GAP;
	int spare = inner % c;

	*w = inner / c;
	*x0 = col * (*w + GT_LAYOUT_GAP) + (col < spare ? col : spare);
}

/* Boxed panels [first, first+n), c columns, from row y0, a gap row
 * between each two rows of panels but the lowest p->tight; returns the
 * row below the last. */
static int place_panels(int cols, int y0, int first, int n,
                        const struct plan *p, struct gt_rect *gpus)
{
	int y = y0;
	for (int row = 0; row < p->nr; row++) {
		int h = p->h + (row < p->rem ? 1 : 0);
		if (row > 0 && row < p->nr - p->tight)
			y += GT_LAYOUT_GAP;
		for (int col = 0; col < p->c; col++) {
			int k = row * p->c + col, x0, w;
			if (k >= n)
				break;
			column_span(cols, col, p->c, &x0, &w);
			gpus[first + k] = (struct gt_rect){x0, y, w, h};
		}
		y += h;
	}
	return y;
}

/* LINE rows [first, first+n) in c boxed columns of nr rows from y0 (boxed
 * false: no frames, rows from y0 itself); returns the row below. The
 * columns are all as wide as the narrowest, so that their fields line up
 * from one to the next (at most c - 1 columns at the right are left). */
static int place_lines(int cols, int y0, int first, int n, int c, int nr,
                       bool boxed, struct gt_layout *out)
{
	int b = boxed ? 1 : 0;
	int w = column_w(cols, c);
	for (int col = 0; col < c; col++) {
		int x0 = col * (w + GT_LAYOUT_GAP);
		if (boxed && out->nframes < GT_LAYOUT_MAX_FRAMES)
			out->frames[out->nframes++] =
			    (struct gt_rect){x0, y0, w, nr + 2};
		for (int r = 0; r < nr; r++) {
			int k = col * nr + r;
			if (k < n)
				out->gpus[first + k] = (struct gt_rect){
				    x0 + b, y0 + b + r, w - 2 * b, 1};
		}
	}
	return y0 + nr + 2 * b;
}

/* Not even one line per GPU fits: the window of GPUs that holds the
 * selected one, scrolled no further than needed from where it was. */
static void place_window(int cols, int body, int ngpus, int pmin,
                         const struct gt_layout_opts *o, struct gt_layout *out)
{
	int c =
	    clamp_int(cols / GT_LAYOUT_LINE_TILE_W, 1, GT_LAYOUT_MAX_FRAMES);
	bool boxed = body >= 1 + GT_LAYOUT_BOX_ROWS;
	int nr = boxed ? body - GT_LAYOUT_BOX_ROWS : body;
	int n = nr * c;
	int sel = clamp_int(o->selected_gpu, 0, ngpus - 1);
	int first;

	if (n > ngpus)
		n = ngpus;
	first = clamp_int(o->first_gpu_hint, sel - n + 1, sel);
	first = clamp_int(first, 0, ngpus - n);
	place_lines(cols, 1, first, n, c, nr, boxed, out);
	out->mode = GT_GPU_LINE;
	out->columns = c;
	out->gpu_first = first;
	out->gpu_count = n;
	if (n < ngpus)
		snprintf(out->message, sizeof(out->message),
		         "GPUs %d-%d of %d; %dx%d shows all", first,
		         first + n - 1, ngpus, cols,
		         rows_for_lines(cols, ngpus, 0));
	else if (o->show_processes)
		snprintf(out->message, sizeof(out->message),
		         "process table hidden; %dx%d shows it", cols,
		         rows_for_lines(cols, ngpus, pmin));
}

static void reset(struct gt_layout *out, int ngpus)
{
	struct gt_rect *gpus = out->gpus;

	memset(out, 0, sizeof(*out));
	out->gpus = gpus;
	out->mode = GT_GPU_LINE;
	for (int i = 0; i < ngpus; i++)
		gpus[i] = (struct gt_rect){0, 0, 0, 0};
}

bool gt_layout_opts_equal(const struct gt_layout_opts *a,
                          const struct gt_layout_opts *b)
{
	return a->show_processes == b->show_processes &&
	       a->show_graphs == b->show_graphs && a->max_mode == b->max_mode &&
	       a->selected_gpu == b->selected_gpu &&
	       a->first_gpu_hint == b->first_gpu_hint &&
	       a->proc_min_rows == b->proc_min_rows &&
	       a->proc_rows == b->proc_rows && a->table_focus == b->table_focus;
}

int gt_layout_table_rows(struct gt_layout_table_hold *h, int need,
                         uint64_t view, uint64_t now_ns)
{
	if (need >= h->rows || view != h->view ||
	    now_ns - h->since_ns >= GT_LAYOUT_TABLE_HOLD_NS) {
		h->rows = need;
		h->since_ns = now_ns;
		h->view = view;
	}
	return h->rows;
}

int gt_layout_compute(int cols, int rows, int ngpus,
                      const struct gt_layout_opts *opts, struct gt_layout *out)
{
	struct gt_layout_opts o = {0};
	struct plan p;

	if (!out || ngpus < 0 || (ngpus > 0 && !out->gpus))
		return -1;
	if (opts)
		o = *opts;
	reset(out, ngpus);
	cols = cols > 0 ? cols : 0;
	rows = rows > 0 ? rows : 0;
	if ((int)o.max_mode < GT_GPU_FULL || (int)o.max_mode > GT_GPU_LINE)
		o.max_mode = GT_GPU_FULL;
	if (cols < GT_LAYOUT_LINE_MIN_W || rows < GT_LAYOUT_MIN_ROWS) {
		set_too_small(cols, rows, ngpus, out);
		return 0;
	}
	out->title = (struct gt_rect){0, 0, cols, 1};
	out->status = (struct gt_rect){0, rows - 1, cols, 1};
	int body = rows - 2;
	int pmin =
	    o.proc_min_rows > 0 ? o.proc_min_rows : GT_LAYOUT_PROC_MIN_ROWS;
	int want = o.proc_rows > 0 ? (o.proc_rows > 2 ? o.proc_rows : 2) : body;
	int tmin = o.proc_rows > 0 && want < pmin ? want : pmin;
	/* Promised to the table before the GPUs get more than they must:
	 * the rows it needs up to GT_LAYOUT_PROC_SHARE % of the body. */
	int promise = clamp_int(body * GT_LAYOUT_PROC_SHARE / 100, tmin, want);
	struct need q = {
	    .cols = cols,
	    .body = body,
	    .n = ngpus,
	    .tmin = promise,
	    .want = want,
	    .focus = o.table_focus,
	};

	if (ngpus == 0) {
		if (o.show_processes && body >= tmin)
			out->procs = (struct gt_rect){0, 1, cols, body};
		return 0;
	}
	/* With the table's promised share, then its minimum, then without
	 * it: the GPUs go compact or one line each before the table shrinks,
	 * and the table goes before any GPU does. */
	bool with = o.show_processes && choose(&q, &o, &p);
	if (!with && o.show_processes && promise > tmin) {
		q.tmin = tmin;
		with = choose(&q, &o, &p);
	}
	if (!with) {
		q.tmin = q.want = 0;
		if (!choose(&q, &o, &p)) {
			place_window(cols, body, ngpus, pmin, &o, out);
			return 0;
		}
		if (o.show_processes)
			snprintf(out->message, sizeof(out->message),
			         "process table hidden; %dx%d shows it", cols,
			         rows_for_lines(cols, ngpus, pmin));
	}
	int y = p.mode == GT_GPU_LINE
	            ? place_lines(cols, 1, 0, ngpus, p.c, p.nr, true, out)
	            : place_panels(cols, 1, 0, ngpus, &p, out->gpus);
	if (with)
		out->procs = (struct gt_rect){0, y, cols, rows - 1 - y};
	out->mode = p.mode;
	out->columns = p.c;
	out->gpu_count = ngpus;
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * layout.c - the dashboard's layout engine (see layout.h): owns the choice
 * of GPU panel mode, panel tiling, the GPU window on huge machines, the
 * process table's share and the "how to get more" message. Pure: no
 * ncurses, no I/O, no globals.
 */
#include "ui/layout.h"

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

static int mode_min_w(enum gt_gpu_mode m)
{
	switch (m) {
	case GT_GPU_FULL:
		return GT_LAYOUT_FULL_MIN_W;
	case GT_GPU_COMPACT:
		return GT_LAYOUT_COMPACT_MIN_W;
	case GT_GPU_LINE:
		break;
	}
	return GT_LAYOUT_LINE_MIN_W;
}

static int mode_tile_w(enum gt_gpu_mode m)
{
	switch (m) {
	case GT_GPU_FULL:
		return GT_LAYOUT_FULL_TILE_W;
	case GT_GPU_COMPACT:
		return GT_LAYOUT_COMPACT_TILE_W;
	case GT_GPU_LINE:
		break;
	}
	return GT_LAYOUT_LINE_TILE_W;
}

static int mode_h(enum gt_gpu_mode m, bool graphs)
{
	switch (m) {
	case GT_GPU_FULL:
		return graphs ? GT_LAYOUT_FULL_MIN_H : GT_LAYOUT_FULL_NOGRAPH_H;
	case GT_GPU_COMPACT:
		return GT_LAYOUT_COMPACT_H;
	case GT_GPU_LINE:
		break;
	}
	return GT_LAYOUT_LINE_H;
}

/* Most panels of mode m side by side in cols (at least 1, at most n).
 * Tiling is by TILE_W, not MIN_W, so that a column is comfortably wide. */
static int max_columns(enum gt_gpu_mode m, int cols, int n)
{
	return clamp_int(cols / mode_tile_w(m), 1, n > 1 ? n : 1);
}

/* Grid for all n (>= 1) panels of mode m in avail rows: *nc columns of
 * *nr panels. False if it does not fit. */
static bool fit_mode(enum gt_gpu_mode m, bool graphs, int cols, int avail,
                     int n, int *nc, int *nr)
{
	int h = mode_h(m, graphs);
	int maxc, c, r;

	if (cols < mode_min_w(m) || avail < h)
		return false;
	maxc = max_columns(m, cols, n);
	/* LINE panels form a table that reads best in one full-width column,
	 * so take only as many columns as the rows force; bigger panels tile
	 * as wide as allowed, leaving rows for the process table. */
	c = m == GT_GPU_LINE ? div_up(n, avail) : maxc;
	if (c > maxc)
		return false;
	r = div_up(n, c);
	/* Balance: 4 panels on 3 columns become 2x2 wider ones. r stays. */
	c = div_up(n, r);
	if (r * h > avail)
		return false;
	*nc = c;
	*nr = r;
	return true;
}

/* Rows a cols-wide terminal needs to show all n GPUs as LINE panels,
 * plus extra rows (the process table), plus title and status. */
static int rows_for_lines(int cols, int n, int extra)
{
	int need = n > 0 ? div_up(n, max_columns(GT_GPU_LINE, cols, n)) : 1;

	return need + extra + 2;
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

/* Places GPU panels [first, first+n) on a grid of c columns x r rows of
 * panels h rows high, starting at row y0. */
static void place_gpus(int cols, int y0, int first, int n, int c, int r, int h,
                       enum gt_gpu_mode m, struct gt_rect *gpus)
{
	for (int k = 0; k < n; k++) {
		/* LINE is a table: fill down each column, like ls. */
		int col = m == GT_GPU_LINE ? k / r : k % c;
		int row = m == GT_GPU_LINE ? k % r : k / c;
		/* Proportional column edges: no gaps, widths differ by <= 1. */
		int x0 = (int)((long)col * cols / c);
		int x1 = (int)((long)(col + 1) * cols / c);

		gpus[first + k] =
		    (struct gt_rect){x0, y0 + row * h, x1 - x0, h};
	}
}

int gt_layout_compute(int cols, int rows, int ngpus,
                      const struct gt_layout_opts *opts, struct gt_layout *out)
{
	struct gt_layout_opts o = {0};
	struct gt_rect *gpus;
	int body, proc_min, sel, nc = 1, nr = 1, n, first, h;
	bool found = false, with_procs = false;
	enum gt_gpu_mode mode = GT_GPU_LINE;

	if (!out || ngpus < 0 || (ngpus > 0 && !out->gpus))
		return -1;
	if (opts)
		o = *opts;
	gpus = out->gpus;
	memset(out, 0, sizeof(*out));
	out->gpus = gpus;
	out->mode = GT_GPU_LINE;
	for (int i = 0; i < ngpus; i++)
		gpus[i] = (struct gt_rect){0, 0, 0, 0};
	cols = cols > 0 ? cols : 0;
	rows = rows > 0 ? rows : 0;
	proc_min =
	    o.proc_min_rows > 0 ? o.proc_min_rows : GT_LAYOUT_PROC_MIN_ROWS;
	if ((int)o.max_mode < GT_GPU_FULL || (int)o.max_mode > GT_GPU_LINE)
		o.max_mode = GT_GPU_FULL;
	sel = clamp_int(o.selected_gpu, 0, ngpus > 0 ? ngpus - 1 : 0);

	if (cols < GT_LAYOUT_LINE_MIN_W || rows < GT_LAYOUT_MIN_ROWS) {
		set_too_small(cols, rows, ngpus, out);
		return 0;
	}
	out->title = (struct gt_rect){0, 0, cols, 1};
	out->status = (struct gt_rect){0, rows - 1, cols, 1};
	body = rows - 2;

	if (ngpus == 0) {
		if (o.show_processes && body >= proc_min)
			out->procs = (struct gt_rect){0, 1, cols, body};
		return 0;
	}

	/* Biggest mode that fits with the process table, then without it:
	 * the table goes before any GPU does. */
	for (int pass = o.show_processes ? 0 : 1; pass < 2 && !found; pass++) {
		int avail = body - (pass == 0 ? proc_min : 0);

		for (int m = (int)o.max_mode; m <= GT_GPU_LINE && !found; m++) {
			if (fit_mode((enum gt_gpu_mode)m, o.show_graphs, cols,
			             avail, ngpus, &nc, &nr)) {
				mode = (enum gt_gpu_mode)m;
				found = true;
				with_procs = pass == 0;
			}
		}
	}

	h = mode_h(mode, o.show_graphs);
	if (found) {
		n = ngpus;
		first = 0;
		/* Spare rows grow FULL graphs: up to half the body when the
		 * process table shows (it keeps the rest), else all of it. */
		if (mode == GT_GPU_FULL && o.show_graphs) {
			int area = with_procs ? body / 2 : body;

			if (with_procs && area > body - proc_min)
				area = body - proc_min;
			if (area / nr > h)
				h = area / nr;
		}
		if (with_procs)
			out->procs = (struct gt_rect){0, 1 + nr * h, cols,
			                              body - nr * h};
		else if (o.show_processes)
			snprintf(out->message, sizeof(out->message),
			         "process table hidden; %dx%d shows it", cols,
			         rows_for_lines(cols, ngpus, proc_min));
	} else {
		/* Not even one line per GPU fits: show the window of GPUs
		 * that holds the selected one, scrolled no further than
		 * needed from where it was (first_gpu_hint). */
		nc = max_columns(GT_GPU_LINE, cols, ngpus);
		n = body * nc;
		nr = body;
		first = clamp_int(o.first_gpu_hint, sel - n + 1, sel);
		first = clamp_int(first, 0, ngpus - n);
		snprintf(out->message, sizeof(out->message),
		         "GPUs %d-%d of %d; %dx%d shows all", first,
		         first + n - 1, ngpus, cols,
		         rows_for_lines(cols, ngpus, 0));
	}

	place_gpus(cols, 1, first, n, nc, nr, h, mode, gpus);
	out->mode = mode;
	out->columns = nc;
	out->gpu_first = first;
	out->gpu_count = n;
	return 0;
}

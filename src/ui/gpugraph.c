/* SPDX-License-Identifier: MIT */
/*
 * gpugraph.c - the history graphs of a FULL GPU panel (see gpugraph.h).
 * Graph rows are computed one at a time into a row buffer, so a graph of
 * any size is drawn without a w x h scratch array.
 */
#include "ui/gpugraph.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/hash.h"
#include "ui/graph.h"
#include "ui/paint.h"

/* Widest graph row drawn (the widest terminal the layout tests use is 400
 * columns; wider ones see the newest 1024 columns). */
enum { ROW_MAX = 1024 };

static const struct {
	const char *name;
	enum gt_series series;
	enum gt_gradient grad;
} plots[GT_PLOT__COUNT] = {
    [GT_PLOT_GPU] = {"GPU", GT_SERIES_GPU, GT_GRAD_GPU},
    [GT_PLOT_MEMBW] = {"MEMBW", GT_SERIES_MEMBW, GT_GRAD_MEMBW},
    [GT_PLOT_ENC] = {"ENC", GT_SERIES_ENC, GT_GRAD_ENCDEC},
    [GT_PLOT_DEC] = {"DEC", GT_SERIES_DEC, GT_GRAD_ENCDEC},
    [GT_PLOT_POWER] = {"POWER", GT_SERIES_POWER, GT_GRAD_POWER},
};

int gt_gpugraph_plan(int w, int h, unsigned want, struct gt_graph_plan *out)
{
	enum gt_plot band[GT_PLOT__COUNT];
	int k = 0;

	memset(out, 0, sizeof(*out));
	if (w <= 0 || h <= 0)
		return 0;
	for (int p = GT_PLOT_GPU + 1; p < GT_PLOT__COUNT; p++)
		if (want & (1u << p))
			band[k++] = (enum gt_plot)p;
	/* k graphs and k - 1 gaps. */
	if (k > (w + GT_GRAPH_GAP) / (GT_GRAPH_MIN_W + GT_GRAPH_GAP))
		k = (w + GT_GRAPH_GAP) / (GT_GRAPH_MIN_W + GT_GRAPH_GAP);
	int axis, band_h;
	gt_layout_graph_rows(h, &axis, &band_h);
	if (k == 0 || band_h == 0) {
		k = 0;
		band_h = 0;
	}
	int gpu_h = h - axis - band_h;
	int gw = w >= GT_GRAPH_GUTTER_FROM ? GT_GRAPH_GUTTER : 0;
	out->slot[0] = (struct gt_graph_slot){GT_PLOT_GPU, {0, 0, w, gpu_h}};
	if (axis)
		out->axis = (struct gt_rect){gw, gpu_h, w - gw, 1};
	for (int i = 0; i < k; i++) {
		/* Proportional edges, a gap between neighbours. */
		int x0 = i * (w + GT_GRAPH_GAP) / k;
		int x1 = (i + 1) * (w + GT_GRAPH_GAP) / k - GT_GRAPH_GAP;
		out->slot[1 + i] = (struct gt_graph_slot){
		    band[i], {x0, gpu_h + axis, x1 - x0, band_h}};
	}
	out->n = 1 + k;
	return out->n;
}

unsigned gt_gpugraph_wanted(const struct gt_panel_data *d)
{
	const struct gt_history *h = d->hist;
	unsigned want = 0;

	if (!h)
		return 0;
	if (h->seen_value[GT_SERIES_MEMBW])
		want |= 1u << GT_PLOT_MEMBW;
	/* Encoders idle on most machines: their graphs appear once they
	 * have been busy, or when the user asks for every graph. */
	if (h->seen_positive[GT_SERIES_ENC] ||
	    (d->all_series && h->seen_value[GT_SERIES_ENC]))
		want |= 1u << GT_PLOT_ENC;
	if (h->seen_positive[GT_SERIES_DEC] ||
	    (d->all_series && h->seen_value[GT_SERIES_DEC]))
		want |= 1u << GT_PLOT_DEC;
	if (h->seen_value[GT_SERIES_POWER])
		want |= 1u << GT_PLOT_POWER;
	return want;
}

void gt_gpugraph_watts_axis(char *buf, size_t len, double hi)
{
	if (hi >= 1000)
		snprintf(buf, len, "%gkW", hi / 1000);
	else if (hi >= 1)
		snprintf(buf, len, "%.0fW", hi);
	else
		snprintf(buf, len, "%gW", hi);
}

/* The values of one plot, oldest first, one per sample column of a plot
 * `cells` wide: on the time grid when there is one, else the newest
 * samples. Returns how many. */
static size_t plot_values(const struct gt_panel_data *d, enum gt_series s,
                          int cells, uint64_t col_ns, double *out)
{
	size_t want = gt_graph_samples_for(cells, d->glyphs);

	if (!d->hist)
		return 0;
	if (col_ns) {
		/* A grid of wider columns (a band under the main graph) ends
		 * on its own multiple of them: the first past the start of
		 * the main grid's newest column, so that its newest column
		 * holds the newest samples (never empty, never behind the
		 * graph above) and it moves by whole columns (its cache
		 * holds). */
		uint64_t end = d->end_ns;
		if (col_ns != d->col_ns && d->col_ns <= end)
			end = ((end - d->col_ns) / col_ns + 1) * col_ns;
		return gt_history_columns_cached(d->hist,
		                                 d->cols ? &d->cols[s] : NULL,
		                                 s, end, col_ns, out, want);
	}
	return gt_history_tail(d->hist, s, out,
	                       want < GT_HISTORY_LEN ? want : GT_HISTORY_LEN);
}

/* The gutter: the axis's top and bottom, and the graph's name between
 * them, each right-aligned against the blank column before the plot. */
static void gutter(WINDOW *win, struct gt_rect g, int gw, const char *top,
                   const char *name, const struct gt_panel_data *d)
{
	int inactive = d->pal->role[GT_ROLE_INACTIVE];
	int text = d->pal->role[GT_ROLE_GRAPH_TEXT];
	struct gt_rect gr = {g.x, g.y, gw - 1, g.h};

	gt_paint_put(win, gr, 0, gr.w - gt_paint_cells(top), inactive, top);
	if (g.h >= 2)
		gt_paint_put(win, gr, g.h - 1, gr.w - 1, inactive, "0");
	if (g.h >= 3) {
		int row = (g.h - 1) / 2;
		int w = gt_paint_cells(name);
		gt_paint_put(win, gr, row, w < gr.w ? gr.w - w : 0, text, name);
	}
}

/* The plot area of graph g: right of the gutter, at most ROW_MAX wide
 * (the newest columns). */
static struct gt_rect plot_area(struct gt_rect g)
{
	int gw = g.w >= GT_GRAPH_GUTTER_FROM ? GT_GRAPH_GUTTER : 0;
	struct gt_rect pr = {g.x + gw, g.y, g.w - gw, g.h};
	if (pr.w > ROW_MAX) {
		pr.x += pr.w - ROW_MAX;
		pr.w = ROW_MAX;
	}
	return pr;
}

/* Which cells of a plot row differ between two drawings' column heights,
 * per heights to a cell (1 or 2); the count. */
static int changed_cells(const int *old, const int *now, int w, int per,
                         bool *changed)
{
	if (memcmp(old, now, (size_t)w * (size_t)per * sizeof(*now)) == 0)
		return 0; /* most graphs, most frames: one pass */
	int n = 0;
	for (int c = 0; c < w; c++) {
		const int *a = old + c * per, *b = now + c * per;
		changed[c] = a[0] != b[0] || (per == 2 && a[1] != b[1]);
		n += changed[c];
	}
	return n;
}

/* Row y of the plot: its cells marked changed, in runs, each worked out
 * from its own columns' heights. */
static void plot_row(WINDOW *win, struct gt_rect pr, int y, int attr,
                     const struct gt_panel_data *d, const int *heights,
                     const bool *changed)
{
	uint32_t cells[ROW_MAX];
	int per = (int)gt_graph_samples_for(1, d->glyphs);
	for (int c = 0; c < pr.w;) {
		if (!changed[c]) {
			c++;
			continue;
		}
		int k = c;
		while (k < pr.w && changed[k])
			k++;
		gt_graph_row_of(heights + c * per, k - c, pr.h, d->glyphs, y,
		                cells);
		gt_paint_put_cps(win, pr, y, c, attr, cells, k - c);
		c = k;
	}
}

/* One graph in g (absolute): gutter with the axis bounds and its name,
 * then the plot coloured by height, one sample column col_ns long. */
static void plot_one(WINDOW *win, struct gt_rect g, enum gt_plot p,
                     uint64_t col_ns, const struct gt_panel_data *d)
{
	double vals[2 * ROW_MAX], cols[2 * ROW_MAX];
	int heights[2 * ROW_MAX];
	bool changed[ROW_MAX];
	char top[16];
	bool percent = p != GT_PLOT_POWER;

	if (g.w <= 0 || g.h <= 0)
		return;
	int gw = g.w >= GT_GRAPH_GUTTER_FROM ? GT_GRAPH_GUTTER : 0;
	struct gt_rect pr = plot_area(g);
	size_t n = plot_values(d, plots[p].series, pr.w, col_ns, vals);
	/* The axis fits what is shown, not what scrolled out. */
	double hi = percent ? 100.0 : gt_graph_autoscale(vals, n);
	/* The cells follow from the column heights, the scale and the
	 * glyphs: with the same scale and glyphs only the columns whose
	 * heights moved are drawn again (a graph moving on under a steady
	 * load changes at its edge only). The memo keeps each column's
	 * value, then its height: a column whose value stayed keeps its
	 * height without working it out again. */
	int per = (int)gt_graph_samples_for(1, d->glyphs);
	size_t nh = (size_t)pr.w * (size_t)per;
	uint64_t shape = gt_hash_bytes(GT_HASH_SEED, &hi, sizeof(hi));
	shape = gt_hash_u64(shape, (uint64_t)p << 8 | (uint64_t)d->glyphs);
	void *memo;
	bool patch = gt_paint_region_patch(
	    win, g, shape, nh * (sizeof(*cols) + sizeof(*heights)), &memo);
	/* nh values, then nh heights (calloc'd: aligned for both). */
	double *was_cols = memo;
	int *was_heights =
	    memo ? (int *)(void *)((char *)memo + nh * sizeof(*cols)) : NULL;
	gt_graph_heights_again(vals, n, 0, hi, pr.w, pr.h, d->glyphs,
	                       patch ? was_cols : NULL, was_heights, cols,
	                       heights);
	if (patch) {
		if (!changed_cells(was_heights, heights, pr.w, per, changed)) {
			memcpy(was_cols, cols, nh * sizeof(*cols));
			gt_paint_region_end();
			return;
		}
	} else {
		memset(changed, 1, (size_t)pr.w * sizeof(*changed));
		/* The axis's top, formatted only when drawn: the scale is
		 * part of the shape, so a patch keeps it. */
		if (percent)
			memcpy(top, "100%", sizeof("100%"));
		else
			gt_gpugraph_watts_axis(top, sizeof(top), hi);
		if (gw)
			gutter(win, g, gw, top, plots[p].name, d);
	}
	/* Empty braille cells stay U+2800, a blank glyph: the plot area is
	 * then a rectangle of graph cells on screen, which is how
	 * tests/terminal/layout.sh finds it. Colour by height, as btop
	 * does: the top rows are hot. */
	for (int y = 0; y < pr.h; y++)
		plot_row(win, pr, y,
		         gt_palette_grad(d->pal, plots[p].grad,
		                         (double)(pr.h - y) / (double)pr.h),
		         d, heights, changed);
	if (memo) {
		memcpy(was_cols, cols, nh * sizeof(*cols));
		memcpy(was_heights, heights, nh * sizeof(*heights));
	}
	gt_paint_region_end();
}

/* The time axis in a (absolute): labels of the sample columns' ages. */
static void time_axis(WINDOW *win, struct gt_rect a,
                      const struct gt_panel_data *d)
{
	char axis[ROW_MAX + 1];
	struct gt_rect r = a;

	if (r.w > ROW_MAX) {
		r.x += r.w - ROW_MAX;
		r.w = ROW_MAX;
	}
	if (!d->col_ns || r.w <= 0)
		return;
	uint64_t key = gt_hash_u64(gt_hash_u64(GT_HASH_SEED, d->col_ns),
	                           (uint64_t)d->glyphs);
	if (!gt_paint_region(win, r, key) &&
	    gt_graph_time_labels(r.w, (double)d->col_ns / 1e9, d->glyphs, axis,
	                         sizeof(axis)) > 0)
		gt_paint_put(win, r, 0, 0, d->pal->role[GT_ROLE_INACTIVE],
		             axis);
	gt_paint_region_end();
}

void gt_gpugraph_draw(WINDOW *win, struct gt_rect area,
                      const struct gt_panel_data *d)
{
	struct gt_graph_plan plan;
	int n = gt_gpugraph_plan(area.w, area.h, gt_gpugraph_wanted(d), &plan);

	/* The small graphs under the time axis span the main graph's time
	 * too, in wider columns (each the mean of the samples in it): the
	 * axis above them then tells the truth for all of them. */
	size_t main_n =
	    n > 0 ? gt_graph_samples_for(plot_area(plan.slot[0].r).w, d->glyphs)
	          : 0;
	for (int i = 0; i < n; i++) {
		struct gt_rect r = plan.slot[i].r;
		size_t own = gt_graph_samples_for(plot_area(r).w, d->glyphs);
		uint64_t col = d->col_ns;
		if (i > 0 && own > 0 && main_n > own)
			col = (uint64_t)((double)d->col_ns * (double)main_n /
			                 (double)own);
		plot_one(win,
		         (struct gt_rect){area.x + r.x, area.y + r.y, r.w, r.h},
		         plan.slot[i].plot, col, d);
	}
	if (plan.axis.h > 0)
		time_axis(win,
		          (struct gt_rect){area.x + plan.axis.x,
		                           area.y + plan.axis.y, plan.axis.w,
		                           1},
		          d);
}

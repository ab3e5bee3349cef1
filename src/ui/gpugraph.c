/* SPDX-License-Identifier: MIT */
/*
 * gpugraph.c - the history graphs of a FULL GPU panel (see gpugraph.h).
 * Graph rows are computed one at a time into a row buffer, so a graph of
 * any size is drawn without a w x h scratch array.
 */
#include "ui/gpugraph.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ui/graph.h"
#include "ui/paint.h"

/* Widest graph row drawn (the widest terminal the layout tests use is 400
 * columns; wider ones see the newest 1024 columns). */
enum { ROW_MAX = 1024 };

static const struct {
	const char *name;
	enum gt_series series;
	enum gt_gradient grad;
	enum gt_field field; /* the latest value, for the title */
} plots[GT_PLOT__COUNT] = {
    [GT_PLOT_GPU] = {"GPU", GT_SERIES_GPU, GT_GRAD_GPU, GT_F_UTIL_GPU},
    [GT_PLOT_MEMBW] = {"MEMBW", GT_SERIES_MEMBW, GT_GRAD_MEMBW,
                       GT_F_UTIL_MEMBW},
    [GT_PLOT_ENC] = {"ENC", GT_SERIES_ENC, GT_GRAD_ENCDEC, GT_F_UTIL_ENC},
    [GT_PLOT_DEC] = {"DEC", GT_SERIES_DEC, GT_GRAD_ENCDEC, GT_F_UTIL_DEC},
    [GT_PLOT_POWER] = {"POWER", GT_SERIES_POWER, GT_GRAD_POWER,
                       GT_F_POWER_DRAW},
};

int gt_gpugraph_plan(int w, int h, unsigned want, struct gt_graph_slot *out)
{
	enum gt_plot band[GT_PLOT__COUNT];
	int k = 0;

	if (w <= 0 || h <= 0)
		return 0;
	for (int p = GT_PLOT_GPU + 1; p < GT_PLOT__COUNT; p++)
		if (want & (1u << p))
			band[k++] = (enum gt_plot)p;
	if (k > w / GT_GRAPH_MIN_W)
		k = w / GT_GRAPH_MIN_W;
	if (h < 3)
		k = 0; /* a one-row GPU graph says too little to share */
	int band_h = k == 0 ? 0 : h >= 6 ? h / 3 : 1;
	out[0] = (struct gt_graph_slot){GT_PLOT_GPU, {0, 0, w, h - band_h}};
	for (int i = 0; i < k; i++) {
		/* Proportional edges: no gaps, widths differ by one at most. */
		int x0 = i * w / k, x1 = (i + 1) * w / k;
		out[1 + i] = (struct gt_graph_slot){
		    band[i], {x0, h - band_h, x1 - x0, band_h}};
	}
	return 1 + k;
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

static void util_text(char *buf, size_t len, const struct gt_sample *s)
{
	char parts[4][24];
	for (int i = 0; i < 4; i++) {
		const struct gt_val *v = &s->f[GT_F_UTIL_GPU + i];
		if (gt_val_ok(v))
			snprintf(parts[i], sizeof(parts[i]), "%s %.0f%%%s",
			         plots[i].name, (double)v->v / 100,
			         i == 0 && s->util_gpu_lower_bound ? "+" : "");
		else
			snprintf(parts[i], sizeof(parts[i]), "%s N/A",
			         plots[i].name);
	}
	snprintf(buf, len, "%s  %s  %s  %s", parts[0], parts[1], parts[2],
	         parts[3]);
}

static void title_text(char *buf, size_t len, enum gt_plot p,
                       const struct gt_sample *s)
{
	const struct gt_val *v = &s->f[plots[p].field];
	if (p == GT_PLOT_GPU)
		util_text(buf, len, s);
	else if (!gt_val_ok(v))
		snprintf(buf, len, "%s N/A", plots[p].name);
	else if (p == GT_PLOT_POWER && gt_val_ok(&s->f[GT_F_POWER_ENFORCED]))
		snprintf(buf, len, "%s %.0f/%.0fW", plots[p].name,
		         (double)v->v / 1000,
		         (double)s->f[GT_F_POWER_ENFORCED].v / 1000);
	else if (p == GT_PLOT_POWER)
		snprintf(buf, len, "%s %.0fW", plots[p].name,
		         (double)v->v / 1000);
	else
		snprintf(buf, len, "%s %.0f%%", plots[p].name,
		         (double)v->v / 100);
}

/* The time axis on row `row` of g: each label is drawn whole or not at
 * all, and not over the first `skip` cells (a title there). */
static void time_axis(WINDOW *win, struct gt_rect g, int row, int skip,
                      const struct gt_panel_data *d)
{
	char axis[ROW_MAX + 1];
	if (d->seconds_per_sample <= 0 || g.w > ROW_MAX ||
	    gt_graph_time_labels(g.w, d->seconds_per_sample, d->glyphs, axis,
	                         sizeof(axis)) <= 0)
		return;
	for (int x = 0; x < g.w && axis[x];) {
		if (axis[x] == ' ') {
			x++;
			continue;
		}
		int end = x;
		while (end < g.w && axis[end] && axis[end] != ' ')
			end++;
		if (x > skip) {
			char lab[32];
			int n = end - x < 31 ? end - x : 31;
			memcpy(lab, axis + x, (size_t)n);
			lab[n] = '\0';
			gt_paint_put(win, g, row, x,
			             d->pal->role[GT_ROLE_INACTIVE], lab);
		}
		x = end;
	}
}

/* One graph in g (absolute): gutter with the axis bounds, the plot
 * coloured by height, its title and its time axis. */
static void plot_one(WINDOW *win, struct gt_rect g, enum gt_plot p, bool axis,
                     const struct gt_panel_data *d)
{
	double samples[GT_HISTORY_LEN];
	uint32_t cells[ROW_MAX];
	char top[16], title[160];
	bool percent = p != GT_PLOT_POWER;

	if (g.w <= 0 || g.h <= 0)
		return;
	/* A fixed gutter, so graphs side by side line up whatever their
	 * labels ("100%", "500W", "2kW" all fit in four cells). */
	int gw = g.w >= 24 ? 5 : 0;
	struct gt_rect pr = {g.x + gw, g.y, g.w - gw, g.h};
	if (pr.w > ROW_MAX) {
		/* Wider than a row buffer: the newest ROW_MAX columns. */
		pr.x += pr.w - ROW_MAX;
		pr.w = ROW_MAX;
	}
	size_t want = gt_graph_samples_for(pr.w, d->glyphs);
	size_t n =
	    d->hist
	        ? gt_history_tail(d->hist, plots[p].series, samples,
	                          want < GT_HISTORY_LEN ? want : GT_HISTORY_LEN)
	        : 0;
	/* The axis fits what is shown, not what scrolled out. */
	double hi = percent ? 100.0 : gt_graph_autoscale(samples, n);
	if (percent)
		snprintf(top, sizeof(top), "100%%");
	else
		gt_gpugraph_watts_axis(top, sizeof(top), hi);
	if (gw) {
		int inactive = d->pal->role[GT_ROLE_INACTIVE];
		gt_paint_put(win, g, 0, gw - 1 - gt_paint_cells(top), inactive,
		             top);
		if (g.h >= 2)
			gt_paint_put(win, g, g.h - 1, gw - 2, inactive, "0");
	}
	for (int y = 0; y < pr.h; y++) {
		gt_graph_row(samples, n, 0, hi, pr.w, pr.h, d->glyphs, y,
		             cells);
		for (int x = 0; x < pr.w; x++)
			if (cells[x] == 0x2800) /* empty braille: a space is
			                           lighter on the wire */
				cells[x] = ' ';
		/* Colour by height, as btop does: the top rows are hot. */
		gt_paint_put_cps(
		    win, pr, y, 0,
		    gt_palette_grad(d->pal, plots[p].grad,
		                    (double)(pr.h - y) / (double)pr.h),
		    cells, pr.w);
	}
	title_text(title, sizeof(title), p, d->s);
	int tw = gt_paint_put(win, pr, 0, p == GT_PLOT_GPU ? 1 : 0,
	                      d->pal->role[GT_ROLE_GRAPH_TEXT] |
	                          (p == GT_PLOT_GPU ? A_BOLD : 0),
	                      title);
	/* On a one-row graph the axis shares the title's row. */
	if (axis)
		time_axis(win, pr, pr.h - 1, pr.h == 1 ? tw + 1 : -1, d);
}

void gt_gpugraph_draw(WINDOW *win, struct gt_rect area,
                      const struct gt_panel_data *d)
{
	struct gt_graph_slot slot[GT_PLOT__COUNT];
	int n = gt_gpugraph_plan(area.w, area.h, gt_gpugraph_wanted(d), slot);

	for (int i = 0; i < n; i++) {
		struct gt_rect g = {area.x + slot[i].r.x, area.y + slot[i].r.y,
		                    slot[i].r.w, slot[i].r.h};
		/* Time axes on the bottom row only: every graph has the
		 * same seconds per cell, so those labels serve the GPU graph
		 * above too, and its own data stays uncovered. */
		plot_one(win, g, slot[i].plot,
		         slot[i].r.y + slot[i].r.h == area.h, d);
	}
}

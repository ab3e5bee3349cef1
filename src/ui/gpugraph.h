/* SPDX-License-Identifier: MIT */
/*
 * gpugraph.h - the history graphs of a FULL GPU panel: GPU utilization on
 * top, its time axis on the row below it, and below that a band of smaller
 * graphs side by side (memory bandwidth, encoder, decoder, power draw) that
 * is left out, and drops its last graphs, before any is drawn shorter than
 * GT_LAYOUT_GRAPH_MIN rows or narrower than GT_GRAPH_MIN_W. Percent graphs
 * have a fixed 0-100 axis, power an autoscaled one. Every label lives
 * outside the plotted cells: the value axis and the graph's name in a
 * gutter on its left, the time axis on its own row.
 *
 * The x axis is time: one sample column per panel_data.col_ns, the newest
 * ending at end_ns, each filled from the samples that stand for that time
 * (gt_history_columns).
 */
#ifndef GPUTOP_GPUGRAPH_H
#define GPUTOP_GPUGRAPH_H

#include <curses.h>

#include "ui/layout.h"
#include "ui/panel_data.h"

enum gt_plot {
	GT_PLOT_GPU,
	GT_PLOT_MEMBW,
	GT_PLOT_ENC,
	GT_PLOT_DEC,
	GT_PLOT_POWER,
	GT_PLOT__COUNT
};

/* Narrowest graph of the band, gutter included; the gutter's width (when
 * the graph is at least GT_GRAPH_GUTTER_FROM wide); the gap between two
 * graphs of the band. */
enum {
	GT_GRAPH_MIN_W = 16,
	GT_GRAPH_GUTTER = 6,
	GT_GRAPH_GUTTER_FROM = 20,
	GT_GRAPH_GAP = 2,
};

struct gt_graph_slot {
	enum gt_plot plot;
	struct gt_rect r; /* gutter and plot, relative to the graph area */
};

struct gt_graph_plan {
	int n; /* slots used: the GPU graph first */
	struct gt_graph_slot slot[GT_PLOT__COUNT];
	struct gt_rect axis; /* the GPU graph's time axis (relative, under
	                        its plot, gutter excluded); {0}: none */
};

/*
 * Places the graphs in a w x h area: GT_PLOT_GPU always (first) when h >= 1,
 * its time axis when h >= 4, then the plots of `want` (bit 1 << plot) in
 * plot order, as many as get at least GT_GRAPH_MIN_W cells each, in a band
 * of a third of the rows (at least GT_LAYOUT_GRAPH_MIN) when the GPU graph
 * keeps GT_LAYOUT_GRAPH_MIN rows besides. Returns out->n (0 for an empty
 * area). Pure, for the tests.
 */
int gt_gpugraph_plan(int w, int h, unsigned want, struct gt_graph_plan *out);

/* The plots a panel's data has something to show for. */
unsigned gt_gpugraph_wanted(const struct gt_panel_data *d);

/* Draws the graphs of d into area (absolute), nothing outside it. */
void gt_gpugraph_draw(WINDOW *win, struct gt_rect area,
                      const struct gt_panel_data *d);

/* The axis label of an upper bound hi of power in watts: "500W", "1kW",
 * "0.5W". */
void gt_gpugraph_watts_axis(char *buf, size_t len, double hi);

#endif

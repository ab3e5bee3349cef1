/* SPDX-License-Identifier: MIT */
/*
 * gpugraph.h - the history graphs of a FULL GPU panel: GPU utilization on
 * top, and below it a band of smaller graphs side by side (memory
 * bandwidth, encoder, decoder, power draw) that shrinks to one row and
 * drops its last graphs before any is drawn unreadably narrow. Percent
 * graphs have a fixed 0-100 axis, power an autoscaled one; each is labelled
 * in a gutter on its left when there is room, and has its own time axis.
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

/* Narrowest graph of the band, gutter included. */
enum { GT_GRAPH_MIN_W = 16 };

struct gt_graph_slot {
	enum gt_plot plot;
	struct gt_rect r; /* relative to the graph area */
};

/*
 * Places the graphs in a w x h area: GT_PLOT_GPU always (first), then those
 * of `want` (bit 1 << plot) in plot order while each gets at least
 * GT_GRAPH_MIN_W cells, in a band of h / 3 rows (one row below 6, none
 * below 3). Fills out[0..GT_PLOT__COUNT) and returns how many were placed
 * (0 for an empty area). Pure, for the tests.
 */
int gt_gpugraph_plan(int w, int h, unsigned want, struct gt_graph_slot *out);

/* The plots a panel's data has something to show for. */
unsigned gt_gpugraph_wanted(const struct gt_panel_data *d);

/* Draws the graphs of d into area (absolute), nothing outside it. */
void gt_gpugraph_draw(WINDOW *win, struct gt_rect area,
                      const struct gt_panel_data *d);

/* The axis label of an upper bound hi of power in watts: "500W", "1kW",
 * "0.5W". */
void gt_gpugraph_watts_axis(char *buf, size_t len, double hi);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * panels_priv.h - shared by the GPU panel's files: panels.c (texts,
 * badges, the box and its title, the panel as a whole), panels_info.c (the
 * lines of numbers of FULL and COMPACT panels) and panels_line.c (LINE rows
 * and their table's frame). Not for other modules: they use panels.h.
 */
#ifndef GPUTOP_PANELS_PRIV_H
#define GPUTOP_PANELS_PRIV_H

#include "ui/panels.h"

/* The memory total a panel shows: the sample's, else the device's. */
const struct gt_val *gt_panels_mem_total(const struct gt_panel_data *d);
/* True when the PCIe link runs below what both ends can do. */
bool gt_panels_pcie_degraded(const struct gt_panel_data *d);
/* "620/700 W", "620 W" (no limit known), "N/A". */
void gt_panels_fmt_power(char *buf, size_t len, const struct gt_val *draw,
                         const struct gt_val *lim);
/* The colour of a temperature's text: the gauge's steps. */
int gt_panels_temp_attr(const struct gt_panel_data *d);
/* A temperature in the one wording every panel form uses: "61°C slow
 * 87°C shut 92°C", shortened to fit `room` cells (without shutdown, then
 * "61°C" alone), in °F when d->fahrenheit. */
void gt_panels_temp_text(char *buf, size_t len, const struct gt_panel_data *d,
                         int room);

/* Badges b[0..n) (most important first) drawn on row `row` of r, ending
 * at column `right` (exclusive) and starting no further left than `left`,
 * `sep` cells apart: the most important that fit, in their order, and a
 * "+" when any is left out. Returns the column the first drawn starts at
 * (right when none). */
int gt_panels_draw_badges(WINDOW *w, struct gt_rect r, int row, int left,
                          int right, const struct gt_panels_badge *b, int n,
                          int sep, int plus_attr);

/* panels_info.c: the lines of numbers of a FULL or COMPACT panel. */
void gt_panels_draw_info(WINDOW *w, const struct gt_panel_parts *pp,
                         const struct gt_panel_data *d);

/* panels_mig.c: rows for n MIG instances taken from the top of
 * pp->graph (which shrinks, or goes when less than its minimum would be
 * left); {0} when the panel has no graph area to give (COMPACT). */
struct gt_rect gt_panels_mig_take(struct gt_panel_parts *pp, size_t n);
/* Draws d->mig[0..d->nmig) into r, one per row (a last row says how many
 * did not fit). */
void gt_panels_mig_draw(WINDOW *w, struct gt_rect r,
                        const struct gt_panel_data *d);

/* panels_line.c: one GPU as a LINE row. */
void gt_panels_draw_line(WINDOW *w, struct gt_rect r,
                         const struct gt_panel_data *d);

#endif

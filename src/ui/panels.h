/* SPDX-License-Identifier: MIT */
/*
 * panels.h - the dashboard's widgets: a GPU panel in three sizes, the
 * process table, and text clipped to a rectangle. Each is a function of
 * (window, rectangle, data): it draws nothing outside its rectangle and
 * never touches a backend or the collector.
 */
#ifndef GPUTOP_PANELS_H
#define GPUTOP_PANELS_H

#include <curses.h>
#include <stdbool.h>

#include "ui/graph.h"
#include "ui/history.h"
#include "ui/layout.h"
#include "core/model.h"
#include "ui/paint.h"
#include "ui/palette.h"
#include "ui/proctable.h"

struct gt_panel_data {
	const struct gt_static *st;
	const struct gt_sample *s;
	const struct gt_history *hist;
	const struct gt_palette *pal;
	enum gt_glyphs glyphs;
	double seconds_per_sample;
	bool selected;
	bool fahrenheit;
	bool stale;      /* no new sample for several intervals */
	bool no_data;    /* no sample at all yet, for several intervals */
	bool all_series; /* graph ENC/DEC even while they have been idle */
};

void gt_panels_draw_gpu(WINDOW *w, struct gt_rect r, enum gt_gpu_mode mode,
                        const struct gt_panel_data *d);

struct gt_table_data {
	const struct gt_process *procs;
	const size_t *order; /* rows to show, in order */
	size_t count;
	const struct gt_proctable_state *st;
	const struct gt_palette *pal;
	const int *widths; /* gt_proctable_widths() for the rectangle */
	const char *note;  /* shown in the header line's right end, or NULL */
};

void gt_proctable_draw(WINDOW *w, struct gt_rect r,
                       const struct gt_table_data *d);

/* The sort column c's header cell as the table draws it: the header and
 * "v" (desc) or "^" ("VRAMv"), aligned like the column and padded to its
 * width, so nothing of the plain header is left; a header that fills its
 * column drops its spaces, then its last letters ("HOSTMEMv", "DEv").
 * Returns the column's width. */
int gt_proctable_sort_header(const int *widths, enum gt_proctable_col c,
                             bool desc, char *out, size_t outlen);

/* Active throttle reasons as badges (" power_cap  hw_slowdown ", or with
 * short_names " PWR  HWSLOW "), whole badges only: those that do not fit
 * max_cells (-1: no limit) or len are left out and a "+" says so. Returns
 * the cells. */
int gt_panels_throttle_badges(char *buf, size_t len, const struct gt_sample *s,
                              bool short_names, int max_cells);

/* Temperature steps of the gauge: WARM from GT_TEMP_WARM_MARGIN_MC below
 * slowdown, HOT at slowdown or shutdown. Without a slowdown threshold,
 * 5 °C below shutdown counts as slowdown; with neither, NORMAL. */
enum gt_panels_temp_level {
	GT_TEMP_UNKNOWN,
	GT_TEMP_NORMAL,
	GT_TEMP_WARM,
	GT_TEMP_HOT
};
#define GT_TEMP_WARM_MARGIN_MC 10000
enum gt_panels_temp_level gt_panels_temp_level(const struct gt_val *t,
                                               const struct gt_val *slowdown,
                                               const struct gt_val *shutdown);

/* A temperature as text in the user's unit ("61°C", "142°F", "N/A"). */
void gt_panels_fmt_temp(char *buf, size_t len, const struct gt_val *mc,
                        bool fahrenheit);

#endif

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

#include "graph.h"
#include "history.h"
#include "layout.h"
#include "model.h"
#include "palette.h"
#include "proctable.h"

struct gt_panel_data {
	const struct gt_static *st;
	const struct gt_sample *s;
	const struct gt_history *hist;
	const struct gt_palette *pal;
	enum gt_glyphs glyphs;
	double seconds_per_sample;
	bool selected;
	bool fahrenheit;
	bool stale; /* no new sample for several intervals */
};

void gt_panel_draw(WINDOW *w, struct gt_rect r, enum gt_gpu_mode mode,
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

void gt_table_draw(WINDOW *w, struct gt_rect r, const struct gt_table_data *d);

/* Text clipped to the rectangle's width from column col of row row;
 * returns the cells written. */
int gt_put(WINDOW *w, struct gt_rect r, int row, int col, int attr,
           const char *utf8);

/* Cells (code points) in a UTF-8 string. */
int gt_cells(const char *utf8);

/* A temperature as text in the user's unit ("61°C", "142°F", "N/A"). */
void gt_fmt_temp(char *buf, size_t len, const struct gt_val *mc,
                 bool fahrenheit);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * proctable_draw.h - the process table on screen: the header with the sort
 * column marked and the rows of the model's view (proctable.h), the
 * selected one highlighted, all inside one rectangle.
 */
#ifndef GPUTOP_UI_PROCTABLE_DRAW_H
#define GPUTOP_UI_PROCTABLE_DRAW_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/model.h"
#include "ui/layout.h"
#include "ui/palette.h"
#include "ui/proctable.h"

/* The rows to draw and how: the model's view (gt_proctable_view) of procs,
 * its state (sort, selection, scroll) and the column widths. */
struct gt_table_data {
	const struct gt_process *procs;
	const size_t *order; /* rows to show, in order */
	size_t count;
	const struct gt_proctable_state *st;
	const struct gt_palette *pal;
	const int *widths; /* gt_proctable_widths() for the rectangle */
	const char *note;  /* shown in the header line's right end, or NULL */
};

/* The header line (the sort column marked), then the rows from
 * st->scroll_row on, the selected one as a bar across r. */
void gt_proctable_draw(WINDOW *w, struct gt_rect r,
                       const struct gt_table_data *d);

/* The sort column c's header cell as the table draws it: the header and
 * "v" (desc) or "^" ("VRAMv"), aligned like the column and padded to its
 * width, so nothing of the plain header is left; a header that fills its
 * column drops its spaces, then its last letters ("HOSTMEMv", "DEv").
 * Returns the column's width. */
int gt_proctable_sort_header(const int *widths, enum gt_proctable_col c,
                             bool desc, char *out, size_t outlen);

#endif

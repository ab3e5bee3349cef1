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
#include "ui/proctree.h"

/* The rows to draw and how: the model's view (gt_proctable_view) of procs,
 * its state (sort, selection, scroll) and the column widths. */
struct gt_table_data {
	const struct gt_process *procs;
	const size_t *order; /* rows to show, in order */
	size_t count;
	const struct gt_proctable_state *st;
	const struct gt_palette *pal;
	/* gt_proctable_widths_sorted() for the rectangle and the sort
	 * column (gt_proctable_widths() works, with a shorter sort header) */
	const int *widths;
	const char *note; /* shown in the header line's right end, or NULL */
	/* The tree view's rows (glyphs, roll-ups), one per row of order;
	 * NULL for the flat table. */
	const struct gt_proctree_row *tree;
	/* Tagged pids, marked with a '*' at the row's left end. */
	const int32_t *tagged;
	int ntagged;
};

/* The header line (the sort column marked), then the rows from
 * st->scroll_row on, the selected one as a bar across r. */
void gt_proctable_draw(WINDOW *w, struct gt_rect r,
                       const struct gt_table_data *d);

/* The sort column c's header cell as the table draws it: the header, a
 * blank and "v" (desc) or "^" ("VRAM v"), aligned like the column and
 * padded to its width, so nothing of the plain header is left. A column
 * too narrow for that (gt_proctable_widths_sorted makes room) drops the
 * header's blanks ("GPU% v"), then its last letters ("GP v"); the blank
 * before the marker stays while there is a letter to keep apart. Returns
 * the column's width. */
int gt_proctable_sort_header(const int *widths, enum gt_proctable_col c,
                             bool desc, char *out, size_t outlen);

#endif

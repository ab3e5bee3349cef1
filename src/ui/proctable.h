/* SPDX-License-Identifier: MIT */
/*
 * proctable.h - owns the process table's model: its columns, which rows
 * show in which order (device filter, text or regex filter, sort, follow),
 * how one row reads as text (proctable.c), and sending a signal to a row's
 * process (proctable_signal.c). Pure apart from gt_proctable_send_signal
 * (kill()): no ncurses and no state of its own, so the renderer
 * (proctable_draw.h) draws what this produces and keys, clicks and tests
 * drive the same functions.
 *
 * Untrusted text (user, container, name, command line) only ever reaches a
 * row through gt_text_escape(), so no control byte from a process can reach
 * the terminal.
 */
#ifndef GPUTOP_UI_PROCTABLE_H
#define GPUTOP_UI_PROCTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/display.h"
#include "core/model.h"

struct gt_proctable_coldesc {
	const char *header; /* header text (config names: gt_display_columns) */
	int width;          /* default width in cells (COMMAND: minimum) */
	bool right;         /* right-aligned */
	bool numeric;       /* sorts by number */
	bool desc_first;    /* natural order is largest first (usage columns) */
	int keep;           /* when the table is narrow, lower goes first */
};

extern const struct gt_proctable_coldesc gt_proctable_cols[GT_COL__COUNT];

struct gt_proctable_state {
	enum gt_proctable_col sort_col;
	bool reverse; /* flips the column's natural order */
	/* htop's T: by start time, the oldest first (no column shows it;
	 * sort_col waits for the next column sort) */
	bool sort_start;
	char filter[128];     /* "" = no text filter */
	bool filter_is_regex; /* POSIX extended, case-insensitive */
	int device_filter;    /* device index, -1 = all devices */
	bool user_filter_on;  /* only processes of uid user_filter */
	uint32_t user_filter;
	int32_t follow_pid; /* 0 = none */
	int selected;       /* row index in the view, -1 = none */
	/* The pid of the selected row when the view was last made: the
	 * selection stays on it through re-sorts, filters and new rounds
	 * (while it is shown). 0: the row index decides (set after moving
	 * by hand). */
	int32_t selected_pid;
	int scroll_row; /* first visible row */
	int hscroll;    /* cells of COMMAND scrolled off to the left */
};

/* Defaults: sorted by GPU % (largest first), no filter, all devices. */
void gt_proctable_state_init(struct gt_proctable_state *st);

/*
 * Fills order_out[0..n) with indices into procs of the rows to show, in
 * display order, and returns how many. Steps: device filter; user filter
 * (user_filter_on: processes of that uid, read from /proc); text filter
 * (substring, case-insensitive, over user, name, command line, container and
 * the pid in decimal; or with filter_is_regex a POSIX extended regex,
 * case-insensitive, matched against each of those); sort by sort_col in its
 * natural order (usage columns largest first, others ascending), flipped by
 * reverse. N/A values sort last in both directions, and ties go by pid
 * ascending, then by position in procs, so the order is total and stable
 * from frame to frame. An invalid regex writes the reason into err and
 * filters nothing out by text (the device filter still applies); err gets
 * "" otherwise. err may be NULL. order_out must hold n entries.
 */
size_t gt_proctable_view(const struct gt_process *procs, size_t n,
                         const struct gt_proctable_state *st, size_t *order_out,
                         char *err, size_t errlen);

/* Row index of pid in a view, -1 when it is not shown. */
int gt_proctable_find_pid(const struct gt_process *procs, const size_t *order,
                          size_t count, int32_t pid);

/*
 * After a new view: selects the followed pid's row (st->follow_pid != 0),
 * else the row of st->selected_pid when it is shown, else keeps
 * st->selected within [0, count) (-1 when count is 0); records the
 * selected row's pid in st->selected_pid (kept while the view is empty,
 * so a filter that hides everything and is then cleared finds it again);
 * then moves
 * st->scroll_row so the selection is among the `visible` rows on screen and
 * no space is wasted below the last row. Returns false only when a followed
 * pid is not in the view (it exited or is filtered out); the selection then
 * stays where it was and follow_pid is kept, so the caller decides what to
 * tell the user.
 */
bool gt_proctable_update_selection(struct gt_proctable_state *st,
                                   const struct gt_process *procs,
                                   const size_t *order, size_t count,
                                   int visible);

/*
 * Column widths for a table `total` cells wide: each shown column
 * (shown == NULL: all) gets its default width, COMMAND the rest. While
 * COMMAND would get less than its minimum, the column with the lowest
 * `keep` is hidden. Hidden columns get width 0. Columns are separated by
 * one space. widths must hold GT_COL__COUNT entries.
 */
void gt_proctable_widths(int total, const bool *shown, int *widths);

/* COMMAND is not narrowed below this to make room for a sort marker. */
#define GT_PROCTABLE_COMMAND_FLOOR 8

/*
 * gt_proctable_widths for a table sorted by column `sort`: that column is
 * widened so its header keeps a blank before the marker ("GPU % v", else
 * "GPU% v"), with cells taken from COMMAND down to
 * GT_PROCTABLE_COMMAND_FLOOR (or from the row's unused end when COMMAND is
 * hidden). Where there are not enough, the header gets what there is and
 * gt_proctable_sort_header shortens it.
 */
void gt_proctable_widths_sorted(int total, const bool *shown,
                                enum gt_proctable_col sort, int *widths);

/* Start cell of column c in a row laid out with widths; -1 when hidden. */
int gt_proctable_col_x(const int *widths, enum gt_proctable_col c);
/* Column under cell x (a mouse click on the header); -1 on a separator or
 * past the last column. */
int gt_proctable_col_at(const int *widths, int x);

/* The header line laid out with widths (exactly the row's cells). */
void gt_proctable_format_header(const int *widths, char *out, size_t outlen);

/*
 * One row as UTF-8 text: every column with width > 0 padded or cut to
 * exactly its width, columns separated by one space, no trailing newline.
 * Invalid values read "N/A"; memory reads "512MiB", "12.5GiB", "1.2TiB";
 * percentages have one decimal below 100 and none from 100 on, without a
 * '%' sign (the header carries it). User, container and command are escaped
 * by gt_text_escape; the command (the command line, else the name) is
 * shifted left by hscroll cells. Wide (CJK, emoji) characters count two
 * cells and are replaced by a space where only half would fit, so the row
 * keeps its width. widths == NULL: gt_proctable_widths(120, NULL). Cut
 * between whole characters when outlen is short; always NUL-terminated.
 */
void gt_proctable_format_row(const struct gt_process *p, const int *widths,
                             int hscroll, char *out, size_t outlen);

/* gt_proctable_format_row with a trusted prefix (the tree's glyphs,
 * prefix_cells cells) before the command, inside COMMAND's width. */
void gt_proctable_format_row_prefixed(const struct gt_process *p,
                                      const int *widths, int hscroll,
                                      const char *prefix, int prefix_cells,
                                      char *out, size_t outlen);

/* Signals offered by "send a signal", in menu order. */
struct gt_signal_desc {
	int sig;
	const char *name; /* without "SIG": "TERM" */
};

#define GT_PROCTABLE_NSIGNALS 8
extern const struct gt_signal_desc gt_proctable_signals[GT_PROCTABLE_NSIGNALS];

/* "TERM" for SIGTERM; a number as text for a signal not in the list
 * (buf must hold 12 bytes). */
const char *gt_proctable_signal_name(int sig, char *buf, size_t len);

/*
 * Sends sig to pid with kill() and writes what happened into msg, e.g.
 * "sent TERM to 1234", or on failure
 * "kill 1234 TERM: Operation not permitted (EPERM): the process belongs to
 * another user; run gputop as root". Refuses pid <= 0 (kill() would reach a
 * whole process group or every process). Returns 0 on success, else the
 * errno value (also left in errno).
 */
int gt_proctable_send_signal(int32_t pid, int sig, char *msg, size_t len);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * layout.h - the dashboard's layout engine: one pure function from the
 * terminal size, the number of GPUs and a few options to the rectangles the
 * renderer draws into (title line, GPU panels, process table, status line),
 * and one that splits a GPU panel into its graph and its lines of numbers.
 *
 * It owns every size decision, so that the drawing code never does layout
 * arithmetic of its own (the source of btop's resize bugs): a widget is told
 * its rectangle and must draw nothing outside it. No ncurses, no I/O, no
 * globals; cheap enough to call on every frame.
 *
 * Screen, top to bottom: title (1 row), GPU panels (a grid of boxes), the
 * process table, status (1 row). Rows are allocated on purpose:
 *   - every GPU panel is a box (its title in the top border), and boxes
 *     never touch: a blank column (GT_LAYOUT_GAP) between two side by
 *     side, a blank row between two stacked, or only their borders
 *     where the rows left over after dividing would otherwise give the
 *     panels of one grid different graphs (gt_layout_graph_rows) or
 *     lines of numbers; in LINE mode the GPUs are the rows of boxed
 *     tables (their column names in the top border), all of one width
 *     so that their fields line up, a blank column between two tables;
 *   - a panel draws a graph only when it gets at least GT_LAYOUT_GRAPH_MIN
 *     rows for it; a shorter panel is COMPACT (numbers only);
 *   - the process table is promised the rows it needs (opts.proc_rows)
 *     up to GT_LAYOUT_PROC_SHARE % of the screen, and the graphs take the
 *     rest, so no blank band is left under a short table; with
 *     opts.table_focus, or panels without graphs (COMPACT), the table
 *     takes all it needs first and the panels keep only their minimum;
 *   - panels tile the whole width (but for their gaps), as many side by
 *     side as keeps each near GT_LAYOUT_ASPECT times wider than tall, so
 *     a wider terminal gives longer history rather than empty space.
 * The gaps are rows and columns the panels do not get: a mode or grid
 * whose panels lack their minimum once the gaps are taken out is not
 * used (FULL gives way to COMPACT, as for any panel too short for a
 * graph).
 * The mode is the biggest that shows every GPU with the table's promised
 * rows (else its minimum, GT_LAYOUT_PROC_MIN_ROWS): FULL (graphs), then
 * COMPACT or LINE (whichever leaves fewer blank rows, then fewer of the
 * table's rows missing); the table is hidden before any
 * GPU is; when even LINE cannot show every GPU, a window of GPUs holding
 * the selected one is shown and `message` says which, and what size shows
 * them all.
 */
#ifndef GPUTOP_LAYOUT_H
#define GPUTOP_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "config/display.h"

/* Cells, 0-based from the top-left corner. w == 0 or h == 0: not shown, and
 * then the whole rectangle is {0}. */
struct gt_rect {
	int x, y, w, h;
};

/* Sizes, in cells. A panel's rows: its box (top border with the title,
 * bottom border), 2 to 4 lines of numbers (GT_LAYOUT_WIDE_W and wider
 * inside: 2 hold them all), and, in FULL, the graphs (at least
 * GT_LAYOUT_GRAPH_MIN rows). */
enum {
	GT_LAYOUT_BOX_ROWS = 2,
	GT_LAYOUT_INFO_MIN = 2,
	GT_LAYOUT_INFO_MAX = 4,
	GT_LAYOUT_WIDE_W = 90,
	GT_LAYOUT_GRAPH_MIN = 3,
	GT_LAYOUT_COMPACT_H = GT_LAYOUT_BOX_ROWS + GT_LAYOUT_INFO_MIN,
	GT_LAYOUT_FULL_MIN_H = GT_LAYOUT_COMPACT_H + GT_LAYOUT_GRAPH_MIN,
	GT_LAYOUT_FULL_MIN_W = 44,
	GT_LAYOUT_COMPACT_MIN_W = 39, /* two side by side in 80 columns */
	GT_LAYOUT_LINE_MIN_W = 20,
	GT_LAYOUT_GAP = 1,          /* blank cells between two boxes */
	GT_LAYOUT_PAD = 1,          /* blank cells inside a box's sides */
	GT_LAYOUT_PAD_FROM = 30,    /* ... when it is this wide inside */
	GT_LAYOUT_LINE_TILE_W = 60, /* LINE columns side by side: each this,
	                               its gap included */
	GT_LAYOUT_ASPECT = 6,       /* a FULL panel's width per row, aimed at */
	GT_LAYOUT_MIN_ROWS = 3,     /* title + one GPU line + status */
	GT_LAYOUT_PROC_MIN_ROWS = 4, /* header + 3 processes */
	GT_LAYOUT_PROC_SHARE = 40,   /* % of the rows under the title that
	                                the table is promised, if it needs
	                                them, before the GPUs get more */
	GT_LAYOUT_MAX_FRAMES = 8,    /* LINE table columns */
};

/* Zero-initialised options are valid: processes and graphs off, any mode,
 * GPU 0 selected. A new field belongs in gt_layout_opts_equal too. */
struct gt_layout_opts {
	bool show_processes;
	bool show_graphs;          /* FULL panels hold a history graph */
	enum gt_gpu_mode max_mode; /* biggest mode allowed (FULL = any; a key
	                              can force COMPACT or LINE) */
	int selected_gpu;          /* kept visible; clamped to [0, ngpus) */
	int first_gpu_hint; /* previous gpu_first: the window only scrolls
	                       as far as needed to show selected_gpu */
	int proc_min_rows;  /* incl. header; 0 = GT_LAYOUT_PROC_MIN_ROWS */
	int proc_rows;      /* rows the table needs: header + processes (at
	                       least 2: "no processes" is a row); 0 = not
	                       known, as many as it can get */
	bool table_focus;   /* the user is in the table: it gets its rows
	                       before the graphs get more than 3 */
};

struct gt_layout {
	struct gt_rect title;  /* name, DEMO label, clock */
	struct gt_rect status; /* keys, interval, own CPU/mem, notices and
	                          `message`; the whole screen if too_small */
	struct gt_rect procs;  /* process table incl. its header row */
	enum gt_gpu_mode mode;
	int columns; /* GPU panels (or LINE columns) side by side, with
	                GT_LAYOUT_GAP blank columns between each two */
	int gpu_first, gpu_count; /* GPUs shown: [gpu_first, +gpu_count) */
	struct gt_rect *gpus;     /* caller's array of ngpus; not shown: {0}.
	                             FULL, COMPACT: the panel's box (no two
	                             touch); LINE: the GPU's row inside a
	                             frame */
	struct gt_rect frames[GT_LAYOUT_MAX_FRAMES]; /* LINE: the table's
	                             boxes, one per column, the column names
	                             in the top border; else none */
	int nframes;
	bool too_small;   /* no GPU fits: only `status` is set, holding
	                     `message` (btop's "too small" screen) */
	char message[96]; /* "" or what is hidden and, always last as
	                     "; WxH shows ...", a size that shows it:
	                     "GPUs 5-12 of 16; 60x18 shows all" (GPU
	                     indexes as on the panels, from 0) */
};

/*
 * Lays out a cols x rows terminal for ngpus GPUs (opts NULL: all zero).
 * The caller sets out->gpus to an array of ngpus rectangles (may be NULL
 * if ngpus == 0); every other field of *out is overwritten. Panels are
 * placed in reading order (row by row), LINE rows down each column.
 * Panel heights differ by one row at most. Returns 0, or -1 if out is
 * NULL, ngpus < 0, or out->gpus is NULL with ngpus > 0.
 */
int gt_layout_compute(int cols, int rows, int ngpus,
                      const struct gt_layout_opts *opts, struct gt_layout *out);

/* Lines of numbers a panel needs to show them all at width w (inside its
 * box and padding): 2 from GT_LAYOUT_WIDE_W, else 4. */
int gt_layout_info_need(int inner_w);

/* True when a and b ask for the same layout: every field of
 * gt_layout_opts compared (a new field belongs here too). */
bool gt_layout_opts_equal(const struct gt_layout_opts *a,
                          const struct gt_layout_opts *b);

/* The rows the process table asks for (gt_layout_opts.proc_rows), held:
 * more are given at once, fewer only once they have stood unneeded for
 * GT_LAYOUT_TABLE_HOLD_NS. Short-lived processes that come and go would
 * otherwise move every graph each few seconds, and each move redraws the
 * whole screen. A new view (the user's filter, sort or tree) applies at
 * once. Zero-initialised: nothing held. */
#define GT_LAYOUT_TABLE_HOLD_NS 10000000000ull
struct gt_layout_table_hold {
	int rows;          /* the rows asked for; 0: none yet */
	uint64_t since_ns; /* when the need last reached them */
	uint64_t view;     /* the caller's key of the view they were for */
};

/* The rows to ask for when the table needs `need` now, in view `view`. */
int gt_layout_table_rows(struct gt_layout_table_hold *h, int need,
                         uint64_t view, uint64_t now_ns);

/* The parts of one GPU panel, from its box. */
struct gt_panel_parts {
	struct gt_rect inner; /* inside the border */
	struct gt_rect graph; /* the history graphs (gpugraph.h); {0}: none */
	struct gt_rect info;  /* the lines of numbers, under the graph; both
	                         keep GT_LAYOUT_PAD from the box's sides */
	int info_lines;       /* info.h: 1 (a tiny box) to 4 */
	bool wide;            /* two lines at GT_LAYOUT_WIDE_W or wider:
	                         four meters to a line */
};

/*
 * Splits a panel box: a graph (FULL only, and only when at least
 * GT_LAYOUT_GRAPH_MIN rows are left for it after GT_LAYOUT_INFO_MIN lines)
 * on top, the lines of numbers below. Rows beyond the graph's minimum go
 * first to its time axis (one row), then to the lines of numbers it still
 * lacks, then to the graph. A box too small for its border gives inner
 * {0} and nothing else.
 */
void gt_layout_panel_parts(struct gt_rect box, enum gt_gpu_mode mode,
                           struct gt_panel_parts *out);

/*
 * How g rows of a panel's graph area split: the time axis (*axis, 0 or 1
 * row, from GT_LAYOUT_GRAPH_MIN + 1 rows), the bands of smaller graphs
 * under it (*bands, 0 or at least GT_LAYOUT_GRAPH_MIN rows, a third of
 * what the axis leaves) and the main graph the rest (never under
 * GT_LAYOUT_GRAPH_MIN). gpugraph draws this split, and the layout gives
 * the panels of one grid heights that split alike.
 */
void gt_layout_graph_rows(int g, int *axis, int *bands);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * layout.h - the dashboard's layout engine: one pure function from the
 * terminal size, the number of GPUs and a few options to the rectangles the
 * renderer draws into (title line, GPU panels, process table, status line).
 *
 * It owns every size decision, so that the drawing code never does layout
 * arithmetic of its own (the source of btop's resize bugs): a widget is told
 * its rectangle and must draw nothing outside it. No ncurses, no I/O, no
 * globals; cheap enough to call on every resize.
 *
 * Screen, top to bottom: title (1 row), GPU panels (a grid), process table,
 * status (1 row). Degradation order when rows run out: FULL panels, then
 * COMPACT, then LINE; the process table is hidden before any GPU is; when
 * even LINE cannot show every GPU, a window of GPUs containing the selected
 * one is shown and `message` says which, and what size shows them all.
 */
#ifndef GPUTOP_LAYOUT_H
#define GPUTOP_LAYOUT_H

#include <stdbool.h>

#include "config/display.h"

/* Cells, 0-based from the top-left corner. w == 0 or h == 0: not shown, and
 * then the whole rectangle is {0}. */
struct gt_rect {
	int x, y, w, h;
};

/* Size thresholds (cells). A panel is never given less than its minimum.
 * FULL rows: name line, 3 graph rows, VRAM, temp+power, clocks/fans, PCIe;
 * without graphs the 3 graph rows go. TILE_W: panels of that mode are put
 * side by side only when each column gets at least this width, e.g. two
 * FULL columns from 160 terminal columns. */
enum {
	GT_LAYOUT_FULL_MIN_W = 60,
	GT_LAYOUT_FULL_MIN_H = 8,
	GT_LAYOUT_FULL_NOGRAPH_H = 5,
	GT_LAYOUT_FULL_TILE_W = 80,
	GT_LAYOUT_COMPACT_MIN_W = 40,
	GT_LAYOUT_COMPACT_H = 3,
	GT_LAYOUT_COMPACT_TILE_W = 60,
	GT_LAYOUT_LINE_MIN_W = 20,
	GT_LAYOUT_LINE_H = 1,
	GT_LAYOUT_LINE_TILE_W = 40,
	GT_LAYOUT_MIN_ROWS = 3,      /* title + one GPU line + status */
	GT_LAYOUT_PROC_MIN_ROWS = 6, /* header + 5 processes */
};

/* Zero-initialised options are valid: processes and graphs off, any mode,
 * GPU 0 selected. */
struct gt_layout_opts {
	bool show_processes;
	bool show_graphs;          /* FULL panels hold a history graph */
	enum gt_gpu_mode max_mode; /* biggest mode allowed (FULL = any; a key
	                              can force COMPACT or LINE) */
	int selected_gpu;          /* kept visible; clamped to [0, ngpus) */
	int first_gpu_hint; /* previous gpu_first: the window only scrolls
	                       as far as needed to show selected_gpu */
	int proc_min_rows;  /* incl. header; 0 = GT_LAYOUT_PROC_MIN_ROWS */
};

struct gt_layout {
	struct gt_rect title;  /* name, DEMO label, clock */
	struct gt_rect status; /* keys, interval, own CPU/mem, notices and
	                          `message`; the whole screen if too_small */
	struct gt_rect procs;  /* process table incl. its header row */
	enum gt_gpu_mode mode;
	int columns;              /* GPU panels side by side */
	int gpu_first, gpu_count; /* GPUs shown: [gpu_first, +gpu_count) */
	struct gt_rect *gpus;     /* caller's array of ngpus; not shown: {0} */
	bool too_small;           /* no GPU fits: only `status` is set, holding
	                             `message` (btop's "too small" screen) */
	char message[96];         /* "" or what is hidden and, always last as
	                             "; WxH shows ...", a size that shows it:
	                             "GPUs 5-12 of 16; 60x18 shows all" (GPU
	                             indexes as on the panels, from 0) */
};

/*
 * Lays out a cols x rows terminal for ngpus GPUs (opts NULL: all zero).
 * The caller sets out->gpus to an array of ngpus rectangles (may be NULL
 * if ngpus == 0); every other field of *out is overwritten. FULL and
 * COMPACT panels are placed in reading order (row by row), LINE panels
 * down each column. All shown panels have the same height: FULL panels
 * with graphs grow into spare rows (up to half of them while the process
 * table shows), the other modes keep their height and the process table
 * takes every row below the panels. Returns 0, or -1 if out is NULL,
 * ngpus < 0, or out->gpus is NULL with ngpus > 0.
 */
int gt_layout_compute(int cols, int rows, int ngpus,
                      const struct gt_layout_opts *opts, struct gt_layout *out);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * proctree.h - the process table as a tree (htop's t / F5): each process
 * under its parent, or, when the parent holds no GPU, under its nearest
 * ancestor that does (its ancestry comes from the collector), else at the
 * root; the tree glyphs of each row; and GPU % and VRAM rolled up, each
 * row showing its subtree's total. Pure: no ncurses, no /proc.
 */
#ifndef GPUTOP_UI_PROCTREE_H
#define GPUTOP_UI_PROCTREE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/model.h"

#define GT_PROCTREE_LEVELS 8 /* deeper rows are drawn at this depth */
#define GT_PROCTREE_PREFIX (GT_PROCTREE_LEVELS * 9 + 1)

struct gt_proctree_row {
	int depth;  /* 0: a root */
	int parent; /* row (tree order) of its parent, -1 for a root */
	char prefix[GT_PROCTREE_PREFIX]; /* "│  ├─ ", or "|  +- " in ASCII */
	int prefix_cells;
	/* The subtree's totals: the sum of the known values (a value the
	 * row and all below it lack stays unknown, with the row's reason). */
	struct gt_val gpu, mem;
};

/*
 * Reorders order[0..count) (a view in its sort order; it stays the order
 * of siblings) into tree order and fills rows[0..count) for the new
 * positions. A row's parent is the first pid of its ancestry that has a
 * row, skipping one that started after it (its pid was reused by a newer
 * process); when one pid has several rows (a process on several GPUs),
 * its first row is the parent. Rows caught in a cycle (only from
 * inconsistent data) become roots. ascii: "|", "+-", "`-" instead of
 * box-drawing glyphs. Returns 0, or -1 on ENOMEM (order is then left as
 * it was and rows flat).
 */
int gt_proctree_build(const struct gt_process *procs, size_t *order,
                      size_t count, struct gt_proctree_row *rows, bool ascii);

#endif

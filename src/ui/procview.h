/* SPDX-License-Identifier: MIT */
/*
 * procview.h - the process detail view (Enter on a process, Esc back):
 * who runs it (user, container), when it started and how long ago, its
 * CPU and host memory, every GPU it uses (type, VRAM, GPU %, encoder,
 * decoder, MIG instance), graphs of its GPU %, VRAM and CPU % since
 * gputop first saw it (the collector's per-process history), the whole
 * command line escaped and wrapped, and why each N/A value is missing.
 * The view holds the process (pid and start time), not a row: it stays
 * on it while the table changes, and says so when it has gone.
 */
#ifndef GPUTOP_PROCVIEW_H
#define GPUTOP_PROCVIEW_H

#include <curses.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "config/display.h"
#include "core/collector.h"
#include "core/prochist.h"
#include "ui/layout.h"
#include "ui/palette.h"

struct gt_procview {
	bool open;
	int32_t pid;
	bool start_known;
	uint64_t start;
	char name[GT_COMM_LEN]; /* for the title once it has gone */
	int scroll;             /* first line shown */
	int scroll_max;         /* as the last draw left it */
};

struct gt_procview_ctx {
	const struct gt_proclist *procs; /* may be NULL */
	const struct gt_devlist *devs;   /* may be NULL */
	struct gt_prochist *hist;        /* may be NULL: no history */
	const struct gt_palette *pal;
	enum gt_glyphs glyphs;
	uint64_t now_ns; /* CLOCK_MONOTONIC */
	time_t now;      /* wall clock, for the start time's age */
};

void gt_procview_open(struct gt_procview *pv, const struct gt_process *p);
/* Keys while open: Esc, q, Enter and Left close it; Up, Down, PgUp, PgDn,
 * Home, End scroll. False when it is not open (the key is someone
 * else's). */
bool gt_procview_key(struct gt_procview *pv, int ch);
/* Draws the open view into r (its own box). */
void gt_procview_draw(WINDOW *w, struct gt_rect r, struct gt_procview *pv,
                      const struct gt_procview_ctx *ctx);

#endif

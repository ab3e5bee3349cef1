/* SPDX-License-Identifier: MIT */
/*
 * overlay.h - the dashboard's pop-ups and input line: help, the reasons
 * behind N/A values, the filter and search prompts, and the signal menu with
 * its confirmation. The dashboard feeds keys to the open overlay first.
 */
#ifndef GPUTOP_OVERLAY_H
#define GPUTOP_OVERLAY_H

#include <curses.h>
#include <stdint.h>

#include "core/model.h"
#include "core/view.h"
#include "ui/layout.h"
#include "ui/palette.h"

enum gt_overlay_kind {
	GT_OVERLAY_NONE,
	GT_OVERLAY_HELP,
	GT_OVERLAY_EXPLAIN,
	GT_OVERLAY_FILTER,
	GT_OVERLAY_SEARCH, /* htop's F3: jump to matches, hide nothing */
	GT_OVERLAY_SIGNAL,
	GT_OVERLAY_CONFIRM,
};

enum gt_overlay_result {
	GT_OVERLAY_NOT_CONSUMED, /* no overlay open: the dashboard's key */
	GT_OVERLAY_CONSUMED,
	GT_OVERLAY_FILTER_DONE, /* input holds the new filter */
	GT_OVERLAY_FILTER_CLEAR,
	GT_OVERLAY_FILTER_TOGGLE_REGEX,
	GT_OVERLAY_SEARCH_TYPED, /* input changed: the first match from here */
	GT_OVERLAY_SEARCH_NEXT,  /* Enter or F3: the next match */
	GT_OVERLAY_SIGNAL_CONFIRMED, /* send `signal` to the selected process */
};

struct gt_overlay {
	enum gt_overlay_kind kind;
	char input[128];
	int choice; /* signal menu row */
	int signal; /* the chosen signal, for CONFIRM */
	/* Help and why N/A: the first line shown; as the last frame drew
	 * it, the largest that leaves no blank at the end and the rows a
	 * page moves (the keys keep the scroll within them). */
	int scroll;
	int scroll_max, page;
};

struct gt_overlay_ctx {
	const struct gt_palette *pal;
	const struct gt_view *view;
	int selected_gpu;
	const struct gt_process *process; /* selected row, or NULL */
	/* The selected GPU has given no sample for this long (0: fresh);
	 * never_sampled: not once since gputop started. */
	double silent_s;
	bool never_sampled;
	/* The help window's lines: the dashboard's, made from its key
	 * table. */
	const char *const *help;
	int nhelp;
	/* The signal dialog's tagged set, one line naming each ("  123
	 * (python)"); ntargets 0: the single process above. */
	const char *const *targets;
	int ntargets;
};

/* A bordered box centred on the screen, bw x bh cells (clipped to it),
 * cleared, with a title; returns the rectangle inside the border. */
struct gt_rect gt_overlay_box(WINDOW *w, int bw, int bh, int attr,
                              const char *title);

void gt_overlay_open(struct gt_overlay *ov, enum gt_overlay_kind kind);
/* Help and why N/A scroll with Up Down j k, PgUp PgDn Space, Home End g
 * G, within what the last draw showed. */
enum gt_overlay_result gt_overlay_key(struct gt_overlay *ov, int ch);
/* Draws the open overlay; a help or why N/A longer than the screen says on
 * its border how many lines are above and below and which keys show them.
 * Keeps ov's scroll within what it drew (scroll_max, page). */
void gt_overlay_draw(WINDOW *w, struct gt_overlay *ov,
                     const struct gt_overlay_ctx *ctx);

#endif

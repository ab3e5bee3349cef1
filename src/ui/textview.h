/*
 * textview.h - a plain-text live view that redraws the published data every
 * interval. It is the interactive mode until the ncurses dashboard lands,
 * and reads only a gt_view (never a backend).
 */
#ifndef GPUTOP_TEXTVIEW_H
#define GPUTOP_TEXTVIEW_H

#include <signal.h>
#include <stdio.h>

#include "view.h"

/* Renders one frame of v into out (no terminal control sequences). */
void gt_textview_render(FILE *out, const struct gt_view *v, int width);

/* Runs until 'q' on a terminal stdin, or until *stop becomes non-zero.
 * Returns 0, or -1 if stdout cannot be written. */
int gt_textview_run(struct gt_view *v, unsigned interval_ms,
		    volatile sig_atomic_t *stop);

#endif

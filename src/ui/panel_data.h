/* SPDX-License-Identifier: MIT */
/*
 * panel_data.h - what a GPU panel shows: one device's facts, latest sample
 * and history with the colours and glyphs to draw them in. The panel
 * (panels.h) and the history graphs inside it (gpugraph.h) both read it;
 * it lives apart from both so that neither includes the other's header
 * for it.
 */
#ifndef GPUTOP_PANEL_DATA_H
#define GPUTOP_PANEL_DATA_H

#include <stdbool.h>
#include <stdint.h>

#include "config/display.h"
#include "core/model.h"
#include "ui/history.h"
#include "ui/palette.h"

struct gt_panel_data {
	const struct gt_static *st;
	const struct gt_sample *s;
	const struct gt_history *hist;
	/* Column caches of hist's graphs, one per series (history.h), or
	 * NULL: graphs then compute every column every frame. */
	struct gt_history_cols *cols;
	const struct gt_palette *pal;
	enum gt_glyphs glyphs;
	/* The graphs' time grid: one sample column is col_ns long (the
	 * sampling interval in force) and the newest ends at end_ns
	 * (CLOCK_MONOTONIC). col_ns 0: no graph, no time axis. */
	uint64_t col_ns;
	uint64_t end_ns;
	/* A change made by gputop that is in force ("LIMIT 382 W", "FAN
	 * CURVE"); NULL or "" when none. */
	const char *changed;
	/* The device's MIG instances (MIG mode), drawn as rows; NULL, 0
	 * when none. */
	const struct gt_mig_instance *mig;
	size_t nmig;
	bool selected;
	bool fahrenheit;
	bool stale;      /* no new sample for several intervals */
	bool no_data;    /* no sample at all yet, for several intervals */
	bool all_series; /* graph ENC/DEC even while they have been idle */
	/* Draw the chrome (box, labels) too: the screen's chrome layer was
	 * dropped (paint.h, gt_paint_begin). Otherwise it is there. */
	bool chrome;
};

#endif

/* SPDX-License-Identifier: MIT */
/*
 * history.h - the dashboard's per-device history of the values it graphs,
 * filled from the collector's sample rings through a cursor each frame, so
 * a frame copies only the samples that are new since the last one.
 */
#ifndef GPUTOP_HISTORY_H
#define GPUTOP_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/ring.h"

#define GT_HISTORY_LEN 1024

enum gt_series {
	GT_SERIES_GPU,   /* % */
	GT_SERIES_MEMBW, /* % */
	GT_SERIES_ENC,   /* % */
	GT_SERIES_DEC,   /* % */
	GT_SERIES_VRAM,  /* % of total */
	GT_SERIES_POWER, /* W */
	GT_SERIES_TEMP,  /* °C */
	GT_SERIES__COUNT
};

struct gt_history {
	struct gt_ring_cursor cursor;
	size_t count; /* samples held, up to GT_HISTORY_LEN */
	size_t head;  /* next write position */
	double v[GT_SERIES__COUNT][GT_HISTORY_LEN]; /* NaN = no value */
	/* Ever had a value / a value above zero since init, even if it has
	 * scrolled out since: a graph that appeared once stays, rather than
	 * the panel's layout jumping as activity comes and goes. */
	bool seen_value[GT_SERIES__COUNT];
	bool seen_positive[GT_SERIES__COUNT];
};

void gt_history_init(struct gt_history *h);

/* Takes every sample of ring that is new since the last call; returns how
 * many arrived. */
size_t gt_history_update(struct gt_history *h, const struct gt_ring *ring);

/* Copies the newest n (at most count) values of series s, oldest first,
 * into out; returns how many were copied. */
size_t gt_history_tail(const struct gt_history *h, enum gt_series s,
                       double *out, size_t n);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * history.h - the dashboard's per-device history of the values it graphs,
 * filled from the collector's sample rings through a cursor each frame, so
 * a frame copies only the samples that are new since the last one.
 *
 * Time is real: each sample keeps the time it was taken and the stretch of
 * time before it that it stands for (back to the previous sample, or less
 * when samples were lost or the device was silent), and graphs are drawn
 * from those times (gt_history_columns), so a change of the sampling
 * interval neither stretches nor squeezes what was sampled before it.
 */
#ifndef GPUTOP_HISTORY_H
#define GPUTOP_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/model.h"
#include "core/ring.h"

#define GT_HISTORY_LEN 1024

/* A sample stands for the time back to the one before it, unless that is
 * longer than this many intervals (a silent device, lost samples): then it
 * stands for one interval and the time before it is a gap. */
#define GT_HISTORY_GAP_INTERVALS 2

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
	size_t count;    /* samples held, up to GT_HISTORY_LEN */
	size_t head;     /* next write position */
	uint64_t pushes; /* samples added since init */
	/* The sampling interval in force now (gt_history_set_interval), and
	 * the one in force when the newest sample was taken: the next sample
	 * is due within the longer of the two. 0: not known yet. */
	uint64_t interval_ns;
	uint64_t due_interval_ns;
	uint64_t t[GT_HISTORY_LEN];    /* when taken, CLOCK_MONOTONIC ns */
	uint64_t span[GT_HISTORY_LEN]; /* ns before t it stands for */
	double v[GT_SERIES__COUNT][GT_HISTORY_LEN]; /* NaN = no value */
	/* Ever had a value / a value above zero since init, even if it has
	 * scrolled out since: a graph that appeared once stays, rather than
	 * the panel's layout jumping as activity comes and goes. */
	bool seen_value[GT_SERIES__COUNT];
	bool seen_positive[GT_SERIES__COUNT];
};

void gt_history_init(struct gt_history *h);

/* The sampling interval now in force (the dashboard's, as + and - change
 * it): samples taken from now on are judged against it. */
void gt_history_set_interval(struct gt_history *h, uint64_t interval_ns);

/* Takes every sample of ring that is new since the last call; returns how
 * many arrived. */
size_t gt_history_update(struct gt_history *h, const struct gt_ring *ring);

/* Adds one sample taken at t_ns (later than the newest held), as
 * gt_history_update does for each new sample of the ring; `after_gap`
 * says samples were lost just before it. For tests and the demo. */
void gt_history_push(struct gt_history *h, const struct gt_sample *s,
                     uint64_t t_ns, bool after_gap);

/* The newest sample's time; 0 when there is none. */
uint64_t gt_history_newest(const struct gt_history *h);

/* How long after the newest sample the next one is overdue: n intervals
 * of the longer of the interval in force when the newest was taken and
 * the interval in force now. 0 when no interval is known. */
uint64_t gt_history_due_ns(const struct gt_history *h, unsigned n);

/* Copies the newest n (at most count) values of series s, oldest first,
 * into out; returns how many were copied. */
size_t gt_history_tail(const struct gt_history *h, enum gt_series s,
                       double *out, size_t n);

/*
 * Series s on a time grid: out[0..n) are n columns of col_ns each, oldest
 * first, the last ending at end_ns. Each column gets the mean of the
 * samples over the part of it they stand for, weighted by time; NaN where
 * no sample stands for any of it (before the history, in a gap, after the
 * newest sample). Returns n, or 0 when col_ns is 0.
 */
size_t gt_history_columns(const struct gt_history *h, enum gt_series s,
                          uint64_t end_ns, uint64_t col_ns, double *out,
                          size_t n);

/* The columns of one series as last computed, so that the next frame
 * computes only what the new samples touch: a column that ended before
 * the newest sample then was taken never changes again, it only moves
 * left as the grid's end moves on. Zeroed: empty. */
#define GT_HISTORY_COLS_MAX (2 * GT_HISTORY_LEN)
struct gt_history_cols {
	size_t n; /* 0: nothing cached */
	enum gt_series series;
	uint64_t end_ns, col_ns;
	uint64_t pushes;   /* the history's pushes then */
	uint64_t newest_t; /* its newest sample's time then */
	size_t kept;       /* columns the last call moved, not computed */
	double v[GT_HISTORY_COLS_MAX];
};

/* gt_history_columns through cache c (NULL: none): the same values, with
 * the columns the cache holds moved instead of computed again. */
size_t gt_history_columns_cached(const struct gt_history *h,
                                 struct gt_history_cols *c, enum gt_series s,
                                 uint64_t end_ns, uint64_t col_ns, double *out,
                                 size_t n);

#endif

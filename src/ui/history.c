/* SPDX-License-Identifier: MIT */
/*
 * history.c - graph history per device (see history.h): values with the
 * time each sample was taken and the time it stands for, and their mean
 * on a time grid for the graphs.
 */
#include "ui/history.h"

#include <math.h>
#include <string.h>

void gt_history_init(struct gt_history *h)
{
	memset(h, 0, sizeof(*h));
}

void gt_history_set_interval(struct gt_history *h, uint64_t interval_ns)
{
	h->interval_ns = interval_ns;
}

static double value(const struct gt_val *v, double scale)
{
	return gt_val_ok(v) ? (double)v->v / scale : NAN;
}

static size_t newest_index(const struct gt_history *h)
{
	return (h->head + GT_HISTORY_LEN - 1) % GT_HISTORY_LEN;
}

uint64_t gt_history_newest(const struct gt_history *h)
{
	return h->count ? h->t[newest_index(h)] : 0;
}

uint64_t gt_history_due_ns(const struct gt_history *h, unsigned n)
{
	uint64_t iv = h->interval_ns > h->due_interval_ns ? h->interval_ns
	                                                  : h->due_interval_ns;
	return iv * n;
}

/* What the sample taken at t stands for: back to the previous sample,
 * unless that is more than GT_HISTORY_GAP_INTERVALS intervals (of the one
 * in force when it was due) away or samples were lost in between; then
 * one interval, and the rest is a gap. */
static uint64_t span_of(const struct gt_history *h, uint64_t t, bool after_gap)
{
	uint64_t iv = gt_history_due_ns(h, 1);
	uint64_t prev = gt_history_newest(h);

	if (!h->count || t <= prev)
		return h->count ? 0 : iv;
	uint64_t dt = t - prev;
	if (iv && (after_gap || dt > GT_HISTORY_GAP_INTERVALS * iv))
		return iv < dt ? iv : dt;
	return dt;
}

void gt_history_push(struct gt_history *h, const struct gt_sample *s,
                     uint64_t t_ns, bool after_gap)
{
	size_t i = h->head;

	h->span[i] = span_of(h, t_ns, after_gap);
	h->t[i] = t_ns;
	h->due_interval_ns = h->interval_ns;
	h->v[GT_SERIES_GPU][i] = value(&s->f[GT_F_UTIL_GPU], 100.0);
	h->v[GT_SERIES_MEMBW][i] = value(&s->f[GT_F_UTIL_MEMBW], 100.0);
	h->v[GT_SERIES_ENC][i] = value(&s->f[GT_F_UTIL_ENC], 100.0);
	h->v[GT_SERIES_DEC][i] = value(&s->f[GT_F_UTIL_DEC], 100.0);
	h->v[GT_SERIES_POWER][i] = value(&s->f[GT_F_POWER_DRAW], 1000.0);
	h->v[GT_SERIES_TEMP][i] = value(&s->f[GT_F_TEMP_GPU], 1000.0);
	const struct gt_val *used = &s->f[GT_F_MEM_USED];
	const struct gt_val *total = &s->f[GT_F_MEM_TOTAL];
	h->v[GT_SERIES_VRAM][i] =
	    gt_val_ok(used) && gt_val_ok(total) && total->v > 0
	        ? 100.0 * (double)used->v / (double)total->v
	        : NAN;
	for (int k = 0; k < GT_SERIES__COUNT; k++) {
		double x = h->v[k][i];
		h->seen_value[k] = h->seen_value[k] || !isnan(x);
		h->seen_positive[k] = h->seen_positive[k] || x > 0;
	}
	h->head = (h->head + 1) % GT_HISTORY_LEN;
	h->pushes++;
	if (h->count < GT_HISTORY_LEN)
		h->count++;
}

size_t gt_history_update(struct gt_history *h, const struct gt_ring *ring)
{
	struct gt_sample s;
	size_t n = 0;
	uint64_t lost = h->cursor.lost;

	/* A reader that was away longer than the ring is long starts from
	 * the oldest sample still held; samples lost in between show as a
	 * gap, not as a line joining values that never met. */
	while (gt_ring_read_next(ring, &h->cursor, &s) == GT_RING_OK) {
		gt_history_push(h, &s, s.monotonic_ns, h->cursor.lost != lost);
		lost = h->cursor.lost;
		n++;
	}
	return n;
}

size_t gt_history_tail(const struct gt_history *h, enum gt_series s,
                       double *out, size_t n)
{
	if (n > h->count)
		n = h->count;
	size_t start = (h->head + GT_HISTORY_LEN - n) % GT_HISTORY_LEN;
	for (size_t i = 0; i < n; i++)
		out[i] = h->v[s][(start + i) % GT_HISTORY_LEN];
	return n;
}

/* Columns out[from..n) of gt_history_columns's n. */
static void columns_from(const struct gt_history *h, enum gt_series s,
                         uint64_t end_ns, uint64_t col_ns, double *out,
                         size_t n, size_t from)
{
	/* Samples newest first: j counts back from the newest. Their
	 * stretches [t - span, t] are in order and never overlap, so one
	 * walk back serves every column. */
	size_t j = 0;
	const int64_t col = (int64_t)col_ns;
	for (size_t k = n; k-- > from;) {
		int64_t c1 = (int64_t)end_ns - (int64_t)(n - 1 - k) * col;
		int64_t c0 = c1 - col;
		double sum = 0, w = 0;
		for (; j < h->count; j++) {
			size_t i =
			    (h->head + GT_HISTORY_LEN - 1 - j) % GT_HISTORY_LEN;
			int64_t t = (int64_t)h->t[i];
			int64_t a = t - (int64_t)h->span[i];
			if (a >= c1)
				continue; /* wholly after this column */
			if (t <= c0)
				break; /* wholly before: the next column's */
			double ov =
			    (double)((t < c1 ? t : c1) - (a > c0 ? a : c0));
			double v = h->v[s][i];
			if (ov > 0 && !isnan(v)) {
				sum += v * ov;
				w += ov;
			}
			if (a < c0)
				break; /* reaches into the next column too */
		}
		out[k] = w > 0 ? sum / w : NAN;
	}
}

size_t gt_history_columns(const struct gt_history *h, enum gt_series s,
                          uint64_t end_ns, uint64_t col_ns, double *out,
                          size_t n)
{
	if (!col_ns)
		return 0;
	columns_from(h, s, end_ns, col_ns, out, n, 0);
	return n;
}

/* How many of c's columns still hold, moved left by the grid's advance
 * since: those that ended before the newest sample then (later samples
 * stand only for time after it), as long as no sample they were made of
 * has left the history since. 0: none (compute all). */
static size_t cols_reusable(const struct gt_history *h,
                            const struct gt_history_cols *c, enum gt_series s,
                            uint64_t end_ns, uint64_t col_ns, size_t n)
{
	if (c->n != n || c->series != s || c->col_ns != col_ns ||
	    end_ns < c->end_ns || (end_ns - c->end_ns) % col_ns != 0 ||
	    h->pushes < c->pushes || h->pushes - c->pushes >= h->count)
		return 0;
	/* The sample that was the newest must still be there, the same. */
	size_t back = (size_t)(h->pushes - c->pushes); /* < count */
	size_t i = (h->head + 2 * GT_HISTORY_LEN - 1 - back) % GT_HISTORY_LEN;
	if (h->t[i] != c->newest_t)
		return 0;
	/* Samples dropped from the full history since: the grid must not
	 * reach back to them. */
	if (h->pushes > GT_HISTORY_LEN && back > 0) {
		size_t o = h->head; /* the oldest held */
		uint64_t first = h->t[o] - h->span[o];
		uint64_t left = end_ns - (uint64_t)n * col_ns;
		if (end_ns < (uint64_t)n * col_ns || first > left)
			return 0;
	}
	uint64_t shift = (end_ns - c->end_ns) / col_ns;
	if (shift >= n)
		return 0;
	/* Column k ends at end_ns - (n - 1 - k) * col_ns: it holds while
	 * that is at or before the newest sample then. */
	if (c->newest_t >= end_ns)
		return 0;
	uint64_t after = (end_ns - c->newest_t + col_ns - 1) / col_ns;
	size_t keep = n - (size_t)shift;
	return after >= n ? 0 : (size_t)(n - after) < keep ? n - after : keep;
}

size_t gt_history_columns_cached(const struct gt_history *h,
                                 struct gt_history_cols *c, enum gt_series s,
                                 uint64_t end_ns, uint64_t col_ns, double *out,
                                 size_t n)
{
	if (!col_ns)
		return 0;
	if (!c || n > GT_HISTORY_COLS_MAX)
		return gt_history_columns(h, s, end_ns, col_ns, out, n);
	size_t keep = cols_reusable(h, c, s, end_ns, col_ns, n);
	if (keep)
		memmove(c->v, c->v + (end_ns - c->end_ns) / col_ns,
		        keep * sizeof(*c->v));
	columns_from(h, s, end_ns, col_ns, c->v, n, keep);
	c->n = n;
	c->series = s;
	c->end_ns = end_ns;
	c->col_ns = col_ns;
	c->pushes = h->pushes;
	c->newest_t = gt_history_newest(h);
	c->kept = keep;
	memcpy(out, c->v, n * sizeof(*out));
	return n;
}

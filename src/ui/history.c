/* SPDX-License-Identifier: MIT */
/*
 * history.c - graph history per device (see history.h).
 */
#include "ui/history.h"

#include <math.h>
#include <string.h>

#include "core/model.h"

void gt_history_init(struct gt_history *h)
{
	memset(h, 0, sizeof(*h));
}

static double value(const struct gt_val *v, double scale)
{
	return gt_val_ok(v) ? (double)v->v / scale : NAN;
}

static void push(struct gt_history *h, const struct gt_sample *s)
{
	size_t i = h->head;
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
	if (h->count < GT_HISTORY_LEN)
		h->count++;
}

size_t gt_history_update(struct gt_history *h, const struct gt_ring *ring)
{
	struct gt_sample s;
	size_t n = 0;
	uint64_t lost = h->cursor.lost;

	/* A reader that was away longer than the ring is long starts from
	 * the oldest sample still held. */
	while (gt_ring_read_next(ring, &h->cursor, &s) == GT_RING_OK) {
		/* Samples lost in between show as a gap (a few columns at
		 * most), not as a line joining values that never met. */
		uint64_t gaps = h->cursor.lost - lost;
		for (uint64_t g = 0; g < gaps && g < 4; g++) {
			struct gt_sample gap;
			gt_sample_init(&gap);
			push(h, &gap);
		}
		lost = h->cursor.lost;
		push(h, &s);
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

/* SPDX-License-Identifier: MIT */
/*
 * test_history.c - tests of the graph history (src/ui/history.c): time is
 * real. Each sample keeps when it was taken and what stretch of time it
 * stands for; graphs read it on a time grid, so a change of interval
 * neither relabels old samples nor leaves gaps where there were none,
 * silence and lost samples show as gaps, and the next sample is judged
 * against the interval that was in force when it was due (no false
 * STALE after + and -).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "ui/history.h"

#define MS 1000000ull
#define S  1000000000ull

static struct gt_history *new_history(uint64_t interval)
{
	struct gt_history *h = malloc(sizeof(*h));
	assert_non_null(h);
	gt_history_init(h);
	gt_history_set_interval(h, interval);
	return h;
}

/* A sample whose GPU utilization is pct. */
static void push(struct gt_history *h, uint64_t t, double pct, bool gap)
{
	struct gt_sample s;

	gt_sample_init(&s);
	gt_val_set(&s.f[GT_F_UTIL_GPU], (int64_t)(pct * 100));
	/* A second series with other values: a cache that served one
	 * series' columns for another would show them. */
	gt_val_set(&s.f[GT_F_UTIL_MEMBW], (int64_t)((100 - pct) * 100));
	gt_history_push(h, &s, t, gap);
}

/* Ten samples 0.5 s apart on a 0.5 s grid ending at the newest: one
 * column each, in order. */
static void test_columns_one_per_sample(void **state)
{
	struct gt_history *h = new_history(500 * MS);
	double out[12];

	(void)state;
	for (int i = 1; i <= 10; i++)
		push(h, 100 * S + (uint64_t)i * 500 * MS, i * 10.0, false);
	assert_int_equal(gt_history_newest(h), 105 * S);
	assert_int_equal(
	    gt_history_columns(h, GT_SERIES_GPU, 105 * S, 500 * MS, out, 12),
	    12);
	/* The first sample stands for one interval before it, like the
	 * others: columns 2..11 hold 10..100, the two before are empty. */
	assert_true(isnan(out[0]));
	assert_true(isnan(out[1]));
	for (int i = 2; i < 12; i++)
		assert_true(fabs(out[i] - (i - 1) * 10.0) < 1e-9);
	/* No grid: nothing. */
	assert_int_equal(
	    gt_history_columns(h, GT_SERIES_GPU, 105 * S, 0, out, 12), 0);
	free(h);
}

/* The interval goes from 0.5 s to 1 s (+): the old samples keep their
 * times. On the new 1 s grid two old samples share a column (their mean),
 * so 5 s of old history takes 5 columns, not 10, and nothing is left
 * empty between the old and the new samples. */
static void test_interval_change_keeps_time(void **state)
{
	struct gt_history *h = new_history(500 * MS);
	double out[10];

	(void)state;
	/* 0.5 s samples: 0, 100, 0, 100 ... from t = 0.5 to 5 s */
	for (int i = 1; i <= 10; i++)
		push(h, (uint64_t)i * 500 * MS, i % 2 ? 0.0 : 100.0, false);
	gt_history_set_interval(h, S);
	/* the collector was asleep for the old 0.5 s: the next sample
	 * comes 0.5 s later, then every second */
	push(h, 5500 * MS, 30.0, false);
	for (int i = 1; i <= 4; i++)
		push(h, 5500 * MS + (uint64_t)i * S, 30.0, false);
	assert_int_equal(gt_history_newest(h), 9500 * MS);
	/* Grid of 1 s columns ending at 10 s: (0,1] ... (9,10]. */
	gt_history_columns(h, GT_SERIES_GPU, 10 * S, S, out, 10);
	/* (0,1]: 0 from 0.5..? the first sample stands for (0, 0.5],
	 * the second for (0.5, 1]: mean 50. Same for every old second. */
	for (int i = 0; i < 5; i++)
		assert_true(fabs(out[i] - 50.0) < 1e-9);
	/* (5,6]: the sample at 5.5 stands for (5, 5.5] (it came when due),
	 * the one at 6.5 for (5.5, 6.5]: all 30. No gap. */
	for (int i = 5; i < 9; i++)
		assert_true(fabs(out[i] - 30.0) < 1e-9);
	/* (9,10]: the newest ends at 9.5: the column is half covered. */
	assert_true(fabs(out[9] - 30.0) < 1e-9);
	/* The other way (-): a 0.25 s grid puts each old 0.5 s sample in
	 * two columns, still at its time. */
	double fine[20];
	gt_history_columns(h, GT_SERIES_GPU, 5 * S, 250 * MS, fine, 20);
	for (int i = 0; i < 20; i++)
		assert_true(fabs(fine[i] - ((i / 2) % 2 ? 100.0 : 0.0)) < 1e-9);
	free(h);
}

/* A device silent for 10 s (1 s interval): the sample after the silence
 * stands for one interval, and the silence is a gap. */
static void test_silence_is_a_gap(void **state)
{
	struct gt_history *h = new_history(S);
	double out[15];

	(void)state;
	for (int i = 1; i <= 3; i++)
		push(h, (uint64_t)i * S, 80.0, false);
	push(h, 13 * S, 60.0, false);
	gt_history_columns(h, GT_SERIES_GPU, 13 * S, S, out, 15);
	/* columns (-2,-1] .. (12,13] */
	assert_true(fabs(out[2] - 80.0) < 1e-9); /* (0,1] */
	assert_true(fabs(out[4] - 80.0) < 1e-9); /* (2,3] */
	for (int i = 5; i < 14; i++)
		assert_true(isnan(out[i]));
	assert_true(fabs(out[14] - 60.0) < 1e-9);
	/* Samples lost in the ring between two that came on time: a gap
	 * too, however close they are. */
	push(h, 14 * S, 10.0, false);
	push(h, 15500 * MS, 20.0, true);
	gt_history_columns(h, GT_SERIES_GPU, 16 * S, 500 * MS, out, 4);
	/* (14,14.5] (14.5,15] (15,15.5] (15.5,16] */
	assert_true(isnan(out[0]));
	assert_true(fabs(out[1] - 20.0) < 1e-9);
	assert_true(fabs(out[2] - 20.0) < 1e-9);
	assert_true(isnan(out[3]));
	free(h);
}

/* An unknown value is a gap, not a zero. */
static void test_na_is_not_zero(void **state)
{
	struct gt_history *h = new_history(S);
	struct gt_sample s;
	double out[3];

	(void)state;
	push(h, 1 * S, 40.0, false);
	gt_sample_init(&s); /* every value N/A */
	gt_history_push(h, &s, 2 * S, false);
	push(h, 3 * S, 40.0, false);
	gt_history_columns(h, GT_SERIES_GPU, 3 * S, S, out, 3);
	assert_true(fabs(out[0] - 40.0) < 1e-9);
	assert_true(isnan(out[1]));
	assert_true(fabs(out[2] - 40.0) < 1e-9);
	assert_false(h->seen_value[GT_SERIES_ENC]);
	assert_true(h->seen_value[GT_SERIES_GPU]);
	free(h);
}

/* The next sample is due within the longer of the interval in force when
 * the newest was taken and the one in force now: + + then - - - - - never
 * makes a device look silent while the collector still sleeps out the
 * long interval. */
static void test_due_interval(void **state)
{
	struct gt_history *h = new_history(500 * MS);

	(void)state;
	assert_int_equal(gt_history_due_ns(h, 3), 1500 * MS);
	push(h, 10 * S, 1.0, false);
	gt_history_set_interval(h, 2 * S); /* + + */
	assert_int_equal(gt_history_due_ns(h, 3), 6 * S);
	push(h, 12 * S, 1.0, false);
	gt_history_set_interval(h, 100 * MS); /* - five times */
	/* The collector sleeps out the 2 s it was given. */
	assert_int_equal(gt_history_due_ns(h, 3), 6 * S);
	push(h, 14 * S, 1.0, false);
	/* That sample was taken under 0.1 s: from now on 0.3 s. */
	assert_int_equal(gt_history_due_ns(h, 3), 300 * MS);
	gt_history_init(h);
	assert_int_equal(gt_history_due_ns(h, 3), 0);
	assert_int_equal(gt_history_newest(h), 0);
	free(h);
}

/* Samples from a ring keep the times the collector stamped on them. */
static void test_update_from_ring(void **state)
{
	struct gt_history *h = new_history(S);
	struct gt_ring ring;
	struct gt_sample s;
	double out[4];

	(void)state;
	assert_int_equal(gt_ring_init(&ring, 4, sizeof(s)), 0);
	for (int i = 1; i <= 3; i++) {
		gt_sample_init(&s);
		s.monotonic_ns = (uint64_t)i * S;
		gt_val_set(&s.f[GT_F_UTIL_GPU], i * 1000);
		gt_ring_push(&ring, &s);
	}
	assert_int_equal(gt_history_update(h, &ring), 3);
	assert_int_equal(gt_history_update(h, &ring), 0);
	assert_int_equal(gt_history_newest(h), 3 * S);
	gt_history_columns(h, GT_SERIES_GPU, 3 * S, S, out, 3);
	assert_true(fabs(out[0] - 10.0) < 1e-9);
	assert_true(fabs(out[2] - 30.0) < 1e-9);
	/* The reader away longer than the ring holds: a gap before the
	 * oldest sample still there. */
	for (int i = 4; i <= 12; i++) {
		gt_sample_init(&s);
		s.monotonic_ns = (uint64_t)i * S;
		gt_val_set(&s.f[GT_F_UTIL_GPU], 5000);
		gt_ring_push(&ring, &s);
	}
	assert_int_equal(gt_history_update(h, &ring), 4);
	gt_history_columns(h, GT_SERIES_GPU, 12 * S, S, out, 4);
	/* 9..12 arrived; 9 after a loss stands for (8, 9] only */
	for (int i = 0; i < 4; i++)
		assert_true(fabs(out[i] - 50.0) < 1e-9);
	gt_history_columns(h, GT_SERIES_GPU, 8 * S, S, out, 4);
	assert_true(isnan(out[0]) && isnan(out[1]) && isnan(out[2]) &&
	            isnan(out[3]));
	gt_ring_destroy(&ring);
	free(h);
}

/* The column cache gives exactly the columns computed from scratch, frame
 * after frame: samples with jitter, gaps, lost samples, a change of
 * interval, the grid's end moving by whole columns (sometimes by none,
 * sometimes by more than a sample), two column widths (a main graph and
 * a band under it), and the history wrapping round several times. A
 * cache that kept a column a new sample touches, or kept one after the
 * samples it was made of left the history, fails here. */
static void test_columns_cached_match(void **state)
{
	enum { N = 1500, BAND = 75 }; /* N: wider than the history */
	struct gt_history *h = new_history(100 * MS);
	struct gt_history_cols *c = calloc(2, sizeof(*c));
	static double fresh[N], cached[N];
	uint64_t t = 50 * S, iv = 100 * MS;
	long kept_frames = 0, calls = 0;

	(void)state;
	assert_non_null(c);
	srand(7);
	for (int f = 0; f < 4 * GT_HISTORY_LEN; f++) {
		if (f == 1500)
			iv = 250 * MS; /* the user pressed + */
		if (f == 2500)
			iv = 100 * MS;
		gt_history_set_interval(h, iv);
		int r = rand() % 100;
		uint64_t dt = iv + (uint64_t)(rand() % 20) * MS - 10 * MS;
		if (r < 3)
			dt += 5 * iv; /* a silent device: a gap */
		if (r < 96) {
			t += dt;
			push(h, t, (double)(rand() % 101), r == 4);
		}
		uint64_t end = (t / iv + 1) * iv;
		if (f % 7 == 0)
			end += iv; /* a late frame: the grid moved past it */
		size_t sizes[2] = {N, BAND};
		uint64_t cols[2] = {iv, iv * N / BAND};
		for (int k = 0; k < 2; k++) {
			uint64_t e = (end / cols[k] + 1) * cols[k];
			/* Now and then another series through the same
			 * cache, or an end off the column grid: neither
			 * may reuse what the cache holds. */
			enum gt_series s =
			    f % 11 == 5 ? GT_SERIES_MEMBW : GT_SERIES_GPU;
			if (f % 13 == 6)
				e += cols[k] / 3;
			gt_history_columns(h, s, e, cols[k], fresh, sizes[k]);
			gt_history_columns_cached(h, &c[k], s, e, cols[k],
			                          cached, sizes[k]);
			for (size_t i = 0; i < sizes[k]; i++) {
				if (isnan(fresh[i])) {
					assert_true(isnan(cached[i]));
					continue;
				}
				assert_true(fresh[i] == cached[i]);
			}
			kept_frames += c[k].kept > 0;
			calls++;
		}
	}
	/* The cache served many frames: columns moved, not all computed
	 * again (a cache never used would pass the comparison too). With
	 * this run's gaps, late frames, series switches and off-grid ends
	 * it keeps columns in 2763 of 8192 calls; none kept is the fault. */
	if (kept_frames < calls / 4)
		fail_msg("columns kept in %ld of %ld calls", kept_frames,
		         calls);
	free(c);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_columns_one_per_sample),
	    cmocka_unit_test(test_interval_change_keeps_time),
	    cmocka_unit_test(test_silence_is_a_gap),
	    cmocka_unit_test(test_na_is_not_zero),
	    cmocka_unit_test(test_due_interval),
	    cmocka_unit_test(test_update_from_ring),
	    cmocka_unit_test(test_columns_cached_match),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

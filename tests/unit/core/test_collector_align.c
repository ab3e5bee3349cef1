/* SPDX-License-Identifier: MIT */
/*
 * test_collector_align.c - rounds on the wall clock's grid
 * (gt_collector_align in src/core/collector.c): where a due round moves for
 * intervals that divide a second, are whole seconds or neither, that it
 * never moves by more than half a step, and that a collector thread with
 * align_to_wall starts its rounds on the grid.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <time.h>

#include "collectors/registry.h"
#include "core/clock.h"
#include "core/collector.h"
#include "core/notify.h"

#define MS  1000000ull
#define SEC 1000000000ull

/* The two clocks of a made-up machine: the wall clock at monotonic 0 is
 * 1,700,000,000 s and 400 ms. */
#define MONO_NOW (5000 * SEC)
#define WALL_NOW (1700000000ull * SEC + 400 * MS + MONO_NOW)

/* The wall clock's ns within its second at monotonic t. */
static uint64_t wall_frac(uint64_t t)
{
	return (t + (WALL_NOW - MONO_NOW)) % SEC;
}

static uint64_t align(uint64_t due, uint64_t iv)
{
	return gt_collector_align(due, MONO_NOW, WALL_NOW, iv);
}

static void test_whole_second_grid(void **state)
{
	(void)state;
	/* Due 300 ms after a grid point (second + phase): back to it. */
	uint64_t on = MONO_NOW + SEC - 400 * MS + GT_COLLECTOR_PHASE_NS;
	assert_int_equal(wall_frac(on), GT_COLLECTOR_PHASE_NS);
	assert_int_equal(align(on + 300 * MS, SEC), on);
	/* 700 ms after: on to the next one. */
	assert_int_equal(align(on + 700 * MS, SEC), on + SEC);
	/* On the grid: unchanged. */
	assert_int_equal(align(on, SEC), on);
	/* Whole seconds: the same grid, each second. */
	assert_int_equal(align(on + 200 * MS, 2 * SEC), on);
	assert_int_equal(align(on + 600 * MS, 5 * SEC), on + SEC);
}

static void test_grid_within_a_second(void **state)
{
	(void)state;
	uint64_t on = MONO_NOW + SEC - 400 * MS + GT_COLLECTOR_PHASE_NS;
	/* 0.1 s: points 100 ms apart after the phase. */
	assert_int_equal(align(on + 230 * MS, 100 * MS), on + 200 * MS);
	assert_int_equal(align(on + 270 * MS, 100 * MS), on + 300 * MS);
	assert_int_equal(wall_frac(align(on + 555 * MS, 250 * MS)),
	                 GT_COLLECTOR_PHASE_NS + 500 * MS);
	/* Neither a divisor nor a multiple of a second: left alone. */
	assert_int_equal(align(on + 123 * MS, 300 * MS), on + 123 * MS);
	assert_int_equal(align(on + 123 * MS, 1500 * MS), on + 123 * MS);
	assert_int_equal(align(on + 123 * MS, 0), on + 123 * MS);
}

static void test_moves_at_most_half_a_step(void **state)
{
	static const uint64_t ivs[] = {100 * MS, 200 * MS, 500 * MS, SEC,
	                               3 * SEC};
	(void)state;
	for (size_t i = 0; i < sizeof(ivs) / sizeof(ivs[0]); i++) {
		uint64_t step = ivs[i] < SEC ? ivs[i] : SEC;
		for (uint64_t d = 0; d < 2 * SEC; d += 7 * MS + 13) {
			uint64_t due = MONO_NOW + d;
			uint64_t at = align(due, ivs[i]);
			uint64_t moved = at > due ? at - due : due - at;
			assert_true(moved <= step / 2);
			/* and lands on the grid */
			assert_int_equal(
			    (wall_frac(at) + SEC - GT_COLLECTOR_PHASE_NS) %
			        step,
			    0);
		}
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* A demo collector's thread at 0.5 s with its rounds aligned: from the
 * second round on they start just after a grid point (two of four within
 * 30 ms, room for a busy machine's late wake-ups; an unaligned thread's
 * rounds keep one phase, anywhere in the step: within 30 ms of the grid
 * about one time in seventeen). */
static void test_thread_rounds_on_the_grid(void **state)
{
	struct gt_collector_config cfg = {
	    .platform = &gt_registry_platform,
	    .demo = true,
	    .interval_ns = 500 * MS,
	    .backend = {.demo_seed = 3},
	    .align_to_wall = true,
	};
	struct gt_collector *c = gt_collector_open(&cfg);
	uint64_t late[4];
	int n = 0;
	(void)state;

	assert_non_null(c);
	struct gt_notify probe = {gt_collector_notify_fd(c)};
	assert_int_equal(gt_collector_start(c), 0);
	uint64_t seen = 0;
	while (n < 4) {
		assert_true(gt_notify_wait(&probe, 5000));
		gt_collector_notify_clear(c);
		uint64_t rounds = gt_collector_rounds(c), end, took;
		if (rounds == seen || !gt_collector_last_round(c, &end, &took))
			continue;
		seen = rounds;
		if (rounds < 2)
			continue; /* the first starts at once */
		struct timespec w;
		clock_gettime(CLOCK_REALTIME, &w);
		uint64_t mono = gt_monotonic_ns();
		uint64_t wall = (uint64_t)w.tv_sec * SEC + (uint64_t)w.tv_nsec;
		uint64_t start = end - took + (wall - mono);
		late[n++] = (start + SEC - GT_COLLECTOR_PHASE_NS) % (500 * MS);
	}
	gt_collector_stop(c);
	gt_collector_close(c);
	qsort(late, 4, sizeof(late[0]), cmp_u64);
	if (late[1] >= 30 * MS)
		fail_msg("rounds start %llu ms after the grid (median)",
		         (unsigned long long)(late[1] / MS));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_whole_second_grid),
	    cmocka_unit_test(test_grid_within_a_second),
	    cmocka_unit_test(test_moves_at_most_half_a_step),
	    cmocka_unit_test(test_thread_rounds_on_the_grid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * test_bounded.c - tests of the bounded call (src/control/bounded.c): a
 * call that returns in time is waited for and its result kept; one that
 * does not is given up on at its deadline, or half a second after a stop,
 * and its thread releases what it holds when it comes back at last.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include <cmocka.h>

#include "control/bounded.h"
#include "core/clock.h"

#define MS 1000000ull

struct call {
	uint64_t sleep_ns;
	int result;
	atomic_int *released; /* set by release */
};

static void sleeper(void *arg)
{
	struct call *c = arg;
	struct timespec ts = {(time_t)(c->sleep_ns / 1000000000ull),
	                      (long)(c->sleep_ns % 1000000000ull)};
	nanosleep(&ts, NULL);
	c->result = 42;
}

static void release(void *arg)
{
	struct call *c = arg;
	atomic_store(c->released, 1);
	free(c);
}

/* Waits up to 3 s for an abandoned call's thread to release it. */
static void expect_released(atomic_int *released)
{
	for (int i = 0; i < 300 && !atomic_load(released); i++) {
		struct timespec ts = {0, 10 * MS};
		nanosleep(&ts, NULL);
	}
	assert_int_equal(atomic_load(released), 1);
}

static bool stop_now(void *ctx)
{
	(void)ctx;
	return true;
}

static void test_returns_in_time(void **state)
{
	(void)state;
	struct call c = {10 * MS, 0, NULL};
	uint64_t t0 = gt_monotonic_ns();
	assert_int_equal(
	    gt_bounded_run(sleeper, &c, NULL, 2000 * MS, NULL, NULL), 0);
	assert_int_equal(c.result, 42);
	assert_true(gt_monotonic_ns() - t0 < 1000 * MS);
}

/* Given up on at the deadline; the thread frees the call when it ends. */
static void test_deadline_abandons(void **state)
{
	(void)state;
	static atomic_int released;
	struct call *c = calloc(1, sizeof(*c));
	assert_non_null(c);
	c->sleep_ns = 600 * MS;
	c->released = &released;
	uint64_t t0 = gt_monotonic_ns();
	assert_int_equal(
	    gt_bounded_run(sleeper, c, release, 100 * MS, NULL, NULL), -1);
	uint64_t took = gt_monotonic_ns() - t0;
	assert_true(took >= 100 * MS && took < 400 * MS);
	assert_int_equal(atomic_load(&released), 0);
	expect_released(&released);
}

/* A stop leaves the call half a second to come back, not the deadline. */
static void test_stop_grace(void **state)
{
	(void)state;
	struct call c = {200 * MS, 0, NULL};
	struct gt_bounded *b = gt_bounded_start(sleeper, &c);
	assert_non_null(b);
	assert_true(
	    gt_bounded_wait(b, gt_monotonic_ns() + 10000 * MS, stop_now, NULL));
	gt_bounded_free(b);
	assert_int_equal(c.result, 42);

	static atomic_int released;
	struct call *slow = calloc(1, sizeof(*slow));
	assert_non_null(slow);
	slow->sleep_ns = 1500 * MS;
	slow->released = &released;
	uint64_t t0 = gt_monotonic_ns();
	b = gt_bounded_start(sleeper, slow);
	assert_non_null(b);
	assert_false(
	    gt_bounded_wait(b, gt_monotonic_ns() + 10000 * MS, stop_now, NULL));
	uint64_t took = gt_monotonic_ns() - t0;
	assert_true(took >= GT_BOUNDED_STOP_GRACE_NS &&
	            took < GT_BOUNDED_STOP_GRACE_NS + 400 * MS);
	assert_false(gt_bounded_done(b));
	assert_false(gt_bounded_abandon(b, release));
	expect_released(&released);
}

/* Abandoning a call that has returned is freeing it: arg stays ours. */
static void test_abandon_after_return(void **state)
{
	(void)state;
	struct call c = {0, 0, NULL};
	struct gt_bounded *b = gt_bounded_start(sleeper, &c);
	assert_non_null(b);
	while (!gt_bounded_done(b)) {
		struct timespec ts = {0, 1 * MS};
		nanosleep(&ts, NULL);
	}
	assert_true(gt_bounded_abandon(b, release));
	assert_int_equal(c.result, 42);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_returns_in_time),
	    cmocka_unit_test(test_deadline_abandons),
	    cmocka_unit_test(test_stop_grace),
	    cmocka_unit_test(test_abandon_after_return),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

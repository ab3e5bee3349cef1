/* SPDX-License-Identifier: MIT */
/*
 * test_notify.c - the "something new" signal (src/core/notify.c) and the
 * collector's use of it: signals coalesce and stay set until cleared, a
 * waiting thread is woken, every collector round signals, and the
 * collector's thread leaves the asynchronous signals (a resize, a stop) to
 * the thread that waits for them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "collectors/registry.h"
#include "core/clock.h"
#include "core/collector.h"
#include "core/notify.h"

static void test_signals_coalesce_until_cleared(void **state)
{
	struct gt_notify n;
	(void)state;

	assert_int_equal(gt_notify_open(&n), 0);
	assert_true(gt_notify_fd(&n) >= 0);
	assert_false(gt_notify_wait(&n, 0));
	assert_int_equal(gt_notify_clear(&n), 0);
	gt_notify_signal(&n);
	gt_notify_signal(&n);
	gt_notify_signal(&n);
	assert_true(gt_notify_wait(&n, 0));
	/* Waiting does not consume it. */
	assert_true(gt_notify_wait(&n, 0));
	assert_int_equal(gt_notify_clear(&n), 3);
	assert_false(gt_notify_wait(&n, 0));
	assert_int_equal(gt_notify_clear(&n), 0);
	gt_notify_close(&n);
	assert_int_equal(gt_notify_fd(&n), -1);
	/* Closed: every call is harmless. */
	gt_notify_signal(&n);
	assert_false(gt_notify_wait(&n, 0));
	assert_int_equal(gt_notify_clear(&n), 0);
}

static void *signal_later(void *arg)
{
	struct timespec gap = {0, 50000000};
	nanosleep(&gap, NULL);
	gt_notify_signal(arg);
	return NULL;
}

static void test_wait_woken_by_another_thread(void **state)
{
	struct gt_notify n;
	pthread_t t;
	(void)state;

	assert_int_equal(gt_notify_open(&n), 0);
	uint64_t t0 = gt_monotonic_ns();
	assert_int_equal(pthread_create(&t, NULL, signal_later, &n), 0);
	/* 10 s at most: woken by the signal, not by the timeout. */
	assert_true(gt_notify_wait(&n, 10000));
	uint64_t took = gt_monotonic_ns() - t0;
	pthread_join(t, NULL);
	assert_true(took >= 40000000ull);
	assert_true(took < 5000000000ull);
	assert_int_equal(gt_notify_clear(&n), 1);
	gt_notify_close(&n);
}

static struct gt_collector *demo_collector(void)
{
	struct gt_collector_config cfg = {
	    .platform = &gt_registry_platform,
	    .demo = true,
	    .interval_ns = GT_INTERVAL_MIN_NS,
	    .backend = {.demo_seed = 3},
	};
	return gt_collector_open(&cfg);
}

static void test_collector_signals_each_round(void **state)
{
	struct gt_collector *c = demo_collector();
	(void)state;

	assert_non_null(c);
	int fd = gt_collector_notify_fd(c);
	assert_true(fd >= 0);
	struct gt_notify probe = {fd};
	assert_false(gt_notify_wait(&probe, 0));
	assert_false(gt_collector_notify_clear(c));
	gt_collector_tick(c, GT_TICK_ALL);
	assert_true(gt_notify_wait(&probe, 0));
	assert_true(gt_collector_notify_clear(c));
	assert_false(gt_notify_wait(&probe, 0));
	gt_collector_tick(c, GT_TICK_SCHEDULED);
	gt_collector_tick(c, GT_TICK_SCHEDULED);
	assert_true(gt_collector_notify_clear(c));
	assert_false(gt_collector_notify_clear(c));

	/* The thread's rounds wake a waiter; the first one ends
	 * gt_collector_wait_first_tick. */
	assert_int_equal(gt_collector_start(c), 0);
	assert_true(gt_collector_wait_first_tick(c, 5000000000ull));
	assert_true(gt_notify_wait(&probe, 5000));
	gt_collector_stop(c);
	gt_collector_close(c);
}

/* The blocked-signal mask (SigBlk) of each thread of this process other
 * than the caller; returns how many were read. */
static int other_threads_blocked(uint64_t *masks, int max)
{
	char path[300], line[256];
	int n = 0;
	pid_t self = (pid_t)syscall(SYS_gettid);
	DIR *dir = opendir("/proc/self/task");
	struct dirent *e;

	assert_non_null(dir);
	while ((e = readdir(dir)) && n < max) {
		if (e->d_name[0] == '.' || atoi(e->d_name) == self)
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/status",
		         e->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		unsigned long blk;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "SigBlk: %lx", &blk) == 1)
				masks[n++] = blk;
		fclose(f);
	}
	closedir(dir);
	return n;
}

static void test_collector_thread_leaves_signals_to_others(void **state)
{
	struct gt_collector *c = demo_collector();
	uint64_t masks[8];
	sigset_t mine;
	(void)state;

	assert_non_null(c);
	pthread_sigmask(SIG_SETMASK, NULL, &mine);
	assert_int_equal(gt_collector_start(c), 0);
	/* Once it has sampled, the thread runs with its own mask (glibc
	 * starts a thread with everything blocked, then sets the mask). */
	assert_true(gt_collector_wait_first_tick(c, 5000000000ull));
	int n = other_threads_blocked(masks, 8);
	gt_collector_stop(c);
	gt_collector_close(c);
	assert_int_equal(n, 1);
	static const int async[] = {SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGCONT};
	for (size_t i = 0; i < sizeof(async) / sizeof(async[0]); i++)
		assert_true(masks[0] & (1ull << (async[i] - 1)));
	/* Faults are not blocked (a blocked fault kills the process). */
	assert_false(masks[0] & (1ull << (SIGSEGV - 1)));
	/* The caller's own mask is as it was. */
	sigset_t after;
	pthread_sigmask(SIG_SETMASK, NULL, &after);
	assert_int_equal(sigismember(&after, SIGWINCH),
	                 sigismember(&mine, SIGWINCH));
	assert_int_equal(sigismember(&after, SIGINT),
	                 sigismember(&mine, SIGINT));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_signals_coalesce_until_cleared),
	    cmocka_unit_test(test_wait_woken_by_another_thread),
	    cmocka_unit_test(test_collector_signals_each_round),
	    cmocka_unit_test(test_collector_thread_leaves_signals_to_others),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

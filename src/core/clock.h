/* SPDX-License-Identifier: MIT */
/*
 * clock.h - the monotonic clock every timestamp and rate in gputop uses,
 * and the calling thread's CPU clock its own cost is measured with.
 */
#ifndef GPUTOP_CLOCK_H
#define GPUTOP_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t gt_monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* CPU time the calling thread has used, in ns. */
static inline uint64_t gt_thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif

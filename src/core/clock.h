/* SPDX-License-Identifier: MIT */
/*
 * clock.h - the monotonic clock every timestamp and rate in gputop uses.
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

#endif

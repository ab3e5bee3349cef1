/* SPDX-License-Identifier: MIT */
/*
 * notify - owns the "something new" signal between threads: one side
 * (the collector thread, after each round) signals, the other (the
 * dashboard) sleeps in poll() on a file descriptor until it is signalled,
 * then clears it. Signals coalesce: any number of them before a clear wake
 * the reader once. One reader; any number of signalling threads.
 */
#ifndef GPUTOP_NOTIFY_H
#define GPUTOP_NOTIFY_H

#include <stdbool.h>
#include <stdint.h>

struct gt_notify {
	int fd; /* an eventfd (non-blocking, close-on-exec), or -1 */
};

/* 0, or -1 with errno (then fd is -1 and every other call does nothing). */
int gt_notify_open(struct gt_notify *n);
void gt_notify_close(struct gt_notify *n);
/* Wakes the reader. Async-signal-safe (one write); never blocks. */
void gt_notify_signal(struct gt_notify *n);
/* The descriptor to poll for POLLIN; -1 when there is none. */
int gt_notify_fd(const struct gt_notify *n);
/* Clears the signal; returns how many signals arrived since the last
 * clear (0: none). Never blocks. */
uint64_t gt_notify_clear(struct gt_notify *n);
/* Waits until signalled or timeout_ms passes (-1: no limit); true when
 * signalled. Leaves the signal set: a later poll sees it too. */
bool gt_notify_wait(const struct gt_notify *n, int timeout_ms);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * dashboard_loop - owns when the dashboard wakes: it sleeps in one ppoll()
 * on the terminal and the collector's "new round" descriptor until a key,
 * new data, a signal (resize, stop) or the next deadline (the clock's
 * second, a notice's end, a dialog's countdown), never on a fixed timer.
 * Knows nothing of the dashboard's state: it is handed descriptors and
 * times.
 */
#ifndef GPUTOP_DASHBOARD_LOOP_H
#define GPUTOP_DASHBOARD_LOOP_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

/* Without a "new round" descriptor the loop falls back to a timer this
 * short, as it woke before there was one. */
#define GT_DASHBOARD_LOOP_FALLBACK_NS 100000000ull

/* How long after the wall-clock second turns the clock is redrawn
 * (dashboard_loop.c says why). */
#define GT_DASHBOARD_LOOP_CLOCK_SLACK_NS 20000000ull

/* The signals the loop is woken by, blocked outside its wait so that one
 * sent between a check and the wait is not lost (it interrupts the wait
 * instead): SIGWINCH (a resize), SIGINT, SIGTERM, SIGHUP (a stop),
 * SIGTSTP (Ctrl-Z). */
struct gt_dashboard_loop {
	int input_fd; /* the terminal */
	int data_fd;  /* the collector's, or -1 */
	bool input_gone;
	sigset_t old_mask;  /* the thread's mask before begin */
	sigset_t wait_mask; /* during the wait: old_mask less those five */
};

/* What ended a wait (bits). */
enum {
	GT_DASHBOARD_LOOP_INPUT = 1,    /* the terminal has bytes to read */
	GT_DASHBOARD_LOOP_DATA = 2,     /* a collector round finished */
	GT_DASHBOARD_LOOP_SIGNAL = 4,   /* a signal was handled (its handler
	                                   ran before the return) */
	GT_DASHBOARD_LOOP_DEADLINE = 8, /* the deadline passed */
	GT_DASHBOARD_LOOP_HANGUP = 16,  /* the terminal is gone (said once;
	                                   it is not polled again) */
};

/* The times a wait's deadline comes from (monotonic ns, 0 = none). */
struct gt_dashboard_loop_times {
	uint64_t now_ns;
	uint64_t wall_ns; /* CLOCK_REALTIME now: where the second ends */
	uint64_t interval_ns;
	uint64_t last_data_ns; /* when new data last came */
	uint64_t notice_until_ns;
	uint64_t countdown_ns; /* a dialog's countdown ends */
};

/* Blocks the loop's signals in the calling thread (the other threads must
 * have them blocked too: the collector's thread does). data_fd may be -1. */
void gt_dashboard_loop_begin(struct gt_dashboard_loop *lp, int input_fd,
                             int data_fd);
/* Puts the thread's signal mask back. */
void gt_dashboard_loop_end(struct gt_dashboard_loop *lp);
/* Sleeps until something happens or deadline_ns (monotonic) passes;
 * returns the GT_DASHBOARD_LOOP_* bits of what did. Does not read the
 * terminal nor clear the data descriptor. */
int gt_dashboard_loop_wait(struct gt_dashboard_loop *lp, uint64_t deadline_ns);

/* When the screen must next be redrawn with nothing new arriving: the
 * earliest of the notice's end, the next step of a countdown (each second
 * it shows, and its end) and the next wall-clock second for the clock.
 * While samples come at most a second apart, the clock waits for the next
 * one (due within the coming second) instead of waking the loop on its
 * own: one wake-up a second, not two. */
uint64_t gt_dashboard_loop_deadline(const struct gt_dashboard_loop_times *t);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * dashboard_loop.c - the dashboard's sleep (see dashboard_loop.h): one
 * ppoll() with the loop's signals unblocked only inside it, so a signal
 * sent at any moment either is handled before the wait (and the caller
 * sees its effect) or interrupts it.
 */
#include "ui/dashboard_loop.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <time.h>

#include "core/clock.h"

#define SECOND_NS 1000000000ull

static const int loop_signals[] = {SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGTSTP};

void gt_dashboard_loop_begin(struct gt_dashboard_loop *lp, int input_fd,
                             int data_fd)
{
	sigset_t block;

	lp->input_fd = input_fd;
	lp->data_fd = data_fd;
	lp->input_gone = false;
	sigemptyset(&block);
	for (size_t i = 0; i < sizeof(loop_signals) / sizeof(loop_signals[0]);
	     i++)
		sigaddset(&block, loop_signals[i]);
	pthread_sigmask(SIG_BLOCK, &block, &lp->old_mask);
	lp->wait_mask = lp->old_mask;
	for (size_t i = 0; i < sizeof(loop_signals) / sizeof(loop_signals[0]);
	     i++)
		sigdelset(&lp->wait_mask, loop_signals[i]);
}

void gt_dashboard_loop_end(struct gt_dashboard_loop *lp)
{
	pthread_sigmask(SIG_SETMASK, &lp->old_mask, NULL);
}

/* ppoll delivers a signal only when it interrupts the wait: one that
 * came while a descriptor was ready stays pending, and with input always
 * ready (a hung-up terminal, a flood of keys) it would stay so for ever.
 * Delivers the loop's pending signals; true when there were any. */
static bool deliver_pending(struct gt_dashboard_loop *lp)
{
	sigset_t pending, cur;
	bool any = false;

	if (sigpending(&pending) != 0)
		return false;
	for (size_t i = 0; i < sizeof(loop_signals) / sizeof(loop_signals[0]);
	     i++)
		any = any || sigismember(&pending, loop_signals[i]) == 1;
	if (any) {
		pthread_sigmask(SIG_SETMASK, &lp->wait_mask, &cur);
		pthread_sigmask(SIG_SETMASK, &cur, NULL);
	}
	return any;
}

int gt_dashboard_loop_wait(struct gt_dashboard_loop *lp, uint64_t deadline_ns)
{
	struct pollfd p[2];
	nfds_t n = 0;
	int in = -1, data = -1;
	uint64_t now = gt_monotonic_ns();

	if (lp->data_fd < 0 &&
	    deadline_ns > now + GT_DASHBOARD_LOOP_FALLBACK_NS)
		deadline_ns = now + GT_DASHBOARD_LOOP_FALLBACK_NS;
	if (!lp->input_gone) {
		p[n] = (struct pollfd){.fd = lp->input_fd, .events = POLLIN};
		in = (int)n++;
	}
	if (lp->data_fd >= 0) {
		p[n] = (struct pollfd){.fd = lp->data_fd, .events = POLLIN};
		data = (int)n++;
	}
	uint64_t left = deadline_ns > now ? deadline_ns - now : 0;
	struct timespec ts = {(time_t)(left / SECOND_NS),
	                      (long)(left % SECOND_NS)};
	int rc = ppoll(p, n, &ts, &lp->wait_mask);
	int what = 0;
	if (rc < 0)
		what = errno == EINTR ? GT_DASHBOARD_LOOP_SIGNAL : 0;
	else if (rc == 0)
		what = GT_DASHBOARD_LOOP_DEADLINE;
	if (rc > 0 && in >= 0 &&
	    (p[in].revents & (POLLHUP | POLLERR | POLLNVAL))) {
		/* A terminal that hung up reads as "input" (POLLIN, end of
		 * file) for ever: nothing more will come from it. */
		lp->input_gone = true;
		what |= GT_DASHBOARD_LOOP_HANGUP;
	} else if (rc > 0 && in >= 0 && (p[in].revents & POLLIN)) {
		what |= GT_DASHBOARD_LOOP_INPUT;
	}
	if (rc > 0 && data >= 0 && (p[data].revents & POLLIN))
		what |= GT_DASHBOARD_LOOP_DATA;
	/* Only the terminal can stay ready for ever. After a wake for data
	 * or the deadline alone, a signal still pending interrupts the next
	 * wait at once: no sigpending call (a syscall each round) for it. */
	if ((what & (GT_DASHBOARD_LOOP_INPUT | GT_DASHBOARD_LOOP_HANGUP)) &&
	    deliver_pending(lp))
		what |= GT_DASHBOARD_LOOP_SIGNAL;
	return what;
}

/* The next time the clock must be redrawn without new data: just after
 * the wall-clock second turns. Just after, since time() (which the clock
 * and the frame loop read) is the kernel's coarse clock, which turns up to
 * a scheduler tick (1-10 ms) after the precise one: woken on the boundary
 * itself, the loop would find the old second, draw nothing and sleep past
 * the whole next second. */
static uint64_t clock_deadline(const struct gt_dashboard_loop_times *t)
{
	uint64_t boundary = t->now_ns + (SECOND_NS - t->wall_ns % SECOND_NS) +
	                    GT_DASHBOARD_LOOP_CLOCK_SLACK_NS;
	uint64_t iv = t->interval_ns;

	if (!iv || iv > SECOND_NS || !t->last_data_ns ||
	    t->now_ns - t->last_data_ns > iv + iv / 2)
		return boundary; /* no data due within the second */
	/* The next round's frame draws the clock too; a round late by more
	 * than the margin (a slow driver) does not hold the clock back. */
	uint64_t margin = iv / 2 < 50000000ull ? iv / 2 : 50000000ull;
	uint64_t expected = t->last_data_ns + iv + margin;
	if (expected > boundary && expected < boundary + SECOND_NS)
		return expected;
	return boundary;
}

uint64_t gt_dashboard_loop_deadline(const struct gt_dashboard_loop_times *t)
{
	uint64_t next = clock_deadline(t), now = t->now_ns;

	if (t->notice_until_ns > now && t->notice_until_ns < next)
		next = t->notice_until_ns;
	if (t->countdown_ns) {
		/* It shows whole seconds left, rounded up: the number
		 * changes each time the time left passes a whole second. */
		uint64_t step =
		    t->countdown_ns > now
		        ? (t->countdown_ns - now - 1) % SECOND_NS + 1
		        : 0;
		if (now + step < next)
			next = now + step;
	}
	/* Something due now (or late) is handled after a 1 ms sleep rather
	 * than by a wait that returns at once, over and over. */
	return next > now + 1000000ull ? next : now + 1000000ull;
}

/* SPDX-License-Identifier: MIT */
/*
 * test_dashboard_loop.c - when the dashboard wakes (src/ui/dashboard_loop.c):
 * the deadline for each case (the clock's second, the next sample standing
 * in for it, a notice's end, a countdown's steps), and the wait, which
 * returns for input, data, a signal (also one that came while input was
 * ready), a deadline and a hung-up terminal, and for nothing else.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/notify.h"
#include "ui/dashboard_loop.h"

#define MS 1000000ull
#define S  1000000000ull
/* The second turns 0.7 s from now; the clock is redrawn just after. */
#define TURN (100 * S + 700 * MS + GT_DASHBOARD_LOOP_CLOCK_SLACK_NS)

/* 100 s after boot, 0.3 s into a wall-clock second. */
static struct gt_dashboard_loop_times at(uint64_t interval)
{
	struct gt_dashboard_loop_times t = {
	    .now_ns = 100 * S,
	    .wall_ns = 1700000000 * S + 300 * MS,
	    .interval_ns = interval,
	};
	return t;
}

static void test_clock_second_without_data(void **state)
{
	(void)state;
	struct gt_dashboard_loop_times t = at(S);
	/* Never any data: the next second, 0.7 s away (and the slack). */
	assert_int_equal(gt_dashboard_loop_deadline(&t), TURN);
	/* Data that stopped (a hung driver): the clock ticks on its own. */
	t.last_data_ns = t.now_ns - 1600 * MS;
	assert_int_equal(gt_dashboard_loop_deadline(&t), TURN);
	/* Intervals over a second: each second, whatever the data. */
	t = at(2 * S);
	t.last_data_ns = t.now_ns - 100 * MS;
	assert_int_equal(gt_dashboard_loop_deadline(&t), TURN);
}

static void test_next_sample_draws_the_clock(void **state)
{
	(void)state;
	struct gt_dashboard_loop_times t = at(S);
	/* A sample 0.2 s ago: the next is due 0.1 s after the second
	 * turns; the frame it brings shows the new second. */
	t.last_data_ns = t.now_ns - 200 * MS;
	assert_int_equal(gt_dashboard_loop_deadline(&t),
	                 100 * S + 800 * MS + 50 * MS);
	/* A sample due before the second turns: the second's own wake-up
	 * (that sample's frame comes first and sets the next deadline). */
	t.last_data_ns = t.now_ns - 900 * MS;
	assert_int_equal(gt_dashboard_loop_deadline(&t), TURN);
	/* At 0.1 s the margin is half the interval. */
	t = at(100 * MS);
	t.wall_ns = 1700000000 * S + 990 * MS;
	t.last_data_ns = t.now_ns - 50 * MS;
	assert_int_equal(gt_dashboard_loop_deadline(&t),
	                 100 * S + 50 * MS + 50 * MS);
}

static void test_notice_and_countdown(void **state)
{
	(void)state;
	struct gt_dashboard_loop_times t = at(S);
	t.notice_until_ns = t.now_ns + 200 * MS;
	assert_int_equal(gt_dashboard_loop_deadline(&t), 100 * S + 200 * MS);
	/* A notice already over, or later than the clock: the clock. */
	t.notice_until_ns = t.now_ns - 1;
	assert_int_equal(gt_dashboard_loop_deadline(&t), TURN);
	t.notice_until_ns = t.now_ns + 5 * S;
	assert_int_equal(gt_dashboard_loop_deadline(&t), TURN);
	/* 9.6 s left shows "10 s"; "9 s" from 0.6 s on. */
	t.countdown_ns = t.now_ns + 9600 * MS;
	assert_int_equal(gt_dashboard_loop_deadline(&t), 100 * S + 600 * MS);
	/* 9 s left exactly shows "9 s" for a whole second; here the clock
	 * comes first. */
	t.countdown_ns = t.now_ns + 9 * S;
	assert_int_equal(gt_dashboard_loop_deadline(&t), TURN);
	t.countdown_ns = t.now_ns + 100 * MS;
	assert_int_equal(gt_dashboard_loop_deadline(&t), 100 * S + 100 * MS);
	/* Due now or past: a short sleep, never a wait that returns at
	 * once for ever. */
	t.countdown_ns = t.now_ns - S;
	assert_int_equal(gt_dashboard_loop_deadline(&t), 100 * S + MS);
}

struct fixture {
	int in[2]; /* a pipe standing in for the terminal */
	struct gt_notify data;
	struct gt_dashboard_loop lp;
};

/* Counts the SIGWINCHs handled: a handler has no other way out. */
static volatile sig_atomic_t winches;

static void on_winch(int sig)
{
	(void)sig;
	winches++;
}

static int setup_loop(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct sigaction sa;
	if (!f || pipe(f->in) != 0 || gt_notify_open(&f->data) != 0)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_winch;
	sigaction(SIGWINCH, &sa, NULL);
	gt_dashboard_loop_begin(&f->lp, f->in[0], gt_notify_fd(&f->data));
	*state = f;
	return 0;
}

static int teardown_loop(void **state)
{
	struct fixture *f = *state;
	gt_dashboard_loop_end(&f->lp);
	signal(SIGWINCH, SIG_DFL);
	close(f->in[0]);
	if (f->in[1] >= 0)
		close(f->in[1]);
	gt_notify_close(&f->data);
	free(f);
	return 0;
}

static void test_wait_for_each_event(void **state)
{
	struct fixture *f = *state;

	/* Nothing: the deadline, and not before it. */
	uint64_t t0 = gt_monotonic_ns();
	assert_int_equal(gt_dashboard_loop_wait(&f->lp, t0 + 30 * MS),
	                 GT_DASHBOARD_LOOP_DEADLINE);
	assert_true(gt_monotonic_ns() - t0 >= 29 * MS);

	/* Data, until cleared. */
	gt_notify_signal(&f->data);
	assert_int_equal(gt_dashboard_loop_wait(&f->lp, t0 + 10 * S),
	                 GT_DASHBOARD_LOOP_DATA);
	gt_notify_clear(&f->data);

	/* Input, until read. */
	assert_int_equal(write(f->in[1], "q", 1), 1);
	assert_int_equal(gt_dashboard_loop_wait(&f->lp, t0 + 10 * S),
	                 GT_DASHBOARD_LOOP_INPUT);
	char c;
	assert_int_equal(read(f->in[0], &c, 1), 1);

	/* A signal sent while the loop was busy is not lost: it is blocked
	 * until the wait, which it then ends at once. */
	winches = 0;
	raise(SIGWINCH);
	assert_int_equal(winches, 0);
	t0 = gt_monotonic_ns();
	assert_int_equal(gt_dashboard_loop_wait(&f->lp, t0 + 10 * S),
	                 GT_DASHBOARD_LOOP_SIGNAL);
	assert_true(gt_monotonic_ns() - t0 < 5 * S);
	assert_int_equal(winches, 1);

	/* ... nor when input is ready as well: ppoll then returns without
	 * delivering it, and the wait delivers it itself. */
	assert_int_equal(write(f->in[1], "x", 1), 1);
	raise(SIGWINCH);
	assert_int_equal(gt_dashboard_loop_wait(&f->lp, t0 + 10 * S),
	                 GT_DASHBOARD_LOOP_INPUT | GT_DASHBOARD_LOOP_SIGNAL);
	assert_int_equal(winches, 2);
	assert_int_equal(read(f->in[0], &c, 1), 1);
	sigset_t now;
	pthread_sigmask(SIG_SETMASK, NULL, &now);
	assert_true(sigismember(&now, SIGWINCH));
	assert_true(sigismember(&now, SIGTERM));

	/* With data ready and no input the wait says data alone (it asks
	 * for pending signals only when the terminal is ready, the one
	 * descriptor that can stay so for ever), and the signal ends the
	 * next wait at once. */
	gt_notify_signal(&f->data);
	raise(SIGWINCH);
	assert_int_equal(gt_dashboard_loop_wait(&f->lp, t0 + 10 * S),
	                 GT_DASHBOARD_LOOP_DATA);
	assert_int_equal(winches, 2);
	gt_notify_clear(&f->data);
	t0 = gt_monotonic_ns();
	assert_int_equal(gt_dashboard_loop_wait(&f->lp, t0 + 10 * S),
	                 GT_DASHBOARD_LOOP_SIGNAL);
	assert_true(gt_monotonic_ns() - t0 < 5 * S);
	assert_int_equal(winches, 3);

	/* The terminal gone: said once, then no longer polled. */
	close(f->in[1]);
	f->in[1] = -1;
	assert_int_equal(gt_dashboard_loop_wait(&f->lp, t0 + 10 * S),
	                 GT_DASHBOARD_LOOP_HANGUP);
	t0 = gt_monotonic_ns();
	assert_int_equal(gt_dashboard_loop_wait(&f->lp, t0 + 20 * MS),
	                 GT_DASHBOARD_LOOP_DEADLINE);
}

/* A terminal whose other side closed (a killed tmux pane, a dropped ssh
 * connection) polls as readable and hung up at once, for ever. */
static void test_wait_terminal_hangup(void **state)
{
	struct gt_dashboard_loop lp;
	(void)state;

	int master = posix_openpt(O_RDWR | O_NOCTTY);
	assert_true(master >= 0);
	assert_int_equal(grantpt(master), 0);
	assert_int_equal(unlockpt(master), 0);
	int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	assert_true(slave >= 0);
	gt_dashboard_loop_begin(&lp, slave, -1);
	uint64_t t0 = gt_monotonic_ns();
	assert_int_equal(gt_dashboard_loop_wait(&lp, t0 + 20 * MS),
	                 GT_DASHBOARD_LOOP_DEADLINE);
	close(master);
	assert_int_equal(
	    gt_dashboard_loop_wait(&lp, t0 + 10 * S) &
	        (GT_DASHBOARD_LOOP_HANGUP | GT_DASHBOARD_LOOP_INPUT),
	    GT_DASHBOARD_LOOP_HANGUP);
	/* Not polled again: the next wait sleeps to its deadline. */
	t0 = gt_monotonic_ns();
	assert_int_equal(gt_dashboard_loop_wait(&lp, t0 + 20 * MS),
	                 GT_DASHBOARD_LOOP_DEADLINE);
	assert_true(gt_monotonic_ns() - t0 >= 19 * MS);
	gt_dashboard_loop_end(&lp);
	close(slave);
}

static void test_wait_without_data_descriptor(void **state)
{
	struct fixture *f = *state;
	struct gt_dashboard_loop lp;
	(void)f;

	/* No collector descriptor: a timer as before, at most 100 ms. */
	gt_dashboard_loop_begin(&lp, f->in[0], -1);
	uint64_t t0 = gt_monotonic_ns();
	assert_int_equal(gt_dashboard_loop_wait(&lp, t0 + 10 * S),
	                 GT_DASHBOARD_LOOP_DEADLINE);
	uint64_t took = gt_monotonic_ns() - t0;
	gt_dashboard_loop_end(&lp);
	assert_true(took >= 90 * MS && took < 5 * S);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_clock_second_without_data),
	    cmocka_unit_test(test_next_sample_draws_the_clock),
	    cmocka_unit_test(test_notice_and_countdown),
	    cmocka_unit_test_setup_teardown(test_wait_for_each_event,
	                                    setup_loop, teardown_loop),
	    cmocka_unit_test(test_wait_terminal_hangup),
	    cmocka_unit_test_setup_teardown(test_wait_without_data_descriptor,
	                                    setup_loop, teardown_loop),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

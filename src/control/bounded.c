/* SPDX-License-Identifier: MIT */
/*
 * bounded.c - a call on a thread of its own, waited for with a deadline
 * and left behind when it does not return (bounded.h). The job is shared
 * by its caller and its thread until one of them is the last to need it:
 * the caller after the call returned, the thread after it was abandoned.
 */
#include "control/bounded.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>

#include "core/clock.h"

struct gt_bounded {
	gt_bounded_fn *fn;
	void *arg;
	void (*release)(void *arg);
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond; /* on the monotonic clock */
	bool done, abandoned;
};

static void job_free(struct gt_bounded *b)
{
	pthread_cond_destroy(&b->cond);
	pthread_mutex_destroy(&b->lock);
	free(b);
}

static void *job_main(void *p)
{
	struct gt_bounded *b = p;

	b->fn(b->arg);
	pthread_mutex_lock(&b->lock);
	b->done = true;
	bool mine = b->abandoned;
	pthread_cond_signal(&b->cond);
	pthread_mutex_unlock(&b->lock);
	if (mine) {
		/* Nobody waits any more: the thread ends the job. */
		if (b->release)
			b->release(b->arg);
		job_free(b);
	}
	return NULL;
}

struct gt_bounded *gt_bounded_start(gt_bounded_fn *fn, void *arg)
{
	struct gt_bounded *b = calloc(1, sizeof(*b));
	pthread_condattr_t attr;
	sigset_t all, old;

	if (!b)
		return NULL;
	b->fn = fn;
	b->arg = arg;
	pthread_mutex_init(&b->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&b->cond, &attr);
	pthread_condattr_destroy(&attr);
	/* Signals stay with the caller's thread, which watches for stops. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	int rc = pthread_create(&b->thread, NULL, job_main, b);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		job_free(b);
		return NULL;
	}
	return b;
}

bool gt_bounded_wait(struct gt_bounded *b, uint64_t deadline_ns,
                     gt_bounded_stop_fn *stop, void *ctx)
{
	bool stop_seen = false;

	pthread_mutex_lock(&b->lock);
	for (;;) {
		uint64_t now = gt_monotonic_ns();
		if (b->done || now >= deadline_ns)
			break;
		if (!stop_seen && stop && stop(ctx)) {
			stop_seen = true;
			if (now + GT_BOUNDED_STOP_GRACE_NS < deadline_ns)
				deadline_ns = now + GT_BOUNDED_STOP_GRACE_NS;
		}
		/* The stop rule: looked at 20 times a second. */
		uint64_t until = now + 50000000ull;
		if (until > deadline_ns)
			until = deadline_ns;
		struct timespec ts = {(time_t)(until / 1000000000ull),
		                      (long)(until % 1000000000ull)};
		pthread_cond_timedwait(&b->cond, &b->lock, &ts);
	}
	bool done = b->done;
	pthread_mutex_unlock(&b->lock);
	return done;
}

bool gt_bounded_done(struct gt_bounded *b)
{
	pthread_mutex_lock(&b->lock);
	bool done = b->done;
	pthread_mutex_unlock(&b->lock);
	return done;
}

void gt_bounded_free(struct gt_bounded *b)
{
	if (!b)
		return;
	pthread_join(b->thread, NULL);
	job_free(b);
}

bool gt_bounded_abandon(struct gt_bounded *b, void (*release)(void *arg))
{
	pthread_t t = b->thread;

	pthread_mutex_lock(&b->lock);
	if (b->done) {
		pthread_mutex_unlock(&b->lock);
		gt_bounded_free(b);
		return true;
	}
	b->release = release;
	b->abandoned = true;
	pthread_mutex_unlock(&b->lock);
	/* From here on b is the thread's (it may be gone already). */
	pthread_detach(t);
	return false;
}

int gt_bounded_run(gt_bounded_fn *fn, void *arg, void (*release)(void *arg),
                   uint64_t timeout_ns, gt_bounded_stop_fn *stop, void *ctx)
{
	struct gt_bounded *b = gt_bounded_start(fn, arg);

	if (!b) {
		fn(arg);
		return 0;
	}
	if (gt_bounded_wait(b, gt_monotonic_ns() + timeout_ns, stop, ctx)) {
		gt_bounded_free(b);
		return 0;
	}
	return gt_bounded_abandon(b, release) ? 0 : -1;
}

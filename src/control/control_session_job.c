/* SPDX-License-Identifier: MIT */
/*
 * control_session_job.c - how the control session is entered
 * (control_session_priv.h's lock helpers) and its jobs (control_session.h):
 * each write, restore and fan-loop step runs on a thread of its own
 * (bounded.h), so that a driver that never answers holds only that thread
 * and the session's lock. A job given up on makes the session stuck: from
 * then on nothing waits for the lock, and everything that needs it says
 * why at once.
 */
#include "control/control_session.h"
#include "control/control_session_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/collector.h"

/* How long a reader waits for a holder that is in a driver call. */
#define QUICK_PATIENCE_NS 200000000ull

const char gt_control_session_stuck_why[] =
    "the driver has not answered an earlier write, so gputop writes "
    "nothing more: that setting may or may not have changed; its original "
    "stays in the restore journal, and gputop's restore guardian puts the "
    "originals back (gputop --restore retries)";

static void nap_1ms(void)
{
	const struct timespec ts = {0, 1000000};
	nanosleep(&ts, NULL);
}

static void took(struct gt_control_session *s)
{
	atomic_store(&s->busy_since, gt_monotonic_ns());
}

bool gt_control_session_lock(struct gt_control_session *s)
{
	for (;;) {
		if (pthread_mutex_trylock(&s->lock) == 0) {
			took(s);
			return true;
		}
		if (atomic_load(&s->stuck) > 0)
			return false;
		nap_1ms();
	}
}

bool gt_control_session_lock_quick(struct gt_control_session *s,
                                   struct gt_collector *c)
{
	for (;;) {
		if (pthread_mutex_trylock(&s->lock) == 0) {
			took(s);
			return true;
		}
		uint64_t since = atomic_load(&s->busy_since);
		if (atomic_load(&s->stuck) > 0 ||
		    (since && gt_monotonic_ns() - since > QUICK_PATIENCE_NS) ||
		    (c && gt_collector_stopping(c)))
			return false;
		nap_1ms();
	}
}

static void publish_notice(struct gt_control_session *s, const char *msg)
{
	pthread_mutex_lock(&s->pub_lock);
	snprintf(s->pub_notice, sizeof(s->pub_notice), "%s", msg);
	atomic_store(&s->notice_pub, true);
	pthread_mutex_unlock(&s->pub_lock);
}

void gt_control_session_publish_journal(struct gt_control_session *s,
                                        const struct gt_restore_journal *j)
{
	pthread_mutex_lock(&s->pub_lock);
	if (j) {
		/* The records in use only: the journal is large. */
		size_t n = j->n < GT_RESTORE_MAX_ACTIONS
		               ? j->n
		               : GT_RESTORE_MAX_ACTIONS;
		memcpy(s->pub_journal.root, j->root, sizeof(j->root));
		memcpy(s->pub_journal.a, j->a, n * sizeof(j->a[0]));
		s->pub_journal.n = n;
	} else {
		s->pub_journal.n = 0;
	}
	pthread_mutex_unlock(&s->pub_lock);
}

void gt_control_session_unlock(struct gt_control_session *s)
{
	gt_control_session_publish_journal(s, gt_control_journal(s->ctl));
	atomic_store(&s->npending, gt_control_pending(s->ctl));
	atomic_store(&s->changed_pub, s->changed);
	bool idle = !s->guardian;
	for (size_t i = 0; idle && i < s->nloops; i++)
		idle = !s->loops[i].active;
	atomic_store(&s->tick_idle, idle);
	if (s->notice[0]) {
		publish_notice(s, s->notice);
		s->notice[0] = '\0';
	}
	atomic_store(&s->busy_since, 0);
	pthread_mutex_unlock(&s->lock);
}

bool gt_control_session_stuck(struct gt_control_session *s)
{
	return atomic_load(&s->stuck) > 0;
}

/* ---- the tick --------------------------------------------------------- */

static bool collector_stopping(void *ctx)
{
	return gt_collector_stopping(ctx);
}

void gt_control_session_tick(struct gt_control_session *s,
                             struct gt_collector *c, uint64_t now_ns)
{
	bool loops = false;

	if (atomic_load(&s->tick_idle))
		return;
	if (!gt_control_session_lock_quick(s, c))
		return; /* a write holds it: no step, no heartbeat */
	for (size_t i = 0; i < s->nloops; i++)
		loops |= s->loops[i].active;
	if (!loops) {
		/* The heartbeat alone writes nothing to a driver. */
		gt_control_session_tick_locked(s, c, now_ns);
		gt_control_session_unlock(s);
		return;
	}
	gt_control_session_unlock(s);
	/* The loops write: not on the collector's thread, which must go on
	 * sampling and stop when asked, whatever a driver does. */
	struct gt_control_job *j = calloc(1, sizeof(*j));
	if (!j)
		return;
	j->kind = GT_CONTROL_JOB_TICK;
	j->col = c;
	j->now_ns = now_ns;
	gt_control_session_run(s, j, GT_BOUNDED_WRITE_TIMEOUT_NS,
	                       collector_stopping, c);
	free(j);
}

/* ---- jobs ------------------------------------------------------------- */

struct gt_control_task {
	struct gt_control_session *s;
	struct gt_bounded *b; /* NULL: the job ran on the caller's thread */
	struct gt_control_job job;
};

static void job_refuse(struct gt_control_job *j, const char *why)
{
	memset(j->res, 0, sizeof(j->res));
	j->nres = j->kind == GT_CONTROL_JOB_RESTORE ? 0 : 1;
	j->res[0].rc = GT_CONTROL_REFUSED;
	snprintf(j->res[0].err, sizeof(j->res[0].err), "%s", why);
	j->rc = -1;
	snprintf(j->report, sizeof(j->report), "%s", why);
}

static void job_run(struct gt_control_session *s, struct gt_control_job *j)
{
	size_t n = j->n < GT_CONTROL_JOB_MAX ? j->n : GT_CONTROL_JOB_MAX;

	switch (j->kind) {
	case GT_CONTROL_JOB_APPLY:
		j->nres = 1;
		gt_control_session_apply(s, &j->ch[0], &j->res[0]);
		break;
	case GT_CONTROL_JOB_APPLY_LIST:
		j->nres = gt_control_session_apply_list(
		    s, j->ch, j->rev, j->rev_known, n, j->res);
		break;
	case GT_CONTROL_JOB_REVERT:
		j->nres = gt_control_session_revert_list(
		    s, j->rev, j->rev_known, n, j->res);
		break;
	case GT_CONTROL_JOB_RESTORE:
		j->rc = gt_control_session_restore_all(s, j->report,
		                                       sizeof(j->report));
		break;
	case GT_CONTROL_JOB_TICK:
		if (gt_control_session_lock(s)) {
			gt_control_session_tick_locked(s, j->col, j->now_ns);
			gt_control_session_unlock(s);
		}
		break;
	}
}

static void task_main(void *arg)
{
	struct gt_control_task *t = arg;
	job_run(t->s, &t->job);
}

/* The thread of a task given up on, when it came back after all. */
static void task_release(void *arg)
{
	struct gt_control_task *t = arg;
	/* The last touch of the session: it may be freed right after. */
	atomic_fetch_sub(&t->s->stuck, 1);
	free(t);
}

struct gt_control_task *
gt_control_session_start(struct gt_control_session *s,
                         const struct gt_control_job *job)
{
	struct gt_control_task *t = malloc(sizeof(*t));

	if (!t)
		return NULL;
	t->s = s;
	t->job = *job;
	t->b = gt_bounded_start(task_main, t);
	if (!t->b)
		task_main(t); /* no thread: here, unbounded */
	return t;
}

bool gt_control_task_wait(struct gt_control_task *t, uint64_t deadline_ns,
                          gt_bounded_stop_fn *stop, void *ctx)
{
	return !t->b || gt_bounded_wait(t->b, deadline_ns, stop, ctx);
}

bool gt_control_task_done(struct gt_control_task *t)
{
	return !t->b || gt_bounded_done(t->b);
}

void gt_control_task_finish(struct gt_control_task *t,
                            struct gt_control_job *out)
{
	gt_bounded_free(t->b);
	if (out)
		*out = t->job;
	free(t);
}

bool gt_control_task_abandon(struct gt_control_task *t,
                             struct gt_control_job *out)
{
	struct gt_control_session *s = t->s;
	char msg[GT_CONTROL_RESULT_MAX + 96];

	if (!t->b) {
		gt_control_task_finish(t, out);
		return true;
	}
	bool tick = t->job.kind == GT_CONTROL_JOB_TICK;
	/* Counted first: the thread may come back and uncount it at once. */
	atomic_fetch_add(&s->stuck, 1);
	if (gt_bounded_abandon(t->b, task_release)) {
		atomic_fetch_sub(&s->stuck, 1);
		t->b = NULL;
		gt_control_task_finish(t, out);
		return true;
	}
	/* t is the thread's now. The dialogs and the command line say what
	 * their own job did; the fan loops have only the notice line. */
	if (tick) {
		snprintf(msg, sizeof(msg),
		         "fan loop: the driver did not answer a fan write "
		         "within %llu s; the loops stop, and the restore "
		         "guardian hands the fans back",
		         (unsigned long long)(GT_BOUNDED_WRITE_TIMEOUT_NS /
		                              1000000000ull));
		publish_notice(s, msg);
	}
	return false;
}

int gt_control_session_run(struct gt_control_session *s,
                           struct gt_control_job *job, uint64_t timeout_ns,
                           gt_bounded_stop_fn *stop, void *ctx)
{
	struct gt_control_task *t = gt_control_session_start(s, job);

	if (!t) {
		job_refuse(job, "out of memory");
		return 0;
	}
	if (gt_control_task_wait(t, gt_monotonic_ns() + timeout_ns, stop,
	                         ctx)) {
		gt_control_task_finish(t, job);
		return 0;
	}
	return gt_control_task_abandon(t, job) ? 0 : -1;
}

/* SPDX-License-Identifier: MIT */
/*
 * collector.c - probing, the sampling schedule and publication (see
 * collector.h). Owns the backends, the per-device rings and the process
 * info cache; everything readers see goes through a ring or a gt_pub.
 */
#include "core/collector.h"

#include <errno.h>
#include <semaphore.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/notify.h"

/* One device as the collector tracks it. */
struct gt_device {
	struct gt_backend *backend;
	unsigned backend_dev; /* the backend's own index */
	bool lost;
	uint64_t retry_ns; /* lost: when to ask it again (monotonic ns) */
	struct gt_ring samples;
};

struct gt_collector {
	struct gt_collector_config cfg;
	const struct gt_platform *pf;
	struct gt_backend backends[GT_MAX_BACKENDS];
	size_t nbackends;
	struct gt_device *devices;
	size_t ndevices;
	struct gt_pub devlist;   /* const struct gt_devlist * */
	struct gt_pub proclist;  /* const struct gt_proclist * */
	struct gt_notify notify; /* signalled after every round */
	struct gt_procinfo *procinfo;
	struct gt_fdinfo *fdinfo;     /* shared by the DRM backends */
	bool uses_fdinfo;             /* some backend with devices reads it */
	struct gt_proc_vec scratch;   /* collector-thread-only */
	struct gt_prochist *prochist; /* per-process history; may be NULL */
	_Atomic uint64_t interval_ns;
	uint64_t tick;
	_Atomic uint64_t ticks_done; /* rounds finished (any thread) */
	/* The last finished round: when it ended and how long it took
	 * (monotonic ns), for the exporter's health series. */
	_Atomic uint64_t round_end_ns, round_took_ns;
	/* Whole frames a dashboard drew on this collector and the CPU time
	 * they took (for the exporter). */
	_Atomic uint64_t frames, frame_cpu_ns;
	uint64_t next_proc_ns, next_slow_ns;
	uint64_t devlist_generation;
	/* Set under hook_lock, which the collector thread holds while the
	 * hook runs (a stop only tries it: a hook that waits for a driver
	 * must not keep a stop waiting). */
	pthread_mutex_t hook_lock;
	gt_tick_hook_fn hook;
	void *hook_ctx;
	/* Non-zero: wake at least this often, whatever the interval (a fan
	 * loop must run and heartbeat every second). */
	_Atomic uint64_t max_sleep_ns;
	pthread_t thread;
	bool running;
	/* Held for each whole tick: gt_collector_quiesce waits for the tick
	 * in progress, so nothing is inside a driver library while another
	 * thread forks. */
	pthread_mutex_t tick_lock;
	/* Set by gt_collector_stop: the tick in progress skips what is left
	 * of it (read by the collector thread between devices), and the
	 * thread ends; stop_sem, posted then, ends its sleep. A semaphore,
	 * not a condition variable: a timed wait on one leaves its mutex
	 * marked contended, and unlocking that cost a futex wake-up, a
	 * system call every round for nobody. */
	atomic_bool stopping;
	sem_t stop_sem;
	/* gt_collector_stop left behind a thread stuck in a driver call:
	 * nothing it may still touch is freed (the process is ending). */
	bool abandoned;
};

/* How long gt_collector_stop waits for the tick in progress before it
 * leaves a thread stuck in a driver call behind. */
#define GT_COLLECTOR_STOP_WAIT_NS 500000000ll

static void devlist_free(void *obj)
{
	free(obj);
}

static void proclist_free(void *obj)
{
	struct gt_proclist *pl = obj;
	for (size_t i = 0; i < pl->count; i++)
		free(pl->items[i].cmdline);
	free(pl->items);
	free(pl->mig);
	free(pl);
}

static uint64_t at_least(uint64_t v, uint64_t min)
{
	return v < min ? min : v;
}

/* A device that stopped answering: the collector asks it again once every
 * GT_LOST_RETRY_NS (a GPU back after a reset), never more often, so a
 * driver slow to fail costs the other devices one call per period. */
static void mark_lost(struct gt_device *d, uint64_t now)
{
	d->lost = true;
	d->retry_ns = now + GT_LOST_RETRY_NS;
}

/* Reads every device's facts and publishes them as a new devlist. */
static int publish_devlist(struct gt_collector *c)
{
	struct gt_devlist *dl =
	    calloc(1, sizeof(*dl) + c->ndevices * sizeof(dl->items[0]));
	if (!dl)
		return -1;
	dl->count = c->ndevices;
	dl->generation = ++c->devlist_generation;
	for (size_t i = 0; i < c->ndevices; i++) {
		struct gt_device *d = &c->devices[i];
		struct gt_static *st = &dl->items[i];
		gt_static_init(st);
		if (d->backend->ops->get_static(d->backend, d->backend_dev,
		                                st) < 0 &&
		    !d->lost)
			mark_lost(d, gt_monotonic_ns());
		st->index = (unsigned)i;
	}
	gt_pub_publish(&c->devlist, dl);
	return 0;
}

static void probe_backends(struct gt_collector *c)
{
	const struct gt_backend_ops *const *table = c->pf->backends;
	size_t n = c->pf->nbackends;

	if (c->cfg.demo) {
		table = &c->pf->demo;
		n = 1;
	}
	for (size_t i = 0; i < n && c->nbackends < GT_MAX_BACKENDS; i++) {
		struct gt_backend *b = &c->backends[c->nbackends++];
		memset(b, 0, sizeof(*b));
		b->ops = table[i];
		b->ops->probe(b, &c->cfg.backend);
		if (b->status != GT_BACKEND_OK)
			b->device_count = 0;
		if (b->device_count && b->ops->uses_fdinfo)
			c->uses_fdinfo = true;
	}
}

static int alloc_devices(struct gt_collector *c)
{
	size_t total = 0;
	for (size_t i = 0; i < c->nbackends; i++)
		total += c->backends[i].device_count;
	c->devices = calloc(total ? total : 1, sizeof(*c->devices));
	if (!c->devices)
		return -1;
	for (size_t i = 0; i < c->nbackends; i++) {
		struct gt_backend *b = &c->backends[i];
		for (unsigned j = 0; j < b->device_count; j++) {
			struct gt_device *d = &c->devices[c->ndevices];
			d->backend = b;
			d->backend_dev = j;
			if (gt_ring_init(&d->samples, GT_RING_SAMPLES,
			                 sizeof(struct gt_sample)) < 0)
				return -1;
			c->ndevices++;
		}
	}
	return 0;
}

struct gt_collector *gt_collector_open(const struct gt_collector_config *cfg)
{
	struct gt_collector *c;

	if (!cfg->platform)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->cfg = *cfg;
	c->pf = cfg->platform;
	if (c->cfg.interval_ns == 0)
		c->cfg.interval_ns = GT_INTERVAL_DEFAULT_NS;
	c->cfg.interval_ns = at_least(c->cfg.interval_ns, GT_INTERVAL_MIN_NS);
	if (c->cfg.proc_interval_ns == 0)
		c->cfg.proc_interval_ns =
		    at_least(2 * c->cfg.interval_ns, 1000000000ull);
	if (c->cfg.slow_interval_ns == 0)
		c->cfg.slow_interval_ns =
		    at_least(5 * c->cfg.interval_ns, 5000000000ull);
	atomic_init(&c->interval_ns, c->cfg.interval_ns);
	atomic_init(&c->stopping, false);
	gt_pub_init(&c->devlist, devlist_free);
	gt_pub_init(&c->proclist, proclist_free);
	c->prochist = gt_prochist_new(); /* without it: no history, no more */
	sem_init(&c->stop_sem, 0, 0);
	pthread_mutex_init(&c->tick_lock, NULL);
	pthread_mutex_init(&c->hook_lock, NULL);
	/* Without it (no descriptor left) readers fall back to waking on a
	 * timer: gt_collector_notify_fd says -1. */
	gt_notify_open(&c->notify);

	/* The fdinfo scanner is shared by the DRM backends through their
	 * options; the collector owns it and drives it once per round. */
	c->fdinfo = c->pf->fdinfo_new(c->cfg.backend.procfs_root);
	c->cfg.backend.fdinfo = c->fdinfo;
	probe_backends(c);
	c->procinfo = c->pf->procinfo_new(c->cfg.backend.procfs_root);
	if (!c->fdinfo || !c->procinfo || alloc_devices(c) < 0 ||
	    publish_devlist(c) < 0) {
		gt_collector_close(c);
		return NULL;
	}
	return c;
}

void gt_collector_close(struct gt_collector *c)
{
	if (!c)
		return;
	gt_collector_stop(c);
	if (c->abandoned)
		return; /* its thread may still use all of it */
	for (size_t i = 0; i < c->ndevices; i++)
		gt_ring_destroy(&c->devices[i].samples);
	free(c->devices);
	for (size_t i = 0; i < c->nbackends; i++)
		if (c->backends[i].ops->shutdown)
			c->backends[i].ops->shutdown(&c->backends[i]);
	gt_pub_destroy(&c->devlist);
	gt_pub_destroy(&c->proclist);
	gt_prochist_free(c->prochist);
	gt_proc_vec_free(&c->scratch);
	if (c->procinfo)
		c->pf->procinfo_free(c->procinfo);
	if (c->fdinfo)
		c->pf->fdinfo_free(c->fdinfo);
	sem_destroy(&c->stop_sem);
	pthread_mutex_destroy(&c->tick_lock);
	pthread_mutex_destroy(&c->hook_lock);
	gt_notify_close(&c->notify);
	free(c);
}

static bool sample_devices(struct gt_collector *c, bool slow, uint64_t tick)
{
	bool facts_changed = false;
	uint64_t now = gt_monotonic_ns();
	for (size_t i = 0; i < c->ndevices; i++) {
		struct gt_device *d = &c->devices[i];
		struct gt_sample s;
		if (atomic_load(&c->stopping))
			break; /* nobody will read this round */
		gt_sample_init(&s);
		if (!d->lost || now >= d->retry_ns) {
			bool was_lost = d->lost;
			/* Back: everything asked again, facts included. */
			int rc = d->backend->ops->sample(
			    d->backend, d->backend_dev, &s, slow || was_lost);
			if (rc < 0)
				mark_lost(d, now);
			else
				d->lost = false;
			if (rc > 0 || (was_lost && !d->lost))
				facts_changed = true;
		}
		if (d->lost) {
			/* Keep pushing: readers see the device is still
			 * being watched, and why it has no values. */
			gt_sample_init(&s);
			gt_sample_fail_all(&s, GT_WHY_LOST);
			s.state = GT_DEV_LOST;
		}
		s.monotonic_ns = gt_monotonic_ns();
		s.seq = tick;
		gt_ring_push(&d->samples, &s);
	}
	return facts_changed;
}

static int compare_proc(const void *a, const void *b)
{
	const struct gt_process *pa = a, *pb = b;
	if (pa->device_index != pb->device_index)
		return pa->device_index < pb->device_index ? -1 : 1;
	return (pa->pid > pb->pid) - (pa->pid < pb->pid);
}

static int compare_pid(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* Parents read this round, so siblings under one launcher read each
 * ancestor's stat once. */
struct parent_memo {
	int32_t pid[256], ppid[256];
	int n;
};

static int32_t parent_of(struct gt_collector *c, struct parent_memo *m,
                         int32_t pid)
{
	int32_t up = 0;
	for (int i = 0; i < m->n; i++)
		if (m->pid[i] == pid)
			return m->ppid[i];
	if (c->pf->procinfo_parent(c->procinfo, pid, &up) != 0 || up < 0)
		up = 0;
	if (m->n < 256) {
		m->pid[m->n] = pid;
		m->ppid[m->n++] = up;
	}
	return up;
}

/* Completes each process's ancestry past parents that hold no GPU, up to
 * the first ancestor that does (where the tree view hangs it), init, or
 * GT_PROC_ANCESTRY levels. */
static void fill_ancestry(struct gt_collector *c, struct gt_proc_vec *vec)
{
	struct parent_memo *memo;
	int32_t *pids;

	if (!c->pf->procinfo_parent || vec->count == 0)
		return;
	pids = malloc(vec->count * sizeof(*pids));
	memo = malloc(sizeof(*memo));
	if (pids && memo) {
		memo->n = 0;
		for (size_t i = 0; i < vec->count; i++)
			pids[i] = vec->items[i].pid;
		qsort(pids, vec->count, sizeof(*pids), compare_pid);
		for (size_t i = 0; i < vec->count; i++) {
			int32_t *a = vec->items[i].ancestry;
			for (int k = 1; k < GT_PROC_ANCESTRY && a[k - 1] > 1 &&
			                !bsearch(&a[k - 1], pids, vec->count,
			                         sizeof(*pids), compare_pid);
			     k++)
				a[k] = parent_of(c, memo, a[k - 1]);
		}
	}
	free(pids);
	free(memo);
}

static void collect_processes(struct gt_collector *c, uint64_t tick)
{
	struct gt_proc_vec *vec = &c->scratch;
	uint64_t now = gt_monotonic_ns();

	gt_proc_vec_clear(vec);
	vec->unreadable = 0;
	for (size_t i = 0; i < c->ndevices; i++) {
		struct gt_device *d = &c->devices[i];
		size_t first = vec->count, mfirst = vec->mig_count;
		if (d->lost || !d->backend->ops->processes)
			continue;
		if (d->backend->ops->processes(d->backend, d->backend_dev,
		                               vec) < 0) {
			mark_lost(d, now);
			continue;
		}
		for (size_t j = first; j < vec->count; j++) {
			vec->items[j].device_index = (unsigned)i;
			struct gt_process *p = &vec->items[j];
			if (!p->host_known)
				c->pf->procinfo_fill(c->procinfo, p, now);
			/* /proc cannot see it: the driver's name, marked. */
			if (!p->host_known && !p->name[0] &&
			    d->backend->ops->process_name &&
			    d->backend->ops->process_name(d->backend, p->pid,
			                                  p->name,
			                                  sizeof(p->name)) == 0)
				p->name_from_driver = p->name[0] != '\0';
		}
		for (size_t j = mfirst; j < vec->mig_count; j++)
			vec->mig[j].device_index = (unsigned)i;
	}
	fill_ancestry(c, vec);
	c->pf->procinfo_sweep(c->procinfo, now);
	if (vec->count > 1)
		qsort(vec->items, vec->count, sizeof(vec->items[0]),
		      compare_proc);
	if (c->prochist)
		gt_prochist_update(c->prochist, vec->items, vec->count, now);

	struct gt_proclist *pl = calloc(1, sizeof(*pl));
	if (!pl)
		return; /* keep the previous list: better stale than empty */
	pl->seq = tick;
	pl->monotonic_ns = now;
	/* Hand the scratch array over to the published list. */
	pl->items = vec->items;
	pl->count = vec->count;
	pl->unreadable = vec->unreadable;
	pl->mig = vec->mig;
	pl->mig_count = vec->mig_count;
	vec->items = NULL;
	vec->count = 0;
	vec->cap = 0;
	vec->mig = NULL;
	vec->mig_count = 0;
	vec->mig_cap = 0;
	gt_pub_publish(&c->proclist, pl);
}

void gt_collector_tick(struct gt_collector *c, enum gt_tick_what what)
{
	pthread_mutex_lock(&c->tick_lock);
	uint64_t now = gt_monotonic_ns();
	bool all = what == GT_TICK_ALL;
	bool slow = all || now >= c->next_slow_ns;
	bool procs = all || now >= c->next_proc_ns;
	uint64_t tick = c->tick++;

	if (slow)
		c->next_slow_ns = now + c->cfg.slow_interval_ns;
	if (procs)
		c->next_proc_ns = now + c->cfg.proc_interval_ns;
	/* fdinfo first: DRM backends derive device busy time from it in
	 * sample(). Only they use it; an NVIDIA-only machine never walks
	 * every process's file descriptors. */
	if (procs && c->uses_fdinfo)
		c->pf->fdinfo_update(c->fdinfo, now, false);
	if (sample_devices(c, slow, tick))
		publish_devlist(c);
	/* The hook goes before the process round: a fan loop should not wait
	 * for /proc walks. The lock only excludes gt_collector_set_hook. */
	pthread_mutex_lock(&c->hook_lock);
	if (c->hook)
		c->hook(c->hook_ctx, c, now);
	pthread_mutex_unlock(&c->hook_lock);
	if (procs && !atomic_load(&c->stopping))
		collect_processes(c, tick);
	uint64_t end = gt_monotonic_ns();
	atomic_store(&c->round_took_ns, end - now);
	atomic_store(&c->round_end_ns, end);
	atomic_fetch_add(&c->ticks_done, 1);
	pthread_mutex_unlock(&c->tick_lock);
	/* After the round is published: a reader woken by it finds it. */
	gt_notify_signal(&c->notify);
}

bool gt_collector_wait_first_tick(struct gt_collector *c, uint64_t timeout_ns)
{
	const struct timespec step = {0, 2000000};
	uint64_t deadline = gt_monotonic_ns() + timeout_ns;
	while (atomic_load(&c->ticks_done) == 0) {
		uint64_t now = gt_monotonic_ns();
		if (now >= deadline)
			return false;
		/* Woken by the round's signal, which stays set for the
		 * dashboard; 2 ms steps without one. */
		if (gt_notify_fd(&c->notify) >= 0)
			gt_notify_wait(
			    &c->notify,
			    (int)((deadline - now + 999999) / 1000000));
		else
			nanosleep(&step, NULL);
	}
	return true;
}

uint64_t gt_collector_align(uint64_t due_ns, uint64_t mono_now,
                            uint64_t wall_now, uint64_t iv)
{
	const uint64_t second = 1000000000ull;
	uint64_t step;

	if (iv && second % iv == 0)
		step = iv;
	else if (iv && iv % second == 0)
		step = second;
	else
		return due_ns;
	/* The wall clock at due_ns, less the phase: a multiple of step is a
	 * point of the grid. (A wall clock set behind the monotonic one
	 * wraps this: the grid is then off, the pace is not.) */
	uint64_t wall_due =
	    due_ns + (wall_now - mono_now) - GT_COLLECTOR_PHASE_NS;
	uint64_t off = wall_due % step;
	if (off == 0)
		return due_ns;
	return off < step / 2 ? due_ns - off : due_ns + (step - off);
}

/* The next round's start on the wall clock's grid; now is the monotonic
 * clock's reading. */
static uint64_t aligned_due(struct timespec next, struct timespec now,
                            uint64_t iv)
{
	struct timespec wall;
	clock_gettime(CLOCK_REALTIME, &wall);
	uint64_t mono =
	    (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
	uint64_t due =
	    (uint64_t)next.tv_sec * 1000000000ull + (uint64_t)next.tv_nsec;
	uint64_t walln =
	    (uint64_t)wall.tv_sec * 1000000000ull + (uint64_t)wall.tv_nsec;
	uint64_t at = gt_collector_align(due, mono, walln, iv);
	/* Never in the past: a late round starts now (above). */
	return at > mono ? at : due;
}

static struct timespec timespec_of(uint64_t ns)
{
	return (struct timespec){(time_t)(ns / 1000000000ull),
	                         (long)(ns % 1000000000ull)};
}

/* Sleeps until next, or until a stop posts stop_sem. The deadline is on
 * the monotonic clock, so a wall-clock jump cannot stall or hurry
 * sampling. */
static void sleep_until(struct gt_collector *c, const struct timespec *next)
{
	while (sem_clockwait(&c->stop_sem, CLOCK_MONOTONIC, next) != 0 &&
	       errno == EINTR)
		;
}

static void *collector_main(void *arg)
{
	struct gt_collector *c = arg;
	struct timespec next;
	clock_gettime(CLOCK_MONOTONIC, &next);

	while (!atomic_load(&c->stopping)) {
		gt_collector_tick(c, GT_TICK_SCHEDULED);
		uint64_t iv = atomic_load(&c->interval_ns);
		uint64_t cap = atomic_load(&c->max_sleep_ns);
		if (cap && cap < iv)
			iv = cap;
		next.tv_nsec += (long)(iv % 1000000000ull);
		next.tv_sec += (time_t)(iv / 1000000000ull);
		if (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		/* A tick that overran (slow driver) starts the next one now
		 * instead of trying to catch up with a burst. */
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > next.tv_sec ||
		    (now.tv_sec == next.tv_sec && now.tv_nsec > next.tv_nsec))
			next = now;
		else if (c->cfg.align_to_wall &&
		         iv == atomic_load(&c->interval_ns))
			next = timespec_of(aligned_due(next, now, iv));
		sleep_until(c, &next);
	}
	return NULL;
}

int gt_collector_start(struct gt_collector *c)
{
	int rc;

	if (c->running)
		return 0;
	while (sem_trywait(&c->stop_sem) == 0)
		; /* a stop's post, left from a run before */
	atomic_store(&c->stopping, false);
	/* The thread starts with the asynchronous signals blocked (it
	 * inherits the mask in force at pthread_create), so a resize, a
	 * Ctrl-C or a kill reaches the thread that waits for them in poll
	 * (the dashboard's) and wakes it at once. Faults stay its own. */
	sigset_t all, old;
	sigfillset(&all);
	static const int faults[] = {SIGSEGV, SIGBUS,  SIGFPE, SIGILL,
	                             SIGABRT, SIGTRAP, SIGSYS};
	for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		sigdelset(&all, faults[i]);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&c->thread, NULL, collector_main, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc == 0)
		c->running = true;
	return rc;
}

void gt_collector_stop(struct gt_collector *c)
{
	struct timespec dl;

	if (!c->running)
		return;
	atomic_store(&c->stopping, true);
	sem_post(&c->stop_sem);
	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_nsec += GT_COLLECTOR_STOP_WAIT_NS;
	dl.tv_sec += dl.tv_nsec / 1000000000L;
	dl.tv_nsec %= 1000000000L;
	if (pthread_timedjoin_np(c->thread, NULL, &dl) != 0) {
		/* A driver call that does not return must not keep a stop
		 * signal waiting. The hook goes first, so that the thread,
		 * should the call return, cannot act for a control session
		 * its owner frees; inside the hook the thread holds hook_lock,
		 * and then only waiting is safe: the hook returns soon after
		 * a stop (it watches gt_collector_stopping). */
		if (pthread_mutex_trylock(&c->hook_lock) != 0) {
			pthread_join(c->thread, NULL);
		} else {
			c->hook = NULL;
			c->hook_ctx = NULL;
			pthread_mutex_unlock(&c->hook_lock);
			c->abandoned = true;
		}
	}
	c->running = false;
}

bool gt_collector_abandoned(const struct gt_collector *c)
{
	return c->abandoned;
}

bool gt_collector_stopping(const struct gt_collector *c)
{
	return atomic_load(&c->stopping);
}

void gt_collector_set_interval(struct gt_collector *c, uint64_t interval_ns)
{
	atomic_store(&c->interval_ns,
	             at_least(interval_ns, GT_INTERVAL_MIN_NS));
}

uint64_t gt_collector_interval(const struct gt_collector *c)
{
	return atomic_load(&c->interval_ns);
}

bool gt_collector_last_round(const struct gt_collector *c, uint64_t *end_ns,
                             uint64_t *took_ns)
{
	if (atomic_load(&c->ticks_done) == 0)
		return false;
	*end_ns = atomic_load(&c->round_end_ns);
	*took_ns = atomic_load(&c->round_took_ns);
	return true;
}

void gt_collector_set_hook(struct gt_collector *c, gt_tick_hook_fn fn,
                           void *ctx)
{
	pthread_mutex_lock(&c->hook_lock);
	c->hook = fn;
	c->hook_ctx = ctx;
	pthread_mutex_unlock(&c->hook_lock);
}

void gt_collector_quiesce(struct gt_collector *c)
{
	pthread_mutex_lock(&c->tick_lock);
}

void gt_collector_resume(struct gt_collector *c)
{
	pthread_mutex_unlock(&c->tick_lock);
}

void gt_collector_set_max_sleep(struct gt_collector *c, uint64_t ns)
{
	atomic_store(&c->max_sleep_ns, ns);
}

int gt_collector_latest(const struct gt_collector *c, size_t i,
                        struct gt_sample *out)
{
	uint64_t pos = 0;
	if (i >= c->ndevices)
		return -1;
	return gt_ring_read_latest(&c->devices[i].samples, out, &pos) ==
	               GT_RING_OK
	           ? 0
	           : -1;
}

int gt_collector_notify_fd(const struct gt_collector *c)
{
	return gt_notify_fd(&c->notify);
}

bool gt_collector_notify_clear(struct gt_collector *c)
{
	return gt_notify_clear(&c->notify) > 0;
}

const struct gt_collector_config *
gt_collector_config(const struct gt_collector *c)
{
	return &c->cfg;
}

size_t gt_collector_device_count(const struct gt_collector *c)
{
	return c->ndevices;
}

uint64_t gt_collector_rounds(const struct gt_collector *c)
{
	return atomic_load(&c->ticks_done);
}

void gt_collector_count_frame(struct gt_collector *c, uint64_t cpu_ns)
{
	atomic_fetch_add(&c->frame_cpu_ns, cpu_ns);
	atomic_fetch_add(&c->frames, 1);
}

bool gt_collector_frames(const struct gt_collector *c, uint64_t *frames,
                         uint64_t *cpu_ns)
{
	*frames = atomic_load(&c->frames);
	*cpu_ns = atomic_load(&c->frame_cpu_ns);
	return *frames > 0;
}

const struct gt_backend *gt_collector_backends(const struct gt_collector *c,
                                               size_t *n)
{
	*n = c->nbackends;
	return c->backends;
}

const struct gt_backend *
gt_collector_device_backend(const struct gt_collector *c, size_t dev)
{
	return dev < c->ndevices ? c->devices[dev].backend : NULL;
}

const char *gt_collector_error_text(const struct gt_collector *c, size_t dev,
                                    int code)
{
	struct gt_backend *b =
	    dev < c->ndevices ? c->devices[dev].backend : NULL;

	return b && b->ops->error_text ? b->ops->error_text(b, code) : NULL;
}

const struct gt_ring *gt_collector_ring(const struct gt_collector *c,
                                        size_t dev)
{
	return dev < c->ndevices ? &c->devices[dev].samples : NULL;
}

struct gt_pub *gt_collector_devlist(struct gt_collector *c)
{
	return &c->devlist;
}

struct gt_prochist *gt_collector_prochist(struct gt_collector *c)
{
	return c->prochist;
}

struct gt_pub *gt_collector_proclist(struct gt_collector *c)
{
	return &c->proclist;
}

/* SPDX-License-Identifier: MIT */
/*
 * stress_collector.c - the collector thread running at its fastest interval
 * on the demo machine while three reader threads refresh views as fast as
 * they can and a fourth, as the dashboard does, sleeps until the collector
 * says a round is done. Built with ThreadSanitizer by `make check`; the
 * checks prove every reader sees whole samples in order and whole process
 * lists, and that the sleeping reader is woken for the rounds and finds
 * them published.
 */
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "collectors/registry.h"
#include "core/collector.h"
#include "core/view.h"

struct shared {
	struct gt_collector *c;
	atomic_bool done;
	atomic_ulong errors, refreshes, procs_seen, wakes;
};

/* Sleeps on the collector's "round done" descriptor, then reads: the
 * round that woke it must be there (its samples at least as new). */
static void *waiter(void *arg)
{
	struct shared *sh = arg;
	struct gt_view v;
	int fd = gt_collector_notify_fd(sh->c);

	if (fd < 0 || gt_view_open(&v, sh->c) < 0) {
		atomic_fetch_add(&sh->errors, 1);
		return NULL;
	}
	while (!atomic_load(&sh->done)) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		if (poll(&p, 1, 50) <= 0)
			continue;
		uint64_t rounds = gt_collector_rounds(sh->c);
		if (!gt_collector_notify_clear(sh->c) || rounds == 0)
			atomic_fetch_add(&sh->errors, 1);
		atomic_fetch_add(&sh->wakes, 1);
		gt_view_refresh(&v);
		/* The samples of round rounds - 1 are in (seq counts from 0).
		 */
		for (size_t i = 0; v.devs && i < v.devs->count; i++)
			if (v.latest[i].seq + 1 < rounds)
				atomic_fetch_add(&sh->errors, 1);
	}
	gt_view_close(&v);
	return NULL;
}

static void *reader(void *arg)
{
	struct shared *sh = arg;
	struct gt_view v;
	uint64_t last_seq[8] = {0};

	if (gt_view_open(&v, sh->c) < 0) {
		atomic_fetch_add(&sh->errors, 1);
		return NULL;
	}
	while (!atomic_load(&sh->done)) {
		gt_view_refresh(&v);
		atomic_fetch_add(&sh->refreshes, 1);
		if (!v.devs || v.devs->count != 4) {
			atomic_fetch_add(&sh->errors, 1);
			continue;
		}
		for (size_t i = 0; i < v.devs->count; i++) {
			/* A sample's seq never goes backwards for a reader. */
			if (v.latest[i].seq < last_seq[i])
				atomic_fetch_add(&sh->errors, 1);
			last_seq[i] = v.latest[i].seq;
			if (v.latest[i].monotonic_ns &&
			    !gt_val_ok(&v.latest[i].f[GT_F_MEM_TOTAL]))
				atomic_fetch_add(&sh->errors, 1);
		}
		for (size_t i = 0; v.procs && i < v.procs->count; i++) {
			const struct gt_process *p = &v.procs->items[i];
			if (p->device_index >= v.devs->count || !p->cmdline ||
			    strlen(p->cmdline) == 0)
				atomic_fetch_add(&sh->errors, 1);
			atomic_fetch_add(&sh->procs_seen, 1);
		}
	}
	gt_view_close(&v);
	return NULL;
}

int main(void)
{
	static struct shared sh;
	struct gt_collector_config cfg = {
	    .platform = &gt_registry_platform,
	    .demo = true,
	    .interval_ns = GT_INTERVAL_MIN_NS,
	    .proc_interval_ns = GT_INTERVAL_MIN_NS,
	    .backend = {.demo_seed = 7},
	};
	pthread_t rd[3], wt;

	sh.c = gt_collector_open(&cfg);
	if (!sh.c || gt_collector_device_count(sh.c) != 4) {
		fprintf(stderr,
		        "stress_collector: demo collector did not open\n");
		return 1;
	}
	if (gt_collector_start(sh.c) != 0)
		return 1;
	for (int i = 0; i < 3; i++)
		pthread_create(&rd[i], NULL, reader, &sh);
	pthread_create(&wt, NULL, waiter, &sh);
	usleep(1500 * 1000);
	atomic_store(&sh.done, true);
	for (int i = 0; i < 3; i++)
		pthread_join(rd[i], NULL);
	pthread_join(wt, NULL);
	uint64_t ticks = gt_collector_rounds(sh.c);
	gt_collector_close(sh.c);

	unsigned long errors = atomic_load(&sh.errors);
	unsigned long wakes = atomic_load(&sh.wakes);
	printf("stress_collector: %llu collector ticks, %lu view refreshes, "
	       "%lu process rows read, %lu wake-ups of the sleeping reader, "
	       "%lu inconsistencies\n",
	       (unsigned long long)ticks, atomic_load(&sh.refreshes),
	       atomic_load(&sh.procs_seen), wakes, errors);
	/* At 0.1 s for 1.5 s the thread must have ticked repeatedly, and
	 * woken the sleeping reader for most rounds (signals coalesce); the
	 * lists must have held rows, or their check checked nothing. */
	return errors == 0 && ticks >= 5 && wakes >= ticks / 2 &&
	               atomic_load(&sh.procs_seen) > 0
	           ? 0
	           : 1;
}

/* SPDX-License-Identifier: MIT */
/*
 * bench_prochist.c - the per-process history's cost (`make bench`, part
 * prochist): CPU per process and round for 500 processes (each on one
 * GPU, a tenth on two), rounds of steady state with a process replaced
 * now and then, and the store's fixed size.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "core/prochist.h"

static uint64_t cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void bench_prochist(struct verdicts *vd)
{
	enum { NPROC = 500, EXTRA = 50, ROUNDS = 2000 };
	static struct gt_process procs[NPROC + EXTRA];
	struct gt_prochist *h = gt_prochist_new();

	if (!h) {
		fprintf(stderr, "bench: no memory for the history store\n");
		return;
	}
	for (int i = 0; i < NPROC + EXTRA; i++) {
		struct gt_process *p = &procs[i];
		memset(p, 0, sizeof(*p));
		/* The last EXTRA rows: processes also on a second GPU. */
		p->pid = i < NPROC ? 10000 + i * 7 : 10000 + (i - NPROC) * 7;
		p->start_known = true;
		p->start = (uint64_t)(1000 + (i < NPROC ? i : i - NPROC));
		gt_val_set(&p->f[GT_P_GPU], 100 * (i % 100));
		gt_val_set(&p->f[GT_P_MEM], (int64_t)i << 20);
		gt_val_set(&p->f[GT_P_CPU], 50);
	}
	uint64_t t0 = cpu_now();
	for (int r = 0; r < ROUNDS; r++) {
		/* One process in 100 is replaced every round: a new pid. */
		procs[r % NPROC].pid = 200000 + r;
		gt_prochist_update(h, procs, NPROC + EXTRA,
		                   (uint64_t)r * 2000000000ull);
	}
	double per = (double)(cpu_now() - t0) / ROUNDS / NPROC;
	printf("process history: %d processes (%d on two GPUs), %d rounds\n",
	       NPROC, EXTRA, ROUNDS);
	printf("  %-34s %8.3f us CPU per process and round\n",
	       "update:", per / 1e3);
	printf("  %-34s %8zu processes tracked (expired ones forgotten)\n",
	       "after the run:", gt_prochist_count(h));
	printf("  store, whole: %.2f MiB (%d processes x %d samples of %zu "
	       "bytes); only the slots in use are touched\n",
	       (double)sizeof(*h) / (1024.0 * 1024.0), GT_PROCHIST_MAX,
	       GT_PROCHIST_SAMPLES, sizeof(struct gt_prochist_sample));
	judge_at_most(vd, "process history per process and round", per / 1e3,
	              10, "us");
	gt_prochist_free(h);
}

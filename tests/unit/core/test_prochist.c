/* SPDX-License-Identifier: MIT */
/*
 * test_prochist.c - the per-process history (src/core/prochist.c): one
 * sample a round, oldest first, the ring bounded to GT_PROCHIST_SAMPLES;
 * a process on two GPUs summed into one sample; a reused pid starting
 * afresh; expiry after GT_PROCHIST_EXPIRE rounds unseen; and at most
 * GT_PROCHIST_MAX processes whatever comes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/prochist.h"

#define SEC 1000000000ull

static void proc(struct gt_process *p, int32_t pid, uint64_t start, int64_t gpu,
                 int64_t mem, int64_t cpu)
{
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->start_known = start != 0;
	p->start = start;
	if (gpu >= 0)
		gt_val_set(&p->f[GT_P_GPU], gpu);
	else
		gt_val_fail(&p->f[GT_P_GPU], GT_WHY_MIG, 0);
	gt_val_set(&p->f[GT_P_MEM], mem);
	gt_val_set(&p->f[GT_P_CPU], cpu);
}

static void test_samples_and_ring(void **state)
{
	struct gt_prochist *h = gt_prochist_new();
	struct gt_prochist_sample out[GT_PROCHIST_SAMPLES + 10];
	struct gt_process p;
	uint64_t first = 0;
	(void)state;

	assert_non_null(h);
	for (int r = 0; r < GT_PROCHIST_SAMPLES + 10; r++) {
		proc(&p, 42, 7, 100 * r, 1000 + r, 50);
		gt_prochist_update(h, &p, 1, (uint64_t)(r + 1) * SEC);
	}
	size_t n = gt_prochist_get(h, 42, true, 7, out,
	                           GT_PROCHIST_SAMPLES + 10, &first);
	assert_int_equal(n, GT_PROCHIST_SAMPLES); /* bounded */
	assert_int_equal(first, 1 * SEC);         /* first seen, kept */
	assert_int_equal(out[0].gpu, 100 * 10);   /* the oldest kept */
	assert_int_equal(out[n - 1].gpu, 100 * (GT_PROCHIST_SAMPLES + 9));
	assert_int_equal(out[n - 1].mem, 1000 + GT_PROCHIST_SAMPLES + 9);
	assert_true(out[n - 1].cpu_ok && out[n - 1].cpu == 50);
	/* A smaller buffer gets the newest. */
	n = gt_prochist_get(h, 42, true, 7, out, 3, NULL);
	assert_int_equal(n, 3);
	assert_int_equal(out[2].gpu, 100 * (GT_PROCHIST_SAMPLES + 9));
	/* Unknown: another pid; another start time. */
	assert_int_equal(gt_prochist_get(h, 43, false, 0, out, 3, NULL), 0);
	assert_int_equal(gt_prochist_get(h, 42, true, 8, out, 3, NULL), 0);
	gt_prochist_free(h);
}

/* Two rows of one process (two GPUs): one sample, GPU % and VRAM summed,
 * an unknown GPU % not counted as zero. */
static void test_two_gpus_and_unknowns(void **state)
{
	struct gt_prochist *h = gt_prochist_new();
	struct gt_prochist_sample out[4];
	struct gt_process p[3];
	(void)state;

	assert_non_null(h);
	proc(&p[0], 5, 9, 3000, 1 << 20, 10);
	proc(&p[1], 5, 9, 2000, 2 << 20, 10);
	proc(&p[2], 6, 9, -1, 1 << 20, 10);
	gt_prochist_update(h, p, 3, SEC);
	assert_int_equal(gt_prochist_get(h, 5, true, 9, out, 4, NULL), 1);
	assert_int_equal(out[0].gpu, 5000);
	assert_int_equal(out[0].mem, 3 << 20);
	assert_int_equal(gt_prochist_get(h, 6, true, 9, out, 4, NULL), 1);
	assert_false(out[0].gpu_ok);
	assert_true(out[0].mem_ok);
	gt_prochist_free(h);
}

/* A pid reused by a newer process: its history starts afresh. */
static void test_pid_reuse(void **state)
{
	struct gt_prochist *h = gt_prochist_new();
	struct gt_prochist_sample out[4];
	struct gt_process p;
	(void)state;

	assert_non_null(h);
	for (int r = 0; r < 3; r++) {
		proc(&p, 77, 100, 500, 1, 1);
		gt_prochist_update(h, &p, 1, (uint64_t)(r + 1) * SEC);
	}
	proc(&p, 77, 200, 900, 1, 1);
	gt_prochist_update(h, &p, 1, 4 * SEC);
	assert_int_equal(gt_prochist_get(h, 77, true, 100, out, 4, NULL), 0);
	assert_int_equal(gt_prochist_get(h, 77, true, 200, out, 4, NULL), 1);
	assert_int_equal(out[0].gpu, 900);
	assert_int_equal(gt_prochist_count(h), 1);
	gt_prochist_free(h);
}

/* Gone for GT_PROCHIST_EXPIRE rounds: forgotten; one round less: kept. */
static void test_expiry(void **state)
{
	struct gt_prochist *h = gt_prochist_new();
	struct gt_prochist_sample out[4];
	struct gt_process p[2];
	(void)state;

	assert_non_null(h);
	proc(&p[0], 1, 1, 1, 1, 1);
	proc(&p[1], 2, 1, 1, 1, 1);
	gt_prochist_update(h, p, 2, SEC);
	for (int r = 1; r < GT_PROCHIST_EXPIRE; r++)
		gt_prochist_update(h, p, 1, (uint64_t)(r + 1) * SEC);
	assert_int_equal(gt_prochist_get(h, 2, true, 1, out, 4, NULL), 1);
	gt_prochist_update(h, p, 1, 10 * SEC);
	assert_int_equal(gt_prochist_get(h, 2, true, 1, out, 4, NULL), 0);
	assert_int_equal(gt_prochist_count(h), 1);
	gt_prochist_free(h);
}

/* More processes than slots in one round, then many rounds of new ones:
 * never more than GT_PROCHIST_MAX, and the newest are the ones kept. */
static void test_bounded(void **state)
{
	enum { N = GT_PROCHIST_MAX + 300 };
	struct gt_prochist *h = gt_prochist_new();
	struct gt_process *p = calloc(N, sizeof(*p));
	struct gt_prochist_sample out[2];
	(void)state;

	assert_non_null(h);
	assert_non_null(p);
	for (int i = 0; i < N; i++)
		proc(&p[i], 1000 + i, 1, 1, 1, 1);
	gt_prochist_update(h, p, N, SEC);
	assert_true(gt_prochist_count(h) <= GT_PROCHIST_MAX);
	for (int r = 0; r < 20; r++) {
		for (int i = 0; i < 100; i++)
			proc(&p[i], 100000 + r * 100 + i, 1, 1, 1, 1);
		gt_prochist_update(h, p, 100, (uint64_t)(r + 2) * SEC);
		assert_true(gt_prochist_count(h) <= GT_PROCHIST_MAX);
		/* Every process of this round has its slot, also while the
		 * table is still full of the first round's (r == 0): a
		 * newcomer evicts an older one, never another newcomer. */
		for (int i = 0; i < 100; i++)
			if (gt_prochist_get(h, 100000 + r * 100 + i, true, 1,
			                    out, 2, NULL) != 1)
				fail_msg("round %d: process %d has no history",
				         r, 100000 + r * 100 + i);
	}
	assert_int_equal(
	    gt_prochist_get(h, 100000 + 19 * 100 + 5, true, 1, out, 2, NULL),
	    1);
	/* Only the processes of the last GT_PROCHIST_EXPIRE rounds. */
	assert_int_equal(gt_prochist_count(h), GT_PROCHIST_EXPIRE * 100);
	free(p);
	gt_prochist_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_samples_and_ring),
	    cmocka_unit_test(test_two_gpus_and_unknowns),
	    cmocka_unit_test(test_pid_reuse),
	    cmocka_unit_test(test_expiry),
	    cmocka_unit_test(test_bounded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * test_procinfo_cache.c - tests of src/linux/procinfo_cache.c, the per-pid
 * cache of procinfo, on temporary copies of the synthetic proc tree in
 * tests/fixtures/proc: a steady state that reads only stat, a reused pid
 * that inherits nothing, sweeps that drop the pids no round saw, and
 * thousands of pids found again without confusion.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/model.h"
#include "linux/procinfo.h"
#include "support/procinfo_test.h"

static void test_cache_reuse(void **state)
{
	struct tmp_tree *t = *state;
	struct gt_process p;

	fill(t->pi, &p, 4101, SEC);
	assert_string_equal(p.cmdline, "python3 train.py --rank 1");
	free(p.cmdline);

	/* steady state reads only stat: status, cmdline and cgroup can
	 * vanish and the cached strings still answer */
	char user[GT_USER_LEN];
	expected_user(1000, user, sizeof(user));
	remove_leaf(t->dir, 4101, "cmdline");
	remove_leaf(t->dir, 4101, "cgroup");
	remove_leaf(t->dir, 4101, "comm");
	remove_leaf(t->dir, 4101, "status");
	write_stat_rss(t->dir, 4101, "python3", 123401, 5601, 987651, "1024");
	fill(t->pi, &p, 4101, 2 * SEC);
	assert_true(p.host_known);
	assert_string_equal(p.cmdline, "python3 train.py --rank 1");
	assert_string_equal(p.container, "docker:" DOCKER_ID);
	assert_string_equal(p.name, "python3");
	assert_int_equal(p.uid, 1000);
	assert_string_equal(p.user, user);
	/* ... while stat is read every time */
	assert_int_equal(p.f[GT_P_HOST_MEM].v, pages(1024));
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
	free(p.cmdline);
	assert_int_equal(gt_procinfo_cache_count(t->pi), 1);

	/* a uid change shows with the next exec (a new comm), the moment
	 * status is read again */
	write_str(t->dir, 4101, "status",
	          "Name:\tpython3\nUid:\t1000\t0\t0\t0\nVmRSS:\t 8 kB\n");
	write_stat(t->dir, 4101, "sudo", 123401, 5601, 987651);
	fill(t->pi, &p, 4101, 3 * SEC);
	assert_int_equal(p.uid, 0);
	assert_string_equal(p.user, "root");
	assert_null(p.cmdline); /* cmdline now gone: left as it was */
}

static void test_pid_reuse(void **state)
{
	struct tmp_tree *t = *state;
	struct gt_process p;

	write_stat(t->dir, 4103, "python3", 5000, 0, 987653);
	fill(t->pi, &p, 4103, SEC);
	assert_string_equal(p.cmdline, "python3 train.py --rank 3");
	free(p.cmdline);

	/* another process got the pid: other start time, same comm, fewer
	 * ticks. Nothing of the old one may leak into the new one. */
	write_stat(t->dir, 4103, "python3", 10, 0, 999999);
	write_file(t->dir, 4103, "cmdline", "python3\0eval.py\0", 16);
	write_str(t->dir, 4103, "cgroup", "0::/system.slice/eval.service\n");
	fill(t->pi, &p, 4103, 2 * SEC);
	assert_true(p.host_known);
	assert_string_equal(p.cmdline, "python3 eval.py");
	assert_string_equal(p.container, "systemd:eval.service");
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_PENDING);
	free(p.cmdline);
	assert_int_equal(gt_procinfo_cache_count(t->pi), 1);

	write_stat(t->dir, 4103, "python3", 10 + clk(), 0, 999999);
	fill(t->pi, &p, 4103, 3 * SEC);
	assert_int_equal(p.f[GT_P_CPU].v, 10000);
	free(p.cmdline);
}

static void test_sweep(void **state)
{
	struct tmp_tree *t = *state;
	struct gt_process p;

	fill(t->pi, &p, 4100, SEC);
	free(p.cmdline);
	fill(t->pi, &p, 4101, SEC);
	free(p.cmdline);
	gt_procinfo_sweep(t->pi, SEC);
	assert_int_equal(gt_procinfo_cache_count(t->pi), 2);

	/* round 2 sees only 4100 */
	fill(t->pi, &p, 4100, 2 * SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
	free(p.cmdline);
	gt_procinfo_sweep(t->pi, 2 * SEC);
	assert_int_equal(gt_procinfo_cache_count(t->pi), 1);

	/* 4101 was dropped: its next fill starts over */
	fill(t->pi, &p, 4101, 3 * SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_PENDING);
	free(p.cmdline);
	fill(t->pi, &p, 4100, 3 * SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
	free(p.cmdline);
	gt_procinfo_sweep(t->pi, 3 * SEC);
	assert_int_equal(gt_procinfo_cache_count(t->pi), 2);

	/* a round with no fills empties the cache */
	gt_procinfo_sweep(t->pi, 4 * SEC);
	assert_int_equal(gt_procinfo_cache_count(t->pi), 0);
	fill(t->pi, &p, 4100, 5 * SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_PENDING);
	free(p.cmdline);
}

/* Thousands of pids: every one found again, none confused with another. */
static void test_many_pids(void **state)
{
	enum { N = 3000, BASE = 100000 };
	struct tmp_tree *t = *state;
	const char *dir = t->dir;

	for (int i = 0; i < N; i++) {
		char path[4096], comm[32], cmd[32];
		int pid = BASE + i * 7;
		snprintf(path, sizeof(path), "%s/%d", dir, pid);
		assert_int_equal(mkdir(path, 0755), 0);
		snprintf(comm, sizeof(comm), "w%d", pid);
		write_stat(dir, pid, comm, (unsigned long long)i, 0,
		           (unsigned long long)pid);
		write_str(dir, pid, "status",
		          "Uid:\t0\t0\t0\t0\nVmRSS:\t4 kB\n");
		int n = snprintf(cmd, sizeof(cmd), "worker%c%d", 0, pid);
		write_file(dir, pid, "cmdline", cmd, (size_t)n + 1);
		write_str(dir, pid, "cgroup", "0::/\n");
	}

	struct gt_procinfo *pi = t->pi = gt_procinfo_new(dir);
	assert_non_null(pi);
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < N; i++) {
			struct gt_process p;
			char want[32];
			int pid = BASE + i * 7;
			fill(pi, &p, pid, (uint64_t)(round + 1) * SEC);
			snprintf(want, sizeof(want), "w%d", pid);
			assert_string_equal(p.name, want);
			snprintf(want, sizeof(want), "worker %d", pid);
			assert_string_equal(p.cmdline, want);
			assert_int_equal(p.f[GT_P_CPU].why,
			                 round ? GT_WHY_OK : GT_WHY_PENDING);
			free(p.cmdline);
		}
		gt_procinfo_sweep(pi, (uint64_t)(round + 1) * SEC);
		assert_int_equal(gt_procinfo_cache_count(pi), N);
	}

	/* keep every third pid: the rest go, the kept ones keep their state */
	for (int i = 0; i < N; i += 3) {
		struct gt_process p;
		fill(pi, &p, BASE + i * 7, 3 * SEC);
		assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
		free(p.cmdline);
	}
	gt_procinfo_sweep(pi, 3 * SEC);
	assert_int_equal(gt_procinfo_cache_count(pi), N / 3);
	for (int i = 0; i < N; i++) {
		struct gt_process p;
		fill(pi, &p, BASE + i * 7, 4 * SEC);
		assert_int_equal(p.f[GT_P_CPU].why,
		                 i % 3 == 0 ? GT_WHY_OK : GT_WHY_PENDING);
		free(p.cmdline);
	}
	assert_int_equal(gt_procinfo_cache_count(pi), N);
	gt_procinfo_sweep(pi, 4 * SEC);
	assert_int_equal(gt_procinfo_cache_count(pi), N);

	/* a sweep that keeps few shrinks the index without losing them */
	for (int i = 0; i < 10; i++) {
		struct gt_process p;
		fill(pi, &p, BASE + i * 7, 5 * SEC);
		assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
		free(p.cmdline);
	}
	gt_procinfo_sweep(pi, 5 * SEC);
	assert_int_equal(gt_procinfo_cache_count(pi), 10);
	for (int i = 0; i < 12; i++) {
		struct gt_process p;
		fill(pi, &p, BASE + i * 7, 6 * SEC);
		assert_int_equal(p.f[GT_P_CPU].why,
		                 i < 10 ? GT_WHY_OK : GT_WHY_PENDING);
		free(p.cmdline);
	}
	gt_procinfo_sweep(pi, 6 * SEC);
	gt_procinfo_sweep(pi, 7 * SEC);
	assert_int_equal(gt_procinfo_cache_count(pi), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_cache_reuse, setup_copy,
	                                    teardown_tmp),
	    cmocka_unit_test_setup_teardown(test_pid_reuse, setup_copy,
	                                    teardown_tmp),
	    cmocka_unit_test_setup_teardown(test_sweep, setup_copy,
	                                    teardown_tmp),
	    cmocka_unit_test_setup_teardown(test_many_pids, setup_empty,
	                                    teardown_tmp),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

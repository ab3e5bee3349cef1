/* SPDX-License-Identifier: MIT */
/*
 * test_procinfo.c - tests of src/linux/procinfo.c against the synthetic
 * proc tree in tests/fixtures/proc (found through $GPUTOP_FIXTURES), and
 * against temporary copies of it for everything that needs files to
 * change: the pids of the fixture, CPU rates, execs and malformed or
 * refused files. The per-pid cache is test_procinfo_cache.c's, the live
 * /proc test_procinfo_live.c's, the cgroup parser test_procinfo_cgroup.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/model.h"
#include "linux/procinfo.h"
#include "core/text.h"
#include "support/procinfo_test.h"
#include "support/unpriv.h"

/* ---- fixture pids ---------------------------------------------------- */

static void test_train_ranks(void **state)
{
	struct gt_procinfo *pi = gt_procinfo_new(fixture_proc());
	char user[GT_USER_LEN];
	(void)state;
	assert_non_null(pi);
	expected_user(1000, user, sizeof(user));

	for (int n = 0; n < 8; n++) {
		struct gt_process p;
		char want[64];
		fill(pi, &p, 4100 + n, SEC);
		assert_true(p.host_known);
		assert_int_equal(p.uid, 1000);
		assert_string_equal(p.user, user);
		assert_string_equal(p.name, "python3");
		snprintf(want, sizeof(want), "python3 train.py --rank %d", n);
		assert_non_null(p.cmdline);
		assert_string_equal(p.cmdline, want);
		assert_string_equal(p.container, "docker:" DOCKER_ID);
		assert_int_equal(p.f[GT_P_HOST_MEM].why, GT_WHY_OK);
		/* field 24 of stat: (2048000 + 1024 n) kB in 4 KiB pages */
		assert_int_equal(p.f[GT_P_HOST_MEM].v,
		                 pages((2048000 + 1024 * n) / 4));
		assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_PENDING);
		/* fields procinfo does not own stay as they were */
		assert_int_equal(p.f[GT_P_GPU].why, GT_WHY_NOT_COLLECTED);
		free(p.cmdline);
	}
	assert_int_equal(gt_procinfo_cache_count(pi), 8);
	gt_procinfo_free(pi);
}

static void test_root_service(void **state)
{
	struct gt_procinfo *pi = gt_procinfo_new(fixture_proc());
	struct gt_process p;
	(void)state;

	fill(pi, &p, 5000, SEC);
	assert_true(p.host_known);
	assert_int_equal(p.uid, 0);
	assert_string_equal(p.user, "root");
	assert_string_equal(p.name, "nsys-ui");
	assert_string_equal(p.cmdline, "/usr/bin/nsys-ui --session gpu0");
	assert_string_equal(p.container, "systemd:nsys-ui.service");
	assert_int_equal(p.f[GT_P_HOST_MEM].v, pages(812340 / 4));
	free(p.cmdline);
	gt_procinfo_free(pi);
}

static void test_hostile_pid(void **state)
{
	static const char want[] = "/tmp/evil --title=\x1b]0;pwned\x07 say "
	                           "\"hi\" C:\\path line1\nline2 bad\xff";
	struct gt_procinfo *pi = gt_procinfo_new(fixture_proc());
	struct gt_process p;
	(void)state;

	fill(pi, &p, 6000, SEC);
	assert_true(p.host_known);
	/* comm holds ") (": taken between the first '(' and the last ')' */
	assert_string_equal(p.name, "x) (y) S 1 2 3");
	/* raw bytes kept, NULs joined by spaces, the trailing NUL dropped */
	assert_non_null(p.cmdline);
	assert_int_equal(strlen(p.cmdline), sizeof(want) - 1);
	assert_memory_equal(p.cmdline, want, sizeof(want));
	assert_int_equal(p.uid, 4242);
	if (getpwuid(4242) == NULL)
		assert_string_equal(p.user, "4242");
	assert_string_equal(p.container, ""); /* a user session */
	assert_int_equal(p.f[GT_P_HOST_MEM].v, pages(10240 / 4));

	char esc[256];
	gt_text_escape(esc, sizeof(esc), p.cmdline, strlen(p.cmdline));
	assert_string_equal(esc, "/tmp/evil --title=\\e]0;pwned\\x07 say "
	                         "\"hi\" C:\\path line1\\nline2 bad\\xff");
	free(p.cmdline);
	gt_procinfo_free(pi);
}

static void test_containers(void **state)
{
	static const struct {
		int pid;
		uint32_t uid;
		const char *name, *cmdline, *container;
	} cases[] = {
	    {6100, 4242, "python", "python -m serve",
	     "k8s:pod3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b"},
	    {6200, 4243, "ollama", "/usr/bin/ollama serve",
	     "podman:a1b2c3d4e5f6"},
	    {6300, 4242, "blender", "blender -b scene.blend",
	     "docker:9f8e7d6c5b4a"},
	};
	struct gt_procinfo *pi = gt_procinfo_new(fixture_proc());
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct gt_process p;
		char num[16];
		fill(pi, &p, cases[i].pid, SEC);
		assert_true(p.host_known);
		assert_int_equal(p.uid, cases[i].uid);
		snprintf(num, sizeof(num), "%u", (unsigned)cases[i].uid);
		if (getpwuid(cases[i].uid) == NULL)
			assert_string_equal(p.user, num);
		assert_string_equal(p.name, cases[i].name);
		assert_string_equal(p.cmdline, cases[i].cmdline);
		assert_string_equal(p.container, cases[i].container);
		free(p.cmdline);
	}
	gt_procinfo_free(pi);
}

static void test_kernel_thread(void **state)
{
	struct gt_procinfo *pi = gt_procinfo_new(fixture_proc());
	struct gt_process p;
	(void)state;

	fill(pi, &p, 6400, SEC);
	assert_true(p.host_known);
	assert_string_equal(p.name, "kworker/3:1H");
	assert_string_equal(p.cmdline, "[kworker/3:1H]");
	assert_string_equal(p.user, "root");
	assert_string_equal(p.container, "");
	/* no user memory at all: a true zero */
	assert_int_equal(p.f[GT_P_HOST_MEM].why, GT_WHY_OK);
	assert_int_equal(p.f[GT_P_HOST_MEM].v, 0);
	free(p.cmdline);
	gt_procinfo_free(pi);
}

static void test_missing_pid(void **state)
{
	struct gt_procinfo *pi = gt_procinfo_new(fixture_proc());
	struct gt_process p;
	(void)state;

	proc_init(&p, 7000);
	p.host_known = true;
	snprintf(p.name, sizeof(p.name), "from-backend");
	gt_procinfo_fill(pi, &p, SEC);
	assert_false(p.host_known);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_NOT_COLLECTED);
	assert_int_equal(p.f[GT_P_HOST_MEM].why, GT_WHY_NOT_COLLECTED);
	assert_int_equal(p.f[GT_P_CPU].v, 0);
	assert_string_equal(p.name, "from-backend"); /* left untouched */
	assert_string_equal(p.user, "");
	assert_null(p.cmdline);
	/* Remembered as absent (not looked up again for a few rounds), and
	 * forgotten by the first sweep after the backend stops reporting it. */
	assert_int_equal(gt_procinfo_cache_count(pi), 1);
	gt_procinfo_fill(pi, &p, SEC);
	assert_false(p.host_known);
	gt_procinfo_sweep(pi, SEC);
	gt_procinfo_sweep(pi, 2 * SEC);
	assert_int_equal(gt_procinfo_cache_count(pi), 0);

	/* pids that cannot exist */
	fill(pi, &p, 0, SEC);
	assert_false(p.host_known);
	fill(pi, &p, -1, SEC);
	assert_false(p.host_known);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_NOT_COLLECTED);
	gt_procinfo_free(pi);

	/* a proc root that does not exist */
	pi = gt_procinfo_new("/nonexistent/gputop/proc");
	fill(pi, &p, 4100, SEC);
	assert_false(p.host_known);
	gt_procinfo_free(pi);
}

/* Field 22 of /proc/self/stat, parsed here on its own (after the last
 * ')', the start time is the 20th field). */
static uint64_t own_start_time(void)
{
	char buf[1024];
	FILE *f = fopen("/proc/self/stat", "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	const char *s = strrchr(buf, ')');
	assert_non_null(s);
	unsigned long long v = 0;
	int field = 2;
	for (s++; *s && field < 22; s++)
		if (*s == ' ')
			field++;
	assert_int_equal(sscanf(s, "%llu", &v), 1);
	return (uint64_t)v;
}

static void test_root_variants(void **state)
{
	char root[4096 + 2]; /* fixture_proc() and "//" */
	struct gt_process p;
	(void)state;

	/* a trailing slash on --procfs is harmless */
	snprintf(root, sizeof(root), "%s//", fixture_proc());
	struct gt_procinfo *pi = gt_procinfo_new(root);
	fill(pi, &p, 4103, SEC);
	assert_true(p.host_known);
	assert_string_equal(p.cmdline, "python3 train.py --rank 3");
	/* a copied tree's start times are not those kill() would meet */
	assert_false(p.start_known);
	free(p.cmdline);
	gt_procinfo_free(pi);

	/* NULL means the live /proc: our own pid must be found */
	char comm[64] = "";
	FILE *f = fopen("/proc/self/comm", "r");
	assert_non_null(f);
	assert_non_null(fgets(comm, sizeof(comm), f));
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	pi = gt_procinfo_new(NULL);
	assert_non_null(pi);
	fill(pi, &p, (int32_t)getpid(), SEC);
	assert_true(p.host_known);
	assert_string_equal(p.name, comm);
	assert_int_equal(p.uid, (uint32_t)geteuid());
	assert_true(p.f[GT_P_HOST_MEM].why == GT_WHY_OK);
	assert_true(p.f[GT_P_HOST_MEM].v > 0);
	assert_non_null(p.cmdline);
	assert_true(p.cmdline[0] != '\0');
	/* our own namespace: the row carries our start time (field 22) */
	assert_true(p.start_known);
	assert_int_equal(p.start, own_start_time());
	free(p.cmdline);
	gt_procinfo_free(pi);
	gt_procinfo_free(NULL);
}

static void test_cmdline_replaced(void **state)
{
	struct gt_procinfo *pi = gt_procinfo_new(fixture_proc());
	struct gt_process p;
	(void)state;

	proc_init(&p, 4100);
	p.cmdline = strdup("stale");
	gt_procinfo_fill(pi, &p, SEC);
	/* the old string is freed (ASan would see a leak otherwise) */
	assert_string_equal(p.cmdline, "python3 train.py --rank 0");
	free(p.cmdline);
	gt_procinfo_free(pi);
}

/* ---- CPU and execs (on a temporary copy) ------------------------------ */

static void test_cpu_delta(void **state)
{
	struct tmp_tree *t = *state;
	struct gt_process p;
	int64_t c = clk();

	write_stat(t->dir, 4100, "python3", 1000, 500, 987650);
	fill(t->pi, &p, 4100, 10 * SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_PENDING);
	free(p.cmdline);

	/* 1.5 s of CPU (utime + stime) in 1 s: 150% of one core */
	write_stat(t->dir, 4100, "python3", 1000 + c, 500 + c / 2, 987650);
	fill(t->pi, &p, 4100, 11 * SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
	assert_int_equal(p.f[GT_P_CPU].v, 15000);
	free(p.cmdline);

	/* the same pid on a second GPU in the same round: same value */
	fill(t->pi, &p, 4100, 11 * SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
	assert_int_equal(p.f[GT_P_CPU].v, 15000);
	free(p.cmdline);
	fill(t->pi, &p, 4100, 11 * SEC + 10000000);
	assert_int_equal(p.f[GT_P_CPU].v, 15000);
	free(p.cmdline);

	/* a quarter of a core over the next 2 s (baseline kept at 11 s) */
	write_stat(t->dir, 4100, "python3", 1000 + c + c / 4,
	           500 + c / 2 + c / 4, 987650);
	fill(t->pi, &p, 4100, 13 * SEC);
	assert_int_equal(p.f[GT_P_CPU].v, 2500);
	free(p.cmdline);

	/* idle */
	fill(t->pi, &p, 4100, 14 * SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
	assert_int_equal(p.f[GT_P_CPU].v, 0);
	free(p.cmdline);

	/* 8 busy threads: cpercent of one core goes past 100% */
	write_stat(t->dir, 4100, "python3", 1000 + c + c / 4 + 8 * c,
	           500 + c / 2 + c / 4, 987650);
	fill(t->pi, &p, 4100, 15 * SEC);
	assert_int_equal(p.f[GT_P_CPU].v, 80000);
	free(p.cmdline);

	/* counters that go backwards (a broken source) restart the rate
	 * instead of wrapping into a huge value */
	write_stat(t->dir, 4100, "python3", 10, 10, 987650);
	fill(t->pi, &p, 4100, 16 * SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_PENDING);
	free(p.cmdline);
	write_stat(t->dir, 4100, "python3", 10 + c, 10, 987650);
	fill(t->pi, &p, 4100, 17 * SEC);
	assert_int_equal(p.f[GT_P_CPU].v, 10000);
	free(p.cmdline);
	/* so does a clock that goes backwards */
	fill(t->pi, &p, 4100, 1 * SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_PENDING);
	free(p.cmdline);
}

/* Outside our own pid namespace (a copied tree here) CPU time and resident
 * pages come from stat, round after round, even where schedstat and statm
 * exist: schedstat counts the leader thread only, which would show a
 * process whose work runs in other threads as idle. */
static void test_cpu_copied_tree(void **state)
{
	struct tmp_tree *t = *state;
	struct gt_process p;
	int64_t c = clk();

	write_str(t->dir, 4100, "schedstat", "5000000000 12345 678\n");
	write_str(t->dir, 4100, "statm", "900000 2048 300 1 0 5000 0\n");
	write_stat_rss(t->dir, 4100, "python3", 1000, 500, 987650, "1024");
	fill(t->pi, &p, 4100, 10 * SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_PENDING);
	assert_int_equal(p.f[GT_P_HOST_MEM].v, pages(1024));
	free(p.cmdline);

	/* schedstat and statm move, stat does not: idle, stat's pages */
	write_str(t->dir, 4100, "schedstat", "5250000000 12345 679\n");
	write_str(t->dir, 4100, "statm", "900000 4096 300 1 0 5000 0\n");
	fill(t->pi, &p, 4100, 11 * SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
	assert_int_equal(p.f[GT_P_CPU].v, 0);
	assert_int_equal(p.f[GT_P_HOST_MEM].v, pages(1024));
	assert_non_null(strstr(p.cmdline, "train.py"));
	free(p.cmdline);

	/* 1.5 cores a second from then on, for ten rounds: no round may
	 * restart the rate (a restart would answer PENDING). */
	for (int round = 0; round < 10; round++) {
		write_stat_rss(t->dir, 4100, "python3",
		               1000 +
		                   (uint64_t)c * 3 / 2 * (uint64_t)(round + 1),
		               500, 987650, "2000");
		gt_procinfo_sweep(t->pi, (uint64_t)(11 + round) * SEC);
		fill(t->pi, &p, 4100, (uint64_t)(12 + round) * SEC);
		assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
		assert_int_equal(p.f[GT_P_CPU].v, 15000);
		assert_int_equal(p.f[GT_P_HOST_MEM].v, pages(2000));
		free(p.cmdline);
	}
}

/* The fixture's stat of 6000 has a comm with ") (" and digits: a parser
 * that counts fields from the first ')' reads the wrong utime. */
static void test_cpu_paren_comm(void **state)
{
	struct tmp_tree *t = *state;
	struct gt_process p;
	int64_t c = clk();

	fill(t->pi, &p, 6000, SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_PENDING);
	free(p.cmdline);
	/* fixture: utime 777, stime 333, start 555555 */
	write_stat(t->dir, 6000, "x) (y) S 1 2 3", 777 + c / 2, 333, 555555);
	fill(t->pi, &p, 6000, 2 * SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
	assert_int_equal(p.f[GT_P_CPU].v, 5000);
	assert_string_equal(p.name, "x) (y) S 1 2 3");
	free(p.cmdline);
}

static void test_exec_rereads_cmdline(void **state)
{
	struct tmp_tree *t = *state;
	struct gt_process p;

	write_stat(t->dir, 4102, "python3", 100, 0, 987652);
	fill(t->pi, &p, 4102, SEC);
	assert_string_equal(p.cmdline, "python3 train.py --rank 2");
	free(p.cmdline);

	/* same pid, same start time, another comm: an exec */
	write_stat(t->dir, 4102, "torchrun", 100 + clk(), 0, 987652);
	write_file(t->dir, 4102, "cmdline",
	           "torchrun\0--nproc\0"
	           "8\0",
	           19);
	fill(t->pi, &p, 4102, 2 * SEC);
	assert_string_equal(p.name, "torchrun");
	assert_string_equal(p.cmdline, "torchrun --nproc 8");
	/* the process is the same: its CPU baseline survives the exec */
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
	assert_int_equal(p.f[GT_P_CPU].v, 10000);
	free(p.cmdline);
}

/* Caught inside execve(): the new comm is there, the arguments are not
 * yet (cmdline reads empty). The next rounds read cmdline again and show
 * the real one; only an empty cmdline seen on every one of a few rounds
 * (a kernel thread, a zombie) settles as "[comm]". */
static void test_exec_caught_midway(void **state)
{
	struct tmp_tree *t = *state;
	struct gt_process p;

	write_stat(t->dir, 4102, "python3", 100, 0, 987652);
	fill(t->pi, &p, 4102, SEC);
	free(p.cmdline);

	write_stat(t->dir, 4102, "torchrun", 100, 0, 987652);
	write_file(t->dir, 4102, "cmdline", "", 0);
	fill(t->pi, &p, 4102, 2 * SEC);
	assert_string_equal(p.cmdline, "[torchrun]");
	free(p.cmdline);
	write_file(t->dir, 4102, "cmdline",
	           "torchrun\0--nproc\0"
	           "8\0",
	           19);
	fill(t->pi, &p, 4102, 3 * SEC);
	assert_string_equal(p.cmdline, "torchrun --nproc 8");
	free(p.cmdline);

	/* Empty on three rounds in a row: settled, not read again. */
	write_stat(t->dir, 4102, "kworker", 100, 0, 987652);
	write_file(t->dir, 4102, "cmdline", "", 0);
	for (int round = 0; round < 3; round++) {
		fill(t->pi, &p, 4102, (uint64_t)(4 + round) * SEC);
		assert_string_equal(p.cmdline, "[kworker]");
		free(p.cmdline);
	}
	write_file(t->dir, 4102, "cmdline", "late\0", 5);
	fill(t->pi, &p, 4102, 7 * SEC);
	assert_string_equal(p.cmdline, "[kworker]");
	free(p.cmdline);
}

/* ---- malformed and refused files (on a temporary copy) ---------------- */

static void test_malformed(void **state)
{
	struct tmp_tree *t = *state;
	struct gt_process p;

	write_str(t->dir, 4104, "stat", "garbage without parens\n");
	fill(t->pi, &p, 4104, SEC);
	assert_false(p.host_known);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_NOT_COLLECTED);
	assert_int_equal(p.f[GT_P_HOST_MEM].why, GT_WHY_NOT_COLLECTED);
	assert_null(p.cmdline);

	/* cut after utime: stime and the start time are missing */
	write_str(t->dir, 4104, "stat",
	          "4104 (python3) S 1 2 3 0 -1 0 0 0 0 0 1234");
	fill(t->pi, &p, 4104, SEC);
	assert_false(p.host_known);

	/* a non-number where utime belongs */
	write_str(t->dir, 4104, "stat",
	          "4104 (python3) S 1 2 3 0 -1 0 0 0 0 0 12x4 5 0 0 20 0 1 0 9 "
	          "0 0\n");
	fill(t->pi, &p, 4104, SEC);
	assert_false(p.host_known);

	/* an empty stat */
	write_str(t->dir, 4104, "stat", "");
	fill(t->pi, &p, 4104, SEC);
	assert_false(p.host_known);
	assert_int_equal(gt_procinfo_cache_count(t->pi), 0);

	/* stat fine but cut after the start time (no rss); status without
	 * a Uid line */
	write_str(t->dir, 4105, "stat",
	          "4105 (python3) S 1 2 3 0 -1 0 0 0 0 0 5 6 0 0 20 0 1 0 "
	          "987655\n");
	write_str(t->dir, 4105, "status", "Name:\tpython3\nVmRSS:\t8 kB\n");
	fill(t->pi, &p, 4105, SEC);
	assert_true(p.host_known);
	assert_int_equal(p.uid, GT_UID_UNKNOWN);
	assert_string_equal(p.user, "");
	assert_int_equal(p.f[GT_P_HOST_MEM].why, GT_WHY_NOT_COLLECTED);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_PENDING);
	assert_string_equal(p.cmdline, "python3 train.py --rank 5");
	free(p.cmdline);

	/* status unreadable (a directory where the file should be); cgroup
	 * and cmdline gone: empty container, cmdline untouched */
	remove_leaf(t->dir, 4106, "status");
	remove_leaf(t->dir, 4106, "cmdline");
	remove_leaf(t->dir, 4106, "cgroup");
	char path[4096];
	snprintf(path, sizeof(path), "%s/4106/status", t->dir);
	assert_int_equal(mkdir(path, 0755), 0);
	fill(t->pi, &p, 4106, SEC);
	assert_true(p.host_known);
	assert_string_equal(p.name, "python3");
	assert_int_equal(p.uid, GT_UID_UNKNOWN);
	assert_string_equal(p.user, "");
	assert_int_equal(p.f[GT_P_HOST_MEM].why, GT_WHY_OK);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_PENDING);
	assert_null(p.cmdline);
	assert_string_equal(p.container, "");

	/* an rss that would overflow int64 in bytes, and one that is not a
	 * number: not collected, the rest still filled */
	write_str(t->dir, 4107, "status", "Uid:\t1\t1\t1\t1\n");
	write_stat_rss(t->dir, 4107, "python3", 1, 1, 987657,
	               "9999999999999999999");
	fill(t->pi, &p, 4107, SEC);
	assert_true(p.host_known);
	assert_int_equal(p.f[GT_P_HOST_MEM].why, GT_WHY_NOT_COLLECTED);
	assert_int_equal(p.uid, 1);
	free(p.cmdline);
	write_stat_rss(t->dir, 4107, "python3", 1, 1, 987657, "-5");
	fill(t->pi, &p, 4107, SEC);
	assert_true(p.host_known);
	assert_int_equal(p.f[GT_P_HOST_MEM].why, GT_WHY_NOT_COLLECTED);
	free(p.cmdline);
}

/* The checks of test_permission, in a child that cannot read mode-000
 * files: 0, or the number of the first that failed (cmocka's asserts do
 * not cross the fork). */
static int permission_checks(struct tmp_tree *t)
{
	struct gt_process p;
	char path[4096];
	int bad = 0;

	snprintf(path, sizeof(path), "%s/5000/status", t->dir);
	if (chmod(path, 0) != 0)
		return 1;
	fill(t->pi, &p, 5000, SEC);
	if (!p.host_known || p.uid != GT_UID_UNKNOWN || p.user[0] ||
	    p.f[GT_P_HOST_MEM].why != GT_WHY_OK)
		bad = 2;
	free(p.cmdline);
	/* stat refused too. A new reader: the first keeps the descriptor it
	 * opened while stat was readable, as it would on /proc, where a
	 * mode is checked at the open. */
	snprintf(path, sizeof(path), "%s/5000/stat", t->dir);
	if (!bad && chmod(path, 0) != 0)
		bad = 3;
	struct gt_procinfo *fresh = gt_procinfo_new(t->dir);
	if (!fresh)
		return bad ? bad : 5;
	fill(fresh, &p, 5000, SEC);
	if (!bad && (p.host_known || p.f[GT_P_CPU].why != GT_WHY_PERMISSION ||
	             p.f[GT_P_HOST_MEM].why != GT_WHY_PERMISSION))
		bad = 4;
	free(p.cmdline);
	gt_procinfo_free(fresh);
	return bad;
}

/* Unreadable status and stat files: as root (CAP_DAC_OVERRIDE reads any
 * mode) the checks run in a child that has become nobody, over a copy it
 * may read and change, so that the suite, which CI runs as root, covers
 * EACCES too. */
static void test_permission(void **state)
{
	struct tmp_tree *t = *state;
	char cmd[200], refused[128];

	snprintf(cmd, sizeof(cmd), "chown -R %d:%d '%s' && chmod -R a+rwX '%s'",
	         UNPRIV_UID, UNPRIV_UID, t->dir, t->dir);
	if (geteuid() == 0)
		assert_int_equal(system(cmd), 0);
	snprintf(refused, sizeof(refused), "%s/refused", t->dir);
	assert_int_equal(mkdir(refused, 0), 0);
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		int rc = unpriv_enter(refused);
		_exit(rc ? rc : permission_checks(t));
	}
	int status = 0;
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == UNPRIV_SKIP) {
		print_message("cannot become a user refused mode 000: "
		              "skipped\n");
		skip();
	}
	if (WEXITSTATUS(status) != 0)
		fail_msg("unprivileged check %d failed", WEXITSTATUS(status));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_train_ranks),
	    cmocka_unit_test(test_root_service),
	    cmocka_unit_test(test_hostile_pid),
	    cmocka_unit_test(test_containers),
	    cmocka_unit_test(test_kernel_thread),
	    cmocka_unit_test(test_missing_pid),
	    cmocka_unit_test(test_root_variants),
	    cmocka_unit_test(test_cmdline_replaced),
	    cmocka_unit_test_setup_teardown(test_cpu_copied_tree, setup_copy,
	                                    teardown_tmp),
	    cmocka_unit_test_setup_teardown(test_cpu_delta, setup_copy,
	                                    teardown_tmp),
	    cmocka_unit_test_setup_teardown(test_cpu_paren_comm, setup_copy,
	                                    teardown_tmp),
	    cmocka_unit_test_setup_teardown(test_exec_rereads_cmdline,
	                                    setup_copy, teardown_tmp),
	    cmocka_unit_test_setup_teardown(test_exec_caught_midway, setup_copy,
	                                    teardown_tmp),
	    cmocka_unit_test_setup_teardown(test_malformed, setup_copy,
	                                    teardown_tmp),
	    cmocka_unit_test_setup_teardown(test_permission, setup_copy,
	                                    teardown_tmp),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

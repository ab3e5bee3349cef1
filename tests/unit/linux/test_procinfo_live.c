/* SPDX-License-Identifier: MIT */
/*
 * test_procinfo_live.c - tests of src/linux/procinfo.c against the live
 * /proc, in our own pid namespace: forked children whose threads spin,
 * exec and exit while procinfo follows them (CPU of all threads, a new
 * name and command line after an exec, an exit seen at once).
 */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/model.h"
#include "linux/procinfo.h"
#include "support/procinfo_test.h"

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * SEC + (uint64_t)ts.tv_nsec;
}

/* utime + stime of a live pid, in clock ticks. */
static uint64_t live_ticks(pid_t pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	const char *q = strrchr(buf, ')');
	assert_non_null(q);
	unsigned long long ut = 0, st = 0;
	assert_int_equal(sscanf(q + 2,
	                        "%*c %*d %*d %*d %*d %*d %*u %*u %*u "
	                        "%*u %*u %llu %llu",
	                        &ut, &st),
	                 2);
	return ut + st;
}

static void *spin(void *arg)
{
	volatile unsigned long n = 0;
	(void)arg;
	for (;;)
		n++;
	return NULL;
}

/* A child that holds until a byte comes on fd (or the pipe closes),
 * with a spinning second thread when spin_thread, then execs
 * "sleep 30" when exec_after. */
static pid_t child(int fd, bool spin_thread, bool exec_after)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid > 0)
		return pid;
	/* Never outlive the test, even one that fails before child_end():
	 * a spinning orphan would hold a core and the test's output. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	alarm(30);
	pthread_t th;
	if (spin_thread && pthread_create(&th, NULL, spin, NULL) != 0)
		_exit(1);
	char ch;
	if (read(fd, &ch, 1) == 1 && exec_after)
		execlp("sleep", "sleep", "30", (char *)NULL);
	_exit(0);
}

static void child_end(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* The CPU of a process is that of all its threads: here the leader waits
 * in read() while a second thread spins. */
static void test_live_threads(void **state)
{
	int fds[2];
	struct gt_process p;
	(void)state;

	assert_int_equal(pipe(fds), 0);
	pid_t pid = child(fds[0], true, false);
	struct gt_procinfo *pi = gt_procinfo_new(NULL);
	assert_non_null(pi);
	uint64_t t0 = mono_ns(), k0 = live_ticks(pid);
	fill(pi, &p, (int32_t)pid, t0);
	assert_true(p.host_known);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_PENDING);
	free(p.cmdline);
	/* until the spinning thread has used 300 ms of CPU, however busy
	 * the machine */
	while (live_ticks(pid) - k0 < (uint64_t)clk() * 3 / 10) {
		struct timespec nap = {0, 20000000};
		nanosleep(&nap, NULL);
	}
	gt_procinfo_sweep(pi, t0);
	uint64_t t1 = mono_ns(), k1 = live_ticks(pid);
	fill(pi, &p, (int32_t)pid, t1);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
	/* stat's ticks over the same time, give or take two ticks */
	double want =
	    (double)(k1 - k0) / (double)clk() * 1e4 / ((double)(t1 - t0) / 1e9);
	double slack = 2.0 / (double)clk() * 1e4 / ((double)(t1 - t0) / 1e9);
	assert_true(p.f[GT_P_CPU].v > 1000);
	assert_true((double)p.f[GT_P_CPU].v > want - slack &&
	            (double)p.f[GT_P_CPU].v < want + slack);
	assert_true(p.f[GT_P_HOST_MEM].why == GT_WHY_OK);
	assert_true(p.f[GT_P_HOST_MEM].v > 0);
	free(p.cmdline);
	close(fds[1]);
	close(fds[0]);
	child_end(pid);
	gt_procinfo_free(pi);
}

/* An exec shows within the comm recheck period (8 rounds) in the name and
 * the command line, and keeps the CPU rate going; an exit shows at once. */
static void test_live_exec_and_exit(void **state)
{
	int fds[2];
	struct gt_process p;
	char comm[64] = "";
	(void)state;

	FILE *f = fopen("/proc/self/comm", "r");
	assert_non_null(f);
	assert_non_null(fgets(comm, sizeof(comm), f));
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';

	assert_int_equal(pipe(fds), 0);
	pid_t pid = child(fds[0], false, true);
	struct gt_procinfo *pi = gt_procinfo_new(NULL);
	assert_non_null(pi);
	uint64_t now = mono_ns();
	fill(pi, &p, (int32_t)pid, now);
	assert_true(p.host_known);
	assert_string_equal(p.name, comm);
	free(p.cmdline);
	gt_procinfo_sweep(pi, now);

	assert_int_equal(write(fds[1], "x", 1), 1);
	/* until the child runs sleep (or 5 s: execlp failed) */
	for (int i = 0; i < 500; i++) {
		char path[64], buf[64] = "";
		snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
		f = fopen(path, "r");
		if (f) {
			if (!fgets(buf, sizeof(buf), f))
				buf[0] = '\0';
			fclose(f);
		}
		if (strcmp(buf, "sleep\n") == 0)
			break;
		struct timespec nap = {0, 10000000};
		nanosleep(&nap, NULL);
	}
	/* The comm recheck period, plus the rounds an empty cmdline is read
	 * again: the child may be caught inside execve(), with its new comm
	 * but no arguments yet. */
	bool seen = false;
	for (int round = 0; round < 8 + 3 && !seen; round++) {
		now += SEC;
		fill(pi, &p, (int32_t)pid, now);
		assert_true(p.host_known);
		assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
		seen = strcmp(p.name, "sleep") == 0 && p.cmdline &&
		       strcmp(p.cmdline, "sleep 30") == 0;
		free(p.cmdline);
		gt_procinfo_sweep(pi, now);
	}
	assert_true(seen);

	child_end(pid);
	fill(pi, &p, (int32_t)pid, now + SEC);
	assert_false(p.host_known);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_NOT_COLLECTED);
	assert_int_equal(p.f[GT_P_HOST_MEM].why, GT_WHY_NOT_COLLECTED);
	free(p.cmdline);
	close(fds[0]);
	close(fds[1]);
	gt_procinfo_free(pi);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_live_threads),
	    cmocka_unit_test(test_live_exec_and_exit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

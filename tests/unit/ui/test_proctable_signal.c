/* SPDX-License-Identifier: MIT */
/*
 * test_proctable_signal.c - tests of src/ui/proctable_signal.c: the signal
 * table and its names, and signals sent to real child processes, with the
 * failures (ESRCH, EPERM, refused pids, no such signal) said in words.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "ui/proctable.h"

static void test_signal_table(void **state)
{
	(void)state;
	static const char *const names[] = {"TERM", "KILL", "INT",  "HUP",
	                                    "STOP", "CONT", "USR1", "USR2"};
	static const int sigs[] = {SIGTERM, SIGKILL, SIGINT,  SIGHUP,
	                           SIGSTOP, SIGCONT, SIGUSR1, SIGUSR2};
	char buf[12];
	for (int i = 0; i < GT_PROCTABLE_NSIGNALS; i++) {
		assert_int_equal(gt_proctable_signals[i].sig, sigs[i]);
		assert_string_equal(gt_proctable_signals[i].name, names[i]);
		assert_string_equal(
		    gt_proctable_signal_name(sigs[i], buf, sizeof(buf)),
		    names[i]);
	}
	assert_string_equal(gt_proctable_signal_name(0, buf, sizeof(buf)), "0");
}

static void test_signal_child_term(void **state)
{
	(void)state;
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		for (;;)
			pause();
	}
	char msg[256], want[64];
	assert_int_equal(
	    gt_proctable_send_signal(child, SIGTERM, msg, sizeof(msg)), 0);
	snprintf(want, sizeof(want), "sent TERM to %d", (int)child);
	assert_string_equal(msg, want);
	int status;
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGTERM);
}

static void test_signal_esrch(void **state)
{
	(void)state;
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0)
		_exit(0);
	int status;
	assert_int_equal(waitpid(child, &status, 0), child); /* reaped: gone */

	char msg[256], want[256];
	assert_int_equal(
	    gt_proctable_send_signal(child, SIGTERM, msg, sizeof(msg)), ESRCH);
	assert_int_equal(errno, ESRCH);
	snprintf(want, sizeof(want),
	         "kill %d TERM: %s (ESRCH): the process has already exited",
	         (int)child, strerror(ESRCH));
	assert_string_equal(msg, want);
}

/* Signal 0 only checks permission, so no test here can hurt pid 1 or its
 * own parent even when the check is unexpectedly allowed. */
static void test_signal_eperm(void **state)
{
	(void)state;
	char msg[256];
	const char *hint = "(EPERM): the process belongs to another user; "
	                   "run gputop as root";

	if (geteuid() != 0) {
		int rc = gt_proctable_send_signal(1, 0, msg, sizeof(msg));
		if (rc == 0)
			skip(); /* pid 1 is ours (a user namespace) */
		assert_int_equal(rc, EPERM);
		assert_non_null(strstr(msg, hint));
		assert_int_equal(strncmp(msg, "kill 1 0: ", 10), 0);
		return;
	}
	/* as root: a child that drops to nobody signals us */
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	pid_t parent = getpid();
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		close(fds[0]);
		if (setgid(65534) != 0 || setuid(65534) != 0)
			_exit(2);
		int rc = gt_proctable_send_signal(parent, 0, msg, sizeof(msg));
		ssize_t wr = write(fds[1], msg, strlen(msg) + 1);
		_exit(rc == EPERM && wr > 0 ? 0 : 1);
	}
	close(fds[1]);
	memset(msg, 0, sizeof(msg));
	ssize_t got = read(fds[0], msg, sizeof(msg) - 1);
	close(fds[0]);
	int status;
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 2)
		skip(); /* no CAP_SETUID in this sandbox */
	assert_true(got > 0);
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_non_null(strstr(msg, hint));
}

static void test_signal_refused_and_invalid(void **state)
{
	(void)state;
	char msg[256], want[256];
	/* signal 0 keeps a regression harmless: kill(0/-1, 0) does nothing */
	assert_int_equal(gt_proctable_send_signal(0, 0, msg, sizeof(msg)),
	                 EINVAL);
	assert_string_equal(msg, "kill 0 0: refused: not a single process id");
	assert_int_equal(gt_proctable_send_signal(-1, 0, msg, sizeof(msg)),
	                 EINVAL);
	assert_non_null(strstr(msg, "refused"));

	assert_int_equal(
	    gt_proctable_send_signal(getpid(), 99999, msg, sizeof(msg)),
	    EINVAL);
	snprintf(want, sizeof(want),
	         "kill %d 99999: %s (EINVAL): this system does not have that "
	         "signal",
	         (int)getpid(), strerror(EINVAL));
	assert_string_equal(msg, want);
	/* a NULL message buffer is allowed */
	assert_int_equal(gt_proctable_send_signal(0, 0, NULL, 0), EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_signal_table),
	    cmocka_unit_test(test_signal_child_term),
	    cmocka_unit_test(test_signal_esrch),
	    cmocka_unit_test(test_signal_eperm),
	    cmocka_unit_test(test_signal_refused_and_invalid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

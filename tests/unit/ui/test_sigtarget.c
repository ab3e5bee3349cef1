/* SPDX-License-Identifier: MIT */
/*
 * test_sigtarget.c - tests of src/ui/sigtarget.c: the stat parser, the
 * pure check of a bound process against the current list, and sending to
 * a real child process: it gets the signal while it lives, and nothing is
 * sent once it has gone, even though its row's pid is still "selected".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "ui/sigtarget.h"

static struct gt_process proc_of(int32_t pid, const char *name)
{
	struct gt_process p;
	memset(&p, 0, sizeof(p));
	p.pid = pid;
	snprintf(p.name, sizeof(p.name), "%s", name);
	return p;
}

static void test_parse_start(void **state)
{
	uint64_t v = 0;
	(void)state;
	/* comm with spaces and parentheses: fields count from the last ')' */
	const char *stat = "4103 (a) b (c)) S 1 4103 4103 0 -1 4194560 100 0 0 "
	                   "0 5 6 0 0 20 0 1 0 987654 1000 50";
	assert_true(gt_sigtarget_parse_start(stat, &v));
	assert_int_equal(v, 987654);
	assert_false(gt_sigtarget_parse_start("4103 (x) S 1 2 3", &v));
	assert_false(gt_sigtarget_parse_start("no parenthesis", &v));
	assert_false(gt_sigtarget_parse_start(
	    "1 (x) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 12x 1", &v));
}

static void test_check(void **state)
{
	struct gt_process list[3] = {proc_of(4100, "python3"),
	                             proc_of(4104, "python3"),
	                             proc_of(5000, "nsys")};
	struct gt_process chosen = proc_of(4103, "python3");
	struct gt_sigtarget t;
	(void)state;

	gt_sigtarget_init(&t);
	/* Nothing bound: never SAME. */
	assert_int_equal(gt_sigtarget_check(&t, list, 3, false, 0),
	                 GT_SIGTARGET_GONE);
	t.bound = true;
	t.pid = chosen.pid;
	t.row = chosen;
	t.start_known = true;
	t.start = 1000;
	/* 4103 left the list: the row it had now holds 4104. */
	assert_int_equal(gt_sigtarget_check(&t, list, 3, true, 1000),
	                 GT_SIGTARGET_GONE);
	list[1].pid = 4103;
	assert_int_equal(gt_sigtarget_check(&t, list, 3, true, 1000),
	                 GT_SIGTARGET_SAME);
	/* Listed, but the pid started again: another process. */
	assert_int_equal(gt_sigtarget_check(&t, list, 3, true, 2000),
	                 GT_SIGTARGET_CHANGED);
	/* The row was read with another start time than the one found
	 * when the dialog opened: the pid changed hands in between. */
	t.row.start_known = true;
	t.row.start = 999;
	assert_int_equal(gt_sigtarget_check(&t, list, 3, true, 1000),
	                 GT_SIGTARGET_CHANGED);
	t.row.start = 1000;
	assert_int_equal(gt_sigtarget_check(&t, list, 3, true, 1000),
	                 GT_SIGTARGET_SAME);
	t.row.start_known = false;
	/* Listed, but its /proc entry is gone. */
	assert_int_equal(gt_sigtarget_check(&t, list, 3, false, 0),
	                 GT_SIGTARGET_GONE);
	/* No start time at bind time (no /proc): the list decides. */
	t.start_known = false;
	assert_int_equal(gt_sigtarget_check(&t, list, 3, false, 0),
	                 GT_SIGTARGET_SAME);
	assert_int_equal(gt_sigtarget_check(&t, list, 0, false, 0),
	                 GT_SIGTARGET_GONE);
}

static pid_t child(void)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		for (;;)
			pause();
	}
	return pid;
}

/* A child that waits for signals, listed as one row, with t bound to it. */
static struct gt_process bound_child(struct gt_sigtarget *t, pid_t *pid)
{
	*pid = child();
	struct gt_process row = proc_of(*pid, "child");
	gt_sigtarget_init(t);
	gt_sigtarget_bind(t, &row);
	return row;
}

static void test_send_to_live_child(void **state)
{
	struct gt_sigtarget t;
	char msg[256];
	int status;
	(void)state;

	pid_t pid;
	struct gt_process row = bound_child(&t, &pid);
	assert_true(t.bound);
	assert_true(t.start_known);
	/* The signal goes through the pidfd (every kernel this runs on has
	 * pidfd_open): a reused pid cannot catch it. */
	assert_true(t.pidfd >= 0);
	assert_int_equal(
	    gt_sigtarget_send(&t, SIGTERM, &row, 1, msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "sent TERM"));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGTERM);
	gt_sigtarget_release(&t);
	assert_false(t.bound);
	assert_int_equal(t.pidfd, -1);
}

/* The row (from the last process scan) says the pid started at another
 * time than the process that holds it when the dialog opens: the pid was
 * reused in between, and the new process gets nothing. */
static void test_nothing_sent_to_a_reused_pid(void **state)
{
	struct gt_sigtarget t;
	char msg[256];
	int status;
	(void)state;

	pid_t pid;
	/* Bound first only to learn the live start time. */
	struct gt_process row = bound_child(&t, &pid);
	assert_true(t.start_known);
	row.start_known = true;
	row.start = t.start + 1;
	gt_sigtarget_bind(&t, &row);
	assert_int_equal(
	    gt_sigtarget_send(&t, SIGTERM, &row, 1, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "is now another process"));
	assert_int_equal(waitpid(pid, &status, WNOHANG), 0); /* untouched */
	/* The row's own start time: the signal goes. */
	row.start = t.start;
	gt_sigtarget_bind(&t, &row);
	assert_int_equal(
	    gt_sigtarget_send(&t, SIGTERM, &row, 1, msg, sizeof(msg)), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	gt_sigtarget_release(&t);
}

static void test_nothing_sent_once_gone(void **state)
{
	struct gt_sigtarget t;
	char msg[256];
	int status;
	(void)state;

	pid_t pid;
	struct gt_process row = bound_child(&t, &pid);
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	/* Still listed (the list is a round old): /proc and the pidfd
	 * know better. */
	assert_int_equal(
	    gt_sigtarget_send(&t, SIGTERM, &row, 1, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "not sent"));
	/* Not listed any more. */
	struct gt_process other = proc_of(pid + 1, "other");
	assert_int_equal(
	    gt_sigtarget_send(&t, SIGTERM, &other, 1, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "has gone: TERM not sent"));
	/* With no start time to compare (a /proc that shows none), the
	 * pidfd alone knows its process has exited. */
	t.start_known = false;
	row.start_known = false;
	assert_int_equal(
	    gt_sigtarget_send(&t, SIGTERM, &row, 1, msg, sizeof(msg)), -1);
	if (!strstr(msg, "has exited: TERM not sent"))
		fail_msg("the pidfd's ESRCH not reported: %s", msg);
	gt_sigtarget_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_start),
	    cmocka_unit_test(test_check),
	    cmocka_unit_test(test_send_to_live_child),
	    cmocka_unit_test(test_nothing_sent_once_gone),
	    cmocka_unit_test(test_nothing_sent_to_a_reused_pid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

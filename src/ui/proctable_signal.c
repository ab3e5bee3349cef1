/* SPDX-License-Identifier: MIT */
/*
 * proctable_signal.c - the signals the process table offers (see
 * proctable.h): their names, and sending one to a row's process with
 * kill(), the failure said in words the user can act on.
 */
#include "ui/proctable.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

const struct gt_signal_desc gt_proctable_signals[GT_PROCTABLE_NSIGNALS] = {
    {SIGTERM, "TERM"}, {SIGKILL, "KILL"}, {SIGINT, "INT"},   {SIGHUP, "HUP"},
    {SIGSTOP, "STOP"}, {SIGCONT, "CONT"}, {SIGUSR1, "USR1"}, {SIGUSR2, "USR2"},
};

const char *gt_proctable_signal_name(int sig, char *buf, size_t len)
{
	for (size_t i = 0; i < GT_PROCTABLE_NSIGNALS; i++)
		if (gt_proctable_signals[i].sig == sig)
			return gt_proctable_signals[i].name;
	snprintf(buf, len, "%d", sig);
	return buf;
}

/* Symbolic name and what to do about it, for the errors kill() can give. */
static void kill_error_words(int e, const char **name, const char **hint)
{
	switch (e) {
	case EPERM:
		*name = "EPERM";
		*hint =
		    "the process belongs to another user; run gputop as root";
		return;
	case ESRCH:
		*name = "ESRCH";
		*hint = "the process has already exited";
		return;
	case EINVAL:
		*name = "EINVAL";
		*hint = "this system does not have that signal";
		return;
	default:
		*name = NULL;
		*hint = "unexpected error from kill()";
		return;
	}
}

int gt_proctable_send_signal(int32_t pid, int sig, char *msg, size_t len)
{
	char nbuf[12];
	const char *sname = gt_proctable_signal_name(sig, nbuf, sizeof(nbuf));

	if (pid <= 0) {
		/* kill(0) or kill(-n) would signal whole process groups and
		 * kill(-1) every process we may signal: never from a row */
		if (msg && len)
			snprintf(msg, len,
			         "kill %" PRId32 " %s: refused: not a single "
			         "process id",
			         pid, sname);
		errno = EINVAL;
		return EINVAL;
	}
	if (kill((pid_t)pid, sig) == 0) {
		if (msg && len)
			snprintf(msg, len, "sent %s to %" PRId32, sname, pid);
		return 0;
	}

	int e = errno;
	const char *ename, *hint;
	char ebuf[16];
	kill_error_words(e, &ename, &hint);
	if (!ename) {
		snprintf(ebuf, sizeof(ebuf), "errno %d", e);
		ename = ebuf;
	}
	if (msg && len)
		snprintf(msg, len, "kill %" PRId32 " %s: %s (%s): %s", pid,
		         sname, strerror(e), ename, hint);
	errno = e;
	return e;
}

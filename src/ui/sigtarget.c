/* SPDX-License-Identifier: MIT */
/*
 * sigtarget.c - the process a signal dialog is about (see sigtarget.h):
 * binding it when the dialog opens, checking it when the user confirms,
 * and sending through a pidfd so the signal cannot reach a reused pid.
 */
#include "ui/sigtarget.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ui/proctable.h"
#include "core/text.h"

void gt_sigtarget_init(struct gt_sigtarget *t)
{
	memset(t, 0, sizeof(*t));
	t->pidfd = -1;
}

bool gt_sigtarget_parse_start(const char *stat, uint64_t *start)
{
	const char *s = strrchr(stat, ')');
	if (!s)
		return false;
	s++;
	/* Field 3 (state) follows the comm; the start time is field 22. */
	for (int field = 3; field <= 22; field++) {
		while (*s == ' ')
			s++;
		if (!*s)
			return false;
		if (field == 22) {
			char *end;
			errno = 0;
			unsigned long long v = strtoull(s, &end, 10);
			if (end == s || errno ||
			    (*end && *end != ' ' && *end != '\n'))
				return false;
			*start = (uint64_t)v;
			return true;
		}
		s += strcspn(s, " ");
	}
	return false;
}

static bool read_start(int32_t pid, uint64_t *start)
{
	char path[48], buf[1024];
	snprintf(path, sizeof(path), "/proc/%" PRId32 "/stat", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return gt_sigtarget_parse_start(buf, start);
}

static int pidfd_open_pid(int32_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

static int pidfd_signal(int fd, int sig)
{
#ifdef SYS_pidfd_send_signal
	return (int)syscall(SYS_pidfd_send_signal, fd, sig, NULL, 0);
#else
	(void)fd;
	(void)sig;
	errno = ENOSYS;
	return -1;
#endif
}

void gt_sigtarget_bind(struct gt_sigtarget *t, const struct gt_process *p)
{
	gt_sigtarget_release(t);
	if (!p || p->pid <= 0)
		return;
	t->bound = true;
	t->pid = p->pid;
	t->row = *p;
	t->row.cmdline = NULL;
	/* The pidfd first, then the start time: a pid reused between the
	 * two would show a start time other than the pidfd's process. */
	t->pidfd = pidfd_open_pid(p->pid);
	t->start_known = read_start(p->pid, &t->start);
}

void gt_sigtarget_release(struct gt_sigtarget *t)
{
	/* A zeroed target (bound false) holds no descriptor, not fd 0. */
	if (t->bound && t->pidfd >= 0)
		close(t->pidfd);
	gt_sigtarget_init(t);
}

enum gt_sigtarget_state gt_sigtarget_check(const struct gt_sigtarget *t,
                                           const struct gt_process *procs,
                                           size_t n, bool start_known,
                                           uint64_t start)
{
	bool listed = false;
	for (size_t i = 0; i < n && !listed; i++)
		listed = procs[i].pid == t->pid;
	if (!t->bound || !listed)
		return GT_SIGTARGET_GONE;
	/* The row was read before the dialog opened: a pid that changed
	 * hands in between is caught here, whatever happens after. */
	if (t->row.start_known && t->start_known && t->row.start != t->start)
		return GT_SIGTARGET_CHANGED;
	if (t->start_known && !start_known)
		return GT_SIGTARGET_GONE;
	if (t->start_known && start != t->start)
		return GT_SIGTARGET_CHANGED;
	return GT_SIGTARGET_SAME;
}

int gt_sigtarget_send(struct gt_sigtarget *t, int sig,
                      const struct gt_process *procs, size_t n, char *msg,
                      size_t len)
{
	char nbuf[12], name[GT_COMM_LEN * 4];
	const char *sname = gt_proctable_signal_name(sig, nbuf, sizeof(nbuf));
	uint64_t start = 0;

	if (!t->bound) {
		snprintf(msg, len, "no process chosen: %s not sent", sname);
		return -1;
	}
	gt_text_escape(name, sizeof(name), t->row.name, strlen(t->row.name));
	bool known = read_start(t->pid, &start);
	switch (gt_sigtarget_check(t, procs, n, known, start)) {
	case GT_SIGTARGET_GONE:
		snprintf(msg, len, "%" PRId32 " (%s) has gone: %s not sent",
		         t->pid, name, sname);
		return -1;
	case GT_SIGTARGET_CHANGED:
		snprintf(msg, len,
		         "pid %" PRId32 " is now another process (%s has "
		         "gone): %s not sent",
		         t->pid, name, sname);
		return -1;
	case GT_SIGTARGET_SAME:
		break;
	}
	if (t->pidfd >= 0) {
		if (pidfd_signal(t->pidfd, sig) == 0) {
			snprintf(msg, len, "sent %s to %" PRId32, sname,
			         t->pid);
			return 0;
		}
		int e = errno;
		if (e == ESRCH) {
			snprintf(msg, len,
			         "%" PRId32 " (%s) has exited: %s not sent",
			         t->pid, name, sname);
			return -1;
		}
		if (e != ENOSYS) {
			snprintf(msg, len, "kill %" PRId32 " %s: %s%s", t->pid,
			         sname, strerror(e),
			         e == EPERM ? " (EPERM): another user's "
			                      "process; run gputop as root"
			                    : "");
			return -1;
		}
	}
	/* No pidfd (no such pid here, or a kernel before 5.3): the check
	 * above is all there is, and kill() reports the rest. */
	return gt_proctable_send_signal(t->pid, sig, msg, len) == 0 ? 0 : -1;
}

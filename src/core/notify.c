/* SPDX-License-Identifier: MIT */
/*
 * notify.c - the "something new" signal (see notify.h) as an eventfd: its
 * counter is the number of signals since the last clear, and poll() sees
 * it readable while that is not zero.
 */
#include "core/notify.h"

#include <errno.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

int gt_notify_open(struct gt_notify *n)
{
	n->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	return n->fd < 0 ? -1 : 0;
}

void gt_notify_close(struct gt_notify *n)
{
	if (n->fd >= 0)
		close(n->fd);
	n->fd = -1;
}

void gt_notify_signal(struct gt_notify *n)
{
	uint64_t one = 1;
	/* EAGAIN only if the counter were about to overflow (2^64 - 2
	 * unread signals): the reader is woken either way. */
	if (n->fd >= 0)
		(void)!write(n->fd, &one, sizeof(one));
}

int gt_notify_fd(const struct gt_notify *n)
{
	return n->fd;
}

uint64_t gt_notify_clear(struct gt_notify *n)
{
	uint64_t count = 0;
	if (n->fd < 0)
		return 0;
	while (read(n->fd, &count, sizeof(count)) < 0 && errno == EINTR)
		;
	return count; /* stays 0 on EAGAIN: nothing was signalled */
}

bool gt_notify_wait(const struct gt_notify *n, int timeout_ms)
{
	struct pollfd p = {.fd = n->fd, .events = POLLIN};
	if (n->fd < 0)
		return false;
	return poll(&p, 1, timeout_ms) > 0 && (p.revents & POLLIN);
}

/*
 * fdinfo_scan.h - the slow tier of the fdinfo scanner: one walk of
 * <proc>/PID/fd that finds the descriptors of DRM (and accel) devices.
 * Internal to fdinfo.c; a header of its own so that file stays small and
 * tests can call the walk directly.
 */
#ifndef GPUTOP_FDINFO_SCAN_H
#define GPUTOP_FDINFO_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The DRM descriptors of one process. */
struct gt_fdinfo_pid {
	int32_t pid;
	uint32_t nfds;
	int32_t *fds; /* owned */
	/* A device broker: pid 1, systemd-logind or seatd. They keep a copy
	 * of the DRM file they open for a compositor, so they must not be
	 * credited with its work when the compositor holds it too. */
	bool broker;
};

/* A finished walk: only pids with a DRM descriptor, in the order shared
 * clients are credited: brokers last, ascending pid within each group. */
struct gt_fdinfo_scan {
	struct gt_fdinfo_pid *pids; /* owned */
	size_t npids;
	/* Processes whose fd directory (or a link in it) was refused
	 * (EACCES/EPERM), kernel threads excepted: any of them may hold
	 * DRM files we cannot see. */
	size_t unreadable;
};

/*
 * Walks the proc tree at root. A descriptor is a DRM one when its link
 * target starts with /dev/dri/ or /dev/accel/ (this also serves fixture
 * trees, whose targets dangle), or, for a target under another /dev or
 * containing /dri/ or /accel/, when the node is a character device of
 * major 226 (DRM) or 261 (accel). Returns 0, or -ENOMEM (out is then
 * empty). An unreadable root gives an empty result.
 */
int gt_fdinfo_scan_run(const char *root, struct gt_fdinfo_scan *out);

void gt_fdinfo_scan_free(struct gt_fdinfo_scan *scan);

/* Whether comm (a process name, trailing newline allowed) of pid is a
 * device broker (see struct gt_fdinfo_pid). */
bool gt_fdinfo_is_broker(int32_t pid, const char *comm);

/* True for EACCES and EPERM: what "cannot read another user's process"
 * looks like. */
bool gt_fdinfo_errno_denied(int err);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * hostinfo.h - owns the facts about the machine gputop runs on that the
 * snapshot and the dashboard header show: host name, kernel, CPUs, memory and
 * who is looking (the euid decides whether other users' processes can be
 * read in full).
 */
#ifndef GPUTOP_HOSTINFO_H
#define GPUTOP_HOSTINFO_H

#include <stdint.h>

struct gt_hostinfo {
	char hostname[256]; /* uname() nodename */
	char kernel[128];   /* uname() release, e.g. "6.1.0-18-amd64" */
	unsigned cpu_count; /* online CPUs; 0 if unknown */
	uint64_t
	    memory_total_bytes; /* MemTotal of <procfs>/meminfo; 0 if unknown */
	unsigned euid;          /* geteuid() */
};

/*
 * Fills h. procfs_root NULL means "/proc"; meminfo is read from under it so
 * that --procfs of a host tree reports the host's memory. Every field gets a
 * value or its "unknown" value (0 or ""), even on failure. Returns 0 when
 * everything was read, -1 when some part was not.
 */
int gt_hostinfo_read(struct gt_hostinfo *h, const char *procfs_root);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * fdinfo_scan.h - the slow tier of the fdinfo scanner: the walk of
 * <proc>/PID/fd that finds the descriptors of DRM (and accel) devices, and
 * the cache that lets a walk look again only at what changed. Internal to
 * fdinfo.c; a header of its own so that file stays small and tests can
 * call the walk directly.
 */
#ifndef GPUTOP_FDINFO_SCAN_H
#define GPUTOP_FDINFO_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The slow pass: every process has all the links of its fd directory read
 * again once every N walks, pids spread over the walks (pid + walk number),
 * so a walk re-reads about 1/N of them. N is the number of open
 * descriptors at the last walk over GT_FDINFO_SCAN_FULL_LINKS, rounded up
 * to a power of two within [GT_FDINFO_SCAN_FULL_MIN, _MAX]: the pass costs
 * about that many readlinks a walk (~1.3 ms at 2.5 us each) up to 131,072
 * descriptors, more beyond, and a small machine is re-read sooner. Powers
 * of two so that a change of N never delays a process past the largest N
 * in between. N = 8 is 80 s at the collector's defaults, 256 is 43 min.
 */
#define GT_FDINFO_SCAN_FULL_LINKS 512u
#define GT_FDINFO_SCAN_FULL_MIN   8u
#define GT_FDINFO_SCAN_FULL_MAX   256u

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
	/* What the walk cost, for tests and the benchmark: fd directories
	 * listed, links read, and processes classified in full (new ones,
	 * a new process under a known pid, the slow pass). */
	size_t listed, links, full;
};

/* What the last walk saw of each process (opaque; owned by the caller of
 * gt_fdinfo_scan_run, one per proc root). */
struct gt_fdinfo_scan_cache;

/* NULL on ENOMEM. */
struct gt_fdinfo_scan_cache *gt_fdinfo_scan_cache_new(void);
void gt_fdinfo_scan_cache_free(struct gt_fdinfo_scan_cache *cache);

/* Processes the cache remembers: those seen by the last walk. */
size_t gt_fdinfo_scan_cache_count(const struct gt_fdinfo_scan_cache *cache);

/*
 * Walks the proc tree at root. A descriptor is a DRM one when its link
 * target starts with /dev/dri/ or /dev/accel/ (this also serves fixture
 * trees, whose targets dangle), or, for a target under another /dev or
 * containing /dri/ or /accel/, when the node is a character device of
 * major 226 (DRM) or 261 (accel). Returns 0, or -ENOMEM (out is then
 * empty and the cache forgotten). An unreadable root gives an empty result.
 *
 * cache (NULL: none, every link is read) remembers, per process, the stat
 * of its fd directory, its start time (stat field 22) and the numbers of
 * the descriptors already classified. The same fd directory (device,
 * inode and ctime: procfs makes one per process and keeps it while the
 * process lives) is the same process; another one is only if the start
 * times match, so a pid reused by a new process starts afresh. A walk then
 * costs, per process:
 *  - unchanged fd directory (same inode, size, times, owner; on procfs the
 *    size is the number of open descriptors, Linux >= 6.2): one fstatat;
 *  - changed: listing the directory (and reading stat where it is not the
 *    same directory) and one readlink per descriptor number not open at
 *    the last walk;
 *  - a new process, or a new one under a known pid: every link, as
 *    without a cache; kernel threads: one stat read, once;
 *  - its full pass (the slow pass above): every link.
 * Where the size says nothing (procfs before Linux 6.2: always 0) the
 * directory is listed on every walk; one changed within a timestamp
 * granule of a walk (20 ms; 1 s where times are whole seconds) is listed
 * at the next one too, since a change then may not move its times (test
 * trees; procfs times never move).
 *
 * Staleness: a DRM descriptor opened under a number the process did not
 * have open at the last walk is found by the next walk, unless on procfs
 * the process closed as many descriptors as it opened in between (the
 * count is the same). A DRM descriptor that reuses a number the process
 * already had open at the last walk (closed, then reopened on the device,
 * both between two walks) is found by that process's full pass. Both wait
 * at most N walks (see GT_FDINFO_SCAN_FULL_LINKS); at the collector's
 * defaults (a walk every 10 s) that is 80 s up to 4,096 open descriptors
 * in all, 640 s at 32,768, and never more than 2,560 s (the benchmark's
 * 100,000).
 */
int gt_fdinfo_scan_run(const char *root, struct gt_fdinfo_scan_cache *cache,
                       struct gt_fdinfo_scan *out);

void gt_fdinfo_scan_free(struct gt_fdinfo_scan *scan);

/* Whether comm (a process name, trailing newline allowed) of pid is a
 * device broker (see struct gt_fdinfo_pid). */
bool gt_fdinfo_is_broker(int32_t pid, const char *comm);

/* True for EACCES and EPERM: what "cannot read another user's process"
 * looks like. */
bool gt_fdinfo_errno_denied(int err);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * procinfo_priv.h - shared by procinfo.c (reading the proc tree) and
 * procinfo_cache.c (the per-pid cache): the state of a struct gt_procinfo
 * and the cache's calls. Not for other modules: they use procinfo.h.
 */
#ifndef GPUTOP_PROCINFO_PRIV_H
#define GPUTOP_PROCINFO_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "linux/procinfo.h"

#define PI_USERS 32u

struct gt_procinfo_entry {
	int32_t pid;
	uint32_t uid;     /* uid the user string belongs to */
	uint64_t start;   /* stat field 22: a reused pid has another */
	int32_t ppid;     /* stat field 4 as last read */
	uint64_t round;   /* sweep round of the last fill */
	uint64_t cpu_ns;  /* CPU time used at the baseline, ns */
	uint64_t base_ns; /* now_ns at the baseline */
	bool base_clock;  /* the baseline came from the process CPU clock */
	int64_t cpu;      /* last computed cpercent, when has_cpu */
	bool has_base;
	bool has_cpu;
	bool statics; /* cmdline and container are current */
	/* Rounds that found cmdline empty since the last exec. A process
	 * caught inside execve() already has its new comm but not yet its
	 * arguments: its empty cmdline is read again, a few rounds, before
	 * it is taken for a kernel thread's or a zombie's "[comm]". */
	uint8_t empty_cmdline_reads;
	char user[GT_USER_LEN];
	char comm[GT_COMM_LEN];
	char container[GT_CONTAINER_LEN];
	char *cmdline; /* owned; NULL when unreadable */
	/* /proc/PID/stat kept open where stat is what a round reads: a
	 * steady-state round is then one pread. The fd pins the task it was
	 * opened for, so a reused pid makes the read fail instead of
	 * answering for another process. */
	bool fd_open;
	int stat_fd;
	/* The fast path, only where the proc tree shows our own pid
	 * namespace (pi->own_ns): CPU ns from the process CPU clock of the
	 * pid (one clock_gettime: half what a schedstat read costs, a ninth
	 * of a stat read, and it counts every thread, where schedstat counts
	 * the leader thread only), resident pages from statm, and comm
	 * every PI_RECHECK_ROUNDS rounds; statm and comm are kept open and
	 * pin the task. */
	bool fast_open;
	int statm_fd, comm_fd;
	clockid_t clock;
	/* The pid had no /proc entry (another PID namespace, or it exited):
	 * not looked up again before this round, so a driver that keeps
	 * reporting such a pid costs nothing per round. */
	uint64_t absent_until;
};

/* uid -> name, so thousands of pids of one user cost one passwd lookup
 * (which may be a network round trip with LDAP/SSSD). */
struct pi_user {
	uint32_t uid;
	bool used;
	char name[GT_USER_LEN];
};

struct gt_procinfo {
	char *root;
	long clk_tck;
	int64_t btime;      /* boot, seconds since the epoch; 0: unknown */
	uint64_t page_size; /* bytes, for stat's resident pages */
	uint64_t round;

	struct gt_procinfo_entry *ents; /* dense, owned */
	size_t nents, capents;
	int32_t *slots; /* index into ents, -1 = empty; power of two */
	size_t nslots;

	size_t nfds;    /* proc fds held open by entries */
	size_t max_fds; /* their budget */
	/* root is the proc file system of our own pid namespace, so its pid
	 * N is the N clock_getcpuclockid() takes (see own_pid_ns()). */
	bool own_ns;
	char *buf; /* scratch for file reads, owned */
	size_t bufcap;
	char *pwbuf; /* scratch for getpwuid_r, owned */
	size_t pwcap;

	struct pi_user users[PI_USERS];
	unsigned user_next;
};

/* The cache's calls (procinfo_cache.c). An entry's descriptors count in
 * pi->nfds, so they are closed through these only. */
/* What procinfo reads of /proc/PID/stat. */
struct pi_stat {
	char comm[GT_COMM_LEN];
	int32_t ppid;
	uint64_t utime, stime, start;
	uint64_t rss_pages;
};

/* procinfo_read.c: bounded, non-blocking reads of a proc tree and the
 * parsers of its text. Each returns 0 or an errno value unless said. */

/* Reads fd whole from offset 0 (up to max bytes) into pi->buf, NUL-
 * terminated. */
int gt_procinfo_read_fd(struct gt_procinfo *pi, int fd, size_t max,
                        size_t *lenp);
/* The directory of pid under the tree's root: a descriptor, or -1 with
 * errno set. */
int gt_procinfo_open_dir(struct gt_procinfo *pi, int32_t pid);
/* One file of a pid's directory, non-blocking and without following a
 * link: a descriptor, or -1 with errno set (a non-regular file: EINVAL). */
int gt_procinfo_openat(int dfd, const char *leaf);
/* Reads leaf of the directory dfd whole (up to max bytes) into pi->buf. */
int gt_procinfo_read_leaf(struct gt_procinfo *pi, int dfd, const char *leaf,
                          size_t max, size_t *lenp);
enum gt_why gt_procinfo_why_of_errno(int err);
/* A decimal number at *pp (before end), moving *pp past it. */
bool gt_procinfo_parse_u64(const char **pp, const char *end, uint64_t *out);
/* A command name of at most n bytes, control characters made '?'. */
void gt_procinfo_comm_copy(char out[GT_COMM_LEN], const char *s, size_t n);
/* /proc/PID/stat's fields; false when malformed. */
bool gt_procinfo_parse_stat(const char *buf, size_t len, struct pi_stat *st);
/* The value after "key:" in a status file, or NULL. */
const char *gt_procinfo_status_value(const char *buf, size_t len,
                                     const char *key);

struct gt_procinfo_entry *gt_procinfo_cache_find(struct gt_procinfo *pi,
                                                 int32_t pid);
struct gt_procinfo_entry *gt_procinfo_cache_add(struct gt_procinfo *pi,
                                                int32_t pid, uint64_t start);
void gt_procinfo_entry_reset(struct gt_procinfo *pi,
                             struct gt_procinfo_entry *e, int32_t pid,
                             uint64_t start);
void gt_procinfo_entry_close_fast(struct gt_procinfo *pi,
                                  struct gt_procinfo_entry *e);
void gt_procinfo_entry_close_stat(struct gt_procinfo *pi,
                                  struct gt_procinfo_entry *e);
void gt_procinfo_entry_close_fd(struct gt_procinfo *pi,
                                struct gt_procinfo_entry *e);
void gt_procinfo_cache_free(struct gt_procinfo *pi);

#endif

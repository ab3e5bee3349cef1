/* SPDX-License-Identifier: MIT */
/*
 * procinfo.c - owns reading the host side of GPU processes from a proc tree:
 * opening and parsing a pid's files, the user names, the fast path in our
 * own pid namespace and gt_procinfo_fill (see procinfo.h for the contract).
 * The per-pid cache that keeps a steady state at one small read per process
 * is procinfo_cache.c's.
 */
#include "linux/procinfo.h"
#include "linux/procinfo_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/resource.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#define PI_STAT_MAX    (16u * 1024)
#define PI_STATUS_MAX  4096u /* Uid: is among the first lines */
#define PI_CMDLINE_MAX (32u * 1024)
#define PI_CGROUP_MAX  (64u * 1024)
#define PI_CPU_MIN_NS  50000000ull
/* Proc fds kept open (at most 2 per process), at most half of
 * RLIMIT_NOFILE. */
#define PI_MAX_FDS 1536u
/* Every so many rounds the steady state also reads comm, which is how an
 * exec (a new comm, so a new command line) is noticed. */
#define PI_RECHECK_ROUNDS 8u
/* Rounds a pid missing from /proc is not looked up again (10 s at the
 * default process cadence). */
#define PI_ABSENT_ROUNDS       5u
#define PI_PWBUF_MAX           (1024u * 1024)
#define PI_EMPTY_CMDLINE_READS 3u

/* ---- users ----------------------------------------------------------------
 */

static void user_lookup(struct gt_procinfo *pi, uint32_t uid, char *out)
{
	for (unsigned i = 0; i < PI_USERS; i++) {
		if (pi->users[i].used && pi->users[i].uid == uid) {
			memcpy(out, pi->users[i].name, GT_USER_LEN);
			return;
		}
	}

	struct passwd pw, *res = NULL;
	bool named = false;
	for (;;) {
		if (!pi->pwbuf) {
			size_t cap = 16 * 1024;
			pi->pwbuf = malloc(cap);
			if (!pi->pwbuf)
				break;
			pi->pwcap = cap;
		}
		int rc =
		    getpwuid_r((uid_t)uid, &pw, pi->pwbuf, pi->pwcap, &res);
		if (rc == ERANGE && pi->pwcap < PI_PWBUF_MAX) {
			char *nb = realloc(pi->pwbuf, pi->pwcap * 2);
			if (!nb)
				break;
			pi->pwbuf = nb;
			pi->pwcap *= 2;
			continue;
		}
		if (rc == 0 && res && res->pw_name) {
			size_t n = strlen(res->pw_name);
			named = n > 0 && n < GT_USER_LEN;
			/* A name that could drive a terminal is not shown. */
			for (size_t i = 0; named && i < n; i++) {
				unsigned char ch =
				    (unsigned char)res->pw_name[i];
				if (ch < 0x20 || ch == 0x7f)
					named = false;
			}
			if (named)
				memcpy(out, res->pw_name, n + 1);
		}
		break;
	}
	if (!named)
		snprintf(out, GT_USER_LEN, "%u", (unsigned)uid);

	struct pi_user *u = &pi->users[pi->user_next];
	pi->user_next = (pi->user_next + 1) % PI_USERS;
	u->used = true;
	u->uid = uid;
	memcpy(u->name, out, GT_USER_LEN);
}

/* ---- the per-process reads ------------------------------------------------
 */

/* Reads cmdline and cgroup (below the pid directory dfd) into e: done
 * once per process image. */
static void read_statics(struct gt_procinfo *pi, struct gt_procinfo_entry *e,
                         int dfd)
{
	size_t len;

	bool settled = true;

	free(e->cmdline);
	e->cmdline = NULL;
	if (gt_procinfo_read_leaf(pi, dfd, "cmdline", PI_CMDLINE_MAX, &len) ==
	    0) {
		while (len > 0 && pi->buf[len - 1] == '\0')
			len--;
		if (len == 0 &&
		    ++e->empty_cmdline_reads < PI_EMPTY_CMDLINE_READS)
			settled = false;
		if (len == 0) {
			size_t n = strlen(e->comm);
			e->cmdline = malloc(n + 3);
			if (e->cmdline) {
				e->cmdline[0] = '[';
				memcpy(e->cmdline + 1, e->comm, n);
				memcpy(e->cmdline + 1 + n, "]", 2);
			}
		} else {
			e->cmdline = malloc(len + 1);
			if (e->cmdline) {
				for (size_t i = 0; i < len; i++)
					e->cmdline[i] =
					    pi->buf[i] ? pi->buf[i] : ' ';
				e->cmdline[len] = '\0';
			}
		}
	}

	e->container[0] = '\0';
	if (gt_procinfo_read_leaf(pi, dfd, "cgroup", PI_CGROUP_MAX, &len) == 0)
		gt_procinfo_parse_cgroup(pi->buf, len, e->container,
		                         sizeof(e->container));
	e->statics = settled;
}

/* Reads the effective uid from status below the pid directory dfd
 * (GT_UID_UNKNOWN if unknown). */
static uint32_t read_uid(struct gt_procinfo *pi, int dfd)
{
	size_t len;
	uint32_t uid = GT_UID_UNKNOWN;

	if (gt_procinfo_read_leaf(pi, dfd, "status", PI_STATUS_MAX, &len) != 0)
		return uid;
	const char *end = pi->buf + len;
	const char *v = gt_procinfo_status_value(pi->buf, len, "Uid");
	if (v) {
		uint64_t real, eff;
		const char *p = v;
		if (gt_procinfo_parse_u64(&p, end, &real) &&
		    gt_procinfo_parse_u64(&p, end, &eff) &&
		    eff < GT_UID_UNKNOWN)
			uid = (uint32_t)eff;
	}
	return uid;
}

/* CPU % from CPU ns used since the baseline. A baseline from the other
 * source (stat's ticks vs the CPU clock) is not comparable: start again. */
static void fill_cpu(struct gt_procinfo_entry *e, uint64_t cpu_ns, bool clock,
                     uint64_t now_ns, struct gt_val *out)
{
	if (!e->has_base || clock != e->base_clock || cpu_ns < e->cpu_ns ||
	    now_ns < e->base_ns) {
		e->has_base = true;
		e->has_cpu = false;
		e->base_clock = clock;
		e->cpu_ns = cpu_ns;
		e->base_ns = now_ns;
		gt_val_fail(out, GT_WHY_PENDING, 0);
		return;
	}
	uint64_t dt = now_ns - e->base_ns;
	if (dt < PI_CPU_MIN_NS) {
		if (e->has_cpu)
			gt_val_set(out, e->cpu);
		else
			gt_val_fail(out, GT_WHY_PENDING, 0);
		return;
	}
	/* ns of CPU over ns of wall time, in hundredths of a percent. */
	double cp = (double)(cpu_ns - e->cpu_ns) * 1e4 / (double)dt;
	if (cp > 9e15)
		cp = 9e15;
	e->cpu = (int64_t)(cp + 0.5);
	e->has_cpu = true;
	e->cpu_ns = cpu_ns;
	e->base_ns = now_ns;
	gt_val_set(out, e->cpu);
}

/* Sets up the fast path of e below its pid directory dfd: statm and comm
 * kept open and the pid's CPU clock. false outside our own pid namespace
 * (a pid of another one means another process to the clock) and where
 * the descriptor budget is spent. */
static bool fast_open(struct gt_procinfo *pi, struct gt_procinfo_entry *e,
                      int dfd)
{
	if (e->fast_open)
		return true;
	if (!pi->own_ns || pi->nfds + 2 > pi->max_fds)
		return false;
	int a = gt_procinfo_openat(dfd, "statm");
	if (a < 0)
		return false;
	int b = gt_procinfo_openat(dfd, "comm");
	clockid_t clock;
	if (b < 0 || clock_getcpuclockid((pid_t)e->pid, &clock) != 0) {
		close(a);
		if (b >= 0)
			close(b);
		return false;
	}
	e->statm_fd = a;
	e->comm_fd = b;
	e->clock = clock;
	e->fast_open = true;
	pi->nfds += 2;
	return true;
}

enum fast_result {
	FAST_OK,
	FAST_GONE, /* the task ended: the descriptors are worth nothing */
	FAST_EXEC, /* comm changed: stat and the command line to be read */
};

/* The CPU ns (the pid's process CPU clock) and resident pages (statm's
 * second number); with recheck, comm is compared with the cached one. */
static enum fast_result fast_read(struct gt_procinfo *pi,
                                  struct gt_procinfo_entry *e, bool recheck,
                                  uint64_t *cpu_ns, uint64_t *pages)
{
	struct timespec ts;
	size_t len;
	uint64_t size;
	const char *p;

	/* The clock first: it names the task by pid only. The statm read
	 * after it succeeds only while the task the descriptor pins is
	 * alive, so the pid could not have passed to another process
	 * before the clock was read. */
	if (clock_gettime(e->clock, &ts) != 0 || ts.tv_sec < 0)
		return FAST_GONE;
	*cpu_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	if (gt_procinfo_read_fd(pi, e->statm_fd, 256, &len) != 0)
		return FAST_GONE;
	p = pi->buf;
	if (!gt_procinfo_parse_u64(&p, pi->buf + len, &size) ||
	    !gt_procinfo_parse_u64(&p, pi->buf + len, pages))
		return FAST_GONE;
	if (!recheck)
		return FAST_OK;
	if (gt_procinfo_read_fd(pi, e->comm_fd, GT_COMM_LEN + 1, &len) != 0)
		return FAST_GONE;
	char comm[GT_COMM_LEN];
	if (len > 0 && pi->buf[len - 1] == '\n')
		len--;
	gt_procinfo_comm_copy(comm, pi->buf, len);
	return strcmp(comm, e->comm) == 0 ? FAST_OK : FAST_EXEC;
}

static void set_rss_pages(struct gt_procinfo *pi, uint64_t pages,
                          struct gt_val *rss)
{
	if (pages == UINT64_MAX || pages > (uint64_t)INT64_MAX / pi->page_size)
		gt_val_fail(rss, GT_WHY_NOT_COLLECTED, 0);
	else
		gt_val_set(rss, (int64_t)(pages * pi->page_size));
}

/* Copies what the cache knows of e into p. */
static void copy_out(const struct gt_procinfo *pi,
                     const struct gt_procinfo_entry *e, struct gt_process *p)
{
	p->host_known = true;
	/* A copied tree's or another namespace's start times mean nothing
	 * to the /proc that a signal's target is checked in. */
	p->start_known = pi->own_ns;
	p->start = e->start;
	p->start_unix =
	    pi->btime && e->start
	        ? pi->btime + (int64_t)(e->start / (uint64_t)pi->clk_tck)
	        : 0;
	p->uid = e->uid;
	p->ancestry[0] = e->ppid;
	memcpy(p->user, e->user, sizeof(p->user));
	memcpy(p->name, e->comm, sizeof(p->name));
	memcpy(p->container, e->container, sizeof(p->container));
	if (e->cmdline) {
		char *dup = strdup(e->cmdline);
		if (dup) {
			free(p->cmdline);
			p->cmdline = dup;
		}
	}
}

/* p's host side unknown, for why. */
static void host_unknown(struct gt_process *p, enum gt_why why)
{
	p->host_known = false;
	gt_val_fail(&p->f[GT_P_CPU], why, 0);
	gt_val_fail(&p->f[GT_P_HOST_MEM], why, 0);
}

/* A pid found missing a few rounds ago is not looked up again yet. Returns
 * true when that answered p. */
static bool fill_absent(struct gt_procinfo *pi, struct gt_procinfo_entry *e,
                        struct gt_process *p)
{
	if (!e || e->absent_until <= pi->round)
		return false;
	e->round = pi->round;
	host_unknown(p, GT_WHY_NOT_COLLECTED);
	return true;
}

/* Steady state in our own pid namespace: one clock_gettime and one small
 * read on a kept descriptor; every PI_RECHECK_ROUNDS rounds (spread over
 * pids) comm too. Returns true when that answered p. */
static bool fill_steady(struct gt_procinfo *pi, struct gt_procinfo_entry *e,
                        struct gt_process *p, uint64_t now_ns)
{
	uint64_t cpu_ns, pages;

	if (!e || !e->fast_open || !e->statics)
		return false;
	bool recheck = (pi->round + (uint64_t)e->pid) % PI_RECHECK_ROUNDS == 0;
	enum fast_result r = fast_read(pi, e, recheck, &cpu_ns, &pages);
	if (r == FAST_OK) {
		e->round = pi->round;
		fill_cpu(e, cpu_ns, true, now_ns, &p->f[GT_P_CPU]);
		set_rss_pages(pi, pages, &p->f[GT_P_HOST_MEM]);
		copy_out(pi, e, p);
		return true;
	}
	if (r == FAST_GONE)
		gt_procinfo_entry_close_fast(pi, e);
	/* FAST_EXEC: stat tells the new comm; the kept descriptors still pin
	 * the same process. */
	return false;
}

/* Reads and parses p's stat into *st: through e's kept descriptor while
 * it is still the same task, else below a newly opened pid directory
 * (*dfd, and stat's own *fd: the caller's to close or keep, also on
 * failure). 0 or an errno value. */
static int read_stat(struct gt_procinfo *pi, struct gt_procinfo_entry *e,
                     const struct gt_process *p, struct pi_stat *st, int *fd,
                     int *dfd)
{
	size_t len;
	int err = ENOENT;

	if (e && e->fd_open) {
		err = gt_procinfo_read_fd(pi, e->stat_fd, PI_STAT_MAX, &len);
		if (err || !gt_procinfo_parse_stat(pi->buf, len, st) ||
		    st->start != e->start) {
			gt_procinfo_entry_close_fd(pi, e); /* the task ended */
			err = ENOENT;
		}
	}
	/* No such pid in our namespace means none in its /proc: kill(pid, 0)
	 * tells that for a tenth of what the failed open costs, which counts
	 * for pids a driver keeps reporting from other namespaces. */
	bool gone = err && p->pid > 0 && pi->own_ns &&
	            kill((pid_t)p->pid, 0) != 0 && errno == ESRCH;
	if (err && p->pid > 0 && !gone) {
		*dfd = gt_procinfo_open_dir(pi, p->pid);
		*fd = gt_procinfo_openat(*dfd, "stat");
		err = *fd < 0 ? errno
		              : gt_procinfo_read_fd(pi, *fd, PI_STAT_MAX, &len);
		if (!err && !gt_procinfo_parse_stat(pi->buf, len, st))
			err = EINVAL;
	}
	return err;
}

/* stat could not be read (err): the descriptors are closed, a missing pid
 * is remembered for a few rounds, and p's host side is unknown. */
static void fill_unreadable(struct gt_procinfo *pi, struct gt_procinfo_entry *e,
                            struct gt_process *p, int err, int fd, int dfd)
{
	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	if (err == ENOENT && p->pid > 0) {
		if (!e)
			e = gt_procinfo_cache_add(pi, p->pid, 0);
		if (e) {
			e->round = pi->round;
			e->absent_until = pi->round + PI_ABSENT_ROUNDS;
		}
	}
	host_unknown(p, gt_procinfo_why_of_errno(err));
}

/* The cache entry of the task st describes: e, reset when the pid was
 * reused, or a new one; tmp, reset, when there is no memory for one
 * (*cached false: answered once, uncached). A new comm (first sight or an
 * exec) marks the command line to be read again. */
static struct gt_procinfo_entry *
stat_entry(struct gt_procinfo *pi, struct gt_procinfo_entry *e, int32_t pid,
           const struct pi_stat *st, struct gt_procinfo_entry *tmp,
           bool *cached)
{
	*cached = true;
	if (e && e->start != st->start) /* the pid was reused */
		gt_procinfo_entry_reset(pi, e, pid, st->start);
	if (!e)
		e = gt_procinfo_cache_add(pi, pid, st->start);
	if (!e) {
		memset(tmp, 0, sizeof(*tmp));
		gt_procinfo_entry_reset(pi, tmp, pid, st->start);
		e = tmp;
		*cached = false;
	}
	e->round = pi->round;
	e->ppid = st->ppid;
	if (strcmp(e->comm, st->comm) != 0) {
		memcpy(e->comm, st->comm, sizeof(e->comm));
		e->statics = false;
		e->empty_cmdline_reads = 0;
	}
	return e;
}

/* First sight or an exec: who runs it and what it is. A steady-state
 * round reads none of this. */
static void read_image(struct gt_procinfo *pi, struct gt_procinfo_entry *e,
                       int dfd)
{
	uint32_t uid = read_uid(pi, dfd);
	if (uid == GT_UID_UNKNOWN)
		e->user[0] = '\0';
	else if (uid != e->uid || e->user[0] == '\0')
		user_lookup(pi, uid, e->user);
	e->uid = uid;
	read_statics(pi, e, dfd);
}

/* CPU % and resident memory: from the fast path when it can be set up
 * (then stat's descriptor fd is closed), else from stat, whose descriptor
 * is kept for the next rounds while the budget allows. */
static void fill_usage(struct gt_procinfo *pi, struct gt_procinfo_entry *e,
                       struct gt_process *p, const struct pi_stat *st, int fd,
                       int dfd, bool cached, uint64_t now_ns)
{
	uint64_t cpu_ns, pages;

	if (cached && fast_open(pi, e, dfd) &&
	    fast_read(pi, e, false, &cpu_ns, &pages) == FAST_OK) {
		fill_cpu(e, cpu_ns, true, now_ns, &p->f[GT_P_CPU]);
		set_rss_pages(pi, pages, &p->f[GT_P_HOST_MEM]);
		/* The fast path never reads stat: no descriptor for it. */
		gt_procinfo_entry_close_stat(pi, e);
		if (fd >= 0)
			close(fd);
		return;
	}
	if (cached)
		gt_procinfo_entry_close_fast(pi, e);
	/* stat is what each round reads: keep it open. */
	if (fd >= 0) {
		if (cached && !e->fd_open && pi->nfds < pi->max_fds) {
			e->stat_fd = fd;
			e->fd_open = true;
			pi->nfds++;
		} else {
			close(fd);
		}
	}
	uint64_t ticks = st->utime + st->stime;
	fill_cpu(e, ticks * 1000000000ull / (uint64_t)pi->clk_tck, false,
	         now_ns, &p->f[GT_P_CPU]);
	set_rss_pages(pi, st->rss_pages, &p->f[GT_P_HOST_MEM]);
}

void gt_procinfo_fill(struct gt_procinfo *pi, struct gt_process *p,
                      uint64_t now_ns)
{
	struct pi_stat st;
	int err, fd = -1, dfd = -1;
	bool cached;
	struct gt_procinfo_entry tmp,
	    *e = p->pid > 0 ? gt_procinfo_cache_find(pi, p->pid) : NULL;

	if (fill_absent(pi, e, p) || fill_steady(pi, e, p, now_ns))
		return;
	err = read_stat(pi, e, p, &st, &fd, &dfd);
	if (err) {
		fill_unreadable(pi, e, p, err, fd, dfd);
		return;
	}
	e = stat_entry(pi, e, p->pid, &st, &tmp, &cached);
	/* stat came through the kept descriptor: the reads below (of the
	 * first sight of an image, or the setup of the fast path) need the
	 * pid directory too. */
	if (dfd < 0 && (!e->statics || (cached && !e->fast_open && pi->own_ns &&
	                                pi->nfds + 2 <= pi->max_fds)))
		dfd = gt_procinfo_open_dir(pi, p->pid);
	if (!e->statics)
		read_image(pi, e, dfd);
	fill_usage(pi, e, p, &st, fd, dfd, cached, now_ns);
	if (dfd >= 0)
		close(dfd);
	copy_out(pi, e, p);
	if (!cached)
		free(tmp.cmdline);
}

int gt_procinfo_parent(struct gt_procinfo *pi, int32_t pid, int32_t *ppid)
{
	struct pi_stat st;
	size_t len;
	int err = ENOENT;

	if (pid <= 0)
		return EINVAL;
	/* A pid in the cache was read this round: no file to open. */
	struct gt_procinfo_entry *e = gt_procinfo_cache_find(pi, pid);
	if (e && e->round == pi->round && e->ppid > 0) {
		*ppid = e->ppid;
		return 0;
	}
	int dfd = gt_procinfo_open_dir(pi, pid);
	int fd = gt_procinfo_openat(dfd, "stat");
	if (fd >= 0) {
		err = gt_procinfo_read_fd(pi, fd, PI_STAT_MAX, &len);
		if (!err && !gt_procinfo_parse_stat(pi->buf, len, &st))
			err = EINVAL;
		close(fd);
	} else {
		err = errno;
	}
	if (dfd >= 0)
		close(dfd);
	if (!err)
		*ppid = st.ppid;
	return err;
}

/* True when root is the proc file system of our own pid namespace: its
 * "self" is this process, under the pid getpid() gives, and its NSpid line
 * holds that one pid (one more number per pid namespace between the one
 * the proc tree shows and ours). A copied tree, or the host's /proc seen
 * from a container, is not. */
static bool own_pid_ns(struct gt_procinfo *pi)
{
	char path[PATH_MAX];
	struct statfs fs;
	size_t len;
	uint64_t pid;
	bool own = false;

	int n = snprintf(path, sizeof(path), "%s/self/status", pi->root);
	if (n < 0 || (size_t)n >= sizeof(path))
		return false;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return false;
	if (fstatfs(fd, &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC &&
	    gt_procinfo_read_fd(pi, fd, PI_STAT_MAX, &len) == 0) {
		const char *end = pi->buf + len;
		const char *p = gt_procinfo_status_value(pi->buf, len, "NSpid");
		if (p && gt_procinfo_parse_u64(&p, end, &pid) &&
		    pid == (uint64_t)getpid()) {
			while (p < end && (*p == ' ' || *p == '\t'))
				p++;
			own = p == end || *p == '\n';
		}
	}
	close(fd);
	return own;
}

/* The boot time (stat's "btime", seconds since the epoch) of the tree's
 * system, to turn start times into dates; 0 when unknown. */
static int64_t read_btime(struct gt_procinfo *pi)
{
	char path[PATH_MAX];
	size_t len;
	int64_t btime = 0;

	snprintf(path, sizeof(path), "%s/stat", pi->root);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return 0;
	if (gt_procinfo_read_fd(pi, fd, 1u << 20, &len) == 0) {
		/* A line "btime N" (no colon, unlike status). */
		const char *v = strstr(pi->buf, "\nbtime ");
		if (v)
			btime = strtoll(v + 7, NULL, 10);
	}
	close(fd);
	return btime > 0 ? btime : 0;
}

struct gt_procinfo *gt_procinfo_new(const char *procfs_root)
{
	struct gt_procinfo *pi = calloc(1, sizeof(*pi));
	if (!pi)
		return NULL;
	pi->root = strdup(procfs_root ? procfs_root : "/proc");
	pi->bufcap = 4096;
	pi->buf = malloc(pi->bufcap);
	if (!pi->root || !pi->buf) {
		gt_procinfo_free(pi);
		return NULL;
	}
	/* A trailing '/' would only double up in paths. */
	size_t n = strlen(pi->root);
	while (n > 1 && pi->root[n - 1] == '/')
		pi->root[--n] = '\0';
	/* Keep at most half the descriptor limit for cached proc files. */
	struct rlimit rl;
	pi->max_fds = PI_MAX_FDS;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
	    rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur / 2 < pi->max_fds)
		pi->max_fds = (size_t)(rl.rlim_cur / 2);
	long page = sysconf(_SC_PAGESIZE);
	pi->page_size = page > 0 ? (uint64_t)page : 4096;
	pi->clk_tck = sysconf(_SC_CLK_TCK);
	if (pi->clk_tck <= 0)
		pi->clk_tck = 100;
	pi->own_ns = own_pid_ns(pi);
	pi->btime = read_btime(pi);
	return pi;
}

void gt_procinfo_free(struct gt_procinfo *pi)
{
	if (!pi)
		return;
	gt_procinfo_cache_free(pi);
	free(pi->buf);
	free(pi->pwbuf);
	free(pi->root);
	free(pi);
}

/* SPDX-License-Identifier: MIT */
/*
 * fdinfo_scan.c - owns the discovery walk of the fdinfo scanner: which
 * processes hold DRM descriptors, and how many could not be looked at, and
 * the per-process cache that keeps a walk from reading every descriptor
 * link again (see fdinfo_scan.h). Run every few rounds; the per-round work
 * is in fdinfo.c.
 *
 * Why the cache looks the way it does (measured on a 2-core VM, 2,000
 * processes with 50 descriptors each): a readlink of every descriptor
 * costs ~250 ms a walk; listing every fd directory without reading a
 * link still costs 50 ms (ext4) to 110 ms (procfs), over the 20 ms
 * budget; one fstatat per fd directory costs 5-10 ms. So an unchanged
 * process costs one fstatat, and only a changed one is listed.
 */
#include "linux/fdinfo_scan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#define FDI_DRM_MAJOR   226u
#define FDI_ACCEL_MAJOR 261u
#define FDI_PF_KTHREAD  0x00200000ull
/* In a cached descriptor number: the descriptor is a DRM one. Numbers are
 * at most INT32_MAX, so the top bit is free. */
#define FDI_FD_DRM 0x80000000u
#define FDI_FD_NUM 0x7fffffffu
/* How long after a change a directory's times may not move again: the
 * timestamp granularity. Whole seconds where a file system keeps no more
 * (ext4 with small inodes), else the kernel's coarse clock, one tick
 * (10 ms at HZ=100), with a margin. */
#define FDI_RACY_COARSE_NS 1000000000ll
#define FDI_RACY_FINE_NS   20000000ll
/* PROC_SUPER_MAGIC (linux/magic.h): procfs, whose times never move. */
#define FDI_PROC_MAGIC 0x9fa0

/* The stat of one fd directory: equal stamps mean that, as far as the
 * file system tells, nothing was opened or closed in between. On procfs
 * the inode is new for each process (and stays while it lives), its
 * times never move, and the size is the number of open descriptors
 * (Linux >= 6.2, else 0): as many closes as opens go unseen. On other
 * file systems (test trees) the times move with every entry added or
 * removed. The owner and mode are there because a process that changes
 * its credentials changes who may read the directory. */
struct fdi_stamp {
	uint64_t dev, ino, size;
	int64_t mtime_s, mtime_ns, ctime_s, ctime_ns;
	uint32_t uid, mode;
};

/* What the last walk saw of one process. */
struct fdi_proc {
	int32_t pid;
	uint32_t nfds;
	uint32_t ndrm;  /* entries of fds with FDI_FD_DRM */
	uint32_t *fds;  /* owned: the open descriptor numbers, ascending */
	uint64_t start; /* stat field 22, clock ticks after boot; 0 = unknown */
	struct fdi_stamp stamp;
	bool stamped; /* stamp was taken */
	bool racy;    /* ... but too close to a change to prove the next one */
	bool kthread;
	bool denied; /* the directory or one of its links was refused */
};

struct gt_fdinfo_scan_cache {
	struct fdi_proc *procs; /* owned: the last walk, ascending pid */
	size_t nprocs, capprocs;
	struct fdi_proc *next; /* owned scratch: the walk being made */
	size_t capnext;
	int32_t *pids; /* owned scratch: the pids of one walk */
	size_t cappids;
	uint32_t *list; /* owned scratch: one fd directory */
	size_t caplist;
	uint64_t walks; /* walks made: schedules the full passes */
	uint64_t nfds;  /* descriptors the last walk saw, all processes */
};

/* One walk's state. */
struct fdi_walk {
	struct gt_fdinfo_scan_cache *cache;
	struct gt_fdinfo_scan *out; /* its cost counters */
	int rootfd;
	int64_t now_s, now_ns; /* CLOCK_REALTIME at the start */
	uint64_t full_every;   /* N of the slow pass (fdinfo_scan.h) */
	bool procfs;           /* the root is procfs: times say nothing */
};

bool gt_fdinfo_errno_denied(int err)
{
	return err == EACCES || err == EPERM;
}

/* A /proc entry name that is a pid or fd number. */
static bool fdi_name_int(const char *s, int32_t *out)
{
	int64_t x = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		x = x * 10 + (*s - '0');
		if (x > INT32_MAX)
			return false;
	}
	*out = (int32_t)x;
	return true;
}

static bool fdi_starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Grows *arr (elements of size) to hold n. Callers pass the address of a
 * void * copy of their pointer, not a cast of its address. */
static bool fdi_reserve(void **arr, size_t *cap, size_t n, size_t size)
{
	if (n <= *cap)
		return true;
	size_t ncap = *cap ? *cap : 16;
	while (ncap < n)
		ncap *= 2;
	void *na = realloc(*arr, ncap * size);
	if (!na)
		return false;
	*arr = na;
	*cap = ncap;
	return true;
}

/* ---- one process ------------------------------------------------------- */

/* Reads the start time and the kernel-thread flag of pid from its stat
 * (world-readable). Leaves *start 0 and *kthread false when it cannot.
 * Kernel threads have fd directories nobody else may open; they hold no
 * DRM files, so they must count neither as unreadable nor be looked at
 * again. */
static void fdi_read_stat(int rootfd, int32_t pid, uint64_t *start,
                          bool *kthread)
{
	char name[32], buf[1024];
	*start = 0;
	*kthread = false;
	snprintf(name, sizeof(name), "%d/stat", (int)pid);
	int fd = openat(rootfd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return;
	ssize_t len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return;
	buf[len] = '\0';
	/* Fields after comm, which may hold ')' itself: from the last one. */
	char *p = strrchr(buf, ')');
	if (!p)
		return;
	p++;
	for (int field = 3; field <= 22; field++) {
		while (*p == ' ')
			p++;
		char *end;
		errno = 0;
		unsigned long long v = strtoull(p, &end, 10);
		bool ok = end != p && errno == 0;
		if (field == 9 && ok)
			*kthread = (v & FDI_PF_KTHREAD) != 0;
		else if (field == 22 && ok)
			*start = v;
		while (*p && *p != ' ')
			p++;
	}
}

static void fdi_stamp_take(struct fdi_proc *ent, const struct stat *st,
                           const struct fdi_walk *w)
{
	struct fdi_stamp *s = &ent->stamp;
	s->dev = (uint64_t)st->st_dev;
	s->ino = (uint64_t)st->st_ino;
	s->size = (uint64_t)st->st_size;
	s->mtime_s = (int64_t)st->st_mtim.tv_sec;
	s->mtime_ns = (int64_t)st->st_mtim.tv_nsec;
	s->ctime_s = (int64_t)st->st_ctim.tv_sec;
	s->ctime_ns = (int64_t)st->st_ctim.tv_nsec;
	s->uid = (uint32_t)st->st_uid;
	s->mode = (uint32_t)st->st_mode;
	ent->stamped = true;
	/* Changed less than a timestamp granule before this walk: a change
	 * after it could leave the times as they are (the git index's
	 * "racily clean" problem), so the stamp cannot vouch for the next
	 * walk. Not on procfs, where the size is the signal and ctime is
	 * when the directory was first looked at: every new process would
	 * be listed twice. */
	int64_t gran = s->ctime_ns == 0 ? FDI_RACY_COARSE_NS : FDI_RACY_FINE_NS;
	int64_t ds = w->now_s - s->ctime_s, age_ns;
	if (ds < 0)
		age_ns = -1; /* set in the future: trust nothing */
	else if (ds >= 2)
		age_ns = gran; /* old enough; no overflow */
	else
		age_ns = ds * 1000000000ll + w->now_ns - s->ctime_ns;
	ent->racy = !w->procfs && age_ns < gran;
}

static bool fdi_stamp_same_dir(const struct fdi_stamp *a,
                               const struct fdi_stamp *b)
{
	return a->dev == b->dev && a->ino == b->ino &&
	       a->ctime_s == b->ctime_s && a->ctime_ns == b->ctime_ns;
}

static bool fdi_stamp_eq(const struct fdi_stamp *a, const struct fdi_stamp *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
	       a->mtime_s == b->mtime_s && a->mtime_ns == b->mtime_ns &&
	       a->ctime_s == b->ctime_s && a->ctime_ns == b->ctime_ns &&
	       a->uid == b->uid && a->mode == b->mode;
}

/* Whether descriptor name of the fd directory dirfd is a DRM device. The
 * link target decides (it also works on fixture trees, where the targets
 * dangle); a node reached under another path (a container's or chroot's
 * /dev) is stat'ed, and only paths that may be device nodes are, to keep
 * the scan cheap. */
static bool fdi_is_drm_fd(int dirfd, const char *name, const char *target)
{
	if (fdi_starts(target, "/dev/dri/") ||
	    fdi_starts(target, "/dev/accel/"))
		return true;
	if (!fdi_starts(target, "/dev/") && !strstr(target, "/dri/") &&
	    !strstr(target, "/accel/"))
		return false;
	struct stat st;
	if (fstatat(dirfd, name, &st, 0) != 0 || !S_ISCHR(st.st_mode))
		return false;
	unsigned maj = major(st.st_rdev);
	return maj == FDI_DRM_MAJOR || maj == FDI_ACCEL_MAJOR;
}

/* What known (the process at the last walk; NULL: none) said of
 * descriptor fd: 1 DRM, 0 not, -1 it was not open then. */
static int fdi_known(const struct fdi_proc *known, uint32_t fd)
{
	size_t lo = 0, hi = known ? known->nfds : 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t v = known->fds[mid] & FDI_FD_NUM;
		if (v == fd)
			return (known->fds[mid] & FDI_FD_DRM) != 0;
		if (v < fd)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static int fdi_u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a & FDI_FD_NUM;
	uint32_t y = *(const uint32_t *)b & FDI_FD_NUM;
	return (x > y) - (x < y);
}

/* Lists the open fd directory dir into the cache's scratch list, each
 * number flagged DRM or not: from known (the same process at the last
 * walk; NULL: none) when it had the number open, else by its link. A
 * refused link sets ent->denied and is left out, to be tried again.
 * Returns the count, or -1 on ENOMEM. */
static ssize_t fdi_list(struct fdi_walk *w, DIR *dir,
                        const struct fdi_proc *known, struct fdi_proc *ent)
{
	struct gt_fdinfo_scan_cache *c = w->cache;
	size_t n = 0;
	bool sorted = true;
	struct dirent *de;
	while ((de = readdir(dir)) != NULL) {
		int32_t fd;
		if (!fdi_name_int(de->d_name, &fd))
			continue;
		uint32_t v = (uint32_t)fd;
		int drm = fdi_known(known, v);
		if (drm >= 0) {
			v |= drm ? FDI_FD_DRM : 0;
		} else {
			char target[256];
			w->out->links++;
			ssize_t len = readlinkat(dirfd(dir), de->d_name, target,
			                         sizeof(target) - 1);
			if (len < 0) {
				ent->denied |= gt_fdinfo_errno_denied(errno);
				continue;
			}
			target[len] = '\0';
			if (fdi_is_drm_fd(dirfd(dir), de->d_name, target))
				v |= FDI_FD_DRM;
		}
		void *grown = c->list;
		if (!fdi_reserve(&grown, &c->caplist, n + 1, sizeof(*c->list)))
			return -1;
		c->list = grown;
		if (n > 0 && (c->list[n - 1] & FDI_FD_NUM) > (uint32_t)fd)
			sorted = false;
		c->list[n++] = v;
	}
	/* procfs lists in ascending order; other file systems may not. */
	if (!sorted)
		qsort(c->list, n, sizeof(*c->list), fdi_u32_cmp);
	return (ssize_t)n;
}

/* Moves the descriptor list of old (NULL: none) into ent. */
static void fdi_take_fds(struct fdi_proc *ent, struct fdi_proc *old)
{
	if (!old)
		return;
	ent->fds = old->fds;
	ent->nfds = old->nfds;
	ent->ndrm = old->ndrm;
	old->fds = NULL;
	old->nfds = 0;
}

/* Sets ent's descriptors to the n in the scratch list, in old's array when
 * that is what it holds or can be resized. false on ENOMEM. */
static bool fdi_store_fds(struct fdi_walk *w, struct fdi_proc *ent,
                          struct fdi_proc *old, size_t n)
{
	const uint32_t *list = w->cache->list;
	if (old && old->fds && old->nfds == n &&
	    memcmp(old->fds, list, n * sizeof(*list)) == 0) {
		fdi_take_fds(ent, old);
		return true;
	}
	uint32_t *fds = NULL;
	if (n > 0) {
		fds = realloc(old ? old->fds : NULL, n * sizeof(*fds));
		if (!fds)
			return false;
		memcpy(fds, list, n * sizeof(*fds));
	} else if (old) {
		free(old->fds);
	}
	if (old) {
		old->fds = NULL;
		old->nfds = 0;
	}
	ent->fds = fds;
	ent->nfds = (uint32_t)n;
	ent->ndrm = 0;
	for (size_t i = 0; i < n; i++)
		ent->ndrm += (fds[i] & FDI_FD_DRM) != 0;
	return true;
}

enum fdi_pid_result {
	FDI_PID_OOM = -1,
	FDI_PID_NONE = 0, /* gone, or no process: nothing to remember */
	FDI_PID_KEPT = 1, /* ent is filled */
};

/* Looks at pid, whose entry at the last walk was old (NULL: none; its
 * descriptor array may move to ent), and fills ent. */
static enum fdi_pid_result fdi_walk_pid(struct fdi_walk *w, int32_t pid,
                                        struct fdi_proc *old,
                                        struct fdi_proc *ent)
{
	char name[32];
	struct stat st;

	memset(ent, 0, sizeof(*ent));
	ent->pid = pid;
	snprintf(name, sizeof(name), "%d/fd", (int)pid);
	if (fstatat(w->rootfd, name, &st, 0) == 0)
		fdi_stamp_take(ent, &st, w);
	else if (errno == ENOENT || errno == ENOTDIR || errno == ESRCH)
		return FDI_PID_NONE;

	/* The slow pass: spread over the walks by pid. */
	bool full =
	    !old || (w->cache->walks + (uint32_t)pid) % w->full_every == 0;
	/* The same directory object: the same process (procfs keeps the
	 * inode and its ctime while the process lives; elsewhere any change
	 * moves ctime). Then also the same contents, unless the stamp says
	 * otherwise. */
	bool same_dir = old && old->stamped && !old->racy && ent->stamped &&
	                fdi_stamp_same_dir(&old->stamp, &ent->stamp);
	if (same_dir) {
		ent->start = old->start;
		ent->kthread = old->kthread;
		if (ent->kthread)
			return FDI_PID_KEPT;
		/* Nothing opened or closed: the last answer stands. Size 0
		 * is procfs before 6.2 (or no descriptors): no answer. */
		if (!full && ent->stamp.size != 0 &&
		    fdi_stamp_eq(&old->stamp, &ent->stamp)) {
			ent->denied = old->denied;
			fdi_take_fds(ent, old);
			return FDI_PID_KEPT;
		}
	} else {
		fdi_read_stat(w->rootfd, pid, &ent->start, &ent->kthread);
		if (ent->kthread)
			return FDI_PID_KEPT;
	}
	/* Another process under the same pid has nothing in common with the
	 * one cached: an unknown start time proves nothing. */
	bool same_proc =
	    old && (same_dir || (ent->start != 0 && ent->start == old->start));
	const struct fdi_proc *known = same_proc && !full ? old : NULL;

	int dfd = openat(w->rootfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		if (!gt_fdinfo_errno_denied(errno))
			return FDI_PID_NONE;
		ent->denied = true;
		return FDI_PID_KEPT;
	}
	DIR *dir = fdopendir(dfd);
	if (!dir) {
		close(dfd);
		return errno == ENOMEM ? FDI_PID_OOM : FDI_PID_NONE;
	}
	w->out->listed++;
	w->out->full += known == NULL;
	ssize_t n = fdi_list(w, dir, known, ent);
	closedir(dir);
	if (n < 0 || !fdi_store_fds(w, ent, old, (size_t)n))
		return FDI_PID_OOM;
	return FDI_PID_KEPT;
}

/* ---- the walk --------------------------------------------------------- */

static void fdi_procs_free(struct fdi_proc *procs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(procs[i].fds);
		procs[i].fds = NULL;
	}
}

struct gt_fdinfo_scan_cache *gt_fdinfo_scan_cache_new(void)
{
	return calloc(1, sizeof(struct gt_fdinfo_scan_cache));
}

void gt_fdinfo_scan_cache_free(struct gt_fdinfo_scan_cache *cache)
{
	if (!cache)
		return;
	fdi_procs_free(cache->procs, cache->nprocs);
	free(cache->procs);
	free(cache->next);
	free(cache->pids);
	free(cache->list);
	free(cache);
}

size_t gt_fdinfo_scan_cache_count(const struct gt_fdinfo_scan_cache *cache)
{
	return cache ? cache->nprocs : 0;
}

static int fdi_i32_cmp(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* The pids under the root, ascending, into the cache's scratch. */
static bool fdi_read_pids(struct gt_fdinfo_scan_cache *c, DIR *dir, size_t *n)
{
	bool sorted = true;
	struct dirent *de;
	*n = 0;
	while ((de = readdir(dir)) != NULL) {
		int32_t pid;
		if (!fdi_name_int(de->d_name, &pid))
			continue;
		void *grown = c->pids;
		if (!fdi_reserve(&grown, &c->cappids, *n + 1, sizeof(*c->pids)))
			return false;
		c->pids = grown;
		if (*n > 0 && c->pids[*n - 1] > pid)
			sorted = false;
		c->pids[(*n)++] = pid;
	}
	if (!sorted)
		qsort(c->pids, *n, sizeof(*c->pids), fdi_i32_cmp);
	return true;
}

bool gt_fdinfo_is_broker(int32_t pid, const char *comm)
{
	static const char *const brokers[] = {"systemd-logind", "seatd",
	                                      "systemd"};
	size_t n = strcspn(comm, "\n");

	if (pid == 1)
		return true;
	for (size_t i = 0; i < sizeof(brokers) / sizeof(brokers[0]); i++)
		if (strlen(brokers[i]) == n && memcmp(comm, brokers[i], n) == 0)
			return true;
	return false;
}

/* Reads comm only for the few pids that hold DRM descriptors, on every
 * walk: it changes at exec, which a process survives. */
static bool fdi_pid_broker(int rootfd, int32_t pid)
{
	char name[32], comm[64];
	if (pid == 1)
		return true;
	snprintf(name, sizeof(name), "%d/comm", (int)pid);
	int fd = openat(rootfd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	ssize_t len = read(fd, comm, sizeof(comm) - 1);
	close(fd);
	if (len <= 0)
		return false;
	comm[len] = '\0';
	return gt_fdinfo_is_broker(pid, comm);
}

static void fdi_pids_free(struct gt_fdinfo_pid *pids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(pids[i].fds);
	free(pids);
}

void gt_fdinfo_scan_free(struct gt_fdinfo_scan *scan)
{
	fdi_pids_free(scan->pids, scan->npids);
	memset(scan, 0, sizeof(*scan));
}

static int fdi_pid_cmp(const void *a, const void *b)
{
	const struct gt_fdinfo_pid *x = a, *y = b;
	if (x->broker != y->broker)
		return x->broker ? 1 : -1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* The result from the cache after a walk: the pids with DRM descriptors,
 * the unreadable count. -ENOMEM leaves out empty. */
static int fdi_result(const struct gt_fdinfo_scan_cache *c, int rootfd,
                      struct gt_fdinfo_scan *out)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nprocs; i++) {
		n += c->procs[i].ndrm > 0;
		out->unreadable += c->procs[i].denied && !c->procs[i].kthread;
	}
	if (n == 0)
		return 0;
	struct gt_fdinfo_pid *list = calloc(n, sizeof(*list));
	if (!list)
		return -ENOMEM;
	size_t k = 0;
	for (size_t i = 0; i < c->nprocs; i++) {
		const struct fdi_proc *p = &c->procs[i];
		if (p->ndrm == 0)
			continue;
		struct gt_fdinfo_pid *e = &list[k++];
		e->pid = p->pid;
		e->fds = malloc(p->ndrm * sizeof(*e->fds));
		if (!e->fds) {
			fdi_pids_free(list, k);
			return -ENOMEM;
		}
		for (uint32_t j = 0; j < p->nfds; j++) {
			uint32_t v = p->fds[j];
			if (v & FDI_FD_DRM)
				e->fds[e->nfds++] = (int32_t)(v & FDI_FD_NUM);
		}
		e->broker = fdi_pid_broker(rootfd, p->pid);
	}
	if (n > 1)
		qsort(list, n, sizeof(*list), fdi_pid_cmp);
	out->pids = list;
	out->npids = n;
	return 0;
}

/* Forgets every process (after ENOMEM, or when the root went away). */
static void fdi_cache_clear(struct gt_fdinfo_scan_cache *c)
{
	fdi_procs_free(c->procs, c->nprocs);
	c->nprocs = 0;
	c->nfds = 0;
}

/* N of the slow pass (see fdinfo_scan.h), from the last walk's count. */
static uint64_t fdi_full_every(const struct gt_fdinfo_scan_cache *c)
{
	uint64_t n = GT_FDINFO_SCAN_FULL_MIN;
	while (n < GT_FDINFO_SCAN_FULL_MAX &&
	       n * GT_FDINFO_SCAN_FULL_LINKS < c->nfds)
		n *= 2;
	return n;
}

/* One walk with cache c; the cache's previous entries are consumed in pid
 * order as the new ones are made, so a pid that is gone is dropped. */
static int fdi_walk(struct gt_fdinfo_scan_cache *c, DIR *dir,
                    struct gt_fdinfo_scan *out)
{
	struct timespec ts;
	struct statfs sfs;
	size_t npids, o = 0, n = 0;
	clock_gettime(CLOCK_REALTIME, &ts);
	struct fdi_walk w = {c,
	                     out,
	                     dirfd(dir),
	                     (int64_t)ts.tv_sec,
	                     (int64_t)ts.tv_nsec,
	                     fdi_full_every(c),
	                     false};
	w.procfs = fstatfs(w.rootfd, &sfs) == 0 && sfs.f_type == FDI_PROC_MAGIC;

	void *grown = c->next;
	if (!fdi_read_pids(c, dir, &npids) ||
	    !fdi_reserve(&grown, &c->capnext, npids, sizeof(*c->next)))
		return -ENOMEM;
	c->next = grown;
	for (size_t i = 0; i < npids; i++) {
		int32_t pid = c->pids[i];
		while (o < c->nprocs && c->procs[o].pid < pid)
			free(c->procs[o++].fds); /* exited */
		struct fdi_proc *old = NULL;
		if (o < c->nprocs && c->procs[o].pid == pid)
			old = &c->procs[o++];
		enum fdi_pid_result r = fdi_walk_pid(&w, pid, old, &c->next[n]);
		if (old)
			free(old->fds); /* what the new entry did not take */
		if (r == FDI_PID_OOM) {
			free(c->next[n].fds);
			fdi_procs_free(c->next, n);
			fdi_procs_free(c->procs + o, c->nprocs - o);
			c->nprocs = 0;
			return -ENOMEM;
		}
		n += r == FDI_PID_KEPT;
	}
	fdi_procs_free(c->procs + o, c->nprocs - o); /* exited */
	struct fdi_proc *tmp = c->procs;
	size_t tcap = c->capprocs;
	c->procs = c->next;
	c->capprocs = c->capnext;
	c->nprocs = n;
	c->next = tmp;
	c->capnext = tcap;
	c->walks++;
	c->nfds = 0;
	for (size_t i = 0; i < n; i++)
		c->nfds += c->procs[i].nfds;
	return fdi_result(c, w.rootfd, out);
}

int gt_fdinfo_scan_run(const char *root, struct gt_fdinfo_scan_cache *cache,
                       struct gt_fdinfo_scan *out)
{
	memset(out, 0, sizeof(*out));
	if (!cache) { /* a cache that lives for one walk reads everything */
		struct gt_fdinfo_scan_cache *once = gt_fdinfo_scan_cache_new();
		if (!once)
			return -ENOMEM;
		int r = gt_fdinfo_scan_run(root, once, out);
		gt_fdinfo_scan_cache_free(once);
		return r;
	}
	DIR *dir = opendir(root);
	if (!dir) {
		fdi_cache_clear(cache);
		return 0;
	}
	int r = fdi_walk(cache, dir, out);
	closedir(dir);
	if (r != 0) {
		fdi_cache_clear(cache);
		gt_fdinfo_scan_free(out);
	}
	return r;
}

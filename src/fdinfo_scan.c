/*
 * fdinfo_scan.c - owns the discovery walk of the fdinfo scanner: which
 * processes hold DRM descriptors, and how many could not be looked at (see
 * fdinfo_scan.h). Run every few rounds; the per-round work is in fdinfo.c.
 */
#include "fdinfo_scan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define FDI_DRM_MAJOR 226u
#define FDI_ACCEL_MAJOR 261u
#define FDI_PF_KTHREAD 0x00200000ull

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

/* Kernel threads have fd directories nobody else may open; they hold no DRM
 * files, so they must not count as unreadable. PF_KTHREAD is in stat's
 * flags, field 9, which is world-readable. */
static bool fdi_is_kthread(const char *root, int32_t pid)
{
	char path[PATH_MAX], buf[1024];
	int n = snprintf(path, sizeof(path), "%s/%d/stat", root, (int)pid);
	if (n < 0 || (size_t)n >= sizeof(path))
		return false;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	ssize_t len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return false;
	buf[len] = '\0';
	/* Fields after comm, which may hold ')' itself: from the last one. */
	char *p = strrchr(buf, ')');
	if (!p)
		return false;
	p++;
	for (int field = 3; field < 9; field++) { /* skip state .. tpgid */
		while (*p == ' ')
			p++;
		while (*p && *p != ' ')
			p++;
	}
	char *end;
	errno = 0;
	unsigned long long flags = strtoull(p, &end, 10);
	return end != p && errno == 0 && (flags & FDI_PF_KTHREAD) != 0;
}

/* Whether descriptor name of the fd directory dirfd is a DRM device. The
 * link target decides (it also works on fixture trees, where the targets
 * dangle); a node reached under another path (a container's or chroot's
 * /dev) is stat'ed, and only paths that may be device nodes are, to keep
 * the scan cheap. */
static bool fdi_is_drm_fd(int dirfd, const char *name, const char *target)
{
	if (fdi_starts(target, "/dev/dri/") || fdi_starts(target, "/dev/accel/"))
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

static bool fdi_fds_push(struct gt_fdinfo_pid *ent, uint32_t *cap, int32_t fd)
{
	if (ent->nfds == *cap) {
		uint32_t ncap = *cap ? *cap * 2 : 4;
		int32_t *fds = realloc(ent->fds, ncap * sizeof(*fds));
		if (!fds)
			return false;
		ent->fds = fds;
		*cap = ncap;
	}
	ent->fds[ent->nfds++] = fd;
	return true;
}

/* Fills ent with the DRM descriptors of pid. Returns 1 when access was
 * refused, 0 otherwise, -1 on ENOMEM (ent is then empty). */
static int fdi_scan_pid(const char *root, int32_t pid,
			struct gt_fdinfo_pid *ent)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/%d/fd", root, (int)pid);
	if (n < 0 || (size_t)n >= sizeof(path))
		return 0;
	int dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return gt_fdinfo_errno_denied(errno) && !fdi_is_kthread(root, pid);
	DIR *dir = fdopendir(dfd);
	if (!dir) {
		close(dfd);
		return 0;
	}
	bool denied = false, oom = false;
	uint32_t cap = 0;
	struct dirent *de;
	while ((de = readdir(dir)) != NULL) {
		int32_t fd;
		char target[256];
		if (!fdi_name_int(de->d_name, &fd))
			continue;
		ssize_t len = readlinkat(dirfd(dir), de->d_name, target,
					 sizeof(target) - 1);
		if (len < 0) {
			denied |= gt_fdinfo_errno_denied(errno);
			continue;
		}
		target[len] = '\0';
		if (!fdi_is_drm_fd(dirfd(dir), de->d_name, target))
			continue;
		if (!fdi_fds_push(ent, &cap, fd)) {
			oom = true;
			break;
		}
	}
	closedir(dir);
	if (oom) {
		free(ent->fds);
		ent->fds = NULL;
		ent->nfds = 0;
		return -1;
	}
	return denied ? 1 : 0;
}

bool gt_fdinfo_is_broker(int32_t pid, const char *comm)
{
	static const char *const brokers[] = { "systemd-logind", "seatd",
					       "systemd" };
	size_t n = strcspn(comm, "\n");

	if (pid == 1)
		return true;
	for (size_t i = 0; i < sizeof(brokers) / sizeof(brokers[0]); i++)
		if (strlen(brokers[i]) == n && memcmp(comm, brokers[i], n) == 0)
			return true;
	return false;
}

/* Reads comm only for the few pids that hold DRM descriptors. */
static bool fdi_pid_broker(const char *root, int32_t pid)
{
	char path[PATH_MAX], comm[64];
	int n = snprintf(path, sizeof(path), "%s/%d/comm", root, (int)pid);
	if (pid == 1)
		return true;
	if (n < 0 || (size_t)n >= sizeof(path))
		return false;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
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
	scan->pids = NULL;
	scan->npids = 0;
	scan->unreadable = 0;
}

static int fdi_pid_cmp(const void *a, const void *b)
{
	const struct gt_fdinfo_pid *x = a, *y = b;
	if (x->broker != y->broker)
		return x->broker ? 1 : -1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

int gt_fdinfo_scan_run(const char *root, struct gt_fdinfo_scan *out)
{
	out->pids = NULL;
	out->npids = 0;
	out->unreadable = 0;
	DIR *dir = opendir(root);
	if (!dir)
		return 0;
	struct gt_fdinfo_pid *list = NULL;
	size_t n = 0, cap = 0, unreadable = 0;
	bool oom = false;
	struct dirent *de;
	while (!oom && (de = readdir(dir)) != NULL) {
		struct gt_fdinfo_pid ent = { 0, 0, NULL, false };
		if (!fdi_name_int(de->d_name, &ent.pid))
			continue;
		int r = fdi_scan_pid(root, ent.pid, &ent);
		if (r < 0) {
			oom = true;
			break;
		}
		unreadable += (size_t)r;
		if (ent.nfds == 0) {
			free(ent.fds);
			continue;
		}
		ent.broker = fdi_pid_broker(root, ent.pid);
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			struct gt_fdinfo_pid *nl = realloc(list, ncap * sizeof(*nl));
			if (!nl) {
				free(ent.fds);
				oom = true;
				break;
			}
			list = nl;
			cap = ncap;
		}
		list[n++] = ent;
	}
	closedir(dir);
	if (oom) {
		fdi_pids_free(list, n);
		return -ENOMEM;
	}
	if (n > 1)
		qsort(list, n, sizeof(*list), fdi_pid_cmp);
	out->pids = list;
	out->npids = n;
	out->unreadable = unreadable;
	return 0;
}

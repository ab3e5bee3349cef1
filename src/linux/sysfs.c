/* SPDX-License-Identifier: MIT */
/*
 * sysfs.c - bounded, quirk-tolerant reads of kernel attribute files (see
 * sysfs.h).
 */
#include "linux/sysfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int gt_sysfs_join(char *dst, size_t len, const char *a, const char *b)
{
	int n =
	    b ? snprintf(dst, len, "%s/%s", a, b) : snprintf(dst, len, "%s", a);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

static ssize_t read_raw(const char *dir, const char *leaf, void *buf,
                        size_t len)
{
	char path[PATH_MAX];
	int rc = gt_sysfs_join(path, sizeof(path), dir, leaf);
	if (rc < 0)
		return rc;
	/* O_NONBLOCK: a FIFO planted in a test or container tree must not
	 * hang the collector. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	size_t got = 0;
	while (got < len) {
		ssize_t r = read(fd, (char *)buf + got, len - got);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int err = errno;
			close(fd);
			return -err;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	return (ssize_t)got;
}

ssize_t gt_sysfs_read_bin(const char *dir, const char *leaf, void *buf,
                          size_t len)
{
	return read_raw(dir, leaf, buf, len);
}

ssize_t gt_sysfs_read(const char *dir, const char *leaf, char *buf, size_t len)
{
	if (len == 0)
		return -EINVAL;
	ssize_t n = read_raw(dir, leaf, buf, len - 1);
	if (n < 0) {
		buf[0] = '\0';
		return n;
	}
	size_t end = (size_t)n;
	/* Some attributes are padded with NULs to a page; some end in a
	 * newline, some do not. */
	while (end > 0 && (buf[end - 1] == '\0' || buf[end - 1] == '\n' ||
	                   buf[end - 1] == ' ' || buf[end - 1] == '\t' ||
	                   buf[end - 1] == '\r'))
		end--;
	buf[end] = '\0';
	return (ssize_t)end;
}

int gt_sysfs_read_i64(const char *dir, const char *leaf, int64_t *out)
{
	char buf[64];
	ssize_t n = gt_sysfs_read(dir, leaf, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	char *p = buf;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0')
		return -EINVAL;
	char *endp;
	errno = 0;
	long long v = strtoll(p, &endp, 0);
	if (errno != 0 || endp == p ||
	    (*endp != '\0' && *endp != '\n' && *endp != ' '))
		return -EINVAL;
	*out = v;
	return 0;
}

enum gt_why gt_sysfs_why(int err)
{
	if (err < 0)
		err = -err;
	switch (err) {
	case 0:
		return GT_WHY_OK;
	case ENOENT:
	case ENOTDIR:
		return GT_WHY_NO_SENSOR;
	case EACCES:
	case EPERM:
		return GT_WHY_PERMISSION;
	case EOPNOTSUPP:
	case ENODATA:
		return GT_WHY_UNSUPPORTED_DEVICE;
	default:
		return GT_WHY_DRIVER_ERROR;
	}
}

int gt_sysfs_set_scaled(struct gt_val *val, int64_t v, int64_t lo, int64_t hi,
                        int64_t mul, int64_t div)
{
	int64_t scaled;
	if (v < lo || v > hi || __builtin_mul_overflow(v, mul, &scaled)) {
		gt_val_fail(val, GT_WHY_RANGE, 0);
		return -ERANGE;
	}
	gt_val_set(val, div ? scaled / div : scaled);
	return 0;
}

void gt_sysfs_unit_range(enum gt_sysfs_unit u, int64_t *lo, int64_t *hi)
{
	static const struct {
		int64_t lo, hi;
	} range[] = {
	    [GT_SYSFS_MHZ] = {0, 100000},
	    [GT_SYSFS_HZ] = {0, 100000000000LL},
	    /* -273150: amdgpu's "no such limit" is absolute zero itself. */
	    [GT_SYSFS_MILLI_C] = {-273150, 250000},
	    [GT_SYSFS_RPM] = {0, 100000},
	    [GT_SYSFS_MICROWATT] = {0, 100000000000LL},
	};
	*lo = range[u].lo;
	*hi = range[u].hi;
}

int gt_sysfs_val(struct gt_val *val, const char *dir, const char *leaf,
                 int64_t lo, int64_t hi, int64_t mul, int64_t div)
{
	int64_t v;
	int rc = gt_sysfs_read_i64(dir, leaf, &v);
	if (rc < 0) {
		enum gt_why why = gt_sysfs_why(rc);
		gt_val_fail(val, why, why == GT_WHY_DRIVER_ERROR ? -rc : 0);
		return -rc;
	}
	return -gt_sysfs_set_scaled(val, v, lo, hi, mul, div);
}

bool gt_sysfs_inside(const char *path, const char *dir)
{
	char rp[PATH_MAX], rd[PATH_MAX];
	if (!realpath(path, rp) || !realpath(dir, rd))
		return false;
	size_t n = strlen(rd);
	return strncmp(rp, rd, n) == 0 && (rp[n] == '/' || rp[n] == '\0');
}

int gt_sysfs_hwmon_dir(const char *devdir, bool (*accept)(const char *dir),
                       char *out, size_t len)
{
	char dir[PATH_MAX], path[PATH_MAX], found[PATH_MAX];
	long best = -1;
	struct dirent *de;
	DIR *dp;

	if (len)
		out[0] = '\0';
	if (gt_sysfs_join(dir, sizeof(dir), devdir, "hwmon") < 0 ||
	    !(dp = opendir(dir)))
		return -ENOENT;
	while ((de = readdir(dp))) {
		char *end;
		if (strncmp(de->d_name, "hwmon", 5) != 0)
			continue;
		long n = strtol(de->d_name + 5, &end, 10);
		if (end == de->d_name + 5 || *end || n < 0 ||
		    (best >= 0 && n >= best))
			continue;
		if (gt_sysfs_join(path, sizeof(path), dir, de->d_name) == 0 &&
		    (!accept || accept(path))) {
			memcpy(found, path, sizeof(found));
			best = n;
		}
	}
	closedir(dp);
	if (best >= 0 && gt_sysfs_join(out, len, found, NULL) == 0)
		return 0;
	if (len)
		out[0] = '\0';
	return best < 0 ? -ENOENT : -ENAMETOOLONG;
}

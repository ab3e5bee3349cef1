/* SPDX-License-Identifier: MIT */
/*
 * fileio.c - whole writes, private directories and atomic replacement
 * (fileio.h).
 */
#include "core/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int gt_fileio_write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		if (w == 0) {
			errno = EIO;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int fail(int e, char *err, size_t errlen, const char *what,
                const char *path)
{
	if (err && errlen)
		snprintf(err, errlen, "cannot %s %s: %s", what, path,
		         strerror(e));
	return e;
}

int gt_fileio_make_dirs(const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX];
	size_t n = strlen(dir);

	if (n >= sizeof(path))
		return fail(ENAMETOOLONG, err, errlen, "create", dir);
	memcpy(path, dir, n + 1);
	for (char *p = path + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char c = *p;
		*p = '\0';
		if (mkdir(path, 0700) != 0 && errno != EEXIST)
			return fail(errno, err, errlen, "create", path);
		*p = c;
		if (!c)
			break;
	}
	return 0;
}

/* The directory part of path ("." for a bare name, "/" for "/x"). */
int gt_fileio_dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');
	int n;

	if (!slash)
		n = snprintf(dir, len, ".");
	else if (slash == path)
		n = snprintf(dir, len, "/");
	else
		n = snprintf(dir, len, "%.*s", (int)(slash - path), path);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int gt_fileio_replace(const char *path, const void *data, size_t n, mode_t mode,
                      char *err, size_t errlen)
{
	char dir[PATH_MAX], tmp[PATH_MAX + 16];
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	int fd, e = 0;

	if (!*base || gt_fileio_dir_of(path, dir, sizeof(dir)) != 0 ||
	    snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, base) >=
	        (int)sizeof(tmp))
		return fail(ENAMETOOLONG, err, errlen, "write", path);
	/* The temporary lives in the same directory so that rename() is
	 * atomic: a reader sees the old file or the new one, never half. */
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return fail(errno, err, errlen, "create", tmp);
	if (fchmod(fd, mode) != 0 || gt_fileio_write_all(fd, data, n) != 0 ||
	    fsync(fd) != 0)
		e = errno;
	if (close(fd) != 0 && !e)
		e = errno;
	if (e) {
		unlink(tmp);
		return fail(e, err, errlen, "write", tmp);
	}
	if (rename(tmp, path) != 0) {
		e = errno;
		unlink(tmp);
		if (err && errlen)
			snprintf(err, errlen, "cannot rename %s to %s: %s", tmp,
			         path, strerror(e));
		return e;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	return 0;
}

/* path opened for reading when it is a regular file of at most max bytes
 * (O_NONBLOCK, so that a FIFO in its place cannot hang the open): the
 * descriptor, or -1 with *e the errno value (EISDIR or EINVAL for what is
 * not a regular file, EFBIG past max). */
static int open_regular(const char *path, size_t max, int *e)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);

	*e = 0;
	if (fd < 0) {
		*e = errno;
		return -1;
	}
	if (fstat(fd, &st) != 0)
		*e = errno;
	else if (!S_ISREG(st.st_mode))
		*e = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
	else if ((uint64_t)st.st_size > max)
		*e = EFBIG;
	if (*e) {
		close(fd);
		return -1;
	}
	return fd;
}

const char *gt_fileio_strerror(int e)
{
	return e == EINVAL ? "not a regular file (a FIFO, a device or a socket)"
	                   : strerror(e);
}

FILE *gt_fileio_open_regular(const char *path, size_t max, int *err)
{
	int fd = open_regular(path, max, err);
	FILE *f = fd >= 0 ? fdopen(fd, "re") : NULL;

	if (fd >= 0 && !f) {
		*err = errno;
		close(fd);
	}
	return f;
}

int gt_fileio_read_all(const char *path, size_t max, char **out, size_t *len)
{
	size_t n = 0;
	char *buf = NULL;
	int e;
	int fd = open_regular(path, max, &e);

	*out = NULL;
	*len = 0;
	if (fd < 0)
		return e;
	if (!(buf = malloc(max + 2)))
		e = ENOMEM;
	/* To EOF rather than st_size: the file may grow meanwhile. */
	while (!e) {
		ssize_t r = read(fd, buf + n, max + 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			e = errno;
		else if (r == 0)
			break;
		else if ((n += (size_t)r) > max)
			e = EFBIG;
	}
	close(fd);
	if (e) {
		free(buf);
		return e;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

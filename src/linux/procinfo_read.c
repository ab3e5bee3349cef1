/* SPDX-License-Identifier: MIT */
/*
 * procinfo_read.c - owns procinfo's reads of a proc tree and the parsers of
 * what they return: a pid's directory opened once as an openat() handle,
 * its files opened non-blocking and read whole up to a bound into the
 * shared buffer, and /proc/PID/stat and status parsed. procinfo.c decides
 * what to read and when.
 */
#include "linux/procinfo_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Reads fd whole from offset 0 (up to max bytes) into pi->buf, NUL-
 * terminated. Returns 0 or an errno value. */
int gt_procinfo_read_fd(struct gt_procinfo *pi, int fd, size_t max,
                        size_t *lenp)
{
	size_t len = 0;
	int err = 0;
	for (;;) {
		if (len + 1 >= pi->bufcap) {
			if (pi->bufcap >= max + 1)
				break; /* cut at max: enough for every caller */
			size_t cap = pi->bufcap * 2;
			if (cap > max + 1)
				cap = max + 1;
			char *nb = realloc(pi->buf, cap);
			if (!nb) {
				err = ENOMEM;
				break;
			}
			pi->buf = nb;
			pi->bufcap = cap;
		}
		size_t want = pi->bufcap - 1 - len;
		if (len + want > max)
			want = max - len;
		if (want == 0)
			break;
		ssize_t r = pread(fd, pi->buf + len, want, (off_t)len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			err = errno;
			break;
		}
		if (r == 0)
			break;
		len += (size_t)r;
		/* A proc file is generated whole on the first read: a short
		 * read is its end, and skipping the empty read halves the
		 * system calls of a process round. */
		if ((size_t)r < want)
			break;
	}
	if (err)
		return err;
	pi->buf[len] = '\0';
	*lenp = len;
	return 0;
}

/* Opens <root>/<pid> as a handle for openat(): every file opened below it
 * belongs to the task it was opened for (once that task is gone they
 * answer ENOENT), so the files of one fill cannot mix two processes that
 * had the pid one after the other. -1 and errno on failure. */
int gt_procinfo_open_dir(struct gt_procinfo *pi, int32_t pid)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/%d", pi->root, (int)pid);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

int gt_procinfo_openat(int dfd, const char *leaf)
{
	if (dfd < 0) {
		errno = ENOENT;
		return -1;
	}
	/* O_NONBLOCK: a FIFO planted in a --procfs tree must not block the
	 * scan (open() would wait for a writer for ever); read_fd's pread
	 * then fails on it with ESPIPE and the value is N/A. */
	return openat(dfd, leaf, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
}

/* Reads <leaf> below the pid directory dfd whole (up to max bytes) into
 * pi->buf, NUL-terminated. Returns 0 or an errno value. */
int gt_procinfo_read_leaf(struct gt_procinfo *pi, int dfd, const char *leaf,
                          size_t max, size_t *lenp)
{
	int fd = gt_procinfo_openat(dfd, leaf);
	if (fd < 0)
		return errno;
	int err = gt_procinfo_read_fd(pi, fd, max, lenp);
	close(fd);
	return err;
}

enum gt_why gt_procinfo_why_of_errno(int err)
{
	return (err == EACCES || err == EPERM) ? GT_WHY_PERMISSION
	                                       : GT_WHY_NOT_COLLECTED;
}

/* Parses an unsigned decimal at *pp (after blanks); advances past it. */
bool gt_procinfo_parse_u64(const char **pp, const char *end, uint64_t *out)
{
	const char *p = *pp;
	uint64_t v = 0;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end || *p < '0' || *p > '9')
		return false;
	while (p < end && *p >= '0' && *p <= '9') {
		unsigned d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
		p++;
	}
	if (p < end && *p != ' ' && *p != '\t' && *p != '\n')
		return false;
	*pp = p;
	*out = v;
	return true;
}

/* Skips one space-separated field. */
static bool skip_field(const char **pp, const char *end)
{
	const char *p = *pp;

	while (p < end && *p == ' ')
		p++;
	if (p >= end || *p == '\n')
		return false;
	while (p < end && *p != ' ' && *p != '\n')
		p++;
	*pp = p;
	return true;
}

/* comm as the cache keeps it: NUL bytes as blanks, cut to GT_COMM_LEN - 1
 * bytes, so stat's copy and the comm file's compare equal. */
void gt_procinfo_comm_copy(char out[GT_COMM_LEN], const char *s, size_t n)
{
	if (n > GT_COMM_LEN - 1)
		n = GT_COMM_LEN - 1;
	for (size_t i = 0; i < n; i++)
		out[i] = s[i] ? s[i] : ' ';
	out[n] = '\0';
}

/* "pid (comm) S f4 ... f14=utime f15=stime ... f22=starttime ...". comm may
 * hold anything, ") " included, so fields are counted from the LAST ')'. */
bool gt_procinfo_parse_stat(const char *buf, size_t len, struct pi_stat *st)
{
	const char *open = memchr(buf, '(', len);
	const char *close = memrchr(buf, ')', len);
	const char *end = buf + len;

	if (!open || !close || close < open)
		return false;
	gt_procinfo_comm_copy(st->comm, open + 1, (size_t)(close - open - 1));

	const char *p = close + 1;
	uint64_t ppid;
	if (!skip_field(&p, end) || !gt_procinfo_parse_u64(&p, end, &ppid))
		return false;
	st->ppid = ppid > INT32_MAX ? 0 : (int32_t)ppid;
	for (int field = 5; field <= 13; field++)
		if (!skip_field(&p, end))
			return false;
	if (!gt_procinfo_parse_u64(&p, end, &st->utime) ||
	    !gt_procinfo_parse_u64(&p, end, &st->stime))
		return false;
	for (int field = 16; field <= 21; field++)
		if (!skip_field(&p, end))
			return false;
	if (!gt_procinfo_parse_u64(&p, end, &st->start))
		return false;
	/* Field 24, resident pages: the same count as status's VmRSS, read
	 * here so a steady-state round needs this one file only. */
	if (!skip_field(&p, end) ||
	    !gt_procinfo_parse_u64(&p, end, &st->rss_pages))
		st->rss_pages = UINT64_MAX;
	return true;
}

/* Value of "Key:" at the start of a status line, or NULL. */
const char *gt_procinfo_status_value(const char *buf, size_t len,
                                     const char *key)
{
	size_t klen = strlen(key);
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (n > klen && memcmp(p, key, klen) == 0 && p[klen] == ':')
			return p + klen + 1;
		p += n + 1;
	}
	return NULL;
}

/* SPDX-License-Identifier: MIT */
/*
 * procinfo_test.h - shared helpers of the procinfo tests
 * (test_procinfo.c, test_procinfo_cache.c, test_procinfo_live.c): the
 * synthetic proc tree in tests/fixtures/proc (found through
 * $GPUTOP_FIXTURES), writable temporary copies of it (cmocka setups and
 * teardown), writers of a pid's files and the expected values procinfo
 * derives from them. static inline so each test uses what it needs.
 */
#ifndef GPUTOP_TEST_PROCINFO_TEST_H
#define GPUTOP_TEST_PROCINFO_TEST_H

#include <dirent.h>
#include <ftw.h>
#include <pwd.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/model.h"
#include "linux/procinfo.h"

#define SEC       1000000000ull
#define DOCKER_ID "4f3c2a1b9e8d"

static inline const char *fixture_proc(void)
{
	static char path[4096];
	const char *dir = getenv("GPUTOP_FIXTURES");
	if (!dir || !*dir)
		fail_msg("GPUTOP_FIXTURES is not set: run with "
		         "GPUTOP_FIXTURES=tests/fixtures from the repo root");
	snprintf(path, sizeof(path), "%s/proc", dir);
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		fail_msg("no fixture proc tree at %s", path);
	return path;
}

static inline void proc_init(struct gt_process *p, int32_t pid)
{
	memset(p, 0, sizeof(*p));
	for (int i = 0; i < GT_P__COUNT; i++)
		gt_val_fail(&p->f[i], GT_WHY_NOT_COLLECTED, 0);
	p->pid = pid;
}

static inline void fill(struct gt_procinfo *pi, struct gt_process *p,
                        int32_t pid, uint64_t now)
{
	proc_init(p, pid);
	gt_procinfo_fill(pi, p, now);
}

/* The name getpwuid gives uid, or its number: what procinfo must show. */
static inline void expected_user(uint32_t uid, char *out, size_t len)
{
	struct passwd *pw = getpwuid((uid_t)uid);
	if (pw && pw->pw_name && strlen(pw->pw_name) < GT_USER_LEN)
		snprintf(out, len, "%s", pw->pw_name);
	else
		snprintf(out, len, "%u", (unsigned)uid);
}

/* Returns 0 or -1; never aborts, so a setup can clean up after it. */
static inline int copy_file(const char *src, const char *dst)
{
	FILE *in = fopen(src, "rb");
	if (!in)
		return -1;
	FILE *out = fopen(dst, "wb");
	if (!out) {
		fclose(in);
		return -1;
	}
	char buf[4096];
	size_t n;
	int rc = 0;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			rc = -1;
	fclose(in);
	if (fclose(out) != 0)
		rc = -1;
	return rc;
}

static inline int copy_tree(const char *src, const char *dst)
{
	DIR *d = opendir(src);
	if (!d)
		return -1;
	struct dirent *de;
	int rc = 0;
	while (rc == 0 && (de = readdir(d)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char s[4096], t[4096];
		snprintf(s, sizeof(s), "%s/%s", src, de->d_name);
		snprintf(t, sizeof(t), "%s/%s", dst, de->d_name);
		struct stat st;
		if (lstat(s, &st) != 0)
			rc = -1;
		else if (S_ISDIR(st.st_mode))
			rc = mkdir(t, 0755) == 0 ? copy_tree(s, t) : -1;
		else if (S_ISREG(st.st_mode))
			rc = copy_file(s, t);
	}
	closedir(d);
	return rc;
}

static inline int rm_one(const char *path, const struct stat *st, int flag,
                         struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

struct tmp_tree {
	char dir[64];
	struct gt_procinfo *pi;
};

static inline int teardown_tmp(void **state)
{
	struct tmp_tree *t = *state;
	if (!t)
		return 0;
	gt_procinfo_free(t->pi);
	nftw(t->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(t);
	*state = NULL;
	return 0;
}

/* An empty temporary directory; t->pi is left for the test to set. */
static inline int setup_empty(void **state)
{
	struct tmp_tree *t = calloc(1, sizeof(*t));
	if (!t)
		return -1;
	snprintf(t->dir, sizeof(t->dir), "/tmp/gputop-proc-XXXXXX");
	if (!mkdtemp(t->dir)) {
		free(t);
		return -1;
	}
	*state = t;
	return 0;
}

/* A writable copy of the fixture tree and a procinfo reading it. */
static inline int setup_copy(void **state)
{
	const char *src = fixture_proc(); /* fails before creating anything */
	if (setup_empty(state) != 0)
		return -1;
	struct tmp_tree *t = *state;
	if (copy_tree(src, t->dir) != 0 ||
	    (t->pi = gt_procinfo_new(t->dir)) == NULL) {
		teardown_tmp(state);
		return -1;
	}
	return 0;
}

static inline void write_file(const char *dir, int pid, const char *leaf,
                              const void *data, size_t len)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%d/%s", dir, pid, leaf);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static inline void write_str(const char *dir, int pid, const char *leaf,
                             const char *s)
{
	write_file(dir, pid, leaf, s, strlen(s));
}

static inline void remove_leaf(const char *dir, int pid, const char *leaf)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%d/%s", dir, pid, leaf);
	assert_int_equal(unlink(path), 0);
}

/* A complete 52-field stat line; rss (field 24) in pages. */
static inline void write_stat_rss(const char *dir, int pid, const char *comm,
                                  unsigned long long utime,
                                  unsigned long long stime,
                                  unsigned long long start, const char *rss)
{
	char buf[1024];
	snprintf(buf, sizeof(buf),
	         "%d (%s) S 1 %d 1 0 -1 4194560 100 0 0 0 %llu %llu 0 0 20 0 "
	         "4 0 %llu 1000000 %s 18446744073709551615 1 1 0 0 0 0 0 0 "
	         "0 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
	         pid, comm, pid, utime, stime, start, rss);
	write_str(dir, pid, "stat", buf);
}

static inline void write_stat(const char *dir, int pid, const char *comm,
                              unsigned long long utime,
                              unsigned long long stime,
                              unsigned long long start)
{
	write_stat_rss(dir, pid, comm, utime, stime, start, "250");
}

/* Bytes of a resident-page count, as the kernel's page size makes them. */
static inline int64_t pages(int64_t n)
{
	return n * (int64_t)sysconf(_SC_PAGESIZE);
}

static inline int64_t clk(void)
{
	return (int64_t)sysconf(_SC_CLK_TCK);
}

#endif

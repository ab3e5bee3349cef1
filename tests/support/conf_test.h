/* SPDX-License-Identifier: MIT */
/*
 * conf_test.h - helpers shared by the tests of files in a scratch
 * directory (test_config.c, test_config_values.c, test_profile.c,
 * test_profile_values.c): a fresh directory per test with the path of a
 * gputop.conf in it, removed afterwards, and whole-file writes and reads.
 * static inline so each test uses what it needs. Include after <cmocka.h>.
 */
#ifndef GPUTOP_CONF_TEST_H
#define GPUTOP_CONF_TEST_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct tmp {
	char dir[64];
	char path[128]; /* dir/gputop.conf */
};

static inline int tmp_setup(void **state)
{
	struct tmp *t = calloc(1, sizeof(*t));
	assert_non_null(t);
	snprintf(t->dir, sizeof(t->dir), "/tmp/gputop-conftest-XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	snprintf(t->path, sizeof(t->path), "%s/gputop.conf", t->dir);
	*state = t;
	return 0;
}

static inline int rm_one(const char *p, const struct stat *sb, int flag,
                         struct FTW *f)
{
	(void)sb;
	(void)flag;
	(void)f;
	return remove(p);
}

static inline int tmp_teardown(void **state)
{
	struct tmp *t = *state;
	nftw(t->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(t);
	return 0;
}

static inline void write_bytes(const char *path, const char *s, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(s, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static inline void write_text(const char *path, const char *s)
{
	write_bytes(path, s, strlen(s));
}

/* The whole file (at most 64 KiB), NUL-terminated; the caller frees it. */
static inline char *read_text(const char *path)
{
	static const size_t max = 1 << 16;
	char *buf = calloc(1, max);
	FILE *f = fopen(path, "rb");
	assert_non_null(buf);
	assert_non_null(f);
	assert_true(fread(buf, 1, max - 1, f) < max - 1);
	fclose(f);
	return buf;
}

#endif

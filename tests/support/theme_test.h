/* SPDX-License-Identifier: MIT */
/*
 * theme_test.h - helpers shared by the theme tests (test_theme.c,
 * test_palette.c, test_theme_dirs.c): RGB_EQ, a seeded xorshift for the
 * random inputs, and a scratch directory with whole-file writes, removed
 * afterwards. static inline so each test uses what it needs.
 */
#ifndef GPUTOP_TEST_THEME_TEST_H
#define GPUTOP_TEST_THEME_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <errno.h>

#include "ui/theme.h"

/* Asserts that an RGB colour is the given 0xRRGGBB. */
#define RGB_EQ(c, hex)                                                         \
	do {                                                                   \
		struct gt_rgb c_ = (c);                                        \
		assert_int_equal(((unsigned)c_.r << 16) |                      \
		                     ((unsigned)c_.g << 8) | c_.b,             \
		                 (unsigned)(hex));                             \
	} while (0)

/* The next of a seeded xorshift64 sequence: the same inputs every run. */
static inline uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Makes a fresh directory under $TMPDIR (or /tmp); rm_tree removes it. */
static inline void make_tmpdir(char *dir, size_t len)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, len, "%s/gt-theme-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
	assert_non_null(mkdtemp(dir));
}

/* Creates or truncates path with the given text. */
static inline void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fail_msg("cannot create %s: %s", path, strerror(errno));
		return;
	}
	fputs(text, f);
	fclose(f);
}

static inline void rm_tree(const char *path)
{
	char cmd[4200];

	/* test-owned mkdtemp directory only */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	assert_int_equal(system(cmd), 0);
}

#endif

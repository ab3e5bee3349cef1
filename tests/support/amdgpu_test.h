/* SPDX-License-Identifier: MIT */
/*
 * amdgpu_test.h - shared helper of the amdgpu unit tests
 * (test_amdgpu_parse.c, test_amdgpu_metrics.c): reads a file of a capture
 * in tests/fixtures/amdgpu (found through $GPUTOP_FIXTURES) as bytes, NULs
 * and all. static inline so each test uses what it needs.
 */
#ifndef GPUTOP_TEST_AMDGPU_TEST_H
#define GPUTOP_TEST_AMDGPU_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

struct blob {
	char *data;
	size_t len;
};

/* Reads tests/fixtures/amdgpu/<capture>/class/drm/<card>/device/<leaf>. */
static inline struct blob fixture(const char *capture, const char *card,
                                  const char *leaf)
{
	const char *dir = getenv("GPUTOP_FIXTURES");
	char path[1024];
	struct blob b = {NULL, 0};
	if (!dir || !*dir)
		fail_msg("GPUTOP_FIXTURES is not set: run with "
		         "GPUTOP_FIXTURES=tests/fixtures from the repo root");
	snprintf(path, sizeof(path), "%s/amdgpu/%s/class/drm/%s/device/%s", dir,
	         capture, card, leaf);
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	b.data = malloc(65536);
	assert_non_null(b.data);
	b.len = fread(b.data, 1, 65536, f);
	fclose(f);
	return b;
}

static inline void blob_free(struct blob *b)
{
	free(b->data);
	b->data = NULL;
}

#endif

/* SPDX-License-Identifier: MIT */
/*
 * amdgpu_golden_test.h - shared helpers of the amdgpu integration tests
 * (test_amdgpu_golden.c, test_amdgpu_copies.c): the captures in
 * tests/fixtures/amdgpu (found through $GPUTOP_FIXTURES), the real gputop
 * binary run over one of them (as a user a directory refuses, see
 * unpriv.h), and checks of a device in its snapshot, with the capture
 * named in every failure. static inline so each test uses what it needs.
 *
 * Names: the runs use tests/fixtures/amdgpu/amdgpu.ids ($GPUTOP_AMDGPU_IDS),
 * an excerpt of Debian 12's old table, so the results do not depend on the
 * machine's libdrm and newer GPUs are named from gputop's built-in table.
 */
#ifndef GPUTOP_TEST_AMDGPU_GOLDEN_TEST_H
#define GPUTOP_TEST_AMDGPU_GOLDEN_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "support/json_path.h"
#include "support/run_gputop.h"
#include "support/unpriv.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static inline const char *fixtures(void)
{
	static char dir[1024];
	snprintf(dir, sizeof(dir), "%s/amdgpu",
	         run_env_or_fail("GPUTOP_FIXTURES"));
	return dir;
}

static inline const char *ids_file(void)
{
	static char path[1100];
	snprintf(path, sizeof(path), "%s/amdgpu.ids", fixtures());
	return path;
}

/* In the child: names from the fixtures' table; with a refused directory,
 * becomes a user that directory refuses (see unpriv.h), or ends with
 * UNPRIV_SKIP when none can be had. */
static inline int golden_child_setup(void *refused)
{
	setenv("GPUTOP_AMDGPU_IDS", ids_file(), 1);
	if (refused && unpriv_enter(refused) != 0)
		return UNPRIV_SKIP;
	return 0;
}

/* Runs gputop with args; returns its stdout (malloc'd) and exit status.
 * With refused set, gputop runs as a user that directory refuses; the
 * status is UNPRIV_SKIP when none can be had. */
static inline char *run_gputop_as(int *status, const char *args[],
                                  const char *refused)
{
	return run_gputop_capture(args, golden_child_setup, (void *)refused,
	                          status);
}

static inline char *run_gputop(int *status, const char *args[])
{
	return run_gputop_as(status, args, NULL);
}

static inline cJSON *snapshot_of(const char *root)
{
	int status;
	const char *args[] = {
	    "--sysfs",    root,           "--snapshot", "--interval",    "0.1",
	    "--nvml-lib", "/nonexistent", "--procfs",   run_empty_dir(), NULL};
	char *out = run_gputop(&status, args);
	assert_int_equal(status, 0);
	cJSON *doc = cJSON_Parse(out);
	if (!doc)
		fail_msg("snapshot of %s is not valid JSON near: %.80s", root,
		         cJSON_GetErrorPtr() ? cJSON_GetErrorPtr() : "?");
	free(out);
	return doc;
}

static inline const cJSON *amdgpu_backend(const cJSON *doc)
{
	const cJSON *b;
	cJSON_ArrayForEach(b, get(doc, "backends"))
	{
		if (strcmp(get(b, "name")->valuestring, "amdgpu") == 0)
			return b;
	}
	fail_msg("no amdgpu backend in the snapshot (is it in registry.c?)");
	return NULL;
}

/* A value that must be null, with a reason, because the capture lacks it. */
#define NA (-1.0)

static inline void expect_num(const char *cap, const cJSON *dev,
                              const char *path, double want)
{
	const cJSON *v = get(dev, path);
	if (want == NA) {
		if (!cJSON_IsNull(v))
			fail_msg("%s: %s should be null, is %g", cap, path,
			         cJSON_IsNumber(v) ? v->valuedouble : 0.0);
		if (!cJSON_GetObjectItemCaseSensitive(get(dev, "unavailable"),
		                                      path))
			fail_msg("%s: %s is null without a reason", cap, path);
		return;
	}
	if (!cJSON_IsNumber(v))
		fail_msg("%s: %s is not a number (expected %g)", cap, path,
		         want);
	if (fabs(v->valuedouble - want) > 1e-6)
		fail_msg("%s: %s is %.6f, expected %.6f", cap, path,
		         v->valuedouble, want);
}

static inline void expect_str(const char *cap, const cJSON *dev,
                              const char *path, const char *want)
{
	const cJSON *v = get(dev, path);
	if (!want) {
		if (!cJSON_IsNull(v))
			fail_msg("%s: %s should be null, is '%s'", cap, path,
			         cJSON_IsString(v) ? v->valuestring : "?");
		return;
	}
	if (!cJSON_IsString(v) || strcmp(v->valuestring, want) != 0)
		fail_msg("%s: %s is '%s', expected '%s'", cap, path,
		         cJSON_IsString(v) ? v->valuestring : "(not a string)",
		         want);
}

static inline const char *reason(const cJSON *dev, const char *key)
{
	const cJSON *r =
	    cJSON_GetObjectItemCaseSensitive(get(dev, "unavailable"), key);
	if (!cJSON_IsString(r))
		fail_msg("no reason for %s", key);
	return r->valuestring;
}

#endif

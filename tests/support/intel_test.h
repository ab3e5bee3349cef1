/* SPDX-License-Identifier: MIT */
/*
 * intel_test.h - shared helpers of the Intel integration tests
 * (test_intel.c, test_intel_backend.c): the synthetic i915 and xe trees in
 * tests/fixtures/intel (found through $GPUTOP_FIXTURES), private copies of
 * them to edit, the real gputop binary's --snapshot of a tree (as a user a
 * directory refuses, see unpriv.h), and checks of a value of a snapshot.
 * static inline so each test uses what it needs.
 */
#ifndef GPUTOP_TEST_INTEL_TEST_H
#define GPUTOP_TEST_INTEL_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "support/json_path.h"
#include "support/run_gputop.h"
#include "support/unpriv.h"
#include <dirent.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- files and trees ---- */

static inline const char *fixture(const char *rel)
{
	static char buf[2][PATH_MAX];
	static int k;
	k ^= 1;
	snprintf(buf[k], sizeof(buf[k]), "%s/intel/%s",
	         run_env_or_fail("GPUTOP_FIXTURES"), rel);
	return buf[k];
}

static inline void copy_tree(const char *src, const char *dst)
{
	struct stat st;
	assert_int_equal(lstat(src, &st), 0);
	if (S_ISLNK(st.st_mode)) {
		char target[PATH_MAX];
		ssize_t n = readlink(src, target, sizeof(target) - 1);
		assert_true(n > 0);
		target[n] = '\0';
		assert_int_equal(symlink(target, dst), 0);
	} else if (S_ISDIR(st.st_mode)) {
		assert_int_equal(mkdir(dst, 0755), 0);
		DIR *d = opendir(src);
		assert_non_null(d);
		struct dirent *de;
		while ((de = readdir(d))) {
			char a[PATH_MAX], b[PATH_MAX];
			if (!strcmp(de->d_name, ".") ||
			    !strcmp(de->d_name, ".."))
				continue;
			snprintf(a, sizeof(a), "%s/%s", src, de->d_name);
			snprintf(b, sizeof(b), "%s/%s", dst, de->d_name);
			copy_tree(a, b);
		}
		closedir(d);
	} else {
		char buf[4096];
		FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
		assert_non_null(in);
		assert_non_null(out);
		size_t n;
		while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
			assert_int_equal(fwrite(buf, 1, n, out), n);
		fclose(in);
		fclose(out);
	}
}

static inline int rm_one(const char *path, const struct stat *st, int flag,
                         struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static inline void rm_tree(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Creates the directories above path, from offset skip on. */
static inline void mkdir_parents(char *path, size_t skip)
{
	for (char *p = path + skip + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
}

/* Writes text + "\n" to dir/rel, creating parent directories. */
static inline void put(const char *dir, const char *rel, const char *text)
{
	char path[2 * PATH_MAX]; /* dir may be PATH_MAX long: no truncation */
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	mkdir_parents(path, strlen(dir));
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

/* A private copy of a fixture tree: root, and its device directory. */
struct copy {
	char root[64];
	char dev[1024];
};

static inline void copy_fixture(struct copy *c, const char *name,
                                const char *card)
{
	char tmpl[] = "/tmp/gputop-intel-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	snprintf(c->root, sizeof(c->root), "%s/sys", tmpl);
	copy_tree(fixture(name), c->root);
	snprintf(c->dev, sizeof(c->dev), "%s/class/drm/%s/device", c->root,
	         card);
}

static inline void drop_copy(struct copy *c)
{
	char *slash = strrchr(c->root, '/');
	*slash = '\0';
	rm_tree(c->root);
}

/* ---- the binary ---- */

/* The binary's snapshot of sysfs. procfs NULL: the real /proc. refused
 * set: gputop runs as a user that directory refuses (unpriv.h), and NULL
 * comes back when none can be had. */
struct intel_child {
	const char *pciids, *refused;
};

/* In the child: the PCI id database is always explicit (the host's own
 * pci.ids must not decide); with a refused directory, becomes a user that
 * directory refuses, or ends with UNPRIV_SKIP when none can be had. */
static inline int intel_child_setup(void *ctx)
{
	const struct intel_child *c = ctx;
	setenv("GPUTOP_PCI_IDS", c->pciids, 1);
	if (c->refused && unpriv_enter(c->refused) != 0)
		return UNPRIV_SKIP;
	return 0;
}

static inline cJSON *snapshot_ex(const char *sysfs, const char *pciids,
                                 const char *procfs, const char *refused)
{
	const char *args[] = {
	    "--sysfs", sysfs,        "--snapshot",   "--interval",
	    "0.2",     "--nvml-lib", "/nonexistent", procfs ? "--procfs" : NULL,
	    procfs,    NULL};
	struct intel_child child = {pciids, refused};
	int status;
	char *out =
	    run_gputop_capture(args, intel_child_setup, &child, &status);
	if (refused && status == UNPRIV_SKIP) {
		free(out);
		return NULL;
	}
	if (status != 0)
		fail_msg("gputop exited with status %d: %.200s", status, out);
	cJSON *doc = cJSON_Parse(out);
	if (!doc)
		fail_msg("snapshot is not JSON: %.80s", out);
	free(out);
	return doc;
}

static inline void assert_num(const cJSON *obj, const char *path, double want)
{
	double v = num(obj, path);
	if (v != want)
		fail_msg("%s is %.6f, expected %.6f", path, v, want);
}

static inline void assert_null_why(const cJSON *dev, const char *path,
                                   const char *reason_part)
{
	if (!cJSON_IsNull(get(dev, path)))
		fail_msg("%s should be null", path);
	cJSON *why = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(dev, "unavailable"), path);
	if (!cJSON_IsString(why))
		fail_msg("%s is null without a reason", path);
	if (reason_part && !strstr(why->valuestring, reason_part))
		fail_msg("reason for %s is '%s', expected '%s'", path,
		         why->valuestring, reason_part);
}

#endif

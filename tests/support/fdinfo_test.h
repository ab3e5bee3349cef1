/* SPDX-License-Identifier: MIT */
/*
 * fdinfo_test.h - shared helpers of the fdinfo tests (test_fdinfo*.c): the
 * fixture samples in tests/fixtures/fdinfo (found through $GPUTOP_FIXTURES),
 * counter bumps that turn one sample into a known second one, and
 * synthetic proc trees in a temporary directory (pid/fd/N symlinks to
 * /dev/dri/renderD128, pid/fdinfo/N text). static inline so each test
 * uses what it needs without unused-function warnings.
 */
#ifndef GPUTOP_TEST_FDINFO_TEST_H
#define GPUTOP_TEST_FDINFO_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "linux/fdinfo.h"
#include "linux/fdinfo_parse.h"
#include "linux/fdinfo_scan.h"
#include "core/model.h"

#define SEC 1000000000ull
#define MS  1000000ull
#define T0  (100 * SEC)
#define KIB 1024ull
#define MIB (1024ull * 1024)

#define I915_TABS   "i915/kernel-doc-i915-rst.tabs.txt"
#define I915_SPACES "i915/kernel-doc-i915-rst.txt"
#define XE_TABS     "xe/kernel-doc-xe-drm-client-dg2.tabs.txt"
#define XE_SPACES   "xe/kernel-doc-xe-drm-client-dg2.txt"
#define AMD_V1                                                                 \
	"amdgpu/amd-gfx-2024-05-06-tursulin-drm_print_memory_stats-v1-gfx.txt"
#define AMD_V2                                                                 \
	"amdgpu/"                                                              \
	"dri-devel-2024-05-20-tursulin-drm_print_memory_stats-v2-compute.txt"
#define AMD_LATE                                                               \
	"amdgpu/"                                                              \
	"amd-gfx-2024-10-24-tursulin-fdinfo-fixes-cover-pid1967-fd4.txt"
#define AMD_515   "amdgpu/amdgpu_top-issue17-kernel5.15-legacy-format.txt"
#define AMD_87    "amdgpu/amdgpu_top-issue87-pid2217-fd99.txt"
#define AMD_ROCMI "amdgpu/rocmi-kfd-py-pid3766769-fd8.txt"
#define MSM       "msm/dri-devel-msm-fdinfo-patch-glmark2.txt"
#define PANFROST  "panfrost/kernel-doc-panfrost-rst.txt"
#define PANTHOR   "panthor/kernel-doc-panthor-rst.txt"
#define XDNA      "amdxdna/xdna-driver-issue324-self-fd4-drm-lines.txt"

#define PDEV_I915 "0000:00:02.0"
#define PDEV_XE   "0000:03:00.0"
#define PDEV_AMD  "0000:04:00.0"

/* ---- samples ------------------------------------------------------------ */

/* The fixture file rel, NUL-terminated, malloc'd; its length in *len. */
static inline char *fixture(const char *rel, size_t *len)
{
	char path[PATH_MAX];
	const char *dir = getenv("GPUTOP_FIXTURES");
	if (!dir || !*dir)
		fail_msg("GPUTOP_FIXTURES is not set: run with "
		         "GPUTOP_FIXTURES=tests/fixtures from the repo root");
	snprintf(path, sizeof(path), "%s/fdinfo/%s", dir, rel);
	if (len)
		*len = 0;
	FILE *f = fopen(path, "rb");
	if (!f) {
		fail_msg("cannot open fixture %s: %s", path, strerror(errno));
		return NULL;
	}
	char *buf = malloc(64 * 1024);
	assert_non_null(buf);
	size_t n = fread(buf, 1, 64 * 1024 - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

static inline const struct gt_fdinfo_engine *
engine(const struct gt_fdinfo_sample *s, const char *name)
{
	for (uint32_t i = 0; i < s->n_engines; i++)
		if (strcmp(s->engines[i].name, name) == 0)
			return &s->engines[i];
	fail_msg("no engine %s", name);
	return NULL;
}

static inline uint64_t pdev_key(const char *s)
{
	uint64_t k;
	assert_true(gt_fdinfo_pdev_parse(s, strlen(s), &k));
	return k;
}

static inline uint64_t mem_of(const struct gt_fdinfo_sample *s,
                              enum gt_fdinfo_mem m)
{
	uint64_t b;
	assert_true(gt_fdinfo_sample_mem(s, m, &b));
	return b;
}

/* A copy of text with the number after "key:" moved by delta (the first
 * line with exactly that key). */
static inline char *bump(const char *text, const char *key, int64_t delta)
{
	size_t klen = strlen(key);
	const char *line = text;
	while (line && *line) {
		if (strncmp(line, key, klen) == 0 && line[klen] == ':')
			break;
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	if (!line || !*line)
		fail_msg("bump: no key %s", key);
	const char *p = line + klen + 1;
	while (*p == ' ' || *p == '\t')
		p++;
	char *end;
	unsigned long long v = strtoull(p, &end, 10);
	assert_true(end != p);
	unsigned long long nv = (unsigned long long)((int64_t)v + delta);
	size_t size = strlen(text) + 32;
	char *out = malloc(size);
	assert_non_null(out);
	snprintf(out, size, "%.*s%llu%s", (int)(p - text), text, nv, end);
	return out;
}

/* bump() that frees its input: t = bumpf(t, ...). */
static inline char *bumpf(char *text, const char *key, int64_t delta)
{
	char *out = bump(text, key, delta);
	free(text);
	return out;
}

static inline char *concat(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 1;
	char *out = malloc(n);
	assert_non_null(out);
	snprintf(out, n, "%s%s", a, b);
	return out;
}

/* ---- synthetic proc trees ------------------------------------------------ */

#define TREE_MAX_LOCKS 8

struct tree {
	char root[512]; /* short, so every path below fits PATH_MAX */
	/* Paths made unreadable (tree_lock), opened up again before removal
	 * so a non-root run can delete them. */
	char locked[TREE_MAX_LOCKS][PATH_MAX];
	int nlocked;
};

static inline void tree_init(struct tree *t)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(t->root, sizeof(t->root), "%s/gputop-fdinfo-XXXXXX",
	         tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(t->root));
	/* Traversable by the unprivileged child of the permission test. */
	assert_int_equal(chmod(t->root, 0755), 0);
}

static inline int rm_entry(const char *path, const struct stat *st, int flag,
                           struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static inline void tree_free(struct tree *t)
{
	for (int i = 0; i < t->nlocked; i++)
		chmod(t->locked[i], 0755);
	t->nlocked = 0;
	nftw(t->root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* chmod path (relative to the root) to mode, remembered for tree_free. */
static inline void tree_lock(struct tree *t, const char *rel, mode_t mode)
{
	char p[PATH_MAX];
	assert_true(t->nlocked < TREE_MAX_LOCKS);
	snprintf(p, sizeof(p), "%s/%s", t->root, rel);
	memcpy(t->locked[t->nlocked++], p, sizeof(p));
	if (chmod(p, mode) != 0)
		fail_msg("chmod %s: %s", p, strerror(errno));
}

/* cmocka setup/teardown: *state is a fresh tree, removed even when the
 * test fails. */
static inline int tree_setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));
	if (!t)
		return -1;
	tree_init(t);
	*state = t;
	return 0;
}

static inline int tree_teardown(void **state)
{
	struct tree *t = *state;
	if (t) {
		tree_free(t);
		free(t);
	}
	return 0;
}

#define tree_test(f)                                                           \
	cmocka_unit_test_setup_teardown(f, tree_setup, tree_teardown)

static inline void mkpath(const char *path)
{
	if (mkdir(path, 0755) != 0 && errno != EEXIST)
		fail_msg("mkdir %s: %s", path, strerror(errno));
}

static inline void tree_pid(struct tree *t, int pid)
{
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s/%d", t->root, pid);
	mkpath(p);
	snprintf(p, sizeof(p), "%s/%d/fd", t->root, pid);
	mkpath(p);
	snprintf(p, sizeof(p), "%s/%d/fdinfo", t->root, pid);
	mkpath(p);
}

static inline void write_file(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		fail_msg("open %s: %s", path, strerror(errno));
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
}

/* Descriptor fd of pid linking to target; its fdinfo is text (NULL: none). */
static inline void tree_fd(struct tree *t, int pid, int fd, const char *target,
                           const char *text)
{
	char p[PATH_MAX];
	tree_pid(t, pid);
	snprintf(p, sizeof(p), "%s/%d/fd/%d", t->root, pid, fd);
	unlink(p);
	assert_int_equal(symlink(target, p), 0);
	if (text) {
		snprintf(p, sizeof(p), "%s/%d/fdinfo/%d", t->root, pid, fd);
		write_file(p, text, strlen(text));
	}
}

static inline void tree_drm(struct tree *t, int pid, int fd, const char *text)
{
	tree_fd(t, pid, fd, "/dev/dri/renderD128", text);
}

/* Rewrites the fdinfo of (pid, fd) for the next round. */
static inline void tree_set(struct tree *t, int pid, int fd, const char *text)
{
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s/%d/fdinfo/%d", t->root, pid, fd);
	write_file(p, text, strlen(text));
}

static inline void tree_rm_pid(struct tree *t, int pid)
{
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s/%d", t->root, pid);
	nftw(p, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* The stat file of pid: start time (field 22, clock ticks after boot) and
 * flags (field 9), which the scanner reads to tell processes apart and to
 * skip kernel threads. */
static inline void tree_stat(struct tree *t, int pid, uint64_t start,
                             uint64_t flags)
{
	char p[PATH_MAX], text[256];
	tree_pid(t, pid);
	snprintf(p, sizeof(p), "%s/%d/stat", t->root, pid);
	int n = snprintf(text, sizeof(text),
	                 "%d (proc %d) S 1 %d %d 0 -1 %" PRIu64
	                 " 0 0 0 0 0 0 0 0 20 0 1 0 %" PRIu64 " 1000 10\n",
	                 pid, pid, pid, pid, flags, start);
	write_file(p, text, (size_t)n);
}

/* Another process under pid: an empty pid directory with a stat of its
 * own, made while the old one still exists, so it cannot get the old
 * one's inode numbers back (procfs never reuses them either). */
static inline void tree_respawn(struct tree *t, int pid, uint64_t start)
{
	char p[PATH_MAX], old[PATH_MAX];
	snprintf(p, sizeof(p), "%s/%d", t->root, pid);
	snprintf(old, sizeof(old), "%s/old-%d", t->root, pid);
	assert_int_equal(rename(p, old), 0);
	tree_stat(t, pid, start, 0);
	nftw(old, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Waits until the scanner may trust the times of directories changed so
 * far: it distrusts those changed within a clock tick of a walk (20 ms;
 * 1 s on file systems that keep whole seconds). */
static inline void tree_settle(void)
{
	struct timespec ts = {0, 30000000};
	nanosleep(&ts, NULL);
}

/* The processes of pdev after the last update, in a fresh vector. */
static inline void procs(struct gt_fdinfo *fi, const char *pdev,
                         struct gt_proc_vec *v)
{
	memset(v, 0, sizeof(*v));
	size_t n = gt_fdinfo_processes(fi, pdev, v);
	assert_int_equal(n, v->count);
}

static inline const struct gt_process *proc_pid(const struct gt_proc_vec *v,
                                                int pid)
{
	for (size_t i = 0; i < v->count; i++)
		if (v->items[i].pid == pid)
			return &v->items[i];
	fail_msg("no process %d", pid);
	return NULL;
}

#define assert_val(val, expect)                                                \
	do {                                                                   \
		const struct gt_val *v_ = (val);                               \
		if (!gt_val_ok(v_))                                            \
			fail_msg("%s: missing (why %d), want %lld", #val,      \
			         v_->why, (long long)(expect));                \
		assert_int_equal(v_->v, (expect));                             \
	} while (0)

#define assert_why(val, reason)                                                \
	do {                                                                   \
		const struct gt_val *v_ = (val);                               \
		if (v_->why != (reason))                                       \
			fail_msg("%s: why %d (v %lld), want %d", #val,         \
			         v_->why, (long long)v_->v, (int)(reason));    \
	} while (0)

static inline void busy_is(struct gt_fdinfo *fi, const char *pdev,
                           int64_t expect)
{
	struct gt_val v;
	bool lower = true;
	gt_fdinfo_device_busy(fi, pdev, &v, &lower);
	assert_val(&v, expect);
	assert_false(lower);
}

static inline char *i915_client(uint64_t id, uint64_t render_ns)
{
	char *out = malloc(512);
	assert_non_null(out);
	snprintf(out, 512,
	         "pos:\t0\nflags:\t0100002\nmnt_id:\t21\n"
	         "drm-driver:\ti915\ndrm-pdev:\t0000:00:02.0\n"
	         "drm-client-id:\t%" PRIu64 "\n"
	         "drm-total-system0:\t%" PRIu64 " KiB\n"
	         "drm-resident-system0:\t%" PRIu64 " KiB\n"
	         "drm-engine-render:\t%" PRIu64 " ns\n"
	         "drm-engine-copy:\t0 ns\ndrm-engine-video:\t0 ns\n"
	         "drm-engine-capacity-video:\t2\n"
	         "drm-engine-video-enhance:\t0 ns\n",
	         id, 2 * id, id, render_ns);
	return out;
}

static inline void set_client(struct tree *t, int pid, int fd, uint64_t id,
                              uint64_t render_ns)
{
	char *text = i915_client(id, render_ns);
	tree_drm(t, pid, fd, text);
	free(text);
}

#endif

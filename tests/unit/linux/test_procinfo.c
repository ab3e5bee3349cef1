/* SPDX-License-Identifier: MIT */
/*
 * test_procinfo.c - tests of src/procinfo.c against the synthetic proc tree
 * in tests/fixtures/proc (found through $GPUTOP_FIXTURES), and against
 * temporary copies of it for everything that needs files to change.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <pwd.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/model.h"
#include "linux/procinfo.h"
#include "core/text.h"

#define SEC       1000000000ull
#define DOCKER_ID "4f3c2a1b9e8d"

/* ---- helpers ------------------------------------------------------------ */

static const char *fixture_proc(void)
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

static void proc_init(struct gt_process *p, int32_t pid)
{
	memset(p, 0, sizeof(*p));
	for (int i = 0; i < GT_P__COUNT; i++)
		gt_val_fail(&p->f[i], GT_WHY_NOT_COLLECTED, 0);
	p->pid = pid;
}

static void fill(struct gt_procinfo *pi, struct gt_process *p, int32_t pid,
                 uint64_t now)
{
	proc_init(p, pid);
	gt_procinfo_fill(pi, p, now);
}

/* The name getpwuid gives uid, or its number: what procinfo must show. */
static void expected_user(uint32_t uid, char *out, size_t len)
{
	struct passwd *pw = getpwuid((uid_t)uid);
	if (pw && pw->pw_name && strlen(pw->pw_name) < GT_USER_LEN)
		snprintf(out, len, "%s", pw->pw_name);
	else
		snprintf(out, len, "%u", (unsigned)uid);
}

/* Returns 0 or -1; never aborts, so a setup can clean up after it. */
static int copy_file(const char *src, const char *dst)
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

static int copy_tree(const char *src, const char *dst)
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

static int rm_one(const char *path, const struct stat *st, int flag,
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

static int teardown_tmp(void **state)
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
static int setup_empty(void **state)
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
static int setup_copy(void **state)
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

static void write_file(const char *dir, int pid, const char *leaf,
                       const void *data, size_t len)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%d/%s", dir, pid, leaf);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void write_str(const char *dir, int pid, const char *leaf, const char *s)
{
	write_file(dir, pid, leaf, s, strlen(s));
}

static void remove_leaf(const char *dir, int pid, const char *leaf)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%d/%s", dir, pid, leaf);
	assert_int_equal(unlink(path), 0);
}

/* A complete 52-field stat line; rss (field 24) in pages. */
static void write_stat_rss(const char *dir, int pid, const char *comm,
                           unsigned long long utime, unsigned long long stime,
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

static void write_stat(const char *dir, int pid, const char *comm,
                       unsigned long long utime, unsigned long long stime,
                       unsigned long long start)
{
	write_stat_rss(dir, pid, comm, utime, stime, start, "250");
}

/* Bytes of a resident-page count, as the kernel's page size makes them. */
static int64_t pages(int64_t n)
{
	return n * (int64_t)sysconf(_SC_PAGESIZE);
}

static int64_t clk(void)
{
	return (int64_t)sysconf(_SC_CLK_TCK);
}

/* ---- fixture pids ---------------------------------------------------- */

static void test_train_ranks(void **state)
{
	struct gt_procinfo *pi = gt_procinfo_new(fixture_proc());
	char user[GT_USER_LEN];
	(void)state;
	assert_non_null(pi);
	expected_user(1000, user, sizeof(user));

	for (int n = 0; n < 8; n++) {
		struct gt_process p;
		char want[64];
		fill(pi, &p, 4100 + n, SEC);
		assert_true(p.host_known);
		assert_int_equal(p.uid, 1000);
		assert_string_equal(p.user, user);
		assert_string_equal(p.name, "python3");
		snprintf(want, sizeof(want), "python3 train.py --rank %d", n);
		assert_non_null(p.cmdline);
		assert_string_equal(p.cmdline, want);
		assert_string_equal(p.container, "docker:" DOCKER_ID);
		assert_int_equal(p.f[GT_P_HOST_MEM].why, GT_WHY_OK);
		/* field 24 of stat: (2048000 + 1024 n) kB in 4 KiB pages */
		assert_int_equal(p.f[GT_P_HOST_MEM].v,
		                 pages((2048000 + 1024 * n) / 4));
		assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_PENDING);
		/* fields procinfo does not own stay as they were */
		assert_int_equal(p.f[GT_P_GPU].why, GT_WHY_NOT_COLLECTED);
		free(p.cmdline);
	}
	assert_int_equal(gt_procinfo_cache_count(pi), 8);
	gt_procinfo_free(pi);
}

static void test_root_service(void **state)
{
	struct gt_procinfo *pi = gt_procinfo_new(fixture_proc());
	struct gt_process p;
	(void)state;

	fill(pi, &p, 5000, SEC);
	assert_true(p.host_known);
	assert_int_equal(p.uid, 0);
	assert_string_equal(p.user, "root");
	assert_string_equal(p.name, "nsys-ui");
	assert_string_equal(p.cmdline, "/usr/bin/nsys-ui --session gpu0");
	assert_string_equal(p.container, "systemd:nsys-ui.service");
	assert_int_equal(p.f[GT_P_HOST_MEM].v, pages(812340 / 4));
	free(p.cmdline);
	gt_procinfo_free(pi);
}

static void test_hostile_pid(void **state)
{
	static const char want[] = "/tmp/evil --title=\x1b]0;pwned\x07 say "
	                           "\"hi\" C:\\path line1\nline2 bad\xff";
	struct gt_procinfo *pi = gt_procinfo_new(fixture_proc());
	struct gt_process p;
	(void)state;

	fill(pi, &p, 6000, SEC);
	assert_true(p.host_known);
	/* comm holds ") (": taken between the first '(' and the last ')' */
	assert_string_equal(p.name, "x) (y) S 1 2 3");
	/* raw bytes kept, NULs joined by spaces, the trailing NUL dropped */
	assert_non_null(p.cmdline);
	assert_int_equal(strlen(p.cmdline), sizeof(want) - 1);
	assert_memory_equal(p.cmdline, want, sizeof(want));
	assert_int_equal(p.uid, 4242);
	if (getpwuid(4242) == NULL)
		assert_string_equal(p.user, "4242");
	assert_string_equal(p.container, ""); /* a user session */
	assert_int_equal(p.f[GT_P_HOST_MEM].v, pages(10240 / 4));

	char esc[256];
	gt_text_escape(esc, sizeof(esc), p.cmdline, strlen(p.cmdline));
	assert_string_equal(esc, "/tmp/evil --title=\\e]0;pwned\\x07 say "
	                         "\"hi\" C:\\path line1\\nline2 bad\\xff");
	free(p.cmdline);
	gt_procinfo_free(pi);
}

static void test_containers(void **state)
{
	static const struct {
		int pid;
		uint32_t uid;
		const char *name, *cmdline, *container;
	} cases[] = {
	    {6100, 4242, "python", "python -m serve",
	     "k8s:pod3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b"},
	    {6200, 4243, "ollama", "/usr/bin/ollama serve",
	     "podman:a1b2c3d4e5f6"},
	    {6300, 4242, "blender", "blender -b scene.blend",
	     "docker:9f8e7d6c5b4a"},
	};
	struct gt_procinfo *pi = gt_procinfo_new(fixture_proc());
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct gt_process p;
		char num[16];
		fill(pi, &p, cases[i].pid, SEC);
		assert_true(p.host_known);
		assert_int_equal(p.uid, cases[i].uid);
		snprintf(num, sizeof(num), "%u", (unsigned)cases[i].uid);
		if (getpwuid(cases[i].uid) == NULL)
			assert_string_equal(p.user, num);
		assert_string_equal(p.name, cases[i].name);
		assert_string_equal(p.cmdline, cases[i].cmdline);
		assert_string_equal(p.container, cases[i].container);
		free(p.cmdline);
	}
	gt_procinfo_free(pi);
}

static void test_kernel_thread(void **state)
{
	struct gt_procinfo *pi = gt_procinfo_new(fixture_proc());
	struct gt_process p;
	(void)state;

	fill(pi, &p, 6400, SEC);
	assert_true(p.host_known);
	assert_string_equal(p.name, "kworker/3:1H");
	assert_string_equal(p.cmdline, "[kworker/3:1H]");
	assert_string_equal(p.user, "root");
	assert_string_equal(p.container, "");
	/* no user memory at all: a true zero */
	assert_int_equal(p.f[GT_P_HOST_MEM].why, GT_WHY_OK);
	assert_int_equal(p.f[GT_P_HOST_MEM].v, 0);
	free(p.cmdline);
	gt_procinfo_free(pi);
}

static void test_missing_pid(void **state)
{
	struct gt_procinfo *pi = gt_procinfo_new(fixture_proc());
	struct gt_process p;
	(void)state;

	proc_init(&p, 7000);
	p.host_known = true;
	snprintf(p.name, sizeof(p.name), "from-backend");
	gt_procinfo_fill(pi, &p, SEC);
	assert_false(p.host_known);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_NOT_COLLECTED);
	assert_int_equal(p.f[GT_P_HOST_MEM].why, GT_WHY_NOT_COLLECTED);
	assert_int_equal(p.f[GT_P_CPU].v, 0);
	assert_string_equal(p.name, "from-backend"); /* left untouched */
	assert_string_equal(p.user, "");
	assert_null(p.cmdline);
	/* Remembered as absent (not looked up again for a few rounds), and
	 * forgotten by the first sweep after the backend stops reporting it. */
	assert_int_equal(gt_procinfo_cache_count(pi), 1);
	gt_procinfo_fill(pi, &p, SEC);
	assert_false(p.host_known);
	gt_procinfo_sweep(pi, SEC);
	gt_procinfo_sweep(pi, 2 * SEC);
	assert_int_equal(gt_procinfo_cache_count(pi), 0);

	/* pids that cannot exist */
	fill(pi, &p, 0, SEC);
	assert_false(p.host_known);
	fill(pi, &p, -1, SEC);
	assert_false(p.host_known);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_NOT_COLLECTED);
	gt_procinfo_free(pi);

	/* a proc root that does not exist */
	pi = gt_procinfo_new("/nonexistent/gputop/proc");
	fill(pi, &p, 4100, SEC);
	assert_false(p.host_known);
	gt_procinfo_free(pi);
}

/* Field 22 of /proc/self/stat, parsed here on its own (after the last
 * ')', the start time is the 20th field). */
static uint64_t own_start_time(void)
{
	char buf[1024];
	FILE *f = fopen("/proc/self/stat", "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	const char *s = strrchr(buf, ')');
	assert_non_null(s);
	unsigned long long v = 0;
	int field = 2;
	for (s++; *s && field < 22; s++)
		if (*s == ' ')
			field++;
	assert_int_equal(sscanf(s, "%llu", &v), 1);
	return (uint64_t)v;
}

static void test_root_variants(void **state)
{
	char root[4096];
	struct gt_process p;
	(void)state;

	/* a trailing slash on --procfs is harmless */
	snprintf(root, sizeof(root), "%s//", fixture_proc());
	struct gt_procinfo *pi = gt_procinfo_new(root);
	fill(pi, &p, 4103, SEC);
	assert_true(p.host_known);
	assert_string_equal(p.cmdline, "python3 train.py --rank 3");
	/* a copied tree's start times are not those kill() would meet */
	assert_false(p.start_known);
	free(p.cmdline);
	gt_procinfo_free(pi);

	/* NULL means the live /proc: our own pid must be found */
	char comm[64] = "";
	FILE *f = fopen("/proc/self/comm", "r");
	assert_non_null(f);
	assert_non_null(fgets(comm, sizeof(comm), f));
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	pi = gt_procinfo_new(NULL);
	assert_non_null(pi);
	fill(pi, &p, (int32_t)getpid(), SEC);
	assert_true(p.host_known);
	assert_string_equal(p.name, comm);
	assert_int_equal(p.uid, (uint32_t)geteuid());
	assert_true(p.f[GT_P_HOST_MEM].why == GT_WHY_OK);
	assert_true(p.f[GT_P_HOST_MEM].v > 0);
	assert_non_null(p.cmdline);
	assert_true(p.cmdline[0] != '\0');
	/* our own namespace: the row carries our start time (field 22) */
	assert_true(p.start_known);
	assert_int_equal(p.start, own_start_time());
	free(p.cmdline);
	gt_procinfo_free(pi);
	gt_procinfo_free(NULL);
}

static void test_cmdline_replaced(void **state)
{
	struct gt_procinfo *pi = gt_procinfo_new(fixture_proc());
	struct gt_process p;
	(void)state;

	proc_init(&p, 4100);
	p.cmdline = strdup("stale");
	gt_procinfo_fill(pi, &p, SEC);
	/* the old string is freed (ASan would see a leak otherwise) */
	assert_string_equal(p.cmdline, "python3 train.py --rank 0");
	free(p.cmdline);
	gt_procinfo_free(pi);
}

/* ---- CPU, caching, reuse (on a temporary copy) ------------------------ */

static void test_cpu_delta(void **state)
{
	struct tmp_tree *t = *state;
	struct gt_process p;
	int64_t c = clk();

	write_stat(t->dir, 4100, "python3", 1000, 500, 987650);
	fill(t->pi, &p, 4100, 10 * SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_PENDING);
	free(p.cmdline);

	/* 1.5 s of CPU (utime + stime) in 1 s: 150% of one core */
	write_stat(t->dir, 4100, "python3", 1000 + c, 500 + c / 2, 987650);
	fill(t->pi, &p, 4100, 11 * SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
	assert_int_equal(p.f[GT_P_CPU].v, 15000);
	free(p.cmdline);

	/* the same pid on a second GPU in the same round: same value */
	fill(t->pi, &p, 4100, 11 * SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
	assert_int_equal(p.f[GT_P_CPU].v, 15000);
	free(p.cmdline);
	fill(t->pi, &p, 4100, 11 * SEC + 10000000);
	assert_int_equal(p.f[GT_P_CPU].v, 15000);
	free(p.cmdline);

	/* a quarter of a core over the next 2 s (baseline kept at 11 s) */
	write_stat(t->dir, 4100, "python3", 1000 + c + c / 4,
	           500 + c / 2 + c / 4, 987650);
	fill(t->pi, &p, 4100, 13 * SEC);
	assert_int_equal(p.f[GT_P_CPU].v, 2500);
	free(p.cmdline);

	/* idle */
	fill(t->pi, &p, 4100, 14 * SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
	assert_int_equal(p.f[GT_P_CPU].v, 0);
	free(p.cmdline);

	/* 8 busy threads: cpercent of one core goes past 100% */
	write_stat(t->dir, 4100, "python3", 1000 + c + c / 4 + 8 * c,
	           500 + c / 2 + c / 4, 987650);
	fill(t->pi, &p, 4100, 15 * SEC);
	assert_int_equal(p.f[GT_P_CPU].v, 80000);
	free(p.cmdline);

	/* counters that go backwards (a broken source) restart the rate
	 * instead of wrapping into a huge value */
	write_stat(t->dir, 4100, "python3", 10, 10, 987650);
	fill(t->pi, &p, 4100, 16 * SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_PENDING);
	free(p.cmdline);
	write_stat(t->dir, 4100, "python3", 10 + c, 10, 987650);
	fill(t->pi, &p, 4100, 17 * SEC);
	assert_int_equal(p.f[GT_P_CPU].v, 10000);
	free(p.cmdline);
	/* so does a clock that goes backwards */
	fill(t->pi, &p, 4100, 1 * SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_PENDING);
	free(p.cmdline);
}

/* Outside our own pid namespace (a copied tree here) CPU time and resident
 * pages come from stat, round after round, even where schedstat and statm
 * exist: schedstat counts the leader thread only, which would show a
 * process whose work runs in other threads as idle. */
static void test_cpu_copied_tree(void **state)
{
	struct tmp_tree *t = *state;
	struct gt_process p;
	int64_t c = clk();

	write_str(t->dir, 4100, "schedstat", "5000000000 12345 678\n");
	write_str(t->dir, 4100, "statm", "900000 2048 300 1 0 5000 0\n");
	write_stat_rss(t->dir, 4100, "python3", 1000, 500, 987650, "1024");
	fill(t->pi, &p, 4100, 10 * SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_PENDING);
	assert_int_equal(p.f[GT_P_HOST_MEM].v, pages(1024));
	free(p.cmdline);

	/* schedstat and statm move, stat does not: idle, stat's pages */
	write_str(t->dir, 4100, "schedstat", "5250000000 12345 679\n");
	write_str(t->dir, 4100, "statm", "900000 4096 300 1 0 5000 0\n");
	fill(t->pi, &p, 4100, 11 * SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
	assert_int_equal(p.f[GT_P_CPU].v, 0);
	assert_int_equal(p.f[GT_P_HOST_MEM].v, pages(1024));
	assert_non_null(strstr(p.cmdline, "train.py"));
	free(p.cmdline);

	/* 1.5 cores a second from then on, for ten rounds: no round may
	 * restart the rate (a restart would answer PENDING). */
	for (int round = 0; round < 10; round++) {
		write_stat_rss(t->dir, 4100, "python3",
		               1000 +
		                   (uint64_t)c * 3 / 2 * (uint64_t)(round + 1),
		               500, 987650, "2000");
		gt_procinfo_sweep(t->pi, (uint64_t)(11 + round) * SEC);
		fill(t->pi, &p, 4100, (uint64_t)(12 + round) * SEC);
		assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
		assert_int_equal(p.f[GT_P_CPU].v, 15000);
		assert_int_equal(p.f[GT_P_HOST_MEM].v, pages(2000));
		free(p.cmdline);
	}
}

/* ---- the live /proc (our own pid namespace) --------------------------- */

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * SEC + (uint64_t)ts.tv_nsec;
}

/* utime + stime of a live pid, in clock ticks. */
static uint64_t live_ticks(pid_t pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	const char *q = strrchr(buf, ')');
	assert_non_null(q);
	unsigned long long ut = 0, st = 0;
	assert_int_equal(sscanf(q + 2,
	                        "%*c %*d %*d %*d %*d %*d %*u %*u %*u "
	                        "%*u %*u %llu %llu",
	                        &ut, &st),
	                 2);
	return ut + st;
}

static void *spin(void *arg)
{
	volatile unsigned long n = 0;
	(void)arg;
	for (;;)
		n++;
	return NULL;
}

/* A child that holds until a byte comes on fd (or the pipe closes),
 * with a spinning second thread when spin_thread, then execs
 * "sleep 30" when exec_after. */
static pid_t child(int fd, bool spin_thread, bool exec_after)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid > 0)
		return pid;
	/* Never outlive the test, even one that fails before child_end():
	 * a spinning orphan would hold a core and the test's output. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	alarm(30);
	pthread_t th;
	if (spin_thread && pthread_create(&th, NULL, spin, NULL) != 0)
		_exit(1);
	char ch;
	if (read(fd, &ch, 1) == 1 && exec_after)
		execlp("sleep", "sleep", "30", (char *)NULL);
	_exit(0);
}

static void child_end(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* The CPU of a process is that of all its threads: here the leader waits
 * in read() while a second thread spins. */
static void test_live_threads(void **state)
{
	int fds[2];
	struct gt_process p;
	(void)state;

	assert_int_equal(pipe(fds), 0);
	pid_t pid = child(fds[0], true, false);
	struct gt_procinfo *pi = gt_procinfo_new(NULL);
	assert_non_null(pi);
	uint64_t t0 = mono_ns(), k0 = live_ticks(pid);
	fill(pi, &p, (int32_t)pid, t0);
	assert_true(p.host_known);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_PENDING);
	free(p.cmdline);
	/* until the spinning thread has used 300 ms of CPU, however busy
	 * the machine */
	while (live_ticks(pid) - k0 < (uint64_t)clk() * 3 / 10) {
		struct timespec nap = {0, 20000000};
		nanosleep(&nap, NULL);
	}
	gt_procinfo_sweep(pi, t0);
	uint64_t t1 = mono_ns(), k1 = live_ticks(pid);
	fill(pi, &p, (int32_t)pid, t1);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
	/* stat's ticks over the same time, give or take two ticks */
	double want =
	    (double)(k1 - k0) / (double)clk() * 1e4 / ((double)(t1 - t0) / 1e9);
	double slack = 2.0 / (double)clk() * 1e4 / ((double)(t1 - t0) / 1e9);
	assert_true(p.f[GT_P_CPU].v > 1000);
	assert_true((double)p.f[GT_P_CPU].v > want - slack &&
	            (double)p.f[GT_P_CPU].v < want + slack);
	assert_true(p.f[GT_P_HOST_MEM].why == GT_WHY_OK);
	assert_true(p.f[GT_P_HOST_MEM].v > 0);
	free(p.cmdline);
	close(fds[1]);
	close(fds[0]);
	child_end(pid);
	gt_procinfo_free(pi);
}

/* An exec shows within the comm recheck period (8 rounds) in the name and
 * the command line, and keeps the CPU rate going; an exit shows at once. */
static void test_live_exec_and_exit(void **state)
{
	int fds[2];
	struct gt_process p;
	char comm[64] = "";
	(void)state;

	FILE *f = fopen("/proc/self/comm", "r");
	assert_non_null(f);
	assert_non_null(fgets(comm, sizeof(comm), f));
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';

	assert_int_equal(pipe(fds), 0);
	pid_t pid = child(fds[0], false, true);
	struct gt_procinfo *pi = gt_procinfo_new(NULL);
	assert_non_null(pi);
	uint64_t now = mono_ns();
	fill(pi, &p, (int32_t)pid, now);
	assert_true(p.host_known);
	assert_string_equal(p.name, comm);
	free(p.cmdline);
	gt_procinfo_sweep(pi, now);

	assert_int_equal(write(fds[1], "x", 1), 1);
	/* until the child runs sleep (or 5 s: execlp failed) */
	for (int i = 0; i < 500; i++) {
		char path[64], buf[64] = "";
		snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
		f = fopen(path, "r");
		if (f) {
			if (!fgets(buf, sizeof(buf), f))
				buf[0] = '\0';
			fclose(f);
		}
		if (strcmp(buf, "sleep\n") == 0)
			break;
		struct timespec nap = {0, 10000000};
		nanosleep(&nap, NULL);
	}
	/* The comm recheck period, plus the rounds an empty cmdline is read
	 * again: the child may be caught inside execve(), with its new comm
	 * but no arguments yet. */
	bool seen = false;
	for (int round = 0; round < 8 + 3 && !seen; round++) {
		now += SEC;
		fill(pi, &p, (int32_t)pid, now);
		assert_true(p.host_known);
		assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
		seen = strcmp(p.name, "sleep") == 0 && p.cmdline &&
		       strcmp(p.cmdline, "sleep 30") == 0;
		free(p.cmdline);
		gt_procinfo_sweep(pi, now);
	}
	assert_true(seen);

	child_end(pid);
	fill(pi, &p, (int32_t)pid, now + SEC);
	assert_false(p.host_known);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_NOT_COLLECTED);
	assert_int_equal(p.f[GT_P_HOST_MEM].why, GT_WHY_NOT_COLLECTED);
	free(p.cmdline);
	close(fds[0]);
	close(fds[1]);
	gt_procinfo_free(pi);
}

/* The fixture's stat of 6000 has a comm with ") (" and digits: a parser
 * that counts fields from the first ')' reads the wrong utime. */
static void test_cpu_paren_comm(void **state)
{
	struct tmp_tree *t = *state;
	struct gt_process p;
	int64_t c = clk();

	fill(t->pi, &p, 6000, SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_PENDING);
	free(p.cmdline);
	/* fixture: utime 777, stime 333, start 555555 */
	write_stat(t->dir, 6000, "x) (y) S 1 2 3", 777 + c / 2, 333, 555555);
	fill(t->pi, &p, 6000, 2 * SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
	assert_int_equal(p.f[GT_P_CPU].v, 5000);
	assert_string_equal(p.name, "x) (y) S 1 2 3");
	free(p.cmdline);
}

static void test_cache_reuse(void **state)
{
	struct tmp_tree *t = *state;
	struct gt_process p;

	fill(t->pi, &p, 4101, SEC);
	assert_string_equal(p.cmdline, "python3 train.py --rank 1");
	free(p.cmdline);

	/* steady state reads only stat: status, cmdline and cgroup can
	 * vanish and the cached strings still answer */
	char user[GT_USER_LEN];
	expected_user(1000, user, sizeof(user));
	remove_leaf(t->dir, 4101, "cmdline");
	remove_leaf(t->dir, 4101, "cgroup");
	remove_leaf(t->dir, 4101, "comm");
	remove_leaf(t->dir, 4101, "status");
	write_stat_rss(t->dir, 4101, "python3", 123401, 5601, 987651, "1024");
	fill(t->pi, &p, 4101, 2 * SEC);
	assert_true(p.host_known);
	assert_string_equal(p.cmdline, "python3 train.py --rank 1");
	assert_string_equal(p.container, "docker:" DOCKER_ID);
	assert_string_equal(p.name, "python3");
	assert_int_equal(p.uid, 1000);
	assert_string_equal(p.user, user);
	/* ... while stat is read every time */
	assert_int_equal(p.f[GT_P_HOST_MEM].v, pages(1024));
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
	free(p.cmdline);
	assert_int_equal(gt_procinfo_cache_count(t->pi), 1);

	/* a uid change shows with the next exec (a new comm), the moment
	 * status is read again */
	write_str(t->dir, 4101, "status",
	          "Name:\tpython3\nUid:\t1000\t0\t0\t0\nVmRSS:\t 8 kB\n");
	write_stat(t->dir, 4101, "sudo", 123401, 5601, 987651);
	fill(t->pi, &p, 4101, 3 * SEC);
	assert_int_equal(p.uid, 0);
	assert_string_equal(p.user, "root");
	assert_null(p.cmdline); /* cmdline now gone: left as it was */
}

static void test_exec_rereads_cmdline(void **state)
{
	struct tmp_tree *t = *state;
	struct gt_process p;

	write_stat(t->dir, 4102, "python3", 100, 0, 987652);
	fill(t->pi, &p, 4102, SEC);
	assert_string_equal(p.cmdline, "python3 train.py --rank 2");
	free(p.cmdline);

	/* same pid, same start time, another comm: an exec */
	write_stat(t->dir, 4102, "torchrun", 100 + clk(), 0, 987652);
	write_file(t->dir, 4102, "cmdline",
	           "torchrun\0--nproc\0"
	           "8\0",
	           19);
	fill(t->pi, &p, 4102, 2 * SEC);
	assert_string_equal(p.name, "torchrun");
	assert_string_equal(p.cmdline, "torchrun --nproc 8");
	/* the process is the same: its CPU baseline survives the exec */
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
	assert_int_equal(p.f[GT_P_CPU].v, 10000);
	free(p.cmdline);
}

/* Caught inside execve(): the new comm is there, the arguments are not
 * yet (cmdline reads empty). The next rounds read cmdline again and show
 * the real one; only an empty cmdline seen on every one of a few rounds
 * (a kernel thread, a zombie) settles as "[comm]". */
static void test_exec_caught_midway(void **state)
{
	struct tmp_tree *t = *state;
	struct gt_process p;

	write_stat(t->dir, 4102, "python3", 100, 0, 987652);
	fill(t->pi, &p, 4102, SEC);
	free(p.cmdline);

	write_stat(t->dir, 4102, "torchrun", 100, 0, 987652);
	write_file(t->dir, 4102, "cmdline", "", 0);
	fill(t->pi, &p, 4102, 2 * SEC);
	assert_string_equal(p.cmdline, "[torchrun]");
	free(p.cmdline);
	write_file(t->dir, 4102, "cmdline",
	           "torchrun\0--nproc\0"
	           "8\0",
	           19);
	fill(t->pi, &p, 4102, 3 * SEC);
	assert_string_equal(p.cmdline, "torchrun --nproc 8");
	free(p.cmdline);

	/* Empty on three rounds in a row: settled, not read again. */
	write_stat(t->dir, 4102, "kworker", 100, 0, 987652);
	write_file(t->dir, 4102, "cmdline", "", 0);
	for (int round = 0; round < 3; round++) {
		fill(t->pi, &p, 4102, (uint64_t)(4 + round) * SEC);
		assert_string_equal(p.cmdline, "[kworker]");
		free(p.cmdline);
	}
	write_file(t->dir, 4102, "cmdline", "late\0", 5);
	fill(t->pi, &p, 4102, 7 * SEC);
	assert_string_equal(p.cmdline, "[kworker]");
	free(p.cmdline);
}

static void test_pid_reuse(void **state)
{
	struct tmp_tree *t = *state;
	struct gt_process p;

	write_stat(t->dir, 4103, "python3", 5000, 0, 987653);
	fill(t->pi, &p, 4103, SEC);
	assert_string_equal(p.cmdline, "python3 train.py --rank 3");
	free(p.cmdline);

	/* another process got the pid: other start time, same comm, fewer
	 * ticks. Nothing of the old one may leak into the new one. */
	write_stat(t->dir, 4103, "python3", 10, 0, 999999);
	write_file(t->dir, 4103, "cmdline", "python3\0eval.py\0", 16);
	write_str(t->dir, 4103, "cgroup", "0::/system.slice/eval.service\n");
	fill(t->pi, &p, 4103, 2 * SEC);
	assert_true(p.host_known);
	assert_string_equal(p.cmdline, "python3 eval.py");
	assert_string_equal(p.container, "systemd:eval.service");
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_PENDING);
	free(p.cmdline);
	assert_int_equal(gt_procinfo_cache_count(t->pi), 1);

	write_stat(t->dir, 4103, "python3", 10 + clk(), 0, 999999);
	fill(t->pi, &p, 4103, 3 * SEC);
	assert_int_equal(p.f[GT_P_CPU].v, 10000);
	free(p.cmdline);
}

static void test_sweep(void **state)
{
	struct tmp_tree *t = *state;
	struct gt_process p;

	fill(t->pi, &p, 4100, SEC);
	free(p.cmdline);
	fill(t->pi, &p, 4101, SEC);
	free(p.cmdline);
	gt_procinfo_sweep(t->pi, SEC);
	assert_int_equal(gt_procinfo_cache_count(t->pi), 2);

	/* round 2 sees only 4100 */
	fill(t->pi, &p, 4100, 2 * SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
	free(p.cmdline);
	gt_procinfo_sweep(t->pi, 2 * SEC);
	assert_int_equal(gt_procinfo_cache_count(t->pi), 1);

	/* 4101 was dropped: its next fill starts over */
	fill(t->pi, &p, 4101, 3 * SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_PENDING);
	free(p.cmdline);
	fill(t->pi, &p, 4100, 3 * SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
	free(p.cmdline);
	gt_procinfo_sweep(t->pi, 3 * SEC);
	assert_int_equal(gt_procinfo_cache_count(t->pi), 2);

	/* a round with no fills empties the cache */
	gt_procinfo_sweep(t->pi, 4 * SEC);
	assert_int_equal(gt_procinfo_cache_count(t->pi), 0);
	fill(t->pi, &p, 4100, 5 * SEC);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_PENDING);
	free(p.cmdline);
}

static void test_malformed(void **state)
{
	struct tmp_tree *t = *state;
	struct gt_process p;

	write_str(t->dir, 4104, "stat", "garbage without parens\n");
	fill(t->pi, &p, 4104, SEC);
	assert_false(p.host_known);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_NOT_COLLECTED);
	assert_int_equal(p.f[GT_P_HOST_MEM].why, GT_WHY_NOT_COLLECTED);
	assert_null(p.cmdline);

	/* cut after utime: stime and the start time are missing */
	write_str(t->dir, 4104, "stat",
	          "4104 (python3) S 1 2 3 0 -1 0 0 0 0 0 1234");
	fill(t->pi, &p, 4104, SEC);
	assert_false(p.host_known);

	/* a non-number where utime belongs */
	write_str(t->dir, 4104, "stat",
	          "4104 (python3) S 1 2 3 0 -1 0 0 0 0 0 12x4 5 0 0 20 0 1 0 9 "
	          "0 0\n");
	fill(t->pi, &p, 4104, SEC);
	assert_false(p.host_known);

	/* an empty stat */
	write_str(t->dir, 4104, "stat", "");
	fill(t->pi, &p, 4104, SEC);
	assert_false(p.host_known);
	assert_int_equal(gt_procinfo_cache_count(t->pi), 0);

	/* stat fine but cut after the start time (no rss); status without
	 * a Uid line */
	write_str(t->dir, 4105, "stat",
	          "4105 (python3) S 1 2 3 0 -1 0 0 0 0 0 5 6 0 0 20 0 1 0 "
	          "987655\n");
	write_str(t->dir, 4105, "status", "Name:\tpython3\nVmRSS:\t8 kB\n");
	fill(t->pi, &p, 4105, SEC);
	assert_true(p.host_known);
	assert_int_equal(p.uid, GT_UID_UNKNOWN);
	assert_string_equal(p.user, "");
	assert_int_equal(p.f[GT_P_HOST_MEM].why, GT_WHY_NOT_COLLECTED);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_PENDING);
	assert_string_equal(p.cmdline, "python3 train.py --rank 5");
	free(p.cmdline);

	/* status unreadable (a directory where the file should be); cgroup
	 * and cmdline gone: empty container, cmdline untouched */
	remove_leaf(t->dir, 4106, "status");
	remove_leaf(t->dir, 4106, "cmdline");
	remove_leaf(t->dir, 4106, "cgroup");
	char path[4096];
	snprintf(path, sizeof(path), "%s/4106/status", t->dir);
	assert_int_equal(mkdir(path, 0755), 0);
	fill(t->pi, &p, 4106, SEC);
	assert_true(p.host_known);
	assert_string_equal(p.name, "python3");
	assert_int_equal(p.uid, GT_UID_UNKNOWN);
	assert_string_equal(p.user, "");
	assert_int_equal(p.f[GT_P_HOST_MEM].why, GT_WHY_OK);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_PENDING);
	assert_null(p.cmdline);
	assert_string_equal(p.container, "");

	/* an rss that would overflow int64 in bytes, and one that is not a
	 * number: not collected, the rest still filled */
	write_str(t->dir, 4107, "status", "Uid:\t1\t1\t1\t1\n");
	write_stat_rss(t->dir, 4107, "python3", 1, 1, 987657,
	               "9999999999999999999");
	fill(t->pi, &p, 4107, SEC);
	assert_true(p.host_known);
	assert_int_equal(p.f[GT_P_HOST_MEM].why, GT_WHY_NOT_COLLECTED);
	assert_int_equal(p.uid, 1);
	free(p.cmdline);
	write_stat_rss(t->dir, 4107, "python3", 1, 1, 987657, "-5");
	fill(t->pi, &p, 4107, SEC);
	assert_true(p.host_known);
	assert_int_equal(p.f[GT_P_HOST_MEM].why, GT_WHY_NOT_COLLECTED);
	free(p.cmdline);
}

static void test_permission(void **state)
{
	struct tmp_tree *t = *state;
	struct gt_process p;
	char path[4096];

	if (geteuid() == 0)
		skip(); /* root reads mode-000 files anyway */
	snprintf(path, sizeof(path), "%s/5000/status", t->dir);
	assert_int_equal(chmod(path, 0), 0);
	fill(t->pi, &p, 5000, SEC);
	assert_true(p.host_known);
	assert_int_equal(p.uid, GT_UID_UNKNOWN);
	assert_string_equal(p.user, "");
	assert_int_equal(p.f[GT_P_HOST_MEM].why, GT_WHY_OK);
	free(p.cmdline);

	snprintf(path, sizeof(path), "%s/5000/stat", t->dir);
	assert_int_equal(chmod(path, 0), 0);
	fill(t->pi, &p, 5000, SEC);
	assert_false(p.host_known);
	assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_PERMISSION);
	assert_int_equal(p.f[GT_P_HOST_MEM].why, GT_WHY_PERMISSION);
	free(p.cmdline);
}

/* Thousands of pids: every one found again, none confused with another. */
static void test_many_pids(void **state)
{
	enum { N = 3000, BASE = 100000 };
	struct tmp_tree *t = *state;
	const char *dir = t->dir;

	for (int i = 0; i < N; i++) {
		char path[4096], comm[32], cmd[32];
		int pid = BASE + i * 7;
		snprintf(path, sizeof(path), "%s/%d", dir, pid);
		assert_int_equal(mkdir(path, 0755), 0);
		snprintf(comm, sizeof(comm), "w%d", pid);
		write_stat(dir, pid, comm, (unsigned long long)i, 0,
		           (unsigned long long)pid);
		write_str(dir, pid, "status",
		          "Uid:\t0\t0\t0\t0\nVmRSS:\t4 kB\n");
		int n = snprintf(cmd, sizeof(cmd), "worker%c%d", 0, pid);
		write_file(dir, pid, "cmdline", cmd, (size_t)n + 1);
		write_str(dir, pid, "cgroup", "0::/\n");
	}

	struct gt_procinfo *pi = t->pi = gt_procinfo_new(dir);
	assert_non_null(pi);
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < N; i++) {
			struct gt_process p;
			char want[32];
			int pid = BASE + i * 7;
			fill(pi, &p, pid, (uint64_t)(round + 1) * SEC);
			snprintf(want, sizeof(want), "w%d", pid);
			assert_string_equal(p.name, want);
			snprintf(want, sizeof(want), "worker %d", pid);
			assert_string_equal(p.cmdline, want);
			assert_int_equal(p.f[GT_P_CPU].why,
			                 round ? GT_WHY_OK : GT_WHY_PENDING);
			free(p.cmdline);
		}
		gt_procinfo_sweep(pi, (uint64_t)(round + 1) * SEC);
		assert_int_equal(gt_procinfo_cache_count(pi), N);
	}

	/* keep every third pid: the rest go, the kept ones keep their state */
	for (int i = 0; i < N; i += 3) {
		struct gt_process p;
		fill(pi, &p, BASE + i * 7, 3 * SEC);
		assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
		free(p.cmdline);
	}
	gt_procinfo_sweep(pi, 3 * SEC);
	assert_int_equal(gt_procinfo_cache_count(pi), N / 3);
	for (int i = 0; i < N; i++) {
		struct gt_process p;
		fill(pi, &p, BASE + i * 7, 4 * SEC);
		assert_int_equal(p.f[GT_P_CPU].why,
		                 i % 3 == 0 ? GT_WHY_OK : GT_WHY_PENDING);
		free(p.cmdline);
	}
	assert_int_equal(gt_procinfo_cache_count(pi), N);
	gt_procinfo_sweep(pi, 4 * SEC);
	assert_int_equal(gt_procinfo_cache_count(pi), N);

	/* a sweep that keeps few shrinks the index without losing them */
	for (int i = 0; i < 10; i++) {
		struct gt_process p;
		fill(pi, &p, BASE + i * 7, 5 * SEC);
		assert_int_equal(p.f[GT_P_CPU].why, GT_WHY_OK);
		free(p.cmdline);
	}
	gt_procinfo_sweep(pi, 5 * SEC);
	assert_int_equal(gt_procinfo_cache_count(pi), 10);
	for (int i = 0; i < 12; i++) {
		struct gt_process p;
		fill(pi, &p, BASE + i * 7, 6 * SEC);
		assert_int_equal(p.f[GT_P_CPU].why,
		                 i < 10 ? GT_WHY_OK : GT_WHY_PENDING);
		free(p.cmdline);
	}
	gt_procinfo_sweep(pi, 6 * SEC);
	gt_procinfo_sweep(pi, 7 * SEC);
	assert_int_equal(gt_procinfo_cache_count(pi), 0);
}

/* ---- cgroup text -> container ---------------------------------------- */

/* A cgroup file's text and the container it names. */
static const struct {
	const char *text, *want;
} cgroup_cases[] = {
    /* docker */
    {"0::/system.slice/docker-4f3c2a1b9e8d7c6b5a4f3e2d1c0b9a8f"
     "7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b.scope\n",
     "docker:4f3c2a1b9e8d"},
    {"0::/docker/4f3c2a1b9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0"
     "d9c8b7a6f5e4d3c2b\n",
     "docker:4f3c2a1b9e8d"},
    {"4:memory:/docker/4f3c2a1b9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a"
     "2f1e0d9c8b7a6f5e4d3c2b\n1:name=systemd:/docker/4f3c2a1b9e8d"
     "7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b\n",
     "docker:4f3c2a1b9e8d"},
    /* docker in docker: the innermost */
    {"0::/docker/aaaaaaaaaaaaaaaa/docker/bbbbbbbbbbbbbbbb\n",
     "docker:bbbbbbbbbbbb"},
    /* rootless docker under user.slice */
    {"0::/user.slice/user-1000.slice/user@1000.service/app.slice/"
     "docker-0123456789abcdef.scope\n",
     "docker:0123456789ab"},
    /* dockerd itself is a service, not a container */
    {"0::/system.slice/docker.service\n", "systemd:docker.service"},
    /* too short to be an id; not hex */
    {"0::/system.slice/docker-abc.scope\n", ""},
    {"0::/docker/not-a-container-id\n", ""},
    {"0::/system.slice/docker-0123456789abcdefg.scope\n", ""},
    /* podman */
    {"0::/machine.slice/libpod-a1b2c3d4e5f60718293a4b5c6d7e8f90a1"
     "b2c3d4e5f60718293a4b5c6d7e8f90.scope/container\n",
     "podman:a1b2c3d4e5f6"},
    {"0::/libpod_parent/libpod-a1b2c3d4e5f60718\n", "podman:a1b2c3d4e5f6"},
    {"0::/machine.slice/libpod-conmon-a1b2c3d4e5f60718.scope\n", ""},
    /* containerd, CRI-O */
    {"0::/system.slice/cri-containerd-0123456789abcdef0123.scope\n",
     "containerd:0123456789ab"},
    {"0::/system.slice/nerdctl-fedcba9876543210.scope\n",
     "containerd:fedcba987654"},
    {"0::/machine.slice/crio-0123456789abcdef.scope\n", "crio:0123456789ab"},
    {"0::/machine.slice/crio-conmon-0123456789abcdef.scope\n", ""},
    /* kubernetes: systemd driver, all QoS classes */
    {"0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable"
     "-pod3f2a9c1e_5b7d_4e8f_9a0b_1c2d3e4f5a6b.slice/cri-containerd"
     "-0123456789abcdef.scope\n",
     "k8s:pod3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b"},
    {"0::/kubepods.slice/kubepods-besteffort.slice/kubepods-"
     "besteffort-pod11111111_2222_3333_4444_555555555555.slice/"
     "crio-0123456789abcdef.scope\n",
     "k8s:pod11111111-2222-3333-4444-555555555555"},
    {"0::/kubepods.slice/kubepods-pod11111111_2222_3333_4444_"
     "555555555555.slice/cri-containerd-0123456789abcdef.scope\n",
     "k8s:pod11111111-2222-3333-4444-555555555555"},
    /* kind / k3s prefix the slices with kubelet- */
    {"0::/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-"
     "besteffort.slice/kubelet-kubepods-besteffort-pod11111111_2222"
     "_3333_4444_555555555555.slice/cri-containerd-0123456789abcdef"
     ".scope\n",
     "k8s:pod11111111-2222-3333-4444-555555555555"},
    /* kubernetes: cgroupfs driver, cgroup v1 */
    {"11:memory:/kubepods/burstable/pod3f2a9c1e-5b7d-4e8f-9a0b-"
     "1c2d3e4f5a6b/4f3c2a1b9e8d7c6b5a4f3e2d1c0b9a8f\n",
     "k8s:pod3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b"},
    {"11:cpu:/kubepods/pod3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b/"
     "4f3c2a1b9e8d7c6b\n",
     "k8s:pod3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b"},
    /* a "pod..." directory outside kubepods is nothing special */
    {"0::/pod3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b\n", ""},
    /* lxc / lxd / incus */
    {"0::/lxc.payload.web01/system.slice/nginx.service\n", "lxc:web01"},
    {"4:memory:/lxc/db-2\n", "lxc:db-2"},
    {"0::/lxc.payload/build_box\n", "lxc:build_box"},
    {"0::/lxc.monitor.web01\n", ""},
    /* systemd-nspawn */
    {"0::/machine.slice/systemd-nspawn@arch.service/payload\n", "nspawn:arch"},
    /* systemd services */
    {"0::/system.slice/nginx.service\n", "systemd:nginx.service"},
    {"0::/system.slice/system-getty.slice/getty@tty1.service\n",
     "systemd:getty@tty1.service"},
    {"1:name=systemd:/system.slice/ssh.service\n"
     "0::/system.slice/ssh.service\n",
     "systemd:ssh.service"},
    {"0::/system.slice/nginx.service (deleted)\n", "systemd:nginx.service"},
    /* user sessions and services of users: not containers */
    {"0::/user.slice/user-1000.slice/session-3.scope\n", ""},
    {"0::/user.slice/user-1000.slice/user@1000.service/app.slice/"
     "app-gnome-firefox-1234.scope\n",
     ""},
    {"0::/user.slice/user-1000.slice/user@1000.service/app.slice/"
     "pipewire.service\n",
     ""},
    /* nothing */
    {"0::/\n", ""},
    {"0::/init.scope\n", ""},
    {"", ""},
    {"garbage", ""},
    {"::\n:\n0::relative/path\n", ""},
    /* across lines: a container outranks a service; a pod both */
    {"1:name=systemd:/system.slice/containerd.service\n"
     "0::/docker/0123456789abcdef\n",
     "docker:0123456789ab"},
    {"2:cpu:/docker/0123456789abcdef\n"
     "1:memory:/kubepods/besteffort/pod11111111-2222-3333-4444-"
     "555555555555/0123456789abcdef\n",
     "k8s:pod11111111-2222-3333-4444-555555555555"},
    /* equal rank: the first line wins */
    {"2:cpu:/docker/aaaaaaaaaaaaaaaa\n"
     "1:memory:/docker/bbbbbbbbbbbbbbbb\n",
     "docker:aaaaaaaaaaaa"},
    /* no newline at the end */
    {"0::/system.slice/cron.service", "systemd:cron.service"},
    /* hostile names cannot carry control bytes out */
    {"0::/lxc.payload.ev\x1b]0;x\x07il\n", "lxc:ev__0_x_il"},
    {"0::/system.slice/a b\xff.service\n", "systemd:a_b_.service"},
    /* the path may hold ':' */
    {"0::/system.slice/foo:bar.service\n", "systemd:foo:bar.service"},
};

static void test_parse_cgroup(void **state)
{
	(void)state;

	for (size_t i = 0; i < sizeof(cgroup_cases) / sizeof(cgroup_cases[0]);
	     i++) {
		char out[GT_CONTAINER_LEN];
		memset(out, 'Z', sizeof(out));
		gt_procinfo_parse_cgroup(cgroup_cases[i].text,
		                         strlen(cgroup_cases[i].text), out,
		                         sizeof(out));
		if (strcmp(out, cgroup_cases[i].want) != 0)
			fail_msg("case %zu: got \"%s\", want \"%s\"", i, out,
			         cgroup_cases[i].want);
	}
}

static void test_parse_cgroup_limits(void **state)
{
	char out[GT_CONTAINER_LEN], small[10];
	char text[1024];
	(void)state;

	/* a long unit name is cut to the field, NUL-terminated */
	int n = snprintf(text, sizeof(text), "0::/system.slice/");
	for (int i = 0; i < 200; i++)
		text[n++] = 'a';
	snprintf(text + n, sizeof(text) - (size_t)n, ".service\n");
	gt_procinfo_parse_cgroup(text, strlen(text), out, sizeof(out));
	assert_int_equal(strlen(out), sizeof(out) - 1);
	assert_memory_equal(out, "systemd:aaaa", 12);

	gt_procinfo_parse_cgroup("0::/docker/0123456789abcdef", 27, small,
	                         sizeof(small));
	assert_string_equal(small, "docker:01");

	/* len bounds the text: the id after it is not seen */
	gt_procinfo_parse_cgroup("0::/docker/0123456789abcdef", 20, out,
	                         sizeof(out));
	assert_string_equal(out, "");

	/* embedded NUL bytes do not end the parse early or crash */
	static const char nul[] = "0::/\0\n0::/system.slice/x.service\n";
	gt_procinfo_parse_cgroup(nul, sizeof(nul) - 1, out, sizeof(out));
	assert_string_equal(out, "systemd:x.service");

	gt_procinfo_parse_cgroup(NULL, 0, out, sizeof(out));
	assert_string_equal(out, "");
	out[0] = 'Q';
	gt_procinfo_parse_cgroup("0::/docker/0123456789abcdef", 27, out, 0);
	assert_int_equal(out[0], 'Q');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_train_ranks),
	    cmocka_unit_test(test_root_service),
	    cmocka_unit_test(test_hostile_pid),
	    cmocka_unit_test(test_containers),
	    cmocka_unit_test(test_kernel_thread),
	    cmocka_unit_test(test_missing_pid),
	    cmocka_unit_test(test_root_variants),
	    cmocka_unit_test(test_cmdline_replaced),
	    cmocka_unit_test_setup_teardown(test_cpu_copied_tree, setup_copy,
	                                    teardown_tmp),
	    cmocka_unit_test(test_live_threads),
	    cmocka_unit_test(test_live_exec_and_exit),
	    cmocka_unit_test_setup_teardown(test_cpu_delta, setup_copy,
	                                    teardown_tmp),
	    cmocka_unit_test_setup_teardown(test_cpu_paren_comm, setup_copy,
	                                    teardown_tmp),
	    cmocka_unit_test_setup_teardown(test_cache_reuse, setup_copy,
	                                    teardown_tmp),
	    cmocka_unit_test_setup_teardown(test_exec_rereads_cmdline,
	                                    setup_copy, teardown_tmp),
	    cmocka_unit_test_setup_teardown(test_exec_caught_midway, setup_copy,
	                                    teardown_tmp),
	    cmocka_unit_test_setup_teardown(test_pid_reuse, setup_copy,
	                                    teardown_tmp),
	    cmocka_unit_test_setup_teardown(test_sweep, setup_copy,
	                                    teardown_tmp),
	    cmocka_unit_test_setup_teardown(test_malformed, setup_copy,
	                                    teardown_tmp),
	    cmocka_unit_test_setup_teardown(test_permission, setup_copy,
	                                    teardown_tmp),
	    cmocka_unit_test_setup_teardown(test_many_pids, setup_empty,
	                                    teardown_tmp),
	    cmocka_unit_test(test_parse_cgroup),
	    cmocka_unit_test(test_parse_cgroup_limits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

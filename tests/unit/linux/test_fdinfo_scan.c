/* SPDX-License-Identifier: MIT */
/*
 * test_fdinfo_scan.c - tests of the fdinfo scanner's discovery
 * (src/fdinfo_scan.c and its use in src/fdinfo.c) on synthetic proc
 * trees: what counts as a DRM descriptor, garbage files, the rediscovery
 * cadence and dropping exited processes, the count of processes that
 * could not be read, and the walk's cache: what it reads again, and what
 * it finds only at a process's full pass.
 */
#include <grp.h>
#include <sys/wait.h>

#include "support/fdinfo_test.h"

/* ---- scanner: discovery ----------------------------------------------------
 */

static void test_ignores_non_drm(void **state)
{
	struct tree *t = *state;
	struct gt_proc_vec v;
	char p[PATH_MAX];
	char *a = fixture(I915_TABS, NULL);
	/* Links that are not DRM, with DRM text behind them: not read. */
	tree_fd(t, 800, 0, "/dev/null", a);
	tree_fd(t, 800, 1, "socket:[12345]", a);
	tree_fd(t, 800, 2, "pipe:[678]", a);
	tree_fd(t, 800, 3, "/home/user/dri/file.txt", a);
	tree_fd(t, 800, 4, "anon_inode:[eventfd]", a);
	/* A DRM node without usage stats (nvidia-drm, nouveau). */
	tree_drm(t, 801, 5, "pos:\t0\nflags:\t02\nmnt_id:\t26\n");
	/* A pid without an fd directory, names that are no pids or fds. */
	snprintf(p, sizeof(p), "%s/802", t->root);
	mkpath(p);
	snprintf(p, sizeof(p), "%s/self", t->root);
	mkpath(p);
	snprintf(p, sizeof(p), "%s/12abc", t->root);
	mkpath(p);
	tree_fd(t, 803, 0, "/dev/dri/renderD128", NULL); /* no fdinfo */
	snprintf(p, sizeof(p), "%s/803/fd/x1", t->root);
	assert_int_equal(symlink("/dev/dri/card0", p), 0);

	struct gt_fdinfo_scan scan;
	assert_int_equal(gt_fdinfo_scan_run(t->root, NULL, &scan), 0);
	assert_int_equal(scan.npids, 2); /* 801 and 803 link to /dev/dri */
	assert_int_equal(scan.pids[0].pid, 801);
	assert_int_equal(scan.pids[1].pid, 803);
	assert_int_equal(scan.pids[1].nfds, 1);
	gt_fdinfo_scan_free(&scan);

	struct gt_fdinfo *fi = gt_fdinfo_new(t->root);
	assert_non_null(fi);
	gt_fdinfo_update(fi, T0, false);
	assert_int_equal(gt_fdinfo_pid_count(fi), 0);
	assert_int_equal(gt_fdinfo_client_count(fi), 0);
	assert_int_equal(gt_fdinfo_unreadable(fi), 0);
	procs(fi, PDEV_I915, &v);
	assert_int_equal(v.count, 0);
	assert_int_equal(v.unreadable, 0);
	gt_proc_vec_free(&v);
	gt_fdinfo_free(fi);
	free(a);
}

static void test_garbage_in_tree(void **state)
{
	struct tree *t = *state;
	struct gt_proc_vec v;
	char p[PATH_MAX];
	char *a = fixture(AMD_V1, NULL);
	/* Cut inside the last number: "drm-engine-gfx:\t3945". */
	char *cut = strdup(a);
	assert_non_null(cut);
	char *gfx = strstr(cut, "drm-engine-gfx:\t");
	assert_non_null(gfx);
	gfx[strlen("drm-engine-gfx:\t") + 4] = '\0';
	tree_drm(t, 900, 3, cut);
	/* Random bytes; an empty file; a directory instead of a file; a
	 * fifo (must not block). */
	char junk[3000];
	uint64_t seed = 42;
	for (size_t i = 0; i < sizeof(junk); i++) {
		seed = seed * 6364136223846793005ull + 1;
		junk[i] = (char)(seed >> 56);
	}
	tree_drm(t, 901, 3, NULL);
	snprintf(p, sizeof(p), "%s/901/fdinfo/3", t->root);
	write_file(p, junk, sizeof(junk));
	tree_drm(t, 902, 3, "");
	tree_drm(t, 903, 3, NULL);
	snprintf(p, sizeof(p), "%s/903/fdinfo/3", t->root);
	mkpath(p);
	tree_drm(t, 904, 3, NULL);
	snprintf(p, sizeof(p), "%s/904/fdinfo/3", t->root);
	assert_int_equal(mkfifo(p, 0644), 0);
	/* A large file: drm lines after a long prefix of padding. */
	size_t big = 300 * 1024;
	char *huge = malloc(big + 1);
	assert_non_null(huge);
	memset(huge, 'x', big);
	huge[big] = '\0';
	memcpy(huge, "drm-driver:\ti915\n", 17);
	huge[200000] = '\n';
	tree_drm(t, 905, 3, huge);

	struct gt_fdinfo *fi = gt_fdinfo_new(t->root);
	assert_non_null(fi);
	gt_fdinfo_update(fi, T0, false);
	gt_fdinfo_update(fi, T0 + SEC, false);
	/* 900 (truncated, still a client), 905 (i915, no pdev); 901 and 902
	 * are no clients; 903/904 cannot be read this round. */
	assert_int_equal(gt_fdinfo_client_count(fi), 2);
	procs(fi, PDEV_AMD, &v);
	assert_int_equal(v.count, 1);
	assert_int_equal(v.items[0].pid, 900);
	assert_val(&v.items[0].f[GT_P_GPU], 0);
	gt_proc_vec_free(&v);
	gt_fdinfo_free(fi);
	free(a);
	free(cut);
	free(huge);
}

static void test_rediscovery(void **state)
{
	struct tree *t = *state;
	struct gt_proc_vec v;
	set_client(t, 1000, 3, 1, 0);
	struct gt_fdinfo *fi = gt_fdinfo_new(t->root);
	assert_non_null(fi);
	gt_fdinfo_update(fi, T0, false); /* round 1 walks */
	assert_int_equal(gt_fdinfo_pid_count(fi), 1);

	/* A new process is found by the walk of round 6, not before. */
	set_client(t, 1001, 3, 2, 0);
	for (int r = 2; r <= 5; r++) {
		gt_fdinfo_update(fi, T0 + (uint64_t)r * SEC, false);
		assert_int_equal(gt_fdinfo_pid_count(fi), 1);
	}
	gt_fdinfo_update(fi, T0 + 6 * SEC, false);
	assert_int_equal(gt_fdinfo_pid_count(fi), 2);

	/* Forced, at once. */
	set_client(t, 1002, 3, 3, 0);
	gt_fdinfo_update(fi, T0 + 7 * SEC, false);
	assert_int_equal(gt_fdinfo_pid_count(fi), 2);
	gt_fdinfo_update(fi, T0 + 8 * SEC, true);
	assert_int_equal(gt_fdinfo_pid_count(fi), 3);
	assert_int_equal(gt_fdinfo_client_count(fi), 3);

	/* An exited process is dropped on the next round, without a walk. */
	tree_rm_pid(t, 1000);
	gt_fdinfo_update(fi, T0 + 9 * SEC, false);
	assert_int_equal(gt_fdinfo_pid_count(fi), 2);
	assert_int_equal(gt_fdinfo_client_count(fi), 2);
	procs(fi, PDEV_I915, &v);
	assert_int_equal(v.count, 2);
	assert_int_equal(v.items[0].pid, 1001);
	assert_int_equal(v.items[1].pid, 1002);
	gt_proc_vec_free(&v);

	/* One of two descriptors closed, the process lives: a walk follows
	 * at the next round and finds the descriptor it opened instead. */
	set_client(t, 1001, 4, 5, 0);
	gt_fdinfo_update(fi, T0 + 10 * SEC, true);
	assert_int_equal(gt_fdinfo_client_count(fi), 3);
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/1001/fdinfo/3", t->root);
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/1001/fd/3", t->root);
	assert_int_equal(unlink(path), 0);
	set_client(t, 1001, 7, 6, 0);
	gt_fdinfo_update(fi, T0 + 11 * SEC, false);
	assert_int_equal(gt_fdinfo_client_count(fi), 2); /* 5 and 1002's */
	gt_fdinfo_update(fi, T0 + 12 * SEC, false);
	assert_int_equal(gt_fdinfo_client_count(fi), 3); /* + 6 */

	/* Everything gone, and a proc root that does not exist. */
	tree_rm_pid(t, 1001);
	tree_rm_pid(t, 1002);
	gt_fdinfo_update(fi, T0 + 13 * SEC, false);
	assert_int_equal(gt_fdinfo_pid_count(fi), 0);
	assert_int_equal(gt_fdinfo_client_count(fi), 0);
	gt_fdinfo_free(fi);

	fi = gt_fdinfo_new("/nonexistent/gputop/proc");
	assert_non_null(fi);
	gt_fdinfo_update(fi, T0, true);
	assert_int_equal(gt_fdinfo_pid_count(fi), 0);
	gt_fdinfo_free(fi);
}

/* ---- scanner: the walk's cache ------------------------------------------ */

/* Whether the walk found DRM descriptor fd of pid. */
static bool scan_has(const struct gt_fdinfo_scan *s, int pid, int fd)
{
	for (size_t i = 0; i < s->npids; i++) {
		const struct gt_fdinfo_pid *p = &s->pids[i];
		for (uint32_t j = 0; p->pid == pid && j < p->nfds; j++)
			if (p->fds[j] == fd)
				return true;
	}
	return false;
}

/* One walk with cache c into a fresh *s. */
static void walk(struct tree *t, struct gt_fdinfo_scan_cache *c,
                 struct gt_fdinfo_scan *s)
{
	assert_int_equal(gt_fdinfo_scan_run(t->root, c, s), 0);
}

/* Whether this file system keeps sub-second times: with whole seconds the
 * walk distrusts a directory's times for a second after a change, so it
 * lists more than the tests below count on. */
static bool fine_times(struct tree *t)
{
	struct stat st;
	assert_int_equal(stat(t->root, &st), 0);
	return st.st_ctim.tv_nsec != 0;
}

/* pid with non-DRM descriptors 0..n-1 and a stat file. */
static void plain_process(struct tree *t, int pid, int n, uint64_t start)
{
	tree_stat(t, pid, start, 0);
	for (int fd = 0; fd < n; fd++)
		tree_fd(t, pid, fd, fd % 2 ? "/var/lib/data.db" : "socket:[77]",
		        NULL);
}

static void test_cache_new_number(void **state)
{
	struct tree *t = *state;
	struct gt_fdinfo_scan s;
	/* Neither pid is due for its full pass at walks 1 and 2 (due when
	 * (walk + pid) % 8 == 0, 8 with this few descriptors). */
	plain_process(t, 1300, 5, 500);
	plain_process(t, 1301, 3, 501);
	tree_settle();
	struct gt_fdinfo_scan_cache *c = gt_fdinfo_scan_cache_new();
	assert_non_null(c);
	walk(t, c, &s);
	assert_int_equal(s.links, 8);
	assert_int_equal(s.full, 2);
	assert_int_equal(s.npids, 0);
	assert_int_equal(gt_fdinfo_scan_cache_count(c), 2);
	gt_fdinfo_scan_free(&s);

	/* A DRM descriptor under a new number: found by the next walk, which
	 * reads that one link and lists only the directory that changed. */
	tree_drm(t, 1300, 5, NULL);
	tree_settle();
	walk(t, c, &s);
	assert_true(scan_has(&s, 1300, 5));
	assert_int_equal(s.npids, 1);
	assert_int_equal(s.links, 1);
	assert_int_equal(s.full, 0);
	if (fine_times(t))
		assert_int_equal(s.listed, 1);
	gt_fdinfo_scan_free(&s);

	/* Nothing changed: nothing listed or read, the answer kept. */
	walk(t, c, &s);
	assert_true(scan_has(&s, 1300, 5));
	assert_int_equal(s.links, 0);
	if (fine_times(t))
		assert_int_equal(s.listed, 0);
	gt_fdinfo_scan_free(&s);
	gt_fdinfo_scan_cache_free(c);
}

static void test_cache_reused_number(void **state)
{
	struct tree *t = *state;
	struct gt_fdinfo_scan s;
	/* 1200 % 8 == 0: its full pass is the walk numbered 8. */
	plain_process(t, 1200, 4, 700);
	struct gt_fdinfo_scan_cache *c = gt_fdinfo_scan_cache_new();
	assert_non_null(c);
	walk(t, c, &s); /* walk 0 */
	assert_int_equal(s.npids, 0);
	gt_fdinfo_scan_free(&s);

	/* Descriptor 3 closed and reopened on the device between two walks:
	 * the number was open at the last one, so its link is not read again
	 * - the staleness fdinfo_scan.h documents. */
	tree_drm(t, 1200, 3, NULL);
	walk(t, c, &s); /* walk 1 */
	assert_false(scan_has(&s, 1200, 3));
	assert_int_equal(s.links, 0);
	gt_fdinfo_scan_free(&s);

	/* The process's full pass reads every link again. */
	unsigned found = 0;
	for (unsigned w = 2; w <= GT_FDINFO_SCAN_FULL_MIN && !found; w++) {
		walk(t, c, &s);
		if (scan_has(&s, 1200, 3)) {
			found = w;
			assert_int_equal(s.full, 1);
			assert_int_equal(s.links, 4);
		}
		gt_fdinfo_scan_free(&s);
	}
	assert_int_equal(found, 8);
	gt_fdinfo_scan_cache_free(c);
}

static void test_cache_pid_reuse(void **state)
{
	struct tree *t = *state;
	struct gt_fdinfo_scan s;
	/* (1 + 1400) % 8 != 0: walk 1 is no full pass for it. */
	plain_process(t, 1400, 4, 900);
	struct gt_fdinfo_scan_cache *c = gt_fdinfo_scan_cache_new();
	assert_non_null(c);
	walk(t, c, &s);
	assert_int_equal(s.npids, 0);
	gt_fdinfo_scan_free(&s);

	/* Another process under the same pid, started later, with the same
	 * descriptor numbers, 3 of them on the device: nothing of the old
	 * one's classification carries over. */
	tree_respawn(t, 1400, 901);
	plain_process(t, 1400, 3, 901);
	tree_drm(t, 1400, 3, NULL);
	walk(t, c, &s);
	assert_true(scan_has(&s, 1400, 3));
	assert_int_equal(s.full, 1);
	assert_int_equal(s.links, 4);
	gt_fdinfo_scan_free(&s);
	gt_fdinfo_scan_cache_free(c);
}

static void test_cache_drops_exited(void **state)
{
	struct tree *t = *state;
	struct gt_fdinfo_scan s;
	plain_process(t, 1500, 2, 10);
	plain_process(t, 1501, 2, 11);
	tree_drm(t, 1502, 4, NULL);
	struct gt_fdinfo_scan_cache *c = gt_fdinfo_scan_cache_new();
	assert_non_null(c);
	walk(t, c, &s);
	assert_int_equal(gt_fdinfo_scan_cache_count(c), 3);
	assert_true(scan_has(&s, 1502, 4));
	gt_fdinfo_scan_free(&s);

	tree_rm_pid(t, 1501);
	walk(t, c, &s);
	assert_int_equal(gt_fdinfo_scan_cache_count(c), 2);
	gt_fdinfo_scan_free(&s);
	tree_rm_pid(t, 1502);
	walk(t, c, &s);
	assert_int_equal(gt_fdinfo_scan_cache_count(c), 1);
	assert_int_equal(s.npids, 0);
	gt_fdinfo_scan_free(&s);

	/* A root that went away forgets everything. */
	assert_int_equal(gt_fdinfo_scan_run("/nonexistent/gputop/proc", c, &s),
	                 0);
	assert_int_equal(gt_fdinfo_scan_cache_count(c), 0);
	gt_fdinfo_scan_free(&s);
	gt_fdinfo_scan_cache_free(c);
}

static void test_cache_kernel_threads(void **state)
{
	struct tree *t = *state;
	struct gt_fdinfo_scan s;
	/* PF_KTHREAD in stat: never listed, not even as root, where its fd
	 * directory opens (here it even holds a DRM link). */
	tree_stat(t, 1600, 3, 0x00208040);
	tree_drm(t, 1600, 0, NULL);
	plain_process(t, 1601, 1, 4);
	tree_settle();
	struct gt_fdinfo_scan_cache *c = gt_fdinfo_scan_cache_new();
	assert_non_null(c);
	for (int i = 0; i < 2; i++) {
		walk(t, c, &s);
		assert_int_equal(s.npids, 0);
		assert_int_equal(s.unreadable, 0);
		if (fine_times(t))
			assert_int_equal(s.listed, i == 0 ? 1 : 0);
		gt_fdinfo_scan_free(&s);
	}
	gt_fdinfo_scan_cache_free(c);
}

/* The scanner as the collector drives it: a DRM descriptor that reuses a
 * number is found by forced rediscoveries within the slow pass. */
static void test_rediscovery_reused_number(void **state)
{
	struct tree *t = *state;
	/* 1700 % 8 == 4: its full pass is the walk numbered 4. */
	plain_process(t, 1700, 4, 300);
	struct gt_fdinfo *fi = gt_fdinfo_new(t->root);
	assert_non_null(fi);
	gt_fdinfo_update(fi, T0, false); /* walk 0 */
	assert_int_equal(gt_fdinfo_pid_count(fi), 0);
	set_client(t, 1700, 3, 9, 0);
	unsigned found = 0;
	for (unsigned w = 1; w <= GT_FDINFO_SCAN_FULL_MIN && !found; w++) {
		gt_fdinfo_update(fi, T0 + w * SEC, true);
		if (gt_fdinfo_pid_count(fi) == 1)
			found = w;
	}
	assert_int_equal(found, 4);
	assert_int_equal(gt_fdinfo_client_count(fi), 1);
	gt_fdinfo_free(fi);
}

/* The checks of test_unreadable, run by an unprivileged process. Returns 0
 * or the number of the first failed check; never calls cmocka (a forked
 * child must only _exit). */
static int unreadable_checks(const char *root)
{
	struct gt_proc_vec v;
	struct gt_val val;
	bool lower = false;
	char path[PATH_MAX];
	int rc = 0;

	struct gt_fdinfo *fi = gt_fdinfo_new(root);
	if (!fi)
		return 1;
	gt_fdinfo_update(fi, T0, false);
	/* 1103 ran 250 ms in the second that follows. */
	char *text = i915_client(42, 250 * MS);
	snprintf(path, sizeof(path), "%s/1103/fdinfo/3", root);
	int fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		rc = 7;
	if (fd >= 0)
		close(fd);
	free(text);
	gt_fdinfo_update(fi, T0 + SEC, false);
	memset(&v, 0, sizeof(v));
	gt_fdinfo_processes(fi, PDEV_I915, &v);
	gt_fdinfo_device_busy(fi, PDEV_I915, &val, &lower);
	if (rc)
		;
	else if (gt_fdinfo_unreadable(fi) != 2) /* 1100 (fd), 1102 (fdinfo) */
		rc = 2;
	else if (v.unreadable != 2)
		rc = 3;
	else if (v.count != 1 || v.items[0].pid != 1103)
		rc = 4;
	else if (!lower || !gt_val_ok(&val) || val.v != 2500)
		rc = 5;
	else if (gt_fdinfo_pid_count(fi) != 2) /* 1102 stays: retried */
		rc = 6;
	/* A walk that finds nothing changed still counts the refused ones
	 * (from its cache, without trying again). */
	gt_fdinfo_update(fi, T0 + 2 * SEC, true);
	if (rc == 0 && gt_fdinfo_unreadable(fi) != 2)
		rc = 8;
	gt_proc_vec_free(&v);
	gt_fdinfo_free(fi);
	return rc;
}

static void test_unreadable(void **state)
{
	struct tree *t = *state;
	char p[PATH_MAX];
	/* 1100: a process of another user (fd directory refused). */
	set_client(t, 1100, 3, 40, 0);
	tree_lock(t, "1100/fd", 0);
	/* 1101: a kernel thread, also refused, but no DRM user: not counted
	 * (PF_KTHREAD, 0x00200000, in the flags field of stat). */
	tree_pid(t, 1101);
	snprintf(p, sizeof(p), "%s/1101/stat", t->root);
	static const char kstat[] = "1101 (kworker/0:1) I 2 0 0 0 -1 69238880 "
	                            "0 0 0 0 0 0 0 0 20 0 1 0 5\n";
	write_file(p, kstat, sizeof(kstat) - 1);
	tree_lock(t, "1101/fd", 0);
	/* 1102: the descriptor is visible, its fdinfo refused. */
	set_client(t, 1102, 3, 41, 0);
	tree_lock(t, "1102/fdinfo/3", 0);
	/* 1103: readable; writable by all so the child can advance it. */
	set_client(t, 1103, 3, 42, 0);
	tree_lock(t, "1103/fdinfo/3", 0666);

	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		/* Root reads everything (CAP_DAC_OVERRIDE): become nobody. */
		if (geteuid() == 0 &&
		    (setgroups(0, NULL) != 0 || setgid(65534) != 0 ||
		     setuid(65534) != 0))
			_exit(77);
		_exit(unreadable_checks(t->root));
	}
	int status = 0;
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status));
	int rc = WEXITSTATUS(status);
	if (rc == 77) {
		print_message("cannot drop root privileges: skipped\n");
		skip();
	}
	if (rc != 0)
		fail_msg("unprivileged check %d failed", rc);

	if (geteuid() == 0) {
		/* The same tree as root: nothing is unreadable. */
		struct gt_fdinfo *fi = gt_fdinfo_new(t->root);
		assert_non_null(fi);
		gt_fdinfo_update(fi, T0, false);
		assert_int_equal(gt_fdinfo_unreadable(fi), 0);
		assert_int_equal(gt_fdinfo_client_count(fi), 3);
		gt_fdinfo_free(fi);
	} else {
		print_message("not root: the as-root half is skipped\n");
	}
}

/* ---- misc ------------------------------------------------------------------
 */

static void test_null_safety(void **state)
{
	(void)state;
	struct gt_proc_vec v;
	struct gt_val val, enc, dec;
	bool lower = true;
	memset(&v, 0, sizeof(v));
	gt_fdinfo_free(NULL);
	gt_fdinfo_update(NULL, T0, true);
	assert_int_equal(gt_fdinfo_processes(NULL, PDEV_I915, &v), 0);
	assert_int_equal(v.count, 0);
	gt_fdinfo_device_busy(NULL, PDEV_I915, &val, &lower);
	assert_why(&val, GT_WHY_PENDING);
	assert_false(lower);
	gt_fdinfo_device_media(NULL, PDEV_I915, &enc, &dec, NULL);
	assert_why(&enc, GT_WHY_PENDING);
	assert_why(&dec, GT_WHY_PENDING);
	assert_int_equal(gt_fdinfo_unreadable(NULL), 0);
	assert_int_equal(gt_fdinfo_pid_count(NULL), 0);
	assert_int_equal(gt_fdinfo_client_count(NULL), 0);
}

static void test_brokers(void **state)
{
	(void)state;
	assert_true(gt_fdinfo_is_broker(1, "anything"));
	assert_true(gt_fdinfo_is_broker(812, "systemd-logind\n"));
	assert_true(gt_fdinfo_is_broker(812, "systemd-logind"));
	assert_true(gt_fdinfo_is_broker(900, "seatd\n"));
	assert_true(gt_fdinfo_is_broker(2, "systemd\n"));
	assert_false(gt_fdinfo_is_broker(812, "systemd-logindX\n"));
	assert_false(gt_fdinfo_is_broker(812, "systemd-"));
	assert_false(gt_fdinfo_is_broker(1500, "gnome-shell\n"));
	assert_false(gt_fdinfo_is_broker(1500, ""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    tree_test(test_ignores_non_drm),
	    tree_test(test_garbage_in_tree),
	    tree_test(test_rediscovery),
	    tree_test(test_unreadable),
	    tree_test(test_cache_new_number),
	    tree_test(test_cache_reused_number),
	    tree_test(test_cache_pid_reuse),
	    tree_test(test_cache_drops_exited),
	    tree_test(test_cache_kernel_threads),
	    tree_test(test_rediscovery_reused_number),
	    cmocka_unit_test(test_brokers),
	    cmocka_unit_test(test_null_safety),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

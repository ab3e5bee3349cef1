/*
 * test_fdinfo_scan.c - tests of the fdinfo scanner's discovery
 * (src/fdinfo_scan.c and its use in src/fdinfo.c) on synthetic proc
 * trees: what counts as a DRM descriptor, garbage files, the rediscovery
 * cadence and dropping exited processes, and the count of processes that
 * could not be read.
 */
#include <grp.h>
#include <sys/wait.h>

#include "fdinfo_test.h"

/* ---- scanner: discovery ---------------------------------------------------- */

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
	assert_int_equal(gt_fdinfo_scan_run(t->root, &scan), 0);
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

/* ---- misc ------------------------------------------------------------------ */

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
		cmocka_unit_test(test_brokers),
		cmocka_unit_test(test_null_safety),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * test_fileio.c - tests of src/core/fileio.c: whole writes through a pipe
 * that takes them in pieces, private directories made at every depth, and
 * the atomic replacement (content, mode, nothing left behind when a step
 * fails, the old file untouched then), and whole reads within a limit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/fileio.h"

static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/gputop-fileio-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static size_t count_entries(const char *dir)
{
	size_t n = 0;
	DIR *d = opendir(dir);
	struct dirent *e;

	assert_non_null(d);
	while ((e = readdir(d)))
		n +=
		    strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

static char *slurp(const char *path)
{
	static char buf[1 << 20];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	assert_true(fd >= 0);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	assert_true(n >= 0);
	buf[n] = '\0';
	return buf;
}

/* 256 KiB through a pipe, which takes at most 64 KiB a write while a
 * child drains it slowly: every byte arrives, in order. */
static void test_write_all_pipe(void **state)
{
	enum { N = 256 * 1024 };
	static char data[N];
	int p[2];
	pid_t pid;
	int status;

	(void)state;
	for (size_t i = 0; i < N; i++)
		data[i] = (char)(i * 7 + i / 251);
	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		static char got[N];
		size_t have = 0;
		close(p[1]);
		while (have < N) {
			ssize_t r = read(p[0], got + have, 4096);
			if (r <= 0)
				_exit(2);
			have += (size_t)r;
			usleep(100);
		}
		_exit(memcmp(got, data, N) == 0 ? 0 : 1);
	}
	close(p[0]);
	assert_int_equal(gt_fileio_write_all(p[1], data, N), 0);
	close(p[1]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* A closed reader: -1 with EPIPE, not a hang or a crash. */
static void test_write_all_error(void **state)
{
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	errno = 0;
	assert_int_equal(gt_fileio_write_all(p[1], "x", 1), -1);
	assert_int_equal(errno, EPIPE);
	close(p[1]);
}

static void test_make_dirs(void **state)
{
	char dir[256], err[512];
	struct stat st;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/a/b/c", tmpdir);
	assert_int_equal(gt_fileio_make_dirs(dir, err, sizeof(err)), 0);
	assert_int_equal(stat(dir, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0700);
	/* Again: nothing to do is success. */
	assert_int_equal(gt_fileio_make_dirs(dir, err, sizeof(err)), 0);

	/* A file in the way: the errno value and the place in err. */
	snprintf(dir, sizeof(dir), "%s/file", tmpdir);
	assert_int_equal(close(open(dir, O_CREAT | O_WRONLY, 0600)), 0);
	snprintf(dir, sizeof(dir), "%s/file/sub", tmpdir);
	assert_int_equal(gt_fileio_make_dirs(dir, err, sizeof(err)), ENOTDIR);
	assert_non_null(strstr(err, "cannot create"));
	assert_non_null(strstr(err, "/file/sub"));
}

static void test_replace(void **state)
{
	char path[256], err[512];
	struct stat st;

	(void)state;
	snprintf(path, sizeof(path), "%s/r", tmpdir);
	assert_int_equal(gt_fileio_make_dirs(path, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/r/state", tmpdir);
	assert_int_equal(
	    gt_fileio_replace(path, "first\n", 6, 0600, err, sizeof(err)), 0);
	assert_string_equal(slurp(path), "first\n");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);

	/* Replaced whole, with the mode asked for; no temporary left. */
	assert_int_equal(
	    gt_fileio_replace(path, "second", 6, 0644, err, sizeof(err)), 0);
	assert_string_equal(slurp(path), "second");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	snprintf(path, sizeof(path), "%s/r", tmpdir);
	assert_int_equal(count_entries(path), 1);

	/* Empty data gives an empty file. */
	snprintf(path, sizeof(path), "%s/r/state", tmpdir);
	assert_int_equal(gt_fileio_replace(path, "", 0, 0600, err, sizeof(err)),
	                 0);
	assert_string_equal(slurp(path), "");
}

/* A rename that fails (a directory where the file should be): the error
 * names the step, the directory keeps only what it had. */
static void test_replace_failures(void **state)
{
	char path[256], dir[256], err[512];

	(void)state;
	snprintf(dir, sizeof(dir), "%s/f", tmpdir);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(path, sizeof(path), "%s/f/taken", tmpdir);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(
	    gt_fileio_replace(path, "x", 1, 0600, err, sizeof(err)), EISDIR);
	assert_non_null(strstr(err, "cannot rename"));
	assert_int_equal(count_entries(dir), 1);

	/* The directory is missing: nothing created, ENOENT. */
	snprintf(path, sizeof(path), "%s/missing/file", tmpdir);
	assert_int_equal(
	    gt_fileio_replace(path, "x", 1, 0600, err, sizeof(err)), ENOENT);
	assert_non_null(strstr(err, "cannot create"));

	/* No file name at all. */
	snprintf(path, sizeof(path), "%s/f/", tmpdir);
	assert_int_equal(
	    gt_fileio_replace(path, "x", 1, 0600, err, sizeof(err)),
	    ENAMETOOLONG);
	assert_int_equal(count_entries(dir), 1);
}

/* A whole file, NULs kept; one byte past the limit, a directory, a FIFO
 * (without hanging) and a missing file each get their errno. */
static void test_read_all(void **state)
{
	(void)state;
	char path[128], *buf = NULL, err[256];
	size_t len = 99;
	snprintf(path, sizeof(path), "%s/read-all", tmpdir);
	assert_int_equal(
	    gt_fileio_replace(path, "ab\0cd", 5, 0600, err, sizeof(err)), 0);
	assert_int_equal(gt_fileio_read_all(path, 5, &buf, &len), 0);
	assert_int_equal(len, 5);
	assert_memory_equal(buf, "ab\0cd", 6);
	free(buf);
	assert_int_equal(gt_fileio_read_all(path, 4, &buf, &len), EFBIG);
	assert_null(buf);
	assert_int_equal(len, 0);
	assert_int_equal(gt_fileio_read_all(tmpdir, 4, &buf, &len), EISDIR);
	snprintf(path, sizeof(path), "%s/fifo", tmpdir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(gt_fileio_read_all(path, 4, &buf, &len), EINVAL);
	snprintf(path, sizeof(path), "%s/none", tmpdir);
	assert_int_equal(gt_fileio_read_all(path, 4, &buf, &len), ENOENT);
	assert_null(buf);
}

/* The same checks for a file read line by line: the regular file opens
 * and reads; a FIFO (without hanging), a character device, a directory,
 * one byte past the limit and a missing file each give their errno. */
static void test_open_regular(void **state)
{
	(void)state;
	char path[128], err[256], line[16];
	int e = 0;
	snprintf(path, sizeof(path), "%s/lines", tmpdir);
	assert_int_equal(
	    gt_fileio_replace(path, "one\ntwo\n", 8, 0600, err, sizeof(err)),
	    0);
	FILE *f = gt_fileio_open_regular(path, 8, &e);
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line, "one\n");
	fclose(f);
	assert_null(gt_fileio_open_regular(path, 7, &e));
	assert_int_equal(e, EFBIG);
	assert_null(gt_fileio_open_regular("/dev/zero", 1 << 20, &e));
	assert_int_equal(e, EINVAL);
	assert_null(gt_fileio_open_regular(tmpdir, 1 << 20, &e));
	assert_int_equal(e, EISDIR);
	snprintf(path, sizeof(path), "%s/fifo2", tmpdir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_null(gt_fileio_open_regular(path, 1 << 20, &e));
	assert_int_equal(e, EINVAL);
	snprintf(path, sizeof(path), "%s/none", tmpdir);
	assert_null(gt_fileio_open_regular(path, 1 << 20, &e));
	assert_int_equal(e, ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_write_all_pipe),
	    cmocka_unit_test(test_write_all_error),
	    cmocka_unit_test(test_make_dirs),
	    cmocka_unit_test(test_replace),
	    cmocka_unit_test(test_replace_failures),
	    cmocka_unit_test(test_read_all),
	    cmocka_unit_test(test_open_regular),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

/* SPDX-License-Identifier: MIT */
/*
 * run_gputop.h - what the cmocka integration tests share to run the built
 * binary (GPUTOP_BIN, exported by tests/run.sh) and read what it prints.
 * Include after <cmocka.h>.
 */
#ifndef GPUTOP_TEST_RUN_GPUTOP_H
#define GPUTOP_TEST_RUN_GPUTOP_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The environment variable's value; fails the test when it is unset. */
static inline const char *run_env_or_fail(const char *name)
{
	const char *v = getenv(name);
	if (!v || !*v)
		fail_msg("%s is not set (run through tests/run.sh)", name);
	return v;
}

/* Runs in the child between fork and exec (set environment variables,
 * drop privileges). A non-zero return ends the child with that status
 * instead of running gputop. */
typedef int (*run_child_setup_fn)(void *ctx);

/* Runs GPUTOP_BIN with args (NULL-terminated, without argv[0]) and
 * returns its standard output (malloc'd, the caller frees). *status gets
 * the exit status, or 128 + the signal that ended it. setup may be NULL. */
static inline char *run_gputop_capture(const char *const args[],
                                       run_child_setup_fn setup, void *ctx,
                                       int *status)
{
	const char *argv[64];
	size_t n = 0;
	argv[n++] = run_env_or_fail("GPUTOP_BIN");
	for (size_t i = 0; args[i]; i++) {
		if (n + 1 >= sizeof(argv) / sizeof(argv[0]))
			fail_msg("too many arguments for gputop");
		argv[n++] = args[i];
	}
	argv[n] = NULL;

	int fd[2];
	assert_int_equal(pipe(fd), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fd[1], STDOUT_FILENO);
		close(fd[0]);
		close(fd[1]);
		if (setup) {
			int rc = setup(ctx);
			if (rc != 0)
				_exit(rc);
		}
		/* execv takes char *const[] for history; it writes nothing. */
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(fd[1]);
	size_t cap = 1 << 16, len = 0;
	char *out = malloc(cap);
	assert_non_null(out);
	for (;;) {
		if (len + 1 == cap) {
			char *grown = realloc(out, cap *= 2);
			assert_non_null(grown);
			out = grown;
		}
		ssize_t r = read(fd[0], out + len, cap - len - 1);
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	out[len] = '\0';
	close(fd[0]);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	return out;
}

/* An empty directory, made on the first call (the test program removes
 * it with rmdir at its end): a --procfs with no process in it, or a
 * --sysfs with no DRM device, so that nothing depends on this machine
 * (a root that does not exist is a usage error, not "nothing there"). */
static inline const char *run_empty_dir(void)
{
	static char dir[64];
	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/gputop-empty-XXXXXX");
		if (!mkdtemp(dir))
			fail_msg("mkdtemp: %s", strerror(errno));
	}
	return dir;
}

/* Runs GPUTOP_BIN with argv (argv[0] included, ignored, NULL-terminated)
 * and returns its standard output (malloc'd, the caller frees). Fails the
 * test unless it exits with status 0. */
static inline char *run_gputop_stdout(const char *const argv[])
{
	int status;
	char *out = run_gputop_capture(argv + 1, NULL, NULL, &status);
	if (status != 0)
		fail_msg("gputop exited with status %d: %.200s", status, out);
	return out;
}

#endif

/*
 * run_gputop.h - what the cmocka integration tests share to run the built
 * binary (GPUTOP_BIN, exported by tests/run.sh) and read what it prints.
 * Include after <cmocka.h>.
 */
#ifndef GPUTOP_TEST_RUN_GPUTOP_H
#define GPUTOP_TEST_RUN_GPUTOP_H

#include <stdlib.h>
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

/* Runs GPUTOP_BIN with argv (argv[0] included, NULL-terminated) and
 * returns its standard output (malloc'd, the caller frees). Fails the
 * test unless it exits with status 0. */
static inline char *run_gputop_stdout(const char *const argv[])
{
	const char *bin = run_env_or_fail("GPUTOP_BIN");
	int fd[2];
	assert_int_equal(pipe(fd), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fd[1], STDOUT_FILENO);
		close(fd[0]);
		close(fd[1]);
		/* execv takes char *const[] for history; it writes nothing. */
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	close(fd[1]);
	size_t cap = 1 << 16, len = 0;
	char *out = malloc(cap);
	assert_non_null(out);
	ssize_t r;
	for (;;) {
		if (len + 1 == cap) {
			char *grown = realloc(out, cap *= 2);
			assert_non_null(grown);
			out = grown;
		}
		r = read(fd[0], out + len, cap - len - 1);
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	out[len] = '\0';
	close(fd[0]);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	return out;
}

#endif

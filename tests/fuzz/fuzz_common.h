/* SPDX-License-Identifier: MIT */
/*
 * fuzz_common.h - shared by the libFuzzer harnesses (tests/fuzz/fuzz_*.c):
 * the invariant check that aborts with a message (so libFuzzer keeps the
 * input as a crash), a reader that splits one fuzz input into a few typed
 * values and byte strings, and a private scratch directory for the parsers
 * that only read files (removed at exit). static inline: each harness uses
 * what it needs.
 */
#ifndef GPUTOP_FUZZ_COMMON_H
#define GPUTOP_FUZZ_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An invariant of the API: abort (a crash libFuzzer keeps) with where. */
#define FUZZ_CHECK(cond)                                                       \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: invariant failed: %s\n",       \
			        __FILE__, __LINE__, #cond);                    \
			abort();                                               \
		}                                                              \
	} while (0)

/* True when s[0..cap) holds a NUL (the string ends inside its array). */
static inline bool fuzz_terminated(const char *s, size_t cap)
{
	return memchr(s, '\0', cap) != NULL;
}

/* Splits an input: fixed-size values from the front, then byte strings
 * separated by a marker line. */
struct fuzz_in {
	const uint8_t *p;
	size_t n;
};

static inline uint8_t fuzz_u8(struct fuzz_in *in)
{
	if (in->n == 0)
		return 0;
	in->n--;
	return *in->p++;
}

static inline uint64_t fuzz_u64(struct fuzz_in *in)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | fuzz_u8(in);
	return v;
}

/* The next part up to the separator sep (not included; sep consumed), or
 * the rest of the input. */
static inline struct fuzz_in fuzz_part(struct fuzz_in *in, const char *sep)
{
	size_t sl = strlen(sep);
	struct fuzz_in part = {in->p, in->n};
	const uint8_t *hit = in->n >= sl ? memmem(in->p, in->n, sep, sl) : NULL;
	if (!hit) {
		in->p += in->n;
		in->n = 0;
		return part;
	}
	part.n = (size_t)(hit - in->p);
	in->n -= part.n + sl;
	in->p = hit + sl;
	return part;
}

/* A malloc'd NUL-terminated copy of part (with any NULs in it). */
static inline char *fuzz_strdup(struct fuzz_in part)
{
	char *s = malloc(part.n + 1);
	if (!s)
		abort();
	if (part.n)
		memcpy(s, part.p, part.n);
	s[part.n] = '\0';
	return s;
}

/* A scratch directory of this process, base/gputop-fuzz-PID in /dev/shm
 * when there is one (no disk writes per input), else /tmp; removed at
 * exit. A crash (abort) skips that, so directories of processes that no
 * longer run are removed when the next harness starts. */
static char fuzz_dir_path[64];

static inline void fuzz_rm_rf(const char *dir)
{
	char cmd[96];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "fuzz: could not remove %s\n", dir);
}

static inline void fuzz_dir_remove(void)
{
	if (fuzz_dir_path[0])
		fuzz_rm_rf(fuzz_dir_path);
}

static inline void fuzz_dir_sweep(const char *base)
{
	glob_t g;
	char pat[64];
	snprintf(pat, sizeof(pat), "%s/gputop-fuzz-*", base);
	if (glob(pat, 0, NULL, &g) != 0)
		return;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		long pid = strtol(strrchr(g.gl_pathv[i], '-') + 1, NULL, 10);
		if (pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH)
			fuzz_rm_rf(g.gl_pathv[i]);
	}
	globfree(&g);
}

static inline const char *fuzz_dir(void)
{
	if (fuzz_dir_path[0])
		return fuzz_dir_path;
	struct stat st;
	const char *base = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) &&
	                           access("/dev/shm", W_OK) == 0
	                       ? "/dev/shm"
	                       : "/tmp";
	fuzz_dir_sweep(base);
	snprintf(fuzz_dir_path, sizeof(fuzz_dir_path), "%s/gputop-fuzz-%d",
	         base, (int)getpid());
	fuzz_rm_rf(fuzz_dir_path); /* a reused pid's leftovers */
	if (mkdir(fuzz_dir_path, 0700) != 0) {
		perror(fuzz_dir_path);
		abort();
	}
	atexit(fuzz_dir_remove);
	return fuzz_dir_path;
}

/* Writes data to path whole (creating or truncating it, mode 0600). */
static inline void fuzz_write_file(const char *path, const void *data, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		perror(path);
		abort();
	}
	const char *p = data;
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w <= 0) {
			perror(path);
			abort();
		}
		p += w;
		n -= (size_t)w;
	}
	close(fd);
}

#endif

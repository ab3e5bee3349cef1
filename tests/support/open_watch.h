/* SPDX-License-Identifier: MIT */
/*
 * open_watch.h - proves that code under test opens or reads no file it
 * should not: inotify watches (IN_OPEN | IN_ACCESS) on directories of a
 * test tree, then every file event since is checked against the names
 * allowed. Events come from every process, so the code may run in a
 * child (the gputop binary) as well as in the test itself. Only files
 * count: listing a directory, stat() and readlink() raise no file event.
 * Shared by test_amdgpu_copies.c and test_intel_backend.c (a sleeping GPU
 * must not be read) and by the collector cadence test (fdinfo on the fast
 * tick). static inline so each test uses what it needs.
 */
#ifndef GPUTOP_TEST_OPEN_WATCH_H
#define GPUTOP_TEST_OPEN_WATCH_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#define OPEN_WATCH_DIRS 128

struct open_watch {
	int fd;
	int n;
	bool quiet; /* a control run: expected reads are not printed */
	char base[PATH_MAX];
	int wd[OPEN_WATCH_DIRS];
	char rel[OPEN_WATCH_DIRS][256]; /* "" for base itself */
};

/* out = a/b (or a alone when b is ""); fails the test if it is too long. */
static inline void open_watch_join(char *out, size_t cap, const char *a,
                                   const char *b)
{
	int n = snprintf(out, cap, "%s%s%s", a, a[0] && b[0] ? "/" : "", b);
	if (n < 0 || (size_t)n >= cap)
		fail_msg("open_watch: path too long: %s/%s", a, b);
}

/* Starts a watch set; paths given later are relative to base. */
static inline void open_watch_init(struct open_watch *w, const char *base)
{
	memset(w, 0, sizeof(*w));
	open_watch_join(w->base, sizeof(w->base), base, "");
	w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (w->fd < 0)
		fail_msg("inotify_init1: %s", strerror(errno));
}

/* Watches one directory, base/rel ("" = base). */
static inline void open_watch_dir(struct open_watch *w, const char *rel)
{
	char path[PATH_MAX];
	if (w->n == OPEN_WATCH_DIRS)
		fail_msg("open_watch: more than %d directories",
		         OPEN_WATCH_DIRS);
	open_watch_join(path, sizeof(path), w->base, rel);
	int wd = inotify_add_watch(w->fd, path, IN_OPEN | IN_ACCESS);
	if (wd < 0)
		fail_msg("inotify_add_watch %s: %s", path, strerror(errno));
	w->wd[w->n] = wd;
	open_watch_join(w->rel[w->n], sizeof(w->rel[w->n]), rel, "");
	w->n++;
}

/* Watches base/rel and every directory below it (symbolic links are not
 * followed: they lead out of the tree, as device/driver does). */
static inline void open_watch_tree(struct open_watch *w, const char *rel)
{
	char path[PATH_MAX];
	open_watch_dir(w, rel);
	open_watch_join(path, sizeof(path), w->base, rel);
	DIR *d = opendir(path);
	if (!d)
		fail_msg("opendir %s: %s", path, strerror(errno));
	struct dirent *de;
	while ((de = readdir(d))) {
		char sub[PATH_MAX], child[PATH_MAX];
		struct stat st;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		open_watch_join(sub, sizeof(sub), rel, de->d_name);
		open_watch_join(child, sizeof(child), w->base, sub);
		if (lstat(child, &st) == 0 && S_ISDIR(st.st_mode))
			open_watch_tree(w, sub);
	}
	closedir(d);
}

/* Forgets the events so far (what setting the tree up caused). */
static inline void open_watch_drain(struct open_watch *w)
{
	char buf[16384];
	while (read(w->fd, buf, sizeof(buf)) > 0)
		;
}

/* Reads the events since the watches began (or the last call) and
 * returns how many file opens or reads were of files not in allowed (a
 * NULL-terminated list of paths relative to base; NULL allows nothing),
 * printing each once. seen, if not NULL, is a NULL-terminated list of
 * paths: a flag per entry is set in seen_flags when that file was opened
 * or read (so a control run can prove the watch sees them). */
static inline int open_watch_check(struct open_watch *w,
                                   const char *const *allowed,
                                   const char *const *seen, bool *seen_flags)
{
	char buf[16384]
	    __attribute__((aligned(__alignof__(struct inotify_event))));
	char last[PATH_MAX] = "";
	int bad = 0;
	ssize_t n;
	while ((n = read(w->fd, buf, sizeof(buf))) > 0) {
		for (char *p = buf; p < buf + n;) {
			struct inotify_event *ev =
			    (struct inotify_event *)(void *)p;
			p += sizeof(*ev) + ev->len;
			if (ev->mask & IN_Q_OVERFLOW)
				fail_msg(
				    "open_watch: the inotify queue overflowed");
			/* Events on a watched directory itself, or on a
			 * subdirectory (listing it), are not file reads. */
			if (ev->len == 0 || (ev->mask & IN_ISDIR))
				continue;
			const char *dir = NULL;
			for (int i = 0; i < w->n; i++)
				if (w->wd[i] == ev->wd)
					dir = w->rel[i];
			if (!dir)
				continue;
			char rel[PATH_MAX];
			open_watch_join(rel, sizeof(rel), dir, ev->name);
			for (size_t i = 0; seen && seen[i]; i++)
				if (!strcmp(seen[i], rel))
					seen_flags[i] = true;
			bool ok = false;
			for (size_t i = 0; allowed && allowed[i]; i++)
				if (!strcmp(allowed[i], rel))
					ok = true;
			if (!ok) {
				/* IN_OPEN then IN_ACCESS: one report. */
				if (!w->quiet && strcmp(last, rel) != 0)
					fprintf(stderr, "opened or read: %s\n",
					        rel);
				open_watch_join(last, sizeof(last), rel, "");
				bad++;
			}
		}
	}
	if (n < 0 && errno != EAGAIN)
		fail_msg("reading inotify events: %s", strerror(errno));
	return bad;
}

static inline void open_watch_close(struct open_watch *w)
{
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
}

#endif

/* SPDX-License-Identifier: MIT */
/*
 * fileio.h - owns the few ways gputop writes files of its own (and reads a
 * small whole file): writing a
 * whole buffer to a descriptor, creating private directories, and
 * replacing a file atomically (the restore journal, the settings file and
 * saved snapshots all go through gt_fileio_replace, so a crash or a power
 * loss leaves the old file or the new one, never half of either).
 */
#ifndef GPUTOP_FILEIO_H
#define GPUTOP_FILEIO_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* Writes all n bytes of buf to fd (blocking), retrying short writes and
 * EINTR. 0, or -1 with errno set (EIO for a write that wrote nothing). */
int gt_fileio_write_all(int fd, const void *buf, size_t n);

/* mkdir -p of dir: dir and every missing directory above it are created
 * with mode 0700 (gputop's directories hold nobody else's business).
 * Existing ones are left as they are. 0, or an errno value with err
 * saying which directory could not be made. */
int gt_fileio_make_dirs(const char *dir, char *err, size_t errlen);

/* Replaces path with data[0..n): a temporary ".NAME.XXXXXX" beside it,
 * given mode, written whole and fsync'ed, renamed over path, then the
 * directory fsync'ed so the rename survives a power loss (a directory that
 * cannot be synced still got an atomic rename: not an error). The
 * directory must exist. On failure path is untouched and no temporary is
 * left. 0, or an errno value with err naming the step and file ("cannot
 * write /x/.f.AbC123: No space left on device"). */
int gt_fileio_replace(const char *path, const void *data, size_t n, mode_t mode,
                      char *err, size_t errlen);

/* The directory part of path into dir: "." for a bare name, "/" for a
 * file at the root. 0, or -1 when dir is too small. */
int gt_fileio_dir_of(const char *path, char *dir, size_t len);

/* Reads the regular file path whole into a malloc'd, NUL-terminated *out
 * (*len bytes, NULs inside possible), opened O_NONBLOCK so that a FIFO in
 * its place cannot hang. 0, or an errno value: EFBIG past max bytes,
 * EISDIR or EINVAL (not a regular file), or open's and read's own. */
int gt_fileio_read_all(const char *path, size_t max, char **out, size_t *len);

/* The regular file path, at most max bytes, open for reading line by
 * line (the same checks as gt_fileio_read_all, for a file worth reading
 * only up to the line wanted). NULL with *err an errno value. */
FILE *gt_fileio_open_regular(const char *path, size_t max, int *err);

/* The text for an errno value of these readers: EINVAL is theirs for a
 * path that is no regular file (a FIFO, a device, a socket), which
 * strerror would call "Invalid argument"; others are strerror's. */
const char *gt_fileio_strerror(int e);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * sysfs.h - safe reads of small kernel attribute files (sysfs, hwmon,
 * debugfs-like text), shared by the amdgpu and Intel backends. Every read
 * is bounded, tolerates the quirks of real files (NUL padding, missing
 * newline, trailing blanks) and reports failure as a negative errno, so a
 * missing or unreadable file becomes a reason, never a crash.
 *
 * The folder src/linux/ holds the rooted readers of /sys and /proc (both
 * movable with --sysfs and --procfs): these attribute reads, DRM device
 * discovery (drmdev, drmnode), DRM fdinfo per-process use (fdinfo*) and
 * process details (procinfo*). It includes only core.
 */
#ifndef GPUTOP_SYSFS_H
#define GPUTOP_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/model.h"

/* Reads the file at dir/leaf (leaf may be NULL: dir is the file) into buf,
 * NUL-terminated, trailing NULs and white space removed. Returns the length,
 * or -errno (-ENOENT, -EACCES, -ENAMETOOLONG, ...). Never blocks on a FIFO. */
ssize_t gt_sysfs_read(const char *dir, const char *leaf, char *buf, size_t len);

/* Reads a whole binary file (gpu_metrics) up to len bytes; -errno on error. */
ssize_t gt_sysfs_read_bin(const char *dir, const char *leaf, void *buf,
                          size_t len);

/* Reads one integer (decimal, or 0x hex); -EINVAL when the text is not one. */
int gt_sysfs_read_i64(const char *dir, const char *leaf, int64_t *out);

/* Sets val to v * mul / div (div 0: none) when v is within lo..hi and the
 * product fits int64; else fails it as GT_WHY_RANGE (a number no device
 * gives, from a corrupt or hostile tree or a driver bug, is not a gauge
 * past its end). 0 or -ERANGE. */
int gt_sysfs_set_scaled(struct gt_val *val, int64_t v, int64_t lo, int64_t hi,
                        int64_t mul, int64_t div);

/* What a number in sysfs or hwmon measures, in its file's own unit: each
 * has the numbers a device can give, wide on purpose (a card past them is
 * not one a driver describes); one outside is out of range. */
enum gt_sysfs_unit {
	GT_SYSFS_MHZ,       /* i915/xe frequency files: 0 to 100 GHz */
	GT_SYSFS_HZ,        /* hwmon freqN_input: 0 to 100 GHz */
	GT_SYSFS_MILLI_C,   /* hwmon tempN_*: absolute zero to 250 C */
	GT_SYSFS_RPM,       /* hwmon fanN_input: 0 to 100,000 */
	GT_SYSFS_MICROWATT, /* hwmon powerN_*: 0 to 100 kW */
};

/* The numbers lo..hi a file measuring u can hold. */
void gt_sysfs_unit_range(enum gt_sysfs_unit u, int64_t *lo, int64_t *hi);

/* Sets val from dir/leaf as gt_sysfs_set_scaled does (e.g. µW -> mW: 1,
 * 1000), or fails it with the reason the error means (ENOENT: no sensor;
 * EACCES/EPERM: permission; others: driver error with the errno as code).
 * Returns the errno (0 on success). */
int gt_sysfs_val(struct gt_val *val, const char *dir, const char *leaf,
                 int64_t lo, int64_t hi, int64_t mul, int64_t div);

/* The reason an errno from a sysfs read gives a value. */
enum gt_why gt_sysfs_why(int err);

/* dst = a/b; -ENAMETOOLONG if it does not fit. */
int gt_sysfs_join(char *dst, size_t len, const char *a, const char *b);

/* The device's hwmon directory: the lowest-numbered devdir/hwmon/hwmonN
 * (the index differs per machine) that accept takes (accept NULL: any),
 * into out. Returns 0, or -ENOENT (none) or -ENAMETOOLONG (out is too
 * small) with out "". The one lookup of the amdgpu and Intel backends;
 * reads no attribute itself. */
int gt_sysfs_hwmon_dir(const char *devdir, bool (*accept)(const char *dir),
                       char *out, size_t len);

/* True if path, with symlinks resolved, lies inside dir (also resolved):
 * writes go only to a device's own files. */
bool gt_sysfs_inside(const char *path, const char *dir);

#endif

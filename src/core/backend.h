/* SPDX-License-Identifier: MIT */
/*
 * backend.h - the small vtable every collector backend implements, and the
 * options the backends read. Backends live one file family per vendor in
 * src/collectors/ and are listed in the explicit table of
 * src/collectors/registry.c, which the front ends hand to the collector.
 *
 * All calls are made from one thread (the collector thread, or the main thread
 * for one-shot commands such as --snapshot and --list): a backend needs no
 * locking of its own.
 */
#ifndef GPUTOP_BACKEND_H
#define GPUTOP_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "core/model.h"

/* Where backends find things; all strings are borrowed, never freed here. */
struct gt_backend_options {
	const char *nvml_lib;    /* --nvml-lib: NULL = "libnvidia-ml.so.1" */
	const char *sysfs_root;  /* --sysfs: NULL = "/sys" */
	const char *procfs_root; /* --procfs: NULL = "/proc" */
	uint64_t demo_seed;
	/* The shared DRM fdinfo scanner (owned by the collector, updated once
	 * per process round before the backends' processes() calls). */
	struct gt_fdinfo *fdinfo;
};

struct gt_fdinfo;

#define GT_DETAIL_LEN 256

enum gt_backend_status {
	GT_BACKEND_UNAVAILABLE =
	    0, /* nothing to talk to (no library, no devices) */
	GT_BACKEND_OK,
	GT_BACKEND_ERROR, /* found but failed (init error, version mismatch) */
};

struct gt_backend_ops;

/* One backend instance: the collector owns it; the backend owns priv. */
struct gt_backend {
	const struct gt_backend_ops *ops;
	void *priv;
	enum gt_backend_status status;
	char detail[GT_DETAIL_LEN]; /* why unavailable/error, or a summary when
	                               ok */
	unsigned device_count;
};

/*
 * Return convention of the per-device calls: 0 on success (fields the device
 * cannot give are marked in the output, not reported as failure), -1 when the
 * device is gone (the collector marks it lost, keeps sampling the others and
 * calls again every GT_LOST_RETRY_NS: a device may come back, e.g. after a
 * GPU reset, so a call after -1 must be safe and may succeed).
 */
struct gt_backend_ops {
	const char *name; /* "nvml", "demo", ... */
	/* Its processes (and busy time) come from the shared DRM fdinfo
	 * scanner, which the collector then updates every process round. */
	bool uses_fdinfo;

	/* Finds devices. Sets b->status, b->detail, b->device_count and
	 * b->priv. Never fails hard: an absent vendor is UNAVAILABLE with a
	 * reason a user can act on. */
	void (*probe)(struct gt_backend *b,
	              const struct gt_backend_options *opt);

	/* Static facts of device dev (0 <= dev < device_count). */
	int (*get_static)(struct gt_backend *b, unsigned dev,
	                  struct gt_static *out);

	/* Fast metrics. out arrives initialised by gt_sample_init(). slow is
	 * set on the slow cadence: calls too costly for every tick go there. */
	int (*sample)(struct gt_backend *b, unsigned dev, struct gt_sample *out,
	              int slow);

	/* Appends the processes using device dev to out, with device_index
	 * left for the caller to set. Host-side details (user, cmdline, CPU)
	 * are filled later from /proc unless the backend sets host_known. */
	int (*processes)(struct gt_backend *b, unsigned dev,
	                 struct gt_proc_vec *out);

	/* The driver's name for a process that /proc could not show (run
	 * in another PID namespace, or gone): 0 and a NUL-terminated name
	 * in buf, or -1. May be NULL. */
	int (*process_name)(struct gt_backend *b, int32_t pid, char *buf,
	                    size_t len);

	/* Text of a driver error code, for reasons; may be NULL. */
	const char *(*error_text)(struct gt_backend *b, int code);

	/* Releases priv. Safe after a failed probe. */
	void (*shutdown)(struct gt_backend *b);
};

/* error_text for backends whose driver errors are errno values of failed
 * file reads (sysfs, hwmon): strerror(code). */
const char *gt_backend_errno_text(struct gt_backend *b, int code);

/* "ok", "unavailable" or "error", as the snapshot and --list print it. */
const char *gt_backend_status_name(enum gt_backend_status status);

#endif

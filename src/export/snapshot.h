/* SPDX-License-Identifier: MIT */
/*
 * snapshot.h - the JSON snapshot document (schema "gputop.snapshot",
 * version 1), built with libcjson from plain inputs so it is unit-tested
 * without a collector. The schema is documented in gputop(1).
 *
 * The folder src/export/ turns published data into documents for other
 * programs: this snapshot and --list (list.h). It includes core and linux,
 * never ui.
 */
#ifndef GPUTOP_SNAPSHOT_H
#define GPUTOP_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/backend.h"
#include "core/collector.h"
#include "core/hostinfo.h"
#include "core/model.h"

#define GT_SNAPSHOT_SCHEMA_VERSION 1

struct gt_snapshot_input {
	const struct gt_hostinfo *host;
	const struct gt_backend *backends;
	size_t nbackends;
	const struct gt_devlist *devices;
	const struct gt_sample *samples; /* devices->count entries */
	/* Per device, the backend that explains its error codes; may be NULL.
	 */
	const struct gt_backend *const *device_backends;
	const struct gt_proclist *procs; /* NULL: no process round yet */
	struct timespec realtime;        /* when the snapshot was taken */
	uint64_t monotonic_ns;
	uint64_t window_ns; /* the interval rates and percentages cover */
	bool compact;       /* one line (NDJSON), not indented */
};

/* Returns the document as a malloc'd string ending in a newline, or NULL on
 * ENOMEM. The caller frees it. */
char *gt_snapshot_json(const struct gt_snapshot_input *in);

struct gt_view;

/* The document for what a view holds now (host facts read from
 * procfs_root); window_ns is the interval its rates cover. NULL on ENOMEM. */
char *gt_snapshot_from_view(const struct gt_view *v, const char *procfs_root,
                            uint64_t window_ns);
/* The same with host facts read beforehand (the server and --json read
 * them once); compact gives one line. NULL on ENOMEM. */
char *gt_snapshot_build(const struct gt_view *v, const struct gt_hostinfo *host,
                        uint64_t window_ns, bool compact);

/* Writes json atomically (temporary file, then rename) to
 * $XDG_STATE_HOME/gputop/snapshot-YYYYmmdd-HHMMSS.json (or
 * ~/.local/state/...); the path goes to path_out. 0, or an errno value with
 * a message in path_out. */
int gt_snapshot_save(const char *json, char *path_out, size_t len);

#endif

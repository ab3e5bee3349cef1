/* SPDX-License-Identifier: MIT */
/*
 * platform.h - what the collector is handed from the layers above core:
 * the backends to probe (the explicit table of src/collectors/registry.c)
 * and the host's process readers (src/linux: the DRM fdinfo scanner and
 * the /proc reader). Core sees only these pointers, so it includes nothing
 * above itself, and a test can give the collector a platform of its own.
 * htop picks its platform folder at build time; gputop has one platform,
 * which the front end names at run time (gt_registry_platform).
 */
#ifndef GPUTOP_PLATFORM_H
#define GPUTOP_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gt_backend_ops;
struct gt_fdinfo;
struct gt_procinfo;
struct gt_process;

struct gt_platform {
	/* The backends in probe order, and the one --demo runs alone. */
	const struct gt_backend_ops *const *backends;
	size_t nbackends;
	const struct gt_backend_ops *demo;

	/* The DRM fdinfo scanner that backends with uses_fdinfo share: made
	 * at open, updated once per process round before their processes()
	 * calls, freed at close. */
	struct gt_fdinfo *(*fdinfo_new)(const char *procfs_root);
	void (*fdinfo_update)(struct gt_fdinfo *fi, uint64_t now_ns,
	                      bool force);
	void (*fdinfo_free)(struct gt_fdinfo *fi);

	/* Host-side details of each GPU process (user, command line, CPU,
	 * container) that its backend did not give; swept once per round. */
	struct gt_procinfo *(*procinfo_new)(const char *procfs_root);
	void (*procinfo_fill)(struct gt_procinfo *pi, struct gt_process *p,
	                      uint64_t now_ns);
	void (*procinfo_sweep)(struct gt_procinfo *pi, uint64_t now_ns);
	/* The parent of a pid, for ancestries; may be NULL. 0 or errno. */
	int (*procinfo_parent)(struct gt_procinfo *pi, int32_t pid,
	                       int32_t *ppid);
	void (*procinfo_free)(struct gt_procinfo *pi);
};

#endif

/* SPDX-License-Identifier: MIT */
/*
 * intel_query.h - Intel VRAM sizes and use through the DRM memory-region
 * query ioctls (DRM_I915_QUERY_MEMORY_REGIONS, DRM_XE_DEVICE_QUERY_MEM_
 * REGIONS), the only source the kernel offers: neither driver puts VRAM in
 * sysfs. The kernel fills the "used" numbers only for a caller with
 * CAP_PERFMON or CAP_SYS_ADMIN. The decoders are pure so tests can feed
 * them hand-built replies; only gt_intel_query_mem touches a device node.
 */
#ifndef GPUTOP_INTEL_QUERY_H
#define GPUTOP_INTEL_QUERY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gt_intel_mem {
	bool vram;       /* a device-local region exists: a discrete GPU */
	bool used_known; /* the *_used numbers are real (CAP_PERFMON) */
	bool vis_known;  /* the CPU-visible numbers were reported */
	bool sys_known;  /* xe: the system region (the GTT manager) */
	uint64_t vram_total, vram_used;
	uint64_t vis_total, vis_used;
	uint64_t sys_total, sys_used;
};

/* Decode a DRM_XE_DEVICE_QUERY_MEM_REGIONS reply of len bytes. perfmon:
 * whether the caller has the capability that makes "used" meaningful (xe
 * reports 0 otherwise). Returns 0, or -EINVAL for a truncated reply. */
int gt_intel_decode_xe_mem(const void *buf, size_t len, bool perfmon,
                           struct gt_intel_mem *m);

/* Decode a DRM_I915_QUERY_MEMORY_REGIONS reply (same contract; without
 * the capability i915 reports unallocated == probed). */
int gt_intel_decode_i915_mem(const void *buf, size_t len, bool perfmon,
                             struct gt_intel_mem *m);

/* Opens node (a /dev/dri render node), runs the query of the driver (xe
 * or i915) and decodes it. Returns 0 or -errno. */
int gt_intel_query_mem(const char *node, bool xe, bool perfmon,
                       struct gt_intel_mem *m);

/* True when this process has CAP_PERFMON or CAP_SYS_ADMIN in effect. */
bool gt_intel_perfmon_capable(void);

#endif

/*
 * fdinfo.h - per-process GPU use from DRM fdinfo (the kernel's "DRM client
 * usage stats"), one scanner for every DRM driver (amdgpu, i915, xe, ...),
 * read through a configurable proc root. The collector owns the scanner,
 * updates it once per process round, and the backends ask it for the
 * processes and busy time of their own devices (by PCI address).
 */
#ifndef GPUTOP_FDINFO_H
#define GPUTOP_FDINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

struct gt_fdinfo;

/* procfs_root NULL = "/proc"; the string is copied. NULL on ENOMEM. */
struct gt_fdinfo *gt_fdinfo_new(const char *procfs_root);
void gt_fdinfo_free(struct gt_fdinfo *fi);

/* One process round: re-reads the fdinfo of the pids known to hold DRM
 * file descriptors and, at a slower pace (or when force_rediscover),
 * rescans /proc for new ones. Computes per-client rates from the previous
 * round. */
void gt_fdinfo_update(struct gt_fdinfo *fi, uint64_t now_ns,
		      bool force_rediscover);

/* Appends one gt_process per process using the device at PCI address pdev
 * ("0000:03:00.0"): GT_P_GPU (busiest-engine-class share, null on a
 * client's first round), GT_P_MEM (VRAM), GT_P_GTT (system memory the GPU
 * maps), GT_P_ENC / GT_P_DEC where the driver names video engines; type
 * GT_PROC_GRAPHICS or COMPUTE by the engines used. Host-side fields are
 * left to the caller. Adds the pids it could not read to out->unreadable.
 * Returns the number of processes appended. */
size_t gt_fdinfo_processes(struct gt_fdinfo *fi, const char *pdev,
			   struct gt_proc_vec *out);

/* Device busy % over the last round from the sum of every client's engine
 * time (per engine class, capped at 100 % of its capacity; the busiest
 * class). *lower_bound is set when some processes could not be read.
 * Fails val with GT_WHY_PENDING before two rounds. */
void gt_fdinfo_device_busy(struct gt_fdinfo *fi, const char *pdev,
			   struct gt_val *val, bool *lower_bound);

#endif

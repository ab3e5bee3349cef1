/* SPDX-License-Identifier: MIT */
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

#include "core/model.h"

struct gt_fdinfo;

/* procfs_root NULL = "/proc"; the string is copied. NULL on ENOMEM. */
struct gt_fdinfo *gt_fdinfo_new(const char *procfs_root);
void gt_fdinfo_free(struct gt_fdinfo *fi);

/* One process round: re-reads the fdinfo of the pids known to hold DRM
 * file descriptors and, at a slower pace (or when force_rediscover),
 * rescans /proc for new ones. Computes per-client rates from the previous
 * round. now_ns: CLOCK_MONOTONIC (gt_monotonic_ns()); the wall-clock
 * deltas of the ns-based drivers are taken between the now_ns of two
 * updates, so pass the time the round starts, once per round.
 * The full /proc walk runs on the first update, every 5th, when forced,
 * and after a known descriptor was closed while its process lives on; a
 * new process is otherwise seen within 5 rounds. */
void gt_fdinfo_update(struct gt_fdinfo *fi, uint64_t now_ns,
                      bool force_rediscover);

/* Appends one gt_process per process using the device at PCI address pdev
 * ("0000:03:00.0"; any case, any domain width): GT_P_GPU (busiest-engine-
 * class share, null on a client's first round), GT_P_MEM (VRAM), GT_P_GTT
 * (system memory the GPU maps), GT_P_ENC / GT_P_DEC where the driver names
 * video engines; type GT_PROC_GRAPHICS or COMPUTE by the engines used
 * (BOTH when compute and render engines both ran). Host-side fields are
 * left to the caller. Raises out->unreadable to the pids it could not read.
 * Returns the number of processes appended.
 *
 * Reasons: GT_WHY_PENDING on the round a client first shows up (or its
 * counter went backwards); GT_WHY_UNSUPPORTED_DEVICE when the driver shows
 * no engine of that kind (amdgpu omits idle engines, so its missing ones
 * read 0) or, for MEM/GTT, prints sizes but no such region (an iGPU has no
 * VRAM); GT_WHY_UNSUPPORTED_DRIVER when it prints no memory sizes at all.
 * A shared client counts once, for the lowest pid holding it that is not
 * a device broker (pid 1, systemd-logind, seatd: they keep a copy of the
 * compositor's DRM file), or the lowest broker if only brokers hold it.
 * A pid with several clients on the device gets their sum (each class
 * clamped to 100 %), its rates pending only while all of them are. MEM
 * and GTT are resident sizes (drm-resident-*, else drm-memory-*, else
 * drm-total-*) summed over regions:
 * VRAM = vram*, local*; GTT = gtt, system*, cpu, memory. */
size_t gt_fdinfo_processes(struct gt_fdinfo *fi, const char *pdev,
                           struct gt_proc_vec *out);

/* Device busy % over the last round from the sum of every client's engine
 * time (per engine class, capped at 100 % of its capacity; the busiest
 * class). *lower_bound is set when some processes could not be read
 * (lower_bound may be NULL). Fails val with GT_WHY_PENDING before two
 * rounds. A device without clients reads 0 %: the caller must know that
 * its driver reports fdinfo engine time at all (nouveau and nvidia do
 * not). */
void gt_fdinfo_device_busy(struct gt_fdinfo *fi, const char *pdev,
                           struct gt_val *val, bool *lower_bound);

/* Like gt_fdinfo_device_busy for the media engines: enc is the busiest of
 * the encoders (amdgpu enc/enc_1) and the engines that both encode and
 * decode or post-process video (Intel video/vcs, video-enhance/vecs,
 * amdgpu vpe), dec the same with the decoders (amdgpu dec, jpeg). For
 * GT_F_UTIL_ENC / GT_F_UTIL_DEC of backends that have nothing better. */
void gt_fdinfo_device_media(struct gt_fdinfo *fi, const char *pdev,
                            struct gt_val *enc, struct gt_val *dec,
                            bool *lower_bound);

/* Processes skipped for lack of permission: pids whose fd directory was
 * refused at the last walk (kernel threads excepted) plus pids whose
 * fdinfo was refused this round. What out->unreadable receives. */
size_t gt_fdinfo_unreadable(const struct gt_fdinfo *fi);

/* Pids known to hold DRM descriptors; clients read in the last round (all
 * devices, shared ones once). For tests and diagnostics. */
size_t gt_fdinfo_pid_count(const struct gt_fdinfo *fi);
size_t gt_fdinfo_client_count(const struct gt_fdinfo *fi);
/* How many /proc walks the updates have made so far. */
uint64_t gt_fdinfo_walk_count(const struct gt_fdinfo *fi);

#endif

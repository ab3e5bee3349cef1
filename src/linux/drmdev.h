/* SPDX-License-Identifier: MIT */
/*
 * drmdev.h - discovery of DRM devices through a sysfs root: every
 * <sysfs>/class/drm/cardN with its PCI identity, kernel driver and runtime
 * power state. Shared by the amdgpu and Intel backends and by --list for
 * devices no backend supports (radeon, nouveau, virtual GPUs).
 *
 * Sysfs only: what libdrm adds on the live system (the device node paths,
 * the DRM driver name and version) is drmnode.h's, whose
 * gt_drmnode_discover is this scan with libdrm's answers merged in. A
 * copied tree (--sysfs) has no device nodes of its own, so libdrm is not
 * asked there.
 */
#ifndef GPUTOP_DRMDEV_H
#define GPUTOP_DRMDEV_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GT_DRMDEV_NODE_LEN 64

struct gt_drmdev {
	unsigned card_index;   /* N of cardN */
	char card[16];         /* "card0" */
	char devdir[PATH_MAX]; /* <sysfs>/class/drm/cardN/device */
	/* "0000:03:00.0", "" for a non-PCI device. A virtio GPU's is that of
	 * the virtio PCI function it sits on. */
	char pdev[32];
	char driver[32]; /* from device/uevent DRIVER=, "" if unbound */
	/* Where a device without a PCI address sits, relative to
	 * <sysfs>/devices ("platform/simple-framebuffer.0"); "" if unknown. */
	char location[96];
	uint16_t vendor, device; /* PCI ids, 0 if unknown */
	uint16_t subsys_vendor, subsys_device;
	uint8_t revision;
	/* power/runtime_status is "suspended": reading the device's
	 * attributes would wake it (or fail with EPERM on newer kernels). */
	bool suspended;
	char render[16]; /* "renderD128" when found under device/drm/ */

	/* Live system only (drmnode.c); "" elsewhere or when unknown. */
	char primary_node[GT_DRMDEV_NODE_LEN]; /* "/dev/dri/card0" */
	char render_node[GT_DRMDEV_NODE_LEN];  /* "/dev/dri/renderD128" */
	char drm_name[32];    /* drmGetVersion: "amdgpu", "i915", "xe" */
	char drm_version[32]; /* drmGetVersion: "3.57.0" */
	/* Why drm_version is empty, for the backend's detail; "" when it is
	 * set or was never asked for. */
	char drm_why[128];
	int drm_rc; /* of the last drmGetVersion attempt: 0 or -errno */
};

/* Scans <sysfs_root>/class/drm (sysfs_root NULL = "/sys"). *out is a
 * malloc'd array sorted by card index (the caller frees it), *n its length.
 * A missing class/drm directory is not an error: zero devices. Returns 0,
 * or -errno for an unreadable directory or ENOMEM. Reads sysfs only. */
int gt_drmdev_scan(const char *sysfs_root, struct gt_drmdev **out, size_t *n);

/* True when sysfs_root (NULL = "/sys") is the live /sys: the device nodes
 * in /dev/dri are those of the devices it lists. */
bool gt_drmdev_live_root(const char *sysfs_root);

/* Re-reads power/runtime_status of one device. */
bool gt_drmdev_is_suspended(const struct gt_drmdev *d);

/* Why gputop cannot read a DRM device that no backend took, in words a
 * user can act on, without the driver's name (callers print it beside):
 * "gputop reads AMD GPUs through amdgpu only". Never NULL. The one list of
 * these reasons, for --list and the backends' details alike. */
const char *gt_drmdev_unsupported_why(const struct gt_drmdev *d);

/* The address --list shows: the PCI address, else the location, else the
 * card's name. */
const char *gt_drmdev_address(const struct gt_drmdev *d);

#endif

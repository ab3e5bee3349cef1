/*
 * drmdev.h - discovery of DRM devices through a sysfs root: every
 * <sysfs>/class/drm/cardN with its PCI identity, kernel driver and runtime
 * power state. Shared by the amdgpu and Intel backends and by --list for
 * devices no backend supports (radeon, nouveau, virtual GPUs).
 */
#ifndef GPUTOP_DRMDEV_H
#define GPUTOP_DRMDEV_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gt_drmdev {
	unsigned card_index;     /* N of cardN */
	char card[16];           /* "card0" */
	char devdir[PATH_MAX];   /* <sysfs>/class/drm/cardN/device */
	char pdev[32];           /* "0000:03:00.0", "" for a non-PCI device */
	char driver[32];         /* from device/uevent DRIVER=, "" if unbound */
	uint16_t vendor, device; /* PCI ids, 0 if unknown */
	uint16_t subsys_vendor, subsys_device;
	uint8_t revision;
	/* power/runtime_status is "suspended": reading the device's
	 * attributes would wake it (or fail with EPERM on newer kernels). */
	bool suspended;
	char render[16]; /* "renderD128" when found under device/drm/ */
};

/* Scans <sysfs_root>/class/drm (sysfs_root NULL = "/sys"). *out is a
 * malloc'd array sorted by card index (the caller frees it), *n its length.
 * A missing class/drm directory is not an error: zero devices. Returns 0,
 * or -errno for an unreadable directory or ENOMEM. */
int gt_drmdev_scan(const char *sysfs_root, struct gt_drmdev **out, size_t *n);

/* Re-reads power/runtime_status of one device. */
bool gt_drmdev_is_suspended(const struct gt_drmdev *d);

#endif

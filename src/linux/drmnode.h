/* SPDX-License-Identifier: MIT */
/*
 * drmnode.h - what libdrm says about DRM devices on the live system: the
 * device node paths (drmGetDevices2) and the DRM driver's name and version
 * (drmGetVersion on the render node). The only file that calls libdrm's
 * core library (libdrm_amdgpu has collectors/amdgpu_libdrm.c).
 *
 * Rules:
 *  - Only for the live /sys: the nodes of a copied tree (--sysfs) are not
 *    this machine's. Callers check gt_drmdev_live_root().
 *  - drmGetDevices2 is called with flags 0: it then reads ids from sysfs
 *    and does not read the PCI config space (DRM_DEVICE_GET_PCI_REVISION
 *    may wake a sleeping device). It opens no device node.
 *  - A device whose power/runtime_status is "suspended" is never opened:
 *    opening a DRM node resumes it.
 *  - Render nodes are opened O_RDONLY: any user who may use the GPU may
 *    open them, and no DRM master or authentication is involved.
 *
 * The merge of libdrm's records into gputop's (gt_drmnode_merge,
 * gt_drmnode_set_version) is pure, for unit tests with hand-built structs.
 */
#ifndef GPUTOP_DRMNODE_H
#define GPUTOP_DRMNODE_H

#include <stdbool.h>
#include <stddef.h>
#include <xf86drm.h>

#include "linux/drmdev.h"

/* Writes dev's PCI address as "dddd:bb:dd.f" (lower-case hex, the form of
 * PCI_SLOT_NAME and drm-pdev); false for a non-PCI device. */
bool gt_drmnode_pci_address(const drmDevice *dev, char *out, size_t len);

/* True when dev is d: the same PCI address, or, for a device without one
 * in sysfs, a primary node named like d's card ("/dev/dri/card1" for
 * "card1"). */
bool gt_drmnode_same(const struct gt_drmdev *d, const drmDevice *dev);

/* Copies the node paths of dev into d (a path too long for the record is
 * left out, never cut), and its PCI address when sysfs gave none. Returns
 * false, changing nothing, when dev is not d. */
bool gt_drmnode_merge(struct gt_drmdev *d, const drmDevice *dev);

/* gt_drmnode_merge of each of devs with the first of list that is it.
 * Devices libdrm does not list keep their sysfs values. */
void gt_drmnode_merge_all(struct gt_drmdev *devs, size_t n,
                          drmDevicePtr const *list, int count);

/* d->drm_name and d->drm_version from a drmGetVersion reply. */
void gt_drmnode_set_version(struct gt_drmdev *d, const drmVersion *v);

/* gt_drmdev_scan, then, on the live system only, one drmGetDevices2 call
 * for the node paths of every device (no device node is opened): the
 * discovery the backends use. */
int gt_drmnode_discover(const char *sysfs_root, struct gt_drmdev **out,
                        size_t *n);

/* Live: one drmGetDevices2 call, merged into devs. Devices libdrm does
 * not list get "/dev/dri/<render>" from sysfs's render node name. */
void gt_drmnode_attach(struct gt_drmdev *devs, size_t n);

/* Live: drmGetVersion on d's render node (opened O_RDONLY | O_CLOEXEC,
 * closed again). Fills drm_name and drm_version, or drm_why with the
 * reason (asleep, no render node, permission). Returns 0 or -errno
 * (-EAGAIN: asleep). Asks once: later calls return the first answer,
 * except after -EAGAIN, when the device is asked again (once awake). */
int gt_drmnode_read_version(struct gt_drmdev *d);

#endif

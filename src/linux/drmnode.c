/* SPDX-License-Identifier: MIT */
/*
 * drmnode.c - libdrm's device nodes and driver versions (see drmnode.h),
 * and discovery: drmdev.c's sysfs scan with libdrm's nodes merged in.
 */
#include "linux/drmnode.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/model.h"

/* Largest device list asked for: more DRM devices than any machine has. */
#define MAX_DRM_DEVICES 64

bool gt_drmnode_pci_address(const drmDevice *dev, char *out, size_t len)
{
	if (!dev || dev->bustype != DRM_BUS_PCI || !dev->businfo.pci)
		return false;
	const drmPciBusInfo *b = dev->businfo.pci;
	int n = snprintf(out, len, "%04x:%02x:%02x.%x", b->domain, b->bus,
	                 b->dev, b->func);
	return n > 0 && (size_t)n < len;
}

/* dev's node of the given type, or NULL. */
static const char *node(const drmDevice *dev, int type)
{
	if (!dev->nodes || !(dev->available_nodes & (1 << type)))
		return NULL;
	return dev->nodes[type];
}

bool gt_drmnode_same(const struct gt_drmdev *d, const drmDevice *dev)
{
	char addr[32];
	if (!dev)
		return false;
	if (d->pdev[0])
		return gt_drmnode_pci_address(dev, addr, sizeof(addr)) &&
		       strcmp(addr, d->pdev) == 0;
	const char *primary = node(dev, DRM_NODE_PRIMARY);
	const char *base = primary ? strrchr(primary, '/') : NULL;
	return base && strcmp(base + 1, d->card) == 0;
}

static void copy_node(char *dst, const char *src)
{
	if (src && strlen(src) < GT_DRMDEV_NODE_LEN)
		gt_copy_str(dst, GT_DRMDEV_NODE_LEN, src);
}

bool gt_drmnode_merge(struct gt_drmdev *d, const drmDevice *dev)
{
	if (!gt_drmnode_same(d, dev))
		return false;
	copy_node(d->primary_node, node(dev, DRM_NODE_PRIMARY));
	copy_node(d->render_node, node(dev, DRM_NODE_RENDER));
	if (!d->pdev[0])
		gt_drmnode_pci_address(dev, d->pdev, sizeof(d->pdev));
	return true;
}

void gt_drmnode_merge_all(struct gt_drmdev *devs, size_t n,
                          drmDevicePtr const *list, int count)
{
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < count; k++)
			if (gt_drmnode_merge(&devs[i], list[k]))
				break;
}

void gt_drmnode_set_version(struct gt_drmdev *d, const drmVersion *v)
{
	d->drm_name[0] = '\0';
	d->drm_version[0] = '\0';
	if (!v)
		return;
	if (v->name && v->name_len > 0) {
		size_t len = (size_t)v->name_len < sizeof(d->drm_name)
		                 ? (size_t)v->name_len
		                 : sizeof(d->drm_name) - 1;
		memcpy(d->drm_name, v->name, len);
		d->drm_name[len] = '\0';
		d->drm_name[strcspn(d->drm_name, "\n")] = '\0';
	}
	if (v->version_major >= 0 && v->version_minor >= 0 &&
	    v->version_patchlevel >= 0) {
		char buf[48];
		snprintf(buf, sizeof(buf), "%d.%d.%d", v->version_major,
		         v->version_minor, v->version_patchlevel);
		gt_copy_str(d->drm_version, sizeof(d->drm_version), buf);
	}
	d->drm_why[0] = '\0';
}

void gt_drmnode_attach(struct gt_drmdev *devs, size_t n)
{
	drmDevicePtr list[MAX_DRM_DEVICES];
	int count = drmGetDevices2(0, list, MAX_DRM_DEVICES);
	/* The return value counts the devices that did not fit too. */
	if (count > MAX_DRM_DEVICES)
		count = MAX_DRM_DEVICES;
	if (count > 0) {
		gt_drmnode_merge_all(devs, n, list, count);
		drmFreeDevices(list, count);
	}
	/* libdrm unable to list a device (an old libdrm and a new bus):
	 * the kernel names the node as sysfs does. */
	for (size_t i = 0; i < n; i++)
		if (!devs[i].render_node[0] && devs[i].render[0])
			snprintf(devs[i].render_node,
			         sizeof(devs[i].render_node), "/dev/dri/%s",
			         devs[i].render);
}

int gt_drmnode_discover(const char *sysfs_root, struct gt_drmdev **out,
                        size_t *n)
{
	int rc = gt_drmdev_scan(sysfs_root, out, n);
	if (rc == 0 && *n > 0 && gt_drmdev_live_root(sysfs_root))
		gt_drmnode_attach(*out, *n);
	return rc;
}

static int read_version(struct gt_drmdev *d)
{
	if (gt_drmdev_is_suspended(d)) {
		snprintf(d->drm_why, sizeof(d->drm_why),
		         "asleep: its render node is not opened (that would "
		         "wake it)");
		return -EAGAIN;
	}
	if (!d->render_node[0]) {
		snprintf(d->drm_why, sizeof(d->drm_why), "no render node");
		return -ENOENT;
	}
	int fd = open(d->render_node, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		if (e == EACCES || e == EPERM)
			snprintf(d->drm_why, sizeof(d->drm_why),
			         "cannot open %s: %s (members of the render "
			         "group may open it)",
			         d->render_node, strerror(e));
		else
			snprintf(d->drm_why, sizeof(d->drm_why),
			         "cannot open %s: %s", d->render_node,
			         strerror(e));
		return -e;
	}
	drmVersionPtr v = drmGetVersion(fd);
	int e = errno;
	close(fd);
	if (!v) {
		snprintf(d->drm_why, sizeof(d->drm_why),
		         "drmGetVersion on %s failed: %s", d->render_node,
		         strerror(e ? e : EIO));
		return -(e ? e : EIO);
	}
	gt_drmnode_set_version(d, v);
	drmFreeVersion(v);
	return 0;
}

int gt_drmnode_read_version(struct gt_drmdev *d)
{
	/* Asked once; a device asleep then is asked again. */
	if (d->drm_version[0] || (d->drm_rc != 0 && d->drm_rc != -EAGAIN))
		return d->drm_rc;
	d->drm_rc = read_version(d);
	return d->drm_rc;
}

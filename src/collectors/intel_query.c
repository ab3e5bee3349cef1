/* SPDX-License-Identifier: MIT */
/*
 * intel_query.c - the i915 and xe memory-region query ioctls (see
 * intel_query.h). The uAPI structures are restated here with gt_ names
 * (layout per include/uapi/drm/{i915,xe}_drm.h, quoted in
 * ../shared/reference/intel-and-fdinfo.md §1.6a): libdrm 2.4.114, still
 * current on Debian 12, has no xe_drm.h at all.
 */
#include "collectors/intel_query.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

struct gt_i915_query_item {
	uint64_t query_id;
	int32_t length; /* 0 in: the kernel writes the size; < 0: an error */
	uint32_t flags;
	uint64_t data_ptr;
};

struct gt_i915_query {
	uint32_t num_items;
	uint32_t flags;
	uint64_t items_ptr;
};

struct gt_xe_device_query {
	uint64_t extensions;
	uint32_t query;
	uint32_t size; /* 0 in: the kernel writes the size */
	uint64_t data;
	uint64_t reserved[2];
};

/* DRM_IOWR(DRM_COMMAND_BASE + nr): 'd' is DRM_IOCTL_BASE, 0x40 the base. */
#define GT_IOCTL_I915_QUERY _IOWR('d', 0x40 + 0x39, struct gt_i915_query)
#define GT_IOCTL_XE_DEVICE_QUERY                                               \
	_IOWR('d', 0x40 + 0x00, struct gt_xe_device_query)
#define GT_I915_QUERY_MEMORY_REGIONS 4
#define GT_XE_QUERY_MEM_REGIONS      1

/* Region records: both drivers use 88 bytes (a union pads i915's). */
#define REGION_SIZE  88
#define XE_HEADER    8  /* u32 num_mem_regions, u32 pad */
#define I915_HEADER  16 /* u32 num_regions, u32 rsvd[3] */
#define CLASS_SYSTEM 0
#define CLASS_DEVICE 1 /* i915 DEVICE, xe VRAM */

static uint64_t u64_at(const unsigned char *p, size_t off)
{
	uint64_t v;
	memcpy(&v, p + off, sizeof(v));
	return v;
}

static uint32_t u32_at(const unsigned char *p, size_t off)
{
	uint32_t v;
	memcpy(&v, p + off, sizeof(v));
	return v;
}

static uint16_t u16_at(const unsigned char *p, size_t off)
{
	uint16_t v;
	memcpy(&v, p + off, sizeof(v));
	return v;
}

/* The region count when the reply holds all the records it announces. */
static int regions(const void *buf, size_t len, size_t header, uint32_t *n)
{
	if (len < header)
		return -EINVAL;
	*n = u32_at(buf, 0);
	if (*n > (len - header) / REGION_SIZE)
		return -EINVAL;
	return 0;
}

int gt_intel_decode_xe_mem(const void *buf, size_t len, bool perfmon,
                           struct gt_intel_mem *m)
{
	uint32_t n;
	memset(m, 0, sizeof(*m));
	if (regions(buf, len, XE_HEADER, &n) < 0)
		return -EINVAL;
	for (uint32_t i = 0; i < n; i++) {
		const unsigned char *r =
		    (const unsigned char *)buf + XE_HEADER + i * REGION_SIZE;
		uint16_t cls = u16_at(r, 0);
		uint64_t total = u64_at(r, 8), used = u64_at(r, 16);
		if (cls == CLASS_DEVICE) {
			/* One VRAM region per tile: the card is their sum. */
			m->vram = true;
			m->vram_total += total;
			m->vram_used += used;
			m->vis_total += u64_at(r, 24);
			m->vis_used += u64_at(r, 32);
		} else if (cls == CLASS_SYSTEM) {
			m->sys_known = true;
			m->sys_total += total;
			m->sys_used += used;
		}
	}
	m->vis_known = m->vram && m->vis_total > 0;
	m->used_known = perfmon;
	return 0;
}

int gt_intel_decode_i915_mem(const void *buf, size_t len, bool perfmon,
                             struct gt_intel_mem *m)
{
	uint32_t n;
	uint64_t vis_free = 0, free_total = 0;
	memset(m, 0, sizeof(*m));
	if (regions(buf, len, I915_HEADER, &n) < 0)
		return -EINVAL;
	for (uint32_t i = 0; i < n; i++) {
		const unsigned char *r =
		    (const unsigned char *)buf + I915_HEADER + i * REGION_SIZE;
		if (u16_at(r, 0) != CLASS_DEVICE)
			continue; /* i915 does not track system memory use */
		m->vram = true;
		m->vram_total += u64_at(r, 8);
		free_total += u64_at(r, 16);
		m->vis_total += u64_at(r, 24);
		vis_free += u64_at(r, 32);
	}
	/* The CPU-visible fields are 0 on kernels before they existed. */
	m->vis_known = m->vram && m->vis_total > 0;
	m->used_known = perfmon && m->vram;
	if (m->used_known) {
		m->vram_used =
		    m->vram_total -
		    (free_total < m->vram_total ? free_total : m->vram_total);
		m->vis_used =
		    m->vis_total -
		    (vis_free < m->vis_total ? vis_free : m->vis_total);
	}
	return 0;
}

static int query_i915(int fd, void **out, size_t *len)
{
	struct gt_i915_query_item item = {.query_id =
	                                      GT_I915_QUERY_MEMORY_REGIONS};
	struct gt_i915_query q = {.num_items = 1,
	                          .items_ptr = (uint64_t)(uintptr_t)&item};
	if (ioctl(fd, GT_IOCTL_I915_QUERY, &q) < 0)
		return -errno;
	if (item.length <= 0)
		return item.length < 0 ? item.length : -EINVAL;
	void *buf = calloc(1, (size_t)item.length);
	if (!buf)
		return -ENOMEM;
	item.data_ptr = (uint64_t)(uintptr_t)buf;
	int err = 0;
	if (ioctl(fd, GT_IOCTL_I915_QUERY, &q) < 0)
		err = -errno;
	else if (item.length <= 0)
		err = item.length < 0 ? item.length : -EINVAL;
	if (err) {
		free(buf);
		return err;
	}
	*out = buf;
	*len = (size_t)item.length;
	return 0;
}

static int query_xe(int fd, void **out, size_t *len)
{
	struct gt_xe_device_query q = {.query = GT_XE_QUERY_MEM_REGIONS};
	if (ioctl(fd, GT_IOCTL_XE_DEVICE_QUERY, &q) < 0)
		return -errno;
	if (q.size == 0)
		return -EINVAL;
	void *buf = calloc(1, q.size);
	if (!buf)
		return -ENOMEM;
	q.data = (uint64_t)(uintptr_t)buf;
	if (ioctl(fd, GT_IOCTL_XE_DEVICE_QUERY, &q) < 0) {
		int err = -errno;
		free(buf);
		return err;
	}
	*out = buf;
	*len = q.size;
	return 0;
}

int gt_intel_query_mem(const char *node, bool xe, bool perfmon,
                       struct gt_intel_mem *m)
{
	void *buf = NULL;
	size_t len = 0;
	/* A render node answers queries without DRM master. */
	int fd = open(node, O_RDWR | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	int rc = xe ? query_xe(fd, &buf, &len) : query_i915(fd, &buf, &len);
	close(fd);
	if (rc < 0)
		return rc;
	rc = xe ? gt_intel_decode_xe_mem(buf, len, perfmon, m)
	        : gt_intel_decode_i915_mem(buf, len, perfmon, m);
	free(buf);
	return rc;
}

bool gt_intel_perfmon_capable(void)
{
	struct __user_cap_header_struct hdr = {
	    .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
	struct __user_cap_data_struct data[2];
	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data) != 0)
		return false;
	/* CAP_PERFMON is 38 (in the second word), CAP_SYS_ADMIN 21. */
	return (data[1].effective & (1u << (38 - 32))) ||
	       (data[0].effective & (1u << 21));
}

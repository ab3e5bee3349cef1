/* SPDX-License-Identifier: MIT */
/*
 * amdgpu_libdrm.c - libdrm_amdgpu sensor queries for the values sysfs lacks
 * (see amdgpu_libdrm.h). Not named amdgpu_drm.c: libdrm's own amdgpu_drm.h
 * (the kernel uapi header, included here) would clash with its header.
 */
#include "collectors/amdgpu_libdrm.h"

#include <amdgpu.h>
#include <amdgpu_drm.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>

/* One sensor and the field it stands in for. Several rows may serve one
 * field: the first that answers fills it. */
static const struct {
	int field;
	unsigned sensor;
	int64_t mul; /* to the model's unit */
	int64_t max; /* a larger answer is not a reading (-1: no limit) */
} sensors[] = {
#ifdef AMDGPU_INFO_SENSOR_GPU_LOAD
    {GT_F_UTIL_GPU, AMDGPU_INFO_SENSOR_GPU_LOAD, 100, 100},
#endif
#ifdef AMDGPU_INFO_SENSOR_GFX_SCLK
    {GT_F_CLK_GRAPHICS, AMDGPU_INFO_SENSOR_GFX_SCLK, 1, -1},
#endif
#ifdef AMDGPU_INFO_SENSOR_GFX_MCLK
    {GT_F_CLK_MEM, AMDGPU_INFO_SENSOR_GFX_MCLK, 1, -1},
#endif
#ifdef AMDGPU_INFO_SENSOR_GPU_TEMP
    {GT_F_TEMP_GPU, AMDGPU_INFO_SENSOR_GPU_TEMP, 1, -1},
#endif
#ifdef AMDGPU_INFO_SENSOR_GPU_AVG_POWER
    {GT_F_POWER_DRAW, AMDGPU_INFO_SENSOR_GPU_AVG_POWER, 1000, -1},
#endif
#ifdef AMDGPU_INFO_SENSOR_GPU_INPUT_POWER
    {GT_F_POWER_DRAW, AMDGPU_INFO_SENSOR_GPU_INPUT_POWER, 1000, -1},
#endif
};

#define NSENSORS (sizeof(sensors) / sizeof(sensors[0]))

/* The value of field is missing: no reading, or for GPU busy a lower
 * bound summed over the DRM clients this user can read. */
static bool lacks(const struct gt_sample *s, int field)
{
	if (field == GT_F_UTIL_GPU && s->util_gpu_lower_bound)
		return true;
	return !gt_val_ok(&s->f[field]);
}

unsigned gt_amdgpu_drm_wanted(const struct gt_sample *s)
{
	unsigned n = 0;
	for (size_t i = 0; i < NSENSORS; i++)
		if (lacks(s, sensors[i].field))
			n++;
	return n;
}

unsigned gt_amdgpu_drm_fill(struct gt_sample *s, gt_amdgpu_sensor_fn query,
                            void *ctx)
{
	unsigned filled = 0;
	for (size_t i = 0; i < NSENSORS; i++) {
		int field = sensors[i].field;
		uint32_t raw;
		if (!lacks(s, field) ||
		    query(ctx, sensors[i].sensor, &raw) != 0)
			continue;
		/* The temperature is a signed m°C value in a u32. */
		int64_t v = field == GT_F_TEMP_GPU ? (int64_t)(int32_t)raw
		                                   : (int64_t)raw;
		if (sensors[i].max >= 0 && v > sensors[i].max)
			continue;
		gt_val_set(&s->f[field], v * sensors[i].mul);
		if (field == GT_F_UTIL_GPU)
			s->util_gpu_lower_bound = false;
		filled++;
	}
	return filled;
}

struct gt_amdgpu_drm {
	amdgpu_device_handle dev;
};

int gt_amdgpu_drm_open(const char *node, struct gt_amdgpu_drm **out)
{
	*out = NULL;
	int fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0 && (errno == EACCES || errno == EPERM || errno == EROFS))
		fd = open(node, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* Only an amdgpu node goes to libdrm_amdgpu, which writes its
	 * complaints about others to stderr (the dashboard's screen). */
	drmVersionPtr v = drmGetVersion(fd);
	int err = v ? (v->name && strcmp(v->name, "amdgpu") == 0 ? 0 : ENODEV)
	            : (errno ? errno : EIO);
	drmFreeVersion(v);
	if (err) {
		close(fd);
		return -err;
	}
	struct gt_amdgpu_drm *h = calloc(1, sizeof(*h));
	if (!h) {
		close(fd);
		return -ENOMEM;
	}
	uint32_t major, minor;
	/* libdrm_amdgpu keeps its own duplicate of the descriptor. */
	int rc = amdgpu_device_initialize(fd, &major, &minor, &h->dev);
	close(fd);
	if (rc != 0) {
		free(h);
		return rc < -1 ? rc : -EIO; /* some paths return a bare -1 */
	}
	*out = h;
	return 0;
}

void gt_amdgpu_drm_close(struct gt_amdgpu_drm *h)
{
	if (!h)
		return;
	amdgpu_device_deinitialize(h->dev);
	free(h);
}

int gt_amdgpu_drm_query(void *ctx, unsigned sensor, uint32_t *value)
{
	struct gt_amdgpu_drm *h = ctx;
	return amdgpu_query_sensor_info(h->dev, sensor, sizeof(*value), value);
}

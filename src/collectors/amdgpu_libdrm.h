/* SPDX-License-Identifier: MIT */
/*
 * amdgpu_libdrm.h - values the amdgpu sysfs/hwmon/gpu_metrics path left
 * missing, from libdrm_amdgpu's sensor queries (the AMDGPU_INFO_SENSOR
 * ioctl on the render node).
 *
 * Only what a sample lacks is asked for, so a device whose sysfs gives
 * everything is never opened (an open render node is a DRM client: it
 * shows in fdinfo, and each ioctl keeps the device awake). The query goes
 * through a function pointer: tests drive gt_amdgpu_drm_fill with a fake.
 *
 * Sensors and the model fields they fill (units after the kernel's
 * conversion, amdgpu_kms.c):
 *   GPU_LOAD         %    -> GT_F_UTIL_GPU (cpercent); also replaces a
 *                            lower bound summed from fdinfo
 *   GFX_SCLK         MHz  -> GT_F_CLK_GRAPHICS
 *   GFX_MCLK         MHz  -> GT_F_CLK_MEM
 *   GPU_TEMP         m°C  -> GT_F_TEMP_GPU (the edge sensor)
 *   GPU_AVG_POWER    W    -> GT_F_POWER_DRAW (mW), else
 *   GPU_INPUT_POWER  W    -> GT_F_POWER_DRAW (Linux 6.6+ headers only)
 * VDDNB/VDDGFX (mV) have no place in the model and are not asked for. Each
 * sensor id is used only where the libdrm headers define it.
 */
#ifndef GPUTOP_AMDGPU_LIBDRM_H
#define GPUTOP_AMDGPU_LIBDRM_H

#include <stdint.h>

#include "core/model.h"

/* Asks the device for one sensor (AMDGPU_INFO_SENSOR_*): 0 and *value, or
 * a negative errno (-EINVAL: not supported; -ENOENT: DPM disabled). */
typedef int (*gt_amdgpu_sensor_fn)(void *ctx, unsigned sensor, uint32_t *value);

/* Number of sensors that could fill a value s lacks; 0: nothing to ask. */
unsigned gt_amdgpu_drm_wanted(const struct gt_sample *s);

/* Fills the values s lacks from query; leaves a value whose sensor fails
 * with the reason it had. Returns the number of values filled. */
unsigned gt_amdgpu_drm_fill(struct gt_sample *s, gt_amdgpu_sensor_fn query,
                            void *ctx);

/* A libdrm_amdgpu device handle on a render node. */
struct gt_amdgpu_drm;

/* Opens node (read-write, else read-only) and initialises libdrm_amdgpu
 * on it. 0 and *out, or -errno. */
int gt_amdgpu_drm_open(const char *node, struct gt_amdgpu_drm **out);
void gt_amdgpu_drm_close(struct gt_amdgpu_drm *h);

/* gt_amdgpu_sensor_fn over amdgpu_query_sensor_info; ctx is the handle. */
int gt_amdgpu_drm_query(void *ctx, unsigned sensor, uint32_t *value);

#endif

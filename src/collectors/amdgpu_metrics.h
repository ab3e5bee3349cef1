/* SPDX-License-Identifier: MIT */
/*
 * amdgpu_metrics.h - pure decoder of amdgpu's binary gpu_metrics file. The
 * layout is chosen by the header's (format_revision, content_revision),
 * never by the file's size (v1.3 and v2.1 are both 120 bytes): v1.0-v1.3
 * (dGPUs), v1.4-v1.8 (MI300-class Instinct, smu_v13_0_6), v2.0-v2.4
 * (APUs) and v3.0 (Strix Point). Values come out in the model's units,
 * each with a reason when the version lacks the field or the firmware left
 * it unfilled (all-ones bytes). Offsets follow the kernel's struct
 * gpu_metrics_v* in drivers/gpu/drm/amd/include/kgd_pp_interface.h.
 */
#ifndef GPUTOP_AMDGPU_METRICS_H
#define GPUTOP_AMDGPU_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "core/model.h"

/* The decoded table. Every gt_val is OK or GT_WHY_UNSUPPORTED_DEVICE. */
struct gt_amdgpu_metrics {
	uint16_t size;  /* structure_size from the header */
	uint8_t format; /* 1 = dGPU, 2 = APU, 3 = newer APU */
	uint8_t content;
	struct gt_val temp_gpu;     /* m°C: edge (v1.0-1.3) or gfx (v2, v3) */
	struct gt_val temp_hotspot; /* m°C (v1) */
	struct gt_val temp_mem;     /* m°C (v1) */
	/* cpercent as the firmware reports it; on some APU firmware the
	 * value looks like hundredths of a percent (phoenix: 79 while
	 * gpu_busy_percent read 0), so the backend prefers sysfs there. */
	struct gt_val gfx_activity;
	struct gt_val umc_activity; /* cpercent (v1) */
	struct gt_val mm_activity;  /* cpercent, video (UVD/VCN); v1.4/v1.5:
	                             * the mean of the filled VCN instances */
	struct gt_val socket_power; /* mW (APU: the whole package) */
	struct gt_val gfx_power;    /* mW (v2, v3) */
	struct gt_val energy;       /* mJ since driver load (v1) */
	/* MHz: current, else average. MI300's tables give one current clock
	 * per XCC (gfx) or VCN (video): the mean of the filled ones. */
	struct gt_val gfxclk;
	struct gt_val uclk;        /* MHz, memory clock */
	struct gt_val vclk;        /* MHz, video clock */
	struct gt_val fan_rpm;     /* (v1) */
	struct gt_val pcie_width;  /* lanes (v1) */
	struct gt_val pcie_gts10;  /* link rate in 0.1 GT/s (v1) */
	struct gt_val voltage_gfx; /* mV (v1.3) */
	struct gt_val gfx_maxfreq; /* MHz, current gfx clock ceiling (v3.0) */
	/* indep_throttle_status (v1.3, v2.2+): the raw SMU_THROTTLER_* bits
	 * and their enum gt_throttle mapping. v1.4+ have none. */
	struct gt_val throttle_raw;
	struct gt_val throttle;
};

/*
 * Decodes len bytes of a gpu_metrics file. Reads at most the header's
 * structure_size bytes (a capture padded to 4096 bytes is fine). Returns
 * 0; -EBADMSG when there is no valid header (or one claiming fewer bytes
 * than its version has); -EPROTONOSUPPORT for a version this decoder does
 * not know (a future one). In both error cases every value is failed with
 * GT_WHY_UNSUPPORTED_DEVICE.
 */
int gt_amdgpu_metrics_decode(const void *buf, size_t len,
                             struct gt_amdgpu_metrics *out);

/* Maps ASIC-independent throttler bits to enum gt_throttle: power limits
 * (bits 0-15) -> SW_POWER_CAP, current limits (16-31) -> CURRENT_LIMIT,
 * firmware temperature limits (32-43) -> SW_THERMAL, the VRHOT/PROCHOT
 * hardware signals (44-47) -> HW_THERMAL, the rest -> OTHER. */
uint32_t gt_amdgpu_throttle_from_indep(uint64_t bits);

#endif

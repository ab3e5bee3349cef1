/* SPDX-License-Identifier: MIT */
/*
 * intel_sysfs.h - where the i915 and xe drivers keep each value in sysfs,
 * and the pure conversions the Intel backend (intel.c) applies to what it
 * reads: throttle-reason names to gt_throttle bits, counter deltas to
 * watts and residency percentages, PCIe speed strings to generations.
 * Finding the files only lists directories and tests for existence; no
 * function here reads a sensor, so none can wake a sleeping device.
 */
#ifndef GPUTOP_INTEL_SYSFS_H
#define GPUTOP_INTEL_SYSFS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The frequency files of one GT. Leaf names are static strings. */
struct gt_intel_freq {
	bool ok;
	char dir[PATH_MAX];
	const char *act, *cur, *min, *max, *rp0;
};

/* Where one device keeps its GT values (empty dir or NULL leaf: absent). */
struct gt_intel_layout {
	struct gt_intel_freq gfx;   /* the render GT (gt0) */
	struct gt_intel_freq media; /* a separate media GT (MTL and later) */
	char rc6_dir[PATH_MAX];     /* idle-residency counter, ms */
	const char *rc6_leaf;
	char idle_dir[PATH_MAX]; /* xe gtidle/: idle_status "gt-c6" */
	char thr_dir[PATH_MAX];  /* throttle reasons */
	const char *thr_prefix;  /* "throttle_reason_" (i915), "reason_" (xe) */
	const char *thr_status;  /* "throttle_reason_status", "status" */
	char tile_dir[PATH_MAX]; /* xe tile0 (physical_vram_size_bytes) */
};

/*
 * Finds the GT files of a device: i915 (xe false) in carddir/gt/gtN/rps_*
 * with the legacy carddir/gt_*_freq_mhz as fallback; xe under
 * devdir/tile0/gtN/freq0/. media_ok says whether gt1 may be taken as a
 * media GT (i915 uses gt1 for the second tile of multi-tile server parts,
 * so the caller passes true only for integrated i915 devices; xe names
 * its GTs in gtidle/name).
 */
void gt_intel_layout_find(const char *carddir, const char *devdir, bool xe,
                          bool media_ok, struct gt_intel_layout *l);

/* Sensor channels picked from the device's hwmon directory. */
struct gt_intel_hwmon {
	bool ok;
	char dir[PATH_MAX];
	char energy[24];      /* "energy1_input" (card) or "" */
	char power_max[24];   /* the sustained limit in force (PL1) */
	char power_rated[24]; /* TDP: PL1's default and its upper bound */
	char temp_gpu[24]; /* "temp1_input" (i915) or the "pkg" sensor (xe) */
	char temp_mem[24]; /* the "vram" sensor */
	char temp_gpu_crit[24], temp_gpu_emergency[24], temp_gpu_max[24];
	char temp_mem_crit[24];
	unsigned fans; /* fan1_input .. fanN_input that exist */
	unsigned fan_index[8];
};

/* Finds devdir/hwmon/hwmonX whose name is "i915" or "xe" (not the per-GT
 * "i915_gtN") and picks its channels by *_label ("card", "pkg", "vram"),
 * falling back to the fixed indices of the ABI documents. Reads only the
 * name and label files, which the hwmon core answers without the driver. */
void gt_intel_hwmon_find(const char *devdir, struct gt_intel_hwmon *h);

/* The gt_throttle bit of one reason name as the kernel writes it ("pl1",
 * "thermal", "vr_tdc"; without the reason_ prefix); GT_THR_OTHER for a
 * name this table does not know. */
unsigned gt_intel_throttle_bit(const char *name);

/* Parses the xe "reasons" file: space-separated names, or "none". */
uint32_t gt_intel_throttle_parse(const char *text);

/* The names of the per-reason files, NULL-terminated. */
extern const char *const gt_intel_throttle_names[];

/* Power in mW from two energy readings in µJ taken dt_ns apart. False when
 * the counter went backwards (a reset) or no time passed. */
bool gt_intel_power_mw(uint64_t e0_uj, uint64_t e1_uj, uint64_t dt_ns,
                       int64_t *mw);

/* Share of dt_ns spent idle from two residency readings in ms, in
 * hundredths of a percent, clamped to [0, 10000]. False when the counter
 * went backwards or no time passed. */
bool gt_intel_residency_cpct(int64_t r0_ms, int64_t r1_ms, uint64_t dt_ns,
                             int64_t *cpct);

/* PCIe generation from a link speed ("16.0 GT/s PCIe" -> 4); 0 if unknown. */
int gt_intel_pcie_gen(const char *speed);

/* True for the PCI slot integrated Intel GPUs sit at (0000:00:02.0): the
 * heuristic nvtop and intel_gpu_top use when no query ioctl can tell. */
bool gt_intel_slot_is_integrated(const char *pdev);

#endif

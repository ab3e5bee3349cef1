/* SPDX-License-Identifier: MIT */
/*
 * control_vendor.h - the vendor interface of the control layer: what one
 * vendor's control code (control_nvml.c, control_amdgpu*.c,
 * control_intel.c) offers the vendor-neutral rest, as one table of
 * function pointers. The session applies a change through the ops of the
 * device's vendor, the capability reader asks them what a device offers,
 * and the control restores each journaled action through the ops of the
 * vendor it records. The vendors are listed in one place,
 * control_vendors.c, and handed to the control (gt_control_config.vendors)
 * by whoever makes it, so control.c names no vendor.
 *
 * Every setter follows control.h's order (privileges, validation, audit
 * log, journal, write, read-back) and returns GT_CONTROL_OK, _REFUSED or
 * _FAILED with err. A setter a vendor does not have is NULL.
 */
#ifndef GPUTOP_CONTROL_VENDOR_H
#define GPUTOP_CONTROL_VENDOR_H

#include <stdbool.h>
#include <stddef.h>

#include "core/model.h"

struct gt_control;
struct gt_control_caps;
struct gt_fancurve;
struct gt_restore_action;

struct gt_control_ops {
	/* The state file's vendor= (restore.h): lower-case letters and
	 * digits, shorter than GT_RESTORE_VENDOR_MAX. */
	const char *name;
	enum gt_vendor vendor;
	/* dev, for every call below: true, the device's sysfs directory
	 * (<root>/class/drm/cardN/device, found by its PCI slot); false, its
	 * PCI bus id ("0000:01:00.0"). */
	bool sysfs;
	/* The power limit's unit in words ("mW", "µW"), for the results. */
	const char *power_unit;
	/* The software fan loop: true, fan_speed and fan_auto take the fan's
	 * index and each fan is driven on its own (NVML); false, the device
	 * has one fan control, fan 0. */
	bool fan_per_index;
	/* The loop follows the hotspot sensor where the device has one (as
	 * AMD's own firmware curves do), else the GPU temperature. */
	bool fan_loop_hotspot;

	/* What the control dialogs may offer for dev, read with the setters'
	 * own rules: 0, or -1 with caps->why (then nothing is settable). */
	int (*caps)(struct gt_control *c, const char *dev,
	            struct gt_control_caps *caps);

	/* The setters, one per change kind. */
	int (*power_limit)(struct gt_control *c, const char *dev,
	                   unsigned long value, unsigned long *applied,
	                   char *err, size_t len);
	int (*perf_level)(struct gt_control *c, const char *dev,
	                  const char *level, char *applied, size_t applied_len,
	                  char *err, size_t len);
	int (*power_profile)(struct gt_control *c, const char *dev, int index,
	                     int *applied_index, char *err, size_t len);
	int (*freq_limits)(struct gt_control *c, const char *dev,
	                   unsigned min_mhz, unsigned max_mhz,
	                   unsigned *applied_min, unsigned *applied_max,
	                   char *err, size_t len);
	/* The software loop's writes: a speed in percent, and the hand-back
	 * to the firmware (fan_auto is also the "automatic" change). */
	int (*fan_speed)(struct gt_control *c, const char *dev, unsigned fan,
	                 unsigned percent, unsigned *applied_percent, char *err,
	                 size_t len);
	int (*fan_auto)(struct gt_control *c, const char *dev, unsigned fan,
	                char *err, size_t len);
	/* A curve the device's firmware runs itself. */
	int (*fan_curve)(struct gt_control *c, const char *dev,
	                 const struct gt_fancurve *curve,
	                 struct gt_fancurve *applied, char *err, size_t len);

	/* Puts back one action this vendor journaled, checked as a write
	 * is and audited as "restore": 0 or -errno. */
	int (*restore)(struct gt_control *c, const struct gt_restore_action *a);
	/* The version-1 fallback (restore.h): whether a sysfs path with no
	 * vendor is one of the files this vendor writes, by its name. NULL:
	 * the vendor writes no sysfs file. */
	bool (*owns_file)(const char *path);
};

#endif

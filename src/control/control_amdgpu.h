/* SPDX-License-Identifier: MIT */
/*
 * control_amdgpu.h - the AMD writes through sysfs: the setters (which the
 * session reaches through gt_control_amdgpu_ops, control_vendor.h, and the
 * tests call directly) and the performance-level words the dialog and the
 * profiles offer. devdir: <sysfs_root>/class/drm/cardN/device of an amdgpu
 * device (its uevent names the driver and PCI slot). Every setter follows
 * control.h's order and return values.
 */
#ifndef GPUTOP_CONTROL_AMDGPU_H
#define GPUTOP_CONTROL_AMDGPU_H

#include <stddef.h>

#include "control/control.h"
#include "control/control_vendor.h"
#include "control/fancurve.h"

/* The amdgpu vendor: name "amdgpu", the setters below. */
extern const struct gt_control_ops gt_control_amdgpu_ops;

/* The words power_dpm_force_performance_level takes (the kernel's, in
 * amdgpu_pm.c), NULL-terminated: what the setter, the dialog and profiles
 * accept. */
extern const char *const gt_control_amdgpu_perf_levels[];

/* power_dpm_force_performance_level: auto, low, high, manual,
 * profile_standard, profile_min_sclk, profile_min_mclk, profile_peak,
 * profile_exit, perf_determinism (the kernel's words; it refuses those a
 * card cannot do). applied: GT_CONTROL_LEVEL_MAX bytes or more. */
int gt_control_amdgpu_perf_level(struct gt_control *c, const char *devdir,
                                 const char *level, char *applied,
                                 size_t applied_len, char *err, size_t len);
/* pp_power_profile_mode: index must be printed in the card's own table
 * (any of the five layouts) and be 0..9 (the kernel reads one digit).
 * Writes "manual" to the performance level first when it is not. */
int gt_control_amdgpu_power_profile(struct gt_control *c, const char *devdir,
                                    int index, int *applied_index, char *err,
                                    size_t len);
/* hwmon power1_cap in µW within power1_cap_min..power1_cap_max. A min of
 * 0 means the driver does not say: then at least 1 W (the kernel truncates
 * to whole watts, and 0 W is no limit anyone means). */
int gt_control_amdgpu_power_cap(struct gt_control *c, const char *devdir,
                                unsigned long microwatts,
                                unsigned long *applied_uw, char *err,
                                size_t len);
/* pre-RDNA3 hwmon fan: pwm1_enable=1, then pwm1 = percent of pwm1_max
 * (within pwm1_min..pwm1_max). Refused on cards without pwm1_enable
 * (RDNA4) and on cards with the firmware curve (RDNA3+), with the reason.
 * pwm1's original is journaled only when the fan was already manual:
 * otherwise restoring pwm1_enable hands it to the firmware, which ignores
 * pwm1. */
int gt_control_amdgpu_fan_pwm(struct gt_control *c, const char *devdir,
                              unsigned percent, unsigned *applied_percent,
                              char *err, size_t len);
/* Back to the firmware: fan_curve "r" then "c" on RDNA3+ (a no-op when
 * overdrive is off, so the curve cannot have been changed, or when the
 * curve reads all zero, the firmware's own), else pwm1_enable=2. */
int gt_control_amdgpu_fan_auto(struct gt_control *c, const char *devdir,
                               char *err, size_t len);
/* RDNA3+ gpu_od/fan_ctrl/fan_curve: exactly 5 points (hotspot °C, %), a
 * valid curve (gt_fancurve_validate), whole degrees and percent, each
 * within the file's OD_RANGE; written one point a write, then "c". The
 * journal resets to the firmware's default curve (a user curve that was
 * there before gputop is not put back: the journal holds one value). */
int gt_control_amdgpu_fan_curve(struct gt_control *c, const char *devdir,
                                const struct gt_fancurve *curve,
                                struct gt_fancurve *applied, char *err,
                                size_t len);

#endif

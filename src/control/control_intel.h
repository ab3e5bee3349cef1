/* SPDX-License-Identifier: MIT */
/*
 * control_intel.h - the Intel writes through sysfs (i915 and xe): the
 * setters, which the session reaches through gt_control_intel_ops
 * (control_vendor.h) and the tests call directly. devdir:
 * <sysfs_root>/class/drm/cardN/device, as for AMD (and as gt_control_caps
 * gives it in caps->dev). The hwmon and the xe frequency files lie under
 * it. i915 keeps its frequency files in the card directory, which is
 * devdir's parent (<sysfs_root>/class/drm/cardN, whose device link must
 * lead back to devdir): they must resolve inside that card directory,
 * which on a live system lies inside the PCI device's own. Only the render
 * GT (gt0) is changed; a separate media GT keeps its limits. Every setter
 * follows control.h's order and return values.
 */
#ifndef GPUTOP_CONTROL_INTEL_H
#define GPUTOP_CONTROL_INTEL_H

#include <stddef.h>

#include "control/control.h"
#include "control/control_vendor.h"

/* The Intel vendor: name "intel", the setters below. */
extern const struct gt_control_ops gt_control_intel_ops;

/* The sustained power limit (PL1): hwmon powerN_max of the "i915"/"xe"
 * hwmon's card channel (power1_max; the package channel where there is no
 * card channel), µW within 1 W .. the same channel's powerN_rated_max,
 * the TDP that the kernel's ABI documents give as PL1's ceiling and
 * default. A device without a rated max is refused (its range is
 * unknown, and gputop does not guess a ceiling for a power limit). 0
 * (which turns PL1 off) is refused too; a restore puts it back when it was
 * the original. A limit in force that a restore could not put back
 * (outside that range, and not 0) is left alone: refused. applied_uw: the
 * limit read back. */
int gt_control_intel_power_limit(struct gt_control *c, const char *devdir,
                                 unsigned long microwatts,
                                 unsigned long *applied_uw, char *err,
                                 size_t len);
/* The render GT's frequency limits, MHz: i915 gt/gt0/rps_{min,max}_freq_mhz
 * in the card directory (kernels before the per-GT files: the card's
 * gt_{min,max}_freq_mhz), xe tile0/gt0/freq0/{min,max}_freq. Both within
 * the GT's RPn..RP0 as it reports them, min <= max, written in the order
 * that never leaves the minimum above the maximum (i915 refuses such a
 * write). Limits in force outside RPn..RP0 (which a restore could not
 * put back) are left alone: refused. A restore that would cross the other
 * limit's present value puts that limit's original back first. */
int gt_control_intel_freq_limits(struct gt_control *c, const char *devdir,
                                 unsigned min_mhz, unsigned max_mhz,
                                 unsigned *applied_min, unsigned *applied_max,
                                 char *err, size_t len);

#endif

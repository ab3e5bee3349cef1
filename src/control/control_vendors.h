/* SPDX-License-Identifier: MIT */
/*
 * control_vendors.h - the one explicit list of the vendors gputop controls,
 * which the session hands to every control it makes
 * (gt_control_config.vendors).
 */
#ifndef GPUTOP_CONTROL_VENDORS_H
#define GPUTOP_CONTROL_VENDORS_H

#include "control/control_vendor.h"

/* NVML, amdgpu, Intel; NULL-terminated. A sysfs record of a version-1
 * state file goes to the first of them whose owns_file claims it. */
extern const struct gt_control_ops *const gt_control_vendors[];

#endif

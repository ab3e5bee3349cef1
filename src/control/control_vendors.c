/* SPDX-License-Identifier: MIT */
/*
 * control_vendors.c - the one explicit list of control vendors. A new
 * vendor is added here and nowhere else: its ops are defined in its own
 * file (control_nvml.c, control_amdgpu.c, control_intel.c).
 */
#include "control/control_vendors.h"

#include <stddef.h>

#include "control/control_amdgpu.h"
#include "control/control_intel.h"
#include "control/control_nvml.h"

const struct gt_control_ops *const gt_control_vendors[] = {
    &gt_control_nvml_ops,
    &gt_control_amdgpu_ops,
    &gt_control_intel_ops,
    NULL,
};

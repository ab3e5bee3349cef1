/* SPDX-License-Identifier: MIT */
/*
 * control_nvml.h - the NVIDIA writes through NVML: the setters, which the
 * session reaches through gt_control_nvml_ops (control_vendor.h) and the
 * tests call directly. pci_id: "0000:01:00.0" or NVML's
 * "00000000:01:00.0"; mW and percent as NVML counts them. Every setter
 * follows control.h's order and return values.
 */
#ifndef GPUTOP_CONTROL_NVML_H
#define GPUTOP_CONTROL_NVML_H

#include <stddef.h>

#include "control/control.h"
#include "control/control_vendor.h"

/* The NVML vendor: name "nvml", the setters below. */
extern const struct gt_control_ops gt_control_nvml_ops;

/* Range from nvmlDeviceGetPowerManagementLimitConstraints; set with
 * nvmlDeviceSetPowerManagementLimit_v2 (version 0x0200000C, GPU scope),
 * or the v1 call where the library lacks v2 or refuses its version.
 * applied_mw: the enforced limit (which out-of-band caps can lower), else
 * the requested one. */
int gt_control_nvml_power_limit(struct gt_control *c, const char *pci_id,
                                unsigned mw, unsigned *applied_mw, char *err,
                                size_t len);
/* nvmlDeviceSetFanSpeed_v2 (which switches the fan to manual). A speed
 * outside nvmlDeviceGetMinMaxFanSpeed is refused, not clamped: the curve
 * loop clamps before it calls. The journal hands the fan back to auto. */
int gt_control_nvml_fan_speed(struct gt_control *c, const char *pci_id,
                              unsigned fan, unsigned percent,
                              unsigned *applied_percent, char *err, size_t len);
/* nvmlDeviceSetDefaultFanSpeed_v2: back to the vBIOS curve. */
int gt_control_nvml_fan_auto(struct gt_control *c, const char *pci_id,
                             unsigned fan, char *err, size_t len);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * profile_plan.h - owns a profile's plan: which control changes one gpu
 * block of a profile (profile.h) asks of one device, given what the device
 * can do and what is in force now (control/control_caps.h). Pure: it reads the
 * block and the capabilities and writes nothing to any device; the front
 * ends apply the changes it returns through a control session.
 */
#ifndef GPUTOP_PROFILE_PLAN_H
#define GPUTOP_PROFILE_PLAN_H

#include <stddef.h>

#include "config/profile.h"
#include "control/control_caps.h"
#include "control/control_session.h"

/* The changes one gpu block asks of one device, in the order they are
 * applied, leaving out what is already in force. Returns the number, or
 * -1 with err when the block cannot be applied to this device (a setting
 * it lacks, an unknown power profile name, a level that contradicts the
 * profile). */
int gt_profile_plan_changes(const struct gt_profile_entry *e,
                            const struct gt_control_caps *caps, size_t device,
                            struct gt_control_change *out, size_t max,
                            char *err, size_t len);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * profile_plan.h - owns a profile's plan: which control changes one gpu
 * block of a profile (profile.h) asks of one device, given what the device
 * can do and what is in force now (control/control_caps.h). Pure: it reads the
 * block and the capabilities and writes nothing to any device; the front
 * ends apply the changes it returns through a control session. It also
 * names the blocks that match no GPU, which a front end refuses.
 */
#ifndef GPUTOP_PROFILE_PLAN_H
#define GPUTOP_PROFILE_PLAN_H

#include <stddef.h>

#include "config/profile.h"
#include "control/control_caps.h"
#include "control/control_session.h"
#include "core/model.h"

/* The changes one gpu block asks of one device, in the order they are
 * applied, leaving out what is already in force. Returns the number, or
 * -1 with err when the block cannot be applied to this device (a setting
 * it lacks, an unknown power profile name, a level that contradicts the
 * profile). */
int gt_profile_plan_changes(const struct gt_profile_entry *e,
                            const struct gt_control_caps *caps, size_t device,
                            struct gt_control_change *out, size_t max,
                            char *err, size_t len);

/* The gpu blocks of p that none of the n GPUs devs[] takes, as "gpu = X"
 * joined by ", " into buf (cut, never overrun, when short): a block naming
 * a PCI id no GPU here has, and, when there is no GPU at all, a "*" block
 * too ("*" is every GPU without a block of its own, which may rightly be
 * none while others are here). Returns how many, 0 with buf "" when each
 * block has its GPU. A profile with such a block is not applied: the
 * settings it gives would go nowhere while --apply said they were in
 * force, the usual sign of a mistyped PCI id. */
size_t gt_profile_plan_unmatched(const struct gt_profile *p,
                                 const struct gt_static *devs, size_t n,
                                 char *buf, size_t len);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * headless.h - control without the dashboard: `gputop --restore`,
 * `gputop --apply PROFILE` and `--apply PROFILE --daemon`. What a
 * profile's gpu block asks of a device is config/profile_plan.h's.
 */
#ifndef GPUTOP_HEADLESS_H
#define GPUTOP_HEADLESS_H

#include <signal.h>
#include <stddef.h>

#include "cli.h"
#include "core/collector.h"
#include "control/control_session.h"

/* Paths of the state file and audit log for the command line (--state-dir
 * or the defaults), filled into cfg with the other options. The buffers
 * must outlive cfg. */
void gt_headless_session_config(const struct gt_cli *cli,
                                struct gt_control_session_config *cfg,
                                char *state, char *audit, size_t len);

int gt_headless_restore(const struct gt_cli *cli);
/* The collector is open (not started); stop is the signal flag, and
 * exit_at_once the flag that lets a stop signal end the process at once,
 * which is cleared right before the first write. */
int gt_headless_apply(struct gt_collector *c, const struct gt_cli *cli,
                      volatile sig_atomic_t *stop,
                      volatile sig_atomic_t *exit_at_once);

#endif

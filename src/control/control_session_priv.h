/* SPDX-License-Identifier: MIT */
/*
 * control_session_priv.h - shared by the control session's two files:
 * control_session.c (its life, the guardian, a change through the ops of
 * the device's vendor, the restore) and control_session_loop.c (the
 * software fan loops). Not for other modules: they use control_session.h.
 */
#ifndef GPUTOP_CONTROL_SESSION_PRIV_H
#define GPUTOP_CONTROL_SESSION_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collectors/nvml_api.h"
#include "control/control_session.h"
#include "control/control_vendor.h"

#define LOOP_PERIOD_NS 1000000000ull /* fan loops and heartbeats: 1 s */

struct session_loop {
	bool active;
	const struct gt_control_ops *ops; /* the device's vendor's */
	char dev[GT_RESTORE_PATH_MAX];
	unsigned fan_mask, fan_count;
	int64_t panic_mc;
	struct gt_fancurve curve;
	/* Per fan where the vendor drives each (fan_per_index), else fl[0]. */
	struct gt_fanloop fl[GT_MAX_FANS];
	struct gt_control_loop_status st;
	uint64_t last_seq;
	bool have_seq;
};

struct gt_control_session {
	pthread_mutex_t lock;
	struct gt_control_session_config cfg;
	char nvml_lib[GT_RESTORE_PATH_MAX];
	char sysfs_root[GT_RESTORE_PATH_MAX];
	char state_path[GT_RESTORE_PATH_MAX];
	char audit_path[GT_RESTORE_PATH_MAX];
	char guardian_log[GT_RESTORE_PATH_MAX + 16];
	struct gt_nvml_api api;
	bool api_ready;
	struct gt_control *ctl;
	struct gt_guardian *guardian;
	struct gt_collector *col;
	struct session_loop *loops; /* by device index */
	size_t nloops;
	char notice[GT_CONTROL_RESULT_MAX + 32];
	bool changed;
};

/* ---- control_session.c */

/* res refused (nothing written) with the reason. */
__attribute__((format(printf, 2, 3))) void
gt_control_session_refuse(struct gt_control_result *res, const char *fmt, ...);

/* ---- control_session_loop.c (the lock is held for each) */

/* The loop state of device (grown on demand), or NULL without memory. */
struct session_loop *gt_control_session_loop(struct gt_control_session *s,
                                             size_t device);
/* Starts the software curve ch asks for through ops' fan_speed and
 * fan_auto, and takes its first step at once; res says how it went. */
void gt_control_session_loop_start(struct gt_control_session *s,
                                   const struct gt_control_ops *ops,
                                   const struct gt_control_change *ch,
                                   struct gt_control_result *res);
/* Stops device's loop (its fans stay where they are) and forgets a
 * firmware curve's mark. */
void gt_control_session_loop_stop(struct gt_control_session *s, size_t device);
/* One step of every active loop with the newest samples of c. */
void gt_control_session_loops_tick(struct gt_control_session *s,
                                   struct gt_collector *c, uint64_t now_ns);

#endif

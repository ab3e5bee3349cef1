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
#include <stdatomic.h>
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
	/* Held for every call into the control and the drivers (taken
	 * through gt_control_session_lock, never directly): a write that
	 * does not return holds it for ever. */
	pthread_mutex_t lock;
	/* When the holder of lock took it (monotonic ns; 0: free), so that
	 * the dashboard's readers and the tick stop waiting for a holder
	 * that is stuck in a driver. */
	_Atomic uint64_t busy_since;
	/* Jobs given up on while they held or waited for lock (see
	 * gt_control_task_abandon): while non-zero, lock may never come
	 * free, and everything that needs it answers at once instead. */
	atomic_int stuck;
	/* Copies kept for readers that must not wait for lock: the
	 * journal's length and whether anything was written; under pub_lock
	 * (never held long, taken after lock when both are) the notice and
	 * the journal as last saved (before each write too, so a write that
	 * never came back shows as changed). */
	_Atomic size_t npending;
	atomic_bool changed_pub;
	pthread_mutex_t pub_lock;
	char pub_notice[GT_CONTROL_RESULT_MAX + 96];
	/* pub_notice holds a notice not yet taken: the dashboard looks at
	 * this each frame, and takes the lock only when it is set. */
	atomic_bool notice_pub;
	/* No loop runs and no guardian waits for a heartbeat: the
	 * collector's tick has nothing to do and takes no lock. Set at each
	 * unlock, from what the locked section left. */
	atomic_bool tick_idle;
	struct gt_restore_journal pub_journal;
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
	/* The collector held off by gt_control_session_apply until the
	 * guardian is forked (then resumed at once, before the write). */
	struct gt_collector *quiesced;
	struct session_loop *loops; /* by device index */
	size_t nloops;
	char notice[GT_CONTROL_RESULT_MAX + 32];
	bool changed;
};

/* ---- control_session.c */

/* Takes lock for a write: waits while another holds it, unless a job was
 * given up on (then false at once). */
bool gt_control_session_lock(struct gt_control_session *s);
/* Takes lock for a reader that must not wait long (the dashboard's
 * thread, the collector's tick): false when a job was given up on, when
 * the holder has had it for more than 200 ms (a driver that does not
 * answer), or when c (may be NULL) is stopping. */
bool gt_control_session_lock_quick(struct gt_control_session *s,
                                   struct gt_collector *c);
/* Publishes the copies above and the notice, then releases lock. */
void gt_control_session_unlock(struct gt_control_session *s);
/* Copies j into pub_journal (lock held). */
void gt_control_session_publish_journal(struct gt_control_session *s,
                                        const struct gt_restore_journal *j);
/* Why a call was refused while a job is stuck. */
extern const char gt_control_session_stuck_why[];
/* The tick hook's body with the lock held: loops, then heartbeat. */
void gt_control_session_tick_locked(struct gt_control_session *s,
                                    struct gt_collector *c, uint64_t now_ns);

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

/* SPDX-License-Identifier: MIT */
/*
 * control_session.h - one control session: the control layer (control.h)
 * with the vendors of control_vendors.c, the guardian that restores if
 * gputop dies or hangs (guardian.h) and the software fan loops
 * (fancurve.h), behind one lock, so that the dashboard's dialogs (UI
 * thread), the fan loops (collector thread, through the tick hook) and the
 * exit paths share them safely.
 *
 * A change is described before it is made (gt_control_change_describe: the
 * exact files and values, or the NVML calls), applied with read-back
 * (gt_control_session_apply), and undone by applying the change that puts the
 * previous value back (gt_control_change_revert_of). Everything gputop changed
 * is restored by gt_control_session_restore_all on every orderly exit; the
 * guardian covers the others.
 */
#ifndef GPUTOP_CONTROL_SESSION_H
#define GPUTOP_CONTROL_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "control/bounded.h"
#include "control/control.h"
#include "control/control_caps.h"
#include "control/fancurve.h"

struct gt_collector;
struct gt_control_session; /* opaque */

struct gt_control_session_config {
	const char *nvml_lib;   /* NULL: libnvidia-ml.so.1; loaded lazily */
	bool no_nvml;           /* demo or no NVIDIA backend: never load */
	const char *sysfs_root; /* NULL: /sys */
	const char *state_path; /* NULL: gt_restore_default_path() */
	const char *audit_path; /* NULL: audit.log beside the state file */
	enum gt_control_priv privileged;
	bool syslog;                  /* audit lines to syslog too (daemon) */
	uint64_t guardian_timeout_ns; /* 0: GT_GUARDIAN_TIMEOUT_NS */
};

enum gt_control_change_kind {
	GT_CHANGE_POWER_LIMIT, /* value: mW (NVIDIA) or µW (AMD cap, Intel) */
	GT_CHANGE_PERF_LEVEL,  /* text: AMD performance level */
	GT_CHANGE_POWER_PROFILE, /* value: AMD pp_power_profile_mode index */
	GT_CHANGE_FREQ_LIMITS,   /* value: min MHz, value2: max MHz (Intel) */
	GT_CHANGE_FAN_AUTO,      /* fans back to the firmware */
	GT_CHANGE_FAN_CURVE,     /* curve (loop or firmware, by fan_method) */
};

struct gt_control_change {
	enum gt_control_change_kind kind;
	enum gt_vendor vendor;
	size_t device;                 /* the collector's device index */
	char dev[GT_RESTORE_PATH_MAX]; /* caps.dev: what the setters take */
	enum gt_fan_method fan_method; /* fan kinds: caps.fan_method */
	int64_t value, value2;
	char text[GT_CAPS_NAME_MAX];
	unsigned fan_mask; /* NVML fans driven (bit n = fan n); 0 = all */
	unsigned fan_count;
	struct gt_fancurve curve;
	struct gt_fanloop_config loop;
};

#define GT_CONTROL_RESULT_MAX 256

struct gt_control_result {
	int rc; /* GT_CONTROL_OK / _REFUSED / _FAILED */
	char err[GT_CONTROL_RESULT_MAX];
	char asked[GT_CONTROL_RESULT_MAX];   /* what was asked, in words */
	char applied[GT_CONTROL_RESULT_MAX]; /* what the device reports now */
	bool differs;                        /* applied is not what was asked */
};

/* The loop of one device, for the fan dialog. */
struct gt_control_loop_status {
	bool active;
	bool firmware;   /* an AMD firmware curve set by gputop (no loop) */
	int64_t temp_mc; /* the reading the loop last used */
	int32_t target_cpercent;  /* the curve's answer; -1 below it */
	int32_t applied_cpercent; /* in force; -1 = firmware */
	enum gt_fan_reason reason;
	struct gt_fancurve curve;
};

/* The session opens no library and writes nothing until the first change.
 * An existing state file is loaded (gt_control_session_pending then counts its
 * actions): NULL with err when it cannot be (corrupt, refused). */
struct gt_control_session *
gt_control_session_new(const struct gt_control_session_config *cfg, char *err,
                       size_t len);
/* Frees without restoring: call gt_control_session_restore_all first. Without
 * it, the guardian (if any) restores, as if gputop had died. */
void gt_control_session_free(struct gt_control_session *s);

/* Installs the fan-loop hook on the collector (and caps its sleep at 1 s
 * while a loop or the guardian runs); detach before closing it. */
void gt_control_session_attach(struct gt_control_session *s,
                               struct gt_collector *c);
void gt_control_session_detach(struct gt_control_session *s);

/* "" when changes can be made; else why not and what to do. */
const char *gt_control_session_readonly_reason(struct gt_control_session *s);
/* Actions to restore (from a state file of an earlier run, or changes
 * made now). */
size_t gt_control_session_pending(struct gt_control_session *s);
const char *gt_control_session_state_path(struct gt_control_session *s);
/* Read-only: the journal's records of the device with PCI bus id dev (what
 * gputop changed there and will put back, each with its original value),
 * in the order noted. Copies up to max into out and returns how many
 * there are. For the dashboard's "changed by gputop" badge. */
size_t gt_control_session_changes(struct gt_control_session *s, const char *dev,
                                  struct gt_restore_action *out, size_t max);

int gt_control_session_caps(struct gt_control_session *s,
                            const struct gt_static *st,
                            struct gt_control_caps *caps);

/* control_change.c. The NVML fans a change concerns (fan_count, at least 1 and
 * at most GT_MAX_FANS), and whether it drives fan f (fan_mask 0: all). */
unsigned gt_control_change_fans(const struct gt_control_change *ch);
bool gt_control_change_drives_fan(const struct gt_control_change *ch,
                                  unsigned fan);

/* The exact writes the change makes, one per line ("FILE <- VALUE" or
 * "nvmlCall(args)"), into out. Returns the number of lines. */
size_t gt_control_change_describe(const struct gt_control_caps *caps,
                                  const struct gt_control_change *ch, char *out,
                                  size_t len);
/* The change that puts back what caps says is in force now (the revert of
 * ch). -1 when it cannot be known (then revert means fans to automatic
 * and the restore journal's originals). */
int gt_control_change_revert_of(const struct gt_control_caps *caps,
                                const struct gt_control_change *ch,
                                struct gt_control_change *out);

/* Makes the change (a software curve: starts the loop and takes its first
 * step at once) and reads it back. Returns res->rc. */
int gt_control_session_apply(struct gt_control_session *s,
                             const struct gt_control_change *ch,
                             struct gt_control_result *res);

/* Applies ch[0..n) in order, stopping at the first that fails; the ones
 * applied before it are reverted at once (rev[i] where rev_known[i], else
 * their fans back to automatic). res[i] for each attempted change. Returns
 * the number of results written. */
size_t gt_control_session_apply_list(struct gt_control_session *s,
                                     const struct gt_control_change *ch,
                                     const struct gt_control_change *rev,
                                     const bool *rev_known, size_t n,
                                     struct gt_control_result *res);
/* Puts back what the changes replaced, last first: rev[i] where known;
 * where not, res[i] says the original comes back when gputop exits.
 * Returns n. */
size_t gt_control_session_revert_list(struct gt_control_session *s,
                                      const struct gt_control_change *rev,
                                      const bool *rev_known, size_t n,
                                      struct gt_control_result *res);
/* True once this session has written anything (so exit must restore). */
bool gt_control_session_changed(struct gt_control_session *s);

void gt_control_session_loop_status(struct gt_control_session *s, size_t device,
                                    struct gt_control_loop_status *out);

/* A one-line notice from the collector thread's side (the guardian gone,
 * a loop's panic hand-back), "" if none; reading clears it. */
void gt_control_session_take_notice(struct gt_control_session *s, char *out,
                                    size_t len);

/* Stops every loop and restores every journaled original (last change
 * first), then tells the guardian it is done. 0 when all restored (or
 * nothing to do), else the number of failures (report says which), or
 * -1 when refused (report says why). */
int gt_control_session_restore_all(struct gt_control_session *s, char *report,
                                   size_t len);

/* Leaves every change in force for good: loops stop (their fans stay
 * where they are), the journal and state file are dropped, the guardian
 * leaves without acting. For `--apply` without --daemon. 0 or -1. */
int gt_control_session_release(struct gt_control_session *s);

/* One step of every loop with the newest samples: the tick hook's body
 * (public for tests that drive it without a running collector thread).
 * While a loop runs, its writes are a job (below) the collector's thread
 * waits for at most GT_BOUNDED_WRITE_TIMEOUT_NS, and no longer than
 * GT_BOUNDED_STOP_GRACE_NS once the collector is stopping. */
void gt_control_session_tick(struct gt_control_session *s,
                             struct gt_collector *c, uint64_t now_ns);

/* ---- Jobs: every write on a thread of its own (bounded.h), so that a
 * driver that does not answer holds no caller: the dialogs, --apply,
 * --restore, the exit's restore and the fan loops all go through them. */

#define GT_CONTROL_JOB_MAX    4
#define GT_CONTROL_REPORT_MAX 4096

enum gt_control_job_kind {
	GT_CONTROL_JOB_APPLY,      /* gt_control_session_apply(ch[0]) */
	GT_CONTROL_JOB_APPLY_LIST, /* gt_control_session_apply_list */
	GT_CONTROL_JOB_REVERT,     /* gt_control_session_revert_list */
	GT_CONTROL_JOB_RESTORE,    /* gt_control_session_restore_all */
	GT_CONTROL_JOB_TICK,       /* the fan loops' step (col, now_ns) */
};

struct gt_control_job {
	enum gt_control_job_kind kind;
	size_t n;
	struct gt_control_change ch[GT_CONTROL_JOB_MAX];
	struct gt_control_change rev[GT_CONTROL_JOB_MAX];
	bool rev_known[GT_CONTROL_JOB_MAX];
	struct gt_collector *col;
	uint64_t now_ns;
	/* What happened: a result per change attempted, or the restore's
	 * status (as gt_control_session_restore_all's) and report. */
	size_t nres;
	struct gt_control_result res[GT_CONTROL_JOB_MAX];
	int rc;
	char report[GT_CONTROL_REPORT_MAX];
};

struct gt_control_task; /* a job in flight */

/* Starts a copy of job on a thread of its own; NULL without memory. (Where
 * no thread can be made, the job has run here by the time it returns.) */
struct gt_control_task *
gt_control_session_start(struct gt_control_session *s,
                         const struct gt_control_job *job);
/* As gt_bounded_wait: true once the job is done. */
bool gt_control_task_wait(struct gt_control_task *t, uint64_t deadline_ns,
                          gt_bounded_stop_fn *stop, void *ctx);
bool gt_control_task_done(struct gt_control_task *t);
/* A done job: its results into out (may be NULL); frees t. */
void gt_control_task_finish(struct gt_control_task *t,
                            struct gt_control_job *out);
/* Gives up on a job that is not done: it finishes by itself, if ever.
 * Until it does, the session is stuck (gt_control_session_stuck). True
 * when it was done after all (then t is finished into out). */
bool gt_control_task_abandon(struct gt_control_task *t,
                             struct gt_control_job *out);
/* Start, wait (timeout_ns, the stop rule of gt_bounded_wait), finish: 0
 * with the results in job, or -1 when the job did not come back (it is
 * abandoned; job's results are not filled). */
int gt_control_session_run(struct gt_control_session *s,
                           struct gt_control_job *job, uint64_t timeout_ns,
                           gt_bounded_stop_fn *stop, void *ctx);
/* True while a job given up on has not come back: its write may or may
 * not have changed the setting (its original stays in the journal, the
 * state file and the guardian's hands). Everything that would wait for
 * it answers at once: writes are refused, readers show nothing, and
 * gt_control_session_free leaves the session to that job (the process is
 * ending; the guardian restores when its connection closes). */
bool gt_control_session_stuck(struct gt_control_session *s);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * control.h - gputop's control layer: the control object, which holds
 * the restore journal, the audit log and the vendors it is handed, with no
 * UI. The few writes gputop makes to a GPU (NVIDIA power limit and fans
 * through NVML; AMD performance level, power profile, power cap, hwmon fan
 * and the RDNA3+ firmware fan curve, Intel power and frequency limits,
 * through sysfs) are each vendor's, behind struct gt_control_ops
 * (control_vendor.h; the setters in control_nvml.h, control_amdgpu.h and
 * control_intel.h). Every setter follows the same order, so that a
 * refusal never leaves anything half done:
 *
 *   1. privileges: without root, refuse up front and call nothing;
 *   2. validate: the device, the target file (a known leaf that resolves
 *      inside the device's own directory) and the value against the
 *      device's own range;
 *   3. open the audit log (refuse if it cannot be written);
 *   4. note each original in the restore journal and save the state file
 *      (refuse if it cannot be saved: a change gputop could not undo after
 *      a power loss is not made);
 *   5. write, appending one audit line per write;
 *   6. read the value back and report what the device applied.
 *
 * A value already in force is not written (and not journaled): pure
 * monitoring, and a dialog confirmed without a change, write nothing.
 *
 * Return values: GT_CONTROL_OK (0), GT_CONTROL_REFUSED (-1: nothing was
 * written, err says why and what to do) or GT_CONTROL_FAILED (-2: the
 * device rejected a write; writes made before it in the same call are in
 * the journal, so gt_control_restore_all undoes them). On GT_CONTROL_OK
 * err is "" unless the read-back failed (then it says so and the applied
 * value is GT_CONTROL_UNREAD, -1 or "", by type).
 *
 * Not thread-safe: callers serialise (the fan loop and the dialogs share
 * one struct gt_control under one lock).
 *
 * The folder src/control/ is everything that writes to a GPU: this
 * vendor-neutral core (the control object, the restore journal and state
 * file, the audit log, the guardian, the fan-curve engine, the session,
 * capabilities, the change preview) and one setter family per vendor
 * behind control_vendor.h. It includes core, linux and collectors, never
 * config, export or ui.
 */
#ifndef GPUTOP_CONTROL_H
#define GPUTOP_CONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "control/restore.h"
#include "core/model.h"

struct gt_nvml_api;
struct gt_control;     /* opaque */
struct gt_control_ops; /* a vendor's setters and restore (control_vendor.h) */

enum {
	GT_CONTROL_OK = 0,
	GT_CONTROL_REFUSED = -1,
	GT_CONTROL_FAILED = -2,
};

#define GT_CONTROL_UNREAD    UINT32_MAX /* an unsigned read-back that failed */
#define GT_CONTROL_LEVEL_MAX 32 /* performance-level word, NUL included */

enum gt_control_priv {
	GT_CONTROL_PRIV_AUTO = 0, /* geteuid() == 0 */
	GT_CONTROL_PRIV_YES,      /* tests: act as root */
	GT_CONTROL_PRIV_NO,       /* tests: act as a user */
};

/* Writes value (no newline; the writer adds one, as `echo` does) to path
 * in one write(). 0 or -errno. */
typedef int (*gt_control_write_fn)(void *ctx, const char *path,
                                   const char *value);

/* Everything zero gives the defaults. */
struct gt_control_config {
	/* A loaded library on which nvmlInit succeeded, or NULL (no NVIDIA
	 * control). Not owned: it must outlive the control. */
	const struct gt_nvml_api *nvml;
	const char *sysfs_root; /* NULL: "/sys"; AMD device dirs lie under it */
	const char *state_path; /* NULL: gt_restore_default_path() */
	const char *audit_path; /* NULL: audit.log beside the state file */
	enum gt_control_priv privileged;
	bool syslog;       /* audit lines also to syslog (daemon mode) */
	time_t fixed_time; /* 0: the clock; else every timestamp (tests) */
	/* A fan loop's writes are summarised in the audit log: its first
	 * write, then at most one line per this many seconds (0: 60), then
	 * its end (gt_control_audit_loop). */
	unsigned audit_loop_period_s;
	/* The vendors whose setters and restores this control uses,
	 * NULL-terminated: gt_control_vendors (control_vendors.h), or a
	 * test's own. NULL: none (nothing can be read, set or restored). */
	const struct gt_control_ops *const *vendors;
	/* NULL: gt_control_write_file. Tests emulate the kernel here. */
	gt_control_write_fn write;
	void *write_ctx;
	/* Called after every save of the state file, before the write it
	 * protects: starts the guardian the first time, then hands it each
	 * new journal (gt_guardian_start / gt_guardian_update). Returning -1
	 * (reason in err) refuses the write: nothing is written. */
	int (*journal_saved)(void *ctx, const struct gt_restore_journal *j,
	                     char *err, size_t len);
	void *journal_ctx;
};

/* Creates the control. An existing state file (gputop died before it could
 * restore) is loaded, so its originals are kept and never overwritten by
 * gputop's own leftovers; gt_control_pending() tells the UI to offer the
 * restore. A state file that cannot be loaded (refused, corrupt) is an
 * error: NULL with err, since saving over it would lose the originals. */
struct gt_control *gt_control_new(const struct gt_control_config *cfg,
                                  char *err, size_t len);
void gt_control_free(struct gt_control *c);

bool gt_control_privileged(const struct gt_control *c);
/* Why every setter will refuse ("" when control is possible): for the
 * read-only dialogs. */
const char *gt_control_readonly_reason(const struct gt_control *c);
/* Actions in the journal (loaded at start or noted since). */
size_t gt_control_pending(const struct gt_control *c);
const struct gt_restore_journal *gt_control_journal(const struct gt_control *c);
const char *gt_control_state_path(const struct gt_control *c);

/* The ops of vendor v among the control's vendors (cfg.vendors), or NULL
 * when gputop controls no such GPU: the session's and the capability
 * reader's way to the setters (control_vendor.h). */
const struct gt_control_ops *gt_control_vendor_ops(const struct gt_control *c,
                                                   enum gt_vendor v);

/* ---- Restore */

/* Loads the state file into the journal (for `gputop --restore` when the
 * control was made before the file appeared). 0, or -1 with err; a missing
 * file is 0 with nothing loaded. */
int gt_control_load_state(struct gt_control *c, char *err, size_t len);
/* Restores everything journaled, last change first, through
 * gt_restore_apply with gt_control_restore_ops: each action by the ops of
 * the vendor it records (each restore is validated as a write is, and
 * audited). Returns the number of failures (report has a
 * line per action); on 0 the state file is removed and the journal
 * emptied. -1 with report = the reason when refused before anything is
 * restored: no root, or an audit log that cannot be opened (as for a
 * write, step 3 above); the journal and the state file are kept. */
int gt_control_restore_all(struct gt_control *c, char *report, size_t len);
/* Keeps the settings as they are now: empties the journal and removes the
 * state file, so nothing is restored later (`--apply` without --daemon:
 * the user asked for the change to stay). 0, or -1 with errno. */
int gt_control_forget(struct gt_control *c);
/* The restore callback, for the guardian process too (ctx = c): the
 * action's vendor's restore (gt_control_ops.restore). An action without a
 * vendor (a sysfs record of a version-1 state file) goes to the first
 * vendor whose owns_file claims its path; one that no vendor takes is
 * refused (audited, -EPERM). */
void gt_control_restore_ops(struct gt_control *c, struct gt_restore_ops *ops);

/* The real sysfs writer: open(O_WRONLY|O_TRUNC|O_NOFOLLOW|O_NONBLOCK), a
 * regular file only, value plus "\n" in one write(). 0 or -errno. */
int gt_control_write_file(const char *path, const char *value);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * control_priv.h - what control.c (which owns struct gt_control) lends the
 * vendors' setters (control_nvml.c, control_amdgpu*.c, control_intel.c),
 * the vendor-neutral sysfs write (control_sysfs.c) and the capability
 * reader (control_caps.c): the clock, the refusals, the last checks before
 * a first write, the audit log and the configured writer. Not for the
 * layers above: they use control.h.
 */
#ifndef GPUTOP_CONTROL_PRIV_H
#define GPUTOP_CONTROL_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "control/control.h"

const struct gt_nvml_api *gt_control_nvml_api(const struct gt_control *c);
const char *gt_control_sysfs_root(const struct gt_control *c);
int64_t gt_control_now(const struct gt_control *c);
/* printf into err (if any); returns GT_CONTROL_REFUSED. */
__attribute__((format(printf, 3, 4))) int
gt_control_refuse(char *err, size_t len, const char *fmt, ...);
/* Refusal for a setting without root: fills err, returns -1. */
int gt_control_refuse_unprivileged(const struct gt_control *c, const char *what,
                                   char *err, size_t len);
/* The last checks before a setter's first write: the audit log can be
 * written, then the actions (in order) are noted and, if any is new, the
 * state file is saved and handed on (journal_saved). On failure err says
 * why and nothing may be written; the notes stay only if the state file
 * already holds them (restoring them rewrites the same values). 0 or -1. */
int gt_control_prepare(struct gt_control *c, const struct gt_restore_action *a,
                       size_t n, char *err, size_t len);
/* After a prepare whose write the device refused, so that nothing
 * changed: the originals that prepare noted are forgotten again (the state
 * file saved without them, or removed when nothing else is in force),
 * except those gt_control_wrote marked written. Only for a refusal that
 * certainly changed nothing; a write that may have half happened keeps
 * its original journaled. 0 or -1 (errno). */
int gt_control_withdraw(struct gt_control *c);
/* Whether a failed sysfs write's errno (either sign) means the file was
 * not changed: the open was refused (EACCES, EPERM, ENOENT, EISDIR,
 * ENOTDIR, ELOOP, EROFS, ENXIO), gputop's own check refused it (EXDEV),
 * or the driver rejected the value (EINVAL, EIO). */
bool gt_control_errno_unchanged(int e);
/* After a setter's sysfs write to path (rc: 0 or -errno): a success marks
 * the last prepare's action for path written; a refusal that changed
 * nothing withdraws the prepare's unwritten actions (setters stop at
 * their first failure, so none of them will be written); any other
 * failure may have half happened and keeps every one. */
void gt_control_wrote(struct gt_control *c, const char *path, int rc);
/* After a successful write: when it put the journaled original back (see
 * gt_restore_settle), the setting leaves the journal and the state file
 * is saved without it, or removed when nothing else is in force. So a
 * revert leaves nothing for the exit to write again. 0 or -1. */
int gt_control_settle(struct gt_control *c,
                      const struct gt_restore_action *now);
#define GT_CONTROL_AUDIT_LINE_MAX 1600
/* Bytes the audit log may reach before it is moved to audit.log.1. */
#define GT_CONTROL_AUDIT_MAX (4 * 1024 * 1024)
/* Appends "TIME KIND DEV SETTING old="OLD" new="NEW" RESULT" (KIND: write
 * or restore; TIME: UTC, ISO 8601; values quoted with C escapes). Inside
 * a fan loop (gt_control_audit_loop) a setting's writes after its first
 * are summarised: "TIME fan-loop DEV SETTING running: N writes in S s, min
 * A max B last "V"" at most once a period, "... ended: ..." at its end; a
 * failed write still gets its own line. */
void gt_control_audit(struct gt_control *c, const char *kind, const char *dev,
                      const char *setting, const char *old,
                      const char *new_value, const char *result);
/* Marks the writes that follow as fan loop loop's (any number but 0, the
 * same for one loop's life: the session uses its device index + 1), or
 * as no loop's (0). */
void gt_control_audit_loop(struct gt_control *c, unsigned loop);
/* Loop loop ended: the last line of each of its runs. */
void gt_control_audit_loop_end(struct gt_control *c, unsigned loop);
/* Through the configured writer (or gt_control_write_file). */
int gt_control_write_value(struct gt_control *c, const char *path,
                           const char *value);

#endif

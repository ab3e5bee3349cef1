/* SPDX-License-Identifier: MIT */
/*
 * restore.h - the restore journal: every setting gputop changed, with its
 * ORIGINAL value, and how to put it back. It is noted before the first
 * write, saved atomically to a state file, handed to the guardian process,
 * and applied on every exit path (normal quit, signals, the guardian after
 * a kill or hang, `gputop --restore` after a power loss). This module owns
 * the list, its text format and the order of the restore; the actual
 * writes are a callback's (struct gt_restore_ops), so it touches no
 * hardware.
 *
 * State file format (version 2), UTF-8 text, one record a line:
 *
 *   # comment lines and blank lines are ignored
 *   gputop-restore 2                   first record: magic, version
 *   sysfs vendor=N dev=D time=T path=P value=V
 *                                      write V back to file P
 *   nvml-fan-auto vendor=nvml dev=D time=T fan=F
 *                                      nvmlDeviceSetDefaultFanSpeed_v2
 *   nvml-power-limit vendor=nvml dev=D time=T mw=W
 *                                      set the power limit back to W
 *   amd-fan-curve-reset vendor=amdgpu dev=D time=T path=P
 *                                      'r' + 'c' to P's fan_curve
 *   end K                              last record: K actions above
 *
 * Fields appear exactly in that order, separated by a space. N is the
 * vendor whose control code made the change and restores it (struct
 * gt_control_ops's name: lower-case letters and digits, at most
 * GT_RESTORE_VENDOR_MAX - 1); the nvml-* and amd-* records can only be
 * that vendor's. D is the device's PCI bus id (hex digits, ':' and '.'), T
 * the wall-clock second (Unix time) the original was noted, F, W and K
 * decimal. P and V are %-escaped: every byte that is not printable ASCII,
 * and ' ', '%', is written as %XX, so no value can split a line or a
 * field. Decoded, P must be an absolute path under the sysfs root with no
 * "..", and neither P nor V may hold a control character: a journal that
 * contains one is refused when noted, saved or loaded. Actions are listed
 * in the order noted; the restore runs in reverse. A file without its
 * "end" line (truncated) is refused whole.
 *
 * Version 1 (gputop before the vendor field) is the same without
 * " vendor=N", and still loads: its nvml-* records are NVIDIA's, its
 * amd-fan-curve-reset records AMD's, and its sysfs records are left
 * without a vendor (""), for the control to offer each path to the sysfs
 * vendors in turn (struct gt_control_ops.owns_file). Only version 2 is
 * written, so a record without a vendor cannot be saved.
 */
#ifndef GPUTOP_RESTORE_H
#define GPUTOP_RESTORE_H

#include <stddef.h>
#include <stdint.h>

#define GT_RESTORE_MAX_ACTIONS  64
#define GT_RESTORE_DEV_MAX      64  /* PCI bus id, NUL included */
#define GT_RESTORE_PATH_MAX     256 /* sysfs path, NUL included */
#define GT_RESTORE_VALUE_MAX    128 /* amdgpu parses at most 127 bytes a write */
#define GT_RESTORE_LINE_MAX     2048 /* longer lines in a state file: refused */
#define GT_RESTORE_VENDOR_MAX   16   /* vendor name, NUL included */
#define GT_RESTORE_DEFAULT_ROOT "/sys"

enum gt_restore_kind {
	GT_RESTORE_SYSFS = 1,          /* path, value */
	GT_RESTORE_NVML_FAN_AUTO,      /* dev, fan */
	GT_RESTORE_NVML_POWER_LIMIT,   /* dev, mw */
	GT_RESTORE_AMD_FAN_CURVE_RESET /* path = the device directory */
};

struct gt_restore_action {
	enum gt_restore_kind kind;
	/* The vendor that restores it (gt_control_ops.name); "" only for a
	 * sysfs record of a version-1 file. */
	char vendor[GT_RESTORE_VENDOR_MAX];
	char dev[GT_RESTORE_DEV_MAX]; /* PCI bus id, e.g. 0000:03:00.0 */
	int64_t time_s;               /* Unix time the original was noted */
	char path[GT_RESTORE_PATH_MAX];
	char value[GT_RESTORE_VALUE_MAX];
	unsigned fan;
	uint32_t mw;
};

/* Plain data; the caller owns it (it is large: keep it off small stacks). */
struct gt_restore_journal {
	char root[GT_RESTORE_PATH_MAX]; /* sysfs root paths must lie under */
	size_t n;
	struct gt_restore_action a[GT_RESTORE_MAX_ACTIONS];
};

/* Empty journal whose sysfs paths must lie under root (NULL: "/sys"; tests
 * use a fixture tree). -1 if root is not absolute or too long. */
int gt_restore_init(struct gt_restore_journal *j, const char *root);

/* Builders: fill a, refusing (-1) strings that do not fit rather than
 * truncating them (a truncated path is another file). A sysfs write
 * names its vendor; the other kinds are their vendor's own. */
int gt_restore_action_sysfs(struct gt_restore_action *a, const char *vendor,
                            const char *dev, const char *path,
                            const char *original, int64_t time_s);
int gt_restore_action_fan_auto(struct gt_restore_action *a, const char *dev,
                               unsigned fan, int64_t time_s);
int gt_restore_action_power_limit(struct gt_restore_action *a, const char *dev,
                                  uint32_t original_mw, int64_t time_s);
int gt_restore_action_fan_curve_reset(struct gt_restore_action *a,
                                      const char *dev, const char *dev_dir,
                                      int64_t time_s);

/* Checks one action as note, save and load do: -1 with the reason. */
int gt_restore_check(const struct gt_restore_journal *j,
                     const struct gt_restore_action *a, char *err, size_t len);

/* Call BEFORE the first write of a setting (then save, then write).
 * 0: noted. 1: this setting was already noted; its FIRST original is kept
 * (an intermediate value written by gputop is never an original). -1:
 * refused (invalid action, or the journal is full): do not write. The
 * same setting means the same path (sysfs, fan-curve reset), the same
 * device and fan (fan auto), or the same device (power limit). */
int gt_restore_note(struct gt_restore_journal *j,
                    const struct gt_restore_action *a, char *err, size_t len);

/* Call AFTER a write that may have put a setting back as it was: now
 * describes what is in force (a sysfs path and the value written, a
 * device's power limit in mW, or a fan handed back to automatic). When
 * the journal notes the same setting with that very original, the entry
 * leaves the journal (order kept): nothing is left to restore there. 1:
 * removed; 0: not noted, or noted with another original. */
int gt_restore_settle(struct gt_restore_journal *j,
                      const struct gt_restore_action *now);

/* Text form (format above) into buf; the length, or -1 if an action is
 * refused or buf is too small (err says which). */
int gt_restore_format(const struct gt_restore_journal *j, char *buf, size_t len,
                      char *err, size_t errlen);

/* Parses the text form (what the guardian reads from its pipe, and what
 * load reads from the file). name labels messages "name:line: ...". j is
 * initialised with root first; on failure it is left empty. 0 or -1. */
int gt_restore_parse(const char *text, size_t textlen, const char *name,
                     const char *root, struct gt_restore_journal *j, char *err,
                     size_t len);

/* Writes the journal to path atomically: a temporary file in the same
 * directory, fsync, rename, fsync of the directory; missing directories
 * are created 0700, the file is 0600. A directory that is neither the
 * caller's nor root's, or that others may write (sticky or not), is
 * refused, and so is a path that is a symbolic link (the message says
 * so). 0 or -1 with err. */
int gt_restore_save(const struct gt_restore_journal *j, const char *path,
                    char *err, size_t len);

/* Reads path into j (see gt_restore_parse). A file that is not a regular
 * file owned by the caller or root, or that group/others may write, is
 * refused, and so is one in a directory that save would refuse (the
 * message names it and says chmod go-w): root must not act on a journal
 * someone else could have planted or swapped in. A symbolic link is never
 * followed (errno ELOOP; the message says it is a link). A missing file
 * is -1 with errno ENOENT left for the caller to tell "nothing to
 * restore" from a fault. */
int gt_restore_load(const char *path, const char *root,
                    struct gt_restore_journal *j, char *err, size_t len);

/* Removes the state file after a successful restore; a missing file is
 * success. 0 or -1 with errno. */
int gt_restore_clear(const char *path);

/* The state file's place: /var/lib/gputop/restore.state for euid 0, else
 * $XDG_STATE_HOME/gputop/restore.state, $XDG_STATE_HOME defaulting to
 * $HOME/.local/state (a relative $XDG_STATE_HOME is ignored, as the XDG
 * spec says). 0, or -1 if there is no home or buf is too small. */
int gt_restore_default_path(char *buf, size_t len);
/* The same rule with its inputs given (xdg and home may be NULL). */
int gt_restore_path_for(unsigned euid, const char *xdg_state_home,
                        const char *home, char *buf, size_t len);

/* The restore itself: one callback per action, which gets ctx and the
 * action (its vendor says whose code puts it back) and returns 0 or a
 * negative errno. The real one is the control's (gt_control_restore_ops);
 * tests record. */
struct gt_restore_ops {
	void *ctx;
	int (*restore)(void *ctx, const struct gt_restore_action *a);
	/* Optional: every action of a journal restored, the state file that
	 * held it goes (it exists only while changes are in force). */
	int (*cleared)(void *ctx);
};

/* Performs every action in reverse order of noting (the last change is
 * undone first, so e.g. pwm1 goes back before pwm1_enable hands the fan to
 * the firmware), carrying on past failures, and writes one line per action
 * to report ("ok" or "FAILED: reason"). A missing callback is a failure
 * ("no handler").
 * Returns the number of failures: clear the state file only when 0. */
int gt_restore_apply(const struct gt_restore_journal *j,
                     const struct gt_restore_ops *ops, char *report,
                     size_t len);

/* "sysfs", "nvml-fan-auto", ... (the state file's keywords); "?" else. */
const char *gt_restore_kind_name(enum gt_restore_kind k);

#endif

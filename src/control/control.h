/* SPDX-License-Identifier: MIT */
/*
 * control.h - gputop's control layer: the few writes gputop makes to a GPU
 * (NVIDIA power limit and fans through NVML; AMD performance level, power
 * profile, power cap, hwmon fan and the RDNA3+ firmware fan curve through
 * sysfs), with no UI. Every setter follows the same order, so that a
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
 */
#ifndef GPUTOP_CONTROL_H
#define GPUTOP_CONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "control/fancurve.h"
#include "control/restore.h"

struct gt_nvml_api;
struct gt_control; /* opaque */

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

/* ---- NVIDIA (NVML). pci_id: "0000:01:00.0" or NVML's "00000000:01:00.0".
 * mW and percent as NVML counts them. */

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

/* ---- AMD (sysfs). devdir: <sysfs_root>/class/drm/cardN/device of an
 * amdgpu device (its uevent names the driver and PCI slot). */

/* power_dpm_force_performance_level: auto, low, high, manual,
 * profile_standard, profile_min_sclk, profile_min_mclk, profile_peak,
 * profile_exit, perf_determinism (the kernel's words; it refuses those a
 * card cannot do). applied: GT_CONTROL_LEVEL_MAX bytes or more. */
int gt_control_amd_perf_level(struct gt_control *c, const char *devdir,
                              const char *level, char *applied,
                              size_t applied_len, char *err, size_t len);
/* The words power_dpm_force_performance_level takes (the kernel's, in
 * amdgpu_pm.c), NULL-terminated: what the setter, the dialog and profiles
 * accept. */
extern const char *const gt_amd_perf_levels[];

/* pp_power_profile_mode: index must be printed in the card's own table
 * (any of the five layouts) and be 0..9 (the kernel reads one digit).
 * Writes "manual" to the performance level first when it is not. */
int gt_control_amd_power_profile(struct gt_control *c, const char *devdir,
                                 int index, int *applied_index, char *err,
                                 size_t len);
/* hwmon power1_cap in µW within power1_cap_min..power1_cap_max. A min of
 * 0 means the driver does not say: then at least 1 W (the kernel truncates
 * to whole watts, and 0 W is no limit anyone means). */
int gt_control_amd_power_cap(struct gt_control *c, const char *devdir,
                             unsigned long microwatts,
                             unsigned long *applied_uw, char *err, size_t len);
/* pre-RDNA3 hwmon fan: pwm1_enable=1, then pwm1 = percent of pwm1_max
 * (within pwm1_min..pwm1_max). Refused on cards without pwm1_enable
 * (RDNA4) and on cards with the firmware curve (RDNA3+), with the reason.
 * pwm1's original is journaled only when the fan was already manual:
 * otherwise restoring pwm1_enable hands it to the firmware, which ignores
 * pwm1. */
int gt_control_amd_fan_pwm(struct gt_control *c, const char *devdir,
                           unsigned percent, unsigned *applied_percent,
                           char *err, size_t len);
/* Back to the firmware: fan_curve "r" then "c" on RDNA3+ (a no-op when
 * overdrive is off, so the curve cannot have been changed, or when the
 * curve reads all zero, the firmware's own), else pwm1_enable=2. */
int gt_control_amd_fan_auto(struct gt_control *c, const char *devdir, char *err,
                            size_t len);
/* RDNA3+ gpu_od/fan_ctrl/fan_curve: exactly 5 points (hotspot °C, %), a
 * valid curve (gt_fancurve_validate), whole degrees and percent, each
 * within the file's OD_RANGE; written one point a write, then "c". The
 * journal resets to the firmware's default curve (a user curve that was
 * there before gputop is not put back: the journal holds one value). */
int gt_control_amd_fan_curve(struct gt_control *c, const char *devdir,
                             const struct gt_fancurve *curve,
                             struct gt_fancurve *applied, char *err,
                             size_t len);

/* ---- Restore */

/* Loads the state file into the journal (for `gputop --restore` when the
 * control was made before the file appeared). 0, or -1 with err; a missing
 * file is 0 with nothing loaded. */
int gt_control_load_state(struct gt_control *c, char *err, size_t len);
/* Restores everything journaled, last change first, through
 * gt_restore_apply with this module's ops (each restore is validated as a
 * write is, and audited). Returns the number of failures (report has a
 * line per action); on 0 the state file is removed and the journal
 * emptied. -1 with report = the reason when refused (no root). */
int gt_control_restore_all(struct gt_control *c, char *report, size_t len);
/* Keeps the settings as they are now: empties the journal and removes the
 * state file, so nothing is restored later (`--apply` without --daemon:
 * the user asked for the change to stay). 0, or -1 with errno. */
int gt_control_forget(struct gt_control *c);
/* The same callbacks, for the guardian process (ctx = c). */
void gt_control_restore_ops(struct gt_control *c, struct gt_restore_ops *ops);

/* The real sysfs writer: open(O_WRONLY|O_TRUNC|O_NOFOLLOW|O_NONBLOCK), a
 * regular file only, value plus "\n" in one write(). 0 or -errno. */
int gt_control_write_file(const char *path, const char *value);

/* ---- Shared by control.c (which owns the struct) and the setters'
 * files (control_nvml.c, control_sysfs.c, control_amdfan.c,
 * control_intel.c); not for other callers. */

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
/* Appends "TIME KIND DEV SETTING old="OLD" new="NEW" RESULT" (KIND: write
 * or restore; TIME: UTC, ISO 8601; values quoted with C escapes). */
void gt_control_audit(struct gt_control *c, const char *kind, const char *dev,
                      const char *setting, const char *old,
                      const char *new_value, const char *result);
/* Through the configured writer (or gt_control_write_file). */
int gt_control_write_value(struct gt_control *c, const char *path,
                           const char *value);
/* Restore callbacks (ctx = the struct gt_control), 0 or -errno. */
int gt_control_nvml_restore_fan_auto(void *ctx, const char *dev, unsigned fan);
int gt_control_nvml_restore_power_limit(void *ctx, const char *dev,
                                        uint32_t mw);
int gt_control_amd_restore_write(void *ctx, const char *path,
                                 const char *value);
int gt_control_amd_restore_curve(void *ctx, const char *dev_dir);

/* ---- Intel (sysfs; i915 and xe). devdir: <sysfs_root>/class/drm/cardN/
 * device, as for AMD (and as gt_control_caps gives it in caps->dev). The
 * hwmon and the xe frequency files lie under it. i915 keeps its frequency
 * files in the card directory, which is devdir's parent
 * (<sysfs_root>/class/drm/cardN, whose device link must lead back to
 * devdir): they must resolve inside that card directory, which on a live
 * system lies inside the PCI device's own. Only the render GT (gt0) is
 * changed; a separate media GT keeps its limits. */

/* The sustained power limit (PL1): hwmon powerN_max of the "i915"/"xe"
 * hwmon's card channel (power1_max; the package channel where there is no
 * card channel), µW within 1 W .. the same channel's powerN_rated_max,
 * the TDP that the kernel's ABI documents give as PL1's ceiling and
 * default. A device without a rated max is refused (its range is
 * unknown, and gputop does not guess a ceiling for a power limit). 0
 * (which turns PL1 off) is refused too; a restore puts it back when it was
 * the original. A limit in force that a restore could not put back
 * (outside that range, and not 0) is left alone: refused. applied_uw: the
 * limit read back. */
int gt_control_intel_power_limit(struct gt_control *c, const char *devdir,
                                 unsigned long microwatts,
                                 unsigned long *applied_uw, char *err,
                                 size_t len);
/* The render GT's frequency limits, MHz: i915 gt/gt0/rps_{min,max}_freq_mhz
 * in the card directory (kernels before the per-GT files: the card's
 * gt_{min,max}_freq_mhz), xe tile0/gt0/freq0/{min,max}_freq. Both within
 * the GT's RPn..RP0 as it reports them, min <= max, written in the order
 * that never leaves the minimum above the maximum (i915 refuses such a
 * write). Limits in force outside RPn..RP0 (which a restore could not
 * put back) are left alone: refused. A restore that would cross the other
 * limit's present value puts that limit's original back first. */
int gt_control_intel_freq_limits(struct gt_control *c, const char *devdir,
                                 unsigned min_mhz, unsigned max_mhz,
                                 unsigned *applied_min, unsigned *applied_max,
                                 char *err, size_t len);

/* ---- Shared by the sysfs setters (control_sysfs.c, control_amdfan.c,
 * control_intel.c), the caps readers (control_amdcaps.c) and ctlcaps.c;
 * not for other callers. */

/* devdir checked as a device directory under the sysfs root (lexically,
 * as the journal demands, and once resolved) and copied without trailing
 * '/' into dir (PATH_MAX bytes); its uevent's DRIVER=, which must be one
 * of drivers (NULL-terminated; kind names them in the refusal: "an
 * amdgpu"), into driver (32 bytes), and its PCI_SLOT_NAME= into id
 * (GT_RESTORE_DEV_MAX bytes). 0, or -1 with err. */
int gt_control_sysfs_device(const struct gt_control *c, const char *devdir,
                            const char *kind, const char *const *drivers,
                            char *dir, char *driver, char *id, char *err,
                            size_t len);
/* path may be written: present, inside dir once every symlink is
 * resolved, a regular file. 0, or -1 with err. */
int gt_control_sysfs_target(const char *path, const char *dir, char *err,
                            size_t len);
/* Writes value to path, checked again (gt_control_sysfs_target) right
 * before the write, and appends the audit line (kind: "write" or
 * "restore"; dev: the PCI bus id; setting: the file's name in the log).
 * 0, or -errno with err (-EXDEV: the check failed, nothing written). */
int gt_control_sysfs_write(struct gt_control *c, const char *path,
                           const char *dir, const char *dev,
                           const char *setting, const char *kind,
                           const char *old, const char *value, char *err,
                           size_t len);
/* gt_control_caps's AMD and Intel parts, for the device directory:
 * 0, or -1 with caps->why. */
struct gt_control_caps;
int gt_control_amd_caps(struct gt_control *c, const char *devdir,
                        struct gt_control_caps *caps);
int gt_control_intel_caps(struct gt_control *c, const char *devdir,
                          struct gt_control_caps *caps);
/* Whether a journaled sysfs path names a file the Intel setters write (by
 * its name: no AMD leaf shares one), so that the restore hands it to
 * gt_control_intel_restore_write rather than to the AMD callback. */
bool gt_control_intel_leaf(const char *path);
int gt_control_intel_restore_write(void *ctx, const char *path,
                                   const char *value);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * control_amdgpu_priv.h - shared by the AMD sysfs control:
 * control_amdgpu.c (the device, its files, the journaled write; perf
 * level, power profile, power cap; the restore and the ops),
 * control_amdgpu_fan.c (the fan setters) and control_amdgpu_caps.c (what
 * the dialogs may offer). Not for other modules: they use
 * control_amdgpu.h and control_caps.h.
 */
#ifndef GPUTOP_CONTROL_AMDGPU_PRIV_H
#define GPUTOP_CONTROL_AMDGPU_PRIV_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "control/control.h"
#include "control/control_amdgpu.h"

struct gt_control_caps;
struct gt_control_profile;

/* The only files gputop writes, relative to the device directory (the
 * hwmon ones inside its hwmon/hwmonN); their names are in
 * control_amdgpu.c. */
enum leaf { L_LEVEL, L_PROFILE, L_CAP, L_PWM_ENABLE, L_PWM, L_CURVE, L_N };

struct amd {
	char dir[PATH_MAX];   /* as given, without trailing '/' */
	char hwmon[PATH_MAX]; /* dir/hwmon/hwmonN, "" if none */
	char id[GT_RESTORE_DEV_MAX];
};

/* The firmware fan curve as the fan_curve file shows it. */
struct od_curve {
	int t[5], s[5];
	bool points, range;
	int tmin, tmax, smin, smax;
};

#define UW_PER_W 1000000UL
#define TEXT_MAX 16384 /* pp_power_profile_mode is up to a few KiB */
#define REFUSED  GT_CONTROL_REFUSED

/* ---- control_amdgpu.c */

/* The amdgpu device at devdir and its hwmon: 0 or REFUSED with err. */
int gt_control_amdgpu_open(const struct gt_control *c, const char *devdir,
                           struct amd *d, char *err, size_t len);
/* Leaf l's path (PATH_MAX bytes): 0 or -errno. */
int gt_control_amdgpu_leaf_path(const struct amd *d, enum leaf l, char *out);
bool gt_control_amdgpu_has_leaf(const struct amd *d, enum leaf l);
/* Leaf l present and a target of the device: 0 or REFUSED with err. */
int gt_control_amdgpu_target(const struct amd *d, enum leaf l, char *err,
                             size_t len);
ssize_t gt_control_amdgpu_read_leaf(const struct amd *d, enum leaf l, char *buf,
                                    size_t len);
/* A whole decimal string: true with *out. */
bool gt_control_amdgpu_parse_ul(const char *s, unsigned long *out);
/* An unsigned file beside leaf l (its range files), or dflt. */
unsigned long gt_control_amdgpu_read_ul(const struct amd *d, enum leaf l,
                                        const char *name, unsigned long dflt);
/* The performance level word (GT_CONTROL_LEVEL_MAX bytes): 0 or -errno. */
int gt_control_amdgpu_read_level(const struct amd *d, char *out);
/* The profiles a pp_power_profile_mode text prints: how many into out. */
size_t gt_control_amdgpu_profile_list(const char *t, size_t n,
                                      struct gt_control_profile *out,
                                      size_t max);
/* value for leaf l checked against this card: 0 or REFUSED with err. */
int gt_control_amdgpu_validate(const struct amd *d, enum leaf l,
                               const char *value, char *err, size_t len);
/* Writes one value to leaf l (gt_control_sysfs_write). 0 or -errno. */
int gt_control_amdgpu_write(struct gt_control *c, const struct amd *d,
                            enum leaf l, const char *kind, const char *old,
                            const char *value, char *err, size_t len);
/* Appends a sysfs action to a[*n]: leaf l had value orig. 0 or REFUSED. */
int gt_control_amdgpu_add(const struct gt_control *c, const struct amd *d,
                          enum leaf l, const char *orig,
                          struct gt_restore_action *a, size_t *n, char *err,
                          size_t len);
/* The start of every setter: no root, no write; then the device. */
int gt_control_amdgpu_begin(struct gt_control *c, const char *what,
                            const char *devdir, struct amd *d, char *err,
                            size_t len);
/* err for a write whose read-back failed (rc: -errno). */
void gt_control_amdgpu_readback_failed(char *err, size_t len, const char *what,
                                       int rc);

/* ---- control_amdgpu_fan.c */

/* The fan_curve file: 0 (all five points read) or -errno. */
int gt_control_amdgpu_read_curve(const struct amd *d, struct od_curve *o);
/* The restore of an amd-fan-curve-reset action: the firmware's own curve
 * for the device at dev_dir, checked as the setters check it. 0 or
 * -errno. */
int gt_control_amdgpu_restore_curve(struct gt_control *c, const char *dev_dir);

/* ---- control_amdgpu_caps.c */

/* What the control dialogs may offer for the device at devdir (the ops'
 * caps): 0, or -1 with caps->why. */
int gt_control_amdgpu_caps(struct gt_control *c, const char *devdir,
                           struct gt_control_caps *caps);

#endif

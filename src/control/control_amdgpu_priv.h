/* SPDX-License-Identifier: MIT */
/*
 * control_amd_priv.h - shared by the AMD sysfs control: control_sysfs.c
 * (the device, its files, the checked and journaled write; perf level,
 * power profile, power cap), control_amdfan.c (the fan setters) and
 * control_amdcaps.c (what the dialogs may offer). Not for other modules:
 * they use control.h and ctlcaps.h.
 */
#ifndef GPUTOP_CONTROL_AMDGPU_PRIV_H
#define GPUTOP_CONTROL_AMDGPU_PRIV_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "control/control.h"

struct gt_control_profile;

/* The only files gputop writes, relative to the device directory (the
 * hwmon ones inside its hwmon/hwmonN); their names are in control_sysfs.c. */
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

/* ---- control_sysfs.c */

/* The amdgpu device at devdir and its hwmon: 0 or REFUSED with err. */
int gt_amd_open(const struct gt_control *c, const char *devdir, struct amd *d,
                char *err, size_t len);
/* Leaf l's path (PATH_MAX bytes): 0 or -errno. */
int gt_amd_leaf_path(const struct amd *d, enum leaf l, char *out);
bool gt_amd_has_leaf(const struct amd *d, enum leaf l);
/* Leaf l present and a target of the device: 0 or REFUSED with err. */
int gt_amd_target(const struct amd *d, enum leaf l, char *err, size_t len);
ssize_t gt_amd_read_leaf(const struct amd *d, enum leaf l, char *buf,
                         size_t len);
/* A whole decimal string: true with *out. */
bool gt_amd_parse_ul(const char *s, unsigned long *out);
/* An unsigned file beside leaf l (its range files), or dflt. */
unsigned long gt_amd_read_ul(const struct amd *d, enum leaf l, const char *name,
                             unsigned long dflt);
/* The performance level word (GT_CONTROL_LEVEL_MAX bytes): 0 or -errno. */
int gt_amd_read_level(const struct amd *d, char *out);
/* The profiles a pp_power_profile_mode text prints: how many into out. */
size_t gt_amd_profile_list(const char *t, size_t n,
                           struct gt_control_profile *out, size_t max);
/* value for leaf l checked against this card: 0 or REFUSED with err. */
int gt_amd_validate(const struct amd *d, enum leaf l, const char *value,
                    char *err, size_t len);
/* Writes one value to leaf l (gt_control_sysfs_write). 0 or -errno. */
int gt_amd_write(struct gt_control *c, const struct amd *d, enum leaf l,
                 const char *kind, const char *old, const char *value,
                 char *err, size_t len);
/* Appends a sysfs action to a[*n]: leaf l had value orig. 0 or REFUSED. */
int gt_amd_add(const struct gt_control *c, const struct amd *d, enum leaf l,
               const char *orig, struct gt_restore_action *a, size_t *n,
               char *err, size_t len);
/* The start of every setter: no root, no write; then the device. */
int gt_amd_begin(struct gt_control *c, const char *what, const char *devdir,
                 struct amd *d, char *err, size_t len);
/* err for a write whose read-back failed (rc: -errno). */
void gt_amd_readback_failed(char *err, size_t len, const char *what, int rc);

/* ---- control_amdfan.c */

/* The fan_curve file: 0 (all five points read) or -errno. */
int gt_amd_read_curve(const struct amd *d, struct od_curve *o);

#endif

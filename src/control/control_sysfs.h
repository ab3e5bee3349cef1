/* SPDX-License-Identifier: MIT */
/*
 * control_sysfs.h - the vendor-neutral checked sysfs write that the sysfs
 * vendors (control_amdgpu*.c, control_intel.c) share: the device directory
 * checked under the sysfs root, the target file checked inside it, and
 * the write checked again right before it is made, and audited.
 */
#ifndef GPUTOP_CONTROL_SYSFS_H
#define GPUTOP_CONTROL_SYSFS_H

#include <stddef.h>

struct gt_control;

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

#endif

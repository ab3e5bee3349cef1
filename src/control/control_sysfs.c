/* SPDX-License-Identifier: MIT */
/*
 * control_sysfs.c - the vendor-neutral checked sysfs write (see
 * control_sysfs.h) that the amdgpu and Intel setters and restores share:
 * the device directory checked under the sysfs root and its uevent read
 * for the driver and the PCI slot, the target file checked inside that
 * directory once every symlink is resolved, and the write checked again
 * right before it is made, with its audit line.
 */
#include "control/control_sysfs.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "control/control_priv.h"
#include "linux/sysfs.h"

int gt_control_sysfs_device(const struct gt_control *c, const char *devdir,
                            const char *kind, const char *const *drivers,
                            char *dir, char *driver, char *id, char *err,
                            size_t len)
{
	const char *root = gt_control_journal(c)->root;
	size_t rl = strlen(root), n = devdir ? strlen(devdir) : 0, k = 0;
	char ue[1024], *p, names[128] = "";
	bool known = false;

	while (n > 1 && devdir[n - 1] == '/')
		n--;
	if (n == 0 || n >= PATH_MAX - 64 || devdir[0] != '/' ||
	    strstr(devdir, "..") || strncmp(devdir, root, rl) != 0 ||
	    devdir[rl] != '/')
		return gt_control_refuse(
		    err, len, "%s is not a device directory under %s/",
		    devdir ? devdir : "(null)", root);
	memcpy(dir, devdir, n);
	dir[n] = '\0';
	if (!gt_sysfs_inside(dir, gt_control_sysfs_root(c)))
		return gt_control_refuse(err, len,
		                         "%s resolves outside %s: refusing it",
		                         dir, gt_control_sysfs_root(c));
	if (gt_sysfs_read(dir, "uevent", ue + 1, sizeof(ue) - 2) < 0)
		ue[1] = '\0';
	ue[0] = '\n'; /* every line, the first too, starts after a '\n' */
	strcat(ue, "\n");
	driver[0] = id[0] = '\0';
	if ((p = strstr(ue, "\nDRIVER=")) != NULL &&
	    sscanf(p + 8, "%31[^\n]", driver) != 1)
		driver[0] = '\0';
	for (size_t i = 0; drivers[i]; i++) {
		known |= strcmp(driver, drivers[i]) == 0;
		k += (size_t)snprintf(names + k, sizeof(names) - k,
		                      "%sDRIVER=%s", i ? " or " : "",
		                      drivers[i]);
		k = k < sizeof(names) ? k : sizeof(names) - 1;
	}
	if (!known)
		return gt_control_refuse(
		    err, len,
		    "%s is not %s device (its uevent names "
		    "no %s)",
		    dir, kind, names);
	p = strstr(ue, "\nPCI_SLOT_NAME=");
	if (!p || sscanf(p + 15, "%63[^\n]", id) != 1 || !id[0] ||
	    strspn(id, "0123456789abcdefABCDEF:.") != strlen(id))
		return gt_control_refuse(
		    err, len, "%s/uevent gives no PCI_SLOT_NAME", dir);
	return 0;
}

int gt_control_sysfs_target(const char *path, const char *dir, char *err,
                            size_t len)
{
	struct stat st;

	if (lstat(path, &st) != 0)
		return gt_control_refuse(err, len, "%s is missing", path);
	if (!gt_sysfs_inside(path, dir))
		return gt_control_refuse(err, len,
		                         "%s resolves outside the device "
		                         "directory %s: refusing to write it",
		                         path, dir);
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return gt_control_refuse(
		    err, len,
		    "%s is not a regular file: refusing to "
		    "write it",
		    path);
	return 0;
}

int gt_control_sysfs_write(struct gt_control *c, const char *path,
                           const char *dir, const char *dev,
                           const char *setting, const char *kind,
                           const char *old, const char *value, char *err,
                           size_t len)
{
	char res[320] = "ok";
	int rc = gt_control_sysfs_target(path, dir, err, len) ? -EXDEV : 0;

	if (rc == 0)
		rc = gt_control_write_value(c, path, value);
	if (rc == -EXDEV) /* swapped for a symlink since the check */
		snprintf(res, sizeof(res), "refused: %s", err);
	else if (rc)
		snprintf(res, sizeof(res), "failed: %s", strerror(-rc));
	gt_control_audit(c, kind, dev, setting, old, value, res);
	if (strcmp(kind, "write") == 0)
		gt_control_wrote(c, path, rc);
	if (rc == 0 && strcmp(kind, "write") == 0) {
		/* A write that put the original back settles the setting. */
		struct gt_restore_action now = {.kind = GT_RESTORE_SYSFS};
		if (strlen(path) < sizeof(now.path) &&
		    strlen(value) < sizeof(now.value)) {
			memcpy(now.path, path, strlen(path) + 1);
			memcpy(now.value, value, strlen(value) + 1);
			gt_control_settle(c, &now);
		}
	}
	if (rc && rc != -EXDEV)
		snprintf(err, len, "writing \"%s\" to %s failed: %s", value,
		         path, strerror(-rc));
	return rc;
}

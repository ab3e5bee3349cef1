/*
 * drmdev.c - DRM device discovery through sysfs (see drmdev.h). Reads the
 * driver from device/uevent rather than the device/driver symlink, which
 * copies of sysfs trees (containers, test fixtures) often lack.
 */
#include "drmdev.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "sysfs.h"

static bool card_name(const char *name, unsigned *index)
{
	if (strncmp(name, "card", 4) != 0 || !isdigit((unsigned char)name[4]))
		return false;
	char *end;
	unsigned long v = strtoul(name + 4, &end, 10);
	/* "card1-eDP-1" is a connector, not a device. */
	if (*end != '\0' || v > 4096)
		return false;
	*index = (unsigned)v;
	return true;
}

static uint16_t read_hex16(const char *dir, const char *leaf)
{
	int64_t v;
	return gt_sysfs_read_i64(dir, leaf, &v) == 0 && v >= 0 && v <= 0xffff
	           ? (uint16_t)v
	           : 0;
}

/* Value of KEY= in a uevent file, copied into out. */
static void uevent_value(const char *uevent, const char *key, char *out,
                         size_t len)
{
	size_t klen = strlen(key);
	const char *p = uevent;
	out[0] = '\0';
	while (p && *p) {
		if (strncmp(p, key, klen) == 0 && p[klen] == '=') {
			const char *v = p + klen + 1;
			size_t n = strcspn(v, "\n");
			if (n >= len)
				n = len - 1;
			memcpy(out, v, n);
			out[n] = '\0';
			return;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
}

static void find_render(struct gt_drmdev *d)
{
	char dir[PATH_MAX];
	if (gt_sysfs_join(dir, sizeof(dir), d->devdir, "drm") < 0)
		return;
	DIR *dp = opendir(dir);
	if (!dp)
		return;
	struct dirent *de;
	while ((de = readdir(dp)))
		if (strncmp(de->d_name, "renderD", 7) == 0) {
			gt_copy_str(d->render, sizeof(d->render), de->d_name);
			break;
		}
	closedir(dp);
}

bool gt_drmdev_is_suspended(const struct gt_drmdev *d)
{
	char buf[32];
	return gt_sysfs_read(d->devdir, "power/runtime_status", buf,
	                     sizeof(buf)) > 0 &&
	       strcmp(buf, "suspended") == 0;
}

static void read_device(struct gt_drmdev *d)
{
	char uevent[1024], v[64];
	if (gt_sysfs_read(d->devdir, "uevent", uevent, sizeof(uevent)) < 0)
		uevent[0] = '\0';
	uevent_value(uevent, "DRIVER", d->driver, sizeof(d->driver));
	uevent_value(uevent, "PCI_SLOT_NAME", v, sizeof(v));
	for (char *c = v; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	gt_copy_str(d->pdev, sizeof(d->pdev), v);
	d->vendor = read_hex16(d->devdir, "vendor");
	d->device = read_hex16(d->devdir, "device");
	d->subsys_vendor = read_hex16(d->devdir, "subsystem_vendor");
	d->subsys_device = read_hex16(d->devdir, "subsystem_device");
	d->revision = (uint8_t)read_hex16(d->devdir, "revision");
	/* uevent's PCI_ID is there even when the id files are not (copied
	 * trees often have `vendor` but no `device`). */
	if (d->vendor == 0 || d->device == 0) {
		unsigned a, b;
		uevent_value(uevent, "PCI_ID", v, sizeof(v));
		if (sscanf(v, "%x:%x", &a, &b) == 2 && a <= 0xffff &&
		    b <= 0xffff) {
			d->vendor = (uint16_t)a;
			d->device = (uint16_t)b;
		}
	}
	d->suspended = gt_drmdev_is_suspended(d);
	find_render(d);
}

static int by_index(const void *a, const void *b)
{
	const struct gt_drmdev *x = a, *y = b;
	return (x->card_index > y->card_index) -
	       (x->card_index < y->card_index);
}

int gt_drmdev_scan(const char *sysfs_root, struct gt_drmdev **out, size_t *n)
{
	char dir[PATH_MAX];
	struct gt_drmdev *devs = NULL;
	size_t count = 0, cap = 0;

	*out = NULL;
	*n = 0;
	if (gt_sysfs_join(dir, sizeof(dir), sysfs_root ? sysfs_root : "/sys",
	                  "class/drm") < 0)
		return -ENAMETOOLONG;
	DIR *dp = opendir(dir);
	if (!dp)
		return errno == ENOENT ? 0 : -errno;
	struct dirent *de;
	while ((de = readdir(dp))) {
		unsigned index;
		if (!card_name(de->d_name, &index))
			continue;
		if (count == cap) {
			size_t ncap = cap ? cap * 2 : 8;
			struct gt_drmdev *nd =
			    realloc(devs, ncap * sizeof(*nd));
			if (!nd) {
				closedir(dp);
				free(devs);
				return -ENOMEM;
			}
			devs = nd;
			cap = ncap;
		}
		struct gt_drmdev *d = &devs[count];
		memset(d, 0, sizeof(*d));
		d->card_index = index;
		gt_copy_str(d->card, sizeof(d->card), de->d_name);
		char card[PATH_MAX];
		if (gt_sysfs_join(card, sizeof(card), dir, de->d_name) < 0 ||
		    gt_sysfs_join(d->devdir, sizeof(d->devdir), card,
		                  "device") < 0)
			continue;
		read_device(d);
		count++;
	}
	closedir(dp);
	if (count > 1)
		qsort(devs, count, sizeof(*devs), by_index);
	*out = devs;
	*n = count;
	return 0;
}

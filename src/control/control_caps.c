/* SPDX-License-Identifier: MIT */
/*
 * control_caps.c - what the control dialogs may offer for one device
 * (see control_caps.h). Each vendor's part is read by the ops of the
 * vendor whose setters would make the change (control_vendor.h: NVML's
 * getters in control_nvml.c, the sysfs files in control_amdgpu_caps.c and
 * control_intel.c), so that a dialog offers exactly the ranges and
 * methods the setters will accept. This file finds the device and says
 * why, where nothing can be changed.
 */
#include "control/control_caps.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "control/control.h"
#include "control/control_priv.h"
#include "control/control_vendor.h"
#include "linux/drmdev.h"

void gt_control_range_unknown(struct gt_control_range *r, const char *why)
{
	*r = (struct gt_control_range){.def = -1, .cur = -1};
	snprintf(r->why, sizeof(r->why), "%s", why);
}

/* Nothing settable: the reason for the device and for every setting.
 * Returns -1. */
__attribute__((format(printf, 2, 3))) static int
nothing(struct gt_control_caps *caps, const char *fmt, ...)
{
	char why[GT_CAPS_WHY_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	memcpy(caps->why, why, sizeof(why));
	gt_control_range_unknown(&caps->power, why);
	gt_control_range_unknown(&caps->freq_min, why);
	gt_control_range_unknown(&caps->freq_max, why);
	caps->has_level = false;
	caps->nprofiles = 0;
	caps->fan_method = GT_FAN_METHOD_NONE;
	caps->fan_count = 0;
	memcpy(caps->fan_why, why, sizeof(why));
	return -1;
}

/* <root>/class/drm/cardN/device of the device whose uevent names bus as
 * its PCI_SLOT_NAME. 0 or -1. */
static int find_dev(const struct gt_control *c, const char *bus, char *dir,
                    size_t len)
{
	struct gt_drmdev *d = NULL;
	size_t n = 0;
	int rc = -1;

	if (!bus[0] || gt_drmdev_scan(gt_control_sysfs_root(c), &d, &n) != 0)
		return -1;
	for (size_t i = 0; i < n && rc != 0; i++)
		if (strcasecmp(d[i].pdev, bus) == 0 &&
		    (size_t)snprintf(dir, len, "%s", d[i].devdir) < len)
			rc = 0;
	free(d);
	return rc;
}

int gt_control_caps_read(struct gt_control *c, const struct gt_static *st,
                         struct gt_control_caps *caps)
{
	static const char intel_only[] =
	    "gputop sets frequency limits on Intel GPUs only";
	const struct gt_control_ops *ops = gt_control_vendor_ops(c, st->vendor);
	char dir[GT_RESTORE_PATH_MAX], why[GT_CAPS_WHY_MAX];
	const char *dev = st->pci_bus_id;

	memset(caps, 0, sizeof(*caps));
	caps->vendor = st->vendor;
	snprintf(caps->pci_bus_id, sizeof(caps->pci_bus_id), "%s",
	         st->pci_bus_id);
	caps->profile_active = -1;
	gt_control_range_unknown(&caps->power,
	                         "this device has no power limit gputop sets");
	gt_control_range_unknown(&caps->freq_min, intel_only);
	gt_control_range_unknown(&caps->freq_max, intel_only);
	snprintf(caps->fan_why, sizeof(caps->fan_why),
	         "this device has no fan gputop controls");
	if (st->demo)
		return nothing(caps, "a demo device: nothing to change");
	if (!ops || !ops->caps)
		return nothing(caps, "gputop changes settings of NVIDIA, AMD "
		                     "and Intel GPUs only");
	/* A sysfs vendor's setters take the device's directory. */
	if (ops->sysfs) {
		if (find_dev(c, st->pci_bus_id, dir, sizeof(dir)) != 0)
			return nothing(caps,
			               "no DRM device at PCI slot %s under "
			               "%s/class/drm",
			               st->pci_bus_id[0] ? st->pci_bus_id
			                                 : "(none)",
			               gt_control_sysfs_root(c));
		dev = dir;
	}
	if (ops->caps(c, dev, caps) == 0)
		return 0;
	memcpy(why, caps->why, sizeof(why));
	return nothing(caps, "%s", why);
}

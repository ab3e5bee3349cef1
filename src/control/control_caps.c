/* SPDX-License-Identifier: MIT */
/*
 * ctlcaps.c - what the control dialogs may offer for one device (see
 * ctlcaps.h). The NVIDIA part asks NVML's getters here; the AMD and Intel
 * parts are read by the modules whose setters write those files
 * (control_amdcaps.c, control_intel.c), so that a dialog offers exactly the
 * ranges and methods the setters will accept. This file finds the device
 * and says why, where nothing can be changed.
 */
#include "control/control_caps.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "control/control.h"
#include "linux/drmdev.h"
#include "collectors/nvml_api.h"

static void unknown(struct gt_control_range *r, const char *why)
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
	unknown(&caps->power, why);
	unknown(&caps->freq_min, why);
	unknown(&caps->freq_max, why);
	caps->has_level = false;
	caps->nprofiles = 0;
	caps->fan_method = GT_FAN_METHOD_NONE;
	caps->fan_count = 0;
	memcpy(caps->fan_why, why, sizeof(why));
	return -1;
}

/* NVML's handle of the GPU whose bus id, as Linux spells it, is bus. */
static bool nv_handle(const struct gt_nvml_api *api, const char *bus,
                      nvmlDevice_t *h)
{
	char id[GT_RESTORE_DEV_MAX];
	unsigned n = 0;

	if (api->count(&n) != NVML_SUCCESS)
		return false;
	for (unsigned i = 0; i < n; i++) {
		nvmlPciInfo_t pci = {0};
		nvmlReturn_t rc = api->handle_by_index(i, h);
		if (rc == NVML_SUCCESS)
			rc = api->pci_info      ? api->pci_info(*h, &pci)
			     : api->pci_info_v1 ? api->pci_info_v1(*h, &pci)
			                        : NVML_ERROR_FUNCTION_NOT_FOUND;
		gt_nvml_bus_id(id, sizeof(id), &pci);
		if (rc == NVML_SUCCESS && strcasecmp(id, bus) == 0)
			return true;
	}
	return false;
}

/* The power limit and fans, as gt_control_nvml_power_limit and
 * gt_control_nvml_fan_speed check them. */
static int nv_caps(struct gt_control *c, const struct gt_static *st,
                   struct gt_control_caps *caps)
{
	const struct gt_nvml_api *api = gt_control_nvml_api(c);
	struct gt_control_range *p = &caps->power;
	unsigned lo = 0, hi = 0, v = 0, fans = 0;
	nvmlDevice_t h;

	if (!api)
		return nothing(caps,
		               "the NVIDIA management library "
		               "(libnvidia-ml.so.1) is not loaded, so this "
		               "GPU's settings cannot be changed");
	if (!nv_handle(api, st->pci_bus_id, &h))
		return nothing(caps, "NVML lists no GPU at %s", st->pci_bus_id);
	snprintf(caps->dev, sizeof(caps->dev), "%s", st->pci_bus_id);

	if (!api->set_power_limit_v2 && !api->set_power_limit)
		unknown(p, "this NVIDIA driver has no power-limit setter");
	else if (!api->power_range ||
	         api->power_range(h, &lo, &hi) != NVML_SUCCESS || lo > hi)
		unknown(p, "this GPU does not report its power limit range "
		           "(nvmlDeviceGetPowerManagementLimitConstraints)");
	else
		*p = (struct gt_control_range){
		    .known = true,
		    .min = lo,
		    .max = hi,
		    .def = api->power_default &&
		                   api->power_default(h, &v) == NVML_SUCCESS
		               ? (int64_t)v
		               : -1,
		    .cur = api->power_limit &&
		                   api->power_limit(h, &v) == NVML_SUCCESS
		               ? (int64_t)v
		               : -1,
		};

	if (!api->num_fans || api->num_fans(h, &fans) != NVML_SUCCESS ||
	    fans == 0)
		snprintf(
		    caps->fan_why, sizeof(caps->fan_why),
		    "this GPU has no fans gputop can control (passively "
		    "cooled, or a laptop whose fans belong to its embedded "
		    "controller)");
	else if (!api->set_fan_speed || !api->set_default_fan_speed)
		snprintf(caps->fan_why, sizeof(caps->fan_why),
		         "this NVIDIA driver cannot set fan speeds (NVML fan "
		         "control needs R515 or newer)");
	else if (!api->fan_min_max ||
	         api->fan_min_max(h, &lo, &hi) != NVML_SUCCESS || lo > hi ||
	         hi > 100)
		snprintf(caps->fan_why, sizeof(caps->fan_why),
		         "this GPU does not report its fan speed range "
		         "(nvmlDeviceGetMinMaxFanSpeed)");
	else {
		caps->fan_method = GT_FAN_METHOD_NVML_LOOP;
		caps->fan_why[0] = '\0';
		caps->fan_count = fans;
		caps->fan_min_cpercent = (int32_t)lo * 100;
		caps->fan_max_cpercent = (int32_t)hi * 100;
	}
	return 0;
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
	char dir[GT_RESTORE_PATH_MAX], why[GT_CAPS_WHY_MAX];
	int rc;

	memset(caps, 0, sizeof(*caps));
	caps->vendor = st->vendor;
	snprintf(caps->pci_bus_id, sizeof(caps->pci_bus_id), "%s",
	         st->pci_bus_id);
	caps->profile_active = -1;
	unknown(&caps->power, "this device has no power limit gputop sets");
	unknown(&caps->freq_min, intel_only);
	unknown(&caps->freq_max, intel_only);
	snprintf(caps->fan_why, sizeof(caps->fan_why),
	         "this device has no fan gputop controls");
	if (st->demo)
		return nothing(caps, "a demo device: nothing to change");
	switch (st->vendor) {
	case GT_VENDOR_NVIDIA:
		return nv_caps(c, st, caps);
	case GT_VENDOR_AMD:
	case GT_VENDOR_INTEL:
		if (find_dev(c, st->pci_bus_id, dir, sizeof(dir)) != 0)
			return nothing(caps,
			               "no DRM device at PCI slot %s under "
			               "%s/class/drm",
			               st->pci_bus_id[0] ? st->pci_bus_id
			                                 : "(none)",
			               gt_control_sysfs_root(c));
		rc = st->vendor == GT_VENDOR_AMD
		         ? gt_control_amd_caps(c, dir, caps)
		         : gt_control_intel_caps(c, dir, caps);
		memcpy(why, caps->why, sizeof(why));
		return rc ? nothing(caps, "%s", why) : 0;
	default:
		return nothing(caps, "gputop changes settings of NVIDIA, AMD "
		                     "and Intel GPUs only");
	}
}

/* SPDX-License-Identifier: MIT */
/*
 * control_caps.h - what the control dialogs may offer for one device: the
 * settings it has, their ranges and current values, and the exact files or
 * NVML calls a change would use. Read through the control layer (NVML
 * getters, the device's own sysfs directory) when a dialog opens, never by
 * the render loop on its own, and never from a backend.
 *
 * Units as in model.h: mW for NVIDIA power, µW for AMD/Intel hwmon power,
 * MHz, cpercent for fan speeds, m°C for temperatures.
 */
#ifndef GPUTOP_CONTROL_CAPS_H
#define GPUTOP_CONTROL_CAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "control/fancurve.h"
#include "core/model.h"
#include "control/restore.h"

struct gt_control;

#define GT_CAPS_MAX_PROFILES 10 /* the kernel reads one digit */
#define GT_CAPS_WHY_MAX      192
#define GT_CAPS_NAME_MAX     32

/* One settable number. known = false: the device does not say (why). */
struct gt_control_range {
	bool known;
	int64_t min, max;
	int64_t def; /* the device's default; -1 when unknown */
	int64_t cur; /* in force now; -1 when unknown */
	char why[GT_CAPS_WHY_MAX];
};

enum gt_fan_method {
	GT_FAN_METHOD_NONE = 0,  /* no controllable fan (fan_why says why) */
	GT_FAN_METHOD_NVML_LOOP, /* software loop, nvmlDeviceSetFanSpeed_v2 */
	GT_FAN_METHOD_AMD_PWM_LOOP, /* software loop, hwmon pwm1_enable=1/pwm1
	                             */
	GT_FAN_METHOD_AMD_FIRMWARE, /* gpu_od/fan_ctrl/fan_curve (RDNA3+) */
};

struct gt_control_profile {
	int index; /* the number written to pp_power_profile_mode */
	char name[GT_CAPS_NAME_MAX];
};

struct gt_control_caps {
	enum gt_vendor vendor;
	/* What the setters take: the NVML PCI bus id ("0000:01:00.0") for
	 * NVIDIA, the device's sysfs directory for AMD and Intel. */
	char dev[GT_RESTORE_PATH_MAX];
	char pci_bus_id[GT_RESTORE_DEV_MAX];
	char hwmon[GT_RESTORE_PATH_MAX]; /* AMD/Intel hwmon dir, or "" */
	/* "" when something may be settable; else why nothing is (demo
	 * device, NVML without control, unknown vendor). Privileges are not
	 * judged here: gt_control_readonly_reason says that. */
	char why[GT_CAPS_WHY_MAX];

	/* Power limit: NVIDIA mW (nvmlDeviceGetPowerManagementLimitConstraints,
	 * default and current limit); AMD hwmon power1_cap µW; Intel hwmon
	 * power1_max µW. */
	struct gt_control_range power;

	/* AMD power_dpm_force_performance_level. */
	bool has_level;
	char level[GT_CAPS_NAME_MAX]; /* current word, "" if unreadable */

	/* AMD pp_power_profile_mode, in the card's own table order. */
	size_t nprofiles;
	struct gt_control_profile profiles[GT_CAPS_MAX_PROFILES];
	int profile_active; /* index, or -1 */

	/* Intel frequency limits, MHz: min/max of each range are the
	 * hardware's (RPn..RP0), cur is the limit in force. */
	struct gt_control_range freq_min, freq_max;

	/* The files a change writes, for the preview (AMD/Intel power: the
	 * hwmon limit; Intel: the GT's limit files); "" where none. */
	char power_file[GT_RESTORE_PATH_MAX];
	char freq_min_file[GT_RESTORE_PATH_MAX];
	char freq_max_file[GT_RESTORE_PATH_MAX];

	/* Fans. */
	enum gt_fan_method fan_method;
	char fan_why[GT_CAPS_WHY_MAX]; /* why NONE */
	unsigned fan_count;            /* NVML fans; 1 for AMD hwmon */
	int32_t fan_min_cpercent;      /* settable speed range */
	int32_t fan_max_cpercent;
	/* AMD firmware curve: the points in force and the OD_RANGE limits
	 * (whole °C and % in the file, converted to m°C and cpercent).
	 * fw_curve.n = 0: the firmware's own curve, which the file shows
	 * as all zeros. */
	struct gt_fancurve fw_curve;
	int32_t fw_temp_min_mc, fw_temp_max_mc;
	int32_t fw_speed_min_cpercent, fw_speed_max_cpercent;
	/* The slowdown threshold (m°C) from the device's static facts, where
	 * a software curve hands the fan back at once; -1 when unknown (the
	 * loop's default then applies). Filled by gt_control_session_caps. */
	int64_t slowdown_mc;
};

/* Fills caps for the device st describes. Reads only: NVML getters through
 * the control's library, the device's sysfs files under the control's
 * sysfs root (the AMD/Intel device directory is found by st->pci_bus_id
 * among <root>/class/drm/card* /device). Returns 0, or -1 with caps->why
 * set when nothing is settable (a demo device, another vendor, no NVML,
 * the device not found); then every setting's why says the same. Each
 * setting the device lacks is marked (known = false with why, has_level =
 * false, nprofiles = 0, fan_method = NONE with fan_why). */
int gt_control_caps_read(struct gt_control *c, const struct gt_static *st,
                         struct gt_control_caps *caps);

/* A setting the device does not offer: known = false, def and cur -1,
 * and why. For the vendors' caps readers. */
void gt_control_range_unknown(struct gt_control_range *r, const char *why);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * test_control_vendors.c - tests of the list of control vendors
 * (src/control/control_vendors.c) and the ops each one gives: names a
 * state file can carry, one entry per vendor, the setters each vendor has
 * (and NULL where it has none), the vendors the journal's own kinds name,
 * and the version-1 fallback: every file a sysfs setter writes a value to
 * is claimed by its own vendor alone, by its name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "control/control_amdgpu.h"
#include "control/control_intel.h"
#include "control/control_nvml.h"
#include "control/control_vendors.h"
#include "control/restore.h"

static size_t count(void)
{
	size_t n = 0;

	while (gt_control_vendors[n])
		n++;
	return n;
}

static const struct gt_control_ops *named(const char *name)
{
	for (size_t i = 0; gt_control_vendors[i]; i++)
		if (strcmp(gt_control_vendors[i]->name, name) == 0)
			return gt_control_vendors[i];
	return NULL;
}

static void test_list(void **state)
{
	(void)state;

	assert_int_equal(count(), 3);
	assert_ptr_equal(gt_control_vendors[0], &gt_control_nvml_ops);
	assert_ptr_equal(gt_control_vendors[1], &gt_control_amdgpu_ops);
	assert_ptr_equal(gt_control_vendors[2], &gt_control_intel_ops);
	for (size_t i = 0; i < count(); i++) {
		const struct gt_control_ops *o = gt_control_vendors[i];
		size_t n = strlen(o->name);
		/* A name the state file can hold (restore.h). */
		assert_true(n > 0 && n < GT_RESTORE_VENDOR_MAX);
		assert_int_equal(
		    strspn(o->name, "abcdefghijklmnopqrstuvwxyz0123456789"), n);
		assert_non_null(o->caps);
		assert_non_null(o->restore);
		assert_non_null(o->power_limit);
		assert_non_null(o->power_unit);
		/* A sysfs vendor claims version-1 records; NVML has none. */
		assert_int_equal(o->sysfs, o->owns_file != NULL);
		/* The loop needs both of its writes, or neither. */
		assert_int_equal(o->fan_speed != NULL, o->fan_auto != NULL);
		for (size_t k = 0; k < i; k++) {
			assert_string_not_equal(gt_control_vendors[k]->name,
			                        o->name);
			assert_int_not_equal(gt_control_vendors[k]->vendor,
			                     o->vendor);
		}
	}
}

static void test_what_each_vendor_sets(void **state)
{
	const struct gt_control_ops *nv = &gt_control_nvml_ops,
	                            *amd = &gt_control_amdgpu_ops,
	                            *in = &gt_control_intel_ops;
	(void)state;

	assert_string_equal(nv->name, "nvml");
	assert_int_equal(nv->vendor, GT_VENDOR_NVIDIA);
	assert_false(nv->sysfs);
	assert_string_equal(nv->power_unit, "mW");
	assert_true(nv->fan_per_index);
	assert_false(nv->fan_loop_hotspot);
	assert_null(nv->perf_level);
	assert_null(nv->power_profile);
	assert_null(nv->freq_limits);
	assert_non_null(nv->fan_speed);
	assert_null(nv->fan_curve);

	assert_string_equal(amd->name, "amdgpu");
	assert_int_equal(amd->vendor, GT_VENDOR_AMD);
	assert_true(amd->sysfs);
	assert_string_equal(amd->power_unit, "µW");
	assert_false(amd->fan_per_index);
	assert_true(amd->fan_loop_hotspot);
	assert_true(amd->power_limit == gt_control_amdgpu_power_cap);
	assert_true(amd->perf_level == gt_control_amdgpu_perf_level);
	assert_true(amd->power_profile == gt_control_amdgpu_power_profile);
	assert_null(amd->freq_limits);
	assert_non_null(amd->fan_speed);
	assert_true(amd->fan_curve == gt_control_amdgpu_fan_curve);

	assert_string_equal(in->name, "intel");
	assert_int_equal(in->vendor, GT_VENDOR_INTEL);
	assert_true(in->sysfs);
	assert_string_equal(in->power_unit, "µW");
	assert_true(in->power_limit == gt_control_intel_power_limit);
	assert_true(in->freq_limits == gt_control_intel_freq_limits);
	assert_null(in->perf_level);
	assert_null(in->power_profile);
	assert_null(in->fan_speed);
	assert_null(in->fan_curve);
}

/* The kinds that name their vendor name one of the list. */
static void test_kind_vendors_listed(void **state)
{
	struct gt_restore_action a;
	(void)state;

	assert_int_equal(gt_restore_action_fan_auto(&a, "0000:01:00.0", 0, 1),
	                 0);
	assert_ptr_equal(named(a.vendor), &gt_control_nvml_ops);
	assert_int_equal(
	    gt_restore_action_power_limit(&a, "0000:01:00.0", 300000, 1), 0);
	assert_ptr_equal(named(a.vendor), &gt_control_nvml_ops);
	assert_int_equal(
	    gt_restore_action_fan_curve_reset(&a, "0000:03:00.0",
	                                      "/sys/class/drm/card0/device", 1),
	    0);
	assert_ptr_equal(named(a.vendor), &gt_control_amdgpu_ops);
}

/* Version 1: each file a setter writes a value to is claimed by its own
 * vendor and no other; files no setter writes by nobody. */
static void test_version1_claims(void **state)
{
	static const struct {
		const char *path, *owner;
	} t[] = {
	    {"/sys/class/drm/card0/device/power_dpm_force_performance_level",
	     "amdgpu"},
	    {"/sys/class/drm/card0/device/pp_power_profile_mode", "amdgpu"},
	    {"/sys/class/drm/card0/device/hwmon/hwmon4/power1_cap", "amdgpu"},
	    {"/sys/class/drm/card0/device/hwmon/hwmon4/pwm1_enable", "amdgpu"},
	    {"/sys/class/drm/card0/device/hwmon/hwmon4/pwm1", "amdgpu"},
	    {"/sys/class/drm/card1/device/hwmon/hwmon2/power1_max", "intel"},
	    {"/sys/class/drm/card1/device/hwmon/hwmon2/power2_max", "intel"},
	    {"/sys/class/drm/card1/gt/gt0/rps_min_freq_mhz", "intel"},
	    {"/sys/class/drm/card1/gt/gt0/rps_max_freq_mhz", "intel"},
	    {"/sys/class/drm/card1/gt_min_freq_mhz", "intel"},
	    {"/sys/class/drm/card1/gt_max_freq_mhz", "intel"},
	    {"/sys/class/drm/card1/device/tile0/gt0/freq0/min_freq", "intel"},
	    {"/sys/class/drm/card1/device/tile0/gt0/freq0/max_freq", "intel"},
	    {"/sys/class/drm/card0/device/uevent", NULL},
	    {"/sys/class/drm/card0/device/gpu_od/fan_ctrl/fan_curve", NULL},
	    {"/sys/class/drm/card0/device/hwmon/hwmon4/power1_cap_max", NULL},
	    {"/sys/class/drm/card0/device/hwmon/hwmon4/pwm1_max", NULL},
	    {"/sys/class/drm/card1/device/hwmon/hwmon2/power1_rated_max", NULL},
	    {"/sys/class/drm/card1/gt/gt0/rps_RP0_freq_mhz", NULL},
	};
	(void)state;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const char *owner = NULL;
		int claims = 0;
		for (size_t k = 0; gt_control_vendors[k]; k++) {
			const struct gt_control_ops *o = gt_control_vendors[k];
			if (o->owns_file && o->owns_file(t[i].path)) {
				owner = o->name;
				claims++;
			}
		}
		if (t[i].owner ? claims != 1 || strcmp(owner, t[i].owner)
		               : claims != 0)
			fail_msg("%s: claimed by %d (%s), want %s", t[i].path,
			         claims, owner ? owner : "none",
			         t[i].owner ? t[i].owner : "none");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_list),
	    cmocka_unit_test(test_what_each_vendor_sets),
	    cmocka_unit_test(test_kind_vendors_listed),
	    cmocka_unit_test(test_version1_claims),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

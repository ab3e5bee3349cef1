/* SPDX-License-Identifier: MIT */
/*
 * test_intel.c - the real gputop binary's --snapshot for each synthetic
 * i915 and xe tree in tests/fixtures/intel (exact frequencies, limits,
 * names, temperatures, reasons), for a suspended copy of one, and for a
 * tree without an Intel GPU. The backend called directly on temporary
 * copies is test_intel_backend.c's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "support/intel_test.h"
#include "support/json_path.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"

static cJSON *snapshot(const char *sysfs, const char *pciids)
{
	return snapshot_ex(sysfs, pciids, NULL, NULL);
}

/* The reason the snapshot gives under "unavailable" for key. */
static const char *reason(const cJSON *dev, const char *key)
{
	cJSON *why = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(dev, "unavailable"), key);
	if (!cJSON_IsString(why))
		fail_msg("no reason for %s", key);
	return why->valuestring;
}

/* Every numeric field of the model is either set or explained. */
static void assert_all_explained(const cJSON *dev)
{
	char path[96];
	for (int pass = 0; pass < 2; pass++) {
		int n = pass ? GT_F_FAN_PERCENT0 : GT_S__COUNT;
		for (int i = 0; i < n; i++) {
			const struct gt_field_desc *d =
			    pass ? &gt_field_desc[i] : &gt_static_desc[i];
			if (!d->group || !strcmp(d->key, "reasons"))
				continue;
			if (!strcmp(d->group, "device"))
				snprintf(path, sizeof(path), "%s", d->key);
			else
				snprintf(path, sizeof(path), "%s.%s", d->group,
				         d->key);
			if (cJSON_IsNull(get(dev, path)))
				assert_null_why(dev, path, NULL);
		}
	}
}

static const cJSON *intel_backend(const cJSON *doc)
{
	const cJSON *b;
	cJSON_ArrayForEach(b, get(doc, "backends"))
	{
		if (!strcmp(str(b, "name"), "intel"))
			return b;
	}
	fail_msg("no intel backend in the snapshot");
	return NULL;
}

static void test_dg2_snapshot(void **state)
{
	(void)state;
	cJSON *doc = snapshot(fixture("i915-dg2"), "/nonexistent");
	const cJSON *b = intel_backend(doc);
	assert_string_equal(str(b, "status"), "ok");
	assert_string_equal(str(b, "detail"), "1 GPU (i915: 1, xe: 0)");
	assert_int_equal(cJSON_GetArraySize(get(doc, "devices")), 1);
	const cJSON *dev = cJSON_GetArrayItem(get(doc, "devices"), 0);

	/* No pci.ids: the built-in table names it. */
	assert_string_equal(str(dev, "name"), "Intel Arc A770 Graphics");
	assert_string_equal(str(dev, "architecture"), "Xe-HPG");
	assert_string_equal(str(dev, "vendor"), "intel");
	assert_string_equal(str(dev, "driver"), "i915");
	assert_string_equal(str(dev, "id"), "pci:0000:03:00.0");
	assert_string_equal(str(dev, "pci_device_id"), "0x56a0");
	assert_string_equal(str(dev, "state"), "ok");
	assert_false(cJSON_IsTrue(get(dev, "integrated")));
	/* gt/gt0/rps_* */
	assert_num(dev, "clocks.graphics_mhz", 2250);
	assert_num(dev, "clocks.graphics_requested_mhz", 2400);
	assert_num(dev, "clocks.graphics_min_limit_mhz", 300);
	assert_num(dev, "clocks.graphics_max_limit_mhz", 2400);
	assert_num(dev, "clocks.graphics_max_mhz", 2400);
	assert_null_why(dev, "clocks.video_mhz", "not supported");
	/* hwmon2 (name i915), not hwmon3 (i915_gt0). */
	assert_num(dev, "thermal.gpu_celsius", 72);
	assert_num(dev, "thermal.fan_count", 1);
	assert_num(cJSON_GetArrayItem(get(dev, "thermal.fans"), 0), "rpm",
	           1850);
	assert_num(dev, "power.limit_watts", 190);
	assert_num(dev, "power.enforced_limit_watts", 190);
	assert_num(dev, "power.default_limit_watts", 225);
	/* The TDP, not power1_crit (400 W, the reactive I1 limit). */
	assert_num(dev, "power.max_limit_watts", 225);
	assert_num(dev, "power.energy_joules", 912345.678);
	/* Two samples of static counters: no energy used, no idle time. */
	assert_num(dev, "power.draw_watts", 0);
	assert_num(dev, "utilization.idle_residency_percent", 0);
	assert_true(cJSON_IsTrue(get(dev, "throttle.active")));
	const cJSON *reasons = get(dev, "throttle.reasons");
	assert_int_equal(cJSON_GetArraySize(reasons), 1);
	assert_string_equal(cJSON_GetArrayItem(reasons, 0)->valuestring,
	                    "power_cap");
	assert_num(dev, "pcie.link_gen", 4);
	assert_num(dev, "pcie.link_width", 16);
	assert_num(dev, "pcie.max_link_gen", 4);
	/* VRAM needs the query ioctl; a --sysfs tree has no device node. */
	assert_null_why(dev, "memory.total_bytes", "no sensor");
	assert_all_explained(dev);
	cJSON_Delete(doc);
}

static void test_tgl_snapshot(void **state)
{
	(void)state;
	cJSON *doc = snapshot(fixture("i915-tgl"), fixture("pci.ids"));
	const cJSON *dev = cJSON_GetArrayItem(get(doc, "devices"), 0);

	/* pci.ids "TigerLake-LP GT2 [Iris Xe Graphics]" */
	assert_string_equal(str(dev, "name"), "Intel Iris Xe Graphics");
	assert_string_equal(str(dev, "architecture"), "Xe-LP");
	assert_true(cJSON_IsTrue(get(dev, "integrated")));
	/* Legacy gt_*_freq_mhz: idle in RC6, so act reads 0. */
	assert_num(dev, "clocks.graphics_mhz", 0);
	assert_num(dev, "clocks.graphics_requested_mhz", 350);
	assert_num(dev, "clocks.graphics_min_limit_mhz", 350);
	assert_num(dev, "clocks.graphics_max_limit_mhz", 1450);
	assert_num(dev, "clocks.graphics_max_mhz", 1450);
	/* power/rc6_residency_ms */
	assert_num(dev, "utilization.idle_residency_percent", 0);
	/* No GPU hwmon on an iGPU; no throttle files on this kernel. */
	assert_null_why(dev, "thermal.gpu_celsius", "not supported");
	assert_null_why(dev, "power.draw_watts", "not supported");
	assert_null_why(dev, "power.limit_watts", "not supported");
	assert_null_why(dev, "memory.total_bytes", "not supported");
	assert_null_why(dev, "pcie.link_gen", "not supported");
	assert_null_why(dev, "thermal.fan_count", "not supported");
	assert_int_equal(cJSON_GetArraySize(get(dev, "thermal.fans")), 0);
	assert_true(cJSON_IsNull(get(dev, "throttle.active")));
	assert_non_null(strstr(reason(dev, "throttle.reasons"), "no sensor"));
	assert_all_explained(dev);
	cJSON_Delete(doc);
}

static void test_bmg_snapshot(void **state)
{
	(void)state;
	cJSON *doc = snapshot(fixture("xe-bmg"), fixture("pci.ids"));
	const cJSON *b = intel_backend(doc);
	assert_string_equal(str(b, "detail"), "1 GPU (i915: 0, xe: 1)");
	const cJSON *dev = cJSON_GetArrayItem(get(doc, "devices"), 0);

	/* pci.ids "Battlemage G21 [Arc B580]" */
	assert_string_equal(str(dev, "name"), "Intel Arc B580");
	assert_string_equal(str(dev, "architecture"), "Xe2-HPG");
	assert_string_equal(str(dev, "driver"), "xe");
	assert_string_equal(str(dev, "pci_device_id"), "0xe20b");
	assert_false(cJSON_IsTrue(get(dev, "integrated")));
	/* tile0/gt0/freq0 and the media GT tile0/gt1/freq0 */
	assert_num(dev, "clocks.graphics_mhz", 2800);
	assert_num(dev, "clocks.graphics_requested_mhz", 2850);
	assert_num(dev, "clocks.graphics_min_limit_mhz", 400);
	assert_num(dev, "clocks.graphics_max_limit_mhz", 2850);
	assert_num(dev, "clocks.graphics_max_mhz", 2850);
	assert_num(dev, "clocks.video_mhz", 1100);
	assert_num(dev, "clocks.video_max_mhz", 1800);
	/* hwmon: temp2 "pkg", temp3 "vram", two fans, power1 "card" */
	assert_num(dev, "thermal.gpu_celsius", 61);
	assert_num(dev, "thermal.memory_celsius", 70);
	assert_num(dev, "thermal.fan_count", 2);
	assert_num(cJSON_GetArrayItem(get(dev, "thermal.fans"), 0), "rpm",
	           1320);
	assert_num(cJSON_GetArrayItem(get(dev, "thermal.fans"), 1), "rpm",
	           1318);
	/* hwmon has RPM only. */
	assert_true(cJSON_IsNull(
	    get(cJSON_GetArrayItem(get(dev, "thermal.fans"), 0), "percent")));
	assert_non_null(
	    strstr(reason(dev, "thermal.fans[0].percent"), "not supported"));
	assert_num(dev, "power.limit_watts", 190);
	assert_num(dev, "power.default_limit_watts", 190);
	assert_num(dev, "power.energy_joules", 183214.7);
	assert_num(dev, "power.draw_watts", 0);
	assert_num(dev, "utilization.idle_residency_percent", 0);
	assert_false(cJSON_IsTrue(get(dev, "throttle.active")));
	assert_int_equal(cJSON_GetArraySize(get(dev, "throttle.reasons")), 0);
	assert_num(dev, "memory.total_bytes", 12884901888.0);
	assert_null_why(dev, "memory.used_bytes", NULL);
	assert_num(dev, "pcie.link_gen", 4);
	assert_num(dev, "pcie.link_width", 8);
	assert_all_explained(dev);
	cJSON_Delete(doc);
}

static void test_asleep_snapshot(void **state)
{
	(void)state;
	struct copy c;
	copy_fixture(&c, "xe-bmg", "card1");
	put(c.dev, "power/runtime_status", "suspended");
	cJSON *doc = snapshot(c.root, "/nonexistent");
	const cJSON *dev = cJSON_GetArrayItem(get(doc, "devices"), 0);
	assert_string_equal(str(dev, "state"), "asleep");
	/* Identity comes from PCI config data, which does not wake it. */
	assert_string_equal(str(dev, "name"), "Intel Arc B580 Graphics");
	assert_null_why(dev, "clocks.graphics_mhz", "asleep");
	assert_null_why(dev, "thermal.gpu_celsius", "asleep");
	assert_null_why(dev, "memory.total_bytes", "asleep");
	cJSON_Delete(doc);
	drop_copy(&c);
}

static void test_no_intel_gpu(void **state)
{
	(void)state;
	/* A sysfs root without class/drm. */
	cJSON *doc = snapshot(fixture(""), "/nonexistent");
	const cJSON *b = intel_backend(doc);
	assert_string_equal(str(b, "status"), "unavailable");
	assert_non_null(strstr(str(b, "detail"), "no Intel GPU"));
	assert_int_equal(cJSON_GetArraySize(get(doc, "devices")), 0);
	cJSON_Delete(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_dg2_snapshot),
	    cmocka_unit_test(test_tgl_snapshot),
	    cmocka_unit_test(test_bmg_snapshot),
	    cmocka_unit_test(test_asleep_snapshot),
	    cmocka_unit_test(test_no_intel_gpu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

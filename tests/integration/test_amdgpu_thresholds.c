/* SPDX-License-Identifier: MIT */
/*
 * test_amdgpu_thresholds.c - the temperature limits of every amdgpu hwmon
 * sensor: the edge sensor's crit/emergency (slowdown/shutdown), the
 * junction's crit (gpu_max) and emergency (hotspot_shutdown), the
 * memory's crit (memory_max) and emergency (memory_shutdown). Checked in
 * the backend's static facts (m°C) and in the binary's --snapshot JSON
 * (°C), against the values in the captures' files:
 *
 *   rx6900xt hwmon5: temp1 edge crit 100000 emergency 105000,
 *                    temp2 junction crit 110000 emergency 115000,
 *                    temp3 mem crit 100000 emergency 105000
 *   vega56   hwmon4: temp2_emergency 110000, temp3_emergency 100000
 *   rx9070   hwmon2: temp2_emergency 115000, temp3_emergency 113000
 *   phoenix  (APU):  temp1 only - no junction or memory sensor
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "support/json_path.h"
#include "support/run_gputop.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collectors/registry.h"
#include "core/backend.h"
#include "core/model.h"

static const char *capture(const char *name)
{
	static char buf[PATH_MAX];
	snprintf(buf, sizeof(buf), "%s/amdgpu/%s",
	         run_env_or_fail("GPUTOP_FIXTURES"), name);
	return buf;
}

/* The static facts of the capture's one device, read by the backend. */
static void static_of(const char *name, struct gt_static *st)
{
	struct gt_backend b = {.ops = &gt_amdgpu_backend};
	struct gt_backend_options opt = {.sysfs_root = capture(name)};
	b.ops->probe(&b, &opt);
	assert_int_equal(b.status, GT_BACKEND_OK);
	assert_int_equal(b.device_count, 1);
	gt_static_init(st);
	assert_int_equal(b.ops->get_static(&b, 0, st), 0);
	b.ops->shutdown(&b);
}

static void expect_mc(const struct gt_static *st, int field, int64_t mc)
{
	if (!gt_val_ok(&st->f[field]))
		fail_msg("%s.%s missing (why %d)", gt_static_desc[field].group,
		         gt_static_desc[field].key, st->f[field].why);
	assert_int_equal(st->f[field].v, mc);
}

static void test_rx6900xt_every_limit(void **state)
{
	(void)state;
	struct gt_static st;
	static_of("rx6900xt", &st);
	expect_mc(&st, GT_S_TEMP_SLOWDOWN, 100000);
	expect_mc(&st, GT_S_TEMP_SHUTDOWN, 105000);
	expect_mc(&st, GT_S_TEMP_GPU_MAX, 110000);
	expect_mc(&st, GT_S_TEMP_HOTSPOT_SHUTDOWN, 115000);
	expect_mc(&st, GT_S_TEMP_MEM_MAX, 100000);
	expect_mc(&st, GT_S_TEMP_MEM_SHUTDOWN, 105000);
}

static void test_other_generations(void **state)
{
	(void)state;
	struct gt_static st;
	/* The edge sensor's limits differ from the memory sensor's here
	 * (on the rx6900xt they are equal, so a mix-up would not show). */
	static_of("vega56", &st); /* Vega10: the first with three sensors */
	expect_mc(&st, GT_S_TEMP_SLOWDOWN, 85000);
	expect_mc(&st, GT_S_TEMP_SHUTDOWN, 90000);
	expect_mc(&st, GT_S_TEMP_HOTSPOT_SHUTDOWN, 110000);
	expect_mc(&st, GT_S_TEMP_MEM_SHUTDOWN, 100000);
	static_of("rx9070", &st); /* RDNA4 */
	expect_mc(&st, GT_S_TEMP_SLOWDOWN, 110000);
	expect_mc(&st, GT_S_TEMP_SHUTDOWN, 115000);
	expect_mc(&st, GT_S_TEMP_HOTSPOT_SHUTDOWN, 115000);
	expect_mc(&st, GT_S_TEMP_MEM_SHUTDOWN, 113000);
}

static void test_apu_has_no_such_sensor(void **state)
{
	(void)state;
	struct gt_static st;
	static_of("phoenix", &st);
	assert_int_equal(st.f[GT_S_TEMP_HOTSPOT_SHUTDOWN].why,
	                 GT_WHY_NO_SENSOR);
	assert_int_equal(st.f[GT_S_TEMP_MEM_SHUTDOWN].why, GT_WHY_NO_SENSOR);
}

/* `gputop --sysfs <capture> --snapshot`, parsed. */
static cJSON *snapshot_of(const char *name)
{
	char root[PATH_MAX], proc[] = "/tmp/gputop-thr-proc-XXXXXX";

	snprintf(root, sizeof(root), "%s", capture(name));
	assert_non_null(mkdtemp(proc));
	const char *const argv[] = {
	    "gputop",     "--sysfs", root,         "--snapshot",
	    "--interval", "0.1",     "--nvml-lib", "/nonexistent",
	    "--procfs",   proc,      NULL};
	char *out = run_gputop_stdout(argv);
	rmdir(proc);
	cJSON *doc = cJSON_Parse(out);
	free(out);
	assert_non_null(doc);
	return doc;
}

static void test_snapshot_keys(void **state)
{
	(void)state;
	cJSON *doc = snapshot_of("rx6900xt");
	const cJSON *dev = cJSON_GetArrayItem(get(doc, "devices"), 0);
	assert_non_null(dev);
	/* °C in the JSON, each next to its sensor's other limit */
	assert_true(num(dev, "thermal.shutdown_celsius") == 105);
	assert_true(num(dev, "thermal.gpu_max_celsius") == 110);
	assert_true(num(dev, "thermal.hotspot_shutdown_celsius") == 115);
	assert_true(num(dev, "thermal.memory_max_celsius") == 100);
	assert_true(num(dev, "thermal.memory_shutdown_celsius") == 105);
	cJSON_Delete(doc);

	/* missing: null, with the reason under "unavailable" */
	doc = snapshot_of("phoenix");
	dev = cJSON_GetArrayItem(get(doc, "devices"), 0);
	assert_true(cJSON_IsNull(get(dev, "thermal.hotspot_shutdown_celsius")));
	assert_true(cJSON_IsNull(get(dev, "thermal.memory_shutdown_celsius")));
	const cJSON *why = cJSON_GetObjectItemCaseSensitive(
	    get(dev, "unavailable"), "thermal.hotspot_shutdown_celsius");
	assert_true(cJSON_IsString(why));
	assert_non_null(strstr(why->valuestring, "sensor"));
	cJSON_Delete(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rx6900xt_every_limit),
	    cmocka_unit_test(test_other_generations),
	    cmocka_unit_test(test_apu_has_no_such_sensor),
	    cmocka_unit_test(test_snapshot_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

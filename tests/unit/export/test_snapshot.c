/* SPDX-License-Identifier: MIT */
/*
 * test_snapshot.c - the gputop.snapshot v1 JSON document
 * (src/export/snapshot.c), built from hand-made inputs
 * (support/snapshot_test.h): the header, the host and the backends, every
 * schema key of a device present, values scaled to the units in the key
 * names, every null explained under "unavailable" and every reason naming
 * a null, throttle reasons and fans. The process rows and the safety of
 * the text are test_snapshot_text.c's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "core/backend.h"
#include "core/model.h"
#include "export/snapshot.h"
#include "support/snapshot_test.h"

static void test_parses_and_header(void **state)
{
	struct fixture *fx = *state;
	size_t len = strlen(fx->json);

	assert_true(len > 2);
	assert_int_equal(fx->json[len - 1], '\n');
	assert_string_equal(str(fx->root, "schema"), "gputop.snapshot");
	assert_true(num(fx->root, "schema_version") == 1);
	cJSON *gen = get(fx->root, "generator");
	assert_string_equal(str(gen, "name"), "gputop");
	assert_string_equal(str(gen, "version"), GPUTOP_VERSION);
	assert_string_equal(str(fx->root, "timestamp"),
	                    "2023-11-14T22:13:20.000000005Z");
	assert_true(num(fx->root, "monotonic_ns") == 123456789000.0);
	assert_true(num(fx->root, "sample_window_ns") == 1e9);
	/* one device is simulated: the document says so */
	assert_true(cJSON_IsTrue(get(fx->root, "demo")));
}

static void test_top_level_keys(void **state)
{
	struct fixture *fx = *state;
	CHECK_KEYS(fx->root, "document", "schema", "schema_version",
	           "generator", "timestamp", "monotonic_ns", "sample_window_ns",
	           "host", "backends", "devices", "processes", "demo");
	CHECK_KEYS(get(fx->root, "generator"), "generator", "name", "version");
	assert_true(cJSON_IsArray(get(fx->root, "backends")));
	assert_true(cJSON_IsArray(get(fx->root, "devices")));
	assert_true(cJSON_IsArray(get(fx->root, "processes")));
	assert_int_equal(cJSON_GetArraySize(get(fx->root, "devices")), 2);
	assert_int_equal(cJSON_GetArraySize(get(fx->root, "processes")), 3);
}

static void test_host_and_backends(void **state)
{
	struct fixture *fx = *state;
	cJSON *host = get(fx->root, "host");

	CHECK_KEYS(host, "host", "hostname", "kernel", "cpu_count",
	           "memory_total_bytes", "euid");
	assert_string_equal(str(host, "hostname"), "node-7");
	assert_string_equal(str(host, "kernel"), "6.1.0-18-amd64");
	assert_true(num(host, "cpu_count") == 64);
	assert_true(num(host, "memory_total_bytes") == 540000000000.0);
	assert_true(num(host, "euid") == 1000);

	cJSON *bes = get(fx->root, "backends");
	assert_int_equal(cJSON_GetArraySize(bes), 1);
	cJSON *b = cJSON_GetArrayItem(bes, 0);
	CHECK_KEYS(b, "backend", "name", "status", "detail", "device_count");
	assert_string_equal(str(b, "name"), "fakeb");
	assert_string_equal(str(b, "status"), "ok");
	assert_string_equal(str(b, "detail"), "driver 590.48.01");
	assert_true(num(b, "device_count") == 2);
}

static void check_device_keys(const cJSON *d)
{
	CHECK_KEYS(d, "device", "index", "id", "vendor", "driver",
	           "driver_version", "name", "uuid", "serial", "pci_bus_id",
	           "pci_vendor_id", "pci_device_id", "architecture",
	           "vbios_version", "integrated", "demo", "lost", "state",
	           "compute_capability_major", "compute_capability_minor",
	           "mig_enabled", "ecc_enabled", "utilization", "memory",
	           "thermal", "power", "clocks", "pcie", "throttle", "ecc",
	           "unavailable");
	CHECK_KEYS(get(d, "utilization"), "utilization", "gpu_percent",
	           "memory_bandwidth_percent", "encoder_percent",
	           "decoder_percent");
	CHECK_KEYS(get(d, "memory"), "memory", "total_bytes", "used_bytes",
	           "free_bytes", "reserved_bytes");
	CHECK_KEYS(get(d, "thermal"), "thermal", "gpu_celsius",
	           "hotspot_celsius", "memory_celsius", "slowdown_celsius",
	           "shutdown_celsius", "gpu_max_celsius", "memory_max_celsius",
	           "fan_count", "fan_min_percent", "fan_max_percent", "fans");
	CHECK_KEYS(get(d, "power"), "power", "draw_watts", "limit_watts",
	           "enforced_limit_watts", "default_limit_watts",
	           "min_limit_watts", "max_limit_watts", "energy_joules",
	           "pstate");
	CHECK_KEYS(get(d, "clocks"), "clocks", "graphics_mhz", "sm_mhz",
	           "memory_mhz", "video_mhz", "graphics_max_mhz", "sm_max_mhz",
	           "memory_max_mhz", "video_max_mhz");
	CHECK_KEYS(get(d, "pcie"), "pcie", "link_gen", "link_width",
	           "max_link_gen", "max_link_width", "tx_bytes_per_second",
	           "rx_bytes_per_second");
	CHECK_KEYS(get(d, "throttle"), "throttle", "active", "reasons");
	CHECK_KEYS(get(d, "ecc"), "ecc", "corrected_volatile",
	           "uncorrected_volatile", "corrected_aggregate",
	           "uncorrected_aggregate");
	assert_true(cJSON_IsArray(get(get(d, "thermal"), "fans")));
	assert_true(cJSON_IsArray(get(get(d, "throttle"), "reasons")));
	assert_true(cJSON_IsObject(get(d, "unavailable")));
}

static void test_device_keys(void **state)
{
	struct fixture *fx = *state;
	/* the healthy device and the lost one have the same shape */
	check_device_keys(device(fx, 0));
	check_device_keys(device(fx, 1));
}

static void test_device_identity(void **state)
{
	struct fixture *fx = *state;
	cJSON *d = device(fx, 0);

	assert_true(num(d, "index") == 0);
	assert_string_equal(str(d, "id"), "pci:0000:18:00.0");
	assert_string_equal(str(d, "vendor"), "nvidia");
	assert_string_equal(str(d, "driver"), "nvidia");
	assert_string_equal(str(d, "driver_version"), "590.48.01");
	assert_string_equal(str(d, "name"), "NVIDIA H100 80GB HBM3");
	assert_string_equal(str(d, "pci_bus_id"), "0000:18:00.0");
	assert_string_equal(str(d, "pci_vendor_id"), "0x10de");
	assert_string_equal(str(d, "pci_device_id"), "0x2330");
	assert_string_equal(str(d, "architecture"), "Hopper");
	assert_string_equal(str(d, "vbios_version"), "96.00.99.00.01");
	is_null(d, "serial"); /* empty string: the device has none */
	assert_true(cJSON_IsFalse(get(d, "integrated")));
	assert_true(cJSON_IsFalse(get(d, "demo")));
	assert_true(cJSON_IsFalse(get(d, "lost")));
	assert_string_equal(str(d, "state"), "ok");
	assert_true(num(d, "compute_capability_major") == 9);
	assert_true(num(d, "compute_capability_minor") == 0);
	assert_true(cJSON_IsFalse(get(d, "mig_enabled")));
	assert_true(cJSON_IsTrue(get(d, "ecc_enabled")));

	cJSON *d1 = device(fx, 1);
	assert_true(num(d1, "index") == 1);
	assert_true(cJSON_IsTrue(get(d1, "demo")));
	assert_true(cJSON_IsTrue(get(d1, "lost")));
	assert_string_equal(str(d1, "state"), "lost");
	is_null(d1, "uuid");
	is_null(d1, "driver");
	is_null(d1, "architecture");
	/* a device-level fact without a value is null with a reason */
	is_null(d1, "compute_capability_major");
	assert_non_null(
	    strstr(reason(d1, "compute_capability_major"), "not collected"));
}

static void test_values_scaled(void **state)
{
	struct fixture *fx = *state;
	cJSON *d = device(fx, 0);
	cJSON *u = get(d, "utilization"), *m = get(d, "memory");
	cJSON *t = get(d, "thermal"), *p = get(d, "power");
	cJSON *c = get(d, "clocks"), *x = get(d, "pcie"), *e = get(d, "ecc");

	/* cpercent -> % */
	assert_true(num(u, "gpu_percent") == 45.5);
	assert_true(num(u, "memory_bandwidth_percent") == 12.5);
	assert_true(num(u, "decoder_percent") == 0); /* zero is a value */
	assert_true(num(t, "fan_min_percent") == 30);
	assert_true(num(t, "fan_max_percent") == 100);
	/* bytes stay bytes */
	assert_true(num(m, "used_bytes") == 1073741824.0);
	assert_true(num(m, "free_bytes") == 84289470464.0);
	/* m°C -> °C */
	assert_true(num(t, "gpu_celsius") == 71.25);
	assert_true(num(t, "memory_celsius") == 65);
	assert_true(num(t, "slowdown_celsius") == 87);
	assert_true(num(t, "shutdown_celsius") == 92.5);
	assert_true(num(t, "gpu_max_celsius") == 85);
	assert_true(num(t, "fan_count") == 2);
	/* mW -> W, mJ -> J */
	assert_true(num(p, "limit_watts") == 700);
	assert_true(num(p, "enforced_limit_watts") == 650.5);
	assert_true(num(p, "default_limit_watts") == 650.25);
	assert_true(num(p, "min_limit_watts") == 200);
	assert_true(num(p, "max_limit_watts") == 700);
	assert_true(num(p, "energy_joules") == 123456789 / 1000.0);
	assert_true(num(p, "pstate") == 0);
	/* MHz */
	assert_true(num(c, "graphics_mhz") == 1755);
	assert_true(num(c, "sm_mhz") == 1750);
	assert_true(num(c, "memory_mhz") == 2619);
	assert_true(num(c, "graphics_max_mhz") == 1980);
	assert_true(num(c, "sm_max_mhz") == 1980);
	assert_true(num(c, "memory_max_mhz") == 2619);
	assert_true(num(c, "video_max_mhz") == 1755);
	/* PCIe */
	assert_true(num(x, "link_gen") == 4);
	assert_true(num(x, "link_width") == 8);
	assert_true(num(x, "max_link_gen") == 5);
	assert_true(num(x, "max_link_width") == 16);
	assert_true(num(x, "tx_bytes_per_second") == 1048576);
	/* ECC counts */
	assert_true(num(e, "corrected_volatile") == 3);
	assert_true(num(e, "uncorrected_volatile") == 0);
	assert_true(num(e, "corrected_aggregate") == 12);
}

static void test_failed_fields_null_with_reason(void **state)
{
	struct fixture *fx = *state;
	cJSON *d = device(fx, 0);

	is_null(get(d, "utilization"), "encoder_percent");
	assert_non_null(
	    strstr(reason(d, "utilization.encoder_percent"), "permission"));
	is_null(get(d, "memory"), "reserved_bytes");
	assert_non_null(strstr(reason(d, "memory.reserved_bytes"), "driver"));
	is_null(get(d, "thermal"), "hotspot_celsius");
	assert_non_null(strstr(reason(d, "thermal.hotspot_celsius"), "sensor"));
	is_null(get(d, "thermal"), "memory_max_celsius");
	assert_non_null(strstr(reason(d, "thermal.memory_max_celsius"),
	                       "not supported by this device"));
	is_null(get(d, "clocks"), "video_mhz");
	assert_non_null(strstr(reason(d, "clocks.video_mhz"), "MIG"));
	is_null(get(d, "pcie"), "rx_bytes_per_second");
	assert_non_null(
	    strstr(reason(d, "pcie.rx_bytes_per_second"), "second sample"));

	/* a driver error is explained with the backend's text */
	is_null(get(d, "power"), "draw_watts");
	const char *r = reason(d, "power.draw_watts");
	assert_non_null(strstr(r, "999"));
	assert_non_null(strstr(r, "Unknown Error"));
	assert_true(error_text_calls >= 1);
	assert_int_equal(error_text_last_code, 999);
	is_null(get(d, "ecc"), "uncorrected_aggregate");
	r = reason(d, "ecc.uncorrected_aggregate");
	assert_non_null(strstr(r, "999"));
	assert_non_null(strstr(r, "Unknown Error"));

	/* valid values have no reason */
	no_reason(d, "utilization.gpu_percent");
	no_reason(d, "utilization.decoder_percent");
	no_reason(d, "power.limit_watts");
	no_reason(d, "memory.total_bytes");

	/* without a backend the code alone is given */
	cJSON *d1 = device(fx, 1);
	is_null(get(d1, "power"), "draw_watts");
	assert_string_equal(reason(d1, "power.draw_watts"), "driver error 5");
	is_null(get(d1, "utilization"), "gpu_percent");
	assert_non_null(strstr(reason(d1, "utilization.gpu_percent"), "lost"));
}

/* The resolver of an "unavailable" name: the value it explains. */
static const cJSON *resolve(const cJSON *dev, const char *name)
{
	char buf[96];
	snprintf(buf, sizeof(buf), "%s", name);
	char *dot = strchr(buf, '.');
	if (!dot)
		return cJSON_GetObjectItemCaseSensitive(dev, buf);
	*dot = '\0';
	const cJSON *grp = cJSON_GetObjectItemCaseSensitive(dev, buf);
	const char *rest = dot + 1;
	unsigned idx;
	char key[32];
	if (sscanf(rest, "fans[%u].%31s", &idx, key) == 2)
		return cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetArrayItem(
		        cJSON_GetObjectItemCaseSensitive(grp, "fans"),
		        (int)idx),
		    key);
	return cJSON_GetObjectItemCaseSensitive(grp, rest);
}

/* Both directions, for every device: each null number has a reason, and
 * each reason names a null value (or an empty fan list / unknown throttle). */
static void test_reasons_match_nulls(void **state)
{
	struct fixture *fx = *state;
	static const char *const groups[] = {"utilization", "memory", "thermal",
	                                     "power",       "clocks", "pcie",
	                                     "ecc"};
	static const char *const dev_keys[] = {"compute_capability_major",
	                                       "compute_capability_minor",
	                                       "mig_enabled", "ecc_enabled"};

	for (int i = 0; i < 2; i++) {
		cJSON *d = device(fx, i);
		for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]);
		     g++) {
			cJSON *grp = get(d, groups[g]);
			cJSON *v;
			cJSON_ArrayForEach(v, grp)
			{
				char name[96];
				snprintf(name, sizeof(name), "%s.%s", groups[g],
				         v->string);
				if (cJSON_IsNull(v))
					(void)reason(d, name);
				else if (cJSON_IsNumber(v))
					no_reason(d, name);
			}
		}
		for (size_t k = 0; k < sizeof(dev_keys) / sizeof(dev_keys[0]);
		     k++)
			if (cJSON_IsNull(get(d, dev_keys[k])))
				(void)reason(d, dev_keys[k]);
			else
				no_reason(d, dev_keys[k]);

		cJSON *r;
		cJSON_ArrayForEach(r, get(d, "unavailable"))
		{
			if (strcmp(r->string, "thermal.fans") == 0) {
				assert_int_equal(
				    cJSON_GetArraySize(
				        get(get(d, "thermal"), "fans")),
				    0);
				continue;
			}
			if (strcmp(r->string, "throttle.reasons") == 0) {
				assert_true(cJSON_IsNull(
				    get(get(d, "throttle"), "active")));
				continue;
			}
			const cJSON *v = resolve(d, r->string);
			if (!v)
				fail_msg("reason for unknown value '%s'",
				         r->string);
			if (!cJSON_IsNull(v))
				fail_msg("reason for non-null '%s'", r->string);
		}
	}
}

static void test_memory_total(void **state)
{
	struct fixture *fx = *state;

	/* the sampled total wins over the static one when valid */
	assert_true(num(get(device(fx, 0), "memory"), "total_bytes") ==
	            (double)DEV0_SAMPLE_TOTAL);
	/* the static one stands in when the sample has none */
	assert_true(num(get(device(fx, 1), "memory"), "total_bytes") ==
	            (double)DEV1_STATIC_TOTAL);
	no_reason(device(fx, 1), "memory.total_bytes");

	/* neither: null, with the static reason */
	gt_val_fail(&fx->devs->items[1].f[GT_S_VRAM_TOTAL], GT_WHY_PERMISSION,
	            4);
	render(fx);
	is_null(get(device(fx, 1), "memory"), "total_bytes");
	assert_non_null(
	    strstr(reason(device(fx, 1), "memory.total_bytes"), "permission"));

	/* sample invalid on device 0: falls back to the static total */
	gt_val_fail(&fx->samples[0].f[GT_F_MEM_TOTAL], GT_WHY_PENDING, 0);
	render(fx);
	assert_true(num(get(device(fx, 0), "memory"), "total_bytes") ==
	            (double)DEV0_STATIC_TOTAL);
	no_reason(device(fx, 0), "memory.total_bytes");
}

static void test_throttle(void **state)
{
	struct fixture *fx = *state;
	cJSON *thr = get(device(fx, 0), "throttle");

	assert_true(cJSON_IsTrue(get(thr, "active")));
	cJSON *rs = get(thr, "reasons");
	assert_int_equal(cJSON_GetArraySize(rs), 3);
	assert_string_equal(cJSON_GetArrayItem(rs, 0)->valuestring, "idle");
	assert_string_equal(cJSON_GetArrayItem(rs, 1)->valuestring,
	                    "power_cap");
	assert_string_equal(cJSON_GetArrayItem(rs, 2)->valuestring,
	                    "hw_thermal");
	no_reason(device(fx, 0), "throttle.reasons");

	/* lost device: unknown, with a reason */
	cJSON *thr1 = get(device(fx, 1), "throttle");
	is_null(thr1, "active");
	assert_int_equal(cJSON_GetArraySize(get(thr1, "reasons")), 0);
	(void)reason(device(fx, 1), "throttle.reasons");

	/* idle alone is not "held back" */
	gt_val_set(&fx->samples[0].f[GT_F_THROTTLE], GT_THR_IDLE);
	render(fx);
	thr = get(device(fx, 0), "throttle");
	assert_true(cJSON_IsFalse(get(thr, "active")));
	assert_int_equal(cJSON_GetArraySize(get(thr, "reasons")), 1);

	/* nothing at all */
	gt_val_set(&fx->samples[0].f[GT_F_THROTTLE], 0);
	render(fx);
	thr = get(device(fx, 0), "throttle");
	assert_true(cJSON_IsFalse(get(thr, "active")));
	assert_int_equal(cJSON_GetArraySize(get(thr, "reasons")), 0);

	/* every named bit, in bit order */
	gt_val_set(&fx->samples[0].f[GT_F_THROTTLE], 0xffff);
	render(fx);
	thr = get(device(fx, 0), "throttle");
	assert_true(cJSON_IsTrue(get(thr, "active")));
	rs = get(thr, "reasons");
	static const char *const all[] = {
	    "idle",           "applications_clocks",
	    "power_cap",      "hw_slowdown",
	    "sync_boost",     "sw_thermal",
	    "hw_thermal",     "hw_power_brake",
	    "display_clocks", "current_limit",
	    "other"};
	assert_int_equal(cJSON_GetArraySize(rs), 11);
	for (int i = 0; i < 11; i++)
		assert_string_equal(cJSON_GetArrayItem(rs, i)->valuestring,
		                    all[i]);

	/* "other" alone counts as held back */
	gt_val_set(&fx->samples[0].f[GT_F_THROTTLE], GT_THR_OTHER);
	render(fx);
	assert_true(
	    cJSON_IsTrue(get(get(device(fx, 0), "throttle"), "active")));
}

static void test_fans(void **state)
{
	struct fixture *fx = *state;
	cJSON *d = device(fx, 0);
	cJSON *fans = get(get(d, "thermal"), "fans");

	assert_int_equal(cJSON_GetArraySize(fans), fx->samples[0].fan_count);
	cJSON *f0 = cJSON_GetArrayItem(fans, 0);
	CHECK_KEYS(f0, "fan", "percent", "rpm");
	assert_true(num(f0, "percent") == 45.5);
	assert_true(num(f0, "rpm") == 2100);
	cJSON *f1 = cJSON_GetArrayItem(fans, 1);
	CHECK_KEYS(f1, "fan", "percent", "rpm");
	is_null(f1, "percent");
	assert_true(num(f1, "rpm") == 2200);
	assert_non_null(
	    strstr(reason(d, "thermal.fans[1].percent"), "not supported"));
	no_reason(d, "thermal.fans[0].percent");

	/* no fan count: empty list, explained */
	cJSON *d1 = device(fx, 1);
	assert_int_equal(cJSON_GetArraySize(get(get(d1, "thermal"), "fans")),
	                 0);
	assert_non_null(strstr(reason(d1, "thermal.fans"), "not supported"));

	/* a fanless board (count 0) gives an empty list, no reason */
	gt_val_set(&fx->devs->items[0].f[GT_S_FAN_COUNT], 0);
	fx->samples[0].fan_count = 0;
	render(fx);
	d = device(fx, 0);
	assert_int_equal(cJSON_GetArraySize(get(get(d, "thermal"), "fans")), 0);
	no_reason(d, "thermal.fans");

	/* all eight fans */
	gt_val_set(&fx->devs->items[0].f[GT_S_FAN_COUNT], GT_MAX_FANS);
	fx->samples[0].fan_count = GT_MAX_FANS;
	for (int i = 0; i < GT_MAX_FANS; i++) {
		gt_val_set(&fx->samples[0].f[GT_F_FAN_PERCENT0 + i], 100 * i);
		gt_val_set(&fx->samples[0].f[GT_F_FAN_RPM0 + i], 1000 + i);
	}
	render(fx);
	fans = get(get(device(fx, 0), "thermal"), "fans");
	assert_int_equal(cJSON_GetArraySize(fans), GT_MAX_FANS);
	for (int i = 0; i < GT_MAX_FANS; i++) {
		assert_true(num(cJSON_GetArrayItem(fans, i), "percent") == i);
		assert_true(num(cJSON_GetArrayItem(fans, i), "rpm") ==
		            1000 + i);
	}
}

static void test_no_devices_no_processes(void **state)
{
	struct fixture *fx = *state;

	fx->in.procs = NULL;
	render(fx);
	assert_int_equal(cJSON_GetArraySize(get(fx->root, "processes")), 0);
	assert_int_equal(cJSON_GetArraySize(get(fx->root, "devices")), 2);

	fx->devs->count = 0;
	fx->in.procs = &fx->procs;
	fx->procs.count = 0;
	fx->backends[0].status = GT_BACKEND_UNAVAILABLE;
	snprintf(fx->backends[0].detail, GT_DETAIL_LEN,
	         "libnvidia-ml.so.1: cannot open shared object file");
	fx->backends[0].device_count = 0;
	render(fx);
	assert_int_equal(cJSON_GetArraySize(get(fx->root, "devices")), 0);
	assert_int_equal(cJSON_GetArraySize(get(fx->root, "processes")), 0);
	assert_true(cJSON_IsFalse(get(fx->root, "demo")));
	cJSON *b = cJSON_GetArrayItem(get(fx->root, "backends"), 0);
	assert_string_equal(str(b, "status"), "unavailable");
	assert_non_null(strstr(str(b, "detail"), "cannot open"));

	fx->backends[0].status = GT_BACKEND_ERROR;
	render(fx);
	b = cJSON_GetArrayItem(get(fx->root, "backends"), 0);
	assert_string_equal(str(b, "status"), "error");

	fx->in.nbackends = 0;
	render(fx);
	assert_int_equal(cJSON_GetArraySize(get(fx->root, "backends")), 0);
}

/* A device whose PCI identity the backend could not learn (NVML's PCI
 * query refused: vendor 0x0000, no address) has null ids with a reason,
 * not "0x0000" read as an id. */
static void test_pci_identity_unknown(void **state)
{
	struct fixture *fx = *state;
	cJSON *d1 = device(fx, 1);
	static const char *const keys[] = {"pci_bus_id", "pci_vendor_id",
	                                   "pci_device_id"};
	for (size_t i = 0; i < 3; i++) {
		is_null(d1, keys[i]);
		assert_string_equal(str(get(d1, "unavailable"), keys[i]),
		                    "not given by the driver");
		assert_null(cJSON_GetObjectItemCaseSensitive(
		    get(device(fx, 0), "unavailable"), keys[i]));
	}
}

static void test_asleep_state(void **state)
{
	struct fixture *fx = *state;
	fx->samples[1].state = GT_DEV_ASLEEP;
	render(fx);
	cJSON *d1 = device(fx, 1);
	assert_string_equal(str(d1, "state"), "asleep");
	assert_true(cJSON_IsFalse(get(d1, "lost")));
}

/* Saves in the same second keep every file: the later ones take a -2,
 * -3 suffix instead of replacing the first (s pressed twice at 0.1 s). */
static void test_save_same_second(void **state)
{
	(void)state;
	char dir[] = "/tmp/gputop-snapsave-XXXXXX", paths[3][512], cmd[600];
	assert_non_null(mkdtemp(dir));
	assert_int_equal(setenv("XDG_STATE_HOME", dir, 1), 0);
	const char *docs[3] = {"{\"n\":1}", "{\"n\":2}", "{\"n\":3}"};
	time_t t0;
	do { /* three saves inside one wall-clock second */
		t0 = time(NULL);
		for (int i = 0; i < 3; i++)
			assert_int_equal(gt_snapshot_save(docs[i], paths[i],
			                                  sizeof(paths[i])),
			                 0);
	} while (time(NULL) != t0);
	for (int i = 0; i < 3; i++) {
		for (int j = 0; j < i; j++)
			assert_string_not_equal(paths[i], paths[j]);
		FILE *f = fopen(paths[i], "r");
		char buf[16] = "";
		assert_non_null(f);
		assert_non_null(fgets(buf, sizeof(buf), f));
		fclose(f);
		assert_string_equal(buf, docs[i]);
	}
	assert_non_null(strstr(paths[1], "-2.json"));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
	    T(test_parses_and_header),
	    T(test_top_level_keys),
	    T(test_host_and_backends),
	    T(test_device_keys),
	    T(test_device_identity),
	    T(test_values_scaled),
	    T(test_failed_fields_null_with_reason),
	    T(test_reasons_match_nulls),
	    T(test_memory_total),
	    T(test_throttle),
	    T(test_fans),
	    T(test_no_devices_no_processes),
	    T(test_asleep_state),
	    T(test_pci_identity_unknown),
	    cmocka_unit_test(test_save_same_second),
	};
#undef T
	return cmocka_run_group_tests(tests, NULL, NULL);
}

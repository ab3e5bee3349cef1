/* SPDX-License-Identifier: MIT */
/*
 * test_snapshot.c - the gputop.snapshot v1 JSON document (src/snapshot.c),
 * built from hand-made inputs: every schema key present, values scaled to
 * the units in the key names, every null explained under "unavailable",
 * and hostile process text (escape sequences, quotes, invalid UTF-8) made
 * safe and valid.
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
#include "core/collector.h"
#include "core/hostinfo.h"
#include "core/model.h"
#include "export/snapshot.h"
#include "core/text.h"

/* ------------------------------------------------------------------ */
/* a fake backend                                                       */
/* ------------------------------------------------------------------ */

static int error_text_calls;
static int error_text_last_code;

static const char *fake_error_text(struct gt_backend *b, int code)
{
	(void)b;
	error_text_calls++;
	error_text_last_code = code;
	return "Unknown Error";
}

static const struct gt_backend_ops fake_ops = {
    .name = "fakeb",
    .error_text = fake_error_text,
};

/* ------------------------------------------------------------------ */
/* the input                                                            */
/* ------------------------------------------------------------------ */

#define DEV0_STATIC_TOTAL INT64_C(85520809984)
#define DEV0_SAMPLE_TOTAL INT64_C(85899345920)
#define DEV1_STATIC_TOTAL INT64_C(25769803776)

/* ESC, a CSI sequence, '"', '\\', '\n', an invalid 0xff byte and "ü". */
static const char evil_cmdline[] =
    "python3\x1b[31m \"q\" back\\slash\nnext \xff \xc3\xbc end";
/* what it must read as after JSON parsing */
static const char evil_cmdline_parsed[] =
    "python3\x1b[31m \"q\" back\\slash\nnext \xef\xbf\xbd \xc3\xbc end";
static const char evil_name[] = "evil\x1b]0;x\x07";

struct fixture {
	struct gt_hostinfo host;
	struct gt_backend backends[1];
	struct gt_devlist *devs;
	struct gt_sample samples[2];
	const struct gt_backend *dev_backends[2];
	struct gt_proclist procs;
	struct gt_process proc_items[3];
	struct gt_snapshot_input in;
	char *json;
	cJSON *root;
};

static void set_all_static_ok(struct gt_static *st)
{
	gt_val_set(&st->f[GT_S_VRAM_TOTAL], DEV0_STATIC_TOTAL);
	gt_val_set(&st->f[GT_S_POWER_MIN], 200000);
	gt_val_set(&st->f[GT_S_POWER_MAX], 700000);
	gt_val_set(&st->f[GT_S_POWER_DEFAULT], 650250);
	gt_val_set(&st->f[GT_S_TEMP_SLOWDOWN], 87000);
	gt_val_set(&st->f[GT_S_TEMP_SHUTDOWN], 92500);
	gt_val_set(&st->f[GT_S_TEMP_GPU_MAX], 85000);
	gt_val_fail(&st->f[GT_S_TEMP_MEM_MAX], GT_WHY_UNSUPPORTED_DEVICE, 3);
	gt_val_set(&st->f[GT_S_CLK_GRAPHICS_MAX], 1980);
	gt_val_set(&st->f[GT_S_CLK_SM_MAX], 1980);
	gt_val_set(&st->f[GT_S_CLK_MEM_MAX], 2619);
	gt_val_set(&st->f[GT_S_CLK_VIDEO_MAX], 1755);
	gt_val_set(&st->f[GT_S_PCIE_MAX_GEN], 5);
	gt_val_set(&st->f[GT_S_PCIE_MAX_WIDTH], 16);
	gt_val_set(&st->f[GT_S_FAN_COUNT], 2);
	gt_val_set(&st->f[GT_S_FAN_MIN_PERCENT], 3000);
	gt_val_set(&st->f[GT_S_FAN_MAX_PERCENT], 10000);
	gt_val_set(&st->f[GT_S_CC_MAJOR], 9);
	gt_val_set(&st->f[GT_S_CC_MINOR], 0);
	gt_val_set(&st->f[GT_S_MIG_MODE], 0);
	gt_val_set(&st->f[GT_S_ECC_MODE], 1);
}

static void set_dev0_sample(struct gt_sample *s)
{
	gt_sample_init(s);
	s->state = GT_DEV_OK;
	s->fan_count = 2;
	gt_val_set(&s->f[GT_F_UTIL_GPU], 4550);
	gt_val_set(&s->f[GT_F_UTIL_MEMBW], 1250);
	gt_val_fail(&s->f[GT_F_UTIL_ENC], GT_WHY_PERMISSION, 4);
	gt_val_set(&s->f[GT_F_UTIL_DEC], 0);
	gt_val_set(&s->f[GT_F_MEM_TOTAL], DEV0_SAMPLE_TOTAL);
	gt_val_set(&s->f[GT_F_MEM_USED], INT64_C(1073741824));
	gt_val_set(&s->f[GT_F_MEM_FREE], INT64_C(84289470464));
	gt_val_fail(&s->f[GT_F_MEM_RESERVED], GT_WHY_UNSUPPORTED_DRIVER, 13);
	gt_val_set(&s->f[GT_F_TEMP_GPU], 71250);
	gt_val_fail(&s->f[GT_F_TEMP_HOTSPOT], GT_WHY_NO_SENSOR, 0);
	gt_val_set(&s->f[GT_F_TEMP_MEM], 65000);
	gt_val_fail(&s->f[GT_F_POWER_DRAW], GT_WHY_DRIVER_ERROR, 999);
	gt_val_set(&s->f[GT_F_POWER_LIMIT], 700000);
	gt_val_set(&s->f[GT_F_POWER_ENFORCED], 650500);
	gt_val_set(&s->f[GT_F_ENERGY], INT64_C(123456789));
	gt_val_set(&s->f[GT_F_PSTATE], 0);
	gt_val_set(&s->f[GT_F_CLK_GRAPHICS], 1755);
	gt_val_set(&s->f[GT_F_CLK_SM], 1750);
	gt_val_set(&s->f[GT_F_CLK_MEM], 2619);
	gt_val_fail(&s->f[GT_F_CLK_VIDEO], GT_WHY_MIG, 0);
	gt_val_set(&s->f[GT_F_PCIE_GEN], 4);
	gt_val_set(&s->f[GT_F_PCIE_WIDTH], 8);
	gt_val_set(&s->f[GT_F_PCIE_TX], 1048576);
	gt_val_fail(&s->f[GT_F_PCIE_RX], GT_WHY_PENDING, 0);
	/* one bit gputop has no name for (bit 12) is left out of the list */
	gt_val_set(&s->f[GT_F_THROTTLE], GT_THR_IDLE | GT_THR_SW_POWER_CAP |
	                                     GT_THR_HW_THERMAL | (1u << 12));
	gt_val_set(&s->f[GT_F_ECC_CORRECTED_VOLATILE], 3);
	gt_val_set(&s->f[GT_F_ECC_UNCORRECTED_VOLATILE], 0);
	gt_val_set(&s->f[GT_F_ECC_CORRECTED_AGGREGATE], 12);
	gt_val_fail(&s->f[GT_F_ECC_UNCORRECTED_AGGREGATE], GT_WHY_DRIVER_ERROR,
	            999);
	gt_val_set(&s->f[GT_F_FAN_PERCENT0 + 0], 4550);
	gt_val_set(&s->f[GT_F_FAN_RPM0 + 0], 2100);
	gt_val_fail(&s->f[GT_F_FAN_PERCENT0 + 1], GT_WHY_UNSUPPORTED_DEVICE, 3);
	gt_val_set(&s->f[GT_F_FAN_RPM0 + 1], 2200);
	/* past fan_count: must not appear */
	gt_val_set(&s->f[GT_F_FAN_PERCENT0 + 2], 9999);
	gt_val_set(&s->f[GT_F_FAN_RPM0 + 2], 9999);
}

/* Two devices: an H100 with every value, and a lost one whose driver
 * error no backend explains. */
static void build_devices(struct fixture *fx)
{
	fx->devs = calloc(1, sizeof(*fx->devs) + 2 * sizeof(struct gt_static));
	assert_non_null(fx->devs);
	fx->devs->count = 2;
	fx->devs->generation = 1;

	struct gt_static *d0 = &fx->devs->items[0];
	gt_static_init(d0);
	d0->index = 0;
	d0->vendor = GT_VENDOR_NVIDIA;
	snprintf(d0->id, sizeof(d0->id), "pci:0000:18:00.0");
	snprintf(d0->pci_bus_id, sizeof(d0->pci_bus_id), "0000:18:00.0");
	snprintf(d0->name, sizeof(d0->name), "NVIDIA H100 80GB HBM3");
	snprintf(d0->uuid, sizeof(d0->uuid),
	         "GPU-0f7c1c8e-aaaa-bbbb-cccc-0123456789ab");
	d0->serial[0] = '\0'; /* none: null */
	snprintf(d0->driver, sizeof(d0->driver), "nvidia");
	snprintf(d0->driver_version, sizeof(d0->driver_version), "590.48.01");
	snprintf(d0->architecture, sizeof(d0->architecture), "Hopper");
	snprintf(d0->vbios, sizeof(d0->vbios), "96.00.99.00.01");
	d0->pci_vendor_id = 0x10de;
	d0->pci_device_id = 0x2330;
	set_all_static_ok(d0);

	struct gt_static *d1 = &fx->devs->items[1];
	gt_static_init(d1); /* everything NOT_COLLECTED ... */
	d1->index = 1;
	d1->vendor = GT_VENDOR_NVIDIA;
	d1->demo = true;
	snprintf(d1->id, sizeof(d1->id), "pci:0000:3b:00.0");
	snprintf(d1->name, sizeof(d1->name), "Second GPU");
	gt_val_set(&d1->f[GT_S_VRAM_TOTAL],
	           DEV1_STATIC_TOTAL); /* ... but this */
	gt_val_fail(&d1->f[GT_S_FAN_COUNT], GT_WHY_UNSUPPORTED_DEVICE, 3);

	set_dev0_sample(&fx->samples[0]);
	fx->samples[0].seq = 10;

	/* a lost device; one driver error without a backend to explain it */
	struct gt_sample *s1 = &fx->samples[1];
	gt_sample_init(s1);
	gt_sample_fail_all(s1, GT_WHY_LOST);
	s1->state = GT_DEV_LOST;
	gt_val_fail(&s1->f[GT_F_POWER_DRAW], GT_WHY_DRIVER_ERROR, 5);

	fx->dev_backends[0] = &fx->backends[0];
	fx->dev_backends[1] = NULL;
}

/* Three processes: one with a hostile command line in a container, one
 * not in our /proc, a kernel thread with a hostile name. */
static void build_processes(struct fixture *fx)
{
	struct gt_process *p = &fx->proc_items[0];
	memset(fx->proc_items, 0, sizeof(fx->proc_items));
	for (int i = 0; i < 3; i++)
		for (int f = 0; f < GT_P__COUNT; f++)
			gt_val_fail(&fx->proc_items[i].f[f],
			            GT_WHY_NOT_COLLECTED, 0);

	p[0].device_index = 0;
	p[0].pid = 4242;
	p[0].uid = 1000;
	p[0].type = GT_PROC_COMPUTE;
	p[0].host_known = true;
	snprintf(p[0].user, sizeof(p[0].user), "alice");
	snprintf(p[0].name, sizeof(p[0].name), "python3");
	snprintf(p[0].container, sizeof(p[0].container), "docker:3f2a9c1b7d10");
	p[0].cmdline = strdup(evil_cmdline);
	assert_non_null(p[0].cmdline);
	gt_val_set(&p[0].f[GT_P_GPU], 2500);
	gt_val_set(&p[0].f[GT_P_MEM], INT64_C(2147483648));
	gt_val_fail(&p[0].f[GT_P_ENC], GT_WHY_UNSUPPORTED_DEVICE, 3);
	gt_val_set(&p[0].f[GT_P_DEC], 0);
	gt_val_set(&p[0].f[GT_P_CPU], 15050);
	gt_val_set(&p[0].f[GT_P_HOST_MEM], 1048576);

	p[1].device_index = 1;
	p[1].pid = 777;
	p[1].type = GT_PROC_GRAPHICS;
	p[1].host_known = false; /* not in our /proc */
	/* whatever the struct holds must not leak out */
	snprintf(p[1].user, sizeof(p[1].user), "stale");
	snprintf(p[1].name, sizeof(p[1].name), "stale");
	p[1].cmdline = strdup("stale");
	gt_val_set(&p[1].f[GT_P_MEM], 4096);

	p[2].device_index = 0;
	p[2].pid = 99;
	p[2].type = GT_PROC_BOTH;
	p[2].host_known = true;
	snprintf(p[2].user, sizeof(p[2].user), "root");
	snprintf(p[2].name, sizeof(p[2].name), "%s", evil_name);
	p[2].cmdline = NULL; /* a kernel thread: empty command line */
	for (int f = 0; f < GT_P__COUNT; f++)
		gt_val_set(&p[2].f[f], 0);

	fx->procs.seq = 3;
	fx->procs.count = 3;
	fx->procs.items = fx->proc_items;
}

static void build(struct fixture *fx)
{
	memset(fx, 0, sizeof(*fx));
	error_text_calls = 0;
	error_text_last_code = 0;

	snprintf(fx->host.hostname, sizeof(fx->host.hostname), "node-7");
	snprintf(fx->host.kernel, sizeof(fx->host.kernel), "6.1.0-18-amd64");
	fx->host.cpu_count = 64;
	fx->host.memory_total_bytes = UINT64_C(540000000000);
	fx->host.euid = 1000;

	fx->backends[0].ops = &fake_ops;
	fx->backends[0].status = GT_BACKEND_OK;
	snprintf(fx->backends[0].detail, GT_DETAIL_LEN, "driver 590.48.01");
	fx->backends[0].device_count = 2;

	build_devices(fx);
	build_processes(fx);

	fx->in.host = &fx->host;
	fx->in.backends = fx->backends;
	fx->in.nbackends = 1;
	fx->in.devices = fx->devs;
	fx->in.samples = fx->samples;
	fx->in.device_backends = fx->dev_backends;
	fx->in.procs = &fx->procs;
	fx->in.realtime.tv_sec = 1700000000;
	fx->in.realtime.tv_nsec = 5;
	fx->in.monotonic_ns = UINT64_C(123456789000);
	fx->in.window_ns = UINT64_C(1000000000);
}

static void render(struct fixture *fx)
{
	free(fx->json);
	cJSON_Delete(fx->root);
	fx->json = gt_snapshot_json(&fx->in);
	assert_non_null(fx->json);
	fx->root = cJSON_Parse(fx->json);
	if (!fx->root)
		fail_msg("not JSON near: %.60s", cJSON_GetErrorPtr());
	assert_true(cJSON_IsObject(fx->root));
}

static int setup(void **state)
{
	struct fixture *fx = malloc(sizeof(*fx));
	if (!fx)
		return -1;
	build(fx);
	render(fx);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	for (int i = 0; i < 3; i++)
		free(fx->proc_items[i].cmdline);
	free(fx->devs);
	free(fx->json);
	cJSON_Delete(fx->root);
	free(fx);
	return 0;
}

/* ------------------------------------------------------------------ */
/* helpers                                                              */
/* ------------------------------------------------------------------ */

static cJSON *get(const cJSON *obj, const char *key)
{
	cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!v)
		fail_msg("key '%s' missing", key);
	return v;
}

static void check_keys(const cJSON *obj, const char *const *keys, size_t n,
                       const char *where)
{
	assert_true(cJSON_IsObject(obj));
	for (size_t i = 0; i < n; i++)
		if (!cJSON_GetObjectItemCaseSensitive(obj, keys[i]))
			fail_msg("%s lacks key '%s'", where, keys[i]);
}

#define CHECK_KEYS(obj, where, ...)                                            \
	do {                                                                   \
		static const char *const k_[] = {__VA_ARGS__};                 \
		check_keys((obj), k_, sizeof(k_) / sizeof(k_[0]), (where));    \
	} while (0)

static double num(const cJSON *obj, const char *key)
{
	cJSON *v = get(obj, key);
	if (!cJSON_IsNumber(v))
		fail_msg("'%s' is not a number", key);
	return v->valuedouble;
}

static const char *str(const cJSON *obj, const char *key)
{
	cJSON *v = get(obj, key);
	if (!cJSON_IsString(v))
		fail_msg("'%s' is not a string", key);
	return v->valuestring;
}

static void is_null(const cJSON *obj, const char *key)
{
	if (!cJSON_IsNull(get(obj, key)))
		fail_msg("'%s' should be null", key);
}

static const char *reason(const cJSON *owner, const char *name)
{
	cJSON *u = get(owner, "unavailable");
	assert_true(cJSON_IsObject(u));
	cJSON *r = cJSON_GetObjectItemCaseSensitive(u, name);
	if (!r)
		fail_msg("no reason for '%s'", name);
	if (!cJSON_IsString(r) || r->valuestring[0] == '\0')
		fail_msg("reason for '%s' is not a text", name);
	return r->valuestring;
}

static void no_reason(const cJSON *owner, const char *name)
{
	cJSON *u = get(owner, "unavailable");
	if (cJSON_GetObjectItemCaseSensitive(u, name))
		fail_msg("unexpected reason for '%s'", name);
}

static cJSON *device(struct fixture *fx, int i)
{
	cJSON *devs = get(fx->root, "devices");
	assert_true(cJSON_IsArray(devs));
	cJSON *d = cJSON_GetArrayItem(devs, i);
	assert_non_null(d);
	return d;
}

static cJSON *process(struct fixture *fx, int i)
{
	cJSON *procs = get(fx->root, "processes");
	assert_true(cJSON_IsArray(procs));
	cJSON *p = cJSON_GetArrayItem(procs, i);
	assert_non_null(p);
	return p;
}

/* ------------------------------------------------------------------ */
/* tests                                                                */
/* ------------------------------------------------------------------ */

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

static void check_process_keys(const cJSON *p)
{
	CHECK_KEYS(p, "process", "device_index", "device_id", "pid", "user",
	           "name", "cmdline", "type", "gpu_percent", "memory_bytes",
	           "encoder_percent", "decoder_percent", "cpu_percent",
	           "host_memory_bytes", "container", "unavailable");
}

static void test_processes(void **state)
{
	struct fixture *fx = *state;

	for (int i = 0; i < 3; i++)
		check_process_keys(process(fx, i));

	cJSON *p = process(fx, 0);
	assert_true(num(p, "device_index") == 0);
	assert_string_equal(str(p, "device_id"), "pci:0000:18:00.0");
	assert_true(num(p, "pid") == 4242);
	assert_string_equal(str(p, "user"), "alice");
	assert_string_equal(str(p, "name"), "python3");
	assert_string_equal(str(p, "container"), "docker:3f2a9c1b7d10");
	assert_string_equal(str(p, "type"), "compute");
	assert_true(num(p, "gpu_percent") == 25);
	assert_true(num(p, "memory_bytes") == 2147483648.0);
	is_null(p, "encoder_percent");
	assert_non_null(strstr(reason(p, "encoder_percent"), "not supported"));
	assert_true(num(p, "decoder_percent") == 0);
	assert_true(num(p, "cpu_percent") == 150.5);
	assert_true(num(p, "host_memory_bytes") == 1048576);
	no_reason(p, "gpu_percent");

	p = process(fx, 1);
	assert_string_equal(str(p, "device_id"), "pci:0000:3b:00.0");
	assert_string_equal(str(p, "type"), "graphics");
	assert_true(num(p, "memory_bytes") == 4096);

	p = process(fx, 2);
	assert_string_equal(str(p, "type"), "both");
	assert_string_equal(str(p, "cmdline"), ""); /* known, just empty */
	is_null(p, "container");                    /* not in a container */
	/* control characters in a name survive as data, JSON-escaped */
	assert_string_equal(str(p, "name"), evil_name);
}

static void test_process_host_unknown(void **state)
{
	struct fixture *fx = *state;
	cJSON *p = process(fx, 1);
	static const char *const keys[] = {"user", "name", "cmdline",
	                                   "container"};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		is_null(p, keys[i]);
		const char *r = reason(p, keys[i]);
		assert_non_null(strstr(r, "--procfs"));
	}
	assert_true(num(p, "pid") == 777);
	/* numbers never collected are null with reasons too */
	is_null(p, "gpu_percent");
	assert_non_null(strstr(reason(p, "gpu_percent"), "not collected"));
	no_reason(p, "memory_bytes");
	/* the stale struct contents did not leak */
	assert_null(strstr(fx->json, "stale"));
}

static void test_cmdline_round_trip(void **state)
{
	struct fixture *fx = *state;
	const char *c = str(process(fx, 0), "cmdline");

	assert_string_equal(c, evil_cmdline_parsed);
	assert_non_null(strchr(c, 0x1b));
	assert_non_null(strchr(c, '"'));
	assert_non_null(strchr(c, '\\'));
	assert_non_null(strchr(c, '\n'));
	assert_non_null(strstr(c, "\xef\xbf\xbd")); /* U+FFFD for 0xff */
	assert_non_null(strstr(c, "\xc3\xbc"));     /* ü kept */
	assert_null(strchr(c, '\xff'));
}

static void test_raw_text_is_safe(void **state)
{
	struct fixture *fx = *state;
	const unsigned char *s = (const unsigned char *)fx->json;
	bool in_str = false;

	/* no raw control byte inside any string */
	for (size_t i = 0; s[i]; i++) {
		if (in_str) {
			if (s[i] < 0x20)
				fail_msg(
				    "raw byte 0x%02x inside a string at %zu",
				    s[i], i);
			if (s[i] == '\\')
				i++; /* skip the escaped character */
			else if (s[i] == '"')
				in_str = false;
		} else if (s[i] == '"') {
			in_str = true;
		}
	}
	assert_false(in_str);
	/* nowhere at all: ESC, BEL, the invalid byte */
	assert_null(strchr(fx->json, 0x1b));
	assert_null(strchr(fx->json, 0x07));
	assert_null(strchr(fx->json, '\xff'));
	assert_non_null(strstr(fx->json, "\\u001b"));
	/* the whole document is valid UTF-8: repairing it changes nothing */
	char *clean = gt_text_utf8_sanitize(fx->json, strlen(fx->json));
	assert_non_null(clean);
	assert_string_equal(clean, fx->json);
	free(clean);
}

static void test_invalid_utf8_in_device_strings(void **state)
{
	struct fixture *fx = *state;
	snprintf(fx->devs->items[0].name, GT_STR_NAME, "GPU \xff\xfe name");
	snprintf(fx->devs->items[0].vbios, GT_STR_SHORT, "\xc3");
	render(fx);
	cJSON *d = device(fx, 0);
	assert_string_equal(str(d, "name"),
	                    "GPU \xef\xbf\xbd\xef\xbf\xbd name");
	assert_string_equal(str(d, "vbios_version"), "\xef\xbf\xbd");
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

static void test_asleep_state(void **state)
{
	struct fixture *fx = *state;
	fx->samples[1].state = GT_DEV_ASLEEP;
	render(fx);
	cJSON *d1 = device(fx, 1);
	assert_string_equal(str(d1, "state"), "asleep");
	assert_true(cJSON_IsFalse(get(d1, "lost")));
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
	    T(test_processes),
	    T(test_process_host_unknown),
	    T(test_cmdline_round_trip),
	    T(test_raw_text_is_safe),
	    T(test_invalid_utf8_in_device_strings),
	    T(test_no_devices_no_processes),
	    T(test_asleep_state),
	};
#undef T
	return cmocka_run_group_tests(tests, NULL, NULL);
}

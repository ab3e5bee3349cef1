/* SPDX-License-Identifier: MIT */
/*
 * snapshot_test.h - shared fixture of the snapshot tests (test_snapshot.c,
 * test_snapshot_text.c): hand-made inputs of gt_snapshot_json (a fake
 * backend, two devices, three processes with hostile text), rendered and
 * parsed by a cmocka setup, and the checks of the parsed document
 * (present keys, numbers, strings, nulls and their reasons). static inline
 * so each test uses what it needs.
 */
#ifndef GPUTOP_TEST_SNAPSHOT_TEST_H
#define GPUTOP_TEST_SNAPSHOT_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "core/backend.h"
#include "core/collector.h"
#include "core/hostinfo.h"
#include "core/model.h"
#include "export/snapshot.h"

/* ------------------------------------------------------------------ */
/* a fake backend                                                       */
/* ------------------------------------------------------------------ */

static int error_text_calls;
static int error_text_last_code;

static inline const char *fake_error_text(struct gt_backend *b, int code)
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

static inline void set_all_static_ok(struct gt_static *st)
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

static inline void set_dev0_sample(struct gt_sample *s)
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
static inline void build_devices(struct fixture *fx)
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
static inline void build_processes(struct fixture *fx)
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

static inline void build(struct fixture *fx)
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

static inline void render(struct fixture *fx)
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

static inline int setup(void **state)
{
	struct fixture *fx = malloc(sizeof(*fx));
	if (!fx)
		return -1;
	build(fx);
	render(fx);
	*state = fx;
	return 0;
}

static inline int teardown(void **state)
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

static inline cJSON *get(const cJSON *obj, const char *key)
{
	cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!v)
		fail_msg("key '%s' missing", key);
	return v;
}

static inline void check_keys(const cJSON *obj, const char *const *keys,
                              size_t n, const char *where)
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

static inline double num(const cJSON *obj, const char *key)
{
	cJSON *v = get(obj, key);
	if (!cJSON_IsNumber(v))
		fail_msg("'%s' is not a number", key);
	return v->valuedouble;
}

static inline const char *str(const cJSON *obj, const char *key)
{
	cJSON *v = get(obj, key);
	if (!cJSON_IsString(v))
		fail_msg("'%s' is not a string", key);
	return v->valuestring;
}

static inline void is_null(const cJSON *obj, const char *key)
{
	if (!cJSON_IsNull(get(obj, key)))
		fail_msg("'%s' should be null", key);
}

static inline const char *reason(const cJSON *owner, const char *name)
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

static inline void no_reason(const cJSON *owner, const char *name)
{
	cJSON *u = get(owner, "unavailable");
	if (cJSON_GetObjectItemCaseSensitive(u, name))
		fail_msg("unexpected reason for '%s'", name);
}

static inline cJSON *device(struct fixture *fx, int i)
{
	cJSON *devs = get(fx->root, "devices");
	assert_true(cJSON_IsArray(devs));
	cJSON *d = cJSON_GetArrayItem(devs, i);
	assert_non_null(d);
	return d;
}

static inline cJSON *process(struct fixture *fx, int i)
{
	cJSON *procs = get(fx->root, "processes");
	assert_true(cJSON_IsArray(procs));
	cJSON *p = cJSON_GetArrayItem(procs, i);
	assert_non_null(p);
	return p;
}

#endif

/* SPDX-License-Identifier: MIT */
/*
 * fuzz_snapshot.c - libFuzzer harness of the JSON snapshot writer
 * (gt_snapshot_json) and its round trip through cJSON: the input fills a
 * host, one backend, up to four devices (their strings, every static and
 * sample value with its reason, fan counts, states) and up to six
 * processes (hostile names, command lines, containers, device indexes out
 * of range). The document must be valid UTF-8, parse with cJSON_Parse,
 * be an object whose "devices" and "processes" arrays hold one entry per
 * device and process.
 */
#include "fuzz_common.h"

#include <cjson/cJSON.h>

#include "core/backend.h"
#include "core/collector.h"
#include "core/hostinfo.h"
#include "core/model.h"
#include "export/snapshot.h"

#define MAX_DEVS  4
#define MAX_PROCS 6
#define SEP       "\x01\x02"

static char err_text[64];

static const char *fuzz_error_text(struct gt_backend *b, int code)
{
	(void)b;
	(void)code;
	return err_text;
}

static const struct gt_backend_ops ops = {
    .name = "fuzz",
    .error_text = fuzz_error_text,
};

/* The next string part into dst[len] (cut, NUL-terminated). */
static void take_str(struct fuzz_in *in, char *dst, size_t len)
{
	struct fuzz_in s = fuzz_part(in, SEP);
	size_t n = s.n < len - 1 ? s.n : len - 1;
	memcpy(dst, s.p, n);
	dst[n] = '\0';
}

static void take_val(struct fuzz_in *in, struct gt_val *v)
{
	uint8_t why = fuzz_u8(in) % GT_WHY__COUNT;
	if (why == GT_WHY_OK)
		gt_val_set(v, (int64_t)fuzz_u64(in));
	else
		gt_val_fail(v, (enum gt_why)why, (int32_t)fuzz_u8(in));
}

static bool valid_utf8(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned c = s[i], len = c < 0x80   ? 1
		                         : c < 0xc2 ? 0
		                         : c < 0xe0 ? 2
		                         : c < 0xf0 ? 3
		                         : c < 0xf5 ? 4
		                                    : 0;
		if (len == 0 || i + len > n)
			return false;
		for (unsigned k = 1; k < len; k++)
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
		if ((c == 0xe0 && s[i + 1] < 0xa0) ||
		    (c == 0xed && s[i + 1] > 0x9f) ||
		    (c == 0xf0 && s[i + 1] < 0x90) ||
		    (c == 0xf4 && s[i + 1] > 0x8f))
			return false;
		i += len;
	}
	return true;
}

static size_t array_size(const cJSON *root, const char *key)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, key);
	FUZZ_CHECK(a != NULL && cJSON_IsArray(a));
	return (size_t)cJSON_GetArraySize(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = {data, size};
	static struct gt_hostinfo host;
	static struct gt_backend be;
	static struct gt_sample samples[MAX_DEVS];
	static struct gt_process procs[MAX_PROCS];
	const struct gt_backend *dev_be[MAX_DEVS];
	struct gt_proclist plist;

	uint8_t shape = fuzz_u8(&in);
	size_t ndev = shape % (MAX_DEVS + 1);
	size_t nproc = (shape >> 3) % (MAX_PROCS + 1);
	bool no_procs = shape & 0x80;

	memset(&host, 0, sizeof(host));
	take_str(&in, host.hostname, sizeof(host.hostname));
	take_str(&in, host.kernel, sizeof(host.kernel));
	host.cpu_count = fuzz_u8(&in);
	host.memory_total_bytes = fuzz_u64(&in);
	memset(&be, 0, sizeof(be));
	be.ops = &ops;
	be.status = (enum gt_backend_status)(fuzz_u8(&in) % 3);
	take_str(&in, be.detail, sizeof(be.detail));
	be.device_count = (unsigned)ndev;
	take_str(&in, err_text, sizeof(err_text));

	struct gt_devlist *devs =
	    calloc(1, sizeof(*devs) + ndev * sizeof(struct gt_static));
	FUZZ_CHECK(devs != NULL);
	devs->count = ndev;
	for (size_t i = 0; i < ndev; i++) {
		struct gt_static *d = &devs->items[i];
		gt_static_init(d);
		d->index = (unsigned)i;
		d->vendor = (enum gt_vendor)(fuzz_u8(&in) % 4);
		d->demo = fuzz_u8(&in) & 1;
		take_str(&in, d->id, sizeof(d->id));
		take_str(&in, d->pci_bus_id, sizeof(d->pci_bus_id));
		take_str(&in, d->name, sizeof(d->name));
		take_str(&in, d->uuid, sizeof(d->uuid));
		take_str(&in, d->serial, sizeof(d->serial));
		take_str(&in, d->driver, sizeof(d->driver));
		take_str(&in, d->vbios, sizeof(d->vbios));
		for (int f = 0; f < GT_S__COUNT; f++)
			take_val(&in, &d->f[f]);
		struct gt_sample *s = &samples[i];
		gt_sample_init(s);
		s->state = fuzz_u8(&in) % 3;
		s->fan_count = fuzz_u8(&in) % (GT_MAX_FANS + 1);
		s->util_gpu_lower_bound = fuzz_u8(&in) & 1;
		char word[GT_STR_SHORT];
		take_str(&in, word, sizeof(word));
		gt_text_val_set(&s->perf_level, word);
		take_str(&in, word, sizeof(word));
		gt_text_val_set(&s->power_profile, word);
		for (int f = 0; f < GT_F__COUNT; f++)
			take_val(&in, &s->f[f]);
		dev_be[i] = fuzz_u8(&in) & 1 ? &be : NULL;
	}

	memset(procs, 0, sizeof(procs));
	for (size_t i = 0; i < nproc; i++) {
		struct gt_process *p = &procs[i];
		p->device_index = fuzz_u8(&in) % (MAX_DEVS + 1);
		p->pid = (int32_t)fuzz_u64(&in);
		p->uid = (uint32_t)fuzz_u64(&in);
		p->type = fuzz_u8(&in) % 4;
		p->host_known = fuzz_u8(&in) & 1;
		take_str(&in, p->user, sizeof(p->user));
		take_str(&in, p->name, sizeof(p->name));
		take_str(&in, p->container, sizeof(p->container));
		struct fuzz_in cmd = fuzz_part(&in, SEP);
		p->cmdline = cmd.n ? fuzz_strdup(cmd) : NULL;
		for (int f = 0; f < GT_P__COUNT; f++)
			take_val(&in, &p->f[f]);
	}
	plist = (struct gt_proclist){.seq = 1, .count = nproc, .items = procs};

	struct gt_snapshot_input sin = {
	    .host = &host,
	    .backends = &be,
	    .nbackends = 1,
	    .devices = devs,
	    .samples = samples,
	    .device_backends = dev_be,
	    .procs = no_procs ? NULL : &plist,
	    .realtime = {(time_t)(fuzz_u64(&in) >> 34), 0},
	    .monotonic_ns = fuzz_u64(&in),
	    .window_ns = fuzz_u64(&in),
	};
	char *json = gt_snapshot_json(&sin);
	FUZZ_CHECK(json != NULL);
	size_t len = strlen(json);
	FUZZ_CHECK(len > 0 && json[len - 1] == '\n');
	FUZZ_CHECK(valid_utf8((const unsigned char *)json, len));
	cJSON *root = cJSON_Parse(json);
	FUZZ_CHECK(root != NULL && cJSON_IsObject(root));
	FUZZ_CHECK(array_size(root, "devices") == ndev);
	if (!no_procs)
		FUZZ_CHECK(array_size(root, "processes") == nproc);
	cJSON_Delete(root);
	free(json);
	for (size_t i = 0; i < nproc; i++)
		free(procs[i].cmdline);
	free(devs);
	return 0;
}

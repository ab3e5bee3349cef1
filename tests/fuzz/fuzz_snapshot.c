/* SPDX-License-Identifier: MIT */
/*
 * fuzz_snapshot.c - libFuzzer harness of the JSON snapshot writer
 * (gt_snapshot_json) and its round trip through cJSON: the input fills a
 * host, one backend, up to four devices and up to six processes
 * (fuzz_gpus.h). The document must be valid UTF-8, parse with
 * cJSON_Parse, be an object whose "devices" and "processes" arrays hold
 * one entry per device and process.
 */
#include "fuzz_gpus.h"

#include <cjson/cJSON.h>

#include "export/snapshot.h"

static size_t array_size(const cJSON *root, const char *key)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, key);
	FUZZ_CHECK(a != NULL && cJSON_IsArray(a));
	return (size_t)cJSON_GetArraySize(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = {data, size};
	static struct fuzz_gpus g;

	fuzz_gpus_take(&in, &g);
	struct gt_snapshot_input sin = {
	    .host = &g.host,
	    .backends = &g.be,
	    .nbackends = 1,
	    .devices = g.devs,
	    .samples = g.samples,
	    .device_backends = g.dev_be,
	    .procs = g.no_procs ? NULL : &g.plist,
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
	FUZZ_CHECK(array_size(root, "devices") == g.ndev);
	if (!g.no_procs)
		FUZZ_CHECK(array_size(root, "processes") == g.nproc);
	cJSON_Delete(root);
	free(json);
	fuzz_gpus_free(&g);
	return 0;
}

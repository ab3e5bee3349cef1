/* SPDX-License-Identifier: MIT */
/*
 * fuzz_fdinfo.c - libFuzzer harness of the fdinfo parser: gt_fdinfo_parse
 * on the input as a /proc/PID/fdinfo/FD text, gt_fdinfo_sample_mem on the
 * result, and gt_fdinfo_pdev_parse on the whole input. Checks that every
 * string of the sample ends inside its array, the counts and classes stay
 * in range, capacities are clamped, memory is reported exactly when a key
 * was seen that could be read (else the one that could not is named), and a
 * parsed PCI key prints back to itself.
 */
#include "fuzz_common.h"

#include <inttypes.h>

#include "linux/fdinfo_parse.h"

static void check_sample(const struct gt_fdinfo_sample *s, bool drm)
{
	FUZZ_CHECK(fuzz_terminated(s->driver, sizeof(s->driver)));
	FUZZ_CHECK(s->n_engines <= GT_FDINFO_MAX_ENGINES);
	if (s->legacy)
		FUZZ_CHECK(drm && strcmp(s->driver, "amdgpu") == 0);
	for (uint32_t i = 0; i < s->n_engines; i++) {
		const struct gt_fdinfo_engine *e = &s->engines[i];
		FUZZ_CHECK(fuzz_terminated(e->name, sizeof(e->name)));
		FUZZ_CHECK(e->name[0] != '\0');
		FUZZ_CHECK(e->cls < GT_FDI__CLASS_COUNT);
		FUZZ_CHECK(e->cls == gt_fdinfo_engine_class(e->name));
		FUZZ_CHECK(e->capacity >= 1 &&
		           e->capacity <= GT_FDINFO_MAX_CAPACITY);
		/* two engines never share a name */
		for (uint32_t j = 0; j < i; j++)
			FUZZ_CHECK(strcmp(s->engines[j].name, e->name) != 0);
	}
	for (int m = 0; m < GT_FDI__MEM_COUNT; m++) {
		uint64_t bytes = 12345;
		bool ok =
		    gt_fdinfo_sample_mem(s, (enum gt_fdinfo_mem)m, &bytes);
		int32_t bad =
		    gt_fdinfo_sample_bad_key(s, (enum gt_fdinfo_mem)m);
		/* a kind whose key could not be read is never the size */
		FUZZ_CHECK(ok == ((s->kinds_have[m] & ~s->kinds_bad[m]) != 0));
		if (!ok)
			FUZZ_CHECK(bytes == 0);
		/* no size: the bad key, exactly when one was seen */
		FUZZ_CHECK(bad ==
		           (!ok && s->kinds_bad[m] ? s->bad_key[m] : -1));
		FUZZ_CHECK(bad < 0 || s->any_mem);
		FUZZ_CHECK(s->kinds_have[m] < (1u << GT_FDI__KIND_COUNT));
		FUZZ_CHECK(s->kinds_bad[m] < (1u << GT_FDI__KIND_COUNT));
	}
}

static void check_pdev(const char *s, size_t len)
{
	uint64_t key = 0, again = 0;
	char buf[48];

	if (!gt_fdinfo_pdev_parse(s, len, &key))
		return;
	int n = snprintf(buf, sizeof(buf), "%" PRIx64 ":%02x:%02x.%x",
	                 key >> 16, (unsigned)(key >> 8) & 0xff,
	                 (unsigned)(key >> 3) & 0x1f, (unsigned)key & 7);
	FUZZ_CHECK(n > 0 && (size_t)n < sizeof(buf));
	FUZZ_CHECK(gt_fdinfo_pdev_parse(buf, (size_t)n, &again));
	FUZZ_CHECK(again == key);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gt_fdinfo_sample s, t;
	const char *text = (const char *)data;

	memset(&s, 0xa5, sizeof(s)); /* the parser must clear it */
	bool drm = gt_fdinfo_parse(text, size, &s);
	check_sample(&s, drm);

	/* deterministic: a second parse gives the same sample */
	memset(&t, 0x5a, sizeof(t));
	FUZZ_CHECK(gt_fdinfo_parse(text, size, &t) == drm);
	FUZZ_CHECK(strcmp(s.driver, t.driver) == 0);
	FUZZ_CHECK(s.n_engines == t.n_engines);
	FUZZ_CHECK(memcmp(s.mem, t.mem, sizeof(s.mem)) == 0);

	check_pdev(text, size);
	/* the engine classifier on the input as a name */
	if (size < 64) {
		char name[64];
		memcpy(name, data, size);
		name[size] = '\0';
		FUZZ_CHECK(gt_fdinfo_engine_class(name) < GT_FDI__CLASS_COUNT);
	}
	return 0;
}

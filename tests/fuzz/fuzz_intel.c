/* SPDX-License-Identifier: MIT */
/*
 * fuzz_intel.c - libFuzzer harness of the Intel parsers: the xe throttle
 * "reasons" text (gt_intel_throttle_parse), the memory-region query
 * replies of xe and i915 (gt_intel_decode_xe_mem, _i915_mem, with and
 * without CAP_PERFMON), the PCIe speed text and the counter conversions
 * of intel_sysfs.h. Checks that throttle masks hold only known bits,
 * decoders fail cleanly (-EINVAL, everything zero) on a truncated reply,
 * "used" is known only with the capability and never exceeds the total
 * i915 reports, and residency stays within 0..100 %.
 */
#include "fuzz_common.h"

#include <errno.h>

#include "collectors/intel_query.h"
#include "collectors/intel_sysfs.h"
#include "core/model.h"

static uint32_t known_bits(void)
{
	uint32_t m = GT_THR_OTHER;
	for (const char *const *n = gt_intel_throttle_names; *n; n++)
		m |= gt_intel_throttle_bit(*n);
	return m;
}

static void check_mem(int rc, const struct gt_intel_mem *m, bool perfmon,
                      bool i915)
{
	static const struct gt_intel_mem zero;
	FUZZ_CHECK(rc == 0 || rc == -EINVAL);
	if (rc != 0) {
		FUZZ_CHECK(memcmp(m, &zero, sizeof(zero)) == 0);
		return;
	}
	if (m->used_known)
		FUZZ_CHECK(perfmon);
	if (m->vis_known)
		FUZZ_CHECK(m->vram && m->vis_total > 0);
	if (!m->vram)
		FUZZ_CHECK(m->vram_total == 0 && m->vram_used == 0);
	if (i915) {
		FUZZ_CHECK(!m->sys_known);
		FUZZ_CHECK(m->used_known == (perfmon && m->vram));
		FUZZ_CHECK(m->vram_used <= m->vram_total);
		FUZZ_CHECK(m->vis_used <= m->vis_total);
		if (!m->used_known)
			FUZZ_CHECK(m->vram_used == 0 && m->vis_used == 0);
	} else {
		FUZZ_CHECK(m->used_known == perfmon);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gt_intel_mem m, m2;
	static uint32_t known;
	if (!known)
		known = known_bits();

	/* the binary decoders on the raw input */
	for (int perfmon = 0; perfmon < 2; perfmon++) {
		int rc = gt_intel_decode_xe_mem(data, size, perfmon, &m);
		check_mem(rc, &m, perfmon, false);
		rc = gt_intel_decode_i915_mem(data, size, perfmon, &m2);
		check_mem(rc, &m2, perfmon, true);
	}

	/* the text parsers on a NUL-terminated copy (NULs end it early) */
	char *text = fuzz_strdup((struct fuzz_in){data, size});
	uint32_t t = gt_intel_throttle_parse(text);
	FUZZ_CHECK((t & ~known) == 0);
	FUZZ_CHECK((gt_intel_throttle_bit(text) & ~known) == 0);
	int gen = gt_intel_pcie_gen(text);
	FUZZ_CHECK(gen >= 0 && gen <= 7);
	(void)gt_intel_slot_is_integrated(text);
	free(text);

	/* the counter conversions on 24 bytes of it */
	struct fuzz_in in = {data, size};
	uint64_t a = fuzz_u64(&in), b = fuzz_u64(&in), dt = fuzz_u64(&in);
	int64_t v = 0;
	if (gt_intel_power_mw(a, b, dt, &v))
		FUZZ_CHECK(dt > 0 && b >= a);
	if (gt_intel_residency_cpct((int64_t)a, (int64_t)b, dt, &v))
		FUZZ_CHECK(v >= 0 && v <= 10000);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * fuzz_amdgpu_metrics.c - libFuzzer harness of the gpu_metrics decoder
 * (gt_amdgpu_metrics_decode): the input is the file, its header picks the
 * version (every v1.x, v2.x and v3.0 the decoder knows, and unknown ones).
 * Checks the return codes, that every value is valid or
 * UNSUPPORTED_DEVICE (all failed on an error), that nothing past the
 * header's structure_size is read (the same table decoded from a copy cut
 * to that size, in a buffer of exactly that size, is equal) and that the
 * throttle mapping agrees with gt_amdgpu_throttle_from_indep.
 */
#include "fuzz_common.h"

#include <errno.h>

#include "collectors/amdgpu_metrics.h"

#define NVALS 20

static void vals(const struct gt_amdgpu_metrics *m,
                 const struct gt_val *v[NVALS])
{
	const struct gt_val *all[NVALS] = {
	    &m->temp_gpu,     &m->temp_hotspot, &m->temp_mem,
	    &m->gfx_activity, &m->umc_activity, &m->mm_activity,
	    &m->socket_power, &m->gfx_power,    &m->energy,
	    &m->gfxclk,       &m->uclk,         &m->vclk,
	    &m->fan_rpm,      &m->pcie_width,   &m->pcie_gts10,
	    &m->voltage_gfx,  &m->gfx_maxfreq,  &m->throttle_raw,
	    &m->throttle,     &m->throttle, /* padding to NVALS */
	};
	memcpy(v, all, sizeof(all));
}

static bool same(const struct gt_amdgpu_metrics *a,
                 const struct gt_amdgpu_metrics *b)
{
	const struct gt_val *va[NVALS], *vb[NVALS];
	vals(a, va);
	vals(b, vb);
	if (a->size != b->size || a->format != b->format ||
	    a->content != b->content)
		return false;
	for (int i = 0; i < NVALS; i++)
		if (va[i]->why != vb[i]->why || va[i]->v != vb[i]->v)
			return false;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gt_amdgpu_metrics m, cut;
	const struct gt_val *v[NVALS];

	int rc = gt_amdgpu_metrics_decode(data, size, &m);
	FUZZ_CHECK(rc == 0 || rc == -EBADMSG || rc == -EPROTONOSUPPORT);
	vals(&m, v);
	for (int i = 0; i < NVALS; i++) {
		FUZZ_CHECK(v[i]->why == GT_WHY_OK ||
		           v[i]->why == GT_WHY_UNSUPPORTED_DEVICE);
		if (rc != 0)
			FUZZ_CHECK(v[i]->why == GT_WHY_UNSUPPORTED_DEVICE);
	}
	if (rc == 0) {
		FUZZ_CHECK(m.format >= 1 && m.format <= 3);
		FUZZ_CHECK(m.size >= 4);
		if (gt_val_ok(&m.throttle)) {
			FUZZ_CHECK(gt_val_ok(&m.throttle_raw));
			FUZZ_CHECK((uint64_t)m.throttle.v ==
			           gt_amdgpu_throttle_from_indep(
			               (uint64_t)m.throttle_raw.v));
		}
		/* only the header's structure_size bytes count */
		size_t keep = size < m.size ? size : m.size;
		uint8_t *copy = malloc(keep ? keep : 1);
		FUZZ_CHECK(copy != NULL);
		memcpy(copy, data, keep);
		FUZZ_CHECK(gt_amdgpu_metrics_decode(copy, keep, &cut) == 0);
		FUZZ_CHECK(same(&m, &cut));
		free(copy);
	}
	/* the throttle map on 8 bytes of the input: only known bits */
	if (size >= 8) {
		uint64_t bits;
		memcpy(&bits, data, sizeof(bits));
		uint32_t t = gt_amdgpu_throttle_from_indep(bits);
		FUZZ_CHECK(
		    (t & ~(uint32_t)(GT_THR_SW_POWER_CAP |
		                     GT_THR_CURRENT_LIMIT | GT_THR_SW_THERMAL |
		                     GT_THR_HW_THERMAL | GT_THR_OTHER)) == 0);
		FUZZ_CHECK((bits == 0) == (t == 0));
	}
	return 0;
}

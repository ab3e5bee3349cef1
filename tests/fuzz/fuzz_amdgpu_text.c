/* SPDX-License-Identifier: MIT */
/*
 * fuzz_amdgpu_text.c - libFuzzer harness of the amdgpu sysfs text parsers
 * (amdgpu_parse.h): every input goes through pp_dpm_* tables, the link
 * speed, pp_od_clk_voltage, pp_power_profile_mode (the collector's active
 * profile and the control's profile list) and the performance level, with
 * output buffers of several sizes. Checks return codes, counts within the
 * arrays, active/max pointers into the table, NUL-terminated names that
 * fit and hold only what the parser promises.
 */
#include "fuzz_common.h"

#include <errno.h>

#include "collectors/amdgpu_parse.h"
#include "control/control_amdgpu_priv.h"
#include "control/control_caps.h"

static void fuzz_dpm(const char *t, size_t n)
{
	struct gt_amdgpu_dpm d;
	int rc = gt_amdgpu_parse_dpm(t, n, &d);

	FUZZ_CHECK(rc == -EBADMSG || rc >= 0);
	if (rc < 0)
		return;
	FUZZ_CHECK((size_t)rc == d.count);
	FUZZ_CHECK(d.count <= GT_AMDGPU_DPM_MAX);
	FUZZ_CHECK(d.nactive <= d.count);
	size_t marked = 0;
	int64_t max = -1;
	for (size_t i = 0; i < d.count; i++) {
		marked += d.lv[i].active;
		if (d.lv[i].mhz > max)
			max = d.lv[i].mhz;
		FUZZ_CHECK(d.lv[i].mhz >= -1);
	}
	FUZZ_CHECK(marked == d.nactive);
	FUZZ_CHECK(gt_amdgpu_dpm_max_mhz(&d) == max);
	const struct gt_amdgpu_dpm_level *a = gt_amdgpu_dpm_active(&d);
	FUZZ_CHECK((a == NULL) == (d.nactive == 0));
	if (a)
		FUZZ_CHECK(a >= d.lv && a < d.lv + d.count && a->active);
	const struct gt_amdgpu_dpm_level *l = gt_amdgpu_dpm_max_link(&d);
	if (l) {
		FUZZ_CHECK(l >= d.lv && l < d.lv + d.count);
		int g = gt_amdgpu_pcie_gen(l->pcie_gts10);
		FUZZ_CHECK(g >= 0 && g <= 7);
	}
}

static void fuzz_od(const char *t, size_t n)
{
	struct gt_amdgpu_od od;
	int rc = gt_amdgpu_parse_od(t, n, &od);
	FUZZ_CHECK(rc == 0 || rc == -ENODATA || rc == -EBADMSG);
	/* 0 needs a known "OD_" section header, ranges or not */
	if (rc == 0)
		FUZZ_CHECK(n > 3 && memmem(t, n, "OD_", 3) != NULL);
	if (rc != 0)
		FUZZ_CHECK(!od.has_sclk && !od.has_mclk &&
		           !od.has_sclk_offset && !od.has_sclk_range);
}

static void fuzz_profile(const char *t, size_t n, size_t cap)
{
	char name[GT_AMDGPU_PROFILE_NAME + 8];
	memset(name, 0x7f, sizeof(name));
	int rc = gt_amdgpu_parse_power_profile(t, n, name, cap);
	FUZZ_CHECK(rc >= 0 || rc == -ENOENT || rc == -EBADMSG);
	if (cap > 0 && rc >= 0)
		FUZZ_CHECK(fuzz_terminated(name, cap));
	for (size_t i = cap; i < sizeof(name); i++)
		FUZZ_CHECK(name[i] == 0x7f); /* nothing past cap */
	FUZZ_CHECK(gt_amdgpu_parse_power_profile(t, n, NULL, 0) == rc);
}

static void fuzz_profile_list(const char *t, size_t n)
{
	struct gt_control_profile p[12];
	size_t got = gt_control_amdgpu_profile_list(t, n, p, 10);
	FUZZ_CHECK(got <= 10);
	for (size_t i = 0; i < got; i++) {
		FUZZ_CHECK(fuzz_terminated(p[i].name, sizeof(p[i].name)));
		FUZZ_CHECK(p[i].name[0] != '\0');
		FUZZ_CHECK(p[i].index >= 0 && p[i].index <= 9);
		for (size_t j = 0; j < i; j++)
			FUZZ_CHECK(p[j].index != p[i].index);
	}
}

static void fuzz_level(const char *t, size_t n, size_t cap)
{
	char out[40];
	memset(out, 0x7f, sizeof(out));
	int rc = gt_amdgpu_parse_perf_level(t, n, out, cap);
	FUZZ_CHECK(rc == 0 || rc == -EBADMSG);
	for (size_t i = cap; i < sizeof(out); i++)
		FUZZ_CHECK(out[i] == 0x7f);
	if (rc != 0)
		return;
	FUZZ_CHECK(cap > 0 && fuzz_terminated(out, cap));
	FUZZ_CHECK(out[0] != '\0');
	/* amdgpu_parse.h says [a-z_]; the parser also takes digits */
	for (const char *c = out; *c; c++)
		FUZZ_CHECK((*c >= 'a' && *c <= 'z') || *c == '_' ||
		           (*c >= '0' && *c <= '9'));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* every parser runs on the whole input (so a fixture file is a
	 * seed as it is); its size picks the short output buffers */
	uint8_t sel = (uint8_t)(size * 37u + (size ? data[size - 1] : 0));
	const char *t = (const char *)data;
	size_t n = size;

	fuzz_dpm(t, n);
	int gts = gt_amdgpu_parse_link_speed(t, n);
	FUZZ_CHECK(gts >= 0 || gts == -EINVAL);
	FUZZ_CHECK(gt_amdgpu_pcie_gen(gts) >= 0);
	fuzz_od(t, n);
	fuzz_profile(t, n, GT_AMDGPU_PROFILE_NAME);
	fuzz_profile(t, n, sel % (GT_AMDGPU_PROFILE_NAME + 1));
	fuzz_profile_list(t, n);
	fuzz_level(t, n, 32);
	fuzz_level(t, n, (size_t)(sel >> 3) % 33);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * test_control_caps.c - tests of gt_control_caps (src/control/
 * control_caps.c and the vendors' caps: control_nvml.c,
 * control_amdgpu_caps.c, control_intel.c): the exact ranges,
 * methods and reasons it gives for real amdgpu captures (Polaris pwm, the
 * RDNA3 and RDNA4 firmware curve, RDNA4 without overdrive, an APU, the five
 * pp_power_profile_mode layouts), for NVIDIA GPUs of the fake NVML
 * (rtx4090.scn with two fans, h100x8.scn without), for the synthetic i915
 * and xe trees, and the refusals (demo device, no NVML, no such slot, the
 * wrong driver). Read-only cases read the fixture trees in place; the few
 * that change a tree work on a copy.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control/control.h"
#include "control/control_caps.h"
#include "control/control_vendors.h"
#include "collectors/nvml_api.h"

struct env {
	char tmp[64], root[1024], state[128];
	struct gt_nvml_api api;
	bool nvml;
	struct gt_control *c;
	struct gt_static st;
	struct gt_control_caps caps;
};

static void control(struct env *e, const struct gt_nvml_api *api)
{
	struct gt_control_config cfg = {
	    .nvml = api,
	    .vendors = gt_control_vendors,
	    .sysfs_root = e->root[0] ? e->root : NULL,
	    .state_path = e->state,
	    .privileged = GT_CONTROL_PRIV_NO, /* caps judge no privileges */
	};
	char err[256] = "";

	e->c = gt_control_new(&cfg, err, sizeof(err));
	if (!e->c)
		fail_msg("gt_control_new: %s", err);
}

/* A control over tree (relative to the fixtures; copied when copy is set,
 * so the test may change it) and a device of vendor at slot. */
static struct env *open_tree(const char *tree, bool copy, enum gt_vendor vendor,
                             const char *slot)
{
	const char *fx = getenv("GPUTOP_FIXTURES");
	struct env *e = calloc(1, sizeof(*e));
	char *src, cmd[4096];

	assert_non_null(e);
	snprintf(e->tmp, sizeof(e->tmp), "/tmp/gt-caps-XXXXXX");
	assert_non_null(mkdtemp(e->tmp));
	snprintf(e->state, sizeof(e->state), "%s/restore.state", e->tmp);
	snprintf(cmd, sizeof(cmd), "%s/%s", fx ? fx : "tests/fixtures", tree);
	src = realpath(cmd, NULL); /* the journal wants an absolute root */
	assert_non_null(src);
	assert_true(strlen(src) < 512);
	if (copy) {
		snprintf(e->root, sizeof(e->root), "%s/sys", e->tmp);
		snprintf(cmd, sizeof(cmd),
		         "cp -R '%s' '%s' && chmod -R u+w '%s'", src, e->root,
		         e->root);
		assert_int_equal(system(cmd), 0);
	} else {
		snprintf(e->root, sizeof(e->root), "%s", src);
	}
	free(src);
	control(e, NULL);
	gt_static_init(&e->st);
	e->st.vendor = vendor;
	snprintf(e->st.pci_bus_id, sizeof(e->st.pci_bus_id), "%s", slot);
	return e;
}

/* The fake NVML with scenario scn, or NULL (the test is skipped) when
 * tests/run.sh did not say where it is. */
static struct env *open_nvml(const char *scn, const char *slot)
{
	const char *lib = getenv("GPUTOP_FAKE_NVML_LIB");
	const char *dir = getenv("GPUTOP_SCENARIO_DIR");
	struct env *e;
	char path[PATH_MAX], why[256];

	if (!lib || !dir)
		return NULL;
	e = calloc(1, sizeof(*e));
	assert_non_null(e);
	snprintf(e->tmp, sizeof(e->tmp), "/tmp/gt-caps-XXXXXX");
	assert_non_null(mkdtemp(e->tmp));
	snprintf(e->state, sizeof(e->state), "%s/restore.state", e->tmp);
	snprintf(path, sizeof(path), "%s/%s", dir, scn);
	setenv("GPUTOP_FAKE_NVML_SCENARIO", path, 1);
	if (gt_nvml_api_load(&e->api, lib, why, sizeof(why)) != 0)
		fail_msg("%s", why);
	assert_int_equal(e->api.init(), NVML_SUCCESS);
	e->nvml = true;
	control(e, &e->api);
	gt_static_init(&e->st);
	e->st.vendor = GT_VENDOR_NVIDIA;
	snprintf(e->st.pci_bus_id, sizeof(e->st.pci_bus_id), "%s", slot);
	return e;
}

static void done(struct env *e)
{
	char cmd[128];

	gt_control_free(e->c);
	if (e->nvml) {
		e->api.shutdown();
		gt_nvml_api_unload(&e->api);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", e->tmp);
	assert_int_equal(system(cmd), 0);
	free(e);
}

/* Under the tree's root. */
static const char *at(const struct env *e, const char *rel)
{
	static char buf[2][PATH_MAX];
	static int k;
	char *b = buf[k++ % 2];

	snprintf(b, PATH_MAX, "%s/%s", e->root, rel);
	return b;
}

/* Declares e, a control over a fixture tree (see open_tree), and c, its
 * caps. */
#define OPEN(e, c, ...)                                                        \
	struct env *e = open_tree(__VA_ARGS__);                                \
	struct gt_control_caps *c = &e->caps;                                  \
	(void)state

/* The same over the fake NVML; skips the test without it. */
#define OPEN_NVML(e, c, scn, slot)                                             \
	struct env *e = open_nvml((scn), (slot));                              \
	(void)state;                                                           \
	if (!e) {                                                              \
		skip();                                                        \
		return;                                                        \
	}                                                                      \
	struct gt_control_caps *c = &e->caps

static int caps(struct env *e)
{
	/* Stale values from before must not survive: fill with junk. */
	memset(&e->caps, 0x5a, sizeof(e->caps));
	return gt_control_caps_read(e->c, &e->st, &e->caps);
}

static void range_is(const struct gt_control_range *r, int64_t min, int64_t max,
                     int64_t def, int64_t cur)
{
	if (!r->known)
		fail_msg("range unknown: %s", r->why);
	assert_true(r->min == min);
	assert_true(r->max == max);
	assert_true(r->def == def);
	assert_true(r->cur == cur);
}

static void unknown_because(const struct gt_control_range *r, const char *why)
{
	assert_false(r->known);
	if (!strstr(r->why, why))
		fail_msg("why \"%s\" lacks \"%s\"", r->why, why);
}

#define CONTAINS(s, part)                                                      \
	do {                                                                   \
		if (!strstr((s), (part)))                                      \
			fail_msg("\"%s\" lacks \"%s\"", (s), (part));          \
	} while (0)

static void profile_is(const struct gt_control_caps *c, size_t i, int index,
                       const char *name)
{
	assert_true(i < c->nprofiles);
	assert_int_equal(c->profiles[i].index, index);
	assert_string_equal(c->profiles[i].name, name);
}

/* ------------------------------------------------------------------ */
/* AMD                                                                  */
/* ------------------------------------------------------------------ */

static void test_amd_polaris_pwm(void **state)
{
	OPEN(e, c, "amdgpu/rx580", false, GT_VENDOR_AMD, "0000:09:00.0");

	assert_int_equal(caps(e), 0);
	assert_string_equal(c->why, "");
	assert_int_equal(c->vendor, GT_VENDOR_AMD);
	assert_string_equal(c->pci_bus_id, "0000:09:00.0");
	assert_string_equal(c->dev, at(e, "class/drm/card0/device"));
	assert_string_equal(c->hwmon, at(e, "class/drm/card0/device/hwmon/"
	                                    "hwmon4"));
	/* power1_cap_min reads 0 (not given): the setter's 1 W floor. */
	range_is(&c->power, 1000000, 201000000, 155000000, 155000000);
	assert_true(c->has_level);
	assert_string_equal(c->level, "auto");
	assert_int_equal(c->nprofiles, 7);
	profile_is(c, 0, 0, "BOOTUP_DEFAULT");
	profile_is(c, 1, 1, "3D_FULL_SCREEN");
	profile_is(c, 6, 6, "CUSTOM");
	assert_int_equal(c->profile_active, 1);
	assert_int_equal(c->fan_method, GT_FAN_METHOD_AMD_PWM_LOOP);
	assert_string_equal(c->fan_why, "");
	assert_int_equal(c->fan_count, 1);
	assert_int_equal(c->fan_min_cpercent, 0);
	assert_int_equal(c->fan_max_cpercent, 10000);
	unknown_because(&c->freq_min, "Intel GPUs only");
	unknown_because(&c->freq_max, "Intel GPUs only");
	done(e);
}

/* RDNA3 with overdrive: the firmware curve, the firmware's own points
 * (all zero) and the card's OD_RANGE. */
static void test_amd_rdna3_firmware_curve(void **state)
{
	OPEN(e, c, "amdgpu/rx7900xtx", false, GT_VENDOR_AMD, "0000:03:00.0");

	assert_int_equal(caps(e), 0);
	range_is(&c->power, 261000000, 333000000, 290000000, 290000000);
	/* pwm1_enable is there too, but the firmware curve wins. */
	assert_int_equal(c->fan_method, GT_FAN_METHOD_AMD_FIRMWARE);
	assert_int_equal(c->fan_count, 1);
	assert_int_equal(c->fw_curve.n, 0);
	assert_int_equal(c->fw_temp_min_mc, 25000);
	assert_int_equal(c->fw_temp_max_mc, 100000);
	assert_int_equal(c->fw_speed_min_cpercent, 1500);
	assert_int_equal(c->fw_speed_max_cpercent, 10000);
	assert_int_equal(c->fan_min_cpercent, 1500);
	assert_int_equal(c->fan_max_cpercent, 10000);
	assert_int_equal(c->profile_active, 0);
	done(e);
}

/* RDNA4 with a user curve in force; then the same card with overdrive
 * off (no gpu_od) and an RDNA3 whose curve has no OD_RANGE. */
static void test_amd_rdna4(void **state)
{
	char cmd[2048];
	OPEN(e, c, "amdgpu/rx9070", true, GT_VENDOR_AMD, "0000:03:00.0");

	assert_int_equal(caps(e), 0);
	assert_string_equal(c->dev, at(e, "class/drm/card1/device"));
	range_is(&c->power, 1000000, 245000000, 220000000, 200000000);
	assert_string_equal(c->level, "manual");
	assert_int_equal(c->nprofiles, 8);
	profile_is(c, 7, 7, "WINDOW_3D");
	assert_int_equal(c->profile_active, 1);
	assert_int_equal(c->fan_method, GT_FAN_METHOD_AMD_FIRMWARE);
	assert_int_equal(c->fw_curve.n, 5);
	assert_int_equal(c->fw_curve.pt[0].temp_mc, 40000);
	assert_int_equal(c->fw_curve.pt[0].cpercent, 2500);
	assert_int_equal(c->fw_curve.pt[2].temp_mc, 60000);
	assert_int_equal(c->fw_curve.pt[2].cpercent, 6000);
	assert_int_equal(c->fw_curve.pt[4].temp_mc, 80000);
	assert_int_equal(c->fw_curve.pt[4].cpercent, 10000);
	assert_int_equal(c->fan_min_cpercent, 1500);

	snprintf(cmd, sizeof(cmd), "rm -r '%s'",
	         at(e, "class/drm/card1/device/gpu_od"));
	assert_int_equal(system(cmd), 0);
	assert_int_equal(caps(e), 0);
	assert_int_equal(c->fan_method, GT_FAN_METHOD_NONE);
	assert_int_equal(c->fan_count, 0);
	CONTAINS(c->fan_why, "no hwmon pwm1_enable and no "
	                     "gpu_od/fan_ctrl/fan_curve");
	CONTAINS(c->fan_why, "amdgpu.ppfeaturemask");
	assert_true(c->power.known); /* the rest is unaffected */
	done(e);

	e = open_tree("amdgpu/rx7900xtx", true, GT_VENDOR_AMD, "0000:03:00.0");
	c = &e->caps;
	snprintf(cmd, sizeof(cmd), "sed -i '/OD_RANGE/,$d' '%s'",
	         at(e, "class/drm/card0/device/gpu_od/fan_ctrl/fan_curve"));
	assert_int_equal(system(cmd), 0);
	assert_int_equal(caps(e), 0);
	assert_int_equal(c->fan_method, GT_FAN_METHOD_NONE);
	CONTAINS(c->fan_why, "overdrive is off");
	CONTAINS(c->fan_why, "amdgpu.ppfeaturemask");
	done(e);
}

/* The five pp_power_profile_mode layouts: every profile in table order,
 * named, and the active one. */
static void test_amd_profile_layouts(void **state)
{
	static const struct {
		const char *tree, *slot;
		size_t n;
		int first, last, active;
		const char *first_name, *last_name;
	} t[] = {
	    /* flat SMU7 */
	    {"rx580", "0000:09:00.0", 7, 0, 6, 1, "BOOTUP_DEFAULT", "CUSTOM"},
	    /* flat Vega10 */
	    {"vega56", "0000:0b:00.0", 7, 0, 6, 0, "BOOTUP_DEFAULT", "CUSTOM"},
	    /* nested */
	    {"rx6900xt", "0000:0c:00.0", 7, 0, 6, 0, "BOOTUP_DEFAULT",
	     "CUSTOM"},
	    /* rotated, the '*' a token of its own */
	    {"rx7600s", "0000:03:00.0", 8, 0, 7, 4, "BOOTUP_DEFAULT",
	     "WINDOW_3D"},
	    /* APU list, gaps in the numbers, none marked active */
	    {"vangogh", "0000:04:00.0", 7, 1, 9, -1, "3D_FULL_SCREEN",
	     "UNCAPPED"},
	};
	char tree[64];
	(void)state;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(tree, sizeof(tree), "amdgpu/%s", t[i].tree);
		struct env *e =
		    open_tree(tree, false, GT_VENDOR_AMD, t[i].slot);
		struct gt_control_caps *c = &e->caps;

		assert_int_equal(caps(e), 0);
		assert_int_equal(c->nprofiles, t[i].n);
		profile_is(c, 0, t[i].first, t[i].first_name);
		profile_is(c, t[i].n - 1, t[i].last, t[i].last_name);
		assert_int_equal(c->profile_active, t[i].active);
		done(e);
	}
}

/* Each index once, as first printed, and only those the kernel can
 * read (one digit). */
static void test_amd_profile_repeats_and_big_indices(void **state)
{
	FILE *f;
	OPEN(e, c, "amdgpu/rx580", true, GT_VENDOR_AMD, "0000:09:00.0");

	f = fopen(at(e, "class/drm/card0/device/pp_power_profile_mode"), "w");
	assert_non_null(f);
	fputs("NUM        MODE_NAME     SCLK_UP_HYST\n"
	      "  0   BOOTUP_DEFAULT:        -\n"
	      "  1 3D_FULL_SCREEN *:        0\n"
	      "  1         REPEATED:        0\n"
	      " 42            LATER:        0\n"
	      "  3            VIDEO:        -\n",
	      f);
	fclose(f);
	assert_int_equal(caps(e), 0);
	assert_int_equal(c->nprofiles, 3);
	profile_is(c, 0, 0, "BOOTUP_DEFAULT");
	profile_is(c, 1, 1, "3D_FULL_SCREEN");
	profile_is(c, 2, 3, "VIDEO");
	assert_int_equal(c->profile_active, 1);
	done(e);
}

/* An APU: no power cap, no fan of its own, no profile table. */
static void test_amd_apu(void **state)
{
	OPEN(e, c, "amdgpu/phoenix", false, GT_VENDOR_AMD, "0000:64:00.0");

	assert_int_equal(caps(e), 0);
	unknown_because(&c->power, "has no hwmon power1_cap");
	assert_int_equal(c->fan_method, GT_FAN_METHOD_NONE);
	CONTAINS(c->fan_why, "no fan of its own");
	assert_true(c->has_level);
	assert_string_equal(c->level, "auto");
	assert_int_equal(c->nprofiles, 0);
	assert_int_equal(c->profile_active, -1);
	done(e);
}

/* ------------------------------------------------------------------ */
/* NVIDIA                                                               */
/* ------------------------------------------------------------------ */

static void test_nvidia_two_fans(void **state)
{
	OPEN_NVML(e, c, "rtx4090.scn", "0000:01:00.0");
	assert_int_equal(caps(e), 0);
	assert_string_equal(c->why, "");
	assert_string_equal(c->dev, "0000:01:00.0");
	range_is(&c->power, 10000, 600000, 450000, 450000);
	assert_int_equal(c->fan_method, GT_FAN_METHOD_NVML_LOOP);
	assert_int_equal(c->fan_count, 2);
	assert_int_equal(c->fan_min_cpercent, 3000);
	assert_int_equal(c->fan_max_cpercent, 10000);
	assert_false(c->has_level);
	assert_int_equal(c->nprofiles, 0);
	unknown_because(&c->freq_max, "Intel GPUs only");
	/* An address NVML does not list. */
	snprintf(e->st.pci_bus_id, sizeof(e->st.pci_bus_id), "0000:02:00.0");
	assert_int_equal(caps(e), -1);
	assert_string_equal(c->why, "NVML lists no GPU at 0000:02:00.0");
	unknown_because(&c->power, "NVML lists no GPU");
	done(e);
}

static void test_nvidia_no_fans(void **state)
{
	OPEN_NVML(e, c, "h100x8.scn", "0000:18:00.0");
	assert_int_equal(caps(e), 0);
	range_is(&c->power, 200000, 700000, 700000, 700000);
	assert_int_equal(c->fan_method, GT_FAN_METHOD_NONE);
	assert_int_equal(c->fan_count, 0);
	CONTAINS(c->fan_why, "no fans gputop can control");
	/* The second H100 is found by its own address. */
	snprintf(e->st.pci_bus_id, sizeof(e->st.pci_bus_id), "0000:2A:00.0");
	assert_int_equal(caps(e), 0);
	assert_string_equal(c->dev, "0000:2A:00.0");
	done(e);
}

static void test_nvidia_without_library(void **state)
{
	OPEN(e, c, "intel/xe-bmg", false, GT_VENDOR_NVIDIA, "0000:01:00.0");

	assert_int_equal(caps(e), -1);
	CONTAINS(c->why, "libnvidia-ml.so.1) is not loaded");
	unknown_because(&c->power, "is not loaded");
	unknown_because(&c->freq_min, "is not loaded");
	assert_int_equal(c->fan_method, GT_FAN_METHOD_NONE);
	CONTAINS(c->fan_why, "is not loaded");
	done(e);
}

/* ------------------------------------------------------------------ */
/* Intel                                                                */
/* ------------------------------------------------------------------ */

/* i915 discrete: PL1 below the TDP, per-GT frequency files, and the
 * device's hwmon2 (i915), not the per-GT hwmon3 (i915_gt0). */
static void test_intel_i915_dg2(void **state)
{
	OPEN(e, c, "intel/i915-dg2", false, GT_VENDOR_INTEL, "0000:03:00.0");

	assert_int_equal(caps(e), 0);
	assert_string_equal(c->why, "");
	assert_string_equal(c->dev, at(e, "class/drm/card0/device"));
	assert_string_equal(c->hwmon, at(e, "class/drm/card0/device/hwmon/"
	                                    "hwmon2"));
	range_is(&c->power, 1000000, 225000000, 225000000, 190000000);
	range_is(&c->freq_min, 300, 2400, -1, 300);
	range_is(&c->freq_max, 300, 2400, -1, 2400);
	assert_int_equal(c->fan_method, GT_FAN_METHOD_NONE);
	CONTAINS(c->fan_why, "i915 and xe drivers offer no fan control");
	assert_false(c->has_level);
	assert_int_equal(c->nprofiles, 0);
	done(e);
}

/* i915 integrated on an older kernel: legacy card files, no hwmon. */
static void test_intel_i915_tgl(void **state)
{
	OPEN(e, c, "intel/i915-tgl", false, GT_VENDOR_INTEL, "0000:00:02.0");

	assert_int_equal(caps(e), 0);
	assert_string_equal(c->hwmon, "");
	unknown_because(&c->power, "RAPL");
	range_is(&c->freq_min, 100, 1450, -1, 350);
	range_is(&c->freq_max, 100, 1450, -1, 1450);
	done(e);
}

static void test_intel_xe_bmg(void **state)
{
	OPEN(e, c, "intel/xe-bmg", true, GT_VENDOR_INTEL, "0000:03:00.0");

	assert_int_equal(caps(e), 0);
	assert_string_equal(c->dev, at(e, "class/drm/card1/device"));
	assert_string_equal(c->hwmon, at(e, "class/drm/card1/device/hwmon/"
	                                    "hwmon3"));
	range_is(&c->power, 1000000, 190000000, 190000000, 190000000);
	range_is(&c->freq_min, 400, 2850, -1, 400);
	range_is(&c->freq_max, 400, 2850, -1, 2850);
	/* Without the rated max the power range is unknown; the GT's
	 * frequency range without rp0_freq likewise. */
	assert_int_equal(unlink(at(e, "class/drm/card1/device/hwmon/hwmon3/"
	                              "power1_rated_max")),
	                 0);
	assert_int_equal(unlink(at(e, "class/drm/card1/device/tile0/gt0/"
	                              "freq0/rp0_freq")),
	                 0);
	assert_int_equal(caps(e), 0);
	unknown_because(&c->power, "no power1_rated_max (its TDP)");
	unknown_because(&c->freq_min, "rp0_freq");
	unknown_because(&c->freq_max, "rp0_freq");
	done(e);
}

/* ------------------------------------------------------------------ */
/* Nothing to change                                                    */
/* ------------------------------------------------------------------ */

static void test_refusals(void **state)
{
	OPEN(e, c, "amdgpu/rx580", false, GT_VENDOR_AMD, "0000:09:00.0");

	e->st.demo = true;
	assert_int_equal(caps(e), -1);
	assert_string_equal(c->why, "a demo device: nothing to change");
	unknown_because(&c->power, "a demo device: nothing to change");
	assert_string_equal(c->fan_why, "a demo device: nothing to change");
	assert_int_equal(c->nprofiles, 0);
	assert_false(c->has_level);
	e->st.demo = false;
	assert_int_equal(caps(e), 0); /* the same device, for real */

	snprintf(e->st.pci_bus_id, sizeof(e->st.pci_bus_id), "0000:99:00.0");
	assert_int_equal(caps(e), -1);
	CONTAINS(c->why, "no DRM device at PCI slot 0000:99:00.0");

	/* The slot is an amdgpu card, the model says Intel. */
	snprintf(e->st.pci_bus_id, sizeof(e->st.pci_bus_id), "0000:09:00.0");
	e->st.vendor = GT_VENDOR_INTEL;
	assert_int_equal(caps(e), -1);
	CONTAINS(c->why, "is not an Intel device");
	unknown_because(&c->power, "is not an Intel device");

	e->st.vendor = GT_VENDOR_UNKNOWN;
	assert_int_equal(caps(e), -1);
	CONTAINS(c->why, "NVIDIA, AMD and Intel GPUs only");
	done(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_amd_polaris_pwm),
	    cmocka_unit_test(test_amd_rdna3_firmware_curve),
	    cmocka_unit_test(test_amd_rdna4),
	    cmocka_unit_test(test_amd_profile_layouts),
	    cmocka_unit_test(test_amd_profile_repeats_and_big_indices),
	    cmocka_unit_test(test_amd_apu),
	    cmocka_unit_test(test_nvidia_two_fans),
	    cmocka_unit_test(test_nvidia_no_fans),
	    cmocka_unit_test(test_nvidia_without_library),
	    cmocka_unit_test(test_intel_i915_dg2),
	    cmocka_unit_test(test_intel_i915_tgl),
	    cmocka_unit_test(test_intel_xe_bmg),
	    cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * test_amdgpu_golden.c - the real gputop binary against every real amdgpu
 * sysfs capture in tests/fixtures/amdgpu (arranged as /sys roots), checked
 * against values a person can read in the capture's files (the golden
 * table, and the values of gpu_metrics, the overdrive table and the
 * memory and hwmon files it does not cover); the radeon and partial
 * captures as the negative cases. Edited copies of the captures are
 * test_amdgpu_copies.c's. Names come from the fixtures' amdgpu.ids (see
 * support/amdgpu_golden_test.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "support/amdgpu_golden_test.h"
#include "support/json_path.h"
#include "support/run_gputop.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * The golden table. Where each column comes from, under
 * <capture>/class/drm/cardN/device/:
 *   name      revision + uevent PCI_ID looked up in amdgpu.ids (the test's
 *             excerpt), then gputop's built-in table; without a revision
 *             file, a name only when every entry of the device id agrees,
 *             else "AMD Radeon (device 0xNNNN)" (PCI_ID in uevent). The
 *             RDNA1-4 captures have no revision file, and each of their
 *             ids has several names by revision (7340, 731F, 73FF: e.g.
 *             RX 5500 XT / 5500M...; 744C: RX 7900 XTX / XT / GRE / 7900M;
 *             747E, 7480, 7550 likewise), so they keep the generic name
 *   arch      the device id's chip family (amdgpu_ids.c)
 *   vram      mem_info_vram_total (bytes)
 *   t_*       hwmon/hwmonM/temp1_input (edge), temp2_input (junction),
 *             temp3_input (mem), m°C / 1000
 *   power     hwmon power1_average (else power1_input), µW / 1e6
 *   cap       hwmon power1_cap, µW / 1e6
 *   gfx, mem  hwmon freq1_input / freq2_input (Hz / 1e6), else the '*'
 *             line of pp_dpm_sclk / pp_dpm_mclk, else gpu_metrics
 *   gfx_max   the highest line of pp_dpm_sclk
 *   gen/width the '*' line of pp_dpm_pcie on Vega10 and newer dGPUs (the
 *             PCI files describe the on-package switch there), else
 *             current_link_speed ("16.0 GT/s PCIe" = gen 4) and
 *             current_link_width; max: the fastest pp_dpm_pcie line, else
 *             max_link_speed / max_link_width
 *   perf      power_dpm_force_performance_level
 *   profile   the profile marked '*' in pp_power_profile_mode
 *   fan       hwmon pwm1 (0-255 -> %) and fan1_input (RPM); NA fan_pct
 *             means the capture has no fan files
 */
struct golden {
	const char *capture;
	const char *name; /* NULL: no amdgpu device in this capture */
	const char
	    *arch; /* or, for name == NULL, a part of the backend's detail */
	double vram;
	double t_gpu, t_hot, t_mem;
	double power, cap;
	double gfx, mem, gfx_max;
	double gen, width, max_gen, max_width;
	const char *perf, *profile;
	double fan_pct, fan_rpm;
};

#define NOT_AMDGPU(cap, detail)                                                \
	{                                                                      \
		cap, NULL, detail, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,      \
		    NULL, NULL, 0, 0                                           \
	}
#define PARTIAL "no GPU driven by amdgpu among 1 DRM device"

static const struct golden golden[] = {
    /* radeon driver (uevent DRIVER=radeon, PCI_ID=1002:6818) */
    NOT_AMDGPU("hd7870", "card0 (0000:01:00.0, 1002:6818): driver radeon is "
                         "not supported"),
    /* Partial captures: one file, no uevent, so no driver to go by. */
    NOT_AMDGPU("internal-4800h", PARTIAL),
    NOT_AMDGPU("internal-7840u", PARTIAL),
    NOT_AMDGPU("rx5500xt-sysfsrs", PARTIAL),
    NOT_AMDGPU("rx5700xt-sysfsrs", PARTIAL),
    NOT_AMDGPU("rx6700xt", PARTIAL),
    NOT_AMDGPU("rx6800", PARTIAL),
    NOT_AMDGPU("rx7900xtx-sysfsrs", PARTIAL),
    NOT_AMDGPU("vangogh-sysfsrs", PARTIAL),
    /* revision 0xdd -> built-in 780M; no fan; power1_average 3103000;
     * current_link_* (APU); no pp_power_profile_mode */
    {"phoenix", "AMD Radeon 780M Graphics",
     "RDNA3",   4294967296.0,
     25,        NA,
     NA,        3.103,
     NA,        800,
     400,       2700,
     4,         16,
     4,         16,
     "auto",    NULL,
     NA,        NA},
    /* revision 0x87 -> ids "AMD Radeon R7 200 Series"; SI: no power value,
     * empty pp_dpm_* (no max), no fan1_input; pwm1 103 */
    {"r7-240",
     "AMD Radeon R7 200 Series",
     "GCN 1",
     2147483648.0,
     52,
     NA,
     NA,
     NA,
     NA,
     400,
     1150,
     NA,
     2,
     4,
     3,
     8,
     "auto",
     NULL,
     103 * 100.0 / 255,
     NA},
    /* no revision; 679A has one name in the ids file; no max_link_* */
    {"r9-280",
     "AMD Radeon HD 7900 Series",
     "GCN 1",
     NA,
     37,
     NA,
     NA,
     NA,
     NA,
     300,
     150,
     NA,
     2,
     8,
     NA,
     NA,
     NULL,
     NULL,
     139 * 100.0 / 255,
     NA},
    /* pp_dpm_pcie "1: 8.0GT/s, x8 619Mhz *" (current_link_* say 16 x16:
     * the switch); temp3_input 0 */
    {"rx5500xt", "AMD Radeon (device 0x7340)",
     "RDNA1",    NA,
     48,         48,
     0,          16,
     130,        31,
     875,        1900,
     3,          8,
     3,          8,
     NULL,       "COMPUTE",
     0,          0},
    {"rx5700xt",
     "AMD Radeon (device 0x731F)",
     "RDNA1",
     NA,
     58,
     58,
     62,
     29,
     220,
     10,
     875,
     1900,
     3,
     16,
     3,
     16,
     NULL,
     "CUSTOM",
     65 * 100.0 / 255,
     29},
    /* revision 0xe7 -> ids "AMD Radeon RX 580 Series"; GCN 4: PCI files;
     * freq1_input 798080000 Hz is 798 whole MHz */
    {"rx580",
     "AMD Radeon RX 580 Series",
     "GCN 4",
     4294967296.0,
     44,
     NA,
     NA,
     41.045,
     155,
     798,
     1750,
     1366,
     3,
     16,
     3,
     16,
     "auto",
     "3D_FULL_SCREEN",
     35 * 100.0 / 255,
     595},
    /* an x8 card: pp_dpm_pcie "1: 8.0GT/s, x8 619Mhz *" */
    {"rx6600", "AMD Radeon (device 0x73FF)",
     "RDNA2",  NA,
     28,       28,
     26,       3,
     120,      20,
     96,       2700,
     3,        8,
     3,        8,
     NULL,     "3D_FULL_SCREEN",
     0,        1395},
    /* pp_dpm_sclk "0: 0Mhz *" / "1: 0Mhz *": no real maximum */
    {"rx6600xt", "AMD Radeon (device 0x73FF)",
     "RDNA2",    NA,
     35,         35,
     36,         3,
     100,        0,
     96,         NA,
     3,          8,
     3,          8,
     NULL,       "BOOTUP_DEFAULT",
     0,          0},
    /* every file NUL-padded to 4096 bytes; revision 0xc0 */
    {"rx6900xt", "AMD Radeon RX 6900 XT",
     "RDNA2",    17163091968.0,
     56,         59,
     54,         36,
     289,        500,
     1000,       2660,
     4,          16,
     4,          16,
     "auto",     "BOOTUP_DEFAULT",
     0,          0},
    /* only uevent (DRIVER=amdgpu, no PCI_ID, no newline) and pp_dpm_sclk
     * ("0: 0Mhz *" / "1: 0Mhz *") */
    {"rx6950xt", "AMD Radeon (unknown device)",
     NULL,       NA,
     NA,         NA,
     NA,         NA,
     NA,         0,
     NA,         NA,
     NA,         NA,
     NA,         NA,
     NULL,       NULL,
     NA,         NA},
    /* freq1_input 0 (GFXOFF); rotated profile table, "4 VR            *" */
    {"rx7600s",
     "AMD Radeon (device 0x7480)",
     "RDNA3",
     NA,
     53,
     54,
     60,
     1,
     95,
     0,
     96,
     1841,
     4,
     8,
     4,
     8,
     "manual",
     "VR",
     76 * 100.0 / 255,
     0},
    /* pp_dpm_pcie marks no line: current_link_* (16.0 GT/s x8), which the
     * table lists */
    {"rx7700s",
     "AMD Radeon (device 0x7480)",
     "RDNA3",
     NA,
     34,
     34,
     42,
     1,
     100,
     0,
     96,
     2208,
     4,
     8,
     4,
     8,
     "auto",
     "BOOTUP_DEFAULT",
     76 * 100.0 / 255,
     0},
    /* pp_dpm_sclk with the synthetic current line "1: 77Mhz *" */
    {"rx7800xt",
     "AMD Radeon (device 0x747E)",
     "RDNA3",
     NA,
     24,
     31,
     48,
     32,
     236,
     2011,
     456,
     2254,
     4,
     16,
     4,
     16,
     "manual",
     "COMPUTE",
     89 * 100.0 / 255,
     868},
    /* hwmon without a name file */
    {"rx7800xt-sysfsrs",
     "AMD Radeon (device 0x747E)",
     "RDNA3",
     NA,
     37,
     43,
     56,
     10,
     222,
     0,
     96,
     2124,
     4,
     16,
     4,
     16,
     NULL,
     "BOOTUP_DEFAULT",
     0,
     0},
    {"rx7900xt", "AMD Radeon (device 0x744C)",
     "RDNA3",    NA,
     53,         61,
     68,         68,
     290,        31,
     1249,       2219,
     4,          16,
     4,          16,
     NULL,       "BOOTUP_DEFAULT",
     0,          0},
    /* NUL-padded name and power_dpm_force_performance_level */
    {"rx7900xtx", "AMD Radeon (device 0x744C)",
     "RDNA3",     NA,
     53,          61,
     68,          68,
     290,         31,
     1249,        2219,
     4,           16,
     4,           16,
     "auto",      "BOOTUP_DEFAULT",
     0,           0},
    /* current_link_speed 32.0 GT/s is the switch; pp_dpm_pcie "1:
     * 16.0GT/s, x16 1143Mhz *"; sclk "S: 500Mhz"..."2: 2070Mhz" */
    {"rx9070",
     "AMD Radeon (device 0x7550)",
     "RDNA4",
     NA,
     48,
     52,
     72,
     49,
     200,
     900,
     1124,
     2070,
     4,
     16,
     4,
     16,
     "manual",
     "3D_FULL_SCREEN",
     117 * 100.0 / 255,
     1944},
    /* "S: 19Mhz *" deep-sleep line; power1_cap 120 W of 304 default */
    {"rx9070xt",
     "AMD Radeon (device 0x7550)",
     "RDNA4",
     NA,
     42,
     45,
     68,
     55,
     120,
     167,
     1258,
     1000,
     4,
     16,
     4,
     16,
     "auto",
     "BOOTUP_DEFAULT",
     81 * 100.0 / 255,
     896},
    /* no fan files; pp_dpm_pcie marks no line and current_link_speed
     * (32.0 GT/s) is none of its levels: the link is unknown */
    {"rx9070xt-sysfsrs",
     "AMD Radeon (device 0x7550)",
     "RDNA4",
     NA,
     39,
     42,
     62,
     19,
     330,
     59,
     96,
     2520,
     NA,
     NA,
     3,
     16,
     "auto",
     "3D_FULL_SCREEN",
     NA,
     NA},
    /* revision 0xc4 -> built-in "880M" (the capture's README says 890M;
     * kfd simd_count 24 / simd_per_cu 2 = 12 CUs is an 880M);
     * pp_dpm_mclk marks no line: gpu_metrics v3.0 average_uclk 836 */
    {"strixpoint",
     "AMD Radeon 880M Graphics",
     "RDNA3.5",
     536870912.0,
     38,
     NA,
     NA,
     9.087,
     NA,
     848,
     836,
     2900,
     4,
     16,
     4,
     16,
     "auto",
     NULL,
     NA,
     NA},
    /* no revision; 163F has one name in the ids file; power1_average
     * (slowPPT) 3218000 preferred over power1_input 4057000; pp_dpm_mclk
     * with two '*' lines (687 MHz); no profile marked */
    {"vangogh", "AMD Custom GPU 0405",
     "RDNA2",   NA,
     56,        NA,
     NA,        3.218,
     15,        200,
     687,       1600,
     3,         16,
     NA,        NA,
     NULL,      NULL,
     NA,        NA},
    /* revision 0xc3 -> ids "AMD Radeon RX Vega"; pp_dpm_pcie two '*' */
    {"vega56", "AMD Radeon RX Vega",
     "GCN 5",  8573157376.0,
     38,       38,
     39,       8,
     260,      26,
     167,      1590,
     3,        16,
     3,        16,
     "auto",   "BOOTUP_DEFAULT",
     0,        5},
};

static void check_golden(const struct golden *g)
{
	char root[1200];
	snprintf(root, sizeof(root), "%s/%s", fixtures(), g->capture);
	cJSON *doc = snapshot_of(root);
	const cJSON *b = amdgpu_backend(doc);
	const cJSON *devs = get(doc, "devices");

	if (!g->name) {
		assert_int_equal(cJSON_GetArraySize(devs), 0);
		assert_string_equal(get(b, "status")->valuestring,
		                    "unavailable");
		if (!strstr(get(b, "detail")->valuestring, g->arch))
			fail_msg("%s: detail '%s' lacks '%s'", g->capture,
			         get(b, "detail")->valuestring, g->arch);
		cJSON_Delete(doc);
		return;
	}
	assert_int_equal(cJSON_GetArraySize(devs), 1);
	assert_string_equal(get(b, "status")->valuestring, "ok");
	const cJSON *dev = cJSON_GetArrayItem(devs, 0);
	const char *cap = g->capture;
	expect_str(cap, dev, "name", g->name);
	expect_str(cap, dev, "architecture", g->arch);
	expect_str(cap, dev, "vendor", "amd");
	expect_str(cap, dev, "driver", "amdgpu");
	expect_str(cap, dev, "state", "ok");
	expect_num(cap, dev, "memory.total_bytes", g->vram);
	expect_num(cap, dev, "thermal.gpu_celsius", g->t_gpu);
	expect_num(cap, dev, "thermal.hotspot_celsius", g->t_hot);
	expect_num(cap, dev, "thermal.memory_celsius", g->t_mem);
	expect_num(cap, dev, "power.draw_watts", g->power);
	expect_num(cap, dev, "power.limit_watts", g->cap);
	expect_num(cap, dev, "clocks.graphics_mhz", g->gfx);
	expect_num(cap, dev, "clocks.memory_mhz", g->mem);
	expect_num(cap, dev, "clocks.graphics_max_mhz", g->gfx_max);
	expect_num(cap, dev, "pcie.link_gen", g->gen);
	expect_num(cap, dev, "pcie.link_width", g->width);
	expect_num(cap, dev, "pcie.max_link_gen", g->max_gen);
	expect_num(cap, dev, "pcie.max_link_width", g->max_width);
	expect_str(cap, dev, "power.performance_level", g->perf);
	expect_str(cap, dev, "power.profile", g->profile);
	const cJSON *fans = get(dev, "thermal.fans");
	if (g->fan_pct == NA) {
		assert_int_equal(cJSON_GetArraySize(fans), 0);
	} else {
		assert_int_equal(cJSON_GetArraySize(fans), 1);
		const cJSON *fan = cJSON_GetArrayItem(fans, 0);
		/* pwm1 / 255, stored in hundredths of a percent */
		expect_num(cap, fan, "percent", floor(g->fan_pct * 100) / 100);
		if (g->fan_rpm == NA) {
			/* The fan's reasons sit with the device's. */
			assert_true(cJSON_IsNull(get(fan, "rpm")));
			assert_non_null(strstr(
			    reason(dev, "thermal.fans[0].rpm"), "no sensor"));
		} else {
			expect_num(cap, fan, "rpm", g->fan_rpm);
		}
	}
	/* Every null the device has carries a reason. */
	const cJSON *why = get(dev, "unavailable");
	assert_true(cJSON_IsObject(why));
	cJSON_Delete(doc);
}

static void test_golden_every_capture(void **state)
{
	(void)state;
	char path[1200];
	size_t checked = 0;
	for (size_t i = 0; i < sizeof(golden) / sizeof(golden[0]); i++) {
		check_golden(&golden[i]);
		checked++;
	}
	/* Every capture directory has a row (and no row lacks a capture). */
	for (size_t i = 0; i < sizeof(golden) / sizeof(golden[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s/class/drm", fixtures(),
		         golden[i].capture);
		assert_int_equal(access(path, F_OK), 0);
	}
	char cmd[1300];
	snprintf(cmd, sizeof(cmd), "ls -d '%s'/*/class/drm | wc -l",
	         fixtures());
	FILE *p = popen(cmd, "r");
	unsigned n = 0;
	assert_non_null(p);
	assert_int_equal(fscanf(p, "%u", &n), 1);
	pclose(p);
	assert_int_equal(n, checked);
}

/* Values only the binary gpu_metrics and the overdrive table give. */
static void test_metrics_values_in_snapshot(void **state)
{
	(void)state;
	char root[1200];
	snprintf(root, sizeof(root), "%s/rx6900xt", fixtures());
	cJSON *doc = snapshot_of(root);
	const cJSON *dev = cJSON_GetArrayItem(get(doc, "devices"), 0);
	/* gpu_metrics v1.3 energy_accumulator 17691682 x 2^-16 J */
	expect_num("rx6900xt", dev, "power.energy_joules", 269.953);
	/* gpu_metrics current_vclk0 0 (no pp_dpm_vclk maximum: "0: 0Mhz *") */
	expect_num("rx6900xt", dev, "clocks.video_mhz", 0);
	/* pp_od_clk_voltage OD_SCLK 500 / 2499 Mhz */
	expect_num("rx6900xt", dev, "clocks.graphics_min_limit_mhz", 500);
	expect_num("rx6900xt", dev, "clocks.graphics_max_limit_mhz", 2499);
	expect_num("rx6900xt", dev, "memory.visible_total_bytes",
	           17163091968.0);
	expect_num("rx6900xt", dev, "memory.gtt_total_bytes", 16786171904.0);
	expect_num("rx6900xt", dev, "utilization.gpu_percent", 3);
	expect_num("rx6900xt", dev, "thermal.slowdown_celsius", 100);
	expect_num("rx6900xt", dev, "thermal.shutdown_celsius", 105);
	/* power1_cap_min 0: the minimum is unknown */
	expect_num("rx6900xt", dev, "power.min_limit_watts", NA);
	expect_num("rx6900xt", dev, "power.max_limit_watts", 332);
	expect_str("rx6900xt", dev, "uuid", "946d7e1ef9b172dd");
	assert_false(cJSON_IsTrue(get(dev, "throttle.active")));
	cJSON_Delete(doc);

	/* rx7600s: indep_throttle_status bit 36 (TEMP_HOTSPOT) */
	snprintf(root, sizeof(root), "%s/rx7600s", fixtures());
	doc = snapshot_of(root);
	dev = cJSON_GetArrayItem(get(doc, "devices"), 0);
	assert_true(cJSON_IsTrue(get(dev, "throttle.active")));
	assert_int_equal(cJSON_GetArraySize(get(dev, "throttle.reasons")), 1);
	assert_string_equal(
	    cJSON_GetArrayItem(get(dev, "throttle.reasons"), 0)->valuestring,
	    "sw_thermal");
	/* rotated profile table, VR active */
	expect_str("rx7600s", dev, "power.profile", "VR");
	cJSON_Delete(doc);

	/* rx7700s: pp_od_clk_voltage holds "r" - no range, with a reason */
	snprintf(root, sizeof(root), "%s/rx7700s", fixtures());
	doc = snapshot_of(root);
	dev = cJSON_GetArrayItem(get(doc, "devices"), 0);
	expect_num("rx7700s", dev, "clocks.graphics_max_limit_mhz", NA);
	assert_non_null(strstr(reason(dev, "clocks.graphics_max_limit_mhz"),
	                       "driver error"));
	cJSON_Delete(doc);
}

/*
 * Values the golden table does not cover, each read from a file of the
 * capture (under class/drm/card0/device/; hwmon = hwmon/hwmon4 for rx580,
 * hwmon/hwmon5 for rx6900xt):
 *   memory_bandwidth_percent  mem_busy_percent
 *   used_bytes                mem_info_vram_used
 *   visible_used_bytes        mem_info_vis_vram_used
 *   gtt_used_bytes            mem_info_gtt_used
 *   default_limit_watts       hwmon power1_cap_default (µW)
 *   gpu_max_celsius           hwmon temp2_crit (junction, m°C)
 *   memory_max_celsius        hwmon temp3_crit (mem, m°C)
 */
static void test_sysfs_values_in_snapshot(void **state)
{
	(void)state;
	static const struct {
		const char *capture;
		double membw, used, vis_used, gtt_used, free, cap_default;
		double junction_crit, mem_crit;
	} cases[] = {
	    /* mem_busy_percent 2; vram_used 536870912 of 4294967296;
	     * vis_vram_used 150302720; gtt_used 92377088;
	     * power1_cap_default 155000000; Polaris has only temp1
	     * (edge): no junction or memory sensor, so no limits */
	    {"rx580", 2, 536870912.0, 150302720.0, 92377088.0, 3758096384.0,
	     155, NA, NA},
	    /* mem_busy_percent 0; vram_used and vis_vram_used both
	     * 668274688 (mem_info_vis_vram_total equals
	     * mem_info_vram_total: all VRAM is CPU-visible);
	     * gtt_used 62369792; power1_cap_default 289000000;
	     * temp2_crit 110000, temp3_crit 100000 */
	    {"rx6900xt", 0, 668274688.0, 668274688.0, 62369792.0,
	     17163091968.0 - 668274688.0, 289, 110, 100},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char root[1200];
		const char *cap = cases[i].capture;
		snprintf(root, sizeof(root), "%s/%s", fixtures(), cap);
		cJSON *doc = snapshot_of(root);
		const cJSON *dev = cJSON_GetArrayItem(get(doc, "devices"), 0);
		expect_num(cap, dev, "utilization.memory_bandwidth_percent",
		           cases[i].membw);
		expect_num(cap, dev, "memory.used_bytes", cases[i].used);
		expect_num(cap, dev, "memory.visible_used_bytes",
		           cases[i].vis_used);
		expect_num(cap, dev, "memory.gtt_used_bytes",
		           cases[i].gtt_used);
		expect_num(cap, dev, "memory.free_bytes", cases[i].free);
		expect_num(cap, dev, "power.default_limit_watts",
		           cases[i].cap_default);
		expect_num(cap, dev, "thermal.gpu_max_celsius",
		           cases[i].junction_crit);
		expect_num(cap, dev, "thermal.memory_max_celsius",
		           cases[i].mem_crit);
		if (cases[i].junction_crit == NA)
			assert_non_null(
			    strstr(reason(dev, "thermal.gpu_max_celsius"),
			           "no sensor"));
		cJSON_Delete(doc);
	}
}

static void test_list_radeon_unsupported(void **state)
{
	(void)state;
	char root[1200];
	int status;
	snprintf(root, sizeof(root), "%s/hd7870", fixtures());
	const char *args[] = {
	    "--sysfs",      root,       "--list",        "--nvml-lib",
	    "/nonexistent", "--procfs", run_empty_dir(), NULL};
	char *out = run_gputop(&status, args);
	assert_int_equal(status, 0);
	assert_non_null(strstr(out, "No GPU found"));
	const char *line = strstr(out, "\namdgpu ");
	assert_non_null(line);
	assert_non_null(strstr(line, "unavailable"));
	assert_non_null(strstr(out, "card0 (0000:01:00.0, 1002:6818): driver "
	                            "radeon is not supported (gputop reads AMD "
	                            "GPUs through amdgpu only)"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_golden_every_capture),
	    cmocka_unit_test(test_metrics_values_in_snapshot),
	    cmocka_unit_test(test_sysfs_values_in_snapshot),
	    cmocka_unit_test(test_list_radeon_unsupported),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	rmdir(run_empty_dir());
	return rc;
}

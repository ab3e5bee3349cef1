/* SPDX-License-Identifier: MIT */
/*
 * test_amdgpu_parse.c - the pure parsers of amdgpu's text attributes:
 * pp_dpm_* tables, pp_od_clk_voltage, pp_power_profile_mode (all five
 * layouts) and the performance level. The inputs are the real capture files
 * in tests/fixtures/amdgpu with every quirk of ../shared/reference/
 * amdgpu.md §6.1 (NUL padding to 4096 bytes, section headers after long
 * runs of blanks, Mhz/MHz, two levels marked active, the RDNA3 synthetic
 * middle level, the RDNA4 "S:" line, the rx7700s "r" file), plus
 * hand-made text where no capture shows a case.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "support/amdgpu_test.h"
#include "collectors/amdgpu_parse.h"
#include "core/model.h"

/* ------------------------------------------------------------------ */
/* pp_dpm_*                                                             */
/* ------------------------------------------------------------------ */

static void test_dpm_polaris_levels(void **state)
{
	(void)state;
	struct blob b = fixture("rx580", "card0", "pp_dpm_sclk");
	struct gt_amdgpu_dpm d;
	assert_int_equal(gt_amdgpu_parse_dpm(b.data, b.len, &d), 8);
	assert_int_equal(d.nactive, 1);
	const struct gt_amdgpu_dpm_level *a = gt_amdgpu_dpm_active(&d);
	assert_non_null(a);
	assert_int_equal(a->index, 2);
	assert_int_equal(a->mhz, 900);
	assert_int_equal(gt_amdgpu_dpm_max_mhz(&d), 1366);
	assert_int_equal(d.lv[0].mhz, 300);
	assert_false(d.lv[0].active);
	blob_free(&b);
}

/* rx6900xt: every file is the text followed by NULs up to 4096 bytes. */
static void test_dpm_nul_padding(void **state)
{
	(void)state;
	struct blob b = fixture("rx6900xt", "card0", "pp_dpm_sclk");
	struct gt_amdgpu_dpm d;
	assert_int_equal(b.len, 4096);
	assert_int_equal(gt_amdgpu_parse_dpm(b.data, b.len, &d), 2);
	assert_int_equal(gt_amdgpu_dpm_active(&d)->mhz, 500);
	assert_int_equal(gt_amdgpu_dpm_max_mhz(&d), 2660);
	blob_free(&b);
}

static void test_dpm_unit_spelling(void **state)
{
	(void)state;
	static const char text[] = "0: 300MHz\n1: 600Mhz *\n2: 900mhz   \n";
	struct gt_amdgpu_dpm d;
	assert_int_equal(gt_amdgpu_parse_dpm(text, sizeof(text) - 1, &d), 3);
	assert_int_equal(d.lv[0].mhz, 300);
	assert_int_equal(d.lv[2].mhz, 900);
	assert_int_equal(gt_amdgpu_dpm_active(&d)->mhz, 600);
}

/* Two (or more) lines marked active: vega56 pp_dpm_pcie, vangogh
 * pp_dpm_mclk, rx6950xt pp_dpm_sclk (which also lacks the final newline). */
static void test_dpm_two_active(void **state)
{
	(void)state;
	struct gt_amdgpu_dpm d;
	struct blob b = fixture("vega56", "card0", "pp_dpm_pcie");
	assert_int_equal(gt_amdgpu_parse_dpm(b.data, b.len, &d), 2);
	assert_int_equal(d.nactive, 2);
	assert_int_equal(gt_amdgpu_dpm_active(&d)->pcie_gts10, 80);
	assert_int_equal(gt_amdgpu_dpm_active(&d)->pcie_width, 16);
	blob_free(&b);

	b = fixture("vangogh", "card0", "pp_dpm_mclk");
	assert_int_equal(gt_amdgpu_parse_dpm(b.data, b.len, &d), 4);
	assert_int_equal(d.nactive, 2);
	assert_int_equal(gt_amdgpu_dpm_active(&d)->index, 3);
	assert_int_equal(gt_amdgpu_dpm_active(&d)->mhz, 687);
	blob_free(&b);

	b = fixture("rx6950xt", "card0", "pp_dpm_sclk");
	assert_int_not_equal(b.data[b.len - 1], '\n');
	assert_int_equal(gt_amdgpu_parse_dpm(b.data, b.len, &d), 2);
	assert_int_equal(d.nactive, 2);
	assert_true(d.lv[1].active);
	assert_int_equal(gt_amdgpu_dpm_active(&d)->mhz, 0);
	blob_free(&b);
}

/* RDNA3 fine-grained DPM: min, the current clock (marked), max. */
static void test_dpm_rdna3_synthetic_middle(void **state)
{
	(void)state;
	struct blob b = fixture("rx7800xt", "card1", "pp_dpm_sclk");
	struct gt_amdgpu_dpm d;
	assert_int_equal(gt_amdgpu_parse_dpm(b.data, b.len, &d), 3);
	assert_int_equal(d.lv[0].mhz, 500);
	assert_false(d.lv[0].active);
	assert_int_equal(gt_amdgpu_dpm_active(&d)->index, 1);
	assert_int_equal(gt_amdgpu_dpm_active(&d)->mhz, 77);
	/* The current clock is below the minimum level: the maximum is
	 * still the last line. */
	assert_int_equal(gt_amdgpu_dpm_max_mhz(&d), 2254);
	blob_free(&b);
}

/* RDNA4 deep-sleep line "S: 19Mhz *". */
static void test_dpm_rdna4_sleep_line(void **state)
{
	(void)state;
	struct blob b = fixture("rx9070xt", "card1", "pp_dpm_sclk");
	struct gt_amdgpu_dpm d;
	assert_int_equal(gt_amdgpu_parse_dpm(b.data, b.len, &d), 5);
	assert_int_equal(d.lv[0].index, -1);
	assert_true(d.lv[0].active);
	assert_int_equal(gt_amdgpu_dpm_active(&d)->mhz, 19);
	assert_int_equal(d.lv[1].index, 0);
	assert_int_equal(gt_amdgpu_dpm_max_mhz(&d), 1000);
	blob_free(&b);
}

static void test_dpm_pcie(void **state)
{
	(void)state;
	struct gt_amdgpu_dpm d;
	struct blob b = fixture("rx6900xt", "card0", "pp_dpm_pcie");
	assert_int_equal(gt_amdgpu_parse_dpm(b.data, b.len, &d), 2);
	const struct gt_amdgpu_dpm_level *a = gt_amdgpu_dpm_active(&d);
	assert_int_equal(a->pcie_gts10, 160);
	assert_int_equal(a->pcie_width, 16);
	assert_int_equal(a->mhz, 619);
	assert_int_equal(gt_amdgpu_pcie_gen(a->pcie_gts10), 4);
	assert_int_equal(d.lv[0].pcie_gts10, 25);
	assert_int_equal(d.lv[0].pcie_width, 1);
	blob_free(&b);

	/* Polaris: no LCLK column. rx6600: the real slot link (x8). */
	b = fixture("rx580", "card0", "pp_dpm_pcie");
	assert_int_equal(gt_amdgpu_parse_dpm(b.data, b.len, &d), 2);
	assert_int_equal(gt_amdgpu_dpm_active(&d)->mhz, -1);
	assert_int_equal(gt_amdgpu_dpm_max_link(&d)->pcie_width, 16);
	blob_free(&b);
	b = fixture("rx6600", "card1", "pp_dpm_pcie");
	assert_int_equal(gt_amdgpu_parse_dpm(b.data, b.len, &d), 2);
	assert_int_equal(
	    gt_amdgpu_pcie_gen(gt_amdgpu_dpm_max_link(&d)->pcie_gts10), 3);
	assert_int_equal(gt_amdgpu_dpm_max_link(&d)->pcie_width, 8);
	blob_free(&b);
	/* No level marked (rx7700s): nothing is active. */
	b = fixture("rx7700s", "card1", "pp_dpm_pcie");
	assert_int_equal(gt_amdgpu_parse_dpm(b.data, b.len, &d), 3);
	assert_null(gt_amdgpu_dpm_active(&d));
	blob_free(&b);
}

static void test_dpm_empty_and_garbage(void **state)
{
	(void)state;
	struct gt_amdgpu_dpm d;
	/* SI prints an empty table. */
	struct blob b = fixture("r7-240", "card1", "pp_dpm_sclk");
	assert_int_equal(gt_amdgpu_parse_dpm(b.data, b.len, &d), 0);
	assert_int_equal(gt_amdgpu_dpm_max_mhz(&d), -1);
	assert_null(gt_amdgpu_dpm_active(&d));
	blob_free(&b);
	assert_int_equal(gt_amdgpu_parse_dpm("r\n", 2, &d), -EBADMSG);
	assert_int_equal(gt_amdgpu_parse_dpm("0: fast *\n", 10, &d), -EBADMSG);
	/* A negative LCLK on a pcie level (fuzz_amdgpu_text) is no clock. */
	static const char neg[] = "0: 16.0GT/s, x16 -1623Mhz *\n";
	assert_int_equal(gt_amdgpu_parse_dpm(neg, sizeof(neg) - 1, &d), 1);
	assert_int_equal(d.lv[0].mhz, -1);
	assert_int_equal(d.lv[0].pcie_gts10, 160);
}

static void test_link_speed(void **state)
{
	(void)state;
	struct blob b = fixture("rx6900xt", "card0", "current_link_speed");
	assert_int_equal(gt_amdgpu_parse_link_speed(b.data, b.len), 160);
	blob_free(&b);
	b = fixture("rx9070", "card1", "current_link_speed");
	assert_int_equal(
	    gt_amdgpu_pcie_gen(gt_amdgpu_parse_link_speed(b.data, b.len)), 5);
	blob_free(&b);
	assert_int_equal(gt_amdgpu_parse_link_speed("2.5 GT/s PCIe\n", 14), 25);
	assert_int_equal(gt_amdgpu_pcie_gen(25), 1);
	assert_int_equal(gt_amdgpu_pcie_gen(50), 2);
	assert_int_equal(gt_amdgpu_pcie_gen(80), 3);
	assert_int_equal(gt_amdgpu_pcie_gen(640), 6);
	assert_int_equal(gt_amdgpu_pcie_gen(42), 0);
	assert_int_equal(gt_amdgpu_parse_link_speed("Unknown\n", 8), -EINVAL);
	assert_int_equal(gt_amdgpu_parse_link_speed("", 0), -EINVAL);
	/* A rate of 19 digits (fuzz_amdgpu_text): refused, no overflow. */
	static const char huge[] = "1999999999999999999.9 GT/s\n";
	assert_int_equal(gt_amdgpu_parse_link_speed(huge, sizeof(huge) - 1),
	                 -EINVAL);
}

/* ------------------------------------------------------------------ */
/* pp_od_clk_voltage                                                    */
/* ------------------------------------------------------------------ */

/* rx7900xt: runs of NULs before OD_VDDGFX_OFFSET and OD_RANGE (what the
 * kernel wrote), "Mhz" and "MHz" in one section, padding in OD_RANGE. */
static void test_od_nul_runs_before_headers(void **state)
{
	(void)state;
	struct blob b = fixture("rx7900xt", "card0", "pp_od_clk_voltage");
	struct gt_amdgpu_od od;
	assert_non_null(memchr(b.data, '\0', 100));
	assert_int_equal(gt_amdgpu_parse_od(b.data, b.len, &od), 0);
	assert_true(od.has_sclk);
	assert_int_equal(od.sclk_min, 500);
	assert_int_equal(od.sclk_max, 2735);
	assert_true(od.has_mclk);
	assert_int_equal(od.mclk_min, 97);
	assert_int_equal(od.mclk_max, 1250); /* "1250MHz" */
	assert_true(od.has_sclk_range);
	assert_int_equal(od.sclk_range_min, 500);
	assert_int_equal(od.sclk_range_max, 5000);
	blob_free(&b);

	b = fixture("phoenix", "card1", "pp_od_clk_voltage");
	assert_int_equal(gt_amdgpu_parse_od(b.data, b.len, &od), 0);
	assert_int_equal(od.sclk_min, 800);
	assert_int_equal(od.sclk_max, 2700);
	assert_int_equal(od.sclk_range_max, 2700);
	blob_free(&b);
}

/* The same with hundreds of spaces, as the reference describes some
 * kernels' output. */
static void test_od_spaces_before_headers(void **state)
{
	(void)state;
	char text[2048];
	size_t n = 0;
	n += (size_t)snprintf(text + n, sizeof(text) - n,
	                      "OD_SCLK:\n0: 500Mhz\n1: 2660Mhz\n");
	memset(text + n, ' ', 400);
	n += 400;
	n += (size_t)snprintf(text + n, sizeof(text) - n, "OD_RANGE:\nSCLK:");
	memset(text + n, ' ', 300);
	n += 300;
	n +=
	    (size_t)snprintf(text + n, sizeof(text) - n, "500MHz 3000Mhz   \n");
	struct gt_amdgpu_od od;
	assert_int_equal(gt_amdgpu_parse_od(text, n, &od), 0);
	assert_int_equal(od.sclk_min, 500);
	assert_int_equal(od.sclk_max, 2660);
	assert_true(od.has_sclk_range);
	assert_int_equal(od.sclk_range_min, 500);
	assert_int_equal(od.sclk_range_max, 3000);
}

static void test_od_formats(void **state)
{
	(void)state;
	struct gt_amdgpu_od od;
	/* Polaris: eight levels with voltages; first and last. */
	struct blob b = fixture("rx580", "card0", "pp_od_clk_voltage");
	assert_int_equal(gt_amdgpu_parse_od(b.data, b.len, &od), 0);
	assert_int_equal(od.sclk_min, 300);
	assert_int_equal(od.sclk_max, 1366);
	assert_int_equal(od.mclk_max, 1750);
	assert_int_equal(od.sclk_range_max, 2000);
	blob_free(&b);
	/* RDNA4: an offset, no range of its own. */
	b = fixture("rx9070", "card1", "pp_od_clk_voltage");
	assert_int_equal(gt_amdgpu_parse_od(b.data, b.len, &od), 0);
	assert_false(od.has_sclk);
	assert_true(od.has_sclk_offset);
	assert_int_equal(od.sclk_offset, 0);
	assert_int_equal(od.mclk_max, 1259);
	blob_free(&b);
	/* Van Gogh without a final newline, CCLK sections after it. */
	b = fixture("vangogh-sysfsrs", "card0", "pp_od_clk_voltage");
	assert_int_not_equal(b.data[b.len - 1], '\n');
	assert_int_equal(gt_amdgpu_parse_od(b.data, b.len, &od), 0);
	assert_int_equal(od.sclk_min, 1600);
	assert_int_equal(od.sclk_max, 1600);
	assert_int_equal(od.sclk_range_min, 200);
	blob_free(&b);
	/* Overdrive off: an empty file. */
	b = fixture("vangogh", "card0", "pp_od_clk_voltage");
	assert_int_equal(gt_amdgpu_parse_od(b.data, b.len, &od), -ENODATA);
	blob_free(&b);
}

/* Every capture's OD_SCLK range, as its file prints it. */
static void test_od_every_capture(void **state)
{
	(void)state;
	static const struct {
		const char *capture, *card;
		int64_t min, max; /* -1: no OD_SCLK section */
	} caps[] = {
	    {"internal-7840u", "card0", 800, 2700},
	    {"phoenix", "card1", 800, 2700},
	    {"rx5500xt-sysfsrs", "card0", 500, 1825},
	    {"rx5500xt", "card1", 500, 1900},
	    {"rx5700xt-sysfsrs", "card0", 800, 2100},
	    {"rx5700xt", "card1", 1351, 1900},
	    {"rx580", "card0", 300, 1366},
	    {"rx6600", "card1", 2600, 2700},
	    {"rx6700xt", "card0", 500, 2725},
	    {"rx6800", "card0", 500, 2314},
	    {"rx6900xt", "card0", 500, 2499},
	    {"rx7800xt-sysfsrs", "card0", 500, 2660},
	    {"rx7800xt", "card1", 500, 2660},
	    {"rx7900xt", "card0", 500, 2735},
	    {"rx7900xtx-sysfsrs", "card0", 500, 3005},
	    {"rx7900xtx", "card0", 500, 2735},
	    {"rx9070", "card1", -1, -1},
	    {"rx9070xt-sysfsrs", "card0", -1, -1},
	    {"rx9070xt", "card1", -1, -1},
	    {"strixpoint", "card1", 600, 2900},
	    {"vangogh-sysfsrs", "card0", 1600, 1600},
	    {"vega56", "card0", 852, 1590},
	};
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		struct blob b =
		    fixture(caps[i].capture, caps[i].card, "pp_od_clk_voltage");
		struct gt_amdgpu_od od;
		if (gt_amdgpu_parse_od(b.data, b.len, &od) != 0)
			fail_msg("%s: not parsed", caps[i].capture);
		if (caps[i].min < 0) {
			assert_false(od.has_sclk);
			assert_true(od.has_sclk_offset);
		} else if (!od.has_sclk || od.sclk_min != caps[i].min ||
		           od.sclk_max != caps[i].max) {
			fail_msg("%s: OD_SCLK %lld-%lld, expected %lld-%lld",
			         caps[i].capture, (long long)od.sclk_min,
			         (long long)od.sclk_max, (long long)caps[i].min,
			         (long long)caps[i].max);
		}
		assert_true(od.has_sclk_range || od.has_sclk_offset);
		blob_free(&b);
	}
}

/* rx7700s: the capture holds "r\n" (a reset command, not kernel output). */
static void test_od_capture_artefact(void **state)
{
	(void)state;
	struct blob b = fixture("rx7700s", "card1", "pp_od_clk_voltage");
	struct gt_amdgpu_od od;
	assert_int_equal(b.len, 2);
	assert_memory_equal(b.data, "r\n", 2);
	assert_int_equal(gt_amdgpu_parse_od(b.data, b.len, &od), -EBADMSG);
	assert_false(od.has_sclk);
	blob_free(&b);
}

/* ------------------------------------------------------------------ */
/* pp_power_profile_mode and the performance level                      */
/* ------------------------------------------------------------------ */

static void expect_profile(const char *capture, const char *card, int idx,
                           const char *name)
{
	struct blob b = fixture(capture, card, "pp_power_profile_mode");
	char got[GT_AMDGPU_PROFILE_NAME];
	int rc = gt_amdgpu_parse_power_profile(b.data, b.len, got, sizeof(got));
	if (rc != idx)
		fail_msg("%s: profile %d, expected %d", capture, rc, idx);
	if (idx >= 0)
		assert_string_equal(got, name);
	blob_free(&b);
}

static void test_profile_flat_smu7(void **state)
{
	(void)state;
	/* "  1 3D_FULL_SCREEN *:" - the mark after a blank */
	expect_profile("rx580", "card0", 1, "3D_FULL_SCREEN");
}

static void test_profile_flat_vega10(void **state)
{
	(void)state;
	/* "  0 BOOTUP_DEFAULT*:" */
	expect_profile("vega56", "card0", 0, "BOOTUP_DEFAULT");
}

static void test_profile_nested(void **state)
{
	(void)state;
	expect_profile("rx5700xt", "card1", 6, "CUSTOM");  /* SMU11, MEMCLK */
	expect_profile("rx5500xt", "card1", 5, "COMPUTE"); /* SMU11, MEMLK */
	expect_profile("rx6900xt", "card0", 0,
	               "BOOTUP_DEFAULT"); /* NUL-padded */
	expect_profile("rx7800xt", "card1", 5,
	               "COMPUTE"); /* RDNA3, 2 domains */
	expect_profile("rx9070", "card1", 1, "3D_FULL_SCREEN"); /* RDNA4 */
}

static void test_profile_rotated(void **state)
{
	(void)state;
	/* "4 VR            * 5 COMPUTE": the mark follows the active name. */
	expect_profile("rx7600s", "card1", 4, "VR");
	/* "0 BOOTUP_DEFAULT* 1 3D_FULL_SCREEN" */
	expect_profile("rx7700s", "card1", 0, "BOOTUP_DEFAULT");
}

static void test_profile_list(void **state)
{
	(void)state;
	expect_profile("internal-4800h", "card0", 3, "VIDEO");
	/* Van Gogh's capture marks no profile (and has CAPPED/UNCAPPED). */
	expect_profile("vangogh", "card0", -ENOENT, NULL);
}

static void test_profile_garbage(void **state)
{
	(void)state;
	char name[GT_AMDGPU_PROFILE_NAME];
	assert_int_equal(
	    gt_amdgpu_parse_power_profile("r\n", 2, name, sizeof(name)),
	    -EBADMSG);
	assert_int_equal(
	    gt_amdgpu_parse_power_profile("", 0, name, sizeof(name)), -EBADMSG);
	/* A long name is cut to the buffer, never overflowed. */
	static const char list[] = " 3 AVERYLONGPROFILENAME*\n";
	assert_int_equal(
	    gt_amdgpu_parse_power_profile(list, sizeof(list) - 1, name, 6), 3);
	assert_string_equal(name, "AVERY");
}

static void test_perf_level(void **state)
{
	(void)state;
	char word[32];
	/* NUL-padded to 4096 bytes. */
	struct blob b =
	    fixture("rx7900xtx", "card0", "power_dpm_force_performance_level");
	assert_int_equal(b.len, 4096);
	assert_int_equal(
	    gt_amdgpu_parse_perf_level(b.data, b.len, word, sizeof(word)), 0);
	assert_string_equal(word, "auto");
	blob_free(&b);
	/* No final newline. */
	b = fixture("rx7700s", "card1", "power_dpm_force_performance_level");
	assert_int_equal(
	    gt_amdgpu_parse_perf_level(b.data, b.len, word, sizeof(word)), 0);
	assert_string_equal(word, "auto");
	blob_free(&b);
	b = fixture("rx7800xt", "card1", "power_dpm_force_performance_level");
	assert_int_equal(
	    gt_amdgpu_parse_perf_level(b.data, b.len, word, sizeof(word)), 0);
	assert_string_equal(word, "manual");
	blob_free(&b);
	assert_int_equal(gt_amdgpu_parse_perf_level("profile_peak\n", 13, word,
	                                            sizeof(word)),
	                 0);
	assert_string_equal(word, "profile_peak");
	assert_int_equal(
	    gt_amdgpu_parse_perf_level("\n", 1, word, sizeof(word)), -EBADMSG);
	assert_int_equal(
	    gt_amdgpu_parse_perf_level("Auto Mode", 9, word, sizeof(word)),
	    -EBADMSG);
	assert_int_equal(gt_amdgpu_parse_perf_level("manual", 6, word, 4),
	                 -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_dpm_polaris_levels),
	    cmocka_unit_test(test_dpm_nul_padding),
	    cmocka_unit_test(test_dpm_unit_spelling),
	    cmocka_unit_test(test_dpm_two_active),
	    cmocka_unit_test(test_dpm_rdna3_synthetic_middle),
	    cmocka_unit_test(test_dpm_rdna4_sleep_line),
	    cmocka_unit_test(test_dpm_pcie),
	    cmocka_unit_test(test_dpm_empty_and_garbage),
	    cmocka_unit_test(test_link_speed),
	    cmocka_unit_test(test_od_nul_runs_before_headers),
	    cmocka_unit_test(test_od_spaces_before_headers),
	    cmocka_unit_test(test_od_formats),
	    cmocka_unit_test(test_od_every_capture),
	    cmocka_unit_test(test_od_capture_artefact),
	    cmocka_unit_test(test_profile_flat_smu7),
	    cmocka_unit_test(test_profile_flat_vega10),
	    cmocka_unit_test(test_profile_nested),
	    cmocka_unit_test(test_profile_rotated),
	    cmocka_unit_test(test_profile_list),
	    cmocka_unit_test(test_profile_garbage),
	    cmocka_unit_test(test_perf_level),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

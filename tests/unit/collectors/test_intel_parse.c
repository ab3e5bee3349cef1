/* SPDX-License-Identifier: MIT */
/*
 * test_intel_parse.c - the pure parts of the Intel backend: the name table
 * and pci.ids lookup (intel_ids.c), the sysfs layout finder, throttle
 * names, counter-to-rate conversions and PCIe speeds (intel_sysfs.c), and
 * the memory-region query decoders fed hand-built replies (intel_query.c).
 * The layout tests run on the synthetic trees in tests/fixtures/intel.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collectors/intel_ids.h"
#include "collectors/intel_query.h"
#include "collectors/intel_sysfs.h"
#include "core/model.h"

static const char *fixtures(void)
{
	const char *v = getenv("GPUTOP_FIXTURES");
	if (!v || !*v)
		fail_msg(
		    "GPUTOP_FIXTURES is not set (run through tests/run.sh)");
	return v;
}

static const char *fixture_path(const char *rel)
{
	static char buf[PATH_MAX];
	snprintf(buf, sizeof(buf), "%s/intel/%s", fixtures(), rel);
	return buf;
}

/* ------------------------------------------------------------------ */
/* names                                                                */
/* ------------------------------------------------------------------ */

static void test_table_sorted_and_found(void **state)
{
	(void)state;
	/* bsearch needs ascending ids: walk every id the table could hold. */
	unsigned last = 0, rows = 0;
	for (unsigned id = 0; id <= 0xffff; id++) {
		const struct gt_intel_id *row =
		    gt_intel_id_lookup((uint16_t)id);
		if (!row)
			continue;
		assert_int_equal(row->device, id);
		assert_true(id >= last);
		assert_non_null(strstr(row->name, "Intel "));
		assert_true(row->arch[0] != '\0');
		last = id;
		rows++;
	}
	assert_true(rows > 100);
	assert_string_equal(gt_intel_id_lookup(0x56a0)->name,
	                    "Intel Arc A770 Graphics");
	assert_string_equal(gt_intel_id_lookup(0xe20b)->name,
	                    "Intel Arc B580 Graphics");
	assert_string_equal(gt_intel_id_lookup(0xe20b)->arch, "Xe2-HPG");
	assert_string_equal(gt_intel_id_lookup(0x9a49)->name,
	                    "Intel Iris Xe Graphics");
	assert_string_equal(gt_intel_id_lookup(0x7d55)->name,
	                    "Intel Arc Graphics (Meteor Lake)");
	assert_string_equal(gt_intel_id_lookup(0x64a0)->arch, "Xe2-LPG");
	assert_null(gt_intel_id_lookup(0x0001));
}

static void test_pciids_find(void **state)
{
	(void)state;
	char buf[96];
	const char *ids = fixture_path("pci.ids");

	/* AMD's 56a0 comes first in the file and must not match. */
	assert_int_equal(gt_intel_pciids_find(ids, 0x56a0, buf, sizeof(buf)),
	                 0);
	assert_string_equal(buf, "DG2 [Arc A770]");
	assert_int_equal(gt_intel_pciids_find(ids, 0xe20b, buf, sizeof(buf)),
	                 0);
	assert_string_equal(buf, "Battlemage G21 [Arc B580]");
	assert_int_equal(gt_intel_pciids_find(ids, 0x1234, buf, sizeof(buf)),
	                 0);
	assert_string_equal(buf, "Some Bracketless Chip");
	/* e20c is listed under the vendor after Intel's, 2684 before. */
	assert_int_equal(gt_intel_pciids_find(ids, 0xe20c, buf, sizeof(buf)),
	                 -ENOENT);
	assert_int_equal(gt_intel_pciids_find(ids, 0x2684, buf, sizeof(buf)),
	                 -ENOENT);
	assert_int_equal(gt_intel_pciids_find("/nonexistent/pci.ids", 0x56a0,
	                                      buf, sizeof(buf)),
	                 -ENOENT);
	/* A short buffer truncates and terminates. */
	assert_int_equal(gt_intel_pciids_find(ids, 0x56a0, buf, 4), 0);
	assert_string_equal(buf, "DG2");
	/* GPUTOP_PCI_IDS naming no regular file: refused at once (a FIFO
	 * nobody writes hung, /dev/zero grew one line without end). */
	char dir[] = "/tmp/gputop-pciids-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char fifo[64];
	snprintf(fifo, sizeof(fifo), "%s/pci.ids", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(gt_intel_pciids_find(fifo, 0x56a0, buf, sizeof(buf)),
	                 -EINVAL);
	assert_int_equal(
	    gt_intel_pciids_find("/dev/zero", 0x56a0, buf, sizeof(buf)),
	    -EINVAL);
	assert_int_equal(gt_intel_pciids_find(dir, 0x56a0, buf, sizeof(buf)),
	                 -EISDIR);
	unlink(fifo);
	rmdir(dir);
}

static void test_pciids_display(void **state)
{
	(void)state;
	char out[96];
	assert_true(
	    gt_intel_pciids_display("DG2 [Arc A770]", out, sizeof(out)));
	assert_string_equal(out, "Intel Arc A770");
	assert_true(gt_intel_pciids_display(
	    "Meteor Lake-P [Intel Arc Graphics]", out, sizeof(out)));
	assert_string_equal(out, "Intel Arc Graphics");
	/* The last bracket is the marketing name. */
	assert_true(gt_intel_pciids_display(
	    "Chip [rev 2] GT2 [Iris Xe Graphics]", out, sizeof(out)));
	assert_string_equal(out, "Intel Iris Xe Graphics");
	assert_false(
	    gt_intel_pciids_display("RocketLake-S GT1", out, sizeof(out)));
	assert_string_equal(out, "Intel RocketLake-S GT1");
	assert_false(gt_intel_pciids_display("Broken [", out, sizeof(out)));
	assert_string_equal(out, "Intel Broken [");
}

static void test_device_name_precedence(void **state)
{
	(void)state;
	char out[96];
	const char *src = NULL;
	const char *ids = fixture_path("pci.ids");

	gt_intel_device_name(ids, 0x56a0, out, sizeof(out), &src);
	assert_string_equal(out, "Intel Arc A770");
	assert_string_equal(src, "pci.ids");
	/* A bracketless entry is a chip name: the table says more. */
	gt_intel_device_name(ids, 0x4c8a, out, sizeof(out), &src);
	assert_string_equal(out, "Intel Graphics (Rocket Lake)");
	assert_string_equal(src, "built-in table");
	gt_intel_device_name(ids, 0x1234, out, sizeof(out), &src);
	assert_string_equal(out, "Intel Some Bracketless Chip");
	assert_string_equal(src, "pci.ids");
	/* Not in the file: the table (an old pci.ids). */
	gt_intel_device_name(ids, 0xe20c, out, sizeof(out), &src);
	assert_string_equal(out, "Intel Arc B570 Graphics");
	assert_string_equal(src, "built-in table");
	gt_intel_device_name("/nonexistent", 0x56a0, out, sizeof(out), &src);
	assert_string_equal(out, "Intel Arc A770 Graphics");
	gt_intel_device_name("/nonexistent", 0x0001, out, sizeof(out), &src);
	assert_string_equal(out, "Intel Graphics [8086:0001]");
	assert_string_equal(src, "pci id");
}

/* ------------------------------------------------------------------ */
/* throttle, rates, PCIe, slots                                         */
/* ------------------------------------------------------------------ */

static void test_throttle_names(void **state)
{
	(void)state;
	assert_int_equal(gt_intel_throttle_bit("pl1"), GT_THR_SW_POWER_CAP);
	assert_int_equal(gt_intel_throttle_bit("pl2"), GT_THR_SW_POWER_CAP);
	assert_int_equal(gt_intel_throttle_bit("pl4"), GT_THR_HW_POWER_BRAKE);
	assert_int_equal(gt_intel_throttle_bit("thermal"), GT_THR_HW_THERMAL);
	assert_int_equal(gt_intel_throttle_bit("vr_thermalert"),
	                 GT_THR_HW_THERMAL);
	assert_int_equal(gt_intel_throttle_bit("ratl"), GT_THR_SW_THERMAL);
	assert_int_equal(gt_intel_throttle_bit("prochot"), GT_THR_HW_SLOWDOWN);
	assert_int_equal(gt_intel_throttle_bit("vr_tdc"), GT_THR_CURRENT_LIMIT);
	assert_int_equal(gt_intel_throttle_bit("iccmax"), GT_THR_CURRENT_LIMIT);
	assert_int_equal(gt_intel_throttle_bit("fastvmode"), GT_THR_OTHER);
	/* Every per-reason file name maps to a named bit. */
	for (size_t i = 0; gt_intel_throttle_names[i]; i++)
		assert_int_not_equal(
		    gt_intel_throttle_bit(gt_intel_throttle_names[i]),
		    GT_THR_OTHER);

	assert_int_equal(gt_intel_throttle_parse("none\n"), 0);
	assert_int_equal(gt_intel_throttle_parse(""), 0);
	assert_int_equal(gt_intel_throttle_parse("pl1 thermal"),
	                 GT_THR_SW_POWER_CAP | GT_THR_HW_THERMAL);
	assert_int_equal(gt_intel_throttle_parse("  prochot\tvr_tdc pl4\n"),
	                 GT_THR_HW_SLOWDOWN | GT_THR_CURRENT_LIMIT |
	                     GT_THR_HW_POWER_BRAKE);
	assert_int_equal(gt_intel_throttle_parse("soc_thermal p0_freq"),
	                 GT_THR_HW_THERMAL | GT_THR_OTHER);
}

static void test_power_from_energy(void **state)
{
	(void)state;
	int64_t mw = -1;
	/* 96.4 J over one second: 96.4 W (the §4.3 example). */
	assert_true(gt_intel_power_mw(183214700000ull, 183311100000ull,
	                              1000000000ull, &mw));
	assert_int_equal(mw, 96400);
	/* 1 J over 200 ms = 5 W; rounding to the nearest mW. */
	assert_true(gt_intel_power_mw(0, 1000000, 200000000ull, &mw));
	assert_int_equal(mw, 5000);
	assert_true(gt_intel_power_mw(0, 1, 3000000ull, &mw)); /* 0.333 mW */
	assert_int_equal(mw, 0);
	assert_true(gt_intel_power_mw(0, 2, 3000000ull, &mw)); /* 0.667 mW */
	assert_int_equal(mw, 1);
	/* A long gap with a large counter must not overflow. */
	assert_true(gt_intel_power_mw(0, 36000000000000ull,
	                              3600ull * 1000000000ull, &mw));
	assert_int_equal(mw, 10000000); /* 10 kW for an hour */
	/* Reset and zero time: no value. */
	assert_false(gt_intel_power_mw(500, 400, 1000000000ull, &mw));
	assert_false(gt_intel_power_mw(400, 500, 0, &mw));
	/* No energy used: 0 W is a real value. */
	assert_true(gt_intel_power_mw(500, 500, 1000000000ull, &mw));
	assert_int_equal(mw, 0);
	/* A rate past int64 (a bogus counter, found by fuzz_intel): no
	 * value, and no undefined conversion. */
	assert_false(gt_intel_power_mw(0, UINT64_MAX, 1, &mw));
}

static void test_residency(void **state)
{
	(void)state;
	int64_t c = -1;
	/* 900 ms of RC6 in 1000 ms: 90 % (the §4.2 example). */
	assert_true(gt_intel_residency_cpct(123456, 124356, 1000000000ull, &c));
	assert_int_equal(c, 9000);
	assert_true(
	    gt_intel_residency_cpct(0, 1, 3000000ull, &c)); /* 33.33 % */
	assert_int_equal(c, 3333);
	/* A counter ahead of the wall clock is clamped to 100 %. */
	assert_true(gt_intel_residency_cpct(0, 1010, 1000000000ull, &c));
	assert_int_equal(c, 10000);
	assert_true(gt_intel_residency_cpct(7, 7, 1000000000ull, &c));
	assert_int_equal(c, 0);
	assert_false(gt_intel_residency_cpct(10, 9, 1000000000ull, &c));
	assert_false(gt_intel_residency_cpct(9, 10, 0, &c));
	/* Counters far apart (fuzz_intel): clamped, no overflow. */
	assert_true(gt_intel_residency_cpct(INT64_MIN, INT64_MAX, 1, &c));
	assert_int_equal(c, 10000);
}

static void test_pcie_and_slots(void **state)
{
	(void)state;
	assert_int_equal(gt_intel_pcie_gen("2.5 GT/s PCIe"), 1);
	assert_int_equal(gt_intel_pcie_gen("5.0 GT/s PCIe"), 2);
	assert_int_equal(gt_intel_pcie_gen("8.0 GT/s PCIe"), 3);
	assert_int_equal(gt_intel_pcie_gen("16.0 GT/s PCIe"), 4);
	assert_int_equal(gt_intel_pcie_gen("32.0 GT/s PCIe"), 5);
	assert_int_equal(gt_intel_pcie_gen("64.0 GT/s PCIe"), 6);
	assert_int_equal(gt_intel_pcie_gen("8 GT/s"), 3);
	assert_int_equal(gt_intel_pcie_gen("Unknown"), 0);
	assert_int_equal(gt_intel_pcie_gen("12.0 GT/s"), 0);

	assert_true(gt_intel_slot_is_integrated("0000:00:02.0"));
	assert_true(gt_intel_slot_is_integrated("00:02.0"));
	assert_false(gt_intel_slot_is_integrated("0000:03:00.0"));
	assert_false(gt_intel_slot_is_integrated("0000:10:02.0"));
	assert_false(gt_intel_slot_is_integrated("0000:100:02.0"));
	assert_false(gt_intel_slot_is_integrated(""));
}

/* ------------------------------------------------------------------ */
/* layouts of the fixture trees                                         */
/* ------------------------------------------------------------------ */

static void tree(const char *name, const char *card, char *carddir,
                 char *devdir)
{
	snprintf(carddir, PATH_MAX, "%s/intel/%s/class/drm/%s", fixtures(),
	         name, card);
	snprintf(devdir, PATH_MAX, "%s/device", carddir);
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);
	return n >= m && strcmp(s + n - m, tail) == 0;
}

static void test_layout_i915_per_gt(void **state)
{
	(void)state;
	char card[PATH_MAX], dev[PATH_MAX];
	struct gt_intel_layout l;
	tree("i915-dg2", "card0", card, dev);
	gt_intel_layout_find(card, dev, false, false, &l);
	assert_true(l.gfx.ok);
	assert_true(ends_with(l.gfx.dir, "/card0/gt/gt0"));
	assert_string_equal(l.gfx.act, "rps_act_freq_mhz");
	assert_string_equal(l.gfx.cur, "rps_cur_freq_mhz");
	assert_string_equal(l.gfx.rp0, "rps_RP0_freq_mhz");
	assert_false(l.media.ok);
	assert_string_equal(l.rc6_leaf, "rc6_residency_ms");
	assert_true(ends_with(l.rc6_dir, "/gt/gt0"));
	assert_string_equal(l.thr_prefix, "throttle_reason_");
	assert_string_equal(l.thr_status, "throttle_reason_status");
	assert_string_equal(l.idle_dir, "");
}

static void test_layout_i915_legacy(void **state)
{
	(void)state;
	char card[PATH_MAX], dev[PATH_MAX];
	struct gt_intel_layout l;
	tree("i915-tgl", "card0", card, dev);
	gt_intel_layout_find(card, dev, false, true, &l);
	assert_true(l.gfx.ok);
	assert_string_equal(l.gfx.dir, card);
	assert_string_equal(l.gfx.act, "gt_act_freq_mhz");
	assert_string_equal(l.gfx.max, "gt_max_freq_mhz");
	assert_string_equal(l.gfx.rp0, "gt_RP0_freq_mhz");
	assert_false(l.media.ok);
	assert_string_equal(l.rc6_dir, card);
	assert_string_equal(l.rc6_leaf, "power/rc6_residency_ms");
	assert_null(l.thr_prefix); /* no gt/gt0: no throttle files */
}

static void test_layout_xe(void **state)
{
	(void)state;
	char card[PATH_MAX], dev[PATH_MAX];
	struct gt_intel_layout l;
	tree("xe-bmg", "card1", card, dev);
	gt_intel_layout_find(card, dev, true, false, &l);
	assert_true(l.gfx.ok);
	assert_true(ends_with(l.gfx.dir, "/device/tile0/gt0/freq0"));
	assert_string_equal(l.gfx.act, "act_freq");
	assert_string_equal(l.gfx.rp0, "rp0_freq");
	assert_true(l.media.ok); /* gtidle/name gt1-mc */
	assert_true(ends_with(l.media.dir, "/device/tile0/gt1/freq0"));
	assert_true(ends_with(l.rc6_dir, "/tile0/gt0/gtidle"));
	assert_string_equal(l.rc6_leaf, "idle_residency_ms");
	assert_string_equal(l.idle_dir, l.rc6_dir);
	assert_true(ends_with(l.thr_dir, "/tile0/gt0/freq0/throttle"));
	assert_string_equal(l.thr_prefix, "reason_");
	assert_string_equal(l.thr_status, "status");
	assert_true(ends_with(l.tile_dir, "/device/tile0"));
}

static void test_hwmon_pick(void **state)
{
	(void)state;
	char card[PATH_MAX], dev[PATH_MAX];
	struct gt_intel_hwmon h;

	tree("i915-dg2", "card0", card, dev);
	gt_intel_hwmon_find(dev, &h);
	assert_true(h.ok);
	/* The card hwmon, not the per-GT "i915_gt0" one beside it. */
	assert_true(ends_with(h.dir, "/hwmon/hwmon2"));
	assert_string_equal(h.energy, "energy1_input");
	assert_string_equal(h.power_max, "power1_max");
	assert_string_equal(h.power_rated, "power1_rated_max");
	assert_string_equal(h.temp_gpu, "temp1_input");
	assert_string_equal(h.temp_mem, "");
	assert_int_equal(h.fans, 1);
	assert_int_equal(h.fan_index[0], 1);

	tree("xe-bmg", "card1", card, dev);
	gt_intel_hwmon_find(dev, &h);
	assert_true(h.ok);
	assert_string_equal(h.energy, "energy1_input");
	assert_string_equal(h.power_max, "power1_max"); /* label "card" */
	assert_string_equal(h.temp_gpu, "temp2_input"); /* label "pkg" */
	assert_string_equal(h.temp_mem, "temp3_input"); /* label "vram" */
	assert_int_equal(h.fans, 2);

	tree("i915-tgl", "card0", card, dev);
	gt_intel_hwmon_find(dev, &h);
	assert_false(h.ok); /* an iGPU has no GPU hwmon */
}

/* Labels decide, not indices: a tree where the card is channel 2. */
static void test_hwmon_labels_win(void **state)
{
	(void)state;
	char dir[] = "/tmp/gputop-intel-hwmon-XXXXXX";
	char path[PATH_MAX + 64];
	assert_non_null(mkdtemp(dir));
	static const char *const files[][2] = {
	    {"hwmon/hwmon0/name", "xe"},
	    {"hwmon/hwmon0/energy1_label", "pkg"},
	    {"hwmon/hwmon0/energy1_input", "5"},
	    {"hwmon/hwmon0/energy2_label", "card"},
	    {"hwmon/hwmon0/energy2_input", "7"},
	    {"hwmon/hwmon0/power1_label", "pkg"},
	    {"hwmon/hwmon0/power1_max", "1"},
	    {"hwmon/hwmon0/power2_label", "card"},
	    {"hwmon/hwmon0/power2_max", "2"},
	    {"hwmon/hwmon0/temp2_input", "1"},
	    {"hwmon/hwmon0/temp3_input", "2"},
	};
	snprintf(path, sizeof(path), "%s/hwmon", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/hwmon/hwmon0", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i][0]);
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fprintf(f, "%s\n", files[i][1]);
		fclose(f);
	}
	struct gt_intel_hwmon h;
	gt_intel_hwmon_find(dir, &h);
	assert_true(h.ok);
	assert_string_equal(h.energy, "energy2_input");
	assert_string_equal(h.power_max, "power2_max");
	/* Unlabelled xe temperatures: temp2 package, temp3 VRAM. */
	assert_string_equal(h.temp_gpu, "temp2_input");
	assert_string_equal(h.temp_mem, "temp3_input");
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i][0]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/hwmon/hwmon0", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/hwmon", dir);
	rmdir(path);
	rmdir(dir);
}

/* ------------------------------------------------------------------ */
/* memory-region query replies                                          */
/* ------------------------------------------------------------------ */

static void put16(unsigned char *p, uint16_t v)
{
	memcpy(p, &v, 2);
}
static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}
static void put64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

#define GiB (1024ull * 1024 * 1024)
#define MiB (1024ull * 1024)

static void test_decode_xe(void **state)
{
	(void)state;
	/* Header (8) + 2 regions of 88 bytes, as xe_query.c lays them out. */
	unsigned char buf[8 + 2 * 88];
	struct gt_intel_mem m;
	memset(buf, 0, sizeof(buf));
	put32(buf, 2);
	unsigned char *sys = buf + 8, *vram = buf + 8 + 88;
	put16(sys, 0); /* SYSMEM */
	put32(sys + 4, 4096);
	put64(sys + 8, 31 * GiB);
	put64(sys + 16, 2 * GiB);
	put16(vram, 1); /* VRAM */
	put16(vram + 2, 1);
	put64(vram + 8, 12 * GiB);
	put64(vram + 16, 3 * GiB);
	put64(vram + 24, 256 * MiB);
	put64(vram + 32, 100 * MiB);

	assert_int_equal(gt_intel_decode_xe_mem(buf, sizeof(buf), true, &m), 0);
	assert_true(m.vram);
	assert_true(m.used_known);
	assert_true(m.sys_known);
	assert_true(m.vis_known);
	assert_true(m.vram_total == 12 * GiB);
	assert_true(m.vram_used == 3 * GiB);
	assert_true(m.vis_total == 256 * MiB);
	assert_true(m.vis_used == 100 * MiB);
	assert_true(m.sys_total == 31 * GiB);
	assert_true(m.sys_used == 2 * GiB);
	/* Without CAP_PERFMON xe writes 0 for used: not a real 0. */
	assert_int_equal(gt_intel_decode_xe_mem(buf, sizeof(buf), false, &m),
	                 0);
	assert_false(m.used_known);
	assert_true(m.vram_total == 12 * GiB);
	/* A reply announcing more regions than it holds. */
	put32(buf, 3);
	assert_int_equal(gt_intel_decode_xe_mem(buf, sizeof(buf), true, &m),
	                 -EINVAL);
	assert_int_equal(gt_intel_decode_xe_mem(buf, 4, true, &m), -EINVAL);
	/* An iGPU: only system memory. */
	put32(buf, 1);
	assert_int_equal(gt_intel_decode_xe_mem(buf, 8 + 88, true, &m), 0);
	assert_false(m.vram);
	assert_true(m.sys_total == 31 * GiB);
}

static void test_decode_i915(void **state)
{
	(void)state;
	unsigned char buf[16 + 2 * 88];
	struct gt_intel_mem m;
	memset(buf, 0, sizeof(buf));
	put32(buf, 2);
	unsigned char *sys = buf + 16, *lmem = buf + 16 + 88;
	put16(sys, 0);
	put64(sys + 8, 64 * GiB);
	put64(sys + 16, 64 * GiB);
	put16(lmem, 1); /* DEVICE */
	put64(lmem + 8, 16 * GiB);
	put64(lmem + 16, 12 * GiB);
	put64(lmem + 24, 256 * MiB);
	put64(lmem + 32, 200 * MiB);

	assert_int_equal(gt_intel_decode_i915_mem(buf, sizeof(buf), true, &m),
	                 0);
	assert_true(m.vram);
	assert_true(m.used_known);
	assert_true(m.vram_total == 16 * GiB);
	assert_true(m.vram_used == 4 * GiB);
	assert_true(m.vis_total == 256 * MiB);
	assert_true(m.vis_used == 56 * MiB);
	assert_false(m.sys_known); /* i915 does not track system memory */
	assert_int_equal(gt_intel_decode_i915_mem(buf, sizeof(buf), false, &m),
	                 0);
	assert_false(m.used_known);
	assert_true(m.vram_used == 0);
	/* Kernels before the CPU-visible fields: reported as unknown. */
	put64(lmem + 24, 0);
	put64(lmem + 32, 0);
	assert_int_equal(gt_intel_decode_i915_mem(buf, sizeof(buf), true, &m),
	                 0);
	assert_false(m.vis_known);
	assert_int_equal(gt_intel_decode_i915_mem(buf, 15, true, &m), -EINVAL);
}

static void test_query_without_node(void **state)
{
	(void)state;
	struct gt_intel_mem m;
	assert_int_equal(
	    gt_intel_query_mem("/nonexistent/renderD128", true, false, &m),
	    -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table_sorted_and_found),
	    cmocka_unit_test(test_pciids_find),
	    cmocka_unit_test(test_pciids_display),
	    cmocka_unit_test(test_device_name_precedence),
	    cmocka_unit_test(test_throttle_names),
	    cmocka_unit_test(test_power_from_energy),
	    cmocka_unit_test(test_residency),
	    cmocka_unit_test(test_pcie_and_slots),
	    cmocka_unit_test(test_layout_i915_per_gt),
	    cmocka_unit_test(test_layout_i915_legacy),
	    cmocka_unit_test(test_layout_xe),
	    cmocka_unit_test(test_hwmon_pick),
	    cmocka_unit_test(test_hwmon_labels_win),
	    cmocka_unit_test(test_decode_xe),
	    cmocka_unit_test(test_decode_i915),
	    cmocka_unit_test(test_query_without_node),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * intel_sysfs.c - i915/xe sysfs layout and pure conversions for the Intel
 * backend (see intel_sysfs.h). Paths follow the kernel ABI documents and
 * sources listed in ../shared/reference/intel-and-fdinfo.md §1.2-1.5.
 */
#include "collectors/intel_sysfs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/model.h"
#include "linux/sysfs.h"

static bool exists(const char *dir, const char *leaf)
{
	char path[PATH_MAX];
	struct stat st;
	return gt_sysfs_join(path, sizeof(path), dir, leaf) == 0 &&
	       stat(path, &st) == 0;
}

static void freq_i915_gt(struct gt_intel_freq *f, const char *gtdir)
{
	gt_copy_str(f->dir, sizeof(f->dir), gtdir);
	f->act = "rps_act_freq_mhz";
	f->cur = "rps_cur_freq_mhz";
	f->min = "rps_min_freq_mhz";
	f->max = "rps_max_freq_mhz";
	f->rp0 = "rps_RP0_freq_mhz";
	f->ok = exists(gtdir, f->cur) || exists(gtdir, f->act);
}

static void freq_xe_gt(struct gt_intel_freq *f, const char *gtdir)
{
	if (gt_sysfs_join(f->dir, sizeof(f->dir), gtdir, "freq0") < 0)
		return;
	f->act = "act_freq";
	f->cur = "cur_freq";
	f->min = "min_freq";
	f->max = "max_freq";
	f->rp0 = "rp0_freq";
	f->ok = exists(f->dir, f->cur) || exists(f->dir, f->act);
}

static void layout_i915(const char *carddir, bool media_ok,
                        struct gt_intel_layout *l)
{
	char gt0[PATH_MAX], gt1[PATH_MAX];

	if (gt_sysfs_join(gt0, sizeof(gt0), carddir, "gt/gt0") < 0 ||
	    gt_sysfs_join(gt1, sizeof(gt1), carddir, "gt/gt1") < 0)
		return;
	freq_i915_gt(&l->gfx, gt0);
	if (!l->gfx.ok) {
		/* Kernels before the per-GT directories (about 5.17) only
		 * have the card-level files, which describe GT0. */
		gt_copy_str(l->gfx.dir, sizeof(l->gfx.dir), carddir);
		l->gfx.act = "gt_act_freq_mhz";
		l->gfx.cur = "gt_cur_freq_mhz";
		l->gfx.min = "gt_min_freq_mhz";
		l->gfx.max = "gt_max_freq_mhz";
		l->gfx.rp0 = "gt_RP0_freq_mhz";
		l->gfx.ok =
		    exists(carddir, l->gfx.cur) || exists(carddir, l->gfx.act);
	}
	if (media_ok)
		freq_i915_gt(&l->media, gt1);
	if (exists(gt0, "rc6_residency_ms")) {
		gt_copy_str(l->rc6_dir, sizeof(l->rc6_dir), gt0);
		l->rc6_leaf = "rc6_residency_ms";
	} else if (exists(carddir, "power/rc6_residency_ms")) {
		gt_copy_str(l->rc6_dir, sizeof(l->rc6_dir), carddir);
		l->rc6_leaf = "power/rc6_residency_ms";
	}
	/* Graphics version 11 and later only. */
	if (exists(gt0, "throttle_reason_status")) {
		gt_copy_str(l->thr_dir, sizeof(l->thr_dir), gt0);
		l->thr_prefix = "throttle_reason_";
		l->thr_status = "throttle_reason_status";
	}
}

/* xe names its GTs: gtidle/name is "gt0-rc" (render) or "gt1-mc" (media). */
static bool xe_gt_is_media(const char *gtdir, unsigned index)
{
	char name[32];
	size_t n;
	if (gt_sysfs_read(gtdir, "gtidle/name", name, sizeof(name)) > 0) {
		n = strlen(name);
		return n >= 3 && strcmp(name + n - 3, "-mc") == 0;
	}
	/* Without the name, a second GT in tile 0 is the media GT: xe
	 * numbers a second tile's GT after all of tile 0's. */
	return index > 0;
}

static void layout_xe(const char *devdir, struct gt_intel_layout *l)
{
	char gt[PATH_MAX], sub[64];

	int rc =
	    gt_sysfs_join(l->tile_dir, sizeof(l->tile_dir), devdir, "tile0");
	if (rc < 0)
		return;
	for (unsigned i = 0; i < 4; i++) {
		snprintf(sub, sizeof(sub), "gt%u", i);
		if (gt_sysfs_join(gt, sizeof(gt), l->tile_dir, sub) < 0 ||
		    !exists(gt, NULL))
			continue;
		if (xe_gt_is_media(gt, i)) {
			if (!l->media.ok)
				freq_xe_gt(&l->media, gt);
			continue;
		}
		if (l->gfx.ok)
			continue;
		freq_xe_gt(&l->gfx, gt);
		if (exists(gt, "gtidle/idle_residency_ms")) {
			gt_sysfs_join(l->rc6_dir, sizeof(l->rc6_dir), gt,
			              "gtidle");
			l->rc6_leaf = "idle_residency_ms";
			gt_copy_str(l->idle_dir, sizeof(l->idle_dir),
			            l->rc6_dir);
		}
		if (exists(gt, "freq0/throttle")) {
			gt_sysfs_join(l->thr_dir, sizeof(l->thr_dir), gt,
			              "freq0/throttle");
			l->thr_prefix = "reason_";
			l->thr_status = "status";
		}
	}
}

void gt_intel_layout_find(const char *carddir, const char *devdir, bool xe,
                          bool media_ok, struct gt_intel_layout *l)
{
	memset(l, 0, sizeof(*l));
	if (xe)
		layout_xe(devdir, l);
	else
		layout_i915(carddir, media_ok, l);
}

/* Channel N of kind ("power") whose label is want, or 0. */
static unsigned by_label(const char *dir, const char *kind, const char *want)
{
	char leaf[32], label[32];
	for (unsigned i = 1; i <= 8; i++) {
		snprintf(leaf, sizeof(leaf), "%s%u_label", kind, i);
		if (gt_sysfs_read(dir, leaf, label, sizeof(label)) > 0 &&
		    strcmp(label, want) == 0)
			return i;
	}
	return 0;
}

/* Sets out to "<kind><n><suffix>" when that file exists. */
static bool pick(char *out, size_t len, const char *dir, const char *kind,
                 unsigned n, const char *suffix)
{
	char leaf[32];
	snprintf(leaf, sizeof(leaf), "%s%u%s", kind, n, suffix);
	if (n == 0 || !exists(dir, leaf))
		return false;
	gt_copy_str(out, len, leaf);
	return true;
}

static bool is_gpu_hwmon(const char *dir)
{
	char name[32];
	return gt_sysfs_read(dir, "name", name, sizeof(name)) > 0 &&
	       (strcmp(name, "i915") == 0 || strcmp(name, "xe") == 0);
}

static void hwmon_channels(struct gt_intel_hwmon *h)
{
	const char *d = h->dir;
	/* xe: index 1 is the card, 2 the package; i915 has only 1. The
	 * card channel covers the whole board, so it is the one shown. */
	unsigned card = by_label(d, "energy", "card");
	unsigned pkg = by_label(d, "energy", "pkg");
	if (!pick(h->energy, sizeof(h->energy), d, "energy", card, "_input") &&
	    !pick(h->energy, sizeof(h->energy), d, "energy", 1, "_input"))
		pick(h->energy, sizeof(h->energy), d, "energy", pkg ? pkg : 2,
		     "_input");

	card = by_label(d, "power", "card");
	pkg = by_label(d, "power", "pkg");
	unsigned order[3] = {card ? card : 1, pkg ? pkg : 2, 0};
	for (int i = 0; i < 2 && !h->power_max[0]; i++)
		pick(h->power_max, sizeof(h->power_max), d, "power", order[i],
		     "_max");
	for (int i = 0; i < 2 && !h->power_rated[0]; i++)
		pick(h->power_rated, sizeof(h->power_rated), d, "power",
		     order[i], "_rated_max");

	/* i915 has temp1 only; xe labels temp2 "pkg" and temp3 "vram". */
	unsigned tg = by_label(d, "temp", "pkg");
	unsigned tm = by_label(d, "temp", "vram");
	if (!tg)
		tg = exists(d, "temp1_input") ? 1 : 2;
	if (!tm && !exists(d, "temp2_label") && exists(d, "temp2_input") &&
	    exists(d, "temp3_input"))
		tm = 3; /* xe without labels: temp2 package, temp3 VRAM */
	pick(h->temp_gpu, sizeof(h->temp_gpu), d, "temp", tg, "_input");
	pick(h->temp_gpu_crit, sizeof(h->temp_gpu_crit), d, "temp", tg,
	     "_crit");
	pick(h->temp_gpu_emergency, sizeof(h->temp_gpu_emergency), d, "temp",
	     tg, "_emergency");
	pick(h->temp_gpu_max, sizeof(h->temp_gpu_max), d, "temp", tg, "_max");
	pick(h->temp_mem, sizeof(h->temp_mem), d, "temp", tm, "_input");
	if (!pick(h->temp_mem_crit, sizeof(h->temp_mem_crit), d, "temp", tm,
	          "_crit"))
		pick(h->temp_mem_crit, sizeof(h->temp_mem_crit), d, "temp", tm,
		     "_max");

	char leaf[32];
	for (unsigned i = 1; i <= 8; i++) {
		snprintf(leaf, sizeof(leaf), "fan%u_input", i);
		if (exists(d, leaf) &&
		    h->fans < sizeof(h->fan_index) / sizeof(h->fan_index[0]))
			h->fan_index[h->fans++] = i;
	}
}

void gt_intel_hwmon_find(const char *devdir, struct gt_intel_hwmon *h)
{
	memset(h, 0, sizeof(*h));
	h->ok = gt_sysfs_hwmon_dir(devdir, is_gpu_hwmon, h->dir,
	                           sizeof(h->dir)) == 0;
	if (h->ok)
		hwmon_channels(h);
}

const char *const gt_intel_throttle_names[] = {
    "pl1",  "pl2",           "pl4",    "thermal", "prochot",
    "ratl", "vr_thermalert", "vr_tdc", NULL,
};

unsigned gt_intel_throttle_bit(const char *name)
{
	static const struct {
		const char *name;
		unsigned bit;
	} map[] = {
	    /* Sustained and burst power limits set by software. */
	    {"pl1", GT_THR_SW_POWER_CAP},
	    {"pl2", GT_THR_SW_POWER_CAP},
	    {"psys_pl1", GT_THR_SW_POWER_CAP},
	    {"psys_pl2", GT_THR_SW_POWER_CAP},
	    /* PL4 is the peak-power protection the hardware trips. */
	    {"pl4", GT_THR_HW_POWER_BRAKE},
	    {"psys_crit", GT_THR_HW_POWER_BRAKE},
	    {"thermal", GT_THR_HW_THERMAL},
	    {"vr_thermalert", GT_THR_HW_THERMAL},
	    {"vr_thermal", GT_THR_HW_THERMAL},
	    {"soc_thermal", GT_THR_HW_THERMAL},
	    {"mem_thermal", GT_THR_HW_THERMAL},
	    /* RATL: the running-average thermal limit the firmware
	     * computes, rather than a sensor tripping. */
	    {"ratl", GT_THR_SW_THERMAL},
	    {"soc_avg_thermal", GT_THR_SW_THERMAL},
	    /* PROCHOT#: another part of the platform asked it to slow. */
	    {"prochot", GT_THR_HW_SLOWDOWN},
	    {"vr_tdc", GT_THR_CURRENT_LIMIT},
	    {"iccmax", GT_THR_CURRENT_LIMIT},
	};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(name, map[i].name) == 0)
			return map[i].bit;
	return GT_THR_OTHER;
}

uint32_t gt_intel_throttle_parse(const char *text)
{
	uint32_t mask = 0;
	const char *p = text;
	while (*p) {
		p += strspn(p, " \t\n");
		size_t n = strcspn(p, " \t\n");
		if (n == 0)
			break;
		char word[32];
		if (n >= sizeof(word))
			n = sizeof(word) - 1;
		memcpy(word, p, n);
		word[n] = '\0';
		p += strcspn(p, " \t\n");
		if (strcmp(word, "none") != 0)
			mask |= gt_intel_throttle_bit(word);
	}
	return mask;
}

bool gt_intel_power_mw(uint64_t e0_uj, uint64_t e1_uj, uint64_t dt_ns,
                       int64_t *mw)
{
	if (dt_ns == 0 || e1_uj < e0_uj)
		return false;
	/* mW = ΔµJ / Δns × 1e6. In double: a 64-bit product could
	 * overflow after a long gap, and µW resolution is plenty. */
	double v = (double)(e1_uj - e0_uj) * 1e6 / (double)dt_ns;
	/* A rate past int64 is a bogus counter, not a reading (and the
	 * conversion would be undefined). */
	if (!(v + 0.5 < 9223372036854775807.0))
		return false;
	*mw = (int64_t)(v + 0.5);
	return true;
}

bool gt_intel_residency_cpct(int64_t r0_ms, int64_t r1_ms, uint64_t dt_ns,
                             int64_t *cpct)
{
	if (dt_ns == 0 || r1_ms < r0_ms)
		return false;
	/* cpercent = Δms × 1e6 / Δns × 10000. Sampling skew can make the
	 * counter advance slightly more than the wall clock. The difference
	 * is taken unsigned (the signed one can overflow) and the result
	 * clamped before the conversion, which is undefined past int64. */
	double v =
	    (double)((uint64_t)r1_ms - (uint64_t)r0_ms) * 1e10 / (double)dt_ns;
	*cpct = v >= 10000.0 ? 10000 : (int64_t)(v + 0.5);
	return true;
}

int gt_intel_pcie_gen(const char *speed)
{
	static const struct {
		double gts;
		int gen;
	} map[] = {{2.5, 1},  {5.0, 2},  {8.0, 3},
	           {16.0, 4}, {32.0, 5}, {64.0, 6}};
	char *end;
	double v = strtod(speed, &end);
	if (end == speed)
		return 0;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (v > map[i].gts - 0.05 && v < map[i].gts + 0.05)
			return map[i].gen;
	return 0;
}

bool gt_intel_slot_is_integrated(const char *pdev)
{
	/* Domain width varies ("0000:" or none); compare the tail. */
	size_t n = strlen(pdev);
	return n >= 7 && strcmp(pdev + n - 7, "00:02.0") == 0 &&
	       (n == 7 || pdev[n - 8] == ':');
}

/* SPDX-License-Identifier: MIT */
/*
 * amdgpu_sample.c - one sample of an amdgpu device: utilization, memory,
 * temperatures, power, clocks and fans every tick; PCIe link, clock limits,
 * ECC counts, performance level and power profile on the slow cadence.
 * Each value comes from the first source that has it, in this order:
 * sysfs/hwmon (what the kernel documents), then the pp_dpm_* tables, then
 * the binary gpu_metrics file; a value no source has keeps the reason of
 * the first one.
 *
 * Choices (see also amdgpu.c):
 *  - A runtime-suspended device, or one whose attributes answer EPERM
 *    (newer kernels instead of waking it), is sampled as GT_DEV_ASLEEP with
 *    every value "not collected": nothing else is read.
 *  - Power is power1_average, else power1_input (kernels from 6.6 show only
 *    what the SMU has), else the gpu_metrics socket power. On APUs this is
 *    the whole package (CPU included), as the kernel reports it.
 *  - The power limit in force is power1_cap, which the SMU reports back:
 *    amdgpu has no separate requested/enforced pair, so both fields carry
 *    it.
 *  - The PCIe link is pp_dpm_pcie's active level on Vega10 and newer dGPUs
 *    (the PCI files describe the on-package switch there), else the link
 *    gpu_metrics reports, else current_link_speed/width. pcie_bw is never
 *    read: each read blocks for a second.
 *  - Graphics clock limits are the OD_SCLK range of pp_od_clk_voltage (the
 *    range the user may set, with overdrive enabled).
 *  - Video engine busy is one number on amdgpu (vcn_busy_percent,
 *    average_mm_activity), with no encode/decode split: encoder and decoder
 *    busy come from the DRM clients' engine times (fdinfo), as for the
 *    GPU busy of SI boards that have no gpu_busy_percent.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "collectors/amdgpu_metrics.h"
#include "collectors/amdgpu_parse.h"
#include "collectors/amdgpu_priv.h"
#include "linux/fdinfo.h"
#include "linux/sysfs.h"

static void asleep(struct amdgpu_dev *d, struct gt_sample *s)
{
	gt_sample_fail_all(s, GT_WHY_ASLEEP);
	s->state = GT_DEV_ASLEEP;
	s->fan_count = 0;
	s->util_gpu_lower_bound = false;
	d->slow.valid = false; /* read everything again once awake */
}

/* dst = src when the gpu_metrics file was readable, else its reason. */
static void take(struct gt_val *dst, const struct gt_val *src, enum gt_why why)
{
	if (why == GT_WHY_OK)
		*dst = *src;
	else
		gt_val_fail(dst, why, 0);
}

/* Falls back to a gpu_metrics value when the primary source has none. */
static void fallback(struct gt_val *dst, const struct gt_val *src,
                     enum gt_why why)
{
	if (!gt_val_ok(dst) && why == GT_WHY_OK && gt_val_ok(src))
		*dst = *src;
}

/* Reads and decodes gpu_metrics; returns why its values are missing when
 * the file itself is (GT_WHY_OK otherwise, even if fields are unfilled). */
static enum gt_why read_metrics(struct amdgpu_rd *r, struct amdgpu_dev *d,
                                struct gt_amdgpu_metrics *m)
{
	ssize_t n = gt_amdgpu_rd_raw(r, d->drm.devdir, "gpu_metrics");
	if (n < 0) {
		gt_amdgpu_metrics_decode(NULL, 0, m);
		/* No file: the device (pre-Vega12, SI...) has no such table. */
		return n == -ENOENT ? GT_WHY_UNSUPPORTED_DEVICE
		                    : gt_sysfs_why((int)n);
	}
	gt_amdgpu_metrics_decode(r->p->buf, (size_t)n, m);
	return GT_WHY_OK;
}

/* The value of the active level of a pp_dpm table. */
static void dpm_current(struct amdgpu_rd *r, struct amdgpu_dev *d,
                        const char *leaf, struct gt_val *val)
{
	struct gt_amdgpu_dpm dpm;
	int levels = gt_amdgpu_rd_dpm(r, d->drm.devdir, leaf, &dpm, val);
	const struct gt_amdgpu_dpm_level *lv =
	    levels > 0 ? gt_amdgpu_dpm_active(&dpm) : NULL;
	if (levels < 0)
		return;
	if (!lv || lv->mhz < 0)
		gt_val_fail(val, GT_WHY_UNSUPPORTED_DEVICE, 0);
	else
		gt_val_set(val, lv->mhz);
}

static void sample_util(struct amdgpu_rd *r, struct amdgpu_dev *d,
                        struct gt_sample *s, const struct gt_amdgpu_metrics *m,
                        enum gt_why mwhy)
{
	const char *dir = d->drm.devdir;
	struct gt_val *gpu = &s->f[GT_F_UTIL_GPU];

	int rc =
	    gt_amdgpu_rd_range(r, gpu, dir, "gpu_busy_percent", 0, 100, 100, 0);
	/* The dGPU tables report percent plainly; some APU firmware does
	 * not (see amdgpu_metrics.h), so only format 1 stands in. */
	if (rc == -ENOENT && m->format == 1)
		fallback(gpu, &m->gfx_activity, mwhy);
	if (!gt_val_ok(gpu) && rc == -ENOENT && r->p->fdinfo &&
	    d->drm.pdev[0]) {
		/* SI has no busy file: the sum of the clients' engine time
		 * is a lower bound when other users' fdinfo is unreadable. */
		bool lower = false;
		gt_fdinfo_device_busy(r->p->fdinfo, d->drm.pdev, gpu, &lower);
		s->util_gpu_lower_bound = gt_val_ok(gpu) && lower;
	}
	rc = gt_amdgpu_rd_range(r, &s->f[GT_F_UTIL_MEMBW], dir,
	                        "mem_busy_percent", 0, 100, 100, 0);
	if (rc == -ENOENT && m->format == 1)
		fallback(&s->f[GT_F_UTIL_MEMBW], &m->umc_activity, mwhy);
	/* amdgpu's own video busy (vcn_busy_percent, average_mm_activity)
	 * does not split encode from decode; the clients' engine times do. */
	if (r->p->fdinfo && d->drm.pdev[0]) {
		gt_fdinfo_device_media(r->p->fdinfo, d->drm.pdev,
		                       &s->f[GT_F_UTIL_ENC],
		                       &s->f[GT_F_UTIL_DEC], NULL);
	} else {
		gt_val_fail(&s->f[GT_F_UTIL_ENC], GT_WHY_UNSUPPORTED_DEVICE, 0);
		gt_val_fail(&s->f[GT_F_UTIL_DEC], GT_WHY_UNSUPPORTED_DEVICE, 0);
	}
}

static void sample_memory(struct amdgpu_rd *r, struct amdgpu_dev *d,
                          struct gt_sample *s)
{
	static const struct {
		int field;
		const char *leaf;
	} files[] = {
	    {GT_F_MEM_TOTAL, "mem_info_vram_total"},
	    {GT_F_MEM_USED, "mem_info_vram_used"},
	    {GT_F_MEM_VISIBLE_TOTAL, "mem_info_vis_vram_total"},
	    {GT_F_MEM_VISIBLE_USED, "mem_info_vis_vram_used"},
	    {GT_F_GTT_TOTAL, "mem_info_gtt_total"},
	    {GT_F_GTT_USED, "mem_info_gtt_used"},
	};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		gt_amdgpu_rd_val(r, &s->f[files[i].field], d->drm.devdir,
		                 files[i].leaf, 1, 0);
	const struct gt_val *t = &s->f[GT_F_MEM_TOTAL],
	                    *u = &s->f[GT_F_MEM_USED];
	if (gt_val_ok(t) && gt_val_ok(u))
		gt_val_set(&s->f[GT_F_MEM_FREE], t->v > u->v ? t->v - u->v : 0);
	else
		s->f[GT_F_MEM_FREE] = gt_val_ok(t) ? *u : *t;
	/* amdgpu's "used" already leaves out nothing it reserves. */
	gt_val_fail(&s->f[GT_F_MEM_RESERVED], GT_WHY_UNSUPPORTED_DEVICE, 0);
}

static void sample_thermal(struct amdgpu_rd *r, struct amdgpu_dev *d,
                           struct gt_sample *s,
                           const struct gt_amdgpu_metrics *m, enum gt_why mwhy)
{
	static const int field[AT__COUNT] = {GT_F_TEMP_GPU, GT_F_TEMP_HOTSPOT,
	                                     GT_F_TEMP_MEM};
	const struct gt_val *alt[AT__COUNT] = {&m->temp_gpu, &m->temp_hotspot,
	                                       &m->temp_mem};
	for (int i = 0; i < AT__COUNT; i++) {
		struct gt_val *val = &s->f[field[i]];
		if (d->temp_index[i] == 0) {
			gt_val_fail(val, GT_WHY_NO_SENSOR, 0);
		} else {
			char leaf[32];
			snprintf(leaf, sizeof(leaf), "temp%d_input",
			         d->temp_index[i]);
			gt_amdgpu_rd_unit(r, val, d->hwmon, leaf,
			                  GT_SYSFS_MILLI_C, 0);
		}
		fallback(val, alt[i], mwhy);
	}
}

static void sample_power(struct amdgpu_rd *r, struct amdgpu_dev *d,
                         struct gt_sample *s, const struct gt_amdgpu_metrics *m,
                         enum gt_why mwhy)
{
	struct gt_val *draw = &s->f[GT_F_POWER_DRAW];
	int rc = gt_amdgpu_rd_unit(r, draw, d->hwmon, "power1_average",
	                           GT_SYSFS_MICROWATT, 1000);
	if (rc == -ENOENT)
		gt_amdgpu_rd_unit(r, draw, d->hwmon, "power1_input",
		                  GT_SYSFS_MICROWATT, 1000);
	fallback(draw, &m->socket_power, mwhy);
	gt_amdgpu_rd_unit(r, &s->f[GT_F_POWER_LIMIT], d->hwmon, "power1_cap",
	                  GT_SYSFS_MICROWATT, 1000);
	s->f[GT_F_POWER_ENFORCED] = s->f[GT_F_POWER_LIMIT];
	take(&s->f[GT_F_ENERGY], &m->energy, mwhy);
	take(&s->f[GT_F_THROTTLE], &m->throttle, mwhy);
}

static void sample_clocks(struct amdgpu_rd *r, struct amdgpu_dev *d,
                          struct gt_sample *s,
                          const struct gt_amdgpu_metrics *m, enum gt_why mwhy)
{
	struct gt_val *gfx = &s->f[GT_F_CLK_GRAPHICS];
	struct gt_val *mem = &s->f[GT_F_CLK_MEM];
	struct gt_val *video = &s->f[GT_F_CLK_VIDEO];

	/* hwmon clocks are in Hz. */
	int rc = gt_amdgpu_rd_unit(r, gfx, d->hwmon, "freq1_input", GT_SYSFS_HZ,
	                           1000000);
	if (rc == -ENOENT)
		dpm_current(r, d, "pp_dpm_sclk", gfx);
	fallback(gfx, &m->gfxclk, mwhy);
	rc = gt_amdgpu_rd_unit(r, mem, d->hwmon, "freq2_input", GT_SYSFS_HZ,
	                       1000000);
	if (rc == -ENOENT)
		dpm_current(r, d, "pp_dpm_mclk", mem);
	fallback(mem, &m->uclk, mwhy);
	take(video, &m->vclk, mwhy);
	if (!gt_val_ok(video)) {
		struct gt_val v;
		dpm_current(r, d, "pp_dpm_vclk", &v);
		if (gt_val_ok(&v) || mwhy != GT_WHY_OK)
			*video = v;
	}
}

static void sample_fans(struct amdgpu_rd *r, struct amdgpu_dev *d,
                        struct gt_sample *s)
{
	s->fan_count = (uint8_t)d->fans;
	if (!d->fans)
		return;
	/* pwm1 is a 0-255 duty cycle. */
	gt_amdgpu_rd_range(r, &s->f[GT_F_FAN_PERCENT0], d->hwmon, "pwm1", 0,
	                   255, 10000, 255);
	gt_amdgpu_rd_unit(r, &s->f[GT_F_FAN_RPM0], d->hwmon, "fan1_input",
	                  GT_SYSFS_RPM, 0);
}

/* True if some level of the table is the link (gen, width). */
static bool link_listed(const struct gt_amdgpu_dpm *dpm, int64_t gen,
                        int64_t width)
{
	for (size_t i = 0; i < dpm->count; i++)
		if (gt_amdgpu_pcie_gen(dpm->lv[i].pcie_gts10) == gen &&
		    dpm->lv[i].pcie_width == width)
			return true;
	return false;
}

static void slow_link(struct amdgpu_rd *r, struct amdgpu_dev *d,
                      const struct gt_amdgpu_metrics *m, enum gt_why mwhy)
{
	struct amdgpu_slow *c = &d->slow;
	struct gt_amdgpu_dpm dpm;
	int levels = 0;

	if (d->pcie_from_dpm) {
		const struct gt_amdgpu_dpm_level *lv = NULL;
		levels = gt_amdgpu_rd_dpm(r, d->drm.devdir, "pp_dpm_pcie", &dpm,
		                          NULL);
		if (levels > 0)
			lv = gt_amdgpu_dpm_active(&dpm);
		if (lv && gt_amdgpu_pcie_gen(lv->pcie_gts10) > 0) {
			gt_val_set(&c->pcie_gen,
			           gt_amdgpu_pcie_gen(lv->pcie_gts10));
			gt_val_set(&c->pcie_width, lv->pcie_width);
			return;
		}
		int gen = gt_val_ok(&m->pcie_gts10)
		              ? gt_amdgpu_pcie_gen((int)m->pcie_gts10.v)
		              : 0;
		if (mwhy == GT_WHY_OK && gen > 0 && gt_val_ok(&m->pcie_width)) {
			gt_val_set(&c->pcie_gen, gen);
			c->pcie_width = m->pcie_width;
			return;
		}
	}
	gt_amdgpu_rd_link(r, d->drm.devdir, "current", &c->pcie_gen,
	                  &c->pcie_width);
	/* With no level marked, the PCI files are believed only when they
	 * name a link the table lists: otherwise they describe the internal
	 * switch link (rx9070xt-sysfsrs: 32 GT/s against levels up to 8). */
	if (levels > 0 && gt_val_ok(&c->pcie_gen) &&
	    gt_val_ok(&c->pcie_width) &&
	    !link_listed(&dpm, c->pcie_gen.v, c->pcie_width.v)) {
		gt_val_fail(&c->pcie_gen, GT_WHY_UNSUPPORTED_DEVICE, 0);
		gt_val_fail(&c->pcie_width, GT_WHY_UNSUPPORTED_DEVICE, 0);
	}
}

static void slow_limits(struct amdgpu_rd *r, struct amdgpu_dev *d)
{
	struct amdgpu_slow *c = &d->slow;
	struct gt_amdgpu_od od;
	ssize_t n = gt_amdgpu_rd_raw(r, d->drm.devdir, "pp_od_clk_voltage");
	int rc = n < 0 ? (int)n : gt_amdgpu_parse_od(r->p->buf, (size_t)n, &od);

	if (rc == 0 && od.has_sclk) {
		gt_val_set(&c->clk_min_limit, od.sclk_min);
		gt_val_set(&c->clk_max_limit, od.sclk_max);
		return;
	}
	/* No file: overdrive is off. Empty, or an offset instead of a range
	 * (RDNA4): the device gives no range. Unparseable (the rx7700s
	 * capture holds "r"): a driver error. */
	if (n < 0)
		gt_amdgpu_fail_errno(&c->clk_min_limit, rc);
	else if (rc == -EBADMSG)
		gt_val_fail(&c->clk_min_limit, GT_WHY_DRIVER_ERROR, EBADMSG);
	else
		gt_val_fail(&c->clk_min_limit, GT_WHY_UNSUPPORTED_DEVICE, 0);
	c->clk_max_limit = c->clk_min_limit;
}

static void slow_text(struct amdgpu_rd *r, struct amdgpu_dev *d)
{
	struct amdgpu_slow *c = &d->slow;
	char word[GT_STR_SHORT];

	ssize_t n = gt_amdgpu_rd_raw(r, d->drm.devdir,
	                             "power_dpm_force_performance_level");
	if (n < 0)
		gt_text_val_fail(&c->perf_level, gt_sysfs_why((int)n));
	else if (gt_amdgpu_parse_perf_level(r->p->buf, (size_t)n, word,
	                                    sizeof(word)) < 0)
		gt_text_val_fail(&c->perf_level, GT_WHY_DRIVER_ERROR);
	else
		gt_text_val_set(&c->perf_level, word);

	n = gt_amdgpu_rd_raw(r, d->drm.devdir, "pp_power_profile_mode");
	int idx = n < 0 ? (int)n
	                : gt_amdgpu_parse_power_profile(r->p->buf, (size_t)n,
	                                                word, sizeof(word));
	if (n < 0)
		gt_text_val_fail(&c->power_profile, gt_sysfs_why((int)n));
	else if (idx == -ENOENT) /* a table with no profile marked */
		gt_text_val_fail(&c->power_profile, GT_WHY_UNSUPPORTED_DEVICE);
	else if (idx < 0)
		gt_text_val_fail(&c->power_profile, GT_WHY_DRIVER_ERROR);
	else
		gt_text_val_set(&c->power_profile, word);
}

/* Volatile ECC counts from the RAS interface ("ue: N" / "ce: N"), only on
 * boards with RAS (Instinct, some Pro); consumer boards have none. */
static void slow_ecc(struct amdgpu_rd *r, struct amdgpu_dev *d)
{
	struct amdgpu_slow *c = &d->slow;
	long long ue = -1, ce = -1;

	gt_val_fail(&c->ecc_corrected, GT_WHY_UNSUPPORTED_DEVICE, 0);
	gt_val_fail(&c->ecc_uncorrected, GT_WHY_UNSUPPORTED_DEVICE, 0);
	ssize_t n = gt_amdgpu_rd_raw(r, d->drm.devdir, "ras/umc_err_count");
	if (n <= 0)
		return;
	const char *p = strstr(r->p->buf, "ue:");
	if (p && sscanf(p + 3, "%lld", &ue) == 1 && ue >= 0)
		gt_val_set(&c->ecc_uncorrected, ue);
	p = strstr(r->p->buf, "ce:");
	if (p && sscanf(p + 3, "%lld", &ce) == 1 && ce >= 0)
		gt_val_set(&c->ecc_corrected, ce);
}

int gt_amdgpu_sample(struct gt_backend *b, unsigned dev, struct gt_sample *s,
                     int slow)
{
	struct amdgpu_priv *p = b->priv;
	struct amdgpu_dev *d = &p->devs[dev];
	struct amdgpu_rd r = {p, false};
	struct gt_amdgpu_metrics m;
	struct stat sb;

	/* The device directory vanished: unbound or hot-unplugged. */
	if (stat(d->drm.devdir, &sb) != 0 && errno == ENOENT)
		return -1;
	if (gt_drmdev_is_suspended(&d->drm)) {
		asleep(d, s);
		return 0;
	}
	if (!d->temps_mapped)
		gt_amdgpu_map_temps(&r, d);
	enum gt_why mwhy = read_metrics(&r, d, &m);
	sample_util(&r, d, s, &m, mwhy);
	sample_memory(&r, d, s);
	sample_thermal(&r, d, s, &m, mwhy);
	sample_power(&r, d, s, &m, mwhy);
	sample_clocks(&r, d, s, &m, mwhy);
	sample_fans(&r, d, s);
	if (slow || !d->slow.valid) {
		slow_link(&r, d, &m, mwhy);
		slow_limits(&r, d);
		slow_text(&r, d);
		slow_ecc(&r, d);
		d->slow.valid = true;
	}
	if (r.eperm) {
		asleep(d, s);
		return 0;
	}
	s->f[GT_F_PCIE_GEN] = d->slow.pcie_gen;
	s->f[GT_F_PCIE_WIDTH] = d->slow.pcie_width;
	s->f[GT_F_CLK_GRAPHICS_MIN_LIMIT] = d->slow.clk_min_limit;
	s->f[GT_F_CLK_GRAPHICS_MAX_LIMIT] = d->slow.clk_max_limit;
	s->f[GT_F_ECC_CORRECTED_VOLATILE] = d->slow.ecc_corrected;
	s->f[GT_F_ECC_UNCORRECTED_VOLATILE] = d->slow.ecc_uncorrected;
	s->perf_level = d->slow.perf_level;
	s->power_profile = d->slow.power_profile;
	/* pcie_bw would give the rates but blocks for a second per read. */
	gt_val_fail(&s->f[GT_F_PCIE_TX], GT_WHY_NO_SENSOR, 0);
	gt_val_fail(&s->f[GT_F_PCIE_RX], GT_WHY_NO_SENSOR, 0);
	/* Concepts amdgpu does not have. */
	static const int absent[] = {GT_F_PSTATE,
	                             GT_F_CLK_SM,
	                             GT_F_CLK_GRAPHICS_REQUESTED,
	                             GT_F_IDLE_RESIDENCY,
	                             GT_F_ECC_CORRECTED_AGGREGATE,
	                             GT_F_ECC_UNCORRECTED_AGGREGATE};
	for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++)
		gt_val_fail(&s->f[absent[i]], GT_WHY_UNSUPPORTED_DEVICE, 0);
	/* Facts read while the device slept are placeholders: ask for them
	 * again now that it is awake. */
	return d->facts_read ? 0 : 1;
}

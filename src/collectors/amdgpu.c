/* SPDX-License-Identifier: MIT */
/*
 * amdgpu.c - the AMD backend: GPUs driven by the amdgpu kernel driver, read
 * through a configurable sysfs root (device attributes, hwmon, the binary
 * gpu_metrics file). This file owns discovery, the static facts, the
 * process list (from the shared DRM fdinfo scanner) and the backend's
 * lifetime; amdgpu_sample.c owns the per-tick sample.
 *
 * Rules kept throughout:
 *  - A device whose power/runtime_status is "suspended" is never read:
 *    reading a power attribute wakes a sleeping laptop dGPU on kernels up
 *    to ~6.13 (and fails with EPERM on newer ones). It is reported asleep.
 *    Opening its DRM node would wake it too, so libdrm is not used then.
 *  - Names come from libdrm's amdgpu.ids (read as a text file, overridable
 *    with $GPUTOP_AMDGPU_IDS) and a built-in table of newer ids
 *    (amdgpu_ids.c), else "AMD Radeon (device 0xNNNN)".
 *  - driver_version is the DRM driver version from libdrm's drmGetVersion
 *    on the device's render node (linux/drmnode.c), used only on the live /sys
 *    (a copied tree's node numbers mean nothing here) and only for an
 *    awake device; otherwise <sysfs>/module/amdgpu/version (set by
 *    out-of-tree amdgpu builds), else "". libdrm failures never fail the
 *    backend: the reason is in the backend's detail.
 *  - Values sysfs, hwmon and gpu_metrics leave missing are asked of
 *    libdrm_amdgpu's sensor queries (amdgpu_libdrm.c), on the live /sys
 *    and for an awake device only. The handle is opened the first time a
 *    sample lacks such a value; its DRM client is gputop's own and is left
 *    out of the device's process list.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collectors/amdgpu_ids.h"
#include "collectors/registry.h"
#include "collectors/amdgpu_libdrm.h"
#include "collectors/amdgpu_parse.h"
#include "collectors/amdgpu_priv.h"
#include "linux/drmnode.h"
#include "linux/fdinfo.h"
#include "linux/sysfs.h"

void gt_amdgpu_fail_errno(struct gt_val *val, int rc)
{
	enum gt_why why = gt_sysfs_why(rc);
	gt_val_fail(val, why,
	            why == GT_WHY_DRIVER_ERROR ? (rc < 0 ? -rc : rc) : 0);
}

int gt_amdgpu_rd_i64(struct amdgpu_rd *r, const char *dir, const char *leaf,
                     int64_t *v)
{
	if (!dir[0])
		return -ENOENT; /* no hwmon directory */
	int rc = gt_sysfs_read_i64(dir, leaf, v);
	if (rc == -EPERM)
		r->eperm = true;
	return rc;
}

ssize_t gt_amdgpu_rd_raw(struct amdgpu_rd *r, const char *dir, const char *leaf)
{
	ssize_t n = dir[0] ? gt_sysfs_read_bin(dir, leaf, r->p->buf,
	                                       sizeof(r->p->buf) - 1)
	                   : -ENOENT;
	if (n == -EPERM)
		r->eperm = true;
	r->p->buf[n > 0 ? n : 0] = '\0';
	return n;
}

int gt_amdgpu_rd_val(struct amdgpu_rd *r, struct gt_val *val, const char *dir,
                     const char *leaf, int64_t mul, int64_t div)
{
	return gt_amdgpu_rd_range(r, val, dir, leaf, INT64_MIN, INT64_MAX, mul,
	                          div);
}

int gt_amdgpu_rd_range(struct amdgpu_rd *r, struct gt_val *val, const char *dir,
                       const char *leaf, int64_t lo, int64_t hi, int64_t mul,
                       int64_t div)
{
	int64_t v;
	int rc = gt_amdgpu_rd_i64(r, dir, leaf, &v);
	if (rc < 0) {
		gt_amdgpu_fail_errno(val, rc);
		return rc;
	}
	return gt_sysfs_set_scaled(val, v, lo, hi, mul, div);
}

int gt_amdgpu_rd_unit(struct amdgpu_rd *r, struct gt_val *val, const char *dir,
                      const char *leaf, enum gt_sysfs_unit u, int64_t div)
{
	int64_t lo, hi;
	gt_sysfs_unit_range(u, &lo, &hi);
	return gt_amdgpu_rd_range(r, val, dir, leaf, lo, hi, 1, div);
}

int gt_amdgpu_rd_dpm(struct amdgpu_rd *r, const char *dir, const char *leaf,
                     struct gt_amdgpu_dpm *dpm, struct gt_val *val)
{
	ssize_t n = gt_amdgpu_rd_raw(r, dir, leaf);
	if (n < 0) {
		if (val)
			gt_amdgpu_fail_errno(val, (int)n);
		return -1;
	}
	int levels = gt_amdgpu_parse_dpm(r->p->buf, (size_t)n, dpm);
	if (levels < 0 && val)
		gt_val_fail(val, GT_WHY_DRIVER_ERROR, -levels);
	return levels < 0 ? -1 : levels;
}

void gt_amdgpu_rd_link(struct amdgpu_rd *r, const char *dir, const char *which,
                       struct gt_val *gen, struct gt_val *width)
{
	char leaf[32];
	snprintf(leaf, sizeof(leaf), "%s_link_speed", which);
	ssize_t n = gt_amdgpu_rd_raw(r, dir, leaf);
	int g = n >= 0 ? gt_amdgpu_pcie_gen(
	                     gt_amdgpu_parse_link_speed(r->p->buf, (size_t)n))
	               : 0;
	if (n < 0)
		gt_amdgpu_fail_errno(gen, (int)n);
	else if (g == 0) /* "Unknown" when the link is down */
		gt_val_fail(gen, GT_WHY_UNSUPPORTED_DEVICE, 0);
	else
		gt_val_set(gen, g);
	snprintf(leaf, sizeof(leaf), "%s_link_width", which);
	gt_amdgpu_rd_val(r, width, dir, leaf, 1, 0);
}

void gt_amdgpu_map_temps(struct amdgpu_rd *r, struct amdgpu_dev *d)
{
	static const char *const labels[AT__COUNT] = {"edge", "junction",
	                                              "mem"};
	bool labelled = false;

	/* By number first: temp1 edge, temp2 junction, temp3 mem. */
	for (int i = 0; i < AT__COUNT; i++)
		d->temp_index[i] = i + 1;
	for (int n = 1; n <= 3; n++) {
		char leaf[32], label[32];
		snprintf(leaf, sizeof(leaf), "temp%d_label", n);
		ssize_t len = d->hwmon[0] ? gt_sysfs_read(d->hwmon, leaf, label,
		                                          sizeof(label))
		                          : -ENOENT;
		if (len == -EPERM)
			r->eperm = true;
		if (len <= 0)
			continue;
		if (!labelled) {
			/* Labels exist: trust them over the numbering (MI300
			 * hides temp1 and keeps temp2/temp3). */
			labelled = true;
			for (int i = 0; i < AT__COUNT; i++)
				d->temp_index[i] = 0;
		}
		for (int i = 0; i < AT__COUNT; i++)
			if (strcmp(label, labels[i]) == 0)
				d->temp_index[i] = n;
	}
	d->temps_mapped = !r->eperm;
}

static bool exists(const char *dir, const char *leaf)
{
	char path[PATH_MAX];
	struct stat sb;
	/* stat() does not call the attribute's show(): it cannot wake the
	 * device. */
	return gt_sysfs_join(path, sizeof(path), dir, leaf) == 0 &&
	       stat(path, &sb) == 0;
}

static void init_dev(struct amdgpu_dev *d, const struct gt_drmdev *drm)
{
	int64_t rev;
	memset(d, 0, sizeof(*d));
	d->drm = *drm;
	d->revision = gt_sysfs_read_i64(drm->devdir, "revision", &rev) == 0 &&
	                      rev >= 0 && rev <= 0xff
	                  ? (int)rev
	                  : GT_AMDGPU_REV_UNKNOWN;
	d->integrated = gt_amdgpu_is_apu(drm->device);
	const char *arch = gt_amdgpu_arch(drm->device);
	d->pcie_from_dpm =
	    !d->integrated && !(arch && strncmp(arch, "GCN", 3) == 0 &&
	                        strcmp(arch, "GCN 5") != 0);
	/* The lowest-numbered hwmon (the name file is missing in some
	 * captures, so any will do). */
	gt_sysfs_hwmon_dir(d->drm.devdir, NULL, d->hwmon, sizeof(d->hwmon));
	d->fans = d->hwmon[0] && (exists(d->hwmon, "fan1_input") ||
	                          exists(d->hwmon, "pwm1"))
	              ? 1
	              : 0;
}

/* Fills the PCI ids the id files did not give from device/uevent: trees
 * copied from sysfs (the LACT captures) often have "vendor" but no
 * "device" file, and gt_drmdev_scan only falls back to PCI_ID when the
 * vendor is unknown. */
static void fill_ids_from_uevent(struct gt_drmdev *g)
{
	char uevent[1024];
	unsigned a, b, c, e;
	if (g->device && g->subsys_vendor)
		return;
	if (gt_sysfs_read(g->devdir, "uevent", uevent, sizeof(uevent)) <= 0)
		return;
	const char *id = strstr(uevent, "PCI_ID=");
	if (id && sscanf(id + 7, "%x:%x", &a, &b) == 2 && a <= 0xffff &&
	    b <= 0xffff && (!g->vendor || g->vendor == a) && !g->device) {
		g->vendor = (uint16_t)a;
		g->device = (uint16_t)b;
	}
	const char *sub = strstr(uevent, "PCI_SUBSYS_ID=");
	if (sub && sscanf(sub + 14, "%x:%x", &c, &e) == 2 && c <= 0xffff &&
	    e <= 0xffff && !g->subsys_vendor) {
		g->subsys_vendor = (uint16_t)c;
		g->subsys_device = (uint16_t)e;
	}
}

/* Appends why an AMD DRM device is not ours to notes (--list also lists
 * it, with the same reason). */
static void note_unsupported(char *notes, size_t len, const struct gt_drmdev *g)
{
	char why[160];
	if (g->driver[0])
		snprintf(why, sizeof(why), "driver %s is not supported (%s)",
		         g->driver, gt_drmdev_unsupported_why(g));
	else
		snprintf(why, sizeof(why), "%s", gt_drmdev_unsupported_why(g));
	size_t n = strlen(notes);
	if (n + 1 < len)
		snprintf(notes + n, len - n, "; %s (%s, 1002:%04x): %s",
		         g->card, g->pdev[0] ? g->pdev : "no PCI address",
		         g->device, why);
}

/* Appends, once, why libdrm could not give a driver version. Asleep is
 * not worth a note: the version is asked for again when it wakes. */
static void note_version(char *notes, size_t len, const struct gt_drmdev *g,
                         int rc)
{
	size_t n = strlen(notes);
	if (rc == 0 || rc == -EAGAIN || strstr(notes, "driver version") ||
	    n + 1 >= len)
		return;
	snprintf(notes + n, len - n, "; %s driver version unknown: %s", g->card,
	         g->drm_why);
}

static void amdgpu_probe(struct gt_backend *b,
                         const struct gt_backend_options *opt)
{
	struct amdgpu_priv *p = calloc(1, sizeof(*p));
	struct gt_drmdev *drm = NULL;
	size_t n = 0;
	char notes[GT_DETAIL_LEN] = "";

	b->status = GT_BACKEND_UNAVAILABLE;
	if (!p) {
		snprintf(b->detail, sizeof(b->detail), "out of memory");
		return;
	}
	b->priv = p;
	p->fdinfo = opt->fdinfo;
	gt_copy_str(p->root, sizeof(p->root),
	            opt->sysfs_root ? opt->sysfs_root : "/sys");
	const char *ids = getenv(GT_AMDGPU_IDS_ENV);
	gt_copy_str(p->ids_path, sizeof(p->ids_path), ids ? ids : "");
	p->real_sysfs = gt_drmdev_live_root(p->root);

	int rc = gt_drmnode_discover(p->root, &drm, &n);
	if (rc < 0) {
		b->status = GT_BACKEND_ERROR;
		/* A detail cut short at GT_DETAIL_LEN is still useful. */
		if (snprintf(b->detail, sizeof(b->detail),
		             "cannot read %s/class/drm: %s", p->root,
		             strerror(-rc)) >= (int)sizeof(b->detail))
			b->detail[sizeof(b->detail) - 2] = '.';
		return;
	}
	p->devs = calloc(n ? n : 1, sizeof(*p->devs));
	if (!p->devs) {
		free(drm);
		snprintf(b->detail, sizeof(b->detail), "out of memory");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct gt_drmdev *g = &drm[i];
		fill_ids_from_uevent(g);
		/* Vendor 0: a tree without the id files or uevent PCI_ID;
		 * the driver binding alone says it is AMD. */
		if (strcmp(g->driver, "amdgpu") == 0 &&
		    (g->vendor == 0x1002 || g->vendor == 0)) {
			struct amdgpu_dev *d = &p->devs[p->ndevs++];
			init_dev(d, g);
			if (p->real_sysfs)
				note_version(notes, sizeof(notes), &d->drm,
				             gt_drmnode_read_version(&d->drm));
		} else if (g->vendor == 0x1002) {
			note_unsupported(notes, sizeof(notes), g);
		}
	}
	free(drm);
	b->device_count = p->ndevs;
	if (p->ndevs) {
		b->status = GT_BACKEND_OK;
		snprintf(b->detail, sizeof(b->detail), "%u GPU%s%s", p->ndevs,
		         p->ndevs == 1 ? "" : "s", notes);
	} else {
		if (snprintf(
		        b->detail, sizeof(b->detail),
		        "no GPU driven by amdgpu among %zu DRM device%s in "
		        "%s/class/drm%s",
		        n, n == 1 ? "" : "s", p->root,
		        notes) >= (int)sizeof(b->detail))
			b->detail[sizeof(b->detail) - 2] = '.';
	}
}

/* See the top comment. The version libdrm gave at discovery, or asked
 * for now when the device slept then. */
static void driver_version(const struct amdgpu_priv *p, struct amdgpu_dev *d,
                           bool awake, char *out, size_t len)
{
	out[0] = '\0';
	if (p->real_sysfs && awake)
		gt_drmnode_read_version(&d->drm);
	if (awake && strcmp(d->drm.drm_name, "amdgpu") == 0)
		gt_copy_str(out, len, d->drm.drm_version);
	if (!out[0] &&
	    gt_sysfs_read(p->root, "module/amdgpu/version", out, len) < 0)
		out[0] = '\0';
}

static void static_thresholds(struct amdgpu_rd *r, struct amdgpu_dev *d,
                              struct gt_static *st)
{
	static const struct {
		int field, sensor;
		const char *suffix;
	} map[] = {
	    /* crit is where the firmware starts to throttle, emergency
	     * where the ASIC shuts down. The junction's crit is the
	     * limit the hotspot-driven throttling keeps to. */
	    {GT_S_TEMP_SLOWDOWN, AT_EDGE, "crit"},
	    {GT_S_TEMP_SHUTDOWN, AT_EDGE, "emergency"},
	    {GT_S_TEMP_GPU_MAX, AT_JUNCTION, "crit"},
	    {GT_S_TEMP_HOTSPOT_SHUTDOWN, AT_JUNCTION, "emergency"},
	    {GT_S_TEMP_MEM_MAX, AT_MEM, "crit"},
	    {GT_S_TEMP_MEM_SHUTDOWN, AT_MEM, "emergency"},
	};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		struct gt_val *val = &st->f[map[i].field];
		int n = d->temp_index[map[i].sensor];
		/* Without an edge sensor (MI300) the junction's limits are
		 * the ones that apply. */
		if (n == 0 && map[i].sensor == AT_EDGE)
			n = d->temp_index[AT_JUNCTION];
		if (n == 0) {
			gt_val_fail(val, GT_WHY_NO_SENSOR, 0);
			continue;
		}
		char leaf[32];
		snprintf(leaf, sizeof(leaf), "temp%d_%s", n, map[i].suffix);
		gt_amdgpu_rd_unit(r, val, d->hwmon, leaf, GT_SYSFS_MILLI_C, 0);
		/* -273150 m°C (absolute zero) is amdgpu's "not available". */
		if (gt_val_ok(val) && val->v <= -273000)
			gt_val_fail(val, GT_WHY_UNSUPPORTED_DEVICE, 0);
	}
}

/* Highest level of a pp_dpm table, in MHz. */
static void static_dpm_max(struct amdgpu_rd *r, struct amdgpu_dev *d,
                           const char *leaf, struct gt_val *val)
{
	struct gt_amdgpu_dpm dpm;
	int levels = gt_amdgpu_rd_dpm(r, d->drm.devdir, leaf, &dpm, val);
	int64_t max = levels > 0 ? gt_amdgpu_dpm_max_mhz(&dpm) : -1;
	if (levels < 0)
		return;
	if (max <= 0) /* SI prints no levels; gated tables print 0 */
		gt_val_fail(val, GT_WHY_UNSUPPORTED_DEVICE, 0);
	else
		gt_val_set(val, max);
}

static void static_pcie_max(struct amdgpu_rd *r, struct amdgpu_dev *d,
                            struct gt_static *st)
{
	struct gt_val *gen = &st->f[GT_S_PCIE_MAX_GEN];
	struct gt_val *width = &st->f[GT_S_PCIE_MAX_WIDTH];

	if (d->pcie_from_dpm) {
		struct gt_amdgpu_dpm dpm;
		const struct gt_amdgpu_dpm_level *lv = NULL;
		if (gt_amdgpu_rd_dpm(r, d->drm.devdir, "pp_dpm_pcie", &dpm,
		                     NULL) > 0)
			lv = gt_amdgpu_dpm_max_link(&dpm);
		if (lv && gt_amdgpu_pcie_gen(lv->pcie_gts10) > 0) {
			gt_val_set(gen, gt_amdgpu_pcie_gen(lv->pcie_gts10));
			gt_val_set(width, lv->pcie_width);
			return;
		}
	}
	gt_amdgpu_rd_link(r, d->drm.devdir, "max", gen, width);
}

static void static_fans(struct amdgpu_rd *r, struct amdgpu_dev *d,
                        struct gt_static *st)
{
	if (d->fans) {
		gt_val_set(&st->f[GT_S_FAN_COUNT], d->fans);
		/* pwm1_min/pwm1_max: the settable duty range, 0-255. */
		gt_amdgpu_rd_val(r, &st->f[GT_S_FAN_MIN_PERCENT], d->hwmon,
		                 "pwm1_min", 10000, 255);
		gt_amdgpu_rd_val(r, &st->f[GT_S_FAN_MAX_PERCENT], d->hwmon,
		                 "pwm1_max", 10000, 255);
		return;
	}
	/* An APU has no fan of its own; a card without fan files in hwmon
	 * has one we cannot see. */
	if (d->integrated)
		gt_val_set(&st->f[GT_S_FAN_COUNT], 0);
	else
		gt_val_fail(&st->f[GT_S_FAN_COUNT], GT_WHY_NO_SENSOR, 0);
	gt_val_fail(&st->f[GT_S_FAN_MIN_PERCENT], GT_WHY_NO_SENSOR, 0);
	gt_val_fail(&st->f[GT_S_FAN_MAX_PERCENT], GT_WHY_NO_SENSOR, 0);
}

static void static_strings(const struct amdgpu_dev *d, struct gt_static *st)
{
	char buf[GT_STR_NAME];
	if (gt_sysfs_read(d->drm.devdir, "vbios_version", buf, sizeof(buf)) > 0)
		gt_copy_str(st->vbios, sizeof(st->vbios), buf);
	/* unique_id is empty or absent on most boards. */
	if (gt_sysfs_read(d->drm.devdir, "unique_id", buf, sizeof(buf)) > 0)
		gt_copy_str(st->uuid, sizeof(st->uuid), buf);
	if (gt_sysfs_read(d->drm.devdir, "serial_number", buf, sizeof(buf)) > 0)
		gt_copy_str(st->serial, sizeof(st->serial), buf);
}

/* Facts read from the device itself: only when it is awake. */
static void static_facts(struct amdgpu_priv *p, struct amdgpu_dev *d,
                         struct gt_static *st)
{
	struct amdgpu_rd r = {p, false};
	int64_t pw;

	static_strings(d, st);
	if (!d->temps_mapped)
		gt_amdgpu_map_temps(&r, d);
	gt_amdgpu_rd_val(&r, &st->f[GT_S_VRAM_TOTAL], d->drm.devdir,
	                 "mem_info_vram_total", 1, 0);
	gt_amdgpu_rd_unit(&r, &st->f[GT_S_POWER_MAX], d->hwmon,
	                  "power1_cap_max", GT_SYSFS_MICROWATT, 1000);
	gt_amdgpu_rd_unit(&r, &st->f[GT_S_POWER_DEFAULT], d->hwmon,
	                  "power1_cap_default", GT_SYSFS_MICROWATT, 1000);
	int rc = gt_amdgpu_rd_i64(&r, d->hwmon, "power1_cap_min", &pw);
	if (rc < 0)
		gt_amdgpu_fail_errno(&st->f[GT_S_POWER_MIN], rc);
	else if (pw <= 0) /* 0 on several boards: the minimum is unknown */
		gt_val_fail(&st->f[GT_S_POWER_MIN], GT_WHY_UNSUPPORTED_DEVICE,
		            0);
	else
		gt_val_set(&st->f[GT_S_POWER_MIN], pw / 1000);
	static_thresholds(&r, d, st);
	static_dpm_max(&r, d, "pp_dpm_sclk", &st->f[GT_S_CLK_GRAPHICS_MAX]);
	static_dpm_max(&r, d, "pp_dpm_mclk", &st->f[GT_S_CLK_MEM_MAX]);
	static_dpm_max(&r, d, "pp_dpm_vclk", &st->f[GT_S_CLK_VIDEO_MAX]);
	static_pcie_max(&r, d, st);
	static_fans(&r, d, st);
	d->facts_read = !r.eperm;
}

static int amdgpu_get_static(struct gt_backend *b, unsigned dev,
                             struct gt_static *st)
{
	struct amdgpu_priv *p = b->priv;
	struct amdgpu_dev *d = &p->devs[dev];
	bool awake = !gt_drmdev_is_suspended(&d->drm);

	st->vendor = GT_VENDOR_AMD;
	gt_copy_str(st->driver, sizeof(st->driver), "amdgpu");
	gt_copy_str(st->pci_bus_id, sizeof(st->pci_bus_id), d->drm.pdev);
	memcpy(st->id, d->drm.pdev[0] ? "pci:" : "drm:", 4);
	gt_copy_str(st->id + 4, sizeof(st->id) - 4,
	            d->drm.pdev[0] ? d->drm.pdev : d->drm.card);
	st->pci_vendor_id = 0x1002;
	st->pci_device_id = d->drm.device;
	st->pci_subsystem_id =
	    ((uint32_t)d->drm.subsys_device << 16) | d->drm.subsys_vendor;
	if (d->drm.device)
		gt_amdgpu_name(p->ids_path[0] ? p->ids_path : NULL,
		               d->drm.device, d->revision, st->name,
		               sizeof(st->name));
	else
		gt_copy_str(st->name, sizeof(st->name),
		            "AMD Radeon (unknown device)");
	const char *arch = gt_amdgpu_arch(d->drm.device);
	gt_copy_str(st->architecture, sizeof(st->architecture),
	            arch ? arch : "");
	st->integrated = d->integrated;
	driver_version(p, d, awake, st->driver_version,
	               sizeof(st->driver_version));

	/* A sleeping device's facts say so; the first awake sample asks for
	 * them again. */
	d->facts_read = false;
	if (awake)
		static_facts(p, d, st);
	for (int i = 0; i < GT_S__COUNT; i++)
		if (!d->facts_read)
			gt_val_fail(&st->f[i], GT_WHY_ASLEEP, 0);
	static const int absent[] = {GT_S_CLK_SM_MAX, GT_S_CC_MAJOR,
	                             GT_S_CC_MINOR, GT_S_MIG_MODE,
	                             GT_S_ECC_MODE};
	for (size_t i = 0;
	     d->facts_read && i < sizeof(absent) / sizeof(absent[0]); i++)
		gt_val_fail(&st->f[absent[i]], GT_WHY_UNSUPPORTED_DEVICE, 0);
	if (d->facts_read && exists(d->drm.devdir, "ras/umc_err_count"))
		gt_val_set(&st->f[GT_S_ECC_MODE], 1);
	return 0;
}

/* The values the sample lacks, from libdrm_amdgpu's sensors (see the top
 * comment). The handle is opened once; a failed open is not retried. */
static void sample_sensors(struct amdgpu_priv *p, struct amdgpu_dev *d,
                           struct gt_sample *s)
{
	if (!p->real_sysfs || d->sensors_rc != 0 ||
	    gt_amdgpu_drm_wanted(s) == 0)
		return;
	if (!d->sensors) {
		/* Opening the node would wake a device that fell asleep
		 * since the sample checked. */
		if (!d->drm.render_node[0] || gt_drmdev_is_suspended(&d->drm))
			return;
		d->sensors_rc =
		    gt_amdgpu_drm_open(d->drm.render_node, &d->sensors);
		if (d->sensors_rc != 0)
			return;
	}
	gt_amdgpu_drm_fill(s, gt_amdgpu_drm_query, d->sensors);
}

static int amdgpu_sample(struct gt_backend *b, unsigned dev,
                         struct gt_sample *s, int slow)
{
	struct amdgpu_priv *p = b->priv;
	int rc = gt_amdgpu_sample(b, dev, s, slow);
	if (rc >= 0 && s->state == GT_DEV_OK)
		sample_sensors(p, &p->devs[dev], s);
	return rc;
}

static int amdgpu_processes(struct gt_backend *b, unsigned dev,
                            struct gt_proc_vec *out)
{
	struct amdgpu_priv *p = b->priv;
	struct amdgpu_dev *d = &p->devs[dev];
	size_t first = out->count;
	/* fdinfo is per process: reading it does not touch the device. */
	if (p->fdinfo && d->drm.pdev[0])
		gt_fdinfo_processes(p->fdinfo, d->drm.pdev, out);
	if (!d->sensors)
		return 0;
	/* The sensor handle's DRM client is gputop's own, not a GPU user. */
	pid_t self = getpid();
	size_t keep = first;
	for (size_t i = first; i < out->count; i++) {
		if (out->items[i].pid == self) {
			free(out->items[i].cmdline);
			continue;
		}
		out->items[keep++] = out->items[i];
	}
	out->count = keep;
	return 0;
}

static void amdgpu_shutdown(struct gt_backend *b)
{
	struct amdgpu_priv *p = b->priv;
	if (!p)
		return;
	for (unsigned i = 0; i < p->ndevs; i++)
		gt_amdgpu_drm_close(p->devs[i].sensors);
	free(p->devs);
	free(p);
	b->priv = NULL;
}

const struct gt_backend_ops gt_amdgpu_backend = {
    .name = "amdgpu",
    .uses_fdinfo = true,
    .probe = amdgpu_probe,
    .get_static = amdgpu_get_static,
    .sample = amdgpu_sample,
    .processes = amdgpu_processes,
    .error_text = gt_backend_errno_text,
    .shutdown = amdgpu_shutdown,
};

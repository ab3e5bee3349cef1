/* SPDX-License-Identifier: MIT */
/*
 * intel.c - the Intel backend: i915 and xe GPUs read through sysfs (a
 * configurable root), with VRAM from the memory-region query ioctl where a
 * device node exists, device busy and processes from the shared DRM fdinfo
 * scanner, and names from pci.ids or the built-in table (intel_ids.c).
 *
 * It owns the per-device state in b->priv: the file layout found once
 * while the device is awake (intel_sysfs.c), the previous energy and
 * idle-residency counters for rates, and the slow-cadence cache (PCIe
 * link, the memory query). A runtime-suspended device is never read: its
 * sample says asleep, and its facts are re-read when it wakes.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/backend.h"
#include "collectors/registry.h"
#include "core/clock.h"
#include "linux/drmdev.h"
#include "linux/drmnode.h"
#include "linux/fdinfo.h"
#include "collectors/intel_ids.h"
#include "collectors/intel_query.h"
#include "collectors/intel_sysfs.h"
#include "linux/sysfs.h"

struct intel_dev {
	struct gt_drmdev drm;
	char carddir[PATH_MAX];
	bool xe;
	bool integrated;
	bool resolved;    /* lay and hw found (only done while awake) */
	bool facts_stale; /* facts were read while asleep: re-read on wake */
	bool asleep;      /* the last sample found it suspended */
	struct gt_intel_layout lay;
	struct gt_intel_hwmon hw;
	char name[GT_STR_NAME];
	const char *arch;
	/* Counters of the previous sample, for rates. */
	bool e_have, r_have;
	uint64_t e_prev_uj, e_ns;
	int64_t r_prev_ms;
	uint64_t r_ns;
	/* Slow-cadence cache. */
	bool slow_valid;
	struct gt_val link_gen, link_width;
	int mem_rc; /* 0: mem valid; -errno of the query; 1: not tried */
	struct gt_intel_mem mem;
};

struct intel_priv {
	struct intel_dev *devs;
	unsigned ndevs;
	struct gt_fdinfo *fdinfo; /* borrowed from the collector */
	bool real_root;           /* sysfs is the live /sys: nodes are real */
	bool perfmon;
	bool i915_engine_stats; /* i915 fdinfo has engine time (5.19+) */
	char pciids[PATH_MAX];  /* "" = the distribution's paths */
	char root[PATH_MAX];    /* the sysfs root */
};

static void fail(struct gt_val *v, enum gt_why why)
{
	gt_val_fail(v, why, 0);
}

/* The reason for a value a discrete card has but this one does not show:
 * an integrated GPU has no board sensors at all. */
static enum gt_why missing(const struct intel_dev *d)
{
	return d->integrated ? GT_WHY_UNSUPPORTED_DEVICE : GT_WHY_NO_SENSOR;
}

/* v from dir/leaf, a number measuring u (a power limit kept in mW): N/A
 * for absent when there is no such file, out of range past what u can
 * hold (gt_sysfs_unit_range), not a negative clock or a 2-million-degree
 * gauge from a corrupt or hostile tree. */
static void put_file(struct gt_val *v, const char *dir, const char *leaf,
                     enum gt_sysfs_unit u, enum gt_why absent)
{
	int64_t lo, hi;
	if (!dir || !dir[0] || !leaf || !leaf[0]) {
		fail(v, absent);
		return;
	}
	gt_sysfs_unit_range(u, &lo, &hi);
	gt_sysfs_val(v, dir, leaf, lo, hi, 1,
	             u == GT_SYSFS_MICROWATT ? 1000 : 0);
}

static void intel_probe(struct gt_backend *b,
                        const struct gt_backend_options *opt)
{
	struct intel_priv *p = calloc(1, sizeof(*p));
	struct gt_drmdev *all = NULL;
	size_t n = 0;
	unsigned unbound = 0, i915 = 0, xe = 0;
	const char *root = opt->sysfs_root ? opt->sysfs_root : "/sys";
	const struct intel_dev *vnote = NULL; /* driver version unknown */

	b->status = GT_BACKEND_UNAVAILABLE;
	if (!p) {
		snprintf(b->detail, sizeof(b->detail), "out of memory");
		return;
	}
	b->priv = p;
	p->fdinfo = opt->fdinfo;
	p->real_root = gt_drmdev_live_root(root);
	gt_copy_str(p->root, sizeof(p->root), root);
	p->perfmon = gt_intel_perfmon_capable();
	struct utsname u;
	int major = 0, minor = 0;
	if (uname(&u) == 0)
		sscanf(u.release, "%d.%d", &major, &minor);
	p->i915_engine_stats = major > 5 || (major == 5 && minor >= 19);
	/* Tests and unusual installs point at their own pci.ids. */
	const char *ids = getenv("GPUTOP_PCI_IDS");
	if (ids && *ids)
		gt_copy_str(p->pciids, sizeof(p->pciids), ids);

	int rc = gt_drmnode_discover(opt->sysfs_root, &all, &n);
	if (rc < 0) {
		b->status = GT_BACKEND_ERROR;
		snprintf(b->detail, sizeof(b->detail),
		         "cannot read %s/class/drm: %s", root, strerror(-rc));
		return;
	}
	p->devs = calloc(n ? n : 1, sizeof(*p->devs));
	if (!p->devs) {
		free(all);
		snprintf(b->detail, sizeof(b->detail), "out of memory");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct gt_drmdev *g = &all[i];
		if (g->vendor != 0x8086)
			continue;
		bool is_xe = strcmp(g->driver, "xe") == 0;
		if (!is_xe && strcmp(g->driver, "i915") != 0) {
			unbound++; /* vfio-pci, or no driver bound */
			continue;
		}
		struct intel_dev *d = &p->devs[p->ndevs++];
		d->drm = *g;
		d->xe = is_xe;
		gt_copy_str(d->carddir, sizeof(d->carddir), g->devdir);
		char *slash = strrchr(d->carddir, '/');
		if (slash)
			*slash = '\0'; /* strip "/device" */
		d->integrated = gt_intel_slot_is_integrated(g->pdev);
		d->mem_rc = 1;
		/* The DRM driver version, at discovery. A sleeping device
		 * is asked when it wakes (-EAGAIN): no note for it. */
		int vrc = p->real_root ? gt_drmnode_read_version(&d->drm) : 0;
		if (vrc != 0 && vrc != -EAGAIN && !vnote)
			vnote = d;
		is_xe ? xe++ : i915++;
	}
	free(all);
	b->device_count = p->ndevs;
	if (p->ndevs == 0) {
		snprintf(b->detail, sizeof(b->detail),
		         "no Intel GPU with the i915 or xe driver under "
		         "%s/class/drm%s",
		         root,
		         unbound ? " (an Intel display device has no "
		                   "i915/xe driver bound)"
		                 : "");
		return;
	}
	b->status = GT_BACKEND_OK;
	int len = snprintf(
	    b->detail, sizeof(b->detail), "%u GPU%s (i915: %u, xe: %u)%s",
	    p->ndevs, p->ndevs == 1 ? "" : "s", i915, xe,
	    unbound ? "; Intel devices without i915/xe skipped" : "");
	if (vnote && len > 0 && (size_t)len < sizeof(b->detail))
		snprintf(b->detail + len, sizeof(b->detail) - (size_t)len,
		         "; %s driver version unknown: %s", vnote->drm.card,
		         vnote->drm.drm_why);
}

/* Finds the files once, while the device is awake. */
static void resolve(struct intel_dev *d)
{
	if (d->resolved)
		return;
	gt_intel_layout_find(d->carddir, d->drm.devdir, d->xe, d->integrated,
	                     &d->lay);
	gt_intel_hwmon_find(d->drm.devdir, &d->hw);
	d->resolved = true;
}

/* The memory-region query: only on the live system, where the render
 * node in /dev/dri is this device's (a fixture tree's is not). */
static void query_memory(struct intel_priv *p, struct intel_dev *d)
{
	char node[PATH_MAX];
	if (!p->real_root || !d->drm.render_node[0]) {
		d->mem_rc = -ENODEV;
		return;
	}
	/* The node libdrm names (or /dev/dri/<sysfs's renderD name>). */
	gt_copy_str(node, sizeof(node), d->drm.render_node);
	d->mem_rc = gt_intel_query_mem(node, d->xe, p->perfmon, &d->mem);
	/* A device-memory region is the reliable test for a discrete GPU;
	 * the slot heuristic is only for when there is no node to ask. */
	if (d->mem_rc == 0)
		d->integrated = !d->mem.vram;
}

/* xe: tile<T>/physical_vram_size_bytes, present on some kernels. */
static bool xe_physical_vram(const struct intel_dev *d, int64_t *total)
{
	char leaf[64];
	int64_t v;
	bool any = false;
	*total = 0;
	for (unsigned t = 0; d->xe && t < 4; t++) {
		snprintf(leaf, sizeof(leaf), "tile%u/physical_vram_size_bytes",
		         t);
		if (gt_sysfs_read_i64(d->drm.devdir, leaf, &v) == 0 && v > 0) {
			*total += v;
			any = true;
		}
	}
	return any;
}

static void static_memory(const struct intel_dev *d, struct gt_static *st)
{
	int64_t v;
	struct gt_val *out = &st->f[GT_S_VRAM_TOTAL];
	if (d->integrated)
		fail(out, GT_WHY_UNSUPPORTED_DEVICE); /* shares system RAM */
	else if (d->mem_rc == 0)
		gt_val_set(out, (int64_t)d->mem.vram_total);
	else if (xe_physical_vram(d, &v))
		gt_val_set(out, v);
	else if (d->mem_rc == -EACCES || d->mem_rc == -EPERM)
		fail(out, GT_WHY_PERMISSION);
	else
		/* Not in sysfs: only the DRM memory-region query gives it,
		 * and there is no device node to ask (a --sysfs tree). */
		fail(out, GT_WHY_NO_SENSOR);
}

/* Reads a PCIe link, looking past the internal switch of Arc cards, whose
 * GPU function reports a 2.5 GT/s x1 link to the switch: nvtop reads up to
 * two parent bridges for the real one. Parents outside the sysfs root are
 * not read. */
static void read_link(const struct intel_dev *d, const char *root,
                      const char *speed_leaf, const char *width_leaf,
                      struct gt_val *gen, struct gt_val *width)
{
	char dir[PATH_MAX], speed[64];
	int64_t w = 0;

	fail(gen, GT_WHY_NOT_COLLECTED);
	fail(width, GT_WHY_NOT_COLLECTED);
	if (d->integrated) {
		fail(gen, GT_WHY_UNSUPPORTED_DEVICE); /* on the CPU die */
		fail(width, GT_WHY_UNSUPPORTED_DEVICE);
		return;
	}
	gt_copy_str(dir, sizeof(dir), d->drm.devdir);
	char *real = realpath(d->drm.devdir, NULL);
	for (int up = 0; up <= 2; up++) {
		if (gt_sysfs_read(dir, speed_leaf, speed, sizeof(speed)) <= 0 ||
		    gt_sysfs_read_i64(dir, width_leaf, &w) < 0)
			break;
		int g = gt_intel_pcie_gen(speed);
		if (g > 0)
			gt_val_set(gen, g);
		else
			fail(gen, GT_WHY_UNSUPPORTED_DEVICE);
		gt_val_set(width, w);
		if (!(g == 1 && w == 1) || !real)
			break;
		char *cut = strrchr(real, '/');
		if (!cut || cut == real)
			break;
		*cut = '\0';
		if (!gt_sysfs_inside(real, root))
			break;
		gt_copy_str(dir, sizeof(dir), real);
	}
	free(real);
	if (gen->why == GT_WHY_NOT_COLLECTED)
		fail(gen, GT_WHY_NO_SENSOR);
	if (width->why == GT_WHY_NOT_COLLECTED)
		fail(width, GT_WHY_NO_SENSOR);
}

static void static_sensors(const struct intel_dev *d, struct gt_static *st)
{
	const struct gt_intel_hwmon *h = &d->hw;
	const char *hd = h->ok ? h->dir : NULL;
	enum gt_why none = missing(d);

	fail(&st->f[GT_S_POWER_MIN], GT_WHY_UNSUPPORTED_DEVICE);
	/* The highest sustained limit: i915 and xe document none above the
	 * rated TDP (power1_crit is the reactive I1 limit, a different
	 * thing), and the control refuses a limit above it. */
	put_file(&st->f[GT_S_POWER_MAX], hd, h->power_rated, GT_SYSFS_MICROWATT,
	         none);
	/* The rated limit (TDP) is the default sustained limit. */
	put_file(&st->f[GT_S_POWER_DEFAULT], hd, h->power_rated,
	         GT_SYSFS_MICROWATT, none);
	put_file(&st->f[GT_S_TEMP_SLOWDOWN], hd, h->temp_gpu_crit,
	         GT_SYSFS_MILLI_C, none);
	put_file(&st->f[GT_S_TEMP_SHUTDOWN], hd, h->temp_gpu_emergency,
	         GT_SYSFS_MILLI_C, none);
	put_file(&st->f[GT_S_TEMP_GPU_MAX], hd, h->temp_gpu_max,
	         GT_SYSFS_MILLI_C, none);
	put_file(&st->f[GT_S_TEMP_MEM_MAX], hd, h->temp_mem_crit,
	         GT_SYSFS_MILLI_C,
	         d->integrated ? GT_WHY_UNSUPPORTED_DEVICE : GT_WHY_NO_SENSOR);
	/* i915 and xe have no hotspot sensor; no memory shutdown limit is
	 * read (yet). */
	fail(&st->f[GT_S_TEMP_HOTSPOT_SHUTDOWN], GT_WHY_UNSUPPORTED_DEVICE);
	fail(&st->f[GT_S_TEMP_MEM_SHUTDOWN],
	     d->integrated ? GT_WHY_UNSUPPORTED_DEVICE : GT_WHY_NO_SENSOR);
	if (h->fans)
		gt_val_set(&st->f[GT_S_FAN_COUNT], h->fans);
	else
		fail(&st->f[GT_S_FAN_COUNT], none);
	/* Neither driver lets fans be set: no settable range. */
	fail(&st->f[GT_S_FAN_MIN_PERCENT], GT_WHY_UNSUPPORTED_DEVICE);
	fail(&st->f[GT_S_FAN_MAX_PERCENT], GT_WHY_UNSUPPORTED_DEVICE);
}

static void static_clocks(const struct intel_dev *d, struct gt_static *st)
{
	const struct gt_intel_layout *l = &d->lay;
	put_file(&st->f[GT_S_CLK_GRAPHICS_MAX], l->gfx.ok ? l->gfx.dir : NULL,
	         l->gfx.rp0, GT_SYSFS_MHZ, GT_WHY_NO_SENSOR);
	fail(&st->f[GT_S_CLK_SM_MAX], GT_WHY_UNSUPPORTED_DEVICE);
	/* VRAM frequency limits exist on PVC only. */
	put_file(&st->f[GT_S_CLK_MEM_MAX], l->tile_dir[0] ? l->tile_dir : NULL,
	         "memory/freq0/max_freq", GT_SYSFS_MHZ, missing(d));
	/* Without a media GT the video engines run on the graphics clock. */
	put_file(&st->f[GT_S_CLK_VIDEO_MAX], l->media.ok ? l->media.dir : NULL,
	         l->media.rp0, GT_SYSFS_MHZ, GT_WHY_UNSUPPORTED_DEVICE);
}

static int intel_get_static(struct gt_backend *b, unsigned dev,
                            struct gt_static *st)
{
	struct intel_priv *p = b->priv;
	struct intel_dev *d = &p->devs[dev];
	struct stat sb;

	if (stat(d->drm.devdir, &sb) != 0)
		return -1; /* unbound or unplugged */
	st->vendor = GT_VENDOR_INTEL;
	gt_copy_str(st->driver, sizeof(st->driver), d->drm.driver);
	gt_copy_str(st->pci_bus_id, sizeof(st->pci_bus_id), d->drm.pdev);
	/* Like nvml.c: "pci:" then the bus id, truncated if it must be. */
	memcpy(st->id, d->drm.pdev[0] ? "pci:" : "drm:", 4);
	gt_copy_str(st->id + 4, sizeof(st->id) - 4,
	            d->drm.pdev[0] ? d->drm.pdev : d->drm.card);
	st->pci_vendor_id = d->drm.vendor;
	st->pci_device_id = d->drm.device;
	st->pci_subsystem_id =
	    (uint32_t)d->drm.subsys_device << 16 | d->drm.subsys_vendor;
	if (!d->name[0]) {
		/* Reading pci.ids costs a few ms: once per device. */
		gt_intel_device_name(p->pciids[0] ? p->pciids : NULL,
		                     d->drm.device, d->name, sizeof(d->name),
		                     NULL);
		const struct gt_intel_id *row =
		    gt_intel_id_lookup(d->drm.device);
		d->arch = row ? row->arch : "";
	}
	gt_copy_str(st->name, sizeof(st->name), d->name);
	gt_copy_str(st->architecture, sizeof(st->architecture), d->arch);

	/* Concepts of other vendors. */
	fail(&st->f[GT_S_CC_MAJOR], GT_WHY_UNSUPPORTED_DEVICE);
	fail(&st->f[GT_S_CC_MINOR], GT_WHY_UNSUPPORTED_DEVICE);
	fail(&st->f[GT_S_MIG_MODE], GT_WHY_UNSUPPORTED_DEVICE);
	fail(&st->f[GT_S_ECC_MODE], GT_WHY_UNSUPPORTED_DEVICE);

	d->facts_stale = gt_drmdev_is_suspended(&d->drm);
	if (d->facts_stale) {
		/* Every other fact needs the awake device: they are read
		 * when it wakes (sample() then reports the change). */
		for (int i = 0; i < GT_S__COUNT; i++)
			if (st->f[i].why == GT_WHY_NOT_COLLECTED)
				fail(&st->f[i], GT_WHY_ASLEEP);
		st->integrated = d->integrated;
		return 0;
	}
	/* The DRM driver version: asked for now if the device slept at
	 * discovery. */
	if (p->real_root)
		gt_drmnode_read_version(&d->drm);
	if (strcmp(d->drm.drm_name, d->drm.driver) == 0)
		gt_copy_str(st->driver_version, sizeof(st->driver_version),
		            d->drm.drm_version);
	if (d->mem_rc == 1)
		query_memory(p, d); /* first: it settles d->integrated */
	resolve(d);
	st->integrated = d->integrated;
	static_memory(d, st);
	static_sensors(d, st);
	static_clocks(d, st);
	read_link(d, p->root, "max_link_speed", "max_link_width",
	          &st->f[GT_S_PCIE_MAX_GEN], &st->f[GT_S_PCIE_MAX_WIDTH]);
	return 0;
}

static void sample_clocks(const struct intel_dev *d, struct gt_sample *s)
{
	const struct gt_intel_freq *g = &d->lay.gfx, *m = &d->lay.media;
	const char *gd = g->ok ? g->dir : NULL;

	/* act is what the hardware runs at (0 while the GT sleeps in
	 * RC6/C6); cur is what the driver asked for. Both are shown. */
	put_file(&s->f[GT_F_CLK_GRAPHICS], gd, g->act, GT_SYSFS_MHZ,
	         GT_WHY_NO_SENSOR);
	put_file(&s->f[GT_F_CLK_GRAPHICS_REQUESTED], gd, g->cur, GT_SYSFS_MHZ,
	         GT_WHY_NO_SENSOR);
	put_file(&s->f[GT_F_CLK_GRAPHICS_MIN_LIMIT], gd, g->min, GT_SYSFS_MHZ,
	         GT_WHY_NO_SENSOR);
	put_file(&s->f[GT_F_CLK_GRAPHICS_MAX_LIMIT], gd, g->max, GT_SYSFS_MHZ,
	         GT_WHY_NO_SENSOR);
	put_file(&s->f[GT_F_CLK_VIDEO], m->ok ? m->dir : NULL, m->act,
	         GT_SYSFS_MHZ, GT_WHY_UNSUPPORTED_DEVICE);
	fail(&s->f[GT_F_CLK_SM], GT_WHY_UNSUPPORTED_DEVICE);
	/* Neither driver shows the memory clock. */
	fail(&s->f[GT_F_CLK_MEM], missing(d));
}

static void sample_residency(struct intel_dev *d, struct gt_sample *s)
{
	struct gt_val *out = &s->f[GT_F_IDLE_RESIDENCY];
	int64_t ms;
	if (!d->lay.rc6_leaf) {
		fail(out, GT_WHY_NO_SENSOR);
		return;
	}
	int rc = gt_sysfs_read_i64(d->lay.rc6_dir, d->lay.rc6_leaf, &ms);
	uint64_t now = gt_monotonic_ns();
	if (rc < 0) {
		gt_val_fail(out, gt_sysfs_why(rc), -rc);
		d->r_have = false;
		return;
	}
	int64_t cpct;
	if (!d->r_have ||
	    !gt_intel_residency_cpct(d->r_prev_ms, ms, now - d->r_ns, &cpct))
		fail(out, GT_WHY_PENDING); /* first sample, or a reset */
	else
		gt_val_set(out, cpct);
	d->r_have = true;
	d->r_prev_ms = ms;
	d->r_ns = now;
}

static void sample_throttle(const struct intel_dev *d, struct gt_sample *s)
{
	const struct gt_intel_layout *l = &d->lay;
	struct gt_val *out = &s->f[GT_F_THROTTLE];
	char text[256], leaf[64];
	int64_t v;
	uint32_t mask = 0;

	if (!l->thr_prefix) {
		fail(out, GT_WHY_NO_SENSOR); /* i915 before graphics 11 */
		return;
	}
	/* xe's "reasons" is one read, so it cannot race a change between
	 * status and the reason files. */
	if (d->xe &&
	    gt_sysfs_read(l->thr_dir, "reasons", text, sizeof(text)) > 0) {
		mask = gt_intel_throttle_parse(text);
	} else {
		int rc = gt_sysfs_read_i64(l->thr_dir, l->thr_status, &v);
		if (rc < 0) {
			gt_val_fail(out, gt_sysfs_why(rc), -rc);
			return;
		}
		for (size_t i = 0; v && gt_intel_throttle_names[i]; i++) {
			int64_t on;
			snprintf(leaf, sizeof(leaf), "%s%s", l->thr_prefix,
			         gt_intel_throttle_names[i]);
			if (gt_sysfs_read_i64(l->thr_dir, leaf, &on) == 0 && on)
				mask |= gt_intel_throttle_bit(
				    gt_intel_throttle_names[i]);
		}
		if (v && !mask)
			mask = GT_THR_OTHER; /* throttled, reason not listed */
	}
	if (l->idle_dir[0] &&
	    gt_sysfs_read(l->idle_dir, "idle_status", text, sizeof(text)) > 0 &&
	    strcmp(text, "gt-c6") == 0)
		mask |= GT_THR_IDLE; /* the GT is power-gated */
	gt_val_set(out, mask);
}

static void sample_power(struct intel_dev *d, struct gt_sample *s)
{
	const struct gt_intel_hwmon *h = &d->hw;
	const char *hd = h->ok ? h->dir : NULL;
	enum gt_why none = missing(d);
	int64_t uj;

	/* The sustained limit (PL1) is the limit both asked for and
	 * enforced: Intel has no separate out-of-band cap to report. */
	put_file(&s->f[GT_F_POWER_LIMIT], hd, h->power_max, GT_SYSFS_MICROWATT,
	         none);
	if (gt_val_ok(&s->f[GT_F_POWER_LIMIT]) && s->f[GT_F_POWER_LIMIT].v <= 0)
		fail(&s->f[GT_F_POWER_LIMIT], GT_WHY_UNSUPPORTED_DEVICE);
	s->f[GT_F_POWER_ENFORCED] = s->f[GT_F_POWER_LIMIT];

	if (!hd || !h->energy[0]) {
		/* iGPU power is in RAPL (CPU package), not a GPU sensor. */
		fail(&s->f[GT_F_ENERGY], none);
		fail(&s->f[GT_F_POWER_DRAW], none);
		return;
	}
	int rc = gt_sysfs_read_i64(hd, h->energy, &uj);
	uint64_t now = gt_monotonic_ns();
	if (rc < 0 || uj < 0) {
		enum gt_why why =
		    rc < 0 ? gt_sysfs_why(rc) : GT_WHY_DRIVER_ERROR;
		gt_val_fail(&s->f[GT_F_ENERGY], why, rc < 0 ? -rc : EINVAL);
		s->f[GT_F_POWER_DRAW] = s->f[GT_F_ENERGY];
		d->e_have = false;
		return;
	}
	gt_val_set(&s->f[GT_F_ENERGY], uj / 1000);
	/* Instantaneous power is not exposed: it is the energy counter's
	 * delta over the interval. */
	int64_t mw;
	if (!d->e_have ||
	    !gt_intel_power_mw(d->e_prev_uj, (uint64_t)uj, now - d->e_ns, &mw))
		fail(&s->f[GT_F_POWER_DRAW], GT_WHY_PENDING);
	else
		gt_val_set(&s->f[GT_F_POWER_DRAW], mw);
	d->e_have = true;
	d->e_prev_uj = (uint64_t)uj;
	d->e_ns = now;
}

static void sample_thermal(const struct intel_dev *d, struct gt_sample *s)
{
	const struct gt_intel_hwmon *h = &d->hw;
	const char *hd = h->ok ? h->dir : NULL;
	char leaf[32];

	put_file(&s->f[GT_F_TEMP_GPU], hd, h->temp_gpu, GT_SYSFS_MILLI_C,
	         missing(d));
	put_file(&s->f[GT_F_TEMP_MEM], hd, h->temp_mem, GT_SYSFS_MILLI_C,
	         missing(d));
	fail(&s->f[GT_F_TEMP_HOTSPOT], missing(d));
	s->fan_count = (uint8_t)h->fans;
	for (unsigned i = 0; i < h->fans && i < GT_MAX_FANS; i++) {
		snprintf(leaf, sizeof(leaf), "fan%u_input", h->fan_index[i]);
		put_file(&s->f[GT_F_FAN_RPM0 + i], hd, leaf, GT_SYSFS_RPM,
		         GT_WHY_NO_SENSOR);
		/* hwmon gives RPM only: no duty cycle. */
		fail(&s->f[GT_F_FAN_PERCENT0 + i], GT_WHY_UNSUPPORTED_DEVICE);
	}
}

static void sample_memory(struct intel_priv *p, struct intel_dev *d,
                          struct gt_sample *s, bool slow)
{
	const struct gt_intel_mem *m = &d->mem;
	int64_t total;
	static const int vram_fields[] = {GT_F_MEM_TOTAL, GT_F_MEM_USED,
	                                  GT_F_MEM_FREE, GT_F_MEM_VISIBLE_TOTAL,
	                                  GT_F_MEM_VISIBLE_USED};

	fail(&s->f[GT_F_MEM_RESERVED], GT_WHY_UNSUPPORTED_DEVICE);
	/* Usage changes: ask again on the slow cadence, and only where the
	 * answer can hold it (CAP_PERFMON). */
	if (slow && d->mem_rc == 0 && p->perfmon)
		query_memory(p, d);
	if (d->integrated) {
		for (size_t i = 0; i < sizeof(vram_fields) / sizeof(int); i++)
			fail(&s->f[vram_fields[i]], GT_WHY_UNSUPPORTED_DEVICE);
	} else if (d->mem_rc == 0) {
		enum gt_why no_used = GT_WHY_PERMISSION; /* CAP_PERFMON */
		gt_val_set(&s->f[GT_F_MEM_TOTAL], (int64_t)m->vram_total);
		if (m->used_known) {
			gt_val_set(&s->f[GT_F_MEM_USED], (int64_t)m->vram_used);
			gt_val_set(&s->f[GT_F_MEM_FREE],
			           (int64_t)(m->vram_total - m->vram_used));
		} else {
			fail(&s->f[GT_F_MEM_USED], no_used);
			fail(&s->f[GT_F_MEM_FREE], no_used);
		}
		if (m->vis_known) {
			gt_val_set(&s->f[GT_F_MEM_VISIBLE_TOTAL],
			           (int64_t)m->vis_total);
			if (m->used_known)
				gt_val_set(&s->f[GT_F_MEM_VISIBLE_USED],
				           (int64_t)m->vis_used);
			else
				fail(&s->f[GT_F_MEM_VISIBLE_USED], no_used);
		} else {
			fail(&s->f[GT_F_MEM_VISIBLE_TOTAL],
			     GT_WHY_UNSUPPORTED_DRIVER);
			fail(&s->f[GT_F_MEM_VISIBLE_USED],
			     GT_WHY_UNSUPPORTED_DRIVER);
		}
	} else {
		enum gt_why why = d->mem_rc == -EACCES || d->mem_rc == -EPERM
		                      ? GT_WHY_PERMISSION
		                      : GT_WHY_NO_SENSOR;
		for (size_t i = 0; i < sizeof(vram_fields) / sizeof(int); i++)
			fail(&s->f[vram_fields[i]], why);
		if (xe_physical_vram(d, &total))
			gt_val_set(&s->f[GT_F_MEM_TOTAL], total);
	}
	/* xe's system region is its GTT manager; i915 does not track
	 * system memory use. */
	if (d->mem_rc == 0 && m->sys_known) {
		gt_val_set(&s->f[GT_F_GTT_TOTAL], (int64_t)m->sys_total);
		if (m->used_known)
			gt_val_set(&s->f[GT_F_GTT_USED], (int64_t)m->sys_used);
		else
			fail(&s->f[GT_F_GTT_USED], GT_WHY_PERMISSION);
	} else {
		fail(&s->f[GT_F_GTT_TOTAL], GT_WHY_NO_SENSOR);
		fail(&s->f[GT_F_GTT_USED], GT_WHY_NO_SENSOR);
	}
}

static void sample_util(struct intel_priv *p, struct intel_dev *d,
                        struct gt_sample *s)
{
	/* The sum of every client's engine time, from the fdinfo scanner's
	 * last process round: reading xe fdinfo wakes the card, so it only
	 * runs at the process cadence. */
	if (!d->xe && !p->i915_engine_stats) {
		/* Older i915 prints no engine time: the scanner's sum would
		 * read a false 0 %. */
		fail(&s->f[GT_F_UTIL_GPU], GT_WHY_UNSUPPORTED_DRIVER);
		fail(&s->f[GT_F_UTIL_ENC], GT_WHY_UNSUPPORTED_DRIVER);
		fail(&s->f[GT_F_UTIL_DEC], GT_WHY_UNSUPPORTED_DRIVER);
	} else if (p->fdinfo && d->drm.pdev[0]) {
		bool lower = false, media_lower = false;
		gt_fdinfo_device_busy(p->fdinfo, d->drm.pdev,
		                      &s->f[GT_F_UTIL_GPU], &lower);
		/* The video engines (vcs/vecs) both encode and decode. */
		gt_fdinfo_device_media(p->fdinfo, d->drm.pdev,
		                       &s->f[GT_F_UTIL_ENC],
		                       &s->f[GT_F_UTIL_DEC], &media_lower);
		/* A bound only on a value: with GPU % null (before the
		 * second process round) there is nothing to bound. */
		s->util_gpu_lower_bound =
		    gt_val_ok(&s->f[GT_F_UTIL_GPU]) && lower;
	} else {
		/* No scanner was started (a one-device test, or --list). */
		fail(&s->f[GT_F_UTIL_GPU], GT_WHY_NOT_COLLECTED);
		fail(&s->f[GT_F_UTIL_ENC], GT_WHY_NOT_COLLECTED);
		fail(&s->f[GT_F_UTIL_DEC], GT_WHY_NOT_COLLECTED);
	}
	/* Neither driver reports memory-controller busy time. */
	fail(&s->f[GT_F_UTIL_MEMBW], GT_WHY_NO_SENSOR);
}

static int intel_sample(struct gt_backend *b, unsigned dev, struct gt_sample *s,
                        int slow)
{
	struct intel_priv *p = b->priv;
	struct intel_dev *d = &p->devs[dev];
	struct stat sb;
	int changed = 0;

	if (stat(d->drm.devdir, &sb) != 0)
		return -1;
	if (gt_drmdev_is_suspended(&d->drm)) {
		/* Reading any attribute would wake it (and cost watts). */
		s->state = GT_DEV_ASLEEP;
		gt_sample_fail_all(s, GT_WHY_ASLEEP);
		d->asleep = true;
		return 0;
	}
	if (d->asleep || d->facts_stale) {
		changed = 1; /* woke up: the facts can be read now */
		d->asleep = false;
		d->slow_valid = false;
	}
	resolve(d);
	if (!d->slow_valid)
		slow = 1;

	sample_util(p, d, s);
	sample_clocks(d, s);
	sample_residency(d, s);
	sample_throttle(d, s);
	sample_power(d, s);
	sample_thermal(d, s);
	sample_memory(p, d, s, slow);
	if (slow) {
		read_link(d, p->root, "current_link_speed",
		          "current_link_width", &d->link_gen, &d->link_width);
		d->slow_valid = true;
	}
	s->f[GT_F_PCIE_GEN] = d->link_gen;
	s->f[GT_F_PCIE_WIDTH] = d->link_width;

	static const int absent[] = {GT_F_PCIE_TX,
	                             GT_F_PCIE_RX,
	                             GT_F_PSTATE,
	                             GT_F_ECC_CORRECTED_VOLATILE,
	                             GT_F_ECC_UNCORRECTED_VOLATILE,
	                             GT_F_ECC_CORRECTED_AGGREGATE,
	                             GT_F_ECC_UNCORRECTED_AGGREGATE};
	for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++)
		fail(&s->f[absent[i]], GT_WHY_UNSUPPORTED_DEVICE);
	gt_text_val_fail(&s->perf_level, GT_WHY_UNSUPPORTED_DEVICE);
	gt_text_val_fail(&s->power_profile, GT_WHY_UNSUPPORTED_DEVICE);
	return changed;
}

static int intel_processes(struct gt_backend *b, unsigned dev,
                           struct gt_proc_vec *out)
{
	struct intel_priv *p = b->priv;
	struct intel_dev *d = &p->devs[dev];
	if (p->fdinfo && d->drm.pdev[0])
		gt_fdinfo_processes(p->fdinfo, d->drm.pdev, out);
	return 0;
}

static void intel_shutdown(struct gt_backend *b)
{
	struct intel_priv *p = b->priv;
	if (!p)
		return;
	free(p->devs);
	free(p);
	b->priv = NULL;
}

const struct gt_backend_ops gt_intel_backend = {
    .name = "intel",
    .uses_fdinfo = true,
    .probe = intel_probe,
    .get_static = intel_get_static,
    .sample = intel_sample,
    .processes = intel_processes,
    .error_text = gt_backend_errno_text,
    .shutdown = intel_shutdown,
};

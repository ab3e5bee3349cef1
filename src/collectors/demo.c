/* SPDX-License-Identifier: MIT */
/*
 * demo.c - the built-in simulated machine behind `gputop --demo` (and
 * `make run` on a host without a GPU): four GPUs of three vendors with
 * plausible facts, load, thermals and processes. This file is the backend;
 * the machine and its model are demo_model.c.
 *
 * The only state is a per-device sample counter and the energy accumulator
 * that integrates the simulated power, both in b->priv: everything else is
 * computed afresh from (seed, device, sample number), so a seed reproduces
 * a screen exactly. Simulated time: one sample is one second.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "collectors/registry.h"
#include "collectors/demo_priv.h"
#include "core/model.h"

struct demo_dev {
	uint64_t n;        /* samples taken so far */
	int64_t energy_mj; /* integral of the simulated power */
};

struct demo_priv {
	uint64_t seed;
	struct demo_dev dev[DEMO_NDEV];
};

static void demo_probe(struct gt_backend *b,
                       const struct gt_backend_options *opt)
{
	struct demo_priv *priv = calloc(1, sizeof(*priv));

	b->priv = priv;
	b->device_count = 0;
	if (!priv) {
		b->status = GT_BACKEND_ERROR;
		gt_copy_str(b->detail, sizeof(b->detail), "out of memory");
		return;
	}
	priv->seed = opt ? opt->demo_seed : 0;
	for (unsigned d = 0; d < DEMO_NDEV; d++) {
		struct demo_ctx c = {priv->seed, d, &gt_demo_profiles[d]};
		/* The counter has run since the driver loaded, days ago. */
		priv->dev[d].energy_mj = demo_round(
		    3.0e8 + 4.0e10 * gt_demo_hash01(&c, CH_ENERGY, 0));
	}
	b->status = GT_BACKEND_OK;
	b->device_count = DEMO_NDEV;
	snprintf(b->detail, sizeof(b->detail),
	         "simulated machine (DEMO), seed %llu",
	         (unsigned long long)priv->seed);
}

static int demo_get_static(struct gt_backend *b, unsigned dev,
                           struct gt_static *out)
{
	if (!b->priv || dev >= DEMO_NDEV)
		return -1;
	const struct demo_profile *p = &gt_demo_profiles[dev];

	out->vendor = p->vendor;
	snprintf(out->id, sizeof(out->id), "pci:%.16s", p->bus);
	gt_copy_str(out->pci_bus_id, sizeof(out->pci_bus_id), p->bus);
	gt_copy_str(out->name, sizeof(out->name), p->name);
	gt_copy_str(out->uuid, sizeof(out->uuid), p->uuid);
	gt_copy_str(out->serial, sizeof(out->serial), p->serial);
	gt_copy_str(out->driver, sizeof(out->driver), p->driver);
	gt_copy_str(out->driver_version, sizeof(out->driver_version),
	            p->driver_version);
	gt_copy_str(out->architecture, sizeof(out->architecture), p->arch);
	gt_copy_str(out->vbios, sizeof(out->vbios), p->vbios);
	out->pci_vendor_id = p->vid;
	out->pci_device_id = p->did;
	out->pci_subsystem_id = p->subsys;
	out->integrated = p->integrated;
	out->demo = true;
	for (int i = 0; i < GT_S__COUNT; i++) {
		if (p->s_na & NA_S(i))
			gt_val_fail(&out->f[i], GT_WHY_UNSUPPORTED_DEVICE, 0);
		else
			gt_val_set(&out->f[i], p->s[i]);
	}
	return 0;
}

/* The simulated values of one sample, by field, before the ones a profile
 * lacks are marked; t is the sample number, u the utilisation and draw the
 * power (mW) at t. */
struct demo_tick {
	const struct demo_ctx *c;
	const struct demo_profile *p;
	int64_t t;
	double u;
	int64_t draw;
	bool capped, busy;
	int64_t v[GT_F_FAN_PERCENT0];
};

/* Engines and memory: the processes' sum, plus the driver's overhead. */
static void sim_load(struct demo_tick *k)
{
	const struct demo_profile *p = k->p;
	int64_t *v = k->v;

	v[GT_F_UTIL_GPU] = demo_round(k->u * 10000.0);
	v[GT_F_UTIL_MEMBW] =
	    demo_round(10000.0 * k->u * p->membw_gain *
	               (0.8 + 0.3 * gt_demo_smooth(k->c, CH_MEMBW, k->t, 6)));
	for (unsigned i = 0; i < p->nprocs; i++) {
		v[GT_F_UTIL_ENC] +=
		    gt_demo_proc_engine(k->c, i, 2, p->procs[i].enc, k->t);
		v[GT_F_UTIL_DEC] +=
		    gt_demo_proc_engine(k->c, i, 3, p->procs[i].dec, k->t);
		v[GT_F_MEM_USED] += gt_demo_proc_mem(k->c, i, k->t);
	}
	if (v[GT_F_UTIL_ENC] > 10000)
		v[GT_F_UTIL_ENC] = 10000;
	if (v[GT_F_UTIL_DEC] > 10000)
		v[GT_F_UTIL_DEC] = 10000;
	v[GT_F_MEM_USED] += p->overhead;
	v[GT_F_MEM_TOTAL] = p->s[GT_S_VRAM_TOTAL];
	v[GT_F_MEM_RESERVED] = p->reserved;
	v[GT_F_MEM_FREE] = v[GT_F_MEM_TOTAL] - v[GT_F_MEM_USED] - p->reserved;
}

/* Temperatures follow the lagged power; power and energy. */
static void sim_thermal(struct demo_tick *k, struct demo_dev *dd)
{
	const struct demo_profile *p = k->p;
	int64_t *v = k->v;

	double edge = (double)p->ambient_mc +
	              (double)p->mc_per_w * gt_demo_power_lagged_w(k->c, k->t) +
	              600.0 * (gt_demo_smooth(k->c, CH_TEMP, k->t, 7) - 0.5);
	v[GT_F_TEMP_GPU] = gt_demo_whole_degrees(edge);
	v[GT_F_TEMP_HOTSPOT] = gt_demo_whole_degrees(
	    edge + (double)p->hot_mc +
	    (double)p->hot_mc_per_w * (double)k->draw / 1000.0);
	v[GT_F_TEMP_MEM] = gt_demo_whole_degrees(
	    edge + (double)p->mem_mc +
	    1500.0 * (gt_demo_smooth(k->c, CH_MEMTEMP, k->t, 11) - 0.5));

	v[GT_F_POWER_DRAW] = k->draw;
	v[GT_F_POWER_LIMIT] = gt_demo_power_limit(p);
	v[GT_F_POWER_ENFORCED] = gt_demo_power_limit(p);
	dd->energy_mj += k->draw; /* mW over one simulated second */
	v[GT_F_ENERGY] = dd->energy_mj;
	v[GT_F_PSTATE] = k->busy ? 0 : 8;
}

/* Clocks (pulled down by the power cap) and the PCIe link. */
static void sim_clocks(struct demo_tick *k)
{
	const struct demo_profile *p = k->p;
	int64_t *v = k->v;

	int64_t gmax = p->s[GT_S_CLK_GRAPHICS_MAX];
	double gf = p->vendor == GT_VENDOR_NVIDIA
	                ? 1.0
	                : 0.9 + 0.1 * gt_demo_smooth(k->c, CH_CLK, k->t, 4);
	if (k->capped) /* the power cap pulls the clocks down */
		gf = 0.88 + 0.07 * gt_demo_hash01(k->c, CH_CLK, k->t);
	v[GT_F_CLK_GRAPHICS] = k->busy
	                           ? demo_round((double)gmax * gf / 15.0) * 15
	                           : p->clk_gfx_idle;
	if (v[GT_F_CLK_GRAPHICS] > gmax)
		v[GT_F_CLK_GRAPHICS] = gmax;
	v[GT_F_CLK_SM] = v[GT_F_CLK_GRAPHICS];
	v[GT_F_CLK_MEM] = k->busy ? p->s[GT_S_CLK_MEM_MAX] : p->clk_mem_idle;
	v[GT_F_CLK_VIDEO] =
	    k->busy ? p->s[GT_S_CLK_VIDEO_MAX] : p->s[GT_S_CLK_VIDEO_MAX] / 3;

	v[GT_F_PCIE_GEN] = p->s[GT_S_PCIE_MAX_GEN];
	v[GT_F_PCIE_WIDTH] = p->s[GT_S_PCIE_MAX_WIDTH];
	/* NVML reports whole KiB/s. */
	v[GT_F_PCIE_RX] =
	    demo_round((double)p->rx_peak * k->u *
	               gt_demo_smooth(k->c, CH_PCIE_RX, k->t, 3) / 1024.0) *
	    1024;
	v[GT_F_PCIE_TX] =
	    demo_round((double)p->tx_peak * k->u *
	               gt_demo_smooth(k->c, CH_PCIE_TX, k->t, 3) / 1024.0) *
	    1024;
}

/* Throttling, ECC, the BAR and GTT, the clock limits and idle residency. */
static void sim_rest(struct demo_tick *k)
{
	const struct demo_profile *p = k->p;
	int64_t *v = k->v;

	v[GT_F_THROTTLE] =
	    (k->capped ? GT_THR_SW_POWER_CAP : 0) | (k->busy ? 0 : GT_THR_IDLE);

	/* A healthy HBM part: one corrected error every half hour or so. */
	int64_t period =
	    1200 + demo_round(2400.0 * gt_demo_hash01(k->c, CH_ECC, 0));
	v[GT_F_ECC_CORRECTED_VOLATILE] =
	    (k->t +
	     demo_round((double)period * gt_demo_hash01(k->c, CH_ECC, 1))) /
	    period;
	v[GT_F_ECC_CORRECTED_AGGREGATE] =
	    p->ecc_history + v[GT_F_ECC_CORRECTED_VOLATILE];

	/* The whole VRAM is CPU-visible with a resizable BAR; the H100
	 * maps a fixed 128 GiB window. */
	bool nv = p->vendor == GT_VENDOR_NVIDIA;
	v[GT_F_MEM_VISIBLE_TOTAL] = nv ? 128 * GIB : v[GT_F_MEM_TOTAL];
	v[GT_F_MEM_VISIBLE_USED] = nv ? 48 * MIB : v[GT_F_MEM_USED] / 2;
	/* An APU keeps most of its working set in GTT. */
	v[GT_F_GTT_TOTAL] = p->integrated ? 15 * GIB : 16 * GIB;
	v[GT_F_GTT_USED] = p->integrated ? v[GT_F_MEM_USED] * 5 : 310 * MIB;
	v[GT_F_CLK_GRAPHICS_REQUESTED] =
	    k->busy ? v[GT_F_CLK_GRAPHICS] + 50 : p->clk_gfx_idle;
	v[GT_F_CLK_GRAPHICS_MIN_LIMIT] = p->clk_gfx_idle;
	v[GT_F_CLK_GRAPHICS_MAX_LIMIT] = p->s[GT_S_CLK_GRAPHICS_MAX];
	v[GT_F_IDLE_RESIDENCY] = 10000 - v[GT_F_UTIL_GPU];
}

/* The fans follow the (already lagging) temperature; the second one runs
 * a touch off the first as real pairs do. */
static void put_fans(const struct demo_tick *k, struct gt_sample *out)
{
	const struct demo_profile *p = k->p;

	out->fan_count = (uint8_t)p->s[GT_S_FAN_COUNT];
	for (unsigned i = 0; i < out->fan_count && i < GT_MAX_FANS; i++) {
		int64_t pct = gt_demo_fan_percent(p, k->v[GT_F_TEMP_GPU]);
		if (pct > 0)
			pct += demo_round(120.0 * i -
			                  60.0 * gt_demo_smooth(k->c,
			                                        CH_FAN + 16 * i,
			                                        k->t, 5));
		if (pct < 0)
			pct = 0;
		if (pct > 10000)
			pct = 10000;
		int64_t rpm = pct * p->fan_rpm_max / 10000;
		if (p->fan_pct_na)
			gt_val_fail(&out->f[GT_F_FAN_PERCENT0 + i],
			            GT_WHY_UNSUPPORTED_DEVICE, 0);
		else
			gt_val_set(&out->f[GT_F_FAN_PERCENT0 + i], pct);
		gt_val_set(&out->f[GT_F_FAN_RPM0 + i], rpm);
	}
}

static int demo_sample(struct gt_backend *b, unsigned dev,
                       struct gt_sample *out, int slow)
{
	struct demo_priv *priv = b->priv;
	(void)slow; /* nothing here is costly */
	if (!priv || dev >= DEMO_NDEV)
		return -1;

	struct demo_dev *dd = &priv->dev[dev];
	const struct demo_profile *p = &gt_demo_profiles[dev];
	const struct demo_ctx c = {priv->seed, dev, p};
	struct demo_tick k = {.c = &c, .p = p, .t = (int64_t)dd->n++};

	k.u = gt_demo_util_at(&c, k.t);
	k.draw = gt_demo_power_at(&c, k.t, &k.capped);
	k.busy = k.u >= 0.05;
	sim_load(&k);
	sim_thermal(&k, dd);
	sim_clocks(&k);
	sim_rest(&k);

	if (p->vendor == GT_VENDOR_AMD) {
		gt_text_val_set(&out->perf_level, "auto");
		gt_text_val_set(&out->power_profile, p->integrated
		                                         ? "BOOTUP_DEFAULT"
		                                         : "3D_FULL_SCREEN");
	} else {
		gt_text_val_fail(&out->perf_level, GT_WHY_UNSUPPORTED_DEVICE);
		gt_text_val_fail(&out->power_profile,
		                 GT_WHY_UNSUPPORTED_DEVICE);
	}
	for (int i = 0; i < GT_F_FAN_PERCENT0; i++) {
		if (p->f_na & NA_F(i))
			gt_val_fail(&out->f[i], GT_WHY_UNSUPPORTED_DEVICE, 0);
		else
			gt_val_set(&out->f[i], k.v[i]);
	}
	out->state = GT_DEV_OK;
	put_fans(&k, out);
	return 0;
}

static int demo_processes(struct gt_backend *b, unsigned dev,
                          struct gt_proc_vec *out)
{
	struct demo_priv *priv = b->priv;
	if (!priv || dev >= DEMO_NDEV)
		return -1;

	const struct demo_profile *p = &gt_demo_profiles[dev];
	const struct demo_ctx c = {priv->seed, dev, p};
	/* The list describes the moment of the latest sample. */
	const int64_t t = priv->dev[dev].n ? (int64_t)priv->dev[dev].n - 1 : 0;
	double u = gt_demo_util_at(&c, t);

	for (unsigned i = 0; i < p->nprocs; i++) {
		const struct demo_proc *pr = &p->procs[i];
		struct gt_process *q = gt_proc_vec_push(out);
		if (!q)
			return 0; /* out of memory: a short list, not a lost
			             device */
		q->pid = pr->pid;
		q->uid = pr->uid;
		q->type = pr->type;
		q->host_known = true;
		gt_copy_str(q->user, sizeof(q->user), pr->user);
		gt_copy_str(q->name, sizeof(q->name), pr->name);
		gt_copy_str(q->container, sizeof(q->container), pr->container);
		q->cmdline = strdup(pr->cmdline);
		gt_val_set(&q->f[GT_P_GPU],
		           demo_round(10000.0 * u * pr->gpu_share *
		                      (0.9 + 0.1 * gt_demo_smooth(
		                                       &c, CH_PROC + 8 * i + 1,
		                                       t, 6))));
		gt_val_set(&q->f[GT_P_MEM], gt_demo_proc_mem(&c, i, t));
		if (p->vendor == GT_VENDOR_AMD)
			gt_val_set(&q->f[GT_P_GTT],
			           gt_demo_proc_mem(&c, i, t) / 16);
		else
			gt_val_fail(&q->f[GT_P_GTT], GT_WHY_UNSUPPORTED_DEVICE,
			            0);
		gt_val_set(&q->f[GT_P_ENC],
		           gt_demo_proc_engine(&c, i, 2, pr->enc, t));
		gt_val_set(&q->f[GT_P_DEC],
		           gt_demo_proc_engine(&c, i, 3, pr->dec, t));
		gt_val_set(&q->f[GT_P_CPU],
		           demo_round(pr->cpu *
		                      (0.8 + 0.4 * gt_demo_smooth(
		                                       &c, CH_PROC + 8 * i + 4,
		                                       t, 5))));
		gt_val_set(
		    &q->f[GT_P_HOST_MEM],
		    demo_round(
		        (double)pr->host_mem *
		        (0.97 + 0.06 * gt_demo_smooth(&c, CH_PROC + 8 * i + 5,
		                                      t, 30)) /
		        4096.0) *
		        4096);
	}
	return 0;
}

static const char *demo_error_text(struct gt_backend *b, int code)
{
	(void)b;
	(void)code;
	return NULL;
}

static void demo_shutdown(struct gt_backend *b)
{
	free(b->priv);
	b->priv = NULL;
}

const struct gt_backend_ops gt_demo_backend = {
    .name = "demo",
    .probe = demo_probe,
    .get_static = demo_get_static,
    .sample = demo_sample,
    .processes = demo_processes,
    .error_text = demo_error_text,
    .shutdown = demo_shutdown,
};

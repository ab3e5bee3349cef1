/* SPDX-License-Identifier: MIT */
/*
 * demo_priv.h - shared by the demo backend's two files: demo_model.c (the
 * simulated machine and its deterministic model) and demo.c (the backend
 * that turns the model into statics, samples and processes). Not for use
 * outside src/collectors/demo*.c.
 */
#ifndef GPUTOP_DEMO_PRIV_H
#define GPUTOP_DEMO_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "core/model.h"

#define MIB            (INT64_C(1) << 20)
#define GIB            (INT64_C(1) << 30)
#define DEMO_MAX_PROCS 6
#define NA_S(f)        (UINT32_C(1) << (f))
#define NA_F(f)        (UINT64_C(1) << (f))

_Static_assert(GT_S__COUNT <= 32, "s_na is a 32-bit mask");
_Static_assert(GT_F_FAN_PERCENT0 <= 64, "f_na is a 64-bit mask");

enum demo_load { LOAD_TRAINING, LOAD_GAMING, LOAD_TRANSCODE, LOAD_DESKTOP };

/* Noise channels: each dynamic quantity draws from its own stream so that
 * changing one model does not shift the others. */
enum demo_chan {
	CH_UTIL = 1,
	CH_DIP,
	CH_WAVE,
	CH_POWER,
	CH_CAP,
	CH_MEMBW,
	CH_PCIE_RX,
	CH_PCIE_TX,
	CH_TEMP,
	CH_MEMTEMP,
	CH_FAN,
	CH_CLK,
	CH_ECC,
	CH_ENERGY,
	CH_PROC = 64, /* + 8 * process index + sub-channel */
};

struct demo_proc {
	int32_t pid;
	uint32_t uid;
	const char *user, *name, *cmdline, *container;
	uint8_t type;           /* enum gt_proc_type */
	int64_t mem, mem_swing; /* GPU memory, and its slow drift */
	double gpu_share;       /* part of the device utilisation it causes */
	int32_t enc, dec;       /* cpercent of the media engines while active */
	int32_t cpu;            /* cpercent of one core */
	int64_t host_mem;
};

struct demo_profile {
	enum gt_vendor vendor;
	const char *name, *bus, *uuid, *serial, *driver, *driver_version, *arch,
	    *vbios;
	uint16_t vid, did;
	uint32_t subsys;
	bool integrated;
	int64_t s[GT_S__COUNT];
	uint32_t s_na;   /* static facts this device cannot give */
	uint64_t f_na;   /* sample fields (below the fans) it cannot give */
	bool fan_pct_na; /* fans report rpm only */
	enum demo_load load;
	int64_t idle_mw, full_mw;     /* power demand at 0 % and 100 % busy */
	int64_t ambient_mc, mc_per_w; /* edge temperature over ambient */
	int64_t hot_mc, hot_mc_per_w, mem_mc; /* hotspot/memory over edge */
	int64_t fan_on_mc, fan_min_cp, fan_rpm_max;
	int64_t clk_gfx_idle, clk_mem_idle;
	int64_t reserved, overhead; /* driver memory outside the processes */
	int64_t rx_peak, tx_peak;   /* PCIe bytes/s at full load */
	double membw_gain;
	int64_t ecc_history; /* corrected errors from before this boot */
	unsigned nprocs;
	struct demo_proc procs[DEMO_MAX_PROCS];
};

/* A constant, not sizeof(gt_demo_profiles): demo.c sizes arrays with it, and
 * demo_model.c checks it against the table. */
#define DEMO_NDEV 4u

/* Defined, and explained, in demo_model.c. */
extern const struct demo_profile gt_demo_profiles[];

/* Everything one evaluation needs: a value depends on nothing else. */
struct demo_ctx {
	uint64_t seed;
	unsigned dev;
	const struct demo_profile *p;
};

/* Defined, and explained, in demo_model.c. */
double gt_demo_hash01(const struct demo_ctx *c, unsigned chan, int64_t k);
double gt_demo_smooth(const struct demo_ctx *c, unsigned chan, int64_t t,
                      int64_t period);
double gt_demo_util_at(const struct demo_ctx *c, int64_t t);
int64_t gt_demo_power_limit(const struct demo_profile *p);
int64_t gt_demo_power_at(const struct demo_ctx *c, int64_t t, bool *capped);
double gt_demo_power_lagged_w(const struct demo_ctx *c, int64_t t);
int64_t gt_demo_whole_degrees(double mc);
int64_t gt_demo_proc_mem(const struct demo_ctx *c, unsigned i, int64_t t);
int64_t gt_demo_proc_engine(const struct demo_ctx *c, unsigned i, unsigned sub,
                            int32_t level, int64_t t);
int64_t gt_demo_fan_percent(const struct demo_profile *p, int64_t temp_mc);

static inline int64_t demo_round(double x)
{
	return (int64_t)(x < 0 ? x - 0.5 : x + 0.5);
}

#endif

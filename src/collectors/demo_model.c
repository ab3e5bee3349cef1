/* SPDX-License-Identifier: MIT */
/*
 * demo_model.c - the simulated machine behind demo.c: what each of its
 * GPUs is (the profiles) and how it behaves (noise channels, and the
 * utilisation, power, temperature, fan and process models).
 *
 * Every value is a pure function of (seed, device, sample number). No wall
 * clock, no rand(), so a seed reproduces a screen exactly (tests,
 * screenshots, bug reports). Simulated time: one sample is one second.
 */
#include <stdbool.h>
#include <stdint.h>

#include "collectors/demo_priv.h"
#include "core/model.h"

#define ECC_FIELDS                                                             \
	(NA_F(GT_F_ECC_CORRECTED_VOLATILE) |                                   \
	 NA_F(GT_F_ECC_UNCORRECTED_VOLATILE) |                                 \
	 NA_F(GT_F_ECC_CORRECTED_AGGREGATE) |                                  \
	 NA_F(GT_F_ECC_UNCORRECTED_AGGREGATE))

/* Sysfs-only concepts: GTT is AMD's (and the integrated part's) system
 * memory window; requested frequency, the allowed range and idle
 * residency are what Intel's driver exposes. */
#define AMD_INTEL_ONLY (NA_F(GT_F_GTT_TOTAL) | NA_F(GT_F_GTT_USED))
#define INTEL_ONLY                                                             \
	(NA_F(GT_F_CLK_GRAPHICS_REQUESTED) |                                   \
	 NA_F(GT_F_CLK_GRAPHICS_MIN_LIMIT) |                                   \
	 NA_F(GT_F_CLK_GRAPHICS_MAX_LIMIT) | NA_F(GT_F_IDLE_RESIDENCY))

const struct demo_profile gt_demo_profiles[] = {
    {
        .vendor = GT_VENDOR_NVIDIA,
        .name = "NVIDIA H100 80GB HBM3",
        .bus = "0000:18:00.0",
        .uuid = "GPU-5b3c9e2a-71d4-4f08-9a6e-2c1d8f7b4e90",
        .serial = "1654923041187",
        .driver = "nvidia",
        .driver_version = "590.48.01",
        .arch = "Hopper",
        .vbios = "96.00.A5.00.01",
        .vid = 0x10DE,
        .did = 0x2330,
        .subsys = 0x16C110DE,
        .s =
            {
                [GT_S_VRAM_TOTAL] = 81559 * MIB,
                [GT_S_POWER_MIN] = 200000,
                [GT_S_POWER_MAX] = 700000,
                [GT_S_POWER_DEFAULT] = 700000,
                [GT_S_TEMP_SLOWDOWN] = 89000,
                [GT_S_TEMP_SHUTDOWN] = 92000,
                [GT_S_TEMP_GPU_MAX] = 87000,
                [GT_S_TEMP_MEM_MAX] = 95000,
                [GT_S_CLK_GRAPHICS_MAX] = 1980,
                [GT_S_CLK_SM_MAX] = 1980,
                [GT_S_CLK_MEM_MAX] = 2619,
                [GT_S_CLK_VIDEO_MAX] = 1545,
                [GT_S_PCIE_MAX_GEN] = 5,
                [GT_S_PCIE_MAX_WIDTH] = 16,
                [GT_S_FAN_COUNT] = 0,
                [GT_S_CC_MAJOR] = 9,
                [GT_S_CC_MINOR] = 0,
                [GT_S_MIG_MODE] = 0,
                [GT_S_ECC_MODE] = 1,
            },
        .s_na = NA_S(GT_S_FAN_MIN_PERCENT) | NA_S(GT_S_FAN_MAX_PERCENT) |
                NA_S(GT_S_TEMP_HOTSPOT_SHUTDOWN) | NA_S(GT_S_TEMP_MEM_SHUTDOWN),
        .f_na = NA_F(GT_F_TEMP_HOTSPOT) | AMD_INTEL_ONLY | INTEL_ONLY,
        .load = LOAD_TRAINING,
        .idle_mw = 72000,
        .full_mw = 700000,
        .ambient_mc = 27000,
        .mc_per_w = 50,
        .mem_mc = -3000,
        .clk_gfx_idle = 345,
        .clk_mem_idle = 2619,
        .reserved = 479 * MIB,
        .overhead = 1536 * MIB,
        .rx_peak = INT64_C(5800000000),
        .tx_peak = INT64_C(900000000),
        .membw_gain = 0.55,
        .ecc_history = 14,
        .nprocs = 4,
        .procs =
            {
                {48213, 1001, "mlops", "python3",
                 "python3 train.py --model llama-3-8b --rank 0 --bf16 "
                 "--grad-accum 4",
                 "docker:3f2a9c1b7d10", GT_PROC_COMPUTE, 57344 * MIB,
                 1024 * MIB, 0.88, 0, 0, 11800, 22 * GIB},
                {49102, 1001, "mlops", "tritonserver",
                 "tritonserver --model-repository=/models --http-port 8000",
                 "docker:8e41d07c2b55", GT_PROC_COMPUTE, 4096 * MIB, 128 * MIB,
                 0.02, 0, 600, 900, 2 * GIB},
                {51877, 1004, "alice", "python3",
                 "python3 eval.py --ckpt /ckpt/llama-3-8b/step-12000 --batch 8",
                 "", GT_PROC_COMPUTE, 9216 * MIB, 512 * MIB, 0.07, 0, 0, 9500,
                 7 * GIB},
                {52230, 1004, "alice", "python3",
                 "python3 -m ipykernel_launcher -f "
                 "/home/alice/.local/share/jupyter/runtime/kernel-7c1e.json",
                 "", GT_PROC_COMPUTE, 2560 * MIB, 256 * MIB, 0.02, 0, 0, 300,
                 3 * GIB},
            },
    },
    {
        .vendor = GT_VENDOR_AMD,
        .name = "AMD Radeon RX 7900 XTX",
        .bus = "0000:03:00.0",
        .uuid = "",
        .serial = "",
        .driver = "amdgpu",
        .driver_version = "6.12.10",
        .arch = "RDNA3",
        .vbios = "113-D70401XT-N11",
        .vid = 0x1002,
        .did = 0x744C,
        .subsys = 0x1DA2E471,
        .s =
            {
                [GT_S_VRAM_TOTAL] = 24560 * MIB,
                [GT_S_POWER_MIN] = 261000,
                [GT_S_POWER_MAX] = 333000,
                [GT_S_POWER_DEFAULT] = 290000,
                [GT_S_TEMP_SLOWDOWN] = 100000,
                [GT_S_TEMP_SHUTDOWN] = 105000,
                [GT_S_TEMP_GPU_MAX] = 110000,
                [GT_S_TEMP_HOTSPOT_SHUTDOWN] = 115000,
                [GT_S_TEMP_MEM_MAX] = 108000,
                [GT_S_TEMP_MEM_SHUTDOWN] = 113000,
                [GT_S_CLK_GRAPHICS_MAX] = 2500,
                [GT_S_CLK_MEM_MAX] = 1250,
                [GT_S_CLK_VIDEO_MAX] = 1400,
                [GT_S_PCIE_MAX_GEN] = 4,
                [GT_S_PCIE_MAX_WIDTH] = 16,
                [GT_S_FAN_COUNT] = 2,
                [GT_S_FAN_MIN_PERCENT] = 1500,
                [GT_S_FAN_MAX_PERCENT] = 10000,
            },
        .s_na = NA_S(GT_S_CLK_SM_MAX) | NA_S(GT_S_CC_MAJOR) |
                NA_S(GT_S_CC_MINOR) | NA_S(GT_S_MIG_MODE) | NA_S(GT_S_ECC_MODE),
        .f_na = NA_F(GT_F_CLK_SM) | NA_F(GT_F_MEM_RESERVED) |
                NA_F(GT_F_PSTATE) | ECC_FIELDS | INTEL_ONLY,
        .load = LOAD_GAMING,
        .idle_mw = 19000,
        .full_mw = 318000,
        .ambient_mc = 31000,
        .mc_per_w = 140,
        .hot_mc = 4000,
        .hot_mc_per_w = 45,
        .mem_mc = 6000,
        .fan_on_mc = 55000,
        .fan_min_cp = 2500,
        .fan_rpm_max = 3200,
        .clk_gfx_idle = 31,
        .clk_mem_idle = 96,
        .overhead = 420 * MIB,
        .rx_peak = INT64_C(1200000000),
        .tx_peak = INT64_C(350000000),
        .membw_gain = 0.75,
        .nprocs = 4,
        .procs =
            {
                {1423, 0, "root", "Xorg",
                 "/usr/lib/Xorg :0 -seat seat0 -auth /run/lightdm/root/:0 "
                 "-nolisten tcp vt7 -novtswitch",
                 "", GT_PROC_GRAPHICS, 312 * MIB, 24 * MIB, 0.02, 0, 0, 350,
                 180 * MIB},
                {20571, 1000, "dana", "steam",
                 "/home/dana/.local/share/Steam/ubuntu12_32/steam "
                 "-srt-logger-opened",
                 "", GT_PROC_GRAPHICS, 188 * MIB, 16 * MIB, 0.01, 0, 0, 120,
                 410 * MIB},
                {22980, 1000, "dana", "Cyberpunk2077.exe",
                 "Z:\\home\\dana\\Games\\Cyberpunk "
                 "2077\\bin\\x64\\Cyberpunk2077.exe --launcher-skip",
                 "", GT_PROC_GRAPHICS, 11264 * MIB, 1536 * MIB, 0.86, 0, 0,
                 34000, 9 * GIB},
                {21544, 1000, "dana", "obs",
                 "obs --startreplaybuffer --profile 1440p-hevc", "",
                 GT_PROC_BOTH, 640 * MIB, 48 * MIB, 0.04, 2200, 0, 1100,
                 820 * MIB},
            },
    },
    {
        .vendor = GT_VENDOR_INTEL,
        .name = "Intel Arc A770 Graphics",
        .bus = "0000:0b:00.0",
        .uuid = "",
        .serial = "",
        .driver = "xe",
        .driver_version = "6.12.10",
        .arch = "Xe-HPG",
        .vbios = "",
        .vid = 0x8086,
        .did = 0x56A0,
        .subsys = 0x80861020,
        .s =
            {
                [GT_S_VRAM_TOTAL] = 16384 * MIB,
                [GT_S_POWER_DEFAULT] = 190000,
                [GT_S_CLK_GRAPHICS_MAX] = 2400,
                [GT_S_PCIE_MAX_GEN] = 4,
                [GT_S_PCIE_MAX_WIDTH] = 16,
                [GT_S_FAN_COUNT] = 2,
            },
        .s_na = NA_S(GT_S_POWER_MIN) | NA_S(GT_S_POWER_MAX) |
                NA_S(GT_S_TEMP_SLOWDOWN) | NA_S(GT_S_TEMP_SHUTDOWN) |
                NA_S(GT_S_TEMP_GPU_MAX) | NA_S(GT_S_TEMP_MEM_MAX) |
                NA_S(GT_S_TEMP_HOTSPOT_SHUTDOWN) |
                NA_S(GT_S_TEMP_MEM_SHUTDOWN) | NA_S(GT_S_CLK_SM_MAX) |
                NA_S(GT_S_CLK_MEM_MAX) | NA_S(GT_S_CLK_VIDEO_MAX) |
                NA_S(GT_S_FAN_MIN_PERCENT) | NA_S(GT_S_FAN_MAX_PERCENT) |
                NA_S(GT_S_CC_MAJOR) | NA_S(GT_S_CC_MINOR) |
                NA_S(GT_S_MIG_MODE) | NA_S(GT_S_ECC_MODE),
        .f_na = NA_F(GT_F_UTIL_MEMBW) | NA_F(GT_F_MEM_RESERVED) |
                NA_F(GT_F_TEMP_HOTSPOT) | NA_F(GT_F_PSTATE) |
                NA_F(GT_F_CLK_SM) | NA_F(GT_F_CLK_MEM) | NA_F(GT_F_CLK_VIDEO) |
                NA_F(GT_F_PCIE_TX) | NA_F(GT_F_PCIE_RX) | ECC_FIELDS |
                NA_F(GT_F_GTT_TOTAL) | NA_F(GT_F_GTT_USED),
        .fan_pct_na = true,
        .load = LOAD_TRANSCODE,
        .idle_mw = 36000,
        .full_mw = 205000,
        .ambient_mc = 30000,
        .mc_per_w = 250,
        .mem_mc = 5000,
        .fan_on_mc = 0,
        .fan_min_cp = 2800,
        .fan_rpm_max = 3000,
        .clk_gfx_idle = 600,
        .overhead = 280 * MIB,
        .nprocs = 3,
        .procs =
            {
                {30125, 997, "jellyfin", "ffmpeg",
                 "ffmpeg -hwaccel qsv -c:v h264_qsv -i /media/in/ep01.mp4 -c:v "
                 "hevc_qsv -b:v 6M /media/out/ep01.mkv",
                 "docker:a1c94e0f5b23", GT_PROC_COMPUTE, 612 * MIB, 40 * MIB,
                 0.45, 3100, 2600, 6500, 310 * MIB},
                {30377, 997, "jellyfin", "ffmpeg",
                 "ffmpeg -hwaccel qsv -c:v hevc_qsv -i "
                 "/media/in/concert-4k.mkv -vf scale_qsv=1920:1080 -c:v "
                 "av1_qsv -preset slower /media/out/concert.mkv",
                 "docker:a1c94e0f5b23", GT_PROC_COMPUTE, 1180 * MIB, 72 * MIB,
                 0.50, 2400, 3300, 8200, 520 * MIB},
                {29802, 997, "jellyfin", "jellyfin",
                 "/usr/lib/jellyfin/bin/jellyfin --datadir /var/lib/jellyfin "
                 "--ffmpeg /usr/lib/jellyfin-ffmpeg/ffmpeg",
                 "docker:a1c94e0f5b23", GT_PROC_COMPUTE, 36 * MIB, 4 * MIB, 0.0,
                 0, 0, 250, 610 * MIB},
            },
    },
    {
        .vendor = GT_VENDOR_AMD,
        .name = "AMD Radeon 780M Graphics",
        .bus = "0000:c4:00.0",
        .uuid = "",
        .serial = "",
        .driver = "amdgpu",
        .driver_version = "6.12.10",
        .arch = "RDNA3",
        .vbios = "113-PHXGENERIC-001",
        .vid = 0x1002,
        .did = 0x15BF,
        .subsys = 0x17AA50DA,
        .integrated = true,
        .s =
            {
                [GT_S_VRAM_TOTAL] = 512 * MIB,
                [GT_S_CLK_GRAPHICS_MAX] = 2700,
                [GT_S_CLK_MEM_MAX] = 800,
                [GT_S_FAN_COUNT] = 0,
            },
        .s_na = NA_S(GT_S_POWER_MIN) | NA_S(GT_S_POWER_MAX) |
                NA_S(GT_S_POWER_DEFAULT) | NA_S(GT_S_TEMP_SLOWDOWN) |
                NA_S(GT_S_TEMP_SHUTDOWN) | NA_S(GT_S_TEMP_GPU_MAX) |
                NA_S(GT_S_TEMP_MEM_MAX) | NA_S(GT_S_CLK_SM_MAX) |
                NA_S(GT_S_TEMP_HOTSPOT_SHUTDOWN) |
                NA_S(GT_S_TEMP_MEM_SHUTDOWN) | NA_S(GT_S_CLK_VIDEO_MAX) |
                NA_S(GT_S_PCIE_MAX_GEN) | NA_S(GT_S_PCIE_MAX_WIDTH) |
                NA_S(GT_S_FAN_MIN_PERCENT) | NA_S(GT_S_FAN_MAX_PERCENT) |
                NA_S(GT_S_CC_MAJOR) | NA_S(GT_S_CC_MINOR) |
                NA_S(GT_S_MIG_MODE) | NA_S(GT_S_ECC_MODE),
        .f_na = NA_F(GT_F_UTIL_MEMBW) | NA_F(GT_F_UTIL_ENC) |
                NA_F(GT_F_UTIL_DEC) | NA_F(GT_F_MEM_RESERVED) |
                NA_F(GT_F_TEMP_HOTSPOT) | NA_F(GT_F_TEMP_MEM) | INTEL_ONLY |
                NA_F(GT_F_MEM_VISIBLE_TOTAL) | NA_F(GT_F_MEM_VISIBLE_USED) |
                NA_F(GT_F_POWER_LIMIT) | NA_F(GT_F_POWER_ENFORCED) |
                NA_F(GT_F_ENERGY) | NA_F(GT_F_PSTATE) | NA_F(GT_F_CLK_SM) |
                NA_F(GT_F_CLK_VIDEO) | NA_F(GT_F_PCIE_GEN) |
                NA_F(GT_F_PCIE_WIDTH) | NA_F(GT_F_PCIE_TX) |
                NA_F(GT_F_PCIE_RX) | ECC_FIELDS,
        .load = LOAD_DESKTOP,
        .idle_mw = 2800,
        .full_mw = 29000,
        .ambient_mc = 38000,
        .mc_per_w = 900,
        .clk_gfx_idle = 800,
        .clk_mem_idle = 400,
        .overhead = 64 * MIB,
        .nprocs = 2,
        .procs =
            {
                {2104, 1000, "dana", "gnome-shell", "/usr/bin/gnome-shell",
                 "", GT_PROC_GRAPHICS, 118 * MIB, 12 * MIB, 0.45, 0, 0, 300,
                 290 * MIB},
                {4410, 1000, "dana", "firefox",
                 "/usr/lib/firefox/firefox -contentproc -childID 7 "
                 "-isForBrowser -prefsLen 31280 tab",
                 "", GT_PROC_GRAPHICS, 176 * MIB, 40 * MIB, 0.40, 0, 1800, 900,
                 640 * MIB},
            },
    },
};

_Static_assert(sizeof(gt_demo_profiles) / sizeof(gt_demo_profiles[0]) ==
                   DEMO_NDEV,
               "DEMO_NDEV must count gt_demo_profiles");

static uint64_t splitmix64(uint64_t x)
{
	x += UINT64_C(0x9e3779b97f4a7c15);
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

/* A uniform number in [0, 1) for (seed, device, channel, k). */
double gt_demo_hash01(const struct demo_ctx *c, unsigned chan, int64_t k)
{
	uint64_t key = ((uint64_t)c->dev << 48) ^ ((uint64_t)chan << 32);
	uint64_t h =
	    splitmix64(c->seed ^ splitmix64(key ^ splitmix64((uint64_t)k)));
	return (double)(h >> 11) * (1.0 / 9007199254740992.0);
}

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;
	return (a % b != 0 && a < 0) ? q - 1 : q;
}

static double smoothstep(double f)
{
	return f * f * (3.0 - 2.0 * f);
}

/* Value noise in [0, 1): random knots every period samples, eased between,
 * so a quantity drifts instead of jumping. */
double gt_demo_smooth(const struct demo_ctx *c, unsigned chan, int64_t t,
                      int64_t period)
{
	int64_t k = floor_div(t, period);
	double f = smoothstep((double)(t - k * period) / (double)period);
	double a = gt_demo_hash01(c, chan, k),
	       b = gt_demo_hash01(c, chan, k + 1);
	return a + (b - a) * f;
}

/* A periodic wave in [0, 1] without libm. */
static double wave(int64_t t, int64_t period, int64_t shift)
{
	int64_t ph = (t + shift) - floor_div(t + shift, period) * period;
	double x = (double)ph / (double)period;
	return smoothstep(x < 0.5 ? 2.0 * x : 2.0 - 2.0 * x);
}

static double clamp01(double x)
{
	return x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x);
}

/* Device utilisation in [0, 1] at simulated second t. */
double gt_demo_util_at(const struct demo_ctx *c, int64_t t)
{
	int64_t w, ph;
	double u;

	switch (c->p->load) {
	case LOAD_TRAINING:
		/* Steady steps, and now and then a short dip while a
		 * checkpoint is written or an eval batch runs. */
		w = floor_div(t, 47);
		ph = t - w * 47;
		if (gt_demo_hash01(c, CH_DIP, w) < 0.4 && ph < 3)
			u = 0.28 + 0.2 * gt_demo_smooth(c, CH_UTIL, t, 2);
		else
			u = 0.92 + 0.075 * gt_demo_smooth(c, CH_UTIL, t, 5);
		break;
	case LOAD_GAMING:
		/* Scene-dependent waves, with the odd loading screen. */
		w = floor_div(t, 150);
		ph = t - w * 150;
		if (gt_demo_hash01(c, CH_DIP, w) < 0.5 && ph < 10)
			u = 0.1 + 0.1 * gt_demo_smooth(c, CH_UTIL, t, 3);
		else
			u = 0.5 +
			    0.34 * wave(t, 37,
			                (int64_t)(37 * gt_demo_hash01(
			                                   c, CH_WAVE, 0))) +
			    0.2 * (gt_demo_smooth(c, CH_UTIL, t, 4) - 0.5);
		break;
	case LOAD_TRANSCODE:
		u = 0.14 + 0.12 * gt_demo_smooth(c, CH_UTIL, t, 6);
		break;
	case LOAD_DESKTOP:
	default:
		w = floor_div(t, 23);
		ph = t - w * 23;
		u = 0.04 + 0.1 * gt_demo_smooth(c, CH_UTIL, t, 8);
		if (gt_demo_hash01(c, CH_DIP, w) < 0.3 && ph < 2)
			u += 0.35;
		break;
	}
	return clamp01(u);
}

int64_t gt_demo_power_limit(const struct demo_profile *p)
{
	return (p->s_na & NA_S(GT_S_POWER_DEFAULT)) ? INT64_MAX
	                                            : p->s[GT_S_POWER_DEFAULT];
}

/* Power follows utilisation; demand above the limit is capped, which is
 * what sets the power-cap throttle reason. */
int64_t gt_demo_power_at(const struct demo_ctx *c, int64_t t, bool *capped)
{
	const struct demo_profile *p = c->p;
	double u = gt_demo_util_at(c, t);
	double demand = (double)p->idle_mw +
	                (double)(p->full_mw - p->idle_mw) * u *
	                    (0.94 + 0.12 * gt_demo_smooth(c, CH_POWER, t, 3));
	int64_t limit = gt_demo_power_limit(p);

	*capped = demand > (double)limit;
	if (*capped)
		return demo_round(
		    (double)limit *
		    (0.985 + 0.013 * gt_demo_hash01(c, CH_CAP, t)));
	return demo_round(demand);
}

/* Heat capacity: the edge temperature tracks an exponentially weighted
 * mean of the last minute of power, so it lags the load. */
double gt_demo_power_lagged_w(const struct demo_ctx *c, int64_t t)
{
	double sum = 0.0, wsum = 0.0, w = 1.0;
	bool capped;

	for (int k = 0; k < 64; k++) {
		sum += w * (double)gt_demo_power_at(c, t - k, &capped) / 1000.0;
		wsum += w;
		w *= 0.94;
	}
	return sum / wsum;
}

int64_t gt_demo_whole_degrees(double mc)
{
	return demo_round(mc / 1000.0) * 1000;
}

int64_t gt_demo_proc_mem(const struct demo_ctx *c, unsigned i, int64_t t)
{
	const struct demo_proc *pr = &c->p->procs[i];
	double m =
	    (double)pr->mem +
	    (double)pr->mem_swing * gt_demo_smooth(c, CH_PROC + 8 * i, t, 40);
	return demo_round(m / (double)(2 * MIB)) * 2 * MIB;
}

int64_t gt_demo_proc_engine(const struct demo_ctx *c, unsigned i, unsigned sub,
                            int32_t level, int64_t t)
{
	if (level == 0)
		return 0;
	return demo_round(
	    level *
	    (0.8 + 0.2 * gt_demo_smooth(c, CH_PROC + 8 * i + sub, t, 9)));
}

int64_t gt_demo_fan_percent(const struct demo_profile *p, int64_t temp_mc)
{
	if (temp_mc < p->fan_on_mc)
		return p->fan_on_mc > 0 ? 0 : p->fan_min_cp; /* zero-rpm mode */
	double f =
	    clamp01((double)(temp_mc - (p->fan_on_mc ? p->fan_on_mc : 40000)) /
	            50000.0);
	return demo_round((double)p->fan_min_cp +
	                  (double)(10000 - p->fan_min_cp) * f);
}

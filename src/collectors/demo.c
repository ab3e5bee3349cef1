/*
 * demo.c - the built-in simulated machine behind `gputop --demo` (and
 * `make run` on a host without a GPU): four GPUs of three vendors with
 * plausible facts, load, thermals and processes.
 *
 * Every value is a pure function of (seed, device, sample number): the only
 * state is a per-device sample counter and the energy accumulator that
 * integrates the simulated power, both in b->priv. No wall clock, no rand(),
 * so a seed reproduces a screen exactly (tests, screenshots, bug reports).
 * Simulated time: one sample is one second.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "model.h"

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

static const struct demo_profile demo_profiles[] = {
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

#define DEMO_NDEV (sizeof(demo_profiles) / sizeof(demo_profiles[0]))

struct demo_dev {
	uint64_t n;        /* samples taken so far */
	int64_t energy_mj; /* integral of the simulated power */
};

struct demo_priv {
	uint64_t seed;
	struct demo_dev dev[DEMO_NDEV];
};

/* Everything one evaluation needs: a value depends on nothing else. */
struct demo_ctx {
	uint64_t seed;
	unsigned dev;
	const struct demo_profile *p;
};

static uint64_t splitmix64(uint64_t x)
{
	x += UINT64_C(0x9e3779b97f4a7c15);
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

/* A uniform number in [0, 1) for (seed, device, channel, k). */
static double hash01(const struct demo_ctx *c, unsigned chan, int64_t k)
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
static double smooth(const struct demo_ctx *c, unsigned chan, int64_t t,
                     int64_t period)
{
	int64_t k = floor_div(t, period);
	double f = smoothstep((double)(t - k * period) / (double)period);
	double a = hash01(c, chan, k), b = hash01(c, chan, k + 1);
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

static int64_t round_i(double x)
{
	return (int64_t)(x < 0 ? x - 0.5 : x + 0.5);
}

/* Device utilisation in [0, 1] at simulated second t. */
static double util_at(const struct demo_ctx *c, int64_t t)
{
	int64_t w, ph;
	double u;

	switch (c->p->load) {
	case LOAD_TRAINING:
		/* Steady steps, and now and then a short dip while a
		 * checkpoint is written or an eval batch runs. */
		w = floor_div(t, 47);
		ph = t - w * 47;
		if (hash01(c, CH_DIP, w) < 0.4 && ph < 3)
			u = 0.28 + 0.2 * smooth(c, CH_UTIL, t, 2);
		else
			u = 0.92 + 0.075 * smooth(c, CH_UTIL, t, 5);
		break;
	case LOAD_GAMING:
		/* Scene-dependent waves, with the odd loading screen. */
		w = floor_div(t, 150);
		ph = t - w * 150;
		if (hash01(c, CH_DIP, w) < 0.5 && ph < 10)
			u = 0.1 + 0.1 * smooth(c, CH_UTIL, t, 3);
		else
			u = 0.5 +
			    0.34 * wave(t, 37,
			                (int64_t)(37 * hash01(c, CH_WAVE, 0))) +
			    0.2 * (smooth(c, CH_UTIL, t, 4) - 0.5);
		break;
	case LOAD_TRANSCODE:
		u = 0.14 + 0.12 * smooth(c, CH_UTIL, t, 6);
		break;
	case LOAD_DESKTOP:
	default:
		w = floor_div(t, 23);
		ph = t - w * 23;
		u = 0.04 + 0.1 * smooth(c, CH_UTIL, t, 8);
		if (hash01(c, CH_DIP, w) < 0.3 && ph < 2)
			u += 0.35;
		break;
	}
	return clamp01(u);
}

static int64_t power_limit(const struct demo_profile *p)
{
	return (p->s_na & NA_S(GT_S_POWER_DEFAULT)) ? INT64_MAX
	                                            : p->s[GT_S_POWER_DEFAULT];
}

/* Power follows utilisation; demand above the limit is capped, which is
 * what sets the power-cap throttle reason. */
static int64_t power_at(const struct demo_ctx *c, int64_t t, bool *capped)
{
	const struct demo_profile *p = c->p;
	double u = util_at(c, t);
	double demand =
	    (double)p->idle_mw + (double)(p->full_mw - p->idle_mw) * u *
	                             (0.94 + 0.12 * smooth(c, CH_POWER, t, 3));
	int64_t limit = power_limit(p);

	*capped = demand > (double)limit;
	if (*capped)
		return round_i((double)limit *
		               (0.985 + 0.013 * hash01(c, CH_CAP, t)));
	return round_i(demand);
}

/* Heat capacity: the edge temperature tracks an exponentially weighted
 * mean of the last minute of power, so it lags the load. */
static double power_lagged_w(const struct demo_ctx *c, int64_t t)
{
	double sum = 0.0, wsum = 0.0, w = 1.0;
	bool capped;

	for (int k = 0; k < 64; k++) {
		sum += w * (double)power_at(c, t - k, &capped) / 1000.0;
		wsum += w;
		w *= 0.94;
	}
	return sum / wsum;
}

static int64_t whole_degrees(double mc)
{
	return round_i(mc / 1000.0) * 1000;
}

static int64_t proc_mem(const struct demo_ctx *c, unsigned i, int64_t t)
{
	const struct demo_proc *pr = &c->p->procs[i];
	double m = (double)pr->mem +
	           (double)pr->mem_swing * smooth(c, CH_PROC + 8 * i, t, 40);
	return round_i(m / (double)(2 * MIB)) * 2 * MIB;
}

static int64_t proc_engine(const struct demo_ctx *c, unsigned i, unsigned sub,
                           int32_t level, int64_t t)
{
	if (level == 0)
		return 0;
	return round_i(level *
	               (0.8 + 0.2 * smooth(c, CH_PROC + 8 * i + sub, t, 9)));
}

static int64_t fan_percent(const struct demo_profile *p, int64_t temp_mc)
{
	if (temp_mc < p->fan_on_mc)
		return p->fan_on_mc > 0 ? 0 : p->fan_min_cp; /* zero-rpm mode */
	double f =
	    clamp01((double)(temp_mc - (p->fan_on_mc ? p->fan_on_mc : 40000)) /
	            50000.0);
	return round_i((double)p->fan_min_cp +
	               (double)(10000 - p->fan_min_cp) * f);
}

static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static void demo_probe(struct gt_backend *b,
                       const struct gt_backend_options *opt)
{
	struct demo_priv *priv = calloc(1, sizeof(*priv));

	b->priv = priv;
	b->device_count = 0;
	if (!priv) {
		b->status = GT_BACKEND_ERROR;
		copy_str(b->detail, sizeof(b->detail), "out of memory");
		return;
	}
	priv->seed = opt ? opt->demo_seed : 0;
	for (unsigned d = 0; d < DEMO_NDEV; d++) {
		struct demo_ctx c = {priv->seed, d, &demo_profiles[d]};
		/* The counter has run since the driver loaded, days ago. */
		priv->dev[d].energy_mj =
		    round_i(3.0e8 + 4.0e10 * hash01(&c, CH_ENERGY, 0));
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
	const struct demo_profile *p = &demo_profiles[dev];

	out->vendor = p->vendor;
	snprintf(out->id, sizeof(out->id), "pci:%.16s", p->bus);
	copy_str(out->pci_bus_id, sizeof(out->pci_bus_id), p->bus);
	copy_str(out->name, sizeof(out->name), p->name);
	copy_str(out->uuid, sizeof(out->uuid), p->uuid);
	copy_str(out->serial, sizeof(out->serial), p->serial);
	copy_str(out->driver, sizeof(out->driver), p->driver);
	copy_str(out->driver_version, sizeof(out->driver_version),
	         p->driver_version);
	copy_str(out->architecture, sizeof(out->architecture), p->arch);
	copy_str(out->vbios, sizeof(out->vbios), p->vbios);
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

static int demo_sample(struct gt_backend *b, unsigned dev,
                       struct gt_sample *out, int slow)
{
	struct demo_priv *priv = b->priv;
	(void)slow; /* nothing here is costly */
	if (!priv || dev >= DEMO_NDEV)
		return -1;

	struct demo_dev *dd = &priv->dev[dev];
	const struct demo_profile *p = &demo_profiles[dev];
	const struct demo_ctx c = {priv->seed, dev, p};
	const int64_t t = (int64_t)dd->n++;
	int64_t v[GT_F_FAN_PERCENT0] = {0};
	bool capped;

	double u = util_at(&c, t);
	int64_t draw = power_at(&c, t, &capped);
	bool busy = u >= 0.05;

	v[GT_F_UTIL_GPU] = round_i(u * 10000.0);
	v[GT_F_UTIL_MEMBW] = round_i(10000.0 * u * p->membw_gain *
	                             (0.8 + 0.3 * smooth(&c, CH_MEMBW, t, 6)));
	for (unsigned i = 0; i < p->nprocs; i++) {
		v[GT_F_UTIL_ENC] += proc_engine(&c, i, 2, p->procs[i].enc, t);
		v[GT_F_UTIL_DEC] += proc_engine(&c, i, 3, p->procs[i].dec, t);
		v[GT_F_MEM_USED] += proc_mem(&c, i, t);
	}
	if (v[GT_F_UTIL_ENC] > 10000)
		v[GT_F_UTIL_ENC] = 10000;
	if (v[GT_F_UTIL_DEC] > 10000)
		v[GT_F_UTIL_DEC] = 10000;
	v[GT_F_MEM_USED] += p->overhead;
	v[GT_F_MEM_TOTAL] = p->s[GT_S_VRAM_TOTAL];
	v[GT_F_MEM_RESERVED] = p->reserved;
	v[GT_F_MEM_FREE] = v[GT_F_MEM_TOTAL] - v[GT_F_MEM_USED] - p->reserved;

	double edge = (double)p->ambient_mc +
	              (double)p->mc_per_w * power_lagged_w(&c, t) +
	              600.0 * (smooth(&c, CH_TEMP, t, 7) - 0.5);
	v[GT_F_TEMP_GPU] = whole_degrees(edge);
	v[GT_F_TEMP_HOTSPOT] =
	    whole_degrees(edge + (double)p->hot_mc +
	                  (double)p->hot_mc_per_w * (double)draw / 1000.0);
	v[GT_F_TEMP_MEM] =
	    whole_degrees(edge + (double)p->mem_mc +
	                  1500.0 * (smooth(&c, CH_MEMTEMP, t, 11) - 0.5));

	v[GT_F_POWER_DRAW] = draw;
	v[GT_F_POWER_LIMIT] = power_limit(p);
	v[GT_F_POWER_ENFORCED] = power_limit(p);
	dd->energy_mj += draw; /* mW over one simulated second */
	v[GT_F_ENERGY] = dd->energy_mj;
	v[GT_F_PSTATE] = busy ? 0 : 8;

	int64_t gmax = p->s[GT_S_CLK_GRAPHICS_MAX];
	double gf = p->vendor == GT_VENDOR_NVIDIA
	                ? 1.0
	                : 0.9 + 0.1 * smooth(&c, CH_CLK, t, 4);
	if (capped) /* the power cap pulls the clocks down */
		gf = 0.88 + 0.07 * hash01(&c, CH_CLK, t);
	v[GT_F_CLK_GRAPHICS] =
	    busy ? round_i((double)gmax * gf / 15.0) * 15 : p->clk_gfx_idle;
	if (v[GT_F_CLK_GRAPHICS] > gmax)
		v[GT_F_CLK_GRAPHICS] = gmax;
	v[GT_F_CLK_SM] = v[GT_F_CLK_GRAPHICS];
	v[GT_F_CLK_MEM] = busy ? p->s[GT_S_CLK_MEM_MAX] : p->clk_mem_idle;
	v[GT_F_CLK_VIDEO] =
	    busy ? p->s[GT_S_CLK_VIDEO_MAX] : p->s[GT_S_CLK_VIDEO_MAX] / 3;

	v[GT_F_PCIE_GEN] = p->s[GT_S_PCIE_MAX_GEN];
	v[GT_F_PCIE_WIDTH] = p->s[GT_S_PCIE_MAX_WIDTH];
	/* NVML reports whole KiB/s. */
	v[GT_F_PCIE_RX] = round_i((double)p->rx_peak * u *
	                          smooth(&c, CH_PCIE_RX, t, 3) / 1024.0) *
	                  1024;
	v[GT_F_PCIE_TX] = round_i((double)p->tx_peak * u *
	                          smooth(&c, CH_PCIE_TX, t, 3) / 1024.0) *
	                  1024;

	v[GT_F_THROTTLE] =
	    (capped ? GT_THR_SW_POWER_CAP : 0) | (busy ? 0 : GT_THR_IDLE);

	/* A healthy HBM part: one corrected error every half hour or so. */
	int64_t period = 1200 + round_i(2400.0 * hash01(&c, CH_ECC, 0));
	v[GT_F_ECC_CORRECTED_VOLATILE] =
	    (t + round_i((double)period * hash01(&c, CH_ECC, 1))) / period;
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
	    busy ? v[GT_F_CLK_GRAPHICS] + 50 : p->clk_gfx_idle;
	v[GT_F_CLK_GRAPHICS_MIN_LIMIT] = p->clk_gfx_idle;
	v[GT_F_CLK_GRAPHICS_MAX_LIMIT] = gmax;
	v[GT_F_IDLE_RESIDENCY] = 10000 - v[GT_F_UTIL_GPU];

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
			gt_val_set(&out->f[i], v[i]);
	}

	out->state = GT_DEV_OK;
	out->fan_count = (uint8_t)p->s[GT_S_FAN_COUNT];
	for (unsigned i = 0; i < out->fan_count && i < GT_MAX_FANS; i++) {
		/* Fans follow the (already lagging) temperature; the second
		 * one runs a touch off the first as real pairs do. */
		int64_t pct = fan_percent(p, v[GT_F_TEMP_GPU]);
		if (pct > 0)
			pct +=
			    round_i(120.0 * i -
			            60.0 * smooth(&c, CH_FAN + 16 * i, t, 5));
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
	return 0;
}

static int demo_processes(struct gt_backend *b, unsigned dev,
                          struct gt_proc_vec *out)
{
	struct demo_priv *priv = b->priv;
	if (!priv || dev >= DEMO_NDEV)
		return -1;

	const struct demo_profile *p = &demo_profiles[dev];
	const struct demo_ctx c = {priv->seed, dev, p};
	/* The list describes the moment of the latest sample. */
	const int64_t t = priv->dev[dev].n ? (int64_t)priv->dev[dev].n - 1 : 0;
	double u = util_at(&c, t);

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
		copy_str(q->user, sizeof(q->user), pr->user);
		copy_str(q->name, sizeof(q->name), pr->name);
		copy_str(q->container, sizeof(q->container), pr->container);
		q->cmdline = strdup(pr->cmdline);
		gt_val_set(&q->f[GT_P_GPU],
		           round_i(10000.0 * u * pr->gpu_share *
		                   (0.9 + 0.1 * smooth(&c, CH_PROC + 8 * i + 1,
		                                       t, 6))));
		gt_val_set(&q->f[GT_P_MEM], proc_mem(&c, i, t));
		if (p->vendor == GT_VENDOR_AMD)
			gt_val_set(&q->f[GT_P_GTT], proc_mem(&c, i, t) / 16);
		else
			gt_val_fail(&q->f[GT_P_GTT], GT_WHY_UNSUPPORTED_DEVICE,
			            0);
		gt_val_set(&q->f[GT_P_ENC], proc_engine(&c, i, 2, pr->enc, t));
		gt_val_set(&q->f[GT_P_DEC], proc_engine(&c, i, 3, pr->dec, t));
		gt_val_set(&q->f[GT_P_CPU],
		           round_i(pr->cpu *
		                   (0.8 + 0.4 * smooth(&c, CH_PROC + 8 * i + 4,
		                                       t, 5))));
		gt_val_set(
		    &q->f[GT_P_HOST_MEM],
		    round_i(
		        (double)pr->host_mem *
		        (0.97 + 0.06 * smooth(&c, CH_PROC + 8 * i + 5, t, 30)) /
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

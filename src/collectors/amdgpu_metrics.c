/* SPDX-License-Identifier: MIT */
/*
 * amdgpu_metrics.c - gpu_metrics decoder (see amdgpu_metrics.h). Each
 * supported version is a table of (value, byte offset, width, unit); the
 * bytes are read little-endian one by one, so no struct layout, alignment
 * or host byte order is assumed.
 */
#include "collectors/amdgpu_metrics.h"

#include <errno.h>
#include <string.h>

enum unit {
	U_CELSIUS,       /* °C -> m°C */
	U_CENTI_CELSIUS, /* 0.01 °C -> m°C */
	U_PERCENT,       /* % -> cpercent */
	U_WATT,          /* W -> mW */
	U_MILLIWATT,
	U_ENERGY, /* 2^-16 J (15.259 µJ) -> mJ */
	U_PLAIN,  /* MHz, RPM, lanes, 0.1 GT/s, mV, raw bits */
};

/* Which member of struct gt_amdgpu_metrics a table row fills. */
enum slot {
	S_TEMP_GPU,
	S_TEMP_HOTSPOT,
	S_TEMP_MEM,
	S_GFX_ACT,
	S_UMC_ACT,
	S_MM_ACT,
	S_SOCKET_POWER,
	S_GFX_POWER,
	S_ENERGY,
	S_GFXCLK_CUR,
	S_GFXCLK_AVG,
	S_UCLK_CUR,
	S_UCLK_AVG,
	S_VCLK_CUR,
	S_VCLK_AVG,
	S_FAN,
	S_PCIE_WIDTH,
	S_PCIE_SPEED,
	S_VOLT_GFX,
	S_GFX_MAXFREQ,
	S_THROTTLE,
	S__COUNT
};

struct row {
	uint8_t slot;
	uint16_t offset;
	uint8_t width; /* bytes: 1, 2, 4 or 8 */
	uint8_t unit;
	/* An array of count elements (one per XCC, VCN...): the value is the
	 * mean of the filled ones. 0 means 1. */
	uint8_t count;
};

struct layout {
	uint8_t format, content;
	/* The smallest structure_size accepted: a header claiming less is
	 * corrupt, and rows past the real size must not be read. */
	uint16_t min_size;
	const struct row *rows;
	size_t nrows;
};

/* v1.0: system_clock_counter first, 32-bit energy, 8-bit link fields. */
static const struct row v1_0[] = {
    {S_TEMP_GPU, 16, 2, U_CELSIUS, 0},  {S_TEMP_HOTSPOT, 18, 2, U_CELSIUS, 0},
    {S_TEMP_MEM, 20, 2, U_CELSIUS, 0},  {S_GFX_ACT, 28, 2, U_PERCENT, 0},
    {S_UMC_ACT, 30, 2, U_PERCENT, 0},   {S_MM_ACT, 32, 2, U_PERCENT, 0},
    {S_SOCKET_POWER, 34, 2, U_WATT, 0}, {S_ENERGY, 36, 4, U_ENERGY, 0},
    {S_GFXCLK_AVG, 40, 2, U_PLAIN, 0},  {S_UCLK_AVG, 44, 2, U_PLAIN, 0},
    {S_VCLK_AVG, 46, 2, U_PLAIN, 0},    {S_GFXCLK_CUR, 54, 2, U_PLAIN, 0},
    {S_UCLK_CUR, 58, 2, U_PLAIN, 0},    {S_VCLK_CUR, 60, 2, U_PLAIN, 0},
    {S_FAN, 72, 2, U_PLAIN, 0},         {S_PCIE_WIDTH, 74, 1, U_PLAIN, 0},
    {S_PCIE_SPEED, 75, 1, U_PLAIN, 0},
};

/* v1.1, v1.2 and v1.3 share offsets; the rows past a version's size are
 * skipped by the size check. */
static const struct row v1_3[] = {
    {S_TEMP_GPU, 4, 2, U_CELSIUS, 0},   {S_TEMP_HOTSPOT, 6, 2, U_CELSIUS, 0},
    {S_TEMP_MEM, 8, 2, U_CELSIUS, 0},   {S_GFX_ACT, 16, 2, U_PERCENT, 0},
    {S_UMC_ACT, 18, 2, U_PERCENT, 0},   {S_MM_ACT, 20, 2, U_PERCENT, 0},
    {S_SOCKET_POWER, 22, 2, U_WATT, 0}, {S_ENERGY, 24, 8, U_ENERGY, 0},
    {S_GFXCLK_AVG, 40, 2, U_PLAIN, 0},  {S_UCLK_AVG, 44, 2, U_PLAIN, 0},
    {S_VCLK_AVG, 46, 2, U_PLAIN, 0},    {S_GFXCLK_CUR, 54, 2, U_PLAIN, 0},
    {S_UCLK_CUR, 58, 2, U_PLAIN, 0},    {S_VCLK_CUR, 60, 2, U_PLAIN, 0},
    {S_FAN, 72, 2, U_PLAIN, 0},         {S_PCIE_WIDTH, 74, 2, U_PLAIN, 0},
    {S_PCIE_SPEED, 76, 2, U_PLAIN, 0},  {S_VOLT_GFX, 106, 2, U_PLAIN, 0},
    {S_THROTTLE, 112, 8, U_PLAIN, 0},
};

/*
 * MI300-class Instinct (smu_v13_0_6 and the SMU variants it drives).
 * These tables start alike and then part ways; byte offsets computed from
 * the kernel's field lists with natural alignment (u16 at 2, u32 at 4,
 * u64 at 8, arrays of them likewise), each struct padded to 8:
 *
 *   field (type)                     v1.4  v1.5  v1.6  v1.7  v1.8
 *   temperature_hotspot (u16, C)        4     4     4     4     4
 *   temperature_mem (u16, C)            6     6     6     6     6
 *   temperature_vrsoc (u16, C)          8     8     8     8     8
 *   curr_socket_power (u16, W)         10    10    10    10    10
 *   average_gfx_activity (u16, %)      12    12    12    12    12
 *   average_umc_activity (u16, %)      14    14    14    14    14
 *   vcn_activity[4] (u16, %)           16    16     -     -     -
 *   jpeg_activity[32] (u16, %)          -    24     -     -     -
 *   mem_max_bandwidth (u64, GB/s)       -     -     -    16    16
 *   energy_accumulator (u64, 2^-16 J)  24    88    16    24    24
 *   system_clock_counter (u64, ns)     32    96    24    32    32
 *   accumulation_counter, then five
 *     throttler residencies (u32)       -     -    32    40    40
 *   throttle_status (u32)              40   104     -     -     -
 *   gfxclk_lock_status (u32)           44   108    56    64    64
 *   pcie_link_width (u16, lanes)       48   112    60    68    68
 *   pcie_link_speed (u16, 0.1 GT/s)    50   114    62    70    70
 *   xgmi_link_width, _speed (u16)      52   116    64    72    72
 *   gfx_/mem_activity_acc (u32)        56   120    68    76    76
 *   pcie_bandwidth_acc, _inst,
 *     l0_to_recov, replay, replay
 *     rollover counts (u64)            64   128    80    88    88
 *   pcie_nak_sent, _rcvd (u32)          -   168   120   128   128
 *   xgmi_read_data_acc[8] (u64)       104   176   128   136   136
 *   xgmi_write_data_acc[8] (u64)      168   240   192   200   200
 *   xgmi_link_status[8] (u16), pad      -     -     -   264   264
 *   firmware_timestamp (u64)          232   304   256   288   288
 *   current_gfxclk[8] (u16, MHz)      240   312   264   296   296
 *   current_socclk[4] (u16, MHz)      256   328   280   312   312
 *   current_vclk0[4] (u16, MHz)       264   336   288   320   320
 *   current_dclk0[4] (u16, MHz)       272   344   296   328   328
 *   current_uclk (u16, MHz)           280   352   304   336   336
 *   padding / num_partition (u16)     282   354   306   338   338
 *   xcp_stats[8] (per partition)        -     -   312   344   344
 *   pcie_lc_perf_other_end_recovery     -     -  1656  2200    *
 *   structure_size                    288   360  1664  2208    *
 *
 * The xcp_stats elements are 168 bytes in v1.6 (gfx_busy_inst[8] u32,
 * jpeg_busy[32] u16, vcn_busy[4] u16, gfx_busy_acc[8] u64) and 232 in
 * v1.7 (plus gfx_below_host_limit_acc[8] u64). v1.8's element (40 JPEG
 * engines, more accumulators) differs between the posted patch and later
 * copies of the header, so (*) only its fixed part, up to xcp_stats, is
 * required and read. A first v1.6 with vcn/jpeg activity and
 * throttle_status (384 bytes) was added and reverted in May 2024 with no
 * driver filling it (both touched only the header and smu_cmn.c); its size
 * is below the v1.6 minimum, so it is refused.
 *
 * Not read: throttle_status (ASIC-specific, and smu_v13_0_6 writes 0,
 * "not reported through metrics"); the residency accumulators (counters,
 * not a current state); temperature_vrsoc; the per-partition busy values.
 * There is no edge temperature: temp_gpu stays empty.
 */
static const struct row v1_4[] = {
    {S_TEMP_HOTSPOT, 4, 2, U_CELSIUS, 0}, {S_TEMP_MEM, 6, 2, U_CELSIUS, 0},
    {S_SOCKET_POWER, 10, 2, U_WATT, 0},   {S_GFX_ACT, 12, 2, U_PERCENT, 0},
    {S_UMC_ACT, 14, 2, U_PERCENT, 0},     {S_MM_ACT, 16, 2, U_PERCENT, 4},
    {S_ENERGY, 24, 8, U_ENERGY, 0},       {S_PCIE_WIDTH, 48, 2, U_PLAIN, 0},
    {S_PCIE_SPEED, 50, 2, U_PLAIN, 0},    {S_GFXCLK_CUR, 240, 2, U_PLAIN, 8},
    {S_VCLK_CUR, 264, 2, U_PLAIN, 4},     {S_UCLK_CUR, 280, 2, U_PLAIN, 0},
};

static const struct row v1_5[] = {
    {S_TEMP_HOTSPOT, 4, 2, U_CELSIUS, 0}, {S_TEMP_MEM, 6, 2, U_CELSIUS, 0},
    {S_SOCKET_POWER, 10, 2, U_WATT, 0},   {S_GFX_ACT, 12, 2, U_PERCENT, 0},
    {S_UMC_ACT, 14, 2, U_PERCENT, 0},     {S_MM_ACT, 16, 2, U_PERCENT, 4},
    {S_ENERGY, 88, 8, U_ENERGY, 0},       {S_PCIE_WIDTH, 112, 2, U_PLAIN, 0},
    {S_PCIE_SPEED, 114, 2, U_PLAIN, 0},   {S_GFXCLK_CUR, 312, 2, U_PLAIN, 8},
    {S_VCLK_CUR, 336, 2, U_PLAIN, 4},     {S_UCLK_CUR, 352, 2, U_PLAIN, 0},
};

static const struct row v1_6[] = {
    {S_TEMP_HOTSPOT, 4, 2, U_CELSIUS, 0}, {S_TEMP_MEM, 6, 2, U_CELSIUS, 0},
    {S_SOCKET_POWER, 10, 2, U_WATT, 0},   {S_GFX_ACT, 12, 2, U_PERCENT, 0},
    {S_UMC_ACT, 14, 2, U_PERCENT, 0},     {S_ENERGY, 16, 8, U_ENERGY, 0},
    {S_PCIE_WIDTH, 60, 2, U_PLAIN, 0},    {S_PCIE_SPEED, 62, 2, U_PLAIN, 0},
    {S_GFXCLK_CUR, 264, 2, U_PLAIN, 8},   {S_VCLK_CUR, 288, 2, U_PLAIN, 4},
    {S_UCLK_CUR, 304, 2, U_PLAIN, 0},
};

/* v1.7 and v1.8 share the fixed part. */
static const struct row v1_7[] = {
    {S_TEMP_HOTSPOT, 4, 2, U_CELSIUS, 0}, {S_TEMP_MEM, 6, 2, U_CELSIUS, 0},
    {S_SOCKET_POWER, 10, 2, U_WATT, 0},   {S_GFX_ACT, 12, 2, U_PERCENT, 0},
    {S_UMC_ACT, 14, 2, U_PERCENT, 0},     {S_ENERGY, 24, 8, U_ENERGY, 0},
    {S_PCIE_WIDTH, 68, 2, U_PLAIN, 0},    {S_PCIE_SPEED, 70, 2, U_PLAIN, 0},
    {S_GFXCLK_CUR, 296, 2, U_PLAIN, 8},   {S_VCLK_CUR, 320, 2, U_PLAIN, 4},
    {S_UCLK_CUR, 336, 2, U_PLAIN, 0},
};

/* v2.0: system_clock_counter first. */
static const struct row v2_0[] = {
    {S_TEMP_GPU, 16, 2, U_CENTI_CELSIUS, 0},
    {S_GFX_ACT, 40, 2, U_PERCENT, 0},
    {S_MM_ACT, 42, 2, U_PERCENT, 0},
    {S_SOCKET_POWER, 44, 2, U_MILLIWATT, 0},
    {S_GFX_POWER, 50, 2, U_MILLIWATT, 0},
    {S_GFXCLK_AVG, 68, 2, U_PLAIN, 0},
    {S_UCLK_AVG, 72, 2, U_PLAIN, 0},
    {S_VCLK_AVG, 76, 2, U_PLAIN, 0},
    {S_GFXCLK_CUR, 80, 2, U_PLAIN, 0},
    {S_UCLK_CUR, 84, 2, U_PLAIN, 0},
    {S_VCLK_CUR, 88, 2, U_PLAIN, 0},
};

/* v2.1 to v2.4 share offsets; indep_throttle_status from v2.2. */
static const struct row v2_x[] = {
    {S_TEMP_GPU, 4, 2, U_CENTI_CELSIUS, 0},
    {S_GFX_ACT, 28, 2, U_PERCENT, 0},
    {S_MM_ACT, 30, 2, U_PERCENT, 0},
    {S_SOCKET_POWER, 40, 2, U_MILLIWATT, 0},
    {S_GFX_POWER, 46, 2, U_MILLIWATT, 0},
    {S_GFXCLK_AVG, 64, 2, U_PLAIN, 0},
    {S_UCLK_AVG, 68, 2, U_PLAIN, 0},
    {S_VCLK_AVG, 72, 2, U_PLAIN, 0},
    {S_GFXCLK_CUR, 76, 2, U_PLAIN, 0},
    {S_UCLK_CUR, 80, 2, U_PLAIN, 0},
    {S_VCLK_CUR, 84, 2, U_PLAIN, 0},
    {S_THROTTLE, 120, 8, U_PLAIN, 0},
};

/* v3.0 (smu_v14_0_0): 32-bit powers, averages only. */
static const struct row v3_0[] = {
    {S_TEMP_GPU, 4, 2, U_CENTI_CELSIUS, 0},
    {S_GFX_ACT, 42, 2, U_PERCENT, 0},
    {S_MM_ACT, 44, 2, U_PERCENT, 0},
    {S_SOCKET_POWER, 112, 4, U_MILLIWATT, 0},
    {S_GFX_POWER, 124, 4, U_MILLIWATT, 0},
    {S_GFXCLK_AVG, 174, 2, U_PLAIN, 0},
    {S_VCLK_AVG, 184, 2, U_PLAIN, 0},
    {S_UCLK_AVG, 186, 2, U_PLAIN, 0},
    {S_GFX_MAXFREQ, 224, 2, U_PLAIN, 0},
};

#define ROWS(a) a, sizeof(a) / sizeof(a[0])

/* Minimum sizes: the end of the last field for v1.0-v1.3 and v2.x (a v1.0
 * table is 80 bytes with its tail padding), the kernel's structure_size
 * for v1.4-v1.7 and v3.0, v1.8's fixed part (see above). */
static const struct layout layouts[] = {
    {1, 0, 76, ROWS(v1_0)},   {1, 1, 96, ROWS(v1_3)},   {1, 2, 104, ROWS(v1_3)},
    {1, 3, 120, ROWS(v1_3)},  {1, 4, 288, ROWS(v1_4)},  {1, 5, 360, ROWS(v1_5)},
    {1, 6, 1664, ROWS(v1_6)}, {1, 7, 2208, ROWS(v1_7)}, {1, 8, 344, ROWS(v1_7)},
    {2, 0, 120, ROWS(v2_0)},  {2, 1, 120, ROWS(v2_x)},  {2, 2, 128, ROWS(v2_x)},
    {2, 3, 152, ROWS(v2_x)},  {2, 4, 168, ROWS(v2_x)},  {3, 0, 264, ROWS(v3_0)},
};

static uint64_t le(const uint8_t *p, unsigned width)
{
	uint64_t v = 0;
	for (unsigned i = width; i-- > 0;)
		v = (v << 8) | p[i];
	return v;
}

static struct gt_val *slot_val(struct gt_amdgpu_metrics *m, enum slot s,
                               struct gt_val *scratch)
{
	switch (s) {
	case S_TEMP_GPU:
		return &m->temp_gpu;
	case S_TEMP_HOTSPOT:
		return &m->temp_hotspot;
	case S_TEMP_MEM:
		return &m->temp_mem;
	case S_GFX_ACT:
		return &m->gfx_activity;
	case S_UMC_ACT:
		return &m->umc_activity;
	case S_MM_ACT:
		return &m->mm_activity;
	case S_SOCKET_POWER:
		return &m->socket_power;
	case S_GFX_POWER:
		return &m->gfx_power;
	case S_ENERGY:
		return &m->energy;
	case S_GFXCLK_CUR:
		return &m->gfxclk;
	case S_UCLK_CUR:
		return &m->uclk;
	case S_VCLK_CUR:
		return &m->vclk;
	case S_FAN:
		return &m->fan_rpm;
	case S_PCIE_WIDTH:
		return &m->pcie_width;
	case S_PCIE_SPEED:
		return &m->pcie_gts10;
	case S_VOLT_GFX:
		return &m->voltage_gfx;
	case S_GFX_MAXFREQ:
		return &m->gfx_maxfreq;
	case S_THROTTLE:
		return &m->throttle_raw;
	default:
		return &scratch[s]; /* averages, merged below */
	}
}

static void fail_all(struct gt_amdgpu_metrics *m)
{
	struct gt_val *all[] = {
	    &m->temp_gpu,     &m->temp_hotspot, &m->temp_mem,
	    &m->gfx_activity, &m->umc_activity, &m->mm_activity,
	    &m->socket_power, &m->gfx_power,    &m->energy,
	    &m->gfxclk,       &m->uclk,         &m->vclk,
	    &m->fan_rpm,      &m->pcie_width,   &m->pcie_gts10,
	    &m->voltage_gfx,  &m->gfx_maxfreq,  &m->throttle_raw,
	    &m->throttle,
	};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		gt_val_fail(all[i], GT_WHY_UNSUPPORTED_DEVICE, 0);
}

static int64_t scale(uint64_t raw, enum unit unit)
{
	switch (unit) {
	case U_CELSIUS:
	case U_WATT:
		return (int64_t)raw * 1000;
	case U_CENTI_CELSIUS:
		return (int64_t)raw * 10;
	case U_PERCENT:
		return (int64_t)raw * 100;
	case U_ENERGY:
		/* raw * 1000 / 65536 without overflowing 64 bits */
		return (int64_t)((raw >> 16) * 1000 +
		                 ((raw & 0xffff) * 1000 >> 16));
	case U_MILLIWATT:
	case U_PLAIN:
		break;
	}
	return (int64_t)raw;
}

int gt_amdgpu_metrics_decode(const void *buf, size_t len,
                             struct gt_amdgpu_metrics *out)
{
	const uint8_t *b = buf;
	struct gt_val avg[S__COUNT];

	memset(out, 0, sizeof(*out));
	fail_all(out);
	if (len < 4)
		return -EBADMSG;
	out->size = (uint16_t)le(b, 2);
	out->format = b[2];
	out->content = b[3];
	const struct layout *lay = NULL;
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		if (layouts[i].format == out->format &&
		    layouts[i].content == out->content)
			lay = &layouts[i];
	if (!lay)
		return out->size >= 4 && out->format >= 1 && out->format <= 3
		           ? -EPROTONOSUPPORT
		           : -EBADMSG;
	if (out->size < lay->min_size)
		return -EBADMSG;
	/* The header's size, never the file's: captures pad to a page. */
	size_t avail = len < out->size ? len : out->size;

	for (int i = 0; i < S__COUNT; i++)
		gt_val_fail(&avg[i], GT_WHY_UNSUPPORTED_DEVICE, 0);
	for (size_t i = 0; i < lay->nrows; i++) {
		const struct row *r = &lay->rows[i];
		unsigned count = r->count ? r->count : 1, filled = 0;
		int64_t sum = 0;
		/* A field (every element of an array) past the data is not
		 * there: a shorter version, or a truncated file. */
		if ((size_t)r->offset + (size_t)r->width * count > avail)
			continue;
		uint64_t ones = r->width == 8
		                    ? UINT64_MAX
		                    : (UINT64_C(1) << (8 * r->width)) - 1;
		for (unsigned k = 0; k < count; k++) {
			uint64_t raw =
			    le(b + r->offset + k * r->width, r->width);
			/* The kernel fills the table with 0xff before the
			 * firmware writes what it has: all ones means "not
			 * filled" (an absent XCC or VCN in an array). */
			if (raw == ones)
				continue;
			/* RDNA3/4 firmware leaves the energy counter at 0: a
			 * counter since driver load is never 0 on a running
			 * GPU. */
			if (r->slot == S_ENERGY && raw == 0)
				continue;
			sum += scale(raw, (enum unit)r->unit);
			filled++;
		}
		if (filled == 0)
			continue;
		gt_val_set(slot_val(out, (enum slot)r->slot, avg),
		           (sum + (int64_t)filled / 2) / (int64_t)filled);
	}
	if (!gt_val_ok(&out->gfxclk))
		out->gfxclk = avg[S_GFXCLK_AVG];
	if (!gt_val_ok(&out->uclk))
		out->uclk = avg[S_UCLK_AVG];
	if (!gt_val_ok(&out->vclk))
		out->vclk = avg[S_VCLK_AVG];
	if (gt_val_ok(&out->throttle_raw))
		gt_val_set(&out->throttle, gt_amdgpu_throttle_from_indep(
		                               (uint64_t)out->throttle_raw.v));
	return 0;
}

uint32_t gt_amdgpu_throttle_from_indep(uint64_t bits)
{
	uint32_t mask = 0;
	if (bits & UINT64_C(0x000000000000ffff))
		mask |= GT_THR_SW_POWER_CAP;
	if (bits & UINT64_C(0x00000000ffff0000))
		mask |= GT_THR_CURRENT_LIMIT;
	if (bits & UINT64_C(0x00000fff00000000))
		mask |= GT_THR_SW_THERMAL;
	if (bits & UINT64_C(0x0000f00000000000))
		mask |= GT_THR_HW_THERMAL;
	if (bits & UINT64_C(0xffff000000000000))
		mask |= GT_THR_OTHER;
	return mask;
}

/*
 * amdgpu_metrics.c - gpu_metrics decoder (see amdgpu_metrics.h). Each
 * supported version is a table of (value, byte offset, width, unit); the
 * bytes are read little-endian one by one, so no struct layout, alignment
 * or host byte order is assumed.
 */
#include "amdgpu_metrics.h"

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
};

struct layout {
	uint8_t format, content;
	const struct row *rows;
	size_t nrows;
};

/* v1.0: system_clock_counter first, 32-bit energy, 8-bit link fields. */
static const struct row v1_0[] = {
    {S_TEMP_GPU, 16, 2, U_CELSIUS},  {S_TEMP_HOTSPOT, 18, 2, U_CELSIUS},
    {S_TEMP_MEM, 20, 2, U_CELSIUS},  {S_GFX_ACT, 28, 2, U_PERCENT},
    {S_UMC_ACT, 30, 2, U_PERCENT},   {S_MM_ACT, 32, 2, U_PERCENT},
    {S_SOCKET_POWER, 34, 2, U_WATT}, {S_ENERGY, 36, 4, U_ENERGY},
    {S_GFXCLK_AVG, 40, 2, U_PLAIN},  {S_UCLK_AVG, 44, 2, U_PLAIN},
    {S_VCLK_AVG, 46, 2, U_PLAIN},    {S_GFXCLK_CUR, 54, 2, U_PLAIN},
    {S_UCLK_CUR, 58, 2, U_PLAIN},    {S_VCLK_CUR, 60, 2, U_PLAIN},
    {S_FAN, 72, 2, U_PLAIN},         {S_PCIE_WIDTH, 74, 1, U_PLAIN},
    {S_PCIE_SPEED, 75, 1, U_PLAIN},
};

/* v1.1, v1.2 and v1.3 share offsets; the rows past a version's size are
 * skipped by the size check. */
static const struct row v1_3[] = {
    {S_TEMP_GPU, 4, 2, U_CELSIUS},   {S_TEMP_HOTSPOT, 6, 2, U_CELSIUS},
    {S_TEMP_MEM, 8, 2, U_CELSIUS},   {S_GFX_ACT, 16, 2, U_PERCENT},
    {S_UMC_ACT, 18, 2, U_PERCENT},   {S_MM_ACT, 20, 2, U_PERCENT},
    {S_SOCKET_POWER, 22, 2, U_WATT}, {S_ENERGY, 24, 8, U_ENERGY},
    {S_GFXCLK_AVG, 40, 2, U_PLAIN},  {S_UCLK_AVG, 44, 2, U_PLAIN},
    {S_VCLK_AVG, 46, 2, U_PLAIN},    {S_GFXCLK_CUR, 54, 2, U_PLAIN},
    {S_UCLK_CUR, 58, 2, U_PLAIN},    {S_VCLK_CUR, 60, 2, U_PLAIN},
    {S_FAN, 72, 2, U_PLAIN},         {S_PCIE_WIDTH, 74, 2, U_PLAIN},
    {S_PCIE_SPEED, 76, 2, U_PLAIN},  {S_VOLT_GFX, 106, 2, U_PLAIN},
    {S_THROTTLE, 112, 8, U_PLAIN},
};

/* v2.0: system_clock_counter first. */
static const struct row v2_0[] = {
    {S_TEMP_GPU, 16, 2, U_CENTI_CELSIUS}, {S_GFX_ACT, 40, 2, U_PERCENT},
    {S_MM_ACT, 42, 2, U_PERCENT},         {S_SOCKET_POWER, 44, 2, U_MILLIWATT},
    {S_GFX_POWER, 50, 2, U_MILLIWATT},    {S_GFXCLK_AVG, 68, 2, U_PLAIN},
    {S_UCLK_AVG, 72, 2, U_PLAIN},         {S_VCLK_AVG, 76, 2, U_PLAIN},
    {S_GFXCLK_CUR, 80, 2, U_PLAIN},       {S_UCLK_CUR, 84, 2, U_PLAIN},
    {S_VCLK_CUR, 88, 2, U_PLAIN},
};

/* v2.1 to v2.4 share offsets; indep_throttle_status from v2.2. */
static const struct row v2_x[] = {
    {S_TEMP_GPU, 4, 2, U_CENTI_CELSIUS}, {S_GFX_ACT, 28, 2, U_PERCENT},
    {S_MM_ACT, 30, 2, U_PERCENT},        {S_SOCKET_POWER, 40, 2, U_MILLIWATT},
    {S_GFX_POWER, 46, 2, U_MILLIWATT},   {S_GFXCLK_AVG, 64, 2, U_PLAIN},
    {S_UCLK_AVG, 68, 2, U_PLAIN},        {S_VCLK_AVG, 72, 2, U_PLAIN},
    {S_GFXCLK_CUR, 76, 2, U_PLAIN},      {S_UCLK_CUR, 80, 2, U_PLAIN},
    {S_VCLK_CUR, 84, 2, U_PLAIN},        {S_THROTTLE, 120, 8, U_PLAIN},
};

/* v3.0 (smu_v14_0_0): 32-bit powers, averages only. */
static const struct row v3_0[] = {
    {S_TEMP_GPU, 4, 2, U_CENTI_CELSIUS}, {S_GFX_ACT, 42, 2, U_PERCENT},
    {S_MM_ACT, 44, 2, U_PERCENT},        {S_SOCKET_POWER, 112, 4, U_MILLIWATT},
    {S_GFX_POWER, 124, 4, U_MILLIWATT},  {S_GFXCLK_AVG, 174, 2, U_PLAIN},
    {S_VCLK_AVG, 184, 2, U_PLAIN},       {S_UCLK_AVG, 186, 2, U_PLAIN},
    {S_GFX_MAXFREQ, 224, 2, U_PLAIN},
};

#define ROWS(a) a, sizeof(a) / sizeof(a[0])

static const struct layout layouts[] = {
    {1, 0, ROWS(v1_0)}, {1, 1, ROWS(v1_3)}, {1, 2, ROWS(v1_3)},
    {1, 3, ROWS(v1_3)}, {2, 0, ROWS(v2_0)}, {2, 1, ROWS(v2_x)},
    {2, 2, ROWS(v2_x)}, {2, 3, ROWS(v2_x)}, {2, 4, ROWS(v2_x)},
    {3, 0, ROWS(v3_0)},
};

/* The smallest structure_size of each known version: a header claiming
 * less is corrupt, and rows past the real size must not be read. */
static size_t min_size(uint8_t format, uint8_t content)
{
	static const size_t v1[] = {76, 96, 104, 120};
	static const size_t v2[] = {120, 120, 128, 152, 168};
	if (format == 1)
		return content < 4 ? v1[content] : 120;
	if (format == 2)
		return content < 5 ? v2[content] : 168;
	return 264;
}

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
	if (out->size < min_size(out->format, out->content))
		return -EBADMSG;
	/* The header's size, never the file's: captures pad to a page. */
	size_t avail = len < out->size ? len : out->size;

	for (int i = 0; i < S__COUNT; i++)
		gt_val_fail(&avg[i], GT_WHY_UNSUPPORTED_DEVICE, 0);
	for (size_t i = 0; i < lay->nrows; i++) {
		const struct row *r = &lay->rows[i];
		if ((size_t)r->offset + r->width > avail)
			continue;
		uint64_t raw = le(b + r->offset, r->width);
		uint64_t ones = r->width == 8
		                    ? UINT64_MAX
		                    : (UINT64_C(1) << (8 * r->width)) - 1;
		/* The kernel fills the table with 0xff before the firmware
		 * writes what it has: all ones means "not filled". */
		if (raw == ones)
			continue;
		/* RDNA3/4 firmware leaves the energy counter at 0: a counter
		 * since driver load is never 0 on a running GPU. */
		if (r->slot == S_ENERGY && raw == 0)
			continue;
		gt_val_set(slot_val(out, (enum slot)r->slot, avg),
		           scale(raw, (enum unit)r->unit));
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

/* SPDX-License-Identifier: MIT */
/*
 * test_amdgpu_metrics.c - the binary gpu_metrics decoder (v1.3, v2.1 and
 * v3.0 from the captures, with exact values; v1.0, v1.1, v2.0, v2.2-v2.4
 * and MI300's v1.4-v1.8 built from the kernel's layouts; all-ones = not
 * filled; truncated files; bad headers), the throttle-bit mapping, and the
 * name and architecture tables.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "support/amdgpu_test.h"
#include "collectors/amdgpu_ids.h"
#include "collectors/amdgpu_metrics.h"
#include "core/model.h"

/* ------------------------------------------------------------------ */
/* gpu_metrics                                                          */
/* ------------------------------------------------------------------ */

static void assert_val(const struct gt_val *v, int64_t want)
{
	if (!gt_val_ok(v))
		fail_msg("value missing (why %d), expected %lld", v->why,
		         (long long)want);
	assert_int_equal(v->v, want);
}

static void assert_missing(const struct gt_val *v)
{
	if (gt_val_ok(v))
		fail_msg("expected no value, got %lld", (long long)v->v);
	assert_int_equal(v->why, GT_WHY_UNSUPPORTED_DEVICE);
}

/* rx6900xt v1.3, padded to 4096 bytes: the header's 120 bytes count. */
static void test_metrics_v13_rx6900xt(void **state)
{
	(void)state;
	struct blob b = fixture("rx6900xt", "card0", "gpu_metrics");
	struct gt_amdgpu_metrics m;
	assert_int_equal(b.len, 4096);
	assert_int_equal(gt_amdgpu_metrics_decode(b.data, b.len, &m), 0);
	assert_int_equal(m.size, 120);
	assert_int_equal(m.format, 1);
	assert_int_equal(m.content, 3);
	assert_val(&m.temp_gpu, 56000);
	assert_val(&m.temp_hotspot, 59000);
	assert_val(&m.temp_mem, 54000);
	assert_val(&m.gfx_activity, 300);
	assert_val(&m.socket_power, 36000);
	/* 17691682 units of 2^-16 J = 269.953 J */
	assert_val(&m.energy, 269953);
	assert_val(&m.gfxclk, 500);
	assert_val(&m.uclk, 1000);
	assert_val(&m.pcie_width, 16);
	assert_val(&m.pcie_gts10, 160);
	assert_val(&m.voltage_gfx, 775);
	assert_val(&m.throttle_raw, 0);
	assert_val(&m.throttle, 0);
	assert_missing(&m.gfx_power); /* not in v1 */
	assert_missing(&m.gfx_maxfreq);
	blob_free(&b);
}

static void test_metrics_v13_throttle_and_fan(void **state)
{
	(void)state;
	struct gt_amdgpu_metrics m;
	/* rx7600s: indep_throttle_status = 2^36 (TEMP_HOTSPOT). */
	struct blob b = fixture("rx7600s", "card1", "gpu_metrics");
	assert_int_equal(gt_amdgpu_metrics_decode(b.data, b.len, &m), 0);
	assert_val(&m.throttle_raw, INT64_C(1) << 36);
	assert_val(&m.throttle, GT_THR_SW_THERMAL);
	assert_val(&m.temp_gpu, 53000);
	assert_val(&m.temp_hotspot, 54000);
	assert_val(&m.temp_mem, 60000);
	/* RDNA3 firmware leaves the energy counter at 0. */
	assert_missing(&m.energy);
	blob_free(&b);

	/* rx9070 (RDNA4): the values the reference decodes. */
	b = fixture("rx9070", "card1", "gpu_metrics");
	assert_int_equal(gt_amdgpu_metrics_decode(b.data, b.len, &m), 0);
	assert_val(&m.temp_gpu, 48000);
	assert_val(&m.temp_hotspot, 52000);
	assert_val(&m.temp_mem, 72000);
	assert_val(&m.fan_rpm, 1944);
	assert_val(&m.socket_power, 49000);
	assert_val(&m.uclk, 1124); /* current_uclk, not the average */
	assert_val(&m.gfxclk, 900);
	assert_val(&m.gfx_activity, 2500);
	assert_missing(&m.energy);
	blob_free(&b);

	/* rx7800xt: the same temperatures as its hwmon files. */
	b = fixture("rx7800xt", "card1", "gpu_metrics");
	assert_int_equal(gt_amdgpu_metrics_decode(b.data, b.len, &m), 0);
	assert_val(&m.temp_gpu, 24000);
	assert_val(&m.temp_hotspot, 31000);
	assert_val(&m.temp_mem, 48000);
	blob_free(&b);
}

/* phoenix v2.1: APU temperatures in centi-°C, powers in mW, the current_*
 * clocks not filled (0xFFFF) so the averages stand in. */
static void test_metrics_v21_phoenix(void **state)
{
	(void)state;
	struct blob b = fixture("phoenix", "card1", "gpu_metrics");
	struct gt_amdgpu_metrics m;
	assert_int_equal(b.len, 120); /* the same size as v1.3 */
	assert_int_equal(gt_amdgpu_metrics_decode(b.data, b.len, &m), 0);
	assert_int_equal(m.format, 2);
	assert_int_equal(m.content, 1);
	assert_val(&m.temp_gpu, 25000); /* 2500 = 25.00 °C */
	assert_val(&m.socket_power, 3401);
	assert_val(&m.gfx_power, 585);
	assert_val(&m.gfxclk, 800);
	assert_val(&m.uclk, 400);
	assert_val(&m.gfx_activity, 7900); /* raw 79, see amdgpu_metrics.h */
	assert_missing(&m.temp_hotspot);
	assert_missing(&m.energy);
	assert_missing(&m.throttle); /* v2.1 has no independent bits */
	blob_free(&b);
}

/* strixpoint v3.0 (264 bytes). */
static void test_metrics_v30_strix(void **state)
{
	(void)state;
	struct blob b = fixture("strixpoint", "card1", "gpu_metrics");
	struct gt_amdgpu_metrics m;
	assert_int_equal(b.len, 264);
	assert_int_equal(gt_amdgpu_metrics_decode(b.data, b.len, &m), 0);
	assert_int_equal(m.format, 3);
	assert_val(&m.temp_gpu, 38120);
	assert_val(&m.gfx_activity, 300);
	assert_val(&m.socket_power, 9839);
	assert_val(&m.gfx_power, 1536);
	assert_val(&m.gfxclk, 849);
	assert_val(&m.gfx_maxfreq, 2900);
	assert_missing(&m.throttle);
	assert_missing(&m.fan_rpm);
	blob_free(&b);
}

static void put16(uint8_t *b, size_t off, uint16_t v)
{
	b[off] = (uint8_t)v;
	b[off + 1] = (uint8_t)(v >> 8);
}

static void put_header(uint8_t *b, uint16_t size, uint8_t format,
                       uint8_t content)
{
	put16(b, 0, size);
	b[2] = format;
	b[3] = content;
}

/* A table the firmware did not fill: 0xff everywhere after the header. */
static void test_metrics_all_ones(void **state)
{
	(void)state;
	uint8_t b[120];
	struct gt_amdgpu_metrics m;
	memset(b, 0xff, sizeof(b));
	put_header(b, 120, 1, 3);
	assert_int_equal(gt_amdgpu_metrics_decode(b, sizeof(b), &m), 0);
	const struct gt_val *all[] = {
	    &m.temp_gpu,     &m.temp_hotspot, &m.temp_mem,     &m.gfx_activity,
	    &m.umc_activity, &m.mm_activity,  &m.socket_power, &m.energy,
	    &m.gfxclk,       &m.uclk,         &m.vclk,         &m.fan_rpm,
	    &m.pcie_width,   &m.pcie_gts10,   &m.voltage_gfx,  &m.throttle_raw,
	    &m.throttle,
	};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		assert_missing(all[i]);
	/* One filled field among unfilled ones. */
	put16(b, 4, 61);
	assert_int_equal(gt_amdgpu_metrics_decode(b, sizeof(b), &m), 0);
	assert_val(&m.temp_gpu, 61000);
	assert_missing(&m.temp_hotspot);
	/* The same bytes as APU v2.2: 128 bytes, centi-degrees. */
	uint8_t a[128];
	memset(a, 0xff, sizeof(a));
	put_header(a, 128, 2, 2);
	put16(a, 4, 4550);
	assert_int_equal(gt_amdgpu_metrics_decode(a, sizeof(a), &m), 0);
	assert_val(&m.temp_gpu, 45500);
	assert_missing(&m.throttle);
}

/* Versions no capture has, built from the kernel's struct layouts. */
static void test_metrics_other_layouts(void **state)
{
	(void)state;
	struct gt_amdgpu_metrics m;
	uint8_t v10[80];
	memset(v10, 0, sizeof(v10));
	put_header(v10, 80, 1, 0);
	put16(v10, 16, 70);  /* temperature_edge */
	put16(v10, 34, 200); /* average_socket_power, W */
	v10[36] = 0x00;      /* energy_accumulator (u32) = 0x20000 */
	v10[38] = 0x02;
	put16(v10, 54, 1750); /* current_gfxclk */
	v10[74] = 8;          /* pcie_link_width (u8) */
	v10[75] = 80;         /* pcie_link_speed (u8) */
	assert_int_equal(gt_amdgpu_metrics_decode(v10, sizeof(v10), &m), 0);
	assert_val(&m.temp_gpu, 70000);
	assert_val(&m.socket_power, 200000);
	assert_val(&m.energy, 2000); /* 2 J */
	assert_val(&m.gfxclk, 1750);
	assert_val(&m.pcie_width, 8);
	assert_val(&m.pcie_gts10, 80);

	uint8_t v20[120];
	memset(v20, 0xff, sizeof(v20));
	put_header(v20, 120, 2, 0);
	put16(v20, 16, 5123);  /* temperature_gfx, centi-°C */
	put16(v20, 44, 15000); /* average_socket_power, mW */
	put16(v20, 80, 1900);  /* current_gfxclk */
	assert_int_equal(gt_amdgpu_metrics_decode(v20, sizeof(v20), &m), 0);
	assert_val(&m.temp_gpu, 51230);
	assert_val(&m.socket_power, 15000);
	assert_val(&m.gfxclk, 1900);

	uint8_t v22[128];
	memset(v22, 0, sizeof(v22));
	put_header(v22, 128, 2, 2);
	v22[120] = 0x01; /* PPT0 */
	v22[122] = 0x01; /* TDC_GFX (bit 16) */
	assert_int_equal(gt_amdgpu_metrics_decode(v22, sizeof(v22), &m), 0);
	assert_val(&m.throttle, GT_THR_SW_POWER_CAP | GT_THR_CURRENT_LIMIT);
	/* v1.1 is 96 bytes: fields of v1.2/v1.3 are absent, not misread. */
	uint8_t v11[96];
	memset(v11, 0, sizeof(v11));
	put_header(v11, 96, 1, 1);
	put16(v11, 4, 40);
	assert_int_equal(gt_amdgpu_metrics_decode(v11, sizeof(v11), &m), 0);
	assert_val(&m.temp_gpu, 40000);
	assert_missing(&m.voltage_gfx);
	assert_missing(&m.throttle);
}

/*
 * MI300-class tables (smu_v13_0_6). No capture exists, so each is built
 * here: the offsets come from the compiler laying out the field lists
 * below (transcribed from the kernel's struct gpu_metrics_v1_4..v1_8 with
 * short names; natural alignment, as the kernel's structs have), not from
 * the decoder's own table, and the sizes must be the kernel's
 * structure_size values.
 */
struct mi_head {
	uint16_t size;
	uint8_t format, content;
	uint16_t t_hot, t_mem, t_vrsoc, power, gfx, umc;
};
struct mi_pcie { /* pcie_bandwidth_acc ... pcie_replay_rover_count_acc */
	uint64_t bw_acc, bw_inst, l0_recov, replay, replay_rover;
};
struct mi_clocks {
	uint64_t fw_timestamp;
	uint16_t gfxclk[8], socclk[4], vclk0[4], dclk0[4], uclk, pad_or_parts;
};
struct mi_v14 {
	struct mi_head h;
	uint16_t vcn[4];
	uint64_t energy, sys_clock;
	uint32_t throttle, gfx_lock;
	uint16_t pcie_w, pcie_s, xgmi_w, xgmi_s;
	uint32_t gfx_acc, mem_acc;
	struct mi_pcie p;
	uint64_t xgmi_rd[8], xgmi_wr[8];
	struct mi_clocks c;
};
struct mi_v15 {
	struct mi_head h;
	uint16_t vcn[4], jpeg[32];
	uint64_t energy, sys_clock;
	uint32_t throttle, gfx_lock;
	uint16_t pcie_w, pcie_s, xgmi_w, xgmi_s;
	uint32_t gfx_acc, mem_acc;
	struct mi_pcie p;
	uint32_t nak_sent, nak_rcvd;
	uint64_t xgmi_rd[8], xgmi_wr[8];
	struct mi_clocks c;
};
struct mi_xcp_v10 { /* amdgpu_xcp_metrics */
	uint32_t gfx_busy_inst[8];
	uint16_t jpeg_busy[32], vcn_busy[4];
	uint64_t gfx_busy_acc[8];
};
struct mi_xcp_v11 { /* amdgpu_xcp_metrics_v1_1 */
	struct mi_xcp_v10 base;
	uint64_t gfx_below_host_limit_acc[8];
};
struct mi_resid { /* accumulation_counter and five residencies */
	uint32_t acc, prochot, ppt, socket_thm, vr_thm, hbm_thm;
};
struct mi_v16 {
	struct mi_head h;
	uint64_t energy, sys_clock;
	struct mi_resid r;
	uint32_t gfx_lock;
	uint16_t pcie_w, pcie_s, xgmi_w, xgmi_s;
	uint32_t gfx_acc, mem_acc;
	struct mi_pcie p;
	uint32_t nak_sent, nak_rcvd;
	uint64_t xgmi_rd[8], xgmi_wr[8];
	struct mi_clocks c;
	struct mi_xcp_v10 xcp[8];
	uint32_t other_end_recovery;
};
struct mi_v17 {
	struct mi_head h;
	uint64_t mem_max_bw, energy, sys_clock;
	struct mi_resid r;
	uint32_t gfx_lock;
	uint16_t pcie_w, pcie_s, xgmi_w, xgmi_s;
	uint32_t gfx_acc, mem_acc;
	struct mi_pcie p;
	uint32_t nak_sent, nak_rcvd;
	uint64_t xgmi_rd[8], xgmi_wr[8];
	uint16_t xgmi_status[8], pad;
	struct mi_clocks c;
	struct mi_xcp_v11 xcp[8];
	uint32_t other_end_recovery;
};
/* The kernel's structure_size of each (the reference's table and the
 * amd-gfx patches agree: 288, 360, 1664, 2208). */
_Static_assert(sizeof(struct mi_v14) == 288, "v1.4 is 288 bytes");
_Static_assert(sizeof(struct mi_v15) == 360, "v1.5 is 360 bytes");
_Static_assert(sizeof(struct mi_v16) == 1664, "v1.6 is 1664 bytes");
_Static_assert(sizeof(struct mi_v17) == 2208, "v1.7 is 2208 bytes");

/* Where one version keeps the fields the decoder reads (0: none). */
struct mi_layout {
	uint8_t content;
	uint16_t size;
	size_t vcn, energy, pcie_w, pcie_s, gfxclk, vclk0, uclk;
};

#define MI_FIXED(T)                                                            \
	offsetof(T, energy), offsetof(T, pcie_w), offsetof(T, pcie_s),         \
	    offsetof(T, c.gfxclk), offsetof(T, c.vclk0), offsetof(T, c.uclk)

static const struct mi_layout mi_layouts[] = {
    {4, sizeof(struct mi_v14), offsetof(struct mi_v14, vcn),
     MI_FIXED(struct mi_v14)},
    {5, sizeof(struct mi_v15), offsetof(struct mi_v15, vcn),
     MI_FIXED(struct mi_v15)},
    {6, sizeof(struct mi_v16), 0, MI_FIXED(struct mi_v16)},
    {7, sizeof(struct mi_v17), 0, MI_FIXED(struct mi_v17)},
    /* v1.8: v1.7's fixed part; a bigger per-partition tail (3360 bytes
     * in current copies of the header). */
    {8, 3360, 0, MI_FIXED(struct mi_v17)},
};

static void put32(uint8_t *b, size_t off, uint32_t v)
{
	put16(b, off, (uint16_t)v);
	put16(b, off + 2, (uint16_t)(v >> 16));
}

static void put64(uint8_t *b, size_t off, uint64_t v)
{
	put32(b, off, (uint32_t)v);
	put32(b, off + 4, (uint32_t)(v >> 32));
}

/* A table of layout l: every byte 0x5a (a wrong offset reads 23130 or so,
 * never a value below), then the fields at their offsets. */
static uint8_t *mi_table(const struct mi_layout *l, uint8_t fill)
{
	uint8_t *b = malloc(l->size);
	assert_non_null(b);
	memset(b, fill, l->size);
	put_header(b, l->size, 1, l->content);
	return b;
}

static void mi_fill(uint8_t *b, const struct mi_layout *l)
{
	put16(b, offsetof(struct mi_head, t_hot), 71); /* °C */
	put16(b, offsetof(struct mi_head, t_mem), 58); /* °C */
	put16(b, offsetof(struct mi_head, t_vrsoc), 49);
	put16(b, offsetof(struct mi_head, power), 402); /* W */
	put16(b, offsetof(struct mi_head, gfx), 87);    /* % */
	put16(b, offsetof(struct mi_head, umc), 23);    /* % */
	if (l->vcn) {
		/* Two VCNs filled, two not. */
		put16(b, l->vcn, 10);
		put16(b, l->vcn + 2, 25);
		put16(b, l->vcn + 4, 0xffff);
		put16(b, l->vcn + 6, 0xffff);
	}
	/* 12345 J and a half, in 2^-16 J */
	put64(b, l->energy, UINT64_C(12345) * 65536 + 32768);
	put16(b, l->pcie_w, 16);
	put16(b, l->pcie_s, 320); /* 32 GT/s */
	/* Six XCCs (an MI300A's), two slots unfilled. */
	static const uint16_t xcc[8] = {2100, 2100, 2000,   2000,
	                                1900, 1900, 0xffff, 0xffff};
	for (int i = 0; i < 8; i++)
		put16(b, l->gfxclk + 2 * (size_t)i, xcc[i]);
	static const uint16_t vclk[4] = {1000, 1401, 0xffff, 0xffff};
	for (int i = 0; i < 4; i++)
		put16(b, l->vclk0 + 2 * (size_t)i, vclk[i]);
	put16(b, l->uclk, 1300);
}

static void test_metrics_mi300_layouts(void **state)
{
	(void)state;
	struct gt_amdgpu_metrics m;
	for (size_t i = 0; i < sizeof(mi_layouts) / sizeof(mi_layouts[0]);
	     i++) {
		const struct mi_layout *l = &mi_layouts[i];
		uint8_t *b = mi_table(l, 0x5a);
		mi_fill(b, l);
		if (gt_amdgpu_metrics_decode(b, l->size, &m) != 0)
			fail_msg("v1.%u not decoded", l->content);
		assert_int_equal(m.size, l->size);
		assert_int_equal(m.content, l->content);
		assert_val(&m.temp_hotspot, 71000);
		assert_val(&m.temp_mem, 58000);
		assert_missing(&m.temp_gpu); /* no edge sensor on MI300 */
		assert_val(&m.socket_power, 402000);
		assert_val(&m.gfx_activity, 8700);
		assert_val(&m.umc_activity, 2300);
		if (l->vcn)
			assert_val(&m.mm_activity, 1750); /* (10 + 25) / 2 */
		else
			assert_missing(&m.mm_activity); /* per partition now */
		assert_val(&m.energy, 12345500);
		assert_val(&m.pcie_width, 16);
		assert_val(&m.pcie_gts10, 320);
		assert_val(&m.gfxclk, 2000); /* the six filled XCCs */
		assert_val(&m.vclk, 1201);   /* 1200.5, rounded */
		assert_val(&m.uclk, 1300);
		/* What these tables do not have. */
		assert_missing(&m.throttle);
		assert_missing(&m.throttle_raw);
		assert_missing(&m.fan_rpm);
		assert_missing(&m.voltage_gfx);
		assert_missing(&m.gfx_power);
		assert_missing(&m.gfx_maxfreq);
		/* A header claiming one byte less than the version has. */
		put16(b, 0, (uint16_t)(l->content == 8 ? 343 : l->size - 1));
		assert_int_equal(gt_amdgpu_metrics_decode(b, l->size, &m),
		                 -EBADMSG);
		assert_missing(&m.temp_hotspot);
		free(b);
	}
	/* v1.8 needs only its fixed part (344 bytes, up to xcp_stats). */
	uint8_t *b = mi_table(&mi_layouts[4], 0x5a);
	mi_fill(b, &mi_layouts[4]);
	put16(b, 0, 344);
	assert_int_equal(gt_amdgpu_metrics_decode(b, 3360, &m), 0);
	assert_val(&m.uclk, 1300);
	free(b);
}

/* Firmware that filled nothing: every value absent, no array averages an
 * unfilled instance in. */
static void test_metrics_mi300_all_ones(void **state)
{
	(void)state;
	struct gt_amdgpu_metrics m;
	for (size_t i = 0; i < sizeof(mi_layouts) / sizeof(mi_layouts[0]);
	     i++) {
		const struct mi_layout *l = &mi_layouts[i];
		uint8_t *b = mi_table(l, 0xff);
		assert_int_equal(gt_amdgpu_metrics_decode(b, l->size, &m), 0);
		const struct gt_val *all[] = {
		    &m.temp_gpu,     &m.temp_hotspot, &m.temp_mem,
		    &m.gfx_activity, &m.umc_activity, &m.mm_activity,
		    &m.socket_power, &m.energy,       &m.gfxclk,
		    &m.uclk,         &m.vclk,         &m.pcie_width,
		    &m.pcie_gts10,   &m.throttle,
		};
		for (size_t k = 0; k < sizeof(all) / sizeof(all[0]); k++)
			assert_missing(all[k]);
		/* One XCC filled: the clock is that one's, not a mean with
		 * 0xffff. */
		put16(b, l->gfxclk + 6, 1500);
		assert_int_equal(gt_amdgpu_metrics_decode(b, l->size, &m), 0);
		assert_val(&m.gfxclk, 1500);
		/* An energy counter at 0 is not filled either. */
		put64(b, l->energy, 0);
		assert_int_equal(gt_amdgpu_metrics_decode(b, l->size, &m), 0);
		assert_missing(&m.energy);
		free(b);
	}
}

/* A file shorter than its header says (a short read): the fields in the
 * bytes read decode, those past them are absent, and an array is read
 * whole or not at all. */
static void test_metrics_mi300_truncated(void **state)
{
	(void)state;
	struct gt_amdgpu_metrics m;
	const struct mi_layout *v15 = &mi_layouts[1];
	uint8_t *b = mi_table(v15, 0x5a);
	mi_fill(b, v15);
	/* 100 bytes: up to energy_accumulator (88..95), not the link. */
	assert_int_equal(gt_amdgpu_metrics_decode(b, 100, &m), 0);
	assert_val(&m.temp_hotspot, 71000);
	assert_val(&m.socket_power, 402000);
	assert_val(&m.mm_activity, 1750);
	assert_val(&m.energy, 12345500);
	assert_missing(&m.pcie_width);
	assert_missing(&m.gfxclk);
	assert_missing(&m.uclk);
	/* Cut inside current_gfxclk[]: no clock from half an array. */
	assert_int_equal(gt_amdgpu_metrics_decode(b, v15->gfxclk + 6, &m), 0);
	assert_val(&m.pcie_width, 16);
	assert_missing(&m.gfxclk);
	/* The header alone. */
	assert_int_equal(gt_amdgpu_metrics_decode(b, 4, &m), 0);
	assert_missing(&m.temp_hotspot);
	free(b);
	/* v1.7, cut before the clocks. */
	const struct mi_layout *v17 = &mi_layouts[3];
	b = mi_table(v17, 0x5a);
	mi_fill(b, v17);
	assert_int_equal(gt_amdgpu_metrics_decode(b, 200, &m), 0);
	assert_val(&m.energy, 12345500);
	assert_val(&m.pcie_gts10, 320);
	assert_missing(&m.uclk);
	free(b);
}

/*
 * APU tables v2.3 and v2.4 (Van Gogh with newer PMFW). No capture exists:
 * the offsets come from the compiler laying out this field list (the
 * kernel's struct gpu_metrics_v2_4 with short names; v2.3 is the same up
 * to the average temperatures), not from the decoder's table. v2.3 adds
 * the average temperatures, v2.4 the average voltages and currents; the
 * decoder reads none of them (the current gfx temperature and the
 * powers, clocks and throttle bits stay where v2.1/v2.2 have them).
 */
struct apu_v23 {
	uint16_t size;
	uint8_t format, content;
	uint16_t t_gfx, t_soc, t_core[8], t_l3[2];
	uint16_t gfx_act, mm_act;
	uint64_t sys_clock;
	uint16_t p_socket, p_cpu, p_soc, p_gfx, p_core[8];
	uint16_t avg_gfxclk, avg_socclk, avg_uclk, avg_fclk, avg_vclk, avg_dclk;
	uint16_t gfxclk, socclk, uclk, fclk, vclk, dclk, coreclk[8], l3clk[2];
	uint32_t throttle;
	uint16_t fan_pwm, pad[3];
	uint64_t indep_throttle;
	uint16_t avg_t_gfx, avg_t_soc, avg_t_core[8], avg_t_l3[2];
};
struct apu_v24 {
	struct apu_v23 v23;
	uint16_t v_cpu, v_soc, v_gfx, i_cpu, i_soc, i_gfx;
};
/* The kernel's structure_size (the reference's table: 152 and 168). */
_Static_assert(sizeof(struct apu_v23) == 152, "v2.3 is 152 bytes");
_Static_assert(sizeof(struct apu_v24) == 168, "v2.4 is 168 bytes");

#define APU(f) offsetof(struct apu_v23, f)

/* A v2.<content> table of size bytes: the fields the decoder reads at
 * exact values, the averages it must not take for them beside them, all
 * other bytes 0x5a (a wrong offset reads 23130 or so). */
static uint8_t *apu_table(uint8_t content, uint16_t size)
{
	uint8_t *b = malloc(size);
	assert_non_null(b);
	memset(b, 0x5a, size);
	put_header(b, size, 2, content);
	put16(b, APU(t_gfx), 4321);     /* centi-°C */
	put16(b, APU(avg_t_gfx), 5555); /* v2.3+: not the current value */
	put16(b, APU(gfx_act), 42);
	put16(b, APU(mm_act), 7);
	put16(b, APU(p_socket), 12345); /* mW */
	put16(b, APU(p_gfx), 2345);
	put16(b, APU(avg_gfxclk), 1500);
	put16(b, APU(avg_uclk), 800);
	put16(b, APU(avg_vclk), 900);
	put16(b, APU(gfxclk), 1600);
	put16(b, APU(uclk), 0xffff); /* not filled: the average stands in */
	put16(b, APU(vclk), 1000);
	/* PPT0 (bit 0) and TEMP_CORE (bit 33) */
	put64(b, APU(indep_throttle), UINT64_C(1) | UINT64_C(1) << 33);
	if (size >= sizeof(struct apu_v24)) {
		put16(b, offsetof(struct apu_v24, v_gfx), 950);  /* mV */
		put16(b, offsetof(struct apu_v24, i_gfx), 3000); /* mA */
	}
	return b;
}

static void test_metrics_apu_v23_v24(void **state)
{
	(void)state;
	static const struct {
		uint8_t content;
		uint16_t size;
	} v[] = {{3, sizeof(struct apu_v23)}, {4, sizeof(struct apu_v24)}};
	struct gt_amdgpu_metrics m;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		uint8_t *b = apu_table(v[i].content, v[i].size);
		if (gt_amdgpu_metrics_decode(b, v[i].size, &m) != 0)
			fail_msg("v2.%u not decoded", v[i].content);
		assert_int_equal(m.size, v[i].size);
		assert_int_equal(m.format, 2);
		assert_int_equal(m.content, v[i].content);
		assert_val(&m.temp_gpu, 43210);
		assert_val(&m.gfx_activity, 4200);
		assert_val(&m.mm_activity, 700);
		assert_val(&m.socket_power, 12345);
		assert_val(&m.gfx_power, 2345);
		assert_val(&m.gfxclk, 1600);
		assert_val(&m.uclk, 800);
		assert_val(&m.vclk, 1000);
		assert_val(&m.throttle_raw,
		           (int64_t)(UINT64_C(1) | UINT64_C(1) << 33));
		assert_val(&m.throttle,
		           GT_THR_SW_POWER_CAP | GT_THR_SW_THERMAL);
		/* What APU tables do not have. */
		assert_missing(&m.temp_hotspot);
		assert_missing(&m.temp_mem);
		assert_missing(&m.umc_activity);
		assert_missing(&m.energy);
		assert_missing(&m.fan_rpm);
		assert_missing(&m.pcie_width);
		assert_missing(&m.gfx_maxfreq);
		/* A file cut inside indep_throttle_status (a short read):
		 * what came whole decodes, the throttle bits do not. */
		assert_int_equal(
		    gt_amdgpu_metrics_decode(b, APU(indep_throttle) + 4, &m),
		    0);
		assert_val(&m.vclk, 1000);
		assert_missing(&m.throttle_raw);
		assert_missing(&m.throttle);
		/* A header claiming one byte less than the version has: a
		 * truncated table, refused whole. */
		put16(b, 0, (uint16_t)(v[i].size - 1));
		assert_int_equal(gt_amdgpu_metrics_decode(b, v[i].size, &m),
		                 -EBADMSG);
		assert_missing(&m.temp_gpu);
		assert_missing(&m.gfxclk);
		free(b);
	}
}

static void test_metrics_bad_headers(void **state)
{
	(void)state;
	struct gt_amdgpu_metrics m;
	uint8_t b[400];
	memset(b, 0, sizeof(b));
	assert_int_equal(gt_amdgpu_metrics_decode(b, 3, &m), -EBADMSG);
	assert_missing(&m.temp_gpu);
	/* v1.9 (posted as a self-describing table): a known family, an
	 * unknown layout. */
	put_header(b, 360, 1, 9);
	assert_int_equal(gt_amdgpu_metrics_decode(b, sizeof(b), &m),
	                 -EPROTONOSUPPORT);
	assert_missing(&m.temp_gpu);
	/* The first v1.6 (384 bytes, reverted in May 2024 unused) is not
	 * the v1.6 drivers fill (1664 bytes): refused, not misread. */
	put_header(b, 384, 1, 6);
	assert_int_equal(gt_amdgpu_metrics_decode(b, sizeof(b), &m), -EBADMSG);
	assert_missing(&m.temp_hotspot);
	/* A v1.3 header claiming fewer bytes than v1.3 has. */
	put_header(b, 64, 1, 3);
	assert_int_equal(gt_amdgpu_metrics_decode(b, sizeof(b), &m), -EBADMSG);
	/* A file shorter than its header says: only what is there. */
	put_header(b, 120, 1, 3);
	put16(b, 4, 33);
	put16(b, 72, 1200);
	assert_int_equal(gt_amdgpu_metrics_decode(b, 40, &m), 0);
	assert_val(&m.temp_gpu, 33000);
	assert_missing(&m.fan_rpm);
	put_header(b, 120, 9, 0);
	assert_int_equal(gt_amdgpu_metrics_decode(b, sizeof(b), &m), -EBADMSG);
}

static void test_throttle_mapping(void **state)
{
	(void)state;
	assert_int_equal(gt_amdgpu_throttle_from_indep(0), 0);
	assert_int_equal(gt_amdgpu_throttle_from_indep(1u << 4),
	                 GT_THR_SW_POWER_CAP);
	assert_int_equal(gt_amdgpu_throttle_from_indep(UINT64_C(1) << 22),
	                 GT_THR_CURRENT_LIMIT);
	assert_int_equal(gt_amdgpu_throttle_from_indep(UINT64_C(1) << 35),
	                 GT_THR_SW_THERMAL);
	assert_int_equal(gt_amdgpu_throttle_from_indep(UINT64_C(1) << 46),
	                 GT_THR_HW_THERMAL);
	assert_int_equal(gt_amdgpu_throttle_from_indep(UINT64_C(1) << 57),
	                 GT_THR_OTHER);
}

/* ------------------------------------------------------------------ */
/* names and architectures                                              */
/* ------------------------------------------------------------------ */

static const char *ids_file(void)
{
	static char path[1024];
	const char *dir = getenv("GPUTOP_FIXTURES");
	if (!dir)
		fail_msg("GPUTOP_FIXTURES is not set");
	/* An excerpt of Debian 12's table: no RDNA3 or newer entry. */
	snprintf(path, sizeof(path), "%s/amdgpu/amdgpu.ids", dir);
	return path;
}

static void expect_name(const char *ids, uint16_t dev, int rev,
                        const char *want, enum gt_amdgpu_name_source src)
{
	char name[GT_STR_NAME];
	enum gt_amdgpu_name_source got =
	    gt_amdgpu_name(ids, dev, rev, name, sizeof(name));
	if (strcmp(name, want) != 0)
		fail_msg("%04x/%d: '%s', expected '%s'", dev, rev, name, want);
	assert_int_equal(got, src);
}

static void test_names(void **state)
{
	(void)state;
	const char *ids = ids_file();
	/* In the distribution's table. */
	expect_name(ids, 0x67DF, 0xE7, "AMD Radeon RX 580 Series",
	            GT_AMDGPU_NAME_IDS_FILE);
	expect_name(ids, 0x73BF, 0xC0, "AMD Radeon RX 6900 XT",
	            GT_AMDGPU_NAME_IDS_FILE);
	/* Missing there, in the built-in table. */
	expect_name(ids, 0x15BF, 0xDD, "AMD Radeon 780M Graphics",
	            GT_AMDGPU_NAME_BUILTIN);
	expect_name(ids, 0x744C, 0xCE, "AMD Radeon RX 7900 GRE",
	            GT_AMDGPU_NAME_BUILTIN);
	expect_name(ids, 0x150E, 0xC4, "AMD Radeon 880M Graphics",
	            GT_AMDGPU_NAME_BUILTIN);
	expect_name(ids, 0x7550, 0xC0, "AMD Radeon RX 9070 XT",
	            GT_AMDGPU_NAME_BUILTIN);
	/* No revision file: a name only when all entries agree. */
	expect_name(ids, 0x687F, GT_AMDGPU_REV_UNKNOWN, "AMD Radeon RX Vega",
	            GT_AMDGPU_NAME_IDS_FILE);
	expect_name(ids, 0x1901, GT_AMDGPU_REV_UNKNOWN,
	            "AMD Radeon 740M Graphics", GT_AMDGPU_NAME_BUILTIN);
	/* The RDNA3/4 captures have no revision file: each of their ids has
	 * several names by revision in the table, so no guess. */
	expect_name(ids, 0x747E, GT_AMDGPU_REV_UNKNOWN,
	            "AMD Radeon (device 0x747E)", GT_AMDGPU_NAME_GENERIC);
	expect_name(ids, 0x744C, GT_AMDGPU_REV_UNKNOWN,
	            "AMD Radeon (device 0x744C)", GT_AMDGPU_NAME_GENERIC);
	expect_name(ids, 0x7480, GT_AMDGPU_REV_UNKNOWN,
	            "AMD Radeon (device 0x7480)", GT_AMDGPU_NAME_GENERIC);
	expect_name(ids, 0x7550, GT_AMDGPU_REV_UNKNOWN,
	            "AMD Radeon (device 0x7550)", GT_AMDGPU_NAME_GENERIC);
	/* One entry, one name: the revision does not matter. */
	expect_name(ids, 0x74A1, GT_AMDGPU_REV_UNKNOWN, "AMD Instinct MI300X",
	            GT_AMDGPU_NAME_BUILTIN);
	expect_name(ids, 0x74A0, 0x00, "AMD Instinct MI300A",
	            GT_AMDGPU_NAME_BUILTIN);
	expect_name(ids, 0x67DF, GT_AMDGPU_REV_UNKNOWN,
	            "AMD Radeon (device 0x67DF)", GT_AMDGPU_NAME_GENERIC);
	/* A revision no table lists. */
	expect_name(ids, 0x744C, 0x01, "AMD Radeon (device 0x744C)",
	            GT_AMDGPU_NAME_GENERIC);
	expect_name(ids, 0x1234, 0x00, "AMD Radeon (device 0x1234)",
	            GT_AMDGPU_NAME_GENERIC);
	/* Without any ids file the built-in table still answers. */
	expect_name("/nonexistent/amdgpu.ids", 0x747E, 0xC8,
	            "AMD Radeon RX 7800 XT", GT_AMDGPU_NAME_BUILTIN);
	expect_name("/nonexistent/amdgpu.ids", 0x67DF, 0xE7,
	            "AMD Radeon (device 0x67DF)", GT_AMDGPU_NAME_GENERIC);
	/* Nor does one that is no regular file hang the lookup or read
	 * without end (GPUTOP_AMDGPU_IDS=/dev/zero, or a FIFO nobody
	 * writes: both hung before). */
	char fifo[] = "/tmp/gputop-ids-fifo-XXXXXX";
	assert_non_null(mkdtemp(fifo));
	char fpath[64];
	snprintf(fpath, sizeof(fpath), "%s/ids", fifo);
	assert_int_equal(mkfifo(fpath, 0600), 0);
	expect_name(fpath, 0x747E, 0xC8, "AMD Radeon RX 7800 XT",
	            GT_AMDGPU_NAME_BUILTIN);
	expect_name("/dev/zero", 0x747E, 0xC8, "AMD Radeon RX 7800 XT",
	            GT_AMDGPU_NAME_BUILTIN);
	unlink(fpath);
	rmdir(fifo);
	assert_true(gt_amdgpu_builtin_count() > 100);
}

/* The distribution's entry wins over the built-in one. */
static void test_names_file_precedence(void **state)
{
	(void)state;
	char path[] = "/tmp/gputop-ids-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	static const char text[] =
	    "# test\n1.0.0\n15BF,\tDD,\tVendor Says 780M\n"
	    "bogus line\n744C,\tC8,\n";
	assert_int_equal(write(fd, text, sizeof(text) - 1),
	                 (ssize_t)sizeof(text) - 1);
	close(fd);
	expect_name(path, 0x15BF, 0xDD, "Vendor Says 780M",
	            GT_AMDGPU_NAME_IDS_FILE);
	/* An entry with no name is skipped. */
	expect_name(path, 0x744C, 0xC8, "AMD Radeon RX 7900 XTX",
	            GT_AMDGPU_NAME_BUILTIN);
	/* File and built-in disagree for 15BF: no guess without revision. */
	expect_name(path, 0x15BF, GT_AMDGPU_REV_UNKNOWN,
	            "AMD Radeon (device 0x15BF)", GT_AMDGPU_NAME_GENERIC);
	unlink(path);
}

static void test_arch(void **state)
{
	(void)state;
	assert_string_equal(gt_amdgpu_arch(0x747E), "RDNA3");
	assert_string_equal(gt_amdgpu_arch(0x150E), "RDNA3.5");
	assert_string_equal(gt_amdgpu_arch(0x7550), "RDNA4");
	assert_string_equal(gt_amdgpu_arch(0x73BF), "RDNA2");
	assert_string_equal(gt_amdgpu_arch(0x67DF), "GCN 4");
	assert_string_equal(gt_amdgpu_arch(0x687F), "GCN 5");
	assert_string_equal(gt_amdgpu_arch(0x6617), "GCN 1");
	assert_null(gt_amdgpu_arch(0x1234));
	assert_true(gt_amdgpu_is_apu(0x15BF));
	assert_true(gt_amdgpu_is_apu(0x163F));
	/* MI300A is CPU and GPU in one package; MI300X is not. */
	assert_string_equal(gt_amdgpu_arch(0x74A0), "CDNA3");
	assert_string_equal(gt_amdgpu_arch(0x74A1), "CDNA3");
	assert_true(gt_amdgpu_is_apu(0x74A0));
	assert_false(gt_amdgpu_is_apu(0x74A1));
	assert_false(gt_amdgpu_is_apu(0x744C));
	assert_false(gt_amdgpu_is_apu(0x1234));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_metrics_v13_rx6900xt),
	    cmocka_unit_test(test_metrics_v13_throttle_and_fan),
	    cmocka_unit_test(test_metrics_v21_phoenix),
	    cmocka_unit_test(test_metrics_v30_strix),
	    cmocka_unit_test(test_metrics_all_ones),
	    cmocka_unit_test(test_metrics_other_layouts),
	    cmocka_unit_test(test_metrics_mi300_layouts),
	    cmocka_unit_test(test_metrics_mi300_all_ones),
	    cmocka_unit_test(test_metrics_mi300_truncated),
	    cmocka_unit_test(test_metrics_apu_v23_v24),
	    cmocka_unit_test(test_metrics_bad_headers),
	    cmocka_unit_test(test_throttle_mapping),
	    cmocka_unit_test(test_names),
	    cmocka_unit_test(test_names_file_precedence),
	    cmocka_unit_test(test_arch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

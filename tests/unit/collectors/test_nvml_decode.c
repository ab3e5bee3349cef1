/* SPDX-License-Identifier: MIT */
/*
 * test_nvml_decode.c - the pure NVML decoders of src/collectors/nvml_api.c
 * (return codes, clock-event bits, field values, PCI ids, architectures,
 * process-list merging) and the failure reasons of gt_nvml_api_load.
 */
#include <math.h>
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

#include "core/model.h"
#include "collectors/nvml_api.h"

/* ------------------------------------------------------------------ */
/* return codes                                                         */
/* ------------------------------------------------------------------ */

static const struct {
	nvmlReturn_t rc;
	enum gt_why why;
} why_table[] = {
    {NVML_SUCCESS, GT_WHY_OK},
    {NVML_ERROR_UNINITIALIZED, GT_WHY_DRIVER_ERROR},
    {NVML_ERROR_INVALID_ARGUMENT, GT_WHY_DRIVER_ERROR},
    {NVML_ERROR_NOT_SUPPORTED, GT_WHY_UNSUPPORTED_DEVICE},
    {NVML_ERROR_NO_PERMISSION, GT_WHY_PERMISSION},
    {NVML_ERROR_ALREADY_INITIALIZED, GT_WHY_DRIVER_ERROR},
    {NVML_ERROR_NOT_FOUND, GT_WHY_DRIVER_ERROR},
    {NVML_ERROR_INSUFFICIENT_SIZE, GT_WHY_DRIVER_ERROR},
    {NVML_ERROR_INSUFFICIENT_POWER, GT_WHY_DRIVER_ERROR},
    {NVML_ERROR_DRIVER_NOT_LOADED, GT_WHY_DRIVER_ERROR},
    {NVML_ERROR_TIMEOUT, GT_WHY_DRIVER_ERROR},
    {NVML_ERROR_IRQ_ISSUE, GT_WHY_DRIVER_ERROR},
    {NVML_ERROR_LIBRARY_NOT_FOUND, GT_WHY_DRIVER_ERROR},
    {NVML_ERROR_FUNCTION_NOT_FOUND, GT_WHY_UNSUPPORTED_DRIVER},
    {NVML_ERROR_CORRUPTED_INFOROM, GT_WHY_DRIVER_ERROR},
    {NVML_ERROR_GPU_IS_LOST, GT_WHY_LOST},
    {NVML_ERROR_RESET_REQUIRED, GT_WHY_LOST},
    {NVML_ERROR_OPERATING_SYSTEM, GT_WHY_DRIVER_ERROR},
    {NVML_ERROR_LIB_RM_VERSION_MISMATCH, GT_WHY_DRIVER_ERROR},
    {NVML_ERROR_IN_USE, GT_WHY_DRIVER_ERROR},
    {NVML_ERROR_MEMORY, GT_WHY_DRIVER_ERROR},
    {NVML_ERROR_NO_DATA, GT_WHY_DRIVER_ERROR},
    {NVML_ERROR_VGPU_ECC_NOT_SUPPORTED, GT_WHY_DRIVER_ERROR},
    {NVML_ERROR_INSUFFICIENT_RESOURCES, GT_WHY_DRIVER_ERROR},
    {NVML_ERROR_FREQ_NOT_SUPPORTED, GT_WHY_DRIVER_ERROR},
    {NVML_ERROR_ARGUMENT_VERSION_MISMATCH, GT_WHY_UNSUPPORTED_DRIVER},
    {NVML_ERROR_DEPRECATED, GT_WHY_UNSUPPORTED_DRIVER},
    {NVML_ERROR_NOT_READY, GT_WHY_DRIVER_ERROR},
    {NVML_ERROR_GPU_NOT_FOUND, GT_WHY_LOST},
    {NVML_ERROR_INVALID_STATE, GT_WHY_DRIVER_ERROR},
    {NVML_ERROR_RESET_TYPE_NOT_SUPPORTED, GT_WHY_DRIVER_ERROR},
    {NVML_ERROR_UNKNOWN, GT_WHY_DRIVER_ERROR},
    /* codes from a newer library than this build knows */
    {(nvmlReturn_t)31, GT_WHY_DRIVER_ERROR},
    {(nvmlReturn_t)500, GT_WHY_DRIVER_ERROR},
};

static void test_why_every_code(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(why_table) / sizeof(why_table[0]); i++) {
		enum gt_why got = gt_nvml_why(why_table[i].rc);
		if (got != why_table[i].why)
			fail_msg("nvml rc %d -> why %d, want %d",
			         (int)why_table[i].rc, (int)got,
			         (int)why_table[i].why);
	}
}

static void test_is_lost(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(why_table) / sizeof(why_table[0]); i++) {
		bool want = why_table[i].why == GT_WHY_LOST;
		assert_int_equal(gt_nvml_is_lost(why_table[i].rc), want);
	}
	assert_true(gt_nvml_is_lost(NVML_ERROR_GPU_IS_LOST));
	assert_true(gt_nvml_is_lost(NVML_ERROR_GPU_NOT_FOUND));
	assert_true(gt_nvml_is_lost(NVML_ERROR_RESET_REQUIRED));
	assert_false(gt_nvml_is_lost(NVML_SUCCESS));
	assert_false(gt_nvml_is_lost(NVML_ERROR_NOT_SUPPORTED));
	assert_false(gt_nvml_is_lost(NVML_ERROR_UNKNOWN));
}

static void test_init_hint(void **state)
{
	(void)state;
	assert_non_null(strstr(gt_nvml_init_hint(NVML_ERROR_DRIVER_NOT_LOADED),
	                       "modprobe nvidia"));
	assert_non_null(strstr(gt_nvml_init_hint(NVML_ERROR_NO_PERMISSION),
	                       "/dev/nvidiactl"));
	assert_non_null(strstr(
	    gt_nvml_init_hint(NVML_ERROR_LIB_RM_VERSION_MISMATCH), "reboot"));
	assert_non_null(strstr(gt_nvml_init_hint(NVML_ERROR_TIMEOUT), "Xid"));
	assert_non_null(
	    strstr(gt_nvml_init_hint(NVML_ERROR_UNKNOWN), "nvidia-smi"));
}

/* ------------------------------------------------------------------ */
/* clock-event reasons                                                  */
/* ------------------------------------------------------------------ */

static const struct {
	unsigned long long nvml;
	unsigned gt;
} thr_map[] = {
    {nvmlClocksEventReasonGpuIdle, GT_THR_IDLE},
    {nvmlClocksEventReasonApplicationsClocksSetting, GT_THR_APP_CLOCKS},
    {nvmlClocksEventReasonSwPowerCap, GT_THR_SW_POWER_CAP},
    {nvmlClocksEventReasonHwSlowdown, GT_THR_HW_SLOWDOWN},
    {nvmlClocksEventReasonSyncBoost, GT_THR_SYNC_BOOST},
    {nvmlClocksEventReasonSwThermalSlowdown, GT_THR_SW_THERMAL},
    {nvmlClocksEventReasonHwThermalSlowdown, GT_THR_HW_THERMAL},
    {nvmlClocksEventReasonHwPowerBrakeSlowdown, GT_THR_HW_POWER_BRAKE},
    {nvmlClocksEventReasonDisplayClockSetting, GT_THR_DISPLAY_CLOCKS},
};
#define NTHR (sizeof(thr_map) / sizeof(thr_map[0]))

static void test_throttle_each_bit(void **state)
{
	(void)state;
	assert_int_equal(gt_nvml_throttle(nvmlClocksEventReasonNone), 0);
	for (size_t i = 0; i < NTHR; i++)
		assert_int_equal(gt_nvml_throttle(thr_map[i].nvml),
		                 thr_map[i].gt);
	/* the raw values of the ABI, so a typo in a constant shows */
	assert_int_equal(gt_nvml_throttle(0x1), GT_THR_IDLE);
	assert_int_equal(gt_nvml_throttle(0x4), GT_THR_SW_POWER_CAP);
	assert_int_equal(gt_nvml_throttle(0x8), GT_THR_HW_SLOWDOWN);
	assert_int_equal(gt_nvml_throttle(0x20), GT_THR_SW_THERMAL);
	assert_int_equal(gt_nvml_throttle(0x40), GT_THR_HW_THERMAL);
	assert_int_equal(gt_nvml_throttle(0x80), GT_THR_HW_POWER_BRAKE);
	assert_int_equal(gt_nvml_throttle(0x100), GT_THR_DISPLAY_CLOCKS);
}

static void test_throttle_combinations(void **state)
{
	(void)state;
	/* every subset of the known bits maps bit for bit */
	for (unsigned mask = 0; mask < (1u << NTHR); mask++) {
		unsigned long long in = 0;
		unsigned want = 0;
		for (size_t i = 0; i < NTHR; i++)
			if (mask & (1u << i)) {
				in |= thr_map[i].nvml;
				want |= thr_map[i].gt;
			}
		assert_int_equal(gt_nvml_throttle(in), want);
	}
	assert_int_equal(gt_nvml_throttle(nvmlClocksEventReasonAll),
	                 GT_THR_IDLE | GT_THR_APP_CLOCKS | GT_THR_SW_POWER_CAP |
	                     GT_THR_HW_SLOWDOWN | GT_THR_SYNC_BOOST |
	                     GT_THR_SW_THERMAL | GT_THR_HW_THERMAL |
	                     GT_THR_HW_POWER_BRAKE | GT_THR_DISPLAY_CLOCKS);
}

static void test_throttle_unknown_bits(void **state)
{
	(void)state;
	for (unsigned b = 9; b < 64; b++) {
		unsigned long long bit = 1ull << b;
		assert_int_equal(gt_nvml_throttle(bit), GT_THR_OTHER);
		/* known bits beside it survive */
		assert_int_equal(
		    gt_nvml_throttle(bit | nvmlClocksEventReasonSwPowerCap),
		    GT_THR_OTHER | GT_THR_SW_POWER_CAP);
	}
	assert_int_equal(gt_nvml_throttle(~0ull),
	                 gt_nvml_throttle(nvmlClocksEventReasonAll) |
	                     GT_THR_OTHER);
	/* NVML has no current-limit bit: never invented */
	for (unsigned b = 0; b < 64; b++)
		assert_int_equal(
		    gt_nvml_throttle(1ull << b) & GT_THR_CURRENT_LIMIT, 0);
}

/* ------------------------------------------------------------------ */
/* field values                                                         */
/* ------------------------------------------------------------------ */

static nvmlFieldValue_t field(nvmlValueType_t type)
{
	nvmlFieldValue_t fv;
	memset(&fv, 0, sizeof(fv));
	fv.fieldId = NVML_FI_DEV_PCIE_COUNT_TX_BYTES;
	fv.valueType = type;
	fv.nvmlReturn = NVML_SUCCESS;
	return fv;
}

static void test_field_int_every_type(void **state)
{
	nvmlFieldValue_t fv;
	int64_t out;
	(void)state;

	fv = field(NVML_VALUE_TYPE_DOUBLE);
	fv.value.dVal = 42.9;
	assert_true(gt_nvml_field_int(&fv, &out));
	assert_int_equal(out, 42);
	fv.value.dVal = -3.7;
	assert_true(gt_nvml_field_int(&fv, &out));
	assert_true(out == -3);

	fv = field(NVML_VALUE_TYPE_UNSIGNED_INT);
	fv.value.uiVal = 0xffffffffu; /* not sign-extended */
	assert_true(gt_nvml_field_int(&fv, &out));
	assert_true(out == INT64_C(4294967295));

	fv = field(NVML_VALUE_TYPE_UNSIGNED_LONG);
	fv.value.ulVal = 1234567890123ul;
	assert_true(gt_nvml_field_int(&fv, &out));
	assert_true(out == INT64_C(1234567890123));

	fv = field(NVML_VALUE_TYPE_UNSIGNED_LONG_LONG);
	fv.value.ullVal = 9007199254740993ull;
	assert_true(gt_nvml_field_int(&fv, &out));
	assert_true(out == INT64_C(9007199254740993));
	fv.value.ullVal = (unsigned long long)INT64_MAX;
	assert_true(gt_nvml_field_int(&fv, &out));
	assert_true(out == INT64_MAX);

	fv = field(NVML_VALUE_TYPE_SIGNED_LONG_LONG);
	fv.value.sllVal = -5;
	assert_true(gt_nvml_field_int(&fv, &out));
	assert_true(out == -5);
	fv.value.sllVal = INT64_MIN;
	assert_true(gt_nvml_field_int(&fv, &out));
	assert_true(out == INT64_MIN);

	fv = field(NVML_VALUE_TYPE_SIGNED_INT);
	fv.value.siVal = -7;
	assert_true(gt_nvml_field_int(&fv, &out));
	assert_true(out == -7);

	fv = field(NVML_VALUE_TYPE_UNSIGNED_SHORT);
	fv.value.ullVal = ~0ull; /* only the short is read */
	fv.value.usVal = 65535;
	assert_true(gt_nvml_field_int(&fv, &out));
	assert_int_equal(out, 65535);
}

static void test_field_int_unknown_type(void **state)
{
	nvmlFieldValue_t fv;
	int64_t out = 77;
	(void)state;

	fv = field(NVML_VALUE_TYPE_COUNT);
	fv.value.ullVal = 5;
	assert_false(gt_nvml_field_int(&fv, &out));
	fv = field((nvmlValueType_t)99);
	assert_false(gt_nvml_field_int(&fv, &out));
	fv = field((nvmlValueType_t)-1);
	assert_false(gt_nvml_field_int(&fv, &out));
	assert_int_equal(out, 77); /* untouched */
}

static void test_field_int_failed_element(void **state)
{
	static const nvmlReturn_t fails[] = {
	    NVML_ERROR_NOT_SUPPORTED, NVML_ERROR_NO_PERMISSION,
	    NVML_ERROR_INVALID_ARGUMENT, NVML_ERROR_GPU_IS_LOST,
	    NVML_ERROR_UNKNOWN};
	(void)state;

	for (size_t i = 0; i < sizeof(fails) / sizeof(fails[0]); i++) {
		for (int t = 0; t < NVML_VALUE_TYPE_COUNT; t++) {
			nvmlFieldValue_t fv = field((nvmlValueType_t)t);
			int64_t out = 77;
			fv.value.ullVal = 123;
			fv.nvmlReturn = fails[i];
			assert_false(gt_nvml_field_int(&fv, &out));
			assert_int_equal(out, 77);
		}
	}
}

/* Converting a NaN or an out-of-range double to int64_t is undefined
 * behaviour in C; such a value is unusable, not a number to show. */
static void test_field_int_double_out_of_range(void **state)
{
	static const double bad[] = {NAN,    INFINITY, -INFINITY, 1e300,
	                             -1e300, 9.3e18,   -9.3e18};
	(void)state;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		nvmlFieldValue_t fv = field(NVML_VALUE_TYPE_DOUBLE);
		int64_t out = 77;
		fv.value.dVal = bad[i];
		if (gt_nvml_field_int(&fv, &out))
			fail_msg("double %g accepted as %lld", bad[i],
			         (long long)out);
	}
}

/* An unsigned value above INT64_MAX would come out negative. */
static void test_field_int_unsigned_above_int64(void **state)
{
	nvmlFieldValue_t fv;
	int64_t out = 77;
	(void)state;

	fv = field(NVML_VALUE_TYPE_UNSIGNED_LONG_LONG);
	fv.value.ullVal = ~0ull;
	if (gt_nvml_field_int(&fv, &out))
		assert_true(out >= 0);
	fv.value.ullVal = (unsigned long long)INT64_MAX + 1;
	if (gt_nvml_field_int(&fv, &out))
		assert_true(out >= 0);
	fv = field(NVML_VALUE_TYPE_UNSIGNED_LONG);
	fv.value.ulVal = ~0ul;
	if (gt_nvml_field_int(&fv, &out))
		assert_true(out >= 0);
}

/* ------------------------------------------------------------------ */
/* PCI bus id, architecture                                             */
/* ------------------------------------------------------------------ */

static nvmlPciInfo_t pci(unsigned domain, unsigned bus, unsigned dev)
{
	nvmlPciInfo_t p;
	memset(&p, 0, sizeof(p));
	/* NVML's own strings are upper-case and 8-digit: never used */
	memcpy(p.busIdLegacy, "00000000:FF:1F.", 15);
	memcpy(p.busId, "00000000:FF:1F.0", 17);
	p.domain = domain;
	p.bus = bus;
	p.device = dev;
	p.pciDeviceId = 0x233010de;
	return p;
}

static void test_bus_id(void **state)
{
	char buf[GT_STR_SHORT];
	nvmlPciInfo_t p;
	(void)state;

	p = pci(0, 0x18, 0);
	gt_nvml_bus_id(buf, sizeof(buf), &p);
	assert_string_equal(buf, "0000:18:00.0");

	p = pci(0, 0xab, 0x1f);
	gt_nvml_bus_id(buf, sizeof(buf), &p);
	assert_string_equal(buf, "0000:ab:1f.0"); /* lower-case hex */

	p = pci(0x00c1, 0x0e, 0x03);
	gt_nvml_bus_id(buf, sizeof(buf), &p);
	assert_string_equal(buf, "00c1:0e:03.0");

	p = pci(0xffff, 0xff, 0xff);
	gt_nvml_bus_id(buf, sizeof(buf), &p);
	assert_string_equal(buf, "ffff:ff:ff.0");

	/* domains above 0xffff (Intel VMD) stay whole, as Linux names
	 * them; bus and device are cut to 8 bits */
	p = pci(0x10000, 0x18, 0);
	gt_nvml_bus_id(buf, sizeof(buf), &p);
	assert_string_equal(buf, "10000:18:00.0");
	p = pci(0x10000, 0x118, 0x100);
	gt_nvml_bus_id(buf, sizeof(buf), &p);
	assert_string_equal(buf, "10000:18:00.0");

	/* a short buffer is cut and terminated, nothing written past it */
	char *small = malloc(8);
	assert_non_null(small);
	p = pci(0, 0x18, 0);
	gt_nvml_bus_id(small, 8, &p);
	assert_string_equal(small, "0000:18");
	free(small);
}

static void test_arch_name(void **state)
{
	(void)state;
	assert_string_equal(gt_nvml_arch_name(NVML_DEVICE_ARCH_KEPLER),
	                    "Kepler");
	assert_string_equal(gt_nvml_arch_name(NVML_DEVICE_ARCH_MAXWELL),
	                    "Maxwell");
	assert_string_equal(gt_nvml_arch_name(NVML_DEVICE_ARCH_PASCAL),
	                    "Pascal");
	assert_string_equal(gt_nvml_arch_name(NVML_DEVICE_ARCH_VOLTA), "Volta");
	assert_string_equal(gt_nvml_arch_name(NVML_DEVICE_ARCH_TURING),
	                    "Turing");
	assert_string_equal(gt_nvml_arch_name(NVML_DEVICE_ARCH_AMPERE),
	                    "Ampere");
	assert_string_equal(gt_nvml_arch_name(NVML_DEVICE_ARCH_ADA),
	                    "Ada Lovelace");
	assert_string_equal(gt_nvml_arch_name(NVML_DEVICE_ARCH_HOPPER),
	                    "Hopper");
	assert_string_equal(gt_nvml_arch_name(NVML_DEVICE_ARCH_BLACKWELL),
	                    "Blackwell");
	assert_string_equal(gt_nvml_arch_name(NVML_DEVICE_ARCH_RUBIN), "Rubin");
	/* raw ABI values */
	assert_string_equal(gt_nvml_arch_name(9), "Hopper");
	assert_string_equal(gt_nvml_arch_name(10), "Blackwell");
	/* unknown: empty, so the snapshot writes null */
	assert_string_equal(gt_nvml_arch_name(NVML_DEVICE_ARCH_UNKNOWN), "");
	assert_string_equal(gt_nvml_arch_name(0), "");
	assert_string_equal(gt_nvml_arch_name(1), "");
	assert_string_equal(gt_nvml_arch_name(11), "");
	assert_string_equal(gt_nvml_arch_name(12), "");
	assert_string_equal(gt_nvml_arch_name(14), "");
}

/* ------------------------------------------------------------------ */
/* process-list merging                                                 */
/* ------------------------------------------------------------------ */

#define NA  GT_NVML_MEMORY_NOT_AVAILABLE
#define GIB (1024ull * 1024 * 1024)

/* Merges into an exact-size heap array (ASan checks the bound). */
static size_t merge(const struct gt_nvml_proc *in, size_t n,
                    struct gt_nvml_proc *result)
{
	struct gt_nvml_proc *out = malloc((n ? n : 1) * sizeof(*out));
	assert_non_null(out);
	size_t m = gt_nvml_merge_procs(in, n, out);
	assert_true(m <= n);
	memcpy(result, out, m * sizeof(*out));
	free(out);
	return m;
}

static void test_merge_compute_and_graphics(void **state)
{
	const struct gt_nvml_proc in[] = {
	    {100, 1 * GIB, GT_PROC_COMPUTE, 0, 0},
	    {200, NA, GT_PROC_COMPUTE, 0, 0},
	    {100, 1 * GIB, GT_PROC_GRAPHICS, 0, 0},
	    {300, 5 * GIB, GT_PROC_GRAPHICS, 0, 0},
	    {200, 2048, GT_PROC_GRAPHICS, 0, 0},
	};
	struct gt_nvml_proc out[5];
	(void)state;

	size_t m = merge(in, 5, out);
	assert_int_equal(m, 3);
	assert_int_equal(out[0].pid, 100);
	assert_int_equal(out[0].type, GT_PROC_BOTH);
	assert_true(out[0].mem == 1 * GIB); /* not doubled */
	assert_int_equal(out[1].pid, 200);
	assert_int_equal(out[1].type, GT_PROC_BOTH);
	assert_true(out[1].mem == 2048); /* the known value replaces N/A */
	assert_int_equal(out[2].pid, 300);
	assert_int_equal(out[2].type, GT_PROC_GRAPHICS);
	assert_true(out[2].mem == 5 * GIB);
}

static void test_merge_memory_rules(void **state)
{
	struct gt_nvml_proc out[2];
	(void)state;

	/* the larger of two reports, in either order */
	const struct gt_nvml_proc a[] = {{1, 10, GT_PROC_COMPUTE, 0, 0},
	                                 {1, 30, GT_PROC_GRAPHICS, 0, 0}};
	assert_int_equal(merge(a, 2, out), 1);
	assert_true(out[0].mem == 30);
	const struct gt_nvml_proc b[] = {{1, 30, GT_PROC_COMPUTE, 0, 0},
	                                 {1, 10, GT_PROC_GRAPHICS, 0, 0}};
	assert_int_equal(merge(b, 2, out), 1);
	assert_true(out[0].mem == 30);
	/* N/A never wins over a known value ... */
	const struct gt_nvml_proc c[] = {{1, 500, GT_PROC_COMPUTE, 0, 0},
	                                 {1, NA, GT_PROC_GRAPHICS, 0, 0}};
	assert_int_equal(merge(c, 2, out), 1);
	assert_true(out[0].mem == 500);
	/* ... even a known zero */
	const struct gt_nvml_proc d[] = {{1, 0, GT_PROC_COMPUTE, 0, 0},
	                                 {1, NA, GT_PROC_GRAPHICS, 0, 0}};
	assert_int_equal(merge(d, 2, out), 1);
	assert_true(out[0].mem == 0);
	const struct gt_nvml_proc d2[] = {{1, NA, GT_PROC_COMPUTE, 0, 0},
	                                  {1, 0, GT_PROC_GRAPHICS, 0, 0}};
	assert_int_equal(merge(d2, 2, out), 1);
	assert_true(out[0].mem == 0);
	/* both unknown stays unknown */
	const struct gt_nvml_proc e[] = {{1, NA, GT_PROC_COMPUTE, 0, 0},
	                                 {1, NA, GT_PROC_GRAPHICS, 0, 0}};
	assert_int_equal(merge(e, 2, out), 1);
	assert_true(out[0].mem == NA);
	assert_int_equal(out[0].type, GT_PROC_BOTH);
	/* a lone N/A entry passes through */
	const struct gt_nvml_proc f[] = {{7, NA, GT_PROC_COMPUTE, 0, 0}};
	assert_int_equal(merge(f, 1, out), 1);
	assert_true(out[0].mem == NA);
	assert_int_equal(out[0].type, GT_PROC_COMPUTE);
	/* the same pid twice in one list (compute + MPS) stays compute */
	const struct gt_nvml_proc g[] = {{9, 100, GT_PROC_COMPUTE, 0, 0},
	                                 {9, 100, GT_PROC_COMPUTE, 0, 0}};
	assert_int_equal(merge(g, 2, out), 1);
	assert_int_equal(out[0].type, GT_PROC_COMPUTE);
	assert_true(out[0].mem == 100);
}

static void test_merge_order_and_edges(void **state)
{
	const struct gt_nvml_proc in[] = {
	    {5, 1, GT_PROC_COMPUTE, 0, 0},  {3, 2, GT_PROC_COMPUTE, 0, 0},
	    {9, 3, GT_PROC_GRAPHICS, 0, 0}, {3, 4, GT_PROC_GRAPHICS, 0, 0},
	    {1, 5, GT_PROC_GRAPHICS, 0, 0}, {5, 6, GT_PROC_GRAPHICS, 0, 0},
	    {0, 7, GT_PROC_COMPUTE, 0, 0},
	};
	struct gt_nvml_proc out[7];
	(void)state;

	size_t m = merge(in, 7, out);
	assert_int_equal(m, 5);
	static const unsigned want_pid[] = {5, 3, 9, 1, 0};
	static const unsigned long long want_mem[] = {6, 4, 3, 5, 7};
	static const uint8_t want_type[] = {GT_PROC_BOTH,
	                                    GT_PROC_BOTH,
	                                    GT_PROC_GRAPHICS,
	                                    GT_PROC_GRAPHICS,
	                                    GT_PROC_COMPUTE,
	                                    0,
	                                    0};
	for (size_t i = 0; i < m; i++) {
		assert_int_equal(out[i].pid, want_pid[i]);
		assert_true(out[i].mem == want_mem[i]);
		assert_int_equal(out[i].type, want_type[i]);
	}

	/* nothing in, nothing out */
	assert_int_equal(gt_nvml_merge_procs(in, 0, out), 0);

	/* all distinct: a copy */
	m = merge(in, 3, out);
	assert_int_equal(m, 3);
	assert_memory_equal(out, in, 3 * sizeof(in[0]));
}

/* ------------------------------------------------------------------ */
/* loading the library                                                  */
/* ------------------------------------------------------------------ */

static void test_mig_profile(void **state)
{
	static const struct {
		const char *name, *profile; /* NULL: no profile */
	} cases[] = {
	    {"NVIDIA A100-SXM4-40GB MIG 3g.20gb", "3g.20gb"},
	    {"NVIDIA H100 80GB HBM3 MIG 1g.10gb", "1g.10gb"},
	    {"NVIDIA A100-SXM4-80GB MIG 1c.3g.40gb", "1c.3g.40gb"},
	    {"NVIDIA H100 80GB HBM3 MIG 1g.10gb+me", "1g.10gb+me"},
	    /* the last " MIG " counts: a GPU name may hold the word */
	    {"Fancy MIG Board MIG 2g.10gb", "2g.10gb"},
	    {"NVIDIA A100-SXM4-40GB", NULL},
	    {"NVIDIA A100-SXM4-40GB MIG ", NULL},
	    {"NVIDIA A100 MIG 3g/20gb", NULL},
	    {"", NULL},
	};
	char out[GT_STR_SHORT];
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool ok = gt_nvml_mig_profile(cases[i].name, out, sizeof(out));
		if (cases[i].profile) {
			assert_true(ok);
			assert_string_equal(out, cases[i].profile);
		} else {
			assert_false(ok);
			assert_string_equal(out, "");
		}
	}
	/* A profile longer than the buffer is refused, never cut. */
	char tiny[4];
	assert_false(gt_nvml_mig_profile("X MIG 3g.20gb", tiny, sizeof(tiny)));
	assert_string_equal(tiny, "");
}

/* Merged entries keep the MIG instance of their first report. */
static void test_merge_keeps_instance(void **state)
{
	const struct gt_nvml_proc in[] = {
	    {10, 1 * GIB, GT_PROC_COMPUTE, 1, 0},
	    {20, 2 * GIB, GT_PROC_COMPUTE, 5, 0},
	    {10, 1 * GIB, GT_PROC_GRAPHICS, 1, 0},
	};
	struct gt_nvml_proc out[3];
	(void)state;

	assert_int_equal(merge(in, 3, out), 2);
	assert_int_equal(out[0].gi, 1);
	assert_int_equal(out[0].type, GT_PROC_BOTH);
	assert_int_equal(out[1].gi, 5);
	assert_int_equal(out[1].ci, 0);
}

static void check_api_empty(const struct gt_nvml_api *api)
{
	struct gt_nvml_api zero;
	memset(&zero, 0, sizeof(zero));
	assert_memory_equal(api, &zero, sizeof(zero));
}

static void test_load_missing_library(void **state)
{
	static const char path[] = "/nonexistent/gputop-test/libnvidia-ml.so.1";
	struct gt_nvml_api api;
	char why[512];
	(void)state;

	memset(&api, 0x5a, sizeof(api));
	why[0] = '\0';
	assert_int_equal(gt_nvml_api_load(&api, path, why, sizeof(why)), -1);
	if (!strstr(why, path))
		fail_msg("reason does not name the path: %s", why);
	assert_non_null(strstr(why, "--nvml-lib"));
	check_api_empty(&api);
	gt_nvml_api_unload(&api); /* harmless after a failure */
	check_api_empty(&api);
}

/* A path that is no regular file is refused before dlopen, whose plain
 * open of a FIFO would block for ever; the reason names what it is. */
static void test_load_not_a_file(void **state)
{
	struct gt_nvml_api api;
	char dir[] = "/tmp/gputop-nvml-XXXXXX", fifo[64], why[512];
	(void)state;

	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/libnvidia-ml.so.1", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	static const struct {
		const char *path, *what;
	} cases[] = {{NULL, "a FIFO"},
	             {"/dev/zero", "a device"},
	             {"/tmp", "a directory"}};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *p = cases[i].path ? cases[i].path : fifo;
		memset(&api, 0x5a, sizeof(api));
		why[0] = '\0';
		assert_int_equal(gt_nvml_api_load(&api, p, why, sizeof(why)),
		                 -1);
		if (!strstr(why, p) || !strstr(why, cases[i].what))
			fail_msg("%s: reason '%s' lacks the path or '%s'", p,
			         why, cases[i].what);
		check_api_empty(&api);
	}
	unlink(fifo);
	rmdir(dir);
}

static void test_load_library_without_nvml(void **state)
{
	struct gt_nvml_api api;
	char why[512];
	(void)state;

	why[0] = '\0';
	assert_int_equal(gt_nvml_api_load(&api, "libc.so.6", why, sizeof(why)),
	                 -1);
	if (!strstr(why, "nvmlInit_v2"))
		fail_msg("reason does not name nvmlInit_v2: %s", why);
	assert_non_null(strstr(why, "libc.so.6"));
	check_api_empty(&api); /* closed again, nothing left resolved */
}

static void test_load_default_library(void **state)
{
	struct gt_nvml_api api;
	char why[512] = "";
	(void)state;

	if (gt_nvml_api_load(&api, NULL, why, sizeof(why)) == 0) {
		/* a machine with the driver: the required entry points */
		assert_non_null(api.dl);
		assert_non_null(api.init);
		assert_non_null(api.shutdown);
		assert_non_null(api.error_string);
		assert_non_null(api.count);
		assert_non_null(api.handle_by_index);
		gt_nvml_api_unload(&api);
		check_api_empty(&api);
		return;
	}
	assert_non_null(strstr(why, "libnvidia-ml.so.1"));
	assert_non_null(strstr(why, "--nvml-lib"));
}

static void test_load_short_reason_buffer(void **state)
{
	struct gt_nvml_api api;
	(void)state;

	for (size_t len = 1; len < 40; len += 3) {
		char *why = malloc(len);
		assert_non_null(why);
		assert_int_equal(
		    gt_nvml_api_load(&api, "/nonexistent/x.so", why, len), -1);
		assert_true(strnlen(why, len) < len);
		assert_int_equal(gt_nvml_api_load(&api, "libc.so.6", why, len),
		                 -1);
		assert_true(strnlen(why, len) < len);
		free(why);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_why_every_code),
	    cmocka_unit_test(test_is_lost),
	    cmocka_unit_test(test_init_hint),
	    cmocka_unit_test(test_throttle_each_bit),
	    cmocka_unit_test(test_throttle_combinations),
	    cmocka_unit_test(test_throttle_unknown_bits),
	    cmocka_unit_test(test_field_int_every_type),
	    cmocka_unit_test(test_field_int_unknown_type),
	    cmocka_unit_test(test_field_int_failed_element),
	    cmocka_unit_test(test_field_int_double_out_of_range),
	    cmocka_unit_test(test_field_int_unsigned_above_int64),
	    cmocka_unit_test(test_bus_id),
	    cmocka_unit_test(test_arch_name),
	    cmocka_unit_test(test_merge_compute_and_graphics),
	    cmocka_unit_test(test_mig_profile),
	    cmocka_unit_test(test_merge_keeps_instance),
	    cmocka_unit_test(test_merge_memory_rules),
	    cmocka_unit_test(test_merge_order_and_edges),
	    cmocka_unit_test(test_load_missing_library),
	    cmocka_unit_test(test_load_not_a_file),
	    cmocka_unit_test(test_load_library_without_nvml),
	    cmocka_unit_test(test_load_default_library),
	    cmocka_unit_test(test_load_short_reason_buffer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

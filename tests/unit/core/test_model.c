/* SPDX-License-Identifier: MIT */
/*
 * test_model.c - the vendor-neutral data model of src/model.c: the gt_val
 * helpers, "unknown is never zero" initialisation, unit scaling, throttle
 * and reason names, the process vector, and the descriptor tables that every
 * JSON writer walks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/model.h"

/* ------------------------------------------------------------------ */
/* gt_val helpers                                                       */
/* ------------------------------------------------------------------ */

static void test_val_set_and_fail(void **state)
{
	struct gt_val v;
	(void)state;

	memset(&v, 0xa5, sizeof(v));
	gt_val_set(&v, 42);
	assert_true(gt_val_ok(&v));
	assert_int_equal(v.v, 42);
	assert_int_equal(v.code, 0);
	assert_int_equal(v.why, GT_WHY_OK);

	/* zero is a valid value, not "unknown" */
	gt_val_set(&v, 0);
	assert_true(gt_val_ok(&v));
	gt_val_set(&v, INT64_MIN);
	assert_true(gt_val_ok(&v));
	assert_true(v.v == INT64_MIN);

	gt_val_fail(&v, GT_WHY_DRIVER_ERROR, 999);
	assert_false(gt_val_ok(&v));
	assert_int_equal(v.why, GT_WHY_DRIVER_ERROR);
	assert_int_equal(v.code, 999);
	assert_int_equal(v.v, 0);

	/* setting a value again clears the failure and its code */
	gt_val_set(&v, -7);
	assert_true(gt_val_ok(&v));
	assert_int_equal(v.code, 0);
	assert_true(v.v == -7);

	for (int why = GT_WHY_OK + 1; why < GT_WHY__COUNT; why++) {
		gt_val_fail(&v, (enum gt_why)why, -3);
		assert_false(gt_val_ok(&v));
		assert_int_equal(v.why, why);
		assert_int_equal(v.code, -3);
	}
}

static void test_copy_str(void **state)
{
	char buf[8];
	(void)state;

	memset(buf, 'X', sizeof(buf));
	gt_copy_str(buf, sizeof(buf), "abc");
	assert_string_equal(buf, "abc");

	memset(buf, 'X', sizeof(buf));
	gt_copy_str(buf, sizeof(buf), "0123456789");
	assert_string_equal(buf, "0123456");

	memset(buf, 'X', sizeof(buf));
	gt_copy_str(buf, 1, "abc");
	assert_int_equal(buf[0], '\0');
	assert_int_equal(buf[1], 'X');

	memset(buf, 'X', sizeof(buf));
	gt_copy_str(buf, 0, "abc"); /* writes nothing at all */
	assert_int_equal(buf[0], 'X');

	gt_copy_str(buf, sizeof(buf), "");
	assert_string_equal(buf, "");
}

/* ------------------------------------------------------------------ */
/* initialisation: unknown is never zero                                */
/* ------------------------------------------------------------------ */

static void test_static_init_not_collected(void **state)
{
	struct gt_static st;
	(void)state;

	/* garbage in: everything must be overwritten */
	memset(&st, 0x5a, sizeof(st));
	st.f[3].why = GT_WHY_OK;
	gt_static_init(&st);
	for (int i = 0; i < GT_S__COUNT; i++) {
		assert_false(gt_val_ok(&st.f[i]));
		assert_int_equal(st.f[i].why, GT_WHY_NOT_COLLECTED);
		assert_int_equal(st.f[i].code, 0);
	}
	assert_string_equal(st.id, "");
	assert_string_equal(st.name, "");
	assert_string_equal(st.uuid, "");
	assert_string_equal(st.pci_bus_id, "");
	assert_string_equal(st.driver, "");
	assert_string_equal(st.architecture, "");
	assert_int_equal(st.vendor, GT_VENDOR_UNKNOWN);
	assert_false(st.demo);
	assert_false(st.integrated);
	assert_int_equal(st.index, 0);
}

static void test_sample_init_not_collected(void **state)
{
	struct gt_sample s;
	(void)state;

	memset(&s, 0x5a, sizeof(s));
	for (int i = 0; i < GT_F__COUNT; i++)
		gt_val_set(&s.f[i], 0);
	gt_sample_init(&s);
	for (int i = 0; i < GT_F__COUNT; i++) {
		assert_false(gt_val_ok(&s.f[i]));
		assert_int_equal(s.f[i].why, GT_WHY_NOT_COLLECTED);
	}
	assert_int_equal(s.fan_count, 0);
	assert_int_equal(s.state, GT_DEV_OK);
	assert_int_equal(s.seq, 0);
	assert_int_equal(s.monotonic_ns, 0);
}

static void test_sample_fail_all(void **state)
{
	struct gt_sample s;
	(void)state;

	for (int why = GT_WHY_NOT_COLLECTED; why < GT_WHY__COUNT; why++) {
		gt_sample_init(&s);
		for (int i = 0; i < GT_F__COUNT; i++)
			gt_val_set(&s.f[i], 1000 + i);
		s.fan_count = 3;
		s.seq = 77;
		gt_sample_fail_all(&s, (enum gt_why)why);
		for (int i = 0; i < GT_F__COUNT; i++) {
			assert_false(gt_val_ok(&s.f[i]));
			assert_int_equal(s.f[i].why, why);
			assert_int_equal(s.f[i].v, 0);
		}
		/* only the values change */
		assert_int_equal(s.fan_count, 3);
		assert_int_equal(s.seq, 77);
	}
}

/* ------------------------------------------------------------------ */
/* units and names                                                      */
/* ------------------------------------------------------------------ */

static void test_unit_to_json(void **state)
{
	(void)state;
	/* exact in binary floating point, so == is the right comparison */
	assert_true(gt_unit_to_json(GT_UNIT_CPERCENT, 4550) == 45.5);
	assert_true(gt_unit_to_json(GT_UNIT_CPERCENT, 10000) == 100.0);
	assert_true(gt_unit_to_json(GT_UNIT_CPERCENT, 0) == 0.0);
	assert_true(gt_unit_to_json(GT_UNIT_MILLICELSIUS, 71250) == 71.25);
	assert_true(gt_unit_to_json(GT_UNIT_MILLICELSIUS, -500) == -0.5);
	assert_true(gt_unit_to_json(GT_UNIT_MILLIWATT, 250500) == 250.5);
	assert_true(gt_unit_to_json(GT_UNIT_MILLIJOULE, 1234500) == 1234.5);
	assert_true(gt_unit_to_json(GT_UNIT_MILLIJOULE, 123456789) ==
	            123456789 / 1000.0);
	/* unscaled units */
	assert_true(gt_unit_to_json(GT_UNIT_COUNT, 7) == 7.0);
	assert_true(gt_unit_to_json(GT_UNIT_BYTES, INT64_C(85899345920)) ==
	            85899345920.0);
	assert_true(gt_unit_to_json(GT_UNIT_BYTES_PER_S, 123456) == 123456.0);
	assert_true(gt_unit_to_json(GT_UNIT_MHZ, 1980) == 1980.0);
	assert_true(gt_unit_to_json(GT_UNIT_RPM, 3200) == 3200.0);
	assert_true(gt_unit_to_json(GT_UNIT_BITMASK, 0x8005) == 32773.0);
	assert_true(gt_unit_to_json(GT_UNIT_BOOL, 1) == 1.0);
}

static void test_vendor_name(void **state)
{
	(void)state;
	assert_string_equal(gt_vendor_name(GT_VENDOR_NVIDIA), "nvidia");
	assert_string_equal(gt_vendor_name(GT_VENDOR_AMD), "amd");
	assert_string_equal(gt_vendor_name(GT_VENDOR_INTEL), "intel");
	assert_string_equal(gt_vendor_name(GT_VENDOR_UNKNOWN), "unknown");
	assert_string_equal(gt_vendor_name((enum gt_vendor)77), "unknown");
}

static void test_throttle_names(void **state)
{
	static const struct {
		unsigned bit;
		const char *name;
	} want[] = {
	    {GT_THR_IDLE, "idle"},
	    {GT_THR_APP_CLOCKS, "applications_clocks"},
	    {GT_THR_SW_POWER_CAP, "power_cap"},
	    {GT_THR_HW_SLOWDOWN, "hw_slowdown"},
	    {GT_THR_SYNC_BOOST, "sync_boost"},
	    {GT_THR_SW_THERMAL, "sw_thermal"},
	    {GT_THR_HW_THERMAL, "hw_thermal"},
	    {GT_THR_HW_POWER_BRAKE, "hw_power_brake"},
	    {GT_THR_DISPLAY_CLOCKS, "display_clocks"},
	    {GT_THR_CURRENT_LIMIT, "current_limit"},
	    {GT_THR_OTHER, "other"},
	};
	(void)state;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const char *n = gt_throttle_name(want[i].bit);
		assert_non_null(n);
		assert_string_equal(n, want[i].name);
	}
	/* every other single bit, zero and combinations are unknown */
	for (unsigned b = 0; b < 32; b++) {
		unsigned bit = 1u << b;
		bool known = false;
		for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
			known = known || want[i].bit == bit;
		if (!known)
			assert_null(gt_throttle_name(bit));
	}
	assert_null(gt_throttle_name(0));
	assert_null(gt_throttle_name(GT_THR_IDLE | GT_THR_SW_POWER_CAP));
}

static void test_active_mask(void **state)
{
	(void)state;
	/* idleness and clock settings are not "held back" */
	assert_int_equal(GT_THR_ACTIVE_MASK & GT_THR_IDLE, 0);
	assert_int_equal(GT_THR_ACTIVE_MASK & GT_THR_APP_CLOCKS, 0);
	assert_int_equal(GT_THR_ACTIVE_MASK & GT_THR_DISPLAY_CLOCKS, 0);
	assert_true(GT_THR_ACTIVE_MASK & GT_THR_SW_POWER_CAP);
	assert_true(GT_THR_ACTIVE_MASK & GT_THR_HW_THERMAL);
	assert_true(GT_THR_ACTIVE_MASK & GT_THR_OTHER);
}

/* ------------------------------------------------------------------ */
/* gt_why_text                                                          */
/* ------------------------------------------------------------------ */

static const char *why_of(enum gt_why why, int32_t code, const char *code_text,
                          char *buf, size_t len)
{
	struct gt_val v;
	gt_val_fail(&v, why, code);
	if (why == GT_WHY_OK)
		gt_val_set(&v, 1);
	return gt_why_text(&v, code_text, buf, len);
}

static void test_why_text_every_reason(void **state)
{
	static const struct {
		enum gt_why why;
		const char *needle;
	} want[] = {
	    {GT_WHY_OK, "available"},
	    {GT_WHY_NOT_COLLECTED, "not collected"},
	    {GT_WHY_UNSUPPORTED_DEVICE, "not supported by this device"},
	    {GT_WHY_UNSUPPORTED_DRIVER, "driver version"},
	    {GT_WHY_PERMISSION, "permission denied"},
	    {GT_WHY_PENDING, "second sample"},
	    {GT_WHY_LOST, "device lost"},
	    {GT_WHY_MIG, "MIG"},
	    {GT_WHY_NO_SENSOR, "no sensor"},
	    {GT_WHY_ASLEEP, "asleep"},
	    {GT_WHY_RANGE, "out of range"},
	};
	char texts[GT_WHY__COUNT][256];
	(void)state;

	_Static_assert(GT_WHY__COUNT == 13, "a new reason needs a text test");
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char *buf = texts[want[i].why];
		const char *r = why_of(want[i].why, 0, NULL, buf, 256);
		assert_ptr_equal(r, buf);
		assert_non_null(strstr(buf, want[i].needle));
	}
	why_of(GT_WHY_DRIVER_ERROR, 7, NULL, texts[GT_WHY_DRIVER_ERROR], 256);
	why_of(GT_WHY_MALFORMED,
	       gt_why_fdinfo_key(GT_WHY_FDI_MEMORY, GT_WHY_FDI_VRAM, -1), NULL,
	       texts[GT_WHY_MALFORMED], 256);
	/* every reason reads differently */
	for (int a = 0; a < GT_WHY__COUNT; a++) {
		assert_true(strlen(texts[a]) > 0);
		for (int b = a + 1; b < GT_WHY__COUNT; b++)
			assert_string_not_equal(texts[a], texts[b]);
	}

	/* a status byte out of range is not a crash */
	struct gt_val v = {0, 0, 200};
	char buf[64];
	gt_why_text(&v, NULL, buf, sizeof(buf));
	assert_string_equal(buf, "unknown");
}

/* An fdinfo line that could not be read names its key, however packed:
 * each family, each region base, with and without an index, and an index
 * past what a code holds dropped rather than packed wrong. */
static void test_why_text_malformed_key(void **state)
{
	static const struct {
		enum gt_why_fdinfo_family family;
		enum gt_why_fdinfo_region region;
		int64_t index;
		const char *key;
	} want[] = {
	    {GT_WHY_FDI_MEMORY, GT_WHY_FDI_VRAM, -1, "drm-memory-vram:"},
	    {GT_WHY_FDI_RESIDENT, GT_WHY_FDI_LOCAL, 0, "drm-resident-local0:"},
	    {GT_WHY_FDI_TOTAL, GT_WHY_FDI_VRAM, 1, "drm-total-vram1:"},
	    {GT_WHY_FDI_TOTAL, GT_WHY_FDI_SYSTEM, GT_WHY_FDI_INDEX_MAX,
	     "drm-total-system16777215:"},
	    {GT_WHY_FDI_TOTAL, GT_WHY_FDI_SYSTEM, GT_WHY_FDI_INDEX_MAX + 1LL,
	     "drm-total-system:"},
	    {GT_WHY_FDI_MEMORY, GT_WHY_FDI_GTT, -1, "drm-memory-gtt:"},
	    {GT_WHY_FDI_MEMORY, GT_WHY_FDI_CPU, -1, "drm-memory-cpu:"},
	    {GT_WHY_FDI_RESIDENT, GT_WHY_FDI_MEMORY_REGION, -1,
	     "drm-resident-memory:"},
	    {GT_WHY_FDI_LEGACY, GT_WHY_FDI_VRAM, -1, "line vram mem:"},
	};
	char buf[256];
	(void)state;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		int32_t code = gt_why_fdinfo_key(want[i].family, want[i].region,
		                                 want[i].index);
		why_of(GT_WHY_MALFORMED, code, NULL, buf, sizeof(buf));
		if (!strstr(buf, want[i].key) ||
		    !strstr(buf, "could not be read") ||
		    strstr(buf, "not supported"))
			fail_msg("%s: '%s'", want[i].key, buf);
	}
	/* a code no key packs to is not a crash */
	why_of(GT_WHY_MALFORMED, 7 << 2, NULL, buf, sizeof(buf));
	assert_non_null(strstr(buf, "line ?:"));
}

/* Every reason has its own advice; those a user can act on name the
 * action instead of "nothing to do". */
static void test_why_fix_every_reason(void **state)
{
	static const struct {
		enum gt_why why;
		const char *needle;
	} actionable[] = {
	    {GT_WHY_UNSUPPORTED_DRIVER, "update the GPU driver"},
	    {GT_WHY_PERMISSION, "root"},
	    {GT_WHY_DRIVER_ERROR, "dmesg"},
	    {GT_WHY_LOST, "dmesg"},
	    {GT_WHY_MIG, "nvidia-smi -mig 0"},
	    {GT_WHY_MALFORMED, "/proc/PID/fdinfo"},
	    {GT_WHY_RANGE, "driver's maintainers"},
	};
	(void)state;

	_Static_assert(GT_WHY__COUNT == 13, "a new reason needs a fix test");
	for (int a = 0; a < GT_WHY__COUNT; a++) {
		const char *fa = gt_why_fix((enum gt_why)a);
		assert_non_null(fa);
		assert_string_not_equal(fa, "nothing known to do");
		for (int b = a + 1; b < GT_WHY__COUNT; b++)
			assert_string_not_equal(fa, gt_why_fix((enum gt_why)b));
	}
	for (size_t i = 0; i < sizeof(actionable) / sizeof(actionable[0]);
	     i++) {
		const char *f = gt_why_fix(actionable[i].why);
		assert_non_null(strstr(f, actionable[i].needle));
		assert_null(strstr(f, "nothing to do:"));
	}
	assert_string_equal(gt_why_fix(GT_WHY__COUNT), "nothing known to do");
}

static void test_why_text_driver_error(void **state)
{
	char buf[128];
	(void)state;

	why_of(GT_WHY_DRIVER_ERROR, 999, "Unknown Error", buf, sizeof(buf));
	assert_string_equal(buf, "driver error 999: Unknown Error");

	why_of(GT_WHY_DRIVER_ERROR, 999, NULL, buf, sizeof(buf));
	assert_string_equal(buf, "driver error 999");

	why_of(GT_WHY_DRIVER_ERROR, -5, NULL, buf, sizeof(buf));
	assert_string_equal(buf, "driver error -5");

	/* code_text is ignored for the other reasons */
	why_of(GT_WHY_PERMISSION, 4, "Insufficient Permissions", buf,
	       sizeof(buf));
	assert_null(strstr(buf, "Insufficient Permissions"));
}

/* Every reason, at every buffer length: the text is cut, NUL-terminated,
 * a prefix of the whole text, and nothing past len is written. */
static void test_why_text_truncation(void **state)
{
	(void)state;
	for (int why = 0; why < GT_WHY__COUNT; why++) {
		char full[256];
		why_of((enum gt_why)why, 123456, "Some Long Error Text", full,
		       sizeof(full));
		size_t flen = strlen(full);
		assert_true(flen < sizeof(full) - 1);
		for (size_t len = 1; len <= flen + 2; len++) {
			/* exactly len bytes on the heap: ASan sees overruns */
			char *buf = malloc(len);
			assert_non_null(buf);
			memset(buf, 'Z', len);
			why_of((enum gt_why)why, 123456, "Some Long Error Text",
			       buf, len);
			size_t n = strnlen(buf, len);
			assert_true(n < len);
			assert_int_equal(n, flen < len - 1 ? flen : len - 1);
			assert_memory_equal(buf, full, n);
			free(buf);
		}
		/* len 0 writes nothing */
		char canary[4] = {'Q', 'Q', 'Q', 'Q'};
		why_of((enum gt_why)why, 1, "x", canary, 0);
		assert_int_equal(canary[0], 'Q');
	}
}

/* ------------------------------------------------------------------ */
/* gt_proc_vec                                                          */
/* ------------------------------------------------------------------ */

static void check_fresh_process(const struct gt_process *p)
{
	assert_int_equal(p->pid, 0);
	assert_int_equal(p->uid, 0);
	assert_int_equal(p->type, 0);
	assert_false(p->host_known);
	assert_null(p->cmdline);
	assert_string_equal(p->user, "");
	assert_string_equal(p->name, "");
	assert_string_equal(p->container, "");
	for (int f = 0; f < GT_P__COUNT; f++) {
		assert_false(gt_val_ok(&p->f[f]));
		assert_int_equal(p->f[f].why, GT_WHY_NOT_COLLECTED);
	}
}

static void test_proc_vec_push_clear_free(void **state)
{
	struct gt_proc_vec vec = {0};
	enum { N = 100 };
	(void)state;

	for (int i = 0; i < N; i++) {
		struct gt_process *p = gt_proc_vec_push(&vec);
		assert_non_null(p);
		assert_ptr_equal(p, &vec.items[i]);
		assert_int_equal(vec.count, (size_t)i + 1);
		assert_true(vec.cap >= vec.count);
		check_fresh_process(p);
		p->pid = 1000 + i;
		gt_val_set(&p->f[GT_P_MEM], (int64_t)i * 4096);
		char cmd[32];
		snprintf(cmd, sizeof(cmd), "proc-%d --flag", i);
		p->cmdline = strdup(cmd);
		assert_non_null(p->cmdline);
	}
	/* growth kept every earlier entry intact */
	for (int i = 0; i < N; i++) {
		char cmd[32];
		snprintf(cmd, sizeof(cmd), "proc-%d --flag", i);
		assert_int_equal(vec.items[i].pid, 1000 + i);
		assert_true(gt_val_ok(&vec.items[i].f[GT_P_MEM]));
		assert_int_equal(vec.items[i].f[GT_P_MEM].v, (int64_t)i * 4096);
		assert_string_equal(vec.items[i].cmdline, cmd);
	}

	/* clear frees the command lines (ASan's leak check proves it) and
	 * keeps the storage */
	size_t cap = vec.cap;
	struct gt_process *items = vec.items;
	gt_proc_vec_clear(&vec);
	assert_int_equal(vec.count, 0);
	assert_int_equal(vec.cap, cap);
	assert_ptr_equal(vec.items, items);
	for (int i = 0; i < N; i++)
		assert_null(vec.items[i].cmdline);

	/* a reused slot comes back fresh, not with the old contents */
	struct gt_process *p = gt_proc_vec_push(&vec);
	assert_ptr_equal(p, &items[0]);
	check_fresh_process(p);
	p->cmdline = strdup("again");
	assert_int_equal(vec.count, 1);

	gt_proc_vec_free(&vec);
	assert_null(vec.items);
	assert_int_equal(vec.count, 0);
	assert_int_equal(vec.cap, 0);

	/* usable again after free, and free of an empty vector is fine */
	p = gt_proc_vec_push(&vec);
	assert_non_null(p);
	check_fresh_process(p);
	gt_proc_vec_free(&vec);
	gt_proc_vec_free(&vec);
	gt_proc_vec_clear(&vec);
	assert_null(vec.items);
}

/* ------------------------------------------------------------------ */
/* descriptor tables                                                    */
/* ------------------------------------------------------------------ */

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The key names the unit (man page: "Units are in the key names"). */
static void check_unit_matches_key(const struct gt_field_desc *d)
{
	const char *k = d->key;
	if (ends_with(k, "_bytes_per_second"))
		assert_int_equal(d->unit, GT_UNIT_BYTES_PER_S);
	else if (ends_with(k, "_bytes"))
		assert_int_equal(d->unit, GT_UNIT_BYTES);
	else if (ends_with(k, "_watts"))
		assert_int_equal(d->unit, GT_UNIT_MILLIWATT);
	else if (ends_with(k, "_celsius"))
		assert_int_equal(d->unit, GT_UNIT_MILLICELSIUS);
	else if (ends_with(k, "_joules"))
		assert_int_equal(d->unit, GT_UNIT_MILLIJOULE);
	else if (ends_with(k, "_mhz"))
		assert_int_equal(d->unit, GT_UNIT_MHZ);
	else if (ends_with(k, "percent"))
		assert_int_equal(d->unit, GT_UNIT_CPERCENT);
	else if (strcmp(k, "rpm") == 0)
		assert_int_equal(d->unit, GT_UNIT_RPM);
	else if (strcmp(k, "reasons") == 0)
		assert_int_equal(d->unit, GT_UNIT_BITMASK);
	else if (ends_with(k, "_enabled"))
		assert_int_equal(d->unit, GT_UNIT_BOOL);
	else
		assert_int_equal(d->unit, GT_UNIT_COUNT);
}

static void check_desc_entry(const struct gt_field_desc *d, bool group_needed)
{
	assert_non_null(d->key);
	assert_true(strlen(d->key) > 0);
	/* JSON keys: lower-case snake case */
	for (const char *c = d->key; *c; c++)
		assert_true((*c >= 'a' && *c <= 'z') ||
		            (*c >= '0' && *c <= '9') || *c == '_');
	if (group_needed) {
		assert_non_null(d->group);
		assert_true(strlen(d->group) > 0);
	}
	check_unit_matches_key(d);
}

static void test_desc_tables_complete(void **state)
{
	(void)state;
	for (int i = 0; i < GT_S__COUNT; i++)
		check_desc_entry(&gt_static_desc[i], true);
	for (int i = 0; i < GT_F__COUNT; i++)
		check_desc_entry(&gt_field_desc[i], i != GT_F_MEM_TOTAL);
	for (int i = 0; i < GT_P__COUNT; i++)
		check_desc_entry(&gt_process_desc[i], true);

	/* the one groupless field stands in for memory.total_bytes */
	assert_null(gt_field_desc[GT_F_MEM_TOTAL].group);
	assert_string_equal(gt_field_desc[GT_F_MEM_TOTAL].key, "total_bytes");
	assert_int_equal(gt_field_desc[GT_F_MEM_TOTAL].unit, GT_UNIT_BYTES);
	assert_string_equal(gt_static_desc[GT_S_VRAM_TOTAL].group, "memory");
	assert_string_equal(gt_static_desc[GT_S_VRAM_TOTAL].key, "total_bytes");

	/* the fan rows cover every fan */
	for (int i = 0; i < GT_MAX_FANS; i++) {
		const struct gt_field_desc *pc =
		    &gt_field_desc[GT_F_FAN_PERCENT0 + i];
		const struct gt_field_desc *rpm =
		    &gt_field_desc[GT_F_FAN_RPM0 + i];
		assert_string_equal(pc->group, "fans");
		assert_string_equal(pc->key, "percent");
		assert_int_equal(pc->unit, GT_UNIT_CPERCENT);
		assert_string_equal(rpm->group, "fans");
		assert_string_equal(rpm->key, "rpm");
		assert_int_equal(rpm->unit, GT_UNIT_RPM);
	}
	assert_int_equal(GT_F__COUNT, GT_F_FAN_PERCENT0 + 2 * GT_MAX_FANS);
}

static bool same_name(const struct gt_field_desc *a,
                      const struct gt_field_desc *b)
{
	if (!a->group || !b->group)
		return false;
	return strcmp(a->group, b->group) == 0 && strcmp(a->key, b->key) == 0;
}

static void test_desc_no_duplicates(void **state)
{
	(void)state;
	/* within the sampled fields (the per-fan rows repeat by design) */
	for (int a = 0; a < GT_F_FAN_PERCENT0; a++)
		for (int b = a + 1; b < GT_F_FAN_PERCENT0; b++) {
			if (same_name(&gt_field_desc[a], &gt_field_desc[b]))
				fail_msg("duplicate field %s.%s (%d, %d)",
				         gt_field_desc[a].group,
				         gt_field_desc[a].key, a, b);
		}
	/* within the static facts */
	for (int a = 0; a < GT_S__COUNT; a++)
		for (int b = a + 1; b < GT_S__COUNT; b++)
			if (same_name(&gt_static_desc[a], &gt_static_desc[b]))
				fail_msg("duplicate static %s.%s",
				         gt_static_desc[a].group,
				         gt_static_desc[a].key);
	/* between the two tables: only memory.total_bytes is shared, and
	 * the field side of it carries no group */
	for (int a = 0; a < GT_S__COUNT; a++)
		for (int b = 0; b < GT_F__COUNT; b++) {
			const struct gt_field_desc *s = &gt_static_desc[a];
			const struct gt_field_desc *f = &gt_field_desc[b];
			if (same_name(s, f))
				fail_msg("static and field both write %s.%s",
				         s->group, s->key);
		}
	/* "device" rows land in the device object next to its fixed keys */
	static const char *const fixed[] = {"index",          "id",
	                                    "vendor",         "driver",
	                                    "driver_version", "name",
	                                    "uuid",           "serial",
	                                    "pci_bus_id",     "pci_vendor_id",
	                                    "pci_device_id",  "architecture",
	                                    "vbios_version",  "integrated",
	                                    "demo",           "lost",
	                                    "state",          "unavailable",
	                                    "utilization",    "memory",
	                                    "thermal",        "power",
	                                    "clocks",         "pcie",
	                                    "throttle",       "ecc"};
	for (int a = 0; a < GT_S__COUNT; a++) {
		if (strcmp(gt_static_desc[a].group, "device") != 0)
			continue;
		for (size_t k = 0; k < sizeof(fixed) / sizeof(fixed[0]); k++)
			assert_string_not_equal(gt_static_desc[a].key,
			                        fixed[k]);
	}
	for (int b = 0; b < GT_F__COUNT; b++)
		if (gt_field_desc[b].group)
			assert_string_not_equal(gt_field_desc[b].group,
			                        "device");
	/* nor may a static key and a sampled key meet in one JSON object
	 * through the groupless row */
	for (int a = 0; a < GT_S__COUNT; a++)
		if (a != GT_S_VRAM_TOTAL &&
		    strcmp(gt_static_desc[a].key, "total_bytes") == 0 &&
		    strcmp(gt_static_desc[a].group, "memory") == 0)
			fail_msg(
			    "second memory.total_bytes in the static table");
	/* process keys */
	for (int a = 0; a < GT_P__COUNT; a++)
		for (int b = a + 1; b < GT_P__COUNT; b++)
			assert_string_not_equal(gt_process_desc[a].key,
			                        gt_process_desc[b].key);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_val_set_and_fail),
	    cmocka_unit_test(test_copy_str),
	    cmocka_unit_test(test_static_init_not_collected),
	    cmocka_unit_test(test_sample_init_not_collected),
	    cmocka_unit_test(test_sample_fail_all),
	    cmocka_unit_test(test_unit_to_json),
	    cmocka_unit_test(test_vendor_name),
	    cmocka_unit_test(test_throttle_names),
	    cmocka_unit_test(test_active_mask),
	    cmocka_unit_test(test_why_text_every_reason),
	    cmocka_unit_test(test_why_text_malformed_key),
	    cmocka_unit_test(test_why_fix_every_reason),
	    cmocka_unit_test(test_why_text_driver_error),
	    cmocka_unit_test(test_why_text_truncation),
	    cmocka_unit_test(test_proc_vec_push_clear_free),
	    cmocka_unit_test(test_desc_tables_complete),
	    cmocka_unit_test(test_desc_no_duplicates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

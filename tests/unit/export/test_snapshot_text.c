/* SPDX-License-Identifier: MIT */
/*
 * test_snapshot_text.c - the process rows of the gputop.snapshot v1 JSON
 * document (src/export/snapshot.c) and the safety of its text, built from
 * the hand-made inputs of support/snapshot_test.h: every process key
 * present, nothing of a process outside our /proc leaked, a size the
 * driver printed unreadably explained as such, and hostile text (escape
 * sequences, quotes, invalid UTF-8) in process and device strings made
 * safe and valid.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "core/model.h"
#include "export/snapshot.h"
#include "core/text.h"
#include "support/snapshot_test.h"

/* what evil_cmdline (support/snapshot_test.h) must read as after JSON
 * parsing */
static const char evil_cmdline_parsed[] =
    "python3\x1b[31m \"q\" back\\slash\nnext \xef\xbf\xbd \xc3\xbc end";

static void check_process_keys(const cJSON *p)
{
	CHECK_KEYS(p, "process", "device_index", "device_id", "pid", "user",
	           "name", "cmdline", "type", "gpu_percent", "memory_bytes",
	           "encoder_percent", "decoder_percent", "cpu_percent",
	           "host_memory_bytes", "container", "unavailable");
}

static void test_processes(void **state)
{
	struct fixture *fx = *state;

	for (int i = 0; i < 3; i++)
		check_process_keys(process(fx, i));

	cJSON *p = process(fx, 0);
	assert_true(num(p, "device_index") == 0);
	assert_string_equal(str(p, "device_id"), "pci:0000:18:00.0");
	assert_true(num(p, "pid") == 4242);
	assert_string_equal(str(p, "user"), "alice");
	assert_string_equal(str(p, "name"), "python3");
	assert_string_equal(str(p, "container"), "docker:3f2a9c1b7d10");
	assert_string_equal(str(p, "type"), "compute");
	assert_true(num(p, "gpu_percent") == 25);
	assert_true(num(p, "memory_bytes") == 2147483648.0);
	is_null(p, "encoder_percent");
	assert_non_null(strstr(reason(p, "encoder_percent"), "not supported"));
	assert_true(num(p, "decoder_percent") == 0);
	assert_true(num(p, "cpu_percent") == 150.5);
	assert_true(num(p, "host_memory_bytes") == 1048576);
	no_reason(p, "gpu_percent");

	p = process(fx, 1);
	assert_string_equal(str(p, "device_id"), "pci:0000:3b:00.0");
	assert_string_equal(str(p, "type"), "graphics");
	assert_true(num(p, "memory_bytes") == 4096);

	p = process(fx, 2);
	assert_string_equal(str(p, "type"), "both");
	assert_string_equal(str(p, "cmdline"), ""); /* known, just empty */
	is_null(p, "container");                    /* not in a container */
	/* control characters in a name survive as data, JSON-escaped */
	assert_string_equal(str(p, "name"), evil_name);
}

static void test_process_host_unknown(void **state)
{
	struct fixture *fx = *state;
	cJSON *p = process(fx, 1);
	static const char *const keys[] = {"user", "name", "cmdline",
	                                   "container"};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		is_null(p, keys[i]);
		const char *r = reason(p, keys[i]);
		assert_non_null(strstr(r, "--procfs"));
	}
	assert_true(num(p, "pid") == 777);
	/* numbers never collected are null with reasons too */
	is_null(p, "gpu_percent");
	assert_non_null(strstr(reason(p, "gpu_percent"), "not collected"));
	no_reason(p, "memory_bytes");
	/* the stale struct contents did not leak */
	assert_null(strstr(fx->json, "stale"));
}

/* A process's VRAM whose fdinfo line could not be read: null, and the
 * reason names the key rather than saying "not supported". */
static void test_process_malformed_memory(void **state)
{
	struct fixture *fx = *state;

	gt_val_fail(&fx->proc_items[1].f[GT_P_MEM], GT_WHY_MALFORMED,
	            gt_why_fdinfo_key(GT_WHY_FDI_TOTAL, GT_WHY_FDI_VRAM, 0));
	render(fx);
	cJSON *p = process(fx, 1);
	is_null(p, "memory_bytes");
	const char *r = reason(p, "memory_bytes");
	assert_non_null(
	    strstr(r, "the driver's fdinfo line drm-total-vram0: could not be "
	              "read"));
	assert_null(strstr(r, "not supported"));
}

static void test_cmdline_round_trip(void **state)
{
	struct fixture *fx = *state;
	const char *c = str(process(fx, 0), "cmdline");

	assert_string_equal(c, evil_cmdline_parsed);
	assert_non_null(strchr(c, 0x1b));
	assert_non_null(strchr(c, '"'));
	assert_non_null(strchr(c, '\\'));
	assert_non_null(strchr(c, '\n'));
	assert_non_null(strstr(c, "\xef\xbf\xbd")); /* U+FFFD for 0xff */
	assert_non_null(strstr(c, "\xc3\xbc"));     /* ü kept */
	assert_null(strchr(c, '\xff'));
}

static void test_raw_text_is_safe(void **state)
{
	struct fixture *fx = *state;
	const unsigned char *s = (const unsigned char *)fx->json;
	bool in_str = false;

	/* no raw control byte inside any string */
	for (size_t i = 0; s[i]; i++) {
		if (in_str) {
			if (s[i] < 0x20)
				fail_msg(
				    "raw byte 0x%02x inside a string at %zu",
				    s[i], i);
			if (s[i] == '\\')
				i++; /* skip the escaped character */
			else if (s[i] == '"')
				in_str = false;
		} else if (s[i] == '"') {
			in_str = true;
		}
	}
	assert_false(in_str);
	/* nowhere at all: ESC, BEL, the invalid byte */
	assert_null(strchr(fx->json, 0x1b));
	assert_null(strchr(fx->json, 0x07));
	assert_null(strchr(fx->json, '\xff'));
	assert_non_null(strstr(fx->json, "\\u001b"));
	/* the whole document is valid UTF-8: repairing it changes nothing */
	char *clean = gt_text_utf8_sanitize(fx->json, strlen(fx->json));
	assert_non_null(clean);
	assert_string_equal(clean, fx->json);
	free(clean);
}

static void test_invalid_utf8_in_device_strings(void **state)
{
	struct fixture *fx = *state;
	snprintf(fx->devs->items[0].name, GT_STR_NAME, "GPU \xff\xfe name");
	snprintf(fx->devs->items[0].vbios, GT_STR_SHORT, "\xc3");
	render(fx);
	cJSON *d = device(fx, 0);
	assert_string_equal(str(d, "name"),
	                    "GPU \xef\xbf\xbd\xef\xbf\xbd name");
	assert_string_equal(str(d, "vbios_version"), "\xef\xbf\xbd");
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
	    T(test_processes),
	    T(test_process_host_unknown),
	    T(test_process_malformed_memory),
	    T(test_cmdline_round_trip),
	    T(test_raw_text_is_safe),
	    T(test_invalid_utf8_in_device_strings),
	};
#undef T
	return cmocka_run_group_tests(tests, NULL, NULL);
}

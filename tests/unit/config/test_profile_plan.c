/* SPDX-License-Identifier: MIT */
/*
 * test_profile_plan.c - gt_profile_plan_changes (src/config/profile_plan.c):
 * what a profile's gpu block asks of one device, without the settings
 * already in force, and the refusals (a setting the device lacks, an
 * unknown power profile, a level that contradicts the profile, a firmware
 * curve without exactly five points) before anything could be written;
 * and gt_profile_plan_unmatched, the blocks no GPU here takes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/profile_plan.h"

static struct gt_control_caps amd(void)
{
	struct gt_control_caps c;
	memset(&c, 0, sizeof(c));
	c.vendor = GT_VENDOR_AMD;
	snprintf(c.dev, sizeof(c.dev), "/sys/class/drm/card0/device");
	c.power = (struct gt_control_range){true,      1000000,   201000000,
	                                    155000000, 155000000, ""};
	c.has_level = true;
	snprintf(c.level, sizeof(c.level), "auto");
	c.nprofiles = 2;
	c.profiles[0] = (struct gt_control_profile){0, "BOOTUP_DEFAULT"};
	c.profiles[1] = (struct gt_control_profile){5, "COMPUTE"};
	c.profile_active = 0;
	c.fan_method = GT_FAN_METHOD_AMD_PWM_LOOP;
	c.fan_count = 1;
	c.fan_max_cpercent = 10000;
	c.slowdown_mc = 90000;
	return c;
}

static struct gt_profile_entry block(void)
{
	struct gt_profile_entry e;
	memset(&e, 0, sizeof(e));
	snprintf(e.gpu, sizeof(e.gpu), "*");
	e.line = 2;
	e.power_profile = -1;
	return e;
}

static void test_only_what_differs(void **state)
{
	struct gt_control_caps c = amd();
	struct gt_profile_entry e = block();
	struct gt_control_change ch[6];
	char err[256] = "";
	(void)state;

	e.key_line[GT_PK_POWER_LIMIT] = 3;
	e.power_mw = 155000; /* in force */
	e.key_line[GT_PK_PERF_LEVEL] = 4;
	snprintf(e.perf_level, sizeof(e.perf_level), "auto"); /* in force */
	assert_int_equal(gt_profile_plan_changes(&e, &c, 1, ch, 6, err, 256),
	                 0);

	e.power_mw = 120000;
	snprintf(e.perf_level, sizeof(e.perf_level), "high");
	assert_int_equal(gt_profile_plan_changes(&e, &c, 1, ch, 6, err, 256),
	                 2);
	assert_int_equal(ch[0].kind, GT_CHANGE_PERF_LEVEL);
	assert_string_equal(ch[0].text, "high");
	assert_int_equal(ch[1].kind, GT_CHANGE_POWER_LIMIT);
	assert_int_equal(ch[1].value, 120000000); /* µW for AMD */
	assert_int_equal(ch[1].device, 1);
	assert_string_equal(ch[1].dev, "/sys/class/drm/card0/device");
}

static void test_power_profile(void **state)
{
	struct gt_control_caps c = amd();
	struct gt_profile_entry e = block();
	struct gt_control_change ch[6];
	char err[256] = "";
	(void)state;

	e.key_line[GT_PK_POWER_PROFILE] = 3;
	snprintf(e.power_profile_name, sizeof(e.power_profile_name), "compute");
	assert_int_equal(gt_profile_plan_changes(&e, &c, 0, ch, 6, err, 256),
	                 1);
	assert_int_equal(ch[0].kind, GT_CHANGE_POWER_PROFILE);
	assert_int_equal(ch[0].value, 5);

	e.power_profile = 7;
	assert_int_equal(gt_profile_plan_changes(&e, &c, 0, ch, 6, err, 256),
	                 -1);
	assert_string_equal(err, "power_profile 7 is not in this card's "
	                         "pp_power_profile_mode table");

	e.power_profile = 5;
	e.key_line[GT_PK_PERF_LEVEL] = 4;
	snprintf(e.perf_level, sizeof(e.perf_level), "high");
	assert_int_equal(gt_profile_plan_changes(&e, &c, 0, ch, 6, err, 256),
	                 -1);
	assert_non_null(strstr(err, "needs perf_level manual"));
}

static void test_refusals(void **state)
{
	struct gt_control_caps c = amd();
	struct gt_profile_entry e = block();
	struct gt_control_change ch[6];
	char err[256] = "";
	(void)state;

	e.key_line[GT_PK_FREQ_MIN] = 3;
	e.freq_min_mhz = 300;
	assert_int_equal(gt_profile_plan_changes(&e, &c, 0, ch, 6, err, 256),
	                 -1);
	assert_non_null(strstr(err, "Intel settings"));

	e = block();
	e.key_line[GT_PK_FAN] = 3;
	e.fan = GT_PROFILE_FAN_CURVE;
	e.curve = (struct gt_fancurve){2, {{40000, 3000}, {80000, 10000}}};
	c.fan_method = GT_FAN_METHOD_AMD_FIRMWARE;
	assert_int_equal(gt_profile_plan_changes(&e, &c, 0, ch, 6, err, 256),
	                 -1);
	assert_non_null(strstr(err, "exactly 5 points"));

	c.fan_method = GT_FAN_METHOD_NONE;
	snprintf(c.fan_why, sizeof(c.fan_why), "no fan of its own");
	assert_int_equal(gt_profile_plan_changes(&e, &c, 0, ch, 6, err, 256),
	                 -1);
	assert_string_equal(err, "fan: no fan of its own");

	snprintf(c.why, sizeof(c.why), "a demo device: nothing to change");
	assert_int_equal(gt_profile_plan_changes(&e, &c, 0, ch, 6, err, 256),
	                 -1);
	assert_string_equal(err, "a demo device: nothing to change");
}

static void test_software_curve(void **state)
{
	struct gt_control_caps c = amd();
	struct gt_profile_entry e = block();
	struct gt_control_change ch[6];
	char err[256] = "";
	(void)state;

	e.key_line[GT_PK_FAN] = 3;
	e.fan = GT_PROFILE_FAN_CURVE;
	gt_fancurve_preset(GT_FAN_PRESET_QUIET, &e.curve);
	e.hysteresis_mc = 4000;
	e.down_delay_ns = 7000000000ull;
	assert_int_equal(gt_profile_plan_changes(&e, &c, 0, ch, 6, err, 256),
	                 1);
	assert_int_equal(ch[0].kind, GT_CHANGE_FAN_CURVE);
	assert_int_equal(ch[0].fan_method, GT_FAN_METHOD_AMD_PWM_LOOP);
	assert_int_equal(ch[0].loop.hysteresis_mc, 4000);
	assert_int_equal(ch[0].loop.down_delay_ns, 7000000000ull);
	assert_int_equal(ch[0].loop.panic_mc, 90000); /* the card's own */
	assert_int_equal(ch[0].curve.pt[0].temp_mc, 50000);
}

/* A profile of the given gpu lines, no settings (none is needed to
 * match). */
static struct gt_profile *profile(const char *const *gpus, size_t n)
{
	struct gt_profile *p = calloc(1, sizeof(*p));

	assert_non_null(p);
	snprintf(p->name, sizeof(p->name), "p");
	for (size_t i = 0; i < n; i++) {
		p->entry[i] = block();
		snprintf(p->entry[i].gpu, sizeof(p->entry[i].gpu), "%s",
		         gpus[i]);
		p->entry[i].line = 2 + (int)i;
	}
	p->nentries = n;
	return p;
}

/* The blocks no GPU takes are named, so that --apply refuses a mistyped
 * PCI id rather than calling its settings "already in force"; "*" is
 * named only on a machine without GPUs (it may rightly take none). */
static void test_unmatched_blocks(void **state)
{
	static const char *const two[] = {"0000:01:00.0", "0000:ff:00.0"};
	static const char *const rest[] = {"0000:01:00.0", "*"};
	static const char *const ghost[] = {"0000:ff:00.0", "*",
	                                    "0000:fe:00.0"};
	struct gt_static devs[2];
	struct gt_profile *p;
	char buf[128];
	(void)state;

	memset(devs, 0, sizeof(devs));
	/* NVML's 8-digit domain matches the block's canonical form. */
	snprintf(devs[0].pci_bus_id, sizeof(devs[0].pci_bus_id),
	         "00000000:01:00.0");
	snprintf(devs[1].pci_bus_id, sizeof(devs[1].pci_bus_id),
	         "0000:02:00.0");

	p = profile(two, 2);
	assert_int_equal(gt_profile_plan_unmatched(p, devs, 2, buf, 128), 1);
	assert_string_equal(buf, "gpu = 0000:ff:00.0");
	assert_int_equal(gt_profile_plan_unmatched(p, devs, 1, buf, 128), 1);
	free(p);

	/* "*" with nobody left for it is fine; with no GPU at all not. */
	p = profile(rest, 2);
	assert_int_equal(gt_profile_plan_unmatched(p, devs, 1, buf, 128), 0);
	assert_string_equal(buf, "");
	assert_int_equal(gt_profile_plan_unmatched(p, devs, 2, buf, 128), 0);
	assert_int_equal(gt_profile_plan_unmatched(p, NULL, 0, buf, 128), 2);
	assert_string_equal(buf, "gpu = 0000:01:00.0, gpu = *");
	free(p);

	/* Every such block named, in file order; a short buffer is cut,
	 * never overrun, and the count stays whole. */
	p = profile(ghost, 3);
	assert_int_equal(gt_profile_plan_unmatched(p, devs, 2, buf, 128), 2);
	assert_string_equal(buf, "gpu = 0000:ff:00.0, gpu = 0000:fe:00.0");
	assert_int_equal(gt_profile_plan_unmatched(p, devs, 2, buf, 10), 2);
	assert_string_equal(buf, "gpu = 000");
	assert_int_equal(gt_profile_plan_unmatched(p, devs, 2, buf, 0), 2);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_only_what_differs),
	    cmocka_unit_test(test_power_profile),
	    cmocka_unit_test(test_refusals),
	    cmocka_unit_test(test_software_curve),
	    cmocka_unit_test(test_unmatched_blocks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

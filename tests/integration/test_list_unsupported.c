/* SPDX-License-Identifier: MIT */
/*
 * test_list_unsupported.c - `gputop --list` names every DRM device no
 * backend reads, one line each (card, PCI address or location,
 * vendor:device, driver: reason), on the synthetic trees of
 * tests/fixtures/drm (nouveau + virtio_gpu, simpledrm) and the radeon
 * capture of tests/fixtures/amdgpu; a device a backend reads is not among
 * them; and the "no GPU found" message carries the same lines.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collectors/registry.h"
#include "core/collector.h"
#include "export/list.h"
#include "support/run_gputop.h"

#define SECTION "Unsupported DRM devices (no backend reads them):\n"

static const char *fixture(const char *tree)
{
	static char buf[PATH_MAX];
	snprintf(buf, sizeof(buf), "%s/%s", run_env_or_fail("GPUTOP_FIXTURES"),
	         tree);
	return buf;
}

/* `gputop --sysfs root --list`: its stdout (malloc'd); exit status 0. */
static char *list_of(const char *root_arg)
{
	char root[PATH_MAX];
	const char *proc = run_empty_dir();
	/* fixture() returns one static buffer: copy before the next call */
	snprintf(root, sizeof(root), "%s", root_arg);
	/* names from the fixtures' table, not this machine's */
	setenv("GPUTOP_AMDGPU_IDS", fixture("amdgpu/amdgpu.ids"), 1);
	const char *const argv[] = {"gputop",   "--sysfs",    root,
	                            "--list",   "--nvml-lib", "/nonexistent",
	                            "--procfs", proc,         NULL};
	return run_gputop_stdout(argv);
}

/* Fails unless text has the line "  <card> <address> <ids> <rest>", the
 * three columns separated by blanks (their widths are the printer's). */
static void expect_line(const char *text, const char *card, const char *address,
                        const char *ids, const char *rest)
{
	char want[512];
	for (const char *p = text; p && *p;) {
		const char *end = strchr(p, '\n');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char line[512], c[32], a[128], i[32];
		int off = 0;
		if (n < sizeof(line)) {
			memcpy(line, p, n);
			line[n] = '\0';
			if (sscanf(line, "  %31s %127s %31s %n", c, a, i,
			           &off) == 3 &&
			    off > 0 && strcmp(c, card) == 0 &&
			    strcmp(a, address) == 0 && strcmp(i, ids) == 0 &&
			    strcmp(line + off, rest) == 0)
				return;
		}
		p = end ? end + 1 : NULL;
	}
	snprintf(want, sizeof(want), "%s %s %s %s", card, address, ids, rest);
	fail_msg("no line \"%s\" in:\n%s", want, text);
}

/* The number of lines after the unsupported-devices heading. */
static int section_lines(const char *out)
{
	const char *s = strstr(out, SECTION);
	int n = 0;
	if (!s)
		return 0;
	for (s += strlen(SECTION); *s == ' '; n++) {
		s = strchr(s, '\n');
		if (!s)
			break;
		s++;
	}
	return n;
}

static void test_nouveau_and_virtio(void **state)
{
	(void)state;
	char *out = list_of(fixture("drm/nouveau-virtio"));
	assert_non_null(strstr(out, "No GPU found"));
	assert_non_null(strstr(out, SECTION));
	assert_int_equal(section_lines(out), 2);
	/* The virtio GPU under its PCI function (0000:00:02.0, 1af4:1050),
	 * not under the virtio device's own ids (0x0010). */
	expect_line(out, "card0", "0000:00:02.0", "1af4:1050",
	            "virtio_gpu: a virtual GPU has no usage counters");
	expect_line(out, "card1", "0000:01:00.0", "10de:1c82",
	            "nouveau: NVIDIA cards are read through NVML "
	            "(libnvidia-ml), not nouveau; install the NVIDIA driver");
	free(out);
}

static void test_simpledrm(void **state)
{
	(void)state;
	char *out = list_of(fixture("drm/simpledrm"));
	assert_int_equal(section_lines(out), 1);
	/* no PCI device: its place under /sys/devices, and no ids */
	expect_line(out, "card0", "platform/simple-framebuffer.0", "-",
	            "simple-framebuffer: a firmware framebuffer (simpledrm), "
	            "not a GPU");
	free(out);
}

static void test_radeon_same_path(void **state)
{
	(void)state;
	char *out = list_of(fixture("amdgpu/hd7870"));
	/* the radeon card is one of the unsupported lines... */
	assert_int_equal(section_lines(out), 1);
	expect_line(out, "card0", "0000:01:00.0", "1002:6818",
	            "radeon: gputop reads AMD GPUs through amdgpu only");
	/* ...and the amdgpu backend's detail gives the same reason */
	assert_non_null(strstr(out, "card0 (0000:01:00.0, 1002:6818): driver "
	                            "radeon is not supported (gputop reads AMD "
	                            "GPUs through amdgpu only)"));
	free(out);
}

static void test_supported_device_not_listed(void **state)
{
	(void)state;
	char *out = list_of(fixture("amdgpu/rx6900xt"));
	assert_non_null(strstr(out, "AMD Radeon RX 6900 XT"));
	assert_null(strstr(out, SECTION));
	free(out);
}

/* Runs cmd through the shell; fails the test if it fails. */
static void sh(const char *cmd)
{
	if (system(cmd) != 0)
		fail_msg("command failed: %s", cmd);
}

/* The mixed machine's sysfs root, removed by its teardown even when an
 * assertion jumps out of the test. */
static char mixed_root[64];

static int remove_mixed_root(void **state)
{
	(void)state;
	char cmd[128];
	if (mixed_root[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", mixed_root);
		if (system(cmd) != 0)
			return -1;
		mixed_root[0] = '\0';
	}
	return 0;
}

static void test_mixed_machine(void **state)
{
	(void)state;
	char cmd[PATH_MAX * 3], amd[PATH_MAX], nv[PATH_MAX];

	/* card0 an amdgpu board, card1 the nouveau card: a sysfs root of
	 * links into the fixtures, as /sys/class/drm is one of links. */
	snprintf(amd, sizeof(amd), "%s/class/drm/card0",
	         fixture("amdgpu/rx6900xt"));
	snprintf(nv, sizeof(nv), "%s/class/drm/card1",
	         fixture("drm/nouveau-virtio"));
	snprintf(mixed_root, sizeof(mixed_root),
	         "/tmp/gputop-list-mixed-XXXXXX");
	if (!mkdtemp(mixed_root)) {
		mixed_root[0] = '\0';
		fail_msg("mkdtemp: %s", strerror(errno));
	}
	snprintf(
	    cmd, sizeof(cmd),
	    "mkdir -p '%s/class/drm' && ln -s '%s' '%s/class/drm/card0' && "
	    "ln -s '%s' '%s/class/drm/card1'",
	    mixed_root, amd, mixed_root, nv, mixed_root);
	sh(cmd);
	char *out = list_of(mixed_root);
	assert_non_null(strstr(out, "AMD Radeon RX 6900 XT"));
	assert_int_equal(section_lines(out), 1);
	expect_line(out, "card1", "0000:01:00.0", "10de:1c82",
	            "nouveau: NVIDIA cards are read through NVML "
	            "(libnvidia-ml), not nouveau; install the NVIDIA driver");
	free(out);
}

static void test_no_gpu_message(void **state)
{
	(void)state;
	struct gt_collector_config cfg = {
	    .platform = &gt_registry_platform,
	    .backend = {.nvml_lib = "/nonexistent",
	                .sysfs_root = fixture("drm/nouveau-virtio"),
	                .procfs_root = run_empty_dir()},
	    .interval_ns = GT_INTERVAL_DEFAULT_NS,
	};
	char *text = NULL;
	size_t len = 0;
	struct gt_collector *c = gt_collector_open(&cfg);
	assert_non_null(c);
	assert_int_equal(gt_collector_device_count(c), 0);
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	gt_list_print_reasons(f, c);
	fclose(f);
	gt_collector_close(c);
	/* each backend's reason, then each DRM device's */
	assert_non_null(strstr(text, "  amdgpu: no GPU driven by amdgpu"));
	expect_line(text, "card0", "0000:00:02.0", "1af4:1050",
	            "virtio_gpu: a virtual GPU has no usage counters");
	expect_line(text, "card1", "0000:01:00.0", "10de:1c82",
	            "nouveau: NVIDIA cards are read through NVML "
	            "(libnvidia-ml), not nouveau; install the NVIDIA driver");
	free(text);
}

static int cleanup(void **state)
{
	(void)state;
	rmdir(run_empty_dir());
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_nouveau_and_virtio),
	    cmocka_unit_test(test_simpledrm),
	    cmocka_unit_test(test_radeon_same_path),
	    cmocka_unit_test(test_supported_device_not_listed),
	    cmocka_unit_test_teardown(test_mixed_machine, remove_mixed_root),
	    cmocka_unit_test(test_no_gpu_message),
	};
	return cmocka_run_group_tests(tests, NULL, cleanup);
}

/* SPDX-License-Identifier: MIT */
/*
 * test_amdgpu_copies.c - the real gputop binary, and the collector, against
 * private copies of the amdgpu captures in tests/fixtures/amdgpu, edited
 * for cases no capture shows: a revision file the built-in table names, a
 * power1_input without power1_average and an unavailable threshold; a
 * runtime-suspended copy, which must be reported asleep without opening
 * its attributes (checked with inotify), and whose facts follow once it
 * wakes up; and processes_unreadable over a /proc tree with one process
 * refused. Names come from the fixtures' amdgpu.ids (see
 * support/amdgpu_golden_test.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "support/amdgpu_golden_test.h"
#include "support/json_path.h"
#include "support/open_watch.h"
#include "support/run_gputop.h"
#include "support/unpriv.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collectors/registry.h"
#include "core/collector.h"
#include "core/view.h"

/* Runs cmd through the shell; fails the test if it fails. */
static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (system(cmd) != 0)
		fail_msg("command failed: %s", cmd);
}

/* Copies not yet removed: a failed assertion jumps past remove_copy(),
 * so main() removes what is left. */
static char *copies[8];

/* Registers dir (malloc'd) for removal by main(). */
static void track_copy(char *dir)
{
	for (size_t i = 0; i < sizeof(copies) / sizeof(copies[0]); i++)
		if (!copies[i]) {
			copies[i] = dir;
			return;
		}
}

/* A private copy of a capture, to edit. */
static char *copy_capture(const char *capture)
{
	char *dir = malloc(64);
	assert_non_null(dir);
	snprintf(dir, 64, "/tmp/gputop-amd-XXXXXX");
	if (!mkdtemp(dir))
		fail_msg("mkdtemp: %s", strerror(errno));
	track_copy(dir);
	sh("cp -a '%s/%s/.' '%s/'", fixtures(), capture, dir);
	return dir;
}

static void remove_copy(char *dir)
{
	for (size_t i = 0; i < sizeof(copies) / sizeof(copies[0]); i++)
		if (copies[i] == dir)
			copies[i] = NULL;
	sh("rm -rf '%s'", dir);
	free(dir);
}

static void write_file(const char *dir, const char *leaf, const char *text)
{
	char path[1200];
	snprintf(path, sizeof(path), "%s/%s", dir, leaf);
	FILE *f = fopen(path, "w");
	if (!f)
		fail_msg("cannot write %s", path);
	fputs(text, f);
	fclose(f);
}

/* With a revision file, the built-in table names RDNA3 cards that the
 * distribution's (old) table does not know. */
static void test_builtin_names_with_revision(void **state)
{
	(void)state;
	static const struct {
		const char *capture, *devdir, *revision, *name;
	} cases[] = {
	    {"rx7800xt", "class/drm/card1/device", "0xc8\n",
	     "AMD Radeon RX 7800 XT"},
	    {"rx7900xtx", "class/drm/card0/device", "0xce\n",
	     "AMD Radeon RX 7900 GRE"},
	    {"rx9070", "class/drm/card1/device", "0xc3\n",
	     "AMD Radeon RX 9070"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *root = copy_capture(cases[i].capture);
		char dev[1200];
		snprintf(dev, sizeof(dev), "%s/%s", root, cases[i].devdir);
		write_file(dev, "revision", cases[i].revision);
		cJSON *doc = snapshot_of(root);
		const cJSON *d = cJSON_GetArrayItem(get(doc, "devices"), 0);
		expect_str(cases[i].capture, d, "name", cases[i].name);
		cJSON_Delete(doc);
		remove_copy(root);
	}
}

/* Cases no capture shows, made by editing a copy: a kernel from 6.6 that
 * shows only power1_input (Polaris/Vega users report it), a threshold
 * amdgpu prints as -273150 ("not available"), a busy percentage too
 * large to scale, and a percentage and a duty cycle past their ends. */
static void test_edited_capture_cases(void **state)
{
	(void)state;
	char *root = copy_capture("vega56");
	char hw[1200];
	snprintf(hw, sizeof(hw), "%s/class/drm/card0/device/hwmon/hwmon4",
	         root);
	sh("rm '%s/power1_average'", hw);
	write_file(hw, "power1_input", "45123000\n");
	write_file(hw, "temp1_crit", "-273150\n");
	/* A number whose scaling to centi-percent overflows int64 (a corrupt
	 * tree; UBSan stopped the snapshot on it): out of range, N/A. */
	char dev[1200];
	snprintf(dev, sizeof(dev), "%s/class/drm/card0/device", root);
	write_file(dev, "gpu_busy_percent", "92233720368547759\n");
	cJSON *doc = snapshot_of(root);
	const cJSON *d = cJSON_GetArrayItem(get(doc, "devices"), 0);
	expect_num("edited", d, "utilization.gpu_percent", NA);
	if (!strstr(reason(d, "utilization.gpu_percent"), "out of range"))
		fail_msg("overflow reason: %s",
		         reason(d, "utilization.gpu_percent"));
	expect_num("edited", d, "power.draw_watts", 45.123);
	expect_num("edited", d, "thermal.slowdown_celsius", NA);
	assert_string_equal(reason(d, "thermal.slowdown_celsius"),
	                    "not supported by this device");
	/* temp1_emergency is untouched */
	expect_num("edited", d, "thermal.shutdown_celsius", 90);
	cJSON_Delete(doc);
	/* Numbers these files never hold by their definition (a percentage,
	 * a 0-255 duty cycle): N/A, out of range, not a gauge past its end
	 * (101 % and 100.4 % before). */
	write_file(dev, "gpu_busy_percent", "101\n");
	write_file(hw, "pwm1", "256\n");
	/* and numbers no device gives (gt_sysfs_unit_range): a 2-million-
	 * degree edge, a negative fan, a 200 GHz clock, negative watts */
	write_file(hw, "temp1_input", "2147483647\n");
	write_file(hw, "fan1_input", "-1\n");
	write_file(hw, "freq1_input", "200000000000\n");
	write_file(hw, "power1_average", "-5000000\n");
	doc = snapshot_of(root);
	d = cJSON_GetArrayItem(get(doc, "devices"), 0);
	static const char *const ranged[] = {
	    "utilization.gpu_percent", "thermal.fans[0].percent",
	    "thermal.gpu_celsius",     "thermal.fans[0].rpm",
	    "clocks.graphics_mhz",     "power.draw_watts"};
	for (size_t i = 0; i < sizeof(ranged) / sizeof(ranged[0]); i++) {
		if (!strstr(reason(d, ranged[i]), "out of range"))
			fail_msg("%s: %s", ranged[i], reason(d, ranged[i]));
	}
	/* (the fan's entries are an array: their reasons say N/A) */
	for (size_t i = 0; i < sizeof(ranged) / sizeof(ranged[0]); i++)
		if (!strchr(ranged[i], '['))
			expect_num("ranged", d, ranged[i], NA);
	cJSON_Delete(doc);
	remove_copy(root);
}

/*
 * A runtime-suspended GPU is not read. inotify watches every directory of
 * the device (device/, power/, hwmon/, hwmon/hwmon4/...) for files opened
 * or read while gputop takes a snapshot of it asleep. Only what discovery
 * reads to identify the device and learn its power state may be opened:
 * the PCI core answers those without waking the GPU. strace of
 * "gputop --sysfs COPY --snapshot" on the suspended copy shows exactly
 * these opened under device/ (plus stat() of hwmon/hwmon4/fan1_input and
 * a listing of hwmon/, which read nothing). The same tree marked active is
 * the control: then the watch sees sensor files opened in device/ and in
 * hwmon/hwmon4/, so the check can fail.
 */
static const char *const asleep_may_read[] = {
    "uevent",
    "vendor",
    "device",
    "subsystem_vendor",
    "subsystem_device",
    "revision",
    "power/runtime_status",
    NULL,
};

static void test_suspended_device_not_read(void **state)
{
	(void)state;
	static const char *const keys[] = {
	    "utilization.gpu_percent", "memory.used_bytes",
	    "thermal.gpu_celsius",     "power.draw_watts",
	    "clocks.graphics_mhz",     "memory.total_bytes",
	    "clocks.graphics_max_mhz",
	};
	static const char *const sensors[] = {
	    "gpu_busy_percent",
	    "hwmon/hwmon4/temp1_input",
	    "hwmon/hwmon4/power1_average",
	    NULL,
	};
	bool seen[3] = {false, false, false};
	struct open_watch w;
	char *root = copy_capture("vega56");
	char dev[1200];
	snprintf(dev, sizeof(dev), "%s/class/drm/card0/device", root);

	write_file(dev, "power/runtime_status", "suspended\n");
	open_watch_init(&w, dev);
	open_watch_tree(&w, "");
	cJSON *doc = snapshot_of(root);
	assert_int_equal(open_watch_check(&w, asleep_may_read, sensors, seen),
	                 0);
	const cJSON *d = cJSON_GetArrayItem(get(doc, "devices"), 0);
	expect_str("asleep", d, "state", "asleep");
	/* Identity comes from discovery and the ids table, not the device. */
	expect_str("asleep", d, "name", "AMD Radeon RX Vega");
	expect_str("asleep", d, "pci_bus_id", "0000:0b:00.0");
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		expect_num("asleep", d, keys[i], NA);
		assert_non_null(strstr(reason(d, keys[i]), "asleep"));
	}
	expect_str("asleep", d, "vbios_version", NULL);
	assert_int_equal(cJSON_GetArraySize(get(d, "thermal.fans")), 0);
	cJSON_Delete(doc);

	/* The control: awake, the same watch sees the sensors read. */
	write_file(dev, "power/runtime_status", "active\n");
	open_watch_drain(&w);
	w.quiet = true;
	doc = snapshot_of(root);
	assert_true(open_watch_check(&w, asleep_may_read, sensors, seen) > 0);
	for (size_t i = 0; i < sizeof(seen) / sizeof(seen[0]); i++)
		if (!seen[i])
			fail_msg("awake, %s was not seen read", sensors[i]);
	d = cJSON_GetArrayItem(get(doc, "devices"), 0);
	expect_str("awake", d, "state", "ok");
	expect_num("awake", d, "memory.total_bytes", 8573157376.0);
	expect_str("awake", d, "vbios_version", "115-D050PIL-100");
	cJSON_Delete(doc);
	open_watch_close(&w);
	remove_copy(root);
}

/*
 * processes_unreadable: the processes whose GPU use gputop could not read.
 * A /proc tree with two processes holding the rx6900xt's render node
 * (uevent PCI_SLOT_NAME=0000:0c:00.0): 4242 readable, 4343 with its fd
 * directory refused (mode 000, gputop run as nobody under root; see
 * unpriv.h). The scanner counts a refused fd directory as unreadable.
 */
static void put_text(const char *dir, const char *rel, const char *text)
{
	char path[1200];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	sh("mkdir -p \"$(dirname '%s')\"", path);
	write_file(dir, rel, text);
}

static cJSON *snapshot_refused(const char *root, const char *proc,
                               const char *refused)
{
	int status;
	const char *args[] = {
	    "--sysfs",    root,           "--snapshot", "--interval", "0.1",
	    "--nvml-lib", "/nonexistent", "--procfs",   proc,         NULL};
	char *out = run_gputop_as(&status, args, refused);
	if (status == UNPRIV_SKIP) {
		free(out);
		return NULL;
	}
	assert_int_equal(status, 0);
	cJSON *doc = cJSON_Parse(out);
	if (!doc)
		fail_msg("snapshot is not valid JSON: %.80s", out);
	free(out);
	return doc;
}

static void test_processes_unreadable(void **state)
{
	(void)state;
	char refused[128], root[1200];
	char *proc = malloc(64);
	assert_non_null(proc);
	snprintf(proc, 64, "/tmp/gputop-amd-procs-XXXXXX");
	if (!mkdtemp(proc))
		fail_msg("mkdtemp: %s", strerror(errno));
	track_copy(proc); /* removed by main() if an assertion fails */
	assert_int_equal(chmod(proc, 0755), 0);
	snprintf(root, sizeof(root), "%s/rx6900xt", fixtures());
	put_text(proc, "4242/comm", "game\n");
	put_text(proc, "4242/fdinfo/7",
	         "pos:\t0\nflags:\t02100002\nmnt_id:\t26\nino:\t685\n"
	         "drm-driver:\tamdgpu\ndrm-client-id:\t12\n"
	         "drm-pdev:\t0000:0c:00.0\ndrm-memory-vram:\t1024 KiB\n"
	         "drm-engine-gfx:\t1000000 ns\n");
	sh("mkdir -p '%s/4242/fd' '%s/4343/fd' && "
	   "ln -s /dev/dri/renderD128 '%s/4242/fd/7' && "
	   "ln -s /dev/dri/renderD128 '%s/4343/fd/5'",
	   proc, proc, proc, proc);
	put_text(proc, "4343/comm", "hidden\n");
	snprintf(refused, sizeof(refused), "%s/4343/fd", proc);
	assert_int_equal(chmod(refused, 0), 0);

	cJSON *doc = snapshot_refused(root, proc, refused);
	if (!doc) {
		assert_int_equal(chmod(refused, 0755), 0);
		remove_copy(proc);
		skip();
	}
	const cJSON *top =
	    cJSON_GetObjectItemCaseSensitive(doc, "processes_unreadable");
	assert_true(cJSON_IsNumber(top));
	assert_int_equal(top->valueint, 1);
	/* The readable one is listed. */
	const cJSON *procs = get(doc, "processes");
	assert_int_equal(cJSON_GetArraySize(procs), 1);
	assert_int_equal(get(cJSON_GetArrayItem(procs, 0), "pid")->valueint,
	                 4242);
	cJSON_Delete(doc);

	/* The control: readable again, nothing is unreadable. */
	assert_int_equal(chmod(refused, 0755), 0);
	doc = snapshot_refused(root, proc, NULL);
	assert_non_null(doc);
	top = cJSON_GetObjectItemCaseSensitive(doc, "processes_unreadable");
	assert_int_equal(top->valueint, 0);
	cJSON_Delete(doc);
	remove_copy(proc);
}

/* The collector over time: facts are read once the device wakes up. */
static void test_wakes_up_facts_follow(void **state)
{
	(void)state;
	char *root = copy_capture("vega56");
	char dev[1200];
	snprintf(dev, sizeof(dev), "%s/class/drm/card0/device", root);
	write_file(dev, "power/runtime_status", "suspended\n");
	setenv("GPUTOP_AMDGPU_IDS", ids_file(), 1);
	struct gt_collector_config cfg = {
	    .platform = &gt_registry_platform,
	    .backend = {.nvml_lib = "/nonexistent",
	                .sysfs_root = root,
	                .procfs_root = run_empty_dir()},
	    .interval_ns = GT_INTERVAL_MIN_NS,
	};
	struct gt_collector *c = gt_collector_open(&cfg);
	struct gt_view v;
	assert_non_null(c);
	assert_int_equal(gt_collector_device_count(c), 1);
	gt_collector_tick(c, GT_TICK_ALL);
	assert_int_equal(gt_view_open(&v, c), 0);
	assert_int_equal(v.latest[0].state, GT_DEV_ASLEEP);
	assert_int_equal(v.devs->items[0].f[GT_S_VRAM_TOTAL].why,
	                 GT_WHY_ASLEEP);
	assert_string_equal(v.devs->items[0].name, "AMD Radeon RX Vega");

	write_file(dev, "power/runtime_status", "active\n");
	gt_collector_tick(c, GT_TICK_ALL);
	assert_int_equal(gt_view_refresh(&v), 0);
	assert_int_equal(v.latest[0].state, GT_DEV_OK);
	assert_true(gt_val_ok(&v.devs->items[0].f[GT_S_VRAM_TOTAL]));
	assert_int_equal(v.devs->items[0].f[GT_S_VRAM_TOTAL].v, 8573157376LL);
	assert_int_equal(v.latest[0].f[GT_F_TEMP_GPU].v, 38000);

	/* Back to sleep: asleep again, the facts stay. */
	write_file(dev, "power/runtime_status", "suspended\n");
	gt_collector_tick(c, GT_TICK_ALL);
	assert_int_equal(gt_view_refresh(&v), 0);
	assert_int_equal(v.latest[0].state, GT_DEV_ASLEEP);
	assert_true(gt_val_ok(&v.devs->items[0].f[GT_S_VRAM_TOTAL]));
	gt_view_close(&v);
	gt_collector_close(c);
	unsetenv("GPUTOP_AMDGPU_IDS");
	remove_copy(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_builtin_names_with_revision),
	    cmocka_unit_test(test_edited_capture_cases),
	    cmocka_unit_test(test_suspended_device_not_read),
	    cmocka_unit_test(test_processes_unreadable),
	    cmocka_unit_test(test_wakes_up_facts_follow),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	for (size_t i = 0; i < sizeof(copies) / sizeof(copies[0]); i++)
		if (copies[i]) {
			char cmd[256];
			/* chmod: a directory left at mode 000 (see
			 * test_processes_unreadable) cannot be listed. */
			snprintf(cmd, sizeof(cmd),
			         "chmod -R u+rwX '%s'; rm -rf '%s'", copies[i],
			         copies[i]);
			if (system(cmd) != 0)
				fprintf(stderr, "could not remove %s\n",
				        copies[i]);
			free(copies[i]);
		}
	rmdir(run_empty_dir());
	return rc;
}

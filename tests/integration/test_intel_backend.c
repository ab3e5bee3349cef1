/* SPDX-License-Identifier: MIT */
/*
 * test_intel_backend.c - the Intel backend called directly on temporary
 * copies of the synthetic i915 and xe trees in tests/fixtures/intel, whose
 * counters the test advances between two samples (watts from
 * energy1_input, idle % from the RC6/C6 counters); rewrites of the
 * throttle files; a suspended device that must not be read (checked with
 * inotify); a PCIe link behind Arc's internal switch; device busy from the
 * fdinfo scanner and when it is a lower bound (a process refused); and the
 * collector's fast tick, which must not read fdinfo (xe wakes the card for
 * it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "support/intel_test.h"
#include "support/json_path.h"
#include "support/open_watch.h"
#include "support/unpriv.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "collectors/registry.h"
#include "core/backend.h"
#include "core/clock.h"
#include "core/collector.h"
#include "linux/fdinfo.h"
#include "core/model.h"

/* ---- the backend, directly ---- */

struct be {
	struct gt_backend b;
	struct gt_static st;
	struct gt_sample s;
};

static void be_open(struct be *e, const char *root, struct gt_fdinfo *fi)
{
	struct gt_backend_options opt = {.sysfs_root = root, .fdinfo = fi};
	memset(e, 0, sizeof(*e));
	e->b.ops = &gt_intel_backend;
	setenv("GPUTOP_PCI_IDS", "/nonexistent", 1);
	gt_intel_backend.probe(&e->b, &opt);
	assert_int_equal(e->b.status, GT_BACKEND_OK);
	assert_int_equal(e->b.device_count, 1);
	gt_static_init(&e->st);
	assert_int_equal(gt_intel_backend.get_static(&e->b, 0, &e->st), 0);
}

static int be_sample(struct be *e)
{
	gt_sample_init(&e->s);
	return gt_intel_backend.sample(&e->b, 0, &e->s, 0);
}

static void be_close(struct be *e)
{
	gt_intel_backend.shutdown(&e->b);
	assert_null(e->b.priv);
}

static void assert_why(const struct gt_val *v, enum gt_why why)
{
	if (v->why != why)
		fail_msg("why is %d, expected %d", v->why, why);
}

/* The value a rate must have, given the bounds on the interval the backend
 * measured: it read its clock between t0a..t0b and t1a..t1b. */
static void assert_rate(const struct gt_val *v, double delta_units,
                        double scale, uint64_t t0a, uint64_t t0b, uint64_t t1a,
                        uint64_t t1b)
{
	assert_why(v, GT_WHY_OK);
	double hi = delta_units * scale / (double)(t1a - t0b);
	double lo = delta_units * scale / (double)(t1b - t0a);
	if ((double)v->v < lo - 1 || (double)v->v > hi + 1)
		fail_msg("rate %lld outside [%.1f, %.1f]", (long long)v->v, lo,
		         hi);
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

/* Energy and idle counters advanced by known amounts between samples. */
static void rates_case(const char *tree, const char *card,
                       const char *energy_rel, uint64_t energy0,
                       const char *rc6_rel, int64_t rc6_0)
{
	struct copy c;
	struct be e;
	char text[32];
	copy_fixture(&c, tree, card);
	be_open(&e, c.root, NULL);

	uint64_t t0a = gt_monotonic_ns();
	assert_int_equal(be_sample(&e), 0);
	uint64_t t0b = gt_monotonic_ns();
	assert_why(&e.s.f[GT_F_POWER_DRAW], GT_WHY_PENDING);
	assert_why(&e.s.f[GT_F_IDLE_RESIDENCY], GT_WHY_PENDING);
	assert_int_equal(e.s.f[GT_F_ENERGY].v, (int64_t)(energy0 / 1000));

	/* 48.2 J and 450 ms of RC6 in about half a second: ~96.4 W, ~90 %. */
	snprintf(text, sizeof(text), "%llu",
	         (unsigned long long)(energy0 + 48200000));
	put(c.dev, energy_rel, text);
	snprintf(text, sizeof(text), "%lld", (long long)(rc6_0 + 450));
	put(c.dev, rc6_rel, text);
	sleep_ms(500);
	uint64_t t1a = gt_monotonic_ns();
	assert_int_equal(be_sample(&e), 0);
	uint64_t t1b = gt_monotonic_ns();
	/* mW = µJ × 1e6 / ns; cpercent = ms × 1e10 / ns */
	assert_rate(&e.s.f[GT_F_POWER_DRAW], 48200000.0, 1e6, t0a, t0b, t1a,
	            t1b);
	assert_rate(&e.s.f[GT_F_IDLE_RESIDENCY], 450.0, 1e10, t0a, t0b, t1a,
	            t1b);
	assert_true(e.s.f[GT_F_POWER_DRAW].v > 90000 &&
	            e.s.f[GT_F_POWER_DRAW].v < 96400);
	assert_int_equal(e.s.f[GT_F_ENERGY].v,
	                 (int64_t)((energy0 + 48200000) / 1000));

	/* A counter that went backwards (driver reload) is not a rate. */
	put(c.dev, energy_rel, "1000");
	put(c.dev, rc6_rel, "5");
	assert_int_equal(be_sample(&e), 0);
	assert_why(&e.s.f[GT_F_POWER_DRAW], GT_WHY_PENDING);
	assert_why(&e.s.f[GT_F_IDLE_RESIDENCY], GT_WHY_PENDING);
	assert_int_equal(e.s.f[GT_F_ENERGY].v, 1);
	be_close(&e);
	drop_copy(&c);
}

static void test_rates_xe(void **state)
{
	(void)state;
	rates_case("xe-bmg", "card1", "hwmon/hwmon3/energy1_input",
	           183214700000ull, "tile0/gt0/gtidle/idle_residency_ms",
	           5820000);
}

static void test_rates_i915(void **state)
{
	(void)state;
	rates_case("i915-dg2", "card0", "hwmon/hwmon2/energy1_input",
	           912345678901ull, "../gt/gt0/rc6_residency_ms", 4711000);
}

static void test_throttle_rewrites(void **state)
{
	(void)state;
	struct copy c;
	struct be e;

	copy_fixture(&c, "i915-dg2", "card0");
	be_open(&e, c.root, NULL);
	put(c.dev, "../gt/gt0/throttle_reason_pl1", "0");
	put(c.dev, "../gt/gt0/throttle_reason_thermal", "1");
	put(c.dev, "../gt/gt0/throttle_reason_prochot", "1");
	be_sample(&e);
	assert_int_equal(e.s.f[GT_F_THROTTLE].v,
	                 GT_THR_HW_THERMAL | GT_THR_HW_SLOWDOWN);
	put(c.dev, "../gt/gt0/throttle_reason_thermal", "0");
	put(c.dev, "../gt/gt0/throttle_reason_prochot", "0");
	be_sample(&e); /* throttled, but no listed reason */
	assert_int_equal(e.s.f[GT_F_THROTTLE].v, GT_THR_OTHER);
	put(c.dev, "../gt/gt0/throttle_reason_status", "0");
	put(c.dev, "../gt/gt0/throttle_reason_vr_tdc", "1");
	be_sample(&e); /* status 0 wins over a stale reason file */
	assert_int_equal(e.s.f[GT_F_THROTTLE].v, 0);
	assert_why(&e.s.f[GT_F_THROTTLE], GT_WHY_OK);
	be_close(&e);
	drop_copy(&c);

	copy_fixture(&c, "xe-bmg", "card1");
	be_open(&e, c.root, NULL);
	put(c.dev, "tile0/gt0/freq0/throttle/reasons", "pl1 vr_tdc");
	be_sample(&e);
	assert_int_equal(e.s.f[GT_F_THROTTLE].v,
	                 GT_THR_SW_POWER_CAP | GT_THR_CURRENT_LIMIT);
	/* Older xe without "reasons": status, then the reason files. */
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/tile0/gt0/freq0/throttle/reasons",
	         c.dev);
	assert_int_equal(unlink(path), 0);
	put(c.dev, "tile0/gt0/freq0/throttle/status", "1");
	put(c.dev, "tile0/gt0/freq0/throttle/reason_ratl", "1");
	put(c.dev, "tile0/gt0/gtidle/idle_status", "gt-c6");
	be_sample(&e);
	assert_int_equal(e.s.f[GT_F_THROTTLE].v,
	                 GT_THR_SW_THERMAL | GT_THR_IDLE);
	be_close(&e);
	drop_copy(&c);
}

/* Numbers no device gives, written into a copy (a corrupt or hostile tree,
 * a driver bug): each is N/A, out of range (GT_WHY_RANGE), where
 * before a negative clock, a 2-million-degree GPU, a negative fan and a
 * negative power limit were shown as read. The bounds themselves and a
 * cold card's -20 C are values. */
static void test_implausible_numbers(void **state)
{
	(void)state;
	static const struct {
		const char *rel, *bad, *good; /* under the card's device/ */
		int field;
		int64_t want; /* from good */
	} cases[] = {
	    {"../gt/gt0/rps_act_freq_mhz", "-5", "0", GT_F_CLK_GRAPHICS, 0},
	    {"../gt/gt0/rps_cur_freq_mhz", "100001", "100000",
	     GT_F_CLK_GRAPHICS_REQUESTED, 100000},
	    {"hwmon/hwmon2/temp1_input", "2147483647", "-20000", GT_F_TEMP_GPU,
	     -20000},
	    {"hwmon/hwmon2/fan1_input", "-1", "0", GT_F_FAN_RPM0, 0},
	    {"hwmon/hwmon2/power1_max", "-190000000", "190000000",
	     GT_F_POWER_LIMIT, 190000},
	};
	const size_t n = sizeof(cases) / sizeof(cases[0]);
	struct copy c;
	struct be e;

	copy_fixture(&c, "i915-dg2", "card0");
	be_open(&e, c.root, NULL);
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < n; i++)
			put(c.dev, cases[i].rel,
			    pass ? cases[i].good : cases[i].bad);
		be_sample(&e);
		for (size_t i = 0; i < n; i++) {
			const struct gt_val *v = &e.s.f[cases[i].field];
			if (pass) {
				assert_why(v, GT_WHY_OK);
				assert_int_equal(v->v, cases[i].want);
			} else {
				assert_why(v, GT_WHY_RANGE);
			}
		}
	}
	be_close(&e);
	drop_copy(&c);
}

/* What discovery may open of a sleeping card (paths under class/drm/card1):
 * PCI identity and power state, which the PCI core answers without waking
 * the device. */
static const char *const asleep_may_read[] = {
    "device/uevent",
    "device/vendor",
    "device/device",
    "device/subsystem_vendor",
    "device/subsystem_device",
    "device/revision",
    "device/power/runtime_status",
    NULL,
};

/* Every directory of the card (device/, hwmon/hwmon3/, tile0/gt0/freq0/
 * ...) is watched: no other file may be opened or read while it sleeps.
 * Awake, the same watch sees the sensors read (the control). */
static void test_asleep_never_reads_sensors(void **state)
{
	(void)state;
	static const char *const sensors[] = {
	    "device/tile0/gt0/freq0/act_freq",
	    "device/hwmon/hwmon3/energy1_input",
	    NULL,
	};
	bool seen[2] = {false, false};
	struct copy c;
	struct be e;
	struct open_watch w;
	char card[1100];
	copy_fixture(&c, "xe-bmg", "card1");
	put(c.dev, "power/runtime_status", "suspended");
	snprintf(card, sizeof(card), "%s/class/drm/card1", c.root);
	open_watch_init(&w, card);
	open_watch_tree(&w, "");

	be_open(&e, c.root, NULL);
	assert_int_equal(be_sample(&e), 0);
	assert_int_equal(e.s.state, GT_DEV_ASLEEP);
	for (int f = 0; f < GT_F__COUNT; f++)
		assert_why(&e.s.f[f], GT_WHY_ASLEEP);
	assert_string_equal(e.st.name, "Intel Arc B580 Graphics");
	assert_why(&e.st.f[GT_S_POWER_DEFAULT], GT_WHY_ASLEEP);
	assert_int_equal(
	    gt_intel_backend.processes(&e.b, 0, &(struct gt_proc_vec){0}), 0);
	assert_int_equal(open_watch_check(&w, asleep_may_read, sensors, seen),
	                 0);

	/* Awake again: the sample says the facts changed, and they read. */
	put(c.dev, "power/runtime_status", "active");
	open_watch_drain(&w);
	w.quiet = true;
	assert_int_equal(be_sample(&e), 1);
	assert_int_equal(e.s.state, GT_DEV_OK);
	assert_int_equal(e.s.f[GT_F_CLK_GRAPHICS].v, 2800);
	gt_static_init(&e.st);
	assert_int_equal(gt_intel_backend.get_static(&e.b, 0, &e.st), 0);
	assert_int_equal(e.st.f[GT_S_POWER_DEFAULT].v, 190000);
	assert_true(open_watch_check(&w, asleep_may_read, sensors, seen) > 0);
	for (size_t i = 0; i < sizeof(seen) / sizeof(seen[0]); i++)
		if (!seen[i])
			fail_msg("awake, %s was not seen read", sensors[i]);
	open_watch_close(&w);
	assert_int_equal(be_sample(&e), 0); /* and only once */
	be_close(&e);
	drop_copy(&c);
}

/* Arc cards sit behind a switch in the card: the GPU function reports a
 * 2.5 GT/s x1 link, the switch's upstream port the real one. */
static void test_pcie_behind_switch(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/gputop-intel-XXXXXX", path[PATH_MAX];
	struct be e;
	assert_non_null(mkdtemp(tmpl));
	const char *chain = "devices/pci0000:00/0000:00:01.0/0000:01:00.0/"
	                    "0000:02:01.0/0000:03:00.0";
	snprintf(path, sizeof(path), "%s/%s", tmpl, chain);
	mkdir_parents(path, strlen(tmpl));
	copy_tree(fixture("i915-dg2/class/drm/card0/device"), path);
	put(path, "current_link_speed", "2.5 GT/s PCIe");
	put(path, "current_link_width", "1");
	put(path, "max_link_speed", "2.5 GT/s PCIe");
	put(path, "max_link_width", "1");
	put(path, "../current_link_speed", "2.5 GT/s PCIe");
	put(path, "../current_link_width", "1");
	put(path, "../../current_link_speed", "8.0 GT/s PCIe");
	put(path, "../../current_link_width", "16");
	put(path, "../../max_link_speed", "16.0 GT/s PCIe");
	put(path, "../../max_link_width", "16");
	put(tmpl, "class/drm/card0/dev", "226:0");
	snprintf(path, sizeof(path), "%s/class/drm/card0/device", tmpl);
	char target[PATH_MAX];
	snprintf(target, sizeof(target), "../../../%s", chain);
	assert_int_equal(symlink(target, path), 0);

	be_open(&e, tmpl, NULL);
	be_sample(&e);
	assert_int_equal(e.s.f[GT_F_PCIE_GEN].v, 3);
	assert_int_equal(e.s.f[GT_F_PCIE_WIDTH].v, 16);
	/* The downstream port has no max_link_*: the GPU's own stays. */
	assert_int_equal(e.st.f[GT_S_PCIE_MAX_GEN].v, 1);
	assert_int_equal(e.st.f[GT_S_PCIE_MAX_WIDTH].v, 1);
	be_close(&e);
	rm_tree(tmpl);
}

/* One xe client's fdinfo at round r: rcs cycles advance by a quarter of
 * the GPU timestamp from one round to the next. */
static void xe_client_fdinfo(const char *proc, int round)
{
	char text[1024];
	snprintf(text, sizeof(text),
	         "pos:\t0\nflags:\t02100002\nmnt_id:\t26\nino:\t685\n"
	         "drm-driver:\txe\ndrm-client-id:\t3\n"
	         "drm-pdev:\t0000:03:00.0\n"
	         "drm-cycles-rcs:\t%llu\ndrm-total-cycles-rcs:\t%llu\n"
	         "drm-resident-vram0:\t23992 KiB",
	         1000000ull + (unsigned long long)round * 250000000ull,
	         7655183225ull + (unsigned long long)round * 1000000000ull);
	put(proc, "4242/fdinfo/7", text);
}

/* Process 4242 ("game") in the proc tree, holding an xe render node as
 * fd 7 (its fdinfo comes from xe_client_fdinfo). */
static void xe_client_tree(const char *proc)
{
	char path[1300];
	put(proc, "4242/comm", "game");
	snprintf(path, sizeof(path), "%s/4242/fd", proc);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/4242/fd/7", proc);
	assert_int_equal(symlink("/dev/dri/renderD129", path), 0);
}

/* Device busy is the fdinfo scanner's sum over clients: an xe client
 * whose rcs cycles advance by a quarter of the GPU timestamp. */
static void test_busy_from_fdinfo(void **state)
{
	(void)state;
	struct copy c;
	struct be e;
	char proc[1200];
	copy_fixture(&c, "xe-bmg", "card1");
	snprintf(proc, sizeof(proc), "%s/../proc", c.root);
	assert_int_equal(mkdir(proc, 0755), 0);
	xe_client_tree(proc);

	struct gt_fdinfo *fi = gt_fdinfo_new(proc);
	assert_non_null(fi);
	for (int round = 0; round < 2; round++) {
		xe_client_fdinfo(proc, round);
		gt_fdinfo_update(fi, gt_monotonic_ns(), true);
	}
	be_open(&e, c.root, fi);
	be_sample(&e);
	assert_why(&e.s.f[GT_F_UTIL_GPU], GT_WHY_OK);
	assert_int_equal(e.s.f[GT_F_UTIL_GPU].v, 2500);
	struct gt_proc_vec v = {0};
	assert_int_equal(gt_intel_backend.processes(&e.b, 0, &v), 0);
	assert_int_equal(v.count, 1);
	assert_int_equal(v.items[0].pid, 4242);
	gt_proc_vec_free(&v);
	be_close(&e);
	gt_fdinfo_free(fi);
	drop_copy(&c);
}

#define CHILD_CHECK(cond)                                                      \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "line %d: %s\n", __LINE__, #cond);     \
			return 1;                                              \
		}                                                              \
	} while (0)

/* Runs as a user /proc/4343/fd refuses (unpriv.h), so the fdinfo scanner
 * counts one process it could not read. Returns 0 when every check held. */
static int lower_bound_child(const char *root, const char *proc,
                             const char *refused)
{
	int rc = unpriv_enter(refused);
	if (rc != 0)
		return rc;
	struct gt_fdinfo *fi = gt_fdinfo_new(proc);
	CHILD_CHECK(fi != NULL);
	xe_client_fdinfo(proc, 0);
	gt_fdinfo_update(fi, gt_monotonic_ns(), true);
	CHILD_CHECK(gt_fdinfo_unreadable(fi) == 1);

	struct gt_backend b = {.ops = &gt_intel_backend};
	struct gt_backend_options opt = {.sysfs_root = root, .fdinfo = fi};
	struct gt_sample s;
	gt_intel_backend.probe(&b, &opt);
	CHILD_CHECK(b.status == GT_BACKEND_OK && b.device_count == 1);
	/* One round: no GPU % yet, so nothing for it to be a bound of. */
	gt_sample_init(&s);
	gt_intel_backend.sample(&b, 0, &s, 0);
	CHILD_CHECK(!gt_val_ok(&s.f[GT_F_UTIL_GPU]));
	CHILD_CHECK(s.f[GT_F_UTIL_GPU].why == GT_WHY_PENDING);
	CHILD_CHECK(!s.util_gpu_lower_bound);
	/* Two rounds: 25 %, a lower bound (4343's use is unknown). */
	xe_client_fdinfo(proc, 1);
	gt_fdinfo_update(fi, gt_monotonic_ns(), true);
	gt_sample_init(&s);
	gt_intel_backend.sample(&b, 0, &s, 0);
	CHILD_CHECK(gt_val_ok(&s.f[GT_F_UTIL_GPU]));
	CHILD_CHECK(s.f[GT_F_UTIL_GPU].v == 2500);
	CHILD_CHECK(s.util_gpu_lower_bound);
	gt_intel_backend.shutdown(&b);
	gt_fdinfo_free(fi);
	return 0;
}

/* gpu_percent_lower_bound is true only on a value: a null GPU % with
 * unreadable processes is null, not a bound (AMD's rule, the schema's
 * "GPU % is a sum over the processes that could be read"). */
static void test_lower_bound_only_with_a_value(void **state)
{
	(void)state;
	struct copy c;
	char proc[1200], path[1300];
	copy_fixture(&c, "xe-bmg", "card1");
	/* The copy must be readable by the refused user. */
	snprintf(path, sizeof(path), "%s/..", c.root);
	assert_int_equal(chmod(path, 0755), 0);
	snprintf(proc, sizeof(proc), "%s/../proc", c.root);
	assert_int_equal(mkdir(proc, 0755), 0);
	xe_client_tree(proc);
	put(proc, "4343/comm", "hidden");
	xe_client_fdinfo(proc, 0);
	/* The child rewrites it between its two rounds. */
	snprintf(path, sizeof(path), "%s/4242/fdinfo/7", proc);
	assert_int_equal(chmod(path, 0666), 0);
	snprintf(path, sizeof(path), "%s/4343/fd", proc);
	assert_int_equal(mkdir(path, 0755), 0);
	char link[1400];
	snprintf(link, sizeof(link), "%s/5", path);
	assert_int_equal(symlink("/dev/dri/renderD129", link), 0);
	assert_int_equal(chmod(path, 0), 0);

	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(lower_bound_child(c.root, proc, path));
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) == UNPRIV_SKIP) {
		assert_int_equal(chmod(path, 0755), 0);
		drop_copy(&c);
		skip();
	}
	assert_int_equal(WEXITSTATUS(st), 0);

	/* The snapshot says the same: its two process rounds read the same
	 * counters, so GPU % is null, and so is no bound; the refused
	 * process is counted. */
	cJSON *doc = snapshot_ex(c.root, "/nonexistent", proc, path);
	assert_non_null(doc);
	const cJSON *dev = cJSON_GetArrayItem(get(doc, "devices"), 0);
	assert_null_why(dev, "utilization.gpu_percent", "second sample");
	assert_true(
	    cJSON_IsFalse(get(dev, "utilization.gpu_percent_lower_bound")));
	assert_num(doc, "processes_unreadable", 1);
	cJSON_Delete(doc);
	assert_int_equal(chmod(path, 0755), 0);
	drop_copy(&c);
}

/*
 * Reading an xe client's fdinfo wakes the card, so the collector reads
 * fdinfo only on process ticks (collector.c: gt_fdinfo_update runs when
 * procs is due). A process tick, then at once a scheduled one, which is
 * due for devices only: inotify on the client's /proc directories must
 * see nothing opened, while the device sample is still taken. A second
 * process tick is the control: the same watch sees the fdinfo read.
 */
static void test_fast_tick_reads_no_fdinfo(void **state)
{
	(void)state;
	static const char *const fdinfo_file[] = {"4242/fdinfo/7", NULL};
	bool seen[1] = {false};
	struct copy c;
	struct open_watch w;
	char proc[1200];
	copy_fixture(&c, "xe-bmg", "card1");
	snprintf(proc, sizeof(proc), "%s/../proc", c.root);
	assert_int_equal(mkdir(proc, 0755), 0);
	xe_client_tree(proc);
	xe_client_fdinfo(proc, 0);

	setenv("GPUTOP_PCI_IDS", "/nonexistent", 1);
	struct gt_collector_config cfg = {
	    .platform = &gt_registry_platform,
	    .backend = {.nvml_lib = "/nonexistent",
	                .sysfs_root = c.root,
	                .procfs_root = proc},
	    .interval_ns = GT_INTERVAL_MIN_NS,
	    /* Far away: the scheduled tick below is never a process tick. */
	    .proc_interval_ns = 600ull * 1000000000ull,
	};
	struct gt_collector *col = gt_collector_open(&cfg);
	assert_non_null(col);
	assert_int_equal(gt_collector_device_count(col), 1);
	assert_true(gt_collector_device_backend(col, 0)->ops->uses_fdinfo);
	gt_collector_tick(col, GT_TICK_ALL);
	struct gt_sample s;
	assert_int_equal(gt_collector_latest(col, 0, &s), 0);
	uint64_t first = s.seq;

	open_watch_init(&w, proc);
	open_watch_tree(&w, "4242");
	xe_client_fdinfo(proc, 1); /* the counters move on */
	open_watch_drain(&w);
	gt_collector_tick(col, GT_TICK_SCHEDULED);
	assert_int_equal(open_watch_check(&w, NULL, fdinfo_file, seen), 0);
	assert_false(seen[0]);
	/* The devices were sampled all the same. */
	assert_int_equal(gt_collector_latest(col, 0, &s), 0);
	assert_true(s.seq > first);
	assert_int_equal(s.state, GT_DEV_OK);

	/* The control: a process tick reads it, under the same watch. */
	w.quiet = true;
	gt_collector_tick(col, GT_TICK_ALL);
	assert_true(open_watch_check(&w, NULL, fdinfo_file, seen) > 0);
	assert_true(seen[0]);
	/* and with the second round, the client's 25 % */
	assert_int_equal(gt_collector_latest(col, 0, &s), 0);
	assert_int_equal(s.f[GT_F_UTIL_GPU].v, 2500);
	open_watch_close(&w);
	gt_collector_close(col);
	drop_copy(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rates_xe),
	    cmocka_unit_test(test_rates_i915),
	    cmocka_unit_test(test_throttle_rewrites),
	    cmocka_unit_test(test_implausible_numbers),
	    cmocka_unit_test(test_asleep_never_reads_sensors),
	    cmocka_unit_test(test_pcie_behind_switch),
	    cmocka_unit_test(test_busy_from_fdinfo),
	    cmocka_unit_test(test_lower_bound_only_with_a_value),
	    cmocka_unit_test(test_fast_tick_reads_no_fdinfo),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * test_collector_nvml.c - the collector driving the NVIDIA backend over
 * several ticks against the fake NVML: a GPU that falls off the bus is
 * marked lost while the others keep updating; the blocking PCIe throughput
 * call stays off the tick; a driver that answers NOT_SUPPORTED to half the
 * calls still yields a sample with reasons; the costly fields are not read
 * every tick, nor the per-process utilization of a GPU without processes;
 * implausible per-process samples are dropped; pure monitoring writes
 * nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collectors/registry.h"
#include "core/clock.h"
#include "core/collector.h"

static const char *env_or_fail(const char *name)
{
	const char *v = getenv(name);
	if (!v || !*v)
		fail_msg("%s is not set (run through tests/run.sh)", name);
	return v;
}

static struct gt_collector *open_scenario(const char *scn, const char *calls,
                                          const char *log)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s",
	         env_or_fail("GPUTOP_SCENARIO_DIR"), scn);
	setenv("GPUTOP_FAKE_NVML_SCENARIO", path, 1);
	if (calls)
		setenv("GPUTOP_FAKE_NVML_CALLS", calls, 1);
	else
		unsetenv("GPUTOP_FAKE_NVML_CALLS");
	if (log)
		setenv("GPUTOP_FAKE_NVML_LOG", log, 1);
	else
		unsetenv("GPUTOP_FAKE_NVML_LOG");
	struct gt_collector_config cfg = {
	    .platform = &gt_registry_platform,
	    .backend = {.nvml_lib = env_or_fail("GPUTOP_FAKE_NVML_LIB"),
	                .procfs_root = "/nonexistent"},
	    .interval_ns = GT_INTERVAL_MIN_NS,
	};
	struct gt_collector *c = gt_collector_open(&cfg);
	assert_non_null(c);
	return c;
}

static void latest(struct gt_collector *c, size_t dev, struct gt_sample *s)
{
	assert_int_equal(
	    gt_ring_read_latest(gt_collector_ring(c, dev), s, NULL),
	    GT_RING_OK);
}

static void test_lost_gpu_others_keep_updating(void **state)
{
	(void)state;
	struct gt_collector *c = open_scenario("h100x8-lost.scn", NULL, NULL);
	struct gt_sample s;
	uint64_t first_ns[8];

	assert_int_equal(gt_collector_device_count(c), 8);
	gt_collector_tick(c, GT_TICK_ALL);
	for (size_t i = 0; i < 8; i++) {
		latest(c, i, &s);
		assert_int_equal(s.state, GT_DEV_OK);
		assert_true(gt_val_ok(&s.f[GT_F_ENERGY]));
		first_ns[i] = s.monotonic_ns;
	}
	/* GPU 3 falls off the bus 1.5 s after init. */
	for (int t = 0; t < 9; t++) {
		usleep(250 * 1000);
		gt_collector_tick(c, GT_TICK_SCHEDULED);
	}
	for (size_t i = 0; i < 8; i++) {
		latest(c, i, &s);
		if (i == 3) {
			assert_int_equal(s.state, GT_DEV_LOST);
			assert_int_equal(s.f[GT_F_UTIL_GPU].why, GT_WHY_LOST);
			continue;
		}
		assert_int_equal(s.state, GT_DEV_OK);
		assert_true(gt_val_ok(&s.f[GT_F_UTIL_GPU]));
		/* Still sampled: a newer sample, in which the energy
		 * counter (read on the slow cadence) still stands. */
		assert_true(s.monotonic_ns > first_ns[i]);
		assert_true(gt_val_ok(&s.f[GT_F_ENERGY]));
		assert_int_equal(s.seq, gt_collector_rounds(c) - 1);
	}
	gt_collector_close(c);
}

/* The published device list's generation; name3 gets GPU 3's name. */
static uint64_t devlist_generation(struct gt_collector *c, char *name3,
                                   size_t len)
{
	struct gt_pub *pub = gt_collector_devlist(c);
	int slot = gt_pub_reader_open(pub);
	assert_true(slot >= 0);
	const struct gt_devlist *dl = gt_pub_acquire(pub, slot);
	assert_non_null(dl);
	uint64_t gen = dl->generation;
	snprintf(name3, len, "%s", dl->count > 3 ? dl->items[3].name : "");
	gt_pub_release(pub, slot);
	gt_pub_reader_close(pub, slot);
	return gen;
}

static double since(uint64_t t0)
{
	return (double)(gt_monotonic_ns() - t0) / 1e9;
}

/* GPU 3 of h100x8-reset.scn is lost from 1 s to 3 s after init: the
 * collector shows it lost, asks it again at its slow rate and shows it
 * live, with values, once it answers, and republishes its facts. */
static void test_lost_gpu_comes_back(void **state)
{
	(void)state;
	uint64_t t0 = gt_monotonic_ns(); /* just before the fake's init */
	struct gt_collector *c = open_scenario("h100x8-reset.scn", NULL, NULL);
	char name[sizeof(((struct gt_static *)0)->name)];
	uint64_t gen0 = devlist_generation(c, name, sizeof(name));
	double lost_at = -1, back_at = -1;
	struct gt_sample s;

	gt_collector_tick(c, GT_TICK_ALL);
	latest(c, 3, &s);
	assert_int_equal(s.state, GT_DEV_OK);
	double limit = 3.0 + (double)GT_LOST_RETRY_NS / 1e9 + 1.5;
	while (since(t0) < limit && back_at < 0) {
		usleep(100 * 1000);
		gt_collector_tick(c, GT_TICK_SCHEDULED);
		latest(c, 3, &s);
		if (s.state == GT_DEV_LOST && lost_at < 0)
			lost_at = since(t0);
		if (s.state == GT_DEV_OK && lost_at >= 0)
			back_at = since(t0);
	}
	print_message("GPU 3 lost at %.2f s, live again at %.2f s\n", lost_at,
	              back_at);
	assert_true(lost_at >= 1.0 && lost_at < 1.5);
	assert_true(back_at >= 3.0);
	assert_true(back_at < limit);
	assert_true(gt_val_ok(&s.f[GT_F_UTIL_GPU]));
	assert_true(gt_val_ok(&s.f[GT_F_ENERGY]));
	/* Its facts were asked again: a new device list. */
	assert_true(devlist_generation(c, name, sizeof(name)) > gen0);
	assert_string_equal(name, "NVIDIA H100 80GB HBM3");
	/* And it stays live. */
	usleep(200 * 1000);
	gt_collector_tick(c, GT_TICK_SCHEDULED);
	latest(c, 3, &s);
	assert_int_equal(s.state, GT_DEV_OK);
	gt_collector_close(c);
}

static long calls_of(const char *file, const char *fn)
{
	FILE *f = fopen(file, "r");
	char name[128];
	long n;
	long found = -1;
	if (!f)
		fail_msg("no call counts written to %s", file);
	while (fscanf(f, "%127s %ld", name, &n) == 2)
		if (strcmp(name, fn) == 0)
			found = n;
	fclose(f);
	return found < 0 ? 0 : found;
}

/* A GPU lost for good is asked again once per GT_LOST_RETRY_NS, not every
 * tick: one H100 lost 0.3 s after init, ticked every 50 ms for 4 s. */
static void test_lost_gpu_asked_at_a_slow_rate(void **state)
{
	(void)state;
	char calls[] = "/tmp/gputop-calls-XXXXXX";
	char scn[] = "/tmp/gputop-scn-XXXXXX";
	int fd = mkstemp(calls);
	assert_true(fd >= 0);
	close(fd);
	fd = mkstemp(scn);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	assert_non_null(f);
	fprintf(f, "include %s/h100x1.scn\ndevice 0\nlost_after 0.3\n",
	        env_or_fail("GPUTOP_SCENARIO_DIR"));
	fclose(f);
	setenv("GPUTOP_FAKE_NVML_CALLS", calls, 1);
	unsetenv("GPUTOP_FAKE_NVML_LOG");
	setenv("GPUTOP_FAKE_NVML_SCENARIO", scn, 1);
	struct gt_collector_config cfg = {
	    .platform = &gt_registry_platform,
	    .backend = {.nvml_lib = env_or_fail("GPUTOP_FAKE_NVML_LIB"),
	                .procfs_root = "/nonexistent"},
	    .interval_ns = GT_INTERVAL_MIN_NS,
	};
	uint64_t t0 = gt_monotonic_ns();
	struct gt_collector *c = gt_collector_open(&cfg);
	assert_non_null(c);
	int ticks = 0, lost_ticks = 0;
	struct gt_sample s;
	while (since(t0) < 4.0) {
		gt_collector_tick(c,
		                  ticks == 0 ? GT_TICK_ALL : GT_TICK_SCHEDULED);
		latest(c, 0, &s);
		lost_ticks += s.state == GT_DEV_LOST;
		ticks++;
		usleep(50 * 1000);
	}
	gt_collector_close(c);
	unlink(scn);
	/* Each sample starts with the utilisation call: one per live tick
	 * and one per try while lost (the first, and one after 3 s). */
	long asked = calls_of(calls, "nvmlDeviceGetUtilizationRates");
	unlink(calls);
	print_message("%d ticks, %d lost, %ld utilisation calls\n", ticks,
	              lost_ticks, asked);
	assert_true(lost_ticks > 40);
	assert_true(asked >= ticks - lost_ticks + 2);
	assert_true(asked <= ticks - lost_ticks + 3);
}

/* 20 ticks of scenario scn (twenty_ticks: the 8x H100 node) with the
 * fake's call counts going to calls (a mkstemp template); the caller
 * closes the collector, which writes them. */
static struct gt_collector *twenty_ticks_of(const char *scn, char *calls)
{
	int fd = mkstemp(calls);
	assert_true(fd >= 0);
	close(fd);
	struct gt_collector *c = open_scenario(scn, calls, NULL);
	for (int t = 0; t < 20; t++)
		gt_collector_tick(c, t == 0 ? GT_TICK_ALL : GT_TICK_SCHEDULED);
	return c;
}

static struct gt_collector *twenty_ticks(char *calls)
{
	return twenty_ticks_of("h100x8.scn", calls);
}

static void test_no_blocking_pcie_call_per_tick(void **state)
{
	(void)state;
	char calls[] = "/tmp/gputop-calls-XXXXXX";
	gt_collector_close(twenty_ticks(calls));

	/* Counters come from the one batched call per GPU and tick. */
	assert_int_equal(calls_of(calls, "nvmlDeviceGetPcieThroughput"), 0);
	assert_true(calls_of(calls, "nvmlDeviceGetFieldValues") >= 20 * 8);
	/* Power is in the batch, not asked again per tick. */
	assert_int_equal(calls_of(calls, "nvmlDeviceGetPowerUsage"), 0);
	/* The memory struct carries the full version: no v1 fallback. */
	assert_int_equal(calls_of(calls, "nvmlDeviceGetMemoryInfo"), 0);
	assert_true(calls_of(calls, "nvmlDeviceGetMemoryInfo_v2") >= 20 * 8);
	unlink(calls);
}

/* The fields that cost milliseconds on a real driver (the energy counter)
 * or a tenth of one (the PCIe byte counters) are not asked for every tick:
 * energy on the slow cadence, PCIe at most once a second, while the cheap
 * ones are; and their last values stand in the ticks between. */
static void test_costly_fields_not_every_tick(void **state)
{
	(void)state;
	char calls[] = "/tmp/gputop-calls-XXXXXX";
	uint64_t t0 = gt_monotonic_ns();
	struct gt_collector *c = twenty_ticks(calls);
	double took_s = (double)(gt_monotonic_ns() - t0) / 1e9;
	struct gt_sample s;
	for (size_t i = 0; i < 8; i++) {
		latest(c, i, &s);
		assert_true(gt_val_ok(&s.f[GT_F_ENERGY]));
		assert_true(gt_val_ok(&s.f[GT_F_PCIE_TX]) ||
		            s.f[GT_F_PCIE_TX].why == GT_WHY_PENDING);
	}
	gt_collector_close(c);

	long ticks = calls_of(calls, "field:185"); /* power average */
	long energy = calls_of(calls, "field:83");
	long tx = calls_of(calls, "field:197");
	assert_true(ticks >= 20 * 8);
	/* One read per GPU at the first (slow) tick, plus one per slow
	 * period (5 s) and per PCIe period (1 s) the loop took. */
	assert_true(energy >= 8 && energy <= 8 * (1 + (long)(took_s / 5)));
	assert_true(tx >= 8 && tx <= 8 * (2 + (long)took_s));
	unlink(calls);

	/* A driver without the byte counters (the A100 scenario sets
	 * none: NOT_SUPPORTED per field) is not asked for them every tick
	 * either: once at the start, then once a second. */
	char calls2[] = "/tmp/gputop-calls-XXXXXX";
	t0 = gt_monotonic_ns();
	gt_collector_close(twenty_ticks_of("a100-mig.scn", calls2));
	took_s = (double)(gt_monotonic_ns() - t0) / 1e9;
	long devs_ticks = calls_of(calls2, "field:185");
	long tx2 = calls_of(calls2, "field:197");
	print_message(
	    "a100: %ld power reads, %ld PCIe counter reads in %.2f s\n",
	    devs_ticks, tx2, took_s);
	assert_true(devs_ticks >= 20);
	assert_true(tx2 >= 1 && tx2 <= (devs_ticks / 20) * (2 + (long)took_s));
	unlink(calls2);
}

/* The per-process utilization call (about 2 ms of CPU on a real driver)
 * is made for a GPU that lists processes, never for an idle one: there is
 * nothing to attribute its samples to. */
static void test_process_utilization_only_with_processes(void **state)
{
	(void)state;
	char calls[] = "/tmp/gputop-calls-XXXXXX";
	int fd = mkstemp(calls);
	assert_true(fd >= 0);
	close(fd);
	struct gt_collector *c =
	    open_scenario("h100x2-one-idle.scn", calls, NULL);
	const int rounds = 4;
	for (int t = 0; t < rounds; t++)
		gt_collector_tick(c, GT_TICK_ALL);
	gt_collector_close(c);
	/* Both GPUs' lists are read every round; the busy one's samples
	 * asked for every round, the idle one's never. */
	long lists = calls_of(calls, "nvmlDeviceGetComputeRunningProcesses_v3");
	long util = calls_of(calls, "nvmlDeviceGetProcessUtilization");
	print_message("%ld list reads, %ld utilization reads\n", lists, util);
	assert_true(lists >= 2 * rounds);
	assert_true(util >= rounds && util <= rounds + 1); /* + a size query */
	unlink(calls);
}

/* The same skip must not cost a process that appears on an idle GPU its
 * utilization: before the process starts, no call and no row; after it,
 * the row with the driver's samples (88 % SM). */
static void test_late_process_gets_utilization(void **state)
{
	(void)state;
	uint64_t t0 = gt_monotonic_ns();
	struct gt_collector *c =
	    open_scenario("h100x2-late-process.scn", NULL, NULL);
	/* The fake's clock starts inside the open: at most now - t0 before,
	 * at least now - t1 after. */
	uint64_t t1 = gt_monotonic_ns();
	struct gt_pub *plist = gt_collector_proclist(c);
	int slot = gt_pub_reader_open(plist);
	gt_collector_tick(c, GT_TICK_ALL);
	const struct gt_proclist *pl = gt_pub_acquire(plist, slot);
	bool early = gt_monotonic_ns() - t0 < 900000000ull;
	for (size_t i = 0; early && pl && i < pl->count; i++)
		assert_int_not_equal(pl->items[i].device_index, 1);
	gt_pub_release(plist, slot);

	/* Past the process's start (1 s after init), one round: a second
	 * one within the fake's 500 ms sampling period would find no new
	 * sample and repeat this one. */
	while (gt_monotonic_ns() - t1 < 1200000000ull)
		usleep(20000);
	gt_collector_tick(c, GT_TICK_ALL);
	pl = gt_pub_acquire(plist, slot);
	assert_non_null(pl);
	const struct gt_process *late = NULL;
	for (size_t i = 0; i < pl->count; i++)
		if (pl->items[i].pid == 4300)
			late = &pl->items[i];
	assert_non_null(late);
	assert_int_equal(late->device_index, 1);
	assert_true(gt_val_ok(&late->f[GT_P_GPU]));
	assert_int_equal(late->f[GT_P_GPU].v, 8800); /* cpercent */
	gt_pub_release(plist, slot);
	gt_pub_reader_close(plist, slot);
	gt_collector_close(c);
}

/* The process row whose pid is pid in the published list (which the
 * caller holds), or a failed test. */
static const struct gt_process *row_of(const struct gt_proclist *pl,
                                       int32_t pid)
{
	for (size_t i = 0; pl && i < pl->count; i++)
		if (pl->items[i].pid == pid)
			return &pl->items[i];
	fail_msg("no row for pid %d", (int)pid);
	return NULL;
}

static void assert_cpercent(const struct gt_val *v, int64_t want)
{
	if (!gt_val_ok(v))
		fail_msg("no value (why %d), expected %lld", v->why,
		         (long long)want);
	assert_int_equal(v->v, want);
}

/* Per-process entries over 100 % (SM, encoder or decoder) and one not
 * newer than the last seen timestamp are dropped; the plausible ones,
 * 100 % included, are averaged (h100x1-implausible-putil.scn). One round:
 * the first call asks from timestamp 0, so the fake has new entries. */
static void test_implausible_samples_ignored(void **state)
{
	(void)state;
	struct gt_collector *c =
	    open_scenario("h100x1-implausible-putil.scn", NULL, NULL);
	struct gt_pub *plist = gt_collector_proclist(c);
	int slot = gt_pub_reader_open(plist);
	assert_true(slot >= 0);
	gt_collector_tick(c, GT_TICK_ALL);
	const struct gt_proclist *pl = gt_pub_acquire(plist, slot);
	assert_non_null(pl);
	/* Only its 97 % entry: each over-100 one, or the stale 0 %, would
	 * move the mean. */
	const struct gt_process *p = row_of(pl, 4100);
	assert_cpercent(&p->f[GT_P_GPU], 9700);
	assert_cpercent(&p->f[GT_P_ENC], 0);
	assert_cpercent(&p->f[GT_P_DEC], 0);
	/* 3 % and 100 %; encoder and decoder 0 % and 100 %. */
	p = row_of(pl, 5000);
	assert_cpercent(&p->f[GT_P_GPU], 5150);
	assert_cpercent(&p->f[GT_P_ENC], 5000);
	assert_cpercent(&p->f[GT_P_DEC], 5000);
	gt_pub_release(plist, slot);
	gt_pub_reader_close(plist, slot);
	gt_collector_close(c);
}

/* A round shorter than the driver's sampling period finds no new sample:
 * the busy process keeps its last value (it read 0 %, idle, before); a
 * round a second or more after the last informative one with still no
 * sample reads it idle. */
static void test_short_round_repeats_utilization(void **state)
{
	(void)state;
	/* The fake samples on the hour: the test's 2 s stay clear of one. */
	while (time(NULL) % 3600 > 3600 - 5)
		sleep(1);
	struct gt_collector *c =
	    open_scenario("h100x1-slow-putil.scn", NULL, NULL);
	struct gt_pub *plist = gt_collector_proclist(c);
	int slot = gt_pub_reader_open(plist);
	assert_true(slot >= 0);
	const int32_t want[3] = {9700, 0, 0};
	for (int round = 0; round < 3; round++) {
		if (round == 2)
			usleep(1100000);
		gt_collector_tick(c, GT_TICK_ALL);
		const struct gt_proclist *pl = gt_pub_acquire(plist, slot);
		assert_non_null(pl);
		const struct gt_process *p = row_of(pl, 4100);
		assert_cpercent(&p->f[GT_P_GPU], round < 2 ? want[0] : 0);
		assert_cpercent(&p->f[GT_P_ENC], want[1]);
		gt_pub_release(plist, slot);
	}
	gt_pub_reader_close(plist, slot);
	gt_collector_close(c);
}

static void test_half_unsupported_driver(void **state)
{
	(void)state;
	struct gt_collector *c =
	    open_scenario("half-unsupported.scn", NULL, NULL);
	struct gt_sample s;
	int ok = 0, missing = 0;

	assert_true(gt_collector_device_count(c) > 0);
	gt_collector_tick(c, GT_TICK_ALL);
	gt_collector_tick(c, GT_TICK_ALL);
	latest(c, 0, &s);
	assert_int_equal(s.state, GT_DEV_OK);
	for (int f = 0; f < GT_F_FAN_PERCENT0; f++) {
		if (gt_val_ok(&s.f[f]))
			ok++;
		else if (s.f[f].why != GT_WHY_NOT_COLLECTED)
			missing++;
	}
	/* Some values arrive, the others say why; none is left unexplained. */
	assert_true(ok > 3);
	assert_true(missing > 3);
	for (int f = 0; f < GT_F_FAN_PERCENT0; f++)
		assert_int_not_equal(s.f[f].why, GT_WHY_NOT_COLLECTED);
	gt_collector_close(c);
}

static void test_monitoring_never_writes(void **state)
{
	(void)state;
	char log[] = "/tmp/gputop-setters-XXXXXX";
	int fd = mkstemp(log);
	assert_true(fd >= 0);
	close(fd);
	struct gt_collector *c = open_scenario("rtx4090.scn", NULL, log);
	for (int t = 0; t < 5; t++)
		gt_collector_tick(c, GT_TICK_ALL);
	gt_collector_close(c);
	FILE *f = fopen(log, "r");
	assert_non_null(f);
	char line[256];
	/* The fake logs every setter call: there must be none. */
	assert_null(fgets(line, sizeof(line), f));
	fclose(f);
	unlink(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_lost_gpu_others_keep_updating),
	    cmocka_unit_test(test_lost_gpu_comes_back),
	    cmocka_unit_test(test_lost_gpu_asked_at_a_slow_rate),
	    cmocka_unit_test(test_no_blocking_pcie_call_per_tick),
	    cmocka_unit_test(test_costly_fields_not_every_tick),
	    cmocka_unit_test(test_process_utilization_only_with_processes),
	    cmocka_unit_test(test_late_process_gets_utilization),
	    cmocka_unit_test(test_implausible_samples_ignored),
	    cmocka_unit_test(test_short_round_repeats_utilization),
	    cmocka_unit_test(test_half_unsupported_driver),
	    cmocka_unit_test(test_monitoring_never_writes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

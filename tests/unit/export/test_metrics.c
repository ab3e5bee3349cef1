/* SPDX-License-Identifier: MIT */
/*
 * test_metrics.c - the Prometheus exposition (src/export/metrics.c) of the
 * snapshot tests' hand-made inputs (support/snapshot_test.h): values in
 * base units written exactly, unknown values left out with their reason,
 * the lost device, throttle reasons and fans, one header per family and
 * families contiguous, no duplicate series, label escaping, OpenMetrics,
 * stale samples, the exporter's own series, the opt-in top processes and
 * the per-user and per-container roll-ups.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "export/metrics.h"
#include "support/snapshot_test.h"

#define NOW_NS UINT64_C(500000000000)
#define L0                                                                     \
	"gpu=\"0\",uuid=\"GPU-0f7c1c8e-aaaa-bbbb-cccc-0123456789ab\",vendor="  \
	"\"nvidia\""
#define L1 "gpu=\"1\",uuid=\"\",vendor=\"nvidia\""

struct mfx {
	struct fixture fx;
	struct gt_metrics_input in;
	char *text;
};

static void mrender(struct mfx *m)
{
	free(m->text);
	m->text = gt_metrics_render(&m->in, NULL);
	assert_non_null(m->text);
}

static int msetup(void **state)
{
	struct mfx *m = calloc(1, sizeof(*m));
	if (!m)
		return -1;
	build(&m->fx);
	m->fx.samples[0].monotonic_ns = NOW_NS - 400000000;
	m->fx.samples[1].monotonic_ns = NOW_NS - 400000000;
	m->in = (struct gt_metrics_input){
	    .devices = m->fx.devs,
	    .samples = m->fx.samples,
	    .procs = &m->fx.procs,
	    .backends = m->fx.backends,
	    .nbackends = 1,
	    .now_mono_ns = NOW_NS,
	    .now_real = {1700000000, 0},
	    .interval_ns = 1000000000,
	    .have_round = true,
	    .round_end_ns = NOW_NS - 250000000,
	    .round_took_ns = 1234567,
	    .rounds = 42,
	};
	mrender(m);
	*state = m;
	return 0;
}

static int mteardown(void **state)
{
	struct mfx *m = *state;
	for (int i = 0; i < 3; i++)
		free(m->fx.proc_items[i].cmdline);
	free(m->fx.devs);
	free(m->text);
	free(m);
	return 0;
}

/* The text has this exact line. */
static void has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	for (const char *p = text; (p = strstr(p, line)) != NULL; p++)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return;
	fail_msg("line missing: %s", line);
}

/* No line starts with prefix. */
static void no_line(const char *text, const char *prefix)
{
	size_t n = strlen(prefix);
	for (const char *p = text; (p = strstr(p, prefix)) != NULL; p++)
		if (p == text || p[-1] == '\n')
			fail_msg("unexpected line: %.*s", (int)n + 40, p);
}

static void test_values_in_base_units(void **state)
{
	struct mfx *m = *state;
	has_line(m->text, "gputop_gpu_utilization_ratio{" L0 "} 0.455");
	has_line(m->text,
	         "gputop_gpu_memory_bandwidth_utilization_ratio{" L0 "} 0.125");
	has_line(m->text, "gputop_gpu_decoder_utilization_ratio{" L0 "} 0");
	has_line(m->text, "gputop_gpu_memory_used_bytes{" L0 "} 1073741824");
	has_line(m->text, "gputop_gpu_memory_total_bytes{" L0 "} 85899345920");
	has_line(m->text,
	         "gputop_gpu_temperature_celsius{" L0 ",sensor=\"gpu\"} 71.25");
	has_line(m->text,
	         "gputop_gpu_temperature_celsius{" L0 ",sensor=\"memory\"} 65");
	has_line(m->text, "gputop_gpu_temperature_slowdown_celsius{" L0 "} 87");
	has_line(m->text,
	         "gputop_gpu_temperature_shutdown_celsius{" L0 "} 92.5");
	has_line(m->text, "gputop_gpu_power_limit_watts{" L0 "} 700");
	has_line(m->text,
	         "gputop_gpu_power_enforced_limit_watts{" L0 "} 650.5");
	has_line(m->text, "gputop_gpu_energy_joules_total{" L0 "} 123456.789");
	has_line(m->text,
	         "gputop_gpu_clock_hertz{" L0 ",domain=\"sm\"} 1750000000");
	has_line(m->text, "gputop_gpu_clock_max_hertz{" L0
	                  ",domain=\"video\"} 1755000000");
	has_line(m->text, "gputop_gpu_pcie_link_generation{" L0 "} 4");
	has_line(m->text,
	         "gputop_gpu_pcie_transmit_bytes_per_second{" L0 "} 1048576");
	has_line(m->text, "gputop_gpu_ecc_errors_total{" L0
	                  ",type=\"corrected_aggregate\"} 12");
	has_line(m->text, "gputop_gpu_fan_speed_ratio{" L0 ",fan=\"0\"} 0.455");
	has_line(m->text, "gputop_gpu_processes{" L0 "} 2");
	has_line(m->text, "gputop_gpu_processes{" L1 "} 1");
}

static void test_unknown_is_left_out_with_reason(void **state)
{
	struct mfx *m = *state;
	/* power draw: a driver error; never a 0 */
	no_line(m->text, "gputop_gpu_power_watts{" L0);
	has_line(m->text, "gputop_metric_unavailable{" L0
	                  ",metric=\"gputop_gpu_power_watts\",reason=\"driver_"
	                  "error\"} 1");
	no_line(m->text, "gputop_gpu_encoder_utilization_ratio{" L0);
	has_line(m->text, "gputop_metric_unavailable{" L0
	                  ",metric=\"gputop_gpu_encoder_utilization_ratio\","
	                  "reason=\"permission\"} 1");
	has_line(m->text, "gputop_metric_unavailable{" L0
	                  ",metric=\"gputop_gpu_temperature_celsius\",sensor="
	                  "\"hotspot\",reason=\"no_sensor\"} 1");
	has_line(m->text, "gputop_metric_unavailable{" L0
	                  ",metric=\"gputop_gpu_clock_hertz\",domain=\"video\","
	                  "reason=\"mig\"} 1");
	has_line(m->text,
	         "gputop_metric_unavailable{" L0
	         ",metric=\"gputop_gpu_pcie_receive_bytes_per_second\","
	         "reason=\"pending\"} 1");
	/* the fan past fan_count is not there at all; fan 1 is unknown */
	no_line(m->text, "gputop_gpu_fan_speed_ratio{" L0 ",fan=\"1\"");
	no_line(m->text, "gputop_gpu_fan_speed_ratio{" L0 ",fan=\"2\"");
	has_line(m->text, "gputop_metric_unavailable{" L0
	                  ",metric=\"gputop_gpu_fan_speed_ratio\",fan=\"1\","
	                  "reason=\"unsupported_device\"} 1");
}

/* Scaling past 2^64 (no real clock is) is still the number it is. */
static void test_huge_values(void **state)
{
	struct mfx *m = *state;
	gt_val_set(&m->fx.samples[0].f[GT_F_CLK_SM], INT64_MAX);
	gt_val_set(&m->fx.samples[0].f[GT_F_TEMP_GPU], INT64_MIN);
	mrender(m);
	has_line(m->text, "gputop_gpu_clock_hertz{" L0
	                  ",domain=\"sm\"} 9.2233720368547758e+24");
	has_line(m->text, "gputop_gpu_temperature_celsius{" L0
	                  ",sensor=\"gpu\"} -9223372036854775.808");
}

static void test_lost_device(void **state)
{
	struct mfx *m = *state;
	has_line(m->text, "gputop_gpu_lost{" L1 "} 1");
	has_line(m->text, "gputop_gpu_lost{" L0 "} 0");
	no_line(m->text, "gputop_gpu_utilization_ratio{" L1);
	no_line(m->text, "gputop_gpu_memory_used_bytes{" L1);
	has_line(m->text, "gputop_metric_unavailable{" L1
	                  ",metric=\"gputop_gpu_utilization_ratio\",reason="
	                  "\"lost\"} 1");
	has_line(m->text, "gputop_metric_unavailable{" L1
	                  ",metric=\"gputop_gpu_fan_speed_ratio\",reason="
	                  "\"unsupported_device\"} 1");
	/* the static total is known even while the device is lost */
	has_line(m->text, "gputop_gpu_info{" L1
	                  ",name=\"Second GPU\",pci_bus_id=\"\",driver=\"\","
	                  "driver_version=\"\",vbios=\"\",architecture=\"\","
	                  "demo=\"true\"} 1");
}

static void test_throttle_reasons(void **state)
{
	struct mfx *m = *state;
	has_line(m->text,
	         "gputop_gpu_throttle_active{" L0 ",reason=\"power_cap\"} 1");
	has_line(m->text,
	         "gputop_gpu_throttle_active{" L0 ",reason=\"hw_thermal\"} 1");
	has_line(m->text,
	         "gputop_gpu_throttle_active{" L0 ",reason=\"idle\"} 1");
	has_line(m->text,
	         "gputop_gpu_throttle_active{" L0 ",reason=\"sync_boost\"} 0");
	no_line(m->text, "gputop_gpu_throttle_active{" L1);
}

/* The family of a sample line: its name up to '{' or ' '. */
static size_t family_of(const char *line, char *out, size_t len)
{
	size_t n = strcspn(line, "{ ");
	snprintf(out, len, "%.*s", (int)n, line);
	return n;
}

/* One HELP and one TYPE per family, before its samples; a family's
 * samples in one block; no series twice. */
static void check_structure(const char *text, bool om)
{
	char *copy = strdup(text);
	char *lines[4096];
	size_t n = 0;
	assert_non_null(copy);
	for (char *save = NULL, *l = strtok_r(copy, "\n", &save); l && n < 4096;
	     l = strtok_r(NULL, "\n", &save))
		lines[n++] = l;
	char done[256][96];
	size_t ndone = 0;
	char cur[96] = "";
	for (size_t i = 0; i < n; i++) {
		char fam[96];
		if (strncmp(lines[i], "# EOF", 5) == 0) {
			assert_true(om);
			assert_int_equal(i, n - 1);
			continue;
		}
		if (strncmp(lines[i], "# HELP ", 7) == 0) {
			family_of(lines[i] + 7, fam, sizeof(fam));
			for (size_t k = 0; k < ndone; k++)
				if (strcmp(done[k], fam) == 0)
					fail_msg("family %s twice", fam);
			assert_true(ndone < 256);
			snprintf(done[ndone++], sizeof(done[0]), "%s", fam);
			snprintf(cur, sizeof(cur), "%s", fam);
			assert_true(i + 1 < n);
			char want[160];
			snprintf(want, sizeof(want), "# TYPE %s ", fam);
			assert_memory_equal(lines[i + 1], want, strlen(want));
			i++;
			continue;
		}
		assert_true(lines[i][0] != '#');
		family_of(lines[i], fam, sizeof(fam));
		size_t cl = strlen(cur);
		/* OpenMetrics counters: family without _total */
		if (strcmp(fam, cur) != 0 &&
		    !(om && strncmp(fam, cur, cl) == 0 &&
		      strcmp(fam + cl, "_total") == 0))
			fail_msg("sample %s outside its family (in %s)", fam,
			         cur);
		for (size_t k = 0; k < i; k++) {
			size_t a = strcspn(lines[k], " ");
			size_t b = strcspn(lines[i], " ");
			if (lines[k][0] != '#' && a == b &&
			    strncmp(lines[k], lines[i], a) == 0)
				fail_msg("series twice: %s", lines[i]);
		}
	}
	if (om)
		assert_true(n > 0 && strcmp(lines[n - 1], "# EOF") == 0);
	free(copy);
}

static void test_families_well_formed(void **state)
{
	struct mfx *m = *state;
	m->in.process_top = 5;
	mrender(m);
	check_structure(m->text, false);
	m->in.openmetrics = true;
	mrender(m);
	check_structure(m->text, true);
}

static void test_openmetrics(void **state)
{
	struct mfx *m = *state;
	assert_null(strstr(m->text, "# EOF"));
	has_line(m->text, "# TYPE gputop_gpu_energy_joules_total counter");
	m->in.openmetrics = true;
	mrender(m);
	size_t len = strlen(m->text);
	assert_true(len > 6);
	assert_string_equal(m->text + len - 6, "# EOF\n");
	has_line(m->text, "# TYPE gputop_gpu_energy_joules counter");
	has_line(m->text, "gputop_gpu_energy_joules_total{" L0 "} 123456.789");
	no_line(m->text, "# TYPE gputop_gpu_energy_joules_total");
}

static void test_label_escaping(void **state)
{
	struct mfx *m = *state;
	char *e = gt_metrics_label_escape("a\"b\\c\nd");
	assert_string_equal(e, "a\\\"b\\\\c\\nd");
	free(e);
	e = gt_metrics_label_escape("bad \xff byte");
	assert_string_equal(e, "bad \xef\xbf\xbd byte"); /* U+FFFD */
	free(e);
	snprintf(m->fx.devs->items[0].name, GT_STR_NAME, "H100 \"x\" \\ \n!");
	mrender(m);
	assert_non_null(strstr(m->text, "name=\"H100 \\\"x\\\" \\\\ \\n!\""));
	check_structure(m->text, false);
}

static void test_stale_and_up(void **state)
{
	struct mfx *m = *state;
	has_line(m->text, "gputop_gpu_stale{" L0 "} 0");
	has_line(m->text, "gputop_up 1");
	has_line(m->text, "gputop_collector_rounds_total 42");
	has_line(m->text, "gputop_collect_duration_seconds 0.001234");
	has_line(m->text, "gputop_last_sample_timestamp_seconds 1699999999.75");
	/* ten seconds without a round at a 1 s interval */
	m->fx.samples[0].monotonic_ns = NOW_NS - 10000000000ull;
	m->in.round_end_ns = NOW_NS - 10000000000ull;
	mrender(m);
	has_line(m->text, "gputop_gpu_stale{" L0 "} 1");
	has_line(m->text, "gputop_up 0");
	/* ... which is fresh at a 5 s interval */
	m->in.interval_ns = 5000000000ull;
	mrender(m);
	has_line(m->text, "gputop_gpu_stale{" L0 "} 0");
	has_line(m->text, "gputop_up 1");
	/* a round older than the wall clock's epoch: 0, no overflow */
	m->in.now_real.tv_sec = 10;
	mrender(m);
	has_line(m->text, "gputop_last_sample_timestamp_seconds 0");
	/* never sampled */
	m->fx.samples[0].monotonic_ns = 0;
	mrender(m);
	has_line(m->text, "gputop_gpu_stale{" L0 "} 1");
	assert_true(gt_metrics_sample_stale(0, NOW_NS, 1000000000));
	assert_false(
	    gt_metrics_sample_stale(NOW_NS - 1900000000ull, NOW_NS, 100000000));
	assert_true(
	    gt_metrics_sample_stale(NOW_NS - 2100000000ull, NOW_NS, 100000000));
}

static void test_before_first_round(void **state)
{
	struct mfx *m = *state;
	m->in.devices = NULL;
	m->in.procs = NULL;
	m->in.have_round = false;
	m->in.rounds = 0;
	mrender(m);
	has_line(m->text,
	         "gputop_build_info{version=\"" GPUTOP_VERSION "\"} 1");
	has_line(m->text, "gputop_up 0");
	has_line(m->text, "gputop_devices 0");
	no_line(m->text, "gputop_last_sample_timestamp_seconds");
	no_line(m->text, "gputop_gpu_");
	no_line(m->text, "gputop_metric_unavailable");
	check_structure(m->text, false);
}

static void test_exporter_series(void **state)
{
	struct mfx *m = *state;
	static const unsigned codes[] = {200, 404, 405};
	static const uint64_t counts[] = {7, 0, 2};
	struct gt_metrics_http h = {8, 3, codes, counts};
	has_line(m->text,
	         "gputop_backend_info{backend=\"fakeb\",status=\"ok\"} 1");
	has_line(m->text, "gputop_backend_devices{backend=\"fakeb\"} 2");
	no_line(m->text, "gputop_scrapes_total");
	m->in.http = &h;
	mrender(m);
	has_line(m->text, "gputop_scrapes_total 8");
	has_line(m->text, "gputop_http_requests_total{code=\"200\"} 7");
	has_line(m->text, "gputop_http_requests_total{code=\"405\"} 2");
	no_line(m->text, "gputop_http_requests_total{code=\"404\"}");
}

static void test_top_processes(void **state)
{
	struct mfx *m = *state;
	no_line(m->text, "gputop_process_");
	m->in.process_top = 1;
	mrender(m);
	has_line(m->text, "gputop_process_gpu_memory_bytes{" L0
	                  ",pid=\"4242\",comm=\"python3\"} 2147483648");
	has_line(m->text, "gputop_process_gpu_utilization_ratio{" L0
	                  ",pid=\"4242\",comm=\"python3\"} 0.25");
	/* top 1 of GPU 0: pid 99 (0 bytes) is left out */
	no_line(m->text, "gputop_process_gpu_memory_bytes{" L0 ",pid=\"99\"");
	/* not in our /proc: no name, whatever the struct held */
	has_line(m->text, "gputop_process_gpu_memory_bytes{" L1
	                  ",pid=\"777\",comm=\"\"} 4096");
	m->in.process_top = 2;
	mrender(m);
	has_line(m->text, "gputop_process_gpu_memory_bytes{" L0
	                  ",pid=\"99\",comm=\"evil\x1b]0;x\x07\"} 0");
	/* the same pid twice on one GPU (compute and graphics) is one */
	m->fx.proc_items[2].pid = 4242;
	mrender(m);
	check_structure(m->text, false);
	has_line(m->text, "gputop_gpu_processes{" L0 "} 1");
}

static void test_rollups(void **state)
{
	struct mfx *m = *state;
	/* on by default; pid 99 (root, 0 bytes, no container) counts */
	has_line(m->text, "gputop_user_gpu_memory_bytes{" L0
	                  ",user=\"alice\"} 2147483648");
	has_line(m->text,
	         "gputop_user_gpu_memory_bytes{" L0 ",user=\"root\"} 0");
	/* not in our /proc: its user and container are unknown, its
	 * memory is not */
	has_line(m->text, "gputop_user_gpu_memory_bytes{" L1
	                  ",user=\"(unknown)\"} 4096");
	no_line(m->text, "gputop_user_gpu_memory_bytes{" L1 ",user=\"stale\"");
	has_line(m->text, "gputop_container_gpu_memory_bytes{" L0
	                  ",container=\"docker:3f2a9c1b7d10\"} 2147483648");
	has_line(m->text, "gputop_container_gpu_memory_bytes{" L1
	                  ",container=\"(unknown)\"} 4096");
	/* a host process has no container series */
	no_line(m->text,
	        "gputop_container_gpu_memory_bytes{" L0 ",container=\"\"");
	/* the same pid twice on one GPU counts once; unknown memory is
	 * left out */
	m->fx.proc_items[2].pid = 4242;
	snprintf(m->fx.proc_items[2].user, GT_USER_LEN, "alice");
	mrender(m);
	has_line(m->text, "gputop_user_gpu_memory_bytes{" L0
	                  ",user=\"alice\"} 2147483648");
	m->fx.proc_items[2].pid = 99;
	gt_val_set(&m->fx.proc_items[2].f[GT_P_MEM], 1000);
	mrender(m);
	has_line(m->text, "gputop_user_gpu_memory_bytes{" L0
	                  ",user=\"alice\"} 2147484648");
	gt_val_fail(&m->fx.proc_items[0].f[GT_P_MEM], GT_WHY_PERMISSION, 0);
	mrender(m);
	has_line(m->text,
	         "gputop_user_gpu_memory_bytes{" L0 ",user=\"alice\"} 1000");
	gt_val_fail(&m->fx.proc_items[2].f[GT_P_MEM], GT_WHY_PERMISSION, 0);
	mrender(m);
	no_line(m->text, "gputop_user_gpu_memory_bytes{" L0);
	check_structure(m->text, false);
	/* no process round yet: no roll-ups */
	m->in.procs = NULL;
	mrender(m);
	no_line(m->text, "gputop_user_gpu_memory_bytes");
	no_line(m->text, "# HELP gputop_container_gpu_memory_bytes");
}

/* Past the limit, the smallest groups are summed as "(other)". */
static void test_rollup_limit(void **state)
{
	struct mfx *m = *state;
	enum { N = GT_METRICS_ROLLUP_TOP + 5 };
	struct gt_process items[N];
	memset(items, 0, sizeof(items));
	int64_t rest = 0;
	for (int i = 0; i < N; i++) {
		items[i].device_index = 0;
		items[i].pid = 1000 + i;
		items[i].host_known = true;
		snprintf(items[i].user, GT_USER_LEN, "u%02d", i);
		snprintf(items[i].container, GT_CONTAINER_LEN, "c\"%02d", i);
		gt_val_set(&items[i].f[GT_P_MEM], (int64_t)(i + 1) << 20);
		if (i < N - GT_METRICS_ROLLUP_TOP)
			rest += (int64_t)(i + 1) << 20;
	}
	m->fx.procs.items = items;
	m->fx.procs.count = N;
	mrender(m);
	char line[256];
	snprintf(line, sizeof(line),
	         "gputop_user_gpu_memory_bytes{" L0 ",user=\"u%02d\"} %lld",
	         N - 1, (long long)N << 20);
	has_line(m->text, line);
	snprintf(line, sizeof(line),
	         "gputop_user_gpu_memory_bytes{" L0 ",user=\"u%02d\"} %lld",
	         N - GT_METRICS_ROLLUP_TOP,
	         (long long)(N - GT_METRICS_ROLLUP_TOP + 1) << 20);
	has_line(m->text, line);
	snprintf(line, sizeof(line),
	         "gputop_user_gpu_memory_bytes{" L0 ",user=\"u%02d\"}",
	         N - GT_METRICS_ROLLUP_TOP - 1);
	no_line(m->text, line);
	snprintf(line, sizeof(line),
	         "gputop_user_gpu_memory_bytes{" L0 ",user=\"(other)\"} %lld",
	         (long long)rest);
	has_line(m->text, line);
	snprintf(line, sizeof(line),
	         "gputop_container_gpu_memory_bytes{" L0
	         ",container=\"(other)\"} %lld",
	         (long long)rest);
	has_line(m->text, line);
	/* escaped like every label value */
	has_line(m->text, "gputop_container_gpu_memory_bytes{" L0
	                  ",container=\"c\\\"14\"} 15728640");
	size_t series = 0;
	for (const char *p = m->text;
	     (p = strstr(p, "\ngputop_user_gpu_memory_bytes{")) != NULL; p++)
		series++;
	assert_int_equal(series, GT_METRICS_ROLLUP_TOP + 1);
	check_structure(m->text, false);
	m->fx.procs.items = m->fx.proc_items;
	m->fx.procs.count = 3;
}

static void test_reason_names(void **state)
{
	(void)state;
	for (int i = 0; i < GT_WHY__COUNT; i++) {
		const char *a = gt_metrics_reason_name((enum gt_why)i);
		assert_string_not_equal(a, "unknown");
		for (int k = 0; k < i; k++)
			assert_string_not_equal(
			    a, gt_metrics_reason_name((enum gt_why)k));
	}
	assert_string_equal(gt_metrics_reason_name(GT_WHY__COUNT), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_values_in_base_units, msetup,
	                                    mteardown),
	    cmocka_unit_test_setup_teardown(
	        test_unknown_is_left_out_with_reason, msetup, mteardown),
	    cmocka_unit_test_setup_teardown(test_huge_values, msetup,
	                                    mteardown),
	    cmocka_unit_test_setup_teardown(test_lost_device, msetup,
	                                    mteardown),
	    cmocka_unit_test_setup_teardown(test_throttle_reasons, msetup,
	                                    mteardown),
	    cmocka_unit_test_setup_teardown(test_families_well_formed, msetup,
	                                    mteardown),
	    cmocka_unit_test_setup_teardown(test_openmetrics, msetup,
	                                    mteardown),
	    cmocka_unit_test_setup_teardown(test_label_escaping, msetup,
	                                    mteardown),
	    cmocka_unit_test_setup_teardown(test_stale_and_up, msetup,
	                                    mteardown),
	    cmocka_unit_test_setup_teardown(test_before_first_round, msetup,
	                                    mteardown),
	    cmocka_unit_test_setup_teardown(test_exporter_series, msetup,
	                                    mteardown),
	    cmocka_unit_test_setup_teardown(test_top_processes, msetup,
	                                    mteardown),
	    cmocka_unit_test_setup_teardown(test_rollups, msetup, mteardown),
	    cmocka_unit_test_setup_teardown(test_rollup_limit, msetup,
	                                    mteardown),
	    cmocka_unit_test(test_reason_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * bench_metrics.c - the exporter's cost (`make bench`, part "metrics"):
 * CPU and bytes of one /metrics rendering of the 8x H100 scenario from a
 * collector's published data, in text format, OpenMetrics and with the
 * top 10 processes per GPU, and the gzip size a scrape would get; then the
 * same 8 GPUs with 500 processes, without and with every process's series.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "bench.h"
#include "collectors/registry.h"
#include "core/collector.h"
#include "core/view.h"
#include "export/metrics.h"

static double cpu_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Median CPU us of one rendering over 5 batches of n; its size in *len. */
static double render_us(const struct gt_view *v, bool om, unsigned top, int n,
                        size_t *len)
{
	double batch[5];
	for (int b = 0; b < 5; b++) {
		double t0 = cpu_now_ns();
		for (int i = 0; i < n; i++) {
			struct gt_metrics_input in;
			gt_metrics_from_view(&in, v, top);
			in.openmetrics = om;
			char *text = gt_metrics_render(&in, len);
			if (!text)
				exit(1);
			free(text);
		}
		batch[b] = (cpu_now_ns() - t0) / n / 1000.0;
	}
	for (int i = 1; i < 5; i++) /* insertion sort of five */
		for (int k = i; k > 0 && batch[k] < batch[k - 1]; k--) {
			double t = batch[k];
			batch[k] = batch[k - 1];
			batch[k - 1] = t;
		}
	return batch[2];
}

#define METRICS_500_CPU  "/metrics of 8 GPUs, 500 processes, CPU"
#define METRICS_500_SIZE "/metrics of 8 GPUs, 500 processes, size"

/* 8 GPUs and 500 processes: a scrape's CPU and size, per-process series
 * off (the roll-ups by user and container only) and on for all of them. */
static void metrics_500(const char *lib, const char *base_scn,
                        struct verdicts *vd)
{
	char tmpl[] = "/tmp/gputop-metrics-XXXXXX";
	fclose(bench_scenario(tmpl, base_scn, 500));
	setenv("GPUTOP_FAKE_NVML_SCENARIO", tmpl, 1);
	struct gt_collector_config cfg = {
	    .platform = &gt_registry_platform,
	    .backend = {.nvml_lib = lib, .sysfs_root = "/nonexistent"},
	    .interval_ns = 1000000000ull,
	    .proc_interval_ns = 1,
	};
	struct gt_collector *c = bench_collector_open(&cfg, 8);
	struct gt_view view;
	size_t off = 0, on = 0;
	if (!c || gt_view_open(&view, c) < 0) {
		fprintf(stderr, "bench: /metrics of 500 processes not run\n");
		judge_not_run(vd, METRICS_500_CPU);
		judge_not_run(vd, METRICS_500_SIZE);
		gt_collector_close(c);
		unlink(tmpl);
		return;
	}
	gt_collector_tick(c, GT_TICK_ALL);
	gt_collector_tick(c, GT_TICK_ALL);
	gt_view_refresh(&view);
	double off_us = render_us(&view, false, 0, 500, &off);
	double on_us = render_us(&view, false, GT_METRICS_TOP_MAX, 200, &on);
	printf("  %zu GPUs, %zu processes:\n"
	       "  per-process off     %7.1f us CPU  %7zu bytes  (targets < "
	       "1000 us, < 65536 bytes)\n"
	       "  per-process all     %7.1f us CPU  %7zu bytes  "
	       "(--metrics-processes 1000)\n",
	       view.devs ? view.devs->count : 0,
	       view.procs ? view.procs->count : 0, off_us, off, on_us, on);
	judge(vd, METRICS_500_CPU, off_us, 1000, "us");
	judge(vd, METRICS_500_SIZE, (double)off, 65536, "B");
	gt_view_close(&view);
	gt_collector_close(c);
	unlink(tmpl);
}

void bench_metrics(const char *lib, const char *base_scn, struct verdicts *vd)
{
	struct gt_collector_config cfg = {
	    .platform = &gt_registry_platform,
	    .backend = {.nvml_lib = lib, .sysfs_root = "/nonexistent"},
	    .interval_ns = 1000000000ull,
	};
	struct gt_view view;
	size_t len = 0, omlen = 0, toplen = 0;

	setenv("GPUTOP_FAKE_NVML_SCENARIO", base_scn, 1);
	struct gt_collector *c = gt_collector_open(&cfg);
	if (!c || gt_collector_device_count(c) == 0) {
		fprintf(stderr, "bench: no devices from %s\n", lib);
		exit(1);
	}
	gt_collector_tick(c, GT_TICK_ALL);
	gt_collector_tick(c, GT_TICK_ALL); /* rates need two rounds */
	if (gt_view_open(&view, c) < 0)
		exit(1);
	double text_us = render_us(&view, false, 0, 2000, &len);
	double om_us = render_us(&view, true, 0, 2000, &omlen);
	double top_us = render_us(&view, false, 10, 2000, &toplen);

	struct gt_metrics_input in;
	gt_metrics_from_view(&in, &view, 0);
	char *text = gt_metrics_render(&in, &len);
	uLongf zlen = compressBound((uLong)len);
	Bytef *z = malloc(zlen);
	if (!text || !z ||
	    compress2(z, &zlen, (const Bytef *)text, (uLong)len, 6) != Z_OK)
		exit(1);
	free(z);
	free(text);
	printf(
	    "metrics (/metrics of %zu GPUs, from published data, median of "
	    "5x2000):\n"
	    "  text 0.0.4          %7.1f us CPU  %7zu bytes (deflated: %lu)\n"
	    "  OpenMetrics         %7.1f us CPU  %7zu bytes\n"
	    "  + top 10 processes  %7.1f us CPU  %7zu bytes\n",
	    view.devs ? view.devs->count : 0, text_us, len, (unsigned long)zlen,
	    om_us, omlen, top_us, toplen);
	judge(vd, "/metrics of 8 GPUs, CPU per rendering", text_us, 500, "us");
	gt_view_close(&view);
	gt_collector_close(c);
	metrics_500(lib, base_scn, vd);
	setenv("GPUTOP_FAKE_NVML_SCENARIO", base_scn, 1);
}

/* SPDX-License-Identifier: MIT */
/*
 * metrics.h - the Prometheus exposition of published data: text format
 * 0.0.4 or OpenMetrics 1.0, built from plain inputs (device facts, latest
 * samples, the process list, the collector's round times) so the HTTP
 * server, --textfile and the unit tests share one renderer. It never calls
 * a backend: a scrape costs what formatting costs.
 *
 * Names follow Prometheus practice: prefix gputop_, base units (bytes,
 * watts, joules, hertz, celsius, ratio 0-1, seconds); every GPU series has
 * the labels gpu, uuid and vendor, the rest is on gputop_gpu_info. A value
 * the device cannot give is left out and gputop_metric_unavailable says
 * why. The list is in gputop(1).
 */
#ifndef GPUTOP_METRICS_H
#define GPUTOP_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/backend.h"
#include "core/collector.h"
#include "core/model.h"

#define GT_METRICS_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"
#define GT_METRICS_OM_CONTENT_TYPE                                             \
	"application/openmetrics-text; version=1.0.0; charset=utf-8"
/* Per-process series (opt-in): at most this many per GPU. */
#define GT_METRICS_TOP_MAX 1000
/* gputop_user_gpu_memory_bytes and gputop_container_gpu_memory_bytes (always
 * on): per GPU, the sum of its processes' GPU memory (each pid once, known
 * values only) by user and by container; the ROLLUP_TOP largest groups, the
 * rest summed into one group named OTHER. A process whose user or container
 * cannot be read (not in our /proc) counts under UNKNOWN; processes outside
 * any container have no container series. Neither name can be a user or
 * container name. */
#define GT_METRICS_ROLLUP_TOP 10
#define GT_METRICS_OTHER      "(other)"
#define GT_METRICS_UNKNOWN    "(unknown)"

/* The HTTP server's own counters, rendered as gputop_scrapes_total and
 * gputop_http_requests_total{code}. */
struct gt_metrics_http {
	uint64_t scrapes;
	size_t ncodes;
	const unsigned *codes;
	const uint64_t *counts;
};

struct gt_metrics_input {
	const struct gt_devlist *devices; /* NULL: none published yet */
	const struct gt_sample *samples;  /* devices->count entries */
	const struct gt_proclist *procs;  /* NULL: no process round yet */
	const struct gt_backend *backends;
	size_t nbackends;
	uint64_t now_mono_ns;     /* when rendered (CLOCK_MONOTONIC) */
	struct timespec now_real; /* the same instant, CLOCK_REALTIME */
	uint64_t interval_ns;     /* the sampling interval in force */
	bool have_round;          /* a round has finished */
	uint64_t round_end_ns;    /* monotonic end of the last round */
	uint64_t round_took_ns;   /* its duration */
	uint64_t rounds;          /* rounds finished */
	unsigned process_top;     /* per-process series per GPU; 0 = none */
	bool openmetrics;         /* OpenMetrics 1.0 instead of 0.0.4 */
	const struct gt_metrics_http *http; /* NULL: not served over HTTP */
	/* The dashboard beside the exporter (--listen): whole frames drawn
	 * and the CPU time drawing them took; frames 0: no dashboard. */
	uint64_t frames, frame_cpu_ns;
};

struct gt_view;

/* Fills in from what view v holds now and from its collector's round
 * times, rendered now; the caller sets openmetrics and http. */
void gt_metrics_from_view(struct gt_metrics_input *in, const struct gt_view *v,
                          unsigned process_top);

/* The exposition as a malloc'd string (its length in *len when len is not
 * NULL), or NULL on ENOMEM. The caller frees it. */
char *gt_metrics_render(const struct gt_metrics_input *in, size_t *len);

/* A label value escaped per the format (\ -> \\, " -> \", newline -> \n)
 * after invalid UTF-8 is repaired; malloc'd, NULL on ENOMEM. */
char *gt_metrics_label_escape(const char *s);

/* The short reason label of a missing value ("unsupported_device"). */
const char *gt_metrics_reason_name(enum gt_why why);

/* True when a sample taken at sample_ns is too old to stand for "now"
 * (no new one for three intervals, at least 2 s), or was never taken. */
bool gt_metrics_sample_stale(uint64_t sample_ns, uint64_t now_ns,
                             uint64_t interval_ns);

#endif

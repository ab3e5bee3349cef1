/* SPDX-License-Identifier: MIT */
/*
 * metrics_self.c - the exporter's own series (build, up, round times,
 * backends, HTTP counters), the per-user and per-container roll-ups of GPU
 * memory, and the opt-in per-process series, limited to the top N
 * processes of each GPU by GPU memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/view.h"
#include "export/metrics_priv.h"

static void one(struct gt_mbuf *out, struct gt_mbuf *body, bool om,
                const char *name, const char *type, const char *help, int64_t v,
                int64_t mul, int64_t div)
{
	body->len = 0;
	gt_mbuf_printf(body, "%s ", name);
	gt_mbuf_scaled(body, v, mul, div);
	gt_mbuf_puts(body, "\n");
	gt_metrics_family(out, body, om, name, type, help);
}

static void backends(struct gt_mbuf *out, struct gt_mbuf *body,
                     const struct gt_metrics_input *in)
{
	bool om = in->openmetrics;
	body->len = 0;
	for (size_t i = 0; i < in->nbackends; i++) {
		const struct gt_backend *b = &in->backends[i];
		gt_mbuf_puts(body, "gputop_backend_info{");
		gt_mbuf_label(body, "backend", b->ops->name);
		gt_mbuf_puts(body, ",");
		gt_mbuf_label(body, "status",
		              gt_backend_status_name(b->status));
		gt_mbuf_puts(body, "} 1\n");
	}
	gt_metrics_family(out, body, om, "gputop_backend_info", "gauge",
	                  "Each backend gputop probed and its status; the "
	                  "value is always 1.");
	body->len = 0;
	for (size_t i = 0; i < in->nbackends; i++) {
		const struct gt_backend *b = &in->backends[i];
		gt_mbuf_puts(body, "gputop_backend_devices{");
		gt_mbuf_label(body, "backend", b->ops->name);
		gt_mbuf_printf(body, "} %u\n", b->device_count);
	}
	gt_metrics_family(out, body, om, "gputop_backend_devices", "gauge",
	                  "Devices each backend found.");
}

static void http(struct gt_mbuf *out, struct gt_mbuf *body, bool om,
                 const struct gt_metrics_http *h)
{
	one(out, body, om, "gputop_scrapes_total", "counter",
	    "Renderings of /metrics served, this one included.",
	    (int64_t)h->scrapes, 1, 1);
	body->len = 0;
	for (size_t i = 0; i < h->ncodes; i++)
		if (h->counts[i])
			gt_mbuf_printf(
			    body,
			    "gputop_http_requests_total{code=\"%u\"} "
			    "%llu\n",
			    h->codes[i], (unsigned long long)h->counts[i]);
	gt_metrics_family(out, body, om, "gputop_http_requests_total",
	                  "counter", "HTTP requests answered, by status code.");
}

void gt_metrics_exporter(struct gt_mbuf *out, struct gt_mbuf *body,
                         const struct gt_metrics_input *in)
{
	bool om = in->openmetrics;
	bool fresh = in->have_round &&
	             !gt_metrics_sample_stale(in->round_end_ns, in->now_mono_ns,
	                                      in->interval_ns);

	body->len = 0;
	gt_mbuf_printf(body, "gputop_build_info{version=\"%s\"} 1\n",
	               GPUTOP_VERSION);
	gt_metrics_family(out, body, om, "gputop_build_info", "gauge",
	                  "The gputop build; the value is always 1.");
	one(out, body, om, "gputop_up", "gauge",
	    "1 while the collector finishes rounds on time, 0 before the first "
	    "or when the last is older than three intervals.",
	    fresh, 1, 1);
	if (in->have_round) {
		/* The round's end on the wall clock: now minus its age, in
		 * ms and unsigned (a clock before 1970 or an age past now
		 * gives 0, never an overflow). */
		uint64_t age_ms =
		    in->now_mono_ns > in->round_end_ns
		        ? (in->now_mono_ns - in->round_end_ns) / 1000000
		        : 0;
		uint64_t now_ms =
		    in->now_real.tv_sec < 0
		        ? 0
		        : (uint64_t)in->now_real.tv_sec * 1000 +
		              (uint64_t)in->now_real.tv_nsec / 1000000;
		uint64_t end_ms = now_ms > age_ms ? now_ms - age_ms : 0;
		one(out, body, om, "gputop_last_sample_timestamp_seconds",
		    "gauge", "When the newest round of samples was finished.",
		    (int64_t)(end_ms & INT64_MAX), 1, 1000);
		one(out, body, om, "gputop_collect_duration_seconds", "gauge",
		    "How long the newest round of samples took.",
		    (int64_t)(in->round_took_ns / 1000), 1, 1000000);
	}
	one(out, body, om, "gputop_collector_rounds_total", "counter",
	    "Rounds of samples finished.", (int64_t)in->rounds, 1, 1);
	if (in->frames) {
		one(out, body, om, "gputop_dashboard_frames_total", "counter",
		    "Whole frames the dashboard beside this endpoint drew "
		    "(--listen).",
		    (int64_t)(in->frames & INT64_MAX), 1, 1);
		one(out, body, om, "gputop_dashboard_draw_cpu_seconds_total",
		    "counter",
		    "CPU time the dashboard spent drawing those frames; per "
		    "frame: its rate over that of "
		    "gputop_dashboard_frames_total.",
		    (int64_t)(in->frame_cpu_ns / 1000), 1, 1000000);
	}
	one(out, body, om, "gputop_sample_interval_seconds", "gauge",
	    "The sampling interval.", (int64_t)(in->interval_ns / 1000000), 1,
	    1000);
	one(out, body, om, "gputop_devices", "gauge", "GPUs gputop watches.",
	    in->devices ? (int64_t)in->devices->count : 0, 1, 1);
	if (in->procs)
		one(out, body, om, "gputop_processes_unreadable", "gauge",
		    "GPU processes whose use could not be read (per-process "
		    "sums are lower bounds).",
		    (int64_t)in->procs->unreadable, 1, 1);
	backends(out, body, in);
	if (in->http)
		http(out, body, om, in->http);
}

void gt_metrics_from_view(struct gt_metrics_input *in, const struct gt_view *v,
                          unsigned process_top)
{
	const struct gt_collector *c = v->collector;
	uint64_t end_ns = 0, took_ns = 0;

	memset(in, 0, sizeof(*in));
	in->devices = v->devs;
	in->samples = v->latest;
	in->procs = v->procs;
	in->backends = gt_collector_backends(c, &in->nbackends);
	in->interval_ns = gt_collector_interval(c);
	in->rounds = gt_collector_rounds(c);
	gt_collector_frames(c, &in->frames, &in->frame_cpu_ns);
	in->process_top = process_top;
	in->have_round = gt_collector_last_round(c, &end_ns, &took_ns);
	in->round_end_ns = end_ns;
	in->round_took_ns = took_ns;
	in->now_mono_ns = gt_monotonic_ns();
	clock_gettime(CLOCK_REALTIME, &in->now_real);
}

/* ---- Per-process series ------------------------------------------- */

/* Most GPU memory first, unknown last; ties by pid. */
static int by_memory(const void *a, const void *b, void *ctx)
{
	const struct gt_process *items = ctx;
	const struct gt_process *p = &items[*(const size_t *)a];
	const struct gt_process *q = &items[*(const size_t *)b];
	bool pk = gt_val_ok(&p->f[GT_P_MEM]), qk = gt_val_ok(&q->f[GT_P_MEM]);
	if (pk != qk)
		return pk ? -1 : 1;
	if (pk && p->f[GT_P_MEM].v != q->f[GT_P_MEM].v)
		return p->f[GT_P_MEM].v > q->f[GT_P_MEM].v ? -1 : 1;
	return (p->pid > q->pid) - (p->pid < q->pid);
}

size_t gt_metrics_device_pids(const struct gt_proclist *pl, unsigned dev,
                              size_t *sel)
{
	size_t n = 0;
	for (size_t i = 0; i < pl->count; i++) {
		bool seen = false;
		if (pl->items[i].device_index != dev)
			continue;
		for (size_t k = 0; k < n && !seen; k++)
			seen = pl->items[sel[k]].pid == pl->items[i].pid;
		if (!seen)
			sel[n++] = i;
	}
	return n;
}

/* The top processes of device dev into sel (distinct pids); how many. */
static size_t top_of(const struct gt_proclist *pl, unsigned dev, unsigned top,
                     size_t *sel)
{
	size_t n = gt_metrics_device_pids(pl, dev, sel);
	/* qsort_r: the server thread and --textfile may render at once. */
	qsort_r(sel, n, sizeof(*sel), by_memory, (void *)pl->items);
	return n < top ? n : top;
}

static void process_family(struct gt_mbuf *out, struct gt_mbuf *body,
                           const struct gt_metrics_input *in,
                           char *const *labels, const size_t *sel,
                           const size_t *start, int field, const char *name,
                           const char *help)
{
	const struct gt_proclist *pl = in->procs;
	body->len = 0;
	for (size_t d = 0; d < in->devices->count; d++) {
		for (size_t k = start[d]; k < start[d + 1]; k++) {
			const struct gt_process *p = &pl->items[sel[k]];
			const struct gt_val *v = &p->f[field];
			if (!gt_val_ok(v))
				continue;
			gt_mbuf_printf(body, "%s{%s,pid=\"%d\",", name,
			               labels[d], p->pid);
			gt_mbuf_label(body, "comm",
			              p->host_known ? p->name : "");
			gt_mbuf_puts(body, "} ");
			gt_mbuf_scaled(body, v->v, 1,
			               field == GT_P_MEM ? 1 : 10000);
			gt_mbuf_puts(body, "\n");
		}
	}
	gt_metrics_family(out, body, in->openmetrics, name, "gauge", help);
}

void gt_metrics_processes(struct gt_mbuf *out, struct gt_mbuf *body,
                          const struct gt_metrics_input *in,
                          char *const *labels)
{
	const struct gt_proclist *pl = in->procs;
	size_t ndev = in->devices->count;
	size_t *sel = malloc((pl->count ? pl->count : 1) * sizeof(*sel));
	size_t *start = malloc((ndev + 1) * sizeof(*start));
	unsigned top = in->process_top > GT_METRICS_TOP_MAX ? GT_METRICS_TOP_MAX
	                                                    : in->process_top;

	if (!sel || !start) {
		out->oom = true;
		free(sel);
		free(start);
		return;
	}
	start[0] = 0;
	for (size_t d = 0; d < ndev; d++)
		start[d + 1] =
		    start[d] + top_of(pl, (unsigned)d, top, sel + start[d]);
	process_family(out, body, in, labels, sel, start, GT_P_MEM,
	               "gputop_process_gpu_memory_bytes",
	               "GPU memory of each of the top processes of a GPU.");
	process_family(out, body, in, labels, sel, start, GT_P_GPU,
	               "gputop_process_gpu_utilization_ratio",
	               "GPU utilization of each of the top processes of a GPU "
	               "(0-1).");
	free(sel);
	free(start);
}

/* ---- Per-user and per-container roll-ups -------------------------- */

struct group {
	const char *key;
	int64_t bytes;
};

/* Most memory first; ties by name, so the cut is stable. */
static int by_bytes(const void *a, const void *b)
{
	const struct group *g = a, *h = b;
	if (g->bytes != h->bytes)
		return g->bytes > h->bytes ? -1 : 1;
	return strcmp(g->key, h->key);
}

/* The group a process counts in; NULL: in none. */
static const char *user_key(const struct gt_process *p)
{
	return p->host_known && p->user[0] ? p->user : GT_METRICS_UNKNOWN;
}

static const char *container_key(const struct gt_process *p)
{
	if (!p->host_known)
		return GT_METRICS_UNKNOWN;
	return p->container[0] ? p->container : NULL; /* host: no series */
}

/* a + b for byte counts that are never negative, held at INT64_MAX: a
 * driver (or a hostile fake) can report sizes whose sum does not fit. */
static int64_t bytes_add(int64_t a, int64_t b)
{
	return a > INT64_MAX - b ? INT64_MAX : a + b;
}

/* The groups of device dev's processes (each pid once, known memory
 * only), sorted; how many. */
static size_t group_device(const struct gt_proclist *pl, unsigned dev,
                           const char *(*key_of)(const struct gt_process *),
                           size_t *sel, struct group *g)
{
	size_t n = gt_metrics_device_pids(pl, dev, sel), ng = 0;
	for (size_t i = 0; i < n; i++) {
		const struct gt_process *p = &pl->items[sel[i]];
		const char *key = key_of(p);
		size_t k = 0;
		if (!key || !gt_val_ok(&p->f[GT_P_MEM]) ||
		    p->f[GT_P_MEM].v < 0) /* not a size: left out */
			continue;
		while (k < ng && strcmp(g[k].key, key) != 0)
			k++;
		if (k == ng)
			g[ng++] = (struct group){key, 0};
		g[k].bytes = bytes_add(g[k].bytes, p->f[GT_P_MEM].v);
	}
	qsort(g, ng, sizeof(*g), by_bytes);
	return ng;
}

static void rollup_family(struct gt_mbuf *out, struct gt_mbuf *body,
                          const struct gt_metrics_input *in,
                          char *const *labels, size_t *sel, struct group *g,
                          const char *label,
                          const char *(*key_of)(const struct gt_process *))
{
	char name[64], help[256];
	snprintf(name, sizeof(name), "gputop_%s_gpu_memory_bytes", label);
	snprintf(help, sizeof(help),
	         "GPU memory of the processes of each %s on a GPU: the top %d "
	         "by memory, the rest summed as %s=\"%s\".",
	         label, GT_METRICS_ROLLUP_TOP, label, GT_METRICS_OTHER);
	body->len = 0;
	for (size_t d = 0; d < in->devices->count; d++) {
		size_t ng =
		    group_device(in->procs, (unsigned)d, key_of, sel, g);
		int64_t rest = 0;
		for (size_t k = 0; k < ng; k++) {
			if (k >= GT_METRICS_ROLLUP_TOP) {
				rest = bytes_add(rest, g[k].bytes);
				continue;
			}
			gt_mbuf_printf(body, "%s{%s,", name, labels[d]);
			gt_mbuf_label(body, label, g[k].key);
			gt_mbuf_printf(body, "} %lld\n", (long long)g[k].bytes);
		}
		if (ng > GT_METRICS_ROLLUP_TOP)
			gt_mbuf_printf(body, "%s{%s,%s=\"%s\"} %lld\n", name,
			               labels[d], label, GT_METRICS_OTHER,
			               (long long)rest);
	}
	gt_metrics_family(out, body, in->openmetrics, name, "gauge", help);
}

void gt_metrics_rollups(struct gt_mbuf *out, struct gt_mbuf *body,
                        const struct gt_metrics_input *in, char *const *labels,
                        size_t *sel)
{
	size_t n = in->procs->count;
	struct group *g = malloc((n ? n : 1) * sizeof(*g));
	if (!g) {
		out->oom = true;
		return;
	}
	rollup_family(out, body, in, labels, sel, g, "user", user_key);
	rollup_family(out, body, in, labels, sel, g, "container",
	              container_key);
	free(g);
}

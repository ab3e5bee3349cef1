/* SPDX-License-Identifier: MIT */
/*
 * metrics.c - renders the Prometheus exposition (metrics.h): the GPU
 * series from one table of fields, the exporter's own health series, the
 * opt-in per-process series and the reasons of every value left out.
 */
#include "export/metrics.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "export/metrics_priv.h"

/* ---- Output buffer -------------------------------------------------- */

void gt_mbuf_put(struct gt_mbuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (b->len + n + 1 > cap)
			cap *= 2;
		char *p = realloc(b->p, cap);
		if (!p) {
			b->oom = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void gt_mbuf_puts(struct gt_mbuf *b, const char *s)
{
	gt_mbuf_put(b, s, strlen(s));
}

void gt_mbuf_printf(struct gt_mbuf *b, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->oom = true;
		return;
	}
	/* Callers format numbers and names only: 512 bytes is plenty. */
	gt_mbuf_put(b, tmp,
	            (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

/* v * mul / div written exactly: no binary rounding ("0.97", never
 * "0.96999999999999997"). div is a power of ten. */
void gt_mbuf_scaled(struct gt_mbuf *b, int64_t v, int64_t mul, int64_t div)
{
	char tmp[64];
	uint64_t a = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	const char *sign = v < 0 ? "-" : "";

	if (mul > 1 && a > UINT64_MAX / (uint64_t)mul) {
		/* Past 2^64 after scaling: no real clock is, but the
		 * number is still written as what it is. */
		snprintf(tmp, sizeof(tmp), "%s%.17g", sign,
		         (double)a * (double)mul);
		gt_mbuf_puts(b, tmp);
		return;
	}
	a *= (uint64_t)mul;
	if (div <= 1) {
		snprintf(tmp, sizeof(tmp), "%s%llu", sign,
		         (unsigned long long)a);
	} else {
		uint64_t q = a / (uint64_t)div, r = a % (uint64_t)div;
		int digits = 0;
		for (int64_t d = div; d > 1; d /= 10)
			digits++;
		if (r == 0) {
			snprintf(tmp, sizeof(tmp), "%s%llu", sign,
			         (unsigned long long)q);
		} else {
			while (r % 10 == 0) {
				r /= 10;
				digits--;
			}
			snprintf(tmp, sizeof(tmp), "%s%llu.%0*llu", sign,
			         (unsigned long long)q, digits,
			         (unsigned long long)r);
		}
	}
	gt_mbuf_puts(b, tmp);
}

/* ---- Names and escaping ------------------------------------------- */

char *gt_metrics_label_escape(const char *s)
{
	char *clean = gt_text_utf8_sanitize(s ? s : "", s ? strlen(s) : 0);
	if (!clean)
		return NULL;
	size_t n = 0;
	for (const char *p = clean; *p; p++)
		n += (*p == '\\' || *p == '"' || *p == '\n') ? 2 : 1;
	char *out = malloc(n + 1), *o = out;
	if (out) {
		for (const char *p = clean; *p; p++) {
			if (*p == '\\' || *p == '"' || *p == '\n')
				*o++ = '\\';
			*o++ = *p == '\n' ? 'n' : *p;
		}
		*o = '\0';
	}
	free(clean);
	return out;
}

void gt_mbuf_label(struct gt_mbuf *b, const char *name, const char *value)
{
	char *esc = gt_metrics_label_escape(value);
	if (!esc) {
		b->oom = true;
		return;
	}
	gt_mbuf_printf(b, "%s=\"", name);
	gt_mbuf_puts(b, esc);
	gt_mbuf_puts(b, "\"");
	free(esc);
}

const char *gt_metrics_reason_name(enum gt_why why)
{
	static const char *const names[GT_WHY__COUNT] = {
	    [GT_WHY_OK] = "ok",
	    [GT_WHY_NOT_COLLECTED] = "not_collected",
	    [GT_WHY_UNSUPPORTED_DEVICE] = "unsupported_device",
	    [GT_WHY_UNSUPPORTED_DRIVER] = "unsupported_driver",
	    [GT_WHY_PERMISSION] = "permission",
	    [GT_WHY_DRIVER_ERROR] = "driver_error",
	    [GT_WHY_PENDING] = "pending",
	    [GT_WHY_LOST] = "lost",
	    [GT_WHY_MIG] = "mig",
	    [GT_WHY_NO_SENSOR] = "no_sensor",
	    [GT_WHY_ASLEEP] = "asleep",
	    [GT_WHY_MALFORMED] = "malformed",
	    [GT_WHY_RANGE] = "out_of_range",
	};
	return (unsigned)why < GT_WHY__COUNT && names[why] ? names[why]
	                                                   : "unknown";
}

bool gt_metrics_sample_stale(uint64_t sample_ns, uint64_t now_ns,
                             uint64_t interval_ns)
{
	uint64_t limit = 3 * interval_ns;
	if (limit < 2000000000ull)
		limit = 2000000000ull;
	return sample_ns == 0 ||
	       (now_ns > sample_ns && now_ns - sample_ns > limit);
}

/* A family: its header, then the samples gathered in body (nothing when
 * body is empty). In OpenMetrics a counter family is named without
 * _total; its samples keep it. */
void gt_metrics_family(struct gt_mbuf *out, const struct gt_mbuf *body, bool om,
                       const char *name, const char *type, const char *help)
{
	size_t n = strlen(name);
	if (body->len == 0)
		return;
	if (om && strcmp(type, "counter") == 0 && n > 6 &&
	    strcmp(name + n - 6, "_total") == 0)
		n -= 6;
	gt_mbuf_puts(out, "# HELP ");
	gt_mbuf_put(out, name, n);
	gt_mbuf_printf(out, " %s\n# TYPE ", help);
	gt_mbuf_put(out, name, n);
	gt_mbuf_printf(out, " %s\n", type);
	gt_mbuf_put(out, body->p, body->len);
}

/* ---- The GPU series ------------------------------------------------ */

enum src { SAMPLE, STATIC };

struct gpu_metric {
	const char *name;
	const char *type;
	const char *help;
	enum src src;
	int field;
	int64_t mul, div;
	const char *label, *value; /* one extra label, or NULL */
};

#define RATIO 1, 10000
#define MILLI 1, 1000
#define ONE   1, 1
#define MEGA  1000000, 1

/* Consecutive rows with one name are one family. */
static const struct gpu_metric gpu_metrics[] = {
    {"gputop_gpu_utilization_ratio", "gauge",
     "Share of the interval the GPU was busy (0-1).", SAMPLE, GT_F_UTIL_GPU,
     RATIO, NULL, NULL},
    {"gputop_gpu_memory_bandwidth_utilization_ratio", "gauge",
     "Share of the interval the memory controller was busy (0-1).", SAMPLE,
     GT_F_UTIL_MEMBW, RATIO, NULL, NULL},
    {"gputop_gpu_encoder_utilization_ratio", "gauge",
     "Video encoder utilization (0-1).", SAMPLE, GT_F_UTIL_ENC, RATIO, NULL,
     NULL},
    {"gputop_gpu_decoder_utilization_ratio", "gauge",
     "Video decoder utilization (0-1).", SAMPLE, GT_F_UTIL_DEC, RATIO, NULL,
     NULL},
    {"gputop_gpu_memory_total_bytes", "gauge", "Device memory in total.",
     SAMPLE, GT_F_MEM_TOTAL, ONE, NULL, NULL},
    {"gputop_gpu_memory_used_bytes", "gauge",
     "Device memory in use (reserved memory not included).", SAMPLE,
     GT_F_MEM_USED, ONE, NULL, NULL},
    {"gputop_gpu_memory_free_bytes", "gauge", "Device memory free.", SAMPLE,
     GT_F_MEM_FREE, ONE, NULL, NULL},
    {"gputop_gpu_memory_reserved_bytes", "gauge",
     "Device memory reserved by the driver.", SAMPLE, GT_F_MEM_RESERVED, ONE,
     NULL, NULL},
    {"gputop_gpu_temperature_celsius", "gauge", "Temperature by sensor.",
     SAMPLE, GT_F_TEMP_GPU, MILLI, "sensor", "gpu"},
    {"gputop_gpu_temperature_celsius", "gauge", "Temperature by sensor.",
     SAMPLE, GT_F_TEMP_HOTSPOT, MILLI, "sensor", "hotspot"},
    {"gputop_gpu_temperature_celsius", "gauge", "Temperature by sensor.",
     SAMPLE, GT_F_TEMP_MEM, MILLI, "sensor", "memory"},
    {"gputop_gpu_temperature_slowdown_celsius", "gauge",
     "GPU sensor temperature at which clocks are cut.", STATIC,
     GT_S_TEMP_SLOWDOWN, MILLI, NULL, NULL},
    {"gputop_gpu_temperature_shutdown_celsius", "gauge",
     "GPU sensor temperature at which the device powers off.", STATIC,
     GT_S_TEMP_SHUTDOWN, MILLI, NULL, NULL},
    {"gputop_gpu_power_watts", "gauge", "Power draw.", SAMPLE, GT_F_POWER_DRAW,
     MILLI, NULL, NULL},
    {"gputop_gpu_power_limit_watts", "gauge",
     "Power limit requested through the driver.", SAMPLE, GT_F_POWER_LIMIT,
     MILLI, NULL, NULL},
    {"gputop_gpu_power_enforced_limit_watts", "gauge",
     "Power limit in force, out-of-band caps included.", SAMPLE,
     GT_F_POWER_ENFORCED, MILLI, NULL, NULL},
    {"gputop_gpu_power_limit_min_watts", "gauge",
     "Lowest power limit that can be set.", STATIC, GT_S_POWER_MIN, MILLI, NULL,
     NULL},
    {"gputop_gpu_power_limit_max_watts", "gauge",
     "Highest power limit that can be set.", STATIC, GT_S_POWER_MAX, MILLI,
     NULL, NULL},
    {"gputop_gpu_energy_joules_total", "counter",
     "Energy used since the driver was loaded.", SAMPLE, GT_F_ENERGY, MILLI,
     NULL, NULL},
    {"gputop_gpu_performance_state", "gauge",
     "Performance state, 0 = maximum performance.", SAMPLE, GT_F_PSTATE, ONE,
     NULL, NULL},
    {"gputop_gpu_clock_hertz", "gauge", "Clock frequency by domain.", SAMPLE,
     GT_F_CLK_GRAPHICS, MEGA, "domain", "graphics"},
    {"gputop_gpu_clock_hertz", "gauge", "Clock frequency by domain.", SAMPLE,
     GT_F_CLK_SM, MEGA, "domain", "sm"},
    {"gputop_gpu_clock_hertz", "gauge", "Clock frequency by domain.", SAMPLE,
     GT_F_CLK_MEM, MEGA, "domain", "memory"},
    {"gputop_gpu_clock_hertz", "gauge", "Clock frequency by domain.", SAMPLE,
     GT_F_CLK_VIDEO, MEGA, "domain", "video"},
    {"gputop_gpu_clock_max_hertz", "gauge",
     "Highest clock frequency by domain.", STATIC, GT_S_CLK_GRAPHICS_MAX, MEGA,
     "domain", "graphics"},
    {"gputop_gpu_clock_max_hertz", "gauge",
     "Highest clock frequency by domain.", STATIC, GT_S_CLK_SM_MAX, MEGA,
     "domain", "sm"},
    {"gputop_gpu_clock_max_hertz", "gauge",
     "Highest clock frequency by domain.", STATIC, GT_S_CLK_MEM_MAX, MEGA,
     "domain", "memory"},
    {"gputop_gpu_clock_max_hertz", "gauge",
     "Highest clock frequency by domain.", STATIC, GT_S_CLK_VIDEO_MAX, MEGA,
     "domain", "video"},
    {"gputop_gpu_pcie_link_generation", "gauge", "PCIe link generation in use.",
     SAMPLE, GT_F_PCIE_GEN, ONE, NULL, NULL},
    {"gputop_gpu_pcie_link_width", "gauge", "PCIe link width in lanes.", SAMPLE,
     GT_F_PCIE_WIDTH, ONE, NULL, NULL},
    {"gputop_gpu_pcie_transmit_bytes_per_second", "gauge",
     "PCIe traffic from the GPU.", SAMPLE, GT_F_PCIE_TX, ONE, NULL, NULL},
    {"gputop_gpu_pcie_receive_bytes_per_second", "gauge",
     "PCIe traffic to the GPU.", SAMPLE, GT_F_PCIE_RX, ONE, NULL, NULL},
    {"gputop_gpu_ecc_errors_total", "counter",
     "ECC errors by type, since boot (volatile) or in the device's life "
     "(aggregate).",
     SAMPLE, GT_F_ECC_CORRECTED_VOLATILE, ONE, "type", "corrected_volatile"},
    {"gputop_gpu_ecc_errors_total", "counter",
     "ECC errors by type, since boot (volatile) or in the device's life "
     "(aggregate).",
     SAMPLE, GT_F_ECC_UNCORRECTED_VOLATILE, ONE, "type",
     "uncorrected_volatile"},
    {"gputop_gpu_ecc_errors_total", "counter",
     "ECC errors by type, since boot (volatile) or in the device's life "
     "(aggregate).",
     SAMPLE, GT_F_ECC_CORRECTED_AGGREGATE, ONE, "type", "corrected_aggregate"},
    {"gputop_gpu_ecc_errors_total", "counter",
     "ECC errors by type, since boot (volatile) or in the device's life "
     "(aggregate).",
     SAMPLE, GT_F_ECC_UNCORRECTED_AGGREGATE, ONE, "type",
     "uncorrected_aggregate"},
};

static const struct gt_val *metric_val(const struct gpu_metric *m,
                                       const struct gt_static *st,
                                       const struct gt_sample *s)
{
	return m->src == STATIC ? &st->f[m->field] : &s->f[m->field];
}

/* One "unavailable" series: which metric (and its extra label) and why. */
void gt_metrics_note_missing(struct gt_mbuf *un, const char *dev_labels,
                             const char *metric, const char *label,
                             const char *value, enum gt_why why)
{
	gt_mbuf_printf(un, "gputop_metric_unavailable{%s,metric=\"%s\"",
	               dev_labels, metric);
	if (label)
		gt_mbuf_printf(un, ",%s=\"%s\"", label, value);
	gt_mbuf_printf(un, ",reason=\"%s\"} 1\n", gt_metrics_reason_name(why));
}

static void gpu_table(struct gt_mbuf *out, struct gt_mbuf *body,
                      struct gt_mbuf *un, const struct gt_metrics_input *in,
                      char *const *labels)
{
	size_t nrows = sizeof(gpu_metrics) / sizeof(gpu_metrics[0]);
	for (size_t r = 0; r < nrows;) {
		size_t end = r + 1;
		while (end < nrows &&
		       strcmp(gpu_metrics[end].name, gpu_metrics[r].name) == 0)
			end++;
		body->len = 0;
		for (size_t d = 0; d < in->devices->count; d++) {
			for (size_t k = r; k < end; k++) {
				const struct gpu_metric *m = &gpu_metrics[k];
				const struct gt_val *v = metric_val(
				    m, &in->devices->items[d], &in->samples[d]);
				if (!gt_val_ok(v)) {
					gt_metrics_note_missing(
					    un, labels[d], m->name, m->label,
					    m->value, (enum gt_why)v->why);
					continue;
				}
				gt_mbuf_printf(body, "%s{%s", m->name,
				               labels[d]);
				if (m->label)
					gt_mbuf_printf(body, ",%s=\"%s\"",
					               m->label, m->value);
				gt_mbuf_puts(body, "} ");
				gt_mbuf_scaled(body, v->v, m->mul, m->div);
				gt_mbuf_puts(body, "\n");
			}
		}
		gt_metrics_family(out, body, in->openmetrics,
		                  gpu_metrics[r].name, gpu_metrics[r].type,
		                  gpu_metrics[r].help);
		r = end;
	}
}

static void gpu_fans(struct gt_mbuf *out, struct gt_mbuf *body,
                     struct gt_mbuf *un, const struct gt_metrics_input *in,
                     char *const *labels)
{
	static const char name[] = "gputop_gpu_fan_speed_ratio";
	body->len = 0;
	for (size_t d = 0; d < in->devices->count; d++) {
		const struct gt_val *count =
		    &in->devices->items[d].f[GT_S_FAN_COUNT];
		const struct gt_sample *s = &in->samples[d];
		if (!gt_val_ok(count)) {
			gt_metrics_note_missing(un, labels[d], name, NULL, NULL,
			                        (enum gt_why)count->why);
			continue;
		}
		for (unsigned i = 0; i < s->fan_count && i < GT_MAX_FANS; i++) {
			const struct gt_val *v = &s->f[GT_F_FAN_PERCENT0 + i];
			char fan[12];
			snprintf(fan, sizeof(fan), "%u", i);
			if (!gt_val_ok(v)) {
				gt_metrics_note_missing(un, labels[d], name,
				                        "fan", fan,
				                        (enum gt_why)v->why);
				continue;
			}
			gt_mbuf_printf(body, "%s{%s,fan=\"%s\"} ", name,
			               labels[d], fan);
			gt_mbuf_scaled(body, v->v, RATIO);
			gt_mbuf_puts(body, "\n");
		}
	}
	gt_metrics_family(
	    out, body, in->openmetrics, name, "gauge",
	    "Fan speed as a share of its maximum (may exceed 1).");
}

static void gpu_throttle(struct gt_mbuf *out, struct gt_mbuf *body,
                         struct gt_mbuf *un, const struct gt_metrics_input *in,
                         char *const *labels)
{
	static const char name[] = "gputop_gpu_throttle_active";
	body->len = 0;
	for (size_t d = 0; d < in->devices->count; d++) {
		const struct gt_val *v = &in->samples[d].f[GT_F_THROTTLE];
		if (!gt_val_ok(v)) {
			gt_metrics_note_missing(un, labels[d], name, NULL, NULL,
			                        (enum gt_why)v->why);
			continue;
		}
		for (unsigned bit = 1; bit != 0 && bit <= GT_THR_OTHER;
		     bit <<= 1) {
			const char *reason = gt_throttle_name(bit);
			if (reason)
				gt_mbuf_printf(body,
				               "%s{%s,reason=\"%s\"} %d\n",
				               name, labels[d], reason,
				               ((uint64_t)v->v & bit) ? 1 : 0);
		}
	}
	gt_metrics_family(out, body, in->openmetrics, name, "gauge",
	                  "1 while the clocks are held back for this reason.");
}

/* sel: scratch of in->procs->count entries (unused without procs). */
static void gpu_state(struct gt_mbuf *out, struct gt_mbuf *body,
                      const struct gt_metrics_input *in, char *const *labels,
                      size_t *sel)
{
	const struct gt_devlist *devs = in->devices;
	body->len = 0;
	for (size_t d = 0; d < devs->count; d++) {
		const struct gt_static *st = &devs->items[d];
		gt_mbuf_printf(body, "gputop_gpu_info{%s,", labels[d]);
		gt_mbuf_label(body, "name", st->name);
		gt_mbuf_puts(body, ",");
		gt_mbuf_label(body, "pci_bus_id", st->pci_bus_id);
		gt_mbuf_puts(body, ",");
		gt_mbuf_label(body, "driver", st->driver);
		gt_mbuf_puts(body, ",");
		gt_mbuf_label(body, "driver_version", st->driver_version);
		gt_mbuf_puts(body, ",");
		gt_mbuf_label(body, "vbios", st->vbios);
		gt_mbuf_puts(body, ",");
		gt_mbuf_label(body, "architecture", st->architecture);
		gt_mbuf_printf(body, ",demo=\"%s\"} 1\n",
		               st->demo ? "true" : "false");
	}
	gt_metrics_family(out, body, in->openmetrics, "gputop_gpu_info",
	                  "gauge",
	                  "Facts about each GPU; the value is always 1.");
	body->len = 0;
	for (size_t d = 0; d < devs->count; d++)
		gt_mbuf_printf(
		    body, "gputop_gpu_stale{%s} %d\n", labels[d],
		    gt_metrics_sample_stale(in->samples[d].monotonic_ns,
		                            in->now_mono_ns, in->interval_ns)
		        ? 1
		        : 0);
	gt_metrics_family(out, body, in->openmetrics, "gputop_gpu_stale",
	                  "gauge",
	                  "1 when this GPU's newest sample is older than three "
	                  "intervals (or there is none): its values are old.");
	body->len = 0;
	for (size_t d = 0; d < devs->count; d++)
		gt_mbuf_printf(body, "gputop_gpu_lost{%s} %d\n", labels[d],
		               in->samples[d].state == GT_DEV_LOST ? 1 : 0);
	gt_metrics_family(out, body, in->openmetrics, "gputop_gpu_lost",
	                  "gauge",
	                  "1 when the GPU fell off the bus or failed mid-run.");
	body->len = 0;
	for (size_t d = 0; in->procs && d < devs->count; d++)
		gt_mbuf_printf(
		    body, "gputop_gpu_processes{%s} %zu\n", labels[d],
		    gt_metrics_device_pids(in->procs, (unsigned)d, sel));
	gt_metrics_family(out, body, in->openmetrics, "gputop_gpu_processes",
	                  "gauge", "Processes using the GPU.");
}

/* "gpu=..,uuid=..,vendor=.." of each device; NULL on ENOMEM. */
static char **device_labels(const struct gt_devlist *devs)
{
	char **labels = calloc(devs->count ? devs->count : 1, sizeof(*labels));
	for (size_t d = 0; labels && d < devs->count; d++) {
		struct gt_mbuf b = {0};
		const struct gt_static *st = &devs->items[d];
		gt_mbuf_printf(&b, "gpu=\"%u\",", st->index);
		gt_mbuf_label(&b, "uuid", st->uuid);
		gt_mbuf_printf(&b, ",vendor=\"%s\"",
		               gt_vendor_name(st->vendor));
		if (b.oom || !b.p) {
			free(b.p);
			for (size_t k = 0; k < d; k++)
				free(labels[k]);
			free(labels);
			return NULL;
		}
		labels[d] = b.p;
	}
	return labels;
}

char *gt_metrics_render(const struct gt_metrics_input *in, size_t *len)
{
	struct gt_mbuf out = {0}, body = {0}, un = {0};
	size_t ndev = in->devices ? in->devices->count : 0;
	size_t nproc = in->procs ? in->procs->count : 0;
	char **labels = NULL;
	size_t *sel = NULL;

	gt_metrics_exporter(&out, &body, in);
	if (ndev) {
		labels = device_labels(in->devices);
		sel = malloc((nproc ? nproc : 1) * sizeof(*sel));
		if (!labels || !sel)
			out.oom = true;
	}
	if (labels && sel) {
		gpu_state(&out, &body, in, labels, sel);
		gpu_table(&out, &body, &un, in, labels);
		gpu_fans(&out, &body, &un, in, labels);
		gpu_throttle(&out, &body, &un, in, labels);
		if (in->procs)
			gt_metrics_rollups(&out, &body, in, labels, sel);
		if (in->process_top && in->procs)
			gt_metrics_processes(&out, &body, in, labels);
		gt_metrics_family(
		    &out, &un, in->openmetrics, "gputop_metric_unavailable",
		    "gauge",
		    "A GPU value left out of this exposition, and "
		    "why; the value is always 1.");
	}
	for (size_t d = 0; labels && d < ndev; d++)
		free(labels[d]);
	free(labels);
	free(sel);
	if (in->openmetrics)
		gt_mbuf_puts(&out, "# EOF\n");
	bool oom = out.oom || body.oom || un.oom;
	free(body.p);
	free(un.p);
	if (oom || !out.p) {
		free(out.p);
		return NULL;
	}
	if (len)
		*len = out.len;
	return out.p;
}

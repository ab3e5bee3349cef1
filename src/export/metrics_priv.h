/* SPDX-License-Identifier: MIT */
/*
 * metrics_priv.h - what metrics.c shares with metrics_self.c: the growing
 * output buffer, the family writer and the "unavailable" series.
 */
#ifndef GPUTOP_METRICS_PRIV_H
#define GPUTOP_METRICS_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "export/metrics.h"

/* A growing string; oom is sticky and every writer becomes a no-op. */
struct gt_mbuf {
	char *p;
	size_t len, cap;
	bool oom;
};

void gt_mbuf_put(struct gt_mbuf *b, const char *s, size_t n);
void gt_mbuf_puts(struct gt_mbuf *b, const char *s);
void gt_mbuf_printf(struct gt_mbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* v * mul / div, exactly (div a power of ten). */
void gt_mbuf_scaled(struct gt_mbuf *b, int64_t v, int64_t mul, int64_t div);
/* name="escaped value" */
void gt_mbuf_label(struct gt_mbuf *b, const char *name, const char *value);

void gt_metrics_family(struct gt_mbuf *out, const struct gt_mbuf *body, bool om,
                       const char *name, const char *type, const char *help);
void gt_metrics_note_missing(struct gt_mbuf *un, const char *dev_labels,
                             const char *metric, const char *label,
                             const char *value, enum gt_why why);

/* metrics_self.c: the exporter's own series (build, up, round times,
 * backends, HTTP counters) and the opt-in per-process series. */
void gt_metrics_exporter(struct gt_mbuf *out, struct gt_mbuf *body,
                         const struct gt_metrics_input *in);
/* The per-user and per-container GPU memory of each GPU (metrics.h).
 * sel: scratch of in->procs->count entries. */
void gt_metrics_rollups(struct gt_mbuf *out, struct gt_mbuf *body,
                        const struct gt_metrics_input *in, char *const *labels,
                        size_t *sel);
/* The processes of device dev into sel, each pid once (its first entry:
 * a process both compute and graphics is listed twice); how many. */
size_t gt_metrics_device_pids(const struct gt_proclist *pl, unsigned dev,
                              size_t *sel);
void gt_metrics_processes(struct gt_mbuf *out, struct gt_mbuf *body,
                          const struct gt_metrics_input *in,
                          char *const *labels);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * statusline - owns the text of the status line's two ends: the key hints
 * at its left and gputop's own figures at its right (interval, clock,
 * gputop's CPU and memory). Each shortens by dropping whole items, never
 * by cutting one ("e why N/"); the dashboard places them.
 */
#ifndef GPUTOP_STATUSLINE_H
#define GPUTOP_STATUSLINE_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* The key hints in at most `room` cells: the least needed go first (the
 * snapshot, the filter, setup, why N/A, help); "q quit" is the last to go.
 * Returns the cells of buf (0: none fit, buf is ""). */
int gt_statusline_keys(int room, char *buf, size_t len);

/* What the right end shows. */
struct gt_statusline_stats {
	uint64_t interval_ns;
	time_t now;          /* the clock */
	double self_cpu_pct; /* < 0: not measured yet (not shown) */
	uint64_t self_rss;   /* bytes */
};

/* " 1.0s | 12:34:56 | gputop 0.3% CPU 12.1 MiB " in at most `room`
 * cells: when it does not fit the clock goes first, then gputop's own use,
 * then the interval, so a narrow terminal keeps what the left part says (a
 * notice, which GPUs are shown). Memory in binary units (MiB), as the
 * process table. Returns the cells of buf. */
int gt_statusline_stats(const struct gt_statusline_stats *s, int room,
                        char *buf, size_t len);

/* The layout's message ("GPUs 0-3 of 8; 130x8 shows all") in at most
 * `room` cells: whole, else without its last "; " clauses, else "" (never
 * cut inside a clause: "GPUs 0-1 of 8; 20x1"). Returns the cells of buf. */
int gt_statusline_message(const char *msg, int room, char *buf, size_t len);

#endif

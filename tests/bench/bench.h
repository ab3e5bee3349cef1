/* SPDX-License-Identifier: MIT */
/*
 * bench.h - what the parts of `make bench` share: the targets judged as the
 * measurements come in (bench.c prints them at the end), and the
 * whole-process benchmarks of bench_proc.c (gputop run as a user runs it).
 */
#ifndef GPUTOP_BENCH_H
#define GPUTOP_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/collector.h"

enum { BENCH_MAX_VERDICTS = 24 };

struct verdicts {
	int n;
	struct {
		const char *what, *unit;
		double value, limit;
		bool at_most; /* met at value <= limit, else value < limit */
		bool not_run; /* the part could not measure it: missed */
	} v[BENCH_MAX_VERDICTS];
};

/* A target: met when value < limit. */
void judge(struct verdicts *vd, const char *what, double value, double limit,
           const char *unit);
/* A target: met when value <= limit ("at most"). */
void judge_at_most(struct verdicts *vd, const char *what, double value,
                   double limit, const char *unit);

/* A target its part could not measure: printed as not run and counted
 * as missed, so a bench that measured nothing never reads as a pass. */
void judge_not_run(struct verdicts *vd, const char *what);

/* The collector a part measures, on the fake NVML scenario it set in the
 * environment; NULL, after saying why on stderr, unless it opens with
 * exactly want GPUs (a scenario the fake rejected gives none, and a frame
 * of no GPU costs nothing: measuring it would judge an empty screen). */
struct gt_collector *bench_collector_open(const struct gt_collector_config *cfg,
                                          size_t want);

/* A fake NVML scenario in a new file (tmpl, a mkstemp template, becomes
 * its path): base_scn and nproc compute processes of 512 MiB spread over
 * 8 GPUs, pids 300000 up (absent from /proc). Open for the caller to add
 * lines and close; the bench exits when it cannot be written. */
FILE *bench_scenario(char *tmpl, const char *base_scn, int nproc);

/* A thread keeping n GETs of /metrics in flight against addr
 * ("127.0.0.1:PORT"), round after round, from 13 loopback addresses
 * (bench_scrape.c); NULL when it could not start. Stopping it gives the
 * answers that were a whole 200, the others, and the rounds. */
struct bench_scrapes;
struct bench_scrapes *bench_scrapes_start(const char *addr, int n);
void bench_scrapes_stop(struct bench_scrapes *s, long *ok, long *failed,
                        long *rounds);

/* The dashboard's frames: 8 GPUs and 500 processes at 200x60 on a
 * pseudo-terminal, CPU and bytes of a steady-state frame and of a wake-up
 * for the clock, then the frame's CPU and wall time while 200 scrapes at
 * a time run against --listen's server on the same collector
 * (bench_render.c). */
void bench_render(const char *lib, const char *base_scn, struct verdicts *vd);

/* The exporter: CPU and bytes of one /metrics rendering of 8 GPUs, with
 * and without 500 processes and their per-process series
 * (bench_metrics.c). */
void bench_metrics(const char *lib, const char *base_scn, struct verdicts *vd);

/* What the whole-process benchmarks run: the gputop binary, the fake NVML
 * and the scenario they load; a baseline binary (an older gputop) to
 * measure beside it, or NULL. */
struct bench_proc_cfg {
	const char *gputop;
	const char *baseline;
	const char *fake_lib;
	const char *scenario;
};

/* Startup to the first frame, 8 GPUs at 200x60 on a pseudo-terminal. */
void bench_proc_startup(const struct bench_proc_cfg *cfg, struct verdicts *vd);
/* Wake-ups of the whole process (every thread's voluntary context
 * switches) over 10 s at a 1 s interval with no input. */
void bench_proc_wakeups(const struct bench_proc_cfg *cfg, struct verdicts *vd);
/* `gputop serve` idle at a 1 s interval on 8 GPUs: the whole process's
 * CPU (every thread's schedstat) over 25 s, as a share of one core. */
void bench_proc_serve(const struct bench_proc_cfg *cfg, struct verdicts *vd);
/* CPU of the whole process against nvtop's, both in tmux at 200x60 on the
 * same fake NVML scenario, 30 s at each of 0.1 s and 1 s; says so and
 * judges nothing when nvtop (or tmux) is not on PATH. */
void bench_proc_nvtop(const struct bench_proc_cfg *cfg, struct verdicts *vd);

/* The per-process history: CPU per process and round for 500 processes,
 * and the store's bound (bench_prochist.c). */
void bench_prochist(struct verdicts *vd);

#endif

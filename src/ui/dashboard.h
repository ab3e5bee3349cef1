/* SPDX-License-Identifier: MIT */
/*
 * dashboard.h - the interactive ncurses dashboard. It reads only what the
 * collector publishes (sample rings, device facts, process lists) through a
 * gt_view, so a slow or hung driver can never freeze the screen.
 */
#ifndef GPUTOP_DASHBOARD_H
#define GPUTOP_DASHBOARD_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/collector.h"
#include "control/control_session.h"

struct gt_dashboard_opts {
	const char *theme;       /* theme name or path; NULL = built-in */
	const char *themes_dir;  /* --themes-dir, searched first */
	const char *procfs_root; /* for the host facts of saved snapshots */
	uint64_t interval_ns;
	bool interval_given; /* --interval was given: wins over the file */
	/* The control session behind the power (p) and fan (f) dialogs, or
	 * NULL with ctl_why saying why there is none. Borrowed. */
	struct gt_control_session *ctl;
	const char *ctl_why;
};

/* Runs until the user quits or *stop becomes non-zero; the terminal is
 * restored on return and on fatal signals. The collector thread must be
 * running. Returns 0, or -1 if the terminal could not be set up (message
 * on stderr). */
int gt_dashboard_run(struct gt_collector *c, const struct gt_dashboard_opts *o,
                     volatile sig_atomic_t *stop);

/* `make bench`: frames drawn into a pseudo-terminal of cols x rows, one
 * collector round before each, as in steady state at one frame per
 * interval. */
struct gt_dashboard_bench_result {
	int frames;
	size_t processes;
	double cpu_ns_per_frame; /* drawing, this thread's CPU */
	double bytes_per_frame;  /* written to the terminal */
};

int gt_dashboard_bench(struct gt_collector *c, int cols, int rows, int frames,
                       struct gt_dashboard_bench_result *out);

#endif

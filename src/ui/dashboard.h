/* SPDX-License-Identifier: MIT */
/*
 * dashboard.h - the interactive ncurses dashboard. It reads only what the
 * collector publishes (sample rings, device facts, process lists) through a
 * gt_view, so a slow or hung driver can never freeze the screen.
 *
 * gt_dashboard_run is the dashboard on the user's terminal. It is built
 * from the calls after it, which a caller with a curses screen of its own
 * uses to draw frames (`make bench` draws into a pseudo-terminal).
 *
 * The folder src/ui/ is the dashboard: this loop (dashboard*.c), the
 * layout engine, widgets that are functions of (window, rectangle, data),
 * themes and palettes, setup and the control dialogs. It reads published
 * data only and never calls a backend; only the front ends include it.
 */
#ifndef GPUTOP_DASHBOARD_H
#define GPUTOP_DASHBOARD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/display.h"
#include "control/control_session.h"
#include "core/collector.h"
#include "ui/theme.h"

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
	/* --listen beside the dashboard: each frame and its CPU are counted
	 * for the gputop_dashboard_* series (two reads of the thread's CPU
	 * clock a frame, system calls; without a reader they are skipped). */
	bool count_frames;
};

/* Runs until the user quits or *stop becomes non-zero; the terminal is
 * restored on return and on fatal signals. The collector thread must be
 * running. Returns 0, or -1 if the terminal could not be set up (message
 * on stderr). */
int gt_dashboard_run(struct gt_collector *c, const struct gt_dashboard_opts *o,
                     volatile sig_atomic_t *stop);

/* A dashboard: its settings (the settings file, then o), theme, GPU
 * histories and view of what c publishes. c and o are borrowed. */
struct gt_dashboard;

/* A dashboard with no terminal yet; NULL when out of memory. */
struct gt_dashboard *gt_dashboard_open(struct gt_collector *c,
                                       const struct gt_dashboard_opts *o);

/* The terminal a dashboard draws on, once curses has it (after initscr or
 * newterm and set_term). */
struct gt_dashboard_screen {
	enum gt_color_tier tier; /* its colours: gt_palette_tier() */
	enum gt_glyphs glyphs;   /* what the setting glyphs = auto means */
	/* Draw with glyphs whatever the settings say: a benchmark's frames
	 * are the same on every machine. */
	bool glyphs_fixed;
};

/* Before the first frame: the colour pairs and graph symbols of scr, and
 * a frame's output sent in one write (see dashboard.c). */
void gt_dashboard_attach(struct gt_dashboard *d,
                         const struct gt_dashboard_screen *scr);

/* Takes what the collector published since the last call (samples into
 * the histories, the device and process lists); true when anything
 * changed. */
bool gt_dashboard_pull(struct gt_dashboard *d);

/* Draws one frame into stdscr and sends it to the terminal (doupdate). */
void gt_dashboard_draw(struct gt_dashboard *d);

/* A frame of the status line alone (its clock, gputop's own figures),
 * sent to the terminal: what a wake-up for the clock's second draws while
 * nothing else on screen moves. A whole frame where the status line is
 * not a row of its own (a terminal too small). */
void gt_dashboard_draw_clock(struct gt_dashboard *d);

/* Processes in the process list last pulled. */
size_t gt_dashboard_process_count(const struct gt_dashboard *d);

/* Frees d (NULL is fine). The curses screen stays the caller's. */
void gt_dashboard_close(struct gt_dashboard *d);

#endif

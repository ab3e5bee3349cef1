/* SPDX-License-Identifier: MIT */
/*
 * main.c - entry point: parses the command line and runs one mode (the
 * dashboard, --snapshot, --list, headless.c's --apply and --restore, or
 * serve.c's serve, --textfile and --json).
 * Owns the collector's lifetime.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "collectors/registry.h"
#include "core/collector.h"
#include "export/list.h"
#include "export/snapshot.h"
#include "ui/dashboard.h"
#include "headless.h"
#include "serve.h"
#include "export/http.h"
#include "core/view.h"

/* Set from the signal handler to the stop signal's number: the one piece
 * of global mutable state, since a handler cannot be given a context
 * pointer. */
static volatile sig_atomic_t stop_requested;
/* Non-zero while nothing has been written or changed and the terminal is
 * untouched (startup, --snapshot and --list until their output, --apply
 * until its first write): a stop signal then ends gputop in the handler
 * itself, so that a driver call that never returns (on this thread or
 * the collector's) cannot keep it alive. */
static volatile sig_atomic_t exit_at_once = 1;
/* Stop signals so far (up to 100): another one while the restore on exit
 * waits for the driver ends the wait. */
static volatile sig_atomic_t stop_count;

static void on_stop_signal(int sig)
{
	static const char msg[] = "gputop: stopped by a signal before "
	                          "anything was written or changed\n";
	if (exit_at_once) {
		ssize_t w = write(STDERR_FILENO, msg, sizeof(msg) - 1);
		(void)w;
		_exit(128 + sig);
	}
	stop_requested = sig;
	if (stop_count < 100)
		stop_count = stop_count + 1;
}

/* gt_bounded_stop_fn: a stop signal came after the count in ctx. */
static bool stopped_again(void *ctx)
{
	return stop_count > *(const sig_atomic_t *)ctx;
}

static void install_signal_handlers(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	/* One handler at a time: the count is read, then written. */
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaddset(&sa.sa_mask, SIGHUP);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = {(time_t)(ns / 1000000000ull),
	                      (long)(ns % 1000000000ull)};
	while (nanosleep(&ts, &ts) != 0 && !stop_requested)
		;
}

static int run_snapshot(struct gt_collector *c, const struct gt_cli *cli)
{
	struct gt_view view;
	int rc = GT_EXIT_OK;

	/* Two rounds one interval apart: rates (PCIe, CPU %) need both. */
	uint64_t t0 = gt_monotonic_ns();
	gt_collector_tick(c, GT_TICK_ALL);
	sleep_ns(cli->interval_ns);
	gt_collector_tick(c, GT_TICK_ALL);
	uint64_t t1 = gt_monotonic_ns();

	if (gt_view_open(&view, c) < 0) {
		fprintf(stderr, "gputop: out of memory\n");
		return GT_EXIT_FAILURE;
	}
	char *json = gt_snapshot_from_view(&view, cli->procfs_root, t1 - t0);
	exit_at_once = 0; /* the output is written whole */
	if (!json) {
		fprintf(stderr,
		        "gputop: out of memory building the snapshot\n");
		rc = GT_EXIT_FAILURE;
	} else if (fputs(json, stdout) == EOF || fflush(stdout) != 0) {
		perror("gputop: writing the snapshot");
		rc = GT_EXIT_FAILURE;
	}
	free(json);
	gt_view_close(&view);
	return rc;
}

static int run_list(struct gt_collector *c)
{
	struct gt_view view;
	if (gt_view_open(&view, c) < 0) {
		fprintf(stderr, "gputop: out of memory\n");
		return GT_EXIT_FAILURE;
	}
	exit_at_once = 0; /* the output is written whole */
	gt_list_print(stdout, c, view.devs);
	gt_view_close(&view);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("gputop: writing the list");
		return GT_EXIT_FAILURE;
	}
	return GT_EXIT_OK;
}

/* Quit, SIGINT, SIGTERM, SIGHUP: put back what this run changed (fatal
 * signals and SIGKILL: the guardian does), waiting for the driver no
 * longer than a write's bound, nor once another stop signal comes, and not
 * at all when a write has not come back. Frees ctl, unless a write still
 * holds it. 0, or -1 when gputop could not wait for the driver (said). */
static int quit_restore(struct gt_control_session *ctl)
{
	static struct gt_control_job job; /* large */
	const char *state = gt_control_session_state_path(ctl);
	gt_control_session_detach(ctl);
	if (gt_control_session_stuck(ctl)) {
		fprintf(stderr,
		        "gputop: a write to the driver has not come back (its "
		        "setting may or may not have changed): exiting "
		        "without waiting for it; the restore guardian puts "
		        "back the original settings, and the state file %s "
		        "keeps them for gputop --restore\n",
		        state);
		return -1; /* ctl is left to that write */
	}
	if (gt_control_session_changed(ctl)) {
		memset(&job, 0, sizeof(job));
		job.kind = GT_CONTROL_JOB_RESTORE;
		sig_atomic_t seen = stop_count;
		if (gt_control_session_run(ctl, &job,
		                           GT_BOUNDED_WRITE_TIMEOUT_NS,
		                           stopped_again, &seen) < 0) {
			char why[96];
			if (stop_count > seen)
				snprintf(why, sizeof(why),
				         "stopped again while the driver "
				         "restored");
			else
				snprintf(
				    why, sizeof(why),
				    "the driver did not answer within "
				    "%llu s while restoring",
				    (unsigned long long)(GT_BOUNDED_WRITE_TIMEOUT_NS /
				                         1000000000ull));
			fprintf(stderr,
			        "gputop: %s (a setting may or may not have "
			        "been put back): exiting without waiting; "
			        "the restore guardian puts back the original "
			        "settings, and the state file %s keeps them "
			        "for gputop --restore\n",
			        why, state);
			return -1;
		}
		if (job.rc != 0) {
			fprintf(stderr,
			        "gputop: restoring the original settings "
			        "failed:\n%s"
			        "gputop: the state file %s is kept; "
			        "gputop --restore retries\n",
			        job.report, state);
		}
	}
	gt_control_session_free(ctl);
	return 0;
}

static int run_live(struct gt_collector **cp, struct gt_collector_config *cfg,
                    const struct gt_cli *cli)
{
	int rc;

	if (gt_collector_device_count(*cp) == 0 && !cfg->demo) {
		fprintf(stderr, "gputop: no GPU found:\n");
		gt_list_print_reasons(stderr, *cp);
		fprintf(stderr, "gputop: showing the built-in DEMO machine "
		                "(simulated GPUs). Use --list for details.\n");
		gt_collector_close(*cp);
		cfg->demo = true;
		*cp = gt_collector_open(cfg);
		if (!*cp) {
			fprintf(stderr, "gputop: out of memory\n");
			return GT_EXIT_FAILURE;
		}
		sleep(2); /* let the user read why before the screen clears */
	}
	/* Control: nothing is opened or written until a dialog is used;
	 * a state file left by an earlier run is loaded so the dashboard can
	 * offer to restore it. */
	struct gt_control_session *ctl = NULL;
	char ctl_why[600] = "";
	if (cfg->demo) {
		snprintf(ctl_why, sizeof(ctl_why),
		         "DEMO devices are simulated: there is nothing to "
		         "change");
	} else {
		struct gt_control_session_config ccfg;
		char state[512], audit[512];
		gt_headless_session_config(cli, &ccfg, state, audit,
		                           sizeof(state));
		ctl = gt_control_session_new(&ccfg, ctl_why, sizeof(ctl_why));
	}
	if (ctl)
		gt_control_session_attach(ctl, *cp);
	/* The first round runs on the collector thread too: a driver that
	 * hangs from the start must not keep the screen blank. Up to 1 s is
	 * worth waiting for a first frame with numbers; after that the panels
	 * show what they have and say NO DATA. */
	if (gt_collector_start(*cp) != 0) {
		perror("gputop: starting the collector thread");
		gt_control_session_free(ctl);
		return GT_EXIT_FAILURE;
	}
	/* --listen: the same collector feeds the endpoint. */
	struct gt_http *http = NULL;
	if (cli->listen) {
		http = gt_serve_http_start(*cp, cli);
		if (!http) {
			gt_collector_stop(*cp);
			gt_control_session_free(ctl);
			return GT_EXIT_FAILURE;
		}
	}
	gt_collector_wait_first_tick(*cp, 1000000000ull);
	struct gt_dashboard_opts dopts = {
	    .theme = cli->theme,
	    .themes_dir = cli->themes_dir,
	    .procfs_root = cli->procfs_root,
	    .interval_ns = cli->interval_ns,
	    .interval_given = cli->interval_set,
	    .ctl = ctl,
	    .ctl_why = ctl_why,
	    .count_frames = http != NULL,
	};
	exit_at_once = 0; /* the terminal is about to be taken */
	rc = gt_dashboard_run(*cp, &dopts, &stop_requested);
	gt_http_stop(http);
	gt_collector_stop(*cp);
	if (gt_collector_abandoned(*cp))
		fprintf(stderr, "gputop: a driver call has not returned; "
		                "exiting without waiting for it\n");
	if (ctl && quit_restore(ctl) != 0) {
		/* A thread is still inside the driver with the session (and
		 * may touch the collector if it comes back): nothing is
		 * freed; the process ends now. */
		fflush(stdout);
		_exit(GT_EXIT_FAILURE);
	}
	return rc == 0 ? GT_EXIT_OK : GT_EXIT_FAILURE;
}

/* --procfs and --sysfs name the trees every process and every AMD or
 * Intel GPU are read from: one that is not a directory would leave each
 * process "not in the proc tree" and each backend "no GPU among 0 DRM
 * devices", naming nothing wrong, so it is refused at once, the option
 * (opt, given as root) and the usual mount point (tree) in the message.
 * True when it was (and said). */
static bool root_unusable(const char *opt, const char *root, const char *tree)
{
	struct stat st;
	if (!root)
		return false;
	const char *why = stat(root, &st) != 0  ? strerror(errno)
	                  : S_ISDIR(st.st_mode) ? NULL
	                                        : "not a directory";
	if (!why)
		return false;
	fprintf(stderr,
	        "gputop: %s %s: %s (give the directory where the host's %s "
	        "is mounted, e.g. %s /host%s)\n",
	        opt, root, why, tree, opt, tree);
	return true;
}

int main(int argc, char *argv[])
{
	struct gt_cli cli;
	char err[256];
	int rc = gt_cli_parse(argc, argv, &cli, err, sizeof(err));

	if (rc != GT_EXIT_OK) {
		fprintf(stderr, "gputop: %s\n", err);
		return rc;
	}
	if (cli.mode == GT_MODE_HELP) {
		fputs(gt_cli_usage, stdout);
		return GT_EXIT_OK;
	}
	if (cli.mode == GT_MODE_VERSION) {
		printf("gputop %s\n", GPUTOP_VERSION);
		return GT_EXIT_OK;
	}
	/* --restore writes through --sysfs too (AMD and Intel settings): a
	 * wrong root is said before the state file is read, and kept. */
	if (root_unusable("--sysfs", cli.sysfs_root, "/sys"))
		return GT_EXIT_USAGE;
	if (cli.mode == GT_MODE_RESTORE)
		return gt_headless_restore(&cli);
	if (root_unusable("--procfs", cli.procfs_root, "/proc"))
		return GT_EXIT_USAGE;

	struct gt_collector_config cfg = {
	    .platform = &gt_registry_platform,
	    .backend = {.nvml_lib = cli.nvml_lib,
	                .sysfs_root = cli.sysfs_root,
	                .procfs_root = cli.procfs_root,
	                .demo_seed = cli.demo_seed},
	    .demo = cli.demo,
	    .interval_ns = cli.interval_ns,
	    /* The dashboard's clock turns with its rounds. */
	    .align_to_wall = cli.mode == GT_MODE_DASHBOARD,
	};
	install_signal_handlers();
	struct gt_collector *c = gt_collector_open(&cfg);
	if (!c) {
		fprintf(stderr, "gputop: out of memory\n");
		return GT_EXIT_FAILURE;
	}
	switch (cli.mode) {
	case GT_MODE_SNAPSHOT:
		rc = run_snapshot(c, &cli);
		break;
	case GT_MODE_LIST:
		rc = run_list(c);
		break;
	case GT_MODE_APPLY:
		rc = gt_headless_apply(c, &cli, &stop_requested, &exit_at_once);
		break;
	case GT_MODE_SERVE:
	case GT_MODE_TEXTFILE:
		/* A service: a stop signal ends it through the flag, with
		 * status 0, its port closed and no textfile half written. */
		exit_at_once = 0;
		rc = gt_serve_run(c, &cli, &stop_requested);
		break;
	case GT_MODE_JSON:
		exit_at_once = 0; /* never half a line: ends on the flag, 0 */
		rc = gt_serve_json(c, &cli, &stop_requested);
		break;
	default:
		rc = run_live(&c, &cfg, &cli);
		break;
	}
	gt_collector_close(c);
	return rc;
}

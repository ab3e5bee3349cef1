/* SPDX-License-Identifier: MIT */
/*
 * headless.c - `gputop --restore`, `gputop --apply PROFILE [--daemon]`
 * (headless.h). The same control session as the dashboard's, so the same
 * checks, journal, guardian and audit log apply; only the front end
 * differs: messages on stderr, and syslog in daemon mode.
 */
#include "headless.h"

#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "config/profile.h"
#include "config/profile_plan.h"
#include "control/guardian.h"
#include "core/clock.h"
#include "core/view.h"

void gt_headless_session_config(const struct gt_cli *cli,
                                struct gt_control_session_config *cfg,
                                char *state, char *audit, size_t len)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->nvml_lib = cli->nvml_lib;
	cfg->sysfs_root = cli->sysfs_root;
	cfg->no_nvml = cli->demo;
	if (cli->state_dir) {
		snprintf(state, len, "%s/restore.state", cli->state_dir);
		snprintf(audit, len, "%s/audit.log", cli->state_dir);
		cfg->state_path = state;
		cfg->audit_path = audit;
	}
}

/* ---- bounded writes ------------------------------------------------ */

/* How long --apply and --restore wait for the driver to answer one write
 * (GT_BOUNDED_WRITE_TIMEOUT_NS). Past it (or on a stop signal meanwhile)
 * gputop ends without waiting: the write holds the session, so nothing
 * else in the process can restore; the guardian, a process of its own
 * that holds the journal since before the first write, puts the originals
 * back when gputop's connection closes. */
#define WRITE_TIMEOUT_S                                                        \
	((unsigned long long)(GT_BOUNDED_WRITE_TIMEOUT_NS / 1000000000ull))

static bool stop_flag(void *ctx)
{
	return *(volatile sig_atomic_t *)ctx != 0;
}

/* Applies ch as a job (control_session.h): 0 with res filled, or -1 when
 * the write has not come back within the bound. */
static int apply_bounded(struct gt_control_session *s,
                         const struct gt_control_change *ch,
                         struct gt_control_result *res,
                         volatile sig_atomic_t *stop)
{
	static struct gt_control_job job; /* large; one thread uses it */
	memset(&job, 0, sizeof(job));
	job.kind = GT_CONTROL_JOB_APPLY;
	job.n = 1;
	job.ch[0] = *ch;
	if (gt_control_session_run(s, &job, GT_BOUNDED_WRITE_TIMEOUT_NS,
	                           stop_flag, (void *)stop) < 0) {
		memset(res, 0, sizeof(*res));
		return -1;
	}
	*res = job.res[0];
	return 0;
}

/* Restores everything as a job: its status (as
 * gt_control_session_restore_all's) with the report, or -2 when the
 * driver did not answer within the bound (report says so). */
static int restore_bounded(struct gt_control_session *s, char *report,
                           size_t len)
{
	static struct gt_control_job job;
	memset(&job, 0, sizeof(job));
	job.kind = GT_CONTROL_JOB_RESTORE;
	if (gt_control_session_run(s, &job, GT_BOUNDED_WRITE_TIMEOUT_NS, NULL,
	                           NULL) < 0) {
		snprintf(report, len,
		         "the driver did not answer within %llu s while "
		         "restoring: a setting may or may not have been put "
		         "back",
		         WRITE_TIMEOUT_S);
		return -2;
	}
	snprintf(report, len, "%s", job.report);
	return job.rc;
}

/* ---- --restore ----------------------------------------------------- */

static void print_report(FILE *f, const char *report)
{
	if (report[0])
		fprintf(f, "%s%s", report,
		        report[strlen(report) - 1] == '\n' ? "" : "\n");
}

int gt_headless_restore(const struct gt_cli *cli)
{
	struct gt_control_session_config cfg;
	char state[512], audit[512], err[512], report[4096];

	gt_headless_session_config(cli, &cfg, state, audit, sizeof(state));
	struct gt_control_session *s =
	    gt_control_session_new(&cfg, err, sizeof(err));
	if (!s) {
		fprintf(stderr, "gputop: %s\n", err);
		return GT_EXIT_FAILURE;
	}
	size_t n = gt_control_session_pending(s);
	if (n == 0) {
		printf("gputop: nothing to restore (no state file at %s)\n",
		       gt_control_session_state_path(s));
		gt_control_session_free(s);
		return GT_EXIT_OK;
	}
	int rc = restore_bounded(s, report, sizeof(report));
	if (rc == -2) {
		/* The write holds the session: nothing more can be done
		 * here, and nothing may wait for it. */
		fprintf(stderr,
		        "gputop: %s; the state file %s is kept (check dmesg "
		        "for the driver, then run gputop --restore again)\n",
		        report, gt_control_session_state_path(s));
		fflush(stdout);
		_exit(GT_EXIT_FAILURE);
	}
	print_report(rc == 0 ? stdout : stderr, report);
	if (rc == 0)
		printf("gputop: restored %zu setting(s) from %s\n", n,
		       gt_control_session_state_path(s));
	else if (rc < 0)
		fprintf(stderr,
		        "gputop: not restored; the state file %s is kept\n",
		        gt_control_session_state_path(s));
	else
		fprintf(stderr,
		        "gputop: %d of %zu setting(s) could not be restored; "
		        "the state file %s is kept\n",
		        rc, n, gt_control_session_state_path(s));
	gt_control_session_free(s);
	return rc == 0 ? GT_EXIT_OK : GT_EXIT_FAILURE;
}

/* ---- --apply ------------------------------------------------------- */

#define MAX_PER_GPU 6

static bool is_loop(const struct gt_control_change *ch)
{
	return ch->kind == GT_CHANGE_FAN_CURVE &&
	       (ch->fan_method == GT_FAN_METHOD_NVML_LOOP ||
	        ch->fan_method == GT_FAN_METHOD_AMD_PWM_LOOP);
}

static void say(bool daemon, int prio, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void say(bool daemon, int prio, const char *fmt, ...)
{
	va_list ap;
	char msg[1024];
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "gputop: %s\n", msg);
	if (daemon)
		syslog(prio, "%s", msg);
}

/* The plan for every GPU, refused as a whole before anything is written. */
struct plan {
	size_t n;
	struct gt_control_change ch[GT_PROFILE_MAX_BLOCKS * MAX_PER_GPU];
	bool loops;
};

static int make_plan(struct gt_control_session *s,
                     const struct gt_devlist *devs, const struct gt_profile *p,
                     struct plan *plan, char *err, size_t len)
{
	char why[400];
	plan->n = 0;
	plan->loops = false;
	for (size_t i = 0; i < devs->count; i++) {
		const struct gt_static *st = &devs->items[i];
		const struct gt_profile_entry *e =
		    gt_profile_match(p, st->pci_bus_id);
		struct gt_control_caps caps;
		if (!e)
			continue;
		memset(&caps, 0, sizeof(caps));
		if (gt_control_session_caps(s, st, &caps) < 0 && !caps.why[0])
			snprintf(caps.why, sizeof(caps.why),
			         "the device cannot be controlled");
		size_t room = sizeof(plan->ch) / sizeof(plan->ch[0]) - plan->n;
		int n = gt_profile_plan_changes(
		    e, &caps, i, plan->ch + plan->n,
		    room < MAX_PER_GPU ? room : MAX_PER_GPU, why, sizeof(why));
		if (n < 0) {
			snprintf(err, len, "GPU %u (%s), line %d: %s",
			         st->index, st->pci_bus_id, e->line, why);
			return -1;
		}
		for (int k = 0; k < n; k++)
			plan->loops |= is_loop(&plan->ch[plan->n + (size_t)k]);
		plan->n += (size_t)n;
	}
	return 0;
}

/* The plan of p for devs, refused (-1, said) when a block matches no GPU
 * here (nothing there to apply it to: a mistyped PCI id is an error, not
 * "already in force") or when a GPU cannot take its block. */
static int plan_profile(struct gt_control_session *s,
                        const struct gt_devlist *devs,
                        const struct gt_profile *p, struct plan *plan,
                        bool daemon)
{
	char err[600];
	size_t k = gt_profile_plan_unmatched(p, devs->items, devs->count, err,
	                                     sizeof(err));

	if (k > 0) {
		say(daemon, LOG_ERR,
		    "profile '%s': %s %s no GPU here (see gputop --list)",
		    p->name, err, k == 1 ? "matches" : "match");
		return -1;
	}
	if (make_plan(s, devs, p, plan, err, sizeof(err)) < 0) {
		say(daemon, LOG_ERR, "profile '%s' is not applied: %s", p->name,
		    err);
		return -1;
	}
	return 0;
}

static int load_profile(const struct gt_cli *cli, struct gt_profile_list **list,
                        const struct gt_profile **p)
{
	char err[512];
	if (gt_profile_load(NULL, list, err, sizeof(err)) < 0) {
		fprintf(stderr, "gputop: %s\n", err);
		return -1;
	}
	*p = gt_profile_find(*list, cli->profile);
	if (!*p) {
		gt_profile_not_found(*list, cli->profile, err, sizeof(err));
		fprintf(stderr, "gputop: %s\n", err);
		return -1;
	}
	if ((*p)->nproblems) {
		fprintf(stderr, "gputop: profile '%s' is not applied: %s\n",
		        (*p)->name, (*p)->problem);
		return -1;
	}
	return 0;
}

/* Runs until a stop signal, saying what the fan loops have to say (a
 * write the driver did not answer, a fan handed back), each once. */
static void wait_for_stop(struct gt_control_session *s, bool daemon,
                          volatile sig_atomic_t *stop)
{
	struct timespec ts = {0, 200000000L};
	char msg[GT_CONTROL_RESULT_MAX + 96], last[sizeof(msg)] = "";
	while (!*stop) {
		nanosleep(&ts, NULL);
		gt_control_session_take_notice(s, msg, sizeof(msg));
		/* A failure that repeats each step is said once. */
		if (msg[0] && strcmp(msg, last) != 0)
			say(daemon, LOG_WARNING, "%s", msg);
		if (msg[0])
			memcpy(last, msg, sizeof(last));
	}
}

/* A write the driver did not answer: said, then gputop ends at once (see
 * WRITE_TIMEOUT_S); nothing may touch the session or the collector,
 * which wait for that write. */
static void abandon_write(struct gt_control_session *s, const char *profile,
                          size_t dev, bool daemon, volatile sig_atomic_t *stop)
{
	if (*stop)
		say(daemon, LOG_ERR,
		    "profile '%s': stopped while GPU %zu's driver had not "
		    "answered a write",
		    profile, dev);
	else
		say(daemon, LOG_ERR,
		    "profile '%s': GPU %zu: the driver did not answer a write "
		    "in %llu s",
		    profile, dev, WRITE_TIMEOUT_S);
	say(daemon, LOG_ERR,
	    "gputop exits without waiting for it; its restore guardian puts "
	    "back what was changed (gputop --restore retries from %s; "
	    "check dmesg for the driver)",
	    gt_control_session_state_path(s));
	if (daemon)
		closelog();
	_exit(GT_EXIT_FAILURE);
}

/* Puts back what this run changed, as a job: 0 when all is back, else
 * the number of failures or -1; a restore the driver does not answer ends
 * gputop as abandon_write does. */
static int restore_or_leave(struct gt_control_session *s, bool daemon)
{
	char report[4096];
	int bad = restore_bounded(s, report, sizeof(report));
	if (bad == -2) {
		say(daemon, LOG_ERR,
		    "%s; gputop exits without waiting for it; its restore "
		    "guardian puts back what was changed (gputop --restore "
		    "retries from %s; check dmesg for the driver)",
		    report, gt_control_session_state_path(s));
		if (daemon)
			closelog();
		_exit(GT_EXIT_FAILURE);
	}
	/* A fan loop's write that did not come back holds the session. */
	if (bad != 0 && gt_control_session_stuck(s))
		say(daemon, LOG_ERR, "%s", report);
	return bad;
}

static int run_plan(struct gt_control_session *s, struct gt_collector *c,
                    const struct plan *plan, const struct gt_cli *cli,
                    volatile sig_atomic_t *stop)
{
	bool d = cli->daemon;

	size_t i = 0;
	for (; i < plan->n && !*stop; i++) {
		struct gt_control_result res;
		if (apply_bounded(s, &plan->ch[i], &res, stop) < 0)
			abandon_write(s, cli->profile, plan->ch[i].device, d,
			              stop);
		if (res.rc != GT_CONTROL_OK) {
			say(d, LOG_ERR, "profile '%s': GPU %zu: %s: %s",
			    cli->profile, plan->ch[i].device, res.asked,
			    res.err);
			if (gt_control_session_pending(s) == 0) {
				say(d, LOG_ERR, "nothing was changed");
				return GT_EXIT_FAILURE;
			}
			int bad = restore_or_leave(s, d);
			say(d, LOG_ERR, "%s",
			    bad == 0
			        ? "every change already made was restored"
			        : "restoring what was changed failed: see "
			          "the audit log; gputop --restore retries");
			return GT_EXIT_FAILURE;
		}
		say(d, LOG_NOTICE, "GPU %zu: %s -> %s%s", plan->ch[i].device,
		    res.asked, res.applied,
		    res.differs ? " (the device applied something else)" : "");
	}
	if (i < plan->n) {
		/* Stopped half-way: what was applied goes back. A stop
		 * after the last change is an ordinary one, below. */
		int bad = restore_or_leave(s, d);
		say(d, bad == 0 ? LOG_NOTICE : LOG_ERR, "%s",
		    bad == 0 ? "stopped before the profile was applied; "
		               "nothing is left changed"
		             : "stopped; restoring what was changed failed: "
		               "see the audit log; gputop --restore retries");
		/* Interrupted, as a stop before the first write is. */
		return bad ? GT_EXIT_FAILURE : 128 + (int)*stop;
	}
	if (!d) {
		/* One-shot: the user asked for these values to stay. */
		if (gt_control_session_release(s) < 0)
			say(d, LOG_WARNING,
			    "the state file could not be removed: the next "
			    "start will offer to restore the old values");
		say(d, LOG_NOTICE, "profile '%s' applied (%zu change%s)",
		    cli->profile, plan->n, plan->n == 1 ? "" : "s");
		return GT_EXIT_OK;
	}
	say(d, LOG_NOTICE,
	    "profile '%s' applied; running%s until SIGTERM/SIGINT, then "
	    "restoring",
	    cli->profile, plan->loops ? " the fan loops" : "");
	wait_for_stop(s, d, stop);
	gt_collector_stop(c);
	if (gt_collector_abandoned(c))
		say(d, LOG_WARNING,
		    "a driver call has not returned; exiting "
		    "without waiting for it");
	gt_control_session_detach(s);
	int bad = restore_or_leave(s, d);
	say(d, bad == 0 ? LOG_NOTICE : LOG_ERR, "%s",
	    bad == 0 ? "stopped; original settings restored"
	             : "stopped; some settings could not be restored (see "
	               "the audit log; gputop --restore retries)");
	return bad == 0 ? GT_EXIT_OK : GT_EXIT_FAILURE;
}

int gt_headless_apply(struct gt_collector *c, const struct gt_cli *cli,
                      volatile sig_atomic_t *stop,
                      volatile sig_atomic_t *exit_at_once)
{
	struct gt_control_session_config cfg;
	struct gt_profile_list *list = NULL;
	const struct gt_profile *p = NULL;
	struct gt_view view;
	char state[512], audit[512], err[600];
	int rc = GT_EXIT_FAILURE;
	static struct plan plan; /* large; one apply per process */

	if (load_profile(cli, &list, &p) < 0) {
		gt_profile_list_free(list);
		return GT_EXIT_FAILURE;
	}
	if (cli->daemon)
		openlog("gputop", LOG_PID, LOG_DAEMON);
	gt_headless_session_config(cli, &cfg, state, audit, sizeof(state));
	cfg.syslog = cli->daemon;
	struct gt_control_session *s =
	    gt_control_session_new(&cfg, err, sizeof(err));
	if (!s) {
		say(cli->daemon, LOG_ERR, "%s", err);
		gt_profile_list_free(list);
		return GT_EXIT_FAILURE;
	}
	if (gt_control_session_pending(s) > 0) {
		say(cli->daemon, LOG_ERR,
		    "an earlier gputop left changed settings in %s: run "
		    "gputop --restore first",
		    gt_control_session_state_path(s));
		goto out;
	}
	gt_collector_tick(c, GT_TICK_ALL);
	if (gt_view_open(&view, c) < 0) {
		say(cli->daemon, LOG_ERR, "out of memory");
		goto out;
	}
	int planned = plan_profile(s, view.devs, p, &plan, cli->daemon);
	gt_view_close(&view);
	if (planned < 0)
		goto out;
	if (plan.loops && !cli->daemon) {
		say(false, LOG_ERR,
		    "profile '%s' drives a fan with a software curve, which "
		    "needs gputop to keep running: add --daemon (nothing was "
		    "changed)",
		    p->name);
		goto out;
	}
	if (plan.n == 0 && !cli->daemon) {
		say(false, LOG_NOTICE,
		    "profile '%s': every setting is already in force", p->name);
		rc = GT_EXIT_OK;
		goto out;
	}
	const char *ro = gt_control_session_readonly_reason(s);
	if (ro[0]) {
		say(cli->daemon, LOG_ERR, "%s", ro);
		goto out;
	}
	gt_control_session_attach(s, c);
	if (gt_collector_start(c) != 0) {
		say(cli->daemon, LOG_ERR, "cannot start the collector thread");
		goto out;
	}
	/* From here on a stop signal must restore what was written. */
	*exit_at_once = 0;
	rc = run_plan(s, c, &plan, cli, stop);
out:
	gt_collector_stop(c);
	gt_control_session_detach(s);
	gt_control_session_free(s);
	gt_profile_list_free(list);
	if (cli->daemon)
		closelog();
	return rc;
}

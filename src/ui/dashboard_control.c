/* SPDX-License-Identifier: MIT */
/*
 * dashboard_control.c - the dashboard's side of control: opens the power
 * (p) and fan (f) dialogs with the selected GPU's capabilities, carries out
 * what they ask through the control session (apply, keep, revert when the
 * countdown runs out), and offers to restore a state file left by an
 * earlier run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "ui/dashboard_priv.h"
#include "ui/paint.h"

void gt_dashboard_control_open(struct gt_dashboard *d,
                               enum gt_control_dialog_kind kind)
{
	struct gt_control_caps caps;
	int dev = gt_dashboard_selected_device(d);

	if (dev < 0 || !d->view.devs || (size_t)dev >= d->view.devs->count) {
		gt_dashboard_notice(d, "select a GPU first (Tab)");
		return;
	}
	const struct gt_static *st = &d->view.devs->items[dev];
	memset(&caps, 0, sizeof(caps));
	caps.vendor = st->vendor;
	if (!d->opts->ctl)
		snprintf(caps.why, sizeof(caps.why), "%s",
		         d->opts->ctl_why ? d->opts->ctl_why
		                          : "control is not available");
	else if (gt_control_session_caps(d->opts->ctl, st, &caps) < 0 &&
	         !caps.why[0])
		snprintf(caps.why, sizeof(caps.why),
		         "this device cannot be controlled");
	gt_control_dialog_open(
	    &d->dlg, kind, (size_t)dev, &caps,
	    d->opts->ctl ? gt_control_session_readonly_reason(d->opts->ctl)
	                 : "");
}

_Static_assert(GT_CONTROL_DIALOG_MAX_CHANGES <= GT_CONTROL_JOB_MAX,
               "a dialog's changes fit one control job");

#define WRITE_TIMEOUT_S                                                        \
	((unsigned)(GT_BOUNDED_WRITE_TIMEOUT_NS / 1000000000ull))

/* Hands a job to the control session: the UI thread never waits for a
 * driver (a write that hangs would freeze the screen and the quit key). */
static bool start_task(struct gt_dashboard *d, const struct gt_control_job *job,
                       enum gt_dashboard_task what, bool by_timeout)
{
	d->task = gt_control_session_start(d->opts->ctl, job);
	if (!d->task)
		return false;
	d->task_for = what;
	d->task_by_timeout = by_timeout;
	d->task_until_ns = gt_monotonic_ns() + GT_BOUNDED_WRITE_TIMEOUT_NS;
	return true;
}

static void control_request(struct gt_dashboard *d,
                            enum gt_control_dialog_request req, bool by_timeout)
{
	static struct gt_control_job job; /* large; the UI thread's */
	struct gt_control_dialog *g = &d->dlg;
	bool revert = req == GT_CONTROL_DIALOG_REVERT;

	if (!d->opts->ctl)
		return;
	switch (req) {
	case GT_CONTROL_DIALOG_APPLY:
	case GT_CONTROL_DIALOG_REVERT:
		if (d->task) { /* one job at a time */
			snprintf(g->msg, sizeof(g->msg),
			         "another write is still waiting for the "
			         "driver: nothing written");
			g->stage = GT_CONTROL_DIALOG_DONE;
			return;
		}
		memset(&job, 0, sizeof(job));
		job.kind =
		    revert ? GT_CONTROL_JOB_REVERT : GT_CONTROL_JOB_APPLY_LIST;
		job.n = g->nchanges < GT_CONTROL_JOB_MAX ? g->nchanges
		                                         : GT_CONTROL_JOB_MAX;
		memcpy(job.ch, g->changes, job.n * sizeof(job.ch[0]));
		memcpy(job.rev, g->reverts, job.n * sizeof(job.rev[0]));
		memcpy(job.rev_known, g->revert_known,
		       job.n * sizeof(job.rev_known[0]));
		if (!start_task(d, &job,
		                revert ? GT_DASHBOARD_TASK_REVERT
		                       : GT_DASHBOARD_TASK_APPLY,
		                by_timeout)) {
			g->stage = GT_CONTROL_DIALOG_DONE;
			snprintf(g->msg, sizeof(g->msg),
			         "out of memory: nothing written");
			return;
		}
		gt_control_dialog_waiting(g, revert, gt_monotonic_ns(),
		                          d->task_until_ns);
		break;
	case GT_CONTROL_DIALOG_KEEP:
		g->stage = GT_CONTROL_DIALOG_DONE;
		snprintf(g->msg, sizeof(g->msg),
		         "kept; the originals come back when gputop exits");
		break;
	case GT_CONTROL_DIALOG_NOTHING:
	case GT_CONTROL_DIALOG_CLOSE:
		break;
	}
}

/* The job came back: the dialog (or the restore offer) says how it went. */
static void task_done(struct gt_dashboard *d, const struct gt_control_job *job)
{
	char msg[1100];

	switch (d->task_for) {
	case GT_DASHBOARD_TASK_APPLY:
		gt_control_dialog_applied(&d->dlg, job->res, job->nres,
		                          gt_monotonic_ns());
		break;
	case GT_DASHBOARD_TASK_REVERT:
		gt_control_dialog_reverted(&d->dlg, job->res, job->nres,
		                           d->task_by_timeout);
		break;
	case GT_DASHBOARD_TASK_RESTORE:
		snprintf(msg, sizeof(msg), "%.1000s",
		         job->rc == 0 ? "restored the settings of the earlier "
		                        "run"
		                      : job->report);
		char *nl = strchr(msg, '\n');
		if (nl)
			*nl = '\0';
		gt_dashboard_notice(d, msg);
		break;
	}
}

/* The job did not come back in time: it is left behind, and the dialog
 * (or the notice line) says what that means. */
static void task_no_answer(struct gt_dashboard *d)
{
	char msg[256];

	if (d->task_for == GT_DASHBOARD_TASK_RESTORE) {
		snprintf(msg, sizeof(msg),
		         "the driver did not answer within %u s while "
		         "restoring: the state file stays for gputop --restore",
		         WRITE_TIMEOUT_S);
		gt_dashboard_notice(d, msg);
	} else {
		gt_control_dialog_no_answer(&d->dlg, WRITE_TIMEOUT_S);
	}
}

/* Every frame while a job is in flight. True when it ended. */
static bool task_poll(struct gt_dashboard *d)
{
	static struct gt_control_job job;

	if (!d->task)
		return false;
	if (gt_control_task_done(d->task)) {
		gt_control_task_finish(d->task, &job);
		d->task = NULL;
		task_done(d, &job);
		return true;
	}
	if (gt_monotonic_ns() < d->task_until_ns)
		return false;
	bool done = gt_control_task_abandon(d->task, &job);
	d->task = NULL;
	if (done)
		task_done(d, &job);
	else
		task_no_answer(d);
	return true;
}

void gt_dashboard_control_end(struct gt_dashboard *d)
{
	static struct gt_control_job job;

	if (!d->task)
		return;
	if (gt_control_task_wait(d->task,
	                         gt_monotonic_ns() + GT_BOUNDED_STOP_GRACE_NS,
	                         NULL, NULL))
		gt_control_task_finish(d->task, &job);
	else
		gt_control_task_abandon(d->task, &job);
	d->task = NULL;
}

uint64_t gt_dashboard_control_wake_ns(const struct gt_dashboard *d)
{
	if (d->task) /* a job is looked at ten times a second */
		return gt_monotonic_ns() + 100000000ull;
	if (d->dlg.open && d->dlg.stage == GT_CONTROL_DIALOG_COUNTDOWN)
		return d->dlg.deadline_ns;
	return 0;
}

static void restore_offer_key(struct gt_dashboard *d, int ch)
{
	static struct gt_control_job job;
	if (ch == 'r' || ch == 'R') {
		if (d->task)
			return;
		memset(&job, 0, sizeof(job));
		job.kind = GT_CONTROL_JOB_RESTORE;
		if (start_task(d, &job, GT_DASHBOARD_TASK_RESTORE, false))
			gt_dashboard_notice(d, "restoring the settings of the "
			                       "earlier run...");
		else
			gt_dashboard_notice(d, "out of memory: not restored");
		d->restore_offer = false;
	} else if (ch == 27 || ch == 'n' || ch == 'q') {
		gt_dashboard_notice(
		    d, "not restored: the state file stays for the next "
		       "start or gputop --restore");
		d->restore_offer = false;
	}
}

/* Keys of the control dialogs and the restore offer; false when neither is
 * open. */
bool gt_dashboard_control_key(struct gt_dashboard *d, int ch)
{
	if (ch == KEY_RESIZE || ch == KEY_MOUSE)
		return false;
	if (d->restore_offer) {
		restore_offer_key(d, ch);
		return true;
	}
	if (!d->dlg.open)
		return false;
	/* While the driver is waited for, q still quits. */
	if (d->dlg.stage == GT_CONTROL_DIALOG_WAITING && ch == 'q')
		return false;
	control_request(
	    d, gt_control_dialog_key(&d->dlg, ch, gt_monotonic_ns()), false);
	return true;
}

static void draw_restore_offer(struct gt_dashboard *d)
{
	char line[600];
	int attr = d->pal.role[GT_ROLE_MAIN];
	struct gt_rect in =
	    gt_overlay_box(stdscr, 84, 8, attr, " Settings left changed ");
	snprintf(line, sizeof(line),
	         "An earlier gputop changed %zu setting(s) and could not "
	         "put them back.",
	         gt_control_session_pending(d->opts->ctl));
	gt_paint_put(stdscr, in, 0, 0, attr, line);
	snprintf(line, sizeof(line), "State file: %s",
	         gt_control_session_state_path(d->opts->ctl));
	gt_paint_put(stdscr, in, 1, 0, attr, line);
	gt_paint_put(stdscr, in, 3, 0, attr,
	             "r  restore the original values now");
	gt_paint_put(stdscr, in, 4, 0, attr,
	             "Esc  not now (the file stays; gputop --restore does it "
	             "later)");
}

void gt_dashboard_control_draw(struct gt_dashboard *d)
{
	if (d->restore_offer && d->opts->ctl) {
		draw_restore_offer(d);
		return;
	}
	if (!d->dlg.open)
		return;
	struct gt_control_loop_status loop;
	const struct gt_sample *smp = NULL;
	if (d->dlg.device < d->view.nlatest)
		smp = &d->view.latest[d->dlg.device];
	if (d->opts->ctl)
		gt_control_session_loop_status(d->opts->ctl, d->dlg.device,
		                               &loop);
	else
		memset(&loop, 0, sizeof(loop));
	struct gt_control_dialog_data data = {
	    .st = d->view.devs && d->dlg.device < d->view.devs->count
	              ? &d->view.devs->items[d->dlg.device]
	              : NULL,
	    .smp = smp,
	    .loop = &loop,
	    .pal = &d->pal,
	    .fahrenheit = d->cfg.fahrenheit,
	    .now_ns = gt_monotonic_ns(),
	};
	gt_control_dialog_draw(stdscr, &d->dlg, &data);
}

/* Every frame: the countdown, and what the collector thread's side of
 * the control has to say. True when the screen must be redrawn. */
bool gt_dashboard_control_poll(struct gt_dashboard *d)
{
	char msg[300];
	bool dirty = false;
	if (!d->opts->ctl)
		return false;
	if (task_poll(d))
		dirty = true;
	if (gt_control_dialog_poll(&d->dlg, gt_monotonic_ns()) ==
	    GT_CONTROL_DIALOG_REVERT)
		control_request(d, GT_CONTROL_DIALOG_REVERT, true);
	gt_control_session_take_notice(d->opts->ctl, msg, sizeof(msg));
	if (msg[0]) {
		gt_dashboard_notice(d, msg);
		dirty = true;
	}
	return dirty || d->task ||
	       (d->dlg.open && d->dlg.stage == GT_CONTROL_DIALOG_COUNTDOWN);
}

/* The last part of a sysfs path. */
static const char *leaf(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

static bool ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), k = strlen(end);
	return n >= k && strcmp(s + n - k, end) == 0;
}

/* One journal record as a badge, when the value it changed is still not
 * the original (the sample says what is in force; a record whose setting
 * the sample cannot show gives none: the badge never claims what it
 * cannot see, e.g. after the dialog put the original back). */
static void record_badge(const struct gt_restore_action *a,
                         const struct gt_sample *s, char *buf, size_t len)
{
	const struct gt_val *lim = &s->f[GT_F_POWER_LIMIT];
	const char *name = leaf(a->path);
	long long orig_mw = -1;

	buf[0] = '\0';
	if (a->kind == GT_RESTORE_NVML_POWER_LIMIT)
		orig_mw = a->mw;
	else if (a->kind == GT_RESTORE_SYSFS &&
	         (strcmp(name, "power1_cap") == 0 ||
	          strcmp(name, "power1_max") == 0))
		orig_mw = strtoll(a->value, NULL, 10) / 1000; /* µW */
	if (orig_mw >= 0) {
		if (gt_val_ok(lim) && lim->v != orig_mw)
			snprintf(buf, len, "LIMIT %lld W",
			         (long long)((lim->v + 500) / 1000));
		return;
	}
	if (a->kind != GT_RESTORE_SYSFS)
		return;
	if (strcmp(name, "power_dpm_force_performance_level") == 0 &&
	    s->perf_level.why == GT_WHY_OK &&
	    strcmp(s->perf_level.s, a->value) != 0)
		snprintf(buf, len, "PERF %.20s", s->perf_level.s);
	const struct gt_val *fmin = &s->f[GT_F_CLK_GRAPHICS_MIN_LIMIT];
	const struct gt_val *fmax = &s->f[GT_F_CLK_GRAPHICS_MAX_LIMIT];
	const struct gt_val *f =
	    ends_with(name, "min_freq_mhz") || strcmp(name, "min_freq") == 0
	        ? fmin
	    : ends_with(name, "max_freq_mhz") || strcmp(name, "max_freq") == 0
	        ? fmax
	        : NULL;
	if (f && gt_val_ok(f) && gt_val_ok(fmin) && gt_val_ok(fmax) &&
	    f->v != strtoll(a->value, NULL, 10))
		snprintf(buf, len, "FREQ %lld-%lld MHz", (long long)fmin->v,
		         (long long)fmax->v);
}

void gt_dashboard_control_badge(const struct gt_dashboard *d, size_t dev,
                                char *buf, size_t len)
{
	struct gt_restore_action a[16];
	struct gt_control_loop_status loop;
	char one[64];
	size_t k = 0;

	if (len)
		buf[0] = '\0';
	if (!d->opts->ctl || !d->view.devs || dev >= d->view.devs->count ||
	    dev >= d->view.nlatest || len == 0)
		return;
	const struct gt_static *st = &d->view.devs->items[dev];
	const struct gt_sample *s = &d->view.latest[dev];
	gt_control_session_loop_status(d->opts->ctl, dev, &loop);
	if (loop.active || loop.firmware)
		k += (size_t)snprintf(buf + k, len - k, "FAN CURVE");
	size_t n = gt_control_session_changes(d->opts->ctl, st->pci_bus_id, a,
	                                      sizeof(a) / sizeof(a[0]));
	for (size_t i = 0; i < n && i < sizeof(a) / sizeof(a[0]); i++) {
		record_badge(&a[i], s, one, sizeof(one));
		/* One badge per kind: a limit written twice is one change. */
		if (!one[0] || strstr(buf, one) || k >= len)
			continue;
		k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? ", " : "",
		                      one);
	}
}

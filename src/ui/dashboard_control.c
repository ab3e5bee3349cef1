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

static void control_request(struct gt_dashboard *d,
                            enum gt_control_dialog_request req, bool by_timeout)
{
	struct gt_control_result res[GT_CONTROL_DIALOG_MAX_CHANGES];
	struct gt_control_dialog *g = &d->dlg;
	size_t n;

	if (!d->opts->ctl)
		return;
	switch (req) {
	case GT_CONTROL_DIALOG_APPLY:
		n = gt_control_session_apply_list(d->opts->ctl, g->changes,
		                                  g->reverts, g->revert_known,
		                                  g->nchanges, res);
		gt_control_dialog_applied(g, res, n, gt_monotonic_ns());
		break;
	case GT_CONTROL_DIALOG_REVERT:
		n = gt_control_session_revert_list(d->opts->ctl, g->reverts,
		                                   g->revert_known, g->nchanges,
		                                   res);
		gt_control_dialog_reverted(g, res, n, by_timeout);
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

static void restore_offer_key(struct gt_dashboard *d, int ch)
{
	char report[1024], msg[1100];
	if (ch == 'r' || ch == 'R') {
		int bad = gt_control_session_restore_all(d->opts->ctl, report,
		                                         sizeof(report));
		char *nl = strchr(report, '\n');
		if (nl && bad)
			*nl = '\0';
		snprintf(msg, sizeof(msg), "%s",
		         bad == 0 ? "restored the settings of the earlier run"
		                  : report);
		gt_dashboard_notice(d, msg);
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
	if (gt_control_dialog_poll(&d->dlg, gt_monotonic_ns()) ==
	    GT_CONTROL_DIALOG_REVERT)
		control_request(d, GT_CONTROL_DIALOG_REVERT, true);
	gt_control_session_take_notice(d->opts->ctl, msg, sizeof(msg));
	if (msg[0]) {
		gt_dashboard_notice(d, msg);
		dirty = true;
	}
	return dirty ||
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

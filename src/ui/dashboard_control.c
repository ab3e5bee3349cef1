/* SPDX-License-Identifier: MIT */
/*
 * dashboard_control.c - the dashboard's side of control: opens the power
 * (p) and fan (f) dialogs with the selected GPU's capabilities, carries out
 * what they ask through the control session (apply, keep, revert when the
 * countdown runs out), and offers to restore a state file left by an
 * earlier run.
 */
#include <stdio.h>
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

/* SPDX-License-Identifier: MIT */
/*
 * dashinput.c - the dashboard's keys and mouse: what each key and click
 * does to the dashboard's state (struct dashboard, dash_priv.h). Drawing is
 * dashboard.c's; this file only changes state and leaves notices.
 */
#include <curses.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "ui/dashboard_priv.h"
#include "export/snapshot.h"

static void save_snapshot(struct dashboard *d)
{
	char msg[512], path[400];
	char *json = gt_snapshot_from_view(&d->view, d->opts->procfs_root,
	                                   d->interval_ns);
	if (!json) {
		gt_dashboard_notice(d, "snapshot: out of memory");
		return;
	}
	if (gt_snapshot_save(json, path, sizeof(path)) == 0)
		snprintf(msg, sizeof(msg), "snapshot saved to %s", path);
	else
		snprintf(msg, sizeof(msg), "snapshot not saved: %s", path);
	free(json);
	gt_dashboard_notice(d, msg);
}

static void select_gpu_at(struct dashboard *d, int k)
{
	d->lopts.selected_gpu = k;
	if (d->pt.device_filter >= 0)
		d->pt.device_filter = gt_dashboard_selected_device(d);
}

static void select_gpu(struct dashboard *d, int delta)
{
	int n = d->nvis;
	if (n == 0)
		return;
	select_gpu_at(d, ((d->lopts.selected_gpu + delta) % n + n) % n);
}

/* The wheel over the GPUs when not all of them fit: the window moves by
 * one GPU and the selection stays inside it, since the layout always
 * shows the selected GPU. */
static bool scroll_gpus(struct dashboard *d, int delta)
{
	int count = d->layout.gpu_count;
	if (count <= 0 || count >= d->nvis)
		return false;
	int first = d->layout.gpu_first + delta;
	if (first > d->nvis - count)
		first = d->nvis - count;
	if (first < 0)
		first = 0;
	d->layout.gpu_first = d->lopts.first_gpu_hint = first;
	int sel = d->lopts.selected_gpu;
	if (sel < first)
		select_gpu_at(d, first);
	else if (sel > first + count - 1)
		select_gpu_at(d, first + count - 1);
	return true;
}

static bool in_rect(struct gt_rect r, int x, int y)
{
	return x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;
}

/* Cells of the longest command line among the rows of the current view:
 * the row formatter lays it out in a wide COMMAND column, and what is
 * left as padding at the end is not command. */
static int longest_command(const struct dashboard *d)
{
	enum { CAP = 2048 };
	int widths[GT_COL__COUNT] = {0};
	int best = 0;
	if (!d->view.procs || d->norder == 0)
		return 0;
	/* UTF-8: at most 4 bytes a cell. */
	char *buf = malloc(CAP * 4 + 1);
	if (!buf)
		return 0;
	widths[GT_COL_COMMAND] = CAP;
	for (size_t i = 0; i < d->norder; i++) {
		gt_proctable_format_row(&d->view.procs->items[d->order[i]],
		                        widths, 0, buf, CAP * 4 + 1);
		size_t n = strlen(buf);
		int pad = 0;
		while (n > 0 && buf[n - 1] == ' ') {
			n--;
			pad++;
		}
		if (CAP - pad > best)
			best = CAP - pad;
	}
	free(buf);
	return best;
}

void gt_dashboard_clamp_hscroll(struct dashboard *d)
{
	if (d->pt.hscroll <= 0)
		return;
	int max = longest_command(d) - d->widths[GT_COL_COMMAND];
	if (d->pt.hscroll > max)
		d->pt.hscroll = max > 0 ? max : 0;
}

static void move_selection(struct dashboard *d, int delta)
{
	if (d->norder == 0)
		return;
	d->pt.follow_pid = 0; /* moving by hand ends following */
	int s = d->pt.selected < 0 ? 0 : d->pt.selected + delta;
	if (s < 0)
		s = 0;
	if (s >= (int)d->norder)
		s = (int)d->norder - 1;
	d->pt.selected = s;
}

static void set_interval(struct dashboard *d, uint64_t ns)
{
	if (ns < GT_INTERVAL_MIN_NS)
		ns = GT_INTERVAL_MIN_NS;
	if (ns > 3600000000000ull)
		ns = 3600000000000ull;
	d->interval_ns = ns;
	gt_collector_set_interval(d->c, ns);
	char msg[64];
	snprintf(msg, sizeof(msg), "interval %.1f s", (double)ns / 1e9);
	gt_dashboard_notice(d, msg);
}

static void handle_mouse(struct dashboard *d)
{
	MEVENT ev;
	if (getmouse(&ev) != OK)
		return;
	if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
		int dir = ev.bstate & BUTTON4_PRESSED ? -1 : 1;
		/* Over the GPUs (the rows between the title and the table)
		 * the wheel scrolls them when some are hidden; anywhere
		 * else, or when all show, it scrolls the table. */
		int top = d->layout.title.y + d->layout.title.h;
		int bottom = d->layout.procs.h > 0 ? d->layout.procs.y
		                                   : d->layout.status.y;
		if (ev.y < top || ev.y >= bottom || !scroll_gpus(d, dir))
			move_selection(d, 3 * dir);
		return;
	}
	if (!(ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
		return;
	for (int k = 0; k < d->nvis; k++) {
		if (in_rect(d->rects[k], ev.x, ev.y)) {
			select_gpu(d, k - d->lopts.selected_gpu);
			return;
		}
	}
	struct gt_rect p = d->layout.procs;
	if (!in_rect(p, ev.x, ev.y))
		return;
	if (ev.y == p.y) {
		/* A header click sorts by that column, a second one flips. */
		int col = gt_proctable_col_at(d->widths, ev.x - p.x);
		if (col < 0)
			return;
		if ((int)d->pt.sort_col == col)
			d->pt.reverse = !d->pt.reverse;
		else {
			d->pt.sort_col = (enum gt_proctable_col)col;
			d->pt.reverse = false;
		}
		return;
	}
	int row = d->pt.scroll_row + (ev.y - p.y - 1);
	if (row >= 0 && (size_t)row < d->norder) {
		d->pt.follow_pid = 0;
		d->pt.selected = row;
	}
}

/* The process the dialog was opened for, not the row selected now: rows
 * move while the dialog is open. */
static void handle_signal_choice(struct dashboard *d, int sig)
{
	char msg[256];
	const struct gt_proclist *pl = d->view.procs;
	gt_sigtarget_send(&d->sig, sig, pl ? pl->items : NULL,
	                  pl ? pl->count : 0, msg, sizeof(msg));
	gt_sigtarget_release(&d->sig);
	gt_dashboard_notice(d, msg);
}

/* Keys of the setup dialog; false when it is not open. */
static bool setup_key(struct dashboard *d, int ch)
{
	char err[512], msg[600];
	if (!d->setup_open)
		return false;
	if (ch == KEY_RESIZE || ch == KEY_MOUSE)
		return false;
	int change = gt_setup_key(&d->setup, &d->cfg, ch, d->view.devs);
	if (change & GT_SETUP_INTERVAL)
		set_interval(d, d->cfg.interval_ns);
	if (change & GT_SETUP_THEME) {
		gt_dashboard_load_theme(d);
		gt_palette_init(&d->pal, &d->theme, d->pal.tier);
	}
	if (change & GT_SETUP_SAVE) {
		if (gt_config_save(d->cfg_path, &d->cfg, err, sizeof(err)) == 0)
			snprintf(msg, sizeof(msg), "settings saved to %.500s",
			         d->cfg_path);
		else
			snprintf(msg, sizeof(msg), "settings not saved: %.500s",
			         err);
		gt_dashboard_notice(d, msg);
	}
	if (change & GT_SETUP_CLOSE)
		d->setup_open = false;
	return true;
}

bool gt_dashboard_key(struct dashboard *d, int ch)
{
	if (gt_dashboard_control_key(d, ch) || setup_key(d, ch))
		return true;
	enum gt_overlay_result res = gt_overlay_key(&d->ov, ch);
	if (d->sig.bound && res != GT_OVERLAY_SIGNAL_CONFIRMED &&
	    d->ov.kind != GT_OVERLAY_SIGNAL && d->ov.kind != GT_OVERLAY_CONFIRM)
		gt_sigtarget_release(&d->sig); /* the dialog was cancelled */
	switch (res) {
	case GT_OVERLAY_CONSUMED:
		return true;
	case GT_OVERLAY_FILTER_DONE:
		gt_copy_str(d->pt.filter, sizeof(d->pt.filter), d->ov.input);
		return true;
	case GT_OVERLAY_FILTER_TOGGLE_REGEX:
		d->pt.filter_is_regex = !d->pt.filter_is_regex;
		return true;
	case GT_OVERLAY_FILTER_CLEAR:
		d->pt.filter[0] = '\0';
		d->filter_err[0] = '\0';
		return true;
	case GT_OVERLAY_SIGNAL_CONFIRMED:
		handle_signal_choice(d, d->ov.signal);
		return true;
	case GT_OVERLAY_NOT_CONSUMED:
		break;
	}

	switch (ch) {
	case 'q':
	case 'Q':
	case KEY_F(10):
		return false;
	case '?':
	case 'h':
	case KEY_F(1):
		gt_overlay_open(&d->ov, GT_OVERLAY_HELP);
		break;
	case 'e':
		gt_overlay_open(&d->ov, GT_OVERLAY_EXPLAIN);
		break;
	case 'o':
	case KEY_F(2):
		gt_setup_open(&d->setup, d->opts->themes_dir);
		d->setup_open = true;
		break;
	case 's':
		save_snapshot(d);
		break;
	case '/':
		gt_overlay_open(&d->ov, GT_OVERLAY_FILTER);
		gt_copy_str(d->ov.input, sizeof(d->ov.input), d->pt.filter);
		break;
	case 'x':
	case KEY_F(9):
		if (gt_dashboard_selected_process(d)) {
			gt_sigtarget_bind(&d->sig,
			                  gt_dashboard_selected_process(d));
			gt_overlay_open(&d->ov, GT_OVERLAY_SIGNAL);
		} else
			gt_dashboard_notice(d, "no process selected");
		break;
	case '\t':
	case ']':
		select_gpu(d, 1);
		break;
	case KEY_BTAB:
	case '[':
		select_gpu(d, -1);
		break;
	case KEY_UP:
	case 'k':
		move_selection(d, -1);
		break;
	case KEY_DOWN:
	case 'j':
		move_selection(d, 1);
		break;
	case KEY_PPAGE:
		move_selection(
		    d, -(d->layout.procs.h > 2 ? d->layout.procs.h - 2 : 1));
		break;
	case KEY_NPAGE:
		move_selection(d, d->layout.procs.h > 2 ? d->layout.procs.h - 2
		                                        : 1);
		break;
	case KEY_HOME:
		move_selection(d, -(int)d->norder);
		break;
	case KEY_END:
		move_selection(d, (int)d->norder);
		break;
	case KEY_LEFT:
		d->pt.hscroll = d->pt.hscroll >= 8 ? d->pt.hscroll - 8 : 0;
		break;
	case KEY_RIGHT:
		d->pt.hscroll += 8;
		gt_dashboard_clamp_hscroll(d);
		break;
	case '>':
	case KEY_F(6):
		d->pt.sort_col = (enum gt_proctable_col)((d->pt.sort_col + 1) %
		                                         GT_COL__COUNT);
		break;
	case '<':
		d->pt.sort_col = (enum gt_proctable_col)(
		    (d->pt.sort_col + GT_COL__COUNT - 1) % GT_COL__COUNT);
		break;
	case 'r':
		d->pt.reverse = !d->pt.reverse;
		break;
	case 'd':
		d->pt.device_filter = d->pt.device_filter >= 0
		                          ? -1
		                          : gt_dashboard_selected_device(d);
		gt_dashboard_notice(d, d->pt.device_filter >= 0
		                           ? "processes of the selected GPU"
		                           : "processes of all GPUs");
		break;
	case 'p':
		gt_dashboard_control_open(d, GT_CONTROL_DIALOG_POWER);
		break;
	case 'f':
		gt_dashboard_control_open(d, GT_CONTROL_DIALOG_FAN);
		break;
	case 'F': {
		const struct gt_process *p = gt_dashboard_selected_process(d);
		if (d->pt.follow_pid)
			d->pt.follow_pid = 0;
		else if (p)
			d->pt.follow_pid = p->pid;
		gt_dashboard_notice(d, d->pt.follow_pid
		                           ? "following the selected process"
		                           : "not following");
		break;
	}
	case 'g':
		d->cfg.glyphs =
		    (int)((gt_dashboard_glyphs(d) + 1) % GT_GLYPHS__COUNT);
		gt_dashboard_notice(d, gt_glyphs_name(gt_dashboard_glyphs(d)));
		break;
	case 'm':
		d->cfg.max_mode = (d->cfg.max_mode + 1) % 3;
		gt_dashboard_notice(d, d->cfg.max_mode == GT_GPU_FULL
		                           ? "panels: automatic"
		                       : d->cfg.max_mode == GT_GPU_COMPACT
		                           ? "panels: compact"
		                           : "panels: one line per GPU");
		break;
	case 'P':
		d->cfg.show_processes = !d->cfg.show_processes;
		break;
	case 'c':
		d->cfg.fahrenheit = !d->cfg.fahrenheit;
		break;
	case '+':
		set_interval(d, d->interval_ns * 2);
		break;
	case '-':
		set_interval(d, d->interval_ns / 2);
		break;
	case 12: /* Ctrl-L */
		clearok(curscr, TRUE);
		break;
	case KEY_MOUSE:
		handle_mouse(d);
		break;
	case KEY_RESIZE:
	default:
		break;
	}
	return true;
}

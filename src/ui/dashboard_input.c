/* SPDX-License-Identifier: MIT */
/*
 * dashboard_input.c - the dashboard's keys and mouse: one table of key
 * bindings says what each key does and what the help window says about it
 * (as tmux's key bindings carry their notes), and the handlers change the
 * dashboard's state (struct gt_dashboard, dashboard_priv.h). Drawing is
 * dashboard.c's; this file only changes state and leaves notices.
 */
#include <inttypes.h>
#include <curses.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "ui/dashboard_priv.h"
#include "export/snapshot.h"
#include "core/text.h"
#include "ui/proctable_filter.h"

static void save_snapshot(struct gt_dashboard *d, int unused)
{
	(void)unused;
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

static void select_gpu_at(struct gt_dashboard *d, int k)
{
	d->lopts.selected_gpu = k;
	if (d->pt.device_filter >= 0)
		d->pt.device_filter = gt_dashboard_selected_device(d);
}

static void select_gpu(struct gt_dashboard *d, int delta)
{
	int n = d->nvis;
	if (n == 0)
		return;
	select_gpu_at(d, ((d->lopts.selected_gpu + delta) % n + n) % n);
}

/* The wheel over the GPUs when not all of them fit: the window moves by
 * one GPU and the selection stays inside it, since the layout always
 * shows the selected GPU. */
static bool scroll_gpus(struct gt_dashboard *d, int delta)
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
static int longest_command(const struct gt_dashboard *d)
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

void gt_dashboard_clamp_hscroll(struct gt_dashboard *d)
{
	if (d->pt.hscroll <= 0)
		return;
	int max = longest_command(d) - d->widths[GT_COL_COMMAND];
	if (d->pt.hscroll > max)
		d->pt.hscroll = max > 0 ? max : 0;
}

static void move_selection(struct gt_dashboard *d, int delta)
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
	d->pt.selected_pid = 0; /* the row moved to, whoever is on it */
}

static void set_interval(struct gt_dashboard *d, uint64_t ns)
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

static void handle_mouse(struct gt_dashboard *d, int unused)
{
	(void)unused;
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
		if ((int)d->pt.sort_col == col && !d->pt.sort_start)
			d->pt.reverse = !d->pt.reverse;
		else {
			d->pt.sort_start = false;
			d->pt.sort_col = (enum gt_proctable_col)col;
			d->pt.reverse = false;
		}
		return;
	}
	int row = d->pt.scroll_row + (ev.y - p.y - 1);
	if (row >= 0 && (size_t)row < d->norder) {
		d->pt.follow_pid = 0;
		d->pt.selected = row;
		d->pt.selected_pid = 0;
	}
}

/* The process the dialog was opened for, not the row selected now: rows
 * move while the dialog is open. */
static void handle_signal_choice(struct gt_dashboard *d, int sig)
{
	char msg[256];
	if (d->nsigset > 0) {
		gt_dashboard_tags_send(d, sig);
		return;
	}
	const struct gt_proclist *pl = d->view.procs;
	gt_sigtarget_send(&d->sig, sig, pl ? pl->items : NULL,
	                  pl ? pl->count : 0, msg, sizeof(msg));
	gt_sigtarget_release(&d->sig);
	gt_dashboard_notice(d, msg);
}

/* Keys of the setup dialog; false when it is not open. */
static bool setup_key(struct gt_dashboard *d, int ch)
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

/* The signal menu for the selected process, bound to it: rows move while
 * the menu is open. */
static void open_signal_menu(struct gt_dashboard *d, int unused)
{
	const struct gt_process *p = gt_dashboard_selected_process(d);
	(void)unused;
	/* Tagged processes: the signal goes to them all. */
	if (d->ntags > 0 && gt_dashboard_tags_bind(d) > 0) {
		gt_overlay_open(&d->ov, GT_OVERLAY_SIGNAL);
		return;
	}
	if (!p) {
		gt_dashboard_notice(d, "no process selected");
		return;
	}
	gt_sigtarget_bind(&d->sig, p);
	gt_overlay_open(&d->ov, GT_OVERLAY_SIGNAL);
}

static void open_overlay(struct gt_dashboard *d, int kind)
{
	gt_overlay_open(&d->ov, (enum gt_overlay_kind)kind);
}

static void open_filter(struct gt_dashboard *d, int unused)
{
	(void)unused;
	gt_overlay_open(&d->ov, GT_OVERLAY_FILTER);
	gt_copy_str(d->ov.input, sizeof(d->ov.input), d->pt.filter);
}

static void open_setup(struct gt_dashboard *d, int unused)
{
	(void)unused;
	gt_setup_open(&d->setup, d->opts->themes_dir);
	d->setup_open = true;
}

static void open_control(struct gt_dashboard *d, int kind)
{
	gt_dashboard_control_open(d, (enum gt_control_dialog_kind)kind);
}

/* A page of the process table up (dir -1) or down (1). */
static void move_page(struct gt_dashboard *d, int dir)
{
	move_selection(
	    d, dir * (d->layout.procs.h > 2 ? d->layout.procs.h - 2 : 1));
}

/* The first (dir -1) or the last (1) row. */
static void move_to_end(struct gt_dashboard *d, int dir)
{
	move_selection(d, dir * (int)d->norder);
}

static void scroll_sideways(struct gt_dashboard *d, int cells)
{
	if (cells < 0) {
		d->pt.hscroll =
		    d->pt.hscroll >= -cells ? d->pt.hscroll + cells : 0;
		return;
	}
	d->pt.hscroll += cells;
	gt_dashboard_clamp_hscroll(d);
}

static void sort_by_next(struct gt_dashboard *d, int step)
{
	d->pt.sort_start = false;
	d->pt.sort_col = (enum gt_proctable_col)(
	    (d->pt.sort_col + step + GT_COL__COUNT) % GT_COL__COUNT);
}

static void reverse_sort(struct gt_dashboard *d, int unused)
{
	(void)unused;
	d->pt.reverse = !d->pt.reverse;
}

static void toggle_device_filter(struct gt_dashboard *d, int unused)
{
	(void)unused;
	d->pt.device_filter =
	    d->pt.device_filter >= 0 ? -1 : gt_dashboard_selected_device(d);
	gt_dashboard_notice(d, d->pt.device_filter >= 0
	                           ? "processes of the selected GPU"
	                           : "processes of all GPUs");
}

static void toggle_follow(struct gt_dashboard *d, int unused)
{
	const struct gt_process *p = gt_dashboard_selected_process(d);
	(void)unused;
	if (d->pt.follow_pid)
		d->pt.follow_pid = 0;
	else if (p)
		d->pt.follow_pid = p->pid;
	gt_dashboard_notice(d, d->pt.follow_pid
	                           ? "following the selected process"
	                           : "not following");
}

static void next_glyphs(struct gt_dashboard *d, int unused)
{
	(void)unused;
	d->cfg.glyphs = (int)((gt_dashboard_glyphs(d) + 1) % GT_GLYPHS__COUNT);
	gt_dashboard_notice(d, gt_glyphs_name(gt_dashboard_glyphs(d)));
}

static void next_panel_mode(struct gt_dashboard *d, int unused)
{
	(void)unused;
	d->cfg.max_mode = (d->cfg.max_mode + 1) % 3;
	gt_dashboard_notice(d, d->cfg.max_mode == GT_GPU_FULL
	                           ? "panels: automatic"
	                       : d->cfg.max_mode == GT_GPU_COMPACT
	                           ? "panels: compact"
	                           : "panels: one line per GPU");
}

static void toggle_processes(struct gt_dashboard *d, int unused)
{
	(void)unused;
	d->cfg.show_processes = !d->cfg.show_processes;
}

static void toggle_fahrenheit(struct gt_dashboard *d, int unused)
{
	(void)unused;
	d->cfg.fahrenheit = !d->cfg.fahrenheit;
}

/* Twice (dir 1) or half (-1) as long. */
static void scale_interval(struct gt_dashboard *d, int dir)
{
	set_interval(d, dir > 0 ? d->interval_ns * 2 : d->interval_ns / 2);
}

/* htop's M, P (and the sort list): one column, in its natural order. */
static void sort_by(struct gt_dashboard *d, int col)
{
	char msg[64];
	d->pt.sort_col = (enum gt_proctable_col)col;
	d->pt.reverse = false;
	d->pt.sort_start = false;
	snprintf(msg, sizeof(msg), "sorted by %s",
	         gt_proctable_cols[col].header);
	gt_dashboard_notice(d, msg);
}

/* htop's T: by start time, the oldest first (r: the newest). */
static void sort_by_start(struct gt_dashboard *d, int unused)
{
	(void)unused;
	d->pt.sort_start = true;
	d->pt.reverse = false;
	gt_dashboard_notice(d, "sorted by start time, the oldest first");
}

enum { PICK_SORT, PICK_USER };

/* F6: the columns to sort by, the current one highlighted. */
static void open_sort_list(struct gt_dashboard *d, int unused)
{
	(void)unused;
	gt_picklist_open(&d->pick, "Sort by (Enter picks, Esc cancels)",
	                 (int)d->pt.sort_col);
	for (int c = 0; c < GT_COL__COUNT; c++)
		gt_picklist_add(&d->pick, gt_proctable_cols[c].header);
	d->pick_for = PICK_SORT;
}

/* u: "all users", then each user with processes in the list, once. */
static void open_user_list(struct gt_dashboard *d, int unused)
{
	const struct gt_proclist *pl = d->view.procs;
	char text[48];
	(void)unused;
	gt_picklist_open(&d->pick, "Show the processes of", 0);
	gt_picklist_add(&d->pick, "all users");
	d->pick_uids[0] = 0;
	for (size_t i = 0; pl && i < pl->count; i++) {
		const struct gt_process *p = &pl->items[i];
		bool seen = false;
		if (!p->host_known)
			continue;
		for (int k = 1; k < d->pick.n && !seen; k++)
			seen = d->pick_uids[k] == p->uid;
		if (seen)
			continue;
		if (p->user[0])
			gt_text_escape(text, sizeof(text), p->user,
			               strlen(p->user));
		else
			snprintf(text, sizeof(text), "%" PRIu32, p->uid);
		if (!gt_picklist_add(&d->pick, text))
			break;
		d->pick_uids[d->pick.n - 1] = p->uid;
		if (d->pt.user_filter_on && p->uid == d->pt.user_filter)
			d->pick.choice = d->pick.n - 1;
	}
	d->pick_for = PICK_USER;
}

/* The list's keys; false when it is not open. */
static bool pick_key(struct gt_dashboard *d, int ch)
{
	enum gt_picklist_result r = gt_picklist_key(&d->pick, ch);
	if (r == GT_PICKLIST_NOT_OPEN)
		return false;
	if (r != GT_PICKLIST_PICKED)
		return true;
	int k = d->pick.choice;
	if (d->pick_for == PICK_SORT) {
		sort_by(d, k);
	} else if (k == 0) {
		d->pt.user_filter_on = false;
		gt_dashboard_notice(d, "processes of all users");
	} else {
		d->pt.user_filter_on = true;
		d->pt.user_filter = d->pick_uids[k];
		gt_copy_str(d->pick_user, sizeof(d->pick_user),
		            d->pick.items[k]);
	}
	return true;
}

/* F3: the search prompt, with the last search. */
static void open_search(struct gt_dashboard *d, int unused)
{
	(void)unused;
	gt_overlay_open(&d->ov, GT_OVERLAY_SEARCH);
	gt_copy_str(d->ov.input, sizeof(d->ov.input), d->search);
	d->search_missed = false;
}

/* Selects the first matching row from the selected one (next: from the
 * one after it), wrapping; hides nothing. */
static void search_jump(struct gt_dashboard *d, bool next)
{
	const struct gt_proclist *pl = d->view.procs;
	gt_copy_str(d->search, sizeof(d->search), d->ov.input);
	int from = d->pt.selected < 0 ? 0 : d->pt.selected + (next ? 1 : 0);
	int r = gt_proctable_filter_search(pl ? pl->items : NULL, d->order,
	                                   d->norder, from, d->search);
	d->search_missed = d->search[0] && r < 0;
	if (r < 0)
		return;
	d->pt.follow_pid = 0;
	d->pt.selected = r;
	d->pt.selected_pid = 0;
}

static void tag_key(struct gt_dashboard *d, int what)
{
	if (what == 0) {
		gt_dashboard_tag_toggle(d);
		move_selection(d, 1); /* as htop: on to the next row */
	} else if (what == 1) {
		gt_dashboard_tag_children(d);
	} else {
		gt_dashboard_untag_all(d);
	}
}

/* Enter: the selected process's detail view. */
static void open_detail(struct gt_dashboard *d, int unused)
{
	const struct gt_process *p = gt_dashboard_selected_process(d);
	(void)unused;
	if (!p) {
		gt_dashboard_notice(d, "no process selected");
		return;
	}
	gt_procview_open(&d->pview, p);
}

/* t, F5: the table as a tree of processes, or flat. */
static void toggle_tree(struct gt_dashboard *d, int unused)
{
	(void)unused;
	d->tree = !d->tree;
	gt_dashboard_notice(d, d->tree ? "tree: processes under their parents"
	                               : "flat list");
}

/* Esc: every filter of the table off (text, GPU, user). */
static void clear_filters(struct gt_dashboard *d, int unused)
{
	(void)unused;
	if (!d->pt.filter[0] && d->pt.device_filter < 0 &&
	    !d->pt.user_filter_on)
		return;
	d->pt.filter[0] = '\0';
	d->filter_err[0] = '\0';
	d->pt.device_filter = -1;
	d->pt.user_filter_on = false;
	gt_dashboard_notice(d, "filters cleared");
}

static void redraw(struct gt_dashboard *d, int unused)
{
	(void)d;
	(void)unused;
	clearok(curscr, TRUE);
}

/*
 * The dashboard's keys, in the order the help window lists them: the keys
 * of a binding, what they do (run(d, arg); run NULL quits) and the help
 * window's line for them, so the help cannot drift from what the keys do.
 * `keys` is how the help names the keys; a binding with no help shares the
 * line of the one above it (S-Tab [ is on Tab's line), and one with help
 * but no `keys` (the mouse) is a paragraph of its own after the keys.
 * Every function key has a letter too: some terminals never deliver
 * F-keys. The open dialog, the filter line and the signal menu see each
 * key first, with keys of their own (overlay.c, setup.c,
 * control_dialog.c).
 */
struct binding {
	int key[3]; /* 0: no more */
	int arg;
	void (*run)(struct gt_dashboard *d, int arg);
	const char *keys;
	const char *help;
};

/* Laid out by hand, two lines a binding: what its keys do, then what the
 * help says about them. */
/* clang-format off */
static const struct binding bindings[] = {
    {{'q', 'Q', KEY_F(10)}, 0, NULL,
     "q  F10", "quit"},
    {{'?', 'h', KEY_F(1)}, GT_OVERLAY_HELP, open_overlay,
     "?  h  F1", "this help"},
    {{'e'}, GT_OVERLAY_EXPLAIN, open_overlay,
     "e", "why N/A: the selected GPU's and process's reasons"},
    {{'o', KEY_F(2)}, 0, open_setup,
     "o  F2", "setup (w in it saves the settings file)"},
    {{'s'}, 0, save_snapshot,
     "s", "save a JSON snapshot"},
    {{'\t', ']'}, 1, select_gpu,
     "Tab ]  S-Tab [", "select the next / previous GPU"},
    {{KEY_BTAB, '['}, -1, select_gpu,
     NULL, NULL},
    {{'m'}, 0, next_panel_mode,
     "m", "panels: automatic, compact, one line per GPU"},
    {{'g'}, 0, next_glyphs,
     "g", "graph symbols: braille, block, ascii"},
    {{'C'}, 0, toggle_fahrenheit,
     "C", "temperatures in Celsius / Fahrenheit"},
    {{'+'}, 1, scale_interval,
     "+ -", "sampling interval twice / half as long"},
    {{'-'}, -1, scale_interval,
     NULL, NULL},
    {{'p'}, GT_CONTROL_DIALOG_POWER, open_control,
     "p", "power dialog: limit, mode, profile (selected GPU)"},
    {{'f'}, GT_CONTROL_DIALOG_FAN, open_control,
     "f", "fan dialog: curve, presets, automatic"},
    {{'v'}, 0, toggle_processes,
     "v", "show / hide the process table"},
    {{KEY_UP, 'k'}, -1, move_selection,
     "Up Down j k", "select a process (PgUp PgDn Home End)"},
    {{KEY_DOWN, 'j'}, 1, move_selection,
     NULL, NULL},
    {{KEY_PPAGE}, -1, move_page,
     NULL, NULL},
    {{KEY_NPAGE}, 1, move_page,
     NULL, NULL},
    {{KEY_HOME}, -1, move_to_end,
     NULL, NULL},
    {{KEY_END}, 1, move_to_end,
     NULL, NULL},
    {{KEY_LEFT}, -8, scroll_sideways,
     "Left Right", "scroll command lines sideways"},
    {{KEY_RIGHT}, 8, scroll_sideways,
     NULL, NULL},
    {{'>'}, 1, sort_by_next,
     "> <", "sort by the next / previous column"},
    {{'<'}, -1, sort_by_next,
     NULL, NULL},
    {{KEY_F(6)}, 0, open_sort_list,
     "F6", "pick the column to sort by from a list"},
    {{'M'}, GT_COL_VRAM, sort_by,
     "M", "sort by VRAM"},
    {{'P'}, GT_COL_GPU, sort_by,
     "P", "sort by GPU %"},
    {{'T'}, 0, sort_by_start,
     "T", "sort by start time, the oldest first"},
    {{'r'}, 0, reverse_sort,
     "r", "reverse the sort"},
    {{'/', KEY_F(4)}, 0, open_filter,
     "/  F4", "filter processes (Ctrl-R: regular expression)"},
    {{KEY_F(3)}, 0, open_search,
     "F3", "search: select the next match, hide nothing"},
    {{'u'}, 0, open_user_list,
     "u", "show one user's processes (a list; all users)"},
    {{27 /* Esc */}, 0, clear_filters,
     "Esc", "clear the table's filters (text, GPU, user)"},
    {{'t', KEY_F(5)}, 0, toggle_tree,
     "t  F5", "tree: processes under their parents, totals rolled up"},
    {{'d'}, 0, toggle_device_filter,
     "d", "processes of the selected GPU only / all GPUs"},
    {{'F'}, 0, toggle_follow,
     "F", "follow the selected process"},
    {{' '}, 0, tag_key,
     "Space", "tag / untag the selected process (and move down)"},
    {{'c'}, 1, tag_key,
     "c", "tag the selected process and its children"},
    {{'U'}, 2, tag_key,
     "U", "untag all"},
    {{'\n', '\r', KEY_ENTER}, 0, open_detail,
     "Enter", "the selected process in detail, with graphs (Esc back)"},
    {{'x', KEY_F(9)}, 0, open_signal_menu,
     "x  F9", "send a signal to the tagged processes, else the selected"},
    {{12 /* Ctrl-L */}, 0, redraw,
     "Ctrl-L", "redraw the screen"},
    {{KEY_MOUSE}, 0, handle_mouse,
     NULL, "Mouse: click a GPU panel, a process row or a column header;\n"
           "the wheel scrolls the GPU list or the process table under it."},
};
/* clang-format on */

enum { NBINDINGS = sizeof(bindings) / sizeof(bindings[0]) };

static const struct binding *binding_of(int ch)
{
	for (size_t i = 0; i < NBINDINGS; i++)
		for (size_t k = 0; k < 3 && bindings[i].key[k]; k++)
			if (bindings[i].key[k] == ch)
				return &bindings[i];
	return NULL;
}

static void help_add(struct gt_dashboard *d, const char *text, int len)
{
	if (d->nhelp == GT_DASHBOARD_HELP_LINES)
		return;
	snprintf(d->help_text[d->nhelp], sizeof(d->help_text[0]), "%.*s", len,
	         text);
	d->help[d->nhelp] = d->help_text[d->nhelp];
	d->nhelp++;
}

void gt_dashboard_help_build(struct gt_dashboard *d)
{
	char line[GT_DASHBOARD_HELP_CELLS];

	d->nhelp = 0;
	help_add(d, "Keys (letters work where F-keys do not reach)", -1);
	help_add(d, "", -1);
	for (size_t i = 0; i < NBINDINGS; i++) {
		const struct binding *b = &bindings[i];
		if (!b->help)
			continue;
		if (b->keys) {
			snprintf(line, sizeof(line), "  %-12s  %s", b->keys,
			         b->help);
			help_add(d, line, -1);
			continue;
		}
		help_add(d, "", -1);
		for (const char *p = b->help; *p;) {
			const char *nl = strchr(p, '\n');
			int n = nl ? (int)(nl - p) : (int)strlen(p);
			help_add(d, p, n);
			p += n + (nl != NULL);
		}
	}
	help_add(d, "", -1);
	help_add(d,
	         "Up Down PgUp PgDn Home End scroll; Esc or q closes this "
	         "window.",
	         -1);
}

/* The open overlay's share of a key; false when no overlay took it. */
static bool overlay_key(struct gt_dashboard *d, int ch)
{
	enum gt_overlay_result res = gt_overlay_key(&d->ov, ch);
	if ((d->sig.bound || d->nsigset > 0) &&
	    res != GT_OVERLAY_SIGNAL_CONFIRMED &&
	    d->ov.kind != GT_OVERLAY_SIGNAL &&
	    d->ov.kind != GT_OVERLAY_CONFIRM) {
		gt_sigtarget_release(&d->sig); /* the dialog was cancelled */
		gt_dashboard_tags_release(d);
	}
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
	case GT_OVERLAY_SEARCH_TYPED:
	case GT_OVERLAY_SEARCH_NEXT:
		search_jump(d, res == GT_OVERLAY_SEARCH_NEXT);
		return true;
	case GT_OVERLAY_NOT_CONSUMED:
		break;
	}
	return false;
}

bool gt_dashboard_key(struct gt_dashboard *d, int ch)
{
	if (gt_dashboard_control_key(d, ch) || setup_key(d, ch) ||
	    pick_key(d, ch) || overlay_key(d, ch) ||
	    gt_procview_key(&d->pview, ch))
		return true;
	const struct binding *b = binding_of(ch);
	if (!b) /* KEY_RESIZE, and keys that mean nothing here */
		return true;
	if (!b->run)
		return false;
	b->run(d, b->arg);
	return true;
}

/* SPDX-License-Identifier: MIT */
/*
 * dashboard.c - the ncurses dashboard's state and frame loop (see
 * dashboard.h); its keys are dashboard_input.c's, its status line
 * dashboard_status.c's and its wait dashboard_loop.c's. Owns the terminal from
 * gt_dashboard_run() until it returns. A frame goes through the widgets
 * (GPU panels, process table, overlays, dialogs) into stdscr, then one
 * doupdate(): ncurses sends only what changed. stdscr is never erased
 * between frames: paint's shadow hands ncurses only the cells that differ
 * from the last frame's.
 */
#include "ui/dashboard.h"

#include <curses.h>
#include <stddef.h>
#include <stdint.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "config/config.h"
#include "ui/dashboard_loop.h"
#include "ui/dashboard_priv.h"
#include "ui/layout.h"
#include "core/hash.h"
#include "core/model.h"
#include "ui/overlay.h"
#include "ui/paint.h"
#include "ui/panels.h"
#include "ui/proctable_draw.h"
#include "ui/setup.h"
#include "ui/statusline.h"
#include "core/text.h"
#include "ui/theme.h"
#include "core/view.h"

void gt_dashboard_notice(struct gt_dashboard *d, const char *msg)
{
	gt_copy_str(d->notice, sizeof(d->notice), msg);
	d->notice_until = gt_monotonic_ns() + 5000000000ull;
}

void gt_dashboard_notice_after(struct gt_dashboard *d, const char *msg)
{
	if (d->notice[0] && gt_monotonic_ns() < d->notice_until)
		gt_copy_str(d->notice_next, sizeof(d->notice_next), msg);
	else
		gt_dashboard_notice(d, msg);
}

bool gt_dashboard_notice_expire(struct gt_dashboard *d, uint64_t now)
{
	if (!d->notice[0] || now < d->notice_until)
		return false;
	d->notice[0] = '\0';
	if (d->notice_next[0]) {
		gt_dashboard_notice(d, d->notice_next);
		d->notice_next[0] = '\0';
	}
	return true;
}

enum gt_glyphs gt_dashboard_glyphs(const struct gt_dashboard *d)
{
	return d->cfg.glyphs < 0 ? d->auto_glyphs
	                         : (enum gt_glyphs)d->cfg.glyphs;
}

/* Device index of the selected GPU, -1 when none is shown. */
int gt_dashboard_selected_device(const struct gt_dashboard *d)
{
	int k = d->lopts.selected_gpu;
	return k >= 0 && k < d->nvis ? d->vis[k] : -1;
}

/* Seconds device i has given no sample, counted from the start when it
 * never gave one, once that is over three intervals (STALE or NO DATA);
 * 0 while its numbers are fresh. The interval is the one in force when
 * the next sample was due: the longer of the one the newest sample was
 * taken under and today's (gt_history_due_ns), so changing it with + or -
 * never makes a device look silent. The second of slack is the time a
 * round of sampling may take. */
static double device_silence(const struct gt_dashboard *d, size_t i,
                             uint64_t now, bool *never)
{
	const struct gt_history *h = &d->hist[i];
	uint64_t newest = gt_history_newest(h);
	uint64_t since = newest ? newest : d->started_ns;
	uint64_t due = gt_history_due_ns(h, 3);

	*never = !newest;
	if (!due)
		due = 3 * d->interval_ns;
	if (now <= since || now - since <= due + 1000000000ull)
		return 0;
	return (double)(now - since) / 1e9;
}

/* Which GPUs show (those not hidden in the settings), and the interval
 * each history judges its next sample against: called first in every
 * frame, so a change of interval reaches the histories before the samples
 * taken under it. */
static void update_visible(struct gt_dashboard *d)
{
	size_t n = d->view.devs ? d->view.devs->count : 0;
	for (size_t i = 0; i < d->nhist; i++)
		gt_history_set_interval(&d->hist[i], d->interval_ns);
	d->nvis = 0;
	for (size_t i = 0; i < n && i < d->nhist; i++)
		if (!gt_config_gpu_hidden(&d->cfg,
		                          d->view.devs->items[i].pci_bus_id))
			d->vis[d->nvis++] = (int)i;
	if (d->lopts.selected_gpu >= d->nvis)
		d->lopts.selected_gpu = d->nvis ? d->nvis - 1 : 0;
}

/* gputop's own CPU and memory in the status line are re-read this often
 * at most: after a second's sleep a getrusage and a read of
 * /proc/self/statm cost 4 and 12 us of CPU on a VM, 4 % of a whole round
 * at a 1 s interval for two numbers that move slowly (top refreshes its
 * own every 3 s). */
#define SELF_USAGE_NS 2000000000ull
/* The first CPU figure comes after half a second (until then the status
 * line shows none). */
#define SELF_USAGE_FIRST_NS 500000000ull

/* Whether gputop's own use is due to be read again. */
static bool self_usage_due(const struct gt_dashboard *d, uint64_t now)
{
	uint64_t every =
	    d->self_cpu_pct < 0 ? SELF_USAGE_FIRST_NS : SELF_USAGE_NS;
	return !d->self_wall_ns || now - d->self_wall_ns >= every;
}

static void update_self_usage(struct gt_dashboard *d)
{
	struct rusage ru;
	uint64_t now = gt_monotonic_ns();
	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return;
	uint64_t cpu = (uint64_t)ru.ru_utime.tv_sec * 1000000000ull +
	               (uint64_t)ru.ru_utime.tv_usec * 1000ull +
	               (uint64_t)ru.ru_stime.tv_sec * 1000000000ull +
	               (uint64_t)ru.ru_stime.tv_usec * 1000ull;
	if (d->self_wall_ns)
		d->self_cpu_pct = 100.0 * (double)(cpu - d->self_cpu_ns) /
		                  (double)(now - d->self_wall_ns);
	d->self_cpu_ns = cpu;
	d->self_wall_ns = now;
	char buf[128];
	if (d->statm_fd == -1) {
		int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
		d->statm_fd = fd >= 0 ? fd : -2;
	}
	ssize_t n =
	    d->statm_fd >= 0 ? pread(d->statm_fd, buf, sizeof(buf) - 1, 0) : -1;
	unsigned long long size, res;
	if (n > 0) {
		buf[n] = '\0';
		char *end;
		size = strtoull(buf, &end, 10);
		res = strtoull(end, &end, 10);
		if (size && res)
			d->self_rss =
			    (uint64_t)res * (uint64_t)sysconf(_SC_PAGESIZE);
	}
}

bool gt_dashboard_pull(struct gt_dashboard *d)
{
	bool changed = false;
	uint64_t now = gt_monotonic_ns();

	gt_view_refresh(&d->view);
	size_t n = d->view.devs ? d->view.devs->count : 0;
	for (size_t i = 0;
	     i < n && i < d->nhist && i < gt_collector_device_count(d->c); i++)
		if (gt_history_update(&d->hist[i],
		                      gt_collector_ring(d->c, i))) {
			d->last_new_ns[i] = now;
			changed = true;
		}
	if (d->view.procs && d->view.procs->seq != d->last_proc_seq) {
		d->last_proc_seq = d->view.procs->seq;
		changed = true;
	}
	if (changed)
		d->last_data_ns = now;
	return changed;
}

static void make_order(struct gt_dashboard *d, const struct gt_proclist *pl,
                       size_t n, bool ascii);

static void rebuild_order(struct gt_dashboard *d)
{
	const struct gt_proclist *pl = d->view.procs;
	size_t n = pl ? pl->count : 0;
	if (n > d->order_cap) {
		size_t *o = realloc(d->order, n * sizeof(*o));
		if (!o) {
			d->norder = 0;
			d->order_key = 0;
			return;
		}
		d->order = o;
		d->order_cap = n;
	}
	/* A new round: tags of processes gone (or pids reused) go. */
	if (pl && d->ntags > 0 && pl->seq != d->tags_seq) {
		gt_dashboard_tags_prune(d);
		d->tags_seq = pl->seq;
	}
	bool ascii = gt_dashboard_glyphs(d) == GT_GLYPHS_ASCII;
	/* The view follows from the round's list and the filter and sort
	 * fields of the table's state (those before follow_pid); a frame
	 * with the same ones keeps the order and tree made before. */
	uint64_t key =
	    gt_hash_bytes(GT_HASH_SEED, &d->pt,
	                  offsetof(struct gt_proctable_state, follow_pid));
	key = gt_hash_u64(key, (uint64_t)(uintptr_t)pl);
	key = gt_hash_u64(key, pl ? pl->seq : 0);
	key = gt_hash_u64(key, (uint64_t)n << 2 | (uint64_t)d->tree << 1 |
	                           (uint64_t)ascii);
	if (key != d->order_key || !d->order_key)
		make_order(d, pl, n, ascii);
	d->order_key = key;
	int visible = d->layout.procs.h > 1 ? d->layout.procs.h - 1 : 1;
	d->follow_lost = !gt_proctable_update_selection(
	    &d->pt, pl ? pl->items : NULL, d->order, d->norder, visible);
}

/* The table's rows in view order (and as a tree, in tree view). */
static void make_order(struct gt_dashboard *d, const struct gt_proclist *pl,
                       size_t n, bool ascii)
{
	d->norder = n ? gt_proctable_view(pl->items, n, &d->pt, d->order,
	                                  d->filter_err, sizeof(d->filter_err))
	              : 0;
	if (d->tree && d->norder > d->tree_cap) {
		void *t =
		    realloc(d->tree_rows, d->norder * sizeof(*d->tree_rows));
		if (t) {
			d->tree_rows = t;
			d->tree_cap = d->norder;
		}
	}
	/* In view order under their parents; flat when memory is short. */
	d->tree_ok = d->tree && d->norder <= d->tree_cap &&
	             gt_proctree_build(pl->items, d->order, d->norder,
	                               d->tree_rows, ascii) == 0;
}

size_t gt_dashboard_process_count(const struct gt_dashboard *d)
{
	return d->view.procs ? d->view.procs->count : 0;
}

const struct gt_process *
gt_dashboard_selected_process(const struct gt_dashboard *d)
{
	if (!d->view.procs || d->pt.selected < 0 ||
	    (size_t)d->pt.selected >= d->norder)
		return NULL;
	return &d->view.procs->items[d->order[d->pt.selected]];
}

/* Title: what this is and how many GPUs, then the machine's name at the
 * right (which of several ssh sessions this is); the clock lives in the
 * status line. */
static void draw_title(struct gt_dashboard *d)
{
	struct gt_rect r = d->layout.title;
	char buf[256];
	size_t n = d->view.devs ? d->view.devs->count : 0;
	bool demo = false;
	for (size_t i = 0; i < n; i++)
		demo = demo || d->view.devs->items[i].demo;
	snprintf(buf, sizeof(buf), "gputop %s  %zu GPU%s", GPUTOP_VERSION, n,
	         n == 1 ? "" : "s");
	int x = gt_paint_put(stdscr, r, 0, 0, d->pal.role[GT_ROLE_TITLE], buf);
	if (demo)
		x += 2 + gt_paint_put(
		             stdscr, r, 0, x + 2, d->pal.role[GT_ROLE_DEMO],
		             " DEMO: simulated GPUs, not real hardware ");
	int hw = gt_paint_cells(d->host);
	if (hw > 0 && x + 2 + hw <= r.w)
		gt_paint_put(stdscr, r, 0, r.w - hw, d->pal.role[GT_ROLE_MAIN],
		             d->host);
}

/* The right end of device i's graphs: the end of the sample column that
 * holds its newest sample, so columns stay put between samples and a
 * fresh sample adds a column; while the device is silent, now, so the
 * silence shows as an empty stretch growing at the right. */
static uint64_t graph_end(const struct gt_dashboard *d, size_t i, uint64_t now,
                          bool late)
{
	uint64_t t = late ? now : gt_history_newest(&d->hist[i]);
	uint64_t col = d->interval_ns;

	return col ? (t / col + 1) * col : t;
}

/* A hash of what the chrome (boxes, column names) depends on: the
 * rectangles, the mode, the selected panel and the glyphs. */
static uint64_t chrome_key(const struct gt_dashboard *d)
{
	uint64_t h = GT_HASH_SEED;
	const struct gt_layout *l = &d->layout;
	int glyphs = (int)gt_dashboard_glyphs(d);
	const void *parts[] = {
	    l->frames, &l->nframes, &l->mode, d->rects, &d->lopts.selected_gpu,
	    &glyphs};
	const size_t sizes[] = {sizeof(l->frames),
	                        sizeof(l->nframes),
	                        sizeof(l->mode),
	                        sizeof(*d->rects) * (size_t)d->nvis,
	                        sizeof(d->lopts.selected_gpu),
	                        sizeof(glyphs)};
	for (size_t p = 0; p < sizeof(parts) / sizeof(parts[0]); p++)
		h = gt_hash_bytes(h, parts[p], sizes[p]);
	return h;
}

static void draw_gpus(struct gt_dashboard *d, bool chrome)
{
	uint64_t now = gt_monotonic_ns();
	char changed[64];

	gt_paint_chrome(chrome);
	for (int f = 0; chrome && f < d->layout.nframes; f++)
		gt_panels_draw_frame(stdscr, d->layout.frames[f], &d->pal,
		                     gt_dashboard_glyphs(d));
	gt_paint_chrome(false);
	for (int k = 0; k < d->nvis; k++) {
		struct gt_rect r = d->rects[k];
		size_t i = (size_t)d->vis[k];
		if (r.w <= 0 || r.h <= 0)
			continue;
		/* Say the numbers are old, or that there are none yet (a
		 * driver hung from the start). */
		bool never;
		bool late = device_silence(d, i, now, &never) > 0;
		gt_dashboard_control_badge(d, i, changed, sizeof(changed));
		struct gt_panel_data pd = {
		    .st = &d->view.devs->items[i],
		    .s = &d->view.latest[i],
		    .hist = &d->hist[i],
		    .cols = &d->hcols[i * GT_SERIES__COUNT],
		    .pal = &d->pal,
		    .glyphs = gt_dashboard_glyphs(d),
		    .col_ns = d->interval_ns,
		    .end_ns = graph_end(d, i, now, late),
		    .changed = changed,
		    .selected = k == d->lopts.selected_gpu,
		    .fahrenheit = d->cfg.fahrenheit,
		    .stale = late && !never,
		    .no_data = late && never,
		    .chrome = chrome,
		};
		if (d->view.procs)
			pd.mig = gt_panels_mig_of(d->view.procs->mig,
			                          d->view.procs->mig_count,
			                          (unsigned)i, &pd.nmig);
		gt_panels_draw_gpu(stdscr, r, d->layout.mode, &pd);
	}
}

static void draw_processes(struct gt_dashboard *d)
{
	char note[192] = "";
	int32_t tagged[GT_DASHBOARD_MAX_TAGS];
	for (int i = 0; i < d->ntags; i++)
		tagged[i] = d->tags[i].pid;
	gt_proctable_widths_sorted(d->layout.procs.w, d->cfg.columns,
	                           d->pt.sort_col, d->widths);
	/* Rows and widths change under a scrolled table. */
	gt_dashboard_clamp_hscroll(d);
	if (d->pt.device_filter >= 0)
		snprintf(note, sizeof(note), " GPU %d only ",
		         d->pt.device_filter);
	if (d->pt.user_filter_on) {
		size_t k = strlen(note);
		snprintf(note + k, sizeof(note) - k, " user %.32s ",
		         d->pick_user);
	}
	if (d->pt.filter[0]) {
		size_t k = strlen(note);
		snprintf(note + k, sizeof(note) - k, " %s: %.40s ",
		         d->pt.filter_is_regex ? "regex" : "filter",
		         d->pt.filter);
	}
	if (note[0]) {
		size_t k = strlen(note);
		snprintf(note + k, sizeof(note) - k, " Esc clears ");
	}
	if (d->pt.sort_start) {
		size_t k = strlen(note);
		snprintf(note + k, sizeof(note) - k, " by start time %s ",
		         d->pt.reverse ? "^" : "v");
	}
	if (d->view.procs->unreadable) {
		size_t k = strlen(note);
		snprintf(note + k, sizeof(note) - k, " %zu unreadable ",
		         d->view.procs->unreadable);
	}
	struct gt_table_data td = {
	    .procs = d->view.procs->items,
	    .order = d->order,
	    .count = d->norder,
	    .st = &d->pt,
	    .pal = &d->pal,
	    .widths = d->widths,
	    .note = note[0] ? note : NULL,
	    .tree = d->tree_ok ? d->tree_rows : NULL,
	    .tagged = tagged,
	    .ntagged = d->ntags,
	};
	gt_proctable_draw(stdscr, d->layout.procs, &td);
}

/* What is drawn over the screen: an overlay (help, why N/A, the signal
 * menu), the setup dialog, a control dialog. */
static void draw_dialogs(struct gt_dashboard *d)
{
	int sel = gt_dashboard_selected_device(d);
	struct gt_overlay_ctx octx = {
	    .pal = &d->pal,
	    .view = &d->view,
	    .selected_gpu = sel,
	    /* The confirmation names the process the dialog is bound to,
	     * whatever row is selected by now. */
	    .process =
	        d->sig.bound ? &d->sig.row : gt_dashboard_selected_process(d),
	    .help = d->help,
	    .nhelp = d->nhelp,
	    .targets = d->sigset_lines,
	    .ntargets = d->nsigset,
	};
	if (sel >= 0)
		octx.silent_s = device_silence(
		    d, (size_t)sel, gt_monotonic_ns(), &octx.never_sampled);
	gt_overlay_draw(stdscr, &d->ov, &octx);
	gt_picklist_draw(stdscr, &d->pick, &d->pal);
	if (d->setup_open)
		gt_setup_draw(stdscr, &d->setup, &d->cfg, d->view.devs, &d->pal,
		              d->cfg_path);
	gt_dashboard_control_draw(d);
}

/* One whole frame into stdscr, sent to the terminal. */
static void draw_frame(struct gt_dashboard *d)
{
	int rows, cols;
	getmaxyx(stdscr, rows, cols);

	update_visible(d);
	d->lopts.show_processes = d->cfg.show_processes;
	d->lopts.show_graphs = d->cfg.show_graphs;
	d->lopts.max_mode = (enum gt_gpu_mode)d->cfg.max_mode;
	/* The table takes the rows it needs (its header, its rows as of the
	 * last frame, or the "no processes" line) and the graphs the rest;
	 * once the user moves down the table, it comes first. Rows it no
	 * longer needs go back after a while, unless the user's view of it
	 * changed (gt_layout_table_rows). */
	int need = 1 + (d->norder ? (int)d->norder : 1);
	uint64_t view =
	    gt_hash_bytes(GT_HASH_SEED, &d->pt,
	                  offsetof(struct gt_proctable_state, follow_pid));
	view = gt_hash_u64(view, (uint64_t)d->tree);
	d->lopts.proc_rows =
	    gt_layout_table_rows(&d->table_hold, need, view, gt_monotonic_ns());
	d->lopts.table_focus = d->pt.selected > 0;
	/* The layout follows from the size, the GPUs shown and the options
	 * alone: most frames reuse the last one. */
	if (!d->layout_valid || d->layout_cols != cols ||
	    d->layout_rows != rows || d->layout_nvis != d->nvis ||
	    !gt_layout_opts_equal(&d->layout_opts, &d->lopts)) {
		d->layout.gpus = d->rects;
		gt_layout_compute(cols, rows, d->nvis, &d->lopts, &d->layout);
		d->lopts.first_gpu_hint = d->layout.gpu_first;
		d->layout_opts = d->lopts;
		d->layout_cols = cols;
		d->layout_rows = rows;
		d->layout_nvis = d->nvis;
		d->layout_valid = true;
	}
	rebuild_order(d);
	d->drawn_second = (long long)time(NULL);

	bool chrome = gt_paint_begin(stdscr, chrome_key(d));
	if (d->layout.too_small) {
		gt_paint_put(stdscr, d->layout.status, 0, 0,
		             d->pal.role[GT_ROLE_WARN], d->layout.message);
		gt_paint_end(stdscr);
		wnoutrefresh(stdscr);
		doupdate();
		return;
	}
	draw_title(d);
	draw_gpus(d, chrome);
	if (d->layout.procs.h > 0 && d->view.procs)
		draw_processes(d);
	gt_dashboard_draw_status(d);
	/* Dialogs come after the sweep: their boxes are curses lines that
	 * the shadow does not know, so it must not blank anything after. */
	gt_paint_end(stdscr);
	if (d->pview.open) {
		struct gt_procview_ctx pc = {
		    .procs = d->view.procs,
		    .devs = d->view.devs,
		    .hist = d->view.collector
		                ? gt_collector_prochist(d->view.collector)
		                : NULL,
		    .pal = &d->pal,
		    .glyphs = gt_dashboard_glyphs(d),
		    .now_ns = gt_monotonic_ns(),
		    .now = time(NULL),
		};
		gt_procview_draw(stdscr, (struct gt_rect){0, 0, cols, rows - 1},
		                 &d->pview, &pc);
	}
	draw_dialogs(d);
	wnoutrefresh(stdscr);
	doupdate();
}

void gt_dashboard_draw(struct gt_dashboard *d)
{
	bool count = d->opts->count_frames && d->view.collector;
	uint64_t cpu = count ? gt_thread_cpu_ns() : 0;
	draw_frame(d);
	d->frames++;
	/* What make bench's render figure measures, counted for --listen's
	 * gputop_dashboard_* series. */
	if (count)
		gt_collector_count_frame(d->view.collector,
		                         gt_thread_cpu_ns() - cpu);
}

void gt_dashboard_load_theme(struct gt_dashboard *d)
{
	char path[GT_THEME_DIR_MAX], err[300], msg[600], name[240];
	const char *want = d->cfg.theme;
	bool by_path = strchr(want, '/') != NULL;

	gt_theme_default(&d->theme);
	d->setup.theme_want = want;
	d->setup.theme_shown = d->theme_shown;
	gt_copy_str(d->theme_shown, sizeof(d->theme_shown), "built-in");
	if (!want[0])
		return;
	/* What the user typed, made safe to print; a path keeps its end. */
	size_t n = strlen(want), keep = n > 200 ? 200 : n;
	gt_text_escape(name, sizeof(name), want + n - keep, keep);
	/* A path is read as it is, so that its error says why it failed. */
	if (!by_path &&
	    gt_theme_find(want, d->opts->themes_dir, path, sizeof(path)) != 0) {
		snprintf(msg, sizeof(msg),
		         "theme '%s' not found (looked in --themes-dir, "
		         "~/.config/gputop/themes, ~/.config/btop/themes and "
		         "gputop's own themes): using the built-in one",
		         name);
		gt_dashboard_notice_after(d, msg);
		snprintf(d->theme_shown, sizeof(d->theme_shown),
		         "built-in (%s not found)", name);
		return;
	}
	if (by_path)
		gt_copy_str(path, sizeof(path), want);
	if (gt_theme_load_file(path, &d->theme, err, sizeof(err)) != 0) {
		snprintf(msg, sizeof(msg), "theme %s: using the built-in one",
		         err);
		gt_dashboard_notice_after(d, msg);
		snprintf(d->theme_shown, sizeof(d->theme_shown),
		         "built-in (%s unreadable)", name);
		return;
	}
	gt_copy_str(d->theme_shown, sizeof(d->theme_shown), name);
	if (d->theme.nwarn) {
		snprintf(msg, sizeof(msg), "theme %.300s:%d: %.200s", path,
		         d->theme.warn[0].line, d->theme.warn[0].msg);
		gt_dashboard_notice_after(d, msg);
	}
}

static int setup(struct gt_dashboard *d)
{
	size_t n = gt_collector_device_count(d->c);
	char err[512], buf[256];

	gt_proctable_state_init(&d->pt);
	gt_sigtarget_init(&d->sig);
	gt_config_defaults(&d->cfg);
	if (gethostname(buf, sizeof(buf)) == 0) {
		buf[sizeof(buf) - 1] = '\0';
		gt_text_escape(d->host, sizeof(d->host), buf, strlen(buf));
	}
	if (gt_config_default_path(d->cfg_path, sizeof(d->cfg_path)) != 0)
		snprintf(d->cfg_path, sizeof(d->cfg_path), "gputop.conf");
	/* A file with problems is reported and kept as it is: only `w` in
	 * the setup dialog writes it. */
	if (gt_config_load(d->cfg_path, &d->cfg, err, sizeof(err)) != 0) {
		char msg[800];
		snprintf(msg, sizeof(msg),
		         "settings: %.500s (not used: the line's setting "
		         "keeps its default, a profile with a problem is not "
		         "applied; the file is left as it is)",
		         err);
		gt_dashboard_notice(d, msg);
		d->notice_until += 10000000000ull;
	}
	/* The command line wins over the file. */
	if (d->opts->interval_given || !d->cfg.interval_ns)
		d->cfg.interval_ns = d->opts->interval_ns
		                         ? d->opts->interval_ns
		                         : GT_INTERVAL_DEFAULT_NS;
	if (d->opts->theme)
		gt_copy_str(d->cfg.theme, sizeof(d->cfg.theme), d->opts->theme);
	d->pt.sort_col = (enum gt_proctable_col)d->cfg.sort_col;
	d->pt.reverse = d->cfg.sort_reverse;
	d->interval_ns = d->cfg.interval_ns;
	gt_collector_set_interval(d->c, d->interval_ns);
	d->nhist = n;
	d->hist = calloc(n ? n : 1, sizeof(*d->hist));
	d->hcols = calloc((n ? n : 1) * GT_SERIES__COUNT, sizeof(*d->hcols));
	d->last_new_ns = calloc(n ? n : 1, sizeof(*d->last_new_ns));
	d->started_ns = gt_monotonic_ns();
	d->rects = calloc(n ? n : 1, sizeof(*d->rects));
	d->vis = calloc(n ? n : 1, sizeof(*d->vis));
	if (!d->hist || !d->hcols || !d->last_new_ns || !d->rects || !d->vis)
		return -1;
	for (size_t i = 0; i < n; i++)
		gt_history_init(&d->hist[i]);
	if (gt_view_open(&d->view, d->c) < 0)
		return -1;
	gt_dashboard_load_theme(d);
	return 0;
}

static void teardown(struct gt_dashboard *d)
{
	gt_sigtarget_release(&d->sig);
	gt_dashboard_tags_release(d);
	free(d->hist);
	free(d->hcols);
	free(d->last_new_ns);
	free(d->rects);
	free(d->vis);
	free(d->order);
	gt_paint_release(); /* the shadow of the screen it drew */
	free(d->tree_rows);
	if (d->statm_fd >= 0)
		close(d->statm_fd);
}

struct gt_dashboard *gt_dashboard_open(struct gt_collector *c,
                                       const struct gt_dashboard_opts *o)
{
	struct gt_dashboard *d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->c = c;
	d->opts = o;
	d->view.dev_slot = d->view.proc_slot = -1;
	d->statm_fd = -1;
	d->self_cpu_pct = -1; /* not measured yet */
	if (setup(d) < 0) {
		teardown(d);
		free(d);
		return NULL;
	}
	gt_dashboard_help_build(d);
	return d;
}

void gt_dashboard_attach(struct gt_dashboard *d,
                         const struct gt_dashboard_screen *scr)
{
	d->auto_glyphs = scr->glyphs;
	if (scr->glyphs_fixed)
		d->cfg.glyphs = -1; /* auto, which is now scr->glyphs */
	gt_palette_init(&d->pal, &d->theme, scr->tier);
	/* ncurses flushes its output after every cursor move until the
	 * screen has once been suspended (endwin) and resumed (the next
	 * doupdate): a frame of 20 changed places was 20 writes. Suspending
	 * it here, before anything is drawn, makes the first frame resume
	 * it (a full paint, as a first frame is anyway), and from then on
	 * each frame is one write. */
	endwin();
	/* Input is read by the loop's ppoll, not looked for in the middle
	 * of an update (a poll per line); lines are rewritten, never
	 * shifted by inserted or deleted characters, so doupdate need not
	 * weigh that. */
	typeahead(-1);
	idcok(stdscr, FALSE);
}

void gt_dashboard_close(struct gt_dashboard *d)
{
	if (!d)
		return;
	gt_dashboard_control_end(d);
	gt_view_close(&d->view);
	teardown(d);
	free(d);
}

/* When the loop must wake with nothing new arriving (dashboard_loop.h):
 * the clock's next second, the notice's end, the countdown's next step. */
static uint64_t next_wake(const struct gt_dashboard *d)
{
	struct timespec wall;
	clock_gettime(CLOCK_REALTIME, &wall);
	struct gt_dashboard_loop_times t = {
	    .now_ns = gt_monotonic_ns(),
	    .wall_ns =
	        (uint64_t)wall.tv_sec * 1000000000ull + (uint64_t)wall.tv_nsec,
	    .interval_ns = d->interval_ns,
	    .last_data_ns = d->last_data_ns,
	    .notice_until_ns = d->notice[0] ? d->notice_until : 0,
	    .countdown_ns = gt_dashboard_control_wake_ns(d),
	};
	return gt_dashboard_loop_deadline(&t);
}

/* Whether a wake-up for the clock's second may redraw the status line
 * alone: nothing else on screen moves with time. It does while a device
 * is silent (its STALE label and graph follow the clock), and under an
 * overlay, the setup or a control dialog (a countdown, the time a device
 * has been silent, drawn over the status line on a small screen). */
static bool only_clock_moves(const struct gt_dashboard *d)
{
	uint64_t now = gt_monotonic_ns();
	bool never;

	if ((d->ov.kind != GT_OVERLAY_NONE && d->ov.kind != GT_OVERLAY_FILTER &&
	     d->ov.kind != GT_OVERLAY_SEARCH) ||
	    d->setup_open || d->dlg.open || d->pick.open || d->pview.open)
		return false;
	for (int k = 0; k < d->nvis; k++)
		if (device_silence(d, (size_t)d->vis[k], now, &never) > 0)
			return false;
	return true;
}

/* Redraw when new data arrives, a key is pressed, the terminal is resized
 * or the clock's second changes: with a hung driver no data arrives, and
 * the ticking clock and STALE labels are how the user sees it. In between
 * the loop sleeps (gt_dashboard_loop_wait): no timer wakes it. A new
 * second with nothing else new redraws the status line alone. */
static void frame_loop(struct gt_dashboard *d, volatile sig_atomic_t *stop)
{
	struct gt_dashboard_loop lp;
	bool dirty = true;
	bool keys = true; /* getch may have a key to give */

	timeout(0); /* getch never waits: the loop's wait does */
	gt_dashboard_loop_begin(&lp, STDIN_FILENO,
	                        gt_collector_notify_fd(d->c));
	d->restore_offer =
	    d->opts->ctl && gt_control_session_pending(d->opts->ctl) > 0;
	while (!*stop) {
		/* Cleared before the pull: a round that ends after it
		 * signals again, so none is missed. */
		gt_collector_notify_clear(d->c);
		if (gt_dashboard_pull(d))
			dirty = true;
		if (gt_dashboard_control_poll(d))
			dirty = true;
		if (gt_dashboard_notice_expire(d, gt_monotonic_ns()))
			dirty = true;
		bool tick = (long long)time(NULL) != d->drawn_second;
		if ((dirty || tick) && self_usage_due(d, gt_monotonic_ns()))
			update_self_usage(d);
		if (dirty || (tick && !only_clock_moves(d)))
			gt_dashboard_draw(d);
		else if (tick)
			gt_dashboard_draw_clock(d);
		dirty = false;
		int ch = keys ? getch() : ERR;
		if (ch != ERR) {
			dirty = true;
			if (!gt_dashboard_key(d, ch))
				break;
			continue;
		}
		/* A resize or a stop signal interrupts the wait: getch then
		 * says KEY_RESIZE, or *stop is set. A terminal that hung up
		 * ends the dashboard as its SIGHUP would. */
		int woke = gt_dashboard_loop_wait(&lp, next_wake(d));
		if (woke & GT_DASHBOARD_LOOP_HANGUP)
			break;
		/* Read after any wake: a Ctrl-Z before the loop began set
		 * it without interrupting a wait. */
		if (gt_dashboard_term_tstp_due()) {
			gt_dashboard_term_suspend();
			dirty = true;
		}
		/* A wake for new data or the clock alone has no key: getch
		 * (a poll of the terminal, 4 us after a second's sleep) is
		 * skipped. curses holds no key back once getch said ERR, and
		 * a resize comes as a signal. */
		keys = woke == 0 || (woke & ~(GT_DASHBOARD_LOOP_DATA |
		                              GT_DASHBOARD_LOOP_DEADLINE)) != 0;
	}
	gt_dashboard_loop_end(&lp);
}

int gt_dashboard_run(struct gt_collector *c, const struct gt_dashboard_opts *o,
                     volatile sig_atomic_t *stop)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "gputop: the dashboard needs a terminal; use "
		                "--snapshot for JSON output\n");
		return -1;
	}
	/* TERM=dumb (or unset, or unknown) would give junk or curses' own
	 * exit: say why and what to use instead. */
	char why[512];
	if (gt_palette_term_check(NULL, why, sizeof(why)) != 0) {
		fprintf(stderr, "gputop: %s\n", why);
		return -1;
	}
	struct gt_dashboard *d = gt_dashboard_open(c, o);
	if (!d) {
		fprintf(stderr, "gputop: out of memory\n");
		return -1;
	}
	setlocale(LC_ALL, "");
	gt_dashboard_term_save();
	gt_dashboard_term_take_tstp();
	if (!initscr()) {
		fprintf(stderr,
		        "gputop: cannot initialise the terminal (TERM=%s)\n",
		        getenv("TERM") ? getenv("TERM") : "");
		gt_dashboard_close(d);
		return -1;
	}
	gt_dashboard_term_arm();
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED |
	              BUTTON5_PRESSED,
	          NULL);
	mouseinterval(0);
	set_escdelay(25);

	struct gt_dashboard_screen scr = {
	    .tier = gt_palette_tier(),
	    .glyphs = gt_glyphs_default(nl_langinfo(CODESET)),
	};
	gt_dashboard_attach(d, &scr);
	frame_loop(d, stop);

	endwin();
	gt_dashboard_term_disarm();
	gt_dashboard_close(d);
	return 0;
}

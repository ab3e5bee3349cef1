/*
 * dashboard.c - the ncurses dashboard's state, input and frame loop (see
 * dashboard.h). Owns the terminal from gt_dashboard_run() until it
 * returns. Drawing goes through the widgets of panels.c into stdscr, then
 * one doupdate(): ncurses sends only what changed.
 */
#include "dashboard.h"

#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <termios.h>
#include <time.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "config.h"
#include "dash_priv.h"
#include "layout.h"
#include "model.h"
#include "overlay.h"
#include "panels.h"
#include "setup.h"
#include "snapshot.h"
#include "text.h"
#include "theme.h"
#include "view.h"

/* The bytes that put the terminal back, prepared before any signal can
 * arrive: a fatal-signal handler may only write() them. Global because a
 * signal handler has no other way to reach them. */
static char restore_seq[256];
static size_t restore_len;
static struct termios restore_termios;
static volatile sig_atomic_t restore_armed;
/* The thread that draws. A fatal signal sent by someone else (kill) may be
 * taken by any thread, and after a stop it races the drawing thread's
 * redraw on SIGCONT; handing it to the drawing thread makes the restore the
 * last thing written. */
static pid_t restore_ui_tid;
static struct sigaction restore_action;

static void restore_terminal_now(void)
{
	if (!restore_armed)
		return;
	restore_armed = 0;
	if (restore_len)
		(void)!write(STDOUT_FILENO, restore_seq, restore_len);
	tcsetattr(STDIN_FILENO, TCSANOW, &restore_termios);
}

static void on_fatal(int sig, siginfo_t *info, void *context)
{
	(void)context;
	/* si_code <= 0: sent by a process (kill, tgkill, sigqueue), not a
	 * fault of this thread, so any thread may handle it instead. */
	if (info && info->si_code <= 0 &&
	    (pid_t)syscall(SYS_gettid) != restore_ui_tid) {
		/* SA_RESETHAND set the default; re-arm for the UI thread. */
		sigaction(sig, &restore_action, NULL);
		syscall(SYS_tgkill, getpid(), restore_ui_tid, sig);
		return;
	}
	restore_terminal_now();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void append_cap(const char *cap)
{
	char *s = tigetstr(cap);
	if (!s || s == (char *)-1)
		return;
	size_t n = strlen(s);
	if (restore_len + n < sizeof(restore_seq)) {
		memcpy(restore_seq + restore_len, s, n);
		restore_len += n;
	}
}

static void arm_restore(void)
{
	static const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

	restore_len = 0;
	append_cap("sgr0");
	append_cap("cnorm");
	append_cap("rmcup");
	/* Mouse reporting off (xterm protocol), so a crash does not leave
	 * the shell receiving mouse escapes. */
	static const char mouse_off[] = "\033[?1000l\033[?1006l";
	if (restore_len + sizeof(mouse_off) < sizeof(restore_seq)) {
		memcpy(restore_seq + restore_len, mouse_off,
		       sizeof(mouse_off) - 1);
		restore_len += sizeof(mouse_off) - 1;
	}
	memset(&restore_action, 0, sizeof(restore_action));
	restore_action.sa_sigaction = on_fatal;
	sigemptyset(&restore_action.sa_mask);
	restore_action.sa_flags = (int)(SA_RESETHAND | SA_SIGINFO);
	restore_ui_tid = (pid_t)syscall(SYS_gettid);
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		sigaction(fatal[i], &restore_action, NULL);
	restore_armed = 1;
}

void gt_dash_notice(struct dash *d, const char *msg)
{
	gt_copy_str(d->notice, sizeof(d->notice), msg);
	d->notice_until = gt_monotonic_ns() + 5000000000ull;
}

static enum gt_glyphs glyphs_of(const struct dash *d)
{
	return d->cfg.glyphs < 0 ? d->auto_glyphs
	                         : (enum gt_glyphs)d->cfg.glyphs;
}

/* Device index of the selected GPU, -1 when none is shown. */
int gt_dash_selected_device(const struct dash *d)
{
	int k = d->lopts.selected_gpu;
	return k >= 0 && k < d->nvis ? d->vis[k] : -1;
}

static void update_visible(struct dash *d)
{
	size_t n = d->view.devs ? d->view.devs->count : 0;
	d->nvis = 0;
	for (size_t i = 0; i < n && i < d->nhist; i++)
		if (!gt_config_gpu_hidden(&d->cfg,
		                          d->view.devs->items[i].pci_bus_id))
			d->vis[d->nvis++] = (int)i;
	if (d->lopts.selected_gpu >= d->nvis)
		d->lopts.selected_gpu = d->nvis ? d->nvis - 1 : 0;
}

static void update_self_usage(struct dash *d)
{
	struct rusage ru;
	uint64_t now = gt_monotonic_ns();
	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return;
	uint64_t cpu = (uint64_t)ru.ru_utime.tv_sec * 1000000000ull +
	               (uint64_t)ru.ru_utime.tv_usec * 1000ull +
	               (uint64_t)ru.ru_stime.tv_sec * 1000000000ull +
	               (uint64_t)ru.ru_stime.tv_usec * 1000ull;
	if (d->self_wall_ns && now - d->self_wall_ns >= 500000000ull) {
		d->self_cpu_pct = 100.0 * (double)(cpu - d->self_cpu_ns) /
		                  (double)(now - d->self_wall_ns);
		d->self_cpu_ns = cpu;
		d->self_wall_ns = now;
	} else if (!d->self_wall_ns) {
		d->self_cpu_ns = cpu;
		d->self_wall_ns = now;
	}
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long size, res;
	if (f) {
		if (fscanf(f, "%lu %lu", &size, &res) == 2)
			d->self_rss =
			    (uint64_t)res * (uint64_t)sysconf(_SC_PAGESIZE);
		fclose(f);
	}
}

/* New samples for every device; true when anything changed. */
static bool pull(struct dash *d)
{
	bool changed = false;
	uint64_t now = gt_monotonic_ns();

	gt_view_refresh(&d->view);
	size_t n = d->view.devs ? d->view.devs->count : 0;
	for (size_t i = 0; i < n && i < d->nhist && i < d->c->ndevices; i++)
		if (gt_history_update(&d->hist[i], &d->c->devices[i].samples)) {
			d->last_new_ns[i] = now;
			changed = true;
		}
	if (d->view.procs && d->view.procs->seq != d->last_proc_seq) {
		d->last_proc_seq = d->view.procs->seq;
		changed = true;
	}
	return changed;
}

static void rebuild_order(struct dash *d)
{
	const struct gt_proclist *pl = d->view.procs;
	size_t n = pl ? pl->count : 0;
	if (n > d->order_cap) {
		size_t *o = realloc(d->order, n * sizeof(*o));
		if (!o) {
			d->norder = 0;
			return;
		}
		d->order = o;
		d->order_cap = n;
	}
	d->norder = n ? gt_proctable_view(pl->items, n, &d->pt, d->order,
	                                  d->filter_err, sizeof(d->filter_err))
	              : 0;
	int visible = d->layout.procs.h > 1 ? d->layout.procs.h - 1 : 1;
	d->follow_lost = !gt_proctable_update_selection(
	    &d->pt, pl ? pl->items : NULL, d->order, d->norder, visible);
}

static const struct gt_process *selected_process(const struct dash *d)
{
	if (!d->view.procs || d->pt.selected < 0 ||
	    (size_t)d->pt.selected >= d->norder)
		return NULL;
	return &d->view.procs->items[d->order[d->pt.selected]];
}

static void draw_title(struct dash *d)
{
	struct gt_rect r = d->layout.title;
	char buf[256], clock[16];
	size_t n = d->view.devs ? d->view.devs->count : 0;
	bool demo = false;
	for (size_t i = 0; i < n; i++)
		demo = demo || d->view.devs->items[i].demo;
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
	snprintf(buf, sizeof(buf), "gputop %s  %zu GPU%s", GPUTOP_VERSION, n,
	         n == 1 ? "" : "s");
	int x = gt_put(stdscr, r, 0, 0, d->pal.role[GT_ROLE_TITLE], buf);
	if (demo)
		gt_put(stdscr, r, 0, x + 2, d->pal.role[GT_ROLE_DEMO],
		       " DEMO: simulated GPUs, not real hardware ");
	gt_put(stdscr, r, 0, r.w - (int)strlen(clock),
	       d->pal.role[GT_ROLE_MAIN], clock);
}

static void draw_status(struct dash *d)
{
	struct gt_rect r = d->layout.status;
	char buf[512];

	if (r.h <= 0)
		return;
	if (d->ov.kind == GT_OVERLAY_FILTER) {
		snprintf(buf, sizeof(buf),
		         "%s: %s_  (Enter apply, Esc clear, "
		         "Ctrl-R %s)",
		         d->pt.filter_is_regex ? "regex" : "filter",
		         d->ov.input,
		         d->pt.filter_is_regex ? "substring" : "regex");
		gt_put(stdscr, r, 0, 0, d->pal.role[GT_ROLE_HI], buf);
		return;
	}
	/* A notice takes the place of the key hints: it is what the user
	 * needs to read now, and the hints are one ? away. */
	const char *msg = NULL;
	if (d->notice[0] && gt_monotonic_ns() < d->notice_until)
		msg = d->notice;
	else if (d->filter_err[0])
		msg = d->filter_err;
	snprintf(buf, sizeof(buf), " %.1fs | gputop %.1f%% CPU %.1f MiB ",
	         (double)d->interval_ns / 1e9, d->self_cpu_pct,
	         (double)d->self_rss / (1024.0 * 1024.0));
	int stats_x = r.w - gt_cells(buf);
	if (msg) {
		struct gt_rect left = {r.x, r.y, stats_x > 0 ? stats_x : r.w,
		                       1};
		gt_put(stdscr, left, 0, 1, d->pal.role[GT_ROLE_HI], msg);
	} else {
		char keys[256];
		snprintf(keys, sizeof(keys),
		         " q quit  ? help  o setup  / filter  s snapshot  e "
		         "why N/A%s%s",
		         d->layout.message[0] ? "  | " : "", d->layout.message);
		struct gt_rect left = {r.x, r.y, stats_x > 0 ? stats_x : r.w,
		                       1};
		gt_put(stdscr, left, 0, 0, d->pal.role[GT_ROLE_INACTIVE], keys);
	}
	if (stats_x > 0)
		gt_put(stdscr, r, 0, stats_x, d->pal.role[GT_ROLE_INACTIVE],
		       buf);
}

static void draw(struct dash *d)
{
	int rows, cols;
	getmaxyx(stdscr, rows, cols);

	update_visible(d);
	d->lopts.show_processes = d->cfg.show_processes;
	d->lopts.show_graphs = d->cfg.show_graphs;
	d->lopts.max_mode = (enum gt_gpu_mode)d->cfg.max_mode;
	d->layout.gpus = d->rects;
	gt_layout_compute(cols, rows, d->nvis, &d->lopts, &d->layout);
	d->lopts.first_gpu_hint = d->layout.gpu_first;
	rebuild_order(d);

	werase(stdscr);
	if (d->layout.too_small) {
		gt_put(stdscr, d->layout.status, 0, 0,
		       d->pal.role[GT_ROLE_WARN], d->layout.message);
		wnoutrefresh(stdscr);
		doupdate();
		return;
	}
	draw_title(d);
	uint64_t now = gt_monotonic_ns();
	for (int k = 0; k < d->nvis; k++) {
		struct gt_rect r = d->rects[k];
		size_t i = (size_t)d->vis[k];
		if (r.w <= 0 || r.h <= 0)
			continue;
		/* No sample for three intervals: say the numbers are old. */
		bool stale =
		    d->last_new_ns[i] && now - d->last_new_ns[i] >
		                             3 * d->interval_ns + 1000000000ull;
		struct gt_panel_data pd = {
		    .st = &d->view.devs->items[i],
		    .s = &d->view.latest[i],
		    .hist = &d->hist[i],
		    .pal = &d->pal,
		    .glyphs = glyphs_of(d),
		    .seconds_per_sample = (double)d->interval_ns / 1e9,
		    .selected = k == d->lopts.selected_gpu,
		    .fahrenheit = d->cfg.fahrenheit,
		    .stale = stale,
		};
		gt_panel_draw(stdscr, r, d->layout.mode, &pd);
	}
	if (d->layout.procs.h > 0 && d->view.procs) {
		char note[96] = "";
		gt_proctable_widths(d->layout.procs.w, d->cfg.columns,
		                    d->widths);
		if (d->pt.device_filter >= 0)
			snprintf(note, sizeof(note), " GPU %d only ",
			         d->pt.device_filter);
		if (d->pt.filter[0]) {
			size_t k = strlen(note);
			snprintf(note + k, sizeof(note) - k, " %s: %.40s ",
			         d->pt.filter_is_regex ? "regex" : "filter",
			         d->pt.filter);
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
		};
		gt_table_draw(stdscr, d->layout.procs, &td);
	}
	draw_status(d);
	struct gt_overlay_ctx octx = {
	    .pal = &d->pal,
	    .view = &d->view,
	    .selected_gpu = gt_dash_selected_device(d),
	    .process = selected_process(d),
	};
	gt_overlay_draw(stdscr, &d->ov, &octx);
	if (d->setup_open)
		gt_setup_draw(stdscr, &d->setup, &d->cfg, d->view.devs, &d->pal,
		              d->cfg_path);
	gt_dash_control_draw(d);
	wnoutrefresh(stdscr);
	doupdate();
	d->frames++;
}

static void save_snapshot(struct dash *d)
{
	char msg[512], path[400];
	char *json = gt_snapshot_from_view(&d->view, d->opts->procfs_root,
	                                   d->interval_ns);
	if (!json) {
		gt_dash_notice(d, "snapshot: out of memory");
		return;
	}
	if (gt_snapshot_save(json, path, sizeof(path)) == 0)
		snprintf(msg, sizeof(msg), "snapshot saved to %s", path);
	else
		snprintf(msg, sizeof(msg), "snapshot not saved: %s", path);
	free(json);
	gt_dash_notice(d, msg);
}

static void select_gpu(struct dash *d, int delta)
{
	int n = d->nvis;
	if (n == 0)
		return;
	d->lopts.selected_gpu = ((d->lopts.selected_gpu + delta) % n + n) % n;
	if (d->pt.device_filter >= 0)
		d->pt.device_filter = gt_dash_selected_device(d);
}

static void move_selection(struct dash *d, int delta)
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

static void set_interval(struct dash *d, uint64_t ns)
{
	if (ns < GT_INTERVAL_MIN_NS)
		ns = GT_INTERVAL_MIN_NS;
	if (ns > 3600000000000ull)
		ns = 3600000000000ull;
	d->interval_ns = ns;
	gt_collector_set_interval(d->c, ns);
	char msg[64];
	snprintf(msg, sizeof(msg), "interval %.1f s", (double)ns / 1e9);
	gt_dash_notice(d, msg);
}

static void handle_mouse(struct dash *d)
{
	MEVENT ev;
	if (getmouse(&ev) != OK)
		return;
	if (ev.bstate & BUTTON4_PRESSED) {
		move_selection(d, -3);
		return;
	}
	if (ev.bstate & BUTTON5_PRESSED) {
		move_selection(d, 3);
		return;
	}
	if (!(ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
		return;
	for (int k = 0; k < d->nvis; k++) {
		struct gt_rect r = d->rects[k];
		if (ev.x >= r.x && ev.x < r.x + r.w && ev.y >= r.y &&
		    ev.y < r.y + r.h) {
			select_gpu(d, k - d->lopts.selected_gpu);
			return;
		}
	}
	struct gt_rect p = d->layout.procs;
	if (ev.x < p.x || ev.x >= p.x + p.w || ev.y < p.y || ev.y >= p.y + p.h)
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

static void handle_signal_choice(struct dash *d, int sig)
{
	const struct gt_process *p = selected_process(d);
	char msg[256];
	if (!p)
		return;
	gt_proctable_send_signal(p->pid, sig, msg, sizeof(msg));
	gt_dash_notice(d, msg);
}

/* Returns false to quit. */
static void load_theme(struct dash *d)
{
	char path[1024], err[256], msg[400];
	gt_theme_default(&d->theme);
	if (!d->cfg.theme[0])
		return;
	if (gt_theme_find(d->cfg.theme, d->opts->themes_dir, path,
	                  sizeof(path)) != 0) {
		snprintf(
		    msg, sizeof(msg),
		    "theme '%.64s' not found (see --themes-dir): using the "
		    "built-in one",
		    d->cfg.theme);
		gt_dash_notice(d, msg);
	} else if (gt_theme_load_file(path, &d->theme, err, sizeof(err)) != 0) {
		snprintf(msg, sizeof(msg), "theme %.200s: %.120s", path, err);
		gt_dash_notice(d, msg);
	} else if (d->theme.nwarn) {
		snprintf(msg, sizeof(msg), "theme %.200s:%d: %.100s", path,
		         d->theme.warn[0].line, d->theme.warn[0].msg);
		gt_dash_notice(d, msg);
	}
}

/* Keys of the setup dialog; false when it is not open. */
static bool setup_key(struct dash *d, int ch)
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
		load_theme(d);
		gt_palette_init(&d->pal, &d->theme, d->pal.tier);
	}
	if (change & GT_SETUP_SAVE) {
		if (gt_config_save(d->cfg_path, &d->cfg, err, sizeof(err)) == 0)
			snprintf(msg, sizeof(msg), "settings saved to %.500s",
			         d->cfg_path);
		else
			snprintf(msg, sizeof(msg), "settings not saved: %.500s",
			         err);
		gt_dash_notice(d, msg);
	}
	if (change & GT_SETUP_CLOSE)
		d->setup_open = false;
	return true;
}

static bool handle_key(struct dash *d, int ch)
{
	if (gt_dash_control_key(d, ch) || setup_key(d, ch))
		return true;
	enum gt_overlay_result res = gt_overlay_key(&d->ov, ch);
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
		if (selected_process(d))
			gt_overlay_open(&d->ov, GT_OVERLAY_SIGNAL);
		else
			gt_dash_notice(d, "no process selected");
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
		d->pt.device_filter =
		    d->pt.device_filter >= 0 ? -1 : gt_dash_selected_device(d);
		gt_dash_notice(d, d->pt.device_filter >= 0
		                      ? "processes of the selected GPU"
		                      : "processes of all GPUs");
		break;
	case 'p':
		gt_dash_control_open(d, GT_CTLDLG_POWER);
		break;
	case 'f':
		gt_dash_control_open(d, GT_CTLDLG_FAN);
		break;
	case 'F': {
		const struct gt_process *p = selected_process(d);
		if (d->pt.follow_pid)
			d->pt.follow_pid = 0;
		else if (p)
			d->pt.follow_pid = p->pid;
		gt_dash_notice(d, d->pt.follow_pid
		                      ? "following the selected process"
		                      : "not following");
		break;
	}
	case 'g':
		d->cfg.glyphs = (int)((glyphs_of(d) + 1) % GT_GLYPHS__COUNT);
		gt_dash_notice(d, gt_glyphs_name(glyphs_of(d)));
		break;
	case 'm':
		d->cfg.max_mode = (d->cfg.max_mode + 1) % 3;
		gt_dash_notice(d, d->cfg.max_mode == GT_GPU_FULL
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

static int setup(struct dash *d)
{
	size_t n = d->c->ndevices;
	char err[512];

	gt_proctable_state_init(&d->pt);
	gt_config_defaults(&d->cfg);
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
		gt_dash_notice(d, msg);
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
	d->last_new_ns = calloc(n ? n : 1, sizeof(*d->last_new_ns));
	d->rects = calloc(n ? n : 1, sizeof(*d->rects));
	d->vis = calloc(n ? n : 1, sizeof(*d->vis));
	if (!d->hist || !d->last_new_ns || !d->rects || !d->vis)
		return -1;
	for (size_t i = 0; i < n; i++)
		gt_history_init(&d->hist[i]);
	if (gt_view_open(&d->view, d->c) < 0)
		return -1;
	load_theme(d);
	return 0;
}

static void teardown(struct dash *d)
{
	free(d->hist);
	free(d->last_new_ns);
	free(d->rects);
	free(d->vis);
	free(d->order);
}

int gt_dashboard_run(struct gt_collector *c, const struct gt_dash_opts *o,
                     volatile sig_atomic_t *stop)
{
	struct dash d;
	memset(&d, 0, sizeof(d));
	d.c = c;
	d.opts = o;
	d.view.dev_slot = d.view.proc_slot = -1;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "gputop: the dashboard needs a terminal; use "
		                "--snapshot for JSON output\n");
		return -1;
	}
	if (setup(&d) < 0) {
		fprintf(stderr, "gputop: out of memory\n");
		teardown(&d);
		return -1;
	}
	setlocale(LC_ALL, "");
	tcgetattr(STDIN_FILENO, &restore_termios);
	if (!initscr()) {
		fprintf(stderr,
		        "gputop: cannot initialise the terminal (TERM=%s)\n",
		        getenv("TERM") ? getenv("TERM") : "");
		gt_view_close(&d.view);
		teardown(&d);
		return -1;
	}
	arm_restore();
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

	const char *codeset = nl_langinfo(CODESET);
	d.auto_glyphs = gt_glyphs_default(codeset);
	enum gt_color_tier tier =
	    gt_color_tier_detect(getenv("COLORTERM"), getenv("TERM"),
	                         has_colors() ? COLORS : 0, getenv("NO_COLOR"));
	gt_palette_init(&d.pal, &d.theme, tier);

	/* Redraw when new data arrives or a key is pressed; the wait
	 * between is short so a resize or a key feels immediate. */
	timeout(100);
	bool dirty = true;
	d.restore_offer = o->ctl && gt_ctlsession_pending(o->ctl) > 0;
	while (!*stop) {
		if (pull(&d))
			dirty = true;
		if (gt_dash_control_poll(&d))
			dirty = true;
		if (d.notice[0] && gt_monotonic_ns() >= d.notice_until) {
			d.notice[0] = '\0';
			dirty = true;
		}
		if (dirty) {
			update_self_usage(&d);
			draw(&d);
			dirty = false;
		}
		int ch = getch();
		if (ch == ERR)
			continue;
		dirty = true;
		if (!handle_key(&d, ch))
			break;
	}

	endwin();
	restore_armed = 0;
	gt_view_close(&d.view);
	teardown(&d);
	return 0;
}

/* Reads whatever the terminal side has not consumed yet; returns bytes. */
static size_t drain(int fd)
{
	char buf[65536];
	size_t total = 0;
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += (size_t)n;
	return total;
}

int gt_dashboard_bench(struct gt_collector *c, int cols, int rows, int frames,
                       struct gt_dash_bench *out)
{
	struct gt_dash_opts o = {.interval_ns = GT_INTERVAL_DEFAULT_NS};
	struct dash d;
	int master = posix_openpt(O_RDWR | O_NOCTTY);
	int rc = -1;

	memset(&d, 0, sizeof(d));
	memset(out, 0, sizeof(*out));
	if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) {
		if (master >= 0)
			close(master);
		return -1;
	}
	struct winsize ws = {.ws_row = (unsigned short)rows,
	                     .ws_col = (unsigned short)cols};
	const char *slave_name = ptsname(master);
	int slave = slave_name ? open(slave_name, O_RDWR | O_NOCTTY) : -1;
	FILE *fo = slave >= 0 ? fdopen(slave, "w") : NULL;
	FILE *fi = slave >= 0 ? fdopen(dup(slave), "r") : NULL;
	if (!fo || !fi)
		goto out;
	ioctl(slave, TIOCSWINSZ, &ws);
	fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
	setlocale(LC_ALL, "");

	d.c = c;
	d.opts = &o;
	d.view.dev_slot = d.view.proc_slot = -1;
	if (setup(&d) < 0)
		goto out;
	SCREEN *scr = newterm("xterm-256color", fo, fi);
	if (!scr) {
		gt_view_close(&d.view);
		goto out;
	}
	set_term(scr);
	resizeterm(rows, cols);
	curs_set(0);
	d.auto_glyphs = GT_GLYPHS_BRAILLE;
	d.cfg.glyphs = -1;
	gt_palette_init(&d.pal, &d.theme, GT_TIER_256);

	/* Warm up: the first frames paint the whole screen. */
	const int warm = 5;
	uint64_t cpu = 0;
	size_t bytes = 0;
	for (int f = 0; f < warm + frames; f++) {
		gt_collector_tick(c, GT_TICK_SCHEDULED);
		struct timespec a, b;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
		pull(&d);
		draw(&d);
		fflush(fo);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
		size_t n = drain(master);
		if (f >= warm) {
			cpu += (uint64_t)(b.tv_sec - a.tv_sec) * 1000000000ull +
			       (uint64_t)(b.tv_nsec - a.tv_nsec);
			bytes += n;
		}
	}
	out->frames = frames;
	out->cpu_ns_per_frame = frames ? (double)cpu / frames : 0;
	out->bytes_per_frame = frames ? (double)bytes / frames : 0;
	out->processes = d.view.procs ? d.view.procs->count : 0;
	endwin();
	delscreen(scr);
	gt_view_close(&d.view);
	rc = 0;
out:
	teardown(&d);
	if (fo)
		fclose(fo);
	if (fi)
		fclose(fi);
	close(master);
	return rc;
}

/* SPDX-License-Identifier: MIT */
/*
 * dashboard_priv.h - the dashboard's state, shared by the files that make
 * up the dashboard (dashboard.c: the frame loop and drawing;
 * dashboard_input.c: the key table, keys and mouse; dashboard_term.c: the
 * terminal's restore on fatal signals; dashboard_control.c: the control
 * dialogs' glue; dashboard_status.c: the status line; dashboard_loop.c:
 * the wait between frames). Not for other modules: they use dashboard.h.
 */
#ifndef GPUTOP_DASHBOARD_PRIV_H
#define GPUTOP_DASHBOARD_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"
#include "ui/control_dialog.h"
#include "ui/dashboard.h"
#include "ui/graph.h"
#include "ui/history.h"
#include "ui/layout.h"
#include "ui/overlay.h"
#include "ui/palette.h"
#include "ui/picklist.h"
#include "ui/proctable.h"
#include "ui/proctree.h"
#include "ui/procview.h"
#include "ui/setup.h"
#include "ui/sigtarget.h"
#include "ui/theme.h"
#include "core/view.h"

/* The help window: its lines, made from the key table once. */
#define GT_DASHBOARD_HELP_LINES 64
#define GT_DASHBOARD_MAX_TAGS   32
#define GT_DASHBOARD_HELP_CELLS 96

struct gt_dashboard {
	struct gt_collector *c;
	const struct gt_dashboard_opts *opts;
	struct gt_view view;
	struct gt_history *hist; /* one per device */
	/* GT_SERIES__COUNT column caches per device, for its graphs */
	struct gt_history_cols *hcols;
	size_t nhist;
	uint64_t *last_new_ns; /* when each device last gave a sample */
	uint64_t started_ns;   /* a device with no sample since is NO DATA */
	struct gt_layout layout;
	struct gt_rect *rects;
	struct gt_layout_opts lopts;
	struct gt_layout_table_hold table_hold; /* the table's rows asked */
	/* What d->layout was computed from (draw_frame reuses it). */
	struct gt_layout_opts layout_opts;
	int layout_cols, layout_rows, layout_nvis;
	bool layout_valid;
	struct gt_theme theme;
	struct gt_palette pal;
	struct gt_config cfg; /* the settings; saved only on request */
	char cfg_path[1024];
	enum gt_glyphs auto_glyphs; /* from the locale, for glyphs = auto */
	struct gt_setup setup;
	bool setup_open;
	int *vis; /* device indexes of the GPUs shown (not hidden) */
	int nvis;
	struct gt_proctable_state pt;
	size_t *order;
	size_t norder, order_cap;
	/* What order (and the tree's rows) were made from: a frame with the
	 * same list, filters and sort keeps them (0: none made yet). */
	uint64_t order_key;
	int widths[GT_COL__COUNT];
	uint64_t interval_ns;
	struct gt_overlay ov;
	struct gt_sigtarget sig; /* the process the signal dialog is for */
	/* The F6 (sort column) or u (user) list, and what it picks. */
	struct gt_picklist pick;
	int pick_for;
	uint32_t pick_uids[GT_PICKLIST_MAX]; /* u: entry -> uid (0: all) */
	bool search_missed;       /* the search text matches no row */
	char search[128];         /* the last search, offered again by F3 */
	bool tree;                /* t, F5: the table as a process tree */
	struct gt_procview pview; /* Enter: the selected process's details */
	/* Tagged processes (Space, c, U), by pid and start time. */
	struct {
		int32_t pid;
		bool start_known;
		uint64_t start;
	} tags[GT_DASHBOARD_MAX_TAGS];
	int ntags;
	uint64_t tags_seq; /* the process round the tags were checked in */
	/* The signal dialog's tagged set, bound when it opened, and the
	 * lines naming each. */
	struct gt_sigtarget sigset[GT_DASHBOARD_MAX_TAGS];
	int nsigset;
	char sigset_text[GT_DASHBOARD_MAX_TAGS][GT_COMM_LEN + 24];
	const char *sigset_lines[GT_DASHBOARD_MAX_TAGS];
	struct gt_proctree_row *tree_rows; /* one per row of order */
	size_t tree_cap;
	bool tree_ok; /* tree_rows matches order (else the table is flat) */
	char
	    pick_user[GT_USER_LEN]; /* the user filter's name, for the header */
	struct gt_control_dialog dlg;
	bool restore_offer; /* a state file from an earlier run is pending */
	/* The control job in flight (dashboard_control.c): what it is for,
	 * and until when it is waited for. */
	struct gt_control_task *task;
	enum gt_dashboard_task {
		GT_DASHBOARD_TASK_APPLY,
		GT_DASHBOARD_TASK_REVERT,
		GT_DASHBOARD_TASK_RESTORE,
	} task_for;
	bool task_by_timeout;
	uint64_t task_until_ns;
	char notice[256];
	uint64_t notice_until;
	/* A notice posted with gt_dashboard_notice_after while another
	 * shows: it follows when that one ends, so that a theme's problem
	 * found at startup does not hide the settings file's. */
	char notice_next[256];
	char filter_err[128];
	const char *help[GT_DASHBOARD_HELP_LINES];
	char help_text[GT_DASHBOARD_HELP_LINES][GT_DASHBOARD_HELP_CELLS];
	int nhelp;
	/* gputop's own cost, shown in the status line. */
	uint64_t self_cpu_ns, self_wall_ns;
	double self_cpu_pct;
	uint64_t self_rss;
	/* /proc/self/statm, open while the dashboard is (-1: not opened
	 * yet, -2: could not be): re-read from its start, it gives the
	 * size now, without an open's path walk each time. */
	int statm_fd;
	uint64_t frames;
	long long drawn_second; /* wall-clock second of the last frame */
	char host[64];          /* the machine's name, for the title */
	uint64_t last_proc_seq;
	bool follow_lost;
	/* theme: what the setup dialog's Theme line shows (the theme in
	 * use: its name or path, or why the built-in one is used). */
	char theme_shown[300];
	/* loop: when the frame loop last got something new from the
	 * collector (gt_dashboard_pull), for when it wakes next
	 * (dashboard_loop.h). */
	uint64_t last_data_ns;
};

/* dashboard_tags.c: tagged processes and the signal dialog's set. */
bool gt_dashboard_tagged(const struct gt_dashboard *d, int32_t pid);
void gt_dashboard_tag_toggle(struct gt_dashboard *d);   /* Space */
void gt_dashboard_tag_children(struct gt_dashboard *d); /* c */
void gt_dashboard_untag_all(struct gt_dashboard *d);    /* U */
/* Drops tags whose process is gone or whose pid changed hands. */
void gt_dashboard_tags_prune(struct gt_dashboard *d);
/* Binds each tagged process still listed; how many. */
int gt_dashboard_tags_bind(struct gt_dashboard *d);
void gt_dashboard_tags_release(struct gt_dashboard *d);
/* Sends sig to each bound one that is still the same process; a notice
 * says how many got it and the first failure. */
void gt_dashboard_tags_send(struct gt_dashboard *d, int sig);

/* A short message in the status line for 5 s. */
void gt_dashboard_notice(struct gt_dashboard *d, const char *msg);
/* The same, after the notice showing now (if any) has had its time. */
void gt_dashboard_notice_after(struct gt_dashboard *d, const char *msg);
/* Ends the notice whose time is over, bringing the next one on; true when
 * the status line changed. */
bool gt_dashboard_notice_expire(struct gt_dashboard *d, uint64_t now);
/* Device index of the selected GPU, -1 when none is shown. */
int gt_dashboard_selected_device(const struct gt_dashboard *d);
/* The selected row's process, NULL when none. */
const struct gt_process *
gt_dashboard_selected_process(const struct gt_dashboard *d);
/* The graph symbols in use (glyphs = auto resolved). */
enum gt_glyphs gt_dashboard_glyphs(const struct gt_dashboard *d);
/* The theme the settings name, with a notice when it has problems. */
void gt_dashboard_load_theme(struct gt_dashboard *d);

/* dashboard_input.c: one key (or KEY_MOUSE, KEY_RESIZE); false to quit. */
bool gt_dashboard_key(struct gt_dashboard *d, int ch);
/* Fills d->help from the key table. */
void gt_dashboard_help_build(struct gt_dashboard *d);
/* Keeps the sideways scroll of command lines within the longest one. */
void gt_dashboard_clamp_hscroll(struct gt_dashboard *d);

/* dashboard_term.c: save the terminal's modes before initscr; arm after it
 * (prepares the bytes that put the terminal back and installs the handlers
 * of the signals that would end gputop without them); disarm after endwin.
 */
void gt_dashboard_term_save(void);
void gt_dashboard_term_arm(void);
void gt_dashboard_term_disarm(void);
/* Ctrl-Z, handled by the loop rather than by curses: take SIGTSTP before
 * initscr (when nobody handles or ignores it); after a wait, true once for
 * each SIGTSTP that came; suspend then stops gputop with the terminal put
 * back and returns, the screen repainted, once it is continued. */
void gt_dashboard_term_take_tstp(void);
bool gt_dashboard_term_tstp_due(void);
void gt_dashboard_term_suspend(void);

/* dashboard_control.c: the power and fan dialogs and the restore offer. */
void gt_dashboard_control_open(struct gt_dashboard *d,
                               enum gt_control_dialog_kind kind);
bool gt_dashboard_control_key(struct gt_dashboard *d, int ch);
void gt_dashboard_control_draw(struct gt_dashboard *d);
bool gt_dashboard_control_poll(struct gt_dashboard *d);
/* When the loop must wake for the control: the countdown's next second,
 * or soon while a job is in flight (0: no need). */
uint64_t gt_dashboard_control_wake_ns(const struct gt_dashboard *d);
/* At the dashboard's end: a job in flight gets GT_BOUNDED_STOP_GRACE_NS
 * to come back, then is left behind (the session is stuck then). */
void gt_dashboard_control_end(struct gt_dashboard *d);
/* layout: what gputop changed on device `dev` that is in force now, as a
 * GPU panel's badge ("LIMIT 382 W", "FAN CURVE"; several joined by ", "),
 * "" when nothing is. */
void gt_dashboard_control_badge(const struct gt_dashboard *d, size_t dev,
                                char *buf, size_t len);

/* loop: the status line (dashboard_status.c) drawn into stdscr, as part
 * of a frame. */
void gt_dashboard_draw_status(struct gt_dashboard *d);

#endif

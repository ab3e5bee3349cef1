/* SPDX-License-Identifier: MIT */
/*
 * overlay.c - help, N/A reasons, filter prompt and signal menu (see
 * overlay.h): each one's keys while it is open, and its window. The help's
 * lines are the dashboard's (its key table).
 */
#include "ui/overlay.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "core/text.h"
#include "ui/paint.h"
#include "ui/proctable.h"

void gt_overlay_open(struct gt_overlay *ov, enum gt_overlay_kind kind)
{
	ov->kind = kind;
	ov->choice = 0;
	ov->scroll = 0;
	ov->scroll_max = 0;
	ov->page = 1;
	if (kind != GT_OVERLAY_FILTER && kind != GT_OVERLAY_SEARCH)
		ov->input[0] = '\0';
}

/* A key that scrolls a help or why N/A window; false for other keys. */
static bool scroll_key(struct gt_overlay *ov, int ch)
{
	int page = ov->page > 1 ? ov->page : 1;
	int to;

	if (ch == KEY_DOWN || ch == 'j')
		to = ov->scroll + 1;
	else if (ch == KEY_UP || ch == 'k')
		to = ov->scroll - 1;
	else if (ch == KEY_NPAGE || ch == ' ')
		to = ov->scroll + page;
	else if (ch == KEY_PPAGE)
		to = ov->scroll - page;
	else if (ch == KEY_HOME || ch == 'g')
		to = 0;
	else if (ch == KEY_END || ch == 'G')
		to = ov->scroll_max;
	else
		return false;
	ov->scroll = to < 0 ? 0 : to > ov->scroll_max ? ov->scroll_max : to;
	return true;
}

/* A prompt's line editing: Backspace, or a printable character added;
 * true when the input changed. */
static bool edit_input(struct gt_overlay *ov, int ch)
{
	size_t n = strlen(ov->input);
	if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && n > 0) {
		ov->input[n - 1] = '\0';
		return true;
	}
	if (ch >= 32 && ch < 127 && n + 1 < sizeof(ov->input)) {
		ov->input[n] = (char)ch;
		ov->input[n + 1] = '\0';
		return true;
	}
	return false;
}

enum gt_overlay_result gt_overlay_key(struct gt_overlay *ov, int ch)
{
	switch (ov->kind) {
	case GT_OVERLAY_NONE:
		return GT_OVERLAY_NOT_CONSUMED;
	case GT_OVERLAY_HELP:
	case GT_OVERLAY_EXPLAIN:
		if (scroll_key(ov, ch))
			return GT_OVERLAY_CONSUMED;
		if (ch == 27 || ch == 'q' || ch == '?' || ch == 'h' ||
		    ch == 'e' || ch == KEY_F(1) || ch == '\n' || ch == '\r')
			ov->kind = GT_OVERLAY_NONE;
		else if (ch == KEY_RESIZE || ch == KEY_MOUSE)
			return GT_OVERLAY_NOT_CONSUMED;
		return GT_OVERLAY_CONSUMED;
	case GT_OVERLAY_FILTER:
		if (ch == 27) {
			ov->kind = GT_OVERLAY_NONE;
			ov->input[0] = '\0';
			return GT_OVERLAY_FILTER_CLEAR;
		}
		if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
			ov->kind = GT_OVERLAY_NONE;
			return GT_OVERLAY_FILTER_DONE;
		}
		if (ch == 18) /* Ctrl-R */
			return GT_OVERLAY_FILTER_TOGGLE_REGEX;
		if (edit_input(ov, ch)) /* filter as the user types */
			return GT_OVERLAY_FILTER_DONE;
		if (ch == KEY_RESIZE || ch == KEY_MOUSE)
			return GT_OVERLAY_NOT_CONSUMED;
		return GT_OVERLAY_CONSUMED;
	case GT_OVERLAY_SEARCH:
		if (ch == 27) {
			ov->kind = GT_OVERLAY_NONE;
			return GT_OVERLAY_CONSUMED;
		}
		if (ch == '\n' || ch == '\r' || ch == KEY_ENTER ||
		    ch == KEY_F(3))
			return GT_OVERLAY_SEARCH_NEXT;
		if (edit_input(ov, ch))
			return GT_OVERLAY_SEARCH_TYPED;
		if (ch == KEY_RESIZE || ch == KEY_MOUSE)
			return GT_OVERLAY_NOT_CONSUMED;
		return GT_OVERLAY_CONSUMED;
	case GT_OVERLAY_SIGNAL:
		if (ch == KEY_DOWN || ch == 'j')
			ov->choice = (ov->choice + 1) % GT_PROCTABLE_NSIGNALS;
		else if (ch == KEY_UP || ch == 'k')
			ov->choice = (ov->choice + GT_PROCTABLE_NSIGNALS - 1) %
			             GT_PROCTABLE_NSIGNALS;
		else if (ch >= '1' && ch < '1' + GT_PROCTABLE_NSIGNALS)
			ov->choice = ch - '1';
		else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
			ov->signal = gt_proctable_signals[ov->choice].sig;
			ov->kind = GT_OVERLAY_CONFIRM;
		} else if (ch == 27 || ch == 'q')
			ov->kind = GT_OVERLAY_NONE;
		return GT_OVERLAY_CONSUMED;
	case GT_OVERLAY_CONFIRM:
		ov->kind = GT_OVERLAY_NONE;
		return ch == 'y' || ch == 'Y' ? GT_OVERLAY_SIGNAL_CONFIRMED
		                              : GT_OVERLAY_CONSUMED;
	}
	return GT_OVERLAY_NOT_CONSUMED;
}

struct gt_rect gt_overlay_box(WINDOW *w, int bw, int bh, int attr,
                              const char *title)
{
	int rows, cols;
	getmaxyx(w, rows, cols);
	if (bw > cols)
		bw = cols;
	if (bh > rows)
		bh = rows;
	struct gt_rect r = {(cols - bw) / 2, (rows - bh) / 2, bw, bh};
	/* Curses lines, not paint's cells: the frame after this one
	 * starts from an erased window. */
	gt_paint_invalidate();
	wattrset(w, attr);
	for (int y = r.y; y < r.y + r.h; y++)
		mvwhline(w, y, r.x, ' ', r.w);
	if (r.w >= 2 && r.h >= 2) {
		mvwhline(w, r.y, r.x, ACS_HLINE, r.w);
		mvwhline(w, r.y + r.h - 1, r.x, ACS_HLINE, r.w);
		mvwvline(w, r.y, r.x, ACS_VLINE, r.h);
		mvwvline(w, r.y, r.x + r.w - 1, ACS_VLINE, r.h);
		mvwaddch(w, r.y, r.x, ACS_ULCORNER);
		mvwaddch(w, r.y, r.x + r.w - 1, ACS_URCORNER);
		mvwaddch(w, r.y + r.h - 1, r.x, ACS_LLCORNER);
		mvwaddch(w, r.y + r.h - 1, r.x + r.w - 1, ACS_LRCORNER);
		struct gt_rect t = {r.x + 2, r.y, r.w - 4, 1};
		gt_paint_put(w, t, 0, 0, attr | A_BOLD, title);
	}
	wattrset(w, A_NORMAL);
	struct gt_rect inner = {r.x + 2, r.y + 1, r.w - 4, r.h - 2};
	return inner;
}

/* Where a scrolled window has more lines: "N more above: Up PgUp" at
 * the top border's right end (the title is at its left), "N more below:
 * Down PgDn" at the bottom's, each only where it fits whole. */
static void draw_more(WINDOW *w, struct gt_rect in, int above, int below,
                      int title_cells, int attr)
{
	char buf[64];
	struct gt_rect top = {in.x, in.y - 1, in.w, 1};
	struct gt_rect bottom = {in.x, in.y + in.h, in.w, 1};
	if (above > 0) {
		int n = snprintf(buf, sizeof(buf), " %d more above: Up PgUp ",
		                 above);
		if (n + title_cells + 1 <= in.w)
			gt_paint_put(w, top, 0, in.w - n, attr, buf);
	}
	if (below > 0) {
		int n = snprintf(buf, sizeof(buf), " %d more below: Down PgDn ",
		                 below);
		if (n > in.w)
			n = snprintf(buf, sizeof(buf), " %d more ", below);
		if (n <= in.w)
			gt_paint_put(w, bottom, 0, in.w - n, attr, buf);
	}
}

/* Lines in a box; ov (NULL: not scrolled) gets the scroll kept within
 * them and the page size. */
static void draw_lines(WINDOW *w, const char *const *lines, int n,
                       struct gt_overlay *ov, const char *title,
                       const struct gt_overlay_ctx *ctx)
{
	int rows, cols;
	getmaxyx(w, rows, cols);
	int bw = 0;
	for (int i = 0; i < n; i++)
		if (gt_paint_cells(lines[i]) > bw)
			bw = gt_paint_cells(lines[i]);
	int attr = ctx->pal->role[GT_ROLE_MAIN];
	struct gt_rect in =
	    gt_overlay_box(w, bw + 4 < cols ? bw + 4 : cols,
	                   n + 2 < rows ? n + 2 : rows, attr, title);
	int scroll = 0;
	if (ov && in.h > 0) {
		ov->scroll_max = n - in.h > 0 ? n - in.h : 0;
		ov->page = in.h > 1 ? in.h - 1 : 1;
		if (ov->scroll > ov->scroll_max)
			ov->scroll = ov->scroll_max;
		scroll = ov->scroll;
	}
	for (int i = 0; i < in.h && scroll + i < n; i++)
		gt_paint_put(w, in, i, 0, attr, lines[scroll + i]);
	if (in.h > 0 && in.y > 0)
		draw_more(w, in, scroll, n - scroll - in.h,
		          gt_paint_cells(title), attr | A_BOLD);
}

/* The explanation as lines, wrapped to a width, before it is drawn. */
#define EXPLAIN_LINES 200
#define EXPLAIN_CELLS 200

struct explain {
	char line[EXPLAIN_LINES][EXPLAIN_CELLS];
	int n;
	int width; /* wrap width in bytes (the texts are ASCII) */
};

static void ex_add(struct explain *ex, const char *text)
{
	if (ex->n < EXPLAIN_LINES)
		gt_copy_str(ex->line[ex->n++], EXPLAIN_CELLS, text);
}

/* Adds text word-wrapped to ex->width, each line starting with indent. */
static void ex_wrap(struct explain *ex, const char *indent, const char *text)
{
	size_t ind = strlen(indent);
	size_t width =
	    (size_t)ex->width > ind + 10 ? (size_t)ex->width - ind : 10;
	if (width > EXPLAIN_CELLS - ind - 1)
		width = EXPLAIN_CELLS - ind - 1;
	while (*text) {
		size_t n = strlen(text);
		if (n > width) {
			/* Break at the last blank that fits, else mid-word. */
			n = width;
			while (n > 0 && text[n] != ' ')
				n--;
			if (n == 0) {
				/* Not inside a UTF-8 sequence (a driver's
				 * text may be translated). */
				n = width;
				while (n > 1 &&
				       ((unsigned char)text[n] & 0xC0) == 0x80)
					n--;
			}
		}
		char buf[EXPLAIN_CELLS];
		snprintf(buf, sizeof(buf), "%s%.*s", indent, (int)n, text);
		ex_add(ex, buf);
		text += n;
		while (*text == ' ')
			text++;
	}
}

/* Unavailable values sharing one reason (and, for driver errors, one
 * code): listed once with the reason and the fix, not once per value. */
struct why_group {
	uint8_t why;
	int32_t code;
	char names[1024];
};

struct why_groups {
	struct why_group g[24];
	int n;
};

static void group_add(struct why_groups *gs, const struct gt_val *val,
                      const char *name)
{
	struct why_group *g = NULL;
	for (int i = 0; i < gs->n && !g; i++)
		if (gs->g[i].why == val->why &&
		    ((val->why != GT_WHY_DRIVER_ERROR &&
		      val->why != GT_WHY_MALFORMED) ||
		     gs->g[i].code == val->code))
			g = &gs->g[i];
	if (!g) {
		if (gs->n == (int)(sizeof(gs->g) / sizeof(gs->g[0])))
			return;
		g = &gs->g[gs->n++];
		g->why = val->why;
		g->code = val->code;
		g->names[0] = '\0';
	}
	/* Several values may share a name (each fan's "fans.percent"):
	 * a name is listed once. */
	size_t k = strlen(g->names), len = strlen(name);
	for (const char *at = g->names; (at = strstr(at, name)) != NULL;
	     at += len)
		if ((at == g->names || at[-1] == ' ') &&
		    (at[len] == '\0' || at[len] == ','))
			return;
	snprintf(g->names + k, sizeof(g->names) - k, "%s%s", k ? ", " : "",
	         name);
}

/* The backend of device i, to put its driver's words to an error code. */
static const char *code_text(const struct gt_view *v, size_t i, int code)
{
	return v->collector ? gt_collector_error_text(v->collector, i, code)
	                    : NULL;
}

static void groups_emit(struct explain *ex, const struct why_groups *gs,
                        const struct gt_view *v, size_t dev)
{
	char why[256];
	for (int i = 0; i < gs->n; i++) {
		const struct why_group *g = &gs->g[i];
		struct gt_val val;
		gt_val_fail(&val, (enum gt_why)g->why, g->code);
		gt_why_text(&val, code_text(v, dev, g->code), why, sizeof(why));
		ex_wrap(ex, "", why);
		ex_wrap(ex, "    ", g->names);
		char fix[512];
		snprintf(fix, sizeof(fix), "fix: %s",
		         gt_why_fix((enum gt_why)g->why));
		ex_wrap(ex, "  ", fix);
	}
}

/* A GPU whose numbers are old (STALE) or missing (NO DATA): every value
 * waits on a driver call that has not returned. */
static void explain_silence(struct explain *ex, double silent_s, bool never)
{
	char buf[EXPLAIN_CELLS];
	if (silent_s <= 0)
		return;
	if (never)
		snprintf(buf, sizeof(buf),
		         "NO DATA: the driver has not answered once in %.0f s",
		         silent_s);
	else
		snprintf(buf, sizeof(buf),
		         "STALE: no new sample for %.0f s; the values shown "
		         "are that old",
		         silent_s);
	ex_wrap(ex, "", buf);
	ex_wrap(ex, "  ",
	        "fix: a call into the driver is hanging (nvidia-smi or the "
	        "sysfs files would hang too); look for driver errors with "
	        "`dmesg` (NVIDIA: Xid lines). gputop keeps running and the "
	        "panel updates as soon as the driver answers");
}

static void explain_gpu(struct explain *ex, const struct gt_view *v, size_t dev,
                        double silent_s, bool never_sampled)
{
	const struct gt_static *st = &v->devs->items[dev];
	const struct gt_sample *s = &v->latest[dev];
	struct why_groups gs = {.n = 0};
	char name[GT_STR_NAME * 4], buf[EXPLAIN_CELLS], key[96];

	gt_text_escape(name, sizeof(name), st->name, strlen(st->name));
	snprintf(buf, sizeof(buf), "GPU %u  %.140s", st->index, name);
	ex_add(ex, buf);
	explain_silence(ex, silent_s, never_sampled);
	for (int i = 0; i < GT_S__COUNT; i++) {
		if (gt_val_ok(&st->f[i]))
			continue;
		snprintf(key, sizeof(key), "%s.%s", gt_static_desc[i].group,
		         gt_static_desc[i].key);
		group_add(&gs, &st->f[i], key);
	}
	for (int i = 0; i < GT_F__COUNT; i++) {
		const struct gt_field_desc *fd = &gt_field_desc[i];
		if (gt_val_ok(&s->f[i]) || !fd->group)
			continue;
		if (i >= GT_F_FAN_PERCENT0 &&
		    (i - GT_F_FAN_PERCENT0) % GT_MAX_FANS >= s->fan_count)
			continue;
		snprintf(key, sizeof(key), "%s.%s", fd->group, fd->key);
		group_add(&gs, &s->f[i], key);
	}
	if (gs.n == 0)
		ex_add(ex, "every value is available");
	groups_emit(ex, &gs, v, dev);
}

/* The process table's value columns and the model field each shows. */
static const struct {
	enum gt_proctable_col col;
	enum gt_proc_field f;
} proc_cols[] = {
    {GT_COL_GPU, GT_P_GPU}, {GT_COL_VRAM, GT_P_MEM},
    {GT_COL_ENC, GT_P_ENC}, {GT_COL_DEC, GT_P_DEC},
    {GT_COL_CPU, GT_P_CPU}, {GT_COL_HOST_MEM, GT_P_HOST_MEM},
};

/* The N/A cells of the selected process's row. What comes from /proc
 * (user, command, container, CPU, host memory) is N/A for one reason,
 * the pid's /proc entry, which the value's own status alone does not say. */
static void explain_process(struct explain *ex, const struct gt_view *v,
                            const struct gt_process *p)
{
	struct why_groups gs = {.n = 0};
	char name[GT_COMM_LEN * 4], buf[EXPLAIN_CELLS], host[128] = "";
	enum gt_why host_why = GT_WHY_NOT_COLLECTED;

	gt_text_escape(name, sizeof(name), p->name, strlen(p->name));
	snprintf(buf, sizeof(buf), "Process %d  %.140s", (int)p->pid,
	         name[0] ? name : "(no name)");
	ex_add(ex, buf);
	/* The same tests as the row's text cells (proctable.c text_of). */
	if (!p->host_known) {
		if (!p->user[0])
			snprintf(host, sizeof(host), "USER");
		if (!p->container[0]) {
			size_t k = strlen(host);
			snprintf(host + k, sizeof(host) - k, "%sCONTAINER",
			         k ? ", " : "");
		}
	}
	if (!(p->cmdline && p->cmdline[0]) && !p->name[0]) {
		size_t k = strlen(host);
		snprintf(host + k, sizeof(host) - k, "%sCOMMAND",
		         k ? ", " : "");
	}
	for (size_t i = 0; i < sizeof(proc_cols) / sizeof(proc_cols[0]); i++) {
		const struct gt_val *val = &p->f[proc_cols[i].f];
		const char *hdr = gt_proctable_cols[proc_cols[i].col].header;
		if (gt_val_ok(val))
			continue;
		bool from_proc = proc_cols[i].f == GT_P_CPU ||
		                 proc_cols[i].f == GT_P_HOST_MEM;
		if (from_proc && !p->host_known) {
			size_t k = strlen(host);
			snprintf(host + k, sizeof(host) - k, "%s%s",
			         k ? ", " : "", hdr);
			host_why = (enum gt_why)val->why;
		} else {
			group_add(&gs, val, hdr);
		}
	}
	if (!host[0] && gs.n == 0) {
		ex_add(ex, "every value is available");
		return;
	}
	if (host[0] && !p->host_known) {
		if (host_why == GT_WHY_PERMISSION) {
			snprintf(buf, sizeof(buf),
			         "/proc/%d cannot be read: permission denied",
			         (int)p->pid);
			ex_wrap(ex, "", buf);
			ex_wrap(ex, "    ", host);
			ex_wrap(ex, "  ",
			        "fix: run gputop as root, or mount /proc "
			        "without hidepid= (or with gid= of a group "
			        "you are in)");
		} else {
			snprintf(buf, sizeof(buf),
			         "/proc has no entry for pid %d", (int)p->pid);
			ex_wrap(ex, "", buf);
			ex_wrap(ex, "    ", host);
			ex_wrap(ex, "  ",
			        "fix: nothing to do if it has exited; if it "
			        "runs in another PID namespace (a container), "
			        "run gputop in the host's (e.g. docker run "
			        "--pid=host) to see it");
		}
	} else if (host[0]) {
		/* Known to /proc but without a command line or a name. */
		ex_wrap(ex, "", "the process has no name and no command line");
		ex_wrap(ex, "    ", host);
		ex_wrap(ex, "  ", "fix: nothing to do: it did not give one");
	}
	groups_emit(ex, &gs, v, p->device_index);
}

/* Every unavailable value of the selected GPU and of the selected
 * process, grouped by reason, each reason with what can be done. */
static void draw_explain(WINDOW *w, struct gt_overlay *ov,
                         const struct gt_overlay_ctx *ctx)
{
	static struct explain ex; /* 40 KB: not on the stack; UI thread only */
	const struct gt_view *v = ctx->view;
	int rows, cols;
	getmaxyx(w, rows, cols);
	(void)rows;

	ex.n = 0;
	ex.width = cols - 6 < 96 ? cols - 6 : 96;
	if (ex.width < 20)
		ex.width = 20;
	if (v->devs && ctx->selected_gpu >= 0 &&
	    (size_t)ctx->selected_gpu < v->devs->count &&
	    (size_t)ctx->selected_gpu < v->nlatest)
		explain_gpu(&ex, v, (size_t)ctx->selected_gpu, ctx->silent_s,
		            ctx->never_sampled);
	if (ctx->process) {
		if (ex.n)
			ex_add(&ex, "");
		explain_process(&ex, v, ctx->process);
	}
	if (ex.n == 0)
		return;
	const char *lines[EXPLAIN_LINES];
	for (int i = 0; i < ex.n; i++)
		lines[i] = ex.line[i];
	draw_lines(w, lines, ex.n, ov, " Why N/A (Esc closes) ", ctx);
}

/* The signal menu under the lines[0..n) that name its targets; lines
 * must have room for GT_PROCTABLE_NSIGNALS + 2 more. */
static void draw_menu(WINDOW *w, const struct gt_overlay *ov,
                      const struct gt_overlay_ctx *ctx, const char **lines,
                      int n)
{
	char store[GT_PROCTABLE_NSIGNALS][48];
	for (int i = 0; i < GT_PROCTABLE_NSIGNALS; i++) {
		snprintf(store[i], sizeof(store[i]), "%s %d  SIG%s",
		         i == ov->choice ? ">" : " ", i + 1,
		         gt_proctable_signals[i].name);
		lines[n++] = store[i];
	}
	lines[n++] = "";
	lines[n++] = "Enter chooses, Esc cancels";
	draw_lines(w, lines, n, NULL, " Send a signal ", ctx);
}

/* The signal menu (sname NULL) or its confirmation for a tagged set:
 * every process named, then the signals or the question. */
static void draw_set(WINDOW *w, struct gt_overlay *ov,
                     const struct gt_overlay_ctx *ctx, const char *sname)
{
	enum { MAXN = 64 };
	const char *lines[MAXN + GT_PROCTABLE_NSIGNALS + 4];
	char head[64], ask[64];
	int n = 0;

	snprintf(head, sizeof(head), "to %d tagged process%s:", ctx->ntargets,
	         ctx->ntargets == 1 ? "" : "es");
	lines[n++] = head;
	for (int i = 0; i < ctx->ntargets && i < MAXN; i++)
		lines[n++] = ctx->targets[i];
	lines[n++] = "";
	if (sname) {
		snprintf(ask, sizeof(ask), "Send SIG%s to all %d?  y / n",
		         sname, ctx->ntargets);
		lines[n++] = ask;
		draw_lines(w, lines, n, NULL, " Confirm ", ctx);
		return;
	}
	draw_menu(w, ov, ctx, lines, n);
}

void gt_overlay_draw(WINDOW *w, struct gt_overlay *ov,
                     const struct gt_overlay_ctx *ctx)
{
	char buf[256], sig[16];

	switch (ov->kind) {
	case GT_OVERLAY_NONE:
	case GT_OVERLAY_FILTER: /* drawn in the status line */
	case GT_OVERLAY_SEARCH:
		return;
	case GT_OVERLAY_HELP:
		draw_lines(w, ctx->help, ctx->nhelp, ov, " gputop help ", ctx);
		return;
	case GT_OVERLAY_EXPLAIN:
		draw_explain(w, ov, ctx);
		return;
	case GT_OVERLAY_SIGNAL: {
		if (ctx->ntargets > 0) {
			draw_set(w, ov, ctx, NULL);
			return;
		}
		const char *lines[GT_PROCTABLE_NSIGNALS + 4];
		char name[GT_COMM_LEN * 4];
		int n = 0;
		/* Whom it goes to, before anything is chosen. */
		const struct gt_process *p = ctx->process;
		if (p) {
			gt_text_escape(name, sizeof(name), p->name,
			               strlen(p->name));
			snprintf(buf, sizeof(buf), "to %d (%.160s)", p->pid,
			         name[0] ? name : "name N/A");
			lines[n++] = buf;
			lines[n++] = "";
		}
		draw_menu(w, ov, ctx, lines, n);
		return;
	}
	case GT_OVERLAY_CONFIRM: {
		if (ctx->ntargets > 0) {
			draw_set(w, ov, ctx,
			         gt_proctable_signal_name(ov->signal, sig,
			                                  sizeof(sig)));
			return;
		}
		const struct gt_process *p = ctx->process;
		char name[GT_COMM_LEN * 4];
		if (!p)
			return;
		gt_text_escape(name, sizeof(name), p->name, strlen(p->name));
		snprintf(buf, sizeof(buf), "Send SIG%s to %d (%.160s)?  y / n",
		         gt_proctable_signal_name(ov->signal, sig, sizeof(sig)),
		         p->pid, name);
		const char *lines[1] = {buf};
		draw_lines(w, lines, 1, NULL, " Confirm ", ctx);
		return;
	}
	}
}

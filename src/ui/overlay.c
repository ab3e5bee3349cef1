/*
 * overlay.c - help, N/A reasons, filter prompt and signal menu (see
 * overlay.h). Every function key has a letter key too: some terminals
 * never deliver F-keys.
 */
#include "overlay.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "panels.h"
#include "proctable.h"
#include "text.h"

static const char *const help_lines[] = {
    "Keys (letters work where F-keys do not reach)",
    "",
    "  q  F10        quit",
    "  ?  h  F1      this help",
    "  e             explain N/A values of the selected GPU",
    "  o  F2         setup (w in it saves the settings file)",
    "  s             save a JSON snapshot",
    "  Tab ]  S-Tab [  select the next / previous GPU",
    "  m             panels: automatic, compact, one line per GPU",
    "  g             graph symbols: braille, block, ascii",
    "  c             temperatures in Celsius / Fahrenheit",
    "  + -           sampling interval twice / half as long",
    "  p             power dialog: limit, mode, profile (selected GPU)",
    "  f             fan dialog: curve, presets, automatic",
    "  P             show / hide the process table",
    "  Up Down j k   select a process (PgUp PgDn Home End)",
    "  Left Right    scroll command lines sideways",
    "  > <  F6       sort by the next / previous column",
    "  r             reverse the sort",
    "  /             filter processes (Ctrl-R: regular expression)",
    "  d             processes of the selected GPU only / all GPUs",
    "  F             follow the selected process",
    "  x  F9         send a signal to the selected process",
    "  Ctrl-L        redraw the screen",
    "",
    "Mouse: click a GPU panel, a process row or a column header;",
    "the wheel scrolls the process table.",
    "",
    "Esc or q closes this window.",
};

void gt_overlay_open(struct gt_overlay *ov, enum gt_overlay_kind kind)
{
	ov->kind = kind;
	ov->choice = 0;
	ov->scroll = 0;
	if (kind != GT_OVERLAY_FILTER)
		ov->input[0] = '\0';
}

enum gt_overlay_result gt_overlay_key(struct gt_overlay *ov, int ch)
{
	size_t n;

	switch (ov->kind) {
	case GT_OVERLAY_NONE:
		return GT_OVERLAY_NOT_CONSUMED;
	case GT_OVERLAY_HELP:
	case GT_OVERLAY_EXPLAIN:
		if (ch == KEY_DOWN || ch == 'j')
			ov->scroll++;
		else if ((ch == KEY_UP || ch == 'k') && ov->scroll > 0)
			ov->scroll--;
		else if (ch == 27 || ch == 'q' || ch == '?' || ch == 'h' ||
		         ch == 'e' || ch == KEY_F(1) || ch == '\n' ||
		         ch == '\r')
			ov->kind = GT_OVERLAY_NONE;
		else if (ch == KEY_RESIZE || ch == KEY_MOUSE)
			return GT_OVERLAY_NOT_CONSUMED;
		return GT_OVERLAY_CONSUMED;
	case GT_OVERLAY_FILTER:
		n = strlen(ov->input);
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
		if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && n > 0) {
			ov->input[n - 1] = '\0';
			return GT_OVERLAY_FILTER_DONE;
		}
		if (ch >= 32 && ch < 127 && n + 1 < sizeof(ov->input)) {
			ov->input[n] = (char)ch;
			ov->input[n + 1] = '\0';
			/* Filter as the user types. */
			return GT_OVERLAY_FILTER_DONE;
		}
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
		gt_put(w, t, 0, 0, attr | A_BOLD, title);
	}
	wattrset(w, A_NORMAL);
	struct gt_rect inner = {r.x + 2, r.y + 1, r.w - 4, r.h - 2};
	return inner;
}

static void draw_lines(WINDOW *w, const char *const *lines, int n, int scroll,
                       const char *title, const struct gt_overlay_ctx *ctx)
{
	int rows, cols;
	getmaxyx(w, rows, cols);
	int bw = 0;
	for (int i = 0; i < n; i++)
		if (gt_cells(lines[i]) > bw)
			bw = gt_cells(lines[i]);
	struct gt_rect in = gt_overlay_box(w, bw + 4 < cols ? bw + 4 : cols,
	                                   n + 2 < rows ? n + 2 : rows,
	                                   ctx->pal->role[GT_ROLE_MAIN], title);
	if (scroll > n - in.h)
		scroll = n - in.h > 0 ? n - in.h : 0;
	for (int i = 0; i < in.h && scroll + i < n; i++)
		gt_put(w, in, i, 0, ctx->pal->role[GT_ROLE_MAIN],
		       lines[scroll + i]);
}

/* Every unavailable value of the selected GPU with its reason. */
static void draw_explain(WINDOW *w, const struct gt_overlay *ov,
                         const struct gt_overlay_ctx *ctx)
{
	char store[96][160];
	const char *lines[96];
	int n = 0;
	const struct gt_view *v = ctx->view;
	if (!v->devs || ctx->selected_gpu < 0 ||
	    (size_t)ctx->selected_gpu >= v->devs->count)
		return;
	const struct gt_static *st = &v->devs->items[ctx->selected_gpu];
	const struct gt_sample *s = &v->latest[ctx->selected_gpu];
	char why[128], name[GT_STR_NAME * 4];

	gt_text_escape(name, sizeof(name), st->name, strlen(st->name));
	snprintf(store[n], sizeof(store[n]), "GPU %u  %.140s", st->index, name);
	lines[n] = store[n];
	n++;
	for (int i = 0; i < GT_S__COUNT && n < 95; i++) {
		if (gt_val_ok(&st->f[i]))
			continue;
		gt_why_text(&st->f[i], NULL, why, sizeof(why));
		snprintf(store[n], sizeof(store[n]), "%s.%s: %s",
		         gt_static_desc[i].group, gt_static_desc[i].key, why);
		lines[n] = store[n];
		n++;
	}
	for (int i = 0; i < GT_F__COUNT && n < 95; i++) {
		const struct gt_field_desc *fd = &gt_field_desc[i];
		if (gt_val_ok(&s->f[i]) || !fd->group)
			continue;
		if (i >= GT_F_FAN_PERCENT0 &&
		    (i - GT_F_FAN_PERCENT0) % GT_MAX_FANS >= s->fan_count)
			continue;
		gt_why_text(&s->f[i], NULL, why, sizeof(why));
		snprintf(store[n], sizeof(store[n]), "%s.%s: %s", fd->group,
		         fd->key, why);
		lines[n] = store[n];
		n++;
	}
	if (n == 1) {
		lines[n++] = "every value is available";
	}
	draw_lines(w, lines, n, ov->scroll, " Why N/A (Esc closes) ", ctx);
}

void gt_overlay_draw(WINDOW *w, const struct gt_overlay *ov,
                     const struct gt_overlay_ctx *ctx)
{
	char buf[256], sig[16];

	switch (ov->kind) {
	case GT_OVERLAY_NONE:
	case GT_OVERLAY_FILTER: /* drawn in the status line */
		return;
	case GT_OVERLAY_HELP:
		draw_lines(w, help_lines,
		           (int)(sizeof(help_lines) / sizeof(help_lines[0])),
		           ov->scroll, " gputop help ", ctx);
		return;
	case GT_OVERLAY_EXPLAIN:
		draw_explain(w, ov, ctx);
		return;
	case GT_OVERLAY_SIGNAL: {
		const char *lines[GT_PROCTABLE_NSIGNALS + 2];
		char store[GT_PROCTABLE_NSIGNALS][48];
		int n = 0;
		for (int i = 0; i < GT_PROCTABLE_NSIGNALS; i++) {
			snprintf(store[i], sizeof(store[i]), "%s %d  SIG%s",
			         i == ov->choice ? ">" : " ", i + 1,
			         gt_proctable_signals[i].name);
			lines[n++] = store[i];
		}
		lines[n++] = "";
		lines[n++] = "Enter chooses, Esc cancels";
		draw_lines(w, lines, n, 0, " Send a signal ", ctx);
		return;
	}
	case GT_OVERLAY_CONFIRM: {
		const struct gt_process *p = ctx->process;
		char name[GT_COMM_LEN * 4];
		if (!p)
			return;
		gt_text_escape(name, sizeof(name), p->name, strlen(p->name));
		snprintf(buf, sizeof(buf), "Send SIG%s to %d (%.160s)?  y / n",
		         gt_proctable_signal_name(ov->signal, sig, sizeof(sig)),
		         p->pid, name);
		const char *lines[1] = {buf};
		draw_lines(w, lines, 1, 0, " Confirm ", ctx);
		return;
	}
	}
}

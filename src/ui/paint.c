/* SPDX-License-Identifier: MIT */
/*
 * paint.c - clipped cell painting (see paint.h). Text is decoded here once
 * and handed to ncurses as ready cells: waddnstr would run every byte
 * through mbrtowc and wctob, which cost more than the rest of a frame.
 */
#include "ui/paint.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

/* Cells converted per wadd_wchnstr call; longer text goes in pieces. */
enum { RUN = 256 };

/* Next code point of s at *i, advancing *i; U+FFFD for a malformed
 * sequence (escaped text never has one, but a widget must not trust). */
static uint32_t next_cp(const char *s, size_t *i)
{
	const unsigned char *p = (const unsigned char *)s + *i;
	uint32_t c = p[0];
	int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;

	if (c >= 0x80 && c < 0xC0) {
		(*i)++;
		return 0xFFFD;
	}
	c = extra == 3   ? c & 0x07
	    : extra == 2 ? c & 0x0F
	    : extra      ? c & 0x1F
	                 : c;
	for (int k = 1; k <= extra; k++) {
		if ((p[k] & 0xC0) != 0x80) {
			*i += (size_t)k;
			return 0xFFFD;
		}
		c = (c << 6) | (p[k] & 0x3F);
	}
	*i += (size_t)extra + 1;
	return c;
}

/* Cells code point c takes: 0 for a combining mark, 2 for a wide one.
 * Unprintable ones count (and are drawn) as one cell of U+FFFD. */
static int cp_width(uint32_t *c)
{
	if (*c >= 0x20 && *c < 0x7F)
		return 1;
	int n = wcwidth((wchar_t)*c);
	if (n < 0) {
		*c = 0xFFFD;
		return 1;
	}
	return n;
}

/* cp_width of the code point met last: text and graph rows repeat the
 * same glyph (a box's line, an empty or full graph cell) for long
 * stretches, and wcwidth is the costliest part of a cell. */
struct width_memo {
	uint32_t in, out;
	int w;
	bool set;
};

static int memo_width(struct width_memo *m, uint32_t *c)
{
	if (*c >= 0x20 && *c < 0x7F)
		return 1;
	if (!m->set || m->in != *c) {
		m->in = *c;
		m->w = cp_width(c);
		m->out = *c;
		m->set = true;
	}
	*c = m->out;
	return m->w;
}

struct run {
	WINDOW *w;
	int y, x; /* where run[0] goes */
	int n;
	attr_t attrs;
	short pair;
	cchar_t blank; /* a space in the run's attributes */
	cchar_t cells[RUN];
};

static void run_flush(struct run *r)
{
	if (r->n > 0)
		mvwadd_wchnstr(r->w, r->y, r->x, r->cells, r->n);
	r->x += r->n; /* wide cells' second halves are counted by the caller */
	r->n = 0;
}

static void run_cell(struct run *r, const wchar_t *wc, int width)
{
	if (r->n == RUN)
		run_flush(r);
#ifdef NCURSES_VERSION
	/* ncurses' cchar_t is public: copying a prepared cell and setting
	 * its characters is what setcchar does, without its checks. */
	cchar_t *c = &r->cells[r->n++];
	*c = r->blank;
	for (int k = 0; k < CCHARW_MAX && wc[k]; k++)
		c->chars[k] = wc[k];
#else
	setcchar(&r->cells[r->n++], wc, r->attrs, r->pair, NULL);
#endif
	if (width == 2) {
		/* The next cell is the second half: ncurses fills it, so the
		 * next run must start one cell further right. */
		run_flush(r);
		r->x++;
	}
}

static void run_init(struct run *r, WINDOW *w, int y, int x, int attr)
{
	r->w = w;
	r->y = y;
	r->x = x;
	r->n = 0;
	r->attrs = (attr_t)attr & (A_ATTRIBUTES & ~A_COLOR);
	r->pair = (short)PAIR_NUMBER(attr);
	setcchar(&r->blank, L" ", r->attrs, r->pair, NULL);
}

/* Printable ASCII text takes the narrow path: a chtype carries the
 * attributes, colour pair included, with no conversion at all. Returns
 * the cells written, or -1 when s has anything else within the room. */
static int put_ascii(WINDOW *w, int y, int x, int attr, const char *s, int room)
{
	chtype buf[RUN];
	int n = 0;
	while (n < room && s[n]) {
		unsigned char c = (unsigned char)s[n];
		if (c < 0x20 || c >= 0x7F)
			return -1;
		n++;
	}
	for (int done = 0; done < n;) {
		int k = n - done < RUN ? n - done : RUN;
		for (int i = 0; i < k; i++)
			buf[i] =
			    (chtype)(unsigned char)s[done + i] | (chtype)attr;
		mvwaddchnstr(w, y, x + done, buf, k);
		done += k;
	}
	return n;
}

int gt_paint_put(WINDOW *w, struct gt_rect r, int row, int col, int attr,
                 const char *s)
{
	if (row < 0 || row >= r.h || col < 0 || col >= r.w || !s)
		return 0;
	int room = r.w - col, cells = 0;
	int fast = put_ascii(w, r.y + row, r.x + col, attr, s, room);
	if (fast >= 0) {
		wattrset(w, A_NORMAL);
		return fast;
	}
	struct run run;
	wchar_t wc[CCHARW_MAX + 1];
	int nwc = 0, width = 0;
	size_t i = 0;
	struct width_memo memo = {0};

	run_init(&run, w, r.y + row, r.x + col, attr);
	while (s[i]) {
		uint32_t c = next_cp(s, &i);
		int cw = memo_width(&memo, &c);
		if (cw == 0) {
			/* A mark joins its base; one with no base is left out.
			 */
			if (nwc > 0 && nwc < CCHARW_MAX)
				wc[nwc++] = (wchar_t)c;
			continue;
		}
		if (nwc > 0) {
			wc[nwc] = 0;
			run_cell(&run, wc, width);
			nwc = 0;
		}
		if (cells + cw > room)
			break;
		cells += cw;
		wc[nwc++] = (wchar_t)c;
		width = cw;
	}
	if (nwc > 0) {
		wc[nwc] = 0;
		run_cell(&run, wc, width);
	}
	run_flush(&run);
	/* Callers may draw lines right after: they expect the plain attr. */
	wattrset(w, A_NORMAL);
	return cells;
}

int gt_paint_put_cps(WINDOW *w, struct gt_rect r, int row, int col, int attr,
                     const uint32_t *cps, int n)
{
	if (row < 0 || row >= r.h || col < 0 || col >= r.w || !cps)
		return 0;
	if (n > r.w - col)
		n = r.w - col;
	struct run run;
	struct width_memo memo = {0};
	run_init(&run, w, r.y + row, r.x + col, attr);
	for (int k = 0; k < n; k++) {
		wchar_t wc[2] = {(wchar_t)cps[k], 0};
		uint32_t c = cps[k];
		if (memo_width(&memo, &c) != 1)
			wc[0] = ' '; /* a graph glyph must be one cell */
		run_cell(&run, wc, 1);
	}
	run_flush(&run);
	return n > 0 ? n : 0;
}

void gt_paint_vline(WINDOW *w, struct gt_rect r, int row, int col, int attr,
                    const char *s, int n)
{
	size_t i = 0;
	uint32_t c = s && s[0] ? next_cp(s, &i) : 0;

	if (!c || s[i] || cp_width(&c) != 1 || (c >= 0x20 && c < 0x7F)) {
		/* Text, a wide or a plain ASCII glyph: the general way. */
		for (int k = 0; k < n; k++)
			gt_paint_put(w, r, row + k, col, attr, s);
		return;
	}
	if (col < 0 || col >= r.w)
		return;
	struct run run;
	wchar_t wc[2] = {(wchar_t)c, 0};
	run_init(&run, w, 0, 0, attr);
	run_cell(&run, wc, 1);
	for (int k = row < 0 ? -row : 0; k < n && row + k < r.h; k++)
		mvwadd_wchnstr(w, r.y + row + k, r.x + col, run.cells, 1);
	wattrset(w, A_NORMAL);
}

int gt_paint_cells(const char *s)
{
	int n = 0;
	size_t i = 0;
	while (s && s[i]) {
		uint32_t c = next_cp(s, &i);
		n += cp_width(&c);
	}
	return n;
}

int gt_paint_wrap(const char *text, int width, int maxl, const char **start,
                  int *len)
{
	const char *s = text;
	int n = 0;
	while (*s && n < maxl && width > 0) {
		while (n > 0 && *s == ' ')
			s++;
		const char *p = s, *brk = NULL;
		for (int cells = 0; *p && cells < width; cells++) {
			if (*p == ' ')
				brk = p;
			p++;
			while ((*p & 0xC0) == 0x80)
				p++;
		}
		const char *end =
		    !*p || *p == ' ' || !brk || brk == s ? p : brk;
		if (n == maxl - 1)
			end = s + strlen(s);
		start[n] = s;
		len[n] = (int)(end - s);
		n++;
		s = end;
	}
	return n;
}

int gt_paint_put_wrapped(WINDOW *w, struct gt_rect r, int row, int col,
                         int attr, const char *utf8, int maxl)
{
	enum { MAXL = 16 };
	const char *start[MAXL];
	int len[MAXL], n;
	char line[512];

	if (maxl > MAXL)
		maxl = MAXL;
	if (maxl < 1 || !utf8)
		return 0;
	n = gt_paint_wrap(utf8, r.w - col, maxl, start, len);
	for (int i = 0; i < n; i++) {
		snprintf(line, sizeof(line), "%.*s", len[i], start[i]);
		gt_paint_put(w, r, row + i, col, attr, line);
	}
	return n;
}

/* SPDX-License-Identifier: MIT */
/*
 * curses_read.h - a screen for the ui tests to draw on, and what a widget
 * drew read back out of an ncurses window. static inline so each test uses what
 * it needs.
 */
#ifndef GPUTOP_TEST_CURSES_READ_H
#define GPUTOP_TEST_CURSES_READ_H

#include <curses.h>
#include <locale.h>
#include <stddef.h>
#include <stdio.h>
#include <wchar.h>

/* A curses screen that draws into /dev/null (an xterm-256color one, else
 * xterm), made current, in the C.UTF-8 locale; *io is its stream, for
 * the caller to close after delscreen. NULL when none could be made. */
static inline SCREEN *curses_null_screen(FILE **io)
{
	SCREEN *scr = NULL;
	setlocale(LC_ALL, "C.UTF-8");
	*io = fopen("/dev/null", "r+");
	if (!*io)
		return NULL;
	scr = newterm("xterm-256color", *io, *io);
	if (!scr)
		scr = newterm("xterm", *io, *io);
	if (scr)
		set_term(scr);
	return scr;
}

/* What cell (y, x) of w holds: its characters (wc, CCHARW_MAX + 1 wide),
 * attributes and colour pair. */
static inline void curses_read_cell(WINDOW *w, int y, int x, wchar_t *wc,
                                    attr_t *a, short *pair)
{
	cchar_t c;
	mvwin_wch(w, y, x, &c);
	getcchar(&c, wc, a, pair, NULL);
}

/* The character drawn at (y, x) of w (its first, when combined). */
static inline wchar_t curses_read_glyph(WINDOW *w, int y, int x)
{
	wchar_t wc[CCHARW_MAX + 1] = {0};
	attr_t a;
	short pair;
	curses_read_cell(w, y, x, wc, &a, &pair);
	return wc[0];
}

/* Reads n cells of row `row` of w from column x0 as UTF-8 into out (NUL
 * terminated, cut to fit len). */
static inline void curses_read_row(WINDOW *w, int row, int x0, int n, char *out,
                                   size_t len)
{
	size_t k = 0;
	for (int x = x0; x < x0 + n && k + 8 < len; x++) {
		int m =
		    (int)wcrtomb(out + k, curses_read_glyph(w, row, x), NULL);
		if (m > 0)
			k += (size_t)m;
	}
	out[k] = '\0';
}

#endif

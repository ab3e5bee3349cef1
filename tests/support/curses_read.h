/* SPDX-License-Identifier: MIT */
/*
 * curses_read.h - reads what a widget drew back out of an ncurses window,
 * for the ui tests. static inline so each test uses what it needs.
 */
#ifndef GPUTOP_TEST_CURSES_READ_H
#define GPUTOP_TEST_CURSES_READ_H

#include <curses.h>
#include <stddef.h>
#include <wchar.h>

/* Reads n cells of row `row` of w from column x0 as UTF-8 into out (NUL
 * terminated, cut to fit len). */
static inline void curses_read_row(WINDOW *w, int row, int x0, int n, char *out,
                                   size_t len)
{
	size_t k = 0;
	for (int x = x0; x < x0 + n && k + 8 < len; x++) {
		cchar_t c;
		wchar_t wc[CCHARW_MAX + 1] = {0};
		attr_t a;
		short pair;
		mvwin_wch(w, row, x, &c);
		getcchar(&c, wc, &a, &pair, NULL);
		int m = (int)wcrtomb(out + k, wc[0], NULL);
		if (m > 0)
			k += (size_t)m;
	}
	out[k] = '\0';
}

#endif

/* SPDX-License-Identifier: MIT */
/*
 * paint_wrap.c - text wrapped to a width for the dashboard's notices and
 * dialogs (see paint.h): split at spaces, each line painted like
 * gt_paint_put.
 */
#include <stdio.h>
#include <string.h>

#include "ui/paint.h"

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

/* SPDX-License-Identifier: MIT */
/*
 * paint_text.c - UTF-8 text as terminal cells for paint (see
 * paint_text.h): code points decoded one at a time and the cells each
 * takes.
 */
#include "ui/paint_text.h"

#include <stddef.h>
#include <wchar.h>

uint32_t gt_paint_next_cp(const char *s, size_t *i)
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

int gt_paint_cp_width(uint32_t *c)
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

int gt_paint_memo_width(struct gt_paint_width_memo *m, uint32_t *c)
{
	if (*c >= 0x20 && *c < 0x7F)
		return 1;
	if (!m->set || m->in != *c) {
		m->in = *c;
		m->w = gt_paint_cp_width(c);
		m->out = *c;
		m->set = true;
	}
	*c = m->out;
	return m->w;
}

/* SPDX-License-Identifier: MIT */
/*
 * paint_text.h - UTF-8 decoding and cell widths shared by paint's writers
 * (paint.c); widgets measure text with gt_paint_cells (paint.h).
 */
#ifndef GPUTOP_PAINT_TEXT_H
#define GPUTOP_PAINT_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Next code point of s at *i, advancing *i; U+FFFD for a malformed
 * sequence (escaped text never has one, but a widget must not trust). */
uint32_t gt_paint_next_cp(const char *s, size_t *i);

/* Cells code point *c takes: 0 for a combining mark, 2 for a wide one.
 * An unprintable one counts (and is drawn, *c replaced) as one cell of
 * U+FFFD. */
int gt_paint_cp_width(uint32_t *c);

/* gt_paint_cp_width of the code point met last: text and graph rows
 * repeat the same glyph (a box's line, an empty or full graph cell) for
 * long stretches, and wcwidth is the costliest part of a cell. */
struct gt_paint_width_memo {
	uint32_t in, out;
	int w;
	bool set;
};

int gt_paint_memo_width(struct gt_paint_width_memo *m, uint32_t *c);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * paint.h - clipped cell painting for the dashboard's widgets: text and
 * code points written into one rectangle of a window, never outside it.
 * Writes go straight into the window's cells (wadd_wchnstr), skipping
 * ncurses' per-character multibyte conversion, which dominated the frame
 * cost.
 */
#ifndef GPUTOP_PAINT_H
#define GPUTOP_PAINT_H

#include <curses.h>
#include <stdint.h>

#include "ui/layout.h"

/* Text clipped to the rectangle's width from column col of row row;
 * returns the cells written. Wide characters take two cells and are left
 * out whole when only one is left; combining marks join the character
 * before them. */
int gt_paint_put(WINDOW *w, struct gt_rect r, int row, int col, int attr,
                 const char *utf8);

/* Code points cps[0..n) (each one cell wide, e.g. graph glyphs) from
 * column col of row row, clipped like gt_paint_put; returns the cells written.
 */
int gt_paint_put_cps(WINDOW *w, struct gt_rect r, int row, int col, int attr,
                     const uint32_t *cps, int n);

/* One glyph (UTF-8, one cell wide, e.g. a box's side) in n rows from row
 * row of column col, clipped like gt_paint_put: the same cells as n calls
 * of gt_paint_put, with the glyph decoded once. */
void gt_paint_vline(WINDOW *w, struct gt_rect r, int row, int col, int attr,
                    const char *utf8, int n);

/* Splits text into lines of at most `width` code points, at spaces where
 * it can; the last of `maxl` lines takes whatever is left. Returns the
 * number of lines; start[i], len[i] are byte ranges of text. */
int gt_paint_wrap(const char *text, int width, int maxl, const char **start,
                  int *len);

/* Text word-wrapped to the rectangle's width from column col, from row row
 * on, in at most maxl rows (up to 16; the last is clipped like
 * gt_paint_put). Returns the rows used. */
int gt_paint_put_wrapped(WINDOW *w, struct gt_rect r, int row, int col,
                         int attr, const char *utf8, int maxl);

/* Terminal cells a UTF-8 string takes (wide characters count two,
 * combining marks none, anything unprintable one). */
int gt_paint_cells(const char *utf8);

#endif

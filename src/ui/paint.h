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
#include <stdbool.h>
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

/* A row of r (row row) in spaces of attr, e.g. a selection bar. */
void gt_paint_fill(WINDOW *w, struct gt_rect r, int row, int attr);

/* A row of r (row row) back to the window's background, as werase
 * leaves it. */
void gt_paint_erase(WINDOW *w, struct gt_rect r, int row);

/* A frame of window w: between begin and end, writes into w reach
 * ncurses only where a cell changes, and at end the cells that the last
 * frame wrote and this one did not go back to what the chrome has there,
 * else the background. Begin erases the whole window and returns true
 * on the first frame, after a resize, after gt_paint_invalidate and when
 * key (the caller's hash of what its chrome depends on) changes: the
 * caller then draws its chrome, between gt_paint_chrome(true) and
 * gt_paint_chrome(false); on other frames it leaves the chrome out.
 * Writes outside a frame, or to another window, go straight to ncurses. */
bool gt_paint_begin(WINDOW *w, uint64_t key);
void gt_paint_chrome(bool on);
void gt_paint_end(WINDOW *w);

/* Memo regions: a widget that draws rectangle r from inputs it can hash
 * into key asks gt_paint_region first. True: r showed exactly that key
 * last frame and none of its cells was written since, so its cells stay
 * as they are for this frame and the widget draws nothing. False: the
 * widget draws r now, then calls gt_paint_region_end. A region is known
 * by its rectangle; regions must not overlap one another (a write into
 * another region's cells makes that one draw again, never show stale
 * cells). Outside a frame, in chrome, or with the table full, always
 * false. The table empties whenever the chrome changes. */
#define GT_PAINT_REGIONS 1024
bool gt_paint_region(WINDOW *w, struct gt_rect r, uint64_t key);
void gt_paint_region_end(void);

/* A memo region drawn in place, for a widget most of whose cells stay
 * when its inputs change (a graph moving on by a column). shape hashes
 * what decides how the widget draws but not what it draws (its scale,
 * its glyphs); *memo is a buffer of len bytes that lives with the
 * region, where the widget keeps what it drew from. True: r shows what
 * the widget drew from *memo in this shape and nothing else wrote into
 * it, so the widget writes only the cells that differ and every other
 * cell stays. False: it draws r whole. Either way it leaves in *memo
 * what it drew from, then calls gt_paint_region_end. *memo is NULL
 * (and the answer false) outside a frame, in chrome, with the table
 * full or with no memory. */
bool gt_paint_region_patch(WINDOW *w, struct gt_rect r, uint64_t shape,
                           size_t len, void **memo);

/* Frees the shadow; the next gt_paint_begin starts afresh. */
void gt_paint_release(void);

/* Something wrote into the frame's window behind this file's back (a
 * box of curses lines, a new background): the next frame starts from an
 * erased window. */
void gt_paint_invalidate(void);

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

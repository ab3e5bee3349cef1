/* SPDX-License-Identifier: MIT */
/*
 * graph.h - owns the glyph math of history graphs, meters and time axes.
 * Pure functions: samples in, UTF-8 text (or code points) out. No ncurses,
 * no I/O, no state, so the renderer only places and colours what this
 * produces and every glyph choice is unit-testable.
 *
 * Symbol sets (all glyphs are one terminal cell wide):
 *   BRAILLE  2 samples x 4 dots per cell: U+2800 + dot bits. A cell's left
 *            dot column is the older sample, the right column the newer.
 *            Dot bits, bottom to top: left 0x40 0x04 0x02 0x01 (dots 7 3 2 1),
 *            right 0x80 0x20 0x10 0x08 (dots 8 6 5 4). Area graph: a column
 *            is lit from the bottom up to its sample's height.
 *   BLOCK    1 sample per cell, 8 steps per cell: ' ' then U+2581..U+2588
 *            (lower one eighth .. full block).
 *   ASCII    1 sample per cell, 3 steps per cell: ' ' (empty), '.' (a third),
 *            ':' (two thirds), '|' (full). For terminals and locales without
 *            UTF-8.
 *
 * A graph h rows high has h * steps-per-cell vertical steps (4, 8 or 3 per
 * row). A sample's height is its share of [lo, hi] times that many steps,
 * rounded to nearest, and at least one step when the sample is above lo so
 * that a little activity never looks like none. Rows fill bottom-up: a
 * 50 % sample in a 2-row graph fills exactly the bottom row.
 */
#ifndef GPUTOP_UI_GRAPH_H
#define GPUTOP_UI_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "config/display.h"

/* Samples one row of a w-cell graph shows: 2 per cell for braille, else 1.
 * 0 when w <= 0. */
size_t gt_graph_samples_for(int w, enum gt_glyphs g);

/* Bytes gt_graph_render needs for a w x h graph, the NUL included: every
 * glyph is at most 3 bytes of UTF-8. 1 (just the NUL) when w or h <= 0. */
size_t gt_graph_render_size(int w, int h);

/*
 * Graph of samples[0..n) (oldest first) as code points: cells[row * w + col],
 * row 0 at the top, the newest sample in the rightmost column. Samples older
 * than the width are not shown; columns with no sample are empty. NaN is a
 * missing sample (drawn empty); values are clamped to [lo, hi] (+-inf too).
 * When !(lo < hi) or either is not finite, every cell is empty.
 * cells must hold w * h entries; nothing is written when w or h <= 0.
 */
void gt_graph_cells(const double *samples, size_t n, double lo, double hi,
                    int w, int h, enum gt_glyphs g, uint32_t *cells);

/* The same graph in two steps, for a renderer that draws every row:
 * heights[0..gt_graph_samples_for(w, g)) gets each sample column's height
 * in steps, once; then gt_graph_row_of gives row `row` (0 = top) from them,
 * exactly what gt_graph_cells puts in that row, so a renderer needs no
 * w * h buffer. Nothing is written when w or h <= 0 (or row
 * is outside [0, h)). */
void gt_graph_heights(const double *samples, size_t n, double lo, double hi,
                      int w, int h, enum gt_glyphs g, int *heights);
void gt_graph_row_of(const int *heights, int w, int h, enum gt_glyphs g,
                     int row, uint32_t *cells);

/* gt_graph_heights again for a graph drawn before with the same lo, hi,
 * w, h and g: cols[j] gets sample column j's value (NaN where it has
 * none; cols may be NULL), and heights[j] is was_heights[j] where
 * was_cols[j] held the same value bit for bit, else was_heights[j + 1]
 * where was_cols[j + 1] did, else worked out. A graph standing still or
 * moving on by a column works out only its new columns (and those whose
 * value changed). was_cols or was_heights NULL: every column is worked
 * out. */
void gt_graph_heights_again(const double *samples, size_t n, double lo,
                            double hi, int w, int h, enum gt_glyphs g,
                            const double *was_cols, const int *was_heights,
                            double *cols, int *heights);

/*
 * The same graph as UTF-8 text: h rows of exactly w cells, separated by '\n'
 * (none after the last), NUL-terminated. When outlen is too small the text
 * is cut between whole glyphs (gt_graph_render_size gives enough). Returns
 * the bytes the whole graph takes without the NUL, like snprintf, so
 * truncation is detectable.
 */
size_t gt_graph_render(const double *samples, size_t n, double lo, double hi,
                       int w, int h, enum gt_glyphs g, char *out,
                       size_t outlen);

/*
 * A "nice" upper bound for a non-percent series with lower bound 0: the
 * smallest 1, 2 or 5 x 10^k at or above the largest finite sample, so axes
 * move in readable steps instead of jittering with every peak. 1 when there
 * is no positive finite sample.
 */
double gt_graph_autoscale(const double *samples, size_t n);

/*
 * A horizontal meter of w cells for frac in [0, 1] (clamped; NaN draws an
 * empty meter). UTF-8 sets: full blocks then one left-eighth block
 * (U+258F one eighth .. U+2589 seven eighths), so 8 steps per cell; the
 * empty part is spaces (the renderer gives it the meter background colour).
 * ASCII: '#' filled, '-' empty, one step per cell. Nonzero never rounds to an
 * empty meter. out gets exactly w cells, NUL-terminated (cut between whole
 * glyphs if outlen is short). Returns the number of cells with any fill.
 */
int gt_graph_meter(double frac, int w, enum gt_glyphs g, char *out,
                   size_t outlen);

/*
 * A time axis of exactly w cells (ASCII text) for a graph of width w drawn
 * with g, one sample every seconds_per_sample: labels such as "60s", "30s",
 * "0s" with each label's last character in the column that shows that age
 * ("0s" ends in the rightmost column). The step is the smallest of
 * 1 2 5 10 15 30 s, 1 2 5 10 15 30 min, 1 2 3 6 12 h, 1 2 7 30 d whose
 * labels are at least 8 cells apart with two spaces between them; labels
 * that would not fit or would touch another are left out. Labels use the
 * step's unit: "30s", "5m", "2h", "7d" ("0s" for the newest). All spaces when
 * seconds_per_sample is not a positive finite number. NUL-terminated (cut if
 * outlen is short); returns the number of labels placed.
 */
int gt_graph_time_labels(int w, double seconds_per_sample, enum gt_glyphs g,
                         char *out, size_t outlen);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * graph.c - owns the glyph math of graphs, meters and time axes (see
 * graph.h for the symbol sets and the rounding rule). Braille glyphs are
 * computed from dot bits rather than looked up in btop's 25-entry tables:
 * the same result, and the bit layout is checkable against the Unicode
 * braille pattern definition.
 */
#include "ui/graph.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Cumulative dot masks of a braille column lit from the bottom to level
 * 0..4: left column dots 7,3,2,1; right column dots 8,6,5,4. */
static const uint8_t braille_left[5] = {0x00, 0x40, 0x44, 0x46, 0x47};
static const uint8_t braille_right[5] = {0x00, 0x80, 0xa0, 0xb0, 0xb8};

static const char ascii_steps[4] = {' ', '.', ':', '|'};

/* Vertical steps one cell can show. */
static int steps_per_cell(enum gt_glyphs g)
{
	switch (g) {
	case GT_GLYPHS_BRAILLE:
		return 4;
	case GT_GLYPHS_BLOCK:
		return 8;
	case GT_GLYPHS_ASCII:
	case GT_GLYPHS__COUNT:
		break;
	}
	return 3;
}

size_t gt_graph_samples_for(int w, enum gt_glyphs g)
{
	if (w <= 0)
		return 0;
	return (size_t)w * (g == GT_GLYPHS_BRAILLE ? 2u : 1u);
}

size_t gt_graph_render_size(int w, int h)
{
	if (w <= 0 || h <= 0)
		return 1;
	/* 3 bytes per glyph, h - 1 newlines, the NUL */
	return (size_t)h * ((size_t)w * 3 + 1);
}

/* Geometry and scale shared by every cell of one graph. */
struct graph {
	const double *samples;
	size_t n;
	double lo, hi;
	int w, h;
	int steps; /* per cell */
	int spc;   /* samples per cell */
	bool valid;
};

static void graph_init(struct graph *gr, const double *samples, size_t n,
                       double lo, double hi, int w, int h, enum gt_glyphs g)
{
	gr->samples = samples;
	gr->n = samples ? n : 0;
	gr->lo = lo;
	gr->hi = hi;
	gr->w = w;
	gr->h = h;
	gr->steps = steps_per_cell(g);
	gr->spc = g == GT_GLYPHS_BRAILLE ? 2 : 1;
	gr->valid = isfinite(lo) && isfinite(hi) && lo < hi && w > 0 && h > 0;
}

/* The sample of sample column j, 0 = leftmost of w * spc columns (the
 * last holds the newest sample); NaN where the history is shorter. */
static double column_value(const struct graph *gr, int j)
{
	size_t back = (size_t)gr->w * (size_t)gr->spc - (size_t)j; /* >= 1 */
	return back > gr->n ? NAN : gr->samples[gr->n - back];
}

/* Height in steps (0 .. h * steps) of a column holding v. */
static int value_height(const struct graph *gr, double v)
{
	if (!gr->valid || isnan(v) || v <= gr->lo)
		return 0;
	if (v > gr->hi)
		v = gr->hi;

	int total = gr->h * gr->steps;
	long u = lround((v - gr->lo) / (gr->hi - gr->lo) * total);
	if (u < 1)
		u = 1; /* above lo: never indistinguishable from idle */
	if (u > total)
		u = total;
	return (int)u;
}

static int column_height(const struct graph *gr, int j)
{
	return value_height(gr, column_value(gr, j));
}

/* Level 0..steps of band `band` (0 = bottom row) for a column of height u. */
static int band_level(int u, int band, int steps)
{
	int lvl = u - band * steps;
	if (lvl < 0)
		return 0;
	return lvl > steps ? steps : lvl;
}

/* The glyph of cell column c in band `band` (0 = bottom row), from the
 * heights of its sample columns: heights[2c] and heights[2c+1] for
 * braille, heights[c] otherwise. The one mapping every form draws with. */
static uint32_t glyph_of(const int *heights, int c, int band, enum gt_glyphs g)
{
	switch (g) {
	case GT_GLYPHS_BRAILLE:
		return 0x2800u |
		       braille_left[band_level(heights[2 * c], band, 4)] |
		       braille_right[band_level(heights[2 * c + 1], band, 4)];
	case GT_GLYPHS_BLOCK: {
		int l = band_level(heights[c], band, 8);
		return l == 0 ? (uint32_t)' ' : 0x2580u + (uint32_t)l;
	}
	case GT_GLYPHS_ASCII:
	case GT_GLYPHS__COUNT:
		break;
	}
	return (uint32_t)(unsigned char)
	    ascii_steps[band_level(heights[c], band, 3)];
}

/* One cell, its sample columns' heights worked out on the spot. */
static uint32_t cell_glyph(const struct graph *gr, enum gt_glyphs g, int row,
                           int col)
{
	int hs[2] = {column_height(gr, gr->spc * col),
	             gr->spc == 2 ? column_height(gr, 2 * col + 1) : 0};
	return glyph_of(hs, 0, gr->h - 1 - row, g);
}

void gt_graph_cells(const double *samples, size_t n, double lo, double hi,
                    int w, int h, enum gt_glyphs g, uint32_t *cells)
{
	struct graph gr;

	if (w <= 0 || h <= 0 || !cells)
		return;
	if ((unsigned)g >= GT_GLYPHS__COUNT)
		g = GT_GLYPHS_ASCII;
	graph_init(&gr, samples, n, lo, hi, w, h, g);
	for (int r = 0; r < h; r++)
		for (int c = 0; c < w; c++)
			cells[(size_t)r * (size_t)w + (size_t)c] =
			    cell_glyph(&gr, g, r, c);
}

void gt_graph_heights(const double *samples, size_t n, double lo, double hi,
                      int w, int h, enum gt_glyphs g, int *heights)
{
	gt_graph_heights_again(samples, n, lo, hi, w, h, g, NULL, NULL, NULL,
	                       heights);
}

void gt_graph_heights_again(const double *samples, size_t n, double lo,
                            double hi, int w, int h, enum gt_glyphs g,
                            const double *was_cols, const int *was_heights,
                            double *cols, int *heights)
{
	struct graph gr;

	if (w <= 0 || h <= 0 || !heights)
		return;
	if ((unsigned)g >= GT_GLYPHS__COUNT)
		g = GT_GLYPHS_ASCII;
	graph_init(&gr, samples, n, lo, hi, w, h, g);
	int nc = w * gr.spc;
	bool again = was_cols && was_heights;
	for (int j = 0; j < nc; j++) {
		double v = column_value(&gr, j);
		if (cols)
			cols[j] = v;
		/* The column as it was, or its right neighbour's (the graph
		 * moved on by a column); bit for bit, so NaN matches NaN. */
		if (again && memcmp(&v, &was_cols[j], sizeof(v)) == 0)
			heights[j] = was_heights[j];
		else if (again && j + 1 < nc &&
		         memcmp(&v, &was_cols[j + 1], sizeof(v)) == 0)
			heights[j] = was_heights[j + 1];
		else
			heights[j] = value_height(&gr, v);
	}
}

void gt_graph_row_of(const int *heights, int w, int h, enum gt_glyphs g,
                     int row, uint32_t *cells)
{
	if (w <= 0 || h <= 0 || row < 0 || row >= h || !heights || !cells)
		return;
	if ((unsigned)g >= GT_GLYPHS__COUNT)
		g = GT_GLYPHS_ASCII;
	for (int c = 0; c < w; c++)
		cells[c] = glyph_of(heights, c, h - 1 - row, g);
}

/* Bounded writer: counts what the whole text needs, stores what fits, and
 * never stores part of a glyph. */
struct sink {
	char *out;
	size_t len;
	size_t pos;
	size_t need;
	bool full;
};

static void sink_init(struct sink *s, char *out, size_t len)
{
	s->out = out;
	s->len = out ? len : 0;
	s->pos = 0;
	s->need = 0;
	s->full = false;
	if (s->len)
		out[0] = '\0';
}

static void sink_put(struct sink *s, const char *bytes, size_t k)
{
	s->need += k;
	if (s->full || s->pos + k >= s->len) {
		s->full =
		    true; /* later, shorter glyphs must not skip this one */
		return;
	}
	memcpy(s->out + s->pos, bytes, k);
	s->pos += k;
	s->out[s->pos] = '\0';
}

static void sink_cp(struct sink *s, uint32_t cp)
{
	char b[4];
	size_t k;

	if (cp < 0x80) {
		b[0] = (char)cp;
		k = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | (cp >> 6));
		b[1] = (char)(0x80 | (cp & 0x3f));
		k = 2;
	} else {
		/* every glyph here is in the BMP */
		b[0] = (char)(0xe0 | (cp >> 12));
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		k = 3;
	}
	sink_put(s, b, k);
}

size_t gt_graph_render(const double *samples, size_t n, double lo, double hi,
                       int w, int h, enum gt_glyphs g, char *out, size_t outlen)
{
	struct graph gr;
	struct sink s;

	sink_init(&s, out, outlen);
	if (w <= 0 || h <= 0)
		return 0;
	if ((unsigned)g >= GT_GLYPHS__COUNT)
		g = GT_GLYPHS_ASCII;
	graph_init(&gr, samples, n, lo, hi, w, h, g);
	for (int r = 0; r < h; r++) {
		if (r > 0)
			sink_put(&s, "\n", 1);
		for (int c = 0; c < w; c++)
			sink_cp(&s, cell_glyph(&gr, g, r, c));
	}
	return s.need;
}

double gt_graph_autoscale(const double *samples, size_t n)
{
	static const double mult[] = {1.0, 2.0, 5.0, 10.0};
	double max = 0.0;

	for (size_t i = 0; samples && i < n; i++)
		if (isfinite(samples[i]) && samples[i] > max)
			max = samples[i];
	if (!(max > 0.0))
		return 1.0;

	double base = pow(10.0, floor(log10(max)));
	for (size_t i = 0; i < sizeof(mult) / sizeof(mult[0]); i++) {
		double cand = mult[i] * base;
		/* the tolerance absorbs pow/log10 rounding, so a sample that
		 * is exactly a nice value keeps that value as its bound */
		if (cand >= max * (1.0 - 1e-12))
			return isfinite(cand) ? cand : max;
	}
	return max; /* not reached: 10 * base > max */
}

int gt_graph_meter(double frac, int w, enum gt_glyphs g, char *out,
                   size_t outlen)
{
	struct sink s;
	bool ascii = (unsigned)g >= GT_GLYPHS__COUNT || g == GT_GLYPHS_ASCII;
	int steps = ascii ? 1 : 8;

	sink_init(&s, out, outlen);
	if (w <= 0)
		return 0;
	if (isnan(frac) || frac < 0.0)
		frac = 0.0;
	if (frac > 1.0)
		frac = 1.0;

	long total = (long)w * steps;
	long e = lround(frac * (double)total);
	if (e == 0 && frac > 0.0)
		e = 1;
	int full = (int)(e / steps);
	int part = (int)(e % steps);

	for (int c = 0; c < w; c++) {
		if (c < full)
			sink_cp(&s, ascii ? '#' : 0x2588u);
		else if (c == full && part > 0)
			/* U+258F is the left one eighth, U+2589 seven eighths
			 */
			sink_cp(&s, 0x2590u - (uint32_t)part);
		else
			sink_cp(&s, ascii ? '-' : ' ');
	}
	return full + (part > 0);
}

/* Writes the label of an age of t seconds into buf, in the unit of the
 * step so that one axis never mixes "60s" with "2m". */
static void time_label(long long t, long long step, char *buf, size_t len)
{
	long long unit = 1;
	char u = 's';
	if (t > 0 && step % 86400 == 0)
		unit = 86400, u = 'd';
	else if (t > 0 && step % 3600 == 0)
		unit = 3600, u = 'h';
	else if (t > 0 && step % 60 == 0)
		unit = 60, u = 'm';
	/* Digits by hand: an axis has a dozen labels a frame, and snprintf
	 * was a tenth of drawing a graph. */
	char digits[24];
	int n = 0;
	unsigned long long v =
	    t < 0 ? 0ull - (unsigned long long)t : (unsigned long long)t;
	v /= (unsigned long long)unit;
	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	size_t k = 0;
	if (t < 0 && k + 1 < len)
		buf[k++] = '-';
	while (n > 0 && k + 1 < len)
		buf[k++] = digits[--n];
	if (k + 1 < len)
		buf[k++] = u;
	if (len)
		buf[k] = '\0';
}

int gt_graph_time_labels(int w, double seconds_per_sample, enum gt_glyphs g,
                         char *out, size_t outlen)
{
	static const long long steps[] = {
	    1,     2,     5,     10,    15,        30,        60,
	    120,   300,   600,   900,   1800,      3600,      7200,
	    10800, 21600, 43200, 86400, 2 * 86400, 7 * 86400, 30 * 86400,
	};
	const size_t nsteps = sizeof(steps) / sizeof(steps[0]);
	char lab[32];

	if (!out || outlen == 0)
		return 0;
	int room = w > 0 ? w : 0;
	if ((size_t)room > outlen - 1)
		room = (int)(outlen - 1); /* cut, but stay NUL-terminated */
	memset(out, ' ', (size_t)room);
	out[room] = '\0';
	if (w <= 0 || !isfinite(seconds_per_sample) ||
	    seconds_per_sample <= 0.0)
		return 0;

	/* seconds per cell; the oldest visible sample is this old */
	double spcell =
	    seconds_per_sample * (g == GT_GLYPHS_BRAILLE ? 2.0 : 1.0);
	double span =
	    ((double)gt_graph_samples_for(w, g) - 1.0) * seconds_per_sample;

	long long step = steps[nsteps - 1];
	for (size_t i = 0; i < nsteps; i++) {
		long long far = (long long)(span / (double)steps[i]) * steps[i];
		time_label(far, steps[i], lab, sizeof(lab));
		/* a few labels read better than a ruler: at least 8 cells
		 * apart and two spaces between labels */
		double need = (double)strlen(lab) + 2.0;
		if (need < 8.0)
			need = 8.0;
		if ((double)steps[i] / spcell >= need) {
			step = steps[i];
			break;
		}
	}

	int placed = 0;
	int last_start = w + 1; /* start column of the label to the right */
	/* when even the largest step is too dense (months of history), the
	 * overlap check below still keeps labels apart */
	for (long long t = 0; (double)t <= span; t += step) {
		/* the small epsilon keeps exact multiples in their own cell */
		double cells_back = floor((double)t / spcell + 1e-9);
		if (cells_back > (double)(w - 1))
			break;
		int end = w - 1 - (int)cells_back;
		time_label(t, step, lab, sizeof(lab));
		int len = (int)strlen(lab);
		int start = end - len + 1;
		if (start < 0)
			break; /* and every older label is further left */
		if (end > last_start - 2)
			continue; /* would touch the label to its right */
		for (int k = 0; k < len; k++)
			if (start + k < room)
				out[start + k] = lab[k];
		last_start = start;
		placed++;
	}
	return placed;
}

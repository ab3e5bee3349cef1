/* SPDX-License-Identifier: MIT */
/*
 * paint.c - clipped cell painting (see paint.h). Text is decoded here once
 * and handed to ncurses as ready cells: waddnstr would run every byte
 * through mbrtowc and wctob, which cost more than the rest of a frame.
 *
 * Between gt_paint_begin and gt_paint_end the window has a shadow: what
 * this file last wrote in each cell. A cell whose new content equals its
 * shadow is not handed to ncurses at all, so an unchanged label, box or
 * row costs neither wnoutrefresh's copy nor doupdate's comparison, and
 * the window is never erased: cells written last frame and not this one
 * go back to the background at gt_paint_end. The chrome (boxes, labels:
 * what changes only with the layout) is drawn once into a base layer
 * that those cells go back to instead.
 */
#include "ui/paint.h"

#include "core/hash.h"
#include "ui/paint_text.h"

#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

/* Cells converted per wadd_wchnstr call; longer text goes in pieces. */
enum { RUN = 256 };

/* The shadow of the one window frames are painted into. It is a file
 * static because curses itself is one screen per process (stdscr): the
 * shadow describes that window and lives as long as it. */
struct canvas {
	WINDOW *w;       /* the window shadowed, or NULL */
	int rows, cols;  /* its size when the shadow was made */
	cchar_t *shadow; /* rows * cols: what each cell holds */
	cchar_t *base;   /* rows * cols: the chrome, else the background */
	uint32_t *stamp; /* rows * cols: the frame that last wrote it */
	/* rows: the last frame that gave a cell of the row a frame's stamp;
	 * the sweep looks only at rows that this or the last frame did. */
	uint32_t *row_stamp;
	/* rows * cols: which text wrote the cell (the cell where that
	 * text starts), and for a cell where a text starts, that text's
	 * hash and the cells it took: a text drawn again unchanged where
	 * the same text left all its cells is kept, not decoded again. */
	uint32_t *owner;
	struct put_memo {
		uint64_t hash;
		int cells;
	} * memo;
	uint32_t writer; /* the owner of what emit writes now */
	/* rows * cols: the memo region (its slot + 1) whose rectangle holds
	 * each cell as of its last drawing, AREA_NONE outside all. */
	uint16_t *area;
	uint16_t cur_area; /* the region drawing now, AREA_NONE for none */
	struct region {
		struct gt_rect r;
		uint64_t key;
		uint32_t frame; /* the last frame that drew or kept it */
		uint32_t kept;  /* the last frame that kept it */
		/* Something else wrote into its rectangle since it drew:
		 * what it shows there is not known to be its own. */
		bool dirty;
		bool used;
		/* A patched region's key is its shape, and memo holds what
		 * its widget drew it from (gt_paint_region_patch). */
		bool patchable;
		void *memo;
		size_t memo_len;
	} regions[GT_PAINT_REGIONS];
	/* Slots kept this frame and last frame: a region kept last frame
	 * and not drawn or kept in this one is swept whole at the end. */
	uint16_t kept_now[GT_PAINT_REGIONS], kept_last[GT_PAINT_REGIONS];
	int nkept_now, nkept_last;
	uint32_t frame;
	uint64_t key;  /* the caller's name for the chrome in base */
	cchar_t blank; /* what werase leaves: the window's background */
	bool valid;    /* false: the next begin erases and repaints all */
	bool sweeping; /* putting back what no one wrote: not a write */
	bool chrome;   /* writes go to base too, and stay */
};

static struct canvas canvas;

/* The stamp of chrome: cells no frame sweeps. */
static const uint32_t STAMP_CHROME = UINT32_MAX;
/* The stamp of a cell no frame wrote (frames count from 2). */
static const uint32_t STAMP_NONE = 0;
/* The owner of cells written by anything but gt_paint_put. */
static const uint32_t NO_OWNER = UINT32_MAX;
/* The area of a cell in no memo region. */
enum { AREA_NONE = 0 };

/* A write into cell k: a region whose rectangle holds it and that is not
 * the one drawing now can no longer trust its cells. */
static void mark_write(struct canvas *c, size_t k)
{
	uint16_t a = c->area[k];
	if (a != AREA_NONE && a != c->cur_area && !c->sweeping)
		c->regions[a - 1].dirty = true;
}

/* Sentinels no text ever holds: the right half of a wide character, and
 * a cell whose content is not known (the next write always goes out). */
enum { CELL_RIGHT_HALF = 0x7FFFFFFE, CELL_UNKNOWN = 0x7FFFFFFD };

static void cell_mark(cchar_t *c, wchar_t what)
{
	memset(c, 0, sizeof(*c));
	c->chars[0] = what;
}

static bool cell_is(const cchar_t *c, wchar_t what)
{
	return c->chars[0] == what;
}

static bool cell_same(const cchar_t *a, const cchar_t *b)
{
	return memcmp(a, b, sizeof(*a)) == 0;
}

/* Cell y, x now holds cell: as chrome, the base layer keeps it. */
static void stamp_cell(struct canvas *c, int y, int x, const cchar_t *cell)
{
	size_t k = (size_t)y * (size_t)c->cols + (size_t)x;
	c->owner[k] = c->writer;
	mark_write(c, k);
	if (c->chrome) {
		c->base[k] = *cell;
		c->stamp[k] = STAMP_CHROME;
	} else {
		c->stamp[k] = c->frame;
		c->row_stamp[y] = c->frame;
	}
}

static void forget_cell(struct canvas *c, int y, int x)
{
	size_t k = (size_t)y * (size_t)c->cols + (size_t)x;
	cell_mark(&c->shadow[k], CELL_UNKNOWN);
	mark_write(c, k);
	if (c->stamp[k] != c->frame)
		c->stamp[k] = c->frame - 1;
	c->row_stamp[y] = c->frame;
}

/* Hands cells[0..n) at y, x to ncurses, leaving out those whose shadow
 * says they are there already; the last cell is a wide character when
 * wide. Outside a frame, or for another window, all go straight out. */
static void emit(WINDOW *w, int y, int x, const cchar_t *cells, int n,
                 bool wide)
{
	struct canvas *c = &canvas;
	if (!c->valid || w != c->w || y < 0 || y >= c->rows || x < 0) {
		mvwadd_wchnstr(w, y, x, cells, n);
		return;
	}
	if (n > c->cols - x)
		n = c->cols - x;
	cchar_t *sh = c->shadow + (size_t)y * (size_t)c->cols;
	int start = -1;
	for (int i = 0; i <= n; i++) {
		int k = x + i;
		if (i < n && !cell_same(&sh[k], &cells[i])) {
			/* Writing over either half of a wide character
			 * breaks the other half: its content is unknown,
			 * and this frame's sweep repaints it unless the
			 * frame writes it. */
			if (cell_is(&sh[k], CELL_RIGHT_HALF) && k > 0)
				forget_cell(c, y, k - 1);
			if (k + 1 < c->cols &&
			    cell_is(&sh[k + 1], CELL_RIGHT_HALF))
				forget_cell(c, y, k + 1);
			sh[k] = cells[i];
			stamp_cell(c, y, k, &cells[i]);
			if (start < 0)
				start = i;
			continue;
		}
		if (i < n)
			stamp_cell(c, y, k, &cells[i]);
		if (start >= 0) {
			mvwadd_wchnstr(w, y, x + start, cells + start,
			               i - start);
			start = -1;
		}
	}
	if (wide && n > 0 && x + n < c->cols) {
		cell_mark(&sh[x + n], CELL_RIGHT_HALF);
		stamp_cell(c, y, x + n, &sh[x + n]);
	}
}

/* Empties the region table, memos included. */
static void regions_clear(struct canvas *c)
{
	for (int i = 0; i < GT_PAINT_REGIONS; i++)
		free(c->regions[i].memo);
	memset(c->regions, 0, sizeof(c->regions));
	c->nkept_now = c->nkept_last = 0;
}

void gt_paint_release(void)
{
	regions_clear(&canvas);
	free(canvas.shadow);
	free(canvas.base);
	free(canvas.stamp);
	free(canvas.owner);
	free(canvas.memo);
	free(canvas.area);
	free(canvas.row_stamp);
	memset(&canvas, 0, sizeof(canvas));
}

/* Drops the shadow: the next gt_paint_begin erases the window. */
void gt_paint_invalidate(void)
{
	canvas.valid = false;
}

bool gt_paint_begin(WINDOW *w, uint64_t key)
{
	struct canvas *c = &canvas;
	int rows, cols;
	getmaxyx(w, rows, cols);
	c->chrome = false;
	if (c->w != w || c->rows != rows || c->cols != cols || !c->shadow) {
		free(c->shadow);
		free(c->base);
		free(c->stamp);
		free(c->owner);
		free(c->memo);
		free(c->area);
		free(c->row_stamp);
		size_t n = (size_t)(rows > 0 ? rows : 0) *
		           (size_t)(cols > 0 ? cols : 0);
		c->shadow = n ? malloc(n * sizeof(*c->shadow)) : NULL;
		c->base = n ? malloc(n * sizeof(*c->base)) : NULL;
		c->stamp = n ? malloc(n * sizeof(*c->stamp)) : NULL;
		c->owner = n ? malloc(n * sizeof(*c->owner)) : NULL;
		c->memo = n ? malloc(n * sizeof(*c->memo)) : NULL;
		c->area = n ? malloc(n * sizeof(*c->area)) : NULL;
		c->row_stamp =
		    n ? malloc((size_t)rows * sizeof(*c->row_stamp)) : NULL;
		c->w = w;
		c->rows = rows;
		c->cols = cols;
		c->valid = false;
	}
	c->writer = NO_OWNER;
	c->cur_area = AREA_NONE;
	if (!c->shadow || !c->base || !c->stamp || !c->owner || !c->memo ||
	    !c->area || !c->row_stamp) {
		/* No memory for a shadow: every frame whole, as werase. */
		c->valid = false;
		werase(w);
		return true;
	}
	if (c->valid && c->key == key) {
		c->frame++;
		memcpy(c->kept_last, c->kept_now,
		       (size_t)c->nkept_now * sizeof(*c->kept_now));
		c->nkept_last = c->nkept_now;
		c->nkept_now = 0;
		return false;
	}
	werase(w);
	wgetbkgrnd(w, &c->blank);
	size_t n = (size_t)rows * (size_t)cols;
	for (size_t i = 0; i < n; i++) {
		c->shadow[i] = c->blank;
		c->base[i] = c->blank;
	}
	memset(c->stamp, 0, n * sizeof(*c->stamp));    /* STAMP_NONE */
	memset(c->owner, 0xFF, n * sizeof(*c->owner)); /* NO_OWNER */
	memset(c->area, 0, n * sizeof(*c->area));      /* AREA_NONE */
	memset(c->row_stamp, 0, (size_t)rows * sizeof(*c->row_stamp));
	regions_clear(c);
	c->frame = 2;
	c->key = key;
	c->valid = true;
	return true;
}

void gt_paint_chrome(bool on)
{
	canvas.chrome = on && canvas.valid;
}

/* Cell y, x back to what the chrome has there, else the background; the
 * right half of a wide character of the chrome is restored with its left
 * half, unless this frame wrote that one. The sweep puts back what the
 * last frame wrote and this one did not; an erase is a write. */
static void restore_cell(struct canvas *c, WINDOW *w, int y, int x)
{
	size_t k = (size_t)y * (size_t)c->cols + (size_t)x;
	cchar_t under = c->base[k];
	bool wide = false;
	if (cell_is(&under, CELL_RIGHT_HALF)) {
		if (x > 0 && c->stamp[k - 1] != c->frame) {
			under = c->base[k - 1];
			k--;
			x--;
			wide = true;
		} else {
			under = c->blank;
		}
	} else if (x + 1 < c->cols &&
	           cell_is(&c->base[k + 1], CELL_RIGHT_HALF)) {
		/* A wide character of the chrome: whole, or not at all
		 * where this frame wrote its right half. */
		wide = c->stamp[k + 1] != c->frame;
		if (!wide)
			under = c->blank;
	}
	emit(w, y, x, &under, 1, wide); /* a write, unless sweeping */
	/* Swept back to the background, a cell is no one's write: stamped
	 * this frame, the next sweep would put it back again, and every one
	 * after it while its row is written (822 cells a frame in the soak,
	 * each compared again). */
	c->stamp[k] = !cell_same(&under, &c->blank) ? STAMP_CHROME
	              : c->sweeping                 ? STAMP_NONE
	                                            : c->frame;
	if (wide)
		c->stamp[k + 1] = STAMP_CHROME;
}

/* The cells of region slot s's area that this frame did not write, back
 * to the chrome or the background. */
static void region_sweep(struct canvas *c, WINDOW *w, int s)
{
	const struct gt_rect r = c->regions[s].r;
	uint16_t me = (uint16_t)(s + 1);
	int x1 = r.x + r.w < c->cols ? r.x + r.w : c->cols;
	int y1 = r.y + r.h < c->rows ? r.y + r.h : c->rows;
	for (int y = r.y < 0 ? 0 : r.y; y < y1; y++)
		for (int x = r.x < 0 ? 0 : r.x; x < x1; x++) {
			size_t k = (size_t)y * (size_t)c->cols + (size_t)x;
			if (c->area[k] == me && c->stamp[k] != c->frame &&
			    c->stamp[k] != STAMP_CHROME)
				restore_cell(c, w, y, x);
		}
}

void gt_paint_end(WINDOW *w)
{
	struct canvas *c = &canvas;
	if (!c->valid || w != c->w)
		return;
	/* Only cells written by the last frame can hold what this one
	 * left out: older ones went back to the chrome then. */
	uint32_t last = c->frame - 1;
	c->chrome = false;
	c->cur_area = AREA_NONE;
	c->sweeping = true;
	for (int y = 0; y < c->rows; y++) {
		if (c->row_stamp[y] < last)
			continue;
		size_t row = (size_t)y * (size_t)c->cols;
		for (int x = 0; x < c->cols; x++) {
			if (c->stamp[row + (size_t)x] != last)
				continue;
			/* A region kept this frame shows what it wrote then. */
			uint16_t a = c->area[row + (size_t)x];
			if (a != AREA_NONE &&
			    c->regions[a - 1].kept == c->frame)
				continue;
			restore_cell(c, w, y, x);
		}
	}
	/* A region kept last frame and gone from this one: its cells keep
	 * the stamps of when it drew, so they are put back here. */
	for (int i = 0; i < c->nkept_last; i++) {
		int s = c->kept_last[i];
		if (c->regions[s].frame != c->frame)
			region_sweep(c, w, s);
	}
	c->sweeping = false;
}

void gt_paint_erase(WINDOW *w, struct gt_rect r, int row)
{
	if (row < 0 || row >= r.h || r.w <= 0)
		return;
	if (!canvas.valid || w != canvas.w) {
		wmove(w, r.y + row, r.x);
		wclrtoeol(w);
		return;
	}
	canvas.chrome = false;
	for (int x = r.x; x < r.x + r.w && x < canvas.cols; x++)
		restore_cell(&canvas, w, r.y + row, x);
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

static void run_flush_wide(struct run *r, bool wide)
{
	if (r->n > 0)
		emit(r->w, r->y, r->x, r->cells, r->n, wide);
	r->x += r->n; /* wide cells' second halves are counted by the caller */
	r->n = 0;
}

static void run_flush(struct run *r)
{
	run_flush_wide(r, false);
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
		run_flush_wide(r, true);
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
	if (canvas.valid && w == canvas.w) {
		/* Cells to compare with the shadow: the blank of the
		 * attributes with each character set in it. */
		struct run run;
		run_init(&run, w, y, x, attr);
		for (int i = 0; i < n; i++) {
			if (run.n == RUN)
				run_flush(&run);
			run.cells[run.n] = run.blank;
			run.cells[run.n++].chars[0] = (wchar_t)s[i];
		}
		run_flush(&run);
		return n;
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

/* gt_paint_put's work: text decoded and written through emit. */
static int put_text(WINDOW *w, struct gt_rect r, int row, int col, int attr,
                    const char *s)
{
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
	struct gt_paint_width_memo memo = {0};

	run_init(&run, w, r.y + row, r.x + col, attr);
	while (s[i]) {
		uint32_t c = gt_paint_next_cp(s, &i);
		int cw = gt_paint_memo_width(&memo, &c);
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

/* True when cell k of row sh already holds code point cp alone in the
 * run's attributes: what emit would find equal, without building the
 * cell. */
static bool cps_same(const cchar_t *sh, const struct run *r, uint32_t cp)
{
#ifdef NCURSES_VERSION
	return sh->chars[0] == (wchar_t)cp && sh->chars[1] == 0 &&
	       sh->attr == r->blank.attr
#if NCURSES_EXT_COLORS
	       && sh->ext_color == r->blank.ext_color
#endif
	    ;
#else
	(void)sh;
	(void)r;
	(void)cp;
	return false;
#endif
}

/* Cells a graph glyph takes: braille and block elements are one cell
 * each (Unicode East Asian Width "N"/"A", wcwidth 1) and fill most
 * graphs, so they skip wcwidth. */
static int glyph_width(struct gt_paint_width_memo *m, uint32_t *c)
{
	if ((*c >= 0x2800 && *c <= 0x28FF) || (*c >= 0x2580 && *c <= 0x259F))
		return 1;
	return gt_paint_memo_width(m, c);
}

int gt_paint_put_cps(WINDOW *w, struct gt_rect r, int row, int col, int attr,
                     const uint32_t *cps, int n)
{
	if (row < 0 || row >= r.h || col < 0 || col >= r.w || !cps)
		return 0;
	if (n > r.w - col)
		n = r.w - col;
	struct canvas *c = &canvas;
	struct run run;
	struct gt_paint_width_memo memo = {0};
	run_init(&run, w, r.y + row, r.x + col, attr);
	/* Cells the shadow holds already are stamped and skipped without
	 * being built: a graph drawn again mostly repeats itself. */
	bool shadowed = c->valid && w == c->w && !c->chrome && run.y >= 0 &&
	                run.y < c->rows && run.x >= 0 && run.x + n <= c->cols;
	const cchar_t *sh =
	    shadowed ? c->shadow + (size_t)run.y * (size_t)c->cols : NULL;
	for (int k = 0; k < n; k++) {
		uint32_t cp = cps[k];
		if (glyph_width(&memo, &cp) != 1)
			cp = ' '; /* a graph glyph must be one cell */
		int x = r.x + col + k;
		if (sh && cps_same(&sh[x], &run, cp)) {
			run_flush(&run);
			stamp_cell(c, run.y, x, &sh[x]);
			run.x = x + 1;
			continue;
		}
		wchar_t wc[2] = {(wchar_t)cp, 0};
		run_cell(&run, wc, 1);
	}
	run_flush(&run);
	return n > 0 ? n : 0;
}

void gt_paint_vline(WINDOW *w, struct gt_rect r, int row, int col, int attr,
                    const char *s, int n)
{
	size_t i = 0;
	uint32_t c = s && s[0] ? gt_paint_next_cp(s, &i) : 0;

	if (!c || s[i] || gt_paint_cp_width(&c) != 1 ||
	    (c >= 0x20 && c < 0x7F)) {
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
		emit(w, r.y + row + k, r.x + col, run.cells, 1, false);
	wattrset(w, A_NORMAL);
}

int gt_paint_cells(const char *s)
{
	int n = 0;
	size_t i = 0;
	/* Printable ASCII, most of what is measured, a cell a byte. */
	while (s && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7F)
		i++;
	n = (int)i;
	while (s && s[i]) {
		uint32_t c = gt_paint_next_cp(s, &i);
		n += gt_paint_cp_width(&c);
	}
	return n;
}

void gt_paint_fill(WINDOW *w, struct gt_rect r, int row, int attr)
{
	if (row < 0 || row >= r.h || r.w <= 0)
		return;
	struct run run;
	run_init(&run, w, r.y + row, r.x, attr);
	for (int x = 0; x < r.w; x++) {
		if (run.n == RUN)
			run_flush(&run);
		run.cells[run.n++] = run.blank;
	}
	run_flush(&run);
	wattrset(w, A_NORMAL);
}

/* A hash of what decides the cells a text takes: its bytes, its
 * attributes and the room it is clipped to. */
static uint64_t put_hash(const char *s, int attr, int room)
{
	uint64_t h = gt_hash_u64(GT_HASH_SEED, (uint64_t)(unsigned)attr << 32 |
	                                           (uint64_t)(unsigned)room);
	return gt_hash_str(h, s);
}

/* True, and the cells kept for this frame, when the text starting at k
 * last frame was this one and all its cells still hold what it wrote. */
static bool keep_put(struct canvas *c, size_t k, uint64_t hash)
{
	const struct put_memo *m = &c->memo[k];
	if (m->hash != hash ||
	    k % (size_t)c->cols + (size_t)m->cells > (size_t)c->cols)
		return false;
	for (size_t i = k; i < k + (size_t)m->cells; i++)
		if (c->owner[i] != (uint32_t)k || c->stamp[i] != c->frame - 1)
			return false;
	for (size_t i = k; i < k + (size_t)m->cells; i++) {
		c->stamp[i] = c->frame;
		mark_write(c, i);
	}
	c->row_stamp[k / (size_t)c->cols] = c->frame;
	return true;
}

int gt_paint_put(WINDOW *w, struct gt_rect r, int row, int col, int attr,
                 const char *s)
{
	if (row < 0 || row >= r.h || col < 0 || col >= r.w || !s)
		return 0;
	struct canvas *c = &canvas;
	int y = r.y + row, x = r.x + col;
	if (!c->valid || w != c->w || c->chrome || y < 0 || y >= c->rows ||
	    x < 0 || x >= c->cols)
		return put_text(w, r, row, col, attr, s);
	size_t k = (size_t)y * (size_t)c->cols + (size_t)x;
	uint64_t hash = put_hash(s, attr, r.w - col);
	if (keep_put(c, k, hash))
		return c->memo[k].cells;
	c->writer = (uint32_t)k;
	int cells = put_text(w, r, row, col, attr, s);
	c->writer = NO_OWNER;
	c->memo[k] = (struct put_memo){hash, cells};
	return cells;
}

/* The slot of region r: found, else a free one taken; -1 when the table
 * is full (the region is then drawn every frame). */
static int region_slot(struct canvas *c, struct gt_rect r)
{
	uint64_t h = gt_hash_bytes(GT_HASH_SEED, &r, sizeof(r));
	for (int i = 0; i < GT_PAINT_REGIONS; i++) {
		int s = (int)((h + (uint64_t)i) % GT_PAINT_REGIONS);
		struct region *g = &c->regions[s];
		if (!g->used) {
			*g = (struct region){.r = r, .used = true};
			return s;
		}
		if (memcmp(&g->r, &r, sizeof(r)) == 0)
			return s;
	}
	return -1;
}

/* Region slot s draws now: the cells of its rectangle are its area;
 * a region that had some of them (its rectangle moved) must draw again.
 * True when another write reached one of them earlier in this frame: the
 * region cannot tell that from its own, and must draw again next frame. */
static bool region_claim(struct canvas *c, int s)
{
	bool before = false;
	const struct gt_rect r = c->regions[s].r;
	uint16_t me = (uint16_t)(s + 1);
	int x1 = r.x + r.w < c->cols ? r.x + r.w : c->cols;
	int y1 = r.y + r.h < c->rows ? r.y + r.h : c->rows;
	for (int y = r.y < 0 ? 0 : r.y; y < y1; y++) {
		size_t row = (size_t)y * (size_t)c->cols;
		uint16_t *a = c->area + row;
		for (int x = r.x < 0 ? 0 : r.x; x < x1; x++) {
			if (a[x] != AREA_NONE && a[x] != me)
				c->regions[a[x] - 1].dirty = true;
			a[x] = me;
			/* Cells kept since an older frame: what this drawing
			 * leaves out of them, the sweep puts back. */
			uint32_t *st = &c->stamp[row + (size_t)x];
			before |= *st == c->frame;
			if (*st != c->frame && *st != STAMP_CHROME) {
				*st = c->frame - 1;
				c->row_stamp[y] = c->frame;
			}
		}
	}
	return before;
}

/* The slot of rectangle r of w for a region drawing now, or -1: outside
 * a frame, in chrome, for an empty rectangle or with the table full (the
 * region is then drawn every frame). */
static int region_open(WINDOW *w, struct gt_rect r)
{
	struct canvas *c = &canvas;
	c->cur_area = AREA_NONE;
	if (!c->valid || w != c->w || c->chrome || r.w <= 0 || r.h <= 0)
		return -1;
	return region_slot(c, r);
}

/* Region slot s shows key this frame: its cells kept as they are (the
 * sweep passes them by) when keep, else claimed for drawing. */
static void region_enter(struct canvas *c, int s, uint64_t key, bool keep)
{
	struct region *g = &c->regions[s];
	if (keep) {
		g->kept = c->frame;
		c->kept_now[c->nkept_now++] = (uint16_t)s;
	} else {
		g->dirty = region_claim(c, s);
	}
	g->key = key;
	g->frame = c->frame;
}

bool gt_paint_region(WINDOW *w, struct gt_rect r, uint64_t key)
{
	struct canvas *c = &canvas;
	int s = region_open(w, r);
	if (s < 0)
		return false;
	struct region *g = &c->regions[s];
	/* Kept: it showed this key last frame, and nothing wrote into it
	 * since (every write into a region's area marks it). */
	bool kept = g->key == key && g->frame == c->frame - 1 && !g->dirty;
	region_enter(c, s, key, kept);
	if (!kept)
		c->cur_area = (uint16_t)(s + 1);
	g->patchable = false;
	return kept;
}

bool gt_paint_region_patch(WINDOW *w, struct gt_rect r, uint64_t shape,
                           size_t len, void **memo)
{
	struct canvas *c = &canvas;
	int s = region_open(w, r);
	*memo = NULL;
	if (s < 0)
		return false;
	struct region *g = &c->regions[s];
	if (g->memo_len != len) {
		free(g->memo);
		g->memo = len ? calloc(1, len) : NULL;
		g->memo_len = g->memo ? len : 0;
		g->patchable = false;
	}
	/* It shows what it drew from the memo in this shape, and nothing
	 * else wrote into it: the cells the caller leaves out stay, as a
	 * kept region's do. */
	bool patch = g->patchable && g->key == shape &&
	             g->frame == c->frame - 1 && !g->dirty;
	region_enter(c, s, shape, patch);
	c->cur_area = (uint16_t)(s + 1);
	g->patchable = g->memo != NULL;
	*memo = g->memo;
	return patch;
}

void gt_paint_region_end(void)
{
	canvas.cur_area = AREA_NONE;
}

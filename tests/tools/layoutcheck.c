/* SPDX-License-Identifier: MIT */
/*
 * layoutcheck - reads a dashboard screen captured with `tmux capture-pane
 * -p` on stdin and checks its layout as a user would see it, so the
 * terminal tests need neither python nor anything outside the repository
 * (tests/terminal/layout.sh):
 *
 *   visible  every GPU shows: "[i]" in a panel's title, or a one-line row
 *            starting with its index
 *   touch    no two panels touch: boxes are whole and do not overlap;
 *            two boxes side by side keep a blank column between them (no
 *            right border next to a left one: "││", "╮╭", "╯╰"); two
 *            stacked boxes a blank row or at least their two borders (a
 *            bottom border right above a top one); a panel without a box has
 *            a blank column (or a border) between it and its right
 *            neighbour and a blank row above it; the process table's
 *            header has a blank row or a border above it
 *   axis     no number (an axis label, a value) touches plotted cells
 *            (braille) on its left or right
 *   graph3   every graph (a connected area of braille cells) is at least
 *            3 rows high and a whole rectangle: nothing drawn over it
 *   shape    every panel box shows the same: as many runs of rows
 *            holding braille, the lowest as high when there are two or
 *            more, a time axis ("0s") in all or in none, as many rows
 *            of numbers under them (so the main graph alone may be a
 *            row taller in some)
 *   blank    no band of more than 2 rows with nothing but blanks and box
 *            sides between the title and the status line
 *   line     one-line rows (a row that starts with a GPU's index) show
 *            the memory total (--vram) and power limit (--power) whole,
 *            and a name from --names ("A|B|C": the allowed shortenings)
 *   procs    (with --procs N) the process table shows: its header and,
 *            right under it, at least N rows that start with a PID
 *
 *   layoutcheck --gpus N [--procs N] [--vram TEXT] [--power TEXT]
 *               [--names LIST]
 *
 * Prints "ok CHECK" or "FAIL CHECK: why" lines (at most 5 reasons each)
 * and exits 1 when any check fails, 2 on bad usage. The screen is read as
 * UTF-8 in cells (a wide character takes two).
 */
#include <locale.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

enum { MAXR = 200, MAXC = 512, MAXFAIL = 5 };

/* The program's state, file-scope as it is one run over one screen: the
 * screen as code points, its size, and what each check found. */
static uint32_t g[MAXR][MAXC];
static int rows, cols;
enum check { VISIBLE, TOUCH, AXIS, GRAPH3, SHAPE, BLANK, LINE, PROCS, NCHECK };
static const char *const names[NCHECK] = {"visible", "touch", "axis", "graph3",
                                          "shape",   "blank", "line", "procs"};
static int nfail[NCHECK]; /* reasons printed per check */
static bool failed[NCHECK];

__attribute__((format(printf, 2, 3))) static void fail(enum check c,
                                                       const char *fmt, ...)
{
	va_list ap;

	failed[c] = true;
	if (nfail[c]++ >= MAXFAIL)
		return;
	printf("FAIL %s: ", names[c]);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static uint32_t decode(const unsigned char **p)
{
	const unsigned char *s = *p;
	uint32_t c = s[0];
	int n = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;

	c = n == 3 ? c & 7 : n == 2 ? c & 15 : n ? c & 31 : c;
	for (int k = 1; k <= n && s[k]; k++)
		c = (c << 6) | (s[k] & 0x3F);
	*p = s + 1 + n;
	return c;
}

static void read_screen(void)
{
	static char line[MAXC * 4 + 8];

	while (rows < MAXR && fgets(line, sizeof(line), stdin)) {
		const unsigned char *p = (const unsigned char *)line;
		int x = 0;
		while (*p && *p != '\n' && x < MAXC) {
			uint32_t c = decode(&p);
			int w = wcwidth((wchar_t)c);
			g[rows][x++] = c;
			if (w == 2 && x < MAXC)
				g[rows][x++] = ' ';
		}
		for (; x < MAXC; x++)
			g[rows][x] = ' ';
		rows++;
	}
	/* Trailing blank rows are not part of the screen's text. */
	cols = MAXC;
}

static uint32_t at(int r, int c)
{
	return r >= 0 && r < rows && c >= 0 && c < cols ? g[r][c] : ' ';
}

static bool braille(uint32_t c)
{
	return c >= 0x2800 && c <= 0x28FF;
}

static bool box(uint32_t c)
{
	return c == 0x256D || c == 0x256E || c == 0x2570 || c == 0x256F ||
	       c == 0x2500 || c == 0x2502;
}

static bool blankish(uint32_t c)
{
	return c == ' ' || box(c);
}

/* Does row r hold the ASCII text s from column c? */
static bool text_at(int r, int c, const char *s)
{
	for (int k = 0; s[k]; k++)
		if (at(r, c + k) != (uint32_t)(unsigned char)s[k])
			return false;
	return true;
}

static bool find_text(const char *s, int *rr, int *cc)
{
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++)
			if (text_at(r, c, s)) {
				*rr = r;
				*cc = c;
				return true;
			}
	return false;
}

/* A row that starts (after an optional box side) with a GPU index: the
 * one-line form. Returns the index, or -1. */
static int line_index(int r, int *after)
{
	int c = at(r, 0) == 0x2502 ? 1 : 0;

	if (at(r, c) != ' ' && at(r, c) != '>')
		return -1;
	c++;
	while (at(r, c) == ' ' && c < 4)
		c++;
	int v = 0, k = 0;
	while (at(r, c) >= '0' && at(r, c) <= '9' && k < 3) {
		v = v * 10 + (int)(at(r, c) - '0');
		c++;
		k++;
	}
	if (!k || at(r, c) != ' ' || at(r, c + 1) == ' ' ||
	    at(r, c + 1) == 0x2502)
		return -1;
	*after = c + 1;
	return v;
}

/* The status line: the last row with text. */
static int status_row(void)
{
	for (int r = rows - 1; r >= 0; r--)
		for (int c = 0; c < cols; c++)
			if (at(r, c) != ' ')
				return r;
	return 0;
}

/* The process table's header row, or -1. */
static int table_header(void)
{
	for (int r = 0; r < rows; r++)
		for (int c = 0; c + 8 < cols; c++)
			if (text_at(r, c, "PID USER"))
				return r;
	return -1;
}

static void check_visible(int ngpus)
{
	char m[16];
	int r, c, after;

	for (int i = 0; i < ngpus; i++) {
		snprintf(m, sizeof(m), "[%d]", i);
		bool seen = find_text(m, &r, &c);
		for (r = 0; r < rows && !seen; r++)
			seen = line_index(r, &after) == i;
		if (!seen)
			fail(VISIBLE, "GPU %d is not on the screen", i);
	}
}

struct rect {
	int r0, c0, r1, c1; /* inclusive */
};

/* The box whose top-left corner is at r, c, or false if it is broken. */
static bool trace_box(int r, int c, struct rect *b)
{
	int r1 = r + 1, c1 = c + 1;

	while (at(r1, c) == 0x2502)
		r1++;
	if (at(r1, c) != 0x2570)
		return false;
	while (at(r1, c1) == 0x2500)
		c1++;
	if (at(r1, c1) != 0x256F || at(r, c1) != 0x256E)
		return false;
	for (int y = r + 1; y < r1; y++)
		if (at(y, c1) != 0x2502)
			return false;
	*b = (struct rect){r, c, r1, c1};
	return true;
}

static bool inside(const struct rect *b, int r, int c)
{
	return r >= b->r0 && r <= b->r1 && c >= b->c0 && c <= b->c1;
}

enum { MAXBOX = 64 };
static struct rect boxes[MAXBOX]; /* the boxes found (find_boxes) */
static int nbox;

static void find_boxes(void)
{
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++) {
			if (at(r, c) != 0x256D)
				continue;
			struct rect b;
			if (!trace_box(r, c, &b))
				fail(TOUCH,
				     "the box at row %d col %d is broken", r,
				     c);
			else if (nbox < MAXBOX)
				boxes[nbox++] = b;
		}
	for (int i = 0; i < nbox; i++)
		for (int j = i + 1; j < nbox; j++) {
			struct rect *a = &boxes[i], *b = &boxes[j];
			if (a->r0 <= b->r1 && b->r0 <= a->r1 &&
			    a->c0 <= b->c1 && b->c0 <= a->c1)
				fail(TOUCH, "boxes at %d,%d and %d,%d overlap",
				     a->r0, a->c0, b->r0, b->c0);
		}
}

/* Does the box a end right before b starts: b's left side in the column
 * after a's right side on a shared row? Stacked boxes may meet border to
 * border (the two borders part them, the "a gap or a border" the layout
 * promises); boxes that overlap fail in find_boxes. */
static bool beside(const struct rect *a, const struct rect *b)
{
	return a->c1 + 1 == b->c0 && a->r0 <= b->r1 && b->r0 <= a->r1;
}

/* Boxes side by side with no gap between them, found two ways: from the
 * traced boxes, and from the corner cells themselves (a right corner
 * followed by a left one), which holds even where a box is broken and so
 * was not traced. */
static void check_box_gaps(void)
{
	for (int i = 0; i < nbox; i++)
		for (int j = 0; j < nbox; j++) {
			const struct rect *a = &boxes[i], *b = &boxes[j];
			if (beside(a, b))
				fail(TOUCH,
				     "the boxes at row %d col %d and row %d "
				     "col %d touch side by side (no blank "
				     "column between)",
				     a->r0, a->c0, b->r0, b->c0);
		}
	for (int r = 0; r < rows; r++)
		for (int c = 0; c + 1 < cols; c++) {
			uint32_t x = at(r, c), right = at(r, c + 1);
			if ((x == 0x256E && right == 0x256D) ||
			    (x == 0x256F && right == 0x2570))
				fail(TOUCH,
				     "box corners touch side by side at row "
				     "%d col %d",
				     r, c);
		}
}

/* Panels without a box: their "[i]" title's start, the width up to the
 * next one on its row, the rows down to the next title, the table or
 * the status line. Such panels must keep a blank column between them and
 * a blank row above them. */
static void check_unboxed(int ngpus, int last)
{
	struct anchor {
		int r, c;
	} a[256];
	int n = 0;
	char m[16];

	for (int i = 0; i < ngpus && n < 256; i++) {
		snprintf(m, sizeof(m), "[%d]", i);
		for (int r = 0; r < rows; r++)
			for (int c = 0; c < cols; c++) {
				bool boxed = false;
				if (!text_at(r, c, m))
					continue;
				for (int k = 0; k < nbox; k++)
					boxed =
					    boxed || inside(&boxes[k], r, c);
				if (!boxed && n < 256)
					a[n++] = (struct anchor){
					    r, c > 0 ? c - 1 : 0};
			}
	}
	for (int i = 0; i < n; i++) {
		int below = last;
		for (int j = 0; j < n; j++)
			if (a[j].r > a[i].r && a[j].r < below)
				below = a[j].r;
		for (int j = 0; j < n; j++) {
			if (a[j].r != a[i].r || a[j].c <= a[i].c)
				continue;
			for (int r = a[i].r; r < below; r++)
				if (!blankish(at(r, a[j].c - 1))) {
					fail(TOUCH,
					     "panels at col %d and %d touch on "
					     "row %d",
					     a[i].c, a[j].c, r);
					break;
				}
		}
		if (a[i].r <= 1)
			continue;
		for (int c = a[i].c; c < a[i].c + 20; c++)
			if (!blankish(at(a[i].r - 1, c))) {
				fail(TOUCH,
				     "the panel at row %d col %d touches the "
				     "one above",
				     a[i].r, a[i].c);
				break;
			}
	}
}

static void check_touch(int ngpus, int last)
{
	int h = table_header();

	find_boxes();
	check_box_gaps();
	check_unboxed(ngpus, h > 0 ? h : last);
	if (h > 1) {
		bool sep = true;
		for (int c = 0; c < cols; c++)
			sep = sep && blankish(at(h - 1, c));
		if (!sep)
			fail(TOUCH,
			     "the process table's header (row %d) touches "
			     "the row above",
			     h);
	}
}

/* A number (a run of non-blank cells holding a digit) must not touch a
 * braille cell. */
static void check_axis(void)
{
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols;) {
			uint32_t ch = at(r, c);
			if (ch == ' ' || braille(ch) || box(ch)) {
				c++;
				continue;
			}
			int e = c;
			bool digit = false;
			while (e < cols && at(r, e) != ' ' &&
			       !braille(at(r, e)) && !box(at(r, e))) {
				digit = digit ||
				        (at(r, e) >= '0' && at(r, e) <= '9');
				e++;
			}
			if (digit &&
			    (braille(at(r, c - 1)) || braille(at(r, e))))
				fail(AXIS,
				     "a label at row %d col %d touches plotted "
				     "cells",
				     r, c);
			c = e;
		}
}

static unsigned char seen[MAXR][MAXC]; /* cells check_graphs has filled */

/* Flood fill of one area of braille cells: its bounding box and size. */
static void fill(int r0, int c0, struct rect *b, long *n)
{
	static int stack[MAXR * MAXC][2]; /* scratch: too big for a stack */
	int sp = 0;

	*b = (struct rect){r0, c0, r0, c0};
	*n = 0;
	stack[sp][0] = r0;
	stack[sp++][1] = c0;
	seen[r0][c0] = 1;
	while (sp) {
		sp--;
		int r = stack[sp][0], c = stack[sp][1];
		(*n)++;
		b->r0 = r < b->r0 ? r : b->r0;
		b->r1 = r > b->r1 ? r : b->r1;
		b->c0 = c < b->c0 ? c : b->c0;
		b->c1 = c > b->c1 ? c : b->c1;
		static const int d[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
		for (int k = 0; k < 4; k++) {
			int y = r + d[k][0], x = c + d[k][1];
			if (y < 0 || y >= rows || x < 0 || x >= cols ||
			    seen[y][x] || !braille(g[y][x]))
				continue;
			seen[y][x] = 1;
			stack[sp][0] = y;
			stack[sp++][1] = x;
		}
	}
}

static void check_graphs(void)
{
	memset(seen, 0, sizeof(seen));
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++) {
			if (seen[r][c] || !braille(g[r][c]))
				continue;
			struct rect b;
			long n;
			fill(r, c, &b, &n);
			long area = (long)(b.r1 - b.r0 + 1) * (b.c1 - b.c0 + 1);
			if (b.r1 - b.r0 + 1 < 3)
				fail(GRAPH3,
				     "the graph at row %d col %d is %d rows "
				     "high",
				     b.r0, b.c0, b.r1 - b.r0 + 1);
			else if (n != area)
				fail(GRAPH3,
				     "the graph at row %d col %d has %ld cells "
				     "of other text inside",
				     b.r0, b.c0, area - n);
		}
}

static void check_blank(int last)
{
	int run = 0;

	for (int r = 1; r < last; r++) {
		bool empty = true;
		for (int c = 0; c < cols && empty; c++)
			empty = at(r, c) == ' ' || at(r, c) == 0x2502;
		run = empty ? run + 1 : 0;
		if (run == 3)
			fail(BLANK, "rows %d to at least %d are blank", r - 2,
			     r);
	}
}

/* The cells of row r from c as UTF-8 (for messages and matching). */
static void row_text(int r, int c, char *buf, size_t len)
{
	size_t k = 0;
	for (; c < cols && k + 5 < len; c++) {
		uint32_t ch = at(r, c);
		if (ch < 0x80) {
			buf[k++] = (char)ch;
		} else if (ch < 0x800) {
			buf[k++] = (char)(0xC0 | (ch >> 6));
			buf[k++] = (char)(0x80 | (ch & 0x3F));
		} else {
			buf[k++] = (char)(0xE0 | (ch >> 12));
			buf[k++] = (char)(0x80 | ((ch >> 6) & 0x3F));
			buf[k++] = (char)(0x80 | (ch & 0x3F));
		}
	}
	while (k > 0 && buf[k - 1] == ' ')
		k--;
	buf[k] = '\0';
}

static bool name_ok(const char *row, const char *list)
{
	char want[256];
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, "|");
		snprintf(want, sizeof(want), "%.*s", (int)n, p);
		/* the name, then at least one blank and a number */
		size_t k = strlen(want);
		if (strncmp(row, want, k) == 0 && row[k] == ' ')
			return true;
		p += n + (p[n] == '|');
	}
	return false;
}

/* What a box shows: runs of rows holding braille inside it (the main
 * graph, then the bands), the rows of the lowest when there are two or
 * more, whether a time axis ends inside it ("0s"), and the rows under
 * the last of those (its lines of numbers). */
struct shape {
	int runs, low_rows, info_rows;
	bool axis;
};

static struct shape box_shape(const struct rect *b)
{
	struct shape s = {0, 0, 0, false};
	int run = 0, last = b->r0; /* the last row of graph or axis */
	char text[MAXC * 4];

	for (int r = b->r0 + 1; r < b->r1; r++) {
		bool any = false;
		for (int c = b->c0 + 1; c < b->c1 && !any; c++)
			any = braille(at(r, c));
		if (any && run++ == 0)
			s.runs++;
		if (!any && run) {
			s.low_rows = run;
			run = 0;
		}
		row_text(r, b->c0 + 1, text, sizeof(text));
		bool axis = strstr(text, " 0s") != NULL;
		s.axis = s.axis || axis;
		if (any || axis)
			last = r;
	}
	if (run)
		s.low_rows = run;
	s.info_rows = b->r1 - 1 - last;
	if (s.runs < 2)
		s.low_rows = 0; /* the main graph alone may differ by a row */
	return s;
}

static void check_shapes(void)
{
	struct shape s0 = {0, 0, 0, false};

	for (int i = 0; i < nbox; i++) {
		struct shape s = box_shape(&boxes[i]);
		if (i == 0)
			s0 = s;
		else if (s.runs != s0.runs || s.low_rows != s0.low_rows ||
		         s.axis != s0.axis || s.info_rows != s0.info_rows)
			fail(SHAPE,
			     "the panel at row %d col %d shows %d run(s) of "
			     "graph rows, the lowest %d rows high, %s axis, "
			     "%d rows of numbers; the one at row %d col %d "
			     "%d, %d, %s, %d",
			     boxes[i].r0, boxes[i].c0, s.runs, s.low_rows,
			     s.axis ? "a time" : "no time", s.info_rows,
			     boxes[0].r0, boxes[0].c0, s0.runs, s0.low_rows,
			     s0.axis ? "a time axis" : "no time axis",
			     s0.info_rows);
	}
}

static void check_lines(const char *vram, const char *power,
                        const char *names_ok)
{
	char text[MAXC * 4];
	int after;

	for (int r = 0; r < rows; r++) {
		int i = line_index(r, &after);
		if (i < 0)
			continue;
		row_text(r, after, text, sizeof(text));
		if (vram && !strstr(text, vram))
			fail(LINE, "GPU %d's row lacks \"%s\": %s", i, vram,
			     text);
		if (power && !strstr(text, power))
			fail(LINE, "GPU %d's row lacks \"%s\": %s", i, power,
			     text);
		if (names_ok && !name_ok(text, names_ok))
			fail(LINE, "GPU %d's name is cut: %s", i, text);
	}
}

/* The table's header, then at least `want` rows of "  PID ..." under it. */
static void check_procs(int want)
{
	int h = table_header(), n = 0;

	if (want <= 0)
		return;
	if (h < 0) {
		fail(PROCS, "no process table header (PID USER ...)");
		return;
	}
	for (int r = h + 1; r < rows; r++) {
		int c = 0;
		while (c < cols && at(r, c) == ' ')
			c++;
		if (c == 0 || c >= cols || at(r, c) < '0' || at(r, c) > '9')
			break;
		n++;
	}
	if (n < want)
		fail(PROCS,
		     "%d process rows under the header at row %d, not %d", n, h,
		     want);
}

int main(int argc, char **argv)
{
	int ngpus = -1, procs = 0;
	const char *vram = NULL, *power = NULL, *names_ok = NULL;

	setlocale(LC_ALL, "C.UTF-8");
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--gpus") && i + 1 < argc)
			ngpus = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--procs") && i + 1 < argc)
			procs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--vram") && i + 1 < argc)
			vram = argv[++i];
		else if (!strcmp(argv[i], "--power") && i + 1 < argc)
			power = argv[++i];
		else if (!strcmp(argv[i], "--names") && i + 1 < argc)
			names_ok = argv[++i];
		else {
			fprintf(stderr,
			        "usage: layoutcheck --gpus N [--procs N] "
			        "[--vram TEXT] [--power TEXT] [--names A|B] "
			        "< screen\n");
			return 2;
		}
	}
	if (ngpus < 0) {
		fprintf(stderr, "layoutcheck: --gpus is needed\n");
		return 2;
	}
	read_screen();
	int last = status_row();
	check_visible(ngpus);
	check_touch(ngpus, last);
	check_axis();
	check_graphs();
	check_shapes();
	check_blank(last);
	check_lines(vram, power, names_ok);
	check_procs(procs);
	bool any = false;
	for (int c = 0; c < NCHECK; c++) {
		if (!failed[c])
			printf("ok %s\n", names[c]);
		any = any || failed[c];
	}
	return any ? 1 : 0;
}

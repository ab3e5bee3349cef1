/* SPDX-License-Identifier: MIT */
/*
 * sgrcheck - reads a screen captured with `tmux capture-pane -p -e` (-N
 * keeps the trailing blanks) on stdin and checks its colours cell by
 * cell, so the terminal tests need neither python nor anything outside
 * the repository:
 *
 *   sgrcheck                counts visible cells (not blank) whose
 *                           foreground and background are the same
 *                           colour; prints "N invisible cells" and the
 *                           first examples; exit 1 when N > 0
 *   sgrcheck --near R       the same for a contrast (WCAG 2 ratio) under
 *                           R: equal and nearly equal colours
 *   sgrcheck --bg C [--cols N]
 *                           counts cells, blank ones too, whose background
 *                           is not C ("default", a palette number, or
 *                           #RRGGBB); with --cols, a line shorter than N
 *                           cells counts its missing cells as "default"
 *   sgrcheck --count-bg C [--cols N]
 *                           prints how many cells are on background C
 *                           ("N cells on background C"); exit 0
 *   sgrcheck --cell ROW COL prints the cell's colours (0-based) as
 *                           "fg=C bg=C" and its attributes
 *   sgrcheck --report [--cols N]
 *                           all in one go (a test on a slow machine saves
 *                           a process per question): "cell0 fg=C bg=C"
 *                           for the first cell, then "bg C N" for each
 *                           background, most used first
 *
 * Colours are compared as RGB: a palette number is xterm's default colour
 * for it, so 40 (black) and 48;5;16 (#000000) are the same colour. Reverse
 * video swaps the two. Both the `38;5;N` and the `38:2::R:G:B` forms are
 * read. This does what ../shared/tools/sgr_check.py does, plus --bg,
 * --cell and --near.
 */
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

enum kind { DEFAULT, COLOUR };

struct colour {
	enum kind kind;
	uint32_t rgb;
};

struct pen {
	struct colour fg, bg;
	bool bold, dim, reverse;
};

/* xterm's default palette: 0..15, the 6x6x6 cube, the grey ramp. */
static uint32_t palette(int i)
{
	static const uint32_t ansi[16] = {
	    0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd,
	    0x00cdcd, 0xe5e5e5, 0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00,
	    0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff};
	static const int level[6] = {0, 95, 135, 175, 215, 255};

	if (i < 0 || i > 255)
		return 0;
	if (i < 16)
		return ansi[i];
	if (i < 232) {
		i -= 16;
		return (uint32_t)(level[i / 36] << 16 |
		                  level[(i / 6) % 6] << 8 | level[i % 6]);
	}
	uint32_t g = (uint32_t)(8 + 10 * (i - 232));
	return g << 16 | g << 8 | g;
}

static struct colour indexed(int i)
{
	return (struct colour){COLOUR, palette(i)};
}

static double linear(uint32_t v)
{
	double c = (double)(v & 0xff) / 255.0;
	return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static double contrast(uint32_t a, uint32_t b)
{
	double la = 0.2126 * linear(a >> 16) + 0.7152 * linear(a >> 8) +
	            0.0722 * linear(a);
	double lb = 0.2126 * linear(b >> 16) + 0.7152 * linear(b >> 8) +
	            0.0722 * linear(b);
	return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

/* Parameters of one SGR sequence: p[i] with its sub-parameters (after
 * ':') in sub[i][0..nsub[i]); an empty parameter is 0, an empty
 * sub-parameter -1. */
#define MAXP 32
struct sgr {
	int n;
	int p[MAXP];
	int nsub[MAXP];
	int sub[MAXP][6];
};

static void parse_sgr(const char *s, size_t len, struct sgr *g)
{
	size_t i = 0;

	memset(g, 0, sizeof(*g));
	while (i <= len && g->n < MAXP) {
		int k = g->n++, v = 0, have = 0;
		while (i < len && s[i] >= '0' && s[i] <= '9')
			v = v * 10 + (s[i++] - '0'), have = 1;
		g->p[k] = v;
		(void)have;
		while (i < len && s[i] == ':') {
			int sv = -1;
			i++;
			if (i < len && s[i] >= '0' && s[i] <= '9') {
				sv = 0;
				while (i < len && s[i] >= '0' && s[i] <= '9')
					sv = sv * 10 + (s[i++] - '0');
			}
			if (g->nsub[k] < 6)
				g->sub[k][g->nsub[k]++] = sv;
		}
		if (i >= len)
			break;
		i++; /* ';' */
	}
}

/* An extended colour (38/48) at parameter k; returns how many of the
 * following parameters it used. */
static int extended(const struct sgr *g, int k, struct colour *c)
{
	const int *sub = g->sub[k];
	int ns = g->nsub[k];

	if (ns > 0) { /* 38:5:N, 38:2:R:G:B or 38:2:CS:R:G:B */
		if (sub[0] == 5 && ns >= 2)
			*c = indexed(sub[1]);
		else if (sub[0] == 2 && ns >= 4) {
			int o = ns >= 5 ? 2 : 1;
			*c = (struct colour){
			    COLOUR, (uint32_t)(sub[o] & 0xff) << 16 |
			                (uint32_t)(sub[o + 1] & 0xff) << 8 |
			                (uint32_t)(sub[o + 2] & 0xff)};
		}
		return 0;
	}
	if (k + 2 < g->n && g->p[k + 1] == 5) {
		*c = indexed(g->p[k + 2]);
		return 2;
	}
	if (k + 4 < g->n && g->p[k + 1] == 2) {
		*c = (struct colour){COLOUR,
		                     (uint32_t)(g->p[k + 2] & 0xff) << 16 |
		                         (uint32_t)(g->p[k + 3] & 0xff) << 8 |
		                         (uint32_t)(g->p[k + 4] & 0xff)};
		return 4;
	}
	return 0;
}

static void apply_sgr(struct pen *pen, const char *s, size_t len)
{
	struct sgr g;

	parse_sgr(s, len, &g);
	for (int k = 0; k < g.n; k++) {
		int c = g.p[k];
		if (c == 0)
			*pen = (struct pen){0};
		else if (c == 1)
			pen->bold = true;
		else if (c == 2)
			pen->dim = true;
		else if (c == 22)
			pen->bold = pen->dim = false;
		else if (c == 7)
			pen->reverse = true;
		else if (c == 27)
			pen->reverse = false;
		else if (c >= 30 && c <= 37)
			pen->fg = indexed(c - 30);
		else if (c >= 90 && c <= 97)
			pen->fg = indexed(c - 90 + 8);
		else if (c == 39)
			pen->fg.kind = DEFAULT;
		else if (c >= 40 && c <= 47)
			pen->bg = indexed(c - 40);
		else if (c >= 100 && c <= 107)
			pen->bg = indexed(c - 100 + 8);
		else if (c == 49)
			pen->bg.kind = DEFAULT;
		else if (c == 38)
			k += extended(&g, k, &pen->fg);
		else if (c == 48)
			k += extended(&g, k, &pen->bg);
	}
}

static void show(char *buf, size_t len, struct colour c)
{
	if (c.kind == DEFAULT)
		snprintf(buf, len, "default");
	else
		snprintf(buf, len, "#%06x", (unsigned)c.rgb);
}

static bool parse_colour(const char *s, struct colour *c)
{
	char *end;

	if (strcmp(s, "default") == 0) {
		c->kind = DEFAULT;
		return true;
	}
	if (s[0] == '#' && strlen(s) == 7) {
		c->kind = COLOUR;
		c->rgb = (uint32_t)strtoul(s + 1, &end, 16);
		return *end == '\0';
	}
	long v = strtol(s, &end, 10);
	if (*end || v < 0 || v > 255)
		return false;
	*c = indexed((int)v);
	return true;
}

struct opts {
	bool report;   /* --report */
	double near;   /* 0: equal colours only */
	bool bg_mode;  /* --bg or --count-bg */
	bool count_bg; /* --count-bg: count the cells on it, not off it */
	struct colour want_bg;
	int cols;               /* --cols, 0 when not given */
	int cell_row, cell_col; /* --cell, -1 when not given */
};

#define MAXBG 256

struct tally {
	long bad;
	int examples;
	char text[5][200]; /* the first examples, printed after the count */
	struct pen first;  /* --report: the first cell's pen */
	int nbg;           /* --report: the backgrounds seen */
	struct colour bg[MAXBG];
	long cells[MAXBG];
};

static bool same(struct colour a, struct colour b);

/* --report: one cell of background bg. */
static void count_bg(struct tally *t, struct colour bg)
{
	int i = 0;

	while (i < t->nbg && !same(t->bg[i], bg))
		i++;
	if (i == t->nbg) {
		if (t->nbg == MAXBG)
			return;
		t->bg[t->nbg] = bg;
		t->cells[t->nbg++] = 0;
	}
	t->cells[i]++;
}

/* The first max code points of s. */
static int cps_len(const char *s, int max)
{
	int i = 0, cps = 0;

	while (s[i] && (cps < max || ((unsigned char)s[i] & 0xC0) == 0x80)) {
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			cps++;
		i++;
	}
	return i;
}

static bool same(struct colour a, struct colour b)
{
	return a.kind == b.kind && (a.kind == DEFAULT || a.rgb == b.rgb);
}

/* One cell of line ln at column col: checks it as the options say. */
static void check_cell(const struct opts *o, struct tally *t, int ln, int col,
                       wchar_t wc, const struct pen *pen, const char *line)
{
	struct colour fg = pen->reverse ? pen->bg : pen->fg;
	struct colour bg = pen->reverse ? pen->fg : pen->bg;
	char a[16], b[16];
	bool bad;

	if (o->report) {
		if (ln == 0 && col == 0)
			t->first = *pen;
		count_bg(t, bg);
		return;
	}
	if (o->cell_row >= 0) {
		if (ln == o->cell_row && col == o->cell_col) {
			show(a, sizeof(a), fg);
			show(b, sizeof(b), bg);
			printf("fg=%s bg=%s%s%s%s\n", a, b,
			       pen->bold ? " bold" : "", pen->dim ? " dim" : "",
			       pen->reverse ? " reverse" : "");
			t->bad = 0;
			t->examples = 1; /* found */
		}
		return;
	}
	if (o->bg_mode) {
		bad = same(bg, o->want_bg) == o->count_bg;
	} else {
		if (wc == L' ' || wc == 0xa0 || fg.kind == DEFAULT ||
		    bg.kind == DEFAULT)
			return;
		bad = o->near > 0 ? contrast(fg.rgb, bg.rgb) < o->near
		                  : fg.rgb == bg.rgb;
	}
	if (!bad)
		return;
	t->bad++;
	if (t->examples < 5) {
		show(a, sizeof(a), fg);
		show(b, sizeof(b), bg);
		snprintf(t->text[t->examples], sizeof(t->text[0]),
		         "  line %d col %d: fg %s bg %s in \"%.*s\"", ln + 1,
		         col + 1, a, b, cps_len(line, 40), line);
	}
	t->examples++;
}

/* Checks one captured line (escapes included); plain gets its text. */
static void check_line(const struct opts *o, struct tally *t, int ln,
                       const char *s, struct pen *pen)
{
	char plain[4096];
	size_t np = 0, i = 0, n = strlen(s);
	int col = 0;
	mbstate_t ms;

	for (size_t k = 0; k < n && np + 1 < sizeof(plain); k++) {
		if (s[k] != '\033') {
			plain[np++] = s[k];
			continue;
		}
		/* ESC [ ... final byte, or ESC and one byte */
		if (k + 1 < n && s[k + 1] == '[') {
			k += 2;
			while (k < n && !(s[k] >= '@' && s[k] <= '~'))
				k++;
		} else {
			k++;
		}
	}
	plain[np] = '\0';
	memset(&ms, 0, sizeof(ms));
	while (i < n) {
		if (s[i] == '\033' && i + 1 < n && s[i + 1] == '[') {
			size_t j = i + 2;
			while (j < n && !(s[j] >= '@' && s[j] <= '~'))
				j++;
			if (j < n && s[j] == 'm')
				apply_sgr(pen, s + i + 2, j - i - 2);
			i = j + 1;
			continue;
		}
		if (s[i] == '\033') { /* another escape: up to its end */
			i += 2;
			continue;
		}
		wchar_t wc;
		size_t k = mbrtowc(&wc, s + i, n - i, &ms);
		if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
			memset(&ms, 0, sizeof(ms));
			wc = (unsigned char)s[i];
			k = 1;
		}
		int w = wcwidth(wc);
		check_cell(o, t, ln, col, wc, pen, plain);
		col += w > 1 ? w : 1;
		i += k;
	}
	/* The cells a line lacks (tmux leaves out trailing blanks without
	 * -N) have the terminal's default colours. */
	struct pen blank = {0};
	for (; (o->bg_mode || o->report) && col < o->cols; col++)
		check_cell(o, t, ln, col, L' ', &blank, plain);
}

static int usage(void)
{
	fprintf(stderr, "usage: sgrcheck [--near RATIO] [--bg|--count-bg "
	                "COLOUR] [--cell ROW COL] [--report] [--cols N] "
	                "< capture\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct opts o = {false, 0, false, false, {DEFAULT, 0}, 0, -1, -1};
	struct pen pen = {0};
	static char line[1 << 16];
	static struct tally t;
	int ln = 0;

	if (!setlocale(LC_CTYPE, "C.UTF-8"))
		setlocale(LC_CTYPE, "");
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--near") == 0 && i + 1 < argc)
			o.near = atof(argv[++i]);
		else if (strcmp(argv[i], "--bg") == 0 && i + 1 < argc) {
			o.bg_mode = true;
			if (!parse_colour(argv[++i], &o.want_bg))
				return usage();
		} else if (strcmp(argv[i], "--count-bg") == 0 && i + 1 < argc) {
			o.bg_mode = o.count_bg = true;
			if (!parse_colour(argv[++i], &o.want_bg))
				return usage();
		} else if (strcmp(argv[i], "--report") == 0) {
			o.report = true;
		} else if (strcmp(argv[i], "--cols") == 0 && i + 1 < argc)
			o.cols = atoi(argv[++i]);
		else if (strcmp(argv[i], "--cell") == 0 && i + 2 < argc) {
			o.cell_row = atoi(argv[++i]);
			o.cell_col = atoi(argv[++i]);
		} else
			return usage();
	}
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		/* tmux starts each captured line in the state the previous
		 * one ended in; so does this. */
		check_line(&o, &t, ln++, line, &pen);
	}
	if (o.report) {
		char a[16], b[16];
		struct pen *p = &t.first;
		show(a, sizeof(a), p->reverse ? p->bg : p->fg);
		show(b, sizeof(b), p->reverse ? p->fg : p->bg);
		printf("cell0 fg=%s bg=%s%s\n", a, b, p->bold ? " bold" : "");
		for (int done = 0; done < t.nbg; done++) {
			int best = -1;
			for (int i = 0; i < t.nbg; i++)
				if (t.cells[i] >= 0 &&
				    (best < 0 || t.cells[i] > t.cells[best]))
					best = i;
			if (best < 0)
				break;
			show(b, sizeof(b), t.bg[best]);
			printf("bg %s %ld\n", b, t.cells[best]);
			t.cells[best] = -1;
		}
		return 0;
	}
	if (o.cell_row >= 0) {
		if (!t.examples)
			printf("no cell at %d %d\n", o.cell_row, o.cell_col);
		return t.examples ? 0 : 1;
	}
	if (o.count_bg) {
		char b[16];
		show(b, sizeof(b), o.want_bg);
		printf("%ld cells on background %s\n", t.bad, b);
		return 0;
	}
	if (o.bg_mode) {
		char b[16];
		show(b, sizeof(b), o.want_bg);
		printf("%ld cells not on background %s\n", t.bad, b);
	} else if (o.near > 0) {
		printf("%ld cells with contrast under %.2f\n", t.bad, o.near);
	} else {
		printf("%ld invisible cells\n", t.bad);
	}
	for (int i = 0; i < t.examples && i < 5; i++)
		printf("%s\n", t.text[i]);
	return t.bad ? 1 : 0;
}

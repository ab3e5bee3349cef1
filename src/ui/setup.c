/* SPDX-License-Identifier: MIT */
/*
 * setup.c - the setup dialog (see setup.h). Lines: interval, theme, graph
 * symbols, temperature unit, process table, graphs, panel size, one line
 * per process column, one line per GPU.
 */
#include "ui/setup.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ui/graph.h"
#include "ui/paint.h"
#include "ui/proctable.h"
#include "ui/overlay.h"
#include "core/text.h"
#include "ui/theme.h"

enum {
	LINE_INTERVAL,
	LINE_THEME,
	LINE_GLYPHS,
	LINE_TEMP,
	LINE_PROCS,
	LINE_GRAPHS,
	LINE_PANELS,
	LINE_COLUMNS, /* GT_COL__COUNT - 1 lines: COMMAND always shows */
};

#define NCOLS (GT_COL__COUNT - 1)

static const double intervals[] = {0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 300};
#define NINTERVALS ((int)(sizeof(intervals) / sizeof(intervals[0])))

static int line_count(const struct gt_devlist *devs)
{
	return LINE_COLUMNS + NCOLS + (devs ? (int)devs->count : 0);
}

void gt_setup_open(struct gt_setup *s, const char *themes_dir)
{
	s->row = 0;
	s->scroll = 0;
	int n = gt_theme_list(themes_dir, s->themes, GT_SETUP_MAX_THEMES);
	s->nthemes = n > 0 ? n : 0;
}

static void step_interval(struct gt_config *cfg, int dir)
{
	double cur = (double)cfg->interval_ns / 1e9;
	int i = 0;
	while (i < NINTERVALS - 1 && intervals[i] < cur - 1e-9)
		i++;
	/* A value between two steps moves to the neighbour in dir. */
	if (dir > 0 && intervals[i] <= cur + 1e-9 && i < NINTERVALS - 1)
		i++;
	else if (dir < 0 && i > 0)
		i--;
	cfg->interval_ns = (uint64_t)(intervals[i] * 1e9 + 0.5);
}

/* Whether list entry name is theme want ("nord" or "nord.theme"). */
static bool same_theme(const char *name, const char *want)
{
	size_t n = strlen(name);

	return strncmp(name, want, n) == 0 &&
	       (want[n] == '\0' || strcmp(want + n, ".theme") == 0);
}

static void step_theme(struct gt_setup *s, struct gt_config *cfg, int dir)
{
	const char *want = s->theme_want ? s->theme_want : cfg->theme;
	/* Position -1 is the built-in theme, and where a theme given by
	 * path (which is on no list) steps from. */
	int cur = -1;
	for (int i = 0; i < s->nthemes; i++)
		if (same_theme(s->themes[i], want))
			cur = i;
	int next = cur + dir;
	if (next < -1)
		next = s->nthemes - 1;
	if (next >= s->nthemes)
		next = -1;
	gt_copy_str(s->picked, sizeof(s->picked),
	            next < 0 ? "" : s->themes[next]);
	gt_copy_str(cfg->theme, sizeof(cfg->theme), s->picked);
}

/* The tail of s in at most max code points, "..." in front when cut: the
 * end of a path (the file's name) says the most. */
static const char *tail_fit(const char *s, int max, char *buf, size_t len)
{
	int total = 0;

	for (const char *q = s; *q; q++)
		total += ((unsigned char)*q & 0xC0) != 0x80;
	if (total <= max || max <= 3)
		return s;
	const char *p = s;
	for (int skip = total - (max - 3); skip > 0;) {
		p++;
		if (((unsigned char)*p & 0xC0) != 0x80)
			skip--;
	}
	snprintf(buf, len, "...%s", p);
	return buf;
}

int gt_setup_key(struct gt_setup *s, struct gt_config *cfg, int ch,
                 const struct gt_devlist *devs)
{
	int n = line_count(devs);
	int dir = 0;

	switch (ch) {
	case KEY_UP:
	case 'k':
		s->row = (s->row + n - 1) % n;
		return GT_SETUP_NOTHING;
	case KEY_DOWN:
	case 'j':
		s->row = (s->row + 1) % n;
		return GT_SETUP_NOTHING;
	case 'w':
		return GT_SETUP_SAVE;
	case 27:
	case 'q':
	case 'o':
	case KEY_F(2):
		return GT_SETUP_CLOSE;
	case KEY_LEFT:
	case 'h':
		dir = -1;
		break;
	case KEY_RIGHT:
	case 'l':
	case ' ':
	case '\n':
	case '\r':
	case KEY_ENTER:
		dir = 1;
		break;
	default:
		return GT_SETUP_NOTHING;
	}

	int row = s->row;
	switch (row) {
	case LINE_INTERVAL:
		step_interval(cfg, dir);
		return GT_SETUP_INTERVAL;
	case LINE_THEME:
		step_theme(s, cfg, dir);
		return GT_SETUP_THEME;
	case LINE_GLYPHS:
		/* -1 (automatic), then every set. */
		cfg->glyphs = (cfg->glyphs + 1 + dir + GT_GLYPHS__COUNT + 1) %
		                  (GT_GLYPHS__COUNT + 1) -
		              1;
		return GT_SETUP_DISPLAY;
	case LINE_TEMP:
		cfg->fahrenheit = !cfg->fahrenheit;
		return GT_SETUP_DISPLAY;
	case LINE_PROCS:
		cfg->show_processes = !cfg->show_processes;
		return GT_SETUP_DISPLAY;
	case LINE_GRAPHS:
		cfg->show_graphs = !cfg->show_graphs;
		return GT_SETUP_DISPLAY;
	case LINE_PANELS:
		cfg->max_mode = (cfg->max_mode + 3 + dir) % 3;
		return GT_SETUP_DISPLAY;
	default:
		break;
	}
	if (row < LINE_COLUMNS + NCOLS) {
		int c = row - LINE_COLUMNS;
		cfg->columns[c] = !cfg->columns[c];
		return GT_SETUP_DISPLAY;
	}
	int g = row - LINE_COLUMNS - NCOLS;
	if (devs && g >= 0 && (size_t)g < devs->count) {
		const char *id = devs->items[g].pci_bus_id;
		gt_config_set_gpu_hidden(cfg, id,
		                         !gt_config_gpu_hidden(cfg, id));
		return GT_SETUP_DISPLAY;
	}
	return GT_SETUP_NOTHING;
}

static void line_text(char *buf, size_t len, int row, const struct gt_setup *s,
                      const struct gt_config *cfg,
                      const struct gt_devlist *devs)
{
	static const char *const panels[] = {"automatic", "compact",
	                                     "one line per GPU"};
	switch (row) {
	case LINE_INTERVAL:
		snprintf(buf, len, "Interval          < %.1f s >",
		         (double)cfg->interval_ns / 1e9);
		return;
	case LINE_THEME: {
		char cut[256];
		const char *shown =
		    s->theme_shown ? s->theme_shown
		                   : (cfg->theme[0] ? cfg->theme : "built-in");
		/* The dialog is at most 76 wide: the line's text gets 72. */
		snprintf(buf, len, "Theme             < %.200s >",
		         tail_fit(shown, 50, cut, sizeof(cut)));
		return;
	}
	case LINE_GLYPHS:
		snprintf(buf, len, "Graph symbols     < %s >",
		         cfg->glyphs < 0
		             ? "automatic (from the locale)"
		             : gt_glyphs_name((enum gt_glyphs)cfg->glyphs));
		return;
	case LINE_TEMP:
		snprintf(buf, len, "Temperature       < %s >",
		         cfg->fahrenheit ? "Fahrenheit" : "Celsius");
		return;
	case LINE_PROCS:
		snprintf(buf, len, "Process table     [%c]",
		         cfg->show_processes ? 'x' : ' ');
		return;
	case LINE_GRAPHS:
		snprintf(buf, len, "History graphs    [%c]",
		         cfg->show_graphs ? 'x' : ' ');
		return;
	case LINE_PANELS:
		snprintf(buf, len, "GPU panels        < %s >",
		         panels[cfg->max_mode >= 0 && cfg->max_mode < 3
		                    ? cfg->max_mode
		                    : 0]);
		return;
	default:
		break;
	}
	if (row < LINE_COLUMNS + NCOLS) {
		int c = row - LINE_COLUMNS;
		snprintf(buf, len, "Column %-10s [%c]",
		         gt_proctable_cols[c].header,
		         cfg->columns[c] ? 'x' : ' ');
		return;
	}
	int g = row - LINE_COLUMNS - NCOLS;
	if (devs && g >= 0 && (size_t)g < devs->count) {
		char name[GT_STR_NAME * 4];
		const struct gt_static *st = &devs->items[g];
		gt_text_escape(name, sizeof(name), st->name, strlen(st->name));
		snprintf(buf, len, "Show GPU %-2u [%c]  %s  %.48s", st->index,
		         gt_config_gpu_hidden(cfg, st->pci_bus_id) ? ' ' : 'x',
		         st->pci_bus_id, name);
		return;
	}
	buf[0] = '\0';
}

void gt_setup_draw(WINDOW *w, const struct gt_setup *s,
                   const struct gt_config *cfg, const struct gt_devlist *devs,
                   const struct gt_palette *pal, const char *path)
{
	int rows, cols;
	getmaxyx(w, rows, cols);
	int n = line_count(devs);
	int bw = cols < 76 ? cols : 76;
	int bh = rows < n + 5 ? rows : n + 5;
	char buf[256];
	struct gt_rect box =
	    gt_overlay_box(w, bw, bh, pal->role[GT_ROLE_MAIN], " Setup ");
	if (box.w < 4 || box.h < 3)
		return;
	struct gt_rect in = {box.x, box.y, box.w, box.h - 2};
	int scroll = s->scroll;
	if (s->row < scroll)
		scroll = s->row;
	if (s->row >= scroll + in.h)
		scroll = s->row - in.h + 1;
	for (int i = 0; i < in.h && scroll + i < n; i++) {
		line_text(buf, sizeof(buf), scroll + i, s, cfg, devs);
		gt_paint_put(w, in, i, 0,
		             scroll + i == s->row ? pal->role[GT_ROLE_SELECTED]
		                                  : pal->role[GT_ROLE_MAIN],
		             buf);
	}
	struct gt_rect foot = {box.x, box.y + box.h - 2, box.w, 2};
	gt_paint_put(w, foot, 0, 0, pal->role[GT_ROLE_INACTIVE],
	             "Up/Down choose, Left/Right/Space change (applied now)");
	snprintf(buf, sizeof(buf), "w saves to %s, Esc closes", path);
	gt_paint_put(w, foot, 1, 0, pal->role[GT_ROLE_INACTIVE], buf);
}

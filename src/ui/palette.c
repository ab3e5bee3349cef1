/* SPDX-License-Identifier: MIT */
/*
 * palette.c - theme colours to ncurses colour pairs (see palette.h), and
 * the xterm palette's colours with the nearest of them to an RGB. In the
 * truecolour tier, a direct-colour terminal description (COLORS of 2^24,
 * e.g. TERM=xterm-direct) gets the theme's exact RGB through extended
 * pairs; with a 256-colour description the nearest cube colour is used,
 * since ncurses can only send the colours its terminal description names.
 * Reduced colours are checked for contrast pair by pair (palette.h says
 * the rule), and the terminal is checked for cursor addressing before
 * curses starts.
 */
#include "ui/palette.h"
#include "ui/paint.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
/* After curses.h; its capability macros (lines, columns, ...) are not used
 * as names here. */
#include <term.h>

/* The real xterm cube levels: not evenly spaced, which is why btop's
 * r/51 rounding drifts on dark colours. */
static const uint8_t gt_cube_level[6] = {0, 95, 135, 175, 215, 255};

/* xterm's default colours 0..15, as 0xRRGGBB. */
static const uint32_t gt_ansi16[16] = {
    0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd,
    0x00cdcd, 0xe5e5e5, 0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00,
    0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
};

struct gt_rgb gt_palette_rgb(int i)
{
	if (i < 0 || i > 255)
		return (struct gt_rgb){0, 0, 0};
	if (i < 16)
		return (struct gt_rgb){(uint8_t)(gt_ansi16[i] >> 16),
		                       (uint8_t)(gt_ansi16[i] >> 8),
		                       (uint8_t)gt_ansi16[i]};
	if (i < 232) {
		i -= 16;
		return (struct gt_rgb){gt_cube_level[i / 36],
		                       gt_cube_level[(i / 6) % 6],
		                       gt_cube_level[i % 6]};
	}
	uint8_t g = (uint8_t)(8 + 10 * (i - 232));
	return (struct gt_rgb){g, g, g};
}

static int gt_dist2(struct gt_rgb a, struct gt_rgb b)
{
	int dr = a.r - b.r, dg = a.g - b.g, db = a.b - b.b;

	return dr * dr + dg * dg + db * db;
}

static int gt_nearest_level(int v)
{
	int best = 0;

	for (int i = 1; i < 6; i++) {
		int d = abs(v - gt_cube_level[i]);
		if (d < abs(v - gt_cube_level[best]))
			best = i;
	}
	return best;
}

static bool gt_is_system_grey(int i)
{
	return i == 0 || i == 7 || i == 8 || i == 15;
}

/* The palette index in [from, to) nearest to c, the lower on a tie; with
 * greys_only, only the system greys 0, 7, 8 and 15 qualify; with on, only
 * colours of at least GT_PALETTE_MIN_CONTRAST on it. -1 when none does. */
static int gt_nearest_index(struct gt_rgb c, int from, int to, bool greys_only,
                            const struct gt_rgb *on, int *dist)
{
	int best = -1, bd = 0;

	for (int i = from; i < to; i++) {
		struct gt_rgb p = gt_palette_rgb(i);
		int d = gt_dist2(c, p);

		if (greys_only && !gt_is_system_grey(i))
			continue;
		if (on && gt_palette_contrast(p, *on) < GT_PALETTE_MIN_CONTRAST)
			continue;
		if (best < 0 || d < bd) {
			best = i;
			bd = d;
		}
	}
	*dist = bd;
	return best;
}

int gt_palette_nearest_256(struct gt_rgb c)
{
	/* Distance is separable over channels, so the nearest cube point
	 * is the nearest level per channel. The greys are simply scanned:
	 * rounding the channel mean onto the ramp can pick the wrong one. */
	int cube = 16 + 36 * gt_nearest_level(c.r) + 6 * gt_nearest_level(c.g) +
	           gt_nearest_level(c.b);
	int dc = gt_dist2(c, gt_palette_rgb(cube)), dg;
	int grey = gt_nearest_index(c, 232, 256, false, NULL, &dg);

	return dg < dc ? grey : cube;
}

/* The palette is so sparse that plain distance sends a mid grey to
 * yellow (#808080 is nearer cdcd00 than e5e5e5); a colour of low
 * saturation therefore only chooses among the greys. */
static bool gt_low_saturation(struct gt_rgb c)
{
	int mx = c.r > c.g ? c.r : c.g, mn = c.r < c.g ? c.r : c.g;

	mx = mx > c.b ? mx : c.b;
	mn = mn < c.b ? mn : c.b;
	return 4 * (mx - mn) <= mx;
}

static int gt_nearest_ansi(struct gt_rgb c, int n)
{
	int d;

	return gt_nearest_index(c, 0, n, gt_low_saturation(c), NULL, &d);
}

int gt_palette_nearest_16(struct gt_rgb c)
{
	return gt_nearest_ansi(c, 16);
}

int gt_palette_nearest_8(struct gt_rgb c)
{
	return gt_nearest_ansi(c, 8);
}

static int colour_index(struct gt_rgb c, enum gt_color_tier tier, bool direct)
{
	switch (tier) {
	case GT_TIER_TRUE:
		/* Direct colour: the colour number is the RGB value, but
		 * xterm-direct sends 0..7 as the ANSI colours 30..37, so a
		 * blue of 1..7/255 would come out red or green: #000008 is
		 * the same to the eye. */
		if (direct) {
			int v = (c.r << 16) | (c.g << 8) | c.b;
			return v > 0 && v < 8 ? 8 : v;
		}
		return gt_palette_nearest_256(c);
	case GT_TIER_256:
		return gt_palette_nearest_256(c);
	case GT_TIER_16:
		return gt_palette_nearest_16(c);
	case GT_TIER_8:
		return gt_palette_nearest_8(c);
	case GT_TIER_MONO:
		break;
	}
	return -1;
}

/* WCAG 2's relative luminance of one sRGB channel. */
static double gt_linear(uint8_t v)
{
	double c = v / 255.0;

	return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

double gt_palette_contrast(struct gt_rgb a, struct gt_rgb b)
{
	double la = 0.2126 * gt_linear(a.r) + 0.7152 * gt_linear(a.g) +
	            0.0722 * gt_linear(a.b);
	double lb = 0.2126 * gt_linear(b.r) + 0.7152 * gt_linear(b.g) +
	            0.0722 * gt_linear(b.b);

	return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

void gt_palette_pair_resolve(struct gt_rgb fg, const struct gt_rgb *bg,
                             enum gt_color_tier tier, bool direct,
                             struct gt_palette_pair *out)
{
	/* A theme that leaves the background to the terminal is drawn for a
	 * dark one (all three btop themes that do are dark). */
	static const struct gt_rgb dark = {0, 0, 0};
	struct gt_rgb shown_bg;
	int d;

	*out = (struct gt_palette_pair){-1, -1, 0, false};
	if (tier == GT_TIER_MONO)
		return;
	out->fg = colour_index(fg, tier, direct);
	out->bg = bg ? colour_index(*bg, tier, direct) : -1;
	if (tier == GT_TIER_TRUE && direct)
		return; /* the theme's own colours, faint or not */
	shown_bg = bg ? gt_palette_rgb(out->bg) : dark;
	if (gt_palette_contrast(gt_palette_rgb(out->fg), shown_bg) >=
	    GT_PALETTE_MIN_CONTRAST)
		return;
	out->fallback = true;
	if (!bg) {
		/* Whatever the terminal's background is, its own
		 * foreground is readable on it. */
		out->fg = -1;
		return;
	}
	/* The palette a reduced tier draws from, as colour_index does. */
	int from = tier == GT_TIER_16 ? 0 : tier == GT_TIER_8 ? 0 : 16;
	int to = tier == GT_TIER_16 ? 16 : tier == GT_TIER_8 ? 8 : 256;
	bool greys = from == 0 && gt_low_saturation(fg);
	int i = gt_nearest_index(fg, from, to, greys, &shown_bg, &d);

	if (i < 0) /* no grey has the contrast: any colour then */
		i = gt_nearest_index(fg, from, to, false, &shown_bg, &d);
	/* Black or white always has it, whatever the background. */
	out->fg = i;
	if (gt_palette_contrast(fg, *bg) < 3.0)
		out->attr = (int)A_DIM;
}

int gt_palette_term_check(const char *term, char *why, size_t len)
{
	const char *name = term ? term : getenv("TERM");
	const char *cause = NULL;
	TERMINAL *old = cur_term;
	int err = 0;

	if (!name || !name[0]) {
		cause = "TERM is not set, so the terminal's type is unknown";
	} else if (setupterm(name, STDOUT_FILENO, &err) != OK) {
		cause = err < 0 ? "no terminal descriptions (terminfo) are "
		                  "installed"
		                : "this terminal type has no description "
		                  "(terminfo) here";
	} else {
		const char *cup = tigetstr("cup");

		if (!cup || cup == (const char *)-1 || tigetflag("hc") > 0)
			cause = "this terminal cannot move the cursor, which "
			        "the dashboard needs";
		del_curterm(cur_term);
	}
	set_curterm(old);
	if (!cause)
		return 0;
	if (why && len)
		snprintf(why, len,
		         "TERM=%s: %s. Use gputop --snapshot (JSON) or "
		         "--list (text) here, or set TERM to the terminal's "
		         "real type (e.g. TERM=xterm-256color).",
		         name ? name : "", cause);
	return -1;
}

enum gt_color_tier gt_palette_tier(void)
{
	/* -1 (no such capability) in a description that loaded means no
	 * colour; -2 would be a broken entry: no colour either. */
	int n = has_colors() ? tigetnum("colors") : 0;
	return gt_color_tier_detect(getenv("COLORTERM"), getenv("TERM"),
	                            n > 0 ? n : 0, getenv("NO_COLOR"));
}

struct pair_alloc {
	int next;
	enum gt_color_tier tier;
	bool direct;             /* colour numbers are RGB values */
	const struct gt_rgb *bg; /* the screen's; NULL: the terminal's own */
};

static int make_pair(struct pair_alloc *a, struct gt_rgb fg,
                     const struct gt_rgb *bg)
{
	struct gt_palette_pair pp;

	if (a->tier == GT_TIER_MONO || a->next >= COLOR_PAIRS)
		return (int)A_NORMAL;
	gt_palette_pair_resolve(fg, bg ? bg : a->bg, a->tier, a->direct, &pp);
	init_extended_pair(a->next, pp.fg, pp.bg);
	return (int)COLOR_PAIR(a->next++) | pp.attr;
}

static int mono_role(enum gt_role r)
{
	switch (r) {
	case GT_ROLE_TITLE:
	case GT_ROLE_HI:
		return (int)A_BOLD;
	case GT_ROLE_SELECTED:
	case GT_ROLE_DEMO:
	case GT_ROLE_THROTTLE:
		return (int)A_REVERSE;
	case GT_ROLE_FOLLOWED:
		return (int)(A_REVERSE | A_BOLD);
	case GT_ROLE_INACTIVE:
	case GT_ROLE_STALE:
		return (int)A_DIM;
	case GT_ROLE_WARN:
		return (int)(A_BOLD | A_UNDERLINE);
	default:
		return (int)A_NORMAL;
	}
}

void gt_palette_init(struct gt_palette *p, const struct gt_theme *t,
                     enum gt_color_tier tier)
{
	static const struct gt_rgb black = {0, 0, 0};
	struct pair_alloc a = {1, tier, false, NULL};
	static const struct {
		enum gt_role role;
		enum gt_theme_key fg;
		enum gt_theme_key bg; /* GT_TK_NONE: the terminal's */
	} roles[GT_ROLE__COUNT] = {
	    {GT_ROLE_MAIN, GT_TK_MAIN_FG, GT_TK_NONE},
	    {GT_ROLE_TITLE, GT_TK_TITLE, GT_TK_NONE},
	    {GT_ROLE_HI, GT_TK_HI_FG, GT_TK_NONE},
	    {GT_ROLE_INACTIVE, GT_TK_INACTIVE_FG, GT_TK_NONE},
	    {GT_ROLE_SELECTED, GT_TK_SELECTED_FG, GT_TK_SELECTED_BG},
	    {GT_ROLE_BOX, GT_TK_GPU_BOX, GT_TK_NONE},
	    {GT_ROLE_GRAPH_TEXT, GT_TK_GRAPH_TEXT, GT_TK_NONE},
	    {GT_ROLE_DEMO, GT_TK_DEMO_FG, GT_TK_DEMO_BG},
	    {GT_ROLE_THROTTLE, GT_TK_THROTTLE_FG, GT_TK_THROTTLE_BG},
	    {GT_ROLE_STALE, GT_TK_STALE_FG, GT_TK_NONE},
	    {GT_ROLE_WARN, GT_TK_WARN_FG, GT_TK_NONE},
	    {GT_ROLE_METER_BG, GT_TK_METER_BG, GT_TK_NONE},
	    {GT_ROLE_FOLLOWED, GT_TK_FOLLOWED_FG, GT_TK_FOLLOWED_BG},
	};
	static const enum gt_theme_key grads[GT_GRAD__COUNT] = {
	    GT_TK_GPU_START,   GT_TK_VRAM_START,  GT_TK_TEMP_START,
	    GT_TK_POWER_START, GT_TK_MEMBW_START, GT_TK_ENCDEC_START,
	};

	p->tier = tier;
	if (tier != GT_TIER_MONO && has_colors()) {
		start_color();
		a.direct = tier == GT_TIER_TRUE && COLORS >= 0x1000000;
		/* The terminal's own background unless the theme sets one:
		 * keeps transparent terminals transparent. */
		if (t->has[GT_TK_MAIN_BG])
			a.bg = &t->rgb[GT_TK_MAIN_BG];
		else if (use_default_colors() != OK)
			a.bg = &black;
		else
			a.bg = NULL;
	} else {
		a.tier = p->tier = GT_TIER_MONO;
	}
	for (int i = 0; i < GT_ROLE__COUNT; i++) {
		const struct gt_rgb *bg =
		    roles[i].bg != GT_TK_NONE && t->has[roles[i].bg]
		        ? &t->rgb[roles[i].bg]
		        : NULL;
		p->role[roles[i].role] =
		    a.tier == GT_TIER_MONO
		        ? mono_role(roles[i].role)
		        : make_pair(&a, t->rgb[roles[i].fg], bg) |
		              (roles[i].role == GT_ROLE_TITLE ? (int)A_BOLD
		                                              : 0);
	}
	for (int g = 0; g < GT_GRAD__COUNT; g++)
		for (int s = 0; s < GT_GRAD_STEPS; s++) {
			struct gt_rgb c = gt_theme_gradient(
			    t, grads[g], (double)s / (GT_GRAD_STEPS - 1));
			p->grad[g][s] =
			    a.tier == GT_TIER_MONO
			        ? (s >= GT_GRAD_STEPS - 1 ? (int)A_BOLD
			                                  : (int)A_NORMAL)
			        : make_pair(&a, c, NULL);
		}
	/* Cells drawn with no colour of their own, and erased ones, take
	 * the main pair: main_bg covers the whole screen, not stripes
	 * behind the text. */
	gt_paint_invalidate(); /* every cell's background changes */
	if (stdscr)
		wbkgd(stdscr,
		      (chtype)' ' | ((chtype)p->role[GT_ROLE_MAIN] & A_COLOR));
}

int gt_palette_grad(const struct gt_palette *p, enum gt_gradient g, double frac)
{
	if (!(frac >= 0))
		frac = 0;
	if (frac > 1)
		frac = 1;
	int s = (int)(frac * (GT_GRAD_STEPS - 1) + 0.5);
	return p->grad[g][s];
}

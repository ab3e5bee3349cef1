/* SPDX-License-Identifier: MIT */
/*
 * palette.c - theme colours to ncurses colour pairs (see palette.h), and
 * the xterm palette's colours with the nearest of them to an RGB. In the
 * truecolour tier, a direct-colour terminal description (COLORS of 2^24,
 * e.g. TERM=xterm-direct) gets the theme's exact RGB through extended
 * pairs; with a 256-colour description the nearest cube colour is used,
 * since ncurses can only send the colours its terminal description names.
 */
#include "ui/palette.h"

#include <curses.h>
#include <stdlib.h>

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

/* The palette index in [from, to) nearest to c, the lower on a tie; with
 * greys_only, only the system greys 0, 7, 8 and 15 qualify. */
static int gt_nearest_index(struct gt_rgb c, int from, int to, bool greys_only,
                            int *dist)
{
	int best = -1, bd = 0;

	for (int i = from; i < to; i++) {
		int d = gt_dist2(c, gt_palette_rgb(i));

		if (greys_only && i != 0 && i != 7 && i != 8 && i != 15)
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
	int grey = gt_nearest_index(c, 232, 256, false, &dg);

	return dg < dc ? grey : cube;
}

static int gt_nearest_ansi(struct gt_rgb c, int n)
{
	int mx = c.r > c.g ? c.r : c.g, mn = c.r < c.g ? c.r : c.g, d;

	mx = mx > c.b ? mx : c.b;
	mn = mn < c.b ? mn : c.b;
	/* The palette is so sparse that plain distance sends a mid grey to
	 * yellow (#808080 is nearer cdcd00 than e5e5e5); a colour of low
	 * saturation therefore only chooses among the greys. */
	return gt_nearest_index(c, 0, n, 4 * (mx - mn) <= mx, &d);
}

int gt_palette_nearest_16(struct gt_rgb c)
{
	return gt_nearest_ansi(c, 16);
}

int gt_palette_nearest_8(struct gt_rgb c)
{
	return gt_nearest_ansi(c, 8);
}

static int colour_index(struct gt_rgb c, enum gt_color_tier tier)
{
	switch (tier) {
	case GT_TIER_TRUE:
		/* Direct colour: the colour number is the RGB value. */
		if (COLORS >= 0x1000000)
			return (c.r << 16) | (c.g << 8) | c.b;
		return gt_palette_nearest_256(c);
	case GT_TIER_256:
		return gt_palette_nearest_256(c);
	case GT_TIER_16:
		return (short)gt_palette_nearest_16(c);
	case GT_TIER_8:
		return (short)gt_palette_nearest_8(c);
	case GT_TIER_MONO:
		break;
	}
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
	int bg; /* -1: the terminal's own background */
};

static int make_pair(struct pair_alloc *a, struct gt_rgb fg,
                     const struct gt_rgb *bg)
{
	if (a->tier == GT_TIER_MONO || a->next >= COLOR_PAIRS)
		return (int)A_NORMAL;
	int f = colour_index(fg, a->tier);
	int b = bg ? colour_index(*bg, a->tier) : a->bg;
	init_extended_pair(a->next, f, b);
	return (int)COLOR_PAIR(a->next++);
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
	struct pair_alloc a = {1, tier, -1};
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
		/* The terminal's own background unless the theme sets one:
		 * keeps transparent terminals transparent. */
		if (use_default_colors() != OK || t->has[GT_TK_MAIN_BG])
			a.bg = t->has[GT_TK_MAIN_BG]
			           ? colour_index(t->rgb[GT_TK_MAIN_BG], tier)
			           : COLOR_BLACK;
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

/* SPDX-License-Identifier: MIT */
/*
 * palette.h - the dashboard's colour roles as ncurses attributes, resolved
 * once from a theme for the terminal's colour tier (256, 16, 8 colours or
 * none), and whether the terminal can show the dashboard at all. Widgets
 * ask for a role or a gradient step, never for an RGB.
 *
 * Readable on every terminal: when the colours are reduced (256, 16 or 8
 * colours, or truecolour on a terminal description without direct colour)
 * the nearest colours of a foreground and of the background it is drawn
 * on can come out equal or nearly so (btop's dark greys all become black
 * with 8 colours). Every colour pair is therefore checked after the
 * mapping; see gt_palette_pair_resolve.
 */
#ifndef GPUTOP_PALETTE_H
#define GPUTOP_PALETTE_H

#include <stdbool.h>
#include <stddef.h>

#include "ui/theme.h"

enum gt_role {
	GT_ROLE_MAIN,
	GT_ROLE_TITLE,
	GT_ROLE_HI,
	GT_ROLE_INACTIVE,
	GT_ROLE_SELECTED,
	GT_ROLE_BOX,
	GT_ROLE_GRAPH_TEXT,
	GT_ROLE_DEMO,
	GT_ROLE_THROTTLE,
	GT_ROLE_STALE,
	GT_ROLE_WARN,
	GT_ROLE_METER_BG,
	GT_ROLE_FOLLOWED,
	GT_ROLE__COUNT
};

/* Gradients: GT_GRAD_STEPS colours from a theme family's start to end. */
enum gt_gradient {
	GT_GRAD_GPU,
	GT_GRAD_VRAM,
	GT_GRAD_TEMP,
	GT_GRAD_POWER,
	GT_GRAD_MEMBW,
	GT_GRAD_ENCDEC,
	GT_GRAD__COUNT
};

#define GT_GRAD_STEPS 5

struct gt_palette {
	enum gt_color_tier tier;
	int role[GT_ROLE__COUNT];                /* ncurses attrs */
	int grad[GT_GRAD__COUNT][GT_GRAD_STEPS]; /* ncurses attrs */
};

/* The colour tier of the current terminal (after initscr or newterm and
 * before gt_palette_init): COLORTERM, TERM, NO_COLOR and the terminal
 * description's colour count (terminfo `colors`; ncurses' COLORS is 0
 * until start_color, which NO_COLOR must never reach). */
enum gt_color_tier gt_palette_tier(void);

/* Sets up colour pairs (after initscr) for the theme and tier, and makes
 * the main pair stdscr's background, so that a theme's main_bg fills the
 * whole screen (erased cells and gaps too, not only text). MONO gives
 * attributes only (bold, reverse, underline), never a colour. */
void gt_palette_init(struct gt_palette *p, const struct gt_theme *t,
                     enum gt_color_tier tier);

/*
 * The RGB these mappings assume for xterm colour index i (0..255; others
 * give black). 0..15 is xterm's default palette: black 000000, red cd0000,
 * green 00cd00, yellow cdcd00, blue 0000ee, magenta cd00cd, cyan 00cdcd,
 * white e5e5e5, then bright 7f7f7f ff0000 00ff00 ffff00 5c5cff ff00ff
 * 00ffff ffffff. 16..231 is the 6x6x6 cube with levels 0, 95, 135, 175,
 * 215, 255; 232..255 the greys 8 + 10k.
 */
struct gt_rgb gt_palette_rgb(int i);

/* Nearest xterm 256 colour (16..255; the 16 system colours are skipped
 * because terminals redefine them): the nearest cube point (per channel,
 * the lower level on a tie) or the nearest grey (the darker on a tie),
 * whichever is closer in RGB distance (the cube point on a tie). */
int gt_palette_nearest_256(struct gt_rgb c);

/* Nearest of palette colours 0..15 / 0..7 (above) by RGB distance, the
 * lower index on a tie; a colour of low saturation (max - min <= max / 4)
 * is matched to the greys only (0, 8, 7, 15 / 0, 7), so a mid grey does
 * not come out yellow. */
int gt_palette_nearest_16(struct gt_rgb c);
int gt_palette_nearest_8(struct gt_rgb c);

/*
 * The least contrast (WCAG 2 ratio, 1 = the same luminance, 21 = black on
 * white) a pair may have after its colours are reduced. Below it text is
 * hard to tell from its background; btop's faintest deliberate colours
 * (inactive_fg #404040 or a meter_bg on black) are at about 2.
 */
#define GT_PALETTE_MIN_CONTRAST 1.5

/* The WCAG 2 contrast ratio of two sRGB colours, from 1 to 21. */
double gt_palette_contrast(struct gt_rgb a, struct gt_rgb b);

/* The colours of one pair, as gt_palette_pair_resolve chose them. */
struct gt_palette_pair {
	int fg, bg;    /* colour numbers; -1 is the terminal's own colour */
	int attr;      /* A_DIM where a faint colour had to be replaced */
	bool fallback; /* fg is not the nearest colour to the theme's */
};

/*
 * The colour numbers for text of theme colour fg on theme colour bg (NULL:
 * the terminal's own background) in tier; direct says the terminal takes
 * 24-bit colour numbers (a "-direct" description in the TRUE tier). Then:
 *   - exact colours (TRUE and direct) are kept as the theme has them: a
 *     faint pair is the theme's own choice;
 *   - otherwise each colour goes to its nearest (gt_palette_nearest_*),
 *     and when the two come out with less than GT_PALETTE_MIN_CONTRAST:
 *     on a known background, fg becomes the nearest colour to the theme's
 *     that has the contrast (xterm's palette), with A_DIM when the theme
 *     meant a faint colour (its own contrast under 3), so inactive text
 *     stays quieter than main text where the terminal can dim; on the
 *     terminal's own background, whose colour gputop cannot know, a colour
 *     that would vanish on a dark one becomes the terminal's own
 *     foreground (-1), which is readable on any.
 * MONO gives -1, -1.
 */
void gt_palette_pair_resolve(struct gt_rgb fg, const struct gt_rgb *bg,
                             enum gt_color_tier tier, bool direct,
                             struct gt_palette_pair *out);

/*
 * Whether the dashboard can run on the terminal named term (NULL: $TERM):
 * it needs a terminal description with cursor addressing (`cup`), which
 * TERM=dumb, an unset TERM and an unknown name lack. Returns 0, or -1 with
 * a message for the user in why: the cause and what to do instead.
 * Call before initscr (which would print junk or exit on its own).
 */
int gt_palette_term_check(const char *term, char *why, size_t len);

/* The attribute for fraction frac (0..1) along a gradient. */
int gt_palette_grad(const struct gt_palette *p, enum gt_gradient g,
                    double frac);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * palette.h - the dashboard's colour roles as ncurses attributes, resolved
 * once from a theme for the terminal's colour tier (256, 16, 8 colours or
 * none). Widgets ask for a role or a gradient step, never for an RGB.
 */
#ifndef GPUTOP_PALETTE_H
#define GPUTOP_PALETTE_H

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

/* Sets up colour pairs (after initscr) for the theme and tier. MONO gives
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

/* The attribute for fraction frac (0..1) along a gradient. */
int gt_palette_grad(const struct gt_palette *p, enum gt_gradient g,
                    double frac);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * setup.h - the setup dialog (F2 / o): every dashboard setting of
 * struct gt_config on one list, changed with the arrow keys and applied at
 * once; `w` saves them to the settings file, nothing else writes it.
 */
#ifndef GPUTOP_SETUP_H
#define GPUTOP_SETUP_H

#include <curses.h>
#include <stdbool.h>

#include "core/collector.h"
#include "config/config.h"
#include "ui/palette.h"
#include "ui/theme.h"

#define GT_SETUP_MAX_THEMES 256

struct gt_setup {
	int row;    /* the selected line */
	int scroll; /* first line shown */
	char themes[GT_SETUP_MAX_THEMES][GT_THEME_NAME_MAX];
	int nthemes;
	/* The theme line. The dashboard sets theme_want (the name or path
	 * asked for, any length; "" is the built-in theme) and theme_shown
	 * (what is in use, e.g. "nord", a path, or "built-in (x not
	 * found)"); NULL shows cfg->theme. A step writes the whole name to
	 * picked and as much as fits to cfg->theme (which is what `w`
	 * saves). */
	const char *theme_want;
	const char *theme_shown;
	char picked[GT_THEME_NAME_MAX];
};

/* What a key changed, for the dashboard to apply. */
enum gt_setup_change {
	GT_SETUP_NOTHING = 0,
	GT_SETUP_INTERVAL = 1 << 0,
	GT_SETUP_THEME = 1 << 1,
	GT_SETUP_DISPLAY = 1 << 2, /* glyphs, units, panels, columns, GPUs */
	GT_SETUP_SAVE = 1 << 3,    /* the user asked to save */
	GT_SETUP_CLOSE = 1 << 4,
};

/* Fills the theme list (names found on the search path). */
void gt_setup_open(struct gt_setup *s, const char *themes_dir);

/* Applies key ch to cfg; returns a mask of enum gt_setup_change. devs
 * gives the GPUs that can be hidden (by PCI id). */
int gt_setup_key(struct gt_setup *s, struct gt_config *cfg, int ch,
                 const struct gt_devlist *devs);

/* The dialog, centred on the screen. path is where `w` saves. */
void gt_setup_draw(WINDOW *w, const struct gt_setup *s,
                   const struct gt_config *cfg, const struct gt_devlist *devs,
                   const struct gt_palette *pal, const char *path);

#endif

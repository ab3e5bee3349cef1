/* SPDX-License-Identifier: MIT */
/*
 * panels.h - the dashboard's GPU panel in three sizes (FULL, COMPACT,
 * LINE) and the texts it shares with other widgets (temperatures, throttle
 * badges). A widget is a function of (window, rectangle, data): it draws
 * nothing outside its rectangle and never touches a backend or the
 * collector.
 */
#ifndef GPUTOP_PANELS_H
#define GPUTOP_PANELS_H

#include <curses.h>
#include <stdbool.h>

#include "core/model.h"
#include "ui/layout.h"
#include "ui/panel_data.h"

void gt_panels_draw_gpu(WINDOW *w, struct gt_rect r, enum gt_gpu_mode mode,
                        const struct gt_panel_data *d);

/* Active throttle reasons as badges (" power_cap  hw_slowdown ", or with
 * short_names " PWR  HWSLOW "), whole badges only: those that do not fit
 * max_cells (-1: no limit) or len are left out and a "+" says so. Returns
 * the cells. */
int gt_panels_throttle_badges(char *buf, size_t len, const struct gt_sample *s,
                              bool short_names, int max_cells);

/* Temperature steps of the gauge: WARM from GT_TEMP_WARM_MARGIN_MC below
 * slowdown, HOT at slowdown or shutdown. Without a slowdown threshold,
 * 5 °C below shutdown counts as slowdown; with neither, NORMAL. */
enum gt_panels_temp_level {
	GT_TEMP_UNKNOWN,
	GT_TEMP_NORMAL,
	GT_TEMP_WARM,
	GT_TEMP_HOT
};
#define GT_TEMP_WARM_MARGIN_MC 10000
enum gt_panels_temp_level gt_panels_temp_level(const struct gt_val *t,
                                               const struct gt_val *slowdown,
                                               const struct gt_val *shutdown);

/* A temperature as text in the user's unit ("61°C", "142°F", "N/A"). */
void gt_panels_fmt_temp(char *buf, size_t len, const struct gt_val *mc,
                        bool fahrenheit);

#endif

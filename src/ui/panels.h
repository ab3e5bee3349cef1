/* SPDX-License-Identifier: MIT */
/*
 * panels.h - the dashboard's GPU panel in three sizes (FULL, COMPACT,
 * LINE) and the texts it shares with other widgets (temperatures, throttle
 * badges, names, binary units). A widget is a function of (window,
 * rectangle, data): it draws nothing outside its rectangle and never
 * touches a backend or the collector.
 *
 * FULL and COMPACT panels are boxes: the GPU's index and name in the top
 * border with its badges at the border's right end, then (FULL) the
 * history graphs and the lines of numbers, split as gt_layout_panel_parts
 * says. LINE panels are rows of a table whose frame (gt_panels_draw_frame)
 * carries the column names; every row has the same fixed columns for its
 * width, numbers right-aligned, and a column is drawn whole or not at all.
 *
 * Units: memory and transfer rates in binary units with the unit shown
 * ("71.5/79.6 GiB", "3.0 MiB/s"), as the process table does; power in W,
 * clocks in MHz. A value the device cannot give reads N/A.
 */
#ifndef GPUTOP_PANELS_H
#define GPUTOP_PANELS_H

#include <curses.h>
#include <stdbool.h>

#include "core/model.h"
#include "ui/layout.h"
#include "ui/panel_data.h"

/* Draws GPU d in r: a panel box (FULL, COMPACT) or a table row (LINE). */
void gt_panels_draw_gpu(WINDOW *w, struct gt_rect r, enum gt_gpu_mode mode,
                        const struct gt_panel_data *d);

/* A hash of everything a panel's title, MIG rows and numbers show in
 * `mode`: equal keys draw the same cells (paint.h, gt_paint_region). */
uint64_t gt_panels_key(const struct gt_panel_data *d, enum gt_gpu_mode mode);

/* The frame of a LINE table: its box, the column names in the top border
 * over the columns gt_panels_line_columns gives its inside. */
void gt_panels_draw_frame(WINDOW *w, struct gt_rect frame,
                          const struct gt_palette *pal, enum gt_glyphs g);

/* The columns of a LINE row `width` cells wide, left to right. */
enum gt_panels_col {
	GT_PCOL_INDEX, /* ">12": the selection mark and the index */
	GT_PCOL_NAME,
	GT_PCOL_GPU, /* utilization, "100%" */
	GT_PCOL_METER,
	GT_PCOL_VRAM, /* "71.5/79.6 GiB" */
	GT_PCOL_TEMP,
	GT_PCOL_POWER, /* "620/700 W" */
	GT_PCOL_MEMBW,
	GT_PCOL_GFX,  /* graphics clock, MHz */
	GT_PCOL_PCIE, /* the link now, "5x16" */
	GT_PCOL_FAN,
	GT_PCOL_ENC,
	GT_PCOL_DEC,
	GT_PCOL_TX, /* PCIe traffic, "3.0 MiB/s" */
	GT_PCOL_RX,
	GT_PCOL_BADGES, /* the rest of the row */
	GT_PCOL__COUNT
};
struct gt_panels_cols {
	int x[GT_PCOL__COUNT]; /* from the row's start */
	int w[GT_PCOL__COUNT]; /* 0: not shown at this width */
};
/* Fixed columns for a width: the index, name, utilization, badges, then
 * temperature, memory and power are kept first; wider rows add a longer
 * name, a meter, the graphics clock, memory bandwidth, the PCIe link, the
 * fan, the encoder and decoder and the PCIe traffic, and give what is
 * left to the name (up to 24 cells) and then to the badges. One space
 * between columns. */
void gt_panels_line_columns(int width, struct gt_panels_cols *out);

/* Active throttle reasons as badges (" power_cap  hw_slowdown ", or with
 * short_names " PWR  HWSLOW "), whole badges only: those that do not fit
 * max_cells (-1: no limit) or len are left out and a "+" says so. Returns
 * the cells. */
int gt_panels_throttle_badges(char *buf, size_t len, const struct gt_sample *s,
                              bool short_names, int max_cells);

/* One warning or note on a panel: what the border or the row's end says. */
struct gt_panels_badge {
	char text[40];
	int attr;
};
enum { GT_PANELS_MAX_BADGES = 12 };
/* The badges of d, most important first: the device's state (LOST,
 * ASLEEP, STALE, NO DATA), a change gputop made that is in force, a PCIe
 * link trained below its maximum, the active throttle reasons. Short forms
 * ("PCIe 3x8", "PWR") with short_names, else long ("PCIe 3x8 of 5x16",
 * "power_cap"). Returns how many (at most max). */
int gt_panels_badge_list(const struct gt_panel_data *d, bool short_names,
                         struct gt_panels_badge *out, int max);

/* A GPU's name in at most max_cells cells: whole, else without its vendor
 * word ("NVIDIA H100 80GB HBM3" -> "H100 80GB HBM3"), else its last words
 * dropped one by one ("H100 80GB"). A first word that alone does not fit
 * is cut only if it has no digit (a cut number reads as another number),
 * else left out. Returns the cells of buf. */
int gt_panels_short_name(char *buf, size_t len, const char *name,
                         int max_cells);

/* One MIG instance row's texts (panels_mig.c). */
struct gt_panels_mig_text {
	char head[64];  /* "MIG 3g.20gb GI 1/CI 0" */
	char mem[48];   /* "8.0/19.5 GiB" */
	char procs[24]; /* "2 procs" */
	char na[128];   /* "GPU 40%", or "GPU% N/A: <reason>" */
};
void gt_panels_mig_text(const struct gt_mig_instance *m,
                        struct gt_panels_mig_text *out);
/* The instances of device dev in mig[0..n) (grouped by device, as the
 * process list holds them); *count gets how many, NULL when none. */
const struct gt_mig_instance *
gt_panels_mig_of(const struct gt_mig_instance *mig, size_t n, unsigned dev,
                 size_t *count);

/* Memory in binary units, used and total in the same unit ("71.5/79.6 GiB",
 * "512/1024 MiB"; "N/A" when either is unknown). */
void gt_panels_fmt_mem(char *buf, size_t len, const struct gt_val *used,
                       const struct gt_val *total);
/* A transfer rate in bytes/s: "3.0 MiB/s", "1.2 GiB/s", "900 KiB/s". */
void gt_panels_fmt_rate(char *buf, size_t len, const struct gt_val *v);

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

/* SPDX-License-Identifier: MIT */
/*
 * display.h - owns the names of what the dashboard lets a user choose and
 * gputop.conf stores: the graph glyph sets, the GPU panel sizes and the
 * process table's columns. They live here, under config, so that the
 * settings (and the headless front ends that read them) need nothing of
 * the UI; the UI draws with them.
 */
#ifndef GPUTOP_DISPLAY_H
#define GPUTOP_DISPLAY_H

enum gt_glyphs {
	GT_GLYPHS_BRAILLE,
	GT_GLYPHS_BLOCK,
	GT_GLYPHS_ASCII,
	GT_GLYPHS__COUNT
};

/* "braille", "block", "ascii" (config files and the setup dialog). */
const char *gt_glyphs_name(enum gt_glyphs g);
/* The set named by s (case-insensitive; "tty" is taken as ascii, as btop
 * calls it); -1 if unknown. */
int gt_glyphs_parse(const char *s);

/* BRAILLE when codeset (nl_langinfo(CODESET)) names UTF-8 ("UTF-8",
 * "utf8", any case), else ASCII; NULL gives ASCII. */
enum gt_glyphs gt_glyphs_default(const char *codeset);

/* Size class of every GPU panel in one layout, biggest first. */
enum gt_gpu_mode {
	GT_GPU_FULL,    /* name, utilization graph, gauges, clocks/fans/PCIe */
	GT_GPU_COMPACT, /* 3 rows: name+util, VRAM/temp/power, clocks/PCIe */
	GT_GPU_LINE,    /* 1 row per GPU, a table */
};

enum gt_proctable_col {
	GT_COL_PID,
	GT_COL_USER,
	GT_COL_DEV,
	GT_COL_TYPE,
	GT_COL_GPU,  /* GT_P_GPU, percent */
	GT_COL_VRAM, /* GT_P_MEM */
	GT_COL_ENC,
	GT_COL_DEC,
	GT_COL_CPU, /* percent of one core, may exceed 100 */
	GT_COL_HOST_MEM,
	GT_COL_CONTAINER,
	GT_COL_COMMAND, /* last: takes the width the others leave */
	GT_COL__COUNT
};

/* The column the process table sorts by until told otherwise (in its
 * natural order, largest first). */
#define GT_DISPLAY_SORT_DEFAULT GT_COL_GPU

/* Each column's name in gputop.conf and the setup dialog ("pid", "gpu",
 * "host_mem"). */
extern const char *const gt_display_columns[GT_COL__COUNT];

#endif

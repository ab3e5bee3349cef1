/* SPDX-License-Identifier: MIT */
/*
 * display.c - the names of glyph sets and process columns (display.h).
 */
#include "config/display.h"

#include <stdbool.h>
#include <stddef.h>

static const char *const glyph_names[GT_GLYPHS__COUNT] = {
    [GT_GLYPHS_BRAILLE] = "braille",
    [GT_GLYPHS_BLOCK] = "block",
    [GT_GLYPHS_ASCII] = "ascii",
};

const char *const gt_display_columns[GT_COL__COUNT] = {
    [GT_COL_PID] = "pid",
    [GT_COL_USER] = "user",
    [GT_COL_DEV] = "dev",
    [GT_COL_TYPE] = "type",
    [GT_COL_GPU] = "gpu",
    [GT_COL_VRAM] = "vram",
    [GT_COL_ENC] = "enc",
    [GT_COL_DEC] = "dec",
    [GT_COL_CPU] = "cpu",
    [GT_COL_HOST_MEM] = "host_mem",
    [GT_COL_CONTAINER] = "container",
    [GT_COL_COMMAND] = "command",
};

static int ascii_lower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

static bool str_ieq(const char *a, const char *b)
{
	while (*a && ascii_lower((unsigned char)*a) ==
	                 ascii_lower((unsigned char)*b)) {
		a++;
		b++;
	}
	return *a == '\0' && *b == '\0';
}

const char *gt_glyphs_name(enum gt_glyphs g)
{
	if ((unsigned)g >= GT_GLYPHS__COUNT)
		return "ascii";
	return glyph_names[g];
}

int gt_glyphs_parse(const char *s)
{
	if (!s)
		return -1;
	for (int i = 0; i < GT_GLYPHS__COUNT; i++)
		if (str_ieq(s, glyph_names[i]))
			return i;
	if (str_ieq(s, "tty"))
		return GT_GLYPHS_ASCII;
	return -1;
}

enum gt_glyphs gt_glyphs_default(const char *codeset)
{
	if (codeset && (str_ieq(codeset, "UTF-8") || str_ieq(codeset, "UTF8")))
		return GT_GLYPHS_BRAILLE;
	return GT_GLYPHS_ASCII;
}

/* SPDX-License-Identifier: MIT */
/*
 * theme.h - owns gputop's colours: reading btop's theme file format (so a
 * user's btop themes work unchanged), resolving every colour role with
 * btop's own fallbacks plus gputop's extension keys, finding theme files on
 * the search path, and telling which colours the terminal can show
 * (truecolor, 256, 16, 8 colours or none). No ncurses here: the renderer
 * (palette.h) maps the resolved RGB values to the terminal's nearest
 * colours and to colour pairs.
 *
 * File format (btop's): one `theme[key]="value"` per line, where value is
 * "#RRGGBB", "#GG" (a grey: R=G=B=0xGG), "R G B" (decimal 0..255) or ""
 * (empty). Lines whose first non-blank character is '#' are comments; text
 * after the closing quote is ignored (some published themes put comments
 * there). Unknown keys, junk lines and bad values are skipped and reported
 * as warnings with their line number; nothing in a file is fatal.
 *
 * Missing keys resolve as btop resolves them:
 *   - graph_text and meter_bg take inactive_fg;
 *   - process_start/mid/end take cpu_start/mid/end when process_start is
 *     missing (when it is set, a missing process_mid/end counts as empty,
 *     where btop would read black);
 *   - every other missing key, and one whose value is invalid or empty
 *     (apart from the two cases below), takes btop's built-in Default
 *     theme value;
 *   - an empty main_bg means "the terminal's own background" (has[] false);
 *   - an empty X_mid or X_end means "no stop there": start+end is one
 *     linear ramp, start alone (or start+mid with no end) is one colour.
 * gputop's extension keys (GT_TK_GPU_BOX and below) fall back to the btop
 * key named in the table below, so a plain btop theme is a complete gputop
 * theme. An extension gradient family falls back as a whole when its
 * X_start is not set; when X_start is set, a missing X_mid/X_end counts as
 * empty (interpolated / single colour), as it does for process_*.
 */
#ifndef GPUTOP_THEME_H
#define GPUTOP_THEME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gt_rgb {
	uint8_t r, g, b;
};

/*
 * Every colour role: X(ENUM_SUFFIX, "file key", fallback key, default).
 * The first 48 are btop's keys in btop's order; gradient families keep
 * start, mid, end adjacent so that mid = start + 1 and end = start + 2.
 * The fallback is the key whose resolved colour is used when the file does
 * not set this one (for a gradient family: does not set X_start); it
 * always comes earlier in this list. With no fallback (NONE) a missing key
 * takes the default: btop's Default theme value, 0xRRGGBB. The defaults
 * are also, all 48 of them, the built-in theme of gt_theme_default.
 */
#define GT_THEME_KEYS(X)                                                       \
	X(MAIN_BG, "main_bg", NONE, 0x000000)                                  \
	X(MAIN_FG, "main_fg", NONE, 0xcccccc)                                  \
	X(TITLE, "title", NONE, 0xeeeeee)                                      \
	X(HI_FG, "hi_fg", NONE, 0xb54040)                                      \
	X(SELECTED_BG, "selected_bg", NONE, 0x6a2f2f)                          \
	X(SELECTED_FG, "selected_fg", NONE, 0xeeeeee)                          \
	X(INACTIVE_FG, "inactive_fg", NONE, 0x404040)                          \
	X(GRAPH_TEXT, "graph_text", INACTIVE_FG, 0x606060)                     \
	X(METER_BG, "meter_bg", INACTIVE_FG, 0x404040)                         \
	X(PROC_MISC, "proc_misc", NONE, 0x0de756)                              \
	X(CPU_BOX, "cpu_box", NONE, 0x556d59)                                  \
	X(MEM_BOX, "mem_box", NONE, 0x6c6c4b)                                  \
	X(NET_BOX, "net_box", NONE, 0x5c588d)                                  \
	X(PROC_BOX, "proc_box", NONE, 0x805252)                                \
	X(DIV_LINE, "div_line", NONE, 0x303030)                                \
	X(TEMP_START, "temp_start", NONE, 0x4897d4)                            \
	X(TEMP_MID, "temp_mid", NONE, 0x5474e8)                                \
	X(TEMP_END, "temp_end", NONE, 0xff40b6)                                \
	X(CPU_START, "cpu_start", NONE, 0x77ca9b)                              \
	X(CPU_MID, "cpu_mid", NONE, 0xcbc06c)                                  \
	X(CPU_END, "cpu_end", NONE, 0xdc4c4c)                                  \
	X(FREE_START, "free_start", NONE, 0x384f21)                            \
	X(FREE_MID, "free_mid", NONE, 0xb5e685)                                \
	X(FREE_END, "free_end", NONE, 0xdcff85)                                \
	X(CACHED_START, "cached_start", NONE, 0x163350)                        \
	X(CACHED_MID, "cached_mid", NONE, 0x74e6fc)                            \
	X(CACHED_END, "cached_end", NONE, 0x26c5ff)                            \
	X(AVAILABLE_START, "available_start", NONE, 0x4e3f0e)                  \
	X(AVAILABLE_MID, "available_mid", NONE, 0xffd77a)                      \
	X(AVAILABLE_END, "available_end", NONE, 0xffb814)                      \
	X(USED_START, "used_start", NONE, 0x592b26)                            \
	X(USED_MID, "used_mid", NONE, 0xd9626d)                                \
	X(USED_END, "used_end", NONE, 0xff4769)                                \
	X(DOWNLOAD_START, "download_start", NONE, 0x291f75)                    \
	X(DOWNLOAD_MID, "download_mid", NONE, 0x4f43a3)                        \
	X(DOWNLOAD_END, "download_end", NONE, 0xb0a9de)                        \
	X(UPLOAD_START, "upload_start", NONE, 0x620665)                        \
	X(UPLOAD_MID, "upload_mid", NONE, 0x7d4180)                            \
	X(UPLOAD_END, "upload_end", NONE, 0xdcafde)                            \
	X(PROCESS_START, "process_start", CPU_START, 0x80d0a3)                 \
	X(PROCESS_MID, "process_mid", CPU_MID, 0xdcd179)                       \
	X(PROCESS_END, "process_end", CPU_END, 0xd45454)                       \
	X(PROC_PAUSE_BG, "proc_pause_bg", NONE, 0xb54040)                      \
	X(PROC_FOLLOW_BG, "proc_follow_bg", NONE, 0x4040b5)                    \
	X(PROC_BANNER_BG, "proc_banner_bg", NONE, 0x7b407b)                    \
	X(PROC_BANNER_FG, "proc_banner_fg", NONE, 0xeeeeee)                    \
	X(FOLLOWED_BG, "followed_bg", NONE, 0x4040b5)                          \
	X(FOLLOWED_FG, "followed_fg", NONE, 0xeeeeee)                          \
	/* gputop extension keys (ignored by btop) */                          \
	X(GPU_BOX, "gpu_box", CPU_BOX, 0)       /* GPU panel outline */        \
	X(GPU_START, "gpu_start", CPU_START, 0) /* utilization graph */        \
	X(GPU_MID, "gpu_mid", CPU_MID, 0)                                      \
	X(GPU_END, "gpu_end", CPU_END, 0)                                      \
	X(VRAM_START, "vram_start", USED_START, 0) /* VRAM bar and graph */    \
	X(VRAM_MID, "vram_mid", USED_MID, 0)                                   \
	X(VRAM_END, "vram_end", USED_END, 0)                                   \
	X(POWER_START, "power_start", CACHED_START, 0) /* power gauge */       \
	X(POWER_MID, "power_mid", CACHED_MID, 0)                               \
	X(POWER_END, "power_end", CACHED_END, 0)                               \
	X(MEMBW_START, "membw_start", FREE_START, 0) /* memory bandwidth */    \
	X(MEMBW_MID, "membw_mid", FREE_MID, 0)                                 \
	X(MEMBW_END, "membw_end", FREE_END, 0)                                 \
	X(ENCDEC_START, "encdec_start", CPU_START, 0) /* encoder/decoder */    \
	X(ENCDEC_MID, "encdec_mid", CPU_MID, 0)                                \
	X(ENCDEC_END, "encdec_end", CPU_END, 0)                                \
	X(THROTTLE_BG, "throttle_bg", PROC_PAUSE_BG, 0) /* throttle badges */  \
	X(THROTTLE_FG, "throttle_fg", PROC_BANNER_FG, 0)                       \
	X(DEMO_BG, "demo_bg", PROC_BANNER_BG, 0) /* "DEMO" label */            \
	X(DEMO_FG, "demo_fg", PROC_BANNER_FG, 0)                               \
	X(STALE_FG, "stale_fg", INACTIVE_FG, 0) /* stale/lost/asleep GPU */    \
	X(WARN_FG, "warn_fg", HI_FG, 0)         /* e.g. PCIe link < max */

/* clang-format cannot see the commas these X-macros expand to. */
/* clang-format off */
enum gt_theme_key {
#define GT_THEME_KEY_ENUM_(id, name, fb, def) GT_TK_##id,
	GT_THEME_KEYS(GT_THEME_KEY_ENUM_)
#undef GT_THEME_KEY_ENUM_
	GT_TK_COUNT,
	GT_TK_NONE = -1 /* "no fallback key" in the table above */
};
/* clang-format on */

/* Keys 0..GT_TK_BTOP_COUNT-1 are btop's; the rest are gputop's. */
#define GT_TK_BTOP_COUNT 48

/* A theme's name is its file name less ".theme": any name a file can
 * have (NAME_MAX is 255 bytes) fits, so no theme is out of reach. */
#define GT_THEME_NAME_MAX     256
#define GT_THEME_MAX_WARNINGS 16
#define GT_THEME_WARNING_LEN  120

struct gt_theme_warning {
	int line; /* 1-based line in the file */
	char msg[GT_THEME_WARNING_LEN];
};

/*
 * A resolved theme: every key has its final colour. has[k] is false only
 * for main_bg ("use the terminal's background") and for the mid/end stop
 * of a gradient family ("no stop here"); then rgb[k] is 0,0,0 and must not
 * be drawn. from_file[k] says the file set k itself (not a fallback).
 */
struct gt_theme {
	char name[GT_THEME_NAME_MAX];
	struct gt_rgb rgb[GT_TK_COUNT];
	bool has[GT_TK_COUNT];
	bool from_file[GT_TK_COUNT];
	int nwarn;       /* warnings kept in warn[] */
	int nwarn_total; /* all warnings, including those that did not fit */
	struct gt_theme_warning warn[GT_THEME_MAX_WARNINGS];
};

/* The key's name in theme files ("main_bg"), or NULL when out of range. */
const char *gt_theme_key_name(enum gt_theme_key k);

/* The key for name[0..len), exact and case-sensitive as btop matches it;
 * GT_TK_NONE when unknown. */
enum gt_theme_key gt_theme_key_lookup(const char *name, size_t len);

/* True for keys drawn as a background: names ending in "bg" except
 * meter_bg, which btop draws as the foreground of its meter glyphs. */
bool gt_theme_key_is_bg(enum gt_theme_key k);

/* True for the X_start key of a gradient family (btop's nine and gputop's
 * five). */
bool gt_theme_key_is_gradient(enum gt_theme_key k);

/* btop's built-in Default theme with gputop's keys resolved from it; named
 * "Default". A complete theme that needs no file. */
void gt_theme_default(struct gt_theme *out);

/*
 * Parses buf[0..len) (any bytes; NULs and binary junk are just bad lines)
 * and resolves it into *out, named name (may be NULL). Never fails: what
 * cannot be used is reported in out->warn. Returns out->nwarn_total.
 */
int gt_theme_load_buf(const char *buf, size_t len, const char *name,
                      struct gt_theme *out);

/*
 * Reads and resolves the theme file at path; the theme is named after the
 * file ("nord" for ".../nord.theme"). Returns 0 on success, warnings or
 * not. Returns -1 with a message in err (when errlen > 0) if the file cannot
 * be read or is over 1 MiB (no theme is); *out then holds gt_theme_default
 * so the caller can carry on.
 */
int gt_theme_load_file(const char *path, struct gt_theme *out, char *err,
                       size_t errlen);

/*
 * The colour at frac (0..1, clamped; NaN counts as 0) of the gradient
 * family whose start key is start, computed exactly like btop's 101-step
 * table: frac is rounded to a percentage p, and with a mid stop the
 * ramps are start->mid over p 0..50 and mid->end over 50..100 (integer
 * arithmetic, truncating, as btop does); with no mid, one ramp
 * start->end; with no end, the start colour throughout. A key that is not
 * a gradient start gives its own colour.
 */
struct gt_rgb gt_theme_gradient(const struct gt_theme *t,
                                enum gt_theme_key start, double frac);

/*
 * The same over explicit stops, for gradients no theme names directly:
 * btop's process-list "proc" fade is main_fg -> inactive_fg (no mid), and
 * "proc_color" is inactive_fg -> process_start. stop[0] must be set;
 * has_mid/has_end say whether stop[1]/stop[2] are.
 */
struct gt_rgb gt_rgb_gradient(const struct gt_rgb stop[3], bool has_mid,
                              bool has_end, double frac);

/* ---- colour tiers ------------------------------------------------------ */

enum gt_color_tier {
	GT_TIER_TRUE, /* 24-bit RGB */
	GT_TIER_256,  /* xterm 256-colour palette */
	GT_TIER_16,   /* 8 ANSI colours and their bright forms */
	GT_TIER_8,    /* 8 ANSI colours */
	GT_TIER_MONO  /* attributes only (bold, reverse, dim) */
};

/*
 * Picks the tier from the environment and terminfo; any argument may be
 * NULL. In order: NO_COLOR set and non-empty -> MONO (no-color.org);
 * COLORTERM "truecolor" or "24bit" -> TRUE; TERM "dumb" -> MONO; then the
 * terminfo colour count: >= 2^24 (a "-direct" entry) -> TRUE, >= 256 ->
 * 256, >= 16 -> 16, >= 8 -> 8, 0..7 -> MONO. When terminfo gave no count
 * (ncolors < 0), TERM decides: "*-direct" -> TRUE, "*256color*" -> 256,
 * unset or empty -> MONO, anything else -> 8.
 */
enum gt_color_tier gt_color_tier_detect(const char *colorterm, const char *term,
                                        int ncolors, const char *no_color);

/* "truecolor", "256", "16", "8", "mono". */
const char *gt_color_tier_name(enum gt_color_tier tier);

/* ---- finding themes --------------------------------------------------- */

#define GT_THEME_MAX_DIRS 10
/* PATH_MAX on Linux: a longer path cannot be opened anyway, so every
 * directory (and every theme path) that could be used fits. */
#define GT_THEME_DIR_MAX 4096

/* The directories searched, first match wins (a file shadows a same-named
 * file in a later directory). */
struct gt_theme_dirs {
	int n;
	char dir[GT_THEME_MAX_DIRS][GT_THEME_DIR_MAX];
};

/*
 * Fills *out with, in order:
 *   1. themes_dir_opt (--themes-dir; skipped when NULL or empty);
 *   2. $XDG_CONFIG_HOME/gputop/themes, or $HOME/.config/gputop/themes when
 *      XDG_CONFIG_HOME is unset, empty or relative;
 *   3. the same for btop/themes (the user's btop themes);
 *   4. the themes beside the executable (see gt_theme_search_dirs_exe);
 *   5. GPUTOP_DATADIR "/themes" (the Makefile's DATADIR);
 *   6. btop's system directories /usr/local/share/btop/themes and
 *      /usr/share/btop/themes.
 * The executable is found through /proc/self/exe. Directories that do not
 * exist are kept (they simply match nothing), each directory is listed
 * once, and a path longer than GT_THEME_DIR_MAX is left out.
 */
void gt_theme_search_dirs(const char *themes_dir_opt,
                          struct gt_theme_dirs *out);

/*
 * The same for the executable at exe (an absolute path; NULL or a relative
 * path adds nothing for step 4). Step 4 is, in order:
 *   - PREFIX/share/gputop/themes for an executable in PREFIX/bin (any
 *     PREFIX: an installed tree that was moved still finds its themes);
 *   - the themes/ folder of the gputop source tree the executable was
 *     built in: the nearest folder, from the executable's own up to three
 *     above it, that holds both themes/ and src/main.c (so build/gputop
 *     and build/NAME/gputop find the checkout's themes uninstalled).
 */
void gt_theme_search_dirs_exe(const char *themes_dir_opt, const char *exe,
                              struct gt_theme_dirs *out);

/*
 * Finds theme name ("nord" or "nord.theme") as the first readable regular
 * file dir/name.theme over dirs. A name holding '/' is a path to a theme
 * file and is used as it is. Writes the path to path_out and returns 0, or
 * returns -1 with errno ENOENT (not found), EINVAL (empty name) or
 * ENAMETOOLONG (path_out too small).
 */
int gt_theme_find_in(const struct gt_theme_dirs *dirs, const char *name,
                     char *path_out, size_t len);

/* gt_theme_find_in over gt_theme_search_dirs(themes_dir_opt). */
int gt_theme_find(const char *name, const char *themes_dir_opt, char *path_out,
                  size_t len);

/*
 * Writes the names (without ".theme") of the readable theme files across
 * dirs into names[0..max), each once, sorted case-insensitively (then
 * bytewise). Hidden files and names too long for GT_THEME_NAME_MAX are
 * skipped. Returns how many were written; when there are more than max,
 * the first max in sort order are kept.
 */
int gt_theme_list_in(const struct gt_theme_dirs *dirs,
                     char (*names)[GT_THEME_NAME_MAX], int max);

/* gt_theme_list_in over gt_theme_search_dirs(themes_dir_opt). */
int gt_theme_list(const char *themes_dir_opt, char (*names)[GT_THEME_NAME_MAX],
                  int max);

#endif

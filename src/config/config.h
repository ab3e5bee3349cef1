/* SPDX-License-Identifier: MIT */
/*
 * config.h - owns the settings file: the dashboard's settings as a struct,
 * reading them from gputop.conf, and writing them back atomically when (and
 * only when) the user saves. The only I/O is in gt_config_load and
 * gt_config_save; everything else is pure. Nothing here writes on its own:
 * a file with problems is reported and left as it is, so a hand-edited file
 * is never "repaired" behind the user's back (htop #948).
 *
 * File: $XDG_CONFIG_HOME/gputop/gputop.conf, else ~/.config/gputop/gputop.conf
 * (an empty or relative XDG_CONFIG_HOME is ignored, as the XDG spec says).
 * Format, INI-like, UTF-8, one setting per line:
 *
 *   # a comment
 *   [dashboard]
 *   interval = 1.5          # seconds between samples, 0.1 to 3600
 *   theme = midnight        # a theme name or path; "" = built-in
 *   glyphs = braille        # braille | block | ascii (or tty) | auto
 *   temperature = celsius   # celsius (c) | fahrenheit (f)
 *   processes = yes         # the process table: yes | no (true/false, on/off,
 * 1/0) graphs = yes            # history graphs in GPU panels: yes | no panels
 * = auto           # biggest GPU panel: auto (= full) | compact | line columns
 * = pid, user, dev, type, gpu, vram, enc, dec, cpu, host_mem, container sort =
 * gpu              # the column the process table is sorted by sort_reverse =
 * no       # flips that column's natural order hide_gpus = 0000:18:00.0,
 * 0000:2a:00.0   # PCI ids of GPUs not shown
 *
 * Keys, section names and words are case-insensitive; blanks around '=' are
 * optional. A '#' starts a comment at the start of a line, or in a value
 * when it follows a blank and is not inside double quotes; a value may be
 * put in double quotes (theme = " a name with # and spaces "). Settings
 * before any section header belong to [dashboard] too. Lists take commas
 * and/or blanks. `columns`: the process-table columns to show, by the keys
 * above, `all`, or `command` (COMMAND always shows; the order does not
 * matter). `hide_gpus`: up to GT_CONFIG_MAX_HIDDEN ids with or without the
 * domain, NVML's 8-digit domain too ("00000000:18:00.0"), or `none`; they
 * are kept as "0000:18:00.0". A theme name may not hold '"' or control
 * characters. A key given twice: the last valid line wins. A UTF-8 BOM and
 * CRLF line ends are accepted; a line over 4 KiB is not a setting.
 *
 * `[profile NAME]` sections hold control profiles: their lines are split
 * by the same classifier and handed to profile.h's reader, which owns
 * their meaning; their problems are reported as the settings' are. Other
 * sections (a newer gputop's) are skipped unread, with a warning. Both are
 * written back unchanged on save.
 *
 * Problems: a line that cannot be understood leaves its setting as it was
 * (the default, or an earlier line's value) and loading goes on; the
 * problem on the earliest line is reported as "gputop.conf:12: unknown
 * value 'purple' for glyphs (braille, block, ascii, auto)", followed by
 * "(and N more problems)".
 *
 * Saving patches the file line by line rather than rewriting it, so what
 * the user wrote survives: comments, blank lines, unknown keys (a newer
 * gputop's) and other sections are kept verbatim; each known key's first
 * line in [dashboard] gets the new value (its trailing comment kept), later
 * repeats of it are dropped; keys not yet in the file are added after the
 * last known one, each under a "# what it does (values)" line; lines in
 * [dashboard] that are not settings at all are kept as comments ("# " + the
 * line), so the next load is clean. A new file gets a short header comment.
 * A symlinked gputop.conf (dotfile managers) is followed and stays a
 * symlink; the file keeps its permissions (a new one: 0600).
 *
 * The folder src/config/ holds the settings file and the profiles: their
 * parsing, key tables, the profile plan, and the names of what the UI lets
 * a user choose (display.h), so that settings never include the UI. It
 * includes core and control.
 */
#ifndef GPUTOP_CONFIG_H
#define GPUTOP_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config_text.h" /* gt_config_shown, gt_config_pci_normalize */
#include "config/display.h"

#define GT_CONFIG_INTERVAL_MAX_NS 3600000000000ull /* 3600 s, as --interval */
#define GT_CONFIG_MAX_HIDDEN      16
#define GT_CONFIG_MAX_BYTES       (1u << 20) /* a bigger file is not a config */

struct gt_config {
	uint64_t interval_ns; /* 0.1 .. 3600 s, default 1 s */
	char theme[4096];     /* "" = built-in; a name or a path, any length */
	int glyphs;           /* -1 = automatic from the locale, else
	                         enum gt_glyphs */
	bool fahrenheit;
	bool show_processes, show_graphs;
	int max_mode;                /* enum gt_gpu_mode: 0 auto(full)
	                                1 compact 2 line */
	bool columns[GT_COL__COUNT]; /* which process columns show; COMMAND
	                                is always true */
	int sort_col;                /* enum gt_proctable_col */
	bool sort_reverse;
	char hidden_gpus[GT_CONFIG_MAX_HIDDEN][32]; /* PCI ids ("0000:18:00.0")
	                                               of GPUs not shown */
	int nhidden;
};

/* Interval 1 s, built-in theme, automatic glyphs, Celsius, processes and
 * graphs shown, any panel size, every column, sorted by GPU % (as
 * gt_proctable_state_init), every GPU shown. Clears the whole struct first,
 * so two default configs compare equal byte for byte. */
void gt_config_defaults(struct gt_config *c);

/*
 * Reads path (NULL = gt_config_default_path) into *c, which always starts
 * from the defaults, so *c is usable whatever this returns. err gets "" or
 * a message (err may be NULL when errlen is 0).
 *   0   read cleanly, or the file does not exist (then: defaults);
 *   1   read with problems: err holds "gputop.conf:LINE: problem" for the
 *       first and the count of the others; settings on bad lines keep their
 *       previous value. The caller shows err and must not save over the file
 *       unless the user explicitly saves.
 *  -1   the file cannot be read at all (not a regular file, permission,
 *       over GT_CONFIG_MAX_BYTES, no home directory): err says why; *c
 *       holds the defaults.
 */
int gt_config_load(const char *path, struct gt_config *c, char *err,
                   size_t errlen);

struct gt_profile_list;

/* gt_config_load, also handing back the file's profiles (profile.h): on 0
 * or 1, *profiles is a list the caller frees with gt_profile_list_free
 * (empty, with exists = false, when the file does not exist); on -1 it is
 * NULL. gt_config_load reads and checks the profiles the same way, then
 * drops them. err counts the profiles' problems with the settings'. */
int gt_config_load_profiles(const char *path, struct gt_config *c,
                            struct gt_profile_list **profiles, char *err,
                            size_t errlen);

/*
 * Writes *c to path (NULL = gt_config_default_path) as described at the top
 * of this file: the existing file is read and patched (its other sections
 * survive), and the result replaces it atomically (a temporary file in the
 * same directory, fsync, rename, fsync of the directory), so a crash leaves
 * either the old file or the new one, never a mix. Missing directories are
 * created with mode 0700. Out-of-range fields are written as their nearest
 * valid value. Returns 0, or -1 with the reason in err (the old file is then
 * untouched and no temporary file is left behind). Refuses to save over a
 * file it cannot read, since its other sections would be lost.
 */
int gt_config_save(const char *path, const struct gt_config *c, char *err,
                   size_t errlen);

/* "$XDG_CONFIG_HOME/gputop/gputop.conf", else "$HOME/.config/gputop/
 * gputop.conf", else the passwd entry's home. Returns 0, or -1 when there is
 * no home directory or out is too small (out then holds ""). */
int gt_config_default_path(char *out, size_t len);

/* Whether the GPU with this PCI id (any form gt_config_pci_normalize
 * takes) is hidden. */
bool gt_config_gpu_hidden(const struct gt_config *c, const char *pci_id);

/* Hides or shows the GPU with this PCI id (the setup dialog's toggle).
 * Returns 0, or -1 when pci_id is not a PCI id or GT_CONFIG_MAX_HIDDEN GPUs
 * are already hidden. */
int gt_config_set_gpu_hidden(struct gt_config *c, const char *pci_id,
                             bool hidden);

#endif

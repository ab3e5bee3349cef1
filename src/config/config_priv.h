/* SPDX-License-Identifier: MIT */
/*
 * config_priv.h - shared by config.c (the file: lines, load, save) and
 * config_values.c (the keys and their values). Not for other modules: they
 * use config.h.
 */
#ifndef GPUTOP_CONFIG_PRIV_H
#define GPUTOP_CONFIG_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "config/config.h"

enum cfg_type {
	T_INTERVAL,
	T_THEME,
	T_GLYPHS,
	T_CHOICE,
	T_COLUMNS,
	T_SORT,
	T_HIDE
};

struct cfg_word {
	const char *w;
	int v;
};

struct keydef {
	const char *name, *help, *choices;
	enum cfg_type type;
	size_t off;   /* T_CHOICE: the field, */
	bool is_bool; /* a bool or an int */
	const struct cfg_word *words;
};

/* A constant, not sizeof(gt_config_keys): config.c sizes arrays with it, and
 * config_values.c checks it against the table. */
#define CFG_NKEYS 11

/* Defined, and explained, in config_values.c. */
extern const struct keydef gt_config_keys[];

/* Parses v into c's field for k, or leaves c alone and explains in why. */
int gt_config_parse_value(const struct keydef *k, const char *v,
                          struct gt_config *c, char *why, size_t wl);
/* The value of k in the file's syntax. Out-of-range fields are written as
 * their nearest valid value, so a save never writes an unreadable file. */
void gt_config_format_value(const struct keydef *k, const struct gt_config *c,
                            char *out, size_t len);
/* "a, b, c" of every column key. */
void gt_config_column_list(char *out, size_t len);

#endif

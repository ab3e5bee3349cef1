/* SPDX-License-Identifier: MIT */
/*
 * config_values.c - owns the keys of gputop.conf and their values: the key
 * table, parsing a value into struct gt_config and writing it back, the
 * defaults, and the PCI ids of hidden GPUs (syntax in config.h). Numbers
 * are parsed and printed by hand: the dashboard calls setlocale(LC_ALL, ""),
 * and strtod/printf("%g") would then read and write "1,5" under a German
 * locale.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/collector.h" /* GT_INTERVAL_MIN_NS, GT_INTERVAL_DEFAULT_NS */
#include "config/config.h"
#include "config/config_priv.h"
#include "config/config_text.h"
#include "config/display.h"

/* Accepted words; the first one of each value is the one written. */
static const struct cfg_word w_bool[] = {{"yes", 1},   {"no", 0}, {"true", 1},
                                         {"false", 0}, {"on", 1}, {"off", 0},
                                         {"1", 1},     {"0", 0},  {NULL, 0}};
static const struct cfg_word w_temp[] = {
    {"celsius", 0}, {"fahrenheit", 1}, {"c", 0}, {"f", 1}, {NULL, 0}};
static const struct cfg_word w_panels[] = {{"auto", GT_GPU_FULL},
                                           {"compact", GT_GPU_COMPACT},
                                           {"line", GT_GPU_LINE},
                                           {"full", GT_GPU_FULL},
                                           {NULL, 0}};

#define FIELD(f)                                                               \
	offsetof(struct gt_config, f),                                         \
	    _Generic(((struct gt_config *)0)->f, bool                          \
	             : true, default                                           \
	             : false)

/* The one list of keys: parser, writer and the comments written above new
 * keys all come from it, so they cannot drift apart. */
const struct keydef gt_config_keys[] = {
    {"interval", "seconds between samples", "0.1 to 3600", T_INTERVAL, 0, 0,
     NULL},
    {"theme", "colour theme", "a name or a path; \"\" = built-in", T_THEME, 0,
     0, NULL},
    {"glyphs", "graph symbols", "braille, block, ascii, auto", T_GLYPHS, 0, 0,
     NULL},
    {"temperature", "temperature unit", "celsius, fahrenheit", T_CHOICE,
     FIELD(fahrenheit), w_temp},
    {"processes", "show the process table", "yes, no", T_CHOICE,
     FIELD(show_processes), w_bool},
    {"graphs", "history graphs in GPU panels", "yes, no", T_CHOICE,
     FIELD(show_graphs), w_bool},
    {"panels", "biggest GPU panel", "auto, compact, line", T_CHOICE,
     FIELD(max_mode), w_panels},
    {"columns", "process columns shown; COMMAND always is", NULL, T_COLUMNS, 0,
     0, NULL},
    {"sort", "column the process table is sorted by", NULL, T_SORT, 0, 0, NULL},
    {"sort_reverse", "reverse the column's order", "yes, no", T_CHOICE,
     FIELD(sort_reverse), w_bool},
    {"hide_gpus", "GPUs not shown", "PCI ids such as 0000:18:00.0, or none",
     T_HIDE, 0, 0, NULL},
};
_Static_assert(sizeof(gt_config_keys) / sizeof(gt_config_keys[0]) == CFG_NKEYS,
               "CFG_NKEYS must count gt_config_keys");

void gt_config_defaults(struct gt_config *c)
{
	memset(c, 0, sizeof(*c));
	c->interval_ns = GT_INTERVAL_DEFAULT_NS;
	c->glyphs = -1;
	c->show_processes = true;
	c->show_graphs = true;
	c->max_mode = GT_GPU_FULL;
	for (int i = 0; i < GT_COL__COUNT; i++)
		c->columns[i] = true;
	/* The table's own default order, so a missing key changes nothing. */
	c->sort_col = GT_DISPLAY_SORT_DEFAULT;
	c->sort_reverse = false;
}

/* ---- values --------------------------------------------------------- */

static int parse_interval(const char *v, uint64_t *out)
{
	uint64_t ip = 0, frac = 0;
	int nd = 0, fd = 0, up = 0;
	for (; isdigit((unsigned char)*v); v++, nd++)
		if (ip <= 3600) /* beyond it only "too big" matters */
			ip = ip * 10 + (uint64_t)(*v - '0');
	if (*v == '.')
		for (v++; isdigit((unsigned char)*v); v++, fd++) {
			if (fd < 9)
				frac = frac * 10 + (uint64_t)(*v - '0');
			else if (fd == 9)
				up = *v >= '5'; /* rounds to the nearest ns */
		}
	for (int i = fd; i < 9; i++)
		frac *= 10;
	v += strspn(v, " \t");
	v += *v == 's' || *v == 'S';
	if (nd + fd == 0 || *v || ip > 3600)
		return -1;
	*out = ip * 1000000000u + frac + (uint64_t)up;
	return *out >= GT_INTERVAL_MIN_NS && *out <= GT_CONFIG_INTERVAL_MAX_NS
	           ? 0
	           : -1;
}

static int parse_column(const char *v)
{
	for (int i = 0; i < GT_COL__COUNT; i++)
		if (strcasecmp(v, gt_display_columns[i]) == 0)
			return i;
	return -1;
}

void gt_config_column_list(char *out, size_t len)
{
	size_t k = 0;
	out[0] = '\0';
	for (int i = 0; i < GT_COL__COUNT && k < len; i++)
		k += (size_t)snprintf(out + k, len - k, "%s%s", i ? ", " : "",
		                      gt_display_columns[i]);
}

/* Splits v at commas and blanks into items (copied into buf); returns how
 * many, or max + 1 when there are more. */
static int split_list(const char *v, char *buf, size_t len, char **items,
                      int max)
{
	int n = 0;
	char *save = NULL;
	snprintf(buf, len, "%s", v);
	for (char *s = strtok_r(buf, ", \t", &save); s && n <= max;
	     s = strtok_r(NULL, ", \t", &save))
		if (n++ < max)
			items[n - 1] = s;
	return n;
}

/* The value of theme: a name or path the file can hold. */
static int parse_theme(const char *v, const char *sv, struct gt_config *c,
                       char *why, size_t wl)
{
	/* '"' too: no quoting could then bring the name back intact. */
	for (const char *t = v; *t; t++)
		if ((unsigned char)*t < 0x20 || *t == 0x7f || *t == '"') {
			snprintf(why, wl,
			         "theme name '%s' holds a control character or "
			         "'\"'",
			         sv);
			return -1;
		}
	if (strlen(v) >= sizeof(c->theme)) {
		snprintf(why, wl, "theme name '%s' is longer than %zu bytes",
		         sv, sizeof(c->theme) - 1);
		return -1;
	}
	snprintf(c->theme, sizeof(c->theme), "%s", v);
	return 0;
}

/* One of a T_CHOICE key's words into its field. */
static int parse_choice(const struct keydef *k, const char *v,
                        struct gt_config *c)
{
	for (const struct cfg_word *w = k->words; w->w; w++)
		if (strcasecmp(v, w->w) == 0) {
			bool b =
			    w->v; /* memcpy: no casts that raise alignment */
			memcpy((char *)c + k->off,
			       k->is_bool ? (const void *)&b
			                  : (const void *)&w->v,
			       k->is_bool ? sizeof(b) : sizeof(w->v));
			return 0;
		}
	return -1;
}

/* The value of columns: column keys or "all"; COMMAND always shows. */
static int parse_columns(const char *v, struct gt_config *c, char *why,
                         size_t wl)
{
	char sv[200], list[160], buf[4096], *it[32];
	bool cols[GT_COL__COUNT] = {false};
	int i = -1, n;

	if ((n = split_list(v, buf, sizeof(buf), it, 32)) > 32) {
		snprintf(why, wl, "columns lists more than 32 items");
		return -1;
	}
	for (int j = 0; j < n; j++) {
		bool all = strcasecmp(it[j], "all") == 0;
		if (!all && (i = parse_column(it[j])) < 0) {
			gt_config_column_list(list, sizeof(list));
			snprintf(why, wl,
			         "unknown column '%s' for columns (%s)",
			         gt_config_shown(it[j], sv, sizeof(sv)), list);
			return -1;
		}
		for (int m = 0; m < GT_COL__COUNT; m++)
			cols[m] = cols[m] || all || m == i;
	}
	cols[GT_COL_COMMAND] = true;
	memcpy(c->columns, cols, sizeof(cols));
	return 0;
}

/* The value of hide_gpus: PCI ids, or "none"; all or nothing. */
static int parse_hide(const char *v, struct gt_config *c, char *why, size_t wl)
{
	char sv[200], buf[4096], *it[32];
	struct gt_config tmp = *c;
	int n = strcasecmp(v, "none") == 0
	            ? 0
	            : split_list(v, buf, sizeof(buf), it, GT_CONFIG_MAX_HIDDEN);

	tmp.nhidden = 0;
	for (int j = 0; j < n && j < GT_CONFIG_MAX_HIDDEN; j++)
		if (gt_config_set_gpu_hidden(&tmp, it[j], true)) {
			snprintf(why, wl,
			         "'%s' is not a PCI id for hide_gpus (e.g. "
			         "0000:18:00.0)",
			         gt_config_shown(it[j], sv, sizeof(sv)));
			return -1;
		}
	if (n > GT_CONFIG_MAX_HIDDEN) {
		snprintf(why, wl, "hide_gpus lists more than %d GPUs",
		         GT_CONFIG_MAX_HIDDEN);
		return -1;
	}
	memcpy(c->hidden_gpus, tmp.hidden_gpus, sizeof(c->hidden_gpus));
	c->nhidden = tmp.nhidden;
	return 0;
}

int gt_config_parse_value(const struct keydef *k, const char *v,
                          struct gt_config *c, char *why, size_t wl)
{
	char sv[200], list[160];
	int i = -1;
	uint64_t ns;
	gt_config_shown(v, sv, sizeof(sv));
	switch (k->type) {
	case T_INTERVAL:
		if (parse_interval(v, &ns) == 0) {
			c->interval_ns = ns;
			return 0;
		}
		snprintf(why, wl,
		         "interval must be a number of seconds from 0.1 to "
		         "3600, not '%s'",
		         sv);
		return -1;
	case T_THEME:
		return parse_theme(v, sv, c, why, wl);
	case T_GLYPHS:
		if ((i = strcasecmp(v, "auto") ? gt_glyphs_parse(v) : -1) >=
		        0 ||
		    strcasecmp(v, "auto") == 0) {
			c->glyphs = i;
			return 0;
		}
		break;
	case T_CHOICE:
		if (parse_choice(k, v, c) == 0)
			return 0;
		break;
	case T_SORT:
		if ((i = parse_column(v)) >= 0) {
			c->sort_col = i;
			return 0;
		}
		gt_config_column_list(list, sizeof(list));
		snprintf(why, wl, "unknown column '%s' for sort (%s)", sv,
		         list);
		return -1;
	case T_COLUMNS:
		return parse_columns(v, c, why, wl);
	case T_HIDE:
		return parse_hide(v, c, why, wl);
	}
	snprintf(why, wl, "unknown value '%s' for %s (%s)", sv, k->name,
	         k->choices);
	return -1;
}

void gt_config_format_value(const struct keydef *k, const struct gt_config *c,
                            char *out, size_t len)
{
	size_t w = 0;
	uint64_t ns = c->interval_ns;
	char t[sizeof(c->theme)];
	int v;
	out[0] = '\0';
	switch (k->type) {
	case T_INTERVAL:
		ns = ns < GT_INTERVAL_MIN_NS ? GT_INTERVAL_MIN_NS
		     : ns > GT_CONFIG_INTERVAL_MAX_NS
		         ? GT_CONFIG_INTERVAL_MAX_NS
		         : ns;
		w = (size_t)snprintf(out, len, "%" PRIu64 ".%09" PRIu64,
		                     (uint64_t)(ns / 1000000000u),
		                     (uint64_t)(ns % 1000000000u));
		while (w > 0 && out[w - 1] == '0')
			out[--w] = '\0';
		if (w > 0 && out[w - 1] == '.')
			out[--w] = '\0';
		break;
	case T_THEME:
		/* What the loader refuses (a control byte would even break the
		 * file) is left out. */
		for (size_t i = 0; i < sizeof(c->theme) - 1 && c->theme[i]; i++)
			if ((unsigned char)c->theme[i] >= 0x20 &&
			    c->theme[i] != 0x7f && c->theme[i] != '"')
				t[w++] = c->theme[i];
		t[w] = '\0';
		/* Quoted only where the bare text would read differently. */
		snprintf(out, len,
		         !w || strchr(t, '#') || t[0] == ' ' || t[w - 1] == ' '
		             ? "\"%s\""
		             : "%s",
		         t);
		break;
	case T_GLYPHS:
		snprintf(out, len, "%s",
		         c->glyphs >= 0 && c->glyphs < GT_GLYPHS__COUNT
		             ? gt_glyphs_name((enum gt_glyphs)c->glyphs)
		             : "auto");
		break;
	case T_CHOICE:
		if (k->is_bool) {
			bool b;
			memcpy(&b, (const char *)c + k->off, sizeof(b));
			v = b;
		} else {
			memcpy(&v, (const char *)c + k->off, sizeof(v));
		}
		snprintf(out, len, "%s", k->words[0].w);
		for (const struct cfg_word *wd = k->words; wd->w; wd++)
			if (wd->v == v) {
				snprintf(out, len, "%s", wd->w);
				break;
			}
		break;
	case T_COLUMNS:
		for (int i = 0; i < GT_COL_COMMAND && w < len; i++)
			if (c->columns[i])
				w += (size_t)snprintf(out + w, len - w, "%s%s",
				                      w ? ", " : "",
				                      gt_display_columns[i]);
		if (w == 0) /* an empty value would look like a mistake */
			snprintf(out, len, "command");
		break;
	case T_SORT:
		v = c->sort_col >= 0 && c->sort_col < GT_COL__COUNT
		        ? c->sort_col
		        : GT_DISPLAY_SORT_DEFAULT;
		snprintf(out, len, "%s", gt_display_columns[v]);
		break;
	case T_HIDE:
		for (int i = 0;
		     i < c->nhidden && i < GT_CONFIG_MAX_HIDDEN && w < len; i++)
			/* Only valid ids, so the next load is clean. */
			if (gt_config_pci_normalize(c->hidden_gpus[i], t,
			                            sizeof(t)) == 0)
				w += (size_t)snprintf(out + w, len - w, "%s%s",
				                      w ? ", " : "", t);
		if (w == 0)
			snprintf(out, len, "none");
		break;
	}
}

bool gt_config_gpu_hidden(const struct gt_config *c, const char *pci_id)
{
	char id[32];
	/* Asked for every GPU every frame: nothing hidden costs nothing. */
	if (c->nhidden <= 0)
		return false;
	if (gt_config_pci_normalize(pci_id, id, sizeof(id)) == 0)
		for (int i = 0; i < c->nhidden && i < GT_CONFIG_MAX_HIDDEN; i++)
			if (strcmp(c->hidden_gpus[i], id) == 0)
				return true;
	return false;
}

int gt_config_set_gpu_hidden(struct gt_config *c, const char *pci_id,
                             bool hidden)
{
	char id[32];
	int i, n = c->nhidden < 0 ? 0 : c->nhidden;
	if (gt_config_pci_normalize(pci_id, id, sizeof(id)))
		return -1;
	n = n > GT_CONFIG_MAX_HIDDEN ? GT_CONFIG_MAX_HIDDEN : n;
	for (i = 0; i < n && strcmp(c->hidden_gpus[i], id); i++)
		;
	if (hidden && i == n) {
		if (n == GT_CONFIG_MAX_HIDDEN)
			return -1;
		memcpy(c->hidden_gpus[n++], id, sizeof(id));
	} else if (!hidden && i < n) {
		memmove(c->hidden_gpus[i], c->hidden_gpus[i + 1],
		        sizeof(c->hidden_gpus[0]) * (size_t)(n-- - i - 1));
	}
	c->nhidden = n;
	return 0;
}

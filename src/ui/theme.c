/* SPDX-License-Identifier: MIT */
/*
 * theme.c - btop theme files: parsing, btop's fallbacks, gputop's extension
 * keys, gradients and the terminal's colour tier. Finding the files is
 * theme_dirs.c's; the nearest palette colour, palette.c's. See theme.h for the
 * rules; the comments here say why the code follows them.
 */
#include "ui/theme.h"
#include "core/fileio.h"
#include "core/text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* No real theme comes near this (btop's are under 3 KB); the cap keeps a
 * mistaken --theme /dev/zero or a huge log from being slurped. */
#define GT_THEME_FILE_MAX (1024 * 1024)

/* clang-format cannot see the commas these X-macros expand to. */
/* clang-format off */
static const char *const gt_key_names[GT_TK_COUNT] = {
#define GT_NAME_(id, name, fb, def) [GT_TK_##id] = name,
	GT_THEME_KEYS(GT_NAME_)
#undef GT_NAME_
};

static const int gt_key_fallback[GT_TK_COUNT] = {
#define GT_FB_(id, name, fb, def) [GT_TK_##id] = GT_TK_##fb,
	GT_THEME_KEYS(GT_FB_)
#undef GT_FB_
};

static const uint32_t gt_key_default[GT_TK_COUNT] = {
#define GT_DEF_(id, name, fb, def) [GT_TK_##id] = def,
	GT_THEME_KEYS(GT_DEF_)
#undef GT_DEF_
};

/* clang-format on */

/* ---- keys ---------------------------------------------------------------- */

const char *gt_theme_key_name(enum gt_theme_key k)
{
	if ((int)k < 0 || k >= GT_TK_COUNT)
		return NULL;
	return gt_key_names[k];
}

enum gt_theme_key gt_theme_key_lookup(const char *name, size_t len)
{
	for (int k = 0; k < GT_TK_COUNT; k++) {
		if (strlen(gt_key_names[k]) == len &&
		    memcmp(gt_key_names[k], name, len) == 0)
			return (enum gt_theme_key)k;
	}
	return GT_TK_NONE;
}

static bool gt_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

bool gt_theme_key_is_bg(enum gt_theme_key k)
{
	if ((int)k < 0 || k >= GT_TK_COUNT || k == GT_TK_METER_BG)
		return false;
	return gt_ends_with(gt_key_names[k], "bg");
}

bool gt_theme_key_is_gradient(enum gt_theme_key k)
{
	if ((int)k < 0 || k >= GT_TK_COUNT)
		return false;
	return gt_ends_with(gt_key_names[k], "_start");
}

/* The stops after a start; derived from the names so that the table in
 * theme.h is the only place a family is declared. */
static bool gt_key_is_mid_or_end(int k)
{
	return gt_ends_with(gt_key_names[k], "_mid") ||
	       gt_ends_with(gt_key_names[k], "_end");
}

/* ---- values -------------------------------------------------------------- */

static struct gt_rgb gt_rgb_hex(uint32_t v)
{
	struct gt_rgb c = {(uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};

	return c;
}

static bool gt_is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Parses one non-empty colour value. Returns NULL and sets *out, or returns
 * why the value is unusable. btop clamps out-of-range decimals and leaves
 * a bad hex value colourless; gputop reports both and falls back instead,
 * so a typo is visible rather than silently black.
 */
static const char *gt_parse_color(const char *s, size_t n, struct gt_rgb *out)
{
	if (s[0] == '#') {
		uint32_t v = 0;

		if (n != 3 && n != 7)
			return "hex colour needs 2 or 6 digits";
		for (size_t i = 1; i < n; i++) {
			if (gt_text_hex_digit(s[i]) < 0)
				return "not a hex digit";
			v = v * 16 + (uint32_t)gt_text_hex_digit(s[i]);
		}
		*out = gt_rgb_hex(n == 3 ? v * 0x010101u : v); /* #GG: grey */
		return NULL;
	}
	/* "R G B": three decimal fields separated by blanks. */
	int v[3];
	size_t i = 0;

	for (int f = 0; f < 3; f++) {
		int digits = 0, val = 0;

		while (i < n && gt_is_blank(s[i]))
			i++;
		while (i < n && s[i] >= '0' && s[i] <= '9') {
			if (++digits > 3)
				return "decimal value out of range 0..255";
			val = val * 10 + (s[i++] - '0');
		}
		if (digits == 0)
			return "not \"#RRGGBB\", \"#GG\" or \"R G B\"";
		if (val > 255)
			return "decimal value out of range 0..255";
		v[f] = val;
	}
	while (i < n && gt_is_blank(s[i]))
		i++;
	if (i != n)
		return "not \"#RRGGBB\", \"#GG\" or \"R G B\"";
	*out = (struct gt_rgb){(uint8_t)v[0], (uint8_t)v[1], (uint8_t)v[2]};
	return NULL;
}

/* ---- warnings ------------------------------------------------------------ */

/* Copies untrusted text for a message: at most 24 bytes, anything not
 * printable ASCII as '?', so a binary file cannot put escapes on screen. */
static void gt_quote(char *dst, size_t dstlen, const char *s, size_t n)
{
	size_t o = 0, max = 24;

	for (size_t i = 0; i < n && i < max && o + 1 < dstlen; i++)
		dst[o++] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
	if (n > max) {
		for (int i = 0; i < 3 && o + 1 < dstlen; i++)
			dst[o++] = '.';
	}
	dst[o] = '\0';
}

__attribute__((format(printf, 3, 4))) static void
gt_warn(struct gt_theme *t, int line, const char *fmt, ...)
{
	t->nwarn_total++;
	if (t->nwarn >= GT_THEME_MAX_WARNINGS)
		return;
	struct gt_theme_warning *w = &t->warn[t->nwarn++];
	va_list ap;

	w->line = line;
	va_start(ap, fmt);
	vsnprintf(w->msg, sizeof(w->msg), fmt, ap);
	va_end(ap);
}

/* ---- parsing and resolving ----------------------------------------------- */

enum gt_raw_state { GT_RAW_MISSING, GT_RAW_EMPTY, GT_RAW_COLOR };

/* What the file said, before any fallback. */
struct gt_raw {
	uint8_t state[GT_TK_COUNT];
	struct gt_rgb rgb[GT_TK_COUNT];
};

static void gt_parse_line(const char *p, const char *e, int line,
                          struct gt_raw *raw, struct gt_theme *t)
{
	char q[32];

	/* Trailing blanks and a CR are not part of any value (btop would keep
	 * them in an unquoted value and then reject it). */
	while (e > p && (gt_is_blank(e[-1]) || e[-1] == '\r'))
		e--;
	while (p < e && gt_is_blank(*p))
		p++;
	/* btop treats only column-0 '#' as a comment, but its forward scan
	 * to the next '[' makes an indented comment harmless too, unless it
	 * holds a setting; dropping every '#' line is the sane reading. */
	if (p == e || *p == '#')
		return;
	if (e - p < 6 || memcmp(p, "theme[", 6) != 0)
		goto junk;
	const char *key = p + 6, *kend = memchr(key, ']', (size_t)(e - key));

	if (!kend || kend == key)
		goto junk;
	p = kend + 1;
	while (p < e && gt_is_blank(*p))
		p++;
	if (p == e || *p != '=')
		goto junk;
	p++;
	while (p < e && gt_is_blank(*p))
		p++;
	const char *val = p, *vend = e;

	if (p < e && *p == '"') {
		/* Text after the closing quote is ignored, as btop does:
		 * several published themes put a comment there. */
		val = p + 1;
		vend = memchr(val, '"', (size_t)(e - val));
		if (!vend) {
			gt_warn(t, line, "missing closing quote; ignored");
			return;
		}
	}
	enum gt_theme_key k = gt_theme_key_lookup(key, (size_t)(kend - key));

	if (k == GT_TK_NONE) {
		gt_quote(q, sizeof(q), key, (size_t)(kend - key));
		gt_warn(t, line, "unknown key \"%s\"; ignored", q);
		return;
	}
	while (val < vend && gt_is_blank(*val))
		val++;
	while (vend > val && gt_is_blank(vend[-1]))
		vend--;
	if (val == vend) {
		raw->state[k] = GT_RAW_EMPTY;
		return;
	}
	struct gt_rgb c;
	const char *why = gt_parse_color(val, (size_t)(vend - val), &c);

	if (why) {
		/* The line is dropped, so an earlier setting of the same key
		 * (or else the fallback) stands. */
		gt_quote(q, sizeof(q), val, (size_t)(vend - val));
		gt_warn(t, line, "%s: \"%s\": %s; using the fallback",
		        gt_key_names[k], q, why);
		return;
	}
	raw->state[k] = GT_RAW_COLOR;
	raw->rgb[k] = c;
	return;
junk:
	gt_warn(t, line, "not a theme[key]=\"value\" line; ignored");
}

static void gt_copy_key(struct gt_theme *t, int dst, int src)
{
	t->rgb[dst] = t->rgb[src];
	t->has[dst] = t->has[src];
	t->from_file[dst] = false;
}

/*
 * The three stops of a family whose start the file set: btop does this for
 * process_* (its mid/end have no default of their own), and gputop's
 * extension families have no defaults at all, so an unset stop is "none".
 */
static void gt_take_family(struct gt_theme *t, const struct gt_raw *raw,
                           int start)
{
	for (int k = start; k < start + 3; k++) {
		bool color = raw->state[k] == GT_RAW_COLOR;

		t->rgb[k] = color ? raw->rgb[k] : (struct gt_rgb){0, 0, 0};
		t->has[k] = color;
		t->from_file[k] = raw->state[k] != GT_RAW_MISSING;
	}
}

/*
 * One pass in key order works because every fallback key comes earlier in
 * the table than the keys that fall back to it.
 */
static void gt_resolve(const struct gt_raw *raw, struct gt_theme *t)
{
	for (int k = 0; k < GT_TK_COUNT; k++) {
		int fb = gt_key_fallback[k];
		bool color = raw->state[k] == GT_RAW_COLOR;

		t->has[k] = true;
		t->from_file[k] = color;
		if (fb != GT_TK_NONE &&
		    gt_theme_key_is_gradient((enum gt_theme_key)k)) {
			/* A family with a fallback falls back as a whole
			 * when its start is unset (btop: process_*). */
			if (color) {
				gt_take_family(t, raw, k);
			} else {
				for (int i = 0; i < 3; i++)
					gt_copy_key(t, k + i, fb + i);
			}
			k += 2;
		} else if (color) {
			t->rgb[k] = raw->rgb[k];
		} else if (raw->state[k] == GT_RAW_EMPTY &&
		           (k == GT_TK_MAIN_BG || gt_key_is_mid_or_end(k))) {
			/* Empty main_bg: the terminal's background; an
			 * empty stop: the gradient skips it. Any other
			 * empty key is as good as missing, as in btop. */
			t->rgb[k] = (struct gt_rgb){0, 0, 0};
			t->has[k] = false;
			t->from_file[k] = true;
		} else if (fb != GT_TK_NONE) {
			gt_copy_key(t, k, fb);
		} else {
			t->rgb[k] = gt_rgb_hex(gt_key_default[k]);
		}
	}
}

static void gt_set_name(struct gt_theme *t, const char *name)
{
	snprintf(t->name, sizeof(t->name), "%s", name ? name : "");
}

void gt_theme_default(struct gt_theme *out)
{
	struct gt_raw raw;

	/* btop's Default theme is its table taken as a complete file, so its
	 * graph_text (#60) and process_* are its own, not the fallbacks a
	 * file lacking those keys gets. */
	memset(&raw, 0, sizeof(raw));
	for (int k = 0; k < GT_TK_BTOP_COUNT; k++) {
		raw.state[k] = GT_RAW_COLOR;
		raw.rgb[k] = gt_rgb_hex(gt_key_default[k]);
	}
	memset(out, 0, sizeof(*out));
	gt_resolve(&raw, out);
	memset(out->from_file, 0, sizeof(out->from_file));
	gt_set_name(out, "Default");
}

int gt_theme_load_buf(const char *buf, size_t len, const char *name,
                      struct gt_theme *out)
{
	struct gt_raw raw;
	/* No arithmetic on a null pointer, not even + 0. */
	const char *p = buf ? buf : "", *end = p + (buf ? len : 0);
	int line = 1;

	memset(&raw, 0, sizeof(raw));
	memset(out, 0, sizeof(*out));
	gt_set_name(out, name);
	if (end - p >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		p += 3; /* a UTF-8 byte-order mark from some editors */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;

		gt_parse_line(p, e, line++, &raw, out);
		p = nl ? nl + 1 : end;
	}
	gt_resolve(&raw, out);
	return out->nwarn_total;
}

static void gt_seterr(char *err, size_t errlen, const char *path, int e)
{
	if (err && errlen > 0)
		snprintf(err, errlen, "%s: %s", path, gt_fileio_strerror(e));
}

int gt_theme_load_file(const char *path, struct gt_theme *out, char *err,
                       size_t errlen)
{
	char name[GT_THEME_NAME_MAX];
	const char *base = strrchr(path, '/');
	char *buf = NULL;
	size_t len = 0;

	gt_theme_default(out);
	/* A FIFO given as a theme cannot hang start-up: it is refused as
	 * no regular file, as a directory or a file past the limit are. */
	int e = gt_fileio_read_all(path, GT_THEME_FILE_MAX, &buf, &len);
	if (e) {
		gt_seterr(err, errlen, path, e);
		return -1;
	}
	snprintf(name, sizeof(name), "%s", base ? base + 1 : path);
	size_t n = strlen(name);
	if (n > 6 && strcmp(name + n - 6, ".theme") == 0)
		name[n - 6] = '\0';
	gt_theme_load_buf(buf, len, name, out);
	free(buf);
	return 0;
}

/* ---- gradients ----------------------------------------------------------- */

struct gt_rgb gt_rgb_gradient(const struct gt_rgb stop[3], bool has_mid,
                              bool has_end, double frac)
{
	int pct, range = 100, i;
	const struct gt_rgb *a = &stop[0], *b = &stop[2];

	if (!(frac > 0.0)) /* also NaN */
		pct = 0;
	else if (frac >= 1.0)
		pct = 100;
	else
		pct = (int)(frac * 100.0 + 0.5);
	if (!has_end)
		return stop[0]; /* btop: no end, one colour (mid unused) */
	i = pct;
	if (has_mid) {
		range = 50;
		if (pct <= 50) {
			b = &stop[1];
		} else {
			a = &stop[1];
			i = pct - 50;
		}
	}
	/* btop's integer formula (C and C++ both truncate toward zero), so
	 * a gradient matches btop's 101-entry table exactly. */
	struct gt_rgb c = {
	    (uint8_t)(a->r + i * (b->r - a->r) / range),
	    (uint8_t)(a->g + i * (b->g - a->g) / range),
	    (uint8_t)(a->b + i * (b->b - a->b) / range),
	};
	return c;
}

struct gt_rgb gt_theme_gradient(const struct gt_theme *t,
                                enum gt_theme_key start, double frac)
{
	if ((int)start < 0 || start >= GT_TK_COUNT)
		return (struct gt_rgb){0, 0, 0};
	if (!gt_theme_key_is_gradient(start))
		return t->rgb[start];
	return gt_rgb_gradient(&t->rgb[start], t->has[start + 1],
	                       t->has[start + 2], frac);
}

/* ---- colour tiers -------------------------------------------------------- */

enum gt_color_tier gt_color_tier_detect(const char *colorterm, const char *term,
                                        int ncolors, const char *no_color)
{
	if (no_color && no_color[0])
		return GT_TIER_MONO;
	if (colorterm && (strcasecmp(colorterm, "truecolor") == 0 ||
	                  strcasecmp(colorterm, "24bit") == 0))
		return GT_TIER_TRUE;
	if (term && strcmp(term, "dumb") == 0)
		return GT_TIER_MONO;
	if (ncolors >= 0) {
		if (ncolors >= 0x1000000)
			return GT_TIER_TRUE;
		if (ncolors >= 256)
			return GT_TIER_256;
		if (ncolors >= 16)
			return GT_TIER_16;
		if (ncolors >= 8)
			return GT_TIER_8;
		return GT_TIER_MONO;
	}
	/* No terminfo count (no entry for TERM): guess from the name, and
	 * otherwise assume the 8 colours every colour terminal has. */
	if (!term || !term[0])
		return GT_TIER_MONO;
	if (gt_ends_with(term, "-direct"))
		return GT_TIER_TRUE;
	if (strstr(term, "256color"))
		return GT_TIER_256;
	return GT_TIER_8;
}

const char *gt_color_tier_name(enum gt_color_tier tier)
{
	static const char *const names[] = {"truecolor", "256", "16", "8",
	                                    "mono"};

	return (unsigned)tier < 5 ? names[tier] : "?";
}

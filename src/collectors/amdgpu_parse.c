/* SPDX-License-Identifier: MIT */
/*
 * amdgpu_parse.c - pure parsers of amdgpu's text attributes (see
 * amdgpu_parse.h). Everything works on (pointer, length) slices so that NUL
 * bytes inside a file never cut it short; a NUL counts as a blank.
 */
#include "collectors/amdgpu_parse.h"

#include <errno.h>
#include <string.h>

struct slice {
	const char *p;
	size_t n;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\0';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static struct slice trim(struct slice s)
{
	while (s.n > 0 && is_blank(s.p[0])) {
		s.p++;
		s.n--;
	}
	while (s.n > 0 && is_blank(s.p[s.n - 1]))
		s.n--;
	return s;
}

/* trim() for a whole one-value file: its final newline goes too. */
static struct slice trim_value(struct slice s)
{
	s = trim(s);
	while (s.n > 0 && (s.p[s.n - 1] == '\n' || is_blank(s.p[s.n - 1])))
		s.n--;
	while (s.n > 0 && (s.p[0] == '\n' || is_blank(s.p[0]))) {
		s.p++;
		s.n--;
	}
	return s;
}

static void skip_blanks(struct slice *s)
{
	while (s->n > 0 && is_blank(s->p[0])) {
		s->p++;
		s->n--;
	}
}

/* Next '\n'-separated line of *rest, trimmed; false at the end. */
static bool next_line(struct slice *rest, struct slice *line)
{
	if (rest->n == 0)
		return false;
	const char *nl = memchr(rest->p, '\n', rest->n);
	size_t n = nl ? (size_t)(nl - rest->p) : rest->n;
	line->p = rest->p;
	line->n = n;
	*line = trim(*line);
	rest->p += nl ? n + 1 : n;
	rest->n -= nl ? n + 1 : n;
	return true;
}

/* Case-insensitive prefix test; consumes the prefix when it matches. */
static bool eat_ci(struct slice *s, const char *word)
{
	size_t n = strlen(word);
	if (s->n < n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (lower(s->p[i]) != lower(word[i]))
			return false;
	s->p += n;
	s->n -= n;
	return true;
}

static bool eat_char(struct slice *s, char c)
{
	if (s->n == 0 || s->p[0] != c)
		return false;
	s->p++;
	s->n--;
	return true;
}

/* An unsigned decimal; false if none. Saturates instead of overflowing. */
static bool eat_uint(struct slice *s, int64_t *out)
{
	int64_t v = 0;
	size_t i = 0;
	while (i < s->n && is_digit(s->p[i])) {
		if (v < INT64_MAX / 10 - 10)
			v = v * 10 + (s->p[i] - '0');
		i++;
	}
	if (i == 0)
		return false;
	s->p += i;
	s->n -= i;
	*out = v;
	return true;
}

/* "16.0" or "8" in tenths; false if no number. */
static bool eat_tenths(struct slice *s, int64_t *out)
{
	int64_t whole, frac = 0;
	if (!eat_uint(s, &whole))
		return false;
	if (eat_char(s, '.')) {
		if (s->n > 0 && is_digit(s->p[0]))
			frac = s->p[0] - '0';
		while (s->n > 0 && is_digit(s->p[0])) {
			s->p++;
			s->n--;
		}
	}
	/* Saturates as eat_uint does (callers reject or clamp big rates). */
	*out = whole > (INT64_MAX - 9) / 10 ? INT64_MAX : whole * 10 + frac;
	return true;
}

/* An optionally signed integer followed by "MHz" in any case. */
static bool eat_mhz(struct slice *s, int64_t *out)
{
	struct slice t = *s;
	bool neg = eat_char(&t, '-');
	int64_t v;
	if (!eat_uint(&t, &v))
		return false;
	skip_blanks(&t);
	if (!eat_ci(&t, "mhz"))
		return false;
	*s = t;
	*out = neg ? -v : v;
	return true;
}

/* One pp_dpm line: "<i>: <clk>Mhz [*]", "S: <clk>Mhz [*]" or
 * "<i>: <rate>GT/s, x<w>[ <lclk>Mhz] [*]". */
static bool parse_dpm_line(struct slice s, struct gt_amdgpu_dpm_level *lv)
{
	int64_t v;

	memset(lv, 0, sizeof(*lv));
	lv->mhz = -1;
	if (s.n > 0 && (s.p[0] == 'S' || s.p[0] == 's')) {
		lv->index = -1;
		s.p++;
		s.n--;
	} else if (eat_uint(&s, &v) && v < 1000) {
		lv->index = (int)v;
	} else {
		return false;
	}
	skip_blanks(&s);
	if (!eat_char(&s, ':'))
		return false;
	skip_blanks(&s);
	struct slice num = s;
	if (!eat_tenths(&num, &v))
		return false;
	struct slice unit = num;
	skip_blanks(&unit);
	if (eat_ci(&unit, "gt/s")) {
		int64_t w;
		lv->pcie_gts10 = (int)(v > 100000 ? 100000 : v);
		skip_blanks(&unit);
		eat_char(&unit, ',');
		skip_blanks(&unit);
		if (!eat_ci(&unit, "x") || !eat_uint(&unit, &w))
			return false;
		lv->pcie_width = (int)(w > 1024 ? 1024 : w);
		skip_blanks(&unit);
		int64_t lclk;
		if (eat_mhz(&unit, &lclk) && lclk >= 0) /* no negative clock */
			lv->mhz = lclk;
		s = unit;
	} else if (eat_mhz(&s, &v)) {
		lv->mhz = v;
	} else {
		return false;
	}
	skip_blanks(&s);
	if (eat_char(&s, '*'))
		lv->active = true;
	skip_blanks(&s);
	return s.n == 0;
}

int gt_amdgpu_parse_dpm(const char *text, size_t len, struct gt_amdgpu_dpm *out)
{
	struct slice rest = {text, len}, line;
	bool content = false;

	memset(out, 0, sizeof(*out));
	while (next_line(&rest, &line)) {
		if (line.n == 0)
			continue;
		content = true;
		struct gt_amdgpu_dpm_level lv;
		if (!parse_dpm_line(line, &lv) ||
		    out->count == GT_AMDGPU_DPM_MAX)
			continue;
		out->lv[out->count++] = lv;
		if (lv.active)
			out->nactive++;
	}
	if (out->count == 0 && content)
		return -EBADMSG;
	return (int)out->count;
}

const struct gt_amdgpu_dpm_level *
gt_amdgpu_dpm_active(const struct gt_amdgpu_dpm *d)
{
	for (size_t i = d->count; i-- > 0;)
		if (d->lv[i].active)
			return &d->lv[i];
	return NULL;
}

int64_t gt_amdgpu_dpm_max_mhz(const struct gt_amdgpu_dpm *d)
{
	int64_t best = -1;
	for (size_t i = 0; i < d->count; i++)
		if (d->lv[i].mhz > best)
			best = d->lv[i].mhz;
	return best;
}

const struct gt_amdgpu_dpm_level *
gt_amdgpu_dpm_max_link(const struct gt_amdgpu_dpm *d)
{
	const struct gt_amdgpu_dpm_level *best = NULL;
	for (size_t i = 0; i < d->count; i++) {
		const struct gt_amdgpu_dpm_level *lv = &d->lv[i];
		if (lv->pcie_gts10 <= 0)
			continue;
		if (!best || lv->pcie_gts10 > best->pcie_gts10 ||
		    (lv->pcie_gts10 == best->pcie_gts10 &&
		     lv->pcie_width > best->pcie_width))
			best = lv;
	}
	return best;
}

int gt_amdgpu_pcie_gen(int gts10)
{
	static const int rates[] = {25, 50, 80, 160, 320, 640};
	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
		if (gts10 == rates[i])
			return (int)i + 1;
	return 0;
}

int gt_amdgpu_parse_link_speed(const char *text, size_t len)
{
	struct slice s = trim_value((struct slice){text, len});
	int64_t v;
	if (!eat_tenths(&s, &v) || v <= 0 || v > 100000)
		return -EINVAL;
	skip_blanks(&s);
	if (!eat_ci(&s, "gt/s"))
		return -EINVAL;
	return (int)v;
}

/* A section header: "OD_SCLK:", "OD_RANGE:", "CCLK_RANGE in Core0:" -
 * upper case first, nothing after the colon ("SCLK: 500Mhz 5000Mhz" and
 * "0: 500Mhz" are values). */
static bool od_header(struct slice line)
{
	return line.n >= 2 && line.p[line.n - 1] == ':' && line.p[0] >= 'A' &&
	       line.p[0] <= 'Z';
}

static bool slice_is(struct slice s, const char *word)
{
	return s.n == strlen(word) && memcmp(s.p, word, s.n) == 0;
}

enum od_section {
	OD_NONE,
	OD_SCLK,
	OD_MCLK,
	OD_SCLK_OFFSET,
	OD_RANGE,
	OD_OTHER
};

static void od_level(struct gt_amdgpu_od *od, enum od_section sec,
                     struct slice line)
{
	int64_t idx, mhz;
	struct slice s = line;

	if (sec == OD_SCLK_OFFSET) {
		if (eat_mhz(&s, &mhz)) {
			od->has_sclk_offset = true;
			od->sclk_offset = mhz;
		}
		return;
	}
	if (sec == OD_RANGE) {
		if (!eat_ci(&s, "SCLK:"))
			return;
		int64_t lo, hi;
		skip_blanks(&s);
		if (!eat_mhz(&s, &lo))
			return;
		skip_blanks(&s);
		if (!eat_mhz(&s, &hi))
			return;
		od->has_sclk_range = true;
		od->sclk_range_min = lo;
		od->sclk_range_max = hi;
		return;
	}
	if (!eat_uint(&s, &idx) || !eat_char(&s, ':'))
		return;
	skip_blanks(&s);
	if (!eat_mhz(&s, &mhz))
		return;
	/* Levels are printed in order: the first is the minimum, the last
	 * the maximum (two lines on RDNA, up to eight on Polaris/Vega). */
	if (sec == OD_SCLK) {
		if (!od->has_sclk)
			od->sclk_min = mhz;
		od->sclk_max = mhz;
		od->has_sclk = true;
	} else if (sec == OD_MCLK) {
		if (!od->has_mclk)
			od->mclk_min = mhz;
		od->mclk_max = mhz;
		od->has_mclk = true;
	}
}

int gt_amdgpu_parse_od(const char *text, size_t len, struct gt_amdgpu_od *out)
{
	struct slice rest = {text, len}, line;
	enum od_section sec = OD_NONE;
	bool content = false, known = false;

	memset(out, 0, sizeof(*out));
	while (next_line(&rest, &line)) {
		if (line.n == 0)
			continue;
		content = true;
		if (od_header(line)) {
			struct slice name = {line.p, line.n - 1};
			sec = slice_is(name, "OD_SCLK")   ? OD_SCLK
			      : slice_is(name, "OD_MCLK") ? OD_MCLK
			      : slice_is(name, "OD_SCLK_OFFSET")
			          ? OD_SCLK_OFFSET
			      : slice_is(name, "OD_RANGE") ? OD_RANGE
			                                   : OD_OTHER;
			known = known ||
			        (name.n > 3 && memcmp(name.p, "OD_", 3) == 0);
			continue;
		}
		if (sec != OD_NONE && sec != OD_OTHER)
			od_level(out, sec, line);
	}
	if (!content)
		return -ENODATA;
	return known ? 0 : -EBADMSG;
}

/* Splits s at blanks into at most max tokens; returns the count. */
static size_t tokens(struct slice s, struct slice *tok, size_t max)
{
	size_t n = 0;
	for (;;) {
		skip_blanks(&s);
		if (s.n == 0 || n == max)
			return n;
		size_t i = 0;
		while (i < s.n && !is_blank(s.p[i]))
			i++;
		tok[n].p = s.p;
		tok[n].n = i;
		n++;
		s.p += i;
		s.n -= i;
	}
}

static bool all_digits(struct slice t, int64_t *v)
{
	struct slice s = t;
	return eat_uint(&s, v) && s.n == 0 && t.n < 6;
}

/* A profile name (letters, digits, '_'), with any trailing '*' removed;
 * *star says whether there was one. */
static bool profile_name(struct slice t, struct slice *name, bool *star)
{
	*star = false;
	if (t.n > 0 && t.p[t.n - 1] == '*') {
		*star = true;
		t.n--;
	}
	if (t.n == 0 || all_digits(t, &(int64_t){0}))
		return false;
	for (size_t i = 0; i < t.n; i++) {
		char c = t.p[i];
		if (!(is_digit(c) || (c >= 'A' && c <= 'Z') ||
		      (c >= 'a' && c <= 'z') || c == '_'))
			return false;
	}
	*name = t;
	return true;
}

static void copy_name(struct slice name, char *out, size_t len)
{
	size_t n = name.n < len - 1 ? name.n : len - 1;
	memcpy(out, name.p, n);
	out[n] = '\0';
}

#define MAX_TOKENS 48

/* The rotated layout's header row: "<n> <NAME>[*] [*] <n> <NAME> ...".
 * Returns the number of (index, name) pairs; fills the active one. */
static int rotated_header(struct slice line, int64_t *active_idx,
                          struct slice *active_name)
{
	struct slice tok[MAX_TOKENS], name = {NULL, 0};
	size_t nt = tokens(line, tok, MAX_TOKENS);
	int64_t idx = -1, v;
	int pairs = 0;
	bool star;

	*active_idx = -1;
	for (size_t i = 0; i < nt; i++) {
		if (slice_is(tok[i], "*")) {
			/* The mark follows the active profile's name. */
			if (name.p) {
				*active_idx = idx;
				*active_name = name;
			}
		} else if (all_digits(tok[i], &v)) {
			idx = v;
			name.p = NULL;
		} else if (idx >= 0 && !name.p &&
		           profile_name(tok[i], &name, &star)) {
			pairs++;
			if (star) {
				*active_idx = idx;
				*active_name = name;
			}
		} else {
			return 0;
		}
	}
	return pairs;
}

int gt_amdgpu_parse_power_profile(const char *text, size_t len, char *name,
                                  size_t name_len)
{
	struct slice rest = {text, len}, line;
	bool first = true, any = false;

	if (name_len)
		name[0] = '\0';
	while (next_line(&rest, &line)) {
		if (line.n == 0)
			continue;
		if (first) {
			first = false;
			int64_t idx;
			struct slice n = {NULL, 0};
			if (rotated_header(line, &idx, &n) >= 2) {
				if (idx < 0)
					return -ENOENT;
				if (name_len)
					copy_name(n, name, name_len);
				return (int)idx;
			}
		}
		/* Flat, nested and list rows all start "<n> <NAME>"; in the
		 * first two the mark sits before the ':' that ends the name
		 * part, in the list at the end of the line. */
		struct slice seg = line;
		const char *colon = memchr(line.p, ':', line.n);
		if (colon)
			seg.n = (size_t)(colon - line.p);
		struct slice tok[3];
		size_t nt = tokens(seg, tok, 3);
		int64_t idx;
		struct slice n = {NULL, 0};
		bool star;
		if (nt < 2 || !all_digits(tok[0], &idx) ||
		    !profile_name(tok[1], &n, &star))
			continue;
		if (nt == 3 && !slice_is(tok[2], "*"))
			continue;
		any = true;
		if (star || nt == 3) {
			if (name_len)
				copy_name(n, name, name_len);
			return (int)idx;
		}
	}
	return any ? -ENOENT : -EBADMSG;
}

int gt_amdgpu_parse_perf_level(const char *text, size_t len, char *out,
                               size_t out_len)
{
	struct slice s = trim_value((struct slice){text, len});
	if (s.n == 0 || s.n >= out_len)
		return -EBADMSG;
	for (size_t i = 0; i < s.n; i++) {
		char c = s.p[i];
		if (!((c >= 'a' && c <= 'z') || c == '_' || is_digit(c)))
			return -EBADMSG;
	}
	memcpy(out, s.p, s.n);
	out[s.n] = '\0';
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * fdinfo_parse.c - owns the text format of DRM fdinfo: splitting lines into
 * key and value, numbers with units, the drm-* keys of every driver and
 * amdgpu's pre-standard lines (see fdinfo_parse.h). Works on a borrowed
 * buffer, allocates nothing, and treats every malformed line as absent.
 */
#include "linux/fdinfo_parse.h"
#include "core/text.h"

#include <string.h>

/* A borrowed, not NUL-terminated piece of the input. */
struct span {
	const char *s;
	size_t n;
};

static bool is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' ||
	       ch == '\v' || ch == '\f';
}

static bool is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

static struct span span_trim(struct span v)
{
	while (v.n && is_blank(v.s[0])) {
		v.s++;
		v.n--;
	}
	while (v.n && is_blank(v.s[v.n - 1]))
		v.n--;
	return v;
}

static bool span_eq(struct span v, const char *lit)
{
	size_t n = strlen(lit);
	return v.n == n && memcmp(v.s, lit, n) == 0;
}

/* If v starts with lit, drops it from v and returns true. */
static bool span_eat(struct span *v, const char *lit)
{
	size_t n = strlen(lit);
	if (v->n < n || memcmp(v->s, lit, n) != 0)
		return false;
	v->s += n;
	v->n -= n;
	return true;
}

static bool span_all_digits(struct span v)
{
	if (v.n == 0)
		return false;
	for (size_t i = 0; i < v.n; i++)
		if (!is_digit(v.s[i]))
			return false;
	return true;
}

/* Decimal digits at the front of v into *out; false on none or overflow
 * (an overflowing value is garbage, not a huge counter). */
static bool eat_u64(struct span *v, uint64_t *out)
{
	uint64_t x = 0;
	size_t i = 0;

	while (i < v->n && is_digit(v->s[i])) {
		unsigned d = (unsigned)(v->s[i] - '0');
		if (x > (UINT64_MAX - d) / 10)
			return false;
		x = x * 10 + d;
		i++;
	}
	if (i == 0)
		return false;
	v->s += i;
	v->n -= i;
	*out = x;
	return true;
}

/* A plain unsigned number, nothing after it. */
static bool parse_uint(struct span v, uint64_t *out)
{
	return eat_u64(&v, out) && span_trim(v).n == 0;
}

/* "<n>[ unit]" with unit none/B (bytes), KiB/kB/K, MiB/M, GiB/G: bytes. */
static bool parse_size(struct span v, uint64_t *out)
{
	uint64_t x, mul;

	if (!eat_u64(&v, &x))
		return false;
	v = span_trim(v);
	if (v.n == 0 || span_eq(v, "B"))
		mul = 1;
	else if (span_eq(v, "KiB") || span_eq(v, "kB") || span_eq(v, "K"))
		mul = 1ull << 10;
	else if (span_eq(v, "MiB") || span_eq(v, "M"))
		mul = 1ull << 20;
	else if (span_eq(v, "GiB") || span_eq(v, "G"))
		mul = 1ull << 30;
	else
		return false;
	if (x > UINT64_MAX / mul)
		return false;
	*out = x * mul;
	return true;
}

/*
 * amdgpu's kernel-computed percentages "70.59%" (5.14-5.18, "gfx0:" lines;
 * briefly "70.59 %"). The kernel printed them with "%d.%d%%" from one
 * integer of hundredths, so the digits after the dot are a whole number of
 * hundredths without zero padding: "70.5%" is 70.05 %, not 70.50 %. Only
 * the first two digits after the dot are taken.
 */
static bool parse_pct(struct span v, uint32_t *out)
{
	uint64_t whole, frac = 0;

	if (!eat_u64(&v, &whole))
		return false;
	if (v.n && v.s[0] == '.') {
		v.s++;
		v.n--;
		size_t i = 0;
		while (i < v.n && is_digit(v.s[i])) {
			if (i < 2)
				frac = frac * 10 + (uint64_t)(v.s[i] - '0');
			i++;
		}
		v.s += i;
		v.n -= i;
	}
	v = span_trim(v);
	if (!span_eq(v, "%"))
		return false;
	if (whole > 100000)
		whole = 100000; /* keep the sum below in range */
	*out = (uint32_t)(whole * 100 + frac);
	return true;
}

/* ---- engine classes ------------------------------------------------------ */

static const struct {
	const char *name;
	enum gt_fdinfo_class cls;
} engine_names[] = {
    {"gfx", GT_FDI_RENDER},  {"render", GT_FDI_RENDER},
    {"rcs", GT_FDI_RENDER},  {"compute", GT_FDI_COMPUTE},
    {"ccs", GT_FDI_COMPUTE}, {"dma", GT_FDI_COPY},
    {"sdma", GT_FDI_COPY},   {"copy", GT_FDI_COPY},
    {"bcs", GT_FDI_COPY},    {"video", GT_FDI_CODEC},
    {"vcs", GT_FDI_CODEC},   {"dec", GT_FDI_DEC},
    {"jpeg", GT_FDI_DEC},    {"enc", GT_FDI_ENC},
    {"enc_1", GT_FDI_ENC},   {"video-enhance", GT_FDI_VPP},
    {"vecs", GT_FDI_VPP},    {"vpe", GT_FDI_VPP},
};

static bool class_exact(struct span v, enum gt_fdinfo_class *cls)
{
	for (size_t i = 0; i < sizeof(engine_names) / sizeof(engine_names[0]);
	     i++) {
		if (span_eq(v, engine_names[i].name)) {
			*cls = engine_names[i].cls;
			return true;
		}
	}
	return false;
}

enum gt_fdinfo_class gt_fdinfo_engine_class(const char *name)
{
	struct span v = {name, strlen(name)};
	enum gt_fdinfo_class cls;

	if (class_exact(v, &cls))
		return cls;
	/* A ring index: strip one trailing digit at a time, so "enc_10"
	 * (ring 0 of enc_1) finds "enc_1" before "enc_". */
	while (v.n > 1 && is_digit(v.s[v.n - 1])) {
		v.n--;
		if (class_exact(v, &cls))
			return cls;
	}
	return GT_FDI_OTHER;
}

/* ---- sample building ----------------------------------------------------- */

/* The engine called name (found or added); NULL when the name is empty or
 * too long, or the table is full. */
static struct gt_fdinfo_engine *engine_get(struct gt_fdinfo_sample *s,
                                           struct span name)
{
	if (name.n == 0 || name.n >= GT_FDINFO_ENGINE_NAME)
		return NULL;
	for (uint32_t i = 0; i < s->n_engines; i++) {
		struct gt_fdinfo_engine *e = &s->engines[i];
		if (strlen(e->name) == name.n &&
		    memcmp(e->name, name.s, name.n) == 0)
			return e;
	}
	if (s->n_engines >= GT_FDINFO_MAX_ENGINES)
		return NULL;
	struct gt_fdinfo_engine *e = &s->engines[s->n_engines++];
	memset(e, 0, sizeof(*e));
	memcpy(e->name, name.s, name.n);
	e->name[name.n] = '\0';
	e->cls = (uint8_t)gt_fdinfo_engine_class(e->name);
	e->capacity = 1;
	return e;
}

/* The regions kept (named as gt_why_fdinfo_region_name spells them, so
 * that a reason names a key as the driver wrote it): "vram", "local" and
 * "system" with or without an index ("vram0"); "memory" is the standard's
 * name for ordinary system memory (SoC GPUs, NPUs), amdgpu's "cpu" system
 * memory it may map. */
static const struct {
	enum gt_why_fdinfo_region region;
	enum gt_fdinfo_mem mem;
	bool indexed;
} regions[] = {
    {GT_WHY_FDI_VRAM, GT_FDI_VRAM, true},
    {GT_WHY_FDI_LOCAL, GT_FDI_VRAM, true},
    {GT_WHY_FDI_SYSTEM, GT_FDI_GTT, true},
    {GT_WHY_FDI_GTT, GT_FDI_GTT, false},
    {GT_WHY_FDI_CPU, GT_FDI_GTT, false},
    {GT_WHY_FDI_MEMORY_REGION, GT_FDI_GTT, false},
};

/* Which model memory a region name is, and the region's place in the
 * table with its index (-1 without one, or past what a code holds); false
 * for the rest (stolen, gds, gws, oa, doorbell, mmioremap, ...), which are
 * ignored. */
static bool region_mem(struct span r, enum gt_fdinfo_mem *mem, size_t *at,
                       int64_t *index)
{
	for (size_t i = 0; i < sizeof(regions) / sizeof(regions[0]); i++) {
		struct span rest = r;
		uint64_t x;
		if (!span_eat(&rest,
		              gt_why_fdinfo_region_name(regions[i].region)))
			continue;
		if (rest.n && (!regions[i].indexed || !span_all_digits(rest)))
			continue;
		*mem = regions[i].mem;
		*at = i;
		*index = -1;
		if (rest.n && parse_uint(rest, &x) && x <= GT_WHY_FDI_INDEX_MAX)
			*index = (int64_t)x;
		return true;
	}
	return false;
}

/* The code that names the key kind-region of a line that could not be
 * read; legacy lines ("vram mem") are the MEMORY kind without "drm-". */
static int32_t bad_key(enum gt_fdinfo_mem_kind kind, bool legacy, size_t at,
                       int64_t index)
{
	static const enum gt_why_fdinfo_family family[GT_FDI__KIND_COUNT] = {
	    [GT_FDI_RESIDENT] = GT_WHY_FDI_RESIDENT,
	    [GT_FDI_MEMORY] = GT_WHY_FDI_MEMORY,
	    [GT_FDI_TOTAL] = GT_WHY_FDI_TOTAL,
	};
	return gt_why_fdinfo_key(legacy ? GT_WHY_FDI_LEGACY : family[kind],
	                         regions[at].region, index);
}

static void mem_add(struct gt_fdinfo_sample *s, struct span region,
                    enum gt_fdinfo_mem_kind kind, bool legacy,
                    struct span value)
{
	enum gt_fdinfo_mem mem;
	uint64_t bytes;
	size_t at;
	int64_t index;
	bool known = region_mem(region, &mem, &at, &index);

	if (!parse_size(value, &bytes)) {
		/* A size the driver gave but that cannot be read: its
		 * memory is not "absent", and the reason names the key. */
		if (!known)
			return;
		s->any_mem = true;
		if (!s->kinds_bad[mem])
			s->bad_key[mem] = bad_key(kind, legacy, at, index);
		s->kinds_bad[mem] |= (uint8_t)(1u << kind);
		return;
	}
	s->any_mem = true;
	if (!known)
		return;
	uint64_t *dst = &s->mem[mem][kind];
	*dst = (*dst > UINT64_MAX - bytes) ? UINT64_MAX : *dst + bytes;
	s->kinds_have[mem] |= (uint8_t)(1u << kind);
}

/* drm-engine-<e>: "<n> ns" (or a bare number); "<p> %" in the short-lived
 * percentage variant of 5.19-era amdgpu patches. */
static void engine_time(struct gt_fdinfo_sample *s, struct span name,
                        struct span value)
{
	struct span v = value;
	uint64_t ns;
	uint32_t pct;

	if (eat_u64(&v, &ns)) {
		v = span_trim(v);
		if (v.n == 0 || span_eq(v, "ns")) {
			struct gt_fdinfo_engine *e = engine_get(s, name);
			if (e) {
				e->ns = ns;
				e->have |= GT_FDI_HAVE_NS;
			}
			return;
		}
	}
	if (parse_pct(value, &pct)) {
		struct gt_fdinfo_engine *e = engine_get(s, name);
		if (e) {
			e->pct = pct;
			e->have |= GT_FDI_HAVE_PCT;
		}
	}
}

/* "gfx0: 70.59%" (amdgpu 5.14-5.18): a known engine base plus ring index. */
static void legacy_ring(struct gt_fdinfo_sample *s, struct span key,
                        struct span value)
{
	struct span base = key;
	enum gt_fdinfo_class cls;
	uint32_t pct;

	if (key.n == 0 || !is_digit(key.s[key.n - 1]))
		return;
	while (base.n && is_digit(base.s[base.n - 1])) {
		base.n--;
		if (class_exact(base, &cls))
			break;
	}
	if (!base.n || !class_exact(base, &cls) || !parse_pct(value, &pct))
		return;
	struct gt_fdinfo_engine *e = engine_get(s, key);
	if (e) {
		e->pct = pct;
		e->have |= GT_FDI_HAVE_PCT;
	}
}

static void set_driver(struct gt_fdinfo_sample *s, struct span v)
{
	size_t n = v.n < sizeof(s->driver) - 1 ? v.n : sizeof(s->driver) - 1;
	memcpy(s->driver, v.s, n);
	s->driver[n] = '\0';
}

static void parse_drm_key(struct gt_fdinfo_sample *s, struct span k,
                          struct span v)
{
	uint64_t x;
	struct gt_fdinfo_engine *e;

	/* Longer prefixes first: drm-engine-capacity- is also drm-engine-,
	 * drm-total-cycles- is also drm-total-. */
	if (span_eq(k, "driver")) {
		if (v.n)
			set_driver(s, v);
	} else if (span_eq(k, "pdev")) {
		s->has_pdev = gt_fdinfo_pdev_parse(v.s, v.n, &s->pdev);
	} else if (span_eq(k, "client-id")) {
		if (parse_uint(v, &x)) {
			s->client_id = x;
			s->has_client_id = true;
		}
	} else if (span_eat(&k, "engine-capacity-")) {
		if (parse_uint(v, &x) && (e = engine_get(s, k)) != NULL) {
			if (x == 0)
				x = 1; /* 0 is not allowed: the default */
			if (x > GT_FDINFO_MAX_CAPACITY)
				x = GT_FDINFO_MAX_CAPACITY;
			e->capacity = (uint32_t)x;
		}
	} else if (span_eat(&k, "engine-")) {
		engine_time(s, k, v);
	} else if (span_eat(&k, "total-cycles-")) {
		if (parse_uint(v, &x) && (e = engine_get(s, k)) != NULL) {
			e->total_cycles = x;
			e->have |= GT_FDI_HAVE_TOTAL;
		}
	} else if (span_eat(&k, "cycles-")) {
		if (parse_uint(v, &x) && (e = engine_get(s, k)) != NULL) {
			e->cycles = x;
			e->have |= GT_FDI_HAVE_CYCLES;
		}
	} else if (span_eat(&k, "resident-")) {
		mem_add(s, k, GT_FDI_RESIDENT, false, v);
	} else if (span_eat(&k, "memory-")) {
		mem_add(s, k, GT_FDI_MEMORY, false, v);
	} else if (span_eat(&k, "total-")) {
		mem_add(s, k, GT_FDI_TOTAL, false, v);
	}
	/* drm-shared-, drm-active-, drm-purgeable-, drm-maxfreq-,
	 * drm-curfreq-, drm-client-name and future keys: not shown. */
}

static void parse_line(struct gt_fdinfo_sample *s, struct span line)
{
	const char *colon = memchr(line.s, ':', line.n);
	if (!colon)
		return;
	/* The first ':' splits; the key may carry blanks before it (amdgpu's
	 * "drm-memory-gtt: \t"), the value any run of them. amdgpu 5.15 keys
	 * hold a space ("vram mem"), so only the ends are trimmed. */
	struct span k =
	    span_trim((struct span){line.s, (size_t)(colon - line.s)});
	struct span v = span_trim(
	    (struct span){colon + 1, line.n - (size_t)(colon - line.s) - 1});

	if (span_eat(&k, "drm-")) {
		parse_drm_key(s, k, v);
	} else if (span_eq(k, "pdev")) {
		s->has_pdev = gt_fdinfo_pdev_parse(v.s, v.n, &s->pdev);
	} else if (span_eq(k, "pasid")) {
		uint64_t x;
		if (parse_uint(v, &x)) {
			s->pasid = x;
			s->has_pasid = true;
		}
	} else if (span_eq(k, "vram mem")) {
		mem_add(s, (struct span){"vram", 4}, GT_FDI_MEMORY, true, v);
	} else if (span_eq(k, "gtt mem")) {
		mem_add(s, (struct span){"gtt", 3}, GT_FDI_MEMORY, true, v);
	} else if (span_eq(k, "cpu mem")) {
		mem_add(s, (struct span){"cpu", 3}, GT_FDI_MEMORY, true, v);
	} else {
		legacy_ring(s, k, v);
	}
}

bool gt_fdinfo_parse(const char *text, size_t len, struct gt_fdinfo_sample *out)
{
	memset(out, 0, sizeof(*out));
	if (!text)
		return false;
	const char *nul = memchr(text, '\0', len);
	if (nul)
		len = (size_t)(nul - text);

	size_t pos = 0;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		parse_line(out, (struct span){text + pos, end - pos});
		pos = end + 1;
	}

	if (out->driver[0])
		return true;
	/* amdgpu before drm-usage-stats: the only driver that printed
	 * "pdev:" and "pasid:" without "drm-driver:". */
	if (out->has_pdev && out->has_pasid) {
		set_driver(out, (struct span){"amdgpu", 6});
		out->legacy = true;
		return true;
	}
	return false;
}

bool gt_fdinfo_sample_mem(const struct gt_fdinfo_sample *s,
                          enum gt_fdinfo_mem mem, uint64_t *bytes)
{
	unsigned usable = s->kinds_have[mem] & ~(unsigned)s->kinds_bad[mem];

	for (int k = 0; k < GT_FDI__KIND_COUNT; k++) {
		if (usable & (1u << k)) {
			*bytes = s->mem[mem][k];
			return true;
		}
	}
	*bytes = 0;
	return false;
}

int32_t gt_fdinfo_sample_bad_key(const struct gt_fdinfo_sample *s,
                                 enum gt_fdinfo_mem mem)
{
	uint64_t bytes;

	if (!s->kinds_bad[mem] || gt_fdinfo_sample_mem(s, mem, &bytes))
		return -1;
	return s->bad_key[mem];
}

/* 1..max hex digits at the front of *v; more than max is an error. */
static bool eat_hex(struct span *v, size_t max, uint64_t *out)
{
	uint64_t x = 0;
	size_t i = 0;

	for (; i < v->n && gt_text_hex_digit(v->s[i]) >= 0; i++) {
		if (i == max)
			return false;
		x = x * 16 + (uint64_t)gt_text_hex_digit(v->s[i]);
	}
	if (i == 0)
		return false;
	v->s += i;
	v->n -= i;
	*out = x;
	return true;
}

bool gt_fdinfo_pdev_parse(const char *s, size_t len, uint64_t *key)
{
	struct span v = span_trim((struct span){s, len});
	uint64_t a, b, dev, fn, domain = 0, bus;

	if (!eat_hex(&v, 8, &a) || !span_eat(&v, ":") || !eat_hex(&v, 8, &b))
		return false;
	if (span_eat(&v, ":")) { /* domain:bus:dev.fn */
		domain = a;
		bus = b;
		if (!eat_hex(&v, 2, &dev))
			return false;
	} else { /* bus:dev.fn, as amdgpu 5.14 printed it */
		bus = a;
		dev = b;
	}
	if (!span_eat(&v, ".") || !eat_hex(&v, 1, &fn) || v.n != 0)
		return false;
	if (bus > 0xff || dev > 0x1f || fn > 7)
		return false;
	*key = domain << 16 | bus << 8 | dev << 3 | fn;
	return true;
}

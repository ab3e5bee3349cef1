/* SPDX-License-Identifier: MIT */
/*
 * profile.c - owns the meaning of [profile NAME] sections (syntax and
 * rules in profile.h): the reader that config.c feeds line by line, and
 * lookup and matching. The values and their units are profile_values.c's.
 * The file itself is read by config.c, so profiles and settings share one
 * line classifier; gt_profile_load, which calls config.c, is
 * profile_load.c's, so that config.c and this file do not need each other.
 */
#include "config/profile.h"
#include "config/profile_priv.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config/config_text.h"
#include "core/text.h"

/* ---- the reader --------------------------------------------------------- */

enum block { B_NONE, B_REAL, B_SCRATCH };

struct gt_profile_reader {
	struct gt_profile_list *list;
	char file[65];
	gt_profile_report_fn report;
	void *ctx;
	bool in_section; /* in a [profile] section, refused or not */
	long cur;        /* the profile being read, -1: none (or refused) */
	int gpu_lines;   /* "gpu =" lines in it, good or bad */
	bool orphans;    /* settings before its first gpu line: reported */
	enum block block;
	int block_lines; /* lines in the block, good or bad */
	/* Where the lines of a block that cannot be kept go (a bad "gpu ="
	 * line, a repeated GPU, one block too many): they are still
	 * checked, so every mistake shows at once, but never stored. */
	struct gt_profile_entry scratch;
	bool oom;
	size_t cap;    /* profiles list->v has room for */
	bool too_many; /* GT_PROFILE_MAX_PROFILES reached: reported once */
};

/* Keeps the first problem by line in (n, first_line, buf). */
static void note(const struct gt_profile_reader *r, int *n, int *first_line,
                 char *buf, int line, const char *why)
{
	if ((*n)++ == 0 || line < *first_line) {
		*first_line = line;
		snprintf(buf, GT_PROFILE_PROBLEM_MAX, "%.64s:%d: %s", r->file,
		         line, why);
	}
}

/* Reports a problem on line and marks the list and profile cur with it. */
__attribute__((format(printf, 3, 4))) static void
problem(struct gt_profile_reader *r, int line, const char *fmt, ...)
{
	char why[300];
	va_list ap;
	struct gt_profile *p;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (r->report)
		r->report(r->ctx, line, why);
	note(r, &r->list->nproblems, &r->list->problem_line, r->list->problem,
	     line, why);
	if (r->cur >= 0) {
		p = &r->list->v[r->cur];
		note(r, &p->nproblems, &p->problem_line, p->problem, line, why);
	}
}

static struct gt_profile_entry *block_entry(struct gt_profile_reader *r)
{
	struct gt_profile *p;
	if (r->block == B_SCRATCH)
		return &r->scratch;
	p = &r->list->v[r->cur];
	return &p->entry[p->nentries - 1];
}

static void init_entry(struct gt_profile_entry *e, const char *gpu, int line)
{
	struct gt_fanloop_config lc;
	memset(e, 0, sizeof(*e));
	snprintf(e->gpu, sizeof(e->gpu), "%s", gpu);
	e->line = line;
	e->fan_preset = -1;
	/* The loop's own defaults, so a curve without margins behaves as
	 * the fan dialog's does. */
	gt_fanloop_config_default(&lc);
	e->hysteresis_mc = lc.hysteresis_mc;
	e->down_delay_ns = lc.down_delay_ns;
}

/* Checks that need the whole block: they hold whatever order the lines
 * came in. */
static void end_block(struct gt_profile_reader *r)
{
	struct gt_profile_entry *e;
	const int *kl;
	bool curve;

	if (r->block == B_NONE)
		return;
	e = block_entry(r);
	kl = e->key_line;
	/* A block whose lines were all wrong was told so line by line. */
	if (r->block_lines == 0 && r->block == B_REAL)
		problem(r, e->line,
		        "gpu %s has no settings under it; add some (such as "
		        "power_limit = 250W or fan = balanced) or remove the "
		        "line",
		        e->gpu);
	curve = kl[GT_PK_FAN] && e->fan == GT_PROFILE_FAN_CURVE;
	for (int k = GT_PK_FAN_HYSTERESIS; k <= GT_PK_FAN_DOWN_DELAY; k++)
		if (kl[k] && !curve)
			problem(
			    r, kl[k],
			    kl[GT_PK_FAN]
			        ? "%s does nothing with fan = auto (line "
			          "%d); remove it"
			        : "%s needs a fan curve in the same block; "
			          "add fan = quiet, balanced, aggressive or "
			          "points such as 40:30, 80:100 (line %d is "
			          "the block's gpu line)",
			    gt_profile_key_name((enum gt_profile_key)k),
			    kl[GT_PK_FAN] ? kl[GT_PK_FAN] : e->line);
	if (kl[GT_PK_FANS] && !kl[GT_PK_FAN])
		problem(r, kl[GT_PK_FANS],
		        "fans says which fans the fan setting drives, and this "
		        "block has no fan line; add one (fan = auto, a preset "
		        "or points) or remove fans");
	/* The kernel takes a power profile only at level manual, and the
	 * setter writes manual first: another level would undo it, or be
	 * undone, depending on the order of the writes. */
	if (kl[GT_PK_POWER_PROFILE] && kl[GT_PK_PERF_LEVEL] &&
	    strcmp(e->perf_level, "manual") != 0)
		problem(r,
		        kl[GT_PK_POWER_PROFILE] > kl[GT_PK_PERF_LEVEL]
		            ? kl[GT_PK_POWER_PROFILE]
		            : kl[GT_PK_PERF_LEVEL],
		        "power_profile needs perf_level manual (the kernel "
		        "takes a profile only then), not %s (line %d); set it "
		        "to manual or remove it",
		        e->perf_level, kl[GT_PK_PERF_LEVEL]);
	if (kl[GT_PK_FREQ_MIN] && kl[GT_PK_FREQ_MAX] &&
	    e->freq_min_mhz > e->freq_max_mhz)
		problem(r,
		        kl[GT_PK_FREQ_MIN] > kl[GT_PK_FREQ_MAX]
		            ? kl[GT_PK_FREQ_MIN]
		            : kl[GT_PK_FREQ_MAX],
		        "freq_min %u MHz is above freq_max %u MHz; swap them",
		        (unsigned)e->freq_min_mhz, (unsigned)e->freq_max_mhz);
	r->block = B_NONE;
}

static void end_profile(struct gt_profile_reader *r)
{
	struct gt_profile *p;
	end_block(r);
	/* Settings without a gpu line were already told how to fix it. */
	if (r->cur >= 0 && r->gpu_lines == 0 && !r->orphans) {
		p = &r->list->v[r->cur];
		problem(r, p->line,
		        "[profile %s] has no gpu lines; add gpu = * (every "
		        "GPU) or gpu = a PCI id such as 0000:01:00.0, each "
		        "followed by its settings",
		        p->name);
	}
	r->cur = -1;
	r->in_section = false;
	r->gpu_lines = 0;
	r->orphans = false;
}

struct gt_profile_reader *gt_profile_reader_new(const char *file,
                                                const char *path,
                                                gt_profile_report_fn report,
                                                void *ctx)
{
	struct gt_profile_reader *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	if (!(r->list = calloc(1, sizeof(*r->list))) ||
	    (path && !(r->list->path = strdup(path)))) {
		if (r->list)
			free(r->list);
		free(r);
		return NULL;
	}
	r->list->exists = true;
	snprintf(r->file, sizeof(r->file), "%s", file ? file : "gputop.conf");
	r->report = report;
	r->ctx = ctx;
	r->cur = -1;
	return r;
}

/* Whether name is "profile" alone or followed by blanks; *rest: after. */
static bool profile_section(const char *name, const char **rest)
{
	if (strncasecmp(name, "profile", 7) != 0 ||
	    (name[7] && name[7] != ' ' && name[7] != '\t'))
		return false;
	*rest = name + 7 + strspn(name + 7, " \t");
	return true;
}

static bool name_ok(struct gt_profile_reader *r, const char *n, int line)
{
	char sv[64];
	size_t len = strlen(n);
	static const char ok[] = "abcdefghijklmnopqrstuvwxyz"
	                         "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";
	gt_config_shown(n, sv, sizeof(sv));
	if (len == 0)
		problem(r, line,
		        "a profile section needs a name: [profile NAME], such "
		        "as [profile quiet-night]");
	else if (strspn(n, ok) != len)
		problem(r, line,
		        "profile name '%s' may hold only letters, digits, '.', "
		        "'_' and '-'; rename it, such as [profile quiet-night]",
		        sv);
	else if (len >= GT_PROFILE_NAME_MAX)
		problem(r, line,
		        "profile name '%s' is over %d characters; shorten it",
		        sv, GT_PROFILE_NAME_MAX - 1);
	else if (n[0] == '-')
		problem(r, line,
		        "profile name '%s' starts with '-', so --apply would "
		        "read it as an option; rename it",
		        sv);
	else
		return true;
	return false;
}

bool gt_profile_reader_section(struct gt_profile_reader *r, const char *name,
                               int line)
{
	const char *n;
	struct gt_profile *v, *p;
	long dup = -1;

	if (!r)
		return false;
	end_profile(r);
	if (!profile_section(name, &n))
		return false;
	r->in_section = true;
	if (r->oom || !name_ok(r, n, line))
		return true; /* its lines are skipped: they have no home */
	if (r->list->n >= GT_PROFILE_MAX_PROFILES) {
		if (!r->too_many)
			problem(r, line,
			        "more than %d profiles: [profile %s] and "
			        "the sections after it are ignored; keep "
			        "fewer profiles in the file",
			        GT_PROFILE_MAX_PROFILES, n);
		r->too_many = true;
		return true;
	}
	for (size_t i = 0; i < r->list->n && dup < 0; i++)
		if (strcasecmp(r->list->v[i].name, n) == 0)
			dup = (long)i;
	if (r->list->n == r->cap) {
		/* Doubling: one realloc per profile made loading quadratic. */
		size_t cap = r->cap ? r->cap * 2 : 8;
		v = realloc(r->list->v, cap * sizeof(*v));
		if (!v) {
			r->oom = true;
			problem(r, line,
			        "out of memory while reading profiles");
			return true;
		}
		r->list->v = v;
		r->cap = cap;
	}
	v = r->list->v;
	p = &v[r->list->n];
	memset(p, 0, sizeof(*p));
	memcpy(p->name, n, strlen(n) + 1);
	p->line = line;
	r->cur = (long)r->list->n++;
	if (dup >= 0) {
		/* Both are marked: applying either would be a guess. */
		struct gt_profile *first = &r->list->v[dup];
		char why[300];
		snprintf(why, sizeof(why),
		         "a second [profile %s] (the first is at line %d); "
		         "rename or merge them",
		         n, first->line);
		problem(r, line, "%s", why);
		note(r, &first->nproblems, &first->problem_line, first->problem,
		     line, why);
	}
	return true;
}

static void gpu_line(struct gt_profile_reader *r, int line, const char *v)
{
	struct gt_profile *p = &r->list->v[r->cur];
	char id[GT_PROFILE_GPU_MAX], sv[64];

	end_block(r);
	r->gpu_lines++;
	r->block_lines = 0;
	r->block = B_SCRATCH;
	init_entry(&r->scratch, "?", line);
	if (strcmp(v, "*") == 0) {
		snprintf(id, sizeof(id), "*");
	} else if (gt_config_pci_normalize(v, id, sizeof(id))) {
		problem(r, line,
		        "gpu '%s' is not a PCI id such as 0000:01:00.0 (see "
		        "gputop --list) or * for every GPU",
		        gt_config_shown(v, sv, sizeof(sv)));
		return;
	}
	for (size_t i = 0; i < p->nentries; i++)
		if (strcmp(p->entry[i].gpu, id) == 0) {
			problem(r, line,
			        "gpu %s already has a block at line %d of this "
			        "profile; put these settings there",
			        id, p->entry[i].line);
			return;
		}
	if (p->nentries == GT_PROFILE_MAX_BLOCKS) {
		problem(r, line, "a profile holds at most %d gpu blocks",
		        GT_PROFILE_MAX_BLOCKS);
		return;
	}
	init_entry(&p->entry[p->nentries++], id, line);
	r->block = B_REAL;
}

void gt_profile_reader_line(struct gt_profile_reader *r, int line,
                            const char *key, const char *value, const char *why)
{
	char sv[64], w[300];
	struct gt_profile_entry *e;
	int k;

	if (!r || !r->in_section || r->cur < 0)
		return; /* outside a profile, or under a refused header */
	if (r->block != B_NONE && !(key && !why && !strcasecmp(key, "gpu")))
		r->block_lines++;
	if (why) {
		if (key && *key) /* "= 5" has an empty key */
			problem(r, line, "%s: %s",
			        gt_config_shown(key, sv, sizeof(sv)), why);
		else
			problem(r, line, "%s", why);
		return;
	}
	if (!key) /* the reader's contract: a setting has a key */
		return;
	if (strcasecmp(key, "gpu") == 0) {
		gpu_line(r, line, value);
		return;
	}
	if ((k = gt_profile_find_key(key)) < 0) {
		problem(r, line, "unknown key '%s' in a profile (" ALL_KEYS ")",
		        gt_config_shown(key, sv, sizeof(sv)));
		return;
	}
	if (r->block == B_NONE) {
		r->orphans = true;
		problem(r, line,
		        "%s comes before any gpu line; start the block with "
		        "gpu = * (every GPU) or gpu = a PCI id such as "
		        "0000:01:00.0",
		        gt_profile_key_name((enum gt_profile_key)k));
		return;
	}
	e = block_entry(r);
	if (e->key_line[k]) {
		problem(r, line,
		        "%s is already set for this gpu at line %d; keep one "
		        "of them",
		        gt_profile_key_name((enum gt_profile_key)k),
		        e->key_line[k]);
		return;
	}
	if (gt_profile_parse_setting(e, (enum gt_profile_key)k, value, w,
	                             sizeof(w))) {
		problem(r, line, "%s", w);
		return;
	}
	e->key_line[k] = line;
}

struct gt_profile_list *gt_profile_reader_finish(struct gt_profile_reader *r)
{
	struct gt_profile_list *l;
	if (!r)
		return NULL;
	end_profile(r);
	l = r->list;
	if (r->oom) {
		gt_profile_list_free(l);
		l = NULL;
	}
	free(r);
	return l;
}

/* ---- the list ------------------------------------------------------------ */

void gt_profile_list_free(struct gt_profile_list *l)
{
	if (!l)
		return;
	free(l->v);
	free(l->path);
	free(l);
}

const struct gt_profile *gt_profile_find(const struct gt_profile_list *l,
                                         const char *name)
{
	for (size_t i = 0; l && name && i < l->n; i++)
		if (strcasecmp(l->v[i].name, name) == 0)
			return &l->v[i];
	return NULL;
}

const struct gt_profile_entry *gt_profile_match(const struct gt_profile *p,
                                                const char *pci_bus_id)
{
	const struct gt_profile_entry *star = NULL;
	char id[GT_PROFILE_GPU_MAX];
	if (!p || gt_config_pci_normalize(pci_bus_id, id, sizeof(id)))
		return NULL;
	for (size_t i = 0; i < p->nentries; i++) {
		if (strcmp(p->entry[i].gpu, id) == 0)
			return &p->entry[i];
		if (strcmp(p->entry[i].gpu, "*") == 0)
			star = &p->entry[i];
	}
	return star;
}

size_t gt_profile_names(const struct gt_profile_list *l, char *buf, size_t len)
{
	size_t need = 0;
	if (len)
		buf[0] = '\0';
	for (size_t i = 0; l && i < l->n; i++) {
		/* Past the end: only counted (no pointer beyond buf). */
		int w = snprintf(need < len ? buf + need : NULL,
		                 need < len ? len - need : 0, "%s%s",
		                 i ? ", " : "", l->v[i].name);
		need += w > 0 ? (size_t)w : 0;
	}
	return need;
}

void gt_profile_not_found(const struct gt_profile_list *l, const char *name,
                          char *buf, size_t len)
{
	char sv[64], names[512];
	const char *file = l && l->path ? l->path : "the config file";
	gt_config_shown(name ? name : "", sv, sizeof(sv));
	if (!len)
		return;
	if (l && !l->exists)
		snprintf(buf, len, "no profile '%s': %s does not exist", sv,
		         file);
	else if (!l || l->n == 0)
		snprintf(buf, len,
		         "no profile '%s': %s has no [profile NAME] sections",
		         sv, file);
	else if (gt_profile_names(l, names, sizeof(names)) < sizeof(names))
		snprintf(buf, len, "no profile '%s'; profiles in %s: %s", sv,
		         file, names);
	else
		snprintf(buf, len, "no profile '%s'; profiles in %s: %s...", sv,
		         file, names);
}

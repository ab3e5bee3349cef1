/* SPDX-License-Identifier: MIT */
/*
 * fake_scenario.c - reads scenario files (format in tests/fake-nvml/
 * README.md) into a struct fake_scenario: lines, comments, includes,
 * global and device keys, whole-file checks; and frees a scenario. The
 * value grammar is in fake_scenario_values.c. Every problem is reported as
 * "file:line: problem" on stderr and makes the load fail; nothing in a
 * scenario can crash the library.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_parse.h"

static const struct {
	const char *name;
	enum fake_key key;
	enum fake_symtab sym;
} keys[] = {
#define FAKE_KEY_ROW(id, name, sym) {name, id, sym},
    FAKE_KEYS(FAKE_KEY_ROW)
#undef FAKE_KEY_ROW
};

#define MAX_ARGS          16
#define MAX_INCLUDE_DEPTH 8

static int parse_file(struct parser *p);
static int parse_global(struct parser *p, char **argv, int argc,
                        const char *rest)
{
	struct fake_scenario *sc = p->sc;
	struct fake_expr e;
	struct fake_text t;
	unsigned int pid;
	void *arr;

	if (strcmp(argv[0], "driver_version") == 0)
		return scn_text(p, rest, &sc->driver_version);
	if (strcmp(argv[0], "nvml_version") == 0)
		return scn_text(p, rest, &sc->nvml_version);
	if (strcmp(argv[0], "cuda_version") == 0)
		return scn_expr(p, argv + 1, argc - 1, SYM_NONE,
		                &sc->cuda_version);
	if (strcmp(argv[0], "cuda_version_v2") == 0)
		return scn_expr(p, argv + 1, argc - 1, SYM_NONE,
		                &sc->cuda_version_v2);
	if (strcmp(argv[0], "privileged") == 0) {
		if (scn_expr(p, argv + 1, argc - 1, SYM_BOOL, &e) != 0)
			return -1;
		if (e.kind != EXPR_CONST)
			return scn_err(p, "privileged takes yes or no");
		sc->privileged = e.a != 0;
		return 0;
	}
	if (strcmp(argv[0], "init_error") == 0) {
		if (argc != 2 || fake_rc_lookup(argv[1], &sc->init_error) != 0)
			return scn_err(p,
			               "init_error takes one NVML error code");
		return 0;
	}
	if (strcmp(argv[0], "putil_period_ms") == 0 ||
	    strcmp(argv[0], "sample_period_ms") == 0) {
		unsigned int *dst = argv[0][0] == 'p' ? &sc->putil_period_ms
		                                      : &sc->sample_period_ms;
		if (argc != 2 || scn_u32(argv[1], dst) != 0 || *dst == 0 ||
		    *dst > 3600000)
			return scn_err(p, "%s takes milliseconds (1..3600000)",
			               argv[0]);
		return 0;
	}
	if (strcmp(argv[0], "process_name") == 0) {
		const char *name = rest;

		if (argc < 3 || scn_u32(argv[1], &pid) != 0)
			return scn_err(p,
			               "process_name takes a pid and a name");
		name += strlen(argv[1]);
		name += strspn(name, " \t");
		if (scn_text(p, name, &t) != 0)
			return -1;
		arr = scn_grow(sc->pnames, sc->npnames, sizeof(*sc->pnames));
		if (arr == NULL)
			return scn_err(p, "out of memory");
		sc->pnames = arr;
		sc->pnames[sc->npnames].pid = pid;
		memcpy(sc->pnames[sc->npnames].name, t.s, sizeof(t.s));
		sc->npnames++;
		return 0;
	}
	if (scn_is_inject_key(argv[0]))
		return scn_inject(p, argv, argc, &sc->inj);
	return 1; /* not a global key */
}

/* gi=N / ci=N style arguments */
static int new_device(struct parser *p, char **argv, int argc)
{
	struct fake_scenario *sc = p->sc;
	unsigned int idx, like = 0;
	struct fake_dev *devs, *d;

	if ((argc != 2 && argc != 4) || scn_u32(argv[1], &idx) != 0 ||
	    (argc == 4 &&
	     (strcmp(argv[2], "like") != 0 || scn_u32(argv[3], &like) != 0)))
		return scn_err(p, "expected 'device N' or 'device N like M'");
	if (idx < sc->ndev && argc == 2) {
		p->cur = (int)idx; /* amend a device described earlier */
		return 0;
	}
	if (idx != sc->ndev)
		return scn_err(p,
		               "devices must be numbered in order: expected "
		               "device %u (or an existing one to amend it)",
		               sc->ndev);
	if (idx >= FAKE_MAX_GPUS)
		return scn_err(p, "more than %d devices", FAKE_MAX_GPUS);
	if (argc == 4 && like >= idx)
		return scn_err(p, "'like %u' must name an earlier device",
		               like);
	devs = realloc(sc->devs, (sc->ndev + 1) * sizeof(*devs));
	if (devs == NULL)
		return scn_err(p, "out of memory");
	sc->devs = devs;
	d = &devs[idx];
	if (argc == 4) {
		/* A copy of the facts and injections, not of the owned
		 * process lists, MIG devices or state. */
		*d = devs[like];
		memset(d->procs, 0, sizeof(d->procs));
		memset(d->nprocs, 0, sizeof(d->nprocs));
		d->putil = NULL;
		d->nputil = 0;
		d->nmig = 0;
	} else {
		memset(d, 0, sizeof(*d));
		d->lost_after = -1;
		d->back_after = -1;
	}
	memset(d->fan_policy, 0, sizeof(d->fan_policy));
	memset(d->fan_manual, 0, sizeof(d->fan_manual));
	sc->ndev++;
	p->cur = (int)idx;
	return 0;
}

static int parse_device_key(struct parser *p, char **argv, int argc,
                            const char *rest)
{
	struct fake_dev *d = &p->sc->devs[p->cur];
	struct fake_text *text = NULL;
	double v;

	if (strcmp(argv[0], "name") == 0)
		text = &d->name;
	else if (strcmp(argv[0], "uuid") == 0)
		text = &d->uuid;
	else if (strcmp(argv[0], "serial") == 0)
		text = &d->serial;
	else if (strcmp(argv[0], "vbios") == 0)
		text = &d->vbios;
	else if (strcmp(argv[0], "part_number") == 0)
		text = &d->part_number;
	if (text != NULL)
		return scn_text(p, rest, text);

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(keys[i].name, argv[0]) == 0)
			return scn_expr(p, argv + 1, argc - 1, keys[i].sym,
			                &d->e[keys[i].key]);

	if (scn_is_inject_key(argv[0]))
		return scn_inject(p, argv, argc, &d->inj);
	if (strcmp(argv[0], "lost_after") == 0) {
		if (argc != 2 || scn_num(argv[1], &v) != 0 || v < 0)
			return scn_err(p, "lost_after takes seconds >= 0");
		d->lost_after = v;
		return 0;
	}
	if (strcmp(argv[0], "lost_every") == 0) {
		if (argc != 2 || scn_num(argv[1], &v) != 0 || v <= 0)
			return scn_err(p, "lost_every takes seconds > 0");
		d->lost_every = v;
		return 0;
	}
	if (strcmp(argv[0], "back_after") == 0) {
		if (argc != 2 || scn_num(argv[1], &v) != 0 || v < 0)
			return scn_err(p, "back_after takes seconds >= 0");
		d->back_after = v;
		return 0;
	}
	if (strcmp(argv[0], "process") == 0)
		return scn_process(p, d, argv, argc);
	if (strcmp(argv[0], "putil") == 0)
		return scn_putil(p, d, argv, argc);
	if (strcmp(argv[0], "mig_device") == 0)
		return scn_mig(p, d, argv, argc);
	if (strcmp(argv[0], "field") == 0)
		return scn_field(p, d, argv, argc);
	return 1;
}

/* Strips the comment and surrounding blanks in place; '#' starts a comment
 * at the start of a line or after a blank. */
static char *clean_line(char *s)
{
	char *end;

	for (char *c = s; *c != '\0'; c++) {
		if (*c == '#' &&
		    (c == s || *(c - 1) == ' ' || *(c - 1) == '\t')) {
			*c = '\0';
			break;
		}
	}
	s += strspn(s, " \t\r\n");
	end = s + strlen(s);
	while (end > s && strchr(" \t\r\n", *(end - 1)) != NULL)
		*--end = '\0';
	return s;
}

/* Paths are relative to the including file's directory. */
static int parse_include(struct parser *p, char **argv, int argc)
{
	struct parser sub = *p;
	const char *slash = strrchr(p->path, '/');
	char *path;
	int r;

	if (argc != 2)
		return scn_err(p, "include takes one path");
	if (p->depth >= MAX_INCLUDE_DEPTH)
		return scn_err(p, "includes nested deeper than %d (a cycle?)",
		               MAX_INCLUDE_DEPTH);
	if (argv[1][0] == '/' || slash == NULL)
		r = asprintf(&path, "%s", argv[1]);
	else
		r = asprintf(&path, "%.*s/%s", (int)(slash - p->path), p->path,
		             argv[1]);
	if (r < 0)
		return scn_err(p, "out of memory");
	sub.path = path;
	sub.line = 0;
	sub.depth = p->depth + 1;
	/* The includer stays in its own section: a device block opened in
	 * the included file does not capture the lines after the include. */
	r = parse_file(&sub);
	if (r != 0)
		scn_err(p, "in the file included here");
	free(path);
	return r;
}

static int parse_line(struct parser *p, char *line)
{
	char *s = clean_line(line), *rest, *copy, *argv[MAX_ARGS], *tok, *save;
	int argc = 0, r;

	if (*s == '\0')
		return 0;
	rest = s + strcspn(s, " \t");
	rest += strspn(rest, " \t");
	copy = strdup(s);
	if (copy == NULL)
		return scn_err(p, "out of memory");
	for (tok = strtok_r(copy, " \t", &save); tok != NULL;
	     tok = strtok_r(NULL, " \t", &save)) {
		if (argc == MAX_ARGS) {
			free(copy);
			return scn_err(p, "more than %d words", MAX_ARGS);
		}
		argv[argc++] = tok;
	}
	if (argc == 0) { /* unreachable: s has a non-blank character */
		free(copy);
		return 0;
	}
	if (strcmp(argv[0], "device") == 0) {
		r = new_device(p, argv, argc);
	} else if (strcmp(argv[0], "global") == 0) {
		r = argc == 1 ? 0 : scn_err(p, "'global' takes no argument");
		p->cur = -1;
	} else if (strcmp(argv[0], "include") == 0) {
		r = parse_include(p, argv, argc);
	} else {
		/* Device keys first: error/latency/unsupported inside a
		 * device block belong to that device. */
		r = p->cur >= 0 ? parse_device_key(p, argv, argc, rest) : 1;
		if (r == 1)
			r = parse_global(p, argv, argc, rest);
		if (r == 1)
			r = scn_err(p,
			            p->cur >= 0
			                ? "unknown key '%s'"
			                : "unknown key '%s' (device keys "
			                  "go after 'device N')",
			            argv[0]);
	}
	free(copy);
	return r;
}

static int same_text(const struct fake_text *a, const char *b)
{
	return a->set && a->rc == NVML_SUCCESS && strcmp(a->s, b) == 0;
}

/* Checks that need the whole file: unique UUIDs, sane fan counts. */
static int validate(struct parser *p)
{
	struct fake_scenario *sc = p->sc;

	for (unsigned int i = 0; i < sc->ndev; i++) {
		struct fake_dev *d = &sc->devs[i];
		const struct fake_expr *fans = &d->e[K_FANS];

		if (fans->kind != EXPR_UNSET && fans->kind != EXPR_ERROR &&
		    (fans->kind != EXPR_CONST || fans->a < 0 ||
		     fans->a > FAKE_MAX_FANS))
			return scn_err(p,
			               "device %u: fans must be a constant "
			               "0..%d or an error code",
			               i, FAKE_MAX_FANS);
		if (d->back_after >= 0 &&
		    (d->lost_after < 0 || d->back_after <= d->lost_after))
			return scn_err(p,
			               "device %u: back_after must be later "
			               "than lost_after",
			               i);
		if (d->lost_every > 0 &&
		    (d->back_after < 0 ||
		     d->lost_every <= d->back_after - d->lost_after))
			return scn_err(p,
			               "device %u: lost_every needs back_after "
			               "and must be longer than the loss",
			               i);
		for (unsigned int j = 0; j < i; j++) {
			if (d->uuid.set && d->uuid.rc == NVML_SUCCESS &&
			    same_text(&sc->devs[j].uuid, d->uuid.s))
				return scn_err(p,
				               "device %u has the uuid of "
				               "device %u",
				               i, j);
		}
		for (unsigned int m = 0; m < d->nmig; m++)
			if (same_text(&d->uuid, d->mig[m].uuid))
				return scn_err(p,
				               "device %u: MIG uuid equals "
				               "the GPU's",
				               i);
	}
	return 0;
}

void fake_scenario_free(struct fake_scenario *sc)
{
	if (sc == NULL)
		return;
	for (unsigned int i = 0; i < sc->ndev; i++) {
		for (int k = 0; k < PROC_KINDS; k++)
			free(sc->devs[i].procs[k]);
		free(sc->devs[i].putil);
	}
	free(sc->devs);
	free(sc->pnames);
	free(sc);
}

/* Scenarios are text: control characters (NUL included) are mistakes,
 * and echoing them in messages would garble the terminal. */
static int check_text(struct parser *p, const char *line, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)line[i];

		if ((ch < 0x20 && ch != '\t' && ch != '\r' && ch != '\n') ||
		    ch == 0x7f)
			return scn_err(p,
			               "control character 0x%02x in column "
			               "%zu",
			               ch, i + 1);
	}
	return 0;
}

/* 0, or -1 after reporting; a file that cannot be opened is reported
 * at the include line (or by fake_scenario_load for the top file). */
static int parse_file(struct parser *p)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f;
	int bad = 0;

	f = fopen(p->path, "re");
	if (f == NULL) {
		fprintf(stderr, "fake-nvml: cannot read scenario %s: %s\n",
		        p->path, strerror(errno));
		return -1;
	}
	while (!bad && (len = getline(&line, &cap, f)) != -1) {
		p->line++;
		bad = check_text(p, line, (size_t)len) != 0 ||
		      parse_line(p, line) != 0;
	}
	if (!bad && ferror(f))
		bad = scn_err(p, "read error: %s", strerror(errno)) != 0;
	free(line);
	fclose(f);
	return bad ? -1 : 0;
}

struct fake_scenario *fake_scenario_load(const char *path, nvmlReturn_t *rc)
{
	struct parser p = {.path = path, .cur = -1};
	FILE *f;
	int bad;

	/* Unreadable and malformed scenarios fail init with different
	 * codes, so probe readability first. */
	f = fopen(path, "re");
	if (f == NULL) {
		fprintf(stderr, "fake-nvml: cannot read scenario %s: %s\n",
		        path, strerror(errno));
		*rc = NVML_ERROR_DRIVER_NOT_LOADED;
		return NULL;
	}
	fclose(f);
	p.sc = calloc(1, sizeof(*p.sc));
	if (p.sc == NULL) {
		*rc = NVML_ERROR_MEMORY;
		return NULL;
	}
	p.sc->putil_period_ms = 500;
	p.sc->sample_period_ms = 200;
	bad = parse_file(&p) != 0;
	if (!bad)
		bad = validate(&p) != 0;
	if (bad) {
		fprintf(stderr,
		        "fake-nvml: scenario %s rejected; nvmlInit "
		        "fails with UNKNOWN\n",
		        path);
		fake_scenario_free(p.sc);
		*rc = NVML_ERROR_UNKNOWN;
		return NULL;
	}
	if (p.sc->cuda_version_v2.kind == EXPR_UNSET)
		p.sc->cuda_version_v2 = p.sc->cuda_version;
	return p.sc;
}

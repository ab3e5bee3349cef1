/* SPDX-License-Identifier: MIT */
/*
 * fake_scenario_values.c - the value grammar of scenario files: numbers
 * with size suffixes, named values, metric expressions, texts, injected
 * errors and latencies, and the list lines of a device block (process,
 * putil, mig_device, field). Errors go to stderr as file:line.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fake_parse.h"

struct sym {
	const char *name;
	double value;
};

static const struct sym sym_bool[] = {
    {"enabled", 1}, {"disabled", 0}, {"yes", 1}, {"no", 0},
    {"on", 1},      {"off", 0},      {NULL, 0},
};

static const struct sym sym_brand[] = {
    {"UNKNOWN", 0},      {"QUADRO", 1},       {"TESLA", 2},
    {"NVS", 3},          {"GRID", 4},         {"GEFORCE", 5},
    {"TITAN", 6},        {"NVIDIA_VAPPS", 7}, {"NVIDIA_VPC", 8},
    {"NVIDIA_VCS", 9},   {"NVIDIA_VWS", 10},  {"NVIDIA_CLOUD_GAMING", 11},
    {"QUADRO_RTX", 12},  {"NVIDIA_RTX", 13},  {"NVIDIA", 14},
    {"GEFORCE_RTX", 15}, {"TITAN_RTX", 16},   {NULL, 0},
};

static const struct sym sym_arch[] = {
    {"KEPLER", 2},
    {"MAXWELL", 3},
    {"PASCAL", 4},
    {"VOLTA", 5},
    {"TURING", 6},
    {"AMPERE", 7},
    {"ADA", 8},
    {"HOPPER", 9},
    {"BLACKWELL", 10},
    {"RUBIN", 13},
    {"UNKNOWN", 4294967295.0},
    {NULL, 0},
};

static const struct sym sym_compute_mode[] = {
    {"DEFAULT", 0},    {"EXCLUSIVE_THREAD", 1},
    {"PROHIBITED", 2}, {"EXCLUSIVE_PROCESS", 3},
    {NULL, 0},
};

static const struct sym sym_power_source[] = {
    {"AC", 0},
    {"BATTERY", 1},
    {"UNDERSIZED", 2},
    {NULL, 0},
};

static const struct sym *const symtabs[] = {
    [SYM_NONE] = NULL,
    [SYM_BOOL] = sym_bool,
    [SYM_BRAND] = sym_brand,
    [SYM_ARCH] = sym_arch,
    [SYM_COMPUTE_MODE] = sym_compute_mode,
    [SYM_POWER_SOURCE] = sym_power_source,
};

int scn_err(struct parser *p, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%u: ", p->path, p->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

/* Decimal or 0x hex, optionally followed by KiB, MiB, GiB or TiB. */
int scn_num(const char *s, double *out)
{
	static const struct {
		const char *suffix;
		double mult;
	} suffixes[] = {
	    {"", 1.0},
	    {"KiB", 1024.0},
	    {"MiB", 1048576.0},
	    {"GiB", 1073741824.0},
	    {"TiB", 1099511627776.0},
	};
	char *end = NULL;
	double v;

	errno = 0;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (strchr("0123456789abcdefABCDEF", s[2]) == NULL ||
		    s[2] == '\0')
			return -1;
		v = (double)strtoull(s + 2, &end, 16);
	} else {
		v = strtod(s, &end);
	}
	if (end == s || errno == ERANGE || v - v != 0)
		return -1;
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		if (strcmp(end, suffixes[i].suffix) == 0) {
			*out = v * suffixes[i].mult;
			return 0;
		}
	}
	return -1;
}

int scn_uint(const char *s, double max, unsigned long long *out)
{
	double v;

	if (scn_num(s, &v) != 0 || v < 0 || v > max ||
	    v != (double)(unsigned long long)v)
		return -1;
	*out = (unsigned long long)v;
	return 0;
}

int scn_u32(const char *s, unsigned int *out)
{
	unsigned long long v;

	if (scn_uint(s, 4294967295.0, &v) != 0)
		return -1;
	*out = (unsigned int)v;
	return 0;
}

static const struct sym *find_sym(enum fake_symtab t, const char *name)
{
	const struct sym *tab = symtabs[t];

	for (; tab != NULL && tab->name != NULL; tab++)
		if (strcasecmp(tab->name, name) == 0)
			return tab;
	return NULL;
}

static int want_nums(struct parser *p, char **argv, int argc, int n, double *v)
{
	if (argc != n + 1)
		return scn_err(p, "'%s' takes %d number(s), got %d", argv[0], n,
		               argc - 1);
	for (int i = 0; i < n; i++)
		if (scn_num(argv[i + 1], &v[i]) != 0)
			return scn_err(p, "'%s' is not a number", argv[i + 1]);
	return 0;
}

/* Grammar: CODE | SYMBOL | NUMBER | const N | ramp FROM TO SECONDS |
 * sine MID AMPLITUDE PERIOD | counter START RATE_PER_SECOND */
int scn_expr(struct parser *p, char **argv, int argc, enum fake_symtab symtab,
             struct fake_expr *e)
{
	const struct sym *sym;
	double v[3] = {0, 0, 0};

	memset(e, 0, sizeof(*e));
	if (argc == 0)
		return scn_err(p, "missing value");
	if (strcmp(argv[0], "const") == 0) {
		if (want_nums(p, argv, argc, 1, v) != 0)
			return -1;
		e->kind = EXPR_CONST;
	} else if (strcmp(argv[0], "ramp") == 0) {
		if (want_nums(p, argv, argc, 3, v) != 0)
			return -1;
		e->kind = EXPR_RAMP;
	} else if (strcmp(argv[0], "sine") == 0) {
		if (want_nums(p, argv, argc, 3, v) != 0)
			return -1;
		e->kind = EXPR_SINE;
	} else if (strcmp(argv[0], "counter") == 0) {
		if (want_nums(p, argv, argc, 2, v) != 0)
			return -1;
		e->kind = EXPR_COUNTER;
	} else {
		if (argc != 1)
			return scn_err(
			    p,
			    "one value expected, got %d words "
			    "(did you mean const/ramp/sine/counter?)",
			    argc);
		sym = find_sym(symtab, argv[0]);
		if (sym != NULL) {
			e->kind = EXPR_CONST;
			v[0] = sym->value;
		} else if (fake_rc_lookup(argv[0], &e->rc) == 0) {
			if (e->rc == NVML_SUCCESS)
				return scn_err(p,
				               "SUCCESS is not an error code");
			e->kind = EXPR_ERROR;
		} else if (scn_num(argv[0], &v[0]) == 0) {
			e->kind = EXPR_CONST;
		} else {
			return scn_err(p,
			               "bad value '%s': expected a number, a "
			               "named value, an NVML error code or "
			               "const/ramp/sine/counter",
			               argv[0]);
		}
	}
	if ((e->kind == EXPR_RAMP || e->kind == EXPR_SINE) && !(v[2] > 0))
		return scn_err(p, "'%s' needs a duration/period > 0", argv[0]);
	e->a = v[0];
	e->b = v[1];
	e->c = v[2];
	return 0;
}

int scn_text(struct parser *p, const char *rest, struct fake_text *t)
{
	size_t n = strlen(rest);

	memset(t, 0, sizeof(*t));
	if (n == 0)
		return scn_err(p, "missing text");
	if (n >= sizeof(t->s))
		return scn_err(p, "text longer than %zu bytes",
		               sizeof(t->s) - 1);
	t->set = 1;
	if (fake_rc_lookup(rest, &t->rc) != 0)
		t->rc = NVML_SUCCESS;
	memcpy(t->s, rest, n + 1);
	return 0;
}

/* error FN CODE | latency FN MS | unsupported FN... */
int scn_inject(struct parser *p, char **argv, int argc, struct fake_inject *inj)
{
	nvmlReturn_t rc;
	unsigned int ms;
	int fn;

	if (strcmp(argv[0], "unsupported") == 0) {
		if (argc < 2)
			return scn_err(p, "'unsupported' needs function names");
		for (int i = 1; i < argc; i++) {
			fn = fake_fn_lookup(argv[i]);
			if (fn < 0)
				return scn_err(p, "unknown function '%s'",
				               argv[i]);
			inj->error[fn] = NVML_ERROR_NOT_SUPPORTED;
		}
		return 0;
	}
	bool latency = strcmp(argv[0], "latency") == 0;
	/* latency FN MS after SECONDS: only from then on. */
	if (argc != 3 &&
	    !(latency && argc == 5 && strcmp(argv[3], "after") == 0))
		return scn_err(p, "'%s' takes a function name and a value%s",
		               argv[0], latency ? " [after SECONDS]" : "");
	fn = fake_fn_lookup(argv[1]);
	if (fn < 0)
		return scn_err(p, "unknown function '%s'", argv[1]);
	if (latency) {
		double after = 0;
		if (scn_u32(argv[2], &ms) != 0 || ms > 600000)
			return scn_err(p, "bad latency '%s' (ms, 0..600000)",
			               argv[2]);
		if (argc == 5 && (scn_num(argv[4], &after) != 0 || after < 0))
			return scn_err(p, "bad 'after' '%s' (seconds >= 0)",
			               argv[4]);
		inj->latency_ms[fn] = ms;
		inj->latency_after[fn] = after;
		return 0;
	}
	if (fake_rc_lookup(argv[2], &rc) != 0)
		return scn_err(p, "unknown NVML error code '%s'", argv[2]);
	inj->error[fn] = rc;
	return 0;
}

int scn_is_inject_key(const char *k)
{
	return strcmp(k, "error") == 0 || strcmp(k, "latency") == 0 ||
	       strcmp(k, "unsupported") == 0;
}

void *scn_grow(void *arr, size_t n, size_t size)
{
	/* capacity doubles at powers of two; n is the current count */
	if (n != 0 && (n & (n - 1)) != 0)
		return arr;
	return realloc(arr, (n == 0 ? 4 : n * 2) * size);
}

static int parse_kv_u32(const char *arg, const char *key, unsigned int *out)
{
	size_t n = strlen(key);

	if (strncmp(arg, key, n) != 0 || arg[n] != '=')
		return 1;
	return scn_u32(arg + n + 1, out) == 0 ? 0 : -1;
}

/* from=S: seconds after init, >= 0. 1 when arg is not from=, -1 when bad. */
static int parse_from(const char *arg, double *out)
{
	if (strncmp(arg, "from=", 5) != 0)
		return 1;
	return scn_num(arg + 5, out) == 0 && *out >= 0 ? 0 : -1;
}

int scn_process(struct parser *p, struct fake_dev *d, char **argv, int argc)
{
	static const char *const kinds[PROC_KINDS] = {"compute", "graphics",
	                                              "mps"};
	struct fake_proc pr = {.gi = GT_NVML_INSTANCE_ID_NONE,
	                       .ci = GT_NVML_INSTANCE_ID_NONE};
	unsigned long long used;
	int kind = -1, r;
	void *arr;

	if (argc < 4)
		return scn_err(p, "process takes compute|graphics|mps, a pid, "
		                  "used bytes or N/A, then optional gi=N ci=N "
		                  "from=S");
	for (int i = 0; i < PROC_KINDS; i++)
		if (strcmp(argv[1], kinds[i]) == 0)
			kind = i;
	if (kind < 0)
		return scn_err(p, "unknown process kind '%s'", argv[1]);
	if (scn_u32(argv[2], &pr.pid) != 0)
		return scn_err(p, "bad pid '%s'", argv[2]);
	if (strcmp(argv[3], "N/A") == 0)
		pr.used = GT_NVML_MEMORY_NOT_AVAILABLE;
	else if (scn_uint(argv[3], 1.8e19, &used) == 0)
		pr.used = used;
	else
		return scn_err(p, "bad used memory '%s' (bytes or N/A)",
		               argv[3]);
	for (int i = 4; i < argc; i++) {
		r = parse_kv_u32(argv[i], "gi", &pr.gi);
		if (r == 1)
			r = parse_kv_u32(argv[i], "ci", &pr.ci);
		if (r == 1)
			r = parse_from(argv[i], &pr.from);
		if (r != 0)
			return scn_err(p,
			               "bad process option '%s' (gi=N ci=N "
			               "from=S)",
			               argv[i]);
	}
	arr = scn_grow(d->procs[kind], d->nprocs[kind], sizeof(pr));
	if (arr == NULL)
		return scn_err(p, "out of memory");
	d->procs[kind] = arr;
	d->procs[kind][d->nprocs[kind]++] = pr;
	return 0;
}

int scn_putil(struct parser *p, struct fake_dev *d, char **argv, int argc)
{
	struct fake_putil u = {0};
	unsigned int *vals[] = {&u.pid, &u.sm,  &u.mem, &u.enc,
	                        &u.dec, &u.jpg, &u.ofa};
	void *arr;

	/* Options after the sample's values, in any order. */
	while (argc > 1) {
		if (strcmp(argv[argc - 1], "stale") == 0) {
			u.stale = 1;
			argc--;
			continue;
		}
		int r = parse_from(argv[argc - 1], &u.from);
		if (r < 0)
			return scn_err(p,
			               "bad putil option '%s' (from=S stale)",
			               argv[argc - 1]);
		if (r == 1)
			break;
		argc--;
	}
	if (argc != 6 && argc != 8)
		return scn_err(p, "putil takes pid sm mem enc dec [jpg ofa] "
		                  "[from=S] [stale]");
	for (int i = 1; i < argc; i++)
		if (scn_u32(argv[i], vals[i - 1]) != 0)
			return scn_err(p, "bad number '%s'", argv[i]);
	arr = scn_grow(d->putil, d->nputil, sizeof(u));
	if (arr == NULL)
		return scn_err(p, "out of memory");
	d->putil = arr;
	d->putil[d->nputil++] = u;
	return 0;
}

int scn_mig(struct parser *p, struct fake_dev *d, char **argv, int argc)
{
	struct fake_mig m = {0};
	unsigned long long v;
	int have_gi = 0, have_ci = 0;

	if (d->nmig >= FAKE_MAX_MIG)
		return scn_err(p, "more than %d MIG devices", FAKE_MAX_MIG);
	for (int i = 1; i < argc; i++) {
		char *val = strchr(argv[i], '=');
		size_t klen;

		if (val == NULL)
			return scn_err(p, "mig_device arguments are key=value");
		klen = (size_t)(val - argv[i]);
		val++;
		if (klen == 2 && strncmp(argv[i], "gi", 2) == 0) {
			have_gi = scn_u32(val, &m.gi) == 0;
			if (!have_gi)
				return scn_err(p, "bad gi '%s'", val);
		} else if (klen == 2 && strncmp(argv[i], "ci", 2) == 0) {
			have_ci = scn_u32(val, &m.ci) == 0;
			if (!have_ci)
				return scn_err(p, "bad ci '%s'", val);
		} else if (klen == 4 && strncmp(argv[i], "uuid", 4) == 0) {
			if (strlen(val) >= sizeof(m.uuid))
				return scn_err(p, "uuid too long");
			strcpy(m.uuid, val);
		} else if (klen == 7 && strncmp(argv[i], "profile", 7) == 0) {
			if (strlen(val) >= sizeof(m.profile))
				return scn_err(p, "profile too long");
			strcpy(m.profile, val);
		} else if (klen == 9 && strncmp(argv[i], "placement", 9) == 0) {
			char *plus = strchr(val, '+');
			if (plus == NULL)
				return scn_err(p, "placement is START+SIZE");
			*plus = '\0';
			if (scn_u32(val, &m.placement_start) != 0 ||
			    scn_u32(plus + 1, &m.placement_size) != 0 ||
			    m.placement_size == 0)
				return scn_err(p, "bad placement");
			m.have_placement = 1;
		} else if (scn_uint(val, 1.8e19, &v) != 0) {
			return scn_err(p, "bad value '%s'", val);
		} else if (klen == 12 &&
		           strncmp(argv[i], "memory.total", 12) == 0) {
			m.mem_total = v;
		} else if (klen == 11 &&
		           strncmp(argv[i], "memory.used", 11) == 0) {
			m.mem_used = v;
		} else if (klen == 10 &&
		           strncmp(argv[i], "bar1.total", 10) == 0) {
			m.bar1_total = v;
		} else {
			return scn_err(p, "unknown mig_device key '%.*s'",
			               (int)klen, argv[i]);
		}
	}
	if (!have_gi || !have_ci || m.uuid[0] == '\0' || m.profile[0] == '\0')
		return scn_err(p,
		               "mig_device needs gi=, ci=, uuid= and profile=");
	if (m.mem_used > m.mem_total)
		return scn_err(p,
		               "mig_device memory.used exceeds memory.total");
	d->mig[d->nmig++] = m;
	return 0;
}

int scn_field(struct parser *p, struct fake_dev *d, char **argv, int argc)
{
	struct fake_field_override *f;
	unsigned int id;

	if (argc < 3 || scn_u32(argv[1], &id) != 0)
		return scn_err(p, "field takes an id and a value");
	if (d->nfields >= FAKE_MAX_FIELD_OVERRIDES)
		return scn_err(p, "more than %d field overrides",
		               FAKE_MAX_FIELD_OVERRIDES);
	f = &d->fields[d->nfields];
	f->id = id;
	if (scn_expr(p, argv + 2, argc - 2, SYM_NONE, &f->e) != 0)
		return -1;
	d->nfields++;
	return 0;
}

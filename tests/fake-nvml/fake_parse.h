/* SPDX-License-Identifier: MIT */
/*
 * fake_parse.h - what the two halves of the scenario parser share: the
 * parser position (for file:line messages) and the value grammar that
 * fake_scenario_values.c implements for fake_scenario.c.
 */
#ifndef GPUTOP_FAKE_NVML_PARSE_H
#define GPUTOP_FAKE_NVML_PARSE_H

#include "fake.h"

#pragma GCC visibility push(hidden)

struct parser {
	const char *path;         /* file being read (borrowed) */
	unsigned int line;        /* 1-based line in path */
	struct fake_scenario *sc; /* being built; owned by the caller */
	int cur;   /* device being described; -1 = global section */
	int depth; /* include nesting */
};

/* Every scn_* parser returns 0, or -1 after printing "path:line: why". */
int scn_err(struct parser *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int scn_num(const char *s, double *out);
int scn_uint(const char *s, double max, unsigned long long *out);
int scn_u32(const char *s, unsigned int *out);
int scn_expr(struct parser *p, char **argv, int argc, enum fake_symtab symtab,
             struct fake_expr *e);
int scn_text(struct parser *p, const char *rest, struct fake_text *t);
int scn_is_inject_key(const char *k);
int scn_inject(struct parser *p, char **argv, int argc,
               struct fake_inject *inj);
int scn_process(struct parser *p, struct fake_dev *d, char **argv, int argc);
int scn_putil(struct parser *p, struct fake_dev *d, char **argv, int argc);
int scn_mig(struct parser *p, struct fake_dev *d, char **argv, int argc);
int scn_field(struct parser *p, struct fake_dev *d, char **argv, int argc);
/* realloc of a count-n array when n reaches a power of two; NULL on OOM
 * (arr is then still valid and owned by the caller). */
void *scn_grow(void *arr, size_t n, size_t size);

#pragma GCC visibility pop

#endif /* GPUTOP_FAKE_NVML_PARSE_H */

/* SPDX-License-Identifier: MIT */
/*
 * smi_xml.c - owns reading `nvidia-smi -q -x` output (see smi_xml.h).
 *
 * It knows only what nvidia-smi writes: elements, text, the id attribute
 * of <gpu>, the five predefined entities; no namespaces, no CDATA.
 */
#include "smi_xml.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 32
#define MAX_PATH  256

/* Reads a whole file, NUL-terminated; the caller frees it. */
char *smi_slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, got;

	if (!f) {
		fprintf(stderr, "smicmp: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	do {
		if (cap - len < 65536) {
			char *nb = realloc(buf, cap + 65536 + 1);
			if (!nb) {
				free(buf);
				fclose(f);
				fprintf(stderr, "smicmp: out of memory\n");
				return NULL;
			}
			buf = nb;
			cap += 65536;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
	} while (got > 0);
	fclose(f);
	buf[len] = '\0';
	return buf;
}

/* dddd:bb:dd.f in lower case from either nvidia-smi's eight-digit domain
 * or gputop's four-digit one; empty when s is not a bus id. */
void smi_bus_id_norm(const char *s, char out[32])
{
	unsigned dom, bus, dev, fn;

	out[0] = '\0';
	if (s && sscanf(s, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) == 4)
		snprintf(out, 32, "%04x:%02x:%02x.%x", dom & 0xffff, bus, dev,
		         fn);
}

static char *xml_text(const char *s, size_t n)
{
	static const struct {
		const char *ent;
		char c;
	} ents[] = {{"&amp;", '&'},
	            {"&lt;", '<'},
	            {"&gt;", '>'},
	            {"&quot;", '"'},
	            {"&apos;", '\''}};
	char *out = malloc(n + 1), *o = out;

	if (!out)
		return NULL;
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	for (size_t i = 0; i < n;) {
		size_t k;
		for (k = 0; k < sizeof(ents) / sizeof(ents[0]); k++) {
			size_t el = strlen(ents[k].ent);
			if (n - i >= el && !memcmp(s + i, ents[k].ent, el)) {
				*o++ = ents[k].c;
				i += el;
				break;
			}
		}
		if (k == sizeof(ents) / sizeof(ents[0]))
			*o++ = s[i++];
	}
	*o = '\0';
	return out;
}

static int gpu_add_leaf(struct smi_gpu *g, const char *path, char *text)
{
	if (g->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 128;
		struct leaf *nl = realloc(g->leaves, cap * sizeof(*nl));
		if (!nl)
			return -1;
		g->leaves = nl;
		g->cap = cap;
	}
	g->leaves[g->n].path = strdup(path);
	g->leaves[g->n].text = text;
	if (!g->leaves[g->n].path)
		return -1;
	g->n++;
	return 0;
}

void smi_free(struct smi_log *log)
{
	for (size_t i = 0; i < log->ngpus; i++) {
		for (size_t k = 0; k < log->gpus[i].n; k++) {
			free(log->gpus[i].leaves[k].path);
			free(log->gpus[i].leaves[k].text);
		}
		free(log->gpus[i].leaves);
	}
	log->ngpus = 0;
}

/* The value of attribute name in the start tag [s, end), or "". */
static void tag_attr(const char *s, const char *end, const char *name,
                     char *out, size_t len)
{
	size_t nl = strlen(name);

	out[0] = '\0';
	for (const char *p = s + 1; p + nl + 2 < end; p++) {
		if (isspace((unsigned char)p[-1]) && !strncmp(p, name, nl) &&
		    p[nl] == '=' && (p[nl + 1] == '"' || p[nl + 1] == '\'')) {
			const char *v = p + nl + 2;
			const char *q = memchr(v, p[nl + 1], (size_t)(end - v));
			size_t n = q ? (size_t)(q - v) : 0;
			if (n >= len)
				n = len - 1;
			memcpy(out, v, n);
			out[n] = '\0';
			return;
		}
	}
}

/* The parser's state: the open elements, and the <gpu> being read. */
struct parser {
	const char *path;
	struct smi_log *log;
	struct {
		char name[64];
		const char *content; /* just after the start tag */
		bool has_child;
	} st[MAX_DEPTH];
	int depth;
	struct smi_gpu *gpu;
	int gpu_depth;
};

/* What a stage of the parse found: go on, malformed XML (reported by
 * smi_parse), or another failure it has reported itself. */
enum step { STEP_OK, STEP_BAD, STEP_FAIL };

/* The element at ps->depth closes at end (its end tag): a leaf below
 * <gpu> is kept under its path from there, and the top level's
 * driver_version is read. */
static enum step close_leaf(struct parser *ps, const char *end)
{
	int depth = ps->depth;

	if (!ps->st[depth].has_child && ps->gpu && depth > ps->gpu_depth) {
		char lp[MAX_PATH] = "";
		for (int i = ps->gpu_depth + 1; i <= depth; i++) {
			size_t l = strlen(lp);
			snprintf(lp + l, sizeof(lp) - l, "%s%s", l ? "/" : "",
			         ps->st[i].name);
		}
		char *text = xml_text(ps->st[depth].content,
		                      (size_t)(end - ps->st[depth].content));
		if (!text || gpu_add_leaf(ps->gpu, lp, text)) {
			free(text);
			fprintf(stderr, "smicmp: out of memory\n");
			return STEP_FAIL;
		}
	} else if (!ps->st[depth].has_child && depth == 1 &&
	           !strcmp(ps->st[depth].name, "driver_version")) {
		char *text = xml_text(ps->st[depth].content,
		                      (size_t)(end - ps->st[depth].content));
		if (text)
			snprintf(ps->log->driver_version,
			         sizeof(ps->log->driver_version), "%s", text);
		free(text);
	}
	return STEP_OK;
}

/* An end tag at p: the innermost element closes, and with it the <gpu>
 * being read when it is that one. */
static enum step end_tag(struct parser *ps, const char *p)
{
	if (ps->depth == 0)
		return STEP_BAD;
	ps->depth--;
	if (close_leaf(ps, p) != STEP_OK)
		return STEP_FAIL;
	if (ps->gpu && ps->depth == ps->gpu_depth) {
		ps->gpu = NULL;
		ps->gpu_depth = -1;
	}
	return STEP_OK;
}

/* A start tag [p, gt]: the element opens (a self-closing one only marks
 * its parent as no leaf); an outermost <gpu> starts a GPU of the log. */
static enum step start_tag(struct parser *ps, const char *p, const char *gt)
{
	bool self_closing = gt[-1] == '/';
	size_t nl = strcspn(p + 1, " \t\r\n/>");
	int depth = ps->depth;

	if (depth > 0)
		ps->st[depth - 1].has_child = true;
	if (self_closing)
		return STEP_OK;
	if (depth == MAX_DEPTH || nl >= sizeof(ps->st[0].name))
		return STEP_BAD;
	memcpy(ps->st[depth].name, p + 1, nl);
	ps->st[depth].name[nl] = '\0';
	ps->st[depth].content = gt + 1;
	ps->st[depth].has_child = false;
	if (!ps->gpu && !strcmp(ps->st[depth].name, "gpu")) {
		struct smi_log *log = ps->log;
		char id[64];
		if (log->ngpus == MAX_GPUS) {
			fprintf(stderr, "smicmp: %s: more than %d GPUs\n",
			        ps->path, MAX_GPUS);
			return STEP_FAIL;
		}
		tag_attr(p, gt, "id", id, sizeof(id));
		ps->gpu = &log->gpus[log->ngpus++];
		smi_bus_id_norm(id, ps->gpu->bus_id);
		ps->gpu_depth = depth;
	}
	ps->depth++;
	return STEP_OK;
}

/* Every tag of buf in turn; *at is where a failure was found (the '<'
 * of its tag), or NULL when the text ran out. */
static enum step parse_tags(struct parser *ps, const char *buf, const char **at)
{
	const char *p;
	enum step s;

	for (p = buf; (p = strchr(p, '<')) != NULL;) {
		*at = p;
		if (!strncmp(p, "<!--", 4)) {
			const char *e = strstr(p, "-->");
			if (!e)
				return STEP_BAD;
			p = e + 3;
			continue;
		}
		const char *gt = strchr(p, '>');
		if (!gt)
			return STEP_BAD;
		if (p[1] == '?' || p[1] == '!')
			s = STEP_OK;
		else if (p[1] == '/')
			s = end_tag(ps, p);
		else
			s = start_tag(ps, p, gt);
		if (s != STEP_OK)
			return s;
		p = gt + 1;
	}
	*at = NULL;
	return ps->depth != 0 ? STEP_BAD : STEP_OK;
}

/* Parses nvidia-smi -q -x output into log; 0, or -1 with a message. */
int smi_parse(const char *path, struct smi_log *log)
{
	char *buf = smi_slurp(path);
	struct parser ps = {.path = path, .log = log, .gpu_depth = -1};
	const char *at = NULL;
	enum step s;
	int rc = -1;

	memset(log, 0, sizeof(*log));
	if (!buf)
		return -1;
	s = parse_tags(&ps, buf, &at);
	if (s == STEP_BAD)
		fprintf(stderr,
		        "smicmp: %s: malformed XML near byte %ld (is it the "
		        "whole output of nvidia-smi -q -x?)\n",
		        path, at ? (long)(at - buf) : -1L);
	else if (s == STEP_OK && log->ngpus == 0)
		fprintf(stderr,
		        "smicmp: %s: no <gpu> element (is it the output "
		        "of nvidia-smi -q -x?)\n",
		        path);
	else if (s == STEP_OK)
		rc = 0;
	free(buf);
	if (rc)
		smi_free(log);
	return rc;
}

/* The text of the first leaf at any of the '|'-separated paths, or NULL. */
const char *smi_get(const struct smi_gpu *g, const char *paths)
{
	char want[MAX_PATH];
	const char *p = paths;

	while (*p) {
		size_t n = strcspn(p, "|");
		if (n < sizeof(want)) {
			memcpy(want, p, n);
			want[n] = '\0';
			for (size_t i = 0; i < g->n; i++)
				if (!strcmp(g->leaves[i].path, want))
					return g->leaves[i].text;
		}
		p += n;
		if (*p == '|')
			p++;
	}
	return NULL;
}

const struct smi_gpu *smi_find(const struct smi_log *log, const char *bus_id)
{
	for (size_t i = 0; i < log->ngpus; i++)
		if (!strcmp(log->gpus[i].bus_id, bus_id))
			return &log->gpus[i];
	return NULL;
}

/* nvidia-smi's ways of saying it has no value. */
bool smi_na(const char *s)
{
	return !s || !*s || strstr(s, "N/A") || strstr(s, "Not Supported") ||
	       strstr(s, "Unknown Error") || strstr(s, "Insufficient");
}

/* The number at the start of "19968 MiB", "67.03 W", "16x", "P0". */
bool smi_number(const char *s, double *out)
{
	char *end;

	if (smi_na(s))
		return false;
	if (*s == 'P' && isdigit((unsigned char)s[1]))
		s++;
	errno = 0;
	*out = strtod(s, &end);
	return end != s && errno == 0;
}

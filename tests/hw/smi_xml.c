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

/* Parses nvidia-smi -q -x output into log; 0, or -1 with a message. */
int smi_parse(const char *path, struct smi_log *log)
{
	char *buf = smi_slurp(path);
	struct {
		char name[64];
		const char *content; /* just after the start tag */
		bool has_child;
	} st[MAX_DEPTH];
	int depth = 0, rc = -1;
	struct smi_gpu *gpu = NULL;
	int gpu_depth = -1;
	const char *p;

	memset(log, 0, sizeof(*log));
	if (!buf)
		return -1;
	for (p = buf; (p = strchr(p, '<')) != NULL;) {
		if (!strncmp(p, "<!--", 4)) {
			const char *e = strstr(p, "-->");
			if (!e)
				goto bad;
			p = e + 3;
			continue;
		}
		const char *gt = strchr(p, '>');
		if (!gt)
			goto bad;
		if (p[1] == '?' || p[1] == '!') {
			p = gt + 1;
			continue;
		}
		if (p[1] == '/') {
			if (depth == 0)
				goto bad;
			depth--;
			if (!st[depth].has_child && gpu && depth > gpu_depth) {
				char lp[MAX_PATH] = "";
				for (int i = gpu_depth + 1; i <= depth; i++) {
					size_t l = strlen(lp);
					snprintf(lp + l, sizeof(lp) - l, "%s%s",
					         l ? "/" : "", st[i].name);
				}
				char *text =
				    xml_text(st[depth].content,
				             (size_t)(p - st[depth].content));
				if (!text || gpu_add_leaf(gpu, lp, text)) {
					free(text);
					fprintf(stderr,
					        "smicmp: out of memory\n");
					goto out;
				}
			} else if (!st[depth].has_child && depth == 1 &&
			           !strcmp(st[depth].name, "driver_version")) {
				char *text =
				    xml_text(st[depth].content,
				             (size_t)(p - st[depth].content));
				if (text)
					snprintf(log->driver_version,
					         sizeof(log->driver_version),
					         "%s", text);
				free(text);
			}
			if (gpu && depth == gpu_depth) {
				gpu = NULL;
				gpu_depth = -1;
			}
			p = gt + 1;
			continue;
		}
		bool self_closing = gt[-1] == '/';
		size_t nl = strcspn(p + 1, " \t\r\n/>");
		if (depth > 0)
			st[depth - 1].has_child = true;
		if (self_closing) {
			p = gt + 1;
			continue;
		}
		if (depth == MAX_DEPTH || nl >= sizeof(st[0].name))
			goto bad;
		memcpy(st[depth].name, p + 1, nl);
		st[depth].name[nl] = '\0';
		st[depth].content = gt + 1;
		st[depth].has_child = false;
		if (!gpu && !strcmp(st[depth].name, "gpu")) {
			char id[64];
			if (log->ngpus == MAX_GPUS) {
				fprintf(stderr,
				        "smicmp: %s: more than %d GPUs\n", path,
				        MAX_GPUS);
				goto out;
			}
			tag_attr(p, gt, "id", id, sizeof(id));
			gpu = &log->gpus[log->ngpus++];
			smi_bus_id_norm(id, gpu->bus_id);
			gpu_depth = depth;
		}
		depth++;
		p = gt + 1;
	}
	if (depth != 0)
		goto bad;
	if (log->ngpus == 0) {
		fprintf(stderr,
		        "smicmp: %s: no <gpu> element (is it the output "
		        "of nvidia-smi -q -x?)\n",
		        path);
		goto out;
	}
	rc = 0;
	goto out;
bad:
	fprintf(stderr,
	        "smicmp: %s: malformed XML near byte %ld (is it the whole "
	        "output of nvidia-smi -q -x?)\n",
	        path, p ? (long)(p - buf) : -1L);
out:
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

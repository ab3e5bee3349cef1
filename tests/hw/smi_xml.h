/* SPDX-License-Identifier: MIT */
/*
 * smi_xml.h - a reader for the XML that `nvidia-smi -q -x` writes, enough
 * for tests/hw/smicmp.c: each <gpu> element becomes a list of its leaf
 * elements, by path below <gpu>, with their text.
 */
#ifndef GPUTOP_SMI_XML_H
#define GPUTOP_SMI_XML_H

#include <stdbool.h>
#include <stddef.h>

#define MAX_GPUS 64

/* One leaf element below a <gpu>: its path from there and its text. */
struct leaf {
	char *path;
	char *text;
};

struct smi_gpu {
	char bus_id[32]; /* normalised: dddd:bb:dd.f, lower case */
	struct leaf *leaves;
	size_t n, cap;
};

struct smi_log {
	char driver_version[64];
	struct smi_gpu gpus[MAX_GPUS];
	size_t ngpus;
};

/* The whole file, NUL-terminated, or NULL with a message on stderr; the
 * caller frees it. */
char *smi_slurp(const char *path);
/* dddd:bb:dd.f in lower case, or "" when s is no PCI bus id. */
void smi_bus_id_norm(const char *s, char out[32]);
/* Parses the file into log: 0, or -1 with a message on stderr. The caller
 * frees a parsed log with smi_free. */
int smi_parse(const char *path, struct smi_log *log);
void smi_free(struct smi_log *log);
/* The text of the first leaf at any of the '|'-separated paths, or NULL. */
const char *smi_get(const struct smi_gpu *g, const char *paths);
const struct smi_gpu *smi_find(const struct smi_log *log, const char *bus_id);
/* True for nvidia-smi's ways of saying it has no value ("N/A", ...). */
bool smi_na(const char *s);
/* The number at the start of "19968 MiB", "67.03 W", "16x" or "P0". */
bool smi_number(const char *s, double *out);

#endif

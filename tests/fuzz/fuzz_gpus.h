/* SPDX-License-Identifier: MIT */
/*
 * fuzz_gpus.h - what fuzz_snapshot.c and fuzz_metrics.c both build from
 * their bytes: a host, one backend, up to four devices (their strings,
 * every static and sample value with its reason, fan counts, states) and
 * up to six processes (hostile names, command lines, containers, device
 * indexes out of range), and the UTF-8 check of what the writers make.
 * One input layout, so the two harnesses share their seeds' shape.
 */
#ifndef GPUTOP_FUZZ_GPUS_H
#define GPUTOP_FUZZ_GPUS_H

#include "fuzz_common.h"

#include "core/backend.h"
#include "core/collector.h"
#include "core/hostinfo.h"
#include "core/model.h"

#define MAX_DEVS  4
#define MAX_PROCS 6
#define SEP       "\x01\x02"

static char err_text[64];

static const char *fuzz_error_text(struct gt_backend *b, int code)
{
	(void)b;
	(void)code;
	return err_text;
}

static const struct gt_backend_ops ops = {
    .name = "fuzz",
    .error_text = fuzz_error_text,
};

struct fuzz_gpus {
	struct gt_hostinfo host;
	struct gt_backend be;
	struct gt_devlist *devs; /* malloc'd */
	struct gt_sample samples[MAX_DEVS];
	struct gt_process procs[MAX_PROCS];
	const struct gt_backend *dev_be[MAX_DEVS];
	struct gt_proclist plist;
	size_t ndev, nproc;
	bool no_procs;
};

/* The next string part into dst[len] (cut, NUL-terminated). */
static void take_str(struct fuzz_in *in, char *dst, size_t len)
{
	struct fuzz_in s = fuzz_part(in, SEP);
	size_t n = s.n < len - 1 ? s.n : len - 1;
	memcpy(dst, s.p, n);
	dst[n] = '\0';
}

static void take_val(struct fuzz_in *in, struct gt_val *v)
{
	uint8_t why = fuzz_u8(in) % GT_WHY__COUNT;
	if (why == GT_WHY_OK)
		gt_val_set(v, (int64_t)fuzz_u64(in));
	else
		gt_val_fail(v, (enum gt_why)why, (int32_t)fuzz_u8(in));
}

static bool valid_utf8(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned c = s[i], len = c < 0x80   ? 1
		                         : c < 0xc2 ? 0
		                         : c < 0xe0 ? 2
		                         : c < 0xf0 ? 3
		                         : c < 0xf5 ? 4
		                                    : 0;
		if (len == 0 || i + len > n)
			return false;
		for (unsigned k = 1; k < len; k++)
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
		if ((c == 0xe0 && s[i + 1] < 0xa0) ||
		    (c == 0xed && s[i + 1] > 0x9f) ||
		    (c == 0xf0 && s[i + 1] < 0x90) ||
		    (c == 0xf4 && s[i + 1] > 0x8f))
			return false;
		i += len;
	}
	return true;
}

static void take_device(struct fuzz_in *in, struct fuzz_gpus *g, size_t i)
{
	struct gt_static *d = &g->devs->items[i];
	gt_static_init(d);
	d->index = (unsigned)i;
	d->vendor = (enum gt_vendor)(fuzz_u8(in) % 4);
	d->demo = fuzz_u8(in) & 1;
	take_str(in, d->id, sizeof(d->id));
	take_str(in, d->pci_bus_id, sizeof(d->pci_bus_id));
	take_str(in, d->name, sizeof(d->name));
	take_str(in, d->uuid, sizeof(d->uuid));
	take_str(in, d->serial, sizeof(d->serial));
	take_str(in, d->driver, sizeof(d->driver));
	take_str(in, d->vbios, sizeof(d->vbios));
	for (int f = 0; f < GT_S__COUNT; f++)
		take_val(in, &d->f[f]);
	struct gt_sample *s = &g->samples[i];
	gt_sample_init(s);
	s->state = fuzz_u8(in) % 3;
	s->fan_count = fuzz_u8(in) % (GT_MAX_FANS + 1);
	s->util_gpu_lower_bound = fuzz_u8(in) & 1;
	char word[GT_STR_SHORT];
	take_str(in, word, sizeof(word));
	gt_text_val_set(&s->perf_level, word);
	take_str(in, word, sizeof(word));
	gt_text_val_set(&s->power_profile, word);
	for (int f = 0; f < GT_F__COUNT; f++)
		take_val(in, &s->f[f]);
	g->dev_be[i] = fuzz_u8(in) & 1 ? &g->be : NULL;
}

static void take_process(struct fuzz_in *in, struct gt_process *p)
{
	p->device_index = fuzz_u8(in) % (MAX_DEVS + 1);
	p->pid = (int32_t)fuzz_u64(in);
	p->uid = (uint32_t)fuzz_u64(in);
	p->type = fuzz_u8(in) % 4;
	p->host_known = fuzz_u8(in) & 1;
	take_str(in, p->user, sizeof(p->user));
	take_str(in, p->name, sizeof(p->name));
	take_str(in, p->container, sizeof(p->container));
	struct fuzz_in cmd = fuzz_part(in, SEP);
	p->cmdline = cmd.n ? fuzz_strdup(cmd) : NULL;
	for (int f = 0; f < GT_P__COUNT; f++)
		take_val(in, &p->f[f]);
}

/* Fills g from the bytes (g is static in the harness: large). */
static void fuzz_gpus_take(struct fuzz_in *in, struct fuzz_gpus *g)
{
	uint8_t shape = fuzz_u8(in);
	g->ndev = shape % (MAX_DEVS + 1);
	g->nproc = (shape >> 3) % (MAX_PROCS + 1);
	g->no_procs = shape & 0x80;

	memset(&g->host, 0, sizeof(g->host));
	take_str(in, g->host.hostname, sizeof(g->host.hostname));
	take_str(in, g->host.kernel, sizeof(g->host.kernel));
	g->host.cpu_count = fuzz_u8(in);
	g->host.memory_total_bytes = fuzz_u64(in);
	memset(&g->be, 0, sizeof(g->be));
	g->be.ops = &ops;
	g->be.status = (enum gt_backend_status)(fuzz_u8(in) % 3);
	take_str(in, g->be.detail, sizeof(g->be.detail));
	g->be.device_count = (unsigned)g->ndev;
	take_str(in, err_text, sizeof(err_text));

	g->devs =
	    calloc(1, sizeof(*g->devs) + g->ndev * sizeof(struct gt_static));
	FUZZ_CHECK(g->devs != NULL);
	g->devs->count = g->ndev;
	for (size_t i = 0; i < g->ndev; i++)
		take_device(in, g, i);
	memset(g->procs, 0, sizeof(g->procs));
	for (size_t i = 0; i < g->nproc; i++)
		take_process(in, &g->procs[i]);
	g->plist = (struct gt_proclist){
	    .seq = 1, .count = g->nproc, .items = g->procs};
}

static void fuzz_gpus_free(struct fuzz_gpus *g)
{
	for (size_t i = 0; i < g->nproc; i++)
		free(g->procs[i].cmdline);
	free(g->devs);
	g->devs = NULL;
}

#endif

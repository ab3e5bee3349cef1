/* SPDX-License-Identifier: MIT */
/*
 * prochist.c - the per-process history store (see prochist.h): fixed
 * slots, a pid index rebuilt after each round's expiry, and ring buffers
 * of samples.
 */
#include "core/prochist.h"

#include <stdlib.h>
#include <string.h>

enum { NINDEX = 2 * GT_PROCHIST_MAX };

static size_t hash_pid(int32_t pid)
{
	return ((uint32_t)pid * 2654435761u) % NINDEX;
}

/* The slot of pid, -1 when it has none. */
static int find(const struct gt_prochist *h, int32_t pid)
{
	for (size_t i = hash_pid(pid), k = 0; k < NINDEX;
	     k++, i = (i + 1) % NINDEX) {
		int s = h->index[i];
		if (s < 0)
			return -1;
		if (h->slot[s].pid == pid)
			return s;
	}
	return -1;
}

static void index_add(struct gt_prochist *h, int s)
{
	size_t i = hash_pid(h->slot[s].pid);
	while (h->index[i] >= 0)
		i = (i + 1) % NINDEX;
	h->index[i] = (int16_t)s;
}

/* Live slots are few and, as take_slot fills the lowest free one first,
 * mostly low: walks stop once they have met all h->live of them, so that
 * a round does not touch the 1024 slots (3 KB apart) each time. */
static void reindex(struct gt_prochist *h)
{
	memset(h->index, 0xff, sizeof(h->index));
	for (int s = 0, met = 0; s < GT_PROCHIST_MAX && (size_t)met < h->live;
	     s++)
		if (h->slot[s].live) {
			index_add(h, s);
			met++;
		}
}

struct gt_prochist *gt_prochist_new(void)
{
	struct gt_prochist *h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	if (pthread_mutex_init(&h->lock, NULL) != 0) {
		free(h);
		return NULL;
	}
	memset(h->index, 0xff, sizeof(h->index));
	return h;
}

void gt_prochist_free(struct gt_prochist *h)
{
	if (!h)
		return;
	pthread_mutex_destroy(&h->lock);
	free(h);
}

/* A slot for a process first seen now: a free one, else the one listed
 * least recently (its index entry goes with it). */
static int take_slot(struct gt_prochist *h)
{
	int best = 0;
	for (int s = 0; s < GT_PROCHIST_MAX; s++) {
		if (!h->slot[s].live)
			return s;
		if (h->slot[s].round < h->slot[best].round)
			best = s;
	}
	h->slot[best].live = false;
	h->live--;
	reindex(h);
	return best;
}

static struct gt_prochist_slot *
slot_of(struct gt_prochist *h, const struct gt_process *p, uint64_t now_ns)
{
	int s = find(h, p->pid);
	if (s >= 0) {
		struct gt_prochist_slot *o = &h->slot[s];
		/* The same pid, another start: a new process. */
		if (!(p->start_known && o->start_known && p->start != o->start))
			return o;
		o->live = false;
		h->live--;
		reindex(h);
	}
	s = take_slot(h);
	struct gt_prochist_slot *o = &h->slot[s];
	o->pid = p->pid;
	o->live = true;
	o->start_known = p->start_known;
	o->start = p->start;
	o->first_ns = now_ns;
	o->round = 0;
	o->head = o->count = 0;
	h->live++;
	index_add(h, s);
	return o;
}

static void add(int64_t *sum, uint8_t *ok, const struct gt_val *v)
{
	if (!gt_val_ok(v))
		return;
	*sum = *ok ? *sum + v->v : v->v;
	*ok = 1;
}

void gt_prochist_update(struct gt_prochist *h, const struct gt_process *procs,
                        size_t n, uint64_t now_ns)
{
	pthread_mutex_lock(&h->lock);
	uint64_t round = ++h->round;
	for (size_t i = 0; i < n; i++) {
		const struct gt_process *p = &procs[i];
		struct gt_prochist_slot *o = slot_of(h, p, now_ns);
		struct gt_prochist_sample *x;
		if (o->round != round) { /* its first row this round */
			x = &o->s[o->head];
			memset(x, 0, sizeof(*x));
			x->monotonic_ns = now_ns;
			o->head = (o->head + 1) % GT_PROCHIST_SAMPLES;
			if (o->count < GT_PROCHIST_SAMPLES)
				o->count++;
			o->round = round;
			if (gt_val_ok(&p->f[GT_P_CPU])) {
				x->cpu = (int32_t)p->f[GT_P_CPU].v;
				x->cpu_ok = 1;
			}
		} else { /* the same process on another GPU */
			x = &o->s[(o->head + GT_PROCHIST_SAMPLES - 1) %
			          GT_PROCHIST_SAMPLES];
		}
		int64_t gpu = x->gpu;
		add(&gpu, &x->gpu_ok, &p->f[GT_P_GPU]);
		x->gpu = gpu > INT32_MAX ? INT32_MAX : (int32_t)gpu;
		add(&x->mem, &x->mem_ok, &p->f[GT_P_MEM]);
	}
	/* Expiry: unseen for GT_PROCHIST_EXPIRE rounds. */
	bool gone = false;
	size_t live = h->live;
	for (int s = 0, met = 0; s < GT_PROCHIST_MAX && (size_t)met < live;
	     s++) {
		struct gt_prochist_slot *o = &h->slot[s];
		if (!o->live)
			continue;
		met++;
		if (round - o->round >= GT_PROCHIST_EXPIRE) {
			o->live = false;
			h->live--;
			gone = true;
		}
	}
	if (gone)
		reindex(h);
	pthread_mutex_unlock(&h->lock);
}

size_t gt_prochist_get(struct gt_prochist *h, int32_t pid, bool start_known,
                       uint64_t start, struct gt_prochist_sample *out,
                       size_t max, uint64_t *first_ns)
{
	size_t n = 0;
	pthread_mutex_lock(&h->lock);
	int s = find(h, pid);
	if (s >= 0) {
		const struct gt_prochist_slot *o = &h->slot[s];
		if (!(start_known && o->start_known && start != o->start)) {
			n = o->count < max ? o->count : max;
			for (size_t k = 0; k < n; k++)
				out[k] = o->s[(o->head + GT_PROCHIST_SAMPLES -
				               n + k) %
				              GT_PROCHIST_SAMPLES];
			if (first_ns)
				*first_ns = o->first_ns;
		}
	}
	pthread_mutex_unlock(&h->lock);
	return n;
}

size_t gt_prochist_count(struct gt_prochist *h)
{
	pthread_mutex_lock(&h->lock);
	size_t n = h->live;
	pthread_mutex_unlock(&h->lock);
	return n;
}

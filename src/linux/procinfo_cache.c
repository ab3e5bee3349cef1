/* SPDX-License-Identifier: MIT */
/*
 * procinfo_cache.c - owns the per-pid cache of procinfo.c: finding, adding,
 * resetting and sweeping the entries (struct gt_procinfo_entry,
 * procinfo_priv.h) and closing the descriptors they keep open. The index is
 * this file's alone: procinfo.c reaches entries through
 * gt_procinfo_cache_find() and gt_procinfo_cache_add() only, so the index
 * cannot go stale behind its back.
 *
 * The cache is a dense array of entries plus an open-addressing index of
 * entry positions (linear probing, load <= 1/2). A sweep compacts the array
 * and rebuilds the index, which avoids tombstones altogether.
 */
#include "linux/procinfo_priv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PI_MIN_SLOTS 64u

static size_t slot_of(int32_t pid, size_t nslots)
{
	/* Fibonacci hashing: consecutive pids spread over the table. */
	uint64_t h = (uint64_t)(uint32_t)pid * 0x9e3779b97f4a7c15ull;
	return (size_t)(h >> 32) & (nslots - 1);
}

static void index_rebuild(struct gt_procinfo *pi)
{
	for (size_t i = 0; i < pi->nslots; i++)
		pi->slots[i] = -1;
	for (size_t i = 0; i < pi->nents; i++) {
		size_t s = slot_of(pi->ents[i].pid, pi->nslots);
		while (pi->slots[s] >= 0)
			s = (s + 1) & (pi->nslots - 1);
		pi->slots[s] = (int32_t)i;
	}
}

/* Resizes the index to hold want entries at load <= 1/2. */
static int index_resize(struct gt_procinfo *pi, size_t want)
{
	size_t n = PI_MIN_SLOTS;
	while (n < want * 2) {
		if (n > SIZE_MAX / 4 || n >= (size_t)INT32_MAX)
			return -1;
		n *= 2;
	}
	if (n != pi->nslots) {
		int32_t *ns = malloc(n * sizeof(*ns));
		if (!ns)
			return -1;
		free(pi->slots);
		pi->slots = ns;
		pi->nslots = n;
	}
	index_rebuild(pi);
	return 0;
}

struct gt_procinfo_entry *gt_procinfo_cache_find(struct gt_procinfo *pi,
                                                 int32_t pid)
{
	if (!pi->nslots)
		return NULL;
	size_t s = slot_of(pid, pi->nslots);
	while (pi->slots[s] >= 0) {
		struct gt_procinfo_entry *e = &pi->ents[pi->slots[s]];
		if (e->pid == pid)
			return e;
		s = (s + 1) & (pi->nslots - 1);
	}
	return NULL;
}

void gt_procinfo_entry_close_fast(struct gt_procinfo *pi,
                                  struct gt_procinfo_entry *e)
{
	if (e->fast_open) {
		close(e->statm_fd);
		close(e->comm_fd);
		e->fast_open = false;
		pi->nfds -= 2;
	}
}

void gt_procinfo_entry_close_stat(struct gt_procinfo *pi,
                                  struct gt_procinfo_entry *e)
{
	if (e->fd_open) {
		close(e->stat_fd);
		e->fd_open = false;
		pi->nfds--;
	}
}

void gt_procinfo_entry_close_fd(struct gt_procinfo *pi,
                                struct gt_procinfo_entry *e)
{
	gt_procinfo_entry_close_stat(pi, e);
	gt_procinfo_entry_close_fast(pi, e);
}

void gt_procinfo_entry_reset(struct gt_procinfo *pi,
                             struct gt_procinfo_entry *e, int32_t pid,
                             uint64_t start)
{
	gt_procinfo_entry_close_fd(pi, e);
	free(e->cmdline);
	memset(e, 0, sizeof(*e));
	e->pid = pid;
	e->start = start;
	e->uid = GT_UID_UNKNOWN;
}

/* Adds a fresh entry; NULL on ENOMEM (the caller then works uncached). */
struct gt_procinfo_entry *gt_procinfo_cache_add(struct gt_procinfo *pi,
                                                int32_t pid, uint64_t start)
{
	if (pi->nents == pi->capents) {
		size_t cap = pi->capents ? pi->capents * 2 : 32;
		if (cap > (size_t)INT32_MAX ||
		    cap > SIZE_MAX / sizeof(*pi->ents))
			return NULL;
		struct gt_procinfo_entry *ne =
		    realloc(pi->ents, cap * sizeof(*ne));
		if (!ne)
			return NULL;
		pi->ents = ne;
		pi->capents = cap;
	}
	if ((pi->nents + 1) * 2 > pi->nslots &&
	    index_resize(pi, pi->nents + 1) < 0)
		return NULL;

	struct gt_procinfo_entry *e = &pi->ents[pi->nents];
	e->cmdline = NULL;
	e->fd_open = false;
	e->fast_open = false;
	gt_procinfo_entry_reset(pi, e, pid, start);
	size_t s = slot_of(pid, pi->nslots);
	while (pi->slots[s] >= 0)
		s = (s + 1) & (pi->nslots - 1);
	pi->slots[s] = (int32_t)pi->nents;
	pi->nents++;
	return e;
}

void gt_procinfo_sweep(struct gt_procinfo *pi, uint64_t now_ns)
{
	size_t keep = 0;

	(void)now_ns;
	for (size_t i = 0; i < pi->nents; i++) {
		if (pi->ents[i].round != pi->round) {
			gt_procinfo_entry_close_fd(pi, &pi->ents[i]);
			free(pi->ents[i].cmdline);
			continue;
		}
		if (keep != i)
			pi->ents[keep] = pi->ents[i];
		keep++;
	}
	pi->nents = keep;
	pi->round++;
	/* Give back what a burst of short-lived processes left behind. */
	if (pi->capents > 64 && keep < pi->capents / 4) {
		size_t cap = keep * 2 > 32 ? keep * 2 : 32;
		struct gt_procinfo_entry *ne =
		    realloc(pi->ents, cap * sizeof(*ne));
		if (ne) {
			pi->ents = ne;
			pi->capents = cap;
		}
	}
	if (pi->nslots == 0)
		return;
	/* Shrink a table left sparse by a burst of processes; a failed
	 * allocation keeps the old size, which is still correct. */
	if (pi->nslots > PI_MIN_SLOTS && pi->nslots / 8 > keep &&
	    index_resize(pi, keep) == 0)
		return;
	index_rebuild(pi);
}

size_t gt_procinfo_cache_count(const struct gt_procinfo *pi)
{
	return pi ? pi->nents : 0;
}

void gt_procinfo_cache_free(struct gt_procinfo *pi)
{
	for (size_t i = 0; i < pi->nents; i++) {
		gt_procinfo_entry_close_fd(pi, &pi->ents[i]);
		free(pi->ents[i].cmdline);
	}
	free(pi->ents);
	free(pi->slots);
}

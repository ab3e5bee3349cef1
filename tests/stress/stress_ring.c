/* SPDX-License-Identifier: MIT */
/*
 * stress_ring.c - one writer, three readers hammering a gt_ring and a gt_pub
 * at full speed. Built with ThreadSanitizer by `make check`: TSan proves the
 * absence of data races, and the checks below prove no reader ever got a
 * torn record or a half-built list, and that lost records are reported.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/publish.h"
#include "core/ring.h"

#define WORDS       61 /* an odd size: the tail is not a whole multiple of 8 */
#define RECORDS     200000u
#define LIST_ROUNDS 20000u

struct record {
	uint64_t seq;
	uint64_t w[WORDS];
	uint32_t tail; /* elem_size % 8 != 0 */
};

struct list {
	uint64_t gen;
	size_t count;
	uint64_t items[]; /* every item == gen */
};

struct shared {
	struct gt_ring ring;
	struct gt_pub pub;
	atomic_bool done;
	atomic_ulong torn, reads, lost, lists_seen, bad_lists;
	atomic_ulong reads_of[3]; /* per reader: each must have read some */
};

static uint64_t pattern(uint64_t seq, size_t i)
{
	return seq * 0x9E3779B97F4A7C15ull + i;
}

static bool record_whole(const struct record *r)
{
	for (size_t i = 0; i < WORDS; i++)
		if (r->w[i] != pattern(r->seq, i))
			return false;
	return r->tail == (uint32_t)r->seq;
}

static void list_free(void *obj)
{
	free(obj);
}

static void *writer(void *arg)
{
	struct shared *sh = arg;
	struct record r;
	for (uint64_t seq = 0; seq < RECORDS; seq++) {
		r.seq = seq;
		for (size_t i = 0; i < WORDS; i++)
			r.w[i] = pattern(seq, i);
		r.tail = (uint32_t)seq;
		gt_ring_push(&sh->ring, &r);
		if (seq % (RECORDS / LIST_ROUNDS) == 0) {
			size_t n = 1 + seq % 97;
			struct list *l =
			    malloc(sizeof(*l) + n * sizeof(uint64_t));
			if (!l)
				abort();
			l->gen = seq;
			l->count = n;
			for (size_t i = 0; i < n; i++)
				l->items[i] = seq;
			gt_pub_publish(&sh->pub, l);
		}
	}
	atomic_store(&sh->done, true);
	return NULL;
}

static void check_list(struct shared *sh, int slot, uint64_t *last_gen)
{
	const struct list *l = gt_pub_acquire(&sh->pub, slot);
	if (l) {
		bool ok = l->count == 1 + l->gen % 97 && l->gen >= *last_gen;
		for (size_t i = 0; ok && i < l->count; i++)
			ok = l->items[i] == l->gen;
		if (!ok)
			atomic_fetch_add(&sh->bad_lists, 1);
		*last_gen = l->gen;
		atomic_fetch_add(&sh->lists_seen, 1);
	}
	gt_pub_release(&sh->pub, slot);
}

/* Reader 0 and 1 consume in order; reader 2 only looks at the newest. */
static void *reader(void *arg)
{
	struct shared *sh = ((void **)arg)[0];
	int kind = (int)(intptr_t)((void **)arg)[1];
	struct gt_ring_cursor cur = {0, 0};
	struct record r;
	uint64_t expect = 0, last_gen = 0, seen = 0;
	int slot = gt_pub_reader_open(&sh->pub);

	if (slot < 0)
		abort();
	for (;;) {
		bool finished = atomic_load(&sh->done);
		enum gt_ring_result res;
		if (kind < 2) {
			res = gt_ring_read_next(&sh->ring, &cur, &r);
			if (res == GT_RING_OK) {
				/* In order, never backwards; skips are
				 * checked against cur.lost at the end. */
				if (r.seq < expect)
					atomic_fetch_add(&sh->torn, 1);
				expect = r.seq + 1;
				seen++;
			}
		} else {
			res = gt_ring_read_latest(&sh->ring, &r, NULL);
		}
		if (res == GT_RING_OK) {
			atomic_fetch_add(&sh->reads, 1);
			atomic_fetch_add(&sh->reads_of[kind], 1);
			if (!record_whole(&r))
				atomic_fetch_add(&sh->torn, 1);
		}
		check_list(sh, slot, &last_gen);
		if (finished && (kind == 2 || res == GT_RING_EMPTY))
			break;
	}
	if (kind < 2) {
		/* Every record was either read or reported lost. */
		if (seen + cur.lost != RECORDS) {
			fprintf(stderr,
			        "reader %d: read %llu + lost %llu != %u\n",
			        kind, (unsigned long long)seen,
			        (unsigned long long)cur.lost, RECORDS);
			atomic_fetch_add(&sh->torn, 1);
		}
		atomic_fetch_add(&sh->lost, cur.lost);
	}
	gt_pub_reader_close(&sh->pub, slot);
	return NULL;
}

int main(void)
{
	static struct shared sh;
	pthread_t w, rd[3];
	void *args[3][2];

	if (gt_ring_init(&sh.ring, 64, sizeof(struct record)) < 0)
		return 1;
	gt_pub_init(&sh.pub, list_free);
	for (int i = 0; i < 3; i++) {
		args[i][0] = &sh;
		args[i][1] = (void *)(intptr_t)i;
		pthread_create(&rd[i], NULL, reader, args[i]);
	}
	pthread_create(&w, NULL, writer, &sh);
	pthread_join(w, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(rd[i], NULL);

	unsigned long torn = atomic_load(&sh.torn);
	unsigned long bad = atomic_load(&sh.bad_lists);
	printf("stress_ring: %u records written, %lu reads, %lu lost by slow "
	       "readers, %lu torn, %lu lists read, %lu inconsistent lists\n",
	       RECORDS, atomic_load(&sh.reads), atomic_load(&sh.lost), torn,
	       atomic_load(&sh.lists_seen), bad);
	gt_pub_destroy(&sh.pub);
	gt_ring_destroy(&sh.ring);
	/* A check that read nothing checked nothing: every reader must have
	 * had records, and the lists must have been seen. */
	bool idle = atomic_load(&sh.lists_seen) == 0;
	for (int i = 0; i < 3; i++)
		if (atomic_load(&sh.reads_of[i]) == 0) {
			fprintf(stderr, "stress_ring: reader %d read nothing\n",
			        i);
			idle = true;
		}
	if (idle)
		fprintf(stderr, "stress_ring: nothing was checked\n");
	return torn == 0 && bad == 0 && !idle ? 0 : 1;
}

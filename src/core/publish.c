/* SPDX-License-Identifier: MIT */
/*
 * publish.c - hazard-pointer publication (see publish.h).
 *
 * The reader's "store hazard, then re-load current" and the writer's
 * "exchange current, then scan hazards" are all sequentially consistent:
 * that store-load ordering is what guarantees that either the writer sees
 * the reader's hazard or the reader sees the new pointer and retries.
 */
#include "core/publish.h"

#include <stdbool.h>
#include <string.h>

void gt_pub_init(struct gt_pub *pub, void (*free_fn)(void *obj))
{
	memset(pub, 0, sizeof(*pub));
	atomic_init(&pub->current, NULL);
	for (size_t i = 0; i < GT_PUB_READERS; i++) {
		atomic_init(&pub->hazard[i], NULL);
		atomic_init(&pub->slot_used[i], false);
	}
	pub->free_fn = free_fn;
}

static bool is_protected(struct gt_pub *pub, const void *obj)
{
	for (size_t i = 0; i < GT_PUB_READERS; i++)
		if (atomic_load(&pub->hazard[i]) == obj)
			return true;
	return false;
}

static void scan_retired(struct gt_pub *pub)
{
	size_t keep = 0;
	for (size_t i = 0; i < pub->nretired; i++) {
		void *obj = pub->retired[i];
		if (is_protected(pub, obj))
			pub->retired[keep++] = obj;
		else
			pub->free_fn(obj);
	}
	pub->nretired = keep;
}

void gt_pub_publish(struct gt_pub *pub, void *obj)
{
	void *old = atomic_exchange(&pub->current, obj);
	if (old)
		pub->retired[pub->nretired++] = old;
	scan_retired(pub);
}

void gt_pub_destroy(struct gt_pub *pub)
{
	void *cur = atomic_exchange(&pub->current, NULL);
	for (size_t i = 0; i < GT_PUB_READERS; i++)
		atomic_store(&pub->hazard[i], NULL);
	scan_retired(pub);
	if (cur)
		pub->free_fn(cur);
}

int gt_pub_reader_open(struct gt_pub *pub)
{
	for (int i = 0; i < GT_PUB_READERS; i++) {
		bool expected = false;
		if (atomic_compare_exchange_strong(&pub->slot_used[i],
		                                   &expected, true))
			return i;
	}
	return -1;
}

void gt_pub_reader_close(struct gt_pub *pub, int slot)
{
	atomic_store(&pub->hazard[slot], NULL);
	atomic_store(&pub->slot_used[slot], false);
}

const void *gt_pub_acquire(struct gt_pub *pub, int slot)
{
	for (;;) {
		void *obj = atomic_load(&pub->current);
		atomic_store(&pub->hazard[slot], obj);
		if (atomic_load(&pub->current) == obj)
			return obj;
	}
}

void gt_pub_release(struct gt_pub *pub, int slot)
{
	atomic_store(&pub->hazard[slot], NULL);
}

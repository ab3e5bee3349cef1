/* SPDX-License-Identifier: MIT */
/*
 * publish.h - lock-free publication of whole immutable objects (process
 * lists, device facts) from one writer to several readers.
 *
 * The writer builds a new object, publishes it, and the previous one is
 * freed once no reader holds it (hazard pointers: each reader announces the
 * object it is looking at in its own slot). A reader always sees one whole,
 * consistent object; neither side waits for the other.
 */
#ifndef GPUTOP_PUBLISH_H
#define GPUTOP_PUBLISH_H

#include <stdatomic.h>
#include <stddef.h>

#define GT_PUB_READERS 16

struct gt_pub {
	_Atomic(void *) current;
	_Atomic(void *) hazard[GT_PUB_READERS];
	atomic_bool slot_used[GT_PUB_READERS];
	/* Writer-only: published-over objects a reader may still hold. At
	 * most one per reader slot can be protected, so this never fills. */
	void *retired[GT_PUB_READERS + 1];
	size_t nretired;
	void (*free_fn)(void *obj);
};

void gt_pub_init(struct gt_pub *pub, void (*free_fn)(void *obj));
/* Frees the current and all retired objects; no reader may be active. */
void gt_pub_destroy(struct gt_pub *pub);

/* Writer: publishes obj (ownership passes to pub; NULL allowed). */
void gt_pub_publish(struct gt_pub *pub, void *obj);

/* Reader registration: a slot index, or -1 when all slots are taken. */
int gt_pub_reader_open(struct gt_pub *pub);
void gt_pub_reader_close(struct gt_pub *pub, int slot);

/* Reader: borrows the current object until gt_pub_release(). NULL if
 * nothing was published yet. One object per slot at a time. */
const void *gt_pub_acquire(struct gt_pub *pub, int slot);
void gt_pub_release(struct gt_pub *pub, int slot);

#endif

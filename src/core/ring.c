/* SPDX-License-Identifier: MIT */
/*
 * ring.c - the lock-free sample ring (see ring.h for the protocol).
 *
 * Ordering follows the classic fence-based sequence lock: the writer marks
 * the slot odd, issues a release fence, stores the payload, then publishes
 * the even sequence with release; the reader loads the sequence with
 * acquire, copies the payload, issues an acquire fence and re-reads the
 * sequence. Equal even values before and after mean the copy is whole.
 */
#include "core/ring.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2 && ATOMIC_LONG_LOCK_FREE == 2,
               "the ring's words start as zero bytes, never atomic_init");

static size_t data_bytes(const struct gt_ring *r)
{
	return r->capacity * r->words * sizeof(uint64_t);
}

/* The records' words, zero (a lock-free atomic word has no lock hidden in
 * it, so zero bytes are its 0), all of their pages in place at once. When
 * they faulted in one at a time, as an atomic_init of every word made
 * them, 1024 samples of each of 8 GPUs (7.5 MiB, 1900 pages, each a trap
 * of its own) took more than half of the time to the first frame on a VM:
 * 57 ms against 27 ms with MAP_POPULATE. Left to fault in as the ring
 * fills, the RSS would grow for 17 minutes at 1 s, and look like a leak. */
static _Atomic uint64_t *data_alloc(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static size_t round_pow2(size_t n)
{
	size_t p = 1;
	while (p < n)
		p <<= 1;
	return p;
}

int gt_ring_init(struct gt_ring *r, size_t capacity, size_t elem_size)
{
	memset(r, 0, sizeof(*r));
	/* Refuse sizes whose arithmetic below would overflow. */
	if (capacity == 0 || elem_size == 0 || capacity > (SIZE_MAX >> 1) + 1 ||
	    elem_size > SIZE_MAX - 7)
		return -1;
	r->capacity = round_pow2(capacity);
	r->elem_size = elem_size;
	r->words = (elem_size + 7) / 8;
	if (r->words > SIZE_MAX / sizeof(uint64_t) / r->capacity)
		return -1;
	r->seq = calloc(r->capacity, sizeof(*r->seq));
	r->data = data_alloc(data_bytes(r));
	if (!r->seq || !r->data) {
		gt_ring_destroy(r);
		return -1;
	}
	atomic_init(&r->head, 0);
	return 0;
}

void gt_ring_destroy(struct gt_ring *r)
{
	free(r->seq);
	if (r->data)
		munmap(r->data, data_bytes(r));
	r->seq = NULL;
	r->data = NULL;
}

void gt_ring_push(struct gt_ring *r, const void *elem)
{
	uint64_t pos = atomic_load_explicit(&r->head, memory_order_relaxed);
	size_t slot = (size_t)(pos & (r->capacity - 1));
	_Atomic uint64_t *dst = &r->data[slot * r->words];
	const unsigned char *src = elem;

	atomic_store_explicit(&r->seq[slot], 2 * pos + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	/* Whole words with a constant-size copy (a load, not a call), then
	 * the element's tail. */
	size_t whole = r->elem_size / 8;
	for (size_t w = 0; w < whole; w++) {
		uint64_t word;
		memcpy(&word, src + w * 8, 8);
		atomic_store_explicit(&dst[w], word, memory_order_relaxed);
	}
	if (whole < r->words) {
		uint64_t word = 0;
		memcpy(&word, src + whole * 8, r->elem_size - whole * 8);
		atomic_store_explicit(&dst[whole], word, memory_order_relaxed);
	}
	atomic_store_explicit(&r->seq[slot], 2 * pos + 2, memory_order_release);
	atomic_store_explicit(&r->head, pos + 1, memory_order_release);
}

uint64_t gt_ring_head(const struct gt_ring *r)
{
	return atomic_load_explicit(&r->head, memory_order_acquire);
}

enum gt_ring_result gt_ring_read_at(const struct gt_ring *r, uint64_t pos,
                                    void *out)
{
	size_t slot = (size_t)(pos & (r->capacity - 1));
	uint64_t want = 2 * pos + 2;
	uint64_t before =
	    atomic_load_explicit(&r->seq[slot], memory_order_acquire);

	if (before < want)
		return GT_RING_EMPTY;
	if (before != want)
		return GT_RING_OVERWRITTEN;

	const _Atomic uint64_t *src = &r->data[slot * r->words];
	unsigned char *dst = out;
	size_t whole = r->elem_size / 8;
	for (size_t w = 0; w < whole; w++) {
		uint64_t word =
		    atomic_load_explicit(&src[w], memory_order_relaxed);
		memcpy(dst + w * 8, &word, 8);
	}
	if (whole < r->words) {
		uint64_t word =
		    atomic_load_explicit(&src[whole], memory_order_relaxed);
		memcpy(dst + whole * 8, &word, r->elem_size - whole * 8);
	}
	atomic_thread_fence(memory_order_acquire);
	uint64_t after =
	    atomic_load_explicit(&r->seq[slot], memory_order_relaxed);
	return after == want ? GT_RING_OK : GT_RING_OVERWRITTEN;
}

enum gt_ring_result gt_ring_read_latest(const struct gt_ring *r, void *out,
                                        uint64_t *pos_out)
{
	for (;;) {
		uint64_t head = gt_ring_head(r);
		if (head == 0)
			return GT_RING_EMPTY;
		if (gt_ring_read_at(r, head - 1, out) == GT_RING_OK) {
			if (pos_out)
				*pos_out = head - 1;
			return GT_RING_OK;
		}
		/* Lapped by a full ring's worth of writes while copying: the
		 * newer head is whole now, so try again. */
	}
}

enum gt_ring_result gt_ring_read_next(const struct gt_ring *r,
                                      struct gt_ring_cursor *cursor, void *out)
{
	for (;;) {
		uint64_t head = gt_ring_head(r);
		if (cursor->next >= head)
			return GT_RING_EMPTY;
		if (head - cursor->next > r->capacity) {
			uint64_t oldest = head - r->capacity;
			cursor->lost += oldest - cursor->next;
			cursor->next = oldest;
		}
		enum gt_ring_result res = gt_ring_read_at(r, cursor->next, out);
		if (res == GT_RING_OK) {
			cursor->next++;
			return GT_RING_OK;
		}
		/* Overwritten while we looked: the record is gone; count it
		 * and move on to the next one. */
		cursor->lost++;
		cursor->next++;
	}
}

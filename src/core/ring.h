/* SPDX-License-Identifier: MIT */
/*
 * ring.h - lock-free single-writer, multi-reader ring of fixed-size records
 * (device samples). The collector thread writes; the dashboard, the exporter
 * and the recorder read. Neither side ever waits for the other.
 *
 * Each slot is a sequence lock whose payload is stored in relaxed atomic
 * words, so a reader that races with the writer sees a changed sequence and
 * reports the record as overwritten instead of returning a torn copy, and
 * the program has no data race in the C11 sense (ThreadSanitizer-clean).
 */
#ifndef GPUTOP_RING_H
#define GPUTOP_RING_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct gt_ring {
	size_t capacity;       /* records, a power of two */
	size_t elem_size;      /* bytes of one record */
	size_t words;          /* 64-bit words of one record (rounded up) */
	_Atomic uint64_t head; /* records published since creation */
	_Atomic uint64_t
	    *seq; /* per slot: 2*pos+1 while writing, 2*pos+2 done */
	_Atomic uint64_t *data; /* capacity * words */
};

enum gt_ring_result {
	GT_RING_OK = 0,
	GT_RING_EMPTY,       /* record not written yet */
	GT_RING_OVERWRITTEN, /* the writer reused its slot: record lost */
};

/* capacity is rounded up to a power of two. 0, or -1 on ENOMEM/EINVAL. */
int gt_ring_init(struct gt_ring *r, size_t capacity, size_t elem_size);
void gt_ring_destroy(struct gt_ring *r);

/* Writer only. Never blocks. */
void gt_ring_push(struct gt_ring *r, const void *elem);

/* Number of records ever pushed; record n is number head-1. */
uint64_t gt_ring_head(const struct gt_ring *r);

/* Copies record number pos into out (elem_size bytes). */
enum gt_ring_result gt_ring_read_at(const struct gt_ring *r, uint64_t pos,
                                    void *out);

/* Copies the newest record; GT_RING_EMPTY if none yet. Retries internally
 * when the writer laps it, so it returns a whole record or nothing. */
enum gt_ring_result gt_ring_read_latest(const struct gt_ring *r, void *out,
                                        uint64_t *pos_out);

/* A reader's position for consuming every record in order. */
struct gt_ring_cursor {
	uint64_t next; /* next record number to read */
	uint64_t lost; /* records this reader missed because it fell behind */
};

/* Reads the next record. A reader that fell behind skips to the oldest
 * record still held and adds the skipped count to cursor->lost. */
enum gt_ring_result gt_ring_read_next(const struct gt_ring *r,
                                      struct gt_ring_cursor *cursor, void *out);

#endif

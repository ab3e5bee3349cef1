/* SPDX-License-Identifier: MIT */
/*
 * prochist.h - the bounded history of each GPU process (GPU %, VRAM, CPU
 * %), kept by the collector, one sample per process round, for the
 * dashboard's process detail view. A process is known by pid and start
 * time (a reused pid starts afresh); one on several GPUs gets one sample
 * a round with its GPU % and VRAM summed. A process not listed for
 * GT_PROCHIST_EXPIRE rounds is forgotten.
 *
 * Bounded: GT_PROCHIST_MAX processes of GT_PROCHIST_SAMPLES samples each
 * (sizeof(struct gt_prochist) is the whole store, allocated once); a new
 * process when all slots are live evicts the one seen least recently.
 * Thread-safe: the collector updates, any thread copies one process's
 * samples out (gt_prochist_get) under the store's lock.
 */
#ifndef GPUTOP_PROCHIST_H
#define GPUTOP_PROCHIST_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/model.h"

#define GT_PROCHIST_MAX     1024
#define GT_PROCHIST_SAMPLES 120 /* 4 min at the default 2 s round */
#define GT_PROCHIST_EXPIRE  5   /* rounds unseen before it is forgotten */

/* One round's values; a field is NaN-free: *_ok says it is known. */
struct gt_prochist_sample {
	uint64_t monotonic_ns;
	int64_t mem; /* bytes of VRAM, summed over its GPUs */
	int32_t gpu; /* cpercent, summed over its GPUs */
	int32_t cpu; /* cpercent of one core */
	uint8_t gpu_ok, mem_ok, cpu_ok;
};

struct gt_prochist_slot {
	int32_t pid;
	bool live;
	bool start_known;
	uint64_t start;
	uint64_t first_ns;    /* when gputop first saw it */
	uint64_t round;       /* the last round it was listed in */
	uint32_t head, count; /* ring: the newest is at head - 1 */
	struct gt_prochist_sample s[GT_PROCHIST_SAMPLES];
};

struct gt_prochist {
	pthread_mutex_t lock;
	uint64_t round;
	size_t live;
	int16_t index[2 * GT_PROCHIST_MAX]; /* open addressing by pid, -1 */
	struct gt_prochist_slot slot[GT_PROCHIST_MAX];
};

/* NULL on ENOMEM. */
struct gt_prochist *gt_prochist_new(void);
void gt_prochist_free(struct gt_prochist *h);

/* One process round: a sample for each process of procs[0..n) taken at
 * now_ns, then the processes unseen for GT_PROCHIST_EXPIRE rounds go. */
void gt_prochist_update(struct gt_prochist *h, const struct gt_process *procs,
                        size_t n, uint64_t now_ns);

/* Copies the samples of pid (with that start time when start_known),
 * oldest first, into out[0..max); returns how many (0: none known) and,
 * when first_ns is not NULL, when gputop first saw it. */
size_t gt_prochist_get(struct gt_prochist *h, int32_t pid, bool start_known,
                       uint64_t start, struct gt_prochist_sample *out,
                       size_t max, uint64_t *first_ns);

/* Processes tracked now (tests, diagnostics). */
size_t gt_prochist_count(struct gt_prochist *h);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * hash.h - a fast 64-bit hash of bytes for memo keys: "is this what was
 * drawn last time?". Eight bytes a step, so hashing a whole sample or a
 * device's static record costs well under a microsecond. Not for tables
 * an attacker fills, not stable across builds: keys live in memory only.
 */
#ifndef GT_CORE_HASH_H
#define GT_CORE_HASH_H

#include <stddef.h>
#include <stdint.h>

/* The seed every hash starts from. */
#define GT_HASH_SEED 0x243F6A8885A308D3ull

/* h with the n bytes at p mixed in. */
uint64_t gt_hash_bytes(uint64_t h, const void *p, size_t n);

/* h with the NUL-terminated string s mixed in (NULL as ""). */
uint64_t gt_hash_str(uint64_t h, const char *s);

/* h with the number v mixed in. */
static inline uint64_t gt_hash_u64(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0x9E3779B97F4A7C15ull;
	return h ^ (h >> 29);
}

#endif

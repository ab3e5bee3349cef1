/* SPDX-License-Identifier: MIT */
/*
 * hash.c - the memo-key hash (see hash.h): words of eight bytes, each
 * multiplied in and folded, then the tail and the length.
 */
#include "core/hash.h"

#include <string.h>

uint64_t gt_hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, b + i, sizeof(w));
		h = gt_hash_u64(h, w);
	}
	if (i < n) {
		uint64_t w = 0;
		memcpy(&w, b + i, n - i);
		h = gt_hash_u64(h, w);
	}
	return gt_hash_u64(h, (uint64_t)n);
}

uint64_t gt_hash_str(uint64_t h, const char *s)
{
	return gt_hash_bytes(h, s ? s : "", s ? strlen(s) : 0);
}

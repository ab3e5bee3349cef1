/* SPDX-License-Identifier: MIT */
/*
 * proctable_sort.c - the process table's numeric sort over precomputed
 * keys (see proctable_sort.h). The order is total (value, then pid, then
 * index), so any sort gives the same result, and a descending
 * sort is an ascending one of the values' complements (~v reverses the
 * order of int64_t values with no overflow), so the comparison needs no
 * context.
 */
#include "ui/proctable_sort.h"

#include <stdlib.h>

/* True when key a shows above key b (values already complemented when
 * the sort is descending). */
static inline bool key_less(const struct gt_proctable_key *a,
                            const struct gt_proctable_key *b)
{
	if (a->ok != b->ok)
		return a->ok;
	if (a->ok && a->v != b->v)
		return a->v < b->v;
	if (a->pid != b->pid)
		return a->pid < b->pid;
	return a->idx < b->idx;
}

static int key_cmp(const void *pa, const void *pb)
{
	const struct gt_proctable_key *a = pa, *b = pb;
	return key_less(a, b) ? -1 : key_less(b, a) ? 1 : 0;
}

/* Runs this long are sorted by insertion before they are merged. */
enum { RUN = 16 };

static void insertion_sort(struct gt_proctable_key *k, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct gt_proctable_key x = k[i];
		size_t j = i;
		for (; j > 0 && key_less(&x, &k[j - 1]); j--)
			k[j] = k[j - 1];
		k[j] = x;
	}
}

/* Bottom-up merge sort through tmp (n keys): the comparison inline, where
 * qsort calls it through a pointer; it was most of a frame's sort. */
static void merge_sort(struct gt_proctable_key *k, struct gt_proctable_key *tmp,
                       size_t n)
{
	for (size_t i = 0; i < n; i += RUN)
		insertion_sort(k + i, n - i < RUN ? n - i : RUN);
	struct gt_proctable_key *from = k, *to = tmp;
	for (size_t w = RUN; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n;
			size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t a = lo, b = mid, o = lo;
			while (a < mid && b < hi)
				to[o++] = key_less(&from[b], &from[a])
				              ? from[b++]
				              : from[a++];
			while (a < mid)
				to[o++] = from[a++];
			while (b < hi)
				to[o++] = from[b++];
		}
		struct gt_proctable_key *t = from;
		from = to;
		to = t;
	}
	if (from != k)
		for (size_t i = 0; i < n; i++)
			k[i] = from[i];
}

void gt_proctable_sort_keys(struct gt_proctable_key *k, size_t n, bool desc)
{
	if (n < 2)
		return;
	if (desc)
		for (size_t i = 0; i < n; i++)
			k[i].v = ~k[i].v;
	struct gt_proctable_key *tmp = malloc(n * sizeof(*tmp));
	if (tmp)
		merge_sort(k, tmp, n);
	else /* no memory for the merge: in place, slower */
		qsort(k, n, sizeof(*k), key_cmp);
	free(tmp);
	if (desc)
		for (size_t i = 0; i < n; i++)
			k[i].v = ~k[i].v;
}

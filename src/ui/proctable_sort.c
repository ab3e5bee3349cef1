/* SPDX-License-Identifier: MIT */
/*
 * proctable_sort.c - the process table's numeric sort over precomputed
 * keys (see proctable_sort.h). The order is total (value, then pid, then
 * index), so qsort gives the same result on every libc, and a descending
 * sort is an ascending one of the values' complements (~v reverses the
 * order of int64_t values with no overflow), so the comparison needs no
 * context.
 */
#include "ui/proctable_sort.h"

#include <stdlib.h>

/* < 0 when key a shows above key b (values already complemented when the
 * sort is descending). */
static int key_cmp(const void *pa, const void *pb)
{
	const struct gt_proctable_key *a = pa, *b = pb;

	if (a->ok != b->ok)
		return a->ok ? -1 : 1;
	if (a->ok && a->v != b->v)
		return a->v < b->v ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return (a->idx > b->idx) - (a->idx < b->idx);
}

void gt_proctable_sort_keys(struct gt_proctable_key *k, size_t n, bool desc)
{
	if (n < 2)
		return;
	if (desc)
		for (size_t i = 0; i < n; i++)
			k[i].v = ~k[i].v;
	qsort(k, n, sizeof(*k), key_cmp);
	if (desc)
		for (size_t i = 0; i < n; i++)
			k[i].v = ~k[i].v;
}

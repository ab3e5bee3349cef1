/* SPDX-License-Identifier: MIT */
/*
 * proctable_sort.h - the process table's sort by a numeric column over
 * keys read once per row (proctable.c fills them), so a frame's sort of
 * hundreds of rows compares plain numbers instead of reading each
 * process's field on every comparison.
 */
#ifndef GPUTOP_PROCTABLE_SORT_H
#define GPUTOP_PROCTABLE_SORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One row's sort key: its value (ok false: N/A), its pid, and its index
 * in the process list. */
struct gt_proctable_key {
	int64_t v;
	int32_t pid;
	bool ok;
	size_t idx;
};

/* Sorts k[0..n) in place into the table's total order: rows with a value
 * first (N/A last whatever the direction), by value (largest first when
 * desc), then by pid, then by index, ascending. */
void gt_proctable_sort_keys(struct gt_proctable_key *k, size_t n, bool desc);

#endif

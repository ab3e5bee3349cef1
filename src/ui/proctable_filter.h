/* SPDX-License-Identifier: MIT */
/*
 * proctable_filter.h - which processes a text matches, for the process
 * table's filter (rows not matching are hidden) and its search (the
 * selection jumps to the next match, nothing is hidden): a substring,
 * case-insensitive (ASCII), or a POSIX extended regular expression,
 * case-insensitive, looked for in the user, name, command line, container
 * and the pid in decimal.
 */
#ifndef GPUTOP_UI_PROCTABLE_FILTER_H
#define GPUTOP_UI_PROCTABLE_FILTER_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/model.h"

struct gt_proctable_filter {
	bool active; /* false: matches everything */
	bool is_regex;
	char needle[128]; /* lower-case substring */
	regex_t re;
};

/* Prepares text (NULL or "" matches everything). An invalid regex writes
 * the reason into err (may be NULL) and leaves the filter inactive;
 * returns -1 then, else 0. Release with gt_proctable_filter_free. */
int gt_proctable_filter_init(struct gt_proctable_filter *tf, const char *text,
                             bool is_regex, char *err, size_t errlen);
void gt_proctable_filter_free(struct gt_proctable_filter *tf);
bool gt_proctable_filter_match(const struct gt_proctable_filter *tf,
                               const struct gt_process *p);

/* The first row at or after `from` (wrapping around) of the view
 * order[0..count) whose process contains text (substring rules); -1 when
 * none does or text is empty. */
int gt_proctable_filter_search(const struct gt_process *procs,
                               const size_t *order, size_t count, int from,
                               const char *text);

#endif

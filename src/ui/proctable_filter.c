/* SPDX-License-Identifier: MIT */
/*
 * proctable_filter.c - the process table's text matching (see
 * proctable_filter.h), shared by its filter and its search.
 */
#include "ui/proctable_filter.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int lower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

/* needle is already lower-case. */
static bool contains_ci(const char *hay, const char *needle)
{
	if (!hay)
		return false;
	for (; *hay; hay++) {
		size_t i = 0;
		while (needle[i] && lower((unsigned char)hay[i]) == needle[i])
			i++;
		if (!needle[i])
			return true;
	}
	return false;
}

int gt_proctable_filter_init(struct gt_proctable_filter *tf, const char *text,
                             bool is_regex, char *err, size_t errlen)
{
	memset(tf, 0, sizeof(*tf));
	if (err && errlen)
		err[0] = '\0';
	if (!text || !text[0])
		return 0;
	tf->active = true;
	tf->is_regex = is_regex;
	if (is_regex) {
		int rc = regcomp(&tf->re, text,
		                 REG_EXTENDED | REG_ICASE | REG_NOSUB);
		if (rc != 0) {
			char why[128];
			regerror(rc, &tf->re, why, sizeof(why));
			if (err && errlen)
				snprintf(err, errlen,
				         "invalid regular expression: %s", why);
			tf->active = false; /* show everything */
			return -1;
		}
		return 0;
	}
	size_t i = 0;
	for (; text[i] && i + 1 < sizeof(tf->needle); i++)
		tf->needle[i] = (char)lower((unsigned char)text[i]);
	tf->needle[i] = '\0';
	return 0;
}

void gt_proctable_filter_free(struct gt_proctable_filter *tf)
{
	if (tf->active && tf->is_regex)
		regfree(&tf->re);
	tf->active = false;
}

bool gt_proctable_filter_match(const struct gt_proctable_filter *tf,
                               const struct gt_process *p)
{
	char pid[16];
	const char *fields[5] = {p->user, p->name, p->cmdline, p->container,
	                         pid};

	if (!tf->active)
		return true;
	snprintf(pid, sizeof(pid), "%" PRId32, p->pid);
	for (size_t i = 0; i < 5; i++) {
		if (!fields[i])
			continue;
		if (tf->is_regex ? regexec(&tf->re, fields[i], 0, NULL, 0) == 0
		                 : contains_ci(fields[i], tf->needle))
			return true;
	}
	return false;
}

int gt_proctable_filter_search(const struct gt_process *procs,
                               const size_t *order, size_t count, int from,
                               const char *text)
{
	struct gt_proctable_filter tf;
	int found = -1;

	if (!procs || count == 0 || !text || !text[0] ||
	    count > (size_t)INT32_MAX)
		return -1;
	gt_proctable_filter_init(&tf, text, false, NULL, 0);
	if (from < 0 || (size_t)from >= count)
		from = 0;
	for (size_t k = 0; k < count && found < 0; k++) {
		size_t r = ((size_t)from + k) % count;
		if (gt_proctable_filter_match(&tf, &procs[order[r]]))
			found = (int)r;
	}
	gt_proctable_filter_free(&tf);
	return found;
}

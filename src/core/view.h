/* SPDX-License-Identifier: MIT */
/*
 * view.h - a reader's consistent view of what the collector published: the
 * device facts, the newest sample of each device and the process list.
 * Readers (snapshot, live view, dashboard) use this and never a backend.
 */
#ifndef GPUTOP_VIEW_H
#define GPUTOP_VIEW_H

#include <stddef.h>

#include "core/collector.h"

struct gt_view {
	struct gt_collector *collector;  /* borrowed */
	int dev_slot, proc_slot;         /* gt_pub reader slots */
	const struct gt_devlist *devs;   /* borrowed from the collector */
	const struct gt_proclist *procs; /* may be NULL before a round */
	struct gt_sample *latest;        /* owned: devs->count entries */
	size_t nlatest;
};

/* 0, or -1 when no reader slot or memory is left. */
int gt_view_open(struct gt_view *v, struct gt_collector *c);
/* Drops the previous borrow and takes the newest published data. */
int gt_view_refresh(struct gt_view *v);
void gt_view_close(struct gt_view *v);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * view.c - reader-side snapshot of collector output (see view.h).
 */
#include "core/view.h"

#include <stdlib.h>
#include <string.h>

int gt_view_open(struct gt_view *v, struct gt_collector *c)
{
	memset(v, 0, sizeof(*v));
	v->collector = c;
	v->dev_slot = gt_pub_reader_open(gt_collector_devlist(c));
	v->proc_slot = gt_pub_reader_open(gt_collector_proclist(c));
	if (v->dev_slot < 0 || v->proc_slot < 0) {
		gt_view_close(v);
		return -1;
	}
	return gt_view_refresh(v);
}

int gt_view_refresh(struct gt_view *v)
{
	struct gt_collector *c = v->collector;

	struct gt_pub *devlist = gt_collector_devlist(c);
	struct gt_pub *proclist = gt_collector_proclist(c);

	gt_pub_release(devlist, v->dev_slot);
	gt_pub_release(proclist, v->proc_slot);
	v->devs = gt_pub_acquire(devlist, v->dev_slot);
	v->procs = gt_pub_acquire(proclist, v->proc_slot);

	size_t n = v->devs ? v->devs->count : 0;
	if (n > v->nlatest) {
		struct gt_sample *s = realloc(v->latest, n * sizeof(*s));
		if (!s)
			return -1;
		v->latest = s;
		v->nlatest = n;
	}
	for (size_t i = 0; i < n && i < gt_collector_device_count(c); i++)
		if (gt_ring_read_latest(gt_collector_ring(c, i), &v->latest[i],
		                        NULL) != GT_RING_OK)
			gt_sample_init(&v->latest[i]);
	return 0;
}

void gt_view_close(struct gt_view *v)
{
	struct gt_collector *c = v->collector;
	if (c && v->dev_slot >= 0)
		gt_pub_reader_close(gt_collector_devlist(c), v->dev_slot);
	if (c && v->proc_slot >= 0)
		gt_pub_reader_close(gt_collector_proclist(c), v->proc_slot);
	free(v->latest);
	memset(v, 0, sizeof(*v));
	v->dev_slot = v->proc_slot = -1;
}

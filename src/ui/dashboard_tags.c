/* SPDX-License-Identifier: MIT */
/*
 * dashboard_tags.c - tagged processes (htop's Space, c, U): the tags kept
 * by pid and start time through re-sorts and new rounds, their mark in
 * the table, and the signal dialog's tagged set: each tagged process
 * bound when the dialog opens (as a single target is, start time
 * included), all of them named before the confirmation, and the signal
 * sent to each that is still the same process.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/text.h"
#include "ui/dashboard_priv.h"

static int tag_index(const struct gt_dashboard *d, int32_t pid)
{
	for (int i = 0; i < d->ntags; i++)
		if (d->tags[i].pid == pid)
			return i;
	return -1;
}

bool gt_dashboard_tagged(const struct gt_dashboard *d, int32_t pid)
{
	return tag_index(d, pid) >= 0;
}

static bool tag_add(struct gt_dashboard *d, const struct gt_process *p)
{
	if (tag_index(d, p->pid) >= 0)
		return true;
	if (d->ntags == GT_DASHBOARD_MAX_TAGS)
		return false;
	d->tags[d->ntags].pid = p->pid;
	d->tags[d->ntags].start_known = p->start_known;
	d->tags[d->ntags].start = p->start;
	d->ntags++;
	return true;
}

static void tag_remove(struct gt_dashboard *d, int i)
{
	d->tags[i] = d->tags[--d->ntags];
}

static void tags_notice(struct gt_dashboard *d, bool full)
{
	char msg[96];
	snprintf(msg, sizeof(msg), "%d tagged%s (U untags all)", d->ntags,
	         full ? "; no more can be" : "");
	gt_dashboard_notice(d, msg);
}

void gt_dashboard_tag_toggle(struct gt_dashboard *d)
{
	const struct gt_process *p = gt_dashboard_selected_process(d);
	if (!p) {
		gt_dashboard_notice(d, "no process selected");
		return;
	}
	int i = tag_index(d, p->pid);
	bool full = false;
	if (i >= 0)
		tag_remove(d, i);
	else
		full = !tag_add(d, p);
	tags_notice(d, full);
}

/* True when q descends from p: p's pid is in q's ancestry. */
static bool descends(const struct gt_process *q, int32_t pid)
{
	for (int k = 0; k < GT_PROC_ANCESTRY && q->ancestry[k] > 0; k++)
		if (q->ancestry[k] == pid)
			return true;
	return false;
}

void gt_dashboard_tag_children(struct gt_dashboard *d)
{
	const struct gt_process *p = gt_dashboard_selected_process(d);
	const struct gt_proclist *pl = d->view.procs;
	bool full = false;

	if (!p || !pl) {
		gt_dashboard_notice(d, "no process selected");
		return;
	}
	full = !tag_add(d, p);
	for (size_t i = 0; pl && i < pl->count && !full; i++) {
		const struct gt_process *q = &pl->items[i];
		/* A descendant younger than p: not a reused pid's child. */
		if (descends(q, p->pid) &&
		    !(q->start_known && p->start_known && q->start < p->start))
			full = !tag_add(d, q);
	}
	tags_notice(d, full);
}

void gt_dashboard_untag_all(struct gt_dashboard *d)
{
	d->ntags = 0;
	gt_dashboard_notice(d, "no process tagged");
}

void gt_dashboard_tags_prune(struct gt_dashboard *d)
{
	const struct gt_proclist *pl = d->view.procs;
	if (!pl)
		return;
	for (int i = d->ntags; i-- > 0;) {
		bool same = false;
		for (size_t k = 0; k < pl->count && !same; k++) {
			const struct gt_process *p = &pl->items[k];
			same = p->pid == d->tags[i].pid &&
			       (!p->start_known || !d->tags[i].start_known ||
			        p->start == d->tags[i].start);
		}
		if (!same) /* gone, or its pid now another process's */
			tag_remove(d, i);
	}
}

int gt_dashboard_tags_bind(struct gt_dashboard *d)
{
	const struct gt_proclist *pl = d->view.procs;
	char name[GT_COMM_LEN * 4];

	gt_dashboard_tags_release(d);
	gt_dashboard_tags_prune(d);
	for (int i = 0; pl && i < d->ntags; i++) {
		for (size_t k = 0; k < pl->count; k++) {
			const struct gt_process *p = &pl->items[k];
			if (p->pid != d->tags[i].pid)
				continue;
			struct gt_sigtarget *t = &d->sigset[d->nsigset];
			gt_sigtarget_bind(t, p);
			gt_text_escape(name, sizeof(name), p->name,
			               strlen(p->name));
			snprintf(d->sigset_text[d->nsigset],
			         sizeof(d->sigset_text[0]),
			         "  %" PRId32 " (%.60s)", p->pid,
			         name[0] ? name : "name N/A");
			d->sigset_lines[d->nsigset] =
			    d->sigset_text[d->nsigset];
			d->nsigset++;
			break;
		}
	}
	return d->nsigset;
}

void gt_dashboard_tags_release(struct gt_dashboard *d)
{
	for (int i = 0; i < d->nsigset; i++)
		gt_sigtarget_release(&d->sigset[i]);
	d->nsigset = 0;
}

void gt_dashboard_tags_send(struct gt_dashboard *d, int sig)
{
	const struct gt_proclist *pl = d->view.procs;
	char one[256], failed[256] = "";
	int sent = 0, n = d->nsigset;

	for (int i = 0; i < n; i++) {
		if (gt_sigtarget_send(&d->sigset[i], sig, pl ? pl->items : NULL,
		                      pl ? pl->count : 0, one,
		                      sizeof(one)) == 0)
			sent++;
		else if (!failed[0])
			gt_copy_str(failed, sizeof(failed), one);
	}
	gt_dashboard_tags_release(d);
	char nbuf[12], msg[400];
	snprintf(msg, sizeof(msg), "sent %s to %d of %d tagged%s%s",
	         gt_proctable_signal_name(sig, nbuf, sizeof(nbuf)), sent, n,
	         failed[0] ? "; " : "", failed);
	gt_dashboard_notice(d, msg);
}

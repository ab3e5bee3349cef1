/* SPDX-License-Identifier: MIT */
/*
 * sigtarget.h - owns the process a signal dialog is about: bound when the
 * dialog opens (pid, its start time, a pidfd where the kernel has them), so
 * that the signal confirmed later goes to that process and no other, even
 * when the table's rows have moved, the process has exited, or its pid has
 * been given to a new process in the meantime.
 */
#ifndef GPUTOP_UI_SIGTARGET_H
#define GPUTOP_UI_SIGTARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/model.h"

struct gt_sigtarget {
	bool bound;
	int32_t pid;
	bool start_known;
	uint64_t start; /* field 22 of /proc/PID/stat: a reused pid differs */
	int pidfd;      /* -1: none (no such process here, or an old kernel) */
	/* A copy of the row for the confirmation text; cmdline is NULL
	 * since the list that owns it may be freed before the answer. */
	struct gt_process row;
};

enum gt_sigtarget_state {
	GT_SIGTARGET_SAME,    /* still listed, same start time: send */
	GT_SIGTARGET_GONE,    /* no longer in the process list */
	GT_SIGTARGET_CHANGED, /* the pid now belongs to another process */
};

/* A target that is not bound (pidfd -1). */
void gt_sigtarget_init(struct gt_sigtarget *t);

/* Binds the process of row p (releases an earlier binding first). Reads
 * the start time from the live /proc, the pid namespace kill() acts in. */
void gt_sigtarget_bind(struct gt_sigtarget *t, const struct gt_process *p);

/* Closes the pidfd and forgets the process. Safe on an unbound target. */
void gt_sigtarget_release(struct gt_sigtarget *t);

/* Start time (field 22) from the text of /proc/PID/stat; the comm between
 * the first '(' and the last ')' may hold spaces and parentheses. false
 * when the text is malformed. */
bool gt_sigtarget_parse_start(const char *stat, uint64_t *start);

/*
 * Pure: is the bound process still the one the user chose? procs is the
 * current process list (all rows, not only those a filter shows);
 * start_known/start describe /proc/PID/stat now. GONE when the pid is not
 * listed, or its stat has gone while its start time was known at bind time;
 * CHANGED when the start time at bind time differs from the one now, or
 * from the one the row was read with (the pid changed hands between the
 * process scan and the dialog).
 */
enum gt_sigtarget_state gt_sigtarget_check(const struct gt_sigtarget *t,
                                           const struct gt_process *procs,
                                           size_t n, bool start_known,
                                           uint64_t start);

/*
 * Checks the target against procs and the live /proc, then sends sig to
 * the bound process (through its pidfd when there is one, so a pid reused
 * after the check is never hit), and writes what happened into msg.
 * Returns 0 when the signal was sent, -1 when nothing was sent.
 */
int gt_sigtarget_send(struct gt_sigtarget *t, int sig,
                      const struct gt_process *procs, size_t n, char *msg,
                      size_t len);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * bounded.h - a call that may never return (a hardware write into a driver
 * that hangs), run on a thread of its own so that its caller waits for it
 * only as long as it chooses: until a deadline, or until a stop it is
 * told of, and then leaves it behind. Every control write of gputop goes
 * through it (control_session.h's jobs): the dashboard's dialogs, the
 * software fan loops, `--apply` and `--restore`.
 */
#ifndef GPUTOP_BOUNDED_H
#define GPUTOP_BOUNDED_H

#include <stdbool.h>
#include <stdint.h>

/* How long gputop waits for the driver to answer one write (or a restore)
 * before it gives up on it: a second less than the restore guardian's
 * patience without a heartbeat (GT_GUARDIAN_TIMEOUT_NS, which a stuck
 * write also stops), so that gputop says why before the guardian acts. */
#define GT_BOUNDED_WRITE_TIMEOUT_NS 4000000000ull
/* After a stop: how much longer a call in progress may take to finish by
 * itself (the usual write takes milliseconds) before it is left behind. */
#define GT_BOUNDED_STOP_GRACE_NS 500000000ull

struct gt_bounded; /* opaque */

typedef void gt_bounded_fn(void *arg);
/* Whether the caller was asked to stop (checked 20 times a second). */
typedef bool gt_bounded_stop_fn(void *ctx);

/* Starts fn(arg) on a thread of its own (all signals blocked there). arg
 * stays the caller's until gt_bounded_abandon. NULL when no thread can be
 * made (or no memory): the caller then runs fn itself. */
struct gt_bounded *gt_bounded_start(gt_bounded_fn *fn, void *arg);
/* Waits until fn has returned or deadline_ns (monotonic) has passed; once
 * stop(ctx) says so, at most GT_BOUNDED_STOP_GRACE_NS more. stop may be
 * NULL. True when fn has returned. */
bool gt_bounded_wait(struct gt_bounded *b, uint64_t deadline_ns,
                     gt_bounded_stop_fn *stop, void *ctx);
/* True when fn has returned; never waits. */
bool gt_bounded_done(struct gt_bounded *b);
/* After fn has returned: joins its thread and frees b (not arg). */
void gt_bounded_free(struct gt_bounded *b);
/* Gives up on a call that has not returned: its thread is left to finish
 * by itself and then calls release(arg) and frees b; release may be NULL.
 * If fn has returned after all, this is gt_bounded_free (arg stays the
 * caller's, release is not called) and it returns true. */
bool gt_bounded_abandon(struct gt_bounded *b, void (*release)(void *arg));

/* The whole: fn(arg) within timeout_ns (and the stop rule above). 0 when
 * it returned; -1 when it has not (then it is abandoned with release).
 * Without a thread, fn runs on the caller's, unbounded. */
int gt_bounded_run(gt_bounded_fn *fn, void *arg, void (*release)(void *arg),
                   uint64_t timeout_ns, gt_bounded_stop_fn *stop, void *ctx);

#endif

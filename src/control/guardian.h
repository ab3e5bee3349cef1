/* SPDX-License-Identifier: MIT */
/*
 * guardian.h - the restore guardian: a small process forked the first time
 * gputop takes manual control. It holds the restore journal (restore.h) and
 * puts the original settings back when gputop cannot: when its end of the
 * connection closes (gputop died, even by SIGKILL) or when the fan loop's
 * heartbeat stops for longer than the timeout (gputop hung or was stopped).
 * When gputop restores by itself it says "done" and the guardian leaves
 * without touching anything.
 *
 * Protocol. gputop and the guardian share one AF_UNIX stream socketpair (a
 * pipe that also lets gputop send with MSG_NOSIGNAL, so a dead guardian
 * cannot kill gputop with SIGPIPE). Every message is a 5-byte header, a
 * type byte and the payload length as a 32-bit little-endian number, then
 * the payload:
 *
 *   gputop -> guardian
 *     'J' len  journal text (gt_restore_format), replaces the one held
 *     'H' 0    heartbeat from the fan loop: restarts the hang timer
 *     'D' 0    done: gputop restored by itself; exit without acting
 *   guardian -> gputop (once, during gt_guardian_start)
 *     'R' 0    set up (restore ops built): the guardian is armed
 *     'E' len  set-up failed, with the reason; the guardian exits
 *
 * The guardian reassembles messages across partial reads. The first
 * journal is inherited through fork (no message). Only a complete 'H'
 * restarts the timer. A malformed message (unknown type, bad length, a
 * journal that does not parse) is taken as a sign that gputop is broken:
 * the guardian restores with the last good journal and exits, as it does on
 * EOF (a half-received message is dropped), on the timeout and on SIGTERM.
 * SIGINT, SIGHUP, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU and SIGPIPE are
 * ignored: Ctrl-C in the terminal or a closed SSH session must not kill it
 * before it has restored. The restore report (gt_restore_apply's lines
 * after one header line) is appended to the log path, or stderr.
 *
 * Exit status: GT_GUARDIAN_EXIT_* below.
 */
#ifndef GPUTOP_GUARDIAN_H
#define GPUTOP_GUARDIAN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "control/restore.h"

#define GT_GUARDIAN_EXIT_DONE     0  /* "done": nothing touched */
#define GT_GUARDIAN_EXIT_RESTORED 10 /* restored, every action ok */
#define GT_GUARDIAN_EXIT_FAILED   11 /* restored, some actions failed */
#define GT_GUARDIAN_EXIT_SETUP    12 /* could not set itself up */

/* The default hang timeout of the issue: 5 s without a heartbeat. */
#define GT_GUARDIAN_TIMEOUT_NS 5000000000ull
/* How long the guardian waits for the driver to finish its restore (every
 * setting together) before it logs that it could not tell and exits
 * GT_GUARDIAN_EXIT_FAILED, leaving the state file for --restore. */
#define GT_GUARDIAN_RESTORE_TIMEOUT_NS 20000000000ull

struct gt_guardian; /* gputop's handle */

/* Builds the restore ops IN THE GUARDIAN, after fork: a library such as
 * NVML must be initialised afresh there (its state in gputop does not
 * survive fork). 0, or -1 with the reason in err (sent back to
 * gt_guardian_start). The factory runs in a copy of a possibly
 * multithreaded process: it must not depend on a lock another gputop
 * thread could have held at fork time (glibc's malloc and stdio are safe).
 * ctx and what it points to are the guardian's copy of gputop's memory. */
typedef int (*gt_guardian_ops_factory)(void *ctx, struct gt_restore_ops *ops,
                                       char *err, size_t len);

/* Forks the guardian holding a copy of j (its sysfs root is kept for every
 * later journal) and waits until it is armed ('R'), at most 10 s. The
 * guardian closes every descriptor but its socket and stderr (0 and 1
 * become /dev/null), resets inherited signal handlers, and is named
 * "gputop-guard". timeout_ns: the hang timeout (at least 1 ms). log_path:
 * where the restore report is appended (created 0600); NULL: stderr.
 * 0, or -1 with err (the factory's reason, a refused journal, fork). */
int gt_guardian_start(struct gt_guardian **out,
                      const struct gt_restore_journal *j, uint64_t timeout_ns,
                      gt_guardian_ops_factory make_ops, void *factory_ctx,
                      const char *log_path, char *err, size_t len);

/* Sends the new journal (call after each newly noted setting, before
 * writing it). 0 once the whole message is in the socket: from then on the
 * guardian gets it even if gputop is killed the next instant. -1 with
 * errno: EINVAL (refused journal, another sysfs root), ETIMEDOUT (the
 * guardian did not take it within 2 s; the rest is sent by later calls),
 * EPIPE (the guardian is gone: it has restored, see below). */
int gt_guardian_update(struct gt_guardian *g,
                       const struct gt_restore_journal *j);

/* The fan loop calls it every tick. Never blocks: a full socket means the
 * guardian is slow, not gputop's problem (nothing is queued then), and a
 * concurrent update is not waited for. 0, or -1 with errno EPIPE when the
 * guardian is gone (it has timed out or been killed, and has restored):
 * gputop must then treat its settings as reverted. */
int gt_guardian_heartbeat(struct gt_guardian *g);

/* "done": gputop has restored by itself. Sends 'D', closes the socket and
 * reaps the guardian (it is killed if it has not left within 2 s; gputop
 * has restored, so that is harmless). Returns the guardian's exit status
 * (GT_GUARDIAN_EXIT_DONE, or _RESTORED/_FAILED if it had already acted),
 * or -1 if it could not be reaped. Call once; then gt_guardian_free. */
int gt_guardian_finish(struct gt_guardian *g);

/* Frees the handle. Without gt_guardian_finish this closes the socket, so
 * the guardian restores as if gputop had died; it is reaped if it has
 * already left, else left to finish (waitpid on gt_guardian_pid). */
void gt_guardian_free(struct gt_guardian *g);

pid_t gt_guardian_pid(const struct gt_guardian *g);

#endif

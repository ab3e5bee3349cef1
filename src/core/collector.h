/* SPDX-License-Identifier: MIT */
/*
 * collector.h - the one thread that samples every backend on a schedule and
 * publishes the results: per-device sample rings, the device facts list and
 * the process list. Readers (dashboard, snapshot, exporter) only read these;
 * they never call a backend, so a slow driver cannot freeze them.
 */
#ifndef GPUTOP_COLLECTOR_H
#define GPUTOP_COLLECTOR_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/backend.h"
#include "core/clock.h"
#include "core/model.h"
#include "core/platform.h"
#include "core/prochist.h"
#include "core/publish.h"
#include "core/ring.h"

#define GT_RING_SAMPLES        1024 /* per device: 17 minutes at 1 s */
#define GT_MAX_BACKENDS        8
#define GT_INTERVAL_MIN_NS     100000000ull /* 0.1 s */
#define GT_INTERVAL_DEFAULT_NS 1000000000ull
/* A lost device is asked again this often (it may come back, e.g. after a
 * GPU reset); at most one try per tick. The "e" explanation (model.c), the
 * README and the man page say "every 3 s". */
#define GT_LOST_RETRY_NS 3000000000ull

struct gt_collector_config {
	/* The backends and host readers to use (required): the front ends
	 * pass gt_registry_platform (collectors/registry.h); a test may pass
	 * its own. Borrowed: it must outlive the collector. */
	const struct gt_platform *platform;
	struct gt_backend_options backend;
	bool demo;                 /* only the demo backend */
	uint64_t interval_ns;      /* fast metrics */
	uint64_t proc_interval_ns; /* process lists; 0 = 2 * interval, >= 1 s */
	uint64_t slow_interval_ns; /* costly calls; 0 = 5 * interval, >= 5 s */
	/* Rounds on the wall clock's grid (gt_collector_align): for a screen
	 * with a clock. Off, they keep the pace of the first round (a
	 * snapshot's second round comes one interval after its first). */
	bool align_to_wall;
};

/* Where a round starts after the wall clock's second turns, or a whole
 * interval within it, when rounds are aligned: a frame drawn on the round
 * then shows the new second, and the screen's clock needs no wake-up of
 * its own. Long enough for time()'s coarse clock, which turns up to a
 * scheduler tick (1-10 ms) after the precise one. */
#define GT_COLLECTOR_PHASE_NS 20000000ull

/* The round due at due_ns (monotonic) moved to the nearest point of the
 * wall clock's grid for interval iv: each whole second plus
 * GT_COLLECTOR_PHASE_NS, and the multiples of iv after it when iv divides
 * a second. mono_now and wall_now are the two clocks read together. An
 * interval that neither divides a second nor is a multiple of one keeps
 * due_ns. The move is at most half the grid's step, so no interval
 * becomes shorter than half or longer than one and a half of iv. */
uint64_t gt_collector_align(uint64_t due_ns, uint64_t mono_now,
                            uint64_t wall_now, uint64_t iv);

/* Published, immutable: the static facts of every device. */
struct gt_devlist {
	uint64_t generation; /* bumps when any device's facts change */
	size_t count;
	struct gt_static items[];
};

/* Published, immutable: every GPU process of one process round. */
struct gt_proclist {
	uint64_t seq;
	uint64_t monotonic_ns;
	size_t count;
	struct gt_process *items; /* owned, cmdlines too */
	size_t unreadable; /* processes whose GPU use could not be read */
	/* The MIG instances of the devices in MIG mode, by device (owned). */
	struct gt_mig_instance *mig;
	size_t mig_count;
};

struct gt_collector; /* opaque: read it through the accessors below */

/* Runs on the collector thread after each tick's samples are in the rings:
 * the control session's fan loops and its guardian heartbeat live here, so
 * they act on the same readings the screen shows and stop when sampling
 * stops (a hung collector is what the guardian must notice). */
typedef void (*gt_tick_hook_fn)(void *ctx, struct gt_collector *c,
                                uint64_t now_ns);

/* Probes every backend and reads device facts. Returns NULL only on ENOMEM
 * (or without cfg->platform);
 * a machine without GPUs gives a collector with zero devices whose backends
 * say why. */
struct gt_collector *gt_collector_open(const struct gt_collector_config *cfg);
void gt_collector_close(struct gt_collector *c); /* stops the thread too */

enum gt_tick_what {
	GT_TICK_SCHEDULED = 0, /* processes and slow calls when due */
	GT_TICK_ALL = 1,       /* everything now (one-shot commands) */
};

/* One round on the calling thread. Not to be mixed with a running thread. */
void gt_collector_tick(struct gt_collector *c, enum gt_tick_what what);

int gt_collector_start(struct gt_collector *c); /* 0, or an errno value */
/* Stops the thread: the tick in progress skips its remaining devices and
 * processes. A thread still stuck in a driver call after 0.5 s is left
 * behind (gt_collector_abandoned; its tick hook removed first, unless the
 * hook itself is what runs, which is waited for): the caller is ending,
 * and gt_collector_close then frees nothing. */
void gt_collector_stop(struct gt_collector *c);
bool gt_collector_abandoned(const struct gt_collector *c);
/* True from gt_collector_stop on (any thread; the tick hook watches it to
 * give up waiting for a driver). */
bool gt_collector_stopping(const struct gt_collector *c);
void gt_collector_set_interval(struct gt_collector *c, uint64_t interval_ns);
/* The sampling interval in force now (it changes with
 * gt_collector_set_interval). */
uint64_t gt_collector_interval(const struct gt_collector *c);
/* The last finished round: when it ended (monotonic ns) and how long it
 * took; false before the first round. */
bool gt_collector_last_round(const struct gt_collector *c, uint64_t *end_ns,
                             uint64_t *took_ns);
/* Installs (fn) or removes (NULL) the tick hook; safe while running: once
 * this returns, a removed hook is not running and will not run again. The
 * hook runs without the lock gt_collector_stop takes: one that waits for a
 * driver must watch gt_collector_stopping and return soon after it. */
void gt_collector_set_hook(struct gt_collector *c, gt_tick_hook_fn fn,
                           void *ctx);
/* Waits for the tick in progress and holds off the next one until
 * gt_collector_resume: no collector call into a driver library is in
 * flight in between (a child forked then inherits no lock held halfway
 * through a call). Callers must not hold locks the tick hook takes. */
void gt_collector_quiesce(struct gt_collector *c);
void gt_collector_resume(struct gt_collector *c);
/* Waits until the collector has finished at least one round, for at most
 * timeout_ns; true if it has. The dashboard waits a moment so its first
 * frame has numbers, but never for a driver that hangs. */
bool gt_collector_wait_first_tick(struct gt_collector *c, uint64_t timeout_ns);
/* A descriptor that polls readable (POLLIN) once a round has finished
 * since the last gt_collector_notify_clear, so a reader sleeps until there
 * is something new instead of waking on a timer; -1 when there is none
 * (the reader then has to poll on a timer). One reader. */
int gt_collector_notify_fd(const struct gt_collector *c);
/* Clears it; true when a round finished since the last clear. */
bool gt_collector_notify_clear(struct gt_collector *c);
/* Caps the sleep between ticks (0: no cap). */
void gt_collector_set_max_sleep(struct gt_collector *c, uint64_t ns);
/* The newest sample of device i; 0, or -1 when there is none yet. For the
 * tick hook (the collector thread) and other readers alike. */
int gt_collector_latest(const struct gt_collector *c, size_t i,
                        struct gt_sample *out);

/* ---- Reading the collector (any thread; what they return is the
 * collector's and lives as long as it). */

const struct gt_collector_config *
gt_collector_config(const struct gt_collector *c);
size_t gt_collector_device_count(const struct gt_collector *c);
/* Rounds finished so far; the samples of the last carry seq = rounds - 1. */
uint64_t gt_collector_rounds(const struct gt_collector *c);
/* The dashboard's figures, for the exporter beside it (--listen): each
 * whole frame drawn is counted with the CPU time its drawing took (its
 * thread's CPU clock). gt_collector_frames gives both totals; false when
 * no frame was drawn (no dashboard). */
void gt_collector_count_frame(struct gt_collector *c, uint64_t cpu_ns);
bool gt_collector_frames(const struct gt_collector *c, uint64_t *frames,
                         uint64_t *cpu_ns);
/* The backends in probe order; *n is set to how many. */
const struct gt_backend *gt_collector_backends(const struct gt_collector *c,
                                               size_t *n);
/* The backend that samples device dev; NULL when dev is out of range. */
const struct gt_backend *
gt_collector_device_backend(const struct gt_collector *c, size_t dev);
/* The driver's own words for an error code device dev's backend gave
 * (the backend's error_text, a pure lookup); NULL when it has none. */
const char *gt_collector_error_text(const struct gt_collector *c, size_t dev,
                                    int code);
/* Device dev's sample ring, for readers that keep history; NULL when dev
 * is out of range. */
const struct gt_ring *gt_collector_ring(const struct gt_collector *c,
                                        size_t dev);
/* Each process's history (GPU %, VRAM, CPU % per round), for a detail
 * view; NULL when there was no memory for it. */
struct gt_prochist *gt_collector_prochist(struct gt_collector *c);
/* The published device facts (const struct gt_devlist *) and process list
 * (const struct gt_proclist *), for gt_view. */
struct gt_pub *gt_collector_devlist(struct gt_collector *c);
struct gt_pub *gt_collector_proclist(struct gt_collector *c);

#endif

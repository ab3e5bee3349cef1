/* SPDX-License-Identifier: MIT */
/*
 * serve.h - the export front ends without the dashboard: `gputop serve`
 * (the HTTP endpoint, with --textfile too), --textfile alone and --json
 * (NDJSON). Each starts the collector and acts after every round it
 * publishes, until SIGINT/SIGTERM or --count.
 */
#ifndef GPUTOP_SERVE_H
#define GPUTOP_SERVE_H

#include <signal.h>

#include "cli.h"
#include "core/collector.h"

/* serve and --textfile. The collector is open (not started). */
int gt_serve_run(struct gt_collector *c, const struct gt_cli *cli,
                 volatile sig_atomic_t *stop);

/* --json: one compact snapshot per line from the second round on (its
 * rates need two), flushed per line. A reader that goes away (EPIPE) ends
 * it with status 0, like SIGINT; a line is never left half written. */
int gt_serve_json(struct gt_collector *c, const struct gt_cli *cli,
                  volatile sig_atomic_t *stop);

/* The HTTP endpoint beside the dashboard (--listen): NULL, with the
 * reason on stderr, when it cannot start. */
struct gt_http *gt_serve_http_start(struct gt_collector *c,
                                    const struct gt_cli *cli);

#endif

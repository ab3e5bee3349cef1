/* SPDX-License-Identifier: MIT */
/*
 * http.h - the read-only HTTP endpoint of `gputop serve` and --listen, on
 * libmicrohttpd: /metrics (metrics.h; OpenMetrics when the Accept header
 * asks for it, gzip when Accept-Encoding allows it), /api/v1/snapshot (the
 * --snapshot document of the newest round), /-/ready and /-/healthy. GET
 * and HEAD only. It reads what the collector published, never a backend,
 * and it cannot change anything. Bound to 127.0.0.1 unless told otherwise;
 * TLS and basic authentication from a --web-config file (webconfig.h).
 */
#ifndef GPUTOP_HTTP_H
#define GPUTOP_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include "core/collector.h"

/* Outside the 9100-9999 exporter range (full since 2023) and below the
 * Linux ephemeral ports; none of the GPU exporters' ports (9400, 9835). */
#define GT_HTTP_DEFAULT_PORT   29471
#define GT_HTTP_DEFAULT_LISTEN "127.0.0.1:29471"

/* Limits against misbehaving clients. */
#define GT_HTTP_MAX_CONNECTIONS 64
#define GT_HTTP_MAX_PER_IP      16
#define GT_HTTP_TIMEOUT_S       10
#define GT_HTTP_MEMORY_LIMIT    (32 * 1024) /* per connection: headers */

struct gt_http_config {
	const char *listen;      /* "ADDR:PORT" or "[V6]:PORT"; NULL: default */
	unsigned process_top;    /* per-process series per GPU; 0 = none */
	const char *procfs_root; /* host facts of the snapshot, read once */
	const char *web_config;  /* --web-config FILE; NULL: plain, open */
};

struct gt_http;

/* Binds and starts serving on its own thread. NULL with a message in err
 * naming the cause and the fix (address in use, not an address, ...). */
struct gt_http *gt_http_start(struct gt_collector *c,
                              const struct gt_http_config *cfg, char *err,
                              size_t errlen);
/* The address it listens on ("127.0.0.1:29471"), the port resolved. */
const char *gt_http_address(const struct gt_http *h);
/* "https" with TLS, else "http". */
const char *gt_http_scheme(const struct gt_http *h);
void gt_http_stop(struct gt_http *h); /* NULL allowed */

/* ---- Pure helpers (http_parse.c) ---------------------------------- */

/* Parses "ADDR:PORT" or "[V6ADDR]:PORT" (numeric addresses only, port
 * 0-65535; 0 picks a free one). 0, or -1 with err saying what is wrong. */
int gt_http_parse_listen(const char *s, struct sockaddr_storage *ss,
                         socklen_t *sslen, char *err, size_t errlen);

/* The quality (0-1) an Accept or Accept-Encoding header gives token (a
 * media type such as "application/openmetrics-text", or a coding such as
 * "gzip"), the highest where it is listed more than once; -1 when it is
 * not listed. Parameters other than q are ignored. */
double gt_http_accept_q(const char *header, const char *token);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * http.c - the HTTP endpoint (http.h) on libmicrohttpd. One internal
 * polling thread (epoll) answers every connection, so a client that sends
 * its headers a byte at a time holds a connection slot, not the server;
 * the limits (connections, per address, memory, timeout) bound what such
 * clients can take. Each answer is rendered from the collector's published
 * data through one reader view that only this thread uses. With a
 * --web-config file it speaks TLS (GnuTLS inside libmicrohttpd) and asks
 * every request for basic-auth credentials, checked with bcrypt.
 */
#include "export/http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/clock.h"
#include "core/hostinfo.h"
#include "core/view.h"
#include "export/metrics.h"
#include "export/snapshot.h"
#include "export/webconfig.h"

static const unsigned codes[] = {200, 401, 404, 405, 500, 503};
#define NCODES (sizeof(codes) / sizeof(codes[0]))

struct gt_http {
	struct MHD_Daemon *daemon;
	struct gt_collector *collector; /* borrowed */
	struct gt_view view;            /* the server thread's only */
	struct gt_hostinfo host;
	unsigned process_top;
	int fd;
	char address[80];
	struct gt_webconfig web;
	void *crypt_scratch; /* the server thread's crypt_r state */
	/* Server-thread-only counters. */
	uint64_t scrapes;
	uint64_t counts[NCODES];
};

/* libmicrohttpd's messages would land on the dashboard's screen: dropped.
 * Failures that matter are reported by gt_http_start itself. */
static void quiet_log(void *cls, const char *fmt, va_list ap)
{
	(void)cls;
	(void)fmt;
	(void)ap;
}

static void count(struct gt_http *h, unsigned code)
{
	for (size_t i = 0; i < NCODES; i++)
		if (codes[i] == code)
			h->counts[i]++;
}

/* Queues body (malloc'd, owned from here on; NULL means ENOMEM). */
static enum MHD_Result reply(struct gt_http *h, struct MHD_Connection *conn,
                             unsigned code, char *body, size_t len,
                             const char *type, const char *encoding)
{
	if (!body) {
		static const char oom[] = "out of memory\n";
		code = MHD_HTTP_INTERNAL_SERVER_ERROR;
		body = strdup(oom);
		len = body ? sizeof(oom) - 1 : 0;
		type = "text/plain; charset=utf-8";
		encoding = NULL;
	}
	struct MHD_Response *r = MHD_create_response_from_buffer(
	    len, body ? body : (void *)"",
	    body ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
	if (!r) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	if (encoding)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING,
		                        encoding);
	/* /metrics: the body depends on both (format, gzip). */
	if (type && (strcmp(type, GT_METRICS_CONTENT_TYPE) == 0 ||
	             strcmp(type, GT_METRICS_OM_CONTENT_TYPE) == 0))
		MHD_add_response_header(r, MHD_HTTP_HEADER_VARY,
		                        "Accept, Accept-Encoding");
	if (code == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	if (code == MHD_HTTP_SERVICE_UNAVAILABLE)
		MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, "1");
	count(h, code);
	enum MHD_Result rc = MHD_queue_response(conn, code, r);
	MHD_destroy_response(r);
	return rc;
}

static enum MHD_Result reply_text(struct gt_http *h,
                                  struct MHD_Connection *conn, unsigned code,
                                  const char *text)
{
	char *body = strdup(text);
	return reply(h, conn, code, body, body ? strlen(body) : 0,
	             "text/plain; charset=utf-8", NULL);
}

/* gzip of in[0..len) (zlib, windowBits 31 = a gzip header and trailer).
 * libmicrohttpd 0.9.75 has no response compression of its own, so zlib
 * does it; a /metrics of 8 GPUs shrinks about tenfold. NULL on failure,
 * and the caller then sends it uncompressed. */
static char *gzip(const char *in, size_t len, size_t *outlen)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return NULL;
	uLong bound = deflateBound(&z, (uLong)len);
	char *out = malloc(bound);
	if (!out) {
		deflateEnd(&z);
		return NULL;
	}
	z.next_in = (Bytef *)(uintptr_t)in;
	z.avail_in = (uInt)len;
	z.next_out = (Bytef *)out;
	z.avail_out = (uInt)bound;
	int rc = deflate(&z, Z_FINISH);
	*outlen = z.total_out;
	deflateEnd(&z);
	if (rc != Z_STREAM_END) {
		free(out);
		return NULL;
	}
	return out;
}

static enum MHD_Result serve_metrics(struct gt_http *h,
                                     struct MHD_Connection *conn)
{
	const char *accept =
	    MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Accept");
	const char *enc = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
	                                              "Accept-Encoding");
	double om_q =
	    accept ? gt_http_accept_q(accept, "application/openmetrics-text")
	           : -1;
	double text_q = accept ? gt_http_accept_q(accept, "text/plain") : -1;
	bool om = om_q > 0 && om_q >= text_q;
	bool gz = enc && gt_http_accept_q(enc, "gzip") > 0;
	struct gt_metrics_input in;
	size_t len = 0;

	h->scrapes++;
	struct gt_metrics_http stats = {h->scrapes, NCODES, codes, h->counts};
	gt_metrics_from_view(&in, &h->view, h->process_top);
	in.openmetrics = om;
	in.http = &stats;
	char *text = gt_metrics_render(&in, &len);
	const char *type =
	    om ? GT_METRICS_OM_CONTENT_TYPE : GT_METRICS_CONTENT_TYPE;
	if (text && gz) {
		size_t zlen = 0;
		char *z = gzip(text, len, &zlen);
		if (z) {
			free(text);
			return reply(h, conn, MHD_HTTP_OK, z, zlen, type,
			             "gzip");
		}
	}
	return reply(h, conn, MHD_HTTP_OK, text, len, type, NULL);
}

static enum MHD_Result serve_snapshot(struct gt_http *h,
                                      struct MHD_Connection *conn)
{
	if (gt_collector_rounds(h->collector) == 0)
		return reply_text(h, conn, MHD_HTTP_SERVICE_UNAVAILABLE,
		                  "no sample yet\n");
	char *json = gt_snapshot_build(
	    &h->view, &h->host, gt_collector_interval(h->collector), false);
	return reply(h, conn, MHD_HTTP_OK, json, json ? strlen(json) : 0,
	             "application/json", NULL);
}

/* Healthy while rounds keep finishing: none for ten intervals (at least
 * 30 s) after the first means the collector is stuck in a driver. */
static enum MHD_Result serve_healthy(struct gt_http *h,
                                     struct MHD_Connection *conn)
{
	uint64_t end_ns, took_ns;
	uint64_t limit = 10 * gt_collector_interval(h->collector);
	if (limit < 30000000000ull)
		limit = 30000000000ull;
	if (gt_collector_last_round(h->collector, &end_ns, &took_ns) &&
	    gt_monotonic_ns() - end_ns > limit)
		return reply_text(h, conn, MHD_HTTP_SERVICE_UNAVAILABLE,
		                  "the collector has finished no round for "
		                  "ten intervals: a driver call may hang\n");
	return reply_text(h, conn, MHD_HTTP_OK, "healthy\n");
}

/* With basic_auth_users: true when the request's credentials match, else
 * a 401 with WWW-Authenticate is queued in *rc. */
static bool authorized(struct gt_http *h, struct MHD_Connection *conn,
                       enum MHD_Result *rc)
{
	static const char text[] = "401 unauthorized: give the user name and "
	                           "password of the server's web config\n";
	char *password = NULL;
	if (h->web.nusers == 0)
		return true;
	char *user = MHD_basic_auth_get_username_password(conn, &password);
	bool ok = user &&
	          gt_webconfig_auth(&h->web, user, password, h->crypt_scratch);
	if (user)
		MHD_free(user);
	if (password)
		MHD_free(password);
	if (ok)
		return true;
	struct MHD_Response *r = MHD_create_response_from_buffer(
	    sizeof(text) - 1, (void *)text, MHD_RESPMEM_PERSISTENT);
	*rc = MHD_NO;
	if (r) {
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
		                        "text/plain; charset=utf-8");
		count(h, MHD_HTTP_UNAUTHORIZED);
		*rc = MHD_queue_basic_auth_fail_response(conn, "gputop", r);
		MHD_destroy_response(r);
	}
	return false;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn,
                                  const char *url, const char *method,
                                  const char *version, const char *upload,
                                  size_t *upload_size, void **con_cls)
{
	struct gt_http *h = cls;
	(void)version;
	(void)upload;
	(void)upload_size;
	(void)con_cls;
	enum MHD_Result rc;

	if (!authorized(h, conn, &rc))
		return rc;
	if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 &&
	    strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
		return reply_text(h, conn, MHD_HTTP_METHOD_NOT_ALLOWED,
		                  "only GET and HEAD: this server is "
		                  "read-only\n");
	if (gt_view_refresh(&h->view) < 0)
		return reply(h, conn, 500, NULL, 0, NULL, NULL);
	if (strcmp(url, "/metrics") == 0)
		return serve_metrics(h, conn);
	if (strcmp(url, "/api/v1/snapshot") == 0)
		return serve_snapshot(h, conn);
	if (strcmp(url, "/-/ready") == 0)
		return gt_collector_rounds(h->collector) > 0
		           ? reply_text(h, conn, MHD_HTTP_OK, "ready\n")
		           : reply_text(h, conn, MHD_HTTP_SERVICE_UNAVAILABLE,
		                        "no sample yet\n");
	if (strcmp(url, "/-/healthy") == 0)
		return serve_healthy(h, conn);
	if (strcmp(url, "/") == 0)
		return reply_text(h, conn, MHD_HTTP_OK,
		                  "gputop " GPUTOP_VERSION
		                  "\n/metrics\n/api/v1/snapshot\n/-/ready\n"
		                  "/-/healthy\n");
	return reply_text(h, conn, MHD_HTTP_NOT_FOUND,
	                  "not found: /metrics, /api/v1/snapshot, /-/ready, "
	                  "/-/healthy\n");
}

/* The listening socket is gputop's own, so a failure names its cause. */
static int open_socket(struct gt_http *h, const char *listen_at, char *err,
                       size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sslen = 0;
	int one = 1;

	if (gt_http_parse_listen(listen_at, &ss, &sslen, err, errlen) < 0)
		return -1;
	h->fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (h->fd < 0) {
		snprintf(err, errlen, "--listen %s: socket: %s", listen_at,
		         strerror(errno));
		return -1;
	}
	setsockopt(h->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ss.ss_family == AF_INET6)
		setsockopt(h->fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(h->fd, (struct sockaddr *)&ss, sslen) < 0 ||
	    listen(h->fd, 64) < 0) {
		int e = errno;
		snprintf(
		    err, errlen, "--listen %s: %s%s", listen_at, strerror(e),
		    e == EADDRINUSE      ? " (another program has this port: "
		                           "pick another with --listen)"
		    : e == EADDRNOTAVAIL ? " (no interface has this address)"
		    : e == EACCES        ? " (ports below 1024 need root)"
		                         : "");
		return -1;
	}
	sslen = sizeof(ss);
	getsockname(h->fd, (struct sockaddr *)&ss, &sslen);
	char ip[INET6_ADDRSTRLEN] = "?";
	if (ss.ss_family == AF_INET6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;
		inet_ntop(AF_INET6, &a->sin6_addr, ip, sizeof(ip));
		snprintf(h->address, sizeof(h->address), "[%s]:%u", ip,
		         ntohs(a->sin6_port));
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)&ss;
		inet_ntop(AF_INET, &a->sin_addr, ip, sizeof(ip));
		snprintf(h->address, sizeof(h->address), "%s:%u", ip,
		         ntohs(a->sin_port));
	}
	return 0;
}

static int load_web(struct gt_http *h, const char *path, char *err,
                    size_t errlen)
{
	if (gt_webconfig_load(path, &h->web, err, errlen) < 0)
		return -1;
	if (h->web.cert_file &&
	    MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
		snprintf(
		    err, errlen,
		    "--web-config %s: this libmicrohttpd was built without "
		    "TLS: install one built with GnuTLS (Debian's is), or "
		    "leave tls_server_config out",
		    path);
		return -1;
	}
	if (h->web.nusers &&
	    !(h->crypt_scratch = calloc(1, gt_webconfig_scratch_size()))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

static int start_daemon(struct gt_http *h, char *err, size_t errlen)
{
	bool tls = h->web.cert_file != NULL;
	struct MHD_OptionItem opts[] = {
	    {MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)quiet_log, NULL},
	    {MHD_OPTION_LISTEN_SOCKET, h->fd, NULL},
	    {MHD_OPTION_CONNECTION_LIMIT, GT_HTTP_MAX_CONNECTIONS, NULL},
	    {MHD_OPTION_PER_IP_CONNECTION_LIMIT, GT_HTTP_MAX_PER_IP, NULL},
	    {MHD_OPTION_CONNECTION_TIMEOUT, GT_HTTP_TIMEOUT_S, NULL},
	    {MHD_OPTION_CONNECTION_MEMORY_LIMIT, GT_HTTP_MEMORY_LIMIT, NULL},
	    {tls ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, 0,
	     h->web.cert_pem},
	    {MHD_OPTION_HTTPS_MEM_KEY, 0, h->web.key_pem},
	    {MHD_OPTION_END, 0, NULL},
	};
	/* The server thread leaves Ctrl-C and SIGTERM to the main thread. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	h->daemon =
	    MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL |
	                         MHD_USE_ERROR_LOG | (tls ? MHD_USE_TLS : 0),
	                     0, NULL, NULL, on_request, h, MHD_OPTION_ARRAY,
	                     opts, MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!h->daemon) {
		if (tls)
			snprintf(err, errlen,
			         "--listen %s: TLS could not start with "
			         "cert_file %s and key_file %s: check that "
			         "both are PEM and that the key is the "
			         "certificate's",
			         h->address, h->web.cert_file, h->web.key_file);
		else
			snprintf(err, errlen,
			         "--listen %s: libmicrohttpd could not start "
			         "its thread",
			         h->address);
		return -1;
	}
	return 0;
}

struct gt_http *gt_http_start(struct gt_collector *c,
                              const struct gt_http_config *cfg, char *err,
                              size_t errlen)
{
	struct gt_http *h = calloc(1, sizeof(*h));
	if (!h) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	h->fd = -1;
	h->collector = c;
	h->process_top = cfg->process_top;
	gt_hostinfo_read(&h->host, cfg->procfs_root);
	if (gt_view_open(&h->view, c) < 0) {
		snprintf(err, errlen, "no reader slot or memory left");
		free(h);
		return NULL;
	}
	if (open_socket(h, cfg->listen ? cfg->listen : GT_HTTP_DEFAULT_LISTEN,
	                err, errlen) < 0) {
		gt_http_stop(h);
		return NULL;
	}
	if (cfg->web_config && load_web(h, cfg->web_config, err, errlen) < 0) {
		gt_http_stop(h);
		return NULL;
	}
	if (start_daemon(h, err, errlen) < 0) {
		gt_http_stop(h);
		return NULL;
	}
	return h;
}

const char *gt_http_address(const struct gt_http *h)
{
	return h->address;
}

const char *gt_http_scheme(const struct gt_http *h)
{
	return h->web.cert_file ? "https" : "http";
}

void gt_http_stop(struct gt_http *h)
{
	if (!h)
		return;
	if (h->daemon) {
		/* The daemon closes the socket it was given. */
		MHD_stop_daemon(h->daemon);
		h->fd = -1;
	}
	if (h->fd >= 0)
		close(h->fd);
	gt_view_close(&h->view);
	gt_webconfig_free(&h->web);
	free(h->crypt_scratch);
	free(h);
}

/* SPDX-License-Identifier: MIT */
/*
 * test_http_parse.c - the HTTP endpoint's pure parsers
 * (src/export/http_parse.c): --listen addresses (IPv4, [IPv6], port 0, and
 * each mistake named), and Accept / Accept-Encoding quality values as
 * Prometheus and curl send them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <arpa/inet.h>
#include <cmocka.h>
#include <netinet/in.h>

#include "export/http.h"

static void listen_ok(const char *s, int family, unsigned port)
{
	struct sockaddr_storage ss;
	socklen_t len = 0;
	char err[256] = "";
	if (gt_http_parse_listen(s, &ss, &len, err, sizeof(err)) != 0)
		fail_msg("%s: %s", s, err);
	assert_int_equal(ss.ss_family, family);
	if (family == AF_INET) {
		assert_int_equal(len, sizeof(struct sockaddr_in));
		assert_int_equal(ntohs(((struct sockaddr_in *)&ss)->sin_port),
		                 port);
	} else {
		assert_int_equal(len, sizeof(struct sockaddr_in6));
		assert_int_equal(ntohs(((struct sockaddr_in6 *)&ss)->sin6_port),
		                 port);
	}
}

static void listen_bad(const char *s, const char *needle)
{
	struct sockaddr_storage ss;
	socklen_t len = 0;
	char err[256] = "";
	assert_int_equal(gt_http_parse_listen(s, &ss, &len, err, sizeof(err)),
	                 -1);
	if (!strstr(err, needle))
		fail_msg("%s: '%s' does not say '%s'", s, err, needle);
}

static void test_listen(void **state)
{
	(void)state;
	listen_ok("127.0.0.1:29471", AF_INET, 29471);
	listen_ok(GT_HTTP_DEFAULT_LISTEN, AF_INET, GT_HTTP_DEFAULT_PORT);
	listen_ok("0.0.0.0:0", AF_INET, 0);
	listen_ok("[::1]:8080", AF_INET6, 8080);
	listen_ok("[::]:65535", AF_INET6, 65535);
	listen_bad("127.0.0.1", "has no port");
	listen_bad("localhost:80", "not a numeric IP address");
	listen_bad("127.0.0.1:65536", "not a port number");
	listen_bad("127.0.0.1:-1", "not a port number");
	listen_bad("127.0.0.1:", "not a port number");
	listen_bad("127.0.0.1:80x", "not a port number");
	listen_bad("[::1]80", "is not [IPV6]:PORT");
	listen_bad("[::1:80", "is not [IPV6]:PORT");
	listen_bad("::1:80", "not a numeric IP address");
	listen_bad("[127.0.0.1]:80", "not a numeric IP address");
}

static void test_accept(void **state)
{
	(void)state;
	/* what Prometheus 2.42 sends */
	const char *prom = "application/openmetrics-text;version=1.0.0,"
	                   "application/openmetrics-text;version=0.0.1;q=0.75,"
	                   "text/plain;version=0.0.4;q=0.5,*/*;q=0.1";
	assert_true(gt_http_accept_q(prom, "application/openmetrics-text") ==
	            1.0);
	assert_true(gt_http_accept_q(prom, "text/plain") == 0.5);
	assert_true(gt_http_accept_q(prom, "application/json") == -1);
	assert_true(gt_http_accept_q("*/*", "text/plain") == -1);
	assert_true(gt_http_accept_q("text/plain; q=0.2, Application/"
	                             "OpenMetrics-Text ; q=0.3",
	                             "application/openmetrics-text") == 0.3);
	assert_true(gt_http_accept_q("", "gzip") == -1);
	assert_true(gt_http_accept_q("gzip", "gzip") == 1.0);
	assert_true(gt_http_accept_q("deflate, gzip;q=0.5", "gzip") == 0.5);
	assert_true(gt_http_accept_q("gzip;q=0", "gzip") == 0.0);
	assert_true(gt_http_accept_q("GZIP;Q=1.0", "gzip") == 1.0);
	assert_true(gt_http_accept_q("xgzip, gzipx", "gzip") == -1);
	assert_true(gt_http_accept_q("gzip;q=7", "gzip") == 1.0);
	assert_true(gt_http_accept_q(",,gzip,,", "gzip") == 1.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_listen),
	    cmocka_unit_test(test_accept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * http_parse.c - the HTTP endpoint's pure parsers (http.h): the --listen
 * address and the quality values of Accept headers.
 */
#include "export/http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int parse_port(const char *s, unsigned *port)
{
	char *end;
	if (s[0] < '0' || s[0] > '9')
		return -1;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (*end != '\0' || errno != 0 || v > 65535)
		return -1;
	*port = (unsigned)v;
	return 0;
}

int gt_http_parse_listen(const char *s, struct sockaddr_storage *ss,
                         socklen_t *sslen, char *err, size_t errlen)
{
	char host[64];
	const char *colon;
	unsigned port;

	memset(ss, 0, sizeof(*ss));
	if (s[0] == '[') {
		const char *close = strchr(s, ']');
		if (!close || close[1] != ':') {
			snprintf(err, errlen,
			         "--listen: '%s' is not [IPV6]:PORT "
			         "(e.g. [::1]:%d)",
			         s, GT_HTTP_DEFAULT_PORT);
			return -1;
		}
		colon = close + 1;
		size_t n = (size_t)(close - s - 1);
		if (n >= sizeof(host))
			n = sizeof(host) - 1;
		memcpy(host, s + 1, n);
		host[n] = '\0';
	} else {
		colon = strrchr(s, ':');
		if (!colon) {
			snprintf(err, errlen,
			         "--listen: '%s' has no port: write ADDR:PORT "
			         "(e.g. %s, or 0.0.0.0:%d for every interface)",
			         s, GT_HTTP_DEFAULT_LISTEN,
			         GT_HTTP_DEFAULT_PORT);
			return -1;
		}
		size_t n = (size_t)(colon - s);
		if (n >= sizeof(host))
			n = sizeof(host) - 1;
		memcpy(host, s, n);
		host[n] = '\0';
	}
	if (parse_port(colon + 1, &port) < 0) {
		snprintf(err, errlen,
		         "--listen: '%s' is not a port number (0 to 65535)",
		         colon + 1);
		return -1;
	}
	struct sockaddr_in *v4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)ss;
	if (s[0] != '[' && inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons((uint16_t)port);
		*sslen = sizeof(*v4);
		return 0;
	}
	if (s[0] == '[' && inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons((uint16_t)port);
		*sslen = sizeof(*v6);
		return 0;
	}
	snprintf(err, errlen,
	         "--listen: '%s' is not a numeric IP address (host names are "
	         "not looked up; e.g. 127.0.0.1, 0.0.0.0 or [::1])",
	         host);
	return -1;
}

/* The q of one list item's parameters ("; q=0.5"); 1 when absent. */
static double item_q(const char *p, const char *end)
{
	while (p < end) {
		const char *semi = memchr(p, ';', (size_t)(end - p));
		if (!semi)
			break;
		p = semi + 1;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (end - p >= 2 && (p[0] == 'q' || p[0] == 'Q') &&
		    p[1] == '=') {
			char num[16];
			size_t n = 0;
			for (p += 2; p < end && n + 1 < sizeof(num) &&
			             ((*p >= '0' && *p <= '9') || *p == '.');
			     p++)
				num[n++] = *p;
			num[n] = '\0';
			double q = n ? strtod(num, NULL) : 0;
			return q < 0 ? 0 : q > 1 ? 1 : q;
		}
	}
	return 1;
}

double gt_http_accept_q(const char *header, const char *token)
{
	double best = -1;
	size_t tlen = strlen(token);
	const char *p = header;

	while (p && *p) {
		const char *end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		const char *a = p;
		while (a < end && (*a == ' ' || *a == '\t'))
			a++;
		const char *b = a;
		while (b < end && *b != ';' && *b != ' ' && *b != '\t')
			b++;
		if ((size_t)(b - a) == tlen &&
		    strncasecmp(a, token, tlen) == 0) {
			double q = item_q(b, end);
			if (q > best)
				best = q;
		}
		p = *end ? end + 1 : end;
	}
	return best;
}

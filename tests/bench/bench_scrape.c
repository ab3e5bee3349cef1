/* SPDX-License-Identifier: MIT */
/*
 * bench_scrape.c - a scrape load for `make bench`: a thread that keeps n
 * HTTP/1.0 GETs of /metrics in flight against an address, round after
 * round, each from one of 13 loopback source addresses (127.0.0.1-13, so
 * the server's per-address limit of 16 does not refuse them), reading
 * every answer to its end. Counts the answers that began with a 200.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

enum { MAX_SCRAPES = 256 };

struct bench_scrapes {
	pthread_t thread;
	struct sockaddr_in to;
	int n;
	atomic_bool stop;
	long ok, failed, rounds;
};

struct conn {
	int fd;
	size_t sent, got;
	char head[16];
};

static int conn_open(struct conn *c, const struct sockaddr_in *to, int i)
{
	struct sockaddr_in from = {.sin_family = AF_INET};
	from.sin_addr.s_addr = htonl(0x7f000001u + (uint32_t)(i % 13));
	memset(c, 0, sizeof(*c));
	c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		return -1;
	/* The port is picked at connect, per destination: thousands of
	 * rounds do not run out of ports held in TIME_WAIT. */
	int one = 1;
	setsockopt(c->fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one,
	           sizeof(one));
	if (bind(c->fd, (struct sockaddr *)&from, sizeof(from)) != 0 ||
	    (connect(c->fd, (const struct sockaddr *)to, sizeof(*to)) != 0 &&
	     errno != EINPROGRESS)) {
		close(c->fd);
		c->fd = -1;
		return -1;
	}
	return 0;
}

/* One step of c on its poll result; false once it is finished. */
static const char req[] = "GET /metrics HTTP/1.0\r\nHost: bench\r\n\r\n";
#define REQ_LEN (sizeof(req) - 1)

static uint64_t mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static bool conn_step(struct bench_scrapes *s, struct conn *c, short rev)
{
	char buf[16384];
	if ((rev & POLLOUT) && c->sent < sizeof(req) - 1) {
		ssize_t w = send(c->fd, req + c->sent,
		                 sizeof(req) - 1 - c->sent, MSG_NOSIGNAL);
		if (w > 0)
			c->sent += (size_t)w;
		else if (w < 0 && errno != EAGAIN)
			goto failed;
	}
	if (rev & (POLLIN | POLLHUP | POLLERR)) {
		ssize_t r = recv(c->fd, buf, sizeof(buf), 0);
		if (r < 0 && errno == EAGAIN)
			return true;
		if (r < 0)
			goto failed;
		if (r > 0) {
			for (ssize_t k = 0; k < r && c->got < 15; k++)
				c->head[c->got++] = buf[k];
			return true;
		}
		/* EOF: HTTP/1.0, the answer is whole */
		if (strncmp(c->head, "HTTP/1.1 200", 12) == 0 ||
		    strncmp(c->head, "HTTP/1.0 200", 12) == 0)
			s->ok++;
		else
			s->failed++;
		close(c->fd);
		c->fd = -1;
		return false;
	}
	return true;
failed:
	s->failed++;
	close(c->fd);
	c->fd = -1;
	return false;
}

static void *scrapes_run(void *arg)
{
	struct bench_scrapes *s = arg;
	struct conn c[MAX_SCRAPES];
	struct pollfd p[MAX_SCRAPES];
	while (!atomic_load(&s->stop)) {
		int open = 0;
		for (int i = 0; i < s->n; i++)
			if (conn_open(&c[i], &s->to, i) == 0)
				open++;
			else
				s->failed++;
		uint64_t end = mono_ms() + 10000;
		while (open > 0 && mono_ms() < end) {
			int np = 0, idx[MAX_SCRAPES];
			for (int i = 0; i < s->n; i++)
				if (c[i].fd >= 0) {
					/* POLLOUT until the request is
					 * out, then only the answer */
					short ev = c[i].sent < REQ_LEN
					               ? POLLIN | POLLOUT
					               : POLLIN;
					p[np] = (struct pollfd){c[i].fd, ev, 0};
					idx[np++] = i;
				}
			if (poll(p, (nfds_t)np, 10) < 0 && errno != EINTR)
				break;
			for (int k = 0; k < np; k++)
				if (p[k].revents &&
				    !conn_step(s, &c[idx[k]], p[k].revents))
					open--;
		}
		for (int i = 0; i < s->n; i++)
			if (c[i].fd >= 0) { /* 10 s without an end */
				close(c[i].fd);
				s->failed++;
			}
		s->rounds++;
	}
	return NULL;
}

struct bench_scrapes *bench_scrapes_start(const char *addr, int n)
{
	struct bench_scrapes *s = calloc(1, sizeof(*s));
	const char *colon = addr ? strrchr(addr, ':') : NULL;
	char ip[64];
	if (!s || !colon || (size_t)(colon - addr) >= sizeof(ip)) {
		free(s);
		return NULL;
	}
	snprintf(ip, sizeof(ip), "%.*s", (int)(colon - addr), addr);
	s->to.sin_family = AF_INET;
	s->to.sin_port = htons((uint16_t)atoi(colon + 1));
	s->n = n < MAX_SCRAPES ? n : MAX_SCRAPES;
	atomic_init(&s->stop, false);
	if (inet_pton(AF_INET, ip, &s->to.sin_addr) != 1 ||
	    pthread_create(&s->thread, NULL, scrapes_run, s) != 0) {
		free(s);
		return NULL;
	}
	return s;
}

void bench_scrapes_stop(struct bench_scrapes *s, long *ok, long *failed,
                        long *rounds)
{
	atomic_store(&s->stop, true);
	pthread_join(s->thread, NULL);
	*ok = s->ok;
	*failed = s->failed;
	*rounds = s->rounds;
	free(s);
}

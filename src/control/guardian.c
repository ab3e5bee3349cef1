/* SPDX-License-Identifier: MIT */
/*
 * guardian.c - the restore guardian process (see guardian.h for the
 * protocol and the guarantees).
 *
 * gputop is multithreaded when it forks the guardian, so the child first
 * does only async-signal-safe work (signal dispositions, descriptors) and
 * never needs malloc: everything it uses (journals, receive buffer, report)
 * is allocated before fork and inherited. Then it builds its restore ops
 * with the caller's factory and runs a single-threaded poll() loop over the
 * socket and a signalfd for SIGTERM, which needs no signal handler and so
 * no global flag.
 */
#include "control/guardian.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "control/bounded.h"
#include "core/fileio.h"

#define HDR 5 /* type byte + 32-bit little-endian payload length */
/* The longest journal text: every action on a maximal line, plus the
 * header comment. Longer is malformed. */
#define MSG_MAX (GT_RESTORE_MAX_ACTIONS * GT_RESTORE_LINE_MAX + 4096)
/* A report line holds at most a path, a value and a reason that may
 * quote a path and the root: well under 1 KiB. */
#define REPORT_MAX       (GT_RESTORE_MAX_ACTIONS * 1024)
#define START_TIMEOUT_MS 10000 /* the factory may initialise NVML */
#define SEND_TIMEOUT_MS  2000
#define REAP_TIMEOUT_MS  2000
#define SOCK_FD          3 /* the guardian's socket, after its descriptors close */
#ifndef SYS_close_range
#define SYS_close_range 436 /* Linux 5.9; one number on every architecture */
#endif

struct gt_guardian {
	int fd; /* gputop's end of the socketpair; -1 once closed */
	pid_t pid;
	bool gone;   /* a send saw EPIPE: the guardian has left */
	bool reaped; /* status is valid */
	int status;
	/* update and finish hold it while sending; heartbeat only tries it,
	 * so two threads never interleave the bytes of two messages. */
	pthread_mutex_t lock;
	char root[GT_RESTORE_PATH_MAX]; /* every journal's sysfs root */
	size_t tx_off, tx_len;          /* tx[tx_off..tx_len) is unsent */
	char tx[HDR + MSG_MAX];
};

/* The guardian's whole state: allocated by gputop before fork, so the
 * child inherits it and never allocates. */
struct child {
	int fd, sfd;
	pid_t parent;
	uint64_t timeout_ns;
	const char *log_path; /* the child's copy of the caller's string */
	struct gt_restore_ops ops;
	size_t have; /* bytes in rx */
	struct gt_restore_journal cur, next;
	char rx[HDR + MSG_MAX];
	char report[REPORT_MAX];
	char why[GT_RESTORE_PATH_MAX + 160];
};

__attribute__((format(printf, 3, 4))) static int fail(char *err, size_t len,
                                                      const char *fmt, ...)
{
	va_list ap;

	if (len) {
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Milliseconds left until deadline, rounded up, for poll(). */
static int ms_left(uint64_t deadline)
{
	uint64_t t = now_ns(), ms;

	if (t >= deadline)
		return 0;
	ms = (deadline - t + 999999) / 1000000;
	return ms > INT_MAX ? INT_MAX : (int)ms;
}

static void put_hdr(char *p, char type, uint32_t n)
{
	p[0] = type;
	for (int i = 0; i < 4; i++)
		p[1 + i] = (char)((n >> (8 * i)) & 0xff);
}

static uint32_t get_len(const char *p)
{
	uint32_t n = 0;

	for (int i = 0; i < 4; i++)
		n |= (uint32_t)(unsigned char)p[1 + i] << (8 * i);
	return n;
}

/* ------------------------------------------------------------------ */
/* The guardian (child side)                                            */
/* ------------------------------------------------------------------ */

/* Async-signal-safe. gputop's handlers would run gputop's own exit path
 * in the child: back to defaults, then ignore what a terminal or a closed
 * session sends. SIGTERM stays blocked and is read from a signalfd. */
static void child_signals(void)
{
	struct sigaction sa;
	static const int ignored[] = {SIGINT,  SIGHUP,  SIGQUIT, SIGTSTP,
	                              SIGTTIN, SIGTTOU, SIGPIPE};
	sigset_t set;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_DFL;
	for (int s = 1; s < NSIG; s++)
		if (s != SIGKILL && s != SIGSTOP)
			sigaction(s, &sa, NULL); /* glibc-reserved: EINVAL */
	sa.sa_handler = SIG_IGN;
	for (size_t i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++)
		sigaction(ignored[i], &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_SETMASK, &set, NULL);
}

/* Async-signal-safe. The socket moves to SOCK_FD; everything above it is
 * closed (gputop's end of the socket among them, or EOF would never come;
 * device files, the terminal's other descriptors). 0 and 1 become
 * /dev/null so nothing a library prints reaches the terminal. */
static void child_fds(struct child *c)
{
	int null;

	if (c->fd != SOCK_FD) {
		/* Closes whatever was at SOCK_FD (gputop's end, perhaps). */
		dup3(c->fd, SOCK_FD, O_CLOEXEC);
		c->fd = SOCK_FD;
	}
	/* Linux 5.9+; before it, every descriptor up to the limit. */
	if (syscall(SYS_close_range, SOCK_FD + 1, ~0u, 0) != 0) {
		struct rlimit rl;
		long max = 65536;

		if (getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
		    rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < (1u << 20))
			max = (long)rl.rlim_cur;
		for (long fd = SOCK_FD + 1; fd < max; fd++)
			close((int)fd);
	}
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		close(null);
	}
}

static void child_send(struct child *c, char type, const char *msg)
{
	char buf[HDR + 512];
	size_t n = msg ? strnlen(msg, sizeof(buf) - HDR) : 0;

	put_hdr(buf, type, (uint32_t)n);
	if (n)
		memcpy(buf + HDR, msg, n);
	gt_fileio_write_all(c->fd, buf,
	                    HDR + n); /* gputop gone: EOF next, restore */
}

/* Appends the report to the log (stderr if there is none or it cannot be
 * opened); failures < 0: a line without a restore (a normal exit). fsync:
 * this may be the only record of what happened. */
static void child_log(struct child *c, const char *why, int failures)
{
	char head[sizeof(c->why) + 256], stamp[32] = "?";
	struct timespec ts;
	struct tm tm;
	int fd = 2, n;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (gmtime_r(&ts.tv_sec, &tm))
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (failures < 0)
		n = snprintf(head, sizeof(head),
		             "%s gputop-guard[%d] for gputop[%d]: %s\n", stamp,
		             (int)getpid(), (int)c->parent, why);
	else
		n = snprintf(
		    head, sizeof(head),
		    "%s gputop-guard[%d] for gputop[%d]: %s; restoring "
		    "%zu setting(s), %d failed\n",
		    stamp, (int)getpid(), (int)c->parent, why, c->cur.n,
		    failures);
	if (c->log_path) {
		fd =
		    open(c->log_path,
		         O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
		         0600);
		if (fd < 0)
			fd = 2;
	}
	if (n > 0)
		gt_fileio_write_all(fd, head, strnlen(head, sizeof(head)));
	gt_fileio_write_all(fd, c->report,
	                    strnlen(c->report, sizeof(c->report)));
	if (fd != 2) {
		fsync(fd);
		close(fd);
	}
}

/* The restore on a thread of the guardian's own (gt_bounded_run): its
 * report goes to a buffer of its own, which a restore given up on may
 * still be writing when the guardian logs and exits. */
struct restore_call {
	struct child *c;
	int failures;
	char report[sizeof(((struct child *)0)->report)];
};

static void restore_call_run(void *arg)
{
	struct restore_call *r = arg;
	r->failures = gt_restore_apply(&r->c->cur, &r->c->ops, r->report,
	                               sizeof(r->report));
}

static _Noreturn void child_restore(struct child *c, const char *why)
{
	/* A driver that never answers must not keep the guardian for ever:
	 * after GT_GUARDIAN_RESTORE_TIMEOUT_NS it says so and exits. Static,
	 * not on this stack: a restore given up on may still write into it
	 * until the guardian's _exit, and this function never returns. */
	static struct restore_call r;
	r.c = c;
	r.failures = -1;
	if (gt_bounded_run(restore_call_run, &r, NULL,
	                   GT_GUARDIAN_RESTORE_TIMEOUT_NS, NULL, NULL) != 0) {
		snprintf(c->report, sizeof(c->report),
		         "  the driver did not answer the restore within %llu "
		         "s: the settings may or may not be back; the state "
		         "file stays for `gputop --restore`\n",
		         (unsigned long long)(GT_GUARDIAN_RESTORE_TIMEOUT_NS /
		                              1000000000ull));
		child_log(c, why, (int)c->cur.n);
		_exit(GT_GUARDIAN_EXIT_FAILED);
	}
	memcpy(c->report, r.report, sizeof(c->report));
	int failures = r.failures;

	/* All back: no state file left to offer a restore of nothing. */
	if (failures == 0 && c->ops.cleared)
		c->ops.cleared(c->ops.ctx);
	child_log(c, why, failures);
	_exit(failures ? GT_GUARDIAN_EXIT_FAILED : GT_GUARDIAN_EXIT_RESTORED);
}

/* Handles the complete messages in rx; keeps a partial one for the next
 * read. 0: go on; 1: "done"; -1: malformed (c->why says how). */
static int child_consume(struct child *c, uint64_t *last_hb)
{
	char err[GT_RESTORE_PATH_MAX + 128];
	size_t off = 0;

	while (c->have - off >= HDR) {
		const char *m = c->rx + off;
		uint32_t n = get_len(m);

		if (m[0] != 'H' && m[0] != 'D' && m[0] != 'J')
			return fail(c->why, sizeof(c->why),
			            "malformed message: type 0x%02x",
			            (unsigned char)m[0]);
		if (m[0] == 'J' ? n > MSG_MAX : n != 0)
			return fail(c->why, sizeof(c->why),
			            "malformed message: '%c' of %u bytes", m[0],
			            (unsigned)n);
		if (c->have - off < HDR + (size_t)n)
			break; /* the rest is still on its way */
		if (m[0] == 'D')
			return 1;
		if (m[0] == 'H')
			*last_hb = now_ns();
		else if (gt_restore_parse(m + HDR, n, "journal", c->cur.root,
		                          &c->next, err, sizeof(err)))
			return fail(c->why, sizeof(c->why),
			            "malformed journal: %s", err);
		else
			memcpy(&c->cur, &c->next, sizeof(c->cur));
		off += HDR + n;
	}
	memmove(c->rx, c->rx + off, c->have - off);
	c->have -= off;
	return 0;
}

static _Noreturn void child_main(struct child *c,
                                 gt_guardian_ops_factory make_ops, void *ctx)
{
	char err[512] = "";
	uint64_t last_hb;
	sigset_t set;

	child_signals();
	child_fds(c);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	c->sfd = signalfd(-1, &set, SFD_CLOEXEC);
	prctl(PR_SET_NAME, "gputop-guard", 0, 0, 0);
	/* Set up: from here on ordinary library calls. */
	if (c->sfd < 0 || make_ops(ctx, &c->ops, err, sizeof(err))) {
		if (c->sfd < 0)
			snprintf(err, sizeof(err), "guardian: signalfd: %s",
			         strerror(errno));
		child_send(c, 'E', err[0] ? err : "restore ops failed");
		_exit(GT_GUARDIAN_EXIT_SETUP);
	}
	child_send(c, 'R', NULL);
	last_hb = now_ns();
	for (;;) {
		struct pollfd p[2] = {{c->fd, POLLIN, 0}, {c->sfd, POLLIN, 0}};
		uint64_t deadline = last_hb + c->timeout_ns;
		int r = poll(p, 2, ms_left(deadline));
		ssize_t n = 0;

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			child_restore(c, "poll failed");
		/* Messages first: a journal sent before a SIGTERM, or the
		 * heartbeats a guardian that was itself held up missed. */
		if (p[0].revents) {
			n = read(c->fd, c->rx + c->have,
			         sizeof(c->rx) - c->have);
			if (n < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (n < 0)
				child_restore(c, "socket read failed");
			if (n == 0)
				child_restore(c, c->have ? "connection closed "
				                           "mid-message: "
				                           "gputop died"
				                         : "connection closed: "
				                           "gputop died");
		} else if (p[1].revents) {
			child_restore(c, "SIGTERM");
		} else if (ms_left(deadline) == 0) {
			snprintf(c->why, sizeof(c->why),
			         "no heartbeat for %llu ms: gputop hung or "
			         "stopped",
			         (unsigned long long)(c->timeout_ns / 1000000));
			child_restore(c, c->why);
		} else {
			continue; /* woke early */
		}
		c->have += (size_t)n;
		r = child_consume(c, &last_hb);
		if (r > 0) {
			c->report[0] = '\0';
			child_log(c,
			          "gputop exited normally, its changes "
			          "restored or kept as asked; nothing to do",
			          -1);
			_exit(GT_GUARDIAN_EXIT_DONE);
		}
		if (r < 0)
			child_restore(c, c->why);
	}
}

/* ------------------------------------------------------------------ */
/* gputop's side                                                        */
/* ------------------------------------------------------------------ */

/* Sends the unsent bytes, waiting up to wait_ms for room (0: never
 * waits). 0, or -1 with errno: EAGAIN/ETIMEDOUT (bytes left), EPIPE (the
 * guardian has left; remembered). */
static int flush(struct gt_guardian *g, int wait_ms)
{
	uint64_t deadline = now_ns() + (uint64_t)wait_ms * 1000000u;

	while (g->tx_off < g->tx_len) {
		ssize_t n =
		    send(g->fd, g->tx + g->tx_off, g->tx_len - g->tx_off,
		         MSG_DONTWAIT | MSG_NOSIGNAL);
		struct pollfd p = {g->fd, POLLOUT, 0};

		if (n > 0) {
			g->tx_off += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
			if (errno == EPIPE || errno == ECONNRESET) {
				g->gone = true;
				errno = EPIPE;
			}
			return -1;
		}
		if (ms_left(deadline) == 0) {
			errno = wait_ms ? ETIMEDOUT : EAGAIN;
			return -1;
		}
		poll(&p, 1, ms_left(deadline));
	}
	g->tx_off = g->tx_len = 0;
	return 0;
}

/* Reads exactly n bytes before the deadline. 0, or -1 (EOF, timeout). */
static int recv_exact(int fd, char *buf, size_t n, uint64_t deadline)
{
	while (n) {
		struct pollfd p = {fd, POLLIN, 0};
		ssize_t r;

		if (poll(&p, 1, ms_left(deadline)) == 0)
			return -1;
		r = recv(fd, buf, n, MSG_DONTWAIT);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r <= 0)
			return -1;
		buf += r;
		n -= (size_t)r;
	}
	return 0;
}

/* Reaps the guardian within wait_ms. 0, or -1 if it is still running. */
static int reap(struct gt_guardian *g, int wait_ms)
{
	uint64_t deadline = now_ns() + (uint64_t)wait_ms * 1000000u;
	const struct timespec nap = {0, 2000000};

	while (!g->reaped) {
		pid_t r = waitpid(g->pid, &g->status, WNOHANG);

		if (r == g->pid || (r < 0 && errno != EINTR)) {
			g->reaped = true; /* ECHILD: someone else reaped it */
			if (r < 0)
				g->status = -1;
			break;
		}
		if (ms_left(deadline) == 0)
			return -1;
		nanosleep(&nap, NULL);
	}
	return 0;
}

/* Waits for 'R' (armed) or 'E' (the reason it is not). */
static int await_ready(struct gt_guardian *g, char *err, size_t len)
{
	uint64_t deadline = now_ns() + (uint64_t)START_TIMEOUT_MS * 1000000u;
	char hdr[HDR], msg[513];
	uint32_t n;

	if (recv_exact(g->fd, hdr, HDR, deadline))
		return fail(err, len, "guardian did not start within %d ms",
		            START_TIMEOUT_MS);
	n = get_len(hdr);
	if (hdr[0] == 'R' && n == 0)
		return 0;
	if (hdr[0] == 'E' && n < sizeof(msg) &&
	    recv_exact(g->fd, msg, n, deadline) == 0) {
		msg[n] = '\0';
		return fail(err, len, "guardian: %s", msg);
	}
	return fail(err, len, "guardian: bad start-up message");
}

/* A CLOEXEC socketpair with neither end on 0-2, which the child keeps or
 * reuses. 0, or -1 with errno. */
static int open_pair(int sv[2])
{
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -1;
	for (int i = 0; i < 2; i++)
		if (sv[i] < 3) {
			int fd = fcntl(sv[i], F_DUPFD_CLOEXEC, 3), e = errno;

			close(sv[i]);
			sv[i] = fd;
			errno = e;
		}
	if (sv[0] >= 0 && sv[1] >= 0)
		return 0;
	close(sv[0] >= 0 ? sv[0] : sv[1]);
	return -1;
}

int gt_guardian_start(struct gt_guardian **out,
                      const struct gt_restore_journal *j, uint64_t timeout_ns,
                      gt_guardian_ops_factory make_ops, void *factory_ctx,
                      const char *log_path, char *err, size_t len)
{
	struct gt_guardian *g = calloc(1, sizeof(*g));
	struct child *c = calloc(1, sizeof(*c));
	sigset_t all, old;
	int sv[2], e;

	*out = NULL;
	if (!j || !make_ops || timeout_ns < 1000000u)
		e = fail(err, len, "guardian: bad arguments");
	else if (!g || !c)
		e = fail(err, len, "guardian: out of memory");
	/* Refuse here what the guardian could not be sent later. */
	else if (gt_restore_format(j, g->tx, sizeof(g->tx), err, len) < 0)
		e = -1;
	else if (open_pair(sv))
		e = fail(err, len, "guardian: socket: %s", strerror(errno));
	else
		e = 0;
	if (e) {
		free(g);
		free(c);
		return -1;
	}
	c->fd = sv[1];
	c->sfd = -1;
	c->parent = getpid();
	c->timeout_ns = timeout_ns;
	c->log_path = log_path;
	memcpy(&c->cur, j, sizeof(c->cur));
	/* No stdio buffer is written twice, and no signal runs a gputop
	 * handler in the child before it has reset them. */
	fflush(NULL);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	g->pid = fork();
	if (g->pid == 0)
		child_main(c, make_ops, factory_ctx);
	e = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	free(c);
	close(sv[1]);
	g->fd = sv[0];
	if (g->pid < 0) {
		close(g->fd);
		free(g);
		return fail(err, len, "guardian: fork: %s", strerror(e));
	}
	pthread_mutex_init(&g->lock, NULL);
	memcpy(g->root, j->root, sizeof(g->root));
	if (await_ready(g, err, len)) {
		close(g->fd);
		g->fd = -1;
		if (reap(g, REAP_TIMEOUT_MS)) {
			kill(g->pid, SIGKILL);
			reap(g, REAP_TIMEOUT_MS);
		}
		gt_guardian_free(g);
		return -1;
	}
	*out = g;
	return 0;
}

int gt_guardian_update(struct gt_guardian *g,
                       const struct gt_restore_journal *j)
{
	char err[GT_RESTORE_PATH_MAX + 128];
	int rc = -1, n;

	pthread_mutex_lock(&g->lock);
	if (g->gone || g->fd < 0) {
		errno = EPIPE;
	} else if (strncmp(j->root, g->root, sizeof(g->root)) != 0) {
		errno = EINVAL; /* the text form does not carry the root */
	} else if (g->tx_off < g->tx_len && flush(g, SEND_TIMEOUT_MS)) {
		/* errno from flush: the earlier message is still going */
	} else if ((n = gt_restore_format(j, g->tx + HDR, MSG_MAX, err,
	                                  sizeof(err))) < 0) {
		errno = EINVAL;
	} else {
		put_hdr(g->tx, 'J', (uint32_t)n);
		g->tx_off = 0;
		g->tx_len = HDR + (size_t)n;
		rc = flush(g, SEND_TIMEOUT_MS);
	}
	pthread_mutex_unlock(&g->lock);
	return rc;
}

int gt_guardian_heartbeat(struct gt_guardian *g)
{
	int rc = 0;

	if (pthread_mutex_trylock(&g->lock))
		return 0; /* an update is being sent: never wait for it */
	if (g->gone || g->fd < 0) {
		errno = EPIPE;
		rc = -1;
	} else if (g->tx_off < g->tx_len) {
		if (flush(g, 0) && errno != EAGAIN)
			rc = -1;
	} else {
		put_hdr(g->tx, 'H', 0);
		g->tx_len = HDR;
		if (flush(g, 0)) {
			if (errno != EAGAIN)
				rc = -1;
			if (g->tx_off == 0) /* nothing of it went: drop it */
				g->tx_len = 0;
		}
	}
	pthread_mutex_unlock(&g->lock);
	return rc;
}

int gt_guardian_finish(struct gt_guardian *g)
{
	pthread_mutex_lock(&g->lock);
	if (!g->gone && g->fd >= 0 &&
	    (g->tx_off == g->tx_len || flush(g, SEND_TIMEOUT_MS) == 0)) {
		put_hdr(g->tx, 'D', 0);
		g->tx_off = 0;
		g->tx_len = HDR;
		flush(g, SEND_TIMEOUT_MS);
	}
	if (g->fd >= 0)
		close(g->fd);
	g->fd = -1;
	pthread_mutex_unlock(&g->lock);
	/* gputop has restored: killing a guardian that does not leave is
	 * harmless. */
	if (reap(g, REAP_TIMEOUT_MS)) {
		kill(g->pid, SIGKILL);
		if (reap(g, REAP_TIMEOUT_MS))
			return -1;
	}
	return g->status >= 0 && WIFEXITED(g->status) ? WEXITSTATUS(g->status)
	                                              : -1;
}

void gt_guardian_free(struct gt_guardian *g)
{
	if (!g)
		return;
	if (g->fd >= 0)
		close(g->fd); /* EOF: the guardian restores */
	if (!g->reaped && waitpid(g->pid, &g->status, WNOHANG) == g->pid)
		g->reaped = true;
	pthread_mutex_destroy(&g->lock);
	free(g);
}

pid_t gt_guardian_pid(const struct gt_guardian *g)
{
	return g->pid;
}

/* SPDX-License-Identifier: MIT */
/*
 * test_guardian.c - tests of the restore guardian
 * (src/control/guardian.c) with real processes: a fake restore-ops
 * factory makes the guardian append each restore call (with the vendor a
 * sysfs record names) to a file, which the test reads. Covered: gputop
 * killed with SIGKILL, gputop hung (SIGSTOP) against a 300 ms timeout,
 * a clean "done", a later journal replacing the earlier, terminal signals
 * ignored and SIGTERM restoring, malformed messages, messages split into
 * small pieces, a failing factory, and heartbeats that never block. Every
 * wait is bounded, and every process is reaped (the test is a child
 * subreaper, so orphaned guardians come back to it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "control/guardian.h"
#include "control/restore.h"

#define NV  "00000000:01:00.0"
#define DEV "0000:03:00.0"
#define HW  "/sys/class/drm/card1/device/hwmon/hwmon3/"
#define T0  1767225600
#define MS  1000000ull

struct fx {
	char dir[64];
	char rec[96];  /* the fake ops' record of restore calls */
	char log[96];  /* the guardian's report */
	pid_t pids[8]; /* processes teardown kills if a test failed early */
	int npids;
};

static void track(struct fx *f, pid_t pid)
{
	if (f->npids < (int)(sizeof(f->pids) / sizeof(f->pids[0])))
		f->pids[f->npids++] = pid;
}

/* ---- fake restore ops: one line per call, appended by the guardian ---- */

static int record(void *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int record(void *ctx, const char *fmt, ...)
{
	int fd = open(ctx, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	va_list ap;

	if (fd < 0)
		return -errno;
	va_start(ap, fmt);
	vdprintf(fd, fmt, ap);
	va_end(ap);
	close(fd);
	return 0;
}

/* One line per action, with the vendor a sysfs record names. */
static int fake_restore(void *ctx, const struct gt_restore_action *a)
{
	switch (a->kind) {
	case GT_RESTORE_SYSFS:
		return record(ctx, "sysfs %s %s %s\n", a->vendor, a->path,
		              a->value);
	case GT_RESTORE_NVML_FAN_AUTO:
		return record(ctx, "fan-auto %s %u\n", a->dev, a->fan);
	case GT_RESTORE_NVML_POWER_LIMIT:
		return record(ctx, "power %s %u\n", a->dev, (unsigned)a->mw);
	case GT_RESTORE_AMD_FAN_CURVE_RESET:
		return record(ctx, "curve-reset %s\n", a->path);
	}
	return -EINVAL;
}

/* ctx: the record file's path (the guardian's copy of it). */
static int fake_factory(void *ctx, struct gt_restore_ops *ops, char *err,
                        size_t len)
{
	(void)err;
	(void)len;
	ops->ctx = ctx;
	ops->restore = fake_restore;
	return 0;
}

static int failing_factory(void *ctx, struct gt_restore_ops *ops, char *err,
                           size_t len)
{
	(void)ctx;
	(void)ops;
	snprintf(err, len, "no NVML here");
	return -1;
}

/* ---- journals ---- */

/* A: what a fan and a power dialog change, 3 settings. */
static struct gt_restore_journal *journal_a(void)
{
	struct gt_restore_journal *j = calloc(1, sizeof(*j));
	struct gt_restore_action a;

	if (!j || gt_restore_init(j, NULL))
		abort();
	gt_restore_action_sysfs(&a, "amdgpu", DEV, HW "pwm1_enable", "2", T0);
	gt_restore_note(j, &a, NULL, 0);
	gt_restore_action_sysfs(&a, "amdgpu", DEV, HW "pwm1", "153", T0 + 1);
	gt_restore_note(j, &a, NULL, 0);
	gt_restore_action_power_limit(&a, NV, 250000, T0 + 2);
	gt_restore_note(j, &a, NULL, 0);
	return j;
}

static const char *const A_RESTORED = "power " NV " 250000\n"
                                      "sysfs amdgpu " HW "pwm1 153\n"
                                      "sysfs amdgpu " HW "pwm1_enable 2\n";

/* B: a different list, for "the later journal wins". */
static struct gt_restore_journal *journal_b(void)
{
	struct gt_restore_journal *j = calloc(1, sizeof(*j));
	struct gt_restore_action a;

	if (!j || gt_restore_init(j, NULL))
		abort();
	gt_restore_action_fan_auto(&a, NV, 0, T0);
	gt_restore_note(j, &a, NULL, 0);
	gt_restore_action_fan_auto(&a, NV, 1, T0);
	gt_restore_note(j, &a, NULL, 0);
	gt_restore_action_fan_curve_reset(
	    &a, DEV, "/sys/class/drm/card1/device", T0 + 5);
	gt_restore_note(j, &a, NULL, 0);
	return j;
}

static const char *const B_RESTORED =
    "curve-reset /sys/class/drm/card1/device\n"
    "fan-auto " NV " 1\n"
    "fan-auto " NV " 0\n";

/* ---- bounded waits ---- */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* The whole file (at most size-1 bytes); "" if missing. */
static char *slurp(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = 0;

	buf[0] = '\0';
	if (fd < 0)
		return buf;
	n = read(fd, buf, size - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static int count_lines(const char *path)
{
	char buf[4096];
	int n = 0;

	for (const char *p = slurp(path, buf, sizeof(buf)); *p; p++)
		n += *p == '\n';
	return n;
}

/* Milliseconds from start until path holds want lines; -1 after
 * limit_ms. Polls every 5 ms. */
static long wait_lines(const char *path, int want, uint64_t start,
                       unsigned limit_ms)
{
	while (count_lines(path) < want) {
		if (now_ns() - start > limit_ms * MS)
			return -1;
		sleep_ms(5);
	}
	return (long)((now_ns() - start) / MS);
}

/* Reaps pid within limit_ms; a process still there is killed (and the
 * test fails on the -1). Returns the wait status or -1. */
static int reap(pid_t pid, unsigned limit_ms)
{
	uint64_t start = now_ns();
	int st;

	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			return st;
		if (r < 0)
			return -1;
		if (now_ns() - start > limit_ms * MS) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			return -1;
		}
		sleep_ms(2);
	}
}

static void assert_exit(pid_t pid, int code)
{
	int st = reap(pid, 3000);

	assert_int_not_equal(st, -1);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), code);
}

/* ---- fixtures ---- */

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/gt-guardian-XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->rec, sizeof(f->rec), "%s/record", f->dir);
	snprintf(f->log, sizeof(f->log), "%s/guardian.log", f->dir);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	/* A failed assertion leaves its processes: kill and reap those still
	 * ours (a fake gputop before its guardian, which then becomes ours). */
	for (int i = 0; i < f->npids; i++)
		if (waitpid(f->pids[i], NULL, WNOHANG) == 0) {
			kill(f->pids[i], SIGKILL);
			waitpid(f->pids[i], NULL, 0);
		}
	unlink(f->rec);
	unlink(f->log);
	rmdir(f->dir);
	free(f);
	return 0;
}

static struct gt_guardian *
start(struct fx *f, const struct gt_restore_journal *j, uint64_t timeout_ns)
{
	struct gt_guardian *g = NULL;
	char err[256] = "";

	if (gt_guardian_start(&g, j, timeout_ns, fake_factory, f->rec, f->log,
	                      err, sizeof(err))) {
		print_error("gt_guardian_start: %s\n", err);
		fail();
	}
	track(f, gt_guardian_pid(g));
	return g;
}

/* A forked "gputop": starts the guardian with journal B, replaces it with
 * A, reports the guardian's pid on wfd, then heartbeats every hb_ms (0:
 * never) until it is killed or stopped. */
static _Noreturn void fake_gputop(struct fx *f, int wfd, uint64_t timeout_ns,
                                  unsigned hb_ms)
{
	struct gt_guardian *g = NULL;
	char err[256];
	pid_t pid;

	if (gt_guardian_start(&g, journal_b(), timeout_ns, fake_factory, f->rec,
	                      f->log, err, sizeof(err)) ||
	    gt_guardian_update(g, journal_a()))
		_exit(1);
	pid = gt_guardian_pid(g);
	if (write(wfd, &pid, sizeof(pid)) != (ssize_t)sizeof(pid))
		_exit(1);
	for (;;) {
		if (hb_ms) {
			gt_guardian_heartbeat(g);
			sleep_ms(hb_ms);
		} else {
			pause();
		}
	}
}

/* Forks fake_gputop; returns its pid and the guardian's. */
static pid_t spawn_gputop(struct fx *f, uint64_t timeout_ns, unsigned hb_ms,
                          pid_t *guardian)
{
	struct pollfd p;
	int fds[2];
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		fake_gputop(f, fds[1], timeout_ns, hb_ms);
	}
	close(fds[1]);
	track(f, pid);
	p = (struct pollfd){fds[0], POLLIN, 0};
	*guardian = 0;
	if (poll(&p, 1, 5000) != 1 ||
	    read(fds[0], guardian, sizeof(*guardian)) !=
	        (ssize_t)sizeof(*guardian)) {
		kill(pid, SIGKILL);
		reap(pid, 1000);
		close(fds[0]);
		fail_msg("fake gputop did not start its guardian");
	}
	track(f, *guardian);
	close(fds[0]);
	return pid;
}

/* The handle's socket: the one descriptor start opened. */
static int find_socket(const char *before)
{
	struct stat st;

	for (int fd = 3; fd < 256; fd++)
		if (!before[fd] && fcntl(fd, F_GETFD) != -1 &&
		    fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode))
			return fd;
	return -1;
}

static struct gt_guardian *
start_raw(struct fx *f, const struct gt_restore_journal *j, int *sock)
{
	char before[256];
	struct gt_guardian *g;

	for (int fd = 0; fd < 256; fd++)
		before[fd] = fcntl(fd, F_GETFD) != -1;
	g = start(f, j, GT_GUARDIAN_TIMEOUT_NS);
	*sock = find_socket(before);
	assert_true(*sock >= 0);
	return g;
}

static void send_raw(int sock, const void *buf, size_t n)
{
	assert_int_equal(send(sock, buf, n, MSG_NOSIGNAL), (ssize_t)n);
}

/* ---- tests ---- */

/* (1) gputop killed with SIGKILL: EOF, the newest journal restored
 * newest-first within a second. */
static void test_parent_killed(void **state)
{
	struct fx *f = *state;
	char buf[4096];
	pid_t guard,
	    gputop = spawn_gputop(f, GT_GUARDIAN_TIMEOUT_NS, 0, &guard);
	uint64_t t0;
	long ms;

	sleep_ms(100);
	assert_int_equal(count_lines(f->rec), 0);
	t0 = now_ns();
	assert_int_equal(kill(gputop, SIGKILL), 0);
	assert_int_not_equal(reap(gputop, 2000), -1);
	ms = wait_lines(f->rec, 3, t0, 1000);
	assert_int_not_equal(ms, -1);
	assert_string_equal(slurp(f->rec, buf, sizeof(buf)), A_RESTORED);
	assert_exit(guard, GT_GUARDIAN_EXIT_RESTORED);
	slurp(f->log, buf, sizeof(buf));
	assert_non_null(strstr(buf, "connection closed: gputop died; "
	                            "restoring 3 setting(s), 0 failed"));
	assert_non_null(
	    strstr(buf, "nvml-power-limit " NV " <- 250000 mW: ok"));
	print_message("      restored %ld ms after SIGKILL\n", ms);
}

/* (2) gputop stopped: the guardian restores once the 300 ms timeout has
 * passed without a heartbeat, and not before. */
static void test_parent_hung(void **state)
{
	struct fx *f = *state;
	char buf[4096];
	pid_t guard, gputop = spawn_gputop(f, 300 * MS, 20, &guard);
	uint64_t t0;
	long ms;

	sleep_ms(700); /* > timeout: the heartbeats keep it waiting */
	assert_int_equal(count_lines(f->rec), 0);
	assert_int_equal(kill(guard, 0), 0); /* still there */
	t0 = now_ns();
	assert_int_equal(kill(gputop, SIGSTOP), 0);
	ms = wait_lines(f->rec, 1, t0, 3000);
	print_message("      restored %ld ms after SIGSTOP\n", ms);
	/* The last heartbeat went at most 20 ms (plus scheduling) before
	 * the stop; the timer runs from it. */
	assert_true(ms >= 250);
	assert_true(ms <= 1000);
	assert_int_not_equal(wait_lines(f->rec, 3, t0, 1000), -1);
	assert_string_equal(slurp(f->rec, buf, sizeof(buf)), A_RESTORED);
	/* The guardian is the stopped gputop's child until that dies. */
	kill(gputop, SIGKILL);
	assert_int_not_equal(reap(gputop, 2000), -1);
	assert_exit(guard, GT_GUARDIAN_EXIT_RESTORED); /* the log is written */
	assert_non_null(
	    strstr(slurp(f->log, buf, sizeof(buf)), "no heartbeat for 300 ms"));
}

/* Open descriptors of process pid (-1 if /proc cannot tell). */
static int count_fds(pid_t pid)
{
	char path[64];
	struct dirent *e;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	if (!(d = opendir(path)))
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* (3) "done": gputop restored by itself; the guardian touches nothing
 * and logs a normal exit (not "gputop died"). */
static void test_clean_finish(void **state)
{
	struct fx *f = *state;
	struct gt_restore_journal *a = journal_a(), *b = journal_b();
	struct gt_guardian *g = start(f, a, GT_GUARDIAN_TIMEOUT_NS);
	pid_t pid = gt_guardian_pid(g);

	assert_int_equal(gt_guardian_update(g, b), 0);
	for (int i = 0; i < 10; i++)
		assert_int_equal(gt_guardian_heartbeat(g), 0);
	/* It kept nothing of gputop's: 0-2, its socket, its signalfd. */
	assert_int_equal(count_fds(pid), 5);
	assert_int_equal(gt_guardian_finish(g), GT_GUARDIAN_EXIT_DONE);
	assert_int_equal(waitpid(pid, NULL, WNOHANG), -1); /* reaped */
	gt_guardian_free(g);
	assert_int_equal(access(f->rec, F_OK), -1);
	char buf[1024];
	slurp(f->log, buf, sizeof(buf));
	assert_non_null(strstr(buf, "gputop exited normally, its changes "
	                            "restored or kept as asked; nothing to "
	                            "do\n"));
	assert_null(strstr(buf, "died"));
	assert_null(strstr(buf, "restoring"));
	free(a);
	free(b);
}

/* (4) a later journal replaces the earlier: the guardian restores B,
 * and in a second run, A. EOF by shutting the socket down (so that the
 * test, not gt_guardian_free, reaps the guardian); then EOF through
 * gt_guardian_free without "done". */
static void test_update(void **state)
{
	struct fx *f = *state;
	struct gt_restore_journal *a = journal_a(), *b = journal_b();
	struct gt_restore_journal *other = calloc(1, sizeof(*other));
	int sock;
	struct gt_guardian *g = start_raw(f, a, &sock);
	pid_t pid = gt_guardian_pid(g);
	char buf[4096];

	assert_int_equal(gt_guardian_update(g, b), 0);
	/* A journal for another sysfs root cannot be sent as text. */
	assert_int_equal(gt_restore_init(other, "/tmp/fixture-sys"), 0);
	errno = 0;
	assert_int_equal(gt_guardian_update(g, other), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(shutdown(sock, SHUT_WR), 0);
	assert_exit(pid, GT_GUARDIAN_EXIT_RESTORED);
	assert_string_equal(slurp(f->rec, buf, sizeof(buf)), B_RESTORED);
	gt_guardian_free(g);

	unlink(f->rec);
	g = start(f, b, GT_GUARDIAN_TIMEOUT_NS);
	pid = gt_guardian_pid(g);
	assert_int_equal(gt_guardian_update(g, a), 0);
	gt_guardian_free(g);
	assert_int_not_equal(wait_lines(f->rec, 3, now_ns(), 1000), -1);
	assert_string_equal(slurp(f->rec, buf, sizeof(buf)), A_RESTORED);
	reap(pid, 3000); /* unless free reaped it already */
	free(a);
	free(b);
	free(other);
}

/* (5) Ctrl-C, a closed session, Ctrl-Z, Ctrl-\ do nothing; SIGTERM
 * restores, then the guardian exits and gputop's heartbeat says so. */
static void test_signals(void **state)
{
	struct fx *f = *state;
	struct gt_restore_journal *a = journal_a();
	struct gt_guardian *g = start(f, a, GT_GUARDIAN_TIMEOUT_NS);
	pid_t pid = gt_guardian_pid(g);
	static const int sigs[] = {SIGINT, SIGHUP, SIGTSTP, SIGQUIT};
	char buf[4096];
	int rc = 0;

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		assert_int_equal(kill(pid, sigs[i]), 0);
	sleep_ms(200);
	/* Neither exited nor stopped. */
	assert_int_equal(waitpid(pid, NULL, WNOHANG | WUNTRACED), 0);
	assert_int_equal(count_lines(f->rec), 0);
	assert_int_equal(gt_guardian_heartbeat(g), 0);

	assert_int_equal(kill(pid, SIGTERM), 0);
	assert_int_not_equal(wait_lines(f->rec, 3, now_ns(), 1000), -1);
	assert_string_equal(slurp(f->rec, buf, sizeof(buf)), A_RESTORED);
	assert_exit(pid, GT_GUARDIAN_EXIT_RESTORED);
	assert_non_null(strstr(slurp(f->log, buf, sizeof(buf)), "SIGTERM"));
	for (int i = 0; i < 100 && rc == 0; i++)
		rc = gt_guardian_heartbeat(g);
	assert_int_equal(rc, -1);
	assert_int_equal(errno, EPIPE);
	gt_guardian_free(g);
	free(a);
}

/* (6) a malformed message: the guardian restores the last good journal
 * (B, sent after A) and exits. */
static void test_malformed(void **state)
{
	static const struct {
		const char *msg;
		size_t len;
		const char *why;
	} bad[] = {
	    {"X\0\0\0\0", 5, "type 0x58"},
	    {"H\3\0\0\0abc", 8, "'H' of 3 bytes"},
	    {"J\377\377\377\377", 5, "'J' of 4294967295 bytes"},
	    {"J\35\0\0\0gputop-restore 1\nbogus\nend 1\n", 34,
	     "malformed journal: journal:2:"},
	};
	struct fx *f = *state;
	struct gt_restore_journal *a = journal_a(), *b = journal_b();
	char buf[4096];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int sock;
		struct gt_guardian *g = start_raw(f, a, &sock);
		pid_t pid = gt_guardian_pid(g);

		assert_int_equal(gt_guardian_update(g, b), 0);
		assert_int_equal(gt_guardian_heartbeat(g), 0);
		send_raw(sock, bad[i].msg, bad[i].len);
		assert_exit(pid, GT_GUARDIAN_EXIT_RESTORED);
		assert_string_equal(slurp(f->rec, buf, sizeof(buf)),
		                    B_RESTORED);
		if (!strstr(slurp(f->log, buf, sizeof(buf)), bad[i].why))
			fail_msg("case %zu: log lacks \"%s\":\n%s", i,
			         bad[i].why, buf);
		gt_guardian_free(g);
		unlink(f->rec);
		unlink(f->log);
	}
	free(a);
	free(b);
}

/* Messages split into small pieces, as a stream may deliver them, are
 * reassembled: a journal in 7-byte pieces, a heartbeat in two. */
static void test_partial_reads(void **state)
{
	struct fx *f = *state;
	struct gt_restore_journal *a = journal_a(), *b = journal_b();
	char text[8192], msg[8192 + 5], buf[4096], err[128];
	int sock,
	    n = gt_restore_format(b, text, sizeof(text), err, sizeof(err));
	struct gt_guardian *g = start_raw(f, a, &sock);
	pid_t pid = gt_guardian_pid(g);

	assert_true(n > 0);
	msg[0] = 'J';
	for (int i = 0; i < 4; i++)
		msg[1 + i] = (char)(((unsigned)n >> (8 * i)) & 0xff);
	memcpy(msg + 5, text, (size_t)n);
	for (int off = 0; off < n + 5; off += 7) {
		send_raw(sock, msg + off,
		         (size_t)(n + 5 - off < 7 ? n + 5 - off : 7));
		sleep_ms(1);
	}
	send_raw(sock, "H\0", 2);
	sleep_ms(20);
	send_raw(sock, "\0\0\0", 3);
	assert_int_equal(gt_guardian_heartbeat(g), 0);
	sleep_ms(50);
	assert_int_equal(count_lines(f->rec), 0);
	assert_int_equal(shutdown(sock, SHUT_WR), 0); /* EOF */
	assert_exit(pid, GT_GUARDIAN_EXIT_RESTORED);
	gt_guardian_free(g);
	assert_string_equal(slurp(f->rec, buf, sizeof(buf)), B_RESTORED);
	free(a);
	free(b);
}

/* A factory that fails: start says why, and no guardian is left. */
static void test_factory_fails(void **state)
{
	struct fx *f = *state;
	struct gt_restore_journal *a = journal_a();
	struct gt_guardian *g = (struct gt_guardian *)1;
	char err[256] = "";

	assert_int_equal(gt_guardian_start(&g, a, GT_GUARDIAN_TIMEOUT_NS,
	                                   failing_factory, NULL, f->log, err,
	                                   sizeof(err)),
	                 -1);
	assert_null(g);
	assert_string_equal(err, "guardian: no NVML here");
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
	free(a);
}

/* A stopped guardian fills the socket: heartbeats still return at once.
 * Once it runs again it reads them all, and "done" still works. A waker
 * process continues the guardian after 4 s, so a heartbeat that blocks
 * fails the time check instead of hanging the test. */
static void test_heartbeat_never_blocks(void **state)
{
	struct fx *f = *state;
	struct gt_restore_journal *a = journal_a();
	struct gt_guardian *g = start(f, a, GT_GUARDIAN_TIMEOUT_NS);
	pid_t pid = gt_guardian_pid(g), waker;
	uint64_t t0, ms;
	int rc = 0;

	assert_int_equal(kill(pid, SIGSTOP), 0);
	fflush(NULL);
	waker = fork();
	assert_true(waker >= 0);
	if (waker == 0) {
		sleep_ms(4000);
		kill(pid, SIGCONT);
		_exit(0);
	}
	track(f, waker);
	t0 = now_ns();
	for (int i = 0; i < 20000 && rc == 0; i++)
		rc = gt_guardian_heartbeat(g);
	ms = (now_ns() - t0) / MS;
	print_message("      20000 heartbeats in %llu ms\n",
	              (unsigned long long)ms);
	kill(waker, SIGKILL);
	assert_int_not_equal(reap(waker, 1000), -1);
	assert_int_equal(rc, 0);
	assert_true(ms < 2000);
	assert_int_equal(kill(pid, SIGCONT), 0);
	assert_int_equal(gt_guardian_finish(g), GT_GUARDIAN_EXIT_DONE);
	gt_guardian_free(g);
	assert_int_equal(access(f->rec, F_OK), -1);
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_parent_killed, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(test_parent_hung, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_clean_finish, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_update, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_signals, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_malformed, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_partial_reads, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(test_factory_fails, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(test_heartbeat_never_blocks, setup,
	                                    teardown),
	};

	/* Guardians orphaned by a killed fake gputop are reparented to us,
	 * so they can be reaped and their exit status checked. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0))
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}

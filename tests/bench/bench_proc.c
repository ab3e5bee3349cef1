/* SPDX-License-Identifier: MIT */
/*
 * bench_proc.c - `make bench`'s whole-process benchmarks: the gputop binary
 * run as a user runs it, on a pseudo-terminal or in tmux, against the fake
 * NVML: startup to the first frame, wake-ups while idle, `gputop serve`'s
 * CPU while idle, and CPU against nvtop's on the same scenario. A baseline
 * binary (BENCH_BASELINE, e.g. a build of the previous commit) is measured
 * beside it in the same run.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "core/clock.h"

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* ---- a program on a pseudo-terminal ------------------------------------ */

/* A program running on a pseudo-terminal, with a thread that reads (and
 * throws away) what it writes, and notes when a marker text first came.
 * The first bytes are kept: a program that never drew says why there (a
 * library the loader did not find, a terminal without an entry). */
struct ptyrun {
	pid_t pid;
	int master;
	pthread_t reader;
	const char *marker;
	uint64_t start_ns;
	_Atomic uint64_t marker_ns; /* 0 until the marker was read */
	_Atomic bool stop;
	char head[400]; /* the reader's until ptyrun_stop joined it */
	size_t head_len;
};

static void *ptyrun_read(void *arg)
{
	struct ptyrun *r = arg;
	char buf[65536 + 64];
	size_t keep = 0, mlen = strlen(r->marker);

	while (!atomic_load(&r->stop)) {
		struct pollfd p = {.fd = r->master, .events = POLLIN};
		if (poll(&p, 1, 20) <= 0)
			continue;
		ssize_t n = read(r->master, buf + keep, 65536);
		if (n <= 0) {
			if (n == 0 || errno != EAGAIN)
				sleep_ms(5); /* the child is gone */
			continue;
		}
		size_t len = keep + (size_t)n,
		       room = sizeof(r->head) - r->head_len;
		if (room > 0) {
			size_t take = (size_t)n < room ? (size_t)n : room;
			memcpy(r->head + r->head_len, buf + keep, take);
			r->head_len += take;
		}
		if (!atomic_load(&r->marker_ns) &&
		    memmem(buf, len, r->marker, mlen))
			atomic_store(&r->marker_ns, mono_ns());
		/* A marker split between two reads is found in the next. */
		keep = len < mlen ? len : mlen - 1;
		memmove(buf, buf + len - keep, keep);
	}
	return NULL;
}

/* The environment every measured program gets: a fresh settings and state
 * directory with an empty sysfs root in it (nosys: no AMD or Intel GPU, as
 * a --sysfs that does not exist is a usage error), the fake NVML's scenario, a
 * UTF-8 locale, and the caller's TERMINFO_DIRS and LD_LIBRARY_PATH where it has
 * them (a machine without the terminal's entry or gputop's libraries, run from
 * tests/hw/bundle.sh's folder). libdir, where given, replaces the second. */
struct bench_env {
	char dir[64], nosys[80];
	char *envp[12];
	char store[9][600];
};

static int bench_env_init(struct bench_env *e, const char *scenario,
                          const char *term, const char *libdir)
{
	snprintf(e->dir, sizeof(e->dir), "/tmp/gputop-bench-env-XXXXXX");
	if (!mkdtemp(e->dir))
		return -1;
	snprintf(e->nosys, sizeof(e->nosys), "%s/nosys", e->dir);
	if (mkdir(e->nosys, 0755) != 0) {
		rmdir(e->dir);
		return -1;
	}
	snprintf(e->store[0], sizeof(e->store[0]), "HOME=%s", e->dir);
	snprintf(e->store[1], sizeof(e->store[1]), "XDG_CONFIG_HOME=%s",
	         e->dir);
	snprintf(e->store[2], sizeof(e->store[2]), "XDG_STATE_HOME=%s", e->dir);
	snprintf(e->store[3], sizeof(e->store[3]),
	         "GPUTOP_FAKE_NVML_SCENARIO=%s", scenario);
	snprintf(e->store[4], sizeof(e->store[4]), "TERM=%s", term);
	snprintf(e->store[5], sizeof(e->store[5]), "LANG=C.UTF-8");
	snprintf(e->store[6], sizeof(e->store[6]), "PATH=/usr/bin:/bin");
	int n = 7;
	const char *dirs = getenv("TERMINFO_DIRS");
	if (dirs && *dirs)
		snprintf(e->store[n++], sizeof(e->store[0]), "TERMINFO_DIRS=%s",
		         dirs);
	if (!libdir) /* where nvtop finds the fake NVML, when given */
		libdir = getenv("LD_LIBRARY_PATH");
	if (libdir && *libdir)
		snprintf(e->store[n++], sizeof(e->store[0]),
		         "LD_LIBRARY_PATH=%s", libdir);
	for (int i = 0; i < n; i++)
		e->envp[i] = e->store[i];
	e->envp[n] = NULL;
	return 0;
}

static void bench_env_free(struct bench_env *e)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", e->dir);
	if (system(cmd) != 0)
		fprintf(stderr, "bench: could not remove %s\n", e->dir);
}

static int ptyrun_start(struct ptyrun *r, char *const argv[],
                        char *const envp[], int cols, int rows,
                        const char *marker)
{
	struct winsize ws = {.ws_row = (unsigned short)rows,
	                     .ws_col = (unsigned short)cols};
	memset(r, 0, sizeof(*r));
	r->marker = marker;
	r->master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (r->master < 0 || grantpt(r->master) != 0 ||
	    unlockpt(r->master) != 0) {
		if (r->master >= 0)
			close(r->master);
		return -1;
	}
	const char *name = ptsname(r->master);
	fcntl(r->master, F_SETFL, fcntl(r->master, F_GETFL) | O_NONBLOCK);
	r->start_ns = mono_ns();
	r->pid = fork();
	if (r->pid == 0) {
		setsid();
		int s = name ? open(name, O_RDWR) : -1;
		if (s < 0)
			_exit(126);
		ioctl(s, TIOCSCTTY, 0);
		ioctl(s, TIOCSWINSZ, &ws);
		dup2(s, 0);
		dup2(s, 1);
		dup2(s, 2);
		if (s > 2)
			close(s);
		execve(argv[0], argv, envp);
		_exit(127);
	}
	if (r->pid < 0 ||
	    pthread_create(&r->reader, NULL, ptyrun_read, r) != 0) {
		if (r->pid > 0) {
			kill(r->pid, SIGKILL);
			waitpid(r->pid, NULL, 0);
		}
		close(r->master);
		return -1;
	}
	return 0;
}

/* Waits up to timeout_ms for the marker; its time since the start in ns,
 * 0 when it did not come. */
static uint64_t ptyrun_wait_marker(struct ptyrun *r, long timeout_ms)
{
	for (long t = 0; t < timeout_ms; t += 1) {
		uint64_t at = atomic_load(&r->marker_ns);
		if (at)
			return at - r->start_ns;
		sleep_ms(1);
	}
	return 0;
}

/* q, then SIGTERM, then SIGKILL; reaps the child and the reader. */
static void ptyrun_stop(struct ptyrun *r)
{
	int status;
	if (write(r->master, "q", 1) != 1)
		kill(r->pid, SIGTERM);
	for (int i = 0; i < 200; i++) {
		if (waitpid(r->pid, &status, WNOHANG) == r->pid)
			goto reaped;
		if (i == 100)
			kill(r->pid, SIGTERM);
		sleep_ms(10);
	}
	kill(r->pid, SIGKILL);
	waitpid(r->pid, &status, 0);
reaped:
	atomic_store(&r->stop, true);
	pthread_join(r->reader, NULL);
	close(r->master);
}

/* Says on stderr that `what` never showed its marker, and what it printed
 * first, its escape sequences left out. Call after ptyrun_stop. */
static void ptyrun_say_failed(const struct ptyrun *r, const char *what)
{
	char text[sizeof(r->head) + 1];
	size_t n = 0;
	for (size_t i = 0; i < r->head_len; i++) {
		unsigned char c = (unsigned char)r->head[i];
		if (c == 0x1b) { /* CSI: up to its final byte */
			if (i + 1 < r->head_len && r->head[i + 1] == '[')
				for (i += 2;
				     i < r->head_len && !(r->head[i] >= 0x40 &&
				                          r->head[i] <= 0x7e);
				     i++)
					;
			continue;
		}
		if (c >= 0x20 && c != 0x7f)
			text[n++] = (char)c;
		else if (n > 0 && text[n - 1] != ' ')
			text[n++] = ' ';
	}
	text[n] = '\0';
	fprintf(stderr, "bench: %s never showed '%s'; it printed: %s\n", what,
	        r->marker, n ? text : "(nothing)");
}

/* ---- what /proc says about a process --------------------------------- */

/* The voluntary context switches of all of pid's threads: each is a
 * thread going to sleep, so each is a wake-up to come. -1 if unreadable. */
static long wakeups_of(pid_t pid)
{
	char path[300], line[256];
	long sum = 0;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	struct dirent *e;
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/status",
		         (int)pid, e->d_name);
		FILE *f = fopen(path, "r");
		long v;
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "voluntary_ctxt_switches: %ld", &v) ==
			    1)
				sum += v;
		fclose(f);
	}
	closedir(d);
	return sum;
}

/* CPU time of all of pid's threads: ns on the CPU (schedstat, exact) and
 * clock ticks of user + system time (stat, what top shows). */
struct cpu_use {
	double ns;
	long ticks;
};

static bool cpu_of(pid_t pid, struct cpu_use *u)
{
	char path[300], buf[1024];
	memset(u, 0, sizeof(*u));
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *p = strrchr(buf, ')');
	unsigned long ut, st;
	/* After the name: state, then fields 4..13, utime (14), stime. */
	if (!p ||
	    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
	           &ut, &st) != 2)
		return false;
	u->ticks = (long)(ut + st);
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		unsigned long long ns;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/schedstat",
		         (int)pid, e->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		if (fscanf(f, "%llu", &ns) == 1)
			u->ns += (double)ns;
		fclose(f);
	}
	if (d)
		closedir(d);
	if (u->ns == 0) /* no schedstat: the ticks, coarser */
		u->ns = (double)u->ticks * 1e9 / (double)sysconf(_SC_CLK_TCK);
	return true;
}

/* ---- startup and wake-ups ---------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* gputop's command line for a run on the fake NVML, sysfs its env's nosys. */
static void gputop_argv(char **argv, const char *bin, const char *lib,
                        const char *sysfs, const char *interval)
{
	static char o_lib[] = "--nvml-lib", o_sysfs[] = "--sysfs",
	            o_iv[] = "--interval";
	argv[0] = (char *)bin;
	argv[1] = o_lib;
	argv[2] = (char *)lib;
	argv[3] = o_sysfs;
	argv[4] = (char *)sysfs;
	argv[5] = o_iv;
	argv[6] = (char *)interval;
	argv[7] = NULL;
}

/* The median of `runs` startups of bin, in ms; its range in lo, hi. -1
 * when a run never drew its first frame. */
static double startup_ms(const char *bin, const struct bench_proc_cfg *cfg,
                         const struct bench_env *env, int runs, double *lo,
                         double *hi)
{
	uint64_t t[16];
	char *argv[8];
	gputop_argv(argv, bin, cfg->fake_lib, env->nosys, "1");
	if (runs > 16)
		runs = 16;
	for (int i = 0; i < runs; i++) {
		struct ptyrun r;
		/* The status line is the frame's last row: once its keys
		 * are out, the whole first frame is. */
		if (ptyrun_start(&r, argv, env->envp, 200, 60, "q quit") != 0)
			return -1;
		t[i] = ptyrun_wait_marker(&r, 5000);
		ptyrun_stop(&r);
		if (!t[i]) {
			ptyrun_say_failed(&r, bin);
			return -1;
		}
	}
	qsort(t, (size_t)runs, sizeof(t[0]), cmp_u64);
	*lo = (double)t[0] / 1e6;
	*hi = (double)t[runs - 1] / 1e6;
	return (double)t[runs / 2] / 1e6;
}

#define STARTUP_TARGET "startup to the first frame, 8 GPUs"
#define WAKEUPS_TARGET "idle wake-ups per second at 1 s"
#define SERVE_TARGET   "serve idle at 1 s, share of one core"

void bench_proc_startup(const struct bench_proc_cfg *cfg, struct verdicts *vd)
{
	struct bench_env env;
	const int runs = 11;
	double lo, hi;

	if (bench_env_init(&env, cfg->scenario, "xterm-256color", NULL) != 0) {
		judge_not_run(vd, STARTUP_TARGET);
		return;
	}
	printf("startup: exec to the first frame drawn (8 GPUs, 200x60 "
	       "pseudo-terminal), median of %d runs\n",
	       runs);
	double ms = startup_ms(cfg->gputop, cfg, &env, runs, &lo, &hi);
	if (ms < 0) {
		printf("  gputop never drew its first frame\n");
		judge(vd, STARTUP_TARGET, 1e9, 50, "ms");
	} else {
		printf("  gputop:   %8.1f ms  (%.1f..%.1f; target < 50 ms)\n",
		       ms, lo, hi);
		judge(vd, STARTUP_TARGET, ms, 50, "ms");
	}
	if (cfg->baseline) {
		double b = startup_ms(cfg->baseline, cfg, &env, runs, &lo, &hi);
		if (b < 0)
			printf("  baseline: never drew its first frame\n");
		else
			printf("  baseline: %8.1f ms  (%.1f..%.1f)  %s\n", b,
			       lo, hi, cfg->baseline);
	}
	bench_env_free(&env);
}

void bench_proc_wakeups(const struct bench_proc_cfg *cfg, struct verdicts *vd)
{
	const int secs = 10;
	struct bench_env env;
	struct ptyrun run[2];
	const char *bins[2] = {cfg->gputop, cfg->baseline};
	long before[2], after[2];
	int n = cfg->baseline ? 2 : 1;

	if (bench_env_init(&env, cfg->scenario, "xterm-256color", NULL) != 0) {
		judge_not_run(vd, WAKEUPS_TARGET);
		return;
	}
	for (int i = 0; i < n; i++) {
		char *argv[8];
		gputop_argv(argv, bins[i], cfg->fake_lib, env.nosys, "1");
		if (ptyrun_start(&run[i], argv, env.envp, 200, 60, "q quit") !=
		    0) {
			fprintf(stderr, "bench: cannot start %s\n", bins[i]);
			n = i;
			break;
		}
	}
	if (n == 0)
		judge_not_run(vd, WAKEUPS_TARGET);
	/* A gputop that never drew is not idle: it is not running, and its
	 * zero wake-ups say nothing. */
	bool drew[2] = {false, false};
	for (int i = 0; i < n; i++)
		drew[i] = ptyrun_wait_marker(&run[i], 5000) != 0;
	sleep_ms(2000); /* past the start and the first frames */
	for (int i = 0; i < n; i++)
		before[i] = wakeups_of(run[i].pid);
	sleep_ms(secs * 1000);
	for (int i = 0; i < n; i++)
		after[i] = wakeups_of(run[i].pid);
	printf("idle wake-ups: 1 s interval, no input, 200x60, voluntary "
	       "context switches of all threads over %d s\n",
	       secs);
	for (int i = 0; i < n; i++) {
		double per_s = (double)(after[i] - before[i]) / secs;
		if (!drew[i])
			printf("  %-9s never drew its first frame\n",
			       i ? "baseline:" : "gputop:");
		else
			printf(
			    "  %-9s %6ld in %d s = %5.1f per second%s%s\n",
			    i ? "baseline:" : "gputop:", after[i] - before[i],
			    secs, per_s, i ? "  " : "  (target at most 3)",
			    i ? bins[i] : "");
		if (i == 0)
			judge_at_most(vd, WAKEUPS_TARGET,
			              !drew[i] || before[i] < 0 || after[i] < 0
			                  ? 1e9
			                  : per_s,
			              3, "/s");
	}
	for (int i = 0; i < n; i++) {
		ptyrun_stop(&run[i]);
		if (!drew[i])
			ptyrun_say_failed(&run[i], bins[i]);
	}
	bench_env_free(&env);
}

/* ---- gputop serve, idle ---------------------------------------------- */

void bench_proc_serve(const struct bench_proc_cfg *cfg, struct verdicts *vd)
{
	const int secs = 25;
	struct bench_env env;
	struct ptyrun run;
	struct cpu_use before, after;
	char *argv[12];
	static char serve[] = "serve", o_listen[] = "--listen",
	            any[] = "127.0.0.1:0";

	if (bench_env_init(&env, cfg->scenario, "xterm-256color", NULL) != 0) {
		judge_not_run(vd, SERVE_TARGET);
		return;
	}
	gputop_argv(argv, cfg->gputop, cfg->fake_lib, env.nosys, "1");
	argv[7] = serve;
	argv[8] = o_listen;
	argv[9] = any;
	argv[10] = NULL;
	if (ptyrun_start(&run, argv, env.envp, 80, 24, "serving http") != 0) {
		fprintf(stderr, "bench: gputop serve did not start\n");
		judge_not_run(vd, SERVE_TARGET);
		bench_env_free(&env);
		return;
	}
	if (!ptyrun_wait_marker(&run, 5000)) {
		ptyrun_stop(&run);
		ptyrun_say_failed(&run, "gputop serve");
		judge(vd, SERVE_TARGET, 1e9, 0.05, "%");
		bench_env_free(&env);
		return;
	}
	sleep_ms(3000); /* past the first rounds */
	bool ok = cpu_of(run.pid, &before);
	sleep_ms(secs * 1000);
	ok = ok && cpu_of(run.pid, &after);
	double pct = ok ? (after.ns - before.ns) / (secs * 1e9) * 100 : 1e9;
	printf("serve idle: gputop serve, 8 GPUs, 1 s interval, no scrape, "
	       "CPU of all threads over %d s\n"
	       "  %.4f %% of one core = %.0f us CPU per second (%ld clock "
	       "ticks)  (target < 0.05 %%)\n",
	       secs, pct, pct * 1e4, after.ticks - before.ticks);
	judge(vd, SERVE_TARGET, pct, 0.05, "%");
	ptyrun_stop(&run);
	bench_env_free(&env);
}

/* ---- against nvtop ------------------------------------------------------ */

/* `name` on PATH, into out; false when there is none. */
static bool on_path(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH");
	char dir[512];
	while (path && *path) {
		size_t k = strcspn(path, ":");
		snprintf(dir, sizeof(dir), "%.*s", (int)k, path);
		snprintf(out, len, "%s/%s", dir[0] ? dir : ".", name);
		if (access(out, X_OK) == 0)
			return true;
		path += k + (path[k] == ':');
	}
	return false;
}

/* One program measured in a tmux window. */
struct contender {
	char cmd[2048];
	pid_t pid;
	struct cpu_use a, b;
	/* For nvtop: the folder whose libnvidia-ml it must load, and the
	 * NVML it did load when that was another one. */
	const char *nvml_dir;
	char wrong_nvml[512];
};

/* Whether pid has an NVML mapped from outside dir; its path into c.
 * nvtop asks for libnvidia-ml.so before libnvidia-ml.so.1: on a machine
 * with the NVIDIA driver, a folder without the first name lets it load
 * the real one, and the comparison would set gputop on the fake against
 * nvtop on the real driver. */
static bool loads_other_nvml(pid_t pid, const char *dir, struct contender *c)
{
	char path[64], line[1024], real_dir[512];
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	if (!realpath(dir, real_dir))
		snprintf(real_dir, sizeof(real_dir), "%s", dir);
	size_t n = strlen(real_dir);
	bool other = false;
	while (!other && fgets(line, sizeof(line), f)) {
		const char *lib = strchr(line, '/');
		if (!lib || !strstr(lib, "libnvidia-ml"))
			continue;
		other = strncmp(lib, real_dir, n) != 0 || lib[n] != '/';
		if (other)
			snprintf(c->wrong_nvml, sizeof(c->wrong_nvml), "%.*s",
			         (int)strcspn(lib, "\n"), lib);
	}
	fclose(f);
	return other;
}

/* Runs `fmt` through the shell; its first line of output into out. */
static int shell_line(char *out, size_t len, const char *cmd)
{
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	if (!fgets(out, (int)len, p))
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	return pclose(p) == 0 ? 0 : -1;
}

/* One contender alone in a tmux server of its own at 200x60: secs
 * seconds after a settling time. Alone, as a user runs it: run side by
 * side on a small machine, each one's wake-ups wait for the others' and a
 * program of two threads (gputop) pays more for that than one of a single
 * thread. False when it could not run. */
static bool run_in_tmux(struct contender *c, const char *sock, int secs)
{
	char cmd[3072], line[64];
	snprintf(cmd, sizeof(cmd),
	         "tmux -L %s -f /dev/null new-session -d -x 200 -y 60 "
	         "-s c \"exec %s\" && tmux -L %s display -p -t c "
	         "'#{pane_pid}'",
	         sock, c->cmd, sock);
	bool ok = shell_line(line, sizeof(line), cmd) == 0 &&
	          (c->pid = (pid_t)atoi(line)) > 0;
	if (ok) {
		sleep_ms(3000);
		ok = !(c->nvml_dir &&
		       loads_other_nvml(c->pid, c->nvml_dir, c)) &&
		     cpu_of(c->pid, &c->a);
		if (ok) /* a refused round does not wait out its window */
			sleep_ms(secs * 1000L);
		ok = ok && cpu_of(c->pid, &c->b);
	}
	snprintf(cmd, sizeof(cmd), "tmux -L %s kill-server 2>/dev/null", sock);
	(void)!system(cmd); /* the server may be gone already */
	return ok;
}

/* gputop's command line for tmux, its environment first. */
static void gputop_cmd(char *out, size_t len, const char *envs, const char *bin,
                       const char *lib, const char *sysfs, const char *iv)
{
	snprintf(out, len, "%s '%s' --nvml-lib '%s' --sysfs '%s' --interval %s",
	         envs, bin, lib, sysfs, iv);
}

/* The rounds of the comparison: BENCH_PEER_ROUNDS, else 3. One 30 s
 * window moves by 10-30 % from run to run on a shared VM, enough to put
 * the same build on either side of a target; the verdict takes the
 * median round, and every round is printed. */
static int peer_rounds(void)
{
	const char *e = getenv("BENCH_PEER_ROUNDS");
	int n = e ? atoi(e) : 3;
	return n < 1 ? 1 : n > 9 ? 9 : n;
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median of the n sorted values v. */
static double median_of(const double *v, int n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The command of contender i (0 gputop, 1 nvtop, 2 the baseline) at
 * interval iv, nvtop's -d in tenths, into c->cmd; gputop's --sysfs is
 * sysfs. */
static void contender_cmd(struct contender *c, int i, const char *envs,
                          const struct bench_proc_cfg *cfg, const char *nvtop,
                          const char *sysfs, const char *iv, const char *tenths)
{
	if (i == 1)
		snprintf(c->cmd, sizeof(c->cmd), "%s '%s' -d %s", envs, nvtop,
		         tenths);
	else
		gputop_cmd(c->cmd, sizeof(c->cmd), envs,
		           i == 0 ? cfg->gputop : cfg->baseline, cfg->fake_lib,
		           sysfs, iv);
}

/* The comparison's rates: gputop's --interval, nvtop's -d (tenths), the
 * target and its limit on the ratio. */
static const struct {
	const char *gputop, *nvtop, *what;
	double limit;
} rates[] = {
    {"0.1", "1", "CPU against nvtop at 0.1 s (gputop/nvtop)", 1.0 / 3},
    {"1", "10", "CPU against nvtop at 1 s (gputop/nvtop)", 0.5},
};

/* ---- the machine's wake-up floor ---------------------------------------- */

/* A thread that sleeps to a timer every interval and, when `signal`,
 * wakes a second one through an eventfd: gputop's collector and
 * dashboard with nothing to sample or draw; without `signal`, nvtop's one
 * thread. What the kernel charges a wake-up differs widely between
 * machines (a VM's timer and idle exits cost far more than bare metal's),
 * and it is paid whatever a program does in between. */
struct floor_run {
	uint64_t interval_ns, until_ns;
	int efd; /* -1: no second thread */
	_Atomic bool stop;
	uint64_t cpu_ns[2]; /* sleeper, woken */
};

static void *floor_woken(void *arg)
{
	struct floor_run *f = arg;
	uint64_t c0 = gt_thread_cpu_ns(), v;
	while (!atomic_load(&f->stop)) {
		struct pollfd p = {.fd = f->efd, .events = POLLIN};
		if (poll(&p, 1, -1) > 0)
			(void)!read(f->efd, &v, sizeof(v));
	}
	f->cpu_ns[1] = gt_thread_cpu_ns() - c0;
	return NULL;
}

/* ms of CPU a second that the sleeper (and the woken thread) used. */
static void floor_measure(uint64_t interval_ns, bool signal, double ms[2])
{
	struct floor_run f = {.interval_ns = interval_ns, .efd = -1};
	pthread_t t;
	bool woken = false;
	ms[0] = ms[1] = 0;
	if (signal) {
		f.efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		woken = f.efd >= 0 &&
		        pthread_create(&t, NULL, floor_woken, &f) == 0;
		if (!woken) {
			if (f.efd >= 0)
				close(f.efd);
			return;
		}
	}
	struct timespec due;
	clock_gettime(CLOCK_MONOTONIC, &due);
	const int secs = 5;
	uint64_t c0 = gt_thread_cpu_ns();
	for (uint64_t n = 0; n < secs * 1000000000ull / interval_ns; n++) {
		due.tv_nsec += (long)(interval_ns % 1000000000ull);
		due.tv_sec += (time_t)(interval_ns / 1000000000ull);
		if (due.tv_nsec >= 1000000000L) {
			due.tv_nsec -= 1000000000L;
			due.tv_sec++;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due,
		                       NULL) == EINTR)
			;
		uint64_t one = 1;
		if (woken)
			(void)!write(f.efd, &one, sizeof(one));
	}
	f.cpu_ns[0] = gt_thread_cpu_ns() - c0;
	if (woken) {
		uint64_t last = 1; /* wakes it to see stop */
		atomic_store(&f.stop, true);
		(void)!write(f.efd, &last, sizeof(last));
		pthread_join(t, NULL);
		close(f.efd);
	}
	ms[0] = f.cpu_ns[0] / 1e6 / secs;
	ms[1] = f.cpu_ns[1] / 1e6 / secs;
}

/* The floor at one of the comparison's intervals, printed. */
static void floor_print(const char *interval)
{
	double two[2], one[2];
	uint64_t iv = (uint64_t)(atof(interval) * 1e9);
	floor_measure(iv, true, two);
	floor_measure(iv, false, one);
	printf("    wake-ups alone here (5 s each): a thread on a %s s timer "
	       "waking a second one, as gputop's two do with nothing to "
	       "sample or draw, %.2f ms/s (%.2f + %.2f); one thread, as "
	       "nvtop's, %.2f ms/s: part of every figure below, whatever "
	       "either program does\n",
	       interval, two[0] + two[1], two[0], two[1], one[0]);
}

static void peer_not_run(struct verdicts *vd)
{
	for (size_t r = 0; r < sizeof(rates) / sizeof(rates[0]); r++)
		judge_not_run(vd, rates[r].what);
}

void bench_proc_nvtop(const struct bench_proc_cfg *cfg, struct verdicts *vd)
{
	const int secs = 30, rounds = peer_rounds();
	char nvtop[1024], tmux[1024], libdir[512], sock[80];
	struct bench_env env;

	printf("against nvtop: the whole process in tmux at 200x60, the fake "
	       "NVML's scenario %s, %d s each, %d rounds (each program alone, "
	       "the order turned each round; verdict on the median round)\n",
	       cfg->scenario, secs, rounds);
	if (!on_path("nvtop", nvtop, sizeof(nvtop)) ||
	    !on_path("tmux", tmux, sizeof(tmux))) {
		printf("  not run: no %s on PATH; put an nvtop binary (built "
		       "from its source) on PATH to compare\n",
		       on_path("tmux", tmux, sizeof(tmux)) ? "nvtop" : "tmux");
		peer_not_run(vd);
		return;
	}
	snprintf(libdir, sizeof(libdir), "%s", cfg->fake_lib);
	char *slash = strrchr(libdir, '/');
	if (slash)
		*slash = '\0';
	if (bench_env_init(&env, cfg->scenario, "tmux-256color", libdir) != 0) {
		peer_not_run(vd);
		return;
	}
	printf("  nvtop: %s (NVML from %s)\n", nvtop, libdir);
	char envs[1600] = "env";
	for (int i = 0; env.envp[i]; i++) {
		size_t k = strlen(envs);
		snprintf(envs + k, sizeof(envs) - k, " '%s'", env.envp[i]);
	}
	const int n = cfg->baseline ? 3 : 2;
	for (size_t r = 0; r < sizeof(rates) / sizeof(rates[0]); r++) {
		double ratio[9], base_ratio[9];
		int done = 0;
		printf("  %s s interval:\n", rates[r].gputop);
		floor_print(rates[r].gputop);
		for (int k = 0; k < rounds; k++) {
			struct contender c[3] = {0};
			double ms[3] = {0};
			bool ok = true;
			for (int j = 0; j < n && ok; j++) {
				/* The order turns each round. */
				int i = (j + k) % n;
				contender_cmd(&c[i], i, envs, cfg, nvtop,
				              env.nosys, rates[r].gputop,
				              rates[r].nvtop);
				c[i].nvml_dir = i == 1 ? libdir : NULL;
				/* A server of its own each time: the last one
				 * may still be shutting down. */
				snprintf(sock, sizeof(sock),
				         "gputop-bench-%d-%zu-%d",
				         (int)getpid(), r, k * 3 + i);
				ok = run_in_tmux(&c[i], sock, secs);
				ms[i] = (c[i].b.ns - c[i].a.ns) / 1e6;
			}
			if (c[1].wrong_nvml[0]) {
				printf("    round %d: nvtop loaded %s, not the "
				       "fake NVML in %s (give that folder a "
				       "libnvidia-ml.so link); not counted\n",
				       k + 1, c[1].wrong_nvml, libdir);
				continue;
			}
			if (!ok || ms[1] <= 0) {
				printf("    round %d: a program did not run in "
				       "tmux\n",
				       k + 1);
				continue;
			}
			ratio[done] = ms[0] / ms[1];
			base_ratio[done] = ms[2] / ms[1];
			printf("    round %d: gputop %6.1f ms, nvtop %6.1f ms "
			       "CPU in %d s = %.2f",
			       k + 1, ms[0], ms[1], secs, ratio[done]);
			if (cfg->baseline)
				printf("; baseline %6.1f ms = %.2f", ms[2],
				       base_ratio[done]);
			printf("\n");
			done++;
		}
		if (!done) {
			judge_at_most(vd, rates[r].what, 1e9, rates[r].limit,
			              "x");
			continue;
		}
		double sorted[9];
		memcpy(sorted, ratio, sizeof(double) * (size_t)done);
		qsort(sorted, (size_t)done, sizeof(double), compare_double);
		double mid = median_of(sorted, done);
		printf("    gputop / nvtop = %.2f, median of %d rounds "
		       "(%.2f..%.2f; target at most %.2f)\n",
		       mid, done, sorted[0], sorted[done - 1], rates[r].limit);
		if (cfg->baseline) {
			qsort(base_ratio, (size_t)done, sizeof(double),
			      compare_double);
			printf("    baseline / nvtop = %.2f, median\n",
			       median_of(base_ratio, done));
		}
		judge_at_most(vd, rates[r].what, mid, rates[r].limit, "x");
	}
	bench_env_free(&env);
}

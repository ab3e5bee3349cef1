/* SPDX-License-Identifier: MIT */
/*
 * bench.c - `make bench`: the collector's CPU cost per tick against the fake
 * NVML (8 GPUs, 100 processes, the fake's own cost included) and the sample
 * ring's write/read throughput, the dashboard's frames (bench_render.c)
 * and the DRM fdinfo scan; then gputop as a whole process (bench_proc.c):
 * startup, idle wake-ups, CPU against nvtop (`make bench-peer`). Prints
 * measurements and, at the end, each target met or missed (exit status 3 when
 * one was missed); not part of `make check`, since timing belongs in
 * benchmarks, not in the test suite.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "collectors/registry.h"
#include "core/collector.h"
#include "core/ring.h"
#include "linux/fdinfo.h"
#include "linux/procinfo.h"

static uint64_t cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Measurements are taken in BATCHES batches: the mean over all ticks is
 * the figure the target is judged by; the median of the batch means and
 * their range show how much of it other load on the machine added. */
enum { BATCHES = 10 };

struct cost {
	double mean, median, lo, hi; /* ns */
};

static void add_verdict(struct verdicts *vd, const char *what, double value,
                        double limit, const char *unit, bool at_most)
{
	if (vd->n == BENCH_MAX_VERDICTS)
		return;
	vd->v[vd->n].what = what;
	vd->v[vd->n].unit = unit;
	vd->v[vd->n].value = value;
	vd->v[vd->n].limit = limit;
	vd->v[vd->n].at_most = at_most;
	vd->v[vd->n].not_run = false;
	vd->n++;
}

void judge_not_run(struct verdicts *vd, const char *what)
{
	if (vd->n == BENCH_MAX_VERDICTS)
		return;
	add_verdict(vd, what, 0, 0, "", false);
	vd->v[vd->n - 1].not_run = true;
}

struct gt_collector *bench_collector_open(const struct gt_collector_config *cfg,
                                          size_t want)
{
	struct gt_collector *c = gt_collector_open(cfg);
	size_t n = c ? gt_collector_device_count(c) : 0, nb = 0;
	if (c && n == want)
		return c;
	const struct gt_backend *b = c ? gt_collector_backends(c, &nb) : NULL;
	fprintf(stderr,
	        "bench: %zu GPUs from the fake NVML, not %zu (scenario %s): "
	        "%s\n",
	        n, want, getenv("GPUTOP_FAKE_NVML_SCENARIO"),
	        !c        ? "the collector did not open"
	        : b && nb ? b[0].detail
	                  : "?");
	gt_collector_close(c);
	return NULL;
}

FILE *bench_scenario(char *tmpl, const char *base_scn, int nproc)
{
	int fd = mkstemp(tmpl);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		fprintf(stderr, "bench: cannot write a scenario in /tmp: %s\n",
		        strerror(errno));
		exit(1);
	}
	/* include resolves from the new file's directory, /tmp: the base
	 * as given on the command line may be relative to ours. */
	char *abs = realpath(base_scn, NULL);
	fprintf(f, "include %s\n", abs ? abs : base_scn);
	free(abs);
	for (int i = 0; i < nproc; i++)
		fprintf(f, "device %d\nprocess compute %d 512MiB\n", i % 8,
		        300000 + i);
	return f;
}

void judge(struct verdicts *vd, const char *what, double value, double limit,
           const char *unit)
{
	add_verdict(vd, what, value, limit, unit, false);
}

void judge_at_most(struct verdicts *vd, const char *what, double value,
                   double limit, const char *unit)
{
	add_verdict(vd, what, value, limit, unit, true);
}

/* Prints every target; returns how many were missed. */
static int verdicts_print(const struct verdicts *vd)
{
	int missed = 0;
	printf("targets:\n");
	for (int i = 0; i < vd->n; i++) {
		bool met = vd->v[i].at_most ? vd->v[i].value <= vd->v[i].limit
		                            : vd->v[i].value < vd->v[i].limit;
		if (vd->v[i].not_run) {
			missed++;
			printf("  %-6s %-44s   not run\n", "MISSED",
			       vd->v[i].what);
			continue;
		}
		missed += !met;
		printf("  %-6s %-44s %9.2f %s (%s %g)\n",
		       met ? "met" : "MISSED", vd->v[i].what, vd->v[i].value,
		       vd->v[i].unit, vd->v[i].at_most ? "<=" : "<",
		       vd->v[i].limit);
	}
	return missed;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static struct cost cost_of(const double *batch, int n)
{
	struct cost c = {0, 0, 0, 0};
	double sorted[BATCHES];

	for (int i = 0; i < n; i++) {
		sorted[i] = batch[i];
		c.mean += batch[i] / n;
	}
	qsort(sorted, (size_t)n, sizeof(sorted[0]), cmp_double);
	c.median =
	    n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	c.lo = sorted[0];
	c.hi = sorted[n - 1];
	return c;
}

/* CPU ns of one scheduled tick over n rounds (BATCHES batches of n /
 * BATCHES), with the process and slow cadences each either due on every
 * tick or never. Unless pids is NULL, *pids gets the published process
 * list's pids (malloc'd, *npids of them) and *nalive how many of them
 * /proc knows. */
static struct cost tick_cost(const char *lib, bool procs, bool slow, int n,
                             size_t *ndev, int32_t **pids, size_t *npids,
                             size_t *nalive)
{
	const uint64_t never = 3600000000000ull, always = 1;
	struct gt_collector_config cfg = {
	    .platform = &gt_registry_platform,
	    .backend = {.nvml_lib = lib, .procfs_root = getenv("BENCH_PROCFS")},
	    .interval_ns = 1000000000ull,
	    .proc_interval_ns = procs ? always : never,
	    .slow_interval_ns = slow ? always : never,
	};
	struct gt_collector *c = gt_collector_open(&cfg);
	size_t nb = 0;
	if (!c || gt_collector_device_count(c) == 0) {
		fprintf(stderr, "bench: no devices from %s: %s\n", lib,
		        c && gt_collector_backends(c, &nb) && nb
		            ? gt_collector_backends(c, &nb)[0].detail
		            : "?");
		gt_collector_close(c);
		exit(1);
	}
	gt_collector_tick(c, GT_TICK_ALL); /* warm caches and counters */
	double batch[BATCHES];
	for (int b = 0; b < BATCHES; b++) {
		uint64_t t0 = cpu_ns();
		for (int i = 0; i < n / BATCHES; i++)
			gt_collector_tick(c, GT_TICK_SCHEDULED);
		batch[b] = (double)(cpu_ns() - t0) / (n / BATCHES);
	}

	struct gt_pub *plist = gt_collector_proclist(c);
	int slot = gt_pub_reader_open(plist);
	const struct gt_proclist *pl = gt_pub_acquire(plist, slot);
	if (pids) {
		*npids = pl ? pl->count : 0;
		*nalive = 0;
		*pids = calloc(*npids ? *npids : 1, sizeof(**pids));
		if (!*pids)
			exit(1);
		for (size_t i = 0; i < *npids; i++) {
			(*pids)[i] = pl->items[i].pid;
			*nalive += pl->items[i].host_known;
		}
	}
	gt_pub_release(plist, slot);
	gt_pub_reader_close(plist, slot);
	*ndev = gt_collector_device_count(c);
	gt_collector_close(c);
	return cost_of(batch, BATCHES);
}

/* The host side of a process round alone: CPU ns of one round of
 * gt_procinfo_fill over pids and the sweep, as the collector makes it. */
static struct cost host_cost(const int32_t *pids, size_t n, int rounds)
{
	struct gt_procinfo *pi = gt_procinfo_new(getenv("BENCH_PROCFS"));
	struct gt_process p;
	double batch[BATCHES];

	if (!pi)
		exit(1);
	for (int b = -1; b < BATCHES; b++) { /* batch -1 warms the cache */
		uint64_t t0 = cpu_ns();
		for (int r = 0; r < (b < 0 ? 1 : rounds / BATCHES); r++) {
			struct timespec ts;
			clock_gettime(CLOCK_MONOTONIC, &ts);
			uint64_t now = (uint64_t)ts.tv_sec * 1000000000ull +
			               (uint64_t)ts.tv_nsec;
			for (size_t i = 0; i < n; i++) {
				memset(&p, 0, sizeof(p));
				p.pid = pids[i];
				gt_procinfo_fill(pi, &p, now);
				free(p.cmdline);
			}
			gt_procinfo_sweep(pi, now);
		}
		if (b >= 0)
			batch[b] = (double)(cpu_ns() - t0) / (rounds / BATCHES);
	}
	gt_procinfo_free(pi);
	return cost_of(batch, BATCHES);
}

/* 100 live processes, so the host-side lookups read real /proc files;
 * a scenario placing them on the 8 GPUs of the bench node is written to a
 * temporary file. Returns the number of children started. */
static int spawn_workload(const char *base_scn, char *scn_out, size_t len,
                          pid_t *kids, int n)
{
	char tmpl[] = "/tmp/gputop-bench-XXXXXX";
	int fd = mkstemp(tmpl);
	if (fd < 0)
		return -1;
	FILE *f = fdopen(fd, "w");
	/* include resolves from the new file's directory, /tmp: the base
	 * as given on the command line may be relative to ours. */
	char *abs = realpath(base_scn, NULL);
	fprintf(f, "include %s\n", abs ? abs : base_scn);
	free(abs);
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid == 0) {
			pause();
			_exit(0);
		}
		kids[i] = pid;
		fprintf(
		    f,
		    "device %d\nprocess compute %d 1GiB\nputil %d 50 20 0 0\n",
		    i % 8, (int)pid, (int)pid);
	}
	fclose(f);
	snprintf(scn_out, len, "%s", tmpl);
	return n;
}

static void print_cost(const char *what, struct cost c)
{
	printf("  %-34s %8.1f us CPU  (batches: median %.1f, %.1f..%.1f)\n",
	       what, c.mean / 1e3, c.median / 1e3, c.lo / 1e3, c.hi / 1e3);
}

/* Mean and median of a difference; no range (that of a difference is not
 * the difference of the ranges). */
static struct cost cost_minus(struct cost a, struct cost b)
{
	struct cost d = {a.mean - b.mean, a.median - b.median, 0, 0};
	return d;
}

static void bench_collector(const char *lib, const char *base_scn,
                            struct verdicts *vd)
{
	enum { KIDS = 100 };
	pid_t kids[KIDS];
	char scn[64];
	size_t ndev, npids, nalive;
	int32_t *pids;

	if (spawn_workload(base_scn, scn, sizeof(scn), kids, KIDS) < 0) {
		perror("bench: workload");
		exit(1);
	}
	setenv("GPUTOP_FAKE_NVML_SCENARIO", scn, 1);
	struct cost fast =
	    tick_cost(lib, false, false, 5000, &ndev, NULL, NULL, NULL);
	struct cost with_procs =
	    tick_cost(lib, true, false, 1000, &ndev, &pids, &npids, &nalive);
	struct cost host = host_cost(pids, npids, 1000);
	free(pids);
	struct cost with_slow =
	    tick_cost(lib, false, true, 1000, &ndev, NULL, NULL, NULL);
	for (int i = 0; i < KIDS; i++)
		kill(kids[i], SIGKILL);
	while (wait(NULL) > 0)
		;
	unlink(scn);

	struct cost procs = cost_minus(with_procs, fast);
	struct cost slow = cost_minus(with_slow, fast);
	struct cost slow_counted = {slow.mean > 0 ? slow.mean : 0,
	                            slow.median > 0 ? slow.median : 0, 0, 0};
	/* Defaults: 1 s ticks, processes every 2 s, slow calls every 5 s. */
	double mean = fast.mean + procs.mean / 2.0 + slow_counted.mean / 5.0;
	double median =
	    fast.median + procs.median / 2.0 + slow_counted.median / 5.0;
	printf("collector: %zu GPUs, %zu processes, %zu of them alive in /proc "
	       "(fake NVML, its own cost included)\n",
	       ndev, npids, nalive);
	printf("  (CPU per tick: the mean over all ticks, then the median and "
	       "range of %d batch means)\n",
	       BATCHES);
	print_cost("fast metrics, every tick:", fast);
	printf("  %-34s %8.1f us CPU  (batches: median %.1f)\n",
	       "process round, every 2 s:", procs.mean / 1e3,
	       procs.median / 1e3);
	print_cost("  of it, host side (/proc) alone:", host);
	if (slow.mean >= 0) {
		printf("  %-34s %8.1f us CPU  (batches: median %.1f)\n",
		       "slow calls, every 5 s:", slow.mean / 1e3,
		       slow.median / 1e3);
	} else {
		/* The difference of two measured means came out below zero:
		 * the slow calls cost less than the fast tick's noise. */
		printf("  %-34s %8s     below the fast tick's noise (the "
		       "difference came out %.1f us); counted as 0\n",
		       "slow calls, every 5 s:", "~0", slow.mean / 1e3);
	}
	printf("  %-34s %8.1f us CPU  (target < 200 us; from the batch "
	       "medians: %.1f)\n",
	       "mean per tick at the defaults:", mean / 1e3, median / 1e3);
	judge(vd, "collector CPU per tick at the defaults", mean / 1e3, 200,
	      "us");
	printf("  = %.4f %% of one core at a 1 s interval\n", mean / 1e9 * 100);
}

static void bench_ring(void)
{
	struct gt_ring r;
	struct gt_sample s;
	const int n = 1000000;

	gt_ring_init(&r, 1024, sizeof(s));
	gt_sample_init(&s);
	uint64_t t0 = cpu_ns();
	for (int i = 0; i < n; i++) {
		s.seq = (uint64_t)i;
		gt_ring_push(&r, &s);
	}
	double w = (double)(cpu_ns() - t0) / n;

	struct gt_ring_cursor cur = {(uint64_t)n - 1024, 0};
	int reads = 0;
	t0 = cpu_ns();
	for (int round = 0; round < 1000; round++) {
		cur.next = (uint64_t)n - 1024;
		while (gt_ring_read_next(&r, &cur, &s) == GT_RING_OK)
			reads++;
	}
	double rd = (double)(cpu_ns() - t0) / reads;
	printf("ring: %zu-byte samples\n", sizeof(s));
	printf("  write: %8.1f ns/sample  (%.2f M samples/s)\n", w, 1e3 / w);
	printf("  read:  %8.1f ns/sample  (%.2f M samples/s)\n", rd, 1e3 / rd);
	gt_ring_destroy(&r);
}

/* A synthetic /proc: 2,000 processes with 50 descriptors each, 20 of them
 * holding a DRM render node with an i915-style fdinfo; stat and comm as
 * procfs has them (the scanner reads stat to tell a pid's processes
 * apart). */
static int make_proc_tree(char *root, size_t len)
{
	char tmpl[] = "/tmp/gputop-fdproc-XXXXXX", path[512], target[64];
	if (!mkdtemp(tmpl))
		return -1;
	snprintf(root, len, "%s", tmpl);
	for (int pid = 1000; pid < 3000; pid++) {
		bool drm = (pid - 1000) % 100 == 0;
		snprintf(path, sizeof(path), "%s/%d", root, pid);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/%d/fd", root, pid);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/%d/fdinfo", root, pid);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/%d/stat", root, pid);
		FILE *f = fopen(path, "w");
		if (!f)
			return -1;
		fprintf(f,
		        "%d (worker-%d) S 1 %d %d 0 -1 4194560 120 0 0 0 3 1 "
		        "0 0 20 0 1 0 %d 10485760 300 18446744073709551615 "
		        "1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n",
		        pid, pid, pid, pid, 5000 + pid);
		fclose(f);
		snprintf(path, sizeof(path), "%s/%d/comm", root, pid);
		if (!(f = fopen(path, "w")))
			return -1;
		fprintf(f, "worker-%d\n", pid);
		fclose(f);
		for (int fd = 0; fd < 50; fd++) {
			if (drm && fd == 7)
				snprintf(target, sizeof(target),
				         "/dev/dri/renderD128");
			else if (fd % 3 == 0)
				snprintf(target, sizeof(target), "socket:[%d]",
				         pid * 64 + fd);
			else
				snprintf(target, sizeof(target),
				         "/var/lib/data/file-%d", fd);
			snprintf(path, sizeof(path), "%s/%d/fd/%d", root, pid,
			         fd);
			if (symlink(target, path) != 0)
				return -1;
		}
		if (!drm)
			continue;
		snprintf(path, sizeof(path), "%s/%d/fdinfo/7", root, pid);
		if (!(f = fopen(path, "w")))
			return -1;
		fprintf(f,
		        "pos:\t0\nflags:\t02100002\nmnt_id:\t26\nino:\t1062\n"
		        "drm-driver:\ti915\ndrm-pdev:\t0000:00:02.0\n"
		        "drm-client-id:\t%d\ndrm-engine-render:\t%d ns\n"
		        "drm-engine-copy:\t0 ns\ndrm-engine-video:\t0 ns\n"
		        "drm-engine-video-enhance:\t0 ns\n"
		        "drm-total-system0:\t4096 KiB\n",
		        pid, pid * 1000);
		fclose(f);
	}
	return 0;
}

/* Churn between two updates: 20 processes (1 %), a different 20 each
 * time, open or close descriptor 50, so a walk never finds the whole tree
 * as it left it. */
static void churn(const char *root, int step)
{
	char path[512];
	for (int k = 0; k < 20; k++) {
		int pid = 1000 + (step * 20 + k) * 7 % 2000;
		snprintf(path, sizeof(path), "%s/%d/fd/50", root, pid);
		if (unlink(path) != 0 &&
		    symlink("/var/log/extra.log", path) != 0)
			fprintf(stderr, "bench: churn %s failed\n", path);
	}
}

/* CPU ms of one update. The sleep before it stands for the seconds
 * between two process rounds of a real run: on a file system other than
 * procfs the scanner distrusts the times of a directory changed within
 * 20 ms of its walk (1 s where times are whole seconds: then the numbers
 * come out higher), which a run with no time between the churn and the
 * walk would make a permanent state. */
static double update_ms(struct gt_fdinfo *fi, uint64_t now, bool force)
{
	struct timespec gap = {0, 25000000};
	nanosleep(&gap, NULL);
	uint64_t c0 = cpu_ns();
	gt_fdinfo_update(fi, now, force);
	return (double)(cpu_ns() - c0) / 1e6;
}

/* What one phase of the scan bench measured, in CPU ms. */
struct scan_cost {
	double forced;   /* mean of the forced rediscoveries */
	double tick;     /* mean of the plain updates that made no walk */
	double tick_max; /* ... and the dearest of them */
	double walk;     /* mean of the plain updates that walked /proc */
	double round;    /* mean of all plain updates: walks amortized */
	int nticks, nwalks;
};

/* Phase 1: 10 updates that force the /proc walk. Phase 2: 40 updates as
 * the collector makes them every process round; each is counted as a
 * process tick or, where the scanner walked /proc on its own (every 5th
 * update, or after a descriptor closed), as a walk. churn() runs before
 * each update when moving. */
static struct scan_cost fdinfo_phase(struct gt_fdinfo *fi, const char *root,
                                     bool moving, uint64_t *now, int *step)
{
	const int nforced = 10, nplain = 40;
	struct scan_cost sc = {0};
	double ticks = 0, walks = 0;
	for (int r = 0; r < nforced + nplain; r++) {
		if (moving)
			churn(root, (*step)++);
		*now += 2000000000ull;
		uint64_t before = gt_fdinfo_walk_count(fi);
		double ms = update_ms(fi, *now, r < nforced);
		if (r < nforced) {
			sc.forced += ms / nforced;
			continue;
		}
		sc.round += ms / nplain;
		if (gt_fdinfo_walk_count(fi) != before) {
			walks += ms;
			sc.nwalks++;
			continue;
		}
		ticks += ms;
		sc.nticks++;
		sc.tick_max = ms > sc.tick_max ? ms : sc.tick_max;
	}
	sc.tick = sc.nticks ? ticks / sc.nticks : 0;
	sc.walk = sc.nwalks ? walks / sc.nwalks : 0;
	return sc;
}

static void bench_fdinfo(struct verdicts *vd)
{
	char root[64];
	if (make_proc_tree(root, sizeof(root)) != 0) {
		fprintf(stderr, "bench: cannot build the synthetic /proc\n");
		exit(1);
	}
	struct gt_fdinfo *fi = gt_fdinfo_new(root);
	uint64_t now = 1000000000ull;
	int step = 0;

	printf(
	    "process scan: synthetic /proc, 2000 processes x 50 fds, 20 with "
	    "DRM fds\n");
	/* The first update walks and classifies everything. */
	printf("  first update (empty cache): %8.2f ms CPU\n",
	       update_ms(fi, now, false));
	for (int moving = 0; moving <= 1; moving++) {
		struct scan_cost sc =
		    fdinfo_phase(fi, root, moving, &now, &step);
		printf("  %s\n", moving ? "1% of the processes open or close a "
		                          "descriptor before each update:"
		                        : "nothing changes:");
		printf(
		    "    process tick:     %8.2f ms CPU  (target < 2 ms; the "
		    "20 DRM processes re-read; mean of %d, max %.2f)\n",
		    sc.tick, sc.nticks, sc.tick_max);
		printf(
		    "    full rediscovery: %8.2f ms CPU  (target < 20 ms; mean "
		    "of 10 forced; the scanner's own: %.2f, %d of them)\n",
		    sc.forced, sc.walk, sc.nwalks);
		printf(
		    "    per process round, rediscoveries amortized: %.2f ms "
		    "CPU (mean of %d rounds)\n",
		    sc.round, sc.nticks + sc.nwalks);
		judge(vd,
		      moving ? "fdinfo process tick, 1% churn"
		             : "fdinfo process tick, no change",
		      sc.tick, 2, "ms");
		judge(vd,
		      moving ? "fdinfo full rediscovery, 1% churn"
		             : "fdinfo full rediscovery, no change",
		      sc.forced > sc.walk ? sc.forced : sc.walk, 20, "ms");
	}
	/* Ticks that found other clients than the tree's measured something
	 * else: the figures above stand, judged by this one. */
	if (gt_fdinfo_client_count(fi) != 20) {
		fprintf(stderr, "bench: %zu DRM clients found, not 20\n",
		        gt_fdinfo_client_count(fi));
		judge_not_run(vd, "fdinfo: the synthetic tree's 20 clients");
	}
	gt_fdinfo_free(fi);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "bench: could not remove %s\n", root);
}

/* BENCH_ONLY=startup,wakeups runs only the parts named; without it, all
 * but nvtop (a minute: `make bench-peer`): collector, render, metrics,
 * fdinfo, ring, prochist, startup, wakeups, serve, nvtop. */
static bool wanted(const char *part)
{
	const char *only = getenv("BENCH_ONLY");
	size_t n = strlen(part);
	if (!only || !only[0])
		return strcmp(part, "nvtop") != 0;
	for (const char *p = only; (p = strstr(p, part)); p += n)
		if ((p == only || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr,
		        "usage: bench LIBNVIDIA-ML SCENARIO GPUTOP\n"
		        "  BENCH_BASELINE=GPUTOP measures an older "
		        "binary beside it\n"
		        "  BENCH_ONLY=part,... runs only those parts: "
		        "collector, render, metrics, fdinfo, ring, prochist, "
		        "startup, wakeups, serve, nvtop\n");
		return 2;
	}
	/* A line at a time into a file too: a run stopped at a time limit
	 * (a lent GPU machine's) keeps the parts it finished. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct verdicts vd = {0};
	struct bench_proc_cfg pc = {
	    .gputop = argv[3],
	    .baseline = getenv("BENCH_BASELINE"),
	    .fake_lib = argv[1],
	    .scenario = argv[2],
	};
	if (pc.baseline && !pc.baseline[0])
		pc.baseline = NULL;
	if (wanted("collector"))
		bench_collector(argv[1], argv[2], &vd);
	if (wanted("render"))
		bench_render(argv[1], argv[2], &vd);
	if (wanted("metrics"))
		bench_metrics(argv[1], argv[2], &vd);
	if (wanted("fdinfo"))
		bench_fdinfo(&vd);
	if (wanted("ring"))
		bench_ring();
	if (wanted("prochist"))
		bench_prochist(&vd);
	if (wanted("startup"))
		bench_proc_startup(&pc, &vd);
	if (wanted("wakeups"))
		bench_proc_wakeups(&pc, &vd);
	if (wanted("serve"))
		bench_proc_serve(&pc, &vd);
	if (wanted("nvtop"))
		bench_proc_nvtop(&pc, &vd);
	else
		printf(
		    "against nvtop: not run here; `make bench-peer` compares "
		    "the whole process with an nvtop on PATH\n");
	return verdicts_print(&vd) ? 3 : 0;
}

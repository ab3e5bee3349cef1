/*
 * bench.c - `make bench`: the collector's CPU cost per tick against the fake
 * NVML (8 GPUs, 100 processes, the fake's own cost included) and the sample
 * ring's write/read throughput. Prints measurements; asserts nothing, since
 * timing belongs in benchmarks, not in the test suite.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "collector.h"
#include "dashboard.h"
#include "fdinfo.h"
#include "ring.h"

static uint64_t cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Mean CPU ns of one scheduled tick over n rounds, with the process and
 * slow cadences each either due on every tick or never. */
static double tick_cost(const char *lib, bool procs, bool slow, int n,
			size_t *ndev, size_t *nproc)
{
	const uint64_t never = 3600000000000ull, always = 1;
	struct gt_collector_config cfg = {
		.backend = {.nvml_lib = lib, .procfs_root = getenv("BENCH_PROCFS")},
		.interval_ns = 1000000000ull,
		.proc_interval_ns = procs ? always : never,
		.slow_interval_ns = slow ? always : never,
	};
	struct gt_collector *c = gt_collector_open(&cfg);
	if (!c || c->ndevices == 0) {
		fprintf(stderr, "bench: no devices from %s: %s\n", lib,
			c && c->nbackends ? c->backends[0].detail : "?");
		gt_collector_close(c);
		exit(1);
	}
	gt_collector_tick(c, GT_TICK_ALL); /* warm caches and counters */
	uint64_t t0 = cpu_ns();
	for (int i = 0; i < n; i++)
		gt_collector_tick(c, GT_TICK_SCHEDULED);
	double cost = (double)(cpu_ns() - t0) / n;

	int slot = gt_pub_reader_open(&c->proclist);
	const struct gt_proclist *pl = gt_pub_acquire(&c->proclist, slot);
	*nproc = pl ? pl->count : 0;
	gt_pub_release(&c->proclist, slot);
	gt_pub_reader_close(&c->proclist, slot);
	*ndev = c->ndevices;
	gt_collector_close(c);
	return cost;
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
	fprintf(f, "include %s\n", base_scn);
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid == 0) {
			pause();
			_exit(0);
		}
		kids[i] = pid;
		fprintf(f, "device %d\nprocess compute %d 1GiB\nputil %d 50 20 0 0\n",
			i % 8, (int)pid, (int)pid);
	}
	fclose(f);
	snprintf(scn_out, len, "%s", tmpl);
	return n;
}

static void bench_collector(const char *lib, const char *base_scn)
{
	enum { KIDS = 100 };
	pid_t kids[KIDS];
	char scn[64];
	size_t ndev, nproc;

	if (spawn_workload(base_scn, scn, sizeof(scn), kids, KIDS) < 0) {
		perror("bench: workload");
		exit(1);
	}
	setenv("GPUTOP_FAKE_NVML_SCENARIO", scn, 1);
	double fast = tick_cost(lib, false, false, 2000, &ndev, &nproc);
	double with_procs = tick_cost(lib, true, false, 300, &ndev, &nproc);
	double with_slow = tick_cost(lib, false, true, 300, &ndev, &nproc);
	for (int i = 0; i < KIDS; i++)
		kill(kids[i], SIGKILL);
	while (wait(NULL) > 0)
		;
	unlink(scn);

	double procs = with_procs - fast, slow = with_slow - fast;
	/* Defaults: 1 s ticks, processes every 2 s, slow calls every 5 s. */
	double mean = fast + procs / 2.0 + slow / 5.0;
	printf("collector: %zu GPUs, %zu processes alive in /proc (fake NVML, "
	       "its own cost included)\n",
	       ndev, nproc);
	printf("  fast metrics, every tick:          %8.1f us CPU\n", fast / 1e3);
	printf("  process round, every 2 s:          %8.1f us CPU\n", procs / 1e3);
	printf("  slow calls, every 5 s:             %8.1f us CPU\n", slow / 1e3);
	printf("  mean per tick at the defaults:     %8.1f us CPU  "
	       "(target < 200 us)\n",
	       mean / 1e3);
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

/* 8 GPUs and 500 processes (pids absent from /proc: their host columns
 * read N/A, which costs the renderer the same) at 200x60. The load moves
 * on a short period, so every frame brings new values to every graph,
 * meter and row: a worst case for the bytes sent, not a quiet screen. */
static void bench_render(const char *lib, const char *base_scn)
{
	char tmpl[] = "/tmp/gputop-render-XXXXXX";
	int fd = mkstemp(tmpl);
	if (fd < 0)
		return;
	FILE *f = fdopen(fd, "w");
	fprintf(f, "include %s\n", base_scn);
	for (int d = 0; d < 8; d++)
		fprintf(f, "device %d\nutil.gpu sine 60 35 0.0%d7\nutil.mem sine 40 30 0.0%d3\n",
			d, 1 + d, 2 + d);
	for (int i = 0; i < 500; i++)
		fprintf(f, "device %d\nprocess compute %d 512MiB\n", i % 8, 300000 + i);
	fclose(f);
	setenv("GPUTOP_FAKE_NVML_SCENARIO", tmpl, 1);
	struct gt_collector_config cfg = {
		.backend = {.nvml_lib = lib},
		.interval_ns = 1000000000ull,
		.proc_interval_ns = 1,
	};
	struct gt_collector *c = gt_collector_open(&cfg);
	struct gt_dash_bench res;
	if (c && gt_dashboard_bench(c, 200, 60, 60, &res) == 0) {
		printf("dashboard: %zu GPUs, %zu processes, 200x60, %d frames "
		       "through a pseudo-terminal\n",
		       c->ndevices, res.processes, res.frames);
		printf("  render:  %8.1f us CPU per frame  (target < 2000 us)\n",
		       res.cpu_ns_per_frame / 1e3);
		printf("  output:  %8.0f bytes per frame = bytes/s at a 1 s "
		       "interval  (target < 4096)\n",
		       res.bytes_per_frame);
	} else {
		fprintf(stderr, "bench: the render benchmark could not run\n");
	}
	gt_collector_close(c);
	unlink(tmpl);
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
		fprintf(f, "%d (worker-%d) S 1 %d %d 0 -1 4194560 120 0 0 0 3 1 "
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
				snprintf(target, sizeof(target), "/dev/dri/renderD128");
			else if (fd % 3 == 0)
				snprintf(target, sizeof(target), "socket:[%d]", pid * 64 + fd);
			else
				snprintf(target, sizeof(target), "/var/lib/data/file-%d", fd);
			snprintf(path, sizeof(path), "%s/%d/fd/%d", root, pid, fd);
			if (symlink(target, path) != 0)
				return -1;
		}
		if (!drm)
			continue;
		snprintf(path, sizeof(path), "%s/%d/fdinfo/7", root, pid);
		if (!(f = fopen(path, "w")))
			return -1;
		fprintf(f, "pos:\t0\nflags:\t02100002\nmnt_id:\t26\nino:\t1062\n"
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
		if (unlink(path) != 0 && symlink("/var/log/extra.log", path) != 0)
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
	struct timespec gap = { 0, 25000000 };
	nanosleep(&gap, NULL);
	uint64_t c0 = cpu_ns();
	gt_fdinfo_update(fi, now, force);
	return (double)(cpu_ns() - c0) / 1e6;
}

/* Mean CPU ms of a forced rediscovery (phase 1: 10 updates that force
 * the /proc walk) and of a plain update (phase 2: 20 updates as the
 * collector makes them every process round, so their mean includes the
 * walks the scanner makes on its own, every 5th update), with churn()
 * before each update or not. */
static void fdinfo_phases(struct gt_fdinfo *fi, const char *root, bool moving,
			  uint64_t *now, int *step, double *forced,
			  double *plain, double *plain_max)
{
	const int nforced = 10, nplain = 20;
	*forced = *plain = *plain_max = 0;
	for (int r = 0; r < nforced + nplain; r++) {
		if (moving)
			churn(root, (*step)++);
		*now += 2000000000ull;
		double ms = update_ms(fi, *now, r < nforced);
		if (r < nforced) {
			*forced += ms / nforced;
			continue;
		}
		*plain += ms / nplain;
		*plain_max = ms > *plain_max ? ms : *plain_max;
	}
}

static void bench_fdinfo(void)
{
	char root[64];
	if (make_proc_tree(root, sizeof(root)) != 0) {
		fprintf(stderr, "bench: cannot build the synthetic /proc\n");
		return;
	}
	struct gt_fdinfo *fi = gt_fdinfo_new(root);
	uint64_t now = 1000000000ull;
	int step = 0;
	double forced, plain, plain_max;

	printf("process scan: synthetic /proc, 2000 processes x 50 fds, 20 with "
	       "DRM fds\n");
	/* The first update walks and classifies everything. */
	printf("  first update (empty cache): %8.2f ms CPU\n",
	       update_ms(fi, now, false));
	for (int moving = 0; moving <= 1; moving++) {
		fdinfo_phases(fi, root, moving, &now, &step, &forced, &plain,
			      &plain_max);
		printf("  %s\n", moving ? "1% of the processes open or close a "
					   "descriptor before each update:" :
					  "nothing changes:");
		printf("    full rediscovery: %8.2f ms CPU  (target < 20 ms; "
		       "mean of 10 forced)\n",
		       forced);
		printf("    process tick:     %8.2f ms CPU  (target < 2 ms; mean "
		       "of 20 plain updates, their walks included; max %.2f)\n",
		       plain, plain_max);
	}
	if (gt_fdinfo_client_count(fi) != 20)
		fprintf(stderr, "bench: %zu DRM clients found, not 20\n",
			gt_fdinfo_client_count(fi));
	gt_fdinfo_free(fi);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "bench: could not remove %s\n", root);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bench LIBNVIDIA-ML SCENARIO\n");
		return 2;
	}
	bench_collector(argv[1], argv[2]);
	bench_render(argv[1], argv[2]);
	bench_fdinfo();
	bench_ring();
	return 0;
}

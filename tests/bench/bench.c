/*
 * bench.c - `make bench`: the collector's CPU cost per tick against the fake
 * NVML (8 GPUs, 100 processes, the fake's own cost included) and the sample
 * ring's write/read throughput. Prints measurements; asserts nothing, since
 * timing belongs in benchmarks, not in the test suite.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collector.h"
#include "ring.h"

static uint64_t cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Mean CPU ns of one gt_collector_tick(what) over n rounds. */
static double tick_cost(struct gt_collector *c, enum gt_tick_what what, int n)
{
	uint64_t t0 = cpu_ns();
	for (int i = 0; i < n; i++)
		gt_collector_tick(c, what);
	return (double)(cpu_ns() - t0) / n;
}

static void bench_collector(const char *lib)
{
	struct gt_collector_config cfg = {
		.backend = {.nvml_lib = lib},
		.interval_ns = 1000000000ull,
		/* Far away, so scheduled ticks measure fast metrics only. */
		.proc_interval_ns = 3600000000000ull,
		.slow_interval_ns = 3600000000000ull,
	};
	struct gt_collector *c = gt_collector_open(&cfg);
	if (!c || c->ndevices == 0) {
		fprintf(stderr, "bench: no devices from %s: %s\n", lib,
			c && c->nbackends ? c->backends[0].detail : "?");
		gt_collector_close(c);
		exit(1);
	}
	gt_collector_tick(c, GT_TICK_ALL); /* warm caches and counters */
	size_t procs = 0;
	const struct gt_proclist *pl = NULL;
	int slot = gt_pub_reader_open(&c->proclist);
	pl = gt_pub_acquire(&c->proclist, slot);
	procs = pl ? pl->count : 0;
	gt_pub_release(&c->proclist, slot);
	gt_pub_reader_close(&c->proclist, slot);

	double fast = tick_cost(c, GT_TICK_SCHEDULED, 2000);
	double full = tick_cost(c, GT_TICK_ALL, 500);
	/* At the defaults (1 s ticks, processes every 2 s, slow calls every
	 * 5 s) the full extra cost is paid on about every second tick. */
	double mean = fast + (full - fast) / 2.0;

	printf("collector: %zu GPUs, %zu processes (fake NVML, its own cost "
	       "included)\n",
	       c->ndevices, procs);
	printf("  fast tick (metrics only):          %8.1f us CPU\n", fast / 1e3);
	printf("  full tick (+ processes + slow):     %8.1f us CPU\n", full / 1e3);
	printf("  mean per tick at the defaults:      %8.1f us CPU  "
	       "(target < 200 us)\n",
	       mean / 1e3);
	printf("  = %.4f %% of one core at a 1 s interval\n", mean / 1e9 * 100);
	gt_collector_close(c);
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

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: bench PATH-TO-libnvidia-ml.so.1\n");
		return 2;
	}
	bench_collector(argv[1]);
	bench_ring();
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * bench_render.c - the dashboard's frames as `make bench` measures them:
 * the CPU and the bytes of a frame (8 GPUs, 500 processes, 200x60, through
 * a pseudo-terminal) with every value new each frame and under a steady
 * load, and of a wake-up for the clock's second with nothing new: the
 * status line alone against the whole frame an older loop drew then.
 */
#include <curses.h>
#include <fcntl.h>
#include <locale.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "collectors/registry.h"
#include "core/clock.h"
#include "core/collector.h"
#include "export/http.h"
#include "ui/dashboard.h"

/* The terminal side of the render bench's pseudo-terminal: a thread that
 * reads everything the dashboard writes and counts it. Reading while
 * frames are drawn keeps a frame larger than the pty's buffer (the first
 * paint of a big screen) from blocking the write for ever. */
struct pty_reader {
	int master;
	pthread_t thread;
	_Atomic size_t bytes;
	_Atomic bool stop;
};

static void *pty_reader_run(void *arg)
{
	struct pty_reader *r = arg;
	char buf[65536];
	while (!atomic_load(&r->stop)) {
		struct pollfd p = {.fd = r->master, .events = POLLIN};
		if (poll(&p, 1, 10) <= 0)
			continue;
		ssize_t n = read(r->master, buf, sizeof(buf));
		if (n > 0)
			atomic_fetch_add(&r->bytes, (size_t)n);
	}
	return NULL;
}

/* The byte count once the reader has caught up with what was written:
 * unchanged over 50 ms. */
static size_t pty_reader_settled(struct pty_reader *r)
{
	size_t last = atomic_load(&r->bytes);
	for (;;) {
		struct timespec gap = {0, 50000000};
		nanosleep(&gap, NULL);
		size_t now = atomic_load(&r->bytes);
		if (now == last)
			return now;
		last = now;
	}
}

/* The dashboard's interval in the render bench: the shortest there is,
 * so that frames a whole interval apart take little time to run. */
#define RENDER_INTERVAL_NS GT_INTERVAL_MIN_NS

/* Frames not counted: the first paint of the whole screen; where the
 * graphs must be full, their history too (the widest at 200x60 holds 182
 * samples: 91 braille cells). */
enum { WARM_PAINT = 5, WARM_FULL = 200 };

/* What the render bench measured. */
struct render_result {
	int frames;
	size_t processes;
	double cpu_ns_per_frame;  /* drawing, this thread's CPU */
	double wall_ns_per_frame; /* drawing, elapsed */
	double bytes_per_frame;   /* written to the terminal */
	/* A new second with nothing new: [0] the whole frame, [1] the
	 * status line alone (gt_dashboard_draw_clock). */
	double tick_cpu_ns[2], tick_bytes[2];
};

/* Sleeps until just after the wall clock's next second. */
static void next_second(void)
{
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	struct timespec gap = {0, 1000000000L - now.tv_nsec + 20000000L};
	if (gap.tv_nsec >= 1000000000L) {
		gap.tv_sec = 1;
		gap.tv_nsec -= 1000000000L;
	}
	nanosleep(&gap, NULL);
}

/* Wake-ups for the clock with nothing new since the last frame, each at
 * a new second (its clock changes on screen): `ticks` whole frames, then
 * as many of the status line alone. */
static void tick_frames(struct gt_collector *c, struct gt_dashboard *d,
                        struct pty_reader *reader, FILE *fo, int ticks,
                        struct render_result *out)
{
	for (int kind = 0; kind < 2; kind++) {
		uint64_t cpu = 0;
		size_t bytes = 0;
		for (int i = 0; i < ticks; i++) {
			/* A round drawn first (not counted), so no device is
			 * silent long enough for STALE when the second turns:
			 * the frame measured has only the clock to show. */
			gt_collector_tick(c, GT_TICK_SCHEDULED);
			gt_dashboard_pull(d);
			gt_dashboard_draw(d);
			fflush(fo);
			next_second();
			size_t b0 = pty_reader_settled(reader);
			uint64_t t0 = gt_thread_cpu_ns();
			if (kind == 0)
				gt_dashboard_draw(d);
			else
				gt_dashboard_draw_clock(d);
			fflush(fo);
			cpu += gt_thread_cpu_ns() - t0;
			bytes += pty_reader_settled(reader) - b0;
		}
		out->tick_cpu_ns[kind] = (double)cpu / ticks;
		out->tick_bytes[kind] = (double)bytes / ticks;
	}
}

/* Frames of a dashboard on an xterm-256color screen of the pty's slave
 * side, one collector round before each, one interval apart as in steady
 * state: every frame brings a new sample column to every graph, so the
 * graphs move as they do on screen. The first `warm` frames (the whole
 * screen's first paint, and the graphs' history where it must be full)
 * are not counted. */
static void render_frames(struct gt_collector *c, struct gt_dashboard *d,
                          struct pty_reader *reader, FILE *fo, int warm,
                          int frames, struct render_result *out)
{
	uint64_t cpu = 0, wall = 0;
	size_t bytes_warm = 0;
	uint64_t due = gt_monotonic_ns();
	for (int f = 0; f < warm + frames; f++) {
		if (f == warm) {
			bytes_warm = pty_reader_settled(reader);
			due = gt_monotonic_ns();
		}
		due += RENDER_INTERVAL_NS;
		uint64_t now = gt_monotonic_ns();
		if (due > now) {
			struct timespec gap = {0, (long)(due - now)};
			nanosleep(&gap, NULL);
		}
		gt_collector_tick(c, GT_TICK_SCHEDULED);
		uint64_t a = gt_thread_cpu_ns(), wa = gt_monotonic_ns();
		gt_dashboard_pull(d);
		gt_dashboard_draw(d);
		fflush(fo);
		if (f >= warm) {
			cpu += gt_thread_cpu_ns() - a;
			wall += gt_monotonic_ns() - wa;
		}
	}
	size_t bytes = pty_reader_settled(reader) - bytes_warm;
	out->frames = frames;
	out->cpu_ns_per_frame = frames ? (double)cpu / frames : 0;
	out->wall_ns_per_frame = frames ? (double)wall / frames : 0;
	out->bytes_per_frame = frames ? (double)bytes / frames : 0;
	out->processes = gt_dashboard_process_count(d);
}

/* The dashboard on a curses screen of a fresh pseudo-terminal of cols x
 * rows, with a thread reading the other side: frames, then `ticks` clock
 * seconds of each kind; 0, or -1 when any of it could not be had. */
static int render_on_pty(struct gt_collector *c, int cols, int rows, int warm,
                         int frames, int ticks, bool listen,
                         struct render_result *out)
{
	/* listen: frames counted for the endpoint, as with --listen */
	struct gt_dashboard_opts o = {.interval_ns = RENDER_INTERVAL_NS,
	                              .interval_given = true,
	                              .count_frames = listen};
	struct gt_dashboard *d = NULL;
	int master = posix_openpt(O_RDWR | O_NOCTTY);
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) {
		if (master >= 0)
			close(master);
		return -1;
	}
	struct winsize ws = {.ws_row = (unsigned short)rows,
	                     .ws_col = (unsigned short)cols};
	const char *slave_name = ptsname(master);
	int slave = slave_name ? open(slave_name, O_RDWR | O_NOCTTY) : -1;
	FILE *fo = slave >= 0 ? fdopen(slave, "w") : NULL;
	FILE *fi = slave >= 0 ? fdopen(dup(slave), "r") : NULL;
	if (!fo || !fi)
		goto out;
	ioctl(slave, TIOCSWINSZ, &ws);
	fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
	setlocale(LC_ALL, "");

	d = gt_dashboard_open(c, &o);
	if (!d)
		goto out;
	SCREEN *scr = newterm("xterm-256color", fo, fi);
	if (!scr)
		goto out;
	set_term(scr);
	resizeterm(rows, cols);
	curs_set(0);
	struct gt_dashboard_screen screen = {
	    .tier = GT_TIER_256,
	    .glyphs = GT_GLYPHS_BRAILLE,
	    .glyphs_fixed = true,
	};
	gt_dashboard_attach(d, &screen);

	struct pty_reader reader = {.master = master};
	atomic_init(&reader.bytes, 0);
	atomic_init(&reader.stop, false);
	if (pthread_create(&reader.thread, NULL, pty_reader_run, &reader) !=
	    0) {
		endwin();
		delscreen(scr);
		goto out;
	}
	render_frames(c, d, &reader, fo, warm, frames, out);
	if (ticks > 0)
		tick_frames(c, d, &reader, fo, ticks, out);
	endwin(); /* written while the reader still reads */
	delscreen(scr);
	atomic_store(&reader.stop, true);
	pthread_join(reader.thread, NULL);
	rc = 0;
out:
	gt_dashboard_close(d);
	if (fo)
		fclose(fo);
	if (fi)
		fclose(fi);
	close(master);
	return rc;
}

#define BESIDE_SCRAPES "dashboard render per frame, 200 scrapes beside"

/* The same frames while --listen's server on the same collector answers
 * 200 scrapes at a time: the UI thread's CPU and wall time per frame
 * beside those of the quiet run (alone). */
static void render_beside_scrapes(struct gt_collector *c, int frames,
                                  const struct render_result *alone,
                                  struct verdicts *vd)
{
	struct gt_http_config hc = {.listen = "127.0.0.1:0"};
	struct render_result res;
	long ok = 0, failed = 0, rounds = 0;
	char err[256];
	struct gt_http *h = gt_http_start(c, &hc, err, sizeof(err));
	struct bench_scrapes *load =
	    h ? bench_scrapes_start(gt_http_address(h), 200) : NULL;
	if (!load) {
		fprintf(stderr, "bench: no scrape load: %s\n",
		        h ? "thread" : err);
		gt_http_stop(h);
		judge_not_run(vd, BESIDE_SCRAPES);
		return;
	}
	struct timespec settle = {0, 300000000};
	nanosleep(&settle, NULL); /* the first round in flight */
	/* 2x the frames, 12 s at the bench's interval: long enough to
	 * span several rounds of scrapes */
	int rc =
	    render_on_pty(c, 200, 60, WARM_PAINT, frames * 2, 0, true, &res);
	bench_scrapes_stop(load, &ok, &failed, &rounds);
	gt_http_stop(h);
	if (rc != 0) {
		fprintf(stderr, "bench: the render under scrapes could not "
		                "run\n");
		judge_not_run(vd, BESIDE_SCRAPES);
		return;
	}
	printf("  beside 200 concurrent scrapes of --listen (%ld rounds: %ld "
	       "answered 200, %ld not):\n"
	       "           %8.1f us CPU, %8.1f us wall per frame (alone: "
	       "%.1f us CPU, %.1f us wall)\n",
	       rounds, ok, failed, res.cpu_ns_per_frame / 1e3,
	       res.wall_ns_per_frame / 1e3, alone->cpu_ns_per_frame / 1e3,
	       alone->wall_ns_per_frame / 1e3);
	judge(vd, BESIDE_SCRAPES, failed ? 1e9 : res.cpu_ns_per_frame / 1e3,
	      150, "us");
}

/* The render bench's cases. */
enum render_kind {
	RENDER_MOVING,  /* every value new each frame: the most output */
	RENDER_FILLING, /* a steady load while the graphs' history fills */
	RENDER_STEADY,  /* a steady load with the graphs full: steady state */
	RENDER_NOISY,   /* the same with the small swings of a real load */
};

static const struct {
	const char *what;   /* the case, as printed */
	const char *judged; /* the target names (judge keeps literals) */
	const char *judged_bytes;
	int warm;
	/* The process round's cadence: every frame (the table's rows and
	 * order made again each frame), or what the collector uses at the
	 * bench's 0.1 s spacing (at least 1 s: every 10th frame). */
	uint64_t proc_interval_ns;
} render_kinds[] = {
    [RENDER_MOVING] = {"every value new each frame (utilization a sine of "
                       "17-87 ms period)",
                       "dashboard render per frame",
                       "dashboard output at a 1 s interval", WARM_PAINT, 1},
    [RENDER_FILLING] = {"a steady load while the graphs fill (each frame "
                        "adds a column at their left edge; the numbers "
                        "stay)",
                        "dashboard render per frame, graphs filling",
                        "dashboard output at a 1 s interval, graphs "
                        "filling",
                        WARM_PAINT, 1},
    [RENDER_STEADY] = {"steady state: a steady load, the graphs full (after "
                       "200 frames not counted), a process round each 1 s "
                       "as at a 0.1 s interval",
                       "dashboard render per frame, steady state",
                       "dashboard output at a 1 s interval, steady state",
                       WARM_FULL, 1000000000ull},
    [RENDER_NOISY] = {"steady state with a real load's swings: utilization "
                      "96 +- 3 %, power 640 +- 15 W, temperature +- 1 C "
                      "on periods of 2-9 s, the graphs full",
                      "dashboard render per frame, steady swinging load",
                      "dashboard output at a 1 s interval, steady "
                      "swinging load",
                      WARM_FULL, 1000000000ull},
};

/* The render bench's scenario: 8 GPUs and 500 processes (pids absent from
 * /proc: their host columns read N/A, which costs the renderer the same).
 * RENDER_MOVING: the load moves on a short period, so every frame brings
 * new values to every graph, meter and row, a worst case for the bytes
 * sent; RENDER_NOISY: the small, slow swings of a busy GPU (a training
 * job never holds its power to the watt); else the base scenario's
 * constant load. The path in tmpl. */
static void render_scenario(char *tmpl, const char *base_scn,
                            enum render_kind kind)
{
	FILE *f = bench_scenario(tmpl, base_scn, 500);
	for (int d = 0; kind == RENDER_MOVING && d < 8; d++)
		fprintf(f,
		        "device %d\nutil.gpu sine 60 35 0.0%d7\nutil.mem sine "
		        "40 30 0.0%d3\n",
		        d, 1 + d, 2 + d);
	for (int d = 0; kind == RENDER_NOISY && d < 8; d++)
		fprintf(f,
		        "device %d\nutil.gpu sine 96 3 2.%d\npower.usage sine "
		        "640000 15000 3.%d\ntemp sine %d 1 9.%d\n",
		        d, 1 + d, 3 + d, 45 + d, d);
	fclose(f);
}

/* The frames of one case at 200x60; for the moving one, the clock
 * seconds and the frames beside scrapes too. */
static void render_case(const char *lib, const char *base_scn,
                        enum render_kind kind, struct verdicts *vd)
{
	char tmpl[] = "/tmp/gputop-render-XXXXXX";
	bool moving = kind == RENDER_MOVING;
	render_scenario(tmpl, base_scn, kind);
	setenv("GPUTOP_FAKE_NVML_SCENARIO", tmpl, 1);
	struct gt_collector_config cfg = {
	    .platform = &gt_registry_platform,
	    .backend = {.nvml_lib = lib},
	    .interval_ns = 1000000000ull,
	    .proc_interval_ns = render_kinds[kind].proc_interval_ns,
	};
	struct gt_collector *c = bench_collector_open(&cfg, 8);
	struct render_result res;
	/* BENCH_FRAMES: more frames for a profiler to sample. */
	const char *nf = getenv("BENCH_FRAMES");
	int frames = nf && atoi(nf) > 0 ? atoi(nf) : 60;
	if (c && render_on_pty(c, 200, 60, render_kinds[kind].warm, frames,
	                       moving ? 4 : 0, false, &res) == 0) {
		printf("dashboard: %zu GPUs, %zu processes, 200x60, %d frames "
		       "through a pseudo-terminal, %s\n",
		       gt_collector_device_count(c), res.processes, res.frames,
		       render_kinds[kind].what);
		printf("  render:  %8.1f us CPU per frame  (target < 150 us)\n",
		       res.cpu_ns_per_frame / 1e3);
		printf("  output:  %8.0f bytes per frame = bytes/s at a 1 s "
		       "interval  (target < 2048)\n",
		       res.bytes_per_frame);
		if (moving)
			printf("  a new second, nothing new (4 each): whole "
			       "frame %.1f us, %.0f bytes; status line alone "
			       "%.1f us, %.0f bytes\n",
			       res.tick_cpu_ns[0] / 1e3, res.tick_bytes[0],
			       res.tick_cpu_ns[1] / 1e3, res.tick_bytes[1]);
		judge(vd, render_kinds[kind].judged, res.cpu_ns_per_frame / 1e3,
		      150, "us");
		judge(vd, render_kinds[kind].judged_bytes, res.bytes_per_frame,
		      2048, "B/s");
		if (moving)
			render_beside_scrapes(c, frames, &res, vd);
	} else {
		fprintf(stderr, "bench: the render benchmark could not run\n");
		judge_not_run(vd, render_kinds[kind].judged);
		judge_not_run(vd, render_kinds[kind].judged_bytes);
	}
	gt_collector_close(c);
	unlink(tmpl);
}

void bench_render(const char *lib, const char *base_scn, struct verdicts *vd)
{
	/* BENCH_RENDER=steady (or moving, filling, noisy): one case alone. */
	const char *only = getenv("BENCH_RENDER");
	static const char *const names[] = {"moving", "filling", "steady",
	                                    "noisy"};
	for (int k = RENDER_MOVING; k <= RENDER_NOISY; k++)
		if (!only || !*only || strcmp(only, names[k]) == 0)
			render_case(lib, base_scn, (enum render_kind)k, vd);
}

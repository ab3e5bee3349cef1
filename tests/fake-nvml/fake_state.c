/* SPDX-License-Identifier: MIT */
/*
 * fake_state.c - the fake library's process-wide state: reference-counted
 * init and shutdown (loading and freeing the scenario), the lock every
 * call takes, handle encoding, call counting, injected latency, errors and
 * "fell off the bus", the setter log, and nvmlErrorString.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fake.h"

#define ENV_SCENARIO "GPUTOP_FAKE_NVML_SCENARIO"
#define ENV_LOG      "GPUTOP_FAKE_NVML_LOG"
#define ENV_CALLS    "GPUTOP_FAKE_NVML_CALLS"

const char *const fake_fn_names[FN_COUNT] = {
#define FAKE_FN_NAME(name) #name,
    FAKE_FUNCS(FAKE_FN_NAME)
#undef FAKE_FN_NAME
};

/*
 * The one global state object. A stand-in for libnvidia-ml.so.1 cannot
 * avoid it: NVML's init reference count, its handles and its lock are
 * process-wide by contract, and clients call plain functions with no
 * context argument. Every field is guarded by lock.
 */
static struct {
	pthread_mutex_t lock;
	unsigned int refcount;
	unsigned long generation; /* bumped at every load and unload */
	struct fake_scenario *sc; /* owned; NULL while not initialised */
	struct timespec t0;       /* monotonic time of the first init */
	unsigned long long t0_wall_us;
	unsigned long long
	    calls[FN_COUNT]; /* since load or last final shutdown */
	/* nvmlDeviceGetFieldValues requests per field id, likewise: a
	 * client's cadence per field is part of its cost on a real driver. */
	unsigned long long field_calls[FAKE_FIELD_IDS];
} g = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Never written: only the addresses of its slots matter (see fake.h). */
static struct nvmlDevice_st handles[FAKE_MAX_GPUS][1 + FAKE_MAX_MIG];

int fake_fn_lookup(const char *name)
{
	for (int i = 0; i < FN_COUNT; i++)
		if (strcmp(fake_fn_names[i], name) == 0)
			return i;
	return -1;
}

nvmlReturn_t fake_injected_error(const struct fake_scenario *sc,
                                 const struct fake_dev *d, enum fake_fn fn)
{
	if (d != NULL && d->inj.error[fn] != NVML_SUCCESS)
		return d->inj.error[fn];
	return sc->inj.error[fn];
}

static double seconds_since_init(void);

/* The latency FN takes now: the device's own entry, else the global one,
 * each only once its `after` time has come. */
static unsigned int injected_ms(const struct fake_scenario *sc,
                                const struct fake_dev *d, enum fake_fn fn)
{
	const struct fake_inject *inj =
	    d != NULL && d->inj.latency_ms[fn] != 0 ? &d->inj : &sc->inj;
	if (inj->latency_ms[fn] == 0 ||
	    (inj->latency_after[fn] > 0 &&
	     seconds_since_init() < inj->latency_after[fn]))
		return 0;
	return inj->latency_ms[fn];
}

nvmlDevice_t fake_handle(unsigned int gpu, int mig)
{
	return &handles[gpu][mig + 1];
}

/* Returns 0 and the slot's (gpu, mig) if h points at a slot, else -1. */
int fake_handle_decode(nvmlDevice_t h, unsigned int *gpu, int *mig)
{
	uintptr_t base = (uintptr_t)&handles[0][0];
	uintptr_t p = (uintptr_t)h;
	size_t slot;

	if (p < base || p >= base + sizeof(handles))
		return -1;
	if ((p - base) % sizeof(handles[0][0]) != 0)
		return -1;
	slot = (p - base) / sizeof(handles[0][0]);
	*gpu = (unsigned int)(slot / (1 + FAKE_MAX_MIG));
	*mig = (int)(slot % (1 + FAKE_MAX_MIG)) - 1;
	return 0;
}

unsigned long long fake_wall_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (unsigned long long)ts.tv_sec * 1000000ULL +
	       (unsigned long long)ts.tv_nsec / 1000ULL;
}

/* Caller holds the lock. */
unsigned long long fake_init_wall_us(void)
{
	return g.t0_wall_us;
}

static double seconds_since_init(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - g.t0.tv_sec) +
	       (double)(now.tv_nsec - g.t0.tv_nsec) / 1e9;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = {.tv_sec = ms / 1000,
	                      .tv_nsec = (long)(ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/*
 * Sleeps with the lock released, so one slow call (PCIe throughput is
 * ~20 ms on real drivers) does not stall other threads' calls. Returns
 * UNINITIALIZED if a shutdown freed the scenario meanwhile.
 */
static nvmlReturn_t injected_latency(unsigned int ms)
{
	unsigned long gen = g.generation;

	pthread_mutex_unlock(&g.lock);
	sleep_ms(ms);
	pthread_mutex_lock(&g.lock);
	if (g.sc == NULL || g.generation != gen)
		return NVML_ERROR_UNINITIALIZED;
	return NVML_SUCCESS;
}

nvmlReturn_t fake_leave(nvmlReturn_t rc)
{
	pthread_mutex_unlock(&g.lock);
	return rc;
}

/* For calls without a device. On SUCCESS the lock is held. */
nvmlReturn_t fake_enter(enum fake_fn fn, struct fake_call *c)
{
	nvmlReturn_t rc;

	pthread_mutex_lock(&g.lock);
	g.calls[fn]++;
	if (g.sc == NULL)
		return fake_leave(NVML_ERROR_UNINITIALIZED);
	if (injected_ms(g.sc, NULL, fn) != 0) {
		rc = injected_latency(injected_ms(g.sc, NULL, fn));
		if (rc != NVML_SUCCESS)
			return fake_leave(rc);
	}
	rc = fake_injected_error(g.sc, NULL, fn);
	if (rc != NVML_SUCCESS)
		return fake_leave(rc);
	memset(c, 0, sizeof(*c));
	c->sc = g.sc;
	c->t_lazy = -1;
	return NVML_SUCCESS;
}

/*
 * The call's time since init, read from the clock at its first need and
 * the same for the rest of the call. Most answers are constants, so most
 * calls need no clock read, which was a third of the cost of a call. c is
 * always the exported function's own local object, never a const one:
 * the cast only fills the cache.
 */
double fake_call_time(const struct fake_call *c)
{
	struct fake_call *m = (struct fake_call *)c;

	if (m->t_lazy < 0)
		m->t_lazy = seconds_since_init();
	return m->t_lazy;
}

/* Off the bus from lost_after until back_after (for good without it);
 * with lost_every, again each period after that. */
static bool fake_dev_is_lost(const struct fake_dev *d,
                             const struct fake_call *c)
{
	double t = fake_call_time(c);
	if (d->lost_after < 0 || t < d->lost_after)
		return false;
	if (d->back_after < 0)
		return true;
	if (d->lost_every > 0) /* t - lost_after >= 0: truncation floors */
		t -= d->lost_every *
		     (double)(long long)((t - d->lost_after) / d->lost_every);
	return t < d->back_after;
}

/*
 * For calls on a device handle. Order of checks: init, handle, latency,
 * lost GPU, injected error, MIG support. On SUCCESS the lock is held.
 */
nvmlReturn_t fake_enter_dev(enum fake_fn fn, nvmlDevice_t h, unsigned flags,
                            struct fake_call *c)
{
	struct fake_dev *d;
	unsigned int gpu;
	int mig;
	nvmlReturn_t rc;

	pthread_mutex_lock(&g.lock);
	g.calls[fn]++;
	if (g.sc == NULL)
		return fake_leave(NVML_ERROR_UNINITIALIZED);
	if (fake_handle_decode(h, &gpu, &mig) != 0 || gpu >= g.sc->ndev)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	d = &g.sc->devs[gpu];
	if (mig >= 0 && (unsigned int)mig >= d->nmig)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	if (injected_ms(g.sc, d, fn) != 0) {
		rc = injected_latency(injected_ms(g.sc, d, fn));
		if (rc != NVML_SUCCESS)
			return fake_leave(rc);
		d = &g.sc->devs[gpu];
	}
	memset(c, 0, sizeof(*c));
	c->sc = g.sc;
	c->dev = d;
	c->gpu = gpu;
	c->t_lazy = -1;
	if (fake_dev_is_lost(d, c))
		return fake_leave(NVML_ERROR_GPU_IS_LOST);
	rc = fake_injected_error(g.sc, d, fn);
	if (rc != NVML_SUCCESS)
		return fake_leave(rc);
	if (mig >= 0) {
		if (!(flags & FAKE_MIG_OK))
			return fake_leave(NVML_ERROR_NOT_SUPPORTED);
		c->mig = &d->mig[mig];
	}
	return NVML_SUCCESS;
}

/* One line per setter call; O_APPEND keeps lines whole across threads. */
void fake_log_setter(const char *fn, nvmlDevice_t h, nvmlReturn_t rc,
                     const char *fmt, ...)
{
	const char *path = getenv(ENV_LOG);
	char args[256], dev[32], line[400];
	unsigned int gpu;
	int mig, fd, n;
	va_list ap;

	if (path == NULL || *path == '\0')
		return;
	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	if (fake_handle_decode(h, &gpu, &mig) != 0)
		snprintf(dev, sizeof(dev), "?");
	else if (mig >= 0)
		snprintf(dev, sizeof(dev), "%u/mig%d", gpu, mig);
	else
		snprintf(dev, sizeof(dev), "%u", gpu);
	n = snprintf(line, sizeof(line), "%s dev=%s %s -> %d\n", fn, dev, args,
	             (int)rc);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = (int)sizeof(line) - 1;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "fake-nvml: %s: %s\n", path, strerror(errno));
		return;
	}
	if (write(fd, line, (size_t)n) != n)
		fprintf(stderr, "fake-nvml: %s: short write\n", path);
	close(fd);
}

/* Caller holds the lock. */
static void write_call_counts(void)
{
	const char *path = getenv(ENV_CALLS);
	FILE *f;

	if (path == NULL || *path == '\0')
		return;
	f = fopen(path, "we");
	if (f == NULL) {
		fprintf(stderr, "fake-nvml: %s: %s\n", path, strerror(errno));
		return;
	}
	for (int i = 0; i < FN_COUNT; i++)
		fprintf(f, "%s %llu\n", fake_fn_names[i], g.calls[i]);
	for (int i = 0; i < FAKE_FIELD_IDS; i++)
		if (g.field_calls[i])
			fprintf(f, "field:%d %llu\n", i, g.field_calls[i]);
	if (fclose(f) != 0)
		fprintf(stderr, "fake-nvml: %s: %s\n", path, strerror(errno));
}

static nvmlReturn_t init_common(enum fake_fn fn)
{
	const char *path;
	struct fake_scenario *sc;
	nvmlReturn_t rc;
	unsigned int ms;

	pthread_mutex_lock(&g.lock);
	g.calls[fn]++;
	if (g.refcount > 0) {
		g.refcount++;
		return fake_leave(NVML_SUCCESS);
	}
	path = getenv(ENV_SCENARIO);
	if (path == NULL || *path == '\0') {
		fprintf(stderr,
		        "fake-nvml: %s is not set; nvmlInit fails "
		        "with DRIVER_NOT_LOADED\n",
		        ENV_SCENARIO);
		return fake_leave(NVML_ERROR_DRIVER_NOT_LOADED);
	}
	rc = NVML_SUCCESS;
	sc = fake_scenario_load(path, &rc);
	if (sc == NULL)
		return fake_leave(rc);
	rc =
	    sc->init_error != NVML_SUCCESS ? sc->init_error : sc->inj.error[fn];
	ms = sc->inj.latency_ms[fn];
	if (rc != NVML_SUCCESS) {
		fake_scenario_free(sc);
		return fake_leave(rc);
	}
	if (ms != 0) {
		/* A slow init (no persistence mode) must not hold the lock;
		 * another thread may finish its own init meanwhile. */
		pthread_mutex_unlock(&g.lock);
		sleep_ms(ms);
		pthread_mutex_lock(&g.lock);
		if (g.refcount > 0) {
			fake_scenario_free(sc);
			g.refcount++;
			return fake_leave(NVML_SUCCESS);
		}
	}
	g.sc = sc;
	g.refcount = 1;
	g.generation++;
	clock_gettime(CLOCK_MONOTONIC, &g.t0);
	g.t0_wall_us = fake_wall_us();
	return fake_leave(NVML_SUCCESS);
}

nvmlReturn_t nvmlInit(void)
{
	return init_common(FN_nvmlInit);
}

nvmlReturn_t nvmlInit_v2(void)
{
	return init_common(FN_nvmlInit_v2);
}

nvmlReturn_t nvmlInitWithFlags(unsigned int flags)
{
	(void)flags; /* NO_GPUS / NO_ATTACH change nothing in a fake */
	return init_common(FN_nvmlInitWithFlags);
}

/* Caller holds the lock (between fake_enter_dev and fake_leave). */
void fake_count_field(unsigned int id)
{
	if (id < FAKE_FIELD_IDS)
		g.field_calls[id]++;
}

/* Extra shutdowns report no error, as NVML does for compatibility. */
nvmlReturn_t nvmlShutdown(void)
{
	pthread_mutex_lock(&g.lock);
	g.calls[FN_nvmlShutdown]++;
	if (g.refcount > 0 && --g.refcount == 0) {
		write_call_counts();
		/* The next session counts from zero, so each file describes
		 * one init..shutdown run (plus calls made before its init). */
		memset(g.calls, 0, sizeof(g.calls));
		memset(g.field_calls, 0, sizeof(g.field_calls));
		fake_scenario_free(g.sc);
		g.sc = NULL;
		g.generation++;
	}
	return fake_leave(NVML_SUCCESS);
}

const char *nvmlErrorString(nvmlReturn_t result)
{
	static const struct {
		nvmlReturn_t rc;
		const char *text;
	} texts[] = {
	    {NVML_SUCCESS, "Success"},
	    {NVML_ERROR_UNINITIALIZED, "Uninitialized"},
	    {NVML_ERROR_INVALID_ARGUMENT, "Invalid Argument"},
	    {NVML_ERROR_NOT_SUPPORTED, "Not Supported"},
	    {NVML_ERROR_NO_PERMISSION, "Insufficient Permissions"},
	    {NVML_ERROR_ALREADY_INITIALIZED, "Already Initialized"},
	    {NVML_ERROR_NOT_FOUND, "Not Found"},
	    {NVML_ERROR_INSUFFICIENT_SIZE, "Insufficient Size"},
	    {NVML_ERROR_INSUFFICIENT_POWER, "Insufficient External Power"},
	    {NVML_ERROR_DRIVER_NOT_LOADED, "Driver Not Loaded"},
	    {NVML_ERROR_TIMEOUT, "Timeout"},
	    {NVML_ERROR_IRQ_ISSUE, "Interrupt Request Issue"},
	    {NVML_ERROR_LIBRARY_NOT_FOUND, "NVML Shared Library Not Found"},
	    {NVML_ERROR_FUNCTION_NOT_FOUND, "Function Not Found"},
	    {NVML_ERROR_CORRUPTED_INFOROM, "Corrupted infoROM"},
	    {NVML_ERROR_GPU_IS_LOST, "GPU is lost"},
	    {NVML_ERROR_RESET_REQUIRED, "GPU requires restart"},
	    {NVML_ERROR_OPERATING_SYSTEM,
	     "The operating system has blocked the request."},
	    {NVML_ERROR_LIB_RM_VERSION_MISMATCH,
	     "RM has detected an NVML/RM version mismatch."},
	    {NVML_ERROR_IN_USE, "The GPU is currently in use"},
	    {NVML_ERROR_MEMORY, "Insufficient Memory"},
	    {NVML_ERROR_NO_DATA, "No data"},
	    {NVML_ERROR_VGPU_ECC_NOT_SUPPORTED,
	     "The requested vgpu operation is not available on target "
	     "device, because ECC is enabled"},
	    {NVML_ERROR_INSUFFICIENT_RESOURCES,
	     "Ran out of critical resources, other than memory"},
	    {NVML_ERROR_FREQ_NOT_SUPPORTED,
	     "The requested frequency is not supported"},
	    {NVML_ERROR_ARGUMENT_VERSION_MISMATCH,
	     "The provided version is invalid/unsupported"},
	    {NVML_ERROR_DEPRECATED,
	     "Requested functionality has been deprecated"},
	    {NVML_ERROR_NOT_READY, "The system is not ready for the request"},
	    {NVML_ERROR_GPU_NOT_FOUND, "No GPUs were found"},
	    {NVML_ERROR_INVALID_STATE, "Resource is in an invalid state"},
	    {NVML_ERROR_RESET_TYPE_NOT_SUPPORTED,
	     "The requested reset type is not supported"},
	};

	pthread_mutex_lock(&g.lock);
	g.calls[FN_nvmlErrorString]++;
	pthread_mutex_unlock(&g.lock);
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		if (texts[i].rc == result)
			return texts[i].text;
	return "Unknown Error";
}

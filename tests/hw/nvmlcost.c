/* SPDX-License-Identifier: MIT */
/*
 * nvmlcost.c - owns the measurement of what each NVML call costs on a real
 * driver: the CPU time (of the calling thread) and the wall time of every
 * call gputop's NVIDIA backend makes, and of the backend's whole sample,
 * slow sample and process list, on GPU 0. This is where the collector's
 * cost on real hardware is explained (docs/hardware-validation.md); the
 * fake NVML answers in nanoseconds and cannot show it.
 *
 *   nvmlcost [ROUNDS]     (default 100; the 20 ms PCIe throughput window
 *                          is timed 5 times whatever ROUNDS says)
 *
 * Prints one line per call: median and largest CPU and wall microseconds
 * over the rounds, sorted by median CPU. Read-only: it calls getters only.
 */
#include "collectors/nvml_api.h"
#include "collectors/registry.h"
#include "core/backend.h"
#include "core/model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct cost_ctx {
	struct gt_nvml_api api;
	nvmlDevice_t h;
	struct gt_backend backend;
	unsigned arg; /* the running case's argument */
	nvmlProcessUtilizationSample_t util[256];
};

/* One call under test: a name and a function that makes it once. */
struct cost_case {
	const char *name;
	void (*call)(struct cost_ctx *c);
	int rounds;   /* 0: the command line's */
	unsigned arg; /* a field id, for c_field */
	size_t needs; /* offset of the entry point it calls in the table, or
	                 NO_ENTRY for the backend's own calls */
};
#define NO_ENTRY    ((size_t)-1)
#define API(member) offsetof(struct gt_nvml_api, member)

static void c_utilization(struct cost_ctx *c)
{
	nvmlUtilization_t u;
	c->api.utilization(c->h, &u);
}
static void c_encoder(struct cost_ctx *c)
{
	unsigned v, p;
	c->api.encoder(c->h, &v, &p);
}
static void c_decoder(struct cost_ctx *c)
{
	unsigned v, p;
	c->api.decoder(c->h, &v, &p);
}
static void c_memory(struct cost_ctx *c)
{
	nvmlMemory_v2_t m = {.version = GT_NVML_MEMORY_V2_VERSION};
	c->api.memory_v2(c->h, &m);
}
static void c_temperature(struct cost_ctx *c)
{
	unsigned t;
	c->api.temperature(c->h, NVML_TEMPERATURE_GPU, &t);
}
static void c_fields(struct cost_ctx *c)
{
	static const unsigned ids[] = {NVML_FI_DEV_POWER_AVERAGE,
	                               NVML_FI_DEV_POWER_INSTANT,
	                               NVML_FI_DEV_TOTAL_ENERGY_CONSUMPTION,
	                               NVML_FI_DEV_MEMORY_TEMP,
	                               NVML_FI_DEV_PCIE_COUNT_TX_BYTES,
	                               NVML_FI_DEV_PCIE_COUNT_RX_BYTES,
	                               NVML_FI_DEV_POWER_CURRENT_LIMIT,
	                               NVML_FI_DEV_POWER_REQUESTED_LIMIT};
	nvmlFieldValue_t fv[sizeof(ids) / sizeof(ids[0])];
	memset(fv, 0, sizeof(fv));
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		fv[i].fieldId = ids[i];
	c->api.field_values(c->h, (int)(sizeof(ids) / sizeof(ids[0])), fv);
}
static void c_field(struct cost_ctx *c)
{
	nvmlFieldValue_t fv;
	memset(&fv, 0, sizeof(fv));
	fv.fieldId = c->arg;
	c->api.field_values(c->h, 1, &fv);
}
static void c_pstate(struct cost_ctx *c)
{
	nvmlPstates_t p;
	c->api.pstate(c->h, &p);
}
static void c_clock_graphics(struct cost_ctx *c)
{
	unsigned v;
	c->api.clock(c->h, NVML_CLOCK_GRAPHICS, &v);
}
static void c_clock_mem(struct cost_ctx *c)
{
	unsigned v;
	c->api.clock(c->h, NVML_CLOCK_MEM, &v);
}
static void c_clock_events(struct cost_ctx *c)
{
	unsigned long long r;
	c->api.clock_events(c->h, &r);
}
static void c_power_usage(struct cost_ctx *c)
{
	unsigned v;
	c->api.power_usage(c->h, &v);
}
static void c_energy(struct cost_ctx *c)
{
	unsigned long long e;
	c->api.energy(c->h, &e);
}
static void c_compute_procs(struct cost_ctx *c)
{
	nvmlProcessInfo_t p[64];
	unsigned n = 64;
	c->api.compute_procs(c->h, &n, p);
}
static void c_graphics_procs(struct cost_ctx *c)
{
	nvmlProcessInfo_t p[64];
	unsigned n = 64;
	c->api.graphics_procs(c->h, &n, p);
}
static void c_process_utilization(struct cost_ctx *c)
{
	unsigned n = sizeof(c->util) / sizeof(c->util[0]);
	c->api.process_utilization(c->h, c->util, &n, 0);
}
static void c_process_utilization_size(struct cost_ctx *c)
{
	unsigned n = 0;
	c->api.process_utilization(c->h, NULL, &n, 0);
}
static void c_mps_procs(struct cost_ctx *c)
{
	nvmlProcessInfo_t p[64];
	unsigned n = 64;
	c->api.mps_procs(c->h, &n, p);
}
static void c_pcie_throughput(struct cost_ctx *c)
{
	unsigned kb;
	c->api.pcie_throughput(c->h, NVML_PCIE_UTIL_TX_BYTES, &kb);
}
static void c_ecc(struct cost_ctx *c)
{
	unsigned long long n;
	c->api.ecc_errors(c->h, NVML_MEMORY_ERROR_TYPE_CORRECTED,
	                  NVML_VOLATILE_ECC, &n);
}
static void c_backend_sample(struct cost_ctx *c)
{
	struct gt_sample s;
	gt_sample_init(&s);
	c->backend.ops->sample(&c->backend, 0, &s, 0);
}
static void c_backend_slow(struct cost_ctx *c)
{
	struct gt_sample s;
	gt_sample_init(&s);
	c->backend.ops->sample(&c->backend, 0, &s, 1);
}
static void c_backend_processes(struct cost_ctx *c)
{
	struct gt_proc_vec v = {0};
	c->backend.ops->processes(&c->backend, 0, &v);
	gt_proc_vec_free(&v);
}

static const struct cost_case cases[] = {
    {"nvmlDeviceGetUtilizationRates", c_utilization, 0, 0, API(utilization)},
    {"nvmlDeviceGetEncoderUtilization", c_encoder, 0, 0, API(encoder)},
    {"nvmlDeviceGetDecoderUtilization", c_decoder, 0, 0, API(decoder)},
    {"nvmlDeviceGetMemoryInfo_v2", c_memory, 0, 0, API(memory_v2)},
    {"nvmlDeviceGetTemperature", c_temperature, 0, 0, API(temperature)},
    {"nvmlDeviceGetFieldValues (8 fields)", c_fields, 0, 0, API(field_values)},
    {"  field POWER_AVERAGE", c_field, 0, NVML_FI_DEV_POWER_AVERAGE,
     API(field_values)},
    {"  field POWER_INSTANT", c_field, 0, NVML_FI_DEV_POWER_INSTANT,
     API(field_values)},
    {"  field TOTAL_ENERGY_CONSUMPTION", c_field, 0,
     NVML_FI_DEV_TOTAL_ENERGY_CONSUMPTION, API(field_values)},
    {"  field MEMORY_TEMP", c_field, 0, NVML_FI_DEV_MEMORY_TEMP,
     API(field_values)},
    {"  field PCIE_COUNT_TX_BYTES", c_field, 0, NVML_FI_DEV_PCIE_COUNT_TX_BYTES,
     API(field_values)},
    {"  field PCIE_COUNT_RX_BYTES", c_field, 0, NVML_FI_DEV_PCIE_COUNT_RX_BYTES,
     API(field_values)},
    {"  field POWER_CURRENT_LIMIT", c_field, 0, NVML_FI_DEV_POWER_CURRENT_LIMIT,
     API(field_values)},
    {"  field POWER_REQUESTED_LIMIT", c_field, 0,
     NVML_FI_DEV_POWER_REQUESTED_LIMIT, API(field_values)},
    {"nvmlDeviceGetPerformanceState", c_pstate, 0, 0, API(pstate)},
    {"nvmlDeviceGetClockInfo (graphics)", c_clock_graphics, 0, 0, API(clock)},
    {"nvmlDeviceGetClockInfo (memory)", c_clock_mem, 0, 0, API(clock)},
    {"nvmlDeviceGetCurrentClocksEventReasons", c_clock_events, 0, 0,
     API(clock_events)},
    {"nvmlDeviceGetTotalEnergyConsumption", c_energy, 0, 0, API(energy)},
    {"nvmlDeviceGetPowerUsage", c_power_usage, 0, 0, API(power_usage)},
    {"nvmlDeviceGetComputeRunningProcesses", c_compute_procs, 0, 0,
     API(compute_procs)},
    {"nvmlDeviceGetGraphicsRunningProcesses", c_graphics_procs, 0, 0,
     API(graphics_procs)},
    {"nvmlDeviceGetProcessUtilization", c_process_utilization, 0, 0,
     API(process_utilization)},
    {"nvmlDeviceGetProcessUtilization (size)", c_process_utilization_size, 0, 0,
     API(process_utilization)},
    {"nvmlDeviceGetMPSComputeRunningProcesses", c_mps_procs, 0, 0,
     API(mps_procs)},
    {"nvmlDeviceGetTotalEccErrors (one)", c_ecc, 0, 0, API(ecc_errors)},
    {"nvmlDeviceGetPcieThroughput (TX)", c_pcie_throughput, 5, 0,
     API(pcie_throughput)},
    {"gputop: one sample of GPU 0", c_backend_sample, 0, 0, NO_ENTRY},
    {"gputop: one slow sample of GPU 0", c_backend_slow, 5, 0, NO_ENTRY},
    {"gputop: GPU 0's process list", c_backend_processes, 0, 0, NO_ENTRY},
};

/* Whether the library has the entry point the case calls. */
static bool cost_available(const struct cost_ctx *c, const struct cost_case *k)
{
	void (*fn)(void) = NULL;
	if (k->needs == NO_ENTRY)
		return true;
	memcpy(&fn, (const char *)&c->api + k->needs, sizeof(fn));
	return fn != NULL;
}

static double now_us(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

struct cost_result {
	const char *name;
	double cpu_median, cpu_max, wall_median, wall_max;
};

static void cost_measure(struct cost_ctx *c, const struct cost_case *k,
                         int rounds, double *cpu, double *wall,
                         struct cost_result *r)
{
	k->call(c); /* a first call may set up state: not counted */
	for (int i = 0; i < rounds; i++) {
		double c0 = now_us(CLOCK_THREAD_CPUTIME_ID);
		double w0 = now_us(CLOCK_MONOTONIC);
		k->call(c);
		wall[i] = now_us(CLOCK_MONOTONIC) - w0;
		cpu[i] = now_us(CLOCK_THREAD_CPUTIME_ID) - c0;
	}
	qsort(cpu, (size_t)rounds, sizeof(double), cmp_double);
	qsort(wall, (size_t)rounds, sizeof(double), cmp_double);
	*r = (struct cost_result){k->name, cpu[rounds / 2], cpu[rounds - 1],
	                          wall[rounds / 2], wall[rounds - 1]};
}

static int cmp_result(const void *a, const void *b)
{
	const struct cost_result *x = a, *y = b;
	return (y->cpu_median > x->cpu_median) -
	       (y->cpu_median < x->cpu_median);
}

/* The backend and the raw table both open the library: the raw table is
 * for single calls, the backend for what one of gputop's samples costs. */
static int cost_open(struct cost_ctx *c)
{
	char why[256];
	if (gt_nvml_api_load(&c->api, NULL, why, sizeof(why)) != 0) {
		fprintf(stderr, "nvmlcost: %s\n", why);
		return -1;
	}
	nvmlReturn_t rc = c->api.init();
	if (rc == NVML_SUCCESS)
		rc = c->api.handle_by_index(0, &c->h);
	if (rc != NVML_SUCCESS) {
		fprintf(stderr, "nvmlcost: NVML: %s\n",
		        c->api.error_string(rc));
		return -1;
	}
	struct gt_backend_options opt = {0};
	c->backend.ops = &gt_nvml_backend;
	c->backend.ops->probe(&c->backend, &opt);
	if (c->backend.status != GT_BACKEND_OK ||
	    c->backend.device_count == 0) {
		fprintf(stderr,
		        "nvmlcost: the NVIDIA backend found no GPU: %s\n",
		        c->backend.detail);
		return -1;
	}
	struct gt_static st;
	memset(&st, 0, sizeof(st));
	c->backend.ops->get_static(&c->backend, 0, &st);
	printf("GPU 0: %s\n", st.name);
	return 0;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 100;
	if (rounds < 1 || rounds > 100000) {
		fprintf(stderr, "usage: nvmlcost [ROUNDS 1..100000]\n");
		return 2;
	}
	static struct cost_ctx c;
	if (cost_open(&c) != 0)
		return 1;
	size_t n = sizeof(cases) / sizeof(cases[0]);
	struct cost_result res[sizeof(cases) / sizeof(cases[0])];
	double *cpu = calloc((size_t)rounds, sizeof(double));
	double *wall = calloc((size_t)rounds, sizeof(double));
	if (!cpu || !wall) {
		fprintf(stderr, "nvmlcost: out of memory\n");
		return 1;
	}
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (!cost_available(&c, &cases[i])) {
			printf("%-42s not in this library\n", cases[i].name);
			continue;
		}
		int r = cases[i].rounds ? cases[i].rounds : rounds;
		if (r > rounds)
			r = rounds;
		c.arg = cases[i].arg;
		cost_measure(&c, &cases[i], r, cpu, wall, &res[m++]);
	}
	qsort(res, m, sizeof(res[0]), cmp_result);
	printf("%-42s %10s %10s %10s %10s\n", "call", "cpu med", "cpu max",
	       "wall med", "wall max");
	for (size_t i = 0; i < m; i++)
		printf("%-42s %10.1f %10.1f %10.1f %10.1f\n", res[i].name,
		       res[i].cpu_median, res[i].cpu_max, res[i].wall_median,
		       res[i].wall_max);
	printf("(microseconds over %d rounds)\n", rounds);
	free(cpu);
	free(wall);
	c.backend.ops->shutdown(&c.backend);
	c.api.shutdown();
	gt_nvml_api_unload(&c.api);
	return 0;
}

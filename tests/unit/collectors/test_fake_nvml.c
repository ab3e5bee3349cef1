/* SPDX-License-Identifier: MIT */
/*
 * test_fake_nvml.c - cmocka tests of the fake libnvidia-ml.so.1 (built from
 * tests/fake-nvml/), loaded with dlopen exactly as gputop's client loads
 * the real one (support/fake_nvml_test.h). They pin down the NVML
 * behaviour the fake promises: init reference counting, struct versions,
 * per-field status, lost GPUs, the call counts and calls from many
 * threads. The process queries are test_fake_nvml_procs.c's, the setters
 * and fans test_fake_nvml_control.c's.
 *
 * Needs GPUTOP_FAKE_NVML_LIB (path of the built library) and
 * GPUTOP_SCENARIO_DIR (tests/fake-nvml/scenarios).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collectors/nvml_abi.h"
#include "support/fake_nvml_test.h"

#define H100_MIB 1048576ULL

static void test_uninitialized_before_init(void **state)
{
	unsigned int n = 42;
	char buf[80];
	const char *text;

	(void)state;
	assert_int_equal(f.nvmlDeviceGetCount_v2(&n), NVML_ERROR_UNINITIALIZED);
	assert_int_equal(n, 42);
	assert_int_equal(f.nvmlSystemGetDriverVersion(buf, sizeof(buf)),
	                 NVML_ERROR_UNINITIALIZED);
	/* A pointer-looking handle must not be trusted before init. */
	assert_int_equal(f.nvmlDeviceGetTemperature((nvmlDevice_t)buf,
	                                            NVML_TEMPERATURE_GPU, &n),
	                 NVML_ERROR_UNINITIALIZED);
	assert_string_equal(f.nvmlErrorString(NVML_ERROR_UNINITIALIZED),
	                    "Uninitialized");
	text = f.nvmlErrorString((nvmlReturn_t)12345);
	assert_non_null(text);
	assert_string_equal(text, "Unknown Error");
	assert_int_equal(f.nvmlShutdown(), NVML_SUCCESS);
}

static void test_refcounted_init(void **state)
{
	unsigned int n = 0;
	char buf[80];

	(void)state;
	use_scenario("h100x8.scn");
	assert_int_equal(f.nvmlInit_v2(), NVML_SUCCESS);
	assert_int_equal(f.nvmlInit(), NVML_SUCCESS);
	assert_int_equal(f.nvmlInitWithFlags(0), NVML_SUCCESS);
	assert_int_equal(f.nvmlShutdown(), NVML_SUCCESS);
	assert_int_equal(f.nvmlShutdown(), NVML_SUCCESS);
	assert_int_equal(f.nvmlDeviceGetCount_v2(&n), NVML_SUCCESS);
	assert_int_equal(n, 8);
	assert_int_equal(f.nvmlSystemGetDriverVersion(buf, sizeof(buf)),
	                 NVML_SUCCESS);
	assert_string_equal(buf, "590.48.01");
	assert_int_equal(f.nvmlShutdown(), NVML_SUCCESS);
	assert_int_equal(f.nvmlDeviceGetCount_v2(&n), NVML_ERROR_UNINITIALIZED);
	assert_int_equal(f.nvmlShutdown(), NVML_SUCCESS); /* extra: no error */
}

/* nvmlInit_v2 on a scenario the fake rejects: UNKNOWN, and what it said
 * on stderr (caught in errpath) in err. */
static void init_rejected(const char *errpath, char *err, size_t len)
{
	int saved;

	fflush(stderr);
	saved = dup(2);
	assert_true(saved >= 0);
	assert_true(freopen(errpath, "w", stderr) != NULL);
	assert_int_equal(f.nvmlInit_v2(), NVML_ERROR_UNKNOWN);
	fflush(stderr);
	assert_int_equal(dup2(saved, 2), 2);
	close(saved);
	read_file(errpath, err, len);
}

static void test_init_failures(void **state)
{
	char path[128], errpath[128], err[4096];

	(void)state;
	unsetenv("GPUTOP_FAKE_NVML_SCENARIO");
	assert_int_equal(f.nvmlInit_v2(), NVML_ERROR_DRIVER_NOT_LOADED);
	assert_string_equal(f.nvmlErrorString(NVML_ERROR_DRIVER_NOT_LOADED),
	                    "Driver Not Loaded");
	use_scenario("no-such-scenario.scn");
	assert_int_equal(f.nvmlInit_v2(), NVML_ERROR_DRIVER_NOT_LOADED);

	temp_path(path, sizeof(path), "initerr");
	write_file(path, "# a driver/library version mismatch\n"
	                 "init_error LIB_RM_VERSION_MISMATCH\n");
	setenv("GPUTOP_FAKE_NVML_SCENARIO", path, 1);
	assert_int_equal(f.nvmlInit_v2(), NVML_ERROR_LIB_RM_VERSION_MISMATCH);

	/* A malformed line fails init and names file:line on stderr. */
	write_file(path, "driver_version 1.0\ndevice 0\ntemp ramp 1 2\n");
	temp_path(errpath, sizeof(errpath), "stderr");
	init_rejected(errpath, err, sizeof(err));
	{
		char want[256];

		snprintf(want, sizeof(want), "%s:3: ", path);
		assert_non_null(strstr(err, want));
	}
	assert_int_equal(f.nvmlDeviceGetCount_v2(&(unsigned int){0}),
	                 NVML_ERROR_UNINITIALIZED);

	/* A process's start time is seconds >= 0. */
	{
		static const char *const bad[] = {
		    "process compute 1 1GiB from=-1",
		    "process compute 1 1GiB from=soon",
		    "putil 1 2 3 4 5 from=-2",
		};
		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			char text[256];
			snprintf(text, sizeof(text),
			         "driver_version 1.0\ndevice 0\n%s\n", bad[i]);
			write_file(path, text);
			init_rejected(errpath, err, sizeof(err));
			assert_non_null(strstr(err, "from=S"));
		}
	}

	/* A GPU back no later than it was lost. */
	{
		char text[4200];

		snprintf(text, sizeof(text),
		         "include %s/h100x8.scn\ndevice 3\nlost_after 2\n"
		         "back_after 2\n",
		         f.scenario_dir);
		write_file(path, text);
	}
	init_rejected(errpath, err, sizeof(err));
	assert_non_null(strstr(err, "device 3: back_after must be later "
	                            "than lost_after"));
	unlink(path);
	unlink(errpath);
}

static void test_memory_info(void **state)
{
	nvmlMemory_v2_t m2;
	nvmlMemory_t m1;
	nvmlDevice_t d;

	(void)state;
	init_with("h100x8.scn");
	d = gpu(0);

	memset(&m2, 0, sizeof(m2));
	m2.version = 2; /* what nvtop passes: must fail with 13, not 3 */
	assert_int_equal(f.nvmlDeviceGetMemoryInfo_v2(d, &m2),
	                 NVML_ERROR_FUNCTION_NOT_FOUND);

	m2.version = GT_NVML_MEMORY_V2_VERSION;
	assert_int_equal(f.nvmlDeviceGetMemoryInfo_v2(d, &m2), NVML_SUCCESS);
	assert_int_equal(m2.total, 81559 * H100_MIB);
	assert_int_equal(m2.reserved, 479 * H100_MIB);
	assert_int_equal(m2.used, 76235669504ULL + 536870912ULL);
	assert_int_equal(m2.reserved + m2.used + m2.free, m2.total);

	/* v1 counts the reserved part as used. */
	assert_int_equal(f.nvmlDeviceGetMemoryInfo(d, &m1), NVML_SUCCESS);
	assert_int_equal(m1.total, m2.total);
	assert_int_equal(m1.used, m2.used + m2.reserved);
	assert_int_equal(m1.free, m2.free);
}

static void test_versioned_structs(void **state)
{
	nvmlTemperature_t t;
	nvmlProcessesUtilizationInfo_t pu;
	nvmlDevice_t d;

	(void)state;
	init_with("h100x8.scn");
	d = gpu(3);
	memset(&t, 0, sizeof(t));
	t.version = 1;
	assert_int_equal(f.nvmlDeviceGetTemperatureV(d, &t),
	                 NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
	t.version = GT_NVML_TEMPERATURE_V1_VERSION;
	t.sensorType = NVML_TEMPERATURE_GPU;
	assert_int_equal(f.nvmlDeviceGetTemperatureV(d, &t), NVML_SUCCESS);
	assert_int_equal(t.temperature, 43);

	memset(&pu, 0, sizeof(pu));
	pu.version = 0x01000010;
	assert_int_equal(f.nvmlDeviceGetProcessesUtilizationInfo(d, &pu),
	                 NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
}

static void test_pci_info_layouts(void **state)
{
	unsigned char raw[sizeof(nvmlPciInfo_t)];
	nvmlPciInfo_t pci;
	nvmlDevice_t d;

	(void)state;
	init_with("h100x8.scn");
	d = gpu(0);

	/* v1 owns 52 bytes: 36 filled, 16 zeroed, nothing written after. */
	memset(raw, 0xAA, sizeof(raw));
	assert_int_equal(f.nvmlDeviceGetPciInfo(d, (nvmlPciInfo_t *)raw),
	                 NVML_SUCCESS);
	assert_string_equal((const char *)raw, "0000:18:00.0");
	for (size_t i = GT_NVML_PCI_INFO_V1_FILLED;
	     i < GT_NVML_PCI_INFO_V1_SIZE; i++)
		assert_int_equal(raw[i], 0);
	for (size_t i = GT_NVML_PCI_INFO_V1_SIZE; i < sizeof(raw); i++)
		assert_int_equal(raw[i], 0xAA);

	assert_int_equal(f.nvmlDeviceGetPciInfo_v3(d, &pci), NVML_SUCCESS);
	assert_string_equal(pci.busId, "00000000:18:00.0");
	assert_int_equal(pci.pciDeviceId, 0x233010DE);
	assert_int_equal(pci.pciSubSystemId, 0x16C110DE);
}

static void test_field_values(void **state)
{
	nvmlFieldValue_t v[7];
	unsigned long long energy;
	nvmlDevice_t d;

	(void)state;
	init_with("h100x8.scn");
	d = gpu(2);
	memset(v, 0, sizeof(v));
	v[0].fieldId = NVML_FI_DEV_MEMORY_TEMP;
	v[1].fieldId = NVML_FI_DEV_POWER_INSTANT;
	v[2].fieldId = NVML_FI_DEV_POWER_CURRENT_LIMIT;
	v[3].fieldId = NVML_FI_DEV_TEMPERATURE_SHUTDOWN_TLIMIT;
	v[4].fieldId = NVML_FI_DEV_TOTAL_ENERGY_CONSUMPTION;
	v[5].fieldId = 9999;                          /* unknown */
	v[6].fieldId = NVML_FI_DEV_NVLINK_LINK_COUNT; /* not in scenario */
	assert_int_equal(f.nvmlDeviceGetFieldValues(d, 7, v), NVML_SUCCESS);

	assert_int_equal(v[0].nvmlReturn, NVML_SUCCESS);
	assert_int_equal(v[0].valueType, NVML_VALUE_TYPE_UNSIGNED_INT);
	assert_int_equal(v[0].value.uiVal, 52);
	assert_true(v[0].timestamp > 0);
	assert_int_equal(v[1].nvmlReturn, NVML_SUCCESS);
	assert_int_equal(v[1].value.uiVal, 594000);
	assert_int_equal(v[2].value.uiVal, 700000);
	assert_int_equal(v[3].valueType, NVML_VALUE_TYPE_SIGNED_INT);
	assert_int_equal(v[3].value.siVal, -8);
	assert_int_equal(v[4].valueType, NVML_VALUE_TYPE_UNSIGNED_LONG_LONG);
	assert_true(v[4].value.ullVal >= 914345678901ULL);
	assert_int_equal(v[5].nvmlReturn, NVML_ERROR_NOT_SUPPORTED);
	assert_int_equal(v[6].nvmlReturn, NVML_ERROR_NOT_SUPPORTED);

	/* The energy counter grows at the scenario's power (625 W). */
	energy = v[4].value.ullVal;
	sleep_ms(50);
	memset(&v[4], 0, sizeof(v[4]));
	v[4].fieldId = NVML_FI_DEV_ENERGY;
	assert_int_equal(f.nvmlDeviceGetFieldValues(d, 1, &v[4]), NVML_SUCCESS);
	assert_int_equal(v[4].nvmlReturn, NVML_SUCCESS);
	assert_true(v[4].value.ullVal >= energy + 625000ULL * 40 / 1000);
}

static void test_lost_gpu(void **state)
{
	unsigned int t = 0;
	char name[NVML_DEVICE_NAME_BUFFER_SIZE];
	nvmlDevice_t lost, fine;

	(void)state;
	init_with("h100x8-lost.scn"); /* GPU 3 is lost 1.5 s after init */
	lost = gpu(3);
	fine = gpu(2);
	assert_int_equal(
	    f.nvmlDeviceGetTemperature(lost, NVML_TEMPERATURE_GPU, &t),
	    NVML_SUCCESS);
	assert_int_equal(t, 43);
	sleep_ms(1600);
	assert_int_equal(
	    f.nvmlDeviceGetTemperature(lost, NVML_TEMPERATURE_GPU, &t),
	    NVML_ERROR_GPU_IS_LOST);
	assert_int_equal(f.nvmlDeviceGetName(lost, name, sizeof(name)),
	                 NVML_ERROR_GPU_IS_LOST);
	assert_string_equal(f.nvmlErrorString(NVML_ERROR_GPU_IS_LOST),
	                    "GPU is lost");
	assert_int_equal(
	    f.nvmlDeviceGetTemperature(fine, NVML_TEMPERATURE_GPU, &t),
	    NVML_SUCCESS);
	assert_int_equal(t, 42);
}

/* back_after ends the loss: calls answer again, as after a reset. */
static void test_lost_gpu_comes_back(void **state)
{
	unsigned int t = 0;
	nvmlDevice_t d;

	(void)state;
	init_with("h100x8-reset.scn"); /* GPU 3: lost from 1 s to 3 s */
	d = gpu(3);
	assert_int_equal(
	    f.nvmlDeviceGetTemperature(d, NVML_TEMPERATURE_GPU, &t),
	    NVML_SUCCESS);
	sleep_ms(1200);
	assert_int_equal(
	    f.nvmlDeviceGetTemperature(d, NVML_TEMPERATURE_GPU, &t),
	    NVML_ERROR_GPU_IS_LOST);
	sleep_ms(2000);
	t = 0;
	assert_int_equal(
	    f.nvmlDeviceGetTemperature(d, NVML_TEMPERATURE_GPU, &t),
	    NVML_SUCCESS);
	assert_int_equal(t, 43);
	/* The handle was never invalid: the same one answers. */
	assert_ptr_equal(gpu(3), d);
}

/* Nanoseconds since t0: a difference of two of these is exact, where
 * two whole milliseconds, each rounded, can miss a 400 ms sleep by one. */
static int64_t elapsed_ns(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)(t.tv_sec - t0->tv_sec) * 1000000000 +
	       (t.tv_nsec - t0->tv_nsec);
}

static long elapsed_ms(const struct timespec *t0)
{
	return (long)(elapsed_ns(t0) / 1000000);
}

/* lost_every repeats the loss; `latency ... after` starts late. */
static void test_lost_every_and_late_latency(void **state)
{
	char path[128], text[4200];
	unsigned int t = 0;
	char name[NVML_DEVICE_NAME_BUFFER_SIZE];
	struct timespec t0;

	(void)state;
	temp_path(path, sizeof(path), "cycle");
	snprintf(text, sizeof(text),
	         "include %s/h100x8.scn\n"
	         "latency nvmlDeviceGetName 400 after 1.3\n"
	         "device 3\nlost_after 0.5\nback_after 1.0\nlost_every 1.5\n",
	         f.scenario_dir);
	write_file(path, text);
	setenv("GPUTOP_FAKE_NVML_SCENARIO", path, 1);
	assert_int_equal(f.nvmlInit_v2(), NVML_SUCCESS);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	nvmlDevice_t d = gpu(3);
	/* Lost from 0.5 to 1.0 s, 2.0 to 2.5 s, ...: asked mid-way. */
	static const struct {
		long at_ms;
		nvmlReturn_t want;
	} steps[] = {{100, NVML_SUCCESS},  {750, NVML_ERROR_GPU_IS_LOST},
	             {1250, NVML_SUCCESS}, {2250, NVML_ERROR_GPU_IS_LOST},
	             {2750, NVML_SUCCESS}, {3750, NVML_ERROR_GPU_IS_LOST}};
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		long left = steps[i].at_ms - elapsed_ms(&t0);
		if (left > 0)
			sleep_ms(left);
		assert_int_equal(
		    f.nvmlDeviceGetTemperature(d, NVML_TEMPERATURE_GPU, &t),
		    steps[i].want);
		if (i == 0) { /* before 1.3 s: no latency */
			long b = elapsed_ms(&t0);
			assert_int_equal(
			    f.nvmlDeviceGetName(gpu(0), name, sizeof(name)),
			    NVML_SUCCESS);
			assert_true(elapsed_ms(&t0) - b < 300);
		}
	}
	int64_t b = elapsed_ns(&t0); /* after 1.3 s: 400 ms */
	assert_int_equal(f.nvmlDeviceGetName(gpu(0), name, sizeof(name)),
	                 NVML_SUCCESS);
	assert_true(elapsed_ns(&t0) - b >= 400000000);
	assert_int_equal(f.nvmlShutdown(), NVML_SUCCESS);

	/* A cycle needs back_after and must outlast the loss. */
	char errpath[128], err[4096];
	temp_path(errpath, sizeof(errpath), "stderr");
	snprintf(text, sizeof(text),
	         "include %s/h100x8.scn\ndevice 3\nlost_after 1\n"
	         "back_after 3\nlost_every 2\n",
	         f.scenario_dir);
	write_file(path, text);
	init_rejected(errpath, err, sizeof(err));
	assert_non_null(strstr(err, "lost_every needs back_after and must be "
	                            "longer than the loss"));
	unlink(path);
	unlink(errpath);
}

static void test_call_counts(void **state)
{
	char calls[128], text[16384];
	char name[NVML_DEVICE_NAME_BUFFER_SIZE];
	nvmlDevice_t d;

	(void)state;
	temp_path(calls, sizeof(calls), "calls");
	setenv("GPUTOP_FAKE_NVML_CALLS", calls, 1);
	init_with("h100x8.scn");
	d = gpu(0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(f.nvmlDeviceGetName(d, name, sizeof(name)),
		                 NVML_SUCCESS);
	assert_string_equal(name, "NVIDIA H100 80GB HBM3");
	assert_int_equal(f.nvmlShutdown(), NVML_SUCCESS);
	read_file(calls, text, sizeof(text));
	assert_non_null(strstr(text, "\nnvmlDeviceGetName 3\n"));
	assert_non_null(strstr(text, "\nnvmlDeviceGetPcieThroughput 0\n"));
	assert_non_null(strstr(text, "\nnvmlDeviceGetHandleByIndex_v2 1\n"));
	assert_true(strncmp(text, "nvmlInit 0\nnvmlInit_v2 1\n", 25) == 0);
	unlink(calls);
}

static void *hammer(void *arg)
{
	nvmlDevice_t d = arg;
	nvmlFieldValue_t v;
	unsigned int kbps;

	for (int i = 0; i < 2000; i++) {
		memset(&v, 0, sizeof(v));
		v.fieldId = NVML_FI_DEV_PCIE_COUNT_TX_BYTES;
		if (f.nvmlDeviceGetPcieThroughput(d, NVML_PCIE_UTIL_RX_BYTES,
		                                  &kbps) != NVML_SUCCESS ||
		    f.nvmlDeviceGetFieldValues(d, 1, &v) != NVML_SUCCESS ||
		    v.nvmlReturn != NVML_SUCCESS)
			return (void *)1;
	}
	return NULL;
}

static void test_threads(void **state)
{
	pthread_t t[8];
	void *ret;

	(void)state;
	init_with("h100x8.scn");
	for (unsigned int i = 0; i < 8; i++)
		assert_int_equal(pthread_create(&t[i], NULL, hammer, gpu(i)),
		                 0);
	for (unsigned int i = 0; i < 8; i++) {
		assert_int_equal(pthread_join(t[i], &ret), 0);
		assert_null(ret);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_teardown(test_uninitialized_before_init,
	                              test_teardown),
	    cmocka_unit_test_teardown(test_refcounted_init, test_teardown),
	    cmocka_unit_test_teardown(test_init_failures, test_teardown),
	    /* Ends with a rejected init too: not before test_call_counts. */
	    cmocka_unit_test_teardown(test_lost_every_and_late_latency,
	                              test_teardown),
	    cmocka_unit_test_teardown(test_memory_info, test_teardown),
	    cmocka_unit_test_teardown(test_versioned_structs, test_teardown),
	    cmocka_unit_test_teardown(test_pci_info_layouts, test_teardown),
	    cmocka_unit_test_teardown(test_field_values, test_teardown),
	    cmocka_unit_test_teardown(test_lost_gpu, test_teardown),
	    cmocka_unit_test_teardown(test_lost_gpu_comes_back, test_teardown),
	    cmocka_unit_test_teardown(test_call_counts, test_teardown),
	    cmocka_unit_test_teardown(test_threads, test_teardown),
	};

	return cmocka_run_group_tests_name("fake_nvml", tests, group_setup,
	                                   group_teardown);
}

/* SPDX-License-Identifier: MIT */
/*
 * fake_nvml_test.h - shared harness of the fake NVML tests
 * (test_fake_nvml.c, test_fake_nvml_procs.c, test_fake_nvml_control.c):
 * the fake libnvidia-ml.so.1 loaded with dlopen exactly as gputop's client
 * loads the real one (a cmocka group setup resolves every function the
 * tests call), a teardown that leaves it uninitialised, the scenarios, and
 * temporary files for its logs. static inline so each test uses what it
 * needs.
 *
 * Needs GPUTOP_FAKE_NVML_LIB (path of the built library) and
 * GPUTOP_SCENARIO_DIR (tests/fake-nvml/scenarios).
 */
#ifndef GPUTOP_TEST_FAKE_NVML_TEST_H
#define GPUTOP_TEST_FAKE_NVML_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "collectors/nvml_abi.h"

/* Every function the tests call, resolved from the library under test. */
#define FAKE_SYMS(X)                                                           \
	X(nvmlInit)                                                            \
	X(nvmlInit_v2)                                                         \
	X(nvmlInitWithFlags)                                                   \
	X(nvmlShutdown)                                                        \
	X(nvmlErrorString)                                                     \
	X(nvmlSystemGetDriverVersion)                                          \
	X(nvmlDeviceGetCount_v2)                                               \
	X(nvmlDeviceGetHandleByIndex_v2)                                       \
	X(nvmlDeviceGetName)                                                   \
	X(nvmlDeviceGetTemperature)                                            \
	X(nvmlDeviceGetTemperatureV)                                           \
	X(nvmlDeviceGetMemoryInfo)                                             \
	X(nvmlDeviceGetMemoryInfo_v2)                                          \
	X(nvmlDeviceGetPciInfo)                                                \
	X(nvmlDeviceGetPciInfo_v3)                                             \
	X(nvmlDeviceGetComputeRunningProcesses)                                \
	X(nvmlDeviceGetComputeRunningProcesses_v3)                             \
	X(nvmlDeviceGetGraphicsRunningProcesses_v3)                            \
	X(nvmlDeviceGetProcessUtilization)                                     \
	X(nvmlDeviceGetProcessesUtilizationInfo)                               \
	X(nvmlDeviceGetFieldValues)                                            \
	X(nvmlDeviceGetPcieThroughput)                                         \
	X(nvmlDeviceGetPowerManagementLimit)                                   \
	X(nvmlDeviceGetEnforcedPowerLimit)                                     \
	X(nvmlDeviceSetPowerManagementLimit)                                   \
	X(nvmlDeviceSetPowerManagementLimit_v2)                                \
	X(nvmlDeviceGetPersistenceMode)                                        \
	X(nvmlDeviceSetPersistenceMode)                                        \
	X(nvmlDeviceGetNumFans)                                                \
	X(nvmlDeviceGetFanSpeed_v2)                                            \
	X(nvmlDeviceGetFanControlPolicy_v2)                                    \
	X(nvmlDeviceSetFanSpeed_v2)                                            \
	X(nvmlDeviceSetDefaultFanSpeed_v2)                                     \
	X(nvmlDeviceGetFanSpeedRPM)                                            \
	X(nvmlDeviceGetUtilizationRates)                                       \
	X(nvmlDeviceGetMigMode)                                                \
	X(nvmlDeviceGetMigDeviceHandleByIndex)                                 \
	X(nvmlDeviceIsMigDeviceHandle)                                         \
	X(nvmlDeviceGetGpuInstanceId)                                          \
	X(nvmlDeviceGetGpuInstanceById)                                        \
	X(nvmlGpuInstanceGetInfo)                                              \
	X(nvmlDeviceGetDeviceHandleFromMigDeviceHandle)

/* The loaded library; set up once per run, read-only during the tests. */
static struct {
	void *lib;
	const char *scenario_dir;
#define FAKE_SYM_FIELD(name) __typeof__(name) *name;
	FAKE_SYMS(FAKE_SYM_FIELD)
#undef FAKE_SYM_FIELD
} f;

static inline int group_setup(void **state)
{
	const char *path = getenv("GPUTOP_FAKE_NVML_LIB");

	(void)state;
	f.scenario_dir = getenv("GPUTOP_SCENARIO_DIR");
	if (path == NULL || f.scenario_dir == NULL) {
		fprintf(stderr,
		        "test_fake_nvml: set GPUTOP_FAKE_NVML_LIB to the "
		        "built fake libnvidia-ml.so.1 and "
		        "GPUTOP_SCENARIO_DIR to tests/fake-nvml/"
		        "scenarios\n");
		return -1;
	}
	f.lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (f.lib == NULL) {
		fprintf(stderr, "test_fake_nvml: dlopen %s: %s\n", path,
		        dlerror());
		return -1;
	}
#define FAKE_SYM_LOAD(name)                                                    \
	*(void **)&f.name = dlsym(f.lib, #name);                               \
	if (f.name == NULL) {                                                  \
		fprintf(stderr, "test_fake_nvml: %s not exported\n", #name);   \
		return -1;                                                     \
	}
	FAKE_SYMS(FAKE_SYM_LOAD)
#undef FAKE_SYM_LOAD
	return 0;
}

static inline int group_teardown(void **state)
{
	(void)state;
	if (f.lib != NULL)
		dlclose(f.lib);
	return 0;
}

/* Leaves the library uninitialised whatever a failed test left behind. */
static inline int test_teardown(void **state)
{
	(void)state;
	for (int i = 0; i < 8; i++)
		f.nvmlShutdown();
	unsetenv("GPUTOP_FAKE_NVML_LOG");
	unsetenv("GPUTOP_FAKE_NVML_CALLS");
	unsetenv("GPUTOP_FAKE_NVML_SCENARIO");
	return 0;
}

static inline void use_scenario(const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", f.scenario_dir, name);
	assert_int_equal(setenv("GPUTOP_FAKE_NVML_SCENARIO", path, 1), 0);
}

static inline void init_with(const char *name)
{
	use_scenario(name);
	assert_int_equal(f.nvmlInit_v2(), NVML_SUCCESS);
}

static inline nvmlDevice_t gpu(unsigned int i)
{
	nvmlDevice_t d = NULL;

	assert_int_equal(f.nvmlDeviceGetHandleByIndex_v2(i, &d), NVML_SUCCESS);
	return d;
}

/* A temporary file name; the file is created empty. Caller unlinks. */
static inline void temp_path(char *buf, size_t len, const char *tag)
{
	int fd;

	snprintf(buf, len, "/tmp/test_fake_nvml_%s_XXXXXX", tag);
	fd = mkstemp(buf);
	assert_true(fd >= 0);
	close(fd);
}

static inline void write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

/* Reads at most len-1 bytes of path into buf. */
static inline void read_file(const char *path, char *buf, size_t len)
{
	FILE *fp = fopen(path, "r");
	size_t n;

	assert_non_null(fp);
	n = fread(buf, 1, len - 1, fp);
	buf[n] = '\0';
	fclose(fp);
}

static inline unsigned long long now_us(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (unsigned long long)tv.tv_sec * 1000000ULL +
	       (unsigned long long)tv.tv_usec;
}

static inline void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
}

#endif

/* SPDX-License-Identifier: MIT */
/*
 * test_fake_nvml.c - cmocka tests of the fake libnvidia-ml.so.1 (built from
 * tests/fake-nvml/), loaded with dlopen exactly as gputop's client loads
 * the real one. They pin down the NVML behaviour the fake promises: init
 * reference counting, struct versions, buffer-size handshakes, per-field
 * status, lost GPUs, privileges and the setter log.
 *
 * Needs GPUTOP_FAKE_NVML_LIB (path of the built library) and
 * GPUTOP_SCENARIO_DIR (tests/fake-nvml/scenarios).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "collectors/nvml_abi.h"

#define H100_MIB 1048576ULL

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
	X(nvmlDeviceGetDeviceHandleFromMigDeviceHandle)

/* The loaded library; set up once per run, read-only during the tests. */
static struct {
	void *lib;
	const char *scenario_dir;
#define FAKE_SYM_FIELD(name) __typeof__(name) *name;
	FAKE_SYMS(FAKE_SYM_FIELD)
#undef FAKE_SYM_FIELD
} f;

static int group_setup(void **state)
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

static int group_teardown(void **state)
{
	(void)state;
	if (f.lib != NULL)
		dlclose(f.lib);
	return 0;
}

/* Leaves the library uninitialised whatever a failed test left behind. */
static int test_teardown(void **state)
{
	(void)state;
	for (int i = 0; i < 8; i++)
		f.nvmlShutdown();
	unsetenv("GPUTOP_FAKE_NVML_LOG");
	unsetenv("GPUTOP_FAKE_NVML_CALLS");
	unsetenv("GPUTOP_FAKE_NVML_SCENARIO");
	return 0;
}

static void use_scenario(const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", f.scenario_dir, name);
	assert_int_equal(setenv("GPUTOP_FAKE_NVML_SCENARIO", path, 1), 0);
}

static void init_with(const char *name)
{
	use_scenario(name);
	assert_int_equal(f.nvmlInit_v2(), NVML_SUCCESS);
}

static nvmlDevice_t gpu(unsigned int i)
{
	nvmlDevice_t d = NULL;

	assert_int_equal(f.nvmlDeviceGetHandleByIndex_v2(i, &d), NVML_SUCCESS);
	return d;
}

/* A temporary file name; the file is created empty. Caller unlinks. */
static void temp_path(char *buf, size_t len, const char *tag)
{
	int fd;

	snprintf(buf, len, "/tmp/test_fake_nvml_%s_XXXXXX", tag);
	fd = mkstemp(buf);
	assert_true(fd >= 0);
	close(fd);
}

static void write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

/* Reads at most len-1 bytes of path into buf. */
static void read_file(const char *path, char *buf, size_t len)
{
	FILE *fp = fopen(path, "r");
	size_t n;

	assert_non_null(fp);
	n = fread(buf, 1, len - 1, fp);
	buf[n] = '\0';
	fclose(fp);
}

static unsigned long long now_us(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (unsigned long long)tv.tv_sec * 1000000ULL +
	       (unsigned long long)tv.tv_usec;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
}

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

static void test_init_failures(void **state)
{
	char path[128], errpath[128], err[4096];
	int saved;

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
	fflush(stderr);
	saved = dup(2);
	assert_true(saved >= 0);
	assert_true(freopen(errpath, "w", stderr) != NULL);
	assert_int_equal(f.nvmlInit_v2(), NVML_ERROR_UNKNOWN);
	fflush(stderr);
	assert_int_equal(dup2(saved, 2), 2);
	close(saved);
	read_file(errpath, err, sizeof(err));
	{
		char want[256];

		snprintf(want, sizeof(want), "%s:3: ", path);
		assert_non_null(strstr(err, want));
	}
	assert_int_equal(f.nvmlDeviceGetCount_v2(&(unsigned int){0}),
	                 NVML_ERROR_UNINITIALIZED);
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

static void test_process_list_handshake(void **state)
{
	unsigned char raw[5 * sizeof(nvmlProcessInfo_v2_t)];
	nvmlProcessInfo_t *v3 = (nvmlProcessInfo_t *)raw;
	unsigned int count;
	uint32_t pid;
	uint64_t used;
	nvmlDevice_t d;

	(void)state;
	init_with("h100x8.scn");
	d = gpu(0);

	count = 0;
	assert_int_equal(
	    f.nvmlDeviceGetComputeRunningProcesses_v3(d, &count, NULL),
	    NVML_ERROR_INSUFFICIENT_SIZE);
	assert_int_equal(count, 2);

	count = 1;
	memset(raw, 0xAA, sizeof(raw));
	assert_int_equal(
	    f.nvmlDeviceGetComputeRunningProcesses_v3(d, &count, v3),
	    NVML_ERROR_INSUFFICIENT_SIZE);
	assert_int_equal(count, 2);
	assert_int_equal(raw[0], 0xAA); /* nothing written on failure */

	/* Exact buffer: 24-byte entries. A larger one: nothing past count. */
	count = 5;
	assert_int_equal(
	    f.nvmlDeviceGetComputeRunningProcesses_v3(d, &count, v3),
	    NVML_SUCCESS);
	assert_int_equal(count, 2);
	assert_int_equal(v3[0].pid, 4100);
	assert_int_equal(v3[0].usedGpuMemory, 76235669504ULL);
	assert_int_equal(v3[0].gpuInstanceId, GT_NVML_INSTANCE_ID_NONE);
	memcpy(&pid, raw + 24, sizeof(pid));
	assert_int_equal(pid, 5000);
	for (size_t i = 2 * 24; i < sizeof(raw); i++)
		assert_int_equal(raw[i], 0xAA);

	/* v1: 16-byte entries. */
	count = 2;
	memset(raw, 0xAA, sizeof(raw));
	assert_int_equal(f.nvmlDeviceGetComputeRunningProcesses(
	                     d, &count, (nvmlProcessInfo_v1_t *)raw),
	                 NVML_SUCCESS);
	assert_int_equal(count, 2);
	memcpy(&pid, raw + 16, sizeof(pid));
	memcpy(&used, raw + 24, sizeof(used));
	assert_int_equal(pid, 5000);
	assert_int_equal(used, 536870912ULL);
	for (size_t i = 32; i < sizeof(raw); i++)
		assert_int_equal(raw[i], 0xAA);

	/* pid 5000 is also a graphics process; GPU 3 has none. */
	count = 5;
	assert_int_equal(
	    f.nvmlDeviceGetGraphicsRunningProcesses_v3(d, &count, v3),
	    NVML_SUCCESS);
	assert_int_equal(count, 1);
	assert_int_equal(v3[0].pid, 5000);
	count = 0;
	assert_int_equal(
	    f.nvmlDeviceGetGraphicsRunningProcesses_v3(gpu(3), &count, NULL),
	    NVML_SUCCESS);
	assert_int_equal(count, 0);
}

static void test_process_utilization(void **state)
{
	nvmlProcessUtilizationSample_t s[4];
	unsigned long long before, future;
	unsigned int count;
	nvmlDevice_t d;

	(void)state;
	init_with("h100x8.scn");
	d = gpu(0);

	count = 0;
	assert_int_equal(f.nvmlDeviceGetProcessUtilization(d, NULL, &count, 0),
	                 NVML_ERROR_INSUFFICIENT_SIZE);
	assert_int_equal(count, 2);

	before = now_us();
	count = 4;
	assert_int_equal(f.nvmlDeviceGetProcessUtilization(d, s, &count, 0),
	                 NVML_SUCCESS);
	assert_int_equal(count, 2);
	assert_int_equal(s[0].pid, 4100);
	assert_int_equal(s[0].smUtil, 97);
	assert_int_equal(s[0].memUtil, 41);
	/* wall-clock microseconds, within the fake's sampling period */
	assert_true(s[0].timeStamp <= now_us());
	assert_true(s[0].timeStamp + 2000000ULL > before);

	future = now_us() + 3600ULL * 1000000ULL;
	count = 4;
	assert_int_equal(
	    f.nvmlDeviceGetProcessUtilization(d, s, &count, future),
	    NVML_ERROR_NOT_FOUND);
	count = 0;
	assert_int_equal(
	    f.nvmlDeviceGetProcessUtilization(d, NULL, &count, future),
	    NVML_ERROR_INSUFFICIENT_SIZE);
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

static void test_setters_privileged(void **state)
{
	char log[128], text[4096];
	nvmlPowerValue_v2_t pv;
	nvmlEnableState_t mode;
	unsigned int limit = 0;
	nvmlDevice_t d;

	(void)state;
	temp_path(log, sizeof(log), "log");
	setenv("GPUTOP_FAKE_NVML_LOG", log, 1);
	init_with("h100x8.scn");
	d = gpu(1);

	assert_int_equal(f.nvmlDeviceSetPowerManagementLimit(d, 300000),
	                 NVML_SUCCESS);
	assert_int_equal(f.nvmlDeviceGetPowerManagementLimit(d, &limit),
	                 NVML_SUCCESS);
	assert_int_equal(limit, 300000);
	assert_int_equal(f.nvmlDeviceGetEnforcedPowerLimit(d, &limit),
	                 NVML_SUCCESS);
	assert_int_equal(limit, 300000);
	assert_int_equal(f.nvmlDeviceSetPowerManagementLimit(d, 100000),
	                 NVML_ERROR_INVALID_ARGUMENT);

	memset(&pv, 0, sizeof(pv));
	pv.version = 1;
	pv.powerScope = NVML_POWER_SCOPE_GPU;
	pv.powerValueMw = 650000;
	assert_int_equal(f.nvmlDeviceSetPowerManagementLimit_v2(d, &pv),
	                 NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
	pv.version = GT_NVML_POWER_VALUE_V2_VERSION;
	assert_int_equal(f.nvmlDeviceSetPowerManagementLimit_v2(d, &pv),
	                 NVML_SUCCESS);
	assert_int_equal(f.nvmlDeviceGetPowerManagementLimit(d, &limit),
	                 NVML_SUCCESS);
	assert_int_equal(limit, 650000);

	assert_int_equal(
	    f.nvmlDeviceSetPersistenceMode(d, NVML_FEATURE_DISABLED),
	    NVML_SUCCESS);
	assert_int_equal(f.nvmlDeviceGetPersistenceMode(d, &mode),
	                 NVML_SUCCESS);
	assert_int_equal(mode, NVML_FEATURE_DISABLED);
	/* H100 has no fans to set. */
	assert_int_equal(f.nvmlDeviceSetFanSpeed_v2(d, 0, 50),
	                 NVML_ERROR_NOT_SUPPORTED);

	read_file(log, text, sizeof(text));
	assert_string_equal(
	    text, "nvmlDeviceSetPowerManagementLimit dev=1 limit=300000 -> 0\n"
	          "nvmlDeviceSetPowerManagementLimit dev=1 limit=100000 -> 2\n"
	          "nvmlDeviceSetPowerManagementLimit_v2 dev=1 scope=0 "
	          "limit=650000 -> 25\n"
	          "nvmlDeviceSetPowerManagementLimit_v2 dev=1 scope=0 "
	          "limit=650000 -> 0\n"
	          "nvmlDeviceSetPersistenceMode dev=1 mode=0 -> 0\n"
	          "nvmlDeviceSetFanSpeed_v2 dev=1 fan=0 speed=50 -> 3\n");
	unlink(log);
}

static void test_setters_unprivileged(void **state)
{
	char log[128], text[4096];
	nvmlFanControlPolicy_t policy = 99;
	unsigned int limit = 0;
	nvmlDevice_t d;

	(void)state;
	temp_path(log, sizeof(log), "log");
	setenv("GPUTOP_FAKE_NVML_LOG", log, 1);
	init_with("unprivileged.scn");
	d = gpu(0);

	assert_int_equal(f.nvmlDeviceSetPowerManagementLimit(d, 300000),
	                 NVML_ERROR_NO_PERMISSION);
	assert_int_equal(f.nvmlDeviceGetPowerManagementLimit(d, &limit),
	                 NVML_SUCCESS);
	assert_int_equal(limit, 450000);
	assert_int_equal(f.nvmlDeviceSetFanSpeed_v2(d, 0, 60),
	                 NVML_ERROR_NO_PERMISSION);
	assert_int_equal(f.nvmlDeviceGetFanControlPolicy_v2(d, 0, &policy),
	                 NVML_SUCCESS);
	assert_int_equal(policy, NVML_FAN_POLICY_TEMPERATURE_CONTINOUS_SW);
	assert_int_equal(f.nvmlDeviceSetDefaultFanSpeed_v2(d, 1),
	                 NVML_ERROR_NO_PERMISSION);
	assert_int_equal(
	    f.nvmlDeviceSetPersistenceMode(d, NVML_FEATURE_DISABLED),
	    NVML_ERROR_NO_PERMISSION);
	assert_string_equal(f.nvmlErrorString(NVML_ERROR_NO_PERMISSION),
	                    "Insufficient Permissions");

	read_file(log, text, sizeof(text));
	assert_string_equal(
	    text, "nvmlDeviceSetPowerManagementLimit dev=0 limit=300000 -> 4\n"
	          "nvmlDeviceSetFanSpeed_v2 dev=0 fan=0 speed=60 -> 4\n"
	          "nvmlDeviceSetDefaultFanSpeed_v2 dev=0 fan=1 -> 4\n"
	          "nvmlDeviceSetPersistenceMode dev=0 mode=0 -> 4\n");
	unlink(log);
}

static void test_fan_control(void **state)
{
	nvmlFanControlPolicy_t policy = 99;
	nvmlFanSpeedInfo_t rpm;
	unsigned int n = 0, speed = 0;
	nvmlDevice_t d;

	(void)state;
	init_with("rtx4090.scn");
	d = gpu(0);
	assert_int_equal(f.nvmlDeviceGetNumFans(d, &n), NVML_SUCCESS);
	assert_int_equal(n, 2);
	assert_int_equal(
	    f.nvmlDeviceSetFanSpeed_v2(d, 0, 20),
	    NVML_ERROR_INVALID_ARGUMENT); /* below the 30 % minimum */
	assert_int_equal(f.nvmlDeviceSetFanSpeed_v2(d, 2, 60),
	                 NVML_ERROR_INVALID_ARGUMENT); /* no third fan */
	assert_int_equal(f.nvmlDeviceSetFanSpeed_v2(d, 0, 60), NVML_SUCCESS);
	assert_int_equal(f.nvmlDeviceGetFanControlPolicy_v2(d, 0, &policy),
	                 NVML_SUCCESS);
	assert_int_equal(policy, NVML_FAN_POLICY_MANUAL);
	assert_int_equal(f.nvmlDeviceGetFanSpeed_v2(d, 0, &speed),
	                 NVML_SUCCESS);
	assert_int_equal(speed, 60);

	memset(&rpm, 0, sizeof(rpm));
	rpm.version = 1;
	assert_int_equal(f.nvmlDeviceGetFanSpeedRPM(d, &rpm),
	                 NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
	rpm.version = GT_NVML_FAN_SPEED_INFO_V1_VERSION;
	assert_int_equal(f.nvmlDeviceGetFanSpeedRPM(d, &rpm), NVML_SUCCESS);
	assert_int_equal(rpm.speed, 3300 * 60 / 100);

	assert_int_equal(f.nvmlDeviceSetDefaultFanSpeed_v2(d, 0), NVML_SUCCESS);
	assert_int_equal(f.nvmlDeviceGetFanControlPolicy_v2(d, 0, &policy),
	                 NVML_SUCCESS);
	assert_int_equal(policy, NVML_FAN_POLICY_TEMPERATURE_CONTINOUS_SW);
}

static void test_mig(void **state)
{
	nvmlProcessInfo_t p[4];
	nvmlUtilization_t u;
	unsigned int cur = 9, pend = 9, is_mig = 9, id = 0, count;
	char name[NVML_DEVICE_NAME_V2_BUFFER_SIZE];
	nvmlDevice_t d, mig = NULL, parent = NULL;

	(void)state;
	init_with("a100-mig.scn");
	d = gpu(0);
	assert_int_equal(f.nvmlDeviceGetMigMode(d, &cur, &pend), NVML_SUCCESS);
	assert_int_equal(cur, NVML_DEVICE_MIG_ENABLE);
	assert_int_equal(f.nvmlDeviceGetUtilizationRates(d, &u),
	                 NVML_ERROR_NOT_SUPPORTED);
	count = 0;
	assert_int_equal(f.nvmlDeviceGetProcessUtilization(d, NULL, &count, 0),
	                 NVML_ERROR_NOT_SUPPORTED);

	count = 4;
	assert_int_equal(
	    f.nvmlDeviceGetComputeRunningProcesses_v3(d, &count, p),
	    NVML_SUCCESS);
	assert_int_equal(count, 3);
	assert_int_equal(p[0].gpuInstanceId, 1);
	assert_int_equal(p[0].computeInstanceId, 0);

	assert_int_equal(f.nvmlDeviceGetMigDeviceHandleByIndex(d, 1, &mig),
	                 NVML_SUCCESS);
	assert_int_equal(f.nvmlDeviceIsMigDeviceHandle(mig, &is_mig),
	                 NVML_SUCCESS);
	assert_int_equal(is_mig, 1);
	assert_int_equal(f.nvmlDeviceGetGpuInstanceId(mig, &id), NVML_SUCCESS);
	assert_int_equal(id, 2);
	assert_int_equal(f.nvmlDeviceGetName(mig, name, sizeof(name)),
	                 NVML_SUCCESS);
	assert_string_equal(name, "NVIDIA A100-SXM4-40GB MIG 3g.20gb");
	count = 4;
	assert_int_equal(
	    f.nvmlDeviceGetComputeRunningProcesses_v3(mig, &count, p),
	    NVML_SUCCESS);
	assert_int_equal(count, 2);
	assert_int_equal(p[1].pid, 6300);
	assert_int_equal(p[1].usedGpuMemory, GT_NVML_MEMORY_NOT_AVAILABLE);
	assert_int_equal(
	    f.nvmlDeviceGetDeviceHandleFromMigDeviceHandle(mig, &parent),
	    NVML_SUCCESS);
	assert_ptr_equal(parent, d);
	assert_int_equal(f.nvmlDeviceGetMigDeviceHandleByIndex(d, 2, &mig),
	                 NVML_ERROR_NOT_FOUND);
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
	    cmocka_unit_test_teardown(test_memory_info, test_teardown),
	    cmocka_unit_test_teardown(test_versioned_structs, test_teardown),
	    cmocka_unit_test_teardown(test_pci_info_layouts, test_teardown),
	    cmocka_unit_test_teardown(test_process_list_handshake,
	                              test_teardown),
	    cmocka_unit_test_teardown(test_process_utilization, test_teardown),
	    cmocka_unit_test_teardown(test_field_values, test_teardown),
	    cmocka_unit_test_teardown(test_lost_gpu, test_teardown),
	    cmocka_unit_test_teardown(test_setters_privileged, test_teardown),
	    cmocka_unit_test_teardown(test_setters_unprivileged, test_teardown),
	    cmocka_unit_test_teardown(test_fan_control, test_teardown),
	    cmocka_unit_test_teardown(test_mig, test_teardown),
	    cmocka_unit_test_teardown(test_call_counts, test_teardown),
	    cmocka_unit_test_teardown(test_threads, test_teardown),
	};

	return cmocka_run_group_tests_name("fake_nvml", tests, group_setup,
	                                   group_teardown);
}

/* SPDX-License-Identifier: MIT */
/*
 * test_fake_nvml_procs.c - cmocka tests of the process queries of the fake
 * libnvidia-ml.so.1 (tests/fake-nvml/fake_procs.c), loaded with dlopen as
 * gputop's client loads the real one (support/fake_nvml_test.h): the
 * buffer-size handshakes of the process lists in their layouts,
 * per-process utilization (implausible and stale entries included), a
 * process that starts after init, and MIG device handles.
 *
 * Needs GPUTOP_FAKE_NVML_LIB (path of the built library) and
 * GPUTOP_SCENARIO_DIR (tests/fake-nvml/scenarios).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "collectors/nvml_abi.h"
#include "support/fake_nvml_test.h"

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

/* Entries a client must filter out come back as written: values over
 * 100 % unclipped, and a `stale` entry stamped with the caller's
 * lastSeenTimeStamp, in both per-process utilization calls
 * (h100x1-implausible-putil.scn: 2 entries of h100x1.scn, then 5). */
static void test_process_utilization_implausible(void **state)
{
	nvmlProcessUtilizationSample_t s[8];
	nvmlProcessUtilizationInfo_v1_t v[8];
	nvmlProcessesUtilizationInfo_t info;
	unsigned long long seen;
	unsigned int count;
	nvmlDevice_t d;

	(void)state;
	init_with("h100x1-implausible-putil.scn");
	d = gpu(0);
	seen = now_us() - 10ULL * 1000000ULL; /* a sample 10 s ago */
	count = 8;
	assert_int_equal(f.nvmlDeviceGetProcessUtilization(d, s, &count, seen),
	                 NVML_SUCCESS);
	assert_int_equal(count, 7);
	assert_int_equal(s[2].smUtil, 101);
	assert_int_equal(s[3].encUtil, 101);
	assert_int_equal(s[4].decUtil, 101);
	assert_int_equal(s[5].pid, 4100);
	assert_int_equal(s[5].timeStamp, seen);
	assert_true(s[4].timeStamp > seen);
	assert_int_equal(s[6].smUtil, 100);

	memset(&info, 0, sizeof(info));
	info.version = GT_NVML_PROCESSES_UTIL_INFO_V1_VERSION;
	info.processSamplesCount = 8;
	info.lastSeenTimeStamp = seen;
	info.procUtilArray = v;
	assert_int_equal(f.nvmlDeviceGetProcessesUtilizationInfo(d, &info),
	                 NVML_SUCCESS);
	assert_int_equal(info.processSamplesCount, 7);
	assert_int_equal(v[2].smUtil, 101);
	assert_int_equal(v[5].timeStamp, seen);
	assert_true(v[4].timeStamp > seen);
}

/* A process line with from=S is listed, and its putil line sampled, from
 * S seconds after init on (h100x2-late-process.scn: 1 s, GPU 1). */
static void test_late_process(void **state)
{
	nvmlProcessUtilizationSample_t s[4];
	nvmlProcessInfo_t v3[4];
	unsigned int count;
	unsigned long long t0;
	nvmlDevice_t d;

	(void)state;
	t0 = now_us(); /* before init: the fake's clock is no further on */
	init_with("h100x2-late-process.scn");
	d = gpu(1);
	count = 4;
	assert_int_equal(
	    f.nvmlDeviceGetComputeRunningProcesses_v3(d, &count, v3),
	    NVML_SUCCESS);
	if (now_us() - t0 < 900000ULL) {
		assert_int_equal(count, 0);
		count = 4;
		assert_int_equal(
		    f.nvmlDeviceGetProcessUtilization(d, s, &count, 0),
		    NVML_ERROR_NOT_FOUND);
	}
	t0 = now_us(); /* after init: the fake's clock is at least as far */
	while (now_us() - t0 < 1100000ULL)
		sleep_ms(20);
	count = 4;
	assert_int_equal(
	    f.nvmlDeviceGetComputeRunningProcesses_v3(d, &count, v3),
	    NVML_SUCCESS);
	assert_int_equal(count, 1);
	assert_int_equal(v3[0].pid, 4300);
	count = 4;
	assert_int_equal(f.nvmlDeviceGetProcessUtilization(d, s, &count, 0),
	                 NVML_SUCCESS);
	assert_int_equal(count, 1);
	assert_int_equal(s[0].pid, 4300);
	assert_int_equal(s[0].smUtil, 88);
	/* GPU 0's processes were there all along. */
	count = 4;
	assert_int_equal(
	    f.nvmlDeviceGetComputeRunningProcesses_v3(gpu(0), &count, v3),
	    NVML_SUCCESS);
	assert_true(count >= 1);
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
	assert_int_equal(id, 5);
	assert_int_equal(f.nvmlDeviceGetName(mig, name, sizeof(name)),
	                 NVML_SUCCESS);
	assert_string_equal(name, "NVIDIA A100-SXM4-40GB MIG 2g.10gb");
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

	/* The GPU instance and its placement (root only). */
	nvmlGpuInstance_t gi = NULL;
	nvmlGpuInstanceInfo_t info;
	assert_int_equal(f.nvmlDeviceGetGpuInstanceById(d, 5, &gi),
	                 NVML_SUCCESS);
	assert_int_equal(f.nvmlGpuInstanceGetInfo(gi, &info), NVML_SUCCESS);
	assert_int_equal(info.id, 5);
	assert_int_equal(info.placement.start, 0);
	assert_int_equal(info.placement.size, 2);
	assert_ptr_equal(info.device, d);
	assert_int_equal(f.nvmlDeviceGetGpuInstanceById(d, 2, &gi),
	                 NVML_ERROR_NOT_FOUND);

	assert_int_equal(f.nvmlDeviceGetMigDeviceHandleByIndex(d, 2, &mig),
	                 NVML_SUCCESS);
	assert_int_equal(f.nvmlDeviceGetMigDeviceHandleByIndex(d, 3, &mig),
	                 NVML_ERROR_NOT_FOUND);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_teardown(test_process_list_handshake,
	                              test_teardown),
	    cmocka_unit_test_teardown(test_process_utilization, test_teardown),
	    cmocka_unit_test_teardown(test_process_utilization_implausible,
	                              test_teardown),
	    cmocka_unit_test_teardown(test_late_process, test_teardown),
	    cmocka_unit_test_teardown(test_mig, test_teardown),
	};

	return cmocka_run_group_tests_name("fake_nvml_procs", tests,
	                                   group_setup, group_teardown);
}

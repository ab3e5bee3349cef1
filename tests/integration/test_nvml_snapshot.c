/* SPDX-License-Identifier: MIT */
/*
 * test_nvml_snapshot.c - the real gputop binary against the fake NVML
 * scenarios and the synthetic /proc tree. Each snapshot is compared with
 * what the same scenario answers through the NVML ABI when queried
 * directly, and with values written in the scenario files.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "support/json_path.h"
#include "support/run_gputop.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collectors/nvml_api.h"

static char *scenario_path(const char *name)
{
	static char buf[1024];
	snprintf(buf, sizeof(buf), "%s/%s",
	         run_env_or_fail("GPUTOP_SCENARIO_DIR"), name);
	return buf;
}

/* In the child: the fake NVML's scenario, when there is one. */
static int scenario_child_setup(void *scenario)
{
	if (scenario)
		setenv("GPUTOP_FAKE_NVML_SCENARIO", scenario, 1);
	return 0;
}

/* Runs gputop with args; returns its stdout (malloc'd) and exit status. */
static char *run_gputop(const char *scenario, int *status, const char *args[])
{
	return run_gputop_capture(args, scenario_child_setup, (void *)scenario,
	                          status);
}

static cJSON *snapshot(const char *scenario_file, const char *interval)
{
	int status;
	const char *args[] = {"--snapshot",
	                      "--interval",
	                      interval,
	                      "--nvml-lib",
	                      run_env_or_fail("GPUTOP_FAKE_NVML_LIB"),
	                      "--procfs",
	                      NULL,
	                      "--sysfs",
	                      run_empty_dir(),
	                      NULL};
	static char procfs[1024];
	snprintf(procfs, sizeof(procfs), "%s/proc",
	         run_env_or_fail("GPUTOP_FIXTURES"));
	args[6] = procfs;
	char *out = run_gputop(scenario_path(scenario_file), &status, args);
	assert_int_equal(status, 0);
	cJSON *doc = cJSON_Parse(out);
	if (!doc)
		fail_msg("snapshot is not valid JSON near: %.80s",
		         cJSON_GetErrorPtr() ? cJSON_GetErrorPtr() : "?");
	free(out);
	return doc;
}

static void assert_null_with_reason(const cJSON *dev, const char *path,
                                    const char *reason_part)
{
	cJSON *v = get(dev, path);
	if (!cJSON_IsNull(v))
		fail_msg("%s should be null", path);
	cJSON *why = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(dev, "unavailable"), path);
	if (!cJSON_IsString(why))
		fail_msg("%s is null without a reason", path);
	if (reason_part && !strstr(why->valuestring, reason_part))
		fail_msg("reason for %s is '%s', expected '%s'", path,
		         why->valuestring, reason_part);
}

/* The oracle: the same fake library and scenario, queried directly. */
struct oracle {
	struct gt_nvml_api api;
};

static void oracle_open(struct oracle *o, const char *scenario_file)
{
	char why[256];
	setenv("GPUTOP_FAKE_NVML_SCENARIO", scenario_path(scenario_file), 1);
	if (gt_nvml_api_load(&o->api, run_env_or_fail("GPUTOP_FAKE_NVML_LIB"),
	                     why, sizeof(why)) < 0)
		fail_msg("loading the fake: %s", why);
	assert_int_equal(o->api.init(), NVML_SUCCESS);
}

static void oracle_close(struct oracle *o)
{
	o->api.shutdown();
	gt_nvml_api_unload(&o->api);
}

static const cJSON *find_process(const cJSON *doc, int pid, unsigned device)
{
	const cJSON *p;
	const cJSON *found = NULL;
	int count = 0;
	cJSON_ArrayForEach(p, get(doc, "processes"))
	{
		if ((int)num(p, "pid") == pid &&
		    (unsigned)num(p, "device_index") == device) {
			found = p;
			count++;
		}
	}
	if (count != 1)
		fail_msg("pid %d on GPU %u appears %d times", pid, device,
		         count);
	return found;
}

/* Exactly want, with the value in the message when not. */
static void assert_number(const cJSON *obj, const char *path, double want)
{
	double v = num(obj, path);
	if (v != want)
		fail_msg("%s is %g, expected %g", path, v, want);
}

static void test_no_gpu_explains_why(void **state)
{
	(void)state;
	int status;
	/* --sysfs too: on a machine with an AMD or Intel GPU those backends
	 * would find it. */
	const char *args[] = {"--snapshot",
	                      "--interval",
	                      "0.1",
	                      "--nvml-lib",
	                      "/nonexistent/libnvidia-ml.so.1",
	                      "--sysfs",
	                      run_empty_dir(),
	                      NULL};
	char *out = run_gputop(NULL, &status, args);
	assert_int_equal(status, 0);
	cJSON *doc = cJSON_Parse(out);
	assert_non_null(doc);
	assert_int_equal(cJSON_GetArraySize(get(doc, "devices")), 0);
	cJSON *b = cJSON_GetArrayItem(get(doc, "backends"), 0);
	assert_string_equal(str(b, "name"), "nvml");
	assert_string_equal(str(b, "status"), "unavailable");
	assert_non_null(
	    strstr(str(b, "detail"), "cannot open shared object file"));
	assert_false(cJSON_IsTrue(get(doc, "demo")));
	cJSON_Delete(doc);
	free(out);

	const char *list_args[] = {
	    "--list",  "--nvml-lib",    "/nonexistent/libnvidia-ml.so.1",
	    "--sysfs", run_empty_dir(), NULL};
	out = run_gputop(NULL, &status, list_args);
	assert_int_equal(status, 0);
	assert_non_null(strstr(out, "No GPU found"));
	assert_non_null(strstr(out, "cannot open shared object file"));
	free(out);
}

/* Device i's identity, memory, utilisation and temperature in the
 * snapshot are what the driver says. */
static void check_device_facts(struct oracle *o, nvmlDevice_t h, unsigned i,
                               const cJSON *dev)
{
	char buf[128];

	assert_int_equal((int)num(dev, "index"), (int)i);
	assert_string_equal(str(dev, "vendor"), "nvidia");
	assert_false(cJSON_IsTrue(get(dev, "lost")));
	o->api.name(h, buf, sizeof(buf));
	assert_string_equal(str(dev, "name"), buf);
	o->api.uuid(h, buf, sizeof(buf));
	assert_string_equal(str(dev, "uuid"), buf);
	nvmlPciInfo_t pci;
	o->api.pci_info(h, &pci);
	gt_nvml_bus_id(buf, sizeof(buf), &pci);
	assert_string_equal(str(dev, "pci_bus_id"), buf);
	char id[160];
	snprintf(id, sizeof(id), "pci:%s", buf);
	assert_string_equal(str(dev, "id"), id);
	o->api.driver_version(buf, sizeof(buf));
	assert_string_equal(str(dev, "driver_version"), buf);

	nvmlMemory_v2_t m = {.version = GT_NVML_MEMORY_V2_VERSION};
	assert_int_equal(o->api.memory_v2(h, &m), NVML_SUCCESS);
	assert_true(num(dev, "memory.total_bytes") == (double)m.total);
	assert_true(num(dev, "memory.used_bytes") == (double)m.used);
	assert_true(num(dev, "memory.free_bytes") == (double)m.free);
	assert_true(num(dev, "memory.reserved_bytes") == (double)m.reserved);
	/* "used" excludes reserved, unlike the v1 call. */
	nvmlMemory_t m1;
	assert_int_equal(o->api.memory_v1(h, &m1), NVML_SUCCESS);
	assert_true(m.reserved > 0);
	assert_true(num(dev, "memory.used_bytes") < (double)m1.used);

	nvmlUtilization_t u;
	assert_int_equal(o->api.utilization(h, &u), NVML_SUCCESS);
	assert_true(num(dev, "utilization.gpu_percent") == u.gpu);
	assert_true(num(dev, "utilization.memory_bandwidth_percent") ==
	            u.memory);

	unsigned t;
	assert_int_equal(o->api.temperature(h, NVML_TEMPERATURE_GPU, &t),
	                 NVML_SUCCESS);
	assert_true(num(dev, "thermal.gpu_celsius") == t);
}

/* Device i's power, clocks, PCIe link and fans in the snapshot are what
 * the driver says. */
static void check_power_clocks(struct oracle *o, nvmlDevice_t h,
                               const cJSON *dev)
{
	unsigned lo, hi, def, clk;
	assert_int_equal(o->api.power_range(h, &lo, &hi), NVML_SUCCESS);
	assert_true(num(dev, "power.min_limit_watts") == lo / 1000.0);
	assert_true(num(dev, "power.max_limit_watts") == hi / 1000.0);
	assert_int_equal(o->api.power_default(h, &def), NVML_SUCCESS);
	assert_true(num(dev, "power.default_limit_watts") == def / 1000.0);
	assert_int_equal(o->api.power_limit(h, &def), NVML_SUCCESS);
	assert_true(num(dev, "power.limit_watts") == def / 1000.0);
	assert_int_equal(o->api.power_usage(h, &def), NVML_SUCCESS);
	assert_true(fabs(num(dev, "power.draw_watts") - def / 1000.0) < 1e-9);
	assert_true(num(dev, "power.energy_joules") > 0);

	assert_int_equal(o->api.clock(h, NVML_CLOCK_SM, &clk), NVML_SUCCESS);
	assert_true(num(dev, "clocks.sm_mhz") == clk);
	assert_int_equal(o->api.clock(h, NVML_CLOCK_MEM, &clk), NVML_SUCCESS);
	assert_true(num(dev, "clocks.memory_mhz") == clk);
	assert_int_equal(o->api.max_clock(h, NVML_CLOCK_GRAPHICS, &clk),
	                 NVML_SUCCESS);
	assert_true(num(dev, "clocks.graphics_max_mhz") == clk);

	assert_int_equal(o->api.pcie_gen(h, &clk), NVML_SUCCESS);
	assert_true(num(dev, "pcie.link_gen") == clk);
	assert_int_equal(o->api.pcie_width(h, &clk), NVML_SUCCESS);
	assert_true(num(dev, "pcie.link_width") == clk);
	assert_int_equal(o->api.pcie_max_gen(h, &clk), NVML_SUCCESS);
	assert_true(num(dev, "pcie.max_link_gen") == clk);
	/* Rates from byte counters over the snapshot window. */
	assert_true(num(dev, "pcie.tx_bytes_per_second") > 0);
	assert_true(num(dev, "pcie.rx_bytes_per_second") > 0);

	/* Datacenter board: no fans, with the reason. */
	assert_int_equal(cJSON_GetArraySize(get(dev, "thermal.fans")), 0);
	assert_non_null(cJSON_GetObjectItemCaseSensitive(
	    get(dev, "unavailable"), "thermal.fans"));
	/* Hotspot does not exist in NVML: null with a reason. */
	assert_null_with_reason(dev, "thermal.hotspot_celsius", "driver");
}

static void test_h100x8_matches_the_driver(void **state)
{
	(void)state;
	cJSON *doc = snapshot("h100x8.scn", "0.2");
	struct oracle o;
	unsigned count = 0;

	oracle_open(&o, "h100x8.scn");
	assert_int_equal(o.api.count(&count), NVML_SUCCESS);
	assert_int_equal(count, 8);
	assert_int_equal(cJSON_GetArraySize(get(doc, "devices")), 8);
	assert_string_equal(
	    str(cJSON_GetArrayItem(get(doc, "backends"), 0), "status"), "ok");

	for (unsigned i = 0; i < count; i++) {
		const cJSON *dev =
		    cJSON_GetArrayItem(get(doc, "devices"), (int)i);
		nvmlDevice_t h;
		assert_int_equal(o.api.handle_by_index(i, &h), NVML_SUCCESS);
		check_device_facts(&o, h, i, dev);
		check_power_clocks(&o, h, dev);
	}
	oracle_close(&o);
	cJSON_Delete(doc);
}

static void test_h100x8_processes(void **state)
{
	(void)state;
	/* The fake samples per-process utilization every 500 ms: rounds
	 * 0.2 s apart often find no new sample in the second, which then
	 * repeats the first's values (it read 0 % before). */
	cJSON *doc = snapshot("h100x8.scn", "0.2");
	const cJSON *p;

	/* One training rank per GPU, named from the /proc tree. */
	for (unsigned i = 0; i < 8; i++) {
		p = find_process(doc, 4100 + (int)i, i);
		assert_string_equal(str(p, "type"), "compute");
		assert_true(num(p, "memory_bytes") == 76235669504.0);
		assert_number(p, "gpu_percent", 97.0);
		assert_number(p, "encoder_percent", 0.0);
		assert_number(p, "decoder_percent", 0.0);
		assert_non_null(strstr(str(p, "cmdline"), "train.py"));
		assert_non_null(strstr(str(p, "container"), "docker:"));
	}
	/* In both lists: one row of type both, memory not doubled. */
	p = find_process(doc, 5000, 0);
	assert_string_equal(str(p, "type"), "both");
	assert_true(num(p, "memory_bytes") == 536870912.0);
	assert_number(p, "gpu_percent", 3.0); /* one row, one sample */

	/* ESC, quote, backslash, newline and a bad byte in the command line:
	 * the document parsed, and the text survives, made valid UTF-8. */
	p = find_process(doc, 6000, 1);
	assert_number(p, "gpu_percent", 12.0);
	const char *cmd = str(p, "cmdline");
	assert_non_null(strchr(cmd, 0x1b));
	assert_non_null(strchr(cmd, '"'));
	assert_non_null(strchr(cmd, '\\'));
	assert_non_null(strstr(cmd, "\xEF\xBF\xBD")); /* U+FFFD */

	/* A process that has left /proc: null details, with the reason. */
	p = find_process(doc, 7000, 2);
	assert_true(cJSON_IsNull(get(p, "user")));
	assert_true(cJSON_IsNull(get(p, "cmdline")));
	assert_non_null(
	    cJSON_GetObjectItemCaseSensitive(get(p, "unavailable"), "cmdline"));
	cJSON_Delete(doc);
}

static void test_lost_gpu_is_marked(void **state)
{
	(void)state;
	/* GPU 3 falls off the bus 1.5 s after init; the snapshot's second
	 * round comes 2 s after its first. */
	cJSON *doc = snapshot("h100x8-lost.scn", "2");
	const cJSON *devs = get(doc, "devices");
	assert_int_equal(cJSON_GetArraySize(devs), 8);
	for (int i = 0; i < 8; i++) {
		const cJSON *dev = cJSON_GetArrayItem(devs, i);
		if (i == 3) {
			assert_true(cJSON_IsTrue(get(dev, "lost")));
			assert_string_equal(str(dev, "state"), "lost");
			assert_null_with_reason(dev, "utilization.gpu_percent",
			                        "lost");
		} else {
			assert_false(cJSON_IsTrue(get(dev, "lost")));
			assert_true(num(dev, "utilization.gpu_percent") >= 0);
			assert_true(num(dev, "power.draw_watts") > 0);
		}
	}
	cJSON_Delete(doc);
}

static void test_every_null_has_a_reason(void **state)
{
	(void)state;
	static const char *const scenarios[] = {
	    "h100x8.scn", "rtx4090.scn", "a100-mig.scn", "half-unsupported.scn",
	    "unprivileged.scn"};
	static const char *const groups[] = {"utilization", "memory", "thermal",
	                                     "power",       "clocks", "pcie"};
	for (size_t s = 0; s < sizeof(scenarios) / sizeof(scenarios[0]); s++) {
		cJSON *doc = snapshot(scenarios[s], "0.1");
		const cJSON *dev;
		int nulls = 0;
		cJSON_ArrayForEach(dev, get(doc, "devices"))
		{
			const cJSON *why = get(dev, "unavailable");
			for (size_t g = 0;
			     g < sizeof(groups) / sizeof(groups[0]); g++) {
				const cJSON *v;
				cJSON_ArrayForEach(v, get(dev, groups[g]))
				{
					char key[128];
					if (!cJSON_IsNull(v))
						continue;
					nulls++;
					snprintf(key, sizeof(key), "%s.%s",
					         groups[g], v->string);
					if (!cJSON_GetObjectItemCaseSensitive(
					        why, key))
						fail_msg("%s: %s null without "
						         "reason",
						         scenarios[s], key);
				}
			}
		}
		/* Every scenario has something a device cannot give. */
		assert_true(nulls > 0);
		cJSON_Delete(doc);
	}
}

static void test_mig_says_mig(void **state)
{
	(void)state;
	cJSON *doc = snapshot("a100-mig.scn", "0.1");
	const cJSON *dev = cJSON_GetArrayItem(get(doc, "devices"), 0);
	assert_true(cJSON_IsTrue(get(dev, "mig_enabled")));
	assert_null_with_reason(dev, "utilization.gpu_percent", "MIG");
	const cJSON *p;
	int n = 0;
	cJSON_ArrayForEach(p, get(doc, "processes"))
	{
		assert_true(cJSON_IsNull(get(p, "gpu_percent")));
		assert_non_null(strstr(cJSON_GetObjectItemCaseSensitive(
		                           get(p, "unavailable"), "gpu_percent")
		                           ->valuestring,
		                       "MIG"));
		n++;
	}
	assert_true(n > 0);
	cJSON_Delete(doc);
}

/* The scenario's MIG devices, as its mig_device lines give them. */
static const struct {
	int gi;
	const char *profile, *uuid_end;
	double total_mib, used_mib;
	int start, size, procs;
} mig_want[] = {
    {1, "3g.20gb", "4c51", 19968, 8211, 4, 4, 1},
    {5, "2g.10gb", "4c52", 9856, 4115, 0, 2, 2},
    {13, "1g.5gb", "4c53", 4864, 13, 2, 1, 0},
};

static void check_mig_instances(const cJSON *dev, bool privileged)
{
	const cJSON *arr = get(dev, "mig_instances");
	size_t n = sizeof(mig_want) / sizeof(mig_want[0]);
	assert_int_equal(cJSON_GetArraySize(arr), (int)n);
	for (size_t i = 0; i < n; i++) {
		const cJSON *m = cJSON_GetArrayItem(arr, (int)i);
		assert_int_equal(get(m, "index")->valueint, (int)i);
		assert_int_equal(get(m, "gpu_instance_id")->valueint,
		                 mig_want[i].gi);
		assert_int_equal(get(m, "compute_instance_id")->valueint, 0);
		assert_string_equal(get(m, "profile")->valuestring,
		                    mig_want[i].profile);
		const char *uuid = get(m, "uuid")->valuestring;
		assert_true(strncmp(uuid, "MIG-", 4) == 0);
		assert_string_equal(uuid + strlen(uuid) - 4,
		                    mig_want[i].uuid_end);
		double mib = 1024.0 * 1024.0;
		assert_true(get(m, "memory.total_bytes")->valuedouble ==
		            mig_want[i].total_mib * mib);
		assert_true(get(m, "memory.used_bytes")->valuedouble ==
		            mig_want[i].used_mib * mib);
		assert_true(get(m, "memory.free_bytes")->valuedouble ==
		            (mig_want[i].total_mib - mig_want[i].used_mib) *
		                mib);
		assert_int_equal(get(m, "process_count")->valueint,
		                 mig_want[i].procs);
		/* The driver has no utilization for a MIG handle. */
		assert_null_with_reason(m, "utilization.gpu_percent",
		                        "not supported");
		if (privileged) {
			assert_int_equal(get(m, "placement.start")->valueint,
			                 mig_want[i].start);
			assert_int_equal(get(m, "placement.size")->valueint,
			                 mig_want[i].size);
		} else {
			assert_null_with_reason(m, "placement.start",
			                        "permission");
		}
	}
}

static void check_mig_processes(const cJSON *doc)
{
	static const struct {
		int pid, gi;
		const char *profile;
	} want[] = {
	    {6100, 1, "3g.20gb"}, {6200, 5, "2g.10gb"}, {6300, 5, "2g.10gb"}};
	const cJSON *p;
	size_t n = 0;
	cJSON_ArrayForEach(p, get(doc, "processes"))
	{
		assert_true(n < sizeof(want) / sizeof(want[0]));
		assert_int_equal(get(p, "pid")->valueint, want[n].pid);
		assert_int_equal(
		    get(p, "mig_instance.gpu_instance_id")->valueint,
		    want[n].gi);
		assert_string_equal(get(p, "mig_instance.profile")->valuestring,
		                    want[n].profile);
		n++;
	}
	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
}

static void test_mig_instances(void **state)
{
	(void)state;
	cJSON *doc = snapshot("a100-mig.scn", "0.1");
	check_mig_instances(cJSON_GetArrayItem(get(doc, "devices"), 0), true);
	check_mig_processes(doc);
	cJSON_Delete(doc);

	/* Without privileges: the same instances and processes (listed
	 * per MIG device), the placement null with its reason. */
	char *src = scenario_path("a100-mig.scn");
	FILE *in = fopen(src, "r");
	char tmp[] = "/tmp/gputop-mig-XXXXXX";
	int fd = mkstemp(tmp);
	assert_non_null(in);
	assert_true(fd >= 0);
	FILE *out = fdopen(fd, "w");
	char line[1024];
	while (fgets(line, sizeof(line), in))
		fputs(strcmp(line, "privileged yes\n") == 0 ? "privileged no\n"
		                                            : line,
		      out);
	fclose(in);
	fclose(out);
	char full[1100];
	snprintf(full, sizeof(full), "%s", tmp);
	int status;
	const char *args[] = {"--snapshot",
	                      "--interval",
	                      "0.1",
	                      "--nvml-lib",
	                      run_env_or_fail("GPUTOP_FAKE_NVML_LIB"),
	                      "--sysfs",
	                      run_empty_dir(),
	                      NULL};
	char *text = run_gputop(full, &status, args);
	unlink(tmp);
	assert_int_equal(status, 0);
	doc = cJSON_Parse(text);
	free(text);
	assert_non_null(doc);
	check_mig_instances(cJSON_GetArrayItem(get(doc, "devices"), 0), false);
	check_mig_processes(doc);
	cJSON_Delete(doc);
}

static void test_geforce_fans(void **state)
{
	(void)state;
	cJSON *doc = snapshot("rtx4090.scn", "0.1");
	const cJSON *dev = cJSON_GetArrayItem(get(doc, "devices"), 0);
	struct oracle o;
	nvmlDevice_t h;
	unsigned fans = 0, pct;

	oracle_open(&o, "rtx4090.scn");
	o.api.handle_by_index(0, &h);
	assert_int_equal(o.api.num_fans(h, &fans), NVML_SUCCESS);
	assert_int_equal(cJSON_GetArraySize(get(dev, "thermal.fans")),
	                 (int)fans);
	for (unsigned i = 0; i < fans; i++) {
		const cJSON *fan =
		    cJSON_GetArrayItem(get(dev, "thermal.fans"), (int)i);
		assert_int_equal(o.api.fan_speed_v2(h, i, &pct), NVML_SUCCESS);
		assert_true(num(fan, "percent") == pct);
		assert_true(num(fan, "rpm") >= 0);
	}
	/* GeForce: no serial; ECC counters unsupported, with reasons. */
	assert_true(cJSON_IsNull(get(dev, "serial")));
	assert_null_with_reason(dev, "ecc.corrected_volatile", NULL);
	oracle_close(&o);
	cJSON_Delete(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_no_gpu_explains_why),
	    cmocka_unit_test(test_h100x8_matches_the_driver),
	    cmocka_unit_test(test_h100x8_processes),
	    cmocka_unit_test(test_lost_gpu_is_marked),
	    cmocka_unit_test(test_every_null_has_a_reason),
	    cmocka_unit_test(test_mig_says_mig),
	    cmocka_unit_test(test_mig_instances),
	    cmocka_unit_test(test_geforce_fans),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	rmdir(run_empty_dir());
	return rc;
}

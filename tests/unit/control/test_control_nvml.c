/* SPDX-License-Identifier: MIT */
/*
 * test_control_nvml.c - tests of the NVIDIA control writes
 * (src/control/control_nvml.c) against the real fake libnvidia-ml.so.1, loaded
 * with dlopen as gputop loads the driver's. Each test names its scenario
 * (GPUTOP_FAKE_NVML_SCENARIO) and reads the fake's setter log
 * (GPUTOP_FAKE_NVML_LOG) to assert the EXACT NVML calls made: none at all
 * for a refusal, and none without root, since the check comes first.
 *
 * Needs GPUTOP_FAKE_NVML_LIB and GPUTOP_SCENARIO_DIR (set by tests/run.sh);
 * skipped without them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control/control.h"
#include "control/control_nvml.h"
#include "control/control_vendors.h"
#include "collectors/nvml_api.h"

#define T0    1767225600 /* 2026-01-01T00:00:00Z */
#define STAMP "2026-01-01T00:00:00Z"
#define GPU   "0000:01:00.0" /* the RTX 4090 of rtx4090.scn */

struct env {
	char tmp[64], log[PATH_MAX], state[PATH_MAX], audit[PATH_MAX];
	struct gt_nvml_api api;
	struct gt_control *c;
	int saved;      /* journal_saved calls */
	bool log_empty; /* the setter log when the journal was saved */
	bool veto;      /* on_saved refuses (the guardian could not start) */
};

static char *slurp(const char *path)
{
	static char buf[2][8192];
	static int k;
	char *b = buf[k++ % 2];
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(b, 1, sizeof(buf[0]) - 1, f) : 0;

	if (f)
		fclose(f);
	b[n] = '\0';
	return b;
}

/* The guardian hook: called after the state file is saved, which must
 * come before the setter the journal protects. */
static int on_saved(void *ctx, const struct gt_restore_journal *j, char *err,
                    size_t len)
{
	struct env *e = ctx;

	(void)j;
	e->saved++;
	e->log_empty = slurp(e->log)[0] == '\0';
	if (e->veto)
		snprintf(err, len, "guardian gone");
	return e->veto ? -1 : 0;
}

static struct gt_control *control(struct env *e, const struct gt_nvml_api *api,
                                  enum gt_control_priv priv)
{
	struct gt_control_config cfg = {
	    .nvml = api,
	    .vendors = gt_control_vendors,
	    .state_path = e->state,
	    .audit_path = e->audit,
	    .privileged = priv,
	    .fixed_time = T0,
	    .journal_saved = on_saved,
	    .journal_ctx = e,
	};
	char err[256] = "";
	struct gt_control *c = gt_control_new(&cfg, err, sizeof(err));

	if (!c)
		fail_msg("gt_control_new: %s", err);
	return c;
}

/* scenario: a file in GPUTOP_SCENARIO_DIR, or an absolute path. */
static struct env *setup(const char *scenario, enum gt_control_priv priv)
{
	const char *lib = getenv("GPUTOP_FAKE_NVML_LIB");
	const char *dir = getenv("GPUTOP_SCENARIO_DIR");
	char path[PATH_MAX], why[256];
	struct env *e;

	if (!lib || !dir)
		return NULL;
	e = calloc(1, sizeof(*e));
	assert_non_null(e);
	snprintf(e->tmp, sizeof(e->tmp), "/tmp/gt-nvctl-XXXXXX");
	assert_non_null(mkdtemp(e->tmp));
	snprintf(e->log, sizeof(e->log), "%s/setters.log", e->tmp);
	snprintf(e->state, sizeof(e->state), "%s/state/restore.state", e->tmp);
	snprintf(e->audit, sizeof(e->audit), "%s/audit.log", e->tmp);
	if (scenario[0] == '/')
		snprintf(path, sizeof(path), "%s", scenario);
	else
		snprintf(path, sizeof(path), "%s/%s", dir, scenario);
	setenv("GPUTOP_FAKE_NVML_SCENARIO", path, 1);
	setenv("GPUTOP_FAKE_NVML_LOG", e->log, 1);
	if (gt_nvml_api_load(&e->api, lib, why, sizeof(why)) != 0)
		fail_msg("%s", why);
	assert_int_equal(e->api.init(), NVML_SUCCESS);
	e->c = control(e, &e->api, priv);
	return e;
}

static void done(struct env *e)
{
	char cmd[128];

	gt_control_free(e->c);
	e->api.shutdown();
	gt_nvml_api_unload(&e->api);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", e->tmp);
	assert_int_equal(system(cmd), 0);
	unsetenv("GPUTOP_FAKE_NVML_LOG");
	free(e);
}

#define SETUP(e, scn, priv)                                                    \
	struct env *e = setup((scn), (priv));                                  \
	if (!e)                                                                \
	skip()

/* A refusal: REFUSED, the reason, and no setter call at all. */
#define REFUSED(e, call, want)                                                 \
	do {                                                                   \
		char err_[512] = "";                                           \
		assert_int_equal((call), GT_CONTROL_REFUSED);                  \
		if (!strstr(err_, (want)))                                     \
			fail_msg("err \"%s\" lacks \"%s\"", err_, (want));     \
		assert_string_equal(slurp((e)->log), "");                      \
	} while (0)
#define ERR err_, sizeof(err_)

static void test_power_limit(void **state)
{
	SETUP(e, "rtx4090.scn", GT_CONTROL_PRIV_YES);
	unsigned mw = 0;
	char err[256] = "x", want[1024];
	(void)state;

	REFUSED(e, gt_control_nvml_power_limit(e->c, GPU, 700000, &mw, ERR),
	        "power limit 700000 mW is outside this GPU's range "
	        "10000-600000 mW");
	REFUSED(e, gt_control_nvml_power_limit(e->c, GPU, 5000, &mw, ERR),
	        "outside this GPU's range");
	REFUSED(
	    e,
	    gt_control_nvml_power_limit(e->c, "0000:99:00.0", 300000, &mw, ERR),
	    "no NVIDIA GPU at 0000:99:00.0");
	REFUSED(e, gt_control_nvml_power_limit(e->c, "card0", 300000, &mw, ERR),
	        "is not a GPU's PCI address");
	assert_int_equal(e->saved, 0);
	assert_int_equal(gt_control_nvml_power_limit(e->c, GPU, 300000, &mw,
	                                             err, sizeof(err)),
	                 GT_CONTROL_OK);
	assert_string_equal(err, "");
	assert_int_equal(mw, 300000);
	assert_string_equal(slurp(e->log),
	                    "nvmlDeviceSetPowerManagementLimit_v2 "
	                    "dev=0 scope=0 limit=300000 -> 0\n");
	assert_int_equal(e->saved, 1);
	assert_true(e->log_empty); /* journal saved before the setter */
	snprintf(want, sizeof(want),
	         "gputop-restore 2\nnvml-power-limit vendor=nvml dev=" GPU
	         " time=%d "
	         "mw=450000\nend 1\n",
	         T0);
	assert_true(strstr(slurp(e->state), want));
	assert_string_equal(slurp(e->audit), STAMP
	                    " write " GPU " power-limit-mw old=\"450000\" "
	                    "new=\"300000\" ok\n");
	/* NVML's own spelling of the address finds the same GPU; the limit
	 * already in force is not written again. */
	assert_int_equal(gt_control_nvml_power_limit(e->c, "00000000:01:00.0",
	                                             300000, &mw, err,
	                                             sizeof(err)),
	                 GT_CONTROL_OK);
	assert_int_equal(mw, 300000);
	assert_string_equal(slurp(e->log),
	                    "nvmlDeviceSetPowerManagementLimit_v2 "
	                    "dev=0 scope=0 limit=300000 -> 0\n");
	done(e);
}

/* No guardian, no write. */
static void test_guardian_veto(void **state)
{
	SETUP(e, "rtx4090.scn", GT_CONTROL_PRIV_YES);
	unsigned mw;
	(void)state;

	e->veto = true;
	REFUSED(e, gt_control_nvml_power_limit(e->c, GPU, 300000, &mw, ERR),
	        "cannot hand the restore state to the guardian: guardian "
	        "gone; nothing written");
	assert_int_equal(e->saved, 1);
	done(e);
}

static void test_power_limit_v1_fallback(void **state)
{
	SETUP(e, "rtx4090.scn", GT_CONTROL_PRIV_YES);
	struct gt_nvml_api v1 = e->api;
	struct gt_control *c;
	unsigned mw;
	char err[256];
	(void)state;

	v1.set_power_limit_v2 = NULL; /* a driver older than NVML 12.5 */
	c = control(e, &v1, GT_CONTROL_PRIV_YES);
	assert_int_equal(
	    gt_control_nvml_power_limit(c, GPU, 250000, &mw, err, sizeof(err)),
	    GT_CONTROL_OK);
	assert_string_equal(slurp(e->log), "nvmlDeviceSetPowerManagementLimit "
	                                   "dev=0 limit=250000 -> 0\n");
	gt_control_free(c);
	done(e);
}

/* The device applies less than asked: an out-of-band cap of 350 W. */
static void test_power_limit_readback_differs(void **state)
{
	char scn[PATH_MAX + 64], inc[PATH_MAX + 64];
	const char *dir = getenv("GPUTOP_SCENARIO_DIR");
	unsigned mw = 0;
	char err[256];
	FILE *f;
	(void)state;

	if (!dir || !getenv("GPUTOP_FAKE_NVML_LIB"))
		skip();
	snprintf(scn, sizeof(scn), "/tmp/gt-nvctl-oob-%d.scn", (int)getpid());
	snprintf(inc, sizeof(inc), "%s/rtx4090.scn", dir);
	f = fopen(scn, "w");
	assert_non_null(f);
	fprintf(f, "include %s\ndevice 0\npower.oob_cap 350000\n", inc);
	fclose(f);
	SETUP(e, scn, GT_CONTROL_PRIV_YES);
	assert_int_equal(gt_control_nvml_power_limit(e->c, GPU, 400000, &mw,
	                                             err, sizeof(err)),
	                 GT_CONTROL_OK);
	assert_int_equal(mw, 350000);
	done(e);
	unlink(scn);
}

static void test_unprivileged_calls_nothing(void **state)
{
	SETUP(e, "unprivileged.scn", GT_CONTROL_PRIV_NO);
	unsigned u;
	char rep[256];
	(void)state;

	REFUSED(e, gt_control_nvml_power_limit(e->c, GPU, 300000, &u, ERR),
	        "setting a power limit needs root: run gputop with sudo");
	REFUSED(e, gt_control_nvml_fan_speed(e->c, GPU, 0, 60, &u, ERR),
	        "setting a fan speed needs root");
	REFUSED(e, gt_control_nvml_fan_auto(e->c, GPU, 0, ERR), "needs root");
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), -1);
	assert_string_equal(slurp(e->log), "");
	assert_int_equal(access(e->state, F_OK), -1);
	done(e);
}

/* Told it is root while NVML says otherwise: one call, its answer
 * explained, and the original noted before the call forgotten again:
 * nothing changed, so nothing is journaled and no state file stays. */
static void test_driver_refuses(void **state)
{
	SETUP(e, "unprivileged.scn", GT_CONTROL_PRIV_YES);
	unsigned mw;
	char err[256];
	(void)state;

	assert_int_equal(gt_control_nvml_power_limit(e->c, GPU, 300000, &mw,
	                                             err, sizeof(err)),
	                 GT_CONTROL_FAILED);
	assert_string_equal(err, "NVML refused the power limit: Insufficient "
	                         "Permissions: the driver refuses it even to "
	                         "root (in a container, grant CAP_SYS_ADMIN; "
	                         "otherwise the GPU's or the driver's policy "
	                         "does not allow the change)");
	assert_string_equal(slurp(e->log),
	                    "nvmlDeviceSetPowerManagementLimit_v2 "
	                    "dev=0 scope=0 limit=300000 -> 4\n");
	assert_true(
	    strstr(slurp(e->audit),
	           "power-limit-mw old=\"450000\" new=\"300000\" failed: "
	           "Insufficient Permissions\n"));
	assert_int_equal(gt_control_pending(e->c), 0);
	assert_int_equal(access(e->state, F_OK), -1);
	done(e);
}

static void test_fan_speed_and_auto(void **state)
{
	SETUP(e, "rtx4090.scn", GT_CONTROL_PRIV_YES);
	unsigned pct = 0;
	char err[256];
	(void)state;

	REFUSED(
	    e, gt_control_nvml_fan_speed(e->c, GPU, 1, 20, &pct, ERR),
	    "fan speed 20 % is outside this GPU's range 30-100 % (below it, "
	    "hand the fan back to automatic)");
	REFUSED(e, gt_control_nvml_fan_speed(e->c, GPU, 0, 101, &pct, ERR),
	        "outside this GPU's range 30-100 %");
	REFUSED(e, gt_control_nvml_fan_speed(e->c, GPU, 2, 50, &pct, ERR),
	        "fan 2 does not exist: this GPU has 2 fan controllers (0-1)");
	REFUSED(e, gt_control_nvml_fan_auto(e->c, GPU, 2, ERR),
	        "fan 2 does not exist");
	assert_int_equal(
	    gt_control_nvml_fan_speed(e->c, GPU, 0, 60, &pct, err, sizeof(err)),
	    GT_CONTROL_OK);
	assert_int_equal(pct, 60);
	assert_int_equal(
	    gt_control_nvml_fan_speed(e->c, GPU, 1, 30, &pct, err, sizeof(err)),
	    GT_CONTROL_OK);
	assert_int_equal(pct, 30);
	assert_int_equal(
	    gt_control_nvml_fan_auto(e->c, GPU, 1, err, sizeof(err)),
	    GT_CONTROL_OK);
	assert_string_equal(
	    slurp(e->log),
	    "nvmlDeviceSetFanSpeed_v2 dev=0 fan=0 speed=60 -> 0\n"
	    "nvmlDeviceSetFanSpeed_v2 dev=0 fan=1 speed=30 -> 0\n"
	    "nvmlDeviceSetDefaultFanSpeed_v2 dev=0 fan=1 -> 0\n");
	/* Fan 1's second action was known; back at automatic (its original)
	 * it leaves the journal, saved a third time: fan 0 is left. */
	assert_int_equal(e->saved, 3);
	assert_int_equal(gt_control_pending(e->c), 1);
	assert_true(strstr(slurp(e->audit),
	                   STAMP " write " GPU
	                         " fan1-speed old=\"30\" new=\"auto\" ok\n"));
	done(e);
}

static void test_no_fans_on_datacenter_gpu(void **state)
{
	SETUP(e, "h100x8.scn", GT_CONTROL_PRIV_YES);
	unsigned pct;
	(void)state;

	REFUSED(
	    e,
	    gt_control_nvml_fan_speed(e->c, "0000:18:00.0", 0, 60, &pct, ERR),
	    "this GPU has no fans gputop can control");
	done(e);
}

static void test_restore_all(void **state)
{
	SETUP(e, "rtx4090.scn", GT_CONTROL_PRIV_YES);
	nvmlDevice_t h;
	unsigned u, limit = 0;
	char err[256], rep[1024];
	(void)state;

	assert_int_equal(gt_control_nvml_power_limit(e->c, GPU, 300000, &u, err,
	                                             sizeof(err)),
	                 0);
	assert_int_equal(
	    gt_control_nvml_fan_speed(e->c, GPU, 0, 60, &u, err, sizeof(err)),
	    0);
	assert_int_equal(
	    gt_control_nvml_fan_speed(e->c, GPU, 1, 70, &u, err, sizeof(err)),
	    0);
	assert_int_equal(gt_control_pending(e->c), 3);
	assert_int_equal(gt_control_restore_all(e->c, rep, sizeof(rep)), 0);
	/* Last change first; the original limit back, both fans to auto. */
	assert_string_equal(
	    slurp(e->log),
	    "nvmlDeviceSetPowerManagementLimit_v2 dev=0 scope=0 "
	    "limit=300000 -> 0\n"
	    "nvmlDeviceSetFanSpeed_v2 dev=0 fan=0 speed=60 -> 0\n"
	    "nvmlDeviceSetFanSpeed_v2 dev=0 fan=1 speed=70 -> 0\n"
	    "nvmlDeviceSetDefaultFanSpeed_v2 dev=0 fan=1 -> 0\n"
	    "nvmlDeviceSetDefaultFanSpeed_v2 dev=0 fan=0 -> 0\n"
	    "nvmlDeviceSetPowerManagementLimit_v2 dev=0 scope=0 "
	    "limit=450000 -> 0\n");
	assert_string_equal(rep, "nvml-fan-auto " GPU " fan 1: ok\n"
	                         "nvml-fan-auto " GPU " fan 0: ok\n"
	                         "nvml-power-limit " GPU " <- 450000 mW: ok\n");
	assert_int_equal(e->api.handle_by_index(0, &h), NVML_SUCCESS);
	assert_int_equal(e->api.power_limit(h, &limit), NVML_SUCCESS);
	assert_int_equal(limit, 450000);
	assert_int_equal(access(e->state, F_OK), -1); /* cleared */
	assert_true(strstr(slurp(e->audit), STAMP
	                   " restore " GPU " power-limit-mw old=\"300000\" "
	                   "new=\"450000\" ok\n"));
	assert_int_equal(gt_control_pending(e->c), 0);
	done(e);
}

static void test_without_nvml(void **state)
{
	char err[256] = "", tmp[] = "/tmp/gt-nvctl-XXXXXX", path[64], cmd[64];
	struct gt_control_config cfg = {.vendors = gt_control_vendors,
	                                .privileged = GT_CONTROL_PRIV_YES};
	struct gt_control *c;
	unsigned mw;
	(void)state;

	assert_non_null(mkdtemp(tmp));
	snprintf(path, sizeof(path), "%s/restore.state", tmp);
	cfg.state_path = path;
	c = gt_control_new(&cfg, err, sizeof(err));
	assert_non_null(c);
	assert_int_equal(
	    gt_control_nvml_power_limit(c, GPU, 300000, &mw, err, sizeof(err)),
	    GT_CONTROL_REFUSED);
	assert_true(strstr(err, "no NVIDIA library is loaded"));
	gt_control_free(c);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_power_limit),
	    cmocka_unit_test(test_guardian_veto),
	    cmocka_unit_test(test_power_limit_v1_fallback),
	    cmocka_unit_test(test_power_limit_readback_differs),
	    cmocka_unit_test(test_unprivileged_calls_nothing),
	    cmocka_unit_test(test_driver_refuses),
	    cmocka_unit_test(test_fan_speed_and_auto),
	    cmocka_unit_test(test_no_fans_on_datacenter_gpu),
	    cmocka_unit_test(test_restore_all),
	    cmocka_unit_test(test_without_nvml),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * test_control_session.c - tests of the control session
 * (src/control/control_session.c, control_session_loop.c) over a copy of a
 * fixture sysfs tree and the fake libnvidia-ml.so.1, as gputop runs it:
 * the real vendors, the real guardian process. Covered: each change kind
 * through the ops of the device's vendor, with its result text (asked,
 * applied, the refusal of a kind a vendor has no setter for); apply_list
 * stopping at a refusal or a failure and reverting what went before;
 * revert_list; restore_all putting every file and NVML setting back;
 * release leaving the changes for good; the fan loops (their first step,
 * a sample that did not move on, the notices, the loop status) with and
 * without a collector; the AMD firmware curve; and a version-1 state file
 * of an older gputop, restored through the vendors' ops after it was
 * written back as version 2.
 *
 * Needs GPUTOP_FAKE_NVML_LIB, GPUTOP_SCENARIO_DIR and GPUTOP_FIXTURES (set
 * by tests/run.sh); skipped without them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "collectors/registry.h"
#include "control/control_session.h"
#include "core/clock.h"
#include "core/collector.h"

#define GPU     "0000:01:00.0" /* the RTX 4090 of rtx4090.scn */
#define LEVEL   "power_dpm_force_performance_level"
#define CAP     "hwmon/hwmon4/power1_cap"
#define PWM_EN  "hwmon/hwmon4/pwm1_enable"
#define TIMEOUT (60 * 1000000000ull) /* no guardian restore mid-test */

struct env {
	char tmp[64], root[128], dev[256], state[160], audit[160], log[160];
	struct gt_control_session *s;
	struct gt_collector *col;
};

static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (system(cmd) != 0)
		fail_msg("failed: %s", cmd);
}

/* The file's bytes (static, four at a time), "(missing)" if none. */
static const char *text(const char *path)
{
	static char buf[4][8192];
	static int k;
	char *b = buf[k++ % 4];
	FILE *f = fopen(path, "rb");

	if (!f)
		return "(missing)";
	b[fread(b, 1, sizeof(buf[0]) - 1, f)] = '\0';
	fclose(f);
	return b;
}

static const char *devfile(const struct env *e, const char *leaf)
{
	static char path[4][PATH_MAX];
	static int k;
	char *p = path[k++ % 4];

	snprintf(p, PATH_MAX, "%s/%s", e->dev, leaf);
	return text(p);
}

static void put(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(s, f);
	assert_int_equal(fclose(f), 0);
}

/* The tree is as it was at setup. */
static bool unchanged(const struct env *e)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "diff -r '%s/before' '%s' >/dev/null",
	         e->tmp, e->root);
	return system(cmd) == 0;
}

static struct gt_control_session *session(struct env *e, bool nvml)
{
	struct gt_control_session_config cfg = {
	    .nvml_lib = getenv("GPUTOP_FAKE_NVML_LIB"),
	    .no_nvml = !nvml,
	    .sysfs_root = e->root,
	    .state_path = e->state,
	    .audit_path = e->audit,
	    .privileged = GT_CONTROL_PRIV_YES,
	    .guardian_timeout_ns = TIMEOUT,
	};
	char err[512] = "";
	struct gt_control_session *s =
	    gt_control_session_new(&cfg, err, sizeof(err));

	if (!s)
		fail_msg("gt_control_session_new: %s", err);
	return s;
}

/* tree: a fixture tree ("amdgpu/rx580"), cardn its card; scenario: the
 * fake NVML's (a file of GPUTOP_SCENARIO_DIR, or absolute), NULL for no
 * NVML. */
static struct env *setup(const char *tree, const char *cardn,
                         const char *scenario)
{
	const char *fx = getenv("GPUTOP_FIXTURES");
	const char *dir = getenv("GPUTOP_SCENARIO_DIR");
	struct env *e;
	char scn[PATH_MAX];

	if (!fx || !dir || !getenv("GPUTOP_FAKE_NVML_LIB"))
		return NULL;
	e = calloc(1, sizeof(*e));
	assert_non_null(e);
	snprintf(e->tmp, sizeof(e->tmp), "/tmp/gt-session-XXXXXX");
	assert_non_null(mkdtemp(e->tmp));
	snprintf(e->root, sizeof(e->root), "%s/sys", e->tmp);
	sh("cp -R '%s/%s' '%s' && chmod -R u+w '%s' && cp -R '%s' '%s/before'",
	   fx, tree, e->root, e->root, e->root, e->tmp);
	snprintf(e->dev, sizeof(e->dev), "%s/class/drm/%s/device", e->root,
	         cardn);
	snprintf(e->state, sizeof(e->state), "%s/state/restore.state", e->tmp);
	snprintf(e->audit, sizeof(e->audit), "%s/state/audit.log", e->tmp);
	snprintf(e->log, sizeof(e->log), "%s/setters.log", e->tmp);
	if (scenario) {
		if (scenario[0] == '/')
			snprintf(scn, sizeof(scn), "%s", scenario);
		else
			snprintf(scn, sizeof(scn), "%s/%s", dir, scenario);
		setenv("GPUTOP_FAKE_NVML_SCENARIO", scn, 1);
		setenv("GPUTOP_FAKE_NVML_LOG", e->log, 1);
	}
	e->s = session(e, scenario != NULL);
	return e;
}

#define SETUP(e, tree, cardn, scn)                                             \
	struct env *e = setup((tree), (cardn), (scn));                         \
	if (!e)                                                                \
	skip()

/* Leaves without restoring what a test left changed: the guardian is
 * told it is done, so nothing writes to the tree as it is removed. */
static void done(struct env *e)
{
	if (e->col) {
		gt_control_session_detach(e->s);
		gt_collector_close(e->col);
	}
	assert_int_equal(gt_control_session_release(e->s), 0);
	gt_control_session_free(e->s);
	sh("rm -rf '%s'", e->tmp);
	unsetenv("GPUTOP_FAKE_NVML_LOG");
	free(e);
}

static struct gt_control_change change(const struct env *e, enum gt_vendor v,
                                       enum gt_control_change_kind kind)
{
	struct gt_control_change ch;

	memset(&ch, 0, sizeof(ch));
	ch.kind = kind;
	ch.vendor = v;
	snprintf(ch.dev, sizeof(ch.dev), "%s",
	         v == GT_VENDOR_NVIDIA ? GPU : e->dev);
	return ch;
}

/* 40 °C 30 %, 80 °C 100 %. */
static struct gt_fancurve two_points(void)
{
	struct gt_fancurve c = {.n = 2};

	c.pt[0] = (struct gt_fan_point){40000, 3000};
	c.pt[1] = (struct gt_fan_point){80000, 10000};
	return c;
}

static struct gt_control_change fan_change(const struct env *e,
                                           enum gt_vendor v,
                                           enum gt_control_change_kind kind,
                                           enum gt_fan_method m)
{
	struct gt_control_change ch = change(e, v, kind);

	ch.fan_method = m;
	ch.fan_count = m == GT_FAN_METHOD_NVML_LOOP ? 2 : 1;
	ch.curve = two_points();
	gt_fanloop_config_default(&ch.loop);
	return ch;
}

/* Applies ch and checks the whole result: rc, asked, applied, whether
 * it differs, and err (which must contain want_err; "" for none). */
static void apply(struct env *e, const struct gt_control_change *ch, int rc,
                  const char *asked, const char *applied, bool differs,
                  const char *want_err)
{
	struct gt_control_result res;

	assert_int_equal(gt_control_session_apply(e->s, ch, &res), rc);
	assert_int_equal(res.rc, rc);
	assert_string_equal(res.asked, asked);
	assert_string_equal(res.applied, applied);
	assert_int_equal(res.differs, differs);
	if (!want_err[0])
		assert_string_equal(res.err, "");
	else if (!strstr(res.err, want_err))
		fail_msg("err \"%s\" lacks \"%s\"", res.err, want_err);
}

static void expect_notice(struct env *e, const char *want)
{
	char notice[512];

	gt_control_session_take_notice(e->s, notice, sizeof(notice));
	assert_string_equal(notice, want);
	gt_control_session_take_notice(e->s, notice, sizeof(notice));
	assert_string_equal(notice, ""); /* reading clears it */
}

static void restore_all(struct env *e)
{
	char rep[2048];

	assert_int_equal(gt_control_session_restore_all(e->s, rep, sizeof(rep)),
	                 0);
	assert_int_equal(gt_control_session_pending(e->s), 0);
	assert_string_equal(text(e->state), "(missing)");
}

static void test_amd_each_kind(void **state)
{
	SETUP(e, "amdgpu/rx580", "card0", NULL);
	struct gt_control_change ch =
	    change(e, GT_VENDOR_AMD, GT_CHANGE_PERF_LEVEL);
	(void)state;

	assert_false(gt_control_session_changed(e->s));
	snprintf(ch.text, sizeof(ch.text), "manual");
	apply(e, &ch, GT_CONTROL_OK, "manual", "manual", false, "");
	assert_string_equal(devfile(e, LEVEL), "manual\n");
	assert_true(gt_control_session_changed(e->s));
	assert_int_equal(gt_control_session_pending(e->s), 1);

	ch = change(e, GT_VENDOR_AMD, GT_CHANGE_POWER_LIMIT);
	ch.value = 150000000;
	apply(e, &ch, GT_CONTROL_OK, "150000000 µW", "150000000 µW", false, "");
	assert_string_equal(devfile(e, CAP), "150000000\n");

	ch = change(e, GT_VENDOR_AMD, GT_CHANGE_POWER_PROFILE);
	ch.value = 9;
	apply(e, &ch, GT_CONTROL_REFUSED, "profile 9", "", false,
	      "profile 9 is not in this card's pp_power_profile_mode");
	ch.value = 1; /* the active one: nothing to write */
	apply(e, &ch, GT_CONTROL_OK, "profile 1", "profile 1", false, "");
	assert_int_equal(gt_control_session_pending(e->s), 2);

	/* A kind the vendor has no setter for: refused by the session. */
	ch = change(e, GT_VENDOR_AMD, GT_CHANGE_FREQ_LIMITS);
	ch.value = 300;
	ch.value2 = 1000;
	apply(e, &ch, GT_CONTROL_REFUSED, "300-1000 MHz", "", false,
	      "this device has no frequency limits gputop can change");
	ch = fan_change(e, GT_VENDOR_AMD, GT_CHANGE_FAN_CURVE,
	                GT_FAN_METHOD_NONE);
	apply(e, &ch, GT_CONTROL_REFUSED, "fan curve", "", false,
	      "this device has no fan gputop can control");
	ch = change(e, GT_VENDOR_UNKNOWN, GT_CHANGE_POWER_LIMIT);
	apply(e, &ch, GT_CONTROL_REFUSED, "", "", false,
	      "gputop changes settings of NVIDIA, AMD and Intel GPUs only");
	assert_int_equal(gt_control_session_pending(e->s), 2);
	restore_all(e);
	assert_true(unchanged(e));
	done(e);
}

/* Without a collector the loop's first step has no reading: the fan goes
 * back to the firmware at once, and the session says so. */
static void test_amd_loop_without_reading(void **state)
{
	SETUP(e, "amdgpu/rx580", "card0", NULL);
	struct gt_control_change ch = fan_change(
	    e, GT_VENDOR_AMD, GT_CHANGE_FAN_CURVE, GT_FAN_METHOD_AMD_PWM_LOOP);
	struct gt_control_loop_status st;
	(void)state;

	apply(e, &ch, GT_CONTROL_OK, "fan curve",
	      "curve running; now automatic (sensor_failed)", false, "");
	assert_string_equal(devfile(e, PWM_EN), "2\n");
	expect_notice(e, "fan handed back to automatic: temperature sensor "
	                 "failed");
	gt_control_session_loop_status(e->s, 0, &st);
	assert_true(st.active);
	assert_false(st.firmware);
	assert_int_equal(st.applied_cpercent, -1);
	assert_int_equal(st.target_cpercent, -1);
	assert_int_equal(st.reason, GT_FAN_R_SENSOR_FAILED);
	assert_true(st.temp_mc == GT_FAN_TEMP_INVALID);
	assert_int_equal(st.curve.n, 2);
	/* A device without a loop. */
	gt_control_session_loop_status(e->s, 5, &st);
	assert_false(st.active);
	assert_int_equal(st.applied_cpercent, -1);
	assert_int_equal(st.target_cpercent, -1);
	assert_true(st.temp_mc == GT_FAN_TEMP_INVALID);

	ch.kind = GT_CHANGE_FAN_AUTO;
	apply(e, &ch, GT_CONTROL_OK, "automatic", "automatic", false, "");
	gt_control_session_loop_status(e->s, 0, &st);
	assert_false(st.active);
	restore_all(e);
	assert_true(unchanged(e));
	done(e);
}

static void test_nvml_each_kind(void **state)
{
	SETUP(e, "amdgpu/rx580", "card0", "rtx4090.scn");
	struct gt_control_change ch =
	    change(e, GT_VENDOR_NVIDIA, GT_CHANGE_POWER_LIMIT);
	(void)state;

	ch.value = 300000;
	apply(e, &ch, GT_CONTROL_OK, "300000 mW", "300000 mW", false, "");
	ch = change(e, GT_VENDOR_NVIDIA, GT_CHANGE_PERF_LEVEL);
	snprintf(ch.text, sizeof(ch.text), "manual");
	apply(e, &ch, GT_CONTROL_REFUSED, "manual", "", false,
	      "this device has no performance level gputop can change");
	ch = change(e, GT_VENDOR_NVIDIA, GT_CHANGE_POWER_PROFILE);
	ch.value = 5;
	apply(e, &ch, GT_CONTROL_REFUSED, "profile 5", "", false,
	      "this device has no power profile gputop can change");
	ch = fan_change(e, GT_VENDOR_NVIDIA, GT_CHANGE_FAN_CURVE,
	                GT_FAN_METHOD_AMD_FIRMWARE);
	apply(e, &ch, GT_CONTROL_REFUSED, "fan curve", "", false,
	      "this device has no firmware fan curve gputop can change");
	assert_string_equal(text(e->log),
	                    "nvmlDeviceSetPowerManagementLimit_v2 "
	                    "dev=0 scope=0 limit=300000 -> 0\n");

	/* Every fan of the change, one by one. */
	ch = fan_change(e, GT_VENDOR_NVIDIA, GT_CHANGE_FAN_AUTO,
	                GT_FAN_METHOD_NVML_LOOP);
	apply(e, &ch, GT_CONTROL_OK, "automatic", "automatic", false, "");
	/* A loop of fan 1 only, no reading: fan 1 back to automatic. */
	ch.kind = GT_CHANGE_FAN_CURVE;
	ch.fan_mask = 0x2;
	apply(e, &ch, GT_CONTROL_OK, "fan curve",
	      "curve running; now automatic (sensor_failed)", false, "");
	/* The fans are automatic, as they were: only the limit is left. */
	assert_int_equal(gt_control_session_pending(e->s), 1);
	restore_all(e);
	assert_string_equal(text(e->log),
	                    "nvmlDeviceSetPowerManagementLimit_v2 dev=0 "
	                    "scope=0 limit=300000 -> 0\n"
	                    "nvmlDeviceSetDefaultFanSpeed_v2 dev=0 fan=0 -> 0\n"
	                    "nvmlDeviceSetDefaultFanSpeed_v2 dev=0 fan=1 -> 0\n"
	                    "nvmlDeviceSetDefaultFanSpeed_v2 dev=0 fan=1 -> 0\n"
	                    "nvmlDeviceSetPowerManagementLimit_v2 dev=0 "
	                    "scope=0 limit=450000 -> 0\n");
	done(e);
}

/* The loop driven by the collector's ticks: a real reading sets the
 * curve's speed; a sample that did not move on is a failed read (the fan
 * goes back to the firmware, with a notice); the next fresh one takes
 * over again. */
static void test_nvml_loop_with_collector(void **state)
{
	SETUP(e, "amdgpu/rx580", "card0", "rtx4090.scn");
	struct gt_control_change ch = fan_change(
	    e, GT_VENDOR_NVIDIA, GT_CHANGE_FAN_CURVE, GT_FAN_METHOD_NVML_LOOP);
	struct gt_collector_config cfg = {
	    .platform = &gt_registry_platform,
	    .backend = {.nvml_lib = getenv("GPUTOP_FAKE_NVML_LIB"),
	                .sysfs_root = "/nonexistent",
	                .procfs_root = "/nonexistent"},
	    .interval_ns = GT_INTERVAL_MIN_NS,
	};
	struct gt_control_loop_status st;
	const char *set =
	    "nvmlDeviceSetFanSpeed_v2 dev=0 fan=1 speed=50 -> 0\n";
	const char *back = "nvmlDeviceSetDefaultFanSpeed_v2 dev=0 fan=1 -> 0\n";
	char want[512];
	(void)state;

	e->col = gt_collector_open(&cfg);
	assert_non_null(e->col);
	gt_collector_tick(e->col, GT_TICK_ALL);
	gt_control_session_attach(e->s, e->col);
	/* A tick with nothing running leaves the next ticks idle (no lock)
	 * until a loop starts: the one below must still be stepped. */
	gt_control_session_tick(e->s, e->col, gt_monotonic_ns());
	/* 50 % whatever the temperature (45-68 °C in the scenario). */
	ch.curve.pt[0] = (struct gt_fan_point){20000, 5000};
	ch.curve.pt[1] = (struct gt_fan_point){100000, 5000};
	ch.fan_mask = 0x2;
	apply(e, &ch, GT_CONTROL_OK, "fan curve", "curve running; now 50 %",
	      false, "");
	assert_string_equal(text(e->log), set);
	gt_control_session_loop_status(e->s, 0, &st);
	assert_true(st.active);
	assert_int_equal(st.applied_cpercent, 5000);
	assert_int_equal(st.target_cpercent, 5000);
	assert_int_equal(st.reason, GT_FAN_R_START);
	assert_true(st.temp_mc >= 40000 && st.temp_mc <= 70000);

	/* The same sample twice: the second is no reading. */
	gt_control_session_tick(e->s, e->col, gt_monotonic_ns());
	assert_string_equal(text(e->log), set);
	gt_control_session_tick(e->s, e->col, gt_monotonic_ns());
	snprintf(want, sizeof(want), "%s%s", set, back);
	assert_string_equal(text(e->log), want);
	expect_notice(e, "fan handed back to automatic: temperature sensor "
	                 "failed");
	gt_control_session_loop_status(e->s, 0, &st);
	assert_int_equal(st.applied_cpercent, -1);
	assert_int_equal(st.reason, GT_FAN_R_SENSOR_FAILED);
	/* A fresh sample (the collector's tick runs the hook). */
	gt_collector_tick(e->col, GT_TICK_ALL);
	snprintf(want, sizeof(want), "%s%s%s", set, back, set);
	assert_string_equal(text(e->log), want);
	gt_control_session_loop_status(e->s, 0, &st);
	assert_int_equal(st.applied_cpercent, 5000);

	gt_control_session_detach(e->s);
	restore_all(e);
	snprintf(want, sizeof(want), "%s%s%s%s", set, back, set, back);
	assert_string_equal(text(e->log), want);
	gt_control_session_loop_status(e->s, 0, &st);
	assert_false(st.active);
	gt_collector_close(e->col);
	e->col = NULL;
	done(e);
}

/* All or nothing: a failure, or a refusal, stops the list, and what went
 * before is put back, newest first. */
static void test_apply_list_reverts(void **state)
{
	char scn[PATH_MAX + 64];
	const char *dir = getenv("GPUTOP_SCENARIO_DIR");
	FILE *f;
	(void)state;

	if (!dir)
		skip();
	snprintf(scn, sizeof(scn), "/tmp/gt-session-fail-%d.scn",
	         (int)getpid());
	f = fopen(scn, "w");
	assert_non_null(f);
	fprintf(f,
	        "include %s/rtx4090.scn\ndevice 0\n"
	        "error nvmlDeviceSetPowerManagementLimit_v2 UNKNOWN\n",
	        dir);
	fclose(f);
	SETUP(e, "amdgpu/rx580", "card0", scn);
	struct gt_control_change ch[3], rev[3];
	struct gt_control_result res[3];
	bool known[3] = {true, true, true};

	ch[0] = change(e, GT_VENDOR_AMD, GT_CHANGE_PERF_LEVEL);
	snprintf(ch[0].text, sizeof(ch[0].text), "manual");
	rev[0] = ch[0];
	snprintf(rev[0].text, sizeof(rev[0].text), "auto");
	ch[1] = change(e, GT_VENDOR_AMD, GT_CHANGE_POWER_LIMIT);
	ch[1].value = 150000000;
	rev[1] = ch[1];
	rev[1].value = 155000000;
	ch[2] = change(e, GT_VENDOR_NVIDIA, GT_CHANGE_POWER_LIMIT);
	ch[2].value = 300000;
	rev[2] = ch[2];
	rev[2].value = 450000;

	/* The driver refuses the third: the first two are put back. */
	assert_int_equal(
	    gt_control_session_apply_list(e->s, ch, rev, known, 3, res), 3);
	assert_int_equal(res[0].rc, GT_CONTROL_OK);
	assert_int_equal(res[1].rc, GT_CONTROL_OK);
	assert_int_equal(res[2].rc, GT_CONTROL_FAILED);
	assert_true(strstr(res[2].err, "NVML refused the power limit"));
	assert_string_equal(text(e->log),
	                    "nvmlDeviceSetPowerManagementLimit_v2 "
	                    "dev=0 scope=0 limit=300000 -> 999\n");
	assert_true(unchanged(e));
	assert_true(strstr(text(e->audit),
	                   " write 0000:09:00.0 " LEVEL
	                   " old=\"manual\" new=\"auto\" ok\n"));

	/* A refusal: it wrote nothing, the one before is put back. */
	ch[1] = change(e, GT_VENDOR_AMD, GT_CHANGE_FREQ_LIMITS);
	ch[1].value = 300;
	ch[1].value2 = 1000;
	assert_int_equal(
	    gt_control_session_apply_list(e->s, ch, rev, known, 2, res), 2);
	assert_int_equal(res[0].rc, GT_CONTROL_OK);
	assert_int_equal(res[1].rc, GT_CONTROL_REFUSED);
	assert_true(unchanged(e));

	/* All of them: the list stays. */
	assert_int_equal(
	    gt_control_session_apply_list(e->s, ch, rev, known, 1, res), 1);
	assert_string_equal(devfile(e, LEVEL), "manual\n");
	done(e);
	unlink(scn);
}

/* Last first; a change whose previous value is unknown is not guessed
 * (its original comes back on exit), except fans, which go back to the
 * firmware. */
static void test_revert_list(void **state)
{
	SETUP(e, "amdgpu/rx580", "card0", NULL);
	struct gt_control_change rev[3];
	struct gt_control_result res[3];
	bool known[3] = {true, false, false};
	(void)state;

	rev[0] = change(e, GT_VENDOR_AMD, GT_CHANGE_PERF_LEVEL);
	snprintf(rev[0].text, sizeof(rev[0].text), "manual");
	apply(e, &rev[0], GT_CONTROL_OK, "manual", "manual", false, "");
	snprintf(rev[0].text, sizeof(rev[0].text), "auto");
	rev[1] = change(e, GT_VENDOR_AMD, GT_CHANGE_POWER_LIMIT);
	rev[2] = fan_change(e, GT_VENDOR_AMD, GT_CHANGE_FAN_AUTO,
	                    GT_FAN_METHOD_AMD_PWM_LOOP);
	assert_int_equal(
	    gt_control_session_revert_list(e->s, rev, known, 3, res), 3);
	assert_int_equal(res[2].rc, GT_CONTROL_OK);
	assert_string_equal(res[2].applied, "automatic");
	assert_int_equal(res[1].rc, GT_CONTROL_REFUSED);
	assert_string_equal(res[1].err,
	                    "the value before the change could not be read: "
	                    "the original comes back when gputop exits");
	assert_int_equal(res[0].rc, GT_CONTROL_OK);
	assert_string_equal(res[0].applied, "auto");
	assert_string_equal(devfile(e, LEVEL), "auto\n");
	assert_string_equal(devfile(e, PWM_EN), "2\n");
	/* The level is back as it was: it leaves the journal, and the exit
	 * does not write it again. The fan was manual (pwm1_enable 1) before
	 * "automatic", so its two files stay journaled and are restored. */
	assert_int_equal(gt_control_session_pending(e->s), 2);
	assert_null(strstr(text(e->state), LEVEL));
	restore_all(e);
	assert_null(strstr(text(e->audit), " restore 0000:09:00.0 " LEVEL));
	assert_non_null(strstr(text(e->audit), " restore 0000:09:00.0 pwm1"));
	assert_true(unchanged(e));
	done(e);
}

/* Release: the change stays, the journal and the state file go, and the
 * guardian leaves without acting. */
static void test_release_keeps_changes(void **state)
{
	SETUP(e, "amdgpu/rx580", "card0", NULL);
	struct gt_control_change ch =
	    change(e, GT_VENDOR_AMD, GT_CHANGE_PERF_LEVEL);
	(void)state;

	snprintf(ch.text, sizeof(ch.text), "high");
	apply(e, &ch, GT_CONTROL_OK, "high", "high", false, "");
	assert_string_not_equal(text(e->state), "(missing)");
	assert_int_equal(gt_control_session_release(e->s), 0);
	assert_false(gt_control_session_changed(e->s));
	assert_int_equal(gt_control_session_pending(e->s), 0);
	assert_string_equal(text(e->state), "(missing)");
	gt_control_session_free(e->s);
	e->s = session(e, false);
	assert_int_equal(gt_control_session_pending(e->s), 0);
	assert_string_equal(devfile(e, LEVEL), "high\n");
	done(e);
}

static void test_amd_firmware_curve(void **state)
{
	SETUP(e, "amdgpu/rx7900xtx", "card0", NULL);
	struct gt_control_change ch = fan_change(
	    e, GT_VENDOR_AMD, GT_CHANGE_FAN_CURVE, GT_FAN_METHOD_AMD_FIRMWARE);
	static const int pts[5][2] = {
	    {40, 20}, {50, 30}, {60, 50}, {70, 70}, {80, 100}};
	struct gt_control_loop_status st;
	(void)state;

	ch.curve.n = 5;
	for (int i = 0; i < 5; i++)
		ch.curve.pt[i] =
		    (struct gt_fan_point){pts[i][0] * 1000, pts[i][1] * 100};
	/* A plain file is not the kernel: it holds the commit, so the
	 * read-back differs from the curve asked for. */
	apply(e, &ch, GT_CONTROL_OK, "fan curve", "firmware curve differs",
	      true, "reading fan_curve back failed");
	assert_string_equal(devfile(e, "gpu_od/fan_ctrl/fan_curve"), "c\n");
	gt_control_session_loop_status(e->s, 0, &st);
	assert_true(st.firmware);
	assert_false(st.active);
	assert_int_equal(st.curve.n, 5);
	ch.kind = GT_CHANGE_FAN_AUTO;
	apply(e, &ch, GT_CONTROL_REFUSED, "automatic", "", false,
	      "cannot read fan_curve");
	/* The curve is put back on exit: the dialog no longer calls it
	 * gputop's (the mark once outlived every stop). */
	restore_all(e);
	gt_control_session_loop_status(e->s, 0, &st);
	assert_false(st.firmware);
	assert_false(st.active);
	done(e);
}

static void test_intel_each_kind(void **state)
{
	SETUP(e, "intel/i915-dg2", "card0", NULL);
	struct gt_control_change ch =
	    change(e, GT_VENDOR_INTEL, GT_CHANGE_POWER_LIMIT);
	(void)state;

	ch.value = 100000000;
	apply(e, &ch, GT_CONTROL_OK, "100000000 µW", "100000000 µW", false, "");
	ch = change(e, GT_VENDOR_INTEL, GT_CHANGE_FREQ_LIMITS);
	ch.value = 600;
	ch.value2 = 1800;
	apply(e, &ch, GT_CONTROL_OK, "600-1800 MHz", "600-1800 MHz", false, "");
	ch = change(e, GT_VENDOR_INTEL, GT_CHANGE_PERF_LEVEL);
	snprintf(ch.text, sizeof(ch.text), "high");
	apply(e, &ch, GT_CONTROL_REFUSED, "high", "", false,
	      "this device has no performance level gputop can change");
	ch = fan_change(e, GT_VENDOR_INTEL, GT_CHANGE_FAN_AUTO,
	                GT_FAN_METHOD_NONE);
	apply(e, &ch, GT_CONTROL_REFUSED, "automatic", "", false,
	      "this device has no fan control gputop can change");
	assert_false(unchanged(e));
	restore_all(e);
	assert_true(unchanged(e));
	done(e);
}

/* A state file of a gputop before records named their vendor: loaded,
 * offered (pending), written back as version 2 with the vendors that
 * claim its records when the next change is made, and restored through
 * each vendor's own ops. */
static void test_version1_state_file(void **state)
{
	SETUP(e, "amdgpu/rx580", "card0", "rtx4090.scn");
	struct gt_control_change ch =
	    change(e, GT_VENDOR_AMD, GT_CHANGE_POWER_LIMIT);
	char v1[2048], path[PATH_MAX], want[1024];
	(void)state;

	/* gputop changed two files and the power limit (to 450 W), then
	 * died with its guardian. */
	gt_control_session_free(e->s);
	snprintf(v1, sizeof(v1),
	         "gputop-restore 1\n"
	         "sysfs dev=0000:09:00.0 time=1 path=%s/" LEVEL " value=auto\n"
	         "sysfs dev=0000:09:00.0 time=2 path=%s/" PWM_EN " value=1\n"
	         "nvml-power-limit dev=" GPU " time=3 mw=300000\n"
	         "end 3\n",
	         e->dev, e->dev);
	sh("mkdir -m 700 '%s/state'", e->tmp);
	put(e->state, v1);
	assert_int_equal(chmod(e->state, 0600), 0);
	snprintf(path, sizeof(path), "%s/" LEVEL, e->dev);
	put(path, "high\n");
	snprintf(path, sizeof(path), "%s/" PWM_EN, e->dev);
	put(path, "2\n");
	e->s = session(e, true);
	assert_int_equal(gt_control_session_pending(e->s), 3);

	ch.value = 150000000;
	apply(e, &ch, GT_CONTROL_OK, "150000000 µW", "150000000 µW", false, "");
	snprintf(want, sizeof(want),
	         "gputop-restore 2\n"
	         "sysfs vendor=amdgpu dev=0000:09:00.0 time=1 path=%s/" LEVEL
	         " value=auto\n"
	         "sysfs vendor=amdgpu dev=0000:09:00.0 time=2 path=%s/" PWM_EN
	         " value=1\n"
	         "nvml-power-limit vendor=nvml dev=" GPU " time=3 mw=300000\n"
	         "sysfs vendor=amdgpu dev=0000:09:00.0 time=",
	         e->dev, e->dev);
	if (!strstr(text(e->state), want))
		fail_msg("state file:\n%s", text(e->state));

	restore_all(e);
	assert_true(unchanged(e)); /* the fixture's own values again */
	assert_string_equal(text(e->log),
	                    "nvmlDeviceSetPowerManagementLimit_v2 "
	                    "dev=0 scope=0 limit=300000 -> 0\n");
	assert_true(strstr(text(e->audit), " restore 0000:09:00.0 " LEVEL
	                                   " old=\"high\" new=\"auto\" ok\n"));
	assert_true(strstr(text(e->audit), " restore 0000:09:00.0 pwm1_enable "
	                                   "old=\"2\" new=\"1\" ok\n"));
	done(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_amd_each_kind),
	    cmocka_unit_test(test_amd_loop_without_reading),
	    cmocka_unit_test(test_nvml_each_kind),
	    cmocka_unit_test(test_nvml_loop_with_collector),
	    cmocka_unit_test(test_apply_list_reverts),
	    cmocka_unit_test(test_revert_list),
	    cmocka_unit_test(test_release_keeps_changes),
	    cmocka_unit_test(test_amd_firmware_curve),
	    cmocka_unit_test(test_intel_each_kind),
	    cmocka_unit_test(test_version1_state_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * control_session.c - the control session (control_session.h): owns the
 * struct gt_control (handed the vendors of control_vendors.c), the NVML
 * handle the setters use, the guardian process and the software fan
 * loops. A change is applied by its kind's call (a table by change kind)
 * through the ops of the device's vendor; nothing here knows a vendor.
 * One mutex serialises everything that reaches the control (it is not
 * thread-safe): dialogs on the UI thread, the loops on the collector
 * thread.
 */
#include "control/control_session.h"
#include "control/control_session_priv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "control/control_vendors.h"
#include "control/guardian.h"
#include "core/collector.h"

static const char *opt(const char *s)
{
	return s && *s ? s : NULL;
}

/* ---- guardian ------------------------------------------------------ */

/* In the guardian, after fork: NVML's state (descriptors the guardian has
 * closed) is not to be trusted, so shut the inherited library down fully
 * and initialise it afresh before building the restore ops. */
static int guardian_factory(void *ctx, struct gt_restore_ops *ops, char *err,
                            size_t len)
{
	struct gt_control_session *s = ctx;
	struct gt_control_config cfg = {
	    .vendors = gt_control_vendors,
	    .sysfs_root = opt(s->sysfs_root),
	    .state_path = opt(s->state_path),
	    .audit_path = opt(s->audit_path),
	    .privileged = s->cfg.privileged,
	    .syslog = s->cfg.syslog,
	};
	if (s->api_ready) {
		for (int i = 0; i < 16 && s->api.shutdown() == NVML_SUCCESS;
		     i++)
			;
		if (s->api.init() != NVML_SUCCESS) {
			snprintf(err, len,
			         "NVML would not initialise in the "
			         "guardian");
			return -1;
		}
		cfg.nvml = &s->api;
	}
	struct gt_control *c = gt_control_new(&cfg, err, len);
	if (!c)
		return -1;
	/* c lives as long as the guardian: it exits after restoring. */
	gt_control_restore_ops(c, ops);
	return 0;
}

/* control.h's journal_saved hook: before the first write the guardian
 * must hold the originals; later, each new journal. */
static int on_journal_saved(void *ctx, const struct gt_restore_journal *j,
                            char *err, size_t len)
{
	struct gt_control_session *s = ctx;

	/* Readers see it before the write it protects, which may never
	 * come back. */
	gt_control_session_publish_journal(s, j);
	if (!s->guardian) {
		uint64_t timeout = s->cfg.guardian_timeout_ns
		                       ? s->cfg.guardian_timeout_ns
		                       : GT_GUARDIAN_TIMEOUT_NS;
		if (gt_guardian_start(&s->guardian, j, timeout,
		                      guardian_factory, s, s->guardian_log, err,
		                      len) < 0) {
			s->guardian = NULL;
			return -1;
		}
		/* Forked: the collector may sample again, during the write
		 * too (which may never come back). */
		if (s->quiesced) {
			gt_collector_resume(s->quiesced);
			s->quiesced = NULL;
		}
		if (s->col)
			gt_collector_set_max_sleep(s->col, LOOP_PERIOD_NS);
		return 0;
	}
	if (gt_guardian_update(s->guardian, j) < 0 && errno != ETIMEDOUT) {
		snprintf(err, len,
		         "the restore guardian is gone (%s); restart gputop "
		         "to change settings",
		         strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- life ---------------------------------------------------------- */

static void copy(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "");
}

struct gt_control_session *
gt_control_session_new(const struct gt_control_session_config *cfg, char *err,
                       size_t len)
{
	struct gt_control_session *s = calloc(1, sizeof(*s));
	char why[256];

	if (!s) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	s->cfg = *cfg;
	copy(s->nvml_lib, sizeof(s->nvml_lib), cfg->nvml_lib);
	copy(s->sysfs_root, sizeof(s->sysfs_root), cfg->sysfs_root);
	copy(s->audit_path, sizeof(s->audit_path), cfg->audit_path);
	if (cfg->state_path)
		copy(s->state_path, sizeof(s->state_path), cfg->state_path);
	else if (gt_restore_default_path(s->state_path, sizeof(s->state_path)) <
	         0) {
		snprintf(err, len,
		         "no place for the restore state file: set HOME or "
		         "XDG_STATE_HOME");
		free(s);
		return NULL;
	}
	snprintf(s->guardian_log, sizeof(s->guardian_log), "%s", s->state_path);
	char *slash = strrchr(s->guardian_log, '/');
	snprintf(slash ? slash + 1 : s->guardian_log,
	         sizeof(s->guardian_log) -
	             (size_t)(slash ? slash + 1 - s->guardian_log : 0),
	         "guardian.log");
	pthread_mutex_init(&s->lock, NULL);
	pthread_mutex_init(&s->pub_lock, NULL);

	if (!cfg->no_nvml && gt_nvml_api_load(&s->api, opt(s->nvml_lib), why,
	                                      sizeof(why)) == 0) {
		if (s->api.init() == NVML_SUCCESS)
			s->api_ready = true;
		else
			gt_nvml_api_unload(&s->api);
	}
	struct gt_control_config cc = {
	    .nvml = s->api_ready ? &s->api : NULL,
	    .vendors = gt_control_vendors,
	    .sysfs_root = opt(s->sysfs_root),
	    .state_path = s->state_path,
	    .audit_path = opt(s->audit_path),
	    .privileged = cfg->privileged,
	    .syslog = cfg->syslog,
	    .journal_saved = on_journal_saved,
	    .journal_ctx = s,
	};
	s->ctl = gt_control_new(&cc, err, len);
	if (!s->ctl) {
		gt_control_session_free(s);
		return NULL;
	}
	gt_control_session_publish_journal(s, gt_control_journal(s->ctl));
	atomic_store(&s->npending, gt_control_pending(s->ctl));
	return s;
}

void gt_control_session_free(struct gt_control_session *s)
{
	if (!s)
		return;
	/* A job that did not come back may still use all of it: left to it
	 * (the process is ending). */
	if (gt_control_session_stuck(s))
		return;
	gt_control_session_detach(s);
	/* Nothing in force: a normal end, which the guardian logs as such;
	 * otherwise the closed connection makes it restore what is left. */
	if (s->guardian && gt_control_pending(s->ctl) == 0)
		gt_guardian_finish(s->guardian);
	gt_guardian_free(s->guardian);
	gt_control_free(s->ctl);
	if (s->api_ready) {
		s->api.shutdown();
		gt_nvml_api_unload(&s->api);
	}
	free(s->loops);
	pthread_mutex_destroy(&s->pub_lock);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

static void hook(void *ctx, struct gt_collector *c, uint64_t now_ns)
{
	gt_control_session_tick(ctx, c, now_ns);
}

void gt_control_session_attach(struct gt_control_session *s,
                               struct gt_collector *c)
{
	if (gt_control_session_lock(s)) {
		s->col = c;
		if (s->guardian)
			gt_collector_set_max_sleep(c, LOOP_PERIOD_NS);
		gt_control_session_unlock(s);
	}
	gt_collector_set_hook(c, hook, s);
}

void gt_control_session_detach(struct gt_control_session *s)
{
	struct gt_collector *c = s->col;
	if (!c)
		return;
	gt_collector_set_hook(c, NULL, NULL);
	gt_collector_set_max_sleep(c, 0);
	/* Stuck: the session is left to the job, collector and all. */
	if (gt_control_session_lock(s)) {
		s->col = NULL;
		gt_control_session_unlock(s);
	}
}

const char *gt_control_session_readonly_reason(struct gt_control_session *s)
{
	return gt_control_readonly_reason(s->ctl);
}

size_t gt_control_session_pending(struct gt_control_session *s)
{
	return atomic_load(&s->npending);
}

const char *gt_control_session_state_path(struct gt_control_session *s)
{
	return s->state_path;
}

size_t gt_control_session_changes(struct gt_control_session *s, const char *dev,
                                  struct gt_restore_action *out, size_t max)
{
	size_t n = 0;

	/* The journal as last saved: no wait for a write in progress. */
	pthread_mutex_lock(&s->pub_lock);
	const struct gt_restore_journal *j = &s->pub_journal;
	for (size_t i = 0; i < j->n; i++) {
		if (strcasecmp(j->a[i].dev, dev) != 0)
			continue;
		if (n < max)
			out[n] = j->a[i];
		n++;
	}
	pthread_mutex_unlock(&s->pub_lock);
	return n;
}

int gt_control_session_caps(struct gt_control_session *s,
                            const struct gt_static *st,
                            struct gt_control_caps *caps)
{
	int rc = -1;
	if (gt_control_session_lock_quick(s, NULL)) {
		rc = gt_control_caps_read(s->ctl, st, caps);
		gt_control_session_unlock(s);
	} else {
		snprintf(caps->why, sizeof(caps->why), "%s",
		         gt_control_session_stuck(s)
		             ? gt_control_session_stuck_why
		             : "a write to the driver is in progress: try "
		               "again in a moment");
	}
	caps->slowdown_mc = st->f[GT_S_TEMP_SLOWDOWN].why == GT_WHY_OK
	                        ? st->f[GT_S_TEMP_SLOWDOWN].v
	                        : -1;
	return rc;
}

/* ---- applying ------------------------------------------------------ */

void gt_control_session_refuse(struct gt_control_result *res, const char *fmt,
                               ...)
{
	va_list ap;

	res->rc = GT_CONTROL_REFUSED;
	va_start(ap, fmt);
	vsnprintf(res->err, sizeof(res->err), fmt, ap);
	va_end(ap);
}

/* A change the device's vendor has no setter for: nothing is written. */
static void no_setter(struct gt_control_result *res, const char *what)
{
	gt_control_session_refuse(
	    res, "this device has no %s gputop can change", what);
}

static void applied_unsigned(struct gt_control_result *res, unsigned long v,
                             unsigned long asked, const char *unit)
{
	if (v == GT_CONTROL_UNREAD || v == (unsigned long)-1) {
		snprintf(res->applied, sizeof(res->applied), "unread");
		return;
	}
	snprintf(res->applied, sizeof(res->applied), "%lu %s", v, unit);
	res->differs = v != asked;
}

/* ---- one call per change kind (the lock is held) --------------------- */

static void apply_power_limit(struct gt_control_session *s,
                              const struct gt_control_ops *ops,
                              const struct gt_control_change *ch,
                              struct gt_control_result *res)
{
	const char *unit = ops->power_unit ? ops->power_unit : "";
	unsigned long got = 0;

	snprintf(res->asked, sizeof(res->asked), "%lld %s",
	         (long long)ch->value, unit);
	if (!ops->power_limit) {
		no_setter(res, "power limit");
		return;
	}
	res->rc = ops->power_limit(s->ctl, ch->dev, (unsigned long)ch->value,
	                           &got, res->err, sizeof(res->err));
	if (res->rc == GT_CONTROL_OK)
		applied_unsigned(res, got, (unsigned long)ch->value, unit);
}

static void apply_perf_level(struct gt_control_session *s,
                             const struct gt_control_ops *ops,
                             const struct gt_control_change *ch,
                             struct gt_control_result *res)
{
	char lvl[GT_CONTROL_LEVEL_MAX] = "";

	snprintf(res->asked, sizeof(res->asked), "%s", ch->text);
	if (!ops->perf_level) {
		no_setter(res, "performance level");
		return;
	}
	res->rc = ops->perf_level(s->ctl, ch->dev, ch->text, lvl, sizeof(lvl),
	                          res->err, sizeof(res->err));
	if (res->rc == GT_CONTROL_OK) {
		snprintf(res->applied, sizeof(res->applied), "%s",
		         lvl[0] ? lvl : "unread");
		res->differs = lvl[0] && strcmp(lvl, ch->text) != 0;
	}
}

static void apply_power_profile(struct gt_control_session *s,
                                const struct gt_control_ops *ops,
                                const struct gt_control_change *ch,
                                struct gt_control_result *res)
{
	int idx = -1;

	snprintf(res->asked, sizeof(res->asked), "profile %lld",
	         (long long)ch->value);
	if (!ops->power_profile) {
		no_setter(res, "power profile");
		return;
	}
	res->rc = ops->power_profile(s->ctl, ch->dev, (int)ch->value, &idx,
	                             res->err, sizeof(res->err));
	if (res->rc == GT_CONTROL_OK) {
		snprintf(res->applied, sizeof(res->applied),
		         idx < 0 ? "unread" : "profile %d", idx);
		res->differs = idx >= 0 && idx != (int)ch->value;
	}
}

static void apply_freq_limits(struct gt_control_session *s,
                              const struct gt_control_ops *ops,
                              const struct gt_control_change *ch,
                              struct gt_control_result *res)
{
	unsigned lo = 0, hi = 0;

	snprintf(res->asked, sizeof(res->asked), "%lld-%lld MHz",
	         (long long)ch->value, (long long)ch->value2);
	if (!ops->freq_limits) {
		no_setter(res, "frequency limits");
		return;
	}
	res->rc = ops->freq_limits(s->ctl, ch->dev, (unsigned)ch->value,
	                           (unsigned)ch->value2, &lo, &hi, res->err,
	                           sizeof(res->err));
	if (res->rc == GT_CONTROL_OK) {
		snprintf(res->applied, sizeof(res->applied), "%u-%u MHz", lo,
		         hi);
		res->differs =
		    lo != (unsigned)ch->value || hi != (unsigned)ch->value2;
	}
}

/* The loop stops, and each fan it concerns goes back to the firmware:
 * every driven fan where the vendor drives them one by one, else the
 * device's one fan control. */
static void apply_fan_auto(struct gt_control_session *s,
                           const struct gt_control_ops *ops,
                           const struct gt_control_change *ch,
                           struct gt_control_result *res)
{
	bool per_fan = ops->fan_per_index;
	unsigned n = per_fan ? gt_control_change_fans(ch) : 1;

	snprintf(res->asked, sizeof(res->asked), "automatic");
	gt_control_session_loop_stop(s, ch->device);
	if (!ops->fan_auto) {
		no_setter(res, "fan control");
		return;
	}
	for (unsigned f = 0; f < n; f++) {
		if (per_fan && !gt_control_change_drives_fan(ch, f))
			continue;
		res->rc = ops->fan_auto(s->ctl, ch->dev, f, res->err,
		                        sizeof(res->err));
		if (res->rc != GT_CONTROL_OK)
			return;
	}
	snprintf(res->applied, sizeof(res->applied), "automatic");
}

/* A curve the device's firmware runs: no loop, but the fan dialog shows
 * it as gputop's. */
static void firmware_curve(struct gt_control_session *s,
                           const struct gt_control_ops *ops,
                           const struct gt_control_change *ch,
                           struct gt_control_result *res)
{
	struct gt_fancurve got = {0};
	struct session_loop *l;

	gt_control_session_loop_stop(s, ch->device);
	if (!ops->fan_curve) {
		no_setter(res, "firmware fan curve");
		return;
	}
	res->rc = ops->fan_curve(s->ctl, ch->dev, &ch->curve, &got, res->err,
	                         sizeof(res->err));
	if (res->rc != GT_CONTROL_OK)
		return;
	if ((l = gt_control_session_loop(s, ch->device)) != NULL) {
		l->st.firmware = true;
		l->st.curve = ch->curve;
	}
	res->differs = memcmp(got.pt, ch->curve.pt,
	                      ch->curve.n * sizeof(got.pt[0])) != 0 ||
	               got.n != ch->curve.n;
	snprintf(res->applied, sizeof(res->applied), "firmware curve %s",
	         res->differs ? "differs" : "as asked");
}

static void apply_fan_curve(struct gt_control_session *s,
                            const struct gt_control_ops *ops,
                            const struct gt_control_change *ch,
                            struct gt_control_result *res)
{
	snprintf(res->asked, sizeof(res->asked), "fan curve");
	if (ch->fan_method == GT_FAN_METHOD_AMD_FIRMWARE)
		firmware_curve(s, ops, ch, res);
	else if (ch->fan_method == GT_FAN_METHOD_NONE)
		gt_control_session_refuse(
		    res, "this device has no fan gputop can control");
	else
		gt_control_session_loop_start(s, ops, ch, res);
}

typedef void apply_fn(struct gt_control_session *s,
                      const struct gt_control_ops *ops,
                      const struct gt_control_change *ch,
                      struct gt_control_result *res);

static apply_fn *const appliers[] = {
    [GT_CHANGE_POWER_LIMIT] = apply_power_limit,
    [GT_CHANGE_PERF_LEVEL] = apply_perf_level,
    [GT_CHANGE_POWER_PROFILE] = apply_power_profile,
    [GT_CHANGE_FREQ_LIMITS] = apply_freq_limits,
    [GT_CHANGE_FAN_AUTO] = apply_fan_auto,
    [GT_CHANGE_FAN_CURVE] = apply_fan_curve,
};

/* The change through its kind's call and its vendor's ops; the lock is
 * held. */
static void apply_locked(struct gt_control_session *s,
                         const struct gt_control_change *ch,
                         struct gt_control_result *res)
{
	const struct gt_control_ops *ops =
	    gt_control_vendor_ops(s->ctl, ch->vendor);
	size_t k = (size_t)ch->kind;

	if (k >= sizeof(appliers) / sizeof(appliers[0]) || !appliers[k])
		gt_control_session_refuse(res, "unknown change kind %zu", k);
	else if (!ops)
		gt_control_session_refuse(
		    res, "gputop changes settings of NVIDIA, AMD and Intel "
		         "GPUs only");
	else
		appliers[k](s, ops, ch, res);
	if (res->rc == GT_CONTROL_OK || res->rc == GT_CONTROL_FAILED)
		s->changed |= gt_control_pending(s->ctl) > 0;
}

int gt_control_session_apply(struct gt_control_session *s,
                             const struct gt_control_change *ch,
                             struct gt_control_result *res)
{
	memset(res, 0, sizeof(*res));
	/* The first change forks the guardian, which initialises NVML
	 * afresh: no collector thread may be inside the library then (a lock
	 * it held would stay held in the child). Same order as a tick: the
	 * tick lock, then ours (the hook takes ours inside a tick). s->col is
	 * only changed by attach/detach on this thread. */
	struct gt_collector *quiet = NULL;
	if (!gt_control_session_lock(s)) {
		gt_control_session_refuse(res, "%s",
		                          gt_control_session_stuck_why);
		return res->rc;
	}
	if (!s->guardian && s->col)
		quiet = s->col;
	gt_control_session_unlock(s);
	if (quiet)
		gt_collector_quiesce(quiet);
	if (!gt_control_session_lock(s)) {
		if (quiet)
			gt_collector_resume(quiet);
		gt_control_session_refuse(res, "%s",
		                          gt_control_session_stuck_why);
		return res->rc;
	}
	s->quiesced = quiet; /* on_journal_saved resumes it after the fork */
	apply_locked(s, ch, res);
	bool loops = s->guardian != NULL;
	struct gt_collector *col = s->col;
	quiet = s->quiesced; /* still held: nothing was forked */
	s->quiesced = NULL;
	gt_control_session_unlock(s);
	if (quiet)
		gt_collector_resume(quiet);
	if (loops && col)
		gt_collector_set_max_sleep(col, LOOP_PERIOD_NS);
	return res->rc;
}

size_t gt_control_session_apply_list(struct gt_control_session *s,
                                     const struct gt_control_change *ch,
                                     const struct gt_control_change *rev,
                                     const bool *rev_known, size_t n,
                                     struct gt_control_result *res)
{
	size_t i;
	for (i = 0; i < n; i++) {
		if (gt_control_session_apply(s, &ch[i], &res[i]) ==
		    GT_CONTROL_OK)
			continue;
		/* All or nothing: undo what went before (and a partial
		 * write of this one), newest first. */
		struct gt_control_result undo[1];
		for (size_t k = i + 1; k-- > 0;) {
			if (k == i && res[i].rc == GT_CONTROL_REFUSED)
				continue; /* refused: nothing was written */
			gt_control_session_revert_list(s, &rev[k],
			                               &rev_known[k], 1, undo);
		}
		return i + 1;
	}
	return n;
}

size_t gt_control_session_revert_list(struct gt_control_session *s,
                                      const struct gt_control_change *rev,
                                      const bool *rev_known, size_t n,
                                      struct gt_control_result *res)
{
	for (size_t k = n; k-- > 0;) {
		if (rev_known[k] || rev[k].kind == GT_CHANGE_FAN_AUTO) {
			gt_control_session_apply(s, &rev[k], &res[k]);
			continue;
		}
		memset(&res[k], 0, sizeof(res[k]));
		res[k].rc = GT_CONTROL_REFUSED;
		snprintf(res[k].err, sizeof(res[k].err),
		         "the value before the change could not be read: the "
		         "original comes back when gputop exits");
	}
	return n;
}

bool gt_control_session_changed(struct gt_control_session *s)
{
	return atomic_load(&s->changed_pub);
}

void gt_control_session_take_notice(struct gt_control_session *s, char *out,
                                    size_t len)
{
	if (len)
		out[0] = '\0';
	if (!atomic_load(&s->notice_pub))
		return;
	pthread_mutex_lock(&s->pub_lock);
	snprintf(out, len, "%s", s->pub_notice);
	s->pub_notice[0] = '\0';
	atomic_store(&s->notice_pub, false);
	pthread_mutex_unlock(&s->pub_lock);
}

/* The tick's body, the lock held: the loops' step (a job of its own when
 * a loop runs), then the guardian's heartbeat. */
void gt_control_session_tick_locked(struct gt_control_session *s,
                                    struct gt_collector *c, uint64_t now_ns)
{
	gt_control_session_loops_tick(s, c, now_ns);
	if (s->guardian && gt_guardian_heartbeat(s->guardian) < 0 &&
	    errno == EPIPE) {
		/* The guardian restored everything (gputop was stopped or
		 * hung for too long): the settings are reverted. */
		for (size_t i = 0; i < s->nloops; i++)
			gt_control_session_loop_stop(s, i);
		gt_guardian_free(s->guardian);
		s->guardian = NULL;
		snprintf(s->notice, sizeof(s->notice),
		         "the guardian restored the original settings "
		         "(gputop did not answer for %llu s)",
		         (unsigned long long)((s->cfg.guardian_timeout_ns
		                                   ? s->cfg.guardian_timeout_ns
		                                   : GT_GUARDIAN_TIMEOUT_NS) /
		                              1000000000ull));
	}
}

int gt_control_session_restore_all(struct gt_control_session *s, char *report,
                                   size_t len)
{
	int rc = 0;

	if (len)
		report[0] = '\0';
	if (!gt_control_session_lock(s)) {
		snprintf(report, len, "%s", gt_control_session_stuck_why);
		return -1;
	}
	for (size_t i = 0; i < s->nloops; i++)
		gt_control_session_loop_stop(s, i);
	if (gt_control_pending(s->ctl) > 0)
		rc = gt_control_restore_all(s->ctl, report, len);
	if (s->guardian && rc == 0) {
		gt_guardian_finish(s->guardian);
		gt_guardian_free(s->guardian);
		s->guardian = NULL;
	}
	gt_control_session_unlock(s);
	return rc;
}

int gt_control_session_release(struct gt_control_session *s)
{
	if (!gt_control_session_lock(s))
		return -1;
	for (size_t i = 0; i < s->nloops; i++)
		gt_control_session_loop_stop(s, i);
	int rc = gt_control_forget(s->ctl);
	if (rc == 0 && s->guardian) {
		gt_guardian_finish(s->guardian);
		gt_guardian_free(s->guardian);
		s->guardian = NULL;
	}
	s->changed = false;
	gt_control_session_unlock(s);
	return rc;
}

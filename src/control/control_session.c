/* SPDX-License-Identifier: MIT */
/*
 * ctlsession.c - the control session (ctlsession.h): owns the struct
 * gt_control, the NVML handle the setters use, the guardian process and
 * the software fan loops. One mutex serialises everything that reaches the
 * control (it is not thread-safe): dialogs on the UI thread, the loops on
 * the collector thread.
 */
#include "control/control_session.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/collector.h"
#include "control/guardian.h"
#include "collectors/nvml_api.h"

#define LOOP_PERIOD_NS 1000000000ull /* fan loops and heartbeats: 1 s */

struct loop {
	bool active;
	bool firmware; /* AMD firmware curve in force (set by gputop) */
	enum gt_fan_method method;
	char dev[GT_RESTORE_PATH_MAX];
	unsigned fan_mask, fan_count;
	int64_t panic_mc;
	struct gt_fancurve curve;
	struct gt_fanloop fl[GT_MAX_FANS]; /* NVML: per fan; AMD: fl[0] */
	struct gt_control_loop_status st;
	uint64_t last_seq;
	bool have_seq;
};

struct gt_control_session {
	pthread_mutex_t lock;
	struct gt_control_session_config cfg;
	char nvml_lib[GT_RESTORE_PATH_MAX];
	char sysfs_root[GT_RESTORE_PATH_MAX];
	char state_path[GT_RESTORE_PATH_MAX];
	char audit_path[GT_RESTORE_PATH_MAX];
	char guardian_log[GT_RESTORE_PATH_MAX + 16];
	struct gt_nvml_api api;
	bool api_ready;
	struct gt_control *ctl;
	struct gt_guardian *guardian;
	struct gt_collector *col;
	struct loop *loops; /* by device index */
	size_t nloops;
	char notice[GT_CONTROL_RESULT_MAX + 32];
	bool changed;
};

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

	if (!cfg->no_nvml && gt_nvml_api_load(&s->api, opt(s->nvml_lib), why,
	                                      sizeof(why)) == 0) {
		if (s->api.init() == NVML_SUCCESS)
			s->api_ready = true;
		else
			gt_nvml_api_unload(&s->api);
	}
	struct gt_control_config cc = {
	    .nvml = s->api_ready ? &s->api : NULL,
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
	return s;
}

void gt_control_session_free(struct gt_control_session *s)
{
	if (!s)
		return;
	gt_control_session_detach(s);
	gt_guardian_free(s->guardian);
	gt_control_free(s->ctl);
	if (s->api_ready) {
		s->api.shutdown();
		gt_nvml_api_unload(&s->api);
	}
	free(s->loops);
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
	pthread_mutex_lock(&s->lock);
	s->col = c;
	if (s->guardian)
		gt_collector_set_max_sleep(c, LOOP_PERIOD_NS);
	pthread_mutex_unlock(&s->lock);
	gt_collector_set_hook(c, hook, s);
}

void gt_control_session_detach(struct gt_control_session *s)
{
	struct gt_collector *c = s->col;
	if (!c)
		return;
	gt_collector_set_hook(c, NULL, NULL);
	gt_collector_set_max_sleep(c, 0);
	pthread_mutex_lock(&s->lock);
	s->col = NULL;
	pthread_mutex_unlock(&s->lock);
}

const char *gt_control_session_readonly_reason(struct gt_control_session *s)
{
	return gt_control_readonly_reason(s->ctl);
}

size_t gt_control_session_pending(struct gt_control_session *s)
{
	pthread_mutex_lock(&s->lock);
	size_t n = gt_control_pending(s->ctl);
	pthread_mutex_unlock(&s->lock);
	return n;
}

const char *gt_control_session_state_path(struct gt_control_session *s)
{
	return s->state_path;
}

int gt_control_session_caps(struct gt_control_session *s,
                            const struct gt_static *st,
                            struct gt_control_caps *caps)
{
	pthread_mutex_lock(&s->lock);
	int rc = gt_control_caps_read(s->ctl, st, caps);
	pthread_mutex_unlock(&s->lock);
	caps->slowdown_mc = st->f[GT_S_TEMP_SLOWDOWN].why == GT_WHY_OK
	                        ? st->f[GT_S_TEMP_SLOWDOWN].v
	                        : -1;
	return rc;
}

/* ---- applying ------------------------------------------------------ */

static struct loop *loop_for(struct gt_control_session *s, size_t device)
{
	if (device >= s->nloops) {
		size_t n = device + 1;
		struct loop *l = realloc(s->loops, n * sizeof(*l));
		if (!l)
			return NULL;
		memset(l + s->nloops, 0, (n - s->nloops) * sizeof(*l));
		s->loops = l;
		s->nloops = n;
	}
	return &s->loops[device];
}

static int64_t temp_of(const struct gt_sample *smp, enum gt_fan_method m)
{
	/* The AMD firmware curves follow the hotspot (junction) sensor;
	 * follow the same one where the card has it. */
	if (m != GT_FAN_METHOD_NVML_LOOP &&
	    smp->f[GT_F_TEMP_HOTSPOT].why == GT_WHY_OK)
		return smp->f[GT_F_TEMP_HOTSPOT].v;
	if (smp->f[GT_F_TEMP_GPU].why == GT_WHY_OK)
		return smp->f[GT_F_TEMP_GPU].v;
	return GT_FAN_TEMP_INVALID;
}

/* Carries out one decision for fan f (AMD: the hwmon fan). */
static int loop_write(struct gt_control_session *s, struct loop *l, unsigned f,
                      const struct gt_fan_decision *d, char *err, size_t len)
{
	unsigned applied = 0;
	int rc = GT_CONTROL_OK;

	if (d->action == GT_FAN_KEEP)
		return 0;
	if (l->method == GT_FAN_METHOD_NVML_LOOP) {
		if (d->action == GT_FAN_AUTO)
			rc = gt_control_nvml_fan_auto(s->ctl, l->dev, f, err,
			                              len);
		else
			rc = gt_control_nvml_fan_speed(
			    s->ctl, l->dev, f, (unsigned)(d->cpercent / 100),
			    &applied, err, len);
	} else {
		if (d->action == GT_FAN_AUTO)
			rc = gt_control_amd_fan_auto(s->ctl, l->dev, err, len);
		else
			rc = gt_control_amd_fan_pwm(
			    s->ctl, l->dev, (unsigned)(d->cpercent / 100),
			    &applied, err, len);
	}
	if (rc != GT_CONTROL_OK)
		gt_fanloop_write_failed(&l->fl[f]);
	return rc;
}

/* One step of one loop with one reading; the lock is held. */
static void loop_step(struct gt_control_session *s, struct loop *l,
                      int64_t temp, uint64_t now_ns)
{
	char err[GT_CONTROL_RESULT_MAX];
	unsigned nf = l->method == GT_FAN_METHOD_NVML_LOOP ? l->fan_count : 1;

	for (unsigned f = 0; f < nf && f < GT_MAX_FANS; f++) {
		if (l->method == GT_FAN_METHOD_NVML_LOOP && l->fan_mask &&
		    !(l->fan_mask & (1u << f)))
			continue;
		struct gt_fan_decision d;
		gt_fanloop_step(&l->fl[f], &l->curve, temp, now_ns, &d);
		err[0] = '\0';
		if (loop_write(s, l, f, &d, err, sizeof(err)) != 0)
			snprintf(s->notice, sizeof(s->notice), "fan loop: %s",
			         err);
		else if (d.action == GT_FAN_AUTO &&
		         (d.reason == GT_FAN_R_PANIC_THRESHOLD ||
		          d.reason == GT_FAN_R_SENSOR_FAILED))
			snprintf(s->notice, sizeof(s->notice),
			         "fan handed back to automatic: %s",
			         d.reason == GT_FAN_R_PANIC_THRESHOLD
			             ? "temperature at the slowdown threshold"
			             : "temperature sensor failed");
		l->st.temp_mc = temp;
		l->st.target_cpercent = d.target_cpercent;
		l->st.applied_cpercent = d.cpercent;
		l->st.reason = d.reason;
	}
}

static int collector_sample(struct gt_control_session *s, size_t device,
                            struct gt_sample *smp)
{
	return s->col ? gt_collector_latest(s->col, device, smp) : -1;
}

static void start_loop(struct gt_control_session *s,
                       const struct gt_control_change *ch,
                       struct gt_control_result *res)
{
	struct loop *l = loop_for(s, ch->device);
	char err[GT_CONTROL_RESULT_MAX] = "";

	if (!l) {
		res->rc = GT_CONTROL_REFUSED;
		snprintf(res->err, sizeof(res->err), "out of memory");
		return;
	}
	if (gt_fancurve_validate(&ch->curve, err, sizeof(err)) < 0) {
		res->rc = GT_CONTROL_REFUSED;
		snprintf(res->err, sizeof(res->err), "%s", err);
		return;
	}
	struct loop fresh = {0};
	fresh.method = ch->fan_method;
	copy(fresh.dev, sizeof(fresh.dev), ch->dev);
	fresh.fan_mask = ch->fan_mask;
	fresh.fan_count = gt_control_change_fans(ch);
	fresh.curve = ch->curve;
	for (unsigned f = 0; f < GT_MAX_FANS; f++)
		if (gt_fanloop_init(&fresh.fl[f], &ch->loop, err, sizeof(err)) <
		    0) {
			res->rc = GT_CONTROL_REFUSED;
			snprintf(res->err, sizeof(res->err), "%s", err);
			return;
		}
	fresh.active = true;
	fresh.st.active = true;
	fresh.st.curve = ch->curve;
	*l = fresh;
	/* First step now, so the dialog reads back a real result. */
	struct gt_sample smp;
	int64_t temp = GT_FAN_TEMP_INVALID;
	if (collector_sample(s, ch->device, &smp) == 0)
		temp = temp_of(&smp, l->method);
	s->notice[0] = '\0';
	loop_step(s, l, temp, gt_monotonic_ns());
	if (s->notice[0] && strncmp(s->notice, "fan loop: ", 10) == 0) {
		res->rc = GT_CONTROL_FAILED;
		snprintf(res->err, sizeof(res->err), "%s", s->notice + 10);
		s->notice[0] = '\0';
		l->active = false;
		l->st.active = false;
		return;
	}
	if (l->st.applied_cpercent < 0)
		snprintf(res->applied, sizeof(res->applied),
		         "curve running; now automatic (%s)",
		         gt_fan_reason_name(l->st.reason));
	else
		snprintf(res->applied, sizeof(res->applied),
		         "curve running; now %d %%",
		         l->st.applied_cpercent / 100);
}

static void stop_loop(struct gt_control_session *s, size_t device)
{
	if (device < s->nloops) {
		s->loops[device].active = false;
		s->loops[device].firmware = false;
		s->loops[device].st.active = false;
	}
}

static void fan_auto(struct gt_control_session *s,
                     const struct gt_control_change *ch,
                     struct gt_control_result *res)
{
	stop_loop(s, ch->device);
	if (ch->fan_method == GT_FAN_METHOD_NVML_LOOP) {
		for (unsigned f = 0; f < gt_control_change_fans(ch); f++) {
			if (!gt_control_change_drives_fan(ch, f))
				continue;
			res->rc = gt_control_nvml_fan_auto(
			    s->ctl, ch->dev, f, res->err, sizeof(res->err));
			if (res->rc != GT_CONTROL_OK)
				return;
		}
	} else {
		res->rc = gt_control_amd_fan_auto(s->ctl, ch->dev, res->err,
		                                  sizeof(res->err));
	}
	if (res->rc == GT_CONTROL_OK)
		snprintf(res->applied, sizeof(res->applied), "automatic");
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
	pthread_mutex_lock(&s->lock);
	if (!s->guardian && s->col)
		quiet = s->col;
	pthread_mutex_unlock(&s->lock);
	if (quiet)
		gt_collector_quiesce(quiet);
	pthread_mutex_lock(&s->lock);
	switch (ch->kind) {
	case GT_CHANGE_POWER_LIMIT:
		if (ch->vendor == GT_VENDOR_NVIDIA) {
			unsigned mw = 0;
			snprintf(res->asked, sizeof(res->asked), "%lld mW",
			         (long long)ch->value);
			res->rc = gt_control_nvml_power_limit(
			    s->ctl, ch->dev, (unsigned)ch->value, &mw, res->err,
			    sizeof(res->err));
			if (res->rc == GT_CONTROL_OK)
				applied_unsigned(
				    res, mw, (unsigned long)ch->value, "mW");
		} else {
			unsigned long uw = 0;
			snprintf(res->asked, sizeof(res->asked), "%lld µW",
			         (long long)ch->value);
			res->rc =
			    ch->vendor == GT_VENDOR_AMD
			        ? gt_control_amd_power_cap(
			              s->ctl, ch->dev, (unsigned long)ch->value,
			              &uw, res->err, sizeof(res->err))
			        : gt_control_intel_power_limit(
			              s->ctl, ch->dev, (unsigned long)ch->value,
			              &uw, res->err, sizeof(res->err));
			if (res->rc == GT_CONTROL_OK)
				applied_unsigned(
				    res, uw, (unsigned long)ch->value, "µW");
		}
		break;
	case GT_CHANGE_PERF_LEVEL: {
		char lvl[GT_CONTROL_LEVEL_MAX] = "";
		snprintf(res->asked, sizeof(res->asked), "%s", ch->text);
		res->rc = gt_control_amd_perf_level(s->ctl, ch->dev, ch->text,
		                                    lvl, sizeof(lvl), res->err,
		                                    sizeof(res->err));
		if (res->rc == GT_CONTROL_OK) {
			snprintf(res->applied, sizeof(res->applied), "%s",
			         lvl[0] ? lvl : "unread");
			res->differs = lvl[0] && strcmp(lvl, ch->text) != 0;
		}
		break;
	}
	case GT_CHANGE_POWER_PROFILE: {
		int idx = -1;
		snprintf(res->asked, sizeof(res->asked), "profile %lld",
		         (long long)ch->value);
		res->rc = gt_control_amd_power_profile(
		    s->ctl, ch->dev, (int)ch->value, &idx, res->err,
		    sizeof(res->err));
		if (res->rc == GT_CONTROL_OK) {
			snprintf(res->applied, sizeof(res->applied),
			         idx < 0 ? "unread" : "profile %d", idx);
			res->differs = idx >= 0 && idx != (int)ch->value;
		}
		break;
	}
	case GT_CHANGE_FREQ_LIMITS: {
		unsigned lo = 0, hi = 0;
		snprintf(res->asked, sizeof(res->asked), "%lld-%lld MHz",
		         (long long)ch->value, (long long)ch->value2);
		res->rc = gt_control_intel_freq_limits(
		    s->ctl, ch->dev, (unsigned)ch->value, (unsigned)ch->value2,
		    &lo, &hi, res->err, sizeof(res->err));
		if (res->rc == GT_CONTROL_OK) {
			snprintf(res->applied, sizeof(res->applied),
			         "%u-%u MHz", lo, hi);
			res->differs = lo != (unsigned)ch->value ||
			               hi != (unsigned)ch->value2;
		}
		break;
	}
	case GT_CHANGE_FAN_AUTO:
		snprintf(res->asked, sizeof(res->asked), "automatic");
		fan_auto(s, ch, res);
		break;
	case GT_CHANGE_FAN_CURVE:
		snprintf(res->asked, sizeof(res->asked), "fan curve");
		if (ch->fan_method == GT_FAN_METHOD_AMD_FIRMWARE) {
			struct gt_fancurve got = {0};
			stop_loop(s, ch->device);
			res->rc = gt_control_amd_fan_curve(
			    s->ctl, ch->dev, &ch->curve, &got, res->err,
			    sizeof(res->err));
			if (res->rc == GT_CONTROL_OK) {
				struct loop *l = loop_for(s, ch->device);
				if (l) {
					l->firmware = true;
					l->st.firmware = true;
					l->st.curve = ch->curve;
				}
				res->differs =
				    memcmp(got.pt, ch->curve.pt,
				           ch->curve.n * sizeof(got.pt[0])) !=
				        0 ||
				    got.n != ch->curve.n;
				snprintf(res->applied, sizeof(res->applied),
				         "firmware curve %s",
				         res->differs ? "differs" : "as asked");
			}
		} else if (ch->fan_method == GT_FAN_METHOD_NONE) {
			res->rc = GT_CONTROL_REFUSED;
			snprintf(res->err, sizeof(res->err),
			         "this device has no fan gputop can control");
		} else {
			start_loop(s, ch, res);
		}
		break;
	}
	if (res->rc == GT_CONTROL_OK || res->rc == GT_CONTROL_FAILED)
		s->changed |= gt_control_pending(s->ctl) > 0;
	bool loops = s->guardian != NULL;
	struct gt_collector *col = s->col;
	pthread_mutex_unlock(&s->lock);
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
	pthread_mutex_lock(&s->lock);
	bool c = s->changed;
	pthread_mutex_unlock(&s->lock);
	return c;
}

void gt_control_session_loop_status(struct gt_control_session *s, size_t device,
                                    struct gt_control_loop_status *out)
{
	memset(out, 0, sizeof(*out));
	out->applied_cpercent = -1;
	out->target_cpercent = -1;
	out->temp_mc = GT_FAN_TEMP_INVALID;
	pthread_mutex_lock(&s->lock);
	if (device < s->nloops)
		*out = s->loops[device].st;
	pthread_mutex_unlock(&s->lock);
}

void gt_control_session_take_notice(struct gt_control_session *s, char *out,
                                    size_t len)
{
	pthread_mutex_lock(&s->lock);
	snprintf(out, len, "%s", s->notice);
	s->notice[0] = '\0';
	pthread_mutex_unlock(&s->lock);
}

void gt_control_session_tick(struct gt_control_session *s,
                             struct gt_collector *c, uint64_t now_ns)
{
	pthread_mutex_lock(&s->lock);
	for (size_t i = 0; i < s->nloops; i++) {
		struct loop *l = &s->loops[i];
		struct gt_sample smp;
		int64_t temp = GT_FAN_TEMP_INVALID;
		if (!l->active)
			continue;
		/* A sample that did not move on (lost device, collector
		 * behind) is a failed read: the panic rule applies. */
		if (gt_collector_latest(c, i, &smp) == 0) {
			if (smp.state != GT_DEV_LOST &&
			    (!l->have_seq || smp.seq != l->last_seq))
				temp = temp_of(&smp, l->method);
			l->last_seq = smp.seq;
			l->have_seq = true;
		}
		loop_step(s, l, temp, now_ns);
	}
	if (s->guardian && gt_guardian_heartbeat(s->guardian) < 0 &&
	    errno == EPIPE) {
		/* The guardian restored everything (gputop was stopped or
		 * hung for too long): the settings are reverted. */
		for (size_t i = 0; i < s->nloops; i++)
			stop_loop(s, i);
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
	pthread_mutex_unlock(&s->lock);
}

int gt_control_session_restore_all(struct gt_control_session *s, char *report,
                                   size_t len)
{
	int rc = 0;

	if (len)
		report[0] = '\0';
	pthread_mutex_lock(&s->lock);
	for (size_t i = 0; i < s->nloops; i++)
		stop_loop(s, i);
	if (gt_control_pending(s->ctl) > 0)
		rc = gt_control_restore_all(s->ctl, report, len);
	if (s->guardian && rc == 0) {
		gt_guardian_finish(s->guardian);
		gt_guardian_free(s->guardian);
		s->guardian = NULL;
	}
	pthread_mutex_unlock(&s->lock);
	return rc;
}

int gt_control_session_release(struct gt_control_session *s)
{
	pthread_mutex_lock(&s->lock);
	for (size_t i = 0; i < s->nloops; i++)
		stop_loop(s, i);
	int rc = gt_control_forget(s->ctl);
	if (rc == 0 && s->guardian) {
		gt_guardian_finish(s->guardian);
		gt_guardian_free(s->guardian);
		s->guardian = NULL;
	}
	s->changed = false;
	pthread_mutex_unlock(&s->lock);
	return rc;
}

/* SPDX-License-Identifier: MIT */
/*
 * control_session_loop.c - the control session's software fan loops (see
 * control_session.h): one per device whose fan gputop drives by a curve,
 * stepped by the collector thread's tick hook with the newest sample, each
 * decision (fancurve.h) written through the ops of the device's vendor
 * (fan_speed, fan_auto). The session's lock is held for everything here.
 */
#include "control/control_session_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control/control_priv.h"
#include "core/clock.h"
#include "core/collector.h"

struct session_loop *gt_control_session_loop(struct gt_control_session *s,
                                             size_t device)
{
	if (device >= s->nloops) {
		size_t n = device + 1;
		struct session_loop *l = realloc(s->loops, n * sizeof(*l));
		if (!l)
			return NULL;
		memset(l + s->nloops, 0, (n - s->nloops) * sizeof(*l));
		s->loops = l;
		s->nloops = n;
	}
	return &s->loops[device];
}

/* The reading a loop follows: the hotspot sensor where the vendor's loop
 * does and the device has one, else the GPU temperature. */
static int64_t temp_of(const struct gt_sample *smp,
                       const struct gt_control_ops *ops)
{
	if (ops->fan_loop_hotspot && smp->f[GT_F_TEMP_HOTSPOT].why == GT_WHY_OK)
		return smp->f[GT_F_TEMP_HOTSPOT].v;
	if (smp->f[GT_F_TEMP_GPU].why == GT_WHY_OK)
		return smp->f[GT_F_TEMP_GPU].v;
	return GT_FAN_TEMP_INVALID;
}

/* Carries out one decision for fan f through the vendor's ops. */
static int loop_write(struct gt_control_session *s, struct session_loop *l,
                      unsigned f, const struct gt_fan_decision *d, char *err,
                      size_t len)
{
	unsigned applied = 0;
	int rc;

	if (d->action == GT_FAN_KEEP)
		return 0;
	/* Audited as a loop's: summarised, not a line a step. */
	gt_control_audit_loop(s->ctl, (unsigned)(l - s->loops) + 1);
	if (d->action == GT_FAN_AUTO)
		rc = l->ops->fan_auto(s->ctl, l->dev, f, err, len);
	else
		rc = l->ops->fan_speed(s->ctl, l->dev, f,
		                       (unsigned)(d->cpercent / 100), &applied,
		                       err, len);
	gt_control_audit_loop(s->ctl, 0);
	if (rc != GT_CONTROL_OK)
		gt_fanloop_write_failed(&l->fl[f]);
	return rc;
}

/* One step of one loop with one reading; the lock is held. */
static void loop_step(struct gt_control_session *s, struct session_loop *l,
                      int64_t temp, uint64_t now_ns)
{
	char err[GT_CONTROL_RESULT_MAX];
	bool per_fan = l->ops->fan_per_index;
	unsigned nf = per_fan ? l->fan_count : 1;

	for (unsigned f = 0; f < nf && f < GT_MAX_FANS; f++) {
		if (per_fan && l->fan_mask && !(l->fan_mask & (1u << f)))
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

/* The loop as ch asks for it, or -1 with res refused. */
static int new_loop(const struct gt_control_ops *ops,
                    const struct gt_control_change *ch,
                    struct session_loop *fresh, struct gt_control_result *res)
{
	char err[GT_CONTROL_RESULT_MAX] = "";

	if (gt_fancurve_validate(&ch->curve, err, sizeof(err)) < 0) {
		gt_control_session_refuse(res, "%s", err);
		return -1;
	}
	*fresh = (struct session_loop){0};
	fresh->ops = ops;
	snprintf(fresh->dev, sizeof(fresh->dev), "%s", ch->dev);
	fresh->fan_mask = ch->fan_mask;
	fresh->fan_count = gt_control_change_fans(ch);
	fresh->curve = ch->curve;
	for (unsigned f = 0; f < GT_MAX_FANS; f++)
		if (gt_fanloop_init(&fresh->fl[f], &ch->loop, err,
		                    sizeof(err)) < 0) {
			gt_control_session_refuse(res, "%s", err);
			return -1;
		}
	fresh->active = true;
	fresh->st.active = true;
	fresh->st.curve = ch->curve;
	return 0;
}

void gt_control_session_loop_start(struct gt_control_session *s,
                                   const struct gt_control_ops *ops,
                                   const struct gt_control_change *ch,
                                   struct gt_control_result *res)
{
	struct session_loop *l = gt_control_session_loop(s, ch->device);
	struct session_loop fresh;

	if (!l) {
		gt_control_session_refuse(res, "out of memory");
		return;
	}
	if (!ops->fan_speed || !ops->fan_auto) {
		gt_control_session_refuse(
		    res, "this device has no fan gputop can control");
		return;
	}
	if (new_loop(ops, ch, &fresh, res) < 0)
		return;
	*l = fresh;
	/* First step now, so the dialog reads back a real result. */
	struct gt_sample smp;
	int64_t temp = GT_FAN_TEMP_INVALID;
	if (collector_sample(s, ch->device, &smp) == 0)
		temp = temp_of(&smp, l->ops);
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

void gt_control_session_loop_stop(struct gt_control_session *s, size_t device)
{
	if (device < s->nloops) {
		if (s->loops[device].active)
			gt_control_audit_loop_end(s->ctl, (unsigned)device + 1);
		s->loops[device].active = false;
		s->loops[device].st.active = false;
		s->loops[device].st.firmware = false;
	}
}

void gt_control_session_loops_tick(struct gt_control_session *s,
                                   struct gt_collector *c, uint64_t now_ns)
{
	for (size_t i = 0; i < s->nloops; i++) {
		struct session_loop *l = &s->loops[i];
		struct gt_sample smp;
		int64_t temp = GT_FAN_TEMP_INVALID;
		if (!l->active)
			continue;
		/* A sample that did not move on (lost device, collector
		 * behind) is a failed read: the panic rule applies. */
		if (gt_collector_latest(c, i, &smp) == 0) {
			if (smp.state != GT_DEV_LOST &&
			    (!l->have_seq || smp.seq != l->last_seq))
				temp = temp_of(&smp, l->ops);
			l->last_seq = smp.seq;
			l->have_seq = true;
		}
		loop_step(s, l, temp, now_ns);
	}
}

void gt_control_session_loop_status(struct gt_control_session *s, size_t device,
                                    struct gt_control_loop_status *out)
{
	memset(out, 0, sizeof(*out));
	out->applied_cpercent = -1;
	out->target_cpercent = -1;
	out->temp_mc = GT_FAN_TEMP_INVALID;
	/* A write that holds the lock (a driver that does not answer): the
	 * loop's state is not known now, and none is shown. */
	if (!gt_control_session_lock_quick(s, NULL))
		return;
	if (device < s->nloops)
		*out = s->loops[device].st;
	gt_control_session_unlock(s);
}

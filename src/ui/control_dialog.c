/* SPDX-License-Identifier: MIT */
/*
 * control_dialog.c - the power and fan dialogs (control_dialog.h):
 * fields, presets, the plan of changes with its reverts, and keys (the
 * drawing is control_dialog_draw.c). It changes nothing itself: the
 * dashboard applies what the dialog asks for.
 */
#include "ui/control_dialog.h"
#include "ui/control_dialog_priv.h"

#include <stdio.h>
#include <string.h>

#include "control/control_amdgpu.h"

static const char *const preset_names[GT_POWER__COUNT] = {
    "Max performance", "Balanced", "Power saver", "Custom", "Auto"};

const char *gt_power_preset_name(enum gt_power_preset p)
{
	return (unsigned)p < GT_POWER__COUNT ? preset_names[p] : "?";
}

int gt_control_dialog_fields(const struct gt_control_dialog *d,
                             enum gt_control_dialog_field *out)
{
	int n = 0;
	const struct gt_control_caps *c = &d->caps;

	if (d->kind == GT_CONTROL_DIALOG_POWER) {
		out[n++] = F_PRESET;
		if (c->vendor == GT_VENDOR_AMD && c->has_level)
			out[n++] = F_LEVEL;
		if (c->vendor == GT_VENDOR_AMD && c->nprofiles)
			out[n++] = F_PROFILE;
		if (c->power.known)
			out[n++] = F_POWER;
		if (c->vendor == GT_VENDOR_INTEL && c->freq_min.known &&
		    c->freq_max.known) {
			out[n++] = F_FMIN;
			out[n++] = F_FMAX;
		}
		return n;
	}
	if (c->fan_method == GT_FAN_METHOD_NONE)
		return 0;
	out[n++] = F_MODE;
	if (d->fan_auto)
		return n;
	out[n++] = F_FAN_PRESET;
	out[n++] = F_POINT;
	if (c->fan_method != GT_FAN_METHOD_AMD_FIRMWARE) {
		out[n++] = F_HYST;
		out[n++] = F_DELAY;
	}
	if (c->fan_method == GT_FAN_METHOD_NVML_LOOP && c->fan_count > 1)
		out[n++] = F_FANS;
	return n;
}

int64_t gt_control_dialog_clamp(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static int level_index(const char *word)
{
	for (int i = 0; gt_control_amdgpu_perf_levels[i]; i++)
		if (strcmp(gt_control_amdgpu_perf_levels[i], word) == 0)
			return i;
	return 0;
}

static int level_named(const char *word)
{
	return level_index(word);
}

static int64_t power_default(const struct gt_control_caps *c)
{
	if (c->power.def > 0)
		return c->power.def;
	if (c->power.cur > 0)
		return c->power.cur;
	return c->power.max;
}

static int64_t power_pct(const struct gt_control_caps *c, int pct)
{
	return gt_control_dialog_clamp(power_default(c) * pct / 100,
	                               c->power.min, c->power.max);
}

void gt_control_dialog_power_preset(struct gt_control_dialog *d,
                                    enum gt_power_preset p)
{
	const struct gt_control_caps *c = &d->caps;
	int64_t fmin_lo = c->freq_min.min, fmax_hi = c->freq_max.max;

	d->preset = p;
	switch (p) {
	case GT_POWER_MAX:
		d->power = c->power.max;
		d->level = level_named("high");
		d->fmin = c->freq_min.max;
		d->fmax = fmax_hi;
		break;
	case GT_POWER_BALANCED:
		d->power = power_pct(c, 85);
		d->level = level_named("auto");
		d->fmin = fmin_lo;
		d->fmax = fmax_hi;
		break;
	case GT_POWER_SAVER:
		d->power = power_pct(c, 70);
		d->level = level_named("low");
		d->fmin = fmin_lo;
		d->fmax = (fmin_lo + fmax_hi) / 2;
		break;
	case GT_POWER_AUTO:
		d->power = power_default(c);
		d->level = level_named("auto");
		d->fmin = fmin_lo;
		d->fmax = fmax_hi;
		break;
	case GT_POWER_CUSTOM:
	case GT_POWER__COUNT:
		return; /* fields stay as they are */
	}
	/* A preset leaves the power profile as it is: the kernel only takes
	 * one with the level at manual, which these presets do not use. */
	for (size_t i = 0; i < c->nprofiles; i++)
		if (c->profiles[i].index == c->profile_active)
			d->profile = (int)i;
}

static void fan_preset(struct gt_control_dialog *d, int p)
{
	d->fan_preset = p;
	if (p < GT_FAN_PRESET_COUNT)
		gt_fancurve_preset((enum gt_fan_preset)p, &d->curve);
	if (d->point >= (int)d->curve.n)
		d->point = (int)d->curve.n - 1;
}

void gt_control_dialog_open(struct gt_control_dialog *d,
                            enum gt_control_dialog_kind kind, size_t device,
                            const struct gt_control_caps *caps,
                            const char *readonly_why)
{
	memset(d, 0, sizeof(*d));
	d->open = true;
	d->kind = kind;
	d->device = device;
	d->caps = *caps;
	snprintf(d->readonly_why, sizeof(d->readonly_why), "%s",
	         readonly_why ? readonly_why : "");
	d->readonly = d->readonly_why[0] != '\0';
	/* Start from what is in force, so that confirming without touching
	 * anything writes nothing. */
	d->preset = GT_POWER_CUSTOM;
	d->power = caps->power.cur > 0 ? caps->power.cur : power_default(caps);
	d->level = level_index(caps->level);
	d->profile = 0;
	for (size_t i = 0; i < caps->nprofiles; i++)
		if (caps->profiles[i].index == caps->profile_active)
			d->profile = (int)i;
	d->fmin = caps->freq_min.cur;
	d->fmax = caps->freq_max.cur;
	d->fan_auto = false;
	d->hysteresis_c = 3;
	d->delay_s = 5;
	d->fan_sel = -1;
	if (caps->fan_method == GT_FAN_METHOD_AMD_FIRMWARE &&
	    caps->fw_curve.n == 5) {
		d->curve = caps->fw_curve;
		d->fan_preset = GT_FAN_PRESET_COUNT;
	} else {
		fan_preset(d, GT_FAN_PRESET_BALANCED);
	}
}

/* ---- the plan ------------------------------------------------------ */

static struct gt_control_change *add(struct gt_control_dialog *d,
                                     enum gt_control_change_kind kind)
{
	if (d->nchanges >= GT_CONTROL_DIALOG_MAX_CHANGES)
		return NULL;
	struct gt_control_change *ch = &d->changes[d->nchanges++];
	memset(ch, 0, sizeof(*ch));
	ch->kind = kind;
	ch->vendor = d->caps.vendor;
	ch->device = d->device;
	snprintf(ch->dev, sizeof(ch->dev), "%s", d->caps.dev);
	ch->fan_method = d->caps.fan_method;
	ch->fan_count = d->caps.fan_count;
	return ch;
}

static void plan_power(struct gt_control_dialog *d)
{
	const struct gt_control_caps *c = &d->caps;
	struct gt_control_change *ch;

	if (c->vendor == GT_VENDOR_AMD && c->has_level) {
		const char *want = gt_control_amdgpu_perf_levels[d->level];
		bool profile_changes =
		    c->nprofiles &&
		    c->profiles[d->profile].index != c->profile_active;
		/* The profile setter switches to manual itself. */
		if (strcmp(want, c->level) != 0 &&
		    !(profile_changes && strcmp(want, "manual") == 0) &&
		    (ch = add(d, GT_CHANGE_PERF_LEVEL)))
			snprintf(ch->text, sizeof(ch->text), "%s", want);
		if (profile_changes && strcmp(want, "manual") == 0 &&
		    (ch = add(d, GT_CHANGE_POWER_PROFILE)))
			ch->value = c->profiles[d->profile].index;
	}
	if (c->power.known && d->power != c->power.cur &&
	    (ch = add(d, GT_CHANGE_POWER_LIMIT)))
		ch->value = d->power;
	if (c->vendor == GT_VENDOR_INTEL && c->freq_min.known &&
	    c->freq_max.known &&
	    (d->fmin != c->freq_min.cur || d->fmax != c->freq_max.cur) &&
	    (ch = add(d, GT_CHANGE_FREQ_LIMITS))) {
		ch->value = d->fmin;
		ch->value2 = d->fmax;
	}
}

static void plan_fan(struct gt_control_dialog *d)
{
	struct gt_control_change *ch;
	const struct gt_control_caps *c = &d->caps;

	if (c->fan_method == GT_FAN_METHOD_NONE)
		return;
	ch = add(d, d->fan_auto ? GT_CHANGE_FAN_AUTO : GT_CHANGE_FAN_CURVE);
	if (!ch)
		return;
	ch->fan_mask = d->fan_sel < 0 ? 0 : 1u << d->fan_sel;
	ch->curve = d->curve;
	gt_fanloop_config_default(&ch->loop);
	if (c->fan_min_cpercent >= 0 &&
	    c->fan_max_cpercent > c->fan_min_cpercent) {
		ch->loop.min_cpercent = c->fan_min_cpercent;
		ch->loop.max_cpercent = c->fan_max_cpercent;
	}
	if (c->slowdown_mc > 0)
		ch->loop.panic_mc = c->slowdown_mc;
	ch->loop.hysteresis_mc = d->hysteresis_c * 1000;
	ch->loop.down_delay_ns = (uint64_t)d->delay_s * 1000000000ull;
}

size_t gt_control_dialog_plan(struct gt_control_dialog *d)
{
	size_t used = 0;

	d->nchanges = 0;
	if (d->kind == GT_CONTROL_DIALOG_POWER)
		plan_power(d);
	else
		plan_fan(d);
	d->preview[0] = '\0';
	for (size_t i = 0; i < d->nchanges; i++) {
		d->revert_known[i] =
		    gt_control_change_revert_of(&d->caps, &d->changes[i],
		                                &d->reverts[i]) == 0;
		if (used < sizeof(d->preview))
			gt_control_change_describe(&d->caps, &d->changes[i],
			                           d->preview + used,
			                           sizeof(d->preview) - used);
		used = strlen(d->preview);
	}
	return d->nchanges;
}

/* ---- keys ---------------------------------------------------------- */

static void step_field(struct gt_control_dialog *d,
                       enum gt_control_dialog_field f, int dir, bool big)
{
	const struct gt_control_caps *c = &d->caps;
	int64_t pstep = c->vendor == GT_VENDOR_NVIDIA ? 5000 : 5000000;

	switch (f) {
	case F_PRESET:
		gt_control_dialog_power_preset(
		    d,
		    (enum gt_power_preset)((d->preset + GT_POWER__COUNT + dir) %
		                           GT_POWER__COUNT));
		return;
	case F_POWER:
		d->power = gt_control_dialog_clamp(
		    d->power + dir * pstep * (big ? 10 : 1), c->power.min,
		    c->power.max);
		break;
	case F_LEVEL: {
		int n = 0;
		while (gt_control_amdgpu_perf_levels[n])
			n++;
		if (n)
			d->level = (d->level + n + dir) % n;
		break;
	}
	case F_PROFILE:
		if (!c->nprofiles)
			return;
		d->profile =
		    (d->profile + (int)c->nprofiles + dir) % (int)c->nprofiles;
		d->level = level_named("manual");
		break;
	case F_FMIN:
		d->fmin = gt_control_dialog_clamp(
		    d->fmin + (int64_t)dir * (big ? 500 : 50), c->freq_min.min,
		    c->freq_min.max);
		if (d->fmax < d->fmin)
			d->fmax = d->fmin;
		break;
	case F_FMAX:
		d->fmax = gt_control_dialog_clamp(
		    d->fmax + (int64_t)dir * (big ? 500 : 50), c->freq_max.min,
		    c->freq_max.max);
		if (d->fmin > d->fmax)
			d->fmin = d->fmax;
		break;
	case F_MODE:
		d->fan_auto = !d->fan_auto;
		return;
	case F_FAN_PRESET:
		fan_preset(d, (d->fan_preset + GT_FAN_PRESET_COUNT + dir) %
		                  GT_FAN_PRESET_COUNT);
		return;
	case F_POINT:
		d->point = (d->point + (int)d->curve.n + dir) % (int)d->curve.n;
		return;
	case F_HYST:
		d->hysteresis_c =
		    (int)gt_control_dialog_clamp(d->hysteresis_c + dir, 0, 15);
		return;
	case F_DELAY:
		d->delay_s = (int)gt_control_dialog_clamp(
		    d->delay_s + dir * (big ? 10 : 1), 0, 120);
		return;
	case F_FANS:
		d->fan_sel =
		    (int)((d->fan_sel + 1 + (int)c->fan_count + 1 + dir) %
		          ((int)c->fan_count + 1)) -
		    1;
		return;
	case F__COUNT:
		return;
	}
	if (d->kind == GT_CONTROL_DIALOG_POWER)
		d->preset = GT_POWER_CUSTOM;
}

/* The selected curve point: temperature by dt (°C), speed by ds (%). */
static void edit_point(struct gt_control_dialog *d, int dt, int ds)
{
	struct gt_fan_point *p = &d->curve.pt[d->point];
	p->temp_mc = (int32_t)gt_control_dialog_clamp(p->temp_mc + dt * 1000, 0,
	                                              GT_FANCURVE_TEMP_MAX_MC);
	p->cpercent = (int32_t)gt_control_dialog_clamp(p->cpercent + ds * 100,
	                                               0, GT_CPERCENT_FULL);
	d->fan_preset = GT_FAN_PRESET_COUNT; /* custom */
}

static enum gt_control_dialog_request key_edit(struct gt_control_dialog *d,
                                               int ch)
{
	enum gt_control_dialog_field f[F__COUNT];
	int n = gt_control_dialog_fields(d, f);
	char err[GT_CONTROL_RESULT_MAX];

	switch (ch) {
	case 27:
	case 'q':
		d->open = false;
		return GT_CONTROL_DIALOG_CLOSE;
	case KEY_UP:
	case KEY_BTAB:
		if (n)
			d->field = (d->field + n - 1) % n;
		return GT_CONTROL_DIALOG_NOTHING;
	case KEY_DOWN:
	case '\t':
		if (n)
			d->field = (d->field + 1) % n;
		return GT_CONTROL_DIALOG_NOTHING;
	case KEY_LEFT:
	case KEY_RIGHT:
	case KEY_PPAGE:
	case KEY_NPAGE:
		if (n && d->field < n)
			step_field(d, f[d->field],
			           ch == KEY_LEFT || ch == KEY_NPAGE ? -1 : 1,
			           ch == KEY_PPAGE || ch == KEY_NPAGE);
		return GT_CONTROL_DIALOG_NOTHING;
	case '1':
	case '2':
	case '3':
	case '4':
	case '5':
		if (d->kind == GT_CONTROL_DIALOG_POWER)
			gt_control_dialog_power_preset(
			    d, (enum gt_power_preset)(ch - '1'));
		return GT_CONTROL_DIALOG_NOTHING;
	case 'a':
		if (d->kind == GT_CONTROL_DIALOG_FAN)
			d->fan_auto = !d->fan_auto;
		return GT_CONTROL_DIALOG_NOTHING;
	case '+':
	case '-':
	case '[':
	case ']':
		if (d->kind == GT_CONTROL_DIALOG_FAN && !d->fan_auto)
			edit_point(d,
			           ch == '['   ? -1
			           : ch == ']' ? 1
			                       : 0,
			           ch == '+'   ? 5
			           : ch == '-' ? -5
			                       : 0);
		return GT_CONTROL_DIALOG_NOTHING;
	case '\n':
	case '\r':
	case KEY_ENTER:
		d->msg[0] = '\0';
		if (d->kind == GT_CONTROL_DIALOG_FAN && !d->fan_auto &&
		    gt_fancurve_validate(&d->curve, err, sizeof(err)) < 0) {
			snprintf(d->msg, sizeof(d->msg), "refused: %s", err);
			return GT_CONTROL_DIALOG_NOTHING;
		}
		if (gt_control_dialog_plan(d) == 0) {
			snprintf(d->msg, sizeof(d->msg),
			         "nothing to change: every value is in force");
			return GT_CONTROL_DIALOG_NOTHING;
		}
		d->stage = GT_CONTROL_DIALOG_PREVIEW;
		return GT_CONTROL_DIALOG_NOTHING;
	default:
		return GT_CONTROL_DIALOG_NOTHING;
	}
}

enum gt_control_dialog_request
gt_control_dialog_key(struct gt_control_dialog *d, int ch, uint64_t now_ns)
{
	(void)now_ns;
	if (!d->open)
		return GT_CONTROL_DIALOG_NOTHING;
	switch (d->stage) {
	case GT_CONTROL_DIALOG_EDIT:
		return key_edit(d, ch);
	case GT_CONTROL_DIALOG_PREVIEW:
		if (ch == 'y' || ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
			if (d->readonly) {
				snprintf(d->msg, sizeof(d->msg),
				         "read-only: %s", d->readonly_why);
				d->stage = GT_CONTROL_DIALOG_EDIT;
				return GT_CONTROL_DIALOG_NOTHING;
			}
			return GT_CONTROL_DIALOG_APPLY;
		}
		if (ch == 27 || ch == 'n' || ch == 'q')
			d->stage = GT_CONTROL_DIALOG_EDIT;
		return GT_CONTROL_DIALOG_NOTHING;
	case GT_CONTROL_DIALOG_WAITING:
		return GT_CONTROL_DIALOG_NOTHING;
	case GT_CONTROL_DIALOG_COUNTDOWN:
		if (ch == 'k' || ch == '\n' || ch == '\r' || ch == KEY_ENTER)
			return GT_CONTROL_DIALOG_KEEP;
		if (ch == 'r' || ch == 27 || ch == 'q')
			return GT_CONTROL_DIALOG_REVERT;
		return GT_CONTROL_DIALOG_NOTHING;
	case GT_CONTROL_DIALOG_DONE:
		if (ch == 27 || ch == 'q' || ch == '\n' || ch == '\r' ||
		    ch == KEY_ENTER) {
			d->open = false;
			return GT_CONTROL_DIALOG_CLOSE;
		}
		return GT_CONTROL_DIALOG_NOTHING;
	}
	return GT_CONTROL_DIALOG_NOTHING;
}

enum gt_control_dialog_request
gt_control_dialog_poll(struct gt_control_dialog *d, uint64_t now_ns)
{
	if (d->open && d->stage == GT_CONTROL_DIALOG_COUNTDOWN &&
	    now_ns >= d->deadline_ns)
		return GT_CONTROL_DIALOG_REVERT;
	return GT_CONTROL_DIALOG_NOTHING;
}

static void keep_results(struct gt_control_dialog *d,
                         const struct gt_control_result *res, size_t n,
                         bool reverted)
{
	d->nresults = n > GT_CONTROL_DIALOG_MAX_CHANGES
	                  ? GT_CONTROL_DIALOG_MAX_CHANGES
	                  : n;
	memcpy(d->results, res, d->nresults * sizeof(*res));
	d->results_reverted = reverted;
}

void gt_control_dialog_applied(struct gt_control_dialog *d,
                               const struct gt_control_result *res, size_t n,
                               uint64_t now_ns)
{
	bool failed = false;
	keep_results(d, res, n, false);
	for (size_t i = 0; i < d->nresults; i++)
		failed |= res[i].rc != GT_CONTROL_OK;
	if (failed) {
		/* What did apply is reverted by the dashboard at once. */
		d->stage = GT_CONTROL_DIALOG_DONE;
		snprintf(d->msg, sizeof(d->msg), "not applied");
		return;
	}
	d->stage = GT_CONTROL_DIALOG_COUNTDOWN;
	d->deadline_ns = now_ns + GT_CONTROL_DIALOG_REVERT_NS;
	d->msg[0] = '\0';
}

void gt_control_dialog_reverted(struct gt_control_dialog *d,
                                const struct gt_control_result *res, size_t n,
                                bool by_timeout)
{
	size_t bad = 0;
	for (size_t i = 0; i < n; i++)
		bad += res[i].rc != GT_CONTROL_OK;
	/* What the change read back is no longer true: the revert's own
	 * read-back replaces it. */
	keep_results(d, res, n, true);
	d->stage = GT_CONTROL_DIALOG_DONE;
	if (bad)
		snprintf(d->msg, sizeof(d->msg),
		         "revert failed: %s (the originals are restored when "
		         "gputop exits)",
		         res[0].rc != GT_CONTROL_OK ? res[0].err
		                                    : res[n - 1].err);
	else
		snprintf(d->msg, sizeof(d->msg), "%s",
		         by_timeout ? "not kept within 10 s: reverted"
		                    : "reverted");
}

void gt_control_dialog_waiting(struct gt_control_dialog *d, bool revert,
                               uint64_t now_ns, uint64_t until_ns)
{
	d->stage = GT_CONTROL_DIALOG_WAITING;
	d->wait_revert = revert;
	d->wait_since_ns = now_ns;
	d->wait_until_ns = until_ns;
	d->msg[0] = '\0';
}

void gt_control_dialog_no_answer(struct gt_control_dialog *d,
                                 unsigned timeout_s)
{
	d->stage = GT_CONTROL_DIALOG_DONE;
	d->nresults = 0;
	snprintf(d->msg, sizeof(d->msg),
	         "the driver did not answer within %u s; the setting may or "
	         "may not have changed%s. Its original stays in the restore "
	         "journal: gputop's restore guardian puts it back, and the "
	         "state file keeps it for gputop --restore. gputop changes "
	         "nothing more until it is restarted (check dmesg for the "
	         "driver).",
	         timeout_s, d->wait_revert ? " back" : "");
}

/*
 * ctldialog.c - the power and fan dialogs (ctldialog.h): fields, presets,
 * the plan of changes with its reverts, keys and drawing. It changes
 * nothing itself: the dashboard applies what the dialog asks for.
 */
#include "ctldialog.h"

#include <stdio.h>
#include <string.h>

#include "overlay.h"
#include "panels.h"

enum field {
	F_PRESET,
	F_POWER,
	F_LEVEL,
	F_PROFILE,
	F_FMIN,
	F_FMAX,
	F_MODE,
	F_FAN_PRESET,
	F_POINT,
	F_HYST,
	F_DELAY,
	F_FANS,
	F__COUNT
};

static const char *const preset_names[GT_POWER__COUNT] = {
    "Max performance", "Balanced", "Power saver", "Custom", "Auto"};

const char *gt_power_preset_name(enum gt_power_preset p)
{
	return (unsigned)p < GT_POWER__COUNT ? preset_names[p] : "?";
}

/* The fields this dialog shows, in order. */
static int fields(const struct gt_ctldlg *d, enum field *out)
{
	int n = 0;
	const struct gt_ctl_caps *c = &d->caps;

	if (d->kind == GT_CTLDLG_POWER) {
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

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static int level_index(const char *word)
{
	for (int i = 0; gt_amd_perf_levels[i]; i++)
		if (strcmp(gt_amd_perf_levels[i], word) == 0)
			return i;
	return 0;
}

static int level_named(const char *word)
{
	return level_index(word);
}

static int64_t power_default(const struct gt_ctl_caps *c)
{
	if (c->power.def > 0)
		return c->power.def;
	if (c->power.cur > 0)
		return c->power.cur;
	return c->power.max;
}

static int64_t power_pct(const struct gt_ctl_caps *c, int pct)
{
	return clamp64(power_default(c) * pct / 100, c->power.min,
	               c->power.max);
}

void gt_ctldlg_power_preset(struct gt_ctldlg *d, enum gt_power_preset p)
{
	const struct gt_ctl_caps *c = &d->caps;
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

static void fan_preset(struct gt_ctldlg *d, int p)
{
	d->fan_preset = p;
	if (p < GT_FAN_PRESET_COUNT)
		gt_fancurve_preset((enum gt_fan_preset)p, &d->curve);
	if (d->point >= (int)d->curve.n)
		d->point = (int)d->curve.n - 1;
}

void gt_ctldlg_open(struct gt_ctldlg *d, enum gt_ctldlg_kind kind,
                    size_t device, const struct gt_ctl_caps *caps,
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

static struct gt_ctl_change *add(struct gt_ctldlg *d, enum gt_ctl_kind kind)
{
	if (d->nchanges >= GT_CTLDLG_MAX_CHANGES)
		return NULL;
	struct gt_ctl_change *ch = &d->changes[d->nchanges++];
	memset(ch, 0, sizeof(*ch));
	ch->kind = kind;
	ch->vendor = d->caps.vendor;
	ch->device = d->device;
	snprintf(ch->dev, sizeof(ch->dev), "%s", d->caps.dev);
	ch->fan_method = d->caps.fan_method;
	ch->fan_count = d->caps.fan_count;
	return ch;
}

static void plan_power(struct gt_ctldlg *d)
{
	const struct gt_ctl_caps *c = &d->caps;
	struct gt_ctl_change *ch;

	if (c->vendor == GT_VENDOR_AMD && c->has_level) {
		const char *want = gt_amd_perf_levels[d->level];
		bool profile_changes =
		    c->nprofiles &&
		    c->profiles[d->profile].index != c->profile_active;
		/* The profile setter switches to manual itself. */
		if (strcmp(want, c->level) != 0 &&
		    !(profile_changes && strcmp(want, "manual") == 0) &&
		    (ch = add(d, GT_CTL_PERF_LEVEL)))
			snprintf(ch->text, sizeof(ch->text), "%s", want);
		if (profile_changes && strcmp(want, "manual") == 0 &&
		    (ch = add(d, GT_CTL_POWER_PROFILE)))
			ch->value = c->profiles[d->profile].index;
	}
	if (c->power.known && d->power != c->power.cur &&
	    (ch = add(d, GT_CTL_POWER_LIMIT)))
		ch->value = d->power;
	if (c->vendor == GT_VENDOR_INTEL && c->freq_min.known &&
	    c->freq_max.known &&
	    (d->fmin != c->freq_min.cur || d->fmax != c->freq_max.cur) &&
	    (ch = add(d, GT_CTL_FREQ_LIMITS))) {
		ch->value = d->fmin;
		ch->value2 = d->fmax;
	}
}

static void plan_fan(struct gt_ctldlg *d)
{
	struct gt_ctl_change *ch;
	const struct gt_ctl_caps *c = &d->caps;

	if (c->fan_method == GT_FAN_METHOD_NONE)
		return;
	ch = add(d, d->fan_auto ? GT_CTL_FAN_AUTO : GT_CTL_FAN_CURVE);
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

size_t gt_ctldlg_plan(struct gt_ctldlg *d)
{
	size_t used = 0;

	d->nchanges = 0;
	if (d->kind == GT_CTLDLG_POWER)
		plan_power(d);
	else
		plan_fan(d);
	d->preview[0] = '\0';
	for (size_t i = 0; i < d->nchanges; i++) {
		d->revert_known[i] =
		    gt_ctl_change_revert_of(&d->caps, &d->changes[i],
		                            &d->reverts[i]) == 0;
		if (used < sizeof(d->preview))
			gt_ctl_change_describe(&d->caps, &d->changes[i],
			                       d->preview + used,
			                       sizeof(d->preview) - used);
		used = strlen(d->preview);
	}
	return d->nchanges;
}

/* ---- keys ---------------------------------------------------------- */

static void step_field(struct gt_ctldlg *d, enum field f, int dir, bool big)
{
	const struct gt_ctl_caps *c = &d->caps;
	int64_t pstep = c->vendor == GT_VENDOR_NVIDIA ? 5000 : 5000000;

	switch (f) {
	case F_PRESET:
		gt_ctldlg_power_preset(
		    d,
		    (enum gt_power_preset)((d->preset + GT_POWER__COUNT + dir) %
		                           GT_POWER__COUNT));
		return;
	case F_POWER:
		d->power = clamp64(d->power + dir * pstep * (big ? 10 : 1),
		                   c->power.min, c->power.max);
		break;
	case F_LEVEL: {
		int n = 0;
		while (gt_amd_perf_levels[n])
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
		d->fmin = clamp64(d->fmin + (int64_t)dir * (big ? 500 : 50),
		                  c->freq_min.min, c->freq_min.max);
		if (d->fmax < d->fmin)
			d->fmax = d->fmin;
		break;
	case F_FMAX:
		d->fmax = clamp64(d->fmax + (int64_t)dir * (big ? 500 : 50),
		                  c->freq_max.min, c->freq_max.max);
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
		d->hysteresis_c = (int)clamp64(d->hysteresis_c + dir, 0, 15);
		return;
	case F_DELAY:
		d->delay_s =
		    (int)clamp64(d->delay_s + dir * (big ? 10 : 1), 0, 120);
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
	if (d->kind == GT_CTLDLG_POWER)
		d->preset = GT_POWER_CUSTOM;
}

/* The selected curve point: temperature by dt (°C), speed by ds (%). */
static void edit_point(struct gt_ctldlg *d, int dt, int ds)
{
	struct gt_fan_point *p = &d->curve.pt[d->point];
	p->temp_mc = (int32_t)clamp64(p->temp_mc + dt * 1000, 0,
	                              GT_FANCURVE_TEMP_MAX_MC);
	p->cpercent =
	    (int32_t)clamp64(p->cpercent + ds * 100, 0, GT_CPERCENT_FULL);
	d->fan_preset = GT_FAN_PRESET_COUNT; /* custom */
}

static enum gt_ctldlg_request key_edit(struct gt_ctldlg *d, int ch)
{
	enum field f[F__COUNT];
	int n = fields(d, f);
	char err[GT_CTL_RESULT_MAX];

	switch (ch) {
	case 27:
	case 'q':
		d->open = false;
		return GT_CTLDLG_CLOSE;
	case KEY_UP:
	case KEY_BTAB:
		if (n)
			d->field = (d->field + n - 1) % n;
		return GT_CTLDLG_NOTHING;
	case KEY_DOWN:
	case '\t':
		if (n)
			d->field = (d->field + 1) % n;
		return GT_CTLDLG_NOTHING;
	case KEY_LEFT:
	case KEY_RIGHT:
	case KEY_PPAGE:
	case KEY_NPAGE:
		if (n && d->field < n)
			step_field(d, f[d->field],
			           ch == KEY_LEFT || ch == KEY_NPAGE ? -1 : 1,
			           ch == KEY_PPAGE || ch == KEY_NPAGE);
		return GT_CTLDLG_NOTHING;
	case '1':
	case '2':
	case '3':
	case '4':
	case '5':
		if (d->kind == GT_CTLDLG_POWER)
			gt_ctldlg_power_preset(
			    d, (enum gt_power_preset)(ch - '1'));
		return GT_CTLDLG_NOTHING;
	case 'a':
		if (d->kind == GT_CTLDLG_FAN)
			d->fan_auto = !d->fan_auto;
		return GT_CTLDLG_NOTHING;
	case '+':
	case '-':
	case '[':
	case ']':
		if (d->kind == GT_CTLDLG_FAN && !d->fan_auto)
			edit_point(d,
			           ch == '['   ? -1
			           : ch == ']' ? 1
			                       : 0,
			           ch == '+'   ? 5
			           : ch == '-' ? -5
			                       : 0);
		return GT_CTLDLG_NOTHING;
	case '\n':
	case '\r':
	case KEY_ENTER:
		d->msg[0] = '\0';
		if (d->kind == GT_CTLDLG_FAN && !d->fan_auto &&
		    gt_fancurve_validate(&d->curve, err, sizeof(err)) < 0) {
			snprintf(d->msg, sizeof(d->msg), "refused: %s", err);
			return GT_CTLDLG_NOTHING;
		}
		if (gt_ctldlg_plan(d) == 0) {
			snprintf(d->msg, sizeof(d->msg),
			         "nothing to change: every value is in force");
			return GT_CTLDLG_NOTHING;
		}
		d->stage = GT_CTLDLG_PREVIEW;
		return GT_CTLDLG_NOTHING;
	default:
		return GT_CTLDLG_NOTHING;
	}
}

enum gt_ctldlg_request gt_ctldlg_key(struct gt_ctldlg *d, int ch,
                                     uint64_t now_ns)
{
	(void)now_ns;
	if (!d->open)
		return GT_CTLDLG_NOTHING;
	switch (d->stage) {
	case GT_CTLDLG_EDIT:
		return key_edit(d, ch);
	case GT_CTLDLG_PREVIEW:
		if (ch == 'y' || ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
			if (d->readonly) {
				snprintf(d->msg, sizeof(d->msg),
				         "read-only: %s", d->readonly_why);
				d->stage = GT_CTLDLG_EDIT;
				return GT_CTLDLG_NOTHING;
			}
			return GT_CTLDLG_APPLY;
		}
		if (ch == 27 || ch == 'n' || ch == 'q')
			d->stage = GT_CTLDLG_EDIT;
		return GT_CTLDLG_NOTHING;
	case GT_CTLDLG_COUNTDOWN:
		if (ch == 'k' || ch == '\n' || ch == '\r' || ch == KEY_ENTER)
			return GT_CTLDLG_KEEP;
		if (ch == 'r' || ch == 27 || ch == 'q')
			return GT_CTLDLG_REVERT;
		return GT_CTLDLG_NOTHING;
	case GT_CTLDLG_DONE:
		if (ch == 27 || ch == 'q' || ch == '\n' || ch == '\r' ||
		    ch == KEY_ENTER) {
			d->open = false;
			return GT_CTLDLG_CLOSE;
		}
		return GT_CTLDLG_NOTHING;
	}
	return GT_CTLDLG_NOTHING;
}

enum gt_ctldlg_request gt_ctldlg_poll(struct gt_ctldlg *d, uint64_t now_ns)
{
	if (d->open && d->stage == GT_CTLDLG_COUNTDOWN &&
	    now_ns >= d->deadline_ns)
		return GT_CTLDLG_REVERT;
	return GT_CTLDLG_NOTHING;
}

void gt_ctldlg_applied(struct gt_ctldlg *d, const struct gt_ctl_result *res,
                       size_t n, uint64_t now_ns)
{
	bool failed = false;
	d->nresults = n > GT_CTLDLG_MAX_CHANGES ? GT_CTLDLG_MAX_CHANGES : n;
	memcpy(d->results, res, d->nresults * sizeof(*res));
	for (size_t i = 0; i < d->nresults; i++)
		failed |= res[i].rc != GT_CONTROL_OK;
	if (failed) {
		/* What did apply is reverted by the dashboard at once. */
		d->stage = GT_CTLDLG_DONE;
		snprintf(d->msg, sizeof(d->msg), "not applied");
		return;
	}
	d->stage = GT_CTLDLG_COUNTDOWN;
	d->deadline_ns = now_ns + GT_CTLDLG_REVERT_NS;
	d->msg[0] = '\0';
}

void gt_ctldlg_reverted(struct gt_ctldlg *d, const struct gt_ctl_result *res,
                        size_t n, bool by_timeout)
{
	size_t bad = 0;
	for (size_t i = 0; i < n; i++)
		bad += res[i].rc != GT_CONTROL_OK;
	d->stage = GT_CTLDLG_DONE;
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

/* ---- drawing ------------------------------------------------------- */

static void fmt_power(char *buf, size_t len, const struct gt_ctl_caps *c,
                      int64_t v)
{
	double w =
	    c->vendor == GT_VENDOR_NVIDIA ? (double)v / 1e3 : (double)v / 1e6;
	if (v < 0)
		snprintf(buf, len, "N/A");
	else
		snprintf(buf, len, "%.0f W", w);
}

static const char *field_label(enum field f)
{
	static const char *const label[F__COUNT] = {
	    [F_PRESET] = "Preset",      [F_POWER] = "Power limit",
	    [F_LEVEL] = "Perf. level",  [F_PROFILE] = "Power profile",
	    [F_FMIN] = "Min frequency", [F_FMAX] = "Max frequency",
	    [F_MODE] = "Mode",          [F_FAN_PRESET] = "Curve preset",
	    [F_POINT] = "Point",        [F_HYST] = "Hysteresis",
	    [F_DELAY] = "Down delay",   [F_FANS] = "Fans",
	};
	return label[f];
}

static void field_text(const struct gt_ctldlg *d, enum field f, char *val,
                       size_t vlen, char *note, size_t nlen)
{
	const struct gt_ctl_caps *c = &d->caps;
	char a[32], b[32], e[32], n[32];

	note[0] = '\0';
	switch (f) {
	case F_PRESET:
		snprintf(val, vlen, "%s", gt_power_preset_name(d->preset));
		snprintf(note, nlen, "1-5 pick");
		break;
	case F_POWER:
		fmt_power(val, vlen, c, d->power);
		fmt_power(a, sizeof(a), c, c->power.min);
		fmt_power(b, sizeof(b), c, c->power.max);
		fmt_power(e, sizeof(e), c, c->power.def);
		fmt_power(n, sizeof(n), c, c->power.cur);
		snprintf(note, nlen, "range %s-%s, default %s, now %s", a, b, e,
		         n);
		break;
	case F_LEVEL:
		snprintf(val, vlen, "%s", gt_amd_perf_levels[d->level]);
		snprintf(note, nlen, "now %s", c->level[0] ? c->level : "N/A");
		break;
	case F_PROFILE:
		snprintf(val, vlen, "%d %s", c->profiles[d->profile].index,
		         c->profiles[d->profile].name);
		snprintf(note, nlen, "now %d (needs level manual)",
		         c->profile_active);
		break;
	case F_FMIN:
	case F_FMAX: {
		const struct gt_ctl_range *r =
		    f == F_FMIN ? &c->freq_min : &c->freq_max;
		snprintf(val, vlen, "%lld MHz",
		         (long long)(f == F_FMIN ? d->fmin : d->fmax));
		snprintf(note, nlen, "range %lld-%lld, now %lld",
		         (long long)r->min, (long long)r->max,
		         (long long)r->cur);
		break;
	}
	case F_MODE:
		snprintf(val, vlen, "%s",
		         d->fan_auto ? "Automatic (firmware)" : "Curve");
		snprintf(note, nlen, "%s",
		         c->fan_method == GT_FAN_METHOD_AMD_FIRMWARE
		             ? "firmware curve: keeps working after gputop "
		               "exits"
		             : "software loop, every second");
		break;
	case F_FAN_PRESET:
		snprintf(
		    val, vlen, "%s",
		    d->fan_preset < GT_FAN_PRESET_COUNT
		        ? gt_fan_preset_name((enum gt_fan_preset)d->fan_preset)
		        : "custom");
		break;
	case F_POINT: {
		const struct gt_fan_point *p = &d->curve.pt[d->point];
		snprintf(val, vlen, "%d of %u: %d°C %d%%", d->point + 1,
		         d->curve.n, p->temp_mc / 1000, p->cpercent / 100);
		snprintf(note, nlen, "[ ] temperature  + - speed");
		break;
	}
	case F_HYST:
		snprintf(val, vlen, "%d °C", d->hysteresis_c);
		snprintf(note, nlen, "slow down only this far below");
		break;
	case F_DELAY:
		snprintf(val, vlen, "%d s", d->delay_s);
		snprintf(note, nlen, "slow down only after this long");
		break;
	case F_FANS:
		if (d->fan_sel < 0)
			snprintf(val, vlen, "all %u", c->fan_count);
		else
			snprintf(val, vlen, "fan %d", d->fan_sel);
		break;
	case F__COUNT:
		val[0] = '\0';
		break;
	}
}

/* The curve over 20..100 °C and 0..100 %, with the points, the selected
 * point, and the live temperature and fan speed. */
static void draw_graph(WINDOW *w, struct gt_rect r, const struct gt_ctldlg *d,
                       const struct gt_ctldlg_data *data)
{
	const int t0 = 20, t1 = 100;
	int attr = data->pal->role[GT_ROLE_MAIN];
	int hi = data->pal->role[GT_ROLE_HI];
	int warn = data->pal->role[GT_ROLE_WARN];
	int gw = r.w - 5, gh = r.h - 1;
	if (gw < 10 || gh < 3)
		return;
	for (int y = 0; y < gh; y++) {
		int pct = 100 - y * 100 / (gh - 1);
		char lab[16];
		if (y == 0 || y == gh - 1 || y == (gh - 1) / 2) {
			snprintf(lab, sizeof(lab), "%3d%%", pct);
			gt_put(w, r, y, 0, attr, lab);
		}
	}
	for (int x = 0; x < gw; x++) {
		int64_t t = (t0 + (int64_t)x * (t1 - t0) / (gw - 1)) * 1000;
		int32_t s = d->fan_auto ? -1 : gt_fancurve_eval(&d->curve, t);
		if (s < 0) {
			gt_put(w, r, gh - 1, 5 + x, attr, ".");
			continue;
		}
		int y =
		    gh - 1 - (int)((int64_t)s * (gh - 1) / GT_CPERCENT_FULL);
		gt_put(w, r, y, 5 + x, attr, "-");
	}
	for (unsigned i = 0; !d->fan_auto && i < d->curve.n; i++) {
		int64_t t = d->curve.pt[i].temp_mc / 1000;
		if (t < t0 || t > t1)
			continue;
		int x = (int)((t - t0) * (gw - 1) / (t1 - t0));
		int y = gh - 1 -
		        (int)((int64_t)d->curve.pt[i].cpercent * (gh - 1) /
		              GT_CPERCENT_FULL);
		gt_put(w, r, y, 5 + x,
		       (int)i == d->point ? (int)(hi | A_BOLD) : hi,
		       (int)i == d->point ? "@" : "o");
	}
	/* Live reading: the temperature the loop uses, and the fan now. */
	const struct gt_sample *smp = data->smp;
	int64_t temp = GT_FAN_TEMP_INVALID;
	if (data->loop && data->loop->active &&
	    data->loop->temp_mc != GT_FAN_TEMP_INVALID)
		temp = data->loop->temp_mc;
	else if (smp && smp->f[GT_F_TEMP_HOTSPOT].why == GT_WHY_OK &&
	         d->caps.vendor == GT_VENDOR_AMD)
		temp = smp->f[GT_F_TEMP_HOTSPOT].v;
	else if (smp && smp->f[GT_F_TEMP_GPU].why == GT_WHY_OK)
		temp = smp->f[GT_F_TEMP_GPU].v;
	int fan = -1;
	if (smp && smp->fan_count && smp->f[GT_F_FAN_PERCENT0].why == GT_WHY_OK)
		fan = (int)smp->f[GT_F_FAN_PERCENT0].v;
	char axis[96];
	snprintf(axis, sizeof(axis), "%d°C", t0);
	gt_put(w, r, gh, 5, attr, axis);
	snprintf(axis, sizeof(axis), "%d°C", t1);
	gt_put(w, r, gh, 5 + gw - 5, attr, axis);
	if (temp != GT_FAN_TEMP_INVALID) {
		int64_t tc = clamp64(temp / 1000, t0, t1);
		int x = (int)((tc - t0) * (gw - 1) / (t1 - t0));
		int y =
		    fan < 0
		        ? gh - 1
		        : gh - 1 -
		              (int)((int64_t)fan * (gh - 1) / GT_CPERCENT_FULL);
		for (int yy = 0; yy < gh; yy++)
			if (yy != y)
				gt_put(w, r, yy, 5 + x, warn, ":");
		gt_put(w, r, y, 5 + x, (int)(warn | A_BOLD), "X");
		char now[64];
		if (fan >= 0)
			snprintf(now, sizeof(now), "now %lld°C, fan %d%%",
			         (long long)(temp / 1000), fan / 100);
		else
			snprintf(now, sizeof(now), "now %lld°C, fan N/A",
			         (long long)(temp / 1000));
		gt_put(w, r, gh, 5 + gw / 2 - 8, warn, now);
	}
}

/* Lines of text from row on, each indented by 2; a line too long for the
 * box continues on the next row (indented by 4): a preview must show every
 * byte that will be written. */
static int draw_lines_at(WINDOW *w, struct gt_rect in, int row, int attr,
                         const char *text)
{
	const char *p = text;
	while (*p && row < in.h) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		int indent = 2;
		while (n > 0 && row < in.h) {
			char buf[512];
			size_t room =
			    in.w > indent ? (size_t)(in.w - indent) : 1;
			size_t k = n < room ? n : room;
			/* Paths and values are ASCII; never split UTF-8. */
			while (k < n && k > 1 &&
			       ((unsigned char)p[k] & 0xC0) == 0x80)
				k--;
			if (k >= sizeof(buf))
				k = sizeof(buf) - 1;
			memcpy(buf, p, k);
			buf[k] = '\0';
			gt_put(w, in, row++, indent, attr, buf);
			p += k;
			n -= k;
			indent = 4;
		}
		p = nl ? nl + 1 : p;
	}
	return row;
}

void gt_ctldlg_draw(WINDOW *w, const struct gt_ctldlg *d,
                    const struct gt_ctldlg_data *data)
{
	const struct gt_palette *pal = data->pal;
	int attr = pal->role[GT_ROLE_MAIN];
	int hi = pal->role[GT_ROLE_HI];
	int sel = pal->role[GT_ROLE_SELECTED];
	int warn = pal->role[GT_ROLE_WARN];
	char title[160], val[96], note[160], line[640];
	int rows, cols, row = 0;

	if (!d->open)
		return;
	getmaxyx(w, rows, cols);
	(void)rows;
	snprintf(title, sizeof(title), " %s: [%u] %.60s ",
	         d->kind == GT_CTLDLG_POWER ? "Power" : "Fan",
	         data->st ? data->st->index : 0,
	         data->st ? data->st->name : "");
	int bh = d->kind == GT_CTLDLG_FAN ? 26 : 18;
	struct gt_rect in =
	    gt_overlay_box(w, cols < 110 ? cols : 110, bh, attr, title);

	if (d->caps.why[0]) {
		gt_put(w, in, row++, 0, warn, d->caps.why);
		gt_put(w, in, in.h - 1, 0, attr, "Esc close");
		return;
	}
	if (d->readonly) {
		snprintf(line, sizeof(line), "read-only: %s", d->readonly_why);
		gt_put(w, in, row++, 0, warn, line);
	}
	if (d->kind == GT_CTLDLG_FAN &&
	    d->caps.fan_method == GT_FAN_METHOD_NONE) {
		gt_put(w, in, row++, 0, warn, d->caps.fan_why);
		gt_put(w, in, in.h - 1, 0, attr, "Esc close");
		return;
	}

	switch (d->stage) {
	case GT_CTLDLG_EDIT: {
		enum field f[F__COUNT];
		int n = fields(d, f);
		if (n == 0)
			gt_put(w, in, row++, 0, warn,
			       "nothing on this device can be changed");
		for (int i = 0; i < n && row < in.h - 2; i++, row++) {
			field_text(d, f[i], val, sizeof(val), note,
			           sizeof(note));
			snprintf(line, sizeof(line), "%-14s < %s >",
			         field_label(f[i]), val);
			gt_put(w, in, row, 0, i == d->field ? sel : attr, line);
			if (note[0])
				gt_put(w, in, row, 44, attr, note);
		}
		if (d->kind == GT_CTLDLG_FAN) {
			char range[200];
			if (d->caps.slowdown_mc > 0)
				snprintf(
				    range, sizeof(range),
				    "device speed range %d-%d %%; below the "
				    "first point, and at %lld°C (slowdown), "
				    "the firmware drives the fan",
				    d->caps.fan_min_cpercent / 100,
				    d->caps.fan_max_cpercent / 100,
				    (long long)(d->caps.slowdown_mc / 1000));
			else
				snprintf(
				    range, sizeof(range),
				    "device speed range %d-%d %%; below the "
				    "first point the firmware drives the fan",
				    d->caps.fan_min_cpercent / 100,
				    d->caps.fan_max_cpercent / 100);
			gt_put(w, in, row++, 0, attr, range);
			if (data->loop && data->loop->active) {
				char st[160];
				if (data->loop->applied_cpercent >= 0)
					snprintf(
					    st, sizeof(st),
					    "gputop's curve is running: fan "
					    "at %d %% (%s)",
					    data->loop->applied_cpercent / 100,
					    gt_fan_reason_name(
					        data->loop->reason));
				else
					snprintf(
					    st, sizeof(st),
					    "gputop's curve is running: fan "
					    "automatic now (%s)",
					    gt_fan_reason_name(
					        data->loop->reason));
				gt_put(w, in, row++, 0, hi, st);
			} else if (data->loop && data->loop->firmware) {
				gt_put(w, in, row++, 0, hi,
				       "gputop set the firmware curve");
			}
			struct gt_rect g = {in.x, in.y + row + 1, in.w,
			                    in.h - row - 4};
			draw_graph(w, g, d, data);
		}
		if (d->msg[0])
			gt_put(w, in, in.h - 2, 0, warn, d->msg);
		gt_put(w, in, in.h - 1, 0, attr,
		       d->kind == GT_CTLDLG_FAN
		           ? "Up/Down field  Left/Right change  a auto  "
		             "Enter review  Esc close"
		           : "Up/Down field  Left/Right change (PgUp/PgDn "
		             "x10)  Enter review  Esc close");
		break;
	}
	case GT_CTLDLG_PREVIEW:
		gt_put(w, in, row++, 0, hi, "These writes will be made:");
		row = draw_lines_at(w, in, row, attr, d->preview);
		row++;
		gt_put(w, in, row++, 0, attr,
		       "After it is applied you have 10 s to keep it; "
		       "otherwise it is reverted.");
		gt_put(w, in, in.h - 1, 0, attr,
		       d->readonly ? "Esc back (read-only: nothing will be "
		                     "written)"
		                   : "Enter/y apply   Esc back");
		break;
	case GT_CTLDLG_COUNTDOWN:
	case GT_CTLDLG_DONE: {
		if (d->stage == GT_CTLDLG_COUNTDOWN) {
			uint64_t left = d->deadline_ns > data->now_ns
			                    ? d->deadline_ns - data->now_ns
			                    : 0;
			snprintf(line, sizeof(line),
			         "Applied. Reverting in %llu s unless you keep "
			         "it.",
			         (unsigned long long)((left + 999999999ull) /
			                              1000000000ull));
			gt_put(w, in, row++, 0, (int)(warn | A_BOLD), line);
		} else {
			gt_put(w, in, row++, 0, hi, d->msg);
		}
		for (size_t i = 0; i < d->nresults && row < in.h - 1; i++) {
			const struct gt_ctl_result *r = &d->results[i];
			if (r->rc != GT_CONTROL_OK)
				snprintf(line, sizeof(line), "%s: FAILED: %s",
				         r->asked, r->err);
			else
				snprintf(line, sizeof(line),
				         "asked %s; device reports %s%s",
				         r->asked, r->applied,
				         r->differs ? "  (DIFFERS)" : "");
			gt_put(w, in, row++, 0,
			       r->rc != GT_CONTROL_OK || r->differs ? warn
			                                            : attr,
			       line);
			if (r->rc == GT_CONTROL_OK && r->err[0])
				gt_put(w, in, row++, 2, warn, r->err);
		}
		gt_put(w, in, in.h - 1, 0, attr,
		       d->stage == GT_CTLDLG_COUNTDOWN
		           ? "k/Enter keep   r/Esc revert now"
		           : "Enter/Esc close");
		break;
	}
	}
}

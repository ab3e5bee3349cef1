/* SPDX-License-Identifier: MIT */
/*
 * control_dialog_draw.c - drawing of the power and fan dialogs: the fields
 * with the device's ranges, the curve graph with the live reading, the
 * preview of the exact writes, the countdown and the read-back results.
 */
#include <stdio.h>
#include <string.h>

#include "control/control_amdgpu.h"
#include "ui/control_dialog.h"
#include "ui/control_dialog_priv.h"
#include "ui/overlay.h"
#include "ui/paint.h"
#include "ui/panels.h"

static void fmt_power(char *buf, size_t len, const struct gt_control_caps *c,
                      int64_t v)
{
	double w =
	    c->vendor == GT_VENDOR_NVIDIA ? (double)v / 1e3 : (double)v / 1e6;
	if (v < 0)
		snprintf(buf, len, "N/A");
	else
		snprintf(buf, len, "%.0f W", w);
}

static const char *field_label(enum gt_control_dialog_field f)
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

/* A temperature in m°C in the user's unit, whole degrees. */
static void temp_text(char *buf, size_t len, int64_t mc, bool fahrenheit)
{
	struct gt_val v = {.v = mc, .why = GT_WHY_OK};
	gt_panels_fmt_temp(buf, len, &v, fahrenheit);
}

static void field_text(const struct gt_control_dialog *d, bool fahrenheit,
                       enum gt_control_dialog_field f, char *val, size_t vlen,
                       char *note, size_t nlen)
{
	const struct gt_control_caps *c = &d->caps;
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
		snprintf(val, vlen, "%s",
		         gt_control_amdgpu_perf_levels[d->level]);
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
		const struct gt_control_range *r =
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
		char t[24];
		temp_text(t, sizeof(t), p->temp_mc, fahrenheit);
		snprintf(val, vlen, "%d of %u: %s %d%%", d->point + 1,
		         d->curve.n, t, p->cpercent / 100);
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
static void draw_graph(WINDOW *w, struct gt_rect r,
                       const struct gt_control_dialog *d,
                       const struct gt_control_dialog_data *data)
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
			gt_paint_put(w, r, y, 0, attr, lab);
		}
	}
	for (int x = 0; x < gw; x++) {
		int64_t t = (t0 + (int64_t)x * (t1 - t0) / (gw - 1)) * 1000;
		int32_t s = d->fan_auto ? -1 : gt_fancurve_eval(&d->curve, t);
		if (s < 0) {
			gt_paint_put(w, r, gh - 1, 5 + x, attr, ".");
			continue;
		}
		int y =
		    gh - 1 - (int)((int64_t)s * (gh - 1) / GT_CPERCENT_FULL);
		gt_paint_put(w, r, y, 5 + x, attr, "-");
	}
	for (unsigned i = 0; !d->fan_auto && i < d->curve.n; i++) {
		int64_t t = d->curve.pt[i].temp_mc / 1000;
		if (t < t0 || t > t1)
			continue;
		int x = (int)((t - t0) * (gw - 1) / (t1 - t0));
		int y = gh - 1 -
		        (int)((int64_t)d->curve.pt[i].cpercent * (gh - 1) /
		              GT_CPERCENT_FULL);
		gt_paint_put(w, r, y, 5 + x,
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
	temp_text(axis, sizeof(axis), (int64_t)t0 * 1000, data->fahrenheit);
	gt_paint_put(w, r, gh, 5, attr, axis);
	temp_text(axis, sizeof(axis), (int64_t)t1 * 1000, data->fahrenheit);
	gt_paint_put(w, r, gh, 5 + gw - 5, attr, axis);
	if (temp != GT_FAN_TEMP_INVALID) {
		int64_t tc = gt_control_dialog_clamp(temp / 1000, t0, t1);
		int x = (int)((tc - t0) * (gw - 1) / (t1 - t0));
		int y =
		    fan < 0
		        ? gh - 1
		        : gh - 1 -
		              (int)((int64_t)fan * (gh - 1) / GT_CPERCENT_FULL);
		for (int yy = 0; yy < gh; yy++)
			if (yy != y)
				gt_paint_put(w, r, yy, 5 + x, warn, ":");
		gt_paint_put(w, r, y, 5 + x, (int)(warn | A_BOLD), "X");
		char now[64], tnow[24];
		temp_text(tnow, sizeof(tnow), temp, data->fahrenheit);
		if (fan >= 0)
			snprintf(now, sizeof(now), "now %s, fan %d%%", tnow,
			         fan / 100);
		else
			snprintf(now, sizeof(now), "now %s, fan N/A", tnow);
		gt_paint_put(w, r, gh, 5 + gw / 2 - 8, warn, now);
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
			gt_paint_put(w, in, row++, indent, attr, buf);
			p += k;
			n -= k;
			indent = 4;
		}
		p = nl ? nl + 1 : p;
	}
	return row;
}

/* The fan dialog's lines below its fields, from row on: the device's
 * speed range, what drives the fan now, then the curve graph in the rows
 * left. */
static void draw_fan_state(WINDOW *w, struct gt_rect in, int row,
                           const struct gt_control_dialog *d,
                           const struct gt_control_dialog_data *data)
{
	int attr = data->pal->role[GT_ROLE_MAIN];
	int hi = data->pal->role[GT_ROLE_HI];
	char range[200], slow[24];

	temp_text(slow, sizeof(slow), d->caps.slowdown_mc, data->fahrenheit);
	if (d->caps.slowdown_mc > 0)
		snprintf(range, sizeof(range),
		         "device speed range %d-%d %%; below the first point, "
		         "and at %s (slowdown), the firmware drives the fan",
		         d->caps.fan_min_cpercent / 100,
		         d->caps.fan_max_cpercent / 100, slow);
	else
		snprintf(range, sizeof(range),
		         "device speed range %d-%d %%; below the first point "
		         "the firmware drives the fan",
		         d->caps.fan_min_cpercent / 100,
		         d->caps.fan_max_cpercent / 100);
	gt_paint_put(w, in, row++, 0, attr, range);
	if (data->loop && data->loop->active) {
		char st[160];
		if (data->loop->applied_cpercent >= 0)
			snprintf(st, sizeof(st),
			         "gputop's curve is running: fan at %d %% (%s)",
			         data->loop->applied_cpercent / 100,
			         gt_fan_reason_name(data->loop->reason));
		else
			snprintf(st, sizeof(st),
			         "gputop's curve is running: fan automatic now "
			         "(%s)",
			         gt_fan_reason_name(data->loop->reason));
		gt_paint_put(w, in, row++, 0, hi, st);
	} else if (data->loop && data->loop->firmware) {
		gt_paint_put(w, in, row++, 0, hi,
		             "gputop set the firmware curve");
	}
	struct gt_rect g = {in.x, in.y + row + 1, in.w, in.h - row - 4};
	draw_graph(w, g, d, data);
}

/* The fields, each with its value and the device's range or state. */
static void draw_edit(WINDOW *w, struct gt_rect in, int row,
                      const struct gt_control_dialog *d,
                      const struct gt_control_dialog_data *data)
{
	int attr = data->pal->role[GT_ROLE_MAIN];
	int sel = data->pal->role[GT_ROLE_SELECTED];
	int warn = data->pal->role[GT_ROLE_WARN];
	char val[96], note[160], line[640];
	enum gt_control_dialog_field f[F__COUNT];
	int n = gt_control_dialog_fields(d, f);

	if (n == 0)
		gt_paint_put(w, in, row++, 0, warn,
		             "nothing on this device can be changed");
	for (int i = 0; i < n && row < in.h - 2; i++, row++) {
		field_text(d, data->fahrenheit, f[i], val, sizeof(val), note,
		           sizeof(note));
		snprintf(line, sizeof(line), "%-14s < %s >", field_label(f[i]),
		         val);
		gt_paint_put(w, in, row, 0, i == d->field ? sel : attr, line);
		if (note[0])
			gt_paint_put(w, in, row, 44, attr, note);
	}
	if (d->kind == GT_CONTROL_DIALOG_FAN)
		draw_fan_state(w, in, row, d, data);
	if (d->msg[0]) {
		/* A long refusal wraps upwards from the key line. */
		const char *start[3];
		int len[3], lines = gt_paint_wrap(d->msg, in.w, 3, start, len);
		if (lines > 0)
			gt_paint_put_wrapped(w, in, in.h - 1 - lines, 0, warn,
			                     d->msg, lines);
	}
	gt_paint_put(w, in, in.h - 1, 0, attr,
	             d->kind == GT_CONTROL_DIALOG_FAN
	                 ? "Up/Down field  Left/Right change  a auto  "
	                   "Enter review  Esc close"
	                 : "Up/Down field  Left/Right change (PgUp/PgDn "
	                   "x10)  Enter review  Esc close");
}

/* The exact writes that Enter would make. */
static void draw_preview(WINDOW *w, struct gt_rect in, int row,
                         const struct gt_control_dialog *d,
                         const struct gt_control_dialog_data *data)
{
	int attr = data->pal->role[GT_ROLE_MAIN];

	gt_paint_put(w, in, row++, 0, data->pal->role[GT_ROLE_HI],
	             "These writes will be made:");
	row = draw_lines_at(w, in, row, attr, d->preview);
	row++;
	gt_paint_put(w, in, row++, 0, attr,
	             "After it is applied you have 10 s to keep it; "
	             "otherwise it is reverted.");
	gt_paint_put(w, in, in.h - 1, 0, attr,
	             d->readonly ? "Esc back (read-only: nothing will be "
	                           "written)"
	                         : "Enter/y apply   Esc back");
}

/* After the writes: the countdown to the revert (or how it ended), and
 * what each write asked for against what the device reports. */
static void draw_results(WINDOW *w, struct gt_rect in, int row,
                         const struct gt_control_dialog *d,
                         const struct gt_control_dialog_data *data)
{
	int attr = data->pal->role[GT_ROLE_MAIN];
	int warn = data->pal->role[GT_ROLE_WARN];
	char line[640];

	if (d->stage == GT_CONTROL_DIALOG_COUNTDOWN) {
		uint64_t left = d->deadline_ns > data->now_ns
		                    ? d->deadline_ns - data->now_ns
		                    : 0;
		snprintf(line, sizeof(line),
		         "Applied. Reverting in %llu s unless you keep it.",
		         (unsigned long long)((left + 999999999ull) /
		                              1000000000ull));
		gt_paint_put(w, in, row++, 0, (int)(warn | A_BOLD), line);
	} else {
		row += gt_paint_put_wrapped(w, in, row, 0,
		                            data->pal->role[GT_ROLE_HI], d->msg,
		                            in.h - 1 - row);
	}
	/* Long errors wrap inside the box, down to the key line. */
	for (size_t i = 0; i < d->nresults && row < in.h - 1; i++) {
		const struct gt_control_result *r = &d->results[i];
		if (r->rc != GT_CONTROL_OK)
			snprintf(line, sizeof(line), "%s%s: FAILED: %s",
			         d->results_reverted ? "putting back " : "",
			         r->asked, r->err);
		else
			snprintf(line, sizeof(line),
			         "%s %s; device reports %s%s",
			         d->results_reverted ? "put back" : "asked",
			         r->asked, r->applied,
			         r->differs ? "  (DIFFERS)" : "");
		row += gt_paint_put_wrapped(
		    w, in, row, 0,
		    r->rc != GT_CONTROL_OK || r->differs ? warn : attr, line,
		    in.h - 1 - row);
		if (r->rc == GT_CONTROL_OK && r->err[0] && row < in.h - 1)
			row += gt_paint_put_wrapped(w, in, row, 2, warn, r->err,
			                            in.h - 1 - row);
	}
	gt_paint_put(w, in, in.h - 1, 0, attr,
	             d->stage == GT_CONTROL_DIALOG_COUNTDOWN
	                 ? "k/Enter keep   r/Esc revert now"
	                 : "Enter/Esc close");
}

/* The writes are in flight: for how long, and how long gputop waits. */
static void draw_waiting(WINDOW *w, struct gt_rect in, int row,
                         const struct gt_control_dialog *d,
                         const struct gt_control_dialog_data *data)
{
	char line[200];
	uint64_t waited = data->now_ns > d->wait_since_ns
	                      ? data->now_ns - d->wait_since_ns
	                      : 0;
	uint64_t bound = d->wait_until_ns > d->wait_since_ns
	                     ? d->wait_until_ns - d->wait_since_ns
	                     : 0;
	snprintf(line, sizeof(line),
	         "%s: waiting for the driver (%llu s of at most %llu s)",
	         d->wait_revert ? "Putting back" : "Writing",
	         (unsigned long long)(waited / 1000000000ull),
	         (unsigned long long)((bound + 999999999ull) / 1000000000ull));
	gt_paint_put(w, in, row, 0,
	             (int)(data->pal->role[GT_ROLE_WARN] | A_BOLD), line);
	gt_paint_put(w, in, in.h - 1, 0, data->pal->role[GT_ROLE_MAIN],
	             "q quit (what was changed is put back)");
}

void gt_control_dialog_draw(WINDOW *w, const struct gt_control_dialog *d,
                            const struct gt_control_dialog_data *data)
{
	int attr = data->pal->role[GT_ROLE_MAIN];
	int warn = data->pal->role[GT_ROLE_WARN];
	char title[160], line[640];
	int rows, cols, row = 0;

	if (!d->open)
		return;
	getmaxyx(w, rows, cols);
	(void)rows;
	snprintf(title, sizeof(title), " %s: [%u] %.60s ",
	         d->kind == GT_CONTROL_DIALOG_POWER ? "Power" : "Fan",
	         data->st ? data->st->index : 0,
	         data->st ? data->st->name : "");
	int bh = d->kind == GT_CONTROL_DIALOG_FAN ? 26 : 18;
	struct gt_rect in =
	    gt_overlay_box(w, cols < 110 ? cols : 110, bh, attr, title);

	if (d->caps.why[0]) {
		gt_paint_put(w, in, row++, 0, warn, d->caps.why);
		gt_paint_put(w, in, in.h - 1, 0, attr, "Esc close");
		return;
	}
	if (d->readonly) {
		snprintf(line, sizeof(line), "read-only: %s", d->readonly_why);
		gt_paint_put(w, in, row++, 0, warn, line);
	}
	if (d->kind == GT_CONTROL_DIALOG_FAN &&
	    d->caps.fan_method == GT_FAN_METHOD_NONE) {
		gt_paint_put(w, in, row++, 0, warn, d->caps.fan_why);
		gt_paint_put(w, in, in.h - 1, 0, attr, "Esc close");
		return;
	}

	switch (d->stage) {
	case GT_CONTROL_DIALOG_EDIT:
		draw_edit(w, in, row, d, data);
		break;
	case GT_CONTROL_DIALOG_PREVIEW:
		draw_preview(w, in, row, d, data);
		break;
	case GT_CONTROL_DIALOG_WAITING:
		draw_waiting(w, in, row, d, data);
		break;
	case GT_CONTROL_DIALOG_COUNTDOWN:
	case GT_CONTROL_DIALOG_DONE:
		draw_results(w, in, row, d, data);
		break;
	}
}

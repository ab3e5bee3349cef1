/* SPDX-License-Identifier: MIT */
/*
 * panels.c - GPU panels (FULL, COMPACT, LINE; see panels.h). Names come
 * from the devices: they are escaped before they reach the terminal.
 */
#include "ui/panels.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/text.h"
#include "ui/gpugraph.h"
#include "ui/graph.h"
#include "ui/paint.h"

void gt_panels_fmt_temp(char *buf, size_t len, const struct gt_val *mc,
                        bool fahrenheit)
{
	if (!gt_val_ok(mc))
		snprintf(buf, len, "N/A");
	else if (fahrenheit)
		snprintf(buf, len, "%.0f\u00b0F",
		         (double)mc->v / 1000.0 * 9 / 5 + 32);
	else
		snprintf(buf, len, "%.0f\u00b0C", (double)mc->v / 1000.0);
}

static void fmt_bytes(char *buf, size_t len, int64_t b)
{
	double v = (double)b;
	if (v >= 1024.0 * 1024 * 1024)
		snprintf(buf, len, "%.1fG", v / (1024.0 * 1024 * 1024));
	else
		snprintf(buf, len, "%.0fM", v / (1024.0 * 1024));
}

static void fmt_rate(char *buf, size_t len, const struct gt_val *v)
{
	if (!gt_val_ok(v)) {
		snprintf(buf, len, "N/A");
		return;
	}
	double x = (double)v->v;
	if (x >= 1e9)
		snprintf(buf, len, "%.1fGB/s", x / 1e9);
	else if (x >= 1e6)
		snprintf(buf, len, "%.1fMB/s", x / 1e6);
	else
		snprintf(buf, len, "%.0fkB/s", x / 1e3);
}

static double frac(const struct gt_val *a, const struct gt_val *b)
{
	if (!gt_val_ok(a) || !gt_val_ok(b) || b->v <= 0)
		return NAN;
	return (double)a->v / (double)b->v;
}

/* "label [meter] text" in w cells from column col; returns cells used.
 * mark (a fraction, NaN for none) puts a tick in the meter's empty part,
 * e.g. where the temperature would slow the GPU down. */
static int meter(WINDOW *win, struct gt_rect r, int row, int col, int w,
                 const struct gt_panel_data *d, const char *label, double f,
                 int bar_attr, const char *text, int text_attr, double mark)
{
	char bar[256];
	int x = col;
	int mw = w - gt_paint_cells(label) - gt_paint_cells(text) - 2;
	x += gt_paint_put(win, r, row, x, d->pal->role[GT_ROLE_GRAPH_TEXT],
	                  label);
	if (mw >= 3) {
		int filled = gt_graph_meter(isnan(f) ? 0 : f, mw, d->glyphs,
		                            bar, sizeof(bar));
		x += gt_paint_put(win, r, row, x + 1,
		                  isnan(f) ? d->pal->role[GT_ROLE_INACTIVE]
		                           : bar_attr,
		                  bar) +
		     1;
		int mx = isnan(mark) || mark <= 0 || mark >= 1
		             ? -1
		             : (int)(mark * mw);
		if (mx >= filled && mx < mw)
			gt_paint_put(win, r, row, x - mw + mx,
			             d->pal->role[GT_ROLE_INACTIVE],
			             d->glyphs == GT_GLYPHS_ASCII ? "|"
			                                          : "\u2502");
	}
	x += gt_paint_put(win, r, row, x + 1, text_attr, text) + 1;
	return x - col;
}

static int grad_meter(WINDOW *win, struct gt_rect r, int row, int col, int w,
                      const struct gt_panel_data *d, const char *label,
                      double f, enum gt_gradient g, const char *text)
{
	return meter(win, r, row, col, w, d, label, f,
	             gt_palette_grad(d->pal, g, isnan(f) ? 0 : f), text,
	             d->pal->role[GT_ROLE_MAIN], NAN);
}

/* Short badge names, for panels too narrow for the long ones. */
static const char *throttle_short(unsigned bit)
{
	switch (bit) {
	case GT_THR_SW_POWER_CAP:
		return "PWR";
	case GT_THR_HW_SLOWDOWN:
		return "HWSLOW";
	case GT_THR_SYNC_BOOST:
		return "SYNC";
	case GT_THR_SW_THERMAL:
		return "SWTHM";
	case GT_THR_HW_THERMAL:
		return "HWTHM";
	case GT_THR_HW_POWER_BRAKE:
		return "BRAKE";
	case GT_THR_CURRENT_LIMIT:
		return "CURLIM";
	default:
		return "OTHER";
	}
}

int gt_panels_throttle_badges(char *buf, size_t len, const struct gt_sample *s,
                              bool short_names, int max_cells)
{
	const struct gt_val *t = &s->f[GT_F_THROTTLE];
	int n = 0;
	bool left_out = false;

	if (len)
		buf[0] = '\0';
	if (!gt_val_ok(t) || len < 2)
		return 0;
	for (unsigned bit = 1; bit <= GT_THR_OTHER; bit <<= 1) {
		const char *name = gt_throttle_name(bit);
		if (!(t->v & bit) || !name || !(bit & GT_THR_ACTIVE_MASK))
			continue;
		if (short_names)
			name = throttle_short(bit);
		int k = (int)strlen(name) + 2; /* " name " */
		/* Whole badges only, leaving room for the "+" that says one
		 * was left out (`e` lists them all). */
		if (left_out || (max_cells >= 0 && n + k + 1 > max_cells) ||
		    (size_t)(n + k + 2) > len) {
			left_out = true;
			continue;
		}
		n += snprintf(buf + n, len - (size_t)n, " %s ", name);
	}
	if (left_out && (max_cells < 0 || n + 1 <= max_cells)) {
		buf[n++] = '+';
		buf[n] = '\0';
	}
	return n;
}

/* "[0] NVIDIA H100 80GB HBM3  nvidia 590.48.01  0000:18:00.0" + state and
 * throttle badges. Badges go at the right end; what gives way when the row
 * is short, in order: badge names shrink, the driver goes, the PCI id goes,
 * then the GPU name is cut (its index stays) and the badges are clipped.
 * Nothing is drawn over anything else. */
static void name_line(WINDOW *win, struct gt_rect r, int row,
                      const struct gt_panel_data *d, bool details)
{
	char name[GT_STR_NAME * 4], head[GT_STR_NAME * 4 + 128];
	char det[3][160] = {"", "", ""}, bl[192], bs[192];
	const struct gt_static *st = d->st;
	const char *state = d->s->state == GT_DEV_LOST     ? " LOST "
	                    : d->s->state == GT_DEV_ASLEEP ? " ASLEEP "
	                    : d->stale                     ? " STALE "
	                    : d->no_data                   ? " NO DATA "
	                                                   : NULL;

	gt_text_escape(name, sizeof(name), st->name, strlen(st->name));
	snprintf(head, sizeof(head), "%s[%u] %s", d->selected ? ">" : " ",
	         st->index, name[0] ? name : "(unnamed GPU)");
	int hw = gt_paint_cells(head) + (st->demo ? 7 : 0) +
	         (state ? (int)strlen(state) + 1 : 0);
	if (details) {
		snprintf(det[0], sizeof(det[0]), "  %s %s  %s", st->driver,
		         st->driver_version, st->pci_bus_id);
		snprintf(det[1], sizeof(det[1]), "  %s", st->pci_bus_id);
	}
	int wl = gt_panels_throttle_badges(bl, sizeof(bl), d->s, false, -1);
	int ws = gt_panels_throttle_badges(bs, sizeof(bs), d->s, true, -1);
	const char *badge = NULL, *dtext = "";
	for (int k = 0; k < 6 && !badge; k++) {
		const char *dt = det[k / 2];
		int need = hw + gt_paint_cells(dt);
		int bw = wl == 0 ? 0 : k % 2 ? ws : wl;
		if (need + (bw ? bw + 1 : 0) <= r.w) {
			dtext = dt;
			badge = bw ? (k % 2 ? bs : bl) : "";
		}
	}
	int left_w = r.w;
	if (!badge) {
		/* Not even short badges fit beside the name: cut the name,
		 * keeping its index, and show the badges that fit. */
		left_w = ws ? r.w - ws - 1 : r.w;
		if (left_w < 6)
			left_w = 6;
		gt_panels_throttle_badges(bs, sizeof(bs), d->s, true,
		                          r.w - left_w - 1);
		badge = bs;
	}
	struct gt_rect lr = {r.x, r.y, left_w < r.w ? left_w : r.w, r.h};
	int x = gt_paint_put(win, lr, row, 0,
	                     d->selected ? d->pal->role[GT_ROLE_SELECTED]
	                                 : d->pal->role[GT_ROLE_TITLE],
	                     head);
	if (st->demo)
		x += gt_paint_put(win, lr, row, x + 1,
		                  d->pal->role[GT_ROLE_DEMO], " DEMO ") +
		     1;
	if (state)
		x += gt_paint_put(win, lr, row, x + 1,
		                  d->pal->role[GT_ROLE_WARN], state) +
		     1;
	x += gt_paint_put(win, lr, row, x, d->pal->role[GT_ROLE_INACTIVE],
	                  dtext);
	if (badge[0]) {
		int bw = gt_paint_cells(badge);
		int col = r.w - bw > x + 1 ? r.w - bw : x + 1;
		gt_paint_put(win, r, row, col, d->pal->role[GT_ROLE_THROTTLE],
		             badge);
	}
}

static void pcie_text(char *buf, size_t len, const struct gt_panel_data *d,
                      bool *degraded)
{
	const struct gt_sample *s = d->s;
	const struct gt_static *st = d->st;
	*degraded = false;
	if (!gt_val_ok(&s->f[GT_F_PCIE_GEN]) ||
	    !gt_val_ok(&s->f[GT_F_PCIE_WIDTH])) {
		snprintf(buf, len, "PCIe N/A");
		return;
	}
	char tx[24], rx[24];
	fmt_rate(tx, sizeof(tx), &s->f[GT_F_PCIE_TX]);
	fmt_rate(rx, sizeof(rx), &s->f[GT_F_PCIE_RX]);
	if (gt_val_ok(&st->f[GT_S_PCIE_MAX_GEN]) &&
	    gt_val_ok(&st->f[GT_S_PCIE_MAX_WIDTH])) {
		*degraded =
		    s->f[GT_F_PCIE_GEN].v < st->f[GT_S_PCIE_MAX_GEN].v ||
		    s->f[GT_F_PCIE_WIDTH].v < st->f[GT_S_PCIE_MAX_WIDTH].v;
		snprintf(buf, len, "PCIe %lldx%lld/%lldx%lld TX %s RX %s",
		         (long long)s->f[GT_F_PCIE_GEN].v,
		         (long long)s->f[GT_F_PCIE_WIDTH].v,
		         (long long)st->f[GT_S_PCIE_MAX_GEN].v,
		         (long long)st->f[GT_S_PCIE_MAX_WIDTH].v, tx, rx);
	} else {
		snprintf(buf, len, "PCIe %lldx%lld TX %s RX %s",
		         (long long)s->f[GT_F_PCIE_GEN].v,
		         (long long)s->f[GT_F_PCIE_WIDTH].v, tx, rx);
	}
}

static void clock_text(char *buf, size_t len, const struct gt_panel_data *d)
{
	const struct gt_sample *s = d->s;
	char fan[64] = "";
	char g[16] = "N/A", m[16] = "N/A";

	if (gt_val_ok(&s->f[GT_F_CLK_GRAPHICS]))
		snprintf(g, sizeof(g), "%lld",
		         (long long)s->f[GT_F_CLK_GRAPHICS].v);
	if (gt_val_ok(&s->f[GT_F_CLK_MEM]))
		snprintf(m, sizeof(m), "%lld", (long long)s->f[GT_F_CLK_MEM].v);
	if (s->fan_count) {
		const struct gt_val *pct = &s->f[GT_F_FAN_PERCENT0];
		const struct gt_val *rpm = &s->f[GT_F_FAN_RPM0];
		if (gt_val_ok(pct) && gt_val_ok(rpm))
			snprintf(fan, sizeof(fan), "  FAN %.0f%% %lldrpm",
			         (double)pct->v / 100, (long long)rpm->v);
		else if (gt_val_ok(pct))
			snprintf(fan, sizeof(fan), "  FAN %.0f%%",
			         (double)pct->v / 100);
		else if (gt_val_ok(rpm))
			snprintf(fan, sizeof(fan), "  FAN %lldrpm",
			         (long long)rpm->v);
		if (s->fan_count > 1 && fan[0]) {
			size_t n = strlen(fan);
			snprintf(fan + n, sizeof(fan) - n, " x%u",
			         s->fan_count);
		}
	}
	char gmax[16] = "", mmax[16] = "";
	if (gt_val_ok(&d->st->f[GT_S_CLK_GRAPHICS_MAX]))
		snprintf(gmax, sizeof(gmax), "/%lld",
		         (long long)d->st->f[GT_S_CLK_GRAPHICS_MAX].v);
	if (gt_val_ok(&d->st->f[GT_S_CLK_MEM_MAX]))
		snprintf(mmax, sizeof(mmax), "/%lld",
		         (long long)d->st->f[GT_S_CLK_MEM_MAX].v);
	snprintf(buf, len, "GFX %s%s MHz  MEM %s%s MHz%s", g, gmax, m, mmax,
	         fan);
}

static void vram_text(char *buf, size_t len, const struct gt_sample *s,
                      const struct gt_static *st)
{
	const struct gt_val *tot = gt_val_ok(&s->f[GT_F_MEM_TOTAL])
	                               ? &s->f[GT_F_MEM_TOTAL]
	                               : &st->f[GT_S_VRAM_TOTAL];
	char u[16], t[16];
	if (!gt_val_ok(&s->f[GT_F_MEM_USED]) || !gt_val_ok(tot)) {
		snprintf(buf, len, "N/A");
		return;
	}
	fmt_bytes(u, sizeof(u), s->f[GT_F_MEM_USED].v);
	fmt_bytes(t, sizeof(t), tot->v);
	snprintf(buf, len, "%s/%s", u, t);
}

static void power_text(char *buf, size_t len, const struct gt_sample *s)
{
	const struct gt_val *draw = &s->f[GT_F_POWER_DRAW];
	const struct gt_val *lim = &s->f[GT_F_POWER_ENFORCED];
	if (!gt_val_ok(draw))
		snprintf(buf, len, "N/A");
	else if (gt_val_ok(lim))
		snprintf(buf, len, "%.0f/%.0fW", (double)draw->v / 1000,
		         (double)lim->v / 1000);
	else
		snprintf(buf, len, "%.0fW", (double)draw->v / 1000);
}

/* The temperature that counts as "at slowdown": the slowdown threshold,
 * else a little below shutdown; 0 when neither is known. */
static int64_t slow_mc(const struct gt_val *slow, const struct gt_val *shut)
{
	if (gt_val_ok(slow) && slow->v > 0)
		return slow->v;
	if (gt_val_ok(shut) && shut->v > 5000)
		return shut->v - 5000;
	return 0;
}

enum gt_panels_temp_level gt_panels_temp_level(const struct gt_val *t,
                                               const struct gt_val *slow,
                                               const struct gt_val *shut)
{
	if (!gt_val_ok(t))
		return GT_TEMP_UNKNOWN;
	int64_t lim = slow_mc(slow, shut);
	if ((lim && t->v >= lim) ||
	    (gt_val_ok(shut) && shut->v > 0 && t->v >= shut->v))
		return GT_TEMP_HOT;
	if (lim && t->v >= lim - GT_TEMP_WARM_MARGIN_MC)
		return GT_TEMP_WARM;
	return GT_TEMP_NORMAL;
}

/* The gauge's full scale: shutdown, else just past slowdown, else 100 °C. */
static double temp_scale(const struct gt_static *st)
{
	const struct gt_val *slow = &st->f[GT_S_TEMP_SLOWDOWN];
	const struct gt_val *shut = &st->f[GT_S_TEMP_SHUTDOWN];
	if (gt_val_ok(shut) && shut->v > 0)
		return (double)shut->v;
	if (gt_val_ok(slow) && slow->v > 0)
		return (double)slow->v + 10000.0;
	return 100000.0;
}

/* "61°C  slow 87°C  shut 92°C", shortened to fit `room` cells; thresholds
 * that are N/A are left out (`e` explains them). */
static void temp_text(char *buf, size_t len, const struct gt_panel_data *d,
                      int room)
{
	char t[24], slow[24], shut[24];
	const struct gt_val *vs = &d->st->f[GT_S_TEMP_SLOWDOWN];
	const struct gt_val *vh = &d->st->f[GT_S_TEMP_SHUTDOWN];
	gt_panels_fmt_temp(t, sizeof(t), &d->s->f[GT_F_TEMP_GPU],
	                   d->fahrenheit);
	gt_panels_fmt_temp(slow, sizeof(slow), vs, d->fahrenheit);
	gt_panels_fmt_temp(shut, sizeof(shut), vh, d->fahrenheit);
	bool ks = gt_val_ok(vs), kh = gt_val_ok(vh);
	snprintf(buf, len, "%s%s%s%s%s", t, ks ? "  slow " : "", ks ? slow : "",
	         kh ? "  shut " : "", kh ? shut : "");
	if (gt_paint_cells(buf) <= room)
		return;
	snprintf(buf, len, "%s%s%s%s%s", t, ks ? " slow " : "", ks ? slow : "",
	         kh ? " shut " : "", kh ? shut : "");
	if (gt_paint_cells(buf) <= room)
		return;
	if (ks || kh)
		snprintf(buf, len, "%s (%s %s)", t, ks ? "slow" : "shut",
		         ks ? slow : shut);
	if (gt_paint_cells(buf) <= room)
		return;
	snprintf(buf, len, "%s", t);
}

/* TEMP label, gauge against the thresholds with a tick at slowdown, and
 * the value; bar and value change colour in steps, not along a gradient,
 * so "close to slowdown" and "slowing down" read at a glance. */
static void temp_gauge(WINDOW *win, struct gt_rect r, int row, int col, int w,
                       const struct gt_panel_data *d)
{
	char text[96];
	const struct gt_val *t = &d->s->f[GT_F_TEMP_GPU];
	const struct gt_val *slow = &d->st->f[GT_S_TEMP_SLOWDOWN];
	const struct gt_val *shut = &d->st->f[GT_S_TEMP_SHUTDOWN];
	const struct gt_palette *p = d->pal;
	double scale = temp_scale(d->st);
	int64_t lim = slow_mc(slow, shut);
	/* The text may take what leaves the gauge 8 cells. */
	temp_text(text, sizeof(text), d, w - 4 - 2 - 8);
	int bar = p->grad[GT_GRAD_TEMP][0], txt = p->role[GT_ROLE_MAIN];
	switch (gt_panels_temp_level(t, slow, shut)) {
	case GT_TEMP_WARM:
		bar = txt = p->role[GT_ROLE_WARN];
		break;
	case GT_TEMP_HOT:
		bar = p->grad[GT_GRAD_TEMP][GT_GRAD_STEPS - 1] | A_BOLD;
		txt = p->role[GT_ROLE_THROTTLE];
		break;
	case GT_TEMP_NORMAL:
	case GT_TEMP_UNKNOWN:
		break;
	}
	meter(win, r, row, col, w, d, "TEMP",
	      gt_val_ok(t) ? (double)t->v / scale : NAN, bar, text, txt,
	      lim ? (double)lim / scale : NAN);
}

/* The colour of a temperature's text: the gauge's steps. */
static int temp_attr(const struct gt_panel_data *d)
{
	switch (gt_panels_temp_level(&d->s->f[GT_F_TEMP_GPU],
	                             &d->st->f[GT_S_TEMP_SLOWDOWN],
	                             &d->st->f[GT_S_TEMP_SHUTDOWN])) {
	case GT_TEMP_WARM:
		return d->pal->role[GT_ROLE_WARN];
	case GT_TEMP_HOT:
		return d->pal->role[GT_ROLE_THROTTLE];
	case GT_TEMP_NORMAL:
	case GT_TEMP_UNKNOWN:
		break;
	}
	return d->pal->role[GT_ROLE_MAIN];
}

static void draw_full(WINDOW *win, struct gt_rect r,
                      const struct gt_panel_data *d)
{
	char a[160], b[160];
	int rows_below = 4; /* VRAM, temp+power, clocks/fans, PCIe */
	int gh = r.h - 1 - rows_below;
	bool degraded;
	int half = r.w / 2;

	name_line(win, r, 0, d, true);
	if (gh > 0)
		gt_gpugraph_draw(win, (struct gt_rect){r.x, r.y + 1, r.w, gh},
		                 d);
	else
		rows_below = r.h - 1;
	int row = 1 + (gh > 0 ? gh : 0);
	const struct gt_sample *s = d->s;
	const struct gt_val *tot = gt_val_ok(&s->f[GT_F_MEM_TOTAL])
	                               ? &s->f[GT_F_MEM_TOTAL]
	                               : &d->st->f[GT_S_VRAM_TOTAL];
	vram_text(a, sizeof(a), s, d->st);
	if (gt_val_ok(&s->f[GT_F_GTT_USED]) &&
	    gt_val_ok(&s->f[GT_F_GTT_TOTAL])) {
		grad_meter(win, r, row, 0, half - 1, d, "VRAM",
		           frac(&s->f[GT_F_MEM_USED], tot), GT_GRAD_VRAM, a);
		char gu[16], gtot[16];
		fmt_bytes(gu, sizeof(gu), s->f[GT_F_GTT_USED].v);
		fmt_bytes(gtot, sizeof(gtot), s->f[GT_F_GTT_TOTAL].v);
		snprintf(b, sizeof(b), "%s/%s", gu, gtot);
		grad_meter(win, r, row, half, r.w - half, d, "GTT",
		           frac(&s->f[GT_F_GTT_USED], &s->f[GT_F_GTT_TOTAL]),
		           GT_GRAD_VRAM, b);
	} else {
		grad_meter(win, r, row, 0, r.w, d, "VRAM",
		           frac(&s->f[GT_F_MEM_USED], tot), GT_GRAD_VRAM, a);
	}
	if (++row >= r.h)
		return;
	temp_gauge(win, r, row, 0, half - 1, d);
	power_text(b, sizeof(b), s);
	grad_meter(win, r, row, half, r.w - half, d, "POWER",
	           frac(&s->f[GT_F_POWER_DRAW], &s->f[GT_F_POWER_ENFORCED]),
	           GT_GRAD_POWER, b);
	if (++row >= r.h)
		return;
	clock_text(a, sizeof(a), d);
	gt_paint_put(win, r, row, 0, d->pal->role[GT_ROLE_MAIN], a);
	if (++row >= r.h)
		return;
	pcie_text(a, sizeof(a), d, &degraded);
	gt_paint_put(win, r, row, 0,
	             degraded ? d->pal->role[GT_ROLE_WARN]
	                      : d->pal->role[GT_ROLE_MAIN],
	             a);
}

static void draw_compact(WINDOW *win, struct gt_rect r,
                         const struct gt_panel_data *d)
{
	char a[160], b[160], c[160];
	bool degraded;
	const struct gt_sample *s = d->s;
	const struct gt_val *tot = gt_val_ok(&s->f[GT_F_MEM_TOTAL])
	                               ? &s->f[GT_F_MEM_TOTAL]
	                               : &d->st->f[GT_S_VRAM_TOTAL];
	int third = r.w / 3;

	name_line(win, r, 0, d, false);
	if (r.h > 1) {
		const struct gt_val *u = &s->f[GT_F_UTIL_GPU];
		if (gt_val_ok(u))
			snprintf(a, sizeof(a), "%3.0f%%%s", (double)u->v / 100,
			         s->util_gpu_lower_bound ? "+" : "");
		else
			snprintf(a, sizeof(a), "N/A");
		grad_meter(win, r, 1, 0, third - 1, d, "GPU",
		           gt_val_ok(u) ? (double)u->v / 10000.0 : NAN,
		           GT_GRAD_GPU, a);
		vram_text(b, sizeof(b), s, d->st);
		grad_meter(win, r, 1, third, third - 1, d, "MEM",
		           frac(&s->f[GT_F_MEM_USED], tot), GT_GRAD_VRAM, b);
		gt_panels_fmt_temp(c, sizeof(c), &s->f[GT_F_TEMP_GPU],
		                   d->fahrenheit);
		int x = gt_paint_put(win, r, 1, 2 * third + 1, temp_attr(d), c);
		power_text(b, sizeof(b), s);
		gt_paint_put(win, r, 1, 2 * third + 2 + x,
		             d->pal->role[GT_ROLE_MAIN], b);
	}
	if (r.h > 2) {
		/* The short forms: a compact row has no room for maxima. */
		char g[16] = "N/A", m[16] = "N/A", tx[24], rx[24];
		if (gt_val_ok(&s->f[GT_F_CLK_GRAPHICS]))
			snprintf(g, sizeof(g), "%lld",
			         (long long)s->f[GT_F_CLK_GRAPHICS].v);
		if (gt_val_ok(&s->f[GT_F_CLK_MEM]))
			snprintf(m, sizeof(m), "%lld",
			         (long long)s->f[GT_F_CLK_MEM].v);
		snprintf(a, sizeof(a), "GFX %s MEM %s MHz", g, m);
		int x =
		    gt_paint_put(win, r, 2, 1, d->pal->role[GT_ROLE_MAIN], a);
		pcie_text(b, sizeof(b), d, &degraded);
		if (gt_val_ok(&s->f[GT_F_PCIE_GEN]) &&
		    gt_val_ok(&s->f[GT_F_PCIE_WIDTH])) {
			fmt_rate(tx, sizeof(tx), &s->f[GT_F_PCIE_TX]);
			fmt_rate(rx, sizeof(rx), &s->f[GT_F_PCIE_RX]);
			snprintf(b, sizeof(b), "PCIe %lldx%lld TX %s RX %s",
			         (long long)s->f[GT_F_PCIE_GEN].v,
			         (long long)s->f[GT_F_PCIE_WIDTH].v, tx, rx);
		}
		gt_paint_put(win, r, 2, x + 3,
		             degraded ? d->pal->role[GT_ROLE_WARN]
		                      : d->pal->role[GT_ROLE_MAIN],
		             b);
	}
}

static void draw_line(WINDOW *win, struct gt_rect r,
                      const struct gt_panel_data *d)
{
	char name[GT_STR_NAME * 4], a[64], b[64], t[24], row[320];
	const struct gt_sample *s = d->s;
	int namew = r.w >= 100 ? 24 : r.w >= 60 ? 14 : 8;

	gt_text_escape(name, sizeof(name), d->st->name, strlen(d->st->name));
	snprintf(row, sizeof(row), "%s%u %-*.*s", d->selected ? ">" : " ",
	         d->st->index, namew, namew, name);
	int x = gt_paint_put(win, r, 0, 0,
	                     d->selected ? d->pal->role[GT_ROLE_SELECTED]
	                                 : d->pal->role[GT_ROLE_TITLE],
	                     row);
	const char *state = s->state == GT_DEV_LOST     ? "LOST"
	                    : s->state == GT_DEV_ASLEEP ? "ASLEEP"
	                    : d->stale                  ? "STALE"
	                    : d->no_data                ? "NO DATA"
	                                                : NULL;
	if (state) {
		gt_paint_put(win, r, 0, x + 1, d->pal->role[GT_ROLE_WARN],
		             state);
		return;
	}
	if (gt_val_ok(&s->f[GT_F_UTIL_GPU]))
		snprintf(a, sizeof(a), "%3.0f%%",
		         (double)s->f[GT_F_UTIL_GPU].v / 100);
	else
		snprintf(a, sizeof(a), " N/A");
	int mw = r.w >= 80 ? 12 : r.w >= 50 ? 6 : 0;
	x += gt_paint_put(win, r, 0, x + 1, d->pal->role[GT_ROLE_MAIN], a) + 1;
	if (mw) {
		char bar[64];
		double f = gt_val_ok(&s->f[GT_F_UTIL_GPU])
		               ? (double)s->f[GT_F_UTIL_GPU].v / 10000.0
		               : 0;
		gt_graph_meter(f, mw, d->glyphs, bar, sizeof(bar));
		x +=
		    gt_paint_put(win, r, 0, x + 1,
		                 gt_palette_grad(d->pal, GT_GRAD_GPU, f), bar) +
		    1;
	}
	vram_text(b, sizeof(b), s, d->st);
	gt_panels_fmt_temp(t, sizeof(t), &s->f[GT_F_TEMP_GPU], d->fahrenheit);
	power_text(a, sizeof(a), s);
	snprintf(row, sizeof(row), "MEM %s", b);
	x +=
	    gt_paint_put(win, r, 0, x + 2, d->pal->role[GT_ROLE_MAIN], row) + 2;
	x += gt_paint_put(win, r, 0, x + 2, temp_attr(d), t) + 2;
	x += gt_paint_put(win, r, 0, x + 2, d->pal->role[GT_ROLE_MAIN], a) + 2;
	/* Badges after the numbers, never over them: long names, else short
	 * ones, else as many short ones as fit. */
	if (gt_panels_throttle_badges(row, sizeof(row), s, false, -1) >
	    r.w - x - 2)
		gt_panels_throttle_badges(row, sizeof(row), s, true,
		                          r.w - x - 2);
	if (row[0] && x + 1 < r.w) {
		int bw = gt_paint_cells(row);
		gt_paint_put(win, r, 0, r.w - bw > x + 1 ? r.w - bw : x + 1,
		             d->pal->role[GT_ROLE_THROTTLE], row);
	}
}

void gt_panels_draw_gpu(WINDOW *w, struct gt_rect r, enum gt_gpu_mode mode,
                        const struct gt_panel_data *d)
{
	if (r.w <= 0 || r.h <= 0)
		return;
	switch (mode) {
	case GT_GPU_FULL:
		draw_full(w, r, d);
		break;
	case GT_GPU_COMPACT:
		draw_compact(w, r, d);
		break;
	case GT_GPU_LINE:
		draw_line(w, r, d);
		break;
	}
}

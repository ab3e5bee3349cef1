/* SPDX-License-Identifier: MIT */
/*
 * panels_info.c - the lines of numbers of a FULL or COMPACT GPU panel (see
 * panels.h). Meters come first: GPU, VRAM, TEMP and POWER, four to a line
 * when the panel is wide (gt_layout_info_need), else two; then the other
 * numbers flow onto the lines left, the most important first when they do
 * not all fit: the PCIe link, the graphics clock and GTT, memory bandwidth
 * and fans, the memory clock, the PCIe traffic, the encoder and decoder.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/text.h"
#include "ui/graph.h"
#include "ui/paint.h"
#include "ui/panels_priv.h"

enum { LABEL_W = 5 }; /* "POWER": meters line up whatever their label */

/* A meter cell of w cells from col: label, bar, then the text against the
 * cell's right end. The bar goes first when room is short, then the
 * label; the text is drawn whole or not at all. mark (a fraction, NaN for
 * none) puts a tick in the bar's empty part, e.g. where the temperature
 * slows the GPU down. A meter without a scale has no bar: its text
 * follows the label, so no empty track reads as 0 %. */
struct meter {
	const char *label;
	double frac; /* NaN: unknown, no bar */
	int bar_attr;
	const char *text;
	int text_attr;
	double mark;
	int widest; /* cells the text can take while the scale holds */
};

/* A percentage of cpercent v and what follows it, or N/A. */
static void pct(char *buf, size_t len, const struct gt_val *v,
                const char *after)
{
	struct gt_text_buf b;
	gt_text_buf_init(&b, buf, len);
	if (gt_val_ok(v)) {
		gt_text_buf_fixed(&b, v->v, 100, 0);
		gt_text_buf_str(&b, "%");
		gt_text_buf_str(&b, after);
	} else {
		gt_text_buf_str(&b, "N/A");
	}
}

static void meter_cell(WINDOW *win, struct gt_rect r, int row, int col, int w,
                       const struct gt_panel_data *d, const struct meter *m)
{
	char bar[256];
	int tw = gt_paint_cells(m->text);
	int mw = w - LABEL_W - 1 - tw - 1;

	if (tw > w)
		return;
	bool unknown = isnan(m->frac);
	bool labelled = LABEL_W + 1 + tw <= w;
	int tx = unknown && labelled ? col + LABEL_W + 1 : col + w - tw;
	gt_paint_put(win, r, row, tx, m->text_attr, m->text);
	if (!labelled)
		return;
	gt_paint_put(win, r, row, col, d->pal->role[GT_ROLE_GRAPH_TEXT],
	             m->label);
	if (mw < 3 || unknown)
		return;
	if (mw > 200)
		mw = 200;
	int filled = gt_graph_meter(m->frac, mw, d->glyphs, bar, sizeof(bar));
	int bx = col + LABEL_W + 1;
	gt_paint_put(win, r, row, bx, m->bar_attr, bar);
	int mx = isnan(m->mark) || m->mark <= 0 || m->mark >= 1
	             ? -1
	             : (int)(m->mark * mw);
	if (mx >= filled && mx < mw)
		gt_paint_put(win, r, row, bx + mx,
		             d->pal->role[GT_ROLE_INACTIVE],
		             d->glyphs == GT_GLYPHS_ASCII ? "|" : "\u2502");
}

static double frac(const struct gt_val *a, const struct gt_val *b)
{
	if (!gt_val_ok(a) || !gt_val_ok(b) || b->v <= 0)
		return NAN;
	return (double)a->v / (double)b->v;
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

/* The four meters' data; the temperature's text is made for its cell. */
enum { M_GPU, M_VRAM, M_TEMP, M_POWER, M__COUNT };
struct meters {
	struct meter m[M__COUNT];
	char text[M__COUNT][96];
};

/* The widest each meter's text gets while its scale holds, so that the
 * bars do not move as the values change: a full GPU, a full memory, a
 * draw at the limit; a temperature of three digits (whatever else it says
 * comes out of its bar). */
static void set_widest(struct meters *ms, const struct gt_panel_data *d)
{
	const struct gt_sample *s = d->s;
	const struct gt_val *total = gt_panels_mem_total(d);
	const struct gt_val *lim = &s->f[GT_F_POWER_ENFORCED];
	char buf[96];

	ms->m[M_GPU].widest = (int)strlen("100%") + s->util_gpu_lower_bound;
	gt_panels_fmt_mem(buf, sizeof(buf), total, total);
	ms->m[M_VRAM].widest = gt_paint_cells(buf);
	ms->m[M_TEMP].widest = gt_paint_cells("100\u00b0C");
	gt_panels_fmt_power(buf, sizeof(buf), lim, lim);
	ms->m[M_POWER].widest = gt_paint_cells(buf);
	for (int i = 0; i < M__COUNT; i++) {
		int now = gt_paint_cells(ms->m[i].text);
		if (now > ms->m[i].widest)
			ms->m[i].widest = now;
	}
}

static void make_meters(struct meters *ms, const struct gt_panel_data *d)
{
	const struct gt_sample *s = d->s;
	const struct gt_palette *p = d->pal;
	const struct gt_val *u = &s->f[GT_F_UTIL_GPU];
	const struct gt_val *t = &s->f[GT_F_TEMP_GPU];
	const struct gt_val *slow = &d->st->f[GT_S_TEMP_SLOWDOWN];
	const struct gt_val *shut = &d->st->f[GT_S_TEMP_SHUTDOWN];
	double fu = gt_val_ok(u) ? (double)u->v / 10000.0 : NAN;
	double fv = frac(&s->f[GT_F_MEM_USED], gt_panels_mem_total(d));
	double fp = frac(&s->f[GT_F_POWER_DRAW], &s->f[GT_F_POWER_ENFORCED]);
	double scale = temp_scale(d->st);
	int main = p->role[GT_ROLE_MAIN];

	pct(ms->text[M_GPU], sizeof(ms->text[M_GPU]), u,
	    s->util_gpu_lower_bound ? "+" : "");
	gt_panels_fmt_mem(ms->text[M_VRAM], sizeof(ms->text[M_VRAM]),
	                  &s->f[GT_F_MEM_USED], gt_panels_mem_total(d));
	ms->text[M_TEMP][0] = '\0'; /* gt_panels_temp_text, for its cell */
	gt_panels_fmt_power(ms->text[M_POWER], sizeof(ms->text[M_POWER]),
	                    &s->f[GT_F_POWER_DRAW], &s->f[GT_F_POWER_ENFORCED]);
	if (gt_val_ok(&s->f[GT_F_POWER_DRAW]) && isnan(fp))
		/* A draw without a limit: the gauge has no scale; say so. */
		strncat(ms->text[M_POWER], ", limit N/A",
		        sizeof(ms->text[M_POWER]) - 1 -
		            strlen(ms->text[M_POWER]));
	ms->m[M_GPU] =
	    (struct meter){"GPU",
	                   fu,
	                   gt_palette_grad(p, GT_GRAD_GPU, isnan(fu) ? 0 : fu),
	                   ms->text[M_GPU],
	                   main,
	                   NAN,
	                   0};
	ms->m[M_VRAM] =
	    (struct meter){"VRAM",
	                   fv,
	                   gt_palette_grad(p, GT_GRAD_VRAM, isnan(fv) ? 0 : fv),
	                   ms->text[M_VRAM],
	                   main,
	                   NAN,
	                   0};
	ms->m[M_POWER] = (struct meter){
	    "POWER",
	    fp,
	    gt_palette_grad(p, GT_GRAD_POWER, isnan(fp) ? 0 : fp),
	    ms->text[M_POWER],
	    main,
	    NAN,
	    0};
	/* Temperature: bar and value change colour in steps, not along a
	 * gradient, so "close to slowdown" and "slowing down" read at a
	 * glance; the tick is at slowdown. */
	int bar = p->grad[GT_GRAD_TEMP][0];
	switch (gt_panels_temp_level(t, slow, shut)) {
	case GT_TEMP_WARM:
		bar = p->role[GT_ROLE_WARN];
		break;
	case GT_TEMP_HOT:
		bar = p->grad[GT_GRAD_TEMP][GT_GRAD_STEPS - 1] | A_BOLD;
		break;
	case GT_TEMP_NORMAL:
	case GT_TEMP_UNKNOWN:
		break;
	}
	int64_t lim = gt_val_ok(slow) && slow->v > 0      ? slow->v
	              : gt_val_ok(shut) && shut->v > 5000 ? shut->v - 5000
	                                                  : 0;
	ms->m[M_TEMP] =
	    (struct meter){"TEMP",
	                   gt_val_ok(t) ? (double)t->v / scale : NAN,
	                   bar,
	                   ms->text[M_TEMP],
	                   gt_panels_temp_attr(d),
	                   lim ? (double)lim / scale : NAN,
	                   0};
	set_widest(ms, d);
}

/* Meters in a grid of `rows` lines and k columns two cells apart; cell
 * lists them row by row. A column is as wide as the widest label and text
 * it holds, and the cells left over are shared equally among the columns'
 * bars, so that every meter keeps a bar and a column's meters line up.
 * When that leaves bars under 3 cells, the columns are equal instead. The
 * temperature's text takes what leaves its bar 6 cells. */
static void meter_grid(WINDOW *win, struct gt_rect r, struct meters *ms,
                       const int *cell, int rows, int k,
                       const struct gt_panel_data *d)
{
	int need[M__COUNT] = {0}, x[M__COUNT + 1] = {0};
	int pool = r.w - 2 * (k - 1);

	for (int c = 0; c < k; c++) {
		for (int i = 0; i < rows; i++) {
			int n = LABEL_W + 1 + ms->m[cell[i * k + c]].widest + 1;
			need[c] = n > need[c] ? n : need[c];
		}
		pool -= need[c];
	}
	for (int c = 0; c < k; c++)
		x[c + 1] = pool >= 3 * k
		               ? x[c] + need[c] + pool / k + (c < pool % k) + 2
		               : (c + 1) * (r.w + 2) / k;
	for (int i = 0; i < rows; i++)
		for (int c = 0; c < k; c++) {
			int m = cell[i * k + c], w = x[c + 1] - 2 - x[c];
			if (m == M_TEMP)
				gt_panels_temp_text(ms->text[M_TEMP],
				                    sizeof(ms->text[M_TEMP]), d,
				                    w - LABEL_W - 2 - 6);
			meter_cell(win, r, i, x[c], w, d, &ms->m[m]);
		}
}

/* ---- the other numbers -------------------------------------------- */

struct item {
	char text[112];
	int attr;
	int prio; /* 1 first */
	int line; /* of the narrow arrangement: 0 the clocks', 1 PCIe's */
};

static int add(struct item *it, int n, int prio, int line, int attr,
               const char *text)
{
	size_t k = strnlen(text, sizeof(it[n].text) - 1);
	memcpy(it[n].text, text, k); /* a dozen a panel: no printf */
	it[n].text[k] = '\0';
	it[n].attr = attr;
	it[n].prio = prio;
	it[n].line = line;
	return n + 1;
}

static void mhz(char *buf, size_t len, const struct gt_val *v,
                const struct gt_val *max)
{
	if (!gt_val_ok(v))
		snprintf(buf, len, "N/A");
	else if (gt_val_ok(max))
		snprintf(buf, len, "%lld/%lld MHz", (long long)v->v,
		         (long long)max->v);
	else
		snprintf(buf, len, "%lld MHz", (long long)v->v);
}

static void fan_text(char *buf, size_t len, const struct gt_sample *s)
{
	const struct gt_val *p = &s->f[GT_F_FAN_PERCENT0];
	const struct gt_val *rpm = &s->f[GT_F_FAN_RPM0];
	char many[16] = "";

	if (s->fan_count > 1)
		snprintf(many, sizeof(many), " x%u", s->fan_count);
	if (gt_val_ok(p) && gt_val_ok(rpm))
		snprintf(buf, len, "%.0f%% %lld rpm%s", (double)p->v / 100,
		         (long long)rpm->v, many);
	else if (gt_val_ok(p))
		snprintf(buf, len, "%.0f%%%s", (double)p->v / 100, many);
	else if (gt_val_ok(rpm))
		snprintf(buf, len, "%lld rpm%s", (long long)rpm->v, many);
	else
		snprintf(buf, len, "N/A");
}

static int make_items(struct item *it, const struct gt_panel_data *d)
{
	const struct gt_sample *s = d->s;
	const struct gt_static *st = d->st;
	int main = d->pal->role[GT_ROLE_MAIN];
	char a[48], b[48], t[112];
	int n = 0;

	pct(a, sizeof(a), &s->f[GT_F_UTIL_MEMBW], "");
	snprintf(t, sizeof(t), "MEMBW %s", a);
	n = add(it, n, 3, 0, main, t);
	if (gt_val_ok(&s->f[GT_F_GTT_TOTAL])) {
		/* System memory the GPU maps: what an APU mostly uses. */
		gt_panels_fmt_mem(a, sizeof(a), &s->f[GT_F_GTT_USED],
		                  &s->f[GT_F_GTT_TOTAL]);
		snprintf(t, sizeof(t), "GTT %s", a);
		n = add(it, n, 2, 0, main, t);
	}
	mhz(a, sizeof(a), &s->f[GT_F_CLK_GRAPHICS],
	    &st->f[GT_S_CLK_GRAPHICS_MAX]);
	snprintf(t, sizeof(t), "GFX %s", a);
	n = add(it, n, 2, 0, main, t);
	mhz(a, sizeof(a), &s->f[GT_F_CLK_MEM], &st->f[GT_S_CLK_MEM_MAX]);
	snprintf(t, sizeof(t), "MEM %s", a);
	n = add(it, n, 4, 0, main, t);
	if (s->fan_count) {
		fan_text(a, sizeof(a), s);
		snprintf(t, sizeof(t), "FAN %s", a);
		n = add(it, n, 3, 0, main, t);
	}
	pct(a, sizeof(a), &s->f[GT_F_UTIL_ENC], "");
	pct(b, sizeof(b), &s->f[GT_F_UTIL_DEC], "");
	snprintf(t, sizeof(t), "ENC %s  DEC %s", a, b);
	n = add(it, n, 6, 0, main, t);
	const struct gt_val *g = &s->f[GT_F_PCIE_GEN];
	const struct gt_val *w = &s->f[GT_F_PCIE_WIDTH];
	if (!gt_val_ok(g) || !gt_val_ok(w))
		snprintf(a, sizeof(a), "N/A");
	else if (gt_val_ok(&st->f[GT_S_PCIE_MAX_GEN]) &&
	         gt_val_ok(&st->f[GT_S_PCIE_MAX_WIDTH]))
		snprintf(a, sizeof(a), "%lldx%lld/%lldx%lld", (long long)g->v,
		         (long long)w->v, (long long)st->f[GT_S_PCIE_MAX_GEN].v,
		         (long long)st->f[GT_S_PCIE_MAX_WIDTH].v);
	else
		snprintf(a, sizeof(a), "%lldx%lld", (long long)g->v,
		         (long long)w->v);
	snprintf(t, sizeof(t), "PCIe %s", a);
	n = add(it, n, 1, 1,
	        gt_panels_pcie_degraded(d) ? d->pal->role[GT_ROLE_WARN] : main,
	        t);
	gt_panels_fmt_rate(a, sizeof(a), &s->f[GT_F_PCIE_TX]);
	gt_panels_fmt_rate(b, sizeof(b), &s->f[GT_F_PCIE_RX]);
	snprintf(t, sizeof(t), "TX %s  RX %s", a, b);
	n = add(it, n, 5, 1, main, t);
	return n;
}

/* The items of `line` (-1: all) that fit w, the most important first,
 * drawn in their own order two cells apart. */
static void flow(WINDOW *win, struct gt_rect r, int row, const struct item *it,
                 int n, int line)
{
	bool take[16] = {false};
	int used = 0;

	for (int prio = 1; prio <= 6; prio++)
		for (int i = 0; i < n && i < 16; i++) {
			if (it[i].prio != prio ||
			    (line >= 0 && it[i].line != line))
				continue;
			int k = gt_paint_cells(it[i].text) + (used ? 2 : 0);
			if (used + k <= r.w) {
				take[i] = true;
				used += k;
			}
		}
	int x = 0;
	for (int i = 0; i < n && i < 16; i++)
		if (take[i])
			x += gt_paint_put(win, r, row, x, it[i].attr,
			                  it[i].text) +
			     2;
}

void gt_panels_draw_info(WINDOW *win, const struct gt_panel_parts *pp,
                         const struct gt_panel_data *d)
{
	/* One line of four, or two lines of two. */
	static const int grid[] = {M_GPU, M_VRAM, M_TEMP, M_POWER};
	struct meters ms = {0};
	struct item it[16];
	struct gt_rect r = pp->info;
	int lines = pp->info_lines;

	make_meters(&ms, d);
	int n = make_items(it, d);
	if (pp->wide) {
		meter_grid(win, r, &ms, grid, 1, M__COUNT, d);
		if (lines >= 2)
			flow(win, r, 1, it, n, -1);
		return;
	}
	meter_grid(win, r, &ms, grid, lines >= 2 ? 2 : 1, 2, d);
	if (lines == 3)
		flow(win, r, 2, it, n, -1);
	if (lines >= 4) {
		flow(win, r, 2, it, n, 0);
		flow(win, r, 3, it, n, 1);
	}
}

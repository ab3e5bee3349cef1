/* SPDX-License-Identifier: MIT */
/*
 * panels_line.c - LINE panels (see panels.h): one GPU a row of a table
 * with fixed columns for the row's width, so the rows of all GPUs line up
 * under the column names of their frame. Numbers are right-aligned and
 * drawn whole: a number wider than its column shows as "#" marks, as a
 * spreadsheet does, never cut.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ui/graph.h"
#include "ui/paint.h"
#include "ui/panels_priv.h"

/* Gives column c `to` cells if the row has room: true if it did. */
static bool grow(int *w, int *used, int width, int c, int to)
{
	int more = to - w[c] + (w[c] == 0 && *used > 0 ? 1 : 0);

	if (to <= w[c])
		return true;
	if (*used + more > width)
		return false;
	*used += more;
	w[c] = to;
	return true;
}

/* Widens column c, when shown, by what is left of width, up to max. */
static void take_spare(int *w, int *used, int width, enum gt_panels_col c,
                       int max)
{
	int more = width - *used < max - w[c] ? width - *used : max - w[c];
	if (w[c] && more > 0) {
		w[c] += more;
		*used += more;
	}
}

void gt_panels_line_columns(int width, struct gt_panels_cols *out)
{
	/* What is kept first, then what a wider row adds, in order. Widths
	 * are what the usual value needs ("100%+", "71.5/79.6 GiB",
	 * "620/700 W"), then the widest ("191.5/192.0 GiB", "1000/1000 W"). */
	static const struct {
		enum gt_panels_col c;
		int to;
	} steps[] = {
	    {GT_PCOL_INDEX, 3},  {GT_PCOL_NAME, 4},  {GT_PCOL_GPU, 5},
	    {GT_PCOL_BADGES, 8}, {GT_PCOL_TEMP, 5},  {GT_PCOL_VRAM, 13},
	    {GT_PCOL_POWER, 9},  {GT_PCOL_NAME, 8},  {GT_PCOL_NAME, 12},
	    {GT_PCOL_METER, 8},  {GT_PCOL_VRAM, 15}, {GT_PCOL_POWER, 11},
	    {GT_PCOL_NAME, 16},  {GT_PCOL_GFX, 8},   {GT_PCOL_MEMBW, 4},
	    {GT_PCOL_PCIE, 5},   {GT_PCOL_FAN, 4},   {GT_PCOL_NAME, 20},
	    {GT_PCOL_METER, 16}, {GT_PCOL_ENC, 4},   {GT_PCOL_DEC, 4},
	    {GT_PCOL_TX, 11},    {GT_PCOL_RX, 11},   {GT_PCOL_NAME, 24},
	    {GT_PCOL_METER, 24},
	};
	enum { KEPT = 7 };
	int used = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (!grow(out->w, &used, width, steps[i].c, steps[i].to) &&
		    i < KEPT)
			break; /* a kept column missing: nothing after it */
	/* Spare room: a whole name, then a longer bar, then the badges;
	 * never a blank band at the right end. */
	take_spare(out->w, &used, width, GT_PCOL_NAME, 24);
	take_spare(out->w, &used, width, GT_PCOL_METER, 24);
	if (out->w[GT_PCOL_BADGES])
		out->w[GT_PCOL_BADGES] += width - used;
	int x = 0;
	for (int c = 0; c < GT_PCOL__COUNT; c++) {
		if (!out->w[c])
			continue;
		out->x[c] = x;
		x += out->w[c] + 1;
	}
}

/* text right-aligned in column c, or "#" marks when it is too wide. */
static void cell(WINDOW *win, struct gt_rect r, const struct gt_panels_cols *c,
                 enum gt_panels_col k, int attr, const char *text)
{
	char hash[32];
	int w = c->w[k], tw = gt_paint_cells(text);

	if (!w)
		return;
	if (tw > w) {
		int n = w < (int)sizeof(hash) - 1 ? w : (int)sizeof(hash) - 1;
		memset(hash, '#', (size_t)n);
		hash[n] = '\0';
		text = hash;
		tw = n;
	}
	gt_paint_put(win, r, 0, c->x[k] + w - tw, attr, text);
}

static void pct(char *buf, size_t len, const struct gt_val *v, bool plus)
{
	if (gt_val_ok(v))
		snprintf(buf, len, "%.0f%%%s", (double)v->v / 100,
		         plus ? "+" : "");
	else
		snprintf(buf, len, "N/A");
}

/* The badges that fit the badge column, from its left end, most important
 * first; "+" when any is left out. */
static void badges(WINDOW *win, struct gt_rect r,
                   const struct gt_panels_cols *c,
                   const struct gt_panel_data *d)
{
	struct gt_panels_badge b[GT_PANELS_MAX_BADGES];
	int n = gt_panels_badge_list(d, true, b, GT_PANELS_MAX_BADGES);
	int x = c->x[GT_PCOL_BADGES], end = x + c->w[GT_PCOL_BADGES];

	if (!c->w[GT_PCOL_BADGES])
		return;
	for (int i = 0; i < n; i++) {
		int k = gt_paint_cells(b[i].text);
		int plus = i < n - 1 ? 2 : 0;
		if (x + k + plus > end) {
			gt_paint_put(win, r, 0, x, d->pal->role[GT_ROLE_WARN],
			             "+");
			return;
		}
		x += gt_paint_put(win, r, 0, x, b[i].attr, b[i].text) + 1;
	}
}

void gt_panels_draw_line(WINDOW *win, struct gt_rect r,
                         const struct gt_panel_data *d)
{
	struct gt_panels_cols c;
	const struct gt_sample *s = d->s;
	const int *role = d->pal->role;
	char a[96];

	gt_panels_line_columns(r.w, &c);
	int tattr = d->selected ? role[GT_ROLE_SELECTED] : role[GT_ROLE_TITLE];
	snprintf(a, sizeof(a), "%s%2u", d->selected ? ">" : " ", d->st->index);
	gt_paint_put(win, r, 0, c.x[GT_PCOL_INDEX], tattr, a);
	gt_panels_short_name(a, sizeof(a),
	                     d->st->name[0] ? d->st->name : "(unnamed GPU)",
	                     c.w[GT_PCOL_NAME]);
	gt_paint_put(win, r, 0, c.x[GT_PCOL_NAME], tattr, a);
	const struct gt_val *u = &s->f[GT_F_UTIL_GPU];
	pct(a, sizeof(a), u, s->util_gpu_lower_bound);
	cell(win, r, &c, GT_PCOL_GPU, role[GT_ROLE_MAIN], a);
	if (c.w[GT_PCOL_METER]) {
		char bar[128];
		double f = gt_val_ok(u) ? (double)u->v / 10000.0 : 0;
		gt_graph_meter(f, c.w[GT_PCOL_METER], d->glyphs, bar,
		               sizeof(bar));
		gt_paint_put(win, r, 0, c.x[GT_PCOL_METER],
		             gt_palette_grad(d->pal, GT_GRAD_GPU, f), bar);
	}
	gt_panels_fmt_mem(a, sizeof(a), &s->f[GT_F_MEM_USED],
	                  gt_panels_mem_total(d));
	cell(win, r, &c, GT_PCOL_VRAM, role[GT_ROLE_MAIN], a);
	gt_panels_temp_text(a, sizeof(a), d, c.w[GT_PCOL_TEMP]);
	cell(win, r, &c, GT_PCOL_TEMP, gt_panels_temp_attr(d), a);
	gt_panels_fmt_power(a, sizeof(a), &s->f[GT_F_POWER_DRAW],
	                    &s->f[GT_F_POWER_ENFORCED]);
	cell(win, r, &c, GT_PCOL_POWER, role[GT_ROLE_MAIN], a);
	pct(a, sizeof(a), &s->f[GT_F_UTIL_MEMBW], false);
	cell(win, r, &c, GT_PCOL_MEMBW, role[GT_ROLE_MAIN], a);
	if (gt_val_ok(&s->f[GT_F_CLK_GRAPHICS]))
		snprintf(a, sizeof(a), "%lld MHz",
		         (long long)s->f[GT_F_CLK_GRAPHICS].v);
	else
		snprintf(a, sizeof(a), "N/A");
	cell(win, r, &c, GT_PCOL_GFX, role[GT_ROLE_MAIN], a);
	if (gt_val_ok(&s->f[GT_F_PCIE_GEN]) &&
	    gt_val_ok(&s->f[GT_F_PCIE_WIDTH]))
		snprintf(a, sizeof(a), "%lldx%lld",
		         (long long)s->f[GT_F_PCIE_GEN].v,
		         (long long)s->f[GT_F_PCIE_WIDTH].v);
	else
		snprintf(a, sizeof(a), "N/A");
	cell(win, r, &c, GT_PCOL_PCIE,
	     gt_panels_pcie_degraded(d) ? role[GT_ROLE_WARN]
	                                : role[GT_ROLE_MAIN],
	     a);
	if (s->fan_count)
		pct(a, sizeof(a), &s->f[GT_F_FAN_PERCENT0], false);
	else
		snprintf(a, sizeof(a), "N/A");
	cell(win, r, &c, GT_PCOL_FAN, role[GT_ROLE_MAIN], a);
	pct(a, sizeof(a), &s->f[GT_F_UTIL_ENC], false);
	cell(win, r, &c, GT_PCOL_ENC, role[GT_ROLE_MAIN], a);
	pct(a, sizeof(a), &s->f[GT_F_UTIL_DEC], false);
	cell(win, r, &c, GT_PCOL_DEC, role[GT_ROLE_MAIN], a);
	gt_panels_fmt_rate(a, sizeof(a), &s->f[GT_F_PCIE_TX]);
	cell(win, r, &c, GT_PCOL_TX, role[GT_ROLE_MAIN], a);
	gt_panels_fmt_rate(a, sizeof(a), &s->f[GT_F_PCIE_RX]);
	cell(win, r, &c, GT_PCOL_RX, role[GT_ROLE_MAIN], a);
	badges(win, r, &c, d);
}

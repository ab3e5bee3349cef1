/*
 * panels.c - GPU panels (FULL, COMPACT, LINE) and the process table (see
 * panels.h). Names come from devices and processes: they are escaped
 * before they reach the terminal.
 */
#include "panels.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "text.h"

int gt_cells(const char *s)
{
	int n = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			n++;
	return n;
}

int gt_put(WINDOW *w, struct gt_rect r, int row, int col, int attr,
           const char *s)
{
	if (row < 0 || row >= r.h || col < 0 || col >= r.w)
		return 0;
	int room = r.w - col, cells = 0;
	const char *p = s;
	/* Stop on a character boundary once the row is full. */
	while (*p) {
		if (((unsigned char)*p & 0xC0) != 0x80) {
			if (cells == room)
				break;
			cells++;
		}
		p++;
	}
	wattrset(w, attr);
	mvwaddnstr(w, r.y + row, r.x + col, s, (int)(p - s));
	wattrset(w, A_NORMAL);
	return cells;
}

void gt_fmt_temp(char *buf, size_t len, const struct gt_val *mc,
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

/* "label [meter] text" in w cells from column col; returns cells used. */
static int meter(WINDOW *win, struct gt_rect r, int row, int col, int w,
                 const struct gt_panel_data *d, const char *label, double f,
                 enum gt_gradient g, const char *text)
{
	char bar[256];
	int x = col;
	int mw = w - gt_cells(label) - gt_cells(text) - 2;
	x += gt_put(win, r, row, x, d->pal->role[GT_ROLE_GRAPH_TEXT], label);
	if (mw >= 3) {
		gt_meter(isnan(f) ? 0 : f, mw, d->glyphs, bar, sizeof(bar));
		x += gt_put(win, r, row, x + 1,
		            isnan(f) ? d->pal->role[GT_ROLE_INACTIVE]
		                     : gt_palette_grad(d->pal, g, f),
		            bar) +
		     1;
	}
	x += gt_put(win, r, row, x + 1, d->pal->role[GT_ROLE_MAIN], text) + 1;
	return x - col;
}

static void throttle_badges(WINDOW *win, struct gt_rect r, int row,
                            const struct gt_panel_data *d)
{
	const struct gt_val *t = &d->s->f[GT_F_THROTTLE];
	char buf[160] = "";
	size_t n = 0;

	if (!gt_val_ok(t))
		return;
	for (unsigned bit = 1; bit <= GT_THR_OTHER; bit <<= 1) {
		const char *name = gt_throttle_name(bit);
		if (!(t->v & bit) || !name || !(bit & GT_THR_ACTIVE_MASK))
			continue;
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, " %s ", name);
		if (n >= sizeof(buf))
			break;
	}
	if (buf[0]) {
		int col = r.w - gt_cells(buf);
		gt_put(win, r, row, col > 0 ? col : 0,
		       d->pal->role[GT_ROLE_THROTTLE], buf);
	}
}

/* "[0] NVIDIA H100 80GB HBM3  nvidia 590.48.01  0000:18:00.0" + state. */
static void name_line(WINDOW *win, struct gt_rect r, int row,
                      const struct gt_panel_data *d, bool details)
{
	char name[GT_STR_NAME * 4], head[GT_STR_NAME * 4 + 128];
	const struct gt_static *st = d->st;
	int x = 0;

	gt_text_escape(name, sizeof(name), st->name, strlen(st->name));
	snprintf(head, sizeof(head), "%s[%u] %s", d->selected ? ">" : " ",
	         st->index, name[0] ? name : "(unnamed GPU)");
	x += gt_put(win, r, row, x,
	            d->selected ? d->pal->role[GT_ROLE_SELECTED]
	                        : d->pal->role[GT_ROLE_TITLE],
	            head);
	if (st->demo)
		x += gt_put(win, r, row, x + 1, d->pal->role[GT_ROLE_DEMO],
		            " DEMO ") +
		     1;
	const char *state = d->s->state == GT_DEV_LOST     ? " LOST "
	                    : d->s->state == GT_DEV_ASLEEP ? " ASLEEP "
	                    : d->stale                     ? " STALE "
	                                                   : NULL;
	if (state)
		x += gt_put(win, r, row, x + 1, d->pal->role[GT_ROLE_WARN],
		            state) +
		     1;
	if (details) {
		snprintf(head, sizeof(head), "  %s %s  %s", st->driver,
		         st->driver_version, st->pci_bus_id);
		x += gt_put(win, r, row, x, d->pal->role[GT_ROLE_INACTIVE],
		            head);
	}
	throttle_badges(win, r, row, d);
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

static void util_text(char *buf, size_t len, const struct gt_sample *s)
{
	char parts[4][24];
	static const char *const names[4] = {"GPU", "MEMBW", "ENC", "DEC"};
	for (int i = 0; i < 4; i++) {
		const struct gt_val *v = &s->f[GT_F_UTIL_GPU + i];
		if (gt_val_ok(v))
			snprintf(parts[i], sizeof(parts[i]), "%s %.0f%%%s",
			         names[i], (double)v->v / 100,
			         i == 0 && s->util_gpu_lower_bound ? "+" : "");
		else
			snprintf(parts[i], sizeof(parts[i]), "%s N/A",
			         names[i]);
	}
	snprintf(buf, len, "%s  %s  %s  %s", parts[0], parts[1], parts[2],
	         parts[3]);
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

/* Temperature as a fraction of the way to shutdown (or slowdown). */
static double temp_frac(const struct gt_panel_data *d)
{
	const struct gt_val *t = &d->s->f[GT_F_TEMP_GPU];
	const struct gt_val *lim = gt_val_ok(&d->st->f[GT_S_TEMP_SHUTDOWN])
	                               ? &d->st->f[GT_S_TEMP_SHUTDOWN]
	                               : &d->st->f[GT_S_TEMP_SLOWDOWN];
	if (!gt_val_ok(t))
		return NAN;
	double max = gt_val_ok(lim) ? (double)lim->v : 100000.0;
	return (double)t->v / max;
}

static void temp_text(char *buf, size_t len, const struct gt_panel_data *d)
{
	char t[24], slow[24];
	gt_fmt_temp(t, sizeof(t), &d->s->f[GT_F_TEMP_GPU], d->fahrenheit);
	if (gt_val_ok(&d->st->f[GT_S_TEMP_SLOWDOWN])) {
		gt_fmt_temp(slow, sizeof(slow), &d->st->f[GT_S_TEMP_SLOWDOWN],
		            d->fahrenheit);
		snprintf(buf, len, "%s (slow %s)", t, slow);
	} else {
		snprintf(buf, len, "%s", t);
	}
}

/* One series as a graph of h rows from row `row`, coloured by height. */
static void series_graph(WINDOW *win, struct gt_rect r, int row, int h,
                         const struct gt_panel_data *d, enum gt_series series,
                         enum gt_gradient grad)
{
	double samples[GT_HISTORY_LEN];
	uint32_t cells[4096];
	int w = r.w;
	if (h <= 0 || w <= 0 ||
	    (size_t)(w * h) > sizeof(cells) / sizeof(cells[0]))
		return;
	size_t want = gt_graph_samples_for(w, d->glyphs);
	size_t n =
	    gt_history_tail(d->hist, series, samples,
	                    want < GT_HISTORY_LEN ? want : GT_HISTORY_LEN);
	gt_graph_cells(samples, n, 0, 100, w, h, d->glyphs, cells);
	for (int y = 0; y < h; y++) {
		/* Colour by height, as btop does: the top rows are hot. */
		wattrset(win, gt_palette_grad(d->pal, grad,
		                              (double)(h - y) / (double)h));
		for (int x = 0; x < w; x++) {
			uint32_t c = cells[y * w + x];
			char u[5] = {0};
			if (c == 0x2800) /* an empty braille cell: a space is
			                    lighter */
				c = ' ';
			if (c < 0x80) {
				u[0] = (char)(c ? c : ' ');
			} else if (c < 0x800) {
				u[0] = (char)(0xC0 | (c >> 6));
				u[1] = (char)(0x80 | (c & 0x3F));
			} else {
				u[0] = (char)(0xE0 | (c >> 12));
				u[1] = (char)(0x80 | ((c >> 6) & 0x3F));
				u[2] = (char)(0x80 | (c & 0x3F));
			}
			mvwaddstr(win, r.y + row + y, r.x + x, u);
		}
	}
	wattrset(win, A_NORMAL);
}

/* GPU utilization over its history, with memory bandwidth as a second,
 * smaller graph below when there is room, and a time axis. */
static void graph(WINDOW *win, struct gt_rect r, int row, int h,
                  const struct gt_panel_data *d)
{
	char text[160];
	int gpu_h = h >= 6 ? h - h / 3 : h;
	int bw_h = h - gpu_h;

	series_graph(win, r, row, gpu_h, d, GT_SERIES_GPU, GT_GRAD_GPU);
	util_text(text, sizeof(text), d->s);
	gt_put(win, r, row, 1, d->pal->role[GT_ROLE_GRAPH_TEXT] | A_BOLD, text);
	if (bw_h > 0) {
		series_graph(win, r, row + gpu_h, bw_h, d, GT_SERIES_MEMBW,
		             GT_GRAD_MEMBW);
		gt_put(win, r, row + gpu_h, 1, d->pal->role[GT_ROLE_GRAPH_TEXT],
		       "memory bandwidth");
	}
	if (h >= 3 && d->seconds_per_sample > 0) {
		char axis[512];
		if (gt_graph_time_labels(r.w, d->seconds_per_sample, d->glyphs,
		                         axis, sizeof(axis)) > 0) {
			/* Labels only: the spaces between them keep the graph.
			 */
			int y = row + h - 1;
			for (int x = 0; x < r.w && axis[x]; x++)
				if (axis[x] != ' ') {
					char ch[2] = {axis[x], 0};
					gt_put(win, r, y, x,
					       d->pal->role[GT_ROLE_INACTIVE],
					       ch);
				}
		}
	}
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
		graph(win, r, 1, gh, d);
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
		meter(win, r, row, 0, half - 1, d, "VRAM",
		      frac(&s->f[GT_F_MEM_USED], tot), GT_GRAD_VRAM, a);
		char gu[16], gtot[16];
		fmt_bytes(gu, sizeof(gu), s->f[GT_F_GTT_USED].v);
		fmt_bytes(gtot, sizeof(gtot), s->f[GT_F_GTT_TOTAL].v);
		snprintf(b, sizeof(b), "%s/%s", gu, gtot);
		meter(win, r, row, half, r.w - half, d, "GTT",
		      frac(&s->f[GT_F_GTT_USED], &s->f[GT_F_GTT_TOTAL]),
		      GT_GRAD_VRAM, b);
	} else {
		meter(win, r, row, 0, r.w, d, "VRAM",
		      frac(&s->f[GT_F_MEM_USED], tot), GT_GRAD_VRAM, a);
	}
	if (++row >= r.h)
		return;
	temp_text(a, sizeof(a), d);
	meter(win, r, row, 0, half - 1, d, "TEMP", temp_frac(d), GT_GRAD_TEMP,
	      a);
	power_text(b, sizeof(b), s);
	meter(win, r, row, half, r.w - half, d, "POWER",
	      frac(&s->f[GT_F_POWER_DRAW], &s->f[GT_F_POWER_ENFORCED]),
	      GT_GRAD_POWER, b);
	if (++row >= r.h)
		return;
	clock_text(a, sizeof(a), d);
	gt_put(win, r, row, 0, d->pal->role[GT_ROLE_MAIN], a);
	if (++row >= r.h)
		return;
	pcie_text(a, sizeof(a), d, &degraded);
	gt_put(win, r, row, 0,
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
		meter(win, r, 1, 0, third - 1, d, "GPU",
		      gt_val_ok(u) ? (double)u->v / 10000.0 : NAN, GT_GRAD_GPU,
		      a);
		vram_text(b, sizeof(b), s, d->st);
		meter(win, r, 1, third, third - 1, d, "MEM",
		      frac(&s->f[GT_F_MEM_USED], tot), GT_GRAD_VRAM, b);
		gt_fmt_temp(c, sizeof(c), &s->f[GT_F_TEMP_GPU], d->fahrenheit);
		int x = gt_put(win, r, 1, 2 * third + 1,
		               d->pal->role[GT_ROLE_MAIN], c);
		power_text(b, sizeof(b), s);
		gt_put(win, r, 1, 2 * third + 2 + x, d->pal->role[GT_ROLE_MAIN],
		       b);
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
		int x = gt_put(win, r, 2, 1, d->pal->role[GT_ROLE_MAIN], a);
		pcie_text(b, sizeof(b), d, &degraded);
		if (gt_val_ok(&s->f[GT_F_PCIE_GEN]) &&
		    gt_val_ok(&s->f[GT_F_PCIE_WIDTH])) {
			fmt_rate(tx, sizeof(tx), &s->f[GT_F_PCIE_TX]);
			fmt_rate(rx, sizeof(rx), &s->f[GT_F_PCIE_RX]);
			snprintf(b, sizeof(b), "PCIe %lldx%lld TX %s RX %s",
			         (long long)s->f[GT_F_PCIE_GEN].v,
			         (long long)s->f[GT_F_PCIE_WIDTH].v, tx, rx);
		}
		gt_put(win, r, 2, x + 3,
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
	int x = gt_put(win, r, 0, 0,
	               d->selected ? d->pal->role[GT_ROLE_SELECTED]
	                           : d->pal->role[GT_ROLE_TITLE],
	               row);
	const char *state = s->state == GT_DEV_LOST     ? "LOST"
	                    : s->state == GT_DEV_ASLEEP ? "ASLEEP"
	                    : d->stale                  ? "STALE"
	                                                : NULL;
	if (state) {
		gt_put(win, r, 0, x + 1, d->pal->role[GT_ROLE_WARN], state);
		return;
	}
	if (gt_val_ok(&s->f[GT_F_UTIL_GPU]))
		snprintf(a, sizeof(a), "%3.0f%%",
		         (double)s->f[GT_F_UTIL_GPU].v / 100);
	else
		snprintf(a, sizeof(a), " N/A");
	int mw = r.w >= 80 ? 12 : r.w >= 50 ? 6 : 0;
	x += gt_put(win, r, 0, x + 1, d->pal->role[GT_ROLE_MAIN], a) + 1;
	if (mw) {
		char bar[64];
		double f = gt_val_ok(&s->f[GT_F_UTIL_GPU])
		               ? (double)s->f[GT_F_UTIL_GPU].v / 10000.0
		               : 0;
		gt_meter(f, mw, d->glyphs, bar, sizeof(bar));
		x += gt_put(win, r, 0, x + 1,
		            gt_palette_grad(d->pal, GT_GRAD_GPU, f), bar) +
		     1;
	}
	vram_text(b, sizeof(b), s, d->st);
	gt_fmt_temp(t, sizeof(t), &s->f[GT_F_TEMP_GPU], d->fahrenheit);
	power_text(a, sizeof(a), s);
	snprintf(row, sizeof(row), "MEM %s  %s  %s", b, t, a);
	x += gt_put(win, r, 0, x + 2, d->pal->role[GT_ROLE_MAIN], row) + 2;
	throttle_badges(win, r, 0, d);
}

void gt_panel_draw(WINDOW *w, struct gt_rect r, enum gt_gpu_mode mode,
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

void gt_table_draw(WINDOW *w, struct gt_rect r, const struct gt_table_data *d)
{
	char line[2048];
	const struct gt_proctable_state *st = d->st;

	if (r.h <= 0 || r.w <= 0)
		return;
	gt_proctable_format_header(d->widths, line, sizeof(line));
	gt_put(w, r, 0, 0, d->pal->role[GT_ROLE_TITLE] | A_UNDERLINE, line);
	/* The sort column's header carries the direction. */
	int sx = gt_proctable_col_x(d->widths, st->sort_col);
	if (sx >= 0) {
		bool desc =
		    gt_proctable_cols[st->sort_col].desc_first != st->reverse;
		gt_put(w, r, 0, sx, d->pal->role[GT_ROLE_HI] | A_UNDERLINE,
		       gt_proctable_cols[st->sort_col].header);
		gt_put(w, r, 0,
		       sx + (int)strlen(gt_proctable_cols[st->sort_col].header),
		       d->pal->role[GT_ROLE_HI], desc ? "v" : "^");
	}
	if (d->note)
		gt_put(w, r, 0, r.w - gt_cells(d->note),
		       d->pal->role[GT_ROLE_HI], d->note);
	for (int row = 1; row < r.h; row++) {
		size_t i = (size_t)(st->scroll_row + row - 1);
		if (i >= d->count)
			break;
		const struct gt_process *p = &d->procs[d->order[i]];
		gt_proctable_format_row(p, d->widths, st->hscroll, line,
		                        sizeof(line));
		int attr = (int)i == st->selected
		               ? (st->follow_pid == p->pid
		                      ? d->pal->role[GT_ROLE_FOLLOWED]
		                      : d->pal->role[GT_ROLE_SELECTED])
		               : d->pal->role[GT_ROLE_MAIN];
		if ((int)i == st->selected) {
			/* The whole row, not just its text, shows the bar. */
			wattrset(w, attr);
			mvwhline(w, r.y + row, r.x, ' ', r.w);
		}
		gt_put(w, r, row, 0, attr, line);
	}
}

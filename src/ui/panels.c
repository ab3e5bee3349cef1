/* SPDX-License-Identifier: MIT */
/*
 * panels.c - GPU panels (see panels.h): the texts they share (units,
 * temperatures, names, badges), the panel box with its title and badges,
 * and the panel as a whole. The lines of numbers are panels_info.c's, LINE
 * rows panels_line.c's. Names come from the devices: they are escaped
 * before they reach the terminal.
 */
#include "ui/panels.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/hash.h"
#include "core/text.h"
#include "ui/gpugraph.h"
#include "ui/paint.h"
#include "ui/panels_priv.h"

/* ---- units --------------------------------------------------------- */

/* Sizes and rates in binary units: 1 KiB, 1 MiB and 1 GiB. */
#define KIB ((int64_t)1 << 10)
#define MIB ((int64_t)1 << 20)
#define GIB ((int64_t)1 << 30)

/* The numbers below are formatted every frame for every GPU: the fixed
 * point builder writes what "%.Nf" would, without printf. */
void gt_panels_fmt_temp(char *buf, size_t len, const struct gt_val *mc,
                        bool fahrenheit)
{
	struct gt_text_buf b;
	gt_text_buf_init(&b, buf, len);
	if (!gt_val_ok(mc)) {
		gt_text_buf_str(&b, "N/A");
	} else if (fahrenheit) {
		snprintf(buf, len, "%.0f\u00b0F",
		         (double)mc->v / 1000.0 * 9 / 5 + 32);
	} else {
		gt_text_buf_fixed(&b, mc->v, 1000, 0);
		gt_text_buf_str(&b, "\u00b0C");
	}
}

/* "a/b UNIT", each of num / den with `decimals` digits. */
static void fmt_pair(char *buf, size_t len, int64_t a, int64_t b, int64_t den,
                     int decimals, const char *unit)
{
	struct gt_text_buf t;
	gt_text_buf_init(&t, buf, len);
	gt_text_buf_fixed(&t, a, den, decimals);
	gt_text_buf_str(&t, "/");
	gt_text_buf_fixed(&t, b, den, decimals);
	gt_text_buf_str(&t, unit);
}

void gt_panels_fmt_mem(char *buf, size_t len, const struct gt_val *used,
                       const struct gt_val *total)
{
	if (!gt_val_ok(used) || !gt_val_ok(total)) {
		struct gt_text_buf b;
		gt_text_buf_init(&b, buf, len);
		gt_text_buf_str(&b, "N/A");
	} else if (total->v >= GIB)
		fmt_pair(buf, len, used->v, total->v, GIB, 1, " GiB");
	else
		fmt_pair(buf, len, used->v, total->v, MIB, 0, " MiB");
}

void gt_panels_fmt_rate(char *buf, size_t len, const struct gt_val *v)
{
	struct gt_text_buf b;
	gt_text_buf_init(&b, buf, len);
	if (!gt_val_ok(v)) {
		gt_text_buf_str(&b, "N/A");
	} else if (v->v >= GIB) {
		gt_text_buf_fixed(&b, v->v, GIB, 1);
		gt_text_buf_str(&b, " GiB/s");
	} else if (v->v >= MIB) {
		gt_text_buf_fixed(&b, v->v, MIB, 1);
		gt_text_buf_str(&b, " MiB/s");
	} else {
		gt_text_buf_fixed(&b, v->v, KIB, 0);
		gt_text_buf_str(&b, " KiB/s");
	}
}

void gt_panels_fmt_power(char *buf, size_t len, const struct gt_val *draw,
                         const struct gt_val *lim)
{
	struct gt_text_buf b;
	gt_text_buf_init(&b, buf, len);
	if (!gt_val_ok(draw)) {
		gt_text_buf_str(&b, "N/A");
	} else if (gt_val_ok(lim)) {
		fmt_pair(buf, len, draw->v, lim->v, 1000, 0, " W");
	} else {
		gt_text_buf_fixed(&b, draw->v, 1000, 0);
		gt_text_buf_str(&b, " W");
	}
}

const struct gt_val *gt_panels_mem_total(const struct gt_panel_data *d)
{
	return gt_val_ok(&d->s->f[GT_F_MEM_TOTAL]) ? &d->s->f[GT_F_MEM_TOTAL]
	                                           : &d->st->f[GT_S_VRAM_TOTAL];
}

bool gt_panels_pcie_degraded(const struct gt_panel_data *d)
{
	const struct gt_val *g = &d->s->f[GT_F_PCIE_GEN];
	const struct gt_val *w = &d->s->f[GT_F_PCIE_WIDTH];
	const struct gt_val *mg = &d->st->f[GT_S_PCIE_MAX_GEN];
	const struct gt_val *mw = &d->st->f[GT_S_PCIE_MAX_WIDTH];

	return gt_val_ok(g) && gt_val_ok(w) && gt_val_ok(mg) && gt_val_ok(mw) &&
	       (g->v < mg->v || w->v < mw->v);
}

/* ---- temperatures -------------------------------------------------- */

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

int gt_panels_temp_attr(const struct gt_panel_data *d)
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

/* The temperature and its known thresholds: "61°C slow 87°C shut 92°C";
 * `both` false: only the first known (slowdown, the one that throttles,
 * else shutdown). */
static void temp_compose(char *buf, size_t len, const char *t, const char *slow,
                         const char *shut, bool both)
{
	const char *a = slow ? " slow " : shut ? " shut " : "";
	const char *av = slow ? slow : shut ? shut : "";
	bool b = both && slow && shut;

	snprintf(buf, len, "%s%s%s%s%s", t, a, av, b ? " shut " : "",
	         b ? shut : "");
}

/* The one wording of a temperature everywhere it is shown (FULL and
 * COMPACT panels' gauges, LINE rows): "61°C slow 87°C shut 92°C", then
 * without the shutdown threshold, then the temperature alone, whichever
 * first fits `room` cells. Thresholds that are N/A are left out (`e`
 * explains them). */
void gt_panels_temp_text(char *buf, size_t len, const struct gt_panel_data *d,
                         int room)
{
	char t[24], slow[24], shut[24];
	const struct gt_val *vs = &d->st->f[GT_S_TEMP_SLOWDOWN];
	const struct gt_val *vh = &d->st->f[GT_S_TEMP_SHUTDOWN];
	const char *ps = gt_val_ok(vs) ? slow : NULL;
	const char *ph = gt_val_ok(vh) ? shut : NULL;

	gt_panels_fmt_temp(t, sizeof(t), &d->s->f[GT_F_TEMP_GPU],
	                   d->fahrenheit);
	gt_panels_fmt_temp(slow, sizeof(slow), vs, d->fahrenheit);
	gt_panels_fmt_temp(shut, sizeof(shut), vh, d->fahrenheit);
	temp_compose(buf, len, t, ps, ph, true);
	if (gt_paint_cells(buf) <= room)
		return;
	temp_compose(buf, len, t, ps, ph, false);
	if (gt_paint_cells(buf) <= room)
		return;
	snprintf(buf, len, "%s", t);
}

/* ---- badges -------------------------------------------------------- */

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

static const char *state_text(const struct gt_panel_data *d, bool *warn)
{
	*warn = true;
	if (d->s->state == GT_DEV_LOST)
		return "LOST";
	*warn = false;
	if (d->s->state == GT_DEV_ASLEEP)
		return "ASLEEP";
	if (d->stale)
		return "STALE";
	if (d->no_data)
		return "NO DATA";
	return NULL;
}

int gt_panels_badge_list(const struct gt_panel_data *d, bool short_names,
                         struct gt_panels_badge *out, int max)
{
	const struct gt_sample *s = d->s;
	const int *role = d->pal->role;
	int n = 0;
	bool warn;
	const char *state = state_text(d, &warn);

#define ADD(attr_, ...)                                                        \
	do {                                                                   \
		if (n < max) {                                                 \
			snprintf(out[n].text, sizeof(out[n].text),             \
			         __VA_ARGS__);                                 \
			out[n++].attr = (attr_);                               \
		}                                                              \
	} while (0)
	if (state)
		ADD(warn ? role[GT_ROLE_WARN] : role[GT_ROLE_STALE], "%s",
		    state);
	if (d->changed && d->changed[0])
		ADD(role[GT_ROLE_HI], "%.32s", d->changed);
	if (gt_val_ok(&d->st->f[GT_S_MIG_MODE]) && d->st->f[GT_S_MIG_MODE].v)
		ADD(role[GT_ROLE_HI], "MIG %zu", d->nmig);
	if (gt_panels_pcie_degraded(d)) {
		long long g = s->f[GT_F_PCIE_GEN].v,
		          w = s->f[GT_F_PCIE_WIDTH].v;
		if (short_names)
			ADD(role[GT_ROLE_WARN], "PCIe %lldx%lld", g, w);
		else
			ADD(role[GT_ROLE_WARN], "PCIe %lldx%lld of %lldx%lld",
			    g, w, (long long)d->st->f[GT_S_PCIE_MAX_GEN].v,
			    (long long)d->st->f[GT_S_PCIE_MAX_WIDTH].v);
	}
	const struct gt_val *t = &s->f[GT_F_THROTTLE];
	for (unsigned bit = 1; gt_val_ok(t) && bit <= GT_THR_OTHER; bit <<= 1) {
		const char *name = gt_throttle_name(bit);
		if (!(t->v & bit) || !name || !(bit & GT_THR_ACTIVE_MASK))
			continue;
		ADD(role[GT_ROLE_THROTTLE], "%s",
		    short_names ? throttle_short(bit) : name);
	}
#undef ADD
	return n;
}

int gt_panels_draw_badges(WINDOW *w, struct gt_rect r, int row, int left,
                          int right, const struct gt_panels_badge *b, int n,
                          int sep, int plus_attr)
{
	bool take[GT_PANELS_MAX_BADGES] = {false};
	int used = 0, nt = 0;

	if (n > GT_PANELS_MAX_BADGES)
		n = GT_PANELS_MAX_BADGES;
	/* Most important first, whole badges only; room is kept for the
	 * "+" as long as some badge is left out. */
	for (int i = 0; i < n; i++) {
		int k = gt_paint_cells(b[i].text) + (nt ? sep : 0);
		int plus = i < n - 1 ? 1 + sep : 0;
		if (used + k + plus <= right - left) {
			take[i] = true;
			used += k;
			nt++;
		} else {
			break; /* keep the order of importance: no skipping */
		}
	}
	int x = right - used - (nt < n ? 1 + (nt ? sep : 0) : 0);
	if (x < left)
		return right;
	int start = x;
	for (int i = 0; i < n; i++) {
		if (!take[i])
			continue;
		x += gt_paint_put(w, r, row, x, b[i].attr, b[i].text) + sep;
	}
	if (nt < n)
		gt_paint_put(w, r, row, nt ? x : x, plus_attr, "+");
	return start;
}

/* ---- names --------------------------------------------------------- */

static bool vendor_word(const char *w, size_t n)
{
	static const char *const words[] = {"NVIDIA", "AMD", "Intel",
	                                    "Intel(R)", "ATI"};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == n && strncasecmp(w, words[i], n) == 0)
			return true;
	return false;
}

/* Cells of name[0..n). */
static int cells_n(const char *s, size_t n)
{
	char tmp[GT_STR_NAME * 4];
	if (n >= sizeof(tmp))
		n = sizeof(tmp) - 1;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	return gt_paint_cells(tmp);
}

int gt_panels_short_name(char *buf, size_t len, const char *name, int max_cells)
{
	char esc[GT_STR_NAME * 4];
	size_t start = 0, end;

	if (len == 0)
		return 0;
	buf[0] = '\0';
	if (max_cells <= 0 || !name)
		return 0;
	gt_text_escape(esc, sizeof(esc), name, strlen(name));
	end = strlen(esc);
	while (end > 0 && esc[end - 1] == ' ')
		end--;
	if (cells_n(esc, end) > max_cells) {
		size_t k = strcspn(esc, " ");
		if (k < end && vendor_word(esc, k))
			start = k + 1;
	}
	/* Drop words from the end until it fits. */
	while (end > start && cells_n(esc + start, end - start) > max_cells) {
		size_t sp = end;
		while (sp > start && esc[sp - 1] != ' ')
			sp--;
		if (sp <= start)
			break; /* one word left */
		end = sp - 1;
		while (end > start && esc[end - 1] == ' ')
			end--;
	}
	size_t n = end - start;
	if (cells_n(esc + start, n) > max_cells) {
		/* One word too long: cut it, unless it holds a number. */
		for (size_t i = start; i < end; i++)
			if (isdigit((unsigned char)esc[i]))
				return 0;
		while (n > 0 && cells_n(esc + start, n) > max_cells) {
			n--;
			while (n > 0 &&
			       ((unsigned char)esc[start + n] & 0xC0) == 0x80)
				n--;
		}
	}
	snprintf(buf, len, "%.*s", (int)n, esc + start);
	return gt_paint_cells(buf);
}

/* ---- the box ------------------------------------------------------- */

struct box_glyphs {
	const char *tl, *tr, *bl, *br, *h, *v;
};

static const struct box_glyphs *box_glyphs(enum gt_glyphs g)
{
	static const struct box_glyphs utf = {"\u256d", "\u256e", "\u2570",
	                                      "\u256f", "\u2500", "\u2502"};
	static const struct box_glyphs ascii = {"+", "+", "+", "+", "-", "|"};
	return g == GT_GLYPHS_ASCII ? &ascii : &utf;
}

/* A box on r's edge; its top border is drawn plain, for a title. */
static void draw_box(WINDOW *w, struct gt_rect r, int attr, enum gt_glyphs g)
{
	const struct box_glyphs *b = box_glyphs(g);
	char line[1024 * 3 + 8];
	size_t k = 0, hl = strlen(b->h);

	if (r.w < 2 || r.h < 2)
		return;
	for (int x = 1; x < r.w - 1 && k + hl < sizeof(line) - 8; x++) {
		memcpy(line + k, b->h, hl);
		k += hl;
	}
	line[k] = '\0';
	gt_paint_put(w, r, 0, 0, attr, b->tl);
	gt_paint_put(w, r, 0, 1, attr, line);
	gt_paint_put(w, r, 0, r.w - 1, attr, b->tr);
	gt_paint_put(w, r, r.h - 1, 0, attr, b->bl);
	gt_paint_put(w, r, r.h - 1, 1, attr, line);
	gt_paint_put(w, r, r.h - 1, r.w - 1, attr, b->br);
	gt_paint_vline(w, r, 1, 0, attr, b->v, r.h - 2);
	gt_paint_vline(w, r, 1, r.w - 1, attr, b->v, r.h - 2);
}

void gt_panels_draw_frame(WINDOW *w, struct gt_rect frame,
                          const struct gt_palette *pal, enum gt_glyphs g)
{
	static const char *const names[GT_PCOL__COUNT] = {
	    [GT_PCOL_INDEX] = "#",    [GT_PCOL_NAME] = "NAME",
	    [GT_PCOL_GPU] = "GPU",    [GT_PCOL_VRAM] = "VRAM",
	    [GT_PCOL_TEMP] = "TEMP",  [GT_PCOL_POWER] = "POWER",
	    [GT_PCOL_MEMBW] = "MBW",  [GT_PCOL_GFX] = "GFX",
	    [GT_PCOL_PCIE] = "PCIe",  [GT_PCOL_FAN] = "FAN",
	    [GT_PCOL_ENC] = "ENC",    [GT_PCOL_DEC] = "DEC",
	    [GT_PCOL_TX] = "PCIe TX", [GT_PCOL_RX] = "PCIe RX",
	};
	struct gt_panels_cols c;

	draw_box(w, frame, pal->role[GT_ROLE_BOX], g);
	gt_panels_line_columns(frame.w - 2, &c);
	struct gt_rect top = {frame.x + 1, frame.y, frame.w - 2, 1};
	for (int i = 0; i < GT_PCOL__COUNT; i++) {
		int n = names[i] ? gt_paint_cells(names[i]) : 0;
		if (!n || c.w[i] < n)
			continue;
		/* Over the numbers' right end, the texts' left end. */
		bool right = i != GT_PCOL_NAME;
		gt_paint_put(w, top, 0, right ? c.x[i] + c.w[i] - n : c.x[i],
		             pal->role[GT_ROLE_TITLE], names[i]);
	}
}

/* The top border's text: "[0] NAME" with the DEMO label and the driver and
 * PCI id when there is room, badges at the right end. What gives way when
 * the border is short, in order: badge names shrink, the details go, the
 * name loses words, badges are left out (a "+" says so). */
static void title(WINDOW *win, struct gt_rect r, const struct gt_panel_data *d)
{
	struct gt_panels_badge b[GT_PANELS_MAX_BADGES];
	char head[GT_STR_NAME * 4 + 32], name[GT_STR_NAME * 4], det[200];
	const struct gt_static *st = d->st;
	int room = r.w - 4; /* "╭─" ... "─╮" */
	int tattr = d->selected ? d->pal->role[GT_ROLE_SELECTED]
	                        : d->pal->role[GT_ROLE_TITLE];
	struct gt_rect tr = {r.x + 2, r.y, room, 1};

	snprintf(head, sizeof(head), " %s[%u]", d->selected ? ">" : "",
	         st->index);
	int hw = gt_paint_cells(head);
	int nb = gt_panels_badge_list(d, false, b, GT_PANELS_MAX_BADGES);
	int bw = 0;
	for (int i = 0; i < nb; i++)
		bw += gt_paint_cells(b[i].text) + 3;
	if (nb && bw > room - hw - 16)
		nb = gt_panels_badge_list(d, true, b, GT_PANELS_MAX_BADGES);
	for (int i = 0; i < nb; i++) { /* " TEXT ": a badge in the border */
		size_t k = strlen(b[i].text);
		if (k > sizeof(b[i].text) - 3)
			k = sizeof(b[i].text) - 3;
		memmove(b[i].text + 1, b[i].text, k);
		b[i].text[0] = ' ';
		b[i].text[k + 1] = ' ';
		b[i].text[k + 2] = '\0';
	}
	/* Badges from the right end, leaving the index and a few cells of
	 * the name. */
	int bstart = nb ? gt_panels_draw_badges(win, tr, 0, hw + 8, room, b, nb,
	                                        1, tattr)
	                : room;
	int demo = st->demo ? 7 : 0;
	int nw = gt_panels_short_name(name, sizeof(name),
	                              st->name[0] ? st->name : "(unnamed GPU)",
	                              bstart - hw - 3 - demo);
	size_t k = strlen(head);
	snprintf(head + k, sizeof(head) - k, "%s%s ", nw ? " " : "", name);
	int x = gt_paint_put(win, tr, 0, 0, tattr, head);
	if (st->demo)
		x += 1 + gt_paint_put(win, tr, 0, x + 1,
		                      d->pal->role[GT_ROLE_DEMO], " DEMO ");
	/* The driver, then the PCI id, each a piece of its own between
	 * border cells as the name is; the driver goes first when short. */
	char pci[GT_STR_SHORT + 4];
	snprintf(det, sizeof(det), " %s %s ", st->driver, st->driver_version);
	snprintf(pci, sizeof(pci), " %s ", st->pci_bus_id);
	int dw = gt_paint_cells(det), pw = gt_paint_cells(pci);
	int inactive = d->pal->role[GT_ROLE_INACTIVE];
	if (x + 1 + dw + 1 + pw + 1 <= bstart)
		x += 1 + gt_paint_put(win, tr, 0, x + 1, inactive, det);
	if (x + 1 + pw + 1 <= bstart)
		gt_paint_put(win, tr, 0, x + 1, inactive, pci);
}

uint64_t gt_panels_key(const struct gt_panel_data *d, enum gt_gpu_mode mode)
{
	/* The palette is left out: a new one repaints the whole screen
	 * (gt_palette_init), which empties the memo. */
	uint64_t h = gt_hash_u64(GT_HASH_SEED, (uint64_t)mode);
	h = gt_hash_bytes(h, d->st, sizeof(*d->st));
	/* All of the sample but when it was taken: a new sample with the
	 * same values draws the same numbers. Counters that move with
	 * every sample count as what is drawn of them: the energy counter
	 * not at all, the PCIe rates as their rounded text. */
	struct gt_sample s = *d->s;
	char tx[32], rx[32];
	gt_panels_fmt_rate(tx, sizeof(tx), &s.f[GT_F_PCIE_TX]);
	gt_panels_fmt_rate(rx, sizeof(rx), &s.f[GT_F_PCIE_RX]);
	static const int moving_counters[] = {GT_F_ENERGY, GT_F_PCIE_TX,
	                                      GT_F_PCIE_RX};
	for (size_t i = 0; i < sizeof(moving_counters) / sizeof(int); i++)
		memset(&s.f[moving_counters[i]], 0, sizeof(s.f[0]));
	h = gt_hash_bytes(h, &s.state,
	                  sizeof(s) - offsetof(struct gt_sample, state));
	h = gt_hash_str(gt_hash_str(h, tx), rx);
	h = gt_hash_str(h, d->changed);
	h = gt_hash_bytes(h, d->mig, d->nmig * sizeof(*d->mig));
	unsigned flags = (unsigned)d->selected | (unsigned)d->fahrenheit << 1 |
	                 (unsigned)d->stale << 2 | (unsigned)d->no_data << 3 |
	                 (unsigned)d->all_series << 4 |
	                 (unsigned)d->glyphs << 5;
	return gt_hash_u64(h, flags);
}

/* Part `what` of a panel (its title, MIG rows, numbers) in rectangle r,
 * drawn by draw(win, r, ...) unless it shows key already. */
static bool part_kept(WINDOW *win, struct gt_rect r, uint64_t key, int what)
{
	return gt_paint_region(win, r, gt_hash_u64(key, (uint64_t)what));
}

/* FULL and COMPACT: the box, its title, the graph, the numbers. */
static void draw_panel(WINDOW *win, struct gt_rect r, enum gt_gpu_mode mode,
                       const struct gt_panel_data *d)
{
	struct gt_panel_parts pp;

	if (d->chrome) {
		gt_paint_chrome(true);
		draw_box(win, r,
		         d->selected ? d->pal->role[GT_ROLE_HI]
		                     : d->pal->role[GT_ROLE_BOX],
		         d->glyphs);
		gt_paint_chrome(false);
	}
	if (r.w < 6 || r.h < 2)
		return;
	/* Title, MIG rows and numbers are drawn again only when what they
	 * show changed: most samples change a few numbers of a few GPUs. */
	uint64_t key = gt_panels_key(d, mode);
	if (!part_kept(win, (struct gt_rect){r.x + 2, r.y, r.w - 4, 1}, key, 0))
		title(win, r, d);
	gt_paint_region_end();
	gt_layout_panel_parts(r, mode, &pp);
	struct gt_rect mig = gt_panels_mig_take(&pp, d->nmig);
	if (mig.h > 0 && !part_kept(win, mig, key, 1))
		gt_panels_mig_draw(win, mig, d);
	gt_paint_region_end();
	if (pp.graph.h > 0)
		gt_gpugraph_draw(win, pp.graph, d);
	if (pp.info_lines > 0 && !part_kept(win, pp.info, key, 2))
		gt_panels_draw_info(win, &pp, d);
	gt_paint_region_end();
}

void gt_panels_draw_gpu(WINDOW *w, struct gt_rect r, enum gt_gpu_mode mode,
                        const struct gt_panel_data *d)
{
	if (r.w <= 0 || r.h <= 0)
		return;
	switch (mode) {
	case GT_GPU_FULL:
	case GT_GPU_COMPACT:
		draw_panel(w, r, mode, d);
		break;
	case GT_GPU_LINE:
		gt_panels_draw_line(w, r, d);
		break;
	}
}

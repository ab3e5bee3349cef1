/* SPDX-License-Identifier: MIT */
/*
 * proctable.c - owns the process table's model (see proctable.h): filter,
 * sort, follow and row text; the signals are proctable_signal.c's and the
 * drawing proctable_draw.c's. The sort has a total order (value, then
 * pid, then position), so equal input always gives equal output: a
 * numeric column sorts keys read once per row (proctable_sort.c), a text
 * column is an in-place heapsort over the index array, which needs
 * neither qsort_r (whose argument order differs between libcs) nor a
 * global for the sort column.
 */
#include "ui/proctable.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "core/text.h"
#include "ui/proctable_filter.h"
#include "ui/proctable_sort.h"

const struct gt_proctable_coldesc gt_proctable_cols[GT_COL__COUNT] = {
    /* header      width right  numeric desc   keep */
    [GT_COL_PID] = {"PID", 7, true, true, false, 100},
    [GT_COL_USER] = {"USER", 9, false, false, false, 60},
    [GT_COL_DEV] = {"DEV", 3, true, true, false, 70},
    [GT_COL_TYPE] = {"TYPE", 4, false, false, false, 20},
    [GT_COL_GPU] = {"GPU %", 5, true, true, true, 90},
    [GT_COL_VRAM] = {"VRAM", 7, true, true, true, 80},
    [GT_COL_ENC] = {"ENC", 5, true, true, true, 30},
    [GT_COL_DEC] = {"DEC", 5, true, true, true, 31},
    [GT_COL_CPU] = {"CPU %", 5, true, true, true, 50},
    [GT_COL_HOST_MEM] = {"HOST MEM", 8, true, true, true, 40},
    [GT_COL_CONTAINER] = {"CONTAINER", 12, false, false, false, 10},
    [GT_COL_COMMAND] = {"COMMAND", 12, false, false, false, 1000},
};

/* The per-process value column c reads; GT_P__COUNT for non-value columns. */
static enum gt_proc_field col_field(enum gt_proctable_col c)
{
	switch (c) {
	case GT_COL_GPU:
		return GT_P_GPU;
	case GT_COL_VRAM:
		return GT_P_MEM;
	case GT_COL_ENC:
		return GT_P_ENC;
	case GT_COL_DEC:
		return GT_P_DEC;
	case GT_COL_CPU:
		return GT_P_CPU;
	case GT_COL_HOST_MEM:
		return GT_P_HOST_MEM;
	default:
		break;
	}
	return GT_P__COUNT;
}

void gt_proctable_state_init(struct gt_proctable_state *st)
{
	memset(st, 0, sizeof(*st));
	st->sort_col = GT_DISPLAY_SORT_DEFAULT;
	st->device_filter = -1;
	st->selected = 0;
}

/* ---- cell text ------------------------------------------------------- */

/*
 * Unescaped text of a text column, or NULL for N/A. *sort_last marks values
 * that are known but mean "none" (a process outside any container), which
 * sort with the N/A ones so that real values come first.
 */
static const char *text_of(const struct gt_process *p, enum gt_proctable_col c,
                           char *buf, size_t len, bool *sort_last)
{
	*sort_last = false;
	switch (c) {
	case GT_COL_USER:
		if (p->user[0])
			return p->user;
		if (!p->host_known)
			return NULL;
		snprintf(buf, len, "%" PRIu32, p->uid); /* no passwd entry */
		return buf;
	case GT_COL_TYPE:
		switch (p->type) {
		case GT_PROC_COMPUTE:
			return "C";
		case GT_PROC_GRAPHICS:
			return "G";
		case GT_PROC_BOTH:
			return "C+G";
		default:
			return NULL;
		}
	case GT_COL_CONTAINER:
		if (p->container[0])
			return p->container;
		if (!p->host_known)
			return NULL;
		*sort_last = true;
		return "-";
	case GT_COL_COMMAND:
		if (p->cmdline && p->cmdline[0])
			return p->cmdline;
		if (p->name[0] && p->name_from_driver) {
			/* /proc could not see it: say whose name it is. */
			snprintf(buf, len, "%s (driver)", p->name);
			return buf;
		}
		if (p->name[0])
			return p->name;
		return NULL;
	default:
		break;
	}
	return NULL;
}

/* Numeric value of column c; false for N/A. */
static bool num_of(const struct gt_process *p, enum gt_proctable_col c,
                   int64_t *v)
{
	if (c == GT_COL_PID) {
		*v = p->pid;
		return true;
	}
	if (c == GT_COL_DEV) {
		*v = p->device_index;
		return true;
	}
	enum gt_proc_field f = col_field(c);
	if (f == GT_P__COUNT || !gt_val_ok(&p->f[f]))
		return false;
	*v = p->f[f].v;
	return true;
}

static int lower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

/* Case-insensitive (ASCII) order, bytewise order to break ties. */
static int text_cmp(const char *a, const char *b)
{
	const unsigned char *x = (const unsigned char *)a;
	const unsigned char *y = (const unsigned char *)b;
	for (; *x && lower(*x) == lower(*y); x++, y++)
		;
	int d = lower(*x) - lower(*y);
	return d ? d : strcmp(a, b);
}

/* ---- sorting ------------------------------------------------------------ */

struct sort_ctx {
	const struct gt_process *procs;
	enum gt_proctable_col col;
	bool desc;
	bool by_start; /* by start time instead of col (htop's T) */
};

/* < 0 when row a shows above row b. */
static int row_cmp(const struct sort_ctx *cx, size_t a, size_t b)
{
	const struct gt_process *pa = &cx->procs[a], *pb = &cx->procs[b];
	int k = 0;

	if (gt_proctable_cols[cx->col].numeric) {
		int64_t va = 0, vb = 0;
		bool oka = num_of(pa, cx->col, &va),
		     okb = num_of(pb, cx->col, &vb);
		if (oka != okb)
			return oka ? -1
			           : 1; /* N/A last, whatever the direction */
		if (oka)
			k = (va > vb) - (va < vb);
	} else {
		char ba[GT_COMM_LEN + 16], bb[GT_COMM_LEN + 16];
		bool la, lb;
		const char *ta = text_of(pa, cx->col, ba, sizeof(ba), &la);
		const char *tb = text_of(pb, cx->col, bb, sizeof(bb), &lb);
		bool oka = ta && !la, okb = tb && !lb;
		if (oka != okb)
			return oka ? -1 : 1;
		if (oka)
			k = text_cmp(ta, tb);
	}
	if (k)
		return cx->desc ? -k : k;
	if (pa->pid != pb->pid)
		return pa->pid < pb->pid ? -1 : 1;
	return (a > b) - (a < b);
}

static void sift_down(const struct sort_ctx *cx, size_t *v, size_t root,
                      size_t end)
{
	for (;;) {
		size_t child = 2 * root + 1;
		if (child >= end)
			return;
		if (child + 1 < end && row_cmp(cx, v[child], v[child + 1]) < 0)
			child++;
		if (row_cmp(cx, v[root], v[child]) >= 0)
			return;
		size_t t = v[root];
		v[root] = v[child];
		v[child] = t;
		root = child;
	}
}

static void heap_sort(const struct sort_ctx *cx, size_t *v, size_t n)
{
	if (n < 2)
		return;
	for (size_t i = n / 2; i-- > 0;)
		sift_down(cx, v, i, n);
	for (size_t end = n - 1; end > 0; end--) {
		size_t t = v[0];
		v[0] = v[end];
		v[end] = t;
		sift_down(cx, v, 0, end);
	}
}

/* Sorts by a numeric column over keys read once per row; false when
 * there is no memory for them (heap_sort then does it). */
static bool sort_numeric(const struct sort_ctx *cx, size_t *v, size_t n)
{
	struct gt_proctable_key *k = malloc(n * sizeof(*k));
	if (!k)
		return false;
	for (size_t i = 0; i < n; i++) {
		const struct gt_process *p = &cx->procs[v[i]];
		k[i] = (struct gt_proctable_key){0, p->pid, false, v[i]};
		if (!cx->by_start)
			k[i].ok = num_of(p, cx->col, &k[i].v);
		else if ((k[i].ok = p->start_known && p->start <= INT64_MAX))
			k[i].v = (int64_t)p->start;
	}
	gt_proctable_sort_keys(k, n, cx->desc);
	for (size_t i = 0; i < n; i++)
		v[i] = k[i].idx;
	free(k);
	return true;
}

static bool sort_by_start(const struct gt_process *procs, size_t *v, size_t n,
                          bool newest_first)
{
	struct sort_ctx cx = {procs, GT_COL_PID, newest_first, true};
	return sort_numeric(&cx, v, n);
}

/* ---- filtering ---------------------------------------------------------- */

size_t gt_proctable_view(const struct gt_process *procs, size_t n,
                         const struct gt_proctable_state *st, size_t *order_out,
                         char *err, size_t errlen)
{
	struct gt_proctable_filter tf;

	if (err && errlen)
		err[0] = '\0';
	if (!procs)
		n = 0;

	gt_proctable_filter_init(&tf, st->filter, st->filter_is_regex, err,
	                         errlen);

	size_t count = 0;
	for (size_t i = 0; i < n; i++) {
		const struct gt_process *p = &procs[i];
		if (st->device_filter >= 0 &&
		    p->device_index != (unsigned)st->device_filter)
			continue;
		if (st->user_filter_on &&
		    (!p->host_known || p->uid != st->user_filter))
			continue;
		if (!gt_proctable_filter_match(&tf, p))
			continue;
		order_out[count++] = i;
	}
	gt_proctable_filter_free(&tf);

	struct sort_ctx cx = {procs, st->sort_col, false, false};
	if ((unsigned)cx.col >= GT_COL__COUNT)
		cx.col = GT_COL_PID;
	cx.desc = gt_proctable_cols[cx.col].desc_first != st->reverse;
	/* By start time: the oldest first (reverse: the newest). */
	if (st->sort_start &&
	    sort_by_start(procs, order_out, count, st->reverse))
		return count;
	if (!gt_proctable_cols[cx.col].numeric ||
	    !sort_numeric(&cx, order_out, count))
		heap_sort(&cx, order_out, count);
	return count;
}

int gt_proctable_find_pid(const struct gt_process *procs, const size_t *order,
                          size_t count, int32_t pid)
{
	for (size_t r = 0; r < count; r++)
		if (procs[order[r]].pid == pid)
			return r > (size_t)INT32_MAX ? -1 : (int)r;
	return -1;
}

bool gt_proctable_update_selection(struct gt_proctable_state *st,
                                   const struct gt_process *procs,
                                   const size_t *order, size_t count,
                                   int visible)
{
	bool found = true;

	if (st->follow_pid != 0) {
		int r =
		    gt_proctable_find_pid(procs, order, count, st->follow_pid);
		if (r >= 0)
			st->selected = r;
		else
			found = false;
	} else if (st->selected_pid != 0) {
		int r = gt_proctable_find_pid(procs, order, count,
		                              st->selected_pid);
		if (r >= 0)
			st->selected = r;
	}
	int rows = count > (size_t)INT32_MAX ? INT32_MAX : (int)count;
	if (rows == 0) {
		st->selected = -1;
		st->scroll_row = 0;
		return found;
	}
	if (st->selected < 0)
		st->selected = 0;
	if (st->selected >= rows)
		st->selected = rows - 1;
	st->selected_pid = procs[order[st->selected]].pid;

	if (visible < 1)
		visible = 1;
	if (st->selected < st->scroll_row)
		st->scroll_row = st->selected;
	if (st->selected >= st->scroll_row + visible)
		st->scroll_row = st->selected - visible + 1;
	int max_scroll = rows > visible ? rows - visible : 0;
	if (st->scroll_row > max_scroll)
		st->scroll_row = max_scroll;
	if (st->scroll_row < 0)
		st->scroll_row = 0;
	if (st->hscroll < 0)
		st->hscroll = 0;
	return found;
}

/* ---- layout ------------------------------------------------------------- */

/* Cells a row takes: the widths plus one separator between columns. */
static int row_width(const int *widths)
{
	int sum = 0, shown = 0;
	for (int c = 0; c < GT_COL__COUNT; c++) {
		if (widths[c] > 0) {
			sum += widths[c];
			shown++;
		}
	}
	return shown ? sum + shown - 1 : 0;
}

void gt_proctable_widths(int total, const bool *shown, int *widths)
{
	const int cmd_min = gt_proctable_cols[GT_COL_COMMAND].width;
	bool cmd = !shown || shown[GT_COL_COMMAND];

	for (int c = 0; c < GT_COL__COUNT; c++)
		widths[c] =
		    (!shown || shown[c]) ? gt_proctable_cols[c].width : 0;
	widths[GT_COL_COMMAND] = 0;
	if (total < 0)
		total = 0;

	for (;;) {
		int used = row_width(widths);
		/* COMMAND gets what is left after its separator */
		int room = cmd ? total - used - (used > 0) : 0;
		if (cmd ? room >= cmd_min : used <= total)
			break;
		int drop = -1;
		for (int c = 0; c < GT_COL_COMMAND; c++)
			if (widths[c] > 0 &&
			    (drop < 0 || gt_proctable_cols[c].keep <
			                     gt_proctable_cols[drop].keep))
				drop = c;
		if (drop < 0)
			break; /* only COMMAND is left */
		widths[drop] = 0;
	}
	if (cmd) {
		int used = row_width(widths);
		int room = total - used - (used > 0);
		widths[GT_COL_COMMAND] = room > 0 ? room : 0;
	}
}

/* The cells a sorted column's header needs: the header, a blank and the
 * marker ("GPU % v"); compact, without the header's own blanks ("GPU% v"). */
static int sorted_need(enum gt_proctable_col c, bool compact)
{
	const char *h = gt_proctable_cols[c].header;
	int n = 0;
	for (; *h; h++)
		n += !compact || *h != ' ';
	return n + 2;
}

void gt_proctable_widths_sorted(int total, const bool *shown,
                                enum gt_proctable_col sort, int *widths)
{
	gt_proctable_widths(total, shown, widths);
	if ((unsigned)sort >= GT_COL__COUNT || sort == GT_COL_COMMAND ||
	    widths[sort] <= 0)
		return;
	/* COMMAND gives the cells down to a floor; with no COMMAND, the
	 * cells the row leaves unused. */
	int spare = widths[GT_COL_COMMAND] > 0
	                ? widths[GT_COL_COMMAND] - GT_PROCTABLE_COMMAND_FLOOR
	                : total - row_width(widths);
	int want = sorted_need(sort, false) - widths[sort];
	if (want > spare)
		want = sorted_need(sort, true) - widths[sort];
	if (want > spare)
		want = spare;
	if (want <= 0)
		return;
	widths[sort] += want;
	if (widths[GT_COL_COMMAND] > 0)
		widths[GT_COL_COMMAND] -= want;
}

int gt_proctable_col_x(const int *widths, enum gt_proctable_col c)
{
	int x = 0;
	for (int k = 0; k < GT_COL__COUNT; k++) {
		if (widths[k] <= 0)
			continue;
		if (k == (int)c)
			return x;
		x += widths[k] + 1;
	}
	return -1;
}

int gt_proctable_col_at(const int *widths, int x)
{
	int start = 0;
	for (int k = 0; k < GT_COL__COUNT && x >= 0; k++) {
		if (widths[k] <= 0)
			continue;
		if (x >= start && x < start + widths[k])
			return k;
		start += widths[k] + 1;
	}
	return -1;
}

/* ---- writing text -------------------------------------------------------- */

/* Bounded writer that never stores part of a character. */
struct sink {
	char *out;
	size_t len;
	size_t pos;
	bool full;
};

static void sink_put(struct sink *s, const char *b, size_t k)
{
	if (s->full || s->pos + k >= s->len) {
		s->full = true;
		return;
	}
	memcpy(s->out + s->pos, b, k);
	s->pos += k;
	s->out[s->pos] = '\0';
}

static void sink_spaces(struct sink *s, int n)
{
	for (int i = 0; i < n; i++)
		sink_put(s, " ", 1);
}

/*
 * Cells a code point takes in a terminal. A compact stand-in for wcwidth()
 * that does not depend on the locale: East Asian wide and emoji blocks are
 * 2, combining marks 0, everything else 1. Rows stay aligned for the text
 * that actually shows up in process names.
 */
static int cp_width(uint32_t cp)
{
	if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x1ab0 && cp <= 0x1aff) ||
	    (cp >= 0x1dc0 && cp <= 0x1dff) || (cp >= 0x20d0 && cp <= 0x20ff) ||
	    (cp >= 0xfe20 && cp <= 0xfe2f) || (cp >= 0xfe00 && cp <= 0xfe0f))
		return 0;
	if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0x303e) ||
	    (cp >= 0x3041 && cp <= 0x33ff) || (cp >= 0x3400 && cp <= 0x4dbf) ||
	    (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xa000 && cp <= 0xa4cf) ||
	    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
	    (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
	    (cp >= 0xffe0 && cp <= 0xffe6) ||
	    (cp >= 0x1f300 && cp <= 0x1f64f) ||
	    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
	    (cp >= 0x20000 && cp <= 0x3fffd))
		return 2;
	return 1;
}

/*
 * Invisible formatting characters (zero-width spaces, bidi overrides, BOM):
 * valid UTF-8 that gt_text_escape keeps, but they could hide or reorder
 * what a row shows, so a row spells them out as \uXXXX.
 */
static bool cp_invisible(uint32_t cp)
{
	return (cp >= 0x200b && cp <= 0x200f) ||
	       (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2060 && cp <= 0x2069) || cp == 0xfeff;
}

/* One field being written: skip cells first, then fill exactly width. */
struct field {
	struct sink *s;
	int skip;
	int width;
	int used;
	bool done;
};

static void field_unit(struct field *f, const char *b, size_t k, int cw)
{
	if (f->done)
		return;
	if (f->skip > 0) {
		if (cw <= f->skip) {
			f->skip -= cw;
			return;
		}
		/* the right half of a wide character: a space holds its cell */
		f->skip = 0;
		b = " ";
		k = 1;
		cw = 1;
	}
	if (f->used + cw > f->width) {
		f->done = true; /* padding fills the half cell left */
		return;
	}
	sink_put(f->s, b, k);
	f->used += cw;
}

/* Feeds already-escaped text (printable ASCII and valid UTF-8) to f. */
static void field_escaped(struct field *f, const char *t, size_t len)
{
	size_t i = 0;
	while (i < len && !f->done) {
		unsigned char c = (unsigned char)t[i];
		size_t k = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
		if (k > len - i)
			break; /* cannot happen: the escaper emits whole units
			        */
		uint32_t cp = k == 1 ? c : (uint32_t)(c & (0x7f >> k));
		for (size_t j = 1; j < k; j++)
			cp = (cp << 6) | ((unsigned char)t[i + j] & 0x3f);
		if (cp_invisible(cp)) {
			char u[12];
			int n = snprintf(u, sizeof(u), "\\u%04" PRIx32, cp);
			for (int j = 0; j < n; j++)
				field_unit(f, &u[j], 1, 1);
		} else {
			field_unit(f, t + i, k, cp_width(cp));
		}
		i += k;
	}
}

/*
 * Writes untrusted src[0..srclen) escaped, skipping `skip` cells and then
 * filling exactly `width` cells. Escapes in chunks so that a command line
 * of any length can be scrolled through without a buffer sized to it;
 * chunks end before a UTF-8 lead byte so no character is split.
 */
static void put_untrusted(struct sink *s, const char *src, size_t srclen,
                          int skip, int width)
{
	struct field f = {s, skip > 0 ? skip : 0, width, 0, false};
	char buf[1024]; /* a chunk of 200 bytes escapes to at most 800 */
	size_t i = 0;

	while (i < srclen && !f.done) {
		size_t chunk = srclen - i;
		if (chunk > 200) {
			chunk = 200;
			for (int back = 0;
			     back < 3 &&
			     ((unsigned char)src[i + chunk] & 0xc0) == 0x80;
			     back++)
				chunk--;
		}
		size_t e = gt_text_escape(buf, sizeof(buf), src + i, chunk);
		field_escaped(&f, buf, e);
		i += chunk;
	}
	sink_spaces(s, width - f.used);
}

/* Trusted ASCII (numbers, headers, "N/A") aligned in width cells; a number
 * too wide for its column shows as '+' signs rather than a wrong value. */
static void put_ascii(struct sink *s, const char *t, int width, bool right,
                      bool numeric)
{
	int len = (int)strlen(t);
	if (len > width) {
		if (numeric) {
			for (int i = 0; i < width; i++)
				sink_put(s, "+", 1);
			return;
		}
		len = width;
	}
	if (right)
		sink_spaces(s, width - len);
	sink_put(s, t, (size_t)len);
	if (!right)
		sink_spaces(s, width - len);
}

static void fmt_percent(int64_t cpercent, char *buf, size_t len)
{
	double v = (double)cpercent / 100.0;
	/* one decimal while it fits in four characters */
	if (v < 99.95)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.0f", v);
}

static void fmt_bytes(int64_t b, char *buf, size_t len)
{
	const double mib = 1024.0 * 1024.0, gib = mib * 1024.0,
	             tib = gib * 1024.0;
	double v = (double)b;

	if (b <= 0)
		snprintf(buf, len, "0MiB");
	else if (v < mib)
		snprintf(buf, len, "<1MiB"); /* not "0MiB": it uses some */
	else if (v < 1023.5 * mib)
		snprintf(buf, len, "%.0fMiB", v / mib);
	else if (v < 99.95 * gib)
		snprintf(buf, len, "%.1fGiB", v / gib);
	else if (v < 1023.5 * gib)
		snprintf(buf, len, "%.0fGiB", v / gib);
	else
		snprintf(buf, len, "%.1fTiB", v / tib);
}

static const int *widths_or_default(const int *widths, int *tmp)
{
	if (widths)
		return widths;
	gt_proctable_widths(120, NULL, tmp);
	return tmp;
}

void gt_proctable_format_header(const int *widths, char *out, size_t outlen)
{
	int tmp[GT_COL__COUNT];
	struct sink s = {out, out ? outlen : 0, 0, false};
	bool first = true;

	if (s.len)
		out[0] = '\0';
	widths = widths_or_default(widths, tmp);
	for (int c = 0; c < GT_COL__COUNT; c++) {
		if (widths[c] <= 0)
			continue;
		if (!first)
			sink_put(&s, " ", 1);
		first = false;
		put_ascii(&s, gt_proctable_cols[c].header, widths[c],
		          gt_proctable_cols[c].right, false);
	}
}

void gt_proctable_format_row(const struct gt_process *p, const int *widths,
                             int hscroll, char *out, size_t outlen)
{
	gt_proctable_format_row_prefixed(p, widths, hscroll, NULL, 0, out,
	                                 outlen);
}

void gt_proctable_format_row_prefixed(const struct gt_process *p,
                                      const int *widths, int hscroll,
                                      const char *prefix, int prefix_cells,
                                      char *out, size_t outlen)
{
	int tmp[GT_COL__COUNT];
	struct sink s = {out, out ? outlen : 0, 0, false};
	bool first = true;

	if (s.len)
		out[0] = '\0';
	widths = widths_or_default(widths, tmp);
	for (int c = 0; c < GT_COL__COUNT; c++) {
		const struct gt_proctable_coldesc *d = &gt_proctable_cols[c];
		char buf[GT_COMM_LEN + 16];
		int64_t v;

		if (widths[c] <= 0)
			continue;
		if (!first)
			sink_put(&s, " ", 1);
		first = false;

		if (d->numeric) {
			if (!num_of(p, (enum gt_proctable_col)c, &v))
				snprintf(buf, sizeof(buf), "N/A");
			else if (c == GT_COL_VRAM || c == GT_COL_HOST_MEM)
				fmt_bytes(v, buf, sizeof(buf));
			else if (c == GT_COL_PID || c == GT_COL_DEV)
				snprintf(buf, sizeof(buf), "%" PRId64, v);
			else
				fmt_percent(v, buf, sizeof(buf));
			put_ascii(&s, buf, widths[c], d->right, true);
			continue;
		}

		bool last;
		const char *t = text_of(p, (enum gt_proctable_col)c, buf,
		                        sizeof(buf), &last);
		if (!t) {
			put_ascii(&s, "N/A", widths[c], d->right, false);
			continue;
		}
		int w = widths[c];
		if (c == GT_COL_COMMAND && prefix && prefix_cells < w) {
			sink_put(&s, prefix, strlen(prefix));
			w -= prefix_cells;
		}
		put_untrusted(&s, t, strlen(t),
		              c == GT_COL_COMMAND ? hscroll : 0, w);
	}
}

/* SPDX-License-Identifier: MIT */
/*
 * proctable_draw.c - draws the process table (see proctable_draw.h): the
 * model's text (proctable.c) painted into the table's rectangle, the sort
 * column's header and the selected row marked.
 */
#include "ui/proctable_draw.h"

#include <stdio.h>
#include <string.h>

#include "core/hash.h"
#include "ui/paint.h"

int gt_proctable_sort_header(const int *widths, enum gt_proctable_col c,
                             bool desc, char *out, size_t outlen)
{
	const struct gt_proctable_coldesc *cd = &gt_proctable_cols[c];
	char h[32];
	int w = widths[c], len = 0;

	if (outlen == 0)
		return 0;
	/* The marker stays inside the column (a separator taken by it
	 * glues two headers: "HOST MEMvCONTAINER") and a blank apart from
	 * the header (glued, it reads as a letter: "GPU%v"). A column
	 * without room for both loses the header's blanks first ("GPU% v"),
	 * then its last letters ("GP v"); the marker comes last. */
	snprintf(h, sizeof(h), "%s", cd->header);
	len = (int)strlen(h);
	if (len + 2 > w) {
		int k = 0;
		for (int i = 0; h[i]; i++)
			if (h[i] != ' ')
				h[k++] = h[i];
		h[k] = '\0';
		len = k;
	}
	if (len > w - 2)
		len = w - 2 > 0 ? w - 2 : 0;
	const char *mark = desc ? "v" : "^";
	int n;
	if (w <= 0)
		n = snprintf(out, outlen, "%s", "");
	else if (len == 0)
		n = snprintf(out, outlen, "%*s", w, mark); /* no room: alone */
	else
		n = snprintf(out, outlen, "%*s%.*s %s",
		             cd->right ? w - len - 2 : 0, "", len, h, mark);
	/* Padding to the column's end: nothing of the plain header stays. */
	while (n >= 0 && n < w && (size_t)n + 1 < outlen)
		out[n++] = ' ';
	if (n >= 0 && (size_t)n < outlen)
		out[n] = '\0';
	return w;
}

/* Everything row i of the table shows, as a memo key (paint.h): the
 * process (its command line by content: the pointer stays when a new
 * list reuses it), the tree's prefix and totals, the columns, the
 * horizontal scroll, the colours and the tag mark. */
static uint64_t row_key(const struct gt_table_data *d,
                        const struct gt_process *p, size_t i, int attr,
                        bool tagged)
{
	uint64_t h = gt_hash_bytes(GT_HASH_SEED, p, sizeof(*p));
	h = gt_hash_str(h, p->cmdline);
	if (d->tree)
		h = gt_hash_bytes(h, &d->tree[i], sizeof(d->tree[i]));
	h = gt_hash_bytes(h, d->widths, GT_COL__COUNT * sizeof(*d->widths));
	h = gt_hash_u64(h, (uint64_t)d->st->hscroll);
	h = gt_hash_u64(h, (uint64_t)(unsigned)attr);
	return gt_hash_u64(h, tagged);
}

static bool row_tagged(const struct gt_table_data *d, int32_t pid)
{
	for (int k = 0; k < d->ntagged; k++)
		if (d->tagged[k] == pid)
			return true;
	return false;
}

/* What the header line shows, as a memo key. */
static uint64_t header_key(const struct gt_table_data *d)
{
	const struct gt_proctable_state *st = d->st;
	uint64_t h = gt_hash_bytes(GT_HASH_SEED, d->widths,
	                           GT_COL__COUNT * sizeof(*d->widths));
	h = gt_hash_u64(h, (uint64_t)st->sort_col << 2 |
	                       (uint64_t)st->sort_start << 1 |
	                       (uint64_t)st->reverse);
	return gt_hash_str(h, d->note);
}

/* The header line: the column names, the sort column's marked. */
static void draw_header(WINDOW *w, struct gt_rect r,
                        const struct gt_table_data *d, char *line, size_t len)
{
	const struct gt_proctable_state *st = d->st;
	gt_proctable_format_header(d->widths, line, len);
	gt_paint_put(w, r, 0, 0, d->pal->role[GT_ROLE_TITLE] | A_UNDERLINE,
	             line);
	/* The sort column's header carries the direction: the cell is
	 * redrawn whole (header, blank, marker, padding). */
	int sx =
	    st->sort_start ? -1 : gt_proctable_col_x(d->widths, st->sort_col);
	if (sx >= 0) {
		char cell[64];
		gt_proctable_sort_header(
		    d->widths, st->sort_col,
		    gt_proctable_cols[st->sort_col].desc_first != st->reverse,
		    cell, sizeof(cell));
		gt_paint_put(w, r, 0, sx,
		             d->pal->role[GT_ROLE_HI] | A_UNDERLINE, cell);
	}
	if (d->note)
		gt_paint_put(w, r, 0, r.w - gt_paint_cells(d->note),
		             d->pal->role[GT_ROLE_HI], d->note);
}

/* Row `row` of r: process p, row i of the table's order. */
static void draw_row(WINDOW *w, struct gt_rect r, int row,
                     const struct gt_table_data *d, const struct gt_process *p,
                     size_t i, int attr, bool tagged, char *line, size_t len)
{
	const struct gt_proctable_state *st = d->st;
	if (d->tree) {
		/* The subtree's totals in its root's row. */
		struct gt_process shown = *p;
		shown.f[GT_P_GPU] = d->tree[i].gpu;
		shown.f[GT_P_MEM] = d->tree[i].mem;
		gt_proctable_format_row_prefixed(
		    &shown, d->widths, st->hscroll, d->tree[i].prefix,
		    d->tree[i].prefix_cells, line, len);
	} else {
		gt_proctable_format_row(p, d->widths, st->hscroll, line, len);
	}
	if ((int)i == st->selected) /* the whole row shows the bar */
		gt_paint_fill(w, r, row, attr);
	gt_paint_put(w, r, row, 0, attr, line);
	if (tagged)
		gt_paint_put(w, r, row, 0, attr | A_BOLD, "*");
}

void gt_proctable_draw(WINDOW *w, struct gt_rect r,
                       const struct gt_table_data *d)
{
	char line[2048];
	const struct gt_proctable_state *st = d->st;

	if (r.h <= 0 || r.w <= 0)
		return;
	if (!gt_paint_region(w, (struct gt_rect){r.x, r.y, r.w, 1},
	                     header_key(d)))
		draw_header(w, r, d, line, sizeof(line));
	gt_paint_region_end();
	for (int row = 1; row < r.h; row++) {
		size_t i = (size_t)(st->scroll_row + row - 1);
		if (i >= d->count)
			break;
		const struct gt_process *p = &d->procs[d->order[i]];
		int attr = (int)i == st->selected
		               ? (st->follow_pid == p->pid
		                      ? d->pal->role[GT_ROLE_FOLLOWED]
		                      : d->pal->role[GT_ROLE_SELECTED])
		               : d->pal->role[GT_ROLE_MAIN];
		bool tagged = row_tagged(d, p->pid);
		/* A row that shows what it showed is kept as it is: most
		 * rows change once a process round, not every frame. */
		if (!gt_paint_region(w,
		                     (struct gt_rect){r.x, r.y + row, r.w, 1},
		                     row_key(d, p, i, attr, tagged)))
			draw_row(w, r, row, d, p, i, attr, tagged, line,
			         sizeof(line));
		gt_paint_region_end();
	}
}

/* SPDX-License-Identifier: MIT */
/*
 * dashboard_status - owns the dashboard's status line as drawn: the key
 * hints, a notice (wrapped onto the rows above when long), the filter
 * prompt, the layout's message and gputop's own figures, each shortened
 * by whole items (statusline.h says which go first); and the frame of the
 * status line alone that a wake-up for the clock draws.
 */
#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/hash.h"
#include "ui/dashboard_priv.h"
#include "ui/paint.h"
#include "ui/statusline.h"

/* The status line's right end (statusline.h) in at most `room` cells;
 * returns the cells of buf. */
static int format_stats(const struct gt_dashboard *d, int room, char *buf,
                        size_t len)
{
	struct gt_statusline_stats s = {
	    .interval_ns = d->interval_ns,
	    .now = time(NULL),
	    .self_cpu_pct = d->self_cpu_pct,
	    .self_rss = d->self_rss,
	};
	return gt_statusline_stats(&s, room, buf, len);
}

static void put_span(struct gt_rect r, int row, int col, int attr,
                     const char *s, int n)
{
	char line[512];
	snprintf(line, sizeof(line), "%.*s", n, s);
	gt_paint_put(stdscr, r, row, col, attr, line);
}

/* A notice too long for the status line wraps onto the rows above it (up
 * to four, never the title): the whole reason stays readable. Returns
 * the cells its last line takes on the status row. */
static int draw_notice(struct gt_dashboard *d, const char *msg)
{
	struct gt_rect r = d->layout.status;
	char stats[160];
	enum { MAXL = 4 };
	const char *start[MAXL];
	int len[MAXL];
	int full = format_stats(d, r.w, stats, sizeof(stats));
	int attr = d->pal.role[GT_ROLE_HI];

	if (1 + gt_paint_cells(msg) <= r.w - full) {
		gt_paint_put(stdscr, r, 0, 1, attr, msg);
		return 1 + gt_paint_cells(msg);
	}
	int maxl = r.y - 1 < MAXL ? r.y - 1 : MAXL; /* rows below the title */
	int n = gt_paint_wrap(msg, r.w - 2, maxl > 1 ? maxl : 1, start, len);
	for (int i = 0; i < n; i++) {
		struct gt_rect row = {r.x, r.y - (n - 1) + i, r.w, 1};
		gt_paint_erase(stdscr, row, 0);
		put_span(row, 0, 1, attr, start[i], len[i]);
	}
	char last[512];
	snprintf(last, sizeof(last), "%.*s", len[n - 1], start[n - 1]);
	return 1 + gt_paint_cells(last);
}

/* The status line without a notice or a prompt (its key hints, the
 * layout's message, the figures) showing what it showed last frame: kept
 * (paint.h) and true; else false, and the line is drawn as a region. */
static bool plain_kept(const struct gt_dashboard *d, struct gt_rect r)
{
	uint64_t h = gt_hash_str(GT_HASH_SEED, d->layout.message);
	h = gt_hash_u64(h, d->interval_ns);
	h = gt_hash_u64(h, (uint64_t)time(NULL));
	h = gt_hash_bytes(h, &d->self_cpu_pct, sizeof(d->self_cpu_pct));
	h = gt_hash_u64(h, d->self_rss);
	return gt_paint_region(stdscr, r, h);
}

void gt_dashboard_draw_status(struct gt_dashboard *d)
{
	struct gt_rect r = d->layout.status;
	char buf[512], stats[160];

	if (r.h <= 0)
		return;
	if (d->ov.kind == GT_OVERLAY_FILTER) {
		snprintf(buf, sizeof(buf),
		         "%s: %s_  (Enter apply, Esc clear, "
		         "Ctrl-R %s)",
		         d->pt.filter_is_regex ? "regex" : "filter",
		         d->ov.input,
		         d->pt.filter_is_regex ? "substring" : "regex");
		gt_paint_put(stdscr, r, 0, 0, d->pal.role[GT_ROLE_HI], buf);
		return;
	}
	if (d->ov.kind == GT_OVERLAY_SEARCH) {
		snprintf(buf, sizeof(buf),
		         "search: %s_  (Enter or F3 next match, Esc done)%s",
		         d->ov.input, d->search_missed ? "  not found" : "");
		gt_paint_put(stdscr, r, 0, 0, d->pal.role[GT_ROLE_HI], buf);
		return;
	}
	/* A notice takes the place of the key hints: it is what the user
	 * needs to read now, and the hints are one ? away. */
	const char *msg = NULL;
	if (d->notice[0] && gt_monotonic_ns() < d->notice_until)
		msg = d->notice;
	else if (d->filter_err[0])
		msg = d->filter_err;
	int used;
	if (msg) {
		used = draw_notice(d, msg);
	} else if (plain_kept(d, r)) {
		return;
	} else {
		/* Which GPUs show matters more than the key hints; it
		 * loses whole clauses where the line is too short. */
		char m[sizeof(d->layout.message)];
		gt_statusline_message(d->layout.message, r.w - 1, m, sizeof(m));
		int mw = m[0] ? gt_paint_cells(m) + 1 : 0;
		int sw = format_stats(d, r.w - mw - 1, stats, sizeof(stats));
		/* One blank cell before the stats, "  |" before m. */
		char keys[96];
		int kw = gt_statusline_keys(r.w - sw - 1 - (m[0] ? mw + 3 : 0),
		                            keys, sizeof(keys));
		int x = 0;
		if (kw > 0) {
			x = gt_paint_put(stdscr, r, 0, 0,
			                 d->pal.role[GT_ROLE_INACTIVE], keys);
			if (m[0])
				x += gt_paint_put(stdscr, r, 0, x,
				                  d->pal.role[GT_ROLE_INACTIVE],
				                  "  |");
		}
		if (m[0])
			x += 1 + gt_paint_put(stdscr, r, 0, x + 1,
			                      d->pal.role[GT_ROLE_INACTIVE], m);
		used = x;
	}
	int sw = format_stats(d, r.w - used - 1, stats, sizeof(stats));
	if (sw > 0)
		gt_paint_put(stdscr, r, 0, r.w - sw,
		             d->pal.role[GT_ROLE_INACTIVE], stats);
	gt_paint_region_end();
}

void gt_dashboard_draw_clock(struct gt_dashboard *d)
{
	struct gt_rect r = d->layout.status;
	int rows, cols;

	getmaxyx(stdscr, rows, cols);
	(void)rows;
	/* The row is cleared as werase would (its background); a status
	 * line that is not a whole row gets a whole frame. */
	if (d->layout.too_small || r.h <= 0 || r.x != 0 || r.w != cols) {
		gt_dashboard_draw(d);
		return;
	}
	d->drawn_second = (long long)time(NULL);
	gt_paint_erase(stdscr, r, 0);
	gt_dashboard_draw_status(d);
	wnoutrefresh(stdscr);
	doupdate();
}

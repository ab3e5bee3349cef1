/* SPDX-License-Identifier: MIT */
/*
 * statusline.c - the status line's key hints and figures (see
 * statusline.h): each tried from the longest form down until it fits.
 */
#include "ui/statusline.h"

#include <stdio.h>
#include <string.h>

#include "ui/paint.h"

int gt_statusline_keys(int room, char *buf, size_t len)
{
	static const struct {
		const char *text;
		int rank; /* kept while fewer than `keep` are */
	} hints[] = {
	    {"q quit", 0},   {"? help", 1},     {"o setup", 3},
	    {"/ filter", 4}, {"s snapshot", 5}, {"e why N/A", 2},
	};
	const int n = (int)(sizeof(hints) / sizeof(hints[0]));

	if (len == 0)
		return 0;
	for (int keep = n; keep > 0; keep--) {
		size_t k = 0;
		buf[0] = '\0';
		for (int i = 0; i < n && k < len; i++)
			if (hints[i].rank < keep)
				k += (size_t)snprintf(buf + k, len - k, "%s%s",
				                      k ? "  " : " ",
				                      hints[i].text);
		if (k < len && gt_paint_cells(buf) <= room)
			return gt_paint_cells(buf);
	}
	buf[0] = '\0';
	return 0;
}

int gt_statusline_stats(const struct gt_statusline_stats *s, int room,
                        char *buf, size_t len)
{
	char clock[16];
	struct tm tm;
	double iv = (double)s->interval_ns / 1e9;
	double mib = (double)s->self_rss / (1024.0 * 1024.0);

	if (len == 0)
		return 0;
	char own[64];
	localtime_r(&s->now, &tm);
	strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
	/* No CPU figure before one was measured: 0.0 % would be a guess. */
	if (s->self_cpu_pct >= 0)
		snprintf(own, sizeof(own), "gputop %.1f%% CPU %.1f MiB",
		         s->self_cpu_pct, mib);
	else
		snprintf(own, sizeof(own), "gputop %.1f MiB", mib);
	for (int level = 0; level < 4; level++) {
		if (level == 0)
			snprintf(buf, len, " %.1fs | %s | %s ", iv, clock, own);
		else if (level == 1)
			snprintf(buf, len, " %.1fs | %s ", iv, own);
		else if (level == 2)
			snprintf(buf, len, " %.1fs ", iv);
		else
			buf[0] = '\0';
		if (gt_paint_cells(buf) <= room)
			break;
	}
	return gt_paint_cells(buf);
}

int gt_statusline_message(const char *msg, int room, char *buf, size_t len)
{
	if (len == 0)
		return 0;
	snprintf(buf, len, "%s", msg);
	while (gt_paint_cells(buf) > room) {
		/* The last "; " clause goes; with none left, everything. */
		char *cut = NULL;
		for (char *p = strstr(buf, "; "); p; p = strstr(p + 2, "; "))
			cut = p;
		if (!cut) {
			buf[0] = '\0';
			break;
		}
		*cut = '\0';
	}
	return gt_paint_cells(buf);
}

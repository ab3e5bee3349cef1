/* SPDX-License-Identifier: MIT */
/*
 * statusline.c - the status line's key hints and figures (see
 * statusline.h): each tried from the longest form down until it fits.
 */
#include "ui/statusline.h"

#include <math.h>
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

/* Text appended at *at within buf[len] (cut at the end, always ended). */
static void add(char *buf, size_t len, size_t *at, const char *text)
{
	while (*text && *at + 1 < len)
		buf[(*at)++] = *text++;
	buf[*at] = '\0';
}

/* n tenths as "12.3", appended. The figures are formatted here rather than
 * by printf's %.1f: its floating-point code, cold again each second, was
 * 7 % of the dashboard thread's CPU at a 1 s interval in a profile (38 of
 * 558 samples), for three numbers redrawn with the clock. */
static void add_tenths(char *buf, size_t len, size_t *at, uint64_t n)
{
	char d[24];
	int i = (int)sizeof(d) - 1;
	d[i] = '\0';
	d[--i] = (char)('0' + n % 10);
	d[--i] = '.';
	n /= 10;
	do {
		d[--i] = (char)('0' + n % 10);
		n /= 10;
	} while (n && i > 0);
	add(buf, len, at, d + i);
}

/* Tenths rounded as printf's %.1f rounds an exact tie: to even; 0 for
 * what is not a number from 0 to 1e15. */
static uint64_t tenths_of(double x)
{
	return x > 0 && x < 1e15 ? (uint64_t)nearbyint(x * 10.0) : 0;
}

int gt_statusline_stats(const struct gt_statusline_stats *s, int room,
                        char *buf, size_t len)
{
	char iv[32], clock[16], own[64];
	size_t k = 0;
	struct tm tm = {0};

	if (len == 0)
		return 0;
	/* The interval in tenths of a second, rounded half up. */
	add_tenths(iv, sizeof(iv), &k,
	           (s->interval_ns + 50000000ull) / 100000000ull);
	add(iv, sizeof(iv), &k, "s");
	localtime_r(&s->now, &tm);
	const int hms[3] = {tm.tm_hour, tm.tm_min, tm.tm_sec};
	for (int i = 0; i < 3; i++) {
		clock[3 * i] = (char)('0' + hms[i] / 10 % 10);
		clock[3 * i + 1] = (char)('0' + hms[i] % 10);
		clock[3 * i + 2] = i < 2 ? ':' : '\0';
	}
	k = 0;
	add(own, sizeof(own), &k, "gputop ");
	/* No CPU figure before one was measured: 0.0 % would be a guess. */
	if (s->self_cpu_pct >= 0) {
		add_tenths(own, sizeof(own), &k, tenths_of(s->self_cpu_pct));
		add(own, sizeof(own), &k, "% CPU ");
	}
	add_tenths(own, sizeof(own), &k,
	           tenths_of((double)s->self_rss / (1024.0 * 1024.0)));
	add(own, sizeof(own), &k, " MiB");
	/* Longest first: all, without the clock, the interval alone, none. */
	const char *const parts[][3] = {
	    {iv, clock, own}, {iv, own, NULL}, {iv, NULL, NULL}, {NULL}};
	for (size_t level = 0; level < 4; level++) {
		k = 0;
		buf[0] = '\0';
		for (int i = 0; i < 3 && parts[level][i]; i++) {
			add(buf, len, &k, i ? " | " : " ");
			add(buf, len, &k, parts[level][i]);
		}
		if (k)
			add(buf, len, &k, " ");
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

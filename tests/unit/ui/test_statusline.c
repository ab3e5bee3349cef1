/* SPDX-License-Identifier: MIT */
/*
 * test_statusline.c - the status line's ends (src/ui/statusline.c): at
 * every width the key hints are whole hints in their order, dropped least
 * needed first, and the figures drop the clock, then gputop's use, then the
 * interval; the layout's message loses whole clauses.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "ui/statusline.h"

static const char full[] =
    " q quit  ? help  o setup  / filter  s snapshot  e why N/A";

static void test_keys_whole_hints(void **state)
{
	/* In the order they go. */
	static const char *const drop[] = {"s snapshot", "/ filter", "o setup",
	                                   "e why N/A",  "? help",   "q quit"};
	char buf[128];
	int last = -1;
	(void)state;

	assert_int_equal(gt_statusline_keys(200, buf, sizeof(buf)),
	                 (int)strlen(full));
	assert_string_equal(buf, full);
	for (int room = 0; room <= 70; room++) {
		int n = gt_statusline_keys(room, buf, sizeof(buf));
		assert_int_equal(n, (int)strlen(buf));
		assert_true(n <= room);
		assert_true(n >= last); /* more room never shows less */
		last = n;
		/* Whole hints: taking them out leaves only blanks. */
		char rest[128];
		strcpy(rest, buf);
		int shown = 0;
		for (int i = 0; i < 6; i++) {
			char *p = strstr(rest, drop[i]);
			if (p) {
				memset(p, ' ', strlen(drop[i]));
				shown |= 1 << i;
			}
		}
		assert_int_equal(strspn(rest, " "), strlen(rest));
		/* A hint shows only while every later-dropped one does. */
		for (int i = 0; i < 5; i++)
			if (shown & (1 << i))
				assert_true(shown & (1 << (i + 1)));
		assert_int_equal(room >= 7, (shown & (1 << 5)) != 0);
	}
	assert_int_equal(gt_statusline_keys(46, buf, sizeof(buf)), 45);
	assert_string_equal(buf,
	                    " q quit  ? help  o setup  / filter  e why N/A");
	assert_int_equal(gt_statusline_keys(16, buf, sizeof(buf)), 15);
	assert_string_equal(buf, " q quit  ? help");
	/* A short buffer: what fits it, never cut mid-hint. */
	char small[20];
	gt_statusline_keys(200, small, sizeof(small));
	assert_string_equal(small, " q quit  ? help");
}

static void test_stats_levels(void **state)
{
	/* 3723 s after the epoch in UTC: the clock reads 01:02:03, every
	 * digit a different one. */
	struct gt_statusline_stats s = {
	    .interval_ns = 500000000ull,
	    .now = 3723,
	    .self_cpu_pct = 0.25,
	    .self_rss = 12 * 1024 * 1024 + 512 * 1024,
	};
	char buf[128];
	(void)state;
	assert_int_equal(setenv("TZ", "UTC", 1), 0);
	tzset();

	int full_n = gt_statusline_stats(&s, 200, buf, sizeof(buf));
	assert_int_equal(full_n, (int)strlen(buf));
	assert_non_null(strstr(buf, " 0.5s | "));
	assert_non_null(strstr(buf, " | gputop 0.2% CPU 12.5 MiB "));
	assert_non_null(strstr(buf, " 0.5s | 01:02:03 | "));
	assert_int_equal(gt_statusline_stats(&s, full_n - 1, buf, sizeof(buf)),
	                 (int)strlen(" 0.5s | gputop 0.2% CPU 12.5 MiB "));
	assert_string_equal(buf, " 0.5s | gputop 0.2% CPU 12.5 MiB ");
	assert_int_equal(gt_statusline_stats(&s, 10, buf, sizeof(buf)), 6);
	assert_string_equal(buf, " 0.5s ");
	assert_int_equal(gt_statusline_stats(&s, 5, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
}

/* Before gputop has measured its own CPU the line shows its memory alone:
 * a 0.0 % there would be a guess. */
static void test_stats_cpu_not_measured(void **state)
{
	struct gt_statusline_stats s = {
	    .interval_ns = 1000000000ull,
	    .now = 0,
	    .self_cpu_pct = -1,
	    .self_rss = 10 * 1024 * 1024,
	};
	char buf[128];
	(void)state;

	gt_statusline_stats(&s, 200, buf, sizeof(buf));
	assert_null(strstr(buf, "CPU"));
	assert_non_null(strstr(buf, " | gputop 10.0 MiB "));
	s.self_cpu_pct = 0;
	gt_statusline_stats(&s, 200, buf, sizeof(buf));
	assert_non_null(strstr(buf, " | gputop 0.0% CPU 10.0 MiB "));
	/* Figures of several digits, the longest interval. */
	s.interval_ns = 3600000000000ull;
	s.self_cpu_pct = 104.96;
	s.self_rss = 1536ull * 1024 * 1024;
	gt_statusline_stats(&s, 200, buf, sizeof(buf));
	assert_memory_equal(buf, " 3600.0s | ", 11);
	assert_non_null(strstr(buf, " | gputop 105.0% CPU 1536.0 MiB "));
}

static void test_message_clauses(void **state)
{
	static const char m[] = "GPUs 0-1 of 8; 20x12 shows all";
	char buf[64];
	(void)state;

	assert_int_equal(gt_statusline_message(m, 200, buf, sizeof(buf)),
	                 (int)strlen(m));
	assert_string_equal(buf, m);
	assert_int_equal(
	    gt_statusline_message(m, (int)strlen(m), buf, sizeof(buf)),
	    (int)strlen(m));
	/* One cell short: the clause goes whole ("; 20x1" before). */
	for (int room = 13; room < (int)strlen(m); room++) {
		assert_int_equal(
		    gt_statusline_message(m, room, buf, sizeof(buf)), 13);
		assert_string_equal(buf, "GPUs 0-1 of 8");
	}
	assert_int_equal(gt_statusline_message(m, 12, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	assert_int_equal(gt_statusline_message("a; b; c", 4, buf, sizeof(buf)),
	                 4);
	assert_string_equal(buf, "a; b");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_keys_whole_hints),
	    cmocka_unit_test(test_stats_levels),
	    cmocka_unit_test(test_stats_cpu_not_measured),
	    cmocka_unit_test(test_message_clauses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * test_dashboard_input.c - the dashboard's key table
 * (src/ui/dashboard_input.c) without a terminal: the help window made
 * from the table says what it said when it was written by hand, word for
 * word, and keys do what their help lines say (quit, toggles, sort,
 * sideways scroll, overlays, notices) on a dashboard with no collector.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ui/dashboard_priv.h"

/* The help window: one line per binding of the key table, in its order
 * (word for word, so a key cannot go missing from it). */
static const char *const expected_help[] = {
    "Keys (letters work where F-keys do not reach)",
    "",
    "  q  F10        quit",
    "  ?  h  F1      this help",
    "  e             why N/A: the selected GPU's and process's reasons",
    "  o  F2         setup (w in it saves the settings file)",
    "  s             save a JSON snapshot",
    "  Tab ]  S-Tab [  select the next / previous GPU",
    "  m             panels: automatic, compact, one line per GPU",
    "  g             graph symbols: braille, block, ascii",
    "  C             temperatures in Celsius / Fahrenheit",
    "  + -           sampling interval twice / half as long",
    "  p             power dialog: limit, mode, profile (selected GPU)",
    "  f             fan dialog: curve, presets, automatic",
    "  v             show / hide the process table",
    "  Up Down j k   select a process (PgUp PgDn Home End)",
    "  Left Right    scroll command lines sideways",
    "  > <           sort by the next / previous column",
    "  F6            pick the column to sort by from a list",
    "  M             sort by VRAM",
    "  P             sort by GPU %",
    "  T             sort by start time, the oldest first",
    "  r             reverse the sort",
    "  /  F4         filter processes (Ctrl-R: regular expression)",
    "  F3            search: select the next match, hide nothing",
    "  u             show one user's processes (a list; all users)",
    "  Esc           clear the table's filters (text, GPU, user)",
    "  t  F5         tree: processes under their parents, totals rolled up",
    "  d             processes of the selected GPU only / all GPUs",
    "  F             follow the selected process",
    "  Space         tag / untag the selected process (and move down)",
    "  c             tag the selected process and its children",
    "  U             untag all",
    "  Enter         the selected process in detail, with graphs (Esc back)",
    "  x  F9         send a signal to the tagged processes, else the selected",
    "  Ctrl-L        redraw the screen",
    "",
    "Mouse: click a GPU panel, a process row or a column header;",
    "the wheel scrolls the GPU list or the process table under it.",
    "",
    "Up Down PgUp PgDn Home End scroll; Esc or q closes this window.",
};

static int setup_dashboard(void **state)
{
	static const struct gt_dashboard_opts opts = {0};
	struct gt_dashboard *d = calloc(1, sizeof(*d));
	if (!d)
		return -1;
	d->opts = &opts;
	gt_proctable_state_init(&d->pt);
	gt_sigtarget_init(&d->sig);
	d->cfg.glyphs = -1;
	d->auto_glyphs = GT_GLYPHS_BRAILLE;
	*state = d;
	return 0;
}

static int teardown_dashboard(void **state)
{
	free(*state);
	return 0;
}

static void test_help_from_table(void **state)
{
	struct gt_dashboard *d = *state;
	int n = (int)(sizeof(expected_help) / sizeof(expected_help[0]));

	gt_dashboard_help_build(d);
	assert_int_equal(d->nhelp, n);
	for (int i = 0; i < n; i++)
		assert_string_equal(d->help[i], expected_help[i]);
}

static void test_quit_keys(void **state)
{
	struct gt_dashboard *d = *state;

	assert_false(gt_dashboard_key(d, 'q'));
	assert_false(gt_dashboard_key(d, 'Q'));
	assert_false(gt_dashboard_key(d, KEY_F(10)));
	/* Keys that mean nothing here, and a resize, keep it running. */
	assert_true(gt_dashboard_key(d, 'Z'));
	assert_true(gt_dashboard_key(d, KEY_RESIZE));
}

static void test_toggles(void **state)
{
	struct gt_dashboard *d = *state;

	assert_true(gt_dashboard_key(d, 'C'));
	assert_true(d->cfg.fahrenheit);
	gt_dashboard_key(d, 'C');
	assert_false(d->cfg.fahrenheit);
	gt_dashboard_key(d, 'v');
	assert_true(d->cfg.show_processes);
	gt_dashboard_key(d, 'r');
	assert_true(d->pt.reverse);
	gt_dashboard_key(d, 'm');
	assert_int_equal(d->cfg.max_mode, 1);
	assert_string_equal(d->notice, "panels: compact");
	gt_dashboard_key(d, 'g');
	assert_int_equal(gt_dashboard_glyphs(d), GT_GLYPHS_BRAILLE + 1);
	gt_dashboard_key(d, 'd'); /* no GPU selected: all GPUs */
	assert_int_equal(d->pt.device_filter, -1);
	assert_string_equal(d->notice, "processes of all GPUs");
	gt_dashboard_key(d, 'x');
	assert_string_equal(d->notice, "no process selected");
	gt_dashboard_key(d, 'F');
	assert_string_equal(d->notice, "not following");
	gt_dashboard_key(d, 't');
	assert_true(d->tree);
	gt_dashboard_key(d, KEY_F(5));
	assert_false(d->tree);
	assert_string_equal(d->notice, "flat list");
}

static void test_sort_and_scroll(void **state)
{
	struct gt_dashboard *d = *state;
	enum gt_proctable_col first = d->pt.sort_col;

	gt_dashboard_key(d, '>');
	assert_int_equal(d->pt.sort_col, (first + 1) % GT_COL__COUNT);
	gt_dashboard_key(d, '<');
	gt_dashboard_key(d, '<');
	assert_int_equal(d->pt.sort_col,
	                 (first + GT_COL__COUNT - 1) % GT_COL__COUNT);

	/* htop's M and P, and F6's list: Down twice from the current
	 * column, Enter picks; Esc leaves the sort alone. */
	gt_dashboard_key(d, 'M');
	assert_int_equal(d->pt.sort_col, GT_COL_VRAM);
	assert_string_equal(d->notice, "sorted by VRAM");
	d->pt.reverse = true;
	gt_dashboard_key(d, 'P');
	assert_int_equal(d->pt.sort_col, GT_COL_GPU);
	assert_false(d->pt.reverse);
	gt_dashboard_key(d, 'T');
	assert_true(d->pt.sort_start);
	assert_string_equal(d->notice,
	                    "sorted by start time, the oldest first");
	gt_dashboard_key(d, 'P'); /* a column sort ends it */
	assert_false(d->pt.sort_start);
	gt_dashboard_key(d, KEY_F(6));
	assert_true(d->pick.open);
	assert_int_equal(d->pick.n, GT_COL__COUNT);
	assert_int_equal(d->pick.choice, GT_COL_GPU);
	gt_dashboard_key(d, KEY_DOWN);
	gt_dashboard_key(d, 'j');
	assert_int_equal(d->pt.sort_col, GT_COL_GPU); /* not yet */
	gt_dashboard_key(d, '\n');
	assert_false(d->pick.open);
	assert_int_equal(d->pt.sort_col, GT_COL_GPU + 2);
	gt_dashboard_key(d, KEY_F(6));
	gt_dashboard_key(d, KEY_HOME);
	gt_dashboard_key(d, 27);
	assert_false(d->pick.open);
	assert_int_equal(d->pt.sort_col, GT_COL_GPU + 2);

	d->pt.hscroll = 20;
	gt_dashboard_key(d, KEY_LEFT);
	assert_int_equal(d->pt.hscroll, 12);
	gt_dashboard_key(d, KEY_LEFT);
	gt_dashboard_key(d, KEY_LEFT);
	assert_int_equal(d->pt.hscroll, 0);
	/* No rows: nothing to scroll to. */
	gt_dashboard_key(d, KEY_RIGHT);
	assert_int_equal(d->pt.hscroll, 0);
}

static void test_overlays(void **state)
{
	struct gt_dashboard *d = *state;
	const int help_keys[] = {'?', 'h', KEY_F(1)};

	for (size_t i = 0; i < 3; i++) {
		gt_dashboard_key(d, help_keys[i]);
		assert_int_equal(d->ov.kind, GT_OVERLAY_HELP);
		gt_dashboard_key(d, 27);
		assert_int_equal(d->ov.kind, GT_OVERLAY_NONE);
	}
	gt_dashboard_key(d, 'e');
	assert_int_equal(d->ov.kind, GT_OVERLAY_EXPLAIN);
	/* Open, the overlay takes the keys: q closes it, not gputop. */
	assert_true(gt_dashboard_key(d, 'q'));
	assert_int_equal(d->ov.kind, GT_OVERLAY_NONE);

	gt_copy_str(d->pt.filter, sizeof(d->pt.filter), "py");
	gt_dashboard_key(d, '/');
	assert_int_equal(d->ov.kind, GT_OVERLAY_FILTER);
	assert_string_equal(d->ov.input, "py");
	gt_dashboard_key(d, 't');
	assert_string_equal(d->pt.filter, "pyt");
	gt_dashboard_key(d, 27);
	assert_int_equal(d->ov.kind, GT_OVERLAY_NONE);
	assert_string_equal(d->pt.filter, "");
}

static void proc(struct gt_process *p, int32_t pid, uint32_t uid,
                 const char *user, const char *name)
{
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->uid = uid;
	p->host_known = true;
	gt_copy_str(p->user, sizeof(p->user), user);
	gt_copy_str(p->name, sizeof(p->name), name);
}

/* The dashboard shows items[0..n) in that order (pl and order are the
 * caller's), or, with n 0, nothing. */
static void show(struct gt_dashboard *d, struct gt_proclist *pl,
                 struct gt_process *items, size_t *order, size_t n)
{
	*pl = (struct gt_proclist){.count = n, .items = items};
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	d->view.procs = n ? pl : NULL;
	d->order = n ? order : NULL;
	d->norder = n;
}

/* F3 selects matches without hiding rows; u lists each user once and
 * filters by the one picked; Esc clears every filter. */
static void test_search_user_esc(void **state)
{
	struct gt_dashboard *d = *state;
	struct gt_process items[3];
	struct gt_proclist pl;
	size_t order[3];

	proc(&items[0], 10, 1000, "alice", "python");
	proc(&items[1], 20, 1001, "bob", "ollama");
	proc(&items[2], 30, 1000, "alice", "python3");
	show(d, &pl, items, order, 3);
	d->pt.selected = 1;

	gt_dashboard_key(d, KEY_F(3));
	assert_int_equal(d->ov.kind, GT_OVERLAY_SEARCH);
	gt_dashboard_key(d, 'p');
	gt_dashboard_key(d, 'Y');            /* case-insensitive */
	assert_int_equal(d->pt.selected, 2); /* from the selected row on */
	gt_dashboard_key(d, KEY_F(3));
	assert_int_equal(d->pt.selected, 0); /* next, wrapping */
	gt_dashboard_key(d, '\n');
	assert_int_equal(d->pt.selected, 2);
	assert_false(d->search_missed);
	gt_dashboard_key(d, 'z');
	assert_true(d->search_missed);
	assert_int_equal(d->pt.selected, 2);
	gt_dashboard_key(d, 27);
	assert_int_equal(d->ov.kind, GT_OVERLAY_NONE);
	assert_string_equal(d->pt.filter, ""); /* nothing hidden */
	gt_dashboard_key(d, KEY_F(3));         /* the last search comes back */
	assert_string_equal(d->ov.input, "pYz");
	gt_dashboard_key(d, 27);

	gt_dashboard_key(d, 'u');
	assert_true(d->pick.open);
	assert_int_equal(d->pick.n, 3);
	assert_string_equal(d->pick.items[0], "all users");
	assert_string_equal(d->pick.items[1], "alice");
	assert_string_equal(d->pick.items[2], "bob");
	gt_dashboard_key(d, KEY_END);
	gt_dashboard_key(d, '\n');
	assert_true(d->pt.user_filter_on);
	assert_int_equal(d->pt.user_filter, 1001);
	assert_string_equal(d->pick_user, "bob");
	gt_dashboard_key(d, 'u');
	assert_int_equal(d->pick.choice, 2); /* the one in force */
	gt_dashboard_key(d, KEY_HOME);
	gt_dashboard_key(d, '\n');
	assert_false(d->pt.user_filter_on);

	d->pt.user_filter_on = true;
	d->pt.device_filter = 0;
	gt_copy_str(d->pt.filter, sizeof(d->pt.filter), "py");
	gt_dashboard_key(d, 27);
	assert_false(d->pt.user_filter_on);
	assert_int_equal(d->pt.device_filter, -1);
	assert_string_equal(d->pt.filter, "");
	assert_string_equal(d->notice, "filters cleared");
	show(d, &pl, items, order, 0);
}

/* Space tags and moves down, c tags a process with its descendants
 * (by ancestry), U untags all; x with tags binds the whole set, names
 * each, and Esc releases it. */
static void test_tags(void **state)
{
	struct gt_dashboard *d = *state;
	struct gt_process items[4];
	struct gt_proclist pl;
	size_t order[4];

	proc(&items[0], 10, 1000, "alice", "launcher");
	proc(&items[1], 20, 1000, "alice", "worker");
	items[1].ancestry[0] = 15; /* a shell in between */
	items[1].ancestry[1] = 10;
	proc(&items[2], 30, 1000, "alice", "worker");
	items[2].ancestry[0] = 10;
	proc(&items[3], 40, 1001, "bob", "other");
	show(d, &pl, items, order, 4);
	d->pt.selected = 3;

	gt_dashboard_key(d, ' ');
	assert_int_equal(d->ntags, 1);
	assert_true(gt_dashboard_tagged(d, 40));
	d->pt.selected = 3;
	gt_dashboard_key(d, ' '); /* again: untagged */
	assert_int_equal(d->ntags, 0);
	d->pt.selected = 0;
	gt_dashboard_key(d, 'c');
	assert_int_equal(d->ntags, 3);
	assert_true(gt_dashboard_tagged(d, 10));
	assert_true(gt_dashboard_tagged(d, 20));
	assert_true(gt_dashboard_tagged(d, 30));
	assert_false(gt_dashboard_tagged(d, 40));
	assert_string_equal(d->notice, "3 tagged (U untags all)");

	/* Enter: the selected process's details; q and Esc close them
	 * (q does not quit there). */
	d->pt.selected = 1;
	gt_dashboard_key(d, '\n');
	assert_true(d->pview.open);
	assert_int_equal(d->pview.pid, 20);
	assert_true(gt_dashboard_key(d, 'q'));
	assert_false(d->pview.open);
	gt_dashboard_key(d, KEY_ENTER);
	assert_true(d->pview.open);
	gt_dashboard_key(d, 27);
	assert_false(d->pview.open);

	gt_dashboard_key(d, 'x');
	assert_int_equal(d->ov.kind, GT_OVERLAY_SIGNAL);
	assert_int_equal(d->nsigset, 3);
	assert_string_equal(d->sigset_lines[0], "  10 (launcher)");
	assert_string_equal(d->sigset_lines[2], "  30 (worker)");
	gt_dashboard_key(d, 27);
	assert_int_equal(d->nsigset, 0);

	/* A tagged process gone from the next round loses its tag. */
	pl.count = 2;
	gt_dashboard_tags_prune(d);
	assert_int_equal(d->ntags, 2);
	gt_dashboard_key(d, 'U');
	assert_int_equal(d->ntags, 0);
	show(d, &pl, items, order, 0);
}

/* Two problems found at startup are both read: the theme's notice waits
 * for the settings file's to have its time instead of replacing it. */
static void test_notice_after(void **state)
{
	struct gt_dashboard *d = *state;

	gt_dashboard_notice(d, "settings: line 2: interval 'abc'");
	gt_copy_str(d->cfg.theme, sizeof(d->cfg.theme), "nosuch-theme");
	gt_dashboard_load_theme(d); /* not found: a notice of its own */
	assert_string_equal(d->notice, "settings: line 2: interval 'abc'");
	assert_non_null(strstr(d->notice_next, "nosuch-theme"));
	uint64_t until = d->notice_until;
	assert_false(gt_dashboard_notice_expire(d, until - 1));
	assert_true(gt_dashboard_notice_expire(d, until));
	assert_non_null(strstr(d->notice, "theme 'nosuch-theme' not found"));
	assert_string_equal(d->notice_next, "");
	assert_true(gt_dashboard_notice_expire(d, d->notice_until));
	assert_string_equal(d->notice, "");
	assert_false(gt_dashboard_notice_expire(d, d->notice_until + 1));
	/* With nothing showing, it shows at once. */
	gt_dashboard_notice_after(d, "alone");
	assert_string_equal(d->notice, "alone");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_notice_after, setup_dashboard,
	                                    teardown_dashboard),
	    cmocka_unit_test_setup_teardown(
	        test_help_from_table, setup_dashboard, teardown_dashboard),
	    cmocka_unit_test_setup_teardown(test_quit_keys, setup_dashboard,
	                                    teardown_dashboard),
	    cmocka_unit_test_setup_teardown(test_toggles, setup_dashboard,
	                                    teardown_dashboard),
	    cmocka_unit_test_setup_teardown(
	        test_sort_and_scroll, setup_dashboard, teardown_dashboard),
	    cmocka_unit_test_setup_teardown(
	        test_search_user_esc, setup_dashboard, teardown_dashboard),
	    cmocka_unit_test_setup_teardown(test_tags, setup_dashboard,
	                                    teardown_dashboard),
	    cmocka_unit_test_setup_teardown(test_overlays, setup_dashboard,
	                                    teardown_dashboard),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

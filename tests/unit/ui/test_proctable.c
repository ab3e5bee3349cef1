/* SPDX-License-Identifier: MIT */
/*
 * test_proctable.c - tests of the process table model in src/ui/proctable.c:
 * sorting by every column in both directions (N/A last), text, regex and
 * device filters, follow across re-sorts, row text (N/A, units, escaping,
 * sideways scroll, wide characters) and column layout. The signals are
 * test_proctable_signal.c's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/model.h"
#include "ui/proctable.h"
#include "ui/proctable_sort.h"

#define MIB (1024LL * 1024)
#define GIB (1024LL * MIB)

struct spec {
	int32_t pid;
	unsigned dev;
	const char *user;
	uint8_t type;
	int64_t gpu, mem, enc, dec, cpu, host; /* -1 = N/A */
	const char *container;
	const char *cmd; /* NULL: no command line */
};

static void set_val(struct gt_val *v, int64_t x)
{
	if (x >= 0)
		gt_val_set(v, x);
}

static struct gt_process *add(struct gt_proc_vec *vec, const struct spec *s)
{
	struct gt_process *p = gt_proc_vec_push(vec);
	assert_non_null(p);
	p->pid = s->pid;
	p->device_index = s->dev;
	p->type = s->type;
	p->host_known = s->user != NULL;
	gt_copy_str(p->user, sizeof(p->user), s->user ? s->user : "");
	gt_copy_str(p->container, sizeof(p->container),
	            s->container ? s->container : "");
	if (s->cmd) {
		p->cmdline = strdup(s->cmd);
		assert_non_null(p->cmdline);
		gt_copy_str(p->name, sizeof(p->name), s->cmd);
	}
	set_val(&p->f[GT_P_GPU], s->gpu);
	set_val(&p->f[GT_P_MEM], s->mem);
	set_val(&p->f[GT_P_ENC], s->enc);
	set_val(&p->f[GT_P_DEC], s->dec);
	set_val(&p->f[GT_P_CPU], s->cpu);
	set_val(&p->f[GT_P_HOST_MEM], s->host);
	return p;
}

/* The N/A process comes first, so "N/A last" cannot come from input order. */
static const struct spec fixture[] = {
    {400, 0, NULL, 0, -1, -1, -1, -1, -1, -1, NULL, NULL},
    {300, 1, "carol", GT_PROC_COMPUTE, 5000, 2 * GIB, 1000, 0, 15000, 1 * GIB,
     "web", "python train.py"},
    {100, 0, "alice", GT_PROC_GRAPHICS, 500, 512 * MIB, 3000, 2000, 500,
     3 * GIB, "db", "Xorg :0"},
    {200, 2, "Bob", GT_PROC_BOTH, 9950, 8 * GIB, 2000, 1000, 4000, 2 * GIB, "",
     "blender"},
};

static int setup(void **state)
{
	struct gt_proc_vec *vec = calloc(1, sizeof(*vec));
	if (!vec)
		return -1;
	for (size_t i = 0; i < sizeof(fixture) / sizeof(fixture[0]); i++)
		add(vec, &fixture[i]);
	*state = vec;
	return 0;
}

static int teardown(void **state)
{
	struct gt_proc_vec *vec = *state;
	gt_proc_vec_free(vec);
	free(vec);
	return 0;
}

/* Runs the view and checks the pids in display order. */
static void expect_pids(const struct gt_proc_vec *vec,
                        const struct gt_proctable_state *st,
                        const int32_t *want, size_t nwant, const char *what)
{
	size_t order[64];
	char err[128];
	size_t n = gt_proctable_view(vec->items, vec->count, st, order, err,
	                             sizeof(err));
	assert_string_equal(err, "");
	if (n != nwant)
		fail_msg("%s: %zu rows, want %zu", what, n, nwant);
	for (size_t i = 0; i < n; i++)
		if (vec->items[order[i]].pid != want[i])
			fail_msg("%s: row %zu is pid %d, want %d", what, i,
			         vec->items[order[i]].pid, want[i]);
}

static void test_sort_every_column(void **state)
{
	const struct gt_proc_vec *vec = *state;
	static const struct {
		enum gt_proctable_col col;
		int32_t natural[4], reversed[4];
	} cases[] = {
	    {GT_COL_PID, {100, 200, 300, 400}, {400, 300, 200, 100}},
	    {GT_COL_USER, {100, 200, 300, 400}, {300, 200, 100, 400}},
	    {GT_COL_DEV, {100, 400, 300, 200}, {200, 300, 100, 400}},
	    {GT_COL_TYPE, {300, 200, 100, 400}, {100, 200, 300, 400}},
	    {GT_COL_GPU, {200, 300, 100, 400}, {100, 300, 200, 400}},
	    {GT_COL_VRAM, {200, 300, 100, 400}, {100, 300, 200, 400}},
	    {GT_COL_ENC, {100, 200, 300, 400}, {300, 200, 100, 400}},
	    {GT_COL_DEC, {100, 200, 300, 400}, {300, 200, 100, 400}},
	    {GT_COL_CPU, {300, 200, 100, 400}, {100, 200, 300, 400}},
	    {GT_COL_HOST_MEM, {100, 200, 300, 400}, {300, 200, 100, 400}},
	    /* a host process ("-") sorts with the N/A ones, by pid */
	    {GT_COL_CONTAINER, {100, 300, 200, 400}, {300, 100, 200, 400}},
	    {GT_COL_COMMAND, {200, 300, 100, 400}, {100, 300, 200, 400}},
	};
	_Static_assert(sizeof(cases) / sizeof(cases[0]) == GT_COL__COUNT,
	               "one case per column");

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct gt_proctable_state st;
		gt_proctable_state_init(&st);
		st.sort_col = cases[i].col;
		expect_pids(vec, &st, cases[i].natural, 4,
		            gt_proctable_cols[cases[i].col].header);
		st.reverse = true;
		expect_pids(vec, &st, cases[i].reversed, 4,
		            gt_proctable_cols[cases[i].col].header);
	}
}

static void test_sort_ties_by_pid(void **state)
{
	(void)state;
	struct gt_proc_vec vec = {0};
	const struct spec s[] = {
	    {30, 0, "u", 1, 100, -1, -1, -1, -1, -1, "", "a"},
	    {10, 0, "u", 1, 100, -1, -1, -1, -1, -1, "", "b"},
	    {20, 0, "u", 1, 700, -1, -1, -1, -1, -1, "", "c"},
	    {5, 0, "u", 1, -1, -1, -1, -1, -1, -1, "", "d"},
	    {1, 0, "u", 1, -1, -1, -1, -1, -1, -1, "", "e"},
	};
	for (size_t i = 0; i < 5; i++)
		add(&vec, &s[i]);
	struct gt_proctable_state st;
	gt_proctable_state_init(&st);
	const int32_t down[] = {20, 10, 30, 1, 5};
	expect_pids(&vec, &st, down, 5, "gpu desc");
	st.reverse = true;
	const int32_t up[] = {10, 30, 20, 1, 5};
	expect_pids(&vec, &st, up, 5, "gpu asc");
	gt_proc_vec_free(&vec);
}

/* Many random rows: the GPU % and VRAM columns, both directions, are
 * ordered with N/A last; a check of the heapsort that does not depend on
 * chosen values (the other columns' keys are checked one by one above). */
static void test_sort_random_property(void **state)
{
	(void)state;
	struct gt_proc_vec vec = {0};
	unsigned seed = 12345;
	for (int i = 0; i < 300; i++) {
		seed = seed * 1103515245u + 12345u;
		struct gt_process *p = gt_proc_vec_push(&vec);
		assert_non_null(p);
		p->pid = (int32_t)(seed % 5000) + 1;
		p->device_index = (seed >> 8) % 4;
		if ((seed >> 12) % 5)
			gt_val_set(&p->f[GT_P_GPU], (seed >> 4) % 10001);
		if ((seed >> 14) % 3)
			gt_val_set(&p->f[GT_P_MEM], (int64_t)(seed % 97) * MIB);
	}
	size_t order[300];
	for (int col = GT_COL_GPU; col <= GT_COL_VRAM; col++) {
		for (int rev = 0; rev < 2; rev++) {
			struct gt_proctable_state st;
			gt_proctable_state_init(&st);
			st.sort_col = (enum gt_proctable_col)col;
			st.reverse = rev;
			size_t n = gt_proctable_view(vec.items, vec.count, &st,
			                             order, NULL, 0);
			assert_int_equal(n, 300);
			enum gt_proc_field f =
			    col == GT_COL_GPU ? GT_P_GPU : GT_P_MEM;
			bool seen_na = false;
			for (size_t i = 0; i < n; i++) {
				const struct gt_process *p =
				    &vec.items[order[i]];
				if (!gt_val_ok(&p->f[f])) {
					seen_na = true;
					continue;
				}
				assert_false(seen_na); /* a value after N/A */
				if (i == 0)
					continue;
				const struct gt_process *q =
				    &vec.items[order[i - 1]];
				if (rev)
					assert_true(q->f[f].v <= p->f[f].v);
				else
					assert_true(q->f[f].v >= p->f[f].v);
				if (q->f[f].v == p->f[f].v)
					assert_true(q->pid <= p->pid);
			}
		}
	}
	gt_proc_vec_free(&vec);
}

static void test_filter_substring(void **state)
{
	const struct gt_proc_vec *vec = *state;
	struct gt_proctable_state st;
	gt_proctable_state_init(&st);
	st.sort_col = GT_COL_PID;

	strcpy(st.filter, "ALICE"); /* user, any case */
	expect_pids(vec, &st, (const int32_t[]){100}, 1, "user");
	strcpy(st.filter, "train"); /* command line */
	expect_pids(vec, &st, (const int32_t[]){300}, 1, "cmdline");
	strcpy(st.filter, "DB"); /* container */
	expect_pids(vec, &st, (const int32_t[]){100}, 1, "container");
	strcpy(st.filter, "40"); /* pid in decimal */
	expect_pids(vec, &st, (const int32_t[]){400}, 1, "pid");
	strcpy(st.filter, "zzz");
	expect_pids(vec, &st, NULL, 0, "nothing");
	st.filter[0] = '\0';
	expect_pids(vec, &st, (const int32_t[]){100, 200, 300, 400}, 4,
	            "empty");
}

static void test_filter_regex(void **state)
{
	const struct gt_proc_vec *vec = *state;
	struct gt_proctable_state st;
	gt_proctable_state_init(&st);
	st.sort_col = GT_COL_PID;
	st.filter_is_regex = true;

	strcpy(st.filter, "^(xorg|blender)");
	expect_pids(vec, &st, (const int32_t[]){100, 200}, 2, "alternation");
	strcpy(st.filter, "^b");
	expect_pids(vec, &st, (const int32_t[]){200}, 1, "anchored, icase");
	strcpy(st.filter, "^[34]00$");
	expect_pids(vec, &st, (const int32_t[]){300, 400}, 2, "pid regex");
	/* as a substring "." is literal; as a regex it matches anything */
	strcpy(st.filter, "p.thon");
	expect_pids(vec, &st, (const int32_t[]){300}, 1, "dot");
	st.filter_is_regex = false;
	expect_pids(vec, &st, NULL, 0, "dot literal");
}

static void test_filter_invalid_regex(void **state)
{
	const struct gt_proc_vec *vec = *state;
	struct gt_proctable_state st;
	gt_proctable_state_init(&st);
	st.filter_is_regex = true;
	strcpy(st.filter, "(unclosed");
	size_t order[8];
	char err[128] = "x";
	size_t n = gt_proctable_view(vec->items, vec->count, &st, order, err,
	                             sizeof(err));
	assert_int_equal(n, 4); /* nothing filtered out */
	assert_non_null(strstr(err, "invalid regular expression: "));
	assert_true(strlen(err) > strlen("invalid regular expression: "));

	/* the device filter still applies */
	st.device_filter = 0;
	n = gt_proctable_view(vec->items, vec->count, &st, order, err,
	                      sizeof(err));
	assert_int_equal(n, 2);
	/* and a NULL err is allowed */
	n = gt_proctable_view(vec->items, vec->count, &st, order, NULL, 0);
	assert_int_equal(n, 2);
}

static void test_device_filter(void **state)
{
	const struct gt_proc_vec *vec = *state;
	struct gt_proctable_state st;
	gt_proctable_state_init(&st);
	st.sort_col = GT_COL_PID;
	st.device_filter = 0;
	expect_pids(vec, &st, (const int32_t[]){100, 400}, 2, "dev 0");
	st.device_filter = 2;
	expect_pids(vec, &st, (const int32_t[]){200}, 1, "dev 2");
	st.device_filter = 7;
	expect_pids(vec, &st, NULL, 0, "no such device");
	st.device_filter = 0;
	strcpy(st.filter, "xorg");
	expect_pids(vec, &st, (const int32_t[]){100}, 1, "dev 0 + text");
}

static void test_follow_across_sorts(void **state)
{
	const struct gt_proc_vec *vec = *state;
	struct gt_proctable_state st;
	size_t order[8];
	gt_proctable_state_init(&st);
	st.follow_pid = 300;

	const enum gt_proctable_col cols[] = {GT_COL_PID, GT_COL_GPU,
	                                      GT_COL_USER, GT_COL_CONTAINER};
	int rows_seen[2] = {-1, -1};
	for (size_t i = 0; i < 4; i++) {
		for (int rev = 0; rev < 2; rev++) {
			st.sort_col = cols[i];
			st.reverse = rev;
			size_t n = gt_proctable_view(vec->items, vec->count,
			                             &st, order, NULL, 0);
			assert_true(gt_proctable_update_selection(
			    &st, vec->items, order, n, 10));
			assert_int_equal(vec->items[order[st.selected]].pid,
			                 300);
			if (cols[i] == GT_COL_PID)
				rows_seen[rev] = st.selected;
		}
	}
	assert_int_equal(rows_seen[0], 2); /* 100 200 [300] 400 */
	assert_int_equal(rows_seen[1], 1); /* 400 [300] 200 100 */

	/* filtered out: reported, selection and follow kept */
	strcpy(st.filter, "alice");
	size_t n =
	    gt_proctable_view(vec->items, vec->count, &st, order, NULL, 0);
	assert_false(
	    gt_proctable_update_selection(&st, vec->items, order, n, 10));
	assert_int_equal(st.follow_pid, 300);
	assert_int_equal(n, 1);
	assert_int_equal(st.selected, 0); /* clamped into the shorter view */
	assert_int_equal(gt_proctable_find_pid(vec->items, order, n, 300), -1);
	assert_int_equal(gt_proctable_find_pid(vec->items, order, n, 100), 0);
}

static void test_selection_scroll(void **state)
{
	const struct gt_proc_vec *vec = *state;
	struct gt_proctable_state st;
	size_t order[8];
	gt_proctable_state_init(&st);
	st.sort_col = GT_COL_PID;
	size_t n =
	    gt_proctable_view(vec->items, vec->count, &st, order, NULL, 0);

	/* Moving by hand sets the row and clears the remembered pid, as
	 * the dashboard's keys do. */
	st.selected = 3; /* pid 400 */
	st.selected_pid = 0;
	assert_true(
	    gt_proctable_update_selection(&st, vec->items, order, n, 2));
	assert_int_equal(st.scroll_row, 2);
	st.selected = 0;
	st.selected_pid = 0;
	gt_proctable_update_selection(&st, vec->items, order, n, 2);
	assert_int_equal(st.scroll_row, 0);
	st.selected = 99; /* clamped to the last row */
	st.selected_pid = 0;
	gt_proctable_update_selection(&st, vec->items, order, n, 10);
	assert_int_equal(st.selected, 3);
	assert_int_equal(st.scroll_row, 0); /* all rows fit: no scroll */
	gt_proctable_update_selection(&st, vec->items, order, 0, 10);
	assert_int_equal(st.selected, -1);
}

/* Without following, the selected pid keeps the selection through a
 * re-sort, a filter that keeps it, one that hides it and is cleared, and
 * a device filter; a pid that is gone leaves the row index in place. */
static void test_selection_stays_on_pid(void **state)
{
	const struct gt_proc_vec *vec = *state;
	struct gt_proctable_state st;
	size_t order[8], n;
	gt_proctable_state_init(&st);
	st.sort_col = GT_COL_PID;

#define VIEW()                                                                 \
	(n = gt_proctable_view(vec->items, vec->count, &st, order, NULL, 0),   \
	 gt_proctable_update_selection(&st, vec->items, order, n, 10))
	VIEW();
	st.selected = 2; /* pid 300, chosen by hand */
	st.selected_pid = 0;
	VIEW();
	assert_int_equal(st.selected_pid, 300);
	st.reverse = true; /* 400 300 200 100 */
	VIEW();
	assert_int_equal(st.selected, 1);
	assert_int_equal(vec->items[order[st.selected]].pid, 300);
	st.sort_col = GT_COL_GPU;
	st.reverse = false;
	VIEW();
	assert_int_equal(vec->items[order[st.selected]].pid, 300);
	strcpy(st.filter, "carol");
	VIEW();
	assert_int_equal(n, 1);
	assert_int_equal(vec->items[order[st.selected]].pid, 300);
	strcpy(st.filter, "alice"); /* hides it */
	VIEW();
	assert_int_equal(n, 1);
	assert_int_equal(vec->items[order[st.selected]].pid, 100);
	st.filter[0] = '\0';
	VIEW();
	/* the row it moved to is now the remembered one */
	assert_int_equal(vec->items[order[st.selected]].pid, 100);
	st.selected_pid = 300;
	st.device_filter = 1; /* pid 300's device */
	VIEW();
	assert_int_equal(vec->items[order[st.selected]].pid, 300);
	st.device_filter = -1;
	VIEW();
	assert_int_equal(vec->items[order[st.selected]].pid, 300);
	/* an empty view keeps the pid for when rows come back */
	strcpy(st.filter, "nobody-has-this");
	VIEW();
	assert_int_equal(n, 0);
	assert_int_equal(st.selected_pid, 300);
	st.filter[0] = '\0';
	VIEW();
	assert_int_equal(vec->items[order[st.selected]].pid, 300);
#undef VIEW
}

/* htop's T: by start time, the oldest first, an unknown one last in
 * both directions; the column sort is untouched underneath. */
static void test_sort_by_start(void **state)
{
	struct gt_proc_vec *vec = *state;
	struct gt_proctable_state st;
	gt_proctable_state_init(&st);
	const uint64_t starts[] = {0, 50, 10, 30}; /* 400 300 100 200 */
	for (size_t i = 0; i < vec->count; i++) {
		vec->items[i].start = starts[i];
		vec->items[i].start_known = starts[i] != 0;
	}
	st.sort_start = true;
	expect_pids(vec, &st, (const int32_t[]){100, 200, 300, 400}, 4,
	            "oldest first");
	st.reverse = true;
	expect_pids(vec, &st, (const int32_t[]){300, 200, 100, 400}, 4,
	            "newest first");
	st.sort_start = false;
	st.reverse = false;
	st.sort_col = GT_COL_PID;
	expect_pids(vec, &st, (const int32_t[]){100, 200, 300, 400}, 4,
	            "back to PID");
}

/* Widths with only the given column shown. */
static void only(int *w, enum gt_proctable_col c, int width)
{
	for (int i = 0; i < GT_COL__COUNT; i++)
		w[i] = 0;
	w[c] = width;
}

static void test_format_row_values(void **state)
{
	const struct gt_proc_vec *vec = *state;
	int w[GT_COL__COUNT];
	char out[512];

	gt_proctable_widths(120, NULL, w);
	assert_int_equal(w[GT_COL_COMMAND], 39);
	gt_proctable_format_row(&vec->items[1], w, 0, out, sizeof(out));
	assert_string_equal(out,
	                    "    300 carol       1 C     50.0  2.0GiB  10.0"
	                    "   0.0   150   1.0GiB web          python train.py"
	                    "                        ");
	assert_int_equal(strlen(out), 120);

	gt_proctable_format_row(&vec->items[0], w, 0, out, sizeof(out));
	assert_string_equal(out,
	                    "    400 N/A         0 N/A    N/A     N/A   N/A"
	                    "   N/A   N/A      N/A N/A          N/A"
	                    "                                    ");
	assert_int_equal(strlen(out), 120);

	/* a host process shows "-" for its container; a missing passwd entry
	 * shows the uid */
	struct gt_process p = vec->items[3];
	p.user[0] = '\0';
	p.uid = 1234;
	only(w, GT_COL_USER, 6);
	w[GT_COL_CONTAINER] = 3;
	gt_proctable_format_row(&p, w, 0, out, sizeof(out));
	assert_string_equal(out, "1234   -  ");

	gt_proctable_format_header(NULL, out, sizeof(out));
	assert_int_equal(
	    strncmp(out,
	            "    PID USER      DEV TYPE GPU %    VRAM"
	            "   ENC   DEC CPU % HOST MEM CONTAINER    COMMAND",
	            87),
	    0);
	assert_int_equal(strlen(out), 120);
}

static void test_format_units(void **state)
{
	(void)state;
	static const struct {
		int64_t bytes;
		const char *want;
	} mem[] = {
	    {0, "0MiB"},           {1000, "<1MiB"},
	    {512 * MIB, "512MiB"}, {1023 * MIB, "1023MiB"},
	    {2 * GIB, "2.0GiB"},   {GIB + GIB / 2, "1.5GiB"},
	    {150 * GIB, "150GiB"}, {2048 * GIB, "2.0TiB"},
	};
	static const struct {
		int64_t cp;
		const char *want;
	} pct[] = {
	    {0, "0.0"},    {4550, "45.5"}, {9990, "99.9"},
	    {9999, "100"}, {12345, "123"}, {999900, "9999"},
	};
	struct gt_process p;
	memset(&p, 0, sizeof(p));
	int w[GT_COL__COUNT];
	char out[64], want[64];

	for (size_t i = 0; i < sizeof(mem) / sizeof(mem[0]); i++) {
		gt_val_set(&p.f[GT_P_MEM], mem[i].bytes);
		only(w, GT_COL_VRAM, 7);
		gt_proctable_format_row(&p, w, 0, out, sizeof(out));
		snprintf(want, sizeof(want), "%7s", mem[i].want);
		assert_string_equal(out, want);
	}
	for (size_t i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
		gt_val_set(&p.f[GT_P_CPU], pct[i].cp);
		only(w, GT_COL_CPU, 5);
		gt_proctable_format_row(&p, w, 0, out, sizeof(out));
		snprintf(want, sizeof(want), "%5s", pct[i].want);
		assert_string_equal(out, want);
	}
	/* a number too wide for its column is never shown cut */
	gt_val_set(&p.f[GT_P_CPU], 12345600);
	gt_proctable_format_row(&p, w, 0, out, sizeof(out));
	assert_string_equal(out, "+++++");
}

static void assert_no_control(const char *s)
{
	for (const unsigned char *u = (const unsigned char *)s; *u; u++)
		if (*u < 0x20 || *u == 0x7f)
			fail_msg("raw control byte 0x%02x in \"%s\"", *u, s);
	assert_null(strstr(s, "\xc2\x9b")); /* C1 CSI as UTF-8 */
}

static void test_format_escapes(void **state)
{
	(void)state;
	struct gt_proc_vec vec = {0};
	const struct spec s = {
	    42,
	    0,
	    "ev\x1bil",
	    1,
	    0,
	    0,
	    0,
	    0,
	    0,
	    0,
	    "c\x07t",
	    "evil\x1b]0;pwned\x07\nnext \xc2\x9b"
	    "2J a\xe2\x80\xae"
	    "b",
	};
	struct gt_process *p = add(&vec, &s);
	int w[GT_COL__COUNT];
	char out[512];

	gt_proctable_widths(200, NULL, w);
	gt_proctable_format_row(p, w, 0, out, sizeof(out));
	assert_no_control(out);
	assert_non_null(strstr(out, "evil\\e]0;pwned\\x07\\nnext \\u009b2J "
	                            "a\\u202eb "));
	assert_non_null(strstr(out, "ev\\eil"));
	assert_non_null(strstr(out, "c\\x07t"));
	assert_int_equal(strlen(out), 200);

	/* name only (no command line) is escaped too */
	free(p->cmdline);
	p->cmdline = NULL;
	gt_copy_str(p->name, sizeof(p->name), "n\x1b[31m");
	only(w, GT_COL_COMMAND, 10);
	gt_proctable_format_row(p, w, 0, out, sizeof(out));
	assert_string_equal(out, "n\\e[31m   ");
	gt_proc_vec_free(&vec);
}

static void test_format_hscroll(void **state)
{
	(void)state;
	struct gt_process p;
	memset(&p, 0, sizeof(p));
	int w[GT_COL__COUNT];
	char out[64];
	char cmd[] = "abcdefghij";
	p.cmdline = cmd;
	only(w, GT_COL_COMMAND, 5);

	gt_proctable_format_row(&p, w, 0, out, sizeof(out));
	assert_string_equal(out, "abcde");
	gt_proctable_format_row(&p, w, 3, out, sizeof(out));
	assert_string_equal(out, "defgh");
	gt_proctable_format_row(&p, w, 8, out, sizeof(out));
	assert_string_equal(out, "ij   ");
	gt_proctable_format_row(&p, w, 100, out, sizeof(out));
	assert_string_equal(out, "     ");
	gt_proctable_format_row(&p, w, -4, out, sizeof(out));
	assert_string_equal(out, "abcde");

	/* scrolling counts the cells of escapes, not the raw bytes */
	char esc[] = "\x1bXYZ";
	p.cmdline = esc;
	gt_proctable_format_row(&p, w, 1, out, sizeof(out));
	assert_string_equal(out, "eXYZ ");

	/* only COMMAND scrolls */
	gt_copy_str(p.user, sizeof(p.user), "abcdef");
	p.host_known = true;
	p.cmdline = cmd;
	w[GT_COL_USER] = 4;
	gt_proctable_format_row(&p, w, 2, out, sizeof(out));
	assert_string_equal(out, "abcd cdefg");
}

static void test_format_wide_and_long(void **state)
{
	(void)state;
	struct gt_process p;
	memset(&p, 0, sizeof(p));
	int w[GT_COL__COUNT];
	char out[128];
	char cjk[] = "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e"; /* 3 wide chars */
	p.cmdline = cjk;
	only(w, GT_COL_COMMAND, 5);

	gt_proctable_format_row(&p, w, 0, out, sizeof(out));
	assert_string_equal(out, "\xe6\x97\xa5\xe6\x9c\xac "); /* 2+2+pad */
	gt_proctable_format_row(&p, w, 1, out, sizeof(out));
	assert_string_equal(out, " \xe6\x9c\xac\xe8\xaa\x9e"); /* half+2+2 */

	/* far into a long command line (chunked escaping) */
	char *big = malloc(5001);
	assert_non_null(big);
	for (int i = 0; i < 5000; i++)
		big[i] = (char)('a' + i % 26);
	big[5000] = '\0';
	big[4000] = '\x1b';
	p.cmdline = big;
	only(w, GT_COL_COMMAND, 6);
	gt_proctable_format_row(&p, w, 3998, out, sizeof(out));
	/* 3998 % 26 = 20 -> 'u', 3999 -> 'v', ESC as "\e", 4001 -> 'x' */
	assert_string_equal(out, "uv\\exy");
	free(big);

	/* a short buffer: cut between whole characters, NUL-terminated */
	p.cmdline = cjk;
	char small[5];
	gt_proctable_format_row(&p, w, 0, small, sizeof(small));
	assert_string_equal(small, "\xe6\x97\xa5");
}

static void test_widths_layout(void **state)
{
	(void)state;
	int w[GT_COL__COUNT];

	for (int total = 20; total <= 250; total++) {
		gt_proctable_widths(total, NULL, w);
		int sum = 0, shown = 0;
		for (int c = 0; c < GT_COL__COUNT; c++) {
			if (w[c] > 0) {
				sum += w[c];
				shown++;
			}
		}
		assert_int_equal(sum + shown - 1, total);
		assert_true(w[GT_COL_COMMAND] >= 12);
		assert_true(w[GT_COL_PID] > 0);
		/* header clicks land on the column drawn there */
		for (int c = 0; c < GT_COL__COUNT; c++) {
			int x = gt_proctable_col_x(w, (enum gt_proctable_col)c);
			if (w[c] <= 0) {
				assert_int_equal(x, -1);
				continue;
			}
			assert_int_equal(gt_proctable_col_at(w, x), c);
			assert_int_equal(gt_proctable_col_at(w, x + w[c] - 1),
			                 c);
			if (x + w[c] < total)
				assert_int_equal(
				    gt_proctable_col_at(w, x + w[c]), -1);
		}
	}
	/* narrow: the least important columns go first */
	gt_proctable_widths(60, NULL, w);
	assert_int_equal(w[GT_COL_CONTAINER], 0);
	assert_int_equal(w[GT_COL_TYPE], 0);
	assert_true(w[GT_COL_GPU] > 0);

	bool shown[GT_COL__COUNT];
	for (int c = 0; c < GT_COL__COUNT; c++)
		shown[c] = c == GT_COL_PID || c == GT_COL_COMMAND;
	gt_proctable_widths(50, shown, w);
	assert_int_equal(w[GT_COL_PID], 7);
	assert_int_equal(w[GT_COL_COMMAND], 42);
	assert_int_equal(w[GT_COL_USER], 0);
	assert_int_equal(gt_proctable_col_at(w, 200), -1);
}

/* The keyed sort at the ends of int64_t, both ways: N/A last, ties by
 * pid then index. */
static void test_sort_keys_extremes(void **state)
{
	(void)state;
	struct gt_proctable_key k[5];
	const struct gt_proctable_key in[5] = {
	    {INT64_MIN, 7, true, 0}, {0, 3, false, 1}, {INT64_MAX, 9, true, 2},
	    {0, 2, true, 3},         {0, 2, true, 4},
	};
	const size_t asc[5] = {0, 3, 4, 2, 1}, desc[5] = {2, 3, 4, 0, 1};
	for (int d = 0; d < 2; d++) {
		memcpy(k, in, sizeof(k));
		gt_proctable_sort_keys(k, 5, d == 1);
		for (size_t i = 0; i < 5; i++) {
			assert_int_equal(k[i].idx, d ? desc[i] : asc[i]);
			assert_true(k[i].v == in[k[i].idx].v);
		}
	}
}

/* The keyed sort on many keys (runs of insertion sort and merges of odd
 * lengths), values from a few (many ties) to many, some N/A, both ways:
 * every neighbour pair in the total order, and the same keys as went in. */
static void test_sort_keys_many(void **state)
{
	(void)state;
	const size_t sizes[] = {2, 15, 16, 17, 33, 100, 511, 1000};
	unsigned seed = 7;
	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		size_t n = sizes[si];
		struct gt_proctable_key *k = calloc(n, sizeof(*k));
		int *seen = calloc(n, sizeof(*seen));
		assert_non_null(k);
		assert_non_null(seen);
		for (int d = 0; d < 2; d++) {
			int span = (int)si % 2 ? 5 : 100000;
			for (size_t i = 0; i < n; i++)
				k[i] = (struct gt_proctable_key){
				    rand_r(&seed) % span - span / 2,
				    rand_r(&seed) % 50, rand_r(&seed) % 7 != 0,
				    i};
			gt_proctable_sort_keys(k, n, d == 1);
			memset(seen, 0, n * sizeof(*seen));
			for (size_t i = 0; i < n; i++) {
				assert_true(k[i].idx < n);
				seen[k[i].idx]++;
			}
			for (size_t i = 0; i < n; i++)
				assert_int_equal(seen[i], 1);
			for (size_t i = 0; i + 1 < n; i++) {
				const struct gt_proctable_key *a = &k[i],
				                              *b = &k[i + 1];
				assert_true(a->ok || !b->ok);
				if (a->ok != b->ok)
					continue;
				if (a->ok && a->v != b->v) {
					assert_true(d ? a->v > b->v
					              : a->v < b->v);
					continue;
				}
				assert_true(
				    a->pid < b->pid ||
				    (a->pid == b->pid && a->idx < b->idx));
			}
		}
		free(k);
		free(seen);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_sort_every_column, setup,
	                                    teardown),
	    cmocka_unit_test(test_sort_ties_by_pid),
	    cmocka_unit_test(test_sort_random_property),
	    cmocka_unit_test(test_sort_keys_extremes),
	    cmocka_unit_test(test_sort_keys_many),
	    cmocka_unit_test_setup_teardown(test_filter_substring, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(test_filter_regex, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_filter_invalid_regex, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(test_device_filter, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(test_follow_across_sorts, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(test_selection_scroll, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(test_selection_stays_on_pid, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(test_sort_by_start, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(test_format_row_values, setup,
	                                    teardown),
	    cmocka_unit_test(test_format_units),
	    cmocka_unit_test(test_format_escapes),
	    cmocka_unit_test(test_format_hscroll),
	    cmocka_unit_test(test_format_wide_and_long),
	    cmocka_unit_test(test_widths_layout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

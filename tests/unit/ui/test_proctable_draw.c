/* SPDX-License-Identifier: MIT */
/*
 * test_proctable_draw.c - the sort marker of the process table
 * (src/ui/proctable_draw.c) and the room gt_proctable_widths_sorted
 * (src/ui/proctable.c) makes for it: a blank between the header and the
 * marker in every column and at every width, cells taken from COMMAND and
 * nowhere else, and the drawn header line with no glued marker.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <curses.h>
#include <locale.h>
#include <wchar.h>

#include "ui/proctable.h"
#include "ui/proctable_draw.h"
#include "support/curses_read.h"

static int total_of(const int *w)
{
	int sum = 0, n = 0;
	for (int c = 0; c < GT_COL__COUNT; c++)
		if (w[c] > 0) {
			sum += w[c];
			n++;
		}
	return n ? sum + n - 1 : 0;
}

static void test_header_cells(void **state)
{
	int w[GT_COL__COUNT] = {0};
	char cell[64];
	(void)state;

	/* Right-aligned columns keep their alignment; the marker is apart. */
	w[GT_COL_VRAM] = 7;
	assert_int_equal(
	    gt_proctable_sort_header(w, GT_COL_VRAM, true, cell, sizeof(cell)),
	    7);
	assert_string_equal(cell, " VRAM v");
	w[GT_COL_GPU] = 7;
	gt_proctable_sort_header(w, GT_COL_GPU, true, cell, sizeof(cell));
	assert_string_equal(cell, "GPU % v");
	w[GT_COL_GPU] = 6;
	gt_proctable_sort_header(w, GT_COL_GPU, false, cell, sizeof(cell));
	assert_string_equal(cell, "GPU% ^");
	w[GT_COL_GPU] = 5;
	gt_proctable_sort_header(w, GT_COL_GPU, true, cell, sizeof(cell));
	assert_string_equal(cell, "GPU v");
	/* Left-aligned: padded after the marker. */
	w[GT_COL_USER] = 9;
	gt_proctable_sort_header(w, GT_COL_USER, true, cell, sizeof(cell));
	assert_string_equal(cell, "USER v   ");
	w[GT_COL_HOST_MEM] = 10;
	gt_proctable_sort_header(w, GT_COL_HOST_MEM, true, cell, sizeof(cell));
	assert_string_equal(cell, "HOST MEM v");
	w[GT_COL_HOST_MEM] = 8;
	gt_proctable_sort_header(w, GT_COL_HOST_MEM, true, cell, sizeof(cell));
	assert_string_equal(cell, "HOSTME v");
	/* Too narrow for a letter: the marker alone, right-aligned. */
	w[GT_COL_DEV] = 3;
	gt_proctable_sort_header(w, GT_COL_DEV, true, cell, sizeof(cell));
	assert_string_equal(cell, "D v");
	w[GT_COL_DEV] = 2;
	gt_proctable_sort_header(w, GT_COL_DEV, true, cell, sizeof(cell));
	assert_string_equal(cell, " v");
	w[GT_COL_DEV] = 1;
	gt_proctable_sort_header(w, GT_COL_DEV, false, cell, sizeof(cell));
	assert_string_equal(cell, "^");
	/* Every column, every width: as wide as the column, and a letter is
	 * never next to the marker. */
	for (int c = 0; c < GT_COL__COUNT; c++)
		for (int width = 1; width < 16; width++) {
			w[c] = width;
			int n = gt_proctable_sort_header(
			    w, (enum gt_proctable_col)c, true, cell,
			    sizeof(cell));
			assert_int_equal(n, width);
			assert_int_equal((int)strlen(cell), width);
			char *m = strchr(cell, 'v');
			assert_non_null(m);
			if (m > cell)
				assert_int_equal(m[-1], ' ');
		}
}

static void test_widths_make_room(void **state)
{
	int plain[GT_COL__COUNT], w[GT_COL__COUNT];
	(void)state;

	for (int total = 40; total <= 300; total += 7)
		for (int s = 0; s < GT_COL__COUNT; s++) {
			gt_proctable_widths(total, NULL, plain);
			gt_proctable_widths_sorted(total, NULL,
			                           (enum gt_proctable_col)s, w);
			/* The same columns, the same row width; only the sort
			 * column and COMMAND differ. */
			assert_int_equal(total_of(w), total_of(plain));
			for (int c = 0; c < GT_COL_COMMAND; c++) {
				assert_int_equal(w[c] > 0, plain[c] > 0);
				if (c != s)
					assert_int_equal(w[c], plain[c]);
			}
			int given = s == GT_COL_COMMAND ? 0 : w[s] - plain[s];
			assert_true(given >= 0);
			assert_int_equal(w[GT_COL_COMMAND],
			                 plain[GT_COL_COMMAND] - given);
			if (given)
				assert_true(w[GT_COL_COMMAND] >=
				            GT_PROCTABLE_COMMAND_FLOOR);
		}
	/* Sorted by GPU % at 80 and 200 columns: the whole header. */
	gt_proctable_widths_sorted(80, NULL, GT_COL_GPU, w);
	assert_int_equal(w[GT_COL_GPU], 7);
	gt_proctable_widths_sorted(200, NULL, GT_COL_HOST_MEM, w);
	assert_int_equal(w[GT_COL_HOST_MEM], 10);
	/* Without COMMAND: from the row's unused end. */
	bool shown[GT_COL__COUNT];
	for (int c = 0; c < GT_COL__COUNT; c++)
		shown[c] = c == GT_COL_PID || c == GT_COL_DEV;
	gt_proctable_widths_sorted(40, shown, GT_COL_DEV, w);
	assert_int_equal(w[GT_COL_DEV], 5);
	assert_int_equal(w[GT_COL_COMMAND], 0);
	gt_proctable_widths_sorted(12, shown, GT_COL_DEV, w);
	assert_int_equal(w[GT_COL_DEV], 4); /* "DEV" -> "DE v" */
	/* Out of range: the plain widths. */
	gt_proctable_widths(120, NULL, plain);
	gt_proctable_widths_sorted(120, NULL, GT_COL__COUNT, w);
	assert_memory_equal(w, plain, sizeof(w));
}

static void read_row(WINDOW *p, int row, int n, char *out, size_t len)
{
	curses_read_row(p, row, 0, n, out, len);
}

static void test_drawn_header(void **state)
{
	struct gt_proctable_state st;
	struct gt_palette pal;
	int w[GT_COL__COUNT];
	char row[1024];
	(void)state;

	setlocale(LC_ALL, "C.UTF-8");
	FILE *io = fopen("/dev/null", "r+");
	assert_non_null(io);
	SCREEN *scr = newterm("xterm", io, io);
	assert_non_null(scr);
	set_term(scr);
	memset(&pal, 0, sizeof(pal));
	gt_proctable_state_init(&st);
	WINDOW *p = newpad(2, 120);
	struct gt_rect r = {0, 0, 120, 1};
	for (int c = 0; c < GT_COL_COMMAND; c++) {
		st.sort_col = (enum gt_proctable_col)c;
		gt_proctable_widths_sorted(120, NULL, st.sort_col, w);
		struct gt_table_data td = {.st = &st, .pal = &pal, .widths = w};
		werase(p);
		gt_proctable_draw(p, r, &td);
		read_row(p, 0, 120, row, sizeof(row));
		int x = gt_proctable_col_x(w, st.sort_col);
		char cell[64];
		gt_proctable_sort_header(
		    w, st.sort_col, gt_proctable_cols[st.sort_col].desc_first,
		    cell, sizeof(cell));
		assert_memory_equal(row + x, cell, strlen(cell));
		/* The whole header: no blanks dropped at 120 columns. */
		assert_non_null(
		    strstr(cell, gt_proctable_cols[st.sort_col].header));
		assert_null(strstr(row, "%v"));
		assert_null(strstr(row, "Mv"));
	}
	delwin(p);
	endwin();
	delscreen(scr);
	fclose(io);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_header_cells),
	    cmocka_unit_test(test_widths_make_room),
	    cmocka_unit_test(test_drawn_header),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * test_proctree.c - the process tree (src/ui/proctree.c): children under
 * their parents in the view's order, a process whose parent holds no GPU
 * under its nearest ancestor that does (reparenting), orphans at the
 * root, a parent pid reused by a younger process not taken for the
 * parent, a pid on two GPUs, cycles from inconsistent data, the glyphs
 * (UTF-8 and ASCII) and the roll-ups of GPU % and VRAM.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ui/proctree.h"

#define MIB (1024ll * 1024)

/* A process with its ancestry (0-terminated), start time (0: unknown),
 * GPU cpercent and VRAM (-1: N/A). */
static void proc(struct gt_process *p, int32_t pid, const int32_t *anc,
                 uint64_t start, int64_t gpu, int64_t mem)
{
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	for (int k = 0; anc && anc[k] && k < GT_PROC_ANCESTRY; k++)
		p->ancestry[k] = anc[k];
	p->start_known = start != 0;
	p->start = start;
	if (gpu >= 0)
		gt_val_set(&p->f[GT_P_GPU], gpu);
	else
		gt_val_fail(&p->f[GT_P_GPU], GT_WHY_UNSUPPORTED_DEVICE, 0);
	if (mem >= 0)
		gt_val_set(&p->f[GT_P_MEM], mem);
	else
		gt_val_fail(&p->f[GT_P_MEM], GT_WHY_PERMISSION, 0);
}

static void expect(const struct gt_process *procs, const size_t *order,
                   const struct gt_proctree_row *rows, size_t n,
                   const int32_t *pids, const int *depths)
{
	for (size_t r = 0; r < n; r++) {
		if (procs[order[r]].pid != pids[r] ||
		    rows[r].depth != depths[r])
			fail_msg("row %zu: pid %d depth %d, want %d depth %d",
			         r, procs[order[r]].pid, rows[r].depth, pids[r],
			         depths[r]);
	}
}

static void identity(size_t *order, size_t n)
{
	for (size_t i = 0; i < n; i++)
		order[i] = i;
}

/* 100 -> {101 -> 102, 103}; the view order (103 before 101) is kept
 * among siblings; roll-ups sum the subtree. */
static void test_parents_and_rollups(void **state)
{
	struct gt_process p[4];
	struct gt_proctree_row rows[4];
	size_t order[4];
	(void)state;

	proc(&p[0], 103, (const int32_t[]){100, 0}, 30, 500, 1 * MIB);
	proc(&p[1], 100, (const int32_t[]){1, 0}, 10, 100, 2 * MIB);
	proc(&p[2], 102, (const int32_t[]){101, 0}, 40, 2000, 4 * MIB);
	proc(&p[3], 101, (const int32_t[]){100, 0}, 20, -1, -1);
	identity(order, 4);
	assert_int_equal(gt_proctree_build(p, order, 4, rows, false), 0);
	expect(p, order, rows, 4, (const int32_t[]){100, 103, 101, 102},
	       (const int[]){0, 1, 1, 2});
	assert_string_equal(rows[0].prefix, "");
	assert_string_equal(rows[1].prefix, "\u251c\u2500 ");
	assert_string_equal(rows[2].prefix, "\u2514\u2500 ");
	assert_string_equal(rows[3].prefix, "   \u2514\u2500 ");
	assert_int_equal(rows[3].prefix_cells, 6);
	assert_int_equal(rows[0].gpu.v, 2600);
	assert_int_equal(rows[0].mem.v, 7 * MIB);
	/* 101's own values are N/A: its total is its child's */
	assert_true(gt_val_ok(&rows[2].gpu));
	assert_int_equal(rows[2].gpu.v, 2000);
	assert_int_equal(rows[1].gpu.v, 500); /* a leaf: its own */

	/* The same tree in ASCII. */
	identity(order, 4);
	assert_int_equal(gt_proctree_build(p, order, 4, rows, true), 0);
	assert_string_equal(rows[1].prefix, "+- ");
	assert_string_equal(rows[2].prefix, "`- ");
	assert_string_equal(rows[3].prefix, "   `- ");
}

/* Reparenting: 200's parent (50, a shell) holds no GPU; the collector's
 * ancestry goes on to 10, which does. Orphans: no ancestor in the list,
 * or no ancestry at all. */
static void test_nearest_ancestor_and_orphans(void **state)
{
	struct gt_process p[4];
	struct gt_proctree_row rows[4];
	size_t order[4];
	(void)state;

	proc(&p[0], 200, (const int32_t[]){50, 40, 10, 1, 0}, 50, 100, 0);
	proc(&p[1], 300, (const int32_t[]){60, 1, 0}, 60, 100, 0);
	proc(&p[2], 10, (const int32_t[]){1, 0}, 5, 100, 0);
	proc(&p[3], 400, NULL, 0, 100, 0);
	identity(order, 4);
	assert_int_equal(gt_proctree_build(p, order, 4, rows, false), 0);
	expect(p, order, rows, 4, (const int32_t[]){300, 10, 200, 400},
	       (const int[]){0, 0, 1, 0});
	assert_int_equal(rows[2].parent, 1);
	assert_int_equal(rows[1].gpu.v, 200);
}

/* A pid reused: 500's parent was pid 600, which exited; a newer process
 * (started after 500) now has pid 600 and a GPU. It is not 500's parent:
 * 500 goes to the next ancestor in the list (700), or the root. */
static void test_pid_reuse(void **state)
{
	struct gt_process p[3];
	struct gt_proctree_row rows[3];
	size_t order[3];
	(void)state;

	proc(&p[0], 500, (const int32_t[]){600, 700, 0}, 100, 100, 0);
	proc(&p[1], 600, (const int32_t[]){1, 0}, 900, 100, 0);
	proc(&p[2], 700, (const int32_t[]){1, 0}, 50, 100, 0);
	identity(order, 3);
	assert_int_equal(gt_proctree_build(p, order, 3, rows, false), 0);
	expect(p, order, rows, 3, (const int32_t[]){600, 700, 500},
	       (const int[]){0, 0, 1});
	assert_int_equal(rows[2].parent, 1);

	/* Without 700 in the list: a root. */
	identity(order, 2);
	assert_int_equal(gt_proctree_build(p, order, 2, rows, false), 0);
	expect(p, order, rows, 2, (const int32_t[]){500, 600},
	       (const int[]){0, 0});
	/* Unknown start times: the pid is taken at its word. */
	p[1].start_known = false;
	identity(order, 2);
	assert_int_equal(gt_proctree_build(p, order, 2, rows, false), 0);
	expect(p, order, rows, 2, (const int32_t[]){600, 500},
	       (const int[]){0, 1});
}

/* A process on two GPUs has two rows: its child hangs under the first.
 * Two rows naming each other as parent (inconsistent data) both end up
 * at the root, and the build ends. */
static void test_two_rows_and_cycles(void **state)
{
	struct gt_process p[5];
	struct gt_proctree_row rows[5];
	size_t order[5];
	(void)state;

	proc(&p[0], 800, (const int32_t[]){1, 0}, 10, 100, 1 * MIB);
	proc(&p[1], 800, (const int32_t[]){1, 0}, 10, 100, 1 * MIB);
	proc(&p[2], 801, (const int32_t[]){800, 0}, 20, 100, 1 * MIB);
	proc(&p[3], 900, (const int32_t[]){901, 0}, 0, 100, 0);
	proc(&p[4], 901, (const int32_t[]){900, 0}, 0, 100, 0);
	identity(order, 5);
	assert_int_equal(gt_proctree_build(p, order, 5, rows, false), 0);
	expect(p, order, rows, 5, (const int32_t[]){800, 801, 800, 900, 901},
	       (const int[]){0, 1, 0, 0, 0});
	assert_int_equal(rows[0].mem.v, 2 * MIB);
	assert_int_equal(rows[2].mem.v, 1 * MIB);
}

/* Deeper than the glyphs go: drawn at GT_PROCTREE_LEVELS, never past
 * the prefix buffer. */
static void test_deep_chain(void **state)
{
	enum { N = 20 };
	struct gt_process p[N];
	struct gt_proctree_row rows[N];
	size_t order[N];
	(void)state;

	for (int i = 0; i < N; i++)
		proc(&p[i], 1000 + i, (const int32_t[]){i ? 999 + i : 1, 0},
		     (uint64_t)(10 + i), 100, 0);
	identity(order, N);
	assert_int_equal(gt_proctree_build(p, order, N, rows, false), 0);
	assert_int_equal(rows[N - 1].depth, N - 1);
	assert_int_equal(rows[N - 1].prefix_cells, 3 * GT_PROCTREE_LEVELS);
	assert_int_equal(rows[0].gpu.v, 100 * N);
	assert_int_equal(gt_proctree_build(p, order, 0, rows, false), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parents_and_rollups),
	    cmocka_unit_test(test_nearest_ancestor_and_orphans),
	    cmocka_unit_test(test_pid_reuse),
	    cmocka_unit_test(test_two_rows_and_cycles),
	    cmocka_unit_test(test_deep_chain),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

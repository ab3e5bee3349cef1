/* SPDX-License-Identifier: MIT */
/*
 * proctree.c - the process table's tree (see proctree.h): parents found
 * through each process's ancestry, children in the view's order, a
 * depth-first walk for the rows and their glyphs, then the roll-ups from
 * the leaves up.
 */
#include "ui/proctree.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct pid_pos {
	int32_t pid;
	int pos; /* first position in the view with that pid */
};

static int compare_pid_pos(const void *a, const void *b)
{
	const struct pid_pos *x = a, *y = b;
	if (x->pid != y->pid)
		return (x->pid > y->pid) - (x->pid < y->pid);
	return (x->pos > y->pos) - (x->pos < y->pos);
}

/* The first position of pid in the view, -1 when it has none. */
static int find_pid(const struct pid_pos *index, size_t n, int32_t pid)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (index[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && index[lo].pid == pid ? index[lo].pos : -1;
}

/* The position of the parent of the process at position i, or -1. */
static int parent_of(const struct gt_process *procs, const size_t *order,
                     const struct pid_pos *index, size_t n, size_t i)
{
	const struct gt_process *p = &procs[order[i]];
	for (int k = 0; k < GT_PROC_ANCESTRY && p->ancestry[k] > 0; k++) {
		int j = find_pid(index, n, p->ancestry[k]);
		if (j < 0 || (size_t)j == i)
			continue;
		const struct gt_process *q = &procs[order[j]];
		/* A "parent" younger than its child holds a reused pid. */
		if (p->start_known && q->start_known && q->start > p->start)
			continue;
		return j;
	}
	return -1;
}

static void add_val(struct gt_val *sum, const struct gt_val *v)
{
	if (!gt_val_ok(v))
		return;
	if (gt_val_ok(sum))
		sum->v += v->v;
	else
		gt_val_set(sum, v->v);
}

static void glyphs(struct gt_proctree_row *row, const bool *last, int depth,
                   bool ascii)
{
	static const char *const utf8[] = {"\u2502  ", "   ", "\u251c\u2500 ",
	                                   "\u2514\u2500 "};
	static const char *const plain[] = {"|  ", "   ", "+- ", "`- "};
	const char *const *g = ascii ? plain : utf8;
	int shown = depth > GT_PROCTREE_LEVELS ? GT_PROCTREE_LEVELS : depth;
	size_t k = 0;

	row->prefix[0] = '\0';
	row->prefix_cells = 0;
	for (int l = 1; l <= shown; l++) {
		const char *s =
		    l < shown ? g[last[l] ? 1 : 0] : g[last[l] ? 3 : 2];
		size_t len = strlen(s);
		if (k + len + 1 > sizeof(row->prefix))
			break;
		memcpy(row->prefix + k, s, len + 1);
		k += len;
		row->prefix_cells += 3;
	}
}

struct tree {
	int *parent, *first, *next, *out, *stack;
	bool *placed;
};

static void tree_free(struct tree *t)
{
	free(t->parent);
	free(t->first);
	free(t->next);
	free(t->out);
	free(t->stack);
	free(t->placed);
}

/* Depth-first from each root (then from rows left unplaced: a cycle),
 * children in view order; fills t->out with view positions and rows. */
static void walk(struct tree *t, size_t n, struct gt_proctree_row *rows,
                 bool ascii)
{
	bool last[GT_PROCTREE_LEVELS + 1];
	size_t m = 0;
	int *pos_row = t->stack + n; /* view position -> tree row */

	for (size_t start = 0; start < n; start++) {
		if (t->placed[start] || t->parent[start] >= 0)
			continue; /* not a root */
		int sp = 0;
		t->stack[sp++] = (int)start;
		while (sp > 0) {
			int v = t->stack[--sp];
			if (t->placed[v])
				continue;
			t->placed[v] = true;
			int prow = t->parent[v] >= 0 && t->placed[t->parent[v]]
			               ? pos_row[t->parent[v]]
			               : -1;
			int depth = prow >= 0 ? rows[prow].depth + 1 : 0;
			pos_row[v] = (int)m;
			rows[m].depth = depth;
			rows[m].parent = prow;
			t->out[m++] = v;
			/* The lists run in reverse view order: popped in
			 * view order. */
			for (int c = t->first[v]; c >= 0; c = t->next[c])
				t->stack[sp++] = c;
		}
	}
	/* A cycle: its rows had parents but no root led to them. */
	for (size_t v = 0; v < n; v++) {
		if (t->placed[v])
			continue;
		t->parent[v] = -1;
		t->first[v] = -1;
		t->placed[v] = true;
		pos_row[v] = (int)m;
		rows[m].depth = 0;
		rows[m].parent = -1;
		t->out[m++] = (int)v;
	}
	/* Glyphs: a row is its parent's last child when no later row has
	 * the same parent before a row shallower than it. */
	for (size_t r = 0; r < m; r++) {
		int d = rows[r].depth;
		for (int l = 1; l <= d && l <= GT_PROCTREE_LEVELS; l++) {
			/* the ancestor of r at depth l */
			size_t a = r;
			while (rows[a].depth > l)
				a = (size_t)rows[a].parent;
			bool more = false;
			for (size_t s = a + 1; s < m && rows[s].depth >= l; s++)
				if (rows[s].depth == l &&
				    rows[s].parent == rows[a].parent) {
					more = true;
					break;
				}
			last[l] = !more;
		}
		glyphs(&rows[r], last, d, ascii);
	}
}

int gt_proctree_build(const struct gt_process *procs, size_t *order,
                      size_t count, struct gt_proctree_row *rows, bool ascii)
{
	struct tree t = {0};
	struct pid_pos *index = NULL;
	size_t n = count;

	for (size_t r = 0; r < n; r++) {
		memset(&rows[r], 0, sizeof(rows[r]));
		rows[r].parent = -1;
		rows[r].gpu = procs[order[r]].f[GT_P_GPU];
		rows[r].mem = procs[order[r]].f[GT_P_MEM];
	}
	if (n == 0)
		return 0;
	if (n > INT32_MAX / 2)
		return -1;
	index = malloc(n * sizeof(*index));
	t.parent = malloc(n * sizeof(int));
	t.first = malloc(n * sizeof(int));
	t.next = malloc(n * sizeof(int));
	t.out = malloc(n * sizeof(int));
	t.stack = malloc(3 * n * sizeof(int));
	t.placed = calloc(n, sizeof(bool));
	if (!index || !t.parent || !t.first || !t.next || !t.out || !t.stack ||
	    !t.placed) {
		free(index);
		tree_free(&t);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		index[i] = (struct pid_pos){procs[order[i]].pid, (int)i};
	qsort(index, n, sizeof(*index), compare_pid_pos);
	/* Children lists in reverse view order (prepended in view order). */
	for (size_t i = 0; i < n; i++) {
		t.parent[i] = parent_of(procs, order, index, n, i);
		t.first[i] = -1;
		t.next[i] = -1;
	}
	for (size_t i = 0; i < n; i++) {
		int pa = t.parent[i];
		if (pa >= 0) {
			t.next[i] = t.first[pa];
			t.first[pa] = (int)i;
		}
	}
	free(index);
	walk(&t, n, rows, ascii);

	/* Rows and order in tree order; roll-ups from the deepest up. */
	size_t *old = malloc(n * sizeof(*old));
	if (!old) {
		tree_free(&t);
		return -1;
	}
	memcpy(old, order, n * sizeof(*old));
	for (size_t r = 0; r < n; r++) {
		order[r] = old[t.out[r]];
		rows[r].gpu = procs[order[r]].f[GT_P_GPU];
		rows[r].mem = procs[order[r]].f[GT_P_MEM];
	}
	for (size_t r = n; r-- > 0;) {
		int pa = rows[r].parent;
		if (pa >= 0) {
			add_val(&rows[pa].gpu, &rows[r].gpu);
			add_val(&rows[pa].mem, &rows[r].mem);
		}
	}
	free(old);
	tree_free(&t);
	return 0;
}

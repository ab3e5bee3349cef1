/* SPDX-License-Identifier: MIT */
/*
 * panels_mig.c - the MIG instances of a GPU in MIG mode as rows inside its
 * panel: one row per instance (profile, ids, a memory bar with used/total,
 * its processes, and what the driver does not give and why), taken from
 * the top of the panel's graph area. The MIG badge is panels.c's.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ui/graph.h"
#include "ui/paint.h"
#include "ui/panels_priv.h"

struct gt_rect gt_panels_mig_take(struct gt_panel_parts *pp, size_t n)
{
	struct gt_rect none = {0, 0, 0, 0};
	struct gt_rect *g = &pp->graph;

	if (n == 0 || g->h <= 0 || g->w <= 0)
		return none;
	int k = n > (size_t)g->h ? g->h : (int)n;
	struct gt_rect rows = {g->x, g->y, g->w, k};
	if (g->h - k < GT_LAYOUT_GRAPH_MIN) {
		/* Too little left for a graph: the rows get it all. */
		rows.h = g->h;
		*g = none;
		return rows;
	}
	g->y += k;
	g->h -= k;
	return rows;
}

void gt_panels_mig_text(const struct gt_mig_instance *m,
                        struct gt_panels_mig_text *out)
{
	const char *prof =
	    m->profile.why == GT_WHY_OK ? m->profile.s : "profile N/A";
	if (m->gi != GT_MIG_NONE && m->ci != GT_MIG_NONE)
		snprintf(out->head, sizeof(out->head), "MIG %.16s GI %u/CI %u",
		         prof, (unsigned)m->gi, (unsigned)m->ci);
	else
		snprintf(out->head, sizeof(out->head), "MIG %.16s #%u", prof,
		         m->index);
	gt_panels_fmt_mem(out->mem, sizeof(out->mem), &m->f[GT_M_MEM_USED],
	                  &m->f[GT_M_MEM_TOTAL]);
	const struct gt_val *pc = &m->f[GT_M_PROCESSES];
	if (gt_val_ok(pc))
		snprintf(out->procs, sizeof(out->procs), "%lld proc%s",
		         (long long)pc->v, pc->v == 1 ? "" : "s");
	else
		snprintf(out->procs, sizeof(out->procs), "procs N/A");
	out->na[0] = '\0';
	const struct gt_val *u = &m->f[GT_M_UTIL_GPU];
	char why[80];
	if (gt_val_ok(u))
		snprintf(out->na, sizeof(out->na), "GPU %lld%%",
		         (long long)(u->v / 100));
	else
		snprintf(out->na, sizeof(out->na), "GPU%% N/A: %s",
		         gt_why_text(u, NULL, why, sizeof(why)));
}

/* One row: head, bar, memory text, processes, then what is N/A (cut
 * where the row ends). */
static void draw_row(WINDOW *w, struct gt_rect r, int row,
                     const struct gt_panel_data *d,
                     const struct gt_mig_instance *m)
{
	struct gt_panels_mig_text t;
	const int *role = d->pal->role;
	char bar[256];

	gt_panels_mig_text(m, &t);
	int x = gt_paint_put(w, r, row, 0, role[GT_ROLE_TITLE], t.head);
	int mw = gt_paint_cells(t.mem), pw = gt_paint_cells(t.procs);
	int bw = r.w - x - 1 - mw - 1 - pw - 2;
	if (bw > 24)
		bw = 24;
	const struct gt_val *used = &m->f[GT_M_MEM_USED],
	                    *total = &m->f[GT_M_MEM_TOTAL];
	double frac = gt_val_ok(used) && gt_val_ok(total) && total->v > 0
	                  ? (double)used->v / (double)total->v
	                  : NAN;
	x += 1;
	if (bw >= 4) {
		gt_graph_meter(isnan(frac) ? 0 : frac, bw, d->glyphs, bar,
		               sizeof(bar));
		x += gt_paint_put(w, r, row, x,
		                  isnan(frac) ? role[GT_ROLE_INACTIVE]
		                              : role[GT_ROLE_HI],
		                  bar) +
		     1;
	}
	x += gt_paint_put(w, r, row, x, role[GT_ROLE_MAIN], t.mem) + 2;
	x += gt_paint_put(w, r, row, x, role[GT_ROLE_MAIN], t.procs) + 2;
	if (x < r.w)
		gt_paint_put(w, r, row, x, role[GT_ROLE_INACTIVE], t.na);
}

const struct gt_mig_instance *
gt_panels_mig_of(const struct gt_mig_instance *mig, size_t n, unsigned dev,
                 size_t *count)
{
	size_t i = 0, k = 0;
	while (i < n && mig[i].device_index != dev)
		i++;
	while (i + k < n && mig[i + k].device_index == dev)
		k++;
	*count = k;
	return k ? &mig[i] : NULL;
}

void gt_panels_mig_draw(WINDOW *w, struct gt_rect r,
                        const struct gt_panel_data *d)
{
	if (r.w <= 0 || r.h <= 0 || !d->mig)
		return;
	size_t shown = d->nmig;
	if (shown > (size_t)r.h)
		shown = (size_t)r.h - 1; /* the last row counts the rest */
	for (size_t i = 0; i < shown; i++)
		draw_row(w, r, (int)i, d, &d->mig[i]);
	if (shown < d->nmig) {
		char more[48];
		snprintf(more, sizeof(more), "+%zu MIG instances (enlarge)",
		         d->nmig - shown);
		gt_paint_put(w, r, (int)shown, 0,
		             d->pal->role[GT_ROLE_INACTIVE], more);
	}
}

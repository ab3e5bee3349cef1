/* SPDX-License-Identifier: MIT */
/*
 * procview.c - the process detail view (see procview.h): its lines are
 * made first (facts, one line per GPU, the graphs as text, the command
 * line wrapped, the reasons), then drawn in a box from the scroll
 * position.
 */
#include "ui/procview.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/text.h"
#include "ui/graph.h"
#include "ui/overlay.h"
#include "ui/paint.h"
#include "ui/panels.h"

enum { MAXLINES = 160, LINELEN = 600, GRAPH_H = 4, LABEL_W = 12 };

struct lines {
	char text[MAXLINES][LINELEN];
	int role[MAXLINES];
	int n;
};

static void add(struct lines *l, int role, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void add(struct lines *l, int role, const char *fmt, ...)
{
	va_list ap;
	if (l->n == MAXLINES)
		return;
	va_start(ap, fmt);
	vsnprintf(l->text[l->n], LINELEN, fmt, ap);
	va_end(ap);
	l->role[l->n++] = role;
}

void gt_procview_open(struct gt_procview *pv, const struct gt_process *p)
{
	memset(pv, 0, sizeof(*pv));
	pv->open = true;
	pv->pid = p->pid;
	pv->start_known = p->start_known;
	pv->start = p->start;
	gt_copy_str(pv->name, sizeof(pv->name), p->name);
}

bool gt_procview_key(struct gt_procview *pv, int ch)
{
	if (!pv->open)
		return false;
	if (ch == KEY_RESIZE || ch == KEY_MOUSE)
		return false;
	if (ch == 27 || ch == 'q' || ch == '\n' || ch == '\r' ||
	    ch == KEY_ENTER || ch == KEY_LEFT)
		pv->open = false;
	else if (ch == KEY_DOWN || ch == 'j')
		pv->scroll++;
	else if (ch == KEY_UP || ch == 'k')
		pv->scroll--;
	else if (ch == KEY_NPAGE || ch == ' ')
		pv->scroll += 10;
	else if (ch == KEY_PPAGE)
		pv->scroll -= 10;
	else if (ch == KEY_HOME || ch == 'g')
		pv->scroll = 0;
	else if (ch == KEY_END || ch == 'G')
		pv->scroll = pv->scroll_max;
	if (pv->scroll > pv->scroll_max)
		pv->scroll = pv->scroll_max;
	if (pv->scroll < 0)
		pv->scroll = 0;
	return true;
}

static bool same(const struct gt_procview *pv, const struct gt_process *p)
{
	return p->pid == pv->pid &&
	       !(p->start_known && pv->start_known && p->start != pv->start);
}

static void fmt_age(char *buf, size_t len, int64_t s)
{
	if (s < 0)
		s = 0;
	if (s >= 86400)
		snprintf(buf, len, "%" PRId64 "d%02" PRId64 "h", s / 86400,
		         s % 86400 / 3600);
	else if (s >= 3600)
		snprintf(buf, len, "%" PRId64 "h%02" PRId64 "m", s / 3600,
		         s % 3600 / 60);
	else
		snprintf(buf, len, "%" PRId64 "m%02" PRId64 "s", s / 60,
		         s % 60);
}

/* "2.0 GiB" (gt_panels_fmt_mem's used part), "N/A". */
static void fmt_bytes(char *buf, size_t len, const struct gt_val *v)
{
	gt_panels_fmt_mem(buf, len, v, v);
	char *slash = gt_val_ok(v) ? strchr(buf, '/') : NULL;
	if (slash) {
		const char *unit = strchr(slash, ' ');
		memmove(slash, unit ? unit : "", strlen(unit ? unit : "") + 1);
	}
}

static void fmt_pct(char *buf, size_t len, const struct gt_val *v)
{
	if (gt_val_ok(v))
		snprintf(buf, len, "%.1f%%", (double)v->v / 100.0);
	else
		snprintf(buf, len, "N/A");
}

/* Who, when, CPU and host memory. */
static void facts(struct lines *l, const struct gt_process *p,
                  const struct gt_procview_ctx *ctx, uint64_t first_ns,
                  size_t nsamples)
{
	const int *role = ctx->pal->role;
	char user[GT_USER_LEN * 4], cont[GT_CONTAINER_LEN * 4], when[64],
	    age[32], cpu[16], host[32];

	gt_text_escape(user, sizeof(user), p->user, strlen(p->user));
	gt_text_escape(cont, sizeof(cont), p->container, strlen(p->container));
	if (p->host_known)
		add(l, role[GT_ROLE_MAIN], "User %s (uid %" PRIu32 ")   %s%s",
		    user[0] ? user : "N/A", p->uid,
		    cont[0] ? "Container " : "Not in a container", cont);
	else
		add(l, role[GT_ROLE_INACTIVE],
		    "User, container, command line: N/A (not in the proc "
		    "tree: another PID namespace, or gone; --procfs shows "
		    "the host's)");
	if (p->start_unix > 0) {
		time_t t = (time_t)p->start_unix;
		struct tm tm;
		localtime_r(&t, &tm);
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
		fmt_age(age, sizeof(age), (int64_t)(ctx->now - t));
		add(l, role[GT_ROLE_MAIN], "Started %s, %s ago", when, age);
	} else {
		add(l, role[GT_ROLE_INACTIVE],
		    "Started: N/A (no start time "
		    "in the proc tree)");
	}
	fmt_pct(cpu, sizeof(cpu), &p->f[GT_P_CPU]);
	fmt_bytes(host, sizeof(host), &p->f[GT_P_HOST_MEM]);
	fmt_age(age, sizeof(age),
	        (int64_t)((ctx->now_ns - first_ns) / 1000000000ull));
	add(l, role[GT_ROLE_MAIN],
	    "CPU %s of one core   host memory %s   history: %zu samples "
	    "over %s",
	    cpu, host, nsamples, nsamples ? age : "0s");
}

/* One line per GPU the process uses. */
static void gpus(struct lines *l, const struct gt_procview *pv,
                 const struct gt_procview_ctx *ctx)
{
	const int *role = ctx->pal->role;
	const struct gt_proclist *pl = ctx->procs;
	static const char *const types[] = {"?", "compute", "graphics",
	                                    "compute+graphics"};

	add(l, role[GT_ROLE_TITLE], "GPUs");
	for (size_t i = 0; pl && i < pl->count; i++) {
		const struct gt_process *p = &pl->items[i];
		char name[GT_STR_NAME * 4] = "", vram[32], gpu[16], enc[16],
		                        dec[16], mig[80] = "";
		if (!same(pv, p))
			continue;
		if (ctx->devs && p->device_index < ctx->devs->count) {
			const char *n = ctx->devs->items[p->device_index].name;
			gt_text_escape(name, sizeof(name), n, strlen(n));
		}
		fmt_bytes(vram, sizeof(vram), &p->f[GT_P_MEM]);
		fmt_pct(gpu, sizeof(gpu), &p->f[GT_P_GPU]);
		fmt_pct(enc, sizeof(enc), &p->f[GT_P_ENC]);
		fmt_pct(dec, sizeof(dec), &p->f[GT_P_DEC]);
		if (p->mig_gi != GT_MIG_NONE) {
			const struct gt_mig_instance *m = gt_mig_instance_find(
			    pl->mig, pl->mig_count, p->device_index, p->mig_gi,
			    p->mig_ci);
			snprintf(mig, sizeof(mig), "  MIG %s GI %" PRIu32,
			         m && m->profile.why == GT_WHY_OK ? m->profile.s
			                                          : "?",
			         p->mig_gi);
		}
		add(l, role[GT_ROLE_MAIN],
		    "  GPU %u %.60s  %s  VRAM %s  GPU %s  ENC %s  DEC %s%s",
		    p->device_index, name, types[p->type & 3], vram, gpu, enc,
		    dec, mig);
	}
}

/* A graph of one series: its label and scale beside the first row. */
static void graph(struct lines *l, const struct gt_procview_ctx *ctx,
                  const char *label, const double *v, size_t n, double hi,
                  const char *hi_text, int width)
{
	char buf[GRAPH_H * LINELEN];
	int w = width - LABEL_W - 1;

	if (w < 4)
		return;
	if (w > (LINELEN - LABEL_W - 8) / 3) /* 3 bytes a glyph at most */
		w = (LINELEN - LABEL_W - 8) / 3;
	gt_graph_render(v, n, 0, hi, w, GRAPH_H, ctx->glyphs, buf, sizeof(buf));
	char *row = buf;
	for (int r = 0; r < GRAPH_H && row; r++) {
		char *nl = strchr(row, '\n');
		if (nl)
			*nl = '\0';
		add(l, ctx->pal->role[GT_ROLE_GRAPH_TEXT], "%-*s %s", LABEL_W,
		    r == 0   ? label
		    : r == 1 ? hi_text
		             : "",
		    row);
		row = nl ? nl + 1 : NULL;
	}
}

static void graphs(struct lines *l, const struct gt_prochist_sample *s,
                   size_t n, const struct gt_procview_ctx *ctx, int width)
{
	double gpu[GT_PROCHIST_SAMPLES], mem[GT_PROCHIST_SAMPLES],
	    cpu[GT_PROCHIST_SAMPLES];
	char top[32];
	double gmax = 0, cmax = 0;

	for (size_t k = 0; k < n; k++) {
		gpu[k] = s[k].gpu_ok ? s[k].gpu / 100.0 : NAN;
		mem[k] = s[k].mem_ok ? (double)s[k].mem / 1073741824.0 : NAN;
		cpu[k] = s[k].cpu_ok ? s[k].cpu / 100.0 : NAN;
		if (s[k].gpu_ok && gpu[k] > gmax)
			gmax = gpu[k];
		if (s[k].cpu_ok && cpu[k] > cmax)
			cmax = cpu[k];
	}
	add(l, ctx->pal->role[GT_ROLE_TITLE],
	    "History (one sample a process round, newest right)");
	double hi = gmax > 100 ? gt_graph_autoscale(gpu, n) : 100;
	snprintf(top, sizeof(top), "max %.0f%%", hi);
	graph(l, ctx, "GPU %", gpu, n, hi, top, width);
	hi = gt_graph_autoscale(mem, n);
	snprintf(top, sizeof(top), "max %g GiB", hi);
	graph(l, ctx, "VRAM", mem, n, hi, top, width);
	hi = cmax > 100 ? gt_graph_autoscale(cpu, n) : 100;
	snprintf(top, sizeof(top), "max %.0f%%", hi);
	graph(l, ctx, "CPU %", cpu, n, hi, top, width);
}

/* The command line, escaped, in lines of at most width bytes cut
 * between whole UTF-8 characters. */
static void command(struct lines *l, const struct gt_process *p,
                    const struct gt_procview_ctx *ctx, int width)
{
	static char esc[16384];
	const char *src = p->cmdline && p->cmdline[0] ? p->cmdline : p->name;
	size_t len = gt_text_escape(esc, sizeof(esc), src, strlen(src));

	add(l, ctx->pal->role[GT_ROLE_TITLE], "Command line");
	if (len >= sizeof(esc))
		len = strlen(esc);
	if (width > LINELEN - 8)
		width = LINELEN - 8;
	for (size_t i = 0; i < len && width > 4;) {
		size_t k = len - i < (size_t)(width - 2) ? len - i
		                                         : (size_t)(width - 2);
		while (k > 1 && i + k < len &&
		       ((unsigned char)esc[i + k] & 0xc0) == 0x80)
			k--;
		add(l, ctx->pal->role[GT_ROLE_MAIN], "  %.*s", (int)k, esc + i);
		i += k;
	}
}

/* Why each N/A value of its rows is missing. */
static void reasons(struct lines *l, const struct gt_procview *pv,
                    const struct gt_procview_ctx *ctx)
{
	static const char *const names[GT_P__COUNT] = {
	    "GPU %", "VRAM", "ENC", "DEC", "CPU %", "host memory", "GTT"};
	const struct gt_proclist *pl = ctx->procs;
	char why[200];
	bool head = false;

	for (size_t i = 0; pl && i < pl->count; i++) {
		const struct gt_process *p = &pl->items[i];
		if (!same(pv, p))
			continue;
		for (int f = 0; f < GT_P__COUNT; f++) {
			if (gt_val_ok(&p->f[f]) || f == GT_P_GTT)
				continue;
			if (!head)
				add(l, ctx->pal->role[GT_ROLE_TITLE],
				    "Why N/A");
			head = true;
			gt_why_text(&p->f[f], NULL, why, sizeof(why));
			add(l, ctx->pal->role[GT_ROLE_INACTIVE],
			    "  GPU %u %s: %s", p->device_index, names[f], why);
		}
	}
}

void gt_procview_draw(WINDOW *w, struct gt_rect r, struct gt_procview *pv,
                      const struct gt_procview_ctx *ctx)
{
	static struct lines l; /* 96 KB: not on the stack; UI thread only */
	static struct gt_prochist_sample s[GT_PROCHIST_SAMPLES];
	const struct gt_process *p = NULL;
	char title[GT_COMM_LEN * 4 + 64], name[GT_COMM_LEN * 4];
	uint64_t first_ns = ctx->now_ns;
	size_t n = 0;

	if (!pv->open || r.w < 20 || r.h < 5)
		return;
	for (size_t i = 0; ctx->procs && i < ctx->procs->count && !p; i++)
		if (same(pv, &ctx->procs->items[i]))
			p = &ctx->procs->items[i];
	if (ctx->hist)
		n = gt_prochist_get(ctx->hist, pv->pid, pv->start_known,
		                    pv->start, s, GT_PROCHIST_SAMPLES,
		                    &first_ns);
	l.n = 0;
	int inner = r.w - 4;
	if (p) {
		facts(&l, p, ctx, first_ns, n);
		add(&l, ctx->pal->role[GT_ROLE_MAIN], "%s", "");
		gpus(&l, pv, ctx);
	} else {
		add(&l, ctx->pal->role[GT_ROLE_WARN],
		    "It is no longer listed: it has exited, or left the "
		    "GPU (the history below is what was seen)");
	}
	add(&l, ctx->pal->role[GT_ROLE_MAIN], "%s", "");
	graphs(&l, s, n, ctx, inner);
	if (p) {
		add(&l, ctx->pal->role[GT_ROLE_MAIN], "%s", "");
		command(&l, p, ctx, inner);
		reasons(&l, pv, ctx);
	}
	gt_text_escape(name, sizeof(name), pv->name, strlen(pv->name));
	snprintf(title, sizeof(title), " Process %" PRId32 "  %s  (Esc back) ",
	         pv->pid, name);
	/* The box over the whole area given. */
	wattrset(w, ctx->pal->role[GT_ROLE_MAIN]);
	for (int y = r.y; y < r.y + r.h; y++)
		mvwhline(w, y, r.x, ' ', r.w);
	struct gt_rect box =
	    gt_overlay_box(w, r.w, r.h, ctx->pal->role[GT_ROLE_MAIN], title);
	pv->scroll_max = l.n - box.h > 0 ? l.n - box.h : 0;
	if (pv->scroll > pv->scroll_max)
		pv->scroll = pv->scroll_max;
	for (int i = 0; i < box.h && pv->scroll + i < l.n; i++)
		gt_paint_put(w, box, i, 0, l.role[pv->scroll + i],
		             l.text[pv->scroll + i]);
}

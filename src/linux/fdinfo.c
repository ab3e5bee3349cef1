/* SPDX-License-Identifier: MIT */
/*
 * fdinfo.c - owns the DRM fdinfo scanner (see fdinfo.h): which pids hold
 * DRM file descriptors, the per-round re-read of their fdinfo, the
 * de-duplication of clients, the rates from counter deltas, and the
 * per-device answers. The text format is fdinfo_parse.c's business.
 *
 * Cost model: a walk of <proc>/PID/fd runs only on the first update, every
 * FDI_RESCAN_EVERY-th one, when forced, and after a known descriptor was
 * closed while its process lives on (it may have opened another). The walk
 * keeps a cache (fdinfo_scan.h): a process whose fd directory did not
 * change costs one fstatat, a changed one a listing and a readlink per
 * descriptor number it did not have open before, and every process has
 * all its links read again once every few walks (the slow pass);
 * what that leaves stale, and for how long, is in fdinfo_scan.h. The other
 * rounds open, read and parse only the fdinfo files of the descriptors
 * found then, into one reused buffer and one reused sample: no allocation
 * in a steady state.
 *
 * Definitions (what the numbers mean):
 *  - A client is one open DRM file, keyed by (drm-pdev, drm-client-id);
 *    amdgpu 5.14-5.18 printed no client id, so its pasid (one per open
 *    file) stands in. Dup'ed, inherited or passed descriptors of one client
 *    count once, for the lowest pid holding it - but device brokers (pid 1,
 *    systemd-logind, seatd, which keep a copy of the compositor's card fd)
 *    only when no one else holds it. Pids are read in that order and the
 *    first reader of a round owns the client.
 *  - A client's share of an engine over a round is delta(busy ns) /
 *    (delta(wall ns) x capacity), or for xe delta(drm-cycles) /
 *    (delta(drm-total-cycles) x capacity), each clamped to 100 %. Engines
 *    of one class add up (amdgpu per-ring lines), clamped to 100 %.
 *  - A client's first round, a counter that went backwards (the previous
 *    value is kept until it catches up, as the standard says), and an xe
 *    total-cycles that did not move leave the client's rates PENDING for
 *    that round. amdgpu 5.14-5.18 printed kernel-computed percentages:
 *    those are valid at once.
 *  - GT_P_GPU and the device busy % are the busiest of the non-video
 *    classes (render, compute, copy, other); GT_P_ENC and GT_P_DEC the
 *    busiest engine that can do that work (see fdinfo_parse.h).
 *  - Process type: COMPUTE when compute engines have run and render/other
 *    engines never did, BOTH when both have, GRAPHICS otherwise (also for a
 *    client that has run nothing yet).
 */
#include "linux/fdinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linux/fdinfo_parse.h"
#include "linux/fdinfo_scan.h"

#define FDI_RESCAN_EVERY 5u
#define FDI_BUF_INITIAL  4096u
/* fdinfo files are about 2 KiB; anything past this is not DRM text. */
#define FDI_READ_MAX (256u * 1024)
#define FDI_FULL     10000u /* 100 % in cpercent */

/* What a client's id is, so ids of different kinds never collide. */
enum fdi_idspace {
	FDI_ID_CLIENT, /* drm-client-id */
	FDI_ID_PASID,  /* amdgpu's pasid, before drm-client-id existed */
	FDI_ID_FD,     /* neither: the (pid, fd) itself */
};

struct fdi_key {
	uint64_t pdev;
	uint64_t id;
	bool has_pdev;
	uint8_t idspace; /* enum fdi_idspace */
};

struct fdi_client {
	struct fdi_key key;
	int32_t pid;      /* owner: the first pid that showed it this round */
	uint64_t round;   /* last round it was read in */
	uint64_t read_ns; /* when: the baseline of the next wall-clock delta */
	bool amdgpu;      /* prints only engines that ran: absent = idle */
	bool rates_ok;    /* util[] holds this round's shares */
	uint16_t present; /* classes with a usable counter in the last read */
	uint16_t used;    /* classes whose counter was ever non-zero */
	uint16_t util[GT_FDI__CLASS_COUNT]; /* cpercent per class */
	bool any_mem;
	bool has_mem[GT_FDI__MEM_COUNT];
	uint64_t mem[GT_FDI__MEM_COUNT];
	int32_t bad_key[GT_FDI__MEM_COUNT]; /* gt_fdinfo_sample_bad_key */
	uint32_t n_engines;
	struct gt_fdinfo_engine eng[GT_FDINFO_MAX_ENGINES]; /* baselines */
};

/* One client of a device, for grouping by pid. */
struct fdi_ord {
	int32_t pid;
	uint32_t idx;
};

struct gt_fdinfo {
	char *root;
	struct gt_fdinfo_scan scan; /* owned: the pids to read each round */
	struct gt_fdinfo_scan_cache *cache; /* owned: what the walks saw */
	struct fdi_client *clients; /* owned; those read in the last round */
	size_t nclients, capclients;
	size_t hint; /* where the next lookup starts: rounds repeat orders */
	char *buf;   /* owned scratch for one fdinfo file */
	size_t bufcap;
	struct fdi_ord *ord; /* owned scratch for gt_fdinfo_processes() */
	size_t ordcap;
	struct gt_fdinfo_sample sample; /* scratch, off the stack */
	uint64_t round;
	uint64_t walks; /* /proc walks made: the bench tells rounds apart */
	unsigned since_scan;
	bool rescan;            /* scan at the next update */
	size_t unreadable_read; /* pids whose fdinfo was refused this round */
};

/* ---- helpers ------------------------------------------------------------ */

static uint64_t fdi_mul_sat(uint64_t a, uint64_t b)
{
	return (b != 0 && a > UINT64_MAX / b) ? UINT64_MAX : a * b;
}

/* num/den in cpercent, rounded, at most 100 %. den > 0. */
static uint32_t fdi_ratio(uint64_t num, uint64_t den)
{
	if (num >= den)
		return FDI_FULL;
	if (num <= (UINT64_MAX - den / 2) / FDI_FULL)
		return (uint32_t)((num * FDI_FULL + den / 2) / den);
	return (uint32_t)((double)num * FDI_FULL / (double)den + 0.5);
}

static uint32_t fdi_add_clamp(uint32_t a, uint32_t b)
{
	return a + b > FDI_FULL ? FDI_FULL : a + b;
}

/* ---- clients and rates ----------------------------------------------------
 */

static bool fdi_key_eq(const struct fdi_key *a, const struct fdi_key *b)
{
	return a->id == b->id && a->idspace == b->idspace &&
	       a->has_pdev == b->has_pdev &&
	       (!a->has_pdev || a->pdev == b->pdev);
}

static struct fdi_client *fdi_find(struct gt_fdinfo *fi,
                                   const struct fdi_key *key)
{
	size_t n = fi->nclients;
	for (size_t k = 0; k < n; k++) {
		size_t i = fi->hint + k;
		if (i >= n)
			i -= n;
		if (fdi_key_eq(&fi->clients[i].key, key)) {
			fi->hint = i + 1 < n ? i + 1 : 0;
			return &fi->clients[i];
		}
	}
	return NULL;
}

static struct fdi_client *fdi_add(struct gt_fdinfo *fi,
                                  const struct fdi_key *key)
{
	if (fi->nclients == fi->capclients) {
		size_t ncap = fi->capclients ? fi->capclients * 2 : 8;
		struct fdi_client *nc =
		    realloc(fi->clients, ncap * sizeof(*nc));
		if (!nc)
			return NULL;
		fi->clients = nc;
		fi->capclients = ncap;
	}
	struct fdi_client *c = &fi->clients[fi->nclients++];
	memset(c, 0, sizeof(*c));
	c->key = *key;
	return c;
}

static const struct gt_fdinfo_engine *
fdi_engine_find(const struct fdi_client *c, const char *name)
{
	for (uint32_t i = 0; i < c->n_engines; i++)
		if (strcmp(c->eng[i].name, name) == 0)
			return &c->eng[i];
	return NULL;
}

/* The share of one counter engine e over the round against its baseline b
 * (NULL: none). Adjusts the next baseline nx. false = no rate this round. */
static bool fdi_engine_share(const struct fdi_client *c,
                             const struct gt_fdinfo_engine *e,
                             const struct gt_fdinfo_engine *b,
                             struct gt_fdinfo_engine *nx, uint64_t elapsed,
                             uint32_t *share)
{
	const uint8_t both = GT_FDI_HAVE_CYCLES | GT_FDI_HAVE_TOTAL;

	if (e->have & GT_FDI_HAVE_NS) {
		uint64_t prev;
		if (b && (b->have & GT_FDI_HAVE_NS))
			prev = b->ns;
		else if (c->amdgpu)
			prev = 0; /* it was idle, so not printed, last round */
		else
			return false;
		if (e->ns < prev) {
			nx->ns =
			    prev; /* keep it until the counter catches up */
			return false;
		}
		if (elapsed == 0)
			return false;
		*share =
		    fdi_ratio(e->ns - prev, fdi_mul_sat(elapsed, e->capacity));
		return true;
	}
	/* xe: busy cycles over the GPU timestamp, no wall clock involved. */
	if (!b || (b->have & both) != both)
		return false;
	if (e->total_cycles <= b->total_cycles)
		return false; /* no time passed, or the GPU clock was reset */
	if (e->cycles < b->cycles) {
		nx->cycles = b->cycles;
		return false;
	}
	*share = fdi_ratio(
	    e->cycles - b->cycles,
	    fdi_mul_sat(e->total_cycles - b->total_cycles, e->capacity));
	return true;
}

/* New counters of client c (first = just created): shares per class, the
 * next baselines, the class masks. */
static void fdi_rates(struct fdi_client *c, const struct gt_fdinfo_sample *s,
                      uint64_t now_ns, bool first)
{
	const uint8_t both = GT_FDI_HAVE_CYCLES | GT_FDI_HAVE_TOTAL;
	uint32_t sum[GT_FDI__CLASS_COUNT] = {0};
	struct gt_fdinfo_engine next[GT_FDINFO_MAX_ENGINES];
	uint64_t elapsed =
	    (!first && now_ns > c->read_ns) ? now_ns - c->read_ns : 0;
	uint16_t present = 0;
	bool ok = !first || s->legacy;

	memset(next, 0, sizeof(next));

	for (uint32_t i = 0; i < s->n_engines; i++) {
		const struct gt_fdinfo_engine *e = &s->engines[i];
		uint16_t bit = (uint16_t)GT_FDI_BIT(e->cls);
		uint32_t share = 0;

		next[i] = *e;
		if (e->have & GT_FDI_HAVE_PCT) {
			share = e->pct > FDI_FULL ? FDI_FULL : e->pct;
			if (e->pct)
				c->used |= bit;
		} else if ((e->have & GT_FDI_HAVE_NS) ||
		           (e->have & both) == both) {
			if (e->ns || e->cycles)
				c->used |= bit;
			const struct gt_fdinfo_engine *b =
			    first ? NULL : fdi_engine_find(c, e->name);
			if (first || !fdi_engine_share(c, e, b, &next[i],
			                               elapsed, &share))
				ok = false;
		} else {
			continue; /* cycles without a clock to divide by */
		}
		present |= bit;
		sum[e->cls] = fdi_add_clamp(sum[e->cls], share);
	}
	for (int k = 0; k < GT_FDI__CLASS_COUNT; k++)
		c->util[k] = (uint16_t)sum[k];
	c->rates_ok = ok;
	c->present = present;
	c->n_engines = s->n_engines;
	memcpy(c->eng, next, s->n_engines * sizeof(next[0]));
}

/* Takes the parsed fdinfo of (pid, fd) into its client. */
static void fdi_account(struct gt_fdinfo *fi, int32_t pid, int32_t fd,
                        uint64_t now_ns)
{
	const struct gt_fdinfo_sample *s = &fi->sample;
	struct fdi_key key = {s->pdev, 0, s->has_pdev, FDI_ID_CLIENT};

	if (s->has_client_id) {
		key.id = s->client_id;
	} else if (s->has_pasid) {
		key.idspace = FDI_ID_PASID;
		key.id = s->pasid;
	} else {
		key.idspace = FDI_ID_FD;
		key.id = (uint64_t)(uint32_t)pid << 32 | (uint32_t)fd;
	}
	struct fdi_client *c = fdi_find(fi, &key);
	if (c && c->round == fi->round)
		return; /* another descriptor of a client already counted */
	bool first = c == NULL;
	if (first && (c = fdi_add(fi, &key)) == NULL)
		return;
	c->amdgpu = strcmp(s->driver, "amdgpu") == 0;
	fdi_rates(c, s, now_ns, first);
	c->pid = pid;
	c->round = fi->round;
	c->read_ns = now_ns;
	c->any_mem = s->any_mem;
	for (int m = 0; m < GT_FDI__MEM_COUNT; m++) {
		c->has_mem[m] =
		    gt_fdinfo_sample_mem(s, (enum gt_fdinfo_mem)m, &c->mem[m]);
		c->bad_key[m] =
		    gt_fdinfo_sample_bad_key(s, (enum gt_fdinfo_mem)m);
	}
}

/* Reads path into fi->buf; the length, or -errno. A file longer than
 * FDI_READ_MAX is cut there. */
static ssize_t fdi_read_file(struct gt_fdinfo *fi, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	size_t len = 0;
	for (;;) {
		if (len == fi->bufcap) {
			if (fi->bufcap >= FDI_READ_MAX)
				break;
			size_t ncap = fi->bufcap * 2;
			char *nb = realloc(fi->buf, ncap);
			if (!nb) {
				close(fd);
				return -ENOMEM;
			}
			fi->buf = nb;
			fi->bufcap = ncap;
		}
		ssize_t r = read(fd, fi->buf + len, fi->bufcap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = errno;
			close(fd);
			return -err;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	return (ssize_t)len;
}

enum fdi_read_result {
	FDI_READ_OK,
	FDI_READ_GONE,    /* the descriptor or the process is gone */
	FDI_READ_NOT_DRM, /* the number now names another file */
	FDI_READ_DENIED,
	FDI_READ_ERROR, /* anything else: try again next round */
};

static enum fdi_read_result fdi_read_fd(struct gt_fdinfo *fi, int32_t pid,
                                        int32_t fd, uint64_t now_ns)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/%d/fdinfo/%d", fi->root,
	                 (int)pid, (int)fd);
	if (n < 0 || (size_t)n >= sizeof(path))
		return FDI_READ_GONE;
	ssize_t len = fdi_read_file(fi, path);
	if (len < 0) {
		int err = (int)-len;
		if (err == ENOENT || err == ESRCH)
			return FDI_READ_GONE;
		return gt_fdinfo_errno_denied(err) ? FDI_READ_DENIED
		                                   : FDI_READ_ERROR;
	}
	if (!gt_fdinfo_parse(fi->buf, (size_t)len, &fi->sample))
		return FDI_READ_NOT_DRM;
	fdi_account(fi, pid, fd, now_ns);
	return FDI_READ_OK;
}

/* ---- public ---------------------------------------------------------------
 */

struct gt_fdinfo *gt_fdinfo_new(const char *procfs_root)
{
	struct gt_fdinfo *fi = calloc(1, sizeof(*fi));
	if (!fi)
		return NULL;
	fi->root = strdup(procfs_root ? procfs_root : "/proc");
	fi->buf = malloc(FDI_BUF_INITIAL);
	fi->cache = gt_fdinfo_scan_cache_new();
	if (!fi->root || !fi->buf || !fi->cache) {
		gt_fdinfo_free(fi);
		return NULL;
	}
	fi->bufcap = FDI_BUF_INITIAL;
	return fi;
}

void gt_fdinfo_free(struct gt_fdinfo *fi)
{
	if (!fi)
		return;
	gt_fdinfo_scan_free(&fi->scan);
	gt_fdinfo_scan_cache_free(fi->cache);
	free(fi->clients);
	free(fi->ord);
	free(fi->buf);
	free(fi->root);
	free(fi);
}

void gt_fdinfo_update(struct gt_fdinfo *fi, uint64_t now_ns,
                      bool force_rediscover)
{
	if (!fi)
		return;
	fi->round++;
	if (force_rediscover || fi->rescan || fi->round == 1 ||
	    ++fi->since_scan >= FDI_RESCAN_EVERY) {
		struct gt_fdinfo_scan fresh;
		fi->since_scan = 0;
		fi->walks++;
		fi->rescan =
		    gt_fdinfo_scan_run(fi->root, fi->cache, &fresh) != 0;
		if (!fi->rescan) { /* on ENOMEM keep the old list, retry */
			gt_fdinfo_scan_free(&fi->scan);
			fi->scan = fresh;
		}
	}

	fi->unreadable_read = 0;
	size_t keep = 0;
	for (size_t i = 0; i < fi->scan.npids; i++) {
		struct gt_fdinfo_pid *p = &fi->scan.pids[i];
		bool denied = false, gone = false;
		uint32_t kept = 0;
		for (uint32_t j = 0; j < p->nfds; j++) {
			switch (fdi_read_fd(fi, p->pid, p->fds[j], now_ns)) {
			case FDI_READ_GONE:
				gone = true;
				continue;
			case FDI_READ_NOT_DRM:
				/* A reused number, or a DRM node without usage
				 * stats (nvidia-drm): forget it until the next
				 * walk, which brings it back (a reused number
				 * until the process's full pass): one read per
				 * walk. */
				continue;
			case FDI_READ_DENIED:
				denied = true;
				break;
			case FDI_READ_OK:
			case FDI_READ_ERROR:
				break;
			}
			p->fds[kept++] = p->fds[j];
		}
		/* Some descriptors closed while others live on: the process
		 * may have opened new ones. All gone: it exited. */
		if (gone && kept > 0)
			fi->rescan = true;
		if (denied)
			fi->unreadable_read++;
		p->nfds = kept;
		if (kept == 0) {
			free(p->fds);
			continue;
		}
		fi->scan.pids[keep++] = *p;
	}
	fi->scan.npids = keep;

	/* Clients not read this round are closed (or unreadable now). */
	size_t w = 0;
	for (size_t i = 0; i < fi->nclients; i++) {
		if (fi->clients[i].round != fi->round)
			continue;
		if (w != i)
			fi->clients[w] = fi->clients[i];
		w++;
	}
	fi->nclients = w;
	fi->hint = 0;
}

size_t gt_fdinfo_unreadable(const struct gt_fdinfo *fi)
{
	return fi ? fi->scan.unreadable + fi->unreadable_read : 0;
}

size_t gt_fdinfo_pid_count(const struct gt_fdinfo *fi)
{
	return fi ? fi->scan.npids : 0;
}

size_t gt_fdinfo_client_count(const struct gt_fdinfo *fi)
{
	return fi ? fi->nclients : 0;
}

uint64_t gt_fdinfo_walk_count(const struct gt_fdinfo *fi)
{
	return fi ? fi->walks : 0;
}

static int fdi_ord_cmp(const void *a, const void *b)
{
	const struct fdi_ord *x = a, *y = b;
	if (x->pid != y->pid)
		return (x->pid > y->pid) - (x->pid < y->pid);
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Class shares summed over a set of clients. */
struct fdi_agg {
	uint32_t sum[GT_FDI__CLASS_COUNT];
	uint16_t present, used;
	bool ok;     /* some client has rates this round */
	bool amdgpu; /* some client is amdgpu: absent engines are idle */
	bool any_mem;
	bool has_mem[GT_FDI__MEM_COUNT];
	uint64_t mem[GT_FDI__MEM_COUNT];
	bool bad[GT_FDI__MEM_COUNT]; /* a client's size could not be read */
	int32_t bad_key[GT_FDI__MEM_COUNT]; /* the first such client's key */
	size_t clients;
};

static void fdi_agg_add(struct fdi_agg *a, const struct fdi_client *c)
{
	a->clients++;
	a->present |= c->present;
	a->used |= c->used;
	a->amdgpu |= c->amdgpu;
	a->any_mem |= c->any_mem;
	if (c->rates_ok) {
		a->ok = true;
		for (int k = 0; k < GT_FDI__CLASS_COUNT; k++)
			a->sum[k] = fdi_add_clamp(a->sum[k], c->util[k]);
	}
	for (int m = 0; m < GT_FDI__MEM_COUNT; m++) {
		if (c->bad_key[m] >= 0 && !a->bad[m]) {
			a->bad[m] = true;
			a->bad_key[m] = c->bad_key[m];
		}
		if (!c->has_mem[m])
			continue;
		a->has_mem[m] = true;
		a->mem[m] = a->mem[m] > UINT64_MAX - c->mem[m]
		                ? UINT64_MAX
		                : a->mem[m] + c->mem[m];
	}
}

/* The busiest class of mask. Unsupported when no client has such an
 * engine (amdgpu omits idle engines, so it always "has" them); pending
 * when no client has rates yet. */
static void fdi_agg_rate(const struct fdi_agg *a, unsigned mask,
                         struct gt_val *val)
{
	if (!a->amdgpu && !(a->present & mask) && a->clients > 0) {
		gt_val_fail(val, GT_WHY_UNSUPPORTED_DEVICE, 0);
		return;
	}
	if (!a->ok && a->clients > 0) {
		gt_val_fail(val, GT_WHY_PENDING, 0);
		return;
	}
	uint32_t best = 0;
	for (int k = 0; k < GT_FDI__CLASS_COUNT; k++)
		if ((mask & GT_FDI_BIT(k)) && a->sum[k] > best)
			best = a->sum[k];
	gt_val_set(val, best);
}

static void fdi_agg_mem(const struct fdi_agg *a, enum gt_fdinfo_mem m,
                        struct gt_val *val)
{
	/* Before any sum: one client whose size could not be read makes
	 * the sum short, and a short sum must not pass for the size. */
	if (a->bad[m])
		gt_val_fail(val, GT_WHY_MALFORMED, a->bad_key[m]);
	else if (a->has_mem[m] && a->mem[m] <= INT64_MAX)
		gt_val_set(val, (int64_t)a->mem[m]);
	else if (a->has_mem[m])
		gt_val_set(val, INT64_MAX);
	else /* memory keys but not this memory: an iGPU has no VRAM */
		gt_val_fail(val,
		            a->any_mem ? GT_WHY_UNSUPPORTED_DEVICE
		                       : GT_WHY_UNSUPPORTED_DRIVER,
		            0);
}

static uint8_t fdi_type(uint16_t used)
{
	bool compute = used & GT_FDI_BIT(GT_FDI_COMPUTE);
	bool graphics =
	    used & (GT_FDI_BIT(GT_FDI_RENDER) | GT_FDI_BIT(GT_FDI_OTHER));
	if (compute)
		return graphics ? GT_PROC_BOTH : GT_PROC_COMPUTE;
	return GT_PROC_GRAPHICS;
}

/* Sums the clients of the device at PCI address key. */
static void fdi_agg_device(const struct gt_fdinfo *fi, uint64_t key,
                           struct fdi_agg *a)
{
	memset(a, 0, sizeof(*a));
	for (size_t i = 0; i < fi->nclients; i++) {
		const struct fdi_client *c = &fi->clients[i];
		if (c->key.has_pdev && c->key.pdev == key)
			fdi_agg_add(a, c);
	}
}

size_t gt_fdinfo_processes(struct gt_fdinfo *fi, const char *pdev,
                           struct gt_proc_vec *out)
{
	uint64_t key;
	size_t n = 0, added = 0;

	if (!fi || !out)
		return 0;
	/* One scanner serves every device: a refused pid is one pid however
	 * many devices ask, so the count is set, not added. */
	size_t unreadable = gt_fdinfo_unreadable(fi);
	if (unreadable > out->unreadable)
		out->unreadable = unreadable;
	if (!pdev || !gt_fdinfo_pdev_parse(pdev, strlen(pdev), &key))
		return 0;
	for (size_t i = 0; i < fi->nclients; i++) {
		const struct fdi_client *c = &fi->clients[i];
		if (!c->key.has_pdev || c->key.pdev != key)
			continue;
		if (n == fi->ordcap) {
			size_t ncap = fi->ordcap ? fi->ordcap * 2 : 16;
			struct fdi_ord *no =
			    realloc(fi->ord, ncap * sizeof(*no));
			if (!no)
				return 0;
			fi->ord = no;
			fi->ordcap = ncap;
		}
		fi->ord[n].pid = c->pid;
		fi->ord[n].idx = (uint32_t)i;
		n++;
	}
	if (n > 1)
		qsort(fi->ord, n, sizeof(fi->ord[0]), fdi_ord_cmp);

	for (size_t i = 0; i < n;) {
		struct fdi_agg a;
		size_t j = i;
		memset(&a, 0, sizeof(a));
		for (; j < n && fi->ord[j].pid == fi->ord[i].pid; j++)
			fdi_agg_add(&a, &fi->clients[fi->ord[j].idx]);
		struct gt_process *p = gt_proc_vec_push(out);
		if (!p)
			break;
		p->pid = fi->ord[i].pid;
		p->type = fdi_type(a.used);
		fdi_agg_rate(&a, GT_FDI_GPU_MASK, &p->f[GT_P_GPU]);
		fdi_agg_rate(&a, GT_FDI_ENC_MASK, &p->f[GT_P_ENC]);
		fdi_agg_rate(&a, GT_FDI_DEC_MASK, &p->f[GT_P_DEC]);
		fdi_agg_mem(&a, GT_FDI_VRAM, &p->f[GT_P_MEM]);
		fdi_agg_mem(&a, GT_FDI_GTT, &p->f[GT_P_GTT]);
		added++;
		i = j;
	}
	return added;
}

/* Shared prologue of the device queries: the clients of pdev in a, or the
 * reason there is no answer (GT_WHY_OK when there is one). */
static enum gt_why fdi_device_prep(struct gt_fdinfo *fi, const char *pdev,
                                   struct fdi_agg *a, bool *lower_bound)
{
	uint64_t key;

	if (lower_bound)
		*lower_bound = gt_fdinfo_unreadable(fi) > 0;
	if (!fi || fi->round < 2)
		return GT_WHY_PENDING;
	if (!pdev || !gt_fdinfo_pdev_parse(pdev, strlen(pdev), &key))
		return GT_WHY_UNSUPPORTED_DEVICE; /* not a PCI device */
	fdi_agg_device(fi, key, a);
	return GT_WHY_OK;
}

void gt_fdinfo_device_busy(struct gt_fdinfo *fi, const char *pdev,
                           struct gt_val *val, bool *lower_bound)
{
	struct fdi_agg a;
	enum gt_why why = fdi_device_prep(fi, pdev, &a, lower_bound);

	if (why != GT_WHY_OK)
		gt_val_fail(val, why, 0);
	else
		fdi_agg_rate(&a, GT_FDI_GPU_MASK, val);
}

void gt_fdinfo_device_media(struct gt_fdinfo *fi, const char *pdev,
                            struct gt_val *enc, struct gt_val *dec,
                            bool *lower_bound)
{
	struct fdi_agg a;
	enum gt_why why = fdi_device_prep(fi, pdev, &a, lower_bound);

	if (why != GT_WHY_OK) {
		gt_val_fail(enc, why, 0);
		gt_val_fail(dec, why, 0);
		return;
	}
	fdi_agg_rate(&a, GT_FDI_ENC_MASK, enc);
	fdi_agg_rate(&a, GT_FDI_DEC_MASK, dec);
}

/* SPDX-License-Identifier: MIT */
/*
 * nvml_procs.c - the NVIDIA backend's process lists: compute, graphics and
 * MPS lists (v3/v2 24-byte entries, else v1 16-byte entries) read with the
 * INSUFFICIENT_SIZE handshake, merged by PID, and per-process utilization
 * from the driver's sample buffer since the last timestamp seen.
 */
#include <stdlib.h>
#include <string.h>

#include "collectors/nvml_priv.h"
#include "core/clock.h"

typedef nvmlReturn_t (*list_fn)(nvmlDevice_t, unsigned *, void *);

static int ensure(void **buf, size_t *cap, size_t want, size_t elem)
{
	if (want <= *cap)
		return 0;
	void *n = realloc(*buf, want * elem);
	if (!n)
		return -1;
	*buf = n;
	*cap = want;
	return 0;
}

/* Appends one list's entries to p->procs[*n...]. */
static nvmlReturn_t fetch_list(struct nvml_priv *p, nvmlDevice_t h, list_fn fn,
                               size_t entry_size, uint8_t type, size_t *n)
{
	/* Steady state: one call into the buffer the last round sized; the
	 * size handshake (count 0, NULL) only when there is none yet. */
	unsigned count = (unsigned)(p->raw_cap / entry_size);
	nvmlReturn_t rc = fn(h, &count, count ? p->raw : NULL);

	/* The list can grow between the two calls: retry a few times with
	 * headroom instead of trusting the first count. */
	for (int tries = 0; rc == NVML_ERROR_INSUFFICIENT_SIZE && tries < 4;
	     tries++) {
		size_t cap = (size_t)count + 8;
		size_t raw_entries = p->raw_cap / entry_size;
		if (cap > raw_entries) {
			void *raw = realloc(p->raw, cap * entry_size);
			if (!raw)
				return NVML_ERROR_MEMORY;
			p->raw = raw;
			p->raw_cap = cap * entry_size;
		}
		count = (unsigned)cap;
		rc = fn(h, &count, p->raw);
	}
	if (rc != NVML_SUCCESS || count == 0)
		return rc;
	if (ensure((void **)&p->procs, &p->procs_cap, *n + count,
	           sizeof(*p->procs)) < 0)
		return NVML_ERROR_MEMORY;
	for (unsigned i = 0; i < count; i++) {
		struct gt_nvml_proc *e = &p->procs[(*n)++];
		if (entry_size == sizeof(nvmlProcessInfo_t)) {
			const nvmlProcessInfo_t *r =
			    (const nvmlProcessInfo_t *)p->raw + i;
			e->pid = r->pid;
			e->mem = r->usedGpuMemory;
			e->gi = r->gpuInstanceId;
			e->ci = r->computeInstanceId;
		} else {
			const nvmlProcessInfo_v1_t *r =
			    (const nvmlProcessInfo_v1_t *)p->raw + i;
			e->pid = r->pid;
			e->mem = r->usedGpuMemory;
			e->gi = GT_MIG_NONE;
			e->ci = GT_MIG_NONE;
		}
		e->type = type;
	}
	return NVML_SUCCESS;
}

static nvmlReturn_t fetch_kind(struct nvml_priv *p, nvmlDevice_t h, void *v3,
                               void *v1, uint8_t type, size_t *n)
{
	/* Function pointers of both layouts are called through one type
	 * that takes the entry array as void *: same ABI, checked size. */
	list_fn fn;
	if (v3) {
		memcpy(&fn, &v3, sizeof(fn));
		return fetch_list(p, h, fn, sizeof(nvmlProcessInfo_t), type, n);
	}
	if (v1) {
		memcpy(&fn, &v1, sizeof(fn));
		return fetch_list(p, h, fn, sizeof(nvmlProcessInfo_v1_t), type,
		                  n);
	}
	return NVML_ERROR_FUNCTION_NOT_FOUND;
}

struct util_acc {
	unsigned long long sm, enc, dec;
	unsigned samples;
};

/* The process fields a utilization round fills, in the order of its sums
 * and of struct nvml_util_memo's pct. */
static const int util_fields[3] = {GT_P_GPU, GT_P_ENC, GT_P_DEC};

/* A round that brought no new sample and spans less than
 * NVML_UTIL_QUIET_NS since the last informative one: each process gets
 * its value from that round, a newcomer N/A until the driver samples. */
static void repeat_utilization(const struct nvml_dev *d, size_t m,
                               const struct nvml_priv *p,
                               struct gt_proc_vec *out, size_t first)
{
	for (size_t j = 0; j < m; j++) {
		struct gt_process *proc = &out->items[first + j];
		const struct nvml_util_memo *memo = NULL;
		for (unsigned i = 0; i < d->util_nmemo && !memo; i++)
			if (d->util_memo[i].pid == p->merged[j].pid)
				memo = &d->util_memo[i];
		for (int k = 0; k < 3; k++) {
			if (memo)
				gt_val_set(&proc->f[util_fields[k]],
				           memo->pct[k]);
			else
				gt_val_fail(&proc->f[util_fields[k]],
				            GT_WHY_PENDING, 0);
		}
	}
}

/* Mean utilization per merged process over the samples newer than the last
 * round; a process without a sample was idle (0 %) when the driver sampled
 * in the round, or the round spans NVML_UTIL_QUIET_NS; else the last
 * informative round stands (repeat_utilization). */
static void fill_utilization(struct nvml_priv *p, struct nvml_dev *d, size_t m,
                             struct gt_proc_vec *out, size_t first)
{
	unsigned count = 0;
	nvmlReturn_t rc = NVML_ERROR_FUNCTION_NOT_FOUND;
	enum gt_why why = GT_WHY_OK;

	/* No listed process, nothing to attribute: the call costs about
	 * 2 ms of CPU on a real driver (tests/hw/nvmlcost), most of an idle
	 * GPU's round. The last timestamp stays, so a process that appears
	 * gets its samples since then, all of them its own. */
	if (m == 0)
		return;
	if (d->mig) {
		why = GT_WHY_MIG;
	} else if (p->api.process_utilization) {
		/* Into last round's buffer first: the NULL size query is
		 * needed only while there is none (or it is too small). */
		count = p->util_cap;
		rc = p->api.process_utilization(d->handle,
		                                count ? p->util : NULL, &count,
		                                d->util_last_seen);
		if (rc == NVML_ERROR_INSUFFICIENT_SIZE && count > 0) {
			if (count > p->util_cap) {
				void *n =
				    realloc(p->util, count * sizeof(*p->util));
				if (!n)
					return;
				p->util = n;
				p->util_cap = count;
			}
			rc = p->api.process_utilization(
			    d->handle, p->util, &count, d->util_last_seen);
		} else if (rc == NVML_ERROR_NOT_FOUND ||
		           (rc == NVML_SUCCESS && count == 0)) {
			rc = NVML_SUCCESS; /* no process was busy */
			count = 0;
		}
		if (rc != NVML_SUCCESS)
			why = gt_nvml_why(rc);
	} else {
		why = GT_WHY_UNSUPPORTED_DRIVER;
	}

	struct util_acc *acc = calloc(m ? m : 1, sizeof(*acc));
	unsigned long long newest = d->util_last_seen;
	for (unsigned i = 0; acc && why == GT_WHY_OK && i < count; i++) {
		const nvmlProcessUtilizationSample_t *u = &p->util[i];
		/* Drivers have returned stale PIDs, old samples and values
		 * over 100 %: keep only plausible, new samples of listed
		 * processes. */
		if (u->timeStamp <= d->util_last_seen || u->smUtil > 100 ||
		    u->encUtil > 100 || u->decUtil > 100)
			continue;
		for (size_t j = 0; j < m; j++) {
			if (p->merged[j].pid != u->pid)
				continue;
			acc[j].sm += u->smUtil;
			acc[j].enc += u->encUtil;
			acc[j].dec += u->decUtil;
			acc[j].samples++;
			break;
		}
		if (u->timeStamp > newest)
			newest = u->timeStamp;
	}
	uint64_t now = gt_monotonic_ns();
	if (acc && why == GT_WHY_OK && newest == d->util_last_seen &&
	    d->util_last_seen != 0 &&
	    now - d->util_informed_ns < NVML_UTIL_QUIET_NS) {
		repeat_utilization(d, m, p, out, first);
		free(acc);
		return;
	}
	d->util_last_seen = newest;
	d->util_informed_ns = now;
	d->util_nmemo = 0;

	for (size_t j = 0; j < m; j++) {
		struct gt_process *proc = &out->items[first + j];
		unsigned long long sums[3] = {0, 0, 0};
		if (why != GT_WHY_OK || !acc) {
			for (int k = 0; k < 3; k++)
				gt_val_fail(&proc->f[util_fields[k]],
				            acc ? why : GT_WHY_NOT_COLLECTED,
				            why == GT_WHY_DRIVER_ERROR ? rc
				                                       : 0);
			continue;
		}
		if (acc[j].samples) {
			sums[0] = acc[j].sm * 100 / acc[j].samples;
			sums[1] = acc[j].enc * 100 / acc[j].samples;
			sums[2] = acc[j].dec * 100 / acc[j].samples;
		}
		for (int k = 0; k < 3; k++)
			gt_val_set(&proc->f[util_fields[k]], (int64_t)sums[k]);
		if (d->util_nmemo < NVML_UTIL_MEMO)
			d->util_memo[d->util_nmemo++] = (struct nvml_util_memo){
			    p->merged[j].pid,
			    {(uint32_t)sums[0], (uint32_t)sums[1],
			     (uint32_t)sums[2]}};
	}
	free(acc);
}

bool gt_nvml_fetch_lists(struct nvml_priv *p, nvmlDevice_t h, size_t *n,
                         nvmlReturn_t *first_error)
{
	nvmlReturn_t rc[3];
	rc[0] = fetch_kind(p, h, (void *)p->api.compute_procs,
	                   (void *)p->api.compute_procs_v1, GT_PROC_COMPUTE, n);
	rc[1] =
	    fetch_kind(p, h, (void *)p->api.graphics_procs,
	               (void *)p->api.graphics_procs_v1, GT_PROC_GRAPHICS, n);
	/* MPS clients are compute work as far as a user is concerned. */
	rc[2] = fetch_kind(p, h, (void *)p->api.mps_procs,
	                   (void *)p->api.mps_procs_v1, GT_PROC_COMPUTE, n);
	if (first_error)
		*first_error = NVML_SUCCESS;
	for (int i = 0; i < 3; i++) {
		if (gt_nvml_is_lost(rc[i]))
			return true;
		if (first_error && *first_error == NVML_SUCCESS &&
		    rc[i] != NVML_ERROR_FUNCTION_NOT_FOUND)
			*first_error = rc[i];
	}
	return false;
}

int gt_nvml_processes(struct gt_backend *b, unsigned dev,
                      struct gt_proc_vec *out)
{
	struct nvml_priv *p = b->priv;
	struct nvml_dev *d = &p->devs[dev];
	size_t n = 0, mfirst = out->mig_count;
	int migs = d->mig ? gt_nvml_mig_read(p, d, out, &n) : -2;

	if (migs == -1)
		return -1;
	/* Not in MIG mode, or its devices cannot be listed: the whole-GPU
	 * lists (in MIG mode they need privileges). */
	if (migs < 0 && gt_nvml_fetch_lists(p, d->handle, &n, NULL))
		return -1;

	size_t merged_cap = 0;
	if (n &&
	    ensure((void **)&p->merged, &merged_cap, n, sizeof(*p->merged)) < 0)
		return 0;
	size_t m = n ? gt_nvml_merge_procs(p->procs, n, p->merged) : 0;
	size_t first = out->count;
	for (size_t j = 0; j < m; j++) {
		struct gt_process *proc = gt_proc_vec_push(out);
		if (!proc)
			break; /* a shorter list beats no list */
		proc->pid = (int32_t)p->merged[j].pid;
		gt_val_fail(&proc->f[GT_P_GTT], GT_WHY_UNSUPPORTED_DEVICE, 0);
		proc->type = p->merged[j].type;
		if (d->mig) {
			proc->mig_gi = p->merged[j].gi;
			proc->mig_ci = p->merged[j].ci;
		}
		if (p->merged[j].mem == GT_NVML_MEMORY_NOT_AVAILABLE)
			gt_val_fail(&proc->f[GT_P_MEM],
			            d->mig ? GT_WHY_PERMISSION
			                   : GT_WHY_UNSUPPORTED_DEVICE,
			            0);
		else
			gt_val_set(&proc->f[GT_P_MEM],
			           (int64_t)p->merged[j].mem);
	}
	gt_nvml_mig_count(out, mfirst, first);
	fill_utilization(p, d, out->count - first, out, first);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * nvml_mig.c - the NVIDIA backend's MIG devices: for a GPU in MIG mode,
 * each MIG device handle's ids, UUID, profile (from its name), memory,
 * utilization where the driver gives it, the placement of its GPU
 * instance (a privileged query) and its processes, read once per process
 * round. Values the driver refuses are left N/A with its reason.
 */
#include <string.h>

#include "collectors/nvml_priv.h"

static bool put(struct gt_val *v, nvmlReturn_t rc, int64_t x)
{
	if (rc == NVML_SUCCESS)
		gt_val_set(v, x);
	else
		gt_val_fail(v, gt_nvml_why(rc),
		            gt_nvml_why(rc) == GT_WHY_DRIVER_ERROR ? rc : 0);
	return gt_nvml_is_lost(rc);
}

static bool read_memory(struct nvml_priv *p, nvmlDevice_t h,
                        struct gt_mig_instance *m)
{
	nvmlMemory_t mem = {0, 0, 0};
	nvmlReturn_t rc = p->api.memory_v1 ? p->api.memory_v1(h, &mem)
	                                   : NVML_ERROR_FUNCTION_NOT_FOUND;
	bool lost = put(&m->f[GT_M_MEM_TOTAL], rc, (int64_t)mem.total);
	put(&m->f[GT_M_MEM_USED], rc, (int64_t)mem.used);
	put(&m->f[GT_M_MEM_FREE], rc, (int64_t)mem.free);
	return lost;
}

/* The GPU instance's placement: NVML gives it through the instance
 * object, which needs privileges. */
static bool read_placement(struct nvml_priv *p, struct nvml_dev *d,
                           struct gt_mig_instance *m)
{
	nvmlGpuInstance_t gi = NULL;
	nvmlGpuInstanceInfo_t info;
	nvmlReturn_t rc = NVML_ERROR_FUNCTION_NOT_FOUND;

	memset(&info, 0, sizeof(info));
	if (p->api.gi_by_id && p->api.gi_info) {
		rc = p->api.gi_by_id(d->handle, m->gi, &gi);
		if (rc == NVML_SUCCESS)
			rc = p->api.gi_info(gi, &info);
	}
	bool lost = put(&m->f[GT_M_PLACEMENT_START], rc, info.placement.start);
	put(&m->f[GT_M_PLACEMENT_SIZE], rc, info.placement.size);
	return lost;
}

/* Reads MIG device handle h into m; true when the GPU is gone. */
static bool read_instance(struct nvml_priv *p, struct nvml_dev *d,
                          nvmlDevice_t h, struct gt_mig_instance *m)
{
	unsigned id = 0;
	nvmlReturn_t rc;
	char buf[NVML_DEVICE_NAME_V2_BUFFER_SIZE];

	rc = p->api.mig_gi ? p->api.mig_gi(h, &id)
	                   : NVML_ERROR_FUNCTION_NOT_FOUND;
	if (gt_nvml_is_lost(rc))
		return true;
	m->gi = rc == NVML_SUCCESS ? id : GT_MIG_NONE;
	rc = p->api.mig_ci ? p->api.mig_ci(h, &id)
	                   : NVML_ERROR_FUNCTION_NOT_FOUND;
	m->ci = rc == NVML_SUCCESS ? id : GT_MIG_NONE;
	if (p->api.uuid && p->api.uuid(h, buf, sizeof(buf)) == NVML_SUCCESS) {
		buf[sizeof(buf) - 1] = '\0';
		gt_copy_str(m->uuid, sizeof(m->uuid), buf);
	}
	rc = p->api.name ? p->api.name(h, buf, sizeof(buf))
	                 : NVML_ERROR_FUNCTION_NOT_FOUND;
	buf[sizeof(buf) - 1] = '\0';
	char prof[GT_STR_SHORT];
	if (rc == NVML_SUCCESS && gt_nvml_mig_profile(buf, prof, sizeof(prof)))
		gt_text_val_set(&m->profile, prof);
	else
		gt_text_val_fail(&m->profile, rc == NVML_SUCCESS
		                                  ? GT_WHY_UNSUPPORTED_DRIVER
		                                  : gt_nvml_why(rc));
	bool lost = read_memory(p, h, m);
	nvmlUtilization_t u = {0, 0};
	rc = p->api.utilization ? p->api.utilization(h, &u)
	                        : NVML_ERROR_FUNCTION_NOT_FOUND;
	lost |= put(&m->f[GT_M_UTIL_GPU], rc, (int64_t)u.gpu * 100);
	if (m->gi != GT_MIG_NONE)
		return lost | read_placement(p, d, m);
	/* Without its GPU instance id there is no instance to ask. */
	gt_val_fail(&m->f[GT_M_PLACEMENT_START], GT_WHY_UNSUPPORTED_DRIVER, 0);
	gt_val_fail(&m->f[GT_M_PLACEMENT_SIZE], GT_WHY_UNSUPPORTED_DRIVER, 0);
	return lost;
}

int gt_nvml_mig_read(struct nvml_priv *p, struct nvml_dev *d,
                     struct gt_proc_vec *out, size_t *n)
{
	unsigned max = 0;
	int found = 0;

	if (!p->api.mig_handle || !p->api.mig_max)
		return -2;
	nvmlReturn_t rc = p->api.mig_max(d->handle, &max);
	if (gt_nvml_is_lost(rc))
		return -1;
	if (rc != NVML_SUCCESS)
		return -2;
	if (max > GT_MAX_MIG)
		max = GT_MAX_MIG;
	for (unsigned i = 0; i < max; i++) {
		nvmlDevice_t h = NULL;
		rc = p->api.mig_handle(d->handle, i, &h);
		if (gt_nvml_is_lost(rc))
			return -1;
		if (rc != NVML_SUCCESS) /* NOT_FOUND: no MIG device there */
			continue;
		struct gt_mig_instance *m = gt_proc_vec_push_mig(out);
		if (!m)
			break; /* fewer rows beat none */
		m->index = i;
		if (read_instance(p, d, h, m))
			return -1;
		found++;
		size_t before = *n;
		if (gt_nvml_fetch_lists(p, h, n, NULL))
			return -1;
		/* Entries of a MIG handle's list belong to it, whatever
		 * ids the driver wrote into them. */
		for (size_t k = before; k < *n; k++) {
			p->procs[k].gi = m->gi;
			p->procs[k].ci = m->ci;
		}
	}
	return found;
}

void gt_nvml_mig_count(struct gt_proc_vec *out, size_t mfirst, size_t pfirst)
{
	for (size_t i = mfirst; i < out->mig_count; i++) {
		struct gt_mig_instance *m = &out->mig[i];
		int64_t count = 0;
		for (size_t j = pfirst; j < out->count; j++)
			count += out->items[j].mig_gi == m->gi &&
			         out->items[j].mig_ci == m->ci;
		gt_val_set(&m->f[GT_M_PROCESSES], count);
	}
}

/* SPDX-License-Identifier: MIT */
/*
 * fake_procs.c - exported process queries: the running-process lists in
 * their three layouts (v1 16-byte, v2/v3 24-byte, detail list), per-process
 * utilization (both APIs), accounting, and MIG device handles.
 *
 * All list calls follow NVML's handshake: a count smaller than needed
 * (including 0) answers INSUFFICIENT_SIZE with the needed count, an empty
 * list answers SUCCESS with 0, and nothing is written past the count.
 */
#include <string.h>

#include "fake.h"

/* A process exists from its `from` time on (lists, accounting). */
static int proc_started(const struct fake_call *c, const struct fake_proc *p)
{
	return p->from <= 0 || fake_call_time(c) >= p->from;
}

/* Listed once started, and on a MIG handle only where it runs in that
 * instance. */
static int proc_visible(const struct fake_call *c, const struct fake_proc *p)
{
	if (!proc_started(c, p))
		return 0;
	return c->mig == NULL || (p->gi == c->mig->gi && p->ci == c->mig->ci);
}

static int putil_live(const struct fake_call *c, const struct fake_putil *u)
{
	return u->from <= 0 || fake_call_time(c) >= u->from;
}

/* In MIG mode the whole-GPU handle lists everything only for root. */
static nvmlReturn_t list_allowed(const struct fake_call *c)
{
	if (c->mig == NULL && fake_mig_enabled(c) && !c->sc->privileged)
		return NVML_ERROR_NO_PERMISSION;
	return NVML_SUCCESS;
}

static unsigned int count_kind(const struct fake_call *c,
                               enum fake_proc_kind kind)
{
	unsigned int n = 0;

	for (size_t i = 0; i < c->dev->nprocs[kind]; i++)
		n += proc_visible(c, &c->dev->procs[kind][i]) != 0;
	return n;
}

static nvmlReturn_t proc_list(enum fake_fn fn, nvmlDevice_t device,
                              enum fake_proc_kind kind, unsigned int *count,
                              void *infos, int v1)
{
	struct fake_call c;
	unsigned int n, j = 0;
	nvmlReturn_t rc = fake_enter_dev(fn, device, FAKE_MIG_OK, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (count == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = list_allowed(&c);
	if (rc != NVML_SUCCESS)
		return fake_leave(rc);
	n = count_kind(&c, kind);
	if (*count < n) {
		*count = n;
		return fake_leave(NVML_ERROR_INSUFFICIENT_SIZE);
	}
	if (n > 0 && infos == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	for (size_t i = 0; i < c.dev->nprocs[kind]; i++) {
		const struct fake_proc *p = &c.dev->procs[kind][i];

		if (!proc_visible(&c, p))
			continue;
		if (v1) {
			nvmlProcessInfo_v1_t *e =
			    (nvmlProcessInfo_v1_t *)infos + j;

			memset(e, 0, sizeof(*e));
			e->pid = p->pid;
			e->usedGpuMemory = p->used;
		} else {
			nvmlProcessInfo_v2_t *e =
			    (nvmlProcessInfo_v2_t *)infos + j;

			memset(e, 0, sizeof(*e));
			e->pid = p->pid;
			e->usedGpuMemory = p->used;
			e->gpuInstanceId = p->gi;
			e->computeInstanceId = p->ci;
		}
		j++;
	}
	*count = n;
	return fake_leave(NVML_SUCCESS);
}

#define FAKE_PROC_LIST(fn, kind, type, v1)                                     \
	nvmlReturn_t fn(nvmlDevice_t device, unsigned int *infoCount,          \
	                type *infos)                                           \
	{                                                                      \
		return proc_list(FN_##fn, device, kind, infoCount, infos, v1); \
	}

FAKE_PROC_LIST(nvmlDeviceGetComputeRunningProcesses, PROC_COMPUTE,
               nvmlProcessInfo_v1_t, 1)
FAKE_PROC_LIST(nvmlDeviceGetComputeRunningProcesses_v2, PROC_COMPUTE,
               nvmlProcessInfo_v2_t, 0)
FAKE_PROC_LIST(nvmlDeviceGetComputeRunningProcesses_v3, PROC_COMPUTE,
               nvmlProcessInfo_t, 0)
FAKE_PROC_LIST(nvmlDeviceGetGraphicsRunningProcesses, PROC_GRAPHICS,
               nvmlProcessInfo_v1_t, 1)
FAKE_PROC_LIST(nvmlDeviceGetGraphicsRunningProcesses_v2, PROC_GRAPHICS,
               nvmlProcessInfo_v2_t, 0)
FAKE_PROC_LIST(nvmlDeviceGetGraphicsRunningProcesses_v3, PROC_GRAPHICS,
               nvmlProcessInfo_t, 0)
FAKE_PROC_LIST(nvmlDeviceGetMPSComputeRunningProcesses, PROC_MPS,
               nvmlProcessInfo_v1_t, 1)
FAKE_PROC_LIST(nvmlDeviceGetMPSComputeRunningProcesses_v2, PROC_MPS,
               nvmlProcessInfo_v2_t, 0)
FAKE_PROC_LIST(nvmlDeviceGetMPSComputeRunningProcesses_v3, PROC_MPS,
               nvmlProcessInfo_t, 0)

nvmlReturn_t
nvmlDeviceGetRunningProcessDetailList(nvmlDevice_t device,
                                      nvmlProcessDetailList_t *plist)
{
	struct fake_call c;
	unsigned int n = 0, j = 0;
	int first, last;
	nvmlReturn_t rc = fake_enter_dev(
	    FN_nvmlDeviceGetRunningProcessDetailList, device, FAKE_MIG_OK, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (plist == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	if (plist->version != GT_NVML_PROCESS_DETAIL_LIST_V1_VERSION)
		return fake_leave(NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
	if (plist->mode > NVML_PROCESS_MODE_ALL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = list_allowed(&c);
	if (rc != NVML_SUCCESS)
		return fake_leave(rc);
	first = plist->mode == NVML_PROCESS_MODE_ALL ? 0 : (int)plist->mode;
	last = plist->mode == NVML_PROCESS_MODE_ALL ? PROC_KINDS - 1
	                                            : (int)plist->mode;
	for (int k = first; k <= last; k++)
		n += count_kind(&c, (enum fake_proc_kind)k);
	if (plist->numProcArrayEntries < n ||
	    (n > 0 && plist->procArray == NULL)) {
		plist->numProcArrayEntries = n;
		return fake_leave(NVML_ERROR_INSUFFICIENT_SIZE);
	}
	for (int k = first; k <= last; k++) {
		for (size_t i = 0; i < c.dev->nprocs[k]; i++) {
			const struct fake_proc *p = &c.dev->procs[k][i];
			nvmlProcessDetail_v1_t *e;

			if (!proc_visible(&c, p))
				continue;
			e = &plist->procArray[j++];
			memset(e, 0, sizeof(*e));
			e->pid = p->pid;
			e->usedGpuMemory = p->used;
			e->gpuInstanceId = p->gi;
			e->computeInstanceId = p->ci;
		}
	}
	plist->numProcArrayEntries = n;
	return fake_leave(NVML_SUCCESS);
}

/*
 * The driver samples per-process utilization every putil_period_ms
 * (wall-clock aligned); each sample carries one entry per putil line
 * whose `from` time has come. A sample is "new" when its time is after
 * lastSeenTimeStamp; its `stale` entries carry lastSeenTimeStamp itself.
 */
static unsigned int new_putil(const struct fake_call *c,
                              unsigned long long last_seen,
                              unsigned long long *stamp)
{
	unsigned long long period = c->sc->putil_period_ms * 1000ULL;
	unsigned long long now = fake_wall_us();
	unsigned int n = 0;

	*stamp = now - now % period;
	for (size_t i = 0; i < c->dev->nputil; i++)
		n += putil_live(c, &c->dev->putil[i]) != 0;
	return *stamp > last_seen ? n : 0;
}

nvmlReturn_t nvmlDeviceGetProcessUtilization(
    nvmlDevice_t device, nvmlProcessUtilizationSample_t *utilization,
    unsigned int *processSamplesCount, unsigned long long lastSeenTimeStamp)
{
	struct fake_call c;
	unsigned long long stamp;
	unsigned int n;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetProcessUtilization, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (processSamplesCount == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	if (fake_mig_enabled(&c))
		return fake_leave(NVML_ERROR_NOT_SUPPORTED);
	n = new_putil(&c, lastSeenTimeStamp, &stamp);
	/* A NULL buffer always asks for the size (nvtop requires 7 here). */
	if (utilization == NULL || (n > 0 && *processSamplesCount < n)) {
		*processSamplesCount = n;
		return fake_leave(NVML_ERROR_INSUFFICIENT_SIZE);
	}
	if (n == 0) {
		*processSamplesCount = 0;
		return fake_leave(NVML_ERROR_NOT_FOUND);
	}
	for (size_t i = 0, j = 0; i < c.dev->nputil; i++) {
		const struct fake_putil *u = &c.dev->putil[i];
		nvmlProcessUtilizationSample_t *s;

		if (!putil_live(&c, u))
			continue;
		s = &utilization[j++];
		memset(s, 0, sizeof(*s));
		s->pid = u->pid;
		s->timeStamp = u->stale ? lastSeenTimeStamp : stamp;
		s->smUtil = u->sm;
		s->memUtil = u->mem;
		s->encUtil = u->enc;
		s->decUtil = u->dec;
	}
	*processSamplesCount = n;
	return fake_leave(NVML_SUCCESS);
}

nvmlReturn_t nvmlDeviceGetProcessesUtilizationInfo(
    nvmlDevice_t device, nvmlProcessesUtilizationInfo_t *procesesUtilInfo)
{
	nvmlProcessesUtilizationInfo_t *info = procesesUtilInfo;
	struct fake_call c;
	unsigned long long stamp;
	unsigned int n;
	nvmlReturn_t rc = fake_enter_dev(
	    FN_nvmlDeviceGetProcessesUtilizationInfo, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (info == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	if (info->version != GT_NVML_PROCESSES_UTIL_INFO_V1_VERSION)
		return fake_leave(NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
	if (fake_mig_enabled(&c))
		return fake_leave(NVML_ERROR_NOT_SUPPORTED);
	n = new_putil(&c, info->lastSeenTimeStamp, &stamp);
	if (info->procUtilArray == NULL ||
	    (n > 0 && info->processSamplesCount < n)) {
		info->processSamplesCount = n;
		return fake_leave(NVML_ERROR_INSUFFICIENT_SIZE);
	}
	if (n == 0) {
		info->processSamplesCount = 0;
		return fake_leave(NVML_ERROR_NOT_FOUND);
	}
	for (size_t i = 0, j = 0; i < c.dev->nputil; i++) {
		const struct fake_putil *u = &c.dev->putil[i];
		nvmlProcessUtilizationInfo_v1_t *s;

		if (!putil_live(&c, u))
			continue;
		s = &info->procUtilArray[j++];
		memset(s, 0, sizeof(*s));
		s->timeStamp = u->stale ? info->lastSeenTimeStamp : stamp;
		s->pid = u->pid;
		s->smUtil = u->sm;
		s->memUtil = u->mem;
		s->encUtil = u->enc;
		s->decUtil = u->dec;
		s->jpgUtil = u->jpg;
		s->ofaUtil = u->ofa;
	}
	info->processSamplesCount = n;
	return fake_leave(NVML_SUCCESS);
}

nvmlReturn_t nvmlDeviceGetAccountingMode(nvmlDevice_t device,
                                         nvmlEnableState_t *mode)
{
	struct fake_call c;
	unsigned int v = 0;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetAccountingMode, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (mode == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = fake_get_u(&c, K_ACCOUNTING, &v);
	if (rc == NVML_SUCCESS)
		*mode = v ? NVML_FEATURE_ENABLED : NVML_FEATURE_DISABLED;
	return fake_leave(rc);
}

nvmlReturn_t nvmlDeviceGetAccountingBufferSize(nvmlDevice_t device,
                                               unsigned int *bufferSize)
{
	struct fake_call c;
	unsigned int v = 0;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetAccountingBufferSize, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (bufferSize == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = fake_get_u(&c, K_ACCOUNTING_BUFFER, &v);
	if (rc == NVML_SUCCESS)
		*bufferSize = v;
	return fake_leave(rc);
}

/* Accounting data exists only while accounting mode is on. */
static nvmlReturn_t accounting_on(const struct fake_call *c)
{
	unsigned int v = 0;
	nvmlReturn_t rc = fake_get_u(c, K_ACCOUNTING, &v);

	if (rc == NVML_SUCCESS && v == 0)
		rc = NVML_ERROR_NOT_SUPPORTED;
	return rc;
}

/* The first entry of pid in list order (compute, graphics, MPS). */
static const struct fake_proc *find_proc(const struct fake_dev *d,
                                         unsigned int pid)
{
	for (int k = 0; k < PROC_KINDS; k++)
		for (size_t i = 0; i < d->nprocs[k]; i++)
			if (d->procs[k][i].pid == pid)
				return &d->procs[k][i];
	return NULL;
}

static int first_of_pid(const struct fake_dev *d, int k, size_t i)
{
	return find_proc(d, d->procs[k][i].pid) == &d->procs[k][i];
}

/* Every PID once, in list order (compute, graphics, MPS). */
nvmlReturn_t nvmlDeviceGetAccountingPids(nvmlDevice_t device,
                                         unsigned int *count,
                                         unsigned int *pids)
{
	struct fake_call c;
	unsigned int n = 0, j = 0;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetAccountingPids, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (count == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = accounting_on(&c);
	if (rc != NVML_SUCCESS)
		return fake_leave(rc);
	for (int k = 0; k < PROC_KINDS; k++)
		for (size_t i = 0; i < c.dev->nprocs[k]; i++)
			n += first_of_pid(c.dev, k, i) &&
			     proc_started(&c, &c.dev->procs[k][i]);
	if (*count < n || (n > 0 && pids == NULL)) {
		*count = n;
		return fake_leave(NVML_ERROR_INSUFFICIENT_SIZE);
	}
	for (int k = 0; k < PROC_KINDS; k++)
		for (size_t i = 0; i < c.dev->nprocs[k]; i++)
			if (first_of_pid(c.dev, k, i) &&
			    proc_started(&c, &c.dev->procs[k][i]))
				pids[j++] = c.dev->procs[k][i].pid;
	*count = n;
	return fake_leave(NVML_SUCCESS);
}

nvmlReturn_t nvmlDeviceGetAccountingStats(nvmlDevice_t device, unsigned int pid,
                                          nvmlAccountingStats_t *stats)
{
	struct fake_call c;
	const struct fake_proc *p;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetAccountingStats, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (stats == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = accounting_on(&c);
	if (rc != NVML_SUCCESS)
		return fake_leave(rc);
	p = find_proc(c.dev, pid);
	if (p == NULL || !proc_started(&c, p))
		return fake_leave(NVML_ERROR_NOT_FOUND);
	memset(stats, 0, sizeof(*stats));
	for (size_t i = 0; i < c.dev->nputil; i++) {
		if (c.dev->putil[i].pid == pid) {
			stats->gpuUtilization = c.dev->putil[i].sm;
			stats->memoryUtilization = c.dev->putil[i].mem;
		}
	}
	stats->maxMemoryUsage =
	    p->used == GT_NVML_MEMORY_NOT_AVAILABLE ? 0 : p->used;
	stats->startTime = fake_init_wall_us();
	stats->isRunning = 1;
	return fake_leave(NVML_SUCCESS);
}

nvmlReturn_t nvmlDeviceIsMigDeviceHandle(nvmlDevice_t device,
                                         unsigned int *isMigDevice)
{
	struct fake_call c;
	nvmlReturn_t rc = fake_enter_dev(FN_nvmlDeviceIsMigDeviceHandle, device,
	                                 FAKE_MIG_OK, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (isMigDevice == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	*isMigDevice = c.mig != NULL;
	return fake_leave(NVML_SUCCESS);
}

nvmlReturn_t nvmlDeviceGetMaxMigDeviceCount(nvmlDevice_t device,
                                            unsigned int *count)
{
	struct fake_call c;
	unsigned int v = 0;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetMaxMigDeviceCount, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (count == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = fake_get_u(&c, K_MIG_MAX, &v);
	if (rc == NVML_SUCCESS)
		*count = v;
	return fake_leave(rc);
}

nvmlReturn_t nvmlDeviceGetMigDeviceHandleByIndex(nvmlDevice_t device,
                                                 unsigned int index,
                                                 nvmlDevice_t *migDevice)
{
	struct fake_call c;
	unsigned int mode = 0;
	nvmlReturn_t rc = fake_enter_dev(FN_nvmlDeviceGetMigDeviceHandleByIndex,
	                                 device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (migDevice == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = fake_get_u(&c, K_MIG_MODE, &mode);
	if (rc != NVML_SUCCESS)
		return fake_leave(rc);
	if (mode == 0 || index >= c.dev->nmig)
		return fake_leave(NVML_ERROR_NOT_FOUND);
	*migDevice = fake_handle(c.gpu, (int)index);
	return fake_leave(NVML_SUCCESS);
}

nvmlReturn_t
nvmlDeviceGetDeviceHandleFromMigDeviceHandle(nvmlDevice_t migDevice,
                                             nvmlDevice_t *device)
{
	struct fake_call c;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetDeviceHandleFromMigDeviceHandle,
	                   migDevice, FAKE_MIG_OK, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (device == NULL || c.mig == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	*device = fake_handle(c.gpu, -1);
	return fake_leave(NVML_SUCCESS);
}

static nvmlReturn_t instance_id(enum fake_fn fn, nvmlDevice_t device,
                                int compute, unsigned int *id)
{
	struct fake_call c;
	nvmlReturn_t rc = fake_enter_dev(fn, device, FAKE_MIG_OK, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (id == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	if (c.mig == NULL)
		return fake_leave(NVML_ERROR_NOT_SUPPORTED);
	*id = compute ? c.mig->ci : c.mig->gi;
	return fake_leave(NVML_SUCCESS);
}

nvmlReturn_t nvmlDeviceGetGpuInstanceId(nvmlDevice_t device, unsigned int *id)
{
	return instance_id(FN_nvmlDeviceGetGpuInstanceId, device, 0, id);
}

nvmlReturn_t nvmlDeviceGetComputeInstanceId(nvmlDevice_t device,
                                            unsigned int *id)
{
	return instance_id(FN_nvmlDeviceGetComputeInstanceId, device, 1, id);
}

/* A GPU instance handle is the handle of the first MIG device in it: the
 * client never dereferences either, and one table decodes both. */
nvmlReturn_t nvmlDeviceGetGpuInstanceById(nvmlDevice_t device, unsigned int id,
                                          nvmlGpuInstance_t *gpuInstance)
{
	struct fake_call c;
	unsigned int mode = 0;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetGpuInstanceById, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (gpuInstance == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = fake_get_u(&c, K_MIG_MODE, &mode);
	if (rc != NVML_SUCCESS || mode == 0)
		return fake_leave(NVML_ERROR_NOT_SUPPORTED);
	if (!c.sc->privileged)
		return fake_leave(NVML_ERROR_NO_PERMISSION);
	for (unsigned int m = 0; m < c.dev->nmig; m++) {
		if (c.dev->mig[m].gi == id) {
			*gpuInstance = (nvmlGpuInstance_t)(void *)fake_handle(
			    c.gpu, (int)m);
			return fake_leave(NVML_SUCCESS);
		}
	}
	return fake_leave(NVML_ERROR_NOT_FOUND);
}

nvmlReturn_t nvmlGpuInstanceGetInfo(nvmlGpuInstance_t gpuInstance,
                                    nvmlGpuInstanceInfo_t *info)
{
	struct fake_call c;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlGpuInstanceGetInfo,
	                   (nvmlDevice_t)(void *)gpuInstance, FAKE_MIG_OK, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (info == NULL || c.mig == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	if (!c.sc->privileged)
		return fake_leave(NVML_ERROR_NO_PERMISSION);
	if (!c.mig->have_placement)
		return fake_leave(NVML_ERROR_NOT_SUPPORTED);
	memset(info, 0, sizeof(*info));
	info->device = fake_handle(c.gpu, -1);
	info->id = c.mig->gi;
	info->profileId = 0; /* not modelled: gputop does not read it */
	info->placement.start = c.mig->placement_start;
	info->placement.size = c.mig->placement_size;
	return fake_leave(NVML_SUCCESS);
}

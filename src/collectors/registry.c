/* SPDX-License-Identifier: MIT */
/*
 * registry.c - the one explicit list of backends, in probe order. A new
 * backend is added here and nowhere else (no constructor tricks), and the
 * platform that joins them to the Linux host readers.
 */
#include "collectors/registry.h"

#include "linux/fdinfo.h"
#include "linux/procinfo.h"

const struct gt_backend_ops *const gt_registry_backends[] = {
    &gt_nvml_backend,
    &gt_amdgpu_backend,
    &gt_intel_backend,
};

const size_t gt_registry_backend_count =
    sizeof(gt_registry_backends) / sizeof(gt_registry_backends[0]);

const struct gt_platform gt_registry_platform = {
    .backends = gt_registry_backends,
    .nbackends = sizeof(gt_registry_backends) / sizeof(gt_registry_backends[0]),
    .demo = &gt_demo_backend,
    .fdinfo_new = gt_fdinfo_new,
    .fdinfo_update = gt_fdinfo_update,
    .fdinfo_free = gt_fdinfo_free,
    .procinfo_new = gt_procinfo_new,
    .procinfo_fill = gt_procinfo_fill,
    .procinfo_sweep = gt_procinfo_sweep,
    .procinfo_parent = gt_procinfo_parent,
    .procinfo_free = gt_procinfo_free,
};

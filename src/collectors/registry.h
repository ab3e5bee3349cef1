/* SPDX-License-Identifier: MIT */
/*
 * registry.h - the one explicit list of backends, and the platform the
 * front ends hand to the collector: these backends with the Linux host
 * readers (DRM fdinfo, /proc) of src/linux.
 *
 * The folder src/collectors/ holds the sampling backends, one file family
 * per vendor (nvml*, amdgpu*, intel*, demo*), each behind core/backend.h's
 * vtable; they include only core and linux, and are called from the
 * collector thread alone.
 */
#ifndef GPUTOP_REGISTRY_H
#define GPUTOP_REGISTRY_H

#include <stddef.h>

#include "core/backend.h"
#include "core/platform.h"

/* The backends in probe order. The demo backend is not in it: it only
 * runs when asked for with --demo (gt_registry_platform.demo). */
extern const struct gt_backend_ops *const gt_registry_backends[];
extern const size_t gt_registry_backend_count;

/* The backends above, the demo, and src/linux's fdinfo and procinfo. */
extern const struct gt_platform gt_registry_platform;

/* Each backend's ops, defined in its own file. */
extern const struct gt_backend_ops gt_demo_backend;
extern const struct gt_backend_ops gt_nvml_backend;
extern const struct gt_backend_ops gt_amdgpu_backend;
extern const struct gt_backend_ops gt_intel_backend;

#endif

/* SPDX-License-Identifier: MIT */
/*
 * registry.c - the one explicit list of backends, in probe order. A new
 * backend is added here and nowhere else (no constructor tricks). Also
 * the names of backend states.
 */
#include "core/backend.h"

#include <string.h>

const struct gt_backend_ops *const gt_registry_backends[] = {
    &gt_nvml_backend,
    &gt_amdgpu_backend,
    &gt_intel_backend,
};

const size_t gt_registry_backend_count =
    sizeof(gt_registry_backends) / sizeof(gt_registry_backends[0]);

const char *gt_backend_status_name(enum gt_backend_status status)
{
	switch (status) {
	case GT_BACKEND_OK:
		return "ok";
	case GT_BACKEND_ERROR:
		return "error";
	case GT_BACKEND_UNAVAILABLE:
		break;
	}
	return "unavailable";
}

const char *gt_backend_errno_text(struct gt_backend *b, int code)
{
	(void)b;
	return code > 0 ? strerror(code) : NULL;
}

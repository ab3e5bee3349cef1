/*
 * registry.c - the one explicit list of backends, in probe order. A new
 * backend is added here and nowhere else (no constructor tricks).
 */
#include "backend.h"

const struct gt_backend_ops *const gt_backend_table[] = {
	&gt_nvml_backend,
};

const size_t gt_backend_table_len =
	sizeof(gt_backend_table) / sizeof(gt_backend_table[0]);

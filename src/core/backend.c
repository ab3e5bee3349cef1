/* SPDX-License-Identifier: MIT */
/*
 * backend.c - the helpers every backend and reader of backends shares
 * (backend.h): the names of backend states and the errno error text.
 */
#include "core/backend.h"

#include <string.h>

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

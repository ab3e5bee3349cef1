/* SPDX-License-Identifier: MIT */
/*
 * fake_eval.c - evaluation of scenario metrics (const, ramp, sine, counter)
 * at a time since init, conversion to the NVML integer types, string
 * copies with NVML's buffer rules, and the table of return-code names the
 * scenario parser accepts.
 *
 * No libm: the lead's build line links the fake with no -lm, and a client
 * that does not link libm itself would then fail to dlopen it.
 */
#include <limits.h>
#include <string.h>

#include "fake.h"

static const struct {
	nvmlReturn_t rc;
	const char *name;
} rc_names[] = {
    {NVML_SUCCESS, "SUCCESS"},
    {NVML_ERROR_UNINITIALIZED, "UNINITIALIZED"},
    {NVML_ERROR_INVALID_ARGUMENT, "INVALID_ARGUMENT"},
    {NVML_ERROR_NOT_SUPPORTED, "NOT_SUPPORTED"},
    {NVML_ERROR_NO_PERMISSION, "NO_PERMISSION"},
    {NVML_ERROR_ALREADY_INITIALIZED, "ALREADY_INITIALIZED"},
    {NVML_ERROR_NOT_FOUND, "NOT_FOUND"},
    {NVML_ERROR_INSUFFICIENT_SIZE, "INSUFFICIENT_SIZE"},
    {NVML_ERROR_INSUFFICIENT_POWER, "INSUFFICIENT_POWER"},
    {NVML_ERROR_DRIVER_NOT_LOADED, "DRIVER_NOT_LOADED"},
    {NVML_ERROR_TIMEOUT, "TIMEOUT"},
    {NVML_ERROR_IRQ_ISSUE, "IRQ_ISSUE"},
    {NVML_ERROR_LIBRARY_NOT_FOUND, "LIBRARY_NOT_FOUND"},
    {NVML_ERROR_FUNCTION_NOT_FOUND, "FUNCTION_NOT_FOUND"},
    {NVML_ERROR_CORRUPTED_INFOROM, "CORRUPTED_INFOROM"},
    {NVML_ERROR_GPU_IS_LOST, "GPU_IS_LOST"},
    {NVML_ERROR_RESET_REQUIRED, "RESET_REQUIRED"},
    {NVML_ERROR_OPERATING_SYSTEM, "OPERATING_SYSTEM"},
    {NVML_ERROR_LIB_RM_VERSION_MISMATCH, "LIB_RM_VERSION_MISMATCH"},
    {NVML_ERROR_IN_USE, "IN_USE"},
    {NVML_ERROR_MEMORY, "MEMORY"},
    {NVML_ERROR_NO_DATA, "NO_DATA"},
    {NVML_ERROR_VGPU_ECC_NOT_SUPPORTED, "VGPU_ECC_NOT_SUPPORTED"},
    {NVML_ERROR_INSUFFICIENT_RESOURCES, "INSUFFICIENT_RESOURCES"},
    {NVML_ERROR_FREQ_NOT_SUPPORTED, "FREQ_NOT_SUPPORTED"},
    {NVML_ERROR_ARGUMENT_VERSION_MISMATCH, "ARGUMENT_VERSION_MISMATCH"},
    {NVML_ERROR_DEPRECATED, "DEPRECATED"},
    {NVML_ERROR_NOT_READY, "NOT_READY"},
    {NVML_ERROR_GPU_NOT_FOUND, "GPU_NOT_FOUND"},
    {NVML_ERROR_INVALID_STATE, "INVALID_STATE"},
    {NVML_ERROR_RESET_TYPE_NOT_SUPPORTED, "RESET_TYPE_NOT_SUPPORTED"},
    {NVML_ERROR_UNKNOWN, "UNKNOWN"},
};

const char *fake_rc_name(nvmlReturn_t rc)
{
	for (size_t i = 0; i < sizeof(rc_names) / sizeof(rc_names[0]); i++)
		if (rc_names[i].rc == rc)
			return rc_names[i].name;
	return "?";
}

/* Accepts "NOT_SUPPORTED" and "NVML_ERROR_NOT_SUPPORTED". */
int fake_rc_lookup(const char *name, nvmlReturn_t *rc)
{
	if (strncmp(name, "NVML_ERROR_", 11) == 0)
		name += 11;
	for (size_t i = 0; i < sizeof(rc_names) / sizeof(rc_names[0]); i++) {
		if (strcmp(rc_names[i].name, name) == 0) {
			*rc = rc_names[i].rc;
			return 0;
		}
	}
	return -1;
}

static double floor_d(double v)
{
	double i;

	if (v >= 9007199254740992.0 || v <= -9007199254740992.0)
		return v; /* already integral */
	i = (double)(long long)v;
	return i > v ? i - 1 : i;
}

/* sin(2 pi x), by reduction to [-pi, pi) and a Taylor series (error below
 * 1e-6, plenty for a synthetic metric). */
static double sin_turns(double x)
{
	const double pi = 3.14159265358979323846;
	double a = (x - floor_d(x)) * 2 * pi - pi; /* sin(a + pi) = -sin(a) */
	double term = a, sum = a;

	for (int n = 1; n < 12; n++) {
		term *= -a * a / (double)((2 * n) * (2 * n + 1));
		sum += term;
	}
	return -sum;
}

nvmlReturn_t fake_eval(const struct fake_expr *e, double t, double *out)
{

	if (t < 0)
		t = 0;
	switch (e->kind) {
	case EXPR_UNSET:
		return NVML_ERROR_NOT_SUPPORTED;
	case EXPR_ERROR:
		return e->rc;
	case EXPR_CONST:
		*out = e->a;
		return NVML_SUCCESS;
	case EXPR_RAMP:
		*out = t >= e->c ? e->b : e->a + (e->b - e->a) * t / e->c;
		return NVML_SUCCESS;
	case EXPR_SINE:
		*out = e->a + e->b * sin_turns(t / e->c);
		return NVML_SUCCESS;
	case EXPR_COUNTER:
		/* floor keeps a counter monotonic and integral */
		*out = floor_d(e->a + e->b * t);
		return NVML_SUCCESS;
	}
	return NVML_ERROR_UNKNOWN;
}

static unsigned int to_uint(double v)
{
	if (!(v > 0))
		return 0;
	if (v >= (double)UINT_MAX)
		return UINT_MAX;
	return (unsigned int)(v + 0.5);
}

static unsigned long long to_ull(double v)
{
	if (!(v > 0))
		return 0;
	if (v >= 18446744073709549568.0)
		return ULLONG_MAX;
	return (unsigned long long)(v + 0.5);
}

static int to_int(double v)
{
	if (v <= (double)INT_MIN)
		return INT_MIN;
	if (v >= (double)INT_MAX)
		return INT_MAX;
	return (int)floor_d(v + 0.5);
}

/* The time e is to be evaluated at: the call's time for an expression that
 * moves with it, 0 (never read) for a constant, an error or an unset key. */
double fake_expr_time(const struct fake_call *c, const struct fake_expr *e)
{
	switch (e->kind) {
	case EXPR_RAMP:
	case EXPR_SINE:
	case EXPR_COUNTER:
		return fake_call_time(c);
	default:
		return 0;
	}
}

nvmlReturn_t fake_get_u_at(const struct fake_dev *d, enum fake_key k, double t,
                           unsigned int *out)
{
	double v = 0;
	nvmlReturn_t rc = fake_eval(&d->e[k], t, &v);

	if (rc == NVML_SUCCESS)
		*out = to_uint(v);
	return rc;
}

nvmlReturn_t fake_get_u(const struct fake_call *c, enum fake_key k,
                        unsigned int *out)
{
	return fake_get_u_at(c->dev, k, fake_expr_time(c, &c->dev->e[k]), out);
}

nvmlReturn_t fake_get_ull(const struct fake_call *c, enum fake_key k,
                          unsigned long long *out)
{
	const struct fake_expr *e = &c->dev->e[k];
	double v = 0;
	nvmlReturn_t rc = fake_eval(e, fake_expr_time(c, e), &v);

	if (rc == NVML_SUCCESS)
		*out = to_ull(v);
	return rc;
}

nvmlReturn_t fake_get_i(const struct fake_call *c, enum fake_key k, int *out)
{
	const struct fake_expr *e = &c->dev->e[k];
	double v = 0;
	nvmlReturn_t rc = fake_eval(e, fake_expr_time(c, e), &v);

	if (rc == NVML_SUCCESS)
		*out = to_int(v);
	return rc;
}

int fake_key_is_set(const struct fake_dev *d, enum fake_key k)
{
	return d->e[k].kind != EXPR_UNSET;
}

void fake_set_const(struct fake_expr *e, double v)
{
	memset(e, 0, sizeof(*e));
	e->kind = EXPR_CONST;
	e->a = v;
}

/* Enforced = requested limit, lowered by an out-of-band (BMC) cap. */
nvmlReturn_t fake_enforced_limit(const struct fake_call *c, unsigned int *out)
{
	unsigned int limit = 0, cap = 0;
	nvmlReturn_t rc = fake_get_u(c, K_POWER_LIMIT, &limit);

	if (rc != NVML_SUCCESS)
		return rc;
	if (fake_get_u(c, K_POWER_OOB_CAP, &cap) == NVML_SUCCESS && cap < limit)
		limit = cap;
	*out = limit;
	return NVML_SUCCESS;
}

/* Whole-GPU utilization and per-process sampling do not exist while MIG
 * is on (hdr). */
int fake_mig_enabled(const struct fake_call *c)
{
	unsigned int mode = 0;

	return fake_get_u(c, K_MIG_MODE, &mode) == NVML_SUCCESS && mode == 1;
}

nvmlReturn_t fake_copy_str(const char *src, char *dst, unsigned int length)
{
	size_t n = strlen(src);

	if (dst == NULL)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (n + 1 > length)
		return NVML_ERROR_INSUFFICIENT_SIZE;
	memcpy(dst, src, n + 1);
	return NVML_SUCCESS;
}

nvmlReturn_t fake_copy_text(const struct fake_text *src, char *dst,
                            unsigned int length)
{
	if (!src->set)
		return NVML_ERROR_NOT_SUPPORTED;
	if (src->rc != NVML_SUCCESS)
		return src->rc;
	return fake_copy_str(src->s, dst, length);
}

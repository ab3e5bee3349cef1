/* SPDX-License-Identifier: MIT */
/*
 * test_amdgpu_libdrm.c - the "fill only what sysfs left missing" logic of
 * the libdrm_amdgpu sensor queries (amdgpu_libdrm.c), driven by a fake
 * query function: which sensors are asked, the unit conversions, what a
 * failing sensor leaves, and that a complete sample asks nothing. No real
 * device is needed (nor opened).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <amdgpu_drm.h> /* libdrm's: the AMDGPU_INFO_SENSOR_* ids */
#include <errno.h>
#include <string.h>

#include "collectors/amdgpu_libdrm.h"
#include "core/model.h"

#define NSENS 32

/* What the fake device answers, and what it was asked. */
struct fake {
	uint32_t value[NSENS];
	int rc[NSENS]; /* 0: answers; else this error */
	int calls[NSENS];
	int total;
};

static int fake_query(void *ctx, unsigned sensor, uint32_t *value)
{
	struct fake *f = ctx;
	assert_true(sensor < NSENS);
	f->calls[sensor]++;
	f->total++;
	if (f->rc[sensor])
		return f->rc[sensor];
	*value = f->value[sensor];
	return 0;
}

/* A device that answers everything plausibly; unknown ids: -EINVAL. */
static void fake_init(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	for (int i = 0; i < NSENS; i++)
		f->rc[i] = -EINVAL;
	f->rc[AMDGPU_INFO_SENSOR_GFX_SCLK] = 0;
	f->value[AMDGPU_INFO_SENSOR_GFX_SCLK] = 2105; /* MHz */
	f->rc[AMDGPU_INFO_SENSOR_GFX_MCLK] = 0;
	f->value[AMDGPU_INFO_SENSOR_GFX_MCLK] = 1000; /* MHz */
	f->rc[AMDGPU_INFO_SENSOR_GPU_TEMP] = 0;
	f->value[AMDGPU_INFO_SENSOR_GPU_TEMP] = 56000; /* m°C */
	f->rc[AMDGPU_INFO_SENSOR_GPU_LOAD] = 0;
	f->value[AMDGPU_INFO_SENSOR_GPU_LOAD] = 87; /* % */
	f->rc[AMDGPU_INFO_SENSOR_GPU_AVG_POWER] = 0;
	f->value[AMDGPU_INFO_SENSOR_GPU_AVG_POWER] = 211; /* W */
}

/* A sample where sysfs gave every value a sensor could. */
static void full_sample(struct gt_sample *s)
{
	gt_sample_init(s);
	gt_val_set(&s->f[GT_F_UTIL_GPU], 5000);
	gt_val_set(&s->f[GT_F_CLK_GRAPHICS], 500);
	gt_val_set(&s->f[GT_F_CLK_MEM], 96);
	gt_val_set(&s->f[GT_F_TEMP_GPU], 40000);
	gt_val_set(&s->f[GT_F_POWER_DRAW], 30000);
}

static void test_complete_sample_asks_nothing(void **state)
{
	(void)state;
	struct fake f;
	struct gt_sample s;

	fake_init(&f);
	full_sample(&s);
	assert_int_equal(gt_amdgpu_drm_wanted(&s), 0);
	assert_int_equal(gt_amdgpu_drm_fill(&s, fake_query, &f), 0);
	assert_int_equal(f.total, 0);
	/* sysfs's values stand */
	assert_int_equal(s.f[GT_F_CLK_GRAPHICS].v, 500);
	assert_int_equal(s.f[GT_F_POWER_DRAW].v, 30000);
}

static void test_fills_only_what_is_missing(void **state)
{
	(void)state;
	struct fake f;
	struct gt_sample s;

	fake_init(&f);
	full_sample(&s);
	gt_val_fail(&s.f[GT_F_CLK_GRAPHICS], GT_WHY_NO_SENSOR, 0);
	gt_val_fail(&s.f[GT_F_POWER_DRAW], GT_WHY_NO_SENSOR, 0);
	assert_true(gt_amdgpu_drm_wanted(&s) > 0);
	assert_int_equal(gt_amdgpu_drm_fill(&s, fake_query, &f), 2);
	assert_int_equal(f.calls[AMDGPU_INFO_SENSOR_GFX_SCLK], 1);
	assert_int_equal(f.calls[AMDGPU_INFO_SENSOR_GPU_AVG_POWER], 1);
	assert_int_equal(f.calls[AMDGPU_INFO_SENSOR_GFX_MCLK], 0);
	assert_int_equal(f.calls[AMDGPU_INFO_SENSOR_GPU_TEMP], 0);
	assert_int_equal(f.calls[AMDGPU_INFO_SENSOR_GPU_LOAD], 0);
	/* MHz stays MHz; watts become mW */
	assert_true(gt_val_ok(&s.f[GT_F_CLK_GRAPHICS]));
	assert_int_equal(s.f[GT_F_CLK_GRAPHICS].v, 2105);
	assert_true(gt_val_ok(&s.f[GT_F_POWER_DRAW]));
	assert_int_equal(s.f[GT_F_POWER_DRAW].v, 211000);
	/* the others are untouched */
	assert_int_equal(s.f[GT_F_CLK_MEM].v, 96);
	assert_int_equal(s.f[GT_F_TEMP_GPU].v, 40000);
	/* nothing is missing any more */
	assert_int_equal(gt_amdgpu_drm_wanted(&s), 0);
}

static void test_every_sensor_and_unit(void **state)
{
	(void)state;
	struct fake f;
	struct gt_sample s;

	fake_init(&f);
	gt_sample_init(&s); /* everything "not collected" */
	assert_int_equal(gt_amdgpu_drm_fill(&s, fake_query, &f), 5);
	assert_int_equal(s.f[GT_F_UTIL_GPU].v, 8700); /* % -> cpercent */
	assert_int_equal(s.f[GT_F_CLK_GRAPHICS].v, 2105);
	assert_int_equal(s.f[GT_F_CLK_MEM].v, 1000);
	assert_int_equal(s.f[GT_F_TEMP_GPU].v, 56000); /* m°C as is */
	assert_int_equal(s.f[GT_F_POWER_DRAW].v, 211000);
	/* fields no sensor serves are left alone */
	assert_int_equal(s.f[GT_F_TEMP_HOTSPOT].why, GT_WHY_NOT_COLLECTED);
	assert_int_equal(s.f[GT_F_MEM_USED].why, GT_WHY_NOT_COLLECTED);
	/* VDDNB / VDDGFX have no field: never asked */
	assert_int_equal(f.calls[AMDGPU_INFO_SENSOR_VDDNB], 0);
	assert_int_equal(f.calls[AMDGPU_INFO_SENSOR_VDDGFX], 0);
}

static void test_failing_sensor_keeps_reason(void **state)
{
	(void)state;
	struct fake f;
	struct gt_sample s;

	fake_init(&f);
	full_sample(&s);
	/* APUs answer GFX_MCLK with an error */
	f.rc[AMDGPU_INFO_SENSOR_GFX_MCLK] = -EINVAL;
	gt_val_fail(&s.f[GT_F_CLK_MEM], GT_WHY_UNSUPPORTED_DEVICE, 0);
	/* DPM disabled: -ENOENT */
	f.rc[AMDGPU_INFO_SENSOR_GPU_TEMP] = -ENOENT;
	gt_val_fail(&s.f[GT_F_TEMP_GPU], GT_WHY_DRIVER_ERROR, EIO);
	assert_int_equal(gt_amdgpu_drm_fill(&s, fake_query, &f), 0);
	assert_int_equal(f.calls[AMDGPU_INFO_SENSOR_GFX_MCLK], 1);
	assert_int_equal(s.f[GT_F_CLK_MEM].why, GT_WHY_UNSUPPORTED_DEVICE);
	assert_int_equal(s.f[GT_F_TEMP_GPU].why, GT_WHY_DRIVER_ERROR);
	assert_int_equal(s.f[GT_F_TEMP_GPU].code, EIO);
}

static void test_lower_bound_busy_replaced(void **state)
{
	(void)state;
	struct fake f;
	struct gt_sample s;

	/* SI: no gpu_busy_percent, busy summed from readable fdinfo */
	fake_init(&f);
	full_sample(&s);
	gt_val_set(&s.f[GT_F_UTIL_GPU], 1200);
	s.util_gpu_lower_bound = true;
	assert_int_equal(gt_amdgpu_drm_wanted(&s), 1);
	assert_int_equal(gt_amdgpu_drm_fill(&s, fake_query, &f), 1);
	assert_int_equal(s.f[GT_F_UTIL_GPU].v, 8700);
	assert_false(s.util_gpu_lower_bound);

	/* the sensor failing keeps the lower bound as it was */
	fake_init(&f);
	f.rc[AMDGPU_INFO_SENSOR_GPU_LOAD] = -EINVAL;
	gt_val_set(&s.f[GT_F_UTIL_GPU], 1200);
	s.util_gpu_lower_bound = true;
	assert_int_equal(gt_amdgpu_drm_fill(&s, fake_query, &f), 0);
	assert_int_equal(s.f[GT_F_UTIL_GPU].v, 1200);
	assert_true(s.util_gpu_lower_bound);
}

static void test_power_fallback(void **state)
{
	(void)state;
	struct fake f;
	struct gt_sample s;

	/* 6.6-era kernels refuse the average on boards with only an
	 * instantaneous power reading (nvtop #244). */
	fake_init(&f);
	full_sample(&s);
	gt_val_fail(&s.f[GT_F_POWER_DRAW], GT_WHY_NO_SENSOR, 0);
	f.rc[AMDGPU_INFO_SENSOR_GPU_AVG_POWER] = -EINVAL;
#ifdef AMDGPU_INFO_SENSOR_GPU_INPUT_POWER
	f.rc[AMDGPU_INFO_SENSOR_GPU_INPUT_POWER] = 0;
	f.value[AMDGPU_INFO_SENSOR_GPU_INPUT_POWER] = 64;
	assert_int_equal(gt_amdgpu_drm_fill(&s, fake_query, &f), 1);
	assert_int_equal(s.f[GT_F_POWER_DRAW].v, 64000);
#else
	/* Headers older than Linux 6.6's (libdrm 2.4.114): no such id. */
	assert_int_equal(gt_amdgpu_drm_fill(&s, fake_query, &f), 0);
	assert_int_equal(s.f[GT_F_POWER_DRAW].why, GT_WHY_NO_SENSOR);
	assert_int_equal(f.total, 1);
#endif

	/* the average answering: the input power is not asked */
	fake_init(&f);
	gt_val_fail(&s.f[GT_F_POWER_DRAW], GT_WHY_NO_SENSOR, 0);
	assert_int_equal(gt_amdgpu_drm_fill(&s, fake_query, &f), 1);
	assert_int_equal(s.f[GT_F_POWER_DRAW].v, 211000);
	assert_int_equal(f.total, 1);
}

static void test_odd_answers(void **state)
{
	(void)state;
	struct fake f;
	struct gt_sample s;

	fake_init(&f);
	gt_sample_init(&s);
	/* below freezing: a signed value in the u32 */
	f.value[AMDGPU_INFO_SENSOR_GPU_TEMP] = (uint32_t)-5000;
	/* a load above 100 % is no reading */
	f.value[AMDGPU_INFO_SENSOR_GPU_LOAD] = 255;
	gt_amdgpu_drm_fill(&s, fake_query, &f);
	assert_true(gt_val_ok(&s.f[GT_F_TEMP_GPU]));
	assert_int_equal(s.f[GT_F_TEMP_GPU].v, -5000);
	assert_false(gt_val_ok(&s.f[GT_F_UTIL_GPU]));
	assert_int_equal(s.f[GT_F_UTIL_GPU].why, GT_WHY_NOT_COLLECTED);
}

static void test_open_failure(void **state)
{
	(void)state;
	struct gt_amdgpu_drm *h = (struct gt_amdgpu_drm *)&h;
	/* no such node */
	assert_int_equal(gt_amdgpu_drm_open("/nonexistent/renderD128", &h),
	                 -ENOENT);
	assert_null(h);
	/* a file that is no amdgpu device: libdrm_amdgpu refuses it */
	assert_true(gt_amdgpu_drm_open("/dev/null", &h) < 0);
	assert_null(h);
	gt_amdgpu_drm_close(NULL); /* safe */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_complete_sample_asks_nothing),
	    cmocka_unit_test(test_fills_only_what_is_missing),
	    cmocka_unit_test(test_every_sensor_and_unit),
	    cmocka_unit_test(test_failing_sensor_keeps_reason),
	    cmocka_unit_test(test_lower_bound_busy_replaced),
	    cmocka_unit_test(test_power_fallback),
	    cmocka_unit_test(test_odd_answers),
	    cmocka_unit_test(test_open_failure),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

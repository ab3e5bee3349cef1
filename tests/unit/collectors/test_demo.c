/* SPDX-License-Identifier: MIT */
/*
 * test_demo.c - the simulated machine of --demo: reproducible per seed,
 * complete (every field valid or given a reason), plausible, and with the
 * dynamics the dashboard is meant to show off.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "collectors/registry.h"
#include "core/backend.h"
#include "core/model.h"

#define NDEV  4
#define TICKS 600

/* Fan slots past fan_count get this; the backend must leave them alone. */
#define FAN_SENTINEL INT64_C(-424242)

/* Everything one run of the demo backend produced. */
struct trace {
	struct gt_static st[NDEV];
	struct gt_sample *s;   /* TICKS * NDEV, [tick * NDEV + dev] */
	struct gt_proc_vec *p; /* TICKS lists, all devices, device_index set */
	int ticks;
	char detail[GT_DETAIL_LEN];
};

static const struct gt_sample *smp(const struct trace *tr, int tick,
                                   unsigned dev)
{
	return &tr->s[(size_t)tick * NDEV + dev];
}

static int64_t fv(const struct trace *tr, int tick, unsigned dev, int field)
{
	return smp(tr, tick, dev)->f[field].v;
}

static bool fok(const struct trace *tr, int tick, unsigned dev, int field)
{
	return gt_val_ok(&smp(tr, tick, dev)->f[field]);
}

static void open_demo(struct gt_backend *b, uint64_t seed)
{
	struct gt_backend_options opt = {0};
	opt.demo_seed = seed;
	memset(b, 0, sizeof(*b));
	b->ops = &gt_demo_backend;
	b->ops->probe(b, &opt);
	assert_int_equal(b->status, GT_BACKEND_OK);
	assert_int_equal(b->device_count, NDEV);
	assert_non_null(b->priv);
}

/* Drives the backend the way the collector does: statics once, then per
 * tick every device's sample followed by every device's processes. */
static void trace_run(struct trace *tr, uint64_t seed, int ticks)
{
	struct gt_backend b;

	memset(tr, 0, sizeof(*tr));
	open_demo(&b, seed);
	memcpy(tr->detail, b.detail, sizeof(tr->detail));
	tr->ticks = ticks;
	tr->s = calloc((size_t)ticks * NDEV, sizeof(*tr->s));
	tr->p = calloc((size_t)ticks, sizeof(*tr->p));
	assert_non_null(tr->s);
	assert_non_null(tr->p);
	for (unsigned d = 0; d < NDEV; d++) {
		gt_static_init(&tr->st[d]);
		assert_int_equal(b.ops->get_static(&b, d, &tr->st[d]), 0);
	}
	for (int t = 0; t < ticks; t++) {
		for (unsigned d = 0; d < NDEV; d++) {
			struct gt_sample *s = &tr->s[(size_t)t * NDEV + d];
			gt_sample_init(s);
			for (int i = 0; i < GT_MAX_FANS; i++) {
				s->f[GT_F_FAN_PERCENT0 + i].v = FAN_SENTINEL;
				s->f[GT_F_FAN_RPM0 + i].v = FAN_SENTINEL;
			}
			assert_int_equal(b.ops->sample(&b, d, s, t % 5 == 0),
			                 0);
		}
		for (unsigned d = 0; d < NDEV; d++) {
			size_t first = tr->p[t].count;
			assert_int_equal(b.ops->processes(&b, d, &tr->p[t]), 0);
			for (size_t j = first; j < tr->p[t].count; j++)
				tr->p[t].items[j].device_index = d;
		}
	}
	b.ops->shutdown(&b);
	assert_null(b.priv);
}

static void trace_free(struct trace *tr)
{
	for (int t = 0; t < tr->ticks; t++)
		gt_proc_vec_free(&tr->p[t]);
	free(tr->p);
	free(tr->s);
}

static void check_range(int64_t v, int64_t lo, int64_t hi, const char *what,
                        unsigned dev, int tick)
{
	if (v < lo || v > hi)
		fail_msg("%s = %lld not in [%lld, %lld] (device %u, tick %d)",
		         what, (long long)v, (long long)lo, (long long)hi, dev,
		         tick);
}

static void check_why(const struct gt_val *val, const char *what, unsigned dev,
                      int index)
{
	if (val->why != GT_WHY_OK && val->why != GT_WHY_UNSUPPORTED_DEVICE)
		fail_msg("%s %d of device %u has why %d: neither set nor "
		         "failed with a reason",
		         what, index, dev, val->why);
}

static void test_probe_and_lifecycle(void **state)
{
	(void)state;
	struct gt_backend b;
	struct gt_static st;
	struct gt_sample s;
	struct gt_proc_vec v = {0};

	assert_string_equal(gt_demo_backend.name, "demo");
	open_demo(&b, 12345);
	assert_non_null(strstr(b.detail, "DEMO"));
	assert_non_null(strstr(b.detail, "seed 12345"));
	gt_static_init(&st);
	gt_sample_init(&s);
	assert_int_equal(b.ops->get_static(&b, NDEV, &st), -1);
	assert_int_equal(b.ops->sample(&b, NDEV, &s, 0), -1);
	assert_int_equal(b.ops->processes(&b, NDEV, &v), -1);
	assert_int_equal(v.count, 0);
	(void)b.ops->error_text(&b, 3); /* NULL or a fixed string: no crash */
	b.ops->shutdown(&b);
	assert_null(b.priv);
	b.ops->shutdown(&b); /* again, as after a failed probe */
	gt_proc_vec_free(&v);
}

static void test_static_facts(void **state)
{
	(void)state;
	struct gt_backend b;
	struct gt_static st[NDEV];
	bool vendor_seen[4] = {false};
	int integrated = 0;

	open_demo(&b, 7);
	for (unsigned d = 0; d < NDEV; d++) {
		gt_static_init(&st[d]);
		assert_int_equal(b.ops->get_static(&b, d, &st[d]), 0);
		const struct gt_static *s = &st[d];
		assert_true(s->demo);
		assert_true(strlen(s->name) > 4);
		assert_true(strlen(s->driver) > 0);
		assert_true(strlen(s->driver_version) > 0);
		assert_true(strlen(s->architecture) > 0);
		assert_int_equal(strncmp(s->id, "pci:", 4), 0);
		assert_string_equal(s->id + 4, s->pci_bus_id);
		assert_int_not_equal(s->pci_vendor_id, 0);
		assert_int_not_equal(s->pci_device_id, 0);
		assert_in_range(s->vendor, GT_VENDOR_NVIDIA, GT_VENDOR_INTEL);
		vendor_seen[s->vendor] = true;
		for (unsigned e = 0; e < d; e++) {
			assert_string_not_equal(s->id, st[e].id);
			assert_string_not_equal(s->name, st[e].name);
		}
		for (int i = 0; i < GT_S__COUNT; i++)
			check_why(&s->f[i], "static field", d, i);
		assert_true(gt_val_ok(&s->f[GT_S_VRAM_TOTAL]));
		assert_true(s->f[GT_S_VRAM_TOTAL].v >=
		            256 * (INT64_C(1) << 20));
		assert_true(gt_val_ok(&s->f[GT_S_FAN_COUNT]));
		assert_in_range(s->f[GT_S_FAN_COUNT].v, 0, GT_MAX_FANS);
		assert_true(gt_val_ok(&s->f[GT_S_CLK_GRAPHICS_MAX]));
		if (gt_val_ok(&s->f[GT_S_POWER_MIN]) &&
		    gt_val_ok(&s->f[GT_S_POWER_MAX])) {
			assert_true(s->f[GT_S_POWER_MIN].v <=
			            s->f[GT_S_POWER_DEFAULT].v);
			assert_true(s->f[GT_S_POWER_DEFAULT].v <=
			            s->f[GT_S_POWER_MAX].v);
		}
		if (gt_val_ok(&s->f[GT_S_TEMP_SLOWDOWN]))
			assert_true(s->f[GT_S_TEMP_SLOWDOWN].v <
			            s->f[GT_S_TEMP_SHUTDOWN].v);
		if (s->vendor == GT_VENDOR_NVIDIA) {
			assert_int_equal(s->pci_vendor_id, 0x10DE);
			assert_int_equal(strncmp(s->uuid, "GPU-", 4), 0);
			assert_int_equal(strlen(s->uuid), 40);
			assert_true(gt_val_ok(&s->f[GT_S_CC_MAJOR]));
			assert_true(gt_val_ok(&s->f[GT_S_ECC_MODE]));
			assert_int_equal(s->f[GT_S_FAN_COUNT].v, 0);
		}
		if (s->integrated) {
			integrated++;
			assert_int_equal(s->vendor, GT_VENDOR_AMD);
			assert_int_equal(s->f[GT_S_PCIE_MAX_GEN].why,
			                 GT_WHY_UNSUPPORTED_DEVICE);
			assert_int_equal(s->f[GT_S_FAN_COUNT].v, 0);
			assert_true(s->f[GT_S_VRAM_TOTAL].v <=
			            2 * (INT64_C(1) << 30));
		} else {
			assert_true(gt_val_ok(&s->f[GT_S_PCIE_MAX_GEN]));
			assert_true(gt_val_ok(&s->f[GT_S_PCIE_MAX_WIDTH]));
		}
	}
	assert_true(vendor_seen[GT_VENDOR_NVIDIA]);
	assert_true(vendor_seen[GT_VENDOR_AMD]);
	assert_true(vendor_seen[GT_VENDOR_INTEL]);
	assert_int_equal(integrated, 1);
	b.ops->shutdown(&b);
}

static void assert_val_equal(const struct gt_val *a, const struct gt_val *b)
{
	assert_int_equal(a->why, b->why);
	assert_int_equal(a->code, b->code);
	assert_true(a->v == b->v);
}

static void test_same_seed_is_identical(void **state)
{
	(void)state;
	struct trace a, b;

	trace_run(&a, 99, 300);
	trace_run(&b, 99, 300);
	for (unsigned d = 0; d < NDEV; d++) {
		assert_string_equal(a.st[d].uuid, b.st[d].uuid);
		for (int i = 0; i < GT_S__COUNT; i++)
			assert_val_equal(&a.st[d].f[i], &b.st[d].f[i]);
	}
	for (int t = 0; t < a.ticks; t++) {
		for (unsigned d = 0; d < NDEV; d++) {
			assert_int_equal(smp(&a, t, d)->fan_count,
			                 smp(&b, t, d)->fan_count);
			assert_int_equal(smp(&a, t, d)->state,
			                 smp(&b, t, d)->state);
			for (int i = 0; i < GT_F__COUNT; i++)
				assert_val_equal(&smp(&a, t, d)->f[i],
				                 &smp(&b, t, d)->f[i]);
		}
		assert_int_equal(a.p[t].count, b.p[t].count);
		for (size_t j = 0; j < a.p[t].count; j++) {
			const struct gt_process *x = &a.p[t].items[j];
			const struct gt_process *y = &b.p[t].items[j];
			assert_int_equal(x->pid, y->pid);
			assert_int_equal(x->uid, y->uid);
			assert_int_equal(x->type, y->type);
			assert_int_equal(x->device_index, y->device_index);
			assert_string_equal(x->user, y->user);
			assert_string_equal(x->name, y->name);
			assert_string_equal(x->container, y->container);
			assert_string_equal(x->cmdline, y->cmdline);
			for (int i = 0; i < GT_P__COUNT; i++)
				assert_val_equal(&x->f[i], &y->f[i]);
		}
	}
	trace_free(&a);
	trace_free(&b);
}

static void test_different_seed_differs(void **state)
{
	(void)state;
	struct trace a, b;
	static const int dynamic[] = {GT_F_UTIL_GPU, GT_F_POWER_DRAW,
	                              GT_F_MEM_USED, GT_F_ENERGY};
	size_t proc_diff = 0;

	trace_run(&a, 1, 200);
	trace_run(&b, 2, 200);
	for (unsigned d = 0; d < NDEV; d++) {
		for (size_t k = 0; k < sizeof(dynamic) / sizeof(dynamic[0]);
		     k++) {
			int f = dynamic[k], diff = 0;
			if (!fok(&a, 0, d, f))
				continue;
			for (int t = 0; t < a.ticks; t++)
				diff += fv(&a, t, d, f) != fv(&b, t, d, f);
			if (diff < a.ticks / 2)
				fail_msg("device %u field %d: only %d of %d "
				         "ticks differ between seeds",
				         d, f, diff, a.ticks);
		}
	}
	for (int t = 0; t < a.ticks; t++)
		for (size_t j = 0; j < a.p[t].count && j < b.p[t].count; j++)
			proc_diff += a.p[t].items[j].f[GT_P_GPU].v !=
			             b.p[t].items[j].f[GT_P_GPU].v;
	assert_true(proc_diff > (size_t)a.ticks);
	trace_free(&a);
	trace_free(&b);
}

static void test_every_field_valid_or_reasoned(void **state)
{
	(void)state;
	struct trace tr;

	trace_run(&tr, 3, 120);
	for (unsigned d = 0; d < NDEV; d++) {
		const struct gt_static *st = &tr.st[d];
		for (int t = 0; t < tr.ticks; t++) {
			const struct gt_sample *s = smp(&tr, t, d);
			assert_int_equal(s->state, GT_DEV_OK);
			assert_int_equal(s->fan_count, st->f[GT_S_FAN_COUNT].v);
			for (int i = 0; i < GT_F_FAN_PERCENT0; i++) {
				check_why(&s->f[i], "sample field", d, i);
				/* What a device lacks never flickers. */
				assert_int_equal(s->f[i].why,
				                 smp(&tr, 0, d)->f[i].why);
			}
			for (int i = 0; i < GT_MAX_FANS; i++) {
				const struct gt_val *pct =
				    &s->f[GT_F_FAN_PERCENT0 + i];
				const struct gt_val *rpm =
				    &s->f[GT_F_FAN_RPM0 + i];
				if (i < s->fan_count) {
					check_why(pct, "fan percent", d, i);
					assert_true(gt_val_ok(rpm));
				} else {
					assert_true(pct->v == FAN_SENTINEL);
					assert_true(rpm->v == FAN_SENTINEL);
					assert_int_equal(pct->why,
					                 GT_WHY_NOT_COLLECTED);
				}
			}
		}
		/* The always-there basics of every device. */
		assert_true(fok(&tr, 0, d, GT_F_UTIL_GPU));
		assert_true(fok(&tr, 0, d, GT_F_MEM_USED));
		assert_true(fok(&tr, 0, d, GT_F_TEMP_GPU));
		assert_true(fok(&tr, 0, d, GT_F_POWER_DRAW));
		assert_true(fok(&tr, 0, d, GT_F_CLK_GRAPHICS));
		assert_true(fok(&tr, 0, d, GT_F_THROTTLE));
		switch (st->vendor) {
		case GT_VENDOR_NVIDIA:
			assert_true(
			    fok(&tr, 0, d, GT_F_ECC_CORRECTED_AGGREGATE));
			assert_true(fok(&tr, 0, d, GT_F_PCIE_RX));
			assert_true(fok(&tr, 0, d, GT_F_PSTATE));
			break;
		case GT_VENDOR_INTEL:
			assert_int_equal(smp(&tr, 0, d)->f[GT_F_UTIL_MEMBW].why,
			                 GT_WHY_UNSUPPORTED_DEVICE);
			assert_true(fok(&tr, 0, d, GT_F_UTIL_DEC));
			assert_true(fok(&tr, 0, d, GT_F_UTIL_ENC));
			break;
		default:
			break;
		}
		if (st->integrated)
			assert_int_equal(smp(&tr, 0, d)->f[GT_F_PCIE_GEN].why,
			                 GT_WHY_UNSUPPORTED_DEVICE);
	}
	trace_free(&tr);
}

/* Utilisation, fans and memory of one sample: within their ranges, and
 * the memory adding up. */
static void check_load(const struct trace *tr, int t, unsigned d)
{
	const struct gt_static *st = &tr->st[d];
	const struct gt_sample *s = smp(tr, t, d);
	static const int pct[] = {GT_F_UTIL_GPU, GT_F_UTIL_MEMBW, GT_F_UTIL_ENC,
	                          GT_F_UTIL_DEC};
	for (size_t k = 0; k < sizeof(pct) / sizeof(pct[0]); k++)
		if (fok(tr, t, d, pct[k]))
			check_range(s->f[pct[k]].v, 0, 10000, "utilisation", d,
			            t);
	for (int i = 0; i < s->fan_count; i++) {
		if (gt_val_ok(&s->f[GT_F_FAN_PERCENT0 + i]))
			check_range(s->f[GT_F_FAN_PERCENT0 + i].v, 0, 10000,
			            "fan %", d, t);
		check_range(s->f[GT_F_FAN_RPM0 + i].v, 0, 5000, "fan rpm", d,
		            t);
	}

	int64_t total = fv(tr, t, d, GT_F_MEM_TOTAL);
	int64_t used = fv(tr, t, d, GT_F_MEM_USED);
	int64_t reserved = fok(tr, t, d, GT_F_MEM_RESERVED)
	                       ? fv(tr, t, d, GT_F_MEM_RESERVED)
	                       : 0;
	assert_true(total == st->f[GT_S_VRAM_TOTAL].v);
	check_range(used, 1, total - reserved, "memory used", d, t);
	assert_true(used + fv(tr, t, d, GT_F_MEM_FREE) + reserved == total);
}

/* Temperatures, power and energy of one sample: in range, no jumps, the
 * energy counting the power drawn. */
static void check_thermal_power(const struct trace *tr, int t, unsigned d)
{
	const struct gt_static *st = &tr->st[d];

	check_range(fv(tr, t, d, GT_F_TEMP_GPU), 20000, 110000, "temperature",
	            d, t);
	if (fok(tr, t, d, GT_F_TEMP_HOTSPOT)) {
		check_range(fv(tr, t, d, GT_F_TEMP_HOTSPOT), 20000, 110000,
		            "hotspot", d, t);
		assert_true(fv(tr, t, d, GT_F_TEMP_HOTSPOT) >=
		            fv(tr, t, d, GT_F_TEMP_GPU));
	}
	if (fok(tr, t, d, GT_F_TEMP_MEM))
		check_range(fv(tr, t, d, GT_F_TEMP_MEM), 20000, 110000,
		            "memory temp", d, t);
	if (t > 0) /* heat capacity: no jumps */
		check_range(fv(tr, t, d, GT_F_TEMP_GPU) -
		                fv(tr, t - 1, d, GT_F_TEMP_GPU),
		            -3000, 3000, "temperature step", d, t);

	int64_t draw = fv(tr, t, d, GT_F_POWER_DRAW);
	check_range(draw, 1000, 1000000, "power", d, t);
	if (fok(tr, t, d, GT_F_POWER_ENFORCED))
		check_range(draw, 0,
		            fv(tr, t, d, GT_F_POWER_ENFORCED) * 11 / 10,
		            "power over enforced limit", d, t);
	if (fok(tr, t, d, GT_F_POWER_LIMIT) &&
	    gt_val_ok(&st->f[GT_S_POWER_MIN]))
		check_range(fv(tr, t, d, GT_F_POWER_LIMIT),
		            st->f[GT_S_POWER_MIN].v, st->f[GT_S_POWER_MAX].v,
		            "power limit", d, t);
	if (fok(tr, t, d, GT_F_ENERGY) && t > 0)
		/* one simulated second of the drawn power */
		assert_true(fv(tr, t, d, GT_F_ENERGY) -
		                fv(tr, t - 1, d, GT_F_ENERGY) ==
		            draw);
}

/* Clocks, the PCIe link, the P-state and the ECC counters of one sample:
 * within the device's limits, the counters never going back. */
static void check_clocks_link(const struct trace *tr, int t, unsigned d)
{
	const struct gt_static *st = &tr->st[d];

	check_range(fv(tr, t, d, GT_F_CLK_GRAPHICS), 1,
	            st->f[GT_S_CLK_GRAPHICS_MAX].v, "graphics clock", d, t);
	if (fok(tr, t, d, GT_F_CLK_MEM))
		check_range(fv(tr, t, d, GT_F_CLK_MEM), 1,
		            st->f[GT_S_CLK_MEM_MAX].v, "memory clock", d, t);
	if (fok(tr, t, d, GT_F_PCIE_GEN)) {
		check_range(fv(tr, t, d, GT_F_PCIE_GEN), 1,
		            st->f[GT_S_PCIE_MAX_GEN].v, "pcie gen", d, t);
		check_range(fv(tr, t, d, GT_F_PCIE_WIDTH), 1,
		            st->f[GT_S_PCIE_MAX_WIDTH].v, "pcie width", d, t);
	}
	if (fok(tr, t, d, GT_F_PCIE_RX))
		check_range(fv(tr, t, d, GT_F_PCIE_RX), 0, INT64_C(64000000000),
		            "pcie rx", d, t);
	if (fok(tr, t, d, GT_F_PSTATE))
		check_range(fv(tr, t, d, GT_F_PSTATE), 0, 15, "pstate", d, t);
	if (fok(tr, t, d, GT_F_ECC_CORRECTED_VOLATILE)) {
		assert_true(fv(tr, t, d, GT_F_ECC_CORRECTED_AGGREGATE) >=
		            fv(tr, t, d, GT_F_ECC_CORRECTED_VOLATILE));
		if (t > 0)
			assert_true(
			    fv(tr, t, d, GT_F_ECC_CORRECTED_VOLATILE) >=
			    fv(tr, t - 1, d, GT_F_ECC_CORRECTED_VOLATILE));
	}
}

static void test_values_plausible(void **state)
{
	(void)state;
	struct trace tr;

	trace_run(&tr, 2024, TICKS);
	for (unsigned d = 0; d < NDEV; d++)
		for (int t = 0; t < tr.ticks; t++) {
			check_load(&tr, t, d);
			check_thermal_power(&tr, t, d);
			check_clocks_link(&tr, t, d);
		}
	trace_free(&tr);
}

static void test_dynamics(void **state)
{
	(void)state;
	struct trace tr;
	int capped = 0;

	trace_run(&tr, 5, TICKS);
	for (unsigned d = 0; d < NDEV; d++) {
		const struct gt_static *st = &tr.st[d];
		int64_t umin = INT64_MAX, umax = INT64_MIN;
		for (int t = 0; t < tr.ticks; t++) {
			int64_t u = fv(&tr, t, d, GT_F_UTIL_GPU);
			umin = u < umin ? u : umin;
			umax = u > umax ? u : umax;
			bool cap =
			    fv(&tr, t, d, GT_F_THROTTLE) & GT_THR_SW_POWER_CAP;
			if (cap) {
				capped++;
				/* capped power pulls the clocks below their max
				 */
				assert_true(fv(&tr, t, d, GT_F_CLK_GRAPHICS) <
				            st->f[GT_S_CLK_GRAPHICS_MAX].v *
				                97 / 100);
			} else if (st->vendor == GT_VENDOR_NVIDIA &&
			           !(fv(&tr, t, d, GT_F_THROTTLE) &
			             GT_THR_IDLE)) {
				assert_true(fv(&tr, t, d, GT_F_CLK_GRAPHICS) ==
				            st->f[GT_S_CLK_GRAPHICS_MAX].v);
			}
		}
		assert_true(umax - umin >= 500); /* the load moves */
		if (st->vendor == GT_VENDOR_NVIDIA) {
			int64_t sum = 0;
			for (int t = 0; t < tr.ticks; t++)
				sum += fv(&tr, t, d, GT_F_UTIL_GPU);
			check_range(sum / tr.ticks, 8500, 9900, "training load",
			            d, 0);
		}
	}
	/* "Now and then": present, but not the normal state. */
	check_range(capped, 1, tr.ticks * NDEV / 5, "power-capped ticks", 0, 0);

	/* Temperature follows power with a lag: compare the hottest and the
	 * coolest moment of the gaming card with its power a while before. */
	for (unsigned d = 0; d < NDEV; d++) {
		if (tr.st[d].f[GT_S_FAN_COUNT].v == 0 ||
		    !gt_val_ok(&smp(&tr, 0, d)->f[GT_F_FAN_PERCENT0]))
			continue;
		int hot = 60, cold = 60;
		for (int t = 60; t < tr.ticks; t++) {
			if (fv(&tr, t, d, GT_F_TEMP_GPU) >
			    fv(&tr, hot, d, GT_F_TEMP_GPU))
				hot = t;
			if (fv(&tr, t, d, GT_F_TEMP_GPU) <
			    fv(&tr, cold, d, GT_F_TEMP_GPU))
				cold = t;
		}
		int64_t ph = 0, pc = 0;
		for (int k = 0; k < 30; k++) {
			ph += fv(&tr, hot - k, d, GT_F_POWER_DRAW);
			pc += fv(&tr, cold - k, d, GT_F_POWER_DRAW);
		}
		assert_true(fv(&tr, hot, d, GT_F_TEMP_GPU) >
		            fv(&tr, cold, d, GT_F_TEMP_GPU) + 3000);
		assert_true(ph > pc);
		/* and the fans follow the temperature */
		assert_true(fv(&tr, hot, d, GT_F_FAN_PERCENT0) >
		            fv(&tr, cold, d, GT_F_FAN_PERCENT0));
		assert_true(fv(&tr, hot, d, GT_F_FAN_RPM0) >
		            fv(&tr, cold, d, GT_F_FAN_RPM0));
	}
	trace_free(&tr);
}

static void test_processes(void **state)
{
	(void)state;
	struct trace tr;
	bool both = false, container = false;

	trace_run(&tr, 11, 200);
	for (int t = 0; t < tr.ticks; t++) {
		const struct gt_proc_vec *v = &tr.p[t];
		/* The same processes every tick, in the same order. */
		assert_int_equal(v->count, tr.p[0].count);
		for (unsigned d = 0; d < NDEV; d++) {
			int64_t mem = 0, gpu = 0;
			size_t n = 0;
			for (size_t j = 0; j < v->count; j++) {
				const struct gt_process *p = &v->items[j];
				if (p->device_index != d)
					continue;
				n++;
				assert_int_equal(p->pid, tr.p[0].items[j].pid);
				check_range(p->pid, 2, 4194304, "pid", d, t);
				for (size_t k = 0; k < j; k++)
					if (v->items[k].device_index == d)
						assert_int_not_equal(
						    p->pid, v->items[k].pid);
				assert_true(p->host_known);
				assert_true(p->user[0] != '\0');
				assert_true(p->name[0] != '\0');
				assert_non_null(p->cmdline);
				assert_non_null(strstr(p->cmdline, p->name));
				assert_in_range(p->type, GT_PROC_COMPUTE,
				                GT_PROC_BOTH);
				both |= p->type == GT_PROC_BOTH;
				container |=
				    strncmp(p->container, "docker:", 7) == 0;
				/* Every value set, but GTT, which only
				 * AMD devices have (with its reason). */
				for (int i = 0; i < GT_P__COUNT; i++) {
					if (i == GT_P_GTT &&
					    tr.st[d].vendor != GT_VENDOR_AMD)
						assert_int_equal(
						    p->f[i].why,
						    GT_WHY_UNSUPPORTED_DEVICE);
					else
						assert_true(
						    gt_val_ok(&p->f[i]));
				}
				static const int pct[] = {GT_P_GPU, GT_P_ENC,
				                          GT_P_DEC};
				for (size_t k = 0; k < 3; k++)
					check_range(p->f[pct[k]].v, 0, 10000,
					            "process %", d, t);
				check_range(p->f[GT_P_CPU].v, 0, 64 * 10000,
				            "process cpu", d, t);
				check_range(p->f[GT_P_HOST_MEM].v, 1 << 20,
				            INT64_C(64) << 30,
				            "process host memory", d, t);
				mem += p->f[GT_P_MEM].v;
				gpu += p->f[GT_P_GPU].v;
			}
			if (tr.st[d].integrated)
				assert_true(n >= 1);
			else
				check_range((int64_t)n, 3, 6,
				            "processes per GPU", d, t);
			/* Processes happen at the moment of the latest sample.
			 */
			check_range(mem, 1, fv(&tr, t, d, GT_F_MEM_USED),
			            "process memory sum", d, t);
			check_range(gpu, 0, fv(&tr, t, d, GT_F_UTIL_GPU) + 10,
			            "process gpu sum", d, t);
		}
	}
	assert_true(both);
	assert_true(container);
	/* Process values move slowly but do move. */
	assert_true(tr.p[0].items[0].f[GT_P_GPU].v !=
	                tr.p[tr.ticks - 1].items[0].f[GT_P_GPU].v ||
	            tr.p[0].items[0].f[GT_P_MEM].v !=
	                tr.p[tr.ticks - 1].items[0].f[GT_P_MEM].v);
	trace_free(&tr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_probe_and_lifecycle),
	    cmocka_unit_test(test_static_facts),
	    cmocka_unit_test(test_same_seed_is_identical),
	    cmocka_unit_test(test_different_seed_differs),
	    cmocka_unit_test(test_every_field_valid_or_reasoned),
	    cmocka_unit_test(test_values_plausible),
	    cmocka_unit_test(test_dynamics),
	    cmocka_unit_test(test_processes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

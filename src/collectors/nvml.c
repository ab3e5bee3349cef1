/* SPDX-License-Identifier: MIT */
/*
 * nvml.c - the NVIDIA backend: NVML loaded at run time (nvml_api.c), read on
 * the schedule the collector drives. Fast metrics every tick, with power,
 * energy, memory temperature and PCIe byte counters batched in one
 * nvmlDeviceGetFieldValues call; PCIe link, ECC counters and the MIG mode
 * on the slow cadence; process lists on the process cadence. The blocking
 * nvmlDeviceGetPcieThroughput is only a slow-cadence fallback.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "collectors/registry.h"
#include "core/clock.h"
#include "collectors/nvml_api.h"
#include "collectors/nvml_priv.h"

/* Records the outcome of one call; returns true when the device is gone. */
static bool put(struct gt_val *val, nvmlReturn_t rc, int64_t v)
{
	if (rc == NVML_SUCCESS)
		gt_val_set(val, v);
	else
		gt_val_fail(val, gt_nvml_why(rc), rc);
	return gt_nvml_is_lost(rc);
}

static void put_missing(struct gt_val *val)
{
	gt_val_fail(val, GT_WHY_UNSUPPORTED_DRIVER,
	            NVML_ERROR_FUNCTION_NOT_FOUND);
}

/* The getters of one unsigned (power in mW, PCIe generation and width). */
typedef nvmlReturn_t (*uint_getter)(nvmlDevice_t, unsigned *);

/* Records one getter's answer, or put_missing's when the library lacks
 * it (fn NULL); returns true when the device is gone. */
static bool put_uint(struct gt_val *val, uint_getter fn, nvmlDevice_t h)
{
	unsigned a = 0;
	/* The call first: the value is read after it. */
	nvmlReturn_t rc = fn ? fn(h, &a) : NVML_ERROR_FUNCTION_NOT_FOUND;
	return put(val, rc, a);
}

static void nvml_probe(struct gt_backend *b,
                       const struct gt_backend_options *opt)
{
	struct nvml_priv *p = calloc(1, sizeof(*p));
	unsigned count = 0;
	nvmlReturn_t rc;

	b->status = GT_BACKEND_UNAVAILABLE;
	if (!p) {
		snprintf(b->detail, sizeof(b->detail), "out of memory");
		return;
	}
	b->priv = p;
	if (gt_nvml_api_load(&p->api, opt->nvml_lib, b->detail,
	                     sizeof(b->detail)) < 0)
		return;
	rc = p->api.init();
	if (rc != NVML_SUCCESS) {
		b->status = GT_BACKEND_ERROR;
		snprintf(b->detail, sizeof(b->detail),
		         "nvmlInit failed: %s (%d): %s",
		         p->api.error_string(rc), rc, gt_nvml_init_hint(rc));
		gt_nvml_api_unload(&p->api);
		return;
	}
	if (p->api.driver_version)
		p->api.driver_version(p->driver_version,
		                      sizeof(p->driver_version));
	rc = p->api.count(&count);
	if (rc != NVML_SUCCESS || count == 0) {
		snprintf(b->detail, sizeof(b->detail),
		         rc != NVML_SUCCESS ? "nvmlDeviceGetCount failed: %s"
		                            : "NVML (driver %s) reports no GPU",
		         rc != NVML_SUCCESS ? p->api.error_string(rc)
		                            : p->driver_version);
		return;
	}
	p->devs = calloc(count, sizeof(*p->devs));
	if (!p->devs) {
		snprintf(b->detail, sizeof(b->detail), "out of memory");
		return;
	}
	char skipped[128] = "";
	for (unsigned i = 0; i < count; i++) {
		nvmlDevice_t h;
		rc = p->api.handle_by_index(i, &h);
		if (rc != NVML_SUCCESS) {
			/* A GPU hidden by cgroups answers NO_PERMISSION: the
			 * others are still worth watching. */
			size_t n = strlen(skipped);
			snprintf(skipped + n, sizeof(skipped) - n,
			         "; GPU %u skipped: %s", i,
			         p->api.error_string(rc));
			continue;
		}
		struct nvml_dev *d = &p->devs[p->ndevs++];
		d->handle = h;
		d->index = i;
		struct gt_val *cache[] = {
		    &d->slow.pcie_gen, &d->slow.pcie_width, &d->slow.pcie_tx,
		    &d->slow.pcie_rx,  &d->slow.ecc[0],     &d->slow.ecc[1],
		    &d->slow.ecc[2],   &d->slow.ecc[3],     &d->slow.bar1_total,
		    &d->slow.bar1_used};
		for (size_t k = 0; k < sizeof(cache) / sizeof(cache[0]); k++)
			gt_val_fail(cache[k], GT_WHY_NOT_COLLECTED, 0);
	}
	int cuda = 0;
	char cuda_text[24] = "";
	if (p->api.cuda_version && p->api.cuda_version(&cuda) == NVML_SUCCESS)
		snprintf(cuda_text, sizeof(cuda_text), ", CUDA %d.%d",
		         cuda / 1000, (cuda % 1000) / 10);
	b->device_count = p->ndevs;
	b->status = p->ndevs ? GT_BACKEND_OK : GT_BACKEND_UNAVAILABLE;
	snprintf(b->detail, sizeof(b->detail), "driver %s%s, %u GPU%s%s",
	         p->driver_version, cuda_text, p->ndevs,
	         p->ndevs == 1 ? "" : "s", skipped);
}

static void read_string(nvmlReturn_t (*fn)(nvmlDevice_t, char *, unsigned),
                        nvmlDevice_t h, char *dst, size_t len)
{
	char buf[NVML_DEVICE_NAME_V2_BUFFER_SIZE];
	dst[0] = '\0';
	if (fn && fn(h, buf, sizeof(buf)) == NVML_SUCCESS) {
		buf[sizeof(buf) - 1] = '\0';
		gt_copy_str(dst, len, buf);
	}
}

static void read_pci(struct nvml_priv *p, nvmlDevice_t h, struct gt_static *st)
{
	nvmlPciInfo_t pci;
	nvmlReturn_t rc = NVML_ERROR_FUNCTION_NOT_FOUND;

	memset(&pci, 0, sizeof(pci));
	if (p->api.pci_info)
		rc = p->api.pci_info(h, &pci);
	else if (p->api.pci_info_v1)
		rc = p->api.pci_info_v1(h, &pci);
	if (rc != NVML_SUCCESS)
		return;
	gt_nvml_bus_id(st->pci_bus_id, sizeof(st->pci_bus_id), &pci);
	memcpy(st->id, "pci:", 4);
	gt_copy_str(st->id + 4, sizeof(st->id) - 4, st->pci_bus_id);
	st->pci_vendor_id = (uint16_t)(pci.pciDeviceId & 0xffffu);
	st->pci_device_id = (uint16_t)(pci.pciDeviceId >> 16);
	st->pci_subsystem_id = pci.pciSubSystemId;
}

static int read_temperature(struct nvml_priv *p, nvmlDevice_t h,
                            struct gt_val *out)
{
	unsigned t = 0;
	nvmlReturn_t rc;
	if (p->api.temperature_v) {
		nvmlTemperature_t tv = {.version =
		                            GT_NVML_TEMPERATURE_V1_VERSION,
		                        .sensorType = NVML_TEMPERATURE_GPU};
		rc = p->api.temperature_v(h, &tv);
		return put(out, rc, (int64_t)tv.temperature * 1000);
	}
	if (!p->api.temperature) {
		put_missing(out);
		return 0;
	}
	rc = p->api.temperature(h, NVML_TEMPERATURE_GPU, &t);
	return put(out, rc, (int64_t)t * 1000);
}

/*
 * Boards that give thresholds only relative to T.Limit (H100, RTX 4090 on
 * recent drivers) answer NOT_SUPPORTED to the absolute query. Then the
 * T.Limit margin gives the limit (current + margin) and fields 193-196 give
 * each threshold relative to it (negative = beyond the limit).
 * The memory's maximum has no such form here (tlimit_field 0): on a real
 * H100 (driver 580.159.04) its offset read 0 C while the absolute query
 * gave 95 C against a GPU T.Limit of 87 C, so it is not measured from the
 * GPU's limit, and a value worked out that way would be wrong: N/A instead.
 */
static void read_thresholds(struct nvml_priv *p, nvmlDevice_t h,
                            struct gt_static *st)
{
	static const struct {
		int field;
		nvmlTemperatureThresholds_t kind;
		unsigned tlimit_field;
	} map[] = {
	    {GT_S_TEMP_SHUTDOWN, NVML_TEMPERATURE_THRESHOLD_SHUTDOWN,
	     NVML_FI_DEV_TEMPERATURE_SHUTDOWN_TLIMIT},
	    {GT_S_TEMP_SLOWDOWN, NVML_TEMPERATURE_THRESHOLD_SLOWDOWN,
	     NVML_FI_DEV_TEMPERATURE_SLOWDOWN_TLIMIT},
	    {GT_S_TEMP_MEM_MAX, NVML_TEMPERATURE_THRESHOLD_MEM_MAX, 0},
	    {GT_S_TEMP_GPU_MAX, NVML_TEMPERATURE_THRESHOLD_GPU_MAX,
	     NVML_FI_DEV_TEMPERATURE_GPU_MAX_TLIMIT},
	};
	struct gt_val temp;
	int64_t limit_mc = 0;
	bool have_limit = false;

	read_temperature(p, h, &temp);
	if (p->api.margin && gt_val_ok(&temp)) {
		nvmlMarginTemperature_t m = {
		    .version = GT_NVML_MARGIN_TEMPERATURE_V1_VERSION};
		if (p->api.margin(h, &m) == NVML_SUCCESS) {
			limit_mc = temp.v + (int64_t)m.marginTemperature * 1000;
			have_limit = true;
		}
	}
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		struct gt_val *out = &st->f[map[i].field];
		unsigned t = 0;
		nvmlReturn_t rc = NVML_ERROR_FUNCTION_NOT_FOUND;
		if (p->api.threshold)
			rc = p->api.threshold(h, map[i].kind, &t);
		put(out, rc, (int64_t)t * 1000);
		if (rc == NVML_SUCCESS || !have_limit || !p->api.field_values ||
		    !map[i].tlimit_field)
			continue;
		nvmlFieldValue_t fv;
		memset(&fv, 0, sizeof(fv));
		fv.fieldId = map[i].tlimit_field;
		int64_t rel;
		if (p->api.field_values(h, 1, &fv) == NVML_SUCCESS &&
		    gt_nvml_field_int(&fv, &rel))
			gt_val_set(out, limit_mc - rel * 1000);
	}
}

static void read_fan_facts(struct nvml_priv *p, struct nvml_dev *d,
                           struct gt_static *st)
{
	unsigned n = 0, lo = 0, hi = 0;
	nvmlReturn_t rc = NVML_ERROR_FUNCTION_NOT_FOUND;

	if (p->api.num_fans)
		rc = p->api.num_fans(d->handle, &n);
	put(&st->f[GT_S_FAN_COUNT], rc, n);
	d->fans = rc == NVML_SUCCESS ? (n > GT_MAX_FANS ? GT_MAX_FANS : n) : 0;
	rc = NVML_ERROR_FUNCTION_NOT_FOUND;
	if (p->api.fan_min_max)
		rc = p->api.fan_min_max(d->handle, &lo, &hi);
	put(&st->f[GT_S_FAN_MIN_PERCENT], rc, (int64_t)lo * 100);
	put(&st->f[GT_S_FAN_MAX_PERCENT], rc, (int64_t)hi * 100);
}

static int nvml_get_static(struct gt_backend *b, unsigned dev,
                           struct gt_static *st)
{
	struct nvml_priv *p = b->priv;
	struct nvml_dev *d = &p->devs[dev];
	nvmlDevice_t h = d->handle;
	nvmlReturn_t rc;
	unsigned a = 0, c = 0;

	st->vendor = GT_VENDOR_NVIDIA;
	snprintf(st->driver, sizeof(st->driver), "nvidia");
	gt_copy_str(st->driver_version, sizeof(st->driver_version),
	            p->driver_version);
	read_string(p->api.name, h, st->name, sizeof(st->name));
	read_string(p->api.uuid, h, st->uuid, sizeof(st->uuid));
	read_string(p->api.serial, h, st->serial, sizeof(st->serial));
	read_string(p->api.vbios, h, st->vbios, sizeof(st->vbios));
	read_pci(p, h, st);
	if (!st->id[0])
		snprintf(st->id, sizeof(st->id), "nvml:%u", d->index);

	nvmlDeviceArchitecture_t arch;
	if (p->api.architecture &&
	    p->api.architecture(h, &arch) == NVML_SUCCESS)
		gt_copy_str(st->architecture, sizeof(st->architecture),
		            gt_nvml_arch_name(arch));
	int major = 0, minor = 0;
	rc = p->api.compute_capability
	         ? p->api.compute_capability(h, &major, &minor)
	         : NVML_ERROR_FUNCTION_NOT_FOUND;
	put(&st->f[GT_S_CC_MAJOR], rc, major);
	put(&st->f[GT_S_CC_MINOR], rc, minor);

	if (p->api.memory_v2) {
		nvmlMemory_v2_t m = {.version = GT_NVML_MEMORY_V2_VERSION};
		rc = p->api.memory_v2(h, &m);
		put(&st->f[GT_S_VRAM_TOTAL], rc, (int64_t)m.total);
	}
	if (!gt_val_ok(&st->f[GT_S_VRAM_TOTAL]) && p->api.memory_v1) {
		nvmlMemory_t m;
		rc = p->api.memory_v1(h, &m);
		put(&st->f[GT_S_VRAM_TOTAL], rc, (int64_t)m.total);
	}

	rc = p->api.power_range ? p->api.power_range(h, &a, &c)
	                        : NVML_ERROR_FUNCTION_NOT_FOUND;
	put(&st->f[GT_S_POWER_MIN], rc, a);
	put(&st->f[GT_S_POWER_MAX], rc, c);
	put_uint(&st->f[GT_S_POWER_DEFAULT], p->api.power_default, h);
	read_thresholds(p, h, st);
	/* NVML has no hotspot or memory shutdown threshold. */
	gt_val_fail(&st->f[GT_S_TEMP_HOTSPOT_SHUTDOWN],
	            GT_WHY_UNSUPPORTED_DEVICE, 0);
	gt_val_fail(&st->f[GT_S_TEMP_MEM_SHUTDOWN], GT_WHY_UNSUPPORTED_DEVICE,
	            0);

	static const struct {
		int field;
		nvmlClockType_t type;
	} clocks[] = {{GT_S_CLK_GRAPHICS_MAX, NVML_CLOCK_GRAPHICS},
	              {GT_S_CLK_SM_MAX, NVML_CLOCK_SM},
	              {GT_S_CLK_MEM_MAX, NVML_CLOCK_MEM},
	              {GT_S_CLK_VIDEO_MAX, NVML_CLOCK_VIDEO}};
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		rc = p->api.max_clock ? p->api.max_clock(h, clocks[i].type, &a)
		                      : NVML_ERROR_FUNCTION_NOT_FOUND;
		put(&st->f[clocks[i].field], rc, a);
	}
	put_uint(&st->f[GT_S_PCIE_MAX_GEN], p->api.pcie_max_gen, h);
	put_uint(&st->f[GT_S_PCIE_MAX_WIDTH], p->api.pcie_max_width, h);
	read_fan_facts(p, d, st);

	rc = p->api.mig_mode ? p->api.mig_mode(h, &a, &c)
	                     : NVML_ERROR_FUNCTION_NOT_FOUND;
	put(&st->f[GT_S_MIG_MODE], rc, a == NVML_DEVICE_MIG_ENABLE);
	d->mig = rc == NVML_SUCCESS && a == NVML_DEVICE_MIG_ENABLE;
	nvmlEnableState_t cur = NVML_FEATURE_DISABLED, pending = cur;
	rc = p->api.ecc_mode ? p->api.ecc_mode(h, &cur, &pending)
	                     : NVML_ERROR_FUNCTION_NOT_FOUND;
	put(&st->f[GT_S_ECC_MODE], rc, cur == NVML_FEATURE_ENABLED);

	/* A lost GPU answers every call with the same code: the name
	 * query is enough to tell. */
	if (p->api.name) {
		char buf[NVML_DEVICE_NAME_V2_BUFFER_SIZE];
		if (gt_nvml_is_lost(p->api.name(h, buf, sizeof(buf))))
			return -1;
	}
	return 0;
}

enum batch_slot {
	B_POWER_AVG,
	B_POWER_INSTANT,
	B_ENERGY,
	B_MEM_TEMP,
	B_PCIE_TX,
	B_PCIE_RX,
	B_LIMIT_ENFORCED,
	B_LIMIT_REQUESTED,
	B__COUNT
};

static const unsigned batch_ids[B__COUNT] = {
    [B_POWER_AVG] = NVML_FI_DEV_POWER_AVERAGE,
    [B_POWER_INSTANT] = NVML_FI_DEV_POWER_INSTANT,
    [B_ENERGY] = NVML_FI_DEV_TOTAL_ENERGY_CONSUMPTION,
    [B_MEM_TEMP] = NVML_FI_DEV_MEMORY_TEMP,
    [B_PCIE_TX] = NVML_FI_DEV_PCIE_COUNT_TX_BYTES,
    [B_PCIE_RX] = NVML_FI_DEV_PCIE_COUNT_RX_BYTES,
    [B_LIMIT_ENFORCED] = NVML_FI_DEV_POWER_CURRENT_LIMIT,
    [B_LIMIT_REQUESTED] = NVML_FI_DEV_POWER_REQUESTED_LIMIT,
};

/* What a field costs on the real driver decides how often it is read
 * (tests/hw/nvmlcost on an H100 with driver 580, docs/hardware-validation.md):
 * the energy counter takes about 3 ms of CPU per read, in
 * nvmlDeviceGetTotalEnergyConsumption as in the field; the two PCIe byte
 * counters about 0.12 ms each; the other fields about 1 µs. So the cheap
 * fields are read every tick, the PCIe counters at most once a second and
 * the energy counter on the slow cadence; between reads the last value
 * stands. At a 0.1 s interval reading all of them every tick cost 3.4 ms
 * a tick, two thirds of the collector. */
#define NVML_PCIE_PERIOD_NS 1000000000ull

/* PCIe rates from the batch's cumulative byte counters: cheap and exact
 * over the whole period, unlike the 20 ms blocking window of
 * nvmlDeviceGetPcieThroughput, which is the slow cadence's fallback
 * without them. Returns true when the device is gone. */
static bool sample_pcie(struct nvml_priv *p, struct nvml_dev *d, const bool *ok,
                        const int64_t *v, bool slow)
{
	nvmlReturn_t rc;
	bool lost = false;

	if (ok[B_PCIE_TX] && ok[B_PCIE_RX]) {
		uint64_t t = gt_monotonic_ns();
		unsigned long long tx = (unsigned long long)v[B_PCIE_TX];
		unsigned long long rx = (unsigned long long)v[B_PCIE_RX];
		if (d->have_counters && t > d->counters_ns &&
		    tx >= d->tx_prev && rx >= d->rx_prev) {
			double dt = (double)(t - d->counters_ns) / 1e9;
			gt_val_set(&d->pcie_rate[0],
			           (int64_t)((double)(tx - d->tx_prev) / dt));
			gt_val_set(&d->pcie_rate[1],
			           (int64_t)((double)(rx - d->rx_prev) / dt));
		} else {
			/* First read, or a counter wrapped. */
			gt_val_fail(&d->pcie_rate[0], GT_WHY_PENDING, 0);
			gt_val_fail(&d->pcie_rate[1], GT_WHY_PENDING, 0);
		}
		d->have_counters = true;
		d->tx_prev = tx;
		d->rx_prev = rx;
		d->counters_ns = t;
	} else {
		/* Tried: a driver without the counters is asked again once
		 * a period, not every tick. */
		d->have_counters = false;
		d->counters_ns = gt_monotonic_ns();
		if (!slow)
			return false;
		unsigned kb = 0;
		if (p->api.pcie_throughput) {
			rc = p->api.pcie_throughput(
			    d->handle, NVML_PCIE_UTIL_TX_BYTES, &kb);
			lost |= put(&d->slow.pcie_tx, rc, (int64_t)kb * 1024);
			rc = p->api.pcie_throughput(
			    d->handle, NVML_PCIE_UTIL_RX_BYTES, &kb);
			lost |= put(&d->slow.pcie_rx, rc, (int64_t)kb * 1024);
		} else {
			put_missing(&d->slow.pcie_tx);
			put_missing(&d->slow.pcie_rx);
		}
	}
	return lost;
}

/* val from the batch when it answered (ok), else from its own getter. */
static bool put_batched(struct gt_val *val, bool ok, int64_t v, uint_getter fn,
                        nvmlDevice_t h)
{
	if (!ok)
		return put_uint(val, fn, h);
	gt_val_set(val, v);
	return false;
}

/* Which batch slots this tick reads: the costly ones only when due. */
static bool batch_due(const struct nvml_dev *d, int slot, bool slow,
                      uint64_t now)
{
	switch (slot) {
	case B_ENERGY:
		return slow || !d->energy_read;
	case B_PCIE_TX:
	case B_PCIE_RX:
		/* Never asked, or the rate pending (one read so far): the
		 * next tick gives it, so a snapshot's second sample has
		 * it. */
		return slow || d->counters_ns == 0 ||
		       (d->have_counters &&
		        d->pcie_rate[0].why == GT_WHY_PENDING) ||
		       now - d->counters_ns >= NVML_PCIE_PERIOD_NS;
	default:
		return true;
	}
}

/* The energy counter, when due: from the batch, else its own getter. */
static bool sample_energy(struct nvml_priv *p, struct nvml_dev *d, bool due,
                          bool ok, int64_t v)
{
	bool lost = false;
	if (!due)
		return false;
	if (ok) {
		gt_val_set(&d->energy, v);
	} else if (p->api.energy) {
		unsigned long long e = 0;
		nvmlReturn_t rc = p->api.energy(d->handle, &e);
		lost = put(&d->energy, rc, (int64_t)e);
	} else {
		put_missing(&d->energy);
	}
	d->energy_read = true;
	return lost;
}

/* One batched call; a field that fails is left to its per-call fallback. */
static bool sample_batch(struct nvml_priv *p, struct nvml_dev *d,
                         struct gt_sample *s, bool slow)
{
	nvmlFieldValue_t fv[B__COUNT];
	int slot[B__COUNT];
	bool due[B__COUNT];
	int64_t v[B__COUNT] = {0};
	bool ok[B__COUNT] = {false};
	nvmlReturn_t mem_temp_rc = NVML_ERROR_FUNCTION_NOT_FOUND;
	uint64_t now = gt_monotonic_ns();
	int n = 0;
	bool lost = false;

	memset(fv, 0, sizeof(fv));
	for (int i = 0; i < B__COUNT; i++) {
		due[i] = batch_due(d, i, slow, now);
		if (due[i]) {
			slot[n] = i;
			fv[n++].fieldId = batch_ids[i];
		}
	}
	if (p->api.field_values) {
		nvmlReturn_t rc = p->api.field_values(d->handle, n, fv);
		if (gt_nvml_is_lost(rc))
			return true;
		for (int k = 0; rc == NVML_SUCCESS && k < n; k++)
			ok[slot[k]] = gt_nvml_field_int(&fv[k], &v[slot[k]]);
		for (int k = 0; k < n; k++)
			if (slot[k] == B_MEM_TEMP)
				mem_temp_rc =
				    rc == NVML_SUCCESS ? fv[k].nvmlReturn : rc;
	}

	/* Average first: it is what nvmlDeviceGetPowerUsage reports on
	 * Ampere and newer, and what nvidia-smi calls the power draw. */
	lost |= put_batched(
	    &s->f[GT_F_POWER_DRAW], ok[B_POWER_AVG] || ok[B_POWER_INSTANT],
	    ok[B_POWER_AVG] ? v[B_POWER_AVG] : v[B_POWER_INSTANT],
	    p->api.power_usage, d->handle);
	lost |= sample_energy(p, d, due[B_ENERGY], ok[B_ENERGY], v[B_ENERGY]);
	s->f[GT_F_ENERGY] = d->energy;

	if (ok[B_MEM_TEMP])
		gt_val_set(&s->f[GT_F_TEMP_MEM], v[B_MEM_TEMP] * 1000);
	else
		put(&s->f[GT_F_TEMP_MEM], mem_temp_rc, 0);

	lost |=
	    put_batched(&s->f[GT_F_POWER_ENFORCED], ok[B_LIMIT_ENFORCED],
	                v[B_LIMIT_ENFORCED], p->api.power_enforced, d->handle);
	lost |=
	    put_batched(&s->f[GT_F_POWER_LIMIT], ok[B_LIMIT_REQUESTED],
	                v[B_LIMIT_REQUESTED], p->api.power_limit, d->handle);
	if (due[B_PCIE_TX])
		lost |= sample_pcie(p, d, ok, v, slow);
	if (d->have_counters) {
		s->f[GT_F_PCIE_TX] = d->pcie_rate[0];
		s->f[GT_F_PCIE_RX] = d->pcie_rate[1];
	}
	return lost;
}

static bool sample_slow(struct nvml_priv *p, struct nvml_dev *d)
{
	static const struct {
		nvmlMemoryErrorType_t type;
		nvmlEccCounterType_t counter;
	} ecc[4] = {
	    {NVML_MEMORY_ERROR_TYPE_CORRECTED, NVML_VOLATILE_ECC},
	    {NVML_MEMORY_ERROR_TYPE_UNCORRECTED, NVML_VOLATILE_ECC},
	    {NVML_MEMORY_ERROR_TYPE_CORRECTED, NVML_AGGREGATE_ECC},
	    {NVML_MEMORY_ERROR_TYPE_UNCORRECTED, NVML_AGGREGATE_ECC},
	};
	bool lost = false;

	lost |= put_uint(&d->slow.pcie_gen, p->api.pcie_gen, d->handle);
	lost |= put_uint(&d->slow.pcie_width, p->api.pcie_width, d->handle);
	for (int i = 0; i < 4; i++) {
		unsigned long long n = 0;
		if (p->api.ecc_errors) {
			/* Call first: the value is read after the call. */
			nvmlReturn_t rc = p->api.ecc_errors(
			    d->handle, ecc[i].type, ecc[i].counter, &n);
			lost |= put(&d->slow.ecc[i], rc, (int64_t)n);
		} else
			put_missing(&d->slow.ecc[i]);
	}
	nvmlBAR1Memory_t bar1 = {0, 0, 0};
	nvmlReturn_t rc = p->api.bar1 ? p->api.bar1(d->handle, &bar1)
	                              : NVML_ERROR_FUNCTION_NOT_FOUND;
	lost |= put(&d->slow.bar1_total, rc, (int64_t)bar1.bar1Total);
	put(&d->slow.bar1_used, rc, (int64_t)bar1.bar1Used);
	d->slow.valid = true;
	return lost;
}

static bool sample_fans(struct nvml_priv *p, struct nvml_dev *d,
                        struct gt_sample *s)
{
	bool lost = false;
	s->fan_count = (uint8_t)d->fans;
	for (unsigned i = 0; i < d->fans; i++) {
		unsigned pct = 0;
		nvmlReturn_t rc = NVML_ERROR_FUNCTION_NOT_FOUND;
		if (p->api.fan_speed_v2)
			rc = p->api.fan_speed_v2(d->handle, i, &pct);
		else if (p->api.fan_speed && i == 0)
			rc = p->api.fan_speed(d->handle, &pct);
		lost |=
		    put(&s->f[GT_F_FAN_PERCENT0 + i], rc, (int64_t)pct * 100);
		nvmlFanSpeedInfo_t info = {
		    .version = GT_NVML_FAN_SPEED_INFO_V1_VERSION, .fan = i};
		rc = p->api.fan_rpm ? p->api.fan_rpm(d->handle, &info)
		                    : NVML_ERROR_FUNCTION_NOT_FOUND;
		lost |= put(&s->f[GT_F_FAN_RPM0 + i], rc, info.speed);
	}
	return lost;
}

static bool sample_memory(struct nvml_priv *p, struct nvml_dev *d,
                          struct gt_sample *s)
{
	nvmlReturn_t rc = NVML_ERROR_FUNCTION_NOT_FOUND;
	bool lost = false;

	/* The struct must carry the full version word, not just 2: a bare
	 * 2 fails with FUNCTION_NOT_FOUND and would push us to v1, whose
	 * "used" includes the driver-reserved memory. */
	if (p->api.memory_v2) {
		nvmlMemory_v2_t m = {.version = GT_NVML_MEMORY_V2_VERSION};
		rc = p->api.memory_v2(d->handle, &m);
		lost = put(&s->f[GT_F_MEM_TOTAL], rc, (int64_t)m.total);
		put(&s->f[GT_F_MEM_USED], rc, (int64_t)m.used);
		put(&s->f[GT_F_MEM_FREE], rc, (int64_t)m.free);
		put(&s->f[GT_F_MEM_RESERVED], rc, (int64_t)m.reserved);
	}
	if (rc != NVML_SUCCESS && !lost && p->api.memory_v1) {
		nvmlMemory_t m;
		rc = p->api.memory_v1(d->handle, &m);
		lost = put(&s->f[GT_F_MEM_TOTAL], rc, (int64_t)m.total);
		put(&s->f[GT_F_MEM_USED], rc, (int64_t)m.used);
		put(&s->f[GT_F_MEM_FREE], rc, (int64_t)m.free);
		if (rc == NVML_SUCCESS)
			put_missing(&s->f[GT_F_MEM_RESERVED]);
	}
	return lost;
}

static bool sample_utilization(struct nvml_priv *p, struct nvml_dev *d,
                               struct gt_sample *s)
{
	nvmlUtilization_t u = {0, 0};
	unsigned pct = 0, period = 0;
	nvmlReturn_t rc;
	bool lost = false;

	rc = p->api.utilization ? p->api.utilization(d->handle, &u)
	                        : NVML_ERROR_FUNCTION_NOT_FOUND;
	lost |= put(&s->f[GT_F_UTIL_GPU], rc, (int64_t)u.gpu * 100);
	put(&s->f[GT_F_UTIL_MEMBW], rc, (int64_t)u.memory * 100);
	rc = p->api.encoder ? p->api.encoder(d->handle, &pct, &period)
	                    : NVML_ERROR_FUNCTION_NOT_FOUND;
	lost |= put(&s->f[GT_F_UTIL_ENC], rc, (int64_t)pct * 100);
	rc = p->api.decoder ? p->api.decoder(d->handle, &pct, &period)
	                    : NVML_ERROR_FUNCTION_NOT_FOUND;
	lost |= put(&s->f[GT_F_UTIL_DEC], rc, (int64_t)pct * 100);
	if (d->mig) {
		/* Whole-GPU utilization does not exist under MIG: say so
		 * rather than "not supported by this device". */
		for (int f = GT_F_UTIL_GPU; f <= GT_F_UTIL_DEC; f++)
			if (s->f[f].why == GT_WHY_UNSUPPORTED_DEVICE)
				gt_val_fail(&s->f[f], GT_WHY_MIG, 0);
	}
	return lost;
}

static int nvml_sample(struct gt_backend *b, unsigned dev, struct gt_sample *s,
                       int slow)
{
	struct nvml_priv *p = b->priv;
	struct nvml_dev *d = &p->devs[dev];
	nvmlDevice_t h = d->handle;
	bool lost = false;
	unsigned a = 0;
	nvmlReturn_t rc;
	int changed = 0;

	lost |= sample_utilization(p, d, s);
	if (lost)
		return -1; /* every further call would fail the same way */
	lost |= sample_memory(p, d, s);
	lost |= read_temperature(p, h, &s->f[GT_F_TEMP_GPU]);
	/* NVML 13 has no hotspot sensor; the driver does not expose it. */
	gt_val_fail(&s->f[GT_F_TEMP_HOTSPOT], GT_WHY_UNSUPPORTED_DRIVER, 0);
	if (!d->slow.valid)
		slow = 1;
	lost |= sample_batch(p, d, s, slow);

	nvmlPstates_t ps = NVML_PSTATE_UNKNOWN;
	rc = p->api.pstate ? p->api.pstate(h, &ps)
	                   : NVML_ERROR_FUNCTION_NOT_FOUND;
	if (rc == NVML_SUCCESS && ps == NVML_PSTATE_UNKNOWN)
		gt_val_fail(&s->f[GT_F_PSTATE], GT_WHY_UNSUPPORTED_DEVICE, 0);
	else
		lost |= put(&s->f[GT_F_PSTATE], rc, ps);

	static const struct {
		int field;
		nvmlClockType_t type;
	} clocks[] = {{GT_F_CLK_GRAPHICS, NVML_CLOCK_GRAPHICS},
	              {GT_F_CLK_SM, NVML_CLOCK_SM},
	              {GT_F_CLK_MEM, NVML_CLOCK_MEM},
	              {GT_F_CLK_VIDEO, NVML_CLOCK_VIDEO}};
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		rc = p->api.clock ? p->api.clock(h, clocks[i].type, &a)
		                  : NVML_ERROR_FUNCTION_NOT_FOUND;
		lost |= put(&s->f[clocks[i].field], rc, a);
	}

	unsigned long long reasons = 0;
	rc = p->api.clock_events ? p->api.clock_events(h, &reasons)
	                         : NVML_ERROR_FUNCTION_NOT_FOUND;
	lost |= put(&s->f[GT_F_THROTTLE], rc, gt_nvml_throttle(reasons));
	lost |= sample_fans(p, d, s);

	if (slow) {
		lost |= sample_slow(p, d);
		unsigned cur = 0, pending = 0;
		if (p->api.mig_mode &&
		    p->api.mig_mode(h, &cur, &pending) == NVML_SUCCESS &&
		    (cur == NVML_DEVICE_MIG_ENABLE) != d->mig)
			changed = 1; /* facts (and memory layout) changed */
	}
	s->f[GT_F_PCIE_GEN] = d->slow.pcie_gen;
	s->f[GT_F_PCIE_WIDTH] = d->slow.pcie_width;
	if (!d->have_counters) {
		s->f[GT_F_PCIE_TX] = d->slow.pcie_tx;
		s->f[GT_F_PCIE_RX] = d->slow.pcie_rx;
	}
	for (int i = 0; i < 4; i++)
		s->f[GT_F_ECC_CORRECTED_VOLATILE + i] = d->slow.ecc[i];
	s->f[GT_F_MEM_VISIBLE_TOTAL] = d->slow.bar1_total;
	s->f[GT_F_MEM_VISIBLE_USED] = d->slow.bar1_used;
	/* Concepts NVML does not have: said once here, not left "not
	 * collected". */
	static const int absent[] = {GT_F_GTT_TOTAL,
	                             GT_F_GTT_USED,
	                             GT_F_CLK_GRAPHICS_REQUESTED,
	                             GT_F_CLK_GRAPHICS_MIN_LIMIT,
	                             GT_F_CLK_GRAPHICS_MAX_LIMIT,
	                             GT_F_IDLE_RESIDENCY};
	for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++)
		gt_val_fail(&s->f[absent[i]], GT_WHY_UNSUPPORTED_DEVICE, 0);
	gt_text_val_fail(&s->perf_level, GT_WHY_UNSUPPORTED_DEVICE);
	gt_text_val_fail(&s->power_profile, GT_WHY_UNSUPPORTED_DEVICE);
	return lost ? -1 : changed;
}

static int nvml_process_name(struct gt_backend *b, int32_t pid, char *buf,
                             size_t len)
{
	struct nvml_priv *p = b->priv;
	char name[GT_COMM_LEN * 4];
	if (!p || !p->api.process_name || pid <= 0 || len == 0 ||
	    p->api.process_name((unsigned)pid, name, sizeof(name)) !=
	        NVML_SUCCESS)
		return -1;
	name[sizeof(name) - 1] = '\0';
	/* A path ("/usr/bin/python3"): its last part, as /proc's comm. */
	const char *slash = strrchr(name, '/');
	gt_copy_str(buf, len, slash && slash[1] ? slash + 1 : name);
	return 0;
}

static const char *nvml_error_text(struct gt_backend *b, int code)
{
	struct nvml_priv *p = b->priv;
	if (!p || !p->api.error_string)
		return NULL;
	return p->api.error_string((nvmlReturn_t)code);
}

static void nvml_shutdown(struct gt_backend *b)
{
	struct nvml_priv *p = b->priv;
	if (!p)
		return;
	if (p->api.dl) {
		p->api.shutdown();
		gt_nvml_api_unload(&p->api);
	}
	free(p->devs);
	free(p->procs);
	free(p->merged);
	free(p->raw);
	free(p->util);
	free(p);
	b->priv = NULL;
}

const struct gt_backend_ops gt_nvml_backend = {
    .name = "nvml",
    .probe = nvml_probe,
    .get_static = nvml_get_static,
    .sample = nvml_sample,
    .processes = gt_nvml_processes,
    .process_name = nvml_process_name,
    .error_text = nvml_error_text,
    .shutdown = nvml_shutdown,
};

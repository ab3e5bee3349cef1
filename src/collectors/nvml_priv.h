/* SPDX-License-Identifier: MIT */
/*
 * nvml_priv.h - state shared by the NVIDIA backend's two files: nvml.c
 * (probe, facts, samples) and nvml_procs.c (process lists). Not for use
 * outside src/collectors/nvml*.c.
 */
#ifndef GPUTOP_NVML_PRIV_H
#define GPUTOP_NVML_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "core/backend.h"
#include "collectors/nvml_api.h"

/* Values read on the slow cadence, repeated in the samples between. */
struct slow_cache {
	struct gt_val pcie_gen, pcie_width, pcie_tx, pcie_rx;
	struct gt_val ecc[4];
	struct gt_val bar1_total, bar1_used; /* the CPU-visible VRAM window */
	bool valid;
};

struct nvml_dev {
	nvmlDevice_t handle;
	unsigned index; /* NVML's index */
	bool mig;       /* MIG mode when the facts were read */
	unsigned fans;
	/* PCIe byte counters (fields 197/198) for rates. */
	bool have_counters;
	unsigned long long tx_prev, rx_prev;
	uint64_t counters_ns;
	struct slow_cache slow;
	unsigned long long util_last_seen; /* lastSeenTimeStamp, µs */
};

struct nvml_priv {
	struct gt_nvml_api api;
	struct nvml_dev *devs;
	unsigned ndevs;
	char driver_version[NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE];
	/* Process-round scratch, reused to avoid allocating every round. */
	struct gt_nvml_proc *procs, *merged;
	size_t procs_cap;
	void *raw;
	size_t raw_cap;
	nvmlProcessUtilizationSample_t *util;
	unsigned util_cap;
};

int gt_nvml_processes(struct gt_backend *b, unsigned dev,
                      struct gt_proc_vec *out);

#endif

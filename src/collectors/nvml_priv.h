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

/* Processes per GPU whose utilization a short round repeats; more are
 * N/A for that round. */
enum { NVML_UTIL_MEMO = 64 };
/* A round with no new per-process sample shows every process idle only
 * when it spans this long: drivers sample every 1/6 s to 1 s, so a
 * shorter round (--snapshot --interval 0.2) can fall between samples. */
#define NVML_UTIL_QUIET_NS 1000000000ull

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
	/* PCIe byte counters (fields 197/198) for rates, read at most once
	 * per NVML_PCIE_PERIOD_NS; the rates stand between reads. */
	bool have_counters;
	unsigned long long tx_prev, rx_prev;
	uint64_t counters_ns;
	struct gt_val pcie_rate[2]; /* TX, RX */
	/* The energy counter, read on the slow cadence only. */
	struct gt_val energy;
	bool energy_read;
	struct slow_cache slow;
	unsigned long long util_last_seen; /* lastSeenTimeStamp, µs */
	/* The last informative round's per-process utilization and when
	 * it was (monotonic ns): a round too short to hold one of the
	 * driver's samples repeats it (nvml_procs.c, fill_utilization). */
	struct nvml_util_memo {
		unsigned pid;
		uint32_t pct[3]; /* SM, encoder, decoder, in 0.01 % */
	} util_memo[NVML_UTIL_MEMO];
	unsigned util_nmemo;
	uint64_t util_informed_ns;
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
/* Appends the compute, graphics and MPS lists of handle h to
 * p->procs[*n...]. True when the device is gone; *first_error (may be
 * NULL) is the first list's failure other than a missing symbol. */
bool gt_nvml_fetch_lists(struct nvml_priv *p, nvmlDevice_t h, size_t *n,
                         nvmlReturn_t *first_error);

/* nvml_mig.c: appends the MIG devices of d (in MIG mode) to out->mig and
 * their processes, tagged with their instance ids, to p->procs[*n...].
 * Returns how many, -1 when the GPU is gone, -2 when the driver cannot
 * list them (the caller falls back to the whole-GPU lists). */
int gt_nvml_mig_read(struct nvml_priv *p, struct nvml_dev *d,
                     struct gt_proc_vec *out, size_t *n);
/* Counts the processes out->items[pfirst...] on each instance
 * out->mig[mfirst...]. */
void gt_nvml_mig_count(struct gt_proc_vec *out, size_t mfirst, size_t pfirst);

#endif

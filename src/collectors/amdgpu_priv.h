/* SPDX-License-Identifier: MIT */
/*
 * amdgpu_priv.h - state shared by the amdgpu backend's two files: amdgpu.c
 * (discovery, static facts, processes) and amdgpu_sample.c (the per-tick
 * sample). Not for use outside src/collectors/amdgpu*.c.
 */
#ifndef GPUTOP_AMDGPU_PRIV_H
#define GPUTOP_AMDGPU_PRIV_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/backend.h"
#include "linux/drmdev.h"
#include "linux/sysfs.h"

/* Environment variable naming another amdgpu.ids file (tests, or a newer
 * copy than the distribution's). */
#define GT_AMDGPU_IDS_ENV "GPUTOP_AMDGPU_IDS"

/* Scratch for one attribute: the largest text files (pp_power_profile_mode,
 * pp_od_clk_voltage) are a few KiB; captures pad to 4096 bytes. */
#define GT_AMDGPU_BUF 16384

/* hwmon temperature sensors by meaning. */
enum amdgpu_temp { AT_EDGE, AT_JUNCTION, AT_MEM, AT__COUNT };

/* Values read on the slow cadence and repeated in the samples between:
 * they change rarely and their files are the longest to parse. */
struct amdgpu_slow {
	bool valid;
	struct gt_val pcie_gen, pcie_width;
	struct gt_val clk_min_limit, clk_max_limit;
	struct gt_val ecc_corrected, ecc_uncorrected;
	struct gt_text_val perf_level, power_profile;
};

struct gt_amdgpu_drm;

struct amdgpu_dev {
	struct gt_drmdev drm; /* identity from discovery */
	char hwmon[PATH_MAX]; /* device/hwmon/hwmonN, "" if there is none */
	int revision; /* GT_AMDGPU_REV_UNKNOWN without a revision file */
	bool integrated;
	/* The link in pp_dpm_pcie is the real slot link on Vega10 and newer
	 * dGPUs, whose PCI function sits behind an on-package switch (the
	 * PCI files then describe the internal link). */
	bool pcie_from_dpm;
	bool facts_read; /* static facts came from an awake device */
	bool temps_mapped;
	int temp_index[AT__COUNT]; /* N of tempN_input, 0 = no such sensor */
	unsigned fans;             /* 0 or 1: amdgpu exposes one fan */
	struct amdgpu_slow slow;
	/* libdrm_amdgpu sensors (amdgpu_libdrm.c), opened the first time a
	 * sample lacks a value they give; live system only. */
	struct gt_amdgpu_drm *sensors;
	int sensors_rc; /* 0 not tried or open; -errno: open failed */
};

struct amdgpu_priv {
	struct amdgpu_dev *devs;
	unsigned ndevs;
	struct gt_fdinfo *fdinfo; /* borrowed from the collector; may be NULL */
	char root[PATH_MAX];      /* the sysfs root */
	char ids_path[PATH_MAX];  /* amdgpu.ids; "" = libdrm's default */
	bool real_sysfs;         /* root is the live /sys: device nodes match */
	char buf[GT_AMDGPU_BUF]; /* read scratch (one thread calls us) */
};

/* Per-sample read context: newer kernels answer EPERM instead of waking a
 * runtime-suspended GPU, which means "asleep", not "forbidden". */
struct amdgpu_rd {
	struct amdgpu_priv *p;
	bool eperm;
};

int gt_amdgpu_rd_i64(struct amdgpu_rd *r, const char *dir, const char *leaf,
                     int64_t *v);
/* Reads dir/leaf raw into p->buf (NUL-terminated); returns the length or
 * -errno. */
ssize_t gt_amdgpu_rd_raw(struct amdgpu_rd *r, const char *dir,
                         const char *leaf);
/* val = dir/leaf * mul / div, or failed with the reason the errno gives. */
int gt_amdgpu_rd_val(struct amdgpu_rd *r, struct gt_val *val, const char *dir,
                     const char *leaf, int64_t mul, int64_t div);
/* The same for a file whose number lies in [lo, hi] by its definition (a
 * percentage, a 0-255 duty cycle): one outside is N/A, -ERANGE. */
int gt_amdgpu_rd_range(struct amdgpu_rd *r, struct gt_val *val, const char *dir,
                       const char *leaf, int64_t lo, int64_t hi, int64_t mul,
                       int64_t div);
/* The same for an hwmon file measuring u (gt_sysfs_unit_range), divided
 * by div: past what u can hold, N/A, -ERANGE. */
int gt_amdgpu_rd_unit(struct amdgpu_rd *r, struct gt_val *val, const char *dir,
                      const char *leaf, enum gt_sysfs_unit u, int64_t div);
void gt_amdgpu_fail_errno(struct gt_val *val, int rc);

struct gt_amdgpu_dpm;

/* Reads and parses the pp_dpm table dir/leaf into *dpm: its number of
 * levels, or -1 when it is unreadable or garbled; then val, unless NULL,
 * is failed with the errno's reason or as a driver error. */
int gt_amdgpu_rd_dpm(struct amdgpu_rd *r, const char *dir, const char *leaf,
                     struct gt_amdgpu_dpm *dpm, struct gt_val *val);
/* A PCIe link from its sysfs files: which is "max" (max_link_speed,
 * max_link_width) or "current". A speed of "Unknown" (a link that is
 * down) fails gen as unsupported. */
void gt_amdgpu_rd_link(struct amdgpu_rd *r, const char *dir, const char *which,
                       struct gt_val *gen, struct gt_val *width);

/* Finds which tempN is edge/junction/mem (by label, else by number). */
void gt_amdgpu_map_temps(struct amdgpu_rd *r, struct amdgpu_dev *d);

int gt_amdgpu_sample(struct gt_backend *b, unsigned dev, struct gt_sample *s,
                     int slow);

#endif

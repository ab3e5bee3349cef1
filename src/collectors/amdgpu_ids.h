/* SPDX-License-Identifier: MIT */
/*
 * amdgpu_ids.h - marketing names and architectures of AMD GPUs by PCI
 * device id and revision. Names come from libdrm's amdgpu.ids text table
 * (read directly, without opening the device) and, for ids the
 * distribution's copy lacks (Debian 12's has no RDNA3 or newer entry), from
 * a built-in table of newer devices; architectures from a small built-in
 * table of chips. Pure lookups: the only I/O is reading the ids file.
 */
#ifndef GPUTOP_AMDGPU_IDS_H
#define GPUTOP_AMDGPU_IDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where libdrm installs its table; GPUTOP_AMDGPU_IDS overrides it (tests,
 * or a newer copy kept elsewhere). */
#define GT_AMDGPU_IDS_DEFAULT "/usr/share/libdrm/amdgpu.ids"

/* A revision read from no file: match on the device id alone. */
#define GT_AMDGPU_REV_UNKNOWN (-1)

enum gt_amdgpu_name_source {
	GT_AMDGPU_NAME_IDS_FILE, /* the amdgpu.ids file */
	GT_AMDGPU_NAME_BUILTIN,  /* gputop's own table */
	GT_AMDGPU_NAME_GENERIC,  /* "AMD Radeon (device 0x744C)" */
};

/*
 * Writes the marketing name of (device, revision) into out[len]:
 *  1. the ids file's entry for exactly (device, revision);
 *  2. the built-in table's entry for exactly (device, revision);
 *  3. with the revision unknown or listed nowhere: the one name every entry
 *     of that device id agrees on, if they agree (e.g. 687F "AMD Radeon RX
 *     Vega"); an RX 7800 XT and an RX 7700 XT share 747E, so no guess;
 *  4. "AMD Radeon (device 0xNNNN)".
 * ids_path NULL = GT_AMDGPU_IDS_DEFAULT; an unreadable file is skipped.
 */
enum gt_amdgpu_name_source gt_amdgpu_name(const char *ids_path, uint16_t device,
                                          int revision, char *out, size_t len);

/* Architecture of a device id ("RDNA3", "GCN 4", ...); NULL if unknown. */
const char *gt_amdgpu_arch(uint16_t device);

/* True if the device id is a known APU (integrated GPU). */
bool gt_amdgpu_is_apu(uint16_t device);

/* Entries of the built-in name table, for tests. */
size_t gt_amdgpu_builtin_count(void);

#endif

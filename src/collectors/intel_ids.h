/* SPDX-License-Identifier: MIT */
/*
 * intel_ids.h - marketing names of Intel GPUs: a lookup in the PCI id
 * database (pci.ids) and a built-in table of current device ids for systems
 * whose pci.ids is missing or too old to know a new card. Pure functions
 * apart from reading the pci.ids file; no state.
 */
#ifndef GPUTOP_INTEL_IDS_H
#define GPUTOP_INTEL_IDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One row of the built-in table. */
struct gt_intel_id {
	uint16_t device;
	const char *name; /* "Intel Arc B580 Graphics" */
	const char *arch; /* "Xe2-HPG" */
};

/* The built-in row for a PCI device id (vendor 0x8086), or NULL. */
const struct gt_intel_id *gt_intel_id_lookup(uint16_t device);

/* Where pci.ids is looked for when no path is given, in order. */
extern const char *const gt_intel_pciids_paths[];

/* Finds device (vendor 0x8086) in a pci.ids file and copies its raw name
 * ("DG2 [Arc A770]") to out. Returns 0, -ENOENT when the file or the id is
 * missing, or another -errno. */
int gt_intel_pciids_find(const char *path, uint16_t device, char *out,
                         size_t len);

/* Turns a raw pci.ids device name into a display name: the last bracketed
 * part is the marketing name ("DG2 [Arc A770]" -> "Intel Arc A770"); with
 * no brackets the whole name is kept ("Intel <name>"). "Intel " is not
 * doubled. Returns true when the name had a bracketed marketing part. */
bool gt_intel_pciids_display(const char *raw, char *out, size_t len);

/*
 * The display name of an Intel GPU: pci.ids when it has a bracketed
 * marketing name for the id, else the built-in table, else pci.ids' plain
 * name, else "Intel Graphics [8086:xxxx]". pciids_path NULL tries
 * gt_intel_pciids_paths. Writes where the name came from to *source
 * ("pci.ids", "built-in table" or "pci id") when source is not NULL.
 */
void gt_intel_device_name(const char *pciids_path, uint16_t device, char *out,
                          size_t len, const char **source);

#endif

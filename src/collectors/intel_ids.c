/* SPDX-License-Identifier: MIT */
/*
 * intel_ids.c - Intel GPU names: pci.ids lookup and the built-in table of
 * current device ids (see intel_ids.h).
 *
 * Provenance of the table. Device ids and their platforms come from the
 * Linux kernel's include/drm/intel/pciids.h (MIT licence; the INTEL_TGL_,
 * _RKL_, _DG1_, _ADLS_, _ADLP_, _ADLN_, _RPLS_, _RPLU_, _RPLP_, _DG2_,
 * _ATS_M_, _MTL_, _ARL_, _LNL_, _BMG_ and _PTL_IDS lists). Marketing names
 * come from Mesa's include/pci_ids/iris_pci_ids.h (MIT), and, for the Arc
 * B580/B570 and the Lunar Lake Arc part, from Intel compute-runtime's
 * device tables (MIT), with the "(R)"/"(tm)" marks dropped. Where both
 * give only the generic "Intel Graphics", the platform is added in
 * parentheses so two such GPUs can still be told apart. The list of ids
 * and names is factual data; this table is part of gputop under its MIT
 * licence. Update it from the same three sources.
 */
#include "collectors/intel_ids.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/model.h"
#include "core/text.h"

#define XE_LP   "Xe-LP"
#define XE_HPG  "Xe-HPG"
#define XE_LPG  "Xe-LPG"
#define XE2_HPG "Xe2-HPG"
#define XE2_LPG "Xe2-LPG"
#define XE3_LPG "Xe3-LPG"

/* Sorted by device id: looked up by binary search. */
static const struct gt_intel_id ids[] = {
    {0x4626, "Intel Graphics (Alder Lake)", XE_LP},
    {0x4628, "Intel Graphics (Alder Lake)", XE_LP},
    {0x462a, "Intel Graphics (Alder Lake)", XE_LP},
    {0x4680, "Intel UHD Graphics 770", XE_LP},
    {0x4682, "Intel UHD Graphics 730", XE_LP},
    {0x4688, "Intel UHD Graphics (Alder Lake-S)", XE_LP},
    {0x468a, "Intel UHD Graphics (Alder Lake-S)", XE_LP},
    {0x468b, "Intel UHD Graphics (Alder Lake-S)", XE_LP},
    {0x4690, "Intel UHD Graphics 770", XE_LP},
    {0x4692, "Intel UHD Graphics 730", XE_LP},
    {0x4693, "Intel UHD Graphics 710", XE_LP},
    {0x46a0, "Intel Graphics (Alder Lake)", XE_LP},
    {0x46a1, "Intel Graphics (Alder Lake)", XE_LP},
    {0x46a2, "Intel Graphics (Alder Lake)", XE_LP},
    {0x46a3, "Intel Graphics (Alder Lake)", XE_LP},
    {0x46a6, "Intel Iris Xe Graphics", XE_LP},
    {0x46a8, "Intel Iris Xe Graphics", XE_LP},
    {0x46aa, "Intel Iris Xe Graphics", XE_LP},
    {0x46b0, "Intel Graphics (Alder Lake)", XE_LP},
    {0x46b1, "Intel Graphics (Alder Lake)", XE_LP},
    {0x46b2, "Intel Graphics (Alder Lake)", XE_LP},
    {0x46b3, "Intel Graphics (Alder Lake)", XE_LP},
    {0x46c0, "Intel Graphics (Alder Lake)", XE_LP},
    {0x46c1, "Intel Graphics (Alder Lake)", XE_LP},
    {0x46c2, "Intel Graphics (Alder Lake)", XE_LP},
    {0x46c3, "Intel Graphics (Alder Lake)", XE_LP},
    {0x46d0, "Intel Graphics (Alder Lake-N)", XE_LP},
    {0x46d1, "Intel Graphics (Alder Lake-N)", XE_LP},
    {0x46d2, "Intel Graphics (Alder Lake-N)", XE_LP},
    {0x46d3, "Intel Graphics (Alder Lake-N)", XE_LP},
    {0x46d4, "Intel Graphics (Alder Lake-N)", XE_LP},
    {0x4905, "Intel Iris Xe MAX Graphics", XE_LP},
    {0x4906, "Intel Graphics (DG1)", XE_LP},
    {0x4907, "Intel Graphics (SG1)", XE_LP},
    {0x4908, "Intel Iris Xe Graphics (DG1)", XE_LP},
    {0x4909, "Intel Graphics (DG1)", XE_LP},
    {0x4c80, "Intel Graphics (Rocket Lake)", XE_LP},
    {0x4c8a, "Intel Graphics (Rocket Lake)", XE_LP},
    {0x4c8b, "Intel Graphics (Rocket Lake)", XE_LP},
    {0x4c8c, "Intel Graphics (Rocket Lake)", XE_LP},
    {0x4c90, "Intel Graphics (Rocket Lake)", XE_LP},
    {0x4c9a, "Intel Graphics (Rocket Lake)", XE_LP},
    {0x5690, "Intel Arc A770M Graphics", XE_HPG},
    {0x5691, "Intel Arc A730M Graphics", XE_HPG},
    {0x5692, "Intel Arc A550M Graphics", XE_HPG},
    {0x5693, "Intel Arc A370M Graphics", XE_HPG},
    {0x5694, "Intel Arc A350M Graphics", XE_HPG},
    {0x5695, "Intel Graphics (DG2)", XE_HPG},
    {0x5696, "Intel Arc A570M Graphics", XE_HPG},
    {0x5697, "Intel Arc A530M Graphics", XE_HPG},
    {0x56a0, "Intel Arc A770 Graphics", XE_HPG},
    {0x56a1, "Intel Arc A750 Graphics", XE_HPG},
    {0x56a2, "Intel Arc A580 Graphics", XE_HPG},
    {0x56a3, "Intel Graphics (DG2)", XE_HPG},
    {0x56a4, "Intel Graphics (DG2)", XE_HPG},
    {0x56a5, "Intel Arc A380 Graphics", XE_HPG},
    {0x56a6, "Intel Arc A310 Graphics", XE_HPG},
    {0x56b0, "Intel Arc Pro A30M Graphics", XE_HPG},
    {0x56b1, "Intel Arc Pro A40/A50 Graphics", XE_HPG},
    {0x56b2, "Intel Arc Pro A60M Graphics", XE_HPG},
    {0x56b3, "Intel Arc Pro A60 Graphics", XE_HPG},
    {0x56ba, "Intel Arc A380E Graphics", XE_HPG},
    {0x56bb, "Intel Arc A310E Graphics", XE_HPG},
    {0x56bc, "Intel Arc A370E Graphics", XE_HPG},
    {0x56bd, "Intel Arc A350E Graphics", XE_HPG},
    {0x56be, "Intel Arc A750E Graphics", XE_HPG},
    {0x56bf, "Intel Arc A580E Graphics", XE_HPG},
    {0x56c0, "Intel Data Center GPU Flex 170", XE_HPG},
    {0x56c1, "Intel Data Center GPU Flex 140", XE_HPG},
    {0x56c2, "Intel Data Center GPU Flex 170V", XE_HPG},
    {0x6420, "Intel Graphics (Lunar Lake)", XE2_LPG},
    {0x64a0, "Intel Arc Graphics (Lunar Lake)", XE2_LPG},
    {0x64b0, "Intel Graphics (Lunar Lake)", XE2_LPG},
    {0x7d40, "Intel Graphics (Meteor Lake)", XE_LPG},
    {0x7d41, "Intel Graphics (Arrow Lake)", XE_LPG},
    {0x7d45, "Intel Graphics (Meteor Lake)", XE_LPG},
    {0x7d51, "Intel Graphics (Arrow Lake)", XE_LPG},
    {0x7d55, "Intel Arc Graphics (Meteor Lake)", XE_LPG},
    {0x7d60, "Intel Graphics (Meteor Lake)", XE_LPG},
    {0x7d67, "Intel Graphics (Arrow Lake)", XE_LPG},
    {0x7dd1, "Intel Graphics (Arrow Lake)", XE_LPG},
    {0x7dd5, "Intel Graphics (Meteor Lake)", XE_LPG},
    {0x9a40, "Intel Iris Xe Graphics", XE_LP},
    {0x9a49, "Intel Iris Xe Graphics", XE_LP},
    {0x9a59, "Intel Graphics (Tiger Lake)", XE_LP},
    {0x9a60, "Intel UHD Graphics (Tiger Lake)", XE_LP},
    {0x9a68, "Intel UHD Graphics (Tiger Lake)", XE_LP},
    {0x9a70, "Intel UHD Graphics (Tiger Lake)", XE_LP},
    {0x9a78, "Intel UHD Graphics (Tiger Lake)", XE_LP},
    {0x9ac0, "Intel UHD Graphics (Tiger Lake)", XE_LP},
    {0x9ac9, "Intel UHD Graphics (Tiger Lake)", XE_LP},
    {0x9ad9, "Intel UHD Graphics (Tiger Lake)", XE_LP},
    {0x9af8, "Intel UHD Graphics (Tiger Lake)", XE_LP},
    {0xa720, "Intel Graphics (Raptor Lake-P)", XE_LP},
    {0xa721, "Intel Graphics (Raptor Lake-U)", XE_LP},
    {0xa780, "Intel Graphics (Raptor Lake-S)", XE_LP},
    {0xa781, "Intel Graphics (Raptor Lake-S)", XE_LP},
    {0xa782, "Intel Graphics (Raptor Lake-S)", XE_LP},
    {0xa783, "Intel Graphics (Raptor Lake-S)", XE_LP},
    {0xa788, "Intel Graphics (Raptor Lake-S)", XE_LP},
    {0xa789, "Intel Graphics (Raptor Lake-S)", XE_LP},
    {0xa78a, "Intel Graphics (Raptor Lake-S)", XE_LP},
    {0xa78b, "Intel Graphics (Raptor Lake-S)", XE_LP},
    {0xa7a0, "Intel Iris Xe Graphics", XE_LP},
    {0xa7a1, "Intel Iris Xe Graphics", XE_LP},
    {0xa7a8, "Intel Graphics (Raptor Lake-P)", XE_LP},
    {0xa7a9, "Intel Graphics (Raptor Lake-U)", XE_LP},
    {0xa7aa, "Intel Graphics (Raptor Lake-P)", XE_LP},
    {0xa7ab, "Intel Graphics (Raptor Lake-P)", XE_LP},
    {0xa7ac, "Intel Graphics (Raptor Lake-U)", XE_LP},
    {0xa7ad, "Intel Graphics (Raptor Lake-U)", XE_LP},
    {0xb080, "Intel Graphics (Panther Lake)", XE3_LPG},
    {0xb081, "Intel Graphics (Panther Lake)", XE3_LPG},
    {0xb082, "Intel Graphics (Panther Lake)", XE3_LPG},
    {0xb083, "Intel Graphics (Panther Lake)", XE3_LPG},
    {0xb084, "Intel Graphics (Panther Lake)", XE3_LPG},
    {0xb085, "Intel Graphics (Panther Lake)", XE3_LPG},
    {0xb086, "Intel Graphics (Panther Lake)", XE3_LPG},
    {0xb087, "Intel Graphics (Panther Lake)", XE3_LPG},
    {0xb08f, "Intel Graphics (Panther Lake)", XE3_LPG},
    {0xb090, "Intel Graphics (Panther Lake)", XE3_LPG},
    {0xb0a0, "Intel Graphics (Panther Lake)", XE3_LPG},
    {0xb0b0, "Intel Graphics (Panther Lake)", XE3_LPG},
    {0xb640, "Intel Graphics (Arrow Lake)", XE_LPG},
    {0xe202, "Intel Graphics (Battlemage G21)", XE2_HPG},
    {0xe209, "Intel Graphics (Battlemage G21)", XE2_HPG},
    {0xe20b, "Intel Arc B580 Graphics", XE2_HPG},
    {0xe20c, "Intel Arc B570 Graphics", XE2_HPG},
    {0xe20d, "Intel Graphics (Battlemage G21)", XE2_HPG},
    {0xe210, "Intel Graphics (Battlemage G21)", XE2_HPG},
    {0xe211, "Intel Graphics (Battlemage G21)", XE2_HPG},
    {0xe212, "Intel Graphics (Battlemage G21)", XE2_HPG},
    {0xe215, "Intel Graphics (Battlemage)", XE2_HPG},
    {0xe216, "Intel Graphics (Battlemage G21)", XE2_HPG},
    {0xe220, "Intel Graphics (Battlemage G31)", XE2_HPG},
    {0xe221, "Intel Graphics (Battlemage G31)", XE2_HPG},
    {0xe222, "Intel Graphics (Battlemage G31)", XE2_HPG},
    {0xe223, "Intel Graphics (Battlemage G31)", XE2_HPG},
};

static int by_device(const void *key, const void *row)
{
	uint16_t k = *(const uint16_t *)key;
	uint16_t d = ((const struct gt_intel_id *)row)->device;
	return (k > d) - (k < d);
}

const struct gt_intel_id *gt_intel_id_lookup(uint16_t device)
{
	return bsearch(&device, ids, sizeof(ids) / sizeof(ids[0]),
	               sizeof(ids[0]), by_device);
}

const char *const gt_intel_pciids_paths[] = {
    "/usr/share/hwdata/pci.ids", /* Fedora, Arch, newer Debian */
    "/usr/share/misc/pci.ids",   /* Debian, Ubuntu, Alpine */
    "/usr/share/pci.ids",
    NULL,
};

/* Parses 4 hex digits; -1 when the text is not 4 hex digits. */
static long hex4(const char *p)
{
	long v = 0;
	for (int i = 0; i < 4; i++) {
		int h = gt_text_hex_digit((unsigned char)p[i]);
		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

int gt_intel_pciids_find(const char *path, uint16_t device, char *out,
                         size_t len)
{
	/* A regular file of at most 16 MiB (pci.ids is about 1.4 MB):
	 * GPUTOP_PCI_IDS naming a FIFO or /dev/zero must not hang the
	 * discovery or grow a line without end. */
	int err;
	FILE *f = gt_fileio_open_regular(path, 16u << 20, &err);
	char *line = NULL;
	size_t cap = 0;
	bool in_intel = false;
	int rc = -ENOENT;

	if (!f)
		return -err;
	/* The file is sorted by vendor: stop at the first vendor after
	 * Intel's, without reading the remaining megabyte. */
	while (getline(&line, &cap, f) > 0) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (line[0] != '\t') {
			long vendor = hex4(line);
			if (in_intel || vendor < 0 || vendor > 0x8086)
				break;
			in_intel = vendor == 0x8086;
			continue;
		}
		if (!in_intel || line[1] == '\t')
			continue; /* another vendor, or a subsystem line */
		if (hex4(line + 1) != device || line[5] != ' ')
			continue;
		const char *name = line + 5;
		while (*name == ' ')
			name++;
		size_t n = strcspn(name, "\r\n");
		while (n > 0 && (name[n - 1] == ' ' || name[n - 1] == '\t'))
			n--;
		if (n == 0)
			break;
		if (n >= len)
			n = len - 1;
		memcpy(out, name, n);
		out[n] = '\0';
		rc = 0;
		break;
	}
	free(line);
	fclose(f);
	return rc;
}

bool gt_intel_pciids_display(const char *raw, char *out, size_t len)
{
	const char *open = strrchr(raw, '[');
	const char *close = open ? strchr(open, ']') : NULL;
	const char *name = raw;
	size_t n = strlen(raw);
	bool marketing = false;

	if (open && close && close > open + 1) {
		name = open + 1;
		n = (size_t)(close - name);
		marketing = true;
	}
	/* pci.ids writes some names with the vendor ("Intel Arc Graphics"). */
	const char *prefix = strncmp(name, "Intel ", 6) == 0 ? "" : "Intel ";
	snprintf(out, len, "%s%.*s", prefix, (int)n, name);
	return marketing;
}

void gt_intel_device_name(const char *pciids_path, uint16_t device, char *out,
                          size_t len, const char **source)
{
	char raw[GT_STR_NAME] = "";
	char shown[GT_STR_NAME] = "";
	bool marketing = false, found = false;
	const char *src = "pci id";

	if (pciids_path) {
		found = gt_intel_pciids_find(pciids_path, device, raw,
		                             sizeof(raw)) == 0;
	} else {
		for (size_t i = 0; !found && gt_intel_pciids_paths[i]; i++)
			found =
			    gt_intel_pciids_find(gt_intel_pciids_paths[i],
			                         device, raw, sizeof(raw)) == 0;
	}
	if (found)
		marketing = gt_intel_pciids_display(raw, shown, sizeof(shown));

	const struct gt_intel_id *row = gt_intel_id_lookup(device);
	if (found && marketing) {
		gt_copy_str(out, len, shown);
		src = "pci.ids";
	} else if (row) {
		/* A bracketless pci.ids entry is a chip name ("Alder Lake-P
		 * GT2"): the table's marketing name says more. */
		gt_copy_str(out, len, row->name);
		src = "built-in table";
	} else if (found) {
		gt_copy_str(out, len, shown);
		src = "pci.ids";
	} else {
		snprintf(out, len, "Intel Graphics [8086:%04x]", device);
	}
	if (source)
		*source = src;
}

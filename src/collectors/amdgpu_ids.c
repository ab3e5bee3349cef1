/* SPDX-License-Identifier: MIT */
/*
 * amdgpu_ids.c - AMD GPU names and architectures (see amdgpu_ids.h).
 *
 * Provenance and licence of the built-in tables: they are a factual list
 * of (PCI device id, PCI revision) -> product name pairs taken from the
 * amdgpu.ids table maintained in libdrm (gitlab.freedesktop.org/mesa/drm,
 * data/amdgpu.ids; libdrm is under the MIT licence, the ids file has no
 * licence header of its own). Checked entry by entry against data/amdgpu.ids
 * (format version line "1.0.0") at commit
 * 06675b4fbede3c8547cf9de09444424672d06066 as published by the
 * X11Libre/mirror.fdo.drm mirror of that repository: every entry below is
 * in it with the same name, and it has no other entry for these device
 * ids. Which libdrm release tag first ships exactly that state was not
 * verified. Only the devices that Debian 12's copy (libdrm 2.4.114) lacks
 * are listed: RDNA3 and RDNA4 desktop and mobile cards, the Phoenix/Hawk
 * Point (Radeon 780M/760M/740M), Strix Point/Krackan (890M/880M/860M/
 * 840M/820M), Strix Halo (8060S...), Rembrandt/Raphael/Mendocino APUs and
 * the Instinct MI300/MI350 accelerators. No code was copied; names are
 * data. The chip families come from AMD's public product specifications.
 * When a distribution's amdgpu.ids has an entry, that entry wins.
 */
#include "collectors/amdgpu_ids.h"

#include <stdio.h>
#include <string.h>

#include "core/fileio.h"
#include "core/model.h"
#include "core/text.h"

struct builtin {
	uint16_t device;
	uint8_t revision;
	const char *name;
};

#define R780   "AMD Radeon 780M Graphics"
#define R760   "AMD Radeon 760M Graphics"
#define R740   "AMD Radeon 740M Graphics"
#define R890   "AMD Radeon 890M Graphics"
#define R880   "AMD Radeon 880M Graphics"
#define R860   "AMD Radeon 860M Graphics"
#define R840   "AMD Radeon 840M Graphics"
#define R820   "AMD Radeon 820M Graphics"
#define R8060S "AMD Radeon 8060S Graphics"
#define R8050S "AMD Radeon 8050S Graphics"
#define R8040S "AMD Radeon 8040S Graphics"
#define R680   "AMD Radeon 680M"
#define R660   "AMD Radeon 660M"
#define R610   "AMD Radeon 610M"

static const struct builtin builtin[] = {
    /* Krackan Point (RDNA3.5 APU) */
    {0x1114, 0xC2, R860},
    {0x1114, 0xC3, R840},
    {0x1114, 0xD2, R860},
    {0x1114, 0xD3, R840},
    {0x1114, 0xE2, R860},
    {0x1114, 0xE4, R860},
    {0x1114, 0xE5, R840},
    {0x1114, 0xE9, R860},
    {0x1114, 0xEA, R840},
    {0x1114, 0xED, R860},
    {0x1114, 0xEE, R840},
    {0x1114, 0xF2, R860},
    {0x1114, 0xF3, R840},
    {0x1114, 0xF9, R860},
    {0x1114, 0xFA, R840},
    {0x1114, 0xFC, R860},
    {0x1114, 0xFD, R840},
    /* Steam Deck OLED APU */
    {0x1435, 0xAE, "AMD Custom GPU 0932"},
    /* Mendocino (RDNA2 APU) */
    {0x1506, 0xC1, R610},
    {0x1506, 0xC2, R610},
    {0x1506, 0xC3, R610},
    {0x1506, 0xC4, R610},
    /* Strix Point (RDNA3.5 APU) */
    {0x150E, 0xC1, R890},
    {0x150E, 0xC4, R880},
    {0x150E, 0xC5, R890},
    {0x150E, 0xC6, R890},
    {0x150E, 0xC7, R890},
    {0x150E, 0xD1, R890},
    {0x150E, 0xD2, R880},
    {0x150E, 0xD3, R890},
    {0x150E, 0xE1, R890},
    {0x150E, 0xE3, R890},
    {0x150E, 0xE4, R890},
    {0x150E, 0xF1, R890},
    {0x150E, 0xF3, R890},
    /* Strix Halo (RDNA3.5 APU) */
    {0x1586, 0xC1, R8060S},
    {0x1586, 0xC2, R8050S},
    {0x1586, 0xC3, R8060S},
    {0x1586, 0xC4, R8050S},
    {0x1586, 0xC6, R8060S},
    {0x1586, 0xD1, R8060S},
    {0x1586, 0xD2, R8050S},
    {0x1586, 0xD4, R8050S},
    {0x1586, 0xD5, R8040S},
    /* Phoenix / Hawk Point (RDNA3 APU) */
    {0x15BF, 0x00, R780},
    {0x15BF, 0x01, R760},
    {0x15BF, 0x02, R780},
    {0x15BF, 0x03, R760},
    {0x15BF, 0x05, R760},
    {0x15BF, 0x06, R780},
    {0x15BF, 0x07, R740},
    {0x15BF, 0x08, R740},
    {0x15BF, 0xC1, R780},
    {0x15BF, 0xC2, R780},
    {0x15BF, 0xC3, R760},
    {0x15BF, 0xC4, R780},
    {0x15BF, 0xC5, R740},
    {0x15BF, 0xC6, R780},
    {0x15BF, 0xC7, R780},
    {0x15BF, 0xC8, R760},
    {0x15BF, 0xC9, R780},
    {0x15BF, 0xCA, R740},
    {0x15BF, 0xCB, R760},
    {0x15BF, 0xCC, R740},
    {0x15BF, 0xCD, R760},
    {0x15BF, 0xCE, R740},
    {0x15BF, 0xCF, R780},
    {0x15BF, 0xD0, R780},
    {0x15BF, 0xD1, R780},
    {0x15BF, 0xD2, R780},
    {0x15BF, 0xD3, R780},
    {0x15BF, 0xD4, R780},
    {0x15BF, 0xD5, R760},
    {0x15BF, 0xD6, R760},
    {0x15BF, 0xD7, R780},
    {0x15BF, 0xD8, R740},
    {0x15BF, 0xD9, R780},
    {0x15BF, 0xDA, R780},
    {0x15BF, 0xDB, R760},
    {0x15BF, 0xDC, R760},
    {0x15BF, 0xDD, R780},
    {0x15BF, 0xDE, R740},
    {0x15BF, 0xDF, R760},
    {0x15BF, 0xF0, R760},
    /* Phoenix2 (RDNA3 APU) */
    {0x15C8, 0xC1, R740},
    {0x15C8, 0xC2, R740},
    {0x15C8, 0xC3, R740},
    {0x15C8, 0xC4, R740},
    {0x15C8, 0xC5, R740},
    {0x15C8, 0xC6, R740},
    {0x15C8, 0xC7, R740},
    {0x15C8, 0xC8, R740},
    {0x15C8, 0xD1, R740},
    {0x15C8, 0xD2, R740},
    {0x15C8, 0xD3, R740},
    {0x15C8, 0xD4, R740},
    {0x15C8, 0xD5, R740},
    {0x15C8, 0xD6, R740},
    {0x15C8, 0xD7, R740},
    {0x15C8, 0xD8, R740},
    /* Raphael (RDNA2 APU) */
    {0x164E, 0xD8, R610},
    {0x164E, 0xD9, R610},
    {0x164E, 0xDA, R610},
    {0x164E, 0xDB, R610},
    {0x164E, 0xDC, R610},
    /* Rembrandt (RDNA2 APU) */
    {0x1681, 0x06, R680},
    {0x1681, 0x07, R660},
    {0x1681, 0x0A, R680},
    {0x1681, 0x0B, R660},
    {0x1681, 0xC7, R680},
    {0x1681, 0xC8, R680},
    {0x1681, 0xC9, R660},
    /* Hawk Point (RDNA3 APU) */
    {0x1900, 0x01, R780},
    {0x1900, 0x02, R760},
    {0x1900, 0x03, R780},
    {0x1900, 0x04, R760},
    {0x1900, 0x05, R780},
    {0x1900, 0x06, R780},
    {0x1900, 0x07, R760},
    {0x1900, 0xB0, R780},
    {0x1900, 0xB1, R780},
    {0x1900, 0xB2, R780},
    {0x1900, 0xB3, R780},
    {0x1900, 0xB4, R780},
    {0x1900, 0xB5, R780},
    {0x1900, 0xB6, R780},
    {0x1900, 0xB7, R760},
    {0x1900, 0xB8, R760},
    {0x1900, 0xB9, R780},
    {0x1900, 0xBA, R780},
    {0x1900, 0xBB, R780},
    {0x1900, 0xC0, R780},
    {0x1900, 0xC1, R760},
    {0x1900, 0xC2, R780},
    {0x1900, 0xC3, R760},
    {0x1900, 0xC4, R780},
    {0x1900, 0xC5, R780},
    {0x1900, 0xC6, R760},
    {0x1900, 0xC7, R780},
    {0x1900, 0xC8, R760},
    {0x1900, 0xC9, R780},
    {0x1900, 0xCA, R760},
    {0x1900, 0xCB, R780},
    {0x1900, 0xCC, R780},
    {0x1900, 0xCD, R760},
    {0x1900, 0xCE, R780},
    {0x1900, 0xCF, R760},
    {0x1900, 0xD0, R780},
    {0x1900, 0xD1, R760},
    {0x1900, 0xD2, R780},
    {0x1900, 0xD3, R760},
    {0x1900, 0xD4, R780},
    {0x1900, 0xD5, R780},
    {0x1900, 0xD6, R760},
    {0x1900, 0xD7, R780},
    {0x1900, 0xD8, R760},
    {0x1900, 0xD9, R780},
    {0x1900, 0xDA, R760},
    {0x1900, 0xDB, R780},
    {0x1900, 0xDC, R780},
    {0x1900, 0xDD, R760},
    {0x1900, 0xDE, R780},
    {0x1900, 0xDF, R760},
    {0x1900, 0xF0, R780},
    {0x1900, 0xF1, R780},
    {0x1900, 0xF2, R780},
    {0x1901, 0xC1, R740},
    {0x1901, 0xC2, R740},
    {0x1901, 0xC3, R740},
    {0x1901, 0xC6, R740},
    {0x1901, 0xC7, R740},
    {0x1901, 0xC8, R740},
    {0x1901, 0xC9, R740},
    {0x1901, 0xCA, R740},
    {0x1901, 0xD1, R740},
    {0x1901, 0xD2, R740},
    {0x1901, 0xD3, R740},
    {0x1901, 0xD4, R740},
    {0x1901, 0xD5, R740},
    {0x1901, 0xD6, R740},
    {0x1901, 0xD7, R740},
    {0x1901, 0xD8, R740},
    /* Krackan Point 2 (RDNA3.5 APU) */
    {0x1902, 0xC0, R840},
    {0x1902, 0xC1, R840},
    {0x1902, 0xC2, R820},
    {0x1902, 0xC3, R840},
    {0x1902, 0xC6, R820},
    {0x1902, 0xC7, R840},
    {0x1902, 0xC8, R840},
    {0x1902, 0xC9, R820},
    {0x1902, 0xCA, R840},
    {0x1902, 0xD1, R840},
    {0x1902, 0xD3, R840},
    {0x1902, 0xD7, R840},
    {0x1902, 0xD8, R840},
    /* Navi 23 mobile (RDNA2) */
    {0x73E0, 0x00, "AMD Radeon RX 6600M"},
    /* Navi 31 (RDNA3) */
    {0x7448, 0x00, "AMD Radeon Pro W7900"},
    {0x7449, 0x00, "AMD Radeon Pro W7800 48GB"},
    {0x744A, 0x00, "AMD Radeon Pro W7900 Dual Slot"},
    {0x744B, 0x00, "AMD Radeon Pro W7900D"},
    {0x744C, 0xC8, "AMD Radeon RX 7900 XTX"},
    {0x744C, 0xCC, "AMD Radeon RX 7900 XT"},
    {0x744C, 0xCE, "AMD Radeon RX 7900 GRE"},
    {0x744C, 0xCF, "AMD Radeon RX 7900M"},
    {0x745E, 0xCC, "AMD Radeon Pro W7800"},
    {0x7460, 0x00, "AMD Radeon Pro V710"},
    {0x7461, 0x00, "AMD Radeon Pro V710 MxGPU"},
    /* Navi 32 (RDNA3) */
    {0x7470, 0x00, "AMD Radeon Pro W7700"},
    {0x747E, 0xC8, "AMD Radeon RX 7800 XT"},
    {0x747E, 0xD8, "AMD Radeon RX 7800M"},
    {0x747E, 0xDB, "AMD Radeon RX 7700"},
    {0x747E, 0xFF, "AMD Radeon RX 7700 XT"},
    /* Navi 33 (RDNA3) */
    {0x7480, 0x00, "AMD Radeon Pro W7600"},
    {0x7480, 0xC0, "AMD Radeon RX 7600 XT"},
    {0x7480, 0xC1, "AMD Radeon RX 7700S"},
    {0x7480, 0xC2, "AMD Radeon RX 7650 GRE"},
    {0x7480, 0xC3, "AMD Radeon RX 7600S"},
    {0x7480, 0xC7, "AMD Radeon RX 7600M XT"},
    {0x7480, 0xCF, "AMD Radeon RX 7600"},
    {0x7483, 0xCF, "AMD Radeon RX 7600M"},
    {0x7489, 0x00, "AMD Radeon Pro W7500"},
    {0x7499, 0x00, "AMD Radeon Pro W7400"},
    {0x7499, 0xC0, "AMD Radeon RX 7400"},
    {0x7499, 0xC1, "AMD Radeon RX 7300"},
    {0x7481, 0xC7, "AMD Steam Machine"},
    /* Instinct MI300 family (CDNA3) */
    {0x74A0, 0x00, "AMD Instinct MI300A"},
    {0x74A1, 0x00, "AMD Instinct MI300X"},
    {0x74A2, 0x00, "AMD Instinct MI308X"},
    {0x74A5, 0x00, "AMD Instinct MI325X"},
    {0x74A8, 0x00, "AMD Instinct MI308X HF"},
    {0x74A9, 0x00, "AMD Instinct MI300X HF"},
    {0x74B5, 0x00, "AMD Instinct MI300X VF"},
    {0x74B6, 0x00, "AMD Instinct MI308X"},
    {0x74BD, 0x00, "AMD Instinct MI300X HF"},
    /* Navi 48 / Navi 44 (RDNA4) */
    {0x7550, 0xC0, "AMD Radeon RX 9070 XT"},
    {0x7550, 0xC2, "AMD Radeon RX 9070 GRE"},
    {0x7550, 0xC3, "AMD Radeon RX 9070"},
    {0x7551, 0xC0, "AMD Radeon AI PRO R9700"},
    {0x7551, 0xC8, "AMD Radeon AI PRO R9600D"},
    {0x7590, 0xC0, "AMD Radeon RX 9060 XT"},
    {0x7590, 0xC1, "AMD Radeon RX 9060 XT LP"},
    {0x7590, 0xC7, "AMD Radeon RX 9060"},
    /* Instinct MI350 family (CDNA4) */
    {0x75A0, 0x00, "AMD Instinct MI350X"},
    {0x75A3, 0x00, "AMD Instinct MI355X"},
    {0x75B0, 0x00, "AMD Instinct MI350X VF"},
    {0x75B3, 0x00, "AMD Instinct MI355X VF"},
};

struct chip {
	uint16_t first, last; /* device id range, inclusive */
	const char *arch;
	bool apu;
};

/* Chip families by device id (AMD product specifications; device ids as
 * listed by the PCI id database). Ranges only where the whole range is one
 * family. */
static const struct chip chips[] = {
    {0x6600, 0x663F, "GCN 1", false},  /* Oland */
    {0x6640, 0x665F, "GCN 2", false},  /* Bonaire */
    {0x6660, 0x666F, "GCN 1", false},  /* Hainan */
    {0x6780, 0x679F, "GCN 1", false},  /* Tahiti */
    {0x67A0, 0x67BF, "GCN 2", false},  /* Hawaii */
    {0x67C0, 0x67FF, "GCN 4", false},  /* Polaris 10/11/20/21 */
    {0x6800, 0x683F, "GCN 1", false},  /* Pitcairn, Cape Verde */
    {0x6860, 0x687F, "GCN 5", false},  /* Vega 10 */
    {0x66A0, 0x66AF, "GCN 5", false},  /* Vega 20 */
    {0x6900, 0x693F, "GCN 3", false},  /* Iceland, Tonga */
    {0x694C, 0x694F, "GCN 4", false},  /* Vega M (Polaris 22) */
    {0x6980, 0x699F, "GCN 4", false},  /* Polaris 12 */
    {0x6FDF, 0x6FDF, "GCN 4", false},  /* Polaris 20 */
    {0x7300, 0x730F, "GCN 3", false},  /* Fiji */
    {0x15D8, 0x15D8, "GCN 5", true},   /* Picasso */
    {0x15DD, 0x15DD, "GCN 5", true},   /* Raven */
    {0x15E7, 0x15E7, "GCN 5", true},   /* Barcelo */
    {0x1636, 0x1636, "GCN 5", true},   /* Renoir */
    {0x1638, 0x1638, "GCN 5", true},   /* Cezanne */
    {0x164C, 0x164C, "GCN 5", true},   /* Lucienne */
    {0x7310, 0x731F, "RDNA1", false},  /* Navi 10 */
    {0x7340, 0x734F, "RDNA1", false},  /* Navi 14 */
    {0x7360, 0x736F, "RDNA1", false},  /* Navi 12 */
    {0x7380, 0x738F, "CDNA", false},   /* Arcturus (MI100) */
    {0x73A0, 0x73BF, "RDNA2", false},  /* Navi 21 */
    {0x73C0, 0x73DF, "RDNA2", false},  /* Navi 22 */
    {0x73E0, 0x73FF, "RDNA2", false},  /* Navi 23 */
    {0x7400, 0x741F, "CDNA2", false},  /* Aldebaran (MI200) */
    {0x7420, 0x743F, "RDNA2", false},  /* Navi 24 */
    {0x1435, 0x1435, "RDNA2", true},   /* Steam Deck OLED */
    {0x1506, 0x1506, "RDNA2", true},   /* Mendocino */
    {0x163F, 0x163F, "RDNA2", true},   /* Van Gogh (Steam Deck) */
    {0x164E, 0x164E, "RDNA2", true},   /* Raphael */
    {0x1681, 0x1681, "RDNA2", true},   /* Rembrandt */
    {0x7440, 0x745F, "RDNA3", false},  /* Navi 31 */
    {0x7460, 0x747F, "RDNA3", false},  /* Navi 32 */
    {0x7480, 0x749F, "RDNA3", false},  /* Navi 33 */
    {0x74A0, 0x74A0, "CDNA3", true},   /* MI300A (CPU and GPU) */
    {0x74A0, 0x74BF, "CDNA3", false},  /* MI300X, MI308X, MI325X */
    {0x15BF, 0x15BF, "RDNA3", true},   /* Phoenix */
    {0x15C8, 0x15C8, "RDNA3", true},   /* Phoenix2 */
    {0x1900, 0x1901, "RDNA3", true},   /* Hawk Point */
    {0x1114, 0x1114, "RDNA3.5", true}, /* Krackan Point */
    {0x150E, 0x150E, "RDNA3.5", true}, /* Strix Point */
    {0x1586, 0x1586, "RDNA3.5", true}, /* Strix Halo */
    {0x1902, 0x1902, "RDNA3.5", true}, /* Krackan Point 2 */
    {0x7550, 0x755F, "RDNA4", false},  /* Navi 48 */
    {0x7590, 0x759F, "RDNA4", false},  /* Navi 44 */
    {0x75A0, 0x75BF, "CDNA4", false},  /* MI350 */
};

static const struct chip *find_chip(uint16_t device)
{
	for (size_t i = 0; i < sizeof(chips) / sizeof(chips[0]); i++)
		if (device >= chips[i].first && device <= chips[i].last)
			return &chips[i];
	return NULL;
}

const char *gt_amdgpu_arch(uint16_t device)
{
	const struct chip *c = find_chip(device);
	return c ? c->arch : NULL;
}

bool gt_amdgpu_is_apu(uint16_t device)
{
	const struct chip *c = find_chip(device);
	return c && c->apu;
}

size_t gt_amdgpu_builtin_count(void)
{
	return sizeof(builtin) / sizeof(builtin[0]);
}

/* What the lookups found so far for one device id. */
struct hunt {
	uint16_t device;
	int revision;
	char exact[GT_STR_NAME]; /* entry for (device, revision) */
	char only[GT_STR_NAME];  /* the name all entries of the device share */
	bool ambiguous;          /* entries of the device disagree */
	enum gt_amdgpu_name_source only_src;
};

static void note(struct hunt *h, int revision, const char *name,
                 enum gt_amdgpu_name_source src, bool *exact)
{
	if (h->revision != GT_AMDGPU_REV_UNKNOWN && revision == h->revision &&
	    !*exact) {
		gt_copy_str(h->exact, sizeof(h->exact), name);
		*exact = true;
	}
	if (!h->only[0]) {
		gt_copy_str(h->only, sizeof(h->only), name);
		h->only_src = src;
	} else if (strcmp(h->only, name) != 0) {
		h->ambiguous = true;
	}
}

/* Parses hex digits up to a ','; -1 if there are none or too many. */
static long hex_field(const char **p, int max_digits)
{
	long v = 0;
	int n = 0;
	while (**p == ' ' || **p == '\t')
		(*p)++;
	for (int d; (d = gt_text_hex_digit(**p)) >= 0; (*p)++, n++)
		v = v * 16 + d;
	while (**p == ' ' || **p == '\t')
		(*p)++;
	if (n == 0 || n > max_digits || **p != ',')
		return -1;
	(*p)++;
	return v;
}

/* Reads "DEVICE,\tREVISION,\tNAME" lines; comments, the version line and
 * malformed lines are skipped. */
static void hunt_file(struct hunt *h, const char *path, bool *exact)
{
	/* A regular file of at most 16 MiB (amdgpu.ids is about 60 KB):
	 * GPUTOP_AMDGPU_IDS naming a FIFO or /dev/zero must not hang the
	 * discovery or grow without end. */
	int err;
	FILE *f = gt_fileio_open_regular(path, 16u << 20, &err);
	char line[256];
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		const char *p = line;
		if (line[0] == '#')
			continue;
		long dev = hex_field(&p, 4);
		long rev = dev < 0 ? -1 : hex_field(&p, 2);
		if (rev < 0 || dev != h->device)
			continue;
		while (*p == ' ' || *p == '\t')
			p++;
		size_t n = strcspn(p, "\r\n");
		while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		if (n == 0 || n >= GT_STR_NAME)
			continue;
		char name[GT_STR_NAME];
		memcpy(name, p, n);
		name[n] = '\0';
		note(h, (int)rev, name, GT_AMDGPU_NAME_IDS_FILE, exact);
	}
	fclose(f);
}

enum gt_amdgpu_name_source gt_amdgpu_name(const char *ids_path, uint16_t device,
                                          int revision, char *out, size_t len)
{
	struct hunt h;
	bool file_exact = false, builtin_exact = false;
	char builtin_name[GT_STR_NAME] = "";

	memset(&h, 0, sizeof(h));
	h.device = device;
	h.revision = revision;
	hunt_file(&h, ids_path ? ids_path : GT_AMDGPU_IDS_DEFAULT, &file_exact);
	if (file_exact) {
		gt_copy_str(out, len, h.exact);
		return GT_AMDGPU_NAME_IDS_FILE;
	}
	for (size_t i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++) {
		if (builtin[i].device != device)
			continue;
		note(&h, builtin[i].revision, builtin[i].name,
		     GT_AMDGPU_NAME_BUILTIN, &builtin_exact);
		if (builtin_exact && !builtin_name[0])
			gt_copy_str(builtin_name, sizeof(builtin_name),
			            h.exact);
	}
	if (builtin_exact) {
		gt_copy_str(out, len, builtin_name);
		return GT_AMDGPU_NAME_BUILTIN;
	}
	if (h.only[0] && !h.ambiguous) {
		gt_copy_str(out, len, h.only);
		return h.only_src;
	}
	snprintf(out, len, "AMD Radeon (device 0x%04X)", device);
	return GT_AMDGPU_NAME_GENERIC;
}

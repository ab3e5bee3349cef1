/* SPDX-License-Identifier: MIT */
/*
 * fdinfo_parse.h - the parser of one /proc/PID/fdinfo/FD text (the DRM
 * client usage stats, Documentation/gpu/drm-usage-stats.rst, plus amdgpu's
 * pre-standard 5.14-5.18 lines) into a fixed-size, allocation-free sample,
 * and the mapping of driver engine names to engine classes. Used by
 * fdinfo.c; public so tests can feed it text directly.
 */
#ifndef GPUTOP_FDINFO_PARSE_H
#define GPUTOP_FDINFO_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/model.h"

/* Engines kept per client; amdgpu prints at most 8 classes, xe 5, i915 5.
 * Further engines are ignored. */
#define GT_FDINFO_MAX_ENGINES 16
/* Longest engine name kept (with NUL); longer names are ignored rather than
 * cut, so two long names can never merge. */
#define GT_FDINFO_ENGINE_NAME 24
#define GT_FDINFO_DRIVER_LEN  32
/* Capacities above this are treated as bogus and clamped. */
#define GT_FDINFO_MAX_CAPACITY 256u

/*
 * Engine classes. GPU% is the busiest of RENDER, COMPUTE, COPY and OTHER
 * (the "non-video" classes); encode and decode come from the media classes.
 */
enum gt_fdinfo_class {
	GT_FDI_RENDER,  /* gfx (amdgpu), render (i915), rcs (xe) */
	GT_FDI_COMPUTE, /* compute (amdgpu, i915), ccs (xe) */
	GT_FDI_COPY,    /* dma/sdma (amdgpu), copy (i915), bcs (xe) */
	GT_FDI_OTHER,   /* any other name: SoC GPUs (msm gpu, panfrost
	                 * fragment/vertex-tiler, panthor, v3d), NPUs */
	GT_FDI_CODEC,   /* one engine that encodes and decodes: video (i915),
	                 * vcs (xe) */
	GT_FDI_DEC,     /* dec, jpeg (amdgpu) */
	GT_FDI_ENC,     /* enc, enc_1 (amdgpu; on VCN 4+ the unified queue
	                 * counts all video work as enc) */
	GT_FDI_VPP,     /* video post-processing: video-enhance (i915), vecs
	                 * (xe), vpe (amdgpu) */
	GT_FDI__CLASS_COUNT
};

/* Bit masks over enum gt_fdinfo_class. */
#define GT_FDI_BIT(c) (1u << (c))
#define GT_FDI_GPU_MASK                                                        \
	(GT_FDI_BIT(GT_FDI_RENDER) | GT_FDI_BIT(GT_FDI_COMPUTE) |              \
	 GT_FDI_BIT(GT_FDI_COPY) | GT_FDI_BIT(GT_FDI_OTHER))
#define GT_FDI_ENC_MASK                                                        \
	(GT_FDI_BIT(GT_FDI_ENC) | GT_FDI_BIT(GT_FDI_CODEC) |                   \
	 GT_FDI_BIT(GT_FDI_VPP))
#define GT_FDI_DEC_MASK                                                        \
	(GT_FDI_BIT(GT_FDI_DEC) | GT_FDI_BIT(GT_FDI_CODEC) |                   \
	 GT_FDI_BIT(GT_FDI_VPP))

/* Which counters an engine line gave (struct gt_fdinfo_engine.have). */
enum {
	GT_FDI_HAVE_NS = 1u << 0,     /* drm-engine-<e>: N ns */
	GT_FDI_HAVE_CYCLES = 1u << 1, /* drm-cycles-<e> */
	GT_FDI_HAVE_TOTAL = 1u << 2,  /* drm-total-cycles-<e> */
	GT_FDI_HAVE_PCT = 1u << 3,    /* a percentage the kernel computed */
};

struct gt_fdinfo_engine {
	char name[GT_FDINFO_ENGINE_NAME];
	uint8_t cls;       /* enum gt_fdinfo_class */
	uint8_t have;      /* GT_FDI_HAVE_* */
	uint32_t capacity; /* drm-engine-capacity-<e>, 1 when absent */
	uint64_t ns;
	uint64_t cycles;
	uint64_t total_cycles;
	uint32_t pct; /* cpercent, when GT_FDI_HAVE_PCT */
};

/* Memory the model shows: VRAM (GT_P_MEM) and system memory (GT_P_GTT). */
enum gt_fdinfo_mem { GT_FDI_VRAM, GT_FDI_GTT, GT_FDI__MEM_COUNT };

/* Key families a region's size came from, best first. */
enum gt_fdinfo_mem_kind {
	GT_FDI_RESIDENT, /* drm-resident-<r>: backing store present now */
	GT_FDI_MEMORY,   /* drm-memory-<r> (deprecated) and amdgpu 5.15's
	                  * "vram mem:" lines */
	GT_FDI_TOTAL,    /* drm-total-<r> */
	GT_FDI__KIND_COUNT
};

struct gt_fdinfo_sample {
	char driver[GT_FDINFO_DRIVER_LEN]; /* drm-driver, "" when absent */
	bool legacy; /* amdgpu 5.14-5.18: no drm-driver, "pdev:" */
	bool has_pdev;
	bool has_client_id;
	bool has_pasid;
	bool any_mem;  /* some size key for any region was seen */
	uint64_t pdev; /* see gt_fdinfo_pdev_parse() */
	uint64_t client_id;
	uint64_t pasid;
	uint32_t n_engines;
	struct gt_fdinfo_engine engines[GT_FDINFO_MAX_ENGINES];
	/* Sums over the regions of each kind; kinds_have bit k = a key of
	 * kind k was seen for that memory. */
	uint64_t mem[GT_FDI__MEM_COUNT][GT_FDI__KIND_COUNT];
	uint8_t kinds_have[GT_FDI__MEM_COUNT];
	/* kinds_bad bit k = a key of kind k for that memory had a value
	 * that is not a size (not a number, a unit not known, too large):
	 * that kind's sum would be short. bad_key is the first such key,
	 * as a GT_WHY_MALFORMED code (gt_why_fdinfo_key). */
	uint8_t kinds_bad[GT_FDI__MEM_COUNT];
	int32_t bad_key[GT_FDI__MEM_COUNT];
};

/*
 * Parses len bytes of fdinfo text (need not be NUL-terminated; a NUL ends
 * it). Never fails on bad input: unknown keys, malformed lines, overflowing
 * numbers and unknown units are skipped (a memory size key's is noted in
 * kinds_bad, so that the size is not taken as absent). Returns true when the
 * text is a DRM client: it has drm-driver, or amdgpu's legacy pdev: + pasid:
 * lines (then driver is set to "amdgpu" and legacy to true).
 */
bool gt_fdinfo_parse(const char *text, size_t len,
                     struct gt_fdinfo_sample *out);

/* Memory of one kind: the resident size if the driver printed one, else
 * the deprecated drm-memory-* / legacy size, else the total; a kind with a
 * key that could not be read is passed over, its sum being short. false
 * (and 0) when no kind is left. */
bool gt_fdinfo_sample_mem(const struct gt_fdinfo_sample *s,
                          enum gt_fdinfo_mem mem, uint64_t *bytes);

/* Why gt_fdinfo_sample_mem found no size: the GT_WHY_MALFORMED code of
 * the key that could not be read, or -1 when there is a size or the
 * sample has no key for that memory at all. */
int32_t gt_fdinfo_sample_bad_key(const struct gt_fdinfo_sample *s,
                                 enum gt_fdinfo_mem mem);

/* Class of an engine name; names with a ring index ("gfx0", "enc_10")
 * take the class of their base name. Unknown names are GT_FDI_OTHER. */
enum gt_fdinfo_class gt_fdinfo_engine_class(const char *name);

/*
 * Parses a PCI address "[DDDD:]BB:DD.F" (hex, any case, any domain width up
 * to 8 digits, as fdinfo, sysfs and NVML write it) into one comparable key.
 * false on anything else.
 */
bool gt_fdinfo_pdev_parse(const char *s, size_t len, uint64_t *key);

#endif

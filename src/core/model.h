/* SPDX-License-Identifier: MIT */
/*
 * model.h - the one vendor-neutral data model every backend fills and every
 * reader (snapshot, dashboard, exporter) consumes.
 *
 * Every numeric value is a struct gt_val: the value in an integer SI unit
 * (bytes, mW, m°C, MHz, mJ, hundredths of a percent) plus a status saying why
 * it is missing when it is missing. Unknown is never zero: a reader must test
 * gt_val_ok() before using .v.
 *
 * Numeric fields are addressed by enum so that writers (the JSON snapshot,
 * the reason listing) walk one descriptor table instead of repeating the list.
 *
 * The folder src/core/ is the bottom layer: the model, the sample rings, the
 * publication of immutable lists, the collector thread and its schedule,
 * the reader's view, the backend vtable and the platform the collector is
 * handed, text safety, host facts and file writing. It includes nothing
 * outside itself (docs/architecture.md).
 */
#ifndef GPUTOP_MODEL_H
#define GPUTOP_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Why a value is missing. GT_WHY_OK means the value is valid. */
enum gt_why {
	GT_WHY_OK = 0,
	GT_WHY_NOT_COLLECTED,      /* never sampled yet (a fresh sample) */
	GT_WHY_UNSUPPORTED_DEVICE, /* this device cannot give it */
	GT_WHY_UNSUPPORTED_DRIVER, /* the driver/library is too old */
	GT_WHY_PERMISSION,         /* the driver refused: needs privileges */
	GT_WHY_DRIVER_ERROR,       /* the driver returned an error code */
	GT_WHY_PENDING,            /* a rate: needs a second sample */
	GT_WHY_LOST,               /* the device fell off the bus */
	GT_WHY_MIG,                /* not available while MIG is enabled */
	GT_WHY_NO_SENSOR,          /* the backend has no source for it */
	GT_WHY_ASLEEP,             /* runtime-suspended: not read, not woken */
	GT_WHY_MALFORMED,          /* its fdinfo line unreadable (code: key) */
	GT_WHY_RANGE,              /* a number no device gives (sysfs, hwmon) */
	GT_WHY__COUNT
};

/* The code of a GT_WHY_MALFORMED value: the DRM fdinfo key whose line
 * could not be read, packed by gt_why_fdinfo_key() so that the reason can
 * name it (gt_why_text spells it out: "drm-total-local0", "vram mem"). The
 * families and region bases are drm-usage-stats.rst's, with amdgpu 5.15's
 * "<region> mem" lines as LEGACY. */
enum gt_why_fdinfo_family {
	GT_WHY_FDI_RESIDENT, /* drm-resident-<region> */
	GT_WHY_FDI_MEMORY,   /* drm-memory-<region> */
	GT_WHY_FDI_TOTAL,    /* drm-total-<region> */
	GT_WHY_FDI_LEGACY,   /* <region> mem */
};
enum gt_why_fdinfo_region {
	GT_WHY_FDI_VRAM,
	GT_WHY_FDI_LOCAL,
	GT_WHY_FDI_SYSTEM,
	GT_WHY_FDI_GTT,
	GT_WHY_FDI_CPU,
	GT_WHY_FDI_MEMORY_REGION, /* "memory", the standard's system memory */
	GT_WHY_FDI__REGION_COUNT
};
/* Region indexes up to this are kept ("vram0"); a larger one is dropped
 * from the name rather than packed wrong. */
#define GT_WHY_FDI_INDEX_MAX 0xffffff

struct gt_val {
	int64_t v;
	int32_t code; /* driver error code when why == GT_WHY_DRIVER_ERROR,
	               * the key when GT_WHY_MALFORMED */
	uint8_t why;  /* enum gt_why */
};

static inline bool gt_val_ok(const struct gt_val *val)
{
	return val->why == GT_WHY_OK;
}

static inline void gt_val_set(struct gt_val *val, int64_t v)
{
	val->v = v;
	val->code = 0;
	val->why = GT_WHY_OK;
}

static inline void gt_val_fail(struct gt_val *val, enum gt_why why,
                               int32_t code)
{
	val->v = 0;
	val->code = code;
	val->why = (uint8_t)why;
}

/* Copies src into dst[len], truncating; always NUL-terminates. */
static inline void gt_copy_str(char *dst, size_t len, const char *src)
{
	size_t n;
	if (len == 0)
		return;
	n = strnlen(src, len - 1);
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Units of the stored integers, and how the JSON writer scales them. */
enum gt_unit {
	GT_UNIT_COUNT,    /* plain number */
	GT_UNIT_CPERCENT, /* hundredths of a percent */
	GT_UNIT_BYTES,
	GT_UNIT_BYTES_PER_S,
	GT_UNIT_MILLICELSIUS,
	GT_UNIT_MILLIWATT,
	GT_UNIT_MILLIJOULE,
	GT_UNIT_MHZ,
	GT_UNIT_RPM,
	GT_UNIT_BITMASK,
	GT_UNIT_BOOL, /* 0/1, written as a JSON boolean */
};

enum gt_vendor {
	GT_VENDOR_UNKNOWN = 0,
	GT_VENDOR_NVIDIA,
	GT_VENDOR_AMD,
	GT_VENDOR_INTEL,
};

#define GT_MAX_FANS 8

/* Static facts: read once per device and again when the device changes. */
enum gt_static_field {
	GT_S_VRAM_TOTAL,    /* bytes */
	GT_S_POWER_MIN,     /* mW */
	GT_S_POWER_MAX,     /* mW */
	GT_S_POWER_DEFAULT, /* mW */
	GT_S_TEMP_SLOWDOWN, /* m°C, GPU (AMD: edge) sensor: clocks cut */
	GT_S_TEMP_SHUTDOWN, /* m°C, GPU (AMD: edge) sensor: power off */
	GT_S_TEMP_GPU_MAX,  /* m°C, AMD: the junction's crit */
	/* m°C, where the hotspot (AMD: junction) sensor powers it off */
	GT_S_TEMP_HOTSPOT_SHUTDOWN,
	GT_S_TEMP_MEM_MAX, /* m°C */
	/* m°C, where the memory sensor powers it off */
	GT_S_TEMP_MEM_SHUTDOWN,
	GT_S_CLK_GRAPHICS_MAX, /* MHz */
	GT_S_CLK_SM_MAX,       /* MHz */
	GT_S_CLK_MEM_MAX,      /* MHz */
	GT_S_CLK_VIDEO_MAX,    /* MHz */
	GT_S_PCIE_MAX_GEN,
	GT_S_PCIE_MAX_WIDTH,
	GT_S_FAN_COUNT,
	GT_S_FAN_MIN_PERCENT, /* settable range, cpercent */
	GT_S_FAN_MAX_PERCENT,
	GT_S_CC_MAJOR, /* compute capability */
	GT_S_CC_MINOR,
	GT_S_MIG_MODE, /* bool */
	GT_S_ECC_MODE, /* bool */
	GT_S__COUNT
};

#define GT_STR_SHORT 32
#define GT_STR_NAME  96

struct gt_static {
	unsigned index; /* position in gputop's own device list */
	enum gt_vendor vendor;
	char id[GT_STR_SHORT];         /* stable id: "pci:DDDD:BB:DD.F" */
	char pci_bus_id[GT_STR_SHORT]; /* "0000:01:00.0" */
	char name[GT_STR_NAME];
	char uuid[GT_STR_NAME];
	char serial[GT_STR_SHORT];
	char driver[GT_STR_SHORT]; /* kernel driver: nvidia, amdgpu, i915, xe */
	char driver_version[GT_STR_SHORT];
	char architecture[GT_STR_SHORT]; /* "Hopper", "RDNA3", ... or "" */
	char vbios[GT_STR_SHORT];
	uint16_t pci_vendor_id;
	uint16_t pci_device_id;
	uint32_t pci_subsystem_id;
	bool integrated;
	bool demo; /* a simulated device: everything shown about it says DEMO */
	struct gt_val f[GT_S__COUNT];
};

/* Fast metrics, one sample per tick per device. */
enum gt_field {
	GT_F_UTIL_GPU,       /* cpercent */
	GT_F_UTIL_MEMBW,     /* cpercent, memory-controller busy */
	GT_F_UTIL_ENC,       /* cpercent */
	GT_F_UTIL_DEC,       /* cpercent */
	GT_F_MEM_TOTAL,      /* bytes */
	GT_F_MEM_USED,       /* bytes, excluding reserved */
	GT_F_MEM_FREE,       /* bytes */
	GT_F_MEM_RESERVED,   /* bytes */
	GT_F_TEMP_GPU,       /* m°C */
	GT_F_TEMP_HOTSPOT,   /* m°C */
	GT_F_TEMP_MEM,       /* m°C */
	GT_F_POWER_DRAW,     /* mW */
	GT_F_POWER_LIMIT,    /* mW, the limit requested through the driver */
	GT_F_POWER_ENFORCED, /* mW, the limit in force (includes out-of-band
	                        caps) */
	GT_F_ENERGY,         /* mJ, counter since driver load */
	GT_F_PSTATE,         /* 0..15, 0 = maximum performance */
	GT_F_CLK_GRAPHICS,   /* MHz */
	GT_F_CLK_SM,
	GT_F_CLK_MEM,
	GT_F_CLK_VIDEO,
	GT_F_PCIE_GEN,
	GT_F_PCIE_WIDTH,
	GT_F_PCIE_TX,  /* bytes/s */
	GT_F_PCIE_RX,  /* bytes/s */
	GT_F_THROTTLE, /* bitmask of enum gt_throttle */
	GT_F_ECC_CORRECTED_VOLATILE,
	GT_F_ECC_UNCORRECTED_VOLATILE,
	GT_F_ECC_CORRECTED_AGGREGATE,
	GT_F_ECC_UNCORRECTED_AGGREGATE,
	GT_F_MEM_VISIBLE_TOTAL, /* bytes of VRAM the CPU can map (BAR) */
	GT_F_MEM_VISIBLE_USED,
	GT_F_GTT_TOTAL, /* bytes of system memory the GPU maps */
	GT_F_GTT_USED,
	GT_F_CLK_GRAPHICS_REQUESTED, /* MHz the driver asked for */
	GT_F_CLK_GRAPHICS_MIN_LIMIT, /* MHz, the range currently allowed */
	GT_F_CLK_GRAPHICS_MAX_LIMIT,
	GT_F_IDLE_RESIDENCY, /* cpercent of the interval in a sleep state */
	GT_F_FAN_PERCENT0,   /* cpercent, GT_MAX_FANS consecutive entries */
	GT_F_FAN_RPM0 = GT_F_FAN_PERCENT0 + GT_MAX_FANS,
	GT_F__COUNT = GT_F_FAN_RPM0 + GT_MAX_FANS
};

/* Vendor-neutral clock-throttle reasons. */
enum gt_throttle {
	GT_THR_IDLE = 1u << 0,
	GT_THR_APP_CLOCKS = 1u << 1,
	GT_THR_SW_POWER_CAP = 1u << 2,
	GT_THR_HW_SLOWDOWN = 1u << 3,
	GT_THR_SYNC_BOOST = 1u << 4,
	GT_THR_SW_THERMAL = 1u << 5,
	GT_THR_HW_THERMAL = 1u << 6,
	GT_THR_HW_POWER_BRAKE = 1u << 7,
	GT_THR_DISPLAY_CLOCKS = 1u << 8,
	GT_THR_CURRENT_LIMIT = 1u << 9,
	GT_THR_OTHER = 1u << 15,
};

/* Reasons that mean "the clocks are held back", as opposed to idle. */
#define GT_THR_ACTIVE_MASK                                                     \
	(GT_THR_SW_POWER_CAP | GT_THR_HW_SLOWDOWN | GT_THR_SYNC_BOOST |        \
	 GT_THR_SW_THERMAL | GT_THR_HW_THERMAL | GT_THR_HW_POWER_BRAKE |       \
	 GT_THR_CURRENT_LIMIT | GT_THR_OTHER)

enum gt_device_state {
	GT_DEV_OK = 0,
	GT_DEV_LOST,   /* fell off the bus or failed mid-run */
	GT_DEV_ASLEEP, /* runtime-suspended: not read, to keep it asleep */
};

/* A short text value with the same validity rule as struct gt_val. */
struct gt_text_val {
	char s[GT_STR_SHORT];
	uint8_t why; /* enum gt_why */
};

struct gt_sample {
	uint64_t monotonic_ns; /* CLOCK_MONOTONIC when the sample was taken */
	uint64_t seq;          /* tick number */
	uint8_t state;         /* enum gt_device_state */
	uint8_t fan_count;     /* entries of the fan arrays that exist */
	/* GT_F_UTIL_GPU is a sum over the processes this user can read:
	 * the real value may be higher. */
	bool util_gpu_lower_bound;
	/* Read-only here: what the driver runs now (AMD performance level
	 * such as "auto" or "manual"; the active power profile's name). */
	struct gt_text_val perf_level;
	struct gt_text_val power_profile;
	struct gt_val f[GT_F__COUNT];
};

enum gt_proc_type {
	GT_PROC_COMPUTE = 1,
	GT_PROC_GRAPHICS = 2,
	GT_PROC_BOTH = 3, /* compute | graphics */
};

/* Per-process numeric fields. */
enum gt_proc_field {
	GT_P_GPU,      /* cpercent */
	GT_P_MEM,      /* bytes of GPU memory */
	GT_P_ENC,      /* cpercent */
	GT_P_DEC,      /* cpercent */
	GT_P_CPU,      /* cpercent of one core */
	GT_P_HOST_MEM, /* bytes resident */
	GT_P_GTT,      /* bytes of GPU-mapped system memory (GTT) */
	GT_P__COUNT
};

#define GT_PROC_ANCESTRY 8
#define GT_USER_LEN      33
#define GT_COMM_LEN      64
#define GT_CONTAINER_LEN 96

struct gt_process {
	unsigned device_index;
	int32_t pid;
	uint32_t uid;
	uint8_t type;    /* enum gt_proc_type */
	bool host_known; /* user/name/cmdline/cpu came from /proc or the backend
	                  */
	char user[GT_USER_LEN];
	char name[GT_COMM_LEN];
	char container[GT_CONTAINER_LEN];
	char *cmdline; /* heap, owned by the list holding this process */
	/* Start time (stat field 22) as read from the /proc of our own pid
	 * namespace, the one kill() acts in: a signal dialog opened on this
	 * row can tell that the pid has since gone to another process. */
	bool start_known;
	uint64_t start;
	/* When it started, seconds since the epoch (the proc tree's boot
	 * time plus its start); 0 when unknown. */
	int64_t start_unix;
	/* The MIG instance it runs in (GPU and compute instance ids, as the
	 * instances of struct gt_proc_vec carry them); GT_MIG_NONE on a
	 * device without MIG. */
	uint32_t mig_gi, mig_ci;
	/* Its ancestors, the parent first, as far as /proc shows them (0
	 * ends the list; the parent alone when it is another GPU process
	 * or the walk stopped): the tree view hangs it under the nearest
	 * one in the process list. */
	int32_t ancestry[GT_PROC_ANCESTRY];
	/* name came from the GPU driver, not from /proc (which could not
	 * see the process: another PID namespace, or already gone). */
	bool name_from_driver;
	struct gt_val f[GT_P__COUNT];
};

#define GT_MIG_NONE UINT32_MAX
#define GT_MAX_MIG  8 /* MIG devices per GPU: 7 on A100/H100, room for 8 */

/* Per-instance numeric fields. */
enum gt_mig_field {
	GT_M_MEM_TOTAL,       /* bytes */
	GT_M_MEM_USED,        /* bytes */
	GT_M_MEM_FREE,        /* bytes */
	GT_M_UTIL_GPU,        /* cpercent */
	GT_M_PLACEMENT_START, /* first memory slice of the GPU instance */
	GT_M_PLACEMENT_SIZE,  /* memory slices it occupies */
	GT_M_PROCESSES,       /* processes listed on it this round */
	GT_M__COUNT
};

/* One MIG device (a compute instance inside a GPU instance) of a GPU. */
struct gt_mig_instance {
	unsigned device_index;      /* the parent GPU, as gt_process's */
	unsigned index;             /* the driver's MIG device index */
	uint32_t gi, ci;            /* GPU instance id, compute instance id */
	char uuid[GT_STR_NAME];     /* "MIG-..." */
	struct gt_text_val profile; /* "3g.20gb", "1c.3g.20gb" */
	struct gt_val f[GT_M__COUNT];
};

/* A growable array of processes; the owner frees with gt_proc_vec_free(). */
struct gt_proc_vec {
	struct gt_process *items;
	size_t count;
	size_t cap;
	/* Processes whose GPU use could not be read (other users' fdinfo
	 * without privileges): totals built from this list are lower bounds. */
	size_t unreadable;
	/* The MIG instances of the devices listed, in device order. */
	struct gt_mig_instance *mig;
	size_t mig_count;
	size_t mig_cap;
};

/* Appends a zeroed process (all fields NOT_COLLECTED); NULL on ENOMEM. */
struct gt_process *gt_proc_vec_push(struct gt_proc_vec *vec);
/* Appends a zeroed MIG instance (fields NOT_COLLECTED); NULL on ENOMEM. */
struct gt_mig_instance *gt_proc_vec_push_mig(struct gt_proc_vec *vec);
/* The instance of device dev with ids gi/ci in mig[0..n); NULL if none. */
const struct gt_mig_instance *
gt_mig_instance_find(const struct gt_mig_instance *mig, size_t n, unsigned dev,
                     uint32_t gi, uint32_t ci);
void gt_proc_vec_clear(struct gt_proc_vec *vec);
void gt_proc_vec_free(struct gt_proc_vec *vec);

/* Descriptor of a numeric field for table-driven writers. */
struct gt_field_desc {
	const char *group; /* JSON object the value lives in, e.g. "power";
	                    * "device" = the device object itself; NULL =
	                    * not written on its own */
	const char *key;   /* JSON key, unit in the name, e.g. "draw_watts" */
	enum gt_unit unit;
};

extern const struct gt_field_desc gt_static_desc[GT_S__COUNT];
extern const struct gt_field_desc gt_field_desc[GT_F__COUNT];
extern const struct gt_field_desc gt_process_desc[GT_P__COUNT];
extern const struct gt_field_desc gt_mig_instance_desc[GT_M__COUNT];

void gt_static_init(struct gt_static *st);
void gt_sample_init(struct gt_sample *s);
/* Marks every field of a sample with one status (for lost/asleep devices). */
void gt_sample_fail_all(struct gt_sample *s, enum gt_why why);
void gt_text_val_set(struct gt_text_val *t, const char *s);
void gt_text_val_fail(struct gt_text_val *t, enum gt_why why);

/* Scales a stored value to the JSON unit named by the key (W, °C, J, %). */
double gt_unit_to_json(enum gt_unit unit, int64_t v);

/* "nvidia", "amd", "intel", "unknown" */
const char *gt_vendor_name(enum gt_vendor vendor);

/* Short lower-case name of one throttle bit ("power_cap"); NULL if unknown. */
const char *gt_throttle_name(unsigned bit);

/* Fills buf with a human reason for a missing value; code_text may be NULL.
 * Always NUL-terminates; returns buf. */
const char *gt_why_text(const struct gt_val *val, const char *code_text,
                        char *buf, size_t len);
/* What the user can do about a reason, as one sentence that names the fix
 * or says honestly that there is none ("nothing to do: ..."). */
const char *gt_why_fix(enum gt_why why);
/* The code of a GT_WHY_MALFORMED value naming an fdinfo key; index is the
 * region's number ("vram0" is 0), or -1 for a region without one. */
int32_t gt_why_fdinfo_key(enum gt_why_fdinfo_family family,
                          enum gt_why_fdinfo_region region, int64_t index);
/* A region base as fdinfo keys spell it ("vram"); "?" out of range. */
const char *gt_why_fdinfo_region_name(enum gt_why_fdinfo_region region);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * model.c - descriptor tables and helpers of the vendor-neutral data model
 * (see model.h). The tables here are the single list of JSON groups and key
 * names; the snapshot writer and the reason listing walk them.
 */
#include "core/model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct gt_field_desc gt_static_desc[GT_S__COUNT] = {
    [GT_S_VRAM_TOTAL] = {"memory", "total_bytes", GT_UNIT_BYTES},
    [GT_S_POWER_MIN] = {"power", "min_limit_watts", GT_UNIT_MILLIWATT},
    [GT_S_POWER_MAX] = {"power", "max_limit_watts", GT_UNIT_MILLIWATT},
    [GT_S_POWER_DEFAULT] = {"power", "default_limit_watts", GT_UNIT_MILLIWATT},
    [GT_S_TEMP_SLOWDOWN] = {"thermal", "slowdown_celsius",
                            GT_UNIT_MILLICELSIUS},
    [GT_S_TEMP_SHUTDOWN] = {"thermal", "shutdown_celsius",
                            GT_UNIT_MILLICELSIUS},
    [GT_S_TEMP_GPU_MAX] = {"thermal", "gpu_max_celsius", GT_UNIT_MILLICELSIUS},
    [GT_S_TEMP_HOTSPOT_SHUTDOWN] = {"thermal", "hotspot_shutdown_celsius",
                                    GT_UNIT_MILLICELSIUS},
    [GT_S_TEMP_MEM_MAX] = {"thermal", "memory_max_celsius",
                           GT_UNIT_MILLICELSIUS},
    [GT_S_TEMP_MEM_SHUTDOWN] = {"thermal", "memory_shutdown_celsius",
                                GT_UNIT_MILLICELSIUS},
    [GT_S_CLK_GRAPHICS_MAX] = {"clocks", "graphics_max_mhz", GT_UNIT_MHZ},
    [GT_S_CLK_SM_MAX] = {"clocks", "sm_max_mhz", GT_UNIT_MHZ},
    [GT_S_CLK_MEM_MAX] = {"clocks", "memory_max_mhz", GT_UNIT_MHZ},
    [GT_S_CLK_VIDEO_MAX] = {"clocks", "video_max_mhz", GT_UNIT_MHZ},
    [GT_S_PCIE_MAX_GEN] = {"pcie", "max_link_gen", GT_UNIT_COUNT},
    [GT_S_PCIE_MAX_WIDTH] = {"pcie", "max_link_width", GT_UNIT_COUNT},
    [GT_S_FAN_COUNT] = {"thermal", "fan_count", GT_UNIT_COUNT},
    [GT_S_FAN_MIN_PERCENT] = {"thermal", "fan_min_percent", GT_UNIT_CPERCENT},
    [GT_S_FAN_MAX_PERCENT] = {"thermal", "fan_max_percent", GT_UNIT_CPERCENT},
    [GT_S_CC_MAJOR] = {"device", "compute_capability_major", GT_UNIT_COUNT},
    [GT_S_CC_MINOR] = {"device", "compute_capability_minor", GT_UNIT_COUNT},
    [GT_S_MIG_MODE] = {"device", "mig_enabled", GT_UNIT_BOOL},
    [GT_S_ECC_MODE] = {"device", "ecc_enabled", GT_UNIT_BOOL},
};

#define FAN_DESC(i)                                                            \
	[GT_F_FAN_PERCENT0 + (i)] = {"fans", "percent", GT_UNIT_CPERCENT},     \
	                     [GT_F_FAN_RPM0 + (i)] = {"fans", "rpm",           \
	                                              GT_UNIT_RPM}

const struct gt_field_desc gt_field_desc[GT_F__COUNT] = {
    [GT_F_UTIL_GPU] = {"utilization", "gpu_percent", GT_UNIT_CPERCENT},
    [GT_F_UTIL_MEMBW] = {"utilization", "memory_bandwidth_percent",
                         GT_UNIT_CPERCENT},
    [GT_F_UTIL_ENC] = {"utilization", "encoder_percent", GT_UNIT_CPERCENT},
    [GT_F_UTIL_DEC] = {"utilization", "decoder_percent", GT_UNIT_CPERCENT},
    /* Written as memory.total_bytes in place of GT_S_VRAM_TOTAL. */
    [GT_F_MEM_TOTAL] = {NULL, "total_bytes", GT_UNIT_BYTES},
    [GT_F_MEM_USED] = {"memory", "used_bytes", GT_UNIT_BYTES},
    [GT_F_MEM_FREE] = {"memory", "free_bytes", GT_UNIT_BYTES},
    [GT_F_MEM_RESERVED] = {"memory", "reserved_bytes", GT_UNIT_BYTES},
    [GT_F_TEMP_GPU] = {"thermal", "gpu_celsius", GT_UNIT_MILLICELSIUS},
    [GT_F_TEMP_HOTSPOT] = {"thermal", "hotspot_celsius", GT_UNIT_MILLICELSIUS},
    [GT_F_TEMP_MEM] = {"thermal", "memory_celsius", GT_UNIT_MILLICELSIUS},
    [GT_F_POWER_DRAW] = {"power", "draw_watts", GT_UNIT_MILLIWATT},
    [GT_F_POWER_LIMIT] = {"power", "limit_watts", GT_UNIT_MILLIWATT},
    [GT_F_POWER_ENFORCED] = {"power", "enforced_limit_watts",
                             GT_UNIT_MILLIWATT},
    [GT_F_ENERGY] = {"power", "energy_joules", GT_UNIT_MILLIJOULE},
    [GT_F_PSTATE] = {"power", "pstate", GT_UNIT_COUNT},
    [GT_F_CLK_GRAPHICS] = {"clocks", "graphics_mhz", GT_UNIT_MHZ},
    [GT_F_CLK_SM] = {"clocks", "sm_mhz", GT_UNIT_MHZ},
    [GT_F_CLK_MEM] = {"clocks", "memory_mhz", GT_UNIT_MHZ},
    [GT_F_CLK_VIDEO] = {"clocks", "video_mhz", GT_UNIT_MHZ},
    [GT_F_PCIE_GEN] = {"pcie", "link_gen", GT_UNIT_COUNT},
    [GT_F_PCIE_WIDTH] = {"pcie", "link_width", GT_UNIT_COUNT},
    [GT_F_PCIE_TX] = {"pcie", "tx_bytes_per_second", GT_UNIT_BYTES_PER_S},
    [GT_F_PCIE_RX] = {"pcie", "rx_bytes_per_second", GT_UNIT_BYTES_PER_S},
    [GT_F_THROTTLE] = {"throttle", "reasons", GT_UNIT_BITMASK},
    [GT_F_ECC_CORRECTED_VOLATILE] = {"ecc", "corrected_volatile",
                                     GT_UNIT_COUNT},
    [GT_F_ECC_UNCORRECTED_VOLATILE] = {"ecc", "uncorrected_volatile",
                                       GT_UNIT_COUNT},
    [GT_F_ECC_CORRECTED_AGGREGATE] = {"ecc", "corrected_aggregate",
                                      GT_UNIT_COUNT},
    [GT_F_ECC_UNCORRECTED_AGGREGATE] = {"ecc", "uncorrected_aggregate",
                                        GT_UNIT_COUNT},
    [GT_F_MEM_VISIBLE_TOTAL] = {"memory", "visible_total_bytes", GT_UNIT_BYTES},
    [GT_F_MEM_VISIBLE_USED] = {"memory", "visible_used_bytes", GT_UNIT_BYTES},
    [GT_F_GTT_TOTAL] = {"memory", "gtt_total_bytes", GT_UNIT_BYTES},
    [GT_F_GTT_USED] = {"memory", "gtt_used_bytes", GT_UNIT_BYTES},
    [GT_F_CLK_GRAPHICS_REQUESTED] = {"clocks", "graphics_requested_mhz",
                                     GT_UNIT_MHZ},
    [GT_F_CLK_GRAPHICS_MIN_LIMIT] = {"clocks", "graphics_min_limit_mhz",
                                     GT_UNIT_MHZ},
    [GT_F_CLK_GRAPHICS_MAX_LIMIT] = {"clocks", "graphics_max_limit_mhz",
                                     GT_UNIT_MHZ},
    [GT_F_IDLE_RESIDENCY] = {"utilization", "idle_residency_percent",
                             GT_UNIT_CPERCENT},
    FAN_DESC(0),
    FAN_DESC(1),
    FAN_DESC(2),
    FAN_DESC(3),
    FAN_DESC(4),
    FAN_DESC(5),
    FAN_DESC(6),
    FAN_DESC(7),
};

_Static_assert(GT_MAX_FANS == 8, "FAN_DESC rows above cover exactly 8 fans");

const struct gt_field_desc gt_process_desc[GT_P__COUNT] = {
    [GT_P_GPU] = {"process", "gpu_percent", GT_UNIT_CPERCENT},
    [GT_P_MEM] = {"process", "memory_bytes", GT_UNIT_BYTES},
    [GT_P_ENC] = {"process", "encoder_percent", GT_UNIT_CPERCENT},
    [GT_P_DEC] = {"process", "decoder_percent", GT_UNIT_CPERCENT},
    [GT_P_CPU] = {"process", "cpu_percent", GT_UNIT_CPERCENT},
    [GT_P_HOST_MEM] = {"process", "host_memory_bytes", GT_UNIT_BYTES},
    [GT_P_GTT] = {"process", "gtt_memory_bytes", GT_UNIT_BYTES},
};

const struct gt_field_desc gt_mig_instance_desc[GT_M__COUNT] = {
    [GT_M_MEM_TOTAL] = {"memory", "total_bytes", GT_UNIT_BYTES},
    [GT_M_MEM_USED] = {"memory", "used_bytes", GT_UNIT_BYTES},
    [GT_M_MEM_FREE] = {"memory", "free_bytes", GT_UNIT_BYTES},
    [GT_M_UTIL_GPU] = {"utilization", "gpu_percent", GT_UNIT_CPERCENT},
    [GT_M_PLACEMENT_START] = {"placement", "start", GT_UNIT_COUNT},
    [GT_M_PLACEMENT_SIZE] = {"placement", "size", GT_UNIT_COUNT},
    [GT_M_PROCESSES] = {"device", "process_count", GT_UNIT_COUNT},
};

static void vals_fail(struct gt_val *vals, size_t n, enum gt_why why)
{
	for (size_t i = 0; i < n; i++)
		gt_val_fail(&vals[i], why, 0);
}

void gt_static_init(struct gt_static *st)
{
	memset(st, 0, sizeof(*st));
	vals_fail(st->f, GT_S__COUNT, GT_WHY_NOT_COLLECTED);
}

void gt_sample_init(struct gt_sample *s)
{
	memset(s, 0, sizeof(*s));
	vals_fail(s->f, GT_F__COUNT, GT_WHY_NOT_COLLECTED);
	s->perf_level.why = GT_WHY_NOT_COLLECTED;
	s->power_profile.why = GT_WHY_NOT_COLLECTED;
}

void gt_sample_fail_all(struct gt_sample *s, enum gt_why why)
{
	vals_fail(s->f, GT_F__COUNT, why);
	s->perf_level.why = (uint8_t)why;
	s->power_profile.why = (uint8_t)why;
}

void gt_text_val_set(struct gt_text_val *t, const char *s)
{
	gt_copy_str(t->s, sizeof(t->s), s);
	t->why = GT_WHY_OK;
}

void gt_text_val_fail(struct gt_text_val *t, enum gt_why why)
{
	t->s[0] = '\0';
	t->why = (uint8_t)why;
}

struct gt_process *gt_proc_vec_push(struct gt_proc_vec *vec)
{
	if (vec->count == vec->cap) {
		size_t cap = vec->cap ? vec->cap * 2 : 16;
		struct gt_process *items =
		    realloc(vec->items, cap * sizeof(*items));
		if (!items)
			return NULL;
		vec->items = items;
		vec->cap = cap;
	}
	struct gt_process *p = &vec->items[vec->count++];
	memset(p, 0, sizeof(*p));
	p->mig_gi = GT_MIG_NONE;
	p->mig_ci = GT_MIG_NONE;
	vals_fail(p->f, GT_P__COUNT, GT_WHY_NOT_COLLECTED);
	return p;
}

struct gt_mig_instance *gt_proc_vec_push_mig(struct gt_proc_vec *vec)
{
	if (vec->mig_count == vec->mig_cap) {
		size_t cap = vec->mig_cap ? vec->mig_cap * 2 : GT_MAX_MIG;
		struct gt_mig_instance *mig =
		    realloc(vec->mig, cap * sizeof(*mig));
		if (!mig)
			return NULL;
		vec->mig = mig;
		vec->mig_cap = cap;
	}
	struct gt_mig_instance *m = &vec->mig[vec->mig_count++];
	memset(m, 0, sizeof(*m));
	gt_text_val_fail(&m->profile, GT_WHY_NOT_COLLECTED);
	vals_fail(m->f, GT_M__COUNT, GT_WHY_NOT_COLLECTED);
	return m;
}

const struct gt_mig_instance *
gt_mig_instance_find(const struct gt_mig_instance *mig, size_t n, unsigned dev,
                     uint32_t gi, uint32_t ci)
{
	for (size_t i = 0; mig && i < n; i++)
		if (mig[i].device_index == dev && mig[i].gi == gi &&
		    mig[i].ci == ci)
			return &mig[i];
	return NULL;
}

void gt_proc_vec_clear(struct gt_proc_vec *vec)
{
	for (size_t i = 0; i < vec->count; i++) {
		free(vec->items[i].cmdline);
		vec->items[i].cmdline = NULL;
	}
	vec->count = 0;
	vec->mig_count = 0;
}

void gt_proc_vec_free(struct gt_proc_vec *vec)
{
	gt_proc_vec_clear(vec);
	free(vec->items);
	vec->items = NULL;
	vec->cap = 0;
	free(vec->mig);
	vec->mig = NULL;
	vec->mig_cap = 0;
}

double gt_unit_to_json(enum gt_unit unit, int64_t v)
{
	switch (unit) {
	case GT_UNIT_CPERCENT:
		return (double)v / 100.0;
	case GT_UNIT_MILLICELSIUS:
	case GT_UNIT_MILLIWATT:
	case GT_UNIT_MILLIJOULE:
		return (double)v / 1000.0;
	case GT_UNIT_COUNT:
	case GT_UNIT_BYTES:
	case GT_UNIT_BYTES_PER_S:
	case GT_UNIT_MHZ:
	case GT_UNIT_RPM:
	case GT_UNIT_BITMASK:
	case GT_UNIT_BOOL:
		break;
	}
	return (double)v;
}

const char *gt_vendor_name(enum gt_vendor vendor)
{
	switch (vendor) {
	case GT_VENDOR_NVIDIA:
		return "nvidia";
	case GT_VENDOR_AMD:
		return "amd";
	case GT_VENDOR_INTEL:
		return "intel";
	case GT_VENDOR_UNKNOWN:
		break;
	}
	return "unknown";
}

const char *gt_throttle_name(unsigned bit)
{
	switch (bit) {
	case GT_THR_IDLE:
		return "idle";
	case GT_THR_APP_CLOCKS:
		return "applications_clocks";
	case GT_THR_SW_POWER_CAP:
		return "power_cap";
	case GT_THR_HW_SLOWDOWN:
		return "hw_slowdown";
	case GT_THR_SYNC_BOOST:
		return "sync_boost";
	case GT_THR_SW_THERMAL:
		return "sw_thermal";
	case GT_THR_HW_THERMAL:
		return "hw_thermal";
	case GT_THR_HW_POWER_BRAKE:
		return "hw_power_brake";
	case GT_THR_DISPLAY_CLOCKS:
		return "display_clocks";
	case GT_THR_CURRENT_LIMIT:
		return "current_limit";
	case GT_THR_OTHER:
		return "other";
	default:
		return NULL;
	}
}

/* Layout of a gt_why_fdinfo_key code: bits 0-1 the family, 2-4 the
 * region base, 5 set when an index follows, 6 and up the index. */
#define FDI_KEY_HAS_INDEX (1 << 5)
#define FDI_KEY_INDEX_AT  6

int32_t gt_why_fdinfo_key(enum gt_why_fdinfo_family family,
                          enum gt_why_fdinfo_region region, int64_t index)
{
	int32_t code = (int32_t)family | (int32_t)region << 2;
	if (index >= 0 && index <= GT_WHY_FDI_INDEX_MAX)
		code |= FDI_KEY_HAS_INDEX | (int32_t)index << FDI_KEY_INDEX_AT;
	return code;
}

const char *gt_why_fdinfo_region_name(enum gt_why_fdinfo_region region)
{
	static const char *const names[GT_WHY_FDI__REGION_COUNT] = {
	    [GT_WHY_FDI_VRAM] = "vram",
	    [GT_WHY_FDI_LOCAL] = "local",
	    [GT_WHY_FDI_SYSTEM] = "system",
	    [GT_WHY_FDI_GTT] = "gtt",
	    [GT_WHY_FDI_CPU] = "cpu",
	    [GT_WHY_FDI_MEMORY_REGION] = "memory",
	};
	return (unsigned)region < GT_WHY_FDI__REGION_COUNT ? names[region]
	                                                   : "?";
}

/* The key a gt_why_fdinfo_key code names, into buf. */
static void fdinfo_key_name(int32_t code, char *buf, size_t len)
{
	static const char *const family[] = {"drm-resident-", "drm-memory-",
	                                     "drm-total-", ""};
	unsigned f = (unsigned)code & 3, r = (unsigned)code >> 2 & 7;
	char index[16] = "";

	if (r >= GT_WHY_FDI__REGION_COUNT) {
		snprintf(buf, len, "?");
		return;
	}
	if (code & FDI_KEY_HAS_INDEX)
		snprintf(index, sizeof(index), "%d",
		         (int)(code >> FDI_KEY_INDEX_AT));
	snprintf(buf, len, "%s%s%s%s", family[f],
	         gt_why_fdinfo_region_name((enum gt_why_fdinfo_region)r), index,
	         f == GT_WHY_FDI_LEGACY ? " mem" : "");
}

const char *gt_why_text(const struct gt_val *val, const char *code_text,
                        char *buf, size_t len)
{
	const char *text = "unknown";

	switch ((enum gt_why)val->why) {
	case GT_WHY_OK:
		text = "available";
		break;
	case GT_WHY_NOT_COLLECTED:
		text = "not collected yet";
		break;
	case GT_WHY_UNSUPPORTED_DEVICE:
		text = "not supported by this device";
		break;
	case GT_WHY_UNSUPPORTED_DRIVER:
		text =
		    "not supported by this driver version (a newer driver may "
		    "provide it)";
		break;
	case GT_WHY_PERMISSION:
		text = "permission denied (run gputop as root, or grant the "
		       "needed capability)";
		break;
	case GT_WHY_DRIVER_ERROR:
		if (code_text)
			snprintf(buf, len, "driver error %d: %s",
			         (int)val->code, code_text);
		else
			snprintf(buf, len, "driver error %d", (int)val->code);
		return buf;
	case GT_WHY_PENDING:
		text = "needs a second sample (a rate over time)";
		break;
	case GT_WHY_LOST:
		text = "device lost (fell off the bus or stopped answering)";
		break;
	case GT_WHY_MIG:
		text = "not available while MIG mode is enabled";
		break;
	case GT_WHY_NO_SENSOR:
		text = "no sensor for it on this device";
		break;
	case GT_WHY_ASLEEP:
		text = "the device is asleep (runtime-suspended); gputop does "
		       "not wake it to read values";
		break;
	case GT_WHY_MALFORMED: {
		/* Not "not supported": the driver gave the value, in a
		 * form gputop cannot read; the key finds the line. */
		char key[48];
		fdinfo_key_name(val->code, key, sizeof(key));
		snprintf(buf, len,
		         "the driver's fdinfo line %s: could not be read (not "
		         "a size in a unit gputop knows)",
		         key);
		return buf;
	}
	case GT_WHY_RANGE:
		text = "out of range: the file holds a number no device gives "
		       "(a corrupt sysfs tree or a driver bug), not shown as "
		       "a reading";
		break;
	case GT_WHY__COUNT:
		break;
	}
	snprintf(buf, len, "%s", text);
	return buf;
}

const char *gt_why_fix(enum gt_why why)
{
	/* No default: a new reason must get its own advice (-Wswitch). */
	switch (why) {
	case GT_WHY_OK:
		return "nothing to do: the value is available";
	case GT_WHY_NOT_COLLECTED:
		return "nothing to do: it appears after the next sample; if it "
		       "stays N/A, gputop has no way to read it here";
	case GT_WHY_UNSUPPORTED_DEVICE:
		return "nothing to do: this device does not provide it";
	case GT_WHY_UNSUPPORTED_DRIVER:
		return "update the GPU driver (and its management library): "
		       "a newer version may provide it";
	case GT_WHY_PERMISSION:
		return "run gputop as root (sudo gputop), or give your user "
		       "the access the driver checks (e.g. CAP_PERFMON for "
		       "performance counters)";
	case GT_WHY_DRIVER_ERROR:
		return "the driver failed to answer: check dmesg for driver "
		       "messages (Xid for NVIDIA); gputop asks again every "
		       "sample";
	case GT_WHY_PENDING:
		return "nothing to do: a rate needs two samples, it appears "
		       "after the next one";
	case GT_WHY_LOST:
		return "the GPU fell off the bus or the driver was reset: "
		       "check dmesg for Xid / PCIe errors; gputop asks it "
		       "again every 3 s, so after a GPU reset (or a reboot) "
		       "its values come back";
	case GT_WHY_MIG:
		return "nothing to do while MIG is enabled: the driver only "
		       "gives it per MIG instance (the rows under the GPU "
		       "show each instance's memory; per-instance "
		       "utilization needs GPM counters, not read yet); "
		       "disabling MIG (nvidia-smi "
		       "-mig 0, as root, no work running) restores it";
	case GT_WHY_NO_SENSOR:
		return "nothing to do: the device does not have this sensor";
	case GT_WHY_ASLEEP:
		return "nothing to do: the values come back when something "
		       "wakes the GPU (gputop does not, to keep it asleep)";
	case GT_WHY_MALFORMED:
		return "see the line in /proc/PID/fdinfo/FD: a kernel whose "
		       "driver prints it in the documented form "
		       "(drm-usage-stats) gives the value; please report the "
		       "line and the kernel version to gputop";
	case GT_WHY_RANGE:
		return "look at the file in the GPU's sysfs or hwmon folder: "
		       "if the driver wrote that number, report it with the "
		       "kernel version to the driver's maintainers; a copied "
		       "or mounted tree (--sysfs) may be damaged";
	case GT_WHY__COUNT:
		break;
	}
	return "nothing known to do";
}

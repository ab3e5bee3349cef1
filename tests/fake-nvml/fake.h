/* SPDX-License-Identifier: MIT */
/*
 * fake.h - internals of gputop's fake libnvidia-ml.so.1: the list of
 * exported functions, the scenario model (devices, metric expressions,
 * processes, injected errors) and the helpers every API file uses to enter
 * and leave a call. The exported ABI itself comes from nvml_abi.h.
 *
 * Everything declared between the visibility pragmas is hidden, so the
 * shared object exports only the nvml* functions of nvml_abi.h even without
 * -fvisibility=hidden on the command line.
 */
#ifndef GPUTOP_FAKE_NVML_H
#define GPUTOP_FAKE_NVML_H

#include <pthread.h>
#include <stddef.h>

#include "collectors/nvml_abi.h"

#pragma GCC visibility push(hidden)

#define FAKE_MAX_GPUS            64
#define FAKE_MAX_MIG             8
#define FAKE_MAX_FANS            8
#define FAKE_MAX_FIELD_OVERRIDES 32
#define FAKE_TEXT_LEN            96

/* Every exported function, in the order the calls file lists them. The
 * enum built from it indexes call counters and injected errors. */
#define FAKE_FUNCS(X)                                                          \
	X(nvmlInit)                                                            \
	X(nvmlInit_v2)                                                         \
	X(nvmlInitWithFlags)                                                   \
	X(nvmlShutdown)                                                        \
	X(nvmlErrorString)                                                     \
	X(nvmlSystemGetDriverVersion)                                          \
	X(nvmlSystemGetNVMLVersion)                                            \
	X(nvmlSystemGetCudaDriverVersion)                                      \
	X(nvmlSystemGetCudaDriverVersion_v2)                                   \
	X(nvmlSystemGetProcessName)                                            \
	X(nvmlDeviceGetCount)                                                  \
	X(nvmlDeviceGetCount_v2)                                               \
	X(nvmlDeviceGetHandleByIndex)                                          \
	X(nvmlDeviceGetHandleByIndex_v2)                                       \
	X(nvmlDeviceGetHandleByUUID)                                           \
	X(nvmlDeviceGetHandleByPciBusId)                                       \
	X(nvmlDeviceGetHandleByPciBusId_v2)                                    \
	X(nvmlDeviceGetIndex)                                                  \
	X(nvmlDeviceGetMinorNumber)                                            \
	X(nvmlDeviceGetName)                                                   \
	X(nvmlDeviceGetUUID)                                                   \
	X(nvmlDeviceGetSerial)                                                 \
	X(nvmlDeviceGetPciInfo)                                                \
	X(nvmlDeviceGetPciInfo_v2)                                             \
	X(nvmlDeviceGetPciInfo_v3)                                             \
	X(nvmlDeviceGetPciInfoExt)                                             \
	X(nvmlDeviceGetBrand)                                                  \
	X(nvmlDeviceGetArchitecture)                                           \
	X(nvmlDeviceGetCudaComputeCapability)                                  \
	X(nvmlDeviceGetVbiosVersion)                                           \
	X(nvmlDeviceGetBoardPartNumber)                                        \
	X(nvmlDeviceGetUtilizationRates)                                       \
	X(nvmlDeviceGetEncoderUtilization)                                     \
	X(nvmlDeviceGetDecoderUtilization)                                     \
	X(nvmlDeviceGetJpgUtilization)                                         \
	X(nvmlDeviceGetOfaUtilization)                                         \
	X(nvmlDeviceGetMemoryInfo)                                             \
	X(nvmlDeviceGetMemoryInfo_v2)                                          \
	X(nvmlDeviceGetBAR1MemoryInfo)                                         \
	X(nvmlDeviceGetTemperature)                                            \
	X(nvmlDeviceGetTemperatureV)                                           \
	X(nvmlDeviceGetTemperatureThreshold)                                   \
	X(nvmlDeviceGetMarginTemperature)                                      \
	X(nvmlDeviceGetNumFans)                                                \
	X(nvmlDeviceGetFanSpeed)                                               \
	X(nvmlDeviceGetFanSpeed_v2)                                            \
	X(nvmlDeviceGetFanSpeedRPM)                                            \
	X(nvmlDeviceGetTargetFanSpeed)                                         \
	X(nvmlDeviceGetMinMaxFanSpeed)                                         \
	X(nvmlDeviceGetFanControlPolicy_v2)                                    \
	X(nvmlDeviceSetFanControlPolicy)                                       \
	X(nvmlDeviceSetFanSpeed_v2)                                            \
	X(nvmlDeviceSetDefaultFanSpeed_v2)                                     \
	X(nvmlDeviceGetCoolerInfo)                                             \
	X(nvmlDeviceGetPowerUsage)                                             \
	X(nvmlDeviceGetTotalEnergyConsumption)                                 \
	X(nvmlDeviceGetPowerManagementLimit)                                   \
	X(nvmlDeviceGetPowerManagementDefaultLimit)                            \
	X(nvmlDeviceGetPowerManagementLimitConstraints)                        \
	X(nvmlDeviceGetEnforcedPowerLimit)                                     \
	X(nvmlDeviceSetPowerManagementLimit)                                   \
	X(nvmlDeviceSetPowerManagementLimit_v2)                                \
	X(nvmlDeviceGetPowerSource)                                            \
	X(nvmlDeviceGetPerformanceState)                                       \
	X(nvmlDeviceGetPowerState)                                             \
	X(nvmlDeviceGetClockInfo)                                              \
	X(nvmlDeviceGetMaxClockInfo)                                           \
	X(nvmlDeviceGetClock)                                                  \
	X(nvmlDeviceGetMaxCustomerBoostClock)                                  \
	X(nvmlDeviceGetApplicationsClock)                                      \
	X(nvmlDeviceGetDefaultApplicationsClock)                               \
	X(nvmlDeviceGetCurrentClocksEventReasons)                              \
	X(nvmlDeviceGetCurrentClocksThrottleReasons)                           \
	X(nvmlDeviceGetSupportedClocksEventReasons)                            \
	X(nvmlDeviceGetSupportedClocksThrottleReasons)                         \
	X(nvmlDeviceGetViolationStatus)                                        \
	X(nvmlDeviceGetCurrPcieLinkGeneration)                                 \
	X(nvmlDeviceGetCurrPcieLinkWidth)                                      \
	X(nvmlDeviceGetMaxPcieLinkGeneration)                                  \
	X(nvmlDeviceGetGpuMaxPcieLinkGeneration)                               \
	X(nvmlDeviceGetMaxPcieLinkWidth)                                       \
	X(nvmlDeviceGetPcieSpeed)                                              \
	X(nvmlDeviceGetPcieLinkMaxSpeed)                                       \
	X(nvmlDeviceGetPcieThroughput)                                         \
	X(nvmlDeviceGetPcieReplayCounter)                                      \
	X(nvmlDeviceGetEccMode)                                                \
	X(nvmlDeviceGetTotalEccErrors)                                         \
	X(nvmlDeviceGetMemoryErrorCounter)                                     \
	X(nvmlDeviceGetRetiredPages)                                           \
	X(nvmlDeviceGetRemappedRows)                                           \
	X(nvmlDeviceGetPersistenceMode)                                        \
	X(nvmlDeviceSetPersistenceMode)                                        \
	X(nvmlDeviceGetComputeMode)                                            \
	X(nvmlDeviceGetDisplayMode)                                            \
	X(nvmlDeviceGetDisplayActive)                                          \
	X(nvmlDeviceGetMigMode)                                                \
	X(nvmlDeviceIsMigDeviceHandle)                                         \
	X(nvmlDeviceGetMaxMigDeviceCount)                                      \
	X(nvmlDeviceGetMigDeviceHandleByIndex)                                 \
	X(nvmlDeviceGetDeviceHandleFromMigDeviceHandle)                        \
	X(nvmlDeviceGetGpuInstanceId)                                          \
	X(nvmlDeviceGetComputeInstanceId)                                      \
	X(nvmlDeviceGetGpuInstanceById)                                        \
	X(nvmlGpuInstanceGetInfo)                                              \
	X(nvmlDeviceGetComputeRunningProcesses)                                \
	X(nvmlDeviceGetComputeRunningProcesses_v2)                             \
	X(nvmlDeviceGetComputeRunningProcesses_v3)                             \
	X(nvmlDeviceGetGraphicsRunningProcesses)                               \
	X(nvmlDeviceGetGraphicsRunningProcesses_v2)                            \
	X(nvmlDeviceGetGraphicsRunningProcesses_v3)                            \
	X(nvmlDeviceGetMPSComputeRunningProcesses)                             \
	X(nvmlDeviceGetMPSComputeRunningProcesses_v2)                          \
	X(nvmlDeviceGetMPSComputeRunningProcesses_v3)                          \
	X(nvmlDeviceGetRunningProcessDetailList)                               \
	X(nvmlDeviceGetProcessUtilization)                                     \
	X(nvmlDeviceGetProcessesUtilizationInfo)                               \
	X(nvmlDeviceGetAccountingMode)                                         \
	X(nvmlDeviceGetAccountingPids)                                         \
	X(nvmlDeviceGetAccountingStats)                                        \
	X(nvmlDeviceGetAccountingBufferSize)                                   \
	X(nvmlDeviceGetFieldValues)                                            \
	X(nvmlDeviceGetSamples)

enum fake_fn {
#define FAKE_FN_ENUM(name) FN_##name,
	FAKE_FUNCS(FAKE_FN_ENUM)
#undef FAKE_FN_ENUM
	    FN_COUNT
};

/*
 * Numeric device attributes a scenario can set: (enum id, scenario key,
 * symbol table for named values). Groups that the API indexes by an NVML
 * enum (clocks, thresholds, ECC counters, fans) must stay contiguous and in
 * NVML's order.
 */
#define FAKE_KEYS(X)                                                           \
	X(K_MINOR, "minor", SYM_NONE)                                          \
	X(K_BRAND, "brand", SYM_BRAND)                                         \
	X(K_ARCH, "arch", SYM_ARCH)                                            \
	X(K_CC_MAJOR, "cc.major", SYM_NONE)                                    \
	X(K_CC_MINOR, "cc.minor", SYM_NONE)                                    \
	X(K_PCI_DOMAIN, "pci.domain", SYM_NONE)                                \
	X(K_PCI_BUS, "pci.bus", SYM_NONE)                                      \
	X(K_PCI_DEVICE, "pci.device", SYM_NONE)                                \
	X(K_PCI_DEVICE_ID, "pci.device_id", SYM_NONE)                          \
	X(K_PCI_SUBSYSTEM_ID, "pci.subsystem_id", SYM_NONE)                    \
	X(K_PCI_BASE_CLASS, "pci.base_class", SYM_NONE)                        \
	X(K_PCI_SUB_CLASS, "pci.sub_class", SYM_NONE)                          \
	X(K_PCIE_GEN, "pcie.gen", SYM_NONE)                                    \
	X(K_PCIE_GEN_MAX, "pcie.gen_max", SYM_NONE)                            \
	X(K_PCIE_GEN_GPU_MAX, "pcie.gen_gpu_max", SYM_NONE)                    \
	X(K_PCIE_WIDTH, "pcie.width", SYM_NONE)                                \
	X(K_PCIE_WIDTH_MAX, "pcie.width_max", SYM_NONE)                        \
	X(K_PCIE_SPEED, "pcie.speed", SYM_NONE)                                \
	X(K_PCIE_LINK_MAX_SPEED, "pcie.link_max_speed", SYM_NONE)              \
	X(K_PCIE_TX_KBPS, "pcie.tx_kbps", SYM_NONE)                            \
	X(K_PCIE_RX_KBPS, "pcie.rx_kbps", SYM_NONE)                            \
	X(K_PCIE_TX_BYTES, "pcie.tx_bytes", SYM_NONE)                          \
	X(K_PCIE_RX_BYTES, "pcie.rx_bytes", SYM_NONE)                          \
	X(K_PCIE_REPLAY, "pcie.replay", SYM_NONE)                              \
	X(K_PCIE_REPLAY_ROLLOVER, "pcie.replay_rollover", SYM_NONE)            \
	X(K_UTIL_GPU, "util.gpu", SYM_NONE)                                    \
	X(K_UTIL_MEM, "util.mem", SYM_NONE)                                    \
	X(K_UTIL_ENC, "util.enc", SYM_NONE)                                    \
	X(K_UTIL_DEC, "util.dec", SYM_NONE)                                    \
	X(K_UTIL_JPG, "util.jpg", SYM_NONE)                                    \
	X(K_UTIL_OFA, "util.ofa", SYM_NONE)                                    \
	X(K_MEM_TOTAL, "memory.total", SYM_NONE)                               \
	X(K_MEM_RESERVED, "memory.reserved", SYM_NONE)                         \
	X(K_MEM_USED, "memory.used", SYM_NONE)                                 \
	X(K_BAR1_TOTAL, "bar1.total", SYM_NONE)                                \
	X(K_BAR1_USED, "bar1.used", SYM_NONE)                                  \
	X(K_TEMP, "temp", SYM_NONE)                                            \
	X(K_TEMP_MEMORY, "temp.memory", SYM_NONE)                              \
	X(K_TEMP_MARGIN, "temp.margin", SYM_NONE)                              \
	X(K_THR_SHUTDOWN, "threshold.shutdown", SYM_NONE)                      \
	X(K_THR_SLOWDOWN, "threshold.slowdown", SYM_NONE)                      \
	X(K_THR_MEM_MAX, "threshold.mem_max", SYM_NONE)                        \
	X(K_THR_GPU_MAX, "threshold.gpu_max", SYM_NONE)                        \
	X(K_THR_ACOUSTIC_MIN, "threshold.acoustic_min", SYM_NONE)              \
	X(K_THR_ACOUSTIC_CURR, "threshold.acoustic_curr", SYM_NONE)            \
	X(K_THR_ACOUSTIC_MAX, "threshold.acoustic_max", SYM_NONE)              \
	X(K_THR_GPS_CURR, "threshold.gps_curr", SYM_NONE)                      \
	X(K_TLIMIT_SHUTDOWN, "tlimit.shutdown", SYM_NONE)                      \
	X(K_TLIMIT_SLOWDOWN, "tlimit.slowdown", SYM_NONE)                      \
	X(K_TLIMIT_MEM_MAX, "tlimit.mem_max", SYM_NONE)                        \
	X(K_TLIMIT_GPU_MAX, "tlimit.gpu_max", SYM_NONE)                        \
	X(K_FANS, "fans", SYM_NONE)                                            \
	X(K_FAN_MIN, "fan.min", SYM_NONE)                                      \
	X(K_FAN_MAX, "fan.max", SYM_NONE)                                      \
	X(K_FAN_MAX_RPM, "fan.max_rpm", SYM_NONE)                              \
	X(K_FAN_0, "fan.0", SYM_NONE)                                          \
	X(K_FAN_1, "fan.1", SYM_NONE)                                          \
	X(K_FAN_2, "fan.2", SYM_NONE)                                          \
	X(K_FAN_3, "fan.3", SYM_NONE)                                          \
	X(K_FAN_4, "fan.4", SYM_NONE)                                          \
	X(K_FAN_5, "fan.5", SYM_NONE)                                          \
	X(K_FAN_6, "fan.6", SYM_NONE)                                          \
	X(K_FAN_7, "fan.7", SYM_NONE)                                          \
	X(K_FAN_RPM_0, "fan_rpm.0", SYM_NONE)                                  \
	X(K_FAN_RPM_1, "fan_rpm.1", SYM_NONE)                                  \
	X(K_FAN_RPM_2, "fan_rpm.2", SYM_NONE)                                  \
	X(K_FAN_RPM_3, "fan_rpm.3", SYM_NONE)                                  \
	X(K_FAN_RPM_4, "fan_rpm.4", SYM_NONE)                                  \
	X(K_FAN_RPM_5, "fan_rpm.5", SYM_NONE)                                  \
	X(K_FAN_RPM_6, "fan_rpm.6", SYM_NONE)                                  \
	X(K_FAN_RPM_7, "fan_rpm.7", SYM_NONE)                                  \
	X(K_POWER, "power.usage", SYM_NONE)                                    \
	X(K_POWER_INSTANT, "power.instant", SYM_NONE)                          \
	X(K_POWER_MIN, "power.min", SYM_NONE)                                  \
	X(K_POWER_MAX, "power.max", SYM_NONE)                                  \
	X(K_POWER_DEFAULT, "power.default", SYM_NONE)                          \
	X(K_POWER_LIMIT, "power.limit", SYM_NONE)                              \
	X(K_POWER_OOB_CAP, "power.oob_cap", SYM_NONE)                          \
	X(K_POWER_SOURCE, "power.source", SYM_POWER_SOURCE)                    \
	X(K_ENERGY, "energy", SYM_NONE)                                        \
	X(K_CLK_GRAPHICS, "clock.graphics", SYM_NONE)                          \
	X(K_CLK_SM, "clock.sm", SYM_NONE)                                      \
	X(K_CLK_MEM, "clock.mem", SYM_NONE)                                    \
	X(K_CLK_VIDEO, "clock.video", SYM_NONE)                                \
	X(K_MAXCLK_GRAPHICS, "max_clock.graphics", SYM_NONE)                   \
	X(K_MAXCLK_SM, "max_clock.sm", SYM_NONE)                               \
	X(K_MAXCLK_MEM, "max_clock.mem", SYM_NONE)                             \
	X(K_MAXCLK_VIDEO, "max_clock.video", SYM_NONE)                         \
	X(K_BOOSTCLK_GRAPHICS, "boost_clock.graphics", SYM_NONE)               \
	X(K_BOOSTCLK_SM, "boost_clock.sm", SYM_NONE)                           \
	X(K_BOOSTCLK_MEM, "boost_clock.mem", SYM_NONE)                         \
	X(K_BOOSTCLK_VIDEO, "boost_clock.video", SYM_NONE)                     \
	X(K_APPCLK_GRAPHICS, "app_clock.graphics", SYM_NONE)                   \
	X(K_APPCLK_SM, "app_clock.sm", SYM_NONE)                               \
	X(K_APPCLK_MEM, "app_clock.mem", SYM_NONE)                             \
	X(K_APPCLK_VIDEO, "app_clock.video", SYM_NONE)                         \
	X(K_DEFAPPCLK_GRAPHICS, "default_app_clock.graphics", SYM_NONE)        \
	X(K_DEFAPPCLK_SM, "default_app_clock.sm", SYM_NONE)                    \
	X(K_DEFAPPCLK_MEM, "default_app_clock.mem", SYM_NONE)                  \
	X(K_DEFAPPCLK_VIDEO, "default_app_clock.video", SYM_NONE)              \
	X(K_PSTATE, "pstate", SYM_NONE)                                        \
	X(K_CER, "clocks_event_reasons", SYM_NONE)                             \
	X(K_CER_SUPPORTED, "clocks_event_reasons.supported", SYM_NONE)         \
	X(K_VIOL_POWER, "violation.power", SYM_NONE)                           \
	X(K_VIOL_THERMAL, "violation.thermal", SYM_NONE)                       \
	X(K_VIOL_SYNC_BOOST, "violation.sync_boost", SYM_NONE)                 \
	X(K_VIOL_BOARD_LIMIT, "violation.board_limit", SYM_NONE)               \
	X(K_VIOL_LOW_UTIL, "violation.low_utilization", SYM_NONE)              \
	X(K_VIOL_RELIABILITY, "violation.reliability", SYM_NONE)               \
	X(K_VIOL_TOTAL_APP, "violation.total_app_clocks", SYM_NONE)            \
	X(K_VIOL_TOTAL_BASE, "violation.total_base_clocks", SYM_NONE)          \
	X(K_ECC_MODE, "ecc", SYM_BOOL)                                         \
	X(K_ECC_PENDING, "ecc.pending", SYM_BOOL)                              \
	X(K_ECC_CORR_VOL, "ecc.corrected.volatile", SYM_NONE)                  \
	X(K_ECC_CORR_AGG, "ecc.corrected.aggregate", SYM_NONE)                 \
	X(K_ECC_UNC_VOL, "ecc.uncorrected.volatile", SYM_NONE)                 \
	X(K_ECC_UNC_AGG, "ecc.uncorrected.aggregate", SYM_NONE)                \
	X(K_RETIRED_SBE, "retired.sbe", SYM_NONE)                              \
	X(K_RETIRED_DBE, "retired.dbe", SYM_NONE)                              \
	X(K_RETIRED_PENDING, "retired.pending", SYM_BOOL)                      \
	X(K_REMAP_CORR, "remapped.correctable", SYM_NONE)                      \
	X(K_REMAP_UNC, "remapped.uncorrectable", SYM_NONE)                     \
	X(K_REMAP_PENDING, "remapped.pending", SYM_BOOL)                       \
	X(K_REMAP_FAILURE, "remapped.failure", SYM_BOOL)                       \
	X(K_PERSISTENCE, "persistence", SYM_BOOL)                              \
	X(K_COMPUTE_MODE, "compute_mode", SYM_COMPUTE_MODE)                    \
	X(K_DISPLAY_MODE, "display_mode", SYM_BOOL)                            \
	X(K_DISPLAY_ACTIVE, "display_active", SYM_BOOL)                        \
	X(K_ACCOUNTING, "accounting", SYM_BOOL)                                \
	X(K_ACCOUNTING_BUFFER, "accounting.buffer_size", SYM_NONE)             \
	X(K_MIG_MODE, "mig", SYM_BOOL)                                         \
	X(K_MIG_PENDING, "mig.pending", SYM_BOOL)                              \
	X(K_MIG_MAX, "mig.max_devices", SYM_NONE)                              \
	X(K_RECOVERY_ACTION, "recovery_action", SYM_NONE)

enum fake_symtab {
	SYM_NONE,
	SYM_BOOL,
	SYM_BRAND,
	SYM_ARCH,
	SYM_COMPUTE_MODE,
	SYM_POWER_SOURCE,
};

enum fake_key {
#define FAKE_KEY_ENUM(id, name, sym) id,
	FAKE_KEYS(FAKE_KEY_ENUM)
#undef FAKE_KEY_ENUM
	    K_COUNT
};

/* A metric: unset (answers NOT_SUPPORTED), an injected error, or a
 * deterministic function of t = seconds since the first nvmlInit. */
enum fake_expr_kind {
	EXPR_UNSET = 0,
	EXPR_ERROR,   /* rc */
	EXPR_CONST,   /* a */
	EXPR_RAMP,    /* a -> b over c seconds, then b */
	EXPR_SINE,    /* a + b * sin(2 pi t / c) */
	EXPR_COUNTER, /* a + b * t */
};

struct fake_expr {
	enum fake_expr_kind kind;
	nvmlReturn_t rc;
	double a, b, c;
};

struct fake_text {
	int set;         /* 0: answers NOT_SUPPORTED */
	nvmlReturn_t rc; /* != SUCCESS: answers rc */
	char s[FAKE_TEXT_LEN];
};

enum fake_proc_kind { PROC_COMPUTE, PROC_GRAPHICS, PROC_MPS, PROC_KINDS };

struct fake_proc {
	unsigned int pid;
	unsigned long long used; /* bytes or GT_NVML_MEMORY_NOT_AVAILABLE */
	unsigned int gi, ci;     /* GT_NVML_INSTANCE_ID_NONE when not MIG */
	double from;             /* listed from this many s after init on */
};

struct fake_putil {
	unsigned int pid;
	unsigned int sm, mem, enc, dec, jpg, ofa;
	double from; /* in the samples from this many s after init on */
	/* Timestamped with the caller's lastSeenTimeStamp, not the
	 * sample's time: an old entry returned again, as drivers have
	 * done (nvtop#110), which a client must not count twice. */
	int stale;
};

struct fake_mig {
	unsigned int gi, ci;
	char uuid[FAKE_TEXT_LEN];
	char profile[32];
	unsigned long long mem_total, mem_used, bar1_total;
	/* placement=START+SIZE: memory slices of its GPU instance. */
	int have_placement;
	unsigned int placement_start, placement_size;
};

struct fake_field_override {
	unsigned int id;
	struct fake_expr e;
};

/* Errors and latencies injected per function. For a device call, a
 * device's own entry wins; an empty one (SUCCESS / 0) falls back to the
 * scenario's global table. */
struct fake_inject {
	nvmlReturn_t error[FN_COUNT]; /* SUCCESS = none */
	unsigned int latency_ms[FN_COUNT];
	/* Seconds after init before latency_ms applies (0: from the start),
	 * to model a driver that hangs after it answered for a while. */
	double latency_after[FN_COUNT];
};

struct fake_dev {
	struct fake_text name, uuid, serial, vbios, part_number;
	struct fake_expr e[K_COUNT];
	struct fake_inject inj;
	double lost_after; /* seconds after init; < 0 = never */
	double back_after; /* lost until then (as until a reset); < 0 = for
	                      good */
	double lost_every; /* > 0: the loss repeats with this period */

	/* Owned arrays; "device N like M" does not copy them. */
	struct fake_proc *procs[PROC_KINDS];
	size_t nprocs[PROC_KINDS];
	struct fake_putil *putil;
	size_t nputil;

	struct fake_mig mig[FAKE_MAX_MIG];
	unsigned int nmig;
	struct fake_field_override fields[FAKE_MAX_FIELD_OVERRIDES];
	unsigned int nfields;

	/* Fan state changed by the setters. */
	nvmlFanControlPolicy_t fan_policy[FAKE_MAX_FANS];
	unsigned int fan_manual[FAKE_MAX_FANS];
};

struct fake_pname {
	unsigned int pid;
	char name[FAKE_TEXT_LEN];
};

/* A parsed scenario; owns everything it points to. */
struct fake_scenario {
	struct fake_text driver_version, nvml_version;
	struct fake_expr cuda_version, cuda_version_v2;
	int privileged;
	nvmlReturn_t init_error;
	unsigned int putil_period_ms;
	unsigned int sample_period_ms;
	struct fake_inject inj; /* global: system calls, and inherited */
	struct fake_dev *devs;
	unsigned int ndev;
	struct fake_pname *pnames;
	size_t npnames;
};

/* A handle is the address of one slot of a static table indexed by
 * (gpu, mig); only the address carries meaning. Handles thus stay valid
 * pointers after nvmlShutdown: calls then answer UNINITIALIZED instead of
 * touching freed memory. */
struct nvmlDevice_st {
	unsigned char unused;
};

/* What fake_enter_dev resolved; valid until fake_leave. */
struct fake_call {
	struct fake_scenario *sc;
	struct fake_dev *dev;
	const struct fake_mig *mig; /* NULL for a whole-GPU handle */
	unsigned int gpu;
	/* Seconds since the first nvmlInit, negative until the call first
	 * needs it: read it through fake_call_time() or fake_expr_time(). */
	double t_lazy;
};

/* Flags of fake_enter_dev. */
#define FAKE_MIG_OK 1u /* the function also serves MIG device handles */

/* fake_state.c */
extern const char *const fake_fn_names[FN_COUNT];
int fake_fn_lookup(const char *name);
nvmlReturn_t fake_enter(enum fake_fn fn, struct fake_call *c);
nvmlReturn_t fake_enter_dev(enum fake_fn fn, nvmlDevice_t h, unsigned flags,
                            struct fake_call *c);
nvmlReturn_t fake_leave(nvmlReturn_t rc);
/* Counts one request of field id (lock held); the call-count file lists
 * them as "field:ID N". */
#define FAKE_FIELD_IDS 512
void fake_count_field(unsigned int id);
double fake_call_time(const struct fake_call *c);
nvmlReturn_t fake_injected_error(const struct fake_scenario *sc,
                                 const struct fake_dev *d, enum fake_fn fn);
nvmlDevice_t fake_handle(unsigned int gpu, int mig);
int fake_handle_decode(nvmlDevice_t h, unsigned int *gpu, int *mig);
unsigned long long fake_wall_us(void);
unsigned long long fake_init_wall_us(void);
void fake_log_setter(const char *fn, nvmlDevice_t h, nvmlReturn_t rc,
                     const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* fake_eval.c */
nvmlReturn_t fake_eval(const struct fake_expr *e, double t, double *out);
double fake_expr_time(const struct fake_call *c, const struct fake_expr *e);
nvmlReturn_t fake_get_u(const struct fake_call *c, enum fake_key k,
                        unsigned int *out);
nvmlReturn_t fake_get_ull(const struct fake_call *c, enum fake_key k,
                          unsigned long long *out);
nvmlReturn_t fake_get_i(const struct fake_call *c, enum fake_key k, int *out);
nvmlReturn_t fake_get_u_at(const struct fake_dev *d, enum fake_key k, double t,
                           unsigned int *out);
nvmlReturn_t fake_copy_text(const struct fake_text *src, char *dst,
                            unsigned int length);
nvmlReturn_t fake_copy_str(const char *src, char *dst, unsigned int length);
void fake_set_const(struct fake_expr *e, double v);
int fake_key_is_set(const struct fake_dev *d, enum fake_key k);
nvmlReturn_t fake_enforced_limit(const struct fake_call *c, unsigned int *out);
int fake_mig_enabled(const struct fake_call *c);
const char *fake_rc_name(nvmlReturn_t rc);
int fake_rc_lookup(const char *name, nvmlReturn_t *rc);

/* fake_scenario.c */
/* NULL on failure, with *rc = DRIVER_NOT_LOADED (unreadable) or UNKNOWN
 * (malformed); the problem goes to stderr as file:line. */
struct fake_scenario *fake_scenario_load(const char *path, nvmlReturn_t *rc);
void fake_scenario_free(struct fake_scenario *sc);

#pragma GCC visibility pop

#endif /* GPUTOP_FAKE_NVML_H */

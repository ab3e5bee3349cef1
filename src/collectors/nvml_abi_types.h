/* SPDX-License-Identifier: MIT */
/*
 * nvml_abi_types.h - the data half of nvml_abi.h: NVML's return codes,
 * enums, struct layouts, struct version values and field-value IDs, with
 * the layout checks. Include nvml_abi.h, which adds the prototypes; this
 * half is apart only to keep each file readable.
 */
#ifndef GPUTOP_NVML_ABI_TYPES_H
#define GPUTOP_NVML_ABI_TYPES_H

#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------ */
/* Return codes (complete list, NVML 13.3)                              */
/* ------------------------------------------------------------------ */

typedef enum nvmlReturn_enum {
	NVML_SUCCESS = 0,
	NVML_ERROR_UNINITIALIZED = 1,
	NVML_ERROR_INVALID_ARGUMENT = 2,
	NVML_ERROR_NOT_SUPPORTED = 3,
	NVML_ERROR_NO_PERMISSION = 4,
	NVML_ERROR_ALREADY_INITIALIZED = 5,
	NVML_ERROR_NOT_FOUND = 6,
	NVML_ERROR_INSUFFICIENT_SIZE = 7,
	NVML_ERROR_INSUFFICIENT_POWER = 8,
	NVML_ERROR_DRIVER_NOT_LOADED = 9,
	NVML_ERROR_TIMEOUT = 10,
	NVML_ERROR_IRQ_ISSUE = 11,
	NVML_ERROR_LIBRARY_NOT_FOUND = 12,
	NVML_ERROR_FUNCTION_NOT_FOUND = 13,
	NVML_ERROR_CORRUPTED_INFOROM = 14,
	NVML_ERROR_GPU_IS_LOST = 15,
	NVML_ERROR_RESET_REQUIRED = 16,
	NVML_ERROR_OPERATING_SYSTEM = 17,
	NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18,
	NVML_ERROR_IN_USE = 19,
	NVML_ERROR_MEMORY = 20,
	NVML_ERROR_NO_DATA = 21,
	NVML_ERROR_VGPU_ECC_NOT_SUPPORTED = 22,
	NVML_ERROR_INSUFFICIENT_RESOURCES = 23,
	NVML_ERROR_FREQ_NOT_SUPPORTED = 24,
	NVML_ERROR_ARGUMENT_VERSION_MISMATCH = 25,
	NVML_ERROR_DEPRECATED = 26,
	NVML_ERROR_NOT_READY = 27,
	NVML_ERROR_GPU_NOT_FOUND = 28,
	NVML_ERROR_INVALID_STATE = 29,
	NVML_ERROR_RESET_TYPE_NOT_SUPPORTED = 30,
	NVML_ERROR_UNKNOWN = 999
} nvmlReturn_t;

/* Opaque: clients store handles and pass them back, never dereference. */
typedef struct nvmlDevice_st *nvmlDevice_t;
/* Opaque as well: a GPU instance of a MIG-enabled GPU. */
typedef struct nvmlGpuInstance_st *nvmlGpuInstance_t;

/* ------------------------------------------------------------------ */
/* Buffer sizes and special values                                      */
/* ------------------------------------------------------------------ */

#define NVML_DEVICE_NAME_BUFFER_SIZE            64
#define NVML_DEVICE_NAME_V2_BUFFER_SIZE         96
#define NVML_DEVICE_UUID_BUFFER_SIZE            80
#define NVML_DEVICE_UUID_V2_BUFFER_SIZE         96
#define NVML_DEVICE_UUID_ASCII_LEN              41
#define NVML_DEVICE_SERIAL_BUFFER_SIZE          30
#define NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE  80
#define NVML_SYSTEM_NVML_VERSION_BUFFER_SIZE    80
#define NVML_DEVICE_VBIOS_VERSION_BUFFER_SIZE   32
#define NVML_DEVICE_PART_NUMBER_BUFFER_SIZE     80
#define NVML_DEVICE_INFOROM_VERSION_BUFFER_SIZE 16
#define NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE      32
#define NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE   16

/* usedGpuMemory when per-process memory is unknown (WDDM, MIG unprivileged). */
#define NVML_VALUE_NOT_AVAILABLE     (-1)
#define GT_NVML_MEMORY_NOT_AVAILABLE 0xFFFFFFFFFFFFFFFFULL
/* gpuInstanceId / computeInstanceId of a process on a non-MIG GPU. */
#define GT_NVML_INSTANCE_ID_NONE 0xFFFFFFFFu

/* nvmlInitWithFlags flags */
#define NVML_INIT_FLAG_NO_GPUS   1u
#define NVML_INIT_FLAG_NO_ATTACH 2u

/* ------------------------------------------------------------------ */
/* Struct version values                                                */
/*                                                                      */
/* NVML's rule is sizeof(struct) | (ver << 24); the header's "version   */
/* must be 2" comments are misleading, so the values are spelt out and  */
/* checked against the rule below the struct definitions.               */
/* ------------------------------------------------------------------ */

#define GT_NVML_STRUCT_VERSION(type, ver)                                      \
	((unsigned int)(sizeof(type) | ((unsigned int)(ver) << 24U)))

#define GT_NVML_MEMORY_V2_VERSION              0x02000028u
#define GT_NVML_TEMPERATURE_V1_VERSION         0x0100000Cu
#define GT_NVML_FAN_SPEED_INFO_V1_VERSION      0x0100000Cu
#define GT_NVML_POWER_VALUE_V2_VERSION         0x0200000Cu
#define GT_NVML_PROCESSES_UTIL_INFO_V1_VERSION 0x01000018u
#define GT_NVML_PROCESS_DETAIL_LIST_V1_VERSION 0x01000018u
#define GT_NVML_COOLER_INFO_V1_VERSION         0x01000010u
#define GT_NVML_MARGIN_TEMPERATURE_V1_VERSION  0x01000008u
#define GT_NVML_PCI_INFO_EXT_V1_VERSION        0x01000040u

/* ------------------------------------------------------------------ */
/* Enumerations and bit masks                                           */
/* ------------------------------------------------------------------ */

typedef enum nvmlClockType_enum {
	NVML_CLOCK_GRAPHICS = 0,
	NVML_CLOCK_SM = 1,
	NVML_CLOCK_MEM = 2,
	NVML_CLOCK_VIDEO = 3,
	NVML_CLOCK_COUNT
} nvmlClockType_t;

typedef enum nvmlClockId_enum {
	NVML_CLOCK_ID_CURRENT = 0,
	NVML_CLOCK_ID_APP_CLOCK_TARGET = 1,  /* deprecated */
	NVML_CLOCK_ID_APP_CLOCK_DEFAULT = 2, /* deprecated */
	NVML_CLOCK_ID_CUSTOMER_BOOST_MAX = 3,
	NVML_CLOCK_ID_COUNT
} nvmlClockId_t;

typedef enum nvmlPStates_enum {
	NVML_PSTATE_0 = 0,
	NVML_PSTATE_1 = 1,
	NVML_PSTATE_2 = 2,
	NVML_PSTATE_3 = 3,
	NVML_PSTATE_4 = 4,
	NVML_PSTATE_5 = 5,
	NVML_PSTATE_6 = 6,
	NVML_PSTATE_7 = 7,
	NVML_PSTATE_8 = 8,
	NVML_PSTATE_9 = 9,
	NVML_PSTATE_10 = 10,
	NVML_PSTATE_11 = 11,
	NVML_PSTATE_12 = 12,
	NVML_PSTATE_13 = 13,
	NVML_PSTATE_14 = 14,
	NVML_PSTATE_15 = 15, /* 0 = maximum performance */
	NVML_PSTATE_UNKNOWN = 32
} nvmlPstates_t;

typedef enum nvmlTemperatureSensors_enum {
	NVML_TEMPERATURE_GPU = 0,
	NVML_TEMPERATURE_COUNT
} nvmlTemperatureSensors_t;

typedef enum nvmlTemperatureThresholds_enum {
	NVML_TEMPERATURE_THRESHOLD_SHUTDOWN = 0,
	NVML_TEMPERATURE_THRESHOLD_SLOWDOWN = 1,
	NVML_TEMPERATURE_THRESHOLD_MEM_MAX = 2,
	NVML_TEMPERATURE_THRESHOLD_GPU_MAX = 3,
	NVML_TEMPERATURE_THRESHOLD_ACOUSTIC_MIN = 4,
	NVML_TEMPERATURE_THRESHOLD_ACOUSTIC_CURR = 5,
	NVML_TEMPERATURE_THRESHOLD_ACOUSTIC_MAX = 6,
	NVML_TEMPERATURE_THRESHOLD_GPS_CURR = 7,
	NVML_TEMPERATURE_THRESHOLD_COUNT
} nvmlTemperatureThresholds_t;

typedef enum nvmlPcieUtilCounter_enum {
	NVML_PCIE_UTIL_TX_BYTES = 0,
	NVML_PCIE_UTIL_RX_BYTES = 1,
	NVML_PCIE_UTIL_COUNT
} nvmlPcieUtilCounter_t;

typedef enum nvmlEnableState_enum {
	NVML_FEATURE_DISABLED = 0,
	NVML_FEATURE_ENABLED = 1
} nvmlEnableState_t;

typedef enum nvmlComputeMode_enum {
	NVML_COMPUTEMODE_DEFAULT = 0,
	NVML_COMPUTEMODE_EXCLUSIVE_THREAD = 1, /* removed from drivers */
	NVML_COMPUTEMODE_PROHIBITED = 2,
	NVML_COMPUTEMODE_EXCLUSIVE_PROCESS = 3,
	NVML_COMPUTEMODE_COUNT
} nvmlComputeMode_t;

typedef enum nvmlMemoryErrorType_enum {
	NVML_MEMORY_ERROR_TYPE_CORRECTED = 0,
	NVML_MEMORY_ERROR_TYPE_UNCORRECTED = 1,
	NVML_MEMORY_ERROR_TYPE_COUNT
} nvmlMemoryErrorType_t;

typedef enum nvmlEccCounterType_enum {
	NVML_VOLATILE_ECC = 0,
	NVML_AGGREGATE_ECC = 1,
	NVML_ECC_COUNTER_TYPE_COUNT
} nvmlEccCounterType_t;

typedef enum nvmlMemoryLocation_enum {
	NVML_MEMORY_LOCATION_L1_CACHE = 0,
	NVML_MEMORY_LOCATION_L2_CACHE = 1,
	NVML_MEMORY_LOCATION_DRAM = 2,
	NVML_MEMORY_LOCATION_DEVICE_MEMORY = 2,
	NVML_MEMORY_LOCATION_REGISTER_FILE = 3,
	NVML_MEMORY_LOCATION_TEXTURE_MEMORY = 4,
	NVML_MEMORY_LOCATION_TEXTURE_SHM = 5,
	NVML_MEMORY_LOCATION_CBU = 6,
	NVML_MEMORY_LOCATION_SRAM = 7,
	NVML_MEMORY_LOCATION_COUNT
} nvmlMemoryLocation_t;

typedef enum nvmlPageRetirementCause_enum {
	NVML_PAGE_RETIREMENT_CAUSE_MULTIPLE_SINGLE_BIT_ECC_ERRORS = 0,
	NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR = 1,
	NVML_PAGE_RETIREMENT_CAUSE_COUNT
} nvmlPageRetirementCause_t;

typedef enum nvmlBrandType_enum {
	NVML_BRAND_UNKNOWN = 0,
	NVML_BRAND_QUADRO = 1,
	NVML_BRAND_TESLA = 2,
	NVML_BRAND_NVS = 3,
	NVML_BRAND_GRID = 4,
	NVML_BRAND_GEFORCE = 5,
	NVML_BRAND_TITAN = 6,
	NVML_BRAND_NVIDIA_VAPPS = 7,
	NVML_BRAND_NVIDIA_VPC = 8,
	NVML_BRAND_NVIDIA_VCS = 9,
	NVML_BRAND_NVIDIA_VWS = 10,
	NVML_BRAND_NVIDIA_CLOUD_GAMING = 11,
	NVML_BRAND_QUADRO_RTX = 12,
	NVML_BRAND_NVIDIA_RTX = 13,
	NVML_BRAND_NVIDIA = 14,
	NVML_BRAND_GEFORCE_RTX = 15, /* unused by drivers */
	NVML_BRAND_TITAN_RTX = 16,   /* unused by drivers */
	NVML_BRAND_COUNT
} nvmlBrandType_t;

/* These are plain unsigned ints in the ABI, not enums. */
typedef unsigned int nvmlDeviceArchitecture_t;
#define NVML_DEVICE_ARCH_KEPLER    2u
#define NVML_DEVICE_ARCH_MAXWELL   3u
#define NVML_DEVICE_ARCH_PASCAL    4u
#define NVML_DEVICE_ARCH_VOLTA     5u
#define NVML_DEVICE_ARCH_TURING    6u
#define NVML_DEVICE_ARCH_AMPERE    7u
#define NVML_DEVICE_ARCH_ADA       8u
#define NVML_DEVICE_ARCH_HOPPER    9u
#define NVML_DEVICE_ARCH_BLACKWELL 10u
#define NVML_DEVICE_ARCH_RUBIN     13u
#define NVML_DEVICE_ARCH_UNKNOWN   0xffffffffu

typedef unsigned int nvmlBusType_t;
#define NVML_BUS_TYPE_UNKNOWN 0u
#define NVML_BUS_TYPE_PCI     1u
#define NVML_BUS_TYPE_PCIE    2u
#define NVML_BUS_TYPE_FPCI    3u
#define NVML_BUS_TYPE_AGP     4u

typedef unsigned int nvmlPowerSource_t;
#define NVML_POWER_SOURCE_AC         0u
#define NVML_POWER_SOURCE_BATTERY    1u
#define NVML_POWER_SOURCE_UNDERSIZED 2u

typedef unsigned int nvmlFanControlPolicy_t;
/* "CONTINOUS" is NVIDIA's spelling; automatic (vBIOS curve). */
#define NVML_FAN_POLICY_TEMPERATURE_CONTINOUS_SW 0u
#define NVML_FAN_POLICY_MANUAL                   1u

/* Scope of nvmlPowerValue_v2_t; one byte in the struct. */
typedef unsigned char nvmlPowerScopeType_t;
#define NVML_POWER_SCOPE_GPU      0u
#define NVML_POWER_SCOPE_MODULE   1u
#define NVML_POWER_SCOPE_MEMORY   2u
#define NVML_POWER_SCOPE_GPU_BASE 3u

/* Codes returned by nvmlDeviceGetPcieLinkMaxSpeed. */
#define NVML_PCIE_LINK_MAX_SPEED_INVALID   0u
#define NVML_PCIE_LINK_MAX_SPEED_2500MBPS  1u
#define NVML_PCIE_LINK_MAX_SPEED_5000MBPS  2u
#define NVML_PCIE_LINK_MAX_SPEED_8000MBPS  3u
#define NVML_PCIE_LINK_MAX_SPEED_16000MBPS 4u
#define NVML_PCIE_LINK_MAX_SPEED_32000MBPS 5u
#define NVML_PCIE_LINK_MAX_SPEED_64000MBPS 6u

/* nvmlDeviceGetMigMode values */
#define NVML_DEVICE_MIG_DISABLE 0u
#define NVML_DEVICE_MIG_ENABLE  1u

/* nvmlGpuInstanceGetInfo: where a GPU instance sits, in memory slices. */
typedef struct nvmlGpuInstancePlacement_st {
	unsigned int start;
	unsigned int size;
} nvmlGpuInstancePlacement_t;

typedef struct nvmlGpuInstanceInfo_st {       /* 24 B on LP64 */
	nvmlDevice_t device;                  /* off 0: the parent GPU */
	unsigned int id;                      /* off 8 */
	unsigned int profileId;               /* off 12 */
	nvmlGpuInstancePlacement_t placement; /* off 16 */
} nvmlGpuInstanceInfo_t;

/* nvmlProcessDetailList_v1_t.mode */
#define NVML_PROCESS_MODE_COMPUTE  0u
#define NVML_PROCESS_MODE_GRAPHICS 1u
#define NVML_PROCESS_MODE_MPS      2u
#define NVML_PROCESS_MODE_ALL      3u

typedef enum nvmlPerfPolicyType_enum {
	NVML_PERF_POLICY_POWER = 0,
	NVML_PERF_POLICY_THERMAL = 1,
	NVML_PERF_POLICY_SYNC_BOOST = 2,
	NVML_PERF_POLICY_BOARD_LIMIT = 3,
	NVML_PERF_POLICY_LOW_UTILIZATION = 4,
	NVML_PERF_POLICY_RELIABILITY = 5,
	NVML_PERF_POLICY_TOTAL_APP_CLOCKS = 10,
	NVML_PERF_POLICY_TOTAL_BASE_CLOCKS = 11,
	NVML_PERF_POLICY_COUNT
} nvmlPerfPolicyType_t;

typedef enum nvmlSamplingType_enum {
	NVML_TOTAL_POWER_SAMPLES = 0,
	NVML_GPU_UTILIZATION_SAMPLES = 1,
	NVML_MEMORY_UTILIZATION_SAMPLES = 2,
	NVML_ENC_UTILIZATION_SAMPLES = 3,
	NVML_DEC_UTILIZATION_SAMPLES = 4,
	NVML_PROCESSOR_CLK_SAMPLES = 5,
	NVML_MEMORY_CLK_SAMPLES = 6,
	NVML_MODULE_POWER_SAMPLES = 7,
	NVML_JPG_UTILIZATION_SAMPLES = 8,
	NVML_OFA_UTILIZATION_SAMPLES = 9,
	NVML_SAMPLINGTYPE_COUNT
} nvmlSamplingType_t;

typedef enum nvmlValueType_enum {
	NVML_VALUE_TYPE_DOUBLE = 0,
	NVML_VALUE_TYPE_UNSIGNED_INT = 1,
	NVML_VALUE_TYPE_UNSIGNED_LONG = 2,
	NVML_VALUE_TYPE_UNSIGNED_LONG_LONG = 3,
	NVML_VALUE_TYPE_SIGNED_LONG_LONG = 4,
	NVML_VALUE_TYPE_SIGNED_INT = 5,
	NVML_VALUE_TYPE_UNSIGNED_SHORT = 6,
	NVML_VALUE_TYPE_COUNT
} nvmlValueType_t;

typedef enum nvmlCoolerControl_enum {
	NVML_THERMAL_COOLER_SIGNAL_NONE = 0,
	NVML_THERMAL_COOLER_SIGNAL_TOGGLE = 1,
	NVML_THERMAL_COOLER_SIGNAL_VARIABLE = 2,
	NVML_THERMAL_COOLER_SIGNAL_COUNT
} nvmlCoolerControl_t;

typedef enum nvmlCoolerTarget_enum {
	NVML_THERMAL_COOLER_TARGET_NONE = 1 << 0,
	NVML_THERMAL_COOLER_TARGET_GPU = 1 << 1,
	NVML_THERMAL_COOLER_TARGET_MEMORY = 1 << 2,
	NVML_THERMAL_COOLER_TARGET_POWER_SUPPLY = 1 << 3,
	NVML_THERMAL_COOLER_TARGET_GPU_RELATED = (1 << 1) | (1 << 2) | (1 << 3)
} nvmlCoolerTarget_t;

/* Clocks event (formerly "throttle") reasons, unsigned long long mask. */
#define nvmlClocksEventReasonGpuIdle                   0x0000000000000001ULL
#define nvmlClocksEventReasonApplicationsClocksSetting 0x0000000000000002ULL
#define nvmlClocksEventReasonSwPowerCap                0x0000000000000004ULL
#define nvmlClocksEventReasonHwSlowdown                0x0000000000000008ULL
#define nvmlClocksEventReasonSyncBoost                 0x0000000000000010ULL
#define nvmlClocksEventReasonSwThermalSlowdown         0x0000000000000020ULL
#define nvmlClocksEventReasonHwThermalSlowdown         0x0000000000000040ULL
#define nvmlClocksEventReasonHwPowerBrakeSlowdown      0x0000000000000080ULL
#define nvmlClocksEventReasonDisplayClockSetting       0x0000000000000100ULL
#define nvmlClocksEventReasonNone                      0x0000000000000000ULL
#define nvmlClocksEventReasonAll                       0x00000000000001FFULL

/* ------------------------------------------------------------------ */
/* Field-value IDs (nvmlDeviceGetFieldValues). IDs > 250 were renumbered */
/* between NVML 13.0 and 13.1, so none of those are listed here.        */
/* ------------------------------------------------------------------ */

#define NVML_FI_DEV_ECC_CURRENT                   1
#define NVML_FI_DEV_ECC_PENDING                   2
#define NVML_FI_DEV_ECC_SBE_VOL_TOTAL             3
#define NVML_FI_DEV_ECC_DBE_VOL_TOTAL             4
#define NVML_FI_DEV_ECC_SBE_AGG_TOTAL             5
#define NVML_FI_DEV_ECC_DBE_AGG_TOTAL             6
#define NVML_FI_DEV_RETIRED_SBE                   29
#define NVML_FI_DEV_RETIRED_DBE                   30
#define NVML_FI_DEV_RETIRED_PENDING               31
#define NVML_FI_DEV_PERF_POLICY_POWER             74
#define NVML_FI_DEV_PERF_POLICY_THERMAL           75
#define NVML_FI_DEV_PERF_POLICY_SYNC_BOOST        76
#define NVML_FI_DEV_PERF_POLICY_BOARD_LIMIT       77
#define NVML_FI_DEV_PERF_POLICY_LOW_UTILIZATION   78
#define NVML_FI_DEV_PERF_POLICY_RELIABILITY       79
#define NVML_FI_DEV_PERF_POLICY_TOTAL_APP_CLOCKS  80
#define NVML_FI_DEV_PERF_POLICY_TOTAL_BASE_CLOCKS 81
#define NVML_FI_DEV_MEMORY_TEMP                   82
#define NVML_FI_DEV_TOTAL_ENERGY_CONSUMPTION      83
#define NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON      90
#define NVML_FI_DEV_NVLINK_LINK_COUNT             91
#define NVML_FI_DEV_PCIE_REPLAY_COUNTER           94
#define NVML_FI_DEV_PCIE_REPLAY_ROLLOVER_COUNTER  95
#define NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX     138
#define NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX     139
#define NVML_FI_DEV_NVLINK_THROUGHPUT_RAW_TX      140
#define NVML_FI_DEV_NVLINK_THROUGHPUT_RAW_RX      141
#define NVML_FI_DEV_REMAPPED_COR                  142
#define NVML_FI_DEV_REMAPPED_UNC                  143
#define NVML_FI_DEV_REMAPPED_PENDING              144
#define NVML_FI_DEV_REMAPPED_FAILURE              145
#define NVML_FI_DEV_PCIE_L0_TO_RECOVERY_COUNTER   169
#define NVML_FI_DEV_PCIE_COUNT_CORRECTABLE_ERRORS 173
#define NVML_FI_DEV_PCIE_COUNT_NAKS_RECEIVED      174
#define NVML_FI_DEV_PCIE_COUNT_RECEIVER_ERROR     175
#define NVML_FI_DEV_PCIE_COUNT_BAD_TLP            176
#define NVML_FI_DEV_PCIE_COUNT_NAKS_SENT          177
#define NVML_FI_DEV_PCIE_COUNT_BAD_DLLP           178
#define NVML_FI_DEV_PCIE_COUNT_NON_FATAL_ERROR    179
#define NVML_FI_DEV_PCIE_COUNT_FATAL_ERROR        180
#define NVML_FI_DEV_PCIE_COUNT_UNSUPPORTED_REQ    181
#define NVML_FI_DEV_PCIE_COUNT_LCRC_ERROR         182
#define NVML_FI_DEV_PCIE_COUNT_LANE_ERROR         183
#define NVML_FI_DEV_POWER_AVERAGE                 185
#define NVML_FI_DEV_POWER_INSTANT                 186
#define NVML_FI_DEV_POWER_MIN_LIMIT               187
#define NVML_FI_DEV_POWER_MAX_LIMIT               188
#define NVML_FI_DEV_POWER_DEFAULT_LIMIT           189
#define NVML_FI_DEV_POWER_CURRENT_LIMIT           190
#define NVML_FI_DEV_ENERGY                        191
#define NVML_FI_DEV_POWER_REQUESTED_LIMIT         192
#define NVML_FI_DEV_TEMPERATURE_SHUTDOWN_TLIMIT   193
#define NVML_FI_DEV_TEMPERATURE_SLOWDOWN_TLIMIT   194
#define NVML_FI_DEV_TEMPERATURE_MEM_MAX_TLIMIT    195
#define NVML_FI_DEV_TEMPERATURE_GPU_MAX_TLIMIT    196
#define NVML_FI_DEV_PCIE_COUNT_TX_BYTES           197
#define NVML_FI_DEV_PCIE_COUNT_RX_BYTES           198
#define NVML_FI_DEV_GET_GPU_RECOVERY_ACTION       230

/* ------------------------------------------------------------------ */
/* Structs                                                              */
/* ------------------------------------------------------------------ */

/* Layout of nvmlDeviceGetPciInfo_v3. The v1/v2 entry points share the
 * first 36 bytes and have 16 reserved bytes where busId starts. */
typedef struct nvmlPciInfo_st {
	char busIdLegacy[NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE];
	unsigned int domain;
	unsigned int bus;
	unsigned int device;
	unsigned int pciDeviceId; /* (device id << 16) | vendor 0x10DE */
	unsigned int pciSubSystemId;
	char busId[NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE];
} nvmlPciInfo_t;

/* Bytes the v1/v2 PCI entry points own: 36 filled, 16 reserved. */
#define GT_NVML_PCI_INFO_V1_FILLED 36u
#define GT_NVML_PCI_INFO_V1_SIZE   52u

typedef struct nvmlPciInfoExt_v1_st {
	unsigned int version;
	unsigned int domain;
	unsigned int bus;
	unsigned int device;
	unsigned int pciDeviceId;
	unsigned int pciSubSystemId;
	unsigned int baseClass;
	unsigned int subClass;
	char busId[NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE];
} nvmlPciInfoExt_v1_t;
typedef nvmlPciInfoExt_v1_t nvmlPciInfoExt_t;

typedef struct nvmlUtilization_st {
	unsigned int gpu;    /* % of time a kernel ran */
	unsigned int memory; /* % of time memory was read/written */
} nvmlUtilization_t;

/* v1: used includes the reserved part. */
typedef struct nvmlMemory_st {
	unsigned long long total;
	unsigned long long free;
	unsigned long long used;
} nvmlMemory_t;

/* v2: total = reserved + used + free. */
typedef struct nvmlMemory_v2_st {
	unsigned int version;
	unsigned long long total;
	unsigned long long reserved;
	unsigned long long free;
	unsigned long long used;
} nvmlMemory_v2_t;

typedef struct nvmlBAR1Memory_st {
	unsigned long long bar1Total;
	unsigned long long bar1Free;
	unsigned long long bar1Used;
} nvmlBAR1Memory_t;

/* Entries of the unsuffixed process-list symbols. */
typedef struct nvmlProcessInfo_v1_st {
	unsigned int pid;
	unsigned long long usedGpuMemory;
} nvmlProcessInfo_v1_t;

/* Entries of both the _v2 and the _v3 process-list symbols. */
typedef struct nvmlProcessInfo_v2_st {
	unsigned int pid;
	unsigned long long usedGpuMemory;
	/* both GT_NVML_INSTANCE_ID_NONE when not on a MIG instance */
	unsigned int gpuInstanceId;
	unsigned int computeInstanceId;
} nvmlProcessInfo_v2_t;
typedef nvmlProcessInfo_v2_t nvmlProcessInfo_t;

typedef struct nvmlProcessDetail_v1_st {
	unsigned int pid;
	unsigned long long usedGpuMemory;
	unsigned int gpuInstanceId;
	unsigned int computeInstanceId;
	unsigned long long usedGpuCcProtectedMemory;
} nvmlProcessDetail_v1_t;

typedef struct nvmlProcessDetailList_v1_st {
	unsigned int version;
	unsigned int mode;                /* NVML_PROCESS_MODE_* */
	unsigned int numProcArrayEntries; /* in: capacity, out: count */
	nvmlProcessDetail_v1_t *procArray;
} nvmlProcessDetailList_v1_t;
typedef nvmlProcessDetailList_v1_t nvmlProcessDetailList_t;

typedef struct nvmlProcessUtilizationSample_st {
	unsigned int pid;
	unsigned long long timeStamp; /* CPU time, us since the Unix epoch */
	unsigned int smUtil;
	unsigned int memUtil;
	unsigned int encUtil;
	unsigned int decUtil;
} nvmlProcessUtilizationSample_t;

typedef struct nvmlProcessUtilizationInfo_v1_st {
	unsigned long long timeStamp;
	unsigned int pid;
	unsigned int smUtil;
	unsigned int memUtil;
	unsigned int encUtil;
	unsigned int decUtil;
	unsigned int jpgUtil;
	unsigned int ofaUtil;
} nvmlProcessUtilizationInfo_v1_t;

typedef struct nvmlProcessesUtilizationInfo_v1_st {
	unsigned int version;
	unsigned int processSamplesCount; /* in: capacity, out: count */
	unsigned long long lastSeenTimeStamp;
	nvmlProcessUtilizationInfo_v1_t *procUtilArray;
} nvmlProcessesUtilizationInfo_v1_t;
typedef nvmlProcessesUtilizationInfo_v1_t nvmlProcessesUtilizationInfo_t;

typedef union nvmlValue_st {
	double dVal;
	int siVal;
	unsigned int uiVal;
	unsigned long ulVal;
	unsigned long long ullVal;
	signed long long sllVal;
	unsigned short usVal;
} nvmlValue_t;

typedef struct nvmlSample_st {
	unsigned long long timeStamp;
	nvmlValue_t sampleValue;
} nvmlSample_t;

typedef struct nvmlFieldValue_st {
	unsigned int fieldId;      /* in */
	unsigned int scopeId;      /* in, e.g. NVLink id */
	long long timestamp;       /* out, us since 1970 */
	long long latencyUsec;     /* out */
	nvmlValueType_t valueType; /* out: which union member is valid */
	nvmlReturn_t nvmlReturn;   /* out: per-field status, check first */
	nvmlValue_t value;         /* out */
} nvmlFieldValue_t;

typedef struct nvmlFanSpeedInfo_v1_st {
	unsigned int version;
	unsigned int fan;   /* in */
	unsigned int speed; /* out, RPM */
} nvmlFanSpeedInfo_v1_t;
typedef nvmlFanSpeedInfo_v1_t nvmlFanSpeedInfo_t;

typedef struct nvmlTemperature_v1_st {
	unsigned int version;
	nvmlTemperatureSensors_t sensorType;
	int temperature;
} nvmlTemperature_v1_t;
typedef nvmlTemperature_v1_t nvmlTemperature_t;

typedef struct nvmlMarginTemperature_v1_st {
	unsigned int version;
	int marginTemperature; /* degrees C below the slowdown limit */
} nvmlMarginTemperature_v1_t;
typedef nvmlMarginTemperature_v1_t nvmlMarginTemperature_t;

typedef struct nvmlCoolerInfo_v1_st {
	unsigned int version;
	unsigned int index; /* in: fan index */
	nvmlCoolerControl_t signalType;
	nvmlCoolerTarget_t target;
} nvmlCoolerInfo_v1_t;
typedef nvmlCoolerInfo_v1_t nvmlCoolerInfo_t;

typedef struct nvmlPowerValue_v2_st {
	unsigned int version;
	nvmlPowerScopeType_t powerScope;
	unsigned int powerValueMw;
} nvmlPowerValue_v2_t;

typedef struct nvmlAccountingStats_st {
	unsigned int gpuUtilization; /* % over the process lifetime */
	unsigned int memoryUtilization;
	unsigned long long maxMemoryUsage; /* bytes */
	unsigned long long time;           /* ms, 0 while running */
	unsigned long long startTime;      /* us since the epoch */
	unsigned int isRunning;
	unsigned int reserved[5];
} nvmlAccountingStats_t;

typedef struct nvmlViolationTime_st {
	unsigned long long referenceTime; /* us since the epoch */
	unsigned long long violationTime; /* ns */
} nvmlViolationTime_t;

typedef struct nvmlEccErrorCounts_st {
	unsigned long long l1Cache;
	unsigned long long l2Cache;
	unsigned long long deviceMemory;
	unsigned long long registerFile;
} nvmlEccErrorCounts_t;

/* ------------------------------------------------------------------ */
/* Layout checks (x86-64 LP64 only: other ABIs lay these out differently) */
/* ------------------------------------------------------------------ */

#if defined(__x86_64__) && defined(__LP64__)
#define GT_NVML_SIZE(t, n)   _Static_assert(sizeof(t) == (n), #t)
#define GT_NVML_OFF(t, m, n) _Static_assert(offsetof(t, m) == (n), #t "." #m)
GT_NVML_SIZE(nvmlReturn_t, 4);
GT_NVML_SIZE(nvmlPciInfo_t, 68);
GT_NVML_OFF(nvmlPciInfo_t, domain, 16);
GT_NVML_OFF(nvmlPciInfo_t, pciDeviceId, 28);
GT_NVML_OFF(nvmlPciInfo_t, busId, GT_NVML_PCI_INFO_V1_FILLED);
GT_NVML_SIZE(nvmlPciInfoExt_v1_t, 64);
GT_NVML_OFF(nvmlPciInfoExt_v1_t, busId, 32);
GT_NVML_SIZE(nvmlUtilization_t, 8);
GT_NVML_SIZE(nvmlMemory_t, 24);
GT_NVML_SIZE(nvmlMemory_v2_t, 40);
GT_NVML_OFF(nvmlMemory_v2_t, total, 8);
GT_NVML_OFF(nvmlMemory_v2_t, reserved, 16);
GT_NVML_OFF(nvmlMemory_v2_t, free, 24);
GT_NVML_OFF(nvmlMemory_v2_t, used, 32);
GT_NVML_SIZE(nvmlBAR1Memory_t, 24);
GT_NVML_SIZE(nvmlProcessInfo_v1_t, 16);
GT_NVML_OFF(nvmlProcessInfo_v1_t, usedGpuMemory, 8);
GT_NVML_SIZE(nvmlProcessInfo_v2_t, 24);
GT_NVML_OFF(nvmlProcessInfo_v2_t, gpuInstanceId, 16);
GT_NVML_OFF(nvmlProcessInfo_v2_t, computeInstanceId, 20);
GT_NVML_SIZE(nvmlProcessDetail_v1_t, 32);
GT_NVML_SIZE(nvmlProcessDetailList_v1_t, 24);
GT_NVML_OFF(nvmlProcessDetailList_v1_t, procArray, 16);
GT_NVML_SIZE(nvmlProcessUtilizationSample_t, 32);
GT_NVML_OFF(nvmlProcessUtilizationSample_t, timeStamp, 8);
GT_NVML_OFF(nvmlProcessUtilizationSample_t, smUtil, 16);
GT_NVML_OFF(nvmlProcessUtilizationSample_t, decUtil, 28);
GT_NVML_SIZE(nvmlProcessUtilizationInfo_v1_t, 40);
GT_NVML_OFF(nvmlProcessUtilizationInfo_v1_t, pid, 8);
GT_NVML_SIZE(nvmlProcessesUtilizationInfo_v1_t, 24);
GT_NVML_OFF(nvmlProcessesUtilizationInfo_v1_t, lastSeenTimeStamp, 8);
GT_NVML_OFF(nvmlProcessesUtilizationInfo_v1_t, procUtilArray, 16);
GT_NVML_SIZE(nvmlValue_t, 8);
GT_NVML_SIZE(nvmlSample_t, 16);
GT_NVML_SIZE(nvmlFieldValue_t, 40);
GT_NVML_OFF(nvmlFieldValue_t, timestamp, 8);
GT_NVML_OFF(nvmlFieldValue_t, latencyUsec, 16);
GT_NVML_OFF(nvmlFieldValue_t, valueType, 24);
GT_NVML_OFF(nvmlFieldValue_t, nvmlReturn, 28);
GT_NVML_OFF(nvmlFieldValue_t, value, 32);
GT_NVML_SIZE(nvmlFanSpeedInfo_v1_t, 12);
GT_NVML_SIZE(nvmlTemperature_v1_t, 12);
GT_NVML_SIZE(nvmlMarginTemperature_v1_t, 8);
GT_NVML_SIZE(nvmlCoolerInfo_v1_t, 16);
GT_NVML_SIZE(nvmlPowerValue_v2_t, 12);
GT_NVML_OFF(nvmlPowerValue_v2_t, powerScope, 4);
GT_NVML_OFF(nvmlPowerValue_v2_t, powerValueMw, 8);
GT_NVML_SIZE(nvmlAccountingStats_t, 56);
GT_NVML_OFF(nvmlAccountingStats_t, isRunning, 32);
GT_NVML_SIZE(nvmlViolationTime_t, 16);
GT_NVML_SIZE(nvmlEccErrorCounts_t, 32);
#undef GT_NVML_SIZE
#undef GT_NVML_OFF

#define GT_NVML_CHECK_VERSION(value, type, ver)                                \
	_Static_assert((value) == GT_NVML_STRUCT_VERSION(type, ver), #value)
GT_NVML_CHECK_VERSION(GT_NVML_MEMORY_V2_VERSION, nvmlMemory_v2_t, 2);
GT_NVML_CHECK_VERSION(GT_NVML_TEMPERATURE_V1_VERSION, nvmlTemperature_v1_t, 1);
GT_NVML_CHECK_VERSION(GT_NVML_FAN_SPEED_INFO_V1_VERSION, nvmlFanSpeedInfo_v1_t,
                      1);
GT_NVML_CHECK_VERSION(GT_NVML_POWER_VALUE_V2_VERSION, nvmlPowerValue_v2_t, 2);
GT_NVML_CHECK_VERSION(GT_NVML_PROCESSES_UTIL_INFO_V1_VERSION,
                      nvmlProcessesUtilizationInfo_v1_t, 1);
GT_NVML_CHECK_VERSION(GT_NVML_PROCESS_DETAIL_LIST_V1_VERSION,
                      nvmlProcessDetailList_v1_t, 1);
GT_NVML_CHECK_VERSION(GT_NVML_COOLER_INFO_V1_VERSION, nvmlCoolerInfo_v1_t, 1);
GT_NVML_CHECK_VERSION(GT_NVML_MARGIN_TEMPERATURE_V1_VERSION,
                      nvmlMarginTemperature_v1_t, 1);
GT_NVML_CHECK_VERSION(GT_NVML_PCI_INFO_EXT_V1_VERSION, nvmlPciInfoExt_v1_t, 1);
#undef GT_NVML_CHECK_VERSION
#endif

#endif /* GPUTOP_NVML_ABI_TYPES_H */

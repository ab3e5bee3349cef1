/* SPDX-License-Identifier: MIT */
/*
 * amdgpu_parse.h - pure parsers of the amdgpu text attributes the backend
 * reads: the pp_dpm_* level tables, pp_od_clk_voltage (the overdrive
 * ranges), pp_power_profile_mode (which profile is active, five table
 * layouts) and power_dpm_force_performance_level. No I/O here: every
 * function takes the bytes as read (NUL bytes included, see below) so the
 * unit tests can feed the fixture files and hand-made quirks directly.
 *
 * NUL bytes: real files of some kernels contain runs of NULs in the middle
 * of the text (pp_od_clk_voltage on RDNA2/3/4 and the APUs, where the
 * kernel's page-offset bookkeeping left gaps before section headers) and
 * the rx6900xt capture pads every file with NULs to 4096 bytes. The parsers
 * treat a NUL as blank space, which covers both.
 */
#ifndef GPUTOP_AMDGPU_PARSE_H
#define GPUTOP_AMDGPU_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GT_AMDGPU_DPM_MAX 32

/* One line of a pp_dpm_* table. */
struct gt_amdgpu_dpm_level {
	int index;      /* the printed index; -1 for the deep-sleep "S:" line */
	int64_t mhz;    /* clock in MHz (the LCLK on pp_dpm_pcie); -1 if none */
	int pcie_gts10; /* pp_dpm_pcie only: link rate in 0.1 GT/s, else 0 */
	int pcie_width; /* pp_dpm_pcie only: lanes, else 0 */
	bool active;    /* marked with '*' */
};

struct gt_amdgpu_dpm {
	struct gt_amdgpu_dpm_level lv[GT_AMDGPU_DPM_MAX];
	size_t count;
	size_t nactive; /* 0, 1 or more lines can carry the '*' */
};

/*
 * Parses a pp_dpm_sclk/mclk/socclk/fclk/vclk/dclk/pcie table of len bytes.
 * Accepts "Mhz" and "MHz", an optional ' ' before '*', trailing blanks,
 * the "S:" deep-sleep line and the RDNA2+ min/current/max form (where the
 * middle line is the current clock, not a level). Returns the number of
 * levels (0 for an empty table, as SI prints), or -EBADMSG when the text
 * has content but no line in the format.
 */
int gt_amdgpu_parse_dpm(const char *text, size_t len,
                        struct gt_amdgpu_dpm *out);

/* The current level: the last line marked '*' (several lines can be
 * marked, with equal or, briefly, different values); NULL if none is. */
const struct gt_amdgpu_dpm_level *
gt_amdgpu_dpm_active(const struct gt_amdgpu_dpm *d);

/* Highest clock of any line, -1 if the table has none. */
int64_t gt_amdgpu_dpm_max_mhz(const struct gt_amdgpu_dpm *d);

/* pp_dpm_pcie: the fastest link any level allows (rate, then width);
 * NULL if the table has no link levels. */
const struct gt_amdgpu_dpm_level *
gt_amdgpu_dpm_max_link(const struct gt_amdgpu_dpm *d);

/* PCIe generation of a link rate in 0.1 GT/s (25 -> 1, 160 -> 4, 320 -> 5);
 * 0 for a rate that is no PCIe generation. */
int gt_amdgpu_pcie_gen(int gts10);

/* Parses "16.0 GT/s PCIe" (current_link_speed) or "8.0GT/s" into 0.1 GT/s;
 * -EINVAL when it is not a rate ("Unknown", empty). */
int gt_amdgpu_parse_link_speed(const char *text, size_t len);

/* What pp_od_clk_voltage says about the clock ranges. */
struct gt_amdgpu_od {
	bool has_sclk; /* OD_SCLK: the allowed gfx clock range */
	int64_t sclk_min, sclk_max;
	bool has_mclk; /* OD_MCLK */
	int64_t mclk_min, mclk_max;
	bool has_sclk_offset; /* RDNA4: OD_SCLK_OFFSET (an offset, no range) */
	int64_t sclk_offset;
	bool has_sclk_range; /* OD_RANGE: SCLK: what may be set */
	int64_t sclk_range_min, sclk_range_max;
};

/* Parses pp_od_clk_voltage. Section headers may be preceded by runs of
 * blanks or NULs; units are matched case-insensitively; the Polaris/Vega
 * form (levels with voltages) gives the first and last level. Returns 0,
 * -ENODATA for an empty file (overdrive off), -EBADMSG when no known
 * section is found (the rx7700s capture holds just "r\n"). */
int gt_amdgpu_parse_od(const char *text, size_t len, struct gt_amdgpu_od *out);

#define GT_AMDGPU_PROFILE_NAME 32

/*
 * Finds the active profile in pp_power_profile_mode. The five layouts:
 * flat SMU7 ("NUM MODE_NAME ..." with "3D_FULL_SCREEN *:"), flat Vega10
 * ("BOOTUP_DEFAULT*:"), nested SMU11/13/14 ("PROFILE_INDEX(NAME) ..." then
 * " 5        COMPUTE*:"), rotated smu_v13_0_7 (one header row of
 * "<n> <NAME>" columns where the '*' follows the active name) and the APU
 * list (" 3          VIDEO*"). Copies the name into name[len] and returns
 * the profile's index; -ENOENT when no profile is marked active, -EBADMSG
 * when the text is in none of the layouts.
 */
int gt_amdgpu_parse_power_profile(const char *text, size_t len, char *name,
                                  size_t name_len);

/* Checks and copies power_dpm_force_performance_level ("auto", "manual",
 * "profile_peak", ...): one word of [a-z_]. Returns 0 or -EBADMSG. */
int gt_amdgpu_parse_perf_level(const char *text, size_t len, char *out,
                               size_t out_len);

#endif

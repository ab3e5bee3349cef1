/* SPDX-License-Identifier: MIT */
/*
 * profile.h - owns control profiles: named sets of power and fan settings
 * per GPU, kept in gputop.conf beside the dashboard's settings, as plain
 * structs, and the rules for reading them. It parses and matches only; it
 * writes nothing to any device and nothing to the file (config.c's save
 * copies profile sections through untouched).
 *
 * Syntax (the file's own: config.h; '#' comments, case-insensitive keys,
 * blanks around '=' optional, a value may be double-quoted):
 *
 *   [profile quiet-night]
 *   gpu = 0000:01:00.0       # the GPU the lines below apply to; "*" = any
 *   power_limit = 250W       # W or mW; "default" = the device's default
 *   fan = quiet              # auto | quiet | balanced | aggressive | points
 *   fan_hysteresis = 3C      # software loop: the fall needed to slow down
 *   fan_down_delay = 5s      # ... and for how long (s or ms)
 *   fans = all               # all | fan indices such as 0, 1
 *
 *   gpu = *                  # every other GPU
 *   perf_level = manual      # AMD power_dpm_force_performance_level
 *   power_profile = COMPUTE  # AMD pp_power_profile_mode: index 0..9 or name
 *   freq_min = 300MHz        # Intel frequency limits, MHz
 *   freq_max = 1800MHz
 *
 * A profile is a list of gpu blocks: each "gpu =" line starts one, and the
 * settings after it belong to it. The GPU is a PCI id in any form
 * gt_config_pci_normalize takes, or "*". A GPU that has a block of its own
 * takes nothing from the "*" block (no merging: what applies to a GPU is
 * one block, which can be read in one place). Every setting is optional;
 * one that is left out is not changed. Explicit fan curves are points
 * TEMP:SPEED, temperature in °C and speed in %, with optional units
 * ("40:30, 60:50" or "40C:30% 60°C:50%"), 2 to 8 of them, validated by
 * gt_fancurve_validate.
 *
 * Strict on purpose, since a profile changes hardware, often unattended:
 * units are required and case-sensitive (W, mW, MHz, C or °C, s, ms: "mW"
 * and "MW" are a factor 10^9 apart), and decimals finer than the unit the
 * device takes are refused rather than rounded. These are problems too:
 * an unknown key, a setting before the first "gpu =" line, a key given
 * twice in one block, a GPU given two blocks, an empty block or profile,
 * fan margins or fans without a fan line to apply to, freq_min above
 * freq_max, power_profile with a perf_level other than manual (the kernel
 * takes a profile only at manual), and a second profile of the same name.
 * Each problem names the line, the cause and the fix ("gputop.conf:14:
 * power_limit '250' has no unit; write it with W or mW, such as 250W"). A
 * profile with any problem is kept in the list but marked (nproblems,
 * problem) and must not be applied: half a profile is not what the user
 * asked for. Profile names are 1 to 63 characters of letters, digits, '.',
 * '_' and '-', not starting with '-' (a name is also a command-line
 * argument); they compare case-insensitively, as section names do.
 *
 * Ownership: gt_profile_load and gt_profile_reader_finish allocate the
 * list; the caller frees it with gt_profile_list_free. Everything the list
 * points to belongs to it; pointers into it (from gt_profile_find,
 * gt_profile_match) die with it.
 */
#ifndef GPUTOP_PROFILE_H
#define GPUTOP_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "control/fancurve.h"

#define GT_PROFILE_NAME_MAX   64 /* name, NUL included */
#define GT_PROFILE_GPU_MAX    32 /* "0000:01:00.0" or "*", NUL included */
#define GT_PROFILE_WORD_MAX   32 /* perf level, power profile name */
#define GT_PROFILE_MAX_BLOCKS 32 /* gpu blocks in one profile */
/* Profiles in one file: a machine has a handful; the bound keeps a hostile
 * or runaway file (60,000 headers fit in the 1 MiB cap) from costing
 * seconds and hundreds of MB at every start. Later sections are refused. */
#define GT_PROFILE_MAX_PROFILES 256
#define GT_PROFILE_PROBLEM_MAX  384 /* "FILE:LINE: why", NUL included */
#define GT_PROFILE_MAX_FANS     32  /* fan indices 0..31 (a bit each) */

/* Limits of what a line may say; the device's own range is checked when
 * the profile is applied (control/control.h). */
#define GT_PROFILE_POWER_MAX_MW      100000000u /* 100 kW */
#define GT_PROFILE_FREQ_MAX_MHZ      100000u
#define GT_PROFILE_HYSTERESIS_MAX_MC 30000           /* 30 °C */
#define GT_PROFILE_DOWN_DELAY_MAX_NS 600000000000ull /* 10 min */

/* The settings of a gpu block, in the order the keys are listed in
 * messages. */
enum gt_profile_key {
	GT_PK_POWER_LIMIT,
	GT_PK_PERF_LEVEL,
	GT_PK_POWER_PROFILE,
	GT_PK_FREQ_MIN,
	GT_PK_FREQ_MAX,
	GT_PK_FAN,
	GT_PK_FAN_HYSTERESIS,
	GT_PK_FAN_DOWN_DELAY,
	GT_PK_FANS,
	GT_PK__COUNT
};

enum gt_profile_fan {
	GT_PROFILE_FAN_AUTO,  /* hand the fans to the firmware/driver */
	GT_PROFILE_FAN_CURVE, /* a curve: preset or points */
};

/* One gpu block. A setting is given when its key_line is not 0; the
 * value fields of a setting not given mean nothing (they are 0 or "",
 * but for the loop margins, which hold the loop's defaults). */
struct gt_profile_entry {
	char gpu[GT_PROFILE_GPU_MAX]; /* "*" or canonical "0000:01:00.0" */
	int line;                     /* of its "gpu =" line */
	int key_line[GT_PK__COUNT];   /* the line that set each key; 0: not */

	bool power_default; /* power_limit = default */
	uint32_t power_mw;  /* else the limit in mW (AMD/Intel: x 1000 µW) */
	char perf_level[GT_PROFILE_WORD_MAX]; /* a kernel word, lower case */
	/* 0..9 when given as an index; -1 when given by name (matched
	 * case-insensitively against the card's own table when applied). */
	int power_profile;
	char power_profile_name[GT_PROFILE_WORD_MAX];
	uint32_t freq_min_mhz, freq_max_mhz;

	enum gt_profile_fan fan;
	int fan_preset;           /* enum gt_fan_preset; -1: explicit points */
	struct gt_fancurve curve; /* CURVE: valid (gt_fancurve_validate) */
	/* CURVE: the software loop's margins, gt_fanloop_config_default's
	 * when not given. An AMD firmware curve (RDNA3+) does not use them. */
	int32_t hysteresis_mc;
	uint64_t down_delay_ns;
	unsigned fan_mask; /* bit n = fan n; 0 = all fans (or not given) */
};

struct gt_profile {
	char name[GT_PROFILE_NAME_MAX];
	int line; /* of its [profile NAME] header */
	size_t nentries;
	struct gt_profile_entry entry[GT_PROFILE_MAX_BLOCKS];
	/* Problems in this profile (its lines, and a duplicate name): when
	 * not 0, it must not be applied; problem holds the first one as
	 * "FILE:LINE: why". */
	int nproblems;
	int problem_line;
	char problem[GT_PROFILE_PROBLEM_MAX];
};

struct gt_profile_list {
	char *path;  /* the file read (owned; NULL when not from a file) */
	bool exists; /* false: the file does not exist (then n is 0) */
	size_t n;
	struct gt_profile *v; /* n profiles in file order (owned) */
	/* Every problem in the file's profile sections, including those no
	 * profile holds (a header that is refused); problem: the first, by
	 * line, as "FILE:LINE: why". */
	int nproblems;
	int problem_line;
	char problem[GT_PROFILE_PROBLEM_MAX];
};

/*
 * Reads the profiles of path (NULL: gt_config_default_path) through the
 * settings loader, so the file is read by exactly the rules the dashboard
 * uses. 0 with *out allocated: the file was read or does not exist
 * (exists = false, no profiles). Problems in profiles are in the list, not
 * in the return value; problems in the dashboard's settings are ignored
 * here. -1 with err (*out = NULL): the file cannot be read, or no memory.
 */
int gt_profile_load(const char *path, struct gt_profile_list **out, char *err,
                    size_t errlen);

/* Frees the list and everything in it; NULL is fine. */
void gt_profile_list_free(struct gt_profile_list *l);

/* The profile of that name (case-insensitive), or NULL. A name given twice
 * finds the first, which is then marked with the problem. Check
 * nproblems before applying. */
const struct gt_profile *gt_profile_find(const struct gt_profile_list *l,
                                         const char *name);

/* The block for the GPU with this PCI id (any form gt_config_pci_normalize
 * takes, NVML's included): its own block if it has one, else the "*"
 * block, else NULL (the profile leaves that GPU alone). */
const struct gt_profile_entry *gt_profile_match(const struct gt_profile *p,
                                                const char *pci_bus_id);

/* "a, b, c": every profile's name in file order, into buf ("" when there
 * are none). Returns the length it needed, as snprintf does; a short buf
 * is cut, never overrun. */
size_t gt_profile_names(const struct gt_profile_list *l, char *buf, size_t len);

/* The message for a name gt_profile_find did not find, naming the file
 * and what it does hold: "no profile 'x'; profiles in FILE: a, b",
 * "no profile 'x': FILE has no [profile NAME] sections", or "no profile
 * 'x': FILE does not exist". */
void gt_profile_not_found(const struct gt_profile_list *l, const char *name,
                          char *buf, size_t len);

/* The key's name in the file ("power_limit", ...); "?" out of range. */
const char *gt_profile_key_name(enum gt_profile_key k);

/* ---- The reader: config.c feeds it the file's profile sections, line by
 * line, as its own classifier splits them, so that both agree on what a
 * line is. Other callers use gt_profile_load. */

/* Called for each problem: the line and the cause, without "FILE:LINE: "
 * (the caller adds it, as for its own problems). Problems found when a
 * block or profile ends may name an earlier line than one already
 * reported. */
typedef void (*gt_profile_report_fn)(void *ctx, int line, const char *why);

struct gt_profile_reader; /* opaque */

/* file: the name used in each profile's stored problem ("gputop.conf");
 * path: stored in the list (may be NULL). NULL when out of memory. */
struct gt_profile_reader *gt_profile_reader_new(const char *file,
                                                const char *path,
                                                gt_profile_report_fn report,
                                                void *ctx);

/* Every section header of the file, with its trimmed name ("profile
 * quiet-night", "dashboard"): ends the profile being read, if any.
 * Returns true when the section is a profile section (also a refused one:
 * "profile" followed by nothing or by a bad name), whose lines the caller
 * then hands to gt_profile_reader_line until the next header. */
bool gt_profile_reader_section(struct gt_profile_reader *r, const char *name,
                               int line);

/* One non-blank line of a profile section. A setting: key and value
 * (trimmed, unquoted), why NULL. A line that is not a setting, or whose
 * value is malformed: why says what is wrong (key may be NULL). */
void gt_profile_reader_line(struct gt_profile_reader *r, int line,
                            const char *key, const char *value,
                            const char *why);

/* Ends the last profile, frees the reader and returns the list (owned by
 * the caller), or NULL if memory ran out at any point (the problem was
 * reported). r may be NULL (then NULL). */
struct gt_profile_list *gt_profile_reader_finish(struct gt_profile_reader *r);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * profile_priv.h - shared by profile.c (the reader) and profile_values.c
 * (keys, values and units). Not for other modules: they use profile.h.
 */
#ifndef GPUTOP_PROFILE_PRIV_H
#define GPUTOP_PROFILE_PRIV_H

#include <stddef.h>

#include "config/profile.h"

#define ALL_KEYS                                                               \
	"gpu, power_limit, perf_level, power_profile, freq_min, freq_max, "    \
	"fan, fan_hysteresis, fan_down_delay, fans"

/* The key's index (enum gt_profile_key), case-insensitive; -1 if none. */
int gt_profile_find_key(const char *name);
/* Parses v for key k into e: 0, or -1 with why ("cause; fix"). */
int gt_profile_parse_setting(struct gt_profile_entry *e, enum gt_profile_key k,
                             const char *v, char *why, size_t wl);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * config_text.h - owns the two ways gputop.conf's text is shared by the
 * settings (config.c) and the profiles (profile.c): how a value is quoted
 * back in a message, and the one canonical spelling of a PCI id. Kept apart
 * from config.h so that the profile reader, which config.c feeds, needs
 * nothing of the settings loader.
 */
#ifndef GPUTOP_CONFIG_TEXT_H
#define GPUTOP_CONFIG_TEXT_H

#include <stddef.h>

/* v as messages show a value: escaped (no control byte reaches the
 * terminal) and cut to 40 bytes with "..."; returns buf. */
const char *gt_config_shown(const char *v, char *buf, size_t len);

/* Canonical lower-case "DDDD:BB:DD.F" (Linux's sysfs form; a domain over
 * 0xffff keeps its extra digits) for a PCI id given as "BB:DD.F",
 * "DDDD:BB:DD.F" or "DDDDDDDD:BB:DD.F", any case. Returns 0, or -1 when s is
 * not a PCI id or out is too small (out then holds ""); 17 bytes always do. */
int gt_config_pci_normalize(const char *s, char *out, size_t len);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * list.h - the human-readable `gputop --list` report: every backend with its
 * status and reason, then every device found, then every DRM device no
 * backend reads (radeon, nouveau, virtual GPUs, firmware framebuffers),
 * one line each: card, PCI address or location, vendor:device, driver and
 * why.
 */
#ifndef GPUTOP_LIST_H
#define GPUTOP_LIST_H

#include <stdio.h>

#include "core/collector.h"

void gt_list_print(FILE *out, const struct gt_collector *c,
                   const struct gt_devlist *devs);

/* One line per backend that found nothing and one per DRM device no
 * backend reads, for a "no GPU found" message. */
void gt_list_print_reasons(FILE *out, const struct gt_collector *c);

#endif

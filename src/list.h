/*
 * list.h - the human-readable `gputop --list` report: every backend with its
 * status and reason, then every device found.
 */
#ifndef GPUTOP_LIST_H
#define GPUTOP_LIST_H

#include <stdio.h>

#include "collector.h"

void gt_list_print(FILE *out, const struct gt_collector *c,
                   const struct gt_devlist *devs);

/* One line per backend that found nothing, for a "no GPU found" message. */
void gt_list_print_reasons(FILE *out, const struct gt_collector *c);

#endif

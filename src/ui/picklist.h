/* SPDX-License-Identifier: MIT */
/*
 * picklist.h - a pop-up list to pick one entry from (htop's F6 sort
 * column and u user lists): Up/Down/j/k, PgUp/PgDn, Home/End move, the
 * first letter of an entry jumps to it, Enter picks, Esc or q cancels.
 * The caller fills the entries and acts on the one picked.
 */
#ifndef GPUTOP_PICKLIST_H
#define GPUTOP_PICKLIST_H

#include <curses.h>
#include <stdbool.h>

#include "ui/palette.h"

#define GT_PICKLIST_MAX 64

struct gt_picklist {
	bool open;
	char title[48];
	char items[GT_PICKLIST_MAX][48];
	int n;
	int choice; /* the highlighted entry */
	int scroll; /* the first entry shown */
};

enum gt_picklist_result {
	GT_PICKLIST_NOT_OPEN, /* the key is someone else's */
	GT_PICKLIST_CONSUMED,
	GT_PICKLIST_PICKED, /* choice is the entry picked; the list closed */
	GT_PICKLIST_CANCELLED,
};

/* Opens an empty list titled title, with entry `choice` highlighted once
 * the entries are added (clamped then). */
void gt_picklist_open(struct gt_picklist *pl, const char *title, int choice);
/* Adds an entry (cut to fit); false when the list is full. */
bool gt_picklist_add(struct gt_picklist *pl, const char *text);
enum gt_picklist_result gt_picklist_key(struct gt_picklist *pl, int ch);
/* Draws the open list centred on w. */
void gt_picklist_draw(WINDOW *w, struct gt_picklist *pl,
                      const struct gt_palette *pal);

#endif

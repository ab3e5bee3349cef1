/* SPDX-License-Identifier: MIT */
/*
 * picklist.c - the pop-up list to pick one entry from (see picklist.h).
 */
#include "ui/picklist.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "ui/overlay.h"
#include "ui/paint.h"

enum { PAGE = 10 };

void gt_picklist_open(struct gt_picklist *pl, const char *title, int choice)
{
	memset(pl, 0, sizeof(*pl));
	pl->open = true;
	snprintf(pl->title, sizeof(pl->title), " %s ", title);
	pl->choice = choice;
}

bool gt_picklist_add(struct gt_picklist *pl, const char *text)
{
	if (pl->n == GT_PICKLIST_MAX)
		return false;
	snprintf(pl->items[pl->n++], sizeof(pl->items[0]), "%s", text);
	return true;
}

static void move_to(struct gt_picklist *pl, int to)
{
	pl->choice = to < 0 ? 0 : to >= pl->n ? pl->n - 1 : to;
}

/* The next entry after the highlighted one that starts with c. */
static void jump_letter(struct gt_picklist *pl, int c)
{
	for (int k = 1; k <= pl->n; k++) {
		int i = (pl->choice + k) % pl->n;
		if (tolower((unsigned char)pl->items[i][0]) == tolower(c)) {
			pl->choice = i;
			return;
		}
	}
}

enum gt_picklist_result gt_picklist_key(struct gt_picklist *pl, int ch)
{
	if (!pl->open)
		return GT_PICKLIST_NOT_OPEN;
	if (ch == KEY_RESIZE || ch == KEY_MOUSE)
		return GT_PICKLIST_NOT_OPEN;
	if (ch == 27 || ch == 'q') {
		pl->open = false;
		return GT_PICKLIST_CANCELLED;
	}
	if (pl->n == 0)
		return GT_PICKLIST_CONSUMED;
	if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		move_to(pl, pl->choice);
		pl->open = false;
		return GT_PICKLIST_PICKED;
	}
	if (ch == KEY_DOWN || ch == 'j')
		move_to(pl, pl->choice + 1);
	else if (ch == KEY_UP || ch == 'k')
		move_to(pl, pl->choice - 1);
	else if (ch == KEY_NPAGE)
		move_to(pl, pl->choice + PAGE);
	else if (ch == KEY_PPAGE)
		move_to(pl, pl->choice - PAGE);
	else if (ch == KEY_HOME)
		move_to(pl, 0);
	else if (ch == KEY_END)
		move_to(pl, pl->n - 1);
	else if (ch > 32 && ch < 127 && isalnum(ch))
		jump_letter(pl, ch);
	return GT_PICKLIST_CONSUMED;
}

void gt_picklist_draw(WINDOW *w, struct gt_picklist *pl,
                      const struct gt_palette *pal)
{
	int rows, cols, bw = gt_paint_cells(pl->title) + 4;

	if (!pl->open)
		return;
	getmaxyx(w, rows, cols);
	for (int i = 0; i < pl->n; i++)
		if (gt_paint_cells(pl->items[i]) + 6 > bw)
			bw = gt_paint_cells(pl->items[i]) + 6;
	int bh = pl->n + 2 < rows ? pl->n + 2 : rows;
	struct gt_rect in = gt_overlay_box(w, bw < cols ? bw : cols, bh,
	                                   pal->role[GT_ROLE_MAIN], pl->title);
	if (in.h <= 0)
		return;
	move_to(pl, pl->choice);
	if (pl->choice < pl->scroll)
		pl->scroll = pl->choice;
	if (pl->choice >= pl->scroll + in.h)
		pl->scroll = pl->choice - in.h + 1;
	for (int i = 0; i < in.h && pl->scroll + i < pl->n; i++) {
		int k = pl->scroll + i;
		char line[64];
		snprintf(line, sizeof(line), "%s %s",
		         k == pl->choice ? ">" : " ", pl->items[k]);
		gt_paint_put(w, in, i, 0,
		             k == pl->choice ? pal->role[GT_ROLE_SELECTED]
		                             : pal->role[GT_ROLE_MAIN],
		             line);
	}
}

/* SPDX-License-Identifier: MIT */
/*
 * control_dialog_priv.h - shared by the two halves of the control dialogs:
 * control_dialog.c (state, plan, keys) and control_dialog_draw.c (drawing).
 */
#ifndef GPUTOP_CONTROL_DIALOG_PRIV_H
#define GPUTOP_CONTROL_DIALOG_PRIV_H

#include <stdint.h>

#include "ui/control_dialog.h"

enum gt_control_dialog_field {
	F_PRESET,
	F_POWER,
	F_LEVEL,
	F_PROFILE,
	F_FMIN,
	F_FMAX,
	F_MODE,
	F_FAN_PRESET,
	F_POINT,
	F_HYST,
	F_DELAY,
	F_FANS,
	F__COUNT
};

/* The fields the dialog shows, in order, into out (F__COUNT entries);
 * returns how many. */
int gt_control_dialog_fields(const struct gt_control_dialog *d,
                             enum gt_control_dialog_field *out);
int64_t gt_control_dialog_clamp(int64_t v, int64_t lo, int64_t hi);

#endif

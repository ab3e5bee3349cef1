/* SPDX-License-Identifier: MIT */
/*
 * control_dialog.h - the power dialog (`p`) and the fan dialog (`f`): the
 * fields a user edits, the presets, the preview of the exact writes, the
 * confirmation and the revert countdown. A widget like the others: it
 * draws from the data it is given and turns keys into requests; the
 * dashboard carries the requests out through the control session.
 */
#ifndef GPUTOP_CONTROL_DIALOG_H
#define GPUTOP_CONTROL_DIALOG_H

#include <curses.h>
#include <stdbool.h>
#include <stdint.h>

#include "control/control_caps.h"
#include "control/control_session.h"
#include "ui/layout.h"
#include "core/model.h"
#include "ui/palette.h"

#define GT_CONTROL_DIALOG_MAX_CHANGES 4
#define GT_CONTROL_DIALOG_REVERT_NS   10000000000ull /* the 10 s countdown */

enum gt_control_dialog_kind { GT_CONTROL_DIALOG_POWER, GT_CONTROL_DIALOG_FAN };

enum gt_control_dialog_stage {
	GT_CONTROL_DIALOG_EDIT,      /* fields */
	GT_CONTROL_DIALOG_PREVIEW,   /* the exact writes; confirm or go back */
	GT_CONTROL_DIALOG_WAITING,   /* the writes (or the revert) are in
	                                flight: waiting for the driver */
	GT_CONTROL_DIALOG_COUNTDOWN, /* applied; reverts at the deadline unless
	                                kept */
	GT_CONTROL_DIALOG_DONE,      /* kept, reverted or failed: the outcome */
};

enum gt_power_preset {
	GT_POWER_MAX,
	GT_POWER_BALANCED,
	GT_POWER_SAVER,
	GT_POWER_CUSTOM,
	GT_POWER_AUTO,
	GT_POWER__COUNT
};

enum gt_control_dialog_request {
	GT_CONTROL_DIALOG_NOTHING,
	GT_CONTROL_DIALOG_CLOSE,
	GT_CONTROL_DIALOG_APPLY,  /* apply changes[0..nchanges) in order */
	GT_CONTROL_DIALOG_KEEP,   /* stop the countdown */
	GT_CONTROL_DIALOG_REVERT, /* apply reverts (see
	                             gt_control_dialog_revert_list) */
};

struct gt_control_dialog {
	bool open;
	enum gt_control_dialog_kind kind;
	enum gt_control_dialog_stage stage;
	size_t device;
	struct gt_control_caps caps;
	bool readonly;
	char readonly_why[GT_CAPS_WHY_MAX];
	int field;

	/* power */
	enum gt_power_preset preset;
	int64_t power; /* caps units */
	int level;     /* index into gt_control_dialog_levels */
	int profile;   /* index into caps.profiles */
	int64_t fmin, fmax;

	/* fan */
	bool fan_auto;
	int fan_preset; /* enum gt_fan_preset, or GT_FAN_PRESET_COUNT: custom */
	struct gt_fancurve curve;
	int point;
	int hysteresis_c;
	int delay_s;
	int fan_sel; /* -1: all fans */

	/* the plan */
	struct gt_control_change changes[GT_CONTROL_DIALOG_MAX_CHANGES];
	size_t nchanges;
	struct gt_control_change reverts[GT_CONTROL_DIALOG_MAX_CHANGES];
	bool revert_known[GT_CONTROL_DIALOG_MAX_CHANGES];
	char preview[2048];
	/* The last writes' outcomes: the changes', or after a revert the
	 * revert's (the changes' read-back is stale then). */
	struct gt_control_result results[GT_CONTROL_DIALOG_MAX_CHANGES];
	size_t nresults;
	bool results_reverted;
	uint64_t deadline_ns;
	/* WAITING: since when, until when at most, and whether for a
	 * revert. */
	uint64_t wait_since_ns, wait_until_ns;
	bool wait_revert;
	char msg[GT_CONTROL_RESULT_MAX + 320];
};

/* What the dialog shows beside its fields. */
struct gt_control_dialog_data {
	const struct gt_static *st;
	const struct gt_sample *smp;               /* newest, or NULL */
	const struct gt_control_loop_status *loop; /* fan dialog, or NULL */
	const struct gt_palette *pal;
	bool fahrenheit;
	uint64_t now_ns;
};

/* Opens the dialog for one device with its capabilities. readonly_why:
 * "" when changes can be made. */
void gt_control_dialog_open(struct gt_control_dialog *d,
                            enum gt_control_dialog_kind kind, size_t device,
                            const struct gt_control_caps *caps,
                            const char *readonly_why);
/* Sets the fields from a preset (power dialog). */
void gt_control_dialog_power_preset(struct gt_control_dialog *d,
                                    enum gt_power_preset p);
const char *gt_power_preset_name(enum gt_power_preset p);
/* Builds changes[] (only what differs from what is in force) and their
 * reverts, and the preview text. Returns nchanges. */
size_t gt_control_dialog_plan(struct gt_control_dialog *d);

enum gt_control_dialog_request
gt_control_dialog_key(struct gt_control_dialog *d, int ch, uint64_t now_ns);
/* Called every frame: GT_CONTROL_DIALOG_REVERT when the countdown has run out.
 */
enum gt_control_dialog_request
gt_control_dialog_poll(struct gt_control_dialog *d, uint64_t now_ns);

/* The dashboard reports what it did. */
void gt_control_dialog_applied(struct gt_control_dialog *d,
                               const struct gt_control_result *res, size_t n,
                               uint64_t now_ns);
void gt_control_dialog_reverted(struct gt_control_dialog *d,
                                const struct gt_control_result *res, size_t n,
                                bool by_timeout);
/* The writes (revert: the revert) are in flight until they come back or
 * until_ns: keys do nothing meanwhile but 'q', which the dashboard
 * takes as quit. */
void gt_control_dialog_waiting(struct gt_control_dialog *d, bool revert,
                               uint64_t now_ns, uint64_t until_ns);
/* The driver did not answer within timeout_s: what that means. */
void gt_control_dialog_no_answer(struct gt_control_dialog *d,
                                 unsigned timeout_s);

void gt_control_dialog_draw(WINDOW *w, const struct gt_control_dialog *d,
                            const struct gt_control_dialog_data *data);

#endif

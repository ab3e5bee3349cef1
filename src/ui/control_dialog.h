/*
 * ctldialog.h - the power dialog (`p`) and the fan dialog (`f`): the
 * fields a user edits, the presets, the preview of the exact writes, the
 * confirmation and the revert countdown. A widget like the others: it
 * draws from the data it is given and turns keys into requests; the
 * dashboard carries the requests out through the control session.
 */
#ifndef GPUTOP_CTLDIALOG_H
#define GPUTOP_CTLDIALOG_H

#include <curses.h>
#include <stdbool.h>
#include <stdint.h>

#include "control/control_caps.h"
#include "control/control_session.h"
#include "ui/layout.h"
#include "core/model.h"
#include "ui/palette.h"

#define GT_CTLDLG_MAX_CHANGES 4
#define GT_CTLDLG_REVERT_NS   10000000000ull /* the 10 s countdown */

enum gt_ctldlg_kind { GT_CTLDLG_POWER, GT_CTLDLG_FAN };

enum gt_ctldlg_stage {
	GT_CTLDLG_EDIT,      /* fields */
	GT_CTLDLG_PREVIEW,   /* the exact writes; confirm or go back */
	GT_CTLDLG_COUNTDOWN, /* applied; reverts at the deadline unless kept */
	GT_CTLDLG_DONE,      /* kept, reverted or failed: the outcome */
};

enum gt_power_preset {
	GT_POWER_MAX,
	GT_POWER_BALANCED,
	GT_POWER_SAVER,
	GT_POWER_CUSTOM,
	GT_POWER_AUTO,
	GT_POWER__COUNT
};

enum gt_ctldlg_request {
	GT_CTLDLG_NOTHING,
	GT_CTLDLG_CLOSE,
	GT_CTLDLG_APPLY,  /* apply changes[0..nchanges) in order */
	GT_CTLDLG_KEEP,   /* stop the countdown */
	GT_CTLDLG_REVERT, /* apply reverts (see gt_ctldlg_revert_list) */
};

struct gt_ctldlg {
	bool open;
	enum gt_ctldlg_kind kind;
	enum gt_ctldlg_stage stage;
	size_t device;
	struct gt_ctl_caps caps;
	bool readonly;
	char readonly_why[GT_CAPS_WHY_MAX];
	int field;

	/* power */
	enum gt_power_preset preset;
	int64_t power; /* caps units */
	int level;     /* index into gt_ctldlg_levels */
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
	struct gt_ctl_change changes[GT_CTLDLG_MAX_CHANGES];
	size_t nchanges;
	struct gt_ctl_change reverts[GT_CTLDLG_MAX_CHANGES];
	bool revert_known[GT_CTLDLG_MAX_CHANGES];
	char preview[2048];
	struct gt_ctl_result results[GT_CTLDLG_MAX_CHANGES];
	size_t nresults;
	uint64_t deadline_ns;
	char msg[GT_CTL_RESULT_MAX + 64];
};

/* What the dialog shows beside its fields. */
struct gt_ctldlg_data {
	const struct gt_static *st;
	const struct gt_sample *smp;           /* newest, or NULL */
	const struct gt_ctl_loop_status *loop; /* fan dialog, or NULL */
	const struct gt_palette *pal;
	bool fahrenheit;
	uint64_t now_ns;
};

/* Opens the dialog for one device with its capabilities. readonly_why:
 * "" when changes can be made. */
void gt_ctldlg_open(struct gt_ctldlg *d, enum gt_ctldlg_kind kind,
                    size_t device, const struct gt_ctl_caps *caps,
                    const char *readonly_why);
/* Sets the fields from a preset (power dialog). */
void gt_ctldlg_power_preset(struct gt_ctldlg *d, enum gt_power_preset p);
const char *gt_power_preset_name(enum gt_power_preset p);
/* Builds changes[] (only what differs from what is in force) and their
 * reverts, and the preview text. Returns nchanges. */
size_t gt_ctldlg_plan(struct gt_ctldlg *d);

enum gt_ctldlg_request gt_ctldlg_key(struct gt_ctldlg *d, int ch,
                                     uint64_t now_ns);
/* Called every frame: GT_CTLDLG_REVERT when the countdown has run out. */
enum gt_ctldlg_request gt_ctldlg_poll(struct gt_ctldlg *d, uint64_t now_ns);

/* The dashboard reports what it did. */
void gt_ctldlg_applied(struct gt_ctldlg *d, const struct gt_ctl_result *res,
                       size_t n, uint64_t now_ns);
void gt_ctldlg_reverted(struct gt_ctldlg *d, const struct gt_ctl_result *res,
                        size_t n, bool by_timeout);

void gt_ctldlg_draw(WINDOW *w, const struct gt_ctldlg *d,
                    const struct gt_ctldlg_data *data);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * fancurve.h - the software fan curve: the curve itself (points, validation,
 * presets, interpolation) and the loop's decision logic, as a pure state
 * machine. It reads no sensor and writes no fan: each step takes one
 * temperature reading and a time, and says what the caller should do
 * (hand the fan back to the firmware, write a speed, or write nothing).
 * The NVIDIA loop (nvmlDeviceSetFanSpeed_v2) and the AMD pre-RDNA3 loop
 * (pwm1) both drive their writes from it, so the safety rules live in one
 * place and are tested against recorded temperature traces.
 *
 * Units follow model.h: temperatures in m°C, speeds in cpercent
 * (hundredths of a percent, 10000 = 100 %).
 */
#ifndef GPUTOP_FANCURVE_H
#define GPUTOP_FANCURVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GT_FANCURVE_MIN_POINTS  2
#define GT_FANCURVE_MAX_POINTS  8
#define GT_FANCURVE_TEMP_MAX_MC 120000 /* curve points lie in 0..120 °C */
#define GT_CPERCENT_FULL        10000  /* 100 % */

/* A reading that could not be taken (sensor missing, driver error). */
#define GT_FAN_TEMP_INVALID INT64_MIN
/* Readings outside this range are treated as a failed sensor: no GPU runs
 * there, and a driver that returns such a value is not to be trusted. */
#define GT_FAN_TEMP_PLAUSIBLE_MIN_MC (-40000)
#define GT_FAN_TEMP_PLAUSIBLE_MAX_MC 150000

struct gt_fan_point {
	int32_t temp_mc;  /* m°C */
	int32_t cpercent; /* fan speed at that temperature */
};

struct gt_fancurve {
	unsigned n; /* points used, GT_FANCURVE_MIN_POINTS..MAX_POINTS */
	struct gt_fan_point pt[GT_FANCURVE_MAX_POINTS];
};

/* 0 if the curve can be used: 2..8 points, temperatures strictly increasing
 * within 0..120 °C, speeds non-decreasing within 0..100 %. Otherwise -1,
 * with a message naming the offending point (numbered from 1) in err. The
 * device's own min..max speed is not checked here: the loop clamps to it. */
int gt_fancurve_validate(const struct gt_fancurve *c, char *err, size_t len);

/*
 * Presets. Five points each, so that the same preset can also be written
 * as the RDNA3/RDNA4 firmware curve (gpu_od/fan_ctrl/fan_curve has exactly
 * five points):
 *
 *   quiet       50 °C 30 %   60 °C 35 %   70 °C 50 %   80 °C 75 %   87 °C 100 %
 *   balanced    40 °C 30 %   50 °C 40 %   60 °C 50 %   70 °C 70 %   80 °C 100 %
 *   aggressive  35 °C 40 %   45 °C 50 %   55 °C 65 %   65 °C 85 %   75 °C 100 %
 *
 * Below the first point the loop hands the fan back to the firmware (which
 * may stop it: zero-RPM idle), so the first point is also where gputop
 * starts to drive the fan.
 */
enum gt_fan_preset {
	GT_FAN_PRESET_QUIET,
	GT_FAN_PRESET_BALANCED,
	GT_FAN_PRESET_AGGRESSIVE,
	GT_FAN_PRESET_COUNT,
};

/* Fills out with the preset's points; -1 for an unknown preset. */
int gt_fancurve_preset(enum gt_fan_preset p, struct gt_fancurve *out);
/* "quiet", "balanced", "aggressive"; NULL for an unknown preset. */
const char *gt_fan_preset_name(enum gt_fan_preset p);
/* Name (as above, case-insensitive) to preset; -1 if unknown. */
int gt_fan_preset_parse(const char *name, enum gt_fan_preset *out);

/* The curve's speed at temp_mc by linear interpolation between the two
 * neighbouring points, rounded to the nearest cpercent; the last point's
 * speed above the last point. Below the first point it returns -1: the
 * curve says nothing there (the loop hands back to the firmware). The curve
 * must be valid. */
int32_t gt_fancurve_eval(const struct gt_fancurve *c, int64_t temp_mc);

/* ------------------------------------------------------------------ */
/* The loop                                                             */
/* ------------------------------------------------------------------ */

struct gt_fanloop_config {
	int32_t min_cpercent; /* device's settable range (NVIDIA: */
	int32_t max_cpercent; /* nvmlDeviceGetMinMaxFanSpeed, often 30..100) */
	int64_t panic_mc;     /* slowdown threshold: at or above, AUTO */
	uint64_t down_delay_ns;   /* a lower speed must be wanted this long */
	int32_t hysteresis_mc;    /* ... and the temperature must have fallen
	                           * by more than this below the one that set
	                           * the current speed */
	int32_t quantum_cpercent; /* speeds are rounded to this step */
};

/* Defaults: 0..100 %, panic at 95 °C (a conservative stand-in for a device
 * that reports no slowdown threshold; set the device's own when known),
 * down after 5 s and 3 °C (LACT's spin-down delay, GWE's margin), whole
 * percent steps (NVML takes an integer percent; finer steps would only
 * cause writes the device cannot see). */
void gt_fanloop_config_default(struct gt_fanloop_config *cfg);

/* What gputop believes the fan is doing. */
enum gt_fan_mode {
	GT_FAN_MODE_UNKNOWN, /* at start, or after a failed write */
	GT_FAN_MODE_AUTO,    /* handed back to the firmware/driver */
	GT_FAN_MODE_MANUAL,  /* running at the speed gputop last wrote */
};

struct gt_fanloop {
	struct gt_fanloop_config cfg;
	enum gt_fan_mode mode;
	int32_t applied_cpercent; /* MANUAL: the speed last written */
	int64_t applied_temp_mc;  /* MANUAL: the temperature that set it */
	bool low;                 /* a lower speed has been wanted ... */
	uint64_t low_since_ns;    /* ... since then */
	bool panic_latched;       /* AUTO because of the slowdown threshold */
};

/* Checks cfg (min <= max within 0..100 %, panic threshold in 1..150 °C,
 * non-negative hysteresis, quantum 1..10000) and starts the loop in mode
 * UNKNOWN, so that its first decision always writes (AUTO or SET): a fan
 * left in manual mode by someone else is never trusted to be in auto.
 * -1 with a message in err if cfg is refused. */
int gt_fanloop_init(struct gt_fanloop *l, const struct gt_fanloop_config *cfg,
                    char *err, size_t len);

enum gt_fan_action {
	GT_FAN_KEEP, /* write nothing */
	GT_FAN_SET,  /* write cpercent (already clamped to min..max) */
	GT_FAN_AUTO, /* hand control back to the firmware/driver */
};

enum gt_fan_reason {
	GT_FAN_R_START,      /* SET: taking control from AUTO/UNKNOWN */
	GT_FAN_R_UP,         /* SET: hotter, raised at once */
	GT_FAN_R_DOWN,       /* SET: cooler for long enough, lowered */
	GT_FAN_R_UNCHANGED,  /* KEEP: the curve wants the current speed */
	GT_FAN_R_HYSTERESIS, /* KEEP: cooler, but not by more than the margin */
	GT_FAN_R_DELAY,      /* KEEP: cooler, waiting for the down delay */
	GT_FAN_R_BELOW_CURVE, /* AUTO (or KEEP while in auto): below point 1 */
	GT_FAN_R_PANIC_THRESHOLD, /* AUTO/KEEP: at the slowdown threshold */
	GT_FAN_R_SENSOR_FAILED,   /* AUTO/KEEP: no valid temperature */
	GT_FAN_R_BAD_CURVE,       /* AUTO/KEEP: the curve is not valid */
	GT_FAN_R_COUNT,
};

struct gt_fan_decision {
	enum gt_fan_action action;
	enum gt_fan_reason reason;
	/* SET: the speed to write. KEEP in manual mode: the speed in force.
	 * -1 when the fan is (to be) under firmware control. */
	int32_t cpercent;
	/* The curve's clamped, rounded speed at this temperature; -1 below
	 * the curve or without a valid reading. For display. */
	int32_t target_cpercent;
};

/*
 * One tick: given the curve, this tick's temperature (GT_FAN_TEMP_INVALID
 * when the read failed) and the monotonic time, decides and updates the
 * loop as if the decision were carried out. Rules, in order:
 *  1. invalid curve, failed/implausible reading, or a temperature at or
 *     above panic_mc: AUTO at once (KEEP if already auto). After a panic
 *     the curve resumes only once the temperature is below
 *     panic_mc - hysteresis_mc.
 *  2. not in manual mode: below the first point, AUTO (KEEP if already
 *     auto); otherwise SET the target (START).
 *  3. target above the speed in force: SET at once (UP).
 *  4. target equal: KEEP (UNCHANGED).
 *  5. target lower (or below the curve): only when the temperature has
 *     been more than hysteresis_mc below the one that set the current
 *     speed, continuously for down_delay_ns, SET the target (DOWN) or, below
 *     the curve, AUTO (BELOW_CURVE). Until then KEEP (HYSTERESIS/DELAY).
 */
void gt_fanloop_step(struct gt_fanloop *l, const struct gt_fancurve *c,
                     int64_t temp_mc, uint64_t now_ns,
                     struct gt_fan_decision *out);

/* The caller could not carry out the last SET or AUTO: the fan's state is
 * unknown again, so the next step decides afresh and writes. */
void gt_fanloop_write_failed(struct gt_fanloop *l);

/* Short names for logs and tests ("keep", "set", "auto"; "below_curve",
 * ...). "?" for values out of range. */
const char *gt_fan_action_name(enum gt_fan_action a);
const char *gt_fan_reason_name(enum gt_fan_reason r);

#endif

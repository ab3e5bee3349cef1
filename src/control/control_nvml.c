/* SPDX-License-Identifier: MIT */
/*
 * control_nvml.c - the NVIDIA writes (see control_nvml.h): the power
 * limit and the fans through NVML's setters, their restore, the NVIDIA
 * part of what the control dialogs may offer (control_caps.h), asked of
 * NVML's getters, and the vendor's ops (control_vendor.h). Every value is
 * bounded by the device's own answers
 * (nvmlDeviceGetPowerManagementLimitConstraints, nvmlDeviceGetNumFans,
 * nvmlDeviceGetMinMaxFanSpeed) before any setter is called, and without
 * root no setter is called at all: NVML would only answer NO_PERMISSION.
 */
#include "control/control_nvml.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "collectors/nvml_api.h"
#include "control/control_caps.h"
#include "control/control_priv.h"
#include "control/control_vendor.h"

struct nv {
	const struct gt_nvml_api *api;
	nvmlDevice_t h;
	char id[GT_RESTORE_DEV_MAX]; /* "0000:01:00.0", as Linux names it */
};

static const char *nv_text(const struct gt_nvml_api *api, nvmlReturn_t rc)
{
	const char *s = api->error_string ? api->error_string(rc) : NULL;

	return s ? s : "unknown NVML error";
}

/* What to do about a setter's failure. */
static const char *nv_hint(nvmlReturn_t rc)
{
	switch (rc) {
	case NVML_ERROR_NO_PERMISSION:
		/* Only a privileged gputop gets this far (an unprivileged one
		 * is refused before the call), so root is not the answer. */
		return ": the driver refuses it even to root (in a container, "
		       "grant CAP_SYS_ADMIN; otherwise the GPU's or the "
		       "driver's policy does not allow the change)";
	case NVML_ERROR_NOT_SUPPORTED:
		return ": this GPU or driver does not allow it";
	case NVML_ERROR_INVALID_ARGUMENT:
		return ": the driver refused the value";
	default:
		return ": check dmesg and nvidia-smi";
	}
}

/* Whether a setter's error certainly left the setting as it was: the
 * call was refused before it acted. Anything else (an unknown error, a
 * lost GPU, a timeout) may have half happened, so its original stays
 * journaled for the restore. */
static bool nv_unchanged(nvmlReturn_t rc)
{
	return rc == NVML_ERROR_NO_PERMISSION ||
	       rc == NVML_ERROR_NOT_SUPPORTED ||
	       rc == NVML_ERROR_INVALID_ARGUMENT ||
	       rc == NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
}

/* For the restore, which reports an errno. */
static int nv_errno(nvmlReturn_t rc)
{
	switch (rc) {
	case NVML_SUCCESS:
		return 0;
	case NVML_ERROR_NO_PERMISSION:
		return -EPERM;
	case NVML_ERROR_INVALID_ARGUMENT:
		return -EINVAL;
	case NVML_ERROR_NOT_SUPPORTED:
		return -EOPNOTSUPP;
	case NVML_ERROR_GPU_IS_LOST:
	case NVML_ERROR_GPU_NOT_FOUND:
		return -ENODEV;
	default:
		return -EIO;
	}
}

/* The device at pci_id ("0000:01:00.0" or "00000000:01:00.0"), found by
 * enumeration so that either spelling matches whatever NVML prints. */
static int nv_find(const struct gt_control *c, const char *pci_id, struct nv *d,
                   char *err, size_t len)
{
	unsigned dom, bus, dev, fn, n = 0;
	int used = -1;

	d->api = gt_control_nvml_api(c);
	if (!d->api)
		return gt_control_refuse(err, len,
		                         "no NVIDIA library is loaded, so "
		                         "NVIDIA settings cannot be changed");
	if (!pci_id ||
	    strspn(pci_id, "0123456789abcdefABCDEF:.") != strlen(pci_id) ||
	    sscanf(pci_id, "%x:%x:%x.%x%n", &dom, &bus, &dev, &fn, &used) !=
	        4 ||
	    used < 0 || pci_id[used] || fn != 0)
		return gt_control_refuse(err, len,
		                         "\"%s\" is not a GPU's PCI address "
		                         "(like 0000:01:00.0)",
		                         pci_id ? pci_id : "(null)");
	if (d->api->count(&n) != NVML_SUCCESS)
		n = 0;
	for (unsigned i = 0; i < n; i++) {
		nvmlPciInfo_t pci;
		nvmlReturn_t rc = NVML_ERROR_FUNCTION_NOT_FOUND;

		memset(&pci, 0, sizeof(pci));
		if (d->api->handle_by_index(i, &d->h) != NVML_SUCCESS)
			continue;
		if (d->api->pci_info)
			rc = d->api->pci_info(d->h, &pci);
		else if (d->api->pci_info_v1)
			rc = d->api->pci_info_v1(d->h, &pci);
		if (rc == NVML_SUCCESS && pci.domain == dom && pci.bus == bus &&
		    pci.device == dev) {
			gt_nvml_bus_id(d->id, sizeof(d->id), &pci);
			return 0;
		}
	}
	return gt_control_refuse(err, len, "no NVIDIA GPU at %s", pci_id);
}

/* Fan `fan` exists and can be driven; its settable range in lo..hi. */
static int nv_fan(const struct nv *d, unsigned fan, unsigned *lo, unsigned *hi,
                  char *err, size_t len)
{
	unsigned n = 0;

	if (!d->api->num_fans || d->api->num_fans(d->h, &n) != NVML_SUCCESS ||
	    n == 0)
		return gt_control_refuse(err, len,
		                         "this GPU has no fans gputop can "
		                         "control (passively cooled, or a "
		                         "laptop whose fans belong to its "
		                         "embedded controller)");
	if (fan >= n)
		return gt_control_refuse(
		    err, len,
		    "fan %u does not exist: this GPU has %u "
		    "fan controller%s (0-%u)",
		    fan, n, n == 1 ? "" : "s", n - 1);
	if (!d->api->set_fan_speed || !d->api->set_default_fan_speed)
		return gt_control_refuse(err, len,
		                         "this NVIDIA driver cannot set fan "
		                         "speeds (NVML fan control needs R515 "
		                         "or newer)");
	if (lo &&
	    (!d->api->fan_min_max ||
	     d->api->fan_min_max(d->h, lo, hi) != NVML_SUCCESS || *lo > *hi))
		return gt_control_refuse(err, len,
		                         "this GPU does not report its fan "
		                         "speed range, so no speed can be "
		                         "checked against it");
	return 0;
}

static void fan_now(const struct nv *d, unsigned fan, char *buf, size_t len)
{
	unsigned v;

	if (d->api->fan_speed_v2 &&
	    d->api->fan_speed_v2(d->h, fan, &v) == NVML_SUCCESS)
		snprintf(buf, len, "%u", v);
	else
		snprintf(buf, len, "?");
}

/* v2 with its struct version; v1 where the library lacks v2 or does not
 * know that version. */
static nvmlReturn_t set_limit(const struct nv *d, unsigned mw)
{
	nvmlPowerValue_v2_t v = {.version = GT_NVML_POWER_VALUE_V2_VERSION,
	                         .powerScope = NVML_POWER_SCOPE_GPU,
	                         .powerValueMw = mw};
	nvmlReturn_t rc = NVML_ERROR_FUNCTION_NOT_FOUND;

	if (d->api->set_power_limit_v2)
		rc = d->api->set_power_limit_v2(d->h, &v);
	if ((rc == NVML_ERROR_FUNCTION_NOT_FOUND ||
	     rc == NVML_ERROR_ARGUMENT_VERSION_MISMATCH) &&
	    d->api->set_power_limit)
		rc = d->api->set_power_limit(d->h, mw);
	return rc;
}

static void audit(struct gt_control *c, const char *kind, const struct nv *d,
                  const char *setting, const char *old, const char *value,
                  nvmlReturn_t rc)
{
	char res[160] = "ok";

	if (rc != NVML_SUCCESS)
		snprintf(res, sizeof(res), "failed: %s", nv_text(d->api, rc));
	gt_control_audit(c, kind, d->id, setting, old, value, res);
}

/* The device, its range, and the limit now; for a setter and a restore. */
static int limit_check(const struct nv *d, unsigned mw, unsigned *cur,
                       char *err, size_t len)
{
	unsigned lo = 0, hi = 0;

	if (!d->api->power_range ||
	    d->api->power_range(d->h, &lo, &hi) != NVML_SUCCESS || lo > hi)
		return gt_control_refuse(err, len,
		                         "this GPU does not report its power "
		                         "limit range, so no limit can be "
		                         "checked against it");
	if (mw < lo || mw > hi)
		return gt_control_refuse(err, len,
		                         "power limit %u mW is outside this "
		                         "GPU's range %u-%u mW",
		                         mw, lo, hi);
	if (!d->api->power_limit ||
	    d->api->power_limit(d->h, cur) != NVML_SUCCESS)
		return gt_control_refuse(err, len,
		                         "cannot read the current power limit: "
		                         "it could not be restored");
	if (!d->api->set_power_limit_v2 && !d->api->set_power_limit)
		return gt_control_refuse(
		    err, len,
		    "this NVIDIA driver has no power-limit "
		    "setter");
	return 0;
}

int gt_control_nvml_power_limit(struct gt_control *c, const char *pci_id,
                                unsigned mw, unsigned *applied_mw, char *err,
                                size_t len)
{
	struct gt_restore_action a;
	char old[16], val[16];
	unsigned cur = 0, got = 0;
	nvmlReturn_t rc;
	struct nv d;

	if (applied_mw)
		*applied_mw = GT_CONTROL_UNREAD;
	if (err && len)
		err[0] = '\0';
	if (!gt_control_privileged(c))
		return gt_control_refuse_unprivileged(
		    c, "setting a power limit", err, len);
	if (nv_find(c, pci_id, &d, err, len) ||
	    limit_check(&d, mw, &cur, err, len))
		return GT_CONTROL_REFUSED;
	if (cur != mw) {
		if (gt_restore_action_power_limit(&a, d.id, cur,
		                                  gt_control_now(c)) ||
		    gt_control_prepare(c, &a, 1, err, len))
			return GT_CONTROL_REFUSED;
		rc = set_limit(&d, mw);
		snprintf(old, sizeof(old), "%u", cur);
		snprintf(val, sizeof(val), "%u", mw);
		audit(c, "write", &d, "power-limit-mw", old, val, rc);
		if (rc != NVML_SUCCESS) {
			snprintf(err, len, "NVML refused the power limit: %s%s",
			         nv_text(d.api, rc), nv_hint(rc));
			if (nv_unchanged(rc))
				gt_control_withdraw(c);
			return GT_CONTROL_FAILED;
		}
		/* A revert to the original: nothing left to restore. */
		if (gt_restore_action_power_limit(&a, d.id, mw, 0) == 0)
			gt_control_settle(c, &a);
	}
	/* The enforced limit is what the GPU obeys (an out-of-band cap can
	 * hold it below the requested one); the requested one otherwise. */
	rc = NVML_ERROR_FUNCTION_NOT_FOUND;
	if (d.api->power_enforced)
		rc = d.api->power_enforced(d.h, &got);
	if (rc != NVML_SUCCESS && d.api->power_limit)
		rc = d.api->power_limit(d.h, &got);
	if (rc != NVML_SUCCESS)
		snprintf(err, len,
		         "written, but reading the limit back "
		         "failed: %s",
		         nv_text(d.api, rc));
	else if (applied_mw)
		*applied_mw = got;
	return GT_CONTROL_OK;
}

int gt_control_nvml_fan_speed(struct gt_control *c, const char *pci_id,
                              unsigned fan, unsigned percent,
                              unsigned *applied_percent, char *err, size_t len)
{
	struct gt_restore_action a;
	char old[16], val[16], setting[32];
	unsigned lo = 0, hi = 0, got = 0;
	nvmlReturn_t rc;
	struct nv d;

	if (applied_percent)
		*applied_percent = GT_CONTROL_UNREAD;
	if (err && len)
		err[0] = '\0';
	if (!gt_control_privileged(c))
		return gt_control_refuse_unprivileged(c, "setting a fan speed",
		                                      err, len);
	if (nv_find(c, pci_id, &d, err, len) ||
	    nv_fan(&d, fan, &lo, &hi, err, len))
		return GT_CONTROL_REFUSED;
	if (percent < lo || percent > hi)
		return gt_control_refuse(
		    err, len,
		    "fan speed %u %% is outside this GPU's "
		    "range %u-%u %% (below it, hand the "
		    "fan back to automatic)",
		    percent, lo, hi);
	/* Written even when the speed reads the same: the fan may be in
	 * automatic mode at that speed, and the caller wants it held. */
	if (gt_restore_action_fan_auto(&a, d.id, fan, gt_control_now(c)) ||
	    gt_control_prepare(c, &a, 1, err, len))
		return GT_CONTROL_REFUSED;
	fan_now(&d, fan, old, sizeof(old));
	rc = d.api->set_fan_speed(d.h, fan, percent);
	snprintf(setting, sizeof(setting), "fan%u-speed", fan);
	snprintf(val, sizeof(val), "%u", percent);
	audit(c, "write", &d, setting, old, val, rc);
	if (rc != NVML_SUCCESS) {
		snprintf(err, len, "NVML refused the fan speed: %s%s",
		         nv_text(d.api, rc), nv_hint(rc));
		if (nv_unchanged(rc))
			gt_control_withdraw(c);
		return GT_CONTROL_FAILED;
	}
	if (!d.api->fan_speed_v2 ||
	    (rc = d.api->fan_speed_v2(d.h, fan, &got)) != NVML_SUCCESS)
		snprintf(err, len,
		         "written, but reading the fan speed back "
		         "failed");
	else if (applied_percent)
		*applied_percent = got;
	return GT_CONTROL_OK;
}

int gt_control_nvml_fan_auto(struct gt_control *c, const char *pci_id,
                             unsigned fan, char *err, size_t len)
{
	struct gt_restore_action a;
	char old[16], setting[32];
	nvmlReturn_t rc;
	struct nv d;

	if (err && len)
		err[0] = '\0';
	if (!gt_control_privileged(c))
		return gt_control_refuse_unprivileged(
		    c, "handing a fan back to automatic", err, len);
	if (nv_find(c, pci_id, &d, err, len) ||
	    nv_fan(&d, fan, NULL, NULL, err, len))
		return GT_CONTROL_REFUSED;
	if (gt_restore_action_fan_auto(&a, d.id, fan, gt_control_now(c)) ||
	    gt_control_prepare(c, &a, 1, err, len))
		return GT_CONTROL_REFUSED;
	fan_now(&d, fan, old, sizeof(old));
	rc = d.api->set_default_fan_speed(d.h, fan);
	snprintf(setting, sizeof(setting), "fan%u-speed", fan);
	audit(c, "write", &d, setting, old, "auto", rc);
	if (rc != NVML_SUCCESS) {
		snprintf(err, len, "NVML refused to hand the fan back: %s%s",
		         nv_text(d.api, rc), nv_hint(rc));
		if (nv_unchanged(rc))
			gt_control_withdraw(c);
		return GT_CONTROL_FAILED;
	}
	gt_control_settle(c, &a); /* automatic is the original */
	return GT_CONTROL_OK;
}

/* ------------------------------------------------------------------ */
/* Restore: the same checks, audited as "restore"                       */
/* ------------------------------------------------------------------ */

static int restore_refused(struct gt_control *c, const char *dev,
                           const char *setting, const char *value,
                           const char *why)
{
	char res[300];

	snprintf(res, sizeof(res), "refused: %s", why);
	gt_control_audit(c, "restore", dev, setting, "", value, res);
	return -EPERM;
}

static int restore_fan_auto(struct gt_control *c, const char *dev, unsigned fan)
{
	char why[256], old[16], setting[32];
	nvmlReturn_t rc;
	struct nv d;

	snprintf(setting, sizeof(setting), "fan%u-speed", fan);
	if (nv_find(c, dev, &d, why, sizeof(why)) ||
	    nv_fan(&d, fan, NULL, NULL, why, sizeof(why)))
		return restore_refused(c, dev, setting, "auto", why);
	fan_now(&d, fan, old, sizeof(old));
	rc = d.api->set_default_fan_speed(d.h, fan);
	audit(c, "restore", &d, setting, old, "auto", rc);
	return nv_errno(rc);
}

static int restore_power_limit(struct gt_control *c, const char *dev,
                               uint32_t mw)
{
	char why[256], old[16], val[16];
	unsigned cur = 0;
	nvmlReturn_t rc;
	struct nv d;

	snprintf(val, sizeof(val), "%u", (unsigned)mw);
	if (nv_find(c, dev, &d, why, sizeof(why)) ||
	    limit_check(&d, mw, &cur, why, sizeof(why)))
		return restore_refused(c, dev, "power-limit-mw", val, why);
	snprintf(old, sizeof(old), "%u", cur);
	rc = set_limit(&d, mw);
	audit(c, "restore", &d, "power-limit-mw", old, val, rc);
	return nv_errno(rc);
}

/* ------------------------------------------------------------------ */
/* What the control dialogs may offer (control_caps.h), and the ops     */
/* ------------------------------------------------------------------ */

/* NVML's handle of the GPU whose bus id, as Linux spells it, is bus. */
static bool nv_handle(const struct gt_nvml_api *api, const char *bus,
                      nvmlDevice_t *h)
{
	char id[GT_RESTORE_DEV_MAX];
	unsigned n = 0;

	if (api->count(&n) != NVML_SUCCESS)
		return false;
	for (unsigned i = 0; i < n; i++) {
		nvmlPciInfo_t pci = {0};
		nvmlReturn_t rc = api->handle_by_index(i, h);
		if (rc == NVML_SUCCESS)
			rc = api->pci_info      ? api->pci_info(*h, &pci)
			     : api->pci_info_v1 ? api->pci_info_v1(*h, &pci)
			                        : NVML_ERROR_FUNCTION_NOT_FOUND;
		gt_nvml_bus_id(id, sizeof(id), &pci);
		if (rc == NVML_SUCCESS && strcasecmp(id, bus) == 0)
			return true;
	}
	return false;
}

/* The power limit and fans, as gt_control_nvml_power_limit and
 * gt_control_nvml_fan_speed check them: the ops' caps, for the GPU at
 * pci_id. 0, or -1 with caps->why. */
static int caps_read(struct gt_control *c, const char *pci_id,
                     struct gt_control_caps *caps)
{
	const struct gt_nvml_api *api = gt_control_nvml_api(c);
	struct gt_control_range *p = &caps->power;
	unsigned lo = 0, hi = 0, v = 0, fans = 0;
	nvmlDevice_t h;

	if (!api)
		return gt_control_refuse(
		    caps->why, sizeof(caps->why),
		    "the NVIDIA management library "
		    "(libnvidia-ml.so.1) is not loaded, so "
		    "this GPU's settings cannot be changed");
	if (!nv_handle(api, pci_id, &h))
		return gt_control_refuse(caps->why, sizeof(caps->why),
		                         "NVML lists no GPU at %s", pci_id);
	snprintf(caps->dev, sizeof(caps->dev), "%s", pci_id);

	if (!api->set_power_limit_v2 && !api->set_power_limit)
		gt_control_range_unknown(
		    p, "this NVIDIA driver has no power-limit setter");
	else if (!api->power_range ||
	         api->power_range(h, &lo, &hi) != NVML_SUCCESS || lo > hi)
		gt_control_range_unknown(
		    p, "this GPU does not report its power limit range "
		       "(nvmlDeviceGetPowerManagementLimitConstraints)");
	else
		*p = (struct gt_control_range){
		    .known = true,
		    .min = lo,
		    .max = hi,
		    .def = api->power_default &&
		                   api->power_default(h, &v) == NVML_SUCCESS
		               ? (int64_t)v
		               : -1,
		    .cur = api->power_limit &&
		                   api->power_limit(h, &v) == NVML_SUCCESS
		               ? (int64_t)v
		               : -1,
		};

	if (!api->num_fans || api->num_fans(h, &fans) != NVML_SUCCESS ||
	    fans == 0)
		snprintf(
		    caps->fan_why, sizeof(caps->fan_why),
		    "this GPU has no fans gputop can control (passively "
		    "cooled, or a laptop whose fans belong to its embedded "
		    "controller)");
	else if (!api->set_fan_speed || !api->set_default_fan_speed)
		snprintf(caps->fan_why, sizeof(caps->fan_why),
		         "this NVIDIA driver cannot set fan speeds (NVML fan "
		         "control needs R515 or newer)");
	else if (!api->fan_min_max ||
	         api->fan_min_max(h, &lo, &hi) != NVML_SUCCESS || lo > hi ||
	         hi > 100)
		snprintf(caps->fan_why, sizeof(caps->fan_why),
		         "this GPU does not report its fan speed range "
		         "(nvmlDeviceGetMinMaxFanSpeed)");
	else {
		caps->fan_method = GT_FAN_METHOD_NVML_LOOP;
		caps->fan_why[0] = '\0';
		caps->fan_count = fans;
		caps->fan_min_cpercent = (int32_t)lo * 100;
		caps->fan_max_cpercent = (int32_t)hi * 100;
	}
	return 0;
}

static int restore(struct gt_control *c, const struct gt_restore_action *a)
{
	switch (a->kind) {
	case GT_RESTORE_NVML_FAN_AUTO:
		return restore_fan_auto(c, a->dev, a->fan);
	case GT_RESTORE_NVML_POWER_LIMIT:
		return restore_power_limit(c, a->dev, a->mw);
	default: /* only the nvml-* records are NVIDIA's (gt_restore_check) */
		return -EPERM;
	}
}

/* The ops' power limit is the session's unsigned long. */
static int power_limit(struct gt_control *c, const char *pci_id,
                       unsigned long mw, unsigned long *applied_mw, char *err,
                       size_t len)
{
	unsigned got = GT_CONTROL_UNREAD;
	int rc = gt_control_nvml_power_limit(c, pci_id, (unsigned)mw, &got, err,
	                                     len);

	if (applied_mw)
		*applied_mw = got;
	return rc;
}

const struct gt_control_ops gt_control_nvml_ops = {
    .name = "nvml",
    .vendor = GT_VENDOR_NVIDIA,
    .sysfs = false,
    .power_unit = "mW",
    .fan_per_index = true,
    .fan_loop_hotspot = false,
    .caps = caps_read,
    .power_limit = power_limit,
    .fan_speed = gt_control_nvml_fan_speed,
    .fan_auto = gt_control_nvml_fan_auto,
    .restore = restore,
};

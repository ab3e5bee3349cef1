/* SPDX-License-Identifier: MIT */
/*
 * snapshot.c - builds the gputop.snapshot JSON document. Every key of the
 * schema is always present; a value the device cannot give is null and its
 * reason is listed under "unavailable" as "<group>.<key>".
 */
#include "export/snapshot.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "core/view.h"
#include "core/fileio.h"

/* cJSON escapes control characters but copies bytes as they are, so every
 * string from a device or a process is made valid UTF-8 first. */
static void put_str(cJSON *obj, const char *key, const char *s)
{
	if (!s) {
		cJSON_AddNullToObject(obj, key);
		return;
	}
	char *clean = gt_text_utf8_sanitize(s, strlen(s));
	if (!clean) {
		cJSON_AddNullToObject(obj, key);
		return;
	}
	cJSON_AddStringToObject(obj, key, clean);
	free(clean);
}

/* An empty string from a backend means "the device has none". */
static void put_str_or_null(cJSON *obj, const char *key, const char *s)
{
	put_str(obj, key, s && s[0] ? s : NULL);
}

struct reasons {
	cJSON *unavailable;
	const struct gt_backend *backend;
};

static void note_reason(struct reasons *r, const char *group, const char *key,
                        const struct gt_val *val)
{
	char name[96], text[256];
	const char *code_text = NULL;

	if (val->why == GT_WHY_DRIVER_ERROR && r->backend &&
	    r->backend->ops->error_text)
		code_text = r->backend->ops->error_text(
		    (struct gt_backend *)r->backend, val->code);
	if (group && strcmp(group, "device") != 0)
		snprintf(name, sizeof(name), "%s.%s", group, key);
	else
		snprintf(name, sizeof(name), "%s", key);
	gt_why_text(val, code_text, text, sizeof(text));
	cJSON_DeleteItemFromObjectCaseSensitive(r->unavailable, name);
	put_str(r->unavailable, name, text);
}

static void put_val(cJSON *obj, struct reasons *r, const char *group,
                    const char *key, const struct gt_val *val,
                    enum gt_unit unit)
{
	if (gt_val_ok(val) && unit == GT_UNIT_BOOL) {
		cJSON_AddBoolToObject(obj, key, val->v != 0);
	} else if (gt_val_ok(val)) {
		cJSON_AddNumberToObject(obj, key,
		                        gt_unit_to_json(unit, val->v));
	} else {
		cJSON_AddNullToObject(obj, key);
		note_reason(r, group, key, val);
	}
}

static void put_text(cJSON *obj, struct reasons *r, const char *group,
                     const char *key, const struct gt_text_val *t)
{
	if (t->why == GT_WHY_OK) {
		put_str(obj, key, t->s);
	} else {
		struct gt_val v = {0, 0, t->why};
		cJSON_AddNullToObject(obj, key);
		note_reason(r, group, key, &v);
	}
}

static cJSON *group_obj(cJSON *dev, const char *group)
{
	if (strcmp(group, "device") == 0)
		return dev;
	cJSON *g = cJSON_GetObjectItemCaseSensitive(dev, group);
	if (!g)
		g = cJSON_AddObjectToObject(dev, group);
	return g;
}

static void put_fans(cJSON *thermal, struct reasons *r,
                     const struct gt_static *st, const struct gt_sample *s)
{
	cJSON *fans = cJSON_AddArrayToObject(thermal, "fans");
	if (!gt_val_ok(&st->f[GT_S_FAN_COUNT])) {
		note_reason(r, "thermal", "fans", &st->f[GT_S_FAN_COUNT]);
		return;
	}
	for (unsigned i = 0; i < s->fan_count && i < GT_MAX_FANS; i++) {
		cJSON *fan = cJSON_CreateObject();
		char group[32];
		snprintf(group, sizeof(group), "thermal.fans[%u]", i);
		put_val(fan, r, group, "percent", &s->f[GT_F_FAN_PERCENT0 + i],
		        GT_UNIT_CPERCENT);
		put_val(fan, r, group, "rpm", &s->f[GT_F_FAN_RPM0 + i],
		        GT_UNIT_RPM);
		cJSON_AddItemToArray(fans, fan);
	}
}

static void put_throttle(cJSON *dev, struct reasons *r,
                         const struct gt_sample *s)
{
	cJSON *thr = group_obj(dev, "throttle");
	const struct gt_val *val = &s->f[GT_F_THROTTLE];
	cJSON *reasons;

	if (!gt_val_ok(val)) {
		cJSON_AddNullToObject(thr, "active");
		cJSON_AddArrayToObject(thr, "reasons");
		note_reason(r, "throttle", "reasons", val);
		return;
	}
	uint64_t mask = (uint64_t)val->v;
	cJSON_AddBoolToObject(thr, "active", (mask & GT_THR_ACTIVE_MASK) != 0);
	reasons = cJSON_AddArrayToObject(thr, "reasons");
	for (unsigned bit = 1; bit != 0 && bit <= GT_THR_OTHER; bit <<= 1) {
		const char *name = gt_throttle_name(bit);
		if ((mask & bit) && name)
			cJSON_AddItemToArray(reasons, cJSON_CreateString(name));
	}
}

static const char *state_name(uint8_t state)
{
	switch (state) {
	case GT_DEV_LOST:
		return "lost";
	case GT_DEV_ASLEEP:
		return "asleep";
	default:
		return "ok";
	}
}

/* One MIG instance: ids, UUID, profile and its values (null with the
 * reason under its own "unavailable"). */
static cJSON *mig_json(const struct gt_mig_instance *m,
                       const struct gt_backend *backend)
{
	cJSON *obj = cJSON_CreateObject();
	struct reasons r = {cJSON_CreateObject(), backend};

	cJSON_AddNumberToObject(obj, "index", m->index);
	if (m->gi != GT_MIG_NONE)
		cJSON_AddNumberToObject(obj, "gpu_instance_id", m->gi);
	else
		cJSON_AddNullToObject(obj, "gpu_instance_id");
	if (m->ci != GT_MIG_NONE)
		cJSON_AddNumberToObject(obj, "compute_instance_id", m->ci);
	else
		cJSON_AddNullToObject(obj, "compute_instance_id");
	put_str_or_null(obj, "uuid", m->uuid);
	put_text(obj, &r, "device", "profile", &m->profile);
	for (int i = 0; i < GT_M__COUNT; i++) {
		const struct gt_field_desc *d = &gt_mig_instance_desc[i];
		put_val(group_obj(obj, d->group), &r, d->group, d->key,
		        &m->f[i], d->unit);
	}
	cJSON_AddItemToObject(obj, "unavailable", r.unavailable);
	return obj;
}

/* The device's MIG instances: [] when MIG is off, null (with its reason)
 * before the first process round has listed them. */
static void put_mig(cJSON *dev, struct reasons *r, const struct gt_static *st,
                    const struct gt_proclist *procs)
{
	const struct gt_val *mode = &st->f[GT_S_MIG_MODE];
	if (gt_val_ok(mode) && mode->v && !procs) {
		struct gt_val v = {0, 0, GT_WHY_NOT_COLLECTED};
		cJSON_AddNullToObject(dev, "mig_instances");
		note_reason(r, "device", "mig_instances", &v);
		return;
	}
	cJSON *arr = cJSON_AddArrayToObject(dev, "mig_instances");
	for (size_t i = 0; procs && i < procs->mig_count; i++)
		if (procs->mig[i].device_index == st->index)
			cJSON_AddItemToArray(
			    arr, mig_json(&procs->mig[i], r->backend));
}

/* The PCI address and ids. Vendor 0x0000 is no vendor: the backend did
 * not learn them (NVML's PCI query refused, say), so they are null with
 * that reason rather than zeros that read as an id. */
static void put_pci_identity(cJSON *dev, struct reasons *r,
                             const struct gt_static *st)
{
	static const char why[] = "not given by the driver";
	char hex[16];

	put_str_or_null(dev, "pci_bus_id", st->pci_bus_id);
	if (!st->pci_bus_id[0])
		put_str(r->unavailable, "pci_bus_id", why);
	if (st->pci_vendor_id == 0) {
		put_str(dev, "pci_vendor_id", NULL);
		put_str(dev, "pci_device_id", NULL);
		put_str(r->unavailable, "pci_vendor_id", why);
		put_str(r->unavailable, "pci_device_id", why);
		return;
	}
	snprintf(hex, sizeof(hex), "0x%04x", st->pci_vendor_id);
	put_str(dev, "pci_vendor_id", hex);
	snprintf(hex, sizeof(hex), "0x%04x", st->pci_device_id);
	put_str(dev, "pci_device_id", hex);
}

static cJSON *device_json(const struct gt_static *st, const struct gt_sample *s,
                          const struct gt_backend *backend,
                          const struct gt_proclist *procs)
{
	cJSON *dev = cJSON_CreateObject();
	struct reasons r = {cJSON_CreateObject(), backend};

	cJSON_AddNumberToObject(dev, "index", st->index);
	put_str(dev, "id", st->id);
	put_str(dev, "vendor", gt_vendor_name(st->vendor));
	put_str_or_null(dev, "driver", st->driver);
	put_str_or_null(dev, "driver_version", st->driver_version);
	put_str_or_null(dev, "name", st->name);
	put_str_or_null(dev, "uuid", st->uuid);
	put_str_or_null(dev, "serial", st->serial);
	put_pci_identity(dev, &r, st);
	put_str_or_null(dev, "architecture", st->architecture);
	put_str_or_null(dev, "vbios_version", st->vbios);
	cJSON_AddBoolToObject(dev, "integrated", st->integrated);
	cJSON_AddBoolToObject(dev, "demo", st->demo);
	cJSON_AddBoolToObject(dev, "lost", s->state == GT_DEV_LOST);
	put_str(dev, "state", state_name(s->state));

	/* Fixed group order, so documents diff well. */
	static const char *const groups[] = {"utilization", "memory", "thermal",
	                                     "power",       "clocks", "pcie"};
	for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++)
		group_obj(dev, groups[g]);

	for (int i = 0; i < GT_S__COUNT; i++) {
		const struct gt_field_desc *d = &gt_static_desc[i];
		const struct gt_val *val = &st->f[i];
		/* The sampled total wins: it follows MIG and driver changes. */
		if (i == GT_S_VRAM_TOTAL && gt_val_ok(&s->f[GT_F_MEM_TOTAL]))
			val = &s->f[GT_F_MEM_TOTAL];
		put_val(group_obj(dev, d->group), &r, d->group, d->key, val,
		        d->unit);
	}
	for (int i = 0; i < GT_F_FAN_PERCENT0; i++) {
		const struct gt_field_desc *d = &gt_field_desc[i];
		if (!d->group || i == GT_F_THROTTLE)
			continue;
		put_val(group_obj(dev, d->group), &r, d->group, d->key,
		        &s->f[i], d->unit);
	}
	put_fans(group_obj(dev, "thermal"), &r, st, s);
	put_throttle(dev, &r, s);
	cJSON_AddBoolToObject(group_obj(dev, "utilization"),
	                      "gpu_percent_lower_bound",
	                      s->util_gpu_lower_bound);
	put_text(group_obj(dev, "power"), &r, "power", "performance_level",
	         &s->perf_level);
	put_text(group_obj(dev, "power"), &r, "power", "profile",
	         &s->power_profile);
	put_mig(dev, &r, st, procs);
	cJSON_AddItemToObject(dev, "unavailable", r.unavailable);
	return dev;
}

static const char *proc_type_name(uint8_t type)
{
	switch (type) {
	case GT_PROC_COMPUTE:
		return "compute";
	case GT_PROC_GRAPHICS:
		return "graphics";
	case GT_PROC_BOTH:
		return "both";
	default:
		return NULL;
	}
}

/* The MIG instance a process runs in: null on a device without MIG, and
 * null with a reason where the driver did not say which. */
static void put_proc_mig(cJSON *obj, cJSON *unavailable,
                         const struct gt_process *p,
                         const struct gt_devlist *devs,
                         const struct gt_proclist *procs)
{
	const struct gt_static *st = p->device_index < devs->count
	                                 ? &devs->items[p->device_index]
	                                 : NULL;
	bool mig =
	    st && gt_val_ok(&st->f[GT_S_MIG_MODE]) && st->f[GT_S_MIG_MODE].v;
	if (!mig || p->mig_gi == GT_MIG_NONE) {
		cJSON_AddNullToObject(obj, "mig_instance");
		if (mig)
			put_str(unavailable, "mig_instance",
			        "the driver's process list did not say which "
			        "MIG instance it runs in");
		return;
	}
	cJSON *o = cJSON_AddObjectToObject(obj, "mig_instance");
	cJSON_AddNumberToObject(o, "gpu_instance_id", p->mig_gi);
	if (p->mig_ci != GT_MIG_NONE)
		cJSON_AddNumberToObject(o, "compute_instance_id", p->mig_ci);
	else
		cJSON_AddNullToObject(o, "compute_instance_id");
	const struct gt_mig_instance *m =
	    gt_mig_instance_find(procs->mig, procs->mig_count, p->device_index,
	                         p->mig_gi, p->mig_ci);
	put_str_or_null(o, "uuid", m ? m->uuid : NULL);
	put_str_or_null(o, "profile",
	                m && m->profile.why == GT_WHY_OK ? m->profile.s : NULL);
}

static cJSON *process_json(const struct gt_process *p,
                           const struct gt_devlist *devs,
                           const struct gt_proclist *procs)
{
	cJSON *obj = cJSON_CreateObject();
	struct reasons r = {cJSON_CreateObject(), NULL};

	cJSON_AddNumberToObject(obj, "device_index", p->device_index);
	put_str(obj, "device_id",
	        p->device_index < devs->count ? devs->items[p->device_index].id
	                                      : NULL);
	cJSON_AddNumberToObject(obj, "pid", p->pid);
	if (p->host_known) {
		/* An empty user is an owner that could not be read (its
		 * status file refused or not a file): null, with the reason. */
		put_str_or_null(obj, "user", p->user);
		if (!p->user[0])
			put_str(
			    r.unavailable, "user",
			    "the owner could not be read from the process's "
			    "status file in the proc tree");
		put_str(obj, "name", p->name);
		put_str(obj, "cmdline", p->cmdline ? p->cmdline : "");
		put_str_or_null(obj, "container", p->container);
		put_str(obj, "name_source", "proc");
	} else {
		static const char *const keys[] = {"user", "name", "cmdline",
		                                   "container"};
		/* The host side's reason (procinfo sets it): a process
		 * whose files refuse to be read is there, not gone. */
		bool denied = p->f[GT_P_CPU].why == GT_WHY_PERMISSION;
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			/* The driver named it where /proc could not. */
			if (i == 1 && p->name_from_driver && p->name[0]) {
				put_str(obj, "name", p->name);
				continue;
			}
			cJSON_AddNullToObject(obj, keys[i]);
			put_str(r.unavailable, keys[i],
			        denied
			            ? "the process's files in the proc tree "
			              "refuse to be read: permission denied "
			              "(run gputop as root, or use --procfs "
			              "with a readable /proc)"
			            : "process not found in the proc tree (it "
			              "exited, or runs in another PID "
			              "namespace: use --procfs with the "
			              "host's /proc)");
		}
		if (p->name_from_driver && p->name[0])
			put_str(obj, "name_source", "driver");
		else
			cJSON_AddNullToObject(obj, "name_source");
	}
	put_str(obj, "type", proc_type_name(p->type));
	put_proc_mig(obj, r.unavailable, p, devs, procs);
	for (int i = 0; i < GT_P__COUNT; i++)
		put_val(obj, &r, NULL, gt_process_desc[i].key, &p->f[i],
		        gt_process_desc[i].unit);
	cJSON_AddItemToObject(obj, "unavailable", r.unavailable);
	return obj;
}

static void put_timestamp(cJSON *root, struct timespec ts)
{
	struct tm tm;
	char buf[64];
	gmtime_r(&ts.tv_sec, &tm);
	size_t n = strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, sizeof(buf) - n, ".%09ldZ", (long)ts.tv_nsec);
	put_str(root, "timestamp", buf);
}

char *gt_snapshot_json(const struct gt_snapshot_input *in)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *gen, *host, *arr;
	bool demo = false;

	put_str(root, "schema", "gputop.snapshot");
	cJSON_AddNumberToObject(root, "schema_version",
	                        GT_SNAPSHOT_SCHEMA_VERSION);
	gen = cJSON_AddObjectToObject(root, "generator");
	put_str(gen, "name", "gputop");
	put_str(gen, "version", GPUTOP_VERSION);
	put_timestamp(root, in->realtime);
	cJSON_AddNumberToObject(root, "monotonic_ns", (double)in->monotonic_ns);
	cJSON_AddNumberToObject(root, "sample_window_ns",
	                        (double)in->window_ns);

	host = cJSON_AddObjectToObject(root, "host");
	put_str(host, "hostname", in->host->hostname);
	put_str(host, "kernel", in->host->kernel);
	cJSON_AddNumberToObject(host, "cpu_count", in->host->cpu_count);
	cJSON_AddNumberToObject(host, "memory_total_bytes",
	                        (double)in->host->memory_total_bytes);
	cJSON_AddNumberToObject(host, "euid", in->host->euid);

	arr = cJSON_AddArrayToObject(root, "backends");
	for (size_t i = 0; i < in->nbackends; i++) {
		const struct gt_backend *b = &in->backends[i];
		cJSON *o = cJSON_CreateObject();
		put_str(o, "name", b->ops->name);
		put_str(o, "status", gt_backend_status_name(b->status));
		put_str(o, "detail", b->detail);
		cJSON_AddNumberToObject(o, "device_count", b->device_count);
		cJSON_AddItemToArray(arr, o);
	}

	arr = cJSON_AddArrayToObject(root, "devices");
	for (size_t i = 0; in->devices && i < in->devices->count; i++) {
		const struct gt_backend *b =
		    in->device_backends ? in->device_backends[i] : NULL;
		demo = demo || in->devices->items[i].demo;
		cJSON_AddItemToArray(arr, device_json(&in->devices->items[i],
		                                      &in->samples[i], b,
		                                      in->procs));
	}

	arr = cJSON_AddArrayToObject(root, "processes");
	for (size_t i = 0; in->procs && in->devices && i < in->procs->count;
	     i++)
		cJSON_AddItemToArray(arr, process_json(&in->procs->items[i],
		                                       in->devices, in->procs));
	/* Processes whose GPU use could not be read: per-process totals are
	 * then lower bounds. */
	cJSON_AddNumberToObject(root, "processes_unreadable",
	                        in->procs ? (double)in->procs->unreadable : 0);
	cJSON_AddBoolToObject(root, "demo", demo);

	char *text =
	    in->compact ? cJSON_PrintUnformatted(root) : cJSON_Print(root);
	cJSON_Delete(root);
	if (!text)
		return NULL;
	size_t len = strlen(text);
	char *out = malloc(len + 2);
	if (out) {
		memcpy(out, text, len);
		out[len] = '\n';
		out[len + 1] = '\0';
	}
	cJSON_free(text);
	return out;
}

char *gt_snapshot_from_view(const struct gt_view *v, const char *procfs_root,
                            uint64_t window_ns)
{
	struct gt_hostinfo host;
	gt_hostinfo_read(&host, procfs_root);
	return gt_snapshot_build(v, &host, window_ns, false);
}

char *gt_snapshot_build(const struct gt_view *v, const struct gt_hostinfo *host,
                        uint64_t window_ns, bool compact)
{
	const struct gt_collector *c = v->collector;
	size_t n = v->devs ? v->devs->count : 0;
	const struct gt_backend **devb = calloc(n ? n : 1, sizeof(*devb));

	if (!devb)
		return NULL;
	for (size_t i = 0; i < n; i++)
		devb[i] = gt_collector_device_backend(c, i);
	size_t nbackends = 0;
	const struct gt_backend *backends =
	    gt_collector_backends(c, &nbackends);
	struct gt_snapshot_input in = {
	    .host = host,
	    .backends = backends,
	    .nbackends = nbackends,
	    .devices = v->devs,
	    .samples = v->latest,
	    .device_backends = devb,
	    .procs = v->procs,
	    .monotonic_ns = gt_monotonic_ns(),
	    .window_ns = window_ns,
	    .compact = compact,
	};
	clock_gettime(CLOCK_REALTIME, &in.realtime);
	char *json = gt_snapshot_json(&in);
	free(devb);
	return json;
}

int gt_snapshot_save(const char *json, char *path_out, size_t len)
{
	char dir[PATH_MAX], name[64], final[PATH_MAX + 96], why[PATH_MAX + 160];
	const char *state = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");
	int n, err;

	if (state && state[0] == '/')
		n = snprintf(dir, sizeof(dir), "%s/gputop", state);
	else if (home && home[0])
		n = snprintf(dir, sizeof(dir), "%s/.local/state/gputop", home);
	else {
		snprintf(path_out, len,
		         "neither XDG_STATE_HOME nor HOME is set");
		return ENOENT;
	}
	if (n < 0 || (size_t)n >= sizeof(dir)) {
		snprintf(path_out, len, "state directory path too long");
		return ENAMETOOLONG;
	}
	err = gt_fileio_make_dirs(dir, path_out, len);
	if (err)
		return err;
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(name, sizeof(name), "snapshot-%Y%m%d-%H%M%S", &tm);
	/* Two saves in one second (s pressed twice at a 0.1 s interval) keep
	 * both: the second takes the first free -2, -3, ... suffix. */
	struct stat st;
	snprintf(final, sizeof(final), "%s/%s.json", dir, name);
	for (int k = 2; lstat(final, &st) == 0 && k <= 1000; k++)
		snprintf(final, sizeof(final), "%s/%s-%d.json", dir, name, k);
	/* The file is whole on disk before it takes its name. */
	err = gt_fileio_replace(final, json, strlen(json), 0600, why,
	                        sizeof(why));
	if (err) {
		snprintf(path_out, len, "cannot save the snapshot in %s: %s",
		         dir, strerror(err));
		return err;
	}
	snprintf(path_out, len, "%s", final);
	return 0;
}

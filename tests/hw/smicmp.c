/* SPDX-License-Identifier: MIT */
/*
 * smicmp.c - owns the field-by-field comparison of a `gputop --snapshot`
 * with `nvidia-smi -q -x` captures of the same machine, which is how
 * gputop is validated on real NVIDIA hardware (docs/hardware-validation.md,
 * tests/hw/nvidia-validate.sh).
 *
 *   smicmp SNAPSHOT.json SMI.xml [SMI-AFTER.xml]
 *
 * GPUs are paired by PCI bus id. Values that move (utilization, draw,
 * temperatures, clocks) are taken twice, before and after the snapshot:
 * gputop's value matches when it lies between the two captures, widened
 * by the field's tolerance. Prints one line per field and a summary; exits
 * 0 when nothing differs, 1 when something does, 2 on bad input.
 *
 * Element names differ between driver branches (power_readings or
 * gpu_power_readings, clocks_throttle_reasons or clocks_event_reasons), so
 * each field lists the paths it may be found at.
 */
#include "smi_xml.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The JSON value at a dotted path ("power.draw_watts", "thermal.fans.0.
 * percent") below obj, or NULL. */
static const cJSON *json_get(const cJSON *obj, const char *path)
{
	char key[64];

	while (obj && *path) {
		size_t n = strcspn(path, ".");
		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		if (cJSON_IsArray(obj) && isdigit((unsigned char)key[0]))
			obj = cJSON_GetArrayItem(obj, atoi(key));
		else
			obj = cJSON_GetObjectItemCaseSensitive(obj, key);
		path += n;
		if (*path == '.')
			path++;
	}
	return obj;
}

/* Why gputop has no value for path (its "unavailable" map), or NULL. */
static const char *json_reason(const cJSON *dev, const char *path)
{
	const cJSON *un = cJSON_GetObjectItemCaseSensitive(dev, "unavailable");
	const cJSON *r = cJSON_GetObjectItemCaseSensitive(un, path);
	return cJSON_IsString(r) ? r->valuestring : NULL;
}

enum kind {
	K_TEXT,   /* strings compared as they are */
	K_NUMBER, /* gputop value * scale against nvidia-smi's number */
	K_ENABLED /* gputop boolean against "Enabled" / "Disabled" */
};

struct field {
	const char *label;
	const char *json;
	const char *xml; /* '|'-separated alternatives below <gpu> */
	enum kind kind;
	double scale;
	double tol; /* allowed distance beyond the captures' range */
	bool moves; /* differs between the two captures on a busy GPU */
	/* On T.Limit boards nvidia-smi gives thresholds relative to the
	 * margin instead: absolute = gpu_temp + gpu_temp_tlimit - this. */
	const char *tlimit;
};

#define MIB (1.0 / 1048576.0)

/* "max_link_gen" is what host and device together allow, the limit
 * gputop measures the link against (device_max_link_gen is the board's).
 * nvidia-smi prints MiB truncated, so 1 MiB of tolerance is rounding;
 * the moving values get what a second of a busy GPU can change. */
static const struct field fields[] = {
    {"name", "name", "product_name", K_TEXT, 0, 0, false, NULL},
    {"uuid", "uuid", "uuid", K_TEXT, 0, 0, false, NULL},
    {"serial", "serial", "serial", K_TEXT, 0, 0, false, NULL},
    {"vbios", "vbios_version", "vbios_version", K_TEXT, 0, 0, false, NULL},
    {"architecture", "architecture", "product_architecture", K_TEXT, 0, 0,
     false, NULL},
    {"memory total MiB", "memory.total_bytes", "fb_memory_usage/total",
     K_NUMBER, MIB, 1, false, NULL},
    {"memory reserved MiB", "memory.reserved_bytes", "fb_memory_usage/reserved",
     K_NUMBER, MIB, 1, false, NULL},
    {"memory used MiB", "memory.used_bytes", "fb_memory_usage/used", K_NUMBER,
     MIB, 64, true, NULL},
    {"memory free MiB", "memory.free_bytes", "fb_memory_usage/free", K_NUMBER,
     MIB, 64, true, NULL},
    {"BAR1 total MiB", "memory.visible_total_bytes", "bar1_memory_usage/total",
     K_NUMBER, MIB, 1, false, NULL},
    {"BAR1 used MiB", "memory.visible_used_bytes", "bar1_memory_usage/used",
     K_NUMBER, MIB, 8, true, NULL},
    {"GPU util %", "utilization.gpu_percent", "utilization/gpu_util", K_NUMBER,
     1, 15, true, NULL},
    {"memory util %", "utilization.memory_bandwidth_percent",
     "utilization/memory_util", K_NUMBER, 1, 15, true, NULL},
    {"encoder util %", "utilization.encoder_percent",
     "utilization/encoder_util", K_NUMBER, 1, 15, true, NULL},
    {"decoder util %", "utilization.decoder_percent",
     "utilization/decoder_util", K_NUMBER, 1, 15, true, NULL},
    {"GPU temp C", "thermal.gpu_celsius", "temperature/gpu_temp", K_NUMBER, 1,
     3, true, NULL},
    {"memory temp C", "thermal.memory_celsius", "temperature/memory_temp",
     K_NUMBER, 1, 3, true, NULL},
    {"slowdown temp C", "thermal.slowdown_celsius",
     "temperature/gpu_temp_slow_threshold", K_NUMBER, 1, 1, false,
     "temperature/gpu_temp_slow_tlimit_threshold"},
    {"shutdown temp C", "thermal.shutdown_celsius",
     "temperature/gpu_temp_max_threshold", K_NUMBER, 1, 1, false,
     "temperature/gpu_temp_max_tlimit_threshold"},
    {"GPU max temp C", "thermal.gpu_max_celsius",
     "temperature/gpu_temp_max_gpu_threshold", K_NUMBER, 1, 1, false,
     "temperature/gpu_temp_max_gpu_tlimit_threshold"},
    /* No T.Limit form: the memory's offset is not from the GPU's T.Limit
     * (an H100 with driver 580 gives 0 C there while NVML's MEM_MAX is
     * 95 C; boards with absolute thresholds give 95 C next to a GPU max
     * of 85 C), and nvidia-smi prints no base to add it to. */
    {"memory max temp C", "thermal.memory_max_celsius",
     "temperature/gpu_temp_max_mem_threshold", K_NUMBER, 1, 1, false, NULL},
    {"fan %", "thermal.fans.0.percent", "fan_speed", K_NUMBER, 1, 5, true,
     NULL},
    {"power draw W", "power.draw_watts",
     "gpu_power_readings/average_power_draw|gpu_power_readings/power_draw|"
     "power_readings/average_power_draw|power_readings/power_draw",
     K_NUMBER, 1, 25, true, NULL},
    {"power limit W", "power.limit_watts",
     "gpu_power_readings/current_power_limit|power_readings/power_limit|"
     "power_readings/current_power_limit",
     K_NUMBER, 1, 0.01, false, NULL},
    {"enforced limit W", "power.enforced_limit_watts",
     "gpu_power_readings/enforced_power_limit|"
     "power_readings/enforced_power_limit",
     K_NUMBER, 1, 0.01, false, NULL},
    {"default limit W", "power.default_limit_watts",
     "gpu_power_readings/default_power_limit|"
     "power_readings/default_power_limit",
     K_NUMBER, 1, 0.01, false, NULL},
    {"min limit W", "power.min_limit_watts",
     "gpu_power_readings/min_power_limit|power_readings/min_power_limit",
     K_NUMBER, 1, 0.01, false, NULL},
    {"max limit W", "power.max_limit_watts",
     "gpu_power_readings/max_power_limit|power_readings/max_power_limit",
     K_NUMBER, 1, 0.01, false, NULL},
    {"pstate", "power.pstate", "performance_state", K_NUMBER, 1, 0, true, NULL},
    {"graphics clock MHz", "clocks.graphics_mhz", "clocks/graphics_clock",
     K_NUMBER, 1, 60, true, NULL},
    {"SM clock MHz", "clocks.sm_mhz", "clocks/sm_clock", K_NUMBER, 1, 60, true,
     NULL},
    {"memory clock MHz", "clocks.memory_mhz", "clocks/mem_clock", K_NUMBER, 1,
     60, true, NULL},
    {"video clock MHz", "clocks.video_mhz", "clocks/video_clock", K_NUMBER, 1,
     60, true, NULL},
    {"max graphics MHz", "clocks.graphics_max_mhz", "max_clocks/graphics_clock",
     K_NUMBER, 1, 0, false, NULL},
    {"max SM MHz", "clocks.sm_max_mhz", "max_clocks/sm_clock", K_NUMBER, 1, 0,
     false, NULL},
    {"max memory MHz", "clocks.memory_max_mhz", "max_clocks/mem_clock",
     K_NUMBER, 1, 0, false, NULL},
    {"max video MHz", "clocks.video_max_mhz", "max_clocks/video_clock",
     K_NUMBER, 1, 0, false, NULL},
    {"PCIe gen", "pcie.link_gen",
     "pci/pci_gpu_link_info/pcie_gen/current_link_gen", K_NUMBER, 1, 0, true,
     NULL},
    {"PCIe max gen", "pcie.max_link_gen",
     "pci/pci_gpu_link_info/pcie_gen/max_link_gen", K_NUMBER, 1, 0, false,
     NULL},
    {"PCIe width", "pcie.link_width",
     "pci/pci_gpu_link_info/link_widths/current_link_width", K_NUMBER, 1, 0,
     true, NULL},
    {"PCIe max width", "pcie.max_link_width",
     "pci/pci_gpu_link_info/link_widths/max_link_width", K_NUMBER, 1, 0, false,
     NULL},
    {"PCIe TX KB/s", "pcie.tx_bytes_per_second", "pci/tx_util", K_NUMBER,
     1.0 / 1024, -1, true, NULL},
    {"PCIe RX KB/s", "pcie.rx_bytes_per_second", "pci/rx_util", K_NUMBER,
     1.0 / 1024, -1, true, NULL},
    {"ECC", "ecc_enabled", "ecc_mode/current_ecc", K_ENABLED, 0, 0, false,
     NULL},
    {"MIG", "mig_enabled", "mig_mode/current_mig", K_ENABLED, 0, 0, false,
     NULL},
};

/* The field's text in g: at one of its paths, or for a T.Limit board
 * the absolute threshold worked out into buf, or NULL. At idle the sum
 * of the two moving values stays put; under load the margin follows a
 * hotter sensor than gpu_temp (an H100 at 700 W: 55 C with 30 C of
 * margin, then 56 C with 26 C), and the sum moves with it. */
static const char *smi_value(const struct smi_gpu *g, const struct field *f,
                             char *buf, size_t len)
{
	const char *s = smi_get(g, f->xml);
	double temp, margin, rel;

	if (s || !f->tlimit)
		return s;
	if (!smi_number(smi_get(g, f->tlimit), &rel) ||
	    !smi_number(smi_get(g, "temperature/gpu_temp"), &temp) ||
	    !smi_number(smi_get(g, "temperature/gpu_temp_tlimit"), &margin))
		return smi_get(g, f->tlimit);
	snprintf(buf, len, "%.0f C (T.Limit)", temp + margin - rel);
	return buf;
}

struct tally {
	unsigned match, differ, shown, only_smi, only_gputop, both_na;
};

static void show(const char *label, const char *ours, const char *theirs,
                 const char *verdict)
{
	printf("  %-20s %-24s %-24s %s\n", label, ours, theirs, verdict);
}

static void json_text(const cJSON *v, char *out, size_t len)
{
	if (!v)
		snprintf(out, len, "N/A");
	else if (cJSON_IsString(v))
		snprintf(out, len, "%s", v->valuestring);
	else if (cJSON_IsBool(v))
		snprintf(out, len, "%s", cJSON_IsTrue(v) ? "true" : "false");
	else if (cJSON_IsNumber(v))
		snprintf(out, len, "%.15g", v->valuedouble);
	else
		snprintf(out, len, "N/A");
}

static void compare_field(const struct field *f, const cJSON *dev,
                          const struct smi_gpu *a, const struct smi_gpu *b,
                          struct tally *t)
{
	const cJSON *v = json_get(dev, f->json);
	char da[32], db[32];
	const char *sa = smi_value(a, f, da, sizeof(da));
	const char *sb = b ? smi_value(b, f, db, sizeof(db)) : NULL;
	bool ours_na = !v || cJSON_IsNull(v);
	bool theirs_na = smi_na(sa) && (!b || smi_na(sb));
	char ours[64], theirs[64];

	json_text(v, ours, sizeof(ours));
	if (v && f->kind == K_NUMBER && cJSON_IsNumber(v))
		snprintf(ours, sizeof(ours), "%.10g",
		         v->valuedouble * f->scale);
	if (b && sb && sa && strcmp(sa, sb))
		snprintf(theirs, sizeof(theirs), "%s .. %s", sa, sb);
	else
		snprintf(theirs, sizeof(theirs), "%s", sa ? sa : "(absent)");

	if (ours_na && theirs_na) {
		t->both_na++;
		show(f->label, ours, theirs, "both N/A");
		return;
	}
	if (ours_na) {
		const char *why = json_reason(dev, f->json);
		char v2[160];
		t->only_smi++;
		snprintf(v2, sizeof(v2), "ONLY NVIDIA-SMI (gputop: %s)",
		         why ? why : "no reason given");
		show(f->label, ours, theirs, v2);
		return;
	}
	if (theirs_na) {
		t->only_gputop++;
		show(f->label, ours, theirs, "only gputop");
		return;
	}
	if (sa == da && sb == db && strcmp(da, db)) {
		/* Worked out from both captures, and they disagree: what
		 * moved is the margin's sensor, not the threshold. */
		t->shown++;
		show(f->label, ours, theirs,
		     "shown (not compared: the T.Limit sum moved)");
		return;
	}
	bool ok = false;
	const char *sv = smi_na(sa) ? sb : sa;
	if (!v || !sv) /* cannot be: both were found above */
		return;
	switch (f->kind) {
	case K_TEXT:
		ok = cJSON_IsString(v) &&
		     (!strcmp(v->valuestring, sv) ||
		      (b && sb && !strcmp(v->valuestring, sb)));
		break;
	case K_ENABLED:
		ok = cJSON_IsBool(v) &&
		     (cJSON_IsTrue(v) == !strcmp(sv, "Enabled"));
		break;
	case K_NUMBER: {
		double x, lo, hi, other;
		if (!cJSON_IsNumber(v) || !smi_number(sv, &lo))
			break;
		hi = lo;
		if (b && sa && sb && smi_number(sa, &x) &&
		    smi_number(sb, &other)) {
			lo = fmin(x, other);
			hi = fmax(x, other);
		}
		x = v->valuedouble * f->scale;
		ok = f->tol < 0 ||
		     (x >= lo - f->tol - 1e-9 && x <= hi + f->tol + 1e-9);
		break;
	}
	}
	if (ok && f->tol < 0) {
		t->shown++;
		show(f->label, ours, theirs,
		     "shown (not compared: moves too fast)");
	} else if (ok) {
		t->match++;
		show(f->label, ours, theirs, "match");
	} else {
		t->differ++;
		show(f->label, ours, theirs,
		     f->moves ? "DIFFER (a moving value)" : "DIFFER");
	}
}

/* The active reasons nvidia-smi lists, as gputop names them. */
static void smi_reasons(const struct smi_gpu *g, char *out, size_t len)
{
	static const struct {
		const char *suffix, *name;
	} map[] = {
	    {"gpu_idle", "idle"},
	    {"applications_clocks_setting", "applications_clocks"},
	    {"sw_power_cap", "power_cap"},
	    {"hw_slowdown", "hw_slowdown"},
	    {"hw_thermal_slowdown", "hw_thermal"},
	    {"hw_power_brake_slowdown", "hw_power_brake"},
	    {"sync_boost", "sync_boost"},
	    {"sw_thermal_slowdown", "sw_thermal"},
	    {"display_clocks_setting", "display_clocks"},
	};

	out[0] = '\0';
	for (size_t i = 0; i < g->n; i++) {
		const char *p = g->leaves[i].path;
		const char *base = strrchr(p, '/');
		if (strncmp(p, "clocks_event_reasons/", 21) &&
		    strncmp(p, "clocks_throttle_reasons/", 24))
			continue;
		if (strcmp(g->leaves[i].text, "Active"))
			continue;
		for (size_t k = 0; base && k < sizeof(map) / sizeof(map[0]);
		     k++) {
			size_t bl = strlen(base + 1),
			       sl = strlen(map[k].suffix);
			if (bl >= sl &&
			    !strcmp(base + 1 + bl - sl, map[k].suffix) &&
			    (bl == sl || base[1 + bl - sl - 1] == '_')) {
				size_t l = strlen(out);
				snprintf(out + l, len - l, "%s%s", l ? "," : "",
				         map[k].name);
				break;
			}
		}
	}
}

static void compare_reasons(const cJSON *dev, const struct smi_gpu *a,
                            const struct smi_gpu *b, struct tally *t)
{
	const cJSON *arr = json_get(dev, "throttle.reasons"), *r;
	char ours[256] = "", ra[256], rb[256] = "";

	cJSON_ArrayForEach(r, arr)
	{
		size_t l = strlen(ours);
		if (cJSON_IsString(r))
			snprintf(ours + l, sizeof(ours) - l, "%s%s",
			         l ? "," : "", r->valuestring);
	}
	smi_reasons(a, ra, sizeof(ra));
	if (b)
		smi_reasons(b, rb, sizeof(rb));
	if (!arr) {
		t->only_smi++;
		show("throttle reasons", "N/A", ra, "ONLY NVIDIA-SMI");
	} else if (!strcmp(ours, ra) || (b && !strcmp(ours, rb))) {
		t->match++;
		show("throttle reasons", ours[0] ? ours : "none",
		     ra[0] ? ra : "none", "match");
	} else {
		t->differ++;
		show("throttle reasons", ours[0] ? ours : "none",
		     ra[0] ? ra : "none", "DIFFER (a moving value)");
	}
}

/* Each pid nvidia-smi lists for this GPU must be in gputop's table with
 * the same memory (to 1 MiB), and the other way round. */
static void compare_processes(const cJSON *procs, int index,
                              const struct smi_gpu *g, struct tally *t)
{
	unsigned listed = 0, found = 0, extra = 0;
	const cJSON *p;

	for (size_t i = 0; i < g->n; i++) {
		if (strcmp(g->leaves[i].path, "processes/process_info/pid"))
			continue;
		long pid = strtol(g->leaves[i].text, NULL, 10);
		const char *mem = NULL;
		for (size_t k = i + 1; k < g->n; k++) {
			if (!strcmp(g->leaves[k].path,
			            "processes/process_info/pid"))
				break;
			if (!strcmp(g->leaves[k].path,
			            "processes/process_info/used_memory"))
				mem = g->leaves[k].text;
		}
		listed++;
		cJSON_ArrayForEach(p, procs)
		{
			const cJSON *jp = json_get(p, "pid");
			const cJSON *jd = json_get(p, "device_index");
			const cJSON *jm = json_get(p, "memory_bytes");
			double want;
			if (!cJSON_IsNumber(jp) ||
			    (long)jp->valuedouble != pid ||
			    !cJSON_IsNumber(jd) || jd->valueint != index)
				continue;
			if (smi_number(mem, &want) && cJSON_IsNumber(jm) &&
			    fabs(jm->valuedouble * MIB - want) > 1.0) {
				char ours[64], what[64];
				snprintf(what, sizeof(what), "pid %ld MiB",
				         pid);
				snprintf(ours, sizeof(ours), "%.0f",
				         jm->valuedouble * MIB);
				t->differ++;
				show(what, ours, mem,
				     "DIFFER (a moving value)");
			}
			found++;
			break;
		}
	}
	cJSON_ArrayForEach(p, procs)
	{
		const cJSON *jd = json_get(p, "device_index");
		if (cJSON_IsNumber(jd) && jd->valueint == index)
			extra++;
	}
	extra = extra > found ? extra - found : 0;
	char ours[64], theirs[64];
	snprintf(ours, sizeof(ours), "%u of them + %u", found, extra);
	snprintf(theirs, sizeof(theirs), "%u", listed);
	if (found == listed && extra == 0) {
		t->match++;
		show("processes", ours, theirs, "match");
	} else {
		t->differ++;
		show("processes", ours, theirs, "DIFFER (a moving value)");
	}
}

/* The snapshot at path, its devices array in *devs; NULL, with a
 * message on stderr, when it cannot be read or is no gputop snapshot. */
static cJSON *load_snapshot(const char *path, const cJSON **devs)
{
	char *json_buf = smi_slurp(path);
	cJSON *snap;

	if (!json_buf)
		return NULL;
	snap = cJSON_Parse(json_buf);
	free(json_buf);
	*devs = json_get(snap, "devices");
	if (!cJSON_IsArray(*devs)) {
		fprintf(stderr,
		        "smicmp: %s: not a gputop snapshot (no devices "
		        "array)\n",
		        path);
		cJSON_Delete(snap);
		return NULL;
	}
	return snap;
}

/* The driver version of the snapshot's first device against
 * nvidia-smi's. */
static void compare_driver(const cJSON *devs, const struct smi_log *before,
                           struct tally *t)
{
	const cJSON *dev, *dv = NULL;
	char ours[64];

	cJSON_ArrayForEach(dev, devs)
	{
		dv = json_get(dev, "driver_version");
		break;
	}
	json_text(dv, ours, sizeof(ours));
	printf("driver version: gputop %s, nvidia-smi %s: %s\n", ours,
	       before->driver_version,
	       strcmp(ours, before->driver_version) ? "DIFFER" : "match");
	if (strcmp(ours, before->driver_version))
		t->differ++;
	else
		t->match++;
}

/* The normalised PCI bus id of a device of the snapshot, or "". */
static void dev_bus_id(const cJSON *dev, char bus[32])
{
	const cJSON *jb = json_get(dev, "pci_bus_id");

	smi_bus_id_norm(cJSON_IsString(jb) ? jb->valuestring : NULL, bus);
}

/* Each device of the snapshot against its GPU in the captures (after is
 * NULL with one capture): the number of GPUs paired. */
static unsigned compare_gpus(const cJSON *snap, const cJSON *devs,
                             const struct smi_log *before,
                             const struct smi_log *after, struct tally *t)
{
	const cJSON *dev;
	unsigned paired = 0;

	cJSON_ArrayForEach(dev, devs)
	{
		char bus[32];
		const cJSON *ji = json_get(dev, "index");
		dev_bus_id(dev, bus);
		const struct smi_gpu *a = smi_find(before, bus);
		const struct smi_gpu *b = after ? smi_find(after, bus) : NULL;
		if (!a) {
			printf("\nGPU %s: in gputop's snapshot, not in "
			       "nvidia-smi's output: DIFFER\n",
			       bus[0] ? bus : "?");
			t->differ++;
			continue;
		}
		paired++;
		printf("\nGPU %s (%s)\n", bus,
		       smi_get(a, "product_name") ? smi_get(a, "product_name")
		                                  : "?");
		show("field", "gputop", "nvidia-smi", "verdict");
		for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
			compare_field(&fields[i], dev, a, b, t);
		compare_reasons(dev, a, b, t);
		compare_processes(json_get(snap, "processes"),
		                  cJSON_IsNumber(ji) ? ji->valueint : -1, a, t);
	}
	return paired;
}

/* The GPUs nvidia-smi lists that the snapshot does not. */
static void compare_smi_only(const cJSON *devs, const struct smi_log *before,
                             struct tally *t)
{
	const cJSON *dev;

	for (size_t i = 0; i < before->ngpus; i++) {
		bool seen = false;
		cJSON_ArrayForEach(dev, devs)
		{
			char bus[32];
			dev_bus_id(dev, bus);
			seen = seen || !strcmp(bus, before->gpus[i].bus_id);
		}
		if (!seen) {
			printf("\nGPU %s: in nvidia-smi's output, not in "
			       "gputop's snapshot: DIFFER\n",
			       before->gpus[i].bus_id);
			t->differ++;
		}
	}
}

int main(int argc, char **argv)
{
	static struct smi_log before, after;
	struct tally t = {0};
	cJSON *snap;
	const cJSON *devs = NULL;
	bool have_after = argc == 4;
	unsigned paired;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: smicmp SNAPSHOT.json SMI.xml "
		                "[SMI-AFTER.xml]\n");
		return 2;
	}
	snap = load_snapshot(argv[1], &devs);
	if (!snap)
		return 2;
	if (smi_parse(argv[2], &before) ||
	    (have_after && smi_parse(argv[3], &after))) {
		smi_free(&before);
		cJSON_Delete(snap);
		return 2;
	}
	compare_driver(devs, &before, &t);
	paired =
	    compare_gpus(snap, devs, &before, have_after ? &after : NULL, &t);
	compare_smi_only(devs, &before, &t);
	printf("\nsummary: %u GPU(s) paired; %u match, %u differ, %u shown "
	       "without comparing, %u only nvidia-smi, %u only gputop, %u N/A "
	       "in both\n",
	       paired, t.match, t.differ, t.shown, t.only_smi, t.only_gputop,
	       t.both_na);
	smi_free(&before);
	smi_free(&after);
	cJSON_Delete(snap);
	return t.differ || paired == 0 ? 1 : 0;
}

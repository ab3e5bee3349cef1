/* SPDX-License-Identifier: MIT */
/*
 * fuzz_config.c - libFuzzer harness of the settings and profile reader:
 * each input is written as gputop.conf in a scratch directory (tmpfs) and
 * read by gt_config_load_profiles (the settings and every [profile NAME]
 * section, through profile.h's reader). Checks the return code and its
 * message, every setting within its documented range, every profile's
 * strings, limits and curves, gt_profile_find and gt_profile_names; then
 * the round trip: gt_config_save over the file and a reload give the same
 * settings and the same profiles.
 */
#include "fuzz_common.h"

#include <limits.h>

#include "config/config.h"
#include "config/profile.h"

static char conf_path[PATH_MAX];

static void check_config(const struct gt_config *c)
{
	FUZZ_CHECK(c->interval_ns >= 100000000ull &&
	           c->interval_ns <= GT_CONFIG_INTERVAL_MAX_NS);
	FUZZ_CHECK(fuzz_terminated(c->theme, sizeof(c->theme)));
	for (const char *p = c->theme; *p; p++)
		FUZZ_CHECK(*p != '"' && (unsigned char)*p >= 0x20 &&
		           *p != 0x7f);
	FUZZ_CHECK(c->glyphs >= -1 && c->glyphs < GT_GLYPHS__COUNT);
	FUZZ_CHECK(c->max_mode >= GT_GPU_FULL && c->max_mode <= GT_GPU_LINE);
	FUZZ_CHECK(c->sort_col >= 0 && c->sort_col < GT_COL__COUNT);
	FUZZ_CHECK(c->columns[GT_COL_COMMAND]);
	FUZZ_CHECK(c->nhidden >= 0 && c->nhidden <= GT_CONFIG_MAX_HIDDEN);
	for (int i = 0; i < c->nhidden; i++) {
		char canon[32];
		const char *id = c->hidden_gpus[i];
		FUZZ_CHECK(fuzz_terminated(id, sizeof(c->hidden_gpus[i])));
		FUZZ_CHECK(gt_config_pci_normalize(id, canon, sizeof(canon)) ==
		           0);
		FUZZ_CHECK(strcmp(canon, id) == 0);
		FUZZ_CHECK(gt_config_gpu_hidden(c, id));
	}
}

static void check_entry(const struct gt_profile_entry *e)
{
	char err[256];
	FUZZ_CHECK(fuzz_terminated(e->gpu, sizeof(e->gpu)));
	FUZZ_CHECK(fuzz_terminated(e->perf_level, sizeof(e->perf_level)));
	FUZZ_CHECK(fuzz_terminated(e->power_profile_name,
	                           sizeof(e->power_profile_name)));
	if (e->key_line[GT_PK_POWER_LIMIT] && !e->power_default)
		FUZZ_CHECK(e->power_mw <= GT_PROFILE_POWER_MAX_MW);
	if (e->key_line[GT_PK_FREQ_MIN])
		FUZZ_CHECK(e->freq_min_mhz <= GT_PROFILE_FREQ_MAX_MHZ);
	if (e->key_line[GT_PK_FREQ_MAX])
		FUZZ_CHECK(e->freq_max_mhz <= GT_PROFILE_FREQ_MAX_MHZ);
	if (e->key_line[GT_PK_POWER_PROFILE])
		FUZZ_CHECK(e->power_profile >= -1 && e->power_profile <= 9);
	if (e->key_line[GT_PK_FAN] && e->fan == GT_PROFILE_FAN_CURVE)
		FUZZ_CHECK(gt_fancurve_validate(&e->curve, err, sizeof(err)) ==
		           0);
	if (e->key_line[GT_PK_FAN_HYSTERESIS])
		FUZZ_CHECK(e->hysteresis_mc >= 0 &&
		           e->hysteresis_mc <= GT_PROFILE_HYSTERESIS_MAX_MC);
	if (e->key_line[GT_PK_FAN_DOWN_DELAY])
		FUZZ_CHECK(e->down_delay_ns <= GT_PROFILE_DOWN_DELAY_MAX_NS);
}

static void check_profiles(const struct gt_profile_list *l)
{
	FUZZ_CHECK(l->n <= GT_PROFILE_MAX_PROFILES);
	FUZZ_CHECK(fuzz_terminated(l->problem, sizeof(l->problem)));
	for (size_t i = 0; i < l->n; i++) {
		const struct gt_profile *p = &l->v[i];
		FUZZ_CHECK(fuzz_terminated(p->name, sizeof(p->name)));
		FUZZ_CHECK(p->name[0] != '\0' && p->name[0] != '-');
		FUZZ_CHECK(p->nentries <= GT_PROFILE_MAX_BLOCKS);
		FUZZ_CHECK(fuzz_terminated(p->problem, sizeof(p->problem)));
		if (p->nproblems)
			FUZZ_CHECK(l->nproblems > 0);
		for (size_t k = 0; k < p->nentries; k++)
			check_entry(&p->entry[k]);
		/* a name finds the first profile of that name */
		const struct gt_profile *f = gt_profile_find(l, p->name);
		FUZZ_CHECK(f != NULL && f <= p);
	}
	char names[64];
	size_t need = gt_profile_names(l, names, sizeof(names));
	FUZZ_CHECK(strlen(names) ==
	           (need < sizeof(names) ? need : sizeof(names) - 1));
}

/* Compares the settings (strings up to their NUL: the bytes after it are
 * whatever an earlier line left); says on stderr which differ. */
static bool same_config(const struct gt_config *a, const struct gt_config *b)
{
	bool same = true;
	if (a->interval_ns != b->interval_ns) {
		fprintf(stderr, "interval_ns %llu -> %llu\n",
		        (unsigned long long)a->interval_ns,
		        (unsigned long long)b->interval_ns);
		same = false;
	}
	if (strcmp(a->theme, b->theme) != 0) {
		fprintf(stderr, "theme '%s' -> '%s'\n", a->theme, b->theme);
		same = false;
	}
	if (a->glyphs != b->glyphs || a->fahrenheit != b->fahrenheit ||
	    a->show_processes != b->show_processes ||
	    a->show_graphs != b->show_graphs || a->max_mode != b->max_mode ||
	    a->sort_col != b->sort_col || a->sort_reverse != b->sort_reverse) {
		fprintf(stderr, "a word setting differs\n");
		same = false;
	}
	if (memcmp(a->columns, b->columns, sizeof(a->columns)) != 0) {
		fprintf(stderr, "columns differ\n");
		same = false;
	}
	bool hidden = a->nhidden == b->nhidden;
	for (int i = 0; hidden && i < a->nhidden; i++)
		hidden = strcmp(a->hidden_gpus[i], b->hidden_gpus[i]) == 0;
	if (!hidden) {
		fprintf(stderr, "hide_gpus differ\n");
		same = false;
	}
	return same;
}

static bool same_profiles(const struct gt_profile_list *a,
                          const struct gt_profile_list *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i].name, b->v[i].name) != 0 ||
		    a->v[i].nentries != b->v[i].nentries ||
		    a->v[i].nproblems != b->v[i].nproblems)
			return false;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gt_config c, again;
	struct gt_profile_list *l = NULL, *l2 = NULL;
	char err[512];

	if (size > GT_CONFIG_MAX_BYTES)
		return 0;
	if (!conf_path[0])
		snprintf(conf_path, sizeof(conf_path), "%s/gputop.conf",
		         fuzz_dir());
	fuzz_write_file(conf_path, data, size);

	err[0] = 'x';
	int rc = gt_config_load_profiles(conf_path, &c, &l, err, sizeof(err));
	FUZZ_CHECK(rc == 0 || rc == 1);
	FUZZ_CHECK(fuzz_terminated(err, sizeof(err)));
	FUZZ_CHECK((rc == 0) == (err[0] == '\0'));
	FUZZ_CHECK(l != NULL && l->exists);
	check_config(&c);
	check_profiles(l);

	/* round trip: save over the file, read it back */
	FUZZ_CHECK(gt_config_save(conf_path, &c, err, sizeof(err)) == 0);
	rc = gt_config_load_profiles(conf_path, &again, &l2, err, sizeof(err));
	FUZZ_CHECK(rc == 0 || rc == 1);
	bool same = same_config(&c, &again);
	if (!same) {
		FILE *f = fopen(conf_path, "r");
		char line[256];
		while (f && fgets(line, sizeof(line), f))
			fprintf(stderr, "saved| %s", line);
		if (f)
			fclose(f);
	}
	FUZZ_CHECK(same);
	FUZZ_CHECK(same_profiles(l, l2));
	gt_profile_list_free(l);
	gt_profile_list_free(l2);
	return 0;
}

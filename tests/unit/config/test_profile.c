/* SPDX-License-Identifier: MIT */
/*
 * test_profile.c - tests of src/config/profile.c and of its place in
 * gputop.conf: good profiles read into the structs; every kind of bad line
 * reported with its line, cause and fix, and the profile marked; bad
 * headers and duplicate profiles; matching precedence; lookup and the
 * not-found message; the settings still loaded from a file with profiles;
 * and a settings save that keeps every profile section byte for byte. The
 * values and their units are test_profile_values.c's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "config/profile.h"
#include "control/fancurve.h"

#include "support/conf_test.h"
#include "support/profile_test.h"

/* ---- good profiles ------------------------------------------------------ */

static const char good[] = "# my GPUs\n"                                 /* 1 */
                           "[dashboard]\n"                               /* 2 */
                           "interval = 2\n"                              /* 3 */
                           "\n"                                          /* 4 */
                           "[profile quiet-night]   # for sleeping\n"    /* 5 */
                           "gpu = 0000:01:00.0      # the NVIDIA card\n" /* 6 */
                           "power_limit = 250W\n"                        /* 7 */
                           "fan = quiet\n"                               /* 8 */
                           "fan_hysteresis = 2.5C\n"                     /* 9 */
                           "fan_down_delay = 1500ms\n"     /* 10 */
                           "fans = 0, 1\n"                 /* 11 */
                           "\n"                            /* 12 */
                           "GPU = *\n"                     /* 13 */
                           "Perf_Level = MANUAL\n"         /* 14 */
                           "power_profile = \"COMPUTE\"\n" /* 15 */
                           "freq_min = 300MHz\n"           /* 16 */
                           "freq_max = 1800 MHz\n"         /* 17 */
                           "fan = 40:30, 60:50, 80:100\n"  /* 18 */
                           "\n"                            /* 19 */
                           "[PROFILE Max.Perf_2]\n"        /* 20 */
                           "gpu = 00000000:0C:00.0\n"      /* 21 */
                           "power_limit = default\n"       /* 22 */
                           "power_profile = 5\n"           /* 23 */
                           "perf_level = manual\n"         /* 24 */
                           "fan = auto\n"                  /* 25 */
                           "fans = all\n"                  /* 26 */
                           "gpu = 2a:00.0\n"               /* 27 */
                           "power_limit = 300500mW\n"      /* 28 */
                           "[dashboard]\n"                 /* 29 */
                           "graphs = no\n";                /* 30 */

/* The first profile of good, [profile quiet-night]: its two blocks. */
static void check_quiet_night(const struct gt_profile *p)
{
	struct gt_fancurve quiet;
	struct gt_fanloop_config def;

	assert_string_equal(p->name, "quiet-night");
	assert_int_equal(p->line, 5);
	assert_int_equal(p->nproblems, 0);
	assert_int_equal(p->nentries, 2);

	const struct gt_profile_entry *e = &p->entry[0];
	assert_string_equal(e->gpu, "0000:01:00.0");
	assert_int_equal(e->line, 6);
	assert_int_equal(e->key_line[GT_PK_POWER_LIMIT], 7);
	assert_int_equal(e->power_mw, 250000);
	assert_false(e->power_default);
	assert_int_equal(e->key_line[GT_PK_FAN], 8);
	assert_int_equal(e->fan, GT_PROFILE_FAN_CURVE);
	assert_int_equal(e->fan_preset, GT_FAN_PRESET_QUIET);
	assert_int_equal(gt_fancurve_preset(GT_FAN_PRESET_QUIET, &quiet), 0);
	assert_memory_equal(&e->curve, &quiet, sizeof(quiet));
	assert_int_equal(e->hysteresis_mc, 2500);
	assert_int_equal(e->down_delay_ns, 1500000000ull);
	assert_int_equal(e->fan_mask, 0x3);
	/* Settings not given. */
	assert_int_equal(e->key_line[GT_PK_PERF_LEVEL], 0);
	assert_int_equal(e->key_line[GT_PK_POWER_PROFILE], 0);
	assert_int_equal(e->key_line[GT_PK_FREQ_MIN], 0);
	assert_int_equal(e->key_line[GT_PK_FREQ_MAX], 0);

	e = &p->entry[1];
	assert_string_equal(e->gpu, "*");
	assert_int_equal(e->line, 13);
	assert_string_equal(e->perf_level, "manual");
	assert_int_equal(e->key_line[GT_PK_POWER_PROFILE], 15);
	assert_int_equal(e->power_profile, -1);
	assert_string_equal(e->power_profile_name, "COMPUTE");
	assert_int_equal(e->freq_min_mhz, 300);
	assert_int_equal(e->freq_max_mhz, 1800);
	assert_int_equal(e->fan, GT_PROFILE_FAN_CURVE);
	assert_int_equal(e->fan_preset, -1);
	assert_int_equal(e->curve.n, 3);
	assert_int_equal(e->curve.pt[0].temp_mc, 40000);
	assert_int_equal(e->curve.pt[0].cpercent, 3000);
	assert_int_equal(e->curve.pt[2].temp_mc, 80000);
	assert_int_equal(e->curve.pt[2].cpercent, 10000);
	/* Margins not given: the loop's defaults. */
	gt_fanloop_config_default(&def);
	assert_int_equal(e->hysteresis_mc, def.hysteresis_mc);
	assert_int_equal(e->down_delay_ns, def.down_delay_ns);
	assert_int_equal(e->key_line[GT_PK_FAN_HYSTERESIS], 0);
	assert_int_equal(e->fan_mask, 0);
}

static void test_good(void **state)
{
	struct tmp *t = *state;
	struct gt_config c;
	struct gt_profile_list *l;
	char err[512];

	assert_int_equal(load(t, good, &c, &l, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	/* The settings around the profiles are read as ever. */
	assert_int_equal(c.interval_ns, 2000000000ull);
	assert_false(c.show_graphs);

	assert_non_null(l);
	assert_true(l->exists);
	assert_string_equal(l->path, t->path);
	assert_int_equal(l->nproblems, 0);
	assert_int_equal(l->n, 2);

	check_quiet_night(&l->v[0]);

	const struct gt_profile *p = &l->v[1];
	const struct gt_profile_entry *e;
	assert_string_equal(p->name, "Max.Perf_2");
	assert_int_equal(p->nentries, 2);
	e = &p->entry[0];
	assert_string_equal(e->gpu, "0000:0c:00.0"); /* canonical */
	assert_true(e->power_default);
	assert_int_equal(e->power_profile, 5);
	assert_string_equal(e->power_profile_name, "");
	assert_string_equal(e->perf_level, "manual");
	assert_int_equal(e->fan, GT_PROFILE_FAN_AUTO);
	assert_int_equal(e->key_line[GT_PK_FANS], 26);
	assert_int_equal(e->fan_mask, 0);
	e = &p->entry[1];
	assert_string_equal(e->gpu, "0000:2a:00.0");
	assert_int_equal(e->line, 27);
	assert_int_equal(e->power_mw, 300500);
	gt_profile_list_free(l);

	/* gt_config_load reads and checks them too, then drops them. */
	assert_int_equal(gt_config_load(t->path, &c, err, sizeof(err)), 0);
	assert_int_equal(c.interval_ns, 2000000000ull);

	/* gt_profile_load: the same list. */
	assert_int_equal(gt_profile_load(t->path, &l, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(l->n, 2);
	assert_int_equal(l->v[1].entry[1].power_mw, 300500);
	gt_profile_list_free(l);
}

/* ---- bad lines -------------------------------------------------------- */

struct bad_case {
	const char *text; /* after "interval = 2\n[profile p]\n" (lines 1-2) */
	int line;         /* the line reported first */
	const char *msg;  /* part of its text */
	int count;        /* problems in all */
};

static const struct bad_case bad_cases[] = {
    /* Where settings go. */
    {"power_limit = 250W\ngpu = *\nfan = auto\n", 3,
     "power_limit comes before any gpu line; start the block with gpu = * "
     "(every GPU) or gpu = a PCI id such as 0000:01:00.0",
     1},
    {"gpu = *\nfan_speed = 50\n", 4,
     "unknown key 'fan_speed' in a profile (gpu, power_limit, perf_level, "
     "power_profile, freq_min, freq_max, fan, fan_hysteresis, "
     "fan_down_delay, fans)",
     1},
    {"gpu = *\ninterval = 2\nfan = auto\n", 4,
     "unknown key 'interval' in a profile", 1},
    {"gpu = *\npower_limit = 250W\nPOWER_LIMIT = 200W\n", 5,
     "power_limit is already set for this gpu at line 4; keep one of them", 1},
    {"gpu = 01:00.0\nfan = auto\ngpu = 0000:01:00.0\nfan = quiet\n", 5,
     "gpu 0000:01:00.0 already has a block at line 3 of this profile; put "
     "these settings there",
     1},
    {"gpu = *\nfan = auto\ngpu = *\nfan = quiet\n", 5,
     "gpu * already has a block at line 3", 1},
    {"gpu = card0\nfan = auto\n", 3,
     "gpu 'card0' is not a PCI id such as 0000:01:00.0 (see gputop --list) "
     "or * for every GPU",
     1},
    {"gpu = 0000:01:00.0, 0000:02:00.0\nfan = auto\n", 3,
     "gpu '0000:01:00.0, 0000:02:00.0' is not a PCI id", 1},
    /* A block kept out of the profile is still checked. */
    {"gpu = card0\nfan = loud\n", 3, "gpu 'card0' is not a PCI id", 2},
    {"gpu = *\n", 3,
     "gpu * has no settings under it; add some (such as power_limit = 250W "
     "or fan = balanced) or remove the line",
     1},
    {"# nothing\n", 2,
     "[profile p] has no gpu lines; add gpu = * (every GPU) or gpu = a PCI "
     "id such as 0000:01:00.0, each followed by its settings",
     1},
    /* Lines that are not settings. */
    {"gpu = *\nfan = auto\nturn it up\n", 5,
     "expected 'key = value', a [section] or a # comment", 1},
    {"gpu = *\nperf_level = \"auto\n", 4,
     "perf_level: a '\"' without its closing '\"'", 1},
    {"gpu = *\nfan = auto\n= 5\n", 5, "no key before '='", 1},
    /* Values. */
    {"gpu = *\nperf_level = turbo\n", 4,
     "unknown perf_level 'turbo' (auto, low, high, manual, "
     "profile_standard, profile_min_sclk, profile_min_mclk, profile_peak, "
     "profile_exit, perf_determinism)",
     1},
    {"gpu = *\npower_profile = 12\n", 4,
     "power_profile index '12' is not 0..9 (the kernel reads one digit)", 1},
    {"gpu = *\npower_profile = 3D FULL SCREEN\n", 4,
     "power_profile must be an index 0..9 or a name from the card's "
     "pp_power_profile_mode such as COMPUTE",
     1},
    {"gpu = *\npower_profile = \"\"\n", 4, "power_profile must be", 1},
    {"gpu = *\nfan = loud\n", 4,
     "fan must be auto, quiet, balanced, aggressive or points such as "
     "40:30, 60:50, 80:100, not 'loud'",
     1},
    {"gpu = *\nfan = auto\nfans = first\n", 5,
     "fans must be all or fan numbers such as 0, 1, not 'first'", 1},
    {"gpu = *\nfan = auto\nfans = 0, 0\n", 5, "fans lists fan 0 twice", 1},
    {"gpu = *\nfan = auto\nfans = 32\n", 5,
     "fans: fan 32 is beyond the last one gputop drives (31)", 1},
    {"gpu = *\nfan = auto\nfans = 1x\n", 5, "fans must be all", 1},
    {"gpu = *\nfan = auto\nfans = ,\n", 5, "fans must be all", 1},
    /* Checks across a block, whatever the order of its lines. */
    {"gpu = *\nfan_hysteresis = 3C\npower_limit = 200W\n", 4,
     "fan_hysteresis needs a fan curve in the same block; add fan = quiet, "
     "balanced, aggressive or points such as 40:30, 80:100 (line 3 is the "
     "block's gpu line)",
     1},
    {"gpu = *\nfan_down_delay = 3s\nfan = auto\n", 4,
     "fan_down_delay does nothing with fan = auto (line 5); remove it", 1},
    {"gpu = *\nfans = 0\npower_limit = 200W\n", 4,
     "fans says which fans the fan setting drives, and this block has no "
     "fan line; add one (fan = auto, a preset or points) or remove fans",
     1},
    {"gpu = *\nfreq_max = 300MHz\nfreq_min = 1800MHz\n", 5,
     "freq_min 1800 MHz is above freq_max 300 MHz; swap them", 1},
    {"gpu = *\npower_profile = 1\nperf_level = auto\n", 5,
     "power_profile needs perf_level manual (the kernel takes a profile "
     "only then), not auto (line 5); set it to manual or remove it",
     1},
    /* The earliest line is reported first, even when found later. */
    {"gpu = *\nfan_hysteresis = 3C\nturn it up\npower_limit = 1W\n", 4,
     "fan_hysteresis needs a fan curve", 2},
};

static void test_bad_lines(void **state)
{
	struct tmp *t = *state;
	struct gt_config c;
	struct gt_profile_list *l;
	char text[1024], err[1024], want[600];

	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *b = &bad_cases[i];
		snprintf(text, sizeof(text),
		         "interval = 2\n[profile p]\n%s[dashboard]\ngraphs = "
		         "no\n",
		         b->text);
		snprintf(want, sizeof(want), "gputop.conf:%d: %s", b->line,
		         b->msg);
		int r = load(t, text, &c, &l, err, sizeof(err));
		assert_non_null(l);
		if (r != 1 || strncmp(err, want, strlen(want)) != 0)
			fail_msg("case %zu: got %d '%s', want '%s'", i, r, err,
			         want);
		/* The profile is kept, marked, with the same first problem. */
		assert_int_equal(l->n, 1);
		if (l->v[0].nproblems != b->count || l->nproblems != b->count)
			fail_msg("case %zu: %d problems, want %d ('%s')", i,
			         l->v[0].nproblems, b->count, err);
		assert_int_equal(l->v[0].problem_line, b->line);
		assert_true(strncmp(l->v[0].problem, want, strlen(want)) == 0);
		assert_string_equal(l->problem, l->v[0].problem);
		/* The settings around it are untouched. */
		assert_int_equal(c.interval_ns, 2000000000ull);
		assert_false(c.show_graphs);
		gt_profile_list_free(l);
	}
}

struct header_case {
	const char *header;
	const char *msg;
};

static const struct header_case header_cases[] = {
    {"[profile]", "a profile section needs a name: [profile NAME], such as "
                  "[profile quiet-night]"},
    {"[Profile   ]", "a profile section needs a name"},
    {"[profile quiet night]",
     "profile name 'quiet night' may hold only letters, digits, '.', '_' "
     "and '-'; rename it, such as [profile quiet-night]"},
    {"[profile caf\xc3\xa9]", "may hold only letters"},
    {"[profile -x]", "profile name '-x' starts with '-', so --apply would "
                     "read it as an option; rename it"},
    {"[profile "
     "a234567890123456789012345678901234567890123456789012345678901234]",
     "is over 63 characters; shorten it"},
};

/* A refused header: one problem, its lines skipped (they have no
 * profile), and the next section read as ever. */
static void test_bad_headers(void **state)
{
	struct tmp *t = *state;
	struct gt_config c;
	struct gt_profile_list *l;
	char text[512], err[512];

	for (size_t i = 0; i < sizeof(header_cases) / sizeof(header_cases[0]);
	     i++) {
		snprintf(text, sizeof(text),
		         "%s\ngpu = nonsense\nfan = loud\n[profile ok]\ngpu = "
		         "*\nfan = auto\n[dashboard]\ngraphs = no\n",
		         header_cases[i].header);
		assert_int_equal(load(t, text, &c, &l, err, sizeof(err)), 1);
		if (strncmp(err, "gputop.conf:1: ", 15) ||
		    !strstr(err, header_cases[i].msg) || strstr(err, "(and"))
			fail_msg("case %zu: got '%s'", i, err);
		assert_int_equal(l->n, 1);
		assert_string_equal(l->v[0].name, "ok");
		assert_int_equal(l->v[0].nproblems, 0);
		assert_int_equal(l->nproblems, 1);
		assert_false(c.show_graphs);
		gt_profile_list_free(l);
	}
	/* "[profiles]" is not a profile section: the unknown-section note. */
	assert_int_equal(
	    load(t, "[profiles]\nx = 1\n", &c, &l, err, sizeof(err)), 1);
	assert_string_equal(err, "gputop.conf:1: section [profiles] is not "
	                         "used by this version of gputop; it is kept "
	                         "as it is");
	assert_int_equal(l->n, 0);
	assert_int_equal(l->nproblems, 0);
	gt_profile_list_free(l);
}

static void test_duplicate_profile(void **state)
{
	struct tmp *t = *state;
	struct gt_config c;
	struct gt_profile_list *l;
	char err[512];
	const struct gt_profile *p;

	assert_int_equal(load(t,
	                      "[profile quiet]\ngpu = *\nfan = quiet\n"
	                      "[profile other]\ngpu = *\nfan = auto\n"
	                      "[profile QUIET]\ngpu = *\nfan = balanced\n",
	                      &c, &l, err, sizeof(err)),
	                 1);
	assert_string_equal(err, "gputop.conf:7: a second [profile QUIET] (the "
	                         "first is at line 1); rename or merge them");
	assert_int_equal(l->n, 3);
	/* Both are marked: neither may be applied. */
	p = gt_profile_find(l, "quiet");
	assert_ptr_equal(p, &l->v[0]);
	assert_int_equal(p->nproblems, 1);
	assert_string_equal(p->problem, err);
	assert_int_equal(l->v[2].nproblems, 1);
	assert_string_equal(l->v[2].problem, err);
	/* The other profile is fine. */
	assert_int_equal(gt_profile_find(l, "other")->nproblems, 0);
	gt_profile_list_free(l);
}

/* A file of 60,000 headers (it fits the 1 MiB cap) used to take over a
 * minute and 500 MB: the list grew by one per header and each name was
 * compared with every earlier one. Now the first GT_PROFILE_MAX_PROFILES
 * are kept, the rest reported once and ignored. */
static void test_too_many_profiles(void **state)
{
	struct tmp *t = *state;
	enum { HEADERS = 60000 };
	size_t cap = (size_t)1 << 20, len = 0;
	char *text = malloc(cap);
	struct gt_profile_list *l;
	char err[512], want[200];

	assert_non_null(text);
	/* Whole profiles up to the bound, then bare headers (a whole one
	 * each would not fit the 1 MiB cap 60,000 times). */
	for (int i = 0; i < HEADERS; i++) {
		int n = snprintf(text + len, cap - len,
		                 i < GT_PROFILE_MAX_PROFILES
		                     ? "[profile p%d]\ngpu = *\nfan = auto\n"
		                     : "[profile p%d]\n",
		                 i);
		assert_true(n > 0 && (size_t)n < cap - len);
		len += (size_t)n;
	}
	assert_true(len < (size_t)1 << 20);
	write_bytes(t->path, text, len);
	free(text);
	assert_int_equal(gt_profile_load(t->path, &l, err, sizeof(err)), 0);
	assert_int_equal(l->n, GT_PROFILE_MAX_PROFILES);
	assert_string_equal(l->v[GT_PROFILE_MAX_PROFILES - 1].name, "p255");
	assert_int_equal(l->nproblems, 1);
	snprintf(want, sizeof(want),
	         "gputop.conf:%d: more than %d profiles: [profile p%d] and the "
	         "sections after it are ignored; keep fewer profiles in the "
	         "file",
	         GT_PROFILE_MAX_PROFILES * 3 + 1, GT_PROFILE_MAX_PROFILES,
	         GT_PROFILE_MAX_PROFILES);
	assert_string_equal(l->problem, want);
	/* The kept ones are whole and have no problem of their own. */
	assert_int_equal(gt_profile_find(l, "p0")->nproblems, 0);
	assert_null(gt_profile_find(l, "p256"));
	gt_profile_list_free(l);
}

/* ---- matching and lookup ------------------------------------------------ */

static void test_match(void **state)
{
	struct tmp *t = *state;
	struct gt_config c;
	struct gt_profile_list *l;
	char err[512];
	const struct gt_profile *p;
	const struct gt_profile_entry *e;

	/* "*" first, so that an exact block wins by kind, not by order. */
	assert_int_equal(load(t,
	                      "[profile mixed]\n"
	                      "gpu = *\nfan = auto\n"
	                      "gpu = 0000:01:00.0\npower_limit = 200W\n"
	                      "gpu = 10000:3A:00.1\npower_limit = 150W\n"
	                      "[profile only-one]\n"
	                      "gpu = 0000:01:00.0\npower_limit = 100W\n",
	                      &c, &l, err, sizeof(err)),
	                 0);
	p = gt_profile_find(l, "mixed");
	assert_non_null(p);
	/* The exact PCI id beats "*", in any form of the id. */
	static const char *const ids[] = {"0000:01:00.0", "01:00.0",
	                                  "00000000:01:00.0", "0000:01:00.0"};
	for (int i = 0; i < 4; i++) {
		e = gt_profile_match(p, ids[i]);
		assert_non_null(e);
		assert_string_equal(e->gpu, "0000:01:00.0");
		assert_int_equal(e->power_mw, 200000);
		/* No merging: the star block's fan is not this GPU's. */
		assert_int_equal(e->key_line[GT_PK_FAN], 0);
	}
	e = gt_profile_match(p, "10000:3a:00.1");
	assert_non_null(e);
	assert_int_equal(e->power_mw, 150000);
	/* Any other GPU: the "*" block. */
	e = gt_profile_match(p, "0000:02:00.0");
	assert_non_null(e);
	assert_string_equal(e->gpu, "*");
	assert_int_equal(e->fan, GT_PROFILE_FAN_AUTO);
	assert_null(gt_profile_match(p, "not a pci id"));
	assert_null(gt_profile_match(p, NULL));
	assert_null(gt_profile_match(NULL, "0000:01:00.0"));
	/* Without "*", other GPUs are left alone. */
	p = gt_profile_find(l, "ONLY-ONE");
	assert_non_null(p);
	assert_non_null(gt_profile_match(p, "0000:01:00.0"));
	assert_null(gt_profile_match(p, "0000:02:00.0"));
	gt_profile_list_free(l);
}

static void test_find_names_not_found(void **state)
{
	struct tmp *t = *state;
	struct gt_config c;
	struct gt_profile_list *l;
	char err[512], buf[512], want[512], small[8];

	assert_int_equal(load(t,
	                      "[profile a]\ngpu = *\nfan = auto\n"
	                      "[profile b.2]\ngpu = *\nfan = auto\n"
	                      "[profile c_3]\ngpu = *\nfan = auto\n",
	                      &c, &l, err, sizeof(err)),
	                 0);
	assert_null(gt_profile_find(l, "d"));
	assert_null(gt_profile_find(l, NULL));
	assert_null(gt_profile_find(NULL, "a"));
	assert_ptr_equal(gt_profile_find(l, "B.2"), &l->v[1]);
	assert_int_equal(gt_profile_names(l, buf, sizeof(buf)), 11);
	assert_string_equal(buf, "a, b.2, c_3");
	/* A short buffer is cut, never overrun; the need is returned. */
	assert_int_equal(gt_profile_names(l, small, sizeof(small)), 11);
	assert_string_equal(small, "a, b.2,");
	assert_int_equal(gt_profile_names(l, NULL, 0), 11);
	gt_profile_not_found(l, "x", buf, sizeof(buf));
	snprintf(want, sizeof(want),
	         "no profile 'x'; profiles in %s: a, b.2, "
	         "c_3",
	         t->path);
	assert_string_equal(buf, want);
	/* A name from the command line is shown escaped. */
	gt_profile_not_found(l, "\x1b]0;x", buf, sizeof(buf));
	assert_non_null(strstr(buf, "no profile '\\e]0;x'"));
	gt_profile_list_free(l);

	/* A file without profiles. */
	assert_int_equal(load(t, "interval = 2\n", &c, &l, err, sizeof(err)),
	                 0);
	assert_int_equal(gt_profile_names(l, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	gt_profile_not_found(l, "x", buf, sizeof(buf));
	snprintf(want, sizeof(want),
	         "no profile 'x': %s has no [profile NAME] sections", t->path);
	assert_string_equal(buf, want);
	gt_profile_list_free(l);

	/* No file at all: an empty list, not an error. */
	unlink(t->path);
	assert_int_equal(gt_profile_load(t->path, &l, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_false(l->exists);
	assert_int_equal(l->n, 0);
	gt_profile_not_found(l, "x", buf, sizeof(buf));
	snprintf(want, sizeof(want), "no profile 'x': %s does not exist",
	         t->path);
	assert_string_equal(buf, want);
	gt_profile_list_free(l);

	/* A file that cannot be read: -1, no list. */
	assert_int_equal(mkdir(t->path, 0700), 0);
	l = (struct gt_profile_list *)1;
	assert_int_equal(gt_profile_load(t->path, &l, err, sizeof(err)), -1);
	assert_null(l);
	assert_non_null(strstr(err, "it is a directory"));
	assert_int_equal(
	    gt_config_load_profiles(t->path, &c, &l, err, sizeof(err)), -1);
	assert_null(l);
	assert_int_equal(rmdir(t->path), 0);

	assert_string_equal(gt_profile_key_name(GT_PK_FAN_DOWN_DELAY),
	                    "fan_down_delay");
	assert_string_equal(gt_profile_key_name(GT_PK__COUNT), "?");
	gt_profile_list_free(NULL);
}

/* Each profile stands alone: a bad one does not spoil the others, and
 * problems in the settings are not the profiles'. */
static void test_problems_isolated(void **state)
{
	struct tmp *t = *state;
	struct gt_config c;
	struct gt_profile_list *l;
	char err[512];

	assert_int_equal(load(t,
	                      "glyphs = purple\n"
	                      "[profile bad]\ngpu = *\nfan = loud\n"
	                      "power_limit = 9\n"
	                      "[profile good]\ngpu = *\nfan = auto\n",
	                      &c, &l, err, sizeof(err)),
	                 1);
	assert_string_equal(err, "gputop.conf:1: unknown value 'purple' for "
	                         "glyphs (braille, block, ascii, auto) (and 2 "
	                         "more problems)");
	assert_int_equal(l->nproblems, 2);
	assert_int_equal(l->problem_line, 4);
	assert_int_equal(gt_profile_find(l, "bad")->nproblems, 2);
	assert_non_null(
	    strstr(gt_profile_find(l, "bad")->problem, "gputop.conf:4: fan "));
	assert_int_equal(gt_profile_find(l, "good")->nproblems, 0);
	assert_string_equal(gt_profile_find(l, "good")->problem, "");
	gt_profile_list_free(l);

	/* gt_profile_load does not speak for the settings. */
	assert_int_equal(gt_profile_load(t->path, &l, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(l->nproblems, 2);
	gt_profile_list_free(l);
}

/* The reader on its own: no report callback, no path; NULL is safe. */
static void test_reader_direct(void **state)
{
	(void)state;
	struct gt_profile_reader *r =
	    gt_profile_reader_new(NULL, NULL, NULL, NULL);
	struct gt_profile_list *l;
	assert_non_null(r);
	assert_false(gt_profile_reader_section(r, "dashboard", 1));
	gt_profile_reader_line(r, 2, "gpu", "*", NULL); /* not in a profile */
	assert_true(gt_profile_reader_section(r, "profile x", 3));
	gt_profile_reader_line(r, 4, "gpu", "*", NULL);
	gt_profile_reader_line(r, 5, "fan", "auto", NULL);
	gt_profile_reader_line(r, 6, NULL, NULL, "some problem");
	l = gt_profile_reader_finish(r);
	assert_non_null(l);
	assert_null(l->path);
	assert_int_equal(l->n, 1);
	assert_int_equal(l->v[0].nentries, 1);
	assert_string_equal(l->v[0].problem, "gputop.conf:6: some problem");
	gt_profile_list_free(l);
	assert_false(gt_profile_reader_section(NULL, "profile x", 1));
	gt_profile_reader_line(NULL, 1, "gpu", "*", NULL);
	assert_null(gt_profile_reader_finish(NULL));
}

/* ---- saving the settings keeps the profiles ----------------------------- */

/* The profile sections of a file: from its first "[profile" to the first
 * "[dashboard]" after it, or the end. */
static char *profile_part(const char *text)
{
	const char *a = strstr(text, "[profile");
	assert_non_null(a);
	const char *b = strstr(a, "[dashboard]");
	size_t n = b ? (size_t)(b - a) : strlen(a);
	char *s = malloc(n + 1);
	assert_non_null(s);
	memcpy(s, a, n);
	s[n] = '\0';
	return s;
}

static const char profiles_text[] =
    "[profile quiet-night]   # for sleeping\n"
    "# the NVIDIA card\n"
    "  gpu=0000:01:00.0\n"
    "power_limit = 250W\t# not more\n"
    "fan = \"40:30, 60:50, 80:100\"\n"
    "fan_hysteresis = 3C\r\n"
    "\n"
    "GPU = *\n"
    "perf_level = auto\n"
    "this line is wrong and must stay as it is\n"
    "interval = 9\n"
    "[profile second]\n"
    "gpu = *\n"
    "fan = quiet\n"
    "\n";

static void save_and_compare(struct tmp *t, const char *before,
                             const char *expect_profiles)
{
	struct gt_config a, b;
	struct gt_profile_list *l1, *l2;
	char err[512];

	write_text(t->path, before);
	assert_true(
	    gt_config_load_profiles(t->path, &b, &l1, err, sizeof(err)) >= 0);
	gt_config_defaults(&a);
	a.interval_ns = 500000000ull;
	a.show_graphs = false;
	assert_int_equal(gt_config_set_gpu_hidden(&a, "0000:01:00.0", true), 0);
	assert_int_equal(gt_config_save(t->path, &a, err, sizeof(err)), 0);

	char *after = read_text(t->path);
	char *part = profile_part(after);
	assert_string_equal(part, expect_profiles);
	/* The settings are saved; the profiles read back the same. */
	assert_true(
	    gt_config_load_profiles(t->path, &b, &l2, err, sizeof(err)) >= 0);
	assert_int_equal(b.interval_ns, 500000000ull);
	assert_false(b.show_graphs);
	assert_true(gt_config_gpu_hidden(&b, "01:00.0"));
	assert_int_equal(l1->n, l2->n);
	for (size_t i = 0; i < l1->n; i++) {
		assert_string_equal(l1->v[i].name, l2->v[i].name);
		assert_int_equal(l1->v[i].nentries, l2->v[i].nentries);
		assert_int_equal(l1->v[i].nproblems, l2->v[i].nproblems);
		for (size_t j = 0; j < l1->v[i].nentries; j++) {
			struct gt_profile_entry x, y;
			/* memcpy: padding bytes too (zeroed by the reader). */
			memcpy(&x, &l1->v[i].entry[j], sizeof(x));
			memcpy(&y, &l2->v[i].entry[j], sizeof(y));
			/* Lines may move: the settings were rewritten. */
			x.line = y.line = 0;
			memset(x.key_line, 0, sizeof(x.key_line));
			memset(y.key_line, 0, sizeof(y.key_line));
			assert_memory_equal(&x, &y, sizeof(x));
		}
	}
	/* Saving again changes nothing at all. */
	assert_int_equal(gt_config_save(t->path, &a, err, sizeof(err)), 0);
	char *again = read_text(t->path);
	assert_string_equal(again, after);
	free(again);
	free(part);
	free(after);
	gt_profile_list_free(l1);
	gt_profile_list_free(l2);
}

static void test_save_keeps_profiles(void **state)
{
	struct tmp *t = *state;
	char text[4096];

	/* Profiles after the settings. */
	snprintf(text, sizeof(text), "[dashboard]\ninterval = 2\n\n%s",
	         profiles_text);
	save_and_compare(t, text, profiles_text);

	/* Profiles between two [dashboard] sections, settings in both. */
	snprintf(text, sizeof(text),
	         "# mine\ninterval = 2\n%s[dashboard]\ngraphs = yes\n",
	         profiles_text);
	save_and_compare(t, text, profiles_text);

	/* Profiles only: a [dashboard] section is put before them. */
	save_and_compare(t, profiles_text, profiles_text);
	char *after = read_text(t->path);
	assert_true(strncmp(after, "[dashboard]\n", 12) == 0);
	free(after);

	/* A profile last in a file without a final newline: its bytes are
	 * kept and the line is ended. */
	snprintf(text, sizeof(text),
	         "interval = 2\n[profile p]\ngpu = *\n"
	         "fan = auto");
	save_and_compare(t, text, "[profile p]\ngpu = *\nfan = auto\n");
}

#define T(f) cmocka_unit_test_setup_teardown(f, tmp_setup, tmp_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_good),
	    T(test_bad_lines),
	    T(test_bad_headers),
	    T(test_duplicate_profile),
	    T(test_too_many_profiles),
	    T(test_match),
	    T(test_find_names_not_found),
	    T(test_problems_isolated),
	    T(test_reader_direct),
	    T(test_save_keeps_profiles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

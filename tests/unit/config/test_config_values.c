/* SPDX-License-Identifier: MIT */
/*
 * test_config_values.c - tests of the settings' values
 * (src/config/config_values.c, and the PCI ids of src/config/config_text.c):
 * defaults; every key and its synonyms; every malformed line reported with
 * its line number while its setting keeps its value; out-of-range fields
 * saved as the nearest valid value; PCI ids and the hidden GPUs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"

#include "support/conf_test.h"
#include "support/config_test.h"

static void test_defaults(void **state)
{
	struct gt_config c;
	(void)state;
	memset(&c, 0x5a, sizeof(c));
	gt_config_defaults(&c);
	assert_int_equal(c.interval_ns, 1000000000ull);
	assert_string_equal(c.theme, "");
	assert_int_equal(c.glyphs, -1);
	assert_false(c.fahrenheit);
	assert_true(c.show_processes);
	assert_true(c.show_graphs);
	assert_int_equal(c.max_mode, GT_GPU_FULL);
	for (int i = 0; i < GT_COL__COUNT; i++)
		assert_true(c.columns[i]);
	assert_int_equal(c.sort_col, GT_COL_GPU);
	assert_false(c.sort_reverse);
	assert_int_equal(c.nhidden, 0);
}

static void test_every_key(void **state)
{
	struct tmp *t = *state;
	struct gt_config c;
	char err[256];
	assert_int_equal(load_text(t,
	                           "interval = 2.5\n"
	                           "theme = midnight\n"
	                           "glyphs = block\n"
	                           "temperature = fahrenheit\n"
	                           "processes = no\n"
	                           "graphs = no\n"
	                           "panels = compact\n"
	                           "columns = pid, gpu,vram\n"
	                           "sort = cpu\n"
	                           "sort_reverse = yes\n"
	                           "hide_gpus = 0000:18:00.0, 0000:2A:00.0\n",
	                           &c, err, sizeof(err)),
	                 0);
	assert_string_equal(err, "");
	assert_int_equal(c.interval_ns, 2500000000ull);
	assert_string_equal(c.theme, "midnight");
	assert_int_equal(c.glyphs, GT_GLYPHS_BLOCK);
	assert_true(c.fahrenheit);
	assert_false(c.show_processes);
	assert_false(c.show_graphs);
	assert_int_equal(c.max_mode, GT_GPU_COMPACT);
	for (int i = 0; i < GT_COL__COUNT; i++)
		assert_int_equal(c.columns[i],
		                 i == GT_COL_PID || i == GT_COL_GPU ||
		                     i == GT_COL_VRAM || i == GT_COL_COMMAND);
	assert_int_equal(c.sort_col, GT_COL_CPU);
	assert_true(c.sort_reverse);
	assert_int_equal(c.nhidden, 2);
	assert_string_equal(c.hidden_gpus[0], "0000:18:00.0");
	assert_string_equal(c.hidden_gpus[1], "0000:2a:00.0");
}

/* Synonyms and the other values of each key. */
static void test_every_key_other_values(void **state)
{
	struct tmp *t = *state;
	struct gt_config c;
	char err[256];
	assert_int_equal(
	    load_text(t,
	              "INTERVAL = 0.1s\n"
	              "Theme = \"\"\n"
	              "glyphs = TTY\n"
	              "temperature = C\n"
	              "processes = on\n"
	              "graphs = 1\n"
	              "panels = line\n"
	              "columns = command\n"
	              "sort = host_mem\n"
	              "sort_reverse = false\n"
	              "hide_gpus = 18:00.0 00000000:18:00.0 none3:00.1\n",
	              &c, err, sizeof(err)),
	    1);
	/* "none3:00.1" is not an id: the whole hide_gpus line is refused. */
	assert_int_equal(c.nhidden, 0);
	assert_int_equal(c.interval_ns, 100000000ull);
	assert_string_equal(c.theme, "");
	assert_int_equal(c.glyphs, GT_GLYPHS_ASCII);
	assert_false(c.fahrenheit);
	assert_true(c.show_processes);
	assert_true(c.show_graphs);
	assert_int_equal(c.max_mode, GT_GPU_LINE);
	for (int i = 0; i < GT_COL__COUNT; i++)
		assert_int_equal(c.columns[i], i == GT_COL_COMMAND);
	assert_int_equal(c.sort_col, GT_COL_HOST_MEM);
	assert_false(c.sort_reverse);

	/* Rounded to the nearest nanosecond. */
	assert_int_equal(
	    load_text(t, "interval = 1.0000000005\n", &c, err, sizeof(err)), 0);
	assert_int_equal(c.interval_ns, 1000000001ull);
	assert_int_equal(
	    load_text(t, "interval = 0.12345678949 s\n", &c, err, sizeof(err)),
	    0);
	assert_int_equal(c.interval_ns, 123456789ull);

	assert_int_equal(
	    load_text(t,
	              "interval = 3600\nglyphs = braille\npanels = "
	              "full\ncolumns = all\n"
	              "hide_gpus = 18:00.0 00000000:18:00.0, 10000:01:1f.7\n"
	              "glyphs = auto\ntheme = ../my themes/x.theme\n",
	              &c, err, sizeof(err)),
	    0);
	assert_int_equal(c.interval_ns, 3600000000000ull);
	assert_int_equal(c.glyphs, -1); /* the last line wins */
	assert_int_equal(c.max_mode, GT_GPU_FULL);
	for (int i = 0; i < GT_COL__COUNT; i++)
		assert_true(c.columns[i]);
	assert_string_equal(c.theme, "../my themes/x.theme");
	assert_int_equal(c.nhidden, 2); /* the same GPU twice counts once */
	assert_string_equal(c.hidden_gpus[0], "0000:18:00.0");
	assert_string_equal(c.hidden_gpus[1], "10000:01:1f.7");
	/* An empty list: only COMMAND, no GPU hidden. */
	assert_int_equal(
	    load_text(t, "columns =\nhide_gpus = 1:0.0\nhide_gpus =\n", &c, err,
	              sizeof(err)),
	    0);
	for (int i = 0; i < GT_COL__COUNT; i++)
		assert_int_equal(c.columns[i], i == GT_COL_COMMAND);
	assert_int_equal(c.nhidden, 0);
}

struct bad_case {
	const char *line;
	size_t len;      /* 0: strlen */
	const char *msg; /* what follows "gputop.conf:N: " */
};

static const struct bad_case bad_cases[] = {
    {"interval = fast", 0,
     "interval must be a number of seconds from 0.1 to 3600, not 'fast'"},
    {"interval = 0.05", 0,
     "interval must be a number of seconds from 0.1 to 3600, not '0.05'"},
    {"interval = 3600.5", 0,
     "interval must be a number of seconds from 0.1 to 3600"},
    {"interval = 99999999999999999999", 0, "interval must be a number"},
    {"interval = -1", 0, "not '-1'"},
    {"interval = 1.5.2", 0, "not '1.5.2'"},
    {"interval =", 0, "not ''"},
    {"interval = 1,5", 0, "not '1,5'"},
    {"theme = \"midnight", 0, "theme: a '\"' without its closing '\"'"},
    {"theme = a\x1b[31mb", 0,
     "theme name 'a\\e[31mb' holds a control character or '\"'"},
    {"theme = \"a\"b\"", 0, "theme name 'a\"b' holds a control character"},
    {"glyphs = purple", 0,
     "unknown value 'purple' for glyphs (braille, block, ascii, auto)"},
    {"temperature = kelvin", 0,
     "unknown value 'kelvin' for temperature (celsius, fahrenheit)"},
    {"processes = maybe", 0, "unknown value 'maybe' for processes (yes, no)"},
    {"graphs = 2", 0, "unknown value '2' for graphs (yes, no)"},
    {"sort_reverse =", 0, "unknown value '' for sort_reverse (yes, no)"},
    {"panels = huge", 0,
     "unknown value 'huge' for panels (auto, compact, line)"},
    {"columns = pid, bogus", 0,
     "unknown column 'bogus' for columns (pid, user, dev, type, gpu, vram, "
     "enc, dec, cpu, host_mem, container, command)"},
    {"columns = "
     "pid,pid,pid,pid,pid,pid,pid,pid,pid,pid,pid,pid,pid,pid,pid,pid,"
     "pid,pid,pid,pid,pid,pid,pid,pid,pid,pid,pid,pid,pid,pid,pid,pid,pid,pid,"
     "pid,pid,pid,pid,pid,pid,pid,pid,pid,pid,pid,pid,pid,pid,pid",
     0, "columns lists more than 32 items"},
    {"sort = size", 0, "unknown column 'size' for sort (pid, user,"},
    {"hide_gpus = 0000:18:00.0, gpu1", 0,
     "'gpu1' is not a PCI id for hide_gpus (e.g. 0000:18:00.0)"},
    {"hide_gpus = 18:20.0", 0, "'18:20.0' is not a PCI id"},
    {"hide_gpus = 100:00.0", 0, "'100:00.0' is not a PCI id"},
    {"hide_gpus = 18:00.8", 0, "'18:00.8' is not a PCI id"},
    {"hide_gpus = 123456789:18:00.0", 0, "'123456789:18:00.0' is not a PCI id"},
    {"hide_gpus = 1:2:3:4.0", 0, "is not a PCI id"},
    {"hide_gpus = 1:2 3:4 5:6 7:8 9:a b:c d:e f:10 11:12 13:14 15:16 17:18 "
     "19:1a 1b:1c 1d:1e 1f:1f 1:1f",
     0, "'1:2' is not a PCI id"},
    {"hide_gpus = 0:0.0 1:0.0 2:0.0 3:0.0 4:0.0 5:0.0 6:0.0 7:0.0 8:0.0 9:0.0 "
     "a:0.0 b:0.0 c:0.0 d:0.0 e:0.0 f:0.0 10:0.0",
     0, "hide_gpus lists more than 16 GPUs"},
    {"colour = red", 0, "unknown key 'colour'"},
    {"just some words", 0,
     "expected 'key = value', a [section] or a # comment"},
    {"[dashboard", 0, "'[' without a closing ']'"},
    {"[dashboard] graphs = no", 0, "text after a section's ']'"},
    {"[ ]", 0, "a section without a name"},
    {"= 5", 0, "no key before '='"},
    {"graphs = no\0x", 13, "the line holds a NUL byte"},
};

/* Each malformed line: load returns 1, names the line (after 1 to 3 lines
 * of other text) and the problem, and every setting keeps its default. */
static void test_malformed_lines(void **state)
{
	struct tmp *t = *state;
	struct gt_config c, d;
	char text[1024], err[512], want[512];
	gt_config_defaults(&d);
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *b = &bad_cases[i];
		size_t len = b->len ? b->len : strlen(b->line);
		int pre = (int)(i % 3) + 1, n = 0;
		static const char *const lead[] = {"[dashboard]\n",
		                                   "# comment\n", "\n"};
		for (int j = 0; j < pre; j++)
			n += snprintf(text + n, sizeof(text) - (size_t)n, "%s",
			              lead[j]);
		memcpy(text + n, b->line, len);
		n += (int)len;
		n += snprintf(text + n, sizeof(text) - (size_t)n, "\n# end\n");
		write_bytes(t->path, text, (size_t)n);
		memset(&c, 0x5a, sizeof(c));
		int r = gt_config_load(t->path, &c, err, sizeof(err));
		snprintf(want, sizeof(want), "gputop.conf:%d: ", pre + 1);
		if (r != 1 || strncmp(err, want, strlen(want)) != 0 ||
		    !strstr(err, b->msg))
			fail_msg("case %zu '%s': got %d '%s', want '%s%s'", i,
			         b->line, r, err, want, b->msg);
		assert_config_eq(&c, &d);
	}
}

/* A theme path of any length a path can have: 4095 bytes load and are
 * saved whole; 4096 are refused with the reason. */
static void test_long_theme(void **state)
{
	struct tmp *t = *state;
	enum { MAX = sizeof(((struct gt_config *)0)->theme) - 1 };
	static char text[MAX + 64], path[MAX + 2];
	struct gt_config c;
	char err[512];

	memset(path, 'a', sizeof(path));
	path[0] = '/';
	path[MAX] = '\0';
	snprintf(text, sizeof(text), "theme = %s\n", path);
	write_text(t->path, text);
	if (gt_config_load(t->path, &c, err, sizeof(err)) != 0)
		fail_msg("4095 bytes refused: %s", err);
	assert_string_equal(c.theme, path);
	assert_int_equal(gt_config_save(t->path, &c, err, sizeof(err)), 0);
	memset(&c, 0, sizeof(c));
	assert_int_equal(gt_config_load(t->path, &c, err, sizeof(err)), 0);
	assert_string_equal(c.theme, path);
	path[MAX] = 'a';
	path[MAX + 1] = '\0';
	snprintf(text, sizeof(text), "theme = %s\n", path);
	write_text(t->path, text);
	assert_int_equal(gt_config_load(t->path, &c, err, sizeof(err)), 1);
	assert_non_null(strstr(err, "is longer than 4095 bytes"));
}

static void test_save_clamps(void **state)
{
	struct tmp *t = *state;
	struct gt_config a, b, d;
	char err[512];
	gt_config_defaults(&a);
	gt_config_defaults(&d);
	a.interval_ns = 1; /* out of range fields: written as nearest valid */
	a.glyphs = 42;
	a.max_mode = 7;
	a.sort_col = -3;
	a.columns[GT_COL_COMMAND] = false;
	a.nhidden = 2;
	snprintf(a.hidden_gpus[0], sizeof(a.hidden_gpus[0]), "bogus");
	snprintf(a.hidden_gpus[1], sizeof(a.hidden_gpus[1]), "0000:03:00.0");
	snprintf(a.theme, sizeof(a.theme), "x\ny\"");
	assert_int_equal(gt_config_save(t->path, &a, err, sizeof(err)), 0);
	assert_int_equal(gt_config_load(t->path, &b, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(b.interval_ns, 100000000ull);
	assert_int_equal(b.glyphs, -1);
	assert_int_equal(b.max_mode, GT_GPU_FULL);
	assert_int_equal(b.sort_col, d.sort_col);
	assert_true(b.columns[GT_COL_COMMAND]);
	assert_int_equal(b.nhidden, 1);
	assert_string_equal(b.hidden_gpus[0], "0000:03:00.0");
	assert_string_equal(b.theme, "xy");
	a.interval_ns = UINT64_MAX;
	assert_int_equal(gt_config_save(t->path, &a, err, sizeof(err)), 0);
	assert_int_equal(gt_config_load(t->path, &b, err, sizeof(err)), 0);
	assert_int_equal(b.interval_ns, GT_CONFIG_INTERVAL_MAX_NS);
}

static void test_pci_ids(void **state)
{
	struct gt_config c;
	char out[32];
	(void)state;
	assert_int_equal(gt_config_pci_normalize("18:00.0", out, sizeof(out)),
	                 0);
	assert_string_equal(out, "0000:18:00.0");
	assert_int_equal(
	    gt_config_pci_normalize("00000000:2A:1F.7", out, sizeof(out)), 0);
	assert_string_equal(out, "0000:2a:1f.7");
	assert_int_equal(gt_config_pci_normalize("0000:18:00.0", out, 12), -1);
	assert_string_equal(out, "");
	assert_int_equal(
	    gt_config_pci_normalize("0000:18:00", out, sizeof(out)), -1);
	assert_int_equal(
	    gt_config_pci_normalize("0000:18:00.0 ", out, sizeof(out)), -1);
	assert_int_equal(gt_config_pci_normalize(NULL, out, sizeof(out)), -1);
	assert_int_equal(gt_config_pci_normalize("0:1:.0", out, sizeof(out)),
	                 -1);
	assert_int_equal(gt_config_pci_normalize("1:.0", out, sizeof(out)), -1);
	assert_int_equal(gt_config_pci_normalize("ffffffff:ff:1f.7", out, 17),
	                 0);
	assert_string_equal(out, "ffffffff:ff:1f.7");

	gt_config_defaults(&c);
	assert_false(gt_config_gpu_hidden(&c, "0000:18:00.0"));
	assert_int_equal(gt_config_set_gpu_hidden(&c, "18:00.0", true), 0);
	assert_int_equal(gt_config_set_gpu_hidden(&c, "0000:18:00.0", true), 0);
	assert_int_equal(c.nhidden, 1);
	assert_true(gt_config_gpu_hidden(&c, "00000000:18:00.0"));
	assert_false(gt_config_gpu_hidden(&c, "0000:19:00.0"));
	assert_false(gt_config_gpu_hidden(&c, "junk"));
	assert_int_equal(gt_config_set_gpu_hidden(&c, "junk", true), -1);
	for (int i = 0; i < GT_CONFIG_MAX_HIDDEN - 1; i++) {
		snprintf(out, sizeof(out), "%x:00.0", i + 0x40);
		assert_int_equal(gt_config_set_gpu_hidden(&c, out, true), 0);
	}
	assert_int_equal(gt_config_set_gpu_hidden(&c, "ff:00.0", true), -1);
	assert_int_equal(c.nhidden, GT_CONFIG_MAX_HIDDEN);
	assert_int_equal(gt_config_set_gpu_hidden(&c, "18:00.0", false), 0);
	assert_int_equal(c.nhidden, GT_CONFIG_MAX_HIDDEN - 1);
	assert_false(gt_config_gpu_hidden(&c, "18:00.0"));
	assert_string_equal(c.hidden_gpus[0], "0000:40:00.0"); /* order kept */
	assert_true(gt_config_gpu_hidden(&c, "4e:00.0"));
	assert_int_equal(gt_config_set_gpu_hidden(&c, "18:00.0", false), 0);
	assert_int_equal(c.nhidden, GT_CONFIG_MAX_HIDDEN - 1);
}

#define T(f) cmocka_unit_test_setup_teardown(f, tmp_setup, tmp_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_defaults),
	    T(test_every_key),
	    T(test_every_key_other_values),
	    T(test_malformed_lines),
	    T(test_long_theme),
	    T(test_save_clamps),
	    T(test_pci_ids),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * config_test.h - helpers shared by the tests of the settings
 * (test_config.c, test_config_values.c): a field-by-field comparison of
 * two settings, and a load of a text written to the test's gputop.conf.
 * static inline so each test uses what it needs. Include after
 * support/conf_test.h.
 */
#ifndef GPUTOP_CONFIG_TEST_H
#define GPUTOP_CONFIG_TEST_H

#include "config/config.h"

static inline void assert_config_eq(const struct gt_config *a,
                                    const struct gt_config *b)
{
	assert_int_equal(a->interval_ns, b->interval_ns);
	assert_string_equal(a->theme, b->theme);
	assert_int_equal(a->glyphs, b->glyphs);
	assert_int_equal(a->fahrenheit, b->fahrenheit);
	assert_int_equal(a->show_processes, b->show_processes);
	assert_int_equal(a->show_graphs, b->show_graphs);
	assert_int_equal(a->max_mode, b->max_mode);
	for (int i = 0; i < GT_COL__COUNT; i++)
		assert_int_equal(a->columns[i], b->columns[i]);
	assert_int_equal(a->sort_col, b->sort_col);
	assert_int_equal(a->sort_reverse, b->sort_reverse);
	assert_int_equal(a->nhidden, b->nhidden);
	for (int i = 0; i < a->nhidden; i++)
		assert_string_equal(a->hidden_gpus[i], b->hidden_gpus[i]);
}

/* Loads text from t->path; returns load's result, err in err. */
static inline int load_text(struct tmp *t, const char *text,
                            struct gt_config *c, char *err, size_t errlen)
{
	write_text(t->path, text);
	return gt_config_load(t->path, c, err, errlen);
}

#endif

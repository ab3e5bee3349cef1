/* SPDX-License-Identifier: MIT */
/*
 * profile_test.h - the helper shared by the tests of profiles
 * (test_profile.c, test_profile_values.c): a text loaded as the test's
 * gputop.conf, settings and profiles. static inline so each test uses
 * what it needs. Include after support/conf_test.h.
 */
#ifndef GPUTOP_PROFILE_TEST_H
#define GPUTOP_PROFILE_TEST_H

#include "config/config.h"
#include "config/profile.h"

/* Loads text as gputop.conf: the load's result, its err and profiles. */
static inline int load(struct tmp *t, const char *text, struct gt_config *c,
                       struct gt_profile_list **l, char *err, size_t errlen)
{
	write_text(t->path, text);
	return gt_config_load_profiles(t->path, c, l, err, errlen);
}

#endif

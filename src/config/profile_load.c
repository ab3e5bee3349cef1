/* SPDX-License-Identifier: MIT */
/*
 * profile_load.c - gt_profile_load (profile.h): a file's profiles, read
 * through the settings loader (config.c) so that profiles follow exactly
 * the rules the dashboard reads the file by. Apart from profile.c, the
 * reader config.c feeds, so that neither of the two needs the other.
 */
#include <stdio.h>

#include "config/config.h"
#include "config/profile.h"

int gt_profile_load(const char *path, struct gt_profile_list **out, char *err,
                    size_t errlen)
{
	struct gt_config c;
	char e[512];
	*out = NULL;
	if (errlen)
		err[0] = '\0';
	/* The settings' own problems are the dashboard's business. */
	if (gt_config_load_profiles(path, &c, out, e, sizeof(e)) < 0) {
		if (errlen)
			snprintf(err, errlen, "%s", e);
		return -1;
	}
	return 0;
}

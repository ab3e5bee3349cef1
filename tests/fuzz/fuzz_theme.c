/* SPDX-License-Identifier: MIT */
/*
 * fuzz_theme.c - libFuzzer harness of the btop theme reader
 * (gt_theme_load_buf, src/ui/theme.h). Checks the warning counts and
 * texts, that only main_bg and the mid/end stops of a gradient may be
 * left unset (and are then black), that the name is kept, and that
 * reading the same text twice resolves the same theme.
 */
#include "fuzz_common.h"

#include "ui/theme.h"

static bool may_be_unset(int k)
{
	if (k == GT_TK_MAIN_BG)
		return true;
	return (k >= 1 &&
	        gt_theme_key_is_gradient((enum gt_theme_key)(k - 1))) ||
	       (k >= 2 && gt_theme_key_is_gradient((enum gt_theme_key)(k - 2)));
}

static struct gt_theme t1, t2;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;

	int total = gt_theme_load_buf(buf, size, "fuzz", &t1);
	FUZZ_CHECK(total == t1.nwarn_total && total >= 0);
	FUZZ_CHECK(
	    t1.nwarn ==
	    (total < GT_THEME_MAX_WARNINGS ? total : GT_THEME_MAX_WARNINGS));
	FUZZ_CHECK(strcmp(t1.name, "fuzz") == 0);
	int prev = 0;
	for (int i = 0; i < t1.nwarn; i++) {
		FUZZ_CHECK(t1.warn[i].line >= 1 && t1.warn[i].line >= prev);
		FUZZ_CHECK(
		    fuzz_terminated(t1.warn[i].msg, sizeof(t1.warn[i].msg)));
		for (const char *c = t1.warn[i].msg; *c; c++)
			FUZZ_CHECK((unsigned char)*c >= 0x20 && *c != 0x7f);
		prev = t1.warn[i].line;
	}
	for (int k = 0; k < GT_TK_COUNT; k++) {
		if (t1.has[k])
			continue;
		FUZZ_CHECK(may_be_unset(k));
		FUZZ_CHECK(t1.rgb[k].r == 0 && t1.rgb[k].g == 0 &&
		           t1.rgb[k].b == 0);
	}

	FUZZ_CHECK(gt_theme_load_buf(buf, size, NULL, &t2) == total);
	FUZZ_CHECK(memcmp(t1.rgb, t2.rgb, sizeof(t1.rgb)) == 0);
	FUZZ_CHECK(memcmp(t1.has, t2.has, sizeof(t1.has)) == 0);
	FUZZ_CHECK(memcmp(t1.from_file, t2.from_file, sizeof(t1.from_file)) ==
	           0);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * fuzz_restore.c - libFuzzer harness of the restore state file
 * (gt_restore_parse) and its round trip: what parses passes
 * gt_restore_check action by action, formats (gt_restore_format) unless a
 * version-1 record has no vendor, parses back to the same journal, and
 * formats again to the same text; a buffer too small is refused without a
 * byte written past it.
 */
#include "fuzz_common.h"

#include "control/restore.h"

#define ROOT   "/sys"
#define OUTCAP (256u * 1024)

static bool same_action(const struct gt_restore_action *a,
                        const struct gt_restore_action *b)
{
	return a->kind == b->kind && strcmp(a->vendor, b->vendor) == 0 &&
	       strcmp(a->dev, b->dev) == 0 && a->time_s == b->time_s &&
	       strcmp(a->path, b->path) == 0 &&
	       strcmp(a->value, b->value) == 0 && a->fan == b->fan &&
	       a->mw == b->mw;
}

static struct gt_restore_journal j1, j2;
static char out1[OUTCAP], out2[OUTCAP];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	const char *text = (const char *)data;

	err[0] = 'x';
	if (gt_restore_parse(text, size, "fuzz", ROOT, &j1, err, sizeof(err)) !=
	    0) {
		FUZZ_CHECK(j1.n == 0);
		FUZZ_CHECK(fuzz_terminated(err, sizeof(err)) && err[0]);
		return 0;
	}
	FUZZ_CHECK(j1.n <= GT_RESTORE_MAX_ACTIONS);
	bool unclaimed = false;
	for (size_t i = 0; i < j1.n; i++) {
		const struct gt_restore_action *a = &j1.a[i];
		FUZZ_CHECK(fuzz_terminated(a->vendor, sizeof(a->vendor)));
		FUZZ_CHECK(fuzz_terminated(a->dev, sizeof(a->dev)));
		FUZZ_CHECK(fuzz_terminated(a->path, sizeof(a->path)));
		FUZZ_CHECK(fuzz_terminated(a->value, sizeof(a->value)));
		FUZZ_CHECK(gt_restore_check(&j1, a, err, sizeof(err)) == 0);
		if (a->kind == GT_RESTORE_SYSFS ||
		    a->kind == GT_RESTORE_AMD_FAN_CURVE_RESET)
			FUZZ_CHECK(strncmp(a->path, ROOT "/", 5) == 0 &&
			           strstr(a->path, "..") == NULL);
		unclaimed |= a->vendor[0] == '\0';
	}

	int n1 = gt_restore_format(&j1, out1, sizeof(out1), err, sizeof(err));
	if (n1 < 0) {
		FUZZ_CHECK(
		    unclaimed); /* the only refusal of a parsed journal */
		return 0;
	}
	FUZZ_CHECK((size_t)n1 < sizeof(out1) && strlen(out1) == (size_t)n1);
	FUZZ_CHECK(gt_restore_parse(out1, (size_t)n1, "again", ROOT, &j2, err,
	                            sizeof(err)) == 0);
	FUZZ_CHECK(j2.n == j1.n);
	for (size_t i = 0; i < j1.n; i++)
		FUZZ_CHECK(same_action(&j1.a[i], &j2.a[i]));
	int n2 = gt_restore_format(&j2, out2, sizeof(out2), err, sizeof(err));
	FUZZ_CHECK(n2 == n1 && memcmp(out1, out2, (size_t)n1) == 0);

	/* a buffer one byte short of the text and its NUL is refused */
	size_t small = (size_t)n1;
	memset(out2, 0x7f, small + 16);
	FUZZ_CHECK(gt_restore_format(&j1, out2, small, err, sizeof(err)) < 0);
	for (size_t i = small; i < small + 16; i++)
		FUZZ_CHECK(out2[i] == 0x7f);
	return 0;
}

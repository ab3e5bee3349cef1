/* SPDX-License-Identifier: MIT */
/*
 * fuzz_procinfo.c - libFuzzer harness of the /proc readers behind
 * gt_procinfo_fill: the stat, status, cmdline and cgroup parsers are
 * static in procinfo.c, so each input is split at "\n%%\n" lines into
 * stat, status, cmdline, cgroup, comm and statm, written as PID 4242 of a
 * scratch proc tree (tmpfs), and filled twice (a first sight, then the
 * steady state one second later). Checks: host_known only with a stat
 * that has "(comm)", the name is comm's bytes (NULs as blanks), the
 * command line is the file less its trailing NULs with NULs as blanks (or
 * "[comm]"), at most 32 KiB, the container is what
 * gt_procinfo_parse_cgroup makes of the file, and CPU and memory are
 * valid, pending or not collected.
 */
#include "fuzz_common.h"

#include <limits.h>

#include "core/model.h"
#include "linux/procinfo.h"

#define PID 4242
#define SEP "\n%%\n"

static const char *const leaves[] = {"stat",   "status", "cmdline",
                                     "cgroup", "comm",   "statm"};
#define NLEAVES (sizeof(leaves) / sizeof(leaves[0]))

static char root[PATH_MAX];

static void setup(void)
{
	char dir[PATH_MAX];
	snprintf(root, sizeof(root), "%s/proc", fuzz_dir());
	FUZZ_CHECK(mkdir(root, 0700) == 0);
	snprintf(dir, sizeof(dir), "%s/%d", root, PID);
	FUZZ_CHECK(mkdir(dir, 0700) == 0);
}

static void check_vals(const struct gt_process *p)
{
	for (int f = 0; f < GT_P__COUNT; f++) {
		const struct gt_val *v = &p->f[f];
		FUZZ_CHECK(v->why < GT_WHY__COUNT);
		if (gt_val_ok(v))
			FUZZ_CHECK(v->v >= 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = {data, size}, part[NLEAVES];
	char path[PATH_MAX];

	if (!root[0])
		setup();
	for (size_t i = 0; i < NLEAVES; i++) {
		part[i] = fuzz_part(&in, SEP);
		snprintf(path, sizeof(path), "%s/%d/%s", root, PID, leaves[i]);
		fuzz_write_file(path, part[i].p, part[i].n);
	}

	struct gt_procinfo *pi = gt_procinfo_new(root);
	FUZZ_CHECK(pi != NULL);
	struct gt_process p;
	memset(&p, 0, sizeof(p));
	p.pid = PID;
	for (int f = 0; f < GT_P__COUNT; f++)
		gt_val_fail(&p.f[f], GT_WHY_NOT_COLLECTED, 0);

	for (int round = 0; round < 2; round++) {
		gt_procinfo_fill(pi, &p, 1000000000ull * (uint64_t)(round + 1));
		gt_procinfo_sweep(pi, 0);
		check_vals(&p);
		const struct fuzz_in *st = &part[0];
		bool paren = st->n && memchr(st->p, '(', st->n) &&
		             memchr(st->p, ')', st->n);
		if (!p.host_known) {
			/* untouched: still as it was before the first fill */
			if (round == 0)
				FUZZ_CHECK(p.cmdline == NULL &&
				           p.name[0] == '\0');
			continue;
		}
		FUZZ_CHECK(paren);
		FUZZ_CHECK(fuzz_terminated(p.name, sizeof(p.name)));
		FUZZ_CHECK(fuzz_terminated(p.user, sizeof(p.user)));
		FUZZ_CHECK(fuzz_terminated(p.container, sizeof(p.container)));
		/* the container is the cgroup parser's reading */
		char want[GT_CONTAINER_LEN];
		gt_procinfo_parse_cgroup((const char *)part[3].p, part[3].n,
		                         want, sizeof(want));
		FUZZ_CHECK(strcmp(want, p.container) == 0);
		if (!p.cmdline)
			continue;
		/* the command line: the file, trailing NULs dropped, the
		 * others made blanks, or "[comm]" when empty */
		size_t n = part[2].n < 32 * 1024 ? part[2].n : 32 * 1024;
		while (n > 0 && part[2].p[n - 1] == '\0')
			n--;
		size_t len = strlen(p.cmdline);
		if (n == 0) {
			FUZZ_CHECK(len >= 2 && p.cmdline[0] == '[' &&
			           p.cmdline[len - 1] == ']');
		} else {
			FUZZ_CHECK(len == n);
			for (size_t i = 0; i < n; i++)
				FUZZ_CHECK(
				    p.cmdline[i] ==
				    (part[2].p[i] ? (char)part[2].p[i] : ' '));
		}
	}
	free(p.cmdline);
	gt_procinfo_free(pi);
	return 0;
}

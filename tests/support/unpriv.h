/* SPDX-License-Identifier: MIT */
/*
 * unpriv.h - a file the code under test cannot read, whoever runs the
 * tests. A directory of mode 000 refuses its owner unless the owner has
 * CAP_DAC_OVERRIDE, which root has: so a test that needs EACCES runs the
 * code in a child that, under root, first becomes nobody (65534). Shared
 * by test_amdgpu_copies.c (the binary's processes_unreadable) and
 * test_intel_backend.c (the GPU % lower bound). static inline so each test uses
 * what it needs.
 */
#ifndef GPUTOP_TEST_UNPRIV_H
#define GPUTOP_TEST_UNPRIV_H

#include <dirent.h>
#include <grp.h>
#include <stdbool.h>
#include <sys/types.h>
#include <unistd.h>

/* The exit status of a child that could not become a refused user: the
 * test is skipped, not failed (a container without CAP_SETUID). */
#define UNPRIV_SKIP 77

#define UNPRIV_UID 65534

/* In a child: becomes nobody when running as root, then checks that
 * refused (a directory of mode 000) really is refused. Returns 0, or
 * UNPRIV_SKIP when either cannot be had. */
static inline int unpriv_enter(const char *refused)
{
	if (geteuid() == 0 &&
	    (setgroups(0, NULL) != 0 ||
	     setresgid(UNPRIV_UID, UNPRIV_UID, UNPRIV_UID) != 0 ||
	     setresuid(UNPRIV_UID, UNPRIV_UID, UNPRIV_UID) != 0))
		return UNPRIV_SKIP;
	DIR *d = opendir(refused);
	if (d) {
		closedir(d);
		return UNPRIV_SKIP;
	}
	return 0;
}

#endif

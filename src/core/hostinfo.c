/* SPDX-License-Identifier: MIT */
/*
 * hostinfo.c - owns reading the machine facts of hostinfo.h.
 */
#include "core/hostinfo.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);
	if (n > len - 1)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* MemTotal in bytes, or 0 when meminfo is missing or malformed. */
static uint64_t read_mem_total(const char *procfs_root)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/meminfo", procfs_root);
	if (n < 0 || (size_t)n >= sizeof(path))
		return 0;

	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	char line[256];
	uint64_t total = 0;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "MemTotal:", 9) != 0)
			continue;
		const char *p = line + 9;
		while (*p == ' ' || *p == '\t')
			p++;
		uint64_t kb = 0;
		int digits = 0;
		while (*p >= '0' && *p <= '9' && kb <= UINT64_MAX / 10 / 1024) {
			kb = kb * 10 + (uint64_t)(*p - '0');
			p++;
			digits++;
		}
		/* A number too large to be memory is malformed, not huge. */
		if (digits > 0 && (*p == ' ' || *p == '\n' || *p == '\0') &&
		    kb <= UINT64_MAX / 1024)
			total = kb * 1024;
		break;
	}
	fclose(f);
	return total;
}

int gt_hostinfo_read(struct gt_hostinfo *h, const char *procfs_root)
{
	struct utsname u;
	int rc = 0;

	memset(h, 0, sizeof(*h));
	if (uname(&u) == 0) {
		copy_str(h->hostname, sizeof(h->hostname), u.nodename);
		copy_str(h->kernel, sizeof(h->kernel), u.release);
	} else {
		rc = -1;
	}

	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (cpus > 0 && cpus <= (long)UINT_MAX)
		h->cpu_count = (unsigned)cpus;
	else
		rc = -1;

	h->memory_total_bytes =
	    read_mem_total(procfs_root ? procfs_root : "/proc");
	if (h->memory_total_bytes == 0)
		rc = -1;

	h->euid = (unsigned)geteuid();
	return rc;
}

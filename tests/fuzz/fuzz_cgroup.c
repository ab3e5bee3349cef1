/* SPDX-License-Identifier: MIT */
/*
 * fuzz_cgroup.c - libFuzzer harness of the container detection from
 * /proc/PID/cgroup text (gt_procinfo_parse_cgroup). Checks that the result
 * is NUL-terminated inside outlen, nothing is written past it, it holds
 * only the promised safe bytes and a known prefix, and that a smaller
 * buffer gets a prefix of the full result (cut, never different).
 */
#include "fuzz_common.h"

#include "core/model.h"
#include "linux/procinfo.h"

static const char *const prefixes[] = {
    "k8s:pod", "docker:", "podman:", "containerd:",
    "crio:",   "lxc:",    "nspawn:", "systemd:",
};

static bool safe(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || strchr("._@:+-\\", c) != NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char full[GT_CONTAINER_LEN + 8], cut[GT_CONTAINER_LEN + 8];
	const char *text = (const char *)data;
	size_t small = size ? data[0] % (GT_CONTAINER_LEN + 1) : 7;

	memset(full, 0x7f, sizeof(full));
	gt_procinfo_parse_cgroup(text, size, full, GT_CONTAINER_LEN);
	FUZZ_CHECK(fuzz_terminated(full, GT_CONTAINER_LEN));
	for (size_t i = GT_CONTAINER_LEN; i < sizeof(full); i++)
		FUZZ_CHECK(full[i] == 0x7f);
	for (const char *c = full; *c; c++)
		FUZZ_CHECK(safe((unsigned char)*c));
	if (full[0]) {
		bool known = false;
		for (size_t i = 0; i < sizeof(prefixes) / sizeof(*prefixes);
		     i++)
			known |= strncmp(full, prefixes[i],
			                 strlen(prefixes[i])) == 0;
		FUZZ_CHECK(known);
	}

	memset(cut, 0x7f, sizeof(cut));
	gt_procinfo_parse_cgroup(text, size, cut, small);
	for (size_t i = small; i < sizeof(cut); i++)
		FUZZ_CHECK(cut[i] == 0x7f);
	if (small > 0) {
		FUZZ_CHECK(fuzz_terminated(cut, small));
		FUZZ_CHECK(strncmp(cut, full, strlen(cut)) == 0);
		FUZZ_CHECK(
		    strlen(cut) ==
		    (strlen(full) < small - 1 ? strlen(full) : small - 1));
	}
	return 0;
}

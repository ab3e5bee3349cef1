/* SPDX-License-Identifier: MIT */
/*
 * fuzz_webconfig.c - libFuzzer harness of the --web-config reader
 * (gt_webconfig_parse, src/export/webconfig.h). Checks that a refusal
 * names a line inside the input and is NUL-terminated, that a file taken
 * has both TLS paths or neither, users with distinct non-empty names
 * without ':' and bcrypt-shaped hashes, and that reading the same text
 * twice gives the same result.
 */
#include "fuzz_common.h"

#include "export/webconfig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct gt_webconfig a = {0}, b = {0};
	char err[256], err2[256];

	int rc = gt_webconfig_parse(buf, size, &a, err, sizeof(err));
	FUZZ_CHECK(rc == 0 || rc == -1);
	FUZZ_CHECK(gt_webconfig_parse(buf, size, &b, err2, sizeof(err2)) == rc);
	if (rc < 0) {
		unsigned line = 0;
		size_t lines = 1;
		FUZZ_CHECK(fuzz_terminated(err, sizeof(err)));
		FUZZ_CHECK(sscanf(err, "line %u: ", &line) == 1);
		for (size_t i = 0; i < size; i++)
			lines += buf[i] == '\n';
		FUZZ_CHECK(line >= 1 && line <= lines);
		FUZZ_CHECK(strcmp(err, err2) == 0);
	} else {
		FUZZ_CHECK(!a.cert_file == !a.key_file);
		FUZZ_CHECK(!a.cert_file || (a.cert_file[0] && a.key_file[0]));
		FUZZ_CHECK(a.nusers == b.nusers);
		for (size_t i = 0; i < a.nusers; i++) {
			const struct gt_webconfig_user *u = &a.users[i];
			FUZZ_CHECK(u->name[0] && !strchr(u->name, ':'));
			FUZZ_CHECK(strlen(u->hash) == 60 &&
			           strncmp(u->hash, "$2", 2) == 0);
			FUZZ_CHECK(strcmp(u->name, b.users[i].name) == 0);
			FUZZ_CHECK(strcmp(u->hash, b.users[i].hash) == 0);
			for (size_t k = 0; k < i; k++)
				FUZZ_CHECK(strcmp(a.users[k].name, u->name));
		}
	}
	gt_webconfig_free(&a);
	gt_webconfig_free(&b);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * test_webconfig.c - the --web-config reader (src/export/webconfig.c):
 * the YAML subset it takes (comments, quotes, CRLF, a document marker),
 * what it refuses and the line it names, loading the PEM files relative to
 * the config, and bcrypt credentials: right, wrong, unknown, missing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "export/webconfig.h"

/* bcrypt (cost 5) of "s3cret" and of "other" */
#define H_SECRET "$2b$05$ZfsELffQpSNbqDubleFUN.vkyHTA.2eDcxYpV8Cewek0PuO6XuIJO"
#define H_OTHER  "$2y$05$abcdefghijklmnopqrstuuVQd15VhR/oN1H3pzUR5lME0fZO6.qRW"

static int parse(const char *text, struct gt_webconfig *wc, char *err,
                 size_t errlen)
{
	memset(wc, 0, sizeof(*wc));
	return gt_webconfig_parse(text, strlen(text), wc, err, errlen);
}

static void test_full_file(void **state)
{
	(void)state;
	struct gt_webconfig wc;
	char err[256] = "";
	int rc = parse("---\r\n"
	               "# gputop's web config\n"
	               "tls_server_config:   # TLS\r\n\r\n"
	               "  cert_file: gputop.crt\n"
	               "  key_file: \"/etc/gputop/my key.pem\"  # quoted\n"
	               "\n"
	               "basic_auth_users:\n"
	               "    prometheus: " H_SECRET "\n"
	               "    'o''brien': '" H_OTHER "'\n",
	               &wc, err, sizeof(err));
	assert_int_equal(rc, 0);
	assert_string_equal(wc.cert_file, "gputop.crt");
	assert_string_equal(wc.key_file, "/etc/gputop/my key.pem");
	assert_int_equal(wc.nusers, 2);
	assert_string_equal(wc.users[0].name, "prometheus");
	assert_string_equal(wc.users[0].hash, H_SECRET);
	assert_string_equal(wc.users[1].name, "o'brien");
	assert_string_equal(wc.users[1].hash, H_OTHER);
	gt_webconfig_free(&wc);
	/* either section alone; an empty file is no TLS, no users */
	assert_int_equal(
	    parse("basic_auth_users:\n  a: " H_SECRET, &wc, err, sizeof(err)),
	    0);
	assert_null(wc.cert_file);
	gt_webconfig_free(&wc);
	assert_int_equal(parse("# nothing\n\n", &wc, err, sizeof(err)), 0);
	assert_null(wc.cert_file);
	assert_int_equal(wc.nusers, 0);
	gt_webconfig_free(&wc);
}

/* Each bad file is refused with its line and the expected text. */
static void test_refused(void **state)
{
	(void)state;
	static const struct {
		const char *text, *want;
	} cases[] = {
	    {"http_server_config:\n  http2: false\n",
	     "line 1: 'http_server_config' is not supported"},
	    {"tls_server_config:\n  cert_file: a\n  client_auth_type: "
	     "RequireAndVerifyClientCert\n",
	     "line 3: 'client_auth_type' under tls_server_config is not "
	     "supported"},
	    {"tls_server_config:\n  cert_file: a\n",
	     "line 1: tls_server_config needs both cert_file and key_file"},
	    {"tls_server_config:\n  cert_file: a\n  key_file: b\n"
	     "tls_server_config:\n",
	     "line 4: tls_server_config appears twice"},
	    {"tls_server_config:\n  cert_file: a\n  cert_file: b\n",
	     "line 3: cert_file appears twice"},
	    {"tls_server_config:\n  cert_file: ''\n  key_file: b\n",
	     "line 2: cert_file is empty"},
	    {"tls_server_config:\n\tcert_file: a\n", "line 2: a tab"},
	    {"tls_server_config:\n  cert_file: a\n   key_file: b\n",
	     "line 3: expected 2 spaces"},
	    {"tls_server_config:\n  cert_file:\n    - a\n",
	     "line 2: expected a value"},
	    {"tls_server_config: {cert_file: a}\n",
	     "line 1: tls_server_config takes its keys"},
	    {"  cert_file: a\n", "line 1: an indented line outside"},
	    {"tls_server_config\n", "line 1: expected 'key: value'"},
	    {"basic_auth_users:\n  a: &x " H_SECRET "\n",
	     "line 2: '&' cannot start"},
	    {"basic_auth_users:\n  a: \"" H_SECRET "\n",
	     "line 2: a double-quoted string is not closed"},
	    {"basic_auth_users:\n  a: \"\\x\"\n", "line 2: only the escapes"},
	    {"basic_auth_users:\n  a: b: c\n", "line 2: ': ' inside a value"},
	    {"basic_auth_users:\n  a: '" H_SECRET "' x\n",
	     "line 2: unexpected text"},
	    {"basic_auth_users:\n  a: password\n",
	     "line 2: the hash of user 'a' is not a bcrypt hash"},
	    {"basic_auth_users:\n  a: " H_SECRET "\n  a: " H_OTHER "\n",
	     "line 3: user 'a' appears twice"},
	    {"basic_auth_users:\n  'a:b': " H_SECRET "\n",
	     "line 2: user 'a:b': a name with ':'"},
	    {"basic_auth_users:\n  '': " H_SECRET "\n",
	     "line 2: an empty user name"},
	    {"basic_auth_users:\n# none\n",
	     "line 1: basic_auth_users has no user"},
	    {"basic_auth_users:\ntls_server_config:\n  cert_file: a\n",
	     "line 1: basic_auth_users has no user"},
	    {"- a\n", "line 1: '-' cannot start"},
	    {"basic_auth_users:\n  'a'", "line 2: expected ': ' right after"},
	    {"basic_auth_users:\n  'a' : x\n",
	     "line 2: expected ': ' right after"},
	    {"basic_auth_users:\n  \"a\":x\n",
	     "line 2: expected ': ' right after"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct gt_webconfig wc;
		char err[256] = "";
		int rc = parse(cases[i].text, &wc, err, sizeof(err));
		if (rc != -1 ||
		    strncmp(err, cases[i].want, strlen(cases[i].want)) != 0)
			fail_msg("case %zu: rc %d, \"%s\"; want \"%s\"", i, rc,
			         err, cases[i].want);
		gt_webconfig_free(&wc);
	}
	/* a NUL byte, and text cut anywhere: refused or taken, no crash */
	struct gt_webconfig wc = {0};
	char err[256];
	assert_int_equal(
	    gt_webconfig_parse("a\0b: c\n", 7, &wc, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "NUL"));
	gt_webconfig_free(&wc);
	const char *full = "tls_server_config:\n  cert_file: 'a'\n  key_file: "
	                   "\"b\"\nbasic_auth_users:\n  u: " H_SECRET "\n";
	for (size_t n = 0; n <= strlen(full); n++) {
		memset(&wc, 0, sizeof(wc));
		gt_webconfig_parse(full, n, &wc, err, sizeof(err));
		gt_webconfig_free(&wc);
	}
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_load(void **state)
{
	(void)state;
	char dir[] = "/tmp/gputop-webconfig-XXXXXX", path[128], pem[128],
	     key[128], err[512] = "";
	struct gt_webconfig wc = {0};
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/web.yml", dir);
	snprintf(pem, sizeof(pem), "%s/c.pem", dir);
	snprintf(key, sizeof(key), "%s/k.pem", dir);
	write_file(pem, "-----BEGIN CERTIFICATE-----\nAAAA\n");
	write_file(key, "no pem here\n");
	/* relative paths are the config's directory's */
	write_file(path, "tls_server_config:\n  cert_file: c.pem\n"
	                 "  key_file: k.pem\n");
	assert_int_equal(gt_webconfig_load(path, &wc, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "key_file"));
	assert_non_null(strstr(err, "k.pem is not a PEM file"));
	gt_webconfig_free(&wc);
	write_file(key, "-----BEGIN PRIVATE KEY-----\nBBBB\n");
	assert_int_equal(gt_webconfig_load(path, &wc, err, sizeof(err)), 0);
	assert_string_equal(wc.cert_file, pem);
	assert_non_null(strstr(wc.key_pem, "BBBB"));
	gt_webconfig_free(&wc);
	/* a missing file names itself */
	write_file(path, "tls_server_config:\n  cert_file: c.pem\n"
	                 "  key_file: /nonexistent/k.pem\n");
	assert_int_equal(gt_webconfig_load(path, &wc, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/k.pem: No such file"));
	gt_webconfig_free(&wc);
	/* a parse error names the file and the line */
	write_file(path, "tls_server_config:\n  min_version: TLS13\n");
	assert_int_equal(gt_webconfig_load(path, &wc, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "web.yml: line 2: 'min_version'"));
	gt_webconfig_free(&wc);
	/* bcrypt-shaped but not a hash crypt(3) takes (bad cost) */
	write_file(path, "basic_auth_users:\n  a: "
	                 "$2b$99$ZfsELffQpSNbqDubleFUN.Y7wx3gmFK7fN7YE7m1GH/"
	                 "TJXFyzIhF2\n");
	assert_int_equal(gt_webconfig_load(path, &wc, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not one this system's crypt(3) takes"));
	gt_webconfig_free(&wc);
	unlink(path);
	unlink(pem);
	unlink(key);
	assert_int_equal(gt_webconfig_load(dir, &wc, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "Is a directory"));
	gt_webconfig_free(&wc);
	rmdir(dir);
}

static void test_auth(void **state)
{
	(void)state;
	struct gt_webconfig wc;
	char err[256];
	void *scratch = calloc(1, gt_webconfig_scratch_size());
	assert_non_null(scratch);
	assert_int_equal(parse("basic_auth_users:\n  prometheus: " H_SECRET
	                       "\n  other: " H_OTHER "\n",
	                       &wc, err, sizeof(err)),
	                 0);
	assert_true(gt_webconfig_auth(&wc, "prometheus", "s3cret", scratch));
	assert_false(gt_webconfig_auth(&wc, "prometheus", "s3cret ", scratch));
	assert_false(gt_webconfig_auth(&wc, "prometheus", "", scratch));
	assert_false(gt_webconfig_auth(&wc, "prometheus", NULL, scratch));
	assert_false(gt_webconfig_auth(&wc, "other", "s3cret", scratch));
	assert_false(gt_webconfig_auth(&wc, "nobody", "s3cret", scratch));
	assert_false(gt_webconfig_auth(&wc, NULL, NULL, scratch));
	/* $2y$ (htpasswd's) is taken like $2b$ */
	assert_true(gt_webconfig_auth(&wc, "other", "other", scratch));
	gt_webconfig_free(&wc);
	free(scratch);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_full_file),
	    cmocka_unit_test(test_refused),
	    cmocka_unit_test(test_load),
	    cmocka_unit_test(test_auth),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * test_cli.c - gt_cli_parse (src/cli.c): defaults, every flag in every
 * spelling, value checking, and that every usage error names what was wrong.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"
#include "core/collector.h"

#define ERRLEN 256

struct parsed {
	int rc;
	struct gt_cli cli;
	char err[ERRLEN];
	const char *argv[16]; /* kept so borrowed pointers can be compared */
};

/* Parses "gputop" followed by the NULL-terminated list of arguments. */
static void parse_list(struct parsed *p, const char *const *args)
{
	int argc = 0;
	memset(p, 0, sizeof(*p));
	p->argv[argc++] = "gputop";
	for (; *args; args++) {
		assert_true(argc < 15);
		p->argv[argc++] = *args;
	}
	p->argv[argc] = NULL;
	memset(p->err, 'X', sizeof(p->err) - 1);
	p->err[sizeof(p->err) - 1] = '\0';
	/* argv is never written through: the cast only matches main()'s type */
	p->rc = gt_cli_parse(argc, (char *const *)p->argv, &p->cli, p->err,
	                     sizeof(p->err));
}

#define PARSE(p, ...)                                                          \
	do {                                                                   \
		const char *const args_[] = {__VA_ARGS__, NULL};               \
		parse_list((p), args_);                                        \
	} while (0)

/* Parses and expects success with an empty message. */
#define PARSE_OK(p, ...)                                                       \
	do {                                                                   \
		PARSE(p, __VA_ARGS__);                                         \
		if ((p)->rc != GT_EXIT_OK)                                     \
			fail_msg("unexpected usage error: %s", (p)->err);      \
		assert_string_equal((p)->err, "");                             \
	} while (0)

/* Parses and expects a usage error whose message contains needle. */
#define PARSE_USAGE(p, needle, ...)                                            \
	do {                                                                   \
		PARSE(p, __VA_ARGS__);                                         \
		assert_int_equal((p)->rc, GT_EXIT_USAGE);                      \
		if (!strstr((p)->err, (needle)))                               \
			fail_msg("message '%s' does not name '%s'", (p)->err,  \
			         (needle));                                    \
	} while (0)

static void test_defaults(void **state)
{
	struct parsed p;
	const char *const none[] = {NULL};
	(void)state;

	parse_list(&p, none);
	assert_int_equal(p.rc, GT_EXIT_OK);
	assert_string_equal(p.err, "");
	assert_int_equal(p.cli.mode, GT_MODE_DASHBOARD);
	assert_false(p.cli.demo);
	assert_int_equal(p.cli.interval_ns, 1000000000ull);
	assert_int_equal(p.cli.interval_ns, GT_INTERVAL_DEFAULT_NS);
	assert_false(p.cli.interval_set);
	assert_int_equal(p.cli.demo_seed, 1);
	assert_null(p.cli.nvml_lib);
	assert_null(p.cli.sysfs_root);
	assert_null(p.cli.procfs_root);
}

static void test_parse_resets_output(void **state)
{
	struct gt_cli cli;
	char err[64];
	char *argv[] = {NULL};
	(void)state;

	memset(&cli, 0x5a, sizeof(cli));
	argv[0] = (char *)"gputop";
	assert_int_equal(gt_cli_parse(1, argv, &cli, err, sizeof(err)),
	                 GT_EXIT_OK);
	assert_int_equal(cli.mode, GT_MODE_DASHBOARD);
	assert_false(cli.demo);
	assert_false(cli.interval_set);
	assert_null(cli.nvml_lib);
	assert_int_equal(cli.demo_seed, 1);
}

static void test_modes(void **state)
{
	struct parsed p;
	(void)state;

	PARSE_OK(&p, "--snapshot");
	assert_int_equal(p.cli.mode, GT_MODE_SNAPSHOT);
	PARSE_OK(&p, "--list");
	assert_int_equal(p.cli.mode, GT_MODE_LIST);
	PARSE_OK(&p, "--help");
	assert_int_equal(p.cli.mode, GT_MODE_HELP);
	PARSE_OK(&p, "-h");
	assert_int_equal(p.cli.mode, GT_MODE_HELP);
	PARSE_OK(&p, "--version");
	assert_int_equal(p.cli.mode, GT_MODE_VERSION);
	PARSE_OK(&p, "-V");
	assert_int_equal(p.cli.mode, GT_MODE_VERSION);
	/* the same mode twice is not a conflict */
	PARSE_OK(&p, "--snapshot", "--snapshot");
	assert_int_equal(p.cli.mode, GT_MODE_SNAPSHOT);
}

static void test_demo_flag(void **state)
{
	struct parsed p;
	(void)state;

	PARSE_OK(&p, "--demo");
	assert_true(p.cli.demo);
	assert_int_equal(p.cli.mode, GT_MODE_DASHBOARD);
	PARSE_OK(&p, "--demo", "--snapshot");
	assert_true(p.cli.demo);
	assert_int_equal(p.cli.mode, GT_MODE_SNAPSHOT);
	PARSE_USAGE(&p, "--demo", "--demo=1");
	assert_non_null(strstr(p.err, "takes no value"));
	PARSE_USAGE(&p, "--snapshot", "--snapshot=yes");
	PARSE_USAGE(&p, "--help", "--help=1");
}

static void test_interval_spellings(void **state)
{
	struct parsed p;
	(void)state;

	PARSE_OK(&p, "--interval", "0.5");
	assert_int_equal(p.cli.interval_ns, 500000000ull);
	assert_true(p.cli.interval_set);
	PARSE_OK(&p, "--interval=0.5");
	assert_int_equal(p.cli.interval_ns, 500000000ull);
	assert_true(p.cli.interval_set);
	PARSE_OK(&p, "-d", "2");
	assert_int_equal(p.cli.interval_ns, 2000000000ull);
	assert_true(p.cli.interval_set);
	PARSE_OK(&p, "-d", "0.25", "--snapshot");
	assert_int_equal(p.cli.interval_ns, 250000000ull);
	assert_int_equal(p.cli.mode, GT_MODE_SNAPSHOT);
	/* the last one wins */
	PARSE_OK(&p, "--interval", "3", "--interval=4");
	assert_int_equal(p.cli.interval_ns, 4000000000ull);
}

static void test_interval_bounds(void **state)
{
	struct parsed p;
	(void)state;

	PARSE_OK(&p, "--interval", "0.1");
	assert_int_equal(p.cli.interval_ns, 100000000ull);
	assert_true(p.cli.interval_ns >= GT_INTERVAL_MIN_NS);
	PARSE_OK(&p, "--interval", "3600");
	assert_int_equal(p.cli.interval_ns, 3600000000000ull);
	PARSE_OK(&p, "--interval", "1e1");
	assert_int_equal(p.cli.interval_ns, 10000000000ull);
	PARSE_OK(&p, "--interval", "0.123");
	assert_int_equal(p.cli.interval_ns, 123000000ull);

	PARSE_USAGE(&p, "--interval", "--interval", "0.05");
	PARSE_USAGE(&p, "--interval", "--interval", "0.0999");
	PARSE_USAGE(&p, "--interval", "--interval", "0");
	PARSE_USAGE(&p, "--interval", "--interval", "-1");
	PARSE_USAGE(&p, "--interval", "--interval", "3601");
	PARSE_USAGE(&p, "--interval", "--interval", "3600.5");
	PARSE_USAGE(&p, "--interval", "--interval=0.05");
	PARSE_USAGE(&p, "--interval", "-d", "3601");
	PARSE_USAGE(&p, "3601", "--interval", "3601");
}

static void test_interval_not_a_number(void **state)
{
	struct parsed p;
	(void)state;

	PARSE_USAGE(&p, "--interval", "--interval", "abc");
	assert_non_null(strstr(p.err, "abc"));
	PARSE_USAGE(&p, "--interval", "--interval", "1s");
	assert_non_null(strstr(p.err, "1s"));
	PARSE_USAGE(&p, "--interval", "--interval", "");
	PARSE_USAGE(&p, "--interval", "--interval=");
	PARSE_USAGE(&p, "--interval", "--interval", "nan");
	PARSE_USAGE(&p, "--interval", "--interval", "inf");
	PARSE_USAGE(&p, "--interval", "--interval", "1e999");
	PARSE_USAGE(&p, "--interval", "-d", "0.5.1");
	PARSE_USAGE(&p, "--interval", "--interval", "1,5");
}

static void test_seed(void **state)
{
	struct parsed p;
	(void)state;

	PARSE_OK(&p, "--seed", "42");
	assert_int_equal(p.cli.demo_seed, 42);
	PARSE_OK(&p, "--seed=7");
	assert_int_equal(p.cli.demo_seed, 7);
	PARSE_OK(&p, "--seed", "0");
	assert_int_equal(p.cli.demo_seed, 0);
	PARSE_OK(&p, "--seed", "18446744073709551615");
	assert_true(p.cli.demo_seed == UINT64_MAX);

	PARSE_USAGE(&p, "--seed", "--seed", "-1");
	PARSE_USAGE(&p, "--seed", "--seed=-5");
	PARSE_USAGE(&p, "--seed", "--seed", "abc");
	PARSE_USAGE(&p, "--seed", "--seed", "12x");
	PARSE_USAGE(&p, "--seed", "--seed", "1.5");
	PARSE_USAGE(&p, "--seed", "--seed", "");
	PARSE_USAGE(&p, "--seed", "--seed=");
	PARSE_USAGE(&p, "--seed", "--seed", "18446744073709551616");
}

/* strtoull skips leading white space and then accepts a minus sign, so a
 * check of s[0] == '-' alone lets " -1" through as 2^64 - 1. */
static void test_seed_rejects_negative_after_space(void **state)
{
	struct parsed p;
	(void)state;

	PARSE_USAGE(&p, "--seed", "--seed", " -1");
	PARSE_USAGE(&p, "--seed", "--seed", "\t-3");
}

static void test_paths(void **state)
{
	struct parsed p;
	(void)state;

	PARSE_OK(&p, "--nvml-lib", "/opt/lib/libnvidia-ml.so.1", "--sysfs",
	         "/tmp/sys", "--procfs", "/host/proc");
	/* borrowed from argv, not copied */
	assert_ptr_equal(p.cli.nvml_lib, p.argv[2]);
	assert_ptr_equal(p.cli.sysfs_root, p.argv[4]);
	assert_ptr_equal(p.cli.procfs_root, p.argv[6]);
	assert_string_equal(p.cli.nvml_lib, "/opt/lib/libnvidia-ml.so.1");
	assert_string_equal(p.cli.sysfs_root, "/tmp/sys");
	assert_string_equal(p.cli.procfs_root, "/host/proc");

	PARSE_OK(&p, "--nvml-lib=./fake.so", "--sysfs=/s", "--procfs=/p");
	assert_string_equal(p.cli.nvml_lib, "./fake.so");
	assert_string_equal(p.cli.sysfs_root, "/s");
	assert_string_equal(p.cli.procfs_root, "/p");
	/* everything after the first '=' is the value */
	PARSE_OK(&p, "--sysfs=/a=b");
	assert_string_equal(p.cli.sysfs_root, "/a=b");
	/* a value may look like a flag when given separately */
	PARSE_OK(&p, "--procfs", "--weird-dir");
	assert_string_equal(p.cli.procfs_root, "--weird-dir");
}

static void test_everything_together(void **state)
{
	struct parsed p;
	(void)state;

	PARSE_OK(&p, "--snapshot", "--demo", "--seed", "9", "-d", "0.2",
	         "--nvml-lib=x", "--sysfs", "y", "--procfs=z");
	assert_int_equal(p.cli.mode, GT_MODE_SNAPSHOT);
	assert_true(p.cli.demo);
	assert_int_equal(p.cli.demo_seed, 9);
	assert_int_equal(p.cli.interval_ns, 200000000ull);
	assert_string_equal(p.cli.nvml_lib, "x");
	assert_string_equal(p.cli.sysfs_root, "y");
	assert_string_equal(p.cli.procfs_root, "z");
}

static void test_unknown_and_stray(void **state)
{
	struct parsed p;
	(void)state;

	PARSE_USAGE(&p, "--bogus", "--bogus");
	PARSE_USAGE(&p, "--bogus", "--bogus=3");
	assert_null(strstr(p.err, "=3"));
	PARSE_USAGE(&p, "--bogus", "--demo", "--bogus");
	/* no abbreviations */
	PARSE_USAGE(&p, "--snap", "--snap");
	PARSE_USAGE(&p, "--inter", "--inter", "1");
	PARSE_USAGE(&p, "--snapshots", "--snapshots");
	/* case matters */
	PARSE_USAGE(&p, "--HELP", "--HELP");
	PARSE_USAGE(&p, "-x", "-x");
	PARSE_USAGE(&p, "-H", "-H");
	PARSE_USAGE(&p, "-v", "-v");
	/* no bundling of short flags */
	PARSE_USAGE(&p, "-hV", "-hV");
	PARSE_USAGE(&p, "-d0.5", "-d0.5");
	/* stray arguments */
	PARSE_USAGE(&p, "foo", "foo");
	PARSE_USAGE(&p, "snapshot", "--demo", "snapshot");
	PARSE_USAGE(&p, "'-'", "-");
	PARSE_USAGE(&p, "'--'", "--");
	/* the message points at help */
	PARSE_USAGE(&p, "--help", "--bogus");
}

static void test_missing_value(void **state)
{
	struct parsed p;
	(void)state;

	PARSE_USAGE(&p, "--interval", "--interval");
	assert_non_null(strstr(p.err, "needs a value"));
	PARSE_USAGE(&p, "--interval", "-d");
	PARSE_USAGE(&p, "--seed", "--seed");
	PARSE_USAGE(&p, "--nvml-lib", "--nvml-lib");
	PARSE_USAGE(&p, "--sysfs", "--sysfs");
	PARSE_USAGE(&p, "--procfs", "--demo", "--procfs");
}

static void test_mode_conflicts(void **state)
{
	struct parsed p;
	(void)state;

	PARSE_USAGE(&p, "--list", "--snapshot", "--list");
	PARSE_USAGE(&p, "--snapshot", "--list", "--snapshot");
	PARSE_USAGE(&p, "cannot be combined", "--snapshot", "--demo", "--list");
}

static void test_help_wins(void **state)
{
	struct parsed p;
	(void)state;

	PARSE_OK(&p, "--snapshot", "--help");
	assert_int_equal(p.cli.mode, GT_MODE_HELP);
	PARSE_OK(&p, "--help", "--snapshot");
	assert_int_equal(p.cli.mode, GT_MODE_HELP);
	PARSE_OK(&p, "--list", "-h");
	assert_int_equal(p.cli.mode, GT_MODE_HELP);
	PARSE_OK(&p, "-h", "--list");
	assert_int_equal(p.cli.mode, GT_MODE_HELP);
	PARSE_OK(&p, "--snapshot", "--help", "--list");
	assert_int_equal(p.cli.mode, GT_MODE_HELP);
	PARSE_OK(&p, "--demo", "--help", "-d", "2");
	assert_int_equal(p.cli.mode, GT_MODE_HELP);
	PARSE_OK(&p, "--snapshot", "--version");
	assert_int_equal(p.cli.mode, GT_MODE_VERSION);
	PARSE_OK(&p, "-V", "--list");
	assert_int_equal(p.cli.mode, GT_MODE_VERSION);
}

/* A short error buffer gets a cut, NUL-terminated message and nothing is
 * written past it (exact-size heap buffer: ASan checks). */
static void test_small_error_buffer(void **state)
{
	const char *argv_c[] = {"gputop",
	                        "--an-unknown-option-with-a-long-name", NULL};
	struct gt_cli cli;
	(void)state;

	for (size_t len = 1; len < 64; len++) {
		char *err = malloc(len);
		assert_non_null(err);
		int rc = gt_cli_parse(2, (char *const *)argv_c, &cli, err, len);
		assert_int_equal(rc, GT_EXIT_USAGE);
		assert_true(strnlen(err, len) < len);
		free(err);
	}
}

static void test_usage_lists_every_option(void **state)
{
	static const char *const want[] = {
	    "--snapshot", "--list",        "--help",     "-h, --help",
	    "--version",  "-V, --version", "--interval", "-d, --interval",
	    "--demo",     "--seed",        "--nvml-lib", "--sysfs",
	    "--procfs",
	};
	(void)state;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!strstr(gt_cli_usage, want[i]))
			fail_msg("usage text lacks %s", want[i]);
	/* and the exit statuses it documents match the enum */
	assert_non_null(strstr(gt_cli_usage, "2 usage error"));
	assert_non_null(strstr(gt_cli_usage, "1 runtime error"));
	assert_int_equal(GT_EXIT_USAGE, 2);
	assert_int_equal(GT_EXIT_FAILURE, 1);
}

/* Every option the usage text advertises is accepted by the parser. */
static void test_usage_options_parse(void **state)
{
	const char *u = gt_cli_usage;
	int seen = 0;
	(void)state;

	while ((u = strstr(u, "--")) != NULL) {
		char name[32];
		size_t n = 0;
		u += 2;
		while (n + 1 < sizeof(name) &&
		       ((*u >= 'a' && *u <= 'z') || *u == '-'))
			name[n++] = *u++;
		name[n] = '\0';
		if (n == 0)
			continue;
		char flag[40];
		snprintf(flag, sizeof(flag), "--%s", name);
		struct parsed p;
		/* give every flag a value it would accept if it takes one */
		PARSE(&p, flag, "1");
		if (p.rc != GT_EXIT_OK) /* a path, not a number */
			PARSE(&p, flag, "/tmp");
		if (p.rc != GT_EXIT_OK) /* an address */
			PARSE(&p, flag, "127.0.0.1:1");
		if (p.rc != GT_EXIT_OK)
			/* a flag without a value: "1" is then a stray */
			PARSE(&p, flag);
		if (p.rc != GT_EXIT_OK) /* a modifier of --apply */
			PARSE(&p, "--apply", "x", flag);
		if (p.rc != GT_EXIT_OK) /* a modifier of serve or --json */
			PARSE(&p, "serve", flag, "1");
		if (p.rc != GT_EXIT_OK)
			PARSE(&p, "--json", flag, "1");
		if (p.rc != GT_EXIT_OK)
			fail_msg("usage advertises %s, parser says: %s", flag,
			         p.err);
		seen++;
	}
	assert_true(seen >= 10);
}

static void test_control_modes(void **state)
{
	struct parsed p;
	(void)state;

	PARSE(&p, "--apply", "quiet", "--daemon");
	assert_int_equal(p.rc, GT_EXIT_OK);
	assert_int_equal(p.cli.mode, GT_MODE_APPLY);
	assert_string_equal(p.cli.profile, "quiet");
	assert_true(p.cli.daemon);
	PARSE(&p, "--daemon");
	assert_int_equal(p.rc, GT_EXIT_USAGE);
	assert_string_equal(p.err, "--daemon needs --apply PROFILE");
	PARSE(&p, "--restore", "--state-dir", "/var/tmp/x");
	assert_int_equal(p.rc, GT_EXIT_OK);
	assert_int_equal(p.cli.mode, GT_MODE_RESTORE);
	assert_string_equal(p.cli.state_dir, "/var/tmp/x");
	PARSE(&p, "--state-dir", "rel");
	assert_int_equal(p.rc, GT_EXIT_USAGE);
	PARSE(&p, "--restore", "--snapshot");
	assert_int_equal(p.rc, GT_EXIT_USAGE);
	PARSE(&p, "--apply");
	assert_int_equal(p.rc, GT_EXIT_USAGE);
}

static void test_export_modes(void **state)
{
	struct parsed p;
	(void)state;

	PARSE_OK(&p, "serve");
	assert_int_equal(p.cli.mode, GT_MODE_SERVE);
	assert_null(p.cli.listen);
	PARSE_OK(&p, "--interval", "2", "serve", "--listen", "0.0.0.0:9",
	         "--metrics-processes", "5", "--textfile", "/tmp");
	assert_int_equal(p.cli.mode, GT_MODE_SERVE);
	assert_string_equal(p.cli.listen, "0.0.0.0:9");
	assert_string_equal(p.cli.textfile, "/tmp");
	assert_int_equal(p.cli.process_top, 5);
	assert_null(p.cli.web_config);
	PARSE_OK(&p, "serve", "--web-config", "/etc/gputop/web.yml");
	assert_string_equal(p.cli.web_config, "/etc/gputop/web.yml");
	/* --listen beside the dashboard */
	PARSE_OK(&p, "--listen", "127.0.0.1:1", "--web-config", "w.yml");
	assert_int_equal(p.cli.mode, GT_MODE_DASHBOARD);
	assert_string_equal(p.cli.web_config, "w.yml");
	PARSE_OK(&p, "--json", "--count", "3");
	assert_int_equal(p.cli.mode, GT_MODE_JSON);
	assert_int_equal(p.cli.count, 3);
	PARSE_OK(&p, "--textfile", "/d", "--count", "1");
	assert_int_equal(p.cli.mode, GT_MODE_TEXTFILE);
	PARSE_USAGE(&p, "1 or more", "--json", "--count", "0");
	PARSE_USAGE(&p, "non-negative", "--json", "--count", "-1");
	/* Decimal only: a leading zero is not octal, 0x not hex. */
	PARSE_OK(&p, "--json", "--count", "010");
	assert_int_equal(p.cli.count, 10);
	PARSE_USAGE(&p, "non-negative", "--json", "--count", "0x2");
	PARSE_OK(&p, "--seed", "010");
	assert_int_equal(p.cli.demo_seed, 10);
	PARSE_USAGE(&p, "--count goes with", "--count", "2");
	PARSE_USAGE(&p, "--count goes with", "serve", "--count", "2");
	PARSE_USAGE(&p, "--listen goes with", "--json", "--listen", "[::1]:1");
	PARSE_USAGE(&p, "--textfile goes", "--snapshot", "--textfile", "/d");
	PARSE_USAGE(&p, "--metrics-processes goes", "--metrics-processes", "3");
	PARSE_USAGE(&p, "more than", "serve", "--metrics-processes", "1001");
	PARSE_USAGE(&p, "--web-config goes with serve or --listen",
	            "--web-config", "w.yml");
	PARSE_USAGE(&p, "--web-config goes", "--textfile", "/d", "--web-config",
	            "w.yml");
	PARSE_USAGE(&p, "cannot be combined", "--json", "--snapshot");
	PARSE_USAGE(&p, "cannot be combined", "serve", "--list");
	PARSE_USAGE(&p, "unexpected argument 'serv'", "serv");
	PARSE_USAGE(&p, "not a numeric IP address", "serve", "--listen",
	            "localhost:80");
	PARSE_USAGE(&p, "has no port", "--listen", "127.0.0.1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_defaults),
	    cmocka_unit_test(test_parse_resets_output),
	    cmocka_unit_test(test_modes),
	    cmocka_unit_test(test_demo_flag),
	    cmocka_unit_test(test_interval_spellings),
	    cmocka_unit_test(test_interval_bounds),
	    cmocka_unit_test(test_interval_not_a_number),
	    cmocka_unit_test(test_seed),
	    cmocka_unit_test(test_seed_rejects_negative_after_space),
	    cmocka_unit_test(test_paths),
	    cmocka_unit_test(test_everything_together),
	    cmocka_unit_test(test_unknown_and_stray),
	    cmocka_unit_test(test_missing_value),
	    cmocka_unit_test(test_mode_conflicts),
	    cmocka_unit_test(test_help_wins),
	    cmocka_unit_test(test_small_error_buffer),
	    cmocka_unit_test(test_usage_lists_every_option),
	    cmocka_unit_test(test_usage_options_parse),
	    cmocka_unit_test(test_control_modes),
	    cmocka_unit_test(test_export_modes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

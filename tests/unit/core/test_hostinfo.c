/* SPDX-License-Identifier: MIT */
/*
 * test_hostinfo.c - tests of src/hostinfo.c against the synthetic meminfo in
 * tests/fixtures/proc (found through $GPUTOP_FIXTURES) and the live system.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/hostinfo.h"

static const char *fixture_proc(void)
{
	static char path[4096];
	const char *dir = getenv("GPUTOP_FIXTURES");
	if (!dir || !*dir)
		fail_msg("GPUTOP_FIXTURES is not set: run with "
		         "GPUTOP_FIXTURES=tests/fixtures from the repo root");
	snprintf(path, sizeof(path), "%s/proc", dir);
	return path;
}

static void test_fixture_host(void **state)
{
	struct gt_hostinfo h;
	struct utsname u;
	(void)state;

	memset(&h, 0xa5, sizeof(h));
	assert_int_equal(gt_hostinfo_read(&h, fixture_proc()), 0);
	assert_int_equal(h.memory_total_bytes, 263844524ULL * 1024);
	assert_int_equal(uname(&u), 0);
	assert_string_equal(h.hostname, u.nodename);
	assert_string_equal(h.kernel, u.release);
	assert_int_equal(h.cpu_count, (unsigned)sysconf(_SC_NPROCESSORS_ONLN));
	assert_true(h.cpu_count > 0);
	assert_int_equal(h.euid, (unsigned)geteuid());
}

static void test_live_proc(void **state)
{
	struct gt_hostinfo h;
	(void)state;

	assert_int_equal(gt_hostinfo_read(&h, NULL), 0);
	assert_true(h.memory_total_bytes > 0);
	assert_int_equal(h.memory_total_bytes % 1024, 0);
}

static void test_missing_meminfo(void **state)
{
	struct gt_hostinfo h;
	(void)state;

	memset(&h, 0xa5, sizeof(h));
	assert_int_equal(gt_hostinfo_read(&h, "/nonexistent/gputop"), -1);
	assert_int_equal(h.memory_total_bytes, 0);
	/* the rest is still filled */
	assert_true(h.hostname[0] != '\0');
	assert_true(h.cpu_count > 0);
	assert_int_equal(h.euid, (unsigned)geteuid());
}

static void check_meminfo(const char *text, uint64_t want, int want_rc)
{
	char dir[] = "/tmp/gputop-host-XXXXXX", path[4096];
	struct gt_hostinfo h;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/meminfo", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	int rc = gt_hostinfo_read(&h, dir);
	unlink(path);
	rmdir(dir);
	assert_int_equal(rc, want_rc);
	assert_int_equal(h.memory_total_bytes, want);
}

static void test_malformed_meminfo(void **state)
{
	(void)state;
	check_meminfo("", 0, -1);
	check_meminfo("MemFree: 10 kB\n", 0, -1);
	check_meminfo("MemTotal: lots kB\n", 0, -1);
	check_meminfo("MemTotal: 12x kB\n", 0, -1);
	check_meminfo("MemTotal: 99999999999999999999999 kB\n", 0, -1);
	/* MemTotal need not be the first line */
	check_meminfo("Foo: 1 kB\nMemTotal:\t2048 kB\n", 2048 * 1024, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fixture_host),
	    cmocka_unit_test(test_live_proc),
	    cmocka_unit_test(test_missing_meminfo),
	    cmocka_unit_test(test_malformed_meminfo),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

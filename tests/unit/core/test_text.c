/* SPDX-License-Identifier: MIT */
/*
 * test_text.c - tests of the terminal escaper and the UTF-8 repair of
 * src/core/text.c, one class of byte at a time, of its hex digits, and of
 * the string builder, whose fixed-point numbers must read as printf's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "core/text.h"

/* Escapes a string literal of known length into a large buffer. */
#define ESC_EQ(in, want)                                                       \
	do {                                                                   \
		char out_[256];                                                \
		size_t n_ =                                                    \
		    gt_text_escape(out_, sizeof(out_), in, sizeof(in) - 1);    \
		assert_string_equal(out_, want);                               \
		assert_int_equal(n_, strlen(want));                            \
	} while (0)

#define SAN_EQ(in, want)                                                       \
	do {                                                                   \
		char *s_ = gt_text_utf8_sanitize(in, sizeof(in) - 1);          \
		assert_non_null(s_);                                           \
		assert_string_equal(s_, want);                                 \
		free(s_);                                                      \
	} while (0)

static void test_escape_printable_kept(void **state)
{
	(void)state;
	ESC_EQ("python3 train.py --rank 0", "python3 train.py --rank 0");
	/* quotes and backslashes are harmless to a terminal: not doubled */
	ESC_EQ("say \"hi\" C:\\path", "say \"hi\" C:\\path");
	ESC_EQ("~!@#$%^&*()_+{}|:<>?", "~!@#$%^&*()_+{}|:<>?");
}

static void test_escape_c0_named(void **state)
{
	(void)state;
	ESC_EQ("\x1b]0;pwned\x07", "\\e]0;pwned\\x07");
	ESC_EQ("a\nb", "a\\nb");
	ESC_EQ("a\tb", "a\\tb");
}

static void test_escape_c0_hex_and_del(void **state)
{
	(void)state;
	ESC_EQ("\x01\x08\x0d\x1f", "\\x01\\x08\\x0d\\x1f");
	ESC_EQ("a\x7f", "a\\x7f");
	/* an embedded NUL is data when the length says so */
	ESC_EQ("a\0b", "a\\x00b");
}

static void test_escape_c1(void **state)
{
	(void)state;
	/* CSI (U+009B) and NEL (U+0085) as UTF-8: controls, escaped */
	ESC_EQ("\xc2\x9b"
	       "31m",
	       "\\u009b31m");
	ESC_EQ("\xc2\x85", "\\u0085");
	ESC_EQ("\xc2\x80\xc2\x9f", "\\u0080\\u009f");
	/* U+00A0 is the first non-control of that block: kept */
	ESC_EQ("\xc2\xa0", "\xc2\xa0");
	/* a raw 0x9b byte is not UTF-8 at all: shown as a byte */
	ESC_EQ("\x9b"
	       "31m",
	       "\\x9b31m");
}

static void test_escape_valid_utf8_kept(void **state)
{
	(void)state;
	ESC_EQ("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	       "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	ESC_EQ("\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf"); /* U+10FFFF */
	ESC_EQ("\xe4\xb8\xad\xe6\x96\x87", "\xe4\xb8\xad\xe6\x96\x87");
}

static void test_escape_invalid_utf8(void **state)
{
	(void)state;
	ESC_EQ("bad\xff", "bad\\xff");
	ESC_EQ("\x80", "\\x80");                   /* stray continuation */
	ESC_EQ("\xc0\xaf", "\\xc0\\xaf");          /* overlong '/' */
	ESC_EQ("\xe0\x80\xaf", "\\xe0\\x80\\xaf"); /* overlong, 3 bytes */
	ESC_EQ("\xed\xa0\x80", "\\xed\\xa0\\x80"); /* surrogate U+D800 */
	ESC_EQ("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"); /* > U+10FFFF */
	ESC_EQ("\xf5\x80", "\\xf5\\x80");
	ESC_EQ("x\xe2\x82", "x\\xe2\\x82"); /* truncated at the end */
	/* a broken sequence does not swallow the valid char after it */
	ESC_EQ("\xe2\x82"
	       "A",
	       "\\xe2\\x82A");
	ESC_EQ("\xe2\xc3\xa9", "\\xe2\xc3\xa9");
}

static void test_escape_truncates_on_boundaries(void **state)
{
	char out[16];
	(void)state;

	memset(out, 'Z', sizeof(out));
	assert_int_equal(gt_text_escape(out, 3, "abc", 3), 2);
	assert_string_equal(out, "ab");

	/* "\e" needs 2 bytes + NUL: not cut in half */
	assert_int_equal(gt_text_escape(out, 3, "a\x1b", 2), 1);
	assert_string_equal(out, "a");
	assert_int_equal(gt_text_escape(out, 4, "a\x1b", 2), 3);
	assert_string_equal(out, "a\\e");

	/* a 3-byte character is not cut */
	assert_int_equal(gt_text_escape(out, 4, "a\xe2\x82\xac", 4), 1);
	assert_string_equal(out, "a");
	assert_int_equal(gt_text_escape(out, 5, "a\xe2\x82\xac", 4), 4);
	assert_string_equal(out, "a\xe2\x82\xac");

	/* \xNN of an invalid byte is not cut */
	assert_int_equal(gt_text_escape(out, 6, "ab\xff", 3), 2);
	assert_string_equal(out, "ab");

	/* the whole invalid subpart is one unit */
	assert_int_equal(gt_text_escape(out, 9, "\xe2\x82", 2), 8);
	assert_int_equal(gt_text_escape(out, 8, "\xe2\x82", 2), 0);
	assert_string_equal(out, "");

	assert_int_equal(gt_text_escape(out, 1, "abc", 3), 0);
	assert_string_equal(out, "");

	out[0] = 'Q';
	assert_int_equal(gt_text_escape(out, 0, "abc", 3), 0);
	assert_int_equal(out[0], 'Q'); /* dstlen 0: nothing written */

	assert_int_equal(gt_text_escape(out, sizeof(out), NULL, 0), 0);
	assert_string_equal(out, "");
}

static void test_escape_hostile_cmdline(void **state)
{
	/* the command line of fixture pid 6000, NULs already joined */
	static const char in[] =
	    "/tmp/evil --title=\x1b]0;pwned\x07 say \"hi\" "
	    "C:\\path line1\nline2 bad\xff";
	char out[256];
	(void)state;

	size_t n = gt_text_escape(out, sizeof(out), in, sizeof(in) - 1);
	assert_string_equal(out, "/tmp/evil --title=\\e]0;pwned\\x07 say "
	                         "\"hi\" C:\\path line1\\nline2 bad\\xff");
	assert_int_equal(n, strlen(out));
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)out[i];
		assert_true(c >= 0x20 && c != 0x7f);
	}
}

static void test_sanitize_valid_unchanged(void **state)
{
	(void)state;
	SAN_EQ("plain ascii", "plain ascii");
	SAN_EQ("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	       "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	SAN_EQ("\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf"); /* U+10FFFF is valid */
	SAN_EQ("\xef\xbf\xbf", "\xef\xbf\xbf");         /* U+FFFF too */
	/* controls are valid UTF-8: the JSON writer escapes them */
	SAN_EQ("\x1b]0;x\x07\n\x7f\xc2\x9b", "\x1b]0;x\x07\n\x7f\xc2\x9b");
}

#define FFFD "\xef\xbf\xbd"

static void test_sanitize_invalid(void **state)
{
	(void)state;
	SAN_EQ("bad\xff", "bad" FFFD);
	SAN_EQ("\x80"
	       "a",
	       FFFD "a");
	/* overlongs: each byte is its own maximal subpart */
	SAN_EQ("\xc0\xaf", FFFD FFFD);
	SAN_EQ("\xc1\xbf", FFFD FFFD);
	SAN_EQ("\xe0\x80\xaf", FFFD FFFD FFFD);
	SAN_EQ("\xf0\x80\x80\xaf", FFFD FFFD FFFD FFFD);
	/* surrogates */
	SAN_EQ("\xed\xa0\x80", FFFD FFFD FFFD);
	SAN_EQ("\xed\xbf\xbf", FFFD FFFD FFFD);
	SAN_EQ("\xed\x9f\xbf", "\xed\x9f\xbf"); /* U+D7FF, just below */
	/* above U+10FFFF */
	SAN_EQ("\xf4\x90\x80\x80", FFFD FFFD FFFD FFFD);
	SAN_EQ("\xf5\x80\x80\x80", FFFD FFFD FFFD FFFD);
	SAN_EQ("\xf8\x88\x80\x80\x80", FFFD FFFD FFFD FFFD FFFD);
	/* truncated sequences: one U+FFFD for the whole valid prefix */
	SAN_EQ("x\xe2\x82", "x" FFFD);
	SAN_EQ("x\xf0\x9f\x98", "x" FFFD);
	SAN_EQ("\xe2\x82"
	       "A",
	       FFFD "A");
	SAN_EQ("\xe2\xc3\xa9", FFFD "\xc3\xa9");
}

static void test_sanitize_nul_and_empty(void **state)
{
	(void)state;
	char *s = gt_text_utf8_sanitize("a\0b\0", 4);
	assert_non_null(s);
	assert_memory_equal(s, "a b ", 5);
	free(s);

	s = gt_text_utf8_sanitize("", 0);
	assert_non_null(s);
	assert_string_equal(s, "");
	free(s);

	s = gt_text_utf8_sanitize(NULL, 0);
	assert_non_null(s);
	assert_string_equal(s, "");
	free(s);

	/* only len bytes are read, whatever follows */
	s = gt_text_utf8_sanitize("abcdef", 3);
	assert_string_equal(s, "abc");
	free(s);
}

static void test_sanitize_json_roundtrip(void **state)
{
	static const char in[] =
	    "/tmp/evil --title=\x1b]0;pwned\x07 say \"hi\" "
	    "C:\\path line1\nline2 bad\xff\xed\xa0\x80";
	(void)state;

	char *s = gt_text_utf8_sanitize(in, sizeof(in) - 1);
	assert_non_null(s);
	cJSON *str = cJSON_CreateString(s);
	assert_non_null(str);
	char *json = cJSON_PrintUnformatted(str);
	assert_non_null(json);
	/* no raw control byte and no invalid byte may reach the JSON text */
	for (const char *p = json; *p; p++) {
		unsigned char c = (unsigned char)*p;
		assert_true(c >= 0x20 && c != 0xff);
	}
	cJSON *back = cJSON_Parse(json);
	assert_non_null(back);
	assert_true(cJSON_IsString(back));
	assert_string_equal(back->valuestring, s);
	assert_non_null(strstr(s, "bad" FFFD FFFD FFFD FFFD));
	cJSON_Delete(back);
	free(json);
	cJSON_Delete(str);
	free(s);
}

/* Every byte value: exactly the 22 hex digits have a value. */
static void test_hex_digit(void **state)
{
	int digits = 0;

	(void)state;
	for (int c = -1; c < 256; c++)
		digits += gt_text_hex_digit(c) >= 0;
	assert_int_equal(digits, 22);
	assert_int_equal(gt_text_hex_digit('0'), 0);
	assert_int_equal(gt_text_hex_digit('9'), 9);
	assert_int_equal(gt_text_hex_digit('a'), 10);
	assert_int_equal(gt_text_hex_digit('F'), 15);
	assert_int_equal(gt_text_hex_digit('g'), -1);
	assert_int_equal(gt_text_hex_digit('/'), -1);
	assert_int_equal(gt_text_hex_digit(':'), -1);
	assert_int_equal(gt_text_hex_digit('@'), -1);
	assert_int_equal(gt_text_hex_digit('`'), -1);
}

/* num / den through the builder is what snprintf's %.*f writes for the
 * double: for the units the dashboard uses (cpercent, m°C, mW, bytes in
 * KiB, MiB and GiB) and odd ones, for ties (x.5 exactly, which printf
 * rounds to even, and ties whose double is not exact), negatives and
 * values far past any counter, 200,000 cases. */
static void test_fixed_as_printf(void **state)
{
	(void)state;
	static const int64_t dens[] = {100, 1000, 1024, 1 << 20, 1 << 30,
	                               3,   7,    5000, 10,      1};
	unsigned seed = 12345;
	int ties = 0;
	for (int i = 0; i < 200000; i++) {
		int64_t den = dens[i % 10];
		int dec = (i / 10) % 4;
		int64_t num;
		switch ((i / 40) % 4) {
		case 0: /* small */
			num = rand_r(&seed) % 200000 - 1000;
			break;
		case 1: /* a tie of den at dec digits, when there is one */
			num = ((int64_t)(rand_r(&seed) % 100000) * 2 + 1) *
			      den / 2;
			if (dec)
				num /= dec == 1 ? 10 : dec == 2 ? 100 : 1000;
			break;
		case 2: /* bytes of a large GPU */
			num = (int64_t)rand_r(&seed) << 18 | rand_r(&seed);
			break;
		default: /* beyond exact doubles: printf's own way */
			num = ((int64_t)rand_r(&seed) << 31 | rand_r(&seed)) *
			      (rand_r(&seed) % 2 ? 1 : -1);
			break;
		}
		char want[64], got[64];
		snprintf(want, sizeof(want), "%.*f", dec,
		         (double)num / (double)den);
		struct gt_text_buf b;
		gt_text_buf_init(&b, got, sizeof(got));
		gt_text_buf_fixed(&b, num, den, dec);
		if (strcmp(got, want) != 0)
			fail_msg("%lld / %lld at %d: got %s, printf %s",
			         (long long)num, (long long)den, dec, got,
			         want);
		assert_int_equal(b.n, strlen(want));
		ties += (uint64_t)llabs(num) *
		            (dec == 0   ? 1
		             : dec == 1 ? 10
		             : dec == 2 ? 100
		                        : 1000) %
		            (uint64_t)den * 2 ==
		        (uint64_t)den;
	}
	assert_true(ties > 1000); /* the tie cases were there */
}

/* Pieces go in order; what does not fit is cut and the string stays
 * terminated, while n counts what the whole would need. */
static void test_buf_cuts(void **state)
{
	(void)state;
	char s[8];
	struct gt_text_buf b;
	gt_text_buf_init(&b, s, sizeof(s));
	gt_text_buf_str(&b, "71.5");
	gt_text_buf_str(&b, "/");
	gt_text_buf_fixed(&b, 85487714304, 1 << 30, 1);
	assert_string_equal(s, "71.5/79");
	assert_int_equal(b.n, strlen("71.5/79.6"));
	gt_text_buf_init(&b, s, 1);
	gt_text_buf_str(&b, "x");
	assert_string_equal(s, "");
	gt_text_buf_init(&b, NULL, 0);
	gt_text_buf_fixed(&b, 5, 1, 0);
	assert_int_equal(b.n, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_escape_printable_kept),
	    cmocka_unit_test(test_escape_c0_named),
	    cmocka_unit_test(test_escape_c0_hex_and_del),
	    cmocka_unit_test(test_escape_c1),
	    cmocka_unit_test(test_escape_valid_utf8_kept),
	    cmocka_unit_test(test_escape_invalid_utf8),
	    cmocka_unit_test(test_escape_truncates_on_boundaries),
	    cmocka_unit_test(test_escape_hostile_cmdline),
	    cmocka_unit_test(test_sanitize_valid_unchanged),
	    cmocka_unit_test(test_sanitize_invalid),
	    cmocka_unit_test(test_sanitize_nul_and_empty),
	    cmocka_unit_test(test_sanitize_json_roundtrip),
	    cmocka_unit_test(test_hex_digit),
	    cmocka_unit_test(test_fixed_as_printf),
	    cmocka_unit_test(test_buf_cuts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

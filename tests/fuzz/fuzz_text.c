/* SPDX-License-Identifier: MIT */
/*
 * fuzz_text.c - libFuzzer harness of the untrusted-text helpers (text.h):
 * gt_text_escape with a full and a short buffer, gt_text_utf8_sanitize and
 * gt_text_hex_digit. Checks that escaped text holds no C0, DEL or C1
 * control and is valid UTF-8, is NUL-terminated within dstlen with the
 * returned length, writes nothing past dstlen, is cut only between whole
 * escapes (a short result is a prefix of the full one), and leaves plain
 * text as it is; that sanitized text is valid UTF-8 without an inner NUL,
 * at most 3 bytes per input byte, and valid input without NULs is kept.
 */
#include "fuzz_common.h"

#include "core/text.h"

/* Length of the valid UTF-8 sequence at s (strict: no overlong, no
 * surrogate, <= U+10FFFF) and its code point; 0 when invalid. */
static size_t utf8_seq(const unsigned char *s, size_t n, unsigned *cp)
{
	if (n == 0)
		return 0;
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	size_t len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
	if (len == 0 || s[0] > 0xf4 || len > n)
		return 0;
	unsigned v = s[0] & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (s[i] & 0x3f);
	}
	static const unsigned min[5] = {0, 0, 0x80, 0x800, 0x10000};
	if (v < min[len] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return len;
}

static bool valid_utf8(const char *s, size_t n, bool controls_ok)
{
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		unsigned cp;
		size_t k = utf8_seq(p + i, n - i, &cp);
		if (k == 0 || cp == 0)
			return false;
		if (!controls_ok && (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)))
			return false;
		i += k;
	}
	return true;
}

static void check_escape(const char *src, size_t n)
{
	size_t cap = 4 * n + 1;
	char *full = malloc(cap + 8);
	FUZZ_CHECK(full != NULL);
	memset(full, 0x7f, cap + 8);
	size_t w = gt_text_escape(full, cap, src, n);
	FUZZ_CHECK(w < cap && full[w] == '\0' && strlen(full) == w);
	for (size_t i = cap; i < cap + 8; i++)
		FUZZ_CHECK(full[i] == 0x7f);
	FUZZ_CHECK(valid_utf8(full, w, false));

	/* plain printable ASCII comes out as it went in */
	bool plain = true;
	for (size_t i = 0; i < n && plain; i++)
		plain = src[i] >= 0x20 && src[i] < 0x7f;
	if (plain)
		FUZZ_CHECK(w == n && memcmp(full, src, n) == 0);

	/* a short buffer: a prefix of the full text, cut at an escape */
	size_t small = n ? (unsigned char)src[0] % 24 : 0;
	char cut[32];
	memset(cut, 0x7f, sizeof(cut));
	size_t c = gt_text_escape(cut, small, src, n);
	for (size_t i = small; i < sizeof(cut); i++)
		FUZZ_CHECK(cut[i] == 0x7f);
	if (small > 0) {
		FUZZ_CHECK(c < small && cut[c] == '\0' && strlen(cut) == c);
		FUZZ_CHECK(c <= w && memcmp(cut, full, c) == 0);
		FUZZ_CHECK(valid_utf8(cut, c, false));
	} else {
		FUZZ_CHECK(c == 0);
	}
	free(full);
}

static void check_sanitize(const char *src, size_t n)
{
	char *s = gt_text_utf8_sanitize(src, n);
	FUZZ_CHECK(s != NULL);
	size_t len = strlen(s);
	FUZZ_CHECK(len <= 3 * n);
	FUZZ_CHECK(valid_utf8(s, len, true));
	if (memchr(src, '\0', n) == NULL && valid_utf8(src, n, true))
		FUZZ_CHECK(len == n && memcmp(s, src, n) == 0);
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *src = (const char *)data;

	check_escape(src, size);
	check_sanitize(src, size);
	for (size_t i = 0; i < size && i < 4; i++) {
		int d = gt_text_hex_digit(data[i]);
		FUZZ_CHECK(d >= -1 && d <= 15);
		FUZZ_CHECK((d >= 0) ==
		           (strchr("0123456789abcdefABCDEF", data[i]) != NULL &&
		            data[i] != 0));
	}
	return 0;
}

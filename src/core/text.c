/* SPDX-License-Identifier: MIT */
/*
 * text.c - owns escaping and UTF-8 repair of untrusted bytes (see text.h).
 * One decoder serves both so that they agree on what is valid UTF-8.
 */
#include "core/text.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Decodes the sequence at s (n > 0 bytes left). Returns its length when it is
 * valid UTF-8, else 0. *span gets the bytes to consume either way: for an
 * invalid sequence the maximal subpart, so a valid character right after a
 * broken one is never swallowed.
 */
static size_t utf8_decode(const unsigned char *s, size_t n, size_t *span)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xbf; /* allowed range of the 2nd byte */
	size_t need;

	if (c < 0x80) {
		*span = 1;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		need = 2;
	} else if (c >= 0xe0 && c <= 0xef) {
		need = 3;
		if (c == 0xe0)
			lo = 0xa0; /* overlong below U+0800 */
		else if (c == 0xed)
			hi = 0x9f; /* surrogates U+D800..U+DFFF */
	} else if (c >= 0xf0 && c <= 0xf4) {
		need = 4;
		if (c == 0xf0)
			lo = 0x90; /* overlong below U+10000 */
		else if (c == 0xf4)
			hi = 0x8f; /* above U+10FFFF */
	} else {
		/* continuation byte, C0/C1 overlong lead, or F5..FF */
		*span = 1;
		return 0;
	}

	size_t i = 1;
	for (; i < need && i < n; i++) {
		unsigned char b = s[i];
		if (i == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xbf))
			break;
	}
	*span = i;
	return i == need ? need : 0;
}

static const char hexdig[] = "0123456789abcdef";

/* Writes the escape of one control byte into out (>= 5 bytes); returns its
 * length. */
static size_t escape_control(unsigned char c, char *out)
{
	switch (c) {
	case 0x1b:
		memcpy(out, "\\e", 2);
		return 2;
	case '\n':
		memcpy(out, "\\n", 2);
		return 2;
	case '\t':
		memcpy(out, "\\t", 2);
		return 2;
	default:
		out[0] = '\\';
		out[1] = 'x';
		out[2] = hexdig[c >> 4];
		out[3] = hexdig[c & 0xf];
		return 4;
	}
}

size_t gt_text_escape(char *dst, size_t dstlen, const char *src, size_t srclen)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t out = 0;

	if (dstlen == 0)
		return 0;
	if (!src)
		srclen = 0;

	size_t i = 0;
	while (i < srclen) {
		char unit[16]; /* one character or escape: at most 3 bytes x
		                  \xNN */
		size_t ulen, span;
		size_t valid = utf8_decode(s + i, srclen - i, &span);

		if (valid == 1 && (s[i] < 0x20 || s[i] == 0x7f)) {
			ulen = escape_control(s[i], unit);
		} else if (valid == 2 && s[i] == 0xc2 && s[i + 1] <= 0x9f) {
			memcpy(unit, "\\u00", 4);
			unit[4] = hexdig[s[i + 1] >> 4];
			unit[5] = hexdig[s[i + 1] & 0xf];
			ulen = 6;
		} else if (valid) {
			memcpy(unit, s + i, valid);
			ulen = valid;
		} else {
			ulen = 0;
			for (size_t k = 0; k < span; k++) {
				unit[ulen++] = '\\';
				unit[ulen++] = 'x';
				unit[ulen++] = hexdig[s[i + k] >> 4];
				unit[ulen++] = hexdig[s[i + k] & 0xf];
			}
		}

		if (ulen >= dstlen - out)
			break; /* no room for the whole unit and the NUL */
		memcpy(dst + out, unit, ulen);
		out += ulen;
		i += span;
	}
	dst[out] = '\0';
	return out;
}

char *gt_text_utf8_sanitize(const char *src, size_t len)
{
	const unsigned char *s = (const unsigned char *)src;

	if (!src)
		len = 0;
	/* Worst case: every byte becomes a 3-byte U+FFFD. */
	if (len > (SIZE_MAX - 1) / 3)
		return NULL;
	char *dst = malloc(len * 3 + 1);
	if (!dst)
		return NULL;

	size_t out = 0, i = 0;
	while (i < len) {
		size_t span;
		size_t valid = utf8_decode(s + i, len - i, &span);

		if (valid == 1 && s[i] == '\0') {
			dst[out++] = ' ';
		} else if (valid) {
			memcpy(dst + out, s + i, valid);
			out += valid;
		} else {
			memcpy(dst + out, "\xef\xbf\xbd", 3);
			out += 3;
		}
		i += span;
	}
	dst[out] = '\0';
	return dst;
}

int gt_text_hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

void gt_text_buf_init(struct gt_text_buf *b, char *s, size_t len)
{
	b->s = s;
	b->len = len;
	b->n = 0;
	if (len)
		s[0] = '\0';
}

/* k bytes of p, as much as fits; the string stays terminated. */
static void buf_put(struct gt_text_buf *b, const char *p, size_t k)
{
	if (b->n + 1 < b->len) {
		size_t room = b->len - 1 - b->n;
		size_t m = k < room ? k : room;
		memcpy(b->s + b->n, p, m);
		b->s[b->n + m] = '\0';
	}
	b->n += k;
}

void gt_text_buf_str(struct gt_text_buf *b, const char *piece)
{
	buf_put(b, piece, strlen(piece));
}

void gt_text_buf_fixed(struct gt_text_buf *b, int64_t num, int64_t den,
                       int decimals)
{
	static const uint64_t pow10[] = {1, 10, 100, 1000};
	/* Below 2^52 scaled, the double num / den is nearer the true
	 * quotient than any rounding boundary that is not a tie (those
	 * are at least 1 / (2 den 10^decimals) away), so both round the
	 * same way. */
	const uint64_t near = (uint64_t)1 << 52;
	char out[64];
	uint64_t mag = num < 0 ? 0 - (uint64_t)num : (uint64_t)num;
	bool own = den > 0 && (uint64_t)den < near && decimals >= 0 &&
	           decimals <= 3 && mag < near / pow10[decimals & 3];
	uint64_t a = mag * pow10[decimals & 3];
	uint64_t q = own ? a / (uint64_t)den : 0;
	uint64_t r = own ? a % (uint64_t)den : 0;
	if (!own || 2 * r == (uint64_t)den) {
		/* Out of range, or a tie: printf rounds the double, which
		 * may sit on either side of it. */
		int k = snprintf(out, sizeof(out), "%.*f", decimals,
		                 (double)num / (double)den);
		buf_put(b, out, k > 0 ? (size_t)k : 0);
		return;
	}
	q += 2 * r > (uint64_t)den;
	/* Digits from the right: the decimals, the point, the rest; a
	 * negative value keeps its sign even when it rounds to 0, as
	 * printf's "-0". */
	char *p = out + sizeof(out);
	for (int i = 0; i < decimals; i++, q /= 10)
		*--p = (char)('0' + q % 10);
	if (decimals)
		*--p = '.';
	do {
		*--p = (char)('0' + q % 10);
		q /= 10;
	} while (q);
	if (num < 0)
		*--p = '-';
	buf_put(b, p, (size_t)(out + sizeof(out) - p));
}

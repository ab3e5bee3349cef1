/* SPDX-License-Identifier: MIT */
/*
 * text.h - owns the safety of untrusted text (process names, command lines,
 * cgroup names): escaping it for a terminal and repairing it into valid UTF-8
 * for the JSON writer. Both work on raw bytes with an explicit length, since
 * command lines may hold any byte. Also the one hex-digit reader that the
 * ID tables, fdinfo and theme parsers share, and the bounded string
 * builder with the fixed-point numbers that the dashboard formats every
 * frame.
 */
#ifndef GPUTOP_TEXT_H
#define GPUTOP_TEXT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Writes src[0..srclen) into dst so that no byte of it can drive a terminal:
 *   ESC -> \e, LF -> \n, TAB -> \t, any other C0 byte (0x00-0x1f) and DEL
 *   -> \xNN (lower-case hex, e.g. BEL -> \x07);
 *   a C1 control encoded as UTF-8 (U+0080..U+009F) -> \u0080..\u009f;
 *   each byte of an invalid UTF-8 sequence (stray continuation, overlong,
 *   surrogate, > U+10FFFF, truncated) -> \xNN;
 *   valid UTF-8 and printable ASCII, the backslash included, are kept as is
 *   (a literal backslash is not doubled: readability beats unambiguity here).
 * Output is cut only between whole characters or whole escapes. dst is
 * always NUL-terminated when dstlen > 0. Returns the bytes written, without
 * the NUL. src may be NULL when srclen is 0.
 */
size_t gt_text_escape(char *dst, size_t dstlen, const char *src, size_t srclen);

/*
 * Returns a malloc'd, NUL-terminated copy of src[0..len) that is valid UTF-8:
 * each maximal invalid subpart (the Unicode "substitution of maximal
 * subparts" practice: overlongs, surrogates, > U+10FFFF, stray or missing
 * continuation bytes) becomes one U+FFFD, and each embedded NUL becomes a
 * space so the string does not end early. Control characters are kept (the
 * JSON writer escapes them). The caller frees. NULL only on ENOMEM.
 */
char *gt_text_utf8_sanitize(const char *src, size_t len);

/* The value of hex digit c (0-9, a-f, A-F), or -1 for any other c. */
int gt_text_hex_digit(int c);

/* A string built piece by piece into s[0..len): what does not fit is cut
 * (at a byte, as snprintf cuts), and s is always NUL-terminated when len
 * > 0. n counts the bytes the whole string needs. */
struct gt_text_buf {
	char *s;
	size_t len, n;
};

void gt_text_buf_init(struct gt_text_buf *b, char *s, size_t len);
void gt_text_buf_str(struct gt_text_buf *b, const char *piece);

/* num / den (den > 0) with `decimals` (0 to 3) digits after the point:
 * what snprintf's "%.*f" writes for (double)num / (double)den, without
 * its cost (the dashboard formats a few hundred numbers a frame). The
 * nearest is found in integers; an exact tie, whose side the double's
 * own rounding decides, goes to snprintf itself, as do numbers whose
 * double is too coarse to be sure (|num| 10^decimals from 2^52 up) and
 * den <= 0. */
void gt_text_buf_fixed(struct gt_text_buf *b, int64_t num, int64_t den,
                       int decimals);

#endif

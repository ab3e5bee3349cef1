/* SPDX-License-Identifier: MIT */
/*
 * restore.c - the restore journal (see restore.h): noting originals,
 * checking every action against the sysfs root, the state file's text
 * format (version 2 written, versions 1 and 2 read) and its atomic
 * save/load, and the reverse-order restore through the caller's callback.
 * No hardware access and no globals here.
 */
#include "control/restore.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fileio.h"

#define MAGIC   "gputop-restore"
#define VERSION 2 /* written; version 1 is still read (see restore.h) */
/* Whole-file cap: every action at the longest line, plus comments. */
#define FILE_MAX ((GT_RESTORE_MAX_ACTIONS + 64) * GT_RESTORE_LINE_MAX)
#define HEX      "0123456789abcdefABCDEF"

/* Per kind: the state file's keyword, the key of its third field,
 * whether it names a sysfs path, and the vendor it belongs to (NULL: the
 * record names one). Fields one and two are dev= and time= (after
 * vendor=); sysfs alone has a fourth, value=. */
static const struct kind_desc {
	const char *name, *key;
	bool path;
	const char *vendor;
} kinds[] = {
    [GT_RESTORE_SYSFS] = {"sysfs", "path", true, NULL},
    [GT_RESTORE_NVML_FAN_AUTO] = {"nvml-fan-auto", "fan", false, "nvml"},
    [GT_RESTORE_NVML_POWER_LIMIT] = {"nvml-power-limit", "mw", false, "nvml"},
    [GT_RESTORE_AMD_FAN_CURVE_RESET] = {"amd-fan-curve-reset", "path", true,
                                        "amdgpu"},
};
#define KIND_MAX GT_RESTORE_AMD_FAN_CURVE_RESET

static bool kind_ok(enum gt_restore_kind k)
{
	return k >= GT_RESTORE_SYSFS && k <= KIND_MAX;
}

const char *gt_restore_kind_name(enum gt_restore_kind k)
{
	return kind_ok(k) ? kinds[k].name : "?";
}

/* printf into err, if there is one; returns -1 for "return fail(...)". */
__attribute__((format(printf, 3, 4))) static int fail(char *err, size_t len,
                                                      const char *fmt, ...)
{
	va_list ap;

	if (err && len) {
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Copies src into a fixed field, refusing (not truncating) what is long. */
static int put(char *dst, size_t size, const char *src)
{
	size_t n = src ? strlen(src) : size;

	if (n >= size)
		return -1;
	memcpy(dst, src, n + 1);
	return 0;
}

int gt_restore_init(struct gt_restore_journal *j, const char *root)
{
	size_t n;

	if (!root)
		root = GT_RESTORE_DEFAULT_ROOT;
	n = strlen(root);
	if (root[0] != '/' || n >= sizeof(j->root))
		return -1;
	j->n = 0;
	memcpy(j->root, root, n + 1);
	/* Stored without trailing '/', so "/" becomes "" and the "under the
	 * root" test is one prefix comparison plus a '/'. */
	while (n > 0 && j->root[n - 1] == '/')
		j->root[--n] = '\0';
	return 0;
}

static int build(struct gt_restore_action *a, enum gt_restore_kind k,
                 const char *vendor, const char *dev, const char *path,
                 const char *value, uint32_t num, int64_t time_s)
{
	*a = (struct gt_restore_action){.kind = k, .time_s = time_s};
	if (k == GT_RESTORE_NVML_FAN_AUTO)
		a->fan = num;
	else
		a->mw = num;
	if (put(a->vendor, sizeof(a->vendor),
	        kinds[k].vendor ? kinds[k].vendor : vendor) ||
	    put(a->dev, sizeof(a->dev), dev) ||
	    (kinds[k].path && put(a->path, sizeof(a->path), path)) ||
	    (k == GT_RESTORE_SYSFS && put(a->value, sizeof(a->value), value)))
		return -1;
	return 0;
}

int gt_restore_action_sysfs(struct gt_restore_action *a, const char *vendor,
                            const char *dev, const char *path,
                            const char *original, int64_t time_s)
{
	return build(a, GT_RESTORE_SYSFS, vendor, dev, path, original, 0,
	             time_s);
}

int gt_restore_action_fan_auto(struct gt_restore_action *a, const char *dev,
                               unsigned fan, int64_t time_s)
{
	return build(a, GT_RESTORE_NVML_FAN_AUTO, NULL, dev, NULL, NULL, fan,
	             time_s);
}

int gt_restore_action_power_limit(struct gt_restore_action *a, const char *dev,
                                  uint32_t original_mw, int64_t time_s)
{
	return build(a, GT_RESTORE_NVML_POWER_LIMIT, NULL, dev, NULL, NULL,
	             original_mw, time_s);
}

int gt_restore_action_fan_curve_reset(struct gt_restore_action *a,
                                      const char *dev, const char *dev_dir,
                                      int64_t time_s)
{
	return build(a, GT_RESTORE_AMD_FAN_CURVE_RESET, NULL, dev, dev_dir,
	             NULL, 0, time_s);
}

static bool is_ctl(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

static bool has_ctl(const char *s)
{
	for (; *s; s++)
		if (is_ctl((unsigned char)*s))
			return true;
	return false;
}

/* Lexical checks only: sysfs is full of symlinks (class/drm/cardN/device),
 * so the real sysfs_write must also resolve the path and keep it inside
 * the device's directory (gt_sysfs_inside) before it writes. The control
 * character test comes first so that no later message echoes one. */
static int check_path(const struct gt_restore_journal *j, const char *path,
                      char *err, size_t len)
{
	size_t rl = strlen(j->root);

	if (!memchr(path, '\0', GT_RESTORE_PATH_MAX))
		return fail(err, len, "path too long");
	if (!path[0])
		return fail(err, len, "empty path");
	if (has_ctl(path))
		return fail(err, len, "control character in path");
	if (path[0] != '/')
		return fail(err, len, "path %s is not absolute", path);
	if (strstr(path, ".."))
		return fail(err, len, "path %s contains \"..\"", path);
	if (strncmp(path, j->root, rl) != 0 || path[rl] != '/' ||
	    path[rl + 1] == '\0')
		return fail(err, len, "path %s is not under %s/", path,
		            j->root);
	return 0;
}

/* The vendor: a name, the kind's own where it has one; "" (a version-1
 * sysfs record) where the kind names none. */
static int check_vendor(const struct gt_restore_action *a, char *err,
                        size_t len)
{
	const char *v = a->vendor, *own = kinds[a->kind].vendor;

	if (!memchr(v, '\0', sizeof(a->vendor)) ||
	    strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789") != strlen(v))
		return fail(err, len,
		            "vendor is not a name (lower-case letters and "
		            "digits)");
	if (own && strcmp(v, own) != 0)
		return fail(err, len, "%s records are %s's, not \"%s\"'s",
		            kinds[a->kind].name, own, v);
	return 0;
}

int gt_restore_check(const struct gt_restore_journal *j,
                     const struct gt_restore_action *a, char *err, size_t len)
{
	const char *d = a->dev;

	if (!kind_ok(a->kind))
		return fail(err, len, "unknown action kind %d", (int)a->kind);
	if (check_vendor(a, err, len))
		return -1;
	if (!memchr(d, '\0', sizeof(a->dev)) || !d[0] ||
	    strspn(d, HEX ":.") != strlen(d))
		return fail(err, len,
		            "device id is not a PCI bus id "
		            "(hex digits, ':' and '.')");
	if (a->time_s < 0)
		return fail(err, len, "negative time");
	if (kinds[a->kind].path && check_path(j, a->path, err, len))
		return -1;
	if (a->kind == GT_RESTORE_SYSFS) {
		if (!memchr(a->value, '\0', sizeof(a->value)))
			return fail(err, len, "value too long");
		if (!a->value[0])
			return fail(err, len, "empty original value");
		if (has_ctl(a->value))
			return fail(err, len, "control character in value");
	}
	if (a->kind == GT_RESTORE_NVML_FAN_AUTO && a->fan > 255)
		return fail(err, len, "fan index %u out of range", a->fan);
	if (a->kind == GT_RESTORE_NVML_POWER_LIMIT && a->mw == 0)
		return fail(err, len, "power limit of 0 mW");
	return 0;
}

/* The same setting: the same file, the same fan, the same device's limit. */
static bool same_setting(const struct gt_restore_action *x,
                         const struct gt_restore_action *y)
{
	if (x->kind != y->kind)
		return false;
	if (kinds[x->kind].path)
		return strcmp(x->path, y->path) == 0;
	return strcmp(x->dev, y->dev) == 0 &&
	       (x->kind != GT_RESTORE_NVML_FAN_AUTO || x->fan == y->fan);
}

int gt_restore_note(struct gt_restore_journal *j,
                    const struct gt_restore_action *a, char *err, size_t len)
{
	if (gt_restore_check(j, a, err, len))
		return -1;
	for (size_t i = 0; i < j->n; i++)
		if (same_setting(&j->a[i], a))
			return 1;
	if (j->n >= GT_RESTORE_MAX_ACTIONS)
		return fail(err, len, "restore journal full (%d settings)",
		            GT_RESTORE_MAX_ACTIONS);
	j->a[j->n++] = *a;
	return 0;
}

int gt_restore_settle(struct gt_restore_journal *j,
                      const struct gt_restore_action *now)
{
	for (size_t i = 0; i < j->n; i++) {
		const struct gt_restore_action *a = &j->a[i];
		if (!same_setting(a, now))
			continue;
		if ((a->kind == GT_RESTORE_SYSFS &&
		     strcmp(a->value, now->value) != 0) ||
		    (a->kind == GT_RESTORE_NVML_POWER_LIMIT &&
		     a->mw != now->mw) ||
		    a->kind == GT_RESTORE_AMD_FAN_CURVE_RESET)
			return 0;
		memmove(&j->a[i], &j->a[i + 1], (j->n - i - 1) * sizeof(*a));
		j->n--;
		return 1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Text form                                                            */
/* ------------------------------------------------------------------ */

struct out {
	char *buf;
	size_t len, pos;
	bool full;
};

__attribute__((format(printf, 2, 3))) static void emit(struct out *o,
                                                       const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->full)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->pos, o->len - o->pos, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->len - o->pos)
		o->full = true;
	else
		o->pos += (size_t)n;
}

/* %-escapes everything but printable ASCII other than '%': no value can
 * carry a newline or a space into the file and become another field or
 * another action. */
static void emit_escaped(struct out *o, const char *key, const char *s)
{
	char tmp[3 * GT_RESTORE_PATH_MAX + 1];
	size_t k = 0;

	for (; *s && k + 4 <= sizeof(tmp); s++) {
		unsigned char c = (unsigned char)*s;
		if (c > 0x20 && c < 0x7f && c != '%') {
			tmp[k++] = (char)c;
		} else {
			snprintf(tmp + k, 4, "%%%02X", c);
			k += 3;
		}
	}
	tmp[k] = '\0';
	emit(o, " %s=%s", key, tmp);
}

int gt_restore_format(const struct gt_restore_journal *j, char *buf, size_t len,
                      char *err, size_t errlen)
{
	struct out o = {buf, len, 0, len == 0};
	char why[GT_RESTORE_PATH_MAX + 64];

	if (j->n > GT_RESTORE_MAX_ACTIONS)
		return fail(err, errlen, "corrupt journal: %zu actions", j->n);
	emit(&o,
	     "# gputop restore state: the original values of the settings "
	     "gputop changed.\n# Written before each first change; "
	     "`gputop --restore` puts them back.\n%s %d\n",
	     MAGIC, VERSION);
	for (size_t i = 0; i < j->n; i++) {
		const struct gt_restore_action *a = &j->a[i];

		if (gt_restore_check(j, a, why, sizeof(why)))
			return fail(err, errlen, "action %zu: %s", i + 1, why);
		if (!a->vendor[0])
			return fail(err, errlen,
			            "action %zu: no vendor (a version-1 record "
			            "that no vendor claims)",
			            i + 1);
		emit(&o, "%s vendor=%s dev=%s time=%lld", kinds[a->kind].name,
		     a->vendor, a->dev, (long long)a->time_s);
		if (kinds[a->kind].path)
			emit_escaped(&o, "path", a->path);
		if (a->kind == GT_RESTORE_SYSFS)
			emit_escaped(&o, "value", a->value);
		if (a->kind == GT_RESTORE_NVML_FAN_AUTO)
			emit(&o, " fan=%u", a->fan);
		if (a->kind == GT_RESTORE_NVML_POWER_LIMIT)
			emit(&o, " mw=%u", (unsigned)a->mw);
		emit(&o, "\n");
	}
	emit(&o, "end %zu\n", j->n);
	if (o.full)
		return fail(err, errlen,
		            "restore state does not fit in %zu "
		            "bytes",
		            len);
	return (int)o.pos;
}

/* Decodes the %XX escapes of one field into dst; -1 with the reason. A
 * decoded control character is refused here: %0A is how a newline would
 * try to get in, and %00 would silently cut the string. */
static int unescape(const char *s, size_t n, char *dst, size_t size,
                    const char *key, char *err, size_t len)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned c = (unsigned char)s[i];
		if (c == '%') {
			char hex[3] = {0};
			if (i + 2 >= n)
				return fail(err, len, "%s: bad %%-escape", key);
			memcpy(hex, s + i + 1, 2);
			if (strspn(hex, HEX) != 2)
				return fail(err, len, "%s: bad %%-escape", key);
			c = (unsigned)strtoul(hex, NULL, 16);
			if (is_ctl((unsigned char)c))
				return fail(err, len,
				            "%s: escaped control "
				            "character %%%02X refused",
				            key, c);
			i += 2;
		} else if (c <= 0x20 || c >= 0x7f) {
			return fail(err, len, "%s: unescaped byte 0x%02X", key,
			            c);
		}
		if (k + 1 >= size)
			return fail(err, len, "%s: too long", key);
		dst[k++] = (char)c;
	}
	dst[k] = '\0';
	return 0;
}

/* Strict unsigned decimal: digits only, no sign, nothing past max. */
static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		unsigned d = (unsigned)(*s - '0');
		if (v > (max - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

/* "KIND vendor=NAME dev=ID time=SECONDS KEY=X[ value=V]" (see restore.h;
 * version 1 has no vendor=). Each %[^ ] is bounded by the escaped size of
 * its field (the vendor's by one byte more than fits, so that a long one
 * is refused, not cut), and %n must reach the end of the line, so an
 * overlong field or trailing junk is malformed, not silently cut. */
static int parse_action(const char *line, int version,
                        struct gt_restore_action *a, char *why, size_t wl)
{
	char dev[GT_RESTORE_DEV_MAX + 1], t[24], key[8],
	    x[3 * GT_RESTORE_PATH_MAX],
	    v[3 * GT_RESTORE_VALUE_MAX] = "",
	          vendor[GT_RESTORE_VENDOR_MAX + 1] = "";
	const char *rest = NULL;
	int k, used = -1, more = 0;
	uint64_t u = 0;
	bool ok = true;

	for (k = GT_RESTORE_SYSFS; k <= KIND_MAX && !rest; k++) {
		size_t kl = strlen(kinds[k].name);
		if (strncmp(line, kinds[k].name, kl) == 0 && line[kl] == ' ')
			rest = line + kl + 1;
	}
	if (!rest)
		return fail(why, wl, "unknown record");
	*a = (struct gt_restore_action){.kind = (enum gt_restore_kind)-- k};
	if (version > 1) {
		ok = sscanf(rest, "vendor=%16[^ ]%n", vendor, &used) == 1 &&
		     rest[used] == ' ';
		rest += ok ? used + 1 : 0;
	}
	ok = ok &&
	     sscanf(rest, "dev=%64[^ ] time=%20[^ ] %7[a-z]=%767[^ ]%n", dev, t,
	            key, x, &used) == 4 &&
	     strcmp(key, kinds[k].key) == 0;
	if (ok && k == GT_RESTORE_SYSFS) {
		ok = sscanf(rest + used, " value=%383[^ ]%n", v, &more) == 1;
		used += more;
	}
	if (!ok || rest[used] != '\0')
		return fail(why, wl,
		            "malformed %s record (expected: %s%s "
		            "dev=ID time=SECONDS %s=...%s)",
		            kinds[k].name, kinds[k].name,
		            version > 1 ? " vendor=NAME" : "", kinds[k].key,
		            k == GT_RESTORE_SYSFS ? " value=..." : "");
	/* Version 1: the kind's own vendor, or none for sysfs (restore.h). */
	if (put(a->vendor, sizeof(a->vendor),
	        version > 1       ? vendor
	        : kinds[k].vendor ? kinds[k].vendor
	                          : ""))
		return fail(why, wl, "vendor: too long");
	if (put(a->dev, sizeof(a->dev), dev))
		return fail(why, wl, "dev: too long");
	if (parse_u64(t, INT64_MAX, &u))
		return fail(why, wl, "time: not a number of seconds");
	a->time_s = (int64_t)u;
	if (kinds[k].path) {
		if (unescape(x, strlen(x), a->path, sizeof(a->path), "path",
		             why, wl))
			return -1;
		return k != GT_RESTORE_SYSFS
		           ? 0
		           : unescape(v, strlen(v), a->value, sizeof(a->value),
		                      "value", why, wl);
	}
	if (k == GT_RESTORE_NVML_FAN_AUTO) {
		if (parse_u64(x, 255, &u))
			return fail(why, wl, "fan: not 0..255");
		a->fan = (unsigned)u;
	} else {
		if (parse_u64(x, UINT32_MAX, &u))
			return fail(why, wl, "mw: not a number of mW");
		a->mw = (uint32_t)u;
	}
	return 0;
}

/* One non-comment line (NUL-terminated copy): the header (which sets
 * *version), an action or the end line. */
static int parse_record(const char *line, int *version, bool *ended,
                        struct gt_restore_journal *j, char *why, size_t wl)
{
	struct gt_restore_action a;
	char num[8];
	uint64_t count;
	int used = -1, rc;

	if (*ended)
		return fail(why, wl, "data after the end line");
	if (!*version) {
		if (strncmp(line, MAGIC " ", sizeof(MAGIC)) != 0)
			return fail(why, wl, "not a gputop restore file");
		if (strcmp(line + sizeof(MAGIC), "1") != 0 &&
		    strcmp(line + sizeof(MAGIC), "2") != 0)
			return fail(why, wl,
			            "unsupported version (this gputop "
			            "reads versions 1 and %d)",
			            VERSION);
		*version = line[sizeof(MAGIC)] - '0';
		return 0;
	}
	if (strncmp(line, "end ", 4) == 0) {
		if (sscanf(line, "end %7[^ ]%n", num, &used) != 1 || used < 0 ||
		    line[used] || parse_u64(num, 1000, &count) || count != j->n)
			return fail(why, wl,
			            "end line does not match the %zu "
			            "actions read: truncated or "
			            "edited file",
			            j->n);
		*ended = true;
		return 0;
	}
	if (parse_action(line, *version, &a, why, wl))
		return -1;
	rc = gt_restore_note(j, &a, why, wl);
	if (rc == 1)
		return fail(why, wl, "a second original for the same setting");
	return rc;
}

int gt_restore_parse(const char *text, size_t textlen, const char *name,
                     const char *root, struct gt_restore_journal *j, char *err,
                     size_t len)
{
	char why[GT_RESTORE_PATH_MAX + 96], copy[GT_RESTORE_LINE_MAX];
	bool ended = false;
	size_t pos = 0, lineno = 0;
	int version = 0; /* 0 until the header is read */

	if (gt_restore_init(j, root))
		return fail(err, len, "%s: bad sysfs root", name);
	while (pos < textlen) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', textlen - pos);
		size_t n = nl ? (size_t)(nl - line) : textlen - pos;
		int bad = 0;

		lineno++;
		pos += n + 1;
		if (n >= GT_RESTORE_LINE_MAX)
			bad =
			    fail(why, sizeof(why), "line longer than %d bytes",
			         GT_RESTORE_LINE_MAX - 1);
		else if (!nl)
			bad = fail(why, sizeof(why),
			           "no newline at the end: truncated file");
		for (size_t i = 0; !bad && i < n; i++)
			if (is_ctl((unsigned char)line[i]))
				bad = fail(why, sizeof(why),
				           "control character 0x%02X in line",
				           (unsigned char)line[i]);
		if (!bad && n > 0 && line[0] != '#') {
			memcpy(copy, line, n);
			copy[n] = '\0';
			bad = parse_record(copy, &version, &ended, j, why,
			                   sizeof(why));
		}
		if (bad) {
			j->n = 0;
			return fail(err, len, "%s:%zu: %s", name, lineno, why);
		}
	}
	if (!ended) {
		j->n = 0;
		return fail(err, len, "%s:%zu: %s", name, lineno + 1,
		            version ? "truncated file: no end line"
		                    : "empty file: no gputop-restore header");
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* State file                                                           */
/* ------------------------------------------------------------------ */

/* The directory of path (gt_fileio_dir_of), -1 also when path names no
 * file ("", "x/"). */
static int dir_of(const char *path, char *dir, size_t size)
{
	const char *slash = strrchr(path, '/');

	if (!*(slash ? slash + 1 : path))
		return -1;
	return gt_fileio_dir_of(path, dir, size);
}

/* The state file's directory, for save and load alike: a directory of
 * this user or root that nobody else may write (sticky or not). Whoever
 * else could write there could swap the journal and make root "restore"
 * whatever they like. stat, not lstat: /var/lib may be a link. */
static int dir_check(const char *dir, char *err, size_t len)
{
	struct stat st;

	if (stat(dir, &st) != 0)
		return fail(err, len, "%s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return fail(err, len, "%s: refused: not a directory", dir);
	if (st.st_uid != geteuid() && st.st_uid != 0)
		return fail(err, len,
		            "%s: refused: the state directory belongs to user "
		            "%u (mode %03o), not to this user or root, so its "
		            "owner could replace the restore state; use a "
		            "directory of your own",
		            dir, (unsigned)st.st_uid,
		            (unsigned)(st.st_mode & 0777));
	if (st.st_mode & 022)
		return fail(err, len,
		            "%s: refused: others may write the state directory "
		            "(owner %u, mode %03o), so they could replace the "
		            "restore state; run chmod go-w %s",
		            dir, (unsigned)st.st_uid,
		            (unsigned)(st.st_mode & 0777), dir);
	return 0;
}

/* -1 with err when path is a symbolic link, else 0. The state file is
 * never reached through one: a link could aim root's restore at any
 * journal, and save's rename would quietly replace the user's link with a
 * file. O_NOFOLLOW on load says only ELOOP, "Too many levels of symbolic
 * links", which names neither the cause nor the fix; this says both. */
static int link_refused(const char *path, char *err, size_t len)
{
	struct stat st;

	if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode))
		return 0;
	return fail(err, len,
	            "%s is a symbolic link; gputop refuses it so that a link "
	            "cannot redirect the restore (put the file it points to "
	            "in its place, or remove the link)",
	            path);
}

/* mkdir -p with 0700 for what is missing, then the directory must be one
 * that dir_check trusts. */
static int make_dirs(const char *dir, char *err, size_t len)
{
	if (gt_fileio_make_dirs(dir, err, len) != 0)
		return -1;
	return dir_check(dir, err, len);
}

int gt_restore_save(const struct gt_restore_journal *j, const char *path,
                    char *err, size_t len)
{
	size_t cap = (j->n + 4) * GT_RESTORE_LINE_MAX;
	char dir[PATH_MAX];
	int rc = -1, n;
	char *buf = malloc(cap);

	if (!buf)
		return fail(err, len, "out of memory");
	n = gt_restore_format(j, buf, cap, err, len);
	if (n < 0)
		goto out;
	if (dir_of(path, dir, sizeof(dir)) != 0) {
		fail(err, len, "%s: not a usable file path", path);
		goto out;
	}
	if (make_dirs(dir, err, len) || link_refused(path, err, len))
		goto out;
	/* Atomic and durable: after a power loss the file holds the old
	 * journal or the new one, which is the whole point of this file. */
	if (gt_fileio_replace(path, buf, (size_t)n, 0600, err, len) == 0)
		rc = 0;
out:
	free(buf);
	return rc;
}

/* The open state file itself: a regular file of this user or root that
 * nobody else may write, no larger than a journal can be. Fills st. */
static int file_check(int fd, const char *path, struct stat *st, char *err,
                      size_t len)
{
	if (fstat(fd, st) != 0)
		return fail(err, len, "%s: %s", path, strerror(errno));
	if (!S_ISREG(st->st_mode) ||
	    (st->st_uid != geteuid() && st->st_uid != 0) || (st->st_mode & 022))
		return fail(err, len,
		            "%s: refused: not a regular file of this user "
		            "that only its owner can write (owner %u, "
		            "mode %03o)",
		            path, (unsigned)st->st_uid,
		            (unsigned)(st->st_mode & 0777));
	if (st->st_size > FILE_MAX)
		return fail(err, len, "%s: refused: larger than %d bytes", path,
		            FILE_MAX);
	return 0;
}

/* Reads size bytes of the open state file and parses them into j. */
static int read_parse(int fd, const char *path, size_t size, const char *root,
                      struct gt_restore_journal *j, char *err, size_t len)
{
	char *buf = malloc(size + 1);
	size_t got = 0;
	ssize_t r = 0;
	int rc = -1;

	if (!buf)
		return fail(err, len, "out of memory");
	while (got < size && ((r = read(fd, buf + got, size - got)) > 0 ||
	                      (r < 0 && errno == EINTR)))
		got += r > 0 ? (size_t)r : 0;
	if (r < 0)
		fail(err, len, "%s: %s", path, strerror(errno));
	else
		rc = gt_restore_parse(buf, got, path, root, j, err, len);
	free(buf);
	return rc;
}

int gt_restore_load(const char *path, const char *root,
                    struct gt_restore_journal *j, char *err, size_t len)
{
	struct stat st;
	char dir[PATH_MAX];
	int rc = -1, fd, e;

	if (gt_restore_init(j, root))
		return fail(err, len, "bad sysfs root");
	/* O_NONBLOCK: a FIFO planted at the path must not hang a restore. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0) {
		e = errno;
		/* ELOOP also comes of a loop in the directories above. */
		if (e != ELOOP || link_refused(path, err, len) == 0)
			fail(err, len, "%s: %s", path, strerror(e));
		errno = e;
		return -1;
	}
	/* The directory as well as the file: a file of root's in a
	 * directory others may write can have been swapped in. Checked
	 * after the open, so that a missing file still reads as ENOENT. */
	if (dir_of(path, dir, sizeof(dir)) != 0)
		fail(err, len, "%s: not a usable file path", path);
	else if (dir_check(dir, err, len) == 0 &&
	         file_check(fd, path, &st, err, len) == 0)
		rc =
		    read_parse(fd, path, (size_t)st.st_size, root, j, err, len);
	close(fd);
	return rc;
}

int gt_restore_clear(const char *path)
{
	if (unlink(path) != 0 && errno != ENOENT)
		return -1;
	return 0;
}

int gt_restore_path_for(unsigned euid, const char *xdg_state_home,
                        const char *home, char *buf, size_t len)
{
	int n;

	if (euid == 0)
		n = snprintf(buf, len, "/var/lib/gputop/restore.state");
	else if (xdg_state_home && xdg_state_home[0] == '/')
		n = snprintf(buf, len, "%s/gputop/restore.state",
		             xdg_state_home);
	else if (home && home[0] == '/')
		n = snprintf(buf, len, "%s/.local/state/gputop/restore.state",
		             home);
	else
		return -1;
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int gt_restore_default_path(char *buf, size_t len)
{
	return gt_restore_path_for((unsigned)geteuid(),
	                           getenv("XDG_STATE_HOME"), getenv("HOME"),
	                           buf, len);
}

/* ------------------------------------------------------------------ */
/* Restore                                                              */
/* ------------------------------------------------------------------ */

int gt_restore_apply(const struct gt_restore_journal *j,
                     const struct gt_restore_ops *ops, char *report, size_t len)
{
	struct out o = {report, len, 0, len == 0};
	char why[GT_RESTORE_PATH_MAX + 64];
	size_t n = j->n;
	int failures = 0;

	if (len)
		report[0] = '\0';
	if (n > GT_RESTORE_MAX_ACTIONS) { /* restore what it can hold */
		emit(&o, "corrupt journal: %zu actions: FAILED\n", n);
		failures++;
		n = GT_RESTORE_MAX_ACTIONS;
	}
	for (size_t i = n; i-- > 0;) {
		const struct gt_restore_action *a = &j->a[i];
		int rc = 0;

		/* Never hand the callback something a state file could not
		 * hold: the same rules as note and load. Checked first so that
		 * the report never echoes a refused (hostile) string. */
		if (gt_restore_check(j, a, why, sizeof(why))) {
			emit(&o, "action %zu (%s): FAILED: refused: %s\n",
			     i + 1, gt_restore_kind_name(a->kind), why);
			failures++;
			continue;
		}
		emit(&o, "%s %s", kinds[a->kind].name,
		     kinds[a->kind].path ? a->path : a->dev);
		if (a->kind == GT_RESTORE_SYSFS)
			emit(&o, " <- %s", a->value);
		if (a->kind == GT_RESTORE_NVML_FAN_AUTO)
			emit(&o, " fan %u", a->fan);
		if (a->kind == GT_RESTORE_NVML_POWER_LIMIT)
			emit(&o, " <- %u mW", (unsigned)a->mw);
		if (!ops || !ops->restore) {
			emit(&o, ": FAILED: no handler\n");
			failures++;
		} else if ((rc = ops->restore(ops->ctx, a)) == 0) {
			emit(&o, ": ok\n");
		} else {
			failures++;
			if (rc < 0)
				emit(&o, ": FAILED: %s\n", strerror(-rc));
			else
				emit(&o, ": FAILED: error %d\n", rc);
		}
	}
	return failures;
}

/* SPDX-License-Identifier: MIT */
/*
 * webconfig.c - the --web-config file (webconfig.h): a strict reader of
 * the small YAML subset that file uses, loading the TLS certificate and
 * key it names, and checking basic-auth credentials with bcrypt through
 * crypt_r(3) of libxcrypt.
 */
#include "export/webconfig.h"

#include <crypt.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"

/* ---- The YAML subset ------------------------------------------------ */

enum section { NONE, TLS, USERS };

struct parser {
	const char *s, *e; /* the current line, without its newline */
	unsigned line;
	char *err;
	size_t errlen;
	struct gt_webconfig *wc;
	enum section sec;
	unsigned sec_line;   /* where the section began */
	size_t child_indent; /* 0: not yet known */
	bool seen_tls, seen_users;
};

__attribute__((format(printf, 2, 3))) static int fail(struct parser *p,
                                                      const char *fmt, ...)
{
	int n = snprintf(p->err, p->errlen, "line %u: ", p->line);
	va_list ap;
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < p->errlen)
		vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static char *dup_n(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

static bool at_comment(const char *s, const char *e)
{
	while (s < e && *s == ' ')
		s++;
	return s == e || *s == '#';
}

/* A quoted scalar at *at (its opening quote); the text after it in *at. */
static int quoted(struct parser *p, const char **at, char **out)
{
	const char *s = *at;
	char q = *s++;
	size_t n = 0;
	char *buf = malloc((size_t)(p->e - s) + 1);
	if (!buf)
		return fail(p, "out of memory");
	for (;; s++) {
		if (s == p->e) {
			free(buf);
			return fail(p,
			            "a %s-quoted string is not closed on "
			            "its line (strings cannot span lines)",
			            q == '"' ? "double" : "single");
		}
		if (*s == q && q == '\'' && s + 1 < p->e && s[1] == '\'') {
			buf[n++] = *s++;
			continue;
		}
		if (*s == q)
			break;
		if (*s == '\\' && q == '"') {
			if (s + 1 == p->e || (s[1] != '\\' && s[1] != '"')) {
				free(buf);
				return fail(p,
				            "only the escapes \\\\ and \\\" "
				            "are understood in a double-quoted "
				            "string");
			}
			s++;
		}
		buf[n++] = *s;
	}
	buf[n] = '\0';
	*at = s + 1;
	*out = buf;
	return 0;
}

/* A key (ending at ": " or ":" at the end) or a value (ending at " #" or
 * the end) at *at; what follows it in *at. */
static int scalar(struct parser *p, const char **at, bool key, char **out)
{
	const char *s = *at, *t;
	if (*s == '"' || *s == '\'')
		return quoted(p, at, out);
	if (strchr("-?:,[]{}#&*!|>%@`", *s))
		return fail(p,
		            "'%c' cannot start a plain %s here (lists, flow "
		            "collections, anchors, tags and block scalars are "
		            "not part of this file): quote it",
		            *s, key ? "key" : "value");
	for (t = s; t < p->e; t++) {
		bool colon = *t == ':' && (t + 1 == p->e || t[1] == ' ');
		if (key && colon)
			break;
		if (!key && colon)
			return fail(p, "': ' inside a value: quote the value");
		if (!key && *t == '#' && t[-1] == ' ')
			break;
	}
	if (key && t == p->e)
		return fail(p, "expected 'key: value' or 'key:'");
	const char *end = t;
	while (end > s && end[-1] == ' ')
		end--;
	*out = dup_n(s, (size_t)(end - s));
	*at = t;
	return *out ? 0 : fail(p, "out of memory");
}

static int top_level(struct parser *p, const char *key, bool has_value)
{
	bool tls = strcmp(key, "tls_server_config") == 0;
	bool users = strcmp(key, "basic_auth_users") == 0;
	if (!tls && !users)
		return fail(p,
		            "'%s' is not supported by gputop: only "
		            "tls_server_config and basic_auth_users",
		            key);
	if (has_value)
		return fail(p, "%s takes its keys on the lines below, indented",
		            key);
	if ((tls && p->seen_tls) || (users && p->seen_users))
		return fail(p, "%s appears twice", key);
	p->seen_tls |= tls;
	p->seen_users |= users;
	p->sec = tls ? TLS : USERS;
	p->sec_line = p->line;
	p->child_indent = 0;
	return 0;
}

static int tls_key(struct parser *p, const char *key, char *value)
{
	char **slot = strcmp(key, "cert_file") == 0  ? &p->wc->cert_file
	              : strcmp(key, "key_file") == 0 ? &p->wc->key_file
	                                             : NULL;
	if (!slot) {
		free(value);
		return fail(p,
		            "'%s' under tls_server_config is not supported by "
		            "gputop: only cert_file and key_file",
		            key);
	}
	if (*slot) {
		free(value);
		return fail(p, "%s appears twice", key);
	}
	if (!value[0]) {
		free(value);
		return fail(p, "%s is empty: give the path of a PEM file", key);
	}
	*slot = value;
	return 0;
}

static bool bcrypt_like(const char *h)
{
	return strlen(h) == 60 && h[0] == '$' && h[1] == '2' &&
	       strchr("aby", h[2]) && h[2] && h[3] == '$';
}

static int user_key(struct parser *p, char *name, char *hash)
{
	struct gt_webconfig *wc = p->wc;
	int rc = 0;
	if (!name[0])
		rc = fail(p, "an empty user name");
	for (size_t i = 0; rc == 0 && i < wc->nusers; i++)
		if (strcmp(wc->users[i].name, name) == 0)
			rc = fail(p, "user '%s' appears twice", name);
	if (rc == 0 && strchr(name, ':'))
		rc = fail(p,
		          "user '%s': a name with ':' cannot be sent in "
		          "basic authentication",
		          name);
	if (rc == 0 && !bcrypt_like(hash))
		rc = fail(p,
		          "the hash of user '%s' is not a bcrypt hash ($2b$, "
		          "$2y$ or $2a$, 60 characters): make one with "
		          "htpasswd -nBC 10 '%s'",
		          name, name);
	struct gt_webconfig_user *u =
	    rc ? NULL
	       : realloc(wc->users, (wc->nusers + 1) * sizeof(*wc->users));
	if (rc == 0 && !u)
		rc = fail(p, "out of memory");
	if (rc) {
		free(name);
		free(hash);
		return rc;
	}
	wc->users = u;
	wc->users[wc->nusers++] = (struct gt_webconfig_user){name, hash};
	return 0;
}

static int child(struct parser *p, size_t indent, char *key, const char *rest)
{
	char *value = NULL;
	if (p->sec == NONE) {
		free(key);
		return fail(p, "an indented line outside tls_server_config "
		               "and basic_auth_users");
	}
	if (!p->child_indent)
		p->child_indent = indent;
	if (indent != p->child_indent) {
		free(key);
		return fail(p,
		            "expected %zu spaces of indentation like the line "
		            "above (values cannot span lines or nest)",
		            p->child_indent);
	}
	if (at_comment(rest, p->e)) {
		free(key);
		return fail(p, "expected a value after '%s:' on the same line",
		            p->sec == TLS ? "the key" : "the user name");
	}
	while (*rest == ' ')
		rest++;
	if (scalar(p, &rest, false, &value) < 0) {
		free(key);
		return -1;
	}
	if (!at_comment(rest, p->e)) {
		free(key);
		free(value);
		return fail(p, "unexpected text after the value");
	}
	if (p->sec == USERS)
		return user_key(p, key, value);
	int rc = tls_key(p, key, value);
	free(key);
	return rc;
}

static int one_line(struct parser *p, bool *first)
{
	const char *s = p->s;
	char *key = NULL;
	while (s < p->e && *s == ' ')
		s++;
	if (s < p->e && *s == '\t')
		return fail(p, "a tab in the indentation: indent with spaces");
	if (at_comment(s, p->e))
		return 0;
	size_t indent = (size_t)(s - p->s);
	if (*first && indent == 0 && p->e - s >= 3 &&
	    memcmp(s, "---", 3) == 0 && at_comment(s + 3, p->e)) {
		*first = false;
		return 0;
	}
	*first = false;
	if (scalar(p, &s, true, &key) < 0)
		return -1;
	/* A quoted key ends at its quote: the ':' must follow at once. */
	if (s == p->e || *s != ':' || (s + 1 < p->e && s[1] != ' ')) {
		free(key);
		return fail(p, "expected ': ' right after the key");
	}
	const char *rest = s + 1; /* past ':' */
	if (indent > 0)
		return child(p, indent, key, rest);
	int rc = top_level(p, key, !at_comment(rest, p->e));
	free(key);
	return rc;
}

/* A section that ended: is it whole? */
static int section_done(struct parser *p)
{
	struct gt_webconfig *wc = p->wc;
	unsigned line = p->line;
	int rc = 0;
	p->line = p->sec_line;
	if (p->sec == TLS && (!wc->cert_file || !wc->key_file))
		rc = fail(p, "tls_server_config needs both cert_file and "
		             "key_file");
	if (p->sec == USERS && wc->nusers == 0)
		rc = fail(p, "basic_auth_users has no user: add 'NAME: "
		             "BCRYPT-HASH' lines, indented, or leave it out");
	p->line = line;
	return rc;
}

int gt_webconfig_parse(const char *text, size_t len, struct gt_webconfig *wc,
                       char *err, size_t errlen)
{
	struct parser p = {.err = err, .errlen = errlen, .wc = wc, .line = 0};
	const char *end = text + len, *s = text;
	bool first = true;

	if (len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
		s += 3; /* a UTF-8 byte order mark */
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = (size_t)((nl ? nl : end) - s);
		if (n > 0 && s[n - 1] == '\r')
			n--;
		p.s = s;
		p.e = s + n;
		p.line++;
		if (memchr(s, '\0', n))
			return fail(&p, "a NUL byte: this is not a text file");
		bool top = p.e > p.s && *p.s != ' ' && *p.s != '\t' &&
		           !at_comment(p.s, p.e);
		if (top && p.sec != NONE && section_done(&p) < 0)
			return -1;
		if (one_line(&p, &first) < 0)
			return -1;
		s = nl ? nl + 1 : end;
	}
	return section_done(&p);
}

void gt_webconfig_free(struct gt_webconfig *wc)
{
	if (!wc)
		return;
	free(wc->cert_file);
	free(wc->key_file);
	free(wc->cert_pem);
	free(wc->key_pem);
	for (size_t i = 0; i < wc->nusers; i++) {
		free(wc->users[i].name);
		free(wc->users[i].hash);
	}
	free(wc->users);
	memset(wc, 0, sizeof(*wc));
}

/* ---- Loading ------------------------------------------------------- */

/* path, or path relative to the directory of base; malloc'd. */
static char *resolve(const char *base, const char *path)
{
	const char *slash = strrchr(base, '/');
	if (path[0] == '/' || !slash)
		return strdup(path);
	size_t dir = (size_t)(slash - base) + 1;
	char *out = malloc(dir + strlen(path) + 1);
	if (out) {
		memcpy(out, base, dir);
		strcpy(out + dir, path);
	}
	return out;
}

static int read_pem(const char *cfg, const char *what, char **path, char **pem,
                    char *err, size_t errlen)
{
	char *full = resolve(cfg, *path);
	size_t len = 0;
	if (!full) {
		snprintf(err, errlen, "--web-config %s: out of memory", cfg);
		return -1;
	}
	free(*path);
	*path = full;
	int e = gt_fileio_read_all(full, GT_WEBCONFIG_MAX_PEM, pem, &len);
	if (e == 0 &&
	    (memchr(*pem, '\0', len) || !strstr(*pem, "-----BEGIN "))) {
		free(*pem);
		*pem = NULL;
		snprintf(err, errlen,
		         "--web-config %s: %s %s is not a PEM file "
		         "(-----BEGIN ...)",
		         cfg, what, full);
		return -1;
	}
	if (e) {
		snprintf(
		    err, errlen, "--web-config %s: %s %s: %s", cfg, what, full,
		    e == EFBIG ? "larger than 1 MiB" : gt_fileio_strerror(e));
		return -1;
	}
	return 0;
}

int gt_webconfig_load(const char *path, struct gt_webconfig *wc, char *err,
                      size_t errlen)
{
	char *text = NULL, why[256];
	size_t len = 0;
	int e = gt_fileio_read_all(path, GT_WEBCONFIG_MAX_FILE, &text, &len);
	if (e) {
		snprintf(err, errlen, "--web-config %s: %s", path,
		         e == EFBIG ? "larger than 64 KiB"
		                    : gt_fileio_strerror(e));
		return -1;
	}
	int rc = gt_webconfig_parse(text, len, wc, why, sizeof(why));
	free(text);
	if (rc < 0) {
		snprintf(err, errlen, "--web-config %s: %s", path, why);
		return -1;
	}
	if (wc->cert_file && (read_pem(path, "cert_file", &wc->cert_file,
	                               &wc->cert_pem, err, errlen) < 0 ||
	                      read_pem(path, "key_file", &wc->key_file,
	                               &wc->key_pem, err, errlen) < 0))
		return -1;
	/* crypt(3) refuses a malformed hash by returning "*..." */
	void *scratch = calloc(1, gt_webconfig_scratch_size());
	if (!scratch) {
		snprintf(err, errlen, "--web-config %s: out of memory", path);
		return -1;
	}
	for (size_t i = 0; rc == 0 && i < wc->nusers; i++) {
		const char *h = crypt_r("", wc->users[i].hash, scratch);
		if (!h || h[0] == '*') {
			snprintf(err, errlen,
			         "--web-config %s: the hash of user '%s' is "
			         "not one this system's crypt(3) takes: make "
			         "one with htpasswd -nBC 10 '%s'",
			         path, wc->users[i].name, wc->users[i].name);
			rc = -1;
		}
	}
	free(scratch);
	return rc;
}

/* ---- Checking credentials ------------------------------------------ */

size_t gt_webconfig_scratch_size(void)
{
	return sizeof(struct crypt_data);
}

/* Equal in time that depends on the lengths only. */
static bool same(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	unsigned char d = n != m;
	for (size_t i = 0; i < n && i < m; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return d == 0;
}

bool gt_webconfig_auth(const struct gt_webconfig *wc, const char *user,
                       const char *password, void *scratch)
{
	/* A valid hash of a password nobody has: an unknown user costs a
	 * bcrypt round like a known one, so timing does not tell names. */
	static const char dummy[] =
	    "$2b$10$abcdefghijklmnopqrstuuwqJlnRNLsEqt1VH0d.mhc.7GP7Y8gbO";
	const char *hash = dummy;
	bool known = false;
	for (size_t i = 0; user && i < wc->nusers; i++)
		if (strcmp(wc->users[i].name, user) == 0) {
			hash = wc->users[i].hash;
			known = true;
		}
	const char *got = crypt_r(password ? password : "", hash, scratch);
	return known && user && password && got && got[0] != '*' &&
	       same(got, hash);
}

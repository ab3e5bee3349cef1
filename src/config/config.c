/* SPDX-License-Identifier: MIT */
/*
 * config.c - owns reading and writing gputop.conf (format and rules in
 * config.h); the keys and their values are config_values.c's. One line
 * classifier serves both load and save, so the two can never disagree about
 * what a line is. Numbers are parsed and printed by hand, in
 * config_values.c: the dashboard calls setlocale(LC_ALL, ""), and
 * strtod/printf("%g") would then read and write "1,5" under a German locale.
 */
#include "config/config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config_priv.h"
#include "config/profile.h"
#include "core/fileio.h"

/* ---- lines ---------------------------------------------------------- */

enum lkind { L_BLANK, L_SECTION, L_SETTING, L_BAD };

struct pline {
	enum lkind kind;
	char *name;        /* SECTION: its name; SETTING: the key */
	const char *value; /* SETTING: trimmed, unquoted; NULL if why is set */
	char *comment;     /* SETTING: the trailing "# ..." or NULL */
	const char *why;   /* BAD, or a SETTING whose value is malformed */
	char buf[8192];    /* what the pointers point into (a theme path is
	                    * 4095 bytes at most, with its key and quotes) */
};

static char *trim(char *s)
{
	size_t n;
	s += strspn(s, " \t");
	n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* Classifies raw[0..len) (without its '\n'). Load and save both use it,
 * so they always agree on what a line is. */
static void classify(const char *raw, size_t len, struct pline *p)
{
	char *s, *v, *t;
	bool q = false;
	p->kind = L_BAD;
	p->name = p->comment = NULL;
	p->value = p->why = NULL;
	if (memchr(raw, '\0', len) || len >= sizeof(p->buf)) {
		p->why = len < sizeof(p->buf) ? "the line holds a NUL byte"
		                              : "the line is over 8 KiB long";
		return;
	}
	memcpy(p->buf, raw, len);
	p->buf[len] = '\0';
	s = trim(p->buf);
	if (!*s || *s == '#') {
		p->kind = L_BLANK;
	} else if (*s == '[') {
		if (!(t = strchr(s, ']')))
			p->why = "'[' without a closing ']'";
		else if (*t = '\0', t++, t += strspn(t, " \t"), *t && *t != '#')
			p->why = "text after a section's ']'";
		else if (!*(p->name = trim(s + 1)))
			p->why = "a section without a name";
		else
			p->kind = L_SECTION;
	} else if (!(v = strchr(s, '='))) {
		p->why = "expected 'key = value', a [section] or a # comment";
	} else if (*v++ = '\0', !*(p->name = trim(s))) {
		p->why = "no key before '='";
	} else {
		p->kind = L_SETTING;
		v += strspn(v, " \t");
		/* '#' starts a comment at the value's start or after a blank,
		 * outside quotes: "a#b" and "\"#\"" are values. */
		for (t = v; *t && !p->comment; t++)
			if (*t == '"')
				q = !q;
			else if (*t == '#' && !q &&
			         (t == v || t[-1] == ' ' || t[-1] == '\t'))
				p->comment = t;
		if (p->comment && p->comment > v)
			p->comment[-1] =
			    '\0'; /* a blank: the comment keeps its '#' */
		v = p->comment == v ? v + strlen(v) : trim(v);
		if (*v == '"') {
			size_t n = strlen(v);
			if (n < 2 || v[n - 1] != '"') {
				p->why = "a '\"' without its closing '\"'";
				return;
			}
			v[n - 1] = '\0';
			v++;
		}
		p->value = v;
	}
}

static int find_key(const char *name)
{
	for (int k = 0; k < CFG_NKEYS; k++)
		if (strcasecmp(name, gt_config_keys[k].name) == 0)
			return k;
	return -1;
}

/* Reads a whole regular file: 0 with *out malloc'd (NUL-terminated), 1 when
 * it does not exist, -1 with err set. */
static int slurp(const char *path, char **out, size_t *len, mode_t *mode,
                 char *err, size_t errlen)
{
	struct stat st;
	size_t n = 0;
	ssize_t r;
	char *buf = NULL;
	/* O_NONBLOCK: a FIFO put in its place must not hang the start. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		if (errno == ENOENT)
			return 1;
		snprintf(err, errlen, "cannot read %s: %s", path,
		         strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_size > (off_t)GT_CONFIG_MAX_BYTES) {
		snprintf(err, errlen, "cannot read %s: %s", path,
		         S_ISDIR(st.st_mode) ? "it is a directory"
		         : !S_ISREG(st.st_mode)
		             ? "not a regular file"
		             : "over 1 MiB, not a gputop config file");
		close(fd);
		return -1;
	}
	*mode = st.st_mode & 07777;
	/* To EOF rather than st_size: the file may change meanwhile. */
	if (!(buf = malloc(GT_CONFIG_MAX_BYTES + 2)))
		goto fail;
	while ((r = read(fd, buf + n, GT_CONFIG_MAX_BYTES + 1 - n)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		if ((n += (size_t)r) > GT_CONFIG_MAX_BYTES) {
			errno = EFBIG;
			goto fail;
		}
	}
	close(fd);
	buf[n] = '\0';
	/* A UTF-8 BOM (some Windows editors) is not part of the first line. */
	if (n >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
		memmove(buf, buf + 3, (n -= 3) + 1);
	*out = buf;
	*len = n;
	return 0;
fail:
	snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
	free(buf);
	close(fd);
	return -1;
}

/* The next line of buf[0..len) from *pos, without its '\n'. */
static bool next_line(const char *buf, size_t len, size_t *pos, const char **ls,
                      size_t *ll)
{
	const char *nl;
	if (*pos >= len)
		return false;
	*ls = buf + *pos;
	nl = memchr(*ls, '\n', len - *pos);
	*ll = nl ? (size_t)(nl - *ls) : len - *pos;
	*pos += *ll + 1;
	return true;
}

/* ---- load ----------------------------------------------------------- */

/* Every problem of a load, the settings' and the profiles' alike; the one
 * reported first is the one on the earliest line, since a profile's
 * checks can only run when its block ends. */
struct problems {
	const char *fname;
	int count, first_line;
	char first[512];
};

static void problem(void *ctx, int line, const char *why)
{
	struct problems *pr = ctx;
	if (pr->count++ == 0 || line < pr->first_line) {
		pr->first_line = line;
		snprintf(pr->first, sizeof(pr->first), "%.64s:%d: %s",
		         pr->fname, line, why);
	}
}

int gt_config_load(const char *path, struct gt_config *c, char *err,
                   size_t errlen)
{
	return gt_config_load_profiles(path, c, NULL, err, errlen);
}

int gt_config_load_profiles(const char *path, struct gt_config *c,
                            struct gt_profile_list **profiles, char *err,
                            size_t errlen)
{
	char defpath[PATH_MAX], why[400], sv[200], *buf = NULL;
	const char *ls;
	size_t len = 0, ll, pos = 0;
	mode_t mode;
	int lineno = 0, r, k;
	/* Settings before any section are the dashboard's. */
	enum { S_DASH, S_PROFILE, S_OTHER } sec = S_DASH;
	struct problems pr = {0};
	struct gt_profile_reader *rd;
	struct gt_profile_list *list;
	struct pline *p;

	gt_config_defaults(c);
	if (profiles)
		*profiles = NULL;
	if (errlen)
		err[0] = '\0';
	if (!path && gt_config_default_path(defpath, sizeof(defpath))) {
		snprintf(
		    err, errlen,
		    "no config file: neither XDG_CONFIG_HOME nor HOME is set");
		return -1;
	}
	path = path ? path : defpath;
	if ((r = slurp(path, &buf, &len, &mode, err, errlen)) < 0)
		return -1;
	pr.fname = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	p = malloc(sizeof(*p));
	rd = gt_profile_reader_new(pr.fname, path, problem, &pr);
	if (!p || !rd) {
		snprintf(err, errlen, "cannot read %s: %s", path,
		         strerror(ENOMEM));
		free(p);
		gt_profile_list_free(gt_profile_reader_finish(rd));
		free(buf);
		return -1;
	}
	while (r == 0 && next_line(buf, len, &pos, &ls, &ll)) {
		lineno++;
		why[0] = '\0';
		classify(ls, ll, p);
		if (p->kind == L_SECTION) {
			/* Every header ends the profile being read. */
			if (gt_profile_reader_section(rd, p->name, lineno))
				sec = S_PROFILE;
			else if (strcasecmp(p->name, "dashboard") == 0)
				sec = S_DASH;
			else
				sec = S_OTHER;
			if (sec == S_OTHER)
				snprintf(
				    why, sizeof(why),
				    "section [%s] is not used by this version "
				    "of gputop; it is kept as it is",
				    gt_config_shown(p->name, sv, sizeof(sv)));
		} else if (sec == S_OTHER || p->kind == L_BLANK) {
			continue; /* other sections belong to someone else */
		} else if (sec == S_PROFILE) {
			gt_profile_reader_line(rd, lineno, p->name, p->value,
			                       p->why);
		} else if (p->kind == L_BAD) {
			snprintf(why, sizeof(why), "%s", p->why);
		} else if ((k = find_key(p->name)) < 0) {
			snprintf(why, sizeof(why), "unknown key '%s'",
			         gt_config_shown(p->name, sv, sizeof(sv)));
		} else if (p->why) {
			snprintf(why, sizeof(why), "%s: %s",
			         gt_config_keys[k].name, p->why);
		} else {
			gt_config_parse_value(&gt_config_keys[k], p->value, c,
			                      why, sizeof(why));
		}
		if (why[0])
			problem(&pr, lineno, why);
	}
	free(p);
	free(buf);
	list = gt_profile_reader_finish(rd);
	if (list && r > 0)
		list->exists = false; /* no file: no profiles, and none lost */
	if (profiles && !list) {
		snprintf(err, errlen, "cannot read %s: %s", path,
		         strerror(ENOMEM));
		return -1;
	}
	if (profiles)
		*profiles = list;
	else
		gt_profile_list_free(list);
	if (pr.count)
		snprintf(err, errlen,
		         pr.count == 1 ? "%s" : "%s (and %d more problem%s)",
		         pr.first, pr.count - 1, pr.count > 2 ? "s" : "");
	return pr.count ? 1 : 0;
}

/* ---- save ----------------------------------------------------------- */

int gt_config_default_path(char *out, size_t len)
{
	const char *x = getenv("XDG_CONFIG_HOME"), *home;
	int n;
	if (!len)
		return -1;
	out[0] = '\0';
	/* The XDG spec: a relative XDG_CONFIG_HOME is invalid, ignore it. */
	if (x && x[0] == '/') {
		n = snprintf(out, len, "%s/gputop/gputop.conf", x);
	} else {
		home = getenv("HOME");
		if (!home || !*home) { /* e.g. started by a bare service */
			struct passwd *pw = getpwuid(getuid());
			home = pw ? pw->pw_dir : NULL;
		}
		if (!home || !*home)
			return -1;
		n = snprintf(out, len, "%s/.config/gputop/gputop.conf", home);
	}
	if (n < 0 || (size_t)n >= len) {
		out[0] = '\0';
		return -1;
	}
	return 0;
}

/* A key new to the file, with a comment saying what it takes. */
static void put_key(FILE *f, const struct keydef *k, const struct gt_config *c)
{
	char v[sizeof(((struct gt_config *)0)->theme) + 8], list[160];
	gt_config_column_list(list, sizeof(list));
	gt_config_format_value(k, c, v, sizeof(v));
	fprintf(f, "# %s (%s)\n%s = %s\n", k->help,
	        k->choices ? k->choices : list, k->name, v);
}

static void put_missing(FILE *f, const bool *present, const struct gt_config *c)
{
	for (int k = 0; k < CFG_NKEYS; k++)
		if (!present[k])
			put_key(f, &gt_config_keys[k], c);
}

/*
 * Writes the existing file buf[0..len) with c's settings patched in (rules
 * in config.h). Two passes over the same classifier: the first finds which
 * keys exist and where new ones go, the second copies and replaces.
 */
static void write_patched(FILE *f, const char *buf, size_t len, struct pline *p,
                          const struct gt_config *c)
{
	bool present[CFG_NKEYS] = {false}, written[CFG_NKEYS] = {false};
	bool dash = true, seen_section = false, gap = false;
	long i = 0, anchor = -1, header = -1, top = -1, at;
	size_t pos = 0, ll;
	const char *ls;
	char v[sizeof(((struct gt_config *)0)->theme) + 8];
	int k;

	while (next_line(buf, len, &pos, &ls, &ll)) {
		classify(ls, ll, p);
		if (p->kind == L_SECTION) {
			dash = strcasecmp(p->name, "dashboard") == 0;
			seen_section = true;
			header = dash && header < 0 ? i : header;
		} else if (dash && p->kind == L_SETTING &&
		           (k = find_key(p->name)) >= 0) {
			present[k] = true;
			anchor = i;
		} else if (!seen_section && p->kind != L_BLANK) {
			top = i;
		}
		i++;
	}
	for (k = 0; k < CFG_NKEYS; k++)
		gap = gap || !present[k];
	/* New keys go after the last known one, else after [dashboard], else
	 * after the file's own top-level lines, else first of all. */
	at = anchor >= 0 ? anchor : header >= 0 ? header : top;
	if (at < 0) {
		if (len == 0)
			fputs("# gputop settings, written when you save in "
			      "setup (F2).\n"
			      "# Edit freely: comments and other sections are "
			      "kept. See gputop(1).\n\n",
			      f);
		fputs("[dashboard]\n", f);
		put_missing(f, present, c);
		if (len)
			fputc('\n', f);
	}
	dash = true;
	pos = 0;
	for (i = 0; next_line(buf, len, &pos, &ls, &ll); i++) {
		classify(ls, ll, p);
		if (p->kind == L_SECTION) {
			dash = strcasecmp(p->name, "dashboard") == 0;
			if (i == at + 1 &&
			    gap) /* the added keys end before it */
				fputc('\n', f);
		}
		if (dash && p->kind == L_SETTING &&
		    (k = find_key(p->name)) >= 0) {
			if (!written[k]) { /* later repeats are dropped */
				written[k] = true;
				gt_config_format_value(&gt_config_keys[k], c, v,
				                       sizeof(v));
				fprintf(f, "%s = %s%s%s\n",
				        gt_config_keys[k].name, v,
				        p->comment ? "  " : "",
				        p->comment ? p->comment : "");
			}
		} else {
			/* Kept; as a comment when it would not load cleanly. */
			if (dash && p->kind == L_BAD)
				fputs("# ", f);
			fwrite(ls, 1, ll, f);
			fputc('\n', f);
		}
		if (i == at)
			put_missing(f, present, c);
	}
}

/* mkdir -p of the directories above the file path. */
static int make_dirs(const char *path, char *err, size_t errlen)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (!slash || slash == path)
		return 0;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	return gt_fileio_make_dirs(dir, err, errlen) ? -1 : 0;
}

int gt_config_save(const char *path, const struct gt_config *c, char *err,
                   size_t errlen)
{
	char target[PATH_MAX], *buf = NULL, *out = NULL, *real;
	size_t len = 0, outlen = 0;
	mode_t mode =
	    0600; /* a new file: settings are nobody else's business */
	struct stat st;
	struct pline *p = NULL;
	FILE *f = NULL;
	int e = 0;

	if (errlen)
		err[0] = '\0';
	if (!path && gt_config_default_path(target, sizeof(target))) {
		snprintf(
		    err, errlen,
		    "cannot save: neither XDG_CONFIG_HOME nor HOME is set");
		return -1;
	}
	if (path && (size_t)snprintf(target, sizeof(target), "%s", path) >=
	                sizeof(target)) {
		snprintf(err, errlen, "cannot save: the path is too long");
		return -1;
	}
	if (make_dirs(target, err, errlen))
		return -1;
	/* A symlinked file (dotfile managers) stays a link: write its target.
	 */
	if (lstat(target, &st) == 0 && S_ISLNK(st.st_mode)) {
		if (!(real = realpath(target, NULL)) ||
		    (size_t)snprintf(target, sizeof(target), "%s", real) >=
		        sizeof(target)) {
			snprintf(err, errlen, "cannot follow the link %s: %s",
			         target, strerror(real ? ENAMETOOLONG : errno));
			free(real);
			return -1;
		}
		free(real);
	}
	/* Unreadable: its other sections would be lost, so nothing is written.
	 */
	if (slurp(target, &buf, &len, &mode, err, errlen) < 0)
		return -1;
	/* The new text is made whole in memory, then replaces the file. */
	if (!(p = malloc(sizeof(*p))) || !(f = open_memstream(&out, &outlen))) {
		snprintf(err, errlen, "cannot save %s: %s", target,
		         strerror(ENOMEM));
		e = ENOMEM;
	} else {
		write_patched(f, buf, len, p, c);
		if (fclose(f) != 0) {
			snprintf(err, errlen, "cannot save %s: %s", target,
			         strerror(ENOMEM));
			e = ENOMEM;
		} else {
			e = gt_fileio_replace(target, out, outlen, mode, err,
			                      errlen);
		}
	}
	free(out);
	free(p);
	free(buf);
	return e ? -1 : 0;
}

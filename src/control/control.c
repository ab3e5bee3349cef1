/* SPDX-License-Identifier: MIT */
/*
 * control.c - the control object (see control.h): its configuration, the
 * restore journal it notes originals in and saves before every first
 * write, the audit log, the real sysfs writer, and the restore through
 * gt_restore_apply, each action by the ops of the vendor it records. It
 * names no vendor: the vendors are handed in (gt_control_config.vendors),
 * and their writes live in their own files (control_vendor.h).
 */
#include "control/control.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include "control/control_priv.h"
#include "control/control_vendor.h"

struct gt_control {
	const struct gt_nvml_api *nvml;
	const struct gt_control_ops *const *vendors; /* NULL-terminated */
	bool privileged;
	bool syslog;
	time_t fixed_time;
	/* The fan loops' audit: while in_loop, the writes of each (device,
	 * setting) after its first are counted into a run and written as one
	 * line a period (and at the run's end) instead of one line each. */
	unsigned in_loop; /* the loop writing now (0: none) */
	unsigned loop_period_s;
	struct audit_run {
		bool used;
		unsigned loop;
		char dev[GT_RESTORE_DEV_MAX];
		char setting[48];
		unsigned writes, failed;
		double min, max;
		char last[32];
		int64_t since;
	} runs[16];
	gt_control_write_fn write;
	void *write_ctx;
	int (*journal_saved)(void *ctx, const struct gt_restore_journal *j,
	                     char *err, size_t len);
	void *journal_ctx;
	/* The journal's length before the last prepare: what a setter whose
	 * write was refused (nothing changed) withdraws to, keeping only the
	 * actions of that prepare marked written (their setting changed, or
	 * may have). Indexed like j.a. */
	size_t prepared_from;
	bool written[GT_RESTORE_MAX_ACTIONS];
	char root[PATH_MAX];
	char state[PATH_MAX];
	char audit[PATH_MAX];
	struct gt_restore_journal j;
};

int gt_control_refuse(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (err && len) {
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
	}
	return GT_CONTROL_REFUSED;
}

/* ------------------------------------------------------------------ */
/* The control object, journal and audit log                           */
/* ------------------------------------------------------------------ */

static int copy_path(char *dst, const char *src)
{
	size_t n = strlen(src);

	if (n >= PATH_MAX)
		return -1;
	memcpy(dst, src, n + 1);
	return 0;
}

/* The vendor that restores a: the one it names, or for a record with no
 * vendor (a sysfs record of a version-1 state file) the first whose
 * owns_file claims its path. NULL: none. */
static const struct gt_control_ops *owner(const struct gt_control *c,
                                          const struct gt_restore_action *a)
{
	for (size_t i = 0; c->vendors && c->vendors[i]; i++) {
		const struct gt_control_ops *o = c->vendors[i];
		if (a->vendor[0] ? strcmp(a->vendor, o->name) == 0
		                 : o->owns_file && o->owns_file(a->path))
			return o;
	}
	return NULL;
}

/* Names the vendor of every version-1 record some vendor claims, so that
 * the journal can be saved again (only version 2 is written). */
static void claim_version1(struct gt_control *c)
{
	for (size_t i = 0; i < c->j.n; i++) {
		const struct gt_control_ops *o =
		    c->j.a[i].vendor[0] ? NULL : owner(c, &c->j.a[i]);
		if (o)
			snprintf(c->j.a[i].vendor, sizeof(c->j.a[i].vendor),
			         "%s", o->name);
	}
}

struct gt_control *gt_control_new(const struct gt_control_config *cfg,
                                  char *err, size_t len)
{
	struct gt_control *c = calloc(1, sizeof(*c));
	const char *root = cfg->sysfs_root ? cfg->sysfs_root : "/sys";
	struct stat st;
	char *slash;

	if (!c) {
		gt_control_refuse(err, len, "out of memory");
		return NULL;
	}
	c->nvml = cfg->nvml;
	c->vendors = cfg->vendors;
	c->privileged = cfg->privileged == GT_CONTROL_PRIV_AUTO
	                    ? geteuid() == 0
	                    : cfg->privileged == GT_CONTROL_PRIV_YES;
	c->fixed_time = cfg->fixed_time;
	c->loop_period_s =
	    cfg->audit_loop_period_s ? cfg->audit_loop_period_s : 60;
	c->syslog = cfg->syslog;
	c->write = cfg->write;
	c->write_ctx = cfg->write_ctx;
	c->journal_saved = cfg->journal_saved;
	c->journal_ctx = cfg->journal_ctx;
	if (copy_path(c->root, root) || gt_restore_init(&c->j, root)) {
		gt_control_refuse(err, len,
		                  "sysfs root %s: not an absolute path", root);
		goto fail;
	}
	if (cfg->state_path ? copy_path(c->state, cfg->state_path)
	                    : gt_restore_default_path(c->state, PATH_MAX)) {
		gt_control_refuse(err, len,
		                  "no place for the restore state file (set "
		                  "HOME or XDG_STATE_HOME)");
		goto fail;
	}
	/* The audit log sits beside the state file by default: the same
	 * private directory, per user, /var/lib/gputop for root. */
	if (cfg->audit_path) {
		if (copy_path(c->audit, cfg->audit_path))
			goto long_path;
	} else {
		memcpy(c->audit, c->state, PATH_MAX);
		slash = strrchr(c->audit, '/');
		if (!slash || (size_t)(slash - c->audit) + 11 >= PATH_MAX)
			goto long_path;
		strcpy(slash + 1, "audit.log");
	}
	/* A state file left by a gputop that died holds the true originals
	 * (the devices now hold gputop's values): keep it, never save over
	 * it with an empty journal. */
	if (lstat(c->state, &st) == 0 &&
	    gt_restore_load(c->state, root, &c->j, err, len) != 0)
		goto fail;
	claim_version1(c);
	return c;
long_path:
	gt_control_refuse(err, len, "audit log path too long");
fail:
	free(c);
	return NULL;
}

void gt_control_free(struct gt_control *c)
{
	free(c);
}

bool gt_control_privileged(const struct gt_control *c)
{
	return c->privileged;
}

const char *gt_control_readonly_reason(const struct gt_control *c)
{
	return c->privileged ? ""
	                     : "changing GPU settings needs root: run gputop "
	                       "with sudo (gputop is never setuid)";
}

size_t gt_control_pending(const struct gt_control *c)
{
	return c->j.n;
}

const struct gt_restore_journal *gt_control_journal(const struct gt_control *c)
{
	return &c->j;
}

const char *gt_control_state_path(const struct gt_control *c)
{
	return c->state;
}

const struct gt_control_ops *gt_control_vendor_ops(const struct gt_control *c,
                                                   enum gt_vendor v)
{
	for (size_t i = 0; c->vendors && c->vendors[i]; i++)
		if (c->vendors[i]->vendor == v)
			return c->vendors[i];
	return NULL;
}

const struct gt_nvml_api *gt_control_nvml_api(const struct gt_control *c)
{
	return c->nvml;
}

int64_t gt_control_now(const struct gt_control *c)
{
	return c->fixed_time ? (int64_t)c->fixed_time : (int64_t)time(NULL);
}

int gt_control_refuse_unprivileged(const struct gt_control *c, const char *what,
                                   char *err, size_t len)
{
	(void)c;
	return gt_control_refuse(
	    err, len,
	    "%s needs root: run gputop with sudo (gputop is never "
	    "setuid; without root its dialogs are read-only)",
	    what);
}

/* mkdir -p of path's parent directory, private like the state file's. */
static void make_parent(const char *path)
{
	char dir[PATH_MAX];

	memcpy(dir, path, strlen(path) + 1);
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		(void)mkdir(dir, 0700);
		*p = '/';
	}
}

static int open_audit(const struct gt_control *c)
{
	return open(c->audit,
	            O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
	            0600);
}

/* "text" with \" \\ and \xNN for what is not printable ASCII: one field,
 * one line, whatever a sysfs file held. */
static void quote(char *dst, size_t size, const char *s)
{
	size_t k = 0;

	dst[k++] = '"';
	for (; s && *s && k + 6 < size; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			k += (size_t)snprintf(dst + k, size - k, "\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			k += (size_t)snprintf(dst + k, size - k, "\\x%02x", ch);
		else
			dst[k++] = (char)ch;
	}
	dst[k++] = '"';
	dst[k] = '\0';
}

static void audit_stamp(const struct gt_control *c, char *t, size_t len)
{
	time_t now = (time_t)gt_control_now(c);
	struct tm tm;

	if (!gmtime_r(&now, &tm) ||
	    strftime(t, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(t, len, "@%lld", (long long)now);
}

/* Appends one line (and sends it to syslog without its time stamp). */
static void audit_write(struct gt_control *c, char *line, int n,
                        size_t stamp_len)
{
	int fd;

	if (n < 0)
		return;
	if ((size_t)n >= GT_CONTROL_AUDIT_LINE_MAX)
		n = GT_CONTROL_AUDIT_LINE_MAX - 1, line[n - 1] = '\n';
	if (c->syslog && (size_t)n > stamp_len + 2)
		syslog(LOG_NOTICE, "%.*s", (int)((size_t)n - stamp_len - 2),
		       line + stamp_len + 1);
	/* One O_APPEND write a line: the guardian may log to the same file. */
	make_parent(c->audit);
	fd = open_audit(c);
	if (fd < 0)
		return;
	struct stat st;
	char old[PATH_MAX + 2];
	/* The cap: past it the log becomes audit.log.1 (the one before is
	 * dropped) and a new one starts, so years of a daemon stay small. */
	if (fstat(fd, &st) == 0 && st.st_size >= GT_CONTROL_AUDIT_MAX &&
	    snprintf(old, sizeof(old), "%s.1", c->audit) < (int)sizeof(old) &&
	    rename(c->audit, old) == 0) {
		close(fd);
		fd = open_audit(c);
		if (fd < 0)
			return;
	}
	if (write(fd, line, (size_t)n) != n) {
		/* nothing better to do: the write itself already happened */
	}
	close(fd);
}

/* "TIME fan-loop DEV SETTING WHAT: N writes, min .. max, last V[, F
 * failed]" for the run's writes since its last line; the run restarts. */
static void run_flush(struct gt_control *c, struct audit_run *r,
                      const char *what)
{
	char t[32], line[GT_CONTROL_AUDIT_LINE_MAX], failed[32] = "";

	if (r->writes == 0)
		return;
	audit_stamp(c, t, sizeof(t));
	if (r->failed)
		snprintf(failed, sizeof(failed), ", %u failed", r->failed);
	int n = snprintf(line, sizeof(line),
	                 "%s fan-loop %s %s %s: %u writes in %llds, min %g max "
	                 "%g last \"%s\"%s\n",
	                 t, r->dev, r->setting, what, r->writes,
	                 (long long)(gt_control_now(c) - r->since), r->min,
	                 r->max, r->last, failed);
	audit_write(c, line, n, strlen(t));
	r->writes = r->failed = 0;
	r->since = gt_control_now(c);
}

/* A loop's write: counted into its run (true), or to be written as a line
 * of its own (false): the run's first, or one that failed. */
static bool run_count(struct gt_control *c, const char *dev,
                      const char *setting, const char *value,
                      const char *result)
{
	struct audit_run *r = NULL, *free_run = NULL;
	bool ok = strcmp(result, "ok") == 0;
	char *end;
	double v = strtod(value, &end);

	for (size_t i = 0; i < sizeof(c->runs) / sizeof(c->runs[0]); i++) {
		struct audit_run *x = &c->runs[i];
		if (x->used && x->loop == c->in_loop &&
		    strcmp(x->dev, dev) == 0 &&
		    strcmp(x->setting, setting) == 0)
			r = x;
		else if (!x->used && !free_run)
			free_run = x;
	}
	if (!r) {
		if (!free_run || strlen(dev) >= sizeof(free_run->dev) ||
		    strlen(setting) >= sizeof(free_run->setting))
			return false; /* no room: every line written */
		*free_run = (struct audit_run){.used = true,
		                               .loop = c->in_loop,
		                               .since = gt_control_now(c)};
		memcpy(free_run->dev, dev, strlen(dev) + 1);
		memcpy(free_run->setting, setting, strlen(setting) + 1);
		return false; /* the loop's first write: a line of its own */
	}
	if (!ok) {
		r->failed++; /* counted, and written as a line of its own */
		return false;
	}
	if (end != value) {
		r->min = r->writes && r->min < v ? r->min : v;
		r->max = r->writes && r->max > v ? r->max : v;
	}
	r->writes++;
	snprintf(r->last, sizeof(r->last), "%s", value);
	if (gt_control_now(c) - r->since >= (int64_t)c->loop_period_s)
		run_flush(c, r, "running");
	return true;
}

void gt_control_audit_loop(struct gt_control *c, unsigned loop)
{
	c->in_loop = loop;
}

void gt_control_audit_loop_end(struct gt_control *c, unsigned loop)
{
	for (size_t i = 0; i < sizeof(c->runs) / sizeof(c->runs[0]); i++) {
		struct audit_run *r = &c->runs[i];
		if (!r->used || r->loop != loop)
			continue;
		if (r->writes)
			run_flush(c, r, "ended");
		else {
			char t[32], line[GT_CONTROL_AUDIT_LINE_MAX];
			audit_stamp(c, t, sizeof(t));
			int n = snprintf(line, sizeof(line),
			                 "%s fan-loop %s %s ended\n", t, r->dev,
			                 r->setting);
			audit_write(c, line, n, strlen(t));
		}
		r->used = false;
	}
}

void gt_control_audit(struct gt_control *c, const char *kind, const char *dev,
                      const char *setting, const char *old,
                      const char *new_value, const char *result)
{
	char t[32], qo[400], qn[400], line[GT_CONTROL_AUDIT_LINE_MAX];

	if (c->in_loop && strcmp(kind, "write") == 0 &&
	    run_count(c, dev, setting, new_value ? new_value : "",
	              result ? result : ""))
		return;
	audit_stamp(c, t, sizeof(t));
	quote(qo, sizeof(qo), old);
	quote(qn, sizeof(qn), new_value);
	int n = snprintf(line, sizeof(line), "%s %s %s %s old=%s new=%s %s\n",
	                 t, kind, dev, setting, qo, qn, result);
	audit_write(c, line, n, strlen(t));
}

/* Opens the audit log (creating it) and closes it again, before writes
 * and restores alike: a change that leaves no line in the log is not
 * made, since audit_write itself can only drop a line it cannot write.
 * what: what is then not done ("nothing written"). */
static int audit_ready(struct gt_control *c, const char *what, char *err,
                       size_t len)
{
	int fd;

	make_parent(c->audit);
	fd = open_audit(c);
	if (fd < 0)
		return gt_control_refuse(err, len,
		                         "cannot open the audit log %s: %s; "
		                         "%s (it must be a file gputop can "
		                         "append to, not a directory or a "
		                         "symbolic link)",
		                         c->audit, strerror(errno), what);
	close(fd);
	return 0;
}

/* Notes the actions and saves the state file when any is new; on failure
 * none stays noted. */
static int note(struct gt_control *c, const struct gt_restore_action *a,
                size_t n, char *err, size_t len)
{
	char why[GT_RESTORE_PATH_MAX + 128];
	size_t n0 = c->j.n;
	bool added = false;

	c->prepared_from = n0;
	memset(c->written, 0, sizeof(c->written));
	for (size_t i = 0; i < n; i++) {
		int rc = gt_restore_note(&c->j, &a[i], why, sizeof(why));
		if (rc < 0) {
			c->j.n = n0;
			return gt_control_refuse(err, len,
			                         "cannot journal the original "
			                         "value: %s; nothing written",
			                         why);
		}
		added |= rc == 0;
	}
	if (!added)
		return 0;
	if (gt_restore_save(&c->j, c->state, why, sizeof(why)) != 0) {
		c->j.n = n0; /* nothing of it was written: forget it */
		return gt_control_refuse(err, len,
		                         "cannot save the restore state: %s; "
		                         "nothing written",
		                         why);
	}
	/* The guardian must hold the originals before the write too. */
	if (c->journal_saved &&
	    c->journal_saved(c->journal_ctx, &c->j, why, sizeof(why)) != 0)
		return gt_control_refuse(err, len,
		                         "cannot hand the restore state to the "
		                         "guardian: %s; nothing written",
		                         why);
	return 0;
}

int gt_control_prepare(struct gt_control *c, const struct gt_restore_action *a,
                       size_t n, char *err, size_t len)
{
	if (audit_ready(c, "nothing written", err, len))
		return -1;
	return note(c, a, n, err, len) ? -1 : 0;
}

/* Saves the journal and hands it on, or removes the state file when the
 * journal is empty (it exists only while a change is in force). */
static int journal_commit(struct gt_control *c, char *why, size_t len)
{
	if (c->j.n == 0 ? gt_restore_clear(c->state) < 0
	                : gt_restore_save(&c->j, c->state, why, len) != 0)
		return -1;
	return c->journal_saved
	           ? c->journal_saved(c->journal_ctx, &c->j, why, len)
	           : 0;
}

int gt_control_settle(struct gt_control *c, const struct gt_restore_action *now)
{
	char why[GT_RESTORE_PATH_MAX + 128];

	if (gt_restore_settle(&c->j, now) == 0)
		return 0;
	c->prepared_from = c->j.n; /* nothing of the last prepare to take */
	return journal_commit(c, why, sizeof(why));
}

int gt_control_withdraw(struct gt_control *c)
{
	char why[GT_RESTORE_PATH_MAX + 128];
	size_t k = c->prepared_from;

	if (c->j.n <= c->prepared_from)
		return 0;
	for (size_t i = c->prepared_from; i < c->j.n; i++)
		if (c->written[i]) {
			c->j.a[k] = c->j.a[i];
			c->written[k++] = true;
		}
	if (k == c->j.n)
		return 0;
	c->j.n = k;
	return journal_commit(c, why, sizeof(why));
}

bool gt_control_errno_unchanged(int e)
{
	switch (e < 0 ? -e : e) {
	case EACCES: /* open refused: nothing written */
	case EPERM:
	case ENOENT:
	case EISDIR:
	case ENOTDIR:
	case ELOOP:
	case EROFS:
	case ENXIO:
	case EXDEV:  /* gputop's own check refused the file */
	case EINVAL: /* the driver rejected the value */
	case EIO:
		return true;
	default:
		return false;
	}
}

void gt_control_wrote(struct gt_control *c, const char *path, int rc)
{
	if (rc != 0 && gt_control_errno_unchanged(rc)) {
		gt_control_withdraw(c);
		return;
	}
	for (size_t i = c->prepared_from; i < c->j.n; i++)
		if (rc != 0 || (c->j.a[i].kind == GT_RESTORE_SYSFS &&
		                strcmp(c->j.a[i].path, path) == 0))
			c->written[i] = true;
}

int gt_control_write_file(const char *path, const char *value)
{
	char buf[GT_RESTORE_VALUE_MAX + 1];
	size_t n = strlen(value);
	struct stat st;
	ssize_t w;
	int fd, e = 0;

	if (n >= GT_RESTORE_VALUE_MAX)
		return -EINVAL;
	memcpy(buf, value, n);
	buf[n++] = '\n';
	fd = open(path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_NONBLOCK |
	                    O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	/* One write(): the kernel parses each write as one command. */
	do
		w = write(fd, buf, n);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		e = errno;
	else if ((size_t)w != n)
		e = EIO;
	if (close(fd) != 0 && !e)
		e = errno;
	return -e;
}

const char *gt_control_sysfs_root(const struct gt_control *c)
{
	return c->root;
}

int gt_control_write_value(struct gt_control *c, const char *path,
                           const char *value)
{
	return c->write ? c->write(c->write_ctx, path, value)
	                : gt_control_write_file(path, value);
}

/* ------------------------------------------------------------------ */
/* Restore                                                              */
/* ------------------------------------------------------------------ */

static int restore_one(void *ctx, const struct gt_restore_action *a)
{
	struct gt_control *c = ctx;
	const struct gt_control_ops *o = owner(c, a);
	char res[GT_RESTORE_VENDOR_MAX + 64];

	if (o && o->restore)
		return o->restore(c, a);
	if (a->vendor[0])
		snprintf(res, sizeof(res),
		         "refused: no vendor \"%s\" in this gputop", a->vendor);
	else
		snprintf(res, sizeof(res), "refused: not a file gputop writes");
	gt_control_audit(c, "restore", a->vendor[0] ? a->dev : "?",
	                 a->path[0] ? a->path : gt_restore_kind_name(a->kind),
	                 "", a->value, res);
	return -EPERM;
}

static int cleared(void *ctx)
{
	return gt_control_forget(ctx);
}

void gt_control_restore_ops(struct gt_control *c, struct gt_restore_ops *ops)
{
	*ops = (struct gt_restore_ops){
	    .ctx = c, .restore = restore_one, .cleared = cleared};
}

int gt_control_load_state(struct gt_control *c, char *err, size_t len)
{
	struct stat st;

	/* A journal in use is what the file holds (it is saved at each
	 * note); a missing file is nothing to restore. */
	if (c->j.n > 0 || lstat(c->state, &st) != 0)
		return 0;
	if (gt_restore_load(c->state, c->root, &c->j, err, len))
		return -1;
	claim_version1(c);
	return 0;
}

int gt_control_restore_all(struct gt_control *c, char *report, size_t len)
{
	struct gt_restore_ops ops;
	int failures;

	if (!c->privileged) {
		gt_control_refuse(
		    report, len, "%s",
		    "restoring GPU settings needs root: run gputop "
		    "--restore with sudo");
		return -1;
	}
	/* As a write's: a restore is a write too, and the journal stays
	 * for the next try. */
	if (c->j.n > 0 && audit_ready(c, "nothing restored", report, len))
		return -1;
	gt_control_restore_ops(c, &ops);
	failures = gt_restore_apply(&c->j, &ops, report, len);
	/* Keep the state file (and the journal) until every action worked:
	 * a later --restore can try the rest again. */
	if (failures == 0 && gt_restore_clear(c->state) == 0)
		gt_restore_init(&c->j, c->root);
	return failures;
}

int gt_control_forget(struct gt_control *c)
{
	if (gt_restore_clear(c->state) < 0)
		return -1;
	gt_restore_init(&c->j, c->root);
	return 0;
}

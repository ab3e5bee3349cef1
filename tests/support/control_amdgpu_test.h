/* SPDX-License-Identifier: MIT */
/*
 * control_amdgpu_test.h - the test bench shared by the tests of the AMD
 * control writes (test_control_amdgpu.c, test_control_amdgpu_fan.c): a
 * writable copy of an amdgpu fixture with a control on it, a checksum of
 * the whole tree, and a test writer.
 *
 * The fixture files are regular files, not kernel attributes. The test
 * writer records every write ("leaf=value") and, where a test asks for it,
 * emulates the kernel: power1_cap keeps whole watts, pp_power_profile_mode
 * moves its '*' (SMU7 and nested layouts), fan_curve takes points and
 * shows them on "c" ("r" resets them). Without emulation the file simply
 * holds the last value written, as the brief's fan_curve check expects.
 * static inline so each test uses what it needs.
 */
#ifndef GPUTOP_CONTROL_AMDGPU_TEST_H
#define GPUTOP_CONTROL_AMDGPU_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "control/control.h"
#include "control/control_amdgpu.h"
#include "control/control_vendors.h"

#define T0    1767225600 /* 2026-01-01T00:00:00Z */
#define STAMP "2026-01-01T00:00:00Z"
#define HDR                                                                    \
	"# gputop restore state: the original values of the settings gputop "  \
	"changed.\n# Written before each first change; `gputop --restore` "    \
	"puts them back.\ngputop-restore 2\n"

struct env {
	char tmp[64], root[256], dev[512], state[256], audit[256];
	char writes[8192]; /* "leaf=value\n" per write, leaf under dev */
	bool emulate;
	int pt[5][2];           /* the emulated firmware's pending curve */
	uint64_t sum0;          /* the tree's checksum at setup */
	char swap[2][PATH_MAX]; /* on the next write: make [0] a link to [1] */
	const char *refuse;     /* a write to a path ending so fails with */
	int refuse_rc;          /* this -errno, as the driver would */
	struct gt_control *c;
};

static inline char *slurp(const char *path)
{
	static char buf[4][16384]; /* up to four results in one assert */
	static char missing[] = "(missing)";
	static int k;
	char *b = buf[k++ % 4];
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(b, 1, sizeof(buf[0]) - 1, f) : 0;

	if (f)
		fclose(f);
	b[f ? n : 0] = '\0';
	return f ? b : missing;
}

static inline void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static inline bool ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Order-independent checksum of every path, file content and link. */
static inline uint64_t tree_sum(const char *dir)
{
	uint64_t sum = 0;
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char path[PATH_MAX];
		const char *data = "";
		uint64_t h = 1469598103934665603ull;
		struct stat st;
		ssize_t n;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		assert_int_equal(lstat(path, &st), 0);
		if (S_ISDIR(st.st_mode)) {
			sum += 31 * tree_sum(path);
		} else if (S_ISLNK(st.st_mode)) {
			static char link[PATH_MAX];
			n = readlink(path, link, sizeof(link) - 1);
			link[n > 0 ? n : 0] = '\0';
			data = link;
		} else {
			data = slurp(path);
		}
		for (const char *p = path; *p; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211ull;
		for (const char *p = data; *p; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211ull;
		sum += h;
	}
	if (d)
		closedir(d);
	return sum;
}

/* SMU7 prints "%3d %16s:" with " *" after the active name; the nested
 * layout "%2d %14s%c:" with '*' or ' '. */
static inline int emulate_profile(const char *path, const char *value)
{
	char in[16384], out[16384], name[32], *p, *nl;
	size_t k = 0;
	bool smu7;
	int n;

	snprintf(in, sizeof(in), "%s", slurp(path));
	smu7 = strncmp(in, "NUM", 3) == 0;
	for (p = in; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		*nl = '\0';
		if (sscanf(p, "%d %31[A-Z0-9_]", &n, name) == 2 &&
		    strchr(p, ':')) {
			char nm[40];
			bool on = n == value[0] - '0';
			snprintf(nm, sizeof(nm), "%s%s", name,
			         on && smu7 ? " *" : "");
			k += (size_t)snprintf(
			    out + k, sizeof(out) - k,
			    smu7 ? "%3d %16s%s:%s\n" : "%2d %14s%s:%s\n", n, nm,
			    smu7 ? ""
			    : on ? "*"
			         : " ",
			    strchr(p, ':') + 1);
		} else {
			k += (size_t)snprintf(out + k, sizeof(out) - k, "%s\n",
			                      p);
		}
	}
	put(path, out);
	return 0;
}

static inline int emulate_curve(struct env *e, const char *path,
                                const char *value)
{
	char out[1024], *range = strstr(slurp(path), "OD_RANGE:");
	int i, t, s;
	size_t k;

	if (sscanf(value, "%d %d %d", &i, &t, &s) == 3 && i >= 0 && i < 5) {
		e->pt[i][0] = t, e->pt[i][1] = s;
		return 0;
	}
	if (!strcmp(value, "r")) {
		memset(e->pt, 0, sizeof(e->pt));
		return 0;
	}
	if (strcmp(value, "c") != 0)
		return -EINVAL;
	k = (size_t)snprintf(out, sizeof(out), "OD_FAN_CURVE:\n");
	for (i = 0; i < 5; i++)
		k +=
		    (size_t)snprintf(out + k, sizeof(out) - k, "%d: %dC %d%%\n",
		                     i, e->pt[i][0], e->pt[i][1]);
	snprintf(out + k, sizeof(out) - k, "%s", range ? range : "");
	put(path, out);
	return 0;
}

static inline int kernel_write(void *ctx, const char *path, const char *value)
{
	struct env *e = ctx;
	size_t n = strlen(e->writes);
	char buf[32];

	snprintf(e->writes + n, sizeof(e->writes) - n, "%s=%s\n",
	         path + strlen(e->dev) + 1, value);
	if (e->swap[0][0]) { /* someone swaps a file while gputop writes */
		assert_int_equal(unlink(e->swap[0]), 0);
		assert_int_equal(symlink(e->swap[1], e->swap[0]), 0);
		e->swap[0][0] = '\0';
	}
	if (e->refuse && ends(path, e->refuse))
		return e->refuse_rc;
	if (e->emulate && ends(path, "/fan_curve"))
		return emulate_curve(e, path, value);
	if (e->emulate && ends(path, "/pp_power_profile_mode"))
		return emulate_profile(path, value);
	if (e->emulate && ends(path, "/power1_cap")) {
		snprintf(buf, sizeof(buf), "%lu",
		         strtoul(value, NULL, 10) / 1000000 * 1000000);
		value = buf;
	}
	return gt_control_write_file(path, value);
}

static inline struct gt_control *new_control(struct env *e,
                                             enum gt_control_priv priv)
{
	struct gt_control_config cfg = {
	    .vendors = gt_control_vendors,
	    .sysfs_root = e->root,
	    .state_path = e->state,
	    .audit_path = e->audit,
	    .privileged = priv,
	    .fixed_time = T0,
	    .write = kernel_write,
	    .write_ctx = e,
	};
	char err[512] = "";
	struct gt_control *c = gt_control_new(&cfg, err, sizeof(err));

	if (!c)
		fail_msg("gt_control_new: %s", err);
	return c;
}

static inline struct env *setup(const char *card, const char *cardn,
                                bool emulate, enum gt_control_priv priv)
{
	struct env *e = calloc(1, sizeof(*e));
	const char *fx = getenv("GPUTOP_FIXTURES");
	char cmd[1024], path[1024];
	int i, t, s;

	assert_non_null(e);
	snprintf(e->tmp, sizeof(e->tmp), "/tmp/gt-ctl-XXXXXX");
	assert_non_null(mkdtemp(e->tmp));
	snprintf(e->root, sizeof(e->root), "%s/sys", e->tmp);
	snprintf(cmd, sizeof(cmd),
	         "cp -R '%s/amdgpu/%s' '%s' && chmod -R u+w '%s'",
	         fx ? fx : "tests/fixtures", card, e->root, e->root);
	assert_int_equal(system(cmd), 0);
	snprintf(e->dev, sizeof(e->dev), "%s/class/drm/%s/device", e->root,
	         cardn);
	snprintf(e->state, sizeof(e->state), "%s/state/restore.state", e->tmp);
	snprintf(e->audit, sizeof(e->audit), "%s/audit.log", e->tmp);
	e->emulate = emulate;
	snprintf(path, sizeof(path), "%s/gpu_od/fan_ctrl/fan_curve", e->dev);
	for (char *p = slurp(path); p && *p;
	     p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (sscanf(p, "%d: %dC %d%%", &i, &t, &s) == 3 && i >= 0 &&
		    i < 5)
			e->pt[i][0] = t, e->pt[i][1] = s;
	e->sum0 = tree_sum(e->root);
	e->c = new_control(e, priv);
	return e;
}

static inline void done(struct env *e)
{
	char cmd[PATH_MAX];

	gt_control_free(e->c);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", e->tmp);
	assert_int_equal(system(cmd), 0);
	free(e);
}

static inline char *devfile(struct env *e, const char *leaf)
{
	static char path[4][PATH_MAX];
	static int k;
	char *p = path[k++ % 4];

	snprintf(p, PATH_MAX, "%s/%s", e->dev, leaf);
	return p;
}

/* A refusal: REFUSED, err contains want, and no file anywhere changed. */
#define REFUSED(e, call, want)                                                 \
	do {                                                                   \
		char err_[512] = "";                                           \
		size_t w_ = strlen((e)->writes);                               \
		assert_int_equal((call), GT_CONTROL_REFUSED);                  \
		if (!strstr(err_, (want)))                                     \
			fail_msg("err \"%s\" lacks \"%s\"", err_, (want));     \
		assert_int_equal(strlen((e)->writes), w_);                     \
		assert_true(tree_sum((e)->root) == (e)->sum0);                 \
	} while (0)
#define ERR err_, sizeof(err_)

#endif

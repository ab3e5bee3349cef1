/* SPDX-License-Identifier: MIT */
/*
 * cli.c - the option table and its parser. The table is the single list of
 * flags: the parser and the unknown-flag message both come from it.
 */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/collector.h"
#include "export/http.h"
#include "export/metrics.h"

const char gt_cli_usage[] =
    "Usage: gputop [OPTION]...\n"
    "       gputop serve [--listen ADDR:PORT] [OPTION]...\n"
    "Watch GPUs: utilization, memory, temperatures, power, clocks, PCIe,\n"
    "throttling and processes, for NVIDIA (NVML), AMD (amdgpu) and Intel\n"
    "(i915, xe) GPUs.\n"
    "\n"
    "Modes:\n"
    "      (none)            start the dashboard (? shows its keys); with no\n"
    "                        GPU, explain why and show the built-in demo\n"
    "                        machine, labelled DEMO\n"
    "      --snapshot        print one JSON document (schema gputop.snapshot "
    "v1)\n"
    "                        taken over one --interval, then exit\n"
    "      --list            print a table of backends and devices, saying why "
    "a\n"
    "                        backend found nothing, then exit\n"
    "      --apply PROFILE   apply a profile from gputop.conf (power and fan\n"
    "                        settings per GPU) without the dashboard, then "
    "exit\n"
    "      --daemon          with --apply: stay running to drive the "
    "profile's\n"
    "                        software fan curves; restore everything on exit\n"
    "      --restore         put back the settings an earlier gputop changed "
    "and\n"
    "                        could not restore (from its state file), then "
    "exit\n"
    "      serve             export metrics over HTTP without the dashboard:\n"
    "                        /metrics (Prometheus), /api/v1/snapshot (JSON),\n"
    "                        /-/ready, /-/healthy; until SIGINT/SIGTERM\n"
    "      --json            print one snapshot per line (NDJSON) each\n"
    "                        --interval, until --count lines or SIGINT\n"
    "      --textfile DIR    write DIR/gputop.prom (metrics, atomically) each\n"
    "                        --interval, for node_exporter's textfile\n"
    "                        collector; alone or with serve\n"
    "  -h, --help            show this help and exit\n"
    "  -V, --version         show the version and exit\n"
    "\n"
    "Options:\n"
    "  -d, --interval SEC    sampling interval in seconds, 0.1 to 3600 "
    "(default 1)\n"
    "      --demo            use the built-in simulated machine instead of "
    "GPUs\n"
    "      --seed N          seed of the demo machine (default 1)\n"
    "      --nvml-lib PATH   NVML library to load (default libnvidia-ml.so.1)\n"
    "      --sysfs DIR       read sysfs from DIR instead of /sys (a DIR that "
    "is\n"
    "                        missing or not a directory is a usage error)\n"
    "      --procfs DIR      read processes from DIR instead of /proc (to "
    "watch\n"
    "                        the host from inside a container)\n"
    "      --theme NAME      colour theme: a name (--themes-dir,\n"
    "                        ~/.config/gputop/themes, ~/.config/btop/themes,\n"
    "                        the themes that came with gputop) or a path to a\n"
    "                        btop-format .theme file (any length)\n"
    "      --themes-dir DIR  look for themes in DIR first\n"
    "      --listen ADDR:PORT  serve HTTP there (serve: default "
    "127.0.0.1:29471;\n"
    "                        with the dashboard: also serve while it runs);\n"
    "                        0.0.0.0:29471 for every interface, PORT 0 = any\n"
    "      --count N         --json, --textfile: stop after N samples\n"
    "      --metrics-processes N  add per-process metrics for the top N\n"
    "                        processes of each GPU by memory (default 0: "
    "none)\n"
    "      --web-config FILE  serve, --listen: TLS (tls_server_config:\n"
    "                        cert_file, key_file) and basic auth\n"
    "                        (basic_auth_users: NAME: BCRYPT-HASH) from a\n"
    "                        Prometheus exporter web-config file\n"
    "      --state-dir DIR   keep the restore state file and the audit log in\n"
    "                        DIR (default $XDG_STATE_HOME/gputop, or\n"
    "                        /var/lib/gputop as root)\n"
    "\n"
    "Control: in the dashboard, p opens the power dialog and f the fan dialog\n"
    "of the selected GPU. Changes need root; gputop shows exactly what it\n"
    "will write, reverts after 10 s unless kept, and restores the originals\n"
    "on exit (a guardian process does it if gputop dies or hangs). A write\n"
    "the driver does not answer in 4 s is given up on, and gputop says so.\n"
    "\n"
    "Environment: NO_COLOR (no colours), COLORTERM, XDG_STATE_HOME (where s\n"
    "saves snapshots), XDG_CONFIG_HOME (settings, profiles, user themes).\n"
    "\n"
    "Exit status: 0 success, 1 runtime error, 2 usage error, 128+N stopped\n"
    "by signal N before anything was written or changed.\n"
    "See gputop(1) for the JSON schema.\n";

enum opt_id {
	OPT_SNAPSHOT,
	OPT_LIST,
	OPT_HELP,
	OPT_VERSION,
	OPT_INTERVAL,
	OPT_DEMO,
	OPT_SEED,
	OPT_NVML_LIB,
	OPT_SYSFS,
	OPT_PROCFS,
	OPT_THEME,
	OPT_THEMES_DIR,
	OPT_APPLY,
	OPT_DAEMON,
	OPT_RESTORE,
	OPT_STATE_DIR,
	OPT_JSON,
	OPT_TEXTFILE,
	OPT_LISTEN,
	OPT_COUNT,
	OPT_METRICS_PROCESSES,
	OPT_WEB_CONFIG,
};

struct opt_def {
	const char *longname;
	char shortname;
	bool has_arg;
	enum opt_id id;
};

static const struct opt_def options[] = {
    {"snapshot", 0, false, OPT_SNAPSHOT},
    {"list", 0, false, OPT_LIST},
    {"help", 'h', false, OPT_HELP},
    {"version", 'V', false, OPT_VERSION},
    {"interval", 'd', true, OPT_INTERVAL},
    {"demo", 0, false, OPT_DEMO},
    {"seed", 0, true, OPT_SEED},
    {"nvml-lib", 0, true, OPT_NVML_LIB},
    {"sysfs", 0, true, OPT_SYSFS},
    {"procfs", 0, true, OPT_PROCFS},
    {"theme", 0, true, OPT_THEME},
    {"themes-dir", 0, true, OPT_THEMES_DIR},
    {"apply", 0, true, OPT_APPLY},
    {"daemon", 0, false, OPT_DAEMON},
    {"restore", 0, false, OPT_RESTORE},
    {"state-dir", 0, true, OPT_STATE_DIR},
    {"json", 0, false, OPT_JSON},
    {"textfile", 0, true, OPT_TEXTFILE},
    {"listen", 0, true, OPT_LISTEN},
    {"count", 0, true, OPT_COUNT},
    {"metrics-processes", 0, true, OPT_METRICS_PROCESSES},
    {"web-config", 0, true, OPT_WEB_CONFIG},
};

static const struct opt_def *find_long(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
		if (strlen(options[i].longname) == len &&
		    strncmp(options[i].longname, name, len) == 0)
			return &options[i];
	return NULL;
}

static const struct opt_def *find_short(char c)
{
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
		if (options[i].shortname == c)
			return &options[i];
	return NULL;
}

static int parse_interval(const char *s, uint64_t *out, char *err,
                          size_t errlen)
{
	char *end;
	errno = 0;
	double sec = strtod(s, &end);
	if (end == s || *end != '\0' || errno != 0 || !isfinite(sec)) {
		snprintf(
		    err, errlen,
		    "--interval: '%s' is not a number of seconds (e.g. 0.5)",
		    s);
		return -1;
	}
	if (sec < 0.1 || sec > 3600) {
		snprintf(err, errlen,
		         "--interval: %s s is out of range (0.1 to 3600 s)", s);
		return -1;
	}
	*out = (uint64_t)llround(sec * 1e9);
	if (*out < GT_INTERVAL_MIN_NS)
		*out = GT_INTERVAL_MIN_NS;
	return 0;
}

static int parse_u64(const char *flag, const char *s, uint64_t *out, char *err,
                     size_t errlen)
{
	char *end;
	errno = 0;
	/* strtoull accepts spaces and a sign; a seed must start with a digit.
	 * Base 10: "010" is ten to anyone typing it, not eight, and "0x2"
	 * is no decimal count. */
	unsigned long long v = strtoull(s, &end, 10);
	if (s[0] < '0' || s[0] > '9' || *end != '\0' || errno != 0) {
		snprintf(err, errlen,
		         "--%s: '%s' is not a non-negative integer", flag, s);
		return -1;
	}
	*out = v;
	return 0;
}

static int set_mode(struct gt_cli *out, enum gt_mode mode, const char *flag,
                    char *err, size_t errlen)
{
	if (out->mode != GT_MODE_DASHBOARD && out->mode != mode &&
	    mode != GT_MODE_HELP && mode != GT_MODE_VERSION &&
	    out->mode != GT_MODE_HELP && out->mode != GT_MODE_VERSION) {
		snprintf(err, errlen,
		         "--%s cannot be combined with another mode flag",
		         flag);
		return -1;
	}
	/* --help and --version win over everything else. */
	if (out->mode != GT_MODE_HELP && out->mode != GT_MODE_VERSION)
		out->mode = mode;
	return 0;
}

static int apply(struct gt_cli *out, const struct opt_def *o, const char *arg,
                 char *err, size_t errlen)
{
	switch (o->id) {
	case OPT_SNAPSHOT:
		return set_mode(out, GT_MODE_SNAPSHOT, o->longname, err,
		                errlen);
	case OPT_LIST:
		return set_mode(out, GT_MODE_LIST, o->longname, err, errlen);
	case OPT_HELP:
		return set_mode(out, GT_MODE_HELP, o->longname, err, errlen);
	case OPT_VERSION:
		return set_mode(out, GT_MODE_VERSION, o->longname, err, errlen);
	case OPT_INTERVAL:
		out->interval_set = true;
		return parse_interval(arg, &out->interval_ns, err, errlen);
	case OPT_DEMO:
		out->demo = true;
		return 0;
	case OPT_SEED:
		return parse_u64(o->longname, arg, &out->demo_seed, err,
		                 errlen);
	case OPT_NVML_LIB:
		out->nvml_lib = arg;
		return 0;
	case OPT_SYSFS:
		out->sysfs_root = arg;
		return 0;
	case OPT_PROCFS:
		out->procfs_root = arg;
		return 0;
	case OPT_THEME:
		out->theme = arg;
		return 0;
	case OPT_THEMES_DIR:
		out->themes_dir = arg;
		return 0;
	case OPT_APPLY:
		out->profile = arg;
		return set_mode(out, GT_MODE_APPLY, o->longname, err, errlen);
	case OPT_DAEMON:
		out->daemon = true;
		return 0;
	case OPT_RESTORE:
		return set_mode(out, GT_MODE_RESTORE, o->longname, err, errlen);
	case OPT_STATE_DIR:
		if (arg[0] != '/') {
			snprintf(err, errlen,
			         "--state-dir: '%s' is not an absolute path",
			         arg);
			return -1;
		}
		out->state_dir = arg;
		return 0;
	case OPT_JSON:
		return set_mode(out, GT_MODE_JSON, o->longname, err, errlen);
	case OPT_TEXTFILE:
		out->textfile = arg;
		return 0;
	case OPT_WEB_CONFIG:
		out->web_config = arg;
		return 0;
	case OPT_LISTEN: {
		/* Checked here, so a typo is a usage error (2); binding it
		 * is the server's. */
		struct sockaddr_storage ss;
		socklen_t sslen;
		if (gt_http_parse_listen(arg, &ss, &sslen, err, errlen) < 0)
			return -1;
		out->listen = arg;
		return 0;
	}
	case OPT_COUNT:
		if (parse_u64(o->longname, arg, &out->count, err, errlen) < 0)
			return -1;
		if (out->count == 0) {
			snprintf(err, errlen,
			         "--count: 0 samples: give 1 or more (leave "
			         "--count out to run until stopped)");
			return -1;
		}
		return 0;
	case OPT_METRICS_PROCESSES: {
		uint64_t n = 0;
		if (parse_u64(o->longname, arg, &n, err, errlen) < 0)
			return -1;
		if (n > GT_METRICS_TOP_MAX) {
			snprintf(err, errlen,
			         "--metrics-processes: %s is more than %d "
			         "processes per GPU",
			         arg, GT_METRICS_TOP_MAX);
			return -1;
		}
		out->process_top = (unsigned)n;
		return 0;
	}
	}
	return 0;
}

/* What the export flags need, checked once every flag is read. */
static int check_export(struct gt_cli *out, char *err, size_t errlen)
{
	if (out->mode == GT_MODE_HELP || out->mode == GT_MODE_VERSION)
		return 0;
	if (out->textfile && out->mode == GT_MODE_DASHBOARD)
		out->mode = GT_MODE_TEXTFILE;
	if (out->textfile && out->mode != GT_MODE_TEXTFILE &&
	    out->mode != GT_MODE_SERVE) {
		snprintf(err, errlen,
		         "--textfile goes alone or with serve, not with "
		         "another mode");
		return -1;
	}
	if (out->listen && out->mode != GT_MODE_SERVE &&
	    out->mode != GT_MODE_DASHBOARD) {
		snprintf(err, errlen,
		         "--listen goes with serve or the dashboard");
		return -1;
	}
	if (out->web_config && out->mode != GT_MODE_SERVE && !out->listen) {
		snprintf(err, errlen,
		         "--web-config goes with serve or --listen");
		return -1;
	}
	if (out->count && out->mode != GT_MODE_JSON &&
	    out->mode != GT_MODE_TEXTFILE) {
		snprintf(err, errlen, "--count goes with --json or --textfile");
		return -1;
	}
	if (out->process_top && out->mode != GT_MODE_SERVE &&
	    out->mode != GT_MODE_TEXTFILE && !out->listen) {
		snprintf(err, errlen,
		         "--metrics-processes goes with serve, --listen or "
		         "--textfile");
		return -1;
	}
	return 0;
}

int gt_cli_parse(int argc, char *const argv[], struct gt_cli *out, char *err,
                 size_t errlen)
{
	bool conflict = false;

	memset(out, 0, sizeof(*out));
	out->interval_ns = GT_INTERVAL_DEFAULT_NS;
	out->demo_seed = 1;
	err[0] = '\0';

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct opt_def *o = NULL;
		const char *arg = NULL;

		if (strncmp(a, "--", 2) == 0 && a[2] != '\0') {
			const char *name = a + 2;
			const char *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			o = find_long(name, len);
			if (!o) {
				snprintf(
				    err, errlen,
				    "unknown option '%.*s' (see gputop --help)",
				    (int)(len + 2), a);
				return GT_EXIT_USAGE;
			}
			if (eq && !o->has_arg) {
				snprintf(err, errlen, "--%s takes no value",
				         o->longname);
				return GT_EXIT_USAGE;
			}
			if (eq)
				arg = eq + 1;
		} else if (a[0] == '-' && a[1] != '\0' && a[1] != '-' &&
		           a[2] == '\0') {
			o = find_short(a[1]);
			if (!o) {
				snprintf(
				    err, errlen,
				    "unknown option '%s' (see gputop --help)",
				    a);
				return GT_EXIT_USAGE;
			}
		} else if (strcmp(a, "serve") == 0) {
			/* The one subcommand, a word where options go. */
			if (set_mode(out, GT_MODE_SERVE, "serve", err, errlen) <
			    0)
				return GT_EXIT_USAGE;
			continue;
		} else {
			snprintf(err, errlen,
			         "unexpected argument '%s' (see gputop --help)",
			         a);
			return GT_EXIT_USAGE;
		}
		if (o->has_arg && !arg) {
			if (i + 1 >= argc) {
				snprintf(err, errlen, "--%s needs a value",
				         o->longname);
				return GT_EXIT_USAGE;
			}
			arg = argv[++i];
		}
		if (apply(out, o, arg, err, errlen) < 0) {
			/* Two modes: keep going, --help anywhere still wins. */
			if (o->id == OPT_SNAPSHOT || o->id == OPT_LIST ||
			    o->id == OPT_APPLY || o->id == OPT_RESTORE ||
			    o->id == OPT_JSON) {
				conflict = true;
				continue;
			}
			return GT_EXIT_USAGE;
		}
	}
	if (conflict && out->mode != GT_MODE_HELP &&
	    out->mode != GT_MODE_VERSION)
		return GT_EXIT_USAGE;
	if (out->daemon && out->mode != GT_MODE_APPLY &&
	    out->mode != GT_MODE_HELP && out->mode != GT_MODE_VERSION) {
		snprintf(err, errlen, "--daemon needs --apply PROFILE");
		return GT_EXIT_USAGE;
	}
	if (check_export(out, err, errlen) < 0)
		return GT_EXIT_USAGE;
	err[0] = '\0';
	return GT_EXIT_OK;
}

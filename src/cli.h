/* SPDX-License-Identifier: MIT */
/*
 * cli.h - command-line parsing into struct gt_cli, a pure function with no
 * side effects so every flag and every error message is unit-tested.
 */
#ifndef GPUTOP_CLI_H
#define GPUTOP_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Documented exit statuses (man page, --help). */
enum gt_exit {
	GT_EXIT_OK = 0,
	GT_EXIT_FAILURE = 1, /* a runtime error: output not writable, ENOMEM */
	GT_EXIT_USAGE = 2,   /* unknown flag or bad value */
};

enum gt_mode {
	GT_MODE_DASHBOARD = 0,
	GT_MODE_SNAPSHOT,
	GT_MODE_LIST,
	GT_MODE_HELP,
	GT_MODE_VERSION,
	GT_MODE_RESTORE,  /* --restore: put back a state file's originals */
	GT_MODE_APPLY,    /* --apply PROFILE [--daemon] */
	GT_MODE_SERVE,    /* serve: the HTTP exporter (--textfile too) */
	GT_MODE_JSON,     /* --json: one snapshot per line, each interval */
	GT_MODE_TEXTFILE, /* --textfile DIR alone: metrics files only */
};

struct gt_cli {
	enum gt_mode mode;
	bool demo;
	uint64_t interval_ns;
	bool interval_set;
	uint64_t demo_seed;
	const char *nvml_lib; /* borrowed from argv */
	const char *sysfs_root;
	const char *procfs_root;
	const char *theme;      /* --theme NAME or PATH */
	const char *themes_dir; /* --themes-dir DIR */
	const char *profile;    /* --apply PROFILE */
	bool daemon;            /* --daemon: keep the profile's fan loops */
	const char *state_dir;  /* --state-dir DIR: state file, audit log */
	const char *listen;     /* --listen ADDR:PORT (serve, dashboard) */
	const char *textfile;   /* --textfile DIR */
	uint64_t count;         /* --count N (--json, --textfile); 0 = no end */
	unsigned process_top;   /* --metrics-processes N; 0 = none */
	const char *web_config; /* --web-config FILE (serve, --listen) */
};

/* Parses argv. On a usage error returns GT_EXIT_USAGE with a message (no
 * "gputop: " prefix) in err; else GT_EXIT_OK. */
int gt_cli_parse(int argc, char *const argv[], struct gt_cli *out, char *err,
                 size_t errlen);

/* The --help text. */
extern const char gt_cli_usage[];

#endif

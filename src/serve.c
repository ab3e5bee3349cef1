/* SPDX-License-Identifier: MIT */
/*
 * serve.c - `gputop serve`, --textfile and --json (serve.h): the loop
 * that waits for each published round and hands it to the HTTP endpoint
 * (which renders on its own thread), the textfile writer and the NDJSON
 * writer. None of them calls a backend.
 */
#include "serve.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/fileio.h"
#include "core/hostinfo.h"
#include "core/view.h"
#include "export/http.h"
#include "export/list.h"
#include "export/metrics.h"
#include "export/snapshot.h"

/* Sleeps until the collector finishes a round (true) or stop is set. */
static bool wait_round(struct gt_collector *c, uint64_t *seen,
                       volatile sig_atomic_t *stop)
{
	int fd = gt_collector_notify_fd(c);
	while (!*stop) {
		uint64_t rounds = gt_collector_rounds(c);
		if (rounds > *seen) {
			*seen = rounds;
			gt_collector_notify_clear(c);
			return true;
		}
		if (fd >= 0) {
			struct pollfd p = {fd, POLLIN, 0};
			poll(&p, 1, 500); /* EINTR: a signal, looked at above */
			gt_collector_notify_clear(c);
		} else {
			struct timespec ts = {0, 50000000L};
			nanosleep(&ts, NULL);
		}
	}
	return false;
}

struct gt_http *gt_serve_http_start(struct gt_collector *c,
                                    const struct gt_cli *cli)
{
	char err[512];
	struct gt_http_config cfg = {
	    .listen = cli->listen,
	    .process_top = cli->process_top,
	    .procfs_root = cli->procfs_root,
	    .web_config = cli->web_config,
	};
	struct gt_http *h = gt_http_start(c, &cfg, err, sizeof(err));
	if (!h)
		fprintf(stderr, "gputop: %s\n", err);
	return h;
}

/* ---- --textfile ---------------------------------------------------- */

static int textfile_check(const char *dir)
{
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr,
		        "gputop: --textfile %s: %s: give an existing "
		        "directory (node_exporter's textfile directory, e.g. "
		        "/var/lib/prometheus/node-exporter)\n",
		        dir,
		        stat(dir, &st) != 0 ? strerror(errno)
		                            : "not a directory");
		return -1;
	}
	return 0;
}

/* Writes DIR/gputop.prom whole (a temporary, then rename): node_exporter
 * never reads half a file. 0, or an errno value (reported here). */
static int textfile_write(const struct gt_view *v, const struct gt_cli *cli)
{
	char path[PATH_MAX], why[PATH_MAX + 160];
	struct gt_metrics_input in;
	size_t len = 0;

	gt_metrics_from_view(&in, v, cli->process_top);
	snprintf(path, sizeof(path), "%s/gputop.prom", cli->textfile);
	char *text = gt_metrics_render(&in, &len);
	if (!text) {
		fprintf(stderr, "gputop: out of memory rendering metrics\n");
		return ENOMEM;
	}
	int err = gt_fileio_replace(path, text, len, 0644, why, sizeof(why));
	free(text);
	if (err)
		fprintf(stderr, "gputop: --textfile: %s\n", why);
	return err;
}

int gt_serve_run(struct gt_collector *c, const struct gt_cli *cli,
                 volatile sig_atomic_t *stop)
{
	struct gt_http *h = NULL;
	struct gt_view view;
	uint64_t seen = 0, written = 0;
	int rc = GT_EXIT_OK, last_err = 0;

	if (cli->textfile && textfile_check(cli->textfile) < 0)
		return GT_EXIT_FAILURE;
	if (gt_view_open(&view, c) < 0) {
		fprintf(stderr, "gputop: out of memory\n");
		return GT_EXIT_FAILURE;
	}
	if (gt_collector_device_count(c) == 0) {
		/* Still served: gputop_devices 0 and the backends say why. */
		fprintf(stderr, "gputop: no GPU found:\n");
		gt_list_print_reasons(stderr, c);
	}
	if (cli->mode == GT_MODE_SERVE) {
		h = gt_serve_http_start(c, cli);
		if (!h) {
			gt_view_close(&view);
			return GT_EXIT_FAILURE;
		}
		fprintf(stderr, "gputop: serving %s://%s/metrics\n",
		        gt_http_scheme(h), gt_http_address(h));
	}
	if (gt_collector_start(c) != 0) {
		perror("gputop: starting the collector thread");
		rc = GT_EXIT_FAILURE;
		goto out;
	}
	while (wait_round(c, &seen, stop)) {
		if (!cli->textfile)
			continue;
		gt_view_refresh(&view);
		int err = textfile_write(&view, cli);
		if (err && written == 0 && cli->mode == GT_MODE_TEXTFILE) {
			rc = GT_EXIT_FAILURE; /* never worked: say so, stop */
			break;
		}
		if (err != last_err && !err)
			fprintf(stderr, "gputop: --textfile: writing again\n");
		last_err = err;
		written += !err;
		if (cli->count && written >= cli->count)
			break;
	}
out:
	gt_collector_stop(c);
	gt_http_stop(h);
	gt_view_close(&view);
	return rc;
}

/* ---- --json --------------------------------------------------------- */

int gt_serve_json(struct gt_collector *c, const struct gt_cli *cli,
                  volatile sig_atomic_t *stop)
{
	struct gt_view view;
	struct gt_hostinfo host;
	uint64_t seen = 0, lines = 0;
	int rc = GT_EXIT_OK;

	/* A reader that closes the pipe: EPIPE from write, not a signal. */
	signal(SIGPIPE, SIG_IGN);
	gt_hostinfo_read(&host, cli->procfs_root);
	if (gt_view_open(&view, c) < 0) {
		fprintf(stderr, "gputop: out of memory\n");
		return GT_EXIT_FAILURE;
	}
	if (gt_collector_start(c) != 0) {
		perror("gputop: starting the collector thread");
		gt_view_close(&view);
		return GT_EXIT_FAILURE;
	}
	while (wait_round(c, &seen, stop)) {
		if (seen < 2)
			continue; /* rates need a second round */
		gt_view_refresh(&view);
		char *json = gt_snapshot_build(&view, &host,
		                               gt_collector_interval(c), true);
		if (!json) {
			fprintf(stderr, "gputop: out of memory\n");
			rc = GT_EXIT_FAILURE;
			break;
		}
		/* The whole line, even across a signal: write_all retries
		 * EINTR and short writes. */
		int w = gt_fileio_write_all(STDOUT_FILENO, json, strlen(json));
		int e = errno;
		free(json);
		if (w < 0) {
			if (e != EPIPE) {
				fprintf(stderr, "gputop: writing: %s\n",
				        strerror(e));
				rc = GT_EXIT_FAILURE;
			}
			break;
		}
		if (cli->count && ++lines >= cli->count)
			break;
	}
	gt_collector_stop(c);
	gt_view_close(&view);
	return rc;
}

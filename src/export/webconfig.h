/* SPDX-License-Identifier: MIT */
/*
 * webconfig.h - the --web-config file of `gputop serve` and --listen: TLS
 * and basic authentication in the format the Prometheus exporters use
 * (exporter-toolkit's web configuration file), of which gputop takes
 *
 *   tls_server_config:
 *     cert_file: PATH        PEM certificate (chain)
 *     key_file: PATH         its PEM private key
 *   basic_auth_users:
 *     NAME: BCRYPT-HASH      $2a$, $2b$ or $2y$
 *
 * Either section may be left out. The YAML is read by hand, strictly: block
 * mappings, plain or quoted scalars and comments; anything else (another
 * key, a flow collection, an anchor, a tab) is refused with its line and
 * what was expected, never ignored: an option such a file means to enforce
 * (client certificates, a minimum TLS version) must not go unnoticed.
 */
#ifndef GPUTOP_WEBCONFIG_H
#define GPUTOP_WEBCONFIG_H

#include <stdbool.h>
#include <stddef.h>

/* Larger files, certificates or keys are refused. */
#define GT_WEBCONFIG_MAX_FILE (64 * 1024)
#define GT_WEBCONFIG_MAX_PEM  (1024 * 1024)

struct gt_webconfig_user {
	char *name;
	char *hash;
};

struct gt_webconfig {
	char *cert_file; /* NULL: no TLS; else key_file is set too */
	char *key_file;
	char *cert_pem; /* their contents (gt_webconfig_load) */
	char *key_pem;
	struct gt_webconfig_user *users; /* none: no authentication */
	size_t nusers;
};

/* Parses the text (len bytes, not necessarily NUL-terminated) into wc
 * (zeroed by the caller; free with gt_webconfig_free either way). 0, or
 * -1 with "line N: what was expected" in err. Paths are as written. */
int gt_webconfig_parse(const char *text, size_t len, struct gt_webconfig *wc,
                       char *err, size_t errlen);

/* Reads and parses path, resolves relative cert_file and key_file against
 * the file's directory and reads both, and checks each hash is a bcrypt
 * hash crypt(3) takes. 0, or -1 with err naming the file, the cause and
 * the fix. */
int gt_webconfig_load(const char *path, struct gt_webconfig *wc, char *err,
                      size_t errlen);

void gt_webconfig_free(struct gt_webconfig *wc);

/* True when user and password match one of the users. Costs one bcrypt
 * computation whatever the outcome (an unknown user is checked against a
 * dummy hash), and compares hashes in constant time. scratch: a
 * gt_webconfig_scratch_size() buffer the caller owns (crypt_r's state;
 * one per thread). */
bool gt_webconfig_auth(const struct gt_webconfig *wc, const char *user,
                       const char *password, void *scratch);
size_t gt_webconfig_scratch_size(void);

#endif

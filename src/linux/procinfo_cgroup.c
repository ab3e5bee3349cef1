/* SPDX-License-Identifier: MIT */
/*
 * procinfo_cgroup.c - owns naming a process's container from the text of
 * its /proc/PID/cgroup file (gt_procinfo_parse_cgroup, contract in
 * procinfo.h): a pure parser, kept apart from the proc tree reading and
 * the per-pid cache in procinfo.c.
 */
#include "linux/procinfo.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

enum cg_rank { CG_NONE = 0, CG_SERVICE, CG_CONTAINER, CG_K8S };

struct cg_match {
	int rank;
	char str[GT_CONTAINER_LEN];
};

struct cg_span {
	const char *s;
	size_t n;
};

static bool cg_eq(struct cg_span c, const char *lit)
{
	size_t n = strlen(lit);
	return c.n == n && memcmp(c.s, lit, n) == 0;
}

static bool cg_prefix(struct cg_span c, const char *lit)
{
	size_t n = strlen(lit);
	return c.n >= n && memcmp(c.s, lit, n) == 0;
}

static bool cg_suffix(struct cg_span c, const char *lit)
{
	size_t n = strlen(lit);
	return c.n >= n && memcmp(c.s + c.n - n, lit, n) == 0;
}

static bool is_hex(unsigned char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') ||
	       (ch >= 'A' && ch <= 'F');
}

/* Bytes that can be printed anywhere without escaping or confusion. */
static bool cg_safe(unsigned char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') ||
	       (ch >= 'A' && ch <= 'Z') || ch == '.' || ch == '_' ||
	       ch == '@' || ch == ':' || ch == '+' || ch == '-' || ch == '\\';
}

static void cg_set(struct cg_match *m, int rank, const char *prefix,
                   const char *name, size_t n, bool underscore_to_dash)
{
	size_t o = 0, plen = strlen(prefix);

	if (plen > sizeof(m->str) - 1)
		plen = sizeof(m->str) - 1;
	memcpy(m->str, prefix, plen);
	o = plen;
	for (size_t i = 0; i < n && o < sizeof(m->str) - 1; i++) {
		unsigned char ch = (unsigned char)name[i];
		if (underscore_to_dash && ch == '_')
			ch = '-';
		m->str[o++] = cg_safe(ch) ? (char)ch : '_';
	}
	m->str[o] = '\0';
	m->rank = rank;
}

/* A bare container id, as cgroupfs drivers name the directory. */
static bool cg_all_hex(struct cg_span c)
{
	if (c.n < 12)
		return false;
	for (size_t i = 0; i < c.n; i++)
		if (!is_hex((unsigned char)c.s[i]))
			return false;
	return true;
}

/* "<lead><hex id>[.scope]" with at least 12 hex digits: true and the id. */
static bool cg_id_after(struct cg_span c, const char *lead, struct cg_span *id)
{
	if (!cg_prefix(c, lead))
		return false;
	size_t off = strlen(lead), h = 0;
	while (off + h < c.n && is_hex((unsigned char)c.s[off + h]))
		h++;
	if (h < 12)
		return false;
	struct cg_span rest = {c.s + off + h, c.n - off - h};
	if (rest.n != 0 && !cg_eq(rest, ".scope"))
		return false;
	id->s = c.s + off;
	id->n = 12;
	return true;
}

static bool cg_pod_uid(const char *s, size_t n)
{
	if (n < 32 || n > 36)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!is_hex((unsigned char)s[i]) && s[i] != '-' && s[i] != '_')
			return false;
	return true;
}

/* A systemd pod slice: "...kubepods[-qos]-pod<uid>.slice[...]". */
static bool cg_k8s_slice(struct cg_span c, struct cg_match *m)
{
	const char *k = memmem(c.s, c.n, "kubepods", 8);
	if (!k)
		return false;
	size_t off = (size_t)(k - c.s) + 8;
	const char *pod = memmem(c.s + off, c.n - off, "-pod", 4);
	if (!pod)
		return false;
	const char *uid = pod + 4;
	size_t left = c.n - (size_t)(uid - c.s);
	const char *end = memmem(uid, left, ".slice", 6);
	size_t n = end ? (size_t)(end - uid) : left;
	if (!cg_pod_uid(uid, n))
		return false;
	cg_set(m, CG_K8S, "k8s:pod", uid, n, true);
	return true;
}

/* The best match of one cgroup path, in m (rank CG_NONE if nothing). */
static void cg_path(const char *path, size_t len, struct cg_match *m)
{
	struct cg_span prev = {"", 0};
	struct cg_match cont = {0}, svc = {0};
	bool kube = false, user = false;
	size_t i = 0;

	m->rank = CG_NONE;
	m->str[0] = '\0';
	while (i < len) {
		while (i < len && path[i] == '/')
			i++;
		size_t j = i;
		while (j < len && path[j] != '/')
			j++;
		struct cg_span c = {path + i, j - i}, id;
		i = j;
		if (c.n == 0)
			break;

		if (cg_k8s_slice(c, m))
			return;
		if (kube && cg_prefix(c, "pod") &&
		    cg_pod_uid(c.s + 3, c.n - 3)) {
			cg_set(m, CG_K8S, "k8s:pod", c.s + 3, c.n - 3, true);
			return;
		}
		if (memmem(c.s, c.n, "kubepods", 8))
			kube = true;
		if (cg_eq(c, "user.slice"))
			user = true;

		if (cg_id_after(c, "docker-", &id)) {
			cg_set(&cont, CG_CONTAINER, "docker:", id.s, id.n,
			       false);
		} else if (cg_eq(prev, "docker") && cg_all_hex(c)) {
			cg_set(&cont, CG_CONTAINER, "docker:", c.s, 12, false);
		} else if (cg_id_after(c, "libpod-", &id)) {
			/* "libpod-conmon-<id>" fails the hex test: conmon
			 * runs outside the container. */
			cg_set(&cont, CG_CONTAINER, "podman:", id.s, id.n,
			       false);
		} else if (cg_id_after(c, "cri-containerd-", &id) ||
		           cg_id_after(c, "nerdctl-", &id)) {
			cg_set(&cont, CG_CONTAINER, "containerd:", id.s, id.n,
			       false);
		} else if (cg_id_after(c, "crio-", &id)) {
			cg_set(&cont, CG_CONTAINER, "crio:", id.s, id.n, false);
		} else if (cg_eq(prev, "lxc") || cg_eq(prev, "lxc.payload")) {
			cg_set(&cont, CG_CONTAINER, "lxc:", c.s, c.n, false);
		} else if (cg_prefix(c, "lxc.payload.") && c.n > 12) {
			cg_set(&cont, CG_CONTAINER, "lxc:", c.s + 12, c.n - 12,
			       false);
		} else if (cg_prefix(c, "systemd-nspawn@") &&
		           cg_suffix(c, ".service") && c.n > 15 + 8) {
			cg_set(&cont, CG_CONTAINER, "nspawn:", c.s + 15,
			       c.n - 15 - 8, false);
		} else if (cg_suffix(c, ".service") && c.n > 8) {
			cg_set(&svc, CG_SERVICE, "systemd:", c.s, c.n, false);
		}
		prev = c;
	}
	if (cont.rank != CG_NONE)
		*m = cont;
	else if (svc.rank != CG_NONE && !user)
		*m = svc;
}

void gt_procinfo_parse_cgroup(const char *text, size_t len, char *out,
                              size_t outlen)
{
	struct cg_match best = {0}, m;
	size_t i = 0;

	if (!text)
		len = 0;
	while (i < len) {
		const char *line = text + i;
		const char *nl = memchr(line, '\n', len - i);
		size_t n = nl ? (size_t)(nl - line) : len - i;
		i += n + 1;

		/* "ID:controllers:path"; the path itself may hold ':'. */
		const char *c1 = memchr(line, ':', n);
		if (!c1)
			continue;
		const char *c2 =
		    memchr(c1 + 1, ':', n - (size_t)(c1 + 1 - line));
		if (!c2)
			continue;
		const char *path = c2 + 1;
		size_t plen = n - (size_t)(path - line);
		static const char deleted[] = " (deleted)";
		if (plen >= sizeof(deleted) - 1 &&
		    memcmp(path + plen - (sizeof(deleted) - 1), deleted,
		           sizeof(deleted) - 1) == 0)
			plen -= sizeof(deleted) - 1;
		if (plen == 0 || path[0] != '/')
			continue;

		cg_path(path, plen, &m);
		if (m.rank > best.rank)
			best = m;
	}
	if (outlen == 0)
		return;
	size_t n = strlen(best.str);
	if (n > outlen - 1)
		n = outlen - 1;
	memcpy(out, best.str, n);
	out[n] = '\0';
}

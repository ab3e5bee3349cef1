/* SPDX-License-Identifier: MIT */
/*
 * procinfo.h - owns the host side of a GPU process: who runs it, what it is,
 * which container it lives in and how much CPU and memory it uses, read from
 * a proc tree whose root is configurable (--procfs DIR, like node_exporter's
 * --path.procfs) so that gputop in a container can watch the host.
 *
 * A struct gt_procinfo keeps a per-pid cache so a steady state costs one
 * small read per process and call: where the proc tree is the one of our
 * own pid namespace (the live /proc, as a rule), /proc/PID/statm plus the
 * pid's process CPU clock, with comm every 8th call to notice an exec;
 * elsewhere (a copied tree, the host's /proc seen from a container)
 * /proc/PID/stat. status (for the uid), cmdline and cgroup are read when a
 * pid is first seen, when the pid was reused (a different start time,
 * field 22 of stat) and after an exec (a different comm).
 *
 * Not thread-safe: one gt_procinfo belongs to one thread (the collector).
 */
#ifndef GPUTOP_PROCINFO_H
#define GPUTOP_PROCINFO_H

#include <stddef.h>
#include <stdint.h>

#include "core/model.h"

struct gt_procinfo;

/* p->uid when /proc/PID/status could not be read (the kernel's "no uid"). */
#define GT_UID_UNKNOWN UINT32_MAX

/* procfs_root NULL means "/proc"; the string is copied. NULL on ENOMEM. */
struct gt_procinfo *gt_procinfo_new(const char *procfs_root);
void gt_procinfo_free(struct gt_procinfo *pi);

/*
 * Fills the host side of p (p->pid is the key). now_ns is a monotonic time;
 * every fill of one round may pass the same value.
 *
 * On success p->host_known = true and:
 *   uid, user  - the effective uid (second value of the Uid: line of status,
 *                as top and ps show); user is its name from getpwuid_r (the
 *                passwd of the machine gputop runs on), or the uid in decimal
 *                when it has no name. uid GT_UID_UNKNOWN and user "" when
 *                status is unreadable. Read with cmdline (see above), so a
 *                setuid without an exec shows at the next exec.
 *   name       - comm from stat, raw bytes (taken between the first '(' and
 *                the last ')', so a comm holding ") (" is read right).
 *   cmdline    - a malloc'd copy replacing p->cmdline (the old one is freed):
 *                argv joined by spaces, trailing NULs dropped, at most 32 KiB
 *                of it, raw bytes (escape at display or JSON time). An empty
 *                cmdline (kernel thread, zombie) gives "[comm]". Left
 *                unchanged (possibly NULL) when cmdline is unreadable.
 *   container  - see gt_procinfo_parse_cgroup(); "" when unreadable.
 *   GT_P_HOST_MEM - resident bytes: field 24 of stat or the second number
 *                of statm (resident pages, the count status shows as VmRSS)
 *                times the page size; 0 for
 *                kernel threads, which have no user memory; NOT_COLLECTED
 *                when the field is missing or malformed.
 *   GT_P_CPU   - cpercent of one core (800% = 8 busy cores) over the time
 *                since the previous fill of this pid: the CPU time of all
 *                its threads over now_ns. That is the pid's process CPU
 *                clock (clock_getcpuclockid, ns) in our own pid namespace,
 *                else (utime+stime) ticks of stat, ticks per second from
 *                sysconf(_SC_CLK_TCK). PENDING on the first fill of a pid
 *                (and after a pid reuse, or a change between the two).
 *                Fills less than 50 ms after the previous one (the same pid
 *                on several GPUs in one round) repeat the last value instead
 *                of dividing clock-tick noise by a tiny interval.
 *
 * When /proc/PID/stat cannot be read or parsed - the pid does not exist (the
 * process exited, or lives in a pid namespace this proc tree does not show),
 * or is malformed - p->host_known = false, GT_P_CPU and GT_P_HOST_MEM are
 * GT_WHY_NOT_COLLECTED (GT_WHY_PERMISSION when access was refused, e.g.
 * hidepid), and user, uid, name, container and cmdline are left untouched.
 */
void gt_procinfo_fill(struct gt_procinfo *pi, struct gt_process *p,
                      uint64_t now_ns);

/* The parent of pid (stat field 4) as /proc shows it now: 0, or an errno
 * value. Answers from the cache for a pid filled this round. For the
 * ancestry of a process whose parent holds no GPU. */
int gt_procinfo_parent(struct gt_procinfo *pi, int32_t pid, int32_t *ppid);

/* Drops the cache entries of pids not filled since the previous sweep. Call
 * once after each round of fills. now_ns is accepted for symmetry with fill;
 * rounds, not time, decide what is dropped. */
void gt_procinfo_sweep(struct gt_procinfo *pi, uint64_t now_ns);

/* Number of pids in the cache (for tests and diagnostics). */
size_t gt_procinfo_cache_count(const struct gt_procinfo *pi);

/*
 * Derives the container of a process from the text of /proc/PID/cgroup
 * (cgroup v1 lines "N:controllers:/path", v2 line "0::/path", or both on a
 * hybrid system). Writes into out (always NUL-terminated when outlen > 0):
 *
 *   "k8s:pod<uid>"        a Kubernetes pod: a "pod<uid>" directory below a
 *                         "kubepods" one (cgroupfs driver), or a systemd
 *                         slice "...kubepods-[burstable-|besteffort-]pod<uid>
 *                         .slice" (also kubelet-kubepods-... as kind and k3s
 *                         name them), whose '_' are decoded back to '-'. It
 *                         wins over the runtime's container below it.
 *   "docker:<12 hex>"     "docker-<id>.scope" or "/docker/<id>"
 *   "podman:<12 hex>"     "libpod-<id>[.scope]" (rootful or rootless; the
 *                         conmon scope "libpod-conmon-<id>" is not a match)
 *   "containerd:<12 hex>" "cri-containerd-<id>.scope", "nerdctl-<id>.scope"
 *   "crio:<12 hex>"       "crio-<id>.scope" (CRI-O outside Kubernetes)
 *   "lxc:<name>"          "/lxc/<name>", "/lxc.payload.<name>",
 *                         "/lxc.payload/<name>" (LXC, LXD, Incus)
 *   "nspawn:<name>"       "systemd-nspawn@<name>.service"
 *   "systemd:<unit>"      the innermost "<unit>.service" directory, outside
 *                         user.slice, e.g. "systemd:nginx.service"
 *   ""                    anything else: a user session or user service
 *                         (under user.slice), the root cgroup, init.scope,
 *                         unparsable text.
 * Ids are the first 12 hex digits of the container id (at least 12 needed);
 * when containers nest, the innermost wins. Across lines the highest of
 * k8s > container > systemd service wins, ties going to the first line.
 * Names keep only [A-Za-z0-9._@:+\-\\]; other bytes become '_', so the
 * result is always safe to print. Results longer than outlen are cut.
 */
void gt_procinfo_parse_cgroup(const char *text, size_t len, char *out,
                              size_t outlen);

#endif

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/soak/soak.sh - `make soak`: gputop left running under churn, its
# memory, descriptors and frame cost watched. The dashboard runs in tmux at
# a 0.1 s interval on the fake NVML's 8x H100 node (GPU 3 falls off the bus
# and comes back, as after a GPU reset, again and again: every SOAK_CYCLE
# seconds, lost for two fifths of it; one NVML call has 5 ms of injected
# latency) plus an AMD card from the fixtures,
# over a --procfs tree in which about CHURN processes a second appear and
# go (each holding a DRM descriptor with its fdinfo, so the fdinfo scanner
# and the process cache see them come and go), with --listen on a loopback
# port; a --snapshot runs every 5 s beside it. Every SOAK_SAMPLE seconds
# one line goes into BUILD/soak/soak.csv:
#   t_s          seconds since the dashboard started
#   rss_kib      its VmRSS
#   fds, threads open descriptors, threads
#   frames       whole frames drawn (gputop_dashboard_frames_total of its
#                /metrics)
#   draw_us      CPU per frame spent drawing, over the last sample period
#                (gputop_dashboard_draw_cpu_seconds_total / frames): what
#                make bench's render target (150 us) is set for
#   thread_us    CPU per frame of the whole screen thread (keys, reading the
#                collector, drawing), from /proc/PID/task/PID/schedstat
#                (the kernel's count, not gputop's own)
#   gpu3         GPU 3 on screen: live or lost
#
# Fails if, after the warm-up (SOAK_WARMUP, default a fifth of the run):
#   - the RSS rises more than 1 % (or 256 KiB, whichever is larger) above
#     the highest RSS seen during the warm-up;
#   - the descriptor floor rises: the fewest descriptors open in the
#     samples of the run's last quarter exceed the fewest in the last three
#     quarters of the warm-up (a scan in flight holds a few dozen for a moment,
#     so single samples go up and down; a leak raises the floor), both
#     counted where GPU 3 is live in the sample and the one before (while
#     it is lost, the /proc file kept open for its process is closed, and
#     the first sample after its return may precede its reopening);
#   - the drawing CPU per frame of a sample period exceeds SOAK_DRAW_US,
#     or the whole screen thread's exceeds SOAK_THREAD_US, in more than
#     SOAK_SPIKES periods (default 0); or either median over the second
#     half after the warm-up exceeds that over the first half by more than
#     30 % (frames getting dearer: a trend moves the median, one period
#     does not), both over periods with GPU 3 live from start to end (a
#     loss costs frames of its own); or a period drew under a quarter of
#     the frames due (a screen that stopped);
#   - in any cycle, GPU 3 was not seen LOST while it was off the bus, or
#     not live again from 4 s after its return until its next loss (the
#     collector asks a lost GPU again every 3 s);
#   - gputop wrote anything to stderr, a snapshot failed, or it died.
#
#   tests/soak/soak.sh BUILD   (SOAK_TIME=300 SOAK_SAMPLE=5 SOAK_WARMUP=
#                               SOAK_CHURN=50 SOAK_CYCLE= SOAK_WRAP=
#                               SOAK_OUT=BUILD/soak
#                               SOAK_RSS=1 SOAK_DRAW_US=450
#                               SOAK_THREAD_US=600 SOAK_SPIKES=0)
#
# SOAK_CYCLE: the lost/back period, default a tenth of the run within 12 to
# 60 s (30 s at 300 s, 60 s at 600 s); GPU 3 goes at half a cycle, and
# from then on at the start of each, for two fifths of it (at least 5 s).
#
# The frame bounds: make bench's render target, 150 us, is the drawing CPU
# per frame of 60 frames drawn 0.1 s apart at 200x60. Here a frame comes
# every 0.1 s too, but after the collector's round and 50 process starts a
# second have been through the caches, and with the GPU lost and back. So
# the script allows a period 3x the render target for drawing (450 us) and
# 4x for the whole screen thread (600 us, keys and reading the collector
# besides), for the suite's short form on a machine busy with other work;
# `make soak` sets SOAK_DRAW_US=150, the bench's own figure.
#
# SOAK_RSS=0 reports the RSS without bounding it, and SOAK_DRAW_US=0 /
# SOAK_THREAD_US=0 the frame CPU without bounding it: for sanitizer
# builds, whose allocators keep growing their own caches by design
# (LeakSanitizer checks leaks at exit there instead) and whose every
# instruction costs several.
#
# SOAK_WRAP is a command prefix for the dashboard (e.g. "env LD_PRELOAD=..."
# to check that the soak catches a leak).
set -u
build=${1:?usage: soak.sh BUILD}
cd "$(dirname "$0")/../.." || exit 1
time_s=${SOAK_TIME:-300}
sample_s=${SOAK_SAMPLE:-5}
warm_s=${SOAK_WARMUP:-$((time_s / 5))}
churn=${SOAK_CHURN:-50}
draw_us=${SOAK_DRAW_US:-450}
thread_us=${SOAK_THREAD_US:-600}
cycle_s=${SOAK_CYCLE:-$((time_s / 10))}
[ "$cycle_s" -lt 12 ] && cycle_s=12
[ -z "${SOAK_CYCLE:-}" ] && [ "$cycle_s" -gt 60 ] && cycle_s=60
loss_s=$((cycle_s * 2 / 5))
[ "$loss_s" -lt 5 ] && loss_s=5
lost_s=$((cycle_s / 2))
back_s=$((lost_s + loss_s))
bin=$PWD/$build/gputop
lib=$PWD/$build/fake-nvml/libnvidia-ml.so.1
fix=$PWD/tests/fixtures
out=${SOAK_OUT:-$PWD/$build/soak}
[ -x "$bin" ] && [ -f "$lib" ] || { echo "soak: build $bin and $lib first" >&2; exit 1; }
for tool in tmux curl python3; do
	command -v $tool >/dev/null || { echo "soak: $tool is not installed" >&2; exit 1; }
done
mkdir -p "$out"
tmp=$(mktemp -d)
sock="gputop-soak-$$"
churn_pid=""
cleanup() {
	[ -n "$churn_pid" ] && kill "$churn_pid" 2>/dev/null
	tmux -L "$sock" kill-server 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# The node: 8x H100, GPU 3 off the bus from lost_s to back_s and again
# each cycle_s, 5 ms on every utilisation call.
printf 'include %s\nlatency nvmlDeviceGetUtilizationRates 5\ndevice 3\nlost_after %s\nback_after %s\nlost_every %s\n' \
	"$PWD/tests/fake-nvml/scenarios/h100x8.scn" "$lost_s" "$back_s" "$cycle_s" >"$tmp/soak.scn"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cp -r "$fix/proc" "$tmp/proc"
amd_bus=$(sed -n 's/^PCI_SLOT_NAME=//p' "$fix/amdgpu/rx6900xt/class/drm/card0/device/uevent")

# Churn: about $churn short-lived processes a second, each alive ~1 s.
python3 - "$tmp/proc" "$churn" "$amd_bus" <<'PY' &
import os, shutil, sys, time
root, rate, bus = sys.argv[1], int(sys.argv[2]), sys.argv[3]
stat = open(os.path.join(root, "6300", "stat")).read()
status = open(os.path.join(root, "6300", "status")).read()
alive, pid = [], 200000
while True:
    t0 = time.monotonic()
    for _ in range(rate // 10 or 1):
        pid += 1
        d = os.path.join(root, str(pid))
        os.makedirs(os.path.join(d, "fd"))
        os.makedirs(os.path.join(d, "fdinfo"))
        for leaf, text in (("stat", stat.replace("6300 (blender)", "%d (churn)" % pid, 1)),
                           ("status", status.replace("6300", str(pid))),
                           ("comm", "churn\n"), ("cmdline", "churn\0%d\0" % pid)):
            with open(os.path.join(d, leaf), "w") as f:
                f.write(text)
        os.symlink("/dev/dri/renderD128", os.path.join(d, "fd", "3"))
        with open(os.path.join(d, "fdinfo", "3"), "w") as f:
            f.write("pos:\t0\nflags:\t02100002\nmnt_id:\t24\ndrm-driver:\tamdgpu\n"
                    "drm-pdev:\t%s\ndrm-client-id:\t%d\ndrm-engine-gfx:\t%d ns\n"
                    "drm-memory-vram:\t1024 KiB\n" % (bus, pid, pid * 1000))
        alive.append(d)
    while len(alive) > rate:
        shutil.rmtree(alive.pop(0), ignore_errors=True)
    time.sleep(max(0.0, 0.1 - (time.monotonic() - t0)))
PY
churn_pid=$!

tmux -L "$sock" new-session -d -x 160 -y 50 -s dash \
	"env LANG=C.UTF-8 XDG_STATE_HOME=$tmp XDG_CONFIG_HOME=$tmp GPUTOP_FAKE_NVML_SCENARIO=$tmp/soak.scn ${SOAK_WRAP:-} $bin --nvml-lib $lib --sysfs $fix/amdgpu/rx6900xt --procfs $tmp/proc --state-dir $tmp/state --interval 0.1 --listen 127.0.0.1:$port --seed 5$$ 2>$out/stderr.log; echo EXITED \$? >$tmp/exit; sleep 600"
pid=""
for _ in $(seq 1 200); do
	for p in $(pgrep -f -- "--seed 5$$"); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = gputop ] && pid=$p && break
	done
	[ -n "$pid" ] && break
	sleep 0.05
done
[ -n "$pid" ] || { echo "soak: the dashboard did not start" >&2; exit 1; }

csv=$out/soak.csv
echo "t_s,rss_kib,fds,threads,frames,draw_us,thread_us,gpu3" >"$csv"
start=$(date +%s)
next_snap=0
snaps=0 snap_fail=0
prev_frames="" prev_draw="" prev_thread=""
echo "soak: gputop $pid for ${time_s}s (warm-up ${warm_s}s, a sample every ${sample_s}s, ~$churn processes/s, GPU 3 off the bus from ${lost_s}s to ${back_s}s and again every ${cycle_s}s), CSV: $csv"
while :; do
	now=$(($(date +%s) - start))
	[ "$now" -gt "$time_s" ] && break
	if ! [ -d "/proc/$pid" ] || [ -s "$tmp/exit" ]; then
		echo "FAIL: gputop ended at ${now}s: $(cat "$tmp/exit" 2>/dev/null) $(head -c 500 "$out/stderr.log")"
		exit 1
	fi
	rss=$(sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$pid/status")
	thr=$(sed -n 's/^Threads:[[:space:]]*//p' "/proc/$pid/status")
	fds=$(find "/proc/$pid/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
	# Frames and their drawing CPU from its /metrics; the screen (main)
	# thread's CPU from the kernel, read right after.
	metrics=$(curl -s --max-time 5 "http://127.0.0.1:$port/metrics")
	frames=$(sed -n 's/^gputop_dashboard_frames_total //p' <<<"$metrics")
	draw=$(sed -n 's/^gputop_dashboard_draw_cpu_seconds_total //p' <<<"$metrics")
	thread=$(cut -d' ' -f1 "/proc/$pid/task/$pid/schedstat" 2>/dev/null)
	# GPU 3's panel title, up to its corner (two panels share a line).
	gpu3=live
	tmux -L "$sock" capture-pane -p -t dash | sed 's/╮/╮\n/g' |
		grep -E '\[3\] NVIDIA' | grep -q LOST && gpu3=lost
	per_draw="" per_thread=""
	if [ -n "$prev_frames" ] && [ -n "$frames" ] && [ "$frames" -gt "$prev_frames" ]; then
		read -r per_draw per_thread < <(awk -v f="$frames" -v pf="$prev_frames" \
			-v d="$draw" -v pd="$prev_draw" -v t="$thread" -v pt="$prev_thread" \
			'BEGIN { n = f - pf; printf "%.1f %.1f\n", (d - pd) * 1e6 / n, (t - pt) / 1e3 / n }')
	fi
	echo "$now,$rss,$fds,$thr,${frames:-},$per_draw,$per_thread,$gpu3" >>"$csv"
	prev_frames=$frames prev_draw=$draw prev_thread=$thread
	if [ "$now" -ge "$next_snap" ]; then
		GPUTOP_FAKE_NVML_SCENARIO=$tmp/soak.scn timeout 20 "$bin" --nvml-lib "$lib" \
			--sysfs "$fix/amdgpu/rx6900xt" --procfs "$tmp/proc" --interval 0.1 --snapshot \
			>"$tmp/snap.json" 2>>"$tmp/snap.err" || snap_fail=$((snap_fail + 1))
		snaps=$((snaps + 1))
		next_snap=$((now + 5))
	fi
	sleep "$sample_s"
done

# The verdict, from the CSV.
awk -F, -v warm="$warm_s" -v total="$time_s" -v check_rss="${SOAK_RSS:-1}" \
	-v draw_max="$draw_us" -v thread_max="$thread_us" -v lost_s="$lost_s" \
	-v spikes="${SOAK_SPIKES:-0}" \
	-v loss="$loss_s" -v cycle="$cycle_s" '
NR == 1 { next }
# GPU 3, in each cycle k: seen lost while off the bus (2 s after it went
# to 1 s before it comes back), live from 4 s after its return to 1 s
# before the next loss (the clocks of the fake and of the samples differ
# by up to a second).
$1 >= lost_s {
	k = int(($1 - lost_s) / cycle); in_c = $1 - lost_s - k * cycle
	if (k > kmax) kmax = k
	if (in_c >= 2 && in_c <= loss - 1) { due_lost[k]++; if ($8 == "lost") seen_lost[k]++ }
	if (in_c >= loss + 4 && in_c < cycle - 1) {
		due_live[k]++
		if ($8 == "live") seen_live[k]++
	}
}
# The median of a[1..n] (a is sorted in place; n is small).
function median(a, n,    i, j, v) {
	for (i = 2; i <= n; i++) { v = a[i]; for (j = i - 1; j >= 1 && a[j] > v; j--) a[j + 1] = a[j]; a[j + 1] = v }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
# Frames, each period after the warm-up: the CPU per frame, and frames
# drawn at all (at 0.1 s, ten a second; a quarter of that is a stall).
$1 > warm && pt != "" {
	np++
	if ($5 == "" || $6 == "" || $7 == "") { if (nometrics == "") nometrics = $1 }
	else {
		if ($6 > mxd) { mxd = $6; mxd_t = $1 } sd += $6
		if ($7 > mxt) { mxt = $7; mxt_t = $1 } st += $7; nd++
		# Dearer or not: periods with GPU 3 live throughout, the
		# first half after the warm-up against the second (a loss
		# costs frames of its own, and a short run has one in one
		# quarter and none in the other).
		if ($8 == "live" && pst == "live") {
			if ($1 <= warm + (total - warm) / 2) { nfq++; fq_d[nfq] = $6; fq_t[nfq] = $7 }
			else { nlq++; lq_d[nlq] = $6; lq_t[nlq] = $7 }
		}
		if (draw_max > 0 && $6 > draw_max) { over_d++; over_at = over_at " " $1 "s" }
		if (thread_max > 0 && $7 > thread_max) { over_t++; if (!(draw_max > 0 && $6 > draw_max)) over_at = over_at " " $1 "s" }
		if (($5 - pfr) < ($1 - pt) * 10 / 4 && stall == "") stall = $1
	}
}
{ held = $8 == "live" && pst == "live"; pt = $1; pfr = $5; pst = $8 }
# Descriptor floors from samples with GPU 3 live in them and in the one
# before: while it is lost its process is not followed, and the
# /proc/PID/stat kept open for it closes; the first sample after its
# return may come before the process round that opens it again.
$1 <= warm { if ($2 > wr) wr = $2; nw++
	if ($1 >= warm / 4 && held && (wf == "" || $3 < wf)) wf = $3; next }
{ n++; if ($2 > mr) mr = $2; if ($3 > mf) mf = $3; last_r = $2; last_f = $3
	if ($1 >= total * 3 / 4 && held && (lf == "" || $3 < lf)) lf = $3 }
END {
	if (nw == 0 || n == 0 || wf == "" || lf == "") { print "FAIL: too few samples (" nw " in warm-up, " n " after)"; exit 1 }
	slack = wr / 100; if (slack < 256) slack = 256
	printf "soak: warm-up max RSS %d KiB, fd floor %d; after: max RSS %d KiB (last %d), fds max %d, floor in the last quarter %d (last %d), %d samples\n", wr, wf, mr, last_r, mf, lf, last_f, n
	bad = 0
	if (check_rss == 0) printf "soak: RSS not bounded (SOAK_RSS=0)\n"
	else if (mr > wr + slack) { printf "FAIL: RSS grew %d KiB after the warm-up (bound %d KiB)\n", mr - wr, slack; bad = 1 }
	if (lf > wf) { printf "FAIL: the descriptor floor rose from %d to %d\n", wf, lf; bad = 1 }
	if (nd == 0) { printf "FAIL: no frame figures after the warm-up\n"; bad = 1 }
	else {
		db = draw_max > 0 ? draw_max " us" : "none"
		tb = thread_max > 0 ? thread_max " us" : "none"
		printf "soak: CPU per frame over %d periods after the warm-up: drawing mean %.1f us, max %.1f us (at %ds; bound %s); whole screen thread mean %.1f us, max %.1f us (at %ds; bound %s)\n", nd, sd / nd, mxd, mxd_t, db, st / nd, mxt, mxt_t, tb
	}
	# Throughout: the second half no dearer than the first after the
	# warm-up (30 % for the noise of a shared machine), drawing and thread.
	if (nfq && nlq) {
		fd = median(fq_d, nfq); ld = median(lq_d, nlq); ft = median(fq_t, nfq); lt = median(lq_t, nlq)
		printf "soak: median CPU per frame with GPU 3 live, first half after the warm-up -> second half: drawing %.1f -> %.1f us, screen thread %.1f -> %.1f us (%d and %d periods)\n", fd, ld, ft, lt, nfq, nlq
		if (draw_max > 0 && ld > 1.3 * fd) { printf "FAIL: drawing a frame got dearer during the run\n"; bad = 1 }
		if (thread_max > 0 && lt > 1.3 * ft) { printf "FAIL: the screen thread per frame got dearer during the run\n"; bad = 1 }
	} else if (nd) { printf "FAIL: too few frame periods with GPU 3 live to compare the two halves\n"; bad = 1 }
	if (nometrics != "") { printf "FAIL: no frame figures from /metrics at %ds\n", nometrics; bad = 1 }
	if (over_d > spikes) { printf "FAIL: drawing took more than %s us per frame in %d of %d periods\n", draw_max, over_d, nd; bad = 1 }
	if (over_t > spikes) { printf "FAIL: the screen thread took more than %s us per frame in %d of %d periods\n", thread_max, over_t, nd; bad = 1 }
	if ((over_d || over_t) && over_d <= spikes && over_t <= spikes)
		printf "soak: over the bound in period(s) ending at%s: at most %d allowed (SOAK_SPIKES)\n", over_at, spikes
	if (stall != "") { printf "FAIL: under a quarter of the frames due were drawn in the period ending at %ds\n", stall; bad = 1 }
	# Every cycle with a sample due off the bus must show it LOST, and
	# one with samples due after its return live in all of them.
	for (k = 0; k <= kmax; k++) {
		if (due_lost[k]) { nl++; if (!seen_lost[k]) { printf "FAIL: GPU 3 was never shown LOST in cycle %d (off the bus from %ds)\n", k + 1, lost_s + k * cycle; gbad = 1 } }
		if (due_live[k]) { nb++; if (seen_live[k] < due_live[k]) { printf "FAIL: GPU 3 not live again in cycle %d (back since %ds)\n", k + 1, lost_s + k * cycle + loss; gbad = 1 } }
	}
	if (nl < 2 || nb < 2) { printf "FAIL: only %d losses and %d returns of GPU 3 sampled (2 each at least)\n", nl, nb; gbad = 1 }
	if (gbad) bad = 1
	else printf "soak: GPU 3 lost and back %d times (every %ds, off the bus %ds each): shown LOST in each of %d losses sampled, live again in each of %d returns sampled\n", kmax + 1, cycle, loss, nl, nb
	exit bad
}' "$csv"
verdict=$?
if [ -s "$out/stderr.log" ]; then
	echo "FAIL: gputop wrote to stderr: $(head -c 500 "$out/stderr.log")"
	verdict=1
fi
if [ "$snap_fail" -gt 0 ]; then
	echo "FAIL: $snap_fail of $snaps snapshots failed: $(head -c 500 "$tmp/snap.err")"
	verdict=1
fi
tmux -L "$sock" send-keys -t dash q
for _ in $(seq 1 100); do [ -s "$tmp/exit" ] && break; sleep 0.05; done
grep -q "EXITED 0" "$tmp/exit" 2>/dev/null || { echo "FAIL: q did not end it with 0: $(cat "$tmp/exit" 2>/dev/null)"; verdict=1; }
[ "$verdict" = 0 ] && echo "PASS: soak ${time_s}s: $([ "${SOAK_RSS:-1}" = 0 ] || echo "RSS and ")descriptors flat after the warm-up, frame CPU $([ "$draw_us" = 0 ] && [ "$thread_us" = 0 ] && echo "reported (not bounded)" || echo "within bounds"), GPU 3 lost and back every ${cycle_s}s, $snaps snapshots, no stderr"
exit $verdict

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/soak/soak.sh - `make soak`: gputop left running under churn, its
# memory and descriptors watched. The dashboard runs in tmux at a 0.1 s
# interval on the fake NVML's 8x H100 node (one GPU falls off the bus
# after 1.5 s, one NVML call has 5 ms of injected latency) plus an AMD card
# from the fixtures, over a --procfs tree in which about CHURN processes a
# second appear and go (each holding a DRM descriptor with its fdinfo, so
# the fdinfo scanner and the process cache see them come and go); a
# --snapshot runs every 5 s beside it. Every SOAK_SAMPLE seconds the
# dashboard's RSS (VmRSS), open descriptors and threads go into
# BUILD/soak/soak.csv.
#
# Fails if, after the warm-up (SOAK_WARMUP, default a fifth of the run):
#   - the RSS rises more than 1 % (or 256 KiB, whichever is larger) above
#     the highest RSS seen during the warm-up;
#   - the descriptor floor rises: the fewest descriptors open in the
#     samples of the run's last quarter exceed the fewest in the second
#     half of the warm-up (a scan in flight holds a few dozen for a moment,
#     so single samples go up and down; a leak raises the floor);
#   - gputop wrote anything to stderr, a snapshot failed, or it died.
#
#   tests/soak/soak.sh BUILD   (SOAK_TIME=300 SOAK_SAMPLE=5 SOAK_WARMUP=
#                               SOAK_CHURN=50 SOAK_WRAP= SOAK_OUT=BUILD/soak
#                               SOAK_RSS=1)
#
# SOAK_RSS=0 reports the RSS without bounding it: for sanitizer builds,
# whose allocators keep growing their own caches by design (LeakSanitizer
# checks leaks at exit there instead).
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
bin=$PWD/$build/gputop
lib=$PWD/$build/fake-nvml/libnvidia-ml.so.1
fix=$PWD/tests/fixtures
out=${SOAK_OUT:-$PWD/$build/soak}
[ -x "$bin" ] && [ -f "$lib" ] || { echo "soak: build $bin and $lib first" >&2; exit 1; }
command -v tmux >/dev/null || { echo "soak: tmux is not installed" >&2; exit 1; }
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

# The node: 8x H100, GPU 3 lost after 1.5 s, 5 ms on every utilisation call.
printf 'include %s\nlatency nvmlDeviceGetUtilizationRates 5\n' \
	"$PWD/tests/fake-nvml/scenarios/h100x8-lost.scn" >"$tmp/soak.scn"
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
	"env LANG=C.UTF-8 XDG_STATE_HOME=$tmp XDG_CONFIG_HOME=$tmp GPUTOP_FAKE_NVML_SCENARIO=$tmp/soak.scn ${SOAK_WRAP:-} $bin --nvml-lib $lib --sysfs $fix/amdgpu/rx6900xt --procfs $tmp/proc --state-dir $tmp/state --interval 0.1 --seed 5$$ 2>$out/stderr.log; echo EXITED \$? >$tmp/exit; sleep 600"
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
echo "t_s,rss_kib,fds,threads" >"$csv"
start=$(date +%s)
next_snap=0
snaps=0 snap_fail=0
echo "soak: gputop $pid for ${time_s}s (warm-up ${warm_s}s, a sample every ${sample_s}s, ~$churn processes/s), CSV: $csv"
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
	echo "$now,$rss,$fds,$thr" >>"$csv"
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
awk -F, -v warm="$warm_s" -v total="$time_s" -v check_rss="${SOAK_RSS:-1}" '
NR == 1 { next }
$1 <= warm { if ($2 > wr) wr = $2; nw++
	if ($1 >= warm / 2 && (wf == "" || $3 < wf)) wf = $3; next }
{ n++; if ($2 > mr) mr = $2; if ($3 > mf) mf = $3; last_r = $2; last_f = $3
	if ($1 >= total * 3 / 4 && (lf == "" || $3 < lf)) lf = $3 }
END {
	if (nw == 0 || n == 0 || wf == "" || lf == "") { print "FAIL: too few samples (" nw " in warm-up, " n " after)"; exit 1 }
	slack = wr / 100; if (slack < 256) slack = 256
	printf "soak: warm-up max RSS %d KiB, fd floor %d; after: max RSS %d KiB (last %d), fds max %d, floor in the last quarter %d (last %d), %d samples\n", wr, wf, mr, last_r, mf, lf, last_f, n
	bad = 0
	if (check_rss == 0) printf "soak: RSS not bounded (SOAK_RSS=0)\n"
	else if (mr > wr + slack) { printf "FAIL: RSS grew %d KiB after the warm-up (bound %d KiB)\n", mr - wr, slack; bad = 1 }
	if (lf > wf) { printf "FAIL: the descriptor floor rose from %d to %d\n", wf, lf; bad = 1 }
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
[ "$verdict" = 0 ] && echo "PASS: soak ${time_s}s: $([ "${SOAK_RSS:-1}" = 0 ] || echo "RSS and ")descriptors flat after the warm-up, $snaps snapshots, no stderr"
exit $verdict

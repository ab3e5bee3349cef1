#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A GPU that falls off the bus and comes back (h100x8-reset.scn: GPU 3 is
# lost from 1 s to 3 s after init, as until a GPU reset): the dashboard
# (tmux), --json and the /metrics of `gputop serve` show it lost, then live
# with its values again once the collector's next try (every 3 s) finds it
# answering, while the seven others never stop.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/terminal/tmux_lib.sh
. "$here/tmux_lib.sh"
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
command -v curl >/dev/null || { echo "SKIP: curl is not installed"; exit 77; }
tmux_begin lost
scn=$scn_dir/h100x8-reset.scn
srv_pid=""
trap '[ -n "$srv_pid" ] && kill "$srv_pid" 2>/dev/null; t kill-server 2>/dev/null; rm -rf "$state"' EXIT

# ---- the dashboard ----------------------------------------------------
# GPU 3's title, up to its panel's corner (two panels share a line).
title3() { sed 's/╮/╮\n/g' <<<"$screen" | grep -E '\[3\] NVIDIA H100 80GB HBM3'; }
lost3() { title3 | grep -q "LOST"; }
t new-session -d -x 160 -y 50 -s dash \
	"env LANG=C.UTF-8 XDG_STATE_HOME=$state XDG_CONFIG_HOME=$state GPUTOP_FAKE_NVML_SCENARIO=$scn $bin --nvml-lib $lib --procfs $fix/proc --sysfs $nosys --interval 0.5; echo EXITED \$?; sleep 60"
start=$(date +%s.%N)
seen_lost="" seen_back=""
for _ in $(seq 1 240); do # 12 s at most
	screen=$(t capture-pane -p -t dash)
	if [ -z "$seen_lost" ] && lost3; then
		seen_lost=$(python3 -c "print(round($(date +%s.%N) - $start, 1))")
	elif [ -n "$seen_lost" ] && title3 >/dev/null && ! lost3; then
		seen_back=$(python3 -c "print(round($(date +%s.%N) - $start, 1))")
		break
	fi
	sleep 0.05
done
if [ -n "$seen_lost" ] && [ -n "$seen_back" ]; then
	pass "dashboard: GPU 3 labelled LOST at ${seen_lost} s, live again at ${seen_back} s"
else
	fail "dashboard: GPU 3 lost at '${seen_lost}' s, back at '${seen_back}' s"
fi
# Its panel has values again: power of the 700 W limit, not N/A.
if wait_for "LOST" 1 && lost3; then
	fail "dashboard: GPU 3 LOST again"
elif sed 's/││/│\n│/g' <<<"$screen" | grep -A12 '\[3\] NVIDIA' | grep -Eq 'POWER .* [0-9]+/700 W'; then
	pass "dashboard: GPU 3's panel shows its power again"
else
	fail "dashboard: GPU 3's panel has no power after its return"
fi
keys q
wait_for "EXITED 0" || fail "dashboard: q did not end it with status 0"

# ---- --json -----------------------------------------------------------
# 32 lines at 0.25 s: 8 s, past 3 s + one 3 s retry period.
GPUTOP_FAKE_NVML_SCENARIO=$scn "$bin" --nvml-lib "$lib" --procfs "$fix/proc" \
	--sysfs "$nosys" --json --count 32 --interval 0.25 >"$state/lines.ndjson" 2>"$state/json.err"
rc=$?
if [ "$rc" = 0 ] && [ ! -s "$state/json.err" ] && out=$(python3 - "$state/lines.ndjson" 2>&1 <<'PY'
import json, sys
seq = []
for l in open(sys.argv[1]):
    devs = json.loads(l)["devices"]
    d = devs[3]
    seq.append("L" if d["lost"] else "K")
    assert d["lost"] == (d["state"] == "lost"), d["state"]
    if not d["lost"]:
        assert d["power"]["draw_watts"] is not None and d["utilization"]["gpu_percent"] is not None
    else:
        assert d["power"]["draw_watts"] is None
    assert all(not x["lost"] for i, x in enumerate(devs) if i != 3)
s = "".join(seq)
# live, then lost, then live again to the end
i = s.find("L")
j = s.find("K", i) if i >= 0 else -1
assert i > 0 and j > i and "L" not in s[j:], s
print(s)
PY
); then
	pass "--json: GPU 3 live, lost, live again with values ($out)"
else
	fail "--json: rc=$rc $out $(head -c 300 "$state/json.err")"
fi

# ---- /metrics of gputop serve -----------------------------------------
GPUTOP_FAKE_NVML_SCENARIO=$scn "$bin" --nvml-lib "$lib" --procfs "$fix/proc" \
	--sysfs "$nosys" serve --listen 127.0.0.1:0 --interval 0.25 2>"$state/serve.log" &
srv_pid=$!
addr=""
for _ in $(seq 100); do
	addr=$(sed -n 's|^gputop: serving http://\(.*\)/metrics$|\1|p' "$state/serve.log")
	[ -n "$addr" ] && break
	sleep 0.05
done
lost_m="" back_m=""
if [ -n "$addr" ]; then
	for _ in $(seq 120); do # 12 s at most
		curl -s "http://$addr/metrics" >"$state/m.txt"
		if [ -z "$lost_m" ] && grep -q '^gputop_gpu_lost{gpu="3",.*} 1$' "$state/m.txt"; then
			lost_m=1
			cp "$state/m.txt" "$state/lost.txt"
		elif [ -n "$lost_m" ] && grep -q '^gputop_gpu_lost{gpu="3",.*} 0$' "$state/m.txt"; then
			back_m=1
			break
		fi
		sleep 0.1
	done
fi
if [ -n "$lost_m" ] && [ -n "$back_m" ] &&
	! grep -q '^gputop_gpu_power_watts{gpu="3",' "$state/lost.txt" &&
	[ "$(grep -c '^gputop_gpu_power_watts{' "$state/m.txt")" = 8 ] &&
	! grep -q '^gputop_metric_unavailable{gpu="3",.*reason="lost"}' "$state/m.txt"; then
	pass "/metrics: gputop_gpu_lost of GPU 3 went 1, then 0 with its power back (8 GPUs reported)"
else
	fail "/metrics: lost '$lost_m' back '$back_m' at '$addr': $(grep 'gpu="3"' "$state/m.txt" | head -5)"
fi
kill -TERM "$srv_pid" 2>/dev/null
wait "$srv_pid"
rc=$?
srv_pid=""
[ "$rc" = 0 ] || fail "serve: SIGTERM ended it with $rc"
if [ -s "$state/serve.log" ] && grep -v '^gputop: serving' "$state/serve.log" | grep -q .; then
	fail "serve wrote: $(grep -v '^gputop: serving' "$state/serve.log" | head -3)"
fi

echo "$failures failure(s)"
[ "$failures" -eq 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A real Prometheus scrapes `gputop serve` on the fake 8x H100: the test
# writes a configuration with a free loopback port and temporary storage,
# starts both, asks Prometheus's HTTP API for utilization, memory and power
# of every GPU and compares them with the scenario (tests/fake-nvml/
# scenarios/h100x8.scn: util 100-(i%4) %, memory used 71 GiB plus the
# extra process of GPUs 0-2, power 620+2.5*i W) and a dcgm-exporter name
# made by contrib/'s recording rules, then stops both by pid.
set -u
. "$(dirname "$0")/export_lib.sh"
prom=$(command -v prometheus) || { echo "SKIP: prometheus is not installed (apt-get install prometheus)"; exit 77; }
need curl python3
export GPUTOP_FAKE_NVML_SCENARIO=$scn_dir/h100x8.scn

start_serve "$tmp/serve.log" --listen 127.0.0.1:0 --interval 0.5 || exit 1
wait_status "http://$addr/-/ready" 200 || fail "gputop never ready"

pport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
rules=$(cd "$(dirname "$0")/../../contrib/prometheus" && pwd)
cat >"$tmp/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files:
  - $rules/gputop.rules.yml
  - $rules/compat-dcgm.rules.yml
scrape_configs:
  - job_name: gputop
    static_configs:
      - targets: ['$addr']
YML
"$prom" --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
	--web.listen-address="127.0.0.1:$pport" >"$tmp/prom.log" 2>&1 &
prom_pid=$!
pids+=("$prom_pid")
api=http://127.0.0.1:$pport/api/v1/query
wait_status "http://127.0.0.1:$pport/-/ready" 200 300 || {
	fail "Prometheus did not start"
	tail -n 20 "$tmp/prom.log"
	finish
}

# query EXPR: the API's JSON for an instant query.
query() { curl -s --data-urlencode "query=$1" "$api"; }

# wait_count EXPR N TRIES: polls (0.2 s steps) until count(EXPR) is N;
# the last count in $n.
wait_count() {
	local i
	for i in $(seq "$3"); do
		n=$(query "count($1)" | python3 -c '
import json, sys
r = json.load(sys.stdin)["data"]["result"]
print(r[0]["value"][1] if r else 0)' 2>/dev/null)
		[ "$n" = "$2" ] && return 0
		sleep 0.2
	done
	return 1
}

# Until a scrape landed: up == 1 and 8 utilization series.
wait_count gputop_gpu_utilization_ratio 8 150
[ "$n" = 8 ] && pass "Prometheus scraped 8 GPUs' utilization" || fail "series in Prometheus: '$n'"
up=$(query "up{job=\"gputop\"}" | python3 -c '
import json, sys
print(json.load(sys.stdin)["data"]["result"][0]["value"][1])')
[ "$up" = 1 ] && pass "up{job=\"gputop\"} = 1" || fail "up = $up"

# check METRIC PYTHON_EXPR_OF_i [REL_TOLERANCE]: every GPU's value equals
# the expression (exactly, but for float rounding, unless a tolerance).
check() {
	query "$1" >"$tmp/q.json"
	if python3 - "$tmp/q.json" "$2" "${3:-1e-9}" <<'PY'; then
import json, sys
res = json.load(open(sys.argv[1]))["data"]["result"]
want_of = eval("lambda i: " + sys.argv[2])
got = {int(r["metric"]["gpu"]): float(r["value"][1]) for r in res}
assert sorted(got) == list(range(8)), got
for i, v in got.items():
    w = want_of(i)
    assert abs(v - w) <= float(sys.argv[3]) * max(1, abs(w)), (i, v, w)
    uuid = "GPU-5d0e7a31-2c4b-4f6a-9e80-1b2c3d4e5f0%d" % i
    r = [r for r in res if r["metric"]["gpu"] == str(i)][0]["metric"]
    assert r["uuid"] == uuid and r["vendor"] == "nvidia", r
print(sorted(got.items())[:3], "...")
PY
		pass "$1 of every GPU as the scenario says"
	else
		fail "$1"
	fi
}
GiB=1073741824
check gputop_gpu_utilization_ratio '(100 - i % 4) / 100'
check gputop_gpu_memory_used_bytes "71 * $GiB + {0: 512 * 1048576, 1: $GiB, 2: 256 * 1048576}.get(i, 0)"
check gputop_gpu_power_watts '620 + 2.5 * i'
check gputop_gpu_power_limit_watts '700'
check 'gputop_gpu_temperature_celsius{sensor="gpu"}' '40 + i'
check gputop_gpu_memory_total_bytes "81559 * 1048576"
# A counter, growing with the power: the energy counter is read on the
# slow cadence (every 5 s here: its read costs a real driver about 3 ms of
# CPU), so over 16 s of scrapes each GPU's counter takes at least three
# values, and each step between two of them is the power times the 5 s
# (up to one 0.5 s tick later) between the reads.
sleep 13
query 'gputop_gpu_energy_joules_total[16s]' >"$tmp/e.json"
if steps=$(python3 - "$tmp/e.json" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))["data"]["result"]
assert len(res) == 8, len(res)
out = []
for r in res:
    i = int(r["metric"]["gpu"])
    vals = [float(v) for _, v in r["values"]]
    distinct = [v for k, v in enumerate(vals) if k == 0 or v != vals[k - 1]]
    assert len(distinct) >= 3, (i, distinct)
    assert all(b > a for a, b in zip(distinct, distinct[1:])), (i, distinct)
    for a, b in zip(distinct[1:], distinct[2:]):
        secs = (b - a) / (620 + 2.5 * i)
        assert 4.9 <= secs <= 5.7, (i, secs)
        out.append(round(secs, 2))
print(sorted(set(out)))
PY
); then
	pass "gputop_gpu_energy_joules_total: steps of power x ${steps} s, read every 5 s"
else
	fail "the energy counter's steps: $steps"
fi
info=$(query 'gputop_gpu_info{gpu="5"}' | python3 -c '
import json, sys
m = json.load(sys.stdin)["data"]["result"][0]["metric"]
print(m["name"], m["pci_bus_id"], m["driver_version"])')
[ "$info" = "NVIDIA H100 80GB HBM3 0000:ab:00.0 590.48.01" ] &&
	pass "gputop_gpu_info: $info" || fail "gputop_gpu_info: $info"

# The recording rules of contrib/ in the same server: the dcgm-exporter
# name that existing dashboards query, from gputop's ratio.
wait_count DCGM_FI_DEV_GPU_UTIL 8 50
query DCGM_FI_DEV_GPU_UTIL >"$tmp/dcgm.json"
if python3 - "$tmp/dcgm.json" <<'PY'; then
import json, sys
res = json.load(open(sys.argv[1]))["data"]["result"]
got = {int(r["metric"]["gpu"]): float(r["value"][1]) for r in res}
assert sorted(got) == list(range(8)), got
for i, v in got.items():
    assert abs(v - (100 - i % 4)) < 1e-9, (i, v)
    r = [r for r in res if r["metric"]["gpu"] == str(i)][0]["metric"]
    assert r["UUID"] == "GPU-5d0e7a31-2c4b-4f6a-9e80-1b2c3d4e5f0%d" % i, r
print(sorted(got.items())[:3], "...")
PY
	pass "recording rule DCGM_FI_DEV_GPU_UTIL = utilization in percent with UUID, every GPU"
else
	fail "DCGM_FI_DEV_GPU_UTIL: $(head -c 300 "$tmp/dcgm.json")"
fi

stop "$prom_pid"
stop "$srv_pid"
[ "$stop_rc" = 0 ] && pass "gputop serve stopped with status 0" || fail "gputop status $stop_rc"
finish

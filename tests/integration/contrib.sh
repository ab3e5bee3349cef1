#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# contrib/: the Prometheus rules pass promtool check rules and their unit
# tests (promtool test rules); every gputop_ name the rules and the Grafana
# dashboard use is in the /metrics of gputop serve on the fake 8x H100; the
# DaemonSet is ready on /-/ready and the systemd unit runs gputop serve.
set -u
. "$(dirname "$0")/export_lib.sh"
command -v promtool >/dev/null || { echo "SKIP: promtool is not installed (apt-get install prometheus)"; exit 77; }
for t in curl python3; do
	command -v $t >/dev/null || { echo "SKIP: $t is not installed"; exit 77; }
done
python3 -c 'import yaml' 2>/dev/null ||
	{ echo "SKIP: python3-yaml is not installed (the DaemonSet is YAML)"; exit 77; }
c=$PWD/contrib
export GPUTOP_FAKE_NVML_SCENARIO=$scn_dir/h100x8.scn

out=$(promtool check rules "$c"/prometheus/*.rules.yml 2>&1) &&
	pass "promtool check rules: $(grep -c SUCCESS <<<"$out") files" || fail "check rules: $out"
out=$(cd "$c/prometheus" && promtool test rules tests.yml 2>&1) &&
	pass "promtool test rules: the DCGM names in DCGM's units, the alerts fire" ||
	fail "test rules: $out"

start_serve "$tmp/serve.log" --listen 127.0.0.1:0 --interval 0.2 --metrics-processes 2 || exit 1
wait_status "http://$addr/-/ready" 200 || fail "never ready"
# Rates (PCIe) need two rounds: wait for a third.
for i in $(seq 50); do
	curl -s "http://$addr/metrics" >"$tmp/m.txt"
	grep -q '^gputop_collector_rounds_total \([3-9]\|[1-9][0-9]\+\)$' "$tmp/m.txt" && break
	sleep 0.1
done
sed -n 's/^\(gputop_[a-z_]*\).*/\1/p' "$tmp/m.txt" | sort -u >"$tmp/have"
missing=""
for f in "$c"/prometheus/*.rules.yml "$c"/grafana/*.json; do
	for n in $(grep -o 'gputop_[a-z_]*' "$f" | sort -u); do
		grep -qx "$n" "$tmp/have" || missing="$missing $(basename "$f"):$n"
	done
done
[ -z "$missing" ] && pass "every gputop_ name of the rules and the dashboard is in /metrics ($(wc -l <"$tmp/have") names there)" ||
	fail "names not in /metrics:$missing"
stop "$srv_pid"

python3 - "$c" <<'PY' && pass "the dashboard parses; its node list comes from gputop_gpu_info; the DaemonSet is ready on /-/ready" || fail "dashboard or DaemonSet"
import json, sys
c = sys.argv[1]
d = json.load(open(c + "/grafana/gputop-dashboard.json"))
assert d["panels"] and all(p["targets"][0]["expr"] for p in d["panels"])
var = [v for v in d["templating"]["list"] if v["name"] == "instance"][0]
assert "gputop_gpu_info" in var["definition"]
import yaml
ds = yaml.safe_load(open(c + "/kubernetes/gputop-daemonset.yaml"))
ct = ds["spec"]["template"]["spec"]["containers"][0]
assert ct["args"][0] == "serve" and "0.0.0.0:29471" in ct["args"], ct["args"]
assert ct["readinessProbe"]["httpGet"]["path"] == "/-/ready"
assert ct["livenessProbe"]["httpGet"]["path"] == "/-/healthy"
assert ds["spec"]["template"]["spec"]["hostPID"] is True
PY
grep -q '^ExecStart=/usr/local/bin/gputop serve ' "$c/systemd/gputop.service" &&
	pass "the systemd unit runs gputop serve" || fail "systemd unit"
finish

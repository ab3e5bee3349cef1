#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The dashboard with --listen on the fake 8x H100, in tmux: /metrics is
# served while the screen runs, from the same collector (the dashboard's +
# key doubles the interval and gputop_sample_interval_seconds follows),
# the frames drawn and their drawing CPU are exported,
# and quitting with q closes the port and exits 0.
set -u
. "$(dirname "$0")/export_lib.sh"
need curl python3 tmux
sock="gputop-export-$$"
t() { tmux -L "$sock" "$@"; }
trap 't kill-server 2>/dev/null; export_cleanup' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
url=http://127.0.0.1:$port

t new-session -d -s keep "sleep 900"
t new-session -d -s dash -x 200 -y 60 \
	"GPUTOP_FAKE_NVML_SCENARIO=$scn_dir/h100x8.scn '$bin' --nvml-lib '$lib' --sysfs '$nosys' --procfs '$fix/proc' --listen 127.0.0.1:$port; echo \$? >'$tmp/exit'; sleep 900"
if wait_status "$url/-/ready" 200 100 && curl -s "$url/metrics" >"$tmp/m.txt" &&
	grep -q '^gputop_devices 8$' "$tmp/m.txt" &&
	grep -q '^gputop_gpu_power_watts{gpu="0",.*} 620$' "$tmp/m.txt"; then
	pass "the dashboard serves /metrics on --listen while it runs"
else
	fail "no /metrics beside the dashboard"
fi
screen=$(t capture-pane -p -t dash)
grep -q "H100" <<<"$screen" && pass "and the screen shows the GPUs" || fail "screen: $screen"

interval() { curl -s "$url/metrics" | sed -n 's/^gputop_sample_interval_seconds //p'; }
before=$(interval)
t send-keys -t dash +
for i in $(seq 50); do
	after=$(interval)
	[ "$after" != "$before" ] && break
	sleep 0.1
done
[ "$before" = 1 ] && [ "$after" = 2 ] &&
	pass "one collector: the dashboard's + makes the exported interval $before -> $after s" ||
	fail "interval $before -> $after"

# The screen's own cost: frames counted as they are drawn, with the CPU
# their drawing took (each frame takes more than 0 and less than 50 ms).
frames() { curl -s "$url/metrics" | sed -n "s/^gputop_dashboard_$1 //p"; }
f1=$(frames frames_total)
# A whole frame more: the next round's at the 2 s interval now (a second
# that only moves the clock redraws the clock alone, and is not counted).
for _ in $(seq 50); do
	sleep 0.1
	f2=$(frames frames_total)
	[ -n "$f1" ] && [ -n "$f2" ] && [ "$f2" -gt "$f1" ] && break
done
cpu=$(frames draw_cpu_seconds_total)
if [ -n "$f1" ] && [ -n "$f2" ] && [ "$f2" -gt "$f1" ] &&
	python3 -c "import sys; f, c = int(sys.argv[1]), float(sys.argv[2]); sys.exit(not (0 < c < f * 0.05))" "$f2" "$cpu"; then
	pass "gputop_dashboard_frames_total $f1 -> $f2, gputop_dashboard_draw_cpu_seconds_total $cpu"
else
	fail "dashboard series: frames '$f1' -> '$f2', draw CPU '$cpu'"
fi

t send-keys -t dash q
for i in $(seq 100); do
	[ -s "$tmp/exit" ] && break
	sleep 0.1
done
code=$(curl -s -o /dev/null -w '%{http_code}' "$url/metrics")
[ "$(cat "$tmp/exit" 2>/dev/null)" = 0 ] && [ "$code" = 000 ] &&
	pass "q: exit status 0 and the port is closed" ||
	fail "after q: status '$(cat "$tmp/exit" 2>/dev/null)', /metrics answered $code"
finish

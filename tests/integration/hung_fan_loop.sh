#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A software fan loop's write that the driver does not answer: the fake
# NVML answers fan-speed writes for 2 s, then takes 30 s over each. The
# loop's write runs on a thread of its own that the collector's thread
# waits for at most 4 s (and half a second once it is stopping), so
# `gputop --apply PROFILE --daemon` still ends within 2 s of SIGTERM: once
# during the hung write, and once after gputop gave up on it (which it
# says). It exits 1 saying that a write has not come back; its restore
# guardian hands the fans back.
. "$(dirname "$0")/signal_lib.sh"

mkdir -p "$tmp/cfg/gputop"
# The temperature ramps up 0.38 C/s: the curve asks for a faster fan about
# every 3 s, so a write comes soon after the driver starts to hang.
printf '[profile steep]\ngpu = 0000:01:00.0\nfan = 40:30, 50:60, 60:90, 70:100\n' \
	>"$tmp/cfg/gputop/gputop.conf"
printf 'include %s/rtx4090.scn\nlatency nvmlDeviceSetFanSpeed_v2 30000 after 2\n' \
	"$scn_dir" >"$tmp/hung.scn"

# run_case LABEL WAIT-FOR: --apply steep --daemon; SIGTERM once WAIT-FOR
# (a regex) is in its stderr, or after 4.5 s when it is empty. Sets ms, rc.
run_case() {
	local label=$1 want=$2 t0 p
	apply_bg "$tmp/hung.scn" steep --daemon
	if [ -z "$want" ]; then
		sleep 4.5
	else
		for _ in $(seq 1 400); do # 20 s at most
			grep -Eq -- "$want" "$tmp/err" && break
			sleep 0.05
		done
	fi
	t0=$(now_ms)
	kill -TERM "$p"
	await_exit "$p" "$t0" 600 # 30 s at most
}

for c in during after; do
	want=""
	[ $c = after ] && want="did not answer a fan write within 4 s"
	run_case "$c" "$want"
	if grep -q "nvmlDeviceSetFanSpeed_v2 dev=0 fan=0" "$tmp/setters.log" &&
		[ "$rc" = 1 ] && [ "$ms" -le 2000 ] &&
		grep -q "a write to the driver has not come back\|the driver has not answered an earlier write" "$tmp/err"; then
		pass "SIGTERM $c a hung fan write: gputop ended in $ms ms, status 1, with the reason"
	else
		fail "SIGTERM $c a hung fan write: status $rc after $ms ms: $(head -c 600 "$tmp/err"); setters: $(head -c 300 "$tmp/setters.log" 2>/dev/null)"
	fi
	if [ $c = after ]; then
		grep -q "did not answer a fan write within 4 s" "$tmp/err" &&
			pass "the daemon said the fan write was given up on" ||
			fail "no word of the hung fan write: $(head -c 400 "$tmp/err")"
	fi
done

echo "$failures failure(s)"
[ "$failures" -eq 0 ]

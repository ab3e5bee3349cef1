#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A control write the driver does not answer: the fake NVML takes 8 s over
# every power-limit write. `gputop --apply PROFILE` (and --daemon) waits
# 4 s for it (a second less than the guardian's patience), says the driver
# did not answer, and exits 1 at once; a stop signal during the write ends
# it within 1 s the same way (a write that finishes within half a second
# of the signal is restored by gputop itself, as before). Its restore
# guardian then puts the original limit back (its own write, 8 s later)
# and removes the state file. `gputop --restore` waits 4 s for its own
# write the same way, exits 1 and keeps the state file; a guardian whose
# restore the driver never answers gives up after 20 s.
. "$(dirname "$0")/signal_lib.sh"

mkdir -p "$tmp/cfg/gputop"
printf '[profile lower]\ngpu = 0000:01:00.0\npower_limit = 300W\n' >"$tmp/cfg/gputop/gputop.conf"
printf 'include %s/rtx4090.scn\nlatency nvmlDeviceSetPowerManagementLimit 8000\nlatency nvmlDeviceSetPowerManagementLimit_v2 8000\n' \
	"$scn_dir" >"$tmp/hung.scn"

# run_case LABEL SIGNAL-AFTER-S ARGS...: --apply with a fresh state
# directory; SIGNAL-AFTER-S empty: no signal. Sets ms, rc.
run_case() {
	local label=$1 after=$2 t0 p
	shift 2
	t0=$(now_ms)
	apply_bg "$tmp/hung.scn" lower "$@"
	if [ -n "$after" ]; then
		sleep "$after"
		t0=$(now_ms)
		kill -TERM "$p"
	fi
	await_exit "$p" "$t0" 300 # 15 s at most
}

# The guardian's restore: the original limit (450 W) written, the state
# file gone, within 15 s (its own write takes 8 s).
restored() {
	for _ in $(seq 1 300); do
		[ ! -e "$tmp/state/restore.state" ] &&
			grep -q 'limit=450000 -> 0$' "$tmp/setters.log" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

for mode in "" --daemon; do
	run_case "timeout" "" $mode
	if [ "$rc" = 1 ] && [ "$ms" -ge 3500 ] && [ "$ms" -le 5500 ] &&
		grep -q "GPU 0: the driver did not answer a write in 4 s" "$tmp/err" &&
		grep -q "its restore guardian puts back what was changed" "$tmp/err"; then
		pass "--apply ${mode:-(one-shot)}: a write unanswered for 4 s ends it in $ms ms, status 1, with the reason"
	else
		fail "--apply ${mode:-(one-shot)} on a hung write: status $rc after $ms ms: $(head -c 400 "$tmp/err")"
	fi
	if restored; then
		pass "--apply ${mode:-(one-shot)}: the guardian put the original limit back and removed the state file"
	else
		fail "--apply ${mode:-(one-shot)}: not restored: state $(ls "$tmp/state" 2>&1), setters: $(cat "$tmp/setters.log" 2>/dev/null)"
	fi
done

# SIGTERM 1 s into the hung write (the first write comes at once).
run_case "signal" 1 --daemon
if [ "$rc" = 1 ] && [ "$ms" -le 1000 ] &&
	grep -q "stopped while GPU 0's driver had not answered a write" "$tmp/err"; then
	pass "--apply --daemon: SIGTERM during a hung write ends it in $ms ms, status 1, with the reason"
else
	fail "--apply --daemon: SIGTERM during a hung write: status $rc after $ms ms: $(head -c 400 "$tmp/err")"
fi
restored && pass "and the guardian restored the limit" || fail "after SIGTERM: not restored: $(cat "$tmp/setters.log" 2>/dev/null)"

# gputop --restore on a driver that does not answer: a state file left by
# a double death (gputop and its guardian killed), then --restore with
# every power-limit write taking 20 s: it exits 1 within its 4 s bound,
# says so, and keeps the state file.
leave_state "$scn_dir/rtx4090.scn" lower
printf 'include %s/rtx4090.scn\nlatency nvmlDeviceSetPowerManagementLimit 20000\nlatency nvmlDeviceSetPowerManagementLimit_v2 20000\n' \
	"$scn_dir" >"$tmp/hung20.scn"
if [ -s "$tmp/state/restore.state" ]; then
	t0=$(now_ms)
	env GPUTOP_FAKE_NVML_SCENARIO="$tmp/hung20.scn" "$bin" --nvml-lib "$lib" \
		--state-dir "$tmp/state" --sysfs "$nosys" --restore \
		>"$tmp/out" 2>"$tmp/err" &
	p=$!
	pids+=("$p")
	await_exit "$p" "$t0" 300 # 15 s at most
	if [ "$rc" = 1 ] && [ "$ms" -ge 3500 ] && [ "$ms" -le 5500 ] &&
		grep -q "the driver did not answer within 4 s while restoring" "$tmp/err" &&
		[ -s "$tmp/state/restore.state" ]; then
		pass "--restore: a write unanswered for 4 s ends it in $ms ms, status 1, the state file kept"
	else
		fail "--restore on a hung write: status $rc after $ms ms: $(head -c 400 "$tmp/err")"
	fi
else
	fail "no state file left to restore: $(ls "$tmp/state" 2>&1); $(head -c 300 "$tmp/err")"
fi

# The guardian's own restore on a driver that never answers: every
# power-limit write takes 60 s. gputop gives up on its write after 4 s and
# exits; its guardian's restore then waits 20 s for the driver, logs that
# it could not tell whether the limit is back, leaves the state file for
# --restore and exits (before: it waited for the whole write, for ever on
# a driver that never comes back).
printf 'include %s/rtx4090.scn\nlatency nvmlDeviceSetPowerManagementLimit 60000\nlatency nvmlDeviceSetPowerManagementLimit_v2 60000\n' \
	"$scn_dir" >"$tmp/hung60.scn"
apply_bg "$tmp/hung60.scn" lower
guard=""
for _ in $(seq 1 60); do
	guard=$(pgrep -x -P "$p" gputop-guard) && break
	sleep 0.05
done
await_exit "$p" "$(now_ms)" 300
t0=$(now_ms)
gone=""
for _ in $(seq 1 300); do # 30 s at most
	[ -n "$guard" ] && ! kill -0 "$guard" 2>/dev/null && { gone=$(($(now_ms) - t0)); break; }
	sleep 0.1
done
if [ -n "$gone" ] && [ "$gone" -ge 18000 ] && [ "$gone" -le 25000 ] &&
	grep -q "did not answer the restore within 20 s" "$tmp/state/guardian.log" 2>/dev/null &&
	[ -s "$tmp/state/restore.state" ]; then
	pass "the guardian's restore on a driver that never answers: it gives up after $gone ms, says so in its log, the state file kept"
else
	[ -n "$guard" ] && kill -KILL "$guard" 2>/dev/null
	fail "the guardian on a hung restore: guardian '${guard:-none}' gone after '${gone:-never}' ms; log: $(cat "$tmp/state/guardian.log" 2>&1 | head -c 300)"
fi

echo "$failures failure(s)"
[ "$failures" -eq 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Control through the real dashboard in tmux, against the fake NVML (its
# setter log records every call) and writable copies of AMD fixtures:
# each dialog action makes exactly the expected calls or file writes, an
# unconfirmed change reverts after the countdown, quitting and SIGTERM
# restore, SIGKILL and SIGSTOP are covered by the guardian, a state file
# left by a double death is offered at the next start and `--restore`
# performs it, and an unprivileged user gets read-only dialogs.
set -u
sock="gputop-ctl-$$"
tmp=$(mktemp -d)
chmod 755 "$tmp"
# an empty sysfs root: no AMD or Intel GPU (a missing one is a usage error)
nosys=$tmp/nosys
mkdir "$nosys"
# shellcheck source=tests/terminal/tmux_lib.sh
. "$(dirname "$0")/tmux_lib.sh"
# The marker argument every gputop of this test carries, as a pattern that
# cannot match another test's (9$$ is a prefix of 9$$7).
mark="seed 9$$"'([ ;]|$)'
trap 't kill-server 2>/dev/null; pkill -KILL -f "$mark" 2>/dev/null; [ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"' EXIT
t new-session -d -s keep "sleep 900"
fail() { echo "FAIL: $*"; ps -eo pid,ppid,stat,etime,comm,args | grep -E "gputop|PID" | grep -v grep | cut -c1-150; printf '%s\n' "---- screen:" "$screen" "---- setter log:"; cat "$log" 2>/dev/null; failures=$((failures + 1)); }
wait_log() { # regex [tries of 50 ms]
	for _ in $(seq 1 "${2:-200}"); do
		grep -Eq -- "$1" "$log" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}
# The file holds exactly this text.
file_is() { [ "$(cat "$1" 2>/dev/null)" = "$2" ]; }

# start NAME SCENARIO [extra args...]: the dashboard in session "dash" with
# its own state directory and setter log. The marker argument lets the
# trap find every gputop this test started.
start() {
	local name=$1 scn=$2
	shift 2
	state="$tmp/$name-state"
	log="$tmp/$name.log"
	exit_file="$tmp/$name.exit"
	mkdir -p "$state"
	: >"$log"
	rm -f "$exit_file"
	t kill-session -t dash 2>/dev/null
	t new-session -d -x 120 -y 40 -s dash \
		"env LANG=C.UTF-8 XDG_CONFIG_HOME=$tmp/cfg GPUTOP_FAKE_NVML_SCENARIO=$scn GPUTOP_FAKE_NVML_LOG=$log $bin --nvml-lib $lib --procfs $fix/proc --sysfs ${SYSFS:-$nosys} --state-dir $state --interval 0.5 $* --seed 9$$; r=\$?; echo \$r >$exit_file; echo EXITED \$r; sleep 60"
	wait_for "\[0\]" || fail "$name: dashboard did not start"
}
# Live (not zombie: an orphan may wait long for a reaper in a container)
# processes named $1 among the pids on stdin.
live_named() { while read -r p; do
	[ "$(cat /proc/"$p"/comm 2>/dev/null)" = "$1" ] &&
		[ "$(awk '{print $3}' /proc/"$p"/stat 2>/dev/null)" != Z ] && echo "$p"
done | head -1; }
gputop_pid() { pgrep -f "$mark" | live_named gputop; }
# Waits for the dashboard started last to end. Not read from the screen:
# a gputop killed in the middle of an escape sequence leaves the terminal
# parsing it, and the shell's "EXITED" can be eaten by it ("XITED 137").
wait_exit() { for _ in $(seq 1 200); do
	[ -s "$exit_file" ] && return 0
	sleep 0.05
done
return 1; }
# The guardian of this test's gputop (not another test's running beside).
guard_pid() { local p
	p=$(gputop_pid)
	[ -n "$p" ] && pgrep -x -P "$p" gputop-guard | live_named gputop-guard; }
alive() { [ -n "$1" ] && [ -e "/proc/$1" ] &&
	[ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != Z ]; }

rtx="$scn_dir/rtx4090.scn"

# 1. Power limit: exactly one setter call, kept, restored on quit.
start power "$rtx"
keys p
wait_for "Power limit +< 450 W >" || fail "power dialog did not open"
keys Down
for _ in $(seq 10); do keys Left; done
wait_for "Power limit +< 400 W >" || fail "Left did not lower the limit"
keys Enter
wait_for "nvmlDeviceSetPowerManagementLimit_v2\(0000:01:00.0, 400000 mW\)" &&
	pass "power: the preview names the exact NVML call" ||
	fail "power: no preview"
[ ! -s "$log" ] && pass "power: nothing written before confirmation" ||
	fail "power: a write before confirmation"
keys y
wait_for "Reverting in [0-9]+ s" || fail "power: no countdown"
wait_for "asked 400000 mW; device reports 400000 mW" &&
	pass "power: read back what the device applied" || fail "power: no read-back"
keys k
wait_for "kept" || fail "power: k did not keep"
[ "$(grep -c 'SetPowerManagementLimit' "$log")" = 1 ] &&
	grep -q "nvmlDeviceSetPowerManagementLimit_v2 dev=0 scope=0 limit=400000 -> 0" "$log" &&
	pass "power: exactly one call, the asked limit" || fail "power: calls"
keys Escape q
wait_for "EXITED 0" || fail "power: quit"
tail -1 "$log" | grep -q "limit=450000 -> 0" &&
	pass "quit restores the original limit" || fail "quit did not restore"
[ ! -e "$state/restore.state" ] && pass "quit removes the state file" ||
	fail "state file left after a clean restore"
grep -q 'write 0000:01:00.0 power-limit-mw old="450000" new="400000" ok' "$state/audit.log" &&
	grep -q 'restore 0000:01:00.0 power-limit-mw .*new="450000" ok' "$state/audit.log" &&
	pass "audit log has the write and the restore" || fail "audit log: $(cat "$state/audit.log")"

# 2. Not kept: reverts by itself after 10 s.
start revert "$rtx"
keys p 3 Enter y
wait_for "Reverting in" || fail "revert: not applied"
wait_for "not kept within 10 s: reverted" 280 &&
	pass "an unconfirmed change reverts after the countdown" ||
	fail "no revert after the countdown"
# The change's read-back is stale now: the revert's own is shown.
wait_for "put back 450000 mW; device reports 450000 mW" && ! grep -q "asked 315000" <<<"$screen" &&
	pass "after the revert the dialog shows the revert's read-back, not the stale one" ||
	fail "revert: the dialog still shows the change's read-back"
grep -q "limit=315000 -> 0" "$log" && tail -1 "$log" | grep -q "limit=450000 -> 0" &&
	pass "revert: the old limit was written back" || fail "revert: calls"
[ ! -e "$state/restore.state" ] && ! grep -q " restore " "$state/audit.log" &&
	pass "revert: the original is back, so no state file stays" ||
	fail "revert: state file or restore left: $(cat "$state/restore.state" "$state/audit.log" 2>&1)"
# Kept this time, then Ctrl-C (SIGINT) ends gputop, which restores.
keys Escape p 1 Enter y k
wait_log "limit=600000 -> 0" || fail "revert: no second change"
t send-keys -t dash C-c
wait_for "EXITED 0" || fail "revert: Ctrl-C did not end it"
tail -1 "$log" | grep -q "limit=450000 -> 0" && pass "Ctrl-C (SIGINT) restores" ||
	fail "SIGINT did not restore"
# Reverted, then quit: the limit is in place already, so quit writes nothing.
start revertquit "$rtx"
keys p 3 Enter y
wait_for "not kept within 10 s: reverted" 280 || fail "revert+quit: no revert"
keys Escape q
wait_for "EXITED 0" || fail "revert+quit: q did not end it"
[ "$(grep -c "SetPowerManagementLimit" "$log")" = 2 ] &&
	pass "after a revert, quitting writes nothing again" ||
	fail "revert+quit: calls: $(cat "$log")"

# 3. Fan curve on both fans of the GeForce; SIGTERM hands them back.
start fan "$rtx"
keys f
wait_for "Mode +< Curve >" || fail "fan dialog did not open"
wait_for "device speed range 30-100" && pass "fan: the device's range is shown" ||
	fail "fan: no range"
keys Enter
wait_for "nvmlDeviceSetFanSpeed_v2\(0000:01:00.0, fan 1, curve %\)" &&
	pass "fan: preview of the loop's calls" || fail "fan: preview"
keys y
wait_for "curve running" || fail "fan: not running"
keys k
wait_log "SetFanSpeed_v2 dev=0 fan=0 speed=[0-9]+ -> 0" &&
	wait_log "SetFanSpeed_v2 dev=0 fan=1 speed=[0-9]+ -> 0" &&
	pass "fan: both fans driven by the curve" || fail "fan: no speeds written"
speeds=$(grep -c "SetFanSpeed_v2" "$log")
sleep 2
[ "$(grep -c "SetFanSpeed_v2" "$log")" -le $((speeds + 2)) ] &&
	pass "fan: the loop writes only when the speed changes" ||
	fail "fan: writes every tick"
kill -TERM "$(gputop_pid)"
wait_for "EXITED" || fail "fan: SIGTERM did not end it"
wait_log "SetDefaultFanSpeed_v2 dev=0 fan=0 -> 0" &&
	wait_log "SetDefaultFanSpeed_v2 dev=0 fan=1 -> 0" &&
	pass "SIGTERM hands both fans back to automatic" || fail "SIGTERM restore"
# The loop's writes are summarised: each fan's first write, then one line
# when its loop ends, never a line a step.
grep -q "fan-loop 0000:01:00.0 fan0-speed ended" "$state/audit.log" &&
	grep -q "fan-loop 0000:01:00.0 fan1-speed ended" "$state/audit.log" &&
	[ "$(grep -c " write 0000:01:00.0 fan[01]-speed" "$state/audit.log")" = 2 ] &&
	pass "fan: the loop's writes are one line each at its start and end" ||
	fail "fan: audit: $(cat "$state/audit.log")"

# 4. SIGKILL: the guardian restores.
start kill "$rtx"
keys f Enter y k
wait_log "SetFanSpeed_v2 dev=0 fan=1" || fail "kill: no curve"
keys Escape p 1 Enter y k
wait_log "limit=600000 -> 0" || fail "kill: no power change"
g=$(guard_pid)
[ -n "$g" ] && pass "a guardian runs once control is taken" || fail "no guardian"
kill -KILL "$(gputop_pid)"
wait_log "SetDefaultFanSpeed_v2 dev=0 fan=1 -> 0" &&
	wait_log "limit=450000 -> 0" &&
	pass "SIGKILL: the guardian restored fans and the power limit" ||
	fail "SIGKILL: no restore by the guardian"
for _ in $(seq 100); do alive "$g" || break; sleep 0.05; done
! alive "$g" && pass "the guardian leaves after restoring" ||
	fail "guardian still running"

# 5. SIGSTOP (a hung gputop): the guardian restores after 5 s.
start stop "$rtx"
keys f Enter y k
wait_log "SetFanSpeed_v2 dev=0 fan=0" || fail "stop: no curve"
p=$(gputop_pid)
kill -STOP "$p"
stopped=$(date +%s)
wait_log "SetDefaultFanSpeed_v2 dev=0 fan=0 -> 0" 400 &&
	pass "a stopped gputop is noticed: fans back to automatic" ||
	fail "SIGSTOP: no restore"
took=$(($(date +%s) - stopped))
[ "$took" -ge 4 ] && pass "... after the 5 s heartbeat timeout ($took s)" ||
	fail "restored too early ($took s)"
kill -CONT "$p"
wait_for "guardian restored" && pass "gputop says the guardian restored" ||
	fail "no notice after SIGCONT"
keys Escape q
wait_for "EXITED" || fail "stop: quit"

# 6. Both killed: the state file is offered at the next start, and
# --restore performs it.
start both "$rtx"
keys p 1 Enter y k
wait_log "limit=600000 -> 0" || fail "both: no change"
g=$(guard_pid)
p=$(gputop_pid)
[ -n "$g" ] && [ -n "$p" ] || fail "both: guardian '$g' or gputop '$p' not found"
kill -KILL "$g"
kill -KILL "$p"
wait_exit || fail "both: not dead"
[ -s "$state/restore.state" ] && pass "the state file survives both deaths" ||
	fail "no state file"
start both "$rtx"
wait_for "Settings left changed" && wait_for "restore the original values" &&
	pass "the next start offers the restore" || fail "no restore offer"
keys Escape q
wait_for "EXITED 0" || fail "both: quit"
[ -s "$state/restore.state" ] && pass "declining keeps the state file" ||
	fail "declining lost the state file"
: >"$log"
out=$(env GPUTOP_FAKE_NVML_SCENARIO="$rtx" GPUTOP_FAKE_NVML_LOG="$log" \
	"$bin" --nvml-lib "$lib" --state-dir "$state" --restore 2>&1)
rc=$?
[ $rc = 0 ] && grep -q "limit=450000 -> 0" "$log" && [ ! -e "$state/restore.state" ] &&
	pass "--restore puts the original back and removes the state file" ||
	fail "--restore: rc=$rc: $out"
out=$("$bin" --nvml-lib "$lib" --state-dir "$state" --restore 2>&1)
grep -q "nothing to restore" <<<"$out" && pass "--restore with nothing to do says so" ||
	fail "--restore twice: $out"

# 7. Datacenter card without fans: the fan dialog says why.
start nofan "$scn_dir/h100x8.scn"
keys f
wait_for "no fan|fans" && grep -Eiq "no (controllable )?fan" <<<"$screen" &&
	pass "fan dialog on a fanless card says why" || fail "fanless card"
keys Escape q

# 8. Unprivileged: read-only dialogs, no write attempted.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	chmod -R a+rX "$tmp"
	log="$tmp/user.log"
	: >"$log"
	chmod 666 "$log"
	t kill-session -t dash 2>/dev/null
	t new-session -d -x 120 -y 40 -s dash \
		"setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=$tmp LANG=C.UTF-8 GPUTOP_FAKE_NVML_SCENARIO=$rtx GPUTOP_FAKE_NVML_LOG=$log $bin --nvml-lib $lib --sysfs $nosys --state-dir $tmp/user-state; echo EXITED \$?; sleep 60"
	wait_for "\[0\]" || fail "user: did not start"
	keys p
	wait_for "read-only: .*root" && pass "unprivileged: the dialog is read-only and says why" ||
		fail "user: no read-only reason"
	keys 1 Enter y
	# Judged once gputop has quit: every key before q has been acted on,
	# so a write they caused would be in the log by then.
	keys Escape q
	wait_for "EXITED" || fail "user: did not quit"
	[ ! -s "$log" ] && pass "unprivileged: no write attempted" || fail "user: a setter was called"
else
	echo "SKIP: unprivileged dialog (needs root and setpriv to switch user)"
fi

# 9. AMD Polaris (pwm): the power cap and the software fan loop write the
# hwmon files, and quitting puts them back.
amd="$tmp/rx580"
cp -r "$fix/amdgpu/rx580" "$amd"
hw="$amd/class/drm/card0/device/hwmon/hwmon4"
echo 2 >"$hw/pwm1_enable"
SYSFS=$amd start amd "$rtx"
keys Tab
wait_for "\[1\].*(Radeon|RX|Polaris|Ellesmere)" || true
keys p
wait_for "Power limit +< 155 W >" || fail "amd: power dialog"
keys Down Down Down Left Enter
wait_for "hwmon4/power1_cap <- 150000000" && pass "amd: preview names the hwmon file" ||
	fail "amd: preview"
keys y k
eventually 100 file_is "$hw/power1_cap" 150000000 && pass "amd: power1_cap written" ||
	fail "amd: power1_cap is $(cat "$hw/power1_cap")"
keys Escape p Down Right Right Enter # performance level: auto -> high
wait_for "device/power_dpm_force_performance_level <- high" &&
	pass "amd: preview of the performance level" || fail "amd: level preview"
keys y k
eventually 100 file_is "$amd/class/drm/card0/device/power_dpm_force_performance_level" high &&
	pass "amd: performance level written" || fail "amd: level not written"
keys Escape f Enter
wait_for "hwmon4/pwm1_enable <- 1" || fail "amd: fan preview"
keys y k
# The card reads 44 °C: above the balanced curve's first point (40 °C), so
# the loop takes the fan: manual mode, and pwm1 at the curve's speed. The
# loop runs at the sampling cadence: wait for its first pass.
eventually 200 file_is "$hw/pwm1_enable" 1
eventually 100 grep -q "write .*pwm1_enable old=\"2\" new=\"1\" ok" "$state/audit.log"
pwm=$(cat "$hw/pwm1")
[ "$(cat "$hw/pwm1_enable")" = 1 ] && [ "$pwm" != 35 ] &&
	grep -q "write .*pwm1_enable old=\"2\" new=\"1\" ok" "$state/audit.log" &&
	pass "amd: the fan loop took the fan (pwm1_enable=1, pwm1=$pwm)" ||
	fail "amd: pwm1_enable=$(cat "$hw/pwm1_enable") pwm1=$pwm: $(cat "$state/audit.log")"
keys Escape q
wait_for "EXITED 0" || fail "amd: quit"
[ "$(cat "$hw/power1_cap")" = 155000000 ] && [ "$(cat "$hw/pwm1_enable")" = 2 ] &&
	[ "$(cat "$amd/class/drm/card0/device/power_dpm_force_performance_level")" = auto ] &&
	pass "amd: quitting restored power1_cap, pwm1_enable and the level" ||
	fail "amd: after quit power1_cap=$(cat "$hw/power1_cap") pwm1_enable=$(cat "$hw/pwm1_enable")"

# 11. AMD RDNA4 (no pwm1_enable): the fan dialog offers the firmware curve
# and previews its five point writes and the commit.
amd="$tmp/rx9070"
cp -r "$fix/amdgpu/rx9070" "$amd"
SYSFS=$amd start rdna4 "$rtx"
keys Tab f
wait_for "firmware curve: keeps working after gputop exits" &&
	pass "rdna4: the fan dialog uses the firmware curve" || fail "rdna4: fan dialog"
wait_for "Point +< 1 of 5: 40°C 25% >" &&
	pass "rdna4: the dialog starts from the card's own curve" || fail "rdna4: points"
keys Down Right Enter # preset: balanced
wait_for "fan_ctrl/fan_curve <- 0 40 30" && wait_for "fan_ctrl/fan_curve <- 4 80 100" &&
	wait_for "fan_ctrl/fan_curve <- c" &&
	pass "rdna4: preview of the five points and the commit" || fail "rdna4: preview"
keys Escape Escape p
wait_for "Power profile +<" && pass "rdna4: the power dialog offers the card's power profiles" ||
	fail "rdna4: no power profiles"
keys Escape q
wait_for "EXITED 0" || fail "rdna4: quit"
cmp -s "$amd/class/drm/card1/device/gpu_od/fan_ctrl/fan_curve" \
	"$fix/amdgpu/rx9070/class/drm/card1/device/gpu_od/fan_ctrl/fan_curve" &&
	pass "rdna4: looking writes nothing" || fail "rdna4: fan_curve changed"

# 12. Panic rule: at the slowdown threshold (85 °C on this card) a running
# curve hands the fans back at once, and says so.
sed -e 's/^temp ramp 45 68 60$/temp 95/' \
	-e 's/^temp.margin ramp 38 15 60 .*/temp.margin -12/' "$rtx" >"$tmp/hot.scn"
grep -q "^temp 95$" "$tmp/hot.scn" && grep -q "^temp.margin -12$" "$tmp/hot.scn" ||
	fail "hot.scn: temperature lines not replaced"
start hot "$tmp/hot.scn"
keys C f # in Fahrenheit, as the dashboard shows temperatures then
wait_for "at 185°F \(slowdown\)" && wait_for "Point +< 1 of 5: 104°F 30% >" &&
	pass "panic: the dialog names the slowdown threshold (in the user's unit)" ||
	fail "panic: threshold not shown"
keys Enter y
wait_for "temperature at the slowdown threshold|panic_threshold" &&
	pass "panic: at 95 °C the curve hands the fans to the firmware" ||
	fail "panic: no hand-back"
grep -q "SetFanSpeed_v2" "$log" && fail "panic: a fan speed was set at 95 °C" ||
	pass "panic: no manual speed was written"
wait_log "SetDefaultFanSpeed_v2 dev=0 fan=0 -> 0" || fail "panic: fan 0 not automatic"
keys k Escape q
wait_for "EXITED 0" || fail "hot: quit"

# 13. A fatal signal: the dashboard dies, the guardian restores.
start segv "$rtx"
keys p 1 Enter y k
wait_log "limit=600000 -> 0" || fail "segv: no change"
kill -SEGV "$(gputop_pid)"
wait_for "EXITED" || fail "segv: still running"
wait_log "limit=450000 -> 0" && pass "a crash (SIGSEGV): the guardian restored the limit" ||
	fail "segv: no restore"

# 14. Intel (i915, Arc A770): Power saver lowers power1_max and the GT's
# maximum frequency, exactly as previewed; quitting puts both back.
intel="$tmp/i915"
cp -r "$fix/intel/i915-dg2" "$intel"
card="$intel/class/drm/card0"
max_before=$(cat "$card/gt/gt0/rps_max_freq_mhz")
pl_before=$(cat "$card/device/hwmon/hwmon2/power1_max")
SYSFS=$intel start intel "$rtx" --nvml-lib /nonexistent
keys p
wait_for "Min frequency +< 300 MHz >" && pass "intel: the power dialog offers the frequency limits" ||
	fail "intel: power dialog"
keys 3 Enter
wait_for "hwmon2/power1_max <- 157500000" && wait_for "gt/gt0/rps_max_freq_mhz <- 1350" &&
	pass "intel: preview of power1_max and rps_max_freq_mhz" || fail "intel: preview"
keys y k
eventually 100 file_is "$card/device/hwmon/hwmon2/power1_max" 157500000 &&
	eventually 100 file_is "$card/gt/gt0/rps_max_freq_mhz" 1350 &&
	pass "intel: both files written" || fail "intel: files not written"
kill -HUP "$(gputop_pid)" # the terminal went away
wait_for "EXITED" || fail "intel: SIGHUP did not end it"
[ "$(cat "$card/device/hwmon/hwmon2/power1_max")" = "$pl_before" ] &&
	[ "$(cat "$card/gt/gt0/rps_max_freq_mhz")" = "$max_before" ] &&
	pass "intel: SIGHUP restored both" || fail "intel: not restored"

# 15. The driver refuses (fake NVML's unprivileged scenario answers
# NO_PERMISSION although gputop runs as root): the failure is shown with
# NVML's reason, and nothing is left to restore.
start denied "$scn_dir/unprivileged.scn"
keys p 1 Enter y
wait_for "FAILED: .*(ermission|NO_PERMISSION)" &&
	pass "a setter the driver refuses is reported with its reason" ||
	fail "denied: no failure shown"
grep -q "SetPowerManagementLimit.* -> 4" "$log" && ! grep -q -- "-> 0" "$log" &&
	pass "denied: one refused call, no successful write" || fail "denied: calls"
keys Escape q
wait_for "EXITED 0" || fail "denied: quit"

# 10. Profiles without the dashboard: --apply keeps a power change, a
# software fan curve needs --daemon, and the daemon restores on SIGTERM.
mkdir -p "$tmp/cfg/gputop"
printf '%s\n' "[profile lower]" "gpu = 0000:01:00.0" "power_limit = 300W" "" \
	"[profile night]" "gpu = *" "power_limit = 350W" "fan = quiet" \
	>"$tmp/cfg/gputop/gputop.conf"
state="$tmp/headless-state"
log="$tmp/headless.log"
: >"$log"
hl() { exec env XDG_CONFIG_HOME="$tmp/cfg" GPUTOP_FAKE_NVML_SCENARIO="$rtx" \
	GPUTOP_FAKE_NVML_LOG="$log" "$bin" --nvml-lib "$lib" --sysfs "$nosys" \
	--procfs "$fix/proc" --state-dir "$state" --interval 0.2 --seed 9$$ "$@"; }
out=$(hl --apply nope 2>&1)
[ $? = 1 ] && grep -q "no profile 'nope'; profiles in .*gputop.conf: lower, night" <<<"$out" &&
	pass "--apply of an unknown profile names the ones there are" || fail "--apply nope: $out"
out=$(hl --apply lower 2>&1)
rc=$?
[ $rc = 0 ] && [ "$(cat "$log")" = "nvmlDeviceSetPowerManagementLimit_v2 dev=0 scope=0 limit=300000 -> 0" ] &&
	[ ! -e "$state/restore.state" ] &&
	pass "--apply: exactly the profile's write, kept (no state file)" ||
	fail "--apply lower: rc=$rc: $out"
: >"$log"
out=$(hl --apply night 2>&1)
[ $? = 1 ] && grep -q "add --daemon" <<<"$out" && [ ! -s "$log" ] &&
	pass "a software fan curve without --daemon is refused before any write" ||
	fail "--apply night: $out"
hl --apply night --daemon >"$tmp/daemon.out" 2>&1 &
daemon=$!
wait_log "SetDefaultFanSpeed_v2 dev=0 fan=1|SetFanSpeed_v2 dev=0 fan=1" &&
	grep -q "limit=350000 -> 0" "$log" &&
	pass "--daemon: power limit set and the fan loop running" ||
	fail "--daemon: $(cat "$tmp/daemon.out")"
[ -s "$state/restore.state" ] && pass "--daemon: originals saved in the state file" ||
	fail "--daemon: no state file"
kill -TERM $daemon
wait $daemon
rc=$?
# (The fake's state is per process: this daemon found the scenario's 450 W.)
[ $rc = 0 ] && tail -1 "$log" | grep -q "limit=450000 -> 0" &&
	grep -q "SetDefaultFanSpeed_v2 dev=0 fan=0 -> 0" "$log" && [ ! -e "$state/restore.state" ] &&
	pass "--daemon: SIGTERM restores the fans and the limit it found" ||
	fail "--daemon SIGTERM: rc=$rc: $(cat "$tmp/daemon.out")"

# 11. A write the driver refuses (root, but NVML says NO_PERMISSION) is no
# change: nothing journaled, no state file, nothing to restore, one audit
# line, and the guardian logs a normal exit.
state="$tmp/refused-state"
: >"$log"
out=$(rtx=$scn_dir/unprivileged.scn; exec env XDG_CONFIG_HOME="$tmp/cfg" \
	GPUTOP_FAKE_NVML_SCENARIO="$rtx" GPUTOP_FAKE_NVML_LOG="$log" "$bin" --nvml-lib "$lib" \
	--sysfs "$nosys" --procfs "$fix/proc" --state-dir "$state" --apply night --daemon 2>&1)
rc=$?
[ $rc = 1 ] && grep -q "refuses it even to root" <<<"$out" && grep -q "nothing was changed" <<<"$out" &&
	! grep -q "restor" <<<"$out" && [ ! -e "$state/restore.state" ] &&
	[ "$(grep -c . "$log")" = 1 ] && grep -q -- "limit=350000 -> 4" "$log" &&
	pass "a refused write leaves no state file and nothing to restore" ||
	fail "refused write: rc=$rc: $out; calls: $(cat "$log"); $(ls "$state" 2>&1)"
out=$(exec "$bin" --state-dir "$state" --restore 2>&1)
rc=$?
[ $rc = 0 ] && grep -q "nothing to restore" <<<"$out" &&
	pass "after a refused write --restore has nothing to do (status 0)" ||
	fail "--restore after a refusal: rc=$rc: $out"
[ "$(grep -c "write .*power-limit-mw" "$state/audit.log" 2>/dev/null)" = 1 ] &&
	! grep -q "restore" "$state/audit.log" &&
	grep -q "gputop exited normally" "$state/guardian.log" && ! grep -q "died" "$state/guardian.log" &&
	pass "the refusal is one audit line, and the guardian logs a normal exit" ||
	fail "audit/guardian: $(cat "$state/audit.log" "$state/guardian.log" 2>&1)"

# 12. The refusal in the dialog wraps inside the box, whole, at 120 and
# at 80 columns.
for cols in 120 80; do
	state="$tmp/wrap$cols-state"
	log="$tmp/wrap$cols.log"
	exit_file="$tmp/wrap$cols.exit"
	mkdir -p "$state"
	: >"$log"
	t kill-session -t dash 2>/dev/null
	t new-session -d -x $cols -y 40 -s dash \
		"env LANG=C.UTF-8 XDG_CONFIG_HOME=$tmp/cfg GPUTOP_FAKE_NVML_SCENARIO=$scn_dir/unprivileged.scn GPUTOP_FAKE_NVML_LOG=$log $bin --nvml-lib $lib --procfs $fix/proc --sysfs $nosys --state-dir $state --interval 0.5 --seed 9$$; echo \$? >$exit_file; sleep 60"
	wait_for "\[0\]" || fail "wrap $cols: dashboard did not start"
	keys p 3 Enter y
	wait_for "not applied" && wait_for "Enter/Esc close"
	# The text between the screen's box sides that starts one space in
	# (the dialog's rows), joined: the whole message, up to its last word.
	joined=$(sed 's/│/\n/g' <<<"$screen" | grep '^ [^ ]' | tr '\n' ' ' | tr -s ' ')
	if grep -q "FAILED: NVML refused the power limit: .* policy does not allow the change)" <<<"$joined"; then
		pass "$cols columns: the refusal wraps whole inside the dialog"
	else
		fail "$cols columns: the refusal is cut"
	fi
	keys Escape q
	wait_exit || fail "wrap $cols: q did not end it"
done

echo "control.sh: $failures failure(s)"
[ "$failures" -eq 0 ]

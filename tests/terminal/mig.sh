#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# MIG on the dashboard (tmux): against the fake NVML's A100 with three MIG
# instances of different profiles, the panel's border carries a MIG badge
# and the panel one row per instance with the scenario's memory figures,
# process counts and why its utilization is N/A; the processes the driver
# names (pids /proc cannot see) show its names, marked as the driver's; a
# GPU without MIG has neither badge nor rows; LANG=C draws the rows in
# ASCII. Also: `e` names a key that several values share (each fan's
# fans.rpm) once.
set -u
here=$(dirname "$0")
# shellcheck source=tests/terminal/tmux_lib.sh
. "$here/tmux_lib.sh"
tmux_begin mig

start() { # scenario cols rows [env...]
	local scn=$scn_dir/$1 cols=$2 rows=$3
	shift 3
	t kill-session -t dash 2>/dev/null
	t new-session -d -x "$cols" -y "$rows" -s dash \
		"env $* XDG_STATE_HOME=$state XDG_CONFIG_HOME=$state GPUTOP_FAKE_NVML_SCENARIO=$scn $bin --nvml-lib $lib --sysfs $nosys --interval 0.5; echo EXITED \$?; sleep 60"
}

start a100-mig.scn 120 40 LANG=C.UTF-8
if wait_for "MIG 1g\.5gb"; then
	pass "the instance rows are drawn"
else
	fail "no MIG instance rows"
fi
grep -Eq -- "─ MIG 3 ─" <<<"$screen" && pass "MIG badge counts 3 instances" ||
	fail "no 'MIG 3' badge in the panel's border"
# One row per instance, in the scenario's order, with its memory
# (8211/19968, 4115/9856, 13/4864 MiB) and processes (1, 2, 0).
want=("MIG 3g\.20gb GI 1/CI 0 .* 8\.0/19\.5 GiB +1 proc +GPU% N/A"
	"MIG 2g\.10gb GI 5/CI 0 .* 4\.0/9\.6 GiB +2 procs +GPU% N/A"
	"MIG 1g\.5gb GI 13/CI 0 .* 0\.0/4\.8 GiB +0 procs +GPU% N/A")
rows=$(grep -E "MIG [0-9]g\." <<<"$screen")
ok=1
for i in 0 1 2; do
	line=$(sed -n "$((i + 1))p" <<<"$rows")
	grep -Eq -- "${want[$i]}" <<<"$line" || { ok=0; echo "row $i: '$line'"; }
done
[ "$ok" = 1 ] && pass "three rows with the scenario's memory and processes" ||
	fail "instance rows differ from the scenario"
grep -q "not supported by this device" <<<"$rows" &&
	pass "each row says why its GPU% is N/A" || fail "no reason for the N/A"
wait_for "6200 .*ollama \(driver\)" &&
	pass "the driver's process name is shown, marked" ||
	fail "pid 6200 without the driver's name"

start a100-mig.scn 120 40 LANG=C
if wait_for "MIG 3g\.20gb GI 1/CI 0 #"; then
	pass "LANG=C: rows drawn with ASCII bars"
else
	fail "LANG=C: no ASCII instance row"
fi

start h100x1.scn 120 40 LANG=C.UTF-8
wait_for "\[0\]" || fail "h100x1 not shown"
if wait_settled && ! grep -Eq "MIG [0-9]|MIG [0-9]g\." <<<"$screen"; then
	pass "no badge and no rows without MIG"
else
	fail "MIG shown on a GPU without it"
fi

t send-keys -t dash q
wait_for "EXITED 0" && pass "q quits" || fail "did not quit cleanly"

# Two fans whose speed in RPM the driver refuses: one "fans.rpm".
printf 'include %s\ndevice 0\nfan_rpm.0 NOT_SUPPORTED\nfan_rpm.1 NOT_SUPPORTED\n' \
	"$scn_dir/rtx4090.scn" >"$state/fans.scn"
t kill-session -t dash 2>/dev/null
t new-session -d -x 120 -y 40 -s dash \
	"env LANG=C.UTF-8 XDG_STATE_HOME=$state XDG_CONFIG_HOME=$state GPUTOP_FAKE_NVML_SCENARIO=$state/fans.scn $bin --nvml-lib $lib --sysfs $nosys --interval 0.5; echo EXITED \$?; sleep 60"
wait_for "\[0\]" || fail "rtx4090 copy not shown"
t send-keys -t dash e
if wait_for "fans\.rpm" && grep -q "fans\.rpm" <<<"$screen" &&
	! grep -q "fans\.rpm, fans\.rpm" <<<"$screen"; then
	pass "e lists fans.rpm once for two fans"
else
	fail "e: fans.rpm missing or repeated"
fi
[ "$failures" -eq 0 ]

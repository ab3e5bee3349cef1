#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# SIGTERM, SIGINT and SIGHUP end gputop within 1 s whatever it is doing:
# loading a gputop.conf of 60,000 [profile] headers (under the 1 MiB cap),
# scanning a /proc tree of 10,000 processes, running on --procfs and
# --sysfs trees with a FIFO where a file should be, and waiting on a
# driver call that takes 8 s. Each signal is sent to --apply --daemon
# (status 0, its change restored), to --snapshot (no output, status
# 128+N) and to the dashboard in tmux (status 0).
. "$(dirname "$0")/signal_lib.sh"
export GPUTOP_FAKE_NVML_SCENARIO=$scn_dir/rtx4090.scn

# ---- the trees ----------------------------------------------------------
# 60,000 profile headers (only the first 256 are kept) and one that applies.
mkdir -p "$tmp/cfg/gputop"
{
	printf '[profile lower]\ngpu = 0000:01:00.0\npower_limit = 300W\n'
	seq 0 59999 | sed 's/.*/[profile p&]/'
} >"$tmp/cfg/gputop/gputop.conf"
size=$(stat -c %s "$tmp/cfg/gputop/gputop.conf")
[ "$size" -lt 1048576 ] || fail "the profile file is $size bytes, over the 1 MiB cap"

# 10,000 processes (beside the fixtures'), each with three descriptors.
cp -r "$fix/proc" "$tmp/big"
python3 - "$tmp/big" 10000 <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
stat = open(os.path.join(root, "6300", "stat")).read()
status = open(os.path.join(root, "6300", "status")).read()
for i in range(n):
    pid = 100000 + i
    d = os.path.join(root, str(pid))
    os.makedirs(os.path.join(d, "fd"))
    os.makedirs(os.path.join(d, "fdinfo"))
    for name, text in (("stat", stat.replace("6300 (blender)", "%d (w%d)" % (pid, i), 1)),
                       ("status", status.replace("6300", str(pid))),
                       ("comm", "w%d\n" % i), ("cmdline", "worker\0%d\0" % i)):
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
    for fd in range(3):
        os.symlink("/dev/null", os.path.join(d, "fd", str(fd)))
        with open(os.path.join(d, "fdinfo", str(fd)), "w") as f:
            f.write("pos:\t0\nflags:\t02\nmnt_id:\t1\n")
PY
# FIFOs where a listed process's files and an AMD card's files should be.
cp -r "$fix/proc" "$tmp/fifoproc"
for leaf in cmdline status stat comm cgroup; do
	rm -f "$tmp/fifoproc/4100/$leaf" && mkfifo "$tmp/fifoproc/4100/$leaf"
done
cp -r "$fix/amdgpu/rx7900xtx" "$tmp/fifosys"
dev=$tmp/fifosys/class/drm/card0/device
for f in gpu_metrics pp_dpm_sclk power_dpm_force_performance_level; do
	rm -f "$dev/$f" && mkfifo "$dev/$f"
done
for f in "$dev"/hwmon/hwmon*/temp1_input "$dev"/hwmon/hwmon*/power1_cap; do
	[ -e "$f" ] && rm -f "$f" && mkfifo "$f"
done

# ---- the check ----------------------------------------------------------
# Whether pid $1 catches signal $2 (its handler is installed).
catches() {
	local mask num
	mask=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null) || return 1
	[ -n "$mask" ] || return 1
	num=$(kill -l "$2")
	(((0x$mask >> (num - 1)) & 1))
}
# Running, not a zombie waiting to be reaped.
alive() { kill -0 "$1" 2>/dev/null && [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != Z ]; }
# stop_check LABEL SIG DELAY_S EXPECTED_RC -- gputop args...: starts gputop,
# waits until it catches SIG and then DELAY_S more, sends SIG and wants it
# gone within 1 s with EXPECTED_RC ("out" in its name: no stdout either).
stop_check() {
	local label=$1 sig=$2 delay=$3 want=$4 p t0 ms rc
	shift 5
	: >"$tmp/setter.log"
	env XDG_CONFIG_HOME="$tmp/cfg" GPUTOP_FAKE_NVML_LOG="$tmp/setter.log" "$bin" --nvml-lib "$lib" \
		--state-dir "$tmp/state" "$@" >"$tmp/out" 2>"$tmp/err" &
	p=$!
	pids+=("$p")
	for _ in $(seq 1 200); do
		catches "$p" "$sig" && break
		sleep 0.01
	done
	# A daemon that must end with 0 is stopped while running: after its
	# write (before it, a stop ends it at once with 128+N).
	if [ "$want" = 0 ]; then
		for _ in $(seq 1 1000); do
			grep -q "limit=300000" "$tmp/setter.log" && break
			sleep 0.01
		done
	fi
	sleep "$delay"
	if ! kill -0 "$p" 2>/dev/null; then
		wait "$p"
		fail "$label SIG$sig: gputop ended (status $?) before the signal: $(head -c 300 "$tmp/err")"
		return
	fi
	t0=$(now_ms)
	kill -"$sig" "$p"
	for _ in $(seq 1 300); do
		alive "$p" || break
		sleep 0.01
	done
	ms=$(($(now_ms) - t0))
	if alive "$p"; then
		kill -KILL "$p"
		wait "$p" 2>/dev/null
		fail "$label SIG$sig: still running $ms ms after the signal"
		return
	fi
	wait "$p"
	rc=$?
	if [ "$ms" -gt 1000 ]; then
		fail "$label SIG$sig: ended after $ms ms (over 1 s)"
	elif ! [[ $rc =~ ^($want)$ ]]; then
		fail "$label SIG$sig: status $rc, not $want: $(head -c 300 "$tmp/err")"
	elif [[ $label == *snapshot* ]] && [ -s "$tmp/out" ]; then
		fail "$label SIG$sig: a stopped snapshot still printed $(wc -c <"$tmp/out") bytes"
	elif [ -e "$tmp/state/restore.state" ]; then
		fail "$label SIG$sig: restore.state left behind: $(cat "$tmp/err")"
	else
		pass "$label: SIG$sig ended it in $ms ms, status $rc"
	fi
}

daemon=(--apply lower --daemon --interval 0.2)
for sig in TERM INT HUP; do
	num=$(kill -l $sig)
	# Loading: the signal as soon as it is caught, while the profile is
	# read or just after: before the first write gputop ends at once with
	# 128+N; once it wrote, with 0 after restoring (no state file left).
	stop_check "profile load (--daemon)" $sig 0 "0|$((128 + num))" -- "${daemon[@]}" --procfs "$fix/proc" --sysfs "$nosys"
	stop_check "profile load, applied (--daemon)" $sig 0.5 0 -- "${daemon[@]}" --procfs "$fix/proc" --sysfs "$nosys"
	# Scanning: an AMD card makes gputop walk every process's descriptors.
	stop_check "10,000 processes (--daemon)" $sig 0.3 0 -- "${daemon[@]}" --procfs "$tmp/big" --sysfs "$fix/amdgpu/rx7900xtx"
	stop_check "10,000 processes (snapshot)" $sig 0.3 $((128 + num)) -- --snapshot --interval 5 --procfs "$tmp/big" --sysfs "$fix/amdgpu/rx7900xtx"
	# A FIFO where a file should be.
	stop_check "FIFOs in --procfs and --sysfs (--daemon)" $sig 0.3 0 -- "${daemon[@]}" --procfs "$tmp/fifoproc" --sysfs "$tmp/fifosys"
	stop_check "FIFOs in --procfs and --sysfs (snapshot)" $sig 0.3 $((128 + num)) -- --snapshot --interval 5 --procfs "$tmp/fifoproc" --sysfs "$tmp/fifosys"
done

# A driver call that takes 8 s on each of 8 GPUs: a round of samples is
# over a minute long. The snapshot and the daemon are stuck in it on
# their own thread before anything was written (128+N at once); the
# dashboard's collector thread is left behind after 0.5 s (status 0).
printf 'include %s/h100x8.scn\nlatency nvmlDeviceGetUtilizationRates 8000\n' "$scn_dir" >"$tmp/hung.scn"
for sig in TERM INT HUP; do
	num=$(kill -l $sig)
	GPUTOP_FAKE_NVML_SCENARIO=$tmp/hung.scn stop_check "hung driver (snapshot)" $sig 0.3 $((128 + num)) -- \
		--snapshot --procfs "$fix/proc" --sysfs "$nosys"
	GPUTOP_FAKE_NVML_SCENARIO=$tmp/hung.scn stop_check "hung driver (--daemon)" $sig 0.3 $((128 + num)) -- \
		"${daemon[@]}" --procfs "$fix/proc" --sysfs "$nosys"
done

# The dashboard (in tmux) on the same trees, with the 60,000-header file,
# and on the hung driver.
sock="gputop-signals-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null; for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
tmux -L "$sock" new-session -d -s keep "sleep 900"
for tree in "$tmp/big $fix/amdgpu/rx7900xtx" "$tmp/fifoproc $tmp/fifosys" "$fix/proc $nosys $tmp/hung.scn"; do
	set -- $tree
	for sig in TERM INT HUP; do
		rm -f "$tmp/dash.exit"
		tmux -L "$sock" new-session -d -x 120 -y 40 -s dash \
			"env LANG=C.UTF-8 XDG_CONFIG_HOME=$tmp/cfg GPUTOP_FAKE_NVML_SCENARIO=${3:-$GPUTOP_FAKE_NVML_SCENARIO} $bin --nvml-lib $lib --state-dir $tmp/state --procfs $1 --sysfs $2 --interval 0.2 --seed 7$$; echo \$? >$tmp/dash.exit; sleep 60"
		p=""
		for _ in $(seq 1 300); do
			p=$(pgrep -f -- "--seed 7$$" | while read -r q; do [ "$(cat /proc/"$q"/comm 2>/dev/null)" = gputop ] && echo "$q"; done | head -1)
			[ -n "$p" ] && tmux -L "$sock" capture-pane -p -t dash | grep -q '\[0\]' && break
			sleep 0.02
		done
		sleep 0.5 # a few rounds of sampling and drawing
		t0=$(now_ms)
		[ -n "$p" ] && kill -"$sig" "$p"
		for _ in $(seq 1 300); do
			[ -s "$tmp/dash.exit" ] && break
			sleep 0.01
		done
		ms=$(($(now_ms) - t0))
		rc=$(cat "$tmp/dash.exit" 2>/dev/null)
		if [ -z "$p" ]; then
			fail "dashboard on $1 $2: did not start: $(tmux -L "$sock" capture-pane -p -t dash | head -5)"
		elif [ "$rc" = 0 ] && [ "$ms" -le 1000 ]; then
			pass "dashboard on ${1##*/} ${2##*/} ${3:+${3##*/}}: SIG$sig ended it in $ms ms, status 0"
		else
			fail "dashboard on $1 $2: SIG$sig: status '${rc:-still running}' after $ms ms"
			kill -KILL "$p" 2>/dev/null
		fi
		tmux -L "$sock" kill-session -t dash 2>/dev/null
	done
done

# Loading 60,000 headers itself is fast (the acceptance bound is 1 s).
t0=$(now_ms)
env XDG_CONFIG_HOME="$tmp/cfg" "$bin" --nvml-lib "$lib" --state-dir "$tmp/state" --apply nope \
	--procfs "$fix/proc" --sysfs "$nosys" >/dev/null 2>&1
ms=$(($(now_ms) - t0))
[ "$ms" -lt 1000 ] && pass "a 60,000-header gputop.conf is read in $ms ms" ||
	fail "reading 60,000 headers took $ms ms"

[ "$failures" = 0 ] || echo "signals.sh: $failures failure(s)"
exit $((failures > 0))

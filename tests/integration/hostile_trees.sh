#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The rest of the hostile trees (hostile_proc.sh and hostile_sysfs.sh plant
# FIFOs, /dev/zero, directories, loops and 100 MB files): a 1 MB cmdline, a
# 64 KB cgroup file, 10,000 processes, a million-line fdinfo, mode-000
# /proc files (read as an unprivileged user: root reads them anyway),
# gpu_metrics of every wrong size and of unknown versions, and the
# dashboard in tmux on such trees. Each --snapshot must succeed in its
# normal time (a 0.1 s window: under 3 s, ASan included), keep listing
# what it can, and say null, never a made-up value, for what it cannot.
set -u
bin=${GPUTOP_BIN:?run through tests/run.sh}
lib=${GPUTOP_FAKE_NVML_LIB:?}
scn_dir=${GPUTOP_SCENARIO_DIR:?}
fix=${GPUTOP_FIXTURES:?}
tmp=$(mktemp -d)
chmod 755 "$tmp" # the unprivileged run reads the trees too
# an empty sysfs root: no AMD or Intel GPU (a missing one is a usage error)
nosys=$tmp/nosys
mkdir "$nosys"
sock="gputop-hostile-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
failures=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
export GPUTOP_FAKE_NVML_SCENARIO=$scn_dir/rtx4090.scn
amd_bus=0000:0c:00.0 # rx6900xt's, the fixture with a gpu_metrics file

# snap NAME PROCFS SYSFS [runner...]: --snapshot into $tmp/NAME.json, its
# status in $rc and its time in $ms.
snap() {
	local name=$1 procfs=$2 sysfs=$3 start
	shift 3
	start=$(date +%s%N)
	"$@" timeout -k 2 20 "$bin" --nvml-lib "$lib" --sysfs "$sysfs" --procfs "$procfs" \
		--interval 0.1 --snapshot >"$tmp/$name.json" 2>"$tmp/$name.err"
	rc=$?
	ms=$((($(date +%s%N) - start) / 1000000))
}
# The JSON object of pid $2 in file $1, on one line.
proc_json() { tr -d '\n' <"$1" | sed 's/}, {/}\n{/g' | grep "\"pid\":	$2," | head -1; }
ok_snap() { # name what
	if [ "$rc" = 0 ] && [ "$ms" -lt 3000 ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/$1.json" 2>/dev/null; then
		return 0
	fi
	fail "$2: rc=$rc after $ms ms: $(head -c 300 "$tmp/$1.err")"
	return 1
}

# ---- /proc: huge cmdline and cgroup -------------------------------------
cp -r "$fix/proc" "$tmp/proc"
python3 - "$tmp/proc/6300" <<'PY'
import sys
d = sys.argv[1]
open(d + "/cmdline", "wb").write(b"blender\0" + b"A" * (1 << 20) + b"\0")
open(d + "/cgroup", "w").write("0::/" + "/".join(["s" * 250] * 262) + "\n")
PY
[ "$(stat -c %s "$tmp/proc/6300/cgroup")" -ge 65536 ] || fail "the cgroup file is under 64 KB"
snap huge "$tmp/proc" "$nosys"
if ok_snap huge "1 MB cmdline, 64 KB cgroup"; then
	p=$(proc_json "$tmp/huge.json" 6300)
	cmd=$(grep -o '"cmdline":	"[^"]*"' <<<"$p")
	if [ -n "$p" ] && [ "${#cmd}" -le 32800 ] && grep -q 'blender' <<<"$cmd"; then
		pass "1 MB cmdline: snapshot in $ms ms, the command cut at the reader's 32 KiB cap (${#cmd} bytes) and named"
	else
		fail "1 MB cmdline: pid 6300 is $(head -c 300 <<<"$p")"
	fi
	if [ "$(stat -c %s "$tmp/huge.json")" -lt 200000 ]; then
		pass "64 KB cgroup: the snapshot stays small ($(stat -c %s "$tmp/huge.json") bytes)"
	else
		fail "64 KB cgroup: the snapshot is $(stat -c %s "$tmp/huge.json") bytes"
	fi
fi

# ---- /proc: mode 000, read by a user root's bypass does not apply to -----
# Root reads a mode-000 file regardless (CAP_DAC_OVERRIDE), so as root
# this case cannot be made; run as nobody (setpriv) it is the real thing.
cp -r "$fix/proc" "$tmp/proc000"
chmod 000 "$tmp/proc000/6300/status" "$tmp/proc000/6300/cmdline" "$tmp/proc000/6300/stat"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	snap m000 "$tmp/proc000" "$nosys" setpriv --reuid=65534 --regid=65534 --clear-groups \
		env GPUTOP_FAKE_NVML_SCENARIO="$GPUTOP_FAKE_NVML_SCENARIO"
	if ok_snap m000 "mode 000 (as nobody)"; then
		p=$(proc_json "$tmp/m000.json" 6300)
		# Unreadable is not gone: the reason says permission denied.
		if grep -q '"user":	null' <<<"$p" && grep -q '"cmdline":	null' <<<"$p" &&
			grep -q '"user":	"[^"]*permission denied' <<<"$p" && ! grep -q 'not found' <<<"$p"; then
			pass "mode-000 stat, status and cmdline (as nobody): pid 6300 listed, user and cmdline null as permission denied, in $ms ms"
		else
			fail "mode 000: pid 6300 is $(head -c 400 <<<"$p")"
		fi
	fi
else
	echo "SKIP: mode-000 files need root and setpriv to be read as another user (root itself bypasses the mode)"
fi

# ---- /proc: 10,000 processes and a million-line fdinfo -------------------
cp -r "$fix/proc" "$tmp/many"
python3 - "$tmp/many" 10000 "$amd_bus" <<'PY'
import os, sys
root, n, bus = sys.argv[1], int(sys.argv[2]), sys.argv[3]
stat = open(os.path.join(root, "6300", "stat")).read()
status = open(os.path.join(root, "6300", "status")).read()
def proc(pid, name):
    d = os.path.join(root, str(pid))
    os.makedirs(os.path.join(d, "fd"))
    os.makedirs(os.path.join(d, "fdinfo"))
    for leaf, text in (("stat", stat.replace("6300 (blender)", "%d (%s)" % (pid, name), 1)),
                       ("status", status.replace("6300", str(pid))),
                       ("comm", name + "\n"), ("cmdline", name + "\0")):
        with open(os.path.join(d, leaf), "w") as f:
            f.write(text)
    return d
for i in range(n):
    d = proc(100000 + i, "w%d" % i)
    for fd in range(3):
        os.symlink("/dev/null", os.path.join(d, "fd", str(fd)))
# A DRM client whose fdinfo goes on for a million lines.
d = proc(99999, "spammer")
os.symlink("/dev/dri/renderD128", os.path.join(d, "fd", "3"))
with open(os.path.join(d, "fdinfo", "3"), "w") as f:
    f.write("pos:\t0\nflags:\t02100002\nmnt_id:\t24\ndrm-driver:\tamdgpu\n"
            "drm-pdev:\t%s\ndrm-client-id:\t7\n" % bus)
    f.write("drm-engine-gfx:\t1000 ns\n" * 1000000)
PY
snap many "$tmp/many" "$fix/amdgpu/rx6900xt"
if ok_snap many "10,000 processes and a million-line fdinfo"; then
	grep -q '"pid":	6300,' "$tmp/many.json" && grep -q '"vendor":	"amd"' "$tmp/many.json" &&
		pass "10,000 processes and a million-line fdinfo: snapshot in $ms ms, the NVIDIA processes and the AMD card listed" ||
		fail "10,000 processes: pid 6300 or the AMD card missing"
fi

# ---- sysfs: gpu_metrics of every wrong size and of unknown versions -----
cp -r "$fix/amdgpu/rx6900xt" "$tmp/sys"
gm=$tmp/sys/class/drm/card0/device/gpu_metrics
cp "$gm" "$tmp/gm.orig"
kinds=(empty 1 3 header-only half-struct size-too-big size-too-small size-huge rev-99 content-99 64k zero-fill)
python3 - "$tmp/gm.orig" "$tmp" <<'PY'
import sys, struct
orig = open(sys.argv[1], "rb").read()
size = struct.unpack_from("<H", orig)[0]
out = sys.argv[2]
def w(name, data):
    open("%s/gm-%s" % (out, name), "wb").write(data)
w("empty", b"")
w("1", orig[:1])
w("3", orig[:3])
w("header-only", orig[:4])
w("half-struct", orig[:size // 2])
w("size-too-big", struct.pack("<H", size + 200) + orig[2:size])   # claims more than the file
w("size-too-small", struct.pack("<H", 5) + orig[2:size])
w("size-huge", struct.pack("<H", 0xffff) + orig[2:])
w("rev-99", orig[:2] + bytes([99]) + orig[3:])
w("content-99", orig[:3] + bytes([99]) + orig[4:])
w("64k", orig + b"\xff" * (65536 - len(orig)))
w("zero-fill", b"\0" * len(orig))
PY
for k in "${kinds[@]}"; do
	cp "$tmp/gm-$k" "$gm"
	snap gm "$fix/proc" "$tmp/sys" env GPUTOP_FAKE_NVML_SCENARIO=/nonexistent
	ok_snap gm "gpu_metrics $k" || continue
	# What the table gives (energy, throttle) is null, not 0 or false,
	# when the table cannot be decoded; fields inside the bytes present
	# of a short or oversized table are real and may stay.
	got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["devices"][0]; print(d["power"]["energy_joules"], d["throttle"]["active"])' "$tmp/gm.json" 2>&1)
	case $k in
	half-struct | size-too-big | size-huge | 64k) want_null=false ;;
	*) want_null=true ;;
	esac
	if ! grep -q '"vendor":	"amd"' "$tmp/gm.json"; then
		fail "gpu_metrics $k: the card is gone: $(head -c 300 "$tmp/gm.err")"
	elif $want_null && [ "$got" != "None None" ]; then
		fail "gpu_metrics $k: an undecodable table gave energy/throttle $got"
	elif ! $want_null && [ "${got%% *}" != 269.953 ]; then
		fail "gpu_metrics $k: the energy in the bytes present was lost ($got)"
	else
		pass "gpu_metrics $k ($(stat -c %s "$gm") bytes): snapshot in $ms ms, card listed, energy/throttle $got"
	fi
done
cp "$tmp/gm.orig" "$gm"

# ---- the dashboard in tmux on the hostile trees -------------------------
# The big /proc tree, the mode-000 files, FIFOs for a listed process's
# files and the AMD card's gpu_metrics: drawn, N/A where a value could not
# be read, still running after a few rounds, and q ends it with 0.
cp "$tmp/proc/6300/cmdline" "$tmp/many/6300/cmdline"
for leaf in status comm; do rm -f "$tmp/many/6200/$leaf" && mkfifo "$tmp/many/6200/$leaf"; done
cp "$tmp/gm-size-too-big" "$gm"
rm -f "$tmp/sys/class/drm/card0/device/pp_dpm_sclk" && mkfifo "$tmp/sys/class/drm/card0/device/pp_dpm_sclk"
tmux -L "$sock" new-session -d -x 140 -y 45 -s dash \
	"env LANG=C.UTF-8 XDG_STATE_HOME=$tmp XDG_CONFIG_HOME=$tmp $bin --nvml-lib $lib --procfs $tmp/many --sysfs $tmp/sys --interval 0.2 --state-dir $tmp/st; echo EXITED \$?; sleep 60"
screen=""
wait_for() {
	for _ in $(seq 1 "${2:-200}"); do
		screen=$(tmux -L "$sock" capture-pane -p -t dash)
		grep -Eq -- "$1" <<<"$screen" && return 0
		sleep 0.05
	done
	return 1
}
if wait_for "\[1\]" && sleep 3 && wait_for "N/A" && ! grep -q EXITED <<<"$screen"; then
	pass "dashboard on the hostile trees: drawn, N/A shown, still running after 3 s"
else
	fail "dashboard on the hostile trees: $(head -c 2000 <<<"$screen")"
fi
tmux -L "$sock" send-keys -t dash q
wait_for "EXITED 0" && pass "dashboard on the hostile trees: q ends it with 0" ||
	fail "dashboard on the hostile trees: no clean exit: $(tail -5 <<<"$screen")"

[ "$failures" = 0 ] || echo "hostile_trees.sh: $failures failure(s)"
exit $((failures > 0))

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A --sysfs tree is a directory anyone may build: every file of an AMD
# card's device directory (and its hwmon) replaced in turn by a FIFO, a
# symlink to /dev/zero, a directory, a symlink loop and a 100 MB file
# must neither hang nor crash gputop --snapshot (run under ASan too, by
# tests/run.sh), and the card must still be listed.
set -u
bin=${GPUTOP_BIN:?run through tests/run.sh}
fix=${GPUTOP_FIXTURES:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
runs=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
card=class/drm/card0/device
src=$fix/amdgpu/rx7900xtx
cp -r "$src" "$tmp/base"

cp -r "$src" "$tmp/sys"
# plant KIND FILE: FILE (below the device directory) replaced; unplant puts
# the original back (one file, not the whole tree, per run).
plant() {
	local f="$tmp/sys/$card/$2"
	rm -f "$f"
	case $1 in
	fifo) mkfifo "$f" ;;
	zero) ln -s /dev/zero "$f" ;;
	dir) mkdir "$f" ;;
	loop) ln -s "$(basename "$f")" "$f" ;;
	huge) truncate -s 100M "$f" ;;
	esac
}
unplant() { rm -rf "$tmp/sys/$card/$1" && cp -a "$tmp/base/$card/$1" "$tmp/sys/$card/$1"; }

files=$(cd "$src/$card" && find . -maxdepth 3 -type f | sed 's|^\./||' | sort)
for kind in fifo zero dir loop huge; do
	for f in $files; do
		# 100 MB where a small file is read whole: the ones read as
		# blobs or tables are enough to show the bound.
		[ $kind = huge ] && case $f in gpu_metrics | pp_od_clk_voltage | pp_dpm_sclk | */fan_curve | uevent) ;; *) continue ;; esac
		plant $kind "$f"
		start=$(date +%s%N)
		timeout -k 2 10 "$bin" --nvml-lib /nonexistent --sysfs "$tmp/sys" --procfs "$fix/proc" \
			--interval 0.1 --snapshot >"$tmp/out.json" 2>"$tmp/err"
		rc=$?
		ms=$((($(date +%s%N) - start) / 1000000))
		runs=$((runs + 1))
		# Without its uevent the card cannot be told to be amdgpu's:
		# not listed then, and the snapshot still succeeds.
		listed=true
		[ "$f" = uevent ] || grep -q '"vendor":	"amd"' "$tmp/out.json" || listed=false
		if [ $rc != 0 ] || [ $ms -ge 3000 ] || ! $listed; then
			fail "$kind as $f: rc=$rc after $ms ms, listed=$listed: $(head -c 300 "$tmp/err")"
		fi
		unplant "$f"
	done
done
echo "hostile_sysfs.sh: $runs snapshots of planted trees, $failures failure(s)"
[ "$failures" = 0 ] && echo "PASS: every planted FIFO, /dev/zero, directory, loop and 100 MB file was survived"
exit $((failures > 0))

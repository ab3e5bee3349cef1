#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# snapcompare.sh - proves that a change kept gputop's output: runs two builds
# (each a directory holding gputop and fake-nvml/libnvidia-ml.so.1) over
# every AMD capture, every Intel tree, every fake NVML scenario and a few
# demo seeds, with `--snapshot` and `--list`, and compares the documents.
#
#   tests/tools/snapcompare.sh OLD_BUILD NEW_BUILD [KEEP_DIR]
#
# What moves with the clock is masked before the comparison: the timestamp,
# the monotonic time, the measured sample window, the fake NVML's energy
# counter, power draw and PCIe rates (sine waves of time in some of its
# scenarios). Everything else, the demo included, must be
# byte-identical. Prints one line per difference and a summary; exits 1 when
# a document differs.
set -u
cd "$(dirname "$0")/../.." || exit 1

[ $# -ge 2 ] || {
	echo "usage: $0 OLD_BUILD NEW_BUILD [KEEP_DIR]" >&2
	exit 2
}
old=$1
new=$2
out=${3:-$(mktemp -d)}
mkdir -p "$out/old" "$out/new"
for b in "$old" "$new"; do
	for f in gputop fake-nvml/libnvidia-ml.so.1; do
		[ -e "$b/$f" ] || {
			echo "snapcompare: $b/$f is missing (build it first)" >&2
			exit 2
		}
	done
done

fx=$PWD/tests/fixtures
# An empty tree: no process as --procfs, no DRM device as --sysfs (a
# missing --sysfs is a usage error).
empty=$(mktemp -d)
trap 'rmdir "$empty" 2>/dev/null' EXIT

# The lines that move with the clock, one key per line as cJSON prints them;
# the fake NVML's power draw only in its documents (AMD's is a fixed file).
mask() { # NAME
	local keys='timestamp|monotonic_ns|sample_window_ns|energy_joules|[tr]x_bytes_per_second'
	case $1 in nvml-*) keys="$keys|draw_watts" ;; esac
	sed -E "s/^(\s*\"($keys)\":\s*).*[^,](,?)\$/\1~\3/"
}

# run NAME BUILD ARGS... : one document of one build, masked.
run() {
	local name=$1 build=$2 side=$3
	shift 3
	env GPUTOP_AMDGPU_IDS="$fx/amdgpu/amdgpu.ids" \
		GPUTOP_PCI_IDS="$fx/intel/pci.ids" "$@" 2>&1 |
		sed "s#$build#BUILD#g" | mask "$name" >"$out/$side/$name"
}

both() { # NAME ARGS... (BUILD in ARGS is replaced per side)
	local name=$1 side b
	shift
	for side in old new; do
		[ $side = old ] && b=$old || b=$new
		local args=()
		for a in "$@"; do args+=("${a//BUILD/$b}"); done
		run "$name" "$b" "$side" "${args[@]}"
	done
}

n=0
for cap in "$fx"/amdgpu/*/; do
	c=$(basename "$cap")
	for mode in --snapshot --list; do
		both "amdgpu-$c$mode" BUILD/gputop --sysfs "$cap" $mode \
			--interval 0.1 --nvml-lib /nonexistent --procfs "$empty"
		n=$((n + 1))
	done
done
for tree in "$fx"/intel/*/; do
	t=$(basename "$tree")
	for mode in --snapshot --list; do
		both "intel-$t$mode" BUILD/gputop --sysfs "$tree" $mode \
			--interval 0.1 --nvml-lib /nonexistent --procfs "$empty"
		n=$((n + 1))
	done
done
for scn in tests/fake-nvml/scenarios/*.scn; do
	s=$(basename "$scn" .scn)
	for mode in --snapshot --list; do
		both "nvml-$s$mode" env GPUTOP_FAKE_NVML_SCENARIO="$PWD/$scn" \
			BUILD/gputop $mode --interval 0.5 \
			--nvml-lib BUILD/fake-nvml/libnvidia-ml.so.1 \
			--procfs "$fx/proc" --sysfs "$empty"
		n=$((n + 1))
	done
done
for seed in 1 3 7; do
	both "demo-$seed--snapshot" BUILD/gputop --demo --seed $seed --snapshot \
		--interval 0.1
	n=$((n + 1))
done

same=0
differ=0
for f in "$out"/old/*; do
	name=$(basename "$f")
	if cmp -s "$f" "$out/new/$name"; then
		same=$((same + 1))
	else
		differ=$((differ + 1))
		echo "DIFFERS: $name"
		diff "$f" "$out/new/$name" | head -n 20
	fi
done
echo "snapcompare: $n documents, $same identical, $differ differ (kept in $out)"
[ "$differ" -eq 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A --procfs tree is a directory anyone may build (a host /proc mounted
# into a container, a test tree): a FIFO, /dev/zero or a directory where
# one of a process's files should be must neither hang gputop --snapshot
# nor lose the process, and what could not be read is null with its
# reason, never an empty or zero value. A --procfs or --sysfs that is no
# directory at all is a usage error naming it. (A mode-000 file is
# hostile_trees.sh's: read as root, its mode stops nothing.)
set -u
bin=${GPUTOP_BIN:?run through tests/run.sh}
lib=${GPUTOP_FAKE_NVML_LIB:?}
scn_dir=${GPUTOP_SCENARIO_DIR:?}
fix=${GPUTOP_FIXTURES:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# an empty sysfs root: no AMD or Intel GPU (a missing one is a usage error)
nosys=$tmp/nosys
mkdir "$nosys"
failures=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
export GPUTOP_FAKE_NVML_SCENARIO=$scn_dir/rtx4090.scn

# plant KIND LEAF: a copy of the fixture tree with pid 6300's LEAF replaced.
plant() {
	rm -rf "$tmp/proc" && cp -r "$fix/proc" "$tmp/proc" && rm -f "$tmp/proc/6300/$2"
	case $1 in
	fifo) mkfifo "$tmp/proc/6300/$2" ;;
	zero) ln -s /dev/zero "$tmp/proc/6300/$2" ;;
	dir) mkdir "$tmp/proc/6300/$2" ;;
	esac
}
# field JSON PID KEY: the process's KEY as Python would print it (jq-free).
field() { grep -o "\"pid\":	*$2,.*" "$1" | head -1 | grep -o "\"$3\":	*[^,}]*" | head -1 | sed 's/^[^:]*:[[:space:]]*//'; }

for kind in fifo zero dir; do
	for leaf in cmdline comm status stat statm cgroup; do
		plant $kind $leaf
		start=$(date +%s%N)
		timeout -k 2 10 "$bin" --nvml-lib "$lib" --sysfs "$nosys" --procfs "$tmp/proc" --interval 0.1 \
			--snapshot >"$tmp/out.json" 2>"$tmp/err"
		rc=$?
		ms=$((($(date +%s%N) - start) / 1000000))
		# A 0.1 s sample window: the tree must not make it cost seconds.
		if [ $rc = 0 ] && [ $ms -lt 2000 ] && grep -q '"pid":	6300' "$tmp/out.json"; then
			pass "$kind as $leaf: snapshot in $ms ms, pid 6300 still listed"
		else
			fail "$kind as $leaf: rc=$rc after $ms ms ($(head -c 200 "$tmp/err"))"
		fi
	done
done

# The owner unknown: null with a reason, not "".
plant fifo status
"$bin" --nvml-lib "$lib" --sysfs "$nosys" --procfs "$tmp/proc" --interval 0.1 --snapshot >"$tmp/out.json" 2>/dev/null
tr -d '\n' <"$tmp/out.json" | sed 's/}, {/}\n{/g' | grep '"pid":	6300' | head -1 >"$tmp/p.json"
if grep -q '"user":	null' "$tmp/p.json" && grep -q '"user":	"the owner could not be read' "$tmp/p.json"; then
	pass "an unreadable status file gives user null with its reason"
else
	fail "status FIFO: user is $(grep -o '"user":	[^,]*' "$tmp/p.json" | head -1)"
fi

# No tree at all, as --procfs or as --sysfs (missing, a file, a FIFO):
# refused at once (usage, status 2) naming the path, the reason and the
# fix, rather than every process left unnamed or every backend finding
# "0 DRM devices" with nothing to say why. In every mode: the dashboard
# refuses before it touches the terminal, --restore (which writes through
# sysfs, and reads no /proc) before it reads its state file.
mkfifo "$tmp/fifo"
for opt in --procfs --sysfs; do
	for root in "$tmp/no-such-dir" "$tmp/p.json" "$tmp/fifo"; do
		for mode in --snapshot --list "" --restore; do
			[ "$opt $mode" = "--procfs --restore" ] && continue
			if [ "$opt" = --procfs ]; then
				trees=(--procfs "$root" --sysfs "$nosys")
			else
				trees=(--procfs "$fix/proc" --sysfs "$root")
			fi
			# shellcheck disable=SC2086 # no mode is the dashboard
			err=$(XDG_CONFIG_HOME="$tmp/cfg" XDG_STATE_HOME="$tmp/st" timeout -k 2 10 \
				"$bin" --nvml-lib "$lib" --state-dir "$tmp/st" "${trees[@]}" \
				$mode 2>&1 </dev/null >/dev/null)
			rc=$?
			if [ "$rc" = 2 ] && grep -q -- "^gputop: $opt $root: \(No such file or directory\|not a directory\) (give the directory" <<<"$err"; then
				pass "$opt $(basename "$root") ${mode:-(dashboard)}: status 2, '$err'"
			else
				fail "$opt $root ${mode:-(dashboard)}: status $rc, '$err'"
			fi
		done
	done
done

[ "$failures" = 0 ] || echo "hostile_proc.sh: $failures failure(s)"
exit $((failures > 0))

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A sysfs write the driver refuses is no change, for AMD and Intel as for
# NVML: `gputop --apply PROFILE --daemon` on a copy of a fixture whose
# power-limit file refuses writes even to root (the immutable attribute,
# chattr +i: open for writing fails with EPERM) reports the refusal,
# says nothing was changed, leaves no restore.state, one audit line and
# no restore; `--restore` then has nothing to do (status 0) and the
# guardian logs a normal exit. Exits 77 (skipped) where the file system
# or the container does not allow chattr +i.
set -u
bin=${GPUTOP_BIN:?run through tests/run.sh}
fix=${GPUTOP_FIXTURES:?}
tmp=$(mktemp -d)
locked=()
trap 'for f in "${locked[@]}"; do chattr -i "$f" 2>/dev/null; done; rm -rf "$tmp"' EXIT
failures=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

touch "$tmp/probe"
if ! command -v chattr >/dev/null || ! chattr +i "$tmp/probe" 2>/dev/null; then
	echo "SKIP: chattr +i is not possible here (needs CAP_LINUX_IMMUTABLE and ext4/xfs/btrfs)"
	exit 77
fi
chattr -i "$tmp/probe"

# case NAME FIXTURE BUS FILE: the power limit written to FILE is refused.
refused_case() {
	local name=$1 tree=$2 bus=$3 file=$4 out rc st=$tmp/$1-state
	cp -r "$fix/$tree" "$tmp/$name-sys"
	chmod -R u+w "$tmp/$name-sys"
	local target="$tmp/$name-sys/class/drm/card0/device/$file"
	local before
	before=$(cat "$target")
	mkdir -p "$tmp/$name-cfg/gputop"
	printf '[profile capped]\ngpu = %s\npower_limit = 150W\n' "$bus" >"$tmp/$name-cfg/gputop/gputop.conf"
	chattr +i "$target" && locked+=("$target")
	out=$(XDG_CONFIG_HOME="$tmp/$name-cfg" timeout -k 2 20 "$bin" --nvml-lib /nonexistent \
		--sysfs "$tmp/$name-sys" --procfs "$fix/proc" --state-dir "$st" --apply capped --daemon 2>&1)
	rc=$?
	if [ $rc = 1 ] && grep -q "Operation not permitted" <<<"$out" && grep -q "nothing was changed" <<<"$out" &&
		! grep -qi "restor" <<<"$out" && [ ! -e "$st/restore.state" ] && [ "$(cat "$target")" = "$before" ]; then
		pass "$name: a refused $file write leaves no state file"
	else
		fail "$name: rc=$rc, state: $(ls "$st" 2>&1): $out"
	fi
	[ "$(grep -c . "$st/audit.log" 2>/dev/null)" = 1 ] &&
		grep -q "write $bus ${file##*/} old=\"$before\" new=\"150000000\" failed: Operation not permitted" "$st/audit.log" &&
		pass "$name: one audit line, the refusal, and no restore" ||
		fail "$name: audit log: $(cat "$st/audit.log" 2>&1)"
	# The originals are saved, and the guardian started, before the write
	# that the file refuses: its log must be there.
	grep -q "gputop exited normally" "$st/guardian.log" 2>/dev/null &&
		! grep -q "died" "$st/guardian.log" &&
		pass "$name: the guardian logs a normal exit" ||
		fail "$name: guardian log: $(cat "$st/guardian.log" 2>&1)"
	out=$("$bin" --state-dir "$st" --restore 2>&1)
	rc=$?
	[ $rc = 0 ] && grep -q "nothing to restore" <<<"$out" &&
		pass "$name: --restore has nothing to do (status 0)" ||
		fail "$name: --restore: rc=$rc: $out"
	out=$(XDG_CONFIG_HOME="$tmp/$name-cfg" "$bin" --nvml-lib /nonexistent --sysfs "$tmp/$name-sys" \
		--procfs "$fix/proc" --state-dir "$st" --apply capped 2>&1)
	grep -q "could not put\|earlier gputop" <<<"$out" &&
		fail "$name: the next start still speaks of an earlier change: $out" ||
		pass "$name: the next start finds no earlier change"
}

refused_case amd amdgpu/rx580 0000:09:00.0 hwmon/hwmon4/power1_cap
dg2_pl=$(cd "$fix/intel/i915-dg2/class/drm/card0/device" && ls hwmon/*/power1_max | head -1)
refused_case intel intel/i915-dg2 0000:03:00.0 "$dg2_pl"

[ "$failures" = 0 ] || echo "refused_sysfs.sh: $failures failure(s)"
exit $((failures > 0))

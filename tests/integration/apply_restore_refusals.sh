#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What --restore and --apply must refuse before they write anything:
# `gputop --restore` with a state directory others may write (someone else
# could have planted its journal), with an audit log it cannot open (a
# restore nobody could trace later) or a state file that is a symbolic
# link (--apply too), each with status 1, a message naming the path, the
# cause and the fix, no setter called and the state file kept; and `gputop --apply` of a profile whose gpu block matches no GPU
# here (a mistyped PCI id, or no GPU at all), status 1 with the block
# named instead of "every setting is already in force".
. "$(dirname "$0")/signal_lib.sh"
rtx=$scn_dir/rtx4090.scn

mkdir -p "$tmp/cfg/gputop"
cat >"$tmp/cfg/gputop/gputop.conf" <<'EOF'
[profile lower]
gpu = 0000:01:00.0
power_limit = 300W

[profile ghost]
gpu = 0000:ff:00.0
power_limit = 250W

[profile half]
gpu = 0000:01:00.0
power_limit = 300W
gpu = 0000:fe:00.0
power_limit = 250W

[profile any]
gpu = *
power_limit = 300W

[profile rest]
gpu = 0000:01:00.0
power_limit = 300W
gpu = *
power_limit = 250W
EOF

# A state file left by a double death (gputop and its guardian killed),
# kept as $tmp/left.state for each case to copy.
leave_state "$rtx" lower
if [ ! -s "$tmp/state/restore.state" ]; then
	fail "no state file left to restore: $(ls "$tmp/state" 2>&1); $(head -c 300 "$tmp/err")"
	exit 1
fi
cp -p "$tmp/state/restore.state" "$tmp/left.state"

# restore DIR: `gputop --restore --state-dir DIR`; sets rc, out (stdout
# and stderr) and $tmp/setters.log (the setter calls made).
restore() {
	rm -f "$tmp/setters.log"
	out=$(env GPUTOP_FAKE_NVML_SCENARIO="$rtx" \
		GPUTOP_FAKE_NVML_LOG="$tmp/setters.log" "$bin" --nvml-lib "$lib" \
		--state-dir "$1" --sysfs "$nosys" --restore 2>&1)
	rc=$?
}

# state_dir NAME MODE: a directory holding the left state file.
state_dir() {
	d=$tmp/$1
	mkdir -p "$d"
	chmod "$2" "$d"
	cp -p "$tmp/left.state" "$d/restore.state"
}

untouched() { # DIR: no setter called, the state file kept
	! grep -q "limit=" "$tmp/setters.log" 2>/dev/null &&
		[ -s "$1/restore.state" ]
}

# ---- --restore: a state directory others may write ----------------------
for mode in 777 1777 775; do
	state_dir "public$mode" "$mode"
	restore "$d"
	if [ "$rc" = 1 ] && grep -qF "$d" <<<"$out" &&
		grep -qF "chmod go-w $d" <<<"$out" && untouched "$d"; then
		pass "--restore refuses a state directory of mode $mode, naming it and the fix"
	else
		fail "--restore with a state directory of mode $mode: status $rc, $(head -c 400 <<<"$out")"
	fi
done
chmod 700 "$d"
restore "$d"
[ "$rc" = 0 ] && grep -q "limit=450000 -> 0" "$tmp/setters.log" &&
	[ ! -e "$d/restore.state" ] &&
	pass "--restore restores once the directory is private again" ||
	fail "--restore after chmod 700: status $rc, $(head -c 400 <<<"$out")"

# ---- --restore: an audit log that cannot be opened -----------------------
state_dir auditdir 700
mkdir "$d/audit.log"
restore "$d"
if [ "$rc" = 1 ] && grep -qF "cannot open the audit log $d/audit.log" <<<"$out" &&
	grep -q "nothing restored" <<<"$out" && untouched "$d"; then
	pass "--restore refuses when audit.log is a directory, naming it"
else
	fail "--restore with audit.log a directory: status $rc, $(head -c 400 <<<"$out")"
fi
state_dir auditlink 700
ln -s "$tmp/elsewhere.log" "$d/audit.log"
restore "$d"
if [ "$rc" = 1 ] && grep -qF "cannot open the audit log $d/audit.log" <<<"$out" &&
	untouched "$d" && [ ! -e "$tmp/elsewhere.log" ]; then
	pass "--restore refuses when audit.log is a symbolic link, following none"
else
	fail "--restore with audit.log a symlink: status $rc, $(head -c 400 <<<"$out")"
fi
rm "$d/audit.log"
restore "$d"
[ "$rc" = 0 ] && grep -q 'restore .*power-limit-mw .*new="450000" ok' "$d/audit.log" &&
	pass "--restore with the audit log back restores and records it" ||
	fail "--restore after removing the link: status $rc, $(head -c 400 <<<"$out")"

# ---- --restore and --apply: a state file that is a symbolic link ---------
# Never followed (a link could aim root's restore anywhere), and said as
# such with the fix, not as ELOOP's "Too many levels of symbolic links".
# Link and file stay; a dangling link gets no file made where it points.
linked="is a symbolic link; gputop refuses it so that a link cannot redirect the restore"
state_dir statelink 700
mkdir -m 700 "$tmp/linked"
mv "$d/restore.state" "$tmp/linked/restore.state"
ln -s "$tmp/linked/restore.state" "$d/restore.state"
restore "$d"
if [ "$rc" = 1 ] && grep -qF "$d/restore.state $linked" <<<"$out" &&
	untouched "$d" && [ -L "$d/restore.state" ]; then
	pass "--restore refuses a state file that is a symbolic link, saying so"
else
	fail "--restore with restore.state a symlink: status $rc, $(head -c 400 <<<"$out")"
fi
rm "$d/restore.state"
ln -s "$tmp/linked/nowhere.state" "$d/restore.state"
rm -f "$tmp/setters.log"
out=$(timeout 20 env XDG_CONFIG_HOME="$tmp/cfg" GPUTOP_FAKE_NVML_SCENARIO="$rtx" \
	GPUTOP_FAKE_NVML_LOG="$tmp/setters.log" "$bin" --nvml-lib "$lib" \
	--state-dir "$d" --procfs "$fix/proc" --sysfs "$nosys" --apply lower 2>&1)
rc=$?
if [ "$rc" = 1 ] && grep -qF "$d/restore.state $linked" <<<"$out" &&
	! grep -q "limit=" "$tmp/setters.log" 2>/dev/null &&
	[ -L "$d/restore.state" ] && [ ! -e "$tmp/linked/nowhere.state" ]; then
	pass "--apply refuses a state file that is a dangling symbolic link, writing nothing"
else
	fail "--apply with restore.state a dangling symlink: status $rc, $(head -c 400 <<<"$out")"
fi

# ---- --apply: blocks that match no GPU -----------------------------------
# apply SCENARIO ARGS...: `gputop --apply ARGS` in the foreground, a fresh
# state directory; sets rc and $tmp/err.
apply() {
	local scn=$1
	shift
	rm -rf "$tmp/state" "$tmp/setters.log"
	timeout 20 env XDG_CONFIG_HOME="$tmp/cfg" GPUTOP_FAKE_NVML_SCENARIO="$scn" \
		GPUTOP_FAKE_NVML_LOG="$tmp/setters.log" "$bin" --nvml-lib "$lib" \
		--state-dir "$tmp/state" --procfs "$fix/proc" --sysfs "$nosys" \
		--interval 0.2 --apply "$@" >/dev/null 2>"$tmp/err"
	rc=$?
}
nothing_written() {
	! grep -q "limit=" "$tmp/setters.log" 2>/dev/null &&
		[ ! -e "$tmp/state/restore.state" ]
}

ghost="profile 'ghost': gpu = 0000:ff:00.0 matches no GPU here (see gputop --list)"
for mode in "" --daemon; do
	apply "$scn_dir/h100x1.scn" ghost $mode
	if [ "$rc" = 1 ] && grep -qF "$ghost" "$tmp/err" &&
		! grep -q "already in force" "$tmp/err" && nothing_written; then
		pass "--apply ${mode:-(one-shot)}: a block for a GPU not here is named, status 1"
	else
		fail "--apply ${mode:-(one-shot)} ghost: status $rc, $(head -c 400 "$tmp/err")"
	fi
done

apply "$rtx" half
if [ "$rc" = 1 ] &&
	grep -qF "profile 'half': gpu = 0000:fe:00.0 matches no GPU here" "$tmp/err" &&
	nothing_written; then
	pass "--apply: one block of two matching no GPU refuses the whole profile"
else
	fail "--apply half: status $rc, $(head -c 400 "$tmp/err")"
fi

# No GPU at all: a scenario without devices.
printf 'driver_version 590.48.01\nnvml_version 13.590.48.01\ncuda_version 13010\nprivileged yes\n' \
	>"$tmp/none.scn"
apply "$tmp/none.scn" ghost
grep -qF "$ghost" "$tmp/err" && [ "$rc" = 1 ] && nothing_written &&
	pass "--apply with no GPU at all names the block" ||
	fail "--apply ghost, no GPU: status $rc, $(head -c 400 "$tmp/err")"
apply "$tmp/none.scn" any
grep -qF "profile 'any': gpu = * matches no GPU here" "$tmp/err" && [ "$rc" = 1 ] &&
	pass "--apply of a 'gpu = *' profile with no GPU at all is refused" ||
	fail "--apply any, no GPU: status $rc, $(head -c 400 "$tmp/err")"

# Still applied where every block has its GPU, and "*" may take none.
apply "$rtx" any
[ "$rc" = 0 ] && grep -q "limit=300000 -> 0" "$tmp/setters.log" &&
	pass "--apply of a 'gpu = *' profile still applies" ||
	fail "--apply any: status $rc, $(head -c 400 "$tmp/err")"
apply "$rtx" rest
[ "$rc" = 0 ] && grep -q "limit=300000 -> 0" "$tmp/setters.log" &&
	pass "--apply: a 'gpu = *' block no GPU falls to is no error" ||
	fail "--apply rest: status $rc, $(head -c 400 "$tmp/err")"

[ "$failures" = 0 ] || echo "apply_restore_refusals.sh: $failures failure(s)"
exit $((failures > 0))

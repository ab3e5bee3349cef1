#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The process tree (t, F5) in tmux, with processes this test starts
# itself, listed on GPU 0 by a scenario and read from the real /proc: a
# shell with two GPU children shows them under it with tree glyphs, a
# GPU process whose parent (a plain sh) holds no GPU hangs under its
# nearest ancestor that does, the shell's row shows its subtree's VRAM,
# LANG=C draws ASCII glyphs, and t again gives the flat list.
set -u
here=$(dirname "$0")
# shellcheck source=tests/terminal/tmux_lib.sh
. "$here/tmux_lib.sh"
tmux_begin tree
kids=()
trap 't kill-server 2>/dev/null; for p in "${kids[@]}"; do kill -KILL "$p" 2>/dev/null; done; rm -rf "$state"' EXIT

# top (bash) -> sleep (GPU), sleep (GPU), sh -> sleep (GPU)
bash -c 'sleep 300 & sleep 300 & sh -c "sleep 300; true" & wait' &
top=$!
kids+=("$top")
for _ in $(seq 1 100); do
	mapfile -t sleeps < <(pgrep -P "$top" -x sleep)
	sh_pid=$(pgrep -P "$top" -x sh)
	[ "${#sleeps[@]}" = 2 ] && [ -n "$sh_pid" ] && deep=$(pgrep -P "$sh_pid" -x sleep) && [ -n "$deep" ] && break
	sleep 0.05
done
[ -n "${deep:-}" ] || { echo "FAIL: could not start the process tree"; exit 1; }
kids+=("${sleeps[@]}" "$sh_pid" "$deep")
{
	printf 'include %s\ndevice 0\n' "$scn_dir/h100x1.scn"
	printf 'process compute %d 1GiB\n' "$top"
	printf 'process compute %d 2GiB\n' "${sleeps[0]}" "${sleeps[1]}"
	printf 'process compute %d 4GiB\n' "$deep"
} >"$state/tree.scn"

start() { # LANG
	t kill-session -t dash 2>/dev/null
	t new-session -d -x 120 -y 40 -s dash \
		"env LANG=$1 XDG_STATE_HOME=$state XDG_CONFIG_HOME=$state GPUTOP_FAKE_NVML_SCENARIO=$state/tree.scn $bin --nvml-lib $lib --sysfs $nosys --interval 0.5; echo EXITED \$?; sleep 60"
}

start C.UTF-8
wait_for "^ +$deep " || fail "the processes are not listed"
keys t
if wait_for "^ +$top .* 9\\.0GiB .* bash" &&
	wait_for "^ +${sleeps[0]} .*[├└]─ sleep" &&
	wait_for "^ +${sleeps[1]} .*[├└]─ sleep" &&
	wait_for "^ +$deep .*└─ sleep"; then
	pass "t: the two sleeps and the one under sh hang under bash ($top), whose VRAM is its subtree's 9.0GiB"
else
	fail "t: no tree under bash $top"
fi
rows=$(grep -E "^ +($top|${sleeps[0]}|${sleeps[1]}|$deep) " <<<"$screen" | awk '{print $1}' | tr '\n' ' ')
[ "${rows%% *}" = "$top" ] && pass "bash's row comes first, its children after it" ||
	fail "tree order: $rows"
grep -Eq "^ +$sh_pid " <<<"$screen" && fail "sh (no GPU) is listed" ||
	pass "sh, holding no GPU, is not a row"
keys F5
wait_for "flat list" && wait_gone "[├└]─ sleep" && wait_for "^ +$top .* 1\\.0GiB" &&
	pass "F5 goes back to the flat list (bash: its own 1.0GiB)" || fail "F5 did not flatten"

start C
wait_for "^ +$deep " || fail "LANG=C: processes not listed"
keys t
wait_for "^ +$deep .*\`- sleep" && pass "LANG=C: ASCII tree glyphs" || fail "LANG=C: no ASCII glyphs"
keys q
wait_for "EXITED 0" || fail "did not quit cleanly"
echo "tree.sh: $failures failure(s)"
[ "$failures" -eq 0 ]

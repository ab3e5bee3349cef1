#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Tagging (Space, U) and a signal to the tagged set, in tmux, with three
# processes this test starts itself, listed on GPU 0 by a scenario and
# read from the real /proc: two are tagged (each found with the filter,
# which tags survive), the signal menu names both before anything is
# chosen, the confirmation asks for both, and SIGUSR1 ends exactly those
# two while the third keeps running. U untags all.
set -u
here=$(dirname "$0")
# shellcheck source=tests/terminal/tmux_lib.sh
. "$here/tmux_lib.sh"
tmux_begin tags
kids=()
trap 't kill-server 2>/dev/null; for p in "${kids[@]}"; do kill -KILL "$p" 2>/dev/null; done; rm -rf "$state"' EXIT

for i in 1 2 3; do
	sleep 300 &
	kids+=("$!")
done
a=${kids[0]} b=${kids[1]} c=${kids[2]}
{
	printf 'include %s\ndevice 0\n' "$scn_dir/h100x1.scn"
	printf 'process compute %d 1GiB\n' "$a" "$b" "$c"
} >"$state/tags.scn"
t kill-session -t dash 2>/dev/null
t new-session -d -x 120 -y 40 -s dash \
	"env LANG=C.UTF-8 XDG_STATE_HOME=$state XDG_CONFIG_HOME=$state GPUTOP_FAKE_NVML_SCENARIO=$state/tags.scn $bin --nvml-lib $lib --sysfs $nosys --interval 0.5; echo EXITED \$?; sleep 60"
wait_for "^ +$c " || fail "the three sleeps are not listed"

tag() { # pid: filter to it, tag it, clear the filter
	keys /
	t send-keys -t dash -l "$1"
	keys Enter
	wait_for "filter: $1" || fail "filter to $1"
	keys Space
	wait_for "tagged \\(U untags all\\)" || fail "Space did not tag $1"
	keys Escape
	wait_for "^ +$c " || fail "Esc did not clear the filter"
}
tag "$a"
tag "$b"
if wait_for "^\\* +$a " && wait_for "^\\* +$b " && ! grep -Eq "^\\* +$c " <<<"$screen"; then
	pass "Space tagged $a and $b (marked *), not $c"
else
	fail "tag marks wrong"
fi
keys x
if wait_for "to 2 tagged processes:" && grep -Eq "^.* $a \\(sleep\\)" <<<"$screen" &&
	grep -Eq "^.* $b \\(sleep\\)" <<<"$screen" && ! grep -Eq " $c \\(sleep\\)" <<<"$screen"; then
	pass "the signal menu names both tagged processes before a signal is chosen"
else
	fail "the signal menu does not name the tagged set"
fi
keys Down Down Down Down Down Down
wait_for "> 7  SIGUSR1" || fail "menu: Down did not reach SIGUSR1"
keys Enter
wait_for "Send SIGUSR1 to all 2\\?" && grep -q " $a (sleep)" <<<"$screen" &&
	pass "the confirmation names both again and asks for all 2" || fail "no confirmation for the set"
kill -0 "$a" && kill -0 "$b" || fail "a tagged process died before y"
keys y
ended() { # pid: its exit status once it has ended
	for _ in $(seq 1 100); do
		st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)
		if [ -z "$st" ] || [ "$st" = Z ]; then
			wait "$1"
			echo $?
			return
		fi
		sleep 0.05
	done
	echo running
}
ra=$(ended "$a")
rb=$(ended "$b")
usr1=$((128 + $(kill -l USR1)))
[ "$ra" = "$usr1" ] && [ "$rb" = "$usr1" ] && pass "SIGUSR1 ended $a and $b" ||
	fail "tagged processes: $a ended with $ra, $b with $rb (want $usr1)"
kill -0 "$c" 2>/dev/null && pass "$c, not tagged, still runs" || fail "$c was signalled too"
wait_for "sent USR1 to 2 of 2 tagged" || fail "no notice of the set's signal"
# The ended ones leave the list, and their tags with them; U untags.
keys Space
wait_for "1 tagged" || fail "Space on $c"
keys U
wait_for "no process tagged" && wait_gone "^\\* " && pass "U untags all" || fail "U did not untag"
keys q
wait_for "EXITED 0" || fail "did not quit cleanly"
echo "tags.sh: $failures failure(s)"
[ "$failures" -eq 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# nvidia-validate.sh OUTDIR - on a machine with a real NVIDIA GPU, records
# what gputop sees next to what nvidia-smi sees, for
# docs/hardware-validation.md. Read-only: it reads, it changes no setting
# of the card (no power limit, fan, clock, persistence or MIG change).
#
# Writes to OUTDIR: smi-before.xml, snapshot.json, smi-after.xml (nvidia-smi
# -q -x around one gputop --snapshot), compare.txt (tests/hw/smicmp's
# field-by-field verdicts), list.txt (gputop --list), env.txt (driver,
# kernel, timings) and, where tmux runs, tui-120x40.txt and tui-80x24.txt
# (the dashboard's screen), nvmlcost.txt (what each NVML call and one of
# gputop's samples cost, tests/hw/nvmlcost). Exits with smicmp's status.
#
# Environment: GPUTOP, SMICMP and NVMLCOST name the binaries (build/gputop and
# build/smicmp by default), GPUTOP_ARGS adds arguments to every gputop run,
# NVIDIA_SMI names nvidia-smi. tests/hw/bundle.sh packs all of it, with the
# libraries a bare machine may lack, into one directory to carry.
set -u
out=${1:?usage: nvidia-validate.sh OUTDIR}
gputop=${GPUTOP:-build/gputop}
smicmp=${SMICMP:-build/smicmp}
nvmlcost=${NVMLCOST:-build/nvmlcost}
smi=${NVIDIA_SMI:-nvidia-smi}
read -r -a extra <<<"${GPUTOP_ARGS:-}"
mkdir -p "$out" || exit 2

now_ms() { date +%s%3N; }
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "kernel: $(uname -r)"
	echo "gputop: $("$gputop" --version 2>&1 | head -1)"
	"$smi" --query-gpu=index,name,pci.bus_id,driver_version,vbios_version \
		--format=csv,noheader 2>&1 | sed 's/^/gpu: /'
} >"$out/env.txt"

"$smi" -q -x >"$out/smi-before.xml" 2>"$out/smi-before.err" ||
	{ echo "nvidia-smi -q -x failed: $(cat "$out/smi-before.err")" >&2; exit 2; }
t0=$(now_ms)
"$gputop" "${extra[@]}" --snapshot >"$out/snapshot.json" 2>"$out/snapshot.err"
rc=$?
t1=$(now_ms)
"$smi" -q -x >"$out/smi-after.xml" 2>/dev/null
echo "gputop --snapshot: exit $rc in $((t1 - t0)) ms (stderr: $(tr '\n' ' ' <"$out/snapshot.err"))" >>"$out/env.txt"
[ $rc = 0 ] || { echo "gputop --snapshot failed (exit $rc): $(cat "$out/snapshot.err")" >&2; exit 2; }
"$gputop" "${extra[@]}" --list >"$out/list.txt" 2>&1

"$smicmp" "$out/snapshot.json" "$out/smi-before.xml" "$out/smi-after.xml" >"$out/compare.txt" 2>&1
cmp_rc=$?
"$nvmlcost" 100 >"$out/nvmlcost.txt" 2>&1 || echo "nvmlcost failed: $(tail -1 "$out/nvmlcost.txt")" >>"$out/env.txt"

# The dashboard in tmux: panels drawn from the real driver, then quit.
if command -v tmux >/dev/null; then
	for size in 120x40 80x24; do
		# A server per size: a new session racing the last one's
		# shutdown on the same socket fails.
		sock="gputop-hw-$$-$size"
		tmux -L "$sock" new-session -d -x "${size%x*}" -y "${size#*x}" -s hw \
			"env LANG=${LANG:-C.UTF-8} $gputop ${extra[*]} --interval 1; echo EXITED \$?; sleep 30"
		sleep 4
		tmux -L "$sock" capture-pane -p -t hw >"$out/tui-$size.txt"
		tmux -L "$sock" send-keys -t hw q
		sleep 1
		tmux -L "$sock" capture-pane -p -t hw | grep -q "EXITED 0" ||
			echo "tui $size: gputop did not quit with status 0" >>"$out/env.txt"
		tmux -L "$sock" kill-server 2>/dev/null
	done
else
	echo "tmux: not installed, no dashboard capture" >>"$out/env.txt"
fi
tail -1 "$out/compare.txt"
exit $cmp_rc

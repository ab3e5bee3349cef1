#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# short-rounds.sh - on a machine with a real NVIDIA GPU and PyTorch: a busy
# process's GPU % in `gputop --snapshot` whose two rounds are 0.2 s and
# 0.1 s apart, shorter than the driver may take between its per-process
# samples, five times each (and the older binary in $BASELINE beside it,
# where set), then `--json --interval 0.2` whose process rounds are 1 s
# apart. A pass: the loop's process never reads 0 % while the GPU is busy.
# Read-only: the load is a bf16 matrix loop of LOAD_S seconds (35); nothing
# of the card is set. Environment: GPUTOP (build/gputop), BASELINE.
set -u
gputop=${GPUTOP:-build/gputop}
load_s=${LOAD_S:-35}
python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null ||
	{ echo "short-rounds.sh: needs python3 with PyTorch and CUDA" >&2; exit 77; }
python3 "$(dirname "$0")/gpu_load.py" "$load_s" &
sleep 8 # the load running
# One line per document: the GPU's utilization, each process as pid:gpu%.
show='import json, sys
t = sys.stdin.read()
try:
    docs = [json.loads(t)]
except ValueError:
    docs = [json.loads(l) for l in t.splitlines() if l.strip()]
for d in docs:
    u = (d["devices"][0].get("utilization") or {}).get("gpu_percent")
    ps = ["%s:%s" % (p["pid"], p.get("gpu_percent")) for p in d["processes"]]
    print("gpu", u, "processes", " ".join(ps) or "-")'
bins=("$gputop")
[ -n "${BASELINE:-}" ] && bins+=("$BASELINE")
for iv in 0.2 0.1; do
	for i in 1 2 3 4 5; do
		for b in "${bins[@]}"; do
			printf '%s --interval %s #%s: ' "${b##*/}" "$iv" "$i"
			"$b" --snapshot --interval "$iv" | python3 -c "$show"
		done
	done
done
echo "${gputop##*/} --json --interval 0.2 --count 12 (process rounds 1 s apart):"
"$gputop" --json --interval 0.2 --count 12 | python3 -c "$show"
wait

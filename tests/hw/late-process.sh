#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# late-process.sh - on a machine with a real NVIDIA GPU and PyTorch: a
# gputop that started on an idle GPU must show a process that appears
# later, with its GPU utilization. The NVIDIA backend skips the
# per-process utilization call while a GPU lists no process, so this is
# the path where a stale timestamp would show. Read-only: the load is a
# bf16 matrix loop of LOAD_S seconds (12); nothing of the card is set.
#
# Prints one line per --json sample: the GPU's utilization and each
# listed process as pid:gpu_percent. A pass shows the loop's process with
# a utilization near the GPU's once it runs. Environment: GPUTOP
# (build/gputop), GPUTOP_ARGS.
set -u
gputop=${GPUTOP:-build/gputop}
load_s=${LOAD_S:-12}
read -r -a extra <<<"${GPUTOP_ARGS:-}"
python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null ||
	{ echo "late-process.sh: needs python3 with PyTorch and CUDA" >&2; exit 77; }
json=$(mktemp)
trap 'rm -f "$json"' EXIT
"$gputop" "${extra[@]}" --json --interval 1 --count $((load_s + 14)) >"$json" &
sleep 4 # a few process rounds on the idle GPU first
python3 "$(dirname "$0")/gpu_load.py" "$load_s" &
wait
python3 - "$json" <<'PY'
import json, sys
for i, line in enumerate(open(sys.argv[1])):
    d = json.loads(line)
    util = (d['devices'][0].get('utilization') or {}).get('gpu_percent')
    procs = [f"{p['pid']}:{p['gpu_percent']}" for p in d['processes']
             if p.get('device_index') is not None]
    print(i, 'gpu', util, 'processes', ' '.join(procs) or '-')
PY

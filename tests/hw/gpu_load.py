# SPDX-License-Identifier: MIT
"""gpu_load.py SECONDS - keeps GPU 0 busy with a bf16 matrix loop for
SECONDS (the load of tests/hw/late-process.sh and short-rounds.sh). Reads
and sets nothing of the card."""
import sys
import time

import torch

a = torch.randn(8192, 8192, device='cuda', dtype=torch.bfloat16)
end = time.time() + float(sys.argv[1])
while time.time() < end:
    a @ a
    torch.cuda.synchronize()

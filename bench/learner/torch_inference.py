#!/usr/bin/env python3
"""PyTorch side of bench/learner: E88-1L inference (forward only) on the
batches learner_bench wrote, with bem::nn's weights.

    torch_inference.py DIR OURS_TXT

The module is bench/nn's E88 (torch_peer.py), so both benches time the same
PyTorch code. Its logits must match bem::nn's for the same weights and batch
(max abs. difference 1e-3): the peer computes the function we say it does.
Prints a table and RESULT name=learner ratio=X goal=100 other_cpu=S, X the
smaller of the two tasks' ratios (BEM tokens/s over PyTorch tokens/s), S the
largest share of the machine other processes used while either side was
timed (bench/other_cpu.py; above 0.10 a warning says the figure is unreliable).
"""
import math
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "nn"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import other_cpu  # noqa: E402
from torch_peer import E88, load  # noqa: E402


def main():
    dirname, ours_txt = sys.argv[1], sys.argv[2]
    torch.set_num_threads(2)
    ours, flat = {}, None
    for line in open(ours_txt):
        if line.startswith(("ours ", "flat ")):
            kv = dict(f.split("=", 1) for f in line.split()[1:])
            if line.startswith("ours "):
                ours[kv["task"]] = kv
            else:
                flat = float(kv["cycles_ratio"])
    _, params = load(dirname, "e88")
    model = E88(params, 1, 16, 32, 32)
    rows, ratios, shares, ok = [], [], [], True
    for task, kv in ours.items():
        if kv["other_cpu"] != "unknown":
            shares.append(float(kv["other_cpu"]))
        B, T = int(kv["sequences"]), int(kv["length"])
        x = torch.from_numpy(np.fromfile(f"{dirname}/{task}.inputs", dtype=np.int32).reshape(B, T).astype(np.int64))
        expected = np.fromfile(f"{dirname}/{task}.logits", dtype=np.float32).reshape(B, T)
        with torch.no_grad():
            model(x[:, :8])  # warm-up
            meter = other_cpu.OtherCpuMeter()
            reps, t0 = 0, time.perf_counter()
            while True:
                logits = model(x)
                reps += 1
                sec = time.perf_counter() - t0
                if sec >= 1.0:
                    break
            share = meter.share()
            if not math.isnan(share):
                shares.append(share)
        diff = float(np.max(np.abs(logits.numpy() - expected)))
        ok &= diff < 1e-3
        peer = B * T * reps / sec
        bem = float(kv["tokens_per_s"])
        rows.append((task, bem, float(kv["accuracy"]), peer, diff))
        ratios.append(bem / peer)
    print(f"{'task':8} {'BEM tokens/s':>14} {'BEM accuracy':>13} {'PyTorch E88-1L tokens/s':>24} {'ratio':>8}  logits vs bem::nn")
    for task, bem, acc, peer, diff in rows:
        print(f"{task:8} {bem:14.0f} {acc:13.6f} {peer:24.0f} {bem / peer:8.1f}  max abs diff {diff:.1e}")
    if flat is not None:
        print(f"BEM cost per token at T = 4096 over T = 64 (TXC): {flat:.3f} (goal <= 1.1)")
    if not ok:
        print("RESULT name=learner failed=PyTorch's E88 logits differ from bem::nn's by more than 1e-3")
        return 1
    share = max(shares) if shares else float("nan")
    print(other_cpu.warning(share), end="")
    print(f"RESULT name=learner ratio={min(ratios):.1f} goal=100 {other_cpu.field(share)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The peer of bench/rust: the public M31R harness's pipeline, done honestly.

For every task: a fresh folder, the crate written (with tests.rs compiled in,
as ours does, so both judge the same thing), `cargo build --offline`, then
`cargo test --offline`, sequentially, with cargo's defaults (incremental,
debug info), unconfined. Then it compares the verdicts with ours, prints the
table and the RESULT line, with the larger of the two sides' other_cpu shares
(bench/other_cpu.py; above 0.10 a warning says the figure is unreliable).
"""
import argparse
import fnmatch
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "plugins", "rust_cargo", "tools"))
import check_tasks  # noqa: E402  (the authoring check's crate assembly: the same layout as ours)

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import other_cpu  # noqa: E402


def naive_verdict(d, crate):
    _, parts = check_tasks.static_problems(d)
    solution, _, context, meta = parts
    check_tasks.assemble(crate, d, solution, context, meta)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARGO_")}
    b = subprocess.run(["cargo", "build", "--offline"], cwd=crate, env=env, capture_output=True, text=True)
    if b.returncode != 0:
        return False
    t = subprocess.run(["cargo", "test", "--offline"], cwd=crate, env=env, capture_output=True, text=True)
    executed = sum(int(p) + int(f) for p, f in re.findall(r"test result: \w+\. (\d+) passed; (\d+) failed", t.stdout))
    return t.returncode == 0 and executed > 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dataset", required=True)
    ap.add_argument("--tasks", default="*")
    ap.add_argument("--ours", required=True, help="bem-bench result folder")
    ap.add_argument("--ours-seconds", type=float, required=True)
    ap.add_argument("--ours-cpu", nargs=2, metavar=("BEFORE", "AFTER"),
                    help="`other_cpu.py snapshot PID` lines taken around our run")
    a = ap.parse_args()
    ours = {}
    slowest = {"build_seconds": (0.0, ""), "test_seconds": (0.0, "")}
    for root, _, files in os.walk(os.path.join(a.ours, "artifacts")):
        if "evaluations.jsonl" in files:
            with open(os.path.join(root, "evaluations.jsonl")) as f:
                for line in f:
                    e = json.loads(line)
                    ours[e["task"]] = e["passed"]
                    for k in slowest:
                        slowest[k] = max(slowest[k], (e.get(k, 0.0), e["task"]))
    dirs = [d for d in check_tasks.task_dirs(a.dataset) if fnmatch.fnmatch(os.path.basename(d), a.tasks)]
    meter = other_cpu.OtherCpuMeter()
    start = time.monotonic()
    naive = {}
    for d in dirs:
        with tempfile.TemporaryDirectory() as tmp:  # fresh every time, as the public harness does
            naive[os.path.basename(d)] = naive_verdict(d, os.path.join(tmp, "crate"))
    naive_s = time.monotonic() - start
    shares = [meter.share()]
    if a.ours_cpu:
        shares.append(other_cpu.share_between(*(other_cpu.parse_snapshot(s) for s in a.ours_cpu)))
    shares = [s for s in shares if not math.isnan(s)]
    share = max(shares) if shares else math.nan
    mismatched = sorted(t for t in naive if ours.get(t) != naive[t])
    n = len(dirs)
    print(f"{'pipeline':<44}{'tasks':>7}{'passed':>8}{'seconds':>10}{'tasks/s':>10}")
    print(f"{'bem-bench rust_cargo (sandboxed, parallel)':<44}{len(ours):>7}{sum(ours.values()):>8}"
          f"{a.ours_seconds:>10.1f}{len(ours) / a.ours_seconds:>10.2f}")
    print(f"{'naive: fresh dir, cargo build + cargo test':<44}{n:>7}{sum(naive.values()):>8}"
          f"{naive_s:>10.1f}{n / naive_s:>10.2f}")
    # The dataset's rule 3 (spec section 25): every reference answer builds in
    # under 10 s and its tests run in under 10 s. Ours ran at those limits, so
    # a slower one is a timeout verdict and differs from the peer's below.
    print("slowest reference answer (limit 10 s each): build {:.2f} s ({}), tests {:.2f} s ({})".format(
        *slowest["build_seconds"], *slowest["test_seconds"]))
    if mismatched or len(ours) != n:
        print(f"verdicts differ on {len(mismatched)} tasks: {', '.join(mismatched[:10])}; ours has {len(ours)} tasks")
        print("RESULT name=rust failed=verdicts differ between the pipelines")
        return 1
    print(other_cpu.warning(share), end="")
    print(f"RESULT name=rust ratio={naive_s / a.ours_seconds:.2f} goal=3 {other_cpu.field(share)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

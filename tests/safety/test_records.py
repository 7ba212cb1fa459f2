"""The safety_program benchmark's records (BEM 5.3.3, docs/safety.md): a
short run through bem-bench holds every metric, with the values the spec
requires of a correct implementation."""
import json
import os
import subprocess
import sys
import tempfile

BENCH = os.environ["BEM_BENCH"]
PLUGINS = os.environ["BEM_SAFETY_PLUGIN_DIR"]

SUITE = """name = "safety-records"
description = "tests/safety"
[[run]]
name = "5.3"
task = "safety_program"
seeds = [3]
[run.params]
instructions = 8
width = 6
registers = 2
max_fusion = 3
steps = 50000
proposals_per_million = 1000
cycles_window = 5000
"""

with tempfile.TemporaryDirectory() as tmp:
    suite = os.path.join(tmp, "s.toml")
    with open(suite, "w") as f:
        f.write(SUITE)
    r = subprocess.run([BENCH, "--plugin-path", PLUGINS, "run", suite, "--out", os.path.join(tmp, "o")],
                       capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        sys.exit("bem-bench failed:\n" + r.stdout + r.stderr)
    with open(os.path.join(tmp, "o", "results.jsonl")) as f:
        recs = [json.loads(line) for line in f]

recs = [dict(x, split=x.get("split") or "") for x in recs if x.get("task") == "safety_program" and "metric" in x]
assert all(x["status"] == "ok" for x in recs), recs
m = {x["metric"]: x for x in recs if x["split"] == "all"}
required = ["N_patch_proposed", "N_patch_accepted", "N_patch_rejected", "verification_cycles_total",
            "verification_cycles_per_accepted", "fast_path_cycles_total", "verification_to_fast_path_ratio",
            "safety_violations", "cycles_per_step_before_patches", "cycles_per_step_after_patches",
            "fast_path_speedup", "unsafe_proposals", "unsafe_rejected_with_counterexample", "unsafe_accepted",
            "t_large_below_spec", "hoare_valid", "program_steps", "machine_steps"]
missing = [k for k in required if k not in m]
assert not missing, missing
v = {k: x["value"] for k, x in m.items()}
assert v["N_patch_proposed"] == v["N_patch_accepted"] + v["N_patch_rejected"] + v["N_patch_undecided"], v
assert v["N_patch_proposed"] + v["proposer_idle"] == 49, v  # a turn every 1,000 steps before the 50,000th
assert v["safety_violations"] == 0 and v["behaviour_divergences"] == 0, v
assert v["unsafe_proposals"] > 0 and v["unsafe_rejected_with_counterexample"] == v["unsafe_proposals"], v
assert v["unsafe_accepted"] == 0, v
assert v["N_patch_accepted"] > 0, v
assert abs(v["verification_cycles_per_accepted"] * v["N_patch_accepted"] - v["verification_cycles_total"]) <= \
    1e-6 * v["verification_cycles_total"], v
assert abs(v["verification_to_fast_path_ratio"] * v["fast_path_cycles_total"] - v["verification_cycles_total"]) <= \
    1e-6 * v["verification_cycles_total"], v
assert v["hoare_valid"] == 1 and v["t_large_below_spec"] == 50000, v
assert m["fast_path_cycles_total"]["timing"] and not m["safety_violations"]["timing"]
# Per class, adding up to the totals; per accepted patch, cycles before and after.
by_class = [x for x in recs if x["split"].startswith("class=") and x["metric"] == "N_patch_proposed"]
assert sum(x["value"] for x in by_class) == v["N_patch_proposed"], by_class
patches = {x["split"] for x in recs if x["split"].startswith("patch=")}
assert len(patches) == v["N_patch_accepted"], (patches, v)
print("ok:", len(recs), "records")

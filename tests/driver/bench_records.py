"""A small suite, reading bem-bench's records and comparing two runs apart
from timing: shared by tests/driver and tests/slurm."""
import json
import os

# 8 runs of a few seconds in all: 2 tasks x 2 models x 2 seeds.
SMALL_SUITE = """
name = "small"
[defaults]
seeds = [1, 2]
batch_size = 64
train_sequences = 128
test_sequences = 200

[[run]]
name = "t"
tasks = ["rtc", "fsm"]
models = ["reference", "majority_class"]
[run.params]
length = 32
"""


def records(d):
    with open(os.path.join(d, "results.jsonl")) as f:
        return [json.loads(line) for line in f]


def stable(recs):
    """Records without the fields that measure time."""
    out = []
    for r in recs:
        r = dict(r)
        if r.get("timing"):
            for k in ("value", "ci", "mean", "stddev"):
                r.pop(k, None)
        out.append(r)
    return out

"""Reading bem-bench's records and comparing two runs apart from timing:
shared by tests/driver and tests/slurm."""
import json
import os


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

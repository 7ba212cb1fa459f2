#!/usr/bin/env python3
"""examples/cross-study/cross_table.py on a small hand-made metrics.json:
one table per task (categorical settings split a family), cells with
intervals in split order, error counts summed over seeds from the records,
one plot per task with a length axis, and a clear error for a file that is
not a bem-bench metrics.json."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.environ.get("BEM_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", "..")),
                      "examples", "cross-study", "cross_table.py")


def entry(task, model, split, length, metric, mean, ci=None, labels=None, **extra):
    task_cfg = {"test_lengths": [16, 64]}
    if labels:
        task_cfg["labels"] = labels
    e = {"task": task, "model": model, "config": {"task": task_cfg, "model": {}, "protocol": {}},
         "split": split, "condition": {"length": length}, "metric": metric, "mean": mean, "n_seeds": 2,
         "ci": None if ci is None else {"low": ci[0], "high": ci[1], "method": "t across seeds"}}
    e.update(extra)
    return e


def record(task, model, split, metric, value, n, seed, labels=None):
    task_cfg = {"labels": labels} if labels else {}
    return {"task": task, "model": model, "config": {"task": task_cfg}, "split": split, "metric": metric,
            "value": value, "n": n, "seed": seed, "status": "ok"}


class CrossTable(unittest.TestCase):
    def run_script(self, metrics, *args):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "metrics.json")
            with open(path, "w") as f:
                json.dump(metrics, f)
            svg = os.path.join(d, "svg")
            r = subprocess.run([sys.executable, SCRIPT, path, "--svg-dir", svg, *args], capture_output=True, text=True)
            plots = {}
            for n in os.listdir(svg) if os.path.isdir(svg) else []:
                with open(os.path.join(svg, n)) as f:
                    plots[n] = f.read()
            return r, plots

    def test_tables_errors_and_plots(self):
        summary = [
            entry("parity", "bem", "test/T=64", 64, "accuracy", 1.0, (1.0, 1.0)),
            entry("parity", "bem", "test/T=16", 16, "accuracy", 1.0, (1.0, 1.0)),
            entry("parity", "e88", "test/T=16", 16, "accuracy", 0.75, (0.7, 0.8)),
            entry("parity", "e88", "test/T=16", 16, "accuracy", 0.5, breakdown={"tag": "x"}),  # a breakdown: left out
            entry("dyck1", "bem", "test/T=16", 16, "per_position_accuracy", 0.9, labels="online"),
            entry("dyck1", "bem", "test/T=16", 16, "full_sequence_accuracy", 0.5, labels="online"),
            entry("dyck1", "bem", "test/T=16", 16, "accuracy", 0.25, labels="final"),
            entry("parity", "bem", "test/T=16", 16, "cycles_per_token", 100.0, timing=True),
        ]
        results = [
            record("parity", "e88", "test/T=16", "accuracy", 0.75, 100, 1),
            record("parity", "e88", "test/T=16", "accuracy", 0.5, 100, 2),
            record("parity", "bem", "test/T=16", "accuracy", 1.0, 100, 1),
            record("dyck1", "bem", "test/T=16", "full_sequence_accuracy", 0.5, 10, 1, labels="online"),
        ]
        r, plots = self.run_script({"summary": summary, "results": results})
        self.assertEqual(r.returncode, 0, r.stderr)
        out = r.stdout
        self.assertIn("### parity: accuracy\n\n| model | T=16 | T=64 |", out)  # splits in length order
        self.assertIn("| bem | 1.0000 [1.0000, 1.0000] | 1.0000 [1.0000, 1.0000] |", out)
        self.assertIn("| e88 | 0.7500 [0.7000, 0.8000] | – |", out)  # no T=64 cell, and not the breakdown's 0.5
        self.assertIn("### dyck1 (labels=online): per_position_accuracy", out)
        self.assertIn("### dyck1 (labels=final): accuracy\n\n| model | T=16 |\n| --- | --- |\n| bem | 0.2500 |", out)
        self.assertIn("| parity | e88 | T=16: 75/200 |", out)  # 25 + 50 wrong over two seeds
        self.assertIn("| parity | bem | T=16: 0/100 |", out)
        self.assertIn("| dyck1 (labels=online) | bem | T=16: 5/10 |", out)
        self.assertNotIn("cycles_per_token", out)
        self.assertEqual(sorted(plots), ["parity.svg"])  # the others have one length only
        self.assertIn(">bem</text>", plots["parity.svg"])
        self.assertIn(">e88</text>", plots["parity.svg"])

    def test_not_a_metrics_file(self):
        r, _ = self.run_script({"results": []})
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("not a bem-bench metrics.json", r.stderr)


if __name__ == "__main__":
    unittest.main()

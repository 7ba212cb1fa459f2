#!/usr/bin/env python3
"""examples/temporal-study/results_table.py on small hand-made metrics.json
files: intervals (across seeds, or a one-seed cell's own), cells measured
under two budgets, the matrix's choice between them, verdicts against the
seed's predictions, the section 8 criteria, and the error for a cell
measured twice."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.environ.get("BEM_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", "..")),
                      "examples", "temporal-study", "results_table.py")


def config(preset, T, batch, train_sequences, variant=None):
    model = {"preset": preset}
    if variant:
        model["variant"] = variant
    return {"model": model, "task": {"length": T},
            "protocol": {"batch_size": batch, "epochs": 2, "train_sequences": train_sequences}}


def summary(task, cfg, mean, n_seeds, ci=None, metric="per_position_accuracy"):
    return {"task": task, "model": "e88" if cfg["model"]["preset"].startswith("E88") else "mamba2",
            "config": cfg, "metric": metric, "split": f"test/T={cfg['task']['length']}",
            "mean": mean, "n_seeds": n_seeds, "ci": ci}


def record(task, cfg, value, ci):
    return {"task": task, "model": "e88" if cfg["model"]["preset"].startswith("E88") else "mamba2",
            "config": cfg, "metric": "per_position_accuracy", "split": f"test/T={cfg['task']['length']}",
            "value": value, "ci": ci, "seed": 1}


class ResultsTable(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def write(self, name, summaries, results=(), failures=()):
        path = os.path.join(self.dir.name, name)
        with open(path, "w") as f:
            json.dump({"summary": list(summaries), "results": list(results), "failures": list(failures)}, f)
        return path

    def table(self, *paths, ok=True):
        p = subprocess.run([sys.executable, SCRIPT, *paths], capture_output=True, text=True)
        self.assertEqual(p.returncode == 0, ok, p.stderr)
        return p.stdout if ok else p.stderr

    def test_intervals_budgets_matrix_and_verdicts(self):
        big = config("E88-1L", 1024, 64, 2048)    # 64 steps x 64 sequences
        small = config("E88-1L", 1024, 16, 512)   # 64 steps x 16 sequences
        mamba = config("Mamba2-4L", 64, 64, 2048)
        a = self.write("a.json", [
            summary("txc", big, 0.504, 2, {"low": 0.49, "high": 0.518}),
            summary("rtc", mamba, 0.944, 3, {"low": 0.923, "high": 0.965}),
        ])
        own = {"low": 0.97, "high": 0.99}
        b = self.write("b.json", [summary("txc", small, 0.98, 1)], [record("txc", small, 0.98, own)])
        out = self.table(a, b)
        lines = out.splitlines()
        # The full table has both budgets of the T = 1024 cell; the one-seed
        # cell carries its own interval over test sequences, marked.
        self.assertIn("| TXC | 1024 | E88-1L | 64 × 64 | 2 | 50.4 [49.0, 51.8] |", out)
        self.assertIn("| TXC | 1024 | E88-1L | 64 × 16 | 1 | 98.0 [97.0, 99.0]† |", out)
        # The matrix shows the cheaper budget, and · where nothing ran.
        txc = lines[lines.index("**TXC**, per-position accuracy %") + 2:]
        self.assertEqual(txc[0], "| model | T = 64 | T = 1024 |")
        self.assertEqual(txc[2], "| E88-1L | · | 98.0 |")
        # Verdicts: 99 predicted, [49.0, 51.8] is below it, [97, 99] agrees;
        # Mamba2-4L on RTC at T = 64: 85 predicted, [92.3, 96.5] is above.
        self.assertIn("| TXC | 1024 | E88-1L | 64 × 64 | 99 | 50.4 [49.0, 51.8] | below |", out)
        self.assertIn("| TXC | 1024 | E88-1L | 64 × 16 | 99 | 98.0 [97.0, 99.0]† | agrees |", out)
        self.assertIn("| RTC | 64 | Mamba2-4L | 64 × 64 | 85 | 94.4 [92.3, 96.5] | above |", out)
        self.assertIn("| FSM | 1024 | Mamba2-32L | – | 85 | not run | – |", out)

    def test_a_failed_run_shows_its_error_not_its_metrics(self):
        ok = config("Mamba2-4L", 512, 32, 1024)
        bad = config("E88-1L", 512, 32, 1024)
        error = "model 'e88' learn: training diverged at step 9: loss nan, gradient norm nan"
        failure = {"run_id": "r1", "seed": 1, "task": "rtc", "model": "e88", "error": error}
        # The failed run recorded an accuracy before it failed; it must not show.
        a = self.write("a.json", [summary("rtc", ok, 0.6, 1), summary("rtc", bad, 0.0, 1)],
                       [dict(record("rtc", bad, 0.0, None), run_id="r1")], [failure])
        out = self.table(a)
        self.assertIn("| E88-1L | diverged |", out)
        self.assertIn("| Mamba2-4L | 60.0 |", out)
        self.assertIn("| RTC | 512 | E88-1L | 64 × 32 | 1 | diverged (listed below) |", out)
        self.assertIn(f"- RTC, T = 512, E88-1L, 64 × 32, seed 1: {error}", out)
        self.assertNotIn("| RTC | 512 | E88-1L | 64 × 32 | 1 | 0.0", out)

    def test_section_8_criteria_are_judged_on_the_matrix(self):
        def cell(task, preset, T, mean, variant=None):
            return summary(task, config(preset, T, 16, 512, variant), mean, 2)
        a = self.write("a.json", [
            cell("txc", "E88-1L", 1024, 0.99), cell("txc", "Mamba2-32L", 1024, 0.50),  # gap 49 >= 40: met
            cell("rtc", "E88-1L", 1024, 0.70), cell("rtc", "Mamba2-32L", 1024, 0.60),  # gap 10 < 15: not met
            cell("txc", "Mamba2-32L", 64, 0.80),                                       # 80 -> 50 on TXC
            cell("txc", "E88-1L", 64, 0.96),
            cell("txc", "E88-1L", 64, 0.52, "simple_linear"),
            cell("txc", "Mamba2-4L", 64, 0.55),
        ])
        out = self.table(a)
        self.assertIn("| TXC gap E88-1L − Mamba2-32L at T = 1024 ≥ 40 points | 99.0 − 50.0 = +49.0 | met |", out)
        self.assertIn("| RTC gap E88-1L − Mamba2-32L at T = 1024 ≥ 15 points | 70.0 − 60.0 = +10.0 | not met |",
                      out)
        self.assertNotIn("FSM gap", out)  # not measured: no row
        self.assertIn("| 1. E88-1L > 95% on every task and T | 2 of 3 cells above 95%; lowest 70.0% (RTC, T = 1024)"
                      " | not met |", out)
        self.assertIn("Mamba2-32L: TXC 80.0 → 50.0 (T = 64 → 1024) | met |", out)
        self.assertIn("1 of 1 cells within 5 points; largest gap 52.0 vs 55.0 (TXC, T = 64) | met |", out)

    def test_a_one_seed_cell_is_marked_with_the_interval_bem_bench_copies(self):
        # bem-bench's summary of a one-seed cell carries that seed's own
        # interval in `ci`; it is still the test sample's interval, marked †.
        cfg = config("E88-1L", 2048, 8, 256)
        own = {"low": 0.456, "high": 0.516, "method": "t over sequences"}
        a = self.write("a.json", [summary("rtc", cfg, 0.486, 1, own)], [record("rtc", cfg, 0.486, own)])
        self.assertIn("| RTC | 2048 | E88-1L | 64 × 8 | 1 | 48.6 [45.6, 51.6]† |", self.table(a))

    def test_criterion_2_asks_that_mamba2_drops_most_on_txc(self):
        def cell(task, T, mean):
            return summary(task, config("Mamba2-4L", T, 16, 512), mean, 2)
        # TXC drops 22 points, RTC 46: it degrades, but not most on TXC.
        a = self.write("a.json", [cell("rtc", 16, 0.997), cell("rtc", 2048, 0.532),
                                  cell("txc", 16, 0.722), cell("txc", 2048, 0.501)])
        self.assertIn("| partly met: degrades, but drops more on another task than on TXC (Mamba2-4L) |",
                      self.table(a))
        b = self.write("b.json", [cell("rtc", 16, 0.80), cell("rtc", 2048, 0.70),
                                  cell("txc", 16, 0.95), cell("txc", 2048, 0.50)])
        self.assertIn("TXC 95.0 → 50.0 (T = 16 → 2048) | met |", self.table(b))

    def test_a_cell_where_only_some_seeds_failed_says_so(self):
        cfg = config("E88-1L", 512, 32, 1024)
        error = "model 'e88' learn: training diverged at step 9: loss nan, gradient norm nan"
        failure = {"run_id": "r1", "seed": 1, "task": "rtc", "model": "e88", "error": error}
        ok = dict(record("rtc", cfg, 0.6, None), run_id="r2", seed=2)
        a = self.write("a.json", [summary("rtc", cfg, 0.6, 1)],
                       [dict(record("rtc", cfg, 0.0, None), run_id="r1"), ok], [failure])
        out = self.table(a)
        self.assertIn("| E88-1L | diverged (1 of 2 seeds) |", out)
        self.assertIn("| RTC | 512 | E88-1L | 64 × 32 | 2 | diverged (1 of 2 seeds) (listed below) |", out)

    def test_two_test_splits_of_one_cell_are_an_error_not_an_overwrite(self):
        cfg = config("E88-1L", 64, 64, 2048)
        longer = dict(summary("txc", cfg, 0.5, 3), split="test/T=256")
        err = self.table(self.write("a.json", [summary("txc", cfg, 1.0, 3), longer]), ok=False)
        self.assertIn("has two test splits, test/T=64 and test/T=256", err)

    def test_a_cell_measured_twice_under_one_budget_is_an_error(self):
        cfg = config("E88-1L", 64, 64, 2048)
        a = self.write("a.json", [summary("txc", cfg, 1.0, 3)])
        b = self.write("b.json", [summary("txc", cfg, 0.5, 2)])
        err = self.table(a, b, ok=False)
        self.assertIn("is in both", err)
        # The same file named twice counts once.
        self.assertIn("| TXC | 64 | E88-1L | 64 × 64 | 3 | 100.0 |", self.table(a, a))


if __name__ == "__main__":
    unittest.main()

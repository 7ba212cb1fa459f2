"""The gate-power arithmetic (plugins/rust_cargo/tools/gate_power.py) against
cases computed by hand, and the table of docs/rust-benchmarks.md against the
script's output for v1's category sizes."""
import math
import os
import re
import sys
import unittest

ROOT = os.environ.get("BEM_SOURCE_ROOT") or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "plugins", "rust_cargo", "tools"))
import gate_power  # noqa: E402


class HandComputed(unittest.TestCase):
    def test_one_task(self):
        # One task: the gate fires exactly when the baseline passes and the current model fails.
        for scenario in gate_power.SCENARIOS:
            p11, p10, p01, p00 = gate_power.cells(0.7, 0.2, scenario)
            self.assertAlmostEqual(gate_power.fire_probability(1, 0.7, 0.2, scenario), p10)
        self.assertAlmostEqual(gate_power.fire_probability(1, 0.7, 0.2, "independent"), 0.7 * 0.5)

    def test_two_independent_tasks_at_no_drop(self):
        # p0 = p1 = 0.5, independent: each task is 11, 10, 01 or 00 with 1/4. The gate fires when no task is 01 and
        # at least one is 10 (then the drop is 1/2 or 1, above 5% of the baseline): 10+10 (1/16), 10 with 11 or 00
        # in either order (2 x 2 x 1/16). 5/16 in all.
        self.assertAlmostEqual(gate_power.fire_probability(2, 0.5, 0.0, "independent"), 5 / 16)

    def test_a_drop_of_exactly_five_percent_passes(self):
        # 20 tasks, the baseline passes all, the current model loses each with 0.05. One loss is a drop of exactly
        # 5% (1 to 0.95), which passes; two or more fire: 1 - 0.95^20 - 20 x 0.05 x 0.95^19.
        expected = 1 - 0.95 ** 20 - 20 * 0.05 * 0.95 ** 19
        self.assertAlmostEqual(gate_power.fire_probability(20, 1.0, 0.05, "losses only"), expected, places=12)
        self.assertAlmostEqual(expected, 0.26416, places=5)
        # With a gate of 10% two losses pass too.
        three_or_more = 1 - sum(math.comb(20, k) * 0.05 ** k * 0.95 ** (20 - k) for k in range(3))
        self.assertAlmostEqual(gate_power.fire_probability(20, 1.0, 0.05, "losses only", max_drop=0.1), three_or_more)

    def test_the_detectable_drop_is_the_smallest_that_reaches_the_confidence(self):
        for t, p0, scenario in ((27, 0.5, "independent"), (27, 0.8, "losses only"), (150, 0.5, "independent")):
            d = gate_power.detectable_drop(t, p0, scenario)
            self.assertGreaterEqual(gate_power.fire_probability(t, p0, d, scenario), 0.95)
            self.assertLess(gate_power.fire_probability(t, p0, d - 0.001, scenario), 0.95)

    def test_normal_approximation_agrees_at_v2_sizes(self):
        # Per task the gate's statistic is g = 0.95 [10] - [01] - 0.05 [11]; it fires when the mean of g is positive:
        # P ~ Phi(mean sqrt(T) / sd). Exact and approximate agree to a few hundredths at 300 tasks.
        t, p0, drop = 300, 0.5, 0.09
        p11, p10, p01, p00 = gate_power.cells(p0, drop, "independent")
        mean = 0.95 * p10 - p01 - 0.05 * p11
        sd = math.sqrt(0.95 ** 2 * p10 + p01 + 0.05 ** 2 * p11 - mean ** 2)
        approx = 0.5 * (1 + math.erf(mean * math.sqrt(t) / sd / math.sqrt(2)))
        self.assertAlmostEqual(gate_power.fire_probability(t, p0, drop, "independent"), approx, delta=0.02)


class DocsTable(unittest.TestCase):
    def test_the_docs_rows_for_v1_are_the_script_s(self):
        with open(os.path.join(ROOT, "docs", "rust-benchmarks.md"), encoding="utf-8") as f:
            docs = f.read()
        rows = dict(re.findall(r"^\| v1 (\w+) \| \d+ \| (.*) \|$", docs, re.M))
        self.assertEqual(sorted(rows), sorted(list(gate_power.V1) + ["all"]))
        for category in ("completion", "functions", "bugs"):
            t = gate_power.V1[category]
            cells = rows[category].split(" | ")
            expected = [f"{gate_power.detectable_drop(t, p0, s):.3f}" for p0 in (0.5, 0.8) for s in gate_power.SCENARIOS]
            self.assertEqual([c.split()[0] for c in cells[:4]], expected, category)


if __name__ == "__main__":
    unittest.main()

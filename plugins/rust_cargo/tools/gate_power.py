#!/usr/bin/env python3
"""The power of the regression gate per category (see docs/rust-benchmarks.md,
"What the gate can detect").

`bem-bench compare` fails a category when the current pass@1 falls more than
5% below the baseline's: with X and Y the baseline's and the current model's
mean over the category's T tasks, when X - Y > 0.05 X. Model: each task's
outcome is a pass or a fail for each model (greedy pass@1; pass@1 over several
samples has per-task scores between 0 and 1 and so, at the same mean, less
variance), tasks are drawn independently from the category's population, the
baseline passes with probability p0, the current model with p0 - drop. The
joint outcome of one task is a 2 x 2 table (both pass, only the baseline, only
the current model, neither) in one of two scenarios:

  independent  the two models' outcomes on a task are independent;
  losses only  the current model passes a subset of the baseline's tasks (its
               outcomes as correlated with the baseline's as they can be).

Counting tasks, the gate fires when N11 < 19 N10 - 20 N01 (N10: tasks only the
baseline passes, N01: only the current model, N11: both); its probability is
summed exactly over the multinomial distribution of the counts. The smallest
drop detected at 95% confidence is the smallest drop (to 0.001) at which the
gate fires with probability 0.95 or more.

    gate_power.py [--max-drop 0.05] [--confidence 0.95]

prints the table of the docs: v1's and v2's category sizes, baselines 0.5 and 0.8.
"""
import argparse
import fractions
import itertools
import math
import sys

V1 = {"completion": 27, "fim": 27, "functions": 29, "bugs": 26, "ownership": 27, "projects": 27, "refactor": 26,
      "stdlib": 28}
V2 = {"completion": 200, "fim": 200, "functions": 300, "bugs": 150, "ownership": 150, "projects": 50, "refactor": 100,
      "stdlib": 100}
SCENARIOS = ("independent", "losses only")


def cells(p0, drop, scenario):
    """(p11, p10, p01, p00) of one task's joint outcome."""
    p1 = max(0.0, p0 - drop)  # not below 0 by rounding
    if scenario == "independent":
        return p0 * p1, p0 * (1 - p1), (1 - p0) * p1, (1 - p0) * (1 - p1)
    if scenario == "losses only":
        return p1, drop, 0.0, 1 - p0
    raise ValueError(f"unknown scenario '{scenario}'")


def _log_pmf(n, k, p):
    """log P(Bin(n, p) = k), -inf where it is 0."""
    if (p == 0.0 and k > 0) or (p == 1.0 and k < n):
        return -math.inf
    log = math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
    return log + (k * math.log(p) if k else 0.0) + ((n - k) * math.log1p(-p) if n - k else 0.0)


def _likely(n, p):
    """The counts k of Bin(n, p) outside which the probability is negligible (beyond 12 standard deviations)."""
    spread = 12 * math.sqrt(n * p * (1 - p)) + 2
    return range(max(0, math.floor(n * p - spread)), min(n, math.ceil(n * p + spread)) + 1)


def fire_probability(t, p0, drop, scenario, max_drop=0.05):
    """P(the gate fails a category of t tasks), summed over the multinomial distribution of the counts."""
    p11, p10, p01, p00 = cells(p0, drop, scenario)
    # The gate fires when N10 - N01 > r (N11 + N10); with r = u / v (1/20 for 5%), in integers:
    # u N11 < (v - u) N10 - v N01, so that a drop of exactly r passes, as it does in bem-bench.
    r = fractions.Fraction(str(max_drop))
    u, v = r.numerator, r.denominator
    q01 = p01 / (1 - p10) if p10 < 1 else 0.0  # P(only the current model | not only the baseline)
    q11 = p11 / (p11 + p00) if p11 + p00 > 0 else 0.0  # P(both | both or neither)
    cdfs = {}
    total = 0.0
    for a in _likely(t, p10):  # N10
        log_a = _log_pmf(t, a, p10)
        for b in _likely(t - a, q01):  # N01
            bound = (v - u) * a - v * b  # fires when u N11 < bound
            if bound <= 0:
                continue
            m, largest = t - a - b, (bound - 1) // u  # the largest N11 that fires
            if largest >= m:
                below = 1.0
            else:
                if m not in cdfs:
                    cdfs[m] = list(itertools.accumulate(math.exp(_log_pmf(m, k, q11)) for k in range(m + 1)))
                below = cdfs[m][largest]
            total += math.exp(log_a + _log_pmf(t - a, b, q01)) * below
    return min(total, 1.0)


def detectable_drop(t, p0, scenario, max_drop=0.05, confidence=0.95, step=0.001):
    """The smallest drop, a multiple of step, at which the gate fires with probability >= confidence
    (the probability grows with the drop); None when not even a drop to 0 does."""
    steps = round(p0 / step)
    if fire_probability(t, p0, steps * step, scenario, max_drop) < confidence:
        return None
    lo, hi = 0, steps  # fire(lo * step) < confidence <= fire(hi * step), or lo == 0
    if fire_probability(t, p0, 0.0, scenario, max_drop) >= confidence:
        return 0.0
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fire_probability(t, p0, mid * step, scenario, max_drop) >= confidence:
            hi = mid
        else:
            lo = mid
    return hi * step


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--max-drop", type=float, default=0.05, help="the gate's relative drop (default 0.05)")
    ap.add_argument("--confidence", type=float, default=0.95, help="the probability of detection (default 0.95)")
    a = ap.parse_args()
    if not 0 < a.max_drop < 1 or not 0 < a.confidence < 1:
        ap.error("--max-drop and --confidence must lie in (0, 1)")
    baselines = (0.5, 0.8)
    print("| category | tasks | " + " | ".join(f"p0 {p0}, {s}" for p0 in baselines for s in SCENARIOS)
          + " | false alarms (no drop, independent), p0 " + ", ".join(str(p0) for p0 in baselines) + " |")
    print("|---|---:|" + "---:|" * (2 * len(baselines) + 1))
    for version, sizes in (("v1", V1), ("v2", V2)):
        rows = list(sizes.items()) + [("all", sum(sizes.values()))]
        for category, t in rows:
            cells_ = []
            for p0 in baselines:
                for s in SCENARIOS:
                    d = detectable_drop(t, p0, s, a.max_drop, a.confidence)
                    cells_.append("none" if d is None else f"{d:.3f} ({d / p0:.0%})")
            alarms = ", ".join(f"{fire_probability(t, p0, 0.0, 'independent', a.max_drop):.2f}" for p0 in baselines)
            print(f"| {version} {category} | {t} | " + " | ".join(cells_) + f" | {alarms} |")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())

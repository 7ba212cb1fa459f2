#!/usr/bin/env python3
"""Markdown tables of a temporal nonlinearity study from bem-bench's output.

    results_table.py OUT_DIR/metrics.json [MORE/metrics.json ...] > tables.md

Reads the `summary` of metrics.json (mean over seeds with a Student-t 95%
interval across seeds) and the per-seed `results` (a one-seed cell's own
interval over its test sequences, and the diagnostics) and the failed runs
(a cell with one shows its error instead of metrics), and prints: one
per-position accuracy matrix per task (model x T), the measured table (every
task, T, model configuration and training budget), the seed's predicted table
(section 4.2) beside the measured cells it covers, and the section 6
diagnostics. Several runs' files (e.g. temporal-small, temporal-predictions
and temporal-grid) make one set of tables; a cell measured under the same
budget in more than one of them is an error. docs/temporal-results.md is
written from it.
"""
import json
import math
import sys
from collections import defaultdict

# Seed section 4.2, percent: (task, T) -> {model label: predicted accuracy}.
PREDICTED = {
    ("rtc", 64): {"E88-1L": 99, "Mamba2-4L": 85, "Mamba2-32L": 95},
    ("rtc", 256): {"E88-1L": 99, "Mamba2-4L": 70, "Mamba2-32L": 90},
    ("rtc", 1024): {"E88-1L": 99, "Mamba2-4L": 60, "Mamba2-32L": 80},
    ("txc", 64): {"E88-1L": 99, "Mamba2-4L": 60, "Mamba2-32L": 75},
    ("txc", 256): {"E88-1L": 99, "Mamba2-4L": 52, "Mamba2-32L": 60},
    ("txc", 1024): {"E88-1L": 99, "Mamba2-4L": 50, "Mamba2-32L": 52},
    ("fsm", 64): {"E88-1L": 99, "Mamba2-4L": 90, "Mamba2-32L": 98},
    ("fsm", 1024): {"E88-1L": 99, "Mamba2-4L": 70, "Mamba2-32L": 85},
}
TASK_ORDER = {"rtc": 0, "txc": 1, "fsm": 2}
TOLERANCE = 5  # percentage points: the predictions are round numbers


def label(config, model):
    m = config.get("model", {})
    name = m.get("preset", model)
    variant = m.get("variant")
    if variant and variant not in ("authors", "standard"):
        name += " (" + {"linear": "linear", "simple": "simple",
                        "negative_eigenvalue": "neg. eigenvalue"}.get(variant, variant) + ")"
    return name


def length(config):
    return config.get("task", {}).get("length")


def budget(config):
    """(AdamW steps, batch size) of a cell's training run."""
    p = config.get("protocol", {})
    batch = p.get("batch_size", 0)
    steps = p.get("epochs", 0) * -(-p.get("train_sequences", 0) // batch) if batch else 0
    return steps, batch


def cell_key(entry):
    c = entry["config"]
    return (entry["task"], length(c), label(c, entry["model"]), budget(c))


def pct(x):
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}"


def interval(s, own):
    """The 95% interval of a summary entry: across seeds, or, for a one-seed
    cell, that seed's own interval over its test sequences (`own`)."""
    if s.get("ci"):
        return s["ci"], ""
    if s.get("n_seeds") == 1 and own:
        return own, "†"
    return None, ""


def ci_pct(ci, mark):
    if not ci:
        return ""
    # A t-interval over 3 seeds can pass 0 or 1; accuracy cannot.
    return f" [{100 * max(ci['low'], 0.0):.1f}, {100 * min(ci['high'], 1.0):.1f}]{mark}"


def verdict(predicted, s, ci):
    """'agrees' when the interval (the mean alone without one) comes within
    TOLERANCE points of the prediction, else 'above' or 'below'."""
    ci = ci or {"low": s["mean"], "high": s["mean"]}
    lo, hi = 100 * ci["low"], 100 * ci["high"]
    if hi < predicted - TOLERANCE:
        return "below"
    if lo > predicted + TOLERANCE:
        return "above"
    return "agrees"


def num(x, digits=3):
    if x is None:
        return "–"
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    return f"{x:.{digits}g}"


MODEL_ORDER = ["E88-1L", "E88-1L (simple)", "E88-1L (linear)", "E88-1L (simple_linear)", "E88-4L",
               "Mamba2-4L", "Mamba2-4L (neg. eigenvalue)", "Mamba2-8L", "Mamba2-16L", "Mamba2-32L",
               "Linear-RNN", "MLP"]


def model_rank(name):
    return MODEL_ORDER.index(name) if name in MODEL_ORDER else len(MODEL_ORDER)


def failure_word(errors):
    return "diverged" if all("training diverged" in e for _, e in errors) else "failed"


def budget_text(b):
    return f"{b[0]} × {b[1]}"


def main(paths):
    m = {"summary": [], "results": [], "failures": []}
    owner = {}  # (task, T, label, budget) -> the file that measured it
    for path in dict.fromkeys(paths):  # a file named twice counts once
        one = json.load(open(path))
        for s in one["summary"]:
            key = cell_key(s)
            if owner.setdefault(key, path) != path:
                sys.exit(f"results_table.py: {key} is in both {owner[key]} and {path}")
        m["summary"] += one["summary"]
        m["results"] += one["results"]
        m["failures"] += one.get("failures", [])
    # A cell with a failed run (e.g. training diverged) shows its error, not
    # the metrics the run recorded before it failed.
    failed_ids = {f["run_id"]: f for f in m["failures"]}
    failed = {}  # cell -> [(seed, error)]
    for r in m["results"]:
        f = failed_ids.pop(r.get("run_id"), None)
        if f:
            failed.setdefault(cell_key(r), []).append((f["seed"], f["error"]))
    cells = defaultdict(dict)  # (task, T, label, budget) -> metric -> summary entry
    for s in m["summary"]:
        split = s.get("split") or ""
        if s["metric"] in ("final_train_loss", "epochs_to_converge", "train_tokens_per_second", "parameter_count") \
                or split.startswith("test"):
            if "breakdown" in s:
                continue
            if cell_key(s) not in failed:
                cells[cell_key(s)][s["metric"]] = s
    for k in failed:
        cells.setdefault(k, {})
    own_ci = {}  # (cell, metric) -> a seed's interval over its test sequences
    for r in m["results"]:
        if (r.get("split") or "").startswith("test") and "breakdown" not in r and r.get("ci"):
            own_ci[(cell_key(r), r["metric"])] = r["ci"]
    keys = sorted(cells, key=lambda k: (TASK_ORDER.get(k[0], 9), k[1] or 0, model_rank(k[2]), k[2], k[3]))

    def accuracy(k):
        s = cells[k].get("per_position_accuracy")
        if not s:
            return None, None, ""
        ci, mark = interval(s, own_ci.get((k, "per_position_accuracy")))
        return s, ci, mark

    # One matrix per task: per-position accuracy by model and T. Where a cell
    # was trained under two budgets, the one with fewer training tokens is
    # shown, so that a column compares like with like.
    lengths = sorted({k[1] for k in keys})
    for task in sorted({k[0] for k in keys}, key=lambda t: TASK_ORDER.get(t, 9)):
        rows = sorted({k[2] for k in keys if k[0] == task}, key=lambda n: (model_rank(n), n))
        print(f"**{task.upper()}**, per-position accuracy %\n")
        print("| model | " + " | ".join(f"T = {T}" for T in lengths) + " |")
        print("|---|" + "---|" * len(lengths))
        for name in rows:
            out = []
            for T in lengths:
                ks = [k for k in keys if k[:3] == (task, T, name)]
                k = min(ks, key=lambda k: k[3][0] * k[3][1]) if ks else None
                out.append("·" if not k else failure_word(failed[k]) if k in failed
                           else pct(cells[k]["per_position_accuracy"]["mean"]))
            print(f"| {name} | " + " | ".join(out) + " |")
        print()

    print("| task | T | model | budget (steps × batch) | seeds | per-position acc. % [95% CI] | "
          "full-sequence acc. % | threshold-crossing acc. % | balanced acc. % | final train loss | "
          "epochs to converge | parameters | train tokens/s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for k in keys:
        c = cells[k]
        if k in failed:
            print(f"| {k[0].upper()} | {k[1]} | {k[2]} | {budget_text(k[3])} | {len(failed[k])} | "
                  f"{failure_word(failed[k])} (listed below) |" + " – |" * 7)
            continue
        pp, ci, mark = accuracy(k)
        pp = pp or {}
        g = lambda name: c.get(name, {}).get("mean")
        print(f"| {k[0].upper()} | {k[1]} | {k[2]} | {budget_text(k[3])} | {pp.get('n_seeds', '–')} | "
              f"{pct(pp.get('mean'))}{ci_pct(ci, mark)} | "
              f"{pct(g('full_sequence_accuracy'))} | {pct(g('threshold_crossing_accuracy'))} | "
              f"{pct(g('balanced_accuracy'))} | {num(g('final_train_loss'))} | {num(g('epochs_to_converge'))} | "
              f"{num(g('parameter_count'))} | {num(g('train_tokens_per_second'))} |")

    if failed:
        print()
        print("Runs that failed:\n")
        for k in keys:
            for seed, error in failed.get(k, []):
                print(f"- {k[0].upper()}, T = {k[1]}, {k[2]}, {budget_text(k[3])}, seed {seed}: {error}")

    print()
    print("| task | T | model | budget (steps × batch) | seed predicts % | measured % [95% CI] | verdict |")
    print("|---|---|---|---|---|---|---|")
    for (task, T), preds in sorted(PREDICTED.items(), key=lambda kv: (TASK_ORDER[kv[0][0]], kv[0][1])):
        for model, p in preds.items():
            ks = [k for k in keys if k[:3] == (task, T, model)]
            if not ks:
                print(f"| {task.upper()} | {T} | {model} | – | {p} | not run | – |")
            for k in ks:
                if k in failed:
                    print(f"| {task.upper()} | {T} | {model} | {budget_text(k[3])} | {p} | "
                          f"{failure_word(failed[k])} | – |")
                    continue
                s, ci, mark = accuracy(k)
                print(f"| {task.upper()} | {T} | {model} | {budget_text(k[3])} | {p} | "
                      f"{pct(s['mean'])}{ci_pct(ci, mark)} | {verdict(p, s, ci)} |")

    # Diagnostics: per seed series, averaged over seeds.
    series = defaultdict(lambda: defaultdict(list))
    for r in m["results"]:
        if r.get("series") is None or r["metric"] not in ("grad_norm_by_position", "probe_r2_by_position",
                                                          "accuracy_by_position"):
            continue
        if not (r.get("split") or "").startswith("test") or "breakdown" in r:
            continue
        series[cell_key(r)][r["metric"]].append(r["series"])
    print()
    print("| task | T | model | budget (steps × batch) | accuracy, first / last quarter of positions % | "
          "log10 grad norm at t = 1, T/2, T | probe R² (held-out), mean over t > T/2 |")
    print("|---|---|---|---|---|---|---|")
    for k in keys:
        d = series.get(k)
        if not d or k in failed:
            continue

        def mean_at(name, idx):
            vals = [s[idx] for s in d.get(name, []) if idx < len(s) and s[idx] is not None]
            return sum(vals) / len(vals) if vals else None

        def mean_range(name, lo, hi):
            vals = [v for s in d.get(name, []) for v in s[lo:hi] if v is not None]
            return sum(vals) / len(vals) if vals else None

        T = k[1]
        q = max(1, T // 4)
        acc = f"{pct(mean_range('accuracy_by_position', 0, q))} / {pct(mean_range('accuracy_by_position', T - q, T))}"
        if "grad_norm_by_position" in d:
            gs = [mean_at("grad_norm_by_position", i) for i in (0, T // 2 - 1, T - 1)]
            grad = " / ".join("–" if g is None or g <= 0 else f"{math.log10(g):.1f}" for g in gs)
            r2 = mean_range("probe_r2_by_position", T // 2, T)
            probe = "–" if r2 is None else f"{r2:.2f}"
        else:
            grad = probe = "–"
        print(f"| {k[0].upper()} | {T} | {k[2]} | {budget_text(k[3])} | {acc} | {grad} | {probe} |")

if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1:])

#!/usr/bin/env python3
"""Markdown tables of a temporal nonlinearity study from bem-bench's output.

    results_table.py OUT_DIR/metrics.json [MORE/metrics.json ...] > tables.md

Reads the `summary` of metrics.json (mean over seeds with a Student-t 95%
interval across seeds) and the per-seed `results` (for the diagnostics), and
prints: the measured table (every task, T and model configuration), the
seed's predicted table (section 4.2) beside the measured cells it covers, and
the section 6 diagnostics. Several runs' files (e.g. temporal-small and
temporal-predictions) make one set of tables; a cell measured in more than
one of them is an error. docs/temporal-results.md is written from it.
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


def pct(x):
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}"


def ci_pct(s):
    ci = s.get("ci")
    if not ci:
        return ""
    # A t-interval over 3 seeds can pass 0 or 1; accuracy cannot.
    return f" [{100 * max(ci['low'], 0.0):.1f}, {100 * min(ci['high'], 1.0):.1f}]"


def verdict(predicted, s):
    """'agrees' when the interval (the mean alone without one) comes within
    TOLERANCE points of the prediction, else 'above' or 'below'."""
    ci = s.get("ci") or {"low": s["mean"], "high": s["mean"]}
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


def main(paths):
    m = {"summary": [], "results": []}
    owner = {}  # (task, T, label) -> the file that measured it
    for path in dict.fromkeys(paths):  # a file named twice counts once
        one = json.load(open(path))
        for s in one["summary"]:
            key = (s["task"], length(s["config"]), label(s["config"], s["model"]))
            if owner.setdefault(key, path) != path:
                sys.exit(f"results_table.py: {key} is in both {owner[key]} and {path}")
        m["summary"] += one["summary"]
        m["results"] += one["results"]
    cells = defaultdict(dict)  # (task, T, label) -> metric -> summary entry
    for s in m["summary"]:
        key = (s["task"], length(s["config"]), label(s["config"], s["model"]))
        split = s.get("split") or ""
        if s["metric"] in ("final_train_loss", "epochs_to_converge", "train_tokens_per_second", "parameter_count") \
                or split.startswith("test"):
            if "breakdown" in s:
                continue
            cells[key][s["metric"]] = s
    keys = sorted(cells, key=lambda k: (TASK_ORDER.get(k[0], 9), k[1] or 0, k[2]))

    print("| task | T | model | seeds | per-position acc. % [95% CI] | full-sequence acc. % | "
          "threshold-crossing acc. % | balanced acc. % | final train loss | epochs to converge | "
          "parameters | train tokens/s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for k in keys:
        c = cells[k]
        pp = c.get("per_position_accuracy", {})
        g = lambda name: c.get(name, {}).get("mean")
        print(f"| {k[0].upper()} | {k[1]} | {k[2]} | {pp.get('n_seeds', '–')} | {pct(pp.get('mean'))}{ci_pct(pp)} | "
              f"{pct(g('full_sequence_accuracy'))} | {pct(g('threshold_crossing_accuracy'))} | "
              f"{pct(g('balanced_accuracy'))} | {num(g('final_train_loss'))} | {num(g('epochs_to_converge'))} | "
              f"{num(g('parameter_count'))} | {num(g('train_tokens_per_second'))} |")

    print()
    print("| task | T | model | seed predicts % | measured % [95% CI across seeds] | verdict |")
    print("|---|---|---|---|---|---|")
    for (task, T), preds in sorted(PREDICTED.items(), key=lambda kv: (TASK_ORDER[kv[0][0]], kv[0][1])):
        for model, p in preds.items():
            c = cells.get((task, T, model))
            if not c or "per_position_accuracy" not in c:
                print(f"| {task.upper()} | {T} | {model} | {p} | not run | – |")
                continue
            s = c["per_position_accuracy"]
            ci = s.get("ci")
            print(f"| {task.upper()} | {T} | {model} | {p} | {pct(s['mean'])}{ci_pct(s)} | {verdict(p, s)} |")

    # Diagnostics: per seed series, averaged over seeds.
    series = defaultdict(lambda: defaultdict(list))
    for r in m["results"]:
        if r.get("series") is None or r["metric"] not in ("grad_norm_by_position", "probe_r2_by_position",
                                                          "accuracy_by_position"):
            continue
        if not (r.get("split") or "").startswith("test") or "breakdown" in r:
            continue
        key = (r["task"], length(r["config"]), label(r["config"], r["model"]))
        series[key][r["metric"]].append(r["series"])
    print()
    print("| task | T | model | accuracy, first / last quarter of positions % | "
          "log10 grad norm at t = 1, T/2, T | probe R² (held-out), mean over t > T/2 |")
    print("|---|---|---|---|---|---|")
    for k in keys:
        d = series.get(k)
        if not d:
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
        print(f"| {k[0].upper()} | {T} | {k[2]} | {acc} | {grad} | {probe} |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1:])

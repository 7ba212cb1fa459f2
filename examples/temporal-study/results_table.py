#!/usr/bin/env python3
"""Markdown tables of a temporal nonlinearity study from bem-bench's output.

    results_table.py OUT_DIR/metrics.json [MORE/metrics.json ...] > tables.md

Reads the `summary` of metrics.json (mean over seeds with a Student-t 95%
interval across seeds) and the per-seed `results` (a one-seed cell's own
interval over its test sequences, and the diagnostics) and the failed runs
(a cell with one shows its error instead of metrics), and prints: one
per-position accuracy matrix per task (model x T), the seed's section 8
success criteria evaluated on those matrices, the measured table (every
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
    cell, that seed's own interval over its test sequences (`own`), marked †.
    bem-bench copies a one-seed cell's own interval into its summary's `ci`,
    so the seed count, not the presence of `ci`, tells the two apart."""
    if s.get("n_seeds") == 1:
        ci = own or s.get("ci")
        return (ci, "†") if ci else (None, "")
    if s.get("ci"):
        return s["ci"], ""
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


def failure_word(errors, n_seeds):
    """'diverged' when every failed run diverged, else 'failed'; with the
    count where only some of the cell's n_seeds runs failed."""
    word = "diverged" if all("training diverged" in e for _, e in errors) else "failed"
    return word if len(errors) >= n_seeds else f"{word} ({len(errors)} of {n_seeds} seeds)"


def budget_text(b):
    return f"{b[0]} × {b[1]}"


def success_criteria(tasks, lengths, names, mean):
    """Seed section 8, evaluated on the matrices (mean(task, T, name) in % or
    None): one row per criterion with the evidence and a verdict."""
    def cells_of(name):
        return [(t, T, mean(t, T, name)) for t in tasks for T in lengths if mean(t, T, name) is not None]

    def where(c):
        return f"{c[2]:.1f}% ({c[0].upper()}, T = {c[1]})"

    rows = []
    e88 = [n for n in names if n.startswith("E88-") and "(" not in n]
    for n in e88:
        cs = cells_of(n)
        low = [c for c in cs if c[2] <= 95]
        if cs:
            rows.append((f"1. {n} > 95% on every task and T", f"{len(cs) - len(low)} of {len(cs)} cells above 95%"
                         + (f"; lowest {where(min(low, key=lambda c: c[2]))}" if low else ""),
                         "met" if not low else "not met"))
    mamba = [n for n in names if n.startswith("Mamba2-") and "(" not in n]
    # "Degrades, particularly for TXC": every depth loses more than 5 points
    # on TXC from the shortest T to the longest, and loses no more on another
    # task than on TXC.
    drops = []
    for n in mamba:
        parts, by_task = [], {}
        for t in tasks:
            cs = [c for c in cells_of(n) if c[0] == t]
            if len(cs) >= 2:
                by_task[t] = cs[0][2] - cs[-1][2]
                parts.append(f"{t.upper()} {cs[0][2]:.1f} → {cs[-1][2]:.1f} (T = {cs[0][1]} → {cs[-1][1]})")
        if parts:
            drops.append((n, "; ".join(parts), by_task))
    if drops:
        degrades = all(d.get("txc", 0) > 5 for _, _, d in drops)
        not_most = [n for n, _, d in drops if "txc" in d and any(v > d["txc"] for v in d.values())]
        verdict = ("not met" if not degrades else
                   f"partly met: degrades, but drops more on another task than on TXC ({', '.join(not_most)})"
                   if not_most else "met")
        rows.append(("2. Mamba2 degrades as T grows, most on TXC",
                     "<br>".join(f"{n}: {text}" for n, text, _ in drops), verdict))
    for n in [n for n in names if n == "Linear-RNN"]:
        cs = cells_of(n)
        off = [c for c in cs if abs(c[2] - 50) > 5]
        if cs:
            rows.append(("3. the linear baseline is at chance (50% ± 5)",
                         f"{n}: {len(cs) - len(off)} of {len(cs)} trained cells within 50 ± 5"
                         + (f"; highest {where(max(off, key=lambda c: c[2]))}" if off else ""),
                         "met" if not off else "not met"))
    ablation, control = "E88-1L (simple_linear)", "Mamba2-4L"
    pairs = [(t, T, mean(t, T, ablation), mean(t, T, control)) for t in tasks for T in lengths
             if mean(t, T, ablation) is not None and mean(t, T, control) is not None]
    if pairs:
        far = [p for p in pairs if abs(p[2] - p[3]) > 5]
        worst = max(pairs, key=lambda p: abs(p[2] - p[3]))
        rows.append((f"4. the ablated E88 ({ablation}) performs like Mamba2 ({control}), within 5 points",
                     f"{len(pairs) - len(far)} of {len(pairs)} cells within 5 points; largest gap "
                     f"{worst[2]:.1f} vs {worst[3]:.1f} ({worst[0].upper()}, T = {worst[1]})",
                     "met" if not far else "not met"))
    for t, need in (("txc", 40), ("rtc", 15), ("fsm", 10)):
        a, b = mean(t, 1024, "E88-1L"), mean(t, 1024, "Mamba2-32L")
        if a is not None and b is not None:
            rows.append((f"{t.upper()} gap E88-1L − Mamba2-32L at T = 1024 ≥ {need} points",
                         f"{a:.1f} − {b:.1f} = {a - b:+.1f}", "met" if a - b >= need else "not met"))
    if not rows:
        return
    print("Seed section 8, on the matrices above:\n")
    print("| criterion | measured | verdict |")
    print("|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    print()


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
    seeds = defaultdict(set)  # cell -> every seed with a record, failed or not
    for r in m["results"]:
        if "seed" in r:
            seeds[cell_key(r)].add(r["seed"])
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
                seen = cells[cell_key(s)].get(s["metric"])
                if seen and seen.get("split") != s.get("split"):  # e.g. test_lengths beyond the training T
                    sys.exit(f"results_table.py: {cell_key(s)} has two test splits, {seen.get('split')} and "
                             f"{s.get('split')}; the tables show one per cell (the training length)")
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
    def matrix_cell(task, T, name):
        ks = [k for k in keys if k[:3] == (task, T, name)]
        return min(ks, key=lambda k: k[3][0] * k[3][1]) if ks else None

    def matrix_mean(task, T, name):
        """The matrix's per-position accuracy in %, or None (not run, failed)."""
        k = matrix_cell(task, T, name)
        if not k or k in failed or "per_position_accuracy" not in cells[k]:
            return None
        return 100 * cells[k]["per_position_accuracy"]["mean"]

    lengths = sorted({k[1] for k in keys})
    tasks = sorted({k[0] for k in keys}, key=lambda t: TASK_ORDER.get(t, 9))
    names = sorted({k[2] for k in keys}, key=lambda n: (model_rank(n), n))
    for task in tasks:
        rows = [n for n in names if any(k[0] == task and k[2] == n for k in keys)]
        print(f"**{task.upper()}**, per-position accuracy %\n")
        print("| model | " + " | ".join(f"T = {T}" for T in lengths) + " |")
        print("|---|" + "---|" * len(lengths))
        for name in rows:
            out = []
            for T in lengths:
                k = matrix_cell(task, T, name)
                out.append("·" if not k else failure_word(failed[k], len(seeds[k])) if k in failed
                           else pct(cells[k]["per_position_accuracy"]["mean"]))
            print(f"| {name} | " + " | ".join(out) + " |")
        print()
    success_criteria(tasks, lengths, names, matrix_mean)

    print("| task | T | model | budget (steps × batch) | seeds | per-position acc. % [95% CI] | "
          "full-sequence acc. % | threshold-crossing acc. % | balanced acc. % | final train loss | "
          "epochs to converge | parameters | train tokens/s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for k in keys:
        c = cells[k]
        if k in failed:
            print(f"| {k[0].upper()} | {k[1]} | {k[2]} | {budget_text(k[3])} | "
                  f"{max(len(failed[k]), len(seeds[k]))} | {failure_word(failed[k], len(seeds[k]))} (listed below) |" + " – |" * 7)
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
                          f"{failure_word(failed[k], len(seeds[k]))} | – |")
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
    print("| task | T | model | budget (steps × batch) | accuracy, first / last quarter of positions / at t = T % | "
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
        acc = (f"{pct(mean_range('accuracy_by_position', 0, q))} / "
               f"{pct(mean_range('accuracy_by_position', T - q, T))} / {pct(mean_at('accuracy_by_position', T - 1))}")
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

#!/usr/bin/env python3
"""Tables and error-against-T plots of a cross-evaluation (configs/cross.toml).

    cross_table.py OUT/metrics.json [--svg-dir DIR] > tables.md

For every task (its categorical settings, such as Dyck-1's labels, make
separate tasks) one markdown table: a row per model, a column per test split,
each cell the task's headline metric (per-position accuracy for
per-position tasks, accuracy for final answers) as the mean over seeds with
its Student-t 95% interval (or the one seed's own interval). Then the
zero-error table: for each task x model, the test sequences with at least one
error out of those tested, summed over seeds, per split. With --svg-dir, one
SVG per task: error (1 - headline) against the test length, one line per
model, for the splits whose other conditions take their first value.
"""
import argparse
import json
import math
import os
import sys
from collections import OrderedDict


def task_label(e):
    kinds = {k: v for k, v in sorted((e["config"].get("task") or {}).items()) if isinstance(v, str)}
    return e["task"] + ("" if not kinds else " (" + ", ".join(f"{k}={v}" for k, v in kinds.items()) + ")")


def headline(entries):
    return "per_position_accuracy" if any(e["metric"] == "per_position_accuracy" for e in entries) else "accuracy"


def split_order(e):
    c = e.get("condition") or {}
    return (c.get("length", 0), json.dumps({k: v for k, v in sorted(c.items()) if k != "length"}))


def cell(e):
    if e is None:
        return "–"
    s = f"{e['mean']:.4f}"
    ci = e.get("ci")
    if isinstance(ci, dict):
        s += f" [{ci['low']:.4f}, {ci['high']:.4f}]"
    return s


def tested(entries):
    """Test-split summaries without per-tag breakdowns, grouped by task label."""
    tasks = OrderedDict()
    for e in entries:
        split = e.get("split") or ""
        if not split.startswith("test") or e.get("breakdown") or e.get("timing") or e.get("series"):
            continue
        tasks.setdefault(task_label(e), []).append(e)
    return tasks


def headline_tables(tasks):
    out = []
    for label, entries in tasks.items():
        metric = headline(entries)
        rows = [e for e in entries if e["metric"] == metric]
        splits = sorted({e["split"]: split_order(e) for e in rows}.items(), key=lambda kv: kv[1])
        models = list(OrderedDict.fromkeys(e["model"] for e in rows))
        at = {(e["model"], e["split"]): e for e in rows}
        out.append(f"### {label}: {metric}\n")
        out.append("| model | " + " | ".join(s[len("test/"):] for s, _ in splits) + " |")
        out.append("| --- |" + " --- |" * len(splits))
        for m in models:
            out.append(f"| {m} | " + " | ".join(cell(at.get((m, s))) for s, _ in splits) + " |")
        out.append("")
    return out


def error_tables(tasks, records):
    """Sequences with an error per split: (1 - full_sequence_accuracy or
    accuracy) x n of each seed's record, summed."""
    out = ["### Test sequences with an error (summed over seeds)\n"]
    counts = OrderedDict()
    for r in records:
        split = r.get("split") or ""
        if r.get("status") != "ok" or not split.startswith("test") or r.get("breakdown"):
            continue
        if r["metric"] not in ("full_sequence_accuracy", "accuracy") or not r.get("n"):
            continue
        if r["metric"] == "accuracy" and any(x["metric"] == "full_sequence_accuracy" for x in tasks.get(task_label(r), [])):
            continue
        key = (task_label(r), r["model"])
        wrong, n = counts.setdefault(key, OrderedDict()).get(split, (0, 0))
        counts[key][split] = (wrong + round((1 - r["value"]) * r["n"]), n + r["n"])
    out.append("| task | model | errors / sequences, per split |")
    out.append("| --- | --- | --- |")
    for (task, model), per in counts.items():
        parts = [f"{s[len('test/'):]}: {w}/{n}" for s, (w, n) in per.items()]
        out.append(f"| {task} | {model} | " + "; ".join(parts) + " |")
    out.append("")
    return out


COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]


def svg_plot(label, entries):
    """Error against log2(T), one polyline per model; None when under 2 lengths."""
    metric = headline(entries)
    rows = [e for e in entries if e["metric"] == metric and "length" in (e.get("condition") or {})]
    first = {}
    for e in rows:
        for k, v in (e["condition"] or {}).items():
            if k != "length":
                first.setdefault(k, v)
    rows = [e for e in rows if all(e["condition"].get(k) == v for k, v in first.items())]
    lengths = sorted({e["condition"]["length"] for e in rows})
    if len(lengths) < 2:
        return None
    W, H, L, B = 520, 300, 60, 40
    x0, x1 = math.log2(lengths[0]), math.log2(lengths[-1])
    px = lambda T: L + (math.log2(T) - x0) / (x1 - x0) * (W - L - 130)
    py = lambda err: 10 + (1 - min(max(err, 0.0), 0.6) / 0.6) * (H - B - 10)  # errors above 0.6 at the top
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="11">',
         f'<text x="{L}" y="{H - 5}">test length T (log scale); error = 1 - {metric}'
         + (" at " + ", ".join(f"{k}={v}" for k, v in first.items()) if first else "") + "</text>",
]
    for T in lengths:
        s.append(f'<text x="{px(T) - 10:.1f}" y="{H - B + 14}">{T}</text>')
    for err in (0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6):
        s.append(f'<text x="{L - 30}" y="{py(err) + 4:.1f}">{err:.1f}</text>')
        s.append(f'<line x1="{L}" y1="{py(err):.1f}" x2="{W - 130}" y2="{py(err):.1f}" stroke="#eee"/>')
    s.append(f'<line x1="{L}" y1="{H - B}" x2="{W - 130}" y2="{H - B}" stroke="#000"/>')
    s.append(f'<line x1="{L}" y1="10" x2="{L}" y2="{H - B}" stroke="#000"/>')
    models = list(OrderedDict.fromkeys(e["model"] for e in rows))
    for i, m in enumerate(models):
        pts = sorted((e["condition"]["length"], 1 - e["mean"]) for e in rows if e["model"] == m)
        c = COLOURS[i % len(COLOURS)]
        s.append(f'<polyline fill="none" stroke="{c}" stroke-width="1.5" points="'
                 + " ".join(f"{px(T):.1f},{py(err):.1f}" for T, err in pts) + '"/>')
        s.append(f'<text x="{W - 120}" y="{20 + 14 * i}" fill="{c}">{m}</text>')
    s.append(f'<text x="{L + 5}" y="22">{label}</text></svg>')
    return "\n".join(s) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("metrics", help="metrics.json of a bem-bench run")
    ap.add_argument("--svg-dir", help="write one error-against-T plot per task here")
    a = ap.parse_args()
    try:
        with open(a.metrics) as f:
            m = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        sys.exit(f"cross_table.py: {a.metrics}: {e}")
    if "summary" not in m or "results" not in m:
        sys.exit(f"cross_table.py: {a.metrics}: not a bem-bench metrics.json (no summary or results)")
    tasks = tested(m["summary"])
    print("\n".join(headline_tables(tasks) + error_tables(tasks, m["results"])))
    if a.svg_dir:
        os.makedirs(a.svg_dir, exist_ok=True)
        for label, entries in tasks.items():
            svg = svg_plot(label, entries)
            if svg:
                name = "".join(ch if ch.isalnum() else "-" for ch in label).strip("-").replace("--", "-")
                with open(os.path.join(a.svg_dir, name + ".svg"), "w") as f:
                    f.write(svg)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Near-duplicate tasks in a Rust dataset (see docs/rust-benchmarks.md, "Near-duplicates").

A task's code is its solution.rs and, for projects, its context files: the
reference answer, whatever the category makes of it. The code is lexed
(rust_tokens.py), comments are dropped, every identifier becomes `$ident` and
every literal `$num`, `$str` or `$char` (keywords and punctuation stay), and the
task becomes the set of its K-token shingles (K consecutive tokens). Two tasks
whose shingle sets have a Jaccard similarity |A & B| / |A | B| of THRESHOLD or
more are reported, most similar first: renaming, new literals, reformatting and
rewritten comments leave the similarity of a copied task at 1.

    near_duplicates.py [--k 10] [--threshold 0.5] PATH...

PATH is a dataset, a category folder or a task folder. Exit 0: no pair; 1: pairs
reported; 2: a usage error or a path without tasks.
"""
import argparse
import itertools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_tasks  # noqa: E402
import rust_tokens  # noqa: E402

K = 10
THRESHOLD = 0.5


def task_code(d):
    """solution.rs, then the context files (projects), in path order."""
    texts = [check_tasks.read(os.path.join(d, "solution.rs"))]
    for root, dirs, files in os.walk(os.path.join(d, "src")):
        dirs.sort()
        texts += [check_tasks.read(os.path.join(root, f)) for f in sorted(files)]
    return "\n".join(texts)


def normalised_tokens(text):
    out = []
    for kind, tok in rust_tokens.tokens(text):
        if kind == "comment":
            continue
        out.append(tok if kind in ("keyword", "punct") else "$" + kind)
    return out


def shingles(text, k=K):
    t = normalised_tokens(text)
    if len(t) < k:  # a tiny text is one shingle
        return frozenset([tuple(t)]) if t else frozenset()
    return frozenset(tuple(t[i:i + k]) for i in range(len(t) - k + 1))


def jaccard(a, b):
    union = len(a | b)
    return len(a & b) / union if union else 0.0


def near_duplicates(dirs, k=K, threshold=THRESHOLD):
    """[(similarity, dir a, dir b)] for every pair at or above threshold, most similar first."""
    sets = [shingles(task_code(d), k) for d in dirs]
    found = []
    for i, j in itertools.combinations(range(len(dirs)), 2):
        small, large = sorted((len(sets[i]), len(sets[j])))
        if small < threshold * large:  # Jaccard <= |small| / |large|: cannot reach the threshold
            continue
        s = jaccard(sets[i], sets[j])
        if s >= threshold:
            found.append((s, dirs[i], dirs[j]))
    found.sort(key=lambda f: (-f[0], f[1], f[2]))
    return found


def name(d):
    return os.path.basename(os.path.dirname(d)) + "/" + os.path.basename(d)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+", metavar="PATH")
    ap.add_argument("--k", type=int, default=K, help=f"tokens per shingle (default {K})")
    ap.add_argument("--threshold", type=float, default=THRESHOLD,
                    help=f"the Jaccard similarity from which a pair is reported (default {THRESHOLD})")
    a = ap.parse_args()
    if a.k < 1 or not 0 < a.threshold <= 1:
        ap.error("--k must be at least 1 and --threshold in (0, 1]")
    dirs = []
    for p in a.paths:
        if not os.path.isdir(p):
            ap.error(f"{p}: no such folder")
        found = check_tasks.task_dirs(p)
        if not found:
            ap.error(f"{p}: no task folder (one with a metadata.yaml) in it")
        dirs += found
    dirs = sorted(set(dirs))  # paths may overlap
    try:
        pairs = near_duplicates(dirs, a.k, a.threshold)
    except OSError as e:
        print(f"near_duplicates.py: error: {e.filename}: {e.strerror}", file=sys.stderr)
        return 2
    for s, x, y in pairs:
        print(f"{s:.2f}  {name(x)}  {name(y)}")
    print(f"{len(pairs)} pairs of {len(dirs)} tasks with a Jaccard similarity of {a.threshold} or more "
          f"({a.k}-token shingles of normalised code)")
    return 1 if pairs else 0


if __name__ == "__main__":
    sys.exit(main())

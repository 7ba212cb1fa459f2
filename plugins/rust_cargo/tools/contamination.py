#!/usr/bin/env python3
"""Which tasks of a Rust dataset a training corpus contains (spec section 21;
see docs/rust-benchmarks.md, "Contamination").

Each task's prompt.rs, solution.rs and tests.rs (its parts) and each corpus
document are lexed (rust_tokens.py): layout vanishes, code tokens stay as they
are (identifiers and literals included), a comment becomes its words. A part's
overlap with a document is the fraction of the part's distinct N-token n-grams
that occur in the document (a part shorter than N tokens is one n-gram). A
task is at risk when one of its parts has an overlap of THRESHOLD or more with
one document; the report names the part, the document and the overlap.

    contamination.py [--dataset DIR] [--n 10] [--threshold 0.5] [--text-field text] CORPUS...

CORPUS is a folder (every file in it, recursively, is a document), a .jsonl file
(one document per line: a JSON object whose TEXT_FIELD is a string) or any
other file (one document). The corpus is read once, a document at a time; only
the dataset's n-grams are held. Exit 0: no task at risk; 1: tasks at risk;
2: a usage error, a missing or unreadable file, or a malformed JSONL line.
"""
import argparse
import collections
import json
import os
import re
import sys

TOOLS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, TOOLS)
import check_tasks  # noqa: E402
import rust_tokens  # noqa: E402

N = 10
THRESHOLD = 0.5
PARTS = ["prompt.rs", "solution.rs", "tests.rs"]
DEFAULT_DATASET = os.path.join(os.path.dirname(TOOLS), "benchmarks_v1")


class InputError(Exception):
    """Bad input, the message naming the file (and line)."""


def contamination_tokens(text):
    out = []
    for kind, tok in rust_tokens.tokens(text):
        if kind == "comment":
            out += re.findall(r"\w+", tok)
        else:
            out.append(tok)
    return out


def ngrams(text, n=N):
    """The hashes of the text's distinct n-grams."""
    t = contamination_tokens(text)
    if len(t) < n:
        return {hash(tuple(t))} if t else set()
    return {hash(tuple(t[i:i + n])) for i in range(len(t) - n + 1)}


class Index:
    """The dataset's parts and, for each n-gram, the parts that hold it."""

    def __init__(self, task_dirs, n=N):
        self.n = n
        self.parts = []  # (task dir, part file, n-gram count)
        self.holders = collections.defaultdict(list)
        for d in task_dirs:
            for p in PARTS:
                grams = ngrams(check_tasks.read(os.path.join(d, p)), n)
                if not grams:
                    continue
                for g in grams:
                    self.holders[g].append(len(self.parts))
                self.parts.append((d, p, len(grams)))
        self.best = [(0.0, None)] * len(self.parts)  # per part: (overlap, document)

    def add_document(self, name, text):
        shared = collections.Counter()
        for g in ngrams(text, self.n):
            for part in self.holders.get(g, ()):
                shared[part] += 1
        for part, count in shared.items():
            overlap = count / self.parts[part][2]
            if overlap > self.best[part][0]:
                self.best[part] = (overlap, name)

    def at_risk(self, threshold=THRESHOLD):
        """{task dir: [(part, overlap, document)]} for the parts at or above threshold."""
        risk = {}
        for (d, p, _), (overlap, doc) in zip(self.parts, self.best):
            if overlap >= threshold:
                risk.setdefault(d, []).append((p, overlap, doc))
        return risk


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", errors="replace")
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}") from None


def _lines(path):
    """The file's lines, read one at a time (a corpus can be larger than memory)."""
    try:
        with open(path, "rb") as f:
            for line in f:
                yield line.decode("utf-8", errors="replace")
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}") from None


def documents(path, text_field="text"):
    """(name, text) of every document of a corpus path."""
    if os.path.isdir(path):
        def unreadable(e):
            raise InputError(f"{e.filename}: {e.strerror}")

        for root, dirs, files in os.walk(path, onerror=unreadable):
            dirs.sort()
            for f in sorted(files):
                full = os.path.join(root, f)
                if os.path.isfile(full) or not os.path.exists(full):  # a broken link is an error, a socket is not text
                    yield full, _read(full)
    elif path.endswith(".jsonl"):
        for number, line in enumerate(_lines(path), 1):
            if not line.strip():
                continue
            where = f"{path}:{number}"
            try:
                doc = json.loads(line)
            except json.JSONDecodeError as e:
                raise InputError(f"{where}: not JSON ({e.msg})") from None
            if not isinstance(doc, dict) or not isinstance(doc.get(text_field), str):
                raise InputError(f"{where}: no string field '{text_field}' (--text-field names the field)")
            yield where, doc[text_field]
    else:
        yield path, _read(path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", nargs="+", metavar="CORPUS")
    ap.add_argument("--dataset", default=DEFAULT_DATASET, help="a dataset, category or task folder (default: benchmarks_v1)")
    ap.add_argument("--n", type=int, default=N, help=f"tokens per n-gram (default {N})")
    ap.add_argument("--threshold", type=float, default=THRESHOLD,
                    help=f"the overlap from which a task is at risk (default {THRESHOLD})")
    ap.add_argument("--text-field", default="text", help="the JSONL documents' text field (default text)")
    a = ap.parse_args()
    if a.n < 1 or not 0 < a.threshold <= 1:
        ap.error("--n must be at least 1 and --threshold in (0, 1]")
    if not os.path.isdir(a.dataset):
        ap.error(f"--dataset {a.dataset}: no such folder")
    for path in a.corpus:  # before the dataset is indexed
        if not os.path.exists(path):
            print(f"contamination.py: error: {path}: no such file or folder", file=sys.stderr)
            return 2
    dirs = check_tasks.task_dirs(a.dataset)
    if not dirs:
        ap.error(f"--dataset {a.dataset}: no task folder (one with a metadata.yaml) in it")
    try:
        index = Index(dirs, a.n)
        count = 0
        for path in a.corpus:
            for name, text in documents(path, a.text_field):
                index.add_document(name, text)
                count += 1
    except InputError as e:
        print(f"contamination.py: error: {e}", file=sys.stderr)
        return 2
    risk = index.at_risk(a.threshold)
    for d in sorted(risk):
        print(f"AT RISK {os.path.basename(os.path.dirname(d))}/{os.path.basename(d)}")
        for part, overlap, doc in risk[d]:
            print(f"   {part}: {overlap:.2f} of its {a.n}-grams in {doc}")
    print(f"{len(risk)} of {len(dirs)} tasks at risk in {count} documents "
          f"(a part with {a.threshold:.0%} or more of its {a.n}-token n-grams in one document)")
    return 1 if risk else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Keeps the guides, the concept headers' examples and the compiled code in step.

check_docs.py --docs MD... --sources FILE... --include-dir DIR --root DIR --examples CPP

  1. Every ```cpp, ```c and ```meson block of each guide (--docs) appears
     verbatim in one of the --sources (the files the tests compile and run).
  2. Every header below --include-dir whose comment holds an example (the
     indented lines after "Example (compiled by FILE):") has its code lines
     in FILE (relative to --root), in order, each verbatim apart from
     indentation and trailing comments (lines that are only a comment, which tell the result, may
     stand as assertions there), so no header example can drift from the
     code the tests compile.
  3. Every region of --examples between "// [doc]" and "// [/doc]" appears
     verbatim in a guide or a header example, so no compiled example is
     orphaned.
Each guide must hold at least one checked block and each header that says
"Example (compiled by" an example, so an extraction that silently finds
nothing fails too.
"""
import argparse
import pathlib
import re
import sys

CHECKED = {"cpp", "c", "c++", "meson"}
FENCE = re.compile(r"^```([A-Za-z+]*)\s*$")


def code_blocks(text):
    blocks, lang, lines = [], None, []
    for line in text.splitlines():
        m = FENCE.match(line)
        if lang is None and m:
            lang, lines = m.group(1) or "", []
        elif lang is not None and line.rstrip() == "```":
            blocks.append((lang, "\n".join(lines)))
            lang = None
        elif lang is not None:
            lines.append(line)
    return blocks


COMPILED_BY = re.compile(r"Example \(compiled by ([^)]+)\):")


def header_example(text):
    """(file named after 'compiled by', the example's code) or (None, "")."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = COMPILED_BY.search(line)
        if m:
            code, j = [], i + 1
            while j < len(lines) and lines[j].rstrip() == "//":
                j += 1
            while j < len(lines) and (lines[j].startswith("//     ") or lines[j].rstrip() == "//"):
                code.append(lines[j][7:] if lines[j].startswith("//     ") else "")
                j += 1
            while code and code[-1] == "":
                code.pop()
            return m.group(1), "\n".join(code)
    return None, ""


def lines_in_order(example, text):
    """The example's code lines, stripped, are a subsequence of text's lines."""
    def code(line):  # without indentation and a trailing comment
        return line.split("  //")[0].strip()
    wanted = [code(l) for l in example.splitlines() if l.strip() and not l.strip().startswith("//")]
    have = iter(code(l) for l in text.splitlines())
    return all(any(w == h for h in have) for w in wanted)


def doc_regions(text):
    return re.findall(r"^// \[doc\][^\n]*\n(.*?)\n// \[/doc\]", text, re.S | re.M)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs", nargs="+", required=True)
    ap.add_argument("--sources", nargs="+", required=True)
    ap.add_argument("--include-dir", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--examples", required=True)
    a = ap.parse_args()
    sources = {p: read(p) for p in a.sources + [a.examples]}
    failures = 0
    known = []  # texts a [doc] region may come from
    for doc in a.docs:
        blocks = [(lang, b) for lang, b in code_blocks(read(doc)) if lang in CHECKED]
        if not blocks:
            print(f"FAIL: {doc}: no ```cpp/```meson block found")
            failures += 1
        for n, (lang, block) in enumerate(blocks, 1):
            known.append(block)
            where = [p for p, s in sources.items() if block in s]
            if where:
                print(f"ok: {doc} block {n} ({lang}) is in {where[0]}")
            else:
                first = block.strip().splitlines()[0] if block.strip() else "<empty>"
                print(f"FAIL: {doc} block {n} ({lang}), starting '{first}', appears in no compiled source")
                failures += 1
    examples = sources[a.examples]
    headers = sorted(p for p in pathlib.Path(a.include_dir).rglob("*")
                     if p.suffix in (".hpp", ".h") and "Example (compiled by" in read(p))
    if not headers:
        print(f"FAIL: no header below {a.include_dir} has an 'Example (compiled by ...)'")
        failures += 1
    for h in headers:
        compiled_by, ex = header_example(read(h))
        known.append(ex)
        target = pathlib.Path(a.root) / compiled_by if compiled_by else None
        if not ex:
            print(f"FAIL: {h}: no code found after 'Example (compiled by ...)'")
            failures += 1
        elif target is None or not target.is_file():
            print(f"FAIL: {h}: its example names {compiled_by}, which does not exist")
            failures += 1
        elif lines_in_order(ex, read(target)):
            print(f"ok: the example of {h} is in {compiled_by}")
        else:
            print(f"FAIL: the example of {h} is not verbatim in {compiled_by}")
            failures += 1
    regions = doc_regions(examples)
    if not regions:
        print(f"FAIL: {a.examples} has no // [doc] ... // [/doc] region")
        failures += 1
    for r in regions:
        if not any(r in k or k == r for k in known):
            print(f"FAIL: a [doc] region of {a.examples} starting '{r.splitlines()[0]}' is shown nowhere")
            failures += 1
    print(f"{failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

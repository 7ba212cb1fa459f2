#!/usr/bin/env python3
"""Keeps the guides, the concept headers' examples and the compiled code in step.

check_docs.py --docs MD... --sources FILE... --headers HPP... --examples CPP

  1. Every ```cpp, ```c and ```meson block of each guide (--docs) appears
     verbatim in one of the --sources (the files the tests compile and run).
  2. The example in each concept header's comment (the indented lines after
     "Example (compiled by ...)") appears verbatim in --examples.
  3. Every region of --examples between "// [doc]" and "// [/doc]" appears
     verbatim in a guide or a header example, so no compiled example is
     orphaned.
Each guide must hold at least one checked block and each header an example,
so an extraction that silently finds nothing fails too.
"""
import argparse
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


def header_example(text):
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if "Example (compiled by" in line:
            code, j = [], i + 1
            while j < len(lines) and lines[j].rstrip() == "//":
                j += 1
            while j < len(lines) and (lines[j].startswith("//     ") or lines[j].rstrip() == "//"):
                code.append(lines[j][7:] if lines[j].startswith("//     ") else "")
                j += 1
            while code and code[-1] == "":
                code.pop()
            return "\n".join(code)
    return ""


def doc_regions(text):
    return re.findall(r"^// \[doc\][^\n]*\n(.*?)\n// \[/doc\]", text, re.S | re.M)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs", nargs="+", required=True)
    ap.add_argument("--sources", nargs="+", required=True)
    ap.add_argument("--headers", nargs="+", required=True)
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
    for h in a.headers:
        ex = header_example(read(h))
        known.append(ex)
        if not ex:
            print(f"FAIL: {h}: no 'Example (compiled by ...)' code found")
            failures += 1
        elif ex in examples:
            print(f"ok: the example of {h} is in {a.examples}")
        else:
            print(f"FAIL: the example of {h} is not verbatim in {a.examples}")
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

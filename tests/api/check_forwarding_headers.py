#!/usr/bin/env python3
"""Checks the deprecated forwarding headers: check_forwarding_headers.py INCLUDE_DIR -- COMPILER...

Each header at an old path (first line "Deprecated forwarding header: <OLD>
moved to <NEW>") must compile, warn "<OLD> is deprecated: include <NEW>",
and give what <NEW> gives: one translation unit that includes each OLD and
then its NEW compiles (the include guards hold). Exit 1 naming every header
without its warning, with the compiler's output.
"""
import pathlib
import re
import subprocess
import sys
import tempfile

FORWARD = re.compile(r"Deprecated forwarding header: <([^>]+)> moved to <([^>]+)>")


def main(argv):
    if "--" not in argv or len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    root = pathlib.Path(argv[1])
    compiler = argv[argv.index("--") + 1:]
    moves = []
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".hpp", ".h")):
        m = FORWARD.search(" ".join(path.read_text().splitlines()[:2]))
        if m:
            moves.append(m.groups())
    if not moves:
        print("no forwarding headers found: remove this test with them (CHANGELOG.md)")
        return 1
    # One translation unit for all of them (each old path, then its new one):
    # one compile instead of one per header.
    with tempfile.TemporaryDirectory() as tmp:
        tu = pathlib.Path(tmp) / "forward.cpp"
        tu.write_text("".join(f"#include <{old}>\n#include <{new}>\n" for old, new in moves)
                      + "int main() { return 0; }\n")
        r = subprocess.run(compiler + ["-fsyntax-only", "-I", str(root), str(tu)], capture_output=True, text=True)
    if r.returncode != 0:
        print(f"the forwarding headers do not compile:\n{r.stderr}")
        return 1
    missing = [f"<{old}> is deprecated: include <{new}>" for old, new in moves
               if f"<{old}> is deprecated: include <{new}>" not in r.stderr]
    for w in missing:
        print(f"no deprecation warning: {w}")
    if missing:
        print(f"the compiler said:\n{r.stderr}")
        return 1
    print(f"{len(moves)} forwarding headers compile and warn with their new path")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

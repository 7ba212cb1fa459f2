#!/usr/bin/env python3
"""Lists the public headers: list_headers.py INCLUDE_DIR [--expect H... | --forwarding]

Without --expect: prints every *.hpp and *.h below INCLUDE_DIR, relative to
it, sorted, one per line (meson reads this at configure time to generate the
header self-containment and ODR translation units), leaving out the
deprecated forwarding headers at the old paths (they warn by design:
check_forwarding_headers.py tests them). --forwarding lists only those.

With --expect: compares the headers on disk with the list given (the one
meson configured with) and fails when they differ, so a header added or
removed after configuration is not silently left out: reconfigure
(`meson setup --reconfigure BUILD`).
"""
import pathlib
import sys


def is_forwarding(path):
    with open(path) as f:
        return "Deprecated forwarding header" in f.readline()


def headers(root, forwarding=False):
    root = pathlib.Path(root)
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*")
                  if p.is_file() and p.suffix in (".hpp", ".h") and is_forwarding(p) == forwarding)


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    if argv[2:] == ["--forwarding"]:
        print("\n".join(headers(argv[1], forwarding=True)))
        return 0
    found = headers(argv[1])
    if len(argv) == 2:
        print("\n".join(found))
        return 0
    if argv[2] != "--expect":
        print(__doc__, file=sys.stderr)
        return 2
    configured = sorted(argv[3:])
    if found == configured:
        print(f"{len(found)} public headers, all covered")
        return 0
    for h in sorted(set(found) - set(configured)):
        print(f"not covered (added after configuration): {h}")
    for h in sorted(set(configured) - set(found)):
        print(f"configured but gone: {h}")
    print("run `meson setup --reconfigure` on this build directory")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))

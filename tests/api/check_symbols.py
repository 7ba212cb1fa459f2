#!/usr/bin/env python3
"""Symbol checks with nm.

check_symbols.py NM namespace FILE
    Every defined symbol of FILE that mentions the bem namespace names it
    through the inline ABI namespace (bem::v<major>_<minor>_<patch>[_cfg]::),
    so no header defines anything outside BEM_NAMESPACE_BEGIN/END.

check_symbols.py NM exports FILE SYMBOL...
    Of the dynamic symbols FILE defines, the module's own are exactly
    SYMBOL... (hidden visibility: a plugin exports its entry point and
    nothing else of its own). Weak instantiations of libstdc++ templates
    (namespace std, which libstdc++ marks default-visible) are tolerated
    and counted; none may be STB_GNU_UNIQUE (nm type 'u'), which would keep
    the module loaded after dlclose, and none may mention bem.
"""
import re
import subprocess
import sys

ABI = re.compile(r"\bbem::v\d+_\d+_\d+(_[a-z]+)?::")
ANY = re.compile(r"\bbem::")


def nm(tool, args):
    return subprocess.run([tool] + args, check=True, stdout=subprocess.PIPE, text=True,
                          env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"}).stdout.splitlines()


def check_namespace(tool, path):
    bad, seen = [], 0
    for line in nm(tool, ["-C", "--defined-only", path]):
        name = line.split(" ", 2)[-1]
        if not ANY.search(name):
            continue
        seen += 1
        if len(ANY.findall(name)) != len(ABI.findall(name)):
            bad.append(name)
    for b in bad[:20]:
        print("outside the ABI namespace:", b)
    if seen == 0:
        print(f"FAIL: {path} defines no bem symbol at all: the check checked nothing")
        return 1
    print(f"{seen} bem symbols, {len(bad)} outside the ABI namespace")
    return 1 if bad else 0


STD = re.compile(r"^_Z[A-Z]*St")  # _ZSt, _ZNSt, _ZNKSt, _ZZNSt, _ZTVNSt...: namespace std


def check_exports(tool, path, wanted):
    own, std, unique, failures = set(), 0, [], 0
    for line in nm(tool, ["-D", "--defined-only", path]):
        parts = line.split()
        if len(parts) < 3 or parts[1] == "A":  # absolute symbols are version nodes
            continue
        kind, name = parts[1], parts[2].split("@")[0]
        if kind == "u":
            unique.append(name)
        if STD.match(name):
            std += 1
        else:
            own.add(name)
    if unique:
        print(f"FAIL: {path} has STB_GNU_UNIQUE symbols (build with -fno-gnu-unique): {unique[:10]}")
        failures += 1
    if own != set(wanted):
        print(f"FAIL: {path} exports {sorted(own)} of its own, expected exactly {sorted(wanted)}")
        failures += 1
    print(f"{path} exports {sorted(own)} and {std} libstdc++ template instantiations, "
          f"{len(unique)} GNU-unique symbols")
    return 1 if failures else 0


def main(argv):
    if len(argv) >= 4 and argv[2] == "namespace":
        return check_namespace(argv[1], argv[3])
    if len(argv) >= 5 and argv[2] == "exports":
        return check_exports(argv[1], argv[3], argv[4:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""Compile-fail harness: compile_fail.py SOURCE -- COMPILER [FLAGS...]

SOURCE's first line says what must happen:
  // expect: <text>   compilation must FAIL and the compiler's output must
                      contain <text> (a static_assert message, verbatim);
  // expect: success  compilation must SUCCEED, warnings being errors
                      (the positive control: a broken harness cannot pass
                      every case by failing them all).
Exit 0 when the expectation holds, 1 otherwise (the compiler output is
printed), 2 on misuse.
"""
import os
import subprocess
import sys

PREFIX = "// expect: "


def main(argv):
    if len(argv) < 4 or argv[2] != "--":
        print(__doc__, file=sys.stderr)
        return 2
    source, command = argv[1], argv[3:]
    with open(source, encoding="utf-8") as f:
        first = f.readline().rstrip("\n")
    if not first.startswith(PREFIX) or not first[len(PREFIX):].strip():
        print(f"{source}:1: the first line must be '{PREFIX}<text>' or '{PREFIX}success'", file=sys.stderr)
        return 2
    expect = first[len(PREFIX):].strip()
    succeed = expect == "success"
    if succeed:
        command = command + ["-Wall", "-Wextra", "-Wpedantic", "-Werror"]
    command = command + [source]
    env = dict(os.environ, LC_ALL="C", LANG="C")  # plain quotes in diagnostics
    proc = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True,
                          errors="replace")
    output = proc.stdout
    print("$ " + " ".join(command))
    if succeed:
        if proc.returncode == 0:
            print("compiled, as expected")
            return 0
        print(output)
        print(f"FAIL: {source} was expected to compile (exit {proc.returncode})")
        return 1
    if proc.returncode == 0:
        print(output)
        print(f"FAIL: {source} compiled, but it must be rejected with: {expect}")
        return 1
    if expect not in output:
        print(output)
        print(f"FAIL: {source} was rejected, but not with the expected message: {expect}")
        return 1
    print(f"rejected with the expected message: {expect}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

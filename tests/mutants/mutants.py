#!/usr/bin/env python3
"""Mutation check: do the tests notice when the code is wrong?

Each mutant in mutants.json is one small, deliberate defect in a header or
in the driver or a plugin (a comparison turned, a bit not cleared, a rule of
the spec changed). For each, in a scratch git worktree of HEAD (the checkout
is never touched): apply it, build the one test executable named (and what
its meson test depends on), run it with that test's environment, put the
file back. A target "test:NAME" names a meson test instead, for code that
only a script tests (the driver's Python tests): its dependencies are built
and its command run, as `meson test NAME` would.
A mutant is *killed* when the build fails or the test fails (or hangs past
--timeout); one that *survives* is a defect the tests cannot see, unless
the list marks it "equivalent" (no behaviour changes), or "gap" (a defect
the tests are known not to see yet), each with the reason.

    tests/mutants/mutants.py [--only SUBSTRING] [--timeout S] [--keep DIR]
    tests/mutants/mutants.py --sample N [--seed TEXT] --in-place BUILD   (CI)

It checks HEAD, the committed code and tests (commit first). --sample N
draws N mutants with HEAD's hash as the seed (a different few each commit)
from those a test executable kills, unmarked: a "test:" mutant rebuilds the
driver and every plugin, minutes apiece. --in-place BUILD mutates this
checkout and rebuilds in its build folder BUILD instead of a scratch
worktree (CI's clone, built already: one unit's rebuild per mutant); each
file is put back after its mutant, and it refuses a checkout with changes.
--verdicts FILE merges each verdict into FILE (tests/mutants/verdicts.json
holds the verdicts of every mutant, with the commit and date of its run).

Exit status: 0 when every mutant not marked equivalent or gap is killed, 1
when one survives, when a gap is killed (take the mark off), or when its
text no longer matches the source (the list must follow the code), 2 on
usage errors. Not part of `meson test`: a run rebuilds a
test executable per mutant, about two and a half hours on 2 cores.
"""
import argparse
import datetime
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def load(path):
    with open(path) as f:
        mutants = json.load(f)
    for i, m in enumerate(mutants):
        for key in ("id", "file", "old", "new", "target", "defect"):
            if not isinstance(m.get(key), str):
                sys.exit(f"{path}: mutant {i} ({m.get('id', '?')}): field '{key}' must be a string")
    return mutants


def stale(m, source):
    """Why mutant m no longer applies to `source` (its file's text), or None."""
    count = source.count(m["old"])
    return None if count == 1 else f"its text occurs {count} times in {m['file']}, not once"


TEST = "test:"  # a target naming a meson test rather than a test executable


def meson_builds():
    """The text of each tests/*/meson.build."""
    tests = os.path.join(ROOT, "tests")
    for d in sorted(os.listdir(tests)):
        path = os.path.join(tests, d, "meson.build")
        if os.path.exists(path):
            with open(path) as f:
                yield f.read()


def check_list(mutants):
    """Each mutant's text occurs once in its file, and its target is an
    executable or a test some tests/*/meson.build defines: the list follows
    the code."""
    bad = 0
    for m in mutants:
        with open(os.path.join(ROOT, m["file"])) as f:
            why = stale(m, f.read())
        if m["target"].startswith(TEST):
            name = m["target"][len(TEST):]
            defined = any(f"test('{name}'" in text for text in meson_builds())
            missing = f"no test '{name}' in tests/*/meson.build"
        else:
            folder, exe = os.path.dirname(m["target"]), os.path.basename(m["target"])
            meson_build = os.path.join(ROOT, folder, "meson.build")
            defined = False
            if os.path.exists(meson_build):
                with open(meson_build) as f:
                    defined = f"'{exe}'" in f.read()
            missing = f"no executable '{exe}' in {folder}/meson.build"
        if why:
            print(f"{m['id']}: {why}")
        if not defined:
            print(f"{m['id']}: {missing}")
        bad += bool(why) or not defined
    ids = [m["id"] for m in mutants]
    for dup in sorted({i for i in ids if ids.count(i) > 1}):
        print(f"{dup}: two mutants have this id")
        bad += 1
    print(f"{len(mutants)} mutants, {bad} problem(s)")
    return 1 if bad else 0


def failing_case(output):
    """The first test case that failed (a failed check or a crash), or None.
    doctest prints a block per report, opened by a line of '=' and naming its
    test case; MESSAGE() blocks look the same but hold no 'ERROR:', so they
    are passed over. Python's unittest names a failure in a line
    "FAIL: test_x (module.Class.test_x)", or "ERROR: ..." when it raised."""
    for block in output.split("=" * 79):
        if "ERROR:" not in block:
            continue
        for line in block.splitlines():
            if line.startswith("TEST CASE:"):
                return line[len("TEST CASE:"):].strip()
    for line in output.splitlines():
        for kind in ("FAIL: ", "ERROR: "):
            if line.startswith(kind) and line.endswith(")") and " (" in line:
                return line[len(kind):line.index(" (")]
    return None


def test_setups(build):
    """What each meson test gives the program it runs: its environment
    (plugin paths, for instance), the build outputs it needs, as ninja
    targets, its command and its working folder. Found both by the test
    executable's path and by "test:" + the test's name."""
    def introspect(what):
        r = subprocess.run(["meson", "introspect", what, build], check=True, capture_output=True, text=True)
        return json.loads(r.stdout)
    files = {t["id"]: t["filename"] for t in introspect("--targets")}
    setups = {}
    for t in introspect("--tests"):
        deps = [os.path.relpath(f, build) for d in t.get("depends", []) for f in files.get(d, [])]
        setup = {"env": t.get("env") or {}, "deps": sorted(set(deps)), "cmd": t["cmd"], "workdir": t.get("workdir")}
        setups[os.path.realpath(t["cmd"][0])] = setup
        setups[TEST + t["name"]] = setup
    return setups


def setup_of(build, target, setups):
    """The setup of the test `target` names (see test_setups). An executable
    no test runs: itself, with nothing extra."""
    if target.startswith(TEST):
        if target not in setups:
            raise KeyError(f"no meson test named '{target[len(TEST):]}' in {build}")
        return setups[target]
    exe = os.path.join(build, target)
    return setups.get(os.path.realpath(exe), {"env": {}, "deps": [], "cmd": [exe], "workdir": None})


def run_test(build, target, setups, timeout=None):
    s = setup_of(build, target, setups)
    # errors="replace": a failing check may print the bytes it compared (a binary proof, say).
    return subprocess.run(s["cmd"], capture_output=True, text=True, errors="replace", timeout=timeout,
                          cwd=s["workdir"] or build, env=dict(os.environ, **s["env"]))


def build_targets(build, target, setups):
    """The executable (unless the target is a test) and what its test needs:
    a mutated header may be in a plugin too."""
    deps = setup_of(build, target, setups)["deps"]
    return ([] if target.startswith(TEST) else [target]) + [d for d in deps if d != target]


def ninja(build, targets):
    """Builds `targets`; none: nothing (a bare ninja would build everything)."""
    if not targets:
        return subprocess.CompletedProcess([], 0, "", "")
    return subprocess.run(["ninja", "-C", build] + targets, capture_output=True, text=True, errors="replace")


def run_one(tree, build, m, timeout, setups):
    path = os.path.join(tree, m["file"])
    with open(path) as f:
        source = f.read()
    why = stale(m, source)
    if why:
        return "stale: " + why
    with open(path, "w") as f:
        f.write(source.replace(m["old"], m["new"]))
    try:
        if ninja(build, build_targets(build, m["target"], setups)).returncode != 0:
            return "killed (build)"
        try:
            r = run_test(build, m["target"], setups, timeout)
        except subprocess.TimeoutExpired:
            return f"killed (over {timeout} s)"
        if r.returncode == 0:
            return "survived"
        case = failing_case(r.stdout + "\n" + r.stderr)
        return "killed" + (f" by '{case}'" if case else f" (exit {r.returncode})")
    finally:
        with open(path, "w") as f:
            f.write(source)


def draw(mutants, n, seed):
    """n mutants drawn with `seed` from those a test executable kills and the
    list does not mark equivalent or gap."""
    pool = [m for m in mutants if not m["target"].startswith(TEST) and "equivalent" not in m and "gap" not in m]
    return random.Random(seed).sample(pool, min(n, len(pool)))


def record_verdicts(path, head, results):
    """Merges {id: (verdict, seconds)} into the verdicts file at `path`."""
    data = {}
    if os.path.exists(path):
        with open(path) as f:
            data = json.load(f)
    today = datetime.date.today().isoformat()
    for mid, (verdict, seconds) in results.items():
        data[mid] = {"verdict": verdict, "commit": head, "date": today, "seconds": round(seconds)}
    with open(path + ".tmp", "w") as f:
        json.dump(dict(sorted(data.items())), f, indent=1)
        f.write("\n")
    os.replace(path + ".tmp", path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default="", help="run the mutants whose id contains this")
    ap.add_argument("--timeout", type=int, default=300, help="seconds a mutant's test may run (default 300)")
    ap.add_argument("--keep", metavar="DIR", help="worktree to use and keep (its build is reused next time)")
    ap.add_argument("--list", default=os.path.join(HERE, "mutants.json"), help="the mutants (default: mutants.json)")
    ap.add_argument("--sample", type=int, metavar="N", help="N mutants drawn with --seed from those a test executable kills")
    ap.add_argument("--seed", help="the sample's seed (default: HEAD's hash)")
    ap.add_argument("--in-place", metavar="BUILD", help="mutate this checkout, rebuilding in its build folder BUILD")
    ap.add_argument("--verdicts", metavar="FILE", help="merge each verdict into this JSON file")
    ap.add_argument("--check-list", action="store_true",
                    help="only check that each mutant still applies to the sources and names a test executable "
                         "(seconds; `meson test` runs this)")
    args = ap.parse_args()
    if args.check_list:
        return check_list(load(args.list))
    mutants = [m for m in load(args.list) if args.only in m["id"]]
    if not mutants:
        print(f"no mutant id contains '{args.only}'", file=sys.stderr)
        return 2
    if args.in_place and args.keep:
        print("--in-place and --keep exclude each other", file=sys.stderr)
        return 2

    head = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], check=True, capture_output=True,
                          text=True).stdout.strip()
    if args.sample is not None:
        seed = args.seed or head
        mutants = draw(mutants, args.sample, seed)
        print(f"a sample of {len(mutants)} (seed {seed}): {' '.join(m['id'] for m in mutants)}", flush=True)
    if args.in_place:
        changed = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"], check=True,
                                 capture_output=True, text=True).stdout
        if changed:
            print(f"--in-place mutates this checkout, which has changes: commit or stash them\n{changed}",
                  file=sys.stderr)
            return 2
        if not os.path.exists(os.path.join(args.in_place, "build.ninja")):
            print(f"--in-place {args.in_place}: no build.ninja there (build first)", file=sys.stderr)
            return 2
        tree = ROOT
    else:
        tree = args.keep or tempfile.mkdtemp(prefix="bem-mutants-")
        if not os.path.exists(os.path.join(tree, ".git")):
            if os.path.exists(tree):
                os.rmdir(tree)  # git worktree add wants to create it
            subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", tree, head], check=True,
                           capture_output=True)
        else:  # a kept worktree follows HEAD (the sources only: its build is reused)
            subprocess.run(["git", "-C", tree, "checkout", "-q", "--force", "--detach", head], check=True)
    build = os.path.abspath(args.in_place) if args.in_place else os.path.join(tree, "build")
    if not os.path.exists(os.path.join(build, "build.ninja")):
        subprocess.run(["meson", "setup", build, "--wrap-mode=nodownload"], cwd=tree, check=True, capture_output=True)
    # build.ninja first: the sources may declare new targets and tests since the last run.
    subprocess.run(["ninja", "-C", build, "build.ninja"], check=True, capture_output=True)
    setups = test_setups(build)
    unknown = sorted({m["target"] for m in mutants if m["target"].startswith(TEST) and m["target"] not in setups})
    if unknown:
        print(f"no such meson test: {', '.join(unknown)}", file=sys.stderr)
        return 2
    # The unmutated tests first: a failure there says nothing of a mutant.
    targets = sorted({m["target"] for m in mutants})
    b = ninja(build, sorted({d for t in targets for d in build_targets(build, t, setups)}))
    if b.returncode != 0:
        print(b.stdout[-3000:], file=sys.stderr)
        return 1
    for t in targets:
        if run_test(build, t, setups).returncode != 0:
            print(f"{t} fails without any mutant: fix that first", file=sys.stderr)
            return 1

    failed = 0
    for m in mutants:
        start = time.time()
        verdict = run_one(tree, build, m, args.timeout, setups)
        if args.verdicts:  # each as it comes: an interrupted run keeps what it decided
            record_verdicts(args.verdicts, head, {m["id"]: (verdict, time.time() - start)})
        excused = "equivalent" in m or "gap" in m
        bad = verdict.startswith("stale") or (verdict == "survived") != excused
        failed += bad
        note = ""
        if excused:
            kind = "equivalent" if "equivalent" in m else "gap"
            note = f" ({kind}: {m[kind]})" if verdict == "survived" else f" (marked {kind}, yet killed)"
        print(f"{'FAIL' if bad else 'ok  '} {m['id']}: {verdict}{note} [{time.time() - start:.0f} s]", flush=True)
    if not args.keep and not args.in_place:
        subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force", tree], capture_output=True)
        shutil.rmtree(tree, ignore_errors=True)
    print(f"{len(mutants) - failed} of {len(mutants)} as expected", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

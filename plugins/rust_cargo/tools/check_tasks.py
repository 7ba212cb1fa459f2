#!/usr/bin/env python3
"""Authoring check for benchmarks_v1 tasks (see docs/rust-benchmarks.md).

For each task folder given (or every task under a category or dataset folder)
it checks the metadata and the splicing invariants, then assembles the crate
twice, once with the reference answer and once with the unchanged prompt, and
runs `cargo build --lib --tests` plus `cargo test --lib`, unconfined: use it only on
tasks you wrote. The solution must pass with at least three tests executed;
the prompt must fail. The authoritative check is the C++ runner's dataset
validation test; this script exists so that task authors get an answer in
seconds.

    check_tasks.py [--cargo /usr/bin/cargo] [--jobs 2] PATH...
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rust_tokens  # noqa: E402  (its nested block comments: one lexer rule for both tools)

CATEGORIES = ["completion", "fim", "functions", "bugs", "refactor", "ownership", "projects", "stdlib"]
CONTINUATION = {"completion", "functions", "stdlib"}
WHOLE_FILE = {"bugs", "refactor", "ownership"}
MARKER = "/*FILL*/"
FIELDS = ["id", "category", "difficulty", "expected_runtime_s", "tags", "expected_behavior"]
# Optional, and checked when given; any other key is an error (the loader's rule).
COMMANDS = {"compile_command": "cargo build --offline", "test_command": "cargo test --offline"}
KNOWN_FIELDS = FIELDS + list(COMMANDS) + ["target_file"]
TEST_DECL = "#[cfg(test)] mod bem_tests; "
TASK_FILES = ["prompt.rs", "solution.rs", "tests.rs", "Cargo.toml", "metadata.yaml"]


def _skip_comment_or_literal(s, i):
    """Past a comment, string or character literal starting at s[i]; i when none starts there
    (the C++ runner's lexer, dataset.cpp, in short)."""
    if s.startswith("//", i):
        nl = s.find("\n", i)
        return len(s) if nl < 0 else nl + 1
    if s.startswith("/*", i):
        return rust_tokens.block_comment_end(s, i)
    m = re.compile(r'(?<![A-Za-z0-9_])[bc]?r(#*)"').match(s, i) if i == 0 or not re.match(r"\w", s[i - 1]) else None
    if m:
        end = s.find('"' + m.group(1), m.end())
        return len(s) if end < 0 else end + 1 + len(m.group(1))
    m = re.compile(r'[bc]?"(?:\\.|[^"\\])*"?', re.S).match(s, i)
    if m and (s[i] == '"' or i == 0 or not re.match(r"\w", s[i - 1])):
        return m.end()
    m = re.compile(r"b?'(?:\\.[^']*|[^'])'").match(s, i)
    if m:
        return m.end()
    return i + 1 if s[i:i + 1] == "'" else i


def with_tests_module(root):
    """The crate root with TEST_DECL before its first item, after inner attributes and inner doc comments."""
    i = 1 if root.startswith("\ufeff") else 0
    if root.startswith("#!", i) and not root[i + 2:].lstrip().startswith("["):
        nl = root.find("\n", i)
        i = len(root) if nl < 0 else nl + 1
    while True:
        while i < len(root) and root[i].isspace():
            i += 1
        outer_doc = (root.startswith("///", i) and not root.startswith("////", i)) or (
            root.startswith("/**", i) and not root.startswith("/***", i) and not root.startswith("/**/", i))
        if (root.startswith("//", i) or root.startswith("/*", i)) and not outer_doc:
            i = _skip_comment_or_literal(root, i)
        elif re.compile(r"#!\s*\[").match(root, i):
            i, depth = root.index("[", i), 0
            while i < len(root):
                j = _skip_comment_or_literal(root, i)
                if j != i:
                    i = j
                    continue
                depth += {"[": 1, "]": -1}.get(root[i], 0)
                i += 1
                if depth == 0:
                    break
        else:
            break
    if i >= len(root):
        return root + "\n" + TEST_DECL + "\n"
    return root[:i] + TEST_DECL + root[i:]


def task_dirs(path):
    path = os.path.abspath(path)
    if os.path.exists(os.path.join(path, "metadata.yaml")):
        return [path]
    out = []
    for root, dirs, files in os.walk(path):
        dirs.sort()
        if "metadata.yaml" in files:
            out.append(root)
            dirs[:] = []
    return out


def read(p):
    with open(p, encoding="utf-8") as f:
        return f.read()


def layout_problems(d, project):
    """The spec's layout and nothing else, as the C++ loader (dataset.cpp's folder_files) demands."""
    problems = []
    for root, dirs, files in os.walk(d):
        for name in sorted(dirs) + sorted(files):
            full = os.path.join(root, name)
            rel = os.path.relpath(full, d).replace(os.sep, "/")
            in_src = rel == "src" or rel.startswith("src/")
            if os.path.islink(full):
                problems.append(f"{rel}: a link (a task folder holds only its own files)")
            elif in_src and not project:
                problems.append(f"{rel}: only projects have context files")
            elif not in_src and rel not in TASK_FILES:
                problems.append(f"{rel}: not part of a task's layout")
        dirs[:] = [x for x in dirs if project and (x == "src" or os.path.relpath(root, d).startswith("src"))]
    return problems


def static_problems(d):
    """Problems found without compiling, and (candidate from solution, candidate from prompt, context files)."""
    problems = []
    category = os.path.basename(os.path.dirname(d))
    tid = os.path.basename(d)
    for f in TASK_FILES:
        if not os.path.isfile(os.path.join(d, f)):
            problems.append(f"missing {f}")
    problems += layout_problems(d, category == "projects")
    if problems:
        return problems, None
    meta = yaml.safe_load(read(os.path.join(d, "metadata.yaml")))
    if not isinstance(meta, dict):
        return ["metadata.yaml is not a mapping"], None
    for f in FIELDS:
        if f not in meta:
            problems.append(f"metadata.yaml: missing field '{f}'")
    for key in meta:
        if key not in KNOWN_FIELDS:
            problems.append(f"metadata.yaml: unknown field '{key}'")
    if meta.get("id") != tid:
        problems.append(f"metadata.yaml: id '{meta.get('id')}' differs from the folder name '{tid}'")
    if not re.fullmatch(r"[a-z0-9_]+", tid):
        problems.append("task id must be lower-case letters, digits and _")
    if meta.get("category") != category or category not in CATEGORIES:
        problems.append(f"metadata.yaml: category '{meta.get('category')}' must equal the folder '{category}'")
    if meta.get("difficulty") not in ("easy", "medium", "hard"):
        problems.append("metadata.yaml: difficulty must be easy, medium or hard")
    if not isinstance(meta.get("tags"), list) or not meta.get("tags"):
        problems.append("metadata.yaml: tags must be a non-empty list")
    for key, command in COMMANDS.items():
        if key in meta and meta[key] != command:
            problems.append(f"metadata.yaml: {key} must be '{command}' (or left out)")
    if (category == "projects") != ("target_file" in meta):
        problems.append("metadata.yaml: target_file is required for projects and only there")
    cargo = read(os.path.join(d, "Cargo.toml"))
    if "doctest = false" not in cargo:
        problems.append("Cargo.toml: [lib] needs doctest = false")
    if re.search(r"^\s*\[(dev-|build-)?dependencies\]\s*\n\s*[a-zA-Z]", cargo, re.M) or "build =" in cargo:
        problems.append("Cargo.toml: no dependencies and no build script")
    prompt = read(os.path.join(d, "prompt.rs"))
    solution = read(os.path.join(d, "solution.rs"))
    context = {}
    if category in CONTINUATION:
        if not solution.startswith(prompt):
            problems.append("solution.rs must start with prompt.rs (continuation category)")
        from_prompt = prompt
    elif category == "fim":
        if prompt.count(MARKER) != 1:
            problems.append(f"prompt.rs must hold {MARKER} exactly once")
            return problems, None
        prefix, suffix = prompt.split(MARKER)
        if not (solution.startswith(prefix) and solution.endswith(suffix) and len(solution) >= len(prefix) + len(suffix)):
            problems.append("solution.rs must start with the prefix and end with the suffix")
        from_prompt = prefix + suffix
    else:
        from_prompt = prompt
    if category == "projects":
        target = meta.get("target_file", "")
        src = os.path.join(d, "src")
        for root, _, files in os.walk(src):
            for f in files:
                full = os.path.join(root, f)
                context[os.path.relpath(full, d)] = read(full)
        if target in context:
            problems.append(f"{target} must not exist among the context files (it comes from prompt.rs)")
        if "src/lib.rs" not in context and target != "src/lib.rs":
            problems.append("projects need a context file src/lib.rs")
    return problems, (solution, from_prompt, context, meta)


def assemble(dest, d, candidate, context, meta):
    if os.path.exists(dest):
        shutil.rmtree(dest)
    os.makedirs(os.path.join(dest, "src"))
    shutil.copy(os.path.join(d, "Cargo.toml"), os.path.join(dest, "Cargo.toml"))
    files = dict(context)
    files[meta.get("target_file", "src/lib.rs")] = candidate
    files["src/lib.rs"] = with_tests_module(files["src/lib.rs"])
    files["src/bem_tests.rs"] = read(os.path.join(d, "tests.rs"))
    for rel, text in files.items():
        p = os.path.join(dest, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w", encoding="utf-8") as f:
            f.write(text)


def cargo_run(cargo, crate, target, expected):
    env = dict(os.environ, CARGO_INCREMENTAL="0", CARGO_PROFILE_DEV_DEBUG="0", CARGO_TARGET_DIR=target)
    t0 = time.monotonic()
    b = subprocess.run([cargo, "build", "--offline", "--lib", "--tests", "-q"], cwd=crate, env=env, capture_output=True,
                       text=True, timeout=60)
    build_s = time.monotonic() - t0
    if b.returncode != 0:
        return {"compiled": False, "passed": False, "tests": 0, "build_s": build_s, "test_s": 0.0, "log": b.stderr}
    t0 = time.monotonic()
    t = subprocess.run([cargo, "test", "--offline", "--lib"], cwd=crate, env=env, capture_output=True,
                       text=True, timeout=60)
    test_s = time.monotonic() - t0
    # Only the task's own tests count (bem_tests::...), each reported by libtest, as the runner counts them.
    results = dict(re.findall(r"^test (bem_tests::\S+)(?: - should panic)? \.\.\. (ok|FAILED|ignored)", t.stdout, re.M))
    executed = sum(1 for v in results.values() if v != "ignored")
    all_ok = len(results) == expected and all(v == "ok" for v in results.values())
    return {"compiled": True, "passed": t.returncode == 0 and executed > 0 and all_ok, "tests": executed, "build_s": build_s,
            "test_s": test_s, "log": t.stdout[-3000:] + t.stderr[-2000:]}


def check(d, cargo, work):
    problems, parts = static_problems(d)
    if parts is None:
        return d, problems
    solution, from_prompt, context, meta = parts
    target = os.path.join(work, "target")
    crate = os.path.join(work, "crate")
    assemble(crate, d, solution, context, meta)
    expected = read(os.path.join(d, "tests.rs")).count("#[test]")
    r = cargo_run(cargo, crate, target, expected)
    if not r["passed"]:
        problems.append("solution fails:\n" + r["log"])
    elif r["tests"] < 3:
        problems.append(f"solution: only {r['tests']} tests executed (at least 3)")
    if r["build_s"] > 10 or r["test_s"] > 10:
        problems.append(f"too slow: build {r['build_s']:.1f} s, tests {r['test_s']:.1f} s")
    assemble(crate, d, from_prompt, context, meta)
    p = cargo_run(cargo, crate, target, expected)
    if p["passed"]:
        problems.append("the unchanged prompt passes the tests")
    return d, problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--cargo", default="cargo")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    dirs = [t for p in a.paths for t in task_dirs(p)]
    ids = {}
    for t in dirs:
        ids.setdefault(os.path.basename(t), []).append(t)
    failed = 0
    for tid, where in ids.items():
        if len(where) > 1:
            print(f"DUPLICATE id {tid}: {where}")
            failed += 1
    with tempfile.TemporaryDirectory() as tmp:
        local = threading.local()

        def run_one(d):
            if not hasattr(local, "work"):  # one folder (and target dir) per worker thread
                local.work = tempfile.mkdtemp(dir=tmp)
            return check(d, a.cargo, local.work)

        with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as ex:
            futures = [ex.submit(run_one, d) for d in dirs]
        for f in futures:
            d, problems = f.result()
            if problems:
                failed += 1
                print(f"FAIL {d}")
                for p in problems:
                    print("   " + p.replace("\n", "\n   "))
            else:
                print(f"ok   {d}")
    print(f"{len(dirs) - failed} of {len(dirs)} tasks ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

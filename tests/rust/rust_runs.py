"""What the Rust suite's end-to-end tests share: running bem-bench and reading
what a run wrote (records, and the evaluations and samples of its artifacts)."""
import json
import os
import shutil
import subprocess
import sys
import unittest

BENCH = os.environ["BEM_BENCH"]
ROOT = os.environ["BEM_SOURCE_ROOT"]
DATASET = os.path.join(ROOT, "plugins", "rust_cargo", "benchmarks_v1")
ORACLE_COMMAND = os.path.join(ROOT, "tests", "rust", "oracle_command.py")
FAKE_MODEL_SERVER = os.path.join(ROOT, "tests", "rust", "fake_model_server.py")


def skip_reason():
    if shutil.which("cargo") is None or shutil.which("rustc") is None:
        return "no cargo/rustc on PATH"
    if shutil.which("bwrap") is None:
        return "no bubblewrap"
    return None


def run(*args, env=None):
    return subprocess.run([BENCH, *args], capture_output=True, text=True, env=env)


def records(out):
    with open(os.path.join(out, "results.jsonl")) as f:
        return [json.loads(l) for l in f if l.strip()]


def artifact(out, model, name):
    """The lines of an artifact file (evaluations.jsonl, samples.jsonl) of `model`'s run."""
    run_id = [r for r in records(out) if r["model"] == model][0]["run_id"]
    with open(os.path.join(out, "artifacts", run_id, name)) as f:
        return [json.loads(l) for l in f if l.strip()]


def evaluations(out, model):
    return artifact(out, model, "evaluations.jsonl")


def main():
    """Run the calling script's tests, or exit 77 (skipped) without cargo or bubblewrap."""
    reason = skip_reason()
    if reason:
        print("skipped:", reason)
        sys.exit(77)
    unittest.main(module="__main__")

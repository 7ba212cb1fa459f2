#!/usr/bin/env python3
"""A `command` model for the tests: reads the rendered prompt on stdin and
answers with the reference, found from BEM_TASK_ID and BEM_CATEGORY. It checks
that the prompt it got is what docs/rust-benchmarks.md says a command model
receives, so the test proves the protocol, not only the plumbing. With
BEM_TEST_FAIL_GREEDY set it fails every greedy request (temperature 0). With
BEM_TEST_PASS_SAMPLES set (sample indices, and "greedy", comma-separated) only
those outputs are the reference; every other one is what the identity model
returns (an empty continuation or middle, the unchanged file), so a test knows
how many outputs of each task pass. BEM_TEST_APPEND is appended to every
answer."""
import os
import sys

if os.environ.get("BEM_TEST_FAIL_GREEDY") and float(os.environ["BEM_TEMPERATURE"]) == 0.0:
    sys.exit("no greedy answers today")
root = os.environ["BEM_TEST_DATASET"]
task = os.path.join(root, os.environ["BEM_CATEGORY"], os.environ["BEM_TASK_ID"])
prompt = sys.stdin.read()
with open(os.path.join(task, "prompt.rs")) as f:
    original = f.read()
with open(os.path.join(task, "solution.rs")) as f:
    solution = f.read()
splice = os.environ["BEM_SPLICE"]
passing = os.environ.get("BEM_TEST_PASS_SAMPLES")
this = "greedy" if float(os.environ["BEM_TEMPERATURE"]) == 0.0 else os.environ["BEM_SAMPLE"]
if passing is not None and this not in passing.split(","):
    sys.stdout.write("" if splice in ("continuation", "fill-in-middle") else original)
elif splice == "continuation":
    assert prompt == original, "a continuation model receives prompt.rs"
    sys.stdout.write(solution[len(original):])
elif splice == "fill-in-middle":
    prefix, suffix = original.split("/*FILL*/")
    assert prompt == "<fim_prefix>" + prefix + "<fim_suffix>" + suffix + "<fim_middle>", "StarCoder FIM by default"
    sys.stdout.write(solution[len(prefix):len(solution) - len(suffix)])
else:
    assert original in prompt, "a rewrite prompt holds the file"
    sys.stdout.write(solution)
sys.stdout.write(os.environ.get("BEM_TEST_APPEND", ""))

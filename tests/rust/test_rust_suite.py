"""The Rust suite end to end through bem-bench, over benchmarks_v1.

With BEM_RUST_SUITE=all (`meson test --suite rust-dataset`: about five
minutes on 2 cores) this is the dataset's validation over every task: with the
reference answers (oracle) every task compiles and passes, with its tests
executed; with the unchanged prompts (identity) every task fails; a second run
of 22 tasks gives the same verdicts, passes and failures alike.
By default (`meson test`, CI) the same checks run on a sample of 3 tasks per
category, drawn afresh for each commit (its hash seeds the draw, so over many
commits the sample covers the dataset, while one commit always checks the same
tasks); the second run repeats the sample's bugs and ownership tasks. The test
prints the draw; BEM_RUST_SAMPLE_SEED=SEED repeats it.
Then:
the report shows the category table;
the 5% regression gate accepts the oracle against itself and blocks the
identity model against it. The plugin's parameters, records and models on a
few tasks each are test_rust_plugin.py's.

Verdicts only, never speed: the runs get step limits no busy machine reaches
(LIMITS), so a build slowed by other processes is not a build_timeout. The
spec's 10 s per build and per test run (the dataset's rule 3) is timed by
bench/rust, which judges every task at the default limits.
"""
import fnmatch
import json
import os
import random
import shutil
import subprocess
import tempfile
import unittest

from rust_runs import DATASET, ROOT, evaluations, main, records, run

SUITE = os.path.join(ROOT, "configs", "rust.toml")
CATEGORIES = ["completion", "fim", "functions", "bugs", "refactor", "ownership", "projects", "stdlib"]
PER_CATEGORY = 3


def commit():
    r = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else "not-a-git-checkout"


def sampled_tasks():
    """The tasks this run checks: None for all, else PER_CATEGORY of each category."""
    if os.environ.get("BEM_RUST_SUITE") == "all":
        return None
    seed = os.environ.get("BEM_RUST_SAMPLE_SEED") or commit()
    draw = random.Random(seed)
    tasks = []
    for c in CATEGORIES:
        folder = os.path.join(DATASET, c)
        tasks += draw.sample(sorted(t for t in os.listdir(folder) if os.path.isdir(os.path.join(folder, t))),
                             PER_CATEGORY)
    print(f"a sample of benchmarks_v1 (BEM_RUST_SAMPLE_SEED={seed} repeats it, BEM_RUST_SUITE=all checks every task):",
          " ".join(tasks), flush=True)
    return tasks


SAMPLE = sampled_tasks()
# Run twice: with every task, 11 of bugs and 11 of ownership, whose unchanged
# prompts fail to compile (borrow-check errors among them) or fail their tests.
AGAIN = (["bug_[l-p]*", "own_[c-h]*"] if SAMPLE is None
         else [t for t in SAMPLE if t.startswith(("bug_", "own_"))])
# Step limits far above the 10 s default: the clock stops only a hung step.
LIMITS = "build_timeout_s = 60\ntest_timeout_s = 60\n"


def suite_with_limits(path, out):
    """configs/rust.toml with LIMITS (and the sample) added to its run's parameters (its last table)."""
    with open(path) as f:
        text = f.read()
    tables = [l.strip() for l in text.splitlines() if l.strip().startswith("[")]
    assert tables[-1] == "[run.params]" and tables.count("[[run]]") == 1, f"{path}: expected one run, params last"
    assert "timeout_s" not in text and "tasks =" not in text, f"{path} sets a step limit or tasks already"
    with open(out, "w") as f:
        f.write(text.rstrip("\n") + "\n" + LIMITS + ("" if SAMPLE is None else f"tasks = {json.dumps(SAMPLE)}\n"))
    return out


class RustSuite(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="bem-rust-suite-")
        cls.first = os.path.join(cls.tmp, "first")
        cls.second = os.path.join(cls.tmp, "second")
        suite = suite_with_limits(SUITE, os.path.join(cls.tmp, "rust.toml"))
        r = run("run", suite, "--out", cls.first)
        cls.first_rc, cls.first_log = r.returncode, r.stdout + r.stderr
        again = os.path.join(cls.tmp, "again.toml")
        with open(again, "w") as f:
            f.write(f'name = "again"\n[[run]]\ntask = "rust_cargo"\nmodels = ["oracle", "identity"]\nseeds = [1]\n'
                    f'[run.params]\ntasks = {json.dumps(AGAIN)}\nsamples = 10\ngreedy = true\n{LIMITS}')
        r = run("run", again, "--out", cls.second)
        cls.second_rc, cls.second_log = r.returncode, r.stdout + r.stderr

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def value(self, out, model, category, metric):
        for r in records(out):
            if r["model"] == model and r["metric"] == metric and r.get("condition", {}).get("category") == category:
                return r["value"]
        self.fail(f"no {metric} for {model}/{category}")

    def test_runs_succeed(self):
        self.assertEqual(self.first_rc, 0, self.first_log[-3000:])
        self.assertEqual(self.second_rc, 0, self.second_log[-3000:])

    def test_oracle_scores_one_in_every_category(self):
        for c in CATEGORIES + ["all"]:
            with self.subTest(category=c):
                for m in ["compile_rate", "pass@1", "pass@5", "pass@10", "greedy_pass@1"]:
                    self.assertEqual(self.value(self.first, "oracle", c, m), 1.0, m)

    def test_identity_scores_zero_in_every_category(self):
        for c in CATEGORIES + ["all"]:
            with self.subTest(category=c):
                for m in ["pass@1", "pass@5", "pass@10", "greedy_pass@1"]:
                    self.assertEqual(self.value(self.first, "identity", c, m), 0.0, m)

    def test_every_solution_passes_with_tests(self):
        evs = evaluations(self.first, "oracle")
        tasks = {e["task"] for e in evs}
        if SAMPLE is None:
            self.assertGreaterEqual(len(tasks), 200)
        else:
            self.assertEqual(tasks, set(SAMPLE))
        for e in evs:
            with self.subTest(task=e["task"]):
                self.assertTrue(e["passed"], e.get("first_error"))
                self.assertGreaterEqual(e["tests_passed"], 3)
                # Every test of tests.rs ran and passed, and only those counted.
                with open(os.path.join(DATASET, e["category"], e["task"], "tests.rs")) as f:
                    self.assertEqual(e["tests_passed"], f.read().count("#[test]"))
                self.assertEqual((e["tests_failed"], e["tests_missing"]), (0, 0))

    def test_every_unchanged_prompt_fails(self):
        for e in evaluations(self.first, "identity"):
            with self.subTest(task=e["task"]):
                self.assertFalse(e["passed"])

    def test_two_runs_give_the_same_verdicts(self):
        def verdicts(out, model):
            return {(e["task"], e["sample"], e["greedy"]): (e["verdict"], e["tests_passed"], e["tests_failed"])
                    for e in evaluations(out, model) if any(fnmatch.fnmatchcase(e["task"], p) for p in AGAIN)}
        for model in ["oracle", "identity"]:
            with self.subTest(model=model):
                again = verdicts(self.second, model)
                self.assertEqual(len({task for task, _, _ in again}), 22 if SAMPLE is None else len(AGAIN))
                self.assertEqual(verdicts(self.first, model), again)
        if SAMPLE is None:  # a sample of 6 may hold one kind only
            kinds = {v[0] for v in verdicts(self.second, "identity").values()}
            self.assertGreater(len(kinds), 1, "the identity's verdicts in the rerun categories should differ in kind")

    def test_records_name_toolchain_dataset_and_sandbox(self):
        head = [r for r in records(self.first) if r["metric"] == "tasks"][0]["condition"]
        self.assertEqual(head["benchmark_version"], "benchmarks_v1")
        self.assertTrue(head["dataset_is_pinned_v1"])
        self.assertTrue(head["rustc"].startswith("rustc "))
        self.assertTrue(head["cargo"].startswith("cargo "))
        probe = subprocess.run(["bwrap", "--unshare-all", "--ro-bind", "/", "/", "true"], capture_output=True)
        if probe.returncode == 0:  # bubblewrap works here, so the run must have used it
            self.assertEqual(head["sandbox"], "bubblewrap")
        metrics = {r["metric"] for r in records(self.first) if r["model"] == "identity"}
        for m in ["build_seconds_p50", "build_seconds_p95", "test_seconds_p95", "build_peak_rss_p95",
                  "test_peak_rss_p95", "samples_per_second", "tests_executed", "borrow_check_failures"]:
            self.assertIn(m, metrics)
        self.assertTrue(any(m.startswith("rustc_error_E") for m in metrics))

    def test_samples_are_stored_and_can_be_evaluated_again(self):
        recs = [r for r in records(self.first) if r["model"] == "identity"]
        samples = os.path.join(self.first, "artifacts", recs[0]["run_id"], "samples.jsonl")
        suite = os.path.join(self.tmp, "stored.toml")
        # Only the fim tasks the first run judged: the others have no stored samples.
        judged = "" if SAMPLE is None else f"tasks = {json.dumps([t for t in SAMPLE if t.startswith('fim_')])}\n"
        with open(suite, "w") as f:
            f.write('name = "stored"\n[[run]]\ntask = "rust_cargo"\nmodel = "stored"\nseeds = [1]\n'
                    f'[run.params]\ncategories = ["fim"]\n{judged}{LIMITS}'
                    f'[run.model_params]\nsamples = "{samples}"\n')
        out = os.path.join(self.tmp, "stored")
        r = run("run", suite, "--out", out)
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        self.assertEqual(self.value(out, "stored", "fim", "pass@1"), 0.0)
        self.assertEqual(self.value(out, "stored", "fim", "compile_rate"),
                         self.value(self.first, "identity", "fim", "compile_rate"))

    def test_report_shows_the_category_table(self):
        with open(os.path.join(self.first, "report.html")) as f:
            html = f.read()
        self.assertIn("<th>category</th>", html)
        for c in CATEGORIES:
            self.assertIn(f"<td>{c}</td>", html)

    def test_regression_gate_across_models(self):
        base, cur = os.path.join(self.tmp, "base"), os.path.join(self.tmp, "cur")
        for d, model in [(base, "oracle"), (cur, "identity")]:
            r = run("report", self.first, "--out", d)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(os.path.join(d, "metrics.json")) as f:
                m = json.load(f)
            m["summary"] = [e for e in m["summary"] if e["model"] == model]
            with open(os.path.join(d, "metrics.json"), "w") as f:
                json.dump(m, f)
        same = run("compare", base, base, "--across-models")
        self.assertEqual(same.returncode, 0, same.stdout[-2000:])
        worse = run("compare", base, cur, "--across-models")
        self.assertEqual(worse.returncode, 1, worse.stdout[-2000:])
        self.assertIn("rust_cargo / oracle / fim / pass@1", worse.stdout)


if __name__ == "__main__":
    main()

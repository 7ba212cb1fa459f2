"""The Rust suite end to end through bem-bench, over the whole of benchmarks_v1.

This is the dataset's validation: with the reference answers (oracle) every
task compiles and passes, with its tests executed, building in under 10 s and
testing in under 10 s; with the unchanged prompts (identity) every task fails;
a second run of 22 tasks gives the same verdicts, passes and failures alike
(both categories they come from again would add half a minute with Rust 1.95
and check no more);
the report shows the category table;
the 5% regression gate accepts the oracle against itself and blocks the
identity model against it.
"""
import fnmatch
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

BENCH = os.environ["BEM_BENCH"]
ROOT = os.environ["BEM_SOURCE_ROOT"]
SUITE = os.path.join(ROOT, "configs", "rust.toml")
DATASET = os.path.join(ROOT, "plugins", "rust_cargo", "benchmarks_v1")
CATEGORIES = ["completion", "fim", "functions", "bugs", "refactor", "ownership", "projects", "stdlib"]
# Run twice: 11 tasks of bugs and 11 of ownership, whose unchanged prompts fail
# to compile (borrow-check errors among them) or fail their tests.
AGAIN = ["bug_[l-p]*", "own_[c-h]*"]


def skip_reason():
    if shutil.which("cargo") is None or shutil.which("rustc") is None:
        return "no cargo/rustc on PATH"
    if shutil.which("bwrap") is None:
        return "no bubblewrap"
    return None


def run(*args):
    return subprocess.run([BENCH, *args], capture_output=True, text=True)


def records(out):
    with open(os.path.join(out, "results.jsonl")) as f:
        return [json.loads(l) for l in f if l.strip()]


def evaluations(out, model):
    recs = [r for r in records(out) if r["model"] == model]
    run_id = recs[0]["run_id"]
    with open(os.path.join(out, "artifacts", run_id, "evaluations.jsonl")) as f:
        return [json.loads(l) for l in f if l.strip()]


class RustSuite(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="bem-rust-suite-")
        cls.first = os.path.join(cls.tmp, "first")
        cls.second = os.path.join(cls.tmp, "second")
        r = run("run", SUITE, "--out", cls.first)
        cls.first_rc, cls.first_log = r.returncode, r.stdout + r.stderr
        again = os.path.join(cls.tmp, "again.toml")
        with open(again, "w") as f:
            f.write(f'name = "again"\n[[run]]\ntask = "rust_cargo"\nmodels = ["oracle", "identity"]\nseeds = [1]\n'
                    f'[run.params]\ntasks = {json.dumps(AGAIN)}\nsamples = 10\ngreedy = true\n')
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

    def test_every_solution_passes_with_tests_and_in_time(self):
        evs = evaluations(self.first, "oracle")
        tasks = {e["task"] for e in evs}
        self.assertGreaterEqual(len(tasks), 200)
        for e in evs:
            with self.subTest(task=e["task"]):
                self.assertTrue(e["passed"], e.get("first_error"))
                self.assertGreaterEqual(e["tests_passed"], 3)
                # Every test of tests.rs ran and passed, and only those counted.
                with open(os.path.join(DATASET, e["category"], e["task"], "tests.rs")) as f:
                    self.assertEqual(e["tests_passed"], f.read().count("#[test]"))
                self.assertEqual((e["tests_failed"], e["tests_missing"]), (0, 0))
                self.assertLess(e["build_seconds"], 10)
                self.assertLess(e["test_seconds"], 10)

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
                self.assertEqual(len({task for task, _, _ in again}), 22)
                self.assertEqual(verdicts(self.first, model), again)
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
        with open(suite, "w") as f:
            f.write('name = "stored"\n[[run]]\ntask = "rust_cargo"\nmodel = "stored"\nseeds = [1]\n'
                    '[run.params]\ncategories = ["fim"]\n'
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


class GateAcrossMachines(unittest.TestCase):
    """The regression gate pairs runs made on other machines and checkouts (another dataset path,
    another worker count) and refuses runs on other dataset contents."""

    TASKS = '["cmp_sum_of_even_squares", "fim_run_length_encode"]'

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="bem-rust-gate-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def metrics(self, name, dataset, workers):
        suite = os.path.join(self.tmp, name + ".toml")
        with open(suite, "w") as f:
            f.write(f'name = "{name}"\n[[run]]\ntask = "rust_cargo"\nmodel = "oracle"\nseeds = [1]\n[run.params]\n'
                    f'dataset = "{dataset}"\nworkers = {workers}\ntasks = {self.TASKS}\nsamples = 1\n')
        out = os.path.join(self.tmp, name)
        r = run("run", suite, "--out", out)
        self.assertEqual(r.returncode, 0, r.stdout[-2000:] + r.stderr[-2000:])
        r = run("report", out, "--out", out + "-report")
        self.assertEqual(r.returncode, 0, r.stderr)
        return out, os.path.join(out + "-report", "metrics.json")

    def copy_dataset(self, where):
        dest = os.path.join(self.tmp, where, "benchmarks_v1")
        shutil.copytree(DATASET, dest)
        return dest

    def test_same_contents_pair_across_paths_and_workers_and_other_contents_are_refused(self):
        out, base = self.metrics("base", DATASET, 1)
        elsewhere = self.copy_dataset("elsewhere")
        _, cur = self.metrics("cur", elsewhere, 2)
        # The configuration names the dataset by contents, not by path or workers...
        recs = records(out)
        config = recs[0]["config"]["task"]
        self.assertNotIn("dataset", config)
        self.assertNotIn("workers", config)
        self.assertEqual(config["benchmark_version"], "benchmarks_v1")
        head = [r for r in recs if r["metric"] == "tasks"][0]["condition"]
        self.assertEqual(config["dataset_sha256"], head["dataset_sha256"])
        self.assertEqual((head["dataset"], head["workers"]), (DATASET, 1))  # ... which the condition records
        for extra in ([], ["--across-models"]):
            r = run("compare", base, cur, *extra)
            self.assertEqual(r.returncode, 0, r.stdout[-3000:] + r.stderr)
            self.assertNotIn("MISSING", r.stdout)
            self.assertIn("rust_cargo / oracle / fim / pass@1", r.stdout)
        # Other contents: one task's tests changed.
        changed = self.copy_dataset("changed")
        with open(os.path.join(changed, "fim", "fim_run_length_encode", "tests.rs"), "a") as f:
            f.write("\n// changed\n")
        _, other = self.metrics("other", changed, 2)
        for extra in ([], ["--across-models"]):
            r = run("compare", base, other, *extra)
            self.assertEqual(r.returncode, 2, r.stdout[-3000:] + r.stderr)
            self.assertIn("ran on different data", r.stderr)
            self.assertIn("dataset_sha256", r.stderr)
        # A suite can pin the contents it expects: a run on others stops at its configuration.
        with open(os.path.join(self.tmp, "pinned.toml"), "w") as f:
            f.write('name = "pinned"\n[[run]]\ntask = "rust_cargo"\nmodel = "oracle"\n[run.params]\n'
                    f'dataset = "{changed}"\ntasks = {self.TASKS}\ndataset_sha256 = "{config["dataset_sha256"]}"\n')
        r = run("run", os.path.join(self.tmp, "pinned.toml"), "--out", os.path.join(self.tmp, "pinned"))
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("dataset_sha256", r.stdout + r.stderr)


class ModelsEndToEnd(unittest.TestCase):
    """The command and HTTP models through bem-bench, on a few tasks."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="bem-rust-models-")
        server = os.path.join(ROOT, "tests", "rust", "fake_model_server.py")
        cls.server = subprocess.Popen([sys.executable, server], stdout=subprocess.PIPE, text=True)
        cls.base = "http://127.0.0.1:" + cls.server.stdout.readline().strip()

    @classmethod
    def tearDownClass(cls):
        cls.server.kill()
        cls.server.wait()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def run_suite(self, name, body):
        suite = os.path.join(self.tmp, name + ".toml")
        with open(suite, "w") as f:
            f.write(f'name = "{name}"\n[[run]]\ntask = "rust_cargo"\nseeds = [1]\n' + body)
        out = os.path.join(self.tmp, name)
        r = run("run", suite, "--out", out)
        self.assertEqual(r.returncode, 0, r.stdout[-2000:] + r.stderr[-2000:])
        return out

    def requests(self):
        import urllib.request
        with urllib.request.urlopen(self.base + "/_requests") as f:
            return json.load(f)["requests"]

    def test_command_model_gets_the_documented_prompt(self):
        os.environ["BEM_TEST_DATASET"] = os.path.join(ROOT, "plugins", "rust_cargo", "benchmarks_v1")
        script = os.path.join(ROOT, "tests", "rust", "oracle_command.py")
        out = self.run_suite("command", f'model = "command"\n[run.params]\ncategories = ["completion", "fim", "projects"]\n'
                                        f'tasks = ["*_r*"]\nsamples = 1\ngreedy = false\n'
                                        f'[run.model_params]\ncommand = ["{sys.executable}", "{script}"]\n')
        vals = {r["condition"]["category"]: r["value"] for r in records(out) if r["metric"] == "pass@1"}
        self.assertEqual(set(vals), {"all", "completion", "fim", "projects"})
        self.assertTrue(all(v == 1.0 for v in vals.values()), vals)

    def test_a_failed_greedy_request_keeps_the_sampled_outputs(self):
        os.environ["BEM_TEST_DATASET"] = os.path.join(ROOT, "plugins", "rust_cargo", "benchmarks_v1")
        os.environ["BEM_TEST_FAIL_GREEDY"] = "1"
        try:
            script = os.path.join(ROOT, "tests", "rust", "oracle_command.py")
            out = self.run_suite("greedy-fails", f'model = "command"\n[run.params]\ntasks = ["cmp_sum_of_even_squares"]\n'
                                                 f'samples = 1\ngreedy = true\n'
                                                 f'[run.model_params]\ncommand = ["{sys.executable}", "{script}"]\n')
        finally:
            del os.environ["BEM_TEST_FAIL_GREEDY"]
        metrics = {r["metric"]: r["value"] for r in records(out) if r["condition"].get("category") == "all"}
        self.assertEqual(metrics["generation_errors"], 1)
        self.assertEqual(metrics["pass@1"], 1.0)  # the sampled answer, judged
        self.assertEqual(metrics["greedy_pass@1"], 0.0)

    def test_completions_model_sends_sampling_and_stores_outputs(self):
        out = self.run_suite("completions",
                             'model = "openai_completions"\n[run.params]\ntasks = ["cmp_sum_of_even_squares", "fim_run_length_encode"]\n'
                             'samples = 3\ntemperature = 0.6\ngreedy = true\n'
                             f'[run.model_params]\nbase_url = "{self.base}"\nserved_model = "echo"\nmax_tokens = 64\n')
        sent = [q["body"] for q in self.requests() if q["path"] == "/v1/completions"]
        sampled = [b for b in sent if b["n"] == 3]
        greedy = [b for b in sent if b["n"] == 1]
        self.assertEqual(len(sampled), 2)
        self.assertEqual(len(greedy), 2)
        for b in sampled:
            self.assertEqual((b["temperature"], b["top_p"], b["max_tokens"], b["model"]), (0.6, 0.95, 64, "echo"))
            self.assertIn("seed", b)
        self.assertEqual({b["temperature"] for b in greedy}, {0.0})
        self.assertTrue(any(b["prompt"].startswith("<fim_prefix>") for b in sent))
        run_id = records(out)[0]["run_id"]
        with open(os.path.join(out, "artifacts", run_id, "samples.jsonl")) as f:
            samples = [json.loads(l) for l in f]
        self.assertEqual(len(samples), 2 * (3 + 1))
        self.assertTrue(all("|i=" in s["output"] for s in samples))  # the server's answers, verbatim
        metrics = {r["metric"]: r["value"] for r in records(out)}
        self.assertEqual(metrics["pass@1"], 0.0)
        self.assertGreater(metrics["generation_seconds_per_token"], 0.0)

    def test_failing_server_is_recorded_and_the_run_goes_on(self):
        out = self.run_suite("failing",
                             'model = "openai_chat"\n[run.params]\ntasks = ["cmp_sum_of_even_squares"]\nsamples = 1\n'
                             f'[run.model_params]\nbase_url = "{self.base}/b/bad-request"\n')
        metrics = {r["metric"]: r["value"] for r in records(out)}
        self.assertEqual(metrics["generation_errors"], 1)
        self.assertEqual(metrics["pass@1"], 0.0)
        run_id = records(out)[0]["run_id"]
        with open(os.path.join(out, "artifacts", run_id, "evaluations.jsonl")) as f:
            errors = [json.loads(l) for l in f]
        self.assertIn("HTTP 400", errors[-1]["generation_error"])


if __name__ == "__main__":
    reason = skip_reason()
    if reason:
        print("skipped:", reason)
        sys.exit(77)
    unittest.main()

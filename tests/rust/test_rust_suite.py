"""The Rust suite end to end through bem-bench, over the whole of benchmarks_v1.

This is the dataset's validation: with the reference answers (oracle) every
task compiles and passes, with its tests executed, building in under 10 s and
testing in under 10 s; with the unchanged prompts (identity) every task fails;
a second run gives the same verdicts; the report shows the category table;
the 5% regression gate accepts the oracle against itself and blocks the
identity model against it.
"""
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
CATEGORIES = ["completion", "fim", "functions", "bugs", "refactor", "ownership", "projects", "stdlib"]


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
        r = run("run", SUITE, "--out", cls.second, "--only", "*/oracle")
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
                self.assertLess(e["build_seconds"], 10)
                self.assertLess(e["test_seconds"], 10)

    def test_every_unchanged_prompt_fails(self):
        for e in evaluations(self.first, "identity"):
            with self.subTest(task=e["task"]):
                self.assertFalse(e["passed"])

    def test_two_runs_give_the_same_verdicts(self):
        def verdicts(out):
            return {(e["task"], e["sample"], e["greedy"]): (e["verdict"], e["tests_passed"], e["tests_failed"])
                    for e in evaluations(out, "oracle")}
        self.assertEqual(verdicts(self.first), verdicts(self.second))

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

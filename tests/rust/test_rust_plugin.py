"""The rust_cargo plugin through bem-bench on a few tasks at a time: its
parameters and their errors, the laws of its records on a run whose outcomes
are known in advance, the sandbox refusal, the regression gate across machines
and the command and HTTP models. The whole dataset's validation is
test_rust_suite.py's.
"""
import collections
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

from rust_runs import DATASET, FAKE_MODEL_SERVER, ORACLE_COMMAND, artifact, evaluations, main, records, run

SAMPLED_TEMPERATURE = 0.8  # the plugin's default
VERDICTS = ["passed", "compile_error", "build_timeout", "test_failure", "test_timeout", "no_tests", "resource_limit"]


GOALS = {"G1": "code completion", "G2": "function synthesis", "G3": "refactoring", "G4": "ownership correctness",
         "G5": "error handling", "G6": "type inference", "G7": "borrow checker reasoning",
         "G8": "multi-file reasoning"}


def breakdown(r):
    """Whether a record is one difficulty's, goal's or tag's."""
    return bool({"difficulty", "goal", "tag"} & set(r["condition"]))


def overall(out):
    """The records over all tasks (category `all`, or none, and no difficulty, goal or tag) by metric."""
    return {r["metric"]: r for r in records(out) if r["condition"].get("category", "all") == "all" and not breakdown(r)}


def difficulty(category, task):
    with open(os.path.join(DATASET, category, task, "metadata.yaml")) as f:
        return re.search(r"^difficulty: (\w+)$", f.read(), re.M).group(1)


def tags(category, task):
    with open(os.path.join(DATASET, category, task, "metadata.yaml")) as f:
        return [t.strip() for t in re.search(r"^tags: \[(.*)\]$", f.read(), re.M).group(1).split(",")]


def check_breakdown(test, recs, evs, key, groups, samples, greedy):
    """The records of each `key` (goal or tag) value against what the evaluations of its tasks say.
    `groups`: value -> the tasks it covers, empty for a goal no task measures (tasks = 0, nothing else)."""
    for value, tasks in groups.items():
        with test.subTest(**{key: value}):
            mine = [r for r in recs if r["condition"].get(key) == value]
            by = {r["metric"]: r for r in mine}
            test.assertEqual(len(by), len(mine), "one record per metric")
            test.assertEqual({r["split"] for r in mine}, {f"{key}={value}"})
            test.assertEqual((by["tasks"]["value"], by["tasks"]["n"]), (len(tasks), len(tasks)))
            if not tasks:
                test.assertEqual(list(by), ["tasks"])  # no rate made up for a goal without tasks
                continue
            sampled = [e for e in evs if e["task"] in tasks and not e["greedy"]]
            test.assertEqual(len(sampled), len(tasks) * samples)
            compiled = sum(e["compiled"] for e in sampled)
            test.assertAlmostEqual(by["compile_rate"]["value"], compiled / len(sampled), places=12)
            test.assertEqual(by["compile_rate"]["n"], len(sampled))
            passing = [sum(e["passed"] for e in sampled if e["task"] == t) for t in tasks]
            for k in (1, 5, 10):
                if k > samples:
                    test.assertEqual(by[f"pass@{k}_not_computed"]["value"], samples)
                    continue
                unbiased = sum(1 - math.comb(samples - c, k) / math.comb(samples, k) for c in passing) / len(tasks)
                test.assertAlmostEqual(by[f"pass@{k}"]["value"], unbiased, places=12)
                test.assertEqual(by[f"pass@{k}"]["n"], len(tasks))
            verdicts = collections.Counter(e["verdict"] for e in sampled)
            for v in VERDICTS:
                test.assertEqual(by["samples_" + v]["value"], verdicts[v])
            test.assertEqual(by["tests_executed"]["value"], sum(e["tests_passed"] + e["tests_failed"] for e in sampled))
            if greedy:
                first = [e for e in evs if e["task"] in tasks and e["greedy"]]
                test.assertAlmostEqual(by["greedy_pass@1"]["value"], sum(e["passed"] for e in first) / len(tasks))
            else:
                test.assertNotIn("greedy_pass@1", by)
            if key == "goal":
                test.assertEqual({r["condition"]["goal_name"] for r in mine}, {GOALS[value]})
            # A goal's rates gate a release like a category's; a tag's (often of one task) only inform.
            test.assertEqual(by["pass@1"]["better"], "higher" if key == "goal" else "none")


def command_model():
    """The model parameters of the test's command model, oracle_command.py."""
    return f'[run.model_params]\ncommand = ["{sys.executable}", "{ORACLE_COMMAND}"]\n'


class Parameters(unittest.TestCase):
    """A parameter the plugin refuses stops the suite before anything runs (exit 2), at the line of the
    suite that set it, naming the key; a run without a model fails alone and the suite goes on."""

    HEAD = 'name = "params"\n[[run]]\ntask = "rust_cargo"\nmodel = "oracle"\n[run.params]\n'

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="bem-rust-params-")
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def suite(self, text):
        path = os.path.join(self.tmp, "s.toml")
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_refused_parameters_stop_at_their_line_naming_the_key(self):
        cases = {
            "negative samples": ("samples = -1", "samples", "must be >= 0"),
            "nothing to do": ("samples = 0\ngreedy = false", "samples", "0 samples and greedy = false: nothing to do"),
            "no workers": ("workers = 0", "workers", "must be >= 1"),
            "no /tmp": ("max_tmp_mib = 0", "max_tmp_mib", "must be >= 1"),
            "no match": ('categories = ["fim"]\ntasks = ["cmp_*"]', "tasks",
                         'no task matches "cmp_*" in the selected categories'),
            "one glob of two matches nothing": ('tasks = ["cmp_cart_total", "cmp_no_such_task"]', "tasks",
                                                'no task matches "cmp_no_such_task"'),
            "other version": ('benchmark_version = "benchmarks_v0"', "benchmark_version",
                              "has 'benchmarks_v1', not 'benchmarks_v0'"),
            "other contents": ('dataset_sha256 = "00"', "dataset_sha256", "not '00'"),
            "unknown category": ('categories = ["fim", "poetry"]', "categories",
                                 'each must be completion, fim, functions, bugs, refactor, ownership, projects or '
                                 'stdlib, got "poetry"'),
            "unknown difficulty": ('difficulties = ["hard", "extreme"]', "difficulties",
                                   'each must be easy, medium or hard, got "extreme"'),
            "no task of that difficulty": ('tasks = ["cmp_cart_total"]\ndifficulties = ["hard"]', "difficulties",
                                           "no selected task has these difficulties"),
        }
        for case, (params, key, message) in cases.items():
            with self.subTest(case=case):
                text = self.HEAD + params + "\n"
                line = 1 + [l.split(" =")[0] for l in text.splitlines()].index(key)
                path = self.suite(text)
                r = run("run", path, "--out", os.path.join(self.tmp, "out"))
                self.assertEqual(r.returncode, 2, r.stdout[-2000:] + r.stderr[-2000:])
                self.assertIn(f"{path}:{line}:", r.stderr)
                self.assertIn(f"parameter '{key}': ", r.stderr)
                self.assertIn(message, r.stderr)
                self.assertFalse(os.path.exists(os.path.join(self.tmp, "out", "results.jsonl")))

    def test_difficulties_select_the_tasks_of_those_difficulties(self):
        out = os.path.join(self.tmp, "out")
        r = run("run", self.suite(self.HEAD + 'tasks = ["cmp_cart_total", "fim_build_order"]\ndifficulties = ["hard"]\n'
                                              'samples = 1\ngreedy = false\n'), "--out", out)
        self.assertEqual(r.returncode, 0, r.stdout[-2000:] + r.stderr[-2000:])
        self.assertEqual([e["task"] for e in evaluations(out, "oracle")], ["fim_build_order"])
        self.assertEqual({x["split"] for x in records(out) if x["metric"] == "pass@1"},
                         {"all", "fim", "difficulty=hard", "goal=G1", "tag=loop_body", "tag=graphs",
                          "tag=topological_sort", "tag=collections"})

    def test_a_dataset_of_one_category_needs_no_other_folder(self):
        # A dataset of fim tasks only: the other seven category folders do not exist.
        data = os.path.join(self.tmp, "benchmarks_fim")
        shutil.copytree(os.path.join(DATASET, "fim", "fim_build_order"), os.path.join(data, "fim", "fim_build_order"))
        out = os.path.join(self.tmp, "out")
        r = run("run", self.suite(self.HEAD + f'dataset = "{data}"\ncategories = ["fim"]\nsamples = 1\n'
                                              'greedy = false\n'), "--out", out)
        self.assertEqual(r.returncode, 0, r.stdout[-2000:] + r.stderr[-2000:])
        self.assertEqual([e["task"] for e in evaluations(out, "oracle")], ["fim_build_order"])
        # A selected category without tasks there is an error naming the key.
        r = run("run", self.suite(self.HEAD + f'dataset = "{data}"\ncategories = ["bugs"]\n'), "--out", out + "2")
        self.assertEqual(r.returncode, 2, r.stdout[-2000:] + r.stderr[-2000:])
        self.assertIn(f"parameter 'categories': the dataset at {data} has no bugs task", r.stderr)

    def test_a_run_without_a_model_fails_alone(self):
        path = self.suite('name = "no-model"\n[defaults]\nseeds = [1]\n'
                          '[[run]]\nname = "no-model"\ntask = "rust_cargo"\n[run.params]\ntasks = ["cmp_cart_total"]\n'
                          '[[run]]\nname = "fine"\ntask = "rust_cargo"\nmodel = "oracle"\n[run.params]\n'
                          'tasks = ["cmp_cart_total"]\nsamples = 1\ngreedy = false\n')
        out = os.path.join(self.tmp, "out")
        r = run("run", path, "--out", out)
        self.assertEqual(r.returncode, 1, r.stdout[-2000:] + r.stderr[-2000:])
        recs = records(out)
        errors = {x["run"]: x["error"] for x in recs if x["metric"] == "run_error"}
        self.assertEqual(set(errors), {"no-model"})
        self.assertIn("rust_cargo evaluates a code model", errors["no-model"])
        self.assertEqual([x["value"] for x in recs if x["run"] == "fine" and x["metric"] == "pass@1"
                          and x["condition"].get("category") == "all"], [1.0])


class RecordLaws(unittest.TestCase):
    """One run whose every outcome is known: of each task's 5 sampled outputs, numbers 0 and 3 are the
    reference and the other three the unchanged prompt, and the greedy output is the unchanged prompt too.
    Four tasks, two of them chosen by a `category/id` glob, judged by 8 workers."""

    TASKS = ["cmp_cart_total", "cmp_credit_tier", "fim/fim_b*"]
    SELECTED = {"cmp_cart_total": "completion", "cmp_credit_tier": "completion",
                "fim_bracket_balance": "fim", "fim_build_order": "fim"}
    SAMPLES = 5
    PASSING = 2

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="bem-rust-laws-")
        suite = os.path.join(cls.tmp, "laws.toml")
        with open(suite, "w") as f:
            f.write(f'name = "laws"\n[[run]]\ntask = "rust_cargo"\nmodel = "command"\nseeds = [1]\n[run.params]\n'
                    f'tasks = {json.dumps(cls.TASKS)}\nsamples = {cls.SAMPLES}\ngreedy = true\nworkers = 8\n'
                    + command_model())
        env = dict(os.environ, BEM_TEST_DATASET=DATASET, BEM_TEST_PASS_SAMPLES="0,3")
        cls.out = os.path.join(cls.tmp, "out")
        r = run("run", suite, "--out", cls.out, env=env)
        cls.rc, cls.log = r.returncode, r.stdout[-2000:] + r.stderr[-2000:]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def setUp(self):
        self.assertEqual(self.rc, 0, self.log)
        self.recs = records(self.out)
        self.evs = evaluations(self.out, "command")

    def record(self, category, metric):
        found = [r for r in self.recs if r["metric"] == metric and r["condition"].get("category") == category]
        self.assertEqual(len(found), 1, f"{metric} of {category}")
        return found[0]

    def groups(self):
        """Each category of the run, and all, with its evaluations (sampled, greedy)."""
        for g in ["all", "completion", "fim"]:
            evs = [e for e in self.evs if g == "all" or e["category"] == g]
            yield g, [e for e in evs if not e["greedy"]], [e for e in evs if e["greedy"]]

    def test_the_globs_select_the_tasks_and_the_first_record_says_what_judged(self):
        head = self.recs[0]
        self.assertEqual(head["metric"], "tasks")
        self.assertEqual(head["value"], len(self.SELECTED))
        self.assertEqual(head["condition"]["workers"], len(self.SELECTED))  # no more workers than tasks
        # a part of the published v1 is still v1 as published
        self.assertIs(head["condition"]["dataset_is_pinned_v1"], True)
        self.assertEqual({e["task"]: e["category"] for e in self.evs}, self.SELECTED)
        self.assertEqual({r["condition"]["category"] for r in self.recs if "category" in r["condition"]},
                         {"all", "completion", "fim"})

    def test_each_difficulty_run_has_the_records_of_its_tasks(self):
        # spec section 19: metadata is for filtering and reporting
        tasks = {}
        for t, c in self.SELECTED.items():
            tasks.setdefault(difficulty(c, t), []).append(t)
        self.assertEqual(sorted(tasks), ["easy", "hard", "medium"])  # the selection spans all three
        for d, ts in tasks.items():
            with self.subTest(difficulty=d):
                by = {r["metric"]: r for r in self.recs if r["condition"].get("difficulty") == d}
                self.assertEqual({r["split"] for r in by.values()}, {"difficulty=" + d})
                self.assertEqual(by["pass@1"]["n"], len(ts))
                self.assertAlmostEqual(by["pass@1"]["value"], self.PASSING / self.SAMPLES)
                self.assertEqual(by["compile_rate"]["n"], len(ts) * self.SAMPLES)
                self.assertEqual((by["greedy_pass@1"]["n"], by["greedy_pass@1"]["value"]), (len(ts), 0.0))
                samples = [e for e in self.evs if e["task"] in ts and not e["greedy"]]
                self.assertEqual(by["samples_passed"]["value"], sum(e["passed"] for e in samples))

    def test_each_goal_and_tag_has_the_records_of_its_tasks(self):
        # Completion and fill-in-middle measure G1, code completion; none of these tasks' tags names
        # another goal, so the other seven say tasks = 0 (G6, type inference, has no v1 task at all).
        goals = {g: [t for t in self.SELECTED] if g == "G1" else [] for g in GOALS}
        check_breakdown(self, self.recs, self.evs, "goal", goals, self.SAMPLES, True)
        by_tag = {}
        for t, c in self.SELECTED.items():
            for tag in tags(c, t):
                by_tag.setdefault(tag, []).append(t)
        self.assertEqual({r["condition"]["tag"] for r in self.recs if "tag" in r["condition"]}, set(by_tag))
        check_breakdown(self, self.recs, self.evs, "tag", by_tag, self.SAMPLES, True)

    def test_the_report_has_a_table_per_category_difficulty_goal_and_tag(self):
        with open(os.path.join(self.out, "report.html")) as f:
            html = f.read()
        for key in ("category", "difficulty", "goal", "tag"):
            self.assertIn(f"<th>model</th><th>{key}</th><th>", html)
        # A goal row: its name, its task count, its pass@1; a goal without tasks: 0 and no rates.
        self.assertRegex(html, r'<td>G1 code completion</td><td class="num">4</td><td class="num">[0-9.]+</td>'
                               r'<td class="num">0.4</td>')
        self.assertRegex(html, r'<td>G6 type inference</td><td class="num">0</td>(<td class="num">–</td>)+</tr>')
        self.assertIn('<td>closures</td><td class="num">1</td>', html)

    def test_pass_at_k_is_the_unbiased_estimate_and_needs_k_samples(self):
        for g, sampled, _ in self.groups():
            tasks = len(sampled) // self.SAMPLES
            with self.subTest(category=g):
                # 1 - C(n-c, k) / C(n, k) with n = 5, c = 2: k = 1 gives 2/5, k = 5 gives 1.
                for metric, value in [("pass@1", 0.4), ("pass@5", 1.0)]:
                    r = self.record(g, metric)
                    self.assertAlmostEqual(r["value"], value, places=12)
                    self.assertEqual((r["n"], r["n_unit"]), (tasks, "tasks"))
                r = self.record(g, "pass@10_not_computed")
                self.assertEqual(r["value"], self.SAMPLES)
                self.assertEqual([r for r in self.recs if r["metric"] == "pass@10"], [])

    def test_rates_and_counts_add_up_from_the_evaluations(self):
        for g, sampled, greedy in self.groups():
            tasks = len(greedy)
            with self.subTest(category=g):
                self.assertEqual(len(sampled), tasks * self.SAMPLES)
                self.assertEqual(sum(e["passed"] for e in sampled), tasks * self.PASSING)
                compiled = sum(e["compiled"] for e in sampled)
                r = self.record(g, "compile_rate")
                self.assertAlmostEqual(r["value"], compiled / len(sampled), places=12)
                self.assertEqual(r["n"], len(sampled))
                self.assertEqual(self.record(g, "greedy_pass@1")["value"], 0.0)
                self.assertAlmostEqual(self.record(g, "greedy_compile_rate")["value"],
                                       sum(e["compiled"] for e in greedy) / tasks, places=12)
                self.assertEqual(self.record(g, "tests_executed")["value"],
                                 sum(e["tests_passed"] + e["tests_failed"] for e in sampled))
                verdicts = collections.Counter(e["verdict"] for e in sampled)
                self.assertGreater(len(verdicts), 1)
                self.assertLess(len(verdicts), len(VERDICTS))  # so the zeros below are checked
                # Every verdict has its record, 0 for those that did not occur.
                for v in VERDICTS:
                    r = self.record(g, "samples_" + v)
                    self.assertEqual((r["value"], r["n"]), (verdicts[v], len(sampled)))
                self.assertEqual(sum(r["value"] for r in self.recs
                                     if r["metric"].startswith("samples_") and r["condition"].get("category") == g
                                     and r["metric"] != "samples_per_second"), len(sampled))

    def test_borrow_check_failures_are_failed_builds(self):
        for g, sampled, _ in self.groups():
            with self.subTest(category=g):
                r = self.record(g, "borrow_check_failures")
                self.assertEqual(r["n"], len(sampled))
                self.assertLessEqual(r["value"], sum(1 for e in sampled if e["error_codes"] and not e["compiled"]))

    def test_rustc_errors_count_every_output_greedy_included(self):
        codes = collections.Counter(c for e in self.evs for c in e["error_codes"])
        counted = {r["metric"][len("rustc_error_"):]: r for r in self.recs if r["metric"].startswith("rustc_error_")}
        self.assertEqual({c: r["value"] for c, r in counted.items()}, dict(codes))
        for c, r in counted.items():
            self.assertEqual((r["condition"]["rustc_error"], r["n"]), (c, len(self.evs)))

    def test_timings_cover_the_outputs_they_describe(self):
        outputs = len(self.evs)
        compiled = sum(e["compiled"] for e in self.evs)
        for metric, n, unit in [("build_seconds", outputs, "samples"), ("test_seconds", compiled, "samples"),
                                ("generation_seconds_per_sample", len(self.SELECTED), "tasks")]:
            with self.subTest(metric=metric):
                p50, p95 = self.record("all", metric + "_p50"), self.record("all", metric + "_p95")
                self.assertEqual((p50["n"], p95["n"], p50["n_unit"]), (n, n, unit))
                self.assertLessEqual(p50["value"], p95["value"])
                self.assertTrue(p50["timing"])
        r = self.record("all", "samples_per_second")
        self.assertEqual(r["n"], outputs)
        self.assertGreater(r["value"], 0)
        # A command model reports no token counts: no per-token latency is made up.
        self.assertEqual([r for r in self.recs if r["metric"] == "generation_seconds_per_token"], [])

    def test_evaluations_keep_the_end_of_both_streams_of_each_step(self):
        for e in self.evs:
            with self.subTest(task=e["task"], sample=e["sample"], greedy=e["greedy"]):
                self.assertIn("Compiling", e["build_stderr_tail"])  # cargo's progress goes to stderr
                self.assertIn('"reason":', e["build_stdout_tail"])  # its JSON messages to stdout
                if e["compiled"]:
                    self.assertIn("Running", e["test_stderr_tail"])
                    self.assertIn("running ", e["test_stdout_tail"])
                else:
                    self.assertEqual((e["test_stdout_tail"], e["test_stderr_tail"]), ("", ""))
                for k in ("build_stdout_tail", "build_stderr_tail", "test_stdout_tail", "test_stderr_tail"):
                    self.assertLessEqual(len(e[k].encode()), 2048)

    def test_the_configuration_holds_no_sequence_protocol(self):
        # rust_cargo reads no batch_size or test_sequences: they say nothing of its results.
        for r in self.recs:
            self.assertEqual(sorted(r["config"]), ["model", "task"])

    def test_artifacts_hold_every_output_with_its_sampling(self):
        samples = artifact(self.out, "command", "samples.jsonl")
        self.assertEqual(len(samples), len(self.SELECTED) * (self.SAMPLES + 1))
        for task in self.SELECTED:
            mine = [s for s in samples if s["task"] == task]
            self.assertEqual(sorted(s["sample"] for s in mine if not s["greedy"]), list(range(self.SAMPLES)))
            self.assertEqual({s["temperature"] for s in mine if not s["greedy"]}, {SAMPLED_TEMPERATURE})
            self.assertEqual([s["temperature"] for s in mine if s["greedy"]], [0.0])
            passed = sorted(e["sample"] for e in self.evs if e["task"] == task and e["passed"])
            self.assertEqual(passed, [0, 3])


class GoalsFromTags(unittest.TestCase):
    """Goals that cut across categories come from tags, as written or with '-' for '_': a bug fix tagged
    borrow-checker and lifetimes measures G7 only, a stdlib task tagged error_handling G5 only. Two
    samples per task, the first of them the reference."""

    SELECTED = {"bug_tokenizer_lifetime": "bugs", "std_config_error_enum": "stdlib"}
    GOALS = {"bug_tokenizer_lifetime": ["G7"], "std_config_error_enum": ["G5"]}
    SAMPLES = 2

    def test_goal_and_tag_records_of_tasks_from_two_categories(self):
        tmp = tempfile.mkdtemp(prefix="bem-rust-goals-")
        self.addCleanup(shutil.rmtree, tmp, True)
        suite = os.path.join(tmp, "goals.toml")
        with open(suite, "w") as f:
            f.write(f'name = "goals"\n[[run]]\ntask = "rust_cargo"\nmodel = "command"\n[run.params]\n'
                    f'tasks = {json.dumps(list(self.SELECTED))}\nsamples = {self.SAMPLES}\ngreedy = false\n'
                    + command_model())
        out = os.path.join(tmp, "out")
        r = run("run", suite, "--out", out, env=dict(os.environ, BEM_TEST_DATASET=DATASET, BEM_TEST_PASS_SAMPLES="0"))
        self.assertEqual(r.returncode, 0, r.stdout[-2000:] + r.stderr[-2000:])
        recs, evs = records(out), evaluations(out, "command")
        goals = {g: [t for t, mine in self.GOALS.items() if g in mine] for g in GOALS}
        check_breakdown(self, recs, evs, "goal", goals, self.SAMPLES, False)
        by_tag = {}
        for t, c in self.SELECTED.items():
            for tag in tags(c, t):
                by_tag.setdefault(tag, []).append(t)
        self.assertIn("borrow-checker", by_tag)  # a tag's records keep its spelling
        check_breakdown(self, recs, evs, "tag", by_tag, self.SAMPLES, False)


class SandboxRefusal(unittest.TestCase):
    """Where no sandbox can hide the dataset (here: the plugin and its sandbox helper lie inside the dataset
    folder), model-generated code is refused unless the suite says `unsafe_unconfined = true`; the
    reference answers (oracle) are trusted and run, and the record says they ran unconfined."""

    def test_untrusted_code_needs_a_sandbox(self):
        plugins = os.environ.get("BEM_PLUGIN_DIR")
        if not plugins:
            self.skipTest("BEM_PLUGIN_DIR not set")
        with tempfile.TemporaryDirectory(prefix="bem-rust-refusal-") as tmp:
            dataset = os.path.join(tmp, "benchmarks_v1")
            shutil.copytree(DATASET, dataset)
            inside = os.path.join(dataset, "plugins")
            os.makedirs(inside)
            for name in ("bem_rust_cargo.so", "bem-sandbox-exec"):
                shutil.copy2(os.path.join(plugins, name), inside)
            suite = os.path.join(tmp, "s.toml")
            text = 'name = "refusal"\n[defaults]\nseeds = [1]\n'
            for name, model, extra in [("refused", "command", ""), ("allowed", "command", "unsafe_unconfined = true\n"),
                                       ("trusted", "oracle", "")]:
                text += (f'[[run]]\nname = "{name}"\ntask = "rust_cargo"\nmodel = "{model}"\n[run.params]\n'
                         f'dataset = "{dataset}"\ntasks = ["cmp_cart_total"]\nsamples = 1\ngreedy = false\n{extra}')
                if model == "command":
                    text += command_model()
            with open(suite, "w") as f:
                f.write(text)
            out = os.path.join(tmp, "out")
            # Searched first, this copy of the plugin shadows the build's.
            r = run("--plugin-path", inside, "run", suite, "--out", out, env=dict(os.environ, BEM_TEST_DATASET=DATASET))
            self.assertEqual(r.returncode, 1, r.stdout[-2000:] + r.stderr[-2000:])
            recs = records(out)
        errors = {x["run"]: x["error"] for x in recs if x["metric"] == "run_error"}
        self.assertEqual(set(errors), {"refused"})
        self.assertIn("refusing to build and run model-generated code without a sandbox", errors["refused"])
        self.assertIn("contains", errors["refused"])  # why: the folder to hide holds the helper
        for name in ["allowed", "trusted"]:
            with self.subTest(run=name):
                mine = {x["metric"]: x for x in recs if x["run"] == name and not breakdown(x)}
                self.assertEqual(mine["pass@1"]["value"], 1.0)
                self.assertTrue(mine["tasks"]["condition"]["sandbox"].startswith("none: the folder "))


    def test_without_bubblewrap_untrusted_code_is_refused(self):
        # BEM_BWRAP names the bubblewrap to use: here none, as on a machine without it.
        with tempfile.TemporaryDirectory(prefix="bem-rust-no-bwrap-") as tmp:
            suite = os.path.join(tmp, "s.toml")
            with open(suite, "w") as f:
                f.write('name = "no-bwrap"\n[defaults]\nseeds = [1]\n[[run]]\nname = "refused"\ntask = "rust_cargo"\n'
                        f'model = "command"\n[run.params]\ndataset = "{DATASET}"\ntasks = ["cmp_cart_total"]\n'
                        'samples = 1\ngreedy = false\n' + command_model())
            out = os.path.join(tmp, "out")
            r = run("run", suite, "--out", out, env=dict(os.environ, BEM_BWRAP="/nonexistent/bwrap"))
            self.assertEqual(r.returncode, 1, r.stdout[-2000:] + r.stderr[-2000:])
            errors = [x["error"] for x in records(out) if x["metric"] == "run_error"]
        self.assertEqual(len(errors), 1)
        self.assertIn("refusing to build and run model-generated code without a sandbox (BEM_BWRAP names "
                      "/nonexistent/bwrap, which is not an executable file", errors[0])

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
        cls.server = subprocess.Popen([sys.executable, FAKE_MODEL_SERVER], stdout=subprocess.PIPE, text=True)
        cls.base = "http://127.0.0.1:" + cls.server.stdout.readline().strip()

    @classmethod
    def tearDownClass(cls):
        cls.server.kill()
        cls.server.wait()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def run_suite(self, name, body, env=None):
        suite = os.path.join(self.tmp, name + ".toml")
        with open(suite, "w") as f:
            f.write(f'name = "{name}"\n[[run]]\ntask = "rust_cargo"\nseeds = [1]\n' + body)
        out = os.path.join(self.tmp, name)
        r = run("run", suite, "--out", out, env=dict(os.environ, BEM_TEST_DATASET=DATASET, **(env or {})))
        self.assertEqual(r.returncode, 0, r.stdout[-2000:] + r.stderr[-2000:])
        return out

    def completions(self, name, tasks, sampling, model_params=""):
        """A run of the openai_completions model on the fake server's echo answers."""
        return self.run_suite(name, f'model = "openai_completions"\n[run.params]\ntasks = {json.dumps(tasks)}\n{sampling}'
                                    f'[run.model_params]\nbase_url = "{self.base}"\nserved_model = "echo"\n{model_params}')

    def requests(self):
        import urllib.request
        with urllib.request.urlopen(self.base + "/_requests") as f:
            return json.load(f)["requests"]

    def test_command_model_gets_the_documented_prompt(self):
        out = self.run_suite("command", 'model = "command"\n[run.params]\ncategories = ["completion", "fim", "projects"]\n'
                                        'tasks = ["*_r*"]\nsamples = 1\ngreedy = false\n' + command_model())
        vals = {r["condition"]["category"]: r["value"] for r in records(out)
                if r["metric"] == "pass@1" and "category" in r["condition"]}
        self.assertEqual(set(vals), {"all", "completion", "fim", "projects"})
        self.assertTrue(all(v == 1.0 for v in vals.values()), vals)

    def test_an_answer_that_breaks_the_plain_build_does_not_compile(self):
        # The reference with an error only the task's `cargo build` (not the
        # cfg(test) build) compiles: a compile error, not a pass.
        out = self.run_suite("plain-build", 'model = "command"\n[run.params]\ntasks = ["bug_csv_trailing_field"]\n'
                                            'samples = 1\ngreedy = false\n' + command_model(),
                             env={"BEM_TEST_APPEND": '\n#[cfg(not(test))]\ncompile_error!("only outside the tests");\n'})
        [ev] = evaluations(out, "command")
        self.assertEqual((ev["verdict"], ev["compiled"]), ("compile_error", False), ev)
        self.assertIn("only outside the tests", ev["first_error"])
        metrics = overall(out)
        self.assertEqual((metrics["compile_rate"]["value"], metrics["pass@1"]["value"]), (0.0, 0.0))

    def test_a_failed_greedy_request_keeps_the_sampled_outputs(self):
        out = self.run_suite("greedy-fails", 'model = "command"\n[run.params]\ntasks = ["cmp_sum_of_even_squares"]\n'
                                             'samples = 1\ngreedy = true\n' + command_model(),
                             env={"BEM_TEST_FAIL_GREEDY": "1"})
        metrics = overall(out)
        self.assertEqual(metrics["generation_errors"]["value"], 1)
        self.assertEqual(metrics["pass@1"]["value"], 1.0)  # the sampled answer, judged
        self.assertEqual(metrics["greedy_pass@1"]["value"], 0.0)

    def test_a_command_model_killed_by_a_signal_is_said_so(self):
        out = self.run_suite("killed", 'model = "command"\n[run.params]\ntasks = ["cmp_sum_of_even_squares"]\n'
                                       'samples = 1\ngreedy = false\n'
                                       '[run.model_params]\ncommand = ["/bin/sh", "-c", "kill -9 $$"]\n')
        [ev] = evaluations(out, "command")
        self.assertIn("killed by signal 9", ev["generation_error"])

    def test_completions_model_sends_sampling_and_stores_outputs(self):
        out = self.completions("completions", ["cmp_sum_of_even_squares", "fim_run_length_encode"],
                               "samples = 3\ntemperature = 0.6\ngreedy = true\n", "max_tokens = 64\n")
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
        samples = artifact(out, "openai_completions", "samples.jsonl")
        self.assertEqual(len(samples), 2 * (3 + 1))
        self.assertTrue(all("|i=" in s["output"] for s in samples))  # the server's answers, verbatim
        metrics = overall(out)
        self.assertEqual(metrics["pass@1"]["value"], 0.0)
        # The server counts 7 tokens a choice: 3 sampled and 1 greedy for each of the 2 tasks.
        per_token = metrics["generation_seconds_per_token"]
        self.assertEqual((per_token["n"], per_token["n_unit"]), (2 * 7 * (3 + 1), "tokens"))
        self.assertGreater(per_token["value"], 0.0)
        # Each task's time over its 4 outputs; the median of the 2 tasks is their
        # mean, (t1 + t2) / 8, which is 7 tokens' worth of (t1 + t2) / 56.
        per_sample = metrics["generation_seconds_per_sample_p50"]
        self.assertEqual((per_sample["n"], per_sample["n_unit"]), (2, "tasks"))
        self.assertAlmostEqual(per_sample["value"] / (7 * per_token["value"]), 1.0, places=9)

    def test_greedy_only_runs_have_greedy_records_and_their_tokens(self):
        metrics = overall(self.completions("greedy-only", ["cmp_cart_total", "cmp_credit_tier"],
                                           "samples = 0\ngreedy = true\n"))
        self.assertEqual(metrics["greedy_pass@1"]["value"], 0.0)
        self.assertEqual(metrics["greedy_pass@1"]["n"], 2)
        for absent in ["compile_rate", "pass@1", "pass@1_not_computed", "tests_executed"]:
            self.assertNotIn(absent, metrics)
        self.assertEqual(metrics["generation_seconds_per_token"]["n"], 2 * 7)

    def test_failing_server_is_recorded_and_the_run_goes_on(self):
        out = self.run_suite("failing",
                             'model = "openai_chat"\n[run.params]\ntasks = ["cmp_sum_of_even_squares"]\nsamples = 1\n'
                             f'[run.model_params]\nbase_url = "{self.base}/b/bad-request"\n')
        metrics = overall(out)
        self.assertEqual(metrics["generation_errors"]["value"], 1)
        self.assertEqual(metrics["pass@1"]["value"], 0.0)
        # The sample the server never gave counts as drawn and failed.
        self.assertEqual((metrics["compile_rate"]["value"], metrics["compile_rate"]["n"]), (0.0, 1))
        self.assertIn("HTTP 400", evaluations(out, "openai_chat")[-1]["generation_error"])


if __name__ == "__main__":
    main()

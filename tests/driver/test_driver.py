#!/usr/bin/env python3
"""End-to-end tests of bem-bench: the commands, exit codes, error messages,
records, determinism, resume, shards and the regression gate.

Paths come from the environment (set by tests/driver/meson.build):
BEM_BENCH, BEM_THROWING_PLUGIN, BEM_BAD_PLUGINS (':'-separated),
BEM_CUSTOM_PLUGIN."""
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import textwrap
import time
import unittest

from bench_records import SMALL_SUITE, records, stable

BENCH = os.environ["BEM_BENCH"]
THROWING = os.environ["BEM_THROWING_PLUGIN"]
BAD = [p for p in os.environ.get("BEM_BAD_PLUGINS", "").split(":") if p]
CUSTOM = os.environ["BEM_CUSTOM_PLUGIN"]
SOURCE = os.environ["BEM_SOURCE_ROOT"]

FAMILIES = ["rtc", "txc", "fsm", "parity", "majority", "dyck1", "kv_retrieval"]
# expert_eval's circuit representations (plugins/expert/plugin.cpp, known_reps).
EXPERT_REPRESENTATIONS = ["gate_list", "compiled", "jit", "anf", "anf_jit", "robdd", "robdd_jit"]


def bench(*args, env=None, cwd=None):
    e = dict(os.environ)
    e.pop("BEM_PLUGIN_PATH", None)
    if env:
        e.update(env)
    return subprocess.run([BENCH, *args], capture_output=True, text=True, env=e, cwd=cwd, timeout=600)


def read(path):
    with open(path) as f:
        return f.read()


def write_json(path, value):
    with open(path, "w") as f:
        json.dump(value, f)


class Driver(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="bem-driver-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write(self, name, text):
        p = os.path.join(self.tmp, name)
        with open(p, "w") as f:
            f.write(textwrap.dedent(text))
        return p

    # --- commands and usage ------------------------------------------------
    def test_help_version_and_usage_errors(self):
        r = bench("--help")
        self.assertEqual(r.returncode, 0)
        self.assertIn("compare BASELINE CURRENT", r.stdout)
        r = bench("--version")
        self.assertEqual(r.returncode, 0)
        self.assertRegex(r.stdout, r"bem-bench \d+\.\d+\.\d+ \(v\d+_\d+_\d+")
        for args in (["frobnicate"], [], ["run", "--shard", "3/2"], ["run", "--bogus"], ["compare", "x"],
                     ["report"], ["compare", "a", "b", "--max-drop", "lots"], ["list", "extra"], ["list", "--bogus"],
                     ["hwinfo", "--json", "--bogus"], ["run", "--shard", " 1/2"], ["run", "--shard", "1/+2"],
                     ["run", "--shard", "4294967297/2"], ["run", "--shard", "1/2x"], ["run", "--shard", "2/2"],
                     ["run", "a.toml", "b.toml"], ["compare", "a", "b", "c"],
                     ["--plugin-path", os.path.join(self.tmp, "no-such-dir"), "list"]):
            r = bench(*args)
            self.assertEqual(r.returncode, 2, args)
            self.assertIn("usage:", r.stderr)

    def test_every_flag_takes_its_value_either_way(self):
        # `--flag X` and `--flag=X` are one parser's two spellings, for every
        # command: run's --out was once refused in the second.
        suite = self.write("s.toml", SMALL_SUITE)
        spaced, joined = os.path.join(self.tmp, "spaced"), os.path.join(self.tmp, "joined")
        r = bench("run", suite, "--out", spaced, "--only", "t/rtc/reference")
        self.assertEqual(r.returncode, 0, r.stderr)
        r = bench("run", suite, "--out=" + joined, "--only=t/rtc/reference")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(stable(records(spaced)), stable(records(joined)))
        self.assertEqual({x["model"] for x in records(joined)}, {"reference"})
        merged = os.path.join(self.tmp, "merged")
        self.assertEqual(bench("report", joined, "--out=" + merged).returncode, 0)
        self.assertTrue(os.path.exists(os.path.join(merged, "metrics.json")))
        self.assertEqual(bench("compare", spaced, joined, "--max-drop=0.01").returncode, 0)
        # --plugin-path: repeatable, ':'-separated, before or after the command
        for args in (["--plugin-path=" + THROWING, "list"], ["list", "--plugin-path", THROWING],
                     ["--plugin-path", self.tmp + ":" + THROWING, "list"]):
            r = bench(*args)
            self.assertEqual(r.returncode, 0, (args, r.stderr))
            self.assertIn("throwing_model", r.stdout, args)

    def test_each_command_has_help_naming_its_flags(self):
        flags = {"run": ["SUITE.toml", "--out DIR", "--only GLOB", "--shard I/N", "--resume", "--run-timeout S",
                         "--in-process"],
                 "list": [],
                 "report": ["DIR", "--out DIR"],
                 "compare": ["BASELINE", "CURRENT", "--max-drop F", "--include-timing", "--across-models"],
                 "hwinfo": ["--json"]}
        top = bench("--help")
        self.assertEqual(top.returncode, 0)
        self.assertIn("--plugin-path PATH", top.stdout)
        for command, names in flags.items():
            for asked in (["--help"], ["-h"]):
                r = bench(command, *asked)
                self.assertEqual(r.returncode, 0, (command, r.stderr))
                self.assertIn("usage: bem-bench " + command, r.stdout)
                for n in names:
                    self.assertRegex(r.stdout, r"\n  %s +\S" % re.escape(n), (command, n))
            self.assertIn("  bem-bench " + command, top.stdout)

    def test_an_unknown_flag_is_a_usage_error_naming_it(self):
        for args, named in ((["run", "--bogus"], "--bogus"), (["run", "--out-dir", "x"], "--out-dir"),
                            (["list", "--frob=1"], "--frob=1"), (["report", "--merge", self.tmp], "--merge"),
                            (["compare", "a", "b", "--max-dorp", "1"], "--max-dorp"), (["hwinfo", "--jsn"], "--jsn"),
                            (["--plugins", self.tmp, "list"], "--plugins"), (["frobnicate"], "'frobnicate'"),
                            (["run", "--shard", "3/2"], "--shard"), (["run", "--run-timeout", "x"], "--run-timeout"),
                            (["compare", "a", "b", "--max-drop", "lots"], "--max-drop")):
            r = bench(*args)
            self.assertEqual(r.returncode, 2, args)
            self.assertIn(named, r.stderr.splitlines()[0], args)
            self.assertIn("usage: bem-bench", r.stderr, args)
            self.assertEqual(r.stdout, "", args)

    def test_the_readme_shows_the_commands_as_help_does(self):
        # README.md's usage block is the synopsis `bem-bench --help` prints,
        # line for line (a comment after '#' aside).
        readme = read(os.path.join(SOURCE, "README.md"))
        block = readme.split("## bem-bench\n\n```\n", 1)[1].split("```", 1)[0]
        documented = [line.split("#")[0].rstrip() for line in block.splitlines() if line.strip()]
        shown = [line.strip() for line in bench("--help").stdout.splitlines() if line.startswith("  bem-bench ")]
        self.assertEqual(documented, shown)

    def test_list_shows_every_family_and_origin(self):
        r = bench("list")
        self.assertEqual(r.returncode, 0, r.stderr)
        for t in FAMILIES:
            self.assertRegex(r.stdout, r"\n  %s +v\d+ +plugin \w+ +\[reference solver\]" % t)
        self.assertIn("majority_class", r.stdout)
        self.assertIn("built-in", r.stdout)

    def test_list_parameters_prints_each_declaration(self):
        r = bench("list", "--parameters", "--plugin-path", THROWING)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = r.stdout

        def rows_of(entry):  # the indented rows under an entry's line
            block = re.search(r"\n  %s +v\d[^\n]*\n((?:      [^\n]*\n)*)" % re.escape(entry), out)
            self.assertIsNotNone(block, entry)
            return block.group(1)

        e88 = rows_of("e88")
        self.assertRegex(e88, r'preset +string +"E88-1L" +one of \{E88-1L, E88-4L\} +a named configuration')
        self.assertRegex(e88, r"layers +integer +1\* +\[1, 256\]")  # derived from the preset
        self.assertRegex(e88, r"lr +number +0.001 +\[0, 10\] +AdamW learning rate")  # the shared training rows
        self.assertRegex(rows_of("expert_eval"), r"W +list of integers +\[64,256\] +one of \{64, 128, 256, 512\}")
        stationary, nonstationary = rows_of("contextual_bandit"), rows_of("nonstationary_bandit")
        self.assertRegex(stationary, r"(?m)^      d +integer +8 +\[1, 16\]")
        self.assertNotIn("discounted_ucb1\",", stationary.split("policies")[1].split("\n")[0])
        self.assertIn("discounted_ucb1", nonstationary.split("policies")[1].split("one of")[0])
        self.assertIn("spike_window", nonstationary)
        self.assertNotIn("spike_window", stationary)
        # A plugin whose types declare no parameter struct still lists, saying so.
        self.assertIn("(parameters not declared)", rows_of("crashing_model"))
        # Without the flag, no rows.
        self.assertNotIn("AdamW learning rate", bench("list").stdout)

    def test_hwinfo(self):
        r = bench("hwinfo")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stdout, r"(?i)simd")
        self.assertRegex(r.stdout, r"measured \(perf_event_open\)|estimated via TSC")
        j = json.loads(bench("hwinfo", "--json").stdout)
        self.assertIn("cycle_method", j)
        # A calibration left in the environment is not the driver's: it measures its own.
        forged = json.loads(bench("hwinfo", "--json", env={"BEM_TSC_CALIBRATION": "9e9 1 made up"}).stdout)
        self.assertNotEqual(forged["tsc_source"], "made up")
        self.assertNotEqual(forged["tsc_hz"], 9e9)

    # --- the default suite -------------------------------------------------
    def test_default_suite_writes_three_outputs_and_is_deterministic(self):
        a, b = os.path.join(self.tmp, "a"), os.path.join(self.tmp, "b")
        ra = bench("run", "--out", a)
        self.assertEqual(ra.returncode, 0, ra.stderr)
        rb = bench("run", "--out", b)
        self.assertEqual(rb.returncode, 0, rb.stderr)
        for d in (a, b):
            for f in ("results.jsonl", "metrics.json", "report.html"):
                self.assertTrue(os.path.getsize(os.path.join(d, f)) > 0, f)
        recs = records(a)
        tasks = {r["task"] for r in recs}
        self.assertTrue(set(FAMILIES) <= tasks, tasks)
        self.assertTrue(all(r["status"] == "ok" for r in recs))
        self.assertEqual(stable(records(a)), stable(recs_b := records(b)))
        self.assertTrue(any(r["timing"] for r in recs_b))
        ma = json.loads(read(os.path.join(a, "metrics.json")))
        mb = json.loads(read(os.path.join(b, "metrics.json")))
        clock_hz = ma["context"]["hardware_calibration"]["core_clock_hz_estimate"]
        for m in (ma, mb):
            m["context"].pop("date")
            m["context"].pop("hardware_calibration")
            m["context"].pop("command_line")
            m["results"] = stable(m["results"])
            m["summary"] = stable(m["summary"])
        self.assertEqual(ma, mb)
        # Reference solvers are exact everywhere; quick records say they use fewer test sequences.
        for r in recs:
            if r["model"] == "reference" and r["metric"] in ("accuracy", "per_position_accuracy"):
                self.assertEqual(r["value"], 1.0, r)
        sequence_recs = [r for r in recs if r["model"] != "none"]
        self.assertTrue(all("below the 10^4" in r["notes"][0] for r in sequence_recs))
        self.assertTrue(all("notes" not in r for r in recs if r["model"] == "none"))
        # Final-answer tasks report the cost of the answer step (a timing).
        queries = [r for r in recs if r["metric"] == "cycles_per_query" and r["model"] != "none"]
        self.assertEqual({r["task"] for r in queries}, {"parity", "majority", "kv_retrieval", "dyck1"})
        self.assertTrue(all(r["timing"] and r["unit"].startswith("cycles (") for r in queries))
        # BEM 1.2: tokens_per_second = clock_frequency_hz / cycles_per_token
        by_split = {}
        for r in sequence_recs:
            by_split.setdefault((r["task"], r["model"], r["seed"], r["split"]), {})[r["metric"]] = r["value"]
        rates = [m for m in by_split.values() if "tokens_per_second" in m]
        self.assertTrue(rates)
        for m in rates:
            self.assertAlmostEqual(m["tokens_per_second"] * m["cycles_per_token"] / clock_hz, 1.0, delta=1e-6, msg=m)
        # 2.4's Hoare half: e + 4 VCs per HOARE_CHECK (initiation, e + 1
        # consecutions, two safety), SAFE and UNSAFE both.
        hoare = {(r["split"], r["metric"]): r["value"] for r in recs if r["task"] == "hoare_check"}
        for w in (8, 16):
            for e in (1, 4):
                for variant in ("safe", "unsafe"):
                    self.assertEqual(hoare[(f"r=4,w={w},e={e},{variant}", "vcs_per_check")], e + 4)
                    self.assertGreater(hoare[(f"r=4,w={w},e={e},{variant}", "cycles_per_HOARE_CHECK")], 0)
        # The short microbenchmarks ran too, with deterministic checksums.
        self.assertTrue(any(r["task"] == "bitalu_throughput" and r["metric"] == "checksum" for r in recs))
        self.check_microbenchmark_records(recs, clock_hz)
        html = read(os.path.join(a, "report.html"))
        self.assertIn("<svg", html)
        self.assertIn("against sequence length", html)
        # It opens with the summary of every task x model, before the details.
        summary = html[html.index("<h2>Summary</h2>"):html.index("<h2>rtc</h2>")]
        for row in ("<tr><td>parity</td><td>bem</td>", "<tr><td>dyck1 (labels=online)</td><td>bem</td>",
                    "<tr><td>kv_retrieval</td><td>reference</td>", "<tr><td>rtc</td><td>majority_class</td>"):
            self.assertIn(row, summary)
        # §6.3's composite scores: S_fast of every model that ran parity or KV
        # retrieval, S_learn of every bandit policy, S_safe of the §5.3 run (no violation: 1 / (1 + ratio)).
        self.assertIn("<td>S_fast = tokens/s x (1 - error rate)</td><td>bem</td>", html)
        self.assertIn("<td>S_fast = tokens/s x (1 - error rate)</td><td>reference</td>", html)
        self.assertIn("<td>S_learn = 1 / (1 + regret per round)</td><td>contextual_bandit, policy=bem", html)
        self.assertIn("<td>S_safe = 1 / (1 + verification / fast path), 0 with a violation</td><td>safety_program", html)
        ratio = [r["value"] for r in recs if r["metric"] == "verification_to_fast_path_ratio"]
        self.assertEqual(len(ratio), 1)
        self.assertIn(f'<td class="num">{1 / (1 + ratio[0]):.4g}</td><td>verification_to_fast_path_ratio', html)
        # The learning BEM, trained on T <= 32, makes no error at any test length.
        bem_scores = [r["value"] for r in recs if r["model"] == "bem" and (r["split"] or "").startswith("test")
                      and r["metric"] in ("accuracy", "full_sequence_accuracy")]
        self.assertTrue(bem_scores)
        self.assertEqual(set(bem_scores), {1.0})
        # Accuracy by position for every test length (seed section 6.1), not only the longest.
        for T in (16, 64, 256):
            self.assertIn(f"rtc: accuracy by position at T = {T} (mean over seeds)", html)
        self.assertNotIn("<script", html)  # self-contained, static

    def check_microbenchmark_records(self, recs, clock_hz):
        """The BEM section 2 records follow the spec's formulas: rates are
        clock_frequency_hz / cycles, per-lane figures divide by W, and a short
        run says it is one."""
        by = {}
        for r in recs:
            if r["model"] == "none":
                by.setdefault((r["task"], r["split"]), {})[r["metric"]] = r
        below = {t for (t, split), m in by.items() if split == "all" and any(k.endswith("_below_spec") for k in m)}
        self.assertEqual(below, {"bitalu_throughput", "expert_eval", "route_query", "sat_check", "safety_program"})
        # each in the unit of what its parameter counts
        units = {(t, k): r["unit"] for (t, split), m in by.items() for k, r in m.items() if k.endswith("_below_spec")}
        self.assertEqual(units, {("bitalu_throughput", "l_loop_below_spec"): "iterations",
                                 ("expert_eval", "l_loop_below_spec"): "batches",
                                 ("route_query", "queries_below_spec"): "queries",
                                 ("sat_check", "instances_below_spec"): "instances",
                                 ("safety_program", "t_large_below_spec"): "steps"})
        rate = {"bitalu_throughput": ("ops_per_second", "cycles_per_op"),
                "expert_eval": ("batches_per_second", "cycles_per_batch"),
                "route_query": ("queries_per_second", "cycles_per_query")}
        seen = set()
        for (task, split), m in by.items():
            if task in rate and rate[task][0] in m:
                per_second, cycles = (m[k]["value"] for k in rate[task])
                self.assertAlmostEqual(per_second * cycles / clock_hz, 1.0, delta=1e-3, msg=(task, split))
                for k in rate[task]:  # figures from cycles say how the cycles were obtained
                    self.assertRegex(m[k].get("breakdown", {}).get("method", ""),
                                     r"^(measured \(perf_event_open\)|estimated via (TSC|steady clock))$", (task, k))
                seen.add(task)
            if task == "bitalu_throughput" and "bits_per_second" in m:
                w = m["checksum"]["condition"]["W"]
                self.assertAlmostEqual(m["bits_per_second"]["value"] / m["ops_per_second"]["value"], w)
                self.assertNotEqual(m["checksum"]["value"], 0, split)  # the popcount checksum was 0 for any seed
                # ops: the quick suite's L_loop = 100000 in whole rounds of the U streams
                streams = int(m["cycles_per_op"]["breakdown"]["streams"])
                self.assertEqual(m["cycles_per_op"]["n"], 100000 // streams * streams, split)
                bits = int(m["cycles_per_op"]["breakdown"]["vector_bits"])
                self.assertIn(bits, (64, 128, 256, 512))
                self.assertLessEqual(bits, w)
            if task == "expert_eval" and "cycles_per_lane" in m:
                cond = m["cycles_per_lane"]["condition"]
                self.assertAlmostEqual(m["cycles_per_lane"]["value"] * cond["W"], m["cycles_per_batch"]["value"])
                self.assertIn(m["vector_bits"]["value"], (64, 128, 256, 512))
                self.assertLessEqual(m["vector_bits"]["value"], cond["W"])
                # timed figures stand on the L_loop batches; the circuit's own
                # counts and its one code generation on one of each
                self.assertEqual((m["cycles_per_batch"]["n"], m["cycles_per_batch"]["n_unit"]),
                                 (m["checksum"]["n"], "batches"))
                self.assertGreater(m["checksum"]["n"], 1)
                for k, unit in [("gates", "circuits"), ("live_gates", "circuits"), ("vector_bits", "circuits"),
                                ("generated_ops", "circuits"), ("generation_us", "code generations")]:
                    if k in m:
                        self.assertEqual((m[k]["n"], m[k]["n_unit"]), (1, unit), (split, k))
                rep = cond["representation"]
                if rep in ("gate_list", "compiled", "jit"):
                    self.assertEqual(m["live_gates"]["value"], cond["G"])  # every gate of the 2.3 circuits is live
                # The compiled form and the jit rows run their interpreted twin's
                # circuit on the same inputs.
                twin = {"compiled": "gate_list", "jit": "gate_list", "anf_jit": "anf", "robdd_jit": "robdd"}.get(rep)
                if twin:
                    mode = "compiled" if rep == "compiled" else "jit"
                    other = by[(task, split.replace(f"rep={rep},mode={mode}", f"rep={twin},mode=interpreted"))]
                    self.assertEqual(m["checksum"]["value"], other["checksum"]["value"], split)
                    self.assertEqual(m["live_gates"]["value"], other["live_gates"]["value"], split)
                    self.assertEqual("backend" in cond, mode == "jit")
                    if mode == "jit":
                        self.assertIn(cond["backend"], ("avx512", "avx2", "interpreter"))
                        # No program where the CPU has neither AVX2 nor AVX-512.
                        self.assertEqual(m["generated_ops"]["value"] > 0, cond["backend"] != "interpreter")
            if task == "route_query" and "queries_in_index" in m:  # 2.2.2's mixture, p_in = 0.5
                self.assertTrue(0.47 < m["queries_in_index"]["value"] < 0.53, m["queries_in_index"])
            if task == "route_query" and "recall@1" in m:
                occ = [m["bucket_occupancy_" + k]["value"] for k in ("min", "mean", "max")]
                self.assertEqual(occ, sorted(occ))
                for k in ("recall@1", "recall@4", "recall@K_cand"):
                    self.assertTrue(0 <= m[k]["value"] <= 1)
                self.assertLessEqual(m["recall@1"]["value"], m["recall@4"]["value"])
                self.assertLessEqual(m["recall@4"]["value"], m["recall@K_cand"]["value"])
            if task == "sat_check" and "fraction_sat" in m:
                self.assertTrue(0 <= m["fraction_sat"]["value"] <= 1)
                self.assertGreater(m["cycles_per_SAT_CHECK"]["value"], 0)
                self.assertEqual("cycles_per_PROOF_CHECK" in m, m["unsat_count"]["value"] > 0)
        self.assertEqual(seen, set(rate))

    def route_query_records(self, params):
        """The records of one route_query run with these [run.params] lines."""
        p = self.write("r.toml", 'name = "route"\n[[run]]\ntask = "route_query"\n[run.params]\n' + params)
        out = os.path.join(self.tmp, "o")
        r = bench("run", p, "--out", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        return records(out)

    def route_query_values(self, extra_params=""):
        """route_query on 1000 stored identifiers, 3000 queries (300 with
        ground truth), K_cand 2 and 8, near-index draws of up to 2 flipped
        bits, plus extra_params (TOML lines): the values by split and metric."""
        by = {}
        for x in self.route_query_records("N_nodes = [1000]\nqueries = 3000\ntruth_queries = 300\n"
                                          "K_cand = [2, 8]\nmax_flips = 2\n" + extra_params):
            by.setdefault(x["split"], {})[x["metric"]] = x["value"]
        return by

    def test_route_query_mixture_and_recall_at_4(self):
        by = self.route_query_values()
        # near-index draws: only p_in / (max_flips + 1) of the queries are stored identifiers
        self.assertTrue(0.13 < by["N=1000"]["queries_in_index"] < 0.21, by["N=1000"])
        small, large = (by[f"router=multi_index N=1000 K_cand={k}"] for k in (2, 8))
        self.assertNotIn("recall@4", small)  # undefined with 2 candidates
        self.assertNotIn("recall@4_by_id", small)
        self.assertIn("recall@4_by_id", large)
        self.assertLessEqual(small["recall@1_by_id"], small["recall@K_cand_by_id"])

    def test_route_query_rank_and_recall_laws(self):
        # probe_radius = 0 leaves true neighbours out of some answers: a missing
        # neighbour has rank K_cand + 1, found ones 1..K_cand, so the mean rank
        # lies between the two mixtures that recall@K_cand_by_id allows; and
        # counting ties as correct never gives less than breaking them by id.
        by = self.route_query_values("probe_radius = 0\n")
        for k in (2, 8):
            m = by[f"router=multi_index N=1000 K_cand={k}"]
            found = m["recall@K_cand_by_id"]
            self.assertLess(found, 0.95, m)  # some neighbours are missed, or the law below is idle
            self.assertGreaterEqual(m["mean_rank_true_neighbour"], found + (1 - found) * (k + 1) - 1e-9, m)
            self.assertLessEqual(m["mean_rank_true_neighbour"], found * k + (1 - found) * (k + 1) + 1e-9, m)
            for j in ("1", "K_cand") + (("4",) if k >= 4 else ()):
                self.assertGreaterEqual(m[f"recall@{j}"], m[f"recall@{j}_by_id"], (k, j))
            self.assertGreater(m["recall@1"], m["recall@1_by_id"], m)  # ties do occur here

    def test_route_query_truth_queries_capped_at_queries(self):
        # Q_truth (default 1000) above Q scores every query once, never past
        # the queries drawn: the recall and rank records count Q of them.
        recs = self.route_query_records("N_nodes = [100]\nqueries = 40\nK_cand = [4]\n")
        scored = [x for x in recs if x["metric"].startswith(("recall@", "mean_rank"))]
        self.assertEqual(len(scored), 7, scored)
        for x in scored:
            self.assertEqual((x["n"], x["n_unit"]), (40, "truth queries"), x)

    def test_sat_check_counts_add_up(self):
        # n = 20, m = 9n, a budget of 20 conflicts: SAT, UNSAT and undecided
        # instances in one cell. fraction_sat is over decided instances only;
        # the latency records count each kind; every UNSAT proof is checked.
        for budget in (20, 1000):
            path = self.write(f"s{budget}.toml", f"""
                name = "sat"
                [[run]]
                task = "sat_check"
                [run.params]
                n = [20]
                ratios = [9]
                instances = 60
                budget = {budget}
            """)
            out = os.path.join(self.tmp, f"o{budget}")
            r = bench("run", path, "--out", out)
            self.assertEqual(r.returncode, 0, r.stderr)
            m = {x["metric"]: x for x in records(out) if x["split"] == "n=20,m=180"}
            sat_n, unsat_n = m["sat_latency_p50"]["n"], m["unsat_latency_p50"]["n"]
            unknown = m["unknown_count"]["value"]
            self.assertEqual(m["fraction_sat"]["n"], sat_n + unsat_n)
            self.assertAlmostEqual(m["fraction_sat"]["value"], sat_n / (sat_n + unsat_n))
            self.assertEqual(sat_n + unsat_n + unknown, 60)
            self.assertEqual(m["unsat_count"]["value"], unsat_n)
            ci = m["fraction_sat"]["ci"]
            self.assertLessEqual(ci["low"], m["fraction_sat"]["value"])
            self.assertLessEqual(m["fraction_sat"]["value"], ci["high"])
            self.assertEqual(m["cycles_per_PROOF_CHECK"]["n"], unsat_n)
            self.assertGreater(m["cycles_per_PROOF_CHECK"]["value"], 0)
            for kind in ("sat", "unsat"):
                q = [m[f"{kind}_latency_{s}"]["value"] for s in ("p50", "p99", "max")]
                self.assertEqual(q, sorted(q), kind)
            # All three kinds with the small budget, none undecided with the large
            # one; different formulas either way (one formula repeated would be
            # all SAT or all UNSAT).
            self.assertTrue(sat_n > 0 and unsat_n > 0, m["fraction_sat"])
            self.assertEqual(unknown > 0, budget == 20, unknown)

    def test_contextual_bandit_records_add_up(self):
        # BEM 5.1 on a small environment: the regret curve climbs to the regret, the normalised regret
        # divides it by T, each policy's records stand on T rounds, the learners beat the uniform
        # policy, and a policy meets the same rounds whatever else runs beside it.
        T = 3000
        path = self.write("b.toml", f"""
            name = "bandit"
            [[run]]
            name = "all"
            task = "contextual_bandit"
            seeds = [1]
            [run.params]
            d = 4
            rounds = {T}
            [[run]]
            name = "linucb-alone"
            task = "contextual_bandit"
            seeds = [1]
            [run.params]
            d = 4
            rounds = {T}
            policies = ["linucb"]
        """)
        outs = []
        for k in range(2):
            out = os.path.join(self.tmp, f"o{k}")
            r = bench("run", path, "--out", out)
            self.assertEqual(r.returncode, 0, r.stderr)
            outs.append(records(out))
        self.assertEqual(stable(outs[0]), stable(outs[1]))
        recs = [x for x in outs[0] if x["run"] == "all" and x["metric"] != "run_wall_time"]
        policies = ["bem", "uniform", "ucb1_per_context", "epsilon_greedy", "linucb"]
        self.assertEqual(sorted({x["condition"]["policy"] for x in recs}), sorted(policies))  # 5.1's default five
        regret = {}
        for policy in policies:
            with self.subTest(policy=policy):
                mine = [x for x in recs if x["condition"]["policy"] == policy]
                m = {x["metric"]: x for x in mine if x["metric"] != "regret_at_t"}
                curve = sorted((x["condition"]["t"], x["value"]) for x in mine if x["metric"] == "regret_at_t")
                self.assertEqual([t for t, _ in curve], [10, 20, 50, 100, 200, 500, 1000, 2000, T])
                self.assertEqual([v for _, v in curve], sorted(v for _, v in curve))
                self.assertEqual(curve[-1][1], m["regret"]["value"])
                regret[policy] = m["regret"]["value"]
                self.assertAlmostEqual(m["normalized_regret"]["value"], regret[policy] / T)
                self.assertTrue(0 <= m["optimal_action_rate"]["value"] <= 1)
                self.assertTrue(0 <= m["mean_reward"]["value"] <= 1)
                learns = policy != "uniform"
                self.assertEqual(m["bandit_updates"]["value"], T if learns else 0)
                self.assertEqual("cycles_per_update" in m, learns)
                if learns:  # the replay of the T updates was timed, and took time
                    self.assertGreater(m["cycles_per_update"]["value"], 0)
                    self.assertTrue(m["cycles_per_update"]["timing"])
                self.assertGreater(m["cycles_per_round"]["value"], 0)
                self.assertTrue(m["cycles_per_round"]["timing"])
                patches = m["structural_patches"]
                if policy == "bem":  # its refits are verified patches, counted by class
                    b = patches["breakdown"]
                    self.assertEqual(b["enabled"], "yes")
                    self.assertGreater(patches["value"], 0)
                    self.assertEqual(patches["value"],
                                     sum(int(b[k]) for k in ("expert_split", "expert_merge", "macro_refine")))
                    self.assertEqual(m["patches_rejected"]["value"], 0)
                    self.assertEqual(m["change_alarms"]["value"], 0)  # a stationary world
                    self.assertEqual(b["expert_split"], "0")
                    self.assertTrue(m["verification_cycles"]["timing"])
                    self.assertGreater(m["verification_cycles"]["value"], 0)
                else:
                    self.assertEqual(patches["value"], 0)
                    self.assertEqual(patches["breakdown"]["enabled"], "no")
                for x in mine:
                    self.assertEqual(x["n_unit"], "rounds")
                    self.assertEqual(x["n"], x["condition"].get("t", T))
        for policy in ("ucb1_per_context", "bem", "epsilon_greedy", "linucb"):
            self.assertLess(regret[policy], regret["uniform"], policy)
        # The report draws each environment's regret curves, log-log, in one chart (its title and its
        # accessible <title>), each policy once although two runs measured LinUCB.
        report = read(os.path.join(self.tmp, "o0", "report.html"))
        self.assertEqual(report.count("regret curve, log-log, mean over seeds: T=3000, actions=4, d=4"), 2)
        self.assertEqual(report.count("linucb [alpha=1]"), 1)  # its legend entry
        alone = {x["metric"]: x["value"] for x in outs[0] if x["run"] == "linucb-alone" and x["metric"] == "regret"}
        self.assertEqual(alone["regret"], regret["linucb"])

    def test_nonstationary_bandit_records_per_change(self):
        # BEM 5.2: J = 3 changes over T = 4000 (segments of 1000 rounds), a spike window of 200. Per
        # policy and change: the spike, the rate before, the adaptation and recovery times (censored
        # where the window never gets there), no structural update, and the learning cycles the change
        # costs; the whole-run records as in 5.1, with J in the condition. The BEM counts its structural
        # updates by class in the spike window and says when its detector fired.
        T, J, W = 4000, 3, 200
        path = self.write("ns.toml", f"""
            name = "ns"
            [[run]]
            name = "ns"
            task = "nonstationary_bandit"
            seeds = [1]
            [run.params]
            d = 3
            rounds = {T}
            changes = {J}
            spike_window = {W}
            adaptation_window = 100
            adaptation_threshold = 0.05
        """)
        out = os.path.join(self.tmp, "ns-out")
        r = bench("run", path, "--out", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        recs = [x for x in records(out) if x["metric"] != "run_wall_time"]
        policies = ["bem", "uniform", "ucb1_per_context", "discounted_ucb1", "epsilon_greedy", "linucb",
                    "sw_linucb", "d_linucb"]
        self.assertEqual(sorted({x["condition"]["policy"] for x in recs}), sorted(policies))
        for policy in policies:
            mine = [x for x in recs if x["condition"]["policy"] == policy]
            whole = {x["metric"]: x for x in mine if "change" not in x["condition"] and "t" not in x["condition"]}
            self.assertEqual(whole["regret"]["condition"]["J"], J)
            learns = policy != "uniform"
            for j in range(1, J + 1):
                with self.subTest(policy=policy, change=j):
                    m = {x["metric"]: x for x in mine if x["condition"].get("change") == j}
                    self.assertEqual(m["regret_spike"]["condition"]["t_change"], j * 1000)
                    self.assertEqual(m["regret_spike"]["split"], f"policy={policy},change={j}")
                    self.assertEqual(m["regret_spike"]["n"], W)
                    self.assertTrue(0 <= m["regret_spike"]["value"] <= min(W, whole["regret"]["value"]))
                    before = m["regret_rate_before_change"]["value"]
                    self.assertTrue(0 <= before <= 1)
                    for metric, threshold in (("adaptation_time", 0.05), ("recovery_time", before)):
                        x = m[metric]
                        self.assertAlmostEqual(float(x["breakdown"]["threshold"]), threshold)
                        self.assertEqual(x["breakdown"]["window"], "100")
                        self.assertEqual(x["n"], 1000)  # the rounds of the segment after the change
                        adapted = x["breakdown"]["adapted"] == "yes"
                        self.assertEqual(adapted, x["value"] <= 900)
                        if not adapted:
                            self.assertEqual(x["value"], 901)  # censored: no window of 100 reached it
                    updates = m["structural_updates"]
                    if policy == "bem":
                        b = updates["breakdown"]
                        self.assertEqual(b["enabled"], "yes")
                        self.assertEqual(updates["value"],
                                         sum(int(b[k]) for k in ("expert_split", "expert_merge", "macro_refine")))
                        self.assertEqual(updates["n"], W)
                        self.assertIn("structural_updates_before_change", m)
                        for side in ("after", "before"):
                            self.assertTrue(m[f"verification_cycles_{side}_change"]["timing"])
                        delay = m["detection_delay"]
                        detected = delay["breakdown"]["detected"] == "yes"
                        self.assertEqual(detected, delay["value"] < 1000)
                        if not detected:
                            self.assertEqual(delay["value"], 1000)
                        if detected and delay["value"] < W:  # an alarm in the window splits the ensemble
                            self.assertGreater(int(b["expert_split"]), 0)
                    else:
                        self.assertEqual(updates["value"], 0)
                        self.assertEqual(updates["breakdown"]["enabled"], "no")
                        self.assertNotIn("detection_delay", m)
                    cycles = ["learning_cycles_before_change", "learning_cycles_after_change",
                              "additional_learning_cycles_after_change"]
                    for metric in cycles:
                        self.assertEqual(metric in m, learns, metric)
                    if learns:
                        before, after, extra = (m[k] for k in cycles)
                        for x in (before, after, extra):
                            self.assertTrue(x["timing"])
                            self.assertEqual(x["breakdown"]["blocks"], "10")
                            self.assertEqual(x["n"], W)
                        self.assertGreater(before["value"], 0)
                        self.assertGreater(after["value"], 0)
                        self.assertAlmostEqual(extra["value"], after["value"] - before["value"],
                                               delta=1e-9 * before["value"])

    def test_language_model_benchmarks_on_a_corpus_folder(self):
        # charlm and codelm (docs/language-modelling.md) on a folder of small Rust files (corpus_dir, split
        # by fnv1a64(path) mod 20: 0 test, 1 validation), every model at a tiny budget; then a corpus that
        # is not one is a configuration error, and a folder that is not there a recorded run error.
        def fnv1a64(text):
            h = 0xcbf29ce484222325
            for b in text.encode():
                h = ((h ^ b) * 0x100000001b3) % (1 << 64)
            return h
        corpus = os.path.join(self.tmp, "corpus")
        os.makedirs(corpus)
        names, buckets, i = [], set(), 0
        while len(names) < 30 or not {0, 1} <= buckets:
            names.append(f"m{i}.rs")
            buckets.add(fnv1a64(names[-1]) % 20)
            i += 1
        for k, name in enumerate(names):
            with open(os.path.join(corpus, name), "w") as f:
                f.write("".join(f"pub fn f{k}_{j}(x: u32) -> u32 {{ let y = x + {j}; (y * 2) }}\n" for j in range(20)))
        suite = self.write("lm.toml", f"""
            name = "lm"
            [[run]]
            name = "c"
            task = "charlm"
            [run.params]
            corpus_dir = "{corpus}"
            models = ["bem", "kn", "mamba2"]
            table_bits = 10
            curve_points = 2
            nn_train_symbols = 2048
            nn_window = 32
            nn_batch = 4
            [[run]]
            name = "t"
            task = "codelm"
            [run.params]
            corpus_dir = "{corpus}"
            table_bits = 10
            curve_points = 1
            samples = 10
            sample_length = 8
        """)
        out = os.path.join(self.tmp, "o")
        r = bench("run", suite, "--out", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        m = {(x["task"], x["split"], x["metric"]): x for x in records(out)}
        train_chars = m[("charlm", "corpus=folder,split=train", "characters")]["value"]
        self.assertGreater(train_chars, 10000)
        for model, mode, trained in (("bem", "frozen", train_chars), ("bem", "adaptive", train_chars),
                                     ("kn6", "frozen", train_chars), ("mamba2", "frozen", 2048)):
            split = f"model={model},mode={mode}"
            bits = m[("charlm", split, "bits_per_char")]["value"]
            self.assertTrue(0 < bits < 7.0, (split, bits))  # log2 96 = 6.58: no worse than about uniform
            self.assertAlmostEqual(m[("charlm", split, "perplexity")]["value"], 2 ** bits, places=6)
            self.assertGreater(m[("charlm", split, "tokens_per_second")]["value"], 0)
            self.assertEqual(m[("charlm", split, "training_tokens")]["value"], trained)
        # The repeated lines are easy for the counting models; the untrained-length network is not.
        self.assertLess(m[("charlm", "model=kn6,mode=frozen", "bits_per_char")]["value"], 1.5)
        self.assertLess(m[("charlm", "model=bem,mode=adaptive", "bits_per_char")]["value"], 1.5)
        self.assertEqual(m[("charlm", "model=mamba2,mode=frozen", "lm_specialised")]["value"], 0)
        self.assertEqual(m[("charlm", "model=mamba2,mode=frozen", "training_steps")]["value"], 16)
        # kn's order is at most 64 / bits per token: 6 here (a vocabulary of under 2^10 tokens).
        for model in ("bem", "kn6"):
            self.assertTrue(0 < m[("codelm", f"model={model},mode=frozen", "bits_per_token")]["value"] < 16)
            rate = m[("codelm", f"model={model},mode=frozen", "syntax_error_rate")]
            self.assertTrue(0 <= rate["value"] <= 1 and rate["n"] == 10, rate)
        self.assertEqual(m[("codelm", "model=reference,mode=test", "syntax_error_rate")]["value"], 0)
        # A corpus that is not one stops the suite at its line; a missing folder fails its run only.
        self.assert_config_error('name = "x"\n[[run]]\ntask = "charlm"\n[run.params]\ncorpus = "latin"\n',
                                 "FILE:5:", "parameter 'corpus': must be one of {english, rust}")
        self.assert_config_error('name = "x"\n[[run]]\ntask = "codelm"\n[run.params]\nmodels = ["e88"]\n',
                                 "FILE:5:", "parameter 'models'")
        missing = self.write("missing.toml", f"""
            name = "m"
            [[run]]
            task = "charlm"
            [run.params]
            corpus_dir = "{os.path.join(self.tmp, 'no-such-corpus')}"
            models = ["kn"]
        """)
        r = bench("run", missing, "--out", os.path.join(self.tmp, "m"))
        self.assertEqual(r.returncode, 1, r.stderr)
        errors = [x["error"] for x in records(os.path.join(self.tmp, "m")) if x["metric"] == "run_error"]
        self.assertEqual(len(errors), 1)
        self.assertIn("no-such-corpus is not a folder", errors[0])

    def test_record_schema(self):
        suite = self.write("s.toml", SMALL_SUITE)
        out = os.path.join(self.tmp, "o")
        r = bench("run", suite, "--out", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        recs = records(out)
        for rec in recs:
            for k in ("run_id", "task", "task_version", "model", "config", "seed", "metric", "value", "unit",
                      "ci", "status", "error", "timing", "split"):
                self.assertIn(k, rec)
        acc = [x for x in recs if x["metric"] == "full_sequence_accuracy" and x["model"] == "majority_class"]
        self.assertTrue(acc and all(x["ci"]["method"] == "wilson" for x in acc))
        self.assertEqual(acc[0]["config"]["task"], {"length": 32, "test_lengths": [32]})  # defaults included
        self.assertEqual(acc[0]["config"]["protocol"]["test_sequences"], 200)
        m = json.loads(read(os.path.join(out, "metrics.json")))
        s = [e for e in m["summary"] if e["metric"] == "per_position_accuracy" and e["model"] == "majority_class"]
        self.assertTrue(s and all(e["n_seeds"] == 2 and e["ci"]["method"] == "t across seeds" for e in s))
        for k in ("hardware", "compiler", "build_flags", "git_revision", "date"):
            self.assertIn(k, m["context"])
        self.assertIn(m["context"]["W_hw"], (128, 256, 512))  # §6.1 names the hardware SIMD width
        # Each summary is the mean of its records over the seeds (not one seed's value).
        ident = lambda x: json.dumps([x["task"], x["model"], x["config"], x["split"], x["metric"],
                                      x.get("breakdown")], sort_keys=True)
        values = {}
        for x in recs:
            if x["status"] == "ok" and x["metric"] != "run_wall_time" and isinstance(x["value"], (int, float)):
                values.setdefault(ident(x), []).append(x["value"])
        differ = 0
        for e in m["summary"]:
            if e["timing"] or e["mean"] is None:
                continue
            v = values[ident(e)]
            self.assertEqual(len(v), e["n_seeds"], e)
            self.assertAlmostEqual(e["mean"], sum(v) / len(v), delta=1e-12, msg=e)
            differ += len(set(v)) > 1
        self.assertGreater(differ, 0)  # some seeds disagree, so a single seed's value would show

    # --- bad input ---------------------------------------------------------
    def assert_config_error(self, text, *fragments, options=()):
        p = self.write("bad.toml", text)
        r = bench(*options, "run", p, "--out", os.path.join(self.tmp, "bad-out"))
        self.assertEqual(r.returncode, 2, r.stderr)
        for f in fragments:
            self.assertIn(f.replace("FILE", p), r.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "bad-out", "results.jsonl")))

    def test_bad_suite_files_name_file_line_and_column(self):
        self.assert_config_error('name = "x"\n[[run]]\ntask = "rtc"\nmodel = = 1\n', "FILE:4:")
        self.assert_config_error('name = "x"\n[[run]]\ntask = "rtc"\nmodel = "reference"\nbatchsize = 3\n',
                                 "FILE:5:1: unknown key 'batchsize' in [[run]]")
        self.assert_config_error('name = "x"\n[[run]]\ntask = "rtc"\nmodel = "reference"\ntest_sequences = "many"\n',
                                 "FILE:5:18: 'test_sequences' must be an integer")
        self.assert_config_error('name = "x"\n[[run]]\ntask = "rtc"\nmodel = "reference"\n[run.params]\nlenght = 3\n',
                                 "FILE:6:10: task 'rtc': parameter 'lenght': unknown parameter")
        self.assert_config_error('name = "x"\n[[run]]\ntask = "rtc"\nmodel = "reference"\n[run.params]\nlength = -3\n',
                                 "FILE:6:10: task 'rtc': parameter 'length': must lie in")
        self.assert_config_error('name = "x"\n[[run]]\ntask = "rtc"\nmodel = "reference"\n[run.sweep.params]\nlength = [8, "x"]\n',
                                 "FILE:6:")
        self.assert_config_error('[[run]]\ntask = "rtc"\nmodel = "reference"\n', "FILE:1:1: the suite needs a 'name'")
        self.assert_config_error('name = "x"\nfoo = 1\n', "FILE:2:1: unknown key 'foo' in the suite")
        # misspelt keys are refused in every table, not only in [[run]]
        self.assert_config_error('name = "x"\n[defaults]\nbatchsize = 3\n[[run]]\ntask = "rtc"\nmodel = "reference"\n',
                                 "FILE:3:1: unknown key 'batchsize' in [defaults]")
        self.assert_config_error('name = "x"\n[[run]]\ntask = "rtc"\nmodel = "reference"\n[run.sweep.protocol]\n'
                                 'test_sequence = [10]\n', "FILE:6:1: unknown key 'test_sequence' in [run.sweep.protocol]")
        self.assert_config_error('name = "x"\n[[run]]\nmodel = "reference"\n', "FILE:2:1: the run needs 'task' or 'tasks'")
        self.assert_config_error('name = "x"\n[[run]]\ntask = "rtc"\nmodel = "reference"\ntest_sequences = 0\n',
                                 "FILE:5:18: 'test_sequences' must be at least 1")
        # a model parameter's error names its key, as a task parameter's does
        self.assert_config_error('name = "x"\n[[run]]\ntask = "txc"\nmodel = "crashing_model"\n[run.params]\nlength = 8\n'
                                 '[run.model_params]\nhow = "bogus"\n',
                                 "FILE:8:7: model 'crashing_model': parameter 'how': one of", options=("--plugin-path", THROWING))
        r = bench("run", os.path.join(self.tmp, "missing.toml"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("missing.toml", r.stderr)

    def test_microbenchmark_parameters_are_checked_at_their_key(self):
        # Each suite's first run sets every checked parameter to the edge of what it allows and must be
        # accepted; its second run breaks one rule, and the suite stops at that key's line. A third run's
        # unknown parameter stops it there should the rule be missed, so nothing (such as a router over
        # 2^31 nodes) ever runs.
        edges = {
            "route_query": 'N_nodes = [1, 2147483648]\nK_cand = [1, 256]\nH = 2\nrouters = ["multi_index", "exact"]\n',
            "sat_check": "n = [5, 100000]\nratios = [1, 1000]\nmin_len = 5\nmax_len = 5\n",
            "expert_eval": 'G = [64, 128, 256, 512]\nW = [64, 128, 256, 512]\n'
                           f'representations = {json.dumps(EXPERT_REPRESENTATIONS)}\n',
            "bitalu_throughput": "W = [64, 128, 256, 512, 1024]\n",
            "contextual_bandit": "d = 16\nactions = 16\nrounds = 1\nepsilon = 1.0\nc_explore = 0.0\nalpha = 0.0\n"
                                 "mid_path_every = 1\ndiscount = 1.0\n",
            "nonstationary_bandit": "d = 2\nchanges = 16\nrounds = 34\nspike_window = 1\nadaptation_window = 1\n"
                                    "adaptation_threshold = 0.0\n",
        }
        cases = [
            ("route_query", "N_nodes = [0]", "N_nodes", "each must lie in [1, 2147483648], got 0"),
            ("route_query", "N_nodes = [2147483649]", "N_nodes", "each must lie in [1, 2147483648], got 2147483649"),
            ("route_query", "K_cand = [0]", "K_cand", "each must lie in [1, 256], got 0"),
            ("route_query", "K_cand = [16, 257]", "K_cand", "each must lie in [1, 256], got 257"),
            ("route_query", "H = 1", "H", "must be 0 (chosen by N) or lie in [2, 8]"),
            ("route_query", 'routers = ["exact", "faiss"]', "routers", 'each must be one of {multi_index, exact}, got "faiss"'),
            ("sat_check", "n = [0]", "n", "each must lie in [1, 100000], got 0"),
            ("sat_check", "n = [100001]", "n", "each must lie in [1, 100000], got 100001"),
            ("sat_check", "ratios = [0]", "ratios", "each must lie in [1, 1000], got 0"),
            ("sat_check", "ratios = [4, 1001]", "ratios", "each must lie in [1, 1000], got 1001"),
            ("sat_check", "min_len = 4\nmax_len = 3", "max_len", "must be at least min_len"),
            ("sat_check", "max_len = 5\nn = [64, 4]", "max_len", "must not exceed the smallest n"),
            ("expert_eval", "G = [64, 100]", "G", "each must be one of {64, 128, 256, 512}, got 100"),
            ("expert_eval", "W = [1024]", "W", "each must be one of {64, 128, 256, 512}, got 1024"),
            ("expert_eval", 'representations = ["bdd"]', "representations",
             'each must be one of {gate_list, compiled, jit, anf, anf_jit, robdd, robdd_jit}, got "bdd"'),
            ("bitalu_throughput", "W = [32]", "W", "each must be one of {64, 128, 256, 512, 1024}, got 32"),
            ("bitalu_throughput", "W = [2048]", "W", "each must be one of {64, 128, 256, 512, 1024}, got 2048"),
            ("bitalu_throughput", 'ops = ["and", "nand"]', "ops", 'each must be one of {and, or, xor, not, andnot, shift_left,'),
            ("contextual_bandit", "d = 0", "d", "must lie in [1, 16], got 0"),
            ("contextual_bandit", "d = 17", "d", "must lie in [1, 16], got 17"),
            ("contextual_bandit", "actions = 1", "actions", "must lie in [2, 16], got 1"),
            ("contextual_bandit", "actions = 17", "actions", "must lie in [2, 16], got 17"),
            ("contextual_bandit", "rounds = 0", "rounds", "must lie in [1, 10000000], got 0"),
            ("contextual_bandit", "rounds = 10000001", "rounds", "must lie in [1, 10000000], got 10000001"),
            ("contextual_bandit", "weight_scale = 0.0", "weight_scale", "must be a finite number > 0"),
            ("contextual_bandit", "epsilon = 1.5", "epsilon", "must lie in [0.000000, 1.000000], got 1.500000"),
            ("contextual_bandit", "c_explore = -1.0", "c_explore", "must be a finite number >= 0"),
            ("contextual_bandit", "learning_rate = 0.0", "learning_rate", "must be a finite number > 0"),
            ("contextual_bandit", "alpha = -0.5", "alpha", "must be a finite number >= 0"),
            ("contextual_bandit", "mid_path_every = 0", "mid_path_every", "must lie in [1, 1099511627776], got 0"),
            ("contextual_bandit", "ensemble = 20\nmax_ensemble = 10", "max_ensemble", "must be at least ensemble (20)"),
            ("nonstationary_bandit", "forgetting = 1.5", "forgetting", "must lie in (0, 1]"),
            ("contextual_bandit", "change_threshold = 0.0", "change_threshold", "must be > 0"),
            ("contextual_bandit", 'policies = ["bem", "thompson"]', "policies",
             'each must be one of {bem, uniform, ucb1_per_context, discounted_ucb1, epsilon_greedy, linucb, sw_linucb, d_linucb}, got "thompson"'),
            ("contextual_bandit", 'policies = ["bem", "linucb", "bem"]', "policies", '"bem" is listed twice'),
            ("contextual_bandit", "policies = []", "policies", "expected a list of strings"),
            ("contextual_bandit", "discount = 0.0", "discount", "must lie in (0, 1]"),
            ("contextual_bandit", "discount = 1.5", "discount", "must lie in (0, 1]"),
            ("nonstationary_bandit", "changes = 0", "changes", "must lie in [1, 16], got 0"),
            ("nonstationary_bandit", "changes = 17", "changes", "must lie in [1, 16], got 17"),
            ("nonstationary_bandit", "changes = 4\nrounds = 9", "rounds",
             "must give every segment at least 2 rounds (2 * (changes + 1))"),
            ("nonstationary_bandit", "spike_window = 0", "spike_window", "must lie in [1, 10000000], got 0"),
            ("nonstationary_bandit", "adaptation_window = 0", "adaptation_window", "must lie in [1, 10000000], got 0"),
            ("nonstationary_bandit", "adaptation_threshold = -0.1", "adaptation_threshold",
             "must be a finite number >= 0"),
        ]
        for task, bad, key, message in cases:
            with self.subTest(task=task, params=bad):
                text = (f'name = "x"\n[[run]]\ntask = "{task}"\n[run.params]\n{edges[task]}'
                        f'[[run]]\ntask = "{task}"\n[run.params]\n{bad}\n'
                        f'[[run]]\ntask = "{task}"\n[run.params]\nno_such_parameter = 1\n')
                line = max(i for i, l in enumerate(text.splitlines(), 1) if l.startswith(key + " ="))
                self.assert_config_error(text, f"FILE:{line}:", f"benchmark '{task}': parameter '{key}': {message}")

    def test_missing_plugin_fails_only_its_runs(self):
        p = self.write("s.toml", """
            name = "m"
            [defaults]
            test_sequences = 50
            [[run]]
            tasks = ["rtc", "no_such_task"]
            models = ["reference", "no_such_model"]
            [run.params]
            length = 8
        """)
        out = os.path.join(self.tmp, "o")
        r = bench("run", p, "--out", out)
        self.assertEqual(r.returncode, 1, r.stderr)
        recs = records(out)
        errors = [x["error"] for x in recs if x["status"] == "failed" and x["metric"] == "run_error"]
        self.assertEqual(len(errors), 3)
        self.assertIn("no plugin provides task 'no_such_task'", "\n".join(errors))
        self.assertIn("no plugin provides model 'no_such_model'", "\n".join(errors))
        ok = [x for x in recs if x["task"] == "rtc" and x["model"] == "reference" and x["metric"] == "per_position_accuracy"]
        self.assertEqual(ok[0]["value"], 1.0)
        self.assertIn("Failed runs", read(os.path.join(out, "report.html")))

    def test_suites_that_would_count_or_ignore_something_are_refused(self):
        cases = {
            # one measurement twice: a seed listed twice, a repeated sweep value, a copied [[run]]
            "seeds = [1, 1]": "repeats rtc x reference with seed 1",
            "[run.sweep.params]\nlength = [8, 8]": "repeats rtc x reference with seed 1",
            "[[run]]\ntask = \"rtc\"\nmodel = \"reference\"": "repeats rtc x reference with seed 1",
            # a protocol value fixed in the run and swept
            "test_sequences = 20\n[run.sweep.protocol]\ntest_sequences = [10, 20]":
                "'test_sequences' is both fixed in the run and swept",
            # a batch bigger than the ABI's 32-bit count
            "diagnostic_sequences = 4294967296": "'diagnostic_sequences' must be at most 2147483647",
            "batch_size = 4294967296": "'batch_size' must be at most 2147483647",
            # a run that would measure nothing, or not what it says
            "seeds = []": "'seeds' must be a non-empty list of integers",
            "tasks = [\"fsm\"]": "give either 'task' or 'tasks', not both",
            "[run.params]\nlength = 8\n[run.sweep.params]\nlength = [8, 16]": "'length' is both fixed in the run and swept",
        }
        for extra, message in cases.items():
            p = self.write("s.toml", "name = \"x\"\n[[run]]\ntask = \"rtc\"\nmodel = \"reference\"\n" + extra + "\n")
            r = bench("run", p, "--out", os.path.join(self.tmp, "o"))
            self.assertEqual(r.returncode, 2, extra)
            self.assertIn(message, r.stderr, extra)
            self.assertRegex(r.stderr, r"s\.toml:\d+:\d+: ", extra)
            self.assertFalse(os.path.exists(os.path.join(self.tmp, "o", "results.jsonl")), extra)
        # the limit itself is a valid count
        p = self.write("s.toml", "name = \"x\"\n[defaults]\nbatch_size = 2147483647\ndiagnostic_sequences = 2147483647\n"
                       "[[run]]\ntask = \"rtc\"\nmodel = \"reference\"\n")
        r = bench("run", p, "--only", "no-such-run", "--out", os.path.join(self.tmp, "limit"))
        self.assertEqual(r.returncode, 0, r.stderr)
        # the same run once the plugin's defaults are filled in (rtc's length is 64 by default)
        p = self.write("d.toml", """
            name = "d"
            [[run]]
            task = "rtc"
            model = "reference"
            [[run]]
            task = "rtc"
            model = "reference"
            [run.params]
            length = 64
        """)
        r = bench("run", p, "--out", os.path.join(self.tmp, "o"))
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("d.toml:6:1: run 'run2' (rtc x reference, seed 1) measures exactly what run 'run1' at", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "o", "context.json")))
        # model parameters for a microbenchmark that takes no model
        p = self.write("m.toml", """
            name = "m"
            [[run]]
            task = "counting_benchmark"
            [run.model_params]
            layers = 2
        """)
        r = bench("--plugin-path", THROWING, "run", p, "--out", os.path.join(self.tmp, "o"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("m.toml:6:10: 'counting_benchmark' is a microbenchmark and takes no model", r.stderr)
        # a directory is not a suite file
        r = bench("run", self.tmp, "--out", os.path.join(self.tmp, "o"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("is a directory, not a suite file", r.stderr)

    def test_results_are_never_overwritten_without_being_asked(self):
        suite = self.write("s.toml", SMALL_SUITE)
        out = os.path.join(self.tmp, "o")
        self.assertEqual(bench("run", suite, "--out", out, "--only", "*/rtc/reference").returncode, 0)
        before = read(os.path.join(out, "results.jsonl"))
        context = read(os.path.join(out, "context.json"))
        self.assertTrue(before)
        r = bench("run", suite, "--out", out, "--only", "nothing")
        self.assertEqual(r.returncode, 2)
        self.assertIn("already holds the records of an earlier run: --resume continues it", r.stderr)
        self.assertEqual(read(os.path.join(out, "results.jsonl")), before)
        self.assertEqual(read(os.path.join(out, "context.json")), context)  # the refused run wrote nothing
        # Without --out, a second run goes to a fresh folder beside the first.
        for expect in ("results/small", "results/small-2"):
            r = bench("run", suite, "--only", "*/rtc/reference", cwd=self.tmp)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn(f"results: {expect}/results.jsonl", r.stdout)
        # --resume without --out continues the first, it does not start a third
        r = bench("run", suite, "--only", "*/rtc/reference", "--resume", cwd=self.tmp)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("results: results/small/results.jsonl", r.stdout)
        self.assertIn("2 runs: 0 ok, 0 failed, 2 skipped", r.stdout)
        r = bench("run", suite, "--out", out, "--only", "nothing", "--resume")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("selects none of the suite's runs", r.stderr)
        self.assertEqual(read(os.path.join(out, "results.jsonl")), before)

    def test_throwing_plugin_is_recorded_and_the_suite_goes_on(self):
        p = self.write("s.toml", """
            name = "throwing"
            [defaults]
            test_sequences = 50
            train_sequences = 64
            [[run]]
            tasks = ["throwing_task", "txc"]
            models = ["reference", "throwing_model", "impure_model"]
            [run.params]
            length = 8
        """)
        out = os.path.join(self.tmp, "o")
        r = bench("--plugin-path", THROWING, "run", p, "--out", out)
        self.assertEqual(r.returncode, 1, r.stderr)
        recs = records(out)
        failed = {(x["task"], x["model"]): x["error"] for x in recs if x["metric"] == "run_error"}
        self.assertIn("deliberate failure while generating test data", failed[("throwing_task", "reference")])
        self.assertIn("deliberate failure in predict", failed[("txc", "throwing_model")])
        self.assertIn("law 1", failed[("txc", "impure_model")])
        done = [x for x in recs if x["task"] == "txc" and x["model"] == "reference" and x["metric"] == "run_wall_time"]
        self.assertEqual(done[0]["status"], "ok")
        # a run that threw ends as failed, so resume runs it again
        ends = {x["run_id"]: x["status"] for x in recs if x["metric"] == "run_wall_time"}
        self.assertEqual(sorted(ends.values()), ["failed"] * 5 + ["ok"])
        for x in recs:
            if x["metric"] == "run_error":
                self.assertEqual(ends[x["run_id"]], "failed", x)
        # each record names the plugin of its task and of its model
        plugins = {(x["task_plugin"], x["model_plugin"]) for x in recs if x["task"] == "txc" and x["model"] != "reference"}
        self.assertEqual(plugins, {("temporal", "throwing")})
        self.assertEqual({x["task_plugin"] for x in recs if x["task"] == "throwing_task"}, {"throwing"})
        r = bench("--plugin-path", THROWING, "run", p, "--out", out, "--resume")
        self.assertIn("6 runs: 0 ok, 5 failed, 1 skipped", r.stdout)

    def test_an_error_in_any_call_across_the_plugin_boundary_is_a_recorded_error_naming_plugin_and_call(self):
        # faulty_model, faulty_task and faulty_benchmark throw in the call their
        # throws_in names, or hand the host's callbacks what the host refuses.
        model_calls = ["create", "reset", "set_learning", "learn", "predict", "parameter_count", "report",
                       "diagnose", "keep_checkpoint", "restore_checkpoint", "machine_configuration", "host_report",
                       "host_diagnose"]
        p = self.write("s.toml", """
            name = "faults"
            [defaults]
            seeds = [1]
            batch_size = 16
            train_sequences = 16
            epochs = 2
            validation_sequences = 16
            test_sequences = 16
            diagnostic_sequences = 4
            [[run]]
            name = "model"
            task = "fsm"
            model = "faulty_model"
            [run.params]
            length = 32
            test_lengths = [32]
            [run.sweep.model_params]
            throws_in = %s
            [[run]]
            name = "task"
            task = "faulty_task"
            model = "reference"
            [run.params]
            length = 8
            [run.sweep.params]
            throws_in = ["create", "generate"]
            [[run]]
            name = "benchmark"
            task = "faulty_benchmark"
            [run.sweep.params]
            throws_in = ["create", "run", "host_record"]
            [[run]]
            name = "after"
            task = "fsm"
            model = "faulty_model"
            [run.params]
            length = 32
            test_lengths = [32]
        """ % json.dumps(model_calls))
        out = os.path.join(self.tmp, "o")
        r = bench("--plugin-path", THROWING, "run", p, "--out", out)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("19 runs: 1 ok, 18 failed", r.stdout)
        recs = records(out)

        def error(run, throws_in):
            table = "model" if run == "model" else "task"
            found = [x["error"] for x in recs if x["run"] == run and x["metric"] == "run_error"
                     and x["config"][table].get("throws_in") == throws_in]
            self.assertEqual(len(found), 1, (run, throws_in))
            return found[0]
        model = "model 'faulty_model' (plugin throwing) "
        for call in model_calls[:-2]:
            self.assertEqual(error("model", call), model + call + ": deliberate failure in " + call)
        self.assertEqual(error("model", "host_report"), model + "report: the host failed to take a figure: "
                         "'run_wall_time' names the driver's own record of a run's end")
        self.assertEqual(error("model", "host_diagnose"),
                         model + "diagnose: the host failed to take a series: a value without a name")
        task = "task 'faulty_task' (plugin throwing) "
        self.assertEqual(error("task", "create"), task + "create: deliberate failure in create")
        self.assertEqual(error("task", "generate"), task + "generate (split 'train', sequences 0..15, seed 1): "
                         "deliberate failure in generate")
        benchmark = "benchmark 'faulty_benchmark' (plugin throwing) "
        self.assertEqual(error("benchmark", "create"), benchmark + "create: deliberate failure in create")
        self.assertEqual(error("benchmark", "run"), benchmark + "run: deliberate failure in run")
        self.assertTrue(error("benchmark", "host_record").startswith(benchmark + "run: the host failed to take a record: "))
        # A failed parameter_count leaves no count; the one run without a fault
        # passed every call, the restored checkpoint included, and its figures.
        self.assertEqual([x["value"] for x in recs if x["metric"] == "parameter_count" and x["status"] == "ok"
                          and x["config"]["model"].get("throws_in") == "parameter_count"], [])
        after = {x["metric"]: x for x in recs if x["run"] == "after"}
        self.assertEqual(after["run_wall_time"]["status"], "ok")
        self.assertEqual(after["tested_epoch"]["value"], 1)
        self.assertEqual(after["parameter_count"]["value"], 1)
        self.assertIn("one_by_position", after)
        self.assertEqual(after["learn_calls"]["value"], 1)
        # a model on a machine states its configuration (§6.1) in every record
        self.assertEqual({json.dumps(x.get("machine")) for x in recs if x["run"] == "after"}, {'{"N": 8, "W": 64}'})

    def test_a_plugin_that_ends_its_process_fails_only_its_run(self):
        # Each run has a child process: a signal, abort() or exit() in a
        # plugin is recorded as the run's error, and the suite goes on.
        p = self.write("s.toml", """
            name = "crashing"
            [defaults]
            seeds = [1]
            test_sequences = 50
            train_sequences = 64
            [[run]]
            name = "crash"
            task = "txc"
            model = "crashing_model"
            [run.params]
            length = 8
            [run.sweep.model_params]
            how = ["segv", "abort", "exit"]
            [[run]]
            name = "after"
            task = "txc"
            model = "reference"
            [run.params]
            length = 8
        """)
        out = os.path.join(self.tmp, "o")
        r = bench("--plugin-path", THROWING, "run", p, "--out", out)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("4 runs: 1 ok, 3 failed", r.stdout)
        recs = records(out)  # every line parses: no record torn by a dying process
        errors = {x["config"]["model"]["how"]: x["error"] for x in recs if x["metric"] == "run_error"}
        self.assertIn("killed by signal %d" % signal.SIGSEGV, errors["segv"])
        self.assertIn("killed by signal %d" % signal.SIGABRT, errors["abort"])
        self.assertIn("exited with status 0 before it finished", errors["exit"])
        ends = [x for x in recs if x["metric"] == "run_wall_time"]
        self.assertEqual([(x["run"], x["status"]) for x in ends],
                         [("crash", "failed")] * 3 + [("after", "ok")])
        # The crashed runs wrote parameter_count before predict: their records
        # stay in results.jsonl but never reach a summary.
        self.assertTrue(any(x["model"] == "crashing_model" and x["metric"] == "parameter_count" for x in recs))
        m = json.loads(read(os.path.join(out, "metrics.json")))
        self.assertEqual({e["model"] for e in m["summary"]}, {"reference"})
        self.assertEqual(len(m["failures"]), 3)
        # resume runs the failed ones again, and only those
        r = bench("--plugin-path", THROWING, "run", p, "--out", out, "--resume")
        self.assertIn("4 runs: 0 ok, 3 failed, 1 skipped", r.stdout)

    def process_gone(self, pid_file, within=30.0):
        """True when the process whose pid the model wrote is gone (or a zombie) within `within` s
        (a generous wait: a busy machine may take its time to reap it, and waiting costs only on failure)."""
        with open(pid_file) as f:
            pid = int(f.read())
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            try:
                with open(f"/proc/{pid}/status") as f:
                    if any(l.startswith("State:") and "Z" in l for l in f):
                        return True
            except FileNotFoundError:
                return True
            time.sleep(0.1)
        return False

    def model_suite(self, how, then_reference=False, **params):
        """A suite of one crashing_model run on TXC (model parameters `how` and
        `params`), and with `then_reference` a reference run after it."""
        extra = "".join(f'{k} = "{v}"\n' for k, v in params.items())
        after = '[[run]]\ntask = "txc"\nmodel = "reference"\n[run.params]\nlength = 8\n' if then_reference else ""
        return self.write(f"{how}.toml", textwrap.dedent(f"""
            name = "{how}"
            [defaults]
            seeds = [1]
            test_sequences = 50
            train_sequences = 64
            [[run]]
            task = "txc"
            model = "crashing_model"
            [run.params]
            length = 8
            [run.model_params]
            how = "{how}"
        """) + extra + after)

    def test_processes_a_run_leaves_behind_neither_hold_up_the_suite_nor_outlive_it(self):
        pid_file = os.path.join(self.tmp, "left.pid")
        out = os.path.join(self.tmp, "o")
        start = time.monotonic()
        r = bench("--plugin-path", THROWING, "run", self.model_suite("leave", pid_file=pid_file), "--out", out,
                  "--run-timeout", "30")
        # A driver that waited for the leftover (it holds every descriptor) would
        # take at least the 60 s it sleeps: a bound no load reaches first, since
        # the run itself would have met its --run-timeout.
        self.assertLess(time.monotonic() - start, 60)
        self.assertEqual(r.returncode, 0, r.stderr)
        ends = [(x["metric"], x["status"]) for x in records(out) if x["metric"] in ("run_wall_time", "run_error")]
        self.assertEqual(ends, [("run_wall_time", "ok")])  # one end record, no timeout after it
        self.assertTrue(self.process_gone(pid_file))

    def test_run_timeout_kills_a_hanging_run_and_what_it_started(self):
        pid_file = os.path.join(self.tmp, "hang.pid")
        p = self.model_suite("hang", then_reference=True, pid_file=pid_file)
        out = os.path.join(self.tmp, "o")
        start = time.monotonic()
        r = bench("--plugin-path", THROWING, "run", p, "--out", out, "--run-timeout", "1.5")
        self.assertLess(time.monotonic() - start, 60)  # not waiting for the 60 s the hang's child sleeps
        self.assertEqual(r.returncode, 1, r.stderr)
        recs = records(out)
        errors = [x["error"] for x in recs if x["metric"] == "run_error"]
        self.assertEqual(len(errors), 1)
        self.assertIn("exceeded the time limit of 1.5 s (--run-timeout)", errors[0])
        self.assertIn(("reference", "ok"), [(x["model"], x["status"]) for x in recs if x["metric"] == "run_wall_time"])
        self.assertTrue(self.process_gone(pid_file))
        for bad in (["--run-timeout", "0"], ["--run-timeout", "x"], ["--run-timeout", "1", "--in-process"]):
            r = bench("--plugin-path", THROWING, "run", p, "--out", os.path.join(self.tmp, "b"), *bad)
            self.assertEqual(r.returncode, 2, bad)

    def test_interrupting_the_driver_ends_the_run_in_progress(self):
        pid_file = os.path.join(self.tmp, "hang.pid")
        out = os.path.join(self.tmp, "o")
        e = dict(os.environ, BEM_PLUGIN_PATH="")
        p = subprocess.Popen([BENCH, "--plugin-path", THROWING, "run", self.model_suite("hang", pid_file=pid_file),
                              "--out", out], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=e)
        deadline = time.monotonic() + 30
        while not os.path.exists(pid_file) or not read(pid_file).strip():
            self.assertLess(time.monotonic(), deadline, "the run never started")
            time.sleep(0.05)
        p.send_signal(signal.SIGINT)
        p.communicate(timeout=30)
        self.assertEqual(p.returncode, -signal.SIGINT)
        self.assertTrue(self.process_gone(pid_file))
        before = read(os.path.join(out, "results.jsonl"))
        time.sleep(1)
        self.assertEqual(read(os.path.join(out, "results.jsonl")), before)  # nothing writes on
        self.assertNotIn("run_wall_time", before)

    def test_a_record_torn_by_a_dying_process_is_cut(self):
        out = os.path.join(self.tmp, "o")
        os.makedirs(out)
        torn = os.path.join(out, "results.jsonl")
        r = bench("--plugin-path", THROWING, "run", self.model_suite("torn", torn_file=torn), "--out", out)
        self.assertEqual(r.returncode, 1, r.stderr)
        recs = records(out)  # json.loads of every line: the half record is gone
        self.assertEqual([x["metric"] for x in recs[-2:]], ["run_error", "run_wall_time"])
        self.assertIn("killed by signal %d" % signal.SIGSEGV, recs[-2]["error"])

    def test_in_process_runs_give_the_same_records(self):
        suite = self.write("s.toml", SMALL_SUITE)
        forked, here = os.path.join(self.tmp, "forked"), os.path.join(self.tmp, "here")
        self.assertEqual(bench("run", suite, "--out", forked).returncode, 0)
        r = bench("run", suite, "--out", here, "--in-process")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(stable(records(forked)), stable(records(here)))

    def test_batches_and_epochs_do_not_change_what_is_measured(self):
        # majority_class counts labels: two epochs of 64 fresh sequences train
        # it as one epoch of 128 does, and a test split scores the same
        # sequences in batches of 16 as in one batch.
        def run(name, batch_size, train_sequences, epochs):
            p = self.write(f"{name}.toml", f"""
                name = "{name}"
                [defaults]
                seeds = [1]
                batch_size = {batch_size}
                train_sequences = {train_sequences}
                epochs = {epochs}
                test_sequences = 100
                [[run]]
                tasks = ["rtc", "parity"]
                model = "majority_class"
            """)
            out = os.path.join(self.tmp, name)
            r = bench("run", p, "--out", out)
            self.assertEqual(r.returncode, 0, r.stderr)
            return {(x["task"], x["split"], x["metric"], json.dumps(x.get("breakdown"))): x for x in records(out)
                    if not x["timing"] and (x["split"] or "").startswith("test")}
        small, whole = run("small", 16, 64, 2), run("whole", 128, 128, 1)
        self.assertEqual(small.keys(), whole.keys())
        self.assertIn(("rtc", "test/T=64", "cross_entropy", "null"), small)
        for k, x in small.items():
            self.assertEqual(x["n"], whole[k]["n"], k)
            if x["value"] is None:
                self.assertIsNone(whole[k]["value"], k)
            else:
                self.assertAlmostEqual(x["value"], whole[k]["value"], delta=1e-9 * abs(x["value"]), msg=k)

    def test_the_best_validation_epoch_is_tested(self):
        # first_epoch_best_model is right (answers 1) only after its first
        # epoch: early stopping ends at epoch 3, and the test splits see the
        # first epoch's state unless restore_best = false.
        def run(restore):
            p = self.write(f"s{restore}.toml", f"""
                name = "restore"
                [defaults]
                seeds = [1]
                batch_size = 16
                train_sequences = 16
                epochs = 6
                validation_sequences = 64
                patience = 2
                test_sequences = 64
                restore_best = {restore}
                [[run]]
                task = "fsm"
                model = "first_epoch_best_model"
                [run.params]
                length = 32
                test_lengths = [32]
            """)
            out = os.path.join(self.tmp, f"o{restore}")
            r = bench("--plugin-path", THROWING, "run", p, "--out", out)
            self.assertEqual(r.returncode, 0, r.stderr)
            loss = [x for x in records(out) if x["metric"] == "final_train_loss"]
            self.assertEqual([x["unit"] for x in loss], ["nats per scored position"])
            return {(x["split"], x["metric"]): x["value"] for x in records(out)}
        kept, last = run("true"), run("false")
        for m in (kept, last):
            self.assertEqual(m[("train", "epochs_run")], 3)
            # the last epoch's loss: its one batch's, the model's third learn()
            self.assertEqual(m[("train", "final_train_loss")], 3)
            self.assertEqual(m[("train", "epochs_to_converge")], 1)
        self.assertEqual(kept[("train", "tested_epoch")], 1)
        self.assertEqual(last[("train", "tested_epoch")], 3)
        acc = [k for k in kept if k[1] == "per_position_accuracy" and k[0].startswith("test")]
        self.assertTrue(acc)
        for k in acc:  # FSM is mostly 1s after the third one: "always 1" wins
            self.assertGreater(kept[k], 0.6)
            self.assertLess(last[k], 0.4)
        bad = self.write("bad.toml", SMALL_SUITE.replace("[defaults]", "[defaults]\nrestore_best = 1", 1))
        r = bench("run", bad, "--out", os.path.join(self.tmp, "b"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("'restore_best' must be true or false", r.stderr)

    def test_microbenchmarks_run_as_tasks(self):
        p = self.write("s.toml", """
            name = "micro"
            seeds = [1]
            [[run]]
            tasks = ["counting_benchmark", "throwing_benchmark"]
            [run.params]
            [[run]]
            name = "with-model"
            task = "counting_benchmark"
            model = "majority_class"
        """.replace("seeds = [1]\n", ""))
        out = os.path.join(self.tmp, "o")
        r = bench("--plugin-path", THROWING, "run", p, "--out", out)
        self.assertEqual(r.returncode, 1, r.stderr)
        recs = records(out)
        sums = [x for x in recs if x["metric"] == "checksum"]
        self.assertEqual([x["split"] for x in sums], ["n=10", "n=100"])
        self.assertEqual(sums[0]["condition"], {"n": 10})
        self.assertEqual(sums[0]["model"], "none")
        self.assertEqual(sums[0]["config"]["task"], {"sizes": [10, 100]})
        # A benchmark reads no sequence protocol: its configuration has none, failed or not.
        self.assertEqual({tuple(sorted(x["config"])) for x in recs}, {("model", "task")})
        self.assertTrue(all(x["timing"] for x in recs if x["metric"] == "fake_seconds"))
        errors = {x["run"]: x["error"] for x in recs if x["metric"] == "run_error"}
        self.assertIn("deliberate failure in a microbenchmark", errors["run1"])
        self.assertIn("takes no model", errors["with-model"])
        listing = bench("--plugin-path", THROWING, "list").stdout
        self.assertRegex(listing, r"Microbenchmarks \(no model\):\n  counting_benchmark +v1")
        bad = self.write("bad.toml", """
            name = "micro"
            [[run]]
            task = "counting_benchmark"
            [run.params]
            sizes = [0]
        """)
        r = bench("--plugin-path", THROWING, "run", bad, "--out", out)
        self.assertEqual(r.returncode, 2)
        self.assertIn("bad.toml:6:9: benchmark 'counting_benchmark': parameter 'sizes': must be positive", r.stderr)

    def test_microbenchmarks_at_the_spec_minimum_and_per_seed(self):
        p = self.write("s.toml", """
            name = "spec"
            [[run]]
            name = "bitalu"
            task = "bitalu_throughput"
            seeds = [1, 2]
            [run.params]
            W = [64, 512]
            ops = ["xor", "popcount", "rotate_left"]
            L_loop = 10000000
            [[run]]
            name = "expert"
            task = "expert_eval"
            [run.params]
            G = [64]
            W = [64]
            representations = ["gate_list"]
            L_loop = 1000000
            [[run]]
            name = "full"
            task = "rtc"
            model = "reference"
            test_sequences = 10000
            [run.params]
            length = 8
        """)
        out = os.path.join(self.tmp, "o")
        r = bench("run", p, "--out", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        recs = records(out)
        # L_loop at the spec's minimum is a conforming run; so are 10^4 test sequences
        self.assertEqual([x["metric"] for x in recs if x["metric"].endswith("_below_spec")], [])
        self.assertTrue(all("notes" not in x for x in recs))
        sums = {}
        for x in recs:
            if x["metric"] == "checksum":
                sums.setdefault(x["task"], {})[(x["seed"], x["split"])] = int(x["value"])
        bit = sums["bitalu_throughput"]
        self.assertEqual(len(bit), 12)
        # each seed draws its own operands
        for split in {s for _, s in bit}:
            self.assertNotEqual(bit[(1, split)], bit[(2, split)], split)
        # "low 48 bits": a 48-bit checksum exceeds 32 bits but for one chance in 65536
        for task, by in sums.items():
            self.assertTrue(all(0 <= v < 2 ** 48 for v in by.values()), task)
            self.assertTrue(any(v >= 2 ** 32 for v in by.values()), (task, by))

    def test_trained_models_record_diagnostics_by_position(self):
        p = self.write("s.toml", """
            name = "diag"
            [defaults]
            seeds = [1]
            batch_size = 16
            train_sequences = 32
            test_sequences = 32
            diagnostic_sequences = 12
            [[run]]
            name = "nn"
            task = "txc"
            models = ["mlp", "reference"]
            [run.model_params]
            [run.params]
            length = 8
        """)
        out = os.path.join(self.tmp, "o")
        r = bench("run", p, "--out", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        recs = records(out)
        diag = {(x["model"], x["metric"]): x for x in recs if x["metric"].endswith("_by_position")}
        for metric in ("grad_norm_by_position", "grad_norm_full_loss_by_position", "probe_loss_by_position",
                       "probe_r2_by_position"):
            rec = diag[("mlp", metric)]
            self.assertEqual(len(rec["series"]), 8, metric)
            self.assertEqual(rec["series_axis"], "position")
            self.assertEqual((rec["n"], rec["n_unit"]), (12, "sequences"))
            self.assertEqual(rec["split"], "test/T=8")  # the first test split
        # The MLP has no recurrence: only the last position gets a gradient.
        grad = diag[("mlp", "grad_norm_by_position")]["series"]
        self.assertEqual(grad[:7], [0.0] * 7)
        self.assertGreater(grad[7], 0.0)
        # Under the mean loss every position gets its own output's gradient.
        self.assertTrue(all(g > 0 for g in diag[("mlp", "grad_norm_full_loss_by_position")]["series"]))
        # A model without diagnostics records none.
        self.assertNotIn(("reference", "grad_norm_by_position"), diag)
        self.assertIn(("reference", "accuracy_by_position"), diag)
        html = read(os.path.join(out, "report.html"))
        self.assertIn("gradient reaching position t", html)
        self.assertIn("gradient of the mean loss at position t", html)
        self.assertIn("linear probe of the hidden state", html)

    def test_broken_plugins_give_distinct_errors(self):
        d = os.path.join(self.tmp, "plugins")
        os.makedirs(d)
        with open(os.path.join(d, "garbage.so"), "w") as f:
            f.write("this is not an ELF file")
        for b in BAD:
            shutil.copy(b, d)
        r = bench("--plugin-path", d, "list")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("garbage.so: cannot load", r.stdout)
        self.assertIn(": no entry point: the module does not export bem_plugin_entry_v2", r.stdout)
        self.assertIn(": ABI mismatch: plugin ABI version 999", r.stdout)
        self.assertIn("bem_bad_abi1.so: ABI mismatch: the module exports bem_plugin_entry_v1: it was built for "
                      "plugin ABI 1, and this host speaks ABI 2; rebuild it against this bem", r.stdout)
        for t in FAMILIES:  # the good plugins still load
            self.assertIn("  " + t + " ", r.stdout)
        # A run that needs a missing task names the failed plugins; the others still run.
        p = self.write("s.toml", """
            name = "b"
            [defaults]
            test_sequences = 20
            [[run]]
            tasks = ["broken_task", "fsm"]
            model = "reference"
        """)
        out = os.path.join(self.tmp, "o")
        r = bench("--plugin-path", d, "run", p, "--out", out)
        self.assertEqual(r.returncode, 1)
        errors = [x["error"] for x in records(out) if x["metric"] == "run_error"]
        self.assertEqual(len(errors), 1)
        self.assertIn("plugins that failed to load", errors[0])
        self.assertIn("ABI mismatch", errors[0])
        # BEM_PLUGIN_PATH is searched too.
        r = bench("list", env={"BEM_PLUGIN_PATH": d})
        self.assertIn("ABI mismatch", r.stdout)

    def test_plugin_search_path_order(self):
        # --plugin-path first, then BEM_PLUGIN_PATH, then the install folder:
        # a name found twice is kept from the earlier entry.
        first, second = os.path.join(self.tmp, "first"), os.path.join(self.tmp, "second")
        for d in (first, second):
            os.makedirs(d)
            shutil.copy(THROWING, d)
        r = bench("--plugin-path", first, "list", env={"BEM_PLUGIN_PATH": second})
        self.assertEqual(r.returncode, 0, r.stderr)
        path = [l for l in r.stdout.splitlines() if l.startswith("Search path:")]
        self.assertEqual(path[0].split()[2:4], [first, second], r.stdout)
        self.assertEqual(len(path[0].split()), 5, r.stdout)  # and the install folder last
        self.assertIn("task 'throwing_task' from " + os.path.join(second, os.path.basename(THROWING)), r.stdout)
        self.assertNotIn(first + "/", "\n".join(l for l in r.stdout.splitlines() if l.startswith("Shadowed")))

    def test_custom_plugin_example_runs(self):
        r = bench("--plugin-path", CUSTOM, "list")
        self.assertEqual(r.returncode, 0, r.stderr)
        name = [l.split()[0] for l in r.stdout.splitlines() if "bem_custom_example" in l or " custom " in l]
        out = os.path.join(self.tmp, "o")
        listing = r.stdout.split("Microbenchmarks")[0]
        custom = [l.split()[0] for l in listing.splitlines() if l.startswith("  ") and " plugin " in l
                  and l.split()[0] not in FAMILIES]
        self.assertEqual(len(custom), 1, listing)
        p = self.write("s.toml", """
            name = "custom"
            [defaults]
            test_sequences = 100
            [[run]]
            task = "%s"
            models = ["reference", "majority_class"]
        """ % custom[0])
        r = bench("--plugin-path", CUSTOM, "run", p, "--out", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        accs = [x["value"] for x in records(out) if x["model"] == "reference"
                and x["metric"] in ("accuracy", "per_position_accuracy") and "breakdown" not in x]
        self.assertTrue(accs and all(a == 1.0 for a in accs))

    def test_suite_guide_example_is_verbatim_and_runs(self):
        example = read(os.path.join(SOURCE, "configs", "example.toml"))
        guide = read(os.path.join(SOURCE, "docs", "suites-and-results.md"))
        block = guide.split("```toml\n", 1)[1].split("```", 1)[0]
        self.assertEqual(block, example)
        out = os.path.join(self.tmp, "example")
        r = bench("run", os.path.join(SOURCE, "configs", "example.toml"), "--out", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        recs = records(out)
        self.assertEqual(len({x["run_id"] for x in recs}), 3 * 2 + 3 * 3)
        parity = [x for x in recs if x["task"] == "parity" and x["model"] == "reference" and x["metric"] == "accuracy"]
        self.assertEqual({x["split"] for x in parity}, {"test/T=16", "test/T=64", "test/T=256"})
        self.assertTrue(all(x["value"] == 1.0 and x["n"] == 2000 for x in parity))

    def test_every_shipped_suite_is_valid(self):
        # Parameters are checked against the plugins before anything runs, so
        # selecting no run checks a whole suite without training anything.
        names = sorted(n for n in os.listdir(os.path.join(SOURCE, "configs")) if n.endswith(".toml"))
        self.assertIn("temporal-grid.toml", names)
        for name in names:
            out = os.path.join(self.tmp, "valid-" + name)
            r = bench("run", os.path.join(SOURCE, "configs", name), "--only", "no-such-run", "--out", out)
            self.assertEqual(r.returncode, 0, name + ": " + r.stderr)
        # and the check is live: a misspelt task parameter stops the suite
        bad = self.write("bad.toml", read(os.path.join(SOURCE, "configs", "temporal-grid.toml"))
                         .replace("length = 1024", "lenght = 1024", 1))
        r = bench("run", bad, "--only", "no-such-run", "--out", os.path.join(self.tmp, "valid-bad"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("parameter 'lenght'", r.stderr)

    # --- resume, shards, selection -----------------------------------------
    def test_resume_after_a_crash_loses_nothing(self):
        suite = self.write("s.toml", SMALL_SUITE)
        full, part = os.path.join(self.tmp, "full"), os.path.join(self.tmp, "part")
        self.assertEqual(bench("run", suite, "--out", full).returncode, 0)
        self.assertEqual(bench("run", suite, "--out", part).returncode, 0)
        lines = read(os.path.join(part, "results.jsonl")).splitlines(True)
        # Simulate a crash in the middle of the fifth run: keep a torn half line.
        cut = [i for i, l in enumerate(lines) if '"run_wall_time"' in l][3] + 5
        with open(os.path.join(part, "results.jsonl"), "w") as f:
            f.writelines(lines[:cut])
            f.write(lines[cut][: len(lines[cut]) // 2])
        r = bench("run", suite, "--out", part, "--resume")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("4 skipped", r.stdout)
        key = lambda x: (x["run_id"], x["split"] or "", x["metric"], json.dumps(x.get("breakdown")))
        self.assertEqual(sorted(stable(records(full)), key=key), sorted(stable(records(part)), key=key))

    def kill_at(self, suite, out, point, *args):
        """Runs the suite into `out`; BEM_BENCH_TEST_KILL makes the driver and
        its run die by SIGKILL at `point` (results_dir.hpp)."""
        r = bench("run", suite, "--out", out, *args, env={"BEM_BENCH_TEST_KILL": point})
        self.assertEqual(r.returncode, -signal.SIGKILL, (point, r.stderr))
        return r

    def test_sigkill_anywhere_then_resume_gives_the_uninterrupted_results(self):
        suite = self.write("s.toml", SMALL_SUITE)
        full, out = os.path.join(self.tmp, "full"), os.path.join(self.tmp, "o")
        self.assertEqual(bench("run", suite, "--out", full).returncode, 0)
        whole = records(full)
        ends = [i for i, x in enumerate(whole) if x["metric"] == "run_wall_time"]
        results = os.path.join(out, "results.jsonl")
        # During the second run's measurements: its first records are kept, unfinished.
        self.kill_at(suite, out, "record:%d" % (ends[0] + 4))
        self.assertEqual(stable(records(out)), stable(whole[: ends[0] + 3]))
        # Resumed (the killed run left no lock behind), then killed halfway
        # through a record of the fourth run: a torn last line.
        self.kill_at(suite, out, "torn-record:%d" % (ends[2] - ends[0] + 3), "--resume")
        text = read(results)
        self.assertFalse(text.endswith("\n"))
        with self.assertRaises(json.JSONDecodeError):
            json.loads(text.splitlines()[-1])
        # Every run finished, then killed halfway through writing metrics.json:
        # there is none yet, only a hidden half-written temporary file.
        r = self.kill_at(suite, out, "file:metrics.json", "--resume")
        self.assertIn("dropped a torn last line", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(out, "metrics.json")))
        self.assertTrue([n for n in os.listdir(out) if n.startswith(".metrics.json.")])
        self.assertEqual(stable(records(out)), stable(whole))  # nothing lost, nothing twice
        r = bench("run", suite, "--out", out, "--resume")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("8 runs: 0 ok, 0 failed, 8 skipped", r.stdout)

        def comparable(d):
            m = json.loads(read(os.path.join(d, "metrics.json")))
            for k in ("date", "command_line", "hardware_calibration"):
                m["context"].pop(k)
            m["results"] = stable(m["results"])
            m["summary"] = stable(m["summary"])
            return m
        self.assertEqual(comparable(out), comparable(full))
        # A kill while metrics.json or report.html is replaced leaves the
        # complete earlier one (a resume rewrites both: its context has its date).
        for name in ("metrics.json", "report.html"):
            before = read(os.path.join(out, name))
            self.kill_at(suite, out, "file:" + name, "--resume")
            self.assertEqual(read(os.path.join(out, name)), before)
            json.loads(read(os.path.join(out, "metrics.json")))
        # The resume's own rewrite of results.jsonl, killed halfway.
        self.kill_at(suite, out, "file:results.jsonl", "--resume")
        self.assertEqual(stable(records(out)), stable(whole))

    def test_a_second_run_on_a_directory_in_use_is_refused(self):
        pid_file = os.path.join(self.tmp, "hang.pid")
        out = os.path.join(self.tmp, "o")
        suite = self.model_suite("hang", then_reference=True, pid_file=pid_file)
        e = dict(os.environ, BEM_PLUGIN_PATH="")
        first = subprocess.Popen([BENCH, "--plugin-path", THROWING, "run", suite, "--out", out],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=e)
        try:
            deadline = time.monotonic() + 30
            while not os.path.exists(pid_file) or not read(pid_file).strip():
                self.assertLess(time.monotonic(), deadline, "the run never started")
                time.sleep(0.05)
            for extra in ([], ["--resume"]):
                r = bench("--plugin-path", THROWING, "run", suite, "--out", out, *extra)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn(f"{out} is being written by another bem-bench run (pid {first.pid}, holding "
                              f"{out}/.bem-bench.lock)", r.stderr)
            first.kill()  # SIGKILL: the lock ends with its holder
            first.wait(timeout=30)
            # ... though the process the plugin forked (holding the driver's
            # descriptors) outlives it, as nothing can end it after a SIGKILL.
            r = bench("--plugin-path", THROWING, "run", suite, "--out", out, "--resume", "--only", "*/txc/reference")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("1 runs: 1 ok", r.stdout)
        finally:
            if first.poll() is None:
                first.kill()
                first.wait()
            try:
                os.kill(int(read(pid_file)), signal.SIGKILL)
            except (OSError, ValueError):
                pass

    def test_shards_partition_the_suite_and_report_merges_them(self):
        suite = self.write("s.toml", SMALL_SUITE)
        ids = []
        dirs = []
        for i in range(3):
            d = os.path.join(self.tmp, "shard%d" % i)
            r = bench("run", suite, "--out", d, "--shard", "%d/3" % i)
            self.assertEqual(r.returncode, 0, r.stderr)
            ids.append({x["run_id"] for x in records(d)})
            dirs.append(d)
        self.assertEqual(sum(len(s) for s in ids), 8)
        self.assertEqual(len(set().union(*ids)), 8)
        merged = os.path.join(self.tmp, "merged")
        r = bench("report", *dirs, "--out", merged)
        self.assertEqual(r.returncode, 0, r.stderr)
        m = json.loads(read(os.path.join(merged, "metrics.json")))
        self.assertEqual(len({x["run_id"] for x in m["results"]}), 8)
        # the merged summaries are the single run's, to the bit
        whole = os.path.join(self.tmp, "whole")
        self.assertEqual(bench("run", suite, "--out", whole).returncode, 0)
        single = json.loads(read(os.path.join(whole, "metrics.json")))
        key = lambda e: json.dumps({k: v for k, v in e.items() if k not in ("mean", "stddev", "ci", "series")
                                    or not e["timing"]}, sort_keys=True)
        self.assertEqual(sorted(map(key, m["summary"])), sorted(map(key, single["summary"])))
        # a shard given twice is counted once
        r = bench("report", dirs[0], *dirs, "--out", os.path.join(self.tmp, "twice"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("left out", r.stderr)
        twice = json.loads(read(os.path.join(self.tmp, "twice", "metrics.json")))
        self.assertEqual(sorted(map(key, twice["summary"])), sorted(map(key, m["summary"])))
        self.assertEqual(len(twice["results"]), len(m["results"]))

    def test_an_interrupted_run_is_reported_and_left_out_of_the_summaries(self):
        suite = self.write("s.toml", SMALL_SUITE)
        out = os.path.join(self.tmp, "o")
        self.assertEqual(bench("run", suite, "--out", out).returncode, 0)
        lines = read(os.path.join(out, "results.jsonl")).splitlines(True)
        ends = [i for i, l in enumerate(lines) if '"run_wall_time"' in l]
        cut = ends[-1]  # the last run loses its end record: it was interrupted
        last_id = json.loads(lines[cut])["run_id"]
        with open(os.path.join(out, "results.jsonl"), "w") as f:
            f.writelines(lines[:cut])
        r = bench("report", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        m = json.loads(read(os.path.join(out, "metrics.json")))
        self.assertEqual([f["run_id"] for f in m["failures"]], [last_id])
        self.assertIn("unfinished", m["failures"][0]["error"])
        last = json.loads(lines[cut])
        for e in m["summary"]:
            if e["task"] == last["task"] and e["model"] == last["model"]:
                self.assertNotIn(last["seed"], e["seeds"])

    def test_records_not_as_bem_bench_writes_them_are_errors_naming_the_record(self):
        # Found by tests/fuzz (fuzz_records): report read fields of records
        # and of context.json with operator[] of a const JSON object, undefined
        # (an assertion here) when the field is missing; a number beyond
        # double escaped read_jsonl as a bare out_of_range. Each is now an
        # error naming the file, the record and the field, exit 2.
        suite = self.write("s.toml", SMALL_SUITE)
        out = os.path.join(self.tmp, "o")
        self.assertEqual(bench("run", suite, "--out", out).returncode, 0)
        results, context = os.path.join(out, "results.jsonl"), os.path.join(out, "context.json")
        lines, context_text = read(results).splitlines(True), read(context)

        def with_first(record):
            with open(results, "w") as f:
                f.writelines([json.dumps(record) + "\n"] + lines[1:])

        first = json.loads(lines[0])
        for field in ("run_id", "seed", "config", "ci", "split", "condition", "value", "error"):
            with_first({k: v for k, v in first.items() if k != field})
            for command in (("report", out), ("run", suite, "--out", out, "--resume")):
                r = bench(*command)
                self.assertEqual(r.returncode, 2, (field, command, r.stderr))
                self.assertIn(f"results.jsonl: record 1: field '{field}' missing", r.stderr)
        with_first(dict(first, ci={"high": 1}))
        r = bench("report", out)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("record 1: field 'ci' is not null or an object", r.stderr)
        with_first(dict(first, seed=-1))
        self.assertIn("field 'seed' is not a non-negative integer", bench("report", out).stderr)
        with_first("a string")
        self.assertIn("results.jsonl: record 1 is not a JSON object", bench("report", out).stderr)
        with open(results, "w") as f:
            f.writelines(lines[:1] + ['{"value": 0.294E5690924971961}\n'] + lines[1:])
        r = bench("report", out)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("results.jsonl:2: malformed record", r.stderr)

        with open(results, "w") as f:
            f.writelines(lines)
        write_json(context, {"date": "today"})
        r = bench("report", out)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("context.json: not a context.json written by bem-bench", r.stderr)
        with open(context, "w") as f:
            f.write(context_text)
        self.assertEqual(bench("report", out).returncode, 0)

    def test_compare_reads_summaries_without_a_split_or_model_configuration(self):
        # Fixed beside tests/fuzz's findings in report (same cause): compare
        # read "split" and config["model"] of each summary with operator[] of
        # a const object, undefined for a missing key (a release build
        # happened to survive it; an assertion build aborted).
        base = os.path.join(self.tmp, "b.json")
        write_json(base, {"summary": [{"task": "t", "model": "m", "config": {}, "metric": "accuracy",
                                       "better": "higher", "mean": 0.5}]})
        r = bench("compare", base, base)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertRegex(r.stdout, r"ok +t / m / - / accuracy")
        write_json(base, {"summary": [{"task": 1, "config": {}, "better": "higher", "mean": 0.5}]})
        r = bench("compare", base, base)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("b.json: not metrics.json files bem-bench can compare", r.stderr)

    def test_only_selects_runs(self):
        suite = self.write("s.toml", SMALL_SUITE)
        out = os.path.join(self.tmp, "o")
        r = bench("run", suite, "--out", out, "--only", "*/fsm/reference")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual({(x["task"], x["model"]) for x in records(out)}, {("fsm", "reference")})

    # --- the regression gate -----------------------------------------------
    def test_compare_gate(self):
        suite = self.write("s.toml", SMALL_SUITE)
        out = os.path.join(self.tmp, "o")
        self.assertEqual(bench("run", suite, "--out", out).returncode, 0)
        base = os.path.join(out, "metrics.json")
        r = bench("compare", base, base)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertRegex(r.stdout, r"\n\d+ passed, 0 failed")
        m = json.loads(read(base))
        for e in m["summary"]:
            if e["model"] == "reference" and e["metric"] == "per_position_accuracy" and e["task"] == "fsm":
                e["mean"] = 0.9  # a 10% drop
        worse = os.path.join(self.tmp, "worse.json")
        write_json(worse, m)
        r = bench("compare", base, worse)
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertRegex(r.stdout, r"FAIL +fsm / reference / test/T=32 / per_position_accuracy")
        self.assertEqual(bench("compare", base, worse, "--max-drop", "0.2").returncode, 0)
        m["summary"] = [e for e in m["summary"] if e["task"] != "rtc"]
        write_json(worse, m)
        r = bench("compare", base, worse)
        self.assertEqual(r.returncode, 1)
        self.assertIn("MISSING", r.stdout)
        r = bench("compare", base, os.path.join(self.tmp, "nope.json"))
        self.assertEqual(r.returncode, 2)
        empty = os.path.join(self.tmp, "empty.json")
        write_json(empty, {})
        r = bench("compare", empty, base)
        self.assertEqual(r.returncode, 2)
        self.assertIn("empty.json: not a metrics.json", r.stderr)

    def test_compare_gate_limits(self):
        def metrics(mean):
            return {"summary": [{"task": "t", "task_version": "1", "model": "m", "model_version": "1",
                                 "config": {"task": {}, "model": {}}, "split": "s", "metric": "accuracy",
                                 "better": "higher", "timing": False, "mean": mean}]}
        def gate(b, c):
            base, cur = os.path.join(self.tmp, "b.json"), os.path.join(self.tmp, "c.json")
            write_json(base, metrics(b))
            write_json(cur, metrics(c))
            return bench("compare", base, cur)
        # a drop of exactly the limit passes (1 - 0.95 is 0.050000000000000044 in binary)
        for b, c in ((1.0, 0.95), (0.5, 0.475), (0.8, 0.76)):
            r = gate(b, c)
            self.assertEqual(r.returncode, 0, r.stdout)
            self.assertIn("-5.0%", r.stdout)
        self.assertEqual(gate(1.0, 0.9499).returncode, 1)
        r = gate(0.0, -0.5)  # a zero baseline: the change is absolute
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("-0.500 abs", r.stdout)

    def test_compare_gate_gates_only_higher_is_better_values(self):
        def entry(metric, mean, better="higher", timing=False):
            return {"task": "t", "task_version": "1", "model": "m", "model_version": "1",
                    "config": {"task": {}, "model": {}}, "split": "s", "metric": metric,
                    "better": better, "timing": timing, "mean": mean}
        def gate(b, c, *options):
            base, cur = os.path.join(self.tmp, "b.json"), os.path.join(self.tmp, "c.json")
            write_json(base, {"summary": [b]})
            write_json(cur, {"summary": [c]})
            return bench("compare", base, cur, *options)
        # a lower-is-better metric is not gated, whichever way it moves
        r = gate(entry("loss", 1.0, "lower"), entry("loss", 0.5, "lower"))
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("\n0 passed, 0 failed", r.stdout)
        # a timing is gated only when asked
        b, c = entry("tokens_per_second", 100.0, timing=True), entry("tokens_per_second", 50.0, timing=True)
        r = gate(b, c)
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("\n0 passed, 0 failed", r.stdout)
        r = gate(b, c, "--include-timing")
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertRegex(r.stdout, r"FAIL +t / m / s / tokens_per_second")
        # a negative baseline: the limit is relative to its magnitude
        r = gate(entry("log_likelihood", -1.0), entry("log_likelihood", -1.04))
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertEqual(gate(entry("log_likelihood", -1.0), entry("log_likelihood", -1.06)).returncode, 1)
        # a current mean without a value (every seed gave NaN) fails the gate as missing
        r = gate(entry("accuracy", 0.9), entry("accuracy", None))
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertRegex(r.stdout, r"MISSING +t / m / s / accuracy")
        # --max-drop 0: no drop at all
        r = gate(entry("accuracy", 0.9), entry("accuracy", 0.9), "--max-drop", "0")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(gate(entry("accuracy", 0.9), entry("accuracy", 0.89), "--max-drop", "0").returncode, 1)

    def test_compare_refuses_results_on_different_data(self):
        # A task configuration that names its data (benchmark_version, dataset_sha256: the rust_cargo suite's)
        # pairs only with results on the same data; otherwise the gate refuses, exit 2.
        def metrics(model, sha, mean):
            return {"summary": [{"task": "suite", "task_version": "1", "model": model, "model_version": "1",
                                 "config": {"task": {"samples": 1, "benchmark_version": "v1", "dataset_sha256": sha},
                                            "model": {}},
                                 "split": "all", "metric": "pass@1", "better": "higher", "timing": False,
                                 "mean": mean}]}
        base, same, other = (os.path.join(self.tmp, n + ".json") for n in ("base", "same", "other"))
        write_json(base, metrics("old", "aaa", 0.5))
        write_json(same, metrics("new", "aaa", 0.6))
        write_json(other, metrics("new", "bbb", 0.6))
        r = bench("compare", base, same, "--across-models")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertRegex(r.stdout, r"ok +suite / old / all / pass@1")
        r = bench("compare", base, other, "--across-models")
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("ran on different data", r.stderr)
        self.assertIn("dataset_sha256=bbb", r.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)

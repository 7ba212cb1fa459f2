"""The near-duplicate check (plugins/rust_cargo/tools/near_duplicates.py):
over benchmarks_v1 it finds exactly the five pairs docs/rust-benchmarks.md
lists (each the same reference code under other names), a copy of a task with
its names, a condition and its comments changed and a method added is found,
and a path without tasks is a usage error."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.environ.get("BEM_SOURCE_ROOT") or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, "plugins", "rust_cargo", "tools")
DATASET = os.path.join(ROOT, "plugins", "rust_cargo", "benchmarks_v1")
sys.path.insert(0, TOOLS)
import check_tasks  # noqa: E402
import near_duplicates  # noqa: E402

V1_PAIRS = [
    ("bugs/bug_wrap_exact_width", "functions/fn_wrap_terminal_text"),
    ("completion/cmp_moving_average", "stdlib/std_sensor_moving_average"),
    ("completion/cmp_top_words", "stdlib/std_top_words_report"),
    ("fim/fim_sliding_window_limiter", "stdlib/std_sliding_window_rate_limiter"),
    ("bugs/bug_job_queue_fifo_ties", "completion/cmp_job_queue_priority"),
]


def run(*args):
    return subprocess.run([sys.executable, os.path.join(TOOLS, "near_duplicates.py"), *args], capture_output=True,
                          text=True, timeout=120)


class NearDuplicates(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="bem-near-duplicates-")
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def test_v1_has_the_five_documented_pairs(self):
        pairs = near_duplicates.near_duplicates(check_tasks.task_dirs(DATASET))
        self.assertEqual(sorted((near_duplicates.name(a), near_duplicates.name(b)) for _, a, b in pairs), sorted(V1_PAIRS))
        self.assertEqual([round(s, 2) for s, _, _ in pairs], [1.0, 1.0, 0.82, 0.7, 0.7])
        r = run(DATASET)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("1.00  completion/cmp_moving_average  stdlib/std_sensor_moving_average\n", r.stdout)
        self.assertIn("5 pairs of 217 tasks", r.stdout)

    def planted(self):
        """Two v1 tasks far from every other, and a near-duplicate of the first under another name."""
        for task in ("fim/fim_ledger_transfer", "completion/cmp_backoff_schedule"):
            shutil.copytree(os.path.join(DATASET, task), os.path.join(self.tmp, task))
        original = os.path.join(self.tmp, "fim", "fim_ledger_transfer")
        copy = os.path.join(self.tmp, "functions", "fn_account_move")
        shutil.copytree(original, copy)
        path = os.path.join(copy, "solution.rs")
        text = check_tasks.read(path)
        renames = {"Ledger": "Bank", "TransferError": "MoveError", "balances": "funds", "transfer": "move_funds",
                   "amount": "qty", "from": "source", "to": "target", "available": "held", "name": "account"}
        for old, new in renames.items():
            text = re.sub(r"\b%s\b" % old, new, text)
        text = re.sub(r"//[^\n]*", "// reworded", text)
        text = text.replace("qty == 0", "qty < 1")
        text = text.replace("    pub fn balance(", "    pub fn accounts(&self) -> usize {\n        self.funds.len()\n    }\n\n"
                            "    pub fn balance(")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return original, copy

    def test_a_planted_near_duplicate_is_found(self):
        original, copy = self.planted()
        pairs = near_duplicates.near_duplicates(check_tasks.task_dirs(self.tmp))
        self.assertEqual([(a, b) for _, a, b in pairs], [(copy, original)] if copy < original else [(original, copy)])
        self.assertTrue(0.5 <= pairs[0][0] < 1, pairs)  # the added statement registers
        r = run(self.tmp)
        self.assertEqual(r.returncode, 1)
        self.assertIn("fim/fim_ledger_transfer", r.stdout)
        self.assertIn("functions/fn_account_move", r.stdout)

    def test_renaming_and_reformatting_leave_a_copy_at_one(self):
        text = check_tasks.read(os.path.join(DATASET, "fim", "fim_ledger_transfer", "solution.rs"))
        reformatted = re.sub(r"\s+", "\n", re.sub(r"//[^\n]*", "", text)).replace("amount", "qty").replace("0", "9")
        self.assertEqual(near_duplicates.jaccard(near_duplicates.shingles(text), near_duplicates.shingles(reformatted)), 1)

    def test_no_pairs_exits_0_and_usage_errors_exit_2(self):
        shutil.copytree(os.path.join(DATASET, "completion"), os.path.join(self.tmp, "completion"))
        r = run(self.tmp)
        self.assertEqual((r.returncode, r.stdout.splitlines()[-1][:17]), (0, "0 pairs of 27 tas"), r.stdout)
        r = run(os.path.join(self.tmp, "missing"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("missing: no such folder", r.stderr)
        os.makedirs(os.path.join(self.tmp, "empty"))
        r = run(os.path.join(self.tmp, "empty"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("empty: no task folder", r.stderr)
        self.assertEqual(run("--threshold", "0", self.tmp).returncode, 2)


if __name__ == "__main__":
    unittest.main()

"""The contamination check (plugins/rust_cargo/tools/contamination.py) on a
small corpus built here: a blog post quoting one task's solution, a JSONL
document holding another's reformatted without its comments, and unrelated
Rust. Exactly those two tasks are at risk, each with its document; bad input
(a missing file, a malformed JSONL line, a document without the text field,
bad options) exits 2 naming the file and line."""
import json
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
import contamination  # noqa: E402

UNRELATED = """\
//! A reverse-Polish calculator, written for this test.
use std::fmt;

#[derive(Debug)]
pub enum CalcError { StackUnderflow, BadToken(String), DivideByZero }

impl fmt::Display for CalcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CalcError::StackUnderflow => write!(f, "not enough operands"),
            CalcError::BadToken(t) => write!(f, "cannot read {:?}", t),
            CalcError::DivideByZero => write!(f, "division by zero"),
        }
    }
}

pub fn evaluate(line: &str) -> Result<i64, CalcError> {
    let mut stack: Vec<i64> = Vec::new();
    for token in line.split_whitespace() {
        if let Ok(value) = token.parse::<i64>() {
            stack.push(value);
            continue;
        }
        let rhs = stack.pop().ok_or(CalcError::StackUnderflow)?;
        let lhs = stack.pop().ok_or(CalcError::StackUnderflow)?;
        stack.push(match token {
            "+" => lhs + rhs,
            "-" => lhs - rhs,
            "*" => lhs * rhs,
            "/" if rhs == 0 => return Err(CalcError::DivideByZero),
            "/" => lhs / rhs,
            other => return Err(CalcError::BadToken(other.to_string())),
        });
    }
    stack.pop().ok_or(CalcError::StackUnderflow)
}

fn main() {
    for line in ["3 4 + 2 *", "1 0 /", "5 x"] {
        match evaluate(line) {
            Ok(v) => println!("{} = {}", line, v),
            Err(e) => println!("{}: {}", line, e),
        }
    }
}
"""


def run(*args):
    return subprocess.run([sys.executable, os.path.join(TOOLS, "contamination.py"), *args], capture_output=True,
                          text=True, timeout=120)


def solution(task):
    return check_tasks.read(os.path.join(DATASET, task, "solution.rs"))


class Contamination(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="bem-contamination-")
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.folder = os.path.join(self.tmp, "corpus")
        os.makedirs(os.path.join(self.folder, "posts"))
        with open(os.path.join(self.folder, "posts", "retries.md"), "w") as f:
            f.write("# Retrying politely\n\nHere is how we space out retries:\n\n```rust\n"
                    + solution("completion/cmp_backoff_schedule") + "```\n\nThat is all.\n")
        with open(os.path.join(self.folder, "calc.rs"), "w") as f:
            f.write(UNRELATED)
        # The other solution reformatted (one token a line) and without its comments.
        ledger = "\n".join(t for _, t in contamination.rust_tokens.tokens(solution("fim/fim_ledger_transfer"))
                           if not t.startswith("//"))
        self.jsonl = os.path.join(self.tmp, "docs.jsonl")
        with open(self.jsonl, "w") as f:
            for doc in ({"id": 1, "text": UNRELATED.replace("evaluate", "eval_rpn")}, {"id": 2, "text": ledger},
                        {"id": 3, "text": "fn main() { println!(\"hello\"); }"}):
                f.write(json.dumps(doc) + "\n")

    def test_the_two_solutions_are_found_and_nothing_else(self):
        r = run(self.folder, self.jsonl)
        self.assertEqual(r.returncode, 1, r.stderr)
        at_risk = re.findall(r"^AT RISK (\S+)$", r.stdout, re.M)
        self.assertEqual(at_risk, ["completion/cmp_backoff_schedule", "fim/fim_ledger_transfer"], r.stdout)
        post = os.path.join(self.folder, "posts", "retries.md")
        self.assertIn(f"   solution.rs: 1.00 of its 10-grams in {post}\n", r.stdout)
        self.assertIn(f"   prompt.rs: 1.00 of its 10-grams in {post}\n", r.stdout)  # a completion's prompt is in its solution
        # Layout does not count; the missing comments do: the n-grams holding their words are not in the document.
        self.assertIn(f"   solution.rs: 0.84 of its 10-grams in {self.jsonl}:2\n", r.stdout)
        self.assertNotIn("tests.rs", r.stdout)
        self.assertIn("2 of 217 tasks at risk in 5 documents", r.stdout)

    def test_unrelated_rust_alone_puts_no_task_at_risk(self):
        os.remove(os.path.join(self.folder, "posts", "retries.md"))
        r = run(self.folder)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("0 of 217 tasks at risk in 1 documents", r.stdout)
        index = contamination.Index(check_tasks.task_dirs(DATASET))
        index.add_document("calc.rs", UNRELATED)
        self.assertLess(max(overlap for overlap, _ in index.best), 0.2)

    def test_the_overlap_is_the_fraction_of_a_part_s_ngrams(self):
        task = os.path.join(DATASET, "completion", "cmp_backoff_schedule")
        index = contamination.Index([task], n=3)
        tests = [i for i, p in enumerate(index.parts) if p[1] == "tests.rs"][0]
        text = check_tasks.read(os.path.join(task, "tests.rs"))
        half = text[:text.index("#[test]\nfn base_above")]
        index.add_document("half", half)
        expected = len(contamination.ngrams(half, 3)) / index.parts[tests][2]
        self.assertAlmostEqual(index.best[tests][0], expected)
        self.assertTrue(0.2 < expected < 0.7, expected)

    def test_bad_input_exits_2_naming_the_file(self):
        missing = os.path.join(self.tmp, "nowhere.jsonl")
        r = run(self.folder, missing)
        self.assertEqual((r.returncode, r.stderr), (2, f"contamination.py: error: {missing}: no such file or folder\n"))
        with open(self.jsonl, "a") as f:
            f.write("{not json\n")
        small = ("--dataset", os.path.join(DATASET, "completion"))  # the error comes after the dataset is read
        r = run(*small, self.jsonl)
        self.assertEqual(r.returncode, 2)
        self.assertIn(f"{self.jsonl}:4: not JSON", r.stderr)
        r = run(*small, "--text-field", "body", self.jsonl)
        self.assertEqual(r.returncode, 2)
        self.assertIn(f"{self.jsonl}:1: no string field 'body'", r.stderr)
        self.assertEqual(run().returncode, 2)
        self.assertEqual(run("--n", "0", self.folder).returncode, 2)
        r = run("--dataset", os.path.join(self.tmp, "no_dataset"), self.folder)
        self.assertEqual(r.returncode, 2)
        self.assertIn("no_dataset: no such folder", r.stderr)

    def test_a_broken_link_in_a_corpus_folder_names_itself(self):
        link = os.path.join(self.folder, "posts", "gone.rs")
        os.symlink(os.path.join(self.tmp, "gone.rs"), link)
        r = run(self.folder)
        self.assertEqual((r.returncode, r.stderr), (2, f"contamination.py: error: {link}: No such file or directory\n"))

    @unittest.skipIf(os.geteuid() == 0, "root reads every file")
    def test_an_unreadable_file_names_itself(self):
        calc = os.path.join(self.folder, "calc.rs")
        os.chmod(calc, 0)
        r = run(self.folder)
        self.assertEqual((r.returncode, r.stderr), (2, f"contamination.py: error: {calc}: Permission denied\n"))


if __name__ == "__main__":
    unittest.main()

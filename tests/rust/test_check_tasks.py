"""The authoring checker's static rules (plugins/rust_cargo/tools/check_tasks.py)
agree with the C++ loader on the task layout: every task of benchmarks_v1
passes, and a stray file, a stray folder, a src/ outside projects and a link
are each reported by path. Only what the checker finds before it compiles,
but for the worked conversion of docs/rust-benchmarks.md, which is built and
tested with cargo where cargo is installed."""
import os
import re
import shutil
import sys
import tempfile
import unittest

ROOT = os.environ.get("BEM_SOURCE_ROOT") or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, "plugins", "rust_cargo", "tools")
DATASET = os.path.join(ROOT, "plugins", "rust_cargo", "benchmarks_v1")
sys.path.insert(0, TOOLS)
import check_tasks  # noqa: E402


class Layout(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="bem-check-tasks-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def copy(self, category, task):
        d = os.path.join(self.tmp, category, task)
        shutil.copytree(os.path.join(DATASET, category, task), d)
        return d

    def write(self, d, rel, text="stray\n"):
        os.makedirs(os.path.dirname(os.path.join(d, rel)), exist_ok=True)
        with open(os.path.join(d, rel), "w") as f:
            f.write(text)

    def test_every_task_of_the_dataset_passes(self):
        dirs = check_tasks.task_dirs(DATASET)
        self.assertGreaterEqual(len(dirs), 200)
        for d in dirs:
            problems, _ = check_tasks.static_problems(d)
            self.assertEqual(problems, [], d)

    def test_strays_links_and_src_outside_projects_are_named(self):
        d = self.copy("completion", "cmp_sum_of_even_squares")
        self.write(d, "NOTES.md")
        self.write(d, "target/debug/x")
        self.write(d, "src/extra.rs")
        problems, parts = check_tasks.static_problems(d)
        self.assertIsNone(parts)
        self.assertEqual(sorted(problems), ["NOTES.md: not part of a task's layout",
                                            "src: only projects have context files",
                                            "target: not part of a task's layout"])
        p = self.copy("projects", "prj_inventory_restock")
        self.write(p, "src/util/mod.rs")  # a module folder is part of a crate
        self.assertEqual(check_tasks.static_problems(p)[0], [])
        os.symlink(os.path.join(p, "src", "lib.rs"), os.path.join(p, "src", "alias.rs"))
        self.assertEqual(check_tasks.static_problems(p)[0],
                         ["src/alias.rs: a link (a task folder holds only its own files)"])

    def test_metadata_fields_as_the_loader_takes_them(self):
        # An unknown key is an error (a misspelt optional field); the commands may be left out.
        d = self.copy("completion", "cmp_sum_of_even_squares")
        meta = os.path.join(d, "metadata.yaml")
        with open(meta) as f:
            text = f.read()
        text = text.replace("compile_command: cargo build --offline\n", "").replace("test_command: cargo test --offline\n", "")
        with open(meta, "w") as f:
            f.write(text)
        self.assertEqual(check_tasks.static_problems(d)[0], [])
        with open(meta, "w") as f:
            f.write(text + "target_fle: src/lib.rs\ntest_command: cargo test\n")
        self.assertEqual(check_tasks.static_problems(d)[0], [
            "metadata.yaml: unknown field 'target_fle'",
            "metadata.yaml: test_command must be 'cargo test --offline' (or left out)"])


DOCS = os.path.join(ROOT, "docs", "rust-benchmarks.md")


def doc_files(kind):
    """The blocks of the docs marked `<!-- KIND file: PATH -->`, PATH -> text (the fence's indentation removed)."""
    with open(DOCS, encoding="utf-8") as f:
        text = f.read()
    files = {}
    for m in re.finditer(r"<!-- " + kind + r" file: (\S+) -->\n\n?( *)```\w*\n(.*?)\n\2```\n", text, re.S):
        indent = len(m.group(2))
        files[m.group(1)] = "\n".join(l[indent:] for l in m.group(3).split("\n")) + "\n"
    return files


class WorkedConversion(unittest.TestCase):
    """The docs' conversion of a task from another harness gives a task the checker passes; the other
    harness's tests.rs, kept as it was, does not build (its `super` is bem_tests)."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="bem-conversion-")
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.files = doc_files("task")
        self.assertEqual(sorted(os.path.basename(p) for p in self.files), sorted(check_tasks.TASK_FILES))
        for rel, text in self.files.items():
            os.makedirs(os.path.dirname(os.path.join(self.tmp, rel)), exist_ok=True)
            with open(os.path.join(self.tmp, rel), "w", encoding="utf-8") as f:
                f.write(text)
        [self.task] = check_tasks.task_dirs(self.tmp)

    def test_the_converted_task_passes_the_static_checks(self):
        self.assertEqual(check_tasks.static_problems(self.task)[0], [])

    @unittest.skipIf(shutil.which("cargo") is None, "no cargo")
    def test_the_converted_task_passes_and_their_tests_do_not_build(self):
        work = tempfile.mkdtemp(dir=self.tmp)
        self.assertEqual(check_tasks.check(self.task, "cargo", work)[1], [])
        with open(os.path.join(self.task, "tests.rs"), "w", encoding="utf-8") as f:
            f.write(doc_files("their")["tests.rs"])
        problems = check_tasks.check(self.task, "cargo", work)[1]
        self.assertTrue(problems and problems[0].startswith("solution fails"), problems)
        self.assertIn("E0425", problems[0])


if __name__ == "__main__":
    unittest.main()

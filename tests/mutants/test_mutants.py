#!/usr/bin/env python3
"""The mutation tool's own reading of test output and of its list."""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mutants  # noqa: E402

RULE = "=" * 79


def block(case, *lines):
    return "\n".join([RULE, "../tests/x.cpp:10:", f"TEST CASE:  {case}", ""] + list(lines)) + "\n"


class FailingCase(unittest.TestCase):
    def test_a_message_block_is_passed_over(self):
        out = ('[doctest] doctest version is "2.4.9"\n' + block("chatty", "../tests/x.cpp:12: MESSAGE: 5 queries")
               + block("broken", "../tests/x.cpp:20: ERROR: CHECK( a == b ) is NOT correct!", "  values: CHECK( 1 == 2 )")
               + RULE + "\n[doctest] test cases: 2 | 1 passed | 1 failed |\n")
        self.assertEqual(mutants.failing_case(out), "broken")

    def test_fatal_errors_and_crashes_count(self):
        self.assertEqual(mutants.failing_case(block("fatal", "x.cpp:3: FATAL ERROR: REQUIRE( x ) is NOT correct!")),
                         "fatal")
        self.assertEqual(mutants.failing_case(block("crash", "x.cpp:3: ERROR: test case CRASHED: SIGSEGV")), "crash")

    def test_the_first_failure_is_named(self):
        out = block("first", "x.cpp:1: ERROR: CHECK( a ) is NOT correct!") + block("second", "x.cpp:2: ERROR: no")
        self.assertEqual(mutants.failing_case(out), "first")

    def test_no_failure_reported(self):
        self.assertIsNone(mutants.failing_case(block("chatty", "x.cpp:12: MESSAGE: hello")))
        self.assertIsNone(mutants.failing_case("Segmentation fault\n"))


class Stale(unittest.TestCase):
    def test_the_text_must_occur_once(self):
        m = {"file": "f.hpp", "old": "a < b"}
        self.assertIsNone(mutants.stale(m, "if (a < b) x();"))
        self.assertIn("0 times", mutants.stale(m, "if (a <= b) x();"))
        self.assertIn("2 times", mutants.stale(m, "a < b; a < b;"))


class TestSetup(unittest.TestCase):
    """A mutant's test runs as `meson test` runs it: with its environment,
    and with what it depends on rebuilt."""

    @staticmethod
    def setup(env, deps, cmd, workdir=None):
        return {"env": env, "deps": deps, "cmd": cmd, "workdir": workdir}

    def test_environment_and_dependencies(self):
        build = "/b"
        exe = os.path.join(build, "tests", "api", "plugin_host_tests")
        setups = {exe: self.setup({"PLUGIN": "/x/p.so"}, ["tests/api/p.so", "tests/api/plugin_host_tests"], [exe])}
        self.assertEqual(mutants.build_targets(build, "tests/api/plugin_host_tests", setups),
                         ["tests/api/plugin_host_tests", "tests/api/p.so"])
        self.assertEqual(mutants.build_targets(build, "tests/x/other", setups), ["tests/x/other"])
        # A stand-in test executable that prints the variable its setup gives it.
        with tempfile.TemporaryDirectory() as d:
            script = os.path.join(d, "print_env.sh")
            with open(script, "w") as f:
                f.write('#!/bin/sh\necho "$BEM_MUTANT_PROBE"\n')
            os.chmod(script, 0o755)
            setups = {os.path.realpath(script): self.setup({"BEM_MUTANT_PROBE": "seen"}, [], [script])}
            self.assertEqual(mutants.run_test(d, "print_env.sh", setups).stdout.strip(), "seen")
            self.assertEqual(mutants.run_test(d, "print_env.sh", {}).stdout.strip(), "")

    def test_a_meson_test_by_name(self):
        # "test:NAME" runs the test's own command (a script, say) in its
        # environment, after building its dependencies only.
        with tempfile.TemporaryDirectory() as d:
            script = os.path.join(d, "check.py")
            with open(script, "w") as f:
                f.write('import os, sys\nprint(os.environ["BEM_MUTANT_PROBE"], sys.argv[1], os.getcwd())\n')
            setups = {"test:driver": self.setup({"BEM_MUTANT_PROBE": "seen"}, ["bench/bem-bench"],
                                                [sys.executable, script, "arg"])}
            self.assertEqual(mutants.build_targets(d, "test:driver", setups), ["bench/bem-bench"])
            out = mutants.run_test(d, "test:driver", setups).stdout.split()
            self.assertEqual(out[:2], ["seen", "arg"])
            self.assertEqual(os.path.realpath(out[2]), os.path.realpath(d))  # the build folder, as meson runs it
            with self.assertRaises(KeyError):
                mutants.setup_of(d, "test:nothing", setups)
            # Output that is not UTF-8 (a failing check printing binary data) is read all the same.
            with open(script, "w") as f:
                f.write('import sys\nsys.stdout.buffer.write(b"a\\x80b\\n")\n')
            self.assertEqual(mutants.run_test(d, "test:driver", setups).stdout, "a\ufffdb\n")
        # No dependencies: nothing is built (a bare ninja would build all).
        self.assertEqual(mutants.ninja("/nonexistent", []).returncode, 0)

    def test_unittest_failures_are_named(self):
        out = ("..F.\n" + "=" * 70 + "\nFAIL: test_exit_codes (__main__.Driver.test_exit_codes)\n" + "-" * 70
               + "\nTraceback (most recent call last):\nAssertionError: 0 != 2\n\nFAILED (failures=1)\n")
        self.assertEqual(mutants.failing_case(out), "test_exit_codes")
        self.assertEqual(mutants.failing_case("ERROR: test_report (__main__.Report.test_report)\n"), "test_report")
        self.assertIsNone(mutants.failing_case("Ran 4 tests in 1.0s\n\nOK\n"))


class SampleAndVerdicts(unittest.TestCase):
    MUTANTS = ([{"id": f"m{i}", "target": "tests/x/x_tests"} for i in range(20)]
               + [{"id": "driver", "target": "test:driver"}, {"id": "same", "target": "tests/x/x_tests", "equivalent": "why"},
                  {"id": "known", "target": "tests/x/x_tests", "gap": "why"}])

    def test_the_sample_follows_its_seed_and_skips_test_targets_and_marked_mutants(self):
        a = mutants.draw(self.MUTANTS, 5, "abc")
        self.assertEqual([m["id"] for m in a], [m["id"] for m in mutants.draw(self.MUTANTS, 5, "abc")])
        self.assertEqual(len(a), 5)
        self.assertNotEqual([m["id"] for m in a], [m["id"] for m in mutants.draw(self.MUTANTS, 5, "abd")])
        everything = {m["id"] for m in mutants.draw(self.MUTANTS, 100, "abc")}
        self.assertEqual(everything, {f"m{i}" for i in range(20)})

    def test_verdicts_merge_into_the_file(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "verdicts.json")
            mutants.record_verdicts(path, "c1", {"a": ("killed", 3.4), "b": ("survived", 1)})
            mutants.record_verdicts(path, "c2", {"b": ("killed (build)", 2)})
            with open(path) as f:
                data = json.load(f)
            self.assertEqual(sorted(data), ["a", "b"])
            self.assertEqual((data["a"]["verdict"], data["a"]["commit"], data["a"]["seconds"]), ("killed", "c1", 3))
            self.assertEqual((data["b"]["verdict"], data["b"]["commit"]), ("killed (build)", "c2"))


if __name__ == "__main__":
    unittest.main()

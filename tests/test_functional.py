"""LeetCode-style (functional) problems graded as LiveCodeBench grades them: the submission is a
module named tmp_sol, its return value compared with Python `==` to the JSON answer (nested
tuples are not lists, int keys are not str keys), and Grader.grade adds the harness itself."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import next_slot, quiet_cpu, scaled
from judge import JudgeError
from judge.checkers.dataset_comparators import check_lcb_functional
from judge.harness import check_tests, wrap_source
from judge.harness.functional import decode_result
from judge.problems.model import Problem
from judge.problems.model import TestCase as Case


def functional_problem(tests=((b"[2, 7, 11, 15]\n9", b"[0, 1]"),), func="twoSum") -> Problem:
    return Problem("livecodebench/p3", "t", "s", scaled(6000), 1024, "lcb-functional",
                   tuple(Case(i, o) for i, o in tests),
                   metadata={"testtype": "functional", "func_name": func})


def harness_run(code: str, args: str, func: str = "f") -> subprocess.CompletedProcess:
    """The wrapped program run by this interpreter, outside any sandbox: what the harness does."""
    source = wrap_source(code, functional_problem(func=func), "python")
    return subprocess.run([sys.executable, "-c", source], input=args, capture_output=True,
                          text=True, timeout=120)


def verdict(code: str, args: str, expected: str, func: str = "f") -> str:
    out = harness_run(code, args, func)
    if out.returncode != 0:
        return "RE"
    return check_lcb_functional(args.encode(), out.stdout.encode(), expected.encode())[0]


# ------------------------------------------------------------------------------ LiveCodeBench's rules

def test_the_submission_is_a_module_named_tmp_sol_so_its_main_block_never_runs():
    code = ("class Solution:\n    def twoSum(self, nums, target):\n        return [0, 1]\n\n"
            "if __name__ == '__main__':\n    print(Solution().twoSum([3, 4], 7))\n"
            "    raise SystemExit(1)\n")
    assert verdict(code, "[2, 7, 11, 15]\n9", "[0, 1]", func="twoSum") == "OK"
    named = "def f(x):\n    return __name__\n"
    assert verdict(named, "0", '"tmp_sol"') == "OK"


def test_only_the_outer_tuple_becomes_a_list():
    assert verdict("def f(x):\n    return (0, 1)\n", "1", "[0, 1]") == "OK"
    assert verdict("def f(x):\n    return [(0, 1)]\n", "1", "[[0, 1]]") == "WA"
    assert verdict("def f(x):\n    return ((0, 1),)\n", "1", "[[0, 1]]") == "WA"


def test_dict_keys_keep_their_type():
    assert verdict("def f(x):\n    return {1: 2}\n", "1", '{"1": 2}') == "WA"
    assert verdict("def f(x):\n    return {'1': 2}\n", "1", '{"1": 2}') == "OK"


def test_python_equality_of_numbers_and_booleans():
    assert verdict("def f(x):\n    return 1.0\n", "1", "1") == "OK"
    assert verdict("def f(x):\n    return True\n", "1", "1") == "OK"
    assert verdict("def f(x):\n    return [0, False]\n", "1", "[0, 0]") == "OK"
    assert verdict("def f(x):\n    return 0.30000000000000004\n", "1", "0.3") == "WA"
    assert verdict("def f(x):\n    return float('nan')\n", "1", "NaN") == "WA"   # nan != nan


def test_sets_strings_and_none_compare_as_python_values():
    assert verdict("def f(x):\n    return {1, 2}\n", "1", "[1, 2]") == "WA"
    assert verdict("def f(x):\n    return None\n", "1", "null") == "OK"
    assert verdict("def f(x):\n    return 'a'\n", "1", '"a"') == "OK"
    assert verdict("def f(x):\n    return b'a'\n", "1", '"a"') == "WA"


def test_the_text_class_solution_decides_the_instance_as_in_livecodebench():
    # LiveCodeBench looks for the text "class Solution", not for a class.
    commented = "# class Solution would be usual here\ndef f(x):\n    return x\n"
    assert verdict(commented, "1", "1") == "RE"
    assert verdict("def f(x):\n    return x\n", "1", "1") == "OK"


def test_every_input_line_is_one_argument():
    code = "def f(a, b, c):\n    return [a, b, c]\n"
    assert verdict(code, '[1, 2]\n"s"\n{"k": [3]}', '[[1, 2], "s", {"k": [3]}]') == "OK"


def test_prints_and_raw_writes_do_not_decide_the_verdict():
    code = ("import os\nprint('loading')\n"
            "def f(x):\n    print('thinking', x)\n    os.write(1, b'[9, 9, 9]')\n    return [x]\n")
    assert verdict(code, "4", "[4]") == "OK"


def test_huge_integers_round_trip():
    code = "def f(x):\n    return 7 ** 20000 * x\n"
    out = harness_run(code, "1")
    assert out.returncode == 0, out.stderr
    assert decode_result(out.stdout) == 7 ** 20000


def test_a_returned_object_never_decides_its_own_equality():
    code = ("class Anything:\n    def __eq__(self, other):\n        return True\n"
            "def f(x):\n    return Anything()\n")
    assert verdict(code, "1", "[0, 1]") == "WA"


def test_output_the_harness_did_not_write_is_wrong_not_a_crash():
    for text in (b"", b"Traceback ...", b'{"dict": [[[1], 2]]}', b'{"evil": 1}',
                 b"[" * 100000, b'{"tuple": 5}'):
        assert check_lcb_functional(b"1", text, b"[0, 1]")[0] == "WA"


def test_functional_test_data_the_driver_cannot_read_is_the_datasets_failure():
    check_tests(functional_problem())
    with pytest.raises(JudgeError, match="test 1: an input line is not a JSON value"):
        check_tests(functional_problem(tests=((b"[1, 2]\n", b"[0]"),)))
    with pytest.raises(JudgeError, match="test 2: the expected output is not a JSON value"):
        check_tests(functional_problem(tests=((b"1", b"1"), (b"1", b"oops"))))


def test_only_python_can_be_wrapped():
    stdin_problem = Problem("pack/x", "t", "s", 1000, 256, "wcmp", ())
    assert wrap_source("print(1)\n", stdin_problem, "cpp") == "print(1)\n"
    with pytest.raises(JudgeError, match="only Python"):
        wrap_source("int main(){}", functional_problem(), "cpp")


# ------------------------------------------------------------------------------ in the sandbox

def test_grader_grade_applies_the_harness(require_sandbox):
    from judge.grade import Grader
    problem = functional_problem(tests=((b"[2, 7, 11, 15]\n9", b"[0, 1]"), (b"[3, 3]\n6", b"[0, 1]")))
    right = ("class Solution:\n    def twoSum(self, nums, target):\n        seen = {}\n"
             "        for i, x in enumerate(nums):\n            if target - x in seen:\n"
             "                return (seen[target - x], i)\n            seen[x] = i\n"
             "if __name__ == '__main__':\n    print(Solution().twoSum([1], 1))\n")
    nested = "class Solution:\n    def twoSum(self, nums, target):\n        return [(0, 1)][0:1]\n"
    with Grader(slot=next_slot(), cpu=quiet_cpu()) as grader:
        result = grader.grade(right, "python", problem)
        assert result.verdict == "AC", result.to_dict()
        assert len(result.tests) == 2
        wrong = grader.grade(nested, "python", problem)
        assert wrong.verdict == "WA" and "(0, 1)" in wrong.tests[0].checker_message
        broken = functional_problem(tests=((b"[1]\n\n", b"[0]"),))
        with pytest.raises(JudgeError, match="not a JSON value"):
            grader.grade(right, "python", broken)


def test_judge_run_grades_a_functional_problem(tmp_path, require_sandbox):
    rows = [{"question_id": "lc1", "question_title": "Two Sum", "platform": "leetcode",
             "contest_id": "w1", "question_content": "q", "contest_date": "2024-09-01T00:00:00",
             "difficulty": "easy", "private_test_cases": "[]",
             "public_test_cases": json.dumps([{"input": "[2, 7, 11, 15]\n9", "output": "[0, 1]",
                                               "testtype": "functional"}]),
             "metadata": json.dumps({"func_name": "twoSum"}), "starter_code": ""}]
    data = tmp_path / "lcb.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    code = tmp_path / "sol.py"
    code.write_text("class Solution:\n    def twoSum(self, nums, target):\n        return [0, 1]\n")
    out = subprocess.run([sys.executable, "-c", "from judge.cli import main; main()", "run",
                          "--dataset", f"livecodebench:{data}", "--problem", "lc1", str(code), "--json"],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["verdict"] == "AC"

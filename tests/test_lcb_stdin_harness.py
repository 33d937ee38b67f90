"""LiveCodeBench stdin problems graded as LiveCodeBench's own harness grades them
(lcb_runner/evaluation/testing_util.py grade_stdio): every fixture of lcb_stdin_cases.py, whose
answer was recorded from that harness, gets the same pass or fail from the judge, and the time
rule is LiveCodeBench's 6 s of wall time a test."""
from __future__ import annotations

import json

import pytest
from lcb_stdin_cases import CASES, Case

from conftest import next_slot, quiet_cpu
from judge.grade import Grader, run_limits
from judge.harness import harness_id, lcb_stdin_program, wrap_source
from judge.languages import get_language
from judge.problems.livecodebench import problem_from_row
from judge.problems.model import Problem
from judge.problems.rules import TimeRule, rules_for
from judge.verdicts import Verdict


def lcb_problem(case: Case) -> Problem:
    tests = [{"input": case.input, "output": case.expected, "testtype": "stdin"}]
    return problem_from_row({"question_id": "abc300_a", "question_content": "sum",
                             "platform": "atcoder", "public_test_cases": json.dumps(tests),
                             "metadata": "{}"})


@pytest.fixture(scope="module")
def grader():
    with Grader(slot=next_slot(), cpu=quiet_cpu()) as g:
        yield g


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_judge_answers_what_livecodebench_answers(grader, case):
    result = grader.grade(case.code, "python", lcb_problem(case))
    assert result.judge_failure is False, result.to_dict()
    assert (result.verdict == Verdict.AC) is case.passes, \
        f"{case.follows}: {result.verdict} {result.tests[-1].checker_message!r} " \
        f"{result.tests[-1].stderr_tail[-300:]!r}"


def test_the_same_code_as_a_plain_codeforces_program_is_graded_as_written(grader):
    """The harness is LiveCodeBench's rule only: a Codeforces-style problem runs the code as a
    script (accumulate unimported is a NameError there, sys.exit(1) a runtime error)."""
    by_name = {c.name: c for c in CASES}
    plain = Problem("pack/sum", "sum", "", 2000, 256, "wcmp",
                    lcb_problem(by_name["plain"]).tests)
    assert grader.grade(by_name["prelude gives accumulate"].code, "python", plain).verdict \
        == Verdict.RE
    assert grader.grade(by_name["sys.exit(1) is no failure"].code, "python", plain).verdict \
        == Verdict.RE
    assert wrap_source("print(1)\n", plain, "python") == "print(1)\n"
    assert harness_id(plain, "python") == ""


def test_the_harness_wraps_python_only_and_is_part_of_the_judgment_key():
    problem = lcb_problem(CASES[0])
    assert wrap_source("print(1)\n", problem, "python") == lcb_stdin_program("print(1)\n")
    assert wrap_source("int main(){}\n", problem, "cpp") == "int main(){}\n"
    assert harness_id(problem, "python").startswith("lcb-stdin-harness-v")
    assert harness_id(problem, "cpp") == ""


def test_livecodebench_limits_are_6_s_of_wall_time_for_every_language():
    problem = lcb_problem(CASES[0])
    assert rules_for(problem).time_rule is TimeRule.WALL
    for language in ("python", "cpp", "java"):
        limits = run_limits(problem, get_language(language))
        assert (limits.time_limit_ms, limits.wall_ms) == (6000, 6000)


def test_a_missing_module_says_which_environment_lacks_it(grader):
    case = next(c for c in CASES if c.name == "a module the environment lacks")
    result = grader.grade(case.code, "python", lcb_problem(case))
    assert result.verdict == Verdict.RE
    assert "no module 'sortedcontainers' in the livecodebench Python environment" \
        in result.tests[0].checker_message
    assert "ModuleNotFoundError" in result.tests[0].stderr_tail


HOSTILE_TO_THE_ENVIRONMENT = """\
import ctypes, os, sys
import numpy
target = os.path.join(os.path.dirname(numpy.__file__), "__init__.py")
try:
    open(target, "a").write("raise SystemExit('poisoned')\\n")
    print("wrote")
except OSError as exc:
    print("refused")
libc = ctypes.CDLL(None, use_errno=True)
MBIND = 237
print("mbind", libc.syscall(MBIND, 0, 0, 0, 0, 0, 0), ctypes.get_errno())
"""


def test_a_solution_cannot_change_the_environment_and_numa_calls_are_answered_enosys(grader):
    """The benchmark's modules are read-only to every run (a poisoned numpy would change the
    verdicts of every later solution), and the NUMA calls numpy's OpenBLAS makes get ENOSYS
    under the python policy, as from a kernel without NUMA: no more than that."""
    case = Case("hostile", "-", HOSTILE_TO_THE_ENVIRONMENT, True, input="",
                expected="refused\nmbind -1 38\n")
    result = grader.grade(case.code, "python", lcb_problem(case))
    assert result.verdict == Verdict.AC, (result.tests[0].checker_message,
                                          result.tests[0].stderr_tail)

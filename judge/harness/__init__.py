"""The programs that run a benchmark's code the way the benchmark's own harness runs it.

* functional (LeetCode-style) problems: ``judge.harness.functional``, LiveCodeBench's
  ``grade_call_based``;
* LiveCodeBench stdin problems in Python: ``lcb_stdin_program.py``, LiveCodeBench's
  ``grade_stdio`` (its import prelude, the code wrapped in a function, stdin and stdout mocked).

Everything else runs as written. ``wrap_source`` gives the program the sandbox runs and
``harness_id`` what besides the code decides it (part of every judgment key).
"""
from __future__ import annotations

import functools
from pathlib import Path

from judge.harness.functional import HARNESS_VERSION as FUNCTIONAL_VERSION
from judge.harness.functional import (
    PRELUDE,
    PYTHON_LANGUAGES,
    check_tests,
    function_name,
    functional_program,
    is_functional,
)
from judge.problems.model import Problem
from judge.problems.rules import rules_for

LCB_STDIN_VERSION = "1"
_LCB_STDIN_PROGRAM = Path(__file__).with_name("lcb_stdin_program.py")


def runs_lcb_stdin_harness(problem: Problem, language: str) -> bool:
    return (language in PYTHON_LANGUAGES and not is_functional(problem)
            and rules_for(problem).lcb_stdin_harness)


@functools.cache
def _lcb_stdin_driver() -> str:
    return _LCB_STDIN_PROGRAM.read_text(encoding="utf-8")


def lcb_stdin_program(code: str) -> str:
    """The harness program holding ``code`` for a LiveCodeBench stdin problem."""
    return _lcb_stdin_driver() + f"\n\n_grade({code!r}, {PRELUDE!r})\n"


def wrap_source(code: str, problem: Problem, language: str) -> str:
    """The program to grade for ``code`` on ``problem``."""
    if is_functional(problem):
        return functional_program(code, problem, language)
    if runs_lcb_stdin_harness(problem, language):
        return lcb_stdin_program(code)
    return code


def harness_id(problem: Problem, language: str) -> str:
    """What besides the code decides the program graded: the harness and its version."""
    if is_functional(problem):
        return f"functional-harness-v{FUNCTIONAL_VERSION}"
    if runs_lcb_stdin_harness(problem, language):
        return f"lcb-stdin-harness-v{LCB_STDIN_VERSION}"
    return ""


__all__ = ["PYTHON_LANGUAGES", "wrap_source", "harness_id", "is_functional", "function_name", "check_tests",
           "runs_lcb_stdin_harness", "lcb_stdin_program"]

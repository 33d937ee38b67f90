"""Checks, before judging starts, what would otherwise fail every sample of a problem."""
from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from judge import JudgeError
from judge.harness import check_tests, is_functional
from judge.problems.model import Problem
from judge.verdicts import CheckerVerdict

if TYPE_CHECKING:
    from judge.grade import Grader


def validate_problems(problems: list[Problem], slot: int, testlib: str | None,
                      grader: Grader | None = None) -> None:
    """Checks functional tests the harness cannot read, custom checkers, each compiled once and
    asked to accept the jury's own answer to the first test, and interactors (with their
    checkers), each compiled once. Raises JudgeError naming each such problem. The checkers run
    in ``grader`` when given (a Ray worker's), else in a Grader of its own on ``slot``."""
    broken = []
    for problem in problems:
        if is_functional(problem):
            try:
                check_tests(problem)
            except JudgeError as exc:
                broken.append(str(exc))
    custom = [p for p in problems if (p.has_custom_checker or p.is_interactive) and p.tests]
    if custom:
        with contextlib.ExitStack() as stack:
            if grader is None:
                from judge.grade import Grader
                grader = stack.enter_context(Grader(slot=slot, testlib=testlib))
            broken += _broken_checkers(grader, custom)
    if broken:
        raise JudgeError("problems the judge cannot grade; nothing was judged: "
                         + "; ".join(broken))


def _broken_checkers(grader: Grader, problems: list[Problem]) -> list[str]:
    broken = []
    for problem in problems:
        try:
            if problem.interactor is not None:
                # The checker reads the interactor's output, which no jury file holds.
                grader.checkers.build(problem.interactor, "interactor")
                if problem.has_custom_checker:
                    grader.checkers.build(problem.checker)
                continue
            refusal = _refused_jury_answer(grader.checkers, problem)
        except JudgeError as exc:
            broken.append(f"{problem.id}: {' '.join(str(exc).split())[:300]}")
            continue
        if refusal:
            broken.append(f"{problem.id}: {refusal}")
    return broken


def _refused_jury_answer(checkers, problem) -> str | None:
    """Why the checker cannot judge: it FAILs on the jury's own answer of some test, given as
    the output, so that every sample would be a FAIL of the jury's. A WA or PE there is no
    refusal: an answer file may hold only the jury's value (the optimum) while the output is
    a construction the checker reads differently (docs/design/4-verdicts.md §4.4)."""
    for index, test in enumerate(problem.tests, 1):
        check = checkers.jury_word(problem.checker, test.input, test.output)
        if check.verdict == CheckerVerdict.FAIL:
            return (f"the checker says {check.verdict} to the jury's own answer of test {index} "
                    f"({' '.join(check.message.split())[:200]})")
    return None

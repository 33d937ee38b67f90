"""A grading of the native API, shared by /v1/grade and batches: the validated request a slot
grades, its answer (`judge run --json`'s result within a text budget), and a judge failure as
the error it is answered with."""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from judge.grade import Grader, GradeResult
from judge.languages import Language
from judge.problems.model import Problem
from judge.sandbox import SandboxError
from judge.service.answers import COMPILE_LOG_BYTES, AnswerBudget
from judge.service.errors import ApiError
from judge.service.limits import invalid
from judge.service.pool import SlotUnavailable
from judge.service.v1_models import GradeResponse


@dataclass(frozen=True)
class Grading:
    """A validated grading request: what a slot needs to grade it."""
    code: str
    language: Language
    problem: Problem
    all_tests: bool
    cpu_budget_ms: float | None = None

    def job(self) -> Callable[[Grader], GradeResult]:
        def grade(grader: Grader) -> GradeResult:
            return grader.grade(self.code, self.language, self.problem, all_tests=self.all_tests,
                                cpu_budget_ms=self.cpu_budget_ms)
        return grade


def grade_response(result: GradeResult, text_bytes: int) -> GradeResponse:
    """`judge run --json`'s result, through JSON as it prints it, with its texts (the compile
    log, the checker messages) cut to `text_bytes` together as encoded."""
    budget = AnswerBudget(text_bytes)
    figures = result.to_dict()
    figures["compile"]["log"], _ = budget.text(result.compile.log, COMPILE_LOG_BYTES)
    share = max(4096, text_bytes // max(1, len(result.tests)))
    for test, shown in zip(result.tests, figures["tests"], strict=True):
        shown["checker_message"], _ = budget.text(test.checker_message, share)
        shown["stderr_tail"], _ = budget.text(test.stderr_tail, share)
    return GradeResponse.model_validate(json.loads(json.dumps(figures)))


def judge_failure(exc: Exception, retry_after_s: int) -> ApiError:
    """The answer to a job that raised: the sandbox's failure is 503, anything else the
    request's (an unknown checker, a checker that does not compile) 422."""
    if isinstance(exc, (SandboxError, SlotUnavailable)):
        return ApiError(503, "sandbox_failure", f"the sandbox failed: {exc}",
                        {"Retry-After": str(retry_after_s)})
    return invalid(str(exc))

"""A native grading request made ready for a slot (the problem resolved, the language and checker
checked), and its answer: one path for /v1/grade and the items of /v1/batches."""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from judge import JudgeError
from judge.checkers import is_checker
from judge.checkers.dataset_comparators import DATASET_COMPARATORS
from judge.grade import GradeResult
from judge.languages import Language, get_language
from judge.problems.model import Problem, TestCase, is_checker_source
from judge.sandbox import SandboxError
from judge.service.answers import COMPILE_LOG_BYTES, AnswerBudget
from judge.service.errors import ApiError
from judge.service.limits import check_code, check_tests, invalid
from judge.service.pool import SlotUnavailable
from judge.service.runtime import Service
from judge.service.slot import Slot
from judge.service.v1_models import GradeRequest, GradeResponse


@dataclass(frozen=True)
class Grading:
    """A validated grading request: what a slot needs to grade it."""
    code: str
    language: Language
    problem: Problem
    all_tests: bool

    def job(self) -> Callable[[Slot], GradeResult]:
        def grade(slot: Slot) -> GradeResult:
            return slot.grade(self.code, self.language, self.problem, all_tests=self.all_tests)
        return grade


def language_of(name: str) -> Language:
    try:
        language = get_language(name)
    except JudgeError as exc:
        raise invalid(str(exc)) from None
    if not language.available:
        raise invalid(f"the {language.name} toolchain is not installed on this server")
    return language


def _checker(name: str, interactive: bool) -> str:
    if name in DATASET_COMPARATORS or is_checker(name) or is_checker_source(name):
        return name
    if interactive and not name:
        return name
    raise invalid(f"unknown checker {name!r}: a testlib checker's name, a dataset comparator "
                  f"({', '.join(sorted(DATASET_COMPARATORS))}), or a checker's source")


async def prepare(body: GradeRequest, service: Service) -> Grading:
    settings = service.settings
    check_code(body.code, settings)
    language = language_of(body.language)
    if body.problem is not None:
        inline = body.problem
        tests = tuple(TestCase(t.input.encode(), t.output.encode()) for t in inline.tests)
        check_tests(len(tests), sum(len(t.input) + len(t.output) for t in tests), settings,
                    "problem.tests")
        check_code(inline.checker, settings, "problem.checker")
        if inline.interactor is not None:
            check_code(inline.interactor, settings, "problem.interactor")
            if not is_checker_source(inline.interactor):
                raise invalid("problem.interactor must be a testlib interactor's C++ source")
        if inline.memory_limit_mb > settings.max_memory_mb:
            raise invalid(f"problem.memory_limit_mb {inline.memory_limit_mb} is above this "
                          f"server's limit of {settings.max_memory_mb} MB")
        problem = Problem(id=f"inline/{inline.id}", title="", statement="",
                          time_limit_ms=inline.time_limit_ms, memory_limit_mb=inline.memory_limit_mb,
                          checker=_checker(inline.checker, inline.interactor is not None),
                          tests=tests, interactor=inline.interactor)
    else:
        assert body.problem_id is not None
        problem = await service.problem(body.problem_id)
    return Grading(body.code, language, problem, body.all_tests)


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


def judge_failure(service: Service, exc: Exception) -> ApiError:
    if isinstance(exc, (SandboxError, SlotUnavailable)):
        return ApiError(503, "sandbox_failure", f"the sandbox failed: {exc}",
                        {"Retry-After": str(service.settings.retry_after_s)})
    return invalid(str(exc))

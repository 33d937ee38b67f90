"""The judge as a library, for evaluators and RL pipelines that embed it.

    from judge import api
    problem = api.load_problem("2020A")                       # or api.load_problems(dataset)
    code = api.extract_code(model_text, problem)              # what `judge eval` grades, or None
    result = api.grade(code.code, code.language, problem)     # language None: UNGRADABLE
    result.verdict, result.max_cpu_time_ms                    # "AC", 41.2
    summary = api.evaluate(rows, dataset="livecodebench:lcb_dir").summary

Thread safety: every function here may be called from any number of threads at once. Each
`grade` call grades on a slot (a sandbox uid pinned to one CPU) no other call of this process
holds, and at most one call per usable CPU runs at a time; the others wait for a slot, so timing
stays exact under concurrency. `grade_async` and `evaluate_async` run the same calls in a worker
thread for asyncio code. A `Grader` (re-exported here) is the faster way to grade many
submissions from one thread: it keeps its sandboxes warm, and it belongs to the thread that
created it (any other thread that uses it gets a JudgeError).

Every failure of the caller's input is a JudgeError with one clear message; a verdict is never
an exception.

Incomplete results: a sample the judge could not grade (SE, a checker's FAIL, BUSY left after
the re-runs, an unknown problem) is left out of `evaluate`'s metrics, never scored, exactly as
`judge eval` leaves it out and exits 3. `evaluate` then returns a result whose `complete` is
False and whose `incomplete` lists each such sample, and emits an `IncompleteEvaluation`
warning (`warnings.warn`: shown once per message by default; `warnings.simplefilter("error",
api.IncompleteEvaluation)` turns it into an exception). A single `grade` says it through its
verdict: SE, FAIL and BUSY (`GradeResult.judge_failure`) are no verdict on the submission."""
from __future__ import annotations

import asyncio
import tempfile
import threading
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judge import JudgeError
from judge.busy_retry import BusyRetry, grading_is_busy
from judge.evaluate import extract
from judge.evaluate.generations import Generation, parse_row
from judge.evaluate.runner import evaluate as run_evaluation
from judge.evaluate.summary import EvalResult
from judge.evaluate.tasks import EvalConfig
from judge.grade import Grader, GradeResult, TestResult
from judge.harness import is_functional, wrap_source
from judge.languages import Language, get_language
from judge.problems.model import Problem, TestCase
from judge.problems.rules import CODEFORCES, rules_for
from judge.problems.source import ProblemSource, open_source
from judge.sandbox import slots


class _Handout:
    """Slots of a range handed to concurrent calls of this process: each call holds a run of
    consecutive slots no other call holds, and waits while none is free."""

    def __init__(self, slots: range) -> None:
        self.slots = slots
        self._held: set[int] = set()
        self._free = threading.Condition()

    def _find(self, count: int) -> int | None:
        for first in range(self.slots.start, self.slots.stop - count + 1):
            if not self._held.intersection(range(first, first + count)):
                return first
        return None

    @contextmanager
    def hold(self, count: int) -> Iterator[int]:
        if not 1 <= count <= len(self.slots):
            raise JudgeError(f"between 1 and {len(self.slots)} slots can run at once here, "
                             f"not {count}")
        with self._free:
            self._free.wait_for(lambda: self._find(count) is not None)
            first = self._find(count)
            assert first is not None
            self._held.update(range(first, first + count))
        try:
            yield first
        finally:
            with self._free:
                self._held.difference_update(range(first, first + count))
                self._free.notify_all()


# Library calls take their slots (sandbox uids) from ranges of their own (judge/sandbox/slots.py):
# grade one per usable CPU, evaluate as many as its calls at once ask for together.
_grade_slots = _Handout(slots.LIBRARY_GRADE.take(slots.LIBRARY_GRADE.default_count()))
_evaluate_slots = _Handout(slots.LIBRARY_EVALUATE.take(slots.LIBRARY_EVALUATE.size))
_sources: dict[str | None, ProblemSource] = {}
_sources_lock = threading.Lock()


def _source(dataset: str | None) -> ProblemSource:
    with _sources_lock:
        if dataset not in _sources:
            _sources[dataset] = open_source(dataset)
        return _sources[dataset]


# -- problems ------------------------------------------------------------------------------------

def load_problems(dataset: str | None = None) -> list[Problem]:
    """Every problem of a dataset (the `--dataset` syntax of the CLI; None: the embedded pack)."""
    return _source(dataset).list()


def load_problem(problem_id: str, dataset: str | None = None) -> Problem:
    """One problem by id, as `judge run --dataset` finds it ("2020A" or "codeforces/2020A")."""
    return _source(dataset).get(problem_id)


# -- code ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ExtractedCode:
    code: str
    tag: str | None          # the fence's info string's first word, as written
    # The judge's name for the language `judge eval` grades it in ("cpp", "python", ...); None
    # where `judge eval` counts the sample UNGRADABLE (no language given, or an unknown one).
    language: str | None


def extract_code(completion: str, problem: Problem | str | None = None,
                 language: str | None = None, *, dataset: str | None = None
                 ) -> ExtractedCode | None:
    """The code `judge eval` grades for a model's text on `problem`, by the rule of the
    problem's benchmark (judge/problems/rules.py; the last fenced block without a problem), and
    its language as `judge eval --lang language` resolves it. None: no code (NO_CODE)."""
    task = load_problem(problem, dataset) if isinstance(problem, str) else problem
    rules = rules_for(task) if task is not None else CODEFORCES
    block = extract.take_code(completion, rules)
    if block is None:
        return None
    wanted = extract.wanted_language(rules, None, block.tag, language)
    return ExtractedCode(block.code, block.tag,
                         _known_language(wanted) or extract.language_from_tag(wanted))


def _known_language(name: str | None) -> str | None:
    if name is None:
        return None
    try:
        return get_language(name).name
    except JudgeError:
        return None


def functional_program(code: str, problem: Problem, language: str = "python") -> str:
    """The program that runs for ``code`` on a functional (LeetCode-style) problem: the
    LiveCodeBench-exact harness holding it. ``grade`` adds it itself; this shows what runs."""
    if not is_functional(problem):
        raise JudgeError(f"{problem.id} is not a functional problem: its programs read stdin")
    return wrap_source(code, problem, language)


# -- grading -------------------------------------------------------------------------------------

def grade(code: str, language: Language | str, problem: Problem | str, *,
          dataset: str | None = None, all_tests: bool = False,
          testlib: str | None = None, cpu_budget_ms: float | None = None,
          busy_retry: BusyRetry | None = None) -> GradeResult:
    """Grades one submission (as written; for a functional problem the class or function) on
    ``problem`` (a Problem, or an id looked up in ``dataset``): compile, run every test in order
    under its limits, check, and stop at the first failing test unless ``all_tests`` (or once the
    tests took ``cpu_budget_ms`` of CPU together: a passing grading is then TLE). A grading the
    machine starved (BUSY) is done again, alone, as `judge serve` does (``busy_retry``): a BUSY
    comes back only when the machine stayed overloaded."""
    task = load_problem(problem, dataset) if isinstance(problem, str) else problem

    def attempt(alone: bool) -> GradeResult:
        # Alone: every slot of this process's grading range held, so no other call runs.
        with _grade_slots.hold(len(_grade_slots.slots) if alone else 1) as slot:
            with Grader(slot=slot, cpu=slots.cpu_of(slot - _grade_slots.slots.start),
                        testlib=testlib) as grader:
                return grader.grade(code, language, task, all_tests=all_tests,
                                    cpu_budget_ms=cpu_budget_ms)
    return (busy_retry or BusyRetry()).resolve(attempt, grading_is_busy)


async def grade_async(code: str, language: Language | str, problem: Problem | str,
                      **options: Any) -> GradeResult:
    """``grade`` for asyncio code: runs in a worker thread, so the event loop never blocks on
    a run. Options as for ``grade``."""
    return await asyncio.to_thread(grade, code, language, problem, **options)


# -- evaluating ----------------------------------------------------------------------------------

class IncompleteEvaluation(UserWarning):
    """`evaluate` left samples the judge could not grade out of the metrics."""


def _generation(row: Generation | Mapping[str, Any], number: int) -> Generation:
    if isinstance(row, Generation):
        return row
    return parse_row(dict(row), f"sample {number}", number)


def evaluate(samples: Iterable[Generation | Mapping[str, Any]], dataset: str | None = None, *,
             jobs: int | None = None, out: str | Path | None = None, language: str | None = None,
             skip_ungradable: bool = False, testlib: str | None = None,
             allow_unaudited: bool = False, ray: str | None = None,
             warn: Callable[[str], None] = lambda message: None) -> EvalResult:
    """`judge eval` on rows in memory: each a mapping with `judge eval`'s JSONL fields
    (`problem_id`, `completion` or `code`, optional `language` and `sample_index`) or a
    Generation. Returns the summary (`.summary`, summary.json's content) and the per-sample
    records (`.samples`). With ``out`` the results are kept there (and a second call with the
    same rows judges nothing again); without it they live in a temporary directory removed on
    return. Raises JudgeError for bad rows, a broken checker, or a host whose audit failed
    (unless ``allow_unaudited``). ``ray``: judge on a Ray cluster, as `judge eval --ray`
    ("local", "auto" or an address; an already connected Ray is used as it is). Samples the
    judge could not grade make the result incomplete (`.complete`, `.incomplete`) and emit an
    IncompleteEvaluation warning."""
    rows = [_generation(row, number) for number, row in enumerate(samples, start=1)]
    if not rows:
        raise JudgeError("no samples to evaluate")
    with ExitStack() as stack:
        slot_base = None         # on Ray: the workers' own range
        if ray is None:
            jobs = jobs if jobs is not None else slots.LIBRARY_EVALUATE.default_count()
            slot_base = stack.enter_context(_evaluate_slots.hold(jobs))
        directory = stack.enter_context(_out_dir(out))
        result = run_evaluation(EvalConfig(
            generations=rows, dataset=dataset, jobs=jobs, out=directory, language=language,
            skip_ungradable=skip_ungradable, testlib=testlib, allow_unaudited=allow_unaudited,
            slot_base=slot_base, ray=ray, progress=False, command="judge.api.evaluate"), warn=warn)
    if not result.complete:
        reasons = result.incomplete
        warnings.warn(f"judge.api.evaluate: incomplete: {len(reasons)} of {len(result.samples)} "
                      "samples are left out of the metrics, the judge could not grade them ("
                      + "; ".join(reasons[:3]) + ("; ..." if len(reasons) > 3 else "")
                      + "); the result's `incomplete` lists them", IncompleteEvaluation,
                      stacklevel=2)
    return result


async def evaluate_async(samples: Iterable[Generation | Mapping[str, Any]],
                         dataset: str | None = None, **options: Any) -> EvalResult:
    """``evaluate`` for asyncio code, in a worker thread."""
    rows = list(samples)
    return await asyncio.to_thread(evaluate, rows, dataset, **options)


@contextmanager
def _out_dir(out: str | Path | None) -> Iterator[Path]:
    if out is not None:
        yield Path(out)
        return
    with tempfile.TemporaryDirectory(prefix="judge-api-eval-") as directory:
        yield Path(directory)


__all__ = ["load_problems", "load_problem", "extract_code", "ExtractedCode",
           "functional_program", "grade", "grade_async", "evaluate", "evaluate_async",
           "Grader", "GradeResult", "TestResult", "EvalResult", "IncompleteEvaluation", "BusyRetry",
           "Generation", "Problem", "TestCase", "JudgeError"]

"""The types every part of `judge eval` shares: what is asked (EvalConfig), one program to judge
(Task), what judging it gave (Outcome), and the stored result of a judge failure (se_record)."""
from __future__ import annotations

import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from judge import JudgeError
from judge.evaluate.generations import Generation
from judge.evaluate.progress import DEFAULT_INTERVAL_S
from judge.evaluate.store import JudgmentKey
from judge.exclusion import Evidence, EvidenceKind
from judge.problems.model import Problem
from judge.verdicts import Verdict


@dataclass
class EvalConfig:
    generations: Path | Sequence[Generation]    # a JSONL/parquet file, or rows already read
    dataset: str | None = None
    jobs: int | None = None
    out: Path = Path("judge-eval-out")
    standings: Path | None = None
    ratings: Path | None = None
    testlib: str | None = None
    language: str | None = None           # of rows whose block has no language tag
    skip_ungradable: bool = False
    allow_unaudited: bool = False         # evaluate on a host whose audit failed or never ran
    slot_base: int | None = None          # default: the EVALUATION or RAY_WORKERS slots
    ray: str | None = None                # judge on Ray: "local" (start one), "auto", an address
    progress: bool = True
    progress_interval_s: float = DEFAULT_INTERVAL_S   # between plain lines when not a terminal
    command: str = ""


@dataclass
class Task:
    jk: JudgmentKey
    source: str
    language: str
    problem: Problem
    # Grader.grade's keyword options (all_tests, cpu_budget_ms): none for `judge eval`, which
    # grades to the first failing test; a reward on Ray (judge.reward) sets them.
    options: dict = field(default_factory=dict)


@dataclass
class Outcome:
    task: Task
    record: dict            # the stored result: GradeResult.to_dict()
    timing: dict            # ms: grade, compile, run, check
    finished: float
    worker: dict | None = None    # where it was graded: node, cpu, slot (stored as graded_by)


def se_record(problem: Problem, language: str, message: str) -> dict:
    """The stored result of a grading the judge failed at (SE)."""
    return {"verdict": Verdict.SE, "problem": problem.id, "language": language,
            "compile": {"status": "SE", "log": message, "cached": False, "time_ms": 0.0},
            "tests": [], "max_cpu_time_ms": 0.0, "max_memory_kb": 0,
            "time_limit_ms": 0, "memory_limit_mb": problem.memory_limit_mb, "error": message,
            # The judge raised instead of judging: its own failure, whatever the program was.
            "exclusion_evidence": Evidence(EvidenceKind.JUDGE_ERROR,
                                           message.splitlines()[0][:300]).to_dict()}


def failure_message(exc: Exception) -> str:
    """What a stored judge failure says: the exception, and where it came from unless it is
    one of the judge's own refusals."""
    message = f"{type(exc).__name__}: {exc}"
    if not isinstance(exc, JudgeError):
        message += "\n" + traceback.format_exc(limit=3)
    return message


def grading_timing(grade_ms: float, phases: dict[str, float]) -> dict[str, float]:
    """An Outcome's timing: the whole grading and each of its phases (seconds), in ms."""
    return {"grade_ms": grade_ms, **{f"{k}_ms": v * 1e3 for k, v in phases.items() if k != "total"}}

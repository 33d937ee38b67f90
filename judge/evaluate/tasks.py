"""What a phase of `judge eval` hands its workers and gets back, whichever pool runs them (the
local threads of local_pool.py or the Ray workers of ray_pool.py), and the evaluation's own
settings."""
from __future__ import annotations

import queue
import threading
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from judge import JudgeError
from judge.evaluate.generations import Generation
from judge.evaluate.progress import DEFAULT_INTERVAL_S
from judge.evaluate.store import JudgmentKey
from judge.problems.model import Problem
from judge.verdicts import Verdict

if TYPE_CHECKING:
    from judge.evaluate.provenance import Provenance
    from judge.grade import Grader


@dataclass
class Task:
    jk: JudgmentKey
    source: str
    language: str
    problem: Problem


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
            "time_limit_ms": 0, "memory_limit_mb": problem.memory_limit_mb, "error": message}


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


class PhasePool(Protocol):
    """What a phase judges on: the local threads (local_pool.LocalPool) or Ray workers
    (ray_pool.RayPhase). `results` gets an Outcome per task and one None per worker that is
    done (`workers`)."""
    label: str
    workers: int
    results: queue.SimpleQueue[Outcome | None]
    stop: threading.Event

    def start(self) -> PhasePool: ...

    def shutdown(self, timeout: float = 30.0) -> None: ...


class Workers(Protocol):
    """Where an evaluation judges: this machine's slots (local_pool.LocalWorkers) or a Ray
    cluster's workers (ray_pool.RayCluster), each checked (its audit record) before it judges."""
    provenance: Provenance       # what judged: the host's or the nodes' audit and build

    @property
    def size(self) -> int:
        """Workers of the parallel phase."""
        ...

    def validate(self, problems: list[Problem]) -> None: ...

    def pool(self, tasks: list[Task], jobs: int, phase: str) -> PhasePool: ...

    def report(self) -> dict | None: ...

    def close(self) -> None: ...


def timed_grade(grader: Grader, source: str, language: str, problem: Problem
                ) -> tuple[dict, dict, bool]:
    """Grades one program: (the record to store, its timing in ms, whether the judge failed).
    A judge failure is an SE record carrying the exception; the caller replaces its grader."""
    started = time.perf_counter()
    failed = False
    try:
        result = grader.grade(source, language, problem)
        record = result.to_dict()
        phases = getattr(result, "timings", {}) or {}
    except Exception as exc:  # the judge failed on this program: SE, judged again later
        message = f"{type(exc).__name__}: {exc}"
        if not isinstance(exc, JudgeError):
            message += "\n" + traceback.format_exc(limit=3)
        record, phases, failed = se_record(problem, language, message), {}, True
    grade_ms = (time.perf_counter() - started) * 1e3
    timing = {"grade_ms": grade_ms,
              **{f"{k}_ms": v * 1e3 for k, v in phases.items() if k != "total"}}
    return record, timing, failed

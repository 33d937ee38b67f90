"""The judge resolves its own BUSY: a run the machine starved of CPU (BUSY, with its CPU-clock
evidence) is no verdict yet, so the same work is done again, alone where the caller can arrange
it, after a pause that grows each time, until it ends in a verdict or the tries or the time run
out. Only then does a BUSY leave the judge, so a client (verl, TRL, the `sandbox-fusion`
client) meets one only when the machine stays overloaded (docs/design/6-evaluation.md §6.5,
docs/rl.md).

`judge eval` has its own form of this rule (its re-run phase, judge/evaluate/rerun.py): it
defers every BUSY sample to a serial phase at the end. Single gradings and runs (`judge serve`,
`judge.api.grade`) cannot wait for an end, so they re-run at once, here."""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from judge.compiler import CompileResult
from judge.exclusion import EvidenceKind
from judge.grade import GradeResult
from judge.single_run import ProgramOutcome
from judge.verdicts import Status, Verdict

logger = logging.getLogger(__name__)

R = TypeVar("R")


@dataclass(frozen=True)
class BusyRetry:
    """How often and how long a BUSY is tried again. `reruns`: the most re-runs after the
    first BUSY; `first_pause_s`: the pause before the first, doubled before each next one;
    `budget_s`: no re-run starts this long after the first attempt began, so a request's time
    stays bounded however loaded the machine is."""
    reruns: int = 3
    first_pause_s: float = 0.25
    budget_s: float = 30.0

    def __post_init__(self) -> None:
        if self.reruns < 0 or self.first_pause_s < 0 or self.budget_s < 0:
            raise ValueError("reruns, first_pause_s and budget_s must not be negative")

    def resolve(self, attempt: Callable[[bool], R], is_busy: Callable[[R], bool], *,
                on_rerun: Callable[[int], None] = lambda number: None,
                stop: threading.Event | None = None) -> R:
        """`attempt(alone)`'s result once it is not BUSY, or its last BUSY result. The first
        attempt is `attempt(False)`; each re-run is `attempt(True)`, which the caller runs
        alone as far as it can (no other work of its own on the machine meanwhile), announced
        to `on_rerun(number)` before its pause. `stop` set (a server shutting down) ends the
        pauses and the re-runs."""
        started = time.monotonic()
        result = attempt(False)
        pause = self.first_pause_s
        for number in range(1, self.reruns + 1):
            if not is_busy(result):
                return result
            if time.monotonic() + pause - started > self.budget_s:
                break
            on_rerun(number)
            if stop is not None:
                if stop.wait(pause):
                    break
            else:
                time.sleep(pause)
            result = attempt(True)
            pause *= 2
        if is_busy(result):
            logger.warning("still BUSY after %d re-runs in %.1f s: the machine stays overloaded",
                           self.reruns, time.monotonic() - started)
        return result


def _compile_starved(compiled: CompileResult | None) -> bool:
    """A compile the machine starved: an SE whose evidence is the CPU clock (judge.compiler)."""
    return (compiled is not None and compiled.status == "SE" and compiled.evidence is not None
            and compiled.evidence.kind == EvidenceKind.CPU_CLOCK)


def grading_is_busy(result: GradeResult) -> bool:
    """A grading that ended without a verdict because the machine starved it."""
    return result.verdict == Verdict.BUSY or (result.verdict == Verdict.SE
                                               and _compile_starved(result.compile))


def record_is_busy(record: dict) -> bool:
    """grading_is_busy of a grading's record (GradeResult.to_dict(), as Ray workers send it)."""
    evidence = record.get("exclusion_evidence") or {}
    return record.get("verdict") == Verdict.BUSY or (
        record.get("verdict") == Verdict.SE and evidence.get("kind") == EvidenceKind.CPU_CLOCK.value)


def outcome_is_busy(outcome: ProgramOutcome) -> bool:
    """A single run (or its compile) that the machine starved."""
    return ((outcome.run is not None and outcome.run.run.status == Status.BUSY)
            or _compile_starved(outcome.compile))


__all__ = ["BusyRetry", "grading_is_busy", "outcome_is_busy", "record_is_busy"]

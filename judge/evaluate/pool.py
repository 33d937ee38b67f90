"""What the orchestration (runner.py) judges on: a backend (the local slots, local_pool.py, or
a Ray cluster, ray_pool.py) checks the problems and gives each phase a pool of workers."""
from __future__ import annotations

import queue
import threading
from typing import Protocol

from judge.evaluate.provenance import Provenance
from judge.evaluate.tasks import Outcome, Task
from judge.problems.model import Problem

PARALLEL, RERUN = "parallel", "rerun"    # the phases: all tasks at once, then re-runs alone


class PhasePool(Protocol):
    """One phase's workers, given the phase's tasks when made: `start` sets them to work,
    `results` gets an Outcome per task and one None per worker that is done (`workers`), `stop`
    asks them to take no more tasks and `shutdown` ends them."""
    label: str
    workers: int
    results: queue.SimpleQueue[Outcome | None]
    stop: threading.Event

    def start(self) -> PhasePool: ...

    def shutdown(self, timeout: float = 30.0) -> None: ...


class Backend(Protocol):
    """Where the judging happens. Made before the store is opened; raises JudgeError when it
    cannot judge at all."""
    provenance: Provenance

    @property
    def size(self) -> int:
        """The workers of the parallel phase."""

    def validate(self, problems: list[Problem]) -> None:
        """validation.validate_problems where the judging happens."""

    def pool(self, tasks: list[Task], jobs: int, phase: str) -> PhasePool:
        """The workers that judge `tasks` in `phase` (PARALLEL or RERUN), `jobs` at a time."""

    def report(self) -> dict | None:
        """What summary.json says of the backend ("cluster"), if anything."""

    def close(self) -> None: ...

"""Judging on this machine: one thread per worker slot, each owning a Grader pinned to one core."""
from __future__ import annotations

import platform
import queue
import threading
import time
from collections.abc import Callable

from judge.cpus import idlest_cpu
from judge.evaluate.pool import PARALLEL
from judge.evaluate.provenance import establish
from judge.evaluate.tasks import (
    EvalConfig,
    Outcome,
    Task,
    failure_message,
    grading_timing,
    se_record,
)
from judge.evaluate.validation import validate_problems
from judge.problems.model import Problem
from judge.sandbox.slots import EVALUATION, cpu_of


class Pool:
    """``jobs`` threads, thread i owning Grader(slot=slot_base+i, cpu=cpu_of(i, cpus)). A Grader's
    supervisors die with the thread that started them (PR_SET_PDEATHSIG), so each grader lives
    and dies in its own thread."""

    def __init__(self, tasks: list[Task], jobs: int, cpus: list[int], slot_base: int,
                 testlib: str | None) -> None:
        self.label = f"{jobs} slot{'s' if jobs > 1 else ''}"
        self.tasks: queue.SimpleQueue[Task] = queue.SimpleQueue()
        for t in tasks:
            self.tasks.put(t)
        self.results: queue.SimpleQueue[Outcome | None] = queue.SimpleQueue()
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._work, name=f"judge-slot-{i}", daemon=True,
                                         args=(slot_base + i, cpu_of(i, cpus), testlib))
                        for i in range(jobs)]
        self.workers = len(self.threads)    # each puts one None on `results` when it is done

    def start(self) -> Pool:
        for t in self.threads:
            t.start()
        return self

    def _next_task(self) -> Task | None:
        try:
            return self.tasks.get_nowait()
        except queue.Empty:
            return None

    def _work(self, slot: int, cpu: int, testlib: str | None) -> None:
        from judge.grade import Grader
        grader = None
        where = {"node": platform.node(), "cpu": cpu, "slot": slot}

        def new_grader() -> Grader:
            return Grader(slot=slot, cpu=cpu, testlib=testlib)
        try:
            grader = new_grader()
            while not self.stop.is_set() and (task := self._next_task()) is not None:
                grader = self._grade(grader, task, where, new_grader)
        except Exception as exc:  # could not even create a grader: report every task as SE
            message = f"{type(exc).__name__}: {exc}"
            while (task := self._next_task()) is not None:
                self.results.put(Outcome(task, se_record(task.problem, task.language, message),
                                         {"grade_ms": 0.0}, time.monotonic(), where))
        finally:
            if grader is not None:
                try:
                    grader.close()
                except Exception:
                    pass
            self.results.put(None)   # this worker is done

    def _grade(self, grader, task: Task, where: dict, new_grader: Callable):
        """Grades one task and puts its Outcome; returns the grader to go on with (a new one
        after a judge failure)."""
        started = time.perf_counter()
        try:
            result = grader.grade(task.source, task.language, task.problem)
            record = result.to_dict()
            phases = getattr(result, "timings", {}) or {}
        except Exception as exc:  # the judge failed on this program: SE, retried later
            record, phases = se_record(task.problem, task.language, failure_message(exc)), {}
            grader.close()
            grader = new_grader()
        timing = grading_timing((time.perf_counter() - started) * 1e3, phases)
        self.results.put(Outcome(task, record, timing, time.monotonic(), where))
        return grader

    def shutdown(self, timeout: float = 30.0) -> None:
        self.stop.set()
        deadline = time.monotonic() + timeout
        for t in self.threads:
            t.join(max(0.0, deadline - time.monotonic()))


class LocalBackend:
    """This machine's evaluation slots; the first also validates the checkers, audits and
    re-runs."""

    def __init__(self, cfg: EvalConfig, languages: list[str], jobs: int, cpus: list[int],
                 warn: Callable[[str], None]) -> None:
        self.testlib = cfg.testlib
        self.jobs = jobs
        self.cpus = cpus
        self.first_slot = EVALUATION.take(jobs, cfg.slot_base).start
        self.provenance = establish(languages, self.first_slot, cfg.allow_unaudited, warn)

    @property
    def size(self) -> int:
        return self.jobs

    def validate(self, problems: list[Problem]) -> None:
        validate_problems(problems, self.first_slot, self.testlib)

    def pool(self, tasks: list[Task], jobs: int, phase: str) -> Pool:
        # Re-runs go alone to the CPU other work leaves the most room on: a run starved there
        # (BUSY) or slowed (a TLE near its limit) gets its fairest chance.
        cpus = self.cpus if phase == PARALLEL else [idlest_cpu(self.cpus, 0.3)]
        return Pool(tasks, jobs, cpus, self.first_slot, self.testlib)

    def report(self) -> None:
        return None

    def close(self) -> None:
        pass

"""`judge eval` on this machine: its worker slots (EVALUATION, or from --slot-base), checked by
the host's audit record, and each phase's pool of one thread per slot, each owning a Grader
pinned to one CPU."""
from __future__ import annotations

import platform
import queue
import threading
import time
from collections.abc import Callable

from judge.cpus import idlest_cpu
from judge.evaluate.provenance import establish
from judge.evaluate.tasks import EvalConfig, Outcome, PhasePool, Task, se_record, timed_grade
from judge.evaluate.validation import validate_problems
from judge.problems.model import Problem
from judge.sandbox.slots import EVALUATION, cpu_of


class LocalPool:
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

    def start(self) -> LocalPool:
        for t in self.threads:
            t.start()
        return self

    def _work(self, slot: int, cpu: int, testlib: str | None) -> None:
        from judge.grade import Grader
        grader = None
        where = {"node": platform.node(), "cpu": cpu, "slot": slot}
        try:
            grader = Grader(slot=slot, cpu=cpu, testlib=testlib)
            while not self.stop.is_set():
                try:
                    task = self.tasks.get_nowait()
                except queue.Empty:
                    break
                record, timing, failed = timed_grade(grader, task.source, task.language,
                                                     task.problem)
                if failed:
                    grader.close()
                    grader = Grader(slot=slot, cpu=cpu, testlib=testlib)
                self.results.put(Outcome(task, record, timing, time.monotonic(), where))
        except Exception as exc:  # could not even create a grader: report every task as SE
            message = f"{type(exc).__name__}: {exc}"
            while True:
                try:
                    task = self.tasks.get_nowait()
                except queue.Empty:
                    break
                self.results.put(Outcome(task, se_record(task.problem, task.language, message), {"grade_ms": 0.0},
                                         time.monotonic(), where))
        finally:
            if grader is not None:
                try:
                    grader.close()
                except Exception:
                    pass
            self.results.put(None)   # this worker is done

    def shutdown(self, timeout: float = 30.0) -> None:
        self.stop.set()
        deadline = time.monotonic() + timeout
        for t in self.threads:
            t.join(max(0.0, deadline - time.monotonic()))


class LocalWorkers:
    """This machine's `jobs` slots; the first also validates the checkers, runs the audit when
    the host has no record, and the re-runs."""

    def __init__(self, cfg: EvalConfig, languages: list[str], jobs: int, cpus: list[int],
                 warn: Callable[[str], None]) -> None:
        self.first_slot = EVALUATION.take(jobs, cfg.slot_base).start
        self.provenance = establish(languages, self.first_slot, cfg.allow_unaudited, warn)
        self.size = jobs
        self.cpus = cpus
        self.testlib = cfg.testlib

    def validate(self, problems: list[Problem]) -> None:
        validate_problems(problems, self.first_slot, self.testlib)

    def pool(self, tasks: list[Task], jobs: int, phase: str) -> PhasePool:
        """A phase's pool: its jobs over the usable CPUs, or a re-run alone on the CPU other
        work leaves the most room on, where a run starved (BUSY) or slowed (a TLE near its
        limit) gets its fairest chance."""
        cpus = self.cpus if phase == "parallel" else [idlest_cpu(self.cpus, 0.3)]
        return LocalPool(tasks, jobs, cpus, self.first_slot, self.testlib)

    def report(self) -> dict | None:
        return None

    def close(self) -> None:
        pass

"""Gradings on a Ray cluster for a caller that grades batch after batch on the same warm workers
(judge.reward on Ray): the eval's workers (ray_pool.JudgeWorker, each checking its node as
`judge eval --ray` does), every batch a kept phase over all of them, so every node's cores grade.

A batch's identical gradings (the same code, language, problem and options: a GRPO group often
repeats a completion) are graded once. A grading the machine starved (BUSY) is no verdict yet:
once the batch is done it is graded again on one worker while the others idle, by
judge.busy_retry's rule, so it comes back BUSY only when the cluster stayed overloaded."""
from __future__ import annotations

import json
import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from judge import __version__
from judge.busy_retry import BusyRetry, record_is_busy
from judge.evaluate.ray_pool import RayCluster
from judge.evaluate.samples import tests_hash
from judge.evaluate.store import JudgmentKey, sha256
from judge.evaluate.tasks import EvalConfig, Task
from judge.harness import harness_id
from judge.problems.model import Problem

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Grading:
    """One grading asked for: Grader.grade(code, language, problem, **options)."""
    code: str
    language: str
    problem: Problem
    options: dict[str, Any] = field(default_factory=dict)


class RayGradings:
    """A connection to a Ray cluster ("local", "auto" or an address, as `judge eval --ray`) and
    its judge workers, started on the first batch and kept until `close`. `workers`: at most
    this many (default: one per CPU, or per `judge` resource, of every node)."""

    def __init__(self, address: str, *, workers: int | None = None, slot_base: int | None = None,
                 allow_unaudited: bool = False, testlib: str | None = None,
                 busy_retry: BusyRetry | None = None) -> None:
        self.config = EvalConfig(generations=[], ray=address, slot_base=slot_base,
                                 allow_unaudited=allow_unaudited, testlib=testlib)
        self.workers = workers
        self.busy_retry = busy_retry or BusyRetry()
        self.cluster: RayCluster | None = None
        self.lock = threading.Lock()      # one batch at a time owns the workers

    def grade(self, gradings: Sequence[Grading]) -> list[dict]:
        """Each grading's result record (GradeResult.to_dict(); a judge failure of the cluster,
        a worker lost three times, is an SE record with its evidence), in order. Raises
        JudgeError when the cluster cannot be reached or no worker can start."""
        with self.lock:
            if self.cluster is None:
                self.cluster = RayCluster(self.config, [], self.workers, logger.warning)
            tasks = [_task(g) for g in gradings]
            distinct = list({t.jk.key: t for t in tasks}.values())
            records = {key: outcome.record
                       for key, outcome in self.cluster.judge_kept(distinct).items()}
            for task in distinct:
                if record_is_busy(records[task.jk.key]):
                    records[task.jk.key] = self._again_alone(task, records[task.jk.key])
            return [records[t.jk.key] for t in tasks]

    def _again_alone(self, task: Task, first: dict) -> dict:
        assert self.cluster is not None
        cluster = self.cluster

        def attempt(alone: bool) -> dict:
            if not alone:
                return first
            return cluster.judge_kept([task], workers=1)[task.jk.key].record
        return self.busy_retry.resolve(attempt, record_is_busy)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (a trainer shipping its reward functions to its own Ray workers): the
        settings travel, the connection does not; the copy makes its own on its first batch."""
        return {**self.__dict__, "cluster": None, "lock": None}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state, lock=threading.Lock())

    def close(self) -> None:
        with self.lock:
            if self.cluster is not None:
                self.cluster.close()
                self.cluster = None


def _task(grading: Grading) -> Task:
    problem = grading.problem
    limits = (f"tl={problem.time_limit_ms}ms ml={problem.memory_limit_mb}MB "
              f"{json.dumps(grading.options, sort_keys=True)}")
    code_key = sha256(grading.code, *filter(None, [harness_id(problem, grading.language)]))
    key = JudgmentKey(problem.id, tests_hash(problem), grading.language, code_key, limits,
                      __version__)
    return Task(key, grading.code, grading.language, problem, dict(grading.options))


__all__ = ["Grading", "RayGradings"]

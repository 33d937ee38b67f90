"""`judge eval`: grade many model generations, resumably, over worker slots pinned to CPU cores.

Flow of ``evaluate()``:

1. read the generations (generations.py), resolve each row's problem and language, extract the
   code (last fenced block); code a functional problem's harness cannot drive fails here
   (samples.py);
2. key every program by content (store.py); keys already final in the store are not judged
   again, identical programs are judged once; the problems' checkers are validated
   (validation.py);
3. parallel phase (phases.py): the backend's workers (pool.py: the local slots of
   local_pool.py, one thread each owning a ``Grader(slot, cpu)`` pinned to one core, or Ray
   workers, ray_pool.py) judge; grading stops at the first failing test; every result is
   committed as it arrives;
4. re-run phase: TLEs that may be noise (rerun.py ``needs_rerun``) are judged again, alone, on
   one slot; the second verdict is final;
5. metrics, ratings and the reports (summary.py, terminal.py, html_report.py).

Interrupts (Ctrl-C, SIGTERM) stop the workers; what was committed stays, what was in flight is
dropped and judged on the next run.
"""
from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from judge import JudgeError
from judge.cpus import usable_cpus
from judge.evaluate.generations import read_generations
from judge.evaluate.local_pool import LocalBackend
from judge.evaluate.phases import run_phase
from judge.evaluate.pool import PARALLEL, RERUN, Backend
from judge.evaluate.progress import EvalProgress
from judge.evaluate.ray_pool import RayCluster
from judge.evaluate.samples import Sample, prepare_samples
from judge.evaluate.standings import load_rating_map, load_standings
from judge.evaluate.store import Store, StoredResult
from judge.evaluate.summary import EvalResult, build, missing_toolchain_warnings
from judge.evaluate.tasks import EvalConfig, Task
from judge.problems.source import ProblemSource, parse_dataset
from judge.sandbox.slots import EVALUATION
from judge.verdicts import Verdict

logger = logging.getLogger(__name__)

STORE_NAME = "results.db"


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt


def evaluate(cfg: EvalConfig, warn: Callable[[str], None] = lambda m: None) -> EvalResult:
    """Runs an evaluation (see the module docstring). Bad input raises JudgeError before any
    judging starts; an interrupt raises EvalInterrupted after saving what was done."""
    from judge.languages import time_factor_overrides
    wall_started = time.monotonic()
    time_factor_overrides()
    cpus = usable_cpus()
    jobs = cfg.jobs if cfg.jobs is not None else EVALUATION.default_count(len(cpus))
    if jobs < 1:
        raise JudgeError(f"--jobs must be at least 1, got {jobs}")
    standings = load_standings(cfg.standings) if cfg.standings else None
    rating_map = load_rating_map(cfg.ratings) if cfg.ratings else None
    spec = parse_dataset(cfg.dataset)
    samples = _samples(cfg, ProblemSource(spec), warn)
    out = _output_dir(Path(cfg.out))
    languages = sorted({s.task().language for s in samples if s.jk is not None})
    backend = _backend(cfg, languages, jobs, cpus, warn)
    jobs = backend.size
    try:
        store = Store(out / STORE_NAME)
    except BaseException:
        backend.close()
        raise
    stats: dict = {"cached": 0}
    previous_handler = None
    if threading.current_thread() is threading.main_thread():
        previous_handler = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        final = _judge(cfg, store, backend, samples, jobs, stats)
    finally:
        if previous_handler is not None:
            signal.signal(signal.SIGTERM, previous_handler)
        store.close()
        backend.close()
        report = backend.report()
        if report is not None:
            stats["cluster"] = report
    stats["wall_ms"] = (time.monotonic() - wall_started) * 1e3
    stats["jobs"] = jobs
    return build(cfg, spec, samples, final, stats, standings, rating_map, out,
                 backend.provenance)


def _samples(cfg: EvalConfig, source: ProblemSource, warn: Callable[[str], None]) -> list[Sample]:
    generations = (read_generations(cfg.generations)
                   if isinstance(cfg.generations, (str, Path)) else list(cfg.generations))
    samples = prepare_samples(generations, source, default_language=cfg.language,
                              skip_ungradable=cfg.skip_ungradable)
    for s in samples:
        if s.verdict == Verdict.SKIPPED:
            warn(f"row {s.gen.row} ({s.gen.problem_id}): skipped: {s.reason}"
                 + (f" [evidence: {s.evidence}]" if s.evidence else ""))
    for line in missing_toolchain_warnings(samples):
        warn(line)
    return samples


def _output_dir(out: Path) -> Path:
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise JudgeError(f"cannot create the output directory {out}: {exc.strerror or exc}") from None
    return out


def _backend(cfg: EvalConfig, languages: list[str], jobs: int, cpus: list[int],
             warn: Callable[[str], None]) -> Backend:
    if cfg.ray is not None:
        # Every worker checks its node (the audit record) as it starts; the provenance is the
        # nodes'. Raises JudgeError, before the store exists, when no worker could start.
        return RayCluster(cfg, languages, jobs if cfg.jobs is not None else None, warn)
    return LocalBackend(cfg, languages, jobs, cpus, warn)


@dataclass
class _Plan:
    """What a run judges: every distinct program, those to judge in the parallel phase, and the
    re-runs a previous run left waiting."""
    unique: dict[str, Task]
    stored: dict[str, StoredResult]
    todo: list[Task]
    carried: list[Task]


def _plan(store: Store, samples: list[Sample]) -> _Plan:
    unique: dict[str, Task] = {}
    for s in samples:
        if s.jk is not None:
            task = s.task()
            unique.setdefault(task.jk.key, task)
    stored = store.get_many(unique)
    todo = [t for k, t in unique.items() if k not in stored or stored[k].state == "error"]
    carried = [t for k, t in unique.items() if k in stored and stored[k].state == "provisional"]
    return _Plan(unique, stored, todo, carried)


def _judge(cfg: EvalConfig, store: Store, backend: Backend, samples: list[Sample], jobs: int,
           stats: dict) -> dict[str, StoredResult]:
    """Validates the problems, runs the parallel phase and the re-runs, and returns the store's
    judgment of every distinct program."""
    stats["run_id"] = store.begin_run(jobs, cfg.command, backend.provenance.build.label)
    plan = _plan(store, samples)
    backend.validate(list({t.problem.id: t.problem for t in plan.todo + plan.carried}.values()))
    stats["cached"] = sum(1 for k in plan.unique
                          if k in plan.stored and plan.stored[k].state == "final")
    stats["unique_programs"] = len(plan.unique)
    stats["samples"] = len(samples)
    logger.info("%d rows, %d distinct programs: %d to judge, %d final in the store, %d TLE "
                "re-runs carried over", len(samples), len(plan.unique), len(plan.todo),
                stats["cached"], len(plan.carried))
    with EvalProgress(cfg.progress, cfg.progress_interval_s) as progress:
        first = run_phase(store, plan.todo, jobs, backend.pool, PARALLEL, progress, stats)
        again = [plan.unique[k] for k, v in first.items() if v["state"] == "provisional"] \
            + plan.carried
        previous = {k: v["record"]["verdict"] for k, v in first.items()}
        previous.update({t.jk.key: plan.stored[t.jk.key].verdict for t in plan.carried})
        run_phase(store, again, 1, backend.pool, RERUN, progress, stats, previous)
    store.end_run(stats.get("judged", 0), sum(stats.get("phase_wall_ms", {}).values()))
    final = store.get_many(plan.unique)
    stats["run_builds"] = store.run_builds()
    stats["recorded_throughput"] = store.judging_throughput()
    return final


__all__ = ["evaluate"]

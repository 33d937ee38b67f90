"""`judge eval`: grade many model generations, resumably, over worker slots pinned to CPU cores.

Flow of ``evaluate()``:

1. read the generations (generations.py), resolve each row's problem and language, extract the
   code by the benchmark's rule; code a functional problem's harness cannot drive fails here
   (samples.py);
2. key every program by content (store.py); keys already final in the store are not judged
   again, identical programs are judged once;
3. the workers (local_pool.LocalWorkers, or ray_pool.RayCluster with --ray) check their host,
   then the problems' checkers are validated (validation.py);
4. parallel phase: each worker slot owns a ``Grader(slot, cpu)`` pinned to one core; grading
   stops at the first failing test; every result is committed as it arrives (phases.py);
5. re-run phase: TLEs that may be noise (``needs_rerun``) are judged again, alone, on one slot;
   the second verdict is final;
6. metrics, ratings and the reports (summary.py, terminal.py, html_report.py).

Interrupts (Ctrl-C, SIGTERM) stop the workers; what was committed stays, what was in flight is
dropped and judged on the next run.
"""
from __future__ import annotations

import contextlib
import logging
import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from judge import JudgeError
from judge.cpus import usable_cpus
from judge.evaluate.generations import read_generations
from judge.evaluate.local_pool import LocalWorkers
from judge.evaluate.phases import EvalInterrupted, needs_rerun, run_phase
from judge.evaluate.progress import EvalProgress
from judge.evaluate.samples import Sample, prepare_samples
from judge.evaluate.standings import load_rating_map, load_standings
from judge.evaluate.store import Store
from judge.evaluate.summary import EvalResult, build
from judge.evaluate.tasks import EvalConfig, Task, Workers
from judge.problems.source import DatasetSpec, ProblemSource, parse_dataset
from judge.sandbox.slots import EVALUATION
from judge.verdicts import Verdict

logger = logging.getLogger(__name__)

STORE_NAME = "results.db"


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
    samples = _samples(cfg, spec, warn)
    out = _output_directory(Path(cfg.out))
    languages = sorted({s.task().language for s in samples if s.jk is not None})
    workers = _workers(cfg, languages, jobs, cpus, warn)
    try:
        store = Store(out / STORE_NAME)
    except BaseException:
        workers.close()
        raise
    stats: dict = {"cached": 0}
    with _sigterm_interrupts():
        try:
            final = _judge(cfg, store, samples, workers, stats)
        finally:
            store.close()
            workers.close()
            report = workers.report()
            if report is not None:
                stats["cluster"] = report
    stats["wall_ms"] = (time.monotonic() - wall_started) * 1e3
    stats["jobs"] = workers.size
    return build(cfg, spec, samples, final, stats, standings, rating_map, out, workers.provenance)


def _samples(cfg: EvalConfig, spec: DatasetSpec, warn: Callable[[str], None]) -> list[Sample]:
    generations = (read_generations(cfg.generations)
                   if isinstance(cfg.generations, (str, Path)) else list(cfg.generations))
    samples = prepare_samples(generations, ProblemSource(spec), default_language=cfg.language,
                              skip_ungradable=cfg.skip_ungradable)
    for s in samples:
        if s.verdict == Verdict.SKIPPED:
            warn(f"row {s.gen.row} ({s.gen.problem_id}): skipped: {s.reason}")
    return samples


def _output_directory(out: Path) -> Path:
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise JudgeError(f"cannot create the output directory {out}: {exc.strerror or exc}") from None
    return out


def _workers(cfg: EvalConfig, languages: list[str], jobs: int, cpus: list[int],
             warn: Callable[[str], None]) -> Workers:
    """This machine's slots, or a Ray cluster's workers; each checks its host (the audit record)
    as it starts, and raises JudgeError, before the store exists, when none can judge."""
    if cfg.ray is None:
        return LocalWorkers(cfg, languages, jobs, cpus, warn)
    from judge.evaluate.ray_pool import RayCluster
    return RayCluster(cfg, languages, jobs if cfg.jobs is not None else None, warn)


@contextlib.contextmanager
def _sigterm_interrupts() -> Iterator[None]:
    """SIGTERM stops the evaluation as Ctrl-C does (in the main thread, where it can)."""
    def interrupt(signum, frame):
        raise KeyboardInterrupt
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _judge(cfg: EvalConfig, store: Store, samples: list[Sample], workers: Workers,
           stats: dict) -> dict:
    """Judges what the store does not hold final, in the two phases; returns the store's
    records of every distinct program."""
    stats["run_id"] = store.begin_run(workers.size, cfg.command, workers.provenance.build.label)
    unique: dict[str, Task] = {}
    for s in samples:
        if s.jk is not None:
            unique.setdefault(s.jk.key, s.task())
    stored = store.get_many(unique)
    todo = [t for k, t in unique.items() if k not in stored or stored[k].state == "error"]
    carried = [t for k, t in unique.items() if k in stored and stored[k].state == "provisional"]
    workers.validate(list({t.problem.id: t.problem for t in todo + carried}.values()))
    stats["cached"] = sum(1 for k in unique if k in stored and stored[k].state == "final")
    stats["unique_programs"] = len(unique)
    stats["samples"] = len(samples)
    logger.info("%d rows, %d distinct programs: %d to judge, %d final in the store, %d TLE "
                "re-runs carried over", len(samples), len(unique), len(todo), stats["cached"],
                len(carried))
    with EvalProgress(cfg.progress, cfg.progress_interval_s) as progress:
        first = run_phase(store, todo, workers.size, workers.pool, "parallel", progress, stats)
        again = [unique[k] for k, v in first.items() if v["state"] == "provisional"] + carried
        previous = {k: v["record"]["verdict"] for k, v in first.items()}
        previous.update({t.jk.key: stored[t.jk.key].verdict for t in carried})
        run_phase(store, again, 1, workers.pool, "rerun", progress, stats, previous)
    store.end_run(stats.get("judged", 0), sum(stats.get("phase_wall_ms", {}).values()))
    final = store.get_many(unique)
    stats["run_builds"] = store.run_builds()
    stats["recorded_throughput"] = store.judging_throughput()
    return final


__all__ = ["evaluate", "EvalConfig", "EvalInterrupted", "needs_rerun", "prepare_samples"]

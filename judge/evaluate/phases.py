"""The phases of `judge eval`: judging every program over the workers' pool, then re-running
alone the verdicts that may be the machine's doing; every result is stored as it arrives, and an
interrupt keeps what finished cleanly."""
from __future__ import annotations

import logging
import queue
import signal
import time
from collections.abc import Callable, Iterator

from judge.evaluate.progress import EvalProgress
from judge.evaluate.store import Store
from judge.evaluate.tasks import Outcome, PhasePool, Task
from judge.verdicts import KilledBy, Verdict

logger = logging.getLogger(__name__)

RERUN_LOW, RERUN_HIGH = 0.8, 1.5


def needs_rerun(result: dict, slots: int) -> bool:
    """Whether a verdict must be confirmed by a serial re-run before it is final: a TLE when more
    than one slot was running (neighbours share caches and memory bandwidth), or a TLE whose CPU
    time was within [0.8, 1.5] x the limit (a noisy machine can push a close program over), and
    always a BUSY run (starved of CPU: no verdict yet); one that stays BUSY is reported. An
    interactive submission stopped for idleness waited for input that never came: no neighbour
    changes that, and it is not re-run."""
    if result.get("verdict") == Verdict.BUSY:
        return True
    if result.get("verdict") != Verdict.TLE:
        return False
    tle = [t for t in result.get("tests", []) if t.get("verdict") == Verdict.TLE]
    if tle and tle[-1].get("killed_by") == KilledBy.IDLE:
        return False
    if slots > 1:
        return True
    limit = result.get("time_limit_ms") or 0
    cpu = tle[-1]["cpu_time_ms"] if tle else result.get("max_cpu_time_ms", 0.0)
    return limit > 0 and RERUN_LOW * limit <= cpu <= RERUN_HIGH * limit


class EvalInterrupted(Exception):
    def __init__(self, saved: int, total: int, final: int) -> None:
        again = total - final
        super().__init__(
            f"interrupted: {saved} of {total} judgments of this run are saved, {final} of them "
            f"final; run the same command again to resume: it takes the {final} from the store "
            f"and judges the other {again} (TLEs waiting for their re-run alone, judge failures, "
            "and what was not judged yet)")
        self.saved = saved
        self.total = total
        self.final = final


def _suspicious(record: dict) -> bool:
    """A result that an interrupt may have produced: a judge failure or a program killed by
    SIGINT/SIGTERM/SIGHUP (a terminal's Ctrl-C reaches the whole process group)."""
    if record.get("verdict") == Verdict.SE:
        return True
    return any(t.get("signal") in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
               for t in record.get("tests", []))


def run_phase(store: Store, tasks: list[Task], jobs: int,
              make_pool: Callable[[list[Task], int, str], PhasePool],
              phase: str, progress: EvalProgress, stats: dict,
              previous: dict[str, str] | None = None) -> dict[str, dict]:
    """Judges `tasks` on `jobs` slots of the pool `make_pool(tasks, jobs, phase)` gives, storing
    each result as it arrives. Returns key -> what was stored."""
    done: dict[str, dict] = {}
    if not tasks:
        return done
    jobs = max(1, min(jobs, len(tasks)))
    label = "judging" if phase == "parallel" else "re-running TLEs alone"
    pool = make_pool(tasks, jobs, phase)
    bar = progress.phase(f"{label} ({pool.label})", len(tasks))
    started = time.monotonic()
    pool.start()
    try:
        for out in _outcomes(pool, bar.tick):
            done[out.task.jk.key] = _store(store, out, jobs, phase, previous)
            _count(stats, out.timing, phase)
            bar.advance()
    except KeyboardInterrupt:
        _keep_clean_results(pool, store, jobs, phase, done)
        final = sum(1 for v in done.values() if v["state"] == "final")
        raise EvalInterrupted(len(done), len(tasks), final) from None
    stats.setdefault("phase_wall_ms", {})[phase] = (time.monotonic() - started) * 1e3
    stats.setdefault("slots", {})[phase] = jobs
    return done


def _outcomes(pool: PhasePool, idle: Callable[[], None]) -> Iterator[Outcome]:
    """The pool's outcomes as they arrive, until every worker said it is done."""
    finished_workers = 0
    while finished_workers < pool.workers:
        try:
            out = pool.results.get(timeout=0.25)
        except queue.Empty:
            idle()
            continue
        if out is None:
            finished_workers += 1
        else:
            yield out


def _graded_record(out: Outcome) -> dict:
    return out.record if out.worker is None else {**out.record, "graded_by": out.worker}


def _store(store: Store, out: Outcome, jobs: int, phase: str,
           previous: dict[str, str] | None) -> dict:
    """Stores one outcome: provisional when it must be re-run alone, final otherwise, an error
    when the judge failed (judged again on the next run)."""
    rec = _graded_record(out)
    if phase == "parallel":
        state = "provisional" if needs_rerun(rec, jobs) else "final"
        first, reruns = None, 0
    else:
        state = "final"
        first, reruns = (previous or {}).get(out.task.jk.key), 1
    if rec["verdict"] == Verdict.SE:
        state = "error"
        logger.warning("%s (%s): judge failure: %s", out.task.problem.id, out.task.language,
                       rec.get("error") or rec.get("compile", {}).get("log", "")[:300])
    elif state == "provisional":
        logger.info("%s (%s): %s at %.0f ms CPU, to be re-run alone", out.task.problem.id,
                    out.task.language, rec["verdict"], rec.get("max_cpu_time_ms") or 0)
    store.put(out.task.jk, state, rec["verdict"], rec, out.timing, phase=phase,
              first_verdict=first, reruns=reruns)
    return {"state": state, "record": rec, "timing": out.timing, "first_verdict": first,
            "reruns": reruns}


def _count(stats: dict, timing: dict, phase: str) -> None:
    for k, v in timing.items():
        stats[k] = stats.get(k, 0.0) + v
    by_phase = stats.setdefault("phase_grade_ms", {})
    by_phase[phase] = by_phase.get(phase, 0.0) + timing.get("grade_ms", 0.0)
    stats["judged"] = stats.get("judged", 0) + 1
    stats[f"judged_{phase}"] = stats.get(f"judged_{phase}", 0) + 1


def _keep_clean_results(pool: PhasePool, store: Store, jobs: int, phase: str,
                        done: dict[str, dict]) -> None:
    """After an interrupt: results finishing now may come from programs or supervisors hit by
    the same Ctrl-C; keep only the clean ones, drop the rest (judged on the next run)."""
    pool.stop.set()
    pool.shutdown(timeout=20.0)
    while True:
        try:
            out = pool.results.get_nowait()
        except queue.Empty:
            break
        if out is None or _suspicious(out.record) or phase != "parallel":
            continue
        state = "provisional" if needs_rerun(out.record, jobs) else "final"
        rec = _graded_record(out)
        store.put(out.task.jk, state, rec["verdict"], rec, out.timing, phase=phase)
        done[out.task.jk.key] = {"state": state}

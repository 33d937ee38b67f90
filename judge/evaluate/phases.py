"""One judging phase: its tasks judged on a pool of workers, each result stored as it arrives;
an interrupt keeps what is clean and raises EvalInterrupted."""
from __future__ import annotations

import logging
import queue
import signal
import time
from collections.abc import Callable

from judge.evaluate.pool import PARALLEL, PhasePool
from judge.evaluate.progress import EvalProgress
from judge.evaluate.rerun import needs_rerun
from judge.evaluate.store import Store
from judge.evaluate.tasks import Outcome, Task
from judge.verdicts import Verdict

logger = logging.getLogger(__name__)

PoolFactory = Callable[[list[Task], int, str], PhasePool]


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


def _stored_record(out: Outcome) -> dict:
    return out.record if out.worker is None else {**out.record, "graded_by": out.worker}


def run_phase(store: Store, tasks: list[Task], jobs: int, make_pool: PoolFactory,
              phase: str, progress: EvalProgress, stats: dict,
              previous: dict[str, str] | None = None) -> dict[str, dict]:
    """Judges `tasks` on `jobs` slots of the pool `make_pool(tasks, jobs, phase)` gives, storing
    each result as it arrives. Returns key -> record."""
    done: dict[str, dict] = {}
    if not tasks:
        return done
    jobs = max(1, min(jobs, len(tasks)))
    label = "judging" if phase == PARALLEL else "re-running TLEs alone"
    pool = make_pool(tasks, jobs, phase)
    bar = progress.phase(f"{label} ({pool.label})", len(tasks))
    started = time.monotonic()
    pool.start()
    finished_workers = 0
    try:
        while finished_workers < pool.workers:
            try:
                out = pool.results.get(timeout=0.25)
            except queue.Empty:
                bar.tick()
                continue
            if out is None:
                finished_workers += 1
                continue
            done[out.task.jk.key] = _record(store, out, jobs, phase, previous)
            _count(stats, out, phase)
            bar.advance()
    except KeyboardInterrupt:
        _keep_clean_results(store, pool, jobs, phase, done)
        final = sum(1 for v in done.values() if v["state"] == "final")
        raise EvalInterrupted(len(done), len(tasks), final) from None
    stats.setdefault("phase_wall_ms", {})[phase] = (time.monotonic() - started) * 1e3
    stats.setdefault("slots", {})[phase] = jobs
    return done


def _record(store: Store, out: Outcome, jobs: int, phase: str,
            previous: dict[str, str] | None) -> dict:
    """Stores one outcome: final, provisional (to be re-run alone) or error (judged again on the
    next run)."""
    rec = _stored_record(out)
    if phase == PARALLEL:
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
    return {"state": state, "record": rec, "timing": out.timing,
            "first_verdict": first, "reruns": reruns}


def _count(stats: dict, out: Outcome, phase: str) -> None:
    for k, v in out.timing.items():
        stats[k] = stats.get(k, 0.0) + v
    by_phase = stats.setdefault("phase_grade_ms", {})
    by_phase[phase] = by_phase.get(phase, 0.0) + out.timing.get("grade_ms", 0.0)
    stats["judged"] = stats.get("judged", 0) + 1
    stats[f"judged_{phase}"] = stats.get(f"judged_{phase}", 0) + 1


def _keep_clean_results(store: Store, pool: PhasePool, jobs: int, phase: str,
                        done: dict[str, dict]) -> None:
    """After an interrupt: results finishing now may come from programs or supervisors hit by
    the same Ctrl-C; the clean ones are kept, the rest dropped (judged on the next run)."""
    pool.stop.set()
    pool.shutdown(timeout=20.0)
    while True:
        try:
            out = pool.results.get_nowait()
        except queue.Empty:
            break
        if out is None or _suspicious(out.record) or phase != PARALLEL:
            continue
        state = "provisional" if needs_rerun(out.record, jobs) else "final"
        rec = _stored_record(out)
        store.put(out.task.jk, state, rec["verdict"], rec, out.timing, phase=phase)
        done[out.task.jk.key] = {"state": state}

"""`judge eval`: grade many model generations, resumably, over worker slots pinned to CPU cores.

Flow of ``evaluate()``:

1. read the generations (generations.py), resolve each row's problem and language, extract the
   code (last fenced block); code a functional problem's harness cannot drive fails here;
2. key every program by content (store.py); keys already final in the store are not judged
   again, identical programs are judged once;
3. parallel phase: one thread per worker slot, each owning a ``Grader(slot, cpu)`` pinned to one
   core; grading stops at the first failing test; every result is committed as it arrives;
4. re-run phase: TLEs that may be noise (``needs_rerun``) are judged again, alone, on one slot;
   the second verdict is final;
5. metrics, ratings and the reports (summary.py, terminal.py, html_report.py).

Interrupts (Ctrl-C, SIGTERM) stop the workers; what was committed stays, what was in flight is
dropped and judged on the next run.
"""
from __future__ import annotations

import contextlib
import logging
import platform
import queue
import signal
import threading
import time
import traceback
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from judge import JudgeError, __version__
from judge.cpus import idlest_cpu, usable_cpus
from judge.evaluate.extract import language_from_tag, take_code, wanted_language
from judge.evaluate.generations import Generation, read_generations
from judge.evaluate.progress import DEFAULT_INTERVAL_S, EvalProgress
from judge.evaluate.provenance import establish
from judge.evaluate.standings import load_rating_map, load_standings
from judge.evaluate.store import JudgmentKey, Store, sha256
from judge.evaluate.summary import EvalResult, build
from judge.harness import check_tests, function_name, harness_id, is_functional
from judge.problems.model import Problem
from judge.problems.rules import BenchmarkRules, rules_for
from judge.problems.source import ProblemSource, parse_dataset
from judge.python_env import run_environment
from judge.sandbox.slots import EVALUATION, cpu_of
from judge.verdicts import KilledBy, Verdict

if TYPE_CHECKING:
    from judge.grade import Grader

logger = logging.getLogger(__name__)

RERUN_LOW, RERUN_HIGH = 0.8, 1.5
STORE_NAME = "results.db"


# ------------------------------------------------------------------------------ samples

@dataclass
class Sample:
    gen: Generation
    problem_id: str                       # canonical when the problem is known
    sample_index: int | None = None
    language: str | None = None
    problem: Problem | None = None
    source: str | None = None             # the code graded (Grader.grade adds any harness)
    jk: JudgmentKey | None = None
    verdict: Verdict | None = None        # NO_CODE / UNGRADABLE / SKIPPED before judging
    reason: str = ""
    skipped_on_request: bool = False      # --skip-ungradable: left out knowingly

    def task(self) -> Task:
        """What judging this sample means; only for a sample with a judgment key."""
        assert self.jk is not None and self.source is not None and self.language is not None \
            and self.problem is not None, f"row {self.gen.row} is not judged"
        return Task(self.jk, self.source, self.language, self.problem)


def tests_hash(problem: Problem) -> str:
    parts: list[bytes | str] = [problem.checker, str(len(problem.tests))]
    for t in problem.tests:
        parts += [t.input, t.output]
    if problem.interactor is not None:
        parts.append(problem.interactor)
    return sha256(*parts)


class _ToolchainMissing(JudgeError):
    """The language is known but cannot run on this host: the judge's shortfall, not the model's."""


def _language_of(gen: Generation, tag: str | None, default: str | None,
                 rules: BenchmarkRules) -> str:
    """The canonical language of a row (extract.wanted_language). Raises JudgeError for code in
    no language the judge runs, _ToolchainMissing for one it cannot run here."""
    from judge.languages import get_language
    wanted = wanted_language(rules, gen.language, tag, default)
    if wanted is None:
        raise JudgeError("no language given and the code block has no language tag "
                         "(--lang sets one)")
    for name in (wanted, language_from_tag(wanted)):
        if not name:
            continue
        try:
            lang = get_language(name)
        except JudgeError:
            continue
        if not lang.available:
            raise _ToolchainMissing(f"the {lang.name} toolchain is not installed here")
        return lang.name
    raise JudgeError(f"unknown language {wanted!r}")


def prepare_samples(generations: list[Generation], source: ProblemSource, *,
                    default_language: str | None = None,
                    skip_ungradable: bool = False) -> list[Sample]:
    """Resolves, extracts and keys every row. Code the judge cannot grade (no language, an
    unknown one, one the problem's harness does not take) is a failed sample (UNGRADABLE)
    unless skip_ungradable leaves it out knowingly."""
    from judge.grade import run_limits
    from judge.languages import get_language
    samples: list[Sample] = []
    hashes: dict[str, str] = {}
    for gen in generations:
        s = Sample(gen=gen, problem_id=gen.problem_id)
        samples.append(s)
        try:
            s.problem = source.get(gen.problem_id)
        except JudgeError as exc:
            s.verdict, s.reason = Verdict.SKIPPED, str(exc)
            continue
        s.problem_id = s.problem.id
        tag = None
        code: str | None
        rules = rules_for(s.problem)
        if gen.code is not None:
            code = gen.code
        else:
            block = take_code(gen.completion or "", rules)
            code, tag = (block.code, block.tag) if block else (None, None)
        try:
            s.language = _language_of(gen, tag, default_language, rules)
            language_error = None
        except JudgeError as exc:
            language_error = exc
        if code is None:
            # No code is the model's failure whatever the language: judged as such.
            s.verdict, s.reason = Verdict.NO_CODE, "the completion has no fenced code block"
            s.language = s.language or (gen.language or "unknown")
            continue
        try:
            if language_error is not None:
                raise language_error
            assert s.language is not None
            if is_functional(s.problem):
                function_name(s.problem, s.language)
            s.source = code
        except _ToolchainMissing as exc:
            s.verdict, s.reason = Verdict.SKIPPED, str(exc)
            continue
        except JudgeError as exc:
            s.language = s.language or gen.language or tag or "unknown"
            s.verdict = Verdict.SKIPPED if skip_ungradable else Verdict.UNGRADABLE
            s.reason = str(exc)
            s.skipped_on_request = skip_ungradable
            continue
        if s.problem.id not in hashes:
            hashes[s.problem.id] = tests_hash(s.problem)
        language = s.language
        assert language is not None
        limits = run_limits(s.problem, get_language(language))
        run_environment(rules.python_environment, language)   # refused here when not installed
        code_key = sha256(s.source, *filter(None, [harness_id(s.problem, s.language)]))
        s.jk = JudgmentKey(s.problem.id, hashes[s.problem.id], language, code_key,
                           f"tl={limits.time_limit_ms}ms wall={limits.wall_ms}ms "
                           f"ml={limits.memory_limit_mb}MB "
                           f"ol={limits.output_limit_mb}MB", __version__)
    _assign_indexes(samples)
    return samples


def _assign_indexes(samples: list[Sample]) -> None:
    used: dict[str, set[int]] = defaultdict(set)
    for s in samples:
        if s.problem is not None and s.gen.sample_index is not None:
            if s.gen.sample_index in used[s.problem_id]:
                raise JudgeError(f"generations row {s.gen.row}: sample index {s.gen.sample_index} "
                                 f"of {s.problem_id} appears twice")
            used[s.problem_id].add(s.gen.sample_index)
            s.sample_index = s.gen.sample_index
    nxt: dict[str, int] = defaultdict(int)
    for s in samples:
        if s.problem is not None and s.sample_index is None:
            while nxt[s.problem_id] in used[s.problem_id]:
                nxt[s.problem_id] += 1
            s.sample_index = nxt[s.problem_id]
            used[s.problem_id].add(s.sample_index)


# ------------------------------------------------------------------------------ TLE re-runs

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


# ------------------------------------------------------------------------------ workers

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


def _se_record(task: Task, message: str) -> dict:
    return se_record(task.problem, task.language, message)


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
                started = time.perf_counter()
                try:
                    result = grader.grade(task.source, task.language, task.problem)
                    record = result.to_dict()
                    phases = getattr(result, "timings", {}) or {}
                except Exception as exc:  # the judge failed on this program: SE, retried later
                    message = f"{type(exc).__name__}: {exc}"
                    if not isinstance(exc, JudgeError):
                        message += "\n" + traceback.format_exc(limit=3)
                    record, phases = _se_record(task, message), {}
                    grader.close()
                    grader = Grader(slot=slot, cpu=cpu, testlib=testlib)
                grade_ms = (time.perf_counter() - started) * 1e3
                timing = {"grade_ms": grade_ms,
                          **{f"{k}_ms": v * 1e3 for k, v in phases.items() if k != "total"}}
                self.results.put(Outcome(task, record, timing, time.monotonic(), where))
        except Exception as exc:  # could not even create a grader: report every task as SE
            message = f"{type(exc).__name__}: {exc}"
            while True:
                try:
                    task = self.tasks.get_nowait()
                except queue.Empty:
                    break
                self.results.put(Outcome(task, _se_record(task, message), {"grade_ms": 0.0},
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


# ------------------------------------------------------------------------------ checkers

def validate_problems(problems: list[Problem], slot: int, testlib: str | None,
                      grader: Grader | None = None) -> None:
    """Checks, before judging starts, what would otherwise fail every sample of a problem:
    functional tests the harness cannot read, custom checkers, each compiled once and asked
    to accept the jury's own answer to the first test, and interactors (with their checkers),
    each compiled once. Raises JudgeError naming each such
    problem. The checkers run in ``grader`` when given (a Ray worker's), else in a Grader of
    its own on ``slot``."""
    broken = []
    for problem in problems:
        if is_functional(problem):
            try:
                check_tests(problem)
            except JudgeError as exc:
                broken.append(str(exc))
    custom = [p for p in problems if (p.has_custom_checker or p.is_interactive) and p.tests]
    if custom:
        with contextlib.ExitStack() as stack:
            if grader is None:
                from judge.grade import Grader
                grader = stack.enter_context(Grader(slot=slot, testlib=testlib))
            for problem in custom:
                try:
                    if problem.interactor is not None:
                        # The checker reads the interactor's output, which no jury file holds.
                        grader.checkers.build(problem.interactor, "interactor")
                        if problem.has_custom_checker:
                            grader.checkers.build(problem.checker)
                        continue
                    refusal = _refused_jury_answer(grader.checkers, problem)
                except JudgeError as exc:
                    broken.append(f"{problem.id}: {' '.join(str(exc).split())[:300]}")
                    continue
                if refusal:
                    broken.append(f"{problem.id}: {refusal}")
    if broken:
        raise JudgeError("problems the judge cannot grade; nothing was judged: "
                         + "; ".join(broken))


def _refused_jury_answer(checkers, problem) -> str | None:
    """Why the checker cannot judge: it does not accept the jury's own answer of some test.
    Every test is tried, so that a FAIL while judging is never the jury's answer's doing and
    a FAIL the output provokes can be told from one by the jury's answer (design §4.4)."""
    for index, test in enumerate(problem.tests, 1):
        check = checkers.jury_word(problem.checker, test.input, test.output)
        if check.verdict not in ("OK", "POINTS"):
            return (f"the checker says {check.verdict} to the jury's own answer of test {index} "
                    f"({' '.join(check.message.split())[:200]})")
    return None


# ------------------------------------------------------------------------------ evaluate

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


def _suspicious(record: dict) -> bool:
    """A result that an interrupt may have produced: a judge failure or a program killed by
    SIGINT/SIGTERM/SIGHUP (a terminal's Ctrl-C reaches the whole process group)."""
    if record.get("verdict") == Verdict.SE:
        return True
    return any(t.get("signal") in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
               for t in record.get("tests", []))


class PhasePool(Protocol):
    """What a phase judges on: the local threads (Pool) or Ray workers (ray_pool.RayPhase).
    `results` gets an Outcome per task and one None per worker that is done (`workers`)."""
    label: str
    workers: int
    results: queue.SimpleQueue[Outcome | None]
    stop: threading.Event

    def start(self) -> PhasePool: ...

    def shutdown(self, timeout: float = 30.0) -> None: ...


def _local_pool(tasks: list[Task], jobs: int, phase: str, cfg: EvalConfig, cpus: list[int],
                first_slot: int) -> PhasePool:
    # Re-runs go alone to the CPU other work leaves the most room on: a run starved there
    # (BUSY) or slowed (a TLE near its limit) gets its fairest chance.
    return Pool(tasks, jobs, cpus if phase == "parallel" else [idlest_cpu(cpus, 0.3)],
                first_slot, cfg.testlib)


def _run_phase(store: Store, tasks: list[Task], jobs: int, cfg: EvalConfig,
               make_pool: Callable[[list[Task], int, str], PhasePool],
               phase: str, progress: EvalProgress, stats: dict,
               previous: dict[str, str] | None = None) -> dict[str, dict]:
    """Judges `tasks` on `jobs` slots of the pool `make_pool(tasks, jobs, phase)` gives, storing
    each result as it arrives. Returns key -> record."""
    done: dict[str, dict] = {}
    if not tasks:
        return done
    jobs = max(1, min(jobs, len(tasks)))
    label = "judging" if phase == "parallel" else "re-running TLEs alone"
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
            rec = out.record if out.worker is None else {**out.record, "graded_by": out.worker}
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
            done[out.task.jk.key] = {"state": state, "record": rec, "timing": out.timing,
                                     "first_verdict": first, "reruns": reruns}
            for k, v in out.timing.items():
                stats[k] = stats.get(k, 0.0) + v
            by_phase = stats.setdefault("phase_grade_ms", {})
            by_phase[phase] = by_phase.get(phase, 0.0) + out.timing.get("grade_ms", 0.0)
            stats["judged"] = stats.get("judged", 0) + 1
            stats[f"judged_{phase}"] = stats.get(f"judged_{phase}", 0) + 1
            bar.advance()
    except KeyboardInterrupt:
        pool.stop.set()
        # Results finishing now may come from programs or supervisors hit by the same Ctrl-C:
        # keep only the clean ones, drop the rest (they are judged on the next run).
        pool.shutdown(timeout=20.0)
        while True:
            try:
                out = pool.results.get_nowait()
            except queue.Empty:
                break
            if out is None or _suspicious(out.record) or phase != "parallel":
                continue
            state = "provisional" if needs_rerun(out.record, jobs) else "final"
            rec = out.record if out.worker is None else {**out.record, "graded_by": out.worker}
            store.put(out.task.jk, state, rec["verdict"], rec, out.timing, phase=phase)
            done[out.task.jk.key] = {"state": state}
        final = sum(1 for v in done.values() if v["state"] == "final")
        raise EvalInterrupted(len(done), len(tasks), final) from None
    stats.setdefault("phase_wall_ms", {})[phase] = (time.monotonic() - started) * 1e3
    stats.setdefault("slots", {})[phase] = jobs
    return done


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
    generations = (read_generations(cfg.generations)
                   if isinstance(cfg.generations, (str, Path)) else list(cfg.generations))
    spec = parse_dataset(cfg.dataset)
    source = ProblemSource(spec)
    samples = prepare_samples(generations, source, default_language=cfg.language,
                              skip_ungradable=cfg.skip_ungradable)
    for s in samples:
        if s.verdict == Verdict.SKIPPED:
            warn(f"row {s.gen.row} ({s.gen.problem_id}): skipped: {s.reason}")

    out = Path(cfg.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise JudgeError(f"cannot create the output directory {out}: {exc.strerror or exc}") from None
    languages = sorted({s.task().language for s in samples if s.jk is not None})
    cluster = None
    make_pool: Callable[[list[Task], int, str], PhasePool]
    if cfg.ray is not None:
        # Every worker checks its node (the audit record) as it starts; the provenance is the
        # nodes'. Raises JudgeError, before the store exists, when no worker could start.
        from judge.evaluate.ray_pool import RayCluster
        cluster = RayCluster(cfg, languages, jobs if cfg.jobs is not None else None, warn)
        provenance = cluster.provenance
        jobs = cluster.size
        make_pool = cluster.pool
    else:
        # The workers' slots; the first also validates the checkers, audits and re-runs.
        first_slot = EVALUATION.take(jobs, cfg.slot_base).start
        provenance = establish(languages, first_slot, cfg.allow_unaudited, warn)

        def make_pool(tasks: list[Task], jobs: int, phase: str) -> PhasePool:
            return _local_pool(tasks, jobs, phase, cfg, cpus, first_slot)
    try:
        store = Store(out / STORE_NAME)
    except BaseException:
        if cluster is not None:
            cluster.close()
        raise
    stats: dict = {"cached": 0}
    previous_handler = None
    if threading.current_thread() is threading.main_thread():
        previous_handler = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        stats["run_id"] = store.begin_run(jobs, cfg.command, provenance.build.label)
        judged = [s for s in samples if s.jk is not None]
        unique: dict[str, Task] = {}
        for s in judged:
            task = s.task()
            unique.setdefault(task.jk.key, task)
        stored = store.get_many(unique)
        todo = [t for k, t in unique.items() if k not in stored or stored[k].state == "error"]
        carried = [t for k, t in unique.items() if k in stored and stored[k].state == "provisional"]
        to_validate = list({t.problem.id: t.problem for t in todo + carried}.values())
        if cluster is not None:
            cluster.validate(to_validate)
        else:
            validate_problems(to_validate, first_slot, cfg.testlib)
        stats["cached"] = sum(1 for k in unique if k in stored and stored[k].state == "final")
        stats["unique_programs"] = len(unique)
        stats["samples"] = len(samples)
        logger.info("%d rows, %d distinct programs: %d to judge, %d final in the store, %d TLE "
                    "re-runs carried over", len(samples), len(unique), len(todo), stats["cached"],
                    len(carried))
        with EvalProgress(cfg.progress, cfg.progress_interval_s) as progress:
            first = _run_phase(store, todo, jobs, cfg, make_pool, "parallel", progress, stats)
            again = [unique[k] for k, v in first.items() if v["state"] == "provisional"] + carried
            previous = {k: v["record"]["verdict"] for k, v in first.items()}
            previous.update({t.jk.key: stored[t.jk.key].verdict for t in carried})
            _run_phase(store, again, 1, cfg, make_pool, "rerun", progress, stats, previous)
        store.end_run(stats.get("judged", 0), sum(stats.get("phase_wall_ms", {}).values()))
        final = store.get_many(unique)
        stats["run_builds"] = store.run_builds()
        stats["recorded_throughput"] = store.judging_throughput()
    finally:
        if previous_handler is not None:
            signal.signal(signal.SIGTERM, previous_handler)
        store.close()
        if cluster is not None:
            cluster.close()
            stats["cluster"] = cluster.report()
    stats["wall_ms"] = (time.monotonic() - wall_started) * 1e3
    stats["jobs"] = jobs
    return build(cfg, spec, samples, final, stats, standings, rating_map, out,
                        provenance)


__all__ = ["evaluate", "EvalConfig", "EvalInterrupted", "needs_rerun",
           "prepare_samples"]

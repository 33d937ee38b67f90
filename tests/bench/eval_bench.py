"""`judge eval` throughput on the embedded pack: samples judged per minute with --jobs 1 and
--jobs 2 (fresh result stores each time), with a cold compile cache and then a warm one, and the
share of the judging time spent compiling, running, checking, and in the judge's own work.

Shares: compile/run/check are the wall time the graders spent in each phase (GradeResult
timings), summed over slots; "grader other" is the rest of grade() (staging, reading outputs);
"eval overhead" is the slot-time of the judging phases not spent inside grade() (scheduling,
SQLite commits, progress), i.e. jobs x phase wall - sum of grade times.

CPU per sample: each evaluation runs in a process of its own, as `judge eval` does; its whole
CPU (the process from its start, all its threads, imports and problem loading included, plus
every child it reaped: the supervisors and, through them, everything they ran) is split into
the programs themselves (the tests' reported CPU, re-runs included), the compiles (the CPU of
the runs made to compile, checkers included), and the rest, the judge's own: its Python
process ("python", the in-process checkers included), the supervisors' own CPU, each run's
set-up before execve, the jury's programs (custom checkers, interactors) and the judge's own
subprocesses (toolchain version probes); see cpu_split. Per test: divided by the tests run.
"""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from rich.table import Table

from judge import config

ROOT = Path(__file__).resolve().parents[2]
PACK_SRC = ROOT / "problems" / "pack"
LANG = {".cpp": "cpp", ".py": "python", ".java": "java"}


def generations(path: Path) -> int:
    """Every reference and wrong solution of the pack, as model completions (one per file)."""
    rows = []
    for problem_dir in sorted(p for p in PACK_SRC.iterdir() if p.is_dir()):
        meta = json.loads((problem_dir / "problem.json").read_text())
        for f in sorted(problem_dir.iterdir()):
            lang = LANG.get(f.suffix)
            # Not solutions: the generators, a checker, an interactor. Nor idle.cpp, which
            # waits out its wall clock: seconds of nothing in a throughput figure.
            if lang is None or f.name in ("gen.py", "checker.cpp", "interactor.cpp", "idle.cpp") \
                    or f.stem.lower() in ("mle", "ce"):
                continue
            tag = {"cpp": "cpp", "python": "python", "java": "java"}[lang]
            rows.append({"problem_id": meta["problem_id"], "language": lang,
                         "completion": f"Solution:\n```{tag}\n{f.read_text()}```\n"})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return len(rows)


def _cpu_ms(who: int) -> float:
    usage = resource.getrusage(who)
    return (usage.ru_utime + usage.ru_stime) * 1e3


def _supervisor_ms(pid: int) -> tuple[float, float]:
    """A live supervisor's own CPU and its live helpers' (its spawner: ns in
    /proc/PID/task/*/schedstat), and that of the children they reaped (their runs: clock ticks
    in /proc/PID/stat), in ms."""
    own, reaped = 0.0, 0.0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            own += int((task / "schedstat").read_text().split()[0]) / 1e6
            for child in (task / "children").read_text().split():
                theirs = _supervisor_ms(int(child))
                own, reaped = own + theirs[0], reaped + theirs[1]
        except (OSError, ValueError, IndexError):
            pass
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        reaped += (int(fields[13]) + int(fields[14])) * 1e3 / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        pass
    return own, reaped


@contextmanager
def cpu_accounting():
    """Counts, over every grading (re-runs included), the tests run and their programs' reported
    CPU (`programs_ms`, `tests`); the CPU of the runs made inside Compiler._build (`compile_ms`:
    the compiles, the checkers' included); of every run (`runs_ms`) and of each run's set-up
    before execve (`setup_ms`); and each supervisor's own CPU and its runs', read as it is
    closed (`supervisors_ms`, `supervised_ms`)."""
    from judge.compiler import Compiler
    from judge.grade import Grader
    from judge.sandbox import Sandbox
    build, finish, grade, end = Compiler._build, Sandbox._finish, Grader.grade, Sandbox._end
    inside = threading.local()
    spent = dict.fromkeys(("programs_ms", "tests", "compile_ms", "runs_ms", "setup_ms",
                           "supervisors_ms", "supervised_ms"), 0.0)
    lock = threading.Lock()

    def counted_build(self, *args, **kwargs):
        inside.on = True
        try:
            return build(self, *args, **kwargs)
        finally:
            inside.on = False

    def counted_finish(self, *args, **kwargs):
        result = finish(self, *args, **kwargs)
        with lock:
            spent["runs_ms"] += result.cpu_time_ms
            spent["setup_ms"] += result.setup_cpu_ms
            if getattr(inside, "on", False):
                spent["compile_ms"] += result.cpu_time_ms
        return result

    def counted_grade(self, *args, **kwargs):
        result = grade(self, *args, **kwargs)
        with lock:
            spent["tests"] += len(result.tests)
            spent["programs_ms"] += sum(t.cpu_time_ms for t in result.tests)
        return result

    def counted_end(self, *args, **kwargs):
        if self._process is not None:
            own, reaped = _supervisor_ms(self._process.pid)
            with lock:
                spent["supervisors_ms"] += own
                spent["supervised_ms"] += reaped
        return end(self, *args, **kwargs)
    Compiler._build, Sandbox._finish = counted_build, counted_finish   # type: ignore[method-assign]
    Grader.grade, Sandbox._end = counted_grade, counted_end            # type: ignore[method-assign]
    try:
        yield spent
    finally:
        Compiler._build, Sandbox._finish = build, finish   # type: ignore[method-assign]
        Grader.grade, Sandbox._end = grade, end            # type: ignore[method-assign]


def _reap_supervisors(timeout_s: float = 30.0) -> None:
    """Waits for the supervisors closed without waiting, so that their CPU (and their runs')
    is in RUSAGE_CHILDREN."""
    from judge.sandbox import slot
    deadline = time.monotonic() + timeout_s
    while True:
        slot._reap_lingering()
        with slot._LINGERING_LOCK:
            if not slot._LINGERING or time.monotonic() > deadline:
                return
        time.sleep(0.01)


def cpu_split(samples: int, python_ms: float, children_ms: float, spent: dict) -> dict:
    """Milliseconds of CPU per sample and per test run: the programs, the compiles, and the
    judge's own: its Python process (the in-process checkers included), the supervisors' own
    CPU, each run's set-up before execve, the jury's programs (custom checkers, interactors),
    and the processes the judge started itself (toolchain version probes, git). What the
    supervisors' runs took beyond their reported CPU (a program's exit after its figures were
    read) is the programs', shown apart ("unreported")."""
    n = max(samples, 1)
    jury_ms = max(spent["runs_ms"] - spent["programs_ms"] - spent["compile_ms"], 0.0)
    unreported_ms = max(spent["supervised_ms"] - spent["runs_ms"] - spent["setup_ms"], 0.0)
    probes_ms = max(children_ms - spent["supervisors_ms"] - spent["supervised_ms"], 0.0)
    judge_ms = python_ms + spent["supervisors_ms"] + spent["setup_ms"] + jury_ms + probes_ms
    return {"tests": spent["tests"], "programs_ms": spent["programs_ms"] / n,
            "unreported_ms": unreported_ms / n, "compile_ms": spent["compile_ms"] / n,
            "python_ms": python_ms / n, "supervisors_ms": spent["supervisors_ms"] / n,
            "setup_ms": spent["setup_ms"] / n, "jury_ms": jury_ms / n, "probes_ms": probes_ms / n,
            "judge_ms": judge_ms / n, "judge_per_test_ms": judge_ms / max(spent["tests"], 1)}


def evaluate_here(gens: Path, jobs: int, cache: Path) -> dict:
    """One evaluation in this process, as `judge eval` makes it in its own: its figures, and
    the CPU it took from the start of the process (imports and the problems' loading
    included) split by cpu_split."""
    from judge.evaluate.runner import evaluate
    from judge.evaluate.tasks import EvalConfig
    with config.overridden(cache_dir=Path(cache)), cpu_accounting() as spent, \
            tempfile.TemporaryDirectory(prefix="eval-bench-") as out:
        started = time.perf_counter()
        # judging is measured, not the audit
        result = evaluate(EvalConfig(generations=gens, jobs=jobs, out=Path(out),
                                     progress=False, allow_unaudited=True))
        wall = time.perf_counter() - started
        _reap_supervisors()
    stats = result.stats
    judging_ms = sum(stats.get("phase_wall_ms", {}).values())
    slot_ms = sum(stats["phase_wall_ms"][p] * stats["slots"][p] for p in stats.get("phase_wall_ms", {}))
    grade, comp, run, check = (stats.get(k, 0.0) for k in ("grade_ms", "compile_ms", "run_ms", "check_ms"))
    return {
        "jobs": jobs, "samples": len(result.samples), "judged": stats.get("judged", 0),
        "reruns": stats.get("judged_rerun", 0), "wall_s": wall, "judging_s": judging_ms / 1e3,
        "per_min": stats.get("judged_parallel", 0) / (stats["phase_wall_ms"]["parallel"] / 6e4),
        "shares": {"compile": comp / slot_ms, "run": run / slot_ms, "check": check / slot_ms,
                   "grader other": max(grade - comp - run - check, 0.0) / slot_ms,
                   "eval overhead": max(slot_ms - grade, 0.0) / slot_ms},
        "verdicts": result.summary["verdicts"],
        "cpu": cpu_split(len(result.samples), _cpu_ms(resource.RUSAGE_SELF),
                         _cpu_ms(resource.RUSAGE_CHILDREN), spent),
    }


def measure(gens: Path, jobs: int, cache: Path) -> dict:
    """evaluate_here in a process of its own (python -m tests.bench.eval_bench)."""
    out = subprocess.run([sys.executable, "-m", "tests.bench.eval_bench", str(gens), str(jobs),
                          str(cache)], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    return json.loads(out.stdout.splitlines()[-1])


def javac_ab(console, programs: int = 8) -> None:
    """A cold Java compile, the largest cost of a cold sample: javac as the JDK starts it
    (baseline) against javac with C1 only and its class-data archive, each on distinct
    programs (a comment differs) so that no compile comes from the cache."""
    import statistics
    from dataclasses import replace

    from judge.compiler import Compiler
    from judge.languages import get_language
    java = get_language("java")
    baseline = replace(java, name="java-jdk-defaults", compile=("javac", "-J-Xmx544m", "{cls}.java"),
                       compiler_archive=False)
    source = (PACK_SRC / "balanced-brackets" / "Main.java").read_text()
    with tempfile.TemporaryDirectory(prefix="javac-bench-") as cache, \
            config.overridden(cache_dir=Path(cache)), Compiler() as compiler:
        compiler.compiler_archive(java)          # built once per toolchain, not timed
        times: dict[str, list[float]] = {"baseline": [], "judge": []}
        for i in range(programs):
            for label, language in (("baseline", baseline), ("judge", java)):
                result = compiler.compile(f"{source}\n// {label} {i}\n", language)
                assert result.status == "OK", result.log
                times[label].append(result.time_ms)
    base, ours = statistics.median(times["baseline"]), statistics.median(times["judge"])
    console.print(f"cold javac, median of {programs}: JDK defaults {base:.0f} ms, judge (C1 + "
                  f"class-data archive) {ours:.0f} ms: {ours / base:.2f}x")


def run(console) -> list[dict]:
    console.rule("judge eval throughput (embedded pack)")
    javac_ab(console)
    results = []
    with tempfile.TemporaryDirectory(prefix="eval-bench-gen-") as tmp:
        gens = Path(tmp) / "gens.jsonl"
        n = generations(gens)
        console.print(f"{n} samples: every reference/wrong solution of the pack (C++, Python, Java)")
        for jobs in (1, 2):
            cache = Path(tmp) / f"cache-{jobs}"
            for label in ("cold", "warm"):
                m = measure(gens, jobs, cache)
                m["cache"] = label
                results.append(m)
    table = Table(title="samples judged per minute (parallel phase); time shares of slot time")
    for col in ("jobs", "cache", "samples/min", "judging s", "reruns", "compile", "run",
                "check", "grader", "overhead"):
        table.add_column(col, justify="right")
    for m in results:
        sh = m["shares"]
        table.add_row(str(m["jobs"]), m["cache"], f"{m['per_min']:.0f}", f"{m['judging_s']:.1f}",
                      str(m["reruns"]), *[f"{sh[k]:.0%}" for k in ("compile", "run", "check",
                                                                   "grader other", "eval overhead")])
    console.print(table)
    console.print(f"verdicts: {results[-1]['verdicts']}")
    cpu = Table(title="CPU per sample (ms): the programs, the compiles, and the judge's own")
    for col in ("jobs", "cache", "programs", "unreported", "compiles", "python", "supervisors",
                "set-up", "jury", "probes", "judge", "judge per test"):
        cpu.add_column(col, justify="right")
    for m in results:
        c = m["cpu"]
        cpu.add_row(str(m["jobs"]), m["cache"], *[f"{c[k]:.1f}" for k in (
            "programs_ms", "unreported_ms", "compile_ms", "python_ms", "supervisors_ms",
            "setup_ms", "jury_ms", "probes_ms", "judge_ms", "judge_per_test_ms")])
    console.print(cpu)
    for cache in ("cold", "warm"):
        one = next(m for m in results if m["jobs"] == 1 and m["cache"] == cache)
        two = next(m for m in results if m["jobs"] == 2 and m["cache"] == cache)
        console.print(f"{cache} cache: --jobs 2 / --jobs 1 = {two['per_min'] / one['per_min']:.2f}x")
    return results


if __name__ == "__main__":
    if len(sys.argv) == 4:      # one evaluation, from measure()
        print(json.dumps(evaluate_here(Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3]))))
    else:
        from rich.console import Console
        run(Console())

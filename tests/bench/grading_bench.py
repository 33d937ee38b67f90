"""Grading: the 2020A reference solutions end to end (compile, run, check; cold and warm compile
cache), the in-process checkers against a checker process per test, and an interactive test's
round trip (one query through both slots) against the same programs joined by bare pipes."""
from __future__ import annotations

import os
import random
import subprocess
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from judge import config
from judge.checkers import check
from judge.grade import Grader
from judge.languages import LANGUAGES
from judge.problems.registry import resolve

PACK_SOURCES = Path(__file__).resolve().parents[2] / "problems" / "pack" / "codeforces-2020A"
CHECK_BINARY = Path(__file__).resolve().parents[2] / "judge" / "_bin" / "judge-check"
SOLUTIONS = (("cpp", "sol.cpp"), ("python", "sol.py"), ("java", "Main.java"))


def end_to_end(console: Console) -> None:
    problem = resolve("2020A")
    table = Table(title=f"judging {problem.id} ({len(problem.tests)} tests), seconds")
    for column in ("language", "cache", "verdict", "compile", "run", "check", "judge overhead", "total"):
        table.add_column(column, justify="right")
    with tempfile.TemporaryDirectory(prefix="judge-bench-cache-") as cache, \
            config.overridden(cache_dir=Path(cache)), Grader() as grader:
        if LANGUAGES["cpp"].available:
            # The precompiled header is built once per machine: not part of a cold compile.
            grader.compiler.precompiled_header(LANGUAGES["cpp"])
        for lang, name in SOLUTIONS:
            if not LANGUAGES[lang].available:
                continue
            source = (PACK_SOURCES / name).read_text()
            for cache_state in ("cold", "warm"):
                result = grader.grade(source, lang, problem)
                t = result.timings
                overhead = t["total"] - t["compile"] - t["run"] - t["check"]
                table.add_row(lang, cache_state, result.verdict,
                              *(f"{v:.3f}" for v in (t["compile"], t["run"], t["check"],
                                                     overhead, t["total"])))
    console.print(table)
    console.print("run = sandbox round trips for every test (the programs' own time included)")


def checker_throughput(console: Console) -> None:
    rng = random.Random(7)
    numbers = " ".join(str(rng.randrange(-10**18, 10**18)) for _ in range(2_500_000)).encode() + b"\n"
    size_mb = len(numbers) / 1e6
    with tempfile.TemporaryDirectory() as tmp:
        paths = [Path(tmp) / name for name in ("input", "output", "answer")]
        for path, data in zip(paths, (b"", numbers, numbers), strict=True):
            path.write_bytes(data)
        start = time.perf_counter()
        verdict = check("ncmp", b"", numbers, numbers).verdict
        in_process = time.perf_counter() - start
        start = time.perf_counter()
        subprocess.run([str(CHECK_BINARY), "ncmp", *map(str, paths)], capture_output=True)
        spawned = time.perf_counter() - start
        small = b"1 2 3\n"
        for path, data in zip(paths, (b"", small, small), strict=True):
            path.write_bytes(data)
        runs = 300
        start = time.perf_counter()
        for _ in range(runs):
            check("ncmp", b"", small, small)
        small_in = (time.perf_counter() - start) / runs
        start = time.perf_counter()
        for _ in range(runs // 10):
            subprocess.run([str(CHECK_BINARY), "ncmp", *map(str, paths)], capture_output=True)
        small_spawn = (time.perf_counter() - start) / (runs // 10)
    table = Table(title="checker throughput (ncmp)")
    for column in ("case", "in-process", "process per test", "ratio"):
        table.add_column(column, justify="right")
    table.add_row(f"{size_mb:.0f} MB output ({verdict})", f"{size_mb / in_process:.0f} MB/s",
                  f"{size_mb / spawned:.0f} MB/s", f"{spawned / in_process:.2f}x")
    table.add_row("3-number test", f"{small_in * 1e6:.0f} us", f"{small_spawn * 1e6:.0f} us",
                  f"{small_spawn / small_in:.0f}x")
    console.print(table)


SUM_SOURCE = r"""
#include <cstdio>
int main() {
    long long n, s = 0, x, work;
    if (scanf("%lld %lld", &n, &work) != 2) return 0;
    for (long long i = 0; i < n; i++) { scanf("%lld", &x); s += x; }
    volatile unsigned long long spin = 0;
    for (long long i = 0; i < work; i++) spin = spin * 31 + i;
    printf("%lld\n", s);
}
"""


def _bare_loop(binary: Path, problem, workdir: Path) -> float:
    """The same work with no sandbox: spawn, feed the input file, collect stdout, check."""
    start = time.perf_counter()
    for index, test in enumerate(problem.tests):
        stdin = workdir / f"in{index}"
        stdin.write_bytes(test.input)
        with open(stdin, "rb") as source, tempfile.TemporaryFile() as sink:
            pid = os.posix_spawn(str(binary), [str(binary)], {}, file_actions=[
                (os.POSIX_SPAWN_DUP2, source.fileno(), 0), (os.POSIX_SPAWN_DUP2, sink.fileno(), 1)])
            os.waitpid(pid, 0)
            sink.seek(0)
            assert check("ncmp", test.input, sink.read(), test.output).ok
    return time.perf_counter() - start


def hundred_tests(console: Console) -> None:
    from judge.problems.model import Problem, TestCase
    table = Table(title="a 100-test problem: judge vs a bare unsandboxed loop (spawn, run, check)")
    for column in ("work", "bare ms per test", "bare loop s", "judge s", "ratio", "target"):
        table.add_column(column, justify="right")
    rng = random.Random(3)
    with Grader() as grader:
        for label, work, target in (("empty", 0, 1.5), ("~5 ms", 4_000_000, 1.2),
                                    ("~50 ms", 40_000_000, None)):
            tests = []
            for _ in range(100):
                values = [rng.randrange(10**9) for _ in range(1000)]
                tests.append(TestCase(f"{len(values)} {work}\n{' '.join(map(str, values))}\n".encode(),
                                      f"{sum(values)}\n".encode()))
            problem = Problem("bench/sum", "sum", "", 5000, 256, "ncmp", tuple(tests))
            grader.grade(SUM_SOURCE, "cpp", Problem(**{**problem.__dict__, "tests": tests[:1]}))
            compiled = grader.compiler.compile(SUM_SOURCE, LANGUAGES["cpp"])
            with tempfile.TemporaryDirectory() as tmp:
                bare = _bare_loop(compiled.artifacts / "code.exe", problem, Path(tmp))
            result = grader.grade(SUM_SOURCE, "cpp", problem)
            assert result.verdict == "AC", result.verdict
            judged = result.timings["total"]
            table.add_row(label, f"{bare * 10:.2f}", f"{bare:.3f}", f"{judged:.3f}",
                          f"{judged / bare:.2f}x",
                          f"<= {target}x" if target else "")
    console.print(table)


def interaction_round_trip(console: Console, rounds: int = 2000) -> None:
    from judge.audit.runner import ProbeRunner
    cpp = LANGUAGES["cpp"]
    table = Table(title=f"interactive test: one query's round trip, {rounds} queries, us")
    for column in ("path", "median", "p90", "max", "vs bare", "programs' CPU a query"):
        table.add_column(column, justify="right")
    with ProbeRunner() as runner:
        test = runner.interact(cpp, rounds, 20_000, 256)
        sandboxed = sorted(int(line) / 1e3 for line in (test.output or b"").split())
        bare_run = runner.bare_round_trips(cpp, rounds)
        bare = sorted(ns / 1e3 for ns in bare_run.round_trips_ns)
        if test.verdict != "AC" or len(sandboxed) != rounds or test.interactor is None:
            console.print(f"interaction round trip: {test.verdict} {test.checker_message}")
            return
        base = bare[len(bare) // 2]
        cpu_ms = test.cpu_time_ms + test.interactor.cpu_time_ms
        for name, times, cpu in (("two sandbox slots, relayed", sandboxed, cpu_ms),
                                 ("bare pipes", bare, bare_run.cpu_ms)):
            median = times[len(times) // 2]
            table.add_row(name, f"{median:.1f}", f"{times[int(0.9 * len(times))]:.1f}",
                          f"{times[-1]:.1f}", f"{median / base:.1f}x", f"{cpu * 1e3 / rounds:.1f}")
    console.print(table)
    console.print("timed by the interactor on its own clock, from before its write to after "
                  "its read of the answer; both paths pinned to the same CPU; the CPU is both "
                  "programs' whole runs (start-up included) over the queries")


def run(console: Console) -> None:
    end_to_end(console)
    hundred_tests(console)
    checker_throughput(console)
    interaction_round_trip(console)

"""Runs the audit's probe programs through the grading path itself: the language profile, the
Compiler (sandboxed, cached), the Grader's staging and its run slot with the language's policy
and `run_limits(problem, language)`. Also runs the same builds outside the sandbox, pinned to
the same CPU, to compare CPU time with the kernel's rusage of a bare run."""
from __future__ import annotations

import os
import resource
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from judge import JudgeError, config
from judge.grade import Grader, TestResult, run_limits
from judge.languages import LANGUAGES, Language
from judge.problems.model import Problem, TestCase
from judge.sandbox import Limits, RunResult
from judge.sandbox.environment import SANDBOX_PATH
from judge.sandbox.slots import AUDIT

PROGRAMS = Path(__file__).resolve().parent / "programs"
# Every language with a probe program (its entry's `probe`): the same time and memory modes
# (cpu MS, mem MB, sleep MS), each reading its own CPU clock; only C++ also has the isolation
# modes, and C++ and Java a thread count. Verilog has none: a simulation can read only
# simulated time.
SOURCES = {name: language.probe for name, language in LANGUAGES.items() if language.probe}
# The interaction probes: a C++ program that echoes, against an interactor that times it.
ECHO, ROUND_TRIP_INTERACTOR = "echo.cpp", "round_trip_interactor.cpp"
# A slot of its own (judge/sandbox/slots.py): the audit's host-side checks look for processes
# of this slot's uid.
AUDIT_SLOT = AUDIT.first


@dataclass(frozen=True)
class BareInteraction:
    """The interaction probe on bare pipes: each round trip as the interactor timed it, and
    the CPU both programs used (their rusage once reaped)."""
    round_trips_ns: list[int]
    cpu_ms: float
OUTPUT_CAPTURE = 64 * 1024


def broken_switches() -> set[str]:
    """Test-only: JUDGE_AUDIT_BREAK=memory makes the audit's runs use a memory limit 4x the one
    the probes are judged against, so that the audit must catch it and fail."""
    return set(config.current().audit_break)


def probe_source(language: str) -> str:
    return (PROGRAMS / SOURCES[language]).read_text()


@dataclass
class ProbeRun:
    """One sandboxed run of a probe: what the sandbox said, what the program printed, and the
    limits it was judged against."""
    result: RunResult
    output: bytes
    limits: Limits            # the limits the grading path used (the language's scaled ones)
    verdict: str              # the Grader's verdict (AC when the output was just "ok"; the
                              # spinners also print their own CPU time, so theirs is WA)

    @property
    def text(self) -> str:
        return self.output.decode(errors="replace")


class ProbeRunner:
    """`runner.run(cpp, "cpu 250 1", time_limit_ms=500, memory_limit_mb=256)`."""

    def __init__(self, slot: int = AUDIT_SLOT, cpu: int | None = None) -> None:
        self.grader = Grader(slot=slot, cpu=cpu)
        self.broken = broken_switches()
        self.runs = 0

    def close(self) -> None:
        self.grader.close()

    def __enter__(self) -> ProbeRunner:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- facts about the slot ----------------------------------------------------------------
    @property
    def sandbox(self):
        return self.grader.sandbox

    @property
    def cpu(self) -> int:
        return self.sandbox.cpu

    @property
    def box(self) -> Path:
        return self.grader.box

    def problem(self, time_limit_ms: int, memory_limit_mb: int, inputs: list[str]) -> Problem:
        """The problem a probe is graded as. The limits are the ones the probe is judged
        against, unless a test-only break switch is on."""
        if "memory" in self.broken:
            memory_limit_mb *= 4
        return Problem(id="audit/probe", title="judge audit probe", statement="",
                       time_limit_ms=time_limit_ms, memory_limit_mb=memory_limit_mb,
                       checker="wcmp",
                       tests=tuple(TestCase(text.encode() + b"\n", b"ok\n") for text in inputs))

    def judged_limits(self, language: Language, time_limit_ms: int, memory_limit_mb: int) -> Limits:
        """The limits a verdict is judged against: exactly what grading would use."""
        return run_limits(Problem(id="audit/probe", title="", statement="",
                                  time_limit_ms=time_limit_ms, memory_limit_mb=memory_limit_mb,
                                  checker="wcmp", tests=()), language)

    def compile(self, language: Language):
        compiled = self.grader.compiler.compile(probe_source(language.name), language)
        if compiled.status != "OK":
            raise JudgeError(f"the {language.name} probe does not build ({compiled.status}): "
                             f"{compiled.log.strip()[:500]}")
        return compiled

    def run_many(self, language: Language, inputs: list[str], *, time_limit_ms: int,
                 memory_limit_mb: int) -> list[ProbeRun]:
        """Grades the probe with one test per input, every test run (like --all-tests)."""
        problem = self.problem(time_limit_ms, memory_limit_mb, inputs)
        graded = self.grader.grade(probe_source(language.name), language, problem,
                                   all_tests=True, keep_output=True)
        if graded.compile.status != "OK":
            raise JudgeError(f"the {language.name} probe does not build: {graded.compile.log[:500]}")
        limits = run_limits(problem, language)
        self.runs += len(graded.tests)
        runs = []
        for test in graded.tests:
            assert test.run is not None, "a program that built has a run for every test"
            runs.append(ProbeRun(test.run, (test.output or b"")[:OUTPUT_CAPTURE], limits, test.verdict))
        return runs

    def run(self, language: Language, stdin: str, *, time_limit_ms: int,
            memory_limit_mb: int) -> ProbeRun:
        return self.run_many(language, [stdin], time_limit_ms=time_limit_ms,
                             memory_limit_mb=memory_limit_mb)[0]

    def interact(self, language: Language, rounds: int, time_limit_ms: int,
                 memory_limit_mb: int) -> TestResult:
        """Grades the echo program against the round-trip interactor (`rounds` round trips);
        the test's output is the interactor's output file, one round trip's ns a line."""
        problem = Problem(id="audit/interaction", title="judge audit interaction probe",
                          statement="", time_limit_ms=time_limit_ms,
                          memory_limit_mb=memory_limit_mb, checker="",
                          tests=(TestCase(f"{rounds}\n".encode(), b""),),
                          interactor=(PROGRAMS / ROUND_TRIP_INTERACTOR).read_text())
        graded = self.grader.grade((PROGRAMS / ECHO).read_text(), language, problem,
                                   keep_output=True)
        if graded.compile.status != "OK" or not graded.tests:
            raise JudgeError(f"the interaction probe does not build: {graded.compile.log[:500]}")
        self.runs += 1
        return graded.tests[0]

    def bare_round_trips(self, language: Language, rounds: int,
                         timeout_s: float = 60) -> BareInteraction:
        """The same interaction outside the sandbox, both programs pinned to the slot's CPU and
        joined by two plain pipes: the round trips' ns, as the interactor timed them, and the
        CPU both programs used."""
        source = (PROGRAMS / ECHO).read_text()
        echo = self.grader.compiler.compile(source, language)
        interactor = self.grader.checkers.build((PROGRAMS / ROUND_TRIP_INTERACTOR).read_text(),
                                                "interactor")
        assert echo.artifacts is not None and interactor.artifacts is not None
        cpu = self.cpu
        with tempfile.TemporaryDirectory(prefix="judge-audit-") as work:
            (Path(work) / "input.txt").write_text(f"{rounds}\n")
            to_interactor, to_program = os.pipe(), os.pipe()
            def pin() -> None:
                os.sched_setaffinity(0, {cpu})
            program = subprocess.Popen(language.run_argv(source), cwd=echo.artifacts,
                                       stdin=to_program[0], stdout=to_interactor[1],
                                       stderr=subprocess.DEVNULL, preexec_fn=pin)
            judge = subprocess.Popen([str(interactor.artifacts / "code.exe"), "input.txt",
                                      "tout.txt"], cwd=work, stdin=to_interactor[0],
                                     stdout=to_program[1], stderr=subprocess.DEVNULL,
                                     preexec_fn=pin)
            for fd in (*to_interactor, *to_program):
                os.close(fd)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            try:
                judge.wait(timeout=timeout_s)
                program.wait(timeout=timeout_s)
            finally:
                judge.kill()
                program.kill()
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu_s = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
            return BareInteraction([int(line) for line in
                                    (Path(work) / "tout.txt").read_text().split()], cpu_s * 1e3)

    # -- outside the sandbox -------------------------------------------------------------------
    def bare_cpu_ms(self, language: Language, stdin: str, timeout_s: float = 60) -> float:
        """CPU time (user+sys of every thread and reaped child, from wait4's rusage) of the same
        build run outside the sandbox, pinned to the slot's CPU."""
        compiled = self.compile(language)
        argv = language.run_argv(probe_source(language.name))
        cpu = self.cpu
        with tempfile.TemporaryFile() as data:
            data.write(stdin.encode() + b"\n")
            data.seek(0)
            process = subprocess.Popen(
                argv, cwd=compiled.artifacts, stdin=data, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, env={"PATH": SANDBOX_PATH,
                                                "HOME": "/tmp", "LANG": "C.UTF-8"},
                preexec_fn=lambda: os.sched_setaffinity(0, {cpu}))
            deadline = time.monotonic() + timeout_s
            while True:
                pid, status, usage = os.wait4(process.pid, os.WNOHANG)
                if pid:
                    break
                if time.monotonic() > deadline:
                    process.kill()
                    pid, status, usage = os.wait4(process.pid, 0)
                    break
                time.sleep(0.005)
            process.returncode = os.waitstatus_to_exitcode(status)
        return (usage.ru_utime + usage.ru_stime) * 1000.0

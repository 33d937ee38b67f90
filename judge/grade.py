"""Grading one submission: compile, run the tests in order under the problem's limits, check
each output, and give the verdict with its figures (docs/design/4-verdicts.md §4.3 grading, §5)."""
from __future__ import annotations

import dataclasses
import os
import shutil
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from judge import JudgeError
from judge.checkers.interaction_verdict import InteractiveVerdict, interaction_verdict
from judge.checkers.interactor import Interaction, InteractorRunner
from judge.compiler import Compiler, CompileResult
from judge.exclusion import Evidence, EvidenceKind, attribute
from judge.harness import PYTHON_LANGUAGES, check_tests, is_functional, wrap_source
from judge.languages import Language, Profile, get_language
from judge.languages.python_env import (
    COMPATIBLE_ENVIRONMENT,
    missing_module_hint,
    run_environment,
)
from judge.ownership import ThreadOwner
from judge.problems.model import Problem, TestCase
from judge.problems.rules import TimeRule, rules_for
from judge.run_evidence import weigh_busy, weigh_run
from judge.sandbox import Limits, RunResult, Sandbox
from judge.sandbox.slots import COMMAND, cpu_of, interactor_slot
from judge.sandbox.verdict import describe_end
from judge.single_run import (
    Captured,
    ProgramOutcome,
    ScratchBox,
    SingleRunner,
    read_from_start,
)
from judge.verdicts import JUDGE_FAILURES, Status, Verdict

STDERR_TAIL_BYTES = 2048


@dataclass(frozen=True)
class TestResult:
    index: int
    verdict: Verdict
    cpu_time_ms: float
    wall_time_ms: float
    memory_kb: int
    exit_code: int | None
    signal: int | None
    checker_message: str
    run: RunResult | None = field(default=None, repr=False, compare=False)   # the sandbox's figures
    output: bytes | None = field(default=None, repr=False, compare=False)    # with keep_output
    # An interactive test's interactor: its figures, never counted as the submission's.
    interactor: RunResult | None = field(default=None, compare=False)
    # The last STDERR_TAIL_BYTES of a failed test's stderr (a traceback, an assertion): why it
    # ended. Empty for a test that passed. Text from the submission: escape it wherever shown.
    stderr_tail: str = ""
    # Why an SE, FAIL or BUSY is not the submission's doing (judge.exclusion); None otherwise.
    evidence: Evidence | None = field(default=None, compare=False)

    def to_dict(self) -> dict:
        return {"index": self.index, "verdict": self.verdict, "cpu_time_ms": self.cpu_time_ms,
                "wall_time_ms": self.wall_time_ms, "memory_kb": self.memory_kb,
                "exit_code": self.exit_code, "signal": self.signal,
                "checker_message": self.checker_message,
                "killed_by": self.run.killed_by if self.run else None,
                "stderr_tail": self.stderr_tail,
                "exclusion_evidence": self.evidence.to_dict() if self.evidence else None,
                "interactor": interactor_figures(self.interactor) if self.interactor else None}


@dataclass
class GradeResult:
    verdict: Verdict
    problem: str
    language: str
    compile: CompileResult
    tests: list[TestResult] = field(default_factory=list)
    time_limit_ms: int = 0
    memory_limit_mb: int = 0
    wall_time_limit_ms: int = 0
    time_rule: TimeRule = TimeRule.CPU_SCALED
    # Wall seconds the judge spent in each phase: "compile", "run" (sandbox round trips),
    # "check" and "total" (everything grade() did, the judge's own work included).
    timings: dict = field(default_factory=dict)
    # Why the verdict, when it is SE, FAIL or BUSY, is not the submission's doing: the evidence
    # of the compile or of the test that decided it (judge.exclusion).
    exclusion_evidence: Evidence | None = None

    @property
    def judge_failure(self) -> bool:
        """No verdict on the submission (SE, FAIL, BUSY: the judge, the jury or the machine
        failed it): an evaluation leaves it out of its metrics, and nobody may score it."""
        return self.verdict in JUDGE_FAILURES

    @property
    def max_cpu_time_ms(self) -> float:
        return max((t.cpu_time_ms for t in self.tests), default=0.0)

    @property
    def max_memory_kb(self) -> int:
        return max((t.memory_kb for t in self.tests), default=0)

    def to_dict(self) -> dict:
        return {
            "verdict": self.verdict, "judge_failure": self.judge_failure,
            "exclusion_evidence": (self.exclusion_evidence.to_dict()
                                   if self.exclusion_evidence else None),
            "problem": self.problem, "language": self.language, "compile": self.compile.to_dict(),
            "tests": [t.to_dict() for t in self.tests],
            "max_cpu_time_ms": self.max_cpu_time_ms, "max_memory_kb": self.max_memory_kb,
            "time_limit_ms": self.time_limit_ms, "wall_time_limit_ms": self.wall_time_limit_ms,
            "time_rule": self.time_rule.value, "memory_limit_mb": self.memory_limit_mb,
            "timings": {phase: round(seconds, 4) for phase, seconds in self.timings.items()},
        }


def interactor_figures(run: RunResult) -> dict:
    return {"status": run.status, "exit_code": run.exit_code, "signal": run.signal,
            "cpu_time_ms": run.cpu_time_ms, "wall_time_ms": run.wall_time_ms,
            "memory_kb": run.memory_kb}


def run_limits(problem: Problem, language: Language, run_time_limit_ms: int | None = None) -> Limits:
    """A test's limits under the problem's benchmark's time rule (judge/problems/rules.py).
    `run_time_limit_ms`: the run's own limit as a caller gave it (SandboxFusion's run_timeout),
    taken as it is instead of the problem's limit and the language's time factor, and, as
    SandboxFusion's is, a wall-clock limit (with the CPU held to it too)."""
    if run_time_limit_ms is not None or rules_for(problem).time_rule is TimeRule.WALL:
        limit = problem.time_limit_ms if run_time_limit_ms is None else run_time_limit_ms
        return Limits(time_limit_ms=limit, wall_time_limit_ms=limit,
                      memory_limit_mb=problem.memory_limit_mb)
    cpu = max(1, round(problem.time_limit_ms * language.time_factor))
    return Limits(time_limit_ms=cpu, memory_limit_mb=problem.memory_limit_mb)


class Grader:
    """A reusable grading slot: one compile sandbox, one run sandbox, one checker sandbox, all on
    `slot` (judge/sandbox/slots.py), and for interactive problems an interactor sandbox on the
    slot's interactor slot, pinned to the same CPU.

    With `scratch`, it also runs single programs and commands (run_program, run_command) in a
    scratch sandbox on the same slot, whose /box is a tmpfs of that size (judge/single_run.py).

    Like a Sandbox, a Grader belongs to the thread that creates it: from any other thread,
    grade, sandbox and close raise a JudgeError. To grade in parallel, give each thread its own
    Grader on its own slot."""

    def __init__(self, slot: int = COMMAND.first, cpu: int | None = None,
                 testlib: str | None = None, scratch: ScratchBox | None = None) -> None:
        self._owner = ThreadOwner("Grader")
        self._scratch = scratch
        self._single: SingleRunner | None = None
        self.slot = slot
        self.interactor_slot = interactor_slot(slot)
        self.cpu = cpu_of(slot) if cpu is None else cpu   # its interactors' too (§4.5)
        self.compiler = Compiler(slot=slot, cpu=self.cpu)
        self._work = Path(tempfile.mkdtemp(prefix="judge-grade-"))
        self._box = self._work / "box"
        self._box.mkdir()
        os.chmod(self._box, 0o755)
        self._runner: Sandbox | None = None
        self._interactors: InteractorRunner | None = None
        self._checked_functional: dict[int, Problem] = {}
        from judge.checkers.runner import CheckerRunner
        self.checkers = CheckerRunner(self.compiler, slot=slot, cpu=self.cpu, testlib=testlib)

    def close(self) -> None:
        self._owner.check()
        try:
            if self._single is not None:
                self._single.close()
        finally:
            self._close_grading()

    def _close_grading(self) -> None:
        if self._runner is not None:
            self._runner.close()
        if self._interactors is not None:
            self._interactors.close()
        self.checkers.close()
        self.compiler.close()
        shutil.rmtree(self._work, ignore_errors=True)

    def __enter__(self) -> Grader:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def box(self) -> Path:
        """The run slot's /box on the host side."""
        return self._box

    @property
    def sandbox(self) -> Sandbox:
        """The slot the tests run in."""
        return self._sandbox()

    def _sandbox(self) -> Sandbox:
        self._owner.check()
        if self._runner is None:
            self._runner = Sandbox(box=self._box, slot=self.slot, cpu=self.cpu).start()
        return self._runner

    def warm(self) -> None:
        """Starts the slot's sandboxes and runs a trivial program in each, and builds the C++
        precompiled headers of both profiles (once per machine, then cached), so that the first
        grading or run finds them ready."""
        if self._scratch is not None:
            result = self._single_runner().sandbox().run(["/bin/true"], Limits(time_limit_ms=5000))
            if result.status != "OK":
                raise JudgeError(f"the slot's sandbox cannot run /bin/true: {result}")
        self.sandbox.run(["/bin/true"], Limits(time_limit_ms=5000))
        for profile in Profile:
            cpp = get_language("cpp", profile)
            if cpp.available:
                self.compiler.precompiled_header(cpp)

    def run_program(self, source: str, language: Language, limits: Limits, *, stdin: bytes,
                    files: dict[str, bytes], fetch: list[str],
                    compile_time_limit_ms: int | None = None) -> ProgramOutcome:
        """Compiles `source` (unless a script) and runs it once under `limits` in the scratch
        box holding `files`; returns the compile, and the run with its stdout, stderr and the
        `fetch` files it left. compile_time_limit_ms: the compile's wall-clock limit, within
        the judge's own (judge.compiler.compile_limits)."""
        return self._single_runner().run_program(source, language, limits, stdin=stdin,
                                                 files=files, fetch=fetch,
                                                 compile_time_limit_ms=compile_time_limit_ms)

    def run_command(self, argv: list[str], limits: Limits, *, stdin: bytes,
                    files: dict[str, bytes], fetch: list[str], policy: str) -> Captured:
        """`judge exec` in the scratch box: any command of the sandbox's read-only root."""
        return self._single_runner().run_command(argv, limits, stdin=stdin, files=files,
                                                 fetch=fetch, policy=policy)

    def _single_runner(self) -> SingleRunner:
        self._owner.check()
        if self._scratch is None:
            raise JudgeError("this Grader was made without a scratch box: it runs no single "
                             "programs")
        if self._single is None:
            self._single = SingleRunner(self.compiler, self.slot, self.cpu, self._scratch)
        return self._single

    def _stage(self, artifacts: Path) -> None:
        for child in self._box.iterdir():
            shutil.rmtree(child) if child.is_dir() else child.unlink()
        for item in artifacts.iterdir():
            target = self._box / item.name
            try:
                os.link(item, target)
            except FileExistsError:
                # Someone else staged here: the name may be a hard link into the compile cache,
                # and a copy onto it would write another program into that cache entry.
                raise
            except OSError:
                shutil.copy2(item, target)   # no link across file systems, or links refused

    def _check_functional_tests(self, problem: Problem) -> None:
        if self._checked_functional.get(id(problem)) is not problem:
            check_tests(problem)
            self._checked_functional[id(problem)] = problem

    def _test(self, test: TestCase, argv: list[str], limits: Limits, lang: Language,
              checker: str, timings: dict, keep_output: bool, env: dict[str, str]) -> _Outcome:
        output_fd = os.memfd_create("output", os.MFD_CLOEXEC)
        stderr_fd = os.memfd_create("stderr", os.MFD_CLOEXEC)
        try:
            def attempt(command: Sequence[str]) -> RunResult:
                for fd in (output_fd, stderr_fd):
                    os.ftruncate(fd, 0)
                    os.lseek(fd, 0, os.SEEK_SET)
                mark = time.perf_counter()
                try:
                    return self._sandbox().run(list(command), limits, stdin=test.input,
                                               stdout=output_fd, stderr=stderr_fd, env=env,
                                               policy=lang.policy.name)
                finally:
                    timings["run"] += time.perf_counter() - mark

            weighed = (weigh_run(attempt(argv), argv, attempt, retried=False)
                       or weigh_run(attempt(argv), argv, attempt, retried=True))
            assert weighed is not None, "a retried run is always weighed"
            run = weighed.run
            output = None
            if run.status == Status.OK or keep_output:
                output = read_from_start(output_fd)
            if run.status != Status.OK:
                return _Outcome(Verdict(run.status), describe_end(run), run, output,
                                stderr_tail=_tail(stderr_fd), evidence=weighed.evidence)
            assert output is not None
            outcome = self._check(checker, test, output, run, timings)
            if outcome.verdict == Verdict.AC:
                return outcome            # a passed test keeps no stderr: none is read
            return dataclasses.replace(outcome, stderr_tail=_tail(stderr_fd))
        finally:
            os.close(output_fd)
            os.close(stderr_fd)

    def _check(self, checker: str, test: TestCase, output: bytes, run: RunResult,
               timings: dict, interactor: RunResult | None = None) -> _Outcome:
        mark = time.perf_counter()
        check = self.checkers.check_output(checker, test.input, output, test.output)
        timings["check"] += time.perf_counter() - mark
        return _Outcome(check.test_verdict, check.message, run, output, interactor,
                        evidence=check.evidence)

    def _interactive_test(self, interactor: str, test: TestCase, argv: list[str], limits: Limits,
                          lang: Language, checker: str, timings: dict) -> _Outcome:
        """The submission against the interactor; then, when the interactor accepts and the
        problem has a checker, the checker on the interactor's output file. An SE is weighed
        as any run's (judge.run_evidence), the interaction done once more when asked."""
        if self._interactors is None:
            self._interactors = InteractorRunner(self.checkers, slot=self.interactor_slot,
                                                 cpu=self.cpu)
        interactors = self._interactors

        def interact() -> tuple[Interaction, InteractiveVerdict]:
            mark = time.perf_counter()
            interaction = interactors.interact(interactor, test.input, test.output,
                                               self._sandbox(), argv, limits, lang.policy.name)
            timings["run"] += time.perf_counter() - mark
            return interaction, interaction_verdict(interaction)

        interaction, decided = interact()
        outcome = self._weigh_interaction(interaction, decided, argv, limits, lang, retried=False)
        if outcome is None:
            interaction, decided = interact()
            outcome = self._weigh_interaction(interaction, decided, argv, limits, lang,
                                              retried=True)
        assert outcome is not None, "a retried interaction is always weighed"
        if outcome.verdict != Verdict.AC or not checker:
            return outcome
        return self._check(checker, test, interaction.output, decided.submission, timings,
                           interaction.interactor)

    def _weigh_interaction(self, interaction: Interaction, decided: InteractiveVerdict,
                           argv: list[str], limits: Limits, lang: Language, *,
                           retried: bool) -> _Outcome | None:
        """The interaction's outcome with the evidence for an SE or BUSY; None to do it again."""
        program, jury = decided.submission, interaction.interactor
        verdict, message, evidence = decided.verdict, decided.message, decided.evidence

        def control(command: Sequence[str]) -> RunResult:
            return self._sandbox().run(list(command), limits, policy=lang.policy.name)

        if verdict == Verdict.BUSY:
            busy = program if program.status == Status.BUSY else jury
            evidence = weigh_busy(busy).evidence
        elif verdict == Verdict.SE and program.status == Status.SE:
            weighed = weigh_run(program, argv, control, retried=retried)
            if weighed is None:
                return None
            program, evidence = weighed.run, weighed.evidence
            verdict, message = Verdict(program.status), describe_end(program)
        elif verdict == Verdict.SE:
            if not retried:
                return None
            evidence = Evidence(EvidenceKind.JURY_PROGRAM,
                                f"the interactor's run failed in the sandbox in two interactions, "
                                f"the submission's did not: {jury.error}")
        return _Outcome(verdict, message, program, interaction.output, jury, evidence=evidence)

    def _graded_test(self, index: int, test: TestCase, problem: Problem, plan: _TestPlan,
                     timings: dict[str, float]) -> TestResult:
        """Test `index` of `problem` run, checked and attributed (a no-verdict stands only on
        its evidence)."""
        if problem.interactor is not None:
            outcome = self._interactive_test(problem.interactor, test, plan.argv, plan.limits,
                                             plan.lang, plan.checker, timings)
        else:
            outcome = self._test(test, plan.argv, plan.limits, plan.lang, plan.checker, timings,
                                 plan.keep_output, plan.env)
        run = outcome.run
        stands = attribute(outcome.verdict, outcome.message, outcome.evidence)
        verdict, message = stands.verdict, stands.message
        if verdict == Verdict.RE and plan.lang.name in PYTHON_LANGUAGES:
            hint = missing_module_hint(plan.python_environment, outcome.stderr_tail)
            message = f"{message}; {hint}" if hint and message else hint or message
        return TestResult(index, verdict, run.cpu_time_ms, run.wall_time_ms, run.memory_kb,
                          run.exit_code, run.signal, message, run=run,
                          output=_kept(outcome.output, plan.keep_output, plan.kept_output_limit),
                          interactor=outcome.interactor, stderr_tail=outcome.stderr_tail,
                          evidence=stands.evidence)

    def grade(self, source: str, language: Language | str, problem: Problem, *,
              all_tests: bool = False, checker: str | None = None,
              keep_output: bool = False, kept_output_limit: int | None = None,
              run_time_limit_ms: int | None = None,
              compile_time_limit_ms: int | None = None,
              cpu_budget_ms: float | None = None) -> GradeResult:
        """Grades `source` (the submission as written: for a functional problem, the class or
        function, which grade() runs inside the functional harness). keep_output: each
        TestResult also carries the program's stdout (memory: the outputs of every test run),
        only its first kept_output_limit bytes when that is given (the checker sees it all).
        run_time_limit_ms: each test's time limit as given (run_limits).
        compile_time_limit_ms: the compile's wall-clock limit, within the judge's own.
        cpu_budget_ms: the CPU all tests together may take (an RL reward's cost bound): once
        the tests run so far took it, no further test runs, and a grading that was passing is
        TLE (its tests say how far it got)."""
        self._owner.check()
        started = time.perf_counter()
        lang = get_language(language) if isinstance(language, str) else language
        if not lang.available:
            raise JudgeError(f"the {lang.name} toolchain is not installed here")
        if is_functional(problem):
            self._check_functional_tests(problem)
        source = wrap_source(lang.source_text(source), problem, lang.name)
        rules = rules_for(problem)
        benchmark_env = run_environment(rules.python_environment, lang.name)
        env = {**lang.env, **benchmark_env}
        # Whose modules a failed import is told against: the benchmark's, else the compatible
        # profile's, else the standard library's.
        python_environment = (rules.python_environment if benchmark_env
                              else COMPATIBLE_ENVIRONMENT if lang.libraries else "stdlib")
        limits = run_limits(problem, lang, run_time_limit_ms)
        compiled = self.compiler.compile(source, lang, time_limit_ms=compile_time_limit_ms)
        timings = {"compile": time.perf_counter() - started, "run": 0.0, "check": 0.0}
        result = GradeResult(Verdict.AC, problem.id, lang.name, compiled,
                             time_limit_ms=limits.time_limit_ms,
                             wall_time_limit_ms=limits.wall_ms, time_rule=rules.time_rule,
                             memory_limit_mb=limits.memory_limit_mb, timings=timings)
        if compiled.status != "OK":
            # A compile's SE without evidence is the source's own doing: a CE.
            proven = compiled.status == "SE" and compiled.evidence is not None
            result.verdict = Verdict.SE if proven else Verdict.CE
            result.exclusion_evidence = compiled.evidence if proven else None
            timings["total"] = time.perf_counter() - started
            return result
        assert compiled.artifacts is not None, "a compile that succeeded has its artifacts"
        self._stage(compiled.artifacts)
        plan = _TestPlan(lang.run_argv(source), limits, lang, checker or problem.checker, env,
                         python_environment, keep_output, kept_output_limit)
        for index, test in enumerate(problem.tests, start=1):
            tested = self._graded_test(index, test, problem, plan, timings)
            result.tests.append(tested)
            verdict = tested.verdict
            if verdict != Verdict.AC and result.verdict == Verdict.AC:
                result.verdict = verdict
                result.exclusion_evidence = tested.evidence
                if not all_tests:
                    break
            spent = sum(t.cpu_time_ms for t in result.tests)
            if cpu_budget_ms is not None and spent >= cpu_budget_ms and index < len(problem.tests):
                if result.verdict == Verdict.AC:
                    result.verdict = Verdict.TLE
                break
        timings["total"] = time.perf_counter() - started
        return result


@dataclass(frozen=True)
class _TestPlan:
    """How each test of one grading runs and is checked."""
    argv: list[str]
    limits: Limits
    lang: Language
    checker: str
    env: dict[str, str]
    python_environment: str
    keep_output: bool
    kept_output_limit: int | None


@dataclass(frozen=True)
class _Outcome:
    verdict: Verdict
    message: str
    run: RunResult
    output: bytes | None
    interactor: RunResult | None = None
    stderr_tail: str = ""
    evidence: Evidence | None = None


def _tail(fd: int) -> str:
    """The last STDERR_TAIL_BYTES of what the program wrote to `fd`, as text."""
    size = os.fstat(fd).st_size
    os.lseek(fd, max(0, size - STDERR_TAIL_BYTES), os.SEEK_SET)
    return os.read(fd, STDERR_TAIL_BYTES).decode("utf-8", "replace")


def _kept(output: bytes | None, keep: bool, limit: int | None) -> bytes | None:
    if not keep or output is None:
        return None
    return output if limit is None else output[:limit]

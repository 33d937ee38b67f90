"""Picks and runs the checker a problem names: testlib's standard checkers in-process, a
benchmark's own comparison, or a custom checker compiled and run in the sandbox.

A custom checker is built against the judge's own testlib.h (judge/checkers/testlib), or
against a real testlib checkout when one is given (--testlib / JUDGE_TESTLIB); either way
the header's directory is seen in the compile sandbox at TESTLIB_INSIDE."""
from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from dataclasses import replace
from pathlib import Path

from judge import JudgeError
from judge.checkers import CheckResult, check, checker_names, is_checker
from judge.checkers.dataset_comparators import DATASET_COMPARATORS
from judge.compiler import CompileResult
from judge.exclusion import Evidence, EvidenceKind
from judge.languages import LANGUAGES
from judge.problems.model import is_checker_source
from judge.sandbox import Limits, RunResult, Sandbox
from judge.sandbox.slots import COMMAND
from judge.verdicts import CHECKER_EXIT_VERDICTS, CheckerVerdict, Status

CHECKER_LIMITS = Limits(time_limit_ms=10_000, memory_limit_mb=1024, output_limit_mb=1,
                        stderr_limit_mb=1)
TESTLIB_INSIDE = "/judge/testlib"
JUDGE_TESTLIB = Path(__file__).resolve().parent / "testlib"
KEPT_BUILDS = 4
KEPT_JURY_WORDS = 1024
PROVOKED_FAIL = "the checker failed on this output but accepts the jury's answer: "
# The jury's answer is no valid output (an answer file that holds only the optimum, say): the
# checker rejects it without failing, so the FAIL still came from this output.
PROVOKED_FAIL_REJECTED = "the checker failed on this output but not on the jury's answer ({}): "


class CheckerRunner:
    def __init__(self, compiler, slot: int = COMMAND.first, cpu: int | None = None,
                 testlib: str | None = None) -> None:
        self.compiler = compiler
        self.slot = slot
        self.cpu = cpu
        self.testlib = Path(testlib).resolve() if testlib else JUDGE_TESTLIB
        if not (self.testlib / "testlib.h").is_file():
            raise JudgeError(f"no testlib.h in {self.testlib}")
        self._work: Path | None = None
        self._box: Path | None = None
        self._sandbox: Sandbox | None = None
        self._staged: Path | None = None
        # The last programs built, by source: every test of a problem checks with the same
        # checker (and talks to the same interactor).
        self._builds: dict[str, CompileResult] = {}
        self._jury_words: dict[bytes, CheckResult] = {}

    def close(self) -> None:
        if self._sandbox is not None:
            self._sandbox.close()
            self._sandbox = None
        if self._work is not None:
            shutil.rmtree(self._work, ignore_errors=True)
            self._work = self._box = None

    def check(self, checker: str, input: bytes, output: bytes, answer: bytes) -> CheckResult:
        if checker in DATASET_COMPARATORS:
            word, message = DATASET_COMPARATORS[checker](input, output, answer)
            verdict = CheckerVerdict(word)
            return CheckResult(verdict, 0 if verdict == CheckerVerdict.OK else 1, message)
        if is_checker(checker):
            return check(checker, input, output, answer)
        if is_checker_source(checker):
            return self._run_custom(checker, input, output, answer)
        raise JudgeError(f"unknown checker {checker!r} (testlib's: {', '.join(checker_names())}; "
                         f"benchmarks': {', '.join(DATASET_COMPARATORS)}; or a checker's source)")

    def check_output(self, checker: str, input: bytes, output: bytes, answer: bytes) -> CheckResult:
        """The checker's final word on a submission's output, weighed against its word on the
        jury's answer (docs/design/4-verdicts.md §4.4), so that no output leaves the metrics or
        scores by how it breaks the checker. A FAIL stands only when the checker fails on the jury's
        answer given as the output too (whatever the output, the jury's data is at fault), and
        then carries that as its evidence; any other FAIL came from the output and is WA, the
        checker's FAIL line kept in the message. A checker the sandbox failed to run (SE or
        BUSY) is asked once more, and stands only when it fails to run again. Points are full
        marks only when they are the jury answer's."""
        said = self._word(checker, input, output, answer)
        if said.verdict not in (CheckerVerdict.FAIL, CheckerVerdict.POINTS) or said.judge_error:
            return said
        jury = self.jury_word(checker, input, answer)
        if jury.judge_error:
            return jury     # no word on the jury's answer: the sandbox's failure stands
        if said.verdict == CheckerVerdict.POINTS:
            return replace(said, full_points=jury.points
                           if jury.verdict == CheckerVerdict.POINTS else None)
        if jury.verdict == CheckerVerdict.FAIL:
            return replace(said, evidence=Evidence(
                EvidenceKind.JURY_DATA, "the checker fails on the jury's own answer given as the "
                f"output too: {_one_line(jury.message)}"))
        prefix = (PROVOKED_FAIL if jury.verdict in (CheckerVerdict.OK, CheckerVerdict.POINTS)
                  else PROVOKED_FAIL_REJECTED.format(_one_line(jury.message)))
        return CheckResult(CheckerVerdict.WA, 1, prefix + said.message,
                           raw_message=said.raw_message)

    def jury_word(self, checker: str, input: bytes, answer: bytes) -> CheckResult:
        """The checker's word on the jury's answer given as the output, kept for the tests
        of the last problems checked (a points problem asks it once per test)."""
        key = hashlib.blake2b(b"\0".join((checker.encode(), input, answer)), digest_size=16).digest()
        word = self._jury_words.get(key)
        if word is None:
            word = self._word(checker, input, answer, answer)
            if not word.judge_error:
                if len(self._jury_words) >= KEPT_JURY_WORDS:
                    self._jury_words.pop(next(iter(self._jury_words)))
                self._jury_words[key] = word
        return word

    def _word(self, checker: str, input: bytes, output: bytes, answer: bytes) -> CheckResult:
        """check(), asked once more when the sandbox failed to run the checker (SE or BUSY: no
        word on the output at all); a second such failure stands, with that as its evidence."""
        said = self.check(checker, input, output, answer)
        if not said.judge_error:
            return said
        again = self.check(checker, input, output, answer)
        if not again.judge_error:
            return again
        return replace(again, evidence=Evidence(
            EvidenceKind.JURY_PROGRAM, "the checker's run failed in the sandbox twice: "
            f"{_one_line(said.message)}; {_one_line(again.message)}"))

    def build(self, source: str, what: str = "checker") -> CompileResult:
        """Compiles a testlib program (a checker or an interactor) in the compile sandbox;
        raises JudgeError when it does not compile."""
        compiled = self._builds.get(source)
        if compiled is None:
            language = replace(LANGUAGES["cpp"], name=what,
                               compile=("g++", "-std=c++17", "-O2", "-I", TESTLIB_INSIDE,
                                        "-o", "code.exe", "code.cpp"))
            compiled = self.compiler.compile(
                source, language, binds=((str(self.testlib), TESTLIB_INSIDE),),
                bound_content=(self.testlib / "testlib.h").read_bytes())
            if compiled.status == "OK":   # an SE is the judge's failure, worth another try
                if len(self._builds) >= KEPT_BUILDS:
                    self._builds.pop(next(iter(self._builds)))
                self._builds[source] = compiled
        if compiled.status != "OK":
            raise JudgeError(f"the {what} does not compile: {_first_error(compiled.log)}")
        return compiled

    def _run_custom(self, source: str, input: bytes, output: bytes, answer: bytes) -> CheckResult:
        compiled = self.build(source)
        if self._work is None:
            # The box is open to the sandbox's uid, its parent (mkdtemp's 0700) to no one else
            # on the host: the answers and the checker stay private to the judge.
            self._work = Path(tempfile.mkdtemp(prefix="judge-checker-"))
            self._box = self._work / "box"
            self._box.mkdir(mode=0o755)
            self._sandbox = Sandbox(box=self._box, slot=self.slot, cpu=self.cpu).start()
        box, sandbox = self._box, self._sandbox
        assert box is not None and sandbox is not None and compiled.artifacts is not None
        if self._staged != compiled.artifacts:
            shutil.copy2(compiled.artifacts / "code.exe", box / "checker")
            os.chmod(box / "checker", 0o755)
            self._staged = compiled.artifacts
        for name, data in (("input.txt", input), ("output.txt", output), ("answer.txt", answer)):
            (box / name).write_bytes(data)
            os.chmod(box / name, 0o644)
        messages = os.memfd_create("checker-stderr", os.MFD_CLOEXEC)
        try:
            run = sandbox.run(["./checker", "input.txt", "output.txt", "answer.txt"],
                                    CHECKER_LIMITS, stderr=messages)
            os.lseek(messages, 0, os.SEEK_SET)
            raw = os.read(messages, 1 << 16)
        finally:
            os.close(messages)
        return testlib_result(run, raw, "checker")


def exited_on_its_own(run: RunResult) -> bool:
    """Whether a testlib program ended by exiting, so that its exit code is its word."""
    return run.status in (Status.OK, Status.RE) and run.exit_code is not None


def testlib_result(run: RunResult, raw: bytes, what: str) -> CheckResult:
    """What a testlib program's run says: its exit code and the line it wrote to stderr. A run
    that did not end by exiting (killed, past its limits, refused a call) is FAIL; one the
    sandbox failed (SE) or the machine starved (BUSY) is a FAIL with judge_error: no word."""
    message = raw.decode(errors="replace").strip()
    if not exited_on_its_own(run):
        ended = run.error or (f"killed by {run.killed_by}" if run.killed_by else
                              f"signal {run.signal}" if run.signal else "")
        return CheckResult(CheckerVerdict.FAIL, 3, f"{what} {run.status}: {ended or message}",
                           judge_error=run.status in (Status.SE, Status.BUSY))
    code = run.exit_code
    assert code is not None, "a program that exited has an exit code"
    verdict = CHECKER_EXIT_VERDICTS.get(code, CheckerVerdict.FAIL)
    points = _points(message) if verdict == CheckerVerdict.POINTS else None
    return CheckResult(verdict, code, message, points=points, raw_message=raw)


def _one_line(text: str, limit: int = 300) -> str:
    return " ".join(text.split())[:limit]


def _first_error(log: str) -> str:
    """The compiler's first error, on one line (the whole log is the problem's to read)."""
    lines = [line.strip() for line in log.splitlines() if line.strip()]
    first = next((line for line in lines if "error" in line), lines[0] if lines else "no message")
    return " ".join(first.split())[:300]


def _points(message: str) -> float | None:
    """The score of a points result: testlib prints it first, "points 0.5 partial"."""
    words = message.split()
    try:
        return float(words[1]) if len(words) > 1 and words[0] == "points" else None
    except ValueError:
        return None

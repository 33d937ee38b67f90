"""One test of an interactive problem: the submission and the problem's interactor run at the
same time, each in a slot of its own, the submission's stdout piped to the interactor's stdin
and the interactor's stdout to the submission's stdin (docs/design/4-verdicts.md §4.5).

The interactor is dataset content, so as untrusted as the submission: it is built in the
compile sandbox against the judge's testlib.h (or the given checkout), and runs in its own
slot, whose /box is a tmpfs holding the test's input, its answer and the output file the
interactor writes (testlib's `tout`). The two slots share nothing but the two pipes: neither
program sees the other's files or processes.

Each supervisor relays its program's stdout into the pipe, so a program that writes after the
other has ended never dies of SIGPIPE at a moment the scheduler picked: its bytes are counted
as undelivered and the run goes on to its own end.

Each interaction gives the interactor a fresh secret, with which the judge's testlib.h records
on its stderr when the interactor first read the submission's output: the evidence that an
interactor's failure was the jury's (judge.checkers.stream_marks,
docs/design/4-verdicts.md §4.5)."""
from __future__ import annotations

import dataclasses
import errno
import os
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from judge import JudgeError
from judge.checkers import CheckResult
from judge.checkers.runner import CheckerRunner, testlib_result
from judge.checkers.stream_marks import MARK_ENV, Marks, new_secret, read_stderr, take_marks
from judge.sandbox import Limits, RunResult, Sandbox, box_files

# The interactor's own limits, fixed and generous: its CPU is never the submission's. Its wall
# clock runs past the submission's, so that of two programs waiting on each other the
# submission is stopped first and the interactor then sees the end of its input.
INTERACTOR_CPU_MS = 10_000
INTERACTOR_MEMORY_MB = 1024
INTERACTOR_OUTPUT_MB = 64          # what it writes to the submission, and the size of `tout`
INTERACTOR_BOX_MB = 512            # its tmpfs /box: input, answer and tout
MESSAGE_LIMIT = 1 << 16
# An interactor's points have no jury answer to be weighed against: full marks are 1, the
# 0-to-1 scale of testlib's points (docs/design/4-verdicts.md §4.5).
INTERACTOR_FULL_POINTS = 1.0
# The build's directory is bound read-only here (a tmpfs box never runs what is in it).
BUILD_INSIDE = "/interactor"
INPUT, OUTPUT, ANSWER = "input.txt", "tout.txt", "answer.txt"


@dataclass(frozen=True)
class Interaction:
    """What one test's interaction gave: both runs' figures, the interactor's word on the
    submission (FAIL when the interactor itself failed), its output file, and what the judge's
    testlib header recorded of its reading of the submission's output (None: no record, as
    with a real testlib; judge.checkers.stream_marks)."""
    submission: RunResult
    interactor: RunResult
    verdict: CheckResult
    output: bytes
    marks: Marks | None = None


# An interactive submission's wall clock runs this many times its usual one (max(2 x TL,
# TL + 1 s)): it shares its CPU with the interactor, and each query costs both programs a few
# switches and each supervisor a relay. Only a submission that waits for nothing is stopped by it.
INTERACTIVE_WALL_FACTOR = 2


def submission_limits(limits: Limits) -> Limits:
    return dataclasses.replace(limits, wall_time_limit_ms=INTERACTIVE_WALL_FACTOR * limits.wall_ms)


def interactor_limits(submission: Limits) -> Limits:
    return Limits(time_limit_ms=INTERACTOR_CPU_MS, memory_limit_mb=INTERACTOR_MEMORY_MB,
                  wall_time_limit_ms=submission.wall_ms + INTERACTOR_CPU_MS,
                  output_limit_mb=INTERACTOR_OUTPUT_MB, file_size_limit_mb=INTERACTOR_OUTPUT_MB,
                  stderr_limit_mb=1)


class InteractorRunner:
    """The interactor's slot, beside a Grader's run slot: a slot number of its own (the two
    programs are alive at once, so they must not share a uid: judge/sandbox/slots.py) on the
    same CPU (the two programs take turns, and a query's answer goes to a CPU that is already
    awake)."""

    def __init__(self, checkers: CheckerRunner, *, slot: int, cpu: int) -> None:
        self.checkers = checkers
        self.slot = slot
        self.cpu = cpu
        self._sandbox: Sandbox | None = None
        self._build: Path | None = None       # the build the slot sees at BUILD_INSIDE

    def close(self) -> None:
        if self._sandbox is not None:
            self._sandbox.close()
            self._sandbox = None
            self._build = None

    def interact(self, source: str, input: bytes, answer: bytes, submission: Sandbox,
                 argv: list[str], limits: Limits, policy: str) -> Interaction:
        """Runs argv in `submission` (under `limits`, its wall clock stretched by
        submission_limits, and `policy`) against the interactor built from `source`, on one
        test (its input and its answer)."""
        limits = submission_limits(limits)
        compiled = self.checkers.build(source, "interactor")
        assert compiled.artifacts is not None
        sandbox = self._slot_for(compiled.artifacts)
        box = sandbox.empty_box()
        try:
            box_files.write_file(box, [INPUT], input)
            box_files.write_file(box, [ANSWER], answer)
        except OSError as exc:
            if exc.errno == errno.ENOSPC:
                raise JudgeError("the test does not fit in the interactor's box "
                                 f"({INTERACTOR_BOX_MB} MiB)") from None
            raise
        messages = os.memfd_create("interactor-stderr", os.MFD_CLOEXEC)
        secret = new_secret()
        stderr_limit = int(interactor_limits(limits).stderr_limit_mb * (1 << 20))
        try:
            submission_run, interactor_run = self._run_both(sandbox, submission, argv, limits,
                                                            policy, messages, secret)
            marks, raw = take_marks(read_stderr(messages, stderr_limit), secret, stderr_limit)
        finally:
            os.close(messages)
        output = _read_regular_file(box, OUTPUT, INTERACTOR_OUTPUT_MB << 20)
        said = dataclasses.replace(testlib_result(interactor_run, raw[:MESSAGE_LIMIT], "interactor"),
                                   full_points=INTERACTOR_FULL_POINTS)
        return Interaction(submission_run, interactor_run, said, output, marks)

    def _run_both(self, sandbox: Sandbox, submission: Sandbox, argv: list[str], limits: Limits,
                  policy: str, messages: int, secret: str) -> tuple[RunResult, RunResult]:
        with ExitStack() as ours:
            # Our copies of the pipes' ends close once both supervisors hold theirs: an end
            # left open here would keep the other program from ever seeing the end of input.
            to_interactor = os.pipe2(os.O_CLOEXEC)
            to_submission = os.pipe2(os.O_CLOEXEC)
            for fd in (*to_interactor, *to_submission):
                ours.callback(os.close, fd)
            program = submission.begin(argv, limits, stdin=to_submission[0],
                                       stdout=to_interactor[1], policy=policy, interactive=True)
            try:
                interactor = sandbox.begin([f"{BUILD_INSIDE}/code.exe", INPUT, OUTPUT, ANSWER],
                                           interactor_limits(limits), stdin=to_interactor[0],
                                           stdout=to_submission[1], stderr=messages,
                                           env={MARK_ENV: secret}, interactive=True)
            except BaseException:
                ours.close()
                program.wait()
                raise
        try:
            ended = program.wait()
        except BaseException:
            interactor.wait()   # its input ended with the submission's slot: it ends too
            raise
        return ended, interactor.wait()

    def _slot_for(self, build: Path) -> Sandbox:
        """The interactor's slot, seeing `build`: another interactor costs a new slot."""
        if self._build != build:
            self.close()
        if self._sandbox is None:
            self._sandbox = Sandbox(slot=self.slot, cpu=self.cpu, box_tmpfs_mb=INTERACTOR_BOX_MB,
                                    binds=((str(build), BUILD_INSIDE),)).start()
            self._build = build
        return self._sandbox


def _read_regular_file(box: int, name: str, limit: int) -> bytes:
    """The interactor's output file, read without following a link it may have planted in its
    place (the box is the judge's, seen from the host); missing or not a file reads as empty."""
    fd = box_files.open_regular_file(box, [name])
    if fd is None:
        return b""
    with open(fd, "rb") as reader:
        return reader.read(limit)

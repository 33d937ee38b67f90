"""testlib's standard checkers, run in-process through the C core (native/checkers/checkers.c).

``check(name, input, output, answer)`` behaves like running testlib's ``checkers/<name>.cpp``
binary on three files: same verdict, same exit code (0 OK, 1 WA, 2 PE, 3 FAIL, 7 points) and the
same message ("ok 3 numbers", "wrong answer 2nd numbers differ - expected: '5', found: '6'").
The only difference: messages name the streams "input", "output" and "answer" where the
binary shows the file paths (e.g. "FAIL Unexpected end of file - int64 expected (answer)").

The call releases the GIL and copies nothing: the buffers are handed to C as they are.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

from judge import JudgeError
from judge.exclusion import Evidence
from judge.verdicts import CHECKER_EXIT_VERDICTS, TEST_VERDICT_OF_CHECKER, CheckerVerdict, Verdict

_MESSAGE_CAP = 1 << 15  # testlib caps a message at 32000 chars (plus its prefix)

Buffer = bytes | bytearray | memoryview


@dataclass(frozen=True)
class CheckResult:
    verdict: CheckerVerdict
    exit_code: int          # testlib's exit code
    message: str            # testlib's message, e.g. "ok 3 numbers" (bytes that are not UTF-8 replaced)
    points: float | None = None  # for POINTS results that carry a number (pointscmp)
    raw_message: bytes = field(default=b"", repr=False, compare=False)  # the message's exact bytes
    # Full marks for a points result: the points the checker gives the jury's own answer
    # (judge.checkers.runner), or 1 for an interactor (judge.checkers.interaction_verdict).
    full_points: float | None = None
    # The sandbox failed to run the checker (SE), or the machine starved it (BUSY): no word on
    # the output at all.
    judge_error: bool = False
    # For a FAIL: what shows it is the jury's and not the output's doing (judge.exclusion).
    # CheckerRunner.check_output sets it on every FAIL it returns (a FAIL without it came from
    # the output and is returned as WA); a bare check() leaves it None.
    evidence: Evidence | None = None

    @property
    def ok(self) -> bool:
        return self.verdict == "OK"

    @property
    def test_verdict(self) -> Verdict:
        """What a test gets for this word (a checker's or an interactor's): points are AC only
        at exactly full marks, else WA (docs/design/4-verdicts.md §4.4)."""
        if self.verdict == CheckerVerdict.POINTS:
            return Verdict.AC if self.has_full_marks else Verdict.WA
        return TEST_VERDICT_OF_CHECKER[self.verdict]

    @property
    def has_full_marks(self) -> bool:
        return (self.points is not None and self.full_points is not None
                and math.isclose(self.points, self.full_points, rel_tol=1e-9, abs_tol=1e-9))


@functools.cache
def checker_names() -> tuple[str, ...]:
    """testlib's standard checkers, as native/checkers/checker_list.h lists them (read from
    judge._native)."""
    native = _native()
    ffi, lib = native.ffi, native.lib
    return tuple(ffi.string(lib.judge_checker_names[i]).decode()
                 for i in range(lib.judge_checker_count))


def is_checker(name: str) -> bool:
    return name in checker_names()


def _native():
    try:
        from judge import _native as native
    except ImportError as exc:  # pragma: no cover - depends on the build
        raise JudgeError("the native module judge._native is not built (run `make native` or "
                         "`pip install -e .`)") from exc
    return native


def _as_buffer(value: Buffer | str, what: str):
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, (bytes, bytearray, memoryview)):
        return value
    raise TypeError(f"{what} must be bytes, got {type(value).__name__}")


def check(name: str, input: Buffer | str, output: Buffer | str, answer: Buffer | str) -> CheckResult:
    """Runs testlib's checker `name` on (input, output, answer) and returns its result."""
    if not is_checker(name):
        raise JudgeError(f"unknown checker {name!r} (known: {', '.join(checker_names())})")
    native = _native()
    ffi, lib = native.ffi, native.lib
    bufs = [_as_buffer(v, w) for v, w in ((input, "input"), (output, "output"), (answer, "answer"))]
    ptrs = []
    sizes = []
    for b in bufs:
        size = b.nbytes if isinstance(b, memoryview) else len(b)
        sizes.append(size)
        ptrs.append(ffi.from_buffer(b) if size else ffi.NULL)
    message = ffi.new("char[]", _MESSAGE_CAP)
    points = ffi.new("double *")
    code = lib.judge_check(name.encode(), ptrs[0], sizes[0], ptrs[1], sizes[1], ptrs[2], sizes[2],
                           message, _MESSAGE_CAP, points)
    raw = ffi.string(message)
    verdict = CHECKER_EXIT_VERDICTS.get(code, CheckerVerdict.FAIL)
    value = points[0]
    return CheckResult(
        verdict=verdict,
        exit_code=code,
        message=raw.decode("utf-8", errors="replace"),
        points=value if verdict == CheckerVerdict.POINTS and not math.isnan(value) else None,
        raw_message=raw,
    )

"""Every status and verdict the judge speaks, in one place: what a run was (Status, decided by
judge.sandbox.verdict.classify), what stopped it (KilledBy), what a checker said
(CheckerVerdict, from testlib's exit codes) and what a submission or test got (Verdict). They
are str enums: JSON, SQLite and comparisons with plain strings see the same text as before."""
from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    """A sandboxed run's outcome."""
    OK = "OK"
    TLE = "TLE"
    MLE = "MLE"
    OLE = "OLE"     # past the output limit
    RE = "RE"
    RF = "RF"       # a refused system call
    SE = "SE"       # the judge failed, not the program
    # Stopped by the wall clock while starved of CPU by other work on the machine: the judge
    # could not tell whether the program fits its limit (re-run it on a quieter machine).
    BUSY = "BUSY"


class KilledBy(StrEnum):
    """What stopped a run. The supervisor's stops are native/shared/protocol.h's PROTOCOL_KILLED_BY,
    by the same names (tests/test_protocol.py holds them together); CPU_RLIMIT and IDLE are the
    judge's own conclusions."""
    CPU_TIMER = "cpu-timer"
    CPU_RLIMIT = "cpu-rlimit"
    WALL_TIMER = "wall-timer"
    MEMORY = "memory"
    OUTPUT = "output"
    SECCOMP = "seccomp"
    # An interactive test's submission stopped by the wall clock while it and the interactor
    # waited on each other (judge.checkers.interaction_verdict).
    IDLE = "idle"


class CheckerVerdict(StrEnum):
    OK = "OK"
    WA = "WA"
    PE = "PE"
    FAIL = "FAIL"       # the checker or the jury's data is at fault
    POINTS = "POINTS"


class Verdict(StrEnum):
    """A graded test or submission, in the order reports list them."""
    AC = "AC"
    WA = "WA"
    PE = "PE"
    TLE = "TLE"
    MLE = "MLE"
    OLE = "OLE"
    RE = "RE"
    RF = "RF"
    CE = "CE"
    FAIL = "FAIL"
    SE = "SE"
    BUSY = "BUSY"
    # Samples of an evaluation that were never run.
    NO_CODE = "NO_CODE"         # the completion has no code block: the model's failure
    UNGRADABLE = "UNGRADABLE"   # code in no language the judge runs: the model's failure
    SKIPPED = "SKIPPED"         # left out of the metrics (unknown problem, missing toolchain)


# testlib's exit codes; 4 (_dirt) and 8 (_unexpected_eof) are presentation errors.
CHECKER_EXIT_VERDICTS = {0: CheckerVerdict.OK, 1: CheckerVerdict.WA, 2: CheckerVerdict.PE,
                         3: CheckerVerdict.FAIL, 4: CheckerVerdict.PE, 7: CheckerVerdict.POINTS,
                         8: CheckerVerdict.PE}

# What a test gets for a checker's word (POINTS: AC with full points, else WA).
TEST_VERDICT_OF_CHECKER = {CheckerVerdict.OK: Verdict.AC, CheckerVerdict.WA: Verdict.WA,
                           CheckerVerdict.PE: Verdict.PE, CheckerVerdict.FAIL: Verdict.FAIL}

# A judge failure: the sample is left out of an evaluation's metrics, never scored.
JUDGE_FAILURES = frozenset({Verdict.SE, Verdict.FAIL, Verdict.BUSY})

# How the terminal (rich styles) and the HTML report (colours) show each verdict.
VERDICT_STYLES = {Verdict.AC: "green", Verdict.WA: "red", Verdict.PE: "red",
                  Verdict.TLE: "yellow", Verdict.MLE: "yellow", Verdict.OLE: "yellow",
                  Verdict.RE: "magenta", Verdict.RF: "magenta", Verdict.CE: "cyan",
                  Verdict.FAIL: "red bold", Verdict.SE: "red bold", Verdict.BUSY: "red bold"}
VERDICT_COLORS = {Verdict.AC: "#2e9d4f", Verdict.WA: "#d9453d", Verdict.PE: "#ef8a80",
                  Verdict.TLE: "#f0a431", Verdict.MLE: "#c99a1a", Verdict.OLE: "#a0720c",
                  Verdict.RE: "#8e5bd0", Verdict.RF: "#5b2c8f", Verdict.CE: "#3a8fd9",
                  Verdict.FAIL: "#7f1d1d", Verdict.SE: "#222222", Verdict.BUSY: "#555b66",
                  Verdict.NO_CODE: "#9aa0a6", Verdict.UNGRADABLE: "#6b7280"}

__all__ = ["Status", "KilledBy", "CheckerVerdict", "Verdict", "CHECKER_EXIT_VERDICTS",
           "TEST_VERDICT_OF_CHECKER", "JUDGE_FAILURES", "VERDICT_STYLES", "VERDICT_COLORS"]

"""The verdict table of interactive tests (judge.checkers.interaction_verdict), row by row: how
the submission ended, what the interactor said, what the test gets. The same rules run end to
end against real programs in tests/test_interactive.py."""
from __future__ import annotations

import dataclasses

import pytest

from judge.checkers import CheckResult
from judge.checkers.interaction_verdict import interaction_verdict
from judge.checkers.interactor import Interaction
from judge.sandbox import RunResult
from judge.verdicts import CheckerVerdict, KilledBy, Status, Verdict


def run(status: Status = Status.OK, *, exit_code: int | None = 0, signal: int | None = None,
        killed_by: KilledBy | None = None, cpu: float = 5.0, wall: float = 20.0,
        error: str | None = None, undelivered: int = 0, syscall: str | None = None) -> RunResult:
    return RunResult(status=status, exit_code=exit_code, signal=signal, cpu_time_ms=cpu,
                     wall_time_ms=wall, memory_kb=1024, output_bytes=10, killed_by=killed_by,
                     syscall=syscall, error=error, undelivered_bytes=undelivered)


OK_RUN = run()
# Stopped by the wall clock while its CPU served other work 18 ms of its 20.
STARVED = dataclasses.replace(run(Status.BUSY, exit_code=None, signal=9,
                                  killed_by=KilledBy.WALL_TIMER), waiting_ms=18)
SAID = {  # what a testlib interactor says, as its exit code and message
    "ok": CheckResult(CheckerVerdict.OK, 0, "ok 3 games"),
    "wa": CheckResult(CheckerVerdict.WA, 1, "wrong answer game 2: more than 30 queries"),
    "pe": CheckResult(CheckerVerdict.PE, 2, "wrong output format Unexpected end of file"),
    "fail": CheckResult(CheckerVerdict.FAIL, 3, "FAIL jury's input is broken"),
    "points full": CheckResult(CheckerVerdict.POINTS, 7, "points 1", points=1.0, full_points=1.0),
    "points half": CheckResult(CheckerVerdict.POINTS, 7, "points 0.5", points=0.5, full_points=1.0),
    "points above": CheckResult(CheckerVerdict.POINTS, 7, "points 2", points=2.0, full_points=1.0),
}
IDLE = run(Status.TLE, exit_code=None, signal=9, killed_by=KilledBy.WALL_TIMER, cpu=1.0, wall=2000)

# (case, submission, interactor run, interactor's word, verdict, killed_by of the submission)
TABLE = [
    # 5. the submission ended well: the interactor's word
    ("accepted", OK_RUN, OK_RUN, "ok", Verdict.AC, None),
    ("wrong answer", OK_RUN, run(exit_code=1), "wa", Verdict.WA, None),
    ("exits early: interactor reads the end", OK_RUN, run(exit_code=2), "pe", Verdict.PE, None),
    ("full points", OK_RUN, run(exit_code=7), "points full", Verdict.AC, None),
    ("partial points", OK_RUN, run(exit_code=7), "points half", Verdict.WA, None),
    # Full marks are exactly 1: a 0-100 interactor's 1 point, or 2 points, used to be AC.
    ("points above full marks", OK_RUN, run(exit_code=7), "points above", Verdict.WA, None),
    ("writes after the interactor ended", run(undelivered=4096), OK_RUN, "ok", Verdict.AC, None),
    # 4. the submission's own end comes first, whatever the interactor said
    ("crash, interactor accepted", run(Status.RE, exit_code=None, signal=6), OK_RUN, "ok",
     Verdict.RE, None),
    ("crash after the interactor said WA", run(Status.RE, exit_code=1), run(exit_code=1), "wa",
     Verdict.RE, None),
    ("CPU limit, interactor said WA", run(Status.TLE, exit_code=None, signal=9,
                                          killed_by=KilledBy.CPU_TIMER, cpu=1001), run(exit_code=1),
     "wa", Verdict.TLE, KilledBy.CPU_TIMER),
    ("memory limit", run(Status.MLE, exit_code=None, signal=9, killed_by=KilledBy.MEMORY),
     run(exit_code=2), "pe", Verdict.MLE, KilledBy.MEMORY),
    ("output limit (a flood)", run(Status.OLE, exit_code=None, signal=9, killed_by=KilledBy.OUTPUT),
     run(exit_code=2), "pe", Verdict.OLE, KilledBy.OUTPUT),
    ("refused call", run(Status.RF, exit_code=None, signal=31, killed_by=KilledBy.SECCOMP,
                         syscall="ptrace"), run(exit_code=2), "pe", Verdict.RF, KilledBy.SECCOMP),
    # 3. both waiting on each other: idleness, unless the interactor was the one computing
    ("idle", IDLE, run(exit_code=2, cpu=2.0, wall=2010), "pe", Verdict.TLE, KilledBy.IDLE),
    ("waited on a computing interactor", IDLE, run(exit_code=0, cpu=1500, wall=2010), "ok",
     Verdict.FAIL, KilledBy.WALL_TIMER),
    ("both computing past the wall clock", dataclasses.replace(IDLE, cpu_time_ms=700,
                                                               waiting_ms=100),
     run(exit_code=0, cpu=300, wall=2010), "ok", Verdict.TLE, KilledBy.WALL_TIMER),
    # 2. the interactor failed: never the submission's fault
    ("interactor _fail", OK_RUN, run(exit_code=3), "fail", Verdict.FAIL, None),
    ("interactor _fail, submission crashed", run(Status.RE, exit_code=1), run(exit_code=3), "fail",
     Verdict.FAIL, None),
    ("interactor crashed", OK_RUN, run(Status.RE, exit_code=None, signal=11),
     "interactor crashed", Verdict.FAIL, None),
    ("interactor past its CPU limit", IDLE, run(Status.TLE, exit_code=None, signal=9,
                                                killed_by=KilledBy.CPU_TIMER, cpu=10001),
     "interactor past its limit", Verdict.FAIL, KilledBy.WALL_TIMER),
    # 1. judge failures
    ("submission's slot failed", run(Status.SE, exit_code=None, error="supervisor died"), OK_RUN,
     "ok", Verdict.SE, None),
    ("interactor's slot failed", OK_RUN, run(Status.SE, exit_code=None, error="no cgroup"), "ok",
     Verdict.SE, None),
    ("starved of CPU", STARVED, OK_RUN, "ok", Verdict.BUSY, KilledBy.WALL_TIMER),
    ("interactor starved of CPU", IDLE, dataclasses.replace(STARVED, wall_time_ms=2010,
                                                            waiting_ms=1800), "fail",
     Verdict.BUSY, KilledBy.WALL_TIMER),
    # Its CPU served the interactor, which it kept busy: no starvation, the wall clock's TLE.
    ("busy only through the interactor's computing", dataclasses.replace(STARVED, waiting_ms=12),
     run(cpu=6), "ok", Verdict.TLE, KilledBy.WALL_TIMER),
]


def said(word: str, interactor: RunResult) -> CheckResult:
    if word in SAID:
        return SAID[word]
    # What testlib_result makes of an interactor that did not exit on its own.
    return CheckResult(CheckerVerdict.FAIL, 3, f"interactor {interactor.status}")


@pytest.mark.parametrize("case, program, interactor, word, verdict, killed_by", TABLE,
                         ids=[row[0] for row in TABLE])
def test_the_verdict_table(case, program, interactor, word, verdict, killed_by):
    decided = interaction_verdict(Interaction(program, interactor, said(word, interactor), b""))
    assert decided.verdict == verdict, decided
    assert decided.submission.killed_by == killed_by
    assert decided.message


def test_the_messages_say_whose_fault_it_is():
    idle = interaction_verdict(Interaction(IDLE, run(exit_code=2), SAID["pe"], b""))
    assert idle.message.startswith("idle:") and "flushed" in idle.message
    failed = interaction_verdict(Interaction(OK_RUN, run(exit_code=3), SAID["fail"], b""))
    assert failed.message == "interactor: FAIL jury's input is broken"
    crashed = CheckResult(CheckerVerdict.FAIL, 3, "interactor RE: signal 11")
    failed = interaction_verdict(Interaction(OK_RUN, run(Status.RE, exit_code=None, signal=11),
                                             crashed, b""))
    assert failed.message == "interactor RE: signal 11"
    crash = interaction_verdict(Interaction(run(Status.RE, exit_code=None, signal=6), OK_RUN,
                                            SAID["ok"], b""))
    assert "ok 3 games" in crash.message       # what the interactor said is kept
    extra = interaction_verdict(Interaction(run(undelivered=4096), OK_RUN, SAID["ok"], b""))
    assert "4096 bytes" in extra.message
    # The figures stay the submission's own: only killed_by changes for idleness.
    assert dataclasses.replace(idle.submission, killed_by=KilledBy.WALL_TIMER) == IDLE

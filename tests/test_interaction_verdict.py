"""The verdict table of interactive tests (judge.checkers.interaction_verdict), row by row: how
the submission ended, what the interactor said, what the test gets. The same rules run end to
end against real programs in tests/test_interactive.py."""
from __future__ import annotations

import dataclasses

import pytest

from judge.checkers import CheckResult
from judge.checkers.interaction_verdict import interaction_verdict
from judge.checkers.interactor import Interaction
from judge.checkers.stream_marks import Marks
from judge.exclusion import EvidenceKind
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
# The judge's testlib header's record (judge.checkers.stream_marks): the interactor ended before
# it read anything the program wrote, or first read it having used so many ms of CPU.
UNREAD = Marks(output_read=False, cpu_ms_before_output=None)


def read_at(cpu_ms: float) -> Marks:
    return Marks(output_read=True, cpu_ms_before_output=cpu_ms)


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
    # 2. the interactor failed before it read anything the program wrote: the jury's fault
    # (ATTRIBUTION below: after it read, or with no record, the submission's)
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
    decided = interaction_verdict(Interaction(program, interactor, said(word, interactor), b"",
                                              UNREAD))
    assert decided.verdict == verdict, decided
    assert decided.submission.killed_by == killed_by
    assert decided.message
    # A FAIL always comes with its evidence, and nothing else carries one from here.
    assert (decided.evidence is not None) == (verdict == Verdict.FAIL), decided


CRASHED = run(Status.RE, exit_code=None, signal=11)
PAST_ITS_CPU = run(Status.TLE, exit_code=None, signal=9, killed_by=KilledBy.CPU_TIMER, cpu=10001)
COMPUTING = run(exit_code=0, cpu=1500, wall=2010)
# Whose failure an interactor's is (issue 43, finding 5): the jury's only when the header's
# record shows the interactor had read nothing the program wrote; else the program's, as if the
# interactor had said "wrong answer", after the program's own end.
# (case, submission, interactor run, its word, the header's record, verdict, killed_by)
ATTRIBUTION = [
    ("_fail before reading", OK_RUN, run(exit_code=3), "fail", UNREAD, Verdict.FAIL, None),
    ("_fail after reading (readInts(-1))", OK_RUN, run(exit_code=3), "fail", read_at(1.0),
     Verdict.WA, None),
    ("_fail with no record (a real testlib)", OK_RUN, run(exit_code=3), "fail", None, Verdict.WA,
     None),
    ("crashed before reading", OK_RUN, CRASHED, "interactor crashed", UNREAD, Verdict.FAIL, None),
    ("crashed after reading", OK_RUN, CRASHED, "interactor crashed", read_at(1.0), Verdict.WA,
     None),
    ("crashed after reading, the program crashed too", run(Status.RE, exit_code=1), CRASHED,
     "interactor crashed", read_at(1.0), Verdict.RE, None),
    ("past its CPU limit before reading", IDLE, PAST_ITS_CPU, "interactor past its limit",
     UNREAD, Verdict.FAIL, KilledBy.WALL_TIMER),
    ("past its CPU limit after reading", IDLE, PAST_ITS_CPU, "interactor past its limit",
     read_at(1.0), Verdict.TLE, KilledBy.WALL_TIMER),
    ("past its CPU limit with no record", IDLE, PAST_ITS_CPU, "interactor past its limit",
     None, Verdict.TLE, KilledBy.WALL_TIMER),
    # The program waited while the interactor computed: the jury's only for the CPU it used
    # before it read the program's queries (here 1200 ms of the 2000 the program waited).
    ("waited on an interactor computing before reading", IDLE, COMPUTING, "ok", read_at(1200),
     Verdict.FAIL, KilledBy.WALL_TIMER),
    ("waited on an interactor computing on the queries", IDLE, COMPUTING, "ok", read_at(10),
     Verdict.TLE, KilledBy.WALL_TIMER),
    ("waited on a computing interactor, no record", IDLE, COMPUTING, "ok", None, Verdict.TLE,
     KilledBy.WALL_TIMER),
]


@pytest.mark.parametrize("case, program, interactor, word, marks, verdict, killed_by",
                         ATTRIBUTION, ids=[row[0] for row in ATTRIBUTION])
def test_an_interactors_failure_is_the_jurys_only_before_it_read_the_output(
        case, program, interactor, word, marks, verdict, killed_by):
    decided = interaction_verdict(Interaction(program, interactor, said(word, interactor), b"",
                                              marks))
    assert (decided.verdict, decided.submission.killed_by) == (verdict, killed_by), decided
    if verdict == Verdict.FAIL:
        assert decided.evidence is not None and decided.evidence.kind == EvidenceKind.JURY_DATA
        assert "before it read" in decided.evidence.detail
    else:
        assert decided.evidence is None
        # The interactor's own account is kept in the message.
        assert ("interactor" in decided.message), decided


def test_the_messages_say_whose_fault_it_is():
    idle = interaction_verdict(Interaction(IDLE, run(exit_code=2), SAID["pe"], b"", UNREAD))
    assert idle.message.startswith("idle:") and "flushed" in idle.message
    failed = interaction_verdict(Interaction(OK_RUN, run(exit_code=3), SAID["fail"], b"", UNREAD))
    assert failed.message == "interactor: FAIL jury's input is broken"
    crashed = CheckResult(CheckerVerdict.FAIL, 3, "interactor RE: signal 11")
    failed = interaction_verdict(Interaction(OK_RUN, CRASHED, crashed, b"", UNREAD))
    assert failed.message == "interactor RE: signal 11"
    provoked = interaction_verdict(Interaction(OK_RUN, run(exit_code=3), SAID["fail"], b"",
                                               read_at(1.0)))
    assert provoked.message == ("the interactor failed after it read the program's output: "
                                "interactor: FAIL jury's input is broken")
    unrecorded = interaction_verdict(Interaction(OK_RUN, CRASHED, crashed, b""))
    assert unrecorded.verdict == Verdict.WA
    assert unrecorded.message.endswith("had not read the program's output: interactor RE: signal 11")
    crash = interaction_verdict(Interaction(run(Status.RE, exit_code=None, signal=6), OK_RUN,
                                            SAID["ok"], b""))
    assert "ok 3 games" in crash.message       # what the interactor said is kept
    extra = interaction_verdict(Interaction(run(undelivered=4096), OK_RUN, SAID["ok"], b""))
    assert "4096 bytes" in extra.message
    # The figures stay the submission's own: only killed_by changes for idleness.
    assert dataclasses.replace(idle.submission, killed_by=KilledBy.WALL_TIMER) == IDLE


# ------------------------------------------------- the header's records (judge.checkers.stream_marks)

SECRET = "0123456789abcdef" * 2


def test_records_are_read_with_the_judges_secret_only():
    from judge.checkers.stream_marks import take_marks
    begin, read = f"JUDGE-MARK {SECRET} begin\n", f"JUDGE-MARK {SECRET} read 1500\n"
    forged = "JUDGE-MARK " + "f" * 32 + " begin\n"
    # The program's own stderr around the records is kept, forged records with it.
    marks, rest = take_marks(f"{begin}debug {forged}FAIL broken".encode(), SECRET, 1 << 20)
    assert marks == UNREAD and rest == f"debug {forged}FAIL broken".encode()
    marks, rest = take_marks(f"{begin}x{read}FAIL k < 0\n".encode(), SECRET, 1 << 20)
    assert marks == read_at(1.5) and rest == b"xFAIL k < 0\n"
    # No "begin" with the secret (a real testlib, or only forged records): no record at all.
    assert take_marks(f"{forged}FAIL".encode(), SECRET, 1 << 20)[0] is None
    assert take_marks(b"FAIL", SECRET, 1 << 20) == (None, b"FAIL")
    # A stderr that reached its limit may have lost a "read" record: no record.
    full = f"{begin}FAIL".encode().ljust(64, b" ")
    assert take_marks(full, SECRET, 64)[0] is None
    assert take_marks(full[:63], SECRET, 64)[0] == UNREAD

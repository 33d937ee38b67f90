"""The verdict of one interactive test, from how the submission ended and what the interactor
said, as Codeforces and testlib combine them (docs/design/4-verdicts.md §4.5, README "Interactive
problems"). One function decides; the table is tested row by row in
tests/test_interaction_verdict.py.

In order, the first rule that applies decides:

1. A judge failure of either run (SE) is SE; either run starved of CPU (BUSY) is BUSY, where
   the time its CPU gave the other program of the pair does not count as starvation (the
   grade layer weighs both, judge.run_evidence).
2. An interactor that failed (it crashed, ran past its own limits, had a call refused,
   exited with `_fail` or a code testlib does not give) is FAIL only with evidence that the
   submission did not cause it: the judge's testlib header recorded that it ended before it
   read anything the submission wrote (judge.checkers.stream_marks). Without that record (it
   had read the submission's output, or a real testlib kept no record) the failure may be
   the submission's doing, and it is read as the interactor's "wrong answer" in rule 5,
   after the submission's own end (rules 3 and 4).
3. A submission stopped by the wall clock while neither program computed for half of that
   time waited for input that never came (both blocked on reads, most often a missing
   flush): TLE, killed by "idle". If the interactor was computing for half that time or
   more, the wait is the interactor's doing, FAIL, when the CPU it used before it read
   anything the submission wrote is that half (the header's record); else the submission's
   queries may have made it compute, and the wait is TLE by the wall timer. If the two
   together computed for half of it or more, the time went into the interaction: TLE, killed
   by the wall timer.
4. A submission that did not end well (TLE, MLE, OLE, RE, RF) gets that verdict, whatever the
   interactor said: as on Codeforces, a program that goes on after the interactor stopped it
   (for too many queries, say) reads the end of its input and gets what it does with it.
5. Otherwise the interactor's word: ok is AC (and then the checker, when the problem has one,
   reads the interactor's output file), wrong answer is WA, wrong output format and an
   unexpected end of file are PE, points are AC at exactly 1 point (full marks: an interactor
   has no jury answer to be weighed against) and WA otherwise.

A FAIL comes with its evidence (`InteractiveVerdict.evidence`); no other verdict carries one
from here.

Bytes the submission wrote after the interactor ended reach nobody and change nothing (testlib
does not look for extra output in an interaction); the message says how many.
"""
from __future__ import annotations

import dataclasses

from judge.checkers import CheckResult
from judge.checkers.interactor import Interaction
from judge.checkers.runner import exited_on_its_own
from judge.exclusion import Evidence, EvidenceKind
from judge.sandbox import RunResult
from judge.sandbox.verdict import describe_end
from judge.verdicts import CheckerVerdict, KilledBy, Status, Verdict

# An interactor's failure without evidence that the submission did not cause it.
FAILED_AFTER_READING = "the interactor failed after it read the program's output: "
FAILED_UNRECORDED = ("the interactor failed, with no record that it had not read the program's "
                     "output: ")


@dataclasses.dataclass(frozen=True)
class InteractiveVerdict:
    verdict: Verdict
    message: str
    submission: RunResult     # the submission's figures, killed_by "idle" when it idled
    # For a FAIL: what shows the submission did not cause it (judge.exclusion); None otherwise.
    evidence: Evidence | None = None


def interaction_verdict(interaction: Interaction) -> InteractiveVerdict:
    said = interaction.verdict
    # Each program runs on the other's CPU: what the other computed is no machine being busy.
    program = _starved_by_more_than(interaction.submission, interaction.interactor)
    interactor = _starved_by_more_than(interaction.interactor, interaction.submission)
    if program.status == Status.SE:
        return InteractiveVerdict(Verdict.SE, program.error or "the judge failed", program)
    if interactor.status == Status.SE:
        return InteractiveVerdict(Verdict.SE, f"interactor: {interactor.error}", program)
    if Status.BUSY in (program.status, interactor.status):
        busy = program if program.status == Status.BUSY else interactor
        who = "" if busy is program else "interactor: "
        return InteractiveVerdict(Verdict.BUSY, who + describe_end(busy), program)
    if said.verdict == CheckerVerdict.FAIL:
        # Its own words when it exited; else testlib_result's account of its run, which
        # already names it ("interactor RE: signal 11").
        failed = f"interactor: {said.message}" if exited_on_its_own(interactor) else said.message
        if interaction.marks is not None and not interaction.marks.output_read:
            return InteractiveVerdict(Verdict.FAIL, failed, program, Evidence(
                EvidenceKind.JURY_DATA, "the interactor failed before it read anything the "
                "program wrote (the judge's testlib header's record)"))
        said = CheckResult(CheckerVerdict.WA, 1, (FAILED_UNRECORDED if interaction.marks is None
                                                  else FAILED_AFTER_READING) + failed)
    if program.status == Status.TLE and program.killed_by == KilledBy.WALL_TIMER:
        if 2 * interactor.cpu_time_ms >= program.wall_time_ms:
            computed = (f"it computed for {interactor.cpu_time_ms:.0f} ms of the "
                        f"{program.wall_time_ms:.0f} ms the program waited for its answers")
            alone = _cpu_before_the_output(interaction)
            if alone is not None and 2 * alone >= program.wall_time_ms:
                return InteractiveVerdict(Verdict.FAIL, f"interactor: {computed}", program, Evidence(
                    EvidenceKind.JURY_DATA, f"the interactor computed for {alone:.0f} ms before "
                    "it read anything the program wrote (the judge's testlib header's record), "
                    f"half the {program.wall_time_ms:.0f} ms the program waited or more"))
            # Its computing may have been the program's queries' doing: the program's wait.
            return InteractiveVerdict(Verdict.TLE, (
                f"{_ending(program, said)}; the interactor {computed}, "
                + ("not before it read the program's output" if alone is not None
                   else "with no record of when it read the program's output")), program)
        computing = program.cpu_time_ms + program.waiting_ms + interactor.cpu_time_ms
        if 2 * computing >= program.wall_time_ms:
            # Not idle: the two programs (and the queries between them) took the time.
            return InteractiveVerdict(Verdict.TLE, _ending(program, interaction.verdict), program)
        idle = dataclasses.replace(program, killed_by=KilledBy.IDLE)
        return InteractiveVerdict(Verdict.TLE, (
            f"idle: the program waited {program.wall_time_ms:.0f} ms for input (after "
            f"{program.cpu_time_ms:.0f} ms of CPU) while the interactor waited for it; "
            "is its output flushed?"), idle)
    if program.status != Status.OK:
        return InteractiveVerdict(Verdict(program.status), _ending(program, said), program)
    message = said.message
    if program.undelivered_bytes:
        message += (f" ({program.undelivered_bytes} bytes the program wrote after the "
                    "interactor ended were not read)")
    return InteractiveVerdict(said.test_verdict, message, program)


def _cpu_before_the_output(interaction: Interaction) -> float | None:
    """The CPU the interactor used before it read anything the program wrote, by the header's
    record: all of its CPU when it never read; None without a record."""
    marks = interaction.marks
    if marks is None:
        return None
    if not marks.output_read or marks.cpu_ms_before_output is None:
        return interaction.interactor.cpu_time_ms
    return marks.cpu_ms_before_output


def _starved_by_more_than(run: RunResult, neighbour: RunResult) -> RunResult:
    """A BUSY run, unless its CPU served its neighbour rather than the rest of the machine: then
    it is the TLE its wall clock says, and a submission cannot make itself BUSY by making the
    interactor compute."""
    if run.status != Status.BUSY or 2 * (run.waiting_ms - neighbour.cpu_time_ms) > run.wall_time_ms:
        return run
    return dataclasses.replace(run, status=Status.TLE)


def _ending(program: RunResult, said: CheckResult) -> str:
    ended = describe_end(program) or (f"signal {program.signal}" if program.signal
                                      else f"exit code {program.exit_code}")
    return f"{ended}; the interactor said: {said.message}"

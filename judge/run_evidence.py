"""Whether a run the sandbox ended as SE or BUSY is the judge's failure or the program's own
(docs/design/6-evaluation.md §6.5): the evidence for a run's exclusion, gathered on the slot that
ran it.

- A program the kernel would not execute (`cannot execute ./code.exe: …`) is the program's own
  failure when the executable is the submission's build: what its ELF header, its PT_INTERP or
  its libraries ask of the kernel is decided by its source. It is RE, with the shell's exit code
  for a command that cannot run (127 for a missing file, 126 otherwise). Only a toolchain binary
  of the host (`python3`, `java`) that cannot run is the judge's: a host that lacks it.
- Any other SE stands only when a control run — /bin/true on the same slot, with the same
  limits and policy — fails too. When the control runs, the program is run once more: the
  second result stands, and an SE again is the program's own doing (RE).
- BUSY stands with its CPU figure (judge.sandbox.verdict.busy_evidence); without it, it is the
  TLE the wall clock says.
"""
from __future__ import annotations

import dataclasses
import errno
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from judge.exclusion import Evidence, EvidenceKind
from judge.sandbox.result import CANNOT_EXECUTE, RunResult
from judge.sandbox.verdict import busy_evidence
from judge.verdicts import KilledBy, Status

# A program that cannot be executed exits as a shell reports it (POSIX: 127 not found, 126 not
# executable).
EXIT_NOT_FOUND = 127
EXIT_NOT_EXECUTABLE = 126
CONTROL_ARGV = ("/bin/true",)
# Where a submission's own executable is inside a sandbox: its working directory (`./code.exe`),
# the run box, or the read-only staging directory of a single run (judge.single_run).
SUBMISSION_PLACES = ("./", "/box/", "/judge/run/")

Control = Callable[[Sequence[str]], RunResult]


@dataclass(frozen=True)
class WeighedRun:
    run: RunResult
    evidence: Evidence | None     # set exactly when run.status is SE or BUSY


def is_submission_build(argv: Sequence[str]) -> bool:
    """Whether the executable of `argv` is what the submission's compile made, not a host tool."""
    return any(argv[0].startswith(place) for place in SUBMISSION_PLACES)


def weigh_run(run: RunResult, argv: Sequence[str], control: Control, *,
              retried: bool) -> WeighedRun | None:
    """The run that stands, with the evidence for an SE or BUSY that stays one; None when the
    program is to be run once more (an SE that a control run did not share), and then weighed
    again with `retried`. `control(argv)` runs argv on the same slot with the same limits and
    policy."""
    if run.status == Status.BUSY:
        return weigh_busy(run)
    if run.status != Status.SE:
        return WeighedRun(run, None)
    error = run.error or ""
    if error.startswith(CANNOT_EXECUTE):
        if is_submission_build(argv):
            return WeighedRun(cannot_execute(run), None)
        return WeighedRun(run, Evidence(
            EvidenceKind.TOOLCHAIN, f"the host's {argv[0]}, not the submission, failed: {error}"))
    checked = control(CONTROL_ARGV)
    if checked.status == Status.SE:
        return WeighedRun(run, Evidence(
            EvidenceKind.CONTROL_RUN, f"{CONTROL_ARGV[0]} on the same slot with the same limits "
            f"was SE too: {checked.error}"))
    if retried:
        return WeighedRun(dataclasses.replace(run, status=Status.RE), None)
    return None


def weigh_busy(run: RunResult) -> WeighedRun:
    """A BUSY run with its CPU figure as evidence, or without one the TLE its wall clock says."""
    evidence = busy_evidence(run)
    if evidence is None:
        return WeighedRun(dataclasses.replace(run, status=Status.TLE,
                                              killed_by=KilledBy.WALL_TIMER), None)
    return WeighedRun(run, evidence)


def cannot_execute(run: RunResult) -> RunResult:
    """A submission's executable the kernel refused: RE, with the exit code a shell gives."""
    error = run.error or ""
    missing = error.endswith(os.strerror(errno.ENOENT))
    return dataclasses.replace(run, status=Status.RE,
                               exit_code=EXIT_NOT_FOUND if missing else EXIT_NOT_EXECUTABLE)


__all__ = ["WeighedRun", "weigh_run", "weigh_busy", "is_submission_build", "cannot_execute", "CONTROL_ARGV",
           "Control"]

"""The one rule for leaving a sample out (docs/design/6-evaluation.md §6.5): a judge failure (SE,
FAIL, BUSY, SKIPPED) stands only with evidence that the submission did not cause it; without
evidence the failure is the submission's own, and `attribute` turns it into the verdict the
submission earned.

Each path into a judge failure gathers its own evidence where it happens (a control run on the
same slot with the same limits, the jury's data through the same checker, the CPU measured on
one clock, the benchmark's own choice of language) and hands it here as an `Evidence`; nothing
else decides whether a sample leaves the metrics."""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from judge.verdicts import Verdict


class EvidenceKind(StrEnum):
    """What shows that a judge failure was not the submission's doing."""
    # A known-good program failed the same way on the same slot, with the same limits.
    CONTROL_RUN = "control-run"
    # The host's own toolchain binary, not anything the submission built, could not run.
    TOOLCHAIN = "toolchain"
    # The checker or interactor fails on the jury's own data, whatever the submission wrote.
    JURY_DATA = "jury-data"
    # The jury's own program (an interactor) failed in the sandbox, and again when asked once
    # more, while the submission's run did not.
    JURY_PROGRAM = "jury-program"
    # The judge's own code raised instead of giving a verdict: a bug the hostile and fuzz suites
    # hunt, stored as an error and judged again on the next run.
    JUDGE_ERROR = "judge-error"
    # Work outside the run took its CPU, measured on one exact clock on both sides.
    CPU_CLOCK = "cpu-clock"
    # The benchmark's row or the caller named a language this host has no toolchain for.
    NAMED_LANGUAGE = "named-language"
    # The benchmark's row names a problem the dataset does not have: the row is the dataset's
    # (or the harness's), never the model's, whose output is only the completion.
    NAMED_PROBLEM = "named-problem"


@dataclass(frozen=True)
class Evidence:
    kind: EvidenceKind
    detail: str         # one line a person can check: what was measured or run, and what it gave

    def to_dict(self) -> dict:
        return {"kind": self.kind.value, "detail": self.detail}

    def __str__(self) -> str:
        return f"{self.kind.value}: {self.detail}"


# What a judge failure is when the judge cannot show the submission did not cause it: the
# verdict the same behaviour earns from a judge that never fails.
SUBMISSION_VERDICT_OF = {Verdict.SE: Verdict.RE, Verdict.FAIL: Verdict.WA,
                         Verdict.BUSY: Verdict.TLE, Verdict.SKIPPED: Verdict.UNGRADABLE}

UNPROVEN = "no evidence that the judge, not the submission, caused this: "


@dataclass(frozen=True)
class Attributed:
    verdict: Verdict
    message: str
    evidence: Evidence | None


def attribute(verdict: Verdict, message: str, evidence: Evidence | None) -> Attributed:
    """The verdict that stands: a judge failure keeps its evidence, or becomes the submission's
    failure with its message kept after UNPROVEN; any other verdict is the submission's as it
    is (and carries no evidence)."""
    if verdict not in SUBMISSION_VERDICT_OF:
        return Attributed(verdict, message, None)
    if evidence is not None:
        return Attributed(verdict, message, evidence)
    return Attributed(SUBMISSION_VERDICT_OF[verdict], UNPROVEN + message, None)


__all__ = ["EvidenceKind", "Evidence", "SUBMISSION_VERDICT_OF", "UNPROVEN", "Attributed",
           "attribute"]

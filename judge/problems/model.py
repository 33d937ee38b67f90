"""The one Problem model every loader produces."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from judge import JudgeError


def is_checker_source(checker: str) -> bool:
    """A problem's `checker` is either a checker's name ("wcmp") or a checker's source code."""
    return "\n" in checker or "#include" in checker


@dataclass(frozen=True)
class TestCase:
    input: bytes
    output: bytes


@dataclass(frozen=True)
class Problem:
    id: str                      # canonical id, e.g. "codeforces/2020A" or "pack/two-sum"
    title: str
    statement: str
    time_limit_ms: int
    memory_limit_mb: int
    # A testlib checker name ("wcmp") or a custom checker's source; for an interactive problem,
    # "" when the interactor's word is final (else the checker reads the interactor's output).
    checker: str
    tests: tuple[TestCase, ...]
    rating: int | None = None    # difficulty rating when the source knows it (Codeforces scale)
    metadata: dict = field(default_factory=dict, compare=False, hash=False)
    # An interactive problem's interactor: testlib source (registerInteraction) that talks to
    # the submission through its stdin and stdout. The test's output is the answer file.
    interactor: str | None = None

    def __post_init__(self) -> None:
        if self.interactor is not None and not is_checker_source(self.interactor):
            raise JudgeError(f"{self.id}: the interactor must be a testlib program's source")
        if not self.checker and self.interactor is None:
            raise JudgeError(f"{self.id}: a problem without an interactor needs a checker")

    @property
    def has_custom_checker(self) -> bool:
        return is_checker_source(self.checker)

    @property
    def is_interactive(self) -> bool:
        return self.interactor is not None


def natural_order(problem_id: str) -> tuple:
    """Sort key of a problem id that reads numbers as numbers: codeforces/1A before
    codeforces/1398C, p2 before p10."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part.lower())
                 for part in re.split(r"(\d+)", problem_id))

"""The one Problem model every loader produces."""
from __future__ import annotations

import re
from dataclasses import dataclass, field


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
    checker: str                 # a testlib checker name ("wcmp") or a custom checker's source
    tests: tuple[TestCase, ...]
    rating: int | None = None    # difficulty rating when the source knows it (Codeforces scale)
    metadata: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def has_custom_checker(self) -> bool:
        return is_checker_source(self.checker)


def natural_order(problem_id: str) -> tuple:
    """Sort key of a problem id that reads numbers as numbers: codeforces/1A before
    codeforces/1398C, p2 before p10."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part.lower())
                 for part in re.split(r"(\d+)", problem_id))

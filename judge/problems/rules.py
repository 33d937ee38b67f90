"""Each benchmark's own rules: how code is taken from a completion, which time a limit counts,
which Python modules a solution may import, and which harness runs Python code. One table,
read by extraction, grading, the sandbox environment, `judge doctor` and the docs
(docs/benchmarks.md is its reader's version)."""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from judge.problems.model import Problem


class Extraction(StrEnum):
    # The judge's rule: the last non-empty fenced block; its tag names the language.
    LAST_BLOCK = "last-block"
    # lcb_runner/utils/extraction_utils.py extract_code: the lines between the last two lines
    # that contain ``` anywhere, whatever the tag; fewer than two such lines is no code. Python.
    LIVECODEBENCH = "livecodebench"


class TimeRule(StrEnum):
    # The limit is CPU time, multiplied by the language's time factor; the wall limit follows.
    CPU_SCALED = "cpu-scaled"
    # The limit is each test's wall-clock time, the same for every language (CPU time is held to
    # it too, so a run never spends more than the benchmark would let it).
    WALL = "wall"


@dataclass(frozen=True)
class BenchmarkRules:
    name: str
    extraction: Extraction
    default_language: str | None     # the language of code whose fence has no tag
    time_rule: TimeRule
    python_environment: str          # judge/languages/python_env.py: what `import` finds
    lcb_stdin_harness: bool          # stdin Python code runs inside LiveCodeBench's grade_stdio


CODEFORCES = BenchmarkRules("codeforces", Extraction.LAST_BLOCK, None, TimeRule.CPU_SCALED,
                            "stdlib", lcb_stdin_harness=False)
LIVECODEBENCH = BenchmarkRules("livecodebench", Extraction.LIVECODEBENCH, "python",
                               TimeRule.WALL, "livecodebench", lcb_stdin_harness=True)

RULES = {
    "codeforces": CODEFORCES,       # the embedded pack, CF-Div2-Stepfun, custom problem sets
    "codecontests": BenchmarkRules("codecontests", Extraction.LAST_BLOCK, None,
                                   TimeRule.CPU_SCALED, "stdlib", lcb_stdin_harness=False),
    "livecodebench": LIVECODEBENCH,
}


def rules_for(problem: Problem) -> BenchmarkRules:
    """The rules of the benchmark `problem` comes from (Codeforces' for problems of no named
    benchmark)."""
    return RULES.get(str(problem.metadata.get("benchmark", "")), CODEFORCES)


__all__ = ["Extraction", "TimeRule", "BenchmarkRules", "RULES", "rules_for"]

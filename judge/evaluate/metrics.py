"""Benchmark metrics over many graded samples: avg@n, unbiased pass@k, spread.

Vocabulary: for each problem we have ``n`` graded samples of which ``c`` were accepted.

* ``avg@n`` of a problem is ``c / n``; of a benchmark, the mean over problems.
* ``pass@k`` of a problem is the unbiased estimator of Chen et al. (2021),
  ``1 - C(n-c, k) / C(n, k)``: the probability that at least one of ``k`` samples drawn without
  replacement from the ``n`` is accepted. Of a benchmark, the mean over problems. A ``k`` is
  reported only when every problem has at least ``k`` samples (LiveCodeBench's rule: a mean over
  problems with a different set of valid ``k`` would not be comparable).
* spread: sample index ``i`` (the i-th generation of each problem) defines one "run" of the
  benchmark whose accuracy is the mean over problems of sample i's verdict; only indexes every
  problem has make a run (problems with more samples add theirs to avg@n, not to the spread,
  so every run averages over the same problems, as a benchmark's repeated runs do). The standard
  deviation of those run accuracies (ddof=1) tells how much a single-sample evaluation would
  move between seeds; the standard error (std / sqrt(runs)) is the uncertainty of avg@n that
  comes from sampling.

pass@k is computed exactly with integer binomials (``math.comb`` is exact and Python integers do
not overflow) while ``n <= EXACT_LIMIT``, and with the numerically stable product form
``prod_{i=n-c+1}^{n} (1 - k/i)`` above it; both agree to rounding, and neither overflows.
"""
from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import Any

from judge import JudgeError
from judge.problems.model import natural_order

DEFAULT_KS: tuple[int, ...] = (1, 2, 4, 5, 8, 10, 16, 32, 64)
EXACT_LIMIT = 4096


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k = 1 - C(n-c, k) / C(n, k) for one problem.

    Raises JudgeError on impossible arguments (k > n, c > n, negatives).
    """
    for name, value in (("n", n), ("c", c), ("k", k)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise JudgeError(f"pass@k: {name} must be an int, got {value!r}")
    if n < 0 or c < 0 or k < 1:
        raise JudgeError(f"pass@k: need n >= 0, c >= 0, k >= 1 (n={n}, c={c}, k={k})")
    if c > n:
        raise JudgeError(f"pass@k: c={c} accepted out of n={n} samples is impossible")
    if k > n:
        raise JudgeError(f"pass@k: k={k} is larger than the number of samples n={n}")
    if c == 0:
        return 0.0
    if n - c < k:
        return 1.0
    if n <= EXACT_LIMIT:
        return float(1 - Fraction(math.comb(n - c, k), math.comb(n, k)))
    # C(n-c,k)/C(n,k) = prod_{i=n-c+1}^{n} (1 - k/i); every factor is in (0, 1).
    # Summing logs keeps the product from underflowing into denormals one step at a time.
    log_ratio = math.fsum(math.log1p(-k / i) for i in range(n - c + 1, n + 1))
    return -math.expm1(log_ratio)


@dataclass(frozen=True)
class SampleResult:
    """One graded generation. ``sample_index`` is its position among the problem's samples."""

    problem_id: str
    passed: bool
    sample_index: int = 0
    language: str | None = None


@dataclass(frozen=True)
class ProblemStats:
    problem_id: str
    n: int
    c: int
    avg: float                                   # c / n
    pass_at_k: dict[int, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Spread:
    """Accuracy of each sample index over problems, and its spread."""

    run_accuracies: tuple[float, ...]            # index i -> mean over problems of sample i
    runs: int
    std: float | None                            # ddof=1; None with fewer than two runs
    stderr: float | None                         # std / sqrt(runs)


@dataclass(frozen=True)
class Summary:
    num_problems: int
    num_samples: int
    avg_at_n: float                              # mean over problems of c/n
    pass_at_k: dict[int, float]                  # k -> mean over problems, k <= min n
    spread: Spread
    problems: tuple[ProblemStats, ...]
    per_language: dict[str, Summary] = field(default_factory=dict)

    @property
    def min_n(self) -> int:
        return min((p.n for p in self.problems), default=0)

    def to_dict(self, include_problems: bool = True) -> dict:
        d: dict[str, Any] = {
            "num_problems": self.num_problems,
            "num_samples": self.num_samples,
            "avg_at_n": self.avg_at_n,
            "pass_at_k": {f"pass@{k}": v for k, v in sorted(self.pass_at_k.items())},
            "spread": asdict(self.spread),
            "per_language": {
                lang: s.to_dict(include_problems=False) for lang, s in sorted(self.per_language.items())
            },
        }
        d["spread"]["run_accuracies"] = list(self.spread.run_accuracies)
        if include_problems:
            d["problems"] = [
                {"problem_id": p.problem_id, "n": p.n, "c": p.c, "avg": p.avg,
                 "pass_at_k": {f"pass@{k}": v for k, v in sorted(p.pass_at_k.items())}}
                for p in self.problems
            ]
        return d


def problem_stats(problem_id: str, n: int, c: int, ks: Sequence[int] = DEFAULT_KS) -> ProblemStats:
    if n < 1:
        raise JudgeError(f"problem {problem_id!r}: no samples")
    return ProblemStats(
        problem_id=problem_id,
        n=n,
        c=c,
        avg=c / n,
        pass_at_k={k: pass_at_k(n, c, k) for k in sorted(set(ks)) if k <= n},
    )


def _mean(xs: Sequence[float]) -> float:
    return math.fsum(xs) / len(xs) if xs else 0.0


def spread_of(runs: Sequence[float]) -> Spread:
    m = len(runs)
    if m < 2:
        return Spread(run_accuracies=tuple(runs), runs=m, std=None, stderr=None)
    mu = _mean(runs)
    var = math.fsum((x - mu) ** 2 for x in runs) / (m - 1)
    std = math.sqrt(var)
    return Spread(run_accuracies=tuple(runs), runs=m, std=std, stderr=std / math.sqrt(m))


def summarize_counts(
    counts: Mapping[str, tuple[int, int]], ks: Sequence[int] = DEFAULT_KS
) -> Summary:
    """Summary from per-problem (n, c) only; there is no per-sample data, so no spread."""
    problems = tuple(problem_stats(pid, counts[pid][0], counts[pid][1], ks)
                     for pid in sorted(counts, key=natural_order))
    return _summary(problems, spread_of(()))


def _summary(problems: tuple[ProblemStats, ...], spread: Spread,
             per_language: dict[str, Summary] | None = None) -> Summary:
    min_n = min((p.n for p in problems), default=0)
    valid_ks = sorted({k for p in problems for k in p.pass_at_k if k <= min_n})
    return Summary(
        num_problems=len(problems),
        num_samples=sum(p.n for p in problems),
        avg_at_n=_mean([p.avg for p in problems]),
        pass_at_k={k: _mean([p.pass_at_k[k] for p in problems]) for k in valid_ks},
        spread=spread,
        problems=problems,
        per_language=per_language or {},
    )


def _summarize(results: list[SampleResult], ks: Sequence[int]) -> Summary:
    by_problem: dict[str, list[SampleResult]] = defaultdict(list)
    for r in results:
        by_problem[r.problem_id].append(r)
    problems = []
    # index i -> verdicts of the problems that have a sample with index i
    by_index: dict[int, list[float]] = defaultdict(list)
    for pid in sorted(by_problem, key=natural_order):
        rs = by_problem[pid]
        seen: set[int] = set()
        for r in rs:
            if r.sample_index in seen:
                raise JudgeError(f"problem {pid!r}: sample index {r.sample_index} appears twice")
            seen.add(r.sample_index)
            by_index[r.sample_index].append(1.0 if r.passed else 0.0)
        problems.append(problem_stats(pid, len(rs), sum(1 for r in rs if r.passed), ks))
    # A run is one sample of EVERY problem: an index some problem lacks would be a mean over
    # another set of problems, so it is left out of the spread (it still counts in avg@n).
    runs = [_mean(by_index[i]) for i in sorted(by_index) if len(by_index[i]) == len(problems)]
    return _summary(tuple(problems), spread_of(runs))


def summarize(results: Iterable[SampleResult], ks: Sequence[int] = DEFAULT_KS,
              by_language: bool = True) -> Summary:
    """Metrics over graded samples, with a per-language breakdown.

    A language's summary covers the problems that have at least one sample in that language,
    with n and c counted over that language's samples only.
    """
    results = list(results)
    for r in results:
        if r.sample_index < 0:
            raise JudgeError(f"problem {r.problem_id!r}: negative sample index {r.sample_index}")
    overall = _summarize(results, ks)
    if not by_language:
        return overall
    langs: dict[str, list[SampleResult]] = defaultdict(list)
    for r in results:
        langs[r.language or "unknown"].append(r)
    per_language = {lang: _summarize(rs, ks) for lang, rs in sorted(langs.items())}
    return Summary(
        num_problems=overall.num_problems,
        num_samples=overall.num_samples,
        avg_at_n=overall.avg_at_n,
        pass_at_k=overall.pass_at_k,
        spread=overall.spread,
        problems=overall.problems,
        per_language=per_language,
    )


__all__ = [
    "DEFAULT_KS", "EXACT_LIMIT", "pass_at_k", "SampleResult", "ProblemStats", "Spread", "Summary",
    "problem_stats", "spread_of", "summarize", "summarize_counts",
]

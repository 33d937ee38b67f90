"""Elo-style ratings of a model, two ways.

(a) CodeElo method, from real contest standings (CF-Div2-Stepfun variant)
-------------------------------------------------------------------------
Inputs per contest are the Codeforces API shapes:

* ``contest.standings`` result: ``{"problems": [{"index": "A", "points": 500.0, ...}, ...],
  "rows": [{"party": {"members": [{"handle": ...}], "participantType": ...},
  "points": ..., "rank": ...}, ...]}``
* ``contest.ratingChanges`` result: ``[{"handle", "oldRating", "newRating", "rank"}, ...]``

The model's score on the contest: for each problem with ``c`` accepted samples out of ``K``,
``F = (K - c) / (c + 1)`` is the expected number of failed submissions before the first accepted
one (drawing the K samples in random order), and the problem is worth
``max(0.3 * points, points - 50 * F)``, or 0 when ``c == 0``.

Participants are the rated contestants: the handles of ``ratingChanges`` that have a standings
row (rows of other participant types than CONTESTANT are ignored when the type is present).
The model's rank is ``1 + #{participants with a strictly higher score} + #{ties} / 2`` (a tied
contestant counts as half a win and half a loss, as Elo does with a draw). The rating is the
``R`` whose expected rank ``1 + sum_i 1 / (1 + 10^((R - r_i) / 400))`` over the participants'
``oldRating`` equals that rank, found by bisection in ``[min r_i - 400, max r_i + 400]`` and
clamped to those bounds. The final rating is the mean over contests.

(b) Maximum likelihood from problem ratings
-------------------------------------------
``P(solve | R, d) = 1 / (1 + 10^((d - R) / 400))``. Each problem contributes its solve fraction
``c / n`` as a (fractional) Bernoulli outcome with weight 1 (``weighting="problem"``: the
problems are the independent observations, the samples of one problem are not), or ``n``
Bernoulli outcomes of which ``c`` succeeded (``weighting="sample"``). A normal prior centred on
the mean problem rating with sd 400 keeps all-solved and none-solved finite. The log posterior
is strictly concave, so its derivative is decreasing: solved by bisection on the derivative.
The standard error is ``1 / sqrt(Fisher information + 1/sd^2)``.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from judge import JudgeError

LN10_400 = math.log(10.0) / 400.0


def expected_rank(rating: float, opponent_ratings: Sequence[float]) -> float:
    """1 + sum over opponents of P(opponent beats a player rated ``rating``)."""
    total = 1.0
    for r in opponent_ratings:
        x = (rating - r) / 400.0
        # 1/(1+10^x) computed without overflow for very large |x|
        if x > 0:
            t = 10.0 ** (-x) if x < 300 else 0.0
            total += t / (1.0 + t)
        else:
            total += 1.0 / (1.0 + 10.0 ** x)
    return total


def rating_for_rank(rank: float, opponent_ratings: Sequence[float], lo: float | None = None,
                    hi: float | None = None, tol: float = 1e-6) -> float:
    """The R whose expected rank among ``opponent_ratings`` equals ``rank``, by bisection.

    Searched in [lo, hi] (default [min - 400, max + 400]); clamped to the bounds when the rank
    is outside what the interval can reach.
    """
    if not opponent_ratings:
        raise JudgeError("rating: no rated participants to compare with")
    if lo is None:
        lo = min(opponent_ratings) - 400.0
    if hi is None:
        hi = max(opponent_ratings) + 400.0
    if expected_rank(lo, opponent_ratings) <= rank:
        return float(lo)
    if expected_rank(hi, opponent_ratings) >= rank:
        return float(hi)
    # expected_rank is strictly decreasing in R.
    while hi - lo > tol:
        mid = (lo + hi) / 2.0
        if expected_rank(mid, opponent_ratings) > rank:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


def expected_failures(c: int, k: int) -> float:
    """Expected failed tries before the first success, c successes among k tries in random order."""
    if not (0 <= c <= k) or k < 1:
        raise JudgeError(f"rating: need 0 <= c <= K and K >= 1, got c={c}, K={k}")
    return (k - c) / (c + 1)


def problem_score(points: float, c: int, k: int) -> float:
    """CF-Div2-Stepfun score of one problem: max(0.3 p, p - 50 F), or 0 when never solved."""
    if c == 0:
        expected_failures(c, k)  # validates
        return 0.0
    return max(0.3 * points, points - 50.0 * expected_failures(c, k))


def model_rank(score: float, participant_scores: Iterable[float], eps: float = 1e-9) -> float:
    """1 + participants strictly above + half of the tied ones."""
    above = ties = 0
    for s in participant_scores:
        if s > score + eps:
            above += 1
        elif abs(s - score) <= eps:
            ties += 1
    return 1.0 + above + ties / 2.0


@dataclass(frozen=True)
class ContestRating:
    contest_id: Any
    score: float
    rank: float
    participants: int
    rating: float
    problem_scores: dict[str, float]


@dataclass(frozen=True)
class CodeEloResult:
    rating: float                      # mean over contests
    contests: tuple[ContestRating, ...]
    method: str = "codeelo"


def _handles(row: Mapping) -> list[str]:
    party = row.get("party") or {}
    return [m["handle"] for m in party.get("members", []) if isinstance(m, Mapping) and "handle" in m]


def _problem_points(problems: list, contest_id: Any) -> dict[str, float]:
    """Each problem's points by its index ("A", "B1", ...)."""
    points: dict[str, float] = {}
    for p in problems:
        idx = p.get("index")
        if idx is None:
            raise JudgeError(f"contest {contest_id}: a problem has no 'index'")
        if p.get("points") is None:
            raise JudgeError(
                f"contest {contest_id}: problem {idx} has no 'points' "
                "(the CodeElo score needs point-scored contests)")
        points[str(idx)] = float(p["points"])
    return points


def _rated_contestants(rows: list, rating_changes: Sequence[Mapping],
                       contest_id: Any) -> tuple[list[float], list[float]]:
    """The score and the rating before the contest of every rated contestant in the standings."""
    by_handle: dict[str, float] = {}
    for row in rows:
        ptype = (row.get("party") or {}).get("participantType")
        if ptype is not None and ptype != "CONTESTANT":
            continue
        if row.get("points") is None:
            raise JudgeError(f"contest {contest_id}: a standings row has no 'points'")
        for h in _handles(row):
            by_handle[h] = float(row["points"])
    part_scores: list[float] = []
    part_ratings: list[float] = []
    for ch in rating_changes:
        try:
            h, old = ch["handle"], float(ch["oldRating"])
        except (KeyError, TypeError, ValueError):
            raise JudgeError(f"contest {contest_id}: malformed rating change {ch!r}") from None
        if h in by_handle:
            part_scores.append(by_handle[h])
            part_ratings.append(old)
    return part_scores, part_ratings


def contest_rating(
    standings: Mapping,
    rating_changes: Sequence[Mapping],
    solved: Mapping[str, tuple[int, int]],
    contest_id: Any = None,
) -> ContestRating:
    """The model's CodeElo rating on one contest.

    ``solved`` maps a problem index ("A", "B1", ...) to (c accepted, K samples). Problems of the
    contest absent from ``solved`` score 0.
    """
    if contest_id is None:
        contest_id = (standings.get("contest") or {}).get("id")
    problems = standings.get("problems")
    rows = standings.get("rows")
    if not isinstance(problems, list) or not isinstance(rows, list):
        raise JudgeError(f"contest {contest_id}: standings need 'problems' and 'rows' lists")
    points = _problem_points(problems, contest_id)
    unknown = set(map(str, solved)) - set(points)
    if unknown:
        raise JudgeError(f"contest {contest_id}: results for unknown problems {sorted(unknown)}")

    scores: dict[str, float] = {}
    for idx, pts in points.items():
        c, k = solved.get(idx, (0, 1))
        scores[idx] = problem_score(pts, int(c), int(k))
    total = math.fsum(scores.values())

    part_scores, part_ratings = _rated_contestants(rows, rating_changes, contest_id)
    if not part_ratings:
        raise JudgeError(f"contest {contest_id}: no rated contestant has a standings row")
    rank = model_rank(total, part_scores)
    return ContestRating(
        contest_id=contest_id,
        score=total,
        rank=rank,
        participants=len(part_ratings),
        rating=rating_for_rank(rank, part_ratings),
        problem_scores=scores,
    )


def codeelo_rating(contests: Iterable[tuple[Mapping, Sequence[Mapping], Mapping[str, tuple[int, int]]]]
                   ) -> CodeEloResult:
    """Mean CodeElo rating over contests given as (standings, rating_changes, solved)."""
    per = tuple(contest_rating(st, rc, sv) for st, rc, sv in contests)
    if not per:
        raise JudgeError("rating: no contests")
    return CodeEloResult(rating=math.fsum(c.rating for c in per) / len(per), contests=per)


# --------------------------------------------------------------------------- (b) max likelihood

@dataclass(frozen=True)
class MLERating:
    rating: float
    stderr: float
    method: str
    num_problems: int
    prior_mean: float
    prior_sd: float


def solve_probability(rating: float, difficulty: float) -> float:
    x = (difficulty - rating) / 400.0
    if x > 300:
        return 0.0
    if x < -300:
        return 1.0
    return 1.0 / (1.0 + 10.0 ** x)


def _observations(problems: Iterable[tuple[float, int, int]],
                  weighting: str) -> list[tuple[float, float, float]]:
    """(d, success weight, total weight) of each rated problem."""
    obs: list[tuple[float, float, float]] = []
    for item in problems:
        try:
            d, c, n = item
        except (TypeError, ValueError):
            raise JudgeError(f"rating: expected (rating, c, n), got {item!r}") from None
        if d is None:
            continue
        if n < 1 or not (0 <= c <= n):
            raise JudgeError(f"rating: need 0 <= c <= n and n >= 1, got c={c}, n={n}")
        if weighting == "problem":
            obs.append((float(d), c / n, 1.0))
        elif weighting == "sample":
            obs.append((float(d), float(c), float(n)))
        else:
            raise JudgeError(f"rating: weighting must be 'problem' or 'sample', not {weighting!r}")
    return obs


def _root(grad: Callable[[float], float], lo: float, hi: float, tol: float) -> float:
    """The zero of a strictly decreasing `grad`: [lo, hi] widened until it brackets it, then
    bisected (which converges unconditionally, ~50 steps)."""
    step = 400.0
    while grad(lo) < 0:
        lo -= step
        step *= 2
        if lo < -1e7:
            raise JudgeError("rating: the likelihood has no finite maximum")
    step = 400.0
    while grad(hi) > 0:
        hi += step
        step *= 2
        if hi > 1e7:
            raise JudgeError("rating: the likelihood has no finite maximum")
    while hi - lo > tol:
        mid = (lo + hi) / 2.0
        if mid <= lo or mid >= hi:
            break
        if grad(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


def mle_rating(
    problems: Iterable[tuple[float, int, int]],
    prior_sd: float | None = 400.0,
    prior_mean: float | None = None,
    weighting: str = "problem",
    tol: float = 1e-7,
) -> MLERating:
    """Maximum a-posteriori rating from (problem rating d, accepted c, samples n) triples.

    ``prior_sd=None`` gives the plain maximum likelihood, which is infinite (an error) when every
    problem is solved or none is.
    """
    obs = _observations(problems, weighting)
    if not obs:
        raise JudgeError("rating: no rated problems")
    mu = prior_mean if prior_mean is not None else math.fsum(d for d, _, _ in obs) / len(obs)
    inv_var = 0.0 if prior_sd is None else 1.0 / (prior_sd * prior_sd)
    successes = math.fsum(s for _, s, _ in obs)
    total = math.fsum(w for _, _, w in obs)
    if inv_var == 0.0 and (successes <= 0.0 or successes >= total):
        raise JudgeError("rating: maximum likelihood is infinite when every problem (or none) is "
                         "solved; use a prior")

    def grad(r: float) -> float:
        g = math.fsum(s - w * solve_probability(r, d) for d, s, w in obs) * LN10_400
        return g - (r - mu) * inv_var

    def info(r: float) -> float:
        return math.fsum(w * p * (1.0 - p) for d, _, w in obs
                         for p in (solve_probability(r, d),)) * LN10_400 ** 2 + inv_var

    r = _root(grad, min(d for d, _, _ in obs) - 400.0, max(d for d, _, _ in obs) + 400.0, tol)
    h = info(r)
    return MLERating(
        rating=r,
        stderr=1.0 / math.sqrt(h) if h > 0 else math.inf,
        method=f"mle-{weighting}" + ("" if prior_sd is None else f"+normal-prior(sd={prior_sd:g})"),
        num_problems=len(obs),
        prior_mean=mu,
        prior_sd=math.inf if prior_sd is None else float(prior_sd),
    )


__all__ = [
    "expected_rank", "rating_for_rank", "expected_failures", "problem_score", "model_rank",
    "ContestRating", "CodeEloResult", "contest_rating", "codeelo_rating",
    "MLERating", "solve_probability", "mle_rating",
]

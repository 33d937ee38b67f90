import math

import pytest

from judge import JudgeError
from judge.evaluate.ratings import (
    codeelo_rating,
    contest_rating,
    expected_failures,
    expected_rank,
    mle_rating,
    model_rank,
    problem_score,
    rating_for_rank,
    solve_probability,
)

# ----------------------------------------------------------------------------- CodeElo pieces

def test_expected_rank_basics():
    assert expected_rank(1500, []) == 1.0
    assert expected_rank(1500, [1500, 1500]) == pytest.approx(2.0)        # each a coin flip
    # 400 points above an opponent: they beat us with probability 1/11.
    assert expected_rank(1900, [1500]) == pytest.approx(1 + 1 / 11)
    assert expected_rank(1e9, [1500]) == pytest.approx(1.0)
    assert expected_rank(-1e9, [1500]) == pytest.approx(2.0)


def test_rating_for_rank_inverts_expected_rank():
    opponents = [1200, 1400, 1500, 1700, 2100]
    for rank in (1.5, 2.0, 3.3, 5.0):
        r = rating_for_rank(rank, opponents)
        assert expected_rank(r, opponents) == pytest.approx(rank, abs=1e-6)
    # Symmetric case: the middle of three equal opponents.
    assert rating_for_rank(2.5, [1500, 1500, 1500]) == pytest.approx(1500, abs=1e-4)
    # One opponent at 1500 and rank 1 + 1/11: exactly 400 above.
    assert rating_for_rank(1 + 1 / 11, [1500]) == pytest.approx(1900, abs=1e-4)
    # Out of reach: clamped to [min - 400, max + 400].
    assert rating_for_rank(1.0, opponents) == 2100 + 400
    assert rating_for_rank(6.0, opponents) == 1200 - 400
    with pytest.raises(JudgeError):
        rating_for_rank(1.0, [])


def test_stepfun_problem_score():
    assert expected_failures(3, 8) == pytest.approx(5 / 4)
    assert problem_score(500, 8, 8) == 500                     # F = 0
    assert problem_score(500, 3, 8) == pytest.approx(500 - 50 * 5 / 4)
    assert problem_score(500, 1, 64) == pytest.approx(150)     # floor at 0.3 * points
    assert problem_score(1000, 0, 8) == 0
    with pytest.raises(JudgeError):
        problem_score(500, 9, 8)


def test_model_rank_ties_count_half():
    assert model_rank(100, [300, 200, 100, 100, 50]) == 1 + 2 + 1.0
    assert model_rank(1000, [300, 200]) == 1.0
    assert model_rank(0, [300, 200]) == 3.0


def _contest(scores_ratings, points=(500, 1000, 1500), cid=1):
    """Standings and ratingChanges in Codeforces API shape."""
    problems = [{"contestId": cid, "index": "ABC"[i], "points": float(p)} for i, p in enumerate(points)]
    ordered = sorted(enumerate(scores_ratings), key=lambda t: -t[1][0])
    rows, changes = [], []
    for rank0, (i, (score, rating)) in enumerate(ordered):
        handle = f"user{i}"
        rows.append({"party": {"members": [{"handle": handle}], "participantType": "CONTESTANT"},
                     "points": float(score), "rank": rank0 + 1, "penalty": 0})
        changes.append({"contestId": cid, "handle": handle, "rank": rank0 + 1,
                        "oldRating": rating, "newRating": rating})
    # A virtual participant and an unrated row: both must be ignored.
    rows.append({"party": {"members": [{"handle": "ghost"}], "participantType": "VIRTUAL"},
                 "points": 99999.0, "rank": 0})
    rows.append({"party": {"members": [{"handle": "unrated"}], "participantType": "CONTESTANT"},
                 "points": 99999.0, "rank": 1})
    return {"contest": {"id": cid}, "problems": problems, "rows": rows}, changes


def test_contest_rating_symmetric_middle():
    # Opponents all rated 1500; model solves A (500) perfectly and nothing else: score 500.
    st, rc = _contest([(1000, 1500), (500, 1500), (0, 1500)])
    res = contest_rating(st, rc, {"A": (8, 8)})
    assert res.score == 500 and res.participants == 3
    assert res.rank == pytest.approx(1 + 1 + 0.5)                # one above, one tie
    assert res.rating == pytest.approx(1500, abs=1e-3)          # expected rank 2.5 at R = 1500
    assert res.contest_id == 1


def test_contest_rating_monotone_in_score():
    field = [(2600, 2100), (1800, 1900), (1500, 1700), (1000, 1500), (700, 1400),
             (500, 1300), (300, 1200), (0, 1100)]
    st, rc = _contest(field)
    ratings = []
    for solved in ({}, {"A": (1, 8)}, {"A": (8, 8)}, {"A": (8, 8), "B": (2, 8)},
                   {"A": (8, 8), "B": (8, 8)}, {"A": (8, 8), "B": (8, 8), "C": (8, 8)}):
        ratings.append(contest_rating(st, rc, solved).rating)
    assert ratings == sorted(ratings)
    assert ratings[0] < ratings[-1]
    assert ratings[0] >= 1100 - 400 and ratings[-1] <= 2100 + 400
    # Scoring nothing ties with the last participant: rank 8.5 of 8, below most of the field.
    assert contest_rating(st, rc, {}).rank == 8.5


def test_codeelo_rating_is_mean_over_contests():
    st1, rc1 = _contest([(1000, 1500), (500, 1500), (0, 1500)], cid=1)
    st2, rc2 = _contest([(1000, 1900), (0, 1900)], cid=2)
    res = codeelo_rating([(st1, rc1, {"A": (4, 4)}), (st2, rc2, {"A": (4, 4)})])
    r1 = contest_rating(st1, rc1, {"A": (4, 4)}).rating
    r2 = contest_rating(st2, rc2, {"A": (4, 4)}).rating
    assert r2 == pytest.approx(1900, abs=1e-3)                 # middle of two equal opponents
    assert res.rating == pytest.approx((r1 + r2) / 2)
    assert [c.contest_id for c in res.contests] == [1, 2]


def test_contest_rating_errors():
    st, rc = _contest([(100, 1500)])
    with pytest.raises(JudgeError, match="unknown problems"):
        contest_rating(st, rc, {"Z": (1, 1)})
    st2 = dict(st, problems=[{"index": "A"}])
    with pytest.raises(JudgeError, match="points"):
        contest_rating(st2, rc, {})
    with pytest.raises(JudgeError, match="no rated contestant"):
        contest_rating(st, [{"handle": "nobody", "oldRating": 1500}], {})
    with pytest.raises(JudgeError):
        codeelo_rating([])


# ----------------------------------------------------------------------------- MLE

def test_solve_probability():
    assert solve_probability(1500, 1500) == 0.5
    assert solve_probability(1900, 1500) == pytest.approx(10 / 11)
    assert solve_probability(-1e6, 1500) == 0.0 and solve_probability(1e6, 1500) == 1.0


def test_mle_symmetric_case_and_stderr():
    probs = [(1000, 10, 10), (1500, 5, 10), (2000, 0, 10)]
    r = mle_rating(probs)
    assert r.rating == pytest.approx(1500, abs=1e-4)
    assert r.num_problems == 3 and r.prior_mean == 1500
    a = math.log(10) / 400
    p1 = solve_probability(1500, 1000)
    info = a * a * (2 * p1 * (1 - p1) + 0.25) + 1 / 400 ** 2
    assert r.stderr == pytest.approx(1 / math.sqrt(info), rel=1e-6)
    # Without a prior the same point; a larger standard error.
    r0 = mle_rating(probs, prior_sd=None)
    assert r0.rating == pytest.approx(1500, abs=1e-4) and r0.stderr > r.stderr


def test_mle_single_problem_closed_form():
    # One problem, solve fraction 10/11, no prior: R - d = 400 exactly.
    r = mle_rating([(1200, 10, 11)], prior_sd=None)
    assert r.rating == pytest.approx(1600, abs=1e-4)
    # Sample weighting gives the same point with a smaller error (11 observations).
    rs = mle_rating([(1200, 10, 11)], prior_sd=None, weighting="sample")
    assert rs.rating == pytest.approx(1600, abs=1e-4)
    assert rs.stderr == pytest.approx(r.stderr / math.sqrt(11), rel=1e-6)


def test_mle_all_or_none_solved_is_finite_with_prior():
    hi = mle_rating([(d, 5, 5) for d in (1200, 1600, 2000)])
    lo = mle_rating([(d, 0, 5) for d in (1200, 1600, 2000)])
    assert math.isfinite(hi.rating) and math.isfinite(lo.rating)
    assert hi.rating > 1600 > lo.rating
    assert hi.rating - 1600 == pytest.approx(1600 - lo.rating, abs=1e-4)   # symmetric
    with pytest.raises(JudgeError, match="infinite"):
        mle_rating([(1200, 5, 5)], prior_sd=None)


def test_mle_monotone_in_success():
    ds = [800, 1200, 1600, 2000, 2400]
    ratings = [mle_rating([(d, c, 4) for d in ds]).rating for c in range(5)]
    assert ratings == sorted(ratings) and ratings[0] < ratings[-1]


def test_mle_bad_input():
    with pytest.raises(JudgeError):
        mle_rating([])
    with pytest.raises(JudgeError):
        mle_rating([(1500, 3, 2)])
    with pytest.raises(JudgeError):
        mle_rating([(1500, 1, 2)], weighting="nope")
    # Problems without a rating are skipped.
    assert mle_rating([(None, 1, 1), (1500, 1, 2)]).num_problems == 1

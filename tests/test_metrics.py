import math
from fractions import Fraction

import pytest

from judge import JudgeError
from judge.evaluate import metrics
from judge.evaluate.metrics import SampleResult, pass_at_k, spread_of, summarize, summarize_counts


def exact(n, c, k):
    return float(1 - Fraction(math.comb(n - c, k), math.comb(n, k)))


@pytest.mark.parametrize("n,c,k,want", [
    (10, 3, 1, 0.3),                      # pass@1 is c/n
    (10, 3, 5, 1 - 21 / 252),             # C(7,5)/C(10,5) = 21/252
    (4, 1, 2, 0.5),                       # 1 - C(3,2)/C(4,2) = 1 - 3/6
    (5, 2, 5, 1.0),                       # n = k, c > 0
    (5, 0, 5, 0.0),                       # n = k, c = 0
    (8, 0, 1, 0.0),                       # c = 0
    (8, 8, 4, 1.0),                       # c = n
    (8, 5, 4, 1.0),                       # n - c < k
    (16, 1, 4, 0.25),                     # one correct: k/n
])
def test_pass_at_k_hand_values(n, c, k, want):
    assert pass_at_k(n, c, k) == pytest.approx(want, abs=1e-15)


def test_pass_at_k_large_n_no_overflow():
    # 1 correct out of 1000: pass@k = k/n exactly.
    for k in (1, 2, 64):
        assert pass_at_k(1000, 1, k) == pytest.approx(k / 1000, rel=1e-12)
    assert pass_at_k(1000, 500, 64) == pytest.approx(exact(1000, 500, 64), rel=1e-12)
    assert pass_at_k(1000, 1000, 64) == 1.0
    # Past the exact limit the product form is used; it agrees with exact arithmetic.
    n = metrics.EXACT_LIMIT + 1000
    for c, k in ((1, 64), (7, 10), (300, 64), (n - 64, 64)):
        assert pass_at_k(n, c, k) == pytest.approx(exact(n, c, k), rel=1e-10)
    # A value whose binomials have thousands of digits: no OverflowError, stays in [0, 1].
    v = pass_at_k(200_000, 3, 64)
    assert 0 < v < 1
    assert v == pytest.approx(1 - math.prod(1 - 64 / i for i in range(200_000 - 2, 200_001)), rel=1e-9)


def test_pass_at_k_is_monotone_in_c_and_k():
    vals_c = [pass_at_k(32, c, 4) for c in range(33)]
    assert vals_c == sorted(vals_c)
    vals_k = [pass_at_k(32, 3, k) for k in range(1, 33)]
    assert vals_k == sorted(vals_k)


@pytest.mark.parametrize("n,c,k", [(4, 5, 1), (4, 1, 5), (4, 1, 0), (-1, 0, 1), (4, -1, 1)])
def test_pass_at_k_rejects_impossible(n, c, k):
    with pytest.raises(JudgeError):
        pass_at_k(n, c, k)


def _results(table):
    """table: {problem: [(passed, language), ...]} -> SampleResults with indices."""
    out = []
    for pid, samples in table.items():
        for i, (ok, lang) in enumerate(samples):
            out.append(SampleResult(pid, ok, i, lang))
    return out


def test_summary_avg_pass_at_k_and_spread():
    # Problem a: 3/4, b: 1/4, c: 0/4
    table = {
        "a": [(True, "cpp"), (True, "cpp"), (False, "python"), (True, "python")],
        "b": [(False, "cpp"), (True, "cpp"), (False, "python"), (False, "python")],
        "c": [(False, "cpp"), (False, "cpp"), (False, "python"), (False, "python")],
    }
    s = summarize(_results(table))
    assert s.num_problems == 3 and s.num_samples == 12
    assert s.avg_at_n == pytest.approx((0.75 + 0.25 + 0) / 3)
    assert set(s.pass_at_k) == {1, 2, 4}          # k up to n = 4
    assert s.pass_at_k[1] == pytest.approx(s.avg_at_n)
    assert s.pass_at_k[2] == pytest.approx((exact(4, 3, 2) + exact(4, 1, 2) + 0) / 3)
    assert s.pass_at_k[4] == pytest.approx(2 / 3)
    # Sample index i accuracies over problems: [1/3, 2/3, 0, 1/3]
    runs = [1 / 3, 2 / 3, 0.0, 1 / 3]
    assert s.spread.run_accuracies == pytest.approx(runs)
    mu = sum(runs) / 4
    std = math.sqrt(sum((x - mu) ** 2 for x in runs) / 3)
    assert s.spread.std == pytest.approx(std)
    assert s.spread.stderr == pytest.approx(std / 2)
    # Mean of the run accuracies is avg@n when every problem has the same n.
    assert mu == pytest.approx(s.avg_at_n)


def test_per_language_breakdown():
    table = {
        "a": [(True, "cpp"), (True, "cpp"), (False, "python"), (True, "python")],
        "b": [(False, "cpp"), (True, "cpp"), (False, "python"), (False, "python")],
    }
    s = summarize(_results(table))
    cpp, py = s.per_language["cpp"], s.per_language["python"]
    assert (cpp.num_problems, cpp.num_samples) == (2, 4)
    assert cpp.avg_at_n == pytest.approx((1.0 + 0.5) / 2)
    assert py.avg_at_n == pytest.approx((0.5 + 0.0) / 2)
    assert set(cpp.pass_at_k) == {1, 2}
    assert cpp.pass_at_k[2] == pytest.approx((1.0 + 1.0) / 2)
    assert py.pass_at_k[2] == pytest.approx((1.0 + 0.0) / 2)   # a: one of two python samples passed
    d = s.to_dict()
    assert d["pass_at_k"]["pass@1"] == pytest.approx(s.avg_at_n)
    assert d["per_language"]["cpp"]["num_samples"] == 4
    assert [p["problem_id"] for p in d["problems"]] == ["a", "b"]


def test_k_limited_by_smallest_n():
    table = {"a": [(True, None)] * 8, "b": [(False, None), (True, None)]}
    s = summarize(_results(table))
    assert set(s.pass_at_k) == {1, 2}
    assert set(s.problems[0].pass_at_k) == {1, 2, 4, 5, 8}
    assert s.per_language["unknown"].num_samples == 10


def test_single_sample_has_no_spread_and_duplicates_are_refused():
    s = summarize([SampleResult("a", True), SampleResult("b", False)])
    assert s.spread.runs == 1 and s.spread.std is None and s.spread.stderr is None
    assert s.avg_at_n == 0.5
    with pytest.raises(JudgeError):
        summarize([SampleResult("a", True, 0), SampleResult("a", False, 0)])


def test_summarize_counts_and_spread_of():
    s = summarize_counts({"x": (1000, 10), "y": (1000, 0)})
    assert s.pass_at_k[64] == pytest.approx(exact(1000, 10, 64) / 2)
    assert 64 in s.pass_at_k and s.spread.runs == 0
    sp = spread_of([0.5, 0.5, 0.5])
    assert sp.std == 0.0 and sp.stderr == 0.0


def test_problems_are_listed_in_natural_order():
    """Numbers in ids read as numbers: 1A before 1398C, p2 before p10."""
    from judge.evaluate.metrics import SampleResult, summarize
    ids = ["codeforces/1398C", "codeforces/1A", "codeforces/2020A", "lcb/p10", "lcb/p2"]
    summary = summarize([SampleResult(pid, True, 0, "cpp") for pid in ids])
    assert [p.problem_id for p in summary.problems] == [
        "codeforces/1A", "codeforces/1398C", "codeforces/2020A", "lcb/p2", "lcb/p10"]


def test_the_spread_runs_over_indexes_every_problem_has():
    """Problem a has samples 0-2, b only 0: the spread is one run (index 0, over a and b); a's
    indexes 1 and 2 would be means over a alone, so they count in avg@n only."""
    results = [SampleResult("a", True, 0), SampleResult("a", False, 1),
               SampleResult("a", False, 2), SampleResult("b", False, 0)]
    s = summarize(results)
    assert s.spread.run_accuracies == (0.5,) and s.spread.runs == 1 and s.spread.std is None
    assert s.avg_at_n == pytest.approx((1 / 3 + 0) / 2)

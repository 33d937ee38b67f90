"""Evaluating many submissions: code extraction, metrics (avg@n, pass@k, spread), ratings."""
from judge.evaluate.extract import CodeBlock, extract_code, language_from_tag
from judge.evaluate.metrics import (
    DEFAULT_KS,
    ProblemStats,
    SampleResult,
    Spread,
    Summary,
    pass_at_k,
    summarize,
    summarize_counts,
)
from judge.evaluate.ratings import (
    CodeEloResult,
    ContestRating,
    MLERating,
    codeelo_rating,
    contest_rating,
    mle_rating,
)

__all__ = [
    "CodeBlock", "extract_code", "language_from_tag",
    "DEFAULT_KS", "ProblemStats", "SampleResult", "Spread", "Summary", "pass_at_k", "summarize",
    "summarize_counts",
    "CodeEloResult", "ContestRating", "MLERating", "codeelo_rating", "contest_rating", "mle_rating",
]

"""DeepMind CodeContests problems, loaded through the ``datasets`` library.

Sources (``load_codecontests(source, split=...)``): a hub id (default ``deepmind/code_contests``,
read with ``datasets.load_dataset(id, split=...)``; unreachable hub -> ``JudgeError``), a local
parquet/jsonl file (every row), or a local directory of them (a hub snapshot: files whose name
starts with the split, e.g. ``test-00000-of-00001.parquet``, or every file when none does).

Row schema (contest_problem.proto): name, description, public_tests / private_tests /
generated_tests (each ``{"input": [...], "output": [...]}``), source (enum, ``SOURCES``),
difficulty (enum, ``DIFFICULTIES``), solutions / incorrect_solutions
(``{"language": [...], "solution": [...]}``, language enum ``LANGUAGES``: 1 Python 2, 2 C++,
3 Python 3, 4 Java), cf_contest_id, cf_index, cf_points, cf_rating, cf_tags, time_limit
(``{"seconds", "nanos"}`` or null), memory_limit_bytes, input_file, output_file.

Problem mapping: id ``codecontests/<name>`` (the dataset's unique name, verbatim); tests are
public, then private, then generated (choose with ``test_sets``); time limit from
``time_limit`` (``seconds * 1000 + nanos / 1e6``, rounded up to a whole ms; ``DEFAULT_TIME_LIMIT_MS``
when absent or zero); memory limit ``memory_limit_bytes`` in MiB, rounded up
(``DEFAULT_MEMORY_LIMIT_MB`` when absent or zero); rating = cf_rating when > 0; checker
``"codecontests"`` (the published whitespace/case/1e-5 comparison, judge.checkers.dataset_comparators).
"""
from __future__ import annotations

import math
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from judge import JudgeError
from judge.problems.livecodebench import load_rows, local_files
from judge.problems.model import Problem, TestCase

HUB_ID = "deepmind/code_contests"
DEFAULT_TIME_LIMIT_MS = 2000
DEFAULT_MEMORY_LIMIT_MB = 256
TEST_SETS = ("public", "private", "generated")

LANGUAGES: dict[int, str] = {0: "unknown", 1: "python2", 2: "cpp", 3: "python3", 4: "java"}
SOURCES: dict[int, str] = {0: "unknown", 1: "codechef", 2: "codeforces", 3: "hackerearth",
                           4: "codejam", 6: "atcoder", 7: "aizu"}
DIFFICULTIES: dict[int, str] = {
    0: "unknown", 1: "easy", 2: "medium", 3: "hard", 4: "harder", 5: "hardest", 6: "external",
    **{7 + i: letter for i, letter in enumerate("ABCDEFGHIJK")},
    **{19 + i: letter for i, letter in enumerate("LMNOPQRSTUV")},
}


def _enum(value: Any, table: dict[int, str]) -> str:
    if isinstance(value, str):
        return value.lower()
    try:
        return table.get(int(value), str(value))
    except (TypeError, ValueError):
        return "unknown"


def _tests(raw: Any, row_name: str, field: str) -> list[TestCase]:
    if raw is None:
        return []
    if not isinstance(raw, dict):
        raise JudgeError(f"{row_name}: {field} is not an {{input, output}} mapping")
    ins, outs = raw.get("input"), raw.get("output")
    if ins is None and outs is None:
        return []
    if not isinstance(ins, list) or not isinstance(outs, list):
        raise JudgeError(f"{row_name}: {field}.input and {field}.output must be lists")
    if len(ins) != len(outs):
        raise JudgeError(f"{row_name}: {field} has {len(ins)} inputs but {len(outs)} outputs")
    tests = []
    for j, (i, o) in enumerate(zip(ins, outs, strict=True)):
        if not isinstance(i, (str, bytes)) or not isinstance(o, (str, bytes)):
            raise JudgeError(f"{row_name}: {field}[{j}] is not a pair of strings")
        tests.append(TestCase(i.encode("utf-8") if isinstance(i, str) else i,
                              o.encode("utf-8") if isinstance(o, str) else o))
    return tests


def _time_limit_ms(raw: Any, row_name: str) -> int:
    if raw is None:
        return DEFAULT_TIME_LIMIT_MS
    if not isinstance(raw, dict):
        raise JudgeError(f"{row_name}: time_limit is not a {{seconds, nanos}} mapping")
    try:
        seconds = int(raw.get("seconds") or 0)
        nanos = int(raw.get("nanos") or 0)
    except (TypeError, ValueError):
        raise JudgeError(f"{row_name}: bad time_limit {raw!r}") from None
    if seconds < 0 or nanos < 0:
        raise JudgeError(f"{row_name}: negative time_limit {raw!r}")
    ms = math.ceil(seconds * 1000 + nanos / 1e6)
    return ms if ms > 0 else DEFAULT_TIME_LIMIT_MS


def solutions_of(row: dict, field: str = "solutions") -> list[tuple[str, str]]:
    """[(language name, source)] of a row's ``solutions`` (or ``incorrect_solutions``)."""
    raw = row.get(field)
    if not raw:
        return []
    langs, codes = raw.get("language") or [], raw.get("solution") or []
    if len(langs) != len(codes):
        raise JudgeError(f"codecontests {row.get('name')!r}: {field} has {len(langs)} languages "
                         f"but {len(codes)} solutions")
    return [(_enum(lang, LANGUAGES), code) for lang, code in zip(langs, codes, strict=True)]


def _memory_limit_mb(row: dict, row_name: str) -> int:
    """memory_limit_bytes rounded up to MiB; missing or not positive: the default."""
    mem = row.get("memory_limit_bytes")
    try:
        mem_mb = math.ceil(int(mem) / (1 << 20)) if mem else DEFAULT_MEMORY_LIMIT_MB
    except (TypeError, ValueError):
        raise JudgeError(f"{row_name}: bad memory_limit_bytes {mem!r}") from None
    return mem_mb if mem_mb > 0 else DEFAULT_MEMORY_LIMIT_MB


def _rating(row: dict, row_name: str) -> int | None:
    """cf_rating when positive, else None (CodeContests writes 0 for no rating)."""
    rating = row.get("cf_rating")
    try:
        return int(rating) if rating is not None and int(rating) > 0 else None
    except (TypeError, ValueError):
        raise JudgeError(f"{row_name}: bad cf_rating {rating!r}") from None


def problem_from_row(row: dict, index: int = 0, *, test_sets: Sequence[str] = TEST_SETS,
                     include_solutions: bool = False) -> Problem:
    if not isinstance(row, dict):
        raise JudgeError(f"codecontests row {index}: not a mapping")
    name = row.get("name")
    row_name = f"codecontests row {index}" + (f" ({name})" if name else "")
    if not isinstance(name, str) or not name:
        raise JudgeError(f"{row_name}: missing 'name'")
    if not isinstance(row.get("description"), str):
        raise JudgeError(f"{row_name}: missing 'description'")
    for s in test_sets:
        if s not in TEST_SETS:
            raise JudgeError(f"unknown CodeContests test set {s!r}; use {', '.join(TEST_SETS)}")
    tests: list[TestCase] = []
    counts: dict[str, int] = {}
    for s in test_sets:
        ts = _tests(row.get(f"{s}_tests"), row_name, f"{s}_tests")
        counts[s] = len(ts)
        tests.extend(ts)
    if not tests:
        raise JudgeError(f"{row_name}: no tests in {', '.join(test_sets)}")
    mem_mb, rating = _memory_limit_mb(row, row_name), _rating(row, row_name)
    meta: dict[str, Any] = {
        "benchmark": "codecontests",
        "name": name,
        "source": _enum(row.get("source"), SOURCES),
        "difficulty": _enum(row.get("difficulty"), DIFFICULTIES),
        "cf_contest_id": row.get("cf_contest_id") or None,
        "cf_index": row.get("cf_index") or None,
        "cf_points": row.get("cf_points") or None,
        "cf_tags": list(row.get("cf_tags") or []),
        "input_file": row.get("input_file") or None,
        "output_file": row.get("output_file") or None,
        "test_counts": counts,
        "num_solutions": len(solutions_of(row)),
    }
    if include_solutions:
        meta["solutions"] = solutions_of(row)
        meta["incorrect_solutions"] = solutions_of(row, "incorrect_solutions")
    return Problem(
        id=f"codecontests/{name}",
        title=name,
        statement=row["description"],
        time_limit_ms=_time_limit_ms(row.get("time_limit"), row_name),
        memory_limit_mb=int(mem_mb),
        checker="codecontests",
        tests=tuple(tests),
        rating=rating,
        metadata=meta,
    )


def load_codecontests(
    source: str | os.PathLike = HUB_ID,
    *,
    split: str = "test",
    test_sets: Sequence[str] = TEST_SETS,
    names: Iterable[str] | None = None,
    include_solutions: bool = False,
    cache_dir: str | None = None,
    revision: str | None = None,
) -> list[Problem]:
    """CodeContests problems of ``split`` (train / valid / test) from a hub id, file or directory."""
    path = Path(os.fspath(source)).expanduser()
    if path.exists():
        builder, files = local_files(path)
        if path.is_dir():
            chosen = [f for f in files if Path(f).name.startswith(split)]
            files = chosen or files
        rows = load_rows(builder, files, what="codecontests", cache_dir=cache_dir)
    else:
        src = os.fspath(source)
        if src.startswith((".", "/", "~")) or src.count("/") != 1:
            raise JudgeError(f"{src}: no such file or directory (and not a hub id owner/name)")
        rows = load_rows(None, [], what="codecontests", cache_dir=cache_dir, hub_id=src,
                         split=split, revision=revision)
    wanted = set(names) if names is not None else None
    problems = []
    seen: set[str] = set()
    for i, row in enumerate(rows):
        if wanted is not None and row.get("name") not in wanted:
            continue
        p = problem_from_row(row, i, test_sets=test_sets, include_solutions=include_solutions)
        if p.id in seen:
            raise JudgeError(f"codecontests row {i}: duplicate name {row.get('name')!r}")
        seen.add(p.id)
        problems.append(p)
    return problems


__all__ = ["HUB_ID", "LANGUAGES", "SOURCES", "DIFFICULTIES", "TEST_SETS", "solutions_of",
           "problem_from_row", "load_codecontests"]

"""Finds problems by id: in a CF-Div2-Stepfun source when one is given, then in the embedded pack.

Ids: ``codeforces/2020A`` as is; a bare contest id + letter (``2020A``, ``2020a``, ``1950F2``)
means ``codeforces/<id>``; a slug (``two-sum``) means ``pack/<slug>``.
Loaded sources are cached for the life of the process.
"""
from __future__ import annotations

import re
import threading
from pathlib import Path

from judge import JudgeError
from judge.problems.model import Problem
from judge.problems.stepfun import load_parquet_file, load_stepfun

PACK_DIR = Path(__file__).resolve().parent / "pack"
PACK_FILE = PACK_DIR / "pack.parquet"
PACK = "pack"  # the source name of the embedded pack

_CF_SHORT = re.compile(r"^(\d{1,5})([A-Za-z])(\d?)$")
_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")

_cache: dict[str, tuple[list[Problem], dict[str, Problem]]] = {}
_lock = threading.Lock()


def _source_key(dataset: str | None) -> str:
    if dataset is None or dataset == PACK:
        return str(PACK_FILE)
    path = Path(dataset).expanduser()
    return str(path.resolve()) if path.exists() else dataset


def _load(dataset: str | None) -> tuple[list[Problem], dict[str, Problem]]:
    key = _source_key(dataset)
    with _lock:
        hit = _cache.get(key)
        if hit is not None:
            return hit
        if key == str(PACK_FILE) and not PACK_FILE.is_file():
            raise JudgeError(f"the embedded problem pack is missing ({PACK_FILE}); reinstall judge "
                             f"or run problems/pack/build_pack.py (in the source tree)")
        problems = load_parquet_file(PACK_FILE) if key == str(PACK_FILE) else load_stepfun(key)
        entry = (problems, {p.id: p for p in problems})
        _cache[key] = entry
        return entry


def clear_cache() -> None:
    with _lock:
        _cache.clear()


def candidate_ids(problem_id: str) -> list[str]:
    """The canonical ids a user-typed id may stand for, most likely first."""
    pid = problem_id.strip()
    if not pid:
        raise JudgeError("empty problem id")
    m = _CF_SHORT.match(pid)
    if m:
        return [f"codeforces/{m.group(1)}{m.group(2).upper()}{m.group(3)}"]
    if "/" in pid:
        prefix, rest = pid.split("/", 1)
        m = _CF_SHORT.match(rest)
        if prefix.lower() in ("codeforces", "cf") and m:
            return [f"codeforces/{m.group(1)}{m.group(2).upper()}{m.group(3)}"]
        return [pid]
    if _SLUG.match(pid.lower()):
        return [f"pack/{pid.lower()}"]
    return [pid]


def _find(problem_id: str, index: dict[str, Problem]) -> Problem | None:
    for cid in candidate_ids(problem_id):
        if cid in index:
            return index[cid]
    # Last resort: a unique id whose last path component matches ("2020A" in "cf/2020A").
    tail = problem_id.strip().split("/")[-1].lower()
    hits = [p for pid, p in index.items() if pid.split("/")[-1].lower() == tail]
    return hits[0] if len(hits) == 1 else None


def resolve(problem_id: str, dataset: str | None = None) -> Problem:
    """The problem with this id: from `dataset` if given (hub id, parquet/jsonl file or
    directory), else, or if not found there, from the embedded pack."""
    looked: list[str] = []
    if dataset is not None and dataset != PACK:
        _, index = _load(dataset)
        found = _find(problem_id, index)
        if found is not None:
            return found
        looked.append(f"dataset {dataset}")
    _, index = _load(None)
    found = _find(problem_id, index)
    if found is not None:
        return found
    looked.append(f"the embedded pack {PACK_FILE}")
    tried = ", ".join(candidate_ids(problem_id))
    raise JudgeError(f"unknown problem {problem_id!r} (as {tried}); looked in "
                     f"{' and '.join(looked)}; `judge problems list` shows the ids")


def list_problems(dataset: str | None = None) -> list[Problem]:
    """Every problem of `dataset` (default: the embedded pack), in source order."""
    problems, _ = _load(dataset)
    return list(problems)

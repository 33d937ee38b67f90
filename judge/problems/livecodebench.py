"""LiveCodeBench ``code_generation_lite`` problems, loaded through the ``datasets`` library.

Sources (``load_livecodebench(source, ...)``):

* a hub id (default ``livecodebench/code_generation_lite``): the selected release files are read
  as ``hf://datasets/<id>/<file>`` JSON lines (the repo's loading script is not run; recent
  ``datasets`` releases no longer run scripts). The hub is not reachable from every machine: any
  failure becomes a ``JudgeError`` (``datasets``' local cache still answers offline);
* a local ``.jsonl``/``.json``/``.parquet`` file: every row;
* a local directory: the release files it holds (``test.jsonl``, ``test2.jsonl``, ...) chosen by
  the version, or else every jsonl/parquet file in it.

Release versions (the lite repo holds ``test.jsonl``, ``test2.jsonl`` ... ``test6.jsonl``, one
file per release increment):

* ``release_vN``  -> ``test.jsonl``, ``test2.jsonl`` ... ``testN.jsonl`` (cumulative)
* ``release_latest`` -> every release file (locally: every ``test*.jsonl`` present; on the hub:
  release_v6's six files)
* ``vN``           -> only the N-th file (``v1`` is ``test.jsonl``)
* ``vA_vB``        -> files A to B inclusive

Schema of a row: question_id, question_title, question_content, platform, contest_id,
contest_date (ISO), starter_code, difficulty, metadata (JSON string; ``func_name`` for
LeetCode-style problems), public_test_cases (JSON string: list of {input, output, testtype}),
private_test_cases (a JSON string, or base64 -> zlib -> pickle of a JSON string; the pickle is
decoded by an unpickler that can only produce plain containers and strings, never import or
call anything, and the result must be a ``str``).

Limits: LiveCodeBench runs every test with a 6 s alarm (``--timeout 6`` in ``lcb_runner``;
``run_test(..., timeout=6)``), so the default time limit is 6000 ms. Its ``reliability_guard``
is called without a memory limit (its comment speaks of 4 GB), so the default memory limit is
4096 MB. Both can be overridden.

Checkers: stdin problems use ``"lcb"`` (LiveCodeBench's line/Decimal comparison); functional
(LeetCode-style) problems use ``"lcb-functional"`` (JSON value equality); see
``judge.checkers.dataset_comparators``. ``Problem.metadata`` carries ``testtype`` ("stdin" or
"functional"), ``func_name``, ``starter_code``, ``platform``, ``contest_id``, ``contest_date``,
``difficulty``, ``question_id`` and ``num_public_tests`` (the first tests are the public ones).
For functional tests a test's input is the JSON of each argument on its own line and its output
the JSON of the expected return value, exactly as in the dataset.
"""
from __future__ import annotations

import base64
import binascii
import io
import json
import os
import pickle
import re
import zlib
from collections.abc import Iterable, Iterator, Sequence
from datetime import date, datetime
from pathlib import Path
from typing import Any

from judge import JudgeError
from judge.cache import datasets_cache_dir
from judge.problems.hub import import_datasets
from judge.problems.model import Problem, TestCase

HUB_ID = "livecodebench/code_generation_lite"
DEFAULT_TIME_LIMIT_MS = 6000
DEFAULT_MEMORY_LIMIT_MB = 4096
LATEST_RELEASE = 6
MAX_DECOMPRESSED_BYTES = 2 << 30


# ------------------------------------------------------------------ shared datasets plumbing

def _builder_for(path: Path) -> str:
    name = path.name.lower()
    if name.endswith((".jsonl", ".json", ".jsonl.gz", ".json.gz")):
        return "json"
    if name.endswith(".parquet"):
        return "parquet"
    raise JudgeError(f"{path}: not a .jsonl, .json or .parquet file")


def load_rows(builder: str | None, data_files: list[str], *, what: str, cache_dir: str | None = None,
              hub_id: str | None = None, split: str = "train", revision: str | None = None
              ) -> Iterator[dict]:
    """Rows of ``data_files`` read by ``datasets.load_dataset`` (or of a hub dataset when
    ``hub_id`` is given and ``builder`` is None). Every failure is a JudgeError naming ``what``."""
    datasets = import_datasets(what)
    if cache_dir is None:
        cache_dir = datasets_cache_dir()
    try:
        if hub_id is not None and builder is None:
            ds = datasets.load_dataset(hub_id, split=split, cache_dir=cache_dir, revision=revision)
        else:
            ds = datasets.load_dataset(builder, data_files=data_files, split=split,
                                       cache_dir=cache_dir)
    except JudgeError:
        raise
    except Exception as e:  # noqa: BLE001 - datasets raises many unrelated types
        msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        where = hub_id or ", ".join(data_files[:3]) + (" ..." if len(data_files) > 3 else "")
        hint = (" (the hub may be unreachable from this machine; a local file or directory, "
                "or datasets' local cache, works offline)") if hub_id is not None else ""
        raise JudgeError(f"{what}: cannot load {where}: {type(e).__name__}: {msg}{hint}") from None
    return iter(ds)


def local_files(path: Path, patterns: Sequence[str] = ("*.jsonl", "*.json", "*.parquet")
                ) -> tuple[str, list[str]]:
    """(builder, files) of a local file or directory; one builder for all files."""
    if path.is_file():
        return _builder_for(path), [str(path)]
    files: list[Path] = []
    for pat in patterns:
        files.extend(sorted(p for p in path.rglob(pat) if p.is_file()))
    if not files:
        raise JudgeError(f"{path}: no {', '.join(patterns)} files in this directory")
    builders = {_builder_for(p) for p in files}
    if len(builders) > 1:
        # Prefer parquet when a directory has both (hub snapshots ship parquet + a README json).
        files = [p for p in files if _builder_for(p) == "parquet"]
        builders = {"parquet"}
    return builders.pop(), [str(p) for p in files]


# ------------------------------------------------------------------ release versions

_RELEASE = re.compile(r"release_v(\d+)")
_SINGLE = re.compile(r"v(\d+)")
_RANGE = re.compile(r"v(\d+)_v(\d+)")


def release_file(i: int) -> str:
    return "test.jsonl" if i == 1 else f"test{i}.jsonl"


def release_files(version: str) -> list[str]:
    """The lite repo's files that make up ``version`` (see the module docstring)."""
    v = version.strip()
    if v == "release_latest":
        return [release_file(i) for i in range(1, LATEST_RELEASE + 1)]
    m = _RELEASE.fullmatch(v)
    if m and int(m[1]) >= 1:
        return [release_file(i) for i in range(1, int(m[1]) + 1)]
    m = _SINGLE.fullmatch(v)
    if m and int(m[1]) >= 1:
        return [release_file(int(m[1]))]
    m = _RANGE.fullmatch(v)
    if m and 1 <= int(m[1]) <= int(m[2]):
        return [release_file(i) for i in range(int(m[1]), int(m[2]) + 1)]
    raise JudgeError(f"unknown LiveCodeBench release {version!r}: use release_vN, release_latest, "
                     "vN or vA_vB")


def _release_index(name: str) -> int | None:
    if name == "test.jsonl":
        return 1
    m = re.fullmatch(r"test(\d+)\.jsonl", name)
    return int(m[1]) if m else None


def _release_order(name: str) -> int:
    """The sort key of a release file (every name sorted here has an index)."""
    index = _release_index(name)
    assert index is not None, name
    return index


# ------------------------------------------------------------------ private tests

class _StrOnlyUnpickler(pickle.Unpickler):
    """Builds only what pickle opcodes build without globals (str, bytes, numbers, containers);
    any class, function or extension lookup is refused, so nothing is imported or called."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"refused global {module}.{name}")

    def persistent_load(self, pid: Any) -> Any:
        raise pickle.UnpicklingError("refused persistent id")


def decode_private_tests(field: str) -> list:
    """The private test list of a row: JSON, or base64 -> zlib -> (str-only) pickle -> JSON."""
    if not isinstance(field, str):
        raise JudgeError(f"private_test_cases is a {type(field).__name__}, not a string")
    try:
        value = json.loads(field)
        if isinstance(value, list):
            return value
    except ValueError:
        pass
    try:
        raw = base64.b64decode(field.encode("ascii"), validate=False)
    except (binascii.Error, UnicodeEncodeError, ValueError) as e:
        raise JudgeError(f"private_test_cases is neither JSON nor base64: {e}") from None
    try:
        d = zlib.decompressobj()
        data = d.decompress(raw, MAX_DECOMPRESSED_BYTES)
        if d.unconsumed_tail:
            raise JudgeError(f"private_test_cases decompresses to more than "
                             f"{MAX_DECOMPRESSED_BYTES} bytes")
        data += d.flush()
    except zlib.error as e:
        raise JudgeError(f"private_test_cases: bad zlib data: {e}") from None
    try:
        obj = _StrOnlyUnpickler(io.BytesIO(data)).load()
    except Exception as e:  # noqa: BLE001 - any unpickling failure is bad data
        raise JudgeError(f"private_test_cases: refused pickle: {e}") from None
    if not isinstance(obj, str):
        raise JudgeError(f"private_test_cases: the pickle holds a {type(obj).__name__}, "
                         "not a JSON string")
    try:
        value = json.loads(obj)
    except ValueError as e:
        raise JudgeError(f"private_test_cases: not JSON inside the pickle: {e}") from None
    if not isinstance(value, list):
        raise JudgeError("private_test_cases: JSON is not a list of tests")
    return value


def encode_private_tests(tests: list) -> str:
    """The inverse of the compressed form (used to write fixtures)."""
    return base64.b64encode(zlib.compress(pickle.dumps(json.dumps(tests)))).decode("ascii")


# ------------------------------------------------------------------ rows -> problems

def _as_date(value: Any, what: str) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value.strip().replace("Z", "+00:00")).date()
        except ValueError:
            pass
    raise JudgeError(f"{what}: bad date {value!r} (want YYYY-MM-DD or ISO date-time)")


def _tests(raw: Any, row_name: str, field: str) -> list[tuple[TestCase, str]]:
    if not isinstance(raw, list):
        raise JudgeError(f"{row_name}: {field} is not a list")
    out = []
    for j, t in enumerate(raw):
        if not isinstance(t, dict) or not isinstance(t.get("input"), str) \
                or not isinstance(t.get("output"), str):
            raise JudgeError(f"{row_name}: {field}[{j}] needs string 'input' and 'output'")
        tt = t.get("testtype", "stdin")
        if tt not in ("stdin", "functional"):
            raise JudgeError(f"{row_name}: {field}[{j}] has unknown testtype {tt!r}")
        out.append((TestCase(t["input"].encode("utf-8"), t["output"].encode("utf-8")), tt))
    return out


def _row_tests(row: dict, row_name: str, include_private: bool
               ) -> tuple[list[TestCase], str, int]:
    """The row's tests, their one test type and how many are public."""
    try:
        public = json.loads(row["public_test_cases"]) \
            if isinstance(row["public_test_cases"], str) else row["public_test_cases"]
    except ValueError as e:
        raise JudgeError(f"{row_name}: public_test_cases is not JSON: {e}") from None
    tests = _tests(public, row_name, "public_test_cases")
    num_public = len(tests)
    if include_private and row.get("private_test_cases") not in (None, ""):
        try:
            private = decode_private_tests(row["private_test_cases"])
        except JudgeError as e:
            raise JudgeError(f"{row_name}: {e}") from None
        tests += _tests(private, row_name, "private_test_cases")
    if not tests:
        raise JudgeError(f"{row_name}: no tests")
    kinds = {tt for _, tt in tests}
    if len(kinds) > 1:
        raise JudgeError(f"{row_name}: mixes stdin and functional tests")
    return [t for t, _ in tests], kinds.pop(), num_public


def _row_metadata(row: dict, row_name: str, testtype: str) -> dict:
    """The row's own metadata object; functional problems must name their function."""
    meta_raw = row.get("metadata") or "{}"
    try:
        meta = json.loads(meta_raw) if isinstance(meta_raw, str) else dict(meta_raw)
    except (ValueError, TypeError) as e:
        raise JudgeError(f"{row_name}: metadata is not a JSON object: {e}") from None
    if not isinstance(meta, dict):
        raise JudgeError(f"{row_name}: metadata is not a JSON object")
    if testtype == "functional" and not meta.get("func_name"):
        raise JudgeError(f"{row_name}: functional tests but no func_name in metadata")
    return meta


def problem_from_row(row: dict, index: int = 0, *, time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
                     memory_limit_mb: int = DEFAULT_MEMORY_LIMIT_MB,
                     include_private: bool = True) -> Problem:
    if not isinstance(row, dict):
        raise JudgeError(f"livecodebench row {index}: not a mapping")
    qid = row.get("question_id")
    row_name = f"livecodebench row {index}" + (f" ({qid})" if qid else "")
    for key in ("question_id", "question_content", "public_test_cases"):
        if row.get(key) is None:
            raise JudgeError(f"{row_name}: missing field {key!r}")
    tests, testtype, num_public = _row_tests(row, row_name, include_private)
    meta = _row_metadata(row, row_name, testtype)

    contest_date = row.get("contest_date")
    return Problem(
        id=f"livecodebench/{qid}",
        title=str(row.get("question_title") or qid),
        statement=str(row["question_content"]),
        time_limit_ms=int(time_limit_ms),
        memory_limit_mb=int(memory_limit_mb),
        checker="lcb-functional" if testtype == "functional" else "lcb",
        tests=tuple(tests),
        rating=None,
        metadata={
            "benchmark": "livecodebench",
            "question_id": qid,
            "platform": row.get("platform"),
            "contest_id": row.get("contest_id"),
            "contest_date": contest_date.isoformat() if isinstance(contest_date, (date, datetime))
            else contest_date,
            "difficulty": row.get("difficulty"),
            "starter_code": row.get("starter_code") or "",
            "func_name": meta.get("func_name"),
            "testtype": testtype,
            "num_public_tests": num_public,
            "lcb_metadata": meta,
        },
    )


def load_livecodebench(
    source: str | os.PathLike = HUB_ID,
    *,
    release: str | None = None,
    start_date: str | date | None = None,
    end_date: str | date | None = None,
    platforms: Iterable[str] | None = None,
    difficulties: Iterable[str] | None = None,
    time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
    memory_limit_mb: int = DEFAULT_MEMORY_LIMIT_MB,
    include_private: bool = True,
    cache_dir: str | None = None,
    revision: str | None = None,
) -> list[Problem]:
    """LiveCodeBench problems from a hub id, a file or a directory, filtered by release and by
    contest date (``start_date`` and ``end_date`` inclusive, e.g. 2024-08-01..2025-02-28)."""
    start = _as_date(start_date, "start_date") if start_date is not None else None
    end = _as_date(end_date, "end_date") if end_date is not None else None
    if start and end and start > end:
        raise JudgeError(f"start_date {start} is after end_date {end}")
    rows = _rows(source, release, cache_dir, revision)
    plats = {p.lower() for p in platforms} if platforms is not None else None
    diffs = {d.lower() for d in difficulties} if difficulties is not None else None
    problems: list[Problem] = []
    seen: set[str] = set()
    for i, row in enumerate(rows):
        if not _selected(row, i, start, end, plats, diffs):
            continue
        p = problem_from_row(row, i, time_limit_ms=time_limit_ms, memory_limit_mb=memory_limit_mb,
                             include_private=include_private)
        if p.id in seen:
            raise JudgeError(f"livecodebench row {i}: duplicate question_id "
                             f"{row.get('question_id')!r}")
        seen.add(p.id)
        problems.append(p)
    return problems


def _rows(source: str | os.PathLike, release: str | None, cache_dir: str | None,
          revision: str | None) -> Iterator[dict]:
    """The rows of a local file or directory, or of the hub's release files."""
    path = Path(os.fspath(source)).expanduser()
    if not path.exists():
        src = os.fspath(source)
        if src.startswith((".", "/", "~")) or src.count("/") != 1:
            raise JudgeError(f"{src}: no such file or directory (and not a hub id owner/name)")
        rev = f"@{revision}" if revision else ""
        files = [f"hf://datasets/{src}{rev}/{f}" for f in release_files(release or "release_latest")]
        return load_rows("json", files, what="livecodebench", cache_dir=cache_dir, hub_id=src)
    if path.is_file():
        if release is not None:
            raise JudgeError(f"{path}: a release version selects files of a directory or of "
                             "the hub; this is a single file")
        builder, files = _builder_for(path), [str(path)]
    else:
        builder, files = _directory_files(path, release)
    return load_rows(builder, files, what="livecodebench", cache_dir=cache_dir)


def _directory_files(path: Path, release: str | None) -> tuple[str, list[str]]:
    """A directory's release files (all, or a release's), else whatever data files it holds."""
    present = {p.name: p for p in path.iterdir()
               if p.is_file() and _release_index(p.name) is not None}
    if release is not None:
        wanted = release_files(release)
        if release == "release_latest":
            wanted = sorted(present, key=_release_order)
        missing = [f for f in wanted if f not in present]
        if missing or not wanted:
            raise JudgeError(f"{path}: release {release} needs {', '.join(missing or wanted)}"
                             " which is not in this directory")
        return "json", [str(present[f]) for f in wanted]
    if present:
        return "json", [str(present[f]) for f in sorted(present, key=_release_order)]
    return local_files(path)


def _selected(row: object, index: int, start: date | None, end: date | None,
              platforms: set[str] | None, difficulties: set[str] | None) -> bool:
    """Whether the row is within the contest dates, platforms and difficulties asked for."""
    if not isinstance(row, dict):
        return True          # problem_from_row says what is wrong with it
    if start or end:
        d = _as_date(row.get("contest_date"),
                     f"livecodebench row {index} ({row.get('question_id')}) contest_date")
        if (start and d < start) or (end and d > end):
            return False
    if platforms is not None and str(row.get("platform", "")).lower() not in platforms:
        return False
    return difficulties is None or str(row.get("difficulty", "")).lower() in difficulties


__all__ = [
    "HUB_ID", "DEFAULT_TIME_LIMIT_MS", "DEFAULT_MEMORY_LIMIT_MB", "release_files",
    "decode_private_tests", "encode_private_tests", "problem_from_row", "load_livecodebench",
    "load_rows", "local_files",
]
